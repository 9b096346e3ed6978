#!/usr/bin/env bash
# bench-tui.sh: evtop with its TUI drawing in a real terminal (tmux), fed
# over a Unix socket: the input rate it sustains while drawing, and how fast
# a key is answered meanwhile.  Then, for each REPLAY log, a file replayed
# as fast as possible (--speed 0, the `*` key) at 120x40: events a second
# from the start (reader_open()'s scan included) to the end of the replay,
# and the slowest of keys sent every 0.2 s from the file's opening on (the issue's target:
# 30 M events/s, keys within 50 ms).
#
#   tests/bench/bench-tui.sh EVTOP FAKEPROD LOG [REPLAY...]
#
# Two runs: a flood (the producer writes as fast as evtop reads) and a
# steady 50 MB/s.  Each prints MB/s (from evtop's own log: connection to
# end), whether every byte was read, and the time from a key (`?`) to the
# help screen showing.
set -eu
. "$(dirname "$0")/../lib.sh"	# key_own
EVTOP=$1 FAKEPROD=$2 LOG=$3
shift 3
command -v tmux >/dev/null || { echo "SKIPPED: bench-tui: tmux not installed"; exit 0; }
T=$(mktemp -d /tmp/evtop-btui.XXXXXX)
TM="tmux -L evtop-btui$$ -f /dev/null"
trap '$TM kill-server 2>/dev/null || true; kill -9 $FP 2>/dev/null || true; rm -rf $T' EXIT
size=$(stat -c %s "$LOG")

now() { date +%s.%N; }

run() {	# LABEL FAKEPROD-OPTIONS...
	local label=$1; shift
	rm -f $T/s.sock $T/log $T/done
	$FAKEPROD --unix $T/s.sock "$@" "$LOG" &
	FP=$!
	$TM new -d -x 160 -y 48 "$EVTOP --once --unix $T/s.sock --log $T/log; touch $T/done"
	# Wait for the connection, then ask for help and time the answer.
	for _ in $(seq 500); do grep -q ': connected' $T/log 2>/dev/null && break; sleep 0.01; done
	sleep 0.5
	local t0 t1 lat=timeout
	t0=$(now)
	$TM send-keys '?'
	for _ in $(seq 1000); do
		if $TM capture-pane -p 2>/dev/null | grep -q 'evtop keys'; then
			t1=$(now); lat=$(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%.0f ms", (b - a) * 1000 }'); break
		fi
		sleep 0.005
	done
	$TM send-keys Escape
	for _ in $(seq 6000); do [ -f $T/done ] && break; sleep 0.05; done
	wait $FP || true
	local c0 l1 c1 bytes
	c0=$(grep -E ': connected' $T/log | head -1 | cut -d' ' -f1)
	l1=$(grep -E ': closed after [0-9]+ bytes' $T/log | head -1)
	c1=$(echo "$l1" | cut -d' ' -f1)
	bytes=$(echo "$l1" | grep -Eo 'after [0-9]+' | cut -d' ' -f2)
	awk -v l="$label" -v a="$c0" -v b="$c1" -v n="$bytes" -v size="$size" -v lat="$lat" 'BEGIN {
		printf "evtop TUI, %s: %.0f MB in %.2f s: %.0f MB/s, %s, key answered in %s\n",
		    l, n / 1048576, b - a, n / 1048576 / (b - a),
		    n == size ? "every byte read" : "BYTES MISSING", lat
	}'
}

run "flood over a Unix socket" --chunk 1048576
# 1 MiB, then 13 ms of sleep: about 50 MB/s here.
run "paced producer" --chunk 1048576 --delay-us 13000

# replay LOG: as fast as possible, drawing at 120x40.
replay() {
	local log=$1 events t0 t1 lat worst=0 n=0 k
	events=$(cat "$log.events" 2>/dev/null || build/bench/bench_decode -c "$log")
	rm -f $T/log
	t0=$(now)
	$TM new -d -x 120 -y 40 "$EVTOP --speed 0 --log $T/log $log"
	# Keys while it replays (from when the file is open: reader_open()
	# reads it all first): the help screen on and off, each timed.
	for _ in $(seq 3000); do grep -q 'replaying' $T/log 2>/dev/null && break; sleep 0.01; done
	while ! grep -q ': replayed' $T/log 2>/dev/null; do
		k=$(now)
		$TM send-keys '?'
		for _ in $(seq 400); do
			$TM capture-pane -p 2>/dev/null | grep -q 'evtop keys' && break
			grep -q ': replayed' $T/log 2>/dev/null && break
			sleep 0.002
		done
		lat=$(awk -v a=$k -v b=$(now) 'BEGIN { printf "%d", (b - a) * 1000 }')
		grep -q ': replayed' $T/log 2>/dev/null && break
		[ "$lat" -gt "$worst" ] && worst=$lat
		n=$((n + 1))
		$TM send-keys '?'	# any key closes the help (Esc waits 50 ms to be told)
		sleep 0.2
		[ $(awk -v a=$t0 -v b=$(now) 'BEGIN { print (b - a > 600) }') = 1 ] && break
	done
	t1=$(grep ': replayed' $T/log | head -1 | cut -d' ' -f1)
	$TM send-keys q
	sleep 0.3
	$TM kill-server 2>/dev/null || true
	local own
	own=$(key_own <$T/log)
	awk -v l="$(basename "$log")" -v a="$t0" -v b="$t1" -v e="$events" -v w="$worst" -v n="$n" -v own="$own" 'BEGIN {
		if (b == "") { printf "evtop TUI replay at *, %s: DID NOT END\n", l; exit }
		split(own, o, " ")
		printf "evtop TUI replay at * (120x40), %s: %.1f M events in %.2f s: %.1f M events/s, slowest of %d keys answered in %d ms through tmux; evtop'"'"'s own times (--log) for %d keys: median %s ms, worst %s ms\n",
		    l, e / 1e6, b - a, e / (b - a) / 1e6, n, w, o[1], o[3], o[5]
	}'
}
for r in "$@"; do
	replay "$r"
done
