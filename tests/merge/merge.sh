#!/bin/sh
# merge.sh: reader_next() must deliver the same events, in the same order,
# however src/read/reader.c is built: the single pass with the default and with
# small batches and groups (t_merge-bN: refills of N events, and lookaheads
# so short that the scan's check and the fallback to the two passes are
# reached), and the two passes alone
# (READER_SINGLE=0, which t_merge-2pass is; t_merge-fan with a fan-in of 4,
# 64 segments and a lookahead of 4, so that runs spill and spills merge).
# The single pass is the shortcut: it must give the two passes' events on
# every file it takes.  feed.c gives them too, on its thread or not, and
# seeking goes on with exactly the events after the place sought.
# Synthetic logs with interleaved blocks, ties and late blocks join the
# fixtures and the corpus.
#
#	tests/merge/merge.sh BUILD_DIR FILE...
dir=$1
shift
out=$dir/merge.out
mkdir -p "$out"
synth=$dir/synth
mkdir -p "$synth"
# seed events caps block [late [step [back [early [base]]]]]: the last two
# number their caps across 255, and at the top of the u16 range.
set -- "$@" $(
	for spec in "1 20000 2 600" "2 30000 4 2000" "3 5000 1 100" \
	    "4 40000 8 300" "5 20000 3 4000 6" "6 20000 16 256" \
	    "7 3000 2 64 40" "8 60000 5 20000 3" "9 20000 3 2000 1 4 500" \
	    "10 20000 2 600 1 4 2 400" "11 30000 3 1500 1 4 2 1000" \
	    "12 20000 4 600 3 4 2 0 254" "13 20000 5 900 1 4 2 0 65530"; do
		f=$synth/synth-$(echo $spec | tr ' ' '-').eventlog
		$dir/mksynth $spec > "$f" || exit 1
		echo "$f"
	done)
# Files cut short (a program killed, a copy taken while written): within
# an event, after a whole one, a byte after the header, at several points
# of the synthetic logs and of three fixtures.  The single pass reads up to
# the cut and says so, as the two passes do.
cut=$dir/cut
mkdir -p "$cut"
set -- "$@" $(
	for f in "$synth"/synth-1-*.eventlog "$synth"/synth-8-*.eventlog \
	    "$synth"/synth-12-*.eventlog tests/fixtures/threads.eventlog \
	    tests/fixtures/ghc96-ipe-hi.eventlog tests/fixtures/sparks.eventlog; do
		[ -f "$f" ] || continue
		size=$(wc -c < "$f")
		for at in $((size / 3)) $((size / 2 + 7)) $((size - 1)) \
		    $((size - 3)); do
			c=$cut/$(basename "$f" .eventlog)-cut$at.eventlog
			head -c $at "$f" > "$c"
			echo "$c"
		done
	done)

$dir/t_merge-2pass "$@" > "$out/ref" 2> "$out/ref.err" || { echo "not ok - t_merge-2pass"; exit 1; }
pass=0
fail=0
# same V R [err] FILE...: V's lines on the files must be R's (ref: the two
# passes), and with "err" what it says on stderr too.
same() {
	v=$1 r=$2 e=$3
	shift 3
	$dir/$v "$@" > "$out/$v" 2> "$out/$v.err"
	if cmp -s "$out/$r" "$out/$v" &&
	    { [ "$e" != err ] || cmp -s "$out/$r.err" "$out/$v.err"; }; then
		pass=$((pass + 1))
	else
		echo "not ok - $v differs from $r:"
		diff "$out/$r" "$out/$v" | head -5
		fail=$((fail + 1))
	fi
}
for v in t_merge t_merge-b3 t_merge-b16 t_merge-b64 t_merge-b1 t_merge-fan \
    t_merge-half t_merge-half-b3; do
	same $v ref - "$@"
done
# feed.c: the reader's events on a second thread (or not), and with its
# errors.
for v in t_feed t_feed-n7 t_feed-2pass t_feed-sync t_feed-tsan; do
	same $v ref - "$@"
done
for v in t_seek t_seek-b3 t_seek-2pass t_seek-fan t_seek-half; do
	$dir/$v "$@" > "$out/$v" 2> "$out/$v.err"
	# The lines but the seek's must be the reference's.
	if ! sed 's/ seek-[a-zA-Z-]*$//' "$out/$v" | cmp -s "$out/ref" -; then
		echo "not ok - $v differs from ref:"
		sed 's/ seek-[a-zA-Z-]*$//' "$out/$v" | diff "$out/ref" - | head -5
		fail=$((fail + 1))
	elif grep -v ' seek-ok$\| seek-skipped$' "$out/$v"; then
		echo "not ok - $v: seeking went wrong on the files above"
		fail=$((fail + 1))
	elif ! grep -q ' seek-ok$' "$out/$v"; then
		echo "not ok - $v: nothing was sought"
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
done
if grep -q UNSORTED "$out/ref"; then
	echo "not ok - unsorted delivery:"
	grep UNSORTED "$out/ref" | head -5
	fail=$((fail + 1))
fi
# The variants must have taken both ways (the debug builds say which).
single=$(cat $out/*.err | grep -c "single pass")
two=$(cat $out/*.err | grep -c "two passes")
if [ "$single" -eq 0 ] || [ "$two" -eq 0 ]; then
	echo "not ok - single pass taken $single times, two passes $two times"
	fail=$((fail + 1))
fi
# The scan in halves (the *-half builds and t_feed-tsan): joined, and
# scanned again where the halves did not join.
joined=$(cat $out/*.err | grep -c "halves at .*: joined")
again=$(cat $out/*.err | grep -c "halves at .*: scanned again")
if [ "$(nproc)" -lt 2 ]; then
	echo "merge: the scan in halves: SKIPPED (one core)"
elif [ "$joined" -eq 0 ] || [ "$again" -eq 0 ]; then
	echo "not ok - the halves joined $joined times, scanned again $again times"
	fail=$((fail + 1))
fi
echo "merge: $# files, single pass $single times, two passes $two times; halves joined $joined times, scanned again $again"
echo "merge: $pass passed, $fail failed"
[ $fail -eq 0 ]
