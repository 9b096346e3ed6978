#!/usr/bin/env bash
# Installs what is missing, builds evtop, and opens it on a bundled real
# recording (a GHC 9.0.2 program with many garbage collections).
set -euo pipefail
cd "$(dirname "$0")"
bash .ci/deps.sh
make -j2
if [ -f ui/ui.h ]; then
  exec ./evtop tests/fixtures/gc.eventlog
else
  ./evtop show tests/fixtures/gc.eventlog | less
fi
