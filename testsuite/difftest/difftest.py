#!/usr/bin/env python3
"""Differential testing of b3c against the reference interpreter.

    python3 difftest.py [-n N] [--seed S] [--size K] [-j JOBS] [--opts=-O0,-O1,-O2]
                        [--work DIR] [--failures DIR] [--no-reduce] [--quiet]
                        [--shapes=LIST] [--target=TRIPLE]

For each seed S..S+N-1: gen_random.py writes a module, its C driver and its
plan; b3c compiles the module (with --verify-each) at each optimization
level; the driver is linked and run; interp.py runs the same calls; the
outputs must be identical.  A failing seed is copied to FAILURES/SEED-KIND/
(with the compiler's messages and both outputs) and, unless --no-reduce,
reduced with reduce.py into FAILURES/SEED-KIND/min/.  Kinds:
  b3c-crash     b3c exited with status >= 2 (internal error) or a signal
  b3c-reject    b3c rejected the module (status 1): a front-end bug, or a
                generator bug
  link          the object did not link with the driver
  mismatch      the program's output differs from the interpreter's (this
                includes crashes and hangs of the compiled code)
  interp        the interpreter failed (a generator/interpreter bug)
--shapes selects the generator's switchable shapes (gen_random.SHAPES:
cmp-reuse, dead-phi, eq-chain, float-widen, jump-chain, small-callees; default
gen_random.DEFAULT_SHAPES; "all";
"+cmp-reuse" adds one to the default, "-dead-phi" removes one).
--target (default: the host) generates modules for that target's registers
and calling convention, compiles them with b3c --target=, links them with the
target's C compiler and runs them (under qemu-user when the target is not the
host's: aarch64-linux-gnu on x86-64; see toolchain.py).
Exit status 0 when every seed passed.
"""

import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen_random  # noqa: E402
import toolchain  # noqa: E402

B3C = os.environ.get("B3C", os.path.join(ROOT, "b3c"))
# Set by --target (toolchain.toolchain): b3c's flags, the C compiler, and the
# prefix that runs a program (qemu for a foreign target).
TARGET = toolchain.host_arch()
B3C_FLAGS, CC, RUN = toolchain.toolchain(TARGET)
WITHOUT = ()  # --without: kinds of values the modules leave out
# Programs under qemu run slower: a longer limit before a hang is declared.
RUN_TIMEOUT = 20


def run(cmd, timeout=60, **kw):
    try:
        r = subprocess.run(cmd, capture_output=True, timeout=timeout, **kw)
        return r.returncode, r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return 124, "", "timeout"


def check_seed(seed, size, work, opts, shapes=None):
    """Returns (seed, kind or None, detail)."""
    try:
        return check_seed1(seed, size, work, opts, shapes)
    except Exception as e:  # a harness problem: report it, keep going
        return seed, "harness", "%s: %s" % (type(e).__name__, e)


def check_seed1(seed, size, work, opts, shapes=None):
    d = os.path.join(work, "s%d" % seed)
    shutil.rmtree(d, ignore_errors=True)
    if size <= 0:  # vary the size with the seed
        size = (20, 40, 80, 120, 200, 300, 500)[seed % 7]
    gen_random.generate(seed, d, size, shapes, TARGET, WITHOUT)
    rc, ref, err = run([sys.executable, os.path.join(HERE, "interp.py"), d], timeout=300)
    with open(os.path.join(d, "ref.txt"), "w") as f:
        f.write(ref)
    if rc != 0:
        return seed, "interp", (ref.strip().splitlines() or [err.strip()])[-1]
    rc, _, _ = run(CC + ["-O1", "-c", "-o", os.path.join(d, "driver.o"), os.path.join(d, "driver.c")])
    if rc != 0:
        return seed, "link", "driver does not compile"
    for opt in opts:
        tag = opt.lstrip("-")
        obj = os.path.join(d, "prog%s.o" % tag)
        rc, _, err = run([B3C] + B3C_FLAGS + ["--verify-each", opt, os.path.join(d, "prog.b3"), "-o", obj])
        with open(os.path.join(d, "b3c%s.err" % tag), "w") as f:
            f.write(err)
        if rc != 0:
            kind = "b3c-reject" if rc == 1 else "b3c-crash"
            return seed, kind, "%s: exit %d: %s" % (opt, rc, (err.strip().splitlines() or [""])[0])
        exe = os.path.join(d, "exe%s" % tag)
        rc, _, err = run(CC + ["-o", exe, os.path.join(d, "driver.o"), obj, "-lm"])
        if rc != 0:
            return seed, "link", "%s: %s" % (opt, (err.strip().splitlines() or [""])[0])
        rc, out, err = run(RUN + [exe], timeout=RUN_TIMEOUT)
        if rc != 0:
            out += "EXIT %d %s\n" % (rc, err.strip())
        with open(os.path.join(d, "out%s.txt" % tag), "w") as f:
            f.write(out)
        if out != ref:
            a, b = out.splitlines(), ref.splitlines()
            line = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            got = a[line] if line < len(a) else "<eof>"
            want = b[line] if line < len(b) else "<eof>"
            return seed, "mismatch", "%s: line %d: got %r, want %r" % (opt, line + 1, got[:90], want[:90])
    shutil.rmtree(d, ignore_errors=True)
    return seed, None, ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--size", type=int, default=0, help="about how many values per procedure (0: varies with the seed)")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--opts", default="-O0,-O1,-O2")
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "difftest", "run%d" % os.getpid()))
    ap.add_argument("--failures", default=os.path.join(HERE, "failures"))
    ap.add_argument("--no-reduce", action="store_true")
    ap.add_argument("--time-limit", type=float, default=0, help="stop starting new seeds after this many seconds")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--shapes", default="default", help="generator shapes (see gen_random.py)")
    ap.add_argument("--without", default="", help="kinds of values to leave out: atomics, checks (see gen_random.py)")
    ap.add_argument("--target", default=None, help="target triple (default: the host), e.g. aarch64-linux-gnu")
    a = ap.parse_args()
    global TARGET, B3C_FLAGS, CC, RUN, RUN_TIMEOUT, WITHOUT
    try:
        TARGET = gen_random.target_arch(a.target or toolchain.host_arch())
    except ValueError as e:
        ap.error(str(e))
    B3C_FLAGS, CC, RUN = toolchain.toolchain(a.target or TARGET)
    if RUN:
        RUN_TIMEOUT = 60
    try:
        shapes = gen_random.parse_shapes(a.shapes)
        WITHOUT = gen_random.parse_without(a.without)
    except ValueError as e:
        ap.error(str(e))
    if toolchain.is_apple(a.target) and TARGET == "aarch64" and "stack-args" not in WITHOUT:
        # arm64 macOS packs stack arguments by size; the driver is Linux's
        WITHOUT = tuple(WITHOUT) + ("stack-args",)
    opts = a.opts.split(",")
    os.makedirs(a.work, exist_ok=True)
    # Test a snapshot of the compiler: others may rebuild ./b3c meanwhile.
    global B3C
    snap = os.path.join(a.work, "b3c.snapshot")
    for _ in range(30):
        try:
            shutil.copy2(B3C, snap)
            if run([snap, "--version"])[0] == 0:
                break
        except OSError:
            pass
        time.sleep(2)
    else:
        sys.exit("cannot run %s" % B3C)
    B3C = snap
    os.environ["B3C"] = snap
    start = time.time()
    fails = []
    done = 0
    seeds = iter(range(a.seed, a.seed + a.n))
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as ex:
        pending = set()
        while True:
            while len(pending) < a.j * 2:
                if a.time_limit and time.time() - start > a.time_limit:
                    break
                s = next(seeds, None)
                if s is None:
                    break
                pending.add(ex.submit(check_seed, s, a.size, a.work, opts, shapes))
            if not pending:
                break
            fin, pending = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for f in fin:
                seed, kind, detail = f.result()
                done += 1
                if kind:
                    fails.append((seed, kind, detail))
                    print("FAIL seed %d: %s: %s" % (seed, kind, detail), flush=True)
                elif not a.quiet:
                    print("ok seed %d" % seed, flush=True)
    for seed, kind, detail in sorted(fails):
        src = os.path.join(a.work, "s%d" % seed)
        dst = os.path.join(a.failures, "%d-%s" % (seed, kind))
        shutil.rmtree(dst, ignore_errors=True)
        shutil.copytree(src, dst, ignore=shutil.ignore_patterns("*.o", "exe*"))
        if not a.no_reduce and kind in ("mismatch", "b3c-crash"):
            import reduce as red
            opt = detail.split(":")[0]
            red.reduce(dst, os.path.join(dst, "min"), "mismatch" if kind == "mismatch" else "b3c", opt,
                       log=lambda *x: None)
    print("%d programs, %d failed (%.0f s)" % (done, len(fails), time.time() - start))
    shutil.rmtree(a.work, ignore_errors=True)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
