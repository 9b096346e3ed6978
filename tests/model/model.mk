# Model tests: unit tests on hand-built eventlogs, the same under ASan and
# UBSan, and a throughput benchmark of merge + model.
CORPUS	?= ../shared/conformance/ghc-events
MODEL_FILES = $(wildcard tests/fixtures/*.eventlog) $(wildcard $(CORPUS)/*.eventlog)
SAN_CC	?= $(shell command -v clang >/dev/null 2>&1 && echo clang || echo $(CC))
MODEL_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
MODEL_SAN_SRC := $(PROTO_SRC) $(filter-out src/evtop.c,$(SRC_SRC))

build/tests/t_model: tests/model/t_model.c $(CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $^ $(LDLIBS)

build/tests/batch_driver: tests/model/batch_driver.c $(CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $^ $(LDLIBS)

build/tests/bench_model: tests/model/bench_model.c $(CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $^ $(LDLIBS)

build/san/t_model: tests/model/t_model.c $(MODEL_SAN_SRC) src/model.h src/model-priv.h
	@mkdir -p $(@D)
	$(SAN_CC) $(CPPFLAGS) -DT_MODEL_SAN -O1 -g $(MODEL_SAN) -o $@ tests/model/t_model.c $(MODEL_SAN_SRC) $(LDLIBS)

build/san/batch_driver: tests/model/batch_driver.c $(MODEL_SAN_SRC) src/model.h src/model-priv.h
	@mkdir -p $(@D)
	$(SAN_CC) $(CPPFLAGS) -O1 -g $(MODEL_SAN) -o $@ tests/model/batch_driver.c $(MODEL_SAN_SRC) $(LDLIBS)

check-model: build/tests/t_model
	@echo "build/tests/t_model (fixtures and corpus)"; build/tests/t_model $(MODEL_FILES)

check-model-asan: build/san/t_model build/san/batch_driver
	@echo "build/san/t_model (fixtures and corpus)"; build/san/t_model $(MODEL_FILES)
	@for f in $(MODEL_FILES); do \
		build/san/batch_driver --interval 0.01 $$f >/dev/null 2>&1 && \
		build/san/batch_driver --json --interval 0.01 $$f >/dev/null \
		    2>&1 || { echo "not ok - batch_driver $$f"; exit 1; }; \
	done; echo "batch under ASan/UBSan: $(words $(MODEL_FILES)) logs ok"

# Large log: the bench area's generator when it is there, else a corpus file
# replayed many times in-process.
bench-model: build/tests/bench_model $(wildcard $(BENCH_LOG))
	build/tests/bench_model $(firstword $(wildcard $(BENCH_LOG)) $(BENCH_SRC))

asan: check-model-asan
CHECKS += check-model check-model-asan
.PHONY: check-model check-model-asan bench-model
