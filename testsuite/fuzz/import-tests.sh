#!/usr/bin/env bash
# Copies the lit tests' .b3 files (under 4 KiB, the fuzzer's -max_len) into
# the fuzz corpus as seed-ts-DIR-NAME.b3, so the fuzzer starts from every
# construct the test suite covers.  Tests run with an aarch64 target get the
# "; target=aarch64" first line the fuzz target looks for.  Re-run after
# adding tests; existing copies are refreshed.
set -euo pipefail
cd "$(dirname "$0")/../.."
n=0
while IFS= read -r f; do
    rel=${f#testsuite/}
    name=seed-ts-$(tr '/' '-' <<<"${rel%.b3}").b3
    out=testsuite/fuzz/corpus/$name
    if grep -qE 'RUN:.*(--target=(aarch64|arm64)|aarch64-linux)' "$f"; then
        { echo "; target=aarch64"; cat "$f"; } >"$out"
    else
        cp "$f" "$out"
    fi
    n=$((n + 1))
done < <(find testsuite -name '*.b3' -size -4k -not -path 'testsuite/fuzz/*' | sort)
echo "import-tests: $n files in testsuite/fuzz/corpus/"
