#!/usr/bin/env python3
"""-S on every program of the test suite and the examples.

  programs.py B3C REPO WORKDIR [--target=TRIPLE]

For each .b3 under testsuite/exec/, testsuite/stackmaps/exec-*.b3 and
examples/ that compiles, with the C driver its own RUN lines link it with
(examples/X.b3: examples/X_main.c, or none):

  1. b3c --emit=obj, linked and run: the reference output and exit status;
  2. b3c -S, assembled by `cc -c` (GNU as) and by `llvm-mc -filetype=obj`:
     each object must be equivalent to the reference byte for byte
     (objequiv.py): b3c sizes its jumps as the assemblers relax them (the
     least set of rel32 jumps), so the plain text needs no {disp32}; and
     linked and run it must give the same output and status;
  3. b3c -S --asm-exact -fverbose-asm, assembled by both: the same (the
     comments naming each instruction's B3 value change no byte).

A test whose RUN lines need more than its object (a header smreader.py
writes, another module compiled to an object) gets those lines run against
each object in turn.  Prints one line per program and a summary "asm: N
programs, M failures".

--target=aarch64-linux-gnu: b3c compiles for arm64, the cross gcc assembles
(GNU as) and links, llvm-mc assembles with -triple=aarch64, and the programs
run under qemu-aarch64 (the suite's %cc and %run, see lit.cfg.py).  A test
marked XFAIL or REQUIRES for the other target is left out."""
import concurrent.futures
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def sh(cmd, cwd, timeout=300):
    p = subprocess.run(cmd, shell=isinstance(cmd, str), cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout.decode('latin-1'), p.stderr.decode('latin-1')


class Target:
    def __init__(self, triple):
        self.triple = triple
        self.arch = triple.split('-')[0]
        self.native = self.arch == 'x86_64'
        self.b3c_flags = [] if self.native else ['--target=' + triple]
        self.cc = 'cc' if self.native else triple + '-gcc'
        self.run = [] if self.native else ['qemu-' + self.arch, '-L', '/usr/' + triple]
        self.mc = ['llvm-mc', '-filetype=obj'] + ([] if self.native else ['-triple=' + self.arch])


def excluded(text, target):
    """Does the test say it fails, or cannot run, on this target?"""
    for m in re.finditer(r'^; (XFAIL|REQUIRES|UNSUPPORTED): (.*)$', text, re.M):
        feats = [f.strip() for f in m.group(2).split(',')]
        if m.group(1) == 'REQUIRES':
            if any(f in ('x86_64', 'aarch64') and f != target.arch for f in feats):
                return True
        elif target.arch in feats:
            return True
    return False


def programs(repo, target, b3c):
    """(name, b3 path, [shell lines that turn %t.o into %t.exe]) for each program."""
    out = []
    tests = sorted(glob.glob(os.path.join(repo, 'testsuite/exec/*.b3')) +
                   glob.glob(os.path.join(repo, 'testsuite/stackmaps/exec-*.b3')))
    for path in tests:
        text = open(path).read()
        if excluded(text, target):
            continue
        runs = [m.group(1) for m in re.finditer(r'^; RUN: (.*)$', text, re.M)]
        link, steps = None, []
        for r in runs:
            # The suite's substitutions (lit.cfg.py): the target's cc, and
            # %run, nothing on the host or qemu-user.
            r = r.replace('%cc ', target.cc + ' ').replace('%run ', ' '.join(target.run + ['']))
            if r.startswith('%b3c'):
                if re.search(r' %s( |$)', r):
                    continue  # the program's own object: what is under test
                # Another module it links (exec/calls.b3's per-target one), as an object.
                r = r.replace('%b3c', ' '.join([b3c] + target.b3c_flags)).replace('%target', target.triple)
            steps.append(r)
            if r.startswith(target.cc + ' '):
                link = r
                break
        if not link:
            continue
        d = os.path.dirname(path)
        steps = [s.replace('%S', d) for s in steps]
        out.append((os.path.relpath(path, repo), path, steps))
    for path in sorted(glob.glob(os.path.join(repo, 'examples/*.b3'))):
        main = path[:-3] + '_main.c'
        link = target.cc + ' -O1 -o %t.exe ' + (main + ' ' if os.path.exists(main) else '') + '%t.o -lm'
        out.append((os.path.relpath(path, repo), path, [link]))
    return out


def build_and_run(target, steps, obj, base, cwd):
    """Links obj with the program's steps (%t -> base); returns (status, stdout) or an error string."""
    for s in steps:
        cmd = s.replace('%t.o', obj).replace('%t', base)
        rc, o, e = sh(cmd, cwd)
        if rc:
            return 'link step failed: %s\n%s%s' % (cmd, o, e)
    try:
        rc, o, _ = sh(target.run + [base + '.exe'], cwd, timeout=120)
    except subprocess.TimeoutExpired:
        return 'timed out'
    return (rc, o)


def check(b3c, target, name, path, steps, work):
    stem = re.sub(r'[^A-Za-z0-9]+', '_', name)
    cwd = os.path.join(work, stem)
    os.makedirs(cwd, exist_ok=True)
    ref = os.path.join(cwd, 'ref')
    rc, o, e = sh([b3c] + target.b3c_flags + ['--verify-each', path, '-o', ref + '.o'], cwd)
    if rc == 1:
        return 'SKIP %s (does not compile)' % name
    if rc:
        return 'FAIL %s: b3c --emit=obj: %s' % (name, e)
    want = build_and_run(target, steps, ref + '.o', ref, cwd)
    if isinstance(want, str):
        return 'FAIL %s: reference: %s' % (name, want)
    problems = []
    for mode, flags in (('plain', []), ('exact', ['--asm-exact', '-fverbose-asm'])):
        s = os.path.join(cwd, mode + '.s')
        rc, o, e = sh([b3c] + target.b3c_flags + ['-S'] + flags + [path, '-o', s], cwd)
        if rc:
            problems.append('b3c -S %s: %s' % (' '.join(flags), e))
            continue
        for asm, cmd in (('gas', [target.cc, '-c', s, '-o']), ('mc', target.mc + [s, '-o'])):
            base = os.path.join(cwd, '%s-%s' % (mode, asm))
            rc, o, e = sh(cmd + [base + '.o'], cwd)
            if rc:
                problems.append('%s %s: %s' % (asm, mode, e[:2000]))
                continue
            eq = [sys.executable, os.path.join(HERE, 'objequiv.py')]
            rc, o, e = sh(eq + [ref + '.o', base + '.o'], cwd)
            if rc:
                problems.append('%s %s object differs:\n%s%s' % (asm, mode, o, e))
            if mode == 'plain':
                got = build_and_run(target, steps, base + '.o', base, cwd)
                if got != want:
                    problems.append('%s %s run: %s, expected status %d' %
                                    (asm, mode, got if isinstance(got, str) else 'status %d' % got[0], want[0]))
    if problems:
        return 'FAIL %s:\n  %s' % (name, '\n  '.join(p.replace('\n', '\n  ') for p in problems))
    return 'PASS %s (status %d, %d output lines)' % (name, want[0], want[1].count('\n'))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--target=')]
    triples = [a[len('--target='):] for a in sys.argv[1:] if a.startswith('--target=')]
    target = Target(triples[-1] if triples else 'x86_64-linux-gnu')
    b3c, repo, work = args[:3]
    b3c, repo, work = os.path.abspath(b3c), os.path.abspath(repo), os.path.abspath(work)
    progs = programs(repo, target, b3c)
    def one(p):
        try:
            return check(b3c, target, p[0], p[1], p[2], work)
        except Exception as e:  # a tool missing, a file gone: report it with the program
            return 'FAIL %s: %s: %s' % (p[0], type(e).__name__, e)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as ex:
        results = list(ex.map(one, progs))
    fails = 0
    for r in results:
        print(r)
        fails += r.startswith('FAIL')
    print('asm: %d programs, %d failures' % (sum(not r.startswith('SKIP') for r in results), fails))
    sys.exit(1 if fails else 0)


if __name__ == '__main__':
    main()
