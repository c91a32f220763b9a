/* Division by a constant without a divide: by a power of two as shifts,
 * else as multiplication by a "magic" reciprocal (B3's
 * B3ComputeDivisionMagic.h): 32-bit with a 64-bit Mul (as B3), 64-bit with
 * MulHigh/UMulHigh, the high half of the 128-bit product (opcodes b3c adds
 * to B3 IR for this; x86 mul/imul).  A 64x64 high product from four 32-bit
 * multiplies measured slower than the divide itself.  Used by
 * b3_reduce_strength. */
#ifndef B3_OPT_DIVISION_MAGIC_H
#define B3_OPT_DIVISION_MAGIC_H

#include "ir/insertion_set.h"

/* Where the values computing a quotient go: before index in the insertion
 * set's block, with origin's location. */
typedef struct {
    B3InsertionSet *ins;
    uint32_t index;
    const B3Value *origin;
} B3DivAt;

/* n / d of type t (signed: rounded toward zero), built from new values at
 * `at`; d is not 0, 1 or -1. */
B3Value *b3_div_by_const(const B3DivAt *at, B3Type t, B3Value *n, int64_t d, bool is_signed);

#endif
