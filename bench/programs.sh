#!/usr/bin/env bash
# The real-program figures of docs/programs.md: build time and run time of
# zlib, bzip2, xz-utils and expat (Debian's sources, scripts/program-source.sh)
# built by b3cc, clang-16 and gcc, in one run.  A script to run by hand
# (about 15 minutes), not a timed test.
#
#   bash bench/programs.sh [--rounds N] [--out DIR] [--reuse-builds]
#                          [--build-only] [--builds "B..."] [--build-rounds N]
#
# --reuse-builds: run the workloads on the builds of an earlier run (in DIR),
# without building (no build-time table).
# --build-only: the build-time table alone; --builds picks the builds (of
# b3cc-O0 b3cc-O2 clang-O0 clang-O2 gcc-O2; the run times need the -O2
# ones); --build-rounds N builds each N times, interleaved (every round
# builds each program with each compiler once, shuffled), keeping the least.
#
# Build time: the CPU time (user + sys, the compilers included) of `make`
# after an untimed configure, for b3cc -O0/-O2, clang-16 -O0/-O2 and gcc -O2,
# the builds interleaved (one of each per program in shuffled order).
# Run time: the -O2 builds of each compiler compress and decompress 20 MB
# (the start of libLLVM-16's shared object) with minigzip -9,
# bzip2 -9 and xz -6, and expat's xmlwf parses a 20 MB XML file; every
# output is compared, rounds interleaved (each round runs every build once,
# shuffled), the minimum CPU time over the rounds kept.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=3
reuse=false
build_only=false
build_rounds=1
builds="b3cc-O0 b3cc-O2 clang-O0 clang-O2 gcc-O2"
out=$root/bench/out/programs
while [ $# -gt 0 ]; do
    case $1 in
    --rounds) rounds=$2; shift ;;
    --out) out=$2; shift ;;
    --reuse-builds) reuse=true ;;
    --build-only) build_only=true ;;
    --builds) builds=$2; shift ;;
    --build-rounds) build_rounds=$2; shift ;;
    *) echo "bench/programs.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
make -s -C "$root" -j2 all >&2
B3CC=$root/b3cc
mkdir -p "$out"
cd "$out"

cc_of() { case $1 in b3cc*) echo "$B3CC" ;; clang*) echo clang-16 ;; gcc*) echo gcc ;; esac; }
level_of() { echo "-${1##*-}"; }

prepare() { # prepare PROGRAM BUILD: a fresh, configured tree in PROGRAM/BUILD
    local p=$1 b=$2 pkg cc l
    case $p in zlib) pkg=zlib ;; bzip2) pkg=bzip2 ;; xz) pkg=xz-utils ;; expat) pkg=expat ;; esac
    cc=$(cc_of "$b") l=$(level_of "$b")
    rm -rf "$p/$b"
    mkdir -p "$p/$b"
    cp -a "$(bash "$root/scripts/program-source.sh" $pkg)/." "$p/$b/"
    (
        cd "$p/$b"
        case $p in
        zlib) CC=$cc CFLAGS="$l -g" ./configure --static ;;
        bzip2) ;;
        xz) ./configure CC="$cc" CFLAGS="$l -g" --disable-shared --disable-nls --disable-doc ;;
        expat) cd expat && autoreconf -fi && ./configure CC="$cc" CFLAGS="$l -g" --disable-shared --without-docbook ;;
        esac
    ) > "$p/$b.configure.log" 2>&1
}

build() { # build PROGRAM BUILD: prints the CPU seconds of make
    local p=$1 b=$2 cc l
    cc=$(cc_of "$b") l=$(level_of "$b")
    (
        cd "$p/$b"
        case $p in
        zlib) /usr/bin/time -f '%U %S' -o ../$b.time make libz.a example minigzip ;;
        bzip2) /usr/bin/time -f '%U %S' -o ../$b.time make CC="$cc" CFLAGS="-Wall $l -g -D_FILE_OFFSET_BITS=64" libbz2.a bzip2 ;;
        xz) /usr/bin/time -f '%U %S' -o ../$b.time make ;;
        expat) cd expat && /usr/bin/time -f '%U %S' -o ../../$b.time make ;;
        esac
    ) > "$p/$b.build.log" 2>&1
    awk '{printf "%.1f", $1 + $2}' "$p/$b.time"
}

programs="zlib bzip2 xz expat"
declare -A btime
$reuse || for r in $(seq 1 "$build_rounds"); do
    for p in $programs; do
        for b in $(shuf -e $builds); do
            prepare $p $b
            t=$(build $p $b)
            echo "build $p $b: $t s" >&2
            if [ -z "${btime[$p,$b]:-}" ] || awk "BEGIN{exit !($t < ${btime[$p,$b]})}"; then
                btime[$p,$b]=$t
            fi
        done
    done
done
if ! $reuse; then
    echo "Build time (CPU seconds of make, compilers included; least of $build_rounds):"
    printf '%-8s' program
    for b in $builds; do printf ' %9s' $b; done
    for l in O0 O2; do
        case " $builds " in *" b3cc-$l "*" clang-$l "* | *" clang-$l "*" b3cc-$l "*) printf ' %14s' b3cc/clang-$l ;; esac
    done
    echo
    for p in $programs; do
        printf '%-8s' $p
        for b in $builds; do printf ' %9s' ${btime[$p,$b]}; done
        for l in O0 O2; do
            case " $builds " in *" b3cc-$l "*" clang-$l "* | *" clang-$l "*" b3cc-$l "*)
                printf ' %14s' "$(awk "BEGIN{printf \"%.2f\", ${btime[$p,b3cc-$l]} / ${btime[$p,clang-$l]}}")" ;;
            esac
        done
        echo
    done
    echo
fi
$build_only && exit 0

# The workloads.
# The first 20 MB of libLLVM-16 (machine code and tables: text repeats far
# more, and zlib takes a fraction of a second on it).
llvm_so=$(ls /usr/lib/llvm-16/lib/libLLVM-16.so* | head -1)
if [ ! -f big ] || [ "$(wc -c < big)" -ne 20000000 ]; then
    head -c 20000000 "$llvm_so" > big
fi
if [ ! -f big.xml ]; then
    {
        echo '<?xml version="1.0"?><root>'
        seq 1 300000 | sed 's/.*/<item id="&" kind="k&"><name>item \&amp; more<\/name><v a="1">&<\/v><\/item>/'
        echo '</root>'
    } > big.xml
fi
cpu() { # cpu CMD...: runs CMD (stdin/stdout as given), its CPU seconds in cpu.time
    /usr/bin/time -f '%U %S' -o cpu.time "$@"
}
same() { cmp -s "$1" "$2" || { echo "bench/programs.sh: $1 differs from $2" >&2; exit 1; }; }
workload() { # workload NAME BUILD: prints its CPU seconds; checks the output
    local w=$1 b=$2
    case $w in
    zlib-c) cpu zlib/$b/minigzip -9 < big > big.$b.gz && same big.$b.gz zlib/ref.gz ;;
    zlib-d) cpu zlib/$b/minigzip -d < zlib/ref.gz > big.out && same big big.out ;;
    bzip2-c) LD_LIBRARY_PATH=bzip2/$b cpu bzip2/$b/bzip2 -9 < big > big.$b.bz2 && same big.$b.bz2 bzip2/ref.bz2 ;;
    bzip2-d) LD_LIBRARY_PATH=bzip2/$b cpu bzip2/$b/bzip2 -d < bzip2/ref.bz2 > big.out && same big big.out ;;
    xz-c) cpu xz/$b/src/xz/xz -6 -T1 -c < big > big.$b.xz && same big.$b.xz xz/ref.xz ;;
    xz-d) cpu xz/$b/src/xz/xz -d -c < xz/ref.xz > big.out && same big big.out ;;
    expat) cpu expat/$b/expat/xmlwf/xmlwf big.xml > xmlwf.out && [ ! -s xmlwf.out ] ||
        { echo "bench/programs.sh: xmlwf ($b): $(head -c 200 xmlwf.out)" >&2; exit 1; } ;;
    esac
    awk '{printf "%.2f", $1 + $2}' cpu.time
}
# References: the gcc -O2 build's outputs.
zlib/gcc-O2/minigzip -9 < big > zlib/ref.gz
LD_LIBRARY_PATH=bzip2/gcc-O2 bzip2/gcc-O2/bzip2 -9 < big > bzip2/ref.bz2
xz/gcc-O2/src/xz/xz -6 -T1 -c < big > xz/ref.xz

works="zlib-c zlib-d bzip2-c bzip2-d xz-c xz-d expat"
runs="b3cc-O2 clang-O2 gcc-O2"
declare -A rtime
for r in $(seq 1 "$rounds"); do
    for wb in $(for w in $works; do for b in $runs; do echo "$w:$b"; done; done | shuf); do
        w=${wb%%:*} b=${wb#*:}
        t=$(workload $w $b)
        if [ -z "${rtime[$w,$b]:-}" ] || awk "BEGIN{exit !($t < ${rtime[$w,$b]})}"; then
            rtime[$w,$b]=$t
        fi
    done
    echo "round $r done" >&2
done

echo "Run time (CPU seconds, minimum of $rounds interleaved rounds):"
printf '%-8s %9s %9s %9s %12s %12s\n' workload b3cc-O2 clang-O2 gcc-O2 b3cc/clang b3cc/gcc
for w in $works; do
    printf '%-8s %9s %9s %9s %12s %12s\n' $w ${rtime[$w,b3cc-O2]} ${rtime[$w,clang-O2]} ${rtime[$w,gcc-O2]} \
        "$(awk "BEGIN{printf \"%.2f\", ${rtime[$w,b3cc-O2]} / ${rtime[$w,clang-O2]}}")" \
        "$(awk "BEGIN{printf \"%.2f\", ${rtime[$w,b3cc-O2]} / ${rtime[$w,gcc-O2]}}")"
done
