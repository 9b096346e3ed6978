#!/usr/bin/env bash
# tui.sh: the TUI loop (loop_tui) driven through a test double of the UI
# (tuidouble: keys on stdin, one line per draw on stdout): file replay
# pacing and its keys, draws at most ~10 a second and only on change, keys
# answered during a flood, the source drained while the terminal is slow,
# control over a FIFO refused, and the signals.
#
#   tests/sources/tui.sh [TUIDOUBLE [FAKEPROD [MKLOG]]]
set -u

TUID=${1:-build/tests/sources/tuidouble}
FAKEPROD=${2:-build/tests/sources/fakeprod}
MKLOG=${3:-build/bench/mklog}
FIX=tests/fixtures
EVTOP=${EVTOP:-./evtop}	# the figures to compare with (--batch)

T=$(mktemp -d /tmp/evtop-tui.XXXXXX)
PIDS=()
cleanup() {
	local p
	exec 3>&- 2>/dev/null
	for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

. "$(dirname "$0")/../lib.sh"
wait_cmp() {	# wait_cmp A B SECONDS: until A has B's bytes
	local end=$((SECONDS + $3 + 1))
	while [ $SECONDS -lt $end ]; do
		cmp -s "$1" "$2" && return 0
		sleep 0.01
	done
	cmp "$1" "$2" >&2
	return 1
}
between() {	# between LOW VALUE HIGH
	[ "$1" -le "$2" ] && [ "$2" -le "$3" ] && return 0
	echo "# $2 not in [$1, $3]" >&2
	return 1
}
field() {	# field LINE NAME: a name=value field of a draw line
	echo "$1" | grep -Eo " $2=[^ ]*" | head -1 | cut -d= -f2
}
last_draw() {
	grep '^draw' "$1" | tail -1
}

# start NAME ARGS...: tuidouble in the background, keys from a FIFO on fd 3.
start() {
	local name=$1
	shift
	rm -f $T/$name.keys
	mkfifo $T/$name.keys
	# A process group of its own whose parent (this script) is in the same
	# session, as under a shell: the kernel ignores SIGTSTP in an orphaned
	# group, which is what a CI runner's would be.
	set -m
	"$TUID" "$@" <$T/$name.keys >$T/$name.out 2>$T/$name.err &
	TP=$!
	set +m
	PIDS+=($TP)
	exec 3>$T/$name.keys
}
key() {
	printf '%s' "$1" >&3
}

# The time of the first draw that matches REGEX, in ms since start.
draw_ms() {
	grep -E -- "$2" "$1" | head -1 | awk '{print $2}'
}

# ---------------------------------------------------------------------
# Replay paced by the timestamps: gc.eventlog spans 0.42 s of event time.
pacing() {
	local span end ms
	start pace1 --speed 1 $FIX/gc.eventlog
	ok "pacing 1x: done" wait_for $T/pace1.out "conn=3 " 5
	key q
	wait_exit $TP 5
	ok "pacing 1x: exit 0" eq $? 0
	exec 3>&-
	ms=$(draw_ms $T/pace1.out "conn=3 ")
	ok "pacing 1x: took ${ms} ms for 420 ms of events" between 380 "$ms" 3000
	end=$(last_draw $T/pace1.out)
	ok "pacing: position at the end" eq "$(field "$end" pos)" \
	    "$(stat -c %s $FIX/gc.eventlog)/$(stat -c %s $FIX/gc.eventlog)"
	ok "pacing: event time reached" [ "$(field "$end" ftime)" -gt 420000000 ]
	ok "pacing: free restores the terminal" wait_for $T/pace1.out "^free" 5

	start pace2 --speed 0.5 $FIX/gc.eventlog
	wait_for $T/pace2.out "conn=3 " 5
	key q
	wait_exit $TP 5
	exec 3>&-
	ms=$(draw_ms $T/pace2.out "conn=3 ")
	ok "pacing 0.5x: ${ms} ms" between 800 "$ms" 4000

	start pace0 --speed 0 $FIX/gc.eventlog
	wait_for $T/pace0.out "conn=3 " 5
	key q
	wait_exit $TP 5
	exec 3>&-
	ms=$(draw_ms $T/pace0.out "conn=3 ")
	ok "pacing max: ${ms} ms" between 0 "$ms" 600

	# At max speed the first pass is the replay: the model holds every
	# event once, at the end, and the replay goes on from there (c, p...).
	local f n want
	for f in threads gc ghc96-threads; do
		start pace0-$f --speed 0 $FIX/$f.eventlog
		wait_for $T/pace0-$f.out "conn=3 " 5
		key q
		wait_exit $TP 5
		exec 3>&-
		n=$(field "$(last_draw $T/pace0-$f.out)" events)
		want=$("$EVTOP" --batch --json $FIX/$f.eventlog | tail -n 1 |
		    jq .events_total)
		ok "pacing max, $f: every event once ($n)" eq "$n" "$want"
		n=$(field "$(last_draw $T/pace0-$f.out)" pos)
		ok "pacing max, $f: at the end ($n)" eq "${n%/*}" "${n#*/}"
	done
}

# Keys: pause, resume, faster, slower, max, to the end.
keys() {
	local a b l
	# 0.05x: 8.4 s for the whole file.
	start keys --speed 0.05 $FIX/gc.eventlog
	wait_for $T/keys.out "events=[1-9]" 8
	key p
	ok "keys: paused" wait_for $T/keys.out "paused=1" 5
	a=$(field "$(last_draw $T/keys.out)" ftime)
	sleep 0.3	# a pause must hold: nothing to wait for but time
	b=$(field "$(last_draw $T/keys.out)" ftime)
	ok "keys: event time holds while paused ($a)" eq "$a" "$b"
	a=$(field "$(last_draw $T/keys.out)" pos)
	ok "keys: position part way ($a)" [ "${a%/*}" -gt 0 -a \
	    "${a%/*}" -lt "${a#*/}" ]
	key p
	ok "keys: resumed" wait_for $T/keys.out "paused=0.*ftime=" 5
	key +
	ok "keys: faster: 0.1x" wait_for $T/keys.out "speed=0.1 " 5
	key -
	key -
	ok "keys: slower: 0.025x" wait_for $T/keys.out "speed=0.025 " 5
	key m
	ok "keys: max" wait_for $T/keys.out "speed=0 " 5
	key m
	ok "keys: max again: back to 0.025x" wait_for $T/keys.out \
	    "speed=0.025 .*" 2
	key e
	ok "keys: to the end" wait_for $T/keys.out "conn=3 " 8
	l=$(last_draw $T/keys.out)
	ok "keys: all of it" eq "$(field "$l" pos)" \
	    "$(stat -c %s $FIX/gc.eventlog)/$(stat -c %s $FIX/gc.eventlog)"
	key c
	ok "keys: no control over a file" wait_for $T/keys.out \
	    "census: not sent: control commands need a socket" 2
	key q
	wait_exit $TP 5
	ok "keys: q: exit 0" eq $? 0
	exec 3>&-
}

# A flood: at most ~10 draws a second, keys still answered, and with a
# slow terminal the source is still drained.
flood() {
	local d=$T/flood n ms rate
	mkdir -p $d
	if [ ! -x "$MKLOG" ]; then
		echo "ok $((passed + failed + 1)) - # SKIP flood: no $MKLOG"
		passed=$((passed + 1))
		return
	fi
	"$MKLOG" $FIX/gc.eventlog $d/big.eventlog 120 >/dev/null
	# Enough to last a while: 120 MB at ~100 MB/s.
	$FAKEPROD --unix $d/s.sock --chunk 65536 $d/big.eventlog &
	PIDS+=($!)
	start flood --unix $d/s.sock
	wait_for $T/flood.out "bytes=[1-9]" 5
	key c
	ok "flood: a key is answered during the flood" wait_for \
	    $T/flood.out "census: (sending|sent)" 1
	ok "flood: all read" wait_for $T/flood.out \
	    "bytes=$(stat -c %s $d/big.eventlog) " 30
	key q
	wait_exit $TP 5
	exec 3>&-
	n=$(grep -c '^draw' $T/flood.out)
	ms=$(last_draw $T/flood.out | awk '{print $2}')
	rate=$(( n * 1000 / (ms + 1) ))
	ok "flood: $n draws in $ms ms: at most ~10 a second" \
	    between 0 "$rate" 12

	# A terminal that takes 150 ms per draw: reading goes on between.
	$FAKEPROD --unix $d/s2.sock --chunk 65536 $d/big.eventlog &
	PIDS+=($!)
	TUID_DRAW_MS=150 start slow --unix $d/s2.sock
	ok "slow terminal: still all read" wait_for $T/slow.out \
	    "bytes=$(stat -c %s $d/big.eventlog) " 30
	key q
	wait_exit $TP 5
	exec 3>&-
}

# Nothing changes: no draws.
idle() {
	local n1 n2
	start idle --speed 1 $FIX/messages.eventlog
	wait_for $T/idle.out "conn=3 " 5
	n1=$(grep -c '^draw' $T/idle.out)
	sleep 0.5	# idle must stay idle: nothing to wait for but time
	n2=$(grep -c '^draw' $T/idle.out)
	ok "idle: no draw when nothing changes ($n1 then $n2)" \
	    between "$n1" "$n2" $((n1 + 1))
	key q
	wait_exit $TP 5
	exec 3>&-
}

# Control over a FIFO: the key explains.
fifo_send() {
	mkfifo $T/f
	start fifo --fifo $T/f
	wait_for $T/fifo.out "waiting for a writer" 8
	key c
	ok "fifo: control needs a socket" wait_for $T/fifo.out \
	    "not sent: control commands need a socket .*not a FIFO" 2
	key q
	wait_exit $TP 5
	exec 3>&-
}

# Keys send commands through the same path as --send.
socket_send() {
	local d=$T/send
	mkdir -p $d
	$FAKEPROD --unix $d/s.sock --ctl $d/ctl --linger 2000 \
	    $FIX/messages.eventlog &
	PIDS+=($!)
	start send --unix $d/s.sock
	wait_for $T/send.out "conn=1 " 5
	key c
	ok "send: the key sends" wait_for $T/send.out "census: sent" 5
	key q
	wait_exit $TP 5
	exec 3>&-
	printf '\xf0\x9e\x97\x8c\x00\x0feventlog-socket\x05' >$d/want
	ok "send: on the wire" wait_cmp $d/ctl $d/want 8
}

# Signals.
signals() {
	local st
	start sig --speed 0.01 $FIX/gc.eventlog
	wait_for $T/sig.out "^draw" 8
	kill -WINCH $TP
	ok "SIGWINCH: resize" wait_for $T/sig.out "^resize" 5
	kill -TSTP $TP
	ok "SIGTSTP: suspend" wait_for $T/sig.out "^suspend" 5
	st=""
	for _ in $(seq 500); do
		st=$(awk '{print $3}' /proc/$TP/stat 2>/dev/null)
		[ "$st" = T ] && break
		sleep 0.01
	done
	ok "SIGTSTP: stopped" eq "$st" T
	kill -CONT $TP
	ok "SIGCONT: resume" wait_for $T/sig.out "^resume" 5
	kill -TERM $TP
	wait_exit $TP 5
	ok "SIGTERM: dies of it, after (143)" eq $? 143
	ok "SIGTERM: terminal restored" wait_for $T/sig.out "^free" 5
	exec 3>&-

	start hup --speed 0.01 $FIX/gc.eventlog
	wait_for $T/hup.out "^draw" 8
	kill -HUP $TP
	wait_exit $TP 5
	ok "SIGHUP: dies of it, after (129)" eq $? 129
	ok "SIGHUP: terminal restored" wait_for $T/hup.out "^free" 5
	exec 3>&-

	# ^C is the normal end of a session, as q is.
	start int --speed 0.01 $FIX/gc.eventlog
	wait_for $T/int.out "^draw" 8
	kill -INT $TP
	wait_exit $TP 5
	ok "SIGINT: exit 0" eq $? 0
	ok "SIGINT: terminal restored" wait_for $T/int.out "^free" 5
	exec 3>&-

	start segv --speed 0.01 $FIX/gc.eventlog
	wait_for $T/segv.out "^draw" 8
	kill -SEGV $TP
	wait_exit $TP 5
	ok "SIGSEGV: dies of it (status $?)" eq $? 139
	ok "SIGSEGV: emergency restore first" wait_for $T/segv.err \
	    "^emergency" 1
	exec 3>&-

	TUID_FAIL=1 "$TUID" $FIX/gc.eventlog </dev/null >$T/fail.out \
	    2>$T/fail.err
	ok "no terminal: exit 1" eq $? 1
	ok "no terminal: says why" wait_for $T/fail.err "no terminal" 5
}

pacing
keys
flood
idle
fifo_send
socket_send
signals

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
