#!/usr/bin/env bash
# build.sh: build test programs with GHC 9.6 in the chroot of chroot.sh.  Each build is
# cached in the chroot's /work, by the checksum of its sources.
#
# Usage: tests/ghc96/build.sh peer|sockprog
#   peer      the real eventlog-socket library (../shared/peers/eventlog-socket,
#             unchanged) and its example program, without cabal as the peer's README
#             says: fibber (threaded) and fibber-prof (threaded, profiled)
#   sockprog  tests/sockprog (Haskell with a C main and EventLogWriter): sockprog
# Prints the directory holding the programs (as seen from outside the chroot); exit 77
# with "SKIPPED: ..." when the chroot or the peer is missing (or not root), 1 on a build
# error (the log's tail on stderr).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
what=${1:-}

case $what in
peer)
	src=${EVTOP_SHARED:-$root/../shared}/peers/eventlog-socket
	[ -d "$src/eventlog-socket/cbits" ] || { echo "SKIPPED: no eventlog-socket in $src"; exit 77; }
	want="fibber fibber-prof"
	;;
sockprog)
	src=$root/tests/sockprog
	want=sockprog
	;;
*) echo "usage: build.sh peer|sockprog" >&2; exit 2 ;;
esac
[ "$(id -u)" -eq 0 ] || { echo "SKIPPED: the GHC 9.6 chroot needs root"; exit 77; }
dir=$("$here/chroot.sh" path) || { echo "SKIPPED: no GHC 9.6 chroot (make ghc96)"; exit 77; }

sum=$(cd "$src" && find . -type f -print0 | sort -z | xargs -0 cat | cksum | cut -d' ' -f1)
out=$dir/work/$what-$sum
ready=1
for b in $want; do [ -x "$out/$b" ] || ready=0; done
if [ $ready = 1 ]; then
	echo "$out"
	exit 0
fi
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
cp -r "$src"/. "$out.tmp/"
in=/work/$(basename "$out").tmp	# the same, inside

case $what in
peer) script='
	cd eventlog-socket
	rtsinc=$(dirname "$(find /usr/lib/ghc* -name Rts.h -path "*include*" | head -n 1)")
	hsc2hs -Icbits -Iinclude -I"$rtsinc" -DNDEBUG=1 -DEVENTLOG_SOCKET_FEATURE_CONTROL=1 \
		src/GHC/Eventlog/Socket.hsc -o src/GHC/Eventlog/Socket.hs
	copt="-optc-std=c11 -optc-D_POSIX_C_SOURCE=200112L -optc-DNDEBUG=1"
	copt="$copt -optc-DEVENTLOG_SOCKET_FEATURE_CONTROL=1 -Icbits -Iinclude"
	for way in thr prof; do
		flags=-threaded bin=../fibber
		[ $way = prof ] && flags="-threaded -prof" bin=../fibber-prof
		mkdir -p "obj-$way"
		objs=""
		for c in $(find cbits -name "*.c"); do
			o=obj-$way/$(echo "$c" | tr / _).o
			ghc -v0 -c $flags $copt "$c" -o "$o"
			objs="$objs $o"
		done
		ghc -v0 --make $flags -O -rtsopts -XLambdaCase -isrc -Icbits -Iinclude \
			-outputdir "hs-$way" ../examples/fibber/app/Main.hs $objs -o "$bin"
	done'
	;;
sockprog) script='
	ghc -O -threaded -rtsopts -no-hs-main -v0 -outputdir obj SockProg.hs sockprog.c \
		-o sockprog'
	;;
esac
"$here/chroot.sh" run sh -ec "cd $in; $script" >"$out.tmp/build.log" 2>&1 ||
	{ tail -30 "$out.tmp/build.log" >&2; exit 1; }
rm -rf "$out"
mv "$out.tmp" "$out"
echo "$out"
