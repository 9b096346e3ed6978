#!/usr/bin/env bash
# real.sh: live figures exact however late a capability's events arrive (issue 15),
# with real GHC programs.  tests/bench/busy.hs (48 threads passing Ints through
# MVars, 32 passing a token through TVars, blocking in STM; forkIO, so the
# scheduler migrates them) runs for LATE_SECONDS (2.5) with
#     +RTS -N{2,3,4} -A256k -l -olFIFO -RTS
# and is then interrupted (SIGINT: the RTS ends its eventlog as at a normal
# exit).  Its busy capability fills a buffer every few tens of milliseconds;
# the others, or its start-up buffer, send theirs seconds later: the case the
# live path must put back in time order.  evtop reads the FIFO live:
#     evtop --batch --json --once --fifo FIFO --record REC
# then replays the recording: evtop --batch --json REC.  Per run:
#  - live evtop exits 0, and the recording is whole (to the end marker);
#  - `late` of the live final object is 0;
#  - the live final object equals the replay's on every key but those that
#    depend on how the bytes arrived: lag_ns, history, reorder.*.
# LATE_REPEAT (3) runs of each -N, with GHC 9.0.2 (the host's ghc), and with
# GHC 9.6 (the chroot of tests/ghc96) without and with
# --eventlog-flush-interval=0.1.  Each run prints what it exercised: size,
# events, collections, late, and the history's counters (history.corrections,
# how many times figures were put back, corrected_ns how far) when the JSON
# has them.  The MB/s figure is what the program could write: a FIFO blocks
# it while evtop has not read (backpressure), so a slow live path shows as a
# small recording and long GC pauses, not as a failure here.
#
#   tests/late/real.sh EVTOP BUSY BUSY96
# BUSY is busy.hs built by the host's ghc, BUSY96 by GHC 9.6 (tests/late/real.mk);
# each part says SKIPPED when its compiler (ghc; the chroot, as root) is missing.
set -u

EVTOP=${1:-./evtop}
BUSY=${2:-build/tests/late/busy}
BUSY96=${3:-build/tests/late/busy96}
SECS=${LATE_SECONDS:-2.5}
REPEAT=${LATE_REPEAT:-3}
CAPS=${LATE_CAPS:-2 3 4}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"

if ! command -v python3 >/dev/null 2>&1 || ! command -v jq >/dev/null 2>&1; then
	echo "SKIPPED: python3 and jq are needed to read the JSON"
	exit 0
fi
EVTOP=$(cd "$(dirname "$EVTOP")" && pwd)/$(basename "$EVTOP")
have90=1 have96=1
if ! command -v ghc >/dev/null 2>&1; then
	echo "# GHC 9.0.2: SKIPPED (ghc not found)"
	have90=0
elif [ ! -x "$BUSY" ]; then
	echo "not ok 1 - $BUSY not built"
	exit 1
fi
if ! D=$("$here/../ghc96/chroot.sh" path) || [ "$(id -u)" -ne 0 ]; then
	echo "# GHC 9.6: SKIPPED (no chroot, or not root: make ghc96)"
	have96=0
elif [ ! -x "$BUSY96" ]; then
	echo "not ok 1 - $BUSY96 not built"
	exit 1
fi
if [ $have90 = 0 ] && [ $have96 = 0 ]; then
	echo "SKIPPED: neither ghc nor the GHC 9.6 chroot"
	exit 0
fi

# One directory inside the chroot when there is one (the 9.6 program writes
# its FIFO there; a path under it reads the same from outside), else in /tmp.
if [ $have96 = 1 ]; then
	T=$(mktemp -d "$D/work/evtop-late-real.XXXXXX")
else
	T=$(mktemp -d /tmp/evtop-late-real.XXXXXX)
fi
PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
if [ $have96 = 1 ]; then
	cp "$BUSY96" "$T/busy96"
	RUN96="$here/../ghc96/chroot.sh exec"
fi

ends_whole() { [ "$(tail -c 2 "$1" | od -An -tx1 | tr -d ' \n')" = ffff ]; }

# same A B: the last objects of A and B are equal but for what depends on how
# the bytes arrived (lag_ns, history, reorder.*); `late` is compared.
same() {
	python3 "$here/../sources/js.py" cmp-late "$1" "$2" |
	    sed 's/^/#   live | recording: /'
	return "${PIPESTATUS[0]}"
}

# figures FILE: the headline figures of its last object.
figures() {
	tail -n 1 "$1" | jq -r '"\(.events_total) events, \(.gc.collections) GCs, " +
	    "pause total \(.gc.pause_total_ns / 1e6 | floor) ms, late \(.late), " +
	    "reorder \(.reorder | tostring)" +
	    (if has("lag_ns") then ", lag_ns \(.lag_ns)" else "" end)' 2>/dev/null ||
	    echo "(no JSON)"
}
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
SUMMARY=()

# run_one LABEL RUN PROG CAPS RTSX: one run, its checks and its figures.
run_one() {
	local label=$1 run=$2 prog=$3 n=$4 rtsx=$5 d p rc t0 live_ms hist mb
	d=$(mktemp -d "$T/run.XXXXXX")
	mkdir -p "$d/tmp"
	mkfifo "$d/f"
	# shellcheck disable=SC2086
	timeout -k 5 -s INT "$SECS" $run "$prog" 100000000 \
	    +RTS -N"$n" -A256k -l -ol"$d/f" $rtsx -RTS >"$d/out" 2>&1 &
	p=$!
	PIDS+=($p)
	t0=$(date +%s%N)
	TMPDIR=$d/tmp timeout 120 "$EVTOP" --batch --json --once --fifo "$d/f" \
	    --record "$d/rec.eventlog" >"$d/live.json" 2>"$d/err"
	rc=$?
	live_ms=$(ms_since "$t0")
	wait_exit "$p" 20 >/dev/null
	ok "$label: live evtop exit 0" eq "$rc" 0
	[ "$rc" -eq 0 ] || sed 's/^/#   /' "$d/err" | tail -5
	ok "$label: the recording is whole, to the end marker" ends_whole "$d/rec.eventlog"
	t0=$(date +%s%N)
	timeout 120 "$EVTOP" --batch --json "$d/rec.eventlog" >"$d/file.json" 2>/dev/null
	mb=$(( $(stat -c %s "$d/rec.eventlog" 2>/dev/null || echo 0) >> 20 ))
	echo "# $label: $mb MB read live in ${live_ms} ms ($((mb * 1000 / (live_ms + 1))) MB/s)," \
	    "replayed in $(ms_since "$t0") ms"
	[ "$(stat -c %s "$d/rec.eventlog" 2>/dev/null || echo 0)" -le $((512 << 20)) ] ||
	    echo "#   (more than the default --history-size, 512 MiB: events before it may be late)"
	echo "#   live:      $(figures "$d/live.json")"
	echo "#   recording: $(figures "$d/file.json")"
	hist=$(tail -n 1 "$d/live.json" | jq -c '.history // empty' 2>/dev/null)
	echo "#   history: ${hist:-not in the JSON}"
	local late corr sm
	late=$(tail -n 1 "$d/live.json" | jq -r '.late' 2>/dev/null)
	corr=-
	[ -z "$hist" ] || corr=$(echo "$hist" | jq -r '.corrections // "?"')
	ok "$label: late 0" eq "${late:-none}" 0
	same "$d/live.json" "$d/file.json" >"$d/diff"
	sm=$?
	cat "$d/diff"
	ok "$label: live final figures equal the recording's (all but lag_ns, history, reorder)" \
	    test "$sm" -eq 0
	SUMMARY+=("$label: $mb MB, late ${late:-?}, corrections $corr, $([ "$sm" = 0 ] &&
	    echo equal || tail -n 1 "$d/diff" | sed 's/^# *//')")
	rm -rf "$d"
}

# runs NAME RUN PROG RTSX: every -N, REPEAT times.
runs() {
	local name=$1 run=$2 prog=$3 rtsx=$4 n i
	for n in $CAPS; do
		for i in $(seq "$REPEAT"); do
			run_one "$name -N$n #$i" "$run" "$prog" "$n" "$rtsx"
		done
	done
}

if [ $have90 = 1 ]; then
	echo "# GHC $(ghc --numeric-version), ${SECS} s runs"
	runs "9.0.2" "" "$BUSY" ""
fi
if [ $have96 = 1 ]; then
	echo "# GHC $("$here/../ghc96/chroot.sh" run ghc --numeric-version) (chroot), ${SECS} s runs"
	runs "9.6" "$RUN96" "$T/busy96" ""
	runs "9.6 flush 0.1" "$RUN96" "$T/busy96" "--eventlog-flush-interval=0.1"
fi
echo "# summary:"
printf '#   %s\n' "${SUMMARY[@]}"
echo "real: $passed passed, $failed failed (${SECONDS} s)"
[ "$failed" -eq 0 ]
