#!/bin/bash
# Compares two b3c binaries' output on every .b3 under testsuite/ (and bench/,
# examples/): --emit=obj and -S at -O0, -O1 and -O2 must be byte for byte the same.
#   scripts/cmp_outputs.sh [--target=T] [-g] OLD_B3C NEW_B3C [WORKDIR]
# --target=T is passed to both binaries (default: their host target); -g
# compares the outputs with debug information.  Inputs that the old binary
# rejects are skipped.  Prints the differing ones and a summary line; exits 1
# if any differ.
extra=()
while [ $# -gt 0 ]; do
    case $1 in
    --target=*) extra+=("$1"); shift ;;
    -g) extra+=(-g); shift ;;
    *) break ;;
    esac
done
if [ $# -lt 2 ]; then
    echo "usage: $0 [--target=T] [-g] OLD_B3C NEW_B3C [WORKDIR]" >&2
    exit 2
fi
old=$(realpath "$1") new=$(realpath "$2") work=${3:-/tmp/cmp_outputs.$$}
mkdir -p "$work"
n=0 diff=0 skip=0
while read -r f; do
    for opt in -O0 -O1 -O2; do
        for mode in obj asm; do
            if [ $mode = obj ]; then flags=(--emit=obj); ext=o; else flags=(-S); ext=s; fi
            if ! "$old" "${extra[@]}" "$opt" "${flags[@]}" "$f" -o "$work/old.$ext" >/dev/null 2>&1; then
                skip=$((skip + 1)); continue
            fi
            n=$((n + 1))
            "$new" "${extra[@]}" "$opt" "${flags[@]}" "$f" -o "$work/new.$ext" >/dev/null 2>&1
            if ! cmp -s "$work/old.$ext" "$work/new.$ext"; then
                echo "DIFFERS: $f $opt $mode"
                diff=$((diff + 1))
            fi
        done
    done
done < <(find testsuite bench examples -name '*.b3' | sort)
echo "compared $n outputs, $diff differ, $skip skipped${extra[*]:+ (${extra[*]})}"
[ $diff = 0 ]
