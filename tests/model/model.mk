# Model tests: unit tests on hand-built eventlogs, the same under ASan and
# UBSan, and a throughput benchmark of merge + model.
CORPUS	?= ../shared/conformance/ghc-events
MODEL_FILES = $(wildcard tests/fixtures/*.eventlog) $(wildcard $(CORPUS)/*.eventlog)

build/tests/t_model: tests/model/t_model.c $(CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $^ $(LDLIBS)

build/tests/t_outbuf: tests/model/t_outbuf.c $(CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $^ $(LDLIBS)

build/tests/batch_driver: tests/model/batch_driver.c $(CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $^ $(LDLIBS)

build/tests/bench_model: tests/model/bench_model.c $(CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $^ $(LDLIBS)

build/san/t_model: tests/model/t_model.c $(ASAN_CORE)
	@mkdir -p $(@D)
	$(SAN_CC) $(CPPFLAGS) -DT_MODEL_SAN -O1 -g $(ASAN) -o $@ $^ $(LDLIBS)

build/san/t_outbuf: tests/model/t_outbuf.c build/asan-o/src/model/outbuf.o
	@mkdir -p $(@D)
	$(SAN_CC) $(CPPFLAGS) -O1 -g $(ASAN) -o $@ $^ $(LDLIBS)

build/san/batch_driver: tests/model/batch_driver.c $(ASAN_CORE)
	@mkdir -p $(@D)
	$(SAN_CC) $(CPPFLAGS) -O1 -g $(ASAN) -o $@ $^ $(LDLIBS)

check-model: build/tests/t_model
	@echo "build/tests/t_model (fixtures and corpus)"; build/tests/t_model $(MODEL_FILES)

# The JSON writer against printf and the former js_str().
check-outbuf: build/tests/t_outbuf
	@echo "build/tests/t_outbuf"; build/tests/t_outbuf | grep -v '^ok '

check-model-asan: build/san/t_model build/san/t_outbuf build/san/batch_driver
	@echo "build/san/t_outbuf"; build/san/t_outbuf | grep -v '^ok '
	@echo "build/san/t_model (fixtures and corpus)"; build/san/t_model $(MODEL_FILES)
	@for f in $(MODEL_FILES); do \
		build/san/batch_driver --interval 0.01 $$f >/dev/null 2>&1 && \
		build/san/batch_driver --json --interval 0.01 $$f >/dev/null \
		    2>&1 || { echo "not ok - batch_driver $$f"; exit 1; }; \
	done; echo "batch under ASan/UBSan: $(words $(MODEL_FILES)) logs ok"

# merge + model, merge alone, model alone and decode + reorder + model over
# the bench area's large log (one pass), then `--batch --json` end to end.
bench-model: build/tests/bench_model build/tests/batch_driver build/bench/runrss $(BENCH_LOG)
	build/tests/bench_model $(BENCH_LOG) 1
	build/bench/runrss "evtop --batch --json $$(($$(stat -c %s $(BENCH_LOG)) >> 20)) MB" build/tests/batch_driver --json $(BENCH_LOG)

BENCHES += bench-model

asan: check-model-asan
CHECKS += check-model check-outbuf check-model-asan
.PHONY: check-model check-outbuf check-model-asan bench-model
