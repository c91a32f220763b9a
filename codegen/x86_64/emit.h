/* The Air -> x86-64 emitter's per-instruction interface, used by
 * b3_x86_64_emit_proc and by the encoder tests (testsuite/encoder/). */
#ifndef B3_X86_EMIT_H
#define B3_X86_EMIT_H

#include "codegen/air/air.h"
#include "codegen/x86_64/asm.h"
#include "objwriter/stackmaps.h"

typedef struct {
    uint32_t label;  /* bound at the table's start */
    AirBlock *block; /* the JumpTable's block: entries for succs[0 .. nsuccs-2] */
} X86JumpTable;

typedef struct {
    AirCode *c;
    X86Asm *a;
    uint32_t *block_label; /* label per block index */
    X86JumpTable *tables;  /* emitted after the body by x86_emit_jump_tables */
    uint32_t ntables, cap_tables;
    B3StackMapList stackmaps; /* records of the Patchpoint insts emitted so far (emit_stackmaps.c) */
    bool no_frame;            /* no frame pointer, frame or callee save, and no call: no prologue at all */
    /* Without a frame pointer on Apple targets the callee saves are pushed
     * (below the return address, where compact unwind looks for them). */
    bool push_saves;
    /* The frame description, filled by the first prologue of the pass
     * (objwriter/frame.h), or NULL. */
    struct B3Frame *frame;
} X86Emitter;

/* Makes a label for every block of c. */
void x86_emitter_init(X86Emitter *e, AirCode *c, X86Asm *a);
void x86_emitter_free(X86Emitter *e);
/* push rbp; mov rsp, rbp; sub $frame_size, rsp; save the used callee-saves
 * (with no frame pointer: sub $frame_size + 8, rsp; save — or, with
 * e->push_saves, push them and sub the rest; nothing at all for
 * e->no_frame).  Describes itself in e->frame. */
void x86_emit_prologue(X86Emitter *e);
/* Restores the callee-saves and the frame (no ret). */
void x86_emit_epilogue(X86Emitter *e);
/* One instruction of block b; next is the block laid out after b (or NULL),
 * so that terminals can fall through to it. */
void x86_emit_inst(X86Emitter *e, AirBlock *b, AirInst *inst, AirBlock *next);
/* The tables of the JumpTable insts emitted so far (int32 entries, target - table). */
void x86_emit_jump_tables(X86Emitter *e);
/* An encoder entry: the row {x86_op_<handler>, p, size} of emit.c's table
 * x86_ops calls x86_op_<handler>(e, b, inst, next, p, size). */
typedef void X86OpFn(X86Emitter *e, AirBlock *b, AirInst *inst, AirBlock *next, unsigned p, unsigned size);
/* The atomics' entries (emit_atomics.c); size is the access size in bytes,
 * p the X86AluOp of atomic_alu. */
X86OpFn x86_op_cas, x86_op_branch_cas, x86_op_xadd, x86_op_xchg, x86_op_atomic_alu;

#endif
