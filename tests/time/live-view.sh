#!/bin/bash
# live-view.sh: g on a live source, through tmux.  evtop's TUI reads a real
# log (tests/fixtures/gc.eventlog, or a longer one mklog makes from it)
# served over a Unix socket by tests/sources/fakeprod, which keeps the
# connection open afterwards (--linger), at 80x24 and at 200x60:
#
#  a. `g 0.2s`: the header says `past 0.200s (e: now)` and the GC pane's
#     collections equal `evtop --batch --json --from 0 --to 0.2s` on the
#     same file;
#  b. reading goes on meanwhile: the producer is slow and the header's
#     byte count keeps growing up to the whole file while the figures stay
#     at 0.2 s; after `e` the header says `event` again and the figures
#     catch up with the whole file's (`evtop --batch --json`);
#  c. with --history-size 1 (MiB) and a 4 MB log read whole, `g 0.2s` (long
#     gone from the history) is refused at the bottom and changes nothing,
#     where `g -1s` (kept) is taken;
#  d. with --history 0, `g` says that no history is kept and changes
#     nothing;
#  e. q restores the terminal (tty settings, main screen, cursor, keypad),
#     also while the display is held in the past.
#
# Every wait polls the screen with a deadline.  Prints SKIPPED without tmux
# or jq.
#
# usage: live-view.sh [EVTOP FAKEPROD MKLOG UIFMT]
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
EVTOP=${1:-./evtop}
FAKE=${2:-build/tests/sources/fakeprod}
MKLOG=${3:-build/bench/mklog}
FMT=${4:-build/tests/ui/uifmt}
command -v tmux >/dev/null 2>&1 || { echo "SKIPPED: tmux is missing"; exit 0; }
command -v jq >/dev/null 2>&1 || { echo "SKIPPED: jq is missing"; exit 0; }
T="tmux -L evlive$$ -f/dev/null"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/evtop-live-view.XXXXXX")
fakes=
cleanup() {
	$T kill-server 2>/dev/null
	for p in $fakes; do kill "$p" 2>/dev/null; done
	rm -rf "$TMP"
}
trap cleanup 0
trap 'exit 1' 1 2 15
export LANG=C.UTF-8 LC_ALL=C.UTF-8
unset NO_COLOR
# A session that stays, so that the server never empties between tests.
$T new-session -d -s keep -x 80 -y 24 "exec cat"

# go SESSION TEXT: g, TEXT typed as it is, Enter.
go() {
	$T send-keys -t "$1" g
	$T send-keys -t "$1" -l -- "$2"
	$T send-keys -t "$1" Enter
}
# From the last screen of SESSION: the GC pane's collections (its title),
# the header's time (`event 1.234s` or `past 1.234s`), the bytes read as
# the header writes them, and the bottom line.  The header is three rows,
# or two from 160 columns (source and time on the second).
collections() {
	sed -nE 's/.* 2 GC +([0-9]+) collections.*/\1/p' "$TMP/$1.screen" | head -1
}
when() {
	head -3 "$TMP/$1.screen" | grep -Eo '(event|past) [0-9.]+s' | head -1
}
bytes_shown() {
	head -3 "$TMP/$1.screen" | grep -Eo '[0-9.]+[BKMGTPE] read' |
	    sed 's/ read//'
}
bottom() {
	tail -1 "$TMP/$1.screen"
}
# bytes TEXT: the header's byte count as a number (about).
bytes() {
	echo "$1" | awk '{ v = $0 + 0; u = substr($0, length($0));
	    i = index("BKMGTPE", u); while (--i > 0) v *= 1024; printf "%d\n", v }'
}
# count_is SESSION N SECONDS: poll until the GC pane counts N.
count_is() {
	local end=$((SECONDS + $3 + 1))
	while [ $SECONDS -lt $end ]; do
		$T capture-pane -p -t "$1" >"$TMP/$1.screen" 2>/dev/null
		[ "$(collections "$1")" = "$2" ] && return 0
		sleep 0.05
	done
	echo "# $1: the GC pane counts '$(collections "$1")', not $2; the screen:" >&2
	sed 's/^/#   |/' "$TMP/$1.screen" >&2
	return 1
}
# bytes_grow SESSION FROM SECONDS: poll until the header's count of bytes
# read is above FROM (bytes).
bytes_grow() {
	local end=$((SECONDS + $3 + 1)) b
	while [ $SECONDS -lt $end ]; do
		$T capture-pane -p -t "$1" >"$TMP/$1.screen" 2>/dev/null
		b=$(bytes_shown "$1")
		[ -n "$b" ] && [ "$(bytes "$b")" -gt "$2" ] && return 0
		sleep 0.05
	done
	echo "# $1: the bytes read stay at '$(bytes_shown "$1")'" >&2
	return 1
}
# held SESSION TIME N: the last screen still shows the past at TIME and N
# collections.
held() {
	eq "$(when "$1")" "past $2" && eq "$(collections "$1")" "$3"
}

# serve NAME FILE FAKEPROD-OPTIONS...: fakeprod serves FILE on
# $TMP/NAME.sock, the connection kept open after the last byte.
serve() {
	local name=$1 file=$2 end=$((SECONDS + 11))
	shift 2
	rm -f "$TMP/$name.sock"
	"$FAKE" --unix "$TMP/$name.sock" --linger 300000 "$@" "$file" \
	    >"$TMP/$name.fake" 2>&1 &
	fakes="$fakes $!"
	while [ ! -S "$TMP/$name.sock" ] && [ $SECONDS -lt $end ]; do
		sleep 0.02
	done
	[ -S "$TMP/$name.sock" ]
}
# start SESSION W H EVTOP-ARGS...: evtop on $TMP/SESSION.sock in tmux, from
# a shell that saves the tty settings before it and after it.
start() {
	local s=$1 w=$2 h=$3
	shift 3
	$T new-session -d -s "$s" -x "$w" -y "$h" "stty -a >$TMP/$s.before; \
	    $EVTOP $* --unix $TMP/$s.sock; stty -a >$TMP/$s.a; \
	    mv $TMP/$s.a $TMP/$s.after; echo EXITED; exec cat"
}
# quit SESSION: q, then the terminal is as it was before evtop.
quit() {
	local end=$((SECONDS + 11))
	$T send-keys -t "$1" q
	screen_has "$1" '^EXITED' 10 || return 1
	while [ ! -e "$TMP/$1.after" ] && [ $SECONDS -lt $end ]; do
		sleep 0.02
	done
	cmp -s "$TMP/$1.before" "$TMP/$1.after" || {
		diff "$TMP/$1.before" "$TMP/$1.after" | sed 's/^/#   /' >&2
		return 1
	}
	eq "$($T display -p -t "$1" \
	    '#{alternate_on}#{cursor_flag}#{keypad_cursor_flag}')" 010 &&
	    ! grep -q 'F1Help' "$TMP/$1.screen"
}
# run_window SESSION: zoom the GC pane (2) and set its window to the whole
# run (w until the title says so), so that its count is the whole run's.
run_window() {
	local i
	$T send-keys -t "$1" 2
	screen_has "$1" '^ 2 GC ' 10 || return 1
	for i in 1 2 3; do
		$T send-keys -t "$1" w
		screen_has "$1" '^ 2 GC .*\(run\)' 2 2>/dev/null && return 0
	done
	screen_has "$1" '^ 2 GC .*\(run\)' 1
}

for f in "$EVTOP" "$FAKE" "$MKLOG" "$FMT"; do
	[ -x "$f" ] || { echo "live-view.sh: $f is not built" >&2; exit 1; }
done
fix=tests/fixtures/gc.eventlog
# A log of 9.5 s of event time (2 MB), read in about 5 s; one of 19 s (4 MB)
# for the bounded history.
"$MKLOG" $fix "$TMP/2m.eventlog" 2 >/dev/null || exit 1
"$MKLOG" $fix "$TMP/4m.eventlog" 4 >/dev/null || exit 1
batch() {	# FILE [ARGS]: gc.collections of the last line
	"$EVTOP" --batch --json "${@:2}" "$1" | tail -1 | jq .gc.collections
}

# a, b, e: at each size, g 0.2s while a slow producer goes on.
log=$TMP/2m.eventlog
want=$(batch $log --from 0 --to 0.2s)
all=$(batch $log)
size=$($FMT bytes "$(stat -c %s $log)")
for geom in 80x24 200x60; do
	s=v$geom
	serve $s $log --chunk 8192 --delay-us 20000 ||
	    { ok "$geom: fakeprod serves the log" false; continue; }
	start $s "${geom%x*}" "${geom#*x}"
	ok "$geom: connected" screen_has $s 'unix .* connected' 15
	ok "$geom: the GC pane's window is the whole run" run_window $s
	if [ $geom = 200x60 ]; then
		$T send-keys -t $s 0
		screen_has $s '^ 1 Capabilities' 5 >/dev/null
		ok "$geom: 0, the overview, the GC pane still over the whole run" \
		    screen_has $s ' 2 GC .*\(run\)' 5
	fi
	# The history holds 0.2 s once an event after it has been shown.
	screen_has $s 'event ([1-9]|0\.[3-9])[0-9.]*s' 15 >/dev/null
	go $s 0.2s
	ok "$geom: g 0.2s: the header says past 0.200s (e: now)" \
	    screen_has $s 'past 0\.200s \(e: now\)' 10
	ok "$geom: the GC pane counts the collections before 0.2 s ($want)" \
	    count_is $s "$want" 5
	b0=$(bytes "$(bytes_shown $s)")
	ok "$geom: reading goes on meanwhile (the bytes read grow from $(bytes_shown $s))" \
	    bytes_grow $s "$b0" 15
	ok "$geom: and the display stays at 0.2 s" held $s 0.200s "$want"
	ok "$geom: the whole log read ($size), still in the past" \
	    screen_has $s " $size read" 60
	ok "$geom: and the display still at 0.2 s" held $s 0.200s "$want"
	$T send-keys -t $s e
	ok "$geom: e: the header says event again" \
	    screen_has $s '(^|  )event [0-9.]+s( |$)' 10
	ok "$geom: the figures catch up with the whole log's ($all collections)" \
	    count_is $s "$all" 30
	ok "$geom: q restores the terminal" quit $s
	$T kill-session -t $s 2>/dev/null
done

# c: a 4 MB log read whole with 1 MiB of history: 0.2 s is long gone.
log=$TMP/4m.eventlog
all=$(batch $log)
size=$($FMT bytes "$(stat -c %s $log)")
s=small
serve $s $log
start $s 80 24 --history-size 1
ok "history 1 MiB: connected" screen_has $s 'unix .* connected' 15
run_window $s >/dev/null
ok "history 1 MiB: the whole log read ($size, $all collections)" \
    screen_has $s " $size read" 60
count_is $s "$all" 30 >/dev/null
now=$(when $s)
go $s 0.2s
ok "history 1 MiB: g 0.2s is refused: that is before the history kept" \
    screen_has $s 'before the history kept' 5
echo "# where it is said: $(grep -n 'before the history' "$TMP/$s.screen")"
ok "history 1 MiB: and nothing changes ($now, $all collections)" \
    eval 'eq "$(when $s)" "$now" && eq "$(collections $s)" "$all"'
# -1s from the last event shown (the end): kept.
end_ns=$("$EVTOP" --batch --json $log | tail -1 | jq .time_ns)
t=$(((end_ns - 1000000000) / 1000000000)).$(printf %09d $(((end_ns - 1000000000) % 1000000000)))
want=$(batch $log --from 0 --to $t)
shown=$(LC_ALL=C printf %.3f $t)
go $s -1s
ok "history 1 MiB: g -1s, in the history, is taken (past ${shown}s)" \
    screen_has $s "past ${shown}s \\(e: now\\)" 10
ok "history 1 MiB: the GC pane counts the collections before it ($want)" \
    count_is $s "$want" 5
$T send-keys -t $s e
ok "history 1 MiB: e comes back to the end ($now, $all collections)" \
    eval 'screen_has $s "(^|  )$now( |\$)" 10 && count_is $s "$all" 30'
go $s -1s
screen_has $s "past ${shown}s \\(e: now\\)" 10 >/dev/null
ok "history 1 MiB: q, held in the past, restores the terminal" quit $s
$T kill-session -t $s 2>/dev/null

# e: a range of the history, [ and ], while the source is still open.
log=$TMP/2m.eventlog
want=$(batch $log --from 0.3s --to 0.6s)
s=range
serve $s $log
start $s 80 24
ok "range: connected" screen_has $s 'unix .* connected' 15
run_window $s >/dev/null
screen_has $s 'event ([1-9]|0\.[7-9])[0-9.]*s' 30 >/dev/null
go $s 0.3s
screen_has $s 'past 0\.300s' 10 >/dev/null
$T send-keys -t $s '['
go $s 0.6s
screen_has $s 'past 0\.600s' 10 >/dev/null
$T send-keys -t $s ']'
ok "range: [ at 0.3s, ] at 0.6s: the header says the range" \
    screen_has $s 'range 0\.300s-0\.600s \(Esc: back\)' 10
ok "range: the GC pane counts the collections in it ($want)" \
    count_is $s "$want" 5
$T send-keys -t $s Escape
ok "range: Esc holds at its end without it" \
    screen_has $s 'past 0\.600s \(e: now\)' 10
ok "range: q restores the terminal" quit $s
$T kill-session -t $s 2>/dev/null

# d: --history 0 keeps none.
s=none
all=$(batch $fix)
serve $s $fix
start $s 80 24 --history 0
ok "history 0: connected" screen_has $s 'unix .* connected' 15
count_is $s "$all" 30 >/dev/null
now=$(when $s)
# g alone: there is no time to ask for (what would follow it are keys).
$T send-keys -t $s g
ok "history 0: g says at the bottom that no history is kept" \
    eval 'screen_has $s "no history is kept" 5 &&
    tail -1 "$TMP/$s.screen" | grep -q "no history is kept"'
echo "# the bottom line: $(bottom $s)"
ok "history 0: and nothing changes ($now, $all collections)" \
    eval 'eq "$(when $s)" "$now" && eq "$(collections $s)" "$all"'
ok "history 0: q restores the terminal" quit $s
$T kill-session -t $s 2>/dev/null

echo "$passed passed, $failed failed"
[ $failed = 0 ]
