# tests/late/real.mk: late events with real GHC programs (issue 15).
#
#   check-late-real	tests/bench/busy.hs (threads blocking on MVars and STM) run
#			with +RTS -l -ol FIFO on -N2, -N3, -N4, three times each,
#			by GHC 9.0.2 and by GHC 9.6 (with and without
#			--eventlog-flush-interval): evtop's live final figures
#			equal those of the recording, late 0 (SKIPPED without ghc
#			and without the GHC 9.6 chroot)
#   check-late-lag	the real eventlog-socket library built by GHC 9.6, -N1 and
#			-N2, --eventlog-flush-interval=0.2, over a Unix socket:
#			lag_ns under 300 ms in every line after the first
#			(SKIPPED without the chroot)
#
# The programs are built once: build/tests/late/busy by the host's ghc,
# build/tests/late/busy96 by GHC 9.6 in the chroot (copied into the chroot's
# /work to run).  Without a compiler nothing is built and the test says SKIPPED.

LATE_REAL_DIR := build/tests/late
LATE_BUSY := $(LATE_REAL_DIR)/busy
LATE_BUSY96 := $(LATE_REAL_DIR)/busy96

$(LATE_BUSY): tests/bench/busy.hs
	@mkdir -p $(@D)/busy-obj
	@if command -v ghc >/dev/null 2>&1; then \
		echo "ghc $@"; \
		ghc -O -threaded -rtsopts -eventlog -v0 \
		    -outputdir $(@D)/busy-obj $< -o $@; \
	fi

$(LATE_BUSY96): tests/bench/busy.hs
	@mkdir -p $(@D)
	@if d=$$(tests/ghc96/chroot.sh path 2>/dev/null) && \
	    [ "$$(id -u)" -eq 0 ]; then \
		echo "ghc-9.6 $@"; \
		w=$$(mktemp -d "$$d/work/evtop-busy96.XXXXXX") && \
		cp $< "$$w/busy.hs" && \
		tests/ghc96/chroot.sh run sh -ec "cd /work/$${w##*/} && \
		    ghc -O -threaded -rtsopts -v0 busy.hs -o busy" && \
		cp "$$w/busy" $@.tmp && mv $@.tmp $@; \
		rc=$$?; rm -rf "$$w"; exit $$rc; \
	fi

check-late-real: evtop $(LATE_BUSY) $(LATE_BUSY96)
	tests/late/real.sh ./evtop $(LATE_BUSY) $(LATE_BUSY96)

check-late-lag: evtop
	tests/late/lag.sh ./evtop

CHECKS += check-late-real check-late-lag
.PHONY: check-late-real check-late-lag
