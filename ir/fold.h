/* Constant evaluation: the value of an opcode on constant children (what
 * the opcode table's B3OF_FOLDABLE promises), and the integer arithmetic of
 * B3's types it rests on.  For any phase or front end that folds;
 * b3_reduce_strength is one.
 *
 * Integers of a type are held as int64_t, an Int32 sign-extended from its
 * 32 bits, as a Const32 holds it (b3_value_int_const). */
#ifndef B3_IR_FOLD_H
#define B3_IR_FOLD_H

#include "ir/ir.h"
#include "util/bits.h" /* b3_is_pow2, b3_log2_floor */

/* ---- integers of a type ---- */

/* The width in bits of a type's values (32 or 64). */
static inline unsigned b3_type_bits(B3Type t) { return t == B3_Int32 || t == B3_Float ? 32 : 64; }
static inline uint64_t b3_int_mask(B3Type t) { return t == B3_Int32 ? 0xffffffffull : ~0ull; }
static inline int64_t b3_int_min(B3Type t) { return t == B3_Int32 ? INT32_MIN : INT64_MIN; }
static inline int64_t b3_int_max(B3Type t) { return t == B3_Int32 ? INT32_MAX : INT64_MAX; }

/* Two's complement reading of a 64-bit pattern, without implementation-defined conversions. */
static inline int64_t b3_s64(uint64_t x) { return x > (uint64_t)INT64_MAX ? -(int64_t)(~x) - 1 : (int64_t)x; }

/* x reduced to type t (an Int32 sign-extended). */
static inline int64_t b3_int_norm(B3Type t, uint64_t x) {
    if (t != B3_Int32)
        return b3_s64(x);
    uint32_t u = (uint32_t)x;
    return u & 0x80000000u ? (int64_t)u - 0x100000000ll : (int64_t)u;
}

/* Arithmetic right shift without relying on the implementation's >> of negatives. */
static inline int64_t b3_ashr(int64_t x, unsigned s) {
    return x < 0 ? -1 - (int64_t)((uint64_t)(-1 - x) >> s) : x >> s;
}

/* a + b, a - b, a * b in type t (a, b of t); false on signed overflow. */
bool b3_int_add_in(B3Type t, int64_t a, int64_t b, int64_t *r);
bool b3_int_sub_in(B3Type t, int64_t a, int64_t b, int64_t *r);
bool b3_int_mul_in(B3Type t, int64_t a, int64_t b, int64_t *r);

/* ---- constants ---- */

/* A ConstFloat or ConstDouble that is a NaN. */
bool b3_value_is_nan_const(const B3Value *v);

/* ---- evaluation ---- */

/* op(a, b) for integers of type t; false where B3 leaves the result
 * undefined and the value may fault (a Div or Mod by 0 or of MIN by -1
 * unless chill, UDiv and UMod by 0) or op is not an integer operation. */
bool b3_fold_int(B3Opcode op, B3Type t, bool chill, int64_t a, int64_t b, int64_t *out);
/* A comparison of integers of type t: *out is 0 or 1; false if op is none. */
bool b3_fold_int_compare(B3Opcode op, B3Type t, int64_t a, int64_t b, int *out);

/* What a foldable value is. */
typedef struct {
    enum { B3Folded_Int, B3Folded_Bits, B3Folded_Kid } kind;
    int64_t i;     /* B3Folded_Int: an integer of the value's type */
    uint64_t bits; /* B3Folded_Bits: a Float's or Double's bits (as b3_const_bits) */
    uint32_t kid;  /* B3Folded_Kid: the value is this child (a Select on a constant) */
} B3Folded;

/* The value of v, whose opcode is B3OF_FOLDABLE, when its children are
 * constants (a Select's condition only); false when they are not, or when
 * folding could change a result bit or a trap: floating point only when no
 * operand and no result is a NaN (Neg and Abs excepted: sign bit
 * operations), DToI/DToU only in range, integer operations as
 * b3_fold_int. */
bool b3_fold(const B3Value *v, B3Folded *out);

#endif
