# make bench: throughput of the decoder, `evtop show`, and (from the other
# areas' BENCHES) replay, sources and UI, on a large log made at bench time
# from a real one.
BENCH_MB  ?= 500
BENCH_SRC ?= $(firstword $(wildcard tests/fixtures/gc.eventlog) $(CORPUS)/parallelTest.eventlog)
BENCH_LOG := build/bench/big.eventlog
BENCHES	:=

build/bench/%: tests/bench/%.c $(PROTO_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $^ $(LDLIBS)

$(BENCH_LOG): build/bench/mklog $(BENCH_SRC)
	build/bench/mklog $(BENCH_SRC) $@ $(BENCH_MB)

bench-decode: build/bench/bench_decode $(BENCH_LOG)
	build/bench/bench_decode $(BENCH_LOG)

bench-show: evtop build/bench/runrss $(BENCH_LOG)
	build/bench/runrss "evtop show $$(($$(stat -c %s $(BENCH_LOG)) >> 20)) MB" ./evtop show $(BENCH_LOG)

BENCHES += bench-decode bench-show
.PHONY: bench-decode bench-show

# The TUI drawing in tmux while fed over a Unix socket (after bench-sources,
# which builds the fake producer).
bench-tui: evtop build/tests/sources/fakeprod $(BENCH_LOG)
	tests/bench/bench-tui.sh ./evtop build/tests/sources/fakeprod $(BENCH_LOG)

BENCHES += bench-tui
.PHONY: bench-tui
