#!/usr/bin/env bash
# ./demo.sh: installs what is missing, builds evtop, and shows it live on a
# program of ours (demo/EvtopDemo.hs, built here with ghc, kept in
# build/demo): the program streams its eventlog over a Unix socket in a
# private directory and obeys evtop's keys (H, h heap profiling, c a
# census, T, t time profiling).  It runs about two minutes in phases; evtop
# stays when it ends.  q quits evtop, which stops the program.
#
#   ./demo.sh          the live demo (without ghc: the bundled recording)
#   ./demo.sh FILE     replay a recorded eventlog
#
# Environment: EVTOP_DEMO_BUILD (where the program is built, default
# build/demo), EVTOP_DEMO_PHASE (seconds a phase lasts, default 20), GHC
# (default ghc).
set -euo pipefail
cd "$(dirname "$0")"
bash .ci/deps.sh build
make -s -j2 evtop
[ $# -eq 0 ] || exec ./evtop "$@"

fallback() {
	echo "demo.sh: $1; replaying the bundled recording instead" >&2
	sleep 2
	exec ./evtop tests/fixtures/gc.eventlog
}

GHC=${GHC:-ghc}
B=${EVTOP_DEMO_BUILD:-build/demo}
PROG=$B/evtop-demo
SRC=(demo/EvtopDemo.hs demo/demo.c tests/sockprog/sockprog.c)
bash .ci/deps.sh demo || fallback "ghc could not be installed"
command -v "$GHC" >/dev/null 2>&1 || fallback "no $GHC"
stale=0
[ -x "$PROG" ] || stale=1
for s in "${SRC[@]}"; do [ "$s" -nt "$PROG" ] && stale=1; done
if [ $stale = 1 ]; then
	echo "demo.sh: building $PROG (once)"
	mkdir -p "$B"
	# -prof for cost centres and -hc; the C main and writer are
	# tests/sockprog's (see demo/demo.c).
	"$GHC" -O -prof -fprof-auto-top -threaded -eventlog -no-hs-main -v0 \
	    -outputdir "$B/obj" "${SRC[@]}" -o "$PROG.tmp" >"$B/ghc.log" 2>&1 ||
	    { cat "$B/ghc.log" >&2; fallback "building the program failed"; }
	mv "$PROG.tmp" "$PROG"
fi
PROG=$(cd "$B" && pwd)/evtop-demo

# The socket lives in a directory only we can enter; the program runs
# there (its .prof and .hp files go with it).
D=$(mktemp -d "${TMPDIR:-/tmp}/evtop-demo.XXXXXX")
chmod 700 "$D"
prog= ev=
cleanup() {
	trap - EXIT INT TERM HUP
	[ -z "$ev" ] || kill -TERM "$ev" 2>/dev/null || true
	if [ -n "$prog" ] && kill -TERM "$prog" 2>/dev/null; then
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$prog" 2>/dev/null || break
			sleep 0.2
		done
		kill -KILL "$prog" 2>/dev/null || true
	fi
	wait 2>/dev/null || true
	rm -rf "$D"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# One capability, the census timer out of the way: see demo/demo.c.
(cd "$D" && export GHC_EVENTLOG_UNIX_PATH=$D/eventlog.sock \
    GHC_EVENTLOG_WAIT=1 && exec -a evtop-demo "$PROG" \
    "${EVTOP_DEMO_PHASE:-20}" +RTS -N1 -l -p -hc -i3600 -RTS >"$D/out" 2>&1) &
prog=$!
# In the background, so that a signal to this script is handled at once;
# the terminal given back explicitly (a background job gets /dev/null).
./evtop --unix "$D/eventlog.sock" <&0 &
ev=$!
wait "$ev" || true
ev=
