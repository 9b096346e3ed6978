#!/bin/sh
# golden.sh: `evtop --batch` output for every fixture against the checked-in
# tests/golden files, and the JSON's figures against the independent
# NAME.figures.json (ghc-events 0.17, tests/ref/figures.hs).
#
#	tests/golden/golden.sh [-r] DRIVER CORPUS
#
# DRIVER runs as `DRIVER [--json] --interval 1000000 FILE` (evtop --batch,
# or build/tests/batch_driver).  -r rewrites the golden files: review the
# diff before committing.  Pids and wall-clock times are replaced by null.
regen=0
if [ "$1" = "-r" ]; then
	regen=1
	shift
fi
driver=$1
corpus=$2
here=tests/golden
pass=0
fail=0
skipped=""
nofig=""

strip() {
	sed -E 's/"(pid|ppid|wall_clock_ns)":[0-9]+/"\1":null/g'
}

# The figures both files share (project.jq).
project=$(grep -v '^#' tests/golden/project.jq)

have_jq=0
command -v jq >/dev/null 2>&1 && have_jq=1

check() {	# LOG GOLDEN_PREFIX FIGURES
	log=$1
	gold=$2
	fig=$3
	json=$($driver --json --interval 1000000 "$log" 2>/dev/null |
	    tail -n 1 | strip)
	text=$($driver --interval 1000000 "$log" 2>/dev/null)
	if [ $regen = 1 ]; then
		mkdir -p "$(dirname "$gold")"
		printf '%s\n' "$json" >"$gold.json"
		printf '%s\n' "$text" >"$gold.txt"
	fi
	if [ "$json" = "$(cat "$gold.json" 2>/dev/null)" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "not ok - $log: JSON differs from $gold.json"
		if [ $have_jq = 1 ]; then
			printf '%s\n' "$json" | jq -S . >/tmp/golden.$$.a
			jq -S . "$gold.json" >/tmp/golden.$$.b
			diff /tmp/golden.$$.b /tmp/golden.$$.a | head -20
			rm -f /tmp/golden.$$.a /tmp/golden.$$.b
		fi
	fi
	if [ "$text" = "$(cat "$gold.txt" 2>/dev/null)" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "not ok - $log: text differs from $gold.txt"
		printf '%s\n' "$text" | diff "$gold.txt" - | head -20
	fi
	if [ -n "$fig" ] && [ ! -f "$fig" ]; then
		# Said, not silent: a missing file is no pass.
		nofig="$nofig${nofig:+ }$(basename "$log")"
	elif [ -n "$fig" ]; then
		if [ $have_jq = 0 ]; then
			skipped="jq not found: figures not compared"
			return
		fi
		a=$(jq -r "$project" "$fig") || a=""
		b=$(printf '%s\n' "$json" | jq -r "$project") || b=""
		a=$(printf '%s\n' "$a" | sort)
		b=$(printf '%s\n' "$b" | sort)
		if [ -n "$a" ] && [ "$a" = "$b" ]; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			echo "not ok - $log: figures differ from $fig" \
			    "(< figures, > evtop)"
			printf '%s\n' "$a" >/tmp/golden.$$.f
			printf '%s\n' "$b" | diff /tmp/golden.$$.f - | head -20
			rm -f /tmp/golden.$$.f
		fi
	fi
}

for log in tests/fixtures/*.eventlog; do
	name=$(basename "$log" .eventlog)
	check "$log" "$here/$name" "tests/fixtures/$name.figures.json"
done
if [ -d "$corpus" ]; then
	for log in "$corpus"/*.eventlog; do
		name=$(basename "$log" .eventlog)
		check "$log" "$here/conformance/$name" \
		    "tests/fixtures/conformance/$name.figures.json"
	done
else
	skipped="$skipped${skipped:+; }corpus $corpus not found"
fi
# Every interval's snapshot, not only the last: when each is printed (event
# time) and how many events it has seen.
for log in tests/fixtures/gc.eventlog tests/fixtures/threads.eventlog; do
	name=$(basename "$log" .eventlog)
	got=$($driver --json --interval 0.01 "$log" 2>/dev/null |
	    sed -E 's/^\{"time_ns":([0-9]+).*"events_total":([0-9]+).*/\1 \2/')
	[ $regen = 1 ] && printf '%s\n' "$got" >"$here/$name.10ms"
	if [ -n "$got" ] && [ "$got" = "$(cat "$here/$name.10ms")" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "not ok - $log: snapshots every 10 ms differ from" \
		    "$here/$name.10ms"
		printf '%s\n' "$got" | diff "$here/$name.10ms" - | head -10
	fi
done
[ -n "$nofig" ] && echo "SKIPPED: figures not compared, no NAME.figures.json" \
    "(gen.sh makes one where ghc-events 0.17 can read the log): $nofig"
[ -n "$skipped" ] && echo "SKIPPED: $skipped"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
