"""Lists RUN lines of execution tests that would not work for another target:
a program linked with plain `cc` instead of `%cc`, or one of the linked
programs started without `%run`.  Usage: runlines.py TESTSUITE-DIR DIR..."""
import os
import re
import sys

CMD = r'(?:RUN:\s*|&&\s*|;\s*|\|\|\s*)(?:not\s+(?:--crash\s+)?)?'
bad = 0
root = sys.argv[1]
for d in sys.argv[2:]:
    for dirpath, dirs, files in os.walk(os.path.join(root, d)):
        dirs[:] = [x for x in dirs if x not in ('Inputs', 'Output', 'failures')]
        for f in sorted(files):
            if not f.endswith(('.b3', '.test')):
                continue
            path = os.path.join(dirpath, f)
            runs = [l for l in open(path, errors='replace') if 'RUN:' in l]
            exes = set()
            for l in runs:
                for m in re.finditer(r'%cc\s([^&;|]*)', l):
                    args = m.group(1).split()
                    if '-o' in args and '-c' not in args:
                        exes.add(args[args.index('-o') + 1])
            for l in runs:
                why = None
                if re.search(CMD + r'cc\s', l):
                    why = 'links with cc, not %cc'
                for e in exes:
                    if re.search(CMD + re.escape(e) + r'(?=\s|$|\')', l):
                        why = 'runs %s without %%run' % e
                if why:
                    bad += 1
                    print('%s: %s: %s' % (os.path.relpath(path, root), why, l.strip()))
print('%d bad RUN lines' % bad)
