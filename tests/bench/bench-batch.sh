#!/usr/bin/env bash
# bench-batch.sh: `evtop --batch --json` over the bench log against the
# baseline the model issue sets: 10 times the Haskell ghc-events library's
# bare decode (tests/ref/bare-decode.hs) of the same log, on this machine,
# measured now.  Best wall time of 3 runs of evtop and of 2 of ghc-events
# (the machine may be shared).  Fails if evtop fails or goes over 64 MB of
# peak RSS; the speed ratio is printed, not enforced (timings on a shared
# machine vary by a third from run to run).
#
#	bench-batch.sh EVTOP RUNRSS LOG EVENTS BYTES
set -uo pipefail
evtop=$1 runrss=$2 log=$3 events=$4 bytes=$5
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
label="evtop --batch --json $((bytes >> 20)) MB"

# The best wall time, in seconds, of runrss lines on stdin.
best() { sed -n 's/.*: \([0-9.]*\) s wall.*/\1/p' | sort -g | head -1; }

out=$(for i in 1 2 3; do
	"$runrss" "$label" -b "$bytes" -e "$events" -m 64 "$evtop" --batch --json "$log" || echo FAILED
done)
echo "$out"
grep -q 'FAILED\|OVER BUDGET' <<<"$out" && exit 1
t_evtop=$(best <<<"$out")

if ! bash "$here/tests/ref/build.sh" >/dev/null 2>&1; then
	echo "bench-batch: SKIPPED the ghc-events baseline (ghc or ghc-events missing);" \
	    "the issue's figure for it is 7.3 M events/s, so the target is 73 M events/s"
	awk -v e="$events" -v t="$t_evtop" 'BEGIN { printf "bench-batch: evtop best %.2f s, %.1f M events/s\n", t, e / t / 1e6 }'
	exit 0
fi
hs=$(for i in 1 2; do
	"$runrss" "ghc-events bare decode $((bytes >> 20)) MB" -b "$bytes" -e "$events" \
	    "$here/tests/ref/bin/bare-decode" "$log" || echo FAILED
done)
echo "$hs"
grep -q FAILED <<<"$hs" && exit 1
t_hs=$(best <<<"$hs")
awk -v e="$events" -v a="$t_evtop" -v h="$t_hs" 'BEGIN {
	r = h / a
	printf "bench-batch: evtop best %.2f s (%.1f M events/s), ghc-events bare decode best %.2f s (%.1f M events/s): %.1f times faster; the target is 10: %s\n",
	    a, e / a / 1e6, h, e / h / 1e6, r, (r >= 10 ? "met" : "NOT met")
}'
