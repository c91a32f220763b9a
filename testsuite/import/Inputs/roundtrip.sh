#!/usr/bin/env bash
# roundtrip.sh B3C WORKDIR FILE.ll...: for each file, the object of the .ll
# and the object of its -O0 --emit=b3 text must be byte-identical at -O0
# and -O2.  Prints one DIFFERS line per mismatch and a summary line.  A file
# whose triple is aarch64 is compiled for aarch64-linux-gnu.
set -u
b3c=$1 work=$2
shift 2
n=0 bad=0
for f in "$@"; do
    base=$work/$(basename "$f" .ll)
    t=()
    grep -q '^target triple = "aarch64' "$f" && t=(--target=aarch64-linux-gnu)
    "$b3c" "${t[@]}" -O0 --emit=b3 "$f" -o "$base.b3" || { echo "DIFFERS: $f: the import failed"; bad=$((bad + 1)); continue; }
    for o in -O0 -O2; do
        "$b3c" "${t[@]}" $o "$f" -o "$base.ll$o.o" && "$b3c" "${t[@]}" $o "$base.b3" -o "$base.b3$o.o" &&
            cmp -s "$base.ll$o.o" "$base.b3$o.o" || { echo "DIFFERS: $f at $o"; bad=$((bad + 1)); }
    done
    n=$((n + 1))
done
echo "roundtrip: $n files, $bad differ"
