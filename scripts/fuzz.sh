#!/usr/bin/env bash
# Fuzzes the front end (parse -> validate -> print -> round trip) with
# libFuzzer, ASan and UBSan.
#
#   bash scripts/fuzz.sh [SECONDS]     default 600
#
# Environment: FUZZ_JOBS (parallel workers, default: the number of cores).
#
# Runs on a copy of testsuite/fuzz/corpus/ with the dictionary
# testsuite/fuzz/b3.dict.  At the end, inputs that add coverage are merged
# back into testsuite/fuzz/corpus/ (kept to about 500 files; the hand-written
# seed-* files there always stay), and
# every crash, leak, timeout or out-of-memory reproducer is copied to
# testsuite/fuzz/crashes/.  Reproduce one with
#   build/fuzz/fuzz/fuzz_frontend testsuite/fuzz/crashes/FILE
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:-600}
jobs=${FUZZ_JOBS:-$(nproc)}
max_corpus=500

make -s -j2 b3c
make -s -j2 -f testsuite/fuzz/fuzz.mk MODE=fuzz >/dev/null
bin=build/fuzz/fuzz/fuzz_frontend

run=build/fuzz/run
rm -rf "$run"
mkdir -p "$run/corpus" "$run/artifacts" testsuite/fuzz/corpus testsuite/fuzz/crashes
cp testsuite/fuzz/corpus/* "$run/corpus/" 2>/dev/null || true

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

common=(-dict=testsuite/fuzz/b3.dict -max_len=4096 -timeout=10 -rss_limit_mb=2048)
log=$run/fuzz.log
echo "fuzz: $secs s, $jobs worker(s); log in $log"
set +e
if [ "$jobs" -gt 1 ]; then
    # Fork mode keeps going after a crash, so one run can find several bugs.
    "$bin" "${common[@]}" -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -max_total_time="$secs" -artifact_prefix="$run/artifacts/" "$run/corpus" >"$log" 2>&1
else
    "$bin" "${common[@]}" -max_total_time="$secs" -print_final_stats=1 \
        -artifact_prefix="$run/artifacts/" "$run/corpus" >"$log" 2>&1
fi
status=$?
set -e

# Statistics: the last status line ("#N ... cov: C ft: F corp: K ... exec/s: E").
last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
echo "fuzz: last status: $last"
execs=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$last")
cov=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$last")
ft=$(sed -nE 's/.*ft: ([0-9]+).*/\1/p' <<<"$last")
rate=$(sed -nE 's/.*exec\/s:? ([0-9]+).*/\1/p' <<<"$last")
echo "fuzz: execs=${execs:-?} exec/s=${rate:-?} coverage(edges)=${cov:-?} features=${ft:-?} (libFuzzer exit $status)"

# Reproducers.
n_art=0
for f in "$run"/artifacts/*; do
    [ -e "$f" ] || continue
    cp "$f" testsuite/fuzz/crashes/
    n_art=$((n_art + 1))
done
echo "fuzz: $n_art reproducer(s) copied to testsuite/fuzz/crashes/"
grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error:|fuzz_frontend: )' "$log" | sort | uniq -c | sort -rn | head -40 || true

# Merge what adds coverage back into the committed corpus.
before=$(find testsuite/fuzz/corpus -type f | wc -l)
"$bin" -merge=1 -max_len=4096 -timeout=10 testsuite/fuzz/corpus "$run/corpus" >"$run/merge.log" 2>&1 || {
    echo "fuzz: merge failed; see $run/merge.log" >&2
    exit 1
}
after=$(find testsuite/fuzz/corpus -type f | wc -l)
if [ "$after" -gt "$max_corpus" ]; then
    # Too many: minimize.  The hand-written seeds (seed-*) are always kept;
    # of the rest only what adds coverage to them survives.
    min=$run/minimized
    mkdir -p "$min"
    cp testsuite/fuzz/corpus/seed-* "$min/" 2>/dev/null || true
    "$bin" -merge=1 -max_len=4096 -timeout=10 "$min" testsuite/fuzz/corpus >"$run/minimize.log" 2>&1
    rm -f testsuite/fuzz/corpus/*
    cp "$min"/* testsuite/fuzz/corpus/
    after=$(find testsuite/fuzz/corpus -type f | wc -l)
fi
echo "fuzz: corpus $before -> $after files"
[ "$n_art" -eq 0 ]
