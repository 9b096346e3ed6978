#!/usr/bin/env bash
# late.sh: live figures exact however late a capability's events arrive
# (issue 15).  tests/late/delay moves some capabilities' blocks N blocks
# later in a log, as a program whose idle capabilities flush late sends
# them; the delayed bytes are served live, and the final live figures must
# be those of the original file, every key.
#
#  1. delay keeps a file's figures: `evtop --batch --json` reads a file in
#     time order whatever its order of blocks, so OUT's figures are IN's,
#     for every fixture and corpus log and several (cap, N).
#  2. Live = file: every fixture with 2 capabilities or more, and the GHC
#     9.6 ones, delayed (cap 1 by 1, 5, 20 and 200 blocks, all but cap 0,
#     caps 1 and 2 together), served by fakeprod over a Unix socket and by
#     a writer through a FIFO: the last object of `evtop --batch --json
#     --once` equals that of `evtop --batch --json ORIGINAL` in every key
#     but lag_ns, history and reorder.*; late is 0.  Every live line has
#     lag_ns (null until a WALL_CLOCK_TIME and once the source has
#     closed) and history {bytes, first_ns, last_ns, corrections,
#     corrected_ns} (but before the first byte: a FIFO waiting for its
#     writer).
#     The figures never go back from a line to the next (events_total
#     only grows: no line shows the model part way through a
#     correction).  Delays that leave the bytes as they were (N past the
#     end of a small log) are run once.  truncated.eventlog is compared but for errors
#     and last_error (a stream cut mid-event is not a file cut there).
#  3. The same on longer logs (tests/bench/mklog: copies of a fixture, a
#     few seconds to a minute of event time), where the late blocks are
#     up to 28 s behind (past the 2 s reorder window of old), served at a
#     moderate pace so they come while evtop shows the rest: equal, late
#     0; the figures were corrected (history.corrections > 0) where a
#     block came 100 ms or more late in wall time; lag_ns was known while
#     the source was open.
#  4. --history 0 turns it off (the old behaviour): late > 0 there.
#  5. Past the history: a 24 MB log with cap 1 delayed 200 blocks (28 s
#     of event time, 6 MB), read with --history 1s --history-size 1: late
#     > 0 but no more than cap 1's events, every event counted (events,
#     events_total, blocks equal to the file's), the history within its
#     1 MiB (and a quarter: it drops whole files) and a few seconds.
#
# Every wait has a deadline; no bare sleep synchronises.
#
#   tests/late/late.sh [EVTOP [DELAY [FAKEPROD [MKLOG [CORPUS]]]]]
set -u

EVTOP=${1:-./evtop}
DELAY=${2:-build/tests/late/delay}
FAKEPROD=${3:-build/tests/sources/fakeprod}
MKLOG=${4:-build/bench/mklog}
CORPUS=${5:-../shared/conformance/ghc-events}
FIX=tests/fixtures

if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIPPED: python3 not found (needed to read the JSON)"
	exit 0
fi
# The interpreter itself, not a version manager's shim in front of it
# (pyenv's costs 0.1 s a call).
PY=$(python3 -c 'import sys; print(sys.executable)')
JS="$PY tests/sources/js.py"
for x in "$EVTOP" "$DELAY" "$FAKEPROD" "$MKLOG"; do
	if [ ! -x "$x" ]; then
		echo "SKIPPED: $x not built"
		exit 0
	fi
done

T=$(mktemp -d "${TMPDIR:-/tmp}/evtop-late.XXXXXX")
PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

. "$(dirname "$0")/../lib.sh"
T0=$SECONDS

# The comparer: what may differ between a live source and a file is how
# the bytes came (lag_ns, history, reorder.*); everything else, late
# included, must be equal.
cat >$T/cmp.py <<'EOF'
import json, sys

# How the bytes came, not what the program did.
IGNORE = {".lag_ns", ".history", ".reorder"}
HISTORY = ("bytes", "first_ns", "last_ns", "corrections", "corrected_ns",
           "reapplied", "reapply_ns", "overflowed")

def objects(path):
    try:
        with open(path) as f:
            return [json.loads(l) for l in f if l.strip().startswith("{")]
    except (OSError, ValueError):
        return []

def diff(x, y, path, out, ignore):
    if path in ignore:
        return
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y)):
            if k not in x or k not in y:
                if path + "." + k not in ignore:
                    out.append("%s.%s: %s only" % (path, k,
                               "live" if k in x else "file"))
                continue
            diff(x[k], y[k], path + "." + k, out, ignore)
    elif isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for i, (u, v) in enumerate(zip(x, y)):
            diff(u, v, "%s[%d]" % (path, i), out, ignore)
    elif x != y:
        out.append("%s: live %s | file %s" % (path, str(x)[:60], str(y)[:60]))

def get(o, path):
    for p in path.split("."):
        if isinstance(o, list) and p.isdigit() and int(p) < len(o):
            o = o[int(p)]
        elif isinstance(o, dict) and p in o:
            o = o[p]
        else:
            return None
    return o

def num(v):
    return str(v) if isinstance(v, int) and not isinstance(v, bool) else "-"

def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "case":
        # case LIVE FILE [KEY...]: line 1 "LATE CORRECTIONS EQ KEYS NLAG
        # NLINES BACK" (EQ and KEYS 1 when good, LATE and CORRECTIONS "-" when
        # absent), then what differs.  EQ: the last objects are equal but
        # for IGNORE and the KEYs given; KEYS: every live line has lag_ns
        # (ns, or null while not known: before a WALL_CLOCK_TIME, and once
        # the source has closed) and history {bytes, first_ns, last_ns,
        # corrections, corrected_ns} (none before the first byte); NLAG: lines with lag_ns a number;
        # BACK: lines whose events_total is below the line before's.
        a, b = objects(args[0]), objects(args[1])
        ignore = IGNORE | {"." + k for k in args[2:]}
        out = []
        if a and b:
            diff(a[-1], b[-1], "", out, ignore)
        else:
            out.append("no JSON object in %s" % (args[0] if not a else args[1]))
        def shape(o):
            lag, h = o.get("lag_ns", "absent"), o.get("history")
            if not (lag is None or isinstance(lag, int)):
                return "lag_ns %s" % json.dumps(lag)
            if h is None and o.get("bytes_total") == 0:
                return None	# nothing read yet: no session to keep
            if not isinstance(h, dict):
                return "history %s" % json.dumps(h)
            miss = [k for k in HISTORY if k not in h]
            return "history lacks " + ",".join(miss) if miss else None
        bad = [w for w in map(shape, a) if w]
        nlag = sum(1 for o in a if isinstance(o.get("lag_ns"), int))
        # A count that only grows, from line to line: a line printed
        # while a correction is under way must not show the model part
        # way through it.
        back = [(i, p.get("events_total"), o.get("events_total"))
                for i, (p, o) in enumerate(zip(a, a[1:]), 2)
                if isinstance(p.get("events_total"), int)
                and isinstance(o.get("events_total"), int)
                and o["events_total"] < p["events_total"]]
        last = a[-1] if a else {}
        print(num(last.get("late")), num(get(last, "history.corrections")),
              int(not out), int(bool(a) and not bad), nlag, len(a),
              len(back))
        if out:
            print("%d keys differ; late %s, gc.collections live %s file %s, "
                  "pause_total_ns live %s file %s, events_total live %s "
                  "file %s" % (len(out), last.get("late"),
                  get(last, "gc.collections"), get(b[-1] if b else {},
                  "gc.collections"), get(last, "gc.pause_total_ns"),
                  get(b[-1] if b else {}, "gc.pause_total_ns"),
                  last.get("events_total"),
                  (b[-1] if b else {}).get("events_total")))
            print("\n".join(out[:12]))
        if bad:
            print("%d of %d lines lack lag_ns or history (%s)"
                  % (len(bad), len(a), bad[-1]))
        if back:
            print("went back: " + ", ".join("line %d %d -> %d" % x
                                             for x in back[:6]))
        return 0
    if cmd == "counts":		# counts LIVE FILE: every event counted
        a, b = objects(args[0]), objects(args[1])
        if not a or not b:
            print("no JSON object")
            return 1
        a, b, out = a[-1], b[-1], []
        for k in ("events_total", "blocks", "headers"):
            if a.get(k) != b.get(k):
                out.append("%s: live %s | file %s" % (k, a.get(k), b.get(k)))
        diff(a.get("events"), b.get("events"), "events", out, set())
        print("\n".join(out[:12]))
        return 1 if out else 0
    if cmd == "get":		# get FILE PATH...: the values, "null" if absent
        o = objects(args[0])
        for p in args[1:]:
            v = get(o[-1], p) if o else None
            print(json.dumps(v) if not isinstance(v, str) else v)
        return 0
    return 2

sys.exit(main())
EOF
CMP="$PY $T/cmp.py"

wait_socket() {	# wait_socket PATH SECONDS
	local end=$((SECONDS + $2 + 1))
	while [ $SECONDS -lt $end ]; do
		[ -S "$1" ] && return 0
		sleep 0.02
	done
	return 1
}
batch_of() {	# batch_of FILE OUT: the figures of a file
	timeout 60 "$EVTOP" --batch --json "$1" >"$2" 2>/dev/null
}
counts_as() {	# counts_as LIVE FILE: every event counted
	$CMP counts "$1" "$2" | sed 's/^/# /'
	return "${PIPESTATUS[0]}"
}
jget() {	# jget FILE PATH...
	$CMP get "$@"
}
between() {	# between LOW VALUE HIGH: VALUE an integer in [LOW, HIGH]
	case $2 in
	''|*[!0-9]*) echo "# not a count: '$2'" >&2; return 1 ;;
	esac
	[ "$1" -le "$2" ] && [ "$2" -le "$3" ] && return 0
	echo "# $2 not in [$1, $3]" >&2
	return 1
}

# A paced writer into a FIFO: CHUNK bytes, then DELAY_US of sleep (the
# pacing of fakeprod's --chunk and --delay-us).  Opening the FIFO waits
# for its reader.
cat >$T/fifow.py <<'EOF'
import sys, time
src, dst, chunk, delay = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
with open(src, "rb") as f:
    data = f.read()
with open(dst, "wb", buffering=0) as o:
    for i in range(0, len(data), chunk):
        o.write(data[i:i + chunk])
        if delay:
            time.sleep(delay / 1e6)
EOF

# serve KIND FILE DIR [CHUNK DELAY_US] [EVTOP-OPTIONS...]: FILE served over
# KIND (unix or fifo) to `evtop --batch --json --once`; its output in
# DIR/live.json, its stderr in DIR/err; the exit status is evtop's.
serve() {
	local kind=$1 file=$2 d=$3 chunk=$4 us=$5 st
	shift 5
	mkdir -p "$d"
	rm -f "$d/s.sock" "$d/f"
	case $kind in
	unix)
		$FAKEPROD --unix "$d/s.sock" --chunk "$chunk" \
		    --delay-us "$us" "$file" 2>"$d/prod.err" &
		PIDS+=($!)
		wait_socket "$d/s.sock" 5
		timeout 60 "$EVTOP" --batch --json --once --interval 0.2 \
		    "$@" --unix "$d/s.sock" >"$d/live.json" 2>"$d/err"
		st=$?
		;;
	fifo)
		mkfifo "$d/f"
		$PY $T/fifow.py "$file" "$d/f" "$chunk" "$us" &
		PIDS+=($!)
		timeout 60 "$EVTOP" --batch --json --once --interval 0.2 \
		    "$@" --fifo "$d/f" >"$d/live.json" 2>"$d/err"
		st=$?
		;;
	esac
	[ $st -eq 0 ] || sed 's/^/# evtop: /' "$d/err" | tail -3
	return $st
}

# The rule of tests/late/delay, on its own: the units (here: blocks) of
# IN in order; a moved one at place i goes right after the first unit not
# moved at place i + N or later; what is still held goes at the end.
cat >$T/order.py <<'EOF'
import struct, sys

def units(data):
    """Header, units (cap, bytes), tail: events framed by the header's
    sizes; a unit is a block (to the next marker or its size's end) or a
    run of events outside blocks ("out")."""
    assert data[:8] == b"hdrbhetb"
    i, size = 8, {}
    while data[i:i + 4] == b"etb\0":
        tag, sz = struct.unpack(">Hh", data[i + 4:i + 8])
        dl, = struct.unpack(">I", data[i + 8:i + 12])
        el, = struct.unpack(">I", data[i + 12 + dl:i + 16 + dl])
        size[tag] = sz
        i += 16 + dl + el + 4
    h = data.index(b"datb", i) + 4
    i, out, end, cur = h, [], 0, None
    while i + 2 <= len(data) and data[i:i + 2] != b"\xff\xff":
        tag, = struct.unpack(">H", data[i:i + 2])
        n = 10 + size[tag] if size[tag] >= 0 else \
            12 + struct.unpack(">H", data[i + 10:i + 12])[0]
        if tag == 18:
            end = i + struct.unpack(">I", data[i + 10:i + 14])[0]
            cur = [struct.unpack(">H", data[i + 22:i + 24])[0], i, i]
            out.append(cur)
        elif i >= end and (cur is None or cur[0] != "out"):
            cur = ["out", i, i]
            out.append(cur)
        cur[2] = i + n
        i += n
    return data[:h], [(c, data[a:b]) for c, a, b in out], data[i:]

src, dst, caps, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
a, b = open(src, "rb").read(), open(dst, "rb").read()
head, us, tail = units(a)
def moved(c):
    if c in (0xffff, "out"):
        return False
    return c != 0 if caps == "all-but-0" else str(c) in caps.split(",")
want, held = [], []
for i, (c, u) in enumerate(us):
    if moved(c):
        held.append((i, u))
        continue
    want.append(u)
    while held and held[0][0] + n <= i:
        want.append(held.pop(0)[1])
want += [u for _, u in held]
exp = head + b"".join(want) + tail
nmoved = sum(1 for c, _ in us if moved(c))
shown = lambda x: " ".join(str(c) for c, _ in units(x)[1][:14])
if exp != b:
    print("# %d units, %d moved: want caps %s" % (len(us), nmoved, shown(exp)))
    print("# got caps %s" % shown(b))
    sys.exit(1)
print("# %d units, %d moved: caps %s ... now %s ..." % (len(us), nmoved,
      shown(a), shown(b)))
EOF

# ---------------------------------------------------------------------
# The logs.  Longer ones made by mklog (copies of a fixture, each shifted
# past the one before), so that a block moved N blocks later is seconds
# of event time late:
#   gc-long   gc.eventlog x 21 (2 MB): 2 caps, 3 blocks a copy of 0.42 s;
#             20 blocks are 2.8 s, 200 blocks 28 s
#   nm-long   ghc96-nonmoving x 48 (2 MB): 2 caps, 7 blocks a copy of
#             0.87 s; 20 blocks 2.5 s, 200 blocks 25 s
#   thr-long  ghc96-threads x 22 (2 MB): 3 caps, 24 blocks a copy of
#             0.14 s; 200 blocks 1.2 s, 600 blocks 3.5 s
#   big       gc.eventlog x 250 (24 MB), 105 s, for the history's bounds
L=$T/logs
mkdir -p $L
$MKLOG $FIX/gc.eventlog $L/gc-long.eventlog 2 2>/dev/null
$MKLOG $FIX/ghc96-nonmoving.eventlog $L/nm-long.eventlog 2 2>/dev/null
$MKLOG $FIX/ghc96-threads.eventlog $L/thr-long.eventlog 2 2>/dev/null
$MKLOG $FIX/gc.eventlog $L/big.eventlog 24 2>/dev/null
for f in $L/*.eventlog; do
	batch_of $f ${f%.eventlog}.json
done

# ---------------------------------------------------------------------
# 1. delay keeps a file's figures: a file is read in time order whatever
# the order of its blocks.  (No fixture holds two events of the same time,
# so the reader's tie-break by file offset never comes into it.)
CASES_DELAY=("--cap 1 --blocks 1" "--cap 1 --blocks 5"
    "--cap all-but-0 --blocks 20" "--cap 1 --cap 2 --blocks 200")
delay_keeps() {
	local f b c n=0 bad=0 moved=0 d=$T/keep
	mkdir -p $d
	for f in $FIX/*.eventlog $CORPUS/*.eventlog $L/gc-long.eventlog \
	    $L/nm-long.eventlog $L/thr-long.eventlog; do
		[ -f "$f" ] || continue
		b=$(basename "$f" .eventlog)
		batch_of "$f" $d/$b.json
		for c in "${CASES_DELAY[@]}"; do
			n=$((n + 1))
			# shellcheck disable=SC2086
			if ! $DELAY $c "$f" $d/out.eventlog 2>$d/derr; then
				echo "# $b $c: delay failed: $(cat $d/derr)"
				bad=$((bad + 1))
				continue
			fi
			cmp -s "$f" $d/out.eventlog && continue
			moved=$((moved + 1))
			if [ "$(stat -c %s "$f")" != \
			    "$(stat -c %s $d/out.eventlog)" ]; then
				echo "# $b $c: size changed"
				bad=$((bad + 1))
				continue
			fi
			batch_of $d/out.eventlog $d/out.json
			cmp -s <(tail -1 $d/$b.json) <(tail -1 $d/out.json) &&
			    continue
			echo "# $b $c: figures differ:"
			$JS cmp $d/$b.json $d/out.json | sed 's/^/#   /' | head -5
			bad=$((bad + 1))
		done
	done
	ok "delay: $n cases, $moved logs reordered: read as files, their originals' figures" \
	    eq $bad 0
	# The order it writes, against the rule computed on its own: the
	# three blocks of gc.eventlog, longer logs moved by 1, 5, 20, past
	# the end, several caps; and the corpus's testlog, which has events
	# outside blocks.
	for c in "$FIX gc 1 1" "$L gc-long 1 5" "$L gc-long 1 200" \
	    "$L thr-long 2 20" "$L thr-long 1,2 5" "$L thr-long all-but-0 1" \
	    "$CORPUS testlog all-but-0 2"; do
		set -- $c
		[ -f "$1/$2.eventlog" ] || continue
		# shellcheck disable=SC2046
		$DELAY $(echo "--cap $3" | sed 's/,/ --cap /g') --blocks $4 \
		    "$1/$2.eventlog" $d/o.eventlog
		ok "delay: $2 cap $3 by $4: the units in the rule's order" \
		    $PY $T/order.py "$1/$2.eventlog" $d/o.eventlog $3 $4
	done
	ok "delay: --cap 65535 refused (global blocks stay)" \
	    eval "! $DELAY --cap 65535 $FIX/gc.eventlog $d/x 2>/dev/null"
}

# ---------------------------------------------------------------------
# 2 and 3.  delayed NAME FILE CASES CHUNK DELAY_US: for each case (CAPS:N,
# CAPS a comma list or all-but-0), FILE delayed, served over a Unix socket
# and through a FIFO at CHUNK bytes every DELAY_US: live = file, every key.
# Identical bytes (a small log's blocks all moved to the end already) are
# served once.  SKIP_KEYS: keys left out of the comparison
# (truncated.eventlog: see fixtures_live).
#
# The figures must have been corrected (history.corrections > 0) where a
# block comes 100 ms or more after its place at that pace (the bytes
# between, by delay -v, at CHUNK per DELAY_US at most), 3 times the 30 ms
# in which evtop puts what comes together in order before showing it.
# LONG=1 (long logs, streamed for 0.3 s or more): lag_ns is a number in
# some line (the source is open and a WALL_CLOCK_TIME has been read).
LONG=0
SKIP_KEYS=
delayed() {
	local name=$1 f=$2 chunk=$4 us=$5 c caps n d sum kind st
	local late corr eq keys nlag nlines what most wall
	local -A seen=()
	for c in $3; do
		caps=${c%:*} n=${c#*:}
		d=$T/live/$name-${caps//,/+}-$n
		mkdir -p $d
		# shellcheck disable=SC2046
		$DELAY -v $(echo "--cap $caps" | sed 's/,/ --cap /g') \
		    --blocks $n "$f" $d/in.eventlog 2>$d/delay.v
		sum=$(md5sum <$d/in.eventlog | cut -c1-32)
		if [ -n "${seen[$sum]:-}" ]; then
			echo "# $name cap $caps +$n: the same bytes as ${seen[$sum]}"
			continue
		fi
		seen[$sum]="cap $caps +$n"
		cmp -s "$f" $d/in.eventlog && seen[$sum]+=" (no block moved)"
		# The most a block was moved, in bytes, then in us at the pace.
		most=$(sed -n 's/.* to \([0-9]*\) bytes.*/\1/p' $d/delay.v)
		wall=$(( ${most:-0} * us / chunk ))
		for kind in unix fifo; do
			what="$name cap $caps +$n, $kind"
			serve $kind $d/in.eventlog $d/$kind $chunk $us
			st=$?
			# shellcheck disable=SC2086
			$CMP case $d/$kind/live.json ${f%.eventlog}.json \
			    $SKIP_KEYS >$d/$kind/res
			read -r late corr eq keys nlag nlines back <$d/$kind/res
			if [ $st -ne 0 ] || [ "$eq" != 1 ]; then
				tail -n +2 $d/$kind/res | grep -v \
				    '^[0-9]* of [0-9]* lines\|^went back' |
				    sed 's/^/# /'
			fi
			ok "$what: live = file, every key (exit $st, late $late)" \
			    eq "$st/$eq" 0/1
			[ "$keys" = 1 ] || grep '^[0-9]* of [0-9]* lines' \
			    $d/$kind/res | sed 's/^/# /'
			ok "$what: lag_ns and history in every line" eq "$keys" 1
			grep '^went back' $d/$kind/res | sed 's/^/# /'
			ok "$what: events_total never went back ($back of $nlines lines did)" \
			    eq "$back" 0
			if [ $wall -ge 100000 ]; then
				ok "$what: corrected ($corr times; a block $((most >> 10)) KiB, >= $((wall / 1000)) ms late)" \
				    between 1 "$corr" 999999999
			elif [ $LONG = 1 ]; then
				echo "# $what: corrected $corr times (not required: $((most >> 10)) KiB late at most, >= $((wall / 1000)) ms)"
			fi
			if [ $LONG = 1 ]; then
				ok "$what: lag_ns known while open ($nlag of $nlines lines)" \
				    between 1 "$nlag" 999999999
			fi
		done
	done
}

fixtures_live() {
	local f b caps cases
	mkdir -p $T/fix
	for f in $FIX/*.eventlog; do
		b=$(basename "$f" .eventlog)
		batch_of "$f" $T/fix/$b.json
		caps=$(tail -1 $T/fix/$b.json | grep -o '"caps":[0-9]*' |
		    head -1 | cut -d: -f2)
		case $b in
		ghc96-*) ;;
		*) [ "${caps:-0}" -ge 2 ] || continue ;;
		esac
		cp "$f" $T/fix/$b.eventlog
		cases="1:1 1:5 1:20 1:200 all-but-0:5"
		[ "${caps:-0}" -ge 3 ] && cases="$cases 2:20 1,2:1 all-but-0:200"
		# Its last event is cut: the file says so (errors 1,
		# last_error), a stream that closes there does not, delayed
		# or not (not a matter of late events).
		SKIP_KEYS=
		[ $b = truncated ] && SKIP_KEYS="errors last_error"
		# Small logs: 8 KiB every 2 ms, so late blocks come after
		# what they precede has been shown.
		delayed "$b" $T/fix/$b.eventlog "$cases" 8192 2000
	done
}

long_live() {
	# 64 KiB every 10 ms: 2 MB in about 0.4 s.
	LONG=1
	delayed gc-long $L/gc-long.eventlog "1:5 1:20 1:200" 65536 10000
	delayed nm-long $L/nm-long.eventlog "1:20 1:200 all-but-0:1" 65536 10000
	delayed thr-long $L/thr-long.eventlog "2:200 1,2:20 all-but-0:600" \
	    65536 10000
	LONG=0
}

# 3b. The 24 MB log, cap 1 20 blocks (2.8 s) late, served as fast as evtop
# reads (1 MiB writes): equal, and what the corrections cost, printed
# against the same log undelayed (not checked: the machine is shared).
full_speed() {
	local d=$T/full t0 t1 t2 st late corr eq keys nlag nlines back
	mkdir -p $d/plain $d/late
	$DELAY --cap 1 --blocks 20 $L/big.eventlog $d/late/in.eventlog
	t0=$(date +%s%N)
	serve unix $L/big.eventlog $d/plain 1048576 0
	t1=$(date +%s%N)
	serve unix $d/late/in.eventlog $d/late 1048576 0
	st=$?
	t2=$(date +%s%N)
	$CMP case $d/late/live.json $L/big.json >$d/res
	read -r late corr eq keys nlag nlines back <$d/res
	[ "$eq" = 1 ] || tail -n +2 $d/res | sed 's/^/# /'
	ok "big cap 1 +20 at full speed: live = file, every key (exit $st, late $late)" \
	    eq "$st/$eq" 0/1
	echo "# big (24 MB) over a Unix socket at full speed: $(( (t1 - t0) / 1000000 )) ms undelayed, $(( (t2 - t1) / 1000000 )) ms with cap 1 20 blocks late ($corr corrections)"
}

# 4. --history 0: as before, late events applied as they come.
history_off() {
	local d=$T/off late
	mkdir -p $d
	$DELAY --cap 1 --blocks 20 $L/nm-long.eventlog $d/in.eventlog
	serve unix $d/in.eventlog $d 65536 10000 --history 0
	ok "--history 0: exit 0" eq $? 0
	late=$(jget $d/live.json late)
	ok "--history 0: late events counted as before (late $late)" \
	    between 1 "$late" 999999999
}

# 5. Past the history: 28 s and 6 MB late, 1 s and 1 MiB kept.
past_history() {
	local d=$T/past late cap1 blocks total hist hb first last
	mkdir -p $d
	$DELAY --cap 1 --blocks 200 $L/big.eventlog $d/in.eventlog
	serve unix $d/in.eventlog $d 1048576 0 --history 1s \
	    --history-size 1
	ok "past the history: exit 0" eq $? 0
	{ read -r late; read -r hist; read -r hb; read -r first; read -r last
	} < <(jget $d/live.json late history history.bytes history.first_ns \
	    history.last_ns)
	# Only cap 1's events come out of order: no more of them are late
	# (its events and, generously, every block marker).
	{ read -r cap1; read -r blocks; read -r total; } < <(jget $L/big.json \
	    caps.1.events blocks events_total)
	ok "past the history: late > 0 ($late; cap 1 has $cap1 of the $total events)" \
	    between 1 "$late" $((cap1 + blocks))
	ok "past the history: every event counted (events, events_total, blocks)" \
	    counts_as $d/live.json $L/big.json
	echo "# history: $hist"
	# Kept in files of a quarter of the bound each, the oldest dropped
	# when the bound is passed: at most 1 MiB and a quarter (and a block).
	ok "past the history: history.bytes $hb within 1 MiB" \
	    between 1 "$hb" $((1048576 + 262144 + 65536))
	# Files go whole, when their newest event is older than the bound:
	# 1 s, and a file's worth of events (a quarter of 1 MiB holds 1.2 s
	# of this log), and the late ones among them.  Far less than the 28
	# s the blocks are late, or the 105 s of the log.
	case "$first$last" in
	*[!0-9]*|'') ok "past the history: first_ns and last_ns ($first, $last)" false ;;
	*) ok "past the history: $(((last - first) / 1000000)) ms of events kept (--history 1s)" \
	    between 0 $((last - first)) 5000000000 ;;
	esac
}

# 6. Bad bytes after late blocks: the history is given up there, its
# late events put back first; every event before them counted, none late.
bad_tail() {
	local d=$T/bad late err
	mkdir -p $d
	$DELAY --cap 1 --blocks 20 $L/nm-long.eventlog $d/in.eventlog
	# Its end marker, if it has one, becomes bytes of no declared tag.
	$PY - $d/in.eventlog <<'PYEOF'
import sys
p = sys.argv[1]
b = open(p, "rb").read()
if b.endswith(b"\xff\xff"):
    b = b[:-2]
open(p, "wb").write(b + b"\x69" * 64)
PYEOF
	serve unix $d/in.eventlog $d 65536 10000
	ok "bad bytes after late blocks: exit 0" eq $? 0
	{ read -r late; read -r err; } < <(jget $d/live.json late history.error)
	ok "bad bytes after late blocks: every event counted (events, events_total, blocks)" \
	    counts_as $d/live.json $L/nm-long.json
	ok "bad bytes after late blocks: none late (late $late)" eq "$late" 0
	ok "bad bytes after late blocks: the history given up, said ($err)" \
	    grep -q "bad bytes" <<<"$err"
}

# 7. A header that fails, then a good one, then late blocks: the history
# of the second session, where the stream's offsets went on, is exact.
bad_header_first() {
	local d=$T/badhdr late
	mkdir -p $d
	$DELAY --cap 1 --blocks 20 $L/nm-long.eventlog $d/delayed.eventlog
	# An event type whose description would be 4 GiB.
	{ printf 'hdrbhetbetb\0\0\1\0\4\377\377\377\377'
	  cat $d/delayed.eventlog; } >$d/in.eventlog
	serve unix $d/in.eventlog $d 65536 10000
	ok "a bad header first: exit 0" eq $? 0
	late=$(jget $d/live.json late)
	ok "a bad header first, then late blocks: every event counted" \
	    counts_as $d/live.json $L/nm-long.json
	ok "a bad header first, then late blocks: none late (late $late)" \
	    eq "$late" 0
}

delay_keeps
echo "# delay checked in $((SECONDS - T0)) s"
fixtures_live
echo "# fixtures live in $((SECONDS - T0)) s"
long_live
full_speed
echo "# long logs live in $((SECONDS - T0)) s"
history_off
past_history
bad_tail
bad_header_first

echo "# $((SECONDS - T0)) s"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
