# The fast paths against the simple ones they stand for (the merge's are in
# tests/merge): GC windows summed by slot and second, checked against
# counting the records kept at every query, under ASan and UBSan.
build/perf/t_gcwin: tests/perf/t_gcwin.c $(CORE_SRC) src/model/model.h src/model/model-priv.h
	@mkdir -p $(@D)
	$(SAN_CC) $(CPPFLAGS) -DMODEL_GC_CHECK -O1 -g $(ASAN) -o $@ tests/perf/t_gcwin.c $(CORE_SRC) $(LDLIBS)

check-gcwin: build/perf/t_gcwin build/merge/mksynth
	@mkdir -p build/perf/synth
	@build/merge/mksynth 11 30000 3 500 1 200000 > build/perf/synth/gc-a.eventlog
	@build/merge/mksynth 12 40000 6 3000 4 2000000 > build/perf/synth/gc-b.eventlog
	@build/merge/mksynth 13 60000 2 800 1 400000 > build/perf/synth/gc-c.eventlog
	build/perf/t_gcwin $(MODEL_FILES) build/perf/synth/*.eventlog

CHECKS += check-gcwin
.PHONY: check-gcwin
