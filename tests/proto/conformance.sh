#!/usr/bin/env bash
# evtop show must print byte for byte what ghc-events show printed for every
# file of the conformance corpus; also through stdin, and a truncated file
# must give its events, an error on stderr and a non-zero status.
set -u
evtop=$1 corpus=$2
pass=0 fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for ref in "$corpus"/*.eventlog.reference; do
  log=${ref%.reference}
  if "$evtop" show "$log" >"$tmp/out" 2>"$tmp/err" && cmp -s "$tmp/out" "$ref"; then
    pass=$((pass+1))
  else
    fail=$((fail+1)); echo "not ok - $(basename "$log") differs:"; diff "$tmp/out" "$ref" | head -5
  fi
done
one=$(ls "$corpus"/*.eventlog.reference | head -1)
if "$evtop" show - <"${one%.reference}" | cmp -s - "$one"; then pass=$((pass+1)); else fail=$((fail+1)); echo "not ok - stdin"; fi
if [ -f "$corpus/testlog-part.eventlog" ]; then
  "$evtop" show "$corpus/testlog-part.eventlog" >"$tmp/out" 2>"$tmp/err"; rc=$?
  "$evtop" show "$corpus/testlog.eventlog" >"$tmp/full" 2>/dev/null
  n=$(grep -c '^[0-9]' "$tmp/out")
  if [ $rc -ne 0 ] && grep -q "truncated" "$tmp/err" && [ "$n" -gt 100 ]; then
    pass=$((pass+1))
  else
    fail=$((fail+1)); echo "not ok - truncated file: rc=$rc, $n events, $(cat "$tmp/err")"
  fi
fi
echo "conformance: $pass passed, $fail failed"
[ $fail -eq 0 ]
