/* Pieces every target's emitter shares: the entry blocks of a procedure,
 * the symbols defined at their prologues, and the -S listing. */
#ifndef B3_CODEGEN_EMIT_H
#define B3_CODEGEN_EMIT_H

#include <stdint.h>

#include "codegen/air/air.h"
#include "codegen/air/stackmaps.h"
#include "codegen/asm_buffer.h"
#include "objwriter/obj.h"
#include "objwriter/stackmaps.h"

/* The entry blocks of c: a calloc'd flag per block
 * (every entry block gets the same prologue). */
uint8_t *b3_emit_entry_flags(const AirCode *c);
/* Defines c's procedure symbol and its other entrypoints in .text, each at
 * its entry's prologue (prologue_at[block], relative to start) and sized to
 * the end of the code (start + len).  The procedure's own symbol is the entry
 * listed as it in entrypoints(...), else entry 0, so references resolve. */
void b3_emit_define_entries(const AirCode *c, B3Obj *o, uint64_t start, uint64_t len,
                            const uint64_t *prologue_at);
/* Hands the frame description f (offsets from an entry) to o once per
 * entry region: from each entry's prologue to the next one in the code, or
 * to the end (start + len); entries sharing a block share a region. */
struct B3Frame;
void b3_emit_add_frames(const AirCode *c, B3Obj *o, uint64_t start, uint64_t len, const uint64_t *prologue_at,
                        const struct B3Frame *f);

/* -S (--emit=asm): a procedure's instruction text, collected from its
 * assembler's listing and handed to the assembly writer
 * (objwriter/asm_writer.h) with the offsets of its lines.  Both calls do
 * nothing unless the object has asm_text. */
typedef struct {
    char *text;
    size_t len;
    char label_prefix[24]; /* .LBB<proc>_ */
} B3EmitListing;
/* Before the first instruction of the procedure: b's listing set up, its
 * symbol operands printed by sym (with o as its context), alignment
 * padding listed as .p2align (the procedure starts 16-byte aligned);
 * comment: the syntax's comment leader, for -fverbose-asm. */
void b3_emit_listing_begin(B3EmitListing *l, B3AsmBuffer *b, B3Obj *o,
                           void (*sym)(void *ctx, FILE *f, const B3Symbol *sym, B3RelocKind kind),
                           const char *comment);
/* -fverbose-asm: before the code of an Air inst, a comment line naming the
 * B3 value it came from and its source line, `# @12 = Add(@3, @7)  ;
 * foo.b3:14`, when that value is not the one the last comment named.  Does
 * nothing without a verbose listing or an origin.  b3_emit_listing_reset:
 * the next origin is named again (a new block). */
void b3_emit_listing_origin(B3AsmBuffer *b, const B3Value *origin);
void b3_emit_listing_reset(B3AsmBuffer *b);
/* After the procedure's bytes went to .text at start. */
void b3_emit_listing_end(B3EmitListing *l, B3AsmBuffer *b, B3Obj *o, uint64_t start);

/* Patchpoint insts (codegen/emit_stackmaps.c): the inst's AirPatchpointInfo,
 * checked (an internal error if malformed); and its stackmap record, its
 * code at offset, appended to records.  Each emitter writes the code. */
const AirPatchpointInfo *b3_emit_patchpoint_info(const AirCode *c, const AirInst *inst);
void b3_emit_stackmap_record(const AirCode *c, const AirInst *inst, uint32_t offset, B3StackMapList *records);

#endif
