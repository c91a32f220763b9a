#!/usr/bin/env bash
# Runs the tests: ONE lit run over every configuration (target x level),
# with --fuzz the fuzz corpus replays, and ends with one line
# "N passed, N failed, N skipped": passed counts only tests that ran and
# passed (lit's PASS and XFAIL), failed FAIL, XPASS, UNRESOLVED and TIMEOUT,
# skipped UNSUPPORTED (a test whose REQUIRES this configuration lacks).
#
#   bash scripts/check.sh [--long] [--fuzz] [LIT ARGS...]
#
# Default (`make check`, under three minutes on two cores): the whole suite
#   for x86-64 Linux at the default level; exec, stackmaps, regress and
#   import/exec again at -O0 and -O1; for aarch64-linux-gnu (qemu) the
#   programs, import/exec, cross, the difftest smoke, the object-file tests
#   (asm, debuginfo, elf) and the C programs of b3cc (b3cc/run); for the
#   Apple targets (Mach-O, through the test loader) the programs and the
#   difftest smoke.  Tests that say `REQUIRES: long` (sweeps over every
#   program, generators, unit-test builds) are UNSUPPORTED here.
# --long (`make check-long`): only what the default run leaves out — the
#   `REQUIRES: long` tests of each configuration, and the programs at the
#   levels the default skips (arm64 -O0/-O1, B3C_LONG_APPLE_LEVELS for Apple).
#   CI runs both (and `make check-sanitize`, the default set with b3c built
#   with ASan+UBSan).
# --fuzz (`make check-sanitize`): also replay the fuzz corpora (front end,
#   whole backend, LLVM-IR front end) under ASan/UBSan, one test each; they build sanitized
#   harnesses, which belongs with the sanitized run.
#
# Each configuration is a directory <exec root>/<name> holding a
# lit.site.cfg.py that sets the target and level and loads
# testsuite/lit.cfg.py; lit gets the directories (or paths under them) of
# all of them at once, so every test of every configuration shares one pool
# of workers.  Progress: lit's progress bar on a terminal, one line per test
# otherwise.  B3C names the b3c to test; B3C_SANITIZED=1 says it is sanitized.
# B3C_ARM64_LEVELS / B3C_APPLE_LEVELS ("none" skips) override the levels of
# the default run.  See docs/testing.md.
set -u
cd "$(dirname "$0")/.."
fuzz=false
long=false
while [ $# -gt 0 ]; do
    case $1 in
    --fuzz) fuzz=true ;;
    --long) long=true ;;
    *) break ;;
    esac
    shift
done
src=$(pwd)
exec_root=${B3C_TEST_EXEC_ROOT:-build/testsuite}
mkdir -p "$exec_root"
exec_root=$(cd "$exec_root" && pwd)
LIT=${LIT:-/usr/lib/llvm-14/build/utils/lit/lit.py}
b3c=${B3C:-$src/b3c}
passed=0
failed=0
skipped=0

inputs=()
# config NAME TARGET LEVEL DIR...: one configuration; DIR "." is the whole suite.
config() {
    local name=$1 target=$2 level=$3 dir=$exec_root/$1 d
    shift 3
    mkdir -p "$dir"
    cat > "$dir/lit.site.cfg.py" <<EOF
# Written by scripts/check.sh: configuration $name.
config.b3c_config = '$name'
config.b3c_target = '$target'
config.b3c_level = '$level'
config.b3c_bin = '$b3c'
config.b3c_test_exec_root = '$dir'
config.b3c_sanitized = '${B3C_SANITIZED:-}'
config.b3c_long = '$($long && echo 1)'
lit_config.load_config(config, '$src/testsuite/lit.cfg.py')
EOF
    if ! ${only_long:-$long}; then
        for d in "$@"; do
            inputs+=("$dir/${d%.}")
        done
    elif [ -z "$level" ]; then
        # Only the long tests of a default configuration's directories (a
        # level rerun has none: they ran at the default level).
        local f
        while IFS= read -r f; do
            inputs+=("$dir/$f")
        done < <(cd testsuite && grep -rlE '^[;#/ ]*REQUIRES:.*\blong\b' --include='*.b3' --include='*.test' "$@" |
            grep -vE '(^|/)(Inputs|fuzz|failures)/' | sed 's|^\./||' | sort)
    fi
}
# longconfig NAME TARGET LEVEL DIR...: a configuration of --long only, all its tests.
longconfig() {
    $long || return 0
    only_long=false config "$@"
}

programs=(exec stackmaps regress)
x86=x86_64-linux-gnu
arm64=aarch64-linux-gnu
config x86 $x86 "" .
# import/exec: C programs through clang-16 and the LLVM-IR front end (Linux
# targets only: the bitcode names its target).
config x86-O0 $x86 -O0 "${programs[@]}" import/exec
config x86-O1 $x86 -O1 "${programs[@]}" import/exec
# arm64: the cross toolchain check (cross) and, at the default level, the
# difftest smoke and the object-file tests.
arm_levels=${B3C_ARM64_LEVELS:--O2}
if [ "$arm_levels" != none ]; then
    for level in $arm_levels; do
        if [ "$level" = -O2 ]; then
            config arm64 $arm64 "" "${programs[@]}" import/exec cross difftest asm debuginfo elf b3cc/run
        else
            config arm64$level $arm64 "$level" "${programs[@]}" import/exec
        fi
    done
fi
longconfig arm64-O0 $arm64 -O0 "${programs[@]}" import/exec
longconfig arm64-O1 $arm64 -O1 "${programs[@]}" import/exec
# The Apple targets (Mach-O): the programs linked for macOS by ld64.lld and
# run on Linux through testsuite/macho/Inputs/macho_cc.py's loader.
apple_levels=${B3C_APPLE_LEVELS:--O2}
for apple in x86_64-apple-macos arm64-apple-macos; do
    short=${apple%%-*}-apple
    if [ "$apple_levels" != none ]; then
        for level in $apple_levels; do
            if [ "$level" = -O2 ]; then
                config "$short" $apple "" "${programs[@]}" difftest
            else
                config "$short$level" $apple "$level" "${programs[@]}"
            fi
        done
    fi
    for level in ${B3C_LONG_APPLE_LEVELS:--O0}; do
        longconfig "$short$level" $apple "$level" "${programs[@]}"
    done
done

# One lit run over all of them.  Its JSON report (-o) gives the counts.
results=$(mktemp)
progress=()
[ -t 1 ] && progress=(-s)
if [ ${#inputs[@]} -gt 0 ]; then
    python3 "$LIT" -v "${progress[@]}" -o "$results" "$@" "${inputs[@]}"
    counts=$(python3 - "$results" <<'EOF'
import json, sys
try:
    tests = json.load(open(sys.argv[1]))['tests']
except Exception:
    tests = []
ok = sum(t['code'] in ('PASS', 'XFAIL') for t in tests)
skip = sum(t['code'] == 'UNSUPPORTED' for t in tests)
print(ok, len(tests) - ok - skip, skip)
EOF
)
    read -r p f s <<<"$counts"
    if [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -eq 0 ]; then
        echo "lit ran no tests"
        f=1
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    skipped=$((skipped + s))
fi
rm -f "$results"

# Each fuzz corpus replayed under ASan/UBSan counts as one test: the front
# end's (testsuite/fuzz/corpus), the whole backend's (corpus-backend) and the
# LLVM-IR front end's (corpus-import).
smoke() { # smoke NAME ARGS...
    local name=$1 log
    shift
    log=$(mktemp)
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
    # The LLVM-IR front end's, where it can be built (llvm-16-dev).
    if command -v llvm-config-16 >/dev/null; then
        smoke fuzz-smoke-import --import
    fi
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
