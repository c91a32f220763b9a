/* b3_reduce_strength: B3's reduceStrength (WebKit's B3ReduceStrength.cpp),
 * written anew for this IR.
 *
 * Replaces values by cheaper equivalents that compute exactly the same bits,
 * folds constants, puts operations in a canonical form that later phases and
 * the instruction selector expect (constants on the right of commutative
 * operations, Sub of a constant as Add, ...), and cleans up the CFG and the
 * Phis.  It runs to a fixpoint; every round is linear in the procedure (the
 * dominators add O(E log N)):
 *
 *   1. CFG: an edge to a block that only jumps goes to that jump's target; a
 *      terminal whose successors are all one block becomes a Jump; a block
 *      reached only by a Jump from its predecessor is merged into it;
 *      unreachable blocks are dropped (their Upsilons' writes to dropped Phis
 *      become Nops, b3_proc_remove_unreachable).
 *   2. Dead values are removed: no use and nothing b3_effects_must_execute;
 *      an Upsilon lives exactly when its Phi does.
 *   3. Every value, blocks in reverse postorder, is folded and simplified in
 *      place (a value that becomes a constant keeps its number).  A Branch or
 *      Switch on a known condition becomes a Jump at once, blocks no longer
 *      reached are skipped, and a Phi whose remaining Upsilons all write one
 *      value becomes that value: a chain of decided branches folds in one
 *      round, not one round per branch.
 *   4. Unreachable blocks, Identities and Nops are removed.
 *
 * Never done, on purpose:
 *  - Floating point: nothing that could change a result bit.  Constants fold
 *    only when no operand and no result is a NaN (which NaN comes out of an
 *    invalid operation or of two NaN operands is the hardware's choice), and
 *    x+(-0.0), x-0.0, x*1.0 and DoubleToFloat(FloatToDouble(x)) stay: each is
 *    x except that a signaling NaN comes out quiet (WebKit folds them).
 *    x+0.0 stays too (-0.0 + 0.0 is +0.0), and so do x*0.0 and x*-1.0 (not
 *    Neg: a NaN keeps its sign).  Operands of floating-point Add, Mul, FMin
 *    and FMax are only reordered to move a non-NaN constant right (with two
 *    NaN operands the first one's payload wins).  x/2^k becomes x*2^-k when
 *    2^-k is a number: both round the same real number once.
 *  - Traps: an integer Div/Mod that may fault (not Chill, by 0 or MIN/-1)
 *    is neither folded nor turned into anything that would not fault, nor
 *    are UDiv/UMod by 0.  DToI/DToU fold only when the truncated value is in
 *    range (the saturating cases stay for the backend).
 *  - Values with effects (b3_effects: loads, stores, atomics, fences, calls,
 *    stackmaps, Get/Set, Traps) are never removed or moved; only the address
 *    arithmetic of plain loads and stores is folded into their offset.  A
 *    Check whose predicate is a non-zero constant stays (it exits), and the
 *    operands of CheckAdd/CheckSub/CheckMul are never reordered (an exit
 *    handler receives them in order).  Opaque is opaque (only
 *    Opaque(Opaque(x)) is Opaque(x)), and Depend's zero is never used.
 *  - Comparisons keep their operand order unless a constant is on the left:
 *    the instruction selector fuses a load into the left operand.
 *
 * Division by a constant becomes multiplication by a "magic" reciprocal
 * (opt/division_magic.h).  Constants are evaluated by ir/fold.h, and what an
 * integer value may be (its possible bits and range) comes from
 * opt/int_range.h; the rules by opcode are here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir/cfg_order.h"
#include "ir/dominators.h"
#include "ir/effects.h"
#include "ir/fold.h"
#include "ir/ice.h"
#include "ir/insertion_set.h"
#include "ir/use_counts.h"
#include "opt/division_magic.h"
#include "opt/int_range.h"
#include "opt/phases.h"

#define PHASE "reduce_strength"

/* The Upsilons of each Phi, by dense value number (b3_proc_number_values). */
typedef struct {
    uint32_t *start; /* upsilons of phi #k: list[start[k] .. start[k + 1]) */
    B3Value **list;
} PhiWrites;

/* Counts in start[k + 2], whose prefix sums make start[k + 1] phi #k's
 * first slot; filling moves it to its end, which is start[k + 1] as read. */
static void phi_writes_compute(PhiWrites *w, B3Proc *p, uint32_t n) {
    w->start = b3_xcalloc(PHASE, n + 2, sizeof *w->start);
    uint32_t total = 0;
    for (uint32_t bi = 0; bi < p->nblocks; bi++)
        for (uint32_t i = 0; i < p->blocks[bi]->nvalues; i++) {
            B3Value *u = p->blocks[bi]->values[i];
            if (u->opcode == B3_Upsilon && u->m.phi && u->m.phi->owner) {
                w->start[u->m.phi->scratch + 2]++;
                total++;
            }
        }
    for (uint32_t k = 0; k < n; k++)
        w->start[k + 2] += w->start[k + 1];
    w->list = b3_xmalloc(PHASE, (total ? total : 1) * sizeof *w->list);
    for (uint32_t bi = 0; bi < p->nblocks; bi++)
        for (uint32_t i = 0; i < p->blocks[bi]->nvalues; i++) {
            B3Value *u = p->blocks[bi]->values[i];
            if (u->opcode == B3_Upsilon && u->m.phi && u->m.phi->owner)
                w->list[w->start[u->m.phi->scratch + 1]++] = u;
        }
}

static void phi_writes_free(PhiWrites *w) {
    free(w->start);
    free(w->list);
}

typedef struct {
    B3Module *m;
    B3Proc *p;
    B3InsertionSet ins;
    B3Block *block; /* of the value being reduced */
    B3Value *cur;   /* the value being reduced: new values go before it */
    uint32_t index; /* its index in block */
    B3UseCounts uc; /* as of the start of the round: only for heuristics */
    /* The value pass's view of the round (reduce_values): */
    PhiWrites pw;     /* each Phi's Upsilons */
    B3Dominators dom; /* as of the start of the round (still true: edges only go away) */
    uint32_t *pos;    /* each value's index in its block, by dense number */
    uint8_t *exec;    /* by block position: may run (some edge to it is still live) */
    uint8_t *done;    /* by block position: visited by the value pass */
    bool changed;     /* anything this round */
    bool changed_cfg; /* a terminal lost a successor this round */
} RS;

/* ---- rewriting ---------------------------------------------------------- */

static void strip(B3Value *v) {
    v->kflags = 0;
    v->kid_locs = NULL;
    memset(&v->m, 0, sizeof v->m);
}

/* v becomes op(a, b, c) in place, keeping its number, type and location. */
static void become(RS *rs, B3Value *v, B3Opcode op, uint32_t n, B3Value *a, B3Value *b, B3Value *c) {
    B3Value *k[3] = {a, b, c};
    if (n > (v->nkids ? v->nkids : 1)) /* every value has room for max(nkids, 1) */
        v->kids = b3_arena_alloc(&rs->m->arena, n * sizeof *v->kids);
    for (uint32_t i = 0; i < n; i++)
        v->kids[i] = k[i];
    strip(v);
    v->nkids = n;
    v->opcode = (uint16_t)op;
    rs->changed = true;
}

static void become_int(RS *rs, B3Value *v, int64_t x) {
    become(rs, v, v->type == B3_Int32 ? B3_Const32 : B3_Const64, 0, NULL, NULL, NULL);
    v->m.c.i = b3_int_norm((B3Type)v->type, (uint64_t)x);
}

static void become_fp_bits(RS *rs, B3Value *v, uint64_t bits) {
    become(rs, v, v->type == B3_Float ? B3_ConstFloat : B3_ConstDouble, 0, NULL, NULL, NULL);
    if (v->type == B3_Float) {
        uint32_t b = (uint32_t)bits;
        memcpy(&v->m.c.f, &b, 4);
    } else {
        v->m.c.bits = bits;
    }
}

static void become_zero(RS *rs, B3Value *v) {
    if (b3_type_is_int((B3Type)v->type))
        become_int(rs, v, 0);
    else
        become_fp_bits(rs, v, 0);
}

/* Uses of v now see w (lazily: v becomes Identity(w)). */
static void replace(RS *rs, B3Value *v, B3Value *w) {
    if (v == w)
        return;
    b3_value_replace_with_identity(v, w);
    rs->changed = true;
}

static void set_kid(RS *rs, B3Value *v, uint32_t i, B3Value *k) {
    if (v->kids[i] != k) {
        v->kids[i] = k;
        rs->changed = true;
    }
}

/* A new value just before the one being reduced. */
static B3Value *add(RS *rs, B3Opcode op, B3Type t, B3Value *a, B3Value *b) {
    uint32_t n = b ? 2 : a ? 1 : 0;
    B3Value *v = b3_insertion_set_insert_new(&rs->ins, rs->index, op, t, n, rs->cur);
    if (a)
        v->kids[0] = a;
    if (b)
        v->kids[1] = b;
    return v;
}

static B3Value *add_int(RS *rs, B3Type t, int64_t x) {
    return b3_insertion_set_insert_int_const(&rs->ins, rs->index, rs->cur, t, x);
}

static B3Value *add_i32(RS *rs, int64_t x) { return add_int(rs, B3_Int32, x); }

/* Used exactly once when the round started (false for values made since). */
static bool single_use(const RS *rs, const B3Value *v) {
    return v->scratch < rs->uc.nvalues && rs->p->values[v->scratch] == v && rs->uc.uses[v->scratch] == 1;
}

/* ---- constants ---------------------------------------------------------- */

static bool is_int(const B3Value *v, int64_t c) {
    int64_t x;
    return b3_value_int_const(v, &x) && x == b3_int_norm((B3Type)v->type, (uint64_t)c);
}

static unsigned popcount(uint64_t x) {
    unsigned n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* Folds v when its operands are constants (ir/fold.h).  Returns true if v
 * was replaced. */
static bool fold(RS *rs, B3Value *v) {
    B3Folded f;
    if (!b3_fold(v, &f))
        return false;
    switch (f.kind) {
    case B3Folded_Int:
        become_int(rs, v, f.i);
        break;
    case B3Folded_Bits:
        become_fp_bits(rs, v, f.bits);
        break;
    case B3Folded_Kid:
        replace(rs, v, v->kids[f.kid]);
        break;
    }
    return true;
}

/* ---- division ------------------------------------------------------------- */

/* Div, UDiv, Mod, UMod (integers). */
static void reduce_division(RS *rs, B3Value *v) {
    if (fold(rs, v))
        return;
    B3Type t = (B3Type)v->type;
    B3Value *n = v->kids[0];
    int64_t d;
    if (!b3_type_is_int(t) || !b3_value_int_const(v->kids[1], &d))
        return;
    bool chill = (v->kflags & B3K_CHILL) != 0;
    bool is_signed = v->opcode == B3_Div || v->opcode == B3_Mod;
    bool is_mod = v->opcode == B3_Mod || v->opcode == B3_UMod;
    if (d == 0) {
        if (chill) /* x/0 = x%0 = 0; otherwise it faults: keep it */
            become_int(rs, v, 0);
        return;
    }
    if (d == 1) {
        if (is_mod)
            become_int(rs, v, 0);
        else
            replace(rs, v, n);
        return;
    }
    if (is_signed && d == -1) {
        /* MIN/-1 faults unless Chill, where it is MIN (= -MIN) and MIN%-1 is 0. */
        if (chill && is_mod)
            become_int(rs, v, 0);
        else if (chill)
            become(rs, v, B3_Neg, 1, n, NULL, NULL);
        return;
    }
    B3DivAt at = {&rs->ins, rs->index, rs->cur};
    B3Value *q = b3_div_by_const(&at, t, n, d, is_signed);
    if (!q)
        return;
    if (!is_mod) {
        replace(rs, v, q);
        return;
    }
    uint64_t ud = (uint64_t)d & b3_int_mask(t);
    if (!is_signed && b3_is_pow2(ud)) {
        become(rs, v, B3_BitAnd, 2, n, add_int(rs, t, b3_s64(ud - 1)), NULL);
        return;
    }
    /* n % d = n - (n / d) * d, the sign of the dividend's as Mod's. */
    become(rs, v, B3_Sub, 2, n, add(rs, B3_Mul, t, q, v->kids[1]), NULL);
}

/* ---- canonical forms ------------------------------------------------------ */

/* B3's shouldSwapBinaryOperands: constants right, else the lower @N first.
 * A floating-point operation with two NaN operands returns the first one's
 * payload, so its operands only move to put a non-NaN constant right.
 * Comparisons only move constants: the instruction selector fuses a load
 * into a compare as its left operand (cmp reg, mem), so their order is
 * worth keeping. */
static bool should_swap(const B3Value *v) {
    const B3Value *a = v->kids[0], *b = v->kids[1];
    if (b3_value_is_const(b) || a->opcode == B3_AtomicStrongCAS)
        return false;
    if (b3_value_is_const(a))
        return !b3_value_is_nan_const(a);
    if (b->opcode == B3_AtomicStrongCAS)
        return true;
    return !b3_type_is_float((B3Type)v->type) && !(b3_op((B3Opcode)v->opcode)->flags & B3OF_COMPARE) &&
           a->index > b->index;
}

static void commute(RS *rs, B3Value *v) {
    if (should_swap(v)) {
        B3Value *a = v->kids[0];
        v->kids[0] = v->kids[1];
        v->kids[1] = a;
        rs->changed = true;
    }
}

/* ---- rules, by opcode ------------------------------------------------------ */

/* a is -n modulo w (a shift amount): Neg(n) or Sub(k*w, n). */
static bool is_neg_amount(const B3Value *a, const B3Value *n, unsigned w) {
    int64_t c;
    if (a->opcode == B3_Neg)
        return a->kids[0] == n;
    return a->opcode == B3_Sub && a->kids[1] == n && b3_value_int_const(a->kids[0], &c) &&
           !((uint64_t)c & (w - 1));
}

/* Shl(x, a) op ZShr(x, b) with a + b = w is a rotate: for any op when the
 * amounts are constants (the halves do not overlap), for BitOr when b is -a
 * (a zero amount gives x | x = x, which is still the rotate). */
static bool try_rotate(RS *rs, B3Value *v) {
    B3Type t = (B3Type)v->type;
    unsigned w = b3_type_bits(t);
    B3Value *shl = v->kids[0], *zshr = v->kids[1];
    if (shl->opcode != B3_Shl) {
        shl = v->kids[1];
        zshr = v->kids[0];
    }
    if (shl->opcode != B3_Shl || zshr->opcode != B3_ZShr || shl->kids[0] != zshr->kids[0])
        return false;
    B3Value *x = shl->kids[0], *n1 = shl->kids[1], *n2 = zshr->kids[1];
    int64_t c1, c2;
    if (b3_value_int_const(n1, &c1) && b3_value_int_const(n2, &c2)) {
        c1 &= w - 1;
        c2 &= w - 1;
        if (!c1 || c1 + c2 != w)
            return false;
        become(rs, v, B3_RotL, 2, x, add_i32(rs, c1), NULL);
        return true;
    }
    if (v->opcode != B3_BitOr)
        return false;
    if (is_neg_amount(n2, n1, w)) {
        become(rs, v, B3_RotL, 2, x, n1, NULL);
        return true;
    }
    if (is_neg_amount(n1, n2, w)) {
        become(rs, v, B3_RotR, 2, x, n2, NULL);
        return true;
    }
    return false;
}

/* Add/Sub(Mul(x, y), Mul(x, z)) -> Mul(x, Add/Sub(y, z)), when both Muls die. */
static bool distribute_mul(RS *rs, B3Value *v) {
    B3Value *a = v->kids[0], *b = v->kids[1];
    if (a->opcode != B3_Mul || b->opcode != B3_Mul || a == b || !single_use(rs, a) || !single_use(rs, b))
        return false;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            if (a->kids[i] == b->kids[j]) {
                B3Value *inner =
                    add(rs, (B3Opcode)v->opcode, (B3Type)v->type, a->kids[1 - i], b->kids[1 - j]);
                become(rs, v, B3_Mul, 2, a->kids[i], inner, NULL);
                return true;
            }
    return false;
}

static void reduce_add(RS *rs, B3Value *v) {
    commute(rs, v);
    if (fold(rs, v) || !b3_type_is_int((B3Type)v->type))
        return;
    B3Type t = (B3Type)v->type;
    B3Value *a = v->kids[0], *b = v->kids[1];
    int64_t c1, c2;
    if (a->opcode == B3_Add && b3_value_int_const(a->kids[1], &c1)) {
        if (b3_value_int_const(b, &c2)) /* (x + c1) + c2 */
            become(rs, v, B3_Add, 2, a->kids[0], add_int(rs, t, b3_s64((uint64_t)c1 + (uint64_t)c2)), NULL);
        else if (single_use(rs, a)) /* (x + c) + y -> (x + y) + c: the constant moves out */
            become(rs, v, B3_Add, 2, add(rs, B3_Add, t, a->kids[0], b), a->kids[1], NULL);
        else
            goto more;
        return;
    }
    if (b->opcode == B3_Add && !b3_value_is_const(a) && b3_value_int_const(b->kids[1], &c2) &&
        single_use(rs, b)) {
        become(rs, v, B3_Add, 2, add(rs, B3_Add, t, b->kids[0], a), b->kids[1], NULL);
        return;
    }
more:
    if (a == b) {
        become(rs, v, B3_Shl, 2, a, add_i32(rs, 1), NULL);
        return;
    }
    if (is_int(b, 0)) {
        replace(rs, v, a);
        return;
    }
    if (b->opcode == B3_Neg) {
        become(rs, v, B3_Sub, 2, a, b->kids[0], NULL);
        return;
    }
    if (a->opcode == B3_Neg) {
        become(rs, v, B3_Sub, 2, b, a->kids[0], NULL);
        return;
    }
    if (!try_rotate(rs, v))
        distribute_mul(rs, v);
}

static void reduce_sub(RS *rs, B3Value *v) {
    if (fold(rs, v) || !b3_type_is_int((B3Type)v->type))
        return;
    B3Type t = (B3Type)v->type;
    unsigned w = b3_type_bits(t);
    B3Value *a = v->kids[0], *b = v->kids[1];
    int64_t c, m1, m2;
    /* Sub(BitXor(BitAnd(x, 2^k - 1), 2^(k-1)), 2^(k-1)): sign-extends the low k bits. */
    if (a->opcode == B3_BitXor && a->kids[0]->opcode == B3_BitAnd &&
        b3_value_int_const(a->kids[0]->kids[1], &m1) && b3_value_int_const(a->kids[1], &m2) &&
        b3_value_int_const(b, &c) && m2 == c) {
        uint64_t u1 = (uint64_t)m1 & b3_int_mask(t), u2 = (uint64_t)m2 & b3_int_mask(t);
        unsigned k = popcount(u1);
        if (u1 && !(u1 & (u1 + 1)) && k < w && u2 == 1ull << (k - 1)) {
            B3Value *amount = add_i32(rs, w - k);
            become(rs, v, B3_SShr, 2, add(rs, B3_Shl, t, a->kids[0]->kids[0], amount), amount, NULL);
            return;
        }
    }
    if (a->opcode == B3_Neg && is_int(b, 1)) { /* -x - 1 = ~x */
        become(rs, v, B3_BitXor, 2, a->kids[0], add_int(rs, t, -1), NULL);
        return;
    }
    if (b3_value_int_const(b, &c)) {
        become(rs, v, B3_Add, 2, a, add_int(rs, t, b3_s64(0 - (uint64_t)c)), NULL);
        return;
    }
    if (is_int(a, 0)) {
        become(rs, v, B3_Neg, 1, b, NULL, NULL);
        return;
    }
    if (is_int(a, -1)) { /* -1 - x = ~x */
        become(rs, v, B3_BitXor, 2, b, a, NULL);
        return;
    }
    if (a == b) {
        become_int(rs, v, 0);
        return;
    }
    if (b->opcode == B3_Neg) {
        become(rs, v, B3_Add, 2, a, b->kids[0], NULL);
        return;
    }
    if (a->opcode == B3_Neg) {
        become(rs, v, B3_Neg, 1, add(rs, B3_Add, t, a->kids[0], b), NULL, NULL);
        return;
    }
    /* Reassociations that expose constants; only when the inner value dies. */
    if (a->opcode == B3_Sub && single_use(rs, a)) {
        become(rs, v, B3_Sub, 2, a->kids[0], add(rs, B3_Add, t, a->kids[1], b), NULL);
        return;
    }
    if (b->opcode == B3_Sub && single_use(rs, b)) {
        become(rs, v, B3_Add, 2, add(rs, B3_Sub, t, a, b->kids[0]), b->kids[1], NULL);
        return;
    }
    if (a->opcode == B3_Add && single_use(rs, a)) {
        become(rs, v, B3_Add, 2, a->kids[0], add(rs, B3_Sub, t, a->kids[1], b), NULL);
        return;
    }
    distribute_mul(rs, v);
}

static void reduce_neg(RS *rs, B3Value *v) {
    if (fold(rs, v))
        return;
    B3Value *a = v->kids[0];
    int64_t c;
    if (a->opcode == B3_Neg) { /* for floats too: Neg flips the sign bit */
        replace(rs, v, a->kids[0]);
        return;
    }
    if (!b3_type_is_int((B3Type)v->type))
        return;
    if (a->opcode == B3_Sub)
        become(rs, v, B3_Sub, 2, a->kids[1], a->kids[0], NULL);
    else if (a->opcode == B3_Mul && b3_value_int_const(a->kids[1], &c) && c != b3_int_min((B3Type)v->type))
        become(rs, v, B3_Mul, 2, a->kids[0], add_int(rs, (B3Type)v->type, -c), NULL);
}

static void reduce_mul(RS *rs, B3Value *v) {
    commute(rs, v);
    if (fold(rs, v))
        return;
    B3Type t = (B3Type)v->type;
    B3Value *a = v->kids[0], *b = v->kids[1];
    /* Float x * 2 -> x + x: the same rounding of the same real number (NaN,
     * infinities and zeros alike), and an addition is quicker than a
     * multiplication on the cores that have a fast adder. */
    if (b3_type_is_float(t)) {
        if (b3_value_is_const(b) && (t == B3_Float ? b->m.c.f == 2.0f : b->m.c.d == 2.0))
            become(rs, v, B3_Add, 2, a, a, NULL);
        return;
    }
    if (!b3_type_is_int(t))
        return;
    int64_t c;
    if (b3_value_int_const(b, &c)) {
        uint64_t uc = (uint64_t)c & b3_int_mask(t);
        if (c == 0)
            become_int(rs, v, 0);
        else if (c == 1)
            replace(rs, v, a);
        else if (c == -1)
            become(rs, v, B3_Neg, 1, a, NULL, NULL);
        else if (b3_is_pow2(uc))
            become(rs, v, B3_Shl, 2, a, add_i32(rs, b3_log2_floor(uc)), NULL);
        return;
    }
    if (b->opcode == B3_Neg && single_use(rs, b))
        become(rs, v, B3_Neg, 1, add(rs, B3_Mul, t, a, b->kids[0]), NULL, NULL);
    else if (a->opcode == B3_Neg && single_use(rs, a))
        become(rs, v, B3_Neg, 1, add(rs, B3_Mul, t, a->kids[0], b), NULL, NULL);
}

/* Float x / 2^k -> x * 2^-k when 2^-k is a representable number: both round
 * the same real number once, NaN and infinities included. */
static void reduce_fp_div(RS *rs, B3Value *v) {
    if (fold(rs, v))
        return;
    B3Value *b = v->kids[1];
    if (!b3_value_is_const(b) || b3_value_is_nan_const(b))
        return;
    int e;
    if (v->type == B3_Float) {
        float c = b->m.c.f, r = 1.0f / c;
        if (fabsf(frexpf(c, &e)) != 0.5f || !isfinite(r) || fabsf(frexpf(r, &e)) != 0.5f || r * c != 1.0f)
            return;
        B3Value *k = add(rs, B3_ConstFloat, B3_Float, NULL, NULL);
        memcpy(&k->m.c.f, &r, 4);
        become(rs, v, B3_Mul, 2, v->kids[0], k, NULL);
        return;
    }
    double c = b->m.c.d, r = 1.0 / c;
    if (fabs(frexp(c, &e)) != 0.5 || !isfinite(r) || fabs(frexp(r, &e)) != 0.5 || r * c != 1.0)
        return;
    B3Value *k = add(rs, B3_ConstDouble, B3_Double, NULL, NULL);
    k->m.c.d = r;
    become(rs, v, B3_Mul, 2, v->kids[0], k, NULL);
}

static bool is_all_ones(const B3Value *v) { return is_int(v, -1); }

/* What BitAnd and BitOr share: operands in canonical order, constants
 * folded, x op x = x.  True if v is left as an integer operation with two
 * different operands for the caller's own rules. */
static bool reduce_idempotent(RS *rs, B3Value *v) {
    commute(rs, v);
    if (fold(rs, v))
        return false;
    if (v->kids[0] == v->kids[1]) {
        replace(rs, v, v->kids[0]);
        return false;
    }
    return b3_type_is_int((B3Type)v->type);
}

static void reduce_bitand(RS *rs, B3Value *v) {
    if (!reduce_idempotent(rs, v))
        return;
    B3Value *a = v->kids[0], *b = v->kids[1];
    B3Type t = (B3Type)v->type;
    uint64_t all = b3_int_mask(t);
    int64_t c, c1;
    if (b3_value_int_const(b, &c)) {
        uint64_t uc = (uint64_t)c & all, bits = b3_int_maybe_bits(a);
        if (a->opcode == B3_BitAnd && b3_value_int_const(a->kids[1], &c1)) {
            become(rs, v, B3_BitAnd, 2, a->kids[0], add_int(rs, t, c & c1), NULL);
            return;
        }
        if (!(bits & uc)) { /* also x & 0 */
            become_int(rs, v, 0);
            return;
        }
        if (!(bits & ~uc)) { /* the mask keeps every bit x may have; also x & -1 */
            replace(rs, v, a);
            return;
        }
        if (t == B3_Int64 && uc == 0xffffffffull) {
            become(rs, v, B3_ZExt32, 1, add(rs, B3_Trunc, B3_Int32, a, NULL), NULL, NULL);
            return;
        }
        if ((a->opcode == B3_BitOr || a->opcode == B3_BitXor) && b3_value_int_const(a->kids[1], &c1) &&
            !(c1 & c)) {
            set_kid(rs, v, 0, a->kids[0]);
            return;
        }
        if ((a->opcode == B3_SExt8 && !(uc & ~0xffull)) || (a->opcode == B3_SExt16 && !(uc & ~0xffffull))) {
            set_kid(rs, v, 0, a->kids[0]);
            return;
        }
        if (t == B3_Int64 && (a->opcode == B3_SExt32 || a->opcode == B3_ZExt32) && !(uc >> 32)) {
            /* The mask drops the high half: a 32-bit And, zero-extended. */
            become(rs, v, B3_ZExt32, 1, add(rs, B3_BitAnd, B3_Int32, a->kids[0], add_i32(rs, c)), NULL, NULL);
            return;
        }
        return;
    }
    /* De Morgan: ~x & ~y = ~(x | y), when the two Nots die. */
    if (a->opcode == B3_BitXor && b->opcode == B3_BitXor && is_all_ones(a->kids[1]) &&
        is_all_ones(b->kids[1]) && single_use(rs, a) && single_use(rs, b))
        become(rs, v, B3_BitXor, 2, add(rs, B3_BitOr, t, a->kids[0], b->kids[0]), a->kids[1], NULL);
}

/* How many low bits of v are known to be zero (at least; 0: none known).
 * A Phi counts through its live Upsilons, a step Add(phi, x) by x alone:
 * an induction variable from 0 by 4 keeps its two low bits clear, as the
 * index of a loop that clang unrolled four times does. */
static bool upsilon_live(const RS *rs, const B3Value *u);

static unsigned low_zero_bits(const RS *rs, const B3Value *v, int depth) {
    unsigned bits = b3_type_bits((B3Type)v->type), a, b;
    int64_t c;
    if (b3_value_int_const(v, &c)) {
        uint64_t x = (uint64_t)c & b3_int_mask((B3Type)v->type);
        return x ? (unsigned)__builtin_ctzll(x) : bits;
    }
    if (depth <= 0 || !b3_type_is_int((B3Type)v->type))
        return 0;
    switch (v->opcode) {
    case B3_Add:
    case B3_Sub:
    case B3_BitOr:
    case B3_BitXor:
        a = low_zero_bits(rs, v->kids[0], depth - 1);
        b = low_zero_bits(rs, v->kids[1], depth - 1);
        return a < b ? a : b;
    case B3_BitAnd:
        a = low_zero_bits(rs, v->kids[0], depth - 1);
        b = low_zero_bits(rs, v->kids[1], depth - 1);
        return a > b ? a : b;
    case B3_Mul:
        a = low_zero_bits(rs, v->kids[0], depth - 1) + low_zero_bits(rs, v->kids[1], depth - 1);
        return a < bits ? a : bits;
    case B3_Shl:
        if (!b3_value_int_const(v->kids[1], &c))
            return 0;
        a = low_zero_bits(rs, v->kids[0], depth - 1) + (unsigned)((uint64_t)c & (bits - 1));
        return a < bits ? a : bits;
    case B3_Phi: {
        if (v->scratch >= rs->uc.nvalues || rs->p->values[v->scratch] != v)
            return 0;
        unsigned m = bits;
        bool any = false;
        for (uint32_t k = rs->pw.start[v->scratch]; k < rs->pw.start[v->scratch + 1] && m; k++) {
            const B3Value *u = rs->pw.list[k];
            if (!upsilon_live(rs, u))
                continue;
            const B3Value *x = u->kids[0];
            any = true;
            if (x == v)
                continue;
            if (x->opcode == B3_Add && (x->kids[0] == v || x->kids[1] == v))
                a = low_zero_bits(rs, x->kids[x->kids[0] == v ? 1 : 0], depth - 1);
            else
                a = low_zero_bits(rs, x, depth - 1);
            m = a < m ? a : m;
        }
        return any ? m : 0;
    }
    default:
        return 0;
    }
}

static void reduce_bitor(RS *rs, B3Value *v) {
    if (!reduce_idempotent(rs, v))
        return;
    B3Value *a = v->kids[0], *b = v->kids[1];
    B3Type t = (B3Type)v->type;
    int64_t c, c1;
    if (b3_value_int_const(b, &c)) {
        uint64_t uc = (uint64_t)c & b3_int_mask(t);
        if (a->opcode == B3_BitOr && b3_value_int_const(a->kids[1], &c1))
            become(rs, v, B3_BitOr, 2, a->kids[0], add_int(rs, t, c | c1), NULL);
        else if (!uc)
            replace(rs, v, a);
        else if (!(b3_int_maybe_bits(a) & ~uc)) /* also x | -1 */
            replace(rs, v, b);
        else if (b3_type_is_int(t)) {
            /* No bit of c meets a possible bit of a: an Add, which folds
             * into addresses and induction variables. */
            unsigned z = low_zero_bits(rs, a, 6);
            if (z >= 64 || !(uc >> z))
                become(rs, v, B3_Add, 2, a, b, NULL);
        }
        return;
    }
    if (a->opcode == B3_BitXor && b->opcode == B3_BitXor && is_all_ones(a->kids[1]) &&
        is_all_ones(b->kids[1]) && single_use(rs, a) && single_use(rs, b)) {
        become(rs, v, B3_BitXor, 2, add(rs, B3_BitAnd, t, a->kids[0], b->kids[0]), a->kids[1], NULL);
        return;
    }
    try_rotate(rs, v);
}

static void reduce_bitxor(RS *rs, B3Value *v) {
    commute(rs, v);
    if (fold(rs, v))
        return;
    B3Value *a = v->kids[0], *b = v->kids[1];
    if (a == b) { /* bitwise, so for floats too (+0.0) */
        become_zero(rs, v);
        return;
    }
    B3Type t = (B3Type)v->type;
    if (!b3_type_is_int(t))
        return;
    int64_t c, c1;
    if (b3_value_int_const(b, &c)) {
        if (a->opcode == B3_BitXor && b3_value_int_const(a->kids[1], &c1)) { /* also ~~x */
            if (c == c1)
                replace(rs, v, a->kids[0]);
            else
                become(rs, v, B3_BitXor, 2, a->kids[0], add_int(rs, t, c ^ c1), NULL);
            return;
        }
        if (!c) {
            replace(rs, v, a);
            return;
        }
        B3Opcode inv;
        if (c == 1 && (b3_op((B3Opcode)a->opcode)->flags & B3OF_COMPARE) &&
            (inv = b3_compare_inverted((B3Opcode)a->opcode, (B3Type)a->kids[0]->type)) != B3_Nop) {
            become(rs, v, inv, 2, a->kids[0], a->kids[1], NULL);
            return;
        }
        try_rotate(rs, v);
        return;
    }
    try_rotate(rs, v);
}

/* What every shift and rotate shares: the amount is taken modulo the width. */
static bool reduce_shift_amount(RS *rs, B3Value *v) {
    unsigned w = b3_type_bits((B3Type)v->type);
    B3Value *amount = v->kids[1];
    int64_t c;
    if (b3_value_int_const(amount, &c)) {
        if (!((uint64_t)c & (w - 1))) {
            replace(rs, v, v->kids[0]);
            return true;
        }
        if ((uint64_t)c != ((uint64_t)c & (w - 1)))
            set_kid(rs, v, 1, add_i32(rs, (int64_t)((uint64_t)c & (w - 1))));
        return false;
    }
    /* A mask that keeps the bits the shift reads is redundant. */
    if (amount->opcode == B3_BitAnd && b3_value_int_const(amount->kids[1], &c) &&
        ((uint64_t)c & (w - 1)) == w - 1)
        set_kid(rs, v, 1, amount->kids[0]);
    return false;
}

/* The masked constant amount of shift v, or 0. */
static unsigned const_amount(const B3Value *v) {
    int64_t c;
    return b3_value_int_const(v->kids[1], &c) ? (unsigned)((uint64_t)c & (b3_type_bits((B3Type)v->type) - 1))
                                              : 0;
}

static void reduce_shift(RS *rs, B3Value *v) {
    if (fold(rs, v) || reduce_shift_amount(rs, v))
        return;
    B3Type t = (B3Type)v->type;
    unsigned w = b3_type_bits(t), s = const_amount(v), s1;
    B3Value *a = v->kids[0];
    int64_t c;
    if (!s)
        return;
    s1 = a->opcode == v->opcode || a->opcode == B3_Shl || a->opcode == B3_SShr || a->opcode == B3_ZShr
             ? const_amount(a)
             : 0;
    switch (v->opcode) {
    case B3_Shl:
        if ((a->opcode == B3_SShr || a->opcode == B3_ZShr) && s1 == s) /* clears the low bits */
            become(rs, v, B3_BitAnd, 2, a->kids[0], add_int(rs, t, b3_s64(b3_int_mask(t) << s)), NULL);
        else if (a->opcode == B3_Shl && s1)
            s + s1 < w ? become(rs, v, B3_Shl, 2, a->kids[0], add_i32(rs, s + s1), NULL)
                       : become_int(rs, v, 0);
        else if (a->opcode == B3_Add && b3_value_int_const(a->kids[1], &c) &&
                 !b3_value_is_const(a->kids[0]) && single_use(rs, a))
            /* (x + c) << s -> (x << s) + (c << s): the constant moves out, to
             * an address's displacement or a lea's (same bits: shifting
             * distributes over addition modulo 2^w) */
            become(rs, v, B3_Add, 2, add(rs, B3_Shl, t, a->kids[0], v->kids[1]),
                   add_int(rs, t, b3_s64((uint64_t)c << s)), NULL);
        break;
    case B3_SShr:
        if (a->opcode == B3_Shl && s1 == s) {
            if (t == B3_Int32 && s == 24)
                become(rs, v, B3_SExt8, 1, a->kids[0], NULL, NULL);
            else if (t == B3_Int32 && s == 16)
                become(rs, v, B3_SExt16, 1, a->kids[0], NULL, NULL);
            else if (t == B3_Int64 && s == 32)
                become(rs, v, B3_SExt32, 1, add(rs, B3_Trunc, B3_Int32, a->kids[0], NULL), NULL, NULL);
        } else if (a->opcode == B3_SShr && s1) {
            become(rs, v, B3_SShr, 2, a->kids[0], add_i32(rs, s + s1 < w ? s + s1 : w - 1), NULL);
        }
        break;
    case B3_ZShr:
        if (a->opcode == B3_Shl && s1 == s)
            become(rs, v, B3_BitAnd, 2, a->kids[0], add_int(rs, t, b3_s64(b3_int_mask(t) >> s)), NULL);
        else if (a->opcode == B3_ZShr && s1)
            s + s1 < w ? become(rs, v, B3_ZShr, 2, a->kids[0], add_i32(rs, s + s1), NULL)
                       : become_int(rs, v, 0);
        else if (!(b3_int_maybe_bits(a) >> s))
            become_int(rs, v, 0);
        break;
    default:
        break;
    }
}

/* A comparison whose operands' ranges decide it. */
static bool fold_compare_by_range(RS *rs, B3Value *v) {
    B3Value *a = v->kids[0], *b = v->kids[1];
    B3Type t = (B3Type)a->type;
    if (!b3_type_is_int(t))
        return false;
    int r = -1;
    if (a == b) {
        int eq = 0;
        b3_fold_int_compare((B3Opcode)v->opcode, t, 0, 0, &eq); /* x op x is 0 op 0 */
        r = eq;
    } else {
        r = b3_int_range_compare((B3Opcode)v->opcode, t, b3_int_range(a), b3_int_range(b));
    }
    int64_t c;
    if (r < 0 && (v->opcode == B3_Equal || v->opcode == B3_NotEqual) && b3_value_int_const(b, &c) &&
        ((uint64_t)c & b3_int_mask(t) & ~b3_int_maybe_bits(a)))
        r = v->opcode == B3_NotEqual; /* c has a bit that a never has */
    if (r < 0)
        return false;
    become_int(rs, v, r);
    return true;
}

static void reduce_compare(RS *rs, B3Value *v) {
    B3Opcode op = (B3Opcode)v->opcode;
    if (should_swap(v)) {
        B3Value *a = v->kids[0];
        v->kids[0] = v->kids[1];
        v->kids[1] = a;
        v->opcode = (uint16_t)b3_compare_swapped(op);
        op = (B3Opcode)v->opcode;
        rs->changed = true;
    }
    if (fold(rs, v) || fold_compare_by_range(rs, v))
        return;
    B3Value *a = v->kids[0], *b = v->kids[1];
    if (!b3_type_is_int((B3Type)a->type))
        return;
    bool boolean = a->type == B3_Int32 && b3_int_is_bool(a);
    /* Not a comparison: its inverse, when one opcode is exactly that.  (B3
     * writes every logical not as BitXor(bool, 1); the instruction selector
     * fuses Equal(cmp, 0) into a branch or Check but not BitXor, so a
     * comparison without an inverse, such as a floating-point LessThan, keeps
     * its Equal.) */
    B3Opcode inv = b3_op((B3Opcode)a->opcode)->flags & B3OF_COMPARE
                       ? b3_compare_inverted((B3Opcode)a->opcode, (B3Type)a->kids[0]->type)
                       : B3_Nop;
    switch (op) {
    case B3_Equal:
        if (inv != B3_Nop && is_int(b, 0))
            become(rs, v, inv, 2, a->kids[0], a->kids[1], NULL);
        else if (boolean && is_int(b, 1))
            replace(rs, v, a);
        break;
    case B3_NotEqual:
        if (boolean && is_int(b, 0))
            replace(rs, v, a);
        else if (inv != B3_Nop && is_int(b, 1))
            become(rs, v, inv, 2, a->kids[0], a->kids[1], NULL);
        else if (boolean && is_int(b, 1))
            become(rs, v, B3_Equal, 2, a, add_i32(rs, 0), NULL);
        break;
    case B3_Above: /* unsigned x > 0 is x != 0 */
        if (is_int(b, 0))
            v->opcode = B3_NotEqual, rs->changed = true;
        break;
    case B3_BelowEqual:
        if (is_int(b, 0))
            v->opcode = B3_Equal, rs->changed = true;
        break;
    default:
        break;
    }
}

static void reduce_select(RS *rs, B3Value *v) {
    if (fold(rs, v))
        return;
    B3Value *c = v->kids[0], *x = v->kids[1], *y = v->kids[2];
    if (x == y) {
        replace(rs, v, x);
        return;
    }
    B3IntRange r = b3_int_range(c);
    if (r.lo > 0 || r.hi < 0) {
        replace(rs, v, x);
        return;
    }
    if (r.lo == 0 && r.hi == 0) {
        replace(rs, v, y);
        return;
    }
    int64_t m;
    bool swap = false;
    if (c->opcode == B3_Equal && is_int(c->kids[1], 0))
        swap = true;
    else if (c->opcode == B3_BitXor && is_int(c->kids[1], 1) && b3_int_is_bool(c->kids[0]))
        swap = true;
    else if (!(c->opcode == B3_NotEqual && is_int(c->kids[1], 0)) &&
             !(c->opcode == B3_BitAnd && b3_value_int_const(c->kids[1], &m) && (m & 1) &&
               b3_int_is_bool(c->kids[0])))
        return;
    v->kids[0] = c->kids[0];
    if (swap) {
        v->kids[1] = y;
        v->kids[2] = x;
    }
    rs->changed = true;
}

/* c + o fits an offset. */
static bool offset_fits(int64_t c, int64_t o) {
    return c >= (int64_t)INT32_MIN - o && c <= (int64_t)INT32_MAX - o;
}

static void reduce_memory(RS *rs, B3Value *v) {
    uint32_t i = v->nkids - 1;
    B3Value *addr = v->kids[i];
    int64_t c, o = v->m.mem.offset;
    if (addr->opcode != B3_Add)
        return;
    /* Load(Add(p, c), offset = o) -> Load(p, offset = c + o) when it fits. */
    if (b3_value_int_const(addr->kids[1], &c)) {
        if (offset_fits(c, o)) {
            v->kids[i] = addr->kids[0];
            v->m.mem.offset = (int32_t)(c + o);
            rs->changed = true;
        }
        return;
    }
    /* Load(Add(Add(p, c), q)) -> Load(Add(p, q), offset = c): the same number
     * of Adds, even when Add(p, c) has other uses (base + field + index). */
    for (int k = 0; k < 2; k++) {
        B3Value *inner = addr->kids[k];
        if (inner->opcode == B3_Add && b3_value_int_const(inner->kids[1], &c) && offset_fits(c, o) &&
            single_use(rs, addr)) {
            v->kids[i] = add(rs, B3_Add, (B3Type)addr->type, inner->kids[0], addr->kids[1 - k]);
            v->m.mem.offset = (int32_t)(c + o);
            rs->changed = true;
            return;
        }
    }
}

static void reduce_check_arith(RS *rs, B3Value *v) {
    B3Type t = (B3Type)v->type;
    B3Value *a = v->kids[0], *b = v->kids[1];
    int64_t ca, cb, r;
    B3Opcode plain = v->opcode == B3_CheckAdd ? B3_Add : v->opcode == B3_CheckSub ? B3_Sub : B3_Mul;
    bool (*op)(B3Type, int64_t, int64_t, int64_t *) = plain == B3_Add   ? b3_int_add_in
                                                      : plain == B3_Sub ? b3_int_sub_in
                                                                        : b3_int_mul_in;
    if (b3_value_int_const(a, &ca) && b3_value_int_const(b, &cb)) {
        if (op(t, ca, cb, &r)) /* else it always exits: keep it */
            become_int(rs, v, r);
        return;
    }
    /* The identities: the check can never fire. */
    if ((plain != B3_Mul && is_int(b, 0)) || (plain == B3_Mul && is_int(b, 1))) {
        replace(rs, v, a);
        return;
    }
    if ((plain == B3_Add && is_int(a, 0)) || (plain == B3_Mul && is_int(a, 1))) {
        replace(rs, v, b);
        return;
    }
    if (plain == B3_Mul && (is_int(a, 0) || is_int(b, 0))) {
        become_int(rs, v, 0);
        return;
    }
    B3IntRange ra = b3_int_range(a), rb = b3_int_range(b);
    bool safe;
    if (plain == B3_Add)
        safe = b3_int_add_in(t, ra.lo, rb.lo, &r) && b3_int_add_in(t, ra.hi, rb.hi, &r);
    else if (plain == B3_Sub)
        safe = b3_int_sub_in(t, ra.lo, rb.hi, &r) && b3_int_sub_in(t, ra.hi, rb.lo, &r);
    else
        safe = b3_int_mul_in(t, ra.lo, rb.lo, &r) && b3_int_mul_in(t, ra.lo, rb.hi, &r) &&
               b3_int_mul_in(t, ra.hi, rb.lo, &r) && b3_int_mul_in(t, ra.hi, rb.hi, &r);
    if (safe)
        become(rs, v, plain, 2, a, b, NULL);
}

/* The block ends in a Jump to its successor i. */
static void become_jump(RS *rs, B3Value *v, uint32_t i) {
    B3Block *b = rs->block;
    b->succs[0] = b->succs[i];
    b->nsuccs = 1;
    become(rs, v, B3_Jump, 0, NULL, NULL, NULL);
    rs->changed_cfg = true;
}

static void reduce_branch(RS *rs, B3Value *v) {
    B3Block *blk = rs->block;
    B3Value *c = v->kids[0];
    int64_t m;
    bool swap = false;
    if (c->opcode == B3_NotEqual && is_int(c->kids[1], 0))
        set_kid(rs, v, 0, c->kids[0]);
    else if (c->opcode == B3_Equal && is_int(c->kids[1], 0))
        set_kid(rs, v, 0, c->kids[0]), swap = true;
    else if (c->opcode == B3_BitXor && is_int(c->kids[1], 1) && b3_int_is_bool(c->kids[0]))
        set_kid(rs, v, 0, c->kids[0]), swap = true;
    else if (c->opcode == B3_BitAnd && b3_value_int_const(c->kids[1], &m) && (m & 1) &&
             b3_int_is_bool(c->kids[0]))
        set_kid(rs, v, 0, c->kids[0]);
    if (swap) {
        B3Succ s = blk->succs[0];
        blk->succs[0] = blk->succs[1];
        blk->succs[1] = s;
    }
    B3IntRange r = b3_int_range(v->kids[0]);
    if (r.lo > 0 || r.hi < 0)
        become_jump(rs, v, 0);
    else if (r.lo == 0 && r.hi == 0)
        become_jump(rs, v, 1);
}

static void reduce_switch(RS *rs, B3Value *v) {
    int64_t c;
    if (!b3_value_int_const(v->kids[0], &c))
        return;
    B3Type t = (B3Type)v->kids[0]->type;
    uint32_t target = rs->block->nsuccs - 1; /* the default */
    for (uint32_t i = 0; i < v->m.sw.ncases; i++)
        if (b3_int_norm(t, (uint64_t)v->m.sw.cases[i]) == c) {
            target = i;
            break;
        }
    become_jump(rs, v, target);
}

/* ---- induction variables ------------------------------------------------
 * An Int32 Phi p of loop header H written by exactly two Upsilons, a
 * constant c0 from outside the loop and Add(p, s) (0 < s) from a block that
 * the body entry T dominates, where H ends in Branch(LessThan(p, C)) whose
 * Then successor T has H as its only predecessor: every value of p is c0 or
 * an earlier value below C plus s, so with C - 1 + s in range nothing wraps,
 * and wherever T dominates, c0 <= p <= C - 1.  That is what C's signed `int`
 * loop counter gives, and what lets SExt32(Add(p, k)) (an array index
 * `a[i + k]`) become Add(SExt32(p), k): the index then folds into the
 * address's displacement (LLVM knows this from `add nsw`; B3 IR has no such
 * flag). */
static bool induction_range(const RS *rs, const B3Value *p, const B3Block *at, int64_t *lo, int64_t *hi) {
    if (p->opcode != B3_Phi || p->type != B3_Int32 || p->scratch >= rs->uc.nvalues ||
        rs->p->values[p->scratch] != p)
        return false;
    const B3Block *h = p->owner;
    if (!h || !h->nvalues || h->nsuccs != 2)
        return false;
    const B3Value *br = h->values[h->nvalues - 1];
    const B3Block *t = h->succs[0].block;
    if (br->opcode != B3_Branch || t == h || t == h->succs[1].block || t->npreds != 1 ||
        !b3_dominates(&rs->dom, t, at))
        return false;
    const B3Value *cond = br->kids[0];
    int64_t c, c0 = 0, step = 0;
    if (cond->opcode != B3_LessThan || cond->kids[0] != p || !b3_value_int_const(cond->kids[1], &c))
        return false;
    uint32_t k0 = rs->pw.start[p->scratch], k1 = rs->pw.start[p->scratch + 1];
    bool have_init = false, have_step = false;
    for (uint32_t k = k0; k < k1; k++) {
        const B3Value *u = rs->pw.list[k];
        if (u->opcode != B3_Upsilon)
            continue;
        const B3Value *x = u->kids[0];
        int64_t d;
        if (b3_value_int_const(x, &d) && !have_init && !b3_dominates(&rs->dom, h, u->owner)) {
            have_init = true;
            c0 = d;
        } else if (x->opcode == B3_Add && x->kids[0] == p && b3_value_int_const(x->kids[1], &d) && d > 0 &&
                   !have_step && b3_dominates(&rs->dom, t, u->owner)) {
            have_step = true;
            step = d;
        } else {
            return false;
        }
    }
    if (!have_init || !have_step || c0 > c - 1 || c - 1 + step > INT32_MAX)
        return false;
    *lo = c0;
    *hi = c - 1;
    return true;
}

/* The range of x where it is an induction variable p, p << s or p * m
 * (m > 0) that does not wrap. */
static bool induction_term(const RS *rs, const B3Value *x, int64_t *lo, int64_t *hi) {
    int64_t c;
    if (induction_range(rs, x, rs->block, lo, hi))
        return true;
    if ((x->opcode != B3_Shl && x->opcode != B3_Mul) || !b3_value_int_const(x->kids[1], &c) ||
        !induction_range(rs, x->kids[0], rs->block, lo, hi))
        return false;
    int64_t m = x->opcode == B3_Mul ? c : c >= 0 && c < 31 ? (int64_t)1 << c : 0;
    if (m <= 0)
        return false;
    *lo *= m; /* both fit in 32 bits: no 64-bit overflow */
    *hi *= m;
    return *lo >= INT32_MIN && *hi <= INT32_MAX;
}

/* Sign extensions of induction terms that cannot wrap move inward, so that
 * constants and scales reach the address: SExt32(Add(x, k)) becomes
 * Add(SExt32(x), k), SExt32(p << s) becomes SExt32(p) << s, SExt32(p * m)
 * becomes SExt32(p) * m. */
static bool reduce_sext_of_induction(RS *rs, B3Value *v, B3Value *a) {
    int64_t k, lo, hi;
    if (a->opcode == B3_Add && b3_value_int_const(a->kids[1], &k) &&
        induction_term(rs, a->kids[0], &lo, &hi)) {
        if (lo + k < INT32_MIN || hi + k > INT32_MAX)
            return false;
        become(rs, v, B3_Add, 2, add(rs, B3_SExt32, B3_Int64, a->kids[0], NULL), add_int(rs, B3_Int64, k),
               NULL);
        return true;
    }
    if ((a->opcode == B3_Shl || a->opcode == B3_Mul) && induction_term(rs, a, &lo, &hi)) {
        B3Value *x = add(rs, B3_SExt32, B3_Int64, a->kids[0], NULL);
        int64_t c = 0;
        b3_value_int_const(a->kids[1], &c);
        become(rs, v, (B3Opcode)a->opcode, 2, x, a->opcode == B3_Shl ? a->kids[1] : add_int(rs, B3_Int64, c),
               NULL);
        return true;
    }
    return false;
}

static void reduce_value(RS *rs, B3Value *v) {
    B3Value *a = v->nkids ? v->kids[0] : NULL;
    int64_t m;
    B3IntRange r;
    switch ((B3Opcode)v->opcode) {
    case B3_Opaque:
        if (a->opcode == B3_Opaque) /* the one thing the reference lets phases know */
            replace(rs, v, a);
        break;
    case B3_Add:
        reduce_add(rs, v);
        break;
    case B3_Sub:
        reduce_sub(rs, v);
        break;
    case B3_Neg:
        reduce_neg(rs, v);
        break;
    case B3_Mul:
        reduce_mul(rs, v);
        break;
    case B3_Div:
        if (b3_type_is_float((B3Type)v->type))
            reduce_fp_div(rs, v);
        else
            reduce_division(rs, v);
        break;
    case B3_Mod:
    case B3_UDiv:
    case B3_UMod:
        if (b3_type_is_float((B3Type)v->type))
            fold(rs, v);
        else
            reduce_division(rs, v);
        break;
    case B3_BitAnd:
        reduce_bitand(rs, v);
        break;
    case B3_BitOr:
        reduce_bitor(rs, v);
        break;
    case B3_BitXor:
        reduce_bitxor(rs, v);
        break;
    case B3_Shl:
    case B3_SShr:
    case B3_ZShr:
    case B3_RotR:
    case B3_RotL:
        reduce_shift(rs, v);
        break;
    case B3_MulHigh:
    case B3_UMulHigh:
    case B3_FMin:
    case B3_FMax:
    case B3_EqualOrUnordered:
        commute(rs, v);
        fold(rs, v);
        break;
    case B3_Abs:
        if (fold(rs, v))
            break;
        if (a->opcode == B3_Abs)
            replace(rs, v, a);
        else if (a->opcode == B3_Neg) /* both only touch the sign bit */
            set_kid(rs, v, 0, a->kids[0]);
        break;
    case B3_Ceil:
    case B3_Floor:
        /* Already an integer (or NaN, or infinite): rounding again changes nothing. */
        if (!fold(rs, v) && (a->opcode == B3_Ceil || a->opcode == B3_Floor || a->opcode == B3_IToD ||
                             a->opcode == B3_IToF || a->opcode == B3_UToD || a->opcode == B3_UToF))
            replace(rs, v, a);
        break;
    case B3_BitwiseCast:
        if (!fold(rs, v) && a->opcode == B3_BitwiseCast)
            replace(rs, v, a->kids[0]);
        break;
    case B3_SExt8:
    case B3_SExt16: {
        bool is8 = v->opcode == B3_SExt8;
        int64_t lo = is8 ? -128 : -32768, hi = is8 ? 127 : 32767, low = is8 ? 0xff : 0xffff;
        if (fold(rs, v))
            break;
        if (a->opcode == v->opcode || (is8 && a->opcode == B3_SExt16)) {
            set_kid(rs, v, 0, a->kids[0]);
            break;
        }
        r = b3_int_range(a);
        if (r.lo >= lo && r.hi <= hi) { /* already sign-extended */
            replace(rs, v, a);
            break;
        }
        if (a->opcode == B3_BitAnd && b3_value_int_const(a->kids[1], &m)) {
            if ((m & low) == low) /* the mask keeps the bits read */
                set_kid(rs, v, 0, a->kids[0]);
            else if (!(m & (hi + 1))) /* the sign bit is cleared: the And is the answer */
                become(rs, v, B3_BitAnd, 2, a->kids[0], add_i32(rs, m & hi), NULL);
        }
        break;
    }
    case B3_SExt32:
        if (fold(rs, v))
            break;
        if (reduce_sext_of_induction(rs, v, a))
            break;
        if (a->opcode == B3_Trunc) { /* the extension of a truncation that lost nothing */
            r = b3_int_range(a->kids[0]);
            if (r.lo >= INT32_MIN && r.hi <= INT32_MAX) {
                replace(rs, v, a->kids[0]);
                break;
            }
        }
        if (b3_int_range(a).lo >= 0) /* non-negative: zero extension is the same, and free */
            become(rs, v, B3_ZExt32, 1, a, NULL, NULL);
        break;
    case B3_ZExt32:
        if (!fold(rs, v) && a->opcode == B3_Trunc && !(b3_int_maybe_bits(a->kids[0]) >> 32))
            replace(rs, v, a->kids[0]);
        break;
    case B3_Trunc:
        if (fold(rs, v) || !b3_type_is_int((B3Type)a->type))
            break;
        if (a->opcode == B3_SExt32 || a->opcode == B3_ZExt32) {
            replace(rs, v, a->kids[0]);
        } else if (a->nkids == 2 && b3_value_int_const(a->kids[1], &m)) {
            /* An operation whose constant does not touch the low half. */
            bool zero_low = !((uint64_t)m & 0xffffffffull),
                 ones_low = ((uint64_t)m & 0xffffffffull) == 0xffffffffull;
            if (((a->opcode == B3_Add || a->opcode == B3_Sub || a->opcode == B3_BitOr ||
                  a->opcode == B3_BitXor) &&
                 zero_low) ||
                (a->opcode == B3_BitAnd && ones_low))
                set_kid(rs, v, 0, a->kids[0]);
        }
        break;
    case B3_Select:
        reduce_select(rs, v);
        break;
    case B3_Equal:
    case B3_NotEqual:
        commute(rs, v);
        reduce_compare(rs, v);
        break;
    case B3_LessThan:
    case B3_GreaterThan:
    case B3_LessEqual:
    case B3_GreaterEqual:
    case B3_Above:
    case B3_Below:
    case B3_AboveEqual:
    case B3_BelowEqual:
        reduce_compare(rs, v);
        break;
    case B3_CheckAdd:
    case B3_CheckSub:
    case B3_CheckMul:
        reduce_check_arith(rs, v);
        break;
    case B3_Check:
        r = b3_int_range(a);
        if (r.lo == 0 && r.hi == 0) { /* never exits */
            b3_value_replace_with_nop(v);
            rs->changed = true;
        } else if (a->opcode == B3_NotEqual && is_int(a->kids[1], 0)) {
            set_kid(rs, v, 0, a->kids[0]);
        }
        break;
    case B3_Branch:
        reduce_branch(rs, v);
        break;
    case B3_Switch:
        reduce_switch(rs, v);
        break;
    default:
        if (b3_op((B3Opcode)v->opcode)->flags & (B3OF_LOAD | B3OF_STORE))
            reduce_memory(rs, v);
        else
            fold(rs, v);
        break;
    }
}

/* ---- the value pass ------------------------------------------------------- */

/* Is u's store still part of the program?  Not when u's block was found
 * unreachable earlier in this pass (its Branch folded away from it). */
static bool upsilon_live(const RS *rs, const B3Value *u) {
    const B3Block *b = u->owner;
    return u->opcode == B3_Upsilon && b && !(rs->done[b->pos] && !rs->exec[b->pos]);
}

/* Does w, a value of the round's start, come before v (at index i of its block)? */
static bool defined_before(const RS *rs, const B3Value *w, const B3Value *v, uint32_t i) {
    if (!w->owner || w->scratch >= rs->uc.nvalues || rs->p->values[w->scratch] != w)
        return false; /* made this round: position unknown */
    if (w->owner == v->owner)
        return rs->pos[w->scratch] < i;
    return b3_strictly_dominates(&rs->dom, w->owner, v->owner);
}

/* A Phi whose live Upsilons all write one value w (or the Phi itself) is w,
 * where w dominates it; a constant is the same wherever it stands; with
 * nothing written the Phi reads nothing defined, so any constant will do
 * (B3's simplifySSA, here with the Upsilons of blocks this pass found dead
 * left out, so that a chain of decided branches folds in one round). */
/* x and y compute the same address: both Add(b, C) with one b and equal
 * integer constants C (each may be its own Const value). */
static bool same_offset_address(const B3Value *x, const B3Value *y) {
    int64_t cx, cy;
    return x->opcode == B3_Add && y->opcode == B3_Add && x->type == y->type && x->kids[0] == y->kids[0] &&
           b3_value_int_const(x->kids[1], &cx) && b3_value_int_const(y->kids[1], &cy) && cx == cy;
}

/* A web of Phis (a Phi, the Phis its live Upsilons write into it, theirs,
 * ...) whose other inputs are all one value w is w, where w dominates it
 * (B3's simplifySSA sees only one Phi at a time; loops make webs).  When the
 * other inputs are all Add(b, C) for one b and one C, in different blocks
 * (so no CSE could merge them), every Phi of the web is Add(b, C), and the
 * one at hand becomes it where b dominates it (the others when they are
 * reached).  clang's IR for a C state machine (a pointer to
 * each saved field, merged by Phis at every exit and around every loop) has
 * thousands of these; kept as Phis they are long-lived registers that
 * spill.  Webs of more than WEB_MAX Phis are left alone. */
enum { WEB_MAX = 64 };

/* Whether w = Add(b, C) is also how b, a Phi, steps: `len + 1` written back
 * to len around a loop and also merged at its exits.  The fold would then
 * keep both len and len + 1 alive across the loop's exit (a copy on every
 * trip), where the merged Phi costs nothing. */
static bool is_own_step(const RS *rs, const B3Value *w) {
    const B3Value *b = w->kids[0];
    if (b->opcode != B3_Phi || b->scratch >= rs->uc.nvalues || rs->p->values[b->scratch] != b)
        return false;
    for (uint32_t k = rs->pw.start[b->scratch]; k < rs->pw.start[b->scratch + 1]; k++) {
        const B3Value *u = rs->pw.list[k];
        if (u->opcode == B3_Upsilon && same_offset_address(u->kids[0], w))
            return true;
    }
    return false;
}

static bool reduce_phi_of_addresses(RS *rs, B3Value *phi) {
    B3Value *web[WEB_MAX];
    uint32_t nweb = 0, next = 0;
    B3Value *w = NULL;
    bool same = true; /* every other input is w itself */
    web[nweb++] = phi;
    while (next < nweb) {
        B3Value *q = web[next++];
        if (q->scratch >= rs->uc.nvalues || rs->p->values[q->scratch] != q)
            return false; /* made this round: its writes are unknown */
        for (uint32_t k = rs->pw.start[q->scratch]; k < rs->pw.start[q->scratch + 1]; k++) {
            B3Value *u = rs->pw.list[k];
            if (!upsilon_live(rs, u))
                continue;
            b3_value_perform_substitution(u);
            B3Value *x = u->kids[0];
            if (x->opcode == B3_Phi) {
                bool seen = false;
                for (uint32_t i = 0; i < nweb && !seen; i++)
                    seen = web[i] == x;
                if (seen)
                    continue;
                if (nweb == WEB_MAX)
                    return false;
                web[nweb++] = x;
            } else if (!w) {
                w = x;
            } else if (x != w) {
                if (!same_offset_address(w, x))
                    return false;
                same = false;
            }
        }
    }
    if (!w)
        return false;
    if (same && defined_before(rs, w, phi, rs->index)) {
        replace(rs, phi, w);
        return true;
    }
    if (w->opcode != B3_Add || !defined_before(rs, w->kids[0], phi, rs->index) || is_own_step(rs, w))
        return false;
    int64_t c;
    b3_value_int_const(w->kids[1], &c);
    become(rs, phi, B3_Add, 2, w->kids[0], add_int(rs, (B3Type)w->kids[1]->type, c), NULL);
    return true;
}

static void reduce_phi(RS *rs, B3Value *phi) {
    B3Value *w = NULL;
    uint32_t k0 = rs->pw.start[phi->scratch], k1 = rs->pw.start[phi->scratch + 1];
    bool many = false;
    for (uint32_t k = k0; k < k1; k++) {
        B3Value *u = rs->pw.list[k];
        if (!upsilon_live(rs, u))
            continue;
        b3_value_perform_substitution(u);
        B3Value *x = u->kids[0];
        if (x == phi || x == w)
            continue;
        if (w)
            many = true;
        w = x;
    }
    if (many) {
        if (!reduce_phi_of_addresses(rs, phi))
            return;
    } else if (!w)
        become_zero(rs, phi);
    else if (defined_before(rs, w, phi, rs->index))
        replace(rs, phi, w);
    else if (b3_value_is_const(w)) {
        become(rs, phi, (B3Opcode)w->opcode, 0, NULL, NULL, NULL);
        phi->m.c = w->m.c;
    } else
        return;
    for (uint32_t k = k0; k < k1; k++)
        if (rs->pw.list[k]->opcode == B3_Upsilon)
            b3_value_replace_with_nop(rs->pw.list[k]);
}

/* Every value of every reachable block, in reverse postorder so that a
 * value's operands (and most Upsilons of a Phi) are reduced before it.  A
 * block whose every incoming edge has been folded away is skipped (it is
 * dropped after the pass); a block with an edge from a block not visited
 * yet (a loop's back edge) counts as reachable. */
static void reduce_values(RS *rs) {
    B3Proc *p = rs->p;
    B3Block **order;
    uint32_t n = b3_blocks_reverse_postorder(p, &order);
    b3_use_counts_compute(&rs->uc, p); /* numbers the values, for everything below */
    phi_writes_compute(&rs->pw, p, rs->uc.nvalues);
    b3_dominators_compute(&rs->dom, p);
    rs->pos = b3_xcalloc(PHASE, rs->uc.nvalues, sizeof *rs->pos);
    for (uint32_t bi = 0; bi < p->nblocks; bi++)
        for (uint32_t i = 0; i < p->blocks[bi]->nvalues; i++)
            rs->pos[p->blocks[bi]->values[i]->scratch] = i;
    rs->exec = b3_xcalloc(PHASE, p->nblocks, 1);
    rs->done = b3_xcalloc(PHASE, p->nblocks, 1);
    rs->exec[0] = 1;
    for (uint32_t bi = 0; bi < n; bi++) {
        B3Block *b = order[bi];
        for (uint32_t k = 0; k < b->npreds && !rs->exec[b->pos]; k++)
            if (!rs->done[b->preds[k]->pos])
                rs->exec[b->pos] = 1;
        rs->done[b->pos] = 1;
        if (!rs->exec[b->pos])
            continue;
        rs->block = b;
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *v = b->values[i];
            rs->cur = v;
            rs->index = i;
            /* A value rewritten in place may match another rule: a few more
             * tries now save whole rounds. */
            for (int tries = 0; tries < 4 && v->opcode != B3_Identity && v->opcode != B3_Nop; tries++) {
                bool before = rs->changed;
                rs->changed = false;
                b3_value_perform_substitution(v);
                if (v->opcode == B3_Phi)
                    reduce_phi(rs, v);
                else
                    reduce_value(rs, v);
                bool did = rs->changed;
                rs->changed |= before;
                if (!did || b3_value_is_const(v))
                    break;
            }
        }
        b3_insertion_set_execute(&rs->ins, b);
        for (uint32_t k = 0; k < b->nsuccs; k++)
            rs->exec[b->succs[k].block->pos] = 1;
    }
    free(order);
    free(rs->pos);
    free(rs->exec);
    free(rs->done);
    b3_dominators_free(&rs->dom);
    phi_writes_free(&rs->pw);
    b3_use_counts_free(&rs->uc);
    memset(&rs->uc, 0, sizeof rs->uc);
}

/* ---- CFG -------------------------------------------------------------- */

/* A block holding nothing but a Jump elsewhere. */
static bool is_empty_jump(const B3Block *b) {
    return b->nvalues == 1 && b->values[0]->opcode == B3_Jump && b->nsuccs == 1 && b->succs[0].block != b;
}

/* Where a jump to b really goes: the end of its chain of empty blocks
 * (memoized; a cycle of empty blocks ends at one of them). */
static B3Block *forward(B3Block *b, B3Block **memo, uint8_t *state, B3Block **stack) {
    uint32_t sp = 0;
    B3Block *cur = b;
    while (is_empty_jump(cur) && !state[cur->pos]) {
        state[cur->pos] = 1;
        stack[sp++] = cur;
        cur = cur->succs[0].block;
    }
    B3Block *target = state[cur->pos] == 2 ? memo[cur->pos] : cur;
    while (sp) {
        B3Block *x = stack[--sp];
        memo[x->pos] = target;
        state[x->pos] = 2;
    }
    return state[b->pos] == 2 ? memo[b->pos] : b;
}

/* Recomputes predecessors and drops unreachable blocks (B3's resetReachability). */
static void cleanup_cfg(RS *rs) {
    b3_proc_remove_unreachable(rs->m, rs->p);
    b3_proc_compute_preds(rs->m, rs->p);
}

static bool simplify_cfg(RS *rs) {
    B3Proc *p = rs->p;
    uint32_t nb = p->nblocks;
    bool changed = false;
    B3Block **memo = b3_xcalloc(PHASE, nb, sizeof *memo), **stack = b3_xcalloc(PHASE, nb, sizeof *stack);
    uint8_t *state = b3_xcalloc(PHASE, nb, 1);
    for (uint32_t i = 0; i < nb; i++) {
        B3Block *b = p->blocks[i];
        /* Jumps over empty blocks: Upsilons live in the predecessors, so the
         * target's Phis see the same writes. */
        for (uint32_t j = 0; j < b->nsuccs; j++) {
            B3Block *s = b->succs[j].block;
            if (s == b)
                continue;
            B3Block *t = forward(s, memo, state, stack);
            if (t != s) {
                b->succs[j].block = t;
                changed = true;
            }
        }
        /* A choice between one block is a Jump, if the terminal need not run. */
        if (b->nsuccs > 1) {
            B3Value *term = b3_block_last(b);
            if (!term)
                continue;
            B3Effects e = b3_effects(term);
            e.terminal = false;
            bool same = true;
            for (uint32_t j = 1; j < b->nsuccs && same; j++)
                same = b->succs[j].block == b->succs[0].block;
            if (same && !b3_effects_must_execute(e)) {
                b->nsuccs = 1;
                b3_value_replace_with_nop(term);
                term->opcode = B3_Jump;
                changed = true;
            }
        }
    }
    free(memo);
    free(stack);
    free(state);

    /* A block that only its predecessor's Jump reaches joins that predecessor.
     * In reverse postorder a chain is gathered into its first block, so each
     * value moves once. */
    if (changed)
        cleanup_cfg(rs);
    B3Block **order;
    uint32_t n = b3_blocks_reverse_postorder(p, &order);
    for (uint32_t i = 0; i < n; i++) {
        B3Block *b = order[i];
        for (;;) {
            B3Value *term = b3_block_last(b);
            if (!term || term->opcode != B3_Jump || b->nsuccs != 1)
                break;
            B3Block *s = b->succs[0].block;
            if (s == b || s == p->blocks[0] || s->npreds != 1)
                break;
            b->nvalues--; /* the Jump */
            b3_value_replace_with_nop(term);
            for (uint32_t j = 0; j < s->nvalues; j++)
                b3_block_append(rs->m, b, s->values[j]);
            b->succs = s->succs;
            b->nsuccs = s->nsuccs;
            s->nvalues = 0; /* unreachable now: dropped below */
            s->nsuccs = 0;
            s->npreds = 0;
            changed = true;
        }
    }
    free(order);
    return changed;
}

/* ---- dead values and Phis ------------------------------------------------- */

/* Removes values nobody needs (B3's eliminateDeadCode). */
static bool eliminate_dead_code(RS *rs) {
    B3Proc *p = rs->p;
    uint32_t n = b3_proc_number_values(p), sp = 0;
    uint8_t *live = b3_xcalloc(PHASE, n, 1);
    B3Value **work = b3_xmalloc(PHASE, (size_t)(n ? n : 1) * sizeof *work);
    /* Each Phi's Upsilons as a list through the values' numbers (1 + the
     * number; 0 ends it), made in the walk for the roots: the order of a
     * Phi's Upsilons does not matter to what is live. */
    uint32_t *first_up = b3_xcalloc(PHASE, n ? n : 1, sizeof *first_up);
    uint32_t *next_up = b3_xmalloc(PHASE, (size_t)(n ? n : 1) * sizeof *next_up);
    for (uint32_t bi = 0; bi < p->nblocks; bi++)
        for (uint32_t i = 0; i < p->blocks[bi]->nvalues; i++) {
            B3Value *v = p->blocks[bi]->values[i];
            /* An Upsilon is a store to its Phi: needed when the Phi is. */
            if (v->opcode == B3_Upsilon) {
                if (v->m.phi && v->m.phi->owner) {
                    next_up[v->scratch] = first_up[v->m.phi->scratch];
                    first_up[v->m.phi->scratch] = v->scratch + 1;
                }
            } else if (b3_value_must_execute(v) && !live[v->scratch]) {
                live[v->scratch] = 1;
                work[sp++] = v;
            }
        }
    while (sp) {
        B3Value *v = work[--sp];
        for (uint32_t i = 0; i < v->nkids; i++)
            if (!live[v->kids[i]->scratch]) {
                live[v->kids[i]->scratch] = 1;
                work[sp++] = v->kids[i];
            }
        if (v->opcode == B3_Phi)
            for (uint32_t k = first_up[v->scratch]; k; k = next_up[k - 1])
                if (!live[k - 1]) {
                    live[k - 1] = 1;
                    work[sp++] = p->values[k - 1];
                }
    }
    free(first_up);
    free(next_up);
    bool changed = false;
    for (uint32_t bi = 0; bi < p->nblocks; bi++)
        for (uint32_t i = 0; i < p->blocks[bi]->nvalues; i++) {
            B3Value *v = p->blocks[bi]->values[i];
            if (!live[v->scratch] && v->opcode != B3_Nop) {
                b3_value_replace_with_nop(v);
                changed = true;
            }
        }
    if (changed)
        b3_proc_remove_nops(rs->m, p);
    free(live);
    free(work);
    return changed;
}

/* ---- the phase -------------------------------------------------------------- */

/* Rounds until nothing changes, or max_rounds of them. */
static bool reduce_strength_rounds(B3Module *m, B3Proc *p, unsigned max_rounds) {
    if (!p->nblocks)
        return false;
    RS rs;
    memset(&rs, 0, sizeof rs);
    rs.m = m;
    rs.p = p;
    b3_insertion_set_init(&rs.ins, m, p);
    bool result = false;
    /* Rounds end when nothing changes (in practice after 2 to 4); the bound
     * only keeps a cycle between two rules, which would be a bug, from
     * hanging the compiler. */
    for (unsigned round = 0; round < max_rounds; round++) {
        rs.changed = false;
        rs.changed_cfg = false;
        if (simplify_cfg(&rs)) {
            cleanup_cfg(&rs);
            rs.changed = true;
        }
        /* Dead code first, so that nothing dead keeps a Phi or a use alive. */
        if (eliminate_dead_code(&rs))
            rs.changed = true;
        reduce_values(&rs);
        if (rs.changed_cfg)
            cleanup_cfg(&rs);
        b3_proc_remove_identities(m, p);
        result |= rs.changed;
        if (!rs.changed)
            break;
    }
    b3_insertion_set_free(&rs.ins);
    return result;
}

bool b3_reduce_strength(B3Module *m, B3Proc *p) { return reduce_strength_rounds(m, p, 1000); }

/* -O1's: two rounds.  The fixed point takes 3 or 4, the last of which only
 * finds that nothing changes; the rounds after the second changed 3 of the
 * test suite's programs at -O1, a few instructions each, and none of
 * bench/quality's kernels, for a third of the phase's time. */
bool b3_reduce_strength_quick(B3Module *m, B3Proc *p) { return reduce_strength_rounds(m, p, 2); }
