#!/usr/bin/env bash
# build.sh: compile the second-opinion programs ghcevents-show and figures,
# and bare-decode and incremental-decode (the speed baselines of `make bench`),
# against the ghc-events 0.17 library (Debian: ghc, libghc-ghc-events-dev).
#
# Usage: tests/ref/build.sh [OUTDIR]      (default: tests/ref/bin, gitignored)
# Exit 0 when built, 77 with "SKIPPED: ..." when ghc or ghc-events is missing,
# 1 on a compile error.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:-$here/bin}

if ! command -v ghc >/dev/null 2>&1; then
	echo "SKIPPED: ghc not found"
	exit 77
fi
if ! ghc-pkg --simple-output list ghc-events 2>/dev/null | grep -q ghc-events; then
	echo "SKIPPED: ghc-events package not found (apt-get install libghc-ghc-events-dev)"
	exit 77
fi

mkdir -p "$out"
out=$(cd "$out" && pwd)
for prog in ghcevents-show figures bare-decode incremental-decode; do
	ghc -O -v0 -package ghc-events -outputdir "$out/obj-$prog" \
	    "$here/$prog.hs" -o "$out/$prog"
	echo "built $out/$prog"
done
