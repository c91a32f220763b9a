/* Pieces every target's emitter shares: the entry blocks of a procedure
 * and the symbols defined at their prologues. */
#ifndef B3_CODEGEN_EMIT_H
#define B3_CODEGEN_EMIT_H

#include <stdint.h>

#include "codegen/air/air.h"
#include "objwriter/obj.h"

/* The entry blocks of c: a calloc'd flag per block
 * (every entry block gets the same prologue). */
uint8_t *b3_emit_entry_flags(const AirCode *c);
/* Defines c's procedure symbol and its other entrypoints in .text, each at
 * its entry's prologue (prologue_at[block], relative to start) and sized to
 * the end of the code (start + len).  The procedure's own symbol is the entry
 * listed as it in entrypoints(...), else entry 0, so references resolve. */
void b3_emit_define_entries(const AirCode *c, B3Obj *o, uint64_t start, uint64_t len,
                            const uint64_t *prologue_at);

#endif
