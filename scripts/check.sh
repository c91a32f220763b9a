#!/usr/bin/env bash
# Runs every test: the lit suite and the fuzz corpus replay.
# Ends with one line "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
LIT=${LIT:-/usr/lib/llvm-14/build/utils/lit/lit.py}
passed=0
failed=0

out=$(mktemp)
python3 "$LIT" -v --no-progress-bar testsuite "$@" 2>&1 | tee "$out" | grep -E '^(FAIL|XPASS|UNRESOLVED|TIMEOUT):|^\*\*\*\*|^Failed|^Passed' || true
p=$(grep -cE '^(PASS|XFAIL|UNSUPPORTED): ' "$out")
f=$(grep -cE '^(FAIL|XPASS|UNRESOLVED|TIMEOUT): ' "$out")
passed=$((passed + p))
failed=$((failed + f))
if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
    echo "lit ran no tests:"; tail -20 "$out"
    failed=$((failed + 1))
fi
rm -f "$out"

# The fuzz corpus replayed under ASan/UBSan counts as one test.
if [ -x scripts/fuzz-smoke.sh ] || [ -f scripts/fuzz-smoke.sh ]; then
    if bash scripts/fuzz-smoke.sh >/tmp/b3c-fuzz-smoke.log 2>&1; then
        passed=$((passed + 1))
        echo "PASS: fuzz-smoke"
    else
        failed=$((failed + 1))
        echo "FAIL: fuzz-smoke"; tail -30 /tmp/b3c-fuzz-smoke.log
    fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
