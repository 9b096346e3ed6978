# lib.sh: what the shell tests share (sourced): TAP-style checks and waits.

passed=0
failed=0

# ok DESCRIPTION COMMAND...: one check, counted.
ok() {
	local what=$1
	shift
	if "$@"; then
		passed=$((passed + 1))
		echo "ok $((passed + failed)) - $what"
	else
		failed=$((failed + 1))
		echo "not ok $((passed + failed)) - $what"
	fi
}

# wait_for FILE REGEX SECONDS: poll until FILE has a line matching REGEX.
wait_for() {
	local end=$((SECONDS + $3 + 1))
	while [ $SECONDS -lt $end ]; do
		grep -Eq -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.02
	done
	echo "# timed out waiting for /$2/ in $1:" >&2
	tail -5 "$1" 2>/dev/null | sed 's/^/#   /' >&2
	return 1
}

# count FILE REGEX: how many lines match.
count() {
	grep -Ec -- "$2" "$1" 2>/dev/null
}

# wait_count FILE REGEX N SECONDS: poll until N lines match.
wait_count() {
	local end=$((SECONDS + $4 + 1))
	while [ $SECONDS -lt $end ]; do
		[ "$(count "$1" "$2")" -ge "$3" ] && return 0
		sleep 0.02
	done
	echo "# timed out waiting for $3 x /$2/ in $1" >&2
	return 1
}

# wait_exit PID SECONDS: its exit status, or 124 (and kill -9) if still up.
wait_exit() {
	local end=$((SECONDS + $2 + 1))
	while [ $SECONDS -lt $end ]; do
		if ! kill -0 "$1" 2>/dev/null; then
			wait "$1"
			return $?
		fi
		sleep 0.02
	done
	echo "# pid $1 still running after $2 s" >&2
	kill -9 "$1" 2>/dev/null
	return 124
}

# eq A B: two values are equal (says both if not).
eq() {
	[ "$1" = "$2" ] && return 0
	echo "# '$1' != '$2'" >&2
	return 1
}

# screen_has SESSION REGEX SECONDS: poll tmux ($T) until a line of the
# session's screen matches; the last screen stays in $TMP/SESSION.screen.
screen_has() {
	local end=$((SECONDS + $3 + 1))
	while [ $SECONDS -lt $end ]; do
		$T capture-pane -p -t "$1" >"$TMP/$1.screen" 2>/dev/null
		grep -Eq -- "$2" "$TMP/$1.screen" && return 0
		sleep 0.05
	done
	echo "# $1: timed out waiting for /$2/; the screen:" >&2
	sed 's/^/#   |/' "$TMP/$1.screen" >&2
	return 1
}

# key_own <LOG: "N median MS worst MS" of evtop's own key times (--log's
# "key answered within": from the earliest the key can have come, the end
# of the wait before the one that saw it or of the wait it ended, to its
# frame written).  tmux's send-keys and capture-pane are processes, each
# 5-10 ms to start on a 2-core VM and more beside a busy evtop: the times
# through tmux are evtop's plus 30-60 ms of the harness's own.
key_own() {
	grep -o 'key answered within [0-9.]*' | awk '{ print $4 }' |
	    sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "0 median - worst -";
	    else printf "%d median %.0f worst %.0f\n", NR, v[int((NR + 1) / 2)], v[NR] }'
}
# key_own_ok "N median MS worst MS" SENT: every key timed, median <= 50,
# worst <= 150.
key_own_ok() {
	set -- $1 $2
	[ "$1" -ge "$6" ] && [ "$3" != - ] && [ "$3" -le 50 ] && [ "$5" -le 150 ]
}
