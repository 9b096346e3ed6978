# libFuzzer over the decoder, and over reader.c's module (fuzz_reader).  `make fuzz` runs FUZZ_SECONDS; `make check`
# replays the seeds and fuzzes briefly (FUZZ_CHECK_SECONDS).
FUZZ_SECONDS ?= 120
FUZZ_CHECK_SECONDS ?= 10
FUZZ_SEEDS = $(wildcard $(CORPUS)/*.eventlog) $(wildcard tests/fixtures/*.eventlog)

build/fuzz/fuzz_proto: tests/fuzz/fuzz_proto.c $(PROTO_SRC)
	@mkdir -p $(@D)
	clang $(CPPFLAGS) -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -o $@ $^

build/fuzz/fuzz_reader: tests/fuzz/fuzz_reader.c $(READER_SRC) $(READER_HDR) $(PROTO_SRC)
	@mkdir -p $(@D)
	clang $(CPPFLAGS) -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -o $@ $(filter %.c,$^)

# Whole files for fuzz_reader, but for the largest.
build/fuzz/seeds-reader.stamp: $(FUZZ_SEEDS)
	@mkdir -p build/fuzz/seeds-reader build/fuzz/corpus-reader
	@for f in $(FUZZ_SEEDS); do [ $$(stat -c %s $$f) -le 65536 ] && \
	  cp $$f build/fuzz/seeds-reader/; done; true
	@touch $@

build/fuzz/seeds.stamp: $(FUZZ_SEEDS)
	@mkdir -p build/fuzz/seeds build/fuzz/corpus
	@for f in $(FUZZ_SEEDS); do b=$$(basename $$f); \
	  { printf '\377'; head -c 16384 $$f; } > build/fuzz/seeds/$$b.whole; \
	  { printf '\000'; head -c 16384 $$f; } > build/fuzz/seeds/$$b.bytes; done
	@touch $@

fuzz: build/fuzz/fuzz_proto build/fuzz/seeds.stamp build/fuzz/fuzz_reader build/fuzz/seeds-reader.stamp
	build/fuzz/fuzz_proto -max_total_time=$(FUZZ_SECONDS) -max_len=32768 \
	  -timeout=10 build/fuzz/corpus build/fuzz/seeds
	build/fuzz/fuzz_reader -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
	  -timeout=10 build/fuzz/corpus-reader build/fuzz/seeds-reader

check-fuzz:
	@if ! command -v clang >/dev/null 2>&1; then echo "SKIPPED: fuzz: clang not installed"; else \
	  $(MAKE) -s build/fuzz/fuzz_proto build/fuzz/seeds.stamp && \
	  build/fuzz/fuzz_proto -max_total_time=$(FUZZ_CHECK_SECONDS) -max_len=32768 -timeout=10 \
	    build/fuzz/corpus build/fuzz/seeds 2>&1 | grep -E "^(Done|INFO: seed corpus|==|SUMMARY)" && \
	  $(MAKE) -s build/fuzz/fuzz_reader build/fuzz/seeds-reader.stamp && \
	  build/fuzz/fuzz_reader -max_total_time=$(FUZZ_CHECK_SECONDS) -max_len=65536 -timeout=10 \
	    build/fuzz/corpus-reader build/fuzz/seeds-reader 2>&1 | grep -E "^(Done|INFO: seed corpus|==|SUMMARY)"; fi

CHECKS += check-fuzz
.PHONY: fuzz check-fuzz
