#!/usr/bin/env python3
"""Seeded generator of random, valid, deterministic B3 modules for
differential testing of b3c against testsuite/difftest/interp.py.

    python3 gen_random.py SEED OUTDIR [--size N]

writes OUTDIR/prog.b3 (the module), OUTDIR/driver.c (a C main that calls
every procedure on several argument sets and prints what it observes) and
OUTDIR/plan.json (the calls, helpers and handlers, for the interpreter).

Every procedure is a C function  RET name(uint8_t *buf, PARAMS...)  where buf
points into a scratch buffer (BUF_SIZE bytes, with guard zones on both sides
that nothing may touch).  The body exercises the core language: integer and
floating-point arithmetic (Div/Mod with and without Chill, UDiv/UMod,
shifts/rotates by any amount, Clz), bitwise ops on floats, conversions,
comparisons (NaN, -0), Select, loads and stores (offsets, index scaling, stack
slots), Variables, Branch / Switch (dense and sparse) / loops with
Phi/Upsilon and bounded trip counts, calls to C helpers (more arguments than
registers) and to the other procedures, high register pressure across calls,
Check/CheckAdd/CheckSub/CheckMul exiting to recording handlers, and atomics.

Determinism rules the generator keeps (so the interpreter can predict
everything):
  - non-Chill Div/Mod only with a positive divisor; UDiv/UMod never by 0;
  - NaN payloads are unspecified, so every place where the bits of a float
    become observable (BitwiseCast to an integer, bitwise ops on floats,
    stores, Trunc of a Double) first canonicalizes NaN with
    Select(Equal(x, x), x, CANON); the driver prints any NaN as "nan";
  - memory accesses stay in the buffer or in stack slots that the root block
    initializes; variables are Set in the root block;
  - pointers (buf, slot bases, the frame pointer) never flow into arithmetic
    whose result is observed;
  - loops count an Int32 Phi up to a small bound.

Shapes that can be switched (--shapes=LIST, a comma-separated subset of
SHAPES; default DEFAULT_SHAPES; "all" for every one):
  affine      in loops, a second counter (Int64, from any start by any
              step) and expressions of the counters built by Add, Sub, Neg,
              Mul and Shl by a constant, with wrapping, observed (what
              reduce_loop_strength makes induction variables of).  Off by
              default (it would change the default modules);
  cmp-reuse   a compare result used twice: c = LessThan(a, b);
              d = NotEqual(c, 0) (or Equal(c, 0), Equal(Equal(c, 0), 0), c);
              Branch(d) or Select(d, ...), and d also in a Return, an
              Upsilon, a Select, ZExt32, a Check, an observation -- so d is
              needed in a register as well as fused into its user;
  dead-phi    Phis in unreachable blocks written by Upsilons in reachable
              code, and unreachable predecessors of a join whose Upsilons
              write its Phis (unreachable blocks are dropped: their Upsilons
              become Nops);
  jump-chain  chains of empty blocks (just a Jump) on the edges of branches,
              joins and loop back edges;
  eq-chain    one integer value compared with constants by a chain of
              blocks (Equal/NotEqual and Branch, Branch on the value itself,
              small Switches), some with another value in the way; the arms
              use the value and test it again (what infer_switches and
              fold_path_constants look for).  Off by default (it would
              change the default modules);
  float-widen Double arithmetic on widened Floats, narrowed back
              (DoubleToFloat(Add(FloatToDouble(a), FloatToDouble(b))), unary
              ops, constants a float may or may not hold, a Mul feeding an
              Add, comparisons), the result sometimes also used as Double:
              what reduce_double_to_float narrows and what it must not.
              Off by default (it would change the default modules);
  small-callees  after the other procedures (from a random generator of its
              own, so they stay as they were), two small procedures with few
              arguments and one entry, and a caller that calls them often
              (what inline_procedures copies into its callers).
A shape that is off draws no random numbers: the modules are those of a
generator without it.

Kinds of values that can be left out (--without=LIST, for a target whose
backend does not lower them yet): "atomics" (the atomic operations and
Depend; Fence stays) and "checks" (Check, CheckAdd/Sub/Mul and Patchpoint);
"stack-args" keeps every call between C and b3 code in argument registers
(at most 8 integer and 8 floating-point arguments: procedures, helpers, exit
handlers), for arm64 macOS, whose stack arguments (packed by size) differ
from the Linux C driver's.  Unlike a shape, leaving one out changes the rest
of the module.
"""

import json
import os
import random
import re
import sys

TYPES = ("Int32", "Int64", "Float", "Double")
INTS = ("Int32", "Int64")
FPS = ("Float", "Double")
CT = {"Int32": "int32_t", "Int64": "int64_t", "Float": "float", "Double": "double", "Void": "void"}
WIDTH = {"Int32": 32, "Int64": 64, "Float": 32, "Double": 64}

BUF_SIZE = 256          # bytes the procedures may touch
GUARD = 64              # untouched bytes on each side
CANON = {"Float": 0x7FC01234, "Double": 0x7FF80000DEADBEEF}

FLOAT_BITS = [0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x3F000000, 0x40490FDB,
              0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001, 0x807FFFFF, 0x7F7FFFFF,
              0x4F000000, 0xCF000000, 0x5F000000, 0x4EFFFFFF, 0xCF000001, 0x3EAAAAAB,
              0x4B000001, 0xC2F6E979, 0x5F800000, 0x3FC00000, 0xBFC00000, 0x40200000]
DOUBLE_BITS = [0x0000000000000000, 0x8000000000000000, 0x3FF0000000000000, 0xBFF0000000000000,
               0x3FE0000000000000, 0x400921FB54442D18, 0x7FF0000000000000, 0xFFF0000000000000,
               0x7FF8000000000000, 0x0000000000000001, 0x800FFFFFFFFFFFFF, 0x7FEFFFFFFFFFFFFF,
               0x41E0000000000000, 0xC1E0000000000000, 0x41DFFFFFFFC00000, 0xC1E0000000200000,
               0x43E0000000000000, 0xC3E0000000000000, 0x43F0000000000000, 0x43DFFFFFFFFFFFFF,
               0x3FD5555555555555, 0x4330000000000001, 0xC0934A456D5CFAAD, 0x3FF8000000000000,
               0xBFF8000000000000, 0x4004000000000000, 0x41EFFFFFFFE00000, 0x3E7AD7F29ABCAF48]
INT32_SPECIAL = [0, 1, -1, 2, 3, 7, 31, 32, 33, 63, 64, 255, 256, 0x7FFF, 0x8000, 0xFFFF,
                 0x7FFFFFFF, -0x80000000, -0x7FFFFFFF, 0x55555555, -0x55555556, 1000000, -12345]
INT64_SPECIAL = [0, 1, -1, 2, 7, 63, 64, 0xFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x100000000,
                 -0x80000000, -0x80000001, 0x7FFFFFFFFFFFFFFF, -0x8000000000000000,
                 0x5555555555555555, 0x123456789ABCDEF0, -0x123456789, 1 << 40, 1 << 53, (1 << 53) + 1]


SHAPES = ("affine", "cmp-reuse", "dead-phi", "eq-chain", "float-widen", "jump-chain", "small-callees")
# cmp-reuse found a compare-fusion bug (a compare fused through
# Equal/NotEqual(x, 0) whose result had other uses); it is on by default.
DEFAULT_SHAPES = ("cmp-reuse", "dead-phi", "jump-chain", "small-callees")


WITHOUT = ("atomics", "checks", "stack-args")
# "stack-args": the argument registers of each bank (AArch64 has the fewest).
REG_ARGS = {"gp": 8, "fp": 8}


def reg_args_only(params, gp, fp):
    """params without those past the first gp integer and fp float ones."""
    out = []
    for t in params:
        if sum(1 for x in out if (x in INTS) == (t in INTS)) < (gp if t in INTS else fp):
            out.append(t)
    return out


def parse_without(text):
    """--without=LIST: kinds of values the modules leave out (WITHOUT)."""
    names = set(x.strip() for x in (text or "").split(",") if x.strip())
    for name in names:
        if name not in WITHOUT:
            raise ValueError("unknown kind %r (known: %s)" % (name, ", ".join(WITHOUT)))
    return names


def parse_shapes(text):
    """--shapes=LIST: "all", "default", "none", or names, each optionally
    prefixed with + (add to the default) or - (remove from it)."""
    if text in (None, "", "default"):
        return set(DEFAULT_SHAPES)
    if text == "all":
        return set(SHAPES)
    if text == "none":
        return set()
    names = [x.strip() for x in text.split(",") if x.strip()]
    shapes = set(DEFAULT_SHAPES) if all(x[0] in "+-" for x in names) else set()
    for x in names:
        name = x.lstrip("+-")
        if name not in SHAPES:
            raise ValueError("unknown shape %r (known: %s)" % (name, ", ".join(SHAPES)))
        if x.startswith("-"):
            shapes.discard(name)
        else:
            shapes.add(name)
    return shapes


GPRS = ["rax", "rcx", "rdx", "rbx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"]
FPRS = ["xmm%d" % i for i in range(16)]

# The registers the modules name, per target (gen_random --target=, difftest
# --target=): stackmap constraints, pinned registers, the C argument and
# result registers of patchpoint calls, and what the clobbering stubs trash.
# x86-64's tables are the generator's original ones, so a seed gives the same
# module as before.  arm64 leaves x16/x17 (B3's scratch registers), x18 (the
# platform register), fp, lr and q31 (B3's FP scratch) alone; its stubs trash
# only caller-saved FP registers (AAPCS64 keeps d8-d15).
TARGETS = {
    "x86_64": {
        "gpr": GPRS, "fpr": FPRS,
        "callee_saved": ["rbx", "r12", "r13", "r14", "r15"],
        "pinnable": ["rbx", "r12", "r13", "r14", "r15"],
        "arg_gpr": ["rdi", "rsi", "rdx", "rcx", "r8", "r9"], "arg_fpr": ["xmm%d" % i for i in range(8)],
        "ret_gpr": "rax", "ret_fpr": "xmm0",
        "scratch": ["rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11"] + FPRS,
    },
    "aarch64": {
        "gpr": ["x%d" % i for i in range(16)] + ["x%d" % i for i in range(19, 29)],
        "fpr": ["q%d" % i for i in range(31)],
        "callee_saved": ["x%d" % i for i in range(19, 29)],
        "pinnable": ["x19", "x21", "x23", "x26", "x28"],
        "arg_gpr": ["x%d" % i for i in range(8)], "arg_fpr": ["q%d" % i for i in range(8)],
        "ret_gpr": "x0", "ret_fpr": "q0",
        "scratch": ["x%d" % i for i in range(16)] + ["q%d" % i for i in list(range(8)) + list(range(16, 31))],
    },
}


def target_arch(target):
    """'x86_64' or 'aarch64' for a triple (or an architecture name)."""
    arch = (target or "x86_64").split("-")[0]
    arch = {"arm64": "aarch64", "amd64": "x86_64"}.get(arch, arch)
    if arch not in TARGETS:
        raise ValueError("unknown target %r (known: %s)" % (target, ", ".join(TARGETS)))
    return arch


def u32(x):
    return x & 0xFFFFFFFF


def u64(x):
    return x & 0xFFFFFFFFFFFFFFFF


class Block:
    def __init__(self, index):
        self.index = index
        self.lines = []
        self.succ = None
        self.targets = []
        self.preds = []
        self.done = False


class Helper:
    """A C function the procedures call: mixes its arguments into a hash."""

    def __init__(self, name, hid, params, ret, kind="mix"):
        self.name, self.hid, self.params, self.ret, self.kind = name, hid, params, ret, kind

    def to_json(self):
        return {"name": self.name, "id": self.hid, "params": self.params, "ret": self.ret, "kind": self.kind}


class Proc:
    def __init__(self, name, params, ret, entries=None):
        self.name, self.params, self.ret = name, params, ret
        self.entries = entries or [name]  # entry symbols (spec 8.2)
        self.text = None


class ModuleGen:
    def __init__(self, seed, size, shapes=None, target="x86_64", without=()):
        self.rng = random.Random(seed)
        self.without = set(without)
        self.seed = seed
        self.arch = target_arch(target)
        self.regs = TARGETS[self.arch]
        self.size = size
        self.shapes = set(DEFAULT_SHAPES) if shapes is None else set(shapes)
        # The shapes drawn inside a procedure body (small-callees is not one).
        self.body_shapes = self.shapes - {"small-callees"}
        self.call_bias = 0  # small-callees: the chance of a call per value
        self.helpers = []
        self.handlers = []
        self.procs = []
        self.clobbers = []
        self.externs = set()
        # Data items: writable ones (global, printed by the driver after each
        # call) and read-only ones (global or internal).
        self.data = []
        for i in range(self.rng.choice((0, 1, 1, 2))):
            self.data.append({"name": "gdata%d" % i, "readonly": False, "internal": False,
                              "bytes": bytes(self.rng.getrandbits(8) for _ in range(64))})
        for i in range(self.rng.choice((0, 1, 2))):
            self.data.append({"name": "rodata%d" % i, "readonly": True, "internal": self.rng.random() < 0.5,
                              "bytes": bytes(self.rng.getrandbits(8) for _ in range(64))})
        # Swarm testing: each module weighs the kinds of values differently
        # (some not at all), so that rarer interactions get a chance.
        base = [("int_binop", 14), ("shift", 6), ("division", 5), ("fp_op", 10), ("conversion", 10),
                ("compare", 5), ("select", 5), ("const_any", 4), ("load", 7), ("store", 8), ("rmw", 2),
                ("atomic", 3), ("variable", 4), ("call", 4), ("check", 3), ("pressure", 1), ("misc", 1),
                ("reread_arg", 1), ("early_phi", 0.5), ("fusion", 6.5), ("patchpoint", 1.5), ("edge_op", 8)]
        if "cmp-reuse" in self.shapes:
            base.append(("flag_reuse", 3))
        r = self.rng
        cats, cum, tot = [], [], 0.0
        swarm = r.random() < 0.7
        for c, w in base:
            if swarm:
                w *= r.choice((0, 0.3, 1, 1, 3))
            if c == "int_binop":
                w = max(w, 1)
            if (c == "atomic" and "atomics" in self.without) or (c in ("check", "patchpoint") and "checks" in self.without):
                w = 0
            tot += w
            cats.append(c)
            cum.append(tot)
        self.swarm = (cats, cum)
        self.obs_p = r.choice((0.2, 0.5, 0.8))
        self.mem_flags_p = r.choice((0, 0, 0.2, 0.6))
        # How often execution leaves early (so that long procedures still
        # run to their end now and then).
        self.return_p = r.choice((0, 0.01, 0.04, 0.1))
        self.rare_exits = r.random() < 0.6

    # A fresh C helper with a random signature.
    def new_helper(self, max_gp=99, max_fp=99, many=False):
        r = self.rng
        n = r.choice((9, 11, 14, 16) if many else (0, 1, 2, 3, 4, 6, 8, 9, 11, 14))
        if "stack-args" in self.without:
            max_gp, max_fp = min(max_gp, REG_ARGS["gp"]), min(max_fp, REG_ARGS["fp"])
        params = []
        for _ in range(n):
            t = r.choice(TYPES)
            if sum(1 for x in params if (x in INTS) == (t in INTS)) < (max_gp if t in INTS else max_fp):
                params.append(t)
        ret = r.choice(("Int32", "Int64", "Int64", "Double", "Float", "Void"))
        h = Helper("hlp%d" % len(self.helpers), len(self.helpers) + 1, params, ret)
        self.helpers.append(h)
        self.externs.add(h.name)
        return h

    def get_helper(self):
        if self.helpers and self.rng.random() < 0.6:
            return self.rng.choice([h for h in self.helpers if h.kind == "mix"] or [self.new_helper()])
        return self.new_helper()

    def poke_helper(self):
        for h in self.helpers:
            if h.kind == "poke":
                return h
        h = Helper("hpoke", 0, ["Ptr", "Int64", "Int64"], "Int64", kind="poke")
        self.helpers.append(h)
        self.externs.add(h.name)
        return h

    def new_clobber(self, regs):
        name = "clob%d" % len(self.clobbers)
        self.clobbers.append({"name": name, "regs": regs})
        self.externs.add(name)
        return name

    def new_handler(self, params, ret):
        name = "hnd%d" % len(self.handlers)
        self.handlers.append({"name": name, "id": len(self.handlers), "params": params, "ret": ret})
        self.externs.add(name)
        return name

    def generate(self):
        r = self.rng
        nprocs = r.choice((1, 2, 2, 3, 3, 4))
        for i in range(nprocs):
            nparams = r.choice((0, 1, 2, 3, 4, 5, 6, 8, 10, 13))
            params = [r.choice(TYPES) for _ in range(nparams)]
            if "stack-args" in self.without:  # the memory pointer takes an integer register
                params = reg_args_only(params, REG_ARGS["gp"] - 1, REG_ARGS["fp"])
            ret = r.choice(("Int32", "Int64", "Int64", "Float", "Double", "Void"))
            name = "f%d" % i
            entries = [name] + ["%s_e%d" % (name, k) for k in range(1, r.choice((1, 1, 1, 2, 3)))]
            p = Proc(name, params, ret, entries)
            g = ProcGen(self, p, self.size)
            p.text = g.generate()
            self.procs.append(p)
        if "small-callees" in self.shapes:
            self.small_callees()
        return self

    def small_callees(self):
        # Its own generator: the procedures above are those of a generator
        # without this shape.
        saved, self.rng = self.rng, random.Random(self.seed * 7919 + 17)
        r = self.rng
        others, small = self.procs, []
        for i in range(2):
            params = [r.choice(("Int32", "Int64", "Int64", "Double", "Float")) for _ in range(r.choice((0, 1, 2, 3, 4)))]
            p = Proc("s%d" % i, params, r.choice(("Int32", "Int64", "Double", "Void")))
            p.text = ProcGen(self, p, r.randrange(4, 12)).generate()
            small.append(p)
        p = Proc("c0", [r.choice(TYPES) for _ in range(r.choice((1, 2, 3, 4)))], r.choice(("Int32", "Int64", "Double")))
        self.procs = small  # what the caller's calls choose from
        self.call_bias = 0.15
        p.text = ProcGen(self, p, self.size).generate()
        self.call_bias = 0
        self.procs = others + small + [p]
        self.rng = saved

    # ---- output ------------------------------------------------------------

    def b3_text(self):
        out = ["; Generated by testsuite/difftest/gen_random.py, seed %d" % self.seed]
        for e in sorted(self.externs):
            out.append("extern @%s" % e)
        for d in self.data:
            out.append("data @%s%s%s align 16 {" % (d["name"], " internal" if d["internal"] else "",
                                                     " readonly" if d["readonly"] else ""))
            b = d["bytes"]
            out.append("    Int64 %s" % ", ".join(str(int.from_bytes(b[i:i + 8], "little")) for i in range(0, 32, 8)))
            out.append("    Int32 %s" % ", ".join(str(int.from_bytes(b[i:i + 4], "little")) for i in range(32, 48, 4)))
            out.append("    Int8 %s" % ", ".join(str(x) for x in b[48:64]))
            out.append("}")
        for p in self.procs:
            out.append("")
            out.append(p.text)
        return "\n".join(out) + "\n"

    def arg_value(self, t):
        r = self.rng
        if t == "Int32":
            return u32(r.choice(INT32_SPECIAL) if r.random() < 0.5 else r.randrange(-(1 << 31), 1 << 31) >> r.randrange(0, 31))
        if t == "Int64":
            return u64(r.choice(INT64_SPECIAL) if r.random() < 0.4 else r.randrange(-(1 << 63), 1 << 63) >> r.randrange(0, 63))
        if t == "Float":
            if r.random() < 0.6:
                return r.choice(FLOAT_BITS)
            return r.getrandbits(32)
        if r.random() < 0.6:
            return r.choice(DOUBLE_BITS)
        return r.getrandbits(64)

    def plan(self):
        r = self.rng
        calls = []
        for p in self.procs:
            for k in range(r.choice((2, 3, 4))):
                calls.append({"proc": r.choice(p.entries), "args": [self.arg_value(t) for t in p.params], "salt": r.randrange(256)})
        r.shuffle(calls)
        return {
            "seed": self.seed,
            "buf_size": BUF_SIZE,
            "guard": GUARD,
            "procs": [{"name": e, "params": p.params, "ret": p.ret, "proc": p.name, "entry": k}
                      for p in self.procs for k, e in enumerate(p.entries)],
            "helpers": [h.to_json() for h in self.helpers],
            "handlers": self.handlers,
            "calls": calls,
            "data": [dict(d, bytes=d["bytes"].hex()) for d in self.data],
            "clobbers": self.clobbers,
            "target": self.arch,
        }

def driver_c(plan):
    """The C driver for a plan (see ModuleGen.plan)."""
    helpers = [Helper(h["name"], h["id"], h["params"], h["ret"], h["kind"]) for h in plan["helpers"]]
    procs = [Proc(p["name"], p["params"], p["ret"]) for p in plan["procs"]]
    extern_data = ["extern uint8_t %s[64];" % d["name"] for d in plan.get("data", []) if not d["readonly"]]
    o = []
    w = o.append
    w("/* Generated by testsuite/difftest/gen_random.py, seed %d */" % plan["seed"])
    w("#include <stdint.h>\n#include <stdio.h>\n#include <string.h>\n#include <math.h>")
    w("static uint64_t trace;")
    arm = plan.get("target", "x86_64") == "aarch64"
    for k, cl in enumerate(plan.get("clobbers", [])):
        body = []
        for j, reg in enumerate(cl["regs"]):
            junk = 0x5A5A000000000000 | (k << 16) | j
            if arm and reg.startswith("q"):
                body.append("movi v%s.2d, #0xffffffffffffffff" % reg[1:])
            elif arm:
                body += ["movz %s, #0x5a5a, lsl #48" % reg, "movk %s, #0x%x, lsl #16" % (reg, k), "movk %s, #0x%x" % (reg, j)]
            elif reg.startswith("xmm"):
                body.append("pcmpeqd %%%s, %%%s" % (reg, reg))
            else:
                body.append("movabs $0x%x, %%%s" % (junk, reg))
        code = "".join("    " + b + "\\n" for b in body)
        # Mach-O (an Apple target's driver linked for macOS): '_' names, no .type
        w('#if defined(__APPLE__)\n__asm__(".text\\n.globl _%s\\n_%s:\\n%sret\\n");\n#else' % (
            cl["name"], cl["name"], code))
        w('__asm__(".text\\n.globl %s\\n.type %s, %s\\n%s:\\n%sret\\n");\n#endif' % (
            cl["name"], cl["name"], "%function" if arm else "@function", cl["name"], code))
    o.extend(extern_data)
    w("static _Alignas(16) uint8_t mem[%d];" % (BUF_SIZE + 2 * GUARD))
    w("static uint64_t bits_f(float x) { uint32_t u; if (x != x) return 0x7777; memcpy(&u, &x, 4); return u; }")
    w("static uint64_t bits_d(double x) { uint64_t u; if (x != x) return 0x7777; memcpy(&u, &x, 8); return u; }")
    w("static float mk_f(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }")
    w("static double mk_d(uint64_t u) { double x; memcpy(&x, &u, 8); return x; }")
    w("#define MIX(h, v) ((h) = ((h) * 0x100000001b3ULL) ^ (uint64_t)(v))")
    w("static void pr_f(const char *k, float x) { if (x != x) printf(\"%s nan\", k); else printf(\"%s 0x%08llx\", k, (unsigned long long)bits_f(x)); }")
    w("static void pr_d(const char *k, double x) { if (x != x) printf(\"%s nan\", k); else printf(\"%s 0x%016llx\", k, (unsigned long long)bits_d(x)); }")
    ival = {"Int32": "(uint32_t)a%d", "Int64": "(uint64_t)a%d", "Float": "bits_f(a%d)", "Double": "bits_d(a%d)"}
    for h in helpers:
        if h.kind == "poke":
            w("int64_t hpoke(uint8_t *p, int64_t off, int64_t v) {")
            w("    int64_t old; p += off & 0x78; memcpy(&old, p, 8); memcpy(p, &v, 8);")
            w("    MIX(trace, 0x5eed); MIX(trace, old); return old ^ 0x1111;")
            w("}")
            continue
        ps = ", ".join("%s a%d" % (CT[t], i) for i, t in enumerate(h.params)) or "void"
        # An Int32 / Float result leaves the rest of %rax / %xmm0
        # undefined: return garbage there on purpose.
        rt = {"Int32": "int64_t", "Float": "double"}.get(h.ret, CT[h.ret])
        w("%s %s(%s) {" % (rt, h.name, ps))
        w("    uint64_t h = %d;" % h.hid)
        for i, t in enumerate(h.params):
            w("    MIX(h, %s);" % (ival[t] % i))
        w("    MIX(trace, h);")
        if h.ret == "Int32":
            w("    return (int64_t)(((h >> 7) & 0xffffffffull) | (h << 32) | (1ull << 32));")
        elif h.ret == "Int64":
            w("    return (int64_t)h;")
        elif h.ret == "Double":
            w("    return (double)(int64_t)(h >> 20) * 0.125;")
        elif h.ret == "Float":
            w("    float f = (float)(int32_t)(h >> 40) * 0.25f; uint32_t u; memcpy(&u, &f, 4);")
            w("    return mk_d((uint64_t)u | (h << 32));")
        w("}")
    fmt = {"Int32": "printf(\" i32:0x%%08x\", (uint32_t)a%d);", "Int64": "printf(\" i64:0x%%016llx\", (unsigned long long)a%d);",
           "Float": "pr_f(\" f32:\", a%d);", "Double": "pr_d(\" f64:\", a%d);"}
    for hd in plan["handlers"]:
        ps = ", ".join("%s a%d" % (CT[t], i) for i, t in enumerate(hd["params"])) or "void"
        w("%s %s(%s) {" % (CT[hd["ret"]], hd["name"], ps))
        w("    printf(\"exit %s\");" % hd["name"])
        for i, t in enumerate(hd["params"]):
            w("    " + fmt[t] % i)
        w("    printf(\"\\n\");")
        rv = handler_ret(hd)
        if hd["ret"] == "Float":
            w("    return mk_f(0x%xu);" % rv)
        elif hd["ret"] == "Double":
            w("    return mk_d(0x%xull);" % rv)
        elif hd["ret"] != "Void":
            w("    return (%s)0x%xull;" % (CT[hd["ret"]], rv))
        w("}")
    for p in procs:
        # Int32 and Float parameters are declared wider so that the
        # caller can pass garbage in the upper bits, as the ABI allows.
        ps = ", ".join(["uint8_t *"] + [{"Int32": "int64_t", "Float": "double"}.get(t, CT[t]) for t in p.params])
        w("%s %s(%s);" % (CT[p.ret], p.name, ps))
    w("static void reset(int salt) {")
    w("    for (int i = 0; i < %d; i++) mem[i] = (uint8_t)(i * 37 + salt * 11 + (i >> 3) * 5);" % (BUF_SIZE + 2 * GUARD))
    w("    trace = 0;")
    w("}")
    w("static void dump(void) {")
    w("    for (int i = 0; i < %d; i += 32) { printf(\"mem\"); for (int j = 0; j < 32; j++) printf(\"%%02x\", mem[i + j]); printf(\"\\n\"); }" % (BUF_SIZE + 2 * GUARD))
    w("    printf(\"trace 0x%016llx\\n\", (unsigned long long)trace);")
    for d in plan.get("data", []):
        if not d["readonly"]:
            w("    printf(\"%s \"); for (int j = 0; j < 64; j++) printf(\"%%02x\", %s[j]); printf(\"\\n\");" % (d["name"], d["name"]))
    w("}")
    w("int main(void) {")
    w("    setvbuf(stdout, NULL, _IOLBF, 0);")
    lit = {"Int32": "(int64_t)0x%xull", "Int64": "(int64_t)0x%xull", "Float": "mk_d(0x%xull)", "Double": "mk_d(0x%xull)"}
    junk = lambda t, v: v | (((v * 0x9E3779B1) ^ 0xA5A5A5A5) & 0xFFFFFFFF) << 32 if t in ("Int32", "Float") else v
    pmap = {p.name: p for p in procs}
    for k, c in enumerate(plan["calls"]):
        p = pmap[c["proc"]]
        args = ", ".join(["mem + %d" % GUARD] + [lit[t] % junk(t, v) for t, v in zip(p.params, c["args"])])
        w("    reset(%d); printf(\"== %d %s\\n\");" % (c["salt"], k, p.name))
        if p.ret == "Void":
            w("    %s(%s); printf(\"ret void\\n\");" % (p.name, args))
        elif p.ret == "Int32":
            w("    { int32_t r = %s(%s); printf(\"ret i32 0x%%08x\\n\", (uint32_t)r); }" % (p.name, args))
        elif p.ret == "Int64":
            w("    { int64_t r = %s(%s); printf(\"ret i64 0x%%016llx\\n\", (unsigned long long)r); }" % (p.name, args))
        elif p.ret == "Float":
            w("    { float r = %s(%s); pr_f(\"ret f32\", r); printf(\"\\n\"); }" % (p.name, args))
        else:
            w("    { double r = %s(%s); pr_d(\"ret f64\", r); printf(\"\\n\"); }" % (p.name, args))
        w("    dump();")
    w("    printf(\"done\\n\");")
    w("    return 0;")
    w("}")
    return "\n".join(o) + "\n"


def handler_ret(hd):
    k = hd["id"]
    return {"Int32": 0x5A5A0000 + k, "Int64": 0x5A5A5A5A00000000 + k, "Float": 0x3FC00000 + (k << 8),
            "Double": 0x3FF8000000000000 + (k << 20), "Void": 0}[hd["ret"]]


class ProcGen:
    def __init__(self, mod, proc, size):
        self.mod = mod
        self.rng = mod.rng
        self.proc = proc
        self.budget = size
        self.blocks = []
        self.next_value = 0
        self.count = 0
        self.vis = {t: [] for t in TYPES}
        self.ivs = []  # affine: the counters of the loops around, (type, Phi)
        self.marks = []
        self.vars = []
        self.slots = []
        self.exact = set()
        self.pinned = []
        if self.rng.random() < 0.15:
            self.pinned = self.rng.sample(mod.regs["pinnable"], self.rng.randrange(1, 6))
        self.cur = self.new_block()

    # ---- infrastructure -----------------------------------------------------

    def new_block(self):
        b = Block(len(self.blocks))
        self.blocks.append(b)
        return b

    def reserve(self):
        n = self.next_value
        self.next_value += 1
        return n

    MEM_RE = re.compile(r"^(Load8Z|Load8S|Load16Z|Load16S|Load|Store8|Store16|Store)\((.*)\)$")

    def emit(self, typ, text, number=None, visible=True):
        assert not self.cur.done
        m = self.MEM_RE.match(text)
        if m and self.rng.random() < self.mod.mem_flags_p:
            # Flags and meta that change no result here: a trapping access
            # (never moved or dropped), heap ranges, acquire/release fences.
            # A heap range is a promise (accesses with disjoint ranges do not
            # alias, and the optimizer relies on it), and any two accesses
            # here may alias: every range holds heap 7.
            r = self.rng
            flag = "<Traps>" if r.random() < 0.5 else ""
            k = r.randrange(8)
            extra = r.choice(("", ", range = %s" % ("7" if k == 7 else "%d...%d" % (k, k + 8)),
                              ", fenceRange = Top", ", range = 2...8"))
            if "fence" in extra and (typ in FPS or m.group(1) == "Store"):
                extra = ""  # fenced accesses are integer ones
            text = "%s%s(%s%s)" % (m.group(1), flag, m.group(2), extra)
        n = self.reserve() if number is None else number
        self.cur.lines.append("    %s @%d = %s" % (typ, n, text))
        self.count += 1
        if typ in FPS:
            # Values whose bits are fully determined even when NaN: they need
            # no canonicalization before their bits are observed.
            op = text.split("(", 1)[0].split("<", 1)[0]
            kids = [int(x) for x in re.findall(r"@(\d+)", text)]
            if op in ("ConstFloat", "ConstDouble", "Load", "BitwiseCast", "BitAnd", "BitOr", "BitXor") or \
                    (op in ("Abs", "Neg", "Identity", "Opaque") and kids[0] in self.exact):
                self.exact.add(n)
        if visible and typ != "Void":
            self.vis[typ].append(n)
        return n

    def terminate(self, text, succ=None, targets=()):
        self.emit("Void", text)
        self.cur.done = True
        self.cur.succ = succ
        self.cur.targets = list(targets)
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
        if not v:
            return self.const(typ)
        if r.random() < 0.65:
            return v[len(v) - 1 - r.randrange(min(len(v), 16))]
        return v[r.randrange(len(v))]

    def ci(self, typ, val, visible=False):
        op = "Const32" if typ == "Int32" else "Const64"
        if typ == "Int32":
            val = u32(val)
            val = val - (1 << 32) if val >= 1 << 31 else val
        else:
            val = u64(val)
            val = val - (1 << 64) if val >= 1 << 63 else val
        return self.emit(typ, "%s(%d)" % (op, val), visible=visible)

    def cfp(self, typ, bits, visible=False):
        op = "ConstFloat" if typ == "Float" else "ConstDouble"
        return self.emit(typ, "%s(bits(0x%x))" % (op, bits), visible=visible)

    def const(self, typ, visible=True):
        r = self.rng
        if typ == "Int32":
            v = r.choice(INT32_SPECIAL) if r.random() < 0.6 else r.randrange(-(1 << 31), 1 << 31)
            return self.ci(typ, v, visible)
        if typ == "Int64":
            v = r.choice(INT64_SPECIAL) if r.random() < 0.6 else r.randrange(-(1 << 63), 1 << 63) >> r.randrange(0, 63)
            return self.ci(typ, v, visible)
        if typ == "Float":
            if r.random() < 0.3:
                lit = r.choice(("0.5", "1", "-2.25", "1e10", "0.1", "-0.0", "inf", "-inf", "3.4028234e38", "16777217"))
                return self.emit(typ, "ConstFloat(%s)" % lit, visible=visible)
            return self.cfp(typ, r.choice(FLOAT_BITS) if r.random() < 0.8 else r.getrandbits(32), visible)
        if r.random() < 0.3:
            lit = r.choice(("0.5", "1", "-2.25", "1e300", "0.1", "-0.0", "inf", "-inf", "0x1.8p+1", "9007199254740993", "2147483647.5", "-2147483648.9"))
            return self.emit(typ, "ConstDouble(%s)" % lit, visible=visible)
        return self.cfp(typ, r.choice(DOUBLE_BITS) if r.random() < 0.8 else r.getrandbits(64), visible)

    def canon(self, x, typ):
        """x with any NaN replaced by a fixed pattern (floats only)."""
        if typ not in FPS or x in self.exact:
            return x
        eq = self.emit("Int32", "Equal(@%d, @%d)" % (x, x), visible=False)
        c = self.cfp(typ, CANON[typ])
        return self.emit(typ, "Select(@%d, @%d, @%d)" % (eq, x, c), visible=False)

    # ---- addresses ------------------------------------------------------------

    def address(self, width, align=1, read_only=False):
        """(pointer value, offset) of `width` bytes inside the buffer, a
        stack slot or a data item (read-only ones only when read_only)."""
        r = self.rng
        data = [d for d in self.mod.data if read_only or not d["readonly"]]
        if data and r.random() < 0.12:
            d = r.choice(data)
            size = len(d["bytes"])
            so = r.choice((0, 0, 8, 24))
            base = self.emit("Int64", "SymbolAddress(@%s%s)" % (d["name"], ", offset = %d" % so if so else ""), visible=False)
            if r.random() < 0.3:
                idx = self.emit("Int64", "BitAnd(@%d, @%d)" % (self.pick("Int64"), self.ci("Int64", 0x18)), visible=False)
                base = self.emit("Int64", "Add(@%d, @%d)" % (idx, base), visible=False)
                size -= 0x18
            return base, r.randrange(0, (size - width) // align + 1) * align - so
        k = r.random()
        if self.slots and k < 0.2:
            name, size = r.choice(self.slots)
            base = self.emit("Int64", "SlotBase(%s)" % name, visible=False)
            if size >= 32 and r.random() < 0.4:
                idx = self.emit("Int64", "BitAnd(@%d, @%d)" % (self.pick("Int64"), self.ci("Int64", 8 if align > 1 else 15)), visible=False)
                base = self.emit("Int64", "Add(@%d, @%d)" % (base, idx), visible=False)
                size -= 15
            return base, r.randrange(0, (size - width) // align + 1) * align
        if k < 0.5:
            return self.P, r.randrange(0, (BUF_SIZE - width) // align + 1) * align
        if k < 0.65:
            mask = 0x78 if align > 1 else 0x7F
            idx = self.emit("Int64", "BitAnd(@%d, @%d)" % (self.pick("Int64"), self.ci("Int64", mask)), visible=False)
            a, b = (self.P, idx) if r.random() < 0.5 else (idx, self.P)
            base = self.emit("Int64", "Add(@%d, @%d)" % (a, b), visible=False)
            return base, r.randrange(0, (BUF_SIZE - 0x7F - width) // align + 1) * align
        if k < 0.85:
            s = r.randrange(0, 4)
            if align > 1 and (1 << s) < align:
                s = 3
            i32 = self.emit("Int32", "BitAnd(@%d, @%d)" % (self.pick("Int32"), self.ci("Int32", 15)), visible=False)
            i64 = self.emit("Int64", "%s(@%d)" % (r.choice(("SExt32", "ZExt32")), i32), visible=False)
            if r.random() < 0.5:
                sc = self.emit("Int64", "Shl(@%d, @%d)" % (i64, self.ci("Int32", s)), visible=False)
            else:
                sc = self.emit("Int64", "Mul(@%d, @%d)" % (i64, self.ci("Int64", 1 << s)), visible=False)
            a, b = (self.P, sc) if r.random() < 0.5 else (sc, self.P)
            base = self.emit("Int64", "Add(@%d, @%d)" % (a, b), visible=False)
            return base, r.randrange(0, (BUF_SIZE - 15 * (1 << s) - width) // align + 1) * align
        d = r.choice((128, 1000, 70000))
        base = self.emit("Int64", "Add(@%d, @%d)" % (self.P, self.ci("Int64", d)), visible=False)
        return base, r.randrange(0, (BUF_SIZE - width) // align + 1) * align - d

    # ---- straight-line code ------------------------------------------------

    def int_binop(self):
        r = self.rng
        t = r.choice(INTS)
        op = r.choice(("Add", "Sub", "Mul", "BitAnd", "BitOr", "BitXor", "Add", "Sub", "Mul"))
        a = self.pick(t)
        b = self.pick(t) if r.random() < 0.7 else self.const(t, visible=False)
        if r.random() < 0.15:
            a, b = b, a
        elif r.random() < 0.08:
            b = a
        self.emit(t, "%s(@%d, @%d)" % (op, a, b))

    def shift(self):
        r = self.rng
        t = r.choice(INTS)
        op = r.choice(("Shl", "SShr", "ZShr", "RotR", "RotL"))
        if r.random() < 0.5:
            amt = self.ci("Int32", r.choice((0, 1, 5, 31, 32, 33, 63, 64, 65, -1, 100, r.randrange(0, 64))))
        else:
            amt = self.pick("Int32")
        src = self.pick(t) if r.random() < 0.85 else self.const(t, visible=False)
        self.emit(t, "%s(@%d, @%d)" % (op, src, amt))

    def division(self):
        r = self.rng
        t = r.choice(INTS)
        op = r.choice(("Div<Chill>", "Mod<Chill>", "UDiv", "UMod", "Div", "Mod", "Div<Chill>", "Mod<Chill>"))
        num = self.pick(t) if r.random() < 0.7 else self.ci(t, r.choice((-(1 << 31) if t == "Int32" else -(1 << 63), 7, -7, 0)))
        const_den = r.random() < 0.4
        if op in ("Div", "Mod"):
            if const_den:
                den = self.ci(t, r.choice((1, 2, 3, 7, 8, 10, 16, 1000, 0x7FFFFFFF, -2, -3, -8, -1000)))
            else:
                z = self.emit(t, "ZShr(@%d, @%d)" % (self.pick(t), self.ci("Int32", r.choice((1, 1, 20, 40)))), visible=False)
                den = self.emit(t, "BitOr(@%d, @%d)" % (z, self.ci(t, 1)), visible=False)
        elif op in ("UDiv", "UMod"):
            if const_den:
                den = self.ci(t, r.choice((1, 2, 3, 7, 8, 10, 16, -1, -2, 0x80000000, 0xFFFFFFFF) + ((1 << 40,) if t == "Int64" else ())))
            else:
                den = self.emit(t, "BitOr(@%d, @%d)" % (self.pick(t), self.ci(t, r.choice((1, 0x100, 0x80000000)))), visible=False)
        else:
            den = self.ci(t, r.choice((0, -1, 1, 3, -1, 0))) if const_den else self.pick(t)
        self.emit(t, "%s(@%d, @%d)" % (op, num, den))

    def fp_op(self):
        r = self.rng
        t = r.choice(FPS)
        k = r.random()
        if k < 0.55:
            op = r.choice(("Add", "Sub", "Mul", "Div", "Mod", "FMin", "FMax", "Add", "Mul"))
            a = self.pick(t)
            b = self.pick(t) if r.random() < 0.75 else self.const(t, visible=False)
            self.emit(t, "%s(@%d, @%d)" % (op, a, b))
        elif k < 0.85:
            op = r.choice(("Neg", "Abs", "Ceil", "Floor", "Sqrt"))
            self.emit(t, "%s(@%d)" % (op, self.pick(t)))
        else:
            op = r.choice(("BitAnd", "BitOr", "BitXor"))
            a = self.canon(self.pick(t), t)
            if r.random() < 0.5:
                b = self.cfp(t, r.choice((0x7FFFFFFF, 0x80000000, 0xFFFFF000)) if t == "Float" else
                             r.choice((0x7FFFFFFFFFFFFFFF, 0x8000000000000000, 0xFFFFFFFF00000000)))
            else:
                b = self.canon(self.pick(t), t)
            self.emit(t, "%s(@%d, @%d)" % (op, a, b))

    def conversion(self):
        r = self.rng
        c = r.randrange(16)
        if c == 0:
            self.emit("Int32", "%s(@%d)" % (r.choice(("SExt8", "SExt16")), self.pick("Int32")))
        elif c in (1, 2):
            self.emit("Int64", "%s(@%d)" % (r.choice(("SExt32", "ZExt32")), self.pick("Int32")))
        elif c == 3:
            self.emit("Int32", "Trunc(@%d)" % self.pick("Int64"))
        elif c == 4:
            self.emit("Float", "Trunc(@%d)" % self.canon(self.pick("Double"), "Double"))
        elif c == 5:
            self.emit("Double", "%s(@%d)" % (r.choice(("IToD", "UToD")), self.pick(r.choice(INTS))))
        elif c == 6:
            self.emit("Float", "%s(@%d)" % (r.choice(("IToF", "UToF")), self.pick(r.choice(INTS))))
        elif c == 7:
            self.emit("Double", "FloatToDouble(@%d)" % self.pick("Float"))
        elif c == 8:
            self.emit("Float", "DoubleToFloat(@%d)" % self.pick("Double"))
        elif c in (9, 10):
            self.emit(r.choice(INTS), "%s(@%d)" % (r.choice(("DToI", "DToU")), self.pick(r.choice(FPS))))
        elif c in (11, 12):
            src, dst = r.choice((("Float", "Int32"), ("Double", "Int64")))
            self.emit(dst, "BitwiseCast(@%d)" % self.canon(self.pick(src), src))
        elif c == 13:
            src, dst = r.choice((("Int32", "Float"), ("Int64", "Double")))
            self.emit(dst, "BitwiseCast(@%d)" % self.pick(src))
        elif c == 14:
            t = r.choice(INTS)
            self.emit(t, "Clz(@%d)" % self.pick(t))
        else:
            t = r.choice(TYPES)
            self.emit(t, "%s(@%d)" % (r.choice(("Identity", "Opaque", "Neg")), self.pick(t)))

    def compare(self, visible=True):
        r = self.rng
        t = r.choice(TYPES)
        ops = ["Equal", "NotEqual", "LessThan", "GreaterThan", "LessEqual", "GreaterEqual"]
        ops += ["Above", "Below", "AboveEqual", "BelowEqual"] if t in INTS else ["EqualOrUnordered"]
        a = self.pick(t)
        b = self.pick(t) if r.random() < 0.7 else self.const(t, visible=False)
        if r.random() < 0.2:
            a, b = b, a
        return self.emit("Int32", "%s(@%d, @%d)" % (r.choice(ops), a, b), visible=visible)

    def cond(self):
        r = self.rng
        k = r.random()
        if k < 0.5:
            return self.compare(visible=False)
        if k < 0.7:
            t = r.choice(INTS)
            m = self.ci(t, r.choice((1, 2, 4, 0x100, 0x80000000, 3) + ((1 << 40, 1 << 63, 0xFFFFFFFF00000000) if t == "Int64" else ())))
            return self.emit(t, "BitAnd(@%d, @%d)" % (self.pick(t), m), visible=False)
        if k < 0.8:
            t = r.choice(INTS)
            c = self.compare(visible=False)
            return self.emit("Int32", "Equal(@%d, @%d)" % (c, self.ci("Int32", 0)), visible=False)
        return self.pick(r.choice(INTS))

    def select(self):
        r = self.rng
        t = r.choice(TYPES)
        c = self.cond()
        self.emit(t, "Select(@%d, @%d, @%d)" % (c, self.pick(t), self.pick(t)))

    def load(self):
        r = self.rng
        c = r.randrange(8)
        if c < 4:
            t = TYPES[c]
            base, off = self.address(WIDTH[t] // 8, read_only=True)
            self.emit(t, "Load(@%d, offset = %d)" % (base, off))
        else:
            op = ("Load8Z", "Load8S", "Load16Z", "Load16S")[c - 4]
            base, off = self.address(1 if "8" in op else 2, read_only=True)
            self.emit("Int32", "%s(@%d, offset = %d)" % (op, base, off))

    def store(self):
        r = self.rng
        c = r.randrange(6)
        if c < 4:
            t = TYPES[c]
            v = self.canon(self.pick(t), t)
            base, off = self.address(WIDTH[t] // 8)
            self.emit("Void", "Store(@%d, @%d, offset = %d)" % (v, base, off))
        else:
            op = ("Store8", "Store16")[c - 4]
            base, off = self.address(1 if op == "Store8" else 2)
            self.emit("Void", "%s(@%d, @%d, offset = %d)" % (op, self.pick("Int32"), base, off))

    def rmw(self):
        """Store(Op(Load(a), y), a): memory-operand fusion."""
        r = self.rng
        t = r.choice(INTS)
        base, off = self.address(WIDTH[t] // 8)
        ld = self.emit(t, "Load(@%d, offset = %d)" % (base, off), visible=False)
        op = r.choice(("Add", "Sub", "BitAnd", "BitOr", "BitXor"))
        y = self.pick(t) if r.random() < 0.6 else self.ci(t, r.choice((1, -1, 0x7F, 0x12345678)))
        a, b = (ld, y) if r.random() < 0.7 else (y, ld)
        v = self.emit(t, "%s(@%d, @%d)" % (op, a, b), visible=r.random() < 0.3)
        self.emit("Void", "Store(@%d, @%d, offset = %d)" % (v, base, off))

    def atomic(self):
        r = self.rng
        t = r.choice(INTS)
        width = r.choice((8, 16, 32) + ((64,) if t == "Int64" else (32,)))
        base, off = self.address(width // 8, align=width // 8)
        op = r.choice(("AtomicXchgAdd", "AtomicXchgAnd", "AtomicXchgOr", "AtomicXchgSub", "AtomicXchgXor", "AtomicXchg",
                       "AtomicStrongCAS", "AtomicWeakCAS"))
        wtxt = "" if width == WIDTH[t] and r.random() < 0.5 else ", width = %d" % width
        visible = r.random() < 0.8
        if op in ("AtomicStrongCAS", "AtomicWeakCAS"):
            if r.random() < 0.5:
                ld = {8: "Load8S", 16: "Load16S", 32: "Load", 64: "Load"}[width]
                lt = "Int64" if width == 64 else "Int32"
                e = self.emit(lt, "%s(@%d, offset = %d)" % (ld, base, off), visible=False)
                if lt != t:
                    e = self.emit(t, "SExt32(@%d)" % e, visible=False)
            else:
                e = self.pick(t)
            res = "Int32" if op == "AtomicWeakCAS" else t
            self.emit(res, "%s(@%d, @%d, @%d, offset = %d%s)" % (op, e, self.pick(t), base, off, wtxt), visible=visible)
        else:
            self.emit(t, "%s(@%d, @%d, offset = %d%s)" % (op, self.pick(t), base, off, wtxt), visible=visible)

    def big_const(self, t):
        r = self.rng
        if t == "Int32":
            return self.ci(t, r.choice((0x7FFFFFFF, -0x80000000, 0x12345, -2, 0xFFFF)))
        return self.ci(t, r.choice((0x123456789, -0x80000001, 0x80000000, 0x7FFFFFFF, -0x80000000,
                                    0xFFFFFFFF, 1 << 63, 0x7FFFFFFFFFFFFFFF, -5)))

    def fusion(self):
        """Patterns the instruction selector fuses: a load as an operand
        (either side), big and small immediates, immediate stores, a
        compare feeding a Select or Branch in the same block."""
        r = self.rng
        k = r.randrange(6)
        t = r.choice(TYPES)
        if k == 0 or k == 1:
            if t in INTS and r.random() < 0.3:
                op = r.choice(("Load8Z", "Load8S", "Load16Z", "Load16S"))
                base, off = self.address(1 if "8" in op else 2, read_only=True)
                t = "Int32"
                ld = self.emit(t, "%s(@%d, offset = %d)" % (op, base, off), visible=False)
            else:
                base, off = self.address(WIDTH[t] // 8, read_only=True)
                ld = self.emit(t, "Load(@%d, offset = %d)" % (base, off), visible=False)
            other = (self.big_const(t) if t in INTS and r.random() < 0.5 else self.const(t, visible=False)) if r.random() < 0.5 else self.pick(t)
            a, b = (ld, other) if r.random() < 0.5 else (other, ld)
            if k == 0:
                ops = ["Equal", "NotEqual", "LessThan", "GreaterThan", "LessEqual", "GreaterEqual"]
                ops += ["Above", "Below", "AboveEqual", "BelowEqual"] if t in INTS else ["EqualOrUnordered"]
                c = self.emit("Int32", "%s(@%d, @%d)" % (r.choice(ops), a, b), visible=r.random() < 0.5)
                if r.random() < 0.6:
                    st = r.choice(TYPES)
                    self.emit(st, "Select(@%d, @%d, @%d)" % (c, self.pick(st), self.pick(st)))
            else:
                ops = ("Add", "Sub", "Mul", "BitAnd", "BitOr", "BitXor") if t in INTS else ("Add", "Sub", "Mul", "Div")
                self.emit(t, "%s(@%d, @%d)" % (r.choice(ops), a, b))
        elif k == 2:
            t = r.choice(INTS)
            op = r.choice(("Add", "Sub", "Mul", "BitAnd", "BitOr", "BitXor", "Equal", "LessThan", "Below", "Above"))
            a, b = self.pick(t), self.big_const(t)
            if r.random() < 0.4:
                a, b = b, a
            self.emit("Int32" if op in ("Equal", "LessThan", "Below", "Above") else t, "%s(@%d, @%d)" % (op, a, b))
        elif k == 3:
            op, t = r.choice((("Store", "Int32"), ("Store", "Int64"), ("Store8", "Int32"), ("Store16", "Int32")))
            v = self.big_const(t) if r.random() < 0.5 else self.ci(t, r.choice((0, 1, -1, 0x1FF, 0x12345)))
            w = {"Store8": 1, "Store16": 2}.get(op, WIDTH[t] // 8)
            base, off = self.address(w)
            self.emit("Void", "%s(@%d, @%d, offset = %d)" % (op, v, base, off))
        elif k == 4:
            t = r.choice(INTS)
            op = r.choice(("Shl", "SShr", "ZShr", "RotR", "RotL"))
            self.emit(t, "%s(@%d, @%d)" % (op, self.big_const(t), self.pick("Int32")))
        else:
            t = r.choice(TYPES)
            c = self.compare(visible=False)
            if r.random() < 0.5:
                c = self.emit("Int32", "Equal(@%d, @%d)" % (c, self.ci("Int32", 0)), visible=False)
            self.emit(t, "Select(@%d, @%d, @%d)" % (c, self.pick(t), self.pick(t)))

    def early_phi(self):
        """An Upsilon and its Phi in one block: the Phi reads what the
        Upsilon stored (a Phi may stand anywhere in its block)."""
        t = self.rng.choice(TYPES)
        n = self.reserve()
        self.emit("Void", "Upsilon(@%d, ^@%d)" % (self.pick(t), n))
        self.straight(self.rng.randrange(0, 4))
        self.emit(t, "Phi()", number=n)

    def variable(self):
        r = self.rng
        if not self.vars:
            return
        name, t = r.choice(self.vars)
        if r.random() < 0.5:
            self.emit("Void", "Set(@%d, %s)" % (self.pick(t), name))
        else:
            self.emit(t, "Get(%s)" % name)

    def call_args(self, params):
        return ["@%d" % self.pick(t) for t in params]

    def call(self):
        r = self.rng
        k = r.random()
        if k < 0.15:
            h = self.mod.poke_helper()
            f = self.emit("Int64", "SymbolAddress(@hpoke)", visible=False)
            big = [s for s in self.slots if s[1] >= 128]
            if big and r.random() < 0.5:
                # A stack slot's address escapes to C, which writes the slot.
                p = self.emit("Int64", "SlotBase(%s)" % r.choice(big)[0], visible=False)
            else:
                p = self.P
            self.emit("Int64", "CCall(@%d, @%d, @%d, @%d)" % (f, p, self.pick("Int64"), self.pick("Int64")))
            return
        if k < 0.4 and self.mod.procs:
            self.call_proc()
            return
        h = self.mod.get_helper()
        f = self.emit("Int64", "SymbolAddress(@%s)" % h.name, visible=False)
        if r.random() < 0.2:
            f = self.emit("Int64", "Opaque(@%d)" % f, visible=False)
        self.emit(h.ret, "CCall(%s)" % ", ".join(["@%d" % f] + self.call_args(h.params)))

    def call_proc(self):
        r = self.rng
        callee = r.choice(self.mod.procs)
        f = self.emit("Int64", "SymbolAddress(@%s)" % r.choice(callee.entries), visible=False)
        args = ["@%d" % self.P] + self.call_args(callee.params)
        self.emit(callee.ret, "CCall(%s)" % ", ".join(["@%d" % f] + args))

    def check(self, pred=None):
        """A Check or CheckAdd/Sub/Mul; pred: a Check on that predicate."""
        r = self.rng
        if "checks" in self.mod.without:
            return
        kind = r.choice(("Check", "CheckAdd", "CheckSub", "CheckMul")) if pred is None else "Check"
        extra = [r.choice(TYPES) for _ in range(r.choice((0, 1, 2, 3, 5, 8, 16, 30)))]
        reps = ["", "", ":WarmAny", ":ColdAny", ":LateColdAny", ":SomeRegister"]
        kids = []
        if pred is not None:
            kids.append("@%d" % pred)
            params = []
        elif kind == "Check":
            c = r.random()
            if self.mod.rare_exits:
                t = r.choice(INTS)
                m = self.emit(t, "BitAnd(@%d, @%d)" % (self.pick(t), self.ci(t, 63)), visible=False)
                pred = self.emit("Int32", "Equal(@%d, @%d)" % (m, self.ci(t, r.randrange(64))), visible=False)
            elif c < 0.5:
                t = r.choice(INTS)
                m = self.emit(t, "BitAnd(@%d, @%d)" % (self.pick(t), self.ci(t, 15)), visible=False)
                pred = self.emit("Int32", "Equal(@%d, @%d)" % (m, self.ci(t, r.randrange(16))), visible=False)
            elif c < 0.7:
                pred = self.compare(visible=False)
                pred = self.emit("Int32", "BitAnd(@%d, @%d)" % (pred, self.compare(visible=False)), visible=False)
            elif c < 0.85:
                pred = self.compare(visible=False)
                pred = self.emit("Int32", "Equal(@%d, @%d)" % (pred, self.ci("Int32", 0)), visible=False)
            else:
                pred = self.compare(visible=False)
            kids.append("@%d" % pred)
            params = []
        else:
            t = r.choice(INTS)
            ops = []
            for _ in range(2):
                x = self.pick(t)
                if self.mod.rare_exits:
                    x = self.emit(t, "SShr(@%d, @%d)" % (x, self.ci("Int32", 20 if t == "Int32" else 40)), visible=False)
                elif r.random() < 0.5:
                    x = self.emit(t, "SShr(@%d, @%d)" % (x, self.ci("Int32", r.choice((8, 16, 20, 30, 40)))), visible=False)
                ops.append(x)
            if kind == "CheckSub" and r.random() < 0.2:
                ops[0] = self.ci(t, 0)
            if r.random() < 0.2:
                ops[1] = self.ci(t, r.choice((1, -1, 2, 0x7FFFFFFF, 100)))
            elif r.random() < 0.1:
                ops[1] = ops[0]
            elif r.random() < 0.2:
                base, off = self.address(WIDTH[t] // 8, read_only=True)
                ops[r.randrange(2)] = self.emit(t, "Load(@%d, offset = %d)" % (base, off), visible=False)
            kids += ["@%d%s" % (x, r.choice(("", ":WarmAny"))) for x in ops]
            params = [t, t]
        R = self.mod.regs
        gprs = [x for x in R["gpr"] if x not in self.pinned]
        regs = {"gp": r.sample(gprs, len(gprs)), "fp": r.sample(R["fpr"], len(R["fpr"]))}
        budget = self.reg_budget()
        if "stack-args" in self.mod.without:
            extra = reg_args_only(params + list(extra), REG_ARGS["gp"], REG_ARGS["fp"])[len(params):]
        for t in extra:
            rp = r.choice(reps)
            if r.random() < 0.15:
                bank = regs["gp" if t in INTS else "fp"]
                if bank:
                    rp = ":Register(%%%s)" % bank.pop()
            kids.append("@%d%s" % (self.pick(t), self.within(budget, t, rp)))
            params.append(t)
        h = self.mod.new_handler(params, self.proc.ret)
        kids.append("exit = @%s" % h)
        if kind == "Check":
            self.emit("Void", "Check(%s)" % ", ".join(kids))
        else:
            self.emit(params[0], "%s(%s)" % (kind, ", ".join(kids)))

    def pressure(self):
        """Many values live across a call, then all used."""
        r = self.rng
        n = r.randrange(10, 70)
        live = []
        for _ in range(n):
            t = r.choice(TYPES)
            x = self.pick(t)
            if t in INTS:
                v = self.emit(t, "Add(@%d, @%d)" % (x, self.ci(t, r.randrange(1, 1000))), visible=False)
            else:
                v = self.emit(t, "Mul(@%d, @%d)" % (x, self.cfp(t, 0x3FC00000 if t == "Float" else 0x3FF8000000000000)), visible=False)
            live.append((t, v))
        if r.random() < 0.7:
            self.call()
        else:
            self.check()
        acc = {t: None for t in TYPES}
        for t, v in live:
            if acc[t] is None:
                acc[t] = v
            else:
                acc[t] = self.emit(t, "%s(@%d, @%d)" % ("BitXor" if t in INTS else "Add", acc[t], v), visible=False)
        for t in TYPES:
            if acc[t] is not None:
                self.vis[t].append(acc[t])

    def sink(self):
        """Stores a visible value so that it is observed."""
        self.store()

    def patchpoint(self):
        r = self.rng
        R = self.mod.regs
        gprs = [x for x in R["gpr"] if x not in self.pinned]
        regs = {"gp": r.sample(gprs, len(gprs)), "fp": r.sample(R["fpr"], len(R["fpr"]))}
        if r.random() < 0.5:
            # A call to a C helper through a patchpoint: children in the C
            # argument registers, the result in the return register.
            h = self.mod.new_helper(many=True) if r.random() < 0.4 else self.mod.new_helper(max_gp=6, max_fp=8)
            gp = list(R["arg_gpr"])
            fp = list(R["arg_fpr"])
            kids = []
            nstack = 0
            for t in h.params:
                bank = gp if t in INTS else fp
                if bank:
                    kids.append("@%d:Register(%%%s)" % (self.pick(t), bank.pop(0)))
                else:  # the C stack arguments, where the call finds them
                    kids.append("@%d:StackArgument(%d)" % (self.pick(t), 8 * nstack))
                    nstack += 1
            ret = "Void" if h.ret == "Void" else h.ret
            meta = ["generator = @%s" % h.name]
            if ret != "Void":
                meta.append("resultConstraints = Register(%%%s)" % (R["ret_gpr"] if ret in INTS else R["ret_fpr"]))
            self.emit(ret, "Patchpoint(%s)" % ", ".join(kids + meta))
            return
        # A stackmap point whose children must sit where it says; sometimes
        # its generator is an assembly stub that really trashes the
        # registers it lists (callee-saved ones included) and some that the
        # C convention lets it change.
        meta = []
        if r.random() < 0.4:
            free = [x for x in R["callee_saved"] if x not in self.pinned]
            saved = r.sample(free, r.randrange(0, min(4, len(free) + 1)))
            scratch = r.sample(R["scratch"], r.randrange(0, 6))
            listed = saved + [x for x in scratch if r.random() < 0.5]
            name = self.mod.new_clobber(saved + scratch)
            meta.append("generator = @%s" % name)
            if listed:
                meta.append("%s = [%s]" % (r.choice(("clobbered", "lateClobbered", "earlyClobbered")),
                                          ", ".join("%" + x for x in listed)))
            for bank in regs.values():
                bank[:] = [x for x in bank if x not in saved + scratch]
        elif r.random() < 0.3:
            # arm64's nops are 4-byte instructions: N is a multiple of 4 there.
            meta.append("generator = nop(%d)" % r.choice((0, 4, 8, 16) if self.mod.arch == "aarch64" else (0, 1, 5, 16)))
        kids = []
        budget = self.reg_budget()
        for _ in range(r.randrange(1, 8)):
            t = r.choice(TYPES)
            bank = regs["gp" if t in INTS else "fp"]
            c = r.random()
            # A call generator clobbers every caller-saved register at its
            # end: a late use can then only be in a callee-saved GPR (asking
            # for more is contradictory input, not a compiler bug).
            is_call = any(m.startswith("generator = @") for m in meta)
            if c < 0.4 and bank:
                reg = bank.pop()
                late_ok = not is_call or reg in R["callee_saved"]
                rp = ":%s(%%%s)" % (r.choice(("Register", "Register", "LateRegister")) if late_ok else "Register", reg)
            else:
                rp = r.choice(("", ":SomeRegister", ":WarmAny", ":ColdAny", ":LateColdAny", ":SomeRegister",
                               ":SomeLateRegister", ":SomeRegisterWithClobber"))
                if is_call and rp == ":SomeLateRegister":
                    rp = ":SomeRegister"  # keep the late uses few enough for the callee-saved GPRs
            kids.append("@%d%s" % (self.pick(t), self.within(budget, t, rp)))
        self.emit("Void", "Patchpoint(%s)" % ", ".join(kids + meta))

    def reg_budget(self):
        """How many children of one stackmap may ask for a register of each
        bank: a stackmap needing more registers at once than there are
        (pinned ones excluded) is unsatisfiable input, not a compiler bug."""
        R = self.mod.regs
        return {"gp": len(R["gpr"]) - len(self.pinned) - 4, "fp": len(R["fpr"]) - 4}

    def within(self, budget, t, rp):
        if rp in ("", ":WarmAny", ":ColdAny", ":LateColdAny") or rp.startswith(":StackArgument"):
            return rp
        bank = "gp" if t in INTS else "fp"
        if budget[bank] <= 0:
            return ""
        budget[bank] -= 1
        return rp

    def misc(self):
        r = self.rng
        if r.random() < 0.5 or "atomics" in self.mod.without:
            self.emit("Void", "Fence()")
        else:
            t = r.choice(INTS)
            self.emit(t, "Depend(@%d)" % self.pick(t))

    def one(self):
        cats, cum = self.mod.swarm
        before = {t: len(v) for t, v in self.vis.items()}
        if "float-widen" in self.mod.shapes and self.rng.random() < 0.3:
            self.float_widen()  # also among straight-line values: the shape is otherwise rare
        else:
            x = self.rng.random() * cum[-1]
            for c, w in zip(cats, cum):
                if x < w:
                    getattr(self, c)()
                    break
            else:
                self.int_binop()
        # Most values would be dead code (never emitted) or never observed:
        # fold new values into the running checksum variable.
        for t in TYPES:
            for n in self.vis[t][before[t]:]:
                if self.rng.random() < self.mod.obs_p:
                    self.observe(n, t)

    def as_int64(self, x, t):
        """The bits of x (NaN canonicalized) as an Int64."""
        x = self.canon(x, t)
        if t == "Float":
            x = self.emit("Int32", "BitwiseCast(@%d)" % x, visible=False)
            t = "Int32"
        elif t == "Double":
            x = self.emit("Int64", "BitwiseCast(@%d)" % x, visible=False)
            t = "Int64"
        if t == "Int32":
            x = self.emit("Int64", "ZExt32(@%d)" % x, visible=False)
        return x

    def observe(self, x, t):
        x = self.as_int64(x, t)
        a = self.emit("Int64", "Get(obs)", visible=False)
        m = self.emit("Int64", "Mul(@%d, @%d)" % (a, self.ci("Int64", 0x100000001B3)), visible=False)
        n = self.emit("Int64", "BitXor(@%d, @%d)" % (m, x), visible=False)
        self.emit("Void", "Set(@%d, obs)" % n)

    EDGE = {
        "Int32": (0, 1, -1, 2, -2, 31, 32, 0x7FFFFFFF, -0x80000000, 0x80000001, 0xFFFF),
        "Int64": (0, 1, -1, 63, 64, 0x7FFFFFFFFFFFFFFF, -0x8000000000000000, 0xFFFFFFFF, 0x80000000,
                  -0x80000000, 1 << 53, (1 << 53) + 1, (1 << 63) + 1024, (1 << 63) + 1025),
        "Float": (0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x3F800000,
                  0xBF800000, 0x00000001, 0x7F7FFFFF, 0x4F000000, 0xCF000000, 0x4EFFFFFF, 0x4F800000,
                  0x5F000000, 0xDF000000, 0x5F800000, 0x3F000000, 0xBF000000, 0xBF7FFFFF, 0x4B7FFFFF),
        "Double": (0x0000000000000000, 0x8000000000000000, 0x7FF0000000000000, 0xFFF0000000000000,
                   0x7FF8000000000000, 0xFFF8000000000000, 0x3FF0000000000000, 0xBFF0000000000000,
                   0x0000000000000001, 0x7FEFFFFFFFFFFFFF, 0x41DFFFFFFFE00000, 0x41DFFFFFFFF00000,
                   0x41E0000000000000, 0xC1E0000000000000, 0xC1E0000000100000, 0xC1E0000000200000,
                   0x41EFFFFFFFE00000, 0x41EFFFFFFFF00000, 0x41F0000000000000, 0x43E0000000000000,
                   0xC3E0000000000000, 0x43DFFFFFFFFFFFFF, 0x43EFFFFFFFFFFFFF, 0x43F0000000000000,
                   0x3FE0000000000000, 0xBFE0000000000000, 0xBFEFFFFFFFFFFFFF, 0x4330000000000000),
    }

    PAIRS = {
        "Int32": ((-0x80000000, -1), (-0x80000000, 0), (5, 0), (-1, -1), (0x7FFFFFFF, -1), (-0x80000000, 1)),
        "Int64": ((-0x8000000000000000, -1), (-0x8000000000000000, 0), (5, 0), (-1, -1), (0x7FFFFFFFFFFFFFFF, -1)),
        "Float": ((0x80000000, 0), (0, 0x80000000), (0x7FC00000, 0), (0x3F800000, 0x7FC00000),
                  (0x7F800000, 0xFF800000), (0x80000000, 0x80000000), (0, 0)),
        "Double": ((0x8000000000000000, 0), (0, 0x8000000000000000), (0x7FF8000000000000, 0),
                   (0x3FF0000000000000, 0x7FF8000000000000), (0x7FF0000000000000, 0xFFF0000000000000),
                   (0x8000000000000000, 0x8000000000000000), (0, 0)),
    }

    def edge(self, t, v=None):
        """An edge-case value of type t: a constant, or hidden from the
        instruction selector behind a variable."""
        r = self.rng
        if v is None:
            v = r.choice(self.EDGE[t])
        c = self.ci(t, v) if t in INTS else self.cfp(t, v)
        if r.random() < 0.5:
            name = "hide" + t
            if (name, t) not in self.vars:
                return c
            self.emit("Void", "Set(@%d, %s)" % (c, name))
            c = self.emit(t, "Get(%s)" % name, visible=False)
        return c

    def edge_op(self):
        """Operations on edge-case operands: Chill division by 0 and -1 of
        MIN, FMin/FMax of -0/+0/NaN, conversions at their saturation
        bounds, shifts by the width, comparisons with NaN."""
        r = self.rng
        t = r.choice(TYPES)
        a = self.edge(t) if r.random() < 0.8 else self.pick(t)
        b = self.edge(t) if r.random() < 0.8 else self.pick(t)
        if r.random() < 0.4:
            pa, pb = r.choice(self.PAIRS[t])
            a, b = self.edge(t, pa), self.edge(t, pb)
        k = r.random()
        if k < 0.45:
            if t in INTS:
                op = r.choice(("Add", "Sub", "Mul", "Div<Chill>", "Mod<Chill>", "Div<Chill>", "Mod<Chill>",
                               "BitAnd", "BitXor"))
            else:
                op = r.choice(("Add", "Sub", "Mul", "Div", "Mod", "FMin", "FMax", "FMin", "FMax"))
            self.emit(t, "%s(@%d, @%d)" % (op, a, b))
        elif k < 0.6:
            ops = ["Equal", "NotEqual", "LessThan", "GreaterThan", "LessEqual", "GreaterEqual"]
            ops += ["Above", "Below", "AboveEqual", "BelowEqual"] if t in INTS else ["EqualOrUnordered"]
            c = self.emit("Int32", "%s(@%d, @%d)" % (r.choice(ops), a, b))
            if r.random() < 0.5:
                st = r.choice(TYPES)
                self.emit(st, "Select(@%d, @%d, @%d)" % (c, self.pick(st), self.pick(st)))
        elif t in INTS:
            if k < 0.75:
                self.emit(t, "%s(@%d, @%d)" % (r.choice(("Shl", "SShr", "ZShr", "RotR", "RotL")), a,
                                               self.edge("Int32")))
            else:
                op = r.choice(("IToD", "UToD", "IToF", "UToF", "Clz", "Neg"))
                rt = {"IToD": "Double", "UToD": "Double", "IToF": "Float", "UToF": "Float"}.get(op, t)
                self.emit(rt, "%s(@%d)" % (op, a))
        else:
            op = r.choice(("DToI", "DToU", "DToI", "DToU", "Ceil", "Floor", "Sqrt", "Abs", "Neg", "Conv"))
            if op in ("DToI", "DToU"):
                self.emit(r.choice(INTS), "%s(@%d)" % (op, a))
            elif op == "Conv":
                self.emit("Double" if t == "Float" else "Float", "%s(@%d)" % (
                    "FloatToDouble" if t == "Float" else "DoubleToFloat", a))
            else:
                self.emit(t, "%s(@%d)" % (op, a))

    def const_any(self):
        self.const(self.rng.choice(TYPES))

    def straight(self, n):
        end = self.count + n
        while self.count < end:
            self.one()

    # ---- control flow ------------------------------------------------------

    def region(self, budget, depth):
        end = self.count + budget
        r = self.rng
        while self.count < end:
            left = end - self.count
            if self.mod.call_bias and r.random() < self.mod.call_bias:
                self.call_proc()
                continue
            if self.ivs and "affine" in self.mod.shapes and r.random() < 0.1:
                self.affine()
            elif self.mod.body_shapes and left > 8 and r.random() < 0.08:
                self.shape(min(left, r.randrange(6, 40)), depth)
            elif depth < 3 and left > 30 and r.random() < 0.4:
                sub = min(left - 5, r.randrange(15, max(16, min(left, 160 >> depth))))
                kind = r.random()
                if kind < 0.25:
                    self.diamond(sub, depth)
                elif kind < 0.4:
                    self.triangle(sub, depth)
                elif kind < 0.6:
                    self.switch(sub, depth)
                elif kind < 0.85:
                    self.loop(sub, depth)
                elif kind < 0.95:
                    self.dowhile(sub, depth)
                elif kind < 0.9 or len(self.proc.entries) == 1:
                    self.same_target()
                else:
                    self.entry_switch(sub, depth)
            else:
                self.straight(min(left, r.randrange(3, 15)))

    def phis(self, k):
        return [(self.rng.choice(TYPES), self.reserve()) for _ in range(k)]

    def upsilons(self, phis):
        for t, n in phis:
            self.emit("Void", "Upsilon(@%d, ^@%d)" % (self.pick(t), n))

    def latch_upsilons(self, phis):
        """Loop-carried values: sometimes a rotation of the Phis of one type
        (the parallel-copy problem), else fresh values."""
        r = self.rng
        if r.random() < 0.4:
            by = {}
            for t, n in phis:
                by.setdefault(t, []).append(n)
            for t, n in phis:
                ns = by[t]
                src = ns[(ns.index(n) + 1) % len(ns)]
                if r.random() < 0.8:
                    self.emit("Void", "Upsilon(@%d, ^@%d)" % (src, n))
                else:
                    self.emit("Void", "Upsilon(@%d, ^@%d)" % (self.pick(t), n))
        else:
            self.upsilons(phis)

    def define_phis(self, phis):
        for t, n in phis:
            self.emit(t, "Phi()", number=n)

    def maybe_return(self):
        """Sometimes ends an arm with a Return instead of joining."""
        if self.rng.random() < self.mod.return_p:
            self.finish()
            return True
        return False

    def diamond(self, budget, depth):
        phis = self.phis(self.rng.randrange(1, 4))
        cond = self.cond()
        then, other, merge = self.new_block(), self.new_block(), self.new_block()
        rare = "Rare:" if self.rng.random() < 0.1 else ""
        self.terminate("Branch(@%d)" % cond, "Then:#%d, Else:%s#%d" % (then.index, rare, other.index), (then, other))
        joined = 0
        for arm in (then, other):
            self.cur = arm
            self.push()
            self.region(budget // 2, depth + 1)
            if (arm is other and not joined) or not self.maybe_return():
                self.upsilons(phis)
                self.jump(merge)
                joined += 1
            self.pop()
        self.cur = merge
        self.define_phis(phis)
        self.maybe_dead_pred(merge, phis)

    def triangle(self, budget, depth):
        phis = self.phis(self.rng.randrange(1, 3))
        self.upsilons(phis)
        cond = self.cond()
        then, merge = self.new_block(), self.new_block()
        self.terminate("Branch(@%d)" % cond, "Then:#%d, Else:#%d" % (then.index, merge.index), (then, merge))
        self.cur = then
        self.push()
        self.region(budget, depth + 1)
        if not self.maybe_return():
            self.upsilons(phis)
            self.jump(merge)
        self.pop()
        self.cur = merge
        self.define_phis(phis)

    def switch(self, budget, depth):
        r = self.rng
        phis = self.phis(r.randrange(1, 3))
        t = r.choice(INTS)
        style = r.random()
        if style < 0.4:  # dense: a jump table
            lo = r.choice((0, 0, -3, 5, 100, -(1 << 31) if t == "Int32" else -(1 << 63), 0x7FFFFFF0))
            n = r.randrange(4, 10)
            cases = sorted(set(lo + i for i in range(n) if r.random() < 0.85))
            x = self.pick(t)
            m = self.emit(t, "BitAnd(@%d, @%d)" % (x, self.ci(t, 15)), visible=False)
            x = self.emit(t, "Add(@%d, @%d)" % (m, self.ci(t, lo - 2)), visible=False) if r.random() < 0.7 else x
        elif style < 0.8:  # sparse
            big = (1 << 31) if t == "Int32" else (1 << 63)
            pool = [0, 1, 2, 3, 7, -1, -2, 100, 1000, 65536, big - 1, -big, 12345678]
            if t == "Int64":
                pool += [1 << 32, (1 << 40) + 3, -(1 << 35)]
            cases = sorted(set(r.sample(pool, r.randrange(1, 8))))
            x = self.pick(t) if r.random() < 0.5 else self.emit(t, "BitAnd(@%d, @%d)" % (self.pick(t), self.ci(t, 3)), visible=False)
        elif style < 0.9:
            cases = sorted(r.sample(range(-4, 40), r.randrange(2, 12)))
            x = self.emit(t, "BitAnd(@%d, @%d)" % (self.pick(t), self.ci(t, 31)), visible=False)
        else:
            # Every value has a case: the default is unreachable (Oops).
            n = r.choice((2, 4, 8))
            x = self.emit(t, "BitAnd(@%d, @%d)" % (self.pick(t), self.ci(t, n - 1)), visible=False)
            arms = [self.new_block() for _ in range(r.randrange(1, n + 1))]
            targets = [arms[i] if i < len(arms) else r.choice(arms) for i in range(n)]
            oops = self.new_block()
            merge = self.new_block()
            succ = ", ".join("%d->#%d" % (c, b.index) for c, b in enumerate(targets)) + ", default->#%d" % oops.index
            self.terminate("Switch(@%d)" % x, succ, targets + [oops])
            self.cur = oops
            self.terminate("Oops()")
            for arm in arms:
                self.cur = arm
                self.push()
                self.region(budget // len(arms), depth + 1)
                self.upsilons(phis)
                self.terminate("Jump()", "#%d" % merge.index, (merge,))
                self.pop()
            self.cur = merge
            self.define_phis(phis)
            return
        if not cases:
            cases = [0]
        narms = len(cases) + 1
        arms = [self.new_block() for _ in range(min(narms, r.randrange(2, narms + 1)))]
        targets = [r.choice(arms) for _ in cases] + [arms[-1]]
        for i, a in enumerate(arms):  # every arm reachable
            if a not in targets:
                targets[i if i < len(cases) else -1] = a
        arms = [a for a in arms if a in targets]
        merge = self.new_block()
        wrap = lambda c: u32(c) - ((1 << 32) if u32(c) >= 1 << 31 else 0) if t == "Int32" else u64(c) - ((1 << 64) if u64(c) >= 1 << 63 else 0)
        succ = ", ".join("%d->#%d" % (wrap(c), b.index) for c, b in zip(cases, targets)) + ", default->#%d" % targets[-1].index
        self.terminate("Switch(@%d)" % x, succ, targets)
        joined = False
        for arm in arms:
            self.cur = arm
            self.push()
            self.region(budget // len(arms), depth + 1)
            if (arm is arms[-1] and not joined) or not self.maybe_return():
                self.upsilons(phis)
                self.jump(merge)
                joined = True
            self.pop()
        self.cur = merge
        self.define_phis(phis)

    def entry_switch(self, budget, depth):
        """EntrySwitch: one successor per entrypoint (it may stand anywhere,
        any number of times)."""
        r = self.rng
        phis = self.phis(r.randrange(0, 3))
        n = len(self.proc.entries)
        arms = [self.new_block() for _ in range(r.randrange(1, n + 1))]
        targets = [arms[i] if i < len(arms) else r.choice(arms) for i in range(n)]
        merge = self.new_block()
        self.terminate("EntrySwitch()", ", ".join("#%d" % b.index for b in targets), targets)
        for arm in arms:
            self.cur = arm
            self.push()
            self.region(budget // len(arms), depth + 1)
            self.upsilons(phis)
            self.terminate("Jump()", "#%d" % merge.index, (merge,))
            self.pop()
        self.cur = merge
        self.define_phis(phis)

    def same_target(self):
        """A Branch whose two successors are the same block."""
        phis = self.phis(self.rng.randrange(0, 2))
        self.upsilons(phis)
        cond = self.cond()
        nxt = self.new_block()
        self.terminate("Branch(@%d)" % cond, "Then:#%d, Else:#%d" % (nxt.index, nxt.index), (nxt,))
        self.cur = nxt
        self.define_phis(phis)

    def root_loop(self):
        """Makes the root block a loop header: it runs 1 to 4 times, counted
        in a byte of the buffer; ArgumentReg in it still reads the entry
        values."""
        r = self.rng
        off = r.randrange(0, BUF_SIZE)
        c = self.emit("Int32", "Load8Z(@%d, offset = %d)" % (self.P, off), visible=False)
        c1 = self.emit("Int32", "Add(@%d, @%d)" % (c, self.ci("Int32", 1)))
        self.emit("Void", "Store8(@%d, @%d, offset = %d)" % (c1, self.P, off))
        for _ in range(r.randrange(0, 8)):
            r.choice((self.int_binop, self.shift, self.fp_op, self.conversion, self.compare, self.select))()
        if self.reg_params and r.random() < 0.7:
            self.reread_arg()
        m = self.emit("Int32", "BitAnd(@%d, @%d)" % (c1, self.ci("Int32", 3)), visible=False)
        root = self.cur
        nxt = self.new_block()
        self.terminate("Branch(@%d)" % m, "Then:#%d, Else:#%d" % (root.index, nxt.index), (root, nxt))
        self.cur = nxt

    def bound(self):
        r = self.rng
        if r.random() < 0.5:
            return self.ci("Int32", r.randrange(0, 6))
        return self.emit("Int32", "BitAnd(@%d, @%d)" % (self.pick("Int32"), self.ci("Int32", r.choice((3, 7)))), visible=False)

    def loop(self, budget, depth):
        r = self.rng
        i_phi = ("Int32", self.reserve())
        carried = self.phis(r.choice((0, 1, 2, 3, 3, 6, 10)))
        zero = self.ci("Int32", 0)
        bound = self.bound()
        self.emit("Void", "Upsilon(@%d, ^@%d)" % (zero, i_phi[1]))
        self.upsilons(carried)
        counters = self.second_counter()
        header, body, exit_ = self.new_block(), self.new_block(), self.new_block()
        self.terminate("Jump()", "#%d" % header.index, (header,))
        self.cur = header
        self.define_phis([i_phi] + carried + counters[:1])
        cond = self.emit("Int32", "LessThan(@%d, @%d)" % (i_phi[1], bound), visible=False)
        self.terminate("Branch(@%d)" % cond, "Then:#%d, Else:#%d" % (body.index, exit_.index), (body, exit_))
        self.cur = body
        self.push()
        self.ivs.append(i_phi + (len(self.vis["Int32"]),))
        self.ivs.extend(c + (len(self.vis["Int64"]),) for c in counters[:1])
        self.region(budget, depth + 1)
        del self.ivs[len(self.ivs) - 1 - len(counters[:1]):]
        nxt = self.emit("Int32", "Add(@%d, @%d)" % (i_phi[1], self.ci("Int32", 1)), visible=False)
        self.emit("Void", "Upsilon(@%d, ^@%d)" % (nxt, i_phi[1]))
        self.step_counter(counters)
        self.latch_upsilons(carried)
        self.jump(header)
        self.pop()
        self.cur = exit_

    def second_counter(self):
        """affine: [(Int64 Phi), step] of a counter from a value before the
        loop by a value before the loop, with its first Upsilon; [] when
        the shape is off."""
        if "affine" not in self.mod.shapes:
            return []
        phi = ("Int64", self.reserve())
        self.emit("Void", "Upsilon(@%d, ^@%d)" % (self.pick("Int64"), phi[1]))
        return [phi, self.pick("Int64")]

    def step_counter(self, counters):
        if counters:
            (t, n), step = counters
            nxt = self.emit(t, "Add(@%d, @%d)" % (n, step), visible=False)
            self.emit("Void", "Upsilon(@%d, ^@%d)" % (nxt, n))

    def affine(self):
        """affine: see SHAPES."""
        r = self.rng
        if not self.ivs:
            return
        t, e, before = r.choice(self.ivs)

        def inv():
            # mostly a value from before the loop: invariant in it
            if before and r.random() < 0.85:
                return self.vis[t][r.randrange(before)]
            return self.pick(t)

        for _ in range(r.randrange(1, 6)):
            k = r.randrange(7)
            if k == 0:
                e = self.emit(t, "Add(@%d, @%d)" % (e, inv()), visible=False)
            elif k == 1:
                e = self.emit(t, "Sub(@%d, @%d)" % (e, inv()), visible=False)
            elif k == 2:
                e = self.emit(t, "Sub(@%d, @%d)" % (inv(), e), visible=False)
            elif k == 3:
                e = self.emit(t, "Mul(@%d, @%d)" % (e, inv()), visible=False)
            elif k == 4:
                e = self.emit(t, "Shl(@%d, @%d)" % (e, self.ci("Int32", r.randrange(0, 70))), visible=False)
            elif k == 5:
                e = self.emit(t, "Neg(@%d)" % e, visible=False)
            else:
                e = self.emit(t, "Add(@%d, @%d)" % (e, self.ci(t, r.choice(self.EDGE[t]))), visible=False)
        self.observe(e, t)
        if r.random() < 0.3:
            self.vis[t].append(e)

    def dowhile(self, budget, depth):
        """A bottom-tested loop; the body may be a single self-looping block."""
        r = self.rng
        i_phi = ("Int32", self.reserve())
        carried = self.phis(r.randrange(0, 4))
        bound = self.bound()
        self.emit("Void", "Upsilon(@%d, ^@%d)" % (self.ci("Int32", 0), i_phi[1]))
        self.upsilons(carried)
        body, exit_ = self.new_block(), self.new_block()
        self.terminate("Jump()", "#%d" % body.index, (body,))
        self.cur = body
        self.define_phis([i_phi] + carried)
        self.push()
        if r.random() < 0.5:
            self.straight(min(budget, 12))
        else:
            self.region(budget, depth + 1)
        nxt = self.emit("Int32", "Add(@%d, @%d)" % (i_phi[1], self.ci("Int32", 1)), visible=False)
        self.emit("Void", "Upsilon(@%d, ^@%d)" % (nxt, i_phi[1]))
        self.latch_upsilons(carried)
        cond = self.emit("Int32", "LessThan(@%d, @%d)" % (nxt, bound), visible=False)
        self.terminate("Branch(@%d)" % cond, "Then:#%d, Else:#%d" % (body.index, exit_.index), (body, exit_))
        self.pop()
        self.cur = exit_

    # ---- switchable shapes (SHAPES) -------------------------------------------

    def jump(self, target):
        """Jump to target, with jump-chain sometimes through empty blocks."""
        if "jump-chain" in self.mod.shapes and self.rng.random() < 0.2:
            for _ in range(self.rng.randrange(1, 4)):
                nxt = self.new_block()
                self.terminate("Jump()", "#%d" % nxt.index, (nxt,))
                self.cur = nxt
        self.terminate("Jump()", "#%d" % target.index, (target,))

    def chain_to(self, target):
        """jump-chain: a block that only jumps to target (through 1 to 3
        empty blocks), to stand for target as a branch's successor."""
        save = self.cur
        first = self.cur = self.new_block()
        for _ in range(self.rng.randrange(0, 3)):
            nxt = self.new_block()
            self.terminate("Jump()", "#%d" % nxt.index, (nxt,))
            self.cur = nxt
        self.terminate("Jump()", "#%d" % target.index, (target,))
        self.cur = save
        return first

    def in_dead_block(self, block, fn):
        """Runs fn with block current and no reachable value visible: a use
        in an unreachable block of a value defined in reachable code would
        not be dominated by it."""
        save, vis, marks = self.cur, self.vis, self.marks
        self.cur, self.vis, self.marks = block, {t: [] for t in TYPES}, []
        try:
            fn()
        finally:
            self.cur, self.vis, self.marks = save, vis, marks

    def dead_ops(self):
        """A little arithmetic on what is visible (in a dead block)."""
        r = self.rng
        for _ in range(r.randrange(0, 4)):
            t = r.choice(INTS)
            self.emit(t, "%s(@%d, @%d)" % (r.choice(("Add", "Sub", "BitXor", "Mul")), self.pick(t), self.pick(t)))

    def dead_end(self):
        """Ends a dead block: Return or Oops."""
        if self.rng.random() < 0.3:
            self.terminate("Oops()")
        elif self.proc.ret == "Void":
            self.terminate("Return()")
        else:
            self.terminate("Return(@%d)" % self.pick(self.proc.ret))

    def dead_phi(self):
        """dead-phi: Phis in an unreachable block (maybe behind another one),
        written by Upsilons here."""
        r = self.rng
        phis = self.phis(r.randrange(1, 4))
        self.upsilons(phis)
        blocks = [self.new_block() for _ in range(r.randrange(1, 3))]

        def body():
            for i, b in enumerate(blocks):
                self.cur = b
                if i == len(blocks) - 1:
                    self.define_phis(phis)
                    self.dead_ops()
                    self.dead_end()
                else:
                    if r.random() < 0.5:  # the Phis' Upsilons in a dead block too
                        self.upsilons(phis)
                    self.dead_ops()
                    self.terminate("Jump()", "#%d" % blocks[i + 1].index, (blocks[i + 1],))
        self.in_dead_block(blocks[0], body)

    def maybe_dead_pred(self, merge, phis):
        """dead-phi: sometimes an unreachable predecessor of the join merge
        (current, its Phis defined), with Upsilons to its Phis, and a Phi of
        its own written from here."""
        r = self.rng
        if "dead-phi" not in self.mod.shapes or r.random() > 0.25:
            return
        own = self.phis(r.randrange(0, 2))
        self.upsilons(own)
        dead = self.new_block()

        def body():
            self.define_phis(own)
            self.dead_ops()
            self.upsilons(phis)
            if "jump-chain" in self.mod.shapes and r.random() < 0.5:
                first = self.chain_to(merge)
                self.terminate("Jump()", "#%d" % first.index, (first,))
            else:
                self.terminate("Jump()", "#%d" % merge.index, (merge,))
        self.in_dead_block(dead, body)

    def wrap_cmp(self, c):
        """c tested against 0 (either side): NotEqual, Equal, Equal of Equal,
        or c itself."""
        r = self.rng
        k = r.random()

        def test(op, x):
            z = self.ci("Int32", 0)
            a, b = (x, z) if r.random() < 0.8 else (z, x)
            return self.emit("Int32", "%s(@%d, @%d)" % (op, a, b), visible=False)
        if k < 0.35:
            return test("NotEqual", c)
        if k < 0.65:
            return test("Equal", c)
        if k < 0.85:
            return test(r.choice(("Equal", "NotEqual")), test("Equal", c))
        return c

    def flag_use(self, d, c):
        """Another use of d (or c): it is needed in a register."""
        r = self.rng
        x = d if r.random() < 0.75 else c
        k = r.random()
        if k < 0.3:
            self.observe(x, "Int32")
        elif k < 0.55:
            t = r.choice(TYPES)
            self.emit(t, "Select(@%d, @%d, @%d)" % (x, self.pick(t), self.pick(t)))
        elif k < 0.75:
            self.observe(self.emit("Int64", "ZExt32(@%d)" % x), "Int64")
        elif k < 0.85:
            self.check(pred=x)
        else:
            self.emit("Int32", "%s(@%d, @%d)" % (r.choice(("Add", "BitXor", "Sub")), x, self.pick("Int32")))

    def flag_reuse(self):
        """cmp-reuse without a branch: d fused into a Select and used again."""
        r = self.rng
        c = self.compare(visible=False)
        d = self.wrap_cmp(c)
        for _ in range(r.randrange(0, 2)):
            self.flag_use(d, c)
        t = r.choice(TYPES)
        self.emit(t, "Select(@%d, @%d, @%d)" % (d, self.pick(t), self.pick(t)))
        for _ in range(r.randrange(1, 3)):
            self.flag_use(d, c)

    def cmp_branch(self, budget, depth):
        """cmp-reuse: Branch on d, and d used before, in the arms (Return,
        Upsilon, ...) and through a Phi after."""
        r = self.rng
        c = self.compare(visible=False)
        d = self.wrap_cmp(c)
        for _ in range(r.randrange(0, 3)):
            self.flag_use(d, c)
        phis = [("Int32", self.reserve())] + self.phis(r.randrange(0, 2))
        up_before = r.random() < 0.3
        if up_before:
            self.emit("Void", "Upsilon(@%d, ^@%d)" % (d, phis[0][1]))
        then, other, merge = self.new_block(), self.new_block(), self.new_block()
        cond = d if r.random() < 0.85 else c
        self.terminate("Branch(@%d)" % cond, "Then:#%d, Else:#%d" % (then.index, other.index), (then, other))
        returned = False
        for arm in (then, other):
            self.cur = arm
            self.push()
            if r.random() < 0.5:
                self.flag_use(d, c)
            self.region(budget // 2, depth + 1)
            if not returned and r.random() < 0.3:
                returned = True
                self.finish(flag=d)
            else:
                if not up_before:
                    self.emit("Void", "Upsilon(@%d, ^@%d)" % (d if r.random() < 0.7 else self.pick("Int32"), phis[0][1]))
                self.upsilons(phis[1:])
                self.jump(merge)
            self.pop()
        self.cur = merge
        self.define_phis(phis)
        if r.random() < 0.7:
            self.observe(phis[0][1], "Int32")

    def branch_chain(self, budget, depth):
        """jump-chain: a diamond whose Branch goes to its arms through empty
        blocks."""
        r = self.rng
        phis = self.phis(r.randrange(0, 3))
        cond = self.cond()
        then, other, merge = self.new_block(), self.new_block(), self.new_block()
        t = self.chain_to(then) if r.random() < 0.7 else then
        e = self.chain_to(other) if r.random() < 0.7 else other
        self.terminate("Branch(@%d)" % cond, "Then:#%d, Else:#%d" % (t.index, e.index), (t, e))
        for arm in (then, other):
            self.cur = arm
            self.push()
            self.region(budget // 2, depth + 1)
            self.upsilons(phis)
            self.jump(merge)
            self.pop()
        self.cur = merge
        self.define_phis(phis)

    def eq_chain(self, budget, depth):
        """eq-chain: x tested against constants by a chain of blocks, each
        falling through to the next; the arms use x and test it again."""
        r = self.rng
        phis = self.phis(r.randrange(1, 3))
        ints = [p for p in self.reg_params if p[0] in INTS]
        if ints and r.random() < 0.8:  # a parameter: not folded away before the phases see it
            t, reg = r.choice(ints)
            src = self.param_value(t, reg)
        else:
            t = r.choice(INTS)
            src = self.pick(t)
        mask = r.choice((3, 7, 15))
        if r.random() < 0.85:
            x = self.emit(t, "BitAnd(@%d, @%d)" % (src, self.ci(t, mask)), visible=False)
            if r.random() < 0.3:
                x = self.emit(t, "Add(@%d, @%d)" % (x, self.ci(t, -2)), visible=False)
        else:
            x = src
        merge = self.new_block()
        arms = []  # (block, the constant x equals there, or None)
        for i in range(r.randrange(2, 7)):
            if i and r.random() < 0.15:  # something else in the way
                self.observe(x, t)
            nxt = self.new_block()
            kind = r.random()
            if kind < 0.6:
                c = r.randrange(-2, mask + 2)
                k = self.ci(t, c)
                op = "Equal" if r.random() < 0.6 else "NotEqual"
                a, b = (x, k) if r.random() < 0.7 else (k, x)
                cmp = self.emit("Int32", "%s(@%d, @%d)" % (op, a, b), visible=False)
                arm = self.new_block()
                arms.append((arm, c))
                pair = (arm, nxt) if op == "Equal" else (nxt, arm)
                self.terminate("Branch(@%d)" % cmp, "Then:#%d, Else:#%d" % (pair[0].index, pair[1].index), pair)
            elif kind < 0.75:
                arm = self.new_block()
                arms.append((arm, 0))
                self.terminate("Branch(@%d)" % x, "Then:#%d, Else:#%d" % (nxt.index, arm.index), (nxt, arm))
            else:
                cases = sorted(r.sample(range(-2, mask + 2), r.randrange(1, 4)))
                targets = []
                for c in cases:
                    arm = self.new_block()
                    arms.append((arm, c))
                    targets.append(arm)
                succ = ", ".join("%d->#%d" % (c, b.index) for c, b in zip(cases, targets))
                self.terminate("Switch(@%d)" % x, succ + ", default->#%d" % nxt.index, targets + [nxt])
            self.cur = nxt
        arms.append((self.cur, None))
        for arm, c in arms:
            self.cur = arm
            self.push()
            if r.random() < 0.5:
                self.observe(x, t)
            if c is not None and r.random() < 0.5:  # decided by the path
                cmp = self.emit("Int32", "%s(@%d, @%d)" % (r.choice(("Equal", "NotEqual")), x, self.ci(t, c)), visible=False)
                u = r.choice(TYPES)
                self.emit(u, "Select(@%d, @%d, @%d)" % (cmp, self.pick(u), self.pick(u)))
            self.region(budget // len(arms), depth + 1)
            self.upsilons(phis)
            self.jump(merge)
            self.pop()
        self.cur = merge
        self.define_phis(phis)

    def shape(self, budget, depth):
        """One of the enabled SHAPES."""
        r = self.rng
        k = r.choice(sorted(self.mod.body_shapes))
        if k == "eq-chain":
            if depth < 3:
                self.eq_chain(budget, depth)
            else:
                self.observe(self.pick("Int32"), "Int32")
        elif k == "cmp-reuse":
            if depth < 3 and r.random() < 0.7:
                self.cmp_branch(budget, depth)
            else:
                self.flag_reuse()
        elif k == "dead-phi":
            self.dead_phi()
        elif k == "affine":
            for _ in range(r.randrange(1, 4)):
                self.affine()
        elif k == "float-widen":
            for _ in range(r.randrange(4, 12)):
                self.float_widen()
        elif depth < 3:
            self.branch_chain(budget, depth)
        else:
            nxt = self.new_block()
            self.jump(nxt)
            self.cur = nxt

    def widened(self):
        """A Float widened to Double, or a Double constant (one a Float may
        hold exactly, or not)."""
        r = self.rng
        if r.random() < 0.25:
            lit = r.choice(("0.5", "-0.0", "0.0", "3", "1e30", "0.1", "1e-45", "nan", "inf", "16777217",
                            "bits(0x7ff8000000000001)", "0x1p-149", "-2.25"))
            return self.emit("Double", "ConstDouble(%s)" % lit, visible=False)
        return self.emit("Double", "FloatToDouble(@%d)" % self.pick("Float"), visible=False)

    def float_widen(self):
        """float-widen: see SHAPES."""
        r = self.rng
        k = r.random()
        if k < 0.45:
            op = r.choice(("Add", "Sub", "Mul", "Div", "Add", "Mul", "FMin", "Mod"))
            d = self.emit("Double", "%s(@%d, @%d)" % (op, self.widened(), self.widened()), visible=False)
        elif k < 0.7:
            op = r.choice(("Sqrt", "Abs", "Ceil", "Floor", "Neg"))
            d = self.emit("Double", "%s(@%d)" % (op, self.widened()), visible=False)
        elif k < 0.85:
            # The product is exact in Double: narrowing it first is wrong.
            m = self.emit("Double", "Mul(@%d, @%d)" % (self.widened(), self.widened()), visible=False)
            d = self.emit("Double", "%s(@%d, @%d)" % (r.choice(("Add", "Sub")), m, self.widened()),
                          visible=False)
        else:
            op = r.choice(("LessThan", "GreaterEqual", "Equal", "NotEqual", "EqualOrUnordered"))
            self.emit("Int32", "%s(@%d, @%d)" % (op, self.widened(), self.widened()))
            return
        self.emit("Float", "DoubleToFloat(@%d)" % d)
        if r.random() < 0.2:
            self.vis["Double"].append(d)  # also used as Double: must stay Double

    # ---- the procedure -------------------------------------------------------

    def reread_arg(self):
        """ArgumentReg may stand in any block: read a register parameter again."""
        if not self.reg_params:
            return
        t, reg = self.rng.choice(self.reg_params)
        self.param_value(t, reg)

    def param_value(self, t, reg):
        if t == "Int64":
            return self.emit(t, "ArgumentReg(%%%s)" % reg)
        if t == "Double":
            return self.emit(t, "ArgumentReg(%%%s)" % reg)
        a = self.emit("Int64" if t == "Int32" else "Double", "ArgumentReg(%%%s)" % reg, visible=False)
        return self.emit(t, "Trunc(@%d)" % a)

    def finish(self, flag=None):
        """Folds some live values into the buffer, then returns (flag: an
        Int32 0/1 to return, when the procedure returns an integer)."""
        r = self.rng
        acc = self.emit("Int64", "Get(obs)", visible=False)
        for _ in range(r.randrange(2, 10)):
            t = r.choice(TYPES)
            x = self.as_int64(self.pick(t), t)
            m = self.emit("Int64", "Mul(@%d, @%d)" % (acc, self.ci("Int64", 0x100000001B3)), visible=False)
            acc = self.emit("Int64", "BitXor(@%d, @%d)" % (m, x), visible=False)
        self.emit("Void", "Store(@%d, @%d, offset = %d)" % (acc, self.P, r.randrange(0, BUF_SIZE // 8) * 8))
        if self.proc.ret == "Void":
            self.terminate("Return()")
        elif flag is not None and self.proc.ret == "Int32":
            self.terminate("Return(@%d)" % flag)
        elif flag is not None and self.proc.ret == "Int64":
            self.terminate("Return(@%d)" % self.emit("Int64", "ZExt32(@%d)" % flag, visible=False))
        else:
            self.terminate("Return(@%d)" % self.pick(self.proc.ret))

    def generate(self):
        r = self.rng
        e = self.emit
        gp = ["argumentGPR%d" % i for i in range(1, len(self.mod.regs["arg_gpr"]))]
        fp = ["argumentFPR%d" % i for i in range(8)]
        self.P = e("Int64", "ArgumentReg(%argumentGPR0)", visible=False)
        self.reg_params = []
        stack_k = 0
        fpv = None
        params = []
        for t in self.proc.params:
            bank = gp if t in INTS else fp
            if bank:
                reg = bank.pop(0)
                self.reg_params.append((t, reg))
                params.append(self.param_value(t, reg))
            else:
                if fpv is None:
                    fpv = e("Int64", "FramePointer()", visible=False)
                params.append(e(t, "Load(@%d, offset = %d)" % (fpv, 16 + 8 * stack_k)))
                stack_k += 1
        for t in TYPES:
            for _ in range(r.randrange(1, 5)):
                self.const(t)
        e("Void", "Set(@%d, obs)" % self.ci("Int64", 0x9E3779B97F4A7C15))
        if r.random() < 0.2:
            self.root_loop()
        # Stack slots, fully initialized here.
        for i in range(r.choice((0, 0, 1, 2))):
            size = r.choice((8, 16, 24, 40, 64, 128, 136))
            name = "stack%d" % i
            self.slots.append((name, size))
            base = e("Int64", "SlotBase(%s)" % name, visible=False)
            for off in range(0, size, 8):
                e("Void", "Store(@%d, @%d, offset = %d)" % (self.pick("Int64"), base, off))
        for i in range(r.choice((0, 1, 2, 3))):
            t = r.choice(TYPES)
            name = "var%d" % i
            self.vars.append((name, t))
            e("Void", "Set(@%d, %s)" % (self.pick(t), name))
        for t in TYPES:  # for edge(): Set right before each Get
            if r.random() < 0.7:
                self.vars.append(("hide" + t, t))
                e("Void", "Set(@%d, hide%s)" % (self.pick(t), t))
        if len(self.proc.entries) > 1 and r.random() < 0.5:
            self.entry_switch(r.randrange(5, 30), 1)
        self.region(self.budget, 0)
        self.finish()
        return self.write()

    def write(self):
        o = []
        w = o.append
        head = "proc @%s" % self.proc.name
        if len(self.proc.entries) > 1:
            head += " entrypoints(%s)" % ", ".join("@" + e for e in self.proc.entries)
        if self.pinned:
            # Fewer registers to allocate; a pinned callee-saved register is
            # the caller's, never written.
            head += " pinned(%s)" % ", ".join("%" + x for x in self.pinned)
        w(head + " {")
        # The text may number values and blocks in any way and write the
        # blocks in any order after the root (spec section 3).
        r = self.rng
        vmap = bmap = None
        if r.random() < 0.3:
            nums = r.sample(range(self.next_value * r.choice((1, 3, 50))), self.next_value)
            vmap = dict(enumerate(nums))
        if r.random() < 0.3:
            nums = r.sample(range(len(self.blocks) * r.choice((1, 2, 100))), len(self.blocks))
            bmap = dict(enumerate(nums))
        fix_v = (lambda line: re.sub(r"@(\d+)", lambda m: "@%d" % vmap[int(m.group(1))], line)) if vmap else (lambda line: line)
        fix_b = (lambda line: re.sub(r"#(\d+)", lambda m: "#%d" % bmap[int(m.group(1))], line)) if bmap else (lambda line: line)
        order = [b for b in self.blocks if b.lines]
        if r.random() < 0.3:
            rest = order[1:]
            r.shuffle(rest)
            order = order[:1] + rest
        for b in order:
            w(fix_b("BB#%d:" % b.index))
            if b.preds:
                w(fix_b("  Predecessors: %s" % ", ".join("#%d" % p.index for p in sorted(b.preds, key=lambda p: p.index))))
            o.extend(fix_v(line) for line in b.lines)
            if b.succ:
                w(fix_b("  Successors: %s" % b.succ))
        w("Variables:")
        w("    Int64 obs")
        for name, t in self.vars:
            w("    %s %s" % (t, name))
        if self.slots:
            w("Stack slots:")
            for name, size in self.slots:
                w("    %s: byteSize = %d" % (name, size))
        w("}")
        return "\n".join(o)


def generate(seed, outdir, size=60, shapes=None, target="x86_64", without=()):
    m = ModuleGen(seed, size, shapes, target, without).generate()
    plan = m.plan()
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "prog.b3"), "w") as f:
        f.write(m.b3_text())
    with open(os.path.join(outdir, "driver.c"), "w") as f:
        f.write(driver_c(plan))
    with open(os.path.join(outdir, "plan.json"), "w") as f:
        json.dump(plan, f)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    size = 60
    shapes = None
    target = "x86_64"
    without = ()
    for a in sys.argv[1:]:
        if a.startswith("--size="):
            size = int(a.split("=", 1)[1])
        elif a.startswith("--target="):
            target = target_arch(a.split("=", 1)[1])
        elif a.startswith("--shapes="):
            shapes = parse_shapes(a.split("=", 1)[1])
        elif a.startswith("--without="):
            without = parse_without(a.split("=", 1)[1])
        elif a.startswith("--"):
            sys.exit("gen_random.py: unknown option %s" % a)
    if len(args) != 2:
        sys.exit("usage: gen_random.py SEED OUTDIR [--size=N] [--shapes=LIST] [--target=TRIPLE] [--without=LIST]")
    generate(int(args[0]), args[1], size, shapes, target, without)


if __name__ == "__main__":
    main()
