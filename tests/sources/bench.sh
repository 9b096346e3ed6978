#!/usr/bin/env bash
# bench.sh: evtop's sustained input rate from a Unix socket, model on.
#
#   tests/sources/bench.sh EVTOP FAKEPROD LOG
#
# A fake producer writes LOG (a large valid eventlog) into a Unix socket
# as fast as evtop takes it; evtop --batch --once reads, decodes and
# applies every event to the model.  The rate is the bytes over the time
# from the connection to its end, both from evtop's own log.
set -eu

EVTOP=$1
FAKEPROD=$2
LOG=$3

T=$(mktemp -d /tmp/evtop-bench.XXXXXX)
trap 'kill -9 $FP 2>/dev/null || true; rm -rf $T' EXIT

$FAKEPROD --unix $T/s.sock --chunk 1048576 "$LOG" &
FP=$!
TIME=; [ -x /usr/bin/time ] && TIME="/usr/bin/time -f %M -o $T/rss"
echo 0 >$T/rss
$TIME "$EVTOP" --batch --once --interval 100000 \
    --unix $T/s.sock --log $T/log >/dev/null 2>&1
wait $FP || true

# Lines: "SECONDS.MS TARGET: connected" ... "SECONDS.MS TARGET: closed after
# N bytes".
t0=$(grep -E ': connected(, no data yet)?$' $T/log | head -1 | cut -d' ' -f1)
l1=$(grep -E ': closed after [0-9]+ bytes' $T/log | head -1)
t1=$(echo "$l1" | cut -d' ' -f1)
bytes=$(echo "$l1" | grep -Eo 'after [0-9]+' | cut -d' ' -f2)
awk -v t0="$t0" -v t1="$t1" -v b="$bytes" -v rss="$(cat $T/rss)" 'BEGIN {
	s = t1 - t0
	printf "evtop --unix (model on): %.0f MB in %.2f s: %.0f MB/s, " \
	    "max RSS %.0f MB\n", b / 1048576, s, b / 1048576 / s, rss / 1024
}'
