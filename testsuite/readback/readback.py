#!/usr/bin/env python3
"""Every --emit=b3 output reads back to the same text.

For every .b3 file under the given roots that b3c accepts, at each -O level:
print it (P1), read P1 back and print it again unoptimized (P2); P2 must be
accepted and equal P1.  At -O1/-O2, --emit=b3 prints the IR after the B3
phases, so this also checks that every optimized procedure is valid,
printable B3 in canonical form.  Files b3c rejects (the diagnostics tests, fuzz inputs) are
skipped, but a file that is accepted once must stay accepted.

usage: readback.py B3C ROOT...
"""
import concurrent.futures
import os
import subprocess
import sys
import tempfile

LEVELS = ("-O0", "-O1", "-O2")


def emit(b3c, level, path):
    r = subprocess.run([b3c, level, "--emit=b3", "--name=readback", path, "-o", "-"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return r.returncode, r.stdout, r.stderr


def check(b3c, path):
    problems = []
    accepted = 0
    for level in LEVELS:
        st, p1, _ = emit(b3c, level, path)
        if st != 0:
            continue
        accepted += 1
        with tempfile.NamedTemporaryFile(suffix=".b3", delete=False) as t:
            t.write(p1)
            name = t.name
        try:
            st2, p2, err2 = emit(b3c, "-O0", name)
        finally:
            os.unlink(name)
        if st2 != 0:
            problems.append("%s %s: the printed IR does not read back:\n%s" % (path, level, err2.decode(errors="replace")[:2000]))
        elif p2 != p1:
            problems.append("%s %s: reprinting changes the text" % (path, level))
    return path, accepted, problems


def main():
    b3c, roots = sys.argv[1], sys.argv[2:]
    files = []
    for root in roots:
        for d, _, names in os.walk(root):
            if "Output" in d.split(os.sep):
                continue
            files += [os.path.join(d, n) for n in sorted(names) if n.endswith(".b3")]
    files.sort()
    bad = []
    ok = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        for path, accepted, problems in ex.map(lambda f: check(b3c, f), files):
            ok += accepted > 0
            bad += problems
    for p in bad:
        print("FAIL:", p)
    print("readback: %d files, %d accepted, %d problems" % (len(files), ok, len(bad)))
    sys.exit(1 if bad or ok == 0 else 0)


if __name__ == "__main__":
    main()
