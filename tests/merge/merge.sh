#!/bin/sh
# merge.sh: merge_next() must deliver the same events, in the same order,
# however src/merge.c is built: the single pass with the default and with
# small chunks and holds (so that lags, hold limits and the fallback to the
# two passes are all reached on small files), and the two passes alone
# (MERGE_HOLD=0, which t_merge-2pass is).  Synthetic logs with interleaved
# blocks, ties and late blocks join the fixtures and the corpus.
#
#	tests/merge/merge.sh BUILD_DIR FILE...
dir=$1
shift
out=$dir/merge.out
mkdir -p "$out"
synth=$dir/synth
mkdir -p "$synth"
# seed events caps block [late]
set -- "$@" $(
	for spec in "1 20000 2 600" "2 30000 4 2000" "3 5000 1 100" \
	    "4 40000 8 300" "5 20000 3 4000 6" "6 20000 16 256" \
	    "7 3000 2 64 40" "8 60000 5 20000 3"; do
		f=$synth/synth-$(echo $spec | tr ' ' '-').eventlog
		$dir/mksynth $spec > "$f" || exit 1
		echo "$f"
	done)

$dir/t_merge-2pass "$@" > "$out/ref" || { echo "not ok - t_merge-2pass"; exit 1; }
pass=0
fail=0
for v in $dir/t_merge $dir/t_merge-c64 $dir/t_merge-c256 $dir/t_merge-c4k \
    $dir/t_merge-c16; do
	$v "$@" > "$out/$(basename $v)" 2> "$out/$(basename $v).err"
	if cmp -s "$out/ref" "$out/$(basename $v)"; then
		pass=$((pass + 1))
	else
		echo "not ok - $(basename $v) differs from the two passes:"
		diff "$out/ref" "$out/$(basename $v)" | head -5
		fail=$((fail + 1))
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
echo "merge: $# files, single pass $single times, two passes $two times"
echo "merge: $pass passed, $fail failed"
[ $fail -eq 0 ]
