#!/usr/bin/env bash
# Installs the Debian packages missing for what is asked, with apt-get as
# root, with sudo otherwise; prints the exact apt-get line when neither is
# possible.
#
#   .ci/deps.sh [build] [demo] [tests]	(none: all three)
#
# build: to build and run evtop; demo: ghc for the program demo.sh runs;
# tests: what `make check` and the screenshots need besides (npm's
# speedscope, for tests/export, is installed by that test into build/npm on
# first use).
set -euo pipefail
build=(build-essential pkg-config libncurses-dev libtermkey-dev uthash-dev)
demo=(ghc ghc-prof)
tests=(tmux clang libclang-rt-14-dev libghc-ghc-events-dev jq chromium
       fonts-dejavu-core python3 debootstrap prometheus nodejs npm)
[ $# -gt 0 ] || set -- build demo tests
pkgs=()
for set in "$@"; do
  case $set in
  build|demo|tests) eval 'pkgs+=("${'"$set"'[@]}")' ;;
  *) echo "usage: .ci/deps.sh [build] [demo] [tests]" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${pkgs[@]}"; do
  # Node.js from elsewhere (NodeSource's nodejs brings its own npm, which
  # Debian's npm package conflicts with): its commands are enough.
  case $p in
  nodejs) command -v node >/dev/null 2>&1 && continue ;;
  npm) command -v npm >/dev/null 2>&1 && continue ;;
  esac
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "evtop: installing ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo=(sudo)
else
  echo "evtop: please run:  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
