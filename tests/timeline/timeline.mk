# The timeline: its summary (src/time/tl.c, tl-read.c) against an
# independent computation, the same under ASan and UBSan.  The pane's
# tests are in tests/ui (test-panes.c, e2e-ui/run.sh).
TL_CORPUS := $(firstword $(wildcard $(CORPUS)) $(wildcard ../shared/conformance/ghc-events))

build/tests/timeline/t_tl: tests/timeline/t_tl.c tests/tap.h $(CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

build/tests/timeline/san-t_tl: tests/timeline/t_tl.c tests/tap.h $(ASAN_CORE)
	@mkdir -p $(@D)
	$(SAN_CC) $(CPPFLAGS) -O1 -g $(ASAN) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

check-timeline: build/tests/timeline/t_tl
	@build/tests/timeline/t_tl tests/fixtures $(TL_CORPUS) \
	    >build/tests/timeline/t_tl.out || \
	    { grep -v '^ok' build/tests/timeline/t_tl.out; exit 1; }
	@echo "timeline: $$(tail -1 build/tests/timeline/t_tl.out)"

check-timeline-san: build/tests/timeline/san-t_tl
	@build/tests/timeline/san-t_tl tests/fixtures $(TL_CORPUS) \
	    >build/tests/timeline/san-t_tl.out || \
	    { grep -v '^ok' build/tests/timeline/san-t_tl.out; exit 1; }
	@echo "timeline ASan/UBSan: $$(tail -1 build/tests/timeline/san-t_tl.out)"

CHECKS	+= check-timeline check-timeline-san
.PHONY: check-timeline check-timeline-san

# What tl_event() adds to a first pass over the big real log.
TL_BENCH_LOG ?= build/bench/ghc-n2.eventlog

build/tests/timeline/bench_tl: tests/timeline/bench_tl.c $(CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

bench-timeline: build/tests/timeline/bench_tl
	@if [ -f $(TL_BENCH_LOG) ]; then build/tests/timeline/bench_tl $(TL_BENCH_LOG); \
	    else echo "bench-timeline: SKIPPED (no $(TL_BENCH_LOG): make bench builds it)"; fi

BENCHES	+= bench-timeline
.PHONY: bench-timeline
