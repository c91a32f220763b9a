#!/usr/bin/env python3
"""Delta-debugging reducer for a failing difftest case.

    python3 reduce.py CASEDIR OUTDIR [--mode=mismatch|b3c] [--opt=-O2]

CASEDIR holds prog.b3 and plan.json (as gen_random.py writes them).  The
reducer keeps a change when the case stays "interesting":
  mismatch: b3c compiles it, the interpreter runs it without error, and the
            compiled program's output differs from the interpreter's;
  b3c:      b3c exits with status >= 2 (internal error or crash).
It first keeps a single failing call and the procedures it needs, then
repeatedly (ddmin style) turns branches and switches into jumps, deletes
Void values, replaces values by constants, drops stackmap children and
removes dead values.  OUTDIR gets prog.b3, plan.json and driver.c.
"""

import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_random  # noqa: E402
import toolchain  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
B3C = os.environ.get("B3C", os.path.join(ROOT, "b3c"))
ZERO = {"Int32": "Const32(0)", "Int64": "Const64(0)", "Float": "ConstFloat(0)", "Double": "ConstDouble(0)"}
ONE = {"Int32": "Const32(1)", "Int64": "Const64(1)", "Float": "ConstFloat(1)", "Double": "ConstDouble(1)"}


# ---- module model ---------------------------------------------------------------

class Block:
    def __init__(self, num):
        self.num = num
        self.values = []  # [type, num, text]
        self.succ = None


class ProcT:
    def __init__(self, name, head):
        self.name, self.head = name, head
        self.blocks = []
        self.tail = []


class Mod:
    def __init__(self, text):
        self.pre = []
        self.procs = []
        cur = None
        tail = False
        for line in text.splitlines():
            st = line.strip()
            if cur is None:
                m = re.match(r"proc @(\w+)", st)
                if m:
                    cur = ProcT(m.group(1), line)
                    self.procs.append(cur)
                    tail = False
                elif st:
                    self.pre.append(line)
                continue
            if st == "}":
                cur = None
                continue
            m = re.match(r"BB#(\d+):", st)
            if m:
                cur.blocks.append(Block(int(m.group(1))))
                continue
            if st.startswith("Predecessors:"):
                continue
            if st.startswith("Successors:"):
                cur.blocks[-1].succ = st[len("Successors:"):].strip()
                continue
            if st in ("Variables:", "Stack slots:"):
                tail = True
            if tail:
                cur.tail.append(line)
                continue
            m = re.match(r"(\w+) @(\d+) = (.*)$", st)
            cur.blocks[-1].values.append([m.group(1), int(m.group(2)), m.group(3)])

    def text(self):
        o = list(self.pre)
        for p in self.procs:
            o.append("")
            o.append(p.head)
            for b in p.blocks:
                o.append("BB#%d:" % b.num)
                for t, n, txt in b.values:
                    o.append("    %s @%d = %s" % (t, n, txt))
                if b.succ:
                    o.append("  Successors: %s" % b.succ)
            o.extend(p.tail)
            o.append("}")
        return "\n".join(o) + "\n"

    def size(self):
        return sum(len(b.values) for p in self.procs for b in p.blocks)


def refs(text):
    return set(int(x) for x in re.findall(r"(?<![\w^])@(\d+)", text))


def targets(succ):
    return [int(x) for x in re.findall(r"#(\d+)", succ or "")]


# ---- the test ---------------------------------------------------------------------

class Tester:
    def __init__(self, mode, opt):
        self.mode, self.opt = mode, opt
        self.work = tempfile.mkdtemp(prefix="b3reduce")
        self.runs = 0

    def write(self, d, mod, plan):
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "prog.b3"), "w") as f:
            f.write(mod.text())
        with open(os.path.join(d, "plan.json"), "w") as f:
            json.dump(plan, f)
        with open(os.path.join(d, "driver.c"), "w") as f:
            f.write(gen_random.driver_c(plan))

    def outputs(self, mod, plan):
        """(b3c status, compiled output or None, interpreter output or None)."""
        self.runs += 1
        d = self.work
        self.write(d, mod, plan)
        # The case's target (its plan says which; x86-64 for older cases).
        flags, cc, run = toolchain.toolchain(plan.get("target", "x86_64"))
        try:
            r = subprocess.run([B3C] + flags + ["--verify-each", self.opt, d + "/prog.b3", "-o", d + "/prog.o"],
                               capture_output=True, timeout=60)
        except subprocess.TimeoutExpired:
            return 124, None, None
        if r.returncode != 0 or self.mode == "b3c":
            return r.returncode, None, None
        r2 = subprocess.run(cc + ["-o", d + "/exe", d + "/driver.c", d + "/prog.o", "-lm"], capture_output=True)
        if r2.returncode != 0:
            return 0, None, None
        try:
            out = subprocess.run(run + [d + "/exe"], capture_output=True,
                                 timeout=30 if run else 10).stdout.decode(errors="replace")
        except subprocess.TimeoutExpired:
            out = "TIMEOUT"
        ref = subprocess.run([sys.executable, os.path.join(HERE, "interp.py"), d], capture_output=True, timeout=120)
        if ref.returncode != 0:
            return 0, out, None
        return 0, out, ref.stdout.decode()

    def interesting(self, mod, plan):
        st, out, ref = self.outputs(mod, plan)
        if self.mode == "b3c":
            return st >= 2
        return st == 0 and out is not None and ref is not None and out != ref


# ---- reductions --------------------------------------------------------------------

def used_procs(mod, root):
    by = {p.name: p for p in mod.procs}
    seen, todo = set(), [root]
    while todo:
        n = todo.pop()
        if n in seen or n not in by:
            continue
        seen.add(n)
        for b in by[n].blocks:
            for _, _, txt in b.values:
                for m in re.findall(r"SymbolAddress\(@(\w+)", txt):
                    todo.append(re.sub(r"_e\d+$", "", m))
    return seen


def first_bad_call(t, mod, plan):
    _, out, ref = t.outputs(mod, plan)
    if t.mode == "b3c" or out is None or ref is None:
        return None
    a, b = out.splitlines(), ref.splitlines()
    call = None
    for x, y in zip(a, b):
        if x.startswith("== "):
            call = int(x.split()[1])
        if x != y:
            return call
    return call


def changes(mod):
    """Candidate changes, each (kind, proc name, key)."""
    ch = []
    for p in mod.procs:
        for b in p.blocks:
            if not b.values:
                continue
            last = b.values[-1]
            if last[2].startswith(("Branch", "Switch")):
                for tg in sorted(set(targets(b.succ))):
                    ch.append(("jump", p.name, (b.num, tg)))
            for t, n, txt in b.values[:-1]:
                if t == "Void":
                    ch.append(("delete", p.name, n))
                elif not txt.startswith("Const"):
                    ch.append(("const", p.name, n))
                if re.match(r"(Check|CheckAdd|CheckSub|CheckMul)\(", txt):
                    ch.append(("unstack", p.name, n))
    return ch


def apply(mod, plan, change):
    kind, pname, key = change
    p = next((q for q in mod.procs if q.name == pname), None)
    if p is None:
        return
    if kind == "jump":
        bnum, tg = key
        for b in p.blocks:
            if b.num == bnum and b.values and b.values[-1][2].startswith(("Branch", "Switch")) and tg in targets(b.succ):
                b.values[-1][2] = "Jump()"
                b.succ = "#%d" % tg
        return
    for b in p.blocks:
        for i, v in enumerate(b.values):
            if v[1] != key:
                continue
            if kind == "delete":
                del b.values[i]
            elif kind == "const":
                if v[2].startswith("Phi("):
                    for bb in p.blocks:
                        bb.values = [w for w in bb.values if not w[2].endswith("^@%d)" % key)]
                v[2] = ZERO[v[0]]
            elif kind == "unstack":
                m = re.match(r"(\w+)\((.*)\)$", v[2])
                op, args = m.group(1), [a.strip() for a in m.group(2).split(",")]
                kids = [a for a in args if a.startswith("@")]
                meta = [a for a in args if not a.startswith("@")]
                fixed = 1 if op == "Check" else 2
                if len(kids) <= fixed:
                    return
                ex = [a for a in meta if a.startswith("exit")][0].split("@")[1]
                h = next(h for h in plan["handlers"] if h["name"] == ex)
                # drop the last child (and the handler's last parameter)
                h["params"].pop()
                kids.pop()
                v[2] = "%s(%s)" % (op, ", ".join(kids + meta))
            return


def remove_dead(mod):
    changed = True
    while changed:
        changed = False
        for p in mod.procs:
            used = set()
            for b in p.blocks:
                for _, _, txt in b.values:
                    used |= refs(txt)
            for b in p.blocks:
                keep = []
                for v in b.values:
                    if v[0] != "Void" and v[1] not in used and not v[2].startswith(("CCall", "Check", "Atomic", "Phi")):
                        changed = True
                        continue
                    keep.append(v)
                b.values = keep
    # blocks no longer reached
    for p in mod.procs:
        reach, todo = set(), [p.blocks[0].num]
        by = {b.num: b for b in p.blocks}
        while todo:
            n = todo.pop()
            if n in reach:
                continue
            reach.add(n)
            todo += targets(by[n].succ)
        p.blocks = [b for b in p.blocks if b.num in reach]


def ddmin(t, mod, plan, cands, log):
    n = 2
    while cands:
        chunk = max(1, len(cands) // n)
        progress = False
        i = 0
        while i < len(cands):
            part = cands[i:i + chunk]
            m2, p2 = copy.deepcopy(mod), copy.deepcopy(plan)
            for c in part:
                apply(m2, p2, c)
            remove_dead(m2)
            if m2.text() != mod.text() and t.interesting(m2, p2):
                mod, plan = m2, p2
                cands = cands[:i] + cands[i + chunk:]
                progress = True
                log("  %d values (%d runs)" % (mod.size(), t.runs))
            else:
                i += chunk
        if not progress:
            if chunk == 1:
                break
            n = min(len(cands), n * 2)
    return mod, plan


def reduce(case, outdir, mode="mismatch", opt="-O2", log=print):
    with open(os.path.join(case, "prog.b3")) as f:
        mod = Mod(f.read())
    with open(os.path.join(case, "plan.json")) as f:
        plan = json.load(f)
    t = Tester(mode, opt)
    if not t.interesting(mod, plan):
        log("not interesting to begin with")
        return False
    if mode == "mismatch":
        k = first_bad_call(t, mod, plan)
        if k is not None:
            p2 = copy.deepcopy(plan)
            p2["calls"] = [plan["calls"][k]]
            if t.interesting(mod, p2):
                plan = p2
        root = re.sub(r"_e\d+$", "", plan["calls"][0]["proc"])
        keep = used_procs(mod, root)
        m2 = copy.deepcopy(mod)
        m2.procs = [p for p in m2.procs if p.name in keep]
        p2 = copy.deepcopy(plan)
        p2["procs"] = [p for p in p2["procs"] if p.get("proc", p["name"]) in keep]
        if t.interesting(m2, p2):
            mod, plan = m2, p2
    log("start: %d values" % mod.size())
    for _ in range(4):
        before = mod.text()
        mod, plan = ddmin(t, mod, plan, changes(mod), log)
        if mode == "mismatch":
            keep = used_procs(mod, re.sub(r"_e\d+$", "", plan["calls"][0]["proc"]))
            m2, p2 = copy.deepcopy(mod), copy.deepcopy(plan)
            m2.procs = [p for p in m2.procs if p.name in keep]
            p2["procs"] = [p for p in p2["procs"] if p.get("proc", p["name"]) in keep]
            if m2.text() != mod.text() and t.interesting(m2, p2):
                mod, plan = m2, p2
        if mod.text() == before:
            break
    t.write(outdir, mod, plan)
    shutil.rmtree(t.work, ignore_errors=True)
    log("reduced to %d values in %d runs -> %s" % (mod.size(), t.runs, outdir))
    return True


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    mode, opt = "mismatch", "-O2"
    for a in sys.argv[1:]:
        if a.startswith("--mode="):
            mode = a.split("=", 1)[1]
        if a.startswith("--opt="):
            opt = a.split("=", 1)[1]
    if len(args) != 2:
        sys.exit(__doc__)
    ok = reduce(args[0], args[1], mode, opt)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
