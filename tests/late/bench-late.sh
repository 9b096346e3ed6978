#!/usr/bin/env bash
# bench-late.sh: what late events cost (issue 15), on the logs of a real
# program (make bench records them: tests/bench/busy.hs on -N2 and -N4).
# For each LOG, in the same run:
#   - `--batch --json` on the file: best of 3, events a second;
#   - the file served over a Unix socket as fast as evtop reads, with the
#     history (the default) and without (--history 0): wall time;
#   - the file with capability 1's blocks 20 blocks later (tests/late/delay),
#     served the same way: wall time, peak RSS, corrections, events applied
#     again and how fast (history.reapplied / history.reapply_ns), and
#     whether the final figures equal --batch's of the original;
#   - the delayed file again at a program's own pace (1 MiB, then 20 ms:
#     about 50 MB/s, the bench program's rate), with the history and
#     without: whether corrections make evtop hold the producer up.
# Prints the ratios: re-applying to --batch (the issue: at least 1), the
# delayed stream's wall time to the plain one's, and at the program's
# pace, the time with the history to the time without.
#
#   tests/late/bench-late.sh EVTOP DELAY FAKEPROD LOG...
set -u
EVTOP=$1 DELAY=$2 FAKEPROD=$3
PACE=
shift 3
JS="python3 $(cd "$(dirname "$0")" && pwd)/../sources/js.py"
T=$(mktemp -d /tmp/evtop-blate.XXXXXX)
FP=
trap '[ -n "$FP" ] && kill -9 $FP 2>/dev/null; rm -rf $T' EXIT
now() { date +%s.%N; }

# serve FILE OUT [EVTOP-OPTIONS...]: FILE over a Unix socket to evtop;
# the last JSON line in OUT, "wall_s rss_kb" on stdout.
serve() {
	local file=$1 out=$2 t0 t1
	shift 2
	rm -f $T/s.sock
	$FAKEPROD --unix $T/s.sock --chunk 1048576 $PACE "$file" 2>/dev/null &
	FP=$!
	for _ in $(seq 200); do [ -S $T/s.sock ] && break; sleep 0.02; done
	t0=$(now)
	/usr/bin/time -f "%M" -o $T/rss "$EVTOP" --batch --json --once \
	    --interval 1 "$@" --unix $T/s.sock 2>/dev/null | tail -n 1 >"$out"
	t1=$(now)
	wait $FP 2>/dev/null
	FP=
	awk -v a=$t0 -v b=$t1 -v r="$(tail -n 1 $T/rss)" \
	    'BEGIN { printf "%.2f %d\n", b - a, r }'
}

for log in "$@"; do
	name=$(basename "$log")
	[ -f "$log" ] || { echo "bench-late: $name: SKIPPED (no log)"; continue; }
	best=
	for _ in 1 2 3; do
		t0=$(now)
		"$EVTOP" --batch --json "$log" | tail -n 1 >$T/file.json
		t1=$(now)
		best=$(awk -v a=$t0 -v b=$t1 -v c="$best" \
		    'BEGIN { d = b - a; print (c == "" || d < c) ? d : c }')
	done
	events=$($JS get $T/file.json events_total)
	brate=$(awk -v e=$events -v s=$best 'BEGIN { printf "%.1f", e / s / 1e6 }')
	"$DELAY" --cap 1 --blocks 20 "$log" $T/late.eventlog
	read -r plain _ < <(serve "$log" $T/plain.json)
	pc=$(jq -r '.history | "\(.corrections) corrections"' $T/plain.json)
	read -r off _ < <(serve "$log" $T/off.json --history 0)
	read -r late rss < <(serve $T/late.eventlog $T/late.json)
	read -r corr re ns < <(jq -r '.history | "\(.corrections) \(.reapplied) \(.reapply_ns)"' $T/late.json)
	rrate=$(awk -v e=$re -v n=$ns 'BEGIN { printf "%.1f", (n > 0 ? e / n * 1e3 : 0) }')
	same=equal
	$JS cmp-late $T/late.json $T/file.json >/dev/null 2>&1 || same=DIFFERENT
	echo "bench-late: $name: $(awk -v e=$events 'BEGIN { printf "%.1f", e / 1e6 }') M events; --batch best of 3 $best s ($brate M events/s)"
	echo "bench-late: $name: served: history on $plain s ($pc), history off $off s; cap 1 20 blocks late: $late s, peak RSS $((rss / 1024)) MB, $corr corrections, $(awk -v e=$re 'BEGIN { printf "%.1f", e / 1e6 }') M events re-applied at $rrate M events/s, figures $same"
	echo "bench-late: $name: ratios: re-apply / --batch $(awk -v a=$rrate -v b=$brate 'BEGIN { printf "%.2f", a / b }') (target 1); late / on time $(awk -v a=$late -v b=$plain 'BEGIN { printf "%.2f", a / b }')"
	PACE="--delay-us 20000"
	read -r poff _ < <(serve $T/late.eventlog $T/poff.json --history 0)
	read -r pon _ < <(serve $T/late.eventlog $T/pon.json)
	PACE=
	read -r pcorr < <(jq -r '.history.corrections' $T/pon.json)
	same=equal
	$JS cmp-late $T/pon.json $T/file.json >/dev/null 2>&1 || same=DIFFERENT
	echo "bench-late: $name: cap 1 20 blocks late, at 50 MB/s (1 MiB, then 20 ms): history on $pon s ($pcorr corrections, figures $same), history off $poff s; ratio $(awk -v a=$pon -v b=$poff 'BEGIN { printf "%.2f", a / b }') (1: corrections hold nothing up)"
	rm -f $T/late.eventlog
done
