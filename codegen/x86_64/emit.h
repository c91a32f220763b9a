/* The Air -> x86-64 emitter's per-instruction interface, used by its hooks
 * of the emission driver (emit.c, b3_x86_64_emit) and by the encoder tests
 * (testsuite/encoder/). */
#ifndef B3_X86_EMIT_H
#define B3_X86_EMIT_H

#include "codegen/air/air.h"
#include "codegen/emit.h"
#include "codegen/x86_64/asm.h"

typedef struct {
    /* What every target's emitter holds (codegen/emit.h): the procedure,
     * block labels, jump tables (x86_emit_jump_tables lays them out),
     * stackmap records and frame description. */
    union {
        struct {
            B3_EMITTER_MEMBERS
        };
        B3Emitter base;
    };
    X86Asm *a;
    bool no_frame; /* no frame pointer, frame or callee save, and no call: no prologue at all */
    /* Without a frame pointer on Apple targets the callee saves are pushed
     * (below the return address, where compact unwind looks for them). */
    bool push_saves;
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
/* The x87 operations of C's long double (emit_x87.c). */
X86OpFn x86_op_x87, x86_op_x87_compare;

#endif
