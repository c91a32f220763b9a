#!/usr/bin/env bash
# arm64 code quality: the bench/quality kernels built for aarch64 with
# b3c -O2 and with aarch64-linux-gnu-gcc -O2, run under qemu-aarch64.
#
#   bash bench/arm64.sh [--kernels a,b,...] [--level -O2] [--out DIR]
#
# The figure is retired guest instructions of one kernel call: qemu here has
# no plugins, so each program runs with -singlestep -d nochain,exec (one
# translation block per instruction, one "Trace" line per block executed)
# at the driver's small --check size, once with --reps 1 and once with
# --reps 2; the difference is one call, without startup, the dynamic loader
# and printing.  Prints a table (instructions, ratio b3c/gcc) and the
# geometric mean of the ratios.  Goal: within 1.15x of gcc.
set -euo pipefail
caller_pwd=$PWD
cd "$(dirname "$0")/.."

kernels=
level=-O2
out=
while [ $# -gt 0 ]; do
    case $1 in
    --kernels) kernels=${2:?}; shift ;;
    --kernels=*) kernels=${1#*=} ;;
    --level) level=${2:?}; shift ;;
    --level=*) level=${1#*=} ;;
    --out) out=${2:?}; shift ;;
    --out=*) out=${1#*=} ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "arm64.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
    shift
done
case $out in "") out=$PWD/bench/out/arm64 ;; /*) ;; *) out=$caller_pwd/$out ;; esac

CC=${CC:-aarch64-linux-gnu-gcc}
QEMU=${QEMU:-qemu-aarch64}
SYSROOT=${SYSROOT:-/usr/aarch64-linux-gnu}
B3C=${B3C:-./b3c}
if [ "$B3C" = ./b3c ]; then make -s -j2 b3c >&2; fi
command -v "$CC" >/dev/null || { echo "arm64.sh: no $CC" >&2; exit 2; }
command -v "$QEMU" >/dev/null || { echo "arm64.sh: no $QEMU" >&2; exit 2; }

src=bench/quality
mkdir -p "$out"
"$CC" -O2 -std=c11 -DIMPL_C -c "$src/driver.c" -o "$out/driver-c.o"
"$CC" -O2 -std=c11 -c "$src/driver.c" -o "$out/driver-b3.o"
if [ -z "$kernels" ]; then
    kernels=$(for f in "$src"/*.b3; do basename "$f" .b3; done | tr '\n' ,)
fi

# count EXE KERNEL REPS: guest instructions retired by the whole run.
count() {
    "$QEMU" -L "$SYSROOT" -singlestep -d nochain,exec "$1" "$2" --check --reps "$3" 2>&1 >/dev/null |
        grep -c '^Trace' || true
}

printf '%-12s %12s %12s %7s\n' kernel gcc b3c ratio
logsum=0
n=0
for k in ${kernels//,/ }; do
    "$CC" -O2 -std=c11 -ffp-contract=off -c "$src/$k.c" -o "$out/$k-gcc.o"
    "$B3C" --target=aarch64-linux-gnu "$level" "$src/$k.b3" -o "$out/$k-b3c.o"
    "$CC" -o "$out/$k-gcc" "$out/driver-c.o" "$out/$k-gcc.o" -lm
    "$CC" -o "$out/$k-b3c" "$out/driver-b3.o" "$out/$k-b3c.o" -lm
    g=$(($(count "$out/$k-gcc" "$k" 2) - $(count "$out/$k-gcc" "$k" 1)))
    b=$(($(count "$out/$k-b3c" "$k" 2) - $(count "$out/$k-b3c" "$k" 1)))
    r=$(awk -v b="$b" -v g="$g" 'BEGIN { printf "%.3f", b / g }')
    printf '%-12s %12d %12d %7s\n' "$k" "$g" "$b" "$r"
    logsum=$(awk -v s="$logsum" -v r="$r" 'BEGIN { printf "%.9f", s + log(r) }')
    n=$((n + 1))
done
awk -v s="$logsum" -v n="$n" 'BEGIN { printf "%-12s %33.3f\n", "geomean", exp(s / n) }'
