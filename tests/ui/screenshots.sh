#!/bin/sh
# tests/ui/screenshots.sh: the PNG pictures in screenshots/, from real
# replays: evtop runs in tmux, `capture-pane -e -p` gives the screen with
# its attributes, build/tests/ui/ansi2html turns it into a page, headless
# Chromium takes the picture.
#
# The main replay is tests/ui/demo/Demo.hs (built with ghc -prof -threaded
# when ghc is there: four capabilities, cost centres, a heap profile,
# threads of every kind, messages), paused a few seconds in; the
# nonmoving pane comes from tests/fixtures/nonmoving.eventlog, the -hi heap
# pane from tests/fixtures/ghc96-ipe-hi.eventlog.  Without ghc the demo is
# replaced by tests/fixtures/prof.eventlog.  With ghc, one shot is of
# ./demo.sh live.
#
# usage: tests/ui/screenshots.sh [OUTDIR]	(default screenshots)
#	SHOTS=live-history tests/ui/screenshots.sh [OUTDIR]: that case only
set -eu
cd "$(dirname "$0")/../.."
OUT=${1:-screenshots}
B=build/screens
T="tmux -L evtopshots$$ -f/dev/null"
CHROME=$(command -v chromium || command -v chromium-browser ||
    command -v google-chrome || true)
for tool in tmux; do
	command -v $tool >/dev/null || { echo "screenshots: no $tool"; exit 1; }
done
[ -n "$CHROME" ] || { echo "screenshots: no chromium (apt-get install chromium fonts-dejavu-core)"; exit 1; }
mkdir -p "$B" "$OUT"
make -s evtop build/tests/ui/ansi2html
export LANG=C.UTF-8 LC_ALL=C.UTF-8
unset NO_COLOR
trap '$T kill-server 2>/dev/null || true' 0
$T new-session -d -s keep "exec cat"

# The demo's eventlog.
LOG=tests/fixtures/prof.eventlog
if command -v ghc >/dev/null 2>&1; then
	if [ ! -s "$B/demo.eventlog" ] || [ tests/ui/demo/Demo.hs -nt "$B/demo.eventlog" ]; then
		ghc -v0 -O -prof -fprof-auto -threaded -rtsopts -eventlog \
		    -outputdir "$B/obj" -o "$B/demo" tests/ui/demo/Demo.hs
		(cd "$B" && ./demo 6 +RTS -N4 -l -p -hc -i0.2 -RTS >/dev/null)
		rm -f "$B/demo.prof" "$B/demo.hp"
	fi
	LOG=$B/demo.eventlog
fi

wait_for() {	# SESSION PATTERN (grep -E) [SECONDS]
	_end=$(($(date +%s) + ${3:-30}))
	until $T capture-pane -p -t "$1" | grep -qE -- "$2"; do
		if [ "$(date +%s)" -ge "$_end" ]; then
			echo "screenshots: $1: no $2 on the screen" >&2
			$T capture-pane -p -t "$1" >&2
			exit 1
		fi
		sleep 0.05
	done
}

# settle SESSION: wait until two captures 0.2 s apart agree (the ticking
# wall clock aside), so that a frame is never taken half drawn; a screen
# that keeps changing is taken after 10 s.
settle() {
	_end=$(($(date +%s) + 10))
	_a=$($T capture-pane -p -t "$1" | grep -v ' wall ')
	while [ "$(date +%s)" -lt "$_end" ]; do
		sleep 0.2
		_b=$($T capture-pane -p -t "$1" | grep -v ' wall ')
		[ "$_a" = "$_b" ] && return
		_a=$_b
	done
}

# shot SESSION NAME COLS ROWS: the screen as $OUT/NAME.png.
shot() {
	settle "$1"
	$T capture-pane -e -N -p -t "$1" >"$B/$2.ansi"
	build/tests/ui/ansi2html "evtop: $2" <"$B/$2.ansi" >"$B/$2.html"
	_w=$(( ($3 * 8430 + 999) / 1000 + 20 ))
	_h=$(( $4 * 17 + 20 ))
	"$CHROME" --headless --no-sandbox --disable-gpu --hide-scrollbars \
	    --force-device-scale-factor=1 --screenshot="$OUT/$2.png" \
	    --window-size="$_w,$_h" "file://$PWD/$B/$2.html" >/dev/null 2>&1
	echo "screenshots: $OUT/$2.png (${3}x$4)"
}

# A live source held in its past: the demo's eventlog, three-odd times over
# (build/bench/mklog: each copy's times after the one before), served over
# a Unix socket by tests/sources/fakeprod at 16 KiB every 10 ms.  Once the
# first copy is in (a real -N4 log's capabilities send their blocks late:
# their first seconds are all there only then), g 2s: the header says
# `past 2.000s (e: now)` and the panes show the run at 2 s, as `--batch
# --json --to 2s` on the demo's log, while the rest of the stream is read
# (its bytes in the header grow; at 160 columns the header's second row
# has the wall clock, which settle leaves out).
live_history() {
	make -s build/tests/sources/fakeprod build/bench/mklog
	_sock=$B/live-history.sock
	_first=$(stat -c %s "$LOG")
	build/bench/mklog "$LOG" "$B/live-history.eventlog" \
	    $((_first * 3 / 1048576 + 1)) >/dev/null
	rm -f "$_sock"
	build/tests/sources/fakeprod --unix "$_sock" --chunk 16384 \
	    --delay-us 10000 --linger 60000 "$B/live-history.eventlog" \
	    >/dev/null 2>&1 &
	_fake=$!
	_end=$(($(date +%s) + 10))
	until [ -S "$_sock" ]; do
		[ "$(date +%s)" -lt "$_end" ] ||
		    { echo "screenshots: fakeprod: no $_sock" >&2; exit 1; }
		sleep 0.02
	done
	$T new-session -d -s lh -x 160 -y 44 "./evtop --unix $_sock"
	# The bytes read, as the header writes them, past the first copy.
	_end=$(($(date +%s) + 60))
	until _r=$($T capture-pane -p -t lh | head -3 |
	    sed -n 's/.* \([0-9.]*\)M read.*/\1/p') &&
	    [ -n "$_r" ] && awk "BEGIN { exit !($_r * 1048576 > $_first) }"; do
		[ "$(date +%s)" -lt "$_end" ] ||
		    { echo "screenshots: lh: the first copy not read" >&2; exit 1; }
		sleep 0.05
	done
	$T send-keys -t lh g
	$T send-keys -t lh -l 2s
	$T send-keys -t lh Enter
	wait_for lh 'past 2\.000s \(e: now\)'
	shot lh live-history-past 160 44
	# The raw events of that past, from the history's files; a search.
	$T send-keys -t lh 9
	wait_for lh 'event time [0-9]'
	$T send-keys -t lh /
	$T send-keys -t lh -l 'starting GC'
	$T send-keys -t lh Enter
	wait_for lh 'match|found'
	shot lh pane-9-live-history-search 160 44
	$T kill-session -t lh
	kill "$_fake" 2>/dev/null || true
	wait "$_fake" 2>/dev/null || true
	rm -f "$_sock" "$B/live-history.eventlog"
}
if [ "${SHOTS:-}" = live-history ]; then
	live_history
	exit 0
fi

# Replay the demo in real time; pause a few seconds in.
$T new-session -d -s demo -x 120 -y 36 "./evtop $LOG"
wait_for demo 'event ([4-9]|[1-9][0-9])\.' 60
$T send-keys -t demo P
wait_for demo ' paused'
sleep_screen() {	# let a redraw after a key land: wait for TEXT
	wait_for demo "$1"
}
shot demo overview-120x36 120 36
$T resize-window -t demo -x 80 -y 24
wait_for demo '^F1Help'
wait_for demo '^ 1 Capabilities'
shot demo overview-80x24 80 24
$T resize-window -t demo -x 200 -y 60
wait_for demo '│'
wait_for demo '^F1Help'
shot demo overview-200x60 200 60
$T resize-window -t demo -x 120 -y 36
wait_for demo '^ 1 Capabilities'
for p in 1:caps:'^ 1 Capabilities' 2:gc:'^ 2 GC' 3:heap:'^ 3 Heap' \
    5:cost-centres:'^ 5 Cost centres' 6:threads:'^ 6 Threads' \
    7:messages:'^ 7 Messages'; do
	k=${p%%:*}
	rest=${p#*:}
	name=${rest%%:*}
	pat=${rest#*:}
	$T send-keys -t demo "$k"
	sleep_screen "$pat"
	shot demo "pane-$k-$name" 120 36
done
# A filter on the threads.
$T send-keys -t demo 6 / s t m Enter
sleep_screen '/stm'
shot demo pane-6-threads-filter 120 36
$T send-keys -t demo / C-u Enter
sleep_screen '^ 6 Threads'
# Cost centres with Enter: the selected one's stacks.
$T send-keys -t demo 5
sleep_screen '^ 5 Cost centres'
$T send-keys -t demo Down Down Enter
sleep_screen 'stacks ending in'
shot demo pane-5-cost-centres-stacks 120 36
$T send-keys -t demo Enter 0 F1
sleep_screen 'evtop keys'
shot demo help 120 36
$T kill-session -t demo

# The live demo (./demo.sh: its program over a Unix socket), heap
# profiling started with H, in its second phase (live data growing).
if command -v ghc >/dev/null 2>&1; then
	$T new-session -d -s live -x 120 -y 36 "env EVTOP_DEMO_PHASE=12 ./demo.sh"
	wait_for live '^evtop evtop-demo ' 120
	$T send-keys -t live H
	wait_for live 'event (1[89]|2[0-9])\.' 60
	shot live live-demo-120x36 120 36
	$T send-keys -t live q
fi

# The nonmoving pane, from its fixture.
$T new-session -d -s nm -x 120 -y 36 "./evtop --speed 0 tests/fixtures/nonmoving.eventlog"
wait_for nm ' done'
$T send-keys -t nm 4
wait_for nm '^ 4 Nonmoving'
shot nm pane-4-nonmoving 120 36
$T kill-session -t nm

# A -hi heap profile named by its IPE entries (GHC 9.6), one band's whole
# entry on Enter.
$T new-session -d -s hi -x 120 -y 36 "./evtop --speed 0 tests/fixtures/ghc96-ipe-hi.eventlog"
wait_for hi ' done'
$T send-keys -t hi 3
wait_for hi 'by info table'
$T send-keys -t hi Down Down Down Down Enter
wait_for hi 'module Main'
shot hi pane-3-heap-ipe 120 36
$T kill-session -t hi

# A log cut short (its last 2000 bytes gone, as a killed program leaves
# it): replayed up to the cut, the header says where.
head -c $(($(wc -c < tests/fixtures/ghc96-threads.eventlog) - 2000)) \
    tests/fixtures/ghc96-threads.eventlog > "$B/cut.eventlog"
$T new-session -d -s cut -x 160 -y 36 "./evtop --speed 0 $B/cut.eventlog"
wait_for cut ' done \(truncated'
shot cut file-cut-short-160x36 160 36
$T kill-session -t cut

# Time travel: g to 0.2 s, [ there, g to 0.45 s, ]: the range
# [0.2 s, 0.45 s) of a profiled run, the GC and cost-centre panes showing it.
$T new-session -d -s rng -x 160 -y 44 "./evtop tests/fixtures/prof.eventlog"
wait_for rng 'event [0-9]'
$T send-keys -t rng g
$T send-keys -t rng -l 0.2s
$T send-keys -t rng Enter
wait_for rng 'event 0\.200s'
$T send-keys -t rng '['
$T send-keys -t rng g
$T send-keys -t rng -l 0.45s
$T send-keys -t rng Enter
wait_for rng 'event 0\.450s'
$T send-keys -t rng ']'
wait_for rng 'range 0\.200s-0\.450s'
shot rng range-gc-cost-centres 160 44
$T kill-session -t rng

live_history

# The timeline (8): the whole run of tests/fixtures/gc.eventlog (the demo
# is in GC nearly all the time: -hc -i0.2 censuses); zoomed in on the longest GC
# pause (l, then i three times: the range read from the file); 200x60;
# the markers of tests/fixtures/messages.eventlog; threads by their ids
# (tests/fixtures/threads.eventlog zoomed in); monochrome ASCII.
$T new-session -d -s tl -x 120 -y 36 "./evtop --speed 0 tests/fixtures/gc.eventlog"
wait_for tl ' done'
$T send-keys -t tl 8
wait_for tl '^ 8 Timeline'
shot tl pane-8-timeline 120 36
$T send-keys -t tl l i i i
wait_for tl 'x64'
wait_for tl 'GC pause'
shot tl pane-8-timeline-zoom 120 36
$T send-keys -t tl f
$T resize-window -t tl -x 200 -y 60
wait_for tl 'whole run'
wait_for tl '^F1Help'
shot tl pane-8-timeline-200x60 200 60
$T kill-session -t tl
$T new-session -d -s tlm -x 120 -y 24 "./evtop --speed 0 tests/fixtures/messages.eventlog"
wait_for tlm ' done'
$T send-keys -t tlm 8 Home m m
wait_for tlm '^cursor'
shot tlm pane-8-timeline-markers 120 24
$T kill-session -t tlm
$T new-session -d -s tlt -x 120 -y 24 "./evtop --speed 0 tests/fixtures/threads.eventlog"
wait_for tlt ' done'
$T send-keys -t tlt 8 i i i i
wait_for tlt 'x256'
wait_for tlt 'T[0-9]'
shot tlt pane-8-timeline-threads 120 24
$T kill-session -t tlt
$T new-session -d -s tla -x 100 -y 30 "env NO_COLOR=1 LANG=C LC_ALL=C ./evtop --speed 0 tests/fixtures/gc.eventlog"
wait_for tla ' done'
$T send-keys -t tla 8
wait_for tla '8 Timeline'
$T send-keys -t tla l
wait_for tla 'GC pause'
shot tla pane-8-timeline-mono-ascii 100 30
$T kill-session -t tla
# The whole 450 MB run of a real -N2 program, when make bench has made it.
if [ -s build/bench/ghc-n2.eventlog ]; then
	$T new-session -d -s tlb -x 200 -y 60 "./evtop --speed 0 build/bench/ghc-n2.eventlog"
	wait_for tlb ' done' 120
	$T send-keys -t tlb 8
	wait_for tlb '^ 8 Timeline'
	shot tlb pane-8-timeline-ghc-n2-200x60 200 60
	$T kill-session -t tlb
fi

# The raw events (pane 9) searched: / from the first event, then n.
$T new-session -d -s ev -x 120 -y 36 "./evtop --speed 0 tests/fixtures/messages.eventlog"
wait_for ev ' done'
$T send-keys -t ev 9
wait_for ev '^ 9 Raw events'
$T send-keys -t ev Home
wait_for ev '(545850 ns)'
$T send-keys -t ev / a l p h a Space s t e p Enter
wait_for ev 'found at'
$T send-keys -t ev n
wait_for ev 'found at .* .3615340 ns'
shot ev pane-9-raw-events-search 120 36
$T kill-session -t ev

# Monochrome and ASCII: NO_COLOR=1 LANG=C.
$T new-session -d -s mono -x 100 -y 30 "env NO_COLOR=1 LANG=C LC_ALL=C ./evtop --speed 0 $LOG"
wait_for mono ' done'
shot mono overview-mono-ascii 100 30
$T kill-session -t mono
