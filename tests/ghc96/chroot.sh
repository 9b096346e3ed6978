#!/usr/bin/env bash
# chroot.sh: make (once) a Debian 13 (trixie) chroot with GHC 9.6, for the tests that run
# real programs built by a modern GHC.  Cached: a finished chroot is reused as it is.
#
# Usage: tests/ghc96/chroot.sh [make|path|run CMD...]
#   make   build the chroot if it is not there (needs root and debootstrap; about 3 minutes
#          and 2 GB the first time)
#   path   print the chroot's directory if it is ready, exit 3 otherwise
#   run    run CMD inside it (as root, cwd /work inside), with /proc mounted for the run
#   exec   exec CMD inside it in this process (its pid stays the caller's $!): paths under
#          the chroot's directory in the arguments and in the GHC_EVENTLOG_*, SOCKPROG_*
#          variables (passed through) are given as the program sees them
# Environment: EVTOP_CHROOT  where it lives (default /var/cache/evtop/trixie-ghc96)
#              EVTOP_MIRROR  the Debian mirror (default http://deb.debian.org/debian)
#
# Programs built there run there (its libc is newer than bookworm's); evtop runs outside
# and reads their files, FIFOs and sockets through "$EVTOP_CHROOT/work".
set -euo pipefail

dir=${EVTOP_CHROOT:-/var/cache/evtop/trixie-ghc96}
mirror=${EVTOP_MIRROR:-http://deb.debian.org/debian}
pkgs=(ghc ghc-prof libghc-stm-dev)
stamp=$dir/.evtop-ready

die() { echo "chroot.sh: $*" >&2; exit 1; }

ready() { [ -f "$stamp" ] && [ -x "$dir/usr/bin/ghc" ]; }

make_it() {
	ready && return 0
	[ "$(id -u)" -eq 0 ] || die "needs root to make $dir"
	command -v debootstrap >/dev/null 2>&1 || die "debootstrap not found (apt-get install debootstrap)"
	mkdir -p "$dir"
	if [ ! -x "$dir/usr/bin/apt-get" ] || [ ! -f "$dir/.evtop-base" ]; then
		echo "chroot.sh: debootstrap trixie into $dir"
		debootstrap --variant=minbase trixie "$dir" "$mirror" >"$dir.log" 2>&1 ||
			{ tail -20 "$dir.log" >&2; die "debootstrap failed (log: $dir.log)"; }
		touch "$dir/.evtop-base"
	fi
	echo "chroot.sh: apt-get install ${pkgs[*]} inside"
	cp /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null || true
	inside env DEBIAN_FRONTEND=noninteractive apt-get update -qq >>"$dir.log" 2>&1 ||
		{ tail -20 "$dir.log" >&2; die "apt-get update failed (log: $dir.log)"; }
	inside env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"${pkgs[@]}" >>"$dir.log" 2>&1 ||
		{ tail -20 "$dir.log" >&2; die "apt-get install failed (log: $dir.log)"; }
	inside apt-get clean >/dev/null 2>&1 || true
	mkdir -p "$dir/work"
	chmod 1777 "$dir/work"
	inside ghc --numeric-version | grep -q '^9\.6' || die "the chroot's ghc is not 9.6"
	touch "$stamp"
}

# inside [exec] CMD...: run CMD in the chroot, in a mount namespace of its own where /proc (GHC's
# RTS reads it) and /dev are mounted: they go with the namespace, so concurrent calls never
# unmount each other's.
inside() {
	local ex=
	[ "$1" = exec ] && { ex=exec; shift; }
	$ex unshare -m --propagation private /bin/sh -c '
		d=$1; shift
		mount -t proc proc "$d/proc" && mount --bind /dev "$d/dev" || exit 125
		exec chroot "$d" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root \
			LANG=C.UTF-8 "$@"' sh "$dir" "${pass[@]}" "$@"
}

# The variables a program run with exec gets, paths made the program's.
pass=()
passing() {
	local v
	for v in $(compgen -e); do
		case $v in
		GHC_EVENTLOG_*|SOCKPROG_*) pass+=("$v=${!v//$dir\//\/}") ;;
		esac
	done
}

case ${1:-make} in
make) make_it; echo "$dir" ;;
path) ready || exit 3; echo "$dir" ;;
run)
	shift
	ready || die "no chroot at $dir (tests/ghc96/chroot.sh make)"
	[ "$(id -u)" -eq 0 ] || die "needs root to chroot"
	inside /bin/sh -c 'cd /work && exec "$@"' sh "$@"
	;;
exec)
	shift
	ready || die "no chroot at $dir (tests/ghc96/chroot.sh make)"
	passing
	args=()
	for a in "$@"; do args+=("${a//$dir\//\/}"); done
	# The working directory too, when it is inside (chroot goes to /).
	wd=/work
	case $PWD/ in "$dir"/*) wd=${PWD#"$dir"} ;; esac
	inside exec /bin/sh -c 'cd "$1" && shift && exec "$@"' sh "$wd" "${args[@]}"
	;;
*) die "usage: chroot.sh [make|path|run CMD...|exec CMD...]" ;;
esac
