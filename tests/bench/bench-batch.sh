#!/usr/bin/env bash
# bench-batch.sh: `evtop --batch --json` over a bench log against the
# Haskell ghc-events library's incremental decoder
# (tests/ref/incremental-decode.hs: file order, each event forced) over the
# same log, measured in the same run: on two cores, and pinned to one
# (taskset -c 0).  Best wall time of 3 runs of evtop and of 2 of
# ghc-events (the machine may be shared).  Fails if evtop fails or goes
# over 64 MB of peak RSS; the ratios are printed, not enforced (timings on
# a shared machine vary by a third from run to run).  The reader issue's
# targets: 60 M events/s and 8 times ghc-events on two cores, 40 M
# events/s and 5 times pinned.
#
#	bench-batch.sh EVTOP RUNRSS LOG EVENTS BYTES
set -uo pipefail
evtop=$1 runrss=$2 log=$3 events=$4 bytes=$5
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
name=$(basename "$log")
label="evtop --batch --json $name $((bytes >> 20)) MB"

# The best wall time, in seconds, of runrss lines on stdin.
best() { sed -n 's/.*: \([0-9.]*\) s wall.*/\1/p' | sort -g | head -1; }

# runs N PIN LABEL CMD...: N runs through runrss, PIN "taskset -c 0" or "".
runs() {
	local n=$1 pin=$2 lab=$3
	shift 3
	for i in $(seq "$n"); do
		$pin "$runrss" "$lab" -b "$bytes" -e "$events" "$@" || echo FAILED
	done
}

haveref=1
bash "$here/tests/ref/build.sh" >/dev/null 2>&1 || haveref=0
for pin in "" "taskset -c 0"; do
	where=${pin:+pinned to one core}
	where=${where:-two cores}
	out=$(runs 3 "$pin" "$label ($where)" -m 64 "$evtop" --batch --json "$log")
	echo "$out"
	grep -q 'FAILED\|OVER BUDGET' <<<"$out" && exit 1
	t_evtop=$(best <<<"$out")
	if [ $haveref = 0 ]; then
		awk -v e="$events" -v t="$t_evtop" -v w="$where" 'BEGIN {
		    printf "bench-batch: %s: evtop best %.2f s, %.1f M events/s (ghc-events SKIPPED: ghc or ghc-events missing)\n", w, t, e / t / 1e6 }'
		continue
	fi
	hs=$(runs 2 "$pin" "ghc-events incremental $name ($where)" "$here/tests/ref/bin/incremental-decode" "$log")
	echo "$hs"
	grep -q FAILED <<<"$hs" && exit 1
	t_hs=$(best <<<"$hs")
	awk -v e="$events" -v a="$t_evtop" -v h="$t_hs" -v w="$where" \
	    -v want=$([ -n "$pin" ] && echo 5 || echo 8) -v name="$name" 'BEGIN {
		r = h / a
		printf "bench-batch: %s on %s: evtop best %.2f s (%.1f M events/s), ghc-events incremental best %.2f s (%.1f M events/s): ratio %.1f; the target is %d: %s\n",
		    name, w, a, e / a / 1e6, h, e / h / 1e6, r, want, (r >= want ? "met" : "NOT met")
	}'
done
