/* lower_macros_after_optimizations (every level, after the optimizations):
 * B3's lowerMacrosAfterOptimizations.
 *
 * B3 lowers here what no optimization should see expanded: on a target
 * without single-instruction Float/Double Abs (x86-64), Abs(x) becomes
 * BitAnd(x, mask) with the all-but-sign mask as a ConstFloat/ConstDouble, and
 * Ceil becomes a call to ceil/ceilf where the CPU has no rounding
 * instruction.  b3c does the same for Abs, and for Neg, which x86 also does
 * as a sign-bit BitXor (B3 leaves Neg to instruction selection):
 *
 *     Abs(x)  ->  BitAnd(x, ConstDouble(0x7fff...f bits))
 *     Neg(x)  ->  BitXor(x, ConstDouble(-0.0))
 *
 * Done in B3 the masks are ordinary constants that move_constants, next,
 * materialises once per procedure out of loops; the lowering would make
 * them again at every Abs and Neg.  Ceil and Floor stay: b3c's x86-64 target
 * rounds with SSE4.1 roundsd/roundss (lower_to_air), so no call is needed,
 * and RotL/RotR are native on both targets.  Whether Abs/Neg are native is
 * the target's fp_abs_neg_native (ir/target.c): nothing happens on arm64.
 * Integer Neg and every other macro are lower_macros' or lower_to_air's. */
#include <string.h>

#include "ir/insertion_set.h"
#include "opt/phases.h"

bool b3_lower_macros_after_optimizations(B3Module *m, B3Proc *p) {
    if (b3_target_info(m->target)->fp_abs_neg_native)
        return false;
    bool changed = false;
    B3InsertionSet ins;
    b3_insertion_set_init(&ins, m, p);
    for (uint32_t bi = 0; bi < p->nblocks; bi++) {
        B3Block *b = p->blocks[bi];
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *v = b->values[i];
            B3Type ty = (B3Type)v->type;
            if ((v->opcode != B3_Abs && v->opcode != B3_Neg) || !b3_type_is_float(ty))
                continue;
            bool abs = v->opcode == B3_Abs;
            bool dbl = ty == B3_Double;
            B3Value *mask =
                b3_insertion_set_insert_new(&ins, i, dbl ? B3_ConstDouble : B3_ConstFloat, ty, 0, v);
            mask->m.c.bits = 0;
            if (dbl) {
                uint64_t bits = abs ? 0x7fffffffffffffffull : 0x8000000000000000ull;
                memcpy(&mask->m.c.d, &bits, sizeof bits);
            } else {
                uint32_t bits = abs ? 0x7fffffffu : 0x80000000u;
                memcpy(&mask->m.c.f, &bits, sizeof bits);
            }
            B3Value *op = b3_insertion_set_insert_new(&ins, i, abs ? B3_BitAnd : B3_BitXor, ty, 2, v);
            op->kids[0] = v->kids[0];
            op->kids[1] = mask;
            b3_value_replace_with_identity(v, op);
            changed = true;
        }
        b3_insertion_set_execute(&ins, b);
    }
    b3_insertion_set_free(&ins);
    if (changed)
        b3_proc_remove_identities(m, p);
    return changed;
}
