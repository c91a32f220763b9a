#!/usr/bin/env python3
"""Division by constants (divmagic.test): writes a module with one procedure
per (operation, width, divisor), a C driver that checks each against C's own
/ and % over many dividends, and FileCheck lines saying which procedures
must have lost their divide after reduce_strength.

    gen_divmagic.py OUT.b3 OUT.c OUT.check
"""
import sys

OPS = [  # name, opcode, signed, chill
    ("sdiv", "Div", True, False), ("smod", "Mod", True, False),
    ("cdiv", "Div<Chill>", True, True), ("cmod", "Mod<Chill>", True, True),
    ("udiv", "UDiv", False, False), ("umod", "UMod", False, False),
]
D32 = [1, -1, 2, -2, 3, -3, 4, 5, 6, 7, -7, 10, -10, 12, 13, 25, 100, 125, 641, 1000, 1024, -1024,
       6700417, 1 << 30, 0x7fffffff, -0x7fffffff, -0x80000000, 0x55555555, 0x66666667]
D64 = [1, -1, 2, 3, -3, 5, 6, 7, -7, 10, -10, 25, 641, 1000, 1000000007, 6700417, 1 << 40, -(1 << 40),
       1 << 62, -(1 << 63), 0x7fffffffffffffff, -0x7fffffffffffffff, 0x5555555555555555, 0xfffffffffffffffe]


def name(op, w, d):
    return "%s%d_%s" % (op, w, ("m%d" % -d) if d < 0 else str(d))


def main():
    b3, c, chk = open(sys.argv[1], "w"), open(sys.argv[2], "w"), open(sys.argv[3], "w")
    protos, calls = [], []
    for w, ds in ((32, D32), (64, D64)):
        t = "Int%d" % w
        ct = "int%d_t" % w
        for op, opc, signed, chill in OPS:
            for d in ds:
                if not signed and d < 0:
                    d &= (1 << w) - 1  # the same bits, read as unsigned
                n = name(op, w, d)
                konst = "Const%d" % w
                b3.write("proc @%s {\nBB#0:\n    Int64 @0 = ArgumentReg(%%argumentGPR0)\n" % n)
                x = "@0"
                if w == 32:
                    b3.write("    Int32 @1 = Trunc(@0)\n")
                    x = "@1"
                dv = d - (1 << w) if d >= 1 << (w - 1) else d
                b3.write("    %s @2 = %s(%d)\n    %s @3 = %s(%s, @2)\n    Return(@3)\n}\n"
                         % (t, konst, dv, t, opc, x))
                # A divide remains only where it may fault (MIN / -1).
                keeps = signed and not chill and dv == -1
                chk.write("CHECK-LABEL: proc @%s {\n" % n)
                chk.write("CHECK: = %s\n" % opc.split("<")[0] if keeps else "CHECK-NOT: Div\nCHECK-NOT: Mod\n")
                chk.write("CHECK: Return\n")
                sty = ct if signed else "u" + ct
                protos.append("%s %s(%s);" % (ct, n, ct))
                cop = "/" if "div" in op else "%"
                calls.append((n, sty, ct, cop, dv if signed else d, signed, chill, w))
    c.write("#include <stdint.h>\n#include <stdio.h>\n\n")
    c.write("\n".join(protos) + "\n\n")
    c.write("""static int fails;
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
#define TRY(fn, sty, ct, op, d, is_signed, chill, w)                                          \\
    do {                                                                                  \\
        for (int i = 0; i < 6000; i++) {                                                  \\
            uint64_t r = next();                                                          \\
            sty x;                                                                        \\
            if (i < 64) {                                                                 \\
                static const int64_t edge[] = {0, 1, -1, 2, -2, 3, 5, 7, 9, 10, 99, 100, 101}; \\
                if (i < 13) x = (sty)edge[i];                                             \\
                else if (i < 16) x = (sty)((uint64_t)1 << (w - 1)) + (sty)(i - 13);       \\
                else if (i < 19) x = (sty)(((uint64_t)1 << (w - 1)) - 1) - (sty)(i - 16); \\
                else if (i < 22) x = (sty)(~(uint64_t)0) - (sty)(i - 19);                 \\
                else x = (sty)((sty)(d) * (sty)(r % 1000 - 500) + (sty)(i % 3) - 1);      \\
            } else {                                                                      \\
                x = (sty)(i & 1 ? r : r >> (r & 63));                                     \\
            }                                                                             \\
            sty want;                                                                     \\
            if (is_signed && (sty)(d) == -1 && x == (sty)((uint64_t)1 << (w - 1))) {      \\
                if (!(chill)) continue; /* faults */                                      \\
                want = (sty)(#op[0] == '/' ? x : 0);                                      \\
            } else {                                                                      \\
                want = x op (sty)(d);                                                     \\
            }                                                                             \\
            sty got = (sty)fn((ct)x);                                                     \\
            if (got != want) {                                                            \\
                if (fails++ < 20)                                                         \\
                    printf("FAIL %s(%lld): got %lld want %lld\\n", #fn, (long long)x,      \\
                           (long long)got, (long long)want);                              \\
            }                                                                             \\
        }                                                                                 \\
    } while (0)

int main(void) {
""")
    for n, sty, ct, cop, d, signed, chill, w in calls:
        # The divisor's bits in hex: the TRY macro reads them as sty.
        c.write("    TRY(%s, %s, %s, %s, 0x%xull, %d, %d, %d);\n"
                % (n, sty, ct, cop, d & ((1 << 64) - 1), int(signed), int(chill), w))
    c.write('    printf(fails ? "FAILED %d\\n" : "OK\\n", fails);\n    return fails != 0;\n}\n')


if __name__ == "__main__":
    main()
