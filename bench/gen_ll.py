#!/usr/bin/env python3
"""Writes a bench/gen.py module as LLVM IR text, the same program, for llc.

    python3 bench/gen_ll.py IN.b3 [-o OUT.ll]

It reads only what bench/gen.py writes (one opcode set, one data item, the
two externs, procedures whose Phis are fed by Upsilons at the end of each
predecessor) and stops on anything else.  Each B3 value becomes one LLVM
instruction, or a few where LLVM needs them to say the same thing:

  - a compare is an icmp/fcmp and a zext to i32; a Select or Branch on an
    integer tests it against 0 first;
  - Int64 pointers are inttoptr'd at each Load/Store (offset by a GEP);
    narrow loads and stores truncate or extend;
  - shifts mask their amount (B3 shifts take it modulo the width; LLVM's are
    poison past it), Int64 shifts widen the Int32 amount; rotates are
    fshl/fshr;
  - Div<Chill>/Mod<Chill> guard the divisor with selects (x/0 = 0, x%0 = 0,
    MIN/-1 = MIN, MIN%-1 = 0);
  - Trunc of a Double is its low 32 bits as a Float (bitcast, trunc,
    bitcast); FMin/FMax compare and select, NaN if either is NaN (llc-16 cannot
    select llvm.minimum on x86-64; the order of -0 and +0 is not kept),
    Abs/Ceil/Floor/Sqrt the matching intrinsics, Clz ctlz;
  - constants and SymbolAddress are folded into their uses (LLVM has no
    constant instructions); ArgumentReg values are the parameters
    (i64, i64, i64, double, double: the registers the B3 procedure reads).

DToI/DToU are fptosi/fptoui (out-of-range results differ from x86's
cvttsd2si, which compile-speed comparisons do not care about).

Checked by running both: modules of 3,000-6,000 values (seeds 5, 11, 23;
SymbolAddress of the data item replaced by a constant and the memory at a
fixed address, so that no address differs), each procedure called with three
argument sets, compiled by b3c -O0 from the .b3 and by llc-16 -O0 from the
.ll, return the same values and leave the same memory.
"""

import argparse
import re
import struct
import sys

LT = {"Int32": "i32", "Int64": "i64", "Float": "float", "Double": "double", "Void": "void"}
WIDTH = {"Int32": 32, "Int64": 64}
INT_BIN = {"Add": "add", "Sub": "sub", "Mul": "mul", "BitAnd": "and", "BitOr": "or", "BitXor": "xor",
           "Div": "sdiv", "Mod": "srem", "UDiv": "udiv", "UMod": "urem"}
FP_BIN = {"Add": "fadd", "Sub": "fsub", "Mul": "fmul", "Div": "fdiv"}
ICMP = {"Equal": "eq", "NotEqual": "ne", "LessThan": "slt", "GreaterThan": "sgt", "LessEqual": "sle",
        "GreaterEqual": "sge", "Above": "ugt", "Below": "ult", "AboveEqual": "uge", "BelowEqual": "ule"}
FCMP = {"Equal": "oeq", "NotEqual": "une", "LessThan": "olt", "GreaterThan": "ogt", "LessEqual": "ole",
        "GreaterEqual": "oge", "EqualOrUnordered": "ueq"}
SHIFT = {"Shl": "shl", "SShr": "ashr", "ZShr": "lshr"}
FP_UN = {"Abs": "fabs", "Ceil": "ceil", "Floor": "floor", "Sqrt": "sqrt"}
LOADS = {"Load8Z": ("i8", "zext"), "Load8S": ("i8", "sext"), "Load16Z": ("i16", "zext"), "Load16S": ("i16", "sext")}
STORES = {"Store8": "i8", "Store16": "i16"}

VALUE = re.compile(r"^\s+(\w+) @(\d+) = (\w+)(<Chill>)?\((.*)\)$")


class Fail(Exception):
    pass


def fp_hex(typ, text):
    x = float(text)
    if typ == "Float":
        x = struct.unpack("<f", struct.pack("<f", x))[0]  # LLVM writes a float as the double it widens to
    return "0x%016X" % struct.unpack("<Q", struct.pack("<d", x))[0]


class Proc:
    def __init__(self, name):
        self.name = name
        self.blocks = []  # [index, [lines of (kind, data)], successors text]
        self.types = {}
        self.consts = {}  # value number -> LLVM operand text
        self.incoming = {}  # phi number -> [(block index, value number)]
        self.tmp = 0

    def fresh(self):
        self.tmp += 1
        return "%%t%d" % self.tmp

    def op(self, n):
        return self.consts.get(n, "%%v%d" % n)


def read(path):
    """Parses the module into (procs); checks its prologue is gen.py's."""
    procs = []
    cur = None
    block = None
    with open(path) as f:
        for line in f:
            s = line.strip()
            if not s or s.startswith(";"):
                continue
            if cur is None:
                m = re.match(r"^proc @(\w+) \{$", s)
                if m:
                    cur = Proc(m.group(1))
                    procs.append(cur)
                elif not (s.startswith("extern @bench_ext") or s.startswith("data @bench_data") or
                          s in ("Int64 1, 2, 3, 4", "Double 0.5, 1.5", "Zero 64", "}")):
                    raise Fail("unexpected line: " + s)
                continue
            if s == "}":
                cur = None
                continue
            m = re.match(r"^BB#(\d+):$", s)
            if m:
                block = [int(m.group(1)), [], None]
                cur.blocks.append(block)
                continue
            if s.startswith("Predecessors:"):
                continue
            if s.startswith("Successors:"):
                block[2] = s[len("Successors:"):].strip()
                continue
            m = VALUE.match(line.rstrip("\n"))
            if not m:
                raise Fail("unexpected line: " + s)
            typ, n, opc, chill, args = m.group(1), int(m.group(2)), m.group(3), bool(m.group(4)), m.group(5)
            cur.types[n] = typ
            block[1].append((typ, n, opc, chill, [a.strip() for a in args.split(",")] if args else []))
            if opc == "Upsilon":
                v, phi = block[1][-1][4]
                cur.incoming.setdefault(int(phi[2:]), []).append((block[0], int(v[1:])))
    return procs


def refs(args):
    return [int(a[1:]) for a in args if re.match(r"^@\d+$", a)]


def keyword(args, key):
    for a in args:
        if a.startswith(key + " = "):
            return a[len(key) + 3:]
    return None


def succ_targets(text):
    return [int(t) for t in re.findall(r"#(\d+)", text)]


def emit_proc(p, out):
    w = out.append
    # Constants, symbols and parameters first: they are folded into uses.
    params = {"%argumentGPR0": "%a0", "%argumentGPR1": "%a1", "%argumentGPR2": "%a2",
              "%argumentFPR0": "%f0", "%argumentFPR1": "%f1"}
    for _, lines, _ in p.blocks:
        for typ, n, opc, _, args in lines:
            if opc in ("Const32", "Const64"):
                p.consts[n] = args[0]
            elif opc in ("ConstFloat", "ConstDouble"):
                p.consts[n] = fp_hex(typ, args[0])
            elif opc == "ArgumentReg":
                p.consts[n] = params[args[0]]
            elif opc == "SymbolAddress":
                sym = args[0][1:]
                off = keyword(args[1:], "offset")
                ptr = "@%s" % sym if not off else "getelementptr (i8, ptr @%s, i64 %s)" % (sym, off)
                p.consts[n] = "ptrtoint (ptr %s to i64)" % ptr
                p.consts[("sym", n)] = sym
    w("define i64 @%s(i64 %%a0, i64 %%a1, i64 %%a2, double %%f0, double %%f1) {" % p.name)
    for bi, (index, lines, succ) in enumerate(p.blocks):
        w("b%d:" % index)
        for typ, n, opc, chill, args in lines:
            if n in p.consts:
                continue
            lt = LT[typ]
            v = "%%v%d" % n
            kids = refs(args)
            ops = [p.op(k) for k in kids]
            ktyp = [p.types[k] for k in kids]
            if opc == "Phi":
                inc = ", ".join("[ %s, %%b%d ]" % (p.op(val), b) for b, val in p.incoming.get(n, []))
                w("  %s = phi %s %s" % (v, lt, inc))
            elif opc == "Upsilon":
                pass
            elif opc in ("Div", "Mod") and chill:
                w(chill_div(p, v, lt, typ, opc, ops))
            elif opc in INT_BIN and typ in WIDTH:
                w("  %s = %s %s %s, %s" % (v, INT_BIN[opc], lt, ops[0], ops[1]))
            elif opc in FP_BIN and typ in ("Float", "Double"):
                w("  %s = %s %s %s, %s" % (v, FP_BIN[opc], lt, ops[0], ops[1]))
            elif opc in ("FMin", "FMax"):
                o, s_, u = p.fresh(), p.fresh(), p.fresh()
                w("  %s = fcmp %s %s %s, %s" % (o, "olt" if opc == "FMin" else "ogt", lt, ops[0], ops[1]))
                w("  %s = select i1 %s, %s %s, %s %s" % (s_, o, lt, ops[0], lt, ops[1]))
                w("  %s = fcmp uno %s %s, %s" % (u, lt, ops[0], ops[1]))
                w("  %s = select i1 %s, %s 0x7FF8000000000000, %s %s" % (v, u, lt, lt, s_))
            elif opc in FP_UN:
                w("  %s = call %s @llvm.%s.%s(%s %s)" % (v, lt, FP_UN[opc], "f32" if lt == "float" else "f64", lt, ops[0]))
            elif opc == "Neg":
                if typ in WIDTH:
                    w("  %s = sub %s 0, %s" % (v, lt, ops[0]))
                else:
                    w("  %s = fneg %s %s" % (v, lt, ops[0]))
            elif opc == "Clz":
                w("  %s = call %s @llvm.ctlz.%s(%s %s, i1 false)" % (v, lt, lt, lt, ops[0]))
            elif opc in SHIFT or opc in ("RotL", "RotR"):
                amt = ops[1]
                if lt == "i64":
                    if kids[1] in p.consts:
                        amt = str(int(p.consts[kids[1]]) & 63)
                    else:
                        t = p.fresh()
                        w("  %s = zext i32 %s to i64" % (t, amt))
                        amt = t
                elif kids[1] in p.consts:
                    amt = str(int(p.consts[kids[1]]) & 31)
                if opc in SHIFT:
                    if kids[1] not in p.consts:
                        t = p.fresh()
                        w("  %s = and %s %s, %d" % (t, lt, amt, WIDTH[typ] - 1))
                        amt = t
                    w("  %s = %s %s %s, %s" % (v, SHIFT[opc], lt, ops[0], amt))
                else:
                    fn = "fshl" if opc == "RotL" else "fshr"
                    w("  %s = call %s @llvm.%s.%s(%s %s, %s %s, %s %s)" % (v, lt, fn, lt, lt, ops[0], lt, ops[0], lt, amt))
            elif opc in ICMP or opc in FCMP:
                t = p.fresh()
                if ktyp[0] in WIDTH:
                    w("  %s = icmp %s %s %s, %s" % (t, ICMP[opc], LT[ktyp[0]], ops[0], ops[1]))
                else:
                    w("  %s = fcmp %s %s %s, %s" % (t, FCMP[opc], LT[ktyp[0]], ops[0], ops[1]))
                w("  %s = zext i1 %s to i32" % (v, t))
            elif opc == "Select":
                t = p.fresh()
                w("  %s = icmp ne %s %s, 0" % (t, LT[ktyp[0]], ops[0]))
                w("  %s = select i1 %s, %s %s, %s %s" % (v, t, lt, ops[1], lt, ops[2]))
            elif opc == "BitwiseCast":
                w("  %s = bitcast %s %s to %s" % (v, LT[ktyp[0]], ops[0], lt))
            elif opc == "Trunc" and typ == "Int32":
                w("  %s = trunc i64 %s to i32" % (v, ops[0]))
            elif opc == "Trunc":
                a, b = p.fresh(), p.fresh()
                w("  %s = bitcast double %s to i64" % (a, ops[0]))
                w("  %s = trunc i64 %s to i32" % (b, a))
                w("  %s = bitcast i32 %s to float" % (v, b))
            elif opc in ("SExt8", "SExt16"):
                t = p.fresh()
                nt = "i8" if opc == "SExt8" else "i16"
                w("  %s = trunc i32 %s to %s" % (t, ops[0], nt))
                w("  %s = sext %s %s to i32" % (v, nt, t))
            elif opc in ("SExt32", "ZExt32"):
                w("  %s = %s i32 %s to i64" % (v, "sext" if opc == "SExt32" else "zext", ops[0]))
            elif opc in ("IToD", "IToF", "UToD", "UToF"):
                w("  %s = %s %s %s to %s" % (v, "sitofp" if opc[0] == "I" else "uitofp", LT[ktyp[0]], ops[0], lt))
            elif opc in ("DToI", "DToU"):
                w("  %s = %s %s %s to %s" % (v, "fptosi" if opc == "DToI" else "fptoui", LT[ktyp[0]], ops[0], lt))
            elif opc == "FloatToDouble":
                w("  %s = fpext float %s to double" % (v, ops[0]))
            elif opc == "DoubleToFloat":
                w("  %s = fptrunc double %s to float" % (v, ops[0]))
            elif opc == "Load" or opc in LOADS:
                addr = address(p, w, ops[0], keyword(args, "offset"))
                if opc == "Load":
                    w("  %s = load %s, ptr %s, align 1" % (v, lt, addr))
                else:
                    nt, ext = LOADS[opc]
                    t = p.fresh()
                    w("  %s = load %s, ptr %s, align 1" % (t, nt, addr))
                    w("  %s = %s %s %s to i32" % (v, ext, nt, t))
            elif opc == "Store" or opc in STORES:
                addr = address(p, w, ops[1], keyword(args, "offset"))
                val, vt = ops[0], LT[ktyp[0]]
                if opc in STORES:
                    t = p.fresh()
                    w("  %s = trunc i32 %s to %s" % (t, val, STORES[opc]))
                    val, vt = t, STORES[opc]
                w("  store %s %s, ptr %s, align 1" % (vt, val, addr))
            elif opc == "CCall":
                sym = p.consts.get(("sym", kids[0]))
                if not sym:
                    raise Fail("CCall of a computed callee")
                a = ", ".join("%s %s" % (LT[t], o) for t, o in zip(ktyp[1:], ops[1:]))
                w("  %s = call %s @%s(%s)" % (v, lt, sym, a))
            elif opc == "Jump":
                w("  br label %%b%d" % succ_targets(succ)[0])
            elif opc == "Branch":
                t = p.fresh()
                tt = succ_targets(succ)
                w("  %s = icmp ne %s %s, 0" % (t, LT[ktyp[0]], ops[0]))
                w("  br i1 %s, label %%b%d, label %%b%d" % (t, tt[0], tt[1]))
            elif opc == "Switch":
                cases = re.findall(r"(-?\d+)->#(\d+)", succ)
                default = re.search(r"default->#(\d+)", succ).group(1)
                kt = LT[ktyp[0]]
                body = " ".join("%s %s, label %%b%s" % (kt, c, b) for c, b in cases)
                w("  switch %s %s, label %%b%s [ %s ]" % (kt, ops[0], default, body))
            elif opc == "Return":
                w("  ret i64 %s" % ops[0])
            else:
                raise Fail("opcode %s (%s) is not one bench/gen.py writes" % (opc, typ))
    w("}")


def address(p, w, base, offset):
    t = p.fresh()
    w("  %s = inttoptr i64 %s to ptr" % (t, base))
    if not offset or offset == "0":
        return t
    g = p.fresh()
    w("  %s = getelementptr i8, ptr %s, i64 %s" % (g, t, offset))
    return g


def chill_div(p, v, lt, typ, opc, ops):
    """x/0 = 0 and MIN/-1 = MIN (x%0 = 0, MIN%-1 = 0) without a trap."""
    lo = -(1 << (WIDTH[typ] - 1))
    z, m1, mn, ov, bad, den, q = (p.fresh() for _ in range(7))
    inst = "sdiv" if opc == "Div" else "srem"
    lines = [
        "  %s = icmp eq %s %s, 0" % (z, lt, ops[1]),
        "  %s = icmp eq %s %s, -1" % (m1, lt, ops[1]),
        "  %s = icmp eq %s %s, %d" % (mn, lt, ops[0], lo),
        "  %s = and i1 %s, %s" % (ov, m1, mn),
        "  %s = or i1 %s, %s" % (bad, z, ov),
        "  %s = select i1 %s, %s 1, %s %s" % (den, bad, lt, lt, ops[1]),
        "  %s = %s %s %s, %s" % (q, inst, lt, ops[0], den),
    ]
    if opc == "Div":
        r = p.fresh()
        lines.append("  %s = select i1 %s, %s 0, %s %s" % (r, z, lt, lt, q))
        lines.append("  %s = select i1 %s, %s %d, %s %s" % (v, ov, lt, lo, lt, r))
    else:
        lines.append("  %s = select i1 %s, %s 0, %s %s" % (v, bad, lt, lt, q))
    return "\n".join(lines)


PROLOGUE = """target triple = "x86_64-pc-linux-gnu"

@bench_data = internal global <{ [4 x i64], [2 x double], [64 x i8] }> <{ [4 x i64] [i64 1, i64 2, i64 3, i64 4], [2 x double] [double 5.000000e-01, double 1.500000e+00], [64 x i8] zeroinitializer }>, align 16

declare i64 @bench_ext(i64, i64)
declare double @bench_extd(double)
declare float @llvm.fabs.f32(float)
declare double @llvm.fabs.f64(double)
declare float @llvm.ceil.f32(float)
declare double @llvm.ceil.f64(double)
declare float @llvm.floor.f32(float)
declare double @llvm.floor.f64(double)
declare float @llvm.sqrt.f32(float)
declare double @llvm.sqrt.f64(double)
declare i32 @llvm.ctlz.i32(i32, i1)
declare i64 @llvm.ctlz.i64(i64, i1)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i64 @llvm.fshl.i64(i64, i64, i64)
declare i32 @llvm.fshr.i32(i32, i32, i32)
declare i64 @llvm.fshr.i64(i64, i64, i64)
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input", help="a module bench/gen.py wrote")
    ap.add_argument("-o", "--output", default="-", help="output file (default stdout)")
    args = ap.parse_args()
    try:
        procs = read(args.input)
        out = [PROLOGUE]
        for p in procs:
            out.append("")
            emit_proc(p, out)
    except Fail as e:
        sys.exit("gen_ll.py: %s: %s" % (args.input, e))
    text = "\n".join(out) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
