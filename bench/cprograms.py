#!/usr/bin/env python3
"""The C-program benchmark: b3cc next to clang-16 and gcc on C programs.
Run by bench/cprograms.sh (see its header for the options); not a timed test.

Programs: csmith programs of fixed seeds (scripts/csmith-opts.sh's options)
and the C kernels of bench/quality (NAME.c, kernel_NAME_c).

1. Compile time of each program's source to an object (-c), the whole
   driver: b3cc -O0/-O2, clang-16 -O0/-O2, gcc -O2.
2. b3c's part alone, on the same bitcode, against LLVM's code generator:
   b3c -O0 vs llc-16 -O0 on clang's -O0 bitcode, b3c -O2 vs llc-16 -O2 on
   clang's `-O2 -fno-vectorize -fno-slp-vectorize` bitcode (-filetype=obj).
3. Run time of the kernels built by each compiler, by b3c -O2 and llc-16 -O2
   on the same optimized bitcode, and by b3c -O2 on clang's -O0 bitcode
   (optnone off: B3's optimizer without LLVM's) next to clang -O1; each
   linked with the same driver (bench/quality/driver.c, gcc -O2), after a
   check that every build prints the same checksum.
Every measurement runs once per round; rounds are interleaved (each round
measures everything once, in shuffled order) and the minimum is kept.  The
tables give the ratios and their geometric means; a program b3cc cannot
compile is listed as such and left out of the means.
"""
import argparse
import math
import os
import random
import re
import resource
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
QUALITY = os.path.join(HERE, 'quality')
NOVEC = ['-fno-vectorize', '-fno-slp-vectorize']


def csmith_opts():
    out = subprocess.run(['bash', '-c', '. "$1"; printf "%s\\n" "${CSMITH_OPTS[@]}"; echo "$CSMITH_INC"',
                          'x', os.path.join(ROOT, 'scripts', 'csmith-opts.sh')],
                         capture_output=True, text=True, check=True).stdout.split('\n')
    out = [x for x in out if x]
    return out[:-1], out[-1]


def timed(cmd, clock):
    """Runs cmd; returns its time (None if it failed)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t1 = time.perf_counter()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        return None, p.stderr.decode(errors='replace')
    if clock == 'wall':
        return t1 - t0, ''
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime), ''


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def fmt(x, unit=1000.0, width=9):
    return ('%*.1f' % (width, x * unit)) if x is not None else '%*s' % (width, 'fail')


def ratio(a, b, width=7):
    return ('%*.2f' % (width, a / b)) if a and b else '%*s' % (width, '-')


def main():
    ap = argparse.ArgumentParser(description='b3cc next to clang-16 and gcc on C programs')
    ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--seeds', default='1-10', help='csmith seeds, FIRST-LAST (none: no csmith programs)')
    ap.add_argument('--kernels', default='', help='comma-separated subset of the bench/quality kernels')
    ap.add_argument('--clock', choices=['cpu', 'wall'], default='cpu')
    ap.add_argument('--check', action='store_true', help='small kernel sizes, one round: a quick try')
    ap.add_argument('--no-run', action='store_true', help='compile times only')
    ap.add_argument('--out', default=os.path.join(HERE, 'out', 'cprograms'))
    a = ap.parse_args()
    if a.check:
        a.rounds = 1
    b3cc = os.environ.get('B3CC', os.path.join(ROOT, 'b3cc'))
    b3c = os.environ.get('B3C', os.path.join(ROOT, 'b3c'))
    clang = os.environ.get('CLANG', 'clang-16')
    llc = os.environ.get('LLC', 'llc-16')
    gcc = os.environ.get('GCC', 'gcc')
    out = a.out
    os.makedirs(out, exist_ok=True)

    # ---- the programs ----
    progs = []  # (name, source, extra flags)
    if a.seeds != 'none':
        opts, inc = csmith_opts()
        first, last = (int(x) for x in a.seeds.split('-'))
        for seed in range(first, last + 1):
            src = os.path.join(out, 'csmith-%d.c' % seed)
            if not os.path.exists(src):
                subprocess.run(['csmith', '--seed', str(seed)] + opts + ['-o', src],
                               stdout=subprocess.DEVNULL, check=True)
            progs.append(('csmith-%d' % seed, src, ['-w', '-I' + inc]))
    kernels = sorted(f[:-2] for f in os.listdir(QUALITY) if f.endswith('.c') and f != 'driver.c')
    if a.kernels:
        want = a.kernels.split(',')
        kernels = [k for k in kernels if k in want]
    for k in kernels:
        progs.append((k, os.path.join(QUALITY, k + '.c'), ['-w']))

    # ---- bitcode for b3c and llc (made once; not timed) ----
    bitcode = {}
    for name, src, flags in progs:
        for lvl, cflags in (('O0', ['-O0']), ('O2', ['-O2'] + NOVEC),
                            ('O0opt', ['-O0', '-Xclang', '-disable-O0-optnone'])):
            bc = os.path.join(out, '%s.%s.bc' % (name, lvl))
            subprocess.run([clang, '-c', '-emit-llvm'] + cflags + flags + [src, '-o', bc], check=True)
            bitcode[name, lvl] = bc

    def obj(name, tool):
        return os.path.join(out, '%s.%s.o' % (name, tool))

    # The compile-time measurements: (program, tool) -> command.
    tools = ['b3cc-O0', 'clang-O0', 'b3cc-O2', 'clang-O2', 'gcc-O2', 'b3c-O0', 'llc-O0', 'b3c-O2', 'llc-O2']
    cmds = {}
    for name, src, flags in progs:
        cmds[name, 'b3cc-O0'] = [b3cc, '-O0', '-c'] + flags + [src, '-o', obj(name, 'b3cc-O0')]
        cmds[name, 'b3cc-O2'] = [b3cc, '-O2', '-c'] + flags + [src, '-o', obj(name, 'b3cc-O2')]
        cmds[name, 'clang-O0'] = [clang, '-O0', '-c'] + flags + [src, '-o', obj(name, 'clang-O0')]
        cmds[name, 'clang-O2'] = [clang, '-O2', '-c'] + flags + [src, '-o', obj(name, 'clang-O2')]
        cmds[name, 'gcc-O2'] = [gcc, '-O2', '-c'] + flags + [src, '-o', obj(name, 'gcc-O2')]
        cmds[name, 'b3c-O0'] = [b3c, '-O0', bitcode[name, 'O0'], '-o', obj(name, 'b3c-O0')]
        cmds[name, 'llc-O0'] = [llc, '-O0', '-relocation-model=pic', '-filetype=obj', bitcode[name, 'O0'], '-o', obj(name, 'llc-O0')]
        cmds[name, 'b3c-O2'] = [b3c, '-O2', bitcode[name, 'O2'], '-o', obj(name, 'b3c-O2')]
        cmds[name, 'llc-O2'] = [llc, '-O2', '-relocation-model=pic', '-filetype=obj', bitcode[name, 'O2'], '-o', obj(name, 'llc-O2')]

    # ---- the kernels' programs ----
    # Beside the five drivers: the two code generators on the same optimized
    # bitcode (b3c-O2, llc-O2), and B3's own optimizer without LLVM's: clang's
    # -O0 bitcode (optnone off) through b3c -O2, against clang -O1.  These two
    # are built for the run only; their compile time is not measured.
    variants = ['b3cc-O0', 'b3cc-O2', 'clang-O0', 'clang-O2', 'gcc-O2', 'b3c-O2', 'llc-O2', 'b3c-O2-O0bc',
                'clang-O1']
    build_only = {}
    for name, src, flags in progs:
        build_only[name, 'b3c-O2-O0bc'] = [b3c, '-O2', bitcode[name, 'O0opt'], '-o', obj(name, 'b3c-O2-O0bc')]
        build_only[name, 'clang-O1'] = [clang, '-O1', '-c'] + flags + [src, '-o', obj(name, 'clang-O1')]
    exes = {}
    failed = {}  # (program, tool) -> first error line
    run_kernels = [] if a.no_run else kernels
    if run_kernels:
        driver = os.path.join(out, 'driver-c.o')
        subprocess.run([gcc, '-O2', '-std=c11', '-DIMPL_C', '-c', os.path.join(QUALITY, 'driver.c'), '-o', driver],
                       check=True)
        for k in run_kernels:
            for v in variants:
                p = subprocess.run(cmds.get((k, v)) or build_only[k, v], capture_output=True, text=True)
                if p.returncode != 0:
                    failed[k, v] = (p.stderr.strip().split('\n') or [''])[0]
                    continue
                exe = os.path.join(out, '%s.%s' % (k, v))
                subprocess.run([gcc, '-o', exe, driver, obj(k, v), '-lm'], check=True)
                exes[k, v] = exe
        # The checksums must agree (small sizes).
        bad = False
        for k in run_kernels:
            sums = {}
            for v in variants:
                if (k, v) in exes:
                    p = subprocess.run([exes[k, v], k, '--check'], capture_output=True, text=True)
                    m = re.search(r'checksum=(\S+)', p.stdout)
                    sums[v] = m.group(1) if p.returncode == 0 and m else 'exit %d' % p.returncode
            if len(set(sums.values())) > 1:
                print('cprograms: %s: the builds disagree: %s' % (k, sums), file=sys.stderr)
                for v in variants:
                    if sums.get(v) != sums.get('gcc-O2'):
                        exes.pop((k, v), None)
                        failed[k, v] = 'wrong checksum %s' % sums.get(v)
                bad = True

    # ---- interleaved rounds ----
    best = {}
    runs = {}
    for r in range(a.rounds):
        work = [('compile', key) for key in cmds] + [('run', key) for key in exes]
        random.shuffle(work)
        for kind, key in work:
            if key in failed and kind == 'compile' and key[1] in variants:
                continue
            if kind == 'compile':
                t, err = timed(cmds[key], a.clock)
                if t is None:
                    failed.setdefault(key, (err.strip().split('\n') or [''])[0])
                    continue
                best[key] = min(best.get(key, t), t)
            else:
                args = [exes[key], key[0]] + (['--check'] if a.check else [])
                p = subprocess.run(args, capture_output=True, text=True)
                m = re.search(r'%s=([0-9.]+)' % a.clock, p.stdout)
                if p.returncode == 0 and m:
                    t = float(m.group(1))
                    runs[key] = min(runs.get(key, t), t)
        print('cprograms: round %d of %d done' % (r + 1, a.rounds), file=sys.stderr)

    # ---- tables ----
    def b(name, tool):
        return None if (name, tool) in failed else best.get((name, tool))

    print('\nCompile time, ms (%s, min of %d): the whole driver, -c' % (a.clock, a.rounds))
    print('%-14s %9s %9s %7s %9s %9s %9s %7s %7s' % ('program', 'b3cc-O0', 'clang-O0', 'ratio', 'b3cc-O2',
                                                   'clang-O2', 'gcc-O2', 'ratio', 'vs gcc'))
    r0, r2, rg = [], [], []
    for name, _, _ in progs:
        x0, c0, x2, c2, g2 = (b(name, t) for t in ('b3cc-O0', 'clang-O0', 'b3cc-O2', 'clang-O2', 'gcc-O2'))
        print('%-14s %s %s %s %s %s %s %s %s' % (name, fmt(x0), fmt(c0), ratio(x0, c0), fmt(x2), fmt(c2), fmt(g2),
                                                 ratio(x2, c2), ratio(x2, g2)))
        r0.append(x0 / c0 if x0 and c0 else None)
        r2.append(x2 / c2 if x2 and c2 else None)
        rg.append(x2 / g2 if x2 and g2 else None)
    print('%-14s %9s %9s %s %9s %9s %9s %s %s' % ('geomean', '', '', ratio(geomean(r0), 1), '', '', '',
                                                  ratio(geomean(r2), 1), ratio(geomean(rg), 1)))

    print('\nCode generation alone, ms (%s, min of %d): b3c vs llc-16 on the same bitcode' % (a.clock, a.rounds))
    print('%-14s %9s %9s %7s %9s %9s %7s' % ('program', 'b3c-O0', 'llc-O0', 'ratio', 'b3c-O2', 'llc-O2', 'ratio'))
    q0, q2 = [], []
    for name, _, _ in progs:
        x0, l0, x2, l2 = (b(name, t) for t in ('b3c-O0', 'llc-O0', 'b3c-O2', 'llc-O2'))
        print('%-14s %s %s %s %s %s %s' % (name, fmt(x0), fmt(l0), ratio(x0, l0), fmt(x2), fmt(l2), ratio(x2, l2)))
        q0.append(x0 / l0 if x0 and l0 else None)
        q2.append(x2 / l2 if x2 and l2 else None)
    print('%-14s %9s %9s %s %9s %9s %s' % ('geomean', '', '', ratio(geomean(q0), 1), '', '', ratio(geomean(q2), 1)))

    if run_kernels:
        print('\nRun time of the kernels, ms (%s, min of %d), and the ratio to gcc -O2' % (a.clock, a.rounds))
        # The pairs compared side by side: b3cc against clang, b3c against llc
        # on the same bitcode, B3's optimizer on -O0 bitcode against clang -O1.
        pairs = [('b3cc/clang', 'b3cc-O2', 'clang-O2'), ('b3c/llc', 'b3c-O2', 'llc-O2'),
                 ('O0bc/clO1', 'b3c-O2-O0bc', 'clang-O1')]
        print('%-12s' % 'kernel' + ''.join('%12s %6s' % (v, '') for v in variants) +
              ''.join(' %10s' % p[0] for p in pairs))
        rr = {v: [] for v in variants}
        rp = {p[0]: [] for p in pairs}
        for k in run_kernels:
            g = runs.get((k, 'gcc-O2'))
            line = '%-12s' % k
            for v in variants:
                t = runs.get((k, v))
                line += '%s %s' % (fmt(t, width=12), ratio(t, g, 6))
                rr[v].append(t / g if t and g else None)
            for label, x, c in pairs:
                x, c = runs.get((k, x)), runs.get((k, c))
                line += ' %10s' % ratio(x, c, 10).strip()
                rp[label].append(x / c if x and c else None)
            print(line)
        print('%-12s' % 'geomean' + ''.join('%12s %s' % ('', ratio(geomean(rr[v]), 1, 6)) for v in variants) +
              ''.join(' %10s' % ratio(geomean(rp[p[0]]), 1, 10).strip() for p in pairs))

    if failed:
        print('\nNot measured (b3cc or b3c failed, or a wrong checksum):')
        for (name, tool), why in sorted(failed.items()):
            print('  %s %s: %s' % (name, tool, why[:150]))
    print('\ncommands: ' + ' | '.join(shlex.join(cmds[progs[0][0], t]) for t in ('b3cc-O2', 'b3c-O2', 'llc-O2'))
          if progs else '')
    return 1 if run_kernels and bad else 0


if __name__ == '__main__':
    sys.exit(main())
