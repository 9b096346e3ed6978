# The terminal UI: unit tests (panes rendered into lines, no terminal),
# tmux end-to-end tests, the frame benchmark and the screenshots.
UI_CORE_OBJ := $(filter-out build/ui/ui.o,$(UI_OBJ))
# As an archive, so that only what the tests use is linked: the loop (in
# CORE_OBJ) calls the terminal half of the UI, which tests leave out.
UI_TEST_LIB := build/tests/ui/libuicore.a

$(UI_TEST_LIB): $(UI_CORE_OBJ) $(CORE_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) qcs $@ $^
UI_TEST_LINES_OBJ := build/ui/lines.o build/ui/fmt.o build/ui/keys.o \
	build/ui/layout.o $(PROTO_OBJ)

build/tests/ui/test-lines: tests/ui/test-lines.c tests/tap.h $(UI_TEST_LINES_OBJ) ui/ui.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

build/tests/ui/test-panes: tests/ui/test-panes.c tests/tap.h tests/ui/uitest.h $(UI_TEST_LIB) ui/ui.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $(filter %.c %.a,$^) $(LDLIBS)

build/tests/ui/bench-ui: tests/ui/bench-ui.c tests/ui/uitest.h $(UI_TEST_LIB) ui/ui.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $(filter %.c %.a,$^) $(LDLIBS)

UI_CORPUS := $(firstword $(wildcard $(CORPUS)) $(wildcard ../shared/conformance/ghc-events))

# Failures show in full; the last line is the summary.
check-ui: build/tests/ui/test-lines build/tests/ui/test-panes
	@build/tests/ui/test-lines >build/tests/ui/test-lines.out || \
	    { grep -v '^ok' build/tests/ui/test-lines.out; exit 1; }
	@tail -1 build/tests/ui/test-lines.out
	@build/tests/ui/test-panes tests/fixtures $(UI_CORPUS) \
	    >build/tests/ui/test-panes.out || \
	    { grep -v '^ok' build/tests/ui/test-panes.out; exit 1; }
	@tail -1 build/tests/ui/test-panes.out

# The same tests under ASan and UBSan, built from the sources.
UI_SAN_SRC := $(filter-out ui/ui.c,$(UI_SRC)) $(CORE_SRC)

# An archive again, so that the loop's calls into ui.c stay unresolved.
build/tests/ui/san/libuicore.a: $(call asan_obj,$(UI_SAN_SRC))
	@mkdir -p $(@D)
	rm -f $@
	$(AR) qcs $@ $^

build/tests/ui/san-test-panes: tests/ui/test-panes.c tests/tap.h tests/ui/uitest.h build/tests/ui/san/libuicore.a ui/ui.h
	@mkdir -p $(@D)
	$(SAN_CC) $(CPPFLAGS) -O1 -g $(ASAN) -o $@ $(filter %.c %.a,$^) $(LDLIBS)

build/tests/ui/san-test-lines: tests/ui/test-lines.c tests/tap.h $(call asan_obj,$(filter ui/lines.c ui/fmt.c ui/keys.c ui/layout.c,$(UI_SRC)) $(PROTO_SRC))
	@mkdir -p $(@D)
	$(SAN_CC) $(CPPFLAGS) -O1 -g $(ASAN) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

check-ui-san: build/tests/ui/san-test-lines build/tests/ui/san-test-panes
	@build/tests/ui/san-test-lines >build/tests/ui/san-test-lines.out || \
	    { grep -v '^ok' build/tests/ui/san-test-lines.out; exit 1; }
	@echo "ASan/UBSan: $$(tail -1 build/tests/ui/san-test-lines.out)"
	@build/tests/ui/san-test-panes tests/fixtures $(UI_CORPUS) \
	    >build/tests/ui/san-test-panes.out || \
	    { grep -v '^ok' build/tests/ui/san-test-panes.out; exit 1; }
	@echo "ASan/UBSan: $$(tail -1 build/tests/ui/san-test-panes.out)"

build/tests/ui/uifmt: tests/ui/uifmt.c build/ui/fmt.o build/ui/lines.o build/ui/keys.o $(PROTO_OBJ) ui/ui.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

# The fake eventlog-socket producer of tests/sources, for the control keys.
build/tests/ui/fakeprod: tests/sources/fakeprod.c $(PROTO_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LDLIBS)

check-e2e-ui: evtop build/tests/ui/uifmt $(if $(wildcard tests/sources/fakeprod.c),build/tests/ui/fakeprod)
	tests/e2e-ui/run.sh

bench-ui: build/tests/ui/bench-ui
	build/tests/ui/bench-ui

build/tests/ui/ansi2html: tests/ui/ansi2html.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WARN) -o $@ $<

# The pictures in screenshots/ (needs tmux and chromium; ghc for the demo).
screenshots: evtop build/tests/ui/ansi2html
	tests/ui/screenshots.sh

CHECKS	+= check-ui check-ui-san check-e2e-ui
BENCHES	+= bench-ui
.PHONY: check-ui check-ui-san check-e2e-ui bench-ui screenshots
