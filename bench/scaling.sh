#!/usr/bin/env bash
# Scaling benchmark: how b3c's compile time and memory grow with the size of
# pathological shapes (`bash bench/scaling.sh`, or `bash bench/run.sh scaling`).
#
#   bash bench/scaling.sh [--quick] [--runs K] [--timeout S] [SHAPE...]
#
# For each shape, compiles sizes n, 2n, 4n, 8n (-O2, to an object file) and
# prints wall time, CPU time (user + system: steadier than wall time on a
# shared machine) and peak RSS (/usr/bin/time -f '%e %U %S %M'), each with
# its growth factor over the previous size: about 2 per doubling is linear,
# 4 quadratic.  Shapes (modules from bench/scaling_gen.py, see its docstring;
# `gen` is one procedure of bench/gen.py):
#
#   jumpchain  a chain of empty jump-only blocks     50k .. 400k blocks
#   switch     one Switch of many cases              40k .. 320k cases
#   loopnest   nested counted loops                  500 .. 4000 deep
#   phis       Phis in one block                     5k .. 40k Phis
#   calllive   values live across one call           3k .. 24k values
#   chain      straight-line dependent ops           20k .. 160k ops
#   ifchain    a switch as a chain of compare+branch 5k .. 40k cases
#   foldchain  straight-line ops that all fold away  20k .. 160k ops
#   diamonds   branches decided by the previous Phi  2k .. 16k diamonds
#   blocks     blocks that each may leave for one    10k .. 80k blocks
#              exit (a Phi with an Upsilon in each)
#   tails      tests whose arms share small tails    5k .. 40k tests
#              (2 blocks each: 10k .. 80k blocks)
#   gen        a generated procedure (bench/gen.py)  50k .. 400k values
#
# loopnest's live sets are inherently quadratic (each of the d counters is
# live in every block of the loops inside its own: ~1.5 d^2 entries), so it
# grows by about 4 per doubling in both; the others should stay near 2.
# --quick drops the largest size; --runs K keeps the best time of K runs
# (default 1) and the largest RSS; --timeout S gives up on a size after S
# seconds (default 120; the rest of the shape is skipped).  B3C=path picks
# the compiler (default ./b3c).  Modules are cached in bench/out/scaling/.
# At the default sizes the whole run takes about a minute on a 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=1
timeout=120
quick=0
shapes=()
while [ $# -gt 0 ]; do
    case $1 in
    --quick) quick=1 ;;
    --runs) runs=$2; shift ;;
    --runs=*) runs=${1#*=} ;;
    --timeout) timeout=$2; shift ;;
    --timeout=*) timeout=${1#*=} ;;
    -h | --help) sed -n '2,/^set -e/{/^#/p}' "$0"; exit 0 ;;
    -*) echo "scaling: unknown option '$1'" >&2; exit 2 ;;
    *) shapes+=("$1") ;;
    esac
    shift
done
[ ${#shapes[@]} -gt 0 ] || shapes=(jumpchain switch loopnest phis calllive chain ifchain foldchain diamonds blocks tails gen)

B3C=${B3C:-./b3c}
[ -x "$B3C" ] || make -s -j2 b3c
[ -x /usr/bin/time ] || bash scripts/deps.sh
dir=bench/out/scaling
mkdir -p "$dir"

base_size() {
    case $1 in
    jumpchain) echo 50000 ;;
    switch) echo 40000 ;; # from 40k the lowering is a binary search (a jump table below 65536 values)
    loopnest) echo 500 ;;
    phis) echo 5000 ;;
    calllive) echo 3000 ;;
    chain) echo 20000 ;;
    ifchain) echo 5000 ;;
    foldchain) echo 20000 ;;
    diamonds) echo 2000 ;;
    blocks) echo 10000 ;;
    tails) echo 5000 ;;
    gen) echo 50000 ;;
    *) echo "scaling: unknown shape '$1'" >&2; exit 2 ;;
    esac
}

# module SHAPE N: prints the path of the cached module.
module() {
    local f=$dir/$1-$2.b3
    if [ ! -s "$f" ] || [ bench/scaling_gen.py -nt "$f" ] || [ bench/gen.py -nt "$f" ]; then
        if [ "$1" = gen ]; then
            python3 bench/gen.py --values "$2" --min-proc "$2" --max-proc "$2" -o "$f.tmp" >/dev/null 2>&1
            rm -f "$f.tmp.meta"
        else
            python3 bench/scaling_gen.py "$1" "$2" -o "$f.tmp"
        fi
        mv "$f.tmp" "$f"
    fi
    echo "$f"
}

# measure FILE: prints "wall cpu kilobytes" (best times, largest RSS of
# $runs runs), or "timeout" / "failed".
measure() {
    local f=$1 best='' bcpu='' rss=0 i out err s u sy kb cpu
    out=$(mktemp)
    err=$(mktemp)
    for ((i = 0; i < runs; i++)); do
        if ! /usr/bin/time -f '%e %U %S %M' -o "$out" timeout "$timeout" "$B3C" -O2 "$f" -o "$dir/out.o" \
            >/dev/null 2>"$err"; then
            if grep -q 'status 124' "$out" 2>/dev/null; then echo timeout; else
                echo "scaling: $B3C failed on $f:" >&2
                head -5 "$err" >&2
                echo failed
            fi
            rm -f "$out" "$err"
            return
        fi
        read -r s u sy kb < <(tail -n 1 "$out")
        cpu=$(awk -v u="$u" -v s="$sy" 'BEGIN { printf "%.2f", u + s }')
        if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$s; fi
        if [ -z "$bcpu" ] || awk -v a="$cpu" -v b="$bcpu" 'BEGIN { exit !(a < b) }'; then bcpu=$cpu; fi
        if [ "$kb" -gt "$rss" ]; then rss=$kb; fi
    done
    rm -f "$out" "$err"
    echo "$best $bcpu $rss"
}

echo "b3c scaling ($B3C, -O2, best of $runs; growth = this size / previous size)"
printf '%-10s %8s %8s %7s %8s %7s %9s %7s\n' shape n 'wall s' growth 'cpu s' growth 'RSS MiB' growth
for shape in "${shapes[@]}"; do
    n=$(base_size "$shape")
    nsizes=$((quick ? 3 : 4))
    prev_t='' prev_c='' prev_kb=''
    for ((k = 0; k < nsizes; k++, n *= 2)); do
        f=$(module "$shape" "$n")
        r=$(measure "$f")
        if [ "$r" = timeout ] || [ "$r" = failed ]; then
            printf '%-10s %8d %8s\n' "$shape" "$n" "$r (limit ${timeout}s)"
            break
        fi
        read -r t c kb <<<"$r"
        awk -v s="$shape" -v n="$n" -v t="$t" -v c="$c" -v kb="$kb" -v pt="$prev_t" -v pc="$prev_c" \
            -v pkb="$prev_kb" 'BEGIN {
            gt = (pt != "" && pt > 0) ? sprintf("%.2f", t / pt) : "-"
            gc = (pc != "" && pc > 0) ? sprintf("%.2f", c / pc) : "-"
            gm = (pkb != "" && pkb > 0) ? sprintf("%.2f", kb / pkb) : "-"
            printf "%-10s %8d %8.2f %7s %8.2f %7s %9.1f %7s\n", s, n, t, gt, c, gc, kb / 1024.0, gm
        }'
        prev_t=$t prev_c=$c prev_kb=$kb
    done
done
