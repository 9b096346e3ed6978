# libFuzzer over the decoder, over reader.c's module (fuzz_reader), over
# a live source's history and corrections (fuzz_live; fuzz_live-over with
# corrections that overflow what they keep), and over what is
# drawn, exported and scraped from any model (fuzz_ui).  Inputs they found
# that failed once are kept in tests/fuzz/*-found and run each time.
# `make fuzz` runs FUZZ_SECONDS; `make check` replays the seeds and fuzzes
# briefly (FUZZ_CHECK_SECONDS).
FUZZ_SECONDS ?= 120
FUZZ_CHECK_SECONDS ?= 6
FUZZ_SEEDS = $(wildcard $(CORPUS)/*.eventlog) $(wildcard tests/fixtures/*.eventlog)

build/fuzz/fuzz_proto: tests/fuzz/fuzz_proto.c $(PROTO_SRC)
	@mkdir -p $(@D)
	clang $(CPPFLAGS) -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -o $@ $^

build/fuzz/fuzz_reader: tests/fuzz/fuzz_reader.c $(READER_SRC) $(READER_HDR) $(PROTO_SRC)
	@mkdir -p $(@D)
	clang $(CPPFLAGS) -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -o $@ $(filter %.c,$^)

# fuzz_live and fuzz_ui share the sources compiled once for fuzzing (as an
# archive: only what each uses is linked; the loop and the terminal are not).
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_LIB_SRC := $(CORE_SRC) $(filter-out ui/ui.c,$(UI_SRC))
FUZZ_LIB := build/fuzz/libfuzzcore.a

build/fuzz/o/%.o: %.c
	@mkdir -p $(@D)
	clang $(CPPFLAGS) -O1 -g -fsanitize=fuzzer-no-link $(FUZZ_SAN) -MMD -MP -c -o $@ $<

$(FUZZ_LIB): $(patsubst %.c,build/fuzz/o/%.o,$(FUZZ_LIB_SRC))
	rm -f $@
	$(AR) qcs $@ $^

-include $(wildcard build/fuzz/o/*/*.d build/fuzz/o/*/*/*.d)

build/fuzz/fuzz_live: tests/fuzz/fuzz_live.c tests/fuzz/fuzz-live.h $(FUZZ_LIB)
	@mkdir -p $(@D)
	clang $(CPPFLAGS) -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $(filter-out %.h,$^) -lm -pthread

# fuzz_live with corrections that overflow: runs of 64 events, slabs of
# 64, 2 KiB kept of what comes during a run (as tests/late's t_aside-over).
FUZZ_OVER := -DREDO_N=64 -DFEED_N=64 -DREDO_Q_BYTES=2048
build/fuzz/fuzz_live-over: tests/fuzz/fuzz_live.c tests/fuzz/fuzz-live.h src/time/redo.c src/read/feed.c $(FUZZ_LIB)
	@mkdir -p $(@D)
	clang $(CPPFLAGS) $(FUZZ_OVER) -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $(filter-out %.h,$^) -lm -pthread

build/fuzz/fuzz_ui: tests/fuzz/fuzz_ui.c tests/fuzz/fuzz-live.h tests/ui/uitest.h $(FUZZ_LIB)
	@mkdir -p $(@D)
	clang $(CPPFLAGS) -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $(filter-out %.h,$^) -lm -pthread

# Whole files for fuzz_reader, but for the largest.
build/fuzz/seeds-reader.stamp: $(FUZZ_SEEDS)
	@mkdir -p build/fuzz/seeds-reader build/fuzz/corpus-reader
	@for f in $(FUZZ_SEEDS); do [ $$(stat -c %s $$f) -le 65536 ] && \
	  cp $$f build/fuzz/seeds-reader/; done; true
	@touch $@

# fuzz_live: a byte (the reads' sizes), then a file's first 64 KiB; inputs
# up to 256 KiB reach past the history's bound (256 KiB, files of 64).
build/fuzz/seeds-live.stamp: $(FUZZ_SEEDS)
	@mkdir -p build/fuzz/seeds-live build/fuzz/corpus-live
	@i=0; for f in $(FUZZ_SEEDS); do i=$$((i + 1)); \
	  { printf "\\$$(printf %03o $$((i * 7 % 17)))"; head -c 65536 $$f; } \
	  > build/fuzz/seeds-live/$$(basename $$f); done
	@touch $@

# fuzz_ui: a byte (how many keys; bit 5: events through the reorder
# buffer; bit 7: a live source), the keys, for a live source a byte (the
# reads' sizes), then a file's first 32 KiB.
build/fuzz/seeds-ui.stamp: $(FUZZ_SEEDS)
	@mkdir -p build/fuzz/seeds-ui build/fuzz/corpus-ui
	@i=0; for f in $(FUZZ_SEEDS); do i=$$((i + 1)); n=$$((i * 5 % 24)); \
	  live=$$((i % 3 == 2)); \
	  { printf "\\$$(printf %03o $$((n | (i % 3 == 1) << 5 | live << 7)))"; \
	    j=0; while [ $$j -lt $$n ]; do \
	      printf "\\$$(printf %03o $$(((i * 37 + j * 53) % 256)))"; \
	      j=$$((j + 1)); done; \
	    [ $$live = 1 ] && printf "\\$$(printf %03o $$((i * 7 % 17)))"; \
	    head -c 32768 $$f; } > build/fuzz/seeds-ui/$$(basename $$f); done
	@touch $@

build/fuzz/seeds.stamp: $(FUZZ_SEEDS)
	@mkdir -p build/fuzz/seeds build/fuzz/corpus
	@for f in $(FUZZ_SEEDS); do b=$$(basename $$f); \
	  { printf '\377'; head -c 16384 $$f; } > build/fuzz/seeds/$$b.whole; \
	  { printf '\000'; head -c 16384 $$f; } > build/fuzz/seeds/$$b.bytes; done
	@touch $@

fuzz: build/fuzz/fuzz_proto build/fuzz/seeds.stamp build/fuzz/fuzz_reader build/fuzz/seeds-reader.stamp \
    build/fuzz/fuzz_live build/fuzz/fuzz_live-over build/fuzz/seeds-live.stamp build/fuzz/fuzz_ui \
    build/fuzz/seeds-ui.stamp
	build/fuzz/fuzz_proto -max_total_time=$(FUZZ_SECONDS) -max_len=32768 \
	  -timeout=10 build/fuzz/corpus build/fuzz/seeds
	build/fuzz/fuzz_reader -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
	  -timeout=10 build/fuzz/corpus-reader build/fuzz/seeds-reader tests/fuzz/reader-found
	build/fuzz/fuzz_live -max_total_time=$(FUZZ_SECONDS) -max_len=262145 \
	  -timeout=20 build/fuzz/corpus-live build/fuzz/seeds-live tests/fuzz/live-found
	build/fuzz/fuzz_live-over -max_total_time=$(FUZZ_SECONDS) -max_len=262145 \
	  -timeout=20 build/fuzz/corpus-live build/fuzz/seeds-live tests/fuzz/live-found
	build/fuzz/fuzz_ui -max_total_time=$(FUZZ_SECONDS) -max_len=70000 \
	  -timeout=20 build/fuzz/corpus-ui build/fuzz/seeds-ui

check-fuzz:
	@if ! command -v clang >/dev/null 2>&1; then echo "SKIPPED: fuzz: clang not installed"; else \
	  $(MAKE) -s build/fuzz/fuzz_proto build/fuzz/seeds.stamp && \
	  build/fuzz/fuzz_proto -max_total_time=$(FUZZ_CHECK_SECONDS) -max_len=32768 -timeout=10 \
	    build/fuzz/corpus build/fuzz/seeds 2>&1 | grep -E "^(Done|INFO: seed corpus|==|SUMMARY)" && \
	  $(MAKE) -s build/fuzz/fuzz_reader build/fuzz/seeds-reader.stamp && \
	  build/fuzz/fuzz_reader -max_total_time=$(FUZZ_CHECK_SECONDS) -max_len=65536 -timeout=10 \
	    build/fuzz/corpus-reader build/fuzz/seeds-reader tests/fuzz/reader-found 2>&1 | grep -E "^(Done|INFO: seed corpus|==|SUMMARY)" && \
	  $(MAKE) -s build/fuzz/fuzz_live build/fuzz/seeds-live.stamp && \
	  build/fuzz/fuzz_live -max_total_time=$(FUZZ_CHECK_SECONDS) -max_len=262145 -timeout=20 \
	    build/fuzz/corpus-live build/fuzz/seeds-live tests/fuzz/live-found 2>&1 | grep -E "^(Done|INFO: seed corpus|==|SUMMARY)" && \
	  $(MAKE) -s build/fuzz/fuzz_live-over && \
	  build/fuzz/fuzz_live-over build/fuzz/seeds-live/* tests/fuzz/live-found/* 2>&1 | \
	    grep -E "^(Executed|==|SUMMARY)" | sed -n '$$p' && \
	  $(MAKE) -s build/fuzz/fuzz_ui build/fuzz/seeds-ui.stamp && \
	  build/fuzz/fuzz_ui -max_total_time=$(FUZZ_CHECK_SECONDS) -max_len=70000 -timeout=20 \
	    build/fuzz/corpus-ui build/fuzz/seeds-ui 2>&1 | grep -E "^(Done|INFO: seed corpus|==|SUMMARY)"; fi

CHECKS += check-fuzz
.PHONY: fuzz check-fuzz
