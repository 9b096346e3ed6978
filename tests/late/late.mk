# tests/late: live figures exact however late a capability's events arrive
# (issue 15).  tests/late/delay moves some capabilities' blocks later in a
# log; fakeprod serves it over a Unix socket, cat through a FIFO; the live
# final figures must equal those of the original file.
#
#   check-late		delay keeps a file's figures (every fixture and
#			corpus log); live = file over a socket and a FIFO,
#			several capabilities and delays; past the kept
#			history, late > 0 and nothing lost (late.sh;
#			SKIPPED without python3)
#   check-late-san	check-late with evtop built with ASan and UBSan (the
#			history's files, checkpoints and corrections)
#   check-late-tui	the TUI in tmux under a stream of late blocks: the
#			correction said, keys answered, the terminal
#			restored (tui.sh; SKIPPED without tmux or python3)

LATE_DIR := build/tests/late
LATE_CORPUS ?= ../shared/conformance/ghc-events

$(LATE_DIR)/delay: tests/late/delay.c $(PROTO_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $^ $(LDLIBS)

# Late global events applied in place, and again after a correction goes
# back past their coming (t_aside.c, through fuzz-live.h's live path).
$(LATE_DIR)/t_aside: tests/late/t_aside.c tests/fuzz/fuzz-live.h tests/tap.h $(CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

$(LATE_DIR)/san-t_aside: tests/late/t_aside.c tests/fuzz/fuzz-live.h tests/tap.h $(ASAN_CORE)
	@mkdir -p $(@D)
	$(SAN_CC) $(CPPFLAGS) -O1 -g $(ASAN) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

# And with runs of 64 events, slabs of 64, 2 KiB kept of what comes during
# a run (runs overflow it: restarted, or read again) and 4 KiB of late
# events kept aside (past the history, most cannot be).
LATE_OVER := -DT_ASIDE_OVERFLOW -DREDO_N=64 -DFEED_N=64 -DREDO_Q_BYTES=2048 \
	-DREDO_ASIDE_BYTES=4096
$(LATE_DIR)/t_aside-over: tests/late/t_aside.c tests/fuzz/fuzz-live.h tests/tap.h src/time/redo.c src/read/feed.c \
    $(filter-out build/src/time/redo.o build/src/read/feed.o,$(CORE_OBJ))
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LATE_OVER) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

LATE_ASIDE_LOGS := $(wildcard tests/fixtures/*.eventlog)

check-late: evtop $(LATE_DIR)/delay build/tests/sources/fakeprod build/bench/mklog \
    $(LATE_DIR)/t_aside $(LATE_DIR)/san-t_aside $(LATE_DIR)/t_aside-over
	@$(LATE_DIR)/t_aside $(LATE_ASIDE_LOGS)
	@echo "overflowing runs: $$($(LATE_DIR)/t_aside-over $(LATE_ASIDE_LOGS) | tail -1)"
	@echo "ASan/UBSan: $$($(LATE_DIR)/san-t_aside $(LATE_ASIDE_LOGS) | tail -1)"
	@if ! command -v python3 >/dev/null 2>&1; then \
	    echo "check-late: SKIPPED: python3 not found"; else \
	    tests/late/late.sh ./evtop $(LATE_DIR)/delay \
	    build/tests/sources/fakeprod build/bench/mklog $(LATE_CORPUS); fi

# The whole of evtop under the sanitizers, for the live paths.
$(LATE_DIR)/san-evtop: $(call asan_obj,$(PROTO_SRC) $(SRC_SRC) $(UI_SRC))
	@mkdir -p $(@D)
	$(SAN_CC) $(ASAN) -o $@ $^ $(UI_LIBS) $(LDLIBS)

check-late-san: $(LATE_DIR)/san-evtop $(LATE_DIR)/delay build/tests/sources/fakeprod build/bench/mklog
	@if ! command -v python3 >/dev/null 2>&1; then \
	    echo "check-late-san: SKIPPED: python3 not found"; else \
	    tests/late/late.sh $(LATE_DIR)/san-evtop $(LATE_DIR)/delay \
	    build/tests/sources/fakeprod build/bench/mklog $(LATE_CORPUS); fi

check-late-tui: evtop $(LATE_DIR)/delay build/tests/sources/fakeprod build/bench/mklog
	@if ! command -v tmux >/dev/null 2>&1; then \
	    echo "check-late-tui: SKIPPED: tmux not found"; \
	elif ! command -v python3 >/dev/null 2>&1; then \
	    echo "check-late-tui: SKIPPED: python3 not found"; else \
	    tests/late/tui.sh ./evtop $(LATE_DIR)/delay \
	    build/tests/sources/fakeprod build/bench/mklog; fi

CHECKS	+= check-late check-late-san check-late-tui
# (check-late-tui runs after every other check: see GNUmakefile.)
.PHONY: check-late check-late-san check-late-tui

# What late events cost on the real program's logs (make bench records
# them): re-applying against --batch, in the same run.
bench-late: evtop $(LATE_DIR)/delay build/tests/sources/fakeprod $(BENCH_GHC_LOGS)
	tests/late/bench-late.sh ./evtop $(LATE_DIR)/delay \
	    build/tests/sources/fakeprod $(BENCH_GHC_LOGS)

BENCHES += bench-late
.PHONY: bench-late
