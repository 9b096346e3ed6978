# A live source's history in the TUI (tests/time/live-view.sh): g on a
# live source served by tests/sources/fakeprod, at 80x24 and 200x60; the
# past's figures against --batch --json --from --to, reading going on, the
# history's bounds, --history 0, the terminal restored.  SKIPPED without
# tmux or jq.
check-live-view: evtop build/tests/sources/fakeprod build/bench/mklog \
    build/tests/ui/uifmt
	tests/time/live-view.sh ./evtop build/tests/sources/fakeprod \
	    build/bench/mklog build/tests/ui/uifmt

CHECKS += check-live-view
.PHONY: check-live-view
