#!/bin/sh
# Runs the execution tests (testsuite/exec/*.b3) for aarch64-linux-gnu under
# qemu-user at -O0, -O1 and -O2: compile with b3c, link with the Debian cross
# gcc, run, FileCheck the output.  Prints PASS/FAIL per test and level.
# Usage: scripts/arm64_exec.sh [test.b3 ...]
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B3C=${B3C:-$ROOT/b3c}
CC=${CC_ARM64:-aarch64-linux-gnu-gcc}
QEMU=${QEMU:-qemu-aarch64 -L /usr/aarch64-linux-gnu}
FILECHECK=${FILECHECK:-FileCheck-14}
command -v "$FILECHECK" >/dev/null 2>&1 || FILECHECK=/usr/lib/llvm-14/bin/FileCheck
W=${WORK:-/tmp/arm64-exec}
mkdir -p "$W"
[ $# -gt 0 ] || set -- "$ROOT"/testsuite/exec/*.b3
pass=0 fail=0
for t in "$@"; do
    n=$(basename "$t" .b3)
    flags=$(sed -n 's/^; RUN: %b3c \(.*\)%s -o %t.o$/\1/p' "$t" | head -1)
    cc=$(sed -n 's/^; RUN: cc\(.*\) -o %t.exe \(.*\)$/\1 \2/p' "$t" | head -1 | sed "s#%S#$ROOT/testsuite/exec#g; s#%t.o#$W/$n.o#g")
    for O in 0 1 2; do
        r=FAIL
        if $B3C --target=aarch64-linux-gnu -O$O $flags "$t" -o "$W/$n.o" 2>"$W/$n.O$O.err" &&
            $CC -static $cc -o "$W/$n.exe" 2>>"$W/$n.O$O.err" &&
            $QEMU "$W/$n.exe" >"$W/$n.O$O.out" 2>>"$W/$n.O$O.err" &&
            $FILECHECK "$t" <"$W/$n.O$O.out" 2>>"$W/$n.O$O.err"; then
            r=PASS
        fi
        [ $r = PASS ] && pass=$((pass + 1)) || fail=$((fail + 1))
        echo "$r -O$O $n"
    done
done
echo "passed $pass, failed $fail"
