#!/usr/bin/env bash
# mkghclog.sh: record a benchmark eventlog of at least MB megabytes from
# busy.hs (threads blocking on MVars and STM) run on CAPS capabilities.
# A short run measures the bytes a round writes; the real run is sized from
# it, and run again longer if it fell short.  Exit 77 without ghc.
#
#	mkghclog.sh OUT MB CAPS
set -euo pipefail
out=$1 mb=$2 caps=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=$(dirname "$out")
if ! command -v ghc >/dev/null 2>&1; then
	echo "SKIPPED: ghc not found"
	exit 77
fi
mkdir -p "$dir/busy-obj"
ghc -O -threaded -rtsopts -eventlog -v0 -outputdir "$dir/busy-obj" \
    "$here/busy.hs" -o "$dir/busy"
# A small nursery: GCs between the scheduler's events, as in real programs.
rts="-N$caps -A256k -l"
"$dir/busy" 2000 +RTS $rts -ol"$out.tmp" -RTS
per=$(( $(stat -c %s "$out.tmp") / 2000 ))
rounds=$(( (mb << 20) / per * 11 / 10 ))
for try in 1 2 3; do
	"$dir/busy" "$rounds" +RTS $rts -ol"$out.tmp" -RTS
	[ "$(stat -c %s "$out.tmp")" -ge $((mb << 20)) ] && break
	rounds=$((rounds * 3 / 2))
done
mv "$out.tmp" "$out"
echo "$out: $(( $(stat -c %s "$out") >> 20 )) MB, $rounds rounds on -N$caps"
