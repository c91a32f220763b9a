#!/bin/bash
# The .eh_frame sweep (docs/backend.md, "Unwind information: ELF .eh_frame"): for
# every .b3 under testsuite/, bench/ and examples/ that b3c compiles, at
# -O0, -O1 and -O2, b3c's own .eh_frame must be byte for byte llvm-mc's from
# b3c's `-S --asm-exact` (and its relocations the same), and
# `readelf --debug-dump=frames` must read it without a warning.
#   scripts/eh_frame_sweep.sh [TARGET] [B3C]     TARGET: x86_64-linux-gnu (default), aarch64-linux-gnu
# Prints the programs that differ and a summary line (outputs, FDEs);
# exits 1 if any differ.
target=${1:-x86_64-linux-gnu} b3c=$(realpath "${2:-./b3c}")
export PATH=/usr/lib/llvm-14/bin:$PATH
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0 bad=0 skip=0 fdes=0 noasm=0
while read -r f; do
    for opt in -O0 -O1 -O2; do
        if ! "$b3c" --target="$target" "$opt" "$f" -o "$work/b.o" >/dev/null 2>&1 ||
            ! "$b3c" --target="$target" "$opt" -S --asm-exact "$f" -o "$work/b.s" >/dev/null 2>&1; then
            skip=$((skip + 1))
            continue
        fi
        n=$((n + 1))
        if ! llvm-mc -triple="$target" -filetype=obj "$work/b.s" -o "$work/m.o" 2>"$work/err"; then
            # Not this sweep's business (e.g. a symbol name llvm-mc cannot read back).
            echo "NOT ASSEMBLED: $f $opt: llvm-mc: $(head -1 "$work/err")"
            noasm=$((noasm + 1))
            continue
        fi
        for o in b m; do
            llvm-objcopy --dump-section=.eh_frame="$work/$o.eh" "$work/$o.o" "$work/$o.tmp" 2>/dev/null ||
                : >"$work/$o.eh"
            llvm-readobj -r "$work/$o.o" | sed -n '/\.rela\.eh_frame/,/}/p' | grep R_ >"$work/$o.rel"
        done
        if ! cmp -s "$work/b.eh" "$work/m.eh" || ! cmp -s "$work/b.rel" "$work/m.rel"; then
            echo "DIFFERS: $f $opt"
            bad=$((bad + 1))
            continue
        fi
        if readelf --debug-dump=frames "$work/b.o" 2>&1 >/dev/null | grep -q .; then
            echo "READELF WARNS: $f $opt"
            bad=$((bad + 1))
        fi
        fdes=$((fdes + $(grep -c "R_" "$work/b.rel")))
    done
done < <(find testsuite bench examples -name '*.b3' | sort)
echo "$target: $n outputs ($fdes FDEs), $bad differ, $noasm not assembled by llvm-mc, $skip not compiled"
[ $bad = 0 ]
