#!/usr/bin/env bash
# bench-tui.sh: evtop with its TUI drawing in a real terminal (tmux), fed
# over a Unix socket: the input rate it sustains while drawing, and how fast
# a key is answered meanwhile.
#
#   tests/bench/bench-tui.sh EVTOP FAKEPROD LOG
#
# Two runs: a flood (the producer writes as fast as evtop reads) and a
# steady 50 MB/s.  Each prints MB/s (from evtop's own log: connection to
# end), whether every byte was read, and the time from a key (`?`) to the
# help screen showing.
set -eu
EVTOP=$1 FAKEPROD=$2 LOG=$3
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
