#!/bin/bash
# damaged-tui.sh: live streams that go wrong, under the TUI, through tmux.
# Text in the stream (a program printing to the stdout its eventlog goes
# to): the header says so as a replayed file's says its damage (it said
# nothing live).  A FIFO with --once whose writer writes nothing: evtop
# ends, says why, exit 1 (it waited without end).  Prints SKIPPED
# without tmux.  EVTOP: the binary (./evtop).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
command -v tmux >/dev/null 2>&1 || { echo "SKIPPED: tmux is missing"; exit 0; }
EVTOP=${EVTOP:-./evtop}
T="tmux -L evdmg$$ -f/dev/null"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/evtop-damaged.XXXXXX")
trap '$T kill-server 2>/dev/null; rm -rf "$TMP"' 0
export LANG=C.UTF-8 LC_ALL=C.UTF-8

# gc.eventlog with text before its second block (byte 48986).
at=48986
{ head -c $at tests/fixtures/gc.eventlog; printf 'step 1\nstep 2\n'
  tail -c +$((at + 1)) tests/fixtures/gc.eventlog; } >$TMP/m.eventlog
want="byte $at: event tag 29556 not declared"	# (the row cuts the rest)

$T new-session -d -s file -x 200 -y 40 "$EVTOP --speed 0 $TMP/m.eventlog"
ok "a file: the header says where it is damaged" \
    screen_has file "done \\($want" 10
$T new-session -d -s live -x 200 -y 40 \
    "cat $TMP/m.eventlog | $EVTOP -; sleep 60"
ok "stdin: the header says it as the file's does" \
    screen_has live "^stdin - done \\(end of input after 97741 bytes\\) \\($want" 10

mkfifo $TMP/f
$T new-session -d -s fifo -x 200 -y 40 \
    "$EVTOP --once --fifo $TMP/f; echo evtop-exit=\$?; sleep 60"
screen_has fifo 'waiting for a writer' 10 >/dev/null
: >$TMP/f
ok "fifo --once, a writer that writes nothing: ends, exit 1" \
    screen_has fifo 'evtop-exit=1' 10
ok "... and says why" screen_has fifo \
    "evtop: $TMP/f: its writer closed it without writing anything" 2

echo "$passed passed, $failed failed"
[ $failed = 0 ]
