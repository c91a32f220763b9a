/* What an integer value may be, from the values it is computed from: the
 * bits that may be 1 and the signed range (as B3's rangeFor).  Bounded
 * backward searches: each query visits at most a fixed number of values,
 * so a phase that asks once per value stays linear.  Used by
 * b3_reduce_strength. */
#ifndef B3_OPT_INT_RANGE_H
#define B3_OPT_INT_RANGE_H

#include "ir/ir.h"

typedef struct {
    int64_t lo, hi; /* inclusive, normalized to the type */
} B3IntRange;

/* The bits of v that may be 1 (within its type). */
uint64_t b3_int_maybe_bits(const B3Value *v);
/* The signed values v may take (the whole type if v is not an integer). */
B3IntRange b3_int_range(const B3Value *v);
/* An Int32 that is 0 or 1 (B3's returnsBool). */
bool b3_int_is_bool(const B3Value *v);
/* Comparison op of integers of type t with these ranges: 0, 1, or -1 when unknown. */
int b3_int_range_compare(B3Opcode op, B3Type t, B3IntRange a, B3IntRange b);

#endif
