/* What an integer value may be (opt/int_range.h). */
#include "opt/int_range.h"

#include "ir/fold.h"

/* Every bit at or below the highest set bit of x. */
static uint64_t smear(uint64_t x) {
    for (unsigned s = 1; s < 64; s *= 2)
        x |= x >> s;
    return x;
}

/* Bounded backward searches (as B3's rangeFor): each query visits at most
 * 2^DEPTH values, so a round stays linear. */
enum { DEPTH = 5 };

/* The bits of v that may be 1 (within its type). */
static uint64_t maybe_bits(const B3Value *v, int depth) {
    B3Type t = (B3Type)v->type;
    uint64_t all = b3_int_mask(t), x;
    int64_t c;
    if (b3_value_int_const(v, &c))
        return (uint64_t)c & all;
    if (depth <= 0 || !b3_type_is_int(t))
        return all;
    if (b3_op((B3Opcode)v->opcode)->flags & B3OF_COMPARE)
        return 1;
    const B3Value *a = v->nkids ? v->kids[0] : NULL, *b = v->nkids > 1 ? v->kids[1] : NULL;
    bool amount = b && b3_op((B3Opcode)v->opcode)->children == B3C_SHIFT && b3_value_int_const(b, &c);
    unsigned s = amount ? (unsigned)((uint64_t)c & (b3_type_bits(t) - 1)) : 0;
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
        return amount && !(x >> (b3_type_bits(t) - 1)) ? x >> s : all;
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
        return b3_value_int_const(b, &c) && (uint64_t)c & all ? smear(((uint64_t)c & all) - 1) : all;
    default:
        return all;
    }
}

static B3IntRange top_range(B3Type t) { return (B3IntRange){b3_int_min(t), b3_int_max(t)}; }

static B3IntRange range_of(const B3Value *v, int depth);

/* The range that the possible bits allow. */
static B3IntRange bits_range(B3Type t, uint64_t bits) {
    if (bits >> (b3_type_bits(t) - 1) & 1)
        return top_range(t);
    return (B3IntRange){0, (int64_t)bits};
}

static B3IntRange meet(B3IntRange a, B3IntRange b) {
    B3IntRange r = {a.lo > b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi};
    return r.lo <= r.hi ? r : a; /* cannot be empty for a real value; be safe */
}

static B3IntRange range_in(B3Type t, B3IntRange r) {
    return r.lo >= b3_int_min(t) && r.hi <= b3_int_max(t) ? r : top_range(t);
}

/* The signed values v may take. */
static B3IntRange range_of(const B3Value *v, int depth) {
    B3Type t = (B3Type)v->type;
    int64_t c;
    if (b3_value_int_const(v, &c))
        return (B3IntRange){c, c};
    if (depth <= 0 || !b3_type_is_int(t))
        return top_range(t);
    const B3OpInfo *info = b3_op((B3Opcode)v->opcode);
    if (info->flags & B3OF_COMPARE)
        return (B3IntRange){0, 1};
    const B3Value *a = v->nkids ? v->kids[0] : NULL, *b = v->nkids > 1 ? v->kids[1] : NULL;
    B3IntRange bits = bits_range(t, maybe_bits(v, depth - 1)), ra, rb, r;
    bool amount = b && info->children == B3C_SHIFT && b3_value_int_const(b, &c);
    unsigned s = amount ? (unsigned)((uint64_t)c & (b3_type_bits(t) - 1)) : 0;
    if (info->flags & B3OF_ATOMIC && v->opcode != B3_AtomicWeakCAS) {
        /* The old value, sign-extended from the access width (docs/atomics.md). */
        unsigned w = v->m.mem.width ? v->m.mem.width : b3_type_bits(t);
        if (w < b3_type_bits(t))
            return (B3IntRange){-((int64_t)1 << (w - 1)), ((int64_t)1 << (w - 1)) - 1};
        return top_range(t);
    }
    switch (v->opcode) {
    case B3_Load8S:
        return (B3IntRange){-128, 127};
    case B3_Load16S:
        return (B3IntRange){-32768, 32767};
    case B3_SExt8:
    case B3_SExt16:
        /* The operand's own range only if it already fits: 128 becomes -128. */
        r = range_of(a, depth - 1);
        ra = v->opcode == B3_SExt8 ? (B3IntRange){-128, 127} : (B3IntRange){-32768, 32767};
        return r.lo >= ra.lo && r.hi <= ra.hi ? r : ra;
    case B3_SExt32:
        return range_of(a, depth - 1);
    case B3_ZExt32:
        r = range_of(a, depth - 1);
        return r.lo >= 0 ? r : (B3IntRange){0, 0xffffffffll};
    case B3_Trunc:
        return range_in(B3_Int32, range_of(a, depth - 1));
    case B3_Select:
        ra = range_of(v->kids[1], depth - 1);
        rb = range_of(v->kids[2], depth - 1);
        return (B3IntRange){ra.lo < rb.lo ? ra.lo : rb.lo, ra.hi > rb.hi ? ra.hi : rb.hi};
    case B3_SShr:
        if (!amount)
            break;
        r = range_of(a, depth - 1);
        return (B3IntRange){b3_ashr(r.lo, s), b3_ashr(r.hi, s)};
    case B3_ZShr:
        if (!amount)
            break;
        r = range_of(a, depth - 1);
        if (r.lo >= 0)
            return (B3IntRange){r.lo >> s, r.hi >> s};
        break;
    case B3_Shl:
        if (!amount)
            break;
        ra = range_of(a, depth - 1);
        if (s < b3_type_bits(t) - 1 && b3_int_mul_in(t, ra.lo, (int64_t)1 << s, &r.lo) &&
            b3_int_mul_in(t, ra.hi, (int64_t)1 << s, &r.hi))
            return r;
        break;
    case B3_Add:
    case B3_Sub:
        ra = range_of(a, depth - 1);
        rb = range_of(b, depth - 1);
        if (v->opcode == B3_Add
                ? b3_int_add_in(t, ra.lo, rb.lo, &r.lo) && b3_int_add_in(t, ra.hi, rb.hi, &r.hi)
                : b3_int_sub_in(t, ra.lo, rb.hi, &r.lo) && b3_int_sub_in(t, ra.hi, rb.lo, &r.hi))
            return r;
        break;
    case B3_Mul: {
        ra = range_of(a, depth - 1);
        rb = range_of(b, depth - 1);
        int64_t p[4];
        if (!b3_int_mul_in(t, ra.lo, rb.lo, &p[0]) || !b3_int_mul_in(t, ra.lo, rb.hi, &p[1]) ||
            !b3_int_mul_in(t, ra.hi, rb.lo, &p[2]) || !b3_int_mul_in(t, ra.hi, rb.hi, &p[3]))
            break;
        r = (B3IntRange){p[0], p[0]};
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
            bits = meet(bits, (B3IntRange){0, ra.hi});
        if (rb.lo >= 0)
            bits = meet(bits, (B3IntRange){0, rb.hi});
        return bits;
    case B3_UDiv:
        if (!b3_value_int_const(b, &c) || !((uint64_t)c & b3_int_mask(t)))
            break;
        ra = range_of(a, depth - 1);
        if (ra.lo >= 0)
            return (B3IntRange){(int64_t)((uint64_t)ra.lo / ((uint64_t)c & b3_int_mask(t))),
                                (int64_t)((uint64_t)ra.hi / ((uint64_t)c & b3_int_mask(t)))};
        break;
    default:
        break;
    }
    return bits;
}

bool b3_int_is_bool(const B3Value *v) {
    B3IntRange r = range_of(v, DEPTH);
    return v->type == B3_Int32 && r.lo >= 0 && r.hi <= 1;
}

/* Ranges mapped to unsigned order, when they do not straddle the sign. */
static bool unsigned_range(B3Type t, B3IntRange r, uint64_t *lo, uint64_t *hi) {
    if (r.lo < 0 && r.hi >= 0)
        return false;
    *lo = (uint64_t)r.lo & b3_int_mask(t);
    *hi = (uint64_t)r.hi & b3_int_mask(t);
    return true;
}

int b3_int_range_compare(B3Opcode op, B3Type t, B3IntRange a, B3IntRange b) {
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

uint64_t b3_int_maybe_bits(const B3Value *v) { return maybe_bits(v, DEPTH); }

B3IntRange b3_int_range(const B3Value *v) { return range_of(v, DEPTH); }
