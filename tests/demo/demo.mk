# tests/demo: ./demo.sh run in tmux as a new user runs it: the bundled
# program built (then cached), live over a Unix socket, the keys, q, and
# nothing left behind (SKIPPED without tmux or ghc).

check-demo: evtop
	tests/demo/run.sh

CHECKS	+= check-demo
.PHONY: check-demo
