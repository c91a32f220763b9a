#!/usr/bin/env python3
"""Generates one pathological B3 procedure for the scaling benchmark
(bench/scaling.sh) and the scaling regression tests (testsuite/regress).

    python3 bench/scaling_gen.py SHAPE N [-o FILE] [--name NAME]

Shapes (each one procedure; its C signature and result are given so a driver
can check it):

  jumpchain N  int64_t f(int64_t a): a chain of N empty blocks that only
               jump, a value live through all of them; returns 3a + 1.
  switch N     int64_t f(int64_t x): one Switch of N cases; case 3k goes to
               block (7k mod B), B = max(1, N / 2), which returns 13j + 5
               for block j; the default returns -1.
  loopnest N   int64_t f(int32_t m): N nested counted loops (counter i_L at
               level L) of m iterations each (with --inner K only the K
               innermost; the others run once); the innermost does
               acc = acc * 31 + i_{N-1} + 2 * i_{N-2} + 3 * i_0 (uint64
               arithmetic, sign-extended counters); the accumulator is
               carried by a Phi per level.  Every counter is live in all the
               loops inside its own.
  phis N       int64_t f(int64_t a, int64_t b): a diamond whose arms each
               feed N Phis of the join (arm k: a + k, else b * k); the join
               returns the sum of the Phis times their position.
               Returns sum_{k<N} (k + 1) * (a > b ? a + k : b * k).
  calllive N   int64_t f(int64_t a): N values a * k + k (k < N) live across
               one call of the C function int64_t scaling_ext(int64_t); returns
               scaling_ext(a) + sum_k (value_k xor k).
  chain N      int64_t f(int64_t a): a straight chain of N dependent
               arithmetic ops in one block.
  ifchain N    int64_t f(int64_t x): a switch written as N compare-and-
               branch blocks (x == 3k goes, through an empty block, to a
               block returning 13k + 5); returns -1 when no case matches.
  foldchain N  int64_t f(int64_t a): N dependent ops in one block that
               reduce_strength folds away (x + 0, x * 1, x ^ c ^ c, x - x + x,
               constant arithmetic); returns a + N.
  blocks N     int64_t f(int64_t a): N blocks in a row, block k adds a
               constant to the running sum and leaves for a shared exit
               when it passes a (Branch on GreaterThan), else goes on; the
               exit returns the sum through one Phi with N Upsilons.
               Returns the first partial sum 3 + sum_{j<=k} (7j + 1) > a,
               or the last.
  diamonds N   int64_t f(int64_t a): N diamonds in a row, each Branch
               deciding on the Phi of the previous one, which is a constant
               once the previous Branch is folded; returns a + N.  (A
               reduce_strength that needed a round per diamond would be
               quadratic here.)
  tails N      int64_t f(int64_t x): N tests in a chain (2N + 17 blocks):
               test k takes bit k mod 63 of x; if set, its arm returns
               x + bit + k through one of 16 small return blocks (a Phi and
               a Return: what duplicate_tails copies into every arm); if
               none is set, returns x.
"""

import argparse
import sys


class Out:
    def __init__(self):
        self.lines = []
        self.next_value = 0

    def v(self):
        n = self.next_value
        self.next_value += 1
        return n

    def emit(self, s):
        self.lines.append(s)


def jumpchain(o, n):
    a, c3, m, one, r = o.v(), o.v(), o.v(), o.v(), o.v()
    o.emit("BB#0:")
    o.emit(f"    Int64 @{a} = ArgumentReg(%argumentGPR0)")
    o.emit(f"    Int64 @{c3} = Const64(3)")
    o.emit(f"    Int64 @{m} = Mul(@{a}, @{c3})")
    o.emit(f"    Void @{o.v()} = Jump(#1)")
    for k in range(1, n + 1):
        o.emit(f"BB#{k}:")
        o.emit(f"    Void @{o.v()} = Jump(#{k + 1})")
    o.emit(f"BB#{n + 1}:")
    o.emit(f"    Int64 @{one} = Const64(1)")
    o.emit(f"    Int64 @{r} = Add(@{m}, @{one})")
    o.emit(f"    Void @{o.v()} = Return(@{r})")


def switch(o, n):
    nb = max(1, n // 2)
    x = o.v()
    cases = ", ".join(f"{3 * k} -> #{1 + (7 * k) % nb}" for k in range(n))
    o.emit("BB#0:")
    o.emit(f"    Int64 @{x} = ArgumentReg(%argumentGPR0)")
    o.emit(f"    Void @{o.v()} = Switch(@{x}, {cases}, default -> #{nb + 1})")
    for j in range(nb + 1):
        c = o.v()
        o.emit(f"BB#{j + 1}:")
        o.emit(f"    Int64 @{c} = Const64({13 * j + 5 if j < nb else -1})")
        o.emit(f"    Void @{o.v()} = Return(@{c})")


def loopnest(o, d, inner=None):
    # Blocks: 0 entry; level L: header 1+3L, body 2+3L, exit 3+3L.
    H = lambda L: 1 + 3 * L
    B = lambda L: 2 + 3 * L
    X = lambda L: 3 + 3 * L
    i = [o.v() for _ in range(d)]
    acc = [o.v() for _ in range(d)]
    a, m, zero32, zero64, one32 = o.v(), o.v(), o.v(), o.v(), o.v()
    full = d if inner is None else inner
    o.emit("BB#0:")
    o.emit(f"    Int64 @{a} = ArgumentReg(%argumentGPR0)")
    o.emit(f"    Int32 @{m} = Trunc(@{a})")
    o.emit(f"    Int32 @{zero32} = Const32(0)")
    o.emit(f"    Int64 @{zero64} = Const64(0)")
    o.emit(f"    Int32 @{one32} = Const32(1)")
    o.emit(f"    Void @{o.v()} = Upsilon(@{zero32}, ^@{i[0]})")
    o.emit(f"    Void @{o.v()} = Upsilon(@{zero64}, ^@{acc[0]})")
    o.emit(f"    Void @{o.v()} = Jump(#{H(0)})")
    for L in range(d):
        cond = o.v()
        o.emit(f"BB#{H(L)}:")
        o.emit(f"    Int32 @{i[L]} = Phi()")
        o.emit(f"    Int64 @{acc[L]} = Phi()")
        bound = m if L >= d - full else one32
        o.emit(f"    Int32 @{cond} = LessThan(@{i[L]}, @{bound})")
        o.emit(f"    Void @{o.v()} = Branch(@{cond}, #{B(L)}, #{X(L)})")
        o.emit(f"BB#{B(L)}:")
        if L < d - 1:
            o.emit(f"    Void @{o.v()} = Upsilon(@{zero32}, ^@{i[L + 1]})")
            o.emit(f"    Void @{o.v()} = Upsilon(@{acc[L]}, ^@{acc[L + 1]})")
            o.emit(f"    Void @{o.v()} = Jump(#{H(L + 1)})")
        else:
            c31, c2, c3, mul, e, e1, e0, m1, m0, s0, s1, s2, inc = (o.v() for _ in range(13))
            o.emit(f"    Int64 @{c31} = Const64(31)")
            o.emit(f"    Int64 @{c2} = Const64(2)")
            o.emit(f"    Int64 @{c3} = Const64(3)")
            o.emit(f"    Int64 @{mul} = Mul(@{acc[L]}, @{c31})")
            o.emit(f"    Int64 @{e} = SExt32(@{i[L]})")
            o.emit(f"    Int64 @{e1} = SExt32(@{i[max(L - 1, 0)]})")
            o.emit(f"    Int64 @{e0} = SExt32(@{i[0]})")
            o.emit(f"    Int64 @{m1} = Mul(@{e1}, @{c2})")
            o.emit(f"    Int64 @{m0} = Mul(@{e0}, @{c3})")
            o.emit(f"    Int64 @{s0} = Add(@{mul}, @{e})")
            o.emit(f"    Int64 @{s1} = Add(@{s0}, @{m1})")
            o.emit(f"    Int64 @{s2} = Add(@{s1}, @{m0})")
            o.emit(f"    Int32 @{inc} = Add(@{i[L]}, @{one32})")
            o.emit(f"    Void @{o.v()} = Upsilon(@{inc}, ^@{i[L]})")
            o.emit(f"    Void @{o.v()} = Upsilon(@{s2}, ^@{acc[L]})")
            o.emit(f"    Void @{o.v()} = Jump(#{H(L)})")
        o.emit(f"BB#{X(L)}:")
        if L == 0:
            o.emit(f"    Void @{o.v()} = Return(@{acc[0]})")
        else:
            inc = o.v()
            o.emit(f"    Int32 @{inc} = Add(@{i[L - 1]}, @{one32})")
            o.emit(f"    Void @{o.v()} = Upsilon(@{inc}, ^@{i[L - 1]})")
            o.emit(f"    Void @{o.v()} = Upsilon(@{acc[L]}, ^@{acc[L - 1]})")
            o.emit(f"    Void @{o.v()} = Jump(#{H(L - 1)})")


def phis(o, n):
    a, b, cond = o.v(), o.v(), o.v()
    ph = [o.v() for _ in range(n)]
    o.emit("BB#0:")
    o.emit(f"    Int64 @{a} = ArgumentReg(%argumentGPR0)")
    o.emit(f"    Int64 @{b} = ArgumentReg(%argumentGPR1)")
    o.emit(f"    Int32 @{cond} = GreaterThan(@{a}, @{b})")
    o.emit(f"    Void @{o.v()} = Branch(@{cond}, #1, #2)")
    for blk, base, op in ((1, a, "Add"), (2, b, "Mul")):
        o.emit(f"BB#{blk}:")
        for k in range(n):
            c, r = o.v(), o.v()
            o.emit(f"    Int64 @{c} = Const64({k})")
            o.emit(f"    Int64 @{r} = {op}(@{base}, @{c})")
            o.emit(f"    Void @{o.v()} = Upsilon(@{r}, ^@{ph[k]})")
        o.emit(f"    Void @{o.v()} = Jump(#3)")
    o.emit("BB#3:")
    for k in range(n):
        o.emit(f"    Int64 @{ph[k]} = Phi()")
    s = None
    for k in range(n):
        c, t = o.v(), o.v()
        o.emit(f"    Int64 @{c} = Const64({k + 1})")
        o.emit(f"    Int64 @{t} = Mul(@{ph[k]}, @{c})")
        if s is None:
            s = t
        else:
            s2 = o.v()
            o.emit(f"    Int64 @{s2} = Add(@{s}, @{t})")
            s = s2
    o.emit(f"    Void @{o.v()} = Return(@{s})")


def calllive(o, n):
    a, fn = o.v(), o.v()
    o.emit("BB#0:")
    o.emit(f"    Int64 @{a} = ArgumentReg(%argumentGPR0)")
    vals = []
    for k in range(n):
        c, m, r = o.v(), o.v(), o.v()
        o.emit(f"    Int64 @{c} = Const64({k})")
        o.emit(f"    Int64 @{m} = Mul(@{a}, @{c})")
        o.emit(f"    Int64 @{r} = Add(@{m}, @{c})")
        vals.append((r, c))
    call = o.v()
    o.emit(f"    Int64 @{fn} = SymbolAddress(@scaling_ext)")
    o.emit(f"    Int64 @{call} = CCall(@{fn}, @{a})")
    s = call
    for r, c in vals:
        x, s2 = o.v(), o.v()
        o.emit(f"    Int64 @{x} = BitXor(@{r}, @{c})")
        o.emit(f"    Int64 @{s2} = Add(@{s}, @{x})")
        s = s2
    o.emit(f"    Void @{o.v()} = Return(@{s})")


def chain(o, n):
    a = o.v()
    o.emit("BB#0:")
    o.emit(f"    Int64 @{a} = ArgumentReg(%argumentGPR0)")
    s = a
    ops = ("Add", "Sub", "BitXor", "Mul")
    for k in range(n):
        c, r = o.v(), o.v()
        o.emit(f"    Int64 @{c} = Const64({k % 1000 + 1})")
        o.emit(f"    Int64 @{r} = {ops[k % 4]}(@{s}, @{c})")
        s = r
    o.emit(f"    Void @{o.v()} = Return(@{s})")


def ifchain(o, n):
    x = o.v()
    o.emit("BB#0:")
    o.emit(f"    Int64 @{x} = ArgumentReg(%argumentGPR0)")
    o.emit(f"    Void @{o.v()} = Jump(#1)")
    # Test block k: 1 + 3k; its case 2 + 3k (empty, jumps on); its return 3 + 3k.
    for k in range(n):
        c, e = o.v(), o.v()
        nxt = 1 + 3 * (k + 1) if k + 1 < n else 3 * n + 1
        o.emit(f"BB#{1 + 3 * k}:")
        o.emit(f"    Int64 @{c} = Const64({3 * k})")
        o.emit(f"    Int32 @{e} = Equal(@{x}, @{c})")
        o.emit(f"    Void @{o.v()} = Branch(@{e}, #{2 + 3 * k}, #{nxt})")
        o.emit(f"BB#{2 + 3 * k}:")
        o.emit(f"    Void @{o.v()} = Jump(#{3 + 3 * k})")
        r = o.v()
        o.emit(f"BB#{3 + 3 * k}:")
        o.emit(f"    Int64 @{r} = Const64({13 * k + 5})")
        o.emit(f"    Void @{o.v()} = Return(@{r})")
    r = o.v()
    o.emit(f"BB#{3 * n + 1}:")
    o.emit(f"    Int64 @{r} = Const64(-1)")
    o.emit(f"    Void @{o.v()} = Return(@{r})")


def foldchain(o, n):
    a, zero, one, c7 = o.v(), o.v(), o.v(), o.v()
    o.emit("BB#0:")
    o.emit(f"    Int64 @{a} = ArgumentReg(%argumentGPR0)")
    o.emit(f"    Int64 @{zero} = Const64(0)")
    o.emit(f"    Int64 @{one} = Const64(1)")
    o.emit(f"    Int64 @{c7} = Const64(7)")
    s = a
    for k in range(n):
        r = o.v()
        if k % 4 == 0:
            o.emit(f"    Int64 @{r} = Add(@{s}, @{zero})")
        elif k % 4 == 1:
            o.emit(f"    Int64 @{r} = Mul(@{one}, @{s})")
        elif k % 4 == 2:
            t = o.v()
            o.emit(f"    Int64 @{t} = BitXor(@{s}, @{c7})")
            o.emit(f"    Int64 @{r} = BitXor(@{t}, @{c7})")
        else:
            t, u = o.v(), o.v()
            o.emit(f"    Int64 @{t} = Sub(@{s}, @{s})")
            o.emit(f"    Int64 @{u} = Add(@{t}, @{one})")
            o.emit(f"    Int64 @{r} = Add(@{s}, @{u})")
        s = r
    o.emit(f"    Void @{o.v()} = Return(@{s})")


def blocks(o, n):
    a, phi = o.v(), o.v()
    ex = n + 1
    o.emit("BB#0:")
    o.emit(f"    Int64 @{a} = ArgumentReg(%argumentGPR0)")
    s = o.v()
    o.emit(f"    Int64 @{s} = Const64(3)")
    o.emit(f"    Void @{o.v()} = Jump(#1)")
    for k in range(1, n + 1):
        c, t, e = o.v(), o.v(), o.v()
        o.emit(f"BB#{k}:")
        o.emit(f"    Int64 @{c} = Const64({7 * k + 1})")
        o.emit(f"    Int64 @{t} = Add(@{s}, @{c})")
        o.emit(f"    Void @{o.v()} = Upsilon(@{t}, ^@{phi})")
        if k < n:
            o.emit(f"    Int32 @{e} = GreaterThan(@{t}, @{a})")
            o.emit(f"    Void @{o.v()} = Branch(@{e}, #{ex}, #{k + 1})")
        else:
            o.emit(f"    Void @{o.v()} = Jump(#{ex})")
        s = t
    o.emit(f"BB#{ex}:")
    o.emit(f"    Int64 @{phi} = Phi()")
    o.emit(f"    Void @{o.v()} = Return(@{phi})")


def diamonds(o, n):
    # Diamond k: test block 1 + 3k branches on Equal(phi_{k-1}, k) to
    # 2 + 3k (writes k + 1) or 3 + 3k (writes 0); both join at 1 + 3(k + 1).
    a = o.v()
    phis = [o.v() for _ in range(n)]
    o.emit("BB#0:")
    o.emit(f"    Int64 @{a} = ArgumentReg(%argumentGPR0)")
    c0 = o.v()
    o.emit(f"    Int64 @{c0} = Const64(0)")
    o.emit(f"    Void @{o.v()} = Jump(#1)")
    prev = c0
    for k in range(n):
        c, e = o.v(), o.v()
        o.emit(f"BB#{1 + 3 * k}:")
        if k:
            o.emit(f"    Int64 @{phis[k - 1]} = Phi()")
        o.emit(f"    Int64 @{c} = Const64({k})")
        o.emit(f"    Int32 @{e} = Equal(@{prev}, @{c})")
        o.emit(f"    Void @{o.v()} = Branch(@{e}, #{2 + 3 * k}, #{3 + 3 * k})")
        t, f = o.v(), o.v()
        o.emit(f"BB#{2 + 3 * k}:")
        o.emit(f"    Int64 @{t} = Const64({k + 1})")
        o.emit(f"    Void @{o.v()} = Upsilon(@{t}, ^@{phis[k]})")
        o.emit(f"    Void @{o.v()} = Jump(#{1 + 3 * (k + 1)})")
        o.emit(f"BB#{3 + 3 * k}:")
        o.emit(f"    Int64 @{f} = Add(@{a}, @{c})")
        o.emit(f"    Void @{o.v()} = Upsilon(@{f}, ^@{phis[k]})")
        o.emit(f"    Void @{o.v()} = Jump(#{1 + 3 * (k + 1)})")
        prev = phis[k]
    r = o.v()
    o.emit(f"BB#{1 + 3 * n}:")
    o.emit(f"    Int64 @{phis[n - 1]} = Phi()")
    o.emit(f"    Int64 @{r} = Add(@{a}, @{phis[n - 1]})")
    o.emit(f"    Void @{o.v()} = Return(@{r})")


def tails(o, n):
    x = o.v()
    o.emit("BB#0:")
    o.emit(f"    Int64 @{x} = ArgumentReg(%argumentGPR0)")
    o.emit(f"    Void @{o.v()} = Jump(#1)")
    ntails = 16
    phis = [o.v() for _ in range(ntails)]
    tail0 = 2 * n + 2
    # Test k: block 1 + 2k, its arm 2 + 2k; the last test's else returns x.
    for k in range(n):
        t, a = 1 + 2 * k, 2 + 2 * k
        bit, m, ka, s1, v = o.v(), o.v(), o.v(), o.v(), o.v()
        nxt = t + 2 if k + 1 < n else 2 * n + 1
        o.emit(f"BB#{t}:")
        o.emit(f"    Int64 @{bit} = Const64({1 << (k % 63)})")
        o.emit(f"    Int64 @{m} = BitAnd(@{x}, @{bit})")
        o.emit(f"    Void @{o.v()} = Branch(@{m}, #{a}, #{nxt})")
        o.emit(f"BB#{a}:")
        o.emit(f"    Int64 @{ka} = Const64({k})")
        o.emit(f"    Int64 @{s1} = Add(@{m}, @{ka})")
        o.emit(f"    Int64 @{v} = Add(@{x}, @{s1})")
        o.emit(f"    Void @{o.v()} = Upsilon(@{v}, ^@{phis[k % ntails]})")
        o.emit(f"    Void @{o.v()} = Jump(#{tail0 + k % ntails})")
    o.emit(f"BB#{2 * n + 1}:")
    o.emit(f"    Void @{o.v()} = Return(@{x})")
    for j in range(ntails):
        o.emit(f"BB#{tail0 + j}:")
        o.emit(f"    Int64 @{phis[j]} = Phi()")
        o.emit(f"    Void @{o.v()} = Return(@{phis[j]})")


SHAPES = {
    "jumpchain": jumpchain,
    "switch": switch,
    "loopnest": loopnest,
    "phis": phis,
    "calllive": calllive,
    "chain": chain,
    "ifchain": ifchain,
    "foldchain": foldchain,
    "diamonds": diamonds,
    "blocks": blocks,
    "tails": tails,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("shape", choices=sorted(SHAPES))
    ap.add_argument("n", type=int)
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--name", help="procedure name (default: the shape's)")
    ap.add_argument("--inner", type=int, help="loopnest: only this many innermost loops run m times")
    args = ap.parse_args()
    o = Out()
    if args.shape == "loopnest":
        loopnest(o, args.n, args.inner)
    else:
        SHAPES[args.shape](o, args.n)
    text = []
    if args.shape == "calllive":
        text.append("extern @scaling_ext\n")
    text.append(f"proc @{args.name or args.shape} {{")
    text.extend(o.lines)
    text.append("}")
    data = "\n".join(text) + "\n"
    if args.output == "-":
        sys.stdout.write(data)
    else:
        with open(args.output, "w") as f:
            f.write(data)


if __name__ == "__main__":
    main()
