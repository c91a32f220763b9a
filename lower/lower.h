/* B3 -> Air: instruction selection. */
#ifndef B3_LOWER_H
#define B3_LOWER_H

#include "codegen/air/air.h"

/* B3 phase run just before lowering: rewrites what needs B3-level help into
 * simpler B3 (Chill Div/Mod -> branch-free Selects, float Mod -> fmod/fmodf
 * calls).  DToI/DToU, UToD/UToF, FMin/FMax and float Abs/Neg are expanded by
 * b3_lower_to_air instead (docs/backend.md, "Lowering"). */
bool b3_lower_macros(B3Module *m, B3Proc *p); /* true if it expanded something */

/* Builds c's blocks and insts from c->proc (which b3_lower_macros has run on). */
void b3_lower_to_air(AirCode *c);

#endif
