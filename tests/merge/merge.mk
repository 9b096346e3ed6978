# Merge tests: merge_next() delivers the same events in the same order
# whether the single pass or the two passes run, with chunks and holds of
# many sizes, and order_next_n() (order.c, with its lookahead and batches
# at their defaults and at their least) the same again, and feed.c, with
# its reader thread and without, exactly as order.c (slabs of 7 events, so
# that the ring wraps often), under ASan and UBSan, and under TSan
# (tests/merge/merge.sh).
MERGE_T_CC = $(SAN_CC) $(CPPFLAGS) -DMERGE_DEBUG -O1 -g $(MODEL_SAN)
MERGE_T_PROTO := $(PROTO_SRC:proto/%.c=build/merge/proto/%.o)
# name: the MERGE_* settings of each build of t_merge.
MERGE_T_VARIANTS := t_merge:-DMERGE_T_DEFAULT \
	t_merge-2pass:-DMERGE_HOLD=0 \
	t_merge-c16:-DMERGE_CHUNK=16,-DMERGE_HOLD=8192 \
	t_merge-c64:-DMERGE_CHUNK=64,-DMERGE_HOLD=1024 \
	t_merge-c256:-DMERGE_CHUNK=256,-DMERGE_HOLD=65536 \
	t_merge-c4k:-DMERGE_CHUNK=4096,-DMERGE_HOLD=32768 \
	t_order:-DT_MERGE_ORDER \
	t_order-l8:-DT_MERGE_ORDER,-DORDER_LOOK=8,-DORDER_BATCH=3,-DORDER_DROP=4096 \
	t_feed:-DT_MERGE_ORDER,-DT_MERGE_FEED \
	t_feed-l8:-DT_MERGE_ORDER,-DT_MERGE_FEED,-DORDER_LOOK=8,-DORDER_BATCH=3,-DORDER_DROP=4096,-DFEED_N=7 \
	t_feed-sync:-DT_MERGE_ORDER,-DT_MERGE_FEED,-DT_MERGE_FEED_SYNC,-DFEED_N=7
MERGE_T_BINS := $(foreach v,$(MERGE_T_VARIANTS),build/merge/$(firstword $(subst :, ,$(v))))

build/merge/proto/%.o: proto/%.c proto/proto.h
	@mkdir -p $(@D)
	$(MERGE_T_CC) -c -o $@ $<

build/merge/mksynth: tests/merge/mksynth.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WARN) -o $@ $<

$(MERGE_T_BINS): build/merge/%: tests/merge/t_merge.c src/merge.c src/order.c src/feed.c src/evtop.h $(MERGE_T_PROTO)
	$(MERGE_T_CC) $(subst $(COMMA), ,$(lastword $(subst :, ,$(filter $*:%,$(MERGE_T_VARIANTS))))) \
	    -o $@ tests/merge/t_merge.c src/merge.c src/order.c src/feed.c $(MERGE_T_PROTO) $(LDLIBS)

COMMA := ,

build/merge/t_order_faults: tests/merge/t_order.c src/order.c src/feed.c src/evtop.h $(MERGE_T_PROTO)
	$(MERGE_T_CC) -o $@ tests/merge/t_order.c src/order.c src/feed.c $(MERGE_T_PROTO) $(LDLIBS)

# feed.c under ThreadSanitizer, with slabs of 7 events.
build/merge/t_feed-tsan: tests/merge/t_merge.c src/merge.c src/order.c src/feed.c src/evtop.h $(PROTO_SRC) proto/proto.h
	$(SAN_CC) $(CPPFLAGS) -DMERGE_DEBUG -DT_MERGE_ORDER -DT_MERGE_FEED -DFEED_N=7 -O1 -g \
	    -fsanitize=thread -o $@ tests/merge/t_merge.c src/merge.c \
	    src/order.c src/feed.c $(PROTO_SRC) $(LDLIBS)

check-merge: build/merge/mksynth $(MERGE_T_BINS) build/merge/t_order_faults build/merge/t_feed-tsan
	tests/merge/merge.sh build/merge $(MODEL_FILES)
	build/merge/t_order_faults tests/fixtures/gc.eventlog build/merge

CHECKS += check-merge
.PHONY: check-merge
