#!/bin/bash
# changed-tui.sh: a replayed file that changes under the TUI, through tmux.
# Cut short after the replay, `g` reads no byte beyond its end (that was a
# SIGBUS: the crash handlers had taken the reader's guard): it says the file
# shrank, seeking is off, and the figures shown stay; the raw events pane
# (9), opened before, says it ends early at End.  Written over in place (a
# program run again), the same: the figures stay, the header says why, and
# every later `g` too (it went to an empty model, "seek failed").  And
# /dev/zero (not a file, not an eventlog) is refused at once.  Prints
# SKIPPED without tmux.  EVTOP: the binary (./evtop).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
command -v tmux >/dev/null 2>&1 || { echo "SKIPPED: tmux is missing"; exit 0; }
EVTOP=${EVTOP:-./evtop}
T="tmux -L evchg$$ -f/dev/null"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/evtop-changed.XXXXXX")
trap '$T kill-server 2>/dev/null; rm -rf "$TMP"' 0
export LANG=C.UTF-8 LC_ALL=C.UTF-8
log=$TMP/x.eventlog
all=$($EVTOP --batch --json tests/fixtures/gc.eventlog | tail -1 |
    sed -nE 's/.*"collections":([0-9]+).*/\1/p')

# go TEXT: g, TEXT typed as it is, Enter.
go() {
	$T send-keys -t "$1" g
	$T send-keys -t "$1" -l -- "$2"
	$T send-keys -t "$1" Enter
}
# start SESSION: a replay of $log at max speed, done; the exit status is
# printed when it ends.
start() {
	$T new-session -d -s "$1" -x 120 -y 40 \
	    "$EVTOP --speed 0 $log; echo evtop-exit=\$?; sleep 60"
	screen_has "$1" 'done max speed' 10 >/dev/null
}
# quits SESSION: q ends it as it should.
quits() {
	$T send-keys -t "$1" q
	screen_has "$1" 'evtop-exit=0' 5
}

# Cut short, then g.
cp tests/fixtures/gc.eventlog "$log"
start a
truncate -s 20000 "$log"
go a 0.2s
ok "shrunk: g says so" screen_has a 'the file shrank since it was read: no seeking' 5
ok "... and the figures shown stay ($all collections)" \
    screen_has a " 2 GC +$all collections" 2
go a 0.1s
ok "... as after every g" screen_has a 'cmd: g: the file shrank' 5
ok "... no crash" quits a

# The raw events pane open, then cut short: Home, End.
cp tests/fixtures/gc.eventlog "$log"
start b
$T send-keys -t b 9
screen_has b 'Raw events' 5 >/dev/null
truncate -s 20000 "$log"
$T send-keys -t b Home
$T send-keys -t b End
ok "shrunk under pane 9: End says the file ends early" \
    screen_has b 'the file ends early: the file shrank' 5
ok "... no crash" quits b

# Written over in place by another run (a longer log).
cp tests/fixtures/gc.eventlog "$log"
start c
cat tests/fixtures/prof.eventlog >"$log"
go c 0.2s
ok "written over: the header says so" \
    screen_has c 'done \(the file was written over since it was read: no seeking\)' 5
ok "... the figures shown stay ($all collections)" \
    screen_has c " 2 GC +$all collections" 2
ok "... the program stays" screen_has c '^evtop \./gc ' 2
go c 0.3s
ok "... a g again: the same" screen_has c 'cmd: g: the file was written over' 5
ok "... still $all collections" screen_has c " 2 GC +$all collections" 2
ok "... no crash" quits c

# Not a file at all: a device with no eventlog header, refused at once
# (the screen stayed blank, the terminal cooked, reading without end).
$T new-session -d -s d -x 120 -y 40 \
    "$EVTOP /dev/zero; echo evtop-exit=\$?; sleep 60"
ok "/dev/zero: refused, exit 1" screen_has d 'evtop-exit=1' 10
ok "... not an eventlog, said" screen_has d \
    '/dev/zero: not an eventlog: no header in its first' 2

echo "$passed passed, $failed failed"
[ $failed = 0 ]
