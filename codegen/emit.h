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

/* What every target's emitter holds.  Each emitter struct (X86Emitter,
 * A64Emitter) starts with these fields through B3_EMITTER_MEMBERS: by name
 * (e->c) in its own code, and as a B3Emitter (&e->base) for the driver and
 * the functions below. */
typedef struct {
    uint32_t label;  /* bound at the table's start */
    AirBlock *block; /* the JumpTable's block: entries for succs[0 .. nsuccs-2] */
} B3EmitJumpTable;
#define B3_EMITTER_MEMBERS                                                                              \
    AirCode *c;                                                                                         \
    B3AsmBuffer *buf;        /* the assembler's */                                                      \
    uint32_t *block_label;   /* a label per block index */                                              \
    B3EmitJumpTable *tables; /* the JumpTable insts' tables, laid out after the code */                 \
    uint32_t ntables, cap_tables;                                                                       \
    B3StackMapList stackmaps; /* the records of the Patchpoint insts emitted so far */                  \
    /* The frame description, filled by the first prologue of the pass (objwriter/frame.h), or NULL. */ \
    struct B3Frame *frame;
typedef struct B3Emitter {
    B3_EMITTER_MEMBERS
} B3Emitter;
/* Sets e up for c on the assembler buffer buf (e zeroed before): a label
 * for every block. */
void b3_emitter_init(B3Emitter *e, AirCode *c, B3AsmBuffer *buf);
void b3_emitter_free(B3Emitter *e);
/* A JumpTable inst ending block b: the label of its table, which the
 * target lays out after the code (B3EmitTarget.jump_tables). */
uint32_t b3_emit_jump_table_new(B3Emitter *e, AirBlock *b);

/* The hooks of a target's encoder. */
typedef struct B3EmitTarget {
    const char *phase; /* the internal errors' name: "x86-64 emitter" */
    uint8_t arch;      /* the B3Arch it encodes */
    /* The stack size of the stackmap records beyond frame_size, as LLVM
     * counts it: x86-64 the return address (8), AArch64 the frame record (16). */
    uint8_t stackmap_stack_extra;
    /* The bytes of the procedure's emission state, zeroed by the driver:
     * the relaxation marks, which outlive the passes, and the pass's
     * assembler and emitter. */
    size_t state_size;
    /* A pass over c: a fresh assembler and emitter in s over the relaxation
     * marks so far (the first prologue describes itself in frame); after
     * it, did a branch turn out of range (marked long: assemble again)?;
     * its end, which frees the assembler and the emitter; and, after the
     * last, the marks' end. */
    B3Emitter *(*pass_begin)(void *s, AirCode *c, struct B3Frame *frame);
    bool (*pass_again)(void *s);
    void (*pass_end)(void *s);
    void (*relax_end)(void *s);
    /* -S: the listing of the pass begun (b3_emit_listing_begin with the
     * target's syntax). */
    void (*listing_begin)(B3Emitter *e, B3EmitListing *l, B3Obj *o);
    /* The code: an entry block's prologue; before a loop header that is not
     * an entry (NULL: nothing; x86-64 aligns it; jumped_align: 0 when the
     * code before can run into the padding, else jumped_loop_align);
     * instruction j of b (next:
     * the block laid out after b), returning how many it encoded (arm64
     * pairs neighbouring loads or stores); after the code, the jump tables. */
    void (*prologue)(B3Emitter *e);
    void (*loop_header)(B3Emitter *e, uint32_t jumped_align);
    /* The alignment of a loop header that the code before it jumps past
     * (its padding never runs), and then of its procedure (0: none). */
    uint32_t jumped_loop_align;
    uint32_t (*emit_insts)(B3Emitter *e, AirBlock *b, uint32_t j, AirBlock *next);
    void (*jump_tables)(B3Emitter *e);
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
