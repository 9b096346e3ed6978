#!/usr/bin/env bash
# rare.sh EVTOP: `evtop show` of what no recorded log contains (every
# STOP_THREAD status 0..21, MEM_RETURN with memory returned, two GC
# requests, capabilities disabled, LOG_MSG; tests/proto/mkrare.py) against ghc-events 0.17, the second
# opinion.  Where upstream ghc-events (HEAD, which `show` follows) and 0.17
# print a status differently, shared/spec/EVENT_TABLE.md note S says what
# HEAD prints: 18 "blocked in throwTo" (0.17: "waiting for data to be
# globalised"), 20 "blocked reading an MVar" (0.17: no status); those two
# are checked against that, the rest against 0.17.  In the log, thread
# N + 1 stops with status N.
set -u
evtop=$1
bin=build/ref
out=$(tests/ref/build.sh "$bin" 2>&1); rc=$?
if [ $rc -eq 77 ]; then echo "$out"; echo "rare: SKIPPED (no ghc-events)"; exit 0; fi
[ $rc -eq 0 ] || { echo "$out"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 tests/proto/mkrare.py "$tmp/rare.eventlog" || exit 1
fail=0
LANG=C.UTF-8 "$bin/ghcevents-show" "$tmp/rare.eventlog" >"$tmp/ref" 2>&1 ||
    { echo "not ok - ghc-events 0.17 cannot read rare.eventlog"; head -3 "$tmp/ref"; exit 1; }
"$evtop" show "$tmp/rare.eventlog" >"$tmp/show" 2>&1 ||
    { echo "not ok - evtop show rare.eventlog failed"; exit 1; }
# HEAD's own texts for 18 and 20.
for want in "stopping thread 19 (blocked in throwTo)" \
    "stopping thread 21 (blocked reading an MVar)" \
    "stopping thread 3 (stack overflow, size 1048576)"; do
	grep -qxF "cap 0: $want" <(sed 's/^[0-9]*: //' "$tmp/show") ||
	    { echo "not ok - evtop show: no line '$want'"; fail=1; }
done
# The rest as 0.17 prints it.
awk '/: event block: cap / { skip = 1; next } skip && /^$/ { skip = 0; next } { skip = 0; print }' \
    "$tmp/show" |
    sed -E -e 's/\(stack overflow, size [0-9]+\)/(stack overflow)/' \
	-e 's/(stopping thread 19) \(blocked in throwTo\)/\1 (waiting for data to be globalised)/' \
	-e 's/(stopping thread 21) \(blocked reading an MVar\)/\1 (No stop thread status)/' \
    >"$tmp/ours"
if ! cmp -s "$tmp/ours" "$tmp/ref"; then
	echo "not ok - evtop show rare.eventlog differs from ghc-events 0.17:"
	diff "$tmp/ours" "$tmp/ref" | head -10
	fail=1
fi
# Sure that the log has what it is for.
n=$(grep -c "stopping thread" "$tmp/ref")
m=$(grep -c "memory returned" "$tmp/ref")
[ "$n" -eq 22 ] && [ "$m" -eq 3 ] ||
    { echo "not ok - rare.eventlog: $n stops, $m MEM_RETURN in ghc-events' reading"; fail=1; }
# The model's figures of the same log (--batch --json), as the log was
# made: a thread stopped with status s is runnable for 0-3 (no status, heap
# or stack overflow, yield), finished for 5, and blocked for 4 and the
# blocked statuses 6 + why_blocked (GHC's rts/Schedule.c: 7 MVar, 8 black
# hole, ..., 18 throwTo, 20 readMVar) and 6 (a foreign call), 14-16 (0.17:
# a foreign call, throwTo); 17 (0.17: migrating), 19 (13 + 6,
# ThreadMigrating) and 21 (nothing GHC posts on Linux) are runnable.  The
# requests: the pause's sync counts from the first (2000 ns before the
# start); MEM_RETURN: the last event's figures, the returned ones summed;
# cap 1 created once, disabled twice, enabled once; two LOG_MSG.
if command -v jq >/dev/null 2>&1; then
	got=$("$evtop" --batch --json "$tmp/rare.eventlog" | tail -n 1 | jq -c '[
	    .threads.runnable, .threads.blocked, .threads.finished,
	    (.threads.blocked_by | to_entries | map("\(.key):\(.value.threads):\(.value.reason)") | join(",")),
	    .gc.requests, .gc.collections, .gc.sync_max_ns,
	    .heap.mem_return.events, .heap.mem_return.current,
	    .heap.mem_return.needed, .heap.mem_return.returned,
	    .heap.mem_return.returned_total, .program.caps_created,
	    .program.caps_enabled, .program.caps_disabled, .messages.log]')
	want='[7,14,1,"4:1:thread blocked,6:1:making a foreign call,7:1:blocked on an MVar,8:1:blocked on a black hole,9:1:blocked on I/O read,10:1:blocked on I/O write,11:1:blocked on threadDelay,12:1:blocked in STM retry,13:1:blocked on asyncDoProc,14:1:blocked in a foreign call,15:1:blocked in a foreign call,16:1:blocked in throwTo,18:1:blocked in throwTo,20:1:blocked reading an MVar",2,1,2000,3,33,20,12,19,1,1,2,2]'
	if [ "$got" != "$want" ]; then
		echo "not ok - evtop --batch --json rare.eventlog:"
		echo "  got  $got"
		echo "  want $want"
		fail=1
	fi
else
	echo "rare: SKIPPED the JSON figures: jq not found"
fi
[ $fail -eq 0 ] && echo "rare: evtop show of 22 stop statuses, MEM_RETURN, GC requests as ghc-events prints them, and their figures"
exit $fail
