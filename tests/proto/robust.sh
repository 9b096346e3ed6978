#!/usr/bin/env bash
# evtop show on damaged files: cut at many offsets, bytes overwritten at
# many places.  It must never crash (run under ASan/UBSan with a fan-in of
# 2, so spill files and merging are exercised); a cut file gives at most the
# events of the whole, and a non-zero status comes with a message.
set -u
evtop=$1 log=$2 n=${3:-60}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
size=$(stat -c %s "$log")
full=$("$evtop" show "$log" 2>/dev/null | grep -c '^[0-9]')
pass=0 fail=0
RANDOM=7
for i in $(seq "$n"); do
  cut=$(( (RANDOM * 32768 + RANDOM) % size ))
  head -c "$cut" "$log" >"$tmp/cut"
  "$evtop" show "$tmp/cut" >"$tmp/out" 2>"$tmp/err"; rc=$?
  got=$(grep -c '^[0-9]' "$tmp/out")
  # A cut on an event boundary is a valid log that lacks its end marker.
  if [ $rc -le 1 ] && [ "$got" -le "$full" ] && { [ $rc -eq 0 ] || [ -s "$tmp/err" ]; }; then
    pass=$((pass+1))
  else
    fail=$((fail+1)); echo "not ok - cut at $cut: rc=$rc, $got of $full events: $(head -c 200 "$tmp/err")"
  fi
  cp "$log" "$tmp/bad"
  for k in 1 2 3 4; do
    at=$(( (RANDOM * 32768 + RANDOM) % size ))
    printf "\\x$(printf %02x $((RANDOM % 256)))" | dd of="$tmp/bad" bs=1 seek="$at" conv=notrunc status=none
  done
  "$evtop" show "$tmp/bad" >/dev/null 2>"$tmp/err"; rc=$?
  if [ $rc -le 1 ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "not ok - corrupt file: rc=$rc: $(head -c 300 "$tmp/err")"; cp "$tmp/bad" "/tmp/evtop-crash-$i.eventlog"; fi
done
echo "robust: $pass passed, $fail failed"
[ $fail -eq 0 ]
