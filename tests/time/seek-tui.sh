#!/bin/bash
# seek-tui.sh: g in the TUI, through tmux.  After `g 0.2s` on a replay the
# header says event 0.200s and the replay is held; the GC pane's count
# (its 10 s window holds the whole 0.2 s) equals `evtop --batch --json
# --from 0 --to 0.2s`; `g end` shows the last event's time and the whole
# run's count; a time past the end is the end, said; `g -0.1s` goes
# back; P goes on from there; a bad time is said and changes nothing;
# without checkpoints ($TMPDIR unusable), g says why.  Prints SKIPPED
# without tmux.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
command -v tmux >/dev/null 2>&1 || { echo "SKIPPED: tmux is missing"; exit 0; }
command -v jq >/dev/null 2>&1 || { echo "SKIPPED: jq is missing"; exit 0; }
T="tmux -L evseek$$ -f/dev/null"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/evtop-seek.XXXXXX")
trap '$T kill-server 2>/dev/null; rm -rf "$TMP"' 0
export LANG=C.UTF-8 LC_ALL=C.UTF-8
log=tests/fixtures/gc.eventlog

# go TEXT: g, TEXT typed as it is, Enter.
go() {
	$T send-keys -t s g
	$T send-keys -t s -l -- "$1"
	$T send-keys -t s Enter
}
collections() {	# from the GC pane's title on the last screen
	sed -nE 's/.* 2 GC +([0-9]+) collections.*/\1/p' "$TMP/s.screen" | head -1
}

$T new-session -d -s s -x 120 -y 40 "./evtop $log"
ok "the replay starts" screen_has s 'event [0-9]' 10
$T send-keys -t s g
ok "g asks for a time" screen_has s 'Go to time: ' 5
$T send-keys -t s -l 0.2s
$T send-keys -t s Enter
ok "g 0.2s: the header is at 0.200s, the replay held" \
    screen_has s 'event 0\.200s.*|paused' 5
screen_has s 'event 0\.200s' 5 >/dev/null
want=$(./evtop --batch --json --from 0 --to 0.2s $log | tail -1 |
    jq .gc.collections)
ok "the GC pane counts the collections before 0.2 s ($want)" \
    eq "$(collections)" "$want"
go end
all=$(./evtop --batch --json $log | tail -1 | jq .gc.collections)
ok "g end: all $all collections" screen_has s " 2 GC +$all collections" 5
go 0.2s
screen_has s 'event 0\.200s' 5 >/dev/null
go 99999h
ok "g past the last event: said, the end" screen_has s 'past the last event' 5
ok "... all $all collections, 100%" screen_has s " 2 GC +$all collections" 5
$T capture-pane -p -t s | grep -q 'event 99999h'
ok "... not a time after the end" eq $? 1
go -0.1s
ok "g -0.1s goes back" screen_has s "event 0\.3[0-9][0-9]s" 5
go 12x
ok "a bad time is said" screen_has s 'is not a time' 5
ok "and the display stays where it was" screen_has s "event 0\.3[0-9][0-9]s" 2
$T send-keys -t s P
ok "P goes on from there" screen_has s "event 0\.4[0-9][0-9]s|replayed" 10
# A range: [ at 0.1 s, ] at 0.3 s.
go 0.1s
screen_has s 'event 0\.100s' 5 >/dev/null
$T send-keys -t s '['
ok "[ marks a range's start" screen_has s 'range starts here' 5
go 0.3s
screen_has s 'event 0\.300s' 5 >/dev/null
$T send-keys -t s ']'
ok "] shows the range in the header" \
    screen_has s 'range 0\.100s-0\.300s \(Esc: back\)' 5
want=$(./evtop --batch --json --from 0.1s --to 0.3s $log | tail -1 |
    jq .gc.collections)
ok "the GC pane counts the range's collections ($want)" \
    screen_has s " 2 GC +$want collections .*\(range\)" 5
$T send-keys -t s Escape
ok "Esc leaves the range, held at its end" \
    screen_has s 'event 0\.300s' 5
$T send-keys -t s q
# No checkpoints to be had ($TMPDIR unusable): g says why.
$T kill-session -t s 2>/dev/null
$T new-session -d -s s -x 120 -y 40 "TMPDIR=$TMP/none ./evtop $log"
screen_has s 'event [0-9]' 10 >/dev/null
$T send-keys -t s g
ok "no checkpoints: g says why" screen_has s "g: no seeking: .*$TMP/none" 5
$T send-keys -t s q
echo "$passed passed, $failed failed"
[ $failed = 0 ]
