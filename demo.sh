#!/usr/bin/env bash
# Installs what is missing, builds evtop, and opens it on a bundled real
# recording: a GHC 9.0.2 program on 2 capabilities doing many collections.
# Keys: ? for help, q to quit.
set -euo pipefail
cd "$(dirname "$0")"
bash .ci/deps.sh
make -j2
exec ./evtop "${@:-tests/fixtures/gc.eventlog}"
