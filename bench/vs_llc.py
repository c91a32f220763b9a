#!/usr/bin/env python3
"""b3c -O0 against llc-16 -O0 on the same program (bench/vs_llc.sh).

    python3 bench/vs_llc.py [--values N] [--rounds K] [--b3c PATH] [--llc PATH]

A bench/gen.py module of about N values (default 250,000) is written once as
B3 (.b3) and, by bench/gen_ll.py, as LLVM IR (.ll), both cached in
bench/out/vs_llc/.  Each round compiles it to an object file once with each
of:

  b3c -O0 .b3     the B3 text
  b3c -O2 .b3
  b3c -O0 .ll     the same program through the LLVM-IR importer
  llc -O0 .ll     llc-16 -O0 -relocation-model=pic -filetype=obj (position-
                  independent, as b3c's objects and clang's are)

in turn (interleaved rounds, so that a change in the machine's load hits
every row alike).  The table gives per row the CPU time (user + system) best
and median over the rounds, peak RSS in bytes per value, and the input's
size and MB/s; "user" is the best user time alone (the system time of a
b3c run swings from 0.01 to 0.2 s with the kernel's work to find huge pages
for the arena); then the ratios of the best times: llc -O0 / b3c -O0, b3c -O2
/ b3c -O0, b3c -O0 on .ll / on .b3.  CPU rather than wall time: the machine
is shared, and every compiler here is single-threaded.
"""

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "out", "vs_llc")


def inputs(values):
    """Generates (once) the .b3 and .ll of a module; returns their paths and value count."""
    os.makedirs(OUT, exist_ok=True)
    b3 = os.path.join(OUT, "gen-%d.b3" % values)
    ll = os.path.join(OUT, "gen-%d.ll" % values)
    srcs = [os.path.join(ROOT, "bench", s) for s in ("gen.py", "gen_ll.py")]
    newest = max(os.path.getmtime(s) for s in srcs)
    if not os.path.exists(b3) or os.path.getmtime(b3) < newest:
        subprocess.run([sys.executable, srcs[0], "--values", str(values), "-o", b3 + ".tmp"], check=True,
                       stderr=subprocess.DEVNULL)
        os.replace(b3 + ".tmp.meta", b3 + ".meta")
        os.replace(b3 + ".tmp", b3)
    if not os.path.exists(ll) or os.path.getmtime(ll) < os.path.getmtime(b3):
        subprocess.run([sys.executable, srcs[1], b3, "-o", ll + ".tmp"], check=True)
        os.replace(ll + ".tmp", ll)
    with open(b3 + ".meta") as f:
        n = int(re.search(r"values=(\d+)", f.read()).group(1))
    return b3, ll, n


def run(cmd):
    """CPU seconds (user + system), user seconds and peak RSS in bytes of one run of cmd."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    if status:
        sys.exit("vs_llc: %s failed:\n%s" % (" ".join(cmd), err))
    return ru.ru_utime + ru.ru_stime, ru.ru_utime, ru.ru_maxrss * 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--values", type=int, default=250000, help="module size (default 250000)")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    ap.add_argument("--b3c", default=os.path.join(ROOT, "b3c"))
    ap.add_argument("--llc", default="llc-16")
    args = ap.parse_args()

    b3, ll, n = inputs(args.values)
    obj = os.path.join(OUT, "out.o")
    rows = [
        ("b3c -O0 .b3", [args.b3c, "-O0", b3, "-o", obj], b3),
        ("b3c -O2 .b3", [args.b3c, "-O2", b3, "-o", obj], b3),
        ("b3c -O0 .ll", [args.b3c, "-O0", ll, "-o", obj], ll),
        ("llc -O0 .ll", [args.llc, "-O0", "-relocation-model=pic", "-filetype=obj", ll, "-o", obj], ll),
    ]
    times = {r[0]: [] for r in rows}
    user = {r[0]: [] for r in rows}
    rss = {r[0]: 0 for r in rows}
    for _ in range(args.rounds):
        for name, cmd, _ in rows:
            t, u, m = run(cmd)
            times[name].append(t)
            user[name].append(u)
            rss[name] = max(rss[name], m)
    print("%d values; %d interleaved rounds; CPU seconds (user + system)" % (n, args.rounds))
    print("%-12s %8s %8s %9s %10s %9s %8s" % ("", "best", "median", "user", "bytes/val", "input MB", "MB/s"))
    best = {}
    for name, _, src in rows:
        best[name] = min(times[name])
        mb = os.path.getsize(src) / 1e6
        print("%-12s %8.3f %8.3f %9.3f %10.0f %9.1f %8.1f" % (name, best[name], statistics.median(times[name]),
                                                              min(user[name]), rss[name] / n, mb, mb / best[name]))
    b0 = best["b3c -O0 .b3"]
    print("llc -O0 / b3c -O0:      %.2fx" % (best["llc -O0 .ll"] / b0))
    print("b3c -O2 / b3c -O0:      %.2fx" % (best["b3c -O2 .b3"] / b0))
    print("b3c -O0 .ll / .b3:      %.2fx" % (best["b3c -O0 .ll"] / b0))
    print("llc -O0 / b3c -O0 .ll:  %.2fx" % (best["llc -O0 .ll"] / best["b3c -O0 .ll"]))
    u = {k: min(v) for k, v in user.items()}
    print("user time alone: llc -O0 / b3c -O0 %.2fx, b3c -O2 / b3c -O0 %.2fx" %
          (u["llc -O0 .ll"] / u["b3c -O0 .b3"], u["b3c -O2 .b3"] / u["b3c -O0 .b3"]))


if __name__ == "__main__":
    main()
