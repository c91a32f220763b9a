#!/usr/bin/env bash
# b3c -O0 against llc-16 -O0 -filetype=obj on the same generated program:
# the .b3 from bench/gen.py and its LLVM IR from bench/gen_ll.py
# (bench/vs_llc.py; interleaved rounds, CPU time, bytes per value, ratios).
#
#   bash bench/vs_llc.sh [--values N] [--rounds K]
#
# B3C=path picks the compiler (default ./b3c; the .ll row needs b3c-llvm.so
# beside it, which `make` builds).
set -euo pipefail
cd "$(dirname "$0")/.."
B3C=${B3C:-./b3c}
[ -x "$B3C" ] && [ -e b3c-llvm.so ] || make -s -j2
exec python3 bench/vs_llc.py --b3c "$B3C" "$@"
