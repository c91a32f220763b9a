#!/usr/bin/env bash
# Stack frame sizes: b3cc against clang-16, per function, at -O0 and -O2.
# A script to run by hand (a minute), not a timed test.
#
#   bash bench/frames.sh [--target=x86_64|aarch64] [--levels=-O0,-O2] [--all] [FILE.c ...]
#
# Files: the C sources given, else zlib's library sources (fetched once by
# scripts/program-source.sh) and the C kernels of bench/quality.  Each is
# compiled to an object by `b3cc LEVEL -c` and by `clang-16 LEVEL
# -fno-vectorize -fno-slp-vectorize -c`, and each function's frame size is
# read from its prologue in the disassembly: the bytes the stack pointer
# moves down before the function's first branch, call or return (x86-64:
# the return address, 8 per push, `sub $N, %rsp`, and the red zone a leaf
# function uses below what it allocated, up to 128 bytes; AAPCS64: the pre-indexed store
# pairs and `sub sp, sp, #N`).  A frame grown at run time
# (alloca, VLAs) counts its fixed part only.
#
# Prints, per level, the functions whose sizes differ (all of them with
# --all): name, clang's bytes, b3cc's bytes, the ratio; then the totals, the
# geometric mean of the ratios over the functions both compiled, and how
# many b3cc frames are larger, equal and smaller.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
target=x86_64 levels=-O0,-O2 all=0 files=()
for a in "$@"; do
    case $a in
    --target=*) target=${a#--target=} ;;
    --levels=*) levels=${a#--levels=} ;;
    --all) all=1 ;;
    -h | --help) sed -n '2,20p' "$0"; exit 0 ;;
    *) files+=("$a") ;;
    esac
done
case $target in
x86_64) triple=x86_64-linux-gnu objdump=objdump ;;
aarch64) triple=aarch64-linux-gnu objdump=aarch64-linux-gnu-objdump ;;
*) echo "frames.sh: unknown target $target (x86_64 or aarch64)" >&2; exit 2 ;;
esac
b3cc=$here/b3cc
[ -x "$b3cc" ] || { echo "frames.sh: build b3cc first (make)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
incs=()
if [ ${#files[@]} -eq 0 ]; then
    zsrc=$(bash "$here/scripts/program-source.sh" zlib)
    for f in adler32 compress crc32 deflate gzclose gzlib gzread gzwrite infback inffast inflate inftrees \
        trees uncompr zutil; do
        files+=("$zsrc/$f.c")
    done
    incs=(-I"$zsrc" -DHAVE_UNISTD_H -DHAVE_STDARG_H)
    files+=("$here"/bench/quality/*.c)
fi

# frames OBJ: "function bytes" lines from the prologues of OBJ's functions.
frames() {
    "$objdump" -d --no-show-raw-insn "$1" | awk -v arch="$target" '
        function flush() { if (fn != "") print fn, size + (calls ? 0 : below); fn = "" }
        function num(v,    i, d, x) { # a decimal or 0x hexadecimal number (mawk has no strtonum)
            if (v !~ /^0x/) return v + 0
            x = 0
            for (i = 3; i <= length(v); i++) { d = index("0123456789abcdef", substr(v, i, 1)) - 1; x = x * 16 + d }
            return x
        }
        /^[0-9a-f]+ <.*>:$/ {
            flush(); fn = $2; gsub(/[<>:]/, "", fn); size = (arch == "x86_64" ? 8 : 0); done = 0
            after_fp = -1; below = 0; calls = 0; next
        }
        fn == "" { next }
        /^ *[0-9a-f]+:\t/ {
            ins = $0; sub(/^ *[0-9a-f]+:\t/, "", ins)
            if (arch == "x86_64") {
                # A leaf function may keep its locals below the stack pointer
                # (the red zone, 128 bytes): the deepest -N(%rsp), or -N(%rbp)
                # beyond what the prologue allocated below %rbp, counts.
                if (match(ins, /-0x[0-9a-f]+\(%r[sb]p\)/)) {
                    d = num(substr(ins, RSTART + 1, RLENGTH - 7))
                    if (ins ~ /\(%rbp\)/ && after_fp >= 0) d -= after_fp
                    if (d > below && d <= 128) below = d
                }
                if (ins ~ /^call/) calls = 1
                if (done) next
                if (ins ~ /^push /) { size += 8; if (after_fp >= 0) after_fp += 8 }
                else if (ins ~ /^mov +%rsp,%rbp/) after_fp = 0
                else if (ins ~ /^sub +\$0x[0-9a-f]+,%rsp/) {
                    v = ins; sub(/^sub +\$/, "", v); sub(/,.*/, "", v); size += num(v); if (after_fp >= 0) after_fp += num(v)
                } else if (ins ~ /^(call|jmp|j[a-z]+|ret)/) done = 1
            } else {
                if (done) next
                if (ins ~ /^st[pr]\t.*\[sp, #-[0-9]+\]!/) { v = ins; sub(/.*\[sp, #-/, "", v); sub(/\].*/, "", v); size += v }
                else if (ins ~ /^sub\tsp, sp, #/) {
                    v = ins; sub(/^sub\tsp, sp, #/, "", v); sh = (v ~ /lsl #12/) ? 4096 : 1; sub(/[, ].*/, "", v)
                    size += num(v) * sh
                } else if (ins ~ /^(bl?|b\.[a-z]+|br|blr|ret|cbn?z|tbn?z)\t/ || ins ~ /^ret/) done = 1
            }
        }
        END { flush() }'
}

IFS=, read -r -a lv <<<"$levels"
for level in "${lv[@]}"; do
    : >"$work/clang.txt"
    : >"$work/b3cc.txt"
    for f in "${files[@]}"; do
        base=$work/$(basename "$f" .c)
        if clang-16 --target=$triple "$level" -fno-vectorize -fno-slp-vectorize "${incs[@]}" -w -c "$f" \
            -o "$base.clang.o" 2>/dev/null && "$b3cc" --target=$triple "$level" "${incs[@]}" -w -c "$f" \
            -o "$base.b3cc.o" 2>"$base.err"; then
            frames "$base.clang.o" >>"$work/clang.txt"
            frames "$base.b3cc.o" >>"$work/b3cc.txt"
        else
            echo "($f: not compiled at $level: $(head -1 "$base.err"))"
        fi
    done
    echo "== $target $level: frame bytes per function (clang-16, b3cc)"
    awk -v all="$all" '
        NR == FNR { c[$1] = $2; next }
        ($1 in c) {
            n++; tc += c[$1]; tb += $2
            # The geometric mean over frames both sides have (an AAPCS64 leaf may have none).
            if (c[$1] > 0 && $2 > 0) { nr++; lg += log($2 / c[$1]) }
            if ($2 > c[$1]) more++; else if ($2 < c[$1]) less++; else same++
            if (all || $2 != c[$1])
                printf "  %-28s %6d %6d  %s\n", $1, c[$1], $2, c[$1] ? sprintf("%5.2f", $2 / c[$1]) : "    -"
        }
        END {
            if (!n) { print "  no function in common"; exit }
            printf "  %d functions: total %d (clang) %d (b3cc), ratio %.2f; geometric mean of ratios %.2f\n",
                n, tc, tb, tb / tc, nr ? exp(lg / nr) : 1
            printf "  b3cc larger %d, equal %d, smaller %d\n", more, same, less
        }' "$work/clang.txt" "$work/b3cc.txt"
done
