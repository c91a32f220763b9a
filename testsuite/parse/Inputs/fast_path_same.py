#!/usr/bin/env python3
"""The parser's fast path for plain value lines (parser/parser.y, fast_lines)
changes nothing: every .b3 file under the given roots and every file of the
fuzz corpora, read with and without it (--no-fast-parse), gives the same
--emit=b3 output, the same diagnostics and the same exit status.

    fast_path_same.py B3C ROOT...
"""
import os
import subprocess
import sys


def run(b3c, path, extra):
    p = subprocess.run([b3c, "-O0", "--emit=b3", "-o", "-", path] + extra, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    return p.returncode, p.stdout, p.stderr


def main():
    b3c, roots = sys.argv[1], sys.argv[2:]
    files = []
    for root in roots:
        for d, _, names in os.walk(root):
            if os.sep + "build" in d or os.sep + "out" in d:
                continue
            for n in sorted(names):
                full = os.path.join(d, n)
                if n.endswith(".b3") or os.sep + "corpus" in d:
                    files.append(full)
    same = differ = 0
    for f in sorted(files):
        if run(b3c, f, []) == run(b3c, f, ["--no-fast-parse"]):
            same += 1
        else:
            differ += 1
            print("DIFFER %s" % f)
    print("%d files, %d same, %d differ" % (same + differ, same, differ))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
