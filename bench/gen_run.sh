#!/usr/bin/env bash
# The generated program's run time, b3c -O0/-O2 against llc-16 -O0/-O2 on the
# same program (bench/gen_run.py: a bench/gen.py module with short loops, its
# LLVM IR from bench/gen_ll.py, one C driver that calls every procedure;
# interleaved rounds, CPU time, optional valgrind instruction counts).
#
#   bash bench/gen_run.sh [--values N] [--reps R] [--rounds K] [--callgrind]
#
# B3C is built by make unless --b3c PATH is given.  A script to run by hand.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
case " $* " in *" --b3c "*) ;; *) make -s -C "$root" -j2 b3c >&2 ;; esac
exec python3 "$root/bench/gen_run.py" "$@"
