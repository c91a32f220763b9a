#!/usr/bin/env python3
"""Random Patchpoint/Check register constraints against b3c.

Every input must either compile (exit 0) or be refused as bad input (exit 1,
a FILE:LINE:COL error); exit 3 (an internal error) or a crash is a finding.
Usage: scripts/stackmap-constraint-sweep.py [N] [SEED]  (b3c at ./b3c)
Prints the findings and a count per target and exit status."""
import os, random, subprocess, sys, tempfile, collections

B3C = os.environ.get('B3C', os.path.join(os.path.dirname(__file__), '..', 'b3c'))
TARGETS = {
    'x86_64-linux-gnu': (['rax', 'rbx', 'rcx', 'rdx', 'rsi', 'rdi', 'r8', 'r9', 'r10', 'r11', 'r12', 'r13',
                          'r14', 'r15', 'rbp', 'rsp'], ['xmm%d' % i for i in range(16)]),
    'aarch64-linux-gnu': (['x%d' % i for i in range(29)] + ['fp', 'lr', 'sp'], ['q%d' % i for i in range(32)]),
    'arm64-apple-macos': (['x%d' % i for i in range(29)] + ['fp', 'lr', 'sp'], ['q%d' % i for i in range(32)]),
}
KIDS = ['SomeRegister', 'SomeLateRegister', 'WarmAny', 'ColdAny', 'LateColdAny', 'SomeRegisterWithClobber',
        'Register', 'LateRegister', 'Register', 'LateRegister']
RESULTS = ['SomeRegister', 'SomeEarlyRegister', 'SomeLateRegister', 'Register', 'WarmAny', None]


def program(rng, gprs, fprs):
    lines = ['extern @h', 'proc @f {', 'BB#0:']
    vals = []
    n = 0
    for i in range(rng.randint(1, 6)):
        lines.append('    Int64 @%d = ArgumentReg(%%argumentGPR%d)' % (n, i))
        vals.append((n, 'Int64')); n += 1
    for i in range(rng.randint(0, 3)):
        lines.append('    Double @%d = ArgumentReg(%%argumentFPR%d)' % (n, i))
        vals.append((n, 'Double')); n += 1
    for i in range(rng.randint(0, 20)):
        src, ty = rng.choice(vals)
        lines.append('    %s @%d = Add(@%d, @%d)' % (ty, n, src, src))
        vals.append((n, ty)); n += 1
    kids = []
    for i in range(rng.randint(0, 24)):
        v, ty = rng.choice(vals)
        k = rng.choice(KIDS)
        bank = fprs if ty == 'Double' else gprs
        if 'Register' in k and not k.startswith('Some'):
            k += '(%%%s)' % rng.choice(bank if rng.random() < 0.9 else gprs + fprs)
        kids.append('@%d:%s' % (v, k))
    meta = []
    gen = rng.choice(['nop(0)', 'nop(0)', '@h'])
    meta.append('generator = ' + gen)
    for which in ('earlyClobbered', 'lateClobbered'):
        if rng.random() < 0.5:
            regs = rng.sample(gprs, rng.randint(0, len(gprs))) + rng.sample(fprs, rng.randint(0, 3))
            meta.append('%s = [%s]' % (which, ', '.join('%' + r for r in regs)))
    rty = rng.choice(['Int64', 'Int64', 'Double', 'Void'])
    res = rng.choice(RESULTS) if rty != 'Void' else None
    if res:
        if res == 'Register':
            res += '(%%%s)' % rng.choice(fprs if rty == 'Double' else gprs)
        meta.append('resultConstraints = ' + res)
    lines.append('    %s @%d = Patchpoint(%s)' % (rty, n, ', '.join(kids + meta)))
    lines.append('    Void @%d = Return()' % (n + 1))
    lines.append('}')
    return '\n'.join(lines) + '\n'


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    stats = collections.Counter()
    findings = 0
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'p.b3')
        for i in range(count):
            target = rng.choice(list(TARGETS))
            text = program(rng, *TARGETS[target])
            with open(path, 'w') as f:
                f.write(text)
            for level in ('-O0', '-O2'):
                r = subprocess.run([B3C, '--target=' + target, level, path, '-o', os.path.join(d, 'p.o')],
                                   capture_output=True, text=True)
                stats[(target, r.returncode)] += 1
                if r.returncode not in (0, 1) or (r.returncode == 1 and ': error: ' not in r.stderr):
                    findings += 1
                    print('--- %s %s exit %d\n%s%s' % (target, level, r.returncode, text, r.stderr[:2000]))
                    break
    for k in sorted(stats):
        print('%s exit %d: %d' % (k[0], k[1], stats[k]))
    print('%d findings' % findings)
    return 1 if findings else 0


if __name__ == '__main__':
    sys.exit(main())
