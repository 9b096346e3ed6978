#!/bin/sh
# tests/e2e-ui/run.sh: evtop as a person uses it, driven through tmux.
#
# Each test starts evtop in a tmux session of a given size, sends keys and
# polls capture-pane until the expected screen shows (with a deadline; no
# bare sleeps).  Figures on the screen are compared with those of
# `evtop --batch --json` on the same input, formatted as the UI formats
# them (build/tests/ui/uifmt).  Also: help, zoom, Escape (through the key
# timeout), the filter prompt, resize, NO_COLOR, an ASCII locale, the
# terminal restored after q, F10, ^C, SIGTERM, SIGHUP, SIGSEGV, SIGILL,
# SIGQUIT and SIGUSR1, ^Z and
# fg, and control keys over a Unix socket (tests/sources/fakeprod).
#
# Prints SKIPPED and passes without tmux.
set -u
cd "$(dirname "$0")/../.." || exit 1

if ! command -v tmux >/dev/null 2>&1; then
	echo "SKIPPED: tmux is missing"
	exit 0
fi

EVTOP=${EVTOP:-./evtop}
FMT=build/tests/ui/uifmt
FIX=tests/fixtures
TMP=$(mktemp -d "${TMPDIR:-/tmp}/evtop-e2e-ui.XXXXXX")
T="tmux -L evtop$$ -f/dev/null"
trap '$T kill-server 2>/dev/null; rm -rf "$TMP"' 0
trap 'exit 1' 1 2 15
UTF8=C.UTF-8
export LANG=$UTF8 LC_ALL=$UTF8
unset NO_COLOR
pass=0
fail=0
# A session that stays, so the server never empties and exits while the
# next test starts one.
$T new-session -d -s keep -x 80 -y 24 "exec cat"

ok() {
	if [ "$1" = 0 ]; then
		pass=$((pass + 1))
		echo "ok $((pass + fail)) - $2"
	else
		fail=$((fail + 1))
		echo "not ok $((pass + fail)) - $2"
	fi
}

screen() {
	$T capture-pane -p -t "$1"
}

# wait_for SESSION TEXT [SECONDS]: poll the screen until TEXT is on it.
wait_for() {
	_end=$(($(date +%s) + ${3:-15}))
	while :; do
		if screen "$1" 2>/dev/null | grep -qF -- "$2"; then
			return 0
		fi
		if [ "$(date +%s)" -ge "$_end" ]; then
			echo "# $1: timed out waiting for: $2"
			screen "$1" 2>/dev/null | sed 's/^/#   |/'
			return 1
		fi
		sleep 0.05
	done
}

# wait_gone SESSION TEXT [SECONDS]: poll until TEXT is no longer shown.
wait_gone() {
	_end=$(($(date +%s) + ${3:-15}))
	while screen "$1" 2>/dev/null | grep -qF -- "$2"; do
		if [ "$(date +%s)" -ge "$_end" ]; then
			echo "# $1: timed out waiting for the end of: $2"
			return 1
		fi
		sleep 0.05
	done
	return 0
}

# wait_file PATH [SECONDS]
wait_file() {
	_end=$(($(date +%s) + ${2:-15}))
	while [ ! -e "$1" ]; do
		[ "$(date +%s)" -ge "$_end" ] && return 1
		sleep 0.05
	done
	return 0
}

has() {
	screen "$1" | grep -qF -- "$2"
}

# start SESSION W H COMMAND...
start() {
	_s=$1 _w=$2 _h=$3
	shift 3
	$T new-session -d -s "$_s" -x "$_w" -y "$_h" "$*"
}

# A number from a batch JSON file: jnum FILE SECTION KEY (the first KEY
# after "SECTION":{ and before that object's first closing brace).
jnum() {
	sed -n "s/.*\"$2\":{\\([^}]*\\)}.*/\\1/p" "$1" | tr ',' '\n' |
	    sed -n "s/^\"$3\":\\(-\\{0,1\\}[0-9.]*\\)$/\\1/p" | head -1
}
jstr() {
	sed -n "s/.*\"$2\":{[^}]*\"$3\":\"\\([^\"]*\\)\".*/\\1/p" "$1" | head -1
}

# The batch's figures at the end of the file (its last JSON line).
batch() {
	$EVTOP --batch --json "$FIX/$1.eventlog" | tail -1 >"$TMP/$1.json"
}

# ----------------------------------------------------------------------
# Figures at 80x24 and 200x60 equal those of --batch --json.

batch gc
start gc 80 24 "$EVTOP --speed 0 $FIX/gc.eventlog"
wait_for gc "done" && wait_for gc "collections"
n=$(jnum "$TMP/gc.json" gc collections)
max=$($FMT ns "$(jnum "$TMP/gc.json" gc pause_max_ns)")
tot=$($FMT ns "$(jnum "$TMP/gc.json" gc pause_total_ns)")
p50=$($FMT ns "$(jnum "$TMP/gc.json" gc pause_p50_ns)")
prod=$($FMT pct "$(jnum "$TMP/gc.json" gc productivity)")
args=$(jstr "$TMP/gc.json" program args)
pid=$(jnum "$TMP/gc.json" program pid)
screen gc >"$TMP/gc.80"
ok $? "gc at 80x24 captured"
[ -n "$n" ] && grep -qF "$n collections  productivity $prod  max pause $max" \
    "$TMP/gc.80"
ok $? "80x24 GC title: $n collections, productivity $prod, max pause $max"
grep -qF "p50 $p50" "$TMP/gc.80" && grep -qF "total $tot" "$TMP/gc.80"
ok $? "80x24 GC pauses: p50 $p50, total $tot"
head -1 "$TMP/gc.80" | grep -qF "$args" &&
    head -1 "$TMP/gc.80" | grep -qF "pid $pid"
ok $? "80x24 header: $args, pid $pid"
tail -1 "$TMP/gc.80" | grep -q "^F1Help.*F10Quit"
ok $? "80x24 bottom bar: $(tail -1 "$TMP/gc.80")"
[ "$(wc -L <"$TMP/gc.80")" -le 80 ] && [ "$(wc -l <"$TMP/gc.80")" -eq 24 ]
ok $? "80x24: 24 rows of at most 80 columns"

# Resize: the same figures in two columns, then back.
$T resize-window -t gc -x 200 -y 60
wait_for gc "│" && wait_for gc "$n collections"
screen gc >"$TMP/gc.200"
[ "$(wc -l <"$TMP/gc.200")" -eq 60 ] &&
    grep -qF "max pause $max" "$TMP/gc.200" &&
    grep -q "^ 1 Capabilities.*│ 6 Threads" "$TMP/gc.200"
ok $? "resized to 200x60: two columns, the same figures"
$T resize-window -t gc -x 80 -y 24
# Until evtop has redrawn for the new size, tmux shows the old frame cut.
sed 's/wall [0-9:]*/wall/' "$TMP/gc.80" >"$TMP/gc.80.nc"
_end=$(($(date +%s) + 15))
while :; do
	screen gc | sed 's/wall [0-9:]*/wall/' >"$TMP/gc.80b.nc"
	cmp -s "$TMP/gc.80.nc" "$TMP/gc.80b.nc" && break
	[ "$(date +%s)" -ge "$_end" ] && break
	sleep 0.05
done
diff "$TMP/gc.80.nc" "$TMP/gc.80b.nc" | sed 's/^/#   /'
cmp -s "$TMP/gc.80.nc" "$TMP/gc.80b.nc"
ok $? "back to 80x24: the first screen again (but the clock)"

# Help at 80x24 scrolls, and its title says how and which rows show.
# Read page by page (PgDn), it holds every entry of the key table whole
# (uifmt keys): the keys, and what they do with its wrapped rows joined;
# nothing cut, no row wider than 80.  Any other key goes back.
$FMT keys >"$TMP/help.want"
keyw=$(awk -F'\t' '{ if (length($1) > w) w = length($1) } END { print w }' \
    "$TMP/help.want")
$T send-keys -t gc F1
wait_for gc "this help"
: >"$TMP/help.pages"
rm -f "$TMP/help.body"
last=0 total=1 title=
for _ in 1 2 3 4 5 6 7 8; do
	screen gc >"$TMP/help.page"
	cat "$TMP/help.page" >>"$TMP/help.pages"
	title=$(head -1 "$TMP/help.page")
	set -- $(echo "$title" | sed -n \
	    's/^ evtop keys  \([0-9]*\)-\([0-9]*\) of \([0-9]*\)  Up Down PgUp PgDn Home End: scroll; other keys: back$/\1 \2 \3/p')
	[ $# -eq 3 ] || break
	# Each page's rows at their place in the whole.
	tail -n +2 "$TMP/help.page" | awk -v f="$1" '{ print f + NR - 1 "\t" $0 }' \
	    >>"$TMP/help.body"
	last=$2 total=$3
	[ "$last" -ge "$total" ] && break
	$T send-keys -t gc PgDn
	wait_gone gc "$title" 5 || break
done
[ "$last" -ge "$total" ] && [ "$total" -gt 23 ]
ok $? "F1 at 80x24: the help scrolls to its end, its title says how: $title"
sort -t "$(printf '\t')" -k1,1n -u "$TMP/help.body" | cut -f2- |
    awk -v keyw="$keyw" '
	function trim(s) { sub(/^ +/, "", s); sub(/ +$/, "", s); return s }
	{ line[NR] = $0 }
	END {
		tx = 3 + keyw
		for (c = 0; c < 2; c++) {
			x = c * 40; have = 0
			for (y = 1; y <= NR + 1; y++) {
				r = y <= NR ? line[y] : ""
				h = substr(r, x + 2, 1)
				k = trim(substr(r, x + 3, keyw))
				w = trim(substr(r, x + tx + 1, 40 - tx))
				entry = y <= NR && (h == " " || h == "")
				if (entry && have && k == "" && w != "") {
					what = what " " w
					continue
				}
				if (have)
					print keys "\t" what
				have = 0
				if (entry && k != "") {
					keys = k; what = w; have = 1
				}
			}
		}
	}' >"$TMP/help.got"
diff "$TMP/help.want" "$TMP/help.got" | head -20 | sed 's/^/#   /'
cmp -s "$TMP/help.want" "$TMP/help.got"
ok $? "F1 at 80x24: every one of $(wc -l <"$TMP/help.want") entries readable whole"
! grep -qF "…" "$TMP/help.pages" && [ "$(wc -L <"$TMP/help.pages")" -le 80 ]
ok $? "F1 at 80x24: no row of the help cut"
$T send-keys -t gc x
wait_gone gc "evtop keys"
ok $? "a key leaves the help"
# Zoom and back.
$T send-keys -t gc 2
wait_for gc "histogram" || wait_for gc " < "
screen gc | sed -n 4p | grep -q "^ 2 GC "
ok $? "2 zooms the GC pane"
$T send-keys -t gc 0
wait_for gc " 1 Capabilities"
ok $? "0 back to the overview"
# A lone Escape: libtermkey waits to tell it from a sequence, then the
# loop's timeout (ui_timeout_ms) delivers it.
$T send-keys -t gc 3
wait_gone gc " 1 Capabilities"
$T send-keys -t gc Escape
wait_for gc " 1 Capabilities"
ok $? "Escape back to the overview"
# The filter prompt, then Escape cancels it.
$T send-keys -t gc 6 /
wait_for gc "Filter Threads:"
$T send-keys -t gc x y Escape
wait_gone gc "Filter Threads:" && ! has gc "/xy"
ok $? "/ opens the filter prompt, Escape cancels it"
$T send-keys -t gc 0
$T kill-session -t gc

batch threads
start th 200 60 "$EVTOP --speed 0 $FIX/threads.eventlog"
wait_for th "done" && wait_for th "created"
created=$(jnum "$TMP/threads.json" threads created)
finished=$(jnum "$TMP/threads.json" threads finished)
live=$(jnum "$TMP/threads.json" threads live)
has th "$created created, $finished finished" && has th "$live live:"
ok $? "200x60 threads: $created created, $finished finished, $live live"
has th "cruncher-1" && has th "TimerManager"
ok $? "200x60 thread labels"
$T send-keys -t th 6 / c r u n Enter
wait_for th "/crun"
[ "$(screen th | grep -c "cruncher-")" -eq 4 ] && ! has th "pinger"
ok $? "/crun Enter: only the 4 crunchers"
$T kill-session -t th

batch prof
start prof 80 24 "$EVTOP --speed 0 $FIX/prof.eventlog"
wait_for prof "done" && wait_for prof "samples"
samples=$(jnum "$TMP/prof.json" prof samples)
has prof "$samples samples"
ok $? "80x24 cost centres: $samples samples"
screen prof | grep "Main.fib" | grep -qF "$($FMT pct 0.40762)"
ok $? "80x24 top cost centre Main.fib at 40.8% self"
$T kill-session -t prof

batch messages
start msg 200 60 "$EVTOP --speed 0 $FIX/messages.eventlog"
wait_for msg "done" && wait_for msg "markers"
user=$(jnum "$TMP/messages.json" messages user)
mk=$(jnum "$TMP/messages.json" messages markers)
has msg "$user messages  $mk markers"
ok $? "200x60 messages: $user messages, $mk markers"
$T kill-session -t msg

batch heap-hc
start hp 80 24 "$EVTOP --speed 0 $FIX/heap-hc.eventlog"
wait_for hp "done"
$T send-keys -t hp 3
wait_for hp "heap profile"
c=$(sed -n 's/.*"censuses":\([0-9]*\),"census_samples".*/\1/p' \
    "$TMP/heap-hc.json")
has hp "census $c,"
ok $? "80x24 heap profile: census $c"
$T kill-session -t hp

# ----------------------------------------------------------------------
# Colour and locale.

start col 80 24 "$EVTOP --speed 0 $FIX/gc.eventlog"
wait_for col "done"
$T capture-pane -e -p -t col >"$TMP/col"
sgr_colour() {
	# An SGR sequence with a colour parameter (30-38, 40-48, 90-107);
	# 39 and 49 (default colours) do not count.
	grep -q "$(printf '\033')\\[\\([0-9]*;\\)*\\(3[0-8]\\|4[0-8]\\|9[0-7]\\|10[0-7]\\)[;m]" "$1"
}
sgr_colour "$TMP/col"
ok $? "colour by default"
$T kill-session -t col
start nc 80 24 "env NO_COLOR=1 $EVTOP --speed 0 $FIX/gc.eventlog"
wait_for nc "done"
$T capture-pane -e -p -t nc >"$TMP/nc"
! sgr_colour "$TMP/nc" && grep -q "$(printf '\033')\\[[0-9;]*7m" "$TMP/nc"
ok $? "NO_COLOR: no colour, reverse video for titles"
$T kill-session -t nc

screen_has_8bit() {
	LC_ALL=C grep -q "$(printf '[\200-\377]')" "$1"
}
start u8 80 24 "$EVTOP --speed 0 $FIX/gc.eventlog"
wait_for u8 "done"
screen u8 >"$TMP/u8"
screen_has_8bit "$TMP/u8"
ok $? "UTF-8 locale: Unicode bars"
$T kill-session -t u8
start asc 80 24 "env LANG=C LC_ALL=C $EVTOP --speed 0 $FIX/gc.eventlog"
wait_for asc "done"
screen asc >"$TMP/asc"
! screen_has_8bit "$TMP/asc" && grep -q "|||" "$TMP/asc" &&
    grep -qF "$n collections" "$TMP/asc"
ok $? "LANG=C: ASCII only, ASCII bars, same figures"
$T kill-session -t asc

# ----------------------------------------------------------------------
# The terminal comes back as it was.

# restore NAME HOW: run evtop from a shell that saves the tty settings
# before and after; stop it by HOW; compare.
restore() {
	_s=$1
	rm -f "$TMP/before" "$TMP/after" "$TMP/pid"
	# The shell outlives a ^C (its trap runs once evtop has ended) and
	# runs evtop in the foreground, its pid told by the shell it replaces:
	# \$? is evtop's status.  (Run in the background and waited for twice
	# around the trapped INT, bash 5.2 once wrote a status of -1.)
	start "$_s" 80 24 "ulimit -c 0; trap 'echo INT' INT; stty -a >$TMP/before; \
	    sh -c 'echo \$\$ >$TMP/pid; exec $EVTOP --speed 0 $FIX/gc.eventlog'; \
	    echo \$? >$TMP/status; \
	    stty -a >$TMP/a; mv $TMP/a $TMP/after; \
	    echo EXITED; exec cat"
	wait_for "$_s" "done" || return 1
	[ "$($T display -p -t "$_s" '#{alternate_on}')" = 1 ] || return 1
	case $2 in
	q|F10|C-c)	$T send-keys -t "$_s" "$2" ;;
	TERM|HUP|SEGV|ILL|QUIT|USR1)	kill -"$2" "$(cat "$TMP/pid")" ;;
	esac
	wait_for "$_s" "EXITED" || return 1
	wait_file "$TMP/after" || return 1
	[ "$(cat "$TMP/status")" = "$3" ] || {
		echo "# exit status $(cat "$TMP/status"), not $3"
		return 1
	}
	cmp -s "$TMP/before" "$TMP/after" || {
		diff "$TMP/before" "$TMP/after" | sed 's/^/#   /'
		return 1
	}
	[ "$($T display -p -t "$_s" \
	    '#{alternate_on}#{cursor_flag}#{keypad_cursor_flag}')" = 010 ] ||
	    return 1
	! has "$_s" "F1Help"
}
# SEGV: the crash handler's ui_emergency_restore(), not ui_free(); ILL
# (__builtin_trap()), QUIT and USR1 end the process by default as well.
# q, F10 and ^C quit (0); SIGTERM and SIGHUP are said by dying of them
# once the terminal is back (128 + the signal's number), as crashes are.
for how in q:0 F10:0 C-c:0 TERM:143 HUP:129 SEGV:139 ILL:132 QUIT:131 \
    USR1:138; do
	st=${how#*:} how=${how%:*}
	restore "r$how" "$how" "$st"
	ok $? "$how: the terminal restored (settings, screen, cursor, keypad), exit status $st"
	$T kill-session -t "r$how" 2>/dev/null
done

# A terminal without an alternate screen (TERM=linux: no smcup, rmcup):
# the last frame is cleared at exit, by ui_free() or, on a crash, by
# ui_emergency_restore(); nothing of it stays under the shell's prompt.
noalt() {
	_s=$1
	rm -f "$TMP/pid"
	# (The shell's word on a crash goes to stderr: not on the screen.)
	start "$_s" 80 24 "ulimit -c 0; exec 2>/dev/null; trap 'echo INT' INT; \
	    TERM=linux $EVTOP --speed 0 $FIX/gc.eventlog & echo \$! >$TMP/pid; \
	    wait \$!; wait \$!; echo EXITED; exec cat"
	wait_for "$_s" "done" || return 1
	case $2 in
	q|C-c)	$T send-keys -t "$_s" "$2" ;;
	*)	kill -"$2" "$(cat "$TMP/pid")" ;;
	esac
	wait_for "$_s" "EXITED" || return 1
	screen "$_s" >"$TMP/noalt"
	if grep -v -e '^EXITED$' -e '^INT$' "$TMP/noalt" | grep -q '[^ ]'; then
		sed 's/^/#   |/' "$TMP/noalt" | grep -v '^#   |$'
		return 1
	fi
}
if infocmp linux >/dev/null 2>&1; then
	for how in q C-c TERM SEGV; do
		noalt "n$how" "$how"
		ok $? "TERM=linux (no alternate screen), $how: no frame left on the screen"
		$T kill-session -t "n$how" 2>/dev/null
	done
else
	echo "SKIPPED: no terminfo for linux"
fi

# ^Z suspends to the shell, fg comes back.
SH=sh
command -v bash >/dev/null 2>&1 && SH="bash --norc --noprofile"
start sus 80 24 "env PS1='prompt$ ' $SH -i"
wait_for sus "prompt$"
$T send-keys -t sus "stty -a >$TMP/sbefore; $EVTOP --speed 0 $FIX/gc.eventlog" Enter
wait_for sus "done"
$T send-keys -t sus C-z
wait_for sus "Stopped" && wait_gone sus "F1Help" &&
    [ "$($T display -p -t sus '#{alternate_on}')" = 0 ]
ok $? "^Z: evtop stopped, the shell's screen back"
$T send-keys -t sus "stty -a >$TMP/sa; mv $TMP/sa $TMP/safter" Enter
wait_file "$TMP/safter" && cmp -s "$TMP/sbefore" "$TMP/safter"
ok $? "^Z: the shell's tty settings back"
$T send-keys -t sus "fg" Enter
wait_for sus "F1Help" && wait_for sus "$n collections"
ok $? "fg: evtop redrawn"
$T send-keys -t sus q
wait_gone sus "F1Help"
ok $? "then q quits"
$T kill-session -t sus

# ----------------------------------------------------------------------
# Control keys over a Unix socket, with the fake producer.

FAKE=build/tests/ui/fakeprod	# made by `make check-e2e-ui`
if [ -x "$FAKE" ]; then
	"$FAKE" --unix "$TMP/s.sock" --linger 30000 --ctl "$TMP/ctl" \
	    "$FIX/heap-hc.eventlog" >"$TMP/fake.out" 2>&1 &
	fake=$!
	wait_file "$TMP/s.sock"
	start sock 80 24 "$EVTOP --unix $TMP/s.sock"
	wait_for sock "connected"
	tail_bar=$(screen sock | tail -1)
	echo "$tail_bar" | grep -qF "H/hHeap" && echo "$tail_bar" | grep -qF "cCensus"
	ok $? "socket: the bar shows the control keys"
	$T send-keys -t sock c
	wait_for sock "cmd: "
	ok $? "c: the header shows the command: $(screen sock | sed -n 3p)"
	want=$(printf '\360\236\227\214\000\017eventlog-socket\005' | od -An -tx1 | tr -d ' \n')
	_end=$(($(date +%s) + 10))
	while [ "$(od -An -tx1 "$TMP/ctl" 2>/dev/null | tr -d ' \n')" != "$want" ] &&
	    [ "$(date +%s)" -lt "$_end" ]; do
		sleep 0.05
	done
	[ "$(od -An -tx1 "$TMP/ctl" | tr -d ' \n')" = "$want" ]
	ok $? "c: the program received requestHeapCensus (F0 9E 97 8C 00 0F eventlog-socket 05)"
	$T send-keys -t sock +
	wait_for sock "replaying a file"
	ok $? "+ on a socket: says replay keys are for files"
	$T kill-session -t sock
	kill "$fake" 2>/dev/null
	wait "$fake" 2>/dev/null
else
	echo "SKIPPED: socket tests (no fake producer)"
fi

# ----------------------------------------------------------------------
# The timeline (8): the whole run with the reference's figures, the
# longest pause (l), zoom (i, o, f), the cursor, markers (m).

start tl 120 36 "$EVTOP --speed 0 $FIX/gc.eventlog"
wait_for tl "done"
$T send-keys -t tl 8
wait_for tl " 8 Timeline"
n=$(jnum "$TMP/gc.json" gc collections)
max=$($FMT ns "$(jnum "$TMP/gc.json" gc pause_max_ns)")
wait_for tl "$n GC pauses (longest $max)"
ok $? "8: the timeline of the whole run, $n pauses, the longest $max"
screen tl >"$TMP/tl.1"
grep -q "^cap 0 " "$TMP/tl.1" && grep -q "^cap 1 " "$TMP/tl.1" &&
    grep -q "^GC " "$TMP/tl.1" && grep -q "^heap" "$TMP/tl.1" &&
    grep -q "^time " "$TMP/tl.1" && grep "^longest" "$TMP/tl.1" |
    grep -qF "▲$max"
ok $? "120x36: axis, caps, GC, heap; the longest pause marked ▲$max"
$T send-keys -t tl l
wait_for tl "GC pause $max"
ok $? "l: the cursor on the longest pause: $(screen tl | grep '^cursor')"
$T send-keys -t tl i i i
wait_for tl "x64"
ok $? "i i i: zoomed x64 at the cursor: $(screen tl | sed -n 4p)"
wait_for tl "GC pause $max"
ok $? "zoomed: the cursor still on the longest pause"
c1=$(screen tl | grep '^cursor' | awk '{print $2}')
$T send-keys -t tl Right Right Right
_end=$(($(date +%s) + 10))
while c2=$(screen tl | grep '^cursor' | awk '{print $2}'); [ "$c2" = "$c1" ] &&
    [ "$(date +%s)" -lt "$_end" ]; do sleep 0.05; done
[ "$c2" != "$c1" ]
ok $? "Right moves the cursor: $c1 to $c2"
$T send-keys -t tl o
wait_for tl "x16"
ok $? "o: zoomed out to x16"
$T send-keys -t tl f
wait_for tl "whole run"
ok $? "f: the whole run again"
$T send-keys -t tl q
wait_gone tl " 8 Timeline"
ok $? "q quits from the timeline"
$T kill-session -t tl 2>/dev/null

start tlm 200 60 "$EVTOP --speed 0 $FIX/messages.eventlog"
wait_for tlm "done"
$T send-keys -t tlm 8
wait_for tlm "12 markers"
grep_marks=$(screen tlm | grep '^marks')
echo "$grep_marks" | grep -qF "beta phase 3"
ok $? "200x60: 12 markers, labels in the marks row"
$T send-keys -t tlm Home m m
wait_for tlm "cursor 0.0033"
ok $? "Home m m: the cursor on the second marker (3.30 ms): $(screen tlm | grep '^cursor')"
$T kill-session -t tlm 2>/dev/null

# A frame goes out in a few writes, not one a cursor move (ncurses 6.4
# until the first ^Z: about 300 writes a second here, a packet each over
# ssh).  Counted by the kernel (/proc/PID/io) over 2 s of a replay drawing
# at 10 frames a second; the window is the measurement, hence the sleep.
start wr 120 40 "$EVTOP --speed 0.25 $FIX/ghc96-heap-hc.eventlog & echo \$! >$TMP/wpid; wait"
wait_file "$TMP/wpid"
wait_for wr "heap"
wpid=$(cat "$TMP/wpid")
w0=$(awk '/^syscw/ { print $2 }' "/proc/$wpid/io" 2>/dev/null)
sleep 2
w1=$(awk '/^syscw/ { print $2 }' "/proc/$wpid/io" 2>/dev/null)
[ -n "$w0" ] && [ -n "$w1" ] && [ $((w1 - w0)) -gt 0 ] && [ $((w1 - w0)) -lt 100 ]
ok $? "a replay drawing for 2 s: $((${w1:-0} - ${w0:-0})) writes to the terminal (under 100)"
$T kill-session -t wr 2>/dev/null

# A file cut short (a program killed): replayed up to the cut, and the
# header says why it stops there.
head -c 60000 $FIX/threads.eventlog >"$TMP/cut.eventlog"
start cut 200 40 "$EVTOP --speed 0 $TMP/cut.eventlog"
wait_for cut "done (truncated: the event at byte "
ok $? "a cut file: the header says where it stops: $(screen cut | sed -n 2p | cut -c1-110)"
$T kill-session -t cut 2>/dev/null

# A file damaged in the middle, at a long path: on a wide terminal the
# header's second row holds the whole reason (it was cut at half the row:
# 130 columns of 260); where it cannot, cut with a visible ellipsis, the
# path giving way first.
bad=$TMP/damaged-in-the-middle-by-sixteen-bytes-of-0xff.eventlog
cp $FIX/gc.eventlog "$bad"
printf '\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377' |
    dd of="$bad" bs=1 seek=$(($(wc -c <"$bad") / 2)) conv=notrunc 2>/dev/null
why=$($EVTOP --batch "$bad" 2>&1 >/dev/null | sed -n "s|^evtop: $bad: ||p" | head -1)
start dmg 260 40 "$EVTOP --speed 0 $bad"
wait_for dmg "done ("
row=$(screen dmg | sed -n 2p)
[ -n "$why" ] && echo "$row" | grep -qF "file $bad done ($why) " &&
    echo "$row" | grep -qF "event 0."
ok $? "260 columns: the whole damage reason ($why) and the times: $row"
$T resize-window -t dmg -x 64 -y 30
wait_gone dmg "($why)"
row=$(screen dmg | sed -n 2p)
echo "$row" | grep -qF "done (byte" && echo "$row" | grep -qF "…"
ok $? "64 columns: the reason cut with …: $row"
$T kill-session -t dmg 2>/dev/null

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
