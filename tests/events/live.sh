#!/bin/bash
# tests/events/live.sh: pane 9, the raw events, over a live source's
# history, through tmux at 80x24 and 200x60.  tests/sources/fakeprod
# serves a 1 MB log (129 copies of tests/fixtures/messages.eventlog, 2 s of
# event time, markers in each) over a Unix socket in about 4 s, and keeps
# the connection open; evtop records what it reads (--record), and the
# expected lines are `evtop show` of that recording.
#
#  a. while the stream lasts, the pane shows the newest events and follows
#     them (the title's newest time grows; the last row is that event);
#  b. keys are answered within 50 ms while the stream lasts: Up, then Down
#     and Up in turn, each timed by evtop itself (its --log: every key
#     timed, median <= 50 ms, worst <= 150; see key_own in tests/lib.sh)
#     and through tmux, from before `tmux send-keys` to the first capture
#     that shows the cursor moved (the title's time in ns): median <= 100
#     ms (the harness's processes take 30-60 of it), worst <= 150;
#  c. the stream read, End: the last rows are the recording's last lines,
#     in order; Home: its first;
#  d. / finds a marker (the first after the cursor, as in the recording),
#     n the next, N the one before, N again says not found before; a
#     query no line holds is said not found;
#  e. with --history 0 the pane says that no history is kept;
#  f. q restores the terminal (tty settings, main screen, cursor, keypad).
#
# Every wait polls the screen with a deadline.  SKIPPED without tmux or
# python3.
#
# usage: live.sh [EVTOP FAKEPROD MKLOG]
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
EVTOP=${1:-./evtop}
FAKE=${2:-build/tests/sources/fakeprod}
MKLOG=${3:-build/bench/mklog}

for tool in tmux python3; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "SKIPPED: $tool is missing"
		exit 0
	fi
done
for f in "$EVTOP" "$FAKE" "$MKLOG"; do
	[ -x "$f" ] || { echo "live.sh: $f is not built" >&2; exit 1; }
done
T="tmux -L evlivep$$ -f/dev/null"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/evtop-events-live.XXXXXX")
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
T0=$SECONDS
$T new-session -d -s keep -x 80 -y 24 "exec cat"

# serve NAME FILE: fakeprod serves FILE on $TMP/NAME.sock, slowly, the
# connection kept open after the last byte.
serve() {
	local end=$((SECONDS + 11))
	rm -f "$TMP/$1.sock"
	"$FAKE" --unix "$TMP/$1.sock" --linger 300000 --chunk 4096 \
	    --delay-us 15000 "$2" >"$TMP/$1.fake" 2>&1 &
	fakes="$fakes $!"
	while [ ! -S "$TMP/$1.sock" ] && [ $SECONDS -lt $end ]; do
		sleep 0.02
	done
	[ -S "$TMP/$1.sock" ]
}
# start SESSION W H EVTOP-ARGS...: evtop in tmux, from a shell that saves
# the tty settings before it and after it.
start() {
	local s=$1 w=$2 h=$3
	shift 3
	$T new-session -d -s "$s" -x "$w" -y "$h" "stty -a >$TMP/$s.before; \
	    $EVTOP $* --unix $TMP/$s.sock --log $TMP/$s.log; echo \$? >$TMP/$s.st; \
	    stty -a >$TMP/$s.a; mv $TMP/$s.a $TMP/$s.after; echo EXITED; \
	    exec cat"
}
# quit SESSION: q, then exit status 0 and the terminal as it was.
quit() {
	local end=$((SECONDS + 11))
	$T send-keys -t "$1" q
	screen_has "$1" '^EXITED' 10 || return 1
	while [ ! -e "$TMP/$1.after" ] && [ $SECONDS -lt $end ]; do
		sleep 0.02
	done
	eq "$(cat "$TMP/$1.st")" 0 || return 1
	cmp -s "$TMP/$1.before" "$TMP/$1.after" || {
		diff "$TMP/$1.before" "$TMP/$1.after" | sed 's/^/#   /' >&2
		return 1
	}
	eq "$($T display -p -t "$1" \
	    '#{alternate_on}#{cursor_flag}#{keypad_cursor_flag}')" 010 &&
	    ! grep -q 'F1Help' "$TMP/$1.screen"
}
# title_ns SESSION: the ns of the pane's title (newest or cursor).
title_ns() {
	sed -nE 's/^ 9 Raw events +[a-z]+ [0-9.hms]+ +\(([0-9]+) ns\).*/\1/p' \
	    "$TMP/$1.screen" | head -1
}
# within SECONDS CMD...: poll until CMD succeeds, quietly, then once more
# aloud.
within() {
	local end=$((SECONDS + $1))
	shift
	while [ $SECONDS -lt $end ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.05
	done
	"$@"
}
# newer SESSION NS: the title's newest time is later than NS.
newer() {
	screen_has "$1" '^ 9 Raw events +newest ' 1 && [ -n "$(title_ns "$1")" ] &&
	    [ "$(title_ns "$1")" -gt "$2" ]
}
# last_row SESSION: the last row of the body is the title's event.
last_row() {
	grep -B2 -E '^F1Help' "$TMP/$1.screen" | head -1 |
	    grep -q "^$(title_ns "$1"):"
}
# recorded SESSION: the recording holds the whole log.
recorded() {
	[ "$(stat -c %s "$TMP/$1.rec" 2>/dev/null)" = "$size" ]
}
# shows SESSION WHICH W: the title says WHICH (newest, cursor) and the
# rows are the recording's last (newest) or first (cursor) lines.
shows() {
	screen_has "$1" "^ 9 Raw events +$2 " 1 &&
	    rows $([ $2 = newest ] && echo last || echo first) "$1" "$3"
}

# The checker: the pane's body rows against the recording's lines, each
# up to its first non-ASCII character and the width less one.
cat >$TMP/rows.py <<'EOF'
import sys

def cut(s, w):
    for i, c in enumerate(s):
        if ord(c) >= 0x80:
            return s[:i]
    return s[:w - 1]

def body(path):
    rows = open(path, encoding="utf-8", errors="replace").read().split("\n")
    while rows and rows[-1] == "":
        rows.pop()
    for i, r in enumerate(rows):
        if r.startswith(" 9 Raw events"):
            return rows[i + 1:len(rows) - 2]	# less the status and keys
    return []

def main():
    cmd, screen, lines, w = sys.argv[1], sys.argv[2], sys.argv[3], \
        int(sys.argv[4])
    want = [l for l in open(lines, encoding="utf-8",
            errors="replace").read().split("\n") if l != ""]
    got = body(screen)
    if not got:
        print("no body on the screen")
        return 1
    ours = want[-len(got):] if cmd == "last" else want[:len(got)]
    bad = [(i, g, o) for i, (g, o) in enumerate(zip(got, ours))
           if not g.startswith(cut(o, w))]
    if len(ours) != len(got) or bad:
        print("%d of %d rows differ; first: row %d %r, want %r" % (len(bad),
              len(got), bad[0][0], bad[0][1][:60], bad[0][2][:60])
              if bad else "%d rows, %d lines" % (len(got), len(ours)))
        return 1
    return 0

sys.exit(main())
EOF
rows() {	# last|first SESSION W: the body is the recording's last/first
	"$EVTOP" show "$TMP/$2.rec" 2>/dev/null | sed -n '/^Events:$/,$p' |
	    sed '1d' >"$TMP/$2.lines"
	python3 "$TMP/rows.py" "$1" "$TMP/$2.screen" "$TMP/$2.lines" "$3"
}

# The key driver: Up, then Down and Up in turn while the stream lasts,
# each timed to the first capture whose title time (ns) differs from the
# one before.  Prints "keys N median MS worst MS same S".
cat >$TMP/keys.py <<'EOF'
import re, subprocess, sys, time

sock, sess, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
tm = ["tmux", "-L", sock]
pat = re.compile(r"^ 9 Raw events +[a-z]+ \S+ +\((\d+) ns\)", re.M)

def ns():
    s = subprocess.run(tm + ["capture-pane", "-p", "-t", sess],
                       capture_output=True, text=True).stdout
    m = pat.search(s)
    return m.group(1) if m else None

lat, same = [], 0
key = "Up"
for i in range(n):
    before = ns()
    t0 = time.monotonic()
    subprocess.run(tm + ["send-keys", "-t", sess, key])
    while True:
        now = ns()
        if now is not None and now != before:
            lat.append(time.monotonic() - t0)
            break
        if time.monotonic() - t0 > 1:
            same += 1		# two events at the same ns, or no answer
            break
    key = "Down" if key == "Up" else "Up"
    time.sleep(0.1)
s = sorted(lat)
print("keys %d median %.0f worst %.0f same %d" % (len(s),
      s[len(s) // 2] * 1e3 if s else -1, s[-1] * 1e3 if s else -1, same))
EOF

"$MKLOG" tests/fixtures/messages.eventlog "$TMP/msgs.eventlog" 1 \
    >/dev/null 2>&1 || exit 1
size=$(stat -c %s "$TMP/msgs.eventlog")
q="beta phase 2"

for geom in 80x24 200x60; do
	s=l$geom
	w=${geom%x*}
	h=${geom#*x}
	serve $s "$TMP/msgs.eventlog" ||
	    { ok "$geom: fakeprod serves the log" false; continue; }
	start $s $w $h --record "$TMP/$s.rec"
	ok "$geom: connected" screen_has $s 'unix .* connected' 15
	$T send-keys -t $s 9
	# a. The newest, followed.
	ok "$geom: 9: the newest events of the history" \
	    screen_has $s '^ 9 Raw events +newest ' 10
	n0=$(title_ns $s)
	ok "$geom: ... followed as they come (newest at $n0 ns, then later)" \
	    within 10 newer $s "${n0:-0}"
	ok "$geom: ... the last row is the newest event" \
	    within 5 eval "screen_has $s '^ 9 Raw events +newest ' 1 && last_row $s"
	# b. Keys while the stream lasts.
	k0=$(wc -l <"$TMP/$s.log")
	res=$(python3 $TMP/keys.py evlivep$$ $s 12)
	echo "# $geom: $res"
	set -- $res
	ok "$geom: $2 keys answered while reading through tmux, median $4 ms (<= 100), worst $6 ms (<= 150)" \
	    eval "[ \"$2\" -ge 6 ] && [ \"$4\" -le 100 ] && [ \"$6\" -le 150 ]"
	own=$(tail -n +$((k0 + 1)) "$TMP/$s.log" | key_own)
	ok "$geom: ... evtop's own times for them (--log): $own" \
	    key_own_ok "$own" "$2"
	# c. The whole stream read: End, Home.
	ok "$geom: the whole log read ($size bytes recorded)" \
	    within 20 recorded $s
	$T send-keys -t $s End
	ok "$geom: End: the newest, followed; the rows are the recording's last lines, in order" \
	    within 10 shows $s newest $w
	$T send-keys -t $s Home
	ok "$geom: Home: the rows are the recording's first lines" \
	    within 10 shows $s cursor $w
	# d. / n N over the history.
	grep -n -F -- "$q" "$TMP/$s.lines" | head -2 | cut -d: -f2 \
	    >"$TMP/$s.marks"
	m1=$(sed -n 1p "$TMP/$s.marks")
	m2=$(sed -n 2p "$TMP/$s.marks")
	$T send-keys -t $s / "$q" Enter
	ok "$geom: / finds \"$q\" at its first time ($m1 ns)" \
	    screen_has $s "\"$q\" found at .*\\($m1 ns\\)" 10
	ok "$geom: ... its line shown" screen_has $s "^$m1: cap 1: marker: $q" 5
	$T send-keys -t $s n
	ok "$geom: n: the next ($m2 ns)" \
	    screen_has $s "\"$q\" found at .*\\($m2 ns\\)" 10
	$T send-keys -t $s N
	ok "$geom: N: the one before ($m1 ns)" \
	    screen_has $s "\"$q\" found at .*\\($m1 ns\\)" 10
	$T send-keys -t $s N
	ok "$geom: N again: not found before, said" \
	    screen_has $s "\"$q\" not found before" 10
	$T send-keys -t $s / C-u "zq-in-no-line" Enter
	ok "$geom: a query no line holds: not found, said" \
	    screen_has $s '"zq-in-no-line" not found after' 10
	ok "$geom: q restores the terminal" quit $s
	$T kill-session -t $s 2>/dev/null
done

# e. No history kept.
s=none
serve $s "$TMP/msgs.eventlog"
start $s 80 24 --history 0
ok "--history 0: connected" screen_has $s 'unix .* connected' 15
$T send-keys -t $s 9
ok "--history 0: 9 says that no history is kept" \
    screen_has $s 'no history kept \(--history 0\)' 10
ok "--history 0: q restores the terminal" quit $s

echo "# $((SECONDS - T0)) s"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
