# Decoder tests: vectors, every-split equivalence, show conformance (with
# rare.sh: what no recorded log contains), and the same under ASan and UBSan.
CORPUS	?= ../shared/conformance/ghc-events
SPLIT_FILES = $(wildcard $(CORPUS)/*.eventlog) $(wildcard tests/fixtures/*.eventlog)

build/tests/t_vectors: tests/proto/t_vectors.c $(PROTO_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $^ $(LDLIBS)

build/tests/t_split: tests/proto/t_split.c $(PROTO_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $^ $(LDLIBS)

build/san/t_vectors: tests/proto/t_vectors.c $(call asan_obj,$(PROTO_SRC))
	@mkdir -p $(@D)
	$(SAN_CC) $(CPPFLAGS) -O1 -g $(ASAN) -o $@ $^ $(LDLIBS)

build/san/t_split: tests/proto/t_split.c $(call asan_obj,$(PROTO_SRC))
	@mkdir -p $(@D)
	$(SAN_CC) $(CPPFLAGS) -O1 -g $(ASAN) -o $@ $^ $(LDLIBS)

# evtop show with a merge fan-in of 2, 16 segments and a lookahead of 2:
# every file goes through spill files
# and several levels of merging.
build/san/evtop-fan2: $(PROTO_SRC) $(SRC_SRC) $(UI_SRC)
	@mkdir -p $(@D)
	$(SAN_CC) $(CPPFLAGS) -DMERGE_FAN=2 -DMERGE_SEGS=16 -DMERGE_LOOK=2 -O1 -g $(ASAN) $(UI_CFLAGS) -o $@ $^ $(UI_LIBS) $(LDLIBS)

check-proto: evtop build/tests/t_vectors build/tests/t_split
	build/tests/t_vectors
	build/tests/t_split $(SPLIT_FILES) | tail -n 1
	tests/proto/conformance.sh ./evtop $(CORPUS)
	tests/proto/second-opinion.sh ./evtop $(wildcard tests/fixtures/*.eventlog)

# What no recorded log contains, shown and counted (tests/proto/mkrare.py).
check-rare: evtop
	tests/proto/rare.sh ./evtop

check-proto-asan: build/san/t_vectors build/san/t_split build/san/evtop-fan2
	build/san/t_vectors | tail -n 1
	build/san/t_split -a 4096 $(wildcard $(CORPUS)/*.eventlog) | tail -n 1
	tests/proto/conformance.sh build/san/evtop-fan2 $(CORPUS)
	tests/proto/robust.sh build/san/evtop-fan2 tests/fixtures/threads.eventlog 40

asan: check-proto-asan

CHECKS += check-proto check-rare check-proto-asan
.PHONY: check-proto check-rare check-proto-asan asan
