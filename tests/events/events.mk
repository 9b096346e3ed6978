# The raw events (src/time/evlist*.c): lines equal `evtop show`'s, read
# forwards and backwards; the search's prefilter against the brute force
# on every fixture and corpus log; the same over a live source's history
# (t_evlive.c, live.sh); the same under ASan and UBSan; the search's speed
# against --batch.
EVENTS_FILES = $(wildcard tests/fixtures/*.eventlog) $(wildcard $(CORPUS)/*.eventlog)
# A GHC 9.6 log cut short in its IPE events (a recording cut, a live
# history's newest file): read with two passes, each IPE framed with the
# bytes after it.
EVENTS_CUT := build/tests/events/ipe-cut.eventlog

$(EVENTS_CUT): tests/fixtures/ghc96-ipe-hT.eventlog
	@mkdir -p $(@D)
	head -c 20000 $< >$@
build/tests/events/t_evlist: tests/events/t_evlist.c tests/events/all.h tests/tap.h $(CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

EVLIST_SRC = $(PROTO_SRC) $(READER_SRC) src/read/feed.c $(wildcard src/time/evlist*.c) src/time/evlist.h $(wildcard src/time/spill*.c) src/source/source-cause.c

build/tests/events/san-t_evlist: tests/events/t_evlist.c tests/events/all.h tests/tap.h $(call asan_obj,$(EVLIST_SRC))
	@mkdir -p $(@D)
	$(SAN_CC) $(CPPFLAGS) -O1 -g $(ASAN) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

# A forward search past its first slice reads a file on a thread of its
# own (feed.c): t_evlist under ThreadSanitizer, on the fixtures.
build/tsan/t_evlist: tests/events/t_evlist.c tests/events/all.h tests/tap.h $(call tsan_obj,$(EVLIST_SRC))
	@mkdir -p $(@D)
	$(SAN_CC) $(CPPFLAGS) -O1 -g $(TSAN) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

# Over a live source's history (t_evlive.c): the fixtures; a 1 MB log
# for files dropped under a reading cursor; the same with capability 1's
# blocks 20 blocks late, for redo.c reading while the pane's cursor does.
EVLIVE_DIR := build/tests/events
EVLIVE_LOGS := $(EVLIVE_DIR)/long.eventlog $(EVLIVE_DIR)/late.eventlog \
	$(EVLIVE_DIR)/ipe-burst.eventlog
EVLIVE_ARGS = -d $(EVLIVE_DIR)/long.eventlog -r $(EVLIVE_DIR)/late.eventlog \
	-i $(EVLIVE_DIR)/ipe-burst.eventlog $(wildcard tests/fixtures/*.eventlog)

build/tests/events/t_evlive: tests/events/t_evlive.c tests/events/all.h tests/tap.h $(CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

build/tests/events/san-t_evlive: tests/events/t_evlive.c tests/events/all.h tests/tap.h $(ASAN_CORE)
	@mkdir -p $(@D)
	$(SAN_CC) $(CPPFLAGS) -O1 -g $(ASAN) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

$(EVLIVE_DIR)/long.eventlog: build/bench/mklog tests/fixtures/gc.eventlog
	@mkdir -p $(@D)
	build/bench/mklog tests/fixtures/gc.eventlog $@ 1 2>/dev/null

$(EVLIVE_DIR)/late.eventlog: $(EVLIVE_DIR)/long.eventlog build/tests/late/delay
	build/tests/late/delay --cap 1 --blocks 20 $< $@

# Blocks of GHC 9.6 IPE events only: every block marker follows an IPE.
$(EVLIVE_DIR)/ipeburst: tests/events/ipeburst.c $(PROTO_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $^ $(LDLIBS)

$(EVLIVE_DIR)/ipe-burst.eventlog: $(EVLIVE_DIR)/ipeburst tests/fixtures/ghc96-ipe-hi.eventlog
	$(EVLIVE_DIR)/ipeburst tests/fixtures/ghc96-ipe-hi.eventlog $@ 2000

build/tests/events/bench-search: tests/events/bench-search.c $(CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

# The pane through the view, linked as tests/ui links its tests.
build/tests/events/t_pane_events: tests/events/t_pane_events.c tests/tap.h tests/ui/uitest.h build/tests/ui/libuicore.a ui/ui.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $(filter %.c %.a,$^) $(LDLIBS)

build/tests/events/san-t_pane_events: tests/events/t_pane_events.c tests/tap.h tests/ui/uitest.h build/tests/ui/san/libuicore.a ui/ui.h
	@mkdir -p $(@D)
	$(SAN_CC) $(CPPFLAGS) -O1 -g $(ASAN) -o $@ $(filter %.c %.a,$^) $(LDLIBS)

# Failures show in full; the last line is the summary.
check-events: evtop build/tests/events/t_evlist build/tests/events/t_pane_events build/tests/events/t_evlive $(EVLIVE_LOGS) $(EVENTS_CUT)
	@build/tests/events/t_evlist ./evtop $(EVENTS_FILES) $(EVENTS_CUT) \
	    >build/tests/events/t_evlist.out || \
	    { grep -v '^ok' build/tests/events/t_evlist.out; exit 1; }
	@grep '^#' build/tests/events/t_evlist.out | tail -1
	@tail -1 build/tests/events/t_evlist.out
	@# 2000 blocks of 8 IPEs (ipeburst.c): each block's last IPE is framed
	@# with the next block's first bytes, in show and in --batch.
	@n=$$(./evtop show $(EVLIVE_DIR)/ipe-burst.eventlog | grep -c ': Info Table: '); \
	    b=$$(./evtop --batch --json $(EVLIVE_DIR)/ipe-burst.eventlog | tail -n 1 | jq '.events.IPE'); \
	    if [ "$$n/$$b" != 16000/16000 ]; then \
	    echo "not ok - ipe-burst: $$n IPE events shown, $$b in --batch, not 16000"; exit 1; fi; \
	    echo "ipe-burst: 16000 IPE events, a block's last one framed with the next block's bytes"
	@build/tests/events/t_evlive ./evtop $(EVLIVE_ARGS) \
	    >build/tests/events/t_evlive.out || \
	    { grep -v '^ok' build/tests/events/t_evlive.out; exit 1; }
	@echo "live history: $$(tail -1 build/tests/events/t_evlive.out)"
	@build/tests/events/t_pane_events $(EVENTS_FILES) \
	    >build/tests/events/t_pane_events.out || \
	    { grep -v '^ok' build/tests/events/t_pane_events.out; exit 1; }
	@tail -1 build/tests/events/t_pane_events.out

check-events-san: evtop build/tests/events/san-t_evlist build/tests/events/san-t_pane_events build/tests/events/san-t_evlive $(EVLIVE_LOGS) $(EVENTS_CUT)
	@build/tests/events/san-t_evlist -p 100000 ./evtop $(EVENTS_FILES) $(EVENTS_CUT) \
	    >build/tests/events/san-t_evlist.out || \
	    { grep -v '^ok' build/tests/events/san-t_evlist.out; exit 1; }
	@echo "ASan/UBSan: $$(tail -1 build/tests/events/san-t_evlist.out)"
	@build/tests/events/san-t_evlive ./evtop $(EVLIVE_ARGS) \
	    >build/tests/events/san-t_evlive.out || \
	    { grep -v '^ok' build/tests/events/san-t_evlive.out; exit 1; }
	@echo "ASan/UBSan, live history: $$(tail -1 build/tests/events/san-t_evlive.out)"
	@build/tests/events/san-t_pane_events $(EVENTS_FILES) \
	    >build/tests/events/san-t_pane_events.out || \
	    { grep -v '^ok' build/tests/events/san-t_pane_events.out; exit 1; }
	@echo "ASan/UBSan: $$(tail -1 build/tests/events/san-t_pane_events.out)"

# Through tmux at 80x24 and 200x60 (skipped without tmux): a file; a
# live source's history (a slow producer, fakeprod).
check-events-e2e: evtop
	tests/events/e2e.sh

check-events-live: evtop build/tests/sources/fakeprod build/bench/mklog
	tests/events/live.sh ./evtop build/tests/sources/fakeprod build/bench/mklog

CHECKS	+= check-events check-events-san check-events-e2e check-events-live
.PHONY: check-events check-events-san check-events-e2e check-events-live

# The whole log searched: for the last line (found once, at the end),
# words no line holds, and a thread id that is not there.
EVENTS_BENCH_LOG ?= build/bench/ghc-n2.eventlog
bench-events: evtop build/tests/events/bench-search
	@if [ -f $(EVENTS_BENCH_LOG) ]; then \
	    build/tests/events/bench-search ./evtop $(EVENTS_BENCH_LOG) \
	        "zzz-not-there" "Blocked" "thread 99999"; \
	else echo "bench-events: no $(EVENTS_BENCH_LOG), skipped"; fi

BENCHES	+= bench-events
.PHONY: bench-events

# redo.c reads the history on a thread of its own (the spill's cursor
# lent to it) while the main thread writes the stream and another cursor
# reads: t_evlive -r under ThreadSanitizer; and with readers whose events
# do not last (the two passes only), where the thread stops before the
# first file and the rest is read on the main thread.
build/tsan/t_evlive: tests/events/t_evlive.c tests/events/all.h tests/tap.h $(TSAN_CORE)
	@mkdir -p $(@D)
	$(SAN_CC) $(CPPFLAGS) -O1 -g $(TSAN) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

build/tests/events/t_evlive-2pass: tests/events/t_evlive.c tests/events/all.h tests/tap.h $(PROTO_SRC) $(filter-out src/evtop.c,$(SRC_SRC))
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -DREADER_SINGLE=0 -o $@ $(filter %.c,$^) $(LDLIBS)

check-events-thread: evtop build/tsan/t_evlive build/tsan/t_evlist build/tests/events/t_evlive-2pass $(EVLIVE_DIR)/late.eventlog
	@build/tsan/t_evlist -p 20000 ./evtop $(wildcard tests/fixtures/*.eventlog) \
	    >build/tests/events/tsan-t_evlist.out 2>&1 || \
	    { grep -v '^ok' build/tests/events/tsan-t_evlist.out; exit 1; }
	@echo "TSan, a file's search on a thread: $$(tail -1 build/tests/events/tsan-t_evlist.out)"
	@build/tsan/t_evlive ./evtop -r $(EVLIVE_DIR)/late.eventlog \
	    >build/tests/events/tsan-t_evlive.out 2>&1 || \
	    { grep -v '^ok' build/tests/events/tsan-t_evlive.out; exit 1; }
	@echo "TSan, live history: $$(tail -1 build/tests/events/tsan-t_evlive.out)"
	@build/tests/events/t_evlive-2pass ./evtop -r $(EVLIVE_DIR)/late.eventlog \
	    >build/tests/events/t_evlive-2pass.out || \
	    { grep -v '^ok' build/tests/events/t_evlive-2pass.out; exit 1; }
	@echo "two passes, live history: $$(tail -1 build/tests/events/t_evlive-2pass.out)"

CHECKS += check-events-thread
.PHONY: check-events-thread
