#!/usr/bin/env bash
# Reduces a csmith program that b3cc gets wrong to a small reproducer, with
# creduce.
#
#   bash scripts/csmith-reduce.sh [--target=aarch64-linux-gnu] SEED LEVEL [OUT.c]
#
# SEED and LEVEL (-O0, -O1, -O2) as scripts/csmith-diff.sh reports them.
# The program is csmith's for SEED (scripts/csmith-opts.sh).  What stays
# interesting while creduce shrinks it depends on how b3cc failed at first:
#  - wrong output: gcc -O0 and gcc -O2 builds print the same, a gcc build
#    with -fsanitize=undefined,address runs clean and prints the same too,
#    gcc -Wall finds no uninitialized or implicit use, b3cc compiles it, and
#    b3cc's program prints something else (or crashes, or times out);
#  - b3cc failed to compile it: clang-16 compiles it, gcc -O0 builds it, and
#    b3cc fails with the same first error line (temporary paths aside).
# The result goes to OUT.c (default build/csmith-reduce/SEED-LEVEL.c); the
# interestingness test is kept beside it (SEED-LEVEL.test.sh) to rerun.
# REDUCE_TIMEOUT (seconds, default 3600) bounds creduce; when it stops early
# the smallest interesting program so far is kept ("partial").  Expect
# minutes to an hour: creduce tries many passes on csmith's 500-1,500 lines.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/scripts/csmith-opts.sh"
target=
if [ "${1:-}" != "${1#--target=}" ]; then
    target=${1#--target=}
    shift
fi
if [ $# -lt 2 ]; then
    sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//' >&2
    exit 2
fi
seed=$1
level=$2
out=${3:-$here/build/csmith-reduce/$seed$level.c}
mkdir -p "$(dirname "$out")"
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
b3cc=${B3CC:-$here/b3cc}
case $target in
'' | x86_64-linux-gnu) gcc=gcc run="" tflag="" ;;
aarch64-linux-gnu) gcc=aarch64-linux-gnu-gcc run="qemu-aarch64 -L /usr/aarch64-linux-gnu" tflag=--target=$target ;;
*) echo "csmith-reduce: unknown target $target" >&2; exit 2 ;;
esac
command -v creduce > /dev/null || { echo "csmith-reduce: creduce not found (scripts/deps.sh)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/csmith-reduce.XXXXXX")
trap 'rm -rf "$work"' EXIT
csmith --seed "$seed" "${CSMITH_OPTS[@]}" -o "$work/p.c" > /dev/null
# The first error line of a failing b3cc, without the temporary directory.
first_error() { grep -m1 -E 'error' "$1" | sed -E 's#/[^ :]*/b3cc-[A-Za-z0-9]+/##g'; }
if "$b3cc" $tflag "$level" -w -I"$CSMITH_INC" "$work/p.c" -o "$work/b" 2> "$work/b.err"; then
    mode=output
    expect=
else
    mode=compile
    expect=$(first_error "$work/b.err")
    echo "csmith-reduce: b3cc fails to compile seed $seed at $level: $expect"
fi

# The interestingness test creduce runs in a copy of the directory.
test=$out.test.sh
test=${test%.c.test.sh}.test.sh
cat > "$test" <<TEST
#!/usr/bin/env bash
# Interestingness test of scripts/csmith-reduce.sh: seed $seed, $level, $mode.
# Run in a directory holding p.c; exit 0 while p.c shows the failure.
inc=$CSMITH_INC
t() { timeout 5 $run "\$@"; }
$gcc -O0 -w -I\$inc p.c -o ref 2>/dev/null || exit 1
TEST
if [ $mode = output ]; then
    cat >> "$test" <<TEST
! gcc -O1 -Wall -Wextra -I\$inc -c p.c -o /dev/null 2>&1 |
    grep -qE 'uninitiali[sz]ed|implicit|without a cast|control reaches|-Wreturn-type|incompatible|too (few|many)|address of local|dangling|out of bounds|-Wsequence-point|-Warray-bounds' || exit 1
$gcc -O2 -w -I\$inc p.c -o ref2 2>/dev/null || exit 1
gcc -O0 -w -I\$inc -fsanitize=undefined,address -fno-sanitize-recover=all p.c -o san 2>/dev/null || exit 1
t ./ref > ref.out 2>/dev/null || exit 1
t ./ref2 > ref2.out 2>/dev/null || exit 1
cmp -s ref.out ref2.out || exit 1
ASAN_OPTIONS=detect_leaks=0 timeout 10 ./san > san.out 2>/dev/null || exit 1
cmp -s ref.out san.out || exit 1
$b3cc $tflag $level -w -I\$inc p.c -o b 2>/dev/null || exit 1
t ./b > b.out 2>/dev/null && cmp -s ref.out b.out && exit 1
exit 0
TEST
else
    cat >> "$test" <<TEST
clang-16 $tflag ${target:+--sysroot=/usr/$target} -w -I\$inc -c -emit-llvm p.c -o /dev/null 2>/dev/null || exit 1
$b3cc $tflag $level -w -I\$inc p.c -o b 2> b.err && exit 1
[ "\$(grep -m1 -E 'error' b.err | sed -E 's#/[^ :]*/b3cc-[A-Za-z0-9]+/##g')" = $(printf '%q' "$expect") ]
TEST
fi
chmod +x "$test"
if ! (cd "$work" && "$test"); then
    echo "csmith-reduce: seed $seed at $level is not interesting to begin with (no failure, or undefined behaviour)" >&2
    exit 1
fi
# creduce shrinks p.c in place: whatever stops it (the time limit, ^C), the
# smallest interesting version so far is kept.
status=complete
(cd "$work" && timeout "${REDUCE_TIMEOUT:-3600}" creduce --n 2 "$test" p.c > creduce.log 2>&1) || status=partial
cp "$work/p.c" "$out"
[ $status = complete ] || tail -5 "$work/creduce.log" >&2
echo "csmith-reduce: $(wc -l < "$out") lines in $out ($status; test: $test)"
