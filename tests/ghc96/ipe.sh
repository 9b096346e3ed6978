#!/usr/bin/env bash
# ipe.sh: -hi heap profiles named by their IPE entries, checked against the reference
# decoder (ghc-events 0.17, tests/ref) on the GHC 9.6 fixture ghc96-ipe-hi.eventlog:
#  - every -hi band in every census evtop --batch --json prints has the IPE entry the
#    reference reads for its address (table name, closure type number's name, source
#    location), or none when the reference has none;
#  - the largest bands of the last census are this module's closures, named;
#  - the .hp export names them as the pane does, and hp2ps reads it;
#  - the heap pane in tmux names them too, and Enter shows the whole entry.
#
#   tests/ghc96/ipe.sh EVTOP
set -u
EVTOP=${1:-./evtop}
LOG=tests/fixtures/ghc96-ipe-hi.eventlog
. "$(dirname "$0")/../lib.sh"

out=$(tests/ref/build.sh build/ref 2>&1); rc=$?
if [ $rc -eq 77 ]; then echo "$out"; echo "ipe: SKIPPED"; exit 0; fi
[ $rc -eq 0 ] || { echo "$out"; exit 1; }
command -v jq >/dev/null 2>&1 || { echo "SKIPPED: jq not found"; exit 0; }
T=$(mktemp -d "${TMPDIR:-/tmp}/evtop-ipe.XXXXXX")
trap 'tmux -L evtop-ipe$$ kill-server 2>/dev/null; rm -rf "$T"' EXIT

# The reference's IPE lines: "TIME: Info Table: ADDR:CLOSURE:NAME - SRCLOC".
build/ref/ghcevents-show "$LOG" |
    sed -nE 's/^[0-9]+: Info Table: ([0-9a-f]+):([0-9]+):(.*) - (.*)$/0x\1\t\2\t\3\t\4/p' \
    >"$T/ref.tsv"
ok "the reference reads IPE entries ($(wc -l <"$T/ref.tsv"))" \
    test "$(wc -l <"$T/ref.tsv")" -ge 100

# Every band of every census printed, with the entry evtop gave it.
"$EVTOP" --batch --json --interval 0.02 "$LOG" |
    jq -r '.heap.top_bands[] | [.band, (.ipe.table_name // "-"),
      (.ipe.closure // "-"), (.ipe.srcloc // "-")] | @tsv' | sort -u >"$T/ours.tsv"
# GHC's closure type numbers (rts/include/rts/storage/ClosureTypes.h) of the
# closures this program has.
ctname() {
	case $1 in
	1) echo CONSTR ;; 2) echo CONSTR_1_0 ;; 3) echo CONSTR_0_1 ;;
	4) echo CONSTR_2_0 ;; 5) echo CONSTR_1_1 ;; 6) echo CONSTR_0_2 ;;
	7) echo CONSTR_NOCAF ;; 8) echo FUN ;; 14) echo FUN_STATIC ;;
	15) echo THUNK ;; 16) echo THUNK_1_0 ;; 17) echo THUNK_0_1 ;;
	18) echo THUNK_2_0 ;; 19) echo THUNK_1_1 ;; 20) echo THUNK_0_2 ;;
	21) echo THUNK_STATIC ;; 22) echo THUNK_SELECTOR ;; *) echo "?$1" ;;
	esac
}
named=0 bad=0 bare=0
while IFS=$'\t' read -r band name ct loc; do
	ref=$(awk -F'\t' -v b="$band" '$1 == b' "$T/ref.tsv" | head -n 1)
	if [ -z "$ref" ]; then
		[ "$name" = - ] && bare=$((bare + 1)) ||
		    { bad=$((bad + 1)); echo "# $band: named $name, the reference has no entry"; }
		continue
	fi
	IFS=$'\t' read -r _ rct rname rloc <<<"$ref"
	if [ "$name" = "$rname" ] && [ "$ct" = "$(ctname "$rct")" ] && [ "$loc" = "$rloc" ]; then
		named=$((named + 1))
	else
		bad=$((bad + 1))
		echo "# $band: evtop $name/$ct/$loc, reference $rname/$(ctname "$rct")/$rloc"
	fi
done <"$T/ours.tsv"
ok "bands named as the reference's IPE entries ($named named, $bare without)" \
    test $bad -eq 0 -a $named -ge 10 -a $bare -ge 1

jqe() { jq -e "$@" >/dev/null; }
not() { ! "$@"; }
# The last census: its largest bands are Main's closures, named.
"$EVTOP" --batch --json "$LOG" | tail -n 1 >"$T/last.json"
ok "the last census's 4 largest bands have entries of module Main" eq \
    "$(jq '[.heap.top_bands[:4][] | select(.ipe.module == "Main")] | length' "$T/last.json")" 4
ok "a record constructor's band among the 10 largest, by its name" \
    jqe '[.heap.top_bands[] | select(.ipe.table_name | test("^Rec_"))
      | select(.ipe.type == "Rec" and .ipe.closure == "CONSTR")] | length > 0' "$T/last.json"
ok "IPE events counted" eq "$(jq .heap.ipe.events "$T/last.json")" "$(wc -l <"$T/ref.tsv")"

# The .hp export names the bands as the pane does (white space as _, for hp2ps).
"$EVTOP" --batch --hp "$T/hi.hp" "$LOG" >/dev/null
ok ".hp: the record constructor's band by its table name" \
    grep -Eq "^Rec_Main_[0-9]+_con_info_\(Rec\)_(Main|Ipe.hs:[0-9:-]+)	[0-9]+$" "$T/hi.hp"
ok ".hp: no band named by a bare address that has an entry" \
    not grep -Eq "^$(jq -r '.heap.top_bands[0].band' "$T/last.json")	" "$T/hi.hp"
if command -v hp2ps >/dev/null 2>&1; then
	ok ".hp: hp2ps reads it" sh -c "cd '$T' && hp2ps hi.hp && test -s hi.ps"
fi

# The heap pane.
if ! command -v tmux >/dev/null 2>&1; then
	echo "ipe: tmux SKIPPED"
else
	X="tmux -L evtop-ipe$$ -f/dev/null"
	top=$(jq -r '.heap.top_bands[0].ipe.table_name' "$T/last.json")
	rec=$(jq -r '[.heap.top_bands[] | select(.ipe.table_name | test("^Rec_"))][0].ipe.table_name' "$T/last.json")
	recloc=$(jq -r '[.heap.top_bands[] | select(.ipe.table_name | test("^Rec_"))][0].band' "$T/last.json")
	$X new-session -d -s ipe -x 140 -y 40 "LANG=C.UTF-8 $EVTOP $LOG"
	$X send-keys -t ipe 3 e
	shot() { $X capture-pane -p -t ipe >"$T/screen"; }
	seen() { local i; for i in $(seq 100); do shot; grep -qF -- "$1" "$T/screen" && return 0; sleep 0.1; done; return 1; }
	ok "heap pane: the largest band by its table name ($top)" seen "$top ("
	ok "heap pane: by info table" seen "heap profile by info table"
	# Select the record's band (Down as many rows as it is down the list) and Enter.
	n=$(jq '[.heap.top_bands[].ipe.table_name] | index("'"$rec"'")' "$T/last.json")
	for _ in $(seq "$n"); do $X send-keys -t ipe Down; done
	$X send-keys -t ipe Enter
	ok "heap pane: Enter shows the whole entry ($recloc)" seen "$recloc  $rec  CONSTR  type Rec"
	$X send-keys -t ipe q
fi
echo "ipe: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
