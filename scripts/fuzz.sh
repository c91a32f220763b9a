#!/usr/bin/env bash
# Fuzzes the front end (parse -> validate -> print -> round trip) with
# libFuzzer, ASan and UBSan.
#
#   bash scripts/fuzz.sh [SECONDS]     default 600
#
# Environment: FUZZ_JOBS (parallel workers, default: the number of cores),
# FUZZ_MAX_CORPUS (files kept in the corpus, default 500).
#
# Runs on a copy of testsuite/fuzz/corpus/ with the dictionary
# testsuite/fuzz/b3.dict.  At the end, the inputs that add edge coverage are
# written back to testsuite/fuzz/corpus/ (at most 500 files, chosen by a
# greedy set cover; the hand-written seed-* files always stay), and
# every crash, leak, timeout or out-of-memory reproducer is copied to
# testsuite/fuzz/crashes/.  Reproduce one with
#   build/fuzz/fuzz/fuzz_frontend testsuite/fuzz/crashes/FILE
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:-600}
jobs=${FUZZ_JOBS:-$(nproc)}
max_corpus=${FUZZ_MAX_CORPUS:-500}

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
elapsed=$(sed -nE 's/.*time: ([0-9]+)s.*/\1/p' <<<"$last")
# Fork mode's exec/s column is one job's; the average over the run is execs/time.
rate='?'
if [ -n "$execs" ] && [ -n "$elapsed" ] && [ "$elapsed" -gt 0 ]; then
    rate=$((execs / elapsed))
elif [ -n "$execs" ]; then
    rate=$((execs / secs))
fi
echo "fuzz: execs=${execs:-?} exec/s=$rate coverage(edges)=${cov:-?} features=${ft:-?} (libFuzzer exit $status)"

# Reproducers.
n_art=0
for f in "$run"/artifacts/*; do
    [ -e "$f" ] || continue
    cp "$f" testsuite/fuzz/crashes/
    n_art=$((n_art + 1))
done
echo "fuzz: $n_art reproducer(s) copied to testsuite/fuzz/crashes/"
grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error:|fuzz_frontend: )' "$log" | sort | uniq -c | sort -rn | head -40 || true

# Write back what adds coverage.  libFuzzer's -merge=1 keeps every input that
# adds a feature, thousands of them; instead, replay the old corpus and this
# run's through the coverage build and keep a greedy set cover of the edges
# (testsuite/fuzz/cover.py): the hand-written seed-* files, then at most
# $max_corpus files in all.
before=$(find testsuite/fuzz/corpus -type f | wc -l)
all=$run/all
mkdir -p "$all"
cp testsuite/fuzz/corpus/* "$all/" 2>/dev/null || true
cp "$run"/corpus/* "$all/" 2>/dev/null || true
if make -s -j2 -f testsuite/fuzz/fuzz.mk MODE=cover >/dev/null &&
    build/fuzz/cover/replay --cover "$run/cover.txt" "$all" >"$run/cover.log" 2>&1 &&
    python3 testsuite/fuzz/cover.py --max "$max_corpus" "$run/cover.txt" >"$run/keep.txt"; then
    rm -f testsuite/fuzz/corpus/*
    xargs -d '\n' cp -t testsuite/fuzz/corpus/ <"$run/keep.txt"
else
    echo "fuzz: coverage replay failed (see $run/cover.log); merging with libFuzzer instead" >&2
    "$bin" -merge=1 -max_len=4096 -timeout=10 testsuite/fuzz/corpus "$run/corpus" >"$run/merge.log" 2>&1
fi
after=$(find testsuite/fuzz/corpus -type f | wc -l)
echo "fuzz: corpus $before -> $after files"
[ "$n_art" -eq 0 ]
