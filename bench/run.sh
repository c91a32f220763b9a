#!/usr/bin/env bash
# b3c benchmarks (`make bench`).
#
#   bash bench/run.sh [frontend|obj|all] [--values N] [--runs K]
#   bash bench/run.sh quality [OPTIONS]
#   bash bench/run.sh scaling [ARGS...]
#   bash bench/run.sh compile [ARGS...]
#
# frontend (default N = 1,000,000): times `b3c --emit=b3` (read, parse,
#     validate, print; -O0) on a generated module and reports wall time,
#     values/second and peak RSS in bytes per value.
#     Goal on a 2-core machine: < 1.5 s and < 300 bytes/value at 1M values.
# obj (default N = 200,000): times compiling a generated module to an object
#     file at -O0 and -O2.  Skipped, with a message, while this b3c cannot
#     write object files.
# all (the default): both.
# quality: the code-quality benchmark, bench/quality.sh (its own options;
#     `bash bench/quality.sh --help`): kernels in B3 and C, b3c -O0/-O1/-O2
#     against gcc -O2 and clang -O2.  Not part of all.
# scaling: bench/scaling.sh (growth of compile time and memory on
#     pathological shapes: jump chains, big Switches, deep loop nests, many
#     Phis, many values live across a call); ARGS go to it.
# compile: bench/compile.sh (the optimizer's compile speed and memory at
#     -O0/-O1/-O2: a 1M-value module, a long block, many blocks, big
#     switches, a deep loop nest, each at n and 2n); ARGS go to it.
#
# Modules come from bench/gen.py (deterministic) and are cached in bench/out/.
# Each measurement is the best wall time of K runs (default 3) and the
# largest peak RSS (measured by /usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = quality ]; then
    shift
    exec bash bench/quality.sh "$@"
fi
if [ "${1:-}" = compile ]; then
    shift
    exec bash "$(dirname "$0")/compile.sh" "$@"
fi
if [ "${1:-}" = scaling ]; then
    shift
    exec bash "$(dirname "$0")/scaling.sh" "$@"
fi

mode=all
values=
runs=3
while [ $# -gt 0 ]; do
    case $1 in
    frontend | obj | all) mode=$1 ;;
    --values) values=$2; shift ;;
    --values=*) values=${1#*=} ;;
    --runs) runs=$2; shift ;;
    --runs=*) runs=${1#*=} ;;
    -h | --help) sed -n '2,/^[^#]/p' "$0" | grep '^#'; exit 0 ;;
    *) echo "bench: unknown argument '$1'" >&2; exit 2 ;;
    esac
    shift
done

B3C=${B3C:-./b3c}
[ -x "$B3C" ] || make -s -j2 b3c
[ -x /usr/bin/time ] || bash scripts/deps.sh
mkdir -p bench/out

# module N: prints the path of the cached module with about N values.
module() {
    local n=$1 f=bench/out/gen-$1.b3
    if [ ! -s "$f" ] || [ ! -s "$f.meta" ] || [ bench/gen.py -nt "$f" ]; then
        echo "bench: generating $f" >&2
        python3 bench/gen.py --values "$n" -o "$f.tmp" >&2
        mv "$f.tmp.meta" "$f.meta"
        mv "$f.tmp" "$f"
    fi
    echo "$f"
}

meta() { sed -n "s/^$2=//p" "$1.meta"; }

# measure LABEL NVALUES CMD...: runs CMD $runs times (its stdout discarded)
# and prints one result line.  Fails if CMD fails.
measure() {
    local label=$1 n=$2
    shift 2
    local best='' rss=0 i t0 t1 ms kb err
    err=$(mktemp)
    for ((i = 0; i < runs; i++)); do
        t0=$(date +%s%N)
        if ! /usr/bin/time -f '%M' -o "$err.rss" "$@" >/dev/null 2>"$err"; then
            echo "bench: $label: command failed: $*" >&2
            head -20 "$err" >&2
            rm -f "$err" "$err.rss"
            return 1
        fi
        t1=$(date +%s%N)
        ms=$(((t1 - t0) / 1000000))
        kb=$(tail -n 1 "$err.rss")
        if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
        if [ "$kb" -gt "$rss" ]; then rss=$kb; fi
    done
    rm -f "$err" "$err.rss"
    awk -v label="$label" -v n="$n" -v ms="$best" -v kb="$rss" 'BEGIN {
        s = ms / 1000.0
        printf "%-22s %9d values  %7.3f s  %10.0f values/s  peak RSS %7.1f MiB = %6.1f bytes/value\n",
            label, n, s, (s > 0 ? n / s : 0), kb / 1024.0, kb * 1024.0 / n
    }'
    # For the goal check.
    last_ms=$best
    last_bpv=$((rss * 1024 / n))
}

frontend() {
    local n=${values:-1000000} f
    f=$(module "$n")
    local nv nb np
    nv=$(meta "$f" values)
    nb=$(meta "$f" blocks)
    np=$(meta "$f" procs)
    echo "== front end: $f ($nv values, $nb blocks, $np procedures, $(du -h "$f" | cut -f1)), best of $runs"
    # -O0: the input printed back unchanged (no B3 phases), whatever -O2 does.
    measure "parse+validate+print" "$nv" "$B3C" -O0 --emit=b3 "$f" -o -
    if [ "$nv" -ge 1000000 ]; then
        local verdict=met
        if [ "$last_ms" -ge 1500 ] || [ "$last_bpv" -ge 300 ]; then verdict="NOT met"; fi
        echo "goal (< 1.5 s, < 300 bytes/value at 1M values): $verdict"
    fi
}

obj() {
    local n=${values:-200000} f probe
    probe=$(mktemp -d)
    if ! "$B3C" examples/fib.b3 -o "$probe/probe.o" >/dev/null 2>&1; then
        rm -rf "$probe"
        echo "== compile to .o: skipped (this b3c cannot write object files yet: --emit=obj)"
        return 0
    fi
    f=$(module "$n")
    local nv
    nv=$(meta "$f" values)
    echo "== compile to .o: $f ($nv values), best of $runs"
    measure "-O0 to .o" "$nv" "$B3C" -O0 "$f" -o "$probe/out.o"
    measure "-O2 to .o" "$nv" "$B3C" -O2 "$f" -o "$probe/out.o"
    rm -rf "$probe"
}

case $mode in
frontend) frontend ;;
obj) obj ;;
all)
    frontend
    obj
    ;;
esac
