# The terminal UI: unit tests (panes rendered into lines, no terminal),
# tmux end-to-end tests, the frame benchmark and the screenshots.
UI_CORE_OBJ := $(filter-out build/ui/ui.o,$(UI_OBJ))
# As an archive, so that only what the tests use is linked: the loop (in
# CORE_OBJ) calls the terminal half of the UI, which tests leave out.
UI_TEST_LIB := build/tests/ui/libuicore.a

$(UI_TEST_LIB): $(UI_CORE_OBJ) $(CORE_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^
UI_TEST_LINES_OBJ := build/ui/lines.o build/ui/fmt.o build/ui/keys.o \
	build/ui/layout.o $(PROTO_OBJ)

build/tests/ui/test-lines: tests/ui/test-lines.c $(UI_TEST_LINES_OBJ) ui/ui.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

build/tests/ui/test-panes: tests/ui/test-panes.c tests/ui/uitest.h $(UI_TEST_LIB) ui/ui.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $(filter %.c %.a,$^) $(LDLIBS)

build/tests/ui/bench-ui: tests/ui/bench-ui.c tests/ui/uitest.h $(UI_TEST_LIB) ui/ui.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $(filter %.c %.a,$^) $(LDLIBS)

check-ui: build/tests/ui/test-lines build/tests/ui/test-panes
	build/tests/ui/test-lines | tail -1
	build/tests/ui/test-panes tests/fixtures | tail -1

build/tests/ui/uifmt: tests/ui/uifmt.c build/ui/fmt.o build/ui/lines.o $(PROTO_OBJ) ui/ui.h
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

screenshots: evtop
	tests/ui/screenshots.sh

CHECKS	+= check-ui check-e2e-ui
BENCHES	+= bench-ui
.PHONY: check-ui check-e2e-ui bench-ui screenshots
