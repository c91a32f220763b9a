/* The B3 optimization phases (opt/, one file each), run from the pipeline
 * table (cmd/pipeline.c).  Each returns whether it changed the procedure. */
#ifndef B3_OPT_PHASES_H
#define B3_OPT_PHASES_H

#include <stdbool.h>

#include "ir/ir.h"

/* B3's reduceStrength: constant folding, algebraic simplification,
 * canonicalization, CFG and Phi cleanup, to a fixpoint (opt/reduce_strength.c). */
bool b3_reduce_strength(B3Module *m, B3Proc *p);
bool b3_reduce_strength_quick(B3Module *m, B3Proc *p); /* -O1: at most two rounds */
/* Direct calls of small procedures of the module become copies of their
 * bodies (beyond B3; opt/inline_procedures.c). */
bool b3_inline_procedures(B3Module *m, B3Proc *p);
/* Stack slots whose address never escapes become Variables (one per field). */
bool b3_promote_stack_slots(B3Module *m, B3Proc *p);
/* Every Variable becomes SSA values (Phis and Upsilons); none is left. */
bool b3_fix_ssa(B3Module *m, B3Proc *p);
/* Pure values and loop-invariant loads move to their loop's preheader. */
bool b3_hoist_loop_invariant_values(B3Module *m, B3Proc *p);
/* Int32 loop counters that provably never wrap count in Int64 too, and their
 * SExt32s (of expressions, in a versioned copy of the loop) use that. */
bool b3_widen_induction_variables(B3Module *m, B3Proc *p);
/* Values affine in a loop's induction variable that cost more than an add
 * per trip become induction variables of their own (loop strength
 * reduction). */
bool b3_reduce_loop_strength(B3Module *m, B3Proc *p);
/* Pure values, loads and stores computed twice along the dominator tree are
 * computed once; stores overwritten in their block go. */
bool b3_eliminate_common_subexpressions(B3Module *m, B3Proc *p);
/* Chains of blocks testing one value against constants become one Switch. */
bool b3_infer_switches(B3Module *m, B3Proc *p);
/* Small pure triangles and diamonds whose join has integer Phis become
 * Selects (conditional moves). */
bool b3_convert_branches_to_selects(B3Module *m, B3Proc *p);
/* Small blocks reached by a Jump are copied into the jumping block. */
bool b3_duplicate_tails(B3Module *m, B3Proc *p);
/* What a Branch or Switch tells about its value on each edge replaces the
 * value where only that edge leads; branches so decided are folded. */
bool b3_fold_path_constants(B3Module *m, B3Proc *p);
/* Values, Phis, Variables and stack slots nothing needs are removed. */
bool b3_eliminate_dead_code(B3Module *m, B3Proc *p);
/* Double arithmetic on widened floats whose result is only narrowed back
 * is done in Float (exactly: only operations that round the same way). */
bool b3_reduce_double_to_float(B3Module *m, B3Proc *p);
/* Trees of one associative integer operation are rebuilt balanced, with
 * their constants combined into one leaf. */
bool b3_optimize_associative_expression_trees(B3Module *m, B3Proc *p);
/* Float Abs/Neg become sign-mask bit operations where the target has no
 * instruction for them (the mask then is an ordinary constant). */
bool b3_lower_macros_after_optimizations(B3Module *m, B3Proc *p);
/* Load/store/atomic offsets the target cannot encode move into an Add. */
bool b3_legalize_memory_offsets(B3Module *m, B3Proc *p);
/* Equal constants are shared and placed at a common dominator of their
 * uses, outside loops. */
bool b3_move_constants(B3Module *m, B3Proc *p);
/* An Upsilon in a block that branches, for a Phi of one successor, moves
 * onto that edge (a new block), so that the other ways out skip it. */
bool b3_place_upsilons_on_edges(B3Module *m, B3Proc *p);

#endif
