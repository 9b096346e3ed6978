#!/usr/bin/env bash
# run.sh: the real-program tests with GHC 9.6: tests/sockprog built by GHC 9.6 through
# sockprog.sh (FIFO, Unix and TCP sockets, control commands, reconnection, a killed
# program), then the real eventlog-socket library (peer.sh).  SKIPPED without the
# chroot (make ghc96; .ci/run makes it).
#
#   tests/ghc96/run.sh EVTOP
set -u
EVTOP=${1:-./evtop}
here=$(cd "$(dirname "$0")" && pwd)
if ! D=$("$here/chroot.sh" path) || [ "$(id -u)" -ne 0 ]; then
	echo "SKIPPED: no GHC 9.6 chroot, or not root (make ghc96)"
	exit 0
fi
S=$("$here/build.sh" sockprog) || { echo "not ok 1 - building tests/sockprog with GHC 9.6"; exit 1; }
rc=0
echo "# tests/sockprog built by GHC $("$here/chroot.sh" run ghc --numeric-version)"
TMPDIR=$D/work SOCKPROG_RTSX=--eventlog-flush-interval=0.1 "$here/../sockprog/sockprog.sh" "$EVTOP" "$S/sockprog" \
    "$here/chroot.sh exec" || rc=1
"$here/peer.sh" "$EVTOP" || rc=1
exit $rc
