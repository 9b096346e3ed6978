#!/usr/bin/env bash
# relay.sh: evtop --serve / --serve-tcp, by value.
#
#  - two clients there before the source starts (evtop --batch --json
#    --once over the Unix socket, and a raw reader over TCP): each stream
#    decodes with no error, `evtop show` prints the same events as for the
#    source file, and the figures equal the relaying evtop's;
#  - the socket is mode 0600 and gone at exit; a regular file at the path
#    is never replaced;
#  - a late joiner to a paced replay gets a decodable stream: the header,
#    the init events, then a suffix of the source's events;
#  - a client that never reads is dropped (and said so) while another
#    gets everything;
#  - tests/sockprog (a real GHC program): a client's control command
#    reaches the program; with --serve-readonly it is refused;
#  - from a file or a FIFO, which take no commands, a client's commands
#    are refused, in the log and in evtop_relay_commands_total, never
#    said or counted as forwarded.
#
#   tests/serve/relay.sh [EVTOP [MKLOG [SOCKPROG]]]
set -u

EVTOP=${1:-./evtop}
MKLOG=${2:-build/bench/mklog}
PROG=${3:-build/tests/sockprog/sockprog}
FIX=$(pwd)/tests/fixtures
EVTOP=$(cd "$(dirname "$EVTOP")" && pwd)/$(basename "$EVTOP")
MKLOG=$(cd "$(dirname "$MKLOG")" && pwd)/$(basename "$MKLOG")
[ -x "$PROG" ] && PROG=$(cd "$(dirname "$PROG")" && pwd)/$(basename "$PROG")
HERE=$(cd "$(dirname "$0")" && pwd)
JS="python3 $HERE/../sources/js.py"
RAW="python3 $HERE/rawclient.py"

if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIPPED: python3 not found"
	exit 0
fi
. "$HERE/../lib.sh"

T=$(mktemp -d /tmp/evtop-relay.XXXXXX)
cd "$T" || exit 1
PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

# same A B: the last JSON objects agree but for the block count (the
# relay frames its own blocks).
same() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
def last(p):
    return [json.loads(l) for l in open(p) if l.startswith("{")][-1]
a, b = last(sys.argv[1]), last(sys.argv[2])
for k in ("blocks", "late", "reorder", "rates", "history", "lag_ns"):
    a.pop(k, None); b.pop(k, None)
# A source cut within an event says so; the relay gives whole events only.
if (a.get("last_error") or "").startswith("truncated:") and b.get("errors") == 0:
    for k in ("errors", "last_error"):
        a.pop(k, None); b.pop(k, None)
def diff(x, y, path=""):
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y)):
            diff(x.get(k), y.get(k), path + "." + k)
    elif x != y:
        print(f"# {path}: {json.dumps(x)[:80]} != {json.dumps(y)[:80]}")
        diff.bad = True
diff.bad = False
diff(a, b)
sys.exit(1 if diff.bad else 0)
EOF
}

# events FILE: the event lines `evtop show` prints (after "Events:"),
# block markers aside (the relay frames its own).
events() {
	"$EVTOP" show "$1" | sed -n '/^Events:/,$p' | tail -n +2 |
	    grep -v -e 'event block: cap' -e '^$'
}

wait_for_file() {
	local end=$((SECONDS + $2 + 1))
	while [ $SECONDS -lt $end ]; do
		[ -e "$1" ] && return 0
		sleep 0.02
	done
	return 1
}

decodes() {
	"$EVTOP" show "$1" >/dev/null 2>"$1.show-err" && [ ! -s "$1.show-err" ]
}

# --- Two clients from the start, a FIFO source. -----------------------
from_start() {
	local d=$T/start rp c1 c2 port
	mkdir -p $d
	mkfifo $d/f
	"$EVTOP" --batch --json --once --fifo $d/f --serve $d/s.sock \
	    --serve-tcp 127.0.0.1:0 --log $d/log >$d/src.json 2>$d/src.err &
	rp=$!
	PIDS+=($rp)
	ok "start: listening" wait_for $d/src.err "relay: listening on" 5
	ok "start: the socket is mode 0600" eq "$(stat -c %a $d/s.sock)" 600
	port=$(sed -n 's/.*relay: listening on .* 127.0.0.1:\([0-9]*\).*/\1/p' \
	    $d/src.err)
	"$EVTOP" --batch --json --once --unix $d/s.sock >$d/c1.json \
	    2>$d/c1.err &
	c1=$!
	PIDS+=($c1)
	$RAW tcp 127.0.0.1 $port $d/c2.raw &
	c2=$!
	PIDS+=($c2)
	ok "start: both clients wait for a session" wait_count $d/log \
	    "waits for a session" 2 10
	cat $FIX/prof.eventlog >$d/f
	wait_exit $rp 20
	ok "start: the relaying evtop exits 0" eq $? 0
	wait_exit $c1 10
	ok "start: client 1 (evtop --unix) exits 0" eq $? 0
	wait_exit $c2 10
	ok "start: client 2 (raw, TCP) got its stream" eq $? 0
	ok "start: the socket is removed at exit" test ! -e $d/s.sock
	ok "start: client 1's figures equal the source's" same $d/src.json \
	    $d/c1.json
	ok "start: client 2's stream decodes with no error" decodes $d/c2.raw
	"$EVTOP" --batch --json $d/c2.raw >$d/c2.json 2>/dev/null
	ok "start: client 2's figures equal the source's" same $d/src.json \
	    $d/c2.json
	events $FIX/prof.eventlog >$d/want.ev
	events $d/c2.raw >$d/got.ev
	ok "start: client 2's events are the file's, line for line" \
	    cmp -s $d/want.ev $d/got.ev
	ok "start: ... and there are events ($(wc -l <$d/want.ev))" \
	    test "$(wc -l <$d/want.ev)" -gt 1000
}

# --- A late joiner to a paced replay of a file. -----------------------
late_joiner() {
	local d=$T/late rp c n k ninit
	mkdir -p $d
	# The client first (python may be slow to start): it connects about
	# a third of the way into the replay (4.2 s), timed from the socket.
	$RAW late 1.4 $d/s.sock $d/late.raw &
	c=$!
	PIDS+=($c)
	ok "late: the client is up" wait_for_file $d/late.raw.ready 30
	"$EVTOP" --batch --json --speed 0.1 --serve $d/s.sock \
	    --log $d/log $FIX/gc.eventlog >$d/src.json 2>$d/src.err &
	rp=$!
	PIDS+=($rp)
	ok "late: listening" wait_for $d/src.err "relay: listening on" 5
	ok "late: joined" wait_for $d/log "client 1 joined" 5
	wait_exit $rp 20
	ok "late: the relaying evtop exits 0" eq $? 0
	wait_exit $c 10
	ok "late: the raw client got its stream" eq $? 0
	ok "late: its stream decodes with no error" decodes $d/late.raw
	ninit=$(sed -n 's/.*client 1 joined: header and \([0-9]*\) init.*/\1/p' \
	    $d/log)
	ok "late: it got init events ($ninit)" test "${ninit:-0}" -gt 5
	"$EVTOP" show $d/late.raw | grep -q "created capset" 
	ok "late: they include the capset" eq $? 0
	events $FIX/gc.eventlog >$d/all.ev
	events $d/late.raw >$d/late.ev
	n=$(wc -l <$d/late.ev)
	k=$((n - ninit))
	ok "late: a part of the events only ($k of $(wc -l <$d/all.ev))" \
	    test $k -gt 100 -a $k -lt $(($(wc -l <$d/all.ev) - 100))
	ok "late: after the init events, a suffix of the source's" cmp -s \
	    <(tail -n $k $d/late.ev) <(tail -n $k $d/all.ev)
}

# --- A client that never reads is dropped; the other gets all. ---------
slow_dropped() {
	local d=$T/slow rp c1 c2
	mkdir -p $d
	"$MKLOG" $FIX/gc.eventlog $d/big.eventlog 40 >/dev/null || return
	mkfifo $d/f
	"$EVTOP" --batch --json --once --fifo $d/f --serve $d/s.sock \
	    --serve-queue 8 --log $d/log >$d/src.json 2>$d/src.err &
	rp=$!
	PIDS+=($rp)
	ok "slow: listening" wait_for $d/src.err "relay: listening on" 5
	"$EVTOP" --batch --json --once --unix $d/s.sock >$d/fast.json \
	    2>$d/fast.err &
	c1=$!
	PIDS+=($c1)
	$RAW stall $d/s.sock &
	c2=$!
	PIDS+=($c2)
	ok "slow: both wait" wait_count $d/log "waits for a session" 2 10
	# Paced (about 20 MB/s), so that a reader that reads keeps up on a
	# loaded machine; the stalled one still fills its 8 MiB.
	for i in $(seq 0 39); do
		dd if=$d/big.eventlog bs=1M skip=$i count=1 2>/dev/null
		sleep 0.05
	done >$d/f
	wait_exit $rp 60
	ok "slow: the relaying evtop exits 0" eq $? 0
	ok "slow: the stalled client was dropped, and said so" \
	    wait_for $d/src.err "client [0-9]+ dropped: .* behind" 1
	ok "slow: only that one" eq "$(count $d/src.err dropped)" 1
	wait_exit $c1 10
	ok "slow: the reading client (evtop) exits 0" eq $? 0
	ok "slow: ... all of it: its figures equal the source's" same \
	    $d/src.json $d/fast.json
	kill $c2 2>/dev/null
}

# --- A regular file at the path stays. --------------------------------
no_clobber() {
	local d=$T/file
	mkdir -p $d
	echo precious >$d/s.sock
	"$EVTOP" --batch --serve $d/s.sock $FIX/gc.eventlog >/dev/null \
	    2>$d/err
	ok "file: refused (exit 1)" eq $? 1
	ok "file: and says why" grep -q "not a socket" $d/err
	ok "file: the file is untouched" eq "$(cat $d/s.sock)" precious
}

# --- Control commands through the relay, to a real program. -----------
commands() {
	local d=$T/cmd$1 ro=$1 rp p c secs=8
	mkdir -p $d
	"$EVTOP" --batch --json --once --unix $d/p.sock --serve $d/r.sock \
	    ${ro:+--serve-readonly} --record $d/rec.eventlog --log $d/log \
	    >$d/src.json 2>$d/src.err &
	rp=$!
	PIDS+=($rp)
	ok "cmd$ro: listening" wait_for $d/src.err "relay: listening on" 5
	# Read-only, a namespace with an escape sequence and a newline too:
	# the relaying evtop's note (stderr, log) has neither.
	"$EVTOP" --batch --json --once --unix $d/r.sock \
	    --send eventlog-socket:5 --send sockprog:1 \
	    ${ro:+--send $'x\033[31m\nz:9'} >$d/c.json 2>$d/c.err &
	c=$!
	PIDS+=($c)
	ok "cmd$ro: the client waits" wait_for $d/log "waits for a session" 10
	(cd $d && GHC_EVENTLOG_UNIX_PATH=$d/p.sock GHC_EVENTLOG_WAIT=1 \
	    SOCKPROG_SECONDS=$secs exec "$PROG" +RTS -l -hT -i100 -RTS \
	    >/dev/null) &
	p=$!
	PIDS+=($p)
	wait_exit $rp 40
	ok "cmd$ro: the relaying evtop exits 0" eq $? 0
	wait_exit $c 10
	ok "cmd$ro: the client exits 0" eq $? 0
	ok "cmd$ro: the client's figures equal the relaying evtop's" same \
	    $d/src.json $d/c.json
	if [ -z "$ro" ]; then
		ok "cmd: forwarded (log)" grep -q \
		    "client 1: control command sockprog:1 forwarded" $d/log
		ok "cmd: the program got eventlog-socket:5" grep -q \
		    "sockprog: command eventlog-socket:5" <("$EVTOP" show \
		    $d/rec.eventlog)
		ok "cmd: and sockprog:1 (quit)" grep -q \
		    "sockprog: command sockprog:1" <("$EVTOP" show \
		    $d/rec.eventlog)
	else
		ok "cmd-ro: refused (log)" grep -q \
		    "control command sockprog:1 refused (--serve-readonly)" \
		    $d/log
		ok "cmd-ro: the program got no command" test "$("$EVTOP" \
		    show $d/rec.eventlog | grep -c "sockprog: command")" = 0
		ok "cmd-ro: a client's escape sequence: not on stderr, nor in the log" \
		    test "$(cat $d/src.err $d/log | tr -dc '\033' | wc -c)" = 0
		ok "cmd-ro: its namespace said, controls as '.'" grep -q \
		    "control command x.\[31m.z:9 refused" $d/src.err
	fi
}

# --- Commands the source cannot take (a file, a FIFO): refused. --------
# scrape PORT: the relaying evtop's metrics.
scrape() {
	python3 - "http://127.0.0.1:$1/metrics" <<'EOF'
import sys, urllib.request
r = urllib.request.urlopen(sys.argv[1], timeout=5)
sys.stdout.write(r.read().decode())
EOF
}

not_sent() {
	local d=$T/nosend-$1 rp w c port why re
	mkdir -p $d
	if [ "$1" = file ]; then
		why="this is a file"
		"$EVTOP" --batch --speed 0.1 --metrics 127.0.0.1:0 \
		    --serve $d/r.sock --log $d/log $FIX/gc.eventlog \
		    >/dev/null 2>$d/src.err &
		rp=$!
		PIDS+=($rp)
	else
		why="not a FIFO or stdin"
		mkfifo $d/f
		"$EVTOP" --batch --once --fifo $d/f --metrics 127.0.0.1:0 \
		    --serve $d/r.sock --log $d/log >/dev/null 2>$d/src.err &
		rp=$!
		PIDS+=($rp)
		# The writer stays, so that the session goes on.
		(cat $FIX/gc.eventlog; exec sleep 60) >$d/f &
		w=$!
		PIDS+=($w)
	fi
	ok "$1: listening" wait_for $d/src.err "relay: listening on" 5
	port=$(sed -n 's/.*metrics: listening on 127.0.0.1:\([0-9]*\).*/\1/p' \
	    $d/src.err)
	"$EVTOP" --batch --once --unix $d/r.sock --send census \
	    --send sockprog:1 >/dev/null 2>$d/c.err &
	c=$!
	PIDS+=($c)
	re="client 1: control command (eventlog-socket:5|sockprog:1)"
	re="$re refused \\(control commands need a socket.*$why\\)"
	ok "$1: a client's two commands: refused (log)" wait_count $d/log \
	    "$re" 2 15
	ok "$1: ... never said forwarded" eq "$(count $d/log forwarded)" 0
	scrape "$port" >$d/metrics
	ok "$1: evtop_relay_commands_total: 0 forwarded" grep -qx \
	    'evtop_relay_commands_total{result="forwarded"} 0' $d/metrics
	ok "$1: ... 2 refused" grep -qx \
	    'evtop_relay_commands_total{result="refused"} 2' $d/metrics
	kill $c $rp ${w:-} 2>/dev/null
	wait_exit $rp 10
	ok "$1: the relaying evtop dies of SIGTERM (143)" eq $? 143
}

from_start
late_joiner
not_sent file
not_sent fifo
slow_dropped
no_clobber
if command -v ghc >/dev/null 2>&1 && [ -x "$PROG" ]; then
	commands ""
	commands ro
else
	echo "# SKIPPED: control commands through the relay (no ghc or $PROG)"
fi

echo "1..$((passed + failed))"
[ $failed -eq 0 ]
