#!/usr/bin/env bash
# A sweep too slow for `make check`: every .b3 under testsuite/, examples/
# and bench/ that b3c accepts, compiled with -g for each target, must pass
# `llvm-dwarfdump --verify` (subprogram ranges nested in the compile unit's
# and disjoint, line sequences inside .text, every form readable); and
# compiled with -S -fverbose-asm --asm-exact and assembled by llvm-mc, must
# give the object plain --asm-exact's text gives (the comments change no
# byte).  Prints the failures and a summary; exits 1 if any.
#
#   bash scripts/dwarf-sweep.sh [B3C] [TARGET...]
#   (default ./b3c; x86_64-linux-gnu aarch64-linux-gnu x86_64-apple-macos arm64-apple-macos)
set -uo pipefail
cd "$(dirname "$0")/.."
b3c=$(realpath "${1:-./b3c}")
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(x86_64-linux-gnu aarch64-linux-gnu x86_64-apple-macos arm64-apple-macos)
mc=/usr/lib/llvm-14/bin/llvm-mc
dd=/usr/lib/llvm-14/bin/llvm-dwarfdump
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0 bad=0 subs=0
for t in "${targets[@]}"; do
    while read -r f; do
        "$b3c" --target="$t" -g "$f" -o "$work/g.o" >/dev/null 2>&1 || continue
        n=$((n + 1))
        if ! "$dd" --verify "$work/g.o" 2>&1 | grep -q 'No errors'; then
            echo "FAIL $t $f: llvm-dwarfdump --verify"
            bad=$((bad + 1))
        fi
        subs=$((subs + $("$dd" --debug-info "$work/g.o" | grep -c DW_TAG_subprogram)))
        "$b3c" --target="$t" -S --asm-exact "$f" -o "$work/p.s" >/dev/null 2>&1 || continue
        "$b3c" --target="$t" -S --asm-exact -fverbose-asm "$f" -o "$work/v.s" >/dev/null 2>&1
        "$mc" -triple="$t" -filetype=obj "$work/p.s" -o "$work/p.o" 2>/dev/null || continue
        if ! "$mc" -triple="$t" -filetype=obj "$work/v.s" -o "$work/v.o" 2>/dev/null ||
            ! cmp -s "$work/p.o" "$work/v.o"; then
            echo "FAIL $t $f: -fverbose-asm changes the assembled object"
            bad=$((bad + 1))
        fi
    done < <(find testsuite examples bench -name '*.b3' -not -path '*/fuzz/*' | sort)
done
echo "dwarf-sweep: $n objects with -g ($subs subprograms), $bad failures"
[ "$bad" = 0 ]
