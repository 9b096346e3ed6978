#!/usr/bin/env bash
# export.sh: --folded, --speedscope and --hp on the real fixtures, and the
# TUI's export key in tmux.  Values are compared with counts made without
# the model: awk over `evtop show` (the decoder's text, as ghc-events
# prints it) and the figures of --batch --json.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

EVTOP=./evtop
FIX=tests/fixtures
NPM_DIR=build/npm
T=$(mktemp -d "${TMPDIR:-/tmp}/evtop-export.XXXXXX")
TM="tmux -L evtopx$$ -f/dev/null"
trap '$TM kill-server 2>/dev/null; rm -rf "$T"' 0
trap 'exit 1' 1 2 15
skip() { echo "SKIPPED: export: $*"; }

# The options are in --help, each with an example.
$EVTOP --help >$T/help
for o in --folded --speedscope --hp --export-dir; do
	ok "--help lists $o with an example" eval \
	    "grep -A3 -- '^  $o' $T/help | grep -q '^                         evtop .*$o'"
done

# ---------------------------------------------------------------------
# Folded stacks of prof.eventlog: every stack's count equals one made from
# `evtop show` (cost centre definitions, then each sample's stack, innermost
# first there, reversed), and the total equals prof.samples.
$EVTOP show $FIX/prof.eventlog | awk '
	/: cost centre [0-9]+ / {
		match($0, /cost centre [0-9]+ /)
		id = substr($0, RSTART + 12, RLENGTH - 13)
		rest = substr($0, RSTART + RLENGTH)
		i = index(rest, " in "); label = substr(rest, 1, i - 1)
		rest = substr(rest, i + 4); j = index(rest, " at ")
		name[id] = substr(rest, 1, j - 1) "." label
	}
	/, prof sample [0-9]+, cost centre stack/ {
		s = $0; sub(/.*cost centre stack ?/, "", s)
		if (s == "") { n["MAIN"]++; next }
		k = split(s, ids, ", "); f = ""
		for (i = k; i >= 1; i--) f = f (i < k ? ";" : "") name[ids[i]]
		n[f]++
	}
	END { for (f in n) print f " " n[f] }' | sort >$T/prof.show
$EVTOP --batch --json --folded $T/prof.folded $FIX/prof.eventlog | tail -1 >$T/prof.json
sort $T/prof.folded >$T/prof.folded.sorted
ok "folded: one line per stack, counts as evtop show's samples" \
    cmp $T/prof.folded.sorted $T/prof.show
ok "folded: several stacks" [ "$(wc -l <$T/prof.folded)" -ge 4 ]
ok "folded: total = prof.samples" eq \
    "$(awk '{ s += $NF } END { print s }' $T/prof.folded)" \
    "$(jq .prof.samples $T/prof.json)"
ok "folded: no temporary file left" eq "$(ls $T | grep -c tmp)" 0
# To stdout, and nothing else there.
$EVTOP --batch --json --folded - $FIX/prof.eventlog >$T/prof.stdout
ok "folded to stdout: the same lines, no JSON" cmp $T/prof.stdout $T/prof.folded
# A live source (stdin, through loop.c) exports from its model the same.
$EVTOP --batch --folded $T/live.folded - <$FIX/prof.eventlog >/dev/null 2>&1
ok "folded from stdin (a live source) = from the file" cmp $T/live.folded $T/prof.folded
ok "two exports to stdout refused" eval \
    "! $EVTOP --batch --folded - --hp - $FIX/prof.eventlog 2>/dev/null"
# A path that is not a regular file is written in place: a FIFO (a
# shell's >(...), /dev/stdout) is read whole and stays a FIFO; a device
# node stays a device (a file renamed over /dev/null replaced it).
mkfifo $T/fifo
timeout 20 cat $T/fifo >$T/fifo.out &
$EVTOP --batch --folded $T/fifo $FIX/prof.eventlog >/dev/null
wait $!
ok "folded into a FIFO: the same lines; the FIFO stays one" eval \
    "cmp $T/fifo.out $T/prof.folded && [ -p $T/fifo ]"
if mknod $T/null c 1 3 2>/dev/null; then
	$EVTOP --batch --folded $T/null --hp $T/null $FIX/prof.eventlog >/dev/null 2>&1
	rc=$?
	ok "folded and hp into a device node: written, it stays a device" \
	    eval "[ $rc = 0 ] && [ -c $T/null ] && [ $(ls $T | grep -c tmp) = 0 ]"
else
	echo "# SKIPPED: a device node (mknod needs root)"
fi
$EVTOP --batch --folded $T $FIX/prof.eventlog >/dev/null 2>$T/dir.err
rc=$?
ok "into a directory: refused, said" eval \
    "[ $rc != 0 ] && grep -q 'Is a directory' $T/dir.err"
# Paths are checked at start-up, not at the end when a live source's
# profile would be lost: a live source (a FIFO no one writes) is refused at
# once, with the path and why; one that can be written starts, and the
# check leaves nothing behind.
mkfifo $T/el
for bad in "--folded $T/none/x.folded" "--hp $FIX/gc.eventlog/x.hp" \
    "--speedscope /proc/evtop-nope.json"; do
	timeout -k 1 10 $EVTOP --batch --once $bad --fifo $T/el \
	    </dev/null >/dev/null 2>$T/start.err
	rc=$?
	ok "${bad%% *} not writable: refused at start-up, said ($(head -1 $T/start.err))" \
	    eval "[ $rc = 2 ] && grep -qF -- '${bad#* }' $T/start.err"
done
timeout -k 1 2 $EVTOP --batch --once --folded $T/ok.folded --hp /dev/stdout \
    --fifo $T/el </dev/null >/dev/null 2>$T/start.err
ok "writable paths (a new file, /dev/stdout): it starts (waits for the FIFO)" \
    eval "[ $? = 124 ] && [ -z \"\$(ls $T | grep tmp)\" ]"
# --export-dir too (the E key's): a directory that is not there, a file,
# one that cannot be written in, are refused at start-up as the paths are.
touch $T/plain
for bad in $T/nodir $T/plain /proc; do
	timeout -k 1 10 $EVTOP --batch --once --export-dir $bad --fifo $T/el \
	    </dev/null >/dev/null 2>$T/start.err
	rc=$?
	ok "--export-dir $bad: refused at start-up, said ($(head -1 $T/start.err))" \
	    eval "[ $rc = 2 ] && grep -qF -- '--export-dir $bad: ' $T/start.err"
done
mkdir -p $T/xdir
timeout -k 1 2 $EVTOP --batch --once --export-dir $T/xdir --fifo $T/el \
    </dev/null >/dev/null 2>$T/start.err
ok "--export-dir that can be written: it starts, nothing left in it" \
    eval "[ $? = 124 ] && [ -z \"\$(ls -A $T/xdir)\" ]"

# Two programs, one after the other, through one FIFO (evtop reads it
# across writers): the first one's profiles are written as the second
# begins, beside each path with its number (two.1.folded), as --batch
# writes them from its own file; the last one's go to the paths.
mkfifo $T/el2
$EVTOP --batch --folded $T/two.folded --hp $T/two.hp --fifo $T/el2 \
    >/dev/null 2>$T/two.err &
two=$!
cat $FIX/prof.eventlog >$T/el2
wait_count $T/two.err 'closed after' 1 20
cat $FIX/ghc96-prof.eventlog >$T/el2
ok "two programs: the first's written when the second begins" \
    wait_for $T/two.err "exported program 1 \(another began\): $T/two.1.folded $T/two.1.hp" 20
wait_count $T/two.err 'closed after' 2 20
kill -INT $two
wait_exit $two 20 >/dev/null
$EVTOP --batch --folded $T/one.folded $FIX/ghc96-prof.eventlog >/dev/null 2>&1
ok "two programs: two.1.folded is the first's (prof.eventlog's)" \
    cmp $T/two.1.folded $T/prof.folded
ok "two programs: two.folded is the last's" cmp $T/two.folded $T/one.folded
ok "two programs: two.1.hp and two.hp, each its own (no census)" eval \
    "[ \$(grep -c '^BEGIN_SAMPLE' $T/two.1.hp) = 2 ] && [ \$(grep -c '^BEGIN_SAMPLE' $T/two.hp) = 2 ] &&
     grep -q 'two.1.hp: no heap census' $T/two.err"

# ---------------------------------------------------------------------
# speedscope: the values, then the schema, then speedscope itself.
SS=$T/prof.speedscope.json
$EVTOP --batch --speedscope $SS $FIX/prof.eventlog >/dev/null
tick=$(jq .prof.tick_ns $T/prof.json)
# Every stack's weight is its folded count times the tick, in ns.
jq -r '.shared.frames as $f | .profiles[0] as $p |
    range($p.samples | length) as $i |
    ([$p.samples[$i][] | $f[.].name] | join(";")) + " " +
    ($p.weights[$i] | tostring)' $SS | sort >$T/ss.all
awk -v t="$tick" '{ $NF = $NF * t; print }' $T/prof.folded | sort >$T/ss.want
ok "speedscope: all caps' stacks and weights = folded counts x tick" \
    cmp $T/ss.all $T/ss.want
ok "speedscope: unit nanoseconds, endValue = samples x tick" eq \
    "$(jq -r '.profiles[0] | "\(.unit) \(.endValue)"' $SS)" \
    "nanoseconds $(( $(jq .prof.samples $T/prof.json) * tick ))"
# One profile per capability, with that capability's samples (from show).
$EVTOP show $FIX/prof.eventlog | sed -n 's/.*cap no \([0-9]*\), prof sample.*/\1/p' |
    sort -n | uniq -c | awk -v t="$tick" '{ print "capability " $2 " " $1 * t }' >$T/caps.want
jq -r '.profiles[1:][] | "\(.name) \(.endValue)"' $SS >$T/caps.got
ok "speedscope: a profile per capability with its samples" cmp $T/caps.got $T/caps.want
# A frame carries its cost centre's file and line (Main.fib at Prof.hs:20).
loc=$($EVTOP show $FIX/prof.eventlog | sed -n 's/.*cost centre [0-9]* fib in Main at \([^:]*\):\([0-9]*\):.*/\1 \2/p' | head -1)
ok "speedscope: frames have the source file and line" eq \
    "$(jq -r '.shared.frames[] | select(.name == "Main.fib") | "\(.file) \(.line)"' $SS)" "$loc"
ok "speedscope: built-in cost centres have no file" eq \
    "$(jq '[.shared.frames[] | select(.name == "GC.GC") | has("file")] | .[0]' $SS)" false
# Names with Latin-1 bytes (not UTF-8): each invalid byte as \xNN (it was
# U+FFFD), the file UTF-8; speedscope validates and loads it below.
has_line() { grep -qxF -- "$2" "$1"; }	# has_line FILE LINE
perl -0777 -pe 's/sortBig\x00/sortB\xefg\x00/' $FIX/prof.eventlog >$T/latin1-prof.eventlog
LSS=$T/latin1.speedscope.json
$EVTOP --batch --folded $T/latin1.folded --speedscope $LSS $T/latin1-prof.eventlog >/dev/null
ok "latin-1: folded names it with \\xNN" \
    has_line $T/latin1.folded 'Main.CAF;Main.main;Main.sortB\xefg 46'
jq -r '.shared.frames[].name' $LSS >$T/latin1.names
ok "latin-1: speedscope names it with \\xNN, in valid UTF-8" eval \
    "has_line $T/latin1.names 'Main.sortB\xefg' && iconv -f UTF-8 -t UTF-8 $LSS >/dev/null"

SSPKG=$NPM_DIR/node_modules/speedscope
if [ ! -f $SSPKG/dist/release/file-format-schema.json ] && command -v npm >/dev/null 2>&1; then
	mkdir -p $NPM_DIR
	(cd $NPM_DIR && npm install --no-audit --no-fund --silent speedscope >npm.log 2>&1) ||
	    echo "# npm install speedscope failed: $(tail -1 $NPM_DIR/npm.log)"
fi
if ! command -v node >/dev/null 2>&1; then
	skip "speedscope schema: node is missing"
elif [ ! -f $SSPKG/dist/release/file-format-schema.json ]; then
	skip "speedscope schema: the npm package speedscope is not installed (npm or network missing)"
else
	ok "speedscope: valid against speedscope's published schema" \
	    node tests/export/ssvalidate.mjs $SSPKG/dist/release/file-format-schema.json $SS
	ok "speedscope with Latin-1 names: valid against the schema" \
	    node tests/export/ssvalidate.mjs $SSPKG/dist/release/file-format-schema.json $LSS
	# The validator can fail: a frame index out of range, a bad unit.
	jq '.profiles[0].samples[0][0] = 999' $SS >$T/bad1.json
	jq '.profiles[0].unit = "ticks"' $SS >$T/bad2.json
	ok "speedscope: the validator rejects broken files" eval \
	    "! node tests/export/ssvalidate.mjs $SSPKG/dist/release/file-format-schema.json $T/bad1.json >/dev/null &&
	     ! node tests/export/ssvalidate.mjs $SSPKG/dist/release/file-format-schema.json $T/bad2.json >/dev/null"
fi

# speedscope's own importer, in headless chromium, as its command line
# loads a file: index.html#localProfilePath=JS calling loadFileFromBase64.
# Loaded: the title is the file's name; refused: "Something went wrong".
ss_load() {	# ss_load FILE NAME: prints the page's title, or the failure
	local js=$T/load-$2.js
	node -e 'const fs = require("fs");
	    fs.writeFileSync(process.argv[2], "speedscope.loadFileFromBase64(" +
	    JSON.stringify(process.argv[3]) + ", " +
	    JSON.stringify(fs.readFileSync(process.argv[1]).toString("base64")) + ")")' \
	    "$1" "$js" "$2"
	timeout 90 chromium --headless --no-sandbox --disable-gpu \
	    --disable-background-networking --user-data-dir=$T/chromium \
	    --virtual-time-budget=15000 --dump-dom \
	    "file://$PWD/$SSPKG/dist/release/index.html#localProfilePath=$js" \
	    2>/dev/null >$T/dom-$2.html
	if grep -q "Something went wrong" $T/dom-$2.html; then
		echo "refused"
	else
		sed -n 's/.*<title>\([^<]*\)<\/title>.*/\1/p' $T/dom-$2.html
	fi
}
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ] || ! command -v node >/dev/null 2>&1 ||
    [ ! -f $SSPKG/dist/release/index.html ]; then
	skip "speedscope load: chromium, node or the speedscope package is missing"
else
	ok "speedscope loads the file (its title is the profile's name)" eq \
	    "$(ss_load $SS prof)" "prof - speedscope"
	ok "speedscope refuses a broken file (the check can fail)" eq \
	    "$(ss_load $T/bad1.json bad)" "refused"
	ok "speedscope loads the file with Latin-1 names" eq \
	    "$(ss_load $LSS latin1)" "prof - speedscope"
fi

# ---------------------------------------------------------------------
# .hp of the -hc, -hy and -hT fixtures: hp2ps draws it; as many censuses as
# heap.censuses; every band's bytes summed over the run equal the
# residencies of `evtop show`'s samples; each census's total equals
# last_census.total of --batch --json wherever an interval printed it; the
# last census's bands are top_bands.
HP2PS=$(command -v hp2ps || true)
for f in hc hy hT; do
	hp=$T/heap-$f.hp
	$EVTOP --batch --json --hp $hp $FIX/heap-$f.eventlog | tail -1 >$T/heap-$f.json
	$EVTOP --batch --json --interval 0.02 $FIX/heap-$f.eventlog >$T/heap-$f.series
	ok "hp $f: JOB, DATE, SAMPLE_UNIT, VALUE_UNIT first" eq \
	    "$(head -4 $hp | cut -d' ' -f1 | tr '\n' ' ')" "JOB DATE SAMPLE_UNIT VALUE_UNIT "
	ok "hp $f: censuses = heap.censuses" eq "$(grep -c '^BEGIN_SAMPLE' $hp)" \
	    "$(jq .heap.censuses $T/heap-$f.json)"
	ok "hp $f: BEGIN/END_SAMPLE pair up" eq "$(grep -c '^END_SAMPLE' $hp)" \
	    "$(grep -c '^BEGIN_SAMPLE' $hp)"
	ok "hp $f: bytes of all censuses = residencies in evtop show" eq \
	    "$(awk -F'\t' 'NF == 2 { s += $2 } END { print s }' $hp)" \
	    "$($EVTOP show $FIX/heap-$f.eventlog | sed -n 's/.*heap prof sample [0-9]*, residency \([0-9]*\),.*/\1/p' |
	        awk '{ s += $1 } END { print s }')"
	# Census start (s, 6 places) and band total, per census.
	awk -F'\t' '/^BEGIN_SAMPLE/ { t = $0; sub(/BEGIN_SAMPLE /, "", t); s = 0 }
	    NF == 2 { s += $2 } /^END_SAMPLE/ { print t, s }' $hp >$T/hp-$f.totals
	jq -r '.heap.last_census | select(. != null) |
	    "\(.time_ns) \(.total)"' $T/heap-$f.series | sort -u |
	    awk '{ printf "%.6f %s\n", $1 / 1e9, $2 }' >$T/json-$f.totals
	ok "hp $f: census totals = --batch --json's last_census (all $(wc -l <$T/json-$f.totals) printed)" \
	    eval "[ -s $T/json-$f.totals ] && [ -z \"\$(comm -13 <(sort $T/hp-$f.totals) <(sort $T/json-$f.totals))\" ]"
	awk -F'\t' '/^BEGIN_SAMPLE/ { n = 0; delete b } NF == 2 { b[$1] = $2 }
	    END { for (k in b) print k, b[k] }' $hp | sort >$T/hp-$f.last
	jq -r '.heap.top_bands[] | "\(.band | gsub("[ \t]"; "_")) \(.bytes)"' \
	    $T/heap-$f.json | sort >$T/json-$f.last
	ok "hp $f: the last census's bands are top_bands" eval \
	    "[ -s $T/json-$f.last ] && [ -z \"\$(comm -13 $T/hp-$f.last $T/json-$f.last)\" ]"
	if [ -z "$HP2PS" ]; then
		skip "hp2ps is missing (Debian's ghc has it)"
		continue
	fi
	(cd $T && $HP2PS heap-$f.hp) >$T/hp2ps-$f.err 2>&1
	ok "hp $f: hp2ps accepts it and draws PostScript" eval \
	    "[ ! -s $T/hp2ps-$f.err ] && head -c 4 $T/heap-$f.ps | grep -q '%!PS' &&
	     [ \$(wc -c <$T/heap-$f.ps) -gt 2000 ]"
done
# No census (the program ran without -h): the RTS's empty first and last
# samples, so that hp2ps draws it, and a warning.
$EVTOP --batch --json --hp $T/gc.hp $FIX/gc.eventlog >$T/gc.json 2>$T/gc.err
end=$(printf '%.6f' "$(jq '.time_ns / 1e9' $T/gc.json)")
ok "hp without censuses: the empty first and last samples (at 0 and $end)" eq \
    "$(sed 1,4d $T/gc.hp | tr '\n' ' ')" \
    "BEGIN_SAMPLE 0.00 END_SAMPLE 0.00 BEGIN_SAMPLE $end END_SAMPLE $end "
ok "hp without censuses: a warning says why" grep -q "$T/gc.hp: no heap census" $T/gc.err
if [ -n "$HP2PS" ]; then
	(cd $T && $HP2PS gc.hp) >$T/hp2ps-gc.err 2>&1
	ok "hp without censuses: hp2ps draws it" eval \
	    "[ ! -s $T/hp2ps-gc.err ] && head -c 4 $T/gc.ps | grep -q '%!PS'"
fi
$EVTOP --batch --hp $T/live.hp - <$FIX/heap-hc.eventlog >/dev/null 2>&1
ok "hp from stdin (a live source) = from the file" eval \
    "diff <(sed 1,2d $T/live.hp) <(sed 1,2d $T/heap-hc.hp) >/dev/null"
# hp2ps refuses what it cannot read: a band name with a space.
if [ -n "$HP2PS" ]; then
	sed '0,/^BEGIN_SAMPLE/!{0,/\t/s/\t/ x\t/}' $T/heap-hc.hp >$T/bad.hp
	(cd $T && $HP2PS bad.hp) >/dev/null 2>&1
	ok "hp2ps refuses a broken .hp (the check can fail)" [ $? -ne 0 ]
fi
# Two type names apart only in their Latin-1 bytes (MVar and MVAR made
# so): two bands, where both were "MV" U+FFFD U+FFFD, one band to hp2ps.
perl -0777 -pe 's/(?<!\.)MVar\x00/MV\xe9\xe9\x00/g; s/(?<!\.)MVAR\x00/MV\xe8\xe8\x00/g' \
    $FIX/heap-hy.eventlog >$T/latin1-hy.eventlog
$EVTOP --batch --hp $T/latin1.hp $T/latin1-hy.eventlog >/dev/null 2>&1
ok "latin-1 .hp: two type names alike but for those bytes, two bands" eval \
    "[ \$(grep -cF 'MV\xe9\xe9	' $T/latin1.hp) = 19 ] && [ \$(grep -cF 'MV\xe8\xe8	' $T/latin1.hp) = 19 ]"
if [ -n "$HP2PS" ]; then
	(cd $T && $HP2PS latin1.hp) >$T/hp2ps-l1.err 2>&1
	ok "latin-1 .hp: hp2ps draws it" eval \
	    "[ ! -s $T/hp2ps-l1.err ] && head -c 4 $T/latin1.ps | grep -q '%!PS'"
fi

# ---------------------------------------------------------------------
# The key in the TUI (tmux): E writes the window on screen into
# --export-dir, named after the program and the time, and the header says
# so; with nothing to export it says why not; a directory it cannot write
# to gives the reason.
if ! command -v tmux >/dev/null 2>&1; then
	skip "the E key: tmux is missing"
else
	$TM new-session -d -s keep -x 80 -y 24 "exec cat"
	screen() { $TM capture-pane -p -t "$1"; }
	wait_screen() {	# wait_screen SESSION TEXT
		local end=$((SECONDS + 20))
		while [ $SECONDS -lt $end ]; do
			screen "$1" 2>/dev/null | grep -qF -- "$2" && return 0
			sleep 0.05
		done
		echo "# $1: timed out waiting for: $2"
		screen "$1" 2>/dev/null | sed 's/^/#   |/'
		return 1
	}
	wait_files() {	# wait_files GLOB N: until N files match
		local end=$((SECONDS + 20))
		while [ $SECONDS -lt $end ]; do
			[ "$(ls $1 2>/dev/null | wc -l)" -eq "$2" ] && return 0
			sleep 0.05
		done
		echo "# timed out waiting for $2 files $1:" $(ls $1 2>/dev/null)
		return 1
	}
	mkdir -p $T/out $T/out2 $T/out3 $T/gone
	$TM new-session -d -s prof -x 120 -y 30 \
	    "LANG=C.UTF-8 $EVTOP --speed 0 --export-dir $T/out $FIX/prof.eventlog"
	ok "tui: the replay ends" wait_screen prof " done"
	$TM send-keys -t prof 5 w	# the cost centres' window: 10 s -> run
	ok "tui: the window is the run" wait_screen prof "(run)"
	$TM send-keys -t prof E
	ok "tui: the header says what was written" wait_screen prof "exported run: prof-"
	f=$(ls $T/out/prof-*.folded 2>/dev/null | head -1)
	ok "tui: PROG-YYYYmmdd-HHMMSS.folded and .speedscope.json written" eval \
	    "[ -n '$f' ] && echo '$f' | grep -Eq '/prof-[0-9]{8}-[0-9]{6}\.folded$' &&
	     [ -s '${f%.folded}.speedscope.json' ]"
	ok "tui: the folded file is the run's (as --folded writes it)" cmp "$f" $T/prof.folded
	ok "tui: no .hp without censuses, no temporary file" eq \
	    "$(ls $T/out | grep -c '\.hp$\|tmp')" 0
	# Another within the same second gets -2; a later one its own time.
	$TM send-keys -t prof E
	ok "tui: a second export is another file, never written over" \
	    wait_files "$T/out/*.folded" 2
	ok "tui: the first file is as it was" cmp "$f" $T/prof.folded
	$TM send-keys -t prof q

	$TM new-session -d -s heap -x 120 -y 30 \
	    "LANG=C.UTF-8 $EVTOP --speed 0 --export-dir $T/out2 $FIX/heap-hc.eventlog"
	ok "tui heap: the replay ends" wait_screen heap " done"
	$TM send-keys -t heap 5 w E	# 10 s -> run
	ok "tui heap: the header names the .hp" wait_screen heap "exported run: heap-prof-"
	hp=$(ls $T/out2/*.hp 2>/dev/null | head -1)
	ok "tui heap: the .hp has every census" eq \
	    "$(grep -c '^BEGIN_SAMPLE' "$hp" 2>/dev/null)" "$(jq .heap.censuses $T/heap-hc.json)"
	$TM send-keys -t heap q

	# No census for --hp: said in the TUI too, on stderr once the
	# terminal is back (it was said only with --batch).
	$TM new-session -d -s none -x 120 -y 30 \
	    "LANG=C.UTF-8 $EVTOP --speed 0 --hp $T/tui.hp --export-dir $T/out3 $FIX/gc.eventlog 2>$T/tui.err; echo rc=\$? >$T/tui.rc"
	ok "tui gc: the replay ends" wait_screen none " done"
	$TM send-keys -t none E
	ok "tui gc: nothing to export, and why" wait_screen none "export: nothing to write"
	$TM send-keys -t none q
	ok "tui gc: evtop exits" wait_for $T/tui.rc 'rc=0' 20
	ok "tui gc: --hp with no census: said on stderr at the end" \
	    grep -q "$T/tui.hp: no heap census came" $T/tui.err
	# Two programs through a FIFO in the TUI: the header says where the
	# first one's went, and stderr again once the terminal is back.
	mkfifo $T/el3
	$TM new-session -d -s two -x 200 -y 30 \
	    "LANG=C.UTF-8 $EVTOP --folded $T/tui2.folded --fifo $T/el3 2>$T/tui2.err; echo rc=\$? >$T/tui2.rc"
	cat $FIX/prof.eventlog >$T/el3
	cat $FIX/ghc96-prof.eventlog >$T/el3
	ok "tui, two programs: the header says the first's was written" \
	    wait_screen two "exported program 1 (another began): $T/tui2.1.folded"
	ok "tui, two programs: tui2.1.folded is the first's" \
	    cmp $T/tui2.1.folded $T/prof.folded
	$TM send-keys -t two q
	ok "tui, two programs: evtop exits" wait_for $T/tui2.rc 'rc=0' 20
	ok "tui, two programs: said on stderr at the end" \
	    grep -q "exported program 1 (another began): $T/tui2.1.folded" $T/tui2.err
	# A directory gone after the start-up check: E says why.
	$TM new-session -d -s nodir -x 160 -y 30 \
	    "LANG=C.UTF-8 $EVTOP --speed 0 --export-dir $T/gone $FIX/prof.eventlog"
	ok "tui: the replay ends" wait_screen nodir " done"
	rmdir $T/gone
	$TM send-keys -t nodir E
	ok "tui: a directory that is not there: export failed, and why" \
	    wait_screen nodir "export failed: $T/gone/prof-"
	$TM send-keys -t nodir q
fi

echo "# export: $passed passed, $failed failed"
[ $failed -eq 0 ]
