"""Runs a command with stderr on a pseudo-terminal, once per environment
given, and prints for each "colour" if what it wrote there holds an escape
sequence, else "plain".  One process for all runs, to keep the test fast.
Usage: on-tty.py 'VAR=V VAR=V|VAR=V|...' COMMAND ARGS...
(each |-separated set is added to a bare environment with PATH; a set may
hold extra arguments for COMMAND as +ARG)."""
import os
import pty
import subprocess
import sys


def run(env, argv):
    master, slave = pty.openpty()
    subprocess.run(argv, stderr=slave, stdout=subprocess.DEVNULL, env=env)
    os.close(slave)
    out = b''
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO once the writer is gone
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    return 'colour' if b'\x1b[' in out else 'plain'


for spec in sys.argv[1].split('|'):
    env = {'PATH': os.environ.get('PATH', '')}
    extra = []
    for word in spec.split():
        if word.startswith('+'):
            extra.append(word[1:])
        else:
            k, _, v = word.partition('=')
            env[k] = v
    print(spec + ': ' + run(env, sys.argv[2:3] + extra + sys.argv[3:]))
