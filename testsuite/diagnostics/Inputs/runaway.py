#!/usr/bin/env python3
"""Writes a pathological .b3 input to stdout, for the runaway-diagnostics tests.

    runaway.py KIND [N]

Each kind is bad input that once made b3c print without bound or take time
out of proportion to the input's size (see testsuite/diagnostics/runaway-*).
"""
import sys


def main():
    kind = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    out = sys.stdout.buffer
    if kind == "block-headers":  # N redefinitions of BB#0 on one line: an error and a note each
        out.write(b"proc @f {\n" + b"BB#0: " * n + b"\n}\n")
    elif kind == "unterminated-string":  # a string running to the end of the file, N bytes long, no newline
        out.write(b'data @d { Bytes "' + b"a" * n)
    elif kind == "bad-lines":  # N lines, each an unknown opcode
        out.write(b"proc @f {\nBB#0:\n")
        for i in range(n):
            out.write(b"    Int32 @%d = Frobnicate()\n" % i)
        out.write(b"}\n")
    elif kind == "bad-types":  # N values that parse but do not validate
        out.write(b"proc @f {\nBB#0:\n    Int64 @0 = Const64(1)\n")
        for i in range(1, n + 1):
            out.write(b"    Int32 @%d = Add(@0, @0)\n" % i)
        out.write(b"    Void @%d = Return()\n}\n" % (n + 1))
    elif kind == "unwritten-phis":  # N Phis no Upsilon writes: N warnings, valid input
        out.write(b"proc @f {\nBB#0:\n")
        for i in range(n):
            out.write(b"    Int32 @%d = Phi()\n" % i)
        out.write(b"    Void @%d = Return()\n}\n" % n)
    elif kind == "long-number":  # a value number of N digits inside a long line
        out.write(b"proc @f {\nBB#0:\n    Void @" + b"9" * n + b" = Return()\n}\n")
    elif kind == "mid-line":
        # An error in the middle of a long line, after UTF-8 text and a tab:
        # the window has "..." on both sides and the caret stays under the '?'.
        out.write(b'data @d { Bytes "' + "\u00e9".encode() * 100 + b'",\t? "' + b"x" * 300 + b'" }\n')
    else:
        sys.exit("runaway.py: unknown kind " + kind)


main()
