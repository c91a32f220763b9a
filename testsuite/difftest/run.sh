#!/usr/bin/env bash
# Differential testing of b3c: run.sh [N] [SEED] [difftest.py options...]
# Generates N random modules (seeds SEED..SEED+N-1, default 100 from 1),
# compiles each with `b3c --verify-each` at -O0, -O1 and -O2, runs them against
# the reference interpreter, and saves (and reduces) every failing case
# under testsuite/difftest/failures/.  See difftest.py for the options.
set -u
here=$(cd "$(dirname "$0")" && pwd)
n=${1:-100}
seed=${2:-1}
shift $(( $# < 2 ? $# : 2 ))
exec python3 "$here/difftest.py" -n "$n" --seed "$seed" "$@"
