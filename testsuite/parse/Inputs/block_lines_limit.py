"""Writes two procedures whose block lines report more errors than the
limit: block #0 defined again and again, and a second Predecessors: line in
every block (for block-lines-limit.test)."""
import sys

redef = ["proc @f {", "BB#0:", "    Int64 @0 = ArgumentReg(%argumentGPR0)"]
n = 1
for _ in range(60):
    redef += ["    Int64 @%d = Add(@0, @0)" % n, "    Void @%d = Jump()" % (n + 1), "  Successors: #0", "BB#0:",
              "  Predecessors: #0"]
    n += 2
redef += ["    Void @%d = Return(@0)" % n, "}"]

preds = ["proc @f {", "BB#0:", "    Int64 @0 = ArgumentReg(%argumentGPR0)"]
n = 1
for _ in range(60):
    preds += ["    Void @%d = Jump()" % n, "  Successors: #1", "BB#1:", "  Predecessors: #0", "  Predecessors: #0",
              "    Int64 @%d = Add(@0, @0)" % (n + 1)]
    n += 2
preds += ["    Void @%d = Return(@0)" % n, "}"]

for path, lines in zip(sys.argv[1:3], (redef, preds)):
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
