#!/bin/sh
# Usage: ubsan-lower.sh OUTDIR INPUT.b3...
# Builds OUTDIR/b3c with the lower/ sources compiled under UBSan (every other
# object as the main build made it; the Makefile names them), then compiles
# each INPUT with it.  Undefined behaviour in lowering (say a memcpy from a
# NULL pointer, even of 0 bytes) stops it with a report and a failure.
set -eu
out=$(mkdir -p "$1" && cd "$1" && pwd)
shift
inputs=""
for f in "$@"; do
    inputs="$inputs $(cd "$(dirname "$f")" && pwd)/$(basename "$f")"
done
cd "$(dirname "$0")/../../.."
link=$(make -s -n -B b3c | grep -E -- '-o b3c( |$)' | tail -1)
[ -n "$link" ] || { echo "no link command for b3c"; exit 1; }
for src in lower/*.c; do
    o="$out/$(basename "$src" .c).o"
    cc -std=c11 -D_POSIX_C_SOURCE=200809L -I. -Ibuild -O1 -g -fsanitize=undefined -fno-sanitize-recover=all \
        -c -o "$o" "$src"
    link=$(printf '%s\n' "$link" | sed "s|build/lower/$(basename "$src" .c)\.o|$o|")
done
link=$(printf '%s\n' "$link" | sed "s|-o b3c|-fsanitize=undefined -o $out/b3c|")
eval "$link"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for f in $inputs; do
    "$out/b3c" "$f" -o "$out/out.o"
    echo "ubsan ok: $(basename "$f")"
done
