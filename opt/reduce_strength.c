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
 * Division by a constant becomes multiplication by a "magic" reciprocal:
 * 32-bit with a 64-bit Mul (as B3), 64-bit with MulHigh/UMulHigh, the high
 * half of the 128-bit product — opcodes b3c adds to B3 IR for this (x86
 * mul/imul); a 64x64 high product from four 32-bit multiplies measured
 * slower than the divide itself. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir/cfg_order.h"
#include "ir/dominators.h"
#include "ir/effects.h"
#include "ir/ice.h"
#include "ir/insertion_set.h"
#include "ir/use_counts.h"
#include "opt/phases.h"

#define xcalloc(n, size) b3_xcalloc("reduce_strength", (n), (size))

/* The Upsilons of each Phi, by dense value number (b3_proc_number_values). */
typedef struct {
    uint32_t *start; /* upsilons of phi #k: list[start[k] .. start[k + 1]) */
    B3Value **list;
} PhiWrites;

static void phi_writes_compute(PhiWrites *w, B3Proc *p, uint32_t n) {
    w->start = xcalloc(n + 1, sizeof *w->start);
    uint32_t total = 0;
    for (uint32_t bi = 0; bi < p->nblocks; bi++)
        for (uint32_t i = 0; i < p->blocks[bi]->nvalues; i++) {
            B3Value *u = p->blocks[bi]->values[i];
            if (u->opcode == B3_Upsilon && u->m.phi && u->m.phi->owner) {
                w->start[u->m.phi->scratch + 1]++;
                total++;
            }
        }
    for (uint32_t k = 0; k < n; k++)
        w->start[k + 1] += w->start[k];
    w->list = xcalloc(total, sizeof *w->list);
    uint32_t *fill = xcalloc(n, sizeof *fill);
    for (uint32_t bi = 0; bi < p->nblocks; bi++)
        for (uint32_t i = 0; i < p->blocks[bi]->nvalues; i++) {
            B3Value *u = p->blocks[bi]->values[i];
            if (u->opcode == B3_Upsilon && u->m.phi && u->m.phi->owner) {
                uint32_t k = u->m.phi->scratch;
                w->list[w->start[k] + fill[k]++] = u;
            }
        }
    free(fill);
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

/* ---- integers of a type ------------------------------------------------- */

static unsigned width_of(B3Type t) { return t == B3_Int32 || t == B3_Float ? 32 : 64; }
static uint64_t umask_of(B3Type t) { return t == B3_Int32 ? 0xffffffffull : ~0ull; }

/* Two's complement reading of a 64-bit pattern, without implementation-defined conversions. */
static int64_t s64(uint64_t x) { return x > (uint64_t)INT64_MAX ? -(int64_t)(~x) - 1 : (int64_t)x; }

/* x reduced to type t: Int32 values are kept sign-extended, as Const32 holds them. */
static int64_t norm(B3Type t, uint64_t x) {
    if (t != B3_Int32)
        return s64(x);
    uint32_t u = (uint32_t)x;
    return u & 0x80000000u ? (int64_t)u - 0x100000000ll : (int64_t)u;
}

static int64_t tmin(B3Type t) { return t == B3_Int32 ? INT32_MIN : INT64_MIN; }
static int64_t tmax(B3Type t) { return t == B3_Int32 ? INT32_MAX : INT64_MAX; }

/* Arithmetic right shift without relying on the implementation's >> of negatives. */
static int64_t ashr(int64_t x, unsigned s) {
    return x < 0 ? -1 - (int64_t)((uint64_t)(-1 - x) >> s) : x >> s;
}

static bool is_pow2(uint64_t x) { return x && !(x & (x - 1)); }

static unsigned log2_floor(uint64_t x) {
    unsigned n = 0;
    while (x >>= 1)
        n++;
    return n;
}

static unsigned popcount(uint64_t x) {
    unsigned n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* Every bit at or below the highest set bit of x. */
static uint64_t smear(uint64_t x) {
    for (unsigned s = 1; s < 64; s *= 2)
        x |= x >> s;
    return x;
}

/* a + b etc. in type t; false on signed overflow. */
static bool add_in(B3Type t, int64_t a, int64_t b, int64_t *r) {
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
        return false;
    *r = a + b;
    return *r >= tmin(t) && *r <= tmax(t);
}

static bool sub_in(B3Type t, int64_t a, int64_t b, int64_t *r) {
    if ((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b))
        return false;
    *r = a - b;
    return *r >= tmin(t) && *r <= tmax(t);
}

static bool mul_in(B3Type t, int64_t a, int64_t b, int64_t *r) {
    if (a && b) {
        bool ovf = a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a)
                         : (b > 0 ? a < INT64_MIN / b : b < INT64_MAX / a);
        if (ovf)
            return false;
    }
    *r = a * b;
    return *r >= tmin(t) && *r <= tmax(t);
}

/* ---- constants ---------------------------------------------------------- */

static bool is_const(const B3Value *v) { return (b3_op((B3Opcode)v->opcode)->flags & B3OF_CONST) != 0; }

static bool int_of(const B3Value *v, int64_t *c) {
    if (v->opcode != B3_Const32 && v->opcode != B3_Const64)
        return false;
    *c = norm((B3Type)v->type, (uint64_t)v->m.c.i);
    return true;
}

static bool is_int(const B3Value *v, int64_t c) {
    int64_t x;
    return int_of(v, &x) && x == norm((B3Type)v->type, (uint64_t)c);
}

static uint32_t float_bits(const B3Value *v) {
    uint32_t b;
    memcpy(&b, &v->m.c.f, 4);
    return b;
}

/* A Float or Double constant's value (exact: every float is a double). */
static double fp_of(const B3Value *v) { return v->opcode == B3_ConstFloat ? (double)v->m.c.f : v->m.c.d; }
static uint64_t fp_bits(const B3Value *v) { return v->opcode == B3_ConstFloat ? float_bits(v) : v->m.c.bits; }

static bool is_nan_const(const B3Value *v) {
    return (v->opcode == B3_ConstFloat || v->opcode == B3_ConstDouble) && isnan(fp_of(v));
}

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
    v->m.c.i = norm((B3Type)v->type, (uint64_t)x);
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

static void become_float(RS *rs, B3Value *v, float f) {
    uint32_t b;
    memcpy(&b, &f, 4);
    become_fp_bits(rs, v, b);
}

static void become_double(RS *rs, B3Value *v, double d) {
    uint64_t b;
    memcpy(&b, &d, 8);
    become_fp_bits(rs, v, b);
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

/* ---- constant folding --------------------------------------------------- */

/* The high half of the double-width product of a and b (of type t). */
static uint64_t mul_high(B3Type t, bool is_signed, uint64_t a, uint64_t b) {
    if (t == B3_Int32) {
        if (is_signed)
            return (uint64_t)ashr(norm(B3_Int32, a) * norm(B3_Int32, b), 32);
        return (a * b) >> 32;
    }
    uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t lo = al * bl, m1 = ah * bl, m2 = al * bh;
    uint64_t mid = (lo >> 32) + (m1 & 0xffffffffu) + (m2 & 0xffffffffu);
    uint64_t hi = ah * bh + (m1 >> 32) + (m2 >> 32) + (mid >> 32);
    if (is_signed) /* a negative operand read as unsigned was 2^64 too large */
        hi -= (a >> 63 ? b : 0) + (b >> 63 ? a : 0);
    return hi;
}

/* op(a, b) for integers of type t (a, b normalized); false where B3 leaves
 * the result undefined and the value may fault (not Chill). */
static bool eval_int(B3Opcode op, B3Type t, bool chill, int64_t a, int64_t b, int64_t *out) {
    unsigned w = width_of(t), s = (unsigned)((uint64_t)b & (w - 1));
    uint64_t m = umask_of(t), ua = (uint64_t)a & m, ub = (uint64_t)b & m, r;
    switch (op) {
    case B3_Add:
        r = ua + ub;
        break;
    case B3_Sub:
        r = ua - ub;
        break;
    case B3_Mul:
        r = ua * ub;
        break;
    case B3_MulHigh:
    case B3_UMulHigh:
        r = mul_high(t, op == B3_MulHigh, ua, ub);
        break;
    case B3_Div:
    case B3_Mod:
        if (b == 0 || (b == -1 && a == tmin(t))) {
            if (!chill)
                return false;
            r = op == B3_Div && b ? (uint64_t)a : 0; /* x/0 = 0, MIN/-1 = MIN, x%0 = MIN%-1 = 0 */
            break;
        }
        r = (uint64_t)(op == B3_Div ? a / b : a % b);
        break;
    case B3_UDiv:
    case B3_UMod:
        if (!ub)
            return false;
        r = op == B3_UDiv ? ua / ub : ua % ub;
        break;
    case B3_BitAnd:
        r = ua & ub;
        break;
    case B3_BitOr:
        r = ua | ub;
        break;
    case B3_BitXor:
        r = ua ^ ub;
        break;
    case B3_Shl:
        r = ua << s;
        break;
    case B3_SShr:
        r = (uint64_t)ashr(a, s);
        break;
    case B3_ZShr:
        r = ua >> s;
        break;
    case B3_RotR:
        r = s ? (ua >> s) | (ua << (w - s)) : ua;
        break;
    case B3_RotL:
        r = s ? (ua << s) | (ua >> (w - s)) : ua;
        break;
    default:
        return false;
    }
    *out = norm(t, r);
    return true;
}

static bool eval_int_compare(B3Opcode op, B3Type t, int64_t a, int64_t b, int *out) {
    uint64_t m = umask_of(t), ua = (uint64_t)a & m, ub = (uint64_t)b & m;
    switch (op) {
    case B3_Equal:
        *out = a == b;
        return true;
    case B3_NotEqual:
        *out = a != b;
        return true;
    case B3_LessThan:
        *out = a < b;
        return true;
    case B3_GreaterThan:
        *out = a > b;
        return true;
    case B3_LessEqual:
        *out = a <= b;
        return true;
    case B3_GreaterEqual:
        *out = a >= b;
        return true;
    case B3_Above:
        *out = ua > ub;
        return true;
    case B3_Below:
        *out = ua < ub;
        return true;
    case B3_AboveEqual:
        *out = ua >= ub;
        return true;
    case B3_BelowEqual:
        *out = ua <= ub;
        return true;
    default:
        return false;
    }
}

/* IEEE comparisons: false with a NaN, except NotEqual and EqualOrUnordered. */
static bool eval_fp_compare(B3Opcode op, double a, double b, int *out) {
    switch (op) {
    case B3_Equal:
        *out = a == b;
        return true;
    case B3_NotEqual:
        *out = !(a == b);
        return true;
    case B3_LessThan:
        *out = a < b;
        return true;
    case B3_GreaterThan:
        *out = a > b;
        return true;
    case B3_LessEqual:
        *out = a <= b;
        return true;
    case B3_GreaterEqual:
        *out = a >= b;
        return true;
    case B3_EqualOrUnordered:
        *out = isnan(a) || isnan(b) || a == b;
        return true;
    default:
        return false;
    }
}

/* wasm min/max of two non-NaN numbers: -0 is below +0. */
static double fminmax(bool min, double a, double b) {
    if (a == b)
        return (signbit(a) != 0) == min ? a : b;
    return (a < b) == min ? a : b;
}

/* op(a, b) in Double precision; false unless every operand and the result
 * are numbers (NaN bits are the hardware's choice). */
static bool eval_double(B3Opcode op, double a, double b, bool binary, double *out) {
    double r;
    switch (op) {
    case B3_Add:
        r = a + b;
        break;
    case B3_Sub:
        r = a - b;
        break;
    case B3_Mul:
        r = a * b;
        break;
    case B3_Div:
        r = a / b;
        break;
    case B3_Mod:
        r = fmod(a, b);
        break;
    case B3_Ceil:
        r = ceil(a);
        break;
    case B3_Floor:
        r = floor(a);
        break;
    case B3_Sqrt:
        r = sqrt(a);
        break;
    case B3_FMin:
        r = fminmax(true, a, b);
        break;
    case B3_FMax:
        r = fminmax(false, a, b);
        break;
    default:
        return false;
    }
    if (isnan(a) || (binary && isnan(b)) || isnan(r))
        return false;
    *out = r;
    return true;
}

/* The same in Float precision. Widening both operands, computing in double
 * and rounding once gives the float result exactly: double has more than
 * 2*24+2 significand bits, so Add/Sub/Mul/Div/Sqrt are not double-rounded,
 * and Mod, Ceil, Floor, FMin, FMax are exact. */
static bool eval_float(B3Opcode op, float a, float b, bool binary, float *out) {
    double r;
    if (!eval_double(op, a, b, binary, &r))
        return false;
    *out = (float)r;
    return true;
}

/* DToI/DToU of d to type t, when the truncated value is in range. */
static bool eval_fp_to_int(bool is_signed, B3Type t, double d, int64_t *out) {
    if (isnan(d))
        return false;
    double x = trunc(d);
    if (is_signed) {
        double lo = t == B3_Int32 ? -2147483648.0 : -9223372036854775808.0;
        double hi = t == B3_Int32 ? 2147483648.0 : 9223372036854775808.0;
        if (!(x >= lo && x < hi))
            return false;
        *out = (int64_t)x;
        return true;
    }
    if (!(x >= 0 && x < (t == B3_Int32 ? 4294967296.0 : 18446744073709551616.0)))
        return false;
    *out = norm(t, (uint64_t)x);
    return true;
}

/* Folds v when its operands are constants (the opcode's B3OF_FOLDABLE).
 * Returns true if v was replaced. */
static bool fold(RS *rs, B3Value *v) {
    uint16_t flags = b3_op((B3Opcode)v->opcode)->flags;
    if (!(flags & B3OF_FOLDABLE) || !v->nkids)
        return false;
    B3Opcode op = (B3Opcode)v->opcode;
    B3Value *a = v->kids[0], *b = v->nkids > 1 ? v->kids[1] : NULL;
    int64_t ia = 0, ib = 0, r;
    if (op == B3_Select) {
        if (!int_of(a, &ia))
            return false;
        replace(rs, v, ia ? v->kids[1] : v->kids[2]);
        return true;
    }
    for (uint32_t i = 0; i < v->nkids; i++)
        if (!is_const(v->kids[i]))
            return false;
    B3Type t = (B3Type)v->type, at = (B3Type)a->type;
    bool a_int = int_of(a, &ia), b_int = b && int_of(b, &ib);
    uint64_t ua = (uint64_t)ia & umask_of(at);
    if (flags & B3OF_COMPARE) {
        int c;
        bool ok = a_int ? eval_int_compare(op, at, ia, ib, &c) : eval_fp_compare(op, fp_of(a), fp_of(b), &c);
        if (ok)
            become_int(rs, v, c);
        return ok;
    }
    switch (op) {
    case B3_Neg:
        if (a_int)
            become_int(rs, v, s64(0 - ua));
        else /* a sign flip, NaN or not (the backend xors the sign bit) */
            become_fp_bits(rs, v, fp_bits(a) ^ (t == B3_Float ? 0x80000000ull : 0x8000000000000000ull));
        return true;
    case B3_Abs:
        become_fp_bits(rs, v, fp_bits(a) & (t == B3_Float ? 0x7fffffffull : 0x7fffffffffffffffull));
        return true;
    case B3_Clz: {
        unsigned w = width_of(t), n = 0;
        while (n < w && !((ua >> (w - 1 - n)) & 1))
            n++;
        become_int(rs, v, n);
        return true;
    }
    case B3_SExt8:
        become_int(rs, v, (int64_t)(ua & 0xff) - (ua & 0x80 ? 0x100 : 0));
        return true;
    case B3_SExt16:
        become_int(rs, v, (int64_t)(ua & 0xffff) - (ua & 0x8000 ? 0x10000 : 0));
        return true;
    case B3_SExt32:
        become_int(rs, v, ia);
        return true;
    case B3_ZExt32:
        become_int(rs, v, (int64_t)ua);
        return true;
    case B3_Trunc:
        if (a_int)
            become_int(rs, v, norm(B3_Int32, ua));
        else /* Double -> Float: the low 32 bits */
            become_fp_bits(rs, v, fp_bits(a) & 0xffffffffull);
        return true;
    case B3_BitwiseCast:
        if (a_int)
            become_fp_bits(rs, v, ua);
        else
            become_int(rs, v, s64(fp_bits(a)));
        return true;
    case B3_IToD:
        become_double(rs, v, (double)ia);
        return true;
    case B3_IToF:
        become_float(rs, v, (float)ia);
        return true;
    case B3_UToD:
        become_double(rs, v, (double)ua);
        return true;
    case B3_UToF:
        become_float(rs, v, (float)ua);
        return true;
    case B3_FloatToDouble:
        if (isnan(fp_of(a)))
            return false; /* a signaling NaN comes out quiet */
        become_double(rs, v, fp_of(a));
        return true;
    case B3_DoubleToFloat:
        if (isnan(fp_of(a)))
            return false;
        become_float(rs, v, (float)fp_of(a));
        return true;
    case B3_DToI:
    case B3_DToU:
        if (!eval_fp_to_int(op == B3_DToI, t, fp_of(a), &r))
            return false;
        become_int(rs, v, r);
        return true;
    default:
        break;
    }
    if (b3_type_is_int(t)) {
        if (!a_int || !b_int || !eval_int(op, t, (v->kflags & B3K_CHILL) != 0, ia, ib, &r))
            return false;
        become_int(rs, v, r);
        return true;
    }
    if (op == B3_BitAnd || op == B3_BitOr || op == B3_BitXor) { /* on bit patterns */
        uint64_t x = fp_bits(a), y = fp_bits(b);
        become_fp_bits(rs, v, op == B3_BitAnd ? x & y : op == B3_BitOr ? x | y : x ^ y);
        return true;
    }
    if (t == B3_Float) {
        float f;
        if (!eval_float(op, a->m.c.f, b ? b->m.c.f : 0.0f, b != NULL, &f))
            return false;
        become_float(rs, v, f);
        return true;
    }
    double d;
    if (!eval_double(op, a->m.c.d, b ? b->m.c.d : 0.0, b != NULL, &d))
        return false;
    become_double(rs, v, d);
    return true;
}

/* ---- what an integer value may be ---------------------------------------- */

/* Bounded backward searches (as B3's rangeFor): each query visits at most
 * 2^DEPTH values, so a round stays linear. */
enum { DEPTH = 5 };

/* The bits of v that may be 1 (within its type). */
static uint64_t maybe_bits(const B3Value *v, int depth) {
    B3Type t = (B3Type)v->type;
    uint64_t all = umask_of(t), x;
    int64_t c;
    if (int_of(v, &c))
        return (uint64_t)c & all;
    if (depth <= 0 || !b3_type_is_int(t))
        return all;
    if (b3_op((B3Opcode)v->opcode)->flags & B3OF_COMPARE)
        return 1;
    const B3Value *a = v->nkids ? v->kids[0] : NULL, *b = v->nkids > 1 ? v->kids[1] : NULL;
    bool amount = b && b3_op((B3Opcode)v->opcode)->children == B3C_SHIFT && int_of(b, &c);
    unsigned s = amount ? (unsigned)((uint64_t)c & (width_of(t) - 1)) : 0;
    switch (v->opcode) {
    case B3_Load8Z:
        return 0xff;
    case B3_Load16Z:
        return 0xffff;
    case B3_Clz:
        return 0x7f;
    case B3_ZExt32:
        return maybe_bits(a, depth - 1) & 0xffffffffull;
    case B3_Trunc:
        return maybe_bits(a, depth - 1) & 0xffffffffull;
    case B3_BitAnd:
        return maybe_bits(a, depth - 1) & maybe_bits(b, depth - 1);
    case B3_BitOr:
    case B3_BitXor:
        return maybe_bits(a, depth - 1) | maybe_bits(b, depth - 1);
    case B3_Select:
        return maybe_bits(v->kids[1], depth - 1) | maybe_bits(v->kids[2], depth - 1);
    case B3_Shl:
        return amount ? (maybe_bits(a, depth - 1) << s) & all : all;
    case B3_ZShr:
        return amount ? maybe_bits(a, depth - 1) >> s : all;
    case B3_SShr:
        x = maybe_bits(a, depth - 1);
        return amount && !(x >> (width_of(t) - 1)) ? x >> s : all;
    case B3_SExt8:
        x = maybe_bits(a, depth - 1);
        return x & 0x80 ? all : x & 0x7f;
    case B3_SExt16:
        x = maybe_bits(a, depth - 1);
        return x & 0x8000 ? all : x & 0x7fff;
    case B3_SExt32:
        x = maybe_bits(a, depth - 1);
        return x & 0x80000000u ? all : x;
    case B3_UMod: /* below the divisor */
        return int_of(b, &c) && (uint64_t)c & all ? smear(((uint64_t)c & all) - 1) : all;
    default:
        return all;
    }
}

typedef struct {
    int64_t lo, hi; /* inclusive, normalized to the type */
} Range;

static Range top_range(B3Type t) { return (Range){tmin(t), tmax(t)}; }

static Range range_of(const B3Value *v, int depth);

/* The range that the possible bits allow. */
static Range bits_range(B3Type t, uint64_t bits) {
    if (bits >> (width_of(t) - 1) & 1)
        return top_range(t);
    return (Range){0, (int64_t)bits};
}

static Range meet(Range a, Range b) {
    Range r = {a.lo > b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi};
    return r.lo <= r.hi ? r : a; /* cannot be empty for a real value; be safe */
}

static Range range_in(B3Type t, Range r) { return r.lo >= tmin(t) && r.hi <= tmax(t) ? r : top_range(t); }

/* The signed values v may take. */
static Range range_of(const B3Value *v, int depth) {
    B3Type t = (B3Type)v->type;
    int64_t c;
    if (int_of(v, &c))
        return (Range){c, c};
    if (depth <= 0 || !b3_type_is_int(t))
        return top_range(t);
    const B3OpInfo *info = b3_op((B3Opcode)v->opcode);
    if (info->flags & B3OF_COMPARE)
        return (Range){0, 1};
    const B3Value *a = v->nkids ? v->kids[0] : NULL, *b = v->nkids > 1 ? v->kids[1] : NULL;
    Range bits = bits_range(t, maybe_bits(v, depth - 1)), ra, rb, r;
    bool amount = b && info->children == B3C_SHIFT && int_of(b, &c);
    unsigned s = amount ? (unsigned)((uint64_t)c & (width_of(t) - 1)) : 0;
    if (info->flags & B3OF_ATOMIC && v->opcode != B3_AtomicWeakCAS) {
        /* The old value, sign-extended from the access width (docs/atomics.md). */
        unsigned w = v->m.mem.width ? v->m.mem.width : width_of(t);
        if (w < width_of(t))
            return (Range){-((int64_t)1 << (w - 1)), ((int64_t)1 << (w - 1)) - 1};
        return top_range(t);
    }
    switch (v->opcode) {
    case B3_Load8S:
        return (Range){-128, 127};
    case B3_Load16S:
        return (Range){-32768, 32767};
    case B3_SExt8:
    case B3_SExt16:
        /* The operand's own range only if it already fits: 128 becomes -128. */
        r = range_of(a, depth - 1);
        ra = v->opcode == B3_SExt8 ? (Range){-128, 127} : (Range){-32768, 32767};
        return r.lo >= ra.lo && r.hi <= ra.hi ? r : ra;
    case B3_SExt32:
        return range_of(a, depth - 1);
    case B3_ZExt32:
        r = range_of(a, depth - 1);
        return r.lo >= 0 ? r : (Range){0, 0xffffffffll};
    case B3_Trunc:
        return range_in(B3_Int32, range_of(a, depth - 1));
    case B3_Select:
        ra = range_of(v->kids[1], depth - 1);
        rb = range_of(v->kids[2], depth - 1);
        return (Range){ra.lo < rb.lo ? ra.lo : rb.lo, ra.hi > rb.hi ? ra.hi : rb.hi};
    case B3_SShr:
        if (!amount)
            break;
        r = range_of(a, depth - 1);
        return (Range){ashr(r.lo, s), ashr(r.hi, s)};
    case B3_ZShr:
        if (!amount)
            break;
        r = range_of(a, depth - 1);
        if (r.lo >= 0)
            return (Range){r.lo >> s, r.hi >> s};
        break;
    case B3_Shl:
        if (!amount)
            break;
        ra = range_of(a, depth - 1);
        if (s < width_of(t) - 1 && mul_in(t, ra.lo, (int64_t)1 << s, &r.lo) &&
            mul_in(t, ra.hi, (int64_t)1 << s, &r.hi))
            return r;
        break;
    case B3_Add:
    case B3_Sub:
        ra = range_of(a, depth - 1);
        rb = range_of(b, depth - 1);
        if (v->opcode == B3_Add ? add_in(t, ra.lo, rb.lo, &r.lo) && add_in(t, ra.hi, rb.hi, &r.hi)
                                : sub_in(t, ra.lo, rb.hi, &r.lo) && sub_in(t, ra.hi, rb.lo, &r.hi))
            return r;
        break;
    case B3_Mul: {
        ra = range_of(a, depth - 1);
        rb = range_of(b, depth - 1);
        int64_t p[4];
        if (!mul_in(t, ra.lo, rb.lo, &p[0]) || !mul_in(t, ra.lo, rb.hi, &p[1]) ||
            !mul_in(t, ra.hi, rb.lo, &p[2]) || !mul_in(t, ra.hi, rb.hi, &p[3]))
            break;
        r = (Range){p[0], p[0]};
        for (int i = 1; i < 4; i++) {
            r.lo = p[i] < r.lo ? p[i] : r.lo;
            r.hi = p[i] > r.hi ? p[i] : r.hi;
        }
        return r;
    }
    case B3_BitAnd:
        /* The result is no larger than a non-negative operand. */
        ra = range_of(a, depth - 1);
        rb = range_of(b, depth - 1);
        if (ra.lo >= 0)
            bits = meet(bits, (Range){0, ra.hi});
        if (rb.lo >= 0)
            bits = meet(bits, (Range){0, rb.hi});
        return bits;
    case B3_UDiv:
        if (!int_of(b, &c) || !((uint64_t)c & umask_of(t)))
            break;
        ra = range_of(a, depth - 1);
        if (ra.lo >= 0)
            return (Range){(int64_t)((uint64_t)ra.lo / ((uint64_t)c & umask_of(t))),
                           (int64_t)((uint64_t)ra.hi / ((uint64_t)c & umask_of(t)))};
        break;
    default:
        break;
    }
    return bits;
}

/* A value that is 0 or 1 (B3's returnsBool). */
static bool is_bool(const B3Value *v) {
    Range r = range_of(v, DEPTH);
    return v->type == B3_Int32 && r.lo >= 0 && r.hi <= 1;
}

/* Ranges mapped to unsigned order, when they do not straddle the sign. */
static bool unsigned_range(B3Type t, Range r, uint64_t *lo, uint64_t *hi) {
    if (r.lo < 0 && r.hi >= 0)
        return false;
    *lo = (uint64_t)r.lo & umask_of(t);
    *hi = (uint64_t)r.hi & umask_of(t);
    return true;
}

/* op(a, b) from the operands' ranges: 0, 1, or -1 when unknown. */
static int compare_ranges(B3Opcode op, B3Type t, Range a, Range b) {
    switch (op) {
    case B3_Equal:
    case B3_NotEqual: {
        int eq = a.hi < b.lo || b.hi < a.lo ? 0 : a.lo == a.hi && b.lo == b.hi && a.lo == b.lo ? 1 : -1;
        return eq < 0 || op == B3_Equal ? eq : !eq;
    }
    case B3_LessThan:
        return a.hi < b.lo ? 1 : a.lo >= b.hi ? 0 : -1;
    case B3_GreaterThan:
        return a.lo > b.hi ? 1 : a.hi <= b.lo ? 0 : -1;
    case B3_LessEqual:
        return a.hi <= b.lo ? 1 : a.lo > b.hi ? 0 : -1;
    case B3_GreaterEqual:
        return a.lo >= b.hi ? 1 : a.hi < b.lo ? 0 : -1;
    default:
        break;
    }
    if (b.lo == 0 && b.hi == 0 && (op == B3_AboveEqual || op == B3_Below))
        return op == B3_AboveEqual; /* every value is unsigned >= 0 */
    uint64_t alo, ahi, blo, bhi;
    if (!unsigned_range(t, a, &alo, &ahi) || !unsigned_range(t, b, &blo, &bhi))
        return -1;
    switch (op) {
    case B3_Below:
        return ahi < blo ? 1 : alo >= bhi ? 0 : -1;
    case B3_Above:
        return alo > bhi ? 1 : ahi <= blo ? 0 : -1;
    case B3_BelowEqual:
        return ahi <= blo ? 1 : alo > bhi ? 0 : -1;
    case B3_AboveEqual:
        return alo >= bhi ? 1 : ahi < blo ? 0 : -1;
    default:
        return -1;
    }
}

/* ---- division by constants ------------------------------------------------ */

/* 2^p = q * d + rem for p < 128, d > 1: long division one bit at a time,
 * the quotient in two halves. */
static uint64_t pow2_divmod(unsigned p, uint64_t d, uint64_t *q_hi, uint64_t *rem) {
    uint64_t r = 1, hi = 0, lo = 0; /* the remainder so far: 2^0 */
    for (unsigned i = 0; i < p; i++) {
        bool carry = r >> 63;
        r <<= 1;
        hi = hi << 1 | lo >> 63;
        lo <<= 1;
        if (carry || r >= d) { /* the true 2r is below 2d, so one subtraction does */
            r -= d;
            lo |= 1;
        }
    }
    if (q_hi)
        *q_hi = hi;
    *rem = r;
    return lo;
}

/* floor(2^p / d) for p <= 64, d > 1 (the quotient fits 64 bits). */
static uint64_t pow2_div(unsigned p, uint64_t d) {
    uint64_t rem;
    return pow2_divmod(p, d, NULL, &rem);
}

/* n / d rounded toward zero for d = 2^k or -2^k (1 <= k < width; the
 * type's minimum is -2^(w-1)): bias a negative n by 2^k - 1, then shift. */
static B3Value *sdiv_pow2(RS *rs, B3Type t, B3Value *n, unsigned k, bool negative) {
    unsigned w = width_of(t);
    B3Value *sign = k == 1 ? n : add(rs, B3_SShr, t, n, add_i32(rs, k - 1));
    B3Value *bias = add(rs, B3_ZShr, t, sign, add_i32(rs, w - k));
    B3Value *q = add(rs, B3_SShr, t, add(rs, B3_Add, t, n, bias), add_i32(rs, k));
    return negative ? add(rs, B3_Neg, t, q, NULL) : q;
}

/* n / d (Int32, rounded toward zero) for |d| > 2 not a power of two:
 * with l = ceil(log2 |d|), p = 31 + l and m = ceil(2^p / |d|) < 2^32,
 * floor(n * m / 2^p) is floor(n / |d|) for every Int32 n (the error
 * n * (m |d| - 2^p) stays below 2^p), and adding 1 for a negative n
 * rounds toward zero instead.  The product fits in Int64. */
static B3Value *sdiv32_magic(RS *rs, B3Value *n, int64_t d) {
    uint64_t ad = d < 0 ? (uint64_t)-d : (uint64_t)d;
    unsigned l = log2_floor(ad) + 1, p = 31 + l;
    uint64_t m = pow2_div(p, ad) + 1;
    B3Value *prod =
        add(rs, B3_Mul, B3_Int64, add(rs, B3_SExt32, B3_Int64, n, NULL), add_int(rs, B3_Int64, (int64_t)m));
    B3Value *q0 = add(rs, B3_Trunc, B3_Int32, add(rs, B3_SShr, B3_Int64, prod, add_i32(rs, p)), NULL);
    B3Value *q = add(rs, B3_Add, B3_Int32, q0, add(rs, B3_ZShr, B3_Int32, n, add_i32(rs, 31)));
    return d < 0 ? add(rs, B3_Neg, B3_Int32, q, NULL) : q;
}

/* n / d (unsigned Int32) for d > 2 not a power of two.  The smallest p >= 32
 * whose m = ceil(2^p / d) fits 32 bits and keeps the error
 * (2^32 - 1) * (m d - 2^p) below 2^p gives floor(n * m / 2^p); otherwise
 * p = 32 + ceil(log2 d) always works with a 33-bit m = 2^32 + m', and
 * n * m / 2^p is (n + n * m' / 2^32) / 2^(p - 32), all within 64 bits. */
static B3Value *udiv32_magic(RS *rs, B3Value *n, uint64_t d) {
    unsigned l = log2_floor(d) + 1;
    B3Value *x = add(rs, B3_ZExt32, B3_Int64, n, NULL);
    for (unsigned p = 32; p < 32 + l; p++) {
        uint64_t m = pow2_div(p, d) + 1;
        if (m > 0xffffffffull)
            break;
        if (0xffffffffull * (m * d - (1ull << p)) < (1ull << p)) {
            B3Value *prod = add(rs, B3_Mul, B3_Int64, x, add_int(rs, B3_Int64, (int64_t)m));
            return add(rs, B3_Trunc, B3_Int32, add(rs, B3_ZShr, B3_Int64, prod, add_i32(rs, p)), NULL);
        }
    }
    uint64_t m = pow2_div(32 + l, d) + 1 - 0x100000000ull;
    B3Value *prod = add(rs, B3_Mul, B3_Int64, x, add_int(rs, B3_Int64, (int64_t)m));
    B3Value *hi = add(rs, B3_ZShr, B3_Int64, prod, add_i32(rs, 32));
    B3Value *sum = add(rs, B3_Add, B3_Int64, hi, x);
    return add(rs, B3_Trunc, B3_Int32, add(rs, B3_ZShr, B3_Int64, sum, add_i32(rs, l)), NULL);
}

/* n / d (Int64, rounded toward zero) for |d| > 2 not a power of two: as
 * sdiv32_magic, with MulHigh giving floor(n * m / 2^64).  p = 63 + l always
 * works, with 2^63 <= m < 2^64; as a signed number m is then m - 2^64, so
 * MulHigh(n, m) is n * m / 2^64 - n, and adding n back gives the product's
 * high half, which fits. */
static B3Value *sdiv64_magic(RS *rs, B3Value *n, int64_t d) {
    uint64_t ad = d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d, rem, m;
    unsigned l = log2_floor(ad) + 1, p;
    B3Value *t = NULL;
    /* A smaller p whose m stays below 2^63 (with error below 2^(p - 63))
     * needs no correction: SShr(MulHigh(n, m), p - 64), as for /10. */
    for (p = 64; p < 63 + l && !t; p++) {
        m = pow2_divmod(p, ad, NULL, &rem) + 1;
        if (m >> 63)
            break;
        if (ad - rem < 1ull << (p - 63))
            t = add(rs, B3_MulHigh, B3_Int64, n, add_int(rs, B3_Int64, (int64_t)m));
    }
    if (!t) {
        p = 63 + l;
        m = pow2_divmod(p, ad, NULL, &rem) + 1;
        t = add(rs, B3_Add, B3_Int64, add(rs, B3_MulHigh, B3_Int64, n, add_int(rs, B3_Int64, s64(m))), n);
    } else {
        p--;
    }
    B3Value *q0 = p > 64 ? add(rs, B3_SShr, B3_Int64, t, add_i32(rs, p - 64)) : t;
    B3Value *q = add(rs, B3_Add, B3_Int64, q0, add(rs, B3_ZShr, B3_Int64, n, add_i32(rs, 63)));
    return d < 0 ? add(rs, B3_Neg, B3_Int64, q, NULL) : q;
}

/* n / d (unsigned Int64) for d > 2 not a power of two, as udiv32_magic with
 * the high half of a 128-bit product: the smallest p >= 64 whose
 * m = ceil(2^p / d) fits 64 bits with error m d - 2^p <= 2^(p - 64) gives
 * UMulHigh(n, m) >> (p - 64); otherwise p = 64 + l with m = 2^64 + m', and
 * (n + UMulHigh(n, m')) >> l computed as (t + ((n - t) >> 1)) >> (l - 1)
 * so that nothing overflows. */
static B3Value *udiv64_magic(RS *rs, B3Value *n, uint64_t d) {
    unsigned l = log2_floor(d) + 1;
    uint64_t hi, rem, q;
    for (unsigned p = 64; p < 64 + l; p++) {
        q = pow2_divmod(p, d, &hi, &rem);
        if (hi || q == UINT64_MAX)
            break; /* m = q + 1 no longer fits; it only grows with p */
        if (d - rem <= 1ull << (p - 64)) {
            B3Value *t = add(rs, B3_UMulHigh, B3_Int64, n, add_int(rs, B3_Int64, s64(q + 1)));
            return p > 64 ? add(rs, B3_ZShr, B3_Int64, t, add_i32(rs, p - 64)) : t;
        }
    }
    q = pow2_divmod(64 + l, d, &hi, &rem); /* 2^64 <= q + 1 < 2^65: m' = q + 1 - 2^64 */
    B3Value *t = add(rs, B3_UMulHigh, B3_Int64, n, add_int(rs, B3_Int64, s64(q + 1)));
    B3Value *half = add(rs, B3_ZShr, B3_Int64, add(rs, B3_Sub, B3_Int64, n, t), add_i32(rs, 1));
    B3Value *sum = add(rs, B3_Add, B3_Int64, t, half);
    return l > 1 ? add(rs, B3_ZShr, B3_Int64, sum, add_i32(rs, l - 1)) : sum;
}

/* n / d without a divide, or NULL (signed or not; d not 0, 1 or -1). */
static B3Value *div_by_const(RS *rs, B3Type t, B3Value *n, int64_t d, bool is_signed) {
    uint64_t ud = (uint64_t)d & umask_of(t);
    if (!is_signed) {
        if (is_pow2(ud))
            return add(rs, B3_ZShr, t, n, add_i32(rs, log2_floor(ud)));
        return t == B3_Int32 ? udiv32_magic(rs, n, ud) : udiv64_magic(rs, n, ud);
    }
    uint64_t ad = d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d; /* 2^(w-1) for the minimum */
    ad &= umask_of(t);
    if (is_pow2(ad))
        return sdiv_pow2(rs, t, n, log2_floor(ad), d < 0);
    return t == B3_Int32 ? sdiv32_magic(rs, n, d) : sdiv64_magic(rs, n, d);
}

/* Div, UDiv, Mod, UMod (integers). */
static void reduce_division(RS *rs, B3Value *v) {
    if (fold(rs, v))
        return;
    B3Type t = (B3Type)v->type;
    B3Value *n = v->kids[0];
    int64_t d;
    if (!b3_type_is_int(t) || !int_of(v->kids[1], &d))
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
    B3Value *q = div_by_const(rs, t, n, d, is_signed);
    if (!q)
        return;
    if (!is_mod) {
        replace(rs, v, q);
        return;
    }
    uint64_t ud = (uint64_t)d & umask_of(t);
    if (!is_signed && is_pow2(ud)) {
        become(rs, v, B3_BitAnd, 2, n, add_int(rs, t, s64(ud - 1)), NULL);
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
    if (is_const(b) || a->opcode == B3_AtomicStrongCAS)
        return false;
    if (is_const(a))
        return !is_nan_const(a);
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
    return a->opcode == B3_Sub && a->kids[1] == n && int_of(a->kids[0], &c) && !((uint64_t)c & (w - 1));
}

/* Shl(x, a) op ZShr(x, b) with a + b = w is a rotate: for any op when the
 * amounts are constants (the halves do not overlap), for BitOr when b is -a
 * (a zero amount gives x | x = x, which is still the rotate). */
static bool try_rotate(RS *rs, B3Value *v) {
    B3Type t = (B3Type)v->type;
    unsigned w = width_of(t);
    B3Value *shl = v->kids[0], *zshr = v->kids[1];
    if (shl->opcode != B3_Shl) {
        shl = v->kids[1];
        zshr = v->kids[0];
    }
    if (shl->opcode != B3_Shl || zshr->opcode != B3_ZShr || shl->kids[0] != zshr->kids[0])
        return false;
    B3Value *x = shl->kids[0], *n1 = shl->kids[1], *n2 = zshr->kids[1];
    int64_t c1, c2;
    if (int_of(n1, &c1) && int_of(n2, &c2)) {
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
    if (a->opcode == B3_Add && int_of(a->kids[1], &c1)) {
        if (int_of(b, &c2)) /* (x + c1) + c2 */
            become(rs, v, B3_Add, 2, a->kids[0], add_int(rs, t, s64((uint64_t)c1 + (uint64_t)c2)), NULL);
        else if (single_use(rs, a)) /* (x + c) + y -> (x + y) + c: the constant moves out */
            become(rs, v, B3_Add, 2, add(rs, B3_Add, t, a->kids[0], b), a->kids[1], NULL);
        else
            goto more;
        return;
    }
    if (b->opcode == B3_Add && !is_const(a) && int_of(b->kids[1], &c2) && single_use(rs, b)) {
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
    unsigned w = width_of(t);
    B3Value *a = v->kids[0], *b = v->kids[1];
    int64_t c, m1, m2;
    /* Sub(BitXor(BitAnd(x, 2^k - 1), 2^(k-1)), 2^(k-1)): sign-extends the low k bits. */
    if (a->opcode == B3_BitXor && a->kids[0]->opcode == B3_BitAnd && int_of(a->kids[0]->kids[1], &m1) &&
        int_of(a->kids[1], &m2) && int_of(b, &c) && m2 == c) {
        uint64_t u1 = (uint64_t)m1 & umask_of(t), u2 = (uint64_t)m2 & umask_of(t);
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
    if (int_of(b, &c)) {
        become(rs, v, B3_Add, 2, a, add_int(rs, t, s64(0 - (uint64_t)c)), NULL);
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
    else if (a->opcode == B3_Mul && int_of(a->kids[1], &c) && c != tmin((B3Type)v->type))
        become(rs, v, B3_Mul, 2, a->kids[0], add_int(rs, (B3Type)v->type, -c), NULL);
}

static void reduce_mul(RS *rs, B3Value *v) {
    commute(rs, v);
    if (fold(rs, v) || !b3_type_is_int((B3Type)v->type))
        return;
    B3Type t = (B3Type)v->type;
    B3Value *a = v->kids[0], *b = v->kids[1];
    int64_t c;
    if (int_of(b, &c)) {
        uint64_t uc = (uint64_t)c & umask_of(t);
        if (c == 0)
            become_int(rs, v, 0);
        else if (c == 1)
            replace(rs, v, a);
        else if (c == -1)
            become(rs, v, B3_Neg, 1, a, NULL, NULL);
        else if (is_pow2(uc))
            become(rs, v, B3_Shl, 2, a, add_i32(rs, log2_floor(uc)), NULL);
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
    if (!is_const(b) || is_nan_const(b))
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

static void reduce_bitand(RS *rs, B3Value *v) {
    commute(rs, v);
    if (fold(rs, v))
        return;
    B3Value *a = v->kids[0], *b = v->kids[1];
    if (a == b) {
        replace(rs, v, a);
        return;
    }
    B3Type t = (B3Type)v->type;
    if (!b3_type_is_int(t))
        return;
    uint64_t all = umask_of(t);
    int64_t c, c1;
    if (int_of(b, &c)) {
        uint64_t uc = (uint64_t)c & all, bits = maybe_bits(a, DEPTH);
        if (a->opcode == B3_BitAnd && int_of(a->kids[1], &c1)) {
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
        if ((a->opcode == B3_BitOr || a->opcode == B3_BitXor) && int_of(a->kids[1], &c1) && !(c1 & c)) {
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

static void reduce_bitor(RS *rs, B3Value *v) {
    commute(rs, v);
    if (fold(rs, v))
        return;
    B3Value *a = v->kids[0], *b = v->kids[1];
    if (a == b) {
        replace(rs, v, a);
        return;
    }
    B3Type t = (B3Type)v->type;
    if (!b3_type_is_int(t))
        return;
    int64_t c, c1;
    if (int_of(b, &c)) {
        uint64_t uc = (uint64_t)c & umask_of(t);
        if (a->opcode == B3_BitOr && int_of(a->kids[1], &c1))
            become(rs, v, B3_BitOr, 2, a->kids[0], add_int(rs, t, c | c1), NULL);
        else if (!uc)
            replace(rs, v, a);
        else if (!(maybe_bits(a, DEPTH) & ~uc)) /* also x | -1 */
            replace(rs, v, b);
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
    if (int_of(b, &c)) {
        if (a->opcode == B3_BitXor && int_of(a->kids[1], &c1)) { /* also ~~x */
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
    unsigned w = width_of((B3Type)v->type);
    B3Value *amount = v->kids[1];
    int64_t c;
    if (int_of(amount, &c)) {
        if (!((uint64_t)c & (w - 1))) {
            replace(rs, v, v->kids[0]);
            return true;
        }
        if ((uint64_t)c != ((uint64_t)c & (w - 1)))
            set_kid(rs, v, 1, add_i32(rs, (int64_t)((uint64_t)c & (w - 1))));
        return false;
    }
    /* A mask that keeps the bits the shift reads is redundant. */
    if (amount->opcode == B3_BitAnd && int_of(amount->kids[1], &c) && ((uint64_t)c & (w - 1)) == w - 1)
        set_kid(rs, v, 1, amount->kids[0]);
    return false;
}

/* The masked constant amount of shift v, or 0. */
static unsigned const_amount(const B3Value *v) {
    int64_t c;
    return int_of(v->kids[1], &c) ? (unsigned)((uint64_t)c & (width_of((B3Type)v->type) - 1)) : 0;
}

static void reduce_shift(RS *rs, B3Value *v) {
    if (fold(rs, v) || reduce_shift_amount(rs, v))
        return;
    B3Type t = (B3Type)v->type;
    unsigned w = width_of(t), s = const_amount(v), s1;
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
            become(rs, v, B3_BitAnd, 2, a->kids[0], add_int(rs, t, s64(umask_of(t) << s)), NULL);
        else if (a->opcode == B3_Shl && s1)
            s + s1 < w ? become(rs, v, B3_Shl, 2, a->kids[0], add_i32(rs, s + s1), NULL)
                       : become_int(rs, v, 0);
        else if (a->opcode == B3_Add && int_of(a->kids[1], &c) && !is_const(a->kids[0]) && single_use(rs, a))
            /* (x + c) << s -> (x << s) + (c << s): the constant moves out, to
             * an address's displacement or a lea's (same bits: shifting
             * distributes over addition modulo 2^w) */
            become(rs, v, B3_Add, 2, add(rs, B3_Shl, t, a->kids[0], v->kids[1]),
                   add_int(rs, t, s64((uint64_t)c << s)), NULL);
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
            become(rs, v, B3_BitAnd, 2, a->kids[0], add_int(rs, t, s64(umask_of(t) >> s)), NULL);
        else if (a->opcode == B3_ZShr && s1)
            s + s1 < w ? become(rs, v, B3_ZShr, 2, a->kids[0], add_i32(rs, s + s1), NULL)
                       : become_int(rs, v, 0);
        else if (!(maybe_bits(a, DEPTH) >> s))
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
        eval_int_compare((B3Opcode)v->opcode, t, 0, 0, &eq); /* x op x is 0 op 0 */
        r = eq;
    } else {
        r = compare_ranges((B3Opcode)v->opcode, t, range_of(a, DEPTH), range_of(b, DEPTH));
    }
    int64_t c;
    if (r < 0 && (v->opcode == B3_Equal || v->opcode == B3_NotEqual) && int_of(b, &c) &&
        ((uint64_t)c & umask_of(t) & ~maybe_bits(a, DEPTH)))
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
    bool boolean = a->type == B3_Int32 && is_bool(a);
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
    Range r = range_of(c, DEPTH);
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
    else if (c->opcode == B3_BitXor && is_int(c->kids[1], 1) && is_bool(c->kids[0]))
        swap = true;
    else if (!(c->opcode == B3_NotEqual && is_int(c->kids[1], 0)) &&
             !(c->opcode == B3_BitAnd && int_of(c->kids[1], &m) && (m & 1) && is_bool(c->kids[0])))
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
    if (int_of(addr->kids[1], &c)) {
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
        if (inner->opcode == B3_Add && int_of(inner->kids[1], &c) && offset_fits(c, o) &&
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
    bool (*op)(B3Type, int64_t, int64_t, int64_t *) = plain == B3_Add   ? add_in
                                                      : plain == B3_Sub ? sub_in
                                                                        : mul_in;
    if (int_of(a, &ca) && int_of(b, &cb)) {
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
    Range ra = range_of(a, DEPTH), rb = range_of(b, DEPTH);
    bool safe;
    if (plain == B3_Add)
        safe = add_in(t, ra.lo, rb.lo, &r) && add_in(t, ra.hi, rb.hi, &r);
    else if (plain == B3_Sub)
        safe = sub_in(t, ra.lo, rb.hi, &r) && sub_in(t, ra.hi, rb.lo, &r);
    else
        safe = mul_in(t, ra.lo, rb.lo, &r) && mul_in(t, ra.lo, rb.hi, &r) && mul_in(t, ra.hi, rb.lo, &r) &&
               mul_in(t, ra.hi, rb.hi, &r);
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
    else if (c->opcode == B3_BitXor && is_int(c->kids[1], 1) && is_bool(c->kids[0]))
        set_kid(rs, v, 0, c->kids[0]), swap = true;
    else if (c->opcode == B3_BitAnd && int_of(c->kids[1], &m) && (m & 1) && is_bool(c->kids[0]))
        set_kid(rs, v, 0, c->kids[0]);
    if (swap) {
        B3Succ s = blk->succs[0];
        blk->succs[0] = blk->succs[1];
        blk->succs[1] = s;
    }
    Range r = range_of(v->kids[0], DEPTH);
    if (r.lo > 0 || r.hi < 0)
        become_jump(rs, v, 0);
    else if (r.lo == 0 && r.hi == 0)
        become_jump(rs, v, 1);
}

static void reduce_switch(RS *rs, B3Value *v) {
    int64_t c;
    if (!int_of(v->kids[0], &c))
        return;
    B3Type t = (B3Type)v->kids[0]->type;
    uint32_t target = rs->block->nsuccs - 1; /* the default */
    for (uint32_t i = 0; i < v->m.sw.ncases; i++)
        if (norm(t, (uint64_t)v->m.sw.cases[i]) == c) {
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
    if (cond->opcode != B3_LessThan || cond->kids[0] != p || !int_of(cond->kids[1], &c))
        return false;
    uint32_t k0 = rs->pw.start[p->scratch], k1 = rs->pw.start[p->scratch + 1];
    bool have_init = false, have_step = false;
    for (uint32_t k = k0; k < k1; k++) {
        const B3Value *u = rs->pw.list[k];
        if (u->opcode != B3_Upsilon)
            continue;
        const B3Value *x = u->kids[0];
        int64_t d;
        if (int_of(x, &d) && !have_init && !b3_dominates(&rs->dom, h, u->owner)) {
            have_init = true;
            c0 = d;
        } else if (x->opcode == B3_Add && x->kids[0] == p && int_of(x->kids[1], &d) && d > 0 && !have_step &&
                   b3_dominates(&rs->dom, t, u->owner)) {
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
    if ((x->opcode != B3_Shl && x->opcode != B3_Mul) || !int_of(x->kids[1], &c) ||
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
    if (a->opcode == B3_Add && int_of(a->kids[1], &k) && induction_term(rs, a->kids[0], &lo, &hi)) {
        if (lo + k < INT32_MIN || hi + k > INT32_MAX)
            return false;
        become(rs, v, B3_Add, 2, add(rs, B3_SExt32, B3_Int64, a->kids[0], NULL), add_int(rs, B3_Int64, k),
               NULL);
        return true;
    }
    if ((a->opcode == B3_Shl || a->opcode == B3_Mul) && induction_term(rs, a, &lo, &hi)) {
        B3Value *x = add(rs, B3_SExt32, B3_Int64, a->kids[0], NULL);
        int64_t c = 0;
        int_of(a->kids[1], &c);
        become(rs, v, (B3Opcode)a->opcode, 2, x, a->opcode == B3_Shl ? a->kids[1] : add_int(rs, B3_Int64, c),
               NULL);
        return true;
    }
    return false;
}

static void reduce_value(RS *rs, B3Value *v) {
    B3Value *a = v->nkids ? v->kids[0] : NULL;
    int64_t m;
    Range r;
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
        r = range_of(a, DEPTH);
        if (r.lo >= lo && r.hi <= hi) { /* already sign-extended */
            replace(rs, v, a);
            break;
        }
        if (a->opcode == B3_BitAnd && int_of(a->kids[1], &m)) {
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
            r = range_of(a->kids[0], DEPTH);
            if (r.lo >= INT32_MIN && r.hi <= INT32_MAX) {
                replace(rs, v, a->kids[0]);
                break;
            }
        }
        if (range_of(a, DEPTH).lo >= 0) /* non-negative: zero extension is the same, and free */
            become(rs, v, B3_ZExt32, 1, a, NULL, NULL);
        break;
    case B3_ZExt32:
        if (!fold(rs, v) && a->opcode == B3_Trunc && !(maybe_bits(a->kids[0], DEPTH) >> 32))
            replace(rs, v, a->kids[0]);
        break;
    case B3_Trunc:
        if (fold(rs, v) || !b3_type_is_int((B3Type)a->type))
            break;
        if (a->opcode == B3_SExt32 || a->opcode == B3_ZExt32) {
            replace(rs, v, a->kids[0]);
        } else if (a->nkids == 2 && int_of(a->kids[1], &m)) {
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
        r = range_of(a, DEPTH);
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
static void reduce_phi(RS *rs, B3Value *phi) {
    B3Value *w = NULL;
    uint32_t k0 = rs->pw.start[phi->scratch], k1 = rs->pw.start[phi->scratch + 1];
    for (uint32_t k = k0; k < k1; k++) {
        B3Value *u = rs->pw.list[k];
        if (!upsilon_live(rs, u))
            continue;
        b3_value_perform_substitution(u);
        B3Value *x = u->kids[0];
        if (x == phi || x == w)
            continue;
        if (w)
            return;
        w = x;
    }
    if (!w)
        become_zero(rs, phi);
    else if (defined_before(rs, w, phi, rs->index))
        replace(rs, phi, w);
    else if (is_const(w)) {
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
    rs->pos = xcalloc(rs->uc.nvalues, sizeof *rs->pos);
    for (uint32_t bi = 0; bi < p->nblocks; bi++)
        for (uint32_t i = 0; i < p->blocks[bi]->nvalues; i++)
            rs->pos[p->blocks[bi]->values[i]->scratch] = i;
    rs->exec = xcalloc(p->nblocks, 1);
    rs->done = xcalloc(p->nblocks, 1);
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
                if (!did || is_const(v))
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
    B3Block **memo = xcalloc(nb, sizeof *memo), **stack = xcalloc(nb, sizeof *stack);
    uint8_t *state = xcalloc(nb, 1);
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
    uint8_t *live = xcalloc(n, 1);
    B3Value **work = xcalloc(n, sizeof *work);
    PhiWrites pw;
    phi_writes_compute(&pw, p, n);
    for (uint32_t bi = 0; bi < p->nblocks; bi++)
        for (uint32_t i = 0; i < p->blocks[bi]->nvalues; i++) {
            B3Value *v = p->blocks[bi]->values[i];
            /* An Upsilon is a store to its Phi: needed when the Phi is. */
            if (v->opcode != B3_Upsilon && b3_effects_must_execute(b3_effects(v)) && !live[v->scratch]) {
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
            for (uint32_t k = pw.start[v->scratch]; k < pw.start[v->scratch + 1]; k++)
                if (!live[pw.list[k]->scratch]) {
                    live[pw.list[k]->scratch] = 1;
                    work[sp++] = pw.list[k];
                }
    }
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
    phi_writes_free(&pw);
    free(live);
    free(work);
    return changed;
}

/* ---- the phase -------------------------------------------------------------- */

bool b3_reduce_strength(B3Module *m, B3Proc *p) {
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
    for (unsigned round = 0; round < 1000; round++) {
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
