#!/usr/bin/env bash
# Code-quality benchmark: how fast is the code b3c generates, next to gcc and
# clang on the same programs?  (Also `bash bench/run.sh quality [OPTIONS]`.)
#
#   bash bench/quality.sh [OPTIONS]
#
# Every kernel is a well-known small program written twice: as B3 text the
# way a C front end would produce it (bench/quality/NAME.b3, procedure
# kernel_NAME) and in C (bench/quality/NAME.c, kernel_NAME_c).  Each is built
# as up to five variants — gcc -O2 and clang -O2 from the C, b3c -O0, -O1,
# -O2 (with --verify-each) from the B3 — and linked with the same driver
# (bench/quality/driver.c, built by gcc -O2), which sets up the input, calls
# the kernel R times and prints a checksum and the CPU and wall time of the
# calls.  The script
#   1. builds everything (into bench/out/quality/, or --out DIR);
#   2. runs each variant once at a small size and checks that all the
#      variants of a kernel print the same checksum (a mismatch, a crash or a
#      build failure is reported loudly and the script exits 1);
#   3. times them in interleaved rounds: each round runs every (kernel,
#      variant) once, kernels and variants in shuffled order, so that load
#      changes hit all variants alike; the checksums are checked again;
#   4. prints a table: per kernel the time of each variant (the minimum over
#      the rounds by default), each variant's ratio to gcc -O2, and the
#      geometric mean of the ratios; then the goal line.
# A b3c level whose object file is byte-identical to a lower level's (today
# -O1 and -O2 equal -O0: there is no optimizer yet) is not run again: it
# gets that level's times and is marked "=O0" in the table.
#
# Goal: b3c -O2 geomean <= 1.05x gcc -O2, and no kernel above 1.3x.
#
# Options:
#   --check            only steps 1-2, at the small sizes (seconds; what the
#                      lit test testsuite/bench/quality-check.test runs)
#   --rounds N         timing rounds (default 5)
#   --stat min|median  statistic over the rounds (default min)
#   --clock cpu|wall   time measure (default cpu: process CPU time, which a
#                      busy machine disturbs less than wall time)
#   --variants LIST    comma-separated subset of gcc,clang,O0,O1,O2 (gcc is
#                      always included: it is the reference)
#   --kernels LIST     comma-separated subset of the kernels
#   --no-dedup         time every b3c level even when its object file is
#                      identical to another level's
#   --json FILE        also write the results as JSON to FILE
#   --out DIR          build directory (default bench/out/quality)
# Environment: B3C (default ./b3c, brought up to date by make), GCC (gcc),
# CLANG (clang).
# Missing compilers are installed by scripts/deps.sh.
set -euo pipefail
caller_pwd=$PWD
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
cd "$(dirname "$0")/.."

check=false
rounds=5
stat=min
clock=cpu
variants=gcc,clang,O0,O1,O2
kernels=
dedup=true
json=
out=

usage() { sed -n '2,/^set -euo/p' "$self" | sed '$d' | sed 's/^# \{0,1\}//'; }
die() { echo "quality: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
    case $1 in
    --check) check=true ;;
    --rounds) rounds=${2:?}; shift ;;
    --rounds=*) rounds=${1#*=} ;;
    --stat) stat=${2:?}; shift ;;
    --stat=*) stat=${1#*=} ;;
    --clock) clock=${2:?}; shift ;;
    --clock=*) clock=${1#*=} ;;
    --variants) variants=${2:?}; shift ;;
    --variants=*) variants=${1#*=} ;;
    --kernels) kernels=${2:?}; shift ;;
    --kernels=*) kernels=${1#*=} ;;
    --no-dedup) dedup=false ;;
    --json) json=${2:?}; shift ;;
    --json=*) json=${1#*=} ;;
    --out) out=${2:?}; shift ;;
    --out=*) out=${1#*=} ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
    esac
    shift
done

# Paths given by the caller are relative to where it was called from.
abspath() { case $1 in /*) echo "$1" ;; *) echo "$caller_pwd/$1" ;; esac; }
if [ -n "$out" ]; then out=$(abspath "$out"); else out=$PWD/bench/out/quality; fi
[ -z "$json" ] || json=$(abspath "$json")
if [ -n "${B3C:-}" ] && [[ $B3C == */* ]]; then B3C=$(abspath "$B3C"); fi

[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "--rounds wants a positive integer"
[[ $stat == min || $stat == median ]] || die "--stat is min or median"
[[ $clock == cpu || $clock == wall ]] || die "--clock is cpu or wall"

# ---- what to build ---------------------------------------------------------
src=bench/quality
all_variants=(gcc clang O0 O1 O2)
want=()
for v in "${all_variants[@]}"; do
    if [ "$v" = gcc ] || [[ ",$variants," == *",$v,"* ]]; then want+=("$v"); fi
done
for v in ${variants//,/ }; do
    [[ " ${all_variants[*]} " == *" $v "* ]] || die "unknown variant '$v' (gcc, clang, O0, O1, O2)"
done

all_kernels=()
for f in "$src"/*.b3; do
    k=$(basename "$f" .b3)
    [ -f "$src/$k.c" ] || die "$f has no C version $src/$k.c"
    all_kernels+=("$k")
done
ks=()
if [ -n "$kernels" ]; then
    for k in ${kernels//,/ }; do
        [ -f "$src/$k.b3" ] || die "unknown kernel '$k'"
        ks+=("$k")
    done
else
    ks=("${all_kernels[@]}")
fi

# ---- tools ------------------------------------------------------------------
B3C=${B3C:-./b3c}
GCC=${GCC:-gcc}
CLANG=${CLANG:-clang}
if [ "$B3C" = ./b3c ]; then make -s -j2 b3c >&2; fi
[ -x "$B3C" ] || command -v "$B3C" >/dev/null || die "no b3c at '$B3C'"
need_deps=false
command -v "$GCC" >/dev/null || need_deps=true
if [[ " ${want[*]} " == *" clang "* ]]; then command -v "$CLANG" >/dev/null || need_deps=true; fi
if $need_deps; then bash scripts/deps.sh >&2; fi

mkdir -p "$out"
CFLAGS_K=(-O2 -std=c11 -ffp-contract=off)
failed=0
fail() { echo "quality: FAILED: $*" >&2; failed=1; }

# The driver: one object calling the C kernels, one calling the B3 kernels.
"$GCC" -O2 -std=c11 -Wall -Wextra -DIMPL_C -c "$src/driver.c" -o "$out/driver-c.o"
"$GCC" -O2 -std=c11 -Wall -Wextra -c "$src/driver.c" -o "$out/driver-b3.o"
"$GCC" -o "$out/driver-list" "$out/driver-c.o"
driver_kernels=$("$out/driver-list" --list | cut -d' ' -f1)
for k in "${ks[@]}"; do
    grep -qx "$k" <<<"$driver_kernels" || die "kernel '$k' is missing from $src/driver.c"
done

# build K V: the executable $out/K-V, or a message and status 1.
build() {
    local k=$1 v=$2 o=$out/$1-$2.o exe=$out/$1-$2 log=$out/$1-$2.log drv
    rm -f "$o" "$exe"
    case $v in
    gcc | clang) drv=c ;;
    *) drv=b3 ;;
    esac
    case $v in
    gcc) "$GCC" "${CFLAGS_K[@]}" -c "$src/$k.c" -o "$o" >"$log" 2>&1 ;;
    clang) "$CLANG" "${CFLAGS_K[@]}" -c "$src/$k.c" -o "$o" >"$log" 2>&1 ;;
    O*) "$B3C" --verify-each "-$v" "$src/$k.b3" -o "$o" >"$log" 2>&1 ;;
    esac || { echo "$k $v: build failed:"; head -20 "$log"; return 1; }
    "$GCC" -o "$exe" "$out/driver-$drv.o" "$o" -lm >>"$log" 2>&1 ||
        { echo "$k $v: link failed:"; head -20 "$log"; return 1; }
}

# Build every (kernel, variant), two at a time.
jobs_list=()
for k in "${ks[@]}"; do for v in "${want[@]}"; do jobs_list+=("$k $v"); done; done
echo "quality: building ${#ks[@]} kernels x ${#want[@]} variants in $out" >&2
printf '%s\n' "${jobs_list[@]}" |
    xargs -P 2 -L 1 bash -c "$(declare -f build); $(declare -p src out GCC CLANG B3C CFLAGS_K); build \"\$0\" \"\$1\"" >"$out/build.log" 2>&1 || true
cat "$out/build.log" >&2

# For each kernel, the variants that built; and which b3c levels alias a
# lower one (identical object file).
declare -A ok same bad
for k in "${ks[@]}"; do
    for v in "${want[@]}"; do
        if [ -x "$out/$k-$v" ]; then
            ok[$k-$v]=1
        else
            fail "$k: $v did not build (see $out/$k-$v.log)"
            bad[$k]=1
        fi
    done
    if $dedup; then
        for v in O1 O2; do
            [ -n "${ok[$k-$v]:-}" ] || continue
            for w in O0 O1; do
                [ "$w" = "$v" ] && break
                if [ -n "${ok[$k-$w]:-}" ] && [ -z "${same[$k-$w]:-}" ] &&
                    cmp -s "$out/$k-$v.o" "$out/$k-$w.o"; then
                    same[$k-$v]=$w
                    break
                fi
            done
        done
    fi
done

results=$out/results.txt
: >"$results"

# run K V ROUND ARGS...: runs the driver, appends "K V ROUND cpu wall checksum"
# to $results; on a crash, reports it and returns 1.
run() {
    local k=$1 v=$2 r=$3 line
    shift 3
    if ! line=$("$out/$k-$v" "$k" "$@" 2>"$out/$k-$v.err"); then
        fail "$k: $v crashed or failed (round $r): $(head -3 "$out/$k-$v.err")"
        return 1
    fi
    local cs cpu wall
    cs=$(sed -n 's/.*checksum=\([^ ]*\).*/\1/p' <<<"$line")
    cpu=$(sed -n 's/.*cpu=\([^ ]*\).*/\1/p' <<<"$line")
    wall=$(sed -n 's/.*wall=\([^ ]*\).*/\1/p' <<<"$line")
    echo "$k $v $r $cpu $wall $cs" >>"$results"
}

# ---- step 2: checksums at the small sizes -----------------------------------
for k in "${ks[@]}"; do
    ref=
    mismatch=false
    line="$k:"
    for v in "${want[@]}"; do
        if [ -z "${ok[$k-$v]:-}" ]; then line+=" $v=(no build)"; continue; fi
        if ! run "$k" "$v" 0 --check; then line+=" $v=(failed)"; bad[$k]=1; continue; fi
        cs=$(tail -n 1 "$results" | cut -d' ' -f6)
        line+=" $v=$cs"
        if [ -z "$ref" ]; then
            ref=$cs
        elif [ "$cs" != "$ref" ]; then
            mismatch=true
            bad[$k]=1
        fi
    done
    if $mismatch; then
        fail "CHECKSUM MISMATCH in kernel $k at the check size:${line#*:}"
    elif [ -n "${bad[$k]:-}" ]; then
        fail "kernel $k: not every variant built and ran:${line#*:}"
    else
        printf 'quality: check %-12s ok  %s\n' "$k" "$ref"
    fi
done

if $check; then
    if [ "$failed" -ne 0 ]; then
        echo "quality --check: FAILED" >&2
        exit 1
    fi
    echo "quality --check: ${#ks[@]} kernels, variants ${want[*]}: all checksums equal"
    exit 0
fi

# ---- step 3: interleaved timing rounds -------------------------------------
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
: >"$results"
for ((r = 1; r <= rounds; r++)); do
    echo "quality: round $r/$rounds (load average $(cut -d' ' -f1 /proc/loadavg))" >&2
    for k in $(printf '%s\n' "${ks[@]}" | shuf); do
        [ -z "${bad[$k]:-}" ] || continue
        vs=()
        for v in "${want[@]}"; do
            [ -n "${ok[$k-$v]:-}" ] && [ -z "${same[$k-$v]:-}" ] && vs+=("$v")
        done
        for v in $(printf '%s\n' "${vs[@]}" | shuf); do
            run "$k" "$v" "$r" || bad[$k]=1
        done
    done
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

# ---- step 4: the table ------------------------------------------------------
aliases=
for key in "${!same[@]}"; do aliases+="$key=${same[$key]} "; done
okvars=
for key in "${!ok[@]}"; do okvars+="$key "; done
"$out/driver-list" --list >"$out/sizes.txt"

python3 - "$results" "$out/sizes.txt" "$stat" "$clock" "$rounds" "${want[*]}" "${ks[*]}" \
    "$aliases" "$okvars" "$load_start" "$load_end" "$(nproc)" "${json:-}" <<'EOF' || failed=1
import json, math, statistics, sys
(results, sizes_file, stat, clock, rounds, want, kernels, aliases, okvars,
 load_start, load_end, ncpu, json_path) = sys.argv[1:]
want = want.split()
kernels = kernels.split()
alias = dict(a.split('=') for a in aliases.split())
built = set(okvars.split())
sizes = {}
for line in open(sizes_file):
    name, size, reps, _ = line.split()
    sizes[name] = (int(size), int(reps))
runs = {}      # (kernel, variant) -> list of (cpu, wall)
sums = {}      # kernel -> {variant: set(checksums)}
for line in open(results):
    k, v, r, cpu, wall, cs = line.split()
    runs.setdefault((k, v), []).append((float(cpu), float(wall)))
    sums.setdefault(k, {}).setdefault(v, set()).add(cs)

status = 0
def source(k, v):
    return (k, alias.get('%s-%s' % (k, v), v))
def times(k, v):
    t = runs.get(source(k, v), [])
    return [c if clock == 'cpu' else w for c, w in t]
def pick(ts):
    if not ts:
        return None
    return min(ts) if stat == 'min' else statistics.median(ts)

report = {'rounds': int(rounds), 'stat': stat, 'clock': clock, 'cpus': int(ncpu),
          'load_average_start': load_start, 'load_average_end': load_end,
          'variants': want, 'kernels': {}}
names = {'gcc': 'gcc-O2', 'clang': 'clang-O2', 'O0': 'b3c-O0', 'O1': 'b3c-O1', 'O2': 'b3c-O2'}
others = [v for v in want if v != 'gcc']
ratios = {v: [] for v in others}
rows = []
for k in kernels:
    allsums = set()
    for v in want:
        allsums |= sums.get(k, {}).get(source(k, v)[1], set())
    entry = {'size': sizes[k][0], 'reps': sizes[k][1],
             'checksum': sorted(allsums)[0] if len(allsums) == 1 else sorted(allsums),
             'seconds': {}, 'median_seconds': {}, 'all_seconds': {}, 'ratio_to_gcc': {},
             'same_object_as': {}}
    if len(allsums) > 1:
        print('quality: CHECKSUM MISMATCH in kernel %s: %s' % (
            k, ', '.join('%s=%s' % (v, '/'.join(sorted(sums[k].get(source(k, v)[1], ['-']))))
                         for v in want)), file=sys.stderr)
        status = 1
    cells = []
    g = pick(times(k, 'gcc'))
    spread = 0.0
    for v in want:
        ts = times(k, v)
        t = pick(ts)
        a = alias.get('%s-%s' % (k, v))
        if a:
            entry['same_object_as'][v] = a
        if t is None:
            cells.append('%9s' % ('-' if '%s-%s' % (k, v) not in built else 'FAIL'))
            continue
        entry['seconds'][v] = t
        entry['median_seconds'][v] = statistics.median(ts)
        entry['all_seconds'][v] = ts
        if not a and min(ts) > 0:
            spread = max(spread, statistics.median(ts) / min(ts) - 1)
        cells.append('%9s' % ('=' + a if a else '%.3f' % t))
        if v != 'gcc' and g:
            entry['ratio_to_gcc'][v] = t / g
            ratios[v].append(t / g)
    rcells = ['%9s' % ('%.2f' % entry['ratio_to_gcc'][v] if v in entry['ratio_to_gcc'] else '-')
              for v in others]
    rows.append('%-11s %s |%s %6.1f%%' % (k, ' '.join(cells), ' '.join(rcells), 100 * spread))
    entry['spread'] = spread
    report['kernels'][k] = entry

geo = {v: math.exp(sum(map(math.log, r)) / len(r)) for v, r in ratios.items() if r}
report['geomean_ratio_to_gcc'] = geo
print('b3c code-quality benchmark: %d kernels, %s of %s rounds, %s time in seconds' % (
    len(kernels), stat, rounds, clock))
print('load average (1, 5, 15 min): %s at the start, %s at the end; %s CPUs' % (
    load_start, load_end, ncpu))
print()
head = '%-11s %s |%s %7s' % ('kernel', ' '.join('%9s' % names[v] for v in want),
                            ' '.join('%9s' % (v + '/gcc') for v in others), 'spread')
print(head)
print('-' * len(head))
for r in rows:
    print(r)
print('-' * len(head))
print('%-11s %s |%s' % ('geomean', ' '.join('%9s' % '' for v in want),
                        ' '.join('%9s' % ('%.2f' % geo[v] if v in geo else '-') for v in others)))
print()
print('ratios are time / gcc-O2 time (lower is better); "=O0": the same object file as b3c -O0,')
print('not run again; spread: the largest median/min - 1 of the kernel\'s variants (noise).')
if 'O2' in geo:
    over = sorted(((r, k) for k in kernels
                   for r in [report['kernels'][k]['ratio_to_gcc'].get('O2')] if r and r > 1.3),
                  reverse=True)
    met = geo['O2'] <= 1.05 and not over
    report['goal'] = {'geomean_max': 1.05, 'kernel_max': 1.3, 'met': met,
                      'geomean': geo['O2'], 'kernels_above': {k: r for r, k in over}}
    print('goal: b3c -O2 geomean <= 1.05x gcc -O2, no kernel above 1.3x: %s (geomean %.2fx%s)' % (
        'met' if met else 'NOT met', geo['O2'],
        '; above 1.3x: ' + ', '.join('%s %.2fx' % (k, r) for r, k in over) if over else ''))
if json_path:
    with open(json_path, 'w') as f:
        json.dump(report, f, indent=2, sort_keys=True)
        f.write('\n')
    print('JSON written to %s' % json_path)
sys.exit(status)
EOF

if [ "$failed" -ne 0 ]; then
    echo "quality: FAILED (see the messages above)" >&2
    exit 1
fi
