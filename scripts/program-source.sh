#!/usr/bin/env bash
# Fetches a Debian source package once and prints the directory of its
# unpacked, patched source tree.
#
#   bash scripts/program-source.sh SOURCE-PACKAGE
#
# The tree is kept in $B3C_PROGRAMS_CACHE (default build/programs/src) as
# <package>/<package>-<version>/; a second call prints it without touching
# the network.  `apt-get source` is the only way sources come in (the deb-src
# entry is added by scripts/deps.sh).  Callers copy the tree before building:
# the cache is never built in.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
pkg=${1:?usage: program-source.sh SOURCE-PACKAGE}
cache=${B3C_PROGRAMS_CACHE:-$here/build/programs/src}
dir=$cache/$pkg
if [ -f "$dir/.done" ]; then
    cat "$dir/.done"
    exit 0
fi
rm -rf "$dir"
mkdir -p "$dir"
(cd "$dir" && apt-get source -q "$pkg" > fetch.log 2>&1) || {
    echo "program-source: apt-get source $pkg failed (is there a deb-src entry? run scripts/deps.sh):" >&2
    tail -5 "$dir/fetch.log" >&2
    exit 1
}
tree=$(find "$dir" -mindepth 1 -maxdepth 1 -type d | head -1)
[ -n "$tree" ] || { echo "program-source: no source tree for $pkg" >&2; exit 1; }
echo "$tree" > "$dir/.done"
echo "$tree"
