#!/usr/bin/env python3
"""Reference interpreter for the B3 modules gen_random.py writes.

    python3 interp.py DIR        (reads DIR/prog.b3 and DIR/plan.json)

prints exactly what DIR/driver.c prints when linked with the compiled module.
Semantics follow the B3 IR reference (shared/seeds/002_...) and the spec
(shared/spec/b3-text.md, 8.5 for UToD/UToF/DToI/DToU):

  - integers wrap; shift and rotate amounts are masked to the width;
  - Div/Mod<Chill>: x/0 = 0, MIN/-1 = MIN, x%0 = 0, MIN%-1 = 0;
  - Float results are rounded once to single precision (computing in double
    and rounding to float is exact for + - * / sqrt, and fmod is exact);
  - FMin/FMax: NaN if either is NaN, -0 < +0;
  - DToI/DToU truncate and saturate, NaN gives 0;
  - Phi/Upsilon: each Phi has a slot, Upsilon stores to it, Phi loads it;
  - Check*: on exit the handler is called with the stackmap children and the
    procedure returns its result;
  - atomics: the access width's low bits combine, the old value is returned
    sign-extended from the width (docs/atomics.md).

Values are kept as bit patterns (Python ints) of their type; floating-point
values are decoded to Python floats (IEEE doubles) for arithmetic.
"""

import ctypes
import ctypes.util
import json
import math
import os
import re
import struct
import sys

libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
for _f in ("fmod", "ceil", "floor", "sqrt"):
    getattr(libm, _f).restype = ctypes.c_double
    getattr(libm, _f).argtypes = [ctypes.c_double, ctypes.c_double][: 2 if _f == "fmod" else 1]

M32 = 0xFFFFFFFF
M64 = 0xFFFFFFFFFFFFFFFF
MASK = {"Int32": M32, "Int64": M64, "Float": M32, "Double": M64}
BITS = {"Int32": 32, "Int64": 64, "Float": 32, "Double": 64}


class InterpError(Exception):
    pass


class ProcExit(Exception):
    def __init__(self, value):
        self.value = value


# ---- numbers ------------------------------------------------------------------

def sgn(x, w):
    return x - (1 << w) if x >> (w - 1) else x


def f32(bits):
    return struct.unpack("<f", struct.pack("<I", bits & M32))[0]


def f64(bits):
    return struct.unpack("<d", struct.pack("<Q", bits & M64))[0]


def b32(x):
    return struct.unpack("<I", struct.pack("<f", ctypes.c_float(x).value))[0]


def b64(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def dec(t, bits):
    return f32(bits) if t == "Float" else f64(bits)


def enc(t, x):
    return b32(x) if t == "Float" else b64(x)


def int_to_f32(v):
    """Rounds an integer to the nearest float (ties to even), exactly."""
    if v == 0:
        return 0
    neg = v < 0
    a = -v if neg else v
    n = a.bit_length()
    if n > 24:
        shift = n - 24
        q, r = a >> shift, a & ((1 << shift) - 1)
        half = 1 << (shift - 1)
        if r > half or (r == half and q & 1):
            q += 1
        a = q << shift
    x = float(a)  # exact: at most 24 significant bits
    bits = b32(x)  # a >= 2^128 would be inf; cannot happen for 64-bit ints
    return bits | (0x80000000 if neg else 0)


def fdiv(a, b):
    if b == 0:
        if a != a or a == 0:
            return math.nan
        return math.copysign(math.inf, math.copysign(1, a) * math.copysign(1, b))
    return a / b


def fsqrt(a):
    if a != a:
        return a
    if a < 0:
        return math.nan
    return math.sqrt(a)


def fmin(a, b):
    if a != a or b != b:
        return math.nan
    if a == b == 0:
        return a if math.copysign(1, a) < 0 else b
    return a if a < b else b


def fmax(a, b):
    if a != a or b != b:
        return math.nan
    if a == b == 0:
        return a if math.copysign(1, a) > 0 else b
    return a if a > b else b


def d_to_int(x, w, signed):
    if x != x:
        return 0
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)
    if x == math.inf:
        return hi & ((1 << w) - 1)
    if x == -math.inf:
        return lo & ((1 << w) - 1)
    v = math.trunc(x)
    v = max(lo, min(hi, v))
    return v & ((1 << w) - 1)


def sdiv(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def smod(a, b):
    return a - b * sdiv(a, b)


def clz(x, w):
    return w - x.bit_length()


# ---- parsing -------------------------------------------------------------------

VALUE_RE = re.compile(r"^\s*(Void|Int32|Int64|Float|Double)\s+@(\d+)\s*=\s*(\w+)(?:<([^>]*)>)?\((.*)\)\s*$")


def split_args(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


class Value:
    __slots__ = ("num", "type", "op", "flags", "kids", "meta", "refs")

    def __init__(self, num, typ, op, flags):
        self.num, self.type, self.op, self.flags = num, typ, op, flags
        self.kids = []
        self.meta = {}
        self.refs = []


class Proc:
    def __init__(self, name):
        self.name = name
        self.blocks = {}
        self.order = []
        self.vars = {}
        self.slots = {}


def parse_const(typ, arg):
    arg = arg.strip()
    if typ in ("Int32", "Int64"):
        return int(arg, 0) & MASK[typ]
    m = re.match(r"bits\((.*)\)$", arg)
    if m:
        return int(m.group(1), 0) & MASK[typ]
    if arg in ("inf", "-inf", "nan"):
        x = float(arg)
    elif "0x" in arg.lower() and "p" in arg.lower():
        x = float.fromhex(arg)
    else:
        x = float(arg)
    if typ == "Float":
        # Literals round once, straight to float: parse with C's strtof.
        libc = ctypes.CDLL(None)
        libc.strtof.restype = ctypes.c_float
        libc.strtof.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
        return b32(libc.strtof(arg.encode(), None))
    return b64(x)


def parse_module(text):
    procs = {}
    cur = None
    block = None
    section = None
    in_data = False
    for line in text.splitlines():
        s = line.split(";", 1)[0].rstrip()
        if not s.strip():
            continue
        st = s.strip()
        if st.startswith("extern "):
            continue
        if cur is None and st.startswith("data "):
            in_data = True  # the contents come from the plan
            continue
        if in_data:
            in_data = st != "}"
            continue
        m = re.match(r"proc @(\w+)", st)
        if m and cur is None:
            in_data = False
            cur = Proc(m.group(1))
            procs[cur.name] = cur
            continue
        if st == "}":
            cur = None
            block = None
            section = None
            continue
        m = re.match(r"BB#(\d+):$", st)
        if m:
            block = {"num": int(m.group(1)), "values": [], "succ": None}
            cur.blocks[block["num"]] = block
            cur.order.append(block["num"])
            section = None
            continue
        if st == "Variables:":
            section = "vars"
            continue
        if st == "Stack slots:":
            section = "slots"
            continue
        if st.startswith("Predecessors:"):
            continue
        if st.startswith("Successors:"):
            block["succ"] = parse_successors(st[len("Successors:"):])
            continue
        if section == "vars":
            t, name = st.split()
            cur.vars[name] = t
            continue
        if section == "slots":
            m = re.match(r"(\w+): byteSize = (\d+)", st)
            cur.slots[m.group(1)] = int(m.group(2))
            continue
        m = VALUE_RE.match(s)
        if not m:
            raise InterpError("cannot parse: " + line)
        typ, num, op, flags, args = m.groups()
        v = Value(int(num), typ, op, flags or "")
        if op.startswith("Const"):
            v.meta["const"] = parse_const(typ, args)
        else:
            for a in split_args(args):
                if "=" in a:
                    k, val = [x.strip() for x in a.split("=", 1)]
                    v.meta[k] = val
                elif a.startswith("^@"):
                    v.refs.append(int(a[2:]))
                elif re.match(r"@\d+", a):
                    v.kids.append(int(a[1:].split(":")[0]))
                else:
                    v.refs.append(a)
        block["values"].append(v)
    return procs


def parse_successors(s):
    out = []
    for part in s.split(","):
        part = part.strip()
        if "->" in part:
            k, b = part.split("->")
            b = b.split(":")[-1]
            out.append((k.strip(), int(b.strip()[1:])))
        else:
            b = part.split(":")[-1]
            out.append((None, int(b.strip()[1:])))
    return out


# ---- execution -----------------------------------------------------------------

class Machine:
    def __init__(self, procs, plan):
        self.procs = procs
        self.plan = plan
        # Each value's type, per procedure (operand types pick the semantics).
        self.types = {name: {v.num: v.type for b in p.blocks.values() for v in b["values"]}
                      for name, p in procs.items()}
        self.curproc = None  # the procedure being run (calls nest)
        self.helpers = {h["name"]: h for h in plan["helpers"]}
        self.handlers = {h["name"]: h for h in plan["handlers"]}
        self.clobbers = set(c["name"] for c in plan.get("clobbers", []))
        self.pinfo = {p["name"]: p for p in plan["procs"]}
        self.size = plan["buf_size"] + 2 * plan["guard"]
        self.base = 0x10000000
        self.regions = []
        self.out = []
        self.steps = 0
        self.next_addr = 0x20000000
        self.entry_stack = []

    # memory
    def region(self, addr, n):
        for base, data in self.regions:
            if base <= addr and addr + n <= base + len(data):
                return data, addr - base
        raise InterpError("out-of-bounds access at 0x%x (%d bytes)" % (addr, n))

    def load(self, addr, n):
        data, i = self.region(addr, n)
        return int.from_bytes(data[i:i + n], "little")

    def store(self, addr, n, v):
        data, i = self.region(addr, n)
        data[i:i + n] = (v & ((1 << (8 * n)) - 1)).to_bytes(n, "little")

    def alloc(self, n):
        a = self.next_addr
        self.next_addr += (n + 0x1000) & ~0xFFF
        data = bytearray(n)
        self.regions.append((a, data))
        return a

    def free(self, a):
        self.regions = [(b, d) for b, d in self.regions if b != a]

    def run(self):
        mem = bytearray(self.size)
        self.regions = [(self.base, mem)]
        self.mem = mem
        self.data = {}
        for d in self.plan.get("data", []):
            a = self.alloc(len(d["bytes"]) // 2)
            self.region(a, 1)[0][:] = bytes.fromhex(d["bytes"])
            self.data[d["name"]] = a
        for k, c in enumerate(self.plan["calls"]):
            for i in range(self.size):
                mem[i] = (i * 37 + c["salt"] * 11 + (i >> 3) * 5) & 0xFF
            self.trace = 0
            p = self.pinfo[c["proc"]]
            self.out.append("== %d %s" % (k, p["name"]))
            r = self.call_proc(p["name"], [self.base + self.plan["guard"]] + c["args"])
            self.out.append(fmt_ret(p["ret"], r))
            for i in range(0, self.size, 32):
                self.out.append("mem" + mem[i:i + 32].hex())
            self.out.append("trace 0x%016x" % self.trace)
            for d in self.plan.get("data", []):
                if not d["readonly"]:
                    a = self.data[d["name"]]
                    self.out.append("%s %s" % (d["name"], self.region(a, 1)[0].hex()))
        self.out.append("done")

    def mix(self, h, v):
        return ((h * 0x100000001B3) & M64) ^ (v & M64)

    def call_helper(self, h, args):
        if h["kind"] == "poke":
            p, off, v = args
            a = p + (off & 0x78)
            old = self.load(a, 8)
            self.store(a, 8, v)
            self.trace = self.mix(self.trace, 0x5EED)
            self.trace = self.mix(self.trace, old)
            return old ^ 0x1111
        x = h["id"]
        for t, v in zip(h["params"], args):
            if t in ("Float", "Double"):
                v = 0x7777 if dec(t, v) != dec(t, v) else v
            x = self.mix(x, v)
        self.trace = self.mix(self.trace, x)
        r = h["ret"]
        if r == "Int32":
            return (x >> 7) & M32
        if r == "Int64":
            return x
        if r == "Double":
            return b64(float(sgn(x >> 20, 64)) * 0.125)
        if r == "Float":
            return b32(float(sgn((x >> 40) & M32, 32)) * 0.25)
        return None

    def call_handler(self, name, args):
        hd = self.handlers[name]
        parts = ["exit " + name]
        for t, v in zip(hd["params"], args):
            if t == "Int32":
                parts.append(" i32:0x%08x" % v)
            elif t == "Int64":
                parts.append(" i64:0x%016x" % v)
            elif t == "Float":
                parts.append(" f32: nan" if f32(v) != f32(v) else " f32: 0x%08x" % v)
            else:
                parts.append(" f64: nan" if f64(v) != f64(v) else " f64: 0x%016x" % v)
        self.out.append("".join(parts))
        k = hd["id"]
        return {"Int32": 0x5A5A0000 + k, "Int64": 0x5A5A5A5A00000000 + k, "Float": 0x3FC00000 + (k << 8),
                "Double": 0x3FF8000000000000 + (k << 20), "Void": None}[hd["ret"]]

    def call(self, name, args):
        if name in self.pinfo:
            return self.call_proc(name, args)
        if name in self.helpers:
            return self.call_helper(self.helpers[name], args)
        raise InterpError("call to unknown symbol " + name)

    def call_proc(self, name, args):
        p = self.pinfo[name]
        self.entry_stack.append(p.get("entry", 0))
        try:
            return self.call_entry(p, args)
        finally:
            self.entry_stack.pop()

    def call_entry(self, p, args):
        name = p.get("proc", p["name"])
        regs = {"argumentGPR0": args[0]}
        # The C convention's integer argument registers: 6 on x86-64, 8 on
        # arm64 (the plan's target); the rest go on the stack.
        ngpr = 8 if self.plan.get("target") == "aarch64" else 6
        gp = ["argumentGPR%d" % i for i in range(1, ngpr)]
        fp = ["argumentFPR%d" % i for i in range(8)]
        stack = []
        for t, v in zip(p["params"], args[1:]):
            bank = gp if t in ("Int32", "Int64") else fp
            if bank:
                regs[bank.pop(0)] = v
            else:
                stack.append(v)
        frame = self.alloc(16 + 8 * len(stack))
        for i, v in enumerate(stack):
            self.store(frame + 16 + 8 * i, 8, v)
        slots = {n: self.alloc(sz) for n, sz in self.procs[name].slots.items()}
        try:
            return self.exec_proc(self.procs[name], regs, frame, slots)
        except ProcExit as e:
            return e.value
        finally:
            self.free(frame)
            for a in slots.values():
                self.free(a)

    def exec_proc(self, proc, regs, frame, slots):
        saved = self.curproc
        self.curproc = proc
        try:
            return self.exec_proc1(proc, regs, frame, slots)
        finally:
            self.curproc = saved

    def exec_proc1(self, proc, regs, frame, slots):
        vals = {}
        phis = {}
        var = {}
        bnum = proc.order[0]
        while True:
            block = proc.blocks[bnum]
            nxt = None
            for v in block["values"]:
                self.steps += 1
                if self.steps > 5_000_000:
                    raise InterpError("too many steps")
                op = v.op
                t = v.type
                k = [vals[x] for x in v.kids]
                if op in ("Jump", "Branch", "Switch", "EntrySwitch"):
                    succ = block["succ"]
                    if op == "EntrySwitch":
                        nxt = succ[self.entry_stack[-1]][1]
                    elif op == "Jump":
                        nxt = succ[0][1]
                    elif op == "Branch":
                        nxt = succ[0][1] if k[0] else succ[1][1]
                    else:
                        x = k[0]
                        nxt = None
                        for key, b in succ:
                            if key == "default":
                                dflt = b
                            elif (int(key) & M64) == sext_to64(x, self.kid_type(proc, v.kids[0])):
                                nxt = b
                        if nxt is None:
                            nxt = dflt
                    break
                if op == "Return":
                    return k[0] if k else None
                if op == "Oops":
                    raise InterpError("Oops reached")
                vals[v.num] = self.eval(v, k, t, regs, frame, slots, phis, var, proc)
            else:
                raise InterpError("block without terminal")
            bnum = nxt

    def kid_type(self, proc, num):
        return self.types[proc.name][num]

    def eval(self, v, k, t, regs, frame, slots, phis, var, proc):
        op = v.op
        if op.startswith("Const"):
            return v.meta["const"]
        if t in ("Int32", "Int64"):
            m = MASK[t]
            w = BITS[t]
        f = _OPS.get(op)
        if f is not None:
            return f(self, v, k, t)
        if op == "ArgumentReg":
            r = regs[v.refs[0][1:]]
            return r
        if op == "FramePointer":
            return frame
        if op == "SlotBase":
            return slots[v.refs[0]]
        if op == "SymbolAddress":
            name = v.refs[0][1:]
            if name in self.data:
                return self.data[name] + int(v.meta.get("offset", "0"))
            return ("sym", name)
        if op == "Phi":
            if v.num not in phis:
                raise InterpError("Phi @%d read before any Upsilon" % v.num)
            return phis[v.num]
        if op == "Upsilon":
            phis[v.refs[0]] = k[0]
            return None
        if op == "Set":
            var[v.refs[0]] = k[0]
            return None
        if op == "Get":
            if v.refs[0] not in var:
                raise InterpError("Get before Set")
            return var[v.refs[0]]
        if op == "CCall":
            callee = k[0]
            if not isinstance(callee, tuple):
                raise InterpError("call through a non-symbol")
            return self.call(callee[1], k[1:])
        if op == "Patchpoint":
            gen = v.meta.get("generator", "nop(0)")
            if gen.startswith("@"):
                if gen[1:] in self.clobbers:
                    return None  # it only trashes registers
                return self.call(gen[1:], k)
            if t != "Void":
                raise InterpError("result of a no-op patchpoint")
            return None
        if op == "Check":
            if k[0]:
                raise ProcExit(self.call_handler(v.meta["exit"][1:], k[1:]))
            return None
        if op in ("CheckAdd", "CheckSub", "CheckMul"):
            a, b = sgn(k[0], w), sgn(k[1], w)
            r = a + b if op == "CheckAdd" else a - b if op == "CheckSub" else a * b
            if r < -(1 << (w - 1)) or r >= 1 << (w - 1):
                raise ProcExit(self.call_handler(v.meta["exit"][1:], k))
            return r & m
        if op in ("Load", "Load8Z", "Load8S", "Load16Z", "Load16S"):
            addr = k[0] + int(v.meta.get("offset", "0"))
            if op == "Load":
                return self.load(addr, BITS[t] // 8)
            n = 1 if "8" in op else 2
            x = self.load(addr, n)
            if op.endswith("S"):
                x = sgn(x, 8 * n)
            return x & M32
        if op in ("Store", "Store8", "Store16"):
            addr = k[1] + int(v.meta.get("offset", "0"))
            n = {"Store8": 1, "Store16": 2}.get(op)
            if n is None:
                n = BITS[self.kid_type(proc, v.kids[0])] // 8
            self.store(addr, n, k[0])
            return None
        if op.startswith("Atomic"):
            return self.atomic(v, k, t, proc)
        if op == "Fence":
            return None
        if op == "Nop":
            return None
        raise InterpError("unsupported opcode " + op)

    def atomic(self, v, k, t, proc):
        op = v.op
        vt = self.kid_type(proc, v.kids[0])
        width = int(v.meta.get("width", BITS[vt]))
        n = width // 8
        wm = (1 << width) - 1
        addr = k[-1] + int(v.meta.get("offset", "0"))
        old = self.load(addr, n)
        ext = sgn(old, width) & MASK[vt]
        if op in ("AtomicStrongCAS", "AtomicWeakCAS"):
            e, nv = k[0], k[1]
            ok = (e & wm) == old
            if ok:
                self.store(addr, n, nv & wm)
            if op == "AtomicWeakCAS":
                return 1 if ok else 0
            return ext
        x = k[0]
        new = {"AtomicXchgAdd": old + x, "AtomicXchgSub": old - x, "AtomicXchgAnd": old & x,
               "AtomicXchgOr": old | x, "AtomicXchgXor": old ^ x, "AtomicXchg": x}[op]
        self.store(addr, n, new & wm)
        return ext


def sext_to64(x, t):
    return (sgn(x, 32) & M64) if t == "Int32" else x


def fmt_ret(t, r):
    if t == "Void":
        return "ret void"
    if t == "Int32":
        return "ret i32 0x%08x" % r
    if t == "Int64":
        return "ret i64 0x%016x" % r
    if t == "Float":
        return "ret f32 nan" if f32(r) != f32(r) else "ret f32 0x%08x" % r
    return "ret f64 nan" if f64(r) != f64(r) else "ret f64 0x%016x" % r


# ---- pure operations ----------------------------------------------------------

def _arith(m, v, k, t):
    op = v.op
    if t in ("Int32", "Int64"):
        w = BITS[t]
        mk = MASK[t]
        a = k[0]
        b = k[1] if len(k) > 1 else None
        if op == "Add":
            return (a + b) & mk
        if op == "Sub":
            return (a - b) & mk
        if op == "Mul":
            return (a * b) & mk
        if op == "Neg":
            return (-a) & mk
        sa, sb = sgn(a, w), sgn(b, w)
        if op == "Div":
            if "Chill" in v.flags:
                if sb == 0:
                    return 0
                if sa == -(1 << (w - 1)) and sb == -1:
                    return a
            elif sb == 0 or (sa == -(1 << (w - 1)) and sb == -1):
                raise InterpError("undefined Div")
            return sdiv(sa, sb) & mk
        if op == "Mod":
            if "Chill" in v.flags:
                if sb == 0 or (sa == -(1 << (w - 1)) and sb == -1):
                    return 0
            elif sb == 0 or (sa == -(1 << (w - 1)) and sb == -1):
                raise InterpError("undefined Mod")
            return smod(sa, sb) & mk
        if op == "UDiv":
            if b == 0:
                raise InterpError("UDiv by 0")
            return a // b
        if op == "UMod":
            if b == 0:
                raise InterpError("UMod by 0")
            return a % b
        raise InterpError("bad int op " + op)
    # floating point
    if op == "Neg":
        return k[0] ^ (1 << (BITS[t] - 1))
    a = dec(t, k[0])
    b = dec(t, k[1]) if len(k) > 1 else None
    if op == "Add":
        r = a + b
    elif op == "Sub":
        r = a - b
    elif op == "Mul":
        r = a * b
    elif op == "Div":
        r = fdiv(a, b)
    elif op == "Mod":
        r = libm.fmod(a, b)
    else:
        raise InterpError("bad fp op " + op)
    return enc(t, r)


def _fp_unary(m, v, k, t):
    op = v.op
    w = BITS[t]
    if op == "Abs":
        return k[0] & ~(1 << (w - 1)) & MASK[t]
    a = dec(t, k[0])
    if op == "Ceil":
        r = libm.ceil(a)
    elif op == "Floor":
        r = libm.floor(a)
    elif op == "Sqrt":
        r = fsqrt(a)
    return enc(t, r)


def _fminmax(m, v, k, t):
    a, b = dec(t, k[0]), dec(t, k[1])
    return enc(t, fmin(a, b) if v.op == "FMin" else fmax(a, b))


def _bitop(m, v, k, t):
    a, b = k
    return {"BitAnd": a & b, "BitOr": a | b, "BitXor": a ^ b}[v.op]


def _shift(m, v, k, t):
    w = BITS[t]
    mk = MASK[t]
    a, s = k[0], k[1] & (w - 1)
    op = v.op
    if op == "Shl":
        return (a << s) & mk
    if op == "SShr":
        return (sgn(a, w) >> s) & mk
    if op == "ZShr":
        return a >> s
    if op == "RotR":
        return ((a >> s) | (a << (w - s))) & mk
    if op == "RotL":
        return ((a << s) | (a >> (w - s))) & mk


def _conv(m, v, k, t):
    op = v.op
    x = k[0]
    st = m.kid_type(m.curproc, v.kids[0]) if v.kids else None
    if op == "Clz":
        return clz(x, BITS[t])
    if op == "SExt8":
        return sgn(x & 0xFF, 8) & M32
    if op == "SExt16":
        return sgn(x & 0xFFFF, 16) & M32
    if op == "SExt32":
        return sgn(x, 32) & M64
    if op == "ZExt32":
        return x
    if op == "Trunc":
        return x & M32
    if op in ("Identity", "Opaque"):
        return x
    if op == "BitwiseCast":
        return x
    if op == "Depend":
        return 0
    if op == "IToD":
        return b64(float(sgn(x, BITS[st])))
    if op == "UToD":
        return b64(float(x))
    if op == "IToF":
        return int_to_f32(sgn(x, BITS[st]))
    if op == "UToF":
        return int_to_f32(x)
    if op == "FloatToDouble":
        return b64(f32(x))
    if op == "DoubleToFloat":
        return b32(f64(x))
    if op == "DToI":
        return d_to_int(dec(st, x), BITS[t], True)
    if op == "DToU":
        return d_to_int(dec(st, x), BITS[t], False)
    raise InterpError("bad conversion " + op)


def _cmp(m, v, k, t):
    st = m.kid_type(m.curproc, v.kids[0])
    op = v.op
    a, b = k
    if st in ("Float", "Double"):
        x, y = dec(st, a), dec(st, b)
        if op == "EqualOrUnordered":
            return int(x != x or y != y or x == y)
    else:
        w = BITS[st]
        if op in ("Above", "Below", "AboveEqual", "BelowEqual"):
            x, y = a, b
            op = {"Above": "GreaterThan", "Below": "LessThan", "AboveEqual": "GreaterEqual", "BelowEqual": "LessEqual"}[op]
        else:
            x, y = sgn(a, w), sgn(b, w)
    return int({"Equal": x == y, "NotEqual": not (x == y), "LessThan": x < y, "GreaterThan": x > y,
                "LessEqual": x <= y, "GreaterEqual": x >= y}[op])


def _select(m, v, k, t):
    return k[1] if k[0] else k[2]


_OPS = {}
for _o in ("Add", "Sub", "Mul", "Div", "Mod", "UDiv", "UMod", "Neg"):
    _OPS[_o] = _arith
for _o in ("Abs", "Ceil", "Floor", "Sqrt"):
    _OPS[_o] = _fp_unary
for _o in ("FMin", "FMax"):
    _OPS[_o] = _fminmax
for _o in ("BitAnd", "BitOr", "BitXor"):
    _OPS[_o] = _bitop
for _o in ("Shl", "SShr", "ZShr", "RotR", "RotL"):
    _OPS[_o] = _shift
for _o in ("Clz", "SExt8", "SExt16", "SExt32", "ZExt32", "Trunc", "Identity", "Opaque", "BitwiseCast", "Depend",
           "IToD", "UToD", "IToF", "UToF", "FloatToDouble", "DoubleToFloat", "DToI", "DToU"):
    _OPS[_o] = _conv
for _o in ("Equal", "NotEqual", "LessThan", "GreaterThan", "LessEqual", "GreaterEqual", "Above", "Below",
           "AboveEqual", "BelowEqual", "EqualOrUnordered"):
    _OPS[_o] = _cmp
_OPS["Select"] = _select


def main():
    d = sys.argv[1]
    with open(os.path.join(d, "prog.b3")) as f:
        procs = parse_module(f.read())
    with open(os.path.join(d, "plan.json")) as f:
        plan = json.load(f)
    m = Machine(procs, plan)
    try:
        m.run()
    except InterpError as e:
        print("\n".join(m.out))
        print("INTERP-ERROR: %s" % e)
        sys.exit(2)
    print("\n".join(m.out))


if __name__ == "__main__":
    main()
