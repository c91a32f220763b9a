#!/usr/bin/env python3
"""Compile-speed and memory benchmark of b3c's optimizer (bench/compile.sh).

    python3 bench/compile.py [--quick] [--runs K] [--timeout S] [--b3c PATH]
                             [--passes] [CASE...]

Each case is compiled to an object file at -O0, -O1 and -O2 with
--time-passes, at size n and 2n.  The table gives, per case and size:
values; CPU seconds (user + system) per level, best of K runs; the ratios
O1/O0 and O2/O0; the -O2 wall time; peak RSS in bytes per value (the
largest of the three levels); the "doubling" column, CPU time at 2n / at n
per level (about 2 for a linear compile, 4 for a quadratic one; noisy below
~0.05 s); and the slowest phase of the slowest level, with its share.
CPU rather than wall time: on a shared machine wall time measures the other
processes too; b3c is single-threaded, so on an idle machine they agree.
The goals (the optimizer issue) are checked on the large module: O2/O0 <=
1.5, O1/O0 <= 1.3, <= 300 bytes/value.

Cases (inputs from bench/gen.py and bench/scaling_gen.py, deterministic,
cached in bench/out/compile/):

  module    a generated module (bench/gen.py), 500,000 and 1,000,000 values
  chain     one straight-line block of 20,000 and 40,000 values
  blocks    a procedure of 10,000 and 20,000 blocks
  ifchain   a 5,000- and 10,000-case switch written as a branch chain
  switch    one Switch of 5,000 and 10,000 cases
  loopnest  a loop nest 200 and 400 deep (Air register allocation's known
            quadratic case: reported, not a goal)

--passes also prints the -O0/-O1/-O2 --time-passes reports of the largest
module.  --quick halves every size (no goal check).
"""

import argparse
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "out", "compile")
LEVELS = ("-O0", "-O1", "-O2")

# name: (generator, base n, description)
CASES = {
    "module": ("gen", 500000),
    "chain": ("chain", 10000),
    "blocks": ("blocks", 10000),
    "ifchain": ("ifchain", 5000),
    "switch": ("switch", 5000),
    "loopnest": ("loopnest", 200),
}
DEFAULT = ("module", "chain", "blocks", "ifchain", "switch", "loopnest")

VALUE_LINE = re.compile(rb"^\s*\w+ @\d+ = ", re.M)


def module(case, n):
    """Generates (once) the input of case at size n; returns (path, values)."""
    gen, _ = CASES[case]
    path = os.path.join(OUT, f"{case}-{n}.b3")
    srcs = [os.path.join(ROOT, "bench", g) for g in ("gen.py", "scaling_gen.py")]
    stale = not os.path.exists(path) or any(os.path.getmtime(s) > os.path.getmtime(path) for s in srcs)
    if stale:
        tmp = path + ".tmp"
        if gen == "gen":
            cmd = [sys.executable, srcs[0], "--values", str(n), "-o", tmp]
        else:
            cmd = [sys.executable, srcs[1], gen, str(n), "-o", tmp]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if os.path.exists(tmp + ".meta"):
            os.remove(tmp + ".meta")
        os.replace(tmp, path)
    with open(path, "rb") as f:
        values = len(VALUE_LINE.findall(f.read()))
    return path, values


def parse_passes(text):
    phases = {}
    for line in text.splitlines():
        m = re.match(r"\s+(\S+)\s+([0-9.]+)\s+[0-9.]+%$", line)
        if m and m.group(1) != "total":
            phases[m.group(1)] = float(m.group(2))
    return phases


def compile_once(b3c, level, path, timeout):
    """Returns (wall s, peak RSS bytes, phases, --time-passes text, CPU s) or None."""
    obj = os.path.join(OUT, "out.o")
    errf = os.path.join(OUT, "stderr.txt")
    # Peak RSS from /usr/bin/time: a child spawned straight from Python
    # would report Python's own high-water mark (Linux keeps it across exec).
    rssf = os.path.join(OUT, "rss.txt")
    acts = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_OPEN, 2, errf, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)]
    t0 = time.monotonic()
    pid = os.posix_spawn("/usr/bin/time", ["/usr/bin/time", "-f", "%M", "-o", rssf, b3c, level, "--time-passes", path, "-o", obj], os.environ, file_actions=acts)
    while True:
        got, status, ru = os.wait4(pid, os.WNOHANG)
        if got:
            break
        if time.monotonic() - t0 > timeout:
            os.kill(pid, 9)
            os.wait4(pid, 0)
            return None
        time.sleep(0.002)
    wall = time.monotonic() - t0
    with open(errf, errors="replace") as f:
        text = f.read()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.stderr.write(f"compile: {b3c} {level} {path} failed:\n{text[:2000]}\n")
        return None
    with open(rssf) as f:
        kb = f.read().split()[-1]
    # wait4's rusage of /usr/bin/time includes the b3c it waited for, in
    # microseconds (time's own %U/%S are rounded to 10 ms).
    cpu = ru.ru_utime + ru.ru_stime
    return wall, int(kb) * 1024, parse_passes(text), text, cpu


def measure(b3c, level, path, runs, timeout):
    best = None
    for _ in range(runs):
        r = compile_once(b3c, level, path, timeout)
        if r is None:
            return None
        if best is None:
            best = r
        else:
            best = (min(best[0], r[0]), max(best[1], r[1])) + ((r[2], r[3]) if r[0] < best[0] else best[2:4]) \
                + (min(best[4], r[4]),)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", nargs="*")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--runs", type=int, default=3, help="best of K runs (the module: 1)")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--b3c", default=os.environ.get("B3C", os.path.join(ROOT, "b3c")))
    ap.add_argument("--passes", action="store_true")
    args = ap.parse_args()
    cases = args.cases or list(DEFAULT)
    for c in cases:
        if c not in CASES:
            ap.error(f"unknown case '{c}' (one of {', '.join(CASES)})")
    os.makedirs(OUT, exist_ok=True)

    print(f"b3c compile benchmark ({args.b3c}; CPU s (user + system), best of {args.runs} (module: 1); "
          f"doubling = CPU at 2n / at n)")
    hdr = f"{'case':<9} {'values':>9} {'-O0 s':>7} {'-O1 s':>7} {'-O2 s':>7} {'O1/O0':>6} {'O2/O0':>6} {'wall O2':>7} " \
          f"{'B/value':>8} {'doubling O0/O1/O2':>17}  slowest phase (level)"
    print(hdr)
    goals = []
    reports = {}
    for case in cases:
        n0 = CASES[case][1] // (2 if args.quick else 1)
        prev = None
        for n in (n0, 2 * n0):
            path, values = module(case, n)
            res = {}
            for lv in LEVELS:
                res[lv] = measure(args.b3c, lv, path, 1 if case == "module" else args.runs, args.timeout)
                if res[lv] is None:
                    break
            if any(res.get(lv) is None for lv in LEVELS):
                print(f"{case:<9} {values:>9}  failed or timed out (limit {args.timeout:.0f} s)")
                break
            wall = {lv: res[lv][0] for lv in LEVELS}
            t = {lv: max(res[lv][4], 1e-4) for lv in LEVELS}
            bpv = max(res[lv][1] for lv in LEVELS) / max(values, 1)
            worst = max(LEVELS, key=lambda lv: t[lv])
            ph = res[worst][2]
            tot = sum(ph.values()) or 1
            slow = max(ph, key=ph.get) if ph else "-"
            dbl = "/".join(f"{t[lv] / prev[lv]:.2f}" for lv in LEVELS) if prev else "-"
            r1, r2 = t["-O1"] / t["-O0"], t["-O2"] / t["-O0"]
            print(f"{case:<9} {values:>9} {t['-O0']:>7.2f} {t['-O1']:>7.2f} {t['-O2']:>7.2f} {r1:>6.2f} {r2:>6.2f} {wall['-O2']:>7.2f} "
                  f"{bpv:>8.0f} {dbl:>17}  {slow} {ph.get(slow, 0):.2f} s ({100 * ph.get(slow, 0) / tot:.0f}%, {worst})",
                  flush=True)
            prev = t
            if case == "module" and n == 2 * n0:
                reports = {lv: res[lv][3] for lv in LEVELS}
                if not args.quick:
                    goals.append(("O2/O0 <= 1.5", r2 <= 1.5))
                    goals.append(("O1/O0 <= 1.3", r1 <= 1.3))
                    goals.append(("<= 300 bytes/value", bpv <= 300))
    if goals:
        print("goals on the module: " + ", ".join(f"{g}: {'met' if ok else 'NOT met'}" for g, ok in goals))
    if args.passes and reports:
        for lv in LEVELS:
            print(f"\n--time-passes, module of {2 * (CASES['module'][1] // (2 if args.quick else 1))} values, {lv}:")
            sys.stdout.write(reports[lv])


if __name__ == "__main__":
    main()
