#!/usr/bin/env bash
# The C-program benchmark: b3cc (clang-16's front end + b3c) next to clang-16
# and gcc on C programs, compile time and run time, in one run.  A script to
# run by hand (minutes), not a timed test.
#
#   bash bench/cprograms.sh [OPTIONS]
#
# Programs: csmith programs of fixed seeds (--seeds, default 1-10; options of
# scripts/csmith-opts.sh) and the C kernels of bench/quality (NAME.c).
# Measured, in interleaved rounds (each round measures everything once, in
# shuffled order; the minimum over the rounds is kept):
#   - compile time of each program to an object, the whole driver:
#     b3cc -O0/-O2, clang-16 -O0/-O2, gcc -O2;
#   - b3c's part alone on the same bitcode against llc-16 -filetype=obj:
#     b3c -O0 vs llc -O0 on clang's -O0 bitcode, b3c -O2 vs llc -O2 on clang's
#     `-O2 -fno-vectorize -fno-slp-vectorize` bitcode;
#   - run time of the kernels built by each of the five, by b3c -O2 and
#     llc -O2 on the same optimized bitcode, and by B3's optimizer alone
#     (clang's -O0 bitcode with optnone off through b3c -O2) next to
#     clang -O1; each linked with the same driver (bench/quality/driver.c by
#     gcc -O2), after checking that every build prints the same checksum.
# Prints three tables with the ratios (b3cc/clang, b3cc/gcc, b3c/llc, each
# kernel's time over gcc -O2's, b3c/llc and the -O0-bitcode build over
# clang -O1 at run time) and their geometric means.  A program b3cc
# cannot compile (an LLVM construct the importer does not take yet) is listed
# at the end and left out of the means.
#
# Options:
#   --rounds N         rounds (default 3)
#   --seeds A-B|none   csmith seeds (default 1-10)
#   --kernels LIST     comma-separated subset of the kernels
#   --clock cpu|wall   process CPU time (default) or elapsed time
#   --check            the kernels' small sizes and one round (a quick try)
#   --no-run           compile times only
#   --out DIR          work directory (default bench/out/cprograms)
# Environment: B3CC, B3C (default ./b3cc, ./b3c, built by make), CLANG
# (clang-16), LLC (llc-16), GCC (gcc).  docs/testing.md, "C programs".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${B3CC:-}" ] && [ -z "${B3C:-}" ]; then
    make -s -C "$root" -j2 all >&2
fi
exec python3 "$root/bench/cprograms.py" "$@"
