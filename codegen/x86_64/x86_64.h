/* x86-64 machine code for allocated Air. */
#ifndef B3_X86_64_H
#define B3_X86_64_H

#include "codegen/air/air.h"
#include "objwriter/obj.h"

/* Appends the procedure's code (prologue, blocks, epilogues, jump tables) to
 * the object's text section, defines its symbol(s) and records relocations. */
void b3_x86_64_emit_proc(AirCode *c, B3Obj *o);

#endif
