#!/bin/sh
# ranges.sh: `evtop --batch --json --from F --to T` against the figures of
# the same range computed independently with ghc-events 0.17
# (tests/ref/figures.hs FILE FROM TO), on every fixture and corpus log
# 0.17 reads, at ranges drawn at random within each log (seeded by its
# name, so a failure repeats), and one that starts before the log or one
# that ends after it.
#
#	tests/golden/ranges.sh EVTOP CORPUS
evtop=$1
corpus=$2
pass=0
fail=0
out=$(tests/ref/build.sh build/ref 2>&1); rc=$?
if [ $rc = 77 ]; then
	echo "SKIPPED: $out"
	exit 0
fi
[ $rc = 0 ] || { echo "$out"; echo "not ok - tests/ref/build.sh"; exit 1; }
command -v jq >/dev/null 2>&1 || { echo "SKIPPED: jq not found"; exit 0; }
project=$(grep -v '^#' tests/golden/project.jq)

one() {		# LOG FROM TO
	a=$(build/ref/figures "$1" "$2" "$3" 2>/dev/null | jq -r "$project" |
	    sort)
	b=$($evtop --batch --json --from "$2ns" --to "$3ns" "$1" 2>/dev/null |
	    tail -n 1 | jq -r "$project" | sort)
	if [ -n "$a" ] && [ "$a" = "$b" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "not ok - $1 [$2, $3): figures differ (< ghc-events, > evtop)"
		printf '%s\n' "$a" >/tmp/ranges.$$.f
		printf '%s\n' "$b" | diff /tmp/ranges.$$.f - | head -10
		rm -f /tmp/ranges.$$.f
	fi
}

for log in tests/fixtures/*.eventlog "$corpus"/*.eventlog; do
	[ -f "$log" ] || continue
	# Only where ghc-events 0.17 reads the whole log (as golden.sh).
	name=$(basename "$log" .eventlog)
	[ -f "tests/fixtures/$name.figures.json" ] ||
	    [ -f "tests/fixtures/conformance/$name.figures.json" ] || continue
	span=$($evtop --batch --json "$log" 2>/dev/null | tail -n 1 |
	    jq -r '"\(.start_ns) \(.time_ns)"')
	set -- $span
	lo=$1
	hi=$2
	seed=$(printf '%s' "$name" | cksum | cut -d' ' -f1)
	for r in $(awk -v lo="$lo" -v hi="$hi" -v s="$seed" 'BEGIN {
	    srand(s); d = hi - lo + 1
	    for (k = 0; k < 2; k++) {
		a = lo + int(rand() * d); b = lo + int(rand() * d)
		if (a > b) { t = a; a = b; b = t }
		printf "%.0f:%.0f\n", a, b + 1
	    }
	    if (s % 2) printf "0:%.0f\n", lo + int(d / 2)
	    else printf "%.0f:%.0f\n", lo + int(d / 3), hi + 1000000000 }'); do
		one "$log" "${r%%:*}" "${r##*:}"
	done
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
