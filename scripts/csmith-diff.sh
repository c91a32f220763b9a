#!/usr/bin/env bash
# Differential testing of b3cc (clang's front end + b3c) against gcc on
# csmith programs.
#
#   bash scripts/csmith-diff.sh [OPTIONS] FIRST_SEED LAST_SEED
#
# For each seed in FIRST..LAST: csmith writes a program (the options in
# scripts/csmith-opts.sh, listed in docs/testing.md); gcc -O0 builds the reference
# and gcc -O2 a second one; both run under `timeout`.  A seed whose two gcc
# builds disagree, crash or time out is skipped (undefined behaviour or a
# long loop: counted apart, never as a pass).  Otherwise b3cc builds it at
# each level and its output must equal the reference's (the checksum line).
# A b3cc build that fails (import error, internal error) counts as a failure.
# Every failing program is kept under the results directory: SEED/ holds the
# source, the seed, both outputs and b3cc's stderr.  Ends with
#   csmith: N programs, levels L, P passed, M mismatches, S skipped (UB/timeout), C b3cc compile failures
# and exits 1 when M or C is not 0.
#
# Options:
#   --levels=-O0,-O1,-O2   b3cc's levels (default all three)
#   --target=aarch64-linux-gnu
#                          the reference by aarch64-linux-gnu-gcc, every
#                          program run under qemu-aarch64 -L /usr/aarch64-linux-gnu
#   --jobs=N               programs built and run at once (default 2)
#   --timeout=SECONDS      per run (default 5; 20 under qemu)
#   --results=DIR          where failing programs are kept (default
#                          build/csmith-results; emptied first)
# The csmith options: scripts/csmith-opts.sh.
#   --b3cc=PATH            the driver to test (default: ./b3cc of the checkout)
#   --quiet                only the summary line (not one line per failure)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)

. "$here/scripts/csmith-opts.sh"

levels=-O0,-O1,-O2
target=
jobs=2
timeout_s=
results=$here/build/csmith-results
b3cc=$here/b3cc
quiet=false
one=
while [ $# -gt 0 ]; do
    case $1 in
    --levels=*) levels=${1#*=} ;;
    --target=*) target=${1#*=} ;;
    --jobs=*) jobs=${1#*=} ;;
    --timeout=*) timeout_s=${1#*=} ;;
    --results=*) results=${1#*=} ;;
    --b3cc=*) b3cc=${1#*=} ;;
    --quiet) quiet=true ;;
    --one) one=$2; shift ;; # internal: one seed, in a worker
    -*) echo "csmith-diff: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
    shift
done

case $target in
'' | x86_64-linux-gnu) gcc=gcc run=() tflag=() ;;
aarch64-linux-gnu)
    gcc=aarch64-linux-gnu-gcc
    run=(qemu-aarch64 -L /usr/aarch64-linux-gnu)
    tflag=(--target=aarch64-linux-gnu)
    ;;
*) echo "csmith-diff: unknown target $target" >&2; exit 2 ;;
esac
[ -n "$timeout_s" ] || timeout_s=$([ ${#run[@]} -gt 0 ] && echo 20 || echo 5)
export B3CC_B3C=${B3CC_B3C:-}

# One seed: prints one line per level ("SEED LEVEL pass|mismatch|compfail")
# or one "SEED - skip"/"SEED - nogen" line.
one_seed() {
    local seed=$1 w
    w=$(mktemp -d "${TMPDIR:-/tmp}/csmith-$seed.XXXXXX")
    # keep: copy the program and what we saw to the results directory
    keep() { # keep LEVEL WHY
        local dir=$results/$seed
        mkdir -p "$dir"
        cp "$w/p.c" "$dir/$seed.c"
        echo "$seed" > "$dir/seed"
        cp "$w/ref.out" "$dir/gcc-O0.out"
        [ -f "$w/b$1.out" ] && cp "$w/b$1.out" "$dir/b3cc$1.out"
        [ -f "$w/b$1.err" ] && cp "$w/b$1.err" "$dir/b3cc$1.err"
        echo "$1: $2" >> "$dir/why"
        echo "b3cc ${tflag[*]} $1 -w -I$CSMITH_INC $seed.c; bash scripts/csmith-reduce.sh ${tflag[*]} $seed $1" >> "$dir/commands"
    }
    if ! csmith --seed "$seed" "${CSMITH_OPTS[@]}" -o "$w/p.c" > /dev/null 2>&1; then
        echo "$seed - nogen"
        rm -rf "$w"
        return
    fi
    local ok=true
    $gcc -O0 -w -I"$CSMITH_INC" "$w/p.c" -o "$w/ref" 2> /dev/null &&
        $gcc -O2 -w -I"$CSMITH_INC" "$w/p.c" -o "$w/ref2" 2> /dev/null &&
        timeout "$timeout_s" "${run[@]}" "$w/ref" > "$w/ref.out" 2> /dev/null &&
        timeout "$timeout_s" "${run[@]}" "$w/ref2" > "$w/ref2.out" 2> /dev/null &&
        cmp -s "$w/ref.out" "$w/ref2.out" || ok=false
    if ! $ok; then
        echo "$seed - skip"
        rm -rf "$w"
        return
    fi
    local level
    for level in ${levels//,/ }; do
        if ! "$b3cc" "${tflag[@]}" "$level" -w -I"$CSMITH_INC" "$w/p.c" -o "$w/b$level" 2> "$w/b$level.err"; then
            keep "$level" "b3cc failed: $({ grep -m1 -E 'error|internal' "$w/b$level.err" || head -1 "$w/b$level.err"; } |
                sed -E 's#[^ ]*/b3cc-[A-Za-z0-9]+/##g')"
            echo "$seed $level compfail"
            continue
        fi
        local rc=0
        timeout "$timeout_s" "${run[@]}" "$w/b$level" > "$w/b$level.out" 2>> "$w/b$level.err" || rc=$?
        if [ $rc -eq 0 ] && cmp -s "$w/ref.out" "$w/b$level.out"; then
            echo "$seed $level pass"
        else
            keep "$level" "$([ $rc -eq 124 ] && echo timeout || echo "exit $rc"), output $(tr -d '\n' < "$w/b$level.out" | tail -c 40)"
            echo "$seed $level mismatch"
        fi
    done
    rm -rf "$w"
}

if [ -n "$one" ]; then
    one_seed "$one"
    exit 0
fi

if [ $# -ne 2 ]; then
    sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//' >&2
    exit 2
fi
first=$1
last=$2
for tool in csmith "$gcc" "$b3cc" timeout "${run[@]:0:1}"; do
    command -v "$tool" > /dev/null || { echo "csmith-diff: $tool not found" >&2; exit 2; }
done
rm -rf "$results"
mkdir -p "$results"
export results levels timeout_s b3cc gcc CSMITH_INC
lines=$(seq "$first" "$last" | xargs -P "$jobs" -I{} bash "$0" --levels="$levels" \
    ${target:+--target="$target"} --timeout="$timeout_s" --results="$results" --b3cc="$b3cc" --one {})
count() { grep -c " $1\$" <<< "$lines"; }
n=$((last - first + 1))
passed=$(count pass)
mism=$(count mismatch)
skipped=$(count skip)
comp=$(count compfail)
nogen=$(count nogen)
if ! $quiet; then
    grep -E ' (mismatch|compfail)$' <<< "$lines" | sort -n | while read -r seed level what; do
        echo "  seed $seed $level: $what: $(grep -m1 -- "^$level:" "$results/$seed/why" | cut -d' ' -f2-)"
    done
fi
[ "$nogen" -eq 0 ] || echo "csmith: $nogen seeds csmith could not generate"
echo "csmith: $n programs, levels $levels${target:+ ($target)}, $passed passed, $mism mismatches, $skipped skipped (UB/timeout), $comp b3cc compile failures"
[ "$mism" -eq 0 ] && [ "$comp" -eq 0 ]
