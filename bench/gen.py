#!/usr/bin/env python3
"""Generates a large, valid B3 module for benchmarking b3c.

    python3 bench/gen.py [--values N] [--seed S] [-o FILE]

The module has about N values (default 1,000,000; every `@N = ...` line and
every Void value counts) spread over procedures of 10k-100k values each.
Each procedure is a C function

    int64_t bench_K(void *p, int64_t a, int32_t x, double d, float f);

whose body mixes straight-line code (arithmetic of every type, shifts,
divisions, conversions, compares, Select, loads and stores with offsets
through p, CCalls to the externs @bench_ext and @bench_extd, SymbolAddress of
a data item) with control flow: if/else diamonds and if-then triangles that
merge through Phi/Upsilon, Switches, and counted loops whose carried values
are Phis in the loop header (nested up to a few levels).

Everything is valid per shared/spec/b3-text.md: types match each opcode's
rule, and every use is dominated by its definition.  Control flow is
structured, so the generator keeps a stack of scopes: values defined in an
if arm, a switch case or a loop body are dropped when that region ends;
values of the block that branches (and of a loop header) stay visible after
the merge.  Output is deterministic for a given seed.

A sidecar FILE.meta records the counts (values, blocks, procedures).
"""

import argparse
import random
import sys

TYPES = ("Int32", "Int64", "Float", "Double")
INTS = ("Int32", "Int64")
FPS = ("Float", "Double")


class Block:
    __slots__ = ("index", "lines", "succ", "succ_targets", "preds")

    def __init__(self, index):
        self.index = index
        self.lines = []
        self.succ = None  # the "Successors:" text
        self.succ_targets = []
        self.preds = []


class ProcGen:
    def __init__(self, rng, name, budget, trips=0):
        self.rng = rng
        self.trips = trips
        self.name = name
        self.budget = budget
        self.blocks = []
        self.next_value = 0
        self.count = 0  # values emitted
        # Visible values by type, with a stack of marks for scopes.
        self.vis = {t: [] for t in TYPES}
        self.marks = []
        self.cur = self.new_block()

    # ---- blocks, values and scopes ----------------------------------------

    def new_block(self):
        b = Block(len(self.blocks))
        self.blocks.append(b)
        return b

    def reserve(self):
        n = self.next_value
        self.next_value += 1
        return n

    def emit(self, typ, text, number=None, visible=True):
        n = self.reserve() if number is None else number
        self.cur.lines.append("    %s @%d = %s" % (typ, n, text))
        self.count += 1
        if visible and typ != "Void":
            self.vis[typ].append(n)
        return n

    def terminate(self, text, succ=None, targets=()):
        self.emit("Void", text)
        self.cur.succ = succ
        self.cur.succ_targets = list(targets)
        for t in targets:
            if self.cur not in t.preds:
                t.preds.append(self.cur)

    def push(self):
        self.marks.append({t: len(v) for t, v in self.vis.items()})

    def pop(self):
        m = self.marks.pop()
        for t, v in self.vis.items():
            del v[m[t]:]

    def pick(self, typ):
        v = self.vis[typ]
        r = self.rng
        if r.random() < 0.85:
            return v[len(v) - 1 - r.randrange(min(len(v), 24))]
        return v[r.randrange(len(v))]

    # ---- straight-line code -----------------------------------------------

    def const(self, typ):
        r = self.rng
        if typ == "Int32":
            return self.emit(typ, "Const32(%d)" % r.choice((0, 1, 2, 7, -1, 255, 4096, r.randrange(-(1 << 31), 1 << 31))))
        if typ == "Int64":
            return self.emit(typ, "Const64(%d)" % r.choice((0, 1, 8, -1, 1 << 40, r.randrange(-(1 << 63), 1 << 63))))
        op = "ConstFloat" if typ == "Float" else "ConstDouble"
        return self.emit(typ, "%s(%s)" % (op, r.choice(("0.5", "1.0", "-2.25", "1e10", "3", "0.1", "-0.0"))))

    def shift_amount(self):
        return self.emit("Int32", "Const32(%d)" % self.rng.randrange(0, 31))

    def one(self):
        """Emits one value (sometimes a couple: a helper constant first)."""
        r = self.rng
        k = r.random()
        if k < 0.22:  # integer arithmetic
            t = r.choice(INTS)
            op = r.choice(("Add", "Sub", "Mul", "BitAnd", "BitOr", "BitXor", "Add", "Sub"))
            self.emit(t, "%s(@%d, @%d)" % (op, self.pick(t), self.pick(t)))
        elif k < 0.27:  # shifts and rotates (the amount is Int32)
            t = r.choice(INTS)
            op = r.choice(("Shl", "SShr", "ZShr", "RotR", "RotL"))
            amount = self.shift_amount() if r.random() < 0.5 else self.pick("Int32")
            self.emit(t, "%s(@%d, @%d)" % (op, self.pick(t), amount))
        elif k < 0.30:  # division
            t = r.choice(INTS)
            op = r.choice(("Div<Chill>", "Mod<Chill>", "UDiv", "UMod", "Div", "Mod"))
            if op in ("UDiv", "UMod", "Div", "Mod"):
                one = self.emit(t, "%s(1)" % ("Const32" if t == "Int32" else "Const64"))
                den = self.emit(t, "BitOr(@%d, @%d)" % (self.pick(t), one))
            else:
                den = self.pick(t)
            self.emit(t, "%s(@%d, @%d)" % (op, self.pick(t), den))
        elif k < 0.32:  # integer unary
            t = r.choice(INTS)
            self.emit(t, "%s(@%d)" % (r.choice(("Neg", "Clz")), self.pick(t)))
        elif k < 0.42:  # floating point
            t = r.choice(FPS)
            if r.random() < 0.6:
                op = r.choice(("Add", "Sub", "Mul", "Div", "FMin", "FMax", "Add", "Mul"))
                self.emit(t, "%s(@%d, @%d)" % (op, self.pick(t), self.pick(t)))
            else:
                op = r.choice(("Neg", "Abs", "Ceil", "Floor", "Sqrt"))
                self.emit(t, "%s(@%d)" % (op, self.pick(t)))
        elif k < 0.50:  # conversions
            c = r.randrange(14)
            if c == 0:
                self.emit("Int32", "%s(@%d)" % (r.choice(("SExt8", "SExt16")), self.pick("Int32")))
            elif c == 1:
                self.emit("Int64", "%s(@%d)" % (r.choice(("SExt32", "ZExt32")), self.pick("Int32")))
            elif c == 2:
                self.emit("Int32", "Trunc(@%d)" % self.pick("Int64"))
            elif c == 3:
                self.emit("Float", "Trunc(@%d)" % self.pick("Double"))
            elif c == 4:
                self.emit("Double", "%s(@%d)" % (r.choice(("IToD", "UToD")), self.pick(r.choice(INTS))))
            elif c == 5:
                self.emit("Float", "%s(@%d)" % (r.choice(("IToF", "UToF")), self.pick(r.choice(INTS))))
            elif c == 6:
                self.emit("Double", "FloatToDouble(@%d)" % self.pick("Float"))
            elif c == 7:
                self.emit("Float", "DoubleToFloat(@%d)" % self.pick("Double"))
            elif c == 8:
                self.emit(r.choice(INTS), "%s(@%d)" % (r.choice(("DToI", "DToU")), self.pick(r.choice(FPS))))
            else:
                src, dst = r.choice((("Int32", "Float"), ("Float", "Int32"), ("Int64", "Double"), ("Double", "Int64")))
                self.emit(dst, "BitwiseCast(@%d)" % self.pick(src))
        elif k < 0.58:  # compares
            t = r.choice(TYPES)
            ops = ["Equal", "NotEqual", "LessThan", "GreaterThan", "LessEqual", "GreaterEqual"]
            ops += ["Above", "Below", "AboveEqual", "BelowEqual"] if t in INTS else ["EqualOrUnordered"]
            self.emit("Int32", "%s(@%d, @%d)" % (r.choice(ops), self.pick(t), self.pick(t)))
        elif k < 0.62:  # select
            t = r.choice(TYPES)
            self.emit(t, "Select(@%d, @%d, @%d)" % (self.pick(r.choice(INTS)), self.pick(t), self.pick(t)))
        elif k < 0.68:  # constants
            self.const(r.choice(TYPES))
        elif k < 0.78:  # loads
            ptr = self.address()
            c = r.randrange(6)
            if c < 2:
                t = r.choice(TYPES)
                op = "Load"
            else:
                t = "Int32"
                op = ("Load8Z", "Load8S", "Load16Z", "Load16S")[c - 2]
            self.emit(t, "%s(@%d, offset = %d%s)" % (op, ptr, r.randrange(0, 512) * 8, self.heap()))
        elif k < 0.86:  # stores
            ptr = self.address()
            c = r.randrange(5)
            if c < 3:
                op, t = "Store", r.choice(TYPES)
            else:
                op, t = ("Store8", "Store16")[c - 3], "Int32"
            self.emit("Void", "%s(@%d, @%d, offset = %d%s)" % (op, self.pick(t), ptr, r.randrange(0, 512) * 8, self.heap()))
        elif k < 0.90:  # calls
            if r.random() < 0.7:
                self.emit("Int64", "CCall(@%d, @%d, @%d)" % (self.ext, self.pick("Int64"), self.pick("Int64")))
            else:
                self.emit("Double", "CCall(@%d, @%d)" % (self.extd, self.pick("Double")))
        elif k < 0.93:  # address arithmetic
            idx = self.emit("Int64", "BitAnd(@%d, @%d)" % (self.pick("Int64"), self.mask))
            self.emit("Int64", "Add(@%d, @%d)" % (self.p, idx))
        else:  # a few more integer ops to weight the mix towards integers
            t = r.choice(INTS)
            self.emit(t, "Add(@%d, @%d)" % (self.pick(t), self.pick(t)))

    def address(self):
        """A pointer: p itself or p plus a masked index."""
        if self.rng.random() < 0.7:
            return self.p
        idx = self.emit("Int64", "BitAnd(@%d, @%d)" % (self.pick("Int64"), self.mask))
        return self.emit("Int64", "Add(@%d, @%d)" % (self.p, idx), visible=False)

    def heap(self):
        r = self.rng.random()
        if r < 0.8:
            return ""
        if r < 0.9:
            return ", range = %d" % self.rng.randrange(0, 16)
        a = self.rng.randrange(0, 16)
        return ", range = %d...%d" % (a, a + 1 + self.rng.randrange(0, 8))

    def straight(self, n):
        end = self.count + n
        while self.count < end:
            self.one()

    # ---- control flow -------------------------------------------------------

    def region(self, budget, depth):
        """Emits about `budget` values into the current block onwards."""
        end = self.count + budget
        r = self.rng
        while self.count < end:
            left = end - self.count
            if depth < 4 and left > 80 and r.random() < 0.35:
                sub = min(left - 10, r.randrange(40, max(41, min(left, 2000 >> depth))))
                kind = r.random()
                if kind < 0.35:
                    self.diamond(sub, depth)
                elif kind < 0.5:
                    self.triangle(sub, depth)
                elif kind < 0.65:
                    self.switch(sub, depth)
                else:
                    self.loop(sub, depth)
            else:
                self.straight(min(left, r.randrange(5, 40)))

    def phis(self, k):
        return [(self.rng.choice(TYPES), self.reserve()) for _ in range(k)]

    def upsilons(self, phis):
        for t, n in phis:
            self.emit("Void", "Upsilon(@%d, ^@%d)" % (self.pick(t), n))

    def define_phis(self, phis):
        for t, n in phis:
            self.emit(t, "Phi()", number=n)

    def condition(self):
        r = self.rng
        if r.random() < 0.5:
            t = r.choice(TYPES)
            return self.emit("Int32", "%s(@%d, @%d)" % (r.choice(("LessThan", "Equal", "NotEqual", "GreaterEqual")), self.pick(t), self.pick(t)))
        return self.pick(r.choice(INTS))

    def diamond(self, budget, depth):
        phis = self.phis(self.rng.randrange(1, 4))
        cond = self.condition()
        then, other, merge = self.new_block(), self.new_block(), self.new_block()
        rare = "Rare:" if self.rng.random() < 0.1 else ""
        self.terminate("Branch(@%d)" % cond, "Then:#%d, Else:%s#%d" % (then.index, rare, other.index), (then, other))
        for arm in (then, other):
            self.cur = arm
            self.push()
            self.region(budget // 2, depth + 1)
            self.upsilons(phis)
            self.terminate("Jump()", "#%d" % merge.index, (merge,))
            self.pop()
        self.cur = merge
        self.define_phis(phis)

    def triangle(self, budget, depth):
        """if (c) { ... } with the else value written before the Branch."""
        phis = self.phis(self.rng.randrange(1, 3))
        self.upsilons(phis)
        cond = self.condition()
        then, merge = self.new_block(), self.new_block()
        self.terminate("Branch(@%d)" % cond, "Then:#%d, Else:#%d" % (then.index, merge.index), (then, merge))
        self.cur = then
        self.push()
        self.region(budget, depth + 1)
        self.upsilons(phis)
        self.terminate("Jump()", "#%d" % merge.index, (merge,))
        self.pop()
        self.cur = merge
        self.define_phis(phis)

    def switch(self, budget, depth):
        r = self.rng
        phis = self.phis(r.randrange(1, 3))
        t = r.choice(INTS)
        x = self.pick(t)
        ncases = r.randrange(2, 7)
        cases = sorted(r.sample(range(-4, 64), ncases))
        arms = [self.new_block() for _ in range(ncases + 1)]
        merge = self.new_block()
        succ = ", ".join("%d->#%d" % (c, b.index) for c, b in zip(cases, arms)) + ", default->#%d" % arms[-1].index
        self.terminate("Switch(@%d)" % x, succ, arms)
        for arm in arms:
            self.cur = arm
            self.push()
            self.region(budget // len(arms), depth + 1)
            self.upsilons(phis)
            self.terminate("Jump()", "#%d" % merge.index, (merge,))
            self.pop()
        self.cur = merge
        self.define_phis(phis)

    def loop(self, budget, depth):
        r = self.rng
        i_phi = ("Int32", self.reserve())
        carried = self.phis(r.randrange(0, 3))
        zero = self.emit("Int32", "Const32(0)")
        bound = self.pick("Int32") if r.random() < 0.3 else self.emit("Int32", "Const32(%d)" % r.randrange(1, 100))
        if self.trips:  # at most trips - 1 trips, drawing nothing more from rng
            mask = self.emit("Int32", "Const32(%d)" % (self.trips - 1), visible=False)
            bound = self.emit("Int32", "BitAnd(@%d, @%d)" % (bound, mask), visible=False)
        self.emit("Void", "Upsilon(@%d, ^@%d)" % (zero, i_phi[1]))
        self.upsilons(carried)
        header, body, exit_ = self.new_block(), self.new_block(), self.new_block()
        self.terminate("Jump()", "#%d" % header.index, (header,))
        # The header dominates the body and the exit: its values stay visible.
        self.cur = header
        self.define_phis([i_phi] + carried)
        cond = self.emit("Int32", "LessThan(@%d, @%d)" % (i_phi[1], bound))
        self.terminate("Branch(@%d)" % cond, "Then:#%d, Else:#%d" % (body.index, exit_.index), (body, exit_))
        self.cur = body
        self.push()
        self.region(budget, depth + 1)
        one = self.emit("Int32", "Const32(1)")
        nxt = self.emit("Int32", "Add(@%d, @%d)" % (i_phi[1], one))
        self.emit("Void", "Upsilon(@%d, ^@%d)" % (nxt, i_phi[1]))
        self.upsilons(carried)
        self.terminate("Jump()", "#%d" % header.index, (header,))
        self.pop()
        self.cur = exit_

    # ---- the procedure --------------------------------------------------------

    def generate(self):
        e = self.emit
        self.p = e("Int64", "ArgumentReg(%argumentGPR0)")
        e("Int64", "ArgumentReg(%argumentGPR1)")
        x = e("Int64", "ArgumentReg(%argumentGPR2)")
        e("Int32", "Trunc(@%d)" % x)
        e("Double", "ArgumentReg(%argumentFPR0)")
        f = e("Double", "ArgumentReg(%argumentFPR1)")
        e("Float", "Trunc(@%d)" % f)
        self.ext = e("Int64", "SymbolAddress(@bench_ext)", visible=False)
        self.extd = e("Int64", "SymbolAddress(@bench_extd)", visible=False)
        e("Int64", "SymbolAddress(@bench_data, offset = 8)")
        self.mask = e("Int64", "Const64(4088)", visible=False)
        for t in TYPES:
            self.const(t)
        self.region(self.budget - self.count - 2, 0)
        result = self.pick("Int64")
        self.terminate("Return(@%d)" % result)

    def write(self, out):
        w = out.write
        w("proc @%s {\n" % self.name)
        for b in self.blocks:
            w("BB#%d:\n" % b.index)
            if b.preds:
                w("  Predecessors: %s\n" % ", ".join("#%d" % p.index for p in sorted(b.preds, key=lambda p: p.index)))
            w("\n".join(b.lines))
            w("\n")
            if b.succ:
                w("  Successors: %s\n" % b.succ)
        w("}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--values", type=int, default=1_000_000, help="about how many values (default 1000000)")
    ap.add_argument("--seed", type=int, default=0xB3, help="random seed (default 179)")
    ap.add_argument("--min-proc", type=int, default=10_000, help="smallest procedure (values)")
    ap.add_argument("--max-proc", type=int, default=100_000, help="largest procedure (values)")
    ap.add_argument("--trips", type=int, default=0,
                    help="a power of two: every loop runs fewer trips than this, so that the "
                         "program can be run (default 0: loops as generated)")
    ap.add_argument("-o", "--output", default="-", help="output file (default stdout)")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    out = sys.stdout if args.output == "-" else open(args.output, "w")
    out.write("; Generated by bench/gen.py --values %d --seed %d\n" % (args.values, args.seed))
    out.write("extern @bench_ext\nextern @bench_extd\n\n")
    out.write("data @bench_data internal align 16 {\n    Int64 1, 2, 3, 4\n    Double 0.5, 1.5\n    Zero 64\n}\n")
    total = blocks = procs = 0
    while total < args.values:
        left = args.values - total
        size = rng.randrange(args.min_proc, args.max_proc + 1)
        if left < size + args.min_proc:
            size = left  # the last procedure takes the rest
        size = max(size, 200)
        g = ProcGen(rng, "bench_%d" % procs, size, args.trips)
        g.generate()
        out.write("\n")
        g.write(out)
        total += g.count
        blocks += len(g.blocks)
        procs += 1
    if out is not sys.stdout:
        out.close()
        with open(args.output + ".meta", "w") as m:
            m.write("values=%d\nblocks=%d\nprocs=%d\nseed=%d\n" % (total, blocks, procs, args.seed))
    print("gen: %d values, %d blocks, %d procedures" % (total, blocks, procs), file=sys.stderr)


if __name__ == "__main__":
    main()
