#!/usr/bin/env python3
"""The generated program's run time: b3c's code against llc-16's (bench/gen_run.sh).

    python3 bench/gen_run.py [--values N] [--reps R] [--rounds K] [--callgrind]

A bench/gen.py module of about N values (default 271,000) with every loop
cut to fewer than 4 trips (gen.py --trips 4, so that running it takes time
in proportion to its size), and the same program as LLVM IR
(bench/gen_ll.py), both cached in bench/out/gen_run/.  It is compiled four
ways:

  b3c -O0, b3c -O2      from the .b3
  llc -O0, llc -O2      llc-16 -relocation-model=pic -filetype=obj on the .ll

and each object is linked with one driver (written here, built by gcc -O2)
that calls every procedure of the module R times with fixed arguments and
defines the externs the module calls (@bench_ext, @bench_extd).  The runs
are interleaved over K rounds and the best CPU time (user + system) is kept;
the table gives it with the ratios b3c / llc at each level.  --callgrind
adds each build's instruction count for one run of R / 10 repetitions
(valgrind's counts are stable where the machine's times are not).

The programs compute with the data's and the buffer's addresses (a random
module treats them as integers), so the four builds' printed checksums
differ, and the runs use `setarch -R` so that each build does the same
work in every round.  Not a timed test: a script to run by hand.
"""

import argparse
import os
import re
import resource
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "out", "gen_run")

DRIVER = r"""#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int64_t bench_ext(int64_t a, int64_t b) { return a ^ (b >> 3); }
double bench_extd(double d) { return d * 0.5 + 1.0; }
%(decls)s
typedef int64_t (*Proc)(void *, int64_t, int64_t, double, double);
static Proc const procs[] = {%(names)s};
/* Loads and stores reach at most 4088 + 4088 bytes past the buffer's start. */
static _Alignas(16) unsigned char mem[16384];

int main(int argc, char **argv) {
    long reps = argc > 1 ? atol(argv[1]) : 1;
    uint64_t sum = 0;
    for (long r = 0; r < reps; r++)
        for (unsigned k = 0; k < sizeof procs / sizeof procs[0]; k++)
            sum = sum * 31 + (uint64_t)procs[k](mem, 3 + r %% 5, 7, 0.25, 1.5);
    for (unsigned i = 0; i < sizeof mem; i++)
        sum += mem[i] * (i + 1);
    printf("%%llu\n", (unsigned long long)sum);
    return 0;
}
"""


def inputs(values):
    """Generates (once) the .b3, .ll and driver of a module; returns their paths."""
    os.makedirs(OUT, exist_ok=True)
    b3 = os.path.join(OUT, "gen-%d.b3" % values)
    ll = os.path.join(OUT, "gen-%d.ll" % values)
    drv = os.path.join(OUT, "driver-%d.c" % values)
    srcs = [os.path.join(ROOT, "bench", s) for s in ("gen.py", "gen_ll.py")] + [os.path.abspath(__file__)]
    newest = max(os.path.getmtime(s) for s in srcs)
    if not os.path.exists(b3) or os.path.getmtime(b3) < newest:
        subprocess.run([sys.executable, srcs[0], "--values", str(values), "--trips", "4", "-o", b3 + ".tmp"],
                       check=True, stderr=subprocess.DEVNULL)
        os.replace(b3 + ".tmp.meta", b3 + ".meta")
        os.replace(b3 + ".tmp", b3)
    if not os.path.exists(ll) or os.path.getmtime(ll) < os.path.getmtime(b3):
        subprocess.run([sys.executable, srcs[1], b3, "-o", ll + ".tmp"], check=True)
        os.replace(ll + ".tmp", ll)
    with open(b3) as f:
        procs = re.findall(r"^proc @(bench_\d+)", f.read(), re.M)
    with open(drv, "w") as f:
        f.write(DRIVER % {"decls": "".join("int64_t %s(void *, int64_t, int64_t, double, double);\n" % p
                                           for p in procs),
                          "names": ", ".join(procs)})
    return b3, ll, drv


def cpu_time(cmd):
    """CPU seconds (user + system) of one run of cmd, which must succeed."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--values", type=int, default=271000, help="module size (default 271000)")
    ap.add_argument("--reps", type=int, default=2000, help="calls of every procedure per run (default 2000)")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    ap.add_argument("--callgrind", action="store_true", help="also count instructions with valgrind")
    ap.add_argument("--b3c", default=os.path.join(ROOT, "b3c"))
    ap.add_argument("--llc", default="llc-16")
    args = ap.parse_args()

    b3, ll, drv = inputs(args.values)
    driver_o = os.path.join(OUT, "driver.o")
    subprocess.run(["gcc", "-O2", "-std=c11", "-c", drv, "-o", driver_o], check=True)
    builds = [
        ("b3c -O0", [args.b3c, "-O0", b3]),
        ("b3c -O2", [args.b3c, "-O2", b3]),
        ("llc -O0", [args.llc, "-O0", "-relocation-model=pic", "-filetype=obj", ll]),
        ("llc -O2", [args.llc, "-O2", "-relocation-model=pic", "-filetype=obj", ll]),
    ]
    exes = {}
    for name, cmd in builds:
        tag = name.replace(" -", "")
        obj, exe = os.path.join(OUT, tag + ".o"), os.path.join(OUT, tag)
        subprocess.run(cmd + ["-o", obj], check=True)
        subprocess.run(["gcc", "-o", exe, driver_o, obj, "-lm"], check=True)
        exes[name] = exe
    best = {}
    for r in range(args.rounds):
        for name, _ in builds:
            t = cpu_time(["setarch", "-R", exes[name], str(args.reps)])
            best[name] = min(best.get(name, t), t)
        print("gen_run: round %d of %d done" % (r + 1, args.rounds), file=sys.stderr)
    counts = {}
    if args.callgrind:
        for name, _ in builds:
            p = subprocess.run(["setarch", "-R", "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                                exes[name], str(max(1, args.reps // 10))], capture_output=True, text=True)
            m = re.search(r"refs:\s+([\d,]+)", p.stderr)
            counts[name] = int(m.group(1).replace(",", "")) if m else None
    with open(b3 + ".meta") as f:
        n = int(re.search(r"values=(\d+)", f.read()).group(1))
    print("%d values, every procedure called %d times a run; best CPU seconds of %d interleaved rounds"
          % (n, args.reps, args.rounds))
    print("%-8s %9s %14s" % ("", "seconds", "instructions" if counts else ""))
    for name, _ in builds:
        c = counts.get(name)
        print("%-8s %9.3f %14s" % (name, best[name], "{:,}".format(c) if c else ""))
    for lvl in ("-O0", "-O2"):
        line = "b3c / llc %s: %.3fx time" % (lvl, best["b3c " + lvl] / best["llc " + lvl])
        if counts.get("b3c " + lvl) and counts.get("llc " + lvl):
            line += ", %.3fx instructions" % (counts["b3c " + lvl] / counts["llc " + lvl])
        print(line)


if __name__ == "__main__":
    main()
