#!/bin/bash
# tests/events/e2e.sh: pane 9, the raw events, driven through tmux at 80x24
# and 200x60: the lines shown are `evtop show`'s, Home, End, Up, Down,
# PgUp and PgDn move the cursor, / finds the first match after it (or says
# it is not found), n and N the next and the previous; the match is
# highlighted (reverse video in the escape codes).  Expected lines come
# from `evtop show` on the same file.  Polls the screen with deadlines; no
# bare sleeps.  Prints SKIPPED and passes without tmux.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

if ! command -v tmux >/dev/null 2>&1; then
	echo "SKIPPED: tmux is missing"
	exit 0
fi

EVTOP=./evtop
TMP=$(mktemp -d "${TMPDIR:-/tmp}/evtop-events.XXXXXX")
T="tmux -L evtopev$$ -f/dev/null"
trap '$T kill-server 2>/dev/null; rm -rf "$TMP"' 0
trap 'exit 1' 1 2 15
export LANG=C.UTF-8 LC_ALL=C.UTF-8
unset NO_COLOR
$T new-session -d -s keep -x 80 -y 24 "exec cat"

screen() {
	$T capture-pane -p -t "$1"
}

# shows SESSION TEXT [SECONDS]: poll until TEXT is on the screen.
shows() {
	local end=$((SECONDS + ${3:-15}))
	while [ $SECONDS -lt $end ]; do
		screen "$1" 2>/dev/null | grep -qF -- "$2" && return 0
		sleep 0.05
	done
	echo "# $1: timed out waiting for: $2" >&2
	screen "$1" 2>/dev/null | sed 's/^/#   |/' >&2
	return 1
}

# The first W-1 columns of line N (1-based) of the file's events.
line() {
	sed -n "$1p" "$TMP/lines" | cut -c1-$(($2 - 1))
}

run() {
	local f=$1 w=$2 h=$3 s=ev$2 n first second last q m1 m2 page
	$EVTOP show "$f" | sed -n '/^Events:$/,$p' | sed '1d;/^$/d' \
	    >"$TMP/lines"
	n=$(wc -l <"$TMP/lines")
	$T new-session -d -s $s -x $w -y $h "$EVTOP $f"
	ok "$w x $h: replay starts" shows $s "done"
	$T send-keys -t $s 9
	ok "$w x $h: 9 zooms the raw events" shows $s " 9 Raw events"

	$T send-keys -t $s Home
	first=$(line 1 $w)
	second=$(line 2 $w)
	ok "$w x $h: Home shows the first event" shows $s "$first"
	ok "$w x $h: the second follows it on the next row" \
	    bash -c "$T capture-pane -p -t $s | grep -A1 -F -- '$first' |
	    tail -1 | grep -qF -- '$second'"
	$T send-keys -t $s Down
	ok "$w x $h: Down: the cursor is the second event's time" \
	    shows $s "($(echo "$second" | cut -d: -f1) ns)"
	$T send-keys -t $s Up
	ok "$w x $h: Up: the first's again" \
	    shows $s "($(echo "$first" | cut -d: -f1) ns)"
	# A page is the body less the status row.
	page=$((h - 3 - 3))
	[ $w -ge 160 ] && page=$((h - 2 - 3))
	$T send-keys -t $s PgDn
	ok "$w x $h: PgDn moves the cursor a page on" \
	    bash -c "$T capture-pane -p -t $s | grep -qE -- '\\((\
$(sed -n "$((page - 1)),$((page + 3))p" "$TMP/lines" | cut -d: -f1 |
	    paste -sd'|')) ns\\)'"
	$T send-keys -t $s PgUp
	ok "$w x $h: PgUp back" \
	    shows $s "($(echo "$first" | cut -d: -f1) ns)"

	$T send-keys -t $s End
	last=$(line "$n" $w)
	ok "$w x $h: End shows the last event" shows $s "$last"
	ok "$w x $h: End: the cursor is its time" \
	    shows $s "($(echo "$last" | cut -d: -f1) ns)"

	# From the end, nothing after: said so.
	q=label
	$T send-keys -t $s / $q Enter
	ok "$w x $h: / after the last match: not found, said" \
	    shows $s "\"$q\" not found after"
	# From the start: the first and second lines with it.
	m1=$(grep -n -m1 -F -- "$q" "$TMP/lines" | cut -d: -f1)
	m2=$(grep -n -F -- "$q" "$TMP/lines" | sed -n 2p | cut -d: -f1)
	$T send-keys -t $s Home
	shows $s "$first" >/dev/null
	$T send-keys -t $s / Enter
	ok "$w x $h: / from the start finds the first match" \
	    shows $s "\"$q\" found at"
	ok "$w x $h: ... its line is shown" shows $s "$(line "$m1" $w)"
	ok "$w x $h: ... and the cursor is its time" \
	    shows $s "($(line "$m1" $w | cut -d: -f1) ns)"
	# Highlighted: the query in reverse video or colour on its line.
	ok "$w x $h: the match is highlighted" \
	    bash -c "$T capture-pane -e -p -t $s | grep -F -- \
	    '$(line "$m1" $w | cut -d: -f1):' | grep -qE $'\\e\\\\[[0-9;]*m$q'"
	$T send-keys -t $s n
	ok "$w x $h: n: the next match" \
	    shows $s "($(line "$m2" $w | cut -d: -f1) ns)"
	$T send-keys -t $s N
	ok "$w x $h: N: the one before" \
	    shows $s "($(line "$m1" $w | cut -d: -f1) ns)"
	$T send-keys -t $s N
	ok "$w x $h: N before the first: not found, said" \
	    shows $s "\"$q\" not found before"
	$T send-keys -t $s q
	$T kill-session -t $s 2>/dev/null
}

run tests/fixtures/threads.eventlog 80 24
run tests/fixtures/threads.eventlog 200 60
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
