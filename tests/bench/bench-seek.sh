#!/usr/bin/env bash
# bench-seek.sh: time travel on a real 400+ MB log in a real terminal
# (tmux, 200x60): how long the first pass takes (against `--batch` on the
# same log), how long from a `g` key to the redrawn screen at the target,
# at times spread over the run, and evtop's peak RSS with the file open and
# the seeks done.  Targets (issue 12): a seek within 250 ms, RSS under
# 64 MB, the pass no slower than --batch.
#
#   tests/bench/bench-seek.sh EVTOP LOG
set -eu
EVTOP=$1 LOG=$2
command -v tmux >/dev/null || { echo "SKIPPED: bench-seek: tmux not installed"; exit 0; }
T=$(mktemp -d /tmp/evtop-bseek.XXXXXX)
TM="tmux -L evtop-bseek$$ -f /dev/null"
trap '$TM kill-server 2>/dev/null || true; rm -rf $T' EXIT
name=$(basename "$LOG")
now() { date +%s.%N; }
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }

b0=$(now)
"$EVTOP" --batch --json "$LOG" >$T/batch.json
b1=$(now)
last=$(tail -n 1 $T/batch.json | sed -E 's/.*"time_ns":([0-9]+).*/\1/;q')

$TM new -d -x 200 -y 60 "$EVTOP $LOG; sleep 600"
pid=""
for _ in $(seq 500); do
	pid=$(pgrep -n -f "^$EVTOP $LOG" || true)
	[ -n "$pid" ] && break
	sleep 0.01
done
p0=$(now)
for _ in $(seq 12000); do
	$TM capture-pane -p | grep -q 'event [0-9]' && break
	sleep 0.005
done
p1=$(now)
echo "evtop TUI $name: first pass $(ms $p0 $p1) ms (includes start-up), --batch $(ms $b0 $b1) ms"

worst=0
for f in 0.9 0.1 0.5 0.3 0.7 0.05 0.95; do
	t=$(awk -v l="$last" -v f=$f 'BEGIN { printf "%.3f", l * f / 1e9 }')
	# As the header writes it (ui/fmt.c fmt_time).
	want=$(awk -v t="$t" 'BEGIN { s = int(t)
	    if (s < 60) printf "%.3fs", t
	    else if (s < 3600) printf "%dm%04.1fs", int(s / 60), t - 60 * int(s / 60)
	    else printf "%dh%02dm%02ds", int(s / 3600), int(s / 60) % 60, s % 60 }')
	$TM send-keys g
	$TM send-keys -l "${t}s"
	s0=$(now)
	$TM send-keys Enter
	shown=no
	for _ in $(seq 4000); do
		if $TM capture-pane -p | grep -qF "event $want"; then
			shown=yes
			break
		fi
		sleep 0.002
	done
	s1=$(now)
	d=$(ms $s0 $s1)
	[ $shown = yes ] || d=timeout
	echo "evtop TUI $name: g ${t}s: redrawn at the target in $d ms"
	[ "$d" = timeout ] && worst=99999
	[ "$d" != timeout ] && [ "$d" -gt "$worst" ] && worst=$d
done
rss=$(awk '/VmHWM/ { print int($2 / 1024) }' /proc/$pid/status 2>/dev/null || echo "?")
echo "bench-seek: $name: the slowest seek $worst ms (target 250: $([ $worst -le 250 ] && echo met || echo NOT met)), peak RSS $rss MB (target 64: $([ "$rss" != "?" ] && [ $rss -le 64 ] && echo met || echo NOT met))"
