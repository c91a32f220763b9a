"""Random programs that keep C-like locals in stack slots, for checking
promote_stack_slots (and fix_ssa) differentially: the same program compiled
at -O0 (slots in memory) and at -O1/-O2 must print the same.

    python3 gen_slots.py SEED OUTDIR     writes OUTDIR/prog.b3 and OUTDIR/driver.c

Each slot is a struct of fields of width 1, 2, 4 or 8 at random offsets;
loads and stores use the fields' widths (narrow stores keep an Int32, loads
zero- or sign-extend; 4- and 8-byte fields are read and written as integer
or floating point, so the same bits are punned).  Some slots stay in memory
on purpose: one passed to a C function that scrambles it, one read at
overlapping widths; arrays are indexed by constants and by variables (so
they are promoted by region, or not at all).  Every field is stored before it is read.  Control flow:
diamonds, a Switch and bounded loops whose counters live in slots or
Variables."""
import os
import random
import sys


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.lines = []
        self.n = 0
        self.nblocks = 0
        self.slots = []  # (name, size, fields, mode)
        self.vars = []
        self.counters = []  # loop counters: never written at random
        self.counter_slots = []
        self.ints = []  # Int64 values available in the current block

    def v(self, typ, text):
        self.n += 1
        self.lines.append("    %s @%d = %s" % (typ, self.n, text))
        return self.n

    def emit(self, text):
        self.lines.append("    " + text)

    def block(self):
        b = self.nblocks
        self.nblocks += 1
        return b

    def label(self, b):
        self.lines.append("BB#%d:" % b)

    def c32(self, x):
        return self.v("Int32", "Const32(%d)" % x)

    def c64(self, x):
        return self.v("Int64", "Const64(%d)" % x)

    def pick(self):
        return self.r.choice(self.ints)

    def addr(self, slot, off):
        """SlotBase plus off, sometimes through a chain of constant Adds."""
        base = self.v("Int64", "SlotBase(%s)" % slot)
        if off and self.r.random() < 0.5:
            part = self.r.randrange(0, off + 1)
            a = self.v("Int64", "Add(@%d, @%d)" % (base, self.c64(part)))
            return a, off - part
        return base, off

    def i32(self, x64):
        return self.v("Int32", "Trunc(@%d)" % x64)

    def store_field(self, slot, f, x64):
        off, width, kind = f
        a, o = self.addr(slot, off)
        if width == 1 or width == 2:
            self.emit("Store%d(@%d, @%d, offset = %d)" % (8 * width, self.i32(x64), a, o))
        elif width == 4:
            x = self.i32(x64)
            if self.r.random() < 0.3:
                x = self.v("Float", "IToF(@%d)" % x)
            self.emit("Store(@%d, @%d, offset = %d)" % (x, a, o))
        else:
            x = x64
            if self.r.random() < 0.3:
                x = self.v("Double", "IToD(@%d)" % x64)
            self.emit("Store(@%d, @%d, offset = %d)" % (x, a, o))

    def load_field(self, slot, f):
        """An Int64 made from the field's bits (read as any type of its width)."""
        off, width, kind = f
        a, o = self.addr(slot, off)
        if width in (1, 2):
            op = "Load%d%s" % (8 * width, self.r.choice("ZS"))
            x = self.v("Int32", "%s(@%d, offset = %d)" % (op, a, o))
            return self.v("Int64", "SExt32(@%d)" % x)
        if width == 4:
            if self.r.random() < 0.3:
                x = self.v("Float", "Load(@%d, offset = %d)" % (a, o))
                x = self.v("Int32", "BitwiseCast(@%d)" % x)
            else:
                x = self.v("Int32", "Load(@%d, offset = %d)" % (a, o))
            return self.v("Int64", "ZExt32(@%d)" % x)
        if self.r.random() < 0.3:
            x = self.v("Double", "Load(@%d, offset = %d)" % (a, o))
            return self.v("Int64", "BitwiseCast(@%d)" % x)
        return self.v("Int64", "Load(@%d, offset = %d)" % (a, o))

    def make_slots(self):
        for i in range(self.r.randrange(1, 5)):
            mode = self.r.choice(("fields", "fields", "fields", "escape", "overlap", "array", "array"))
            fields, off = [], 0
            if mode == "array":  # elements of one width, indexed by constants and by variables
                width = self.r.choice((1, 2, 4, 8))
                count = self.r.choice((2, 4, 8, 16))
                fields = [(k * width, width, None) for k in range(count)]
                self.slots.append(("s%d" % i, max(8, count * width), fields, mode))
                continue
            for _ in range(self.r.randrange(1, 6)):
                width = self.r.choice((1, 2, 4, 8))
                off += self.r.choice((0, 0, 1, 3))
                off = (off + width - 1) // width * width
                fields.append((off, width, None))
                off += width
            size = max(8, (off + 7) // 8 * 8)
            self.slots.append(("s%d" % i, size, fields, mode))

    def arith(self, a, b):
        op = self.r.choice(("Add", "Sub", "Mul", "BitXor", "BitAnd", "BitOr"))
        return self.v("Int64", "%s(@%d, @%d)" % (op, a, b))

    def stmt(self):
        """One random statement in the current block."""
        k = self.r.random()
        name, size, fields, mode = self.r.choice(self.slots)
        if mode == "overlap" and k < 0.5:
            width = self.r.choice((1, 2, 4, 8))
            o = self.r.randrange(0, size - width + 1)
            a = self.v("Int64", "SlotBase(%s)" % name)
            if width == 8:
                x = self.v("Int64", "Load(@%d, offset = %d)" % (a, o))
            else:
                op = {1: "Load8Z", 2: "Load16S", 4: "Load"}[width]
                x = self.v("Int64", "SExt32(@%d)" % self.v("Int32", "%s(@%d, offset = %d)" % (op, a, o)))
            self.ints.append(x)
            if self.r.random() < 0.5:
                y = self.arith(x, self.pick())
                if width == 8:
                    self.emit("Store(@%d, @%d, offset = %d)" % (y, a, o))
                else:
                    st = {1: "Store8", 2: "Store16", 4: "Store"}[width]
                    self.emit("%s(@%d, @%d, offset = %d)" % (st, self.i32(y), a, o))
            return
        if mode == "overlap":
            return
        if mode == "array" and k < 0.4:  # x[i & (count - 1)]
            width, count = fields[0][1], len(fields)
            i32 = self.v("Int32", "Trunc(@%d)" % self.pick())
            i32 = self.v("Int32", "BitAnd(@%d, @%d)" % (i32, self.c32(count - 1)))
            i64 = self.v("Int64", "%s(@%d)" % (self.r.choice(("SExt32", "ZExt32")), i32))
            if width > 1:
                i64 = self.v("Int64", "Shl(@%d, @%d)" % (i64, self.c32(width.bit_length() - 1)))
            base = self.v("Int64", "SlotBase(%s)" % name)
            a = self.v("Int64", "Add(@%d, @%d)" % ((base, i64) if self.r.random() < 0.5 else (i64, base)))
            if k < 0.2:
                op = {1: "Load8S", 2: "Load16Z", 4: "Load", 8: "Load"}[width]
                t = "Int64" if width == 8 else "Int32"
                x = self.v(t, "%s(@%d)" % (op, a))
                self.ints.append(x if width == 8 else self.v("Int64", "SExt32(@%d)" % x))
            else:
                y = self.arith(self.pick(), self.pick())
                op = {1: "Store8", 2: "Store16", 4: "Store", 8: "Store"}[width]
                self.emit("%s(@%d, @%d)" % (op, y if width == 8 else self.i32(y), a))
            return
        f = self.r.choice(fields)
        if k < 0.45:
            self.ints.append(self.load_field(name, f))
        elif k < 0.85:
            self.store_field(name, f, self.arith(self.pick(), self.pick()))
        elif self.vars and k < 0.95:
            var = self.r.choice(self.vars)
            if self.r.random() < 0.5:
                self.ints.append(self.v("Int64", "Get(%s)" % var))
            else:
                self.emit("Set(@%d, %s)" % (self.arith(self.pick(), self.pick()), var))
        else:
            self.ints.append(self.arith(self.pick(), self.pick()))

    def straight(self, n):
        for _ in range(n):
            self.stmt()

    def region(self, depth):
        """Code from the current (open) block to a new open block."""
        k = self.r.random()
        if depth > 2 or k < 0.3:
            self.straight(self.r.randrange(1, 6))
            return
        saved = list(self.ints)
        if k < 0.55:  # diamond
            t, e, j = self.block(), self.block(), self.block()
            c = self.v("Int64", "BitAnd(@%d, @%d)" % (self.pick(), self.c64(1 << self.r.randrange(0, 8))))
            self.emit("Branch(@%d, #%d, #%d)" % (c, t, e))
            for b in (t, e):
                self.label(b)
                self.ints = list(saved)
                self.region(depth + 1)
                self.emit("Jump(#%d)" % j)
            self.label(j)
            self.ints = list(saved)
        elif k < 0.7:  # switch
            cases = [self.block() for _ in range(3)]
            j = self.block()
            c = self.v("Int32", "Trunc(@%d)" % self.pick())
            c = self.v("Int32", "BitAnd(@%d, @%d)" % (c, self.c32(3)))
            self.emit("Switch(@%d, 0 -> #%d, 1 -> #%d, 2 -> #%d, default -> #%d)" % (c, cases[0], cases[1], cases[2], j))
            for b in cases:
                self.label(b)
                self.ints = list(saved)
                self.region(depth + 1)
                self.emit("Jump(#%d)" % j)
            self.label(j)
            self.ints = list(saved)
        else:  # loop, counter in a slot field of 4 or 8 bytes, or a Variable
            h, body, exit_ = self.block(), self.block(), self.block()
            n = self.v("Int64", "BitAnd(@%d, @%d)" % (self.pick(), self.c64(7)))
            use_var = self.r.random() < 0.4
            zero = self.c64(0)
            width = self.r.choice((4, 8))
            if use_var:
                cnt = "k%d" % len(self.counters)
                self.counters.append(("Int64", cnt))
                self.emit("Set(@%d, %s)" % (zero, cnt))
            else:
                s = "c%d" % len(self.counter_slots)
                self.counter_slots.append((s, 8))
                f = (self.r.choice((0, 4)) if width == 4 else 0, width, None)
                a = self.v("Int64", "SlotBase(%s)" % s)
                if f[1] == 4:
                    self.emit("Store(@%d, @%d, offset = %d)" % (self.i32(zero), a, f[0]))
                else:
                    self.emit("Store(@%d, @%d, offset = %d)" % (zero, a, f[0]))
            self.emit("Jump(#%d)" % h)
            self.label(h)

            def read():
                if use_var:
                    return self.v("Int64", "Get(%s)" % cnt)
                a = self.v("Int64", "SlotBase(%s)" % s)
                if f[1] == 4:
                    return self.v("Int64", "SExt32(@%d)" % self.v("Int32", "Load(@%d, offset = %d)" % (a, f[0])))
                return self.v("Int64", "Load(@%d, offset = %d)" % (a, f[0]))
            i = read()
            c = self.v("Int32", "LessThan(@%d, @%d)" % (i, n))
            self.emit("Branch(@%d, #%d, #%d)" % (c, body, exit_))
            self.label(body)
            self.ints = saved + [i]
            self.region(depth + 1)
            i2 = self.v("Int64", "Add(@%d, @%d)" % (read(), self.c64(1)))
            if use_var:
                self.emit("Set(@%d, %s)" % (i2, cnt))
            else:
                a = self.v("Int64", "SlotBase(%s)" % s)
                if f[1] == 4:
                    self.emit("Store(@%d, @%d, offset = %d)" % (self.i32(i2), a, f[0]))
                else:
                    self.emit("Store(@%d, @%d, offset = %d)" % (i2, a, f[0]))
            self.emit("Jump(#%d)" % h)
            self.label(exit_)
            self.ints = list(saved)

    def generate(self):
        self.make_slots()
        self.lines.append("extern @scramble")
        self.lines.append("")
        self.lines.append("proc @f {")
        self.label(self.block())
        a = self.v("Int64", "ArgumentReg(%argumentGPR0)")
        b = self.v("Int64", "ArgumentReg(%argumentGPR1)")
        self.ints = [a, b, self.c64(self.r.randrange(-1000, 1000)), self.c64(0x5DEECE66D)]
        for i in range(self.r.randrange(0, 3)):
            self.vars.append("v%d" % i)
            self.emit("Set(@%d, v%d)" % (self.pick(), i))
        for name, size, fields, mode in self.slots:  # everything stored before it is read
            if mode == "overlap":
                base = self.v("Int64", "SlotBase(%s)" % name)
                for o in range(0, size, 8):
                    self.emit("Store(@%d, @%d, offset = %d)" % (self.arith(self.pick(), self.pick()), base, o))
            else:
                for fl in fields:
                    self.store_field(name, fl, self.arith(self.pick(), self.pick()))
        for name, size, fields, mode in self.slots:
            if mode == "escape":
                fn = self.v("Int64", "SymbolAddress(@scramble)")
                base = self.v("Int64", "SlotBase(%s)" % name)
                size64 = self.c64(size)
                self.emit("CCall(@%d, @%d, @%d)" % (fn, base, size64))
        for _ in range(self.r.randrange(2, 6)):
            self.region(0)
        # The result: every field and Variable hashed.
        h = self.c64(0)
        mul = self.c64(1000003)
        for name, size, fields, mode in self.slots:
            if mode == "overlap":
                base = self.v("Int64", "SlotBase(%s)" % name)
                vals = [self.v("Int64", "Load(@%d, offset = %d)" % (base, o)) for o in range(0, size, 8)]
            else:
                vals = [self.load_field(name, fl) for fl in fields]
            for x in vals:
                h = self.v("Int64", "BitXor(@%d, @%d)" % (self.v("Int64", "Mul(@%d, @%d)" % (h, mul)), x))
        for var in self.vars:
            x = self.v("Int64", "Get(%s)" % var)
            h = self.v("Int64", "BitXor(@%d, @%d)" % (self.v("Int64", "Mul(@%d, @%d)" % (h, mul)), x))
        self.emit("Return(@%d)" % h)
        if self.vars or self.counters:
            self.lines.append("Variables:")
            self.lines += ["    Int64 %s" % x for x in self.vars]
            self.lines += ["    Int64 %s" % x for _, x in self.counters]
        self.lines.append("Stack slots:")
        self.lines += ["    %s: byteSize = %d" % (s[0], s[1]) for s in self.slots]
        self.lines += ["    %s: byteSize = %d" % s for s in self.counter_slots]
        self.lines.append("}")
        return "\n".join(self.lines) + "\n"


DRIVER = r"""#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
int64_t f(int64_t, int64_t);
void scramble(uint8_t *p, int64_t n) {
    for (int64_t i = 0; i < n; i++)
        p[i] = (uint8_t)(p[i] * 31 + i);
}
int main(void) {
    static const int64_t args[] = {0, 1, -1, 7, 255, -129, 0x7fffffff, 0x123456789abcdefLL, INT64_MIN};
    for (unsigned i = 0; i < sizeof args / sizeof args[0]; i++)
        for (unsigned j = 0; j < 3; j++)
            printf("%" PRId64 "\n", f(args[i], args[(i + j) % 9] ^ (int64_t)j));
    return 0;
}
"""

if __name__ == "__main__":
    seed, out = int(sys.argv[1]), sys.argv[2]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "prog.b3"), "w") as fh:
        fh.write(Gen(seed).generate())
    with open(os.path.join(out, "driver.c"), "w") as fh:
        fh.write(DRIVER)
