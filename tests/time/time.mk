# Time travel: checkpoints and seeking (src/time/).  Seeking must equal a
# replay stopped at the same time, on every fixture and corpus log.
build/tests/t_travel: tests/time/t_travel.c $(CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $^ $(LDLIBS)

build/san/t_travel: tests/time/t_travel.c $(ASAN_CORE)
	@mkdir -p $(@D)
	$(SAN_CC) $(CPPFLAGS) -O1 -g $(ASAN) -o $@ $^ $(LDLIBS)

# The first pass's reader thread (feed.c) under ThreadSanitizer.
build/tsan/t_travel: tests/time/t_travel.c $(TSAN_CORE)
	@mkdir -p $(@D)
	$(SAN_CC) $(CPPFLAGS) -O1 -g $(TSAN) -o $@ $^ $(LDLIBS)

build/tests/t_when: tests/time/t_when.c $(CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $^ $(LDLIBS)

check-travel: build/tests/t_travel build/san/t_travel build/tsan/t_travel build/tests/t_when
	@echo "build/tests/t_when"; build/tests/t_when | grep -v '^ok '
	@echo "build/tests/t_travel (fixtures and corpus)"; build/tests/t_travel $(MODEL_FILES) | grep -v '^ok '
	@echo "build/san/t_travel (fixtures, under ASan/UBSan)"; build/san/t_travel -n 8 -e 300 $(wildcard tests/fixtures/*.eventlog) | grep -v '^ok '
	@echo "build/tsan/t_travel (fixtures, under TSan)"; build/tsan/t_travel -n 4 -e 300 $(wildcard tests/fixtures/*.eventlog) | grep -v '^ok '

CHECKS += check-travel
.PHONY: check-travel

check-seek-tui: evtop
	tests/time/seek-tui.sh

CHECKS += check-seek-tui
.PHONY: check-seek-tui

# A replayed file cut short or written over under the TUI.
check-changed-tui: evtop
	tests/time/changed-tui.sh

CHECKS += check-changed-tui
.PHONY: check-changed-tui
