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
	    "7 3000 2 64 40" "8 60000 5 20000 3" "9 20000 3 2000 1 4 500"; do
		f=$synth/synth-$(echo $spec | tr ' ' '-').eventlog
		$dir/mksynth $spec > "$f" || exit 1
		echo "$f"
	done)

$dir/t_merge-2pass "$@" > "$out/ref" || { echo "not ok - t_merge-2pass"; exit 1; }
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
for v in t_merge t_merge-c64 t_merge-c256 t_merge-c4k t_merge-c16; do
	same $v ref - "$@"
done
# order.c: the same lines, but where events are further out of place in
# their stream than its lookahead: those come out late (UNSORTED), so the
# order differs, never what is delivered (count and SET).  At the default
# lookahead only synth-9's are (GHC's are 2 at most, synth's up to ~20).
for v in $dir/t_order $dir/t_order-l8; do
	b=$(basename $v)
	$v "$@" > "$out/$b" 2> "$out/$b.err"
	r=$(paste -d ' ' "$out/ref" "$out/$b" | awk -v strict=$([ $b = t_order ] && echo 1 || echo 0) '
	    $1 != $7 || $2 != $8 || $4 != $10 || $6 != $12 { bad = bad " " $1; next }
	    $3 == $9 && $5 == $11 && !(strict && $1 ~ /^synth-9-/) { next }
	    $11 == "UNSORTED" && (!strict || $1 ~ /^synth-9-/) { late++; next }
	    { bad = bad " " $1 }
	    END { printf "%d%s", late, bad }')
	if [ "${r#* }" != "$r" ]; then
		echo "not ok - $b differs from the two passes on:${r#* }"
		fail=$((fail + 1))
	elif [ "$r" -eq 0 ]; then
		echo "not ok - $b: no event came out late"
		fail=$((fail + 1))
	elif ! grep -q ': order$' "$out/$b.err" || ! grep -q ': merge$' "$out/$b.err"; then
		echo "not ok - $b: order.c should take some files and decline others"
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
done
# feed.c: order.c's events on a second thread, exactly as order.c gives them.
same t_feed t_order err "$@"
same t_feed-l8 t_order-l8 err "$@"
same t_feed-sync t_order err "$@"
same t_feed-tsan t_order err "$@"
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
