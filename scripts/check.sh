#!/usr/bin/env bash
# Runs every test: the lit suite and the fuzz corpus replays.
# Ends with one line "N passed, N failed".
#
#   bash scripts/check.sh [--no-fuzz] [LIT ARGS...]
#
# --no-fuzz: the lit suite only (`make check-sanitize`, whose b3c is
# sanitized already, as the replays are).  B3C names the b3c to test.
set -u
cd "$(dirname "$0")/.."
fuzz=true
if [ "${1:-}" = "--no-fuzz" ]; then
    fuzz=false
    shift
fi
LIT=${LIT:-/usr/lib/llvm-14/build/utils/lit/lit.py}
passed=0
failed=0

lit() { # lit LABEL LIT-ARGS...: run lit, add its counts
    local label=$1 out p f
    shift
    out=$(mktemp)
    python3 "$LIT" -v --no-progress-bar "$@" 2>&1 | tee "$out" |
        grep -E '^(FAIL|XPASS|UNRESOLVED|TIMEOUT):|^\*\*\*\*|^Failed|^Passed' | sed "s/^/$label/" || true
    p=$(grep -cE '^(PASS|XFAIL|UNSUPPORTED): ' "$out")
    f=$(grep -cE '^(FAIL|XPASS|UNRESOLVED|TIMEOUT): ' "$out")
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
        echo "lit ran no tests:"; tail -20 "$out"
        failed=$((failed + 1))
    fi
    rm -f "$out"
}
lit "" testsuite "$@"

# The programs the suite runs (execution, stackmap and regression tests)
# again at -O0 and -O1: the default level is -O2, and every level must run
# them correctly.  A test that names its own level keeps it.
for level in -O0 -O1; do
    B3C_LEVEL=$level B3C_TEST_EXEC_ROOT=${B3C_TEST_EXEC_ROOT:-build/testsuite}$level \
        lit "[$level] " testsuite/exec testsuite/stackmaps testsuite/regress "$@"
done

# Each fuzz corpus replayed under ASan/UBSan counts as one test: the front
# end's (testsuite/fuzz/corpus) and the whole backend's (corpus-backend).
smoke() { # smoke NAME ARGS...
    local name=$1 log=/tmp/b3c-$1.$$.log
    shift
    if bash scripts/fuzz-smoke.sh "$@" >"$log" 2>&1; then
        passed=$((passed + 1))
        echo "PASS: $name ($(tail -n 1 "$log"))"
    else
        failed=$((failed + 1))
        echo "FAIL: $name"
        tail -30 "$log"
    fi
    rm -f "$log"
}
if $fuzz; then
    smoke fuzz-smoke
    smoke fuzz-smoke-backend --backend
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
