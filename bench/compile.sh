#!/usr/bin/env bash
# Compile speed and memory of the optimizer at -O0/-O1/-O2 (bench/compile.py:
# a large module, a long block, many blocks, a big switch as a branch chain
# and as a Switch, a deep loop nest; each at n and 2n).
#
#   bash bench/compile.sh [--quick] [--runs K] [--timeout S] [--passes] [CASE...]
#
# `bash bench/compile.sh --help` lists the cases and columns.  B3C=path picks
# the compiler (default ./b3c).
set -euo pipefail
cd "$(dirname "$0")/.."
B3C=${B3C:-./b3c}
[ -x "$B3C" ] || make -s -j2 b3c
exec python3 bench/compile.py --b3c "$B3C" "$@"
