"""Prints the option names `b3c --help` lists, one per line: the first column
of each option line ("  -O0, -O1, -O2   ..."), each name without its value
("--emit=obj|asm|b3|air" is --emit, "-mattr=+lse" is -mattr).  The man
page writes @FILE as @file: compare without case."""
import re
import subprocess
import sys

text = subprocess.run([sys.argv[1], '--help'], capture_output=True, text=True, check=True).stdout
names = []
for line in text.split('\n'):
    m = re.match(r'  ([-@]\S.*?)(?:  |$)', line)
    if not m:
        continue
    for item in m.group(1).split(', '):
        name = re.split(r'[= ]', item.strip())[0]
        if name[:1] in '-@' and name not in names:
            names.append(name)
print('\n'.join(names))
