#!/usr/bin/env python3
"""Compares the encoder test's bytes and relocations with llvm-mc's.

    compare.py CASES.s CASES.expected WORKDIR [--triple=T] [--mattr=A] [--rejects=R.s]

Assembles CASES.s (one "cN:" label per case) with llvm-mc into an object,
splits its .text at the case labels and compares every case's bytes and
relocations with CASES.expected (written by encoder_test).  Relocations
against the cases' own unbound labels (cN_L*) are jumps to blocks the case
left unbound: llvm-mc relocates them, b3c leaves a zero rel32; both have
zero bytes there, so those are ignored.  Exits 1 on any difference.

--triple picks the target (default x86_64), --mattr its features.  With
--rejects, every line of R.s (an instruction the encoder refused, such as an
immediate it cannot encode) must make llvm-mc report an error too."""
import bisect
import os
import re
import subprocess
import sys


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        sys.stderr.write("command failed: %s\n%s" % (" ".join(cmd), p.stderr))
        sys.exit(1)
    return p.stdout


def check_rejects(mc, path):
    """Returns the number of lines of path llvm-mc accepted (0: it refused every one)."""
    with open(path) as f:
        lines = [i + 1 for i, line in enumerate(f) if line.strip()]
    p = subprocess.run(mc + ["-filetype=obj", "-o", os.devnull, path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    refused = set(int(m.group(1)) for m in re.finditer(r"^[^\n]*?:(\d+):\d+: error:", p.stderr, re.M))
    accepted = [n for n in lines if n not in refused]
    with open(path) as f:
        text = f.read().splitlines()
    for n in accepted[:20]:
        print("ACCEPTED by llvm-mc, refused by the encoder: line %d: %s" % (n, text[n - 1].strip()))
    print("rejects: %d lines, %d accepted by llvm-mc" % (len(lines), len(accepted)))
    return len(accepted)


def main():
    s_path, exp_path, work = sys.argv[1:4]
    opts = dict(a[2:].split("=", 1) for a in sys.argv[4:])
    mc = ["llvm-mc", "-triple=" + opts.get("triple", "x86_64")]
    if "mattr" in opts:
        mc.append("-mattr=" + opts["mattr"])
    bad_rejects = check_rejects(mc, opts["rejects"]) if "rejects" in opts else 0
    obj = os.path.join(work, "cases.o")
    text_bin = os.path.join(work, "cases.text")
    run(mc + ["-filetype=obj", "-o", obj, s_path])
    run(["llvm-objcopy", "-O", "binary", "--only-section=.text", obj, text_bin])
    with open(text_bin, "rb") as f:
        text = f.read()

    starts = {}
    for line in run(["llvm-nm", "--defined-only", obj]).splitlines():
        parts = line.split()
        if len(parts) == 3 and re.fullmatch(r"c\d+", parts[2]):
            starts[int(parts[2][1:])] = int(parts[0], 16)

    llvm_relocs = []
    for line in run(["llvm-readobj", "-r", obj]).splitlines():
        m = re.match(r"\s*0x([0-9A-Fa-f]+) (R_\w+) (\S+) 0x([0-9A-Fa-f]+)", line)
        if m:
            addend = int(m.group(4), 16)
            if addend >= 1 << 63:
                addend -= 1 << 64
            llvm_relocs.append((int(m.group(1), 16), m.group(2), m.group(3), addend))

    expected = {}
    our_relocs = {}
    with open(exp_path) as f:
        for line in f:
            parts = line.split()
            if parts[0] == "case":
                expected[int(parts[1])] = b"" if parts[2] == "-" else bytes.fromhex(parts[2])
            elif parts[0] == "reloc":
                our_relocs.setdefault(int(parts[1]), []).append(
                    (int(parts[2]), parts[3], parts[4], int(parts[5])))

    # The listing of each case, for the failure report.
    listing = {}
    cur = None
    with open(s_path) as f:
        for line in f:
            m = re.match(r"# case (\d+):", line)
            if m:
                cur = int(m.group(1))
                listing[cur] = []
            if cur is not None:
                listing[cur].append(line.rstrip("\n"))

    order = sorted(expected)
    bounds = {}
    for i, n in enumerate(order):
        if n not in starts:
            print("case %d: no label in the object" % n)
            sys.exit(1)
        end = starts[order[i + 1]] if i + 1 < len(order) else len(text)
        bounds[n] = (starts[n], end)

    # Each relocation belongs to the last non-empty case starting at or before it.
    nonempty = [n for n in order if bounds[n][1] > bounds[n][0]]
    nonempty_starts = [bounds[n][0] for n in nonempty]
    theirs = {}
    for off, typ, sym, addend in llvm_relocs:
        if re.fullmatch(r"c\d+_L\d+", sym):
            continue
        n = nonempty[bisect.bisect_right(nonempty_starts, off) - 1]
        theirs.setdefault(n, []).append((off - bounds[n][0], typ, sym, addend))

    bad = 0
    for n in order:
        lo, hi = bounds[n]
        got, want = expected[n], text[lo:hi]
        r_ours, r_theirs = sorted(our_relocs.get(n, [])), sorted(theirs.get(n, []))
        if got != want or r_ours != r_theirs:
            bad += 1
            if bad <= 40:
                print("MISMATCH " + "\n  ".join(listing.get(n, ["case %d" % n])))
                print("  b3c:     %s %s" % (got.hex(), r_ours))
                print("  llvm-mc: %s %s" % (want.hex(), r_theirs))
    nbytes = sum(len(v) for v in expected.values())
    nrel = sum(len(v) for v in our_relocs.values())
    print("encoder: %d cases, %d bytes, %d relocations compared with llvm-mc; %d mismatches"
          % (len(order), nbytes, nrel, bad))
    sys.exit(1 if bad or bad_rejects else 0)


if __name__ == "__main__":
    main()
