#!/usr/bin/env bash
# e2e.sh: evtop over live sources, with a fake producer (fakeprod) serving
# real GHC 9.0.2 eventlogs, and faults: a program that dies mid-stream,
# restarts at the same path (continuing, or a new program), is not there
# yet, refuses connections, writes slowly, floods, splits its bytes at
# every boundary, or sends junk before its header.  Also FIFOs, stdin, the
# control commands on the wire, and the command line.
#
# Every wait polls for a state with a deadline; no bare sleep synchronises.
#
#   tests/sources/e2e.sh [EVTOP [FAKEPROD [MKLOG]]]
set -u

EVTOP=${1:-./evtop}
FAKEPROD=${2:-build/tests/sources/fakeprod}
MKLOG=${3:-build/bench/mklog}
FIX=tests/fixtures
JS="python3 tests/sources/js.py"

if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIPPED: python3 not found (needed to read the JSON)"
	exit 0
fi
for f in threads gc messages sparks; do
	if [ ! -f $FIX/$f.eventlog ]; then
		echo "SKIPPED: $FIX/$f.eventlog missing"
		exit 0
	fi
done

T=$(mktemp -d /tmp/evtop-e2e.XXXXXX)
PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

. "$(dirname "$0")/../lib.sh"

# wait_socket PATH SECONDS: until PATH is a socket.
wait_socket() {
	local end=$((SECONDS + $2 + 1))
	while [ $SECONDS -lt $end ]; do
		[ -S "$1" ] && return 0
		sleep 0.02
	done
	return 1
}

batch_of() {	# batch_of FILE OUT: the figures of a file
	timeout 60 "$EVTOP" --batch --json "$1" >"$2" 2>/dev/null
}

same() {	# same A B: the last JSON objects agree
	$JS cmp "$1" "$2" | sed 's/^/# /'
	return "${PIPESTATUS[0]}"
}

for f in threads gc messages sparks; do
	batch_of $FIX/$f.eventlog $T/$f.file.json
done

# ---------------------------------------------------------------------
# 1. A whole log over a Unix socket, recorded.
unix_whole() {
	local d=$T/unix
	mkdir -p $d
	$FAKEPROD --unix $d/s.sock $FIX/threads.eventlog &
	PIDS+=($!)
	timeout 30 "$EVTOP" --batch --json --once --unix $d/s.sock \
	    --record $d/rec.eventlog >$d/live.json 2>$d/err
	ok "unix: exit status 0" eq $? 0
	ok "unix: figures equal those of the file" same $d/live.json \
	    $T/threads.file.json
	ok "unix: the recording is the bytes sent" cmp -s $d/rec.eventlog \
	    $FIX/threads.eventlog
	ok "unix: said connected, then closed" wait_for $d/err \
	    "closed after 84164 bytes" 1
}

# 2. The same over TCP on 127.0.0.1, the port chosen at run time.
tcp_whole() {
	local d=$T/tcp port
	mkdir -p $d
	$FAKEPROD --tcp $d/port $FIX/gc.eventlog &
	PIDS+=($!)
	wait_for $d/port '^[0-9]+$' 5
	port=$(cat $d/port)
	timeout 30 "$EVTOP" --batch --json --once --tcp 127.0.0.1:$port \
	    --record $d/rec.eventlog >$d/live.json 2>$d/err
	ok "tcp 127.0.0.1:$port: exit status 0" eq $? 0
	ok "tcp: figures equal those of the file" same $d/live.json \
	    $T/gc.file.json
	ok "tcp: the recording is the bytes sent" cmp -s $d/rec.eventlog \
	    $FIX/gc.eventlog
	# A name, through getaddrinfo.
	rm -f $d/port
	$FAKEPROD --tcp $d/port $FIX/sparks.eventlog &
	PIDS+=($!)
	wait_for $d/port '^[0-9]+$' 5
	timeout 30 "$EVTOP" --batch --json --once --tcp localhost:$(cat \
	    $d/port) >$d/live2.json 2>/dev/null
	ok "tcp localhost: same figures" same $d/live2.json \
	    $T/sparks.file.json
}

# A path that is a socket is read as --unix.
socket_path() {
	local d=$T/sockpath
	mkdir -p $d
	$FAKEPROD --unix $d/s.sock $FIX/messages.eventlog &
	PIDS+=($!)
	wait_socket $d/s.sock 5
	timeout 30 "$EVTOP" --batch --json --once $d/s.sock \
	    >$d/live.json 2>$d/err
	ok "socket path: read as a Unix socket" same $d/live.json \
	    $T/messages.file.json
}

# 3. The bytes split at every boundary: 1, 3 and 7 bytes per write.
split_chunks() {
	local d=$T/split n
	mkdir -p $d
	for n in 1 3 7; do
		$FAKEPROD --unix $d/s$n.sock --chunk $n \
		    $FIX/messages.eventlog &
		PIDS+=($!)
		timeout 60 "$EVTOP" --batch --json --once --unix $d/s$n.sock \
		    >$d/live$n.json 2>/dev/null
		ok "split: $n byte(s) per write: same figures" same \
		    $d/live$n.json $T/messages.file.json
	done
}

# 4. Junk before the header (GHC 9.0.2's block marker on reconnection).
junk() {
	local d=$T/junk
	mkdir -p $d
	$FAKEPROD --unix $d/s.sock --junk --chunk 5 $FIX/sparks.eventlog &
	PIDS+=($!)
	timeout 30 "$EVTOP" --batch --json --once --unix $d/s.sock \
	    --record $d/rec.eventlog --log $d/log >$d/live.json 2>/dev/null
	ok "junk: same figures" same $d/live.json $T/sparks.file.json
	ok "junk: not recorded" cmp -s $d/rec.eventlog $FIX/sparks.eventlog
	ok "junk: the log says so" wait_for $d/log \
	    "skipped 24 bytes before a header" 1
}

# 5. The program dies mid-stream, then comes back at the same path and
# goes on (a 9.0.2 reconnection: a header, then ordinary events).
die_and_continue() {
	local d=$T/die pid n total half got
	mkdir -p $d
	total=$($JS get $T/threads.file.json events_total)
	half=700
	$FAKEPROD --unix $d/s.sock --events 0:$half --no-end --die \
	    $FIX/threads.eventlog &
	PIDS+=($!)
	"$EVTOP" --batch --json --interval 0.05 --unix $d/s.sock \
	    --record $d/rec.eventlog >$d/live.json 2>$d/err &
	pid=$!
	PIDS+=($pid)
	ok "die: the end is noticed" wait_for $d/err \
	    "closed after [0-9]+ bytes; reconnecting" 5
	# What was shown stays shown while it is away.
	n=$(count $d/live.json .)
	wait_count $d/live.json . $((n + 3)) 5
	got=$($JS get $d/live.json events_total)
	ok "die: figures kept while away ($got events)" [ "$got" -gt 0 ]
	ok "die: waiting to reconnect" wait_for $d/err \
	    "reconnecting: .*(No such file|refused)" 5
	$FAKEPROD --unix $d/s.sock --events $half: $FIX/threads.eventlog &
	PIDS+=($!)
	ok "die: reconnected, second connection read" wait_count $d/err \
	    "closed after" 2 10
	kill -INT $pid
	wait_exit $pid 10
	ok "die: SIGINT: exit status 0" eq $? 0
	ok "die: no event lost: $total" eq \
	    "$($JS get $d/live.json events_total)" "$total"
	ok "die: one program, two sessions" eq \
	    "$($JS get $d/live.json program.sessions)/$($JS get \
	    $d/live.json program.resets)" "2/0"
	ok "die: REC readable" "$EVTOP" show $d/rec.eventlog >/dev/null
	ok "die: REC.1 readable" "$EVTOP" show $d/rec.eventlog.1 >/dev/null
	if command -v ghc-events >/dev/null 2>&1; then
		ok "die: ghc-events reads REC" ghc-events show \
		    $d/rec.eventlog >/dev/null
		ok "die: ghc-events reads REC.1" ghc-events show \
		    $d/rec.eventlog.1 >/dev/null
	fi
	batch_of $d/rec.eventlog $d/r0.json
	batch_of $d/rec.eventlog.1 $d/r1.json
	ok "die: the two recordings hold every event" eq \
	    $(($($JS get $d/r0.json events_total) + \
	    $($JS get $d/r1.json events_total))) "$total"
}

# 6. Another program (another pid) at the same path.  Whether the model
# starts over is decided from the pid, which GHC 9.0.2's file writer puts
# at the end of its log, after the events: the reset itself is tested
# with a real program streaming over a socket (tests/sockprog).
restart_new() {
	local d=$T/restart pid
	mkdir -p $d
	$FAKEPROD --unix $d/s.sock --die $FIX/messages.eventlog &
	PIDS+=($!)
	"$EVTOP" --batch --json --interval 0.05 --unix $d/s.sock \
	    >$d/live.json 2>$d/err &
	pid=$!
	PIDS+=($pid)
	wait_for $d/err "closed after" 5
	n=$(count $d/live.json .)
	wait_count $d/live.json . $((n + 2)) 5
	ok "restart: the first program shown" eq \
	    "$($JS get $d/live.json program.pid)" \
	    "$($JS get $T/messages.file.json program.pid)"
	$FAKEPROD --unix $d/s.sock $FIX/gc.eventlog &
	PIDS+=($!)
	wait_count $d/err "closed after" 2 10
	kill -TERM $pid
	wait_exit $pid 10
	ok "restart: SIGTERM: dies of it (143)" eq $? 143
	ok "restart: two sessions" eq \
	    "$($JS get $d/live.json program.sessions)" 2
	ok "restart: it is the new one" eq \
	    "$($JS get $d/live.json program.pid)" \
	    "$($JS get $T/gc.file.json program.pid)"
}

# 7. Not there yet: waiting (a status, not an error), then it comes.
waiting() {
	local d=$T/wait pid t0 t1
	mkdir -p $d
	"$EVTOP" --batch --json --once --interval 0.1 --unix $d/s.sock \
	    >$d/live.json 2>$d/err &
	pid=$!
	PIDS+=($pid)
	ok "waiting: says it waits" wait_for $d/err \
	    "waiting: No such file or directory" 3
	ok "waiting: prints figures meanwhile" wait_count $d/live.json \
	    '"events_total": ?0' 3 5
	$FAKEPROD --unix $d/s.sock $FIX/messages.eventlog &
	PIDS+=($!)
	t0=$(date +%s%N)
	wait_exit $pid 10
	ok "waiting: then reads it and ends (--once)" eq $? 0
	t1=$(date +%s%N)
	ok "waiting: connected within 2.5 s ($(( (t1 - t0) / 1000000 )) ms)" \
	    [ $(( (t1 - t0) / 1000000 )) -lt 2500 ]
	ok "waiting: same figures" same $d/live.json $T/messages.file.json
}

# 8. TCP: connection refused is waiting too.
refused() {
	local d=$T/refused pid port
	mkdir -p $d
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	"$EVTOP" --batch --json --interval 0.1 --tcp 127.0.0.1:$port \
	    >$d/live.json 2>$d/err &
	pid=$!
	PIDS+=($pid)
	ok "refused: waiting" wait_for $d/err "waiting: Connection refused" 8
	kill -INT $pid
	wait_exit $pid 5
	ok "refused: SIGINT: exit 0" eq $? 0
	ok "refused: a last JSON object" wait_for $d/live.json \
	    '"events_total": ?0' 1
}

# 9. A slow writer: figures grow as the bytes come.  (The model holds
# events back for 2 s of event time to put them in order, so the log
# must span more than that: copies of gc.eventlog, 0.42 s each.)
slow() {
	local d=$T/slow vals
	mkdir -p $d
	if [ ! -x "$MKLOG" ]; then
		echo "ok $((passed + failed + 1)) - # SKIP slow: no $MKLOG"
		passed=$((passed + 1))
		return
	fi
	"$MKLOG" $FIX/gc.eventlog $d/log.eventlog 1 >/dev/null
	batch_of $d/log.eventlog $d/file.json
	$FAKEPROD --unix $d/s.sock --chunk 16384 --delay-us 15000 \
	    $d/log.eventlog &
	PIDS+=($!)
	timeout 30 "$EVTOP" --batch --json --once --interval 0.05 \
	    --unix $d/s.sock >$d/live.json 2>/dev/null
	vals=$($JS all $d/live.json events_total | uniq | wc -l)
	ok "slow: figures grew step by step ($vals values)" [ "$vals" -ge 4 ]
	ok "slow: same figures in the end" same $d/live.json $d/file.json
}

# 10. A flooding writer: all of it, and how fast.
flood() {
	local d=$T/flood t0 t1 mb rate
	mkdir -p $d
	if [ ! -x "$MKLOG" ]; then
		echo "ok $((passed + failed + 1)) - # SKIP flood: no $MKLOG"
		passed=$((passed + 1))
		return
	fi
	"$MKLOG" $FIX/gc.eventlog $d/big.eventlog 64 >/dev/null
	batch_of $d/big.eventlog $d/file.json
	$FAKEPROD --unix $d/s.sock --chunk 1048576 $d/big.eventlog &
	PIDS+=($!)
	t0=$(date +%s%N)
	timeout 60 "$EVTOP" --batch --json --once --interval 1000 \
	    --unix $d/s.sock >$d/live.json 2>/dev/null
	t1=$(date +%s%N)
	mb=$(( $(stat -c %s $d/big.eventlog) >> 20 ))
	rate=$(( mb * 1000 / ( (t1 - t0) / 1000000 + 1) ))
	echo "# flood: $mb MB from a Unix socket in $(( (t1 - t0) / 1000000 )) ms: $rate MB/s"
	ok "flood: every event ($($JS get $d/file.json events_total))" eq \
	    "$($JS get $d/live.json events_total)" \
	    "$($JS get $d/file.json events_total)"
}

# 11. FIFOs: a writer, then the next one.
fifo() {
	local d=$T/fifo pid
	mkdir -p $d
	mkfifo $d/f
	(cat $FIX/threads.eventlog >$d/f) &
	PIDS+=($!)
	timeout 30 "$EVTOP" --batch --json --once --fifo $d/f \
	    --record $d/rec.eventlog >$d/live.json 2>/dev/null
	ok "fifo: same figures" same $d/live.json $T/threads.file.json
	ok "fifo: recorded" cmp -s $d/rec.eventlog $FIX/threads.eventlog
	# A path that is a FIFO is read as one; it is reopened for the next.
	"$EVTOP" --batch --json --interval 0.05 $d/f --record $d/r2 \
	    >$d/live2.json 2>$d/err &
	pid=$!
	PIDS+=($pid)
	ok "fifo: waits for a writer" wait_for $d/err "waiting for a writer" 8
	cat $FIX/threads.eventlog >$d/f
	wait_for $d/err "closed after 84164 bytes; reopening" 5
	cat $FIX/gc.eventlog >$d/f
	ok "fifo: the next writer" wait_for $d/err "closed after 97727 bytes" 5
	kill -INT $pid
	wait_exit $pid 5
	ok "fifo: recordings per writer" eval "cmp -s $d/r2 \
	    $FIX/threads.eventlog && cmp -s $d/r2.1 $FIX/gc.eventlog"
	ok "fifo: a new program" eq "$($JS get $d/live2.json program.pid)" \
	    "$($JS get $T/gc.file.json program.pid)"
	# --once and a writer that writes nothing: its stream has ended (it
	# was waited for without end); nothing read, exit 1.
	rm -f $d/f && mkfifo $d/f
	timeout 10 "$EVTOP" --batch --json --once --fifo $d/f >$d/e.json \
	    2>$d/e.err &
	pid=$!
	PIDS+=($pid)
	wait_for $d/e.err "waiting for a writer" 8
	: >$d/f
	wait_exit $pid 5
	ok "fifo --once, an empty writer: ends, exit 1" eq $? 1
	ok "... said so" grep -q "f: its writer closed it without writing \
anything" $d/e.err
	# Part of a header: ended too, said as a file says it.
	head -c 10 $FIX/gc.eventlog >$d/part.eventlog
	timeout 10 "$EVTOP" --batch --json --once --fifo $d/f >$d/p.json \
	    2>$d/p.err &
	pid=$!
	PIDS+=($pid)
	wait_for $d/p.err "waiting for a writer" 8
	cat $d/part.eventlog >$d/f
	wait_exit $pid 5
	ok "fifo --once, part of a header: ends, exit 1" eq $? 1
	"$EVTOP" --batch --json $d/part.eventlog >/dev/null 2>$d/pf.err
	ok "... said as the file says it" grep -q \
	    "f: $(sed -n 's/.*eventlog: //p' $d/pf.err)" $d/p.err
	ok "... in last_error" eq "$($JS get $d/p.json last_error)" \
	    "no eventlog header found"
}

# SIGHUP ends a live --batch as its end would, the last figures printed
# (out of stdio's buffer before dying), then evtop dies of it: 129.
hangup() {
	local d=$T/hup pid
	mkdir -p $d
	mkfifo $d/f
	"$EVTOP" --batch --json --interval 100 --fifo $d/f >$d/live.json \
	    2>$d/err &
	pid=$!
	PIDS+=($pid)
	wait_for $d/err "waiting for a writer" 8
	cat $FIX/threads.eventlog >$d/f
	wait_for $d/err "closed after 84164 bytes" 5
	kill -HUP $pid
	wait_exit $pid 5
	ok "hangup: SIGHUP: dies of it (129)" eq $? 129
	ok "hangup: the last figures printed first" eq \
	    "$($JS get $d/live.json events_total)" \
	    "$($JS get $T/threads.file.json events_total)"
}

# 12. stdin.
stdin() {
	local d=$T/stdin
	mkdir -p $d
	timeout 30 "$EVTOP" --batch --json - <$FIX/sparks.eventlog \
	    >$d/a.json 2>/dev/null
	ok "stdin (file): same figures" same $d/a.json $T/sparks.file.json
	cat $FIX/sparks.eventlog | timeout 30 "$EVTOP" --batch --json - \
	    >$d/b.json 2>/dev/null
	ok "stdin (pipe): same figures" same $d/b.json $T/sparks.file.json
	timeout 10 "$EVTOP" --batch --json - </dev/null >/dev/null 2>$d/e.err
	ok "stdin, empty: exit 1" eq $? 1
	ok "... said so" grep -q -- "-: end of input: nothing came" $d/e.err
}

# 12b. Text in the stream, as when a program prints to the stdout its
# eventlog goes to (+RTS -l -ol/dev/stdout): said as a file says it, and
# decoding goes on at the next block (a file stops there).
mixed() {
	local d=$T/mixed at=48986 want pid	# gc.eventlog's second block
	mkdir -p $d
	{ head -c $at $FIX/gc.eventlog; printf 'step 1\nstep 2\n'
	  tail -c +$((at + 1)) $FIX/gc.eventlog; } >$d/m.eventlog
	"$EVTOP" --batch --json $d/m.eventlog >$d/file.json 2>$d/file.err
	want="byte $at: event tag 29556 not declared in the header"
	ok "mixed: the file says where" grep -qxF "evtop: $d/m.eventlog: \
$want" $d/file.err
	timeout 20 "$EVTOP" --batch --json - <$d/m.eventlog >$d/s.json \
	    2>$d/s.err
	ok "mixed, stdin: said as the file says it" grep -qxF \
	    "evtop: -: $want" $d/s.err
	ok "... in last_error, once" eq "$($JS get $d/s.json last_error) \
$($JS get $d/s.json errors)" "$want 1"
	ok "... and every event after it kept" eq \
	    "$($JS get $d/s.json events_total)" \
	    "$($JS get $T/gc.file.json events_total)"
	mkfifo $d/f
	(cat $d/m.eventlog >$d/f) &
	PIDS+=($!)
	timeout 20 "$EVTOP" --batch --json --once --fifo $d/f >$d/f.json \
	    2>$d/f.err
	ok "mixed, fifo: said as the file says it" grep -qxF \
	    "evtop: $d/f: $want" $d/f.err
	ok "... every event kept" eq "$($JS get $d/f.json events_total)" \
	    "$($JS get $T/gc.file.json events_total)"
	# Text again and again (before each copy of messages.eventlog's
	# first block): the first 10 said, then counted only.
	head -c 7144 $FIX/messages.eventlog | tail -c +2689 >$d/block
	{ head -c 2688 $FIX/messages.eventlog
	  for pid in $(seq 30); do printf 'tick %d\n' $pid; cat $d/block
	  done; } >$d/many.eventlog
	timeout 20 "$EVTOP" --batch --json - <$d/many.eventlog >$d/many.json \
	    2>$d/many.err
	ok "... 30 errors: 10 said, then that more are counted" eq \
	    "$($JS get $d/many.json errors) $(grep -c 'not declared' \
	    $d/many.err) $(grep -c 'more errors: counted' $d/many.err)" \
	    "30 10 1"
}

# 12c. Two logs joined: the second header named where it begins, its
# "hdrb" (it was where it ends).
joined() {
	local d=$T/joined n
	mkdir -p $d
	cat $FIX/gc.eventlog $FIX/threads.eventlog >$d/j.eventlog
	n=$(stat -c %s $FIX/gc.eventlog)
	"$EVTOP" --batch --json $d/j.eventlog >/dev/null 2>$d/j.err
	ok "joined: the second header at byte $n" grep -q \
	    "j.eventlog: byte $n: a second header starts" $d/j.err
	ok "... its first bytes there" eq "$(tail -c +$((n + 1)) \
	    $d/j.eventlog | head -c 4)" hdrb
}

# 13. Control commands on the wire, whole and in order.
send() {
	local d=$T/send
	mkdir -p $d
	$FAKEPROD --unix $d/s.sock --ctl $d/ctl --linger 300 \
	    $FIX/messages.eventlog &
	PIDS+=($!)
	timeout 30 "$EVTOP" --batch --json --once --unix $d/s.sock \
	    --send census --send eventlog-socket:3 --send my:ns:9 \
	    >$d/live.json 2>$d/err
	printf '\xf0\x9e\x97\x8c\x00\x0feventlog-socket\x05' >$d/want
	printf '\xf0\x9e\x97\x8c\x00\x0feventlog-socket\x03' >>$d/want
	printf '\xf0\x9e\x97\x8c\x00\x05my:ns\x09' >>$d/want
	ok "send: the bytes on the wire" cmp $d/ctl $d/want
	ok "send: status says queued" wait_for $d/err \
	    "census: queued until the eventlog starts" 1
	ok "send: status says sent" wait_for $d/err "census: sent" 5
	ok "send: unknown effect said so" wait_for $d/err \
	    "my:ns:9: sent \(its effect is not visible" 1
	# A program that takes 0.5 s to start its eventlog on the socket
	# (eventlog-socket reads commands before): nothing is sent before the
	# header, the census after it.
	$FAKEPROD --unix $d/h.sock --ctl $d/hctl --hold 500 --linger 300 \
	    $FIX/messages.eventlog 2>$d/hold.err &
	PIDS+=($!)
	timeout 30 "$EVTOP" --batch --json --once --unix $d/h.sock \
	    --send census >/dev/null 2>$d/herr
	ok "send: nothing before the header" wait_for $d/hold.err \
	    "before the header: 0 bytes" 2
	printf '\xf0\x9e\x97\x8c\x00\x0feventlog-socket\x05' >$d/hwant
	ok "send: the census after it" cmp $d/hctl $d/hwant
}

# Not an eventlog at all: said so, nothing shown, no crash.
garbage() {
	local d=$T/garbage pid
	mkdir -p $d
	head -c 300000 /dev/urandom >$d/junk
	$FAKEPROD --unix $d/s.sock --linger 3000 $d/junk &
	PIDS+=($!)
	"$EVTOP" --batch --json --interval 0.1 --unix $d/s.sock \
	    >$d/live.json 2>$d/err &
	pid=$!
	PIDS+=($pid)
	ok "garbage: no header, said so" wait_for $d/err \
	    "no eventlog header in the first [0-9]+ bytes" 5
	kill -INT $pid
	wait_exit $pid 5
	ok "garbage: exit 0" eq $? 0
	ok "garbage: nothing shown" eq "$($JS get $d/live.json events_total)" 0
	# A file that is not an eventlog: the figures of nothing, said why,
	# and a failing status (a script learns the run showed nothing).
	"$EVTOP" --batch --json $d/junk >$d/file.json 2>$d/file.err
	ok "garbage file: --batch exit 1" eq $? 1
	ok "garbage file: said so" grep -q "junk: no eventlog header found" \
	    $d/file.err
	ok "garbage file: figures of nothing" eq \
	    "$($JS get $d/file.json events_total)" 0
	# A log cut short is still a log: its figures, exit 0.
	head -c 20000 $FIX/threads.eventlog >$d/cut.eventlog
	"$EVTOP" --batch --json $d/cut.eventlog >$d/cut.json 2>$d/cut.err
	ok "cut file: --batch exit 0" eq $? 0
	ok "cut file: said so" grep -q "truncated" $d/cut.err
}

# 13b. Not a regular file, and streams with no header or cut short: a
# device is read as a pipe is, but with no eventlog header in its first
# MiB it is refused (/dev/zero was read without end, saying nothing); a
# pipe still works; a stream with no header is dropped after its first
# MiB, said once; a stream that ends within an event says so, as the
# file does.
devices() {
	local d=$T/devices rc n
	mkdir -p $d
	timeout 10 "$EVTOP" show /dev/zero >/dev/null 2>$d/show.err
	ok "show /dev/zero: exit 1, soon" eq $? 1
	ok "... not an eventlog, said" grep -q \
	    "/dev/zero: not an eventlog: no header in its first" $d/show.err
	timeout 10 "$EVTOP" --batch --json /dev/urandom >$d/u.json \
	    2>$d/u.err
	ok "--batch /dev/urandom: exit 1, soon" eq $? 1
	ok "... said, and a hint for streams" grep -q \
	    "not an eventlog.*--fifo PATH, or - for stdin" $d/u.err
	"$EVTOP" show <(cat $FIX/gc.eventlog) >$d/pipe.show 2>&1
	"$EVTOP" show $FIX/gc.eventlog >$d/file.show 2>&1
	ok "show <(cat log): a pipe still works" cmp -s $d/pipe.show \
	    $d/file.show
	head -c 50000000 /dev/zero | timeout 20 "$EVTOP" --batch --json - \
	    >$d/z.json 2>$d/z.err
	rc=$?
	ok "stdin of zeros: exit 1" eq $rc 1
	ok "... not an eventlog, said" grep -q \
	    "not an eventlog: no header in the first 1048576 bytes" $d/z.err
	ok "... in last_error" eq "$($JS get $d/z.json last_error)" \
	    "not an eventlog: no header in the first 1048576 bytes"
	n=$(wc -l <$d/z.err)
	ok "... in a few lines ($n)" [ "$n" -le 3 ]
	head -c 90000 $FIX/gc.eventlog >$d/cut.eventlog
	"$EVTOP" --batch --json $d/cut.eventlog >/dev/null 2>$d/cutf.err
	timeout 20 "$EVTOP" --batch --json --once - <$d/cut.eventlog \
	    >$d/cuts.json 2>$d/cuts.err
	ok "a stream cut within an event: exit 0" eq $? 0
	ok "... said as the file says it" grep -q \
	    "$(sed -n 's/.*: \(truncated: .*\)/\1/p' $d/cutf.err)" $d/cuts.err
	ok "... in last_error" eq "$($JS get $d/cuts.json last_error)" \
	    "truncated: the event at byte 89984 is incomplete (16 bytes)"
}

# 14. The command line.
cmdline() {
	local o
	"$EVTOP" --help >$T/help
	ok "--help: exit 0" eq $? 0
	for o in --unix --tcp --fifo --batch --json --interval --once \
	    --record --send --speed --log --help --version; do
		ok "--help lists $o with an example" \
		    grep -Eq -- "^  (-[a-zA-Z], )?$o" $T/help
	done
	ok "--help: an example for each" [ "$(grep -c '^                         evtop' $T/help)" -ge 13 ]
	ok "--version" eval "\"$EVTOP\" --version | grep -Eq '^evtop [0-9]'"
	"$EVTOP" --send census --fifo $T/nofifo 2>$T/e1
	ok "--send needs a socket: exit 2" eq $? 2
	ok "--send needs a socket: says so" wait_for $T/e1 "needs a socket" 5
	"$EVTOP" --record $T/x $FIX/gc.eventlog 2>$T/e2
	ok "--record of a file refused" eq $? 2
	"$EVTOP" --tcp '::1:4' 2>$T/e3
	ok "--tcp v6 without brackets refused" eq $? 2
	"$EVTOP" --send nonsense --unix $T/x 2>$T/e4
	ok "--send nonsense refused" eq $? 2
	"$EVTOP" --speed -1 $FIX/gc.eventlog 2>$T/e5
	ok "--speed -1 refused" eq $? 2
	# --from end: after the last event, as g end; the state at the end.
	"$EVTOP" --batch --json --from end $FIX/gc.eventlog >$T/fe.json \
	    2>$T/e6
	ok "--from end alone: exit 0" eq $? 0
	ok "... from after the last event" eq "$($JS get $T/fe.json \
	    range.from_ns)" "$(($($JS get $T/gc.file.json time_ns) + 1))"
	ok "... an empty range" eq "$($JS get $T/fe.json events_total)" 0
	ok "... the state at the end" eq "$($JS get $T/fe.json heap.size) \
$($JS get $T/fe.json threads.created)" "$($JS get $T/gc.file.json \
	    heap.size) 0"
	"$EVTOP" --batch --json --from end --to 0.1 $FIX/gc.eventlog \
	    2>$T/e7
	ok "--from end --to 0.1 refused" eq $? 2
}

unix_whole
tcp_whole
socket_path
split_chunks
junk
die_and_continue
restart_new
waiting
refused
slow
flood
fifo
hangup
stdin
mixed
joined
send
garbage
devices
cmdline

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
