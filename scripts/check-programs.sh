#!/usr/bin/env bash
# Builds real C programs from Debian's source packages with b3cc and runs
# each one's own test suite: `make check-programs`.
#
#   bash scripts/check-programs.sh [--programs=a,b] [--levels=-O0,-O2]
#                                  [--target=aarch64-linux-gnu] [--jobs=N]
#
# Each program is a script programs/NAME.sh (see programs/README.md for the
# interface).  For every program and level it copies the cached source
# (scripts/program-source.sh) into build/programs/NAME/LEVEL[-TARGET]/, builds
# it with CC=b3cc at that level and runs its tests.  One line per run
# ("PASS: zlib -O2 x86_64-linux-gnu", or "FAIL: ..." with the log's path),
# then "N passed, N failed, N skipped".  A program's script exits 77 for a
# target it does not support (skipped).  Default: every program at -O0 and
# -O2 on x86-64, and the programs that list arm64 (PROGRAM_ARM64=yes) on
# aarch64-linux-gnu under qemu as well.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
programs=
levels=-O0,-O2
targets=
jobs=2
while [ $# -gt 0 ]; do
    case $1 in
    --programs=*) programs=${1#*=} ;;
    --levels=*) levels=${1#*=} ;;
    --target=*) targets=${1#*=} ;;
    --jobs=*) jobs=${1#*=} ;;
    *) echo "check-programs: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
if [ -z "$programs" ]; then
    programs=$(cd "$here/programs" && ls *.sh | sed 's/\.sh$//' | tr '\n' ',')
fi
b3cc=$here/b3cc
[ -x "$b3cc" ] || { echo "check-programs: build b3cc first (make)" >&2; exit 2; }

runs=()
for p in ${programs//,/ }; do
    [ -f "$here/programs/$p.sh" ] || { echo "check-programs: no programs/$p.sh" >&2; exit 2; }
    ts=$targets
    if [ -z "$ts" ]; then
        ts=x86_64-linux-gnu
        grep -q '^PROGRAM_ARM64=yes' "$here/programs/$p.sh" && ts="$ts,aarch64-linux-gnu"
    fi
    for t in ${ts//,/ }; do
        for l in ${levels//,/ }; do
            runs+=("$p $l $t")
        done
    done
done

# Fetch every source first (serially: apt-get takes a lock).
for p in ${programs//,/ }; do
    pkg=$(sed -n 's/^PROGRAM_SOURCE=//p' "$here/programs/$p.sh")
    bash "$here/scripts/program-source.sh" "$pkg" > /dev/null || exit 1
done

one() { # one PROGRAM LEVEL TARGET
    local p=$1 l=$2 t=$3 pkg src work log rc=0 start=$SECONDS
    pkg=$(sed -n 's/^PROGRAM_SOURCE=//p' "$here/programs/$p.sh")
    src=$(bash "$here/scripts/program-source.sh" "$pkg")
    work=$here/build/programs/$p/$l-$t
    log=$work.log
    rm -rf "$work"
    mkdir -p "$work"
    cp -a "$src/." "$work/"
    local cc=$b3cc run=
    if [ "$t" != x86_64-linux-gnu ]; then
        cc="$b3cc --target=$t"
        run="qemu-aarch64 -L /usr/$t"
    fi
    (
        cd "$work" &&
            CC="$cc" LEVEL="$l" TARGET="$t" RUN="$run" HERE="$here" bash -e "$here/programs/$p.sh"
    ) > "$log" 2>&1 || rc=$?
    local took=$((SECONDS - start))
    case $rc in
    0) echo "PASS: $p $l $t (${took}s)" ;;
    77) echo "SKIP: $p $l $t" ;;
    *) echo "FAIL: $p $l $t (exit $rc; log $log)"; tail -15 "$log" | sed 's/^/    /' ;;
    esac
}
export -f one
export here b3cc
# Each run's line as it ends (tee to a file, not /dev/stderr: reopening that
# would overwrite a log both streams are redirected to).
results=$(mktemp)
printf '%s\n' "${runs[@]}" | xargs -P "$jobs" -I{} bash -c 'one {}' | tee "$results"
out=$(cat "$results")
rm -f "$results"
passed=$(grep -c '^PASS:' <<< "$out")
failed=$(grep -c '^FAIL:' <<< "$out")
skipped=$(grep -c '^SKIP:' <<< "$out")
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
