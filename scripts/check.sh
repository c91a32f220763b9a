#!/usr/bin/env bash
# Runs every test: the lit suite and the fuzz corpus replays.
# Ends with one line "N passed, N failed".
#
#   bash scripts/check.sh [--no-fuzz] [LIT ARGS...]
#
# --no-fuzz: the lit suite only (`make check-sanitize`, whose b3c is
# sanitized already, as the replays are).  B3C names the b3c to test.
#
# arm64: the cross toolchain and qemu are checked for aarch64-linux-gnu
# (testsuite/cross) every time; the programs (exec, stackmaps, regress) and
# the difftest smoke run for arm64 too as soon as b3c can generate arm64 code
# (a probe compile says so), at the levels in B3C_ARM64_LEVELS (default
# "-O2 -O0 -O1"; "none" skips the arm64 programs).  Then the Apple targets
# (Mach-O), at B3C_APPLE_LEVELS (default -O2), once b3c writes Mach-O for
# them.  See docs/testing.md.
set -u
cd "$(dirname "$0")/.."
fuzz=true
if [ "${1:-}" = "--no-fuzz" ]; then
    fuzz=false
    shift
fi
exec_root=${B3C_TEST_EXEC_ROOT:-build/testsuite}
LIT=${LIT:-/usr/lib/llvm-14/build/utils/lit/lit.py}
passed=0
failed=0

lit() { # lit LABEL LIT-ARGS...: run lit, add its counts
    local label=$1 out p f
    shift
    out=$(mktemp)
    python3 "$LIT" -v --no-progress-bar "$@" 2>&1 | tee "$out" |
        grep -E '^(FAIL|XPASS|UNRESOLVED|TIMEOUT):|^\*\*\*\*|^Failed|^Passed' | sed "s/^/$label/" || true
    p=$(grep -cE '^(PASS|XFAIL|UNSUPPORTED): ' "$out")
    f=$(grep -cE '^(FAIL|XPASS|UNRESOLVED|TIMEOUT): ' "$out")
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
        echo "lit ran no tests:"; tail -20 "$out"
        failed=$((failed + 1))
    fi
    rm -f "$out"
}
lit "" testsuite "$@"

# The programs the suite runs (execution, stackmap and regression tests)
# again at -O0 and -O1: the default level is -O2, and every level must run
# them correctly.  A test that names its own level keeps it.
for level in -O0 -O1; do
    B3C_LEVEL=$level B3C_TEST_EXEC_ROOT=$exec_root$level \
        lit "[$level] " testsuite/exec testsuite/stackmaps testsuite/regress "$@"
done

# The same programs built for arm64 (aarch64-linux-gnu-gcc) and run under
# qemu-aarch64; tests that are x86-64's own say REQUIRES: x86_64.
arm64=aarch64-linux-gnu
target_supported() { # TRIPLE: can this b3c generate code for it? (it refuses until the backend exists)
    local dir ok=1
    dir=$(mktemp -d)
    printf 'proc @probe {\nBB#0:\n    Int64 @0 = Const64(1)\n    Void @1 = Return(@0)\n}\n' > "$dir/probe.b3"
    "${B3C:-./b3c}" --target="$1" "$dir/probe.b3" -o "$dir/probe.o" >/dev/null 2>&1 || ok=0
    rm -rf "$dir"
    [ $ok -eq 1 ]
}
arm64_supported() { target_supported $arm64; }
B3C_TARGET=$arm64 B3C_TEST_EXEC_ROOT=$exec_root-arm64 lit "[arm64] " testsuite/cross "$@"
levels=${B3C_ARM64_LEVELS:--O2 -O0 -O1}
if [ "$levels" = none ]; then
    echo "arm64: programs skipped (B3C_ARM64_LEVELS=none)"
elif ! arm64_supported; then
    echo "arm64: skipped (backend not built yet)"
else
    for level in $levels; do
        dirs=(testsuite/exec testsuite/stackmaps testsuite/regress)
        # The default level (-O2) also runs the difftest smoke, which picks its
        # own levels, and the object-file tests: -S (asm), -g (debuginfo), ELF.
        [ "$level" = -O2 ] && dirs+=(testsuite/difftest testsuite/asm testsuite/debuginfo testsuite/elf)
        B3C_TARGET=$arm64 B3C_LEVEL=$level B3C_TEST_EXEC_ROOT=$exec_root-arm64$level \
            lit "[arm64 $level] " "${dirs[@]}" "$@"
    done
fi

# The Apple targets (Mach-O objects): the same programs built for
# x86_64-apple-macos and arm64-apple-macos, each linked for macOS by ld64.lld
# (proof 2) and run on Linux through a test-only loader (proof 3; x86-64
# natively, arm64 under qemu-aarch64): testsuite/macho/Inputs/macho_cc.py is
# their %cc.  One level (B3C_APPLE_LEVELS, default -O2) with the difftest
# smoke; B3C_APPLE_LEVELS=none skips them.  Skipped while b3c cannot write
# Mach-O for the target (a probe compile).  See docs/testing.md.
apple_levels=${B3C_APPLE_LEVELS:--O2}
for apple in x86_64-apple-macos arm64-apple-macos; do
    if [ "$apple_levels" = none ]; then
        echo "$apple: programs skipped (B3C_APPLE_LEVELS=none)"
    elif ! target_supported $apple; then
        echo "$apple: skipped (b3c cannot write Mach-O for it yet)"
    else
        for level in $apple_levels; do
            dirs=(testsuite/exec testsuite/stackmaps testsuite/regress)
            [ "$level" = -O2 ] && dirs+=(testsuite/difftest)
            B3C_TARGET=$apple B3C_LEVEL=$level B3C_TEST_EXEC_ROOT=$exec_root-$apple$level \
                lit "[$apple $level] " "${dirs[@]}" "$@"
        done
    fi
done

# Each fuzz corpus replayed under ASan/UBSan counts as one test: the front
# end's (testsuite/fuzz/corpus) and the whole backend's (corpus-backend).
smoke() { # smoke NAME ARGS...
    local name=$1 log=/tmp/b3c-$1.$$.log
    shift
    if bash scripts/fuzz-smoke.sh "$@" >"$log" 2>&1; then
        passed=$((passed + 1))
        echo "PASS: $name ($(tail -n 1 "$log"))"
    else
        failed=$((failed + 1))
        echo "FAIL: $name"
        tail -30 "$log"
    fi
    rm -f "$log"
}
if $fuzz; then
    smoke fuzz-smoke
    smoke fuzz-smoke-backend --backend
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
