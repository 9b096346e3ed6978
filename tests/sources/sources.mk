# tests/sources: live sources, control commands, recording, the loop.
#
#   check-sources-units	control, record and the source kinds, without the
#			model or a terminal
#   check-sources-e2e	evtop against a fake producer serving real logs:
#			faults, FIFOs, stdin, commands on the wire
#   check-sources-tui	the TUI loop with a test double for ui/: replay
#			pacing and keys, draw rate, signals
#   check-sources-damaged-tui	the TUI (tmux) over a stream with text in it,
#			and a FIFO --once whose writer writes nothing
#   check-sockprog	evtop against real GHC programs (tests/sockprog):
#			FIFO, Unix and TCP sockets, control commands
#			(SKIPPED without ghc)
#   bench-sources	sustained input rate from a Unix socket, model on

SRCT_DIR := build/tests/sources
# The units link only what they test: proto/ and the source files.
SRCT_UNIT_OBJ := $(PROTO_OBJ) build/src/source/source.o build/src/source/source-cause.o \
	build/src/source/source-unix.o \
	build/src/source/source-tcp.o build/src/source/source-fifo.o build/src/source/source-stdin.o \
	build/src/source/control.o build/src/source/record.o
SOCKPROG := build/tests/sockprog/sockprog

$(SRCT_DIR)/t-units: $(SRCT_DIR)/t-units.o $(SRCT_UNIT_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(SRCT_DIR)/fakeprod: $(SRCT_DIR)/fakeprod.o $(PROTO_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The TUI loop with a test double for ui/ (tests only).
$(SRCT_DIR)/tuidouble: $(SRCT_DIR)/tuidouble.o $(CORE_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The test program: Haskell with a C main and EventLogWriter.  Without ghc
# nothing is built and check-sockprog says SKIPPED.
$(SOCKPROG): tests/sockprog/SockProg.hs tests/sockprog/sockprog.c
	@mkdir -p $(@D)
	@if command -v ghc >/dev/null 2>&1; then \
		echo "ghc $@"; \
		ghc -O -threaded -eventlog -no-hs-main -v0 \
		    -outputdir $(@D)/obj $^ -o $@; \
	fi

check-sources-units: $(SRCT_DIR)/t-units
	$(SRCT_DIR)/t-units

check-sources-e2e: evtop $(SRCT_DIR)/fakeprod build/bench/mklog
	tests/sources/e2e.sh ./evtop $(SRCT_DIR)/fakeprod build/bench/mklog

check-sources-tui: evtop $(SRCT_DIR)/tuidouble $(SRCT_DIR)/fakeprod build/bench/mklog
	tests/sources/tui.sh $(SRCT_DIR)/tuidouble $(SRCT_DIR)/fakeprod \
	    build/bench/mklog

check-sources-damaged-tui: evtop
	tests/sources/damaged-tui.sh

check-sockprog: evtop $(SOCKPROG)
	tests/sockprog/sockprog.sh ./evtop $(SOCKPROG)

# Sustained input rate: a fake producer floods a Unix socket with a large
# log made from a real one; evtop --batch reads it with the model on.  The
# rate is bytes over the time from the connection to its end (evtop's log).
bench-sources: evtop $(SRCT_DIR)/fakeprod $(BENCH_LOG)
	tests/sources/bench.sh ./evtop $(SRCT_DIR)/fakeprod $(BENCH_LOG)

CHECKS += check-sources-units check-sources-e2e check-sources-tui \
	check-sources-damaged-tui check-sockprog
BENCHES += bench-sources
.PHONY: check-sources-units check-sources-e2e check-sources-tui \
	check-sources-damaged-tui check-sockprog bench-sources
