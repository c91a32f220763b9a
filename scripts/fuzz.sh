#!/usr/bin/env bash
# Fuzzes b3c with libFuzzer, ASan and UBSan (internal errors abort: -DB3_ICE_ABORT).
#
#   bash scripts/fuzz.sh [SECONDS]              the front end: parse -> validate ->
#                                               print -> round trip (default 600 s)
#   bash scripts/fuzz.sh --backend [SECONDS]    the whole backend: every input that
#                                               validates is compiled at -O0 and -O2,
#                                               with -g and with -S (fuzz_backend.c)
#   bash scripts/fuzz.sh --import [SECONDS]     the LLVM-IR front end: .ll/.bc inputs
#                                               imported, read back as B3, compiled
#                                               at -O0 and -O2 (fuzz_import.c); from
#                                               testsuite/fuzz/corpus-import/
#
# Environment: FUZZ_JOBS (parallel workers, default: the number of cores; on a
# shared machine use 1), FUZZ_MAX_CORPUS (files kept in the corpus, default
# 500 for the front end, 300 for the backend), FUZZ_GEN_SEEDS (backend only:
# how many difftest-generated modules to add as seeds, default 300; 0 for
# none).
#
# Front end: runs on a copy of testsuite/fuzz/corpus/.  Backend: on a copy of
# testsuite/fuzz/corpus-backend/ plus seeds: the lit tests' .b3 files and
# modules from testsuite/difftest/gen_random.py.  Both use the dictionary
# testsuite/fuzz/b3.dict.  At the end, the inputs that add coverage are
# written back to the corpus (front end: a greedy set cover of the edges,
# testsuite/fuzz/cover.py, keeping the hand-written seed-* files; backend:
# libFuzzer's -merge=1, then the same set cover weighed towards small files
# if that keeps too many), and
# every crash, leak, timeout or out-of-memory reproducer is copied to
# testsuite/fuzz/crashes/ (backend ones prefixed "backend-").  Reproduce one
# with  build/fuzz/fuzz/fuzz_frontend FILE  or  build/fuzz/fuzz-backend/fuzz_backend FILE.
set -euo pipefail
cd "$(dirname "$0")/.."

backend=false
import=false
if [ "${1:-}" = "--backend" ]; then
    backend=true
    shift
elif [ "${1:-}" = "--import" ]; then
    import=true
    shift
fi
secs=${1:-600}
jobs=${FUZZ_JOBS:-$(nproc)}
dict=testsuite/fuzz/b3.dict
if $import; then
    # The LLVM-IR front end: .ll text and .bc bitcode inputs, in fork mode
    # like the backend, with the corpus merged back by -merge=1.
    mode=fuzz-import
    bin=build/fuzz/fuzz-import/fuzz_import
    cover_mode=cover-import
    corpus=testsuite/fuzz/corpus-import
    run=build/fuzz/run-import
    prefix=import-
    max_corpus=${FUZZ_MAX_CORPUS:-200}
    cover_opt=--small
    max_len=16384
    dict=testsuite/fuzz/ll.dict
elif $backend; then
    mode=fuzz-backend
    bin=build/fuzz/fuzz-backend/fuzz_backend
    cover_mode=cover-backend
    corpus=testsuite/fuzz/corpus-backend
    run=build/fuzz/run-backend
    prefix=backend-
    max_corpus=${FUZZ_MAX_CORPUS:-300}
    cover_opt=--small # whole modules: prefer the small ones
    # Generated modules are a few KiB; the largest lit tests are left out.
    max_len=16384
else
    mode=fuzz
    bin=build/fuzz/fuzz/fuzz_frontend
    cover_mode=cover
    corpus=testsuite/fuzz/corpus
    run=build/fuzz/run
    prefix=
    max_corpus=${FUZZ_MAX_CORPUS:-500}
    cover_opt=
    max_len=4096
fi

make -s -j2 b3c
make -s -j2 -f testsuite/fuzz/fuzz.mk MODE=$mode >/dev/null

rm -rf "$run"
mkdir -p "$run/corpus" "$run/artifacts" "$corpus" testsuite/fuzz/crashes
cp "$corpus"/* "$run/corpus/" 2>/dev/null || true
if $backend; then
    # Seeds: every lit test small enough, and valid random modules.
    while IFS= read -r f; do
        rel=${f#testsuite/}
        cp "$f" "$run/corpus/ts-$(tr '/' '-' <<<"$rel")"
    done < <(find testsuite -name '*.b3' -size -"$max_len"c -not -path 'testsuite/fuzz/*' | sort)
    python3 - "$run/corpus" "${FUZZ_GEN_SEEDS:-300}" <<'PY'
import os, sys, tempfile
sys.path.insert(0, "testsuite/difftest")
import gen_random
out, n = sys.argv[1], int(sys.argv[2])
with tempfile.TemporaryDirectory() as tmp:
    for seed in range(1, n + 1):
        d = os.path.join(tmp, str(seed))
        gen_random.generate(seed, d, size=6 + seed % 30)  # a few KiB each
        with open(os.path.join(d, "prog.b3")) as f, open(os.path.join(out, "gen-%04d.b3" % seed), "w") as g:
            g.write(f.read())
PY
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:intercept_tls_get_addr=0:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

common=(-dict="$dict" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048)
log=$run/fuzz.log
echo "fuzz: $mode, $secs s, $jobs worker(s), $(find "$run/corpus" -type f | wc -l) inputs to start; log in $log"
set +e
if [ "$jobs" -gt 1 ] || $backend || $import; then
    # Fork mode keeps going after a crash, so one run can find several bugs
    # (and the backend has open ones that would otherwise stop every run).
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
ft=$(sed -nE 's/.*ft: ([0-9]+).*/\1/p' <<<"$last")
elapsed=$(sed -nE 's/.*time: ([0-9]+)s.*/\1/p' <<<"$last")
# Fork mode's exec/s column is one job's; the average over the run is execs/time.
rate='?'
if [ -n "$execs" ] && [ -n "$elapsed" ] && [ "$elapsed" -gt 0 ]; then
    rate=$((execs / elapsed))
elif [ -n "$execs" ]; then
    rate=$((execs / secs))
fi
echo "fuzz: execs=${execs:-?} exec/s=$rate features=${ft:-?} (libFuzzer exit $status)"

# Reproducers.
n_art=0
for f in "$run"/artifacts/*; do
    [ -e "$f" ] || continue
    cp "$f" "testsuite/fuzz/crashes/$prefix$(basename "$f")"
    n_art=$((n_art + 1))
done
echo "fuzz: $n_art reproducer(s) copied to testsuite/fuzz/crashes/"
grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error:|.*internal error|fuzz_frontend: |fuzz_import: )' "$log" | sort | uniq -c | sort -rn | head -40 || true

# Write back what adds coverage.  libFuzzer's -merge=1 keeps every input that
# adds a feature (edge hit-count buckets too), thousands for the front end;
# a greedy set cover of the edges (testsuite/fuzz/cover.py, from the coverage
# build's replay) keeps at most $max_corpus files.
before=$(find "$corpus" -type f | wc -l)
all=$run/all
mkdir -p "$all"
if $backend || $import; then
    # -merge=1 first: it prefers small inputs and drops what adds nothing.
    "$bin" -merge=1 -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 "$all" "$corpus" "$run/corpus" \
        >"$run/merge.log" 2>&1 || echo "fuzz: -merge=1 failed (see $run/merge.log)" >&2
else
    cp "$corpus"/* "$all/" 2>/dev/null || true
    cp "$run"/corpus/* "$all/" 2>/dev/null || true
fi
n_all=$(find "$all" -type f | wc -l)
if ! { $backend || $import; } || [ "$n_all" -gt "$max_corpus" ]; then
    if make -s -j2 -f testsuite/fuzz/fuzz.mk MODE=$cover_mode >/dev/null &&
        build/fuzz/$cover_mode/replay --cover "$run/cover.txt" "$all" >"$run/cover.log" 2>&1 &&
        python3 testsuite/fuzz/cover.py --max "$max_corpus" $cover_opt "$run/cover.txt" >"$run/keep.txt"; then
        rm -f "$corpus"/*
        xargs -d '\n' cp -t "$corpus/" <"$run/keep.txt"
    elif $backend || $import; then
        echo "fuzz: coverage replay failed (see $run/cover.log); corpus left as it was" >&2
    else
        echo "fuzz: coverage replay failed (see $run/cover.log); merging with libFuzzer instead" >&2
        "$bin" -merge=1 -max_len="$max_len" -timeout=10 "$corpus" "$run/corpus" >"$run/merge.log" 2>&1
    fi
elif [ "$n_all" -gt 0 ]; then
    rm -f "$corpus"/*
    cp "$all"/* "$corpus/"
fi
after=$(find "$corpus" -type f | wc -l)
echo "fuzz: corpus $before -> $after files"
# Edge coverage of the kept corpus, in the fuzzer's own terms.
"$bin" -runs=0 -max_len="$max_len" "$corpus" 2>&1 | grep -E 'INITED' | sed 's/^/fuzz: corpus replay: /' || true
[ "$n_art" -eq 0 ]
