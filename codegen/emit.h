/* What every target's emitter shares: the emission driver, b3_emit_proc,
 * with the hooks each target gives it (B3EmitTarget), the -S listing and
 * the stackmap records of Patchpoint insts. */
#ifndef B3_CODEGEN_EMIT_H
#define B3_CODEGEN_EMIT_H

#include <stdint.h>

#include "codegen/air/air.h"
#include "codegen/air/stackmaps.h"
#include "codegen/asm_buffer.h"
#include "objwriter/obj.h"
#include "objwriter/stackmaps.h"

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

/* ---- the emission driver ----
 *
 * b3_emit_proc encodes an allocated procedure into o the same way on every
 * target: branch relaxation (assembling in passes until every branch
 * reaches), one more pass with the final sizes for -S and -g's line rows,
 * the bytes to .text (16-byte aligned), their relocations and
 * data-in-code marks (the jump tables after the code), the stackmap
 * records, the line table, the entry symbols at their prologues and the
 * frame descriptions of the entry regions.  A pass lays the blocks out in
 * order, a prologue before each entry block, then the jump tables.
 *
 * The target keeps the instruction encoding (its assembler and emitter,
 * behind an opaque state), the listing hook and the unwind encoding. */
struct B3Frame;
/* What a pass's emitter shows the driver. */
typedef struct {
    B3AsmBuffer *buf;            /* its assembler's buffer */
    const uint32_t *block_label; /* each block's label, by block index */
    B3StackMapList *stackmaps;   /* the records of the Patchpoint insts encoded */
} B3EmitPass;
typedef struct B3EmitTarget {
    const char *phase; /* the internal errors' name: "x86-64 emitter" */
    uint8_t arch;      /* the B3Arch it encodes */
    /* The stack size of the stackmap records beyond frame_size, as LLVM
     * counts it: x86-64 the return address (8), AArch64 the frame record (16). */
    uint8_t stackmap_stack_extra;
    /* The procedure's emission state (the relaxation marks, which outlive
     * the passes, and the pass's assembler and emitter), and its end. */
    void *(*open)(AirCode *c);
    void (*close)(void *s);
    /* A pass: a fresh assembler and emitter over the relaxation marks so
     * far (the first prologue describes itself in frame); after it, did a
     * branch turn out of range (marked long: assemble again)?; its end,
     * which frees the assembler and the emitter. */
    void (*pass_begin)(void *s, struct B3Frame *frame, B3EmitPass *out);
    bool (*pass_again)(void *s);
    void (*pass_end)(void *s);
    /* -S: the listing of the pass begun (b3_emit_listing_begin with the
     * target's syntax). */
    void (*listing_begin)(void *s, B3EmitListing *l, B3Obj *o);
    /* The code: an entry block's prologue; before a loop header that is not
     * an entry (NULL: nothing; x86-64 aligns it); instruction j of b (next:
     * the block laid out after b), returning how many it encoded (arm64
     * pairs neighbouring loads or stores); after the code, the jump tables. */
    void (*prologue)(void *s);
    void (*loop_header)(void *s);
    uint32_t (*emit_insts)(void *s, AirBlock *b, uint32_t j, AirBlock *next);
    void (*jump_tables)(void *s);
    /* Mach-O's compact unwind encoding of the frame (codegen/<arch>/unwind.c). */
    uint32_t (*compact_unwind)(const struct B3Frame *f);
} B3EmitTarget;

/* Encodes c (after every Air phase) into o with t's encoder. */
void b3_emit_proc(const B3EmitTarget *t, AirCode *c, B3Obj *o);

/* Patchpoint insts (codegen/emit_stackmaps.c): the inst's AirPatchpointInfo,
 * checked (an internal error if malformed); and its stackmap record, its
 * code at offset, appended to records.  Each emitter writes the code. */
const AirPatchpointInfo *b3_emit_patchpoint_info(const AirCode *c, const AirInst *inst);
void b3_emit_stackmap_record(const AirCode *c, const AirInst *inst, uint32_t offset, B3StackMapList *records);

#endif
