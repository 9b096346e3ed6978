#!/usr/bin/env bash
# rtshp.sh: evtop's --hp against the .hp the RTS itself writes in the same
# run.  tests/export/HpProg.hs, built profiled by the host's GHC, runs with
# -l and each breakdown; every census the RTS wrote with something in it
# must be in evtop's file, in the same order, with the same bands and
# bytes (-hT -hy -hd -hm: names as the RTS writes them, white space aside;
# -hc: the RTS shortens stacks to 25 characters and puts the stack's
# number in front, so the bytes only, and MAIN by name).  The RTS's times
# are mutator CPU seconds and evtop's the eventlog's: not compared.
#
#   tests/export/rtshp.sh EVTOP
set -u
EVTOP=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
if ! command -v ghc >/dev/null 2>&1; then
	echo "SKIPPED: rtshp: ghc not installed"
	exit 0
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/evtop-rtshp.XXXXXX")
trap 'rm -rf "$T"' 0
trap 'exit 1' 1 2 15
cp "$here/HpProg.hs" "$T/"
if ! (cd "$T" && ghc -v0 -O -prof -fprof-auto -rtsopts -eventlog HpProg.hs \
    -o hpprog) >"$T/ghc.log" 2>&1; then
	if grep -q "Could not find module\|profiling libraries" "$T/ghc.log"; then
		echo "SKIPPED: rtshp: no profiling libraries (ghc-prof)"
		exit 0
	fi
	cat "$T/ghc.log" >&2
	ok "HpProg.hs builds profiled" false
	exit 1
fi

# censuses FILE [values]: one line per census with something in it, its
# "name=bytes" (or bytes) sorted.
censuses() {
	awk -F'\t' -v vals="${2:-}" '
	/^BEGIN_SAMPLE/ { s = ""; n = 0; next }
	/^END_SAMPLE/ { if (n > 0) print s; next }
	/^(JOB|DATE|SAMPLE_UNIT|VALUE_UNIT)/ { next }
	NF == 2 { n++; s = s (vals != "" ? $2 : $1 "=" $2) "\n" }' "$1" |
	awk 'BEGIN { RS = "" } { n = split($0, a, "\n"); m = 0
		for (i = 1; i <= n; i++) if (a[i] != "") b[++m] = a[i]
		# sorted: a small insertion sort, the censuses are short
		for (i = 2; i <= m; i++) { v = b[i]; for (j = i - 1; j >= 1 && b[j] > v; j--) b[j + 1] = b[j]; b[j + 1] = v }
		line = ""; for (i = 1; i <= m; i++) line = line (i > 1 ? " " : "") b[i]
		print line }'
}

for mode in hT hy hd hm hc; do
	rm -f "$T/hpprog.hp" "$T/hpprog.eventlog"
	(cd "$T" && ./hpprog +RTS -l -$mode -i0.01 -RTS >/dev/null)
	"$EVTOP" --batch --hp "$T/evtop-$mode.hp" "$T/hpprog.eventlog" >/dev/null 2>&1
	cp "$T/hpprog.hp" "$T/rts-$mode.hp"
	vals=
	[ $mode = hc ] && vals=1
	censuses "$T/rts-$mode.hp" $vals >"$T/rts-$mode.c"
	censuses "$T/evtop-$mode.hp" $vals >"$T/evtop-$mode.c"
	n=$(wc -l <"$T/rts-$mode.c")
	ok "-$mode: the RTS wrote censuses ($n)" test "$n" -ge 5
	ok "-$mode: evtop's .hp has the RTS's $n censuses, bands and bytes" \
	    cmp -s "$T/rts-$mode.c" "$T/evtop-$mode.c"
done
ok "-hc: the empty stack's band is MAIN, as the RTS names it" eval \
    "grep -q '^MAIN	' $T/rts-hc.hp && grep -q '^MAIN	' $T/evtop-hc.hp"
echo "# rtshp: $passed passed, $failed failed"
[ $failed -eq 0 ]
