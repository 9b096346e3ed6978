#!/usr/bin/env bash
# peer.sh: evtop against the real eventlog-socket library (../shared/peers, unchanged),
# its example program fibber built with GHC 9.6 in the chroot (tests/ghc96/build.sh):
#  - over a Unix socket and over TCP: a census requested with --send arrives, the
#    stream is whole to the end (the end marker, fibber's last markers), and the
#    figures printed live equal those of the recording replayed;
#  - reconnection: the program exits, another starts at the same path, evtop follows;
#  - the TUI in tmux: every control key's effect is seen (c a census, H samples
#    arriving, h and t samples stopping, T resuming), the heap pane says how heap
#    profiling runs, and the header says GHC 9.6.
#
#   tests/ghc96/peer.sh EVTOP
# SKIPPED without the chroot (make ghc96) or the peer.
set -u
EVTOP=$(cd "$(dirname "${1:-./evtop}")" && pwd)/$(basename "${1:-./evtop}")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
JS="python3 $here/../sources/js.py"

P=$("$here/build.sh" peer); rc=$?
if [ $rc -eq 77 ]; then echo "$P"; exit 0; fi
[ $rc -eq 0 ] || { echo "not ok 1 - building eventlog-socket with GHC 9.6"; exit 1; }
D=$("$here/chroot.sh" path)
T=$(mktemp -d "$D/work/evtop-peer.XXXXXX")
X="tmux -L evtop-peer$$ -f/dev/null"
PIDS=()
cleanup() {
	local p
	$X kill-server 2>/dev/null
	for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
cd "$T" || exit 1
RUN96="$here/chroot.sh exec"	# a command, not a function: env runs it, $! is its pid
shows() { "$EVTOP" show "$1" | grep -Eq -- "$2"; }
same() { $JS cmp "$1" "$2" | sed 's/^/# /'; return "${PIPESTATUS[0]}"; }
ends_whole() { [ "$(tail -c 2 "$1" | od -An -tx1 | tr -d ' \n')" = ffff ]; }
not() { ! "$@"; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# A finite run over SOCKET-KIND: fibber computes fib 24..33 and exits, about
# 1.5 s: long enough for a census requested at the start to be taken on a
# loaded machine too (24..30 took 0.3 s, and under load the census once
# came after the program's end).
finite() {	# finite NAME ENV...
	local name=$1 d=$T/$1 p
	shift
	mkdir -p "$d"
	env "$@" GHC_EVENTLOG_WAIT=1 $RUN96 "$P/fibber-prof" 24 25 26 27 28 29 30 31 32 33 \
	    +RTS -l -hc --no-automatic-heap-samples --eventlog-flush-interval=0.2 \
	    -RTS >"$d/out" 2>&1 &
	p=$!
	PIDS+=($p)
	echo "$p" >"$d/pid"
}

# One finite run over a Unix socket: evtop's exit status.
unix_run() {
	local d=$T/unix p rc
	rm -f "$d/s.sock"	# a run before's
	finite unix GHC_EVENTLOG_UNIX_PATH="$T/unix/s.sock"
	p=$(cat $d/pid)
	wait_for_sock "$d/s.sock"
	timeout 60 "$EVTOP" --batch --json --once --unix "$d/s.sock" \
	    --record "$d/rec.eventlog" --send census >"$d/live.json" 2>"$d/err"
	rc=$?
	run_hung "$d" "$p" $rc
	wait_exit "$p" 40
	return $rc
}

# One finite run over TCP: evtop's exit status.
tcp_run() {
	local d=$T/tcp p port rc
	port=$(free_port)
	finite tcp GHC_EVENTLOG_INET_HOST=127.0.0.1 GHC_EVENTLOG_INET_PORT="$port"
	p=$(cat $d/pid)
	timeout 60 "$EVTOP" --batch --json --once --tcp "127.0.0.1:$port" \
	    --record "$d/rec.eventlog" --send census >"$d/live.json" 2>"$d/err"
	rc=$?
	run_hung "$d" "$p" $rc
	wait_exit "$p" 40
	return $rc
}

# The program was still up when evtop, waiting for it to close the
# connection, timed out: it hung at its exit (once in CI under load, over
# TCP: the whole stream to the end marker recorded, the program alive 40 s
# after evtop was gone).  Said in $d/hung, and the program killed now.
run_hung() {	# run_hung DIR PID EVTOP-STATUS
	rm -f "$1/hung"
	if [ "$3" -eq 124 ] && kill -0 "$2" 2>/dev/null; then
		echo hung >"$1/hung"
		kill -9 "$2" 2>/dev/null
	fi
}

# census_run NAME: NAME_run, again once if the census request was lost,
# or if the program hung at its exit (run_hung).
# Four times in CI under load (never alone; over TCP three times, a Unix
# socket once), the program ran to its end without the census though evtop
# sent the request on connecting (its log says so).  The cause, read in
# the library's worker.c: it reads commands as soon as a client connects,
# and only then stops the file's eventlog and starts it on the socket; a
# census taken in between is written nowhere.  evtop now sends commands
# once the connection's header has come (src/loop/loop-input.c, loop_can_send()).
# Such a run is still run again, once, and said; a second loss fails.
census_run() {
	local name=$1 d=$T/$1 rc
	"${name}_run"
	rc=$?
	if [ $rc -eq 0 ] && ! grep -q "census: a census arrived" "$d/err" &&
	    grep -q "census: sent" "$d/err"; then
		echo "# $name: the census request was lost at the program's start; again"
	elif [ -f "$d/hung" ]; then
		echo "# $name: the program hung at its exit (evtop waited for it to close); again"
	else
		return $rc
	fi
	sed 's/^/#   /' "$d/err"
	"${name}_run"
	return $?
}

# finite_run NAME: a finite run over NAME, the census asked on connecting;
# what every such run must show.
finite_run() {
	local name=$1 d=$T/$1 rc
	census_run "$name"
	rc=$?
	ok "$name: exit 0" eq $rc 0
	ok "$name: the census arrived" wait_for "$d/err" "census: a census arrived" 1
	ok "$name: the whole stream, to the end marker" ends_whole "$d/rec.eventlog"
	ok "$name: fibber's last marker" shows "$d/rec.eventlog" "marker: Finished fib 33"
	timeout 60 "$EVTOP" --batch --json "$d/rec.eventlog" >"$d/file.json" 2>/dev/null
	ok "$name: the figures printed equal the recording's" same "$d/live.json" "$d/file.json"
}

unix_finite() {
	local d=$T/unix
	finite_run unix
	ok "unix: it is in the figures" test "$($JS get "$d/live.json" heap.censuses)" -ge 1
	ok "unix: GHC 9.6 said" eq "$($JS get "$d/live.json" program.ghc | cut -c1-4)" "9.6."
	ok "unix: -hc on request, from the program's options" eq \
	    "$(tail -n 1 "$d/live.json" | jq -r '.program.heap_prof_opts |
	    "\(.breakdown)/\(.automatic)"')" "cost centre/false"
	ok "unix: its pid ($(cat $d/pid))" eq "$($JS get "$d/live.json" program.pid)" "$(cat $d/pid)"
}

wait_for_sock() {
	local i
	for i in $(seq 200); do [ -S "$1" ] && return 0; sleep 0.05; done
	return 1
}

# The program exits; another starts at the same path; evtop goes on.  The second
# one's markers checked are those of fib 24: the library sometimes loses what the
# program wrote in its first milliseconds (fib 21's markers, before
# HookPostStartEventLogging), in the recording too, so those prove nothing.
restart() {
	local d=$T/restart p q e
	mkdir -p "$d"
	GHC_EVENTLOG_UNIX_PATH=$d/s.sock GHC_EVENTLOG_WAIT=1 $RUN96 "$P/fibber-prof" 22 23 \
	    +RTS -l -hc --eventlog-flush-interval=0.1 -RTS >/dev/null 2>&1 &
	p=$!
	PIDS+=($p)
	wait_for_sock "$d/s.sock"
	"$EVTOP" --batch --json --interval 0.1 --unix "$d/s.sock" >"$d/live.json" \
	    2>"$d/err" &
	e=$!
	PIDS+=($e)
	wait_exit "$p" 40
	ok "restart: the first program ended" wait_for "$d/err" "closed after" 10
	GHC_EVENTLOG_UNIX_PATH=$d/s.sock GHC_EVENTLOG_WAIT=1 $RUN96 "$P/fibber-prof" 21 24 \
	    +RTS -l -hc --eventlog-flush-interval=0.1 -RTS >/dev/null 2>&1 &
	q=$!
	PIDS+=($q)
	wait_exit "$q" 40
	ok "restart: the second one read to its end" wait_count "$d/err" "closed after" 2 30
	kill -INT "$e"
	wait_exit "$e" 10
	ok "restart: SIGINT: exit 0" eq $? 0
	tail -n 1 "$d/live.json" >"$d/last.json"
	ok "restart: the new program ($q), told apart" eq \
	    "$($JS get "$d/last.json" program.pid)/$($JS get "$d/last.json" program.resets)" "$q/1"
	jq -r '.messages.recent[].text' "$d/last.json" >"$d/msgs"
	ok "restart: its figures only: its markers, not the first's" \
	    grep -q "Finished fib 24" "$d/msgs"
	ok "restart: (none of the first's)" not grep -q "Finished fib 23" "$d/msgs"
}

# The TUI: each control key, its effect seen in the header.
tui() {
	local d=$T/tui p
	mkdir -p "$d"
	if ! command -v tmux >/dev/null 2>&1; then
		echo "# tui: SKIPPED (no tmux)"
		return
	fi
	GHC_EVENTLOG_UNIX_PATH=$d/s.sock GHC_EVENTLOG_WAIT=1 $RUN96 "$P/fibber-prof" \
	    --forever 25 +RTS -l -p -hc --no-automatic-heap-samples \
	    --eventlog-flush-interval=0.2 -RTS >/dev/null 2>&1 &
	p=$!
	PIDS+=($p)
	wait_for_sock "$d/s.sock"
	$X new-session -d -s tui -x 120 -y 40 "LANG=C.UTF-8 $EVTOP --unix $d/s.sock"
	seen() {	# seen TEXT SECONDS
		local i
		for i in $(seq $((${2:-10} * 10))); do
			$X capture-pane -p -t tui >"$d/screen"
			grep -qF -- "$1" "$d/screen" && return 0
			sleep 0.1
		done
		echo "# not seen: $1" >&2
		sed 's/^/#   /' "$d/screen" | head -8 >&2
		return 1
	}
	ok "tui: connected, GHC 9.6" seen "GHC-9.6." 15
	$X send-keys -t tui 3
	ok "tui: heap pane: -hc, censuses on request" seen \
	    "heap profile by cost centre, censuses on request"
	$X send-keys -t tui c
	ok "tui: c: a census arrived" seen "a census arrived" 15
	ok "tui: heap pane: census 1" seen ": census 1, "
	$X send-keys -t tui H
	ok "tui: H: heap samples arriving" seen "start-heap-profiling: samples arriving" 15
	$X send-keys -t tui h
	ok "tui: h: heap samples stopped" seen "stop-heap-profiling: samples stopped" 20
	$X send-keys -t tui t
	ok "tui: t: time profile samples stopped" seen "stop-profiling: samples stopped" 20
	$X send-keys -t tui T
	ok "tui: T: time profile samples arriving" seen "start-profiling: samples arriving" 15
	$X send-keys -t tui q
	kill -INT "$p" 2>/dev/null
}

unix_finite
finite_run tcp
restart
tui
echo "peer: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
