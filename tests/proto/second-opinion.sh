#!/usr/bin/env bash
# A second opinion: evtop show against the ghc-events 0.17 library (Debian's
# libghc-ghc-events-dev) on our own GHC 9.0.2 fixtures.  0.17 prints no
# `event block:` lines and writes "stack overflow" without a size; those are
# taken out of evtop's text before comparing.  Files 0.17 cannot read (it
# throws on non-UTF-8 binary messages) are reported, not compared.
set -u
evtop=$1; shift
bin=build/ref
out=$(tests/ref/build.sh "$bin" 2>&1); rc=$?
if [ $rc -eq 77 ]; then echo "$out"; echo "second-opinion: 0 passed, 0 failed, 1 skipped"; exit 0; fi
[ $rc -eq 0 ] || { echo "$out"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 skip=0
for log in "$@"; do
  name=$(basename "$log")
  if ! LANG=C.UTF-8 "$bin/ghcevents-show" "$log" >"$tmp/ref" 2>"$tmp/referr"; then
    skip=$((skip+1)); echo "skip - $name: ghc-events 0.17 fails: $(head -c 120 "$tmp/referr")"; continue
  fi
  "$evtop" show "$log" 2>/dev/null |
    awk '/: event block: cap / { skip = 1; next } skip && /^$/ { skip = 0; next } { skip = 0; print }' |
    sed -E 's/\(stack overflow, size [0-9]+\)/(stack overflow)/' >"$tmp/ours"
  # A truncated file: evtop ends without the final blank line.
  sed -i -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$tmp/ours" "$tmp/ref"
  if cmp -s "$tmp/ours" "$tmp/ref" && [ "$(wc -l <"$tmp/ref")" -gt 10 ]; then
    pass=$((pass+1))
  else
    fail=$((fail+1)); echo "not ok - $name differs from ghc-events 0.17:"; diff "$tmp/ours" "$tmp/ref" | head -6
  fi
done
echo "second-opinion: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
