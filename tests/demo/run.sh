#!/usr/bin/env bash
# tests/demo/run.sh: ./demo.sh as a new user runs it (packages present, as
# in CI), in tmux.
#
#  - first run, the program built from scratch (into a fresh
#    EVTOP_DEMO_BUILD): within 60 s the header shows the Unix socket
#    connected and the program's name; the socket's directory is private;
#    H then c gives a census in the heap pane; q exits, the terminal as it
#    was, and no process of the demo nor its directory is left;
#  - second run, the program cached: the same within 10 s;
#  - a short run (EVTOP_DEMO_PHASE=1): the program ends, evtop says so and
#    stays; SIGTERM to the script then cleans up all the same;
#  - GHC pointing nowhere: the script says so and replays the recording.
#
# Prints SKIPPED and passes without tmux or ghc.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

for tool in tmux ghc; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "SKIPPED: no $tool"
		exit 0
	fi
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/evtop-demo-test.XXXXXX")
T="tmux -L evtopdemo$$ -f/dev/null"
trap '$T kill-server 2>/dev/null; rm -rf "$TMP"' 0
trap 'exit 1' 1 2 15
export LANG=C.UTF-8 LC_ALL=C.UTF-8
unset NO_COLOR
$T new-session -d -s keep -x 80 -y 24 "exec cat"

screen() {
	$T capture-pane -p -t "$1"
}

# shows SESSION REGEX SECONDS: poll the screen until REGEX is on it.
shows() {
	local end=$((SECONDS + $3))
	while :; do
		screen "$1" 2>/dev/null | grep -Eq -- "$2" && return 0
		if [ $SECONDS -ge $end ]; then
			echo "# $1: no /$2/ after $3 s:" >&2
			screen "$1" 2>/dev/null | sed 's/^/#   |/' >&2
			return 1
		fi
		sleep 0.1
	done
}

# A census in the heap pane (zoomed): "census N" with N > 0.
census_shown() {
	$T send-keys -t "$1" 3
	shows "$1" "heap profile by cost centre: census [1-9]" 15
}

# gone DIR PID...: nothing of a demo is left: none of the processes, no
# process naming the directory (the program, evtop), the directory gone.
gone() {
	local d=$1 p end=$((SECONDS + 5))
	shift
	while [ $SECONDS -lt $end ]; do
		left=""
		for p in "$@"; do
			[ -n "$p" ] && kill -0 "$p" 2>/dev/null && left="$left $p"
		done
		left="$left $(pgrep -f -- "$d" | tr '\n' ' ')"
		[ -z "${left// /}" ] && [ -z "$(ls -A "$d" 2>/dev/null)" ] &&
		    return 0
		sleep 0.1
	done
	echo "# left behind:$left; in $d: $(ls -A "$d" 2>/dev/null)" >&2
	ps -o pid,args -p "${left// /,}" 2>/dev/null | sed 's/^/#   /' >&2
	return 1
}

# start NAME ENV...: ./demo.sh in tmux from a shell that saves the tty
# settings before and after, and the script's pid; its private directory
# is made in $TMP/NAME.
start() {
	local n=$1
	shift
	mkdir -p "$TMP/$n"
	$T new-session -d -s "$n" -x 120 -y 36 "stty -a >$TMP/$n.before; \
	    env TMPDIR=$TMP/$n EVTOP_DEMO_BUILD=$TMP/build $* \
	    sh -c 'echo \$\$ >$TMP/$n.pid; exec ./demo.sh'; \
	    stty -a >$TMP/$n.a; mv $TMP/$n.a $TMP/$n.after; echo EXITED; \
	    exec cat"
	wait_for "$TMP/$n.pid" . 5 2>/dev/null
}

# wait_exit_of PID: poll until a process not ours has gone (30 s).
wait_exit_of() {
	local end=$((SECONDS + 30))
	while kill -0 "${1:-0}" 2>/dev/null; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.1
	done
	[ -n "$1" ]
}

# The program's pid, from the header.
prog_pid() {
	screen "$1" | head -1 | sed -n 's/.* pid \([0-9][0-9]*\).*/\1/p'
}

restored() {
	local n=$1
	wait_for "$TMP/$n.after" . 10 2>/dev/null || return 1
	cmp -s "$TMP/$n.before" "$TMP/$n.after" || {
		diff "$TMP/$n.before" "$TMP/$n.after" | sed 's/^/#   /'
		return 1
	}
	[ "$($T display -p -t "$n" '#{alternate_on}#{cursor_flag}')" = 01 ] &&
	    ! screen "$n" | grep -q F1Help
}

# live NAME SECONDS: the first screen, the directory, the keys, q.
live() {
	local n=$1 secs=$2 t0=$SECONDS pid sh dirs
	start "$n"
	sh=$(cat "$TMP/$n.pid" 2>/dev/null)
	ok "$n: within $secs s, the socket connected" shows "$n" \
	    "^unix $TMP/$n/evtop-demo\.[^/]*/eventlog\.sock connected" "$secs"
	ok "$n: and the program's name (after $((SECONDS - t0)) s)" shows \
	    "$n" "^evtop evtop-demo " 5
	dirs=$(stat -c %a "$TMP/$n"/evtop-demo.* 2>/dev/null)
	ok "$n: the socket's directory is private ($dirs)" eq "$dirs" 700
	pid=$(prog_pid "$n")
	ok "$n: the program runs (pid $pid)" kill -0 "${pid:-0}"
	$T send-keys -t "$n" H
	ok "$n: H: heap profiling started" shows "$n" \
	    "start-heap-profiling: (samples arriving|sent)" 10
	$T send-keys -t "$n" c
	ok "$n: c: a census arrived" shows "$n" "census: a census arrived" 10
	ok "$n: the census in the heap pane" census_shown "$n"
	$T send-keys -t "$n" q
	ok "$n: q: evtop exits" shows "$n" "^EXITED" 10
	ok "$n: the terminal restored" restored "$n"
	ok "$n: nothing left (script $sh, program $pid, socket)" gone \
	    "$TMP/$n" "$sh" "$pid"
}

live first 60
live second 10

# The program ends: evtop says so and stays, until the script is stopped.
start short EVTOP_DEMO_PHASE=1
sh=$(cat "$TMP/short.pid" 2>/dev/null)
shows short "^evtop evtop-demo " 15
pid=$(prog_pid short)
ok "short: the program ends" wait_exit_of "$pid"
ok "short: evtop says so" shows short \
    "^unix .*eventlog\.sock (closed|waiting)" 10
ok "short: and stays" eq "$(screen short | grep -c '^F1Help')" 1
kill -TERM "$sh"
ok "short: SIGTERM to the script: evtop exits" shows short "^EXITED" 10
ok "short: the terminal restored" restored short
ok "short: nothing left" gone "$TMP/short" "$sh"

# No ghc: the bundled recording.
start noghc GHC=/nonexistent/ghc
ok "no ghc: said" shows noghc "demo.sh: no /nonexistent/ghc; replaying" 10
ok "no ghc: the recording replayed" shows noghc \
    "^file tests/fixtures/gc.eventlog" 10
$T send-keys -t noghc q
ok "no ghc: q" shows noghc "^EXITED" 10

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
