/* The x86-64 lowering hooks (codegen/x86_64/lower.c, lower_atomics.c), with
 * the lowering's shared state (lower/lower_internal.h). */
#ifndef B3_X86_64_LOWER_H
#define B3_X86_64_LOWER_H

#include "lower/lower_internal.h"

/* By B3Opcode, for B3Backend.lower. */
extern B3LowerHook *const b3_x86_64_lower_hooks[B3_NUM_OPCODES];

/* lower_atomics.c */
B3LowerHook x86_lower_cas, x86_lower_cas_compare, x86_lower_cas_branch, x86_lower_atomic_rmw, x86_lower_fence,
    x86_lower_depend;

#endif
