#!/bin/bash
# Every opcode at every type gives the same results on both targets: the
# per-opcode execution modules of testsuite/exec (gen_exec.py: every integer,
# floating-point, conversion, compare and switch opcode over edge operands)
# compiled by b3c for x86-64 and for arm64 at each level, their drivers built
# with -DDUMP_RESULTS (print every result rather than check it), run natively
# and under qemu; the two outputs must be identical (NaN payloads excepted:
# the drivers print any NaN as nan).
#   same_results.sh B3C EXECDIR WORKDIR
set -u
b3c=$1 dir=$2 work=$3
mkdir -p "$work"
status=0
for m in gen-int-i32 gen-int-i64 gen-fp-f32 gen-fp-f64 gen-conv gen-cmp gen-switch gen-pressure; do
    for lvl in -O0 -O1 -O2; do
        x=$work/$m$lvl.x86 a=$work/$m$lvl.arm
        "$b3c" --target=x86_64-linux-gnu $lvl "$dir/$m.b3" -o "$x.o" &&
            cc -DDUMP_RESULTS -O1 -w -o "$x" "$dir/Inputs/$m.c" "$x.o" -lm &&
            "$x" > "$x.txt" || { echo "$m $lvl: x86-64 build or run failed"; status=1; continue; }
        "$b3c" --target=aarch64-linux-gnu $lvl "$dir/$m.b3" -o "$a.o" &&
            aarch64-linux-gnu-gcc -DDUMP_RESULTS -O1 -w -o "$a" "$dir/Inputs/$m.c" "$a.o" -lm &&
            qemu-aarch64 -L /usr/aarch64-linux-gnu "$a" > "$a.txt" || { echo "$m $lvl: arm64 build or run failed"; status=1; continue; }
        n=$(wc -l < "$x.txt")
        if cmp -s "$x.txt" "$a.txt"; then
            echo "$m $lvl: $n results, same"
        else
            echo "$m $lvl: results differ"
            diff "$x.txt" "$a.txt" | head -20
            status=1
        fi
    done
done
exit $status
