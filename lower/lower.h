/* B3 -> Air: instruction selection. */
#ifndef B3_LOWER_H
#define B3_LOWER_H

#include "codegen/air/air.h"

/* B3 phase run just before lowering: rewrites what needs B3-level help into
 * simpler B3 (Chill Div/Mod -> branch-free Selects, float Mod -> fmod/fmodf
 * calls, VaStart -> stores).  DToI/DToU, UToD/UToF, FMin/FMax and float Abs/Neg are expanded by
 * b3_lower_to_air instead (docs/backend.md, "Lowering"). */
bool b3_lower_macros(B3Module *m, B3Proc *p); /* true if it expanded something */

/* Part of b3_lower_macros: a variadic procedure's VaStarts become the stores
 * of the target's va_list, and its root block saves the argument registers
 * they point into (lower/lower_varargs.c).  True if there was a VaStart. */
bool b3_lower_varargs(B3Module *m, B3Proc *p);

/* Mach-O: each destructor becomes a __cxa_atexit registration in a
 * constructor of its priority (lower/lower_structors.c); run on the module
 * before code generation for the Apple targets. */
void b3_lower_macho_destructors(B3Module *m);

/* Builds c's blocks and insts from c->proc (which b3_lower_macros has run on). */
void b3_lower_to_air(AirCode *c);

#endif
