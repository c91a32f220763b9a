/* The B3 optimization phases (opt/README.md): each runs over one procedure
 * from the pipeline table (cmd/pipeline.c) and returns whether it changed it. */
#ifndef B3_OPT_H
#define B3_OPT_H

#include <stdbool.h>

#include "ir/ir.h"

/* B3's reduceStrength: constant folding, algebraic simplification,
 * canonicalization, CFG and Phi cleanup, to a fixpoint (opt/reduce_strength.c). */
bool b3_reduce_strength(B3Module *m, B3Proc *p);

#endif
