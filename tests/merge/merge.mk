# Reader tests: reader_next() delivers the same events in the same order
# whether the single pass or the two passes run, with chunks and holds of
# many sizes; feed.c, with its reader thread and without, and with slabs of
# 7 events (so that the ring wraps often), the same again, under ASan and
# UBSan, and under TSan; reader_seek() goes on with exactly the events
# after (tests/merge/merge.sh).  t_faults: damaged and shrinking files.
MERGE_T_CC = $(SAN_CC) $(CPPFLAGS) -DREADER_DEBUG -O1 -g $(ASAN)
MERGE_T_PROTO := $(call asan_obj,$(PROTO_SRC))
# name: the READER_* settings of each build of t_merge.
MERGE_T_VARIANTS := t_merge:-DMERGE_T_DEFAULT \
	t_merge-2pass:-DREADER_SINGLE=0 \
	t_merge-b1:-DREADER_BATCH=1,-DREADER_GROUP=1,-DREADER_DROP=4096,-DREADER_EXCEPT=64 \
	t_merge-b3:-DREADER_BATCH=3,-DREADER_GROUP=2 \
	t_merge-b16:-DREADER_BATCH=16,-DREADER_GROUP=4 \
	t_merge-b64:-DREADER_BATCH=64,-DREADER_GROUP=8 \
	t_merge-fan:-DREADER_SINGLE=0,-DREADER_FAN=4,-DREADER_SEGS=64,-DREADER_LOOK=4 \
	t_merge-half:-DREADER_SPLIT=1 \
	t_merge-half-b3:-DREADER_SPLIT=1,-DREADER_BATCH=3,-DREADER_GROUP=2,-DREADER_EXCEPT=64 \
	t_feed:-DT_MERGE_FEED \
	t_feed-n7:-DT_MERGE_FEED,-DFEED_N=7,-DREADER_BATCH=16,-DREADER_GROUP=4,-DREADER_DROP=4096 \
	t_feed-2pass:-DT_MERGE_FEED,-DFEED_N=7,-DREADER_SINGLE=0 \
	t_feed-sync:-DT_MERGE_FEED,-DT_MERGE_FEED_SYNC,-DFEED_N=7 \
	t_seek:-DT_MERGE_SEEK \
	t_seek-b3:-DT_MERGE_SEEK,-DREADER_BATCH=3,-DREADER_GROUP=2 \
	t_seek-2pass:-DT_MERGE_SEEK,-DREADER_SINGLE=0 \
	t_seek-fan:-DT_MERGE_SEEK,-DREADER_SINGLE=0,-DREADER_FAN=4,-DREADER_SEGS=64,-DREADER_LOOK=4 \
	t_seek-half:-DT_MERGE_SEEK,-DREADER_SPLIT=1,-DREADER_BATCH=3,-DREADER_GROUP=2
MERGE_T_BINS := $(foreach v,$(MERGE_T_VARIANTS),build/merge/$(firstword $(subst :, ,$(v))))

build/merge/mksynth: tests/merge/mksynth.c tests/merge/rnd.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WARN) -o $@ $<

$(MERGE_T_BINS): build/merge/%: tests/merge/t_merge.c $(READER_SRC) $(READER_HDR) src/read/feed.c src/evtop.h $(MERGE_T_PROTO)
	$(MERGE_T_CC) $(subst $(COMMA), ,$(lastword $(subst :, ,$(filter $*:%,$(MERGE_T_VARIANTS))))) \
	    -o $@ tests/merge/t_merge.c $(READER_SRC) src/read/feed.c $(MERGE_T_PROTO) $(LDLIBS)

COMMA := ,

build/merge/t_faults: tests/merge/t_faults.c $(READER_SRC) $(READER_HDR) src/read/feed.c src/evtop.h $(MERGE_T_PROTO)
	$(MERGE_T_CC) -o $@ tests/merge/t_faults.c $(READER_SRC) src/read/feed.c $(MERGE_T_PROTO) $(LDLIBS)

# feed.c under ThreadSanitizer, with slabs of 7 events, and every file's
# scan in two halves.
build/merge/t_feed-tsan: tests/merge/t_merge.c $(READER_SRC) $(READER_HDR) src/read/feed.c src/evtop.h $(call tsan_obj,$(PROTO_SRC))
	$(SAN_CC) $(CPPFLAGS) -DREADER_DEBUG -DT_MERGE_FEED -DFEED_N=7 -DREADER_SPLIT=1 -O1 -g \
	    $(TSAN) -o $@ tests/merge/t_merge.c $(READER_SRC) \
	    src/read/feed.c $(call tsan_obj,$(PROTO_SRC)) $(LDLIBS)

# The check across the cut of a scan in halves, by brute force on random
# streams (reader-scan.c included for its static functions), with groups of 16
# and of 2.
build/merge/t_join build/merge/t_join-g2: build/merge/t_join%: tests/merge/t_join.c tests/merge/rnd.h $(READER_SRC) $(READER_HDR) src/evtop.h tests/tap.h $(MERGE_T_PROTO)
	$(MERGE_T_CC) $(if $*,-DREADER_GROUP=2) -o $@ tests/merge/t_join.c $(filter-out src/read/reader-scan.c,$(READER_SRC)) $(MERGE_T_PROTO) $(LDLIBS)

check-merge: build/merge/mksynth $(MERGE_T_BINS) build/merge/t_faults build/merge/t_feed-tsan build/merge/t_join build/merge/t_join-g2
	build/merge/t_join 100000 | grep -v '^ok '
	build/merge/t_join-g2 100000 | grep -v '^ok '
	tests/merge/merge.sh build/merge $(MODEL_FILES)
	build/merge/t_faults tests/fixtures/gc.eventlog build/merge

CHECKS += check-merge
.PHONY: check-merge
