# tests/ghc96: the GHC people run today.  GHC 9.6 from Debian 13 in a chroot
# (tests/ghc96/chroot.sh; `make ghc96` makes it, about 2 GB once; .ci/run too):
#
#   check-ipe	-hi bands named by their IPE entries, against the reference
#		decoder, in JSON and in the heap pane (the 9.6 fixtures; no chroot)
#   check-ghc96	tests/sockprog built by GHC 9.6 through sockprog.sh, and the
#		real eventlog-socket library (peer.sh): sockets, control keys in
#		the TUI, reconnection (SKIPPED without the chroot)

ghc96:
	tests/ghc96/chroot.sh make

check-ipe: evtop
	tests/ghc96/ipe.sh ./evtop

check-ghc96: evtop
	tests/ghc96/run.sh ./evtop

CHECKS += check-ipe check-ghc96
.PHONY: ghc96 check-ipe check-ghc96
