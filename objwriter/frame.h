/* The frame description of a procedure: what its prologue and epilogues do
 * to the stack, step by step, in DWARF CFI terms (docs/design.md, "Unwind
 * information"; details in docs/backend.md).  Target-neutral: the emitter of
 * each target fills one B3Frame
 * while it emits the prologue (every entry of a procedure gets the
 * same prologue, so one description serves them all) and each epilogue,
 * and hands it to the object once per entry region with b3_obj_add_frame.
 * The readers are the object writers (Mach-O's __LD,__compact_unwind, with
 * the encoding the target computed from the prologue; ELF's .eh_frame,
 * objwriter/eh_frame.c) and the assembly writer (the .cfi_* directives of
 * -S). */
#ifndef B3_OBJ_FRAME_H
#define B3_OBJ_FRAME_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ir/target.h"
#include "objwriter/obj.h"

/* One rule change, as the .cfi_* directive of the same name says it. */
typedef enum {
    B3Cfi_DefCfaOffset,   /* CFA = (current CFA register) + offset */
    B3Cfi_DefCfaRegister, /* CFA = reg + (current offset) */
    B3Cfi_DefCfa,         /* CFA = reg + offset */
    B3Cfi_Offset,         /* reg is saved at CFA + offset */
    /* Epilogues only (ELF): */
    B3Cfi_Restore,       /* reg holds its value at the entry again */
    B3Cfi_RememberState, /* push the rules (the body's, before an epilogue) */
    B3Cfi_RestoreState,  /* pop them (after the epilogue's return) */
} B3CfiOp;

typedef struct B3CfiStep {
    uint32_t at; /* code offset from the entry where the rule starts to hold */
    uint8_t op;  /* B3CfiOp */
    B3Reg reg;
    int32_t offset;
} B3CfiStep;

/* At most: the frame record, the CFA moves of one push per callee save and
 * one Offset per callee save (both banks). */
#define B3_FRAME_MAX_STEPS 80

typedef struct B3Frame {
    /* The steps, in code order; at a call site every one of them holds.
     * Offsets are in the order of the unwinders' descriptions: the saves of
     * one prologue from the lowest address up on x86-64, from the highest
     * down on arm64 (codegen/<arch>/unwind.c reads them that way). */
    uint32_t nsteps;
    B3CfiStep steps[B3_FRAME_MAX_STEPS];
    /* A frameless prologue that moves the stack pointer by a 32-bit
     * immediate: the immediate's code offset from the entry and the bytes
     * the stack holds besides it (pushes and return address); 0, 0 if none.
     * Apple's x86-64 unwinder reads a large stack size out of the code. */
    uint32_t stack_imm_at, stack_imm_bias;
    /* The Mach-O compact unwind encoding (codegen/<arch>/unwind.c). */
    uint32_t compact;
    /* The epilogues' steps, in code order, each .at an offset from the
     * procedure's start (b3_frame_epilogue_step): every epilogue is
     * RememberState, its steps, RestoreState after its return.  Heap
     * memory: b3_frame_reset frees it. */
    B3CfiStep *epilogue;
    uint32_t nepilogue, cap_epilogue;
    bool in_epilogue; /* a RememberState without its RestoreState yet */
} B3Frame;

/* What the object keeps of a frame for one entry region of .text: from an
 * entry's prologue to the next entry's, or to the procedure's end; its
 * steps are B3Obj.cfi_steps[first_step .. first_step + nsteps), each .at
 * from the region's start: the prologue's nprologue steps, then those of
 * the epilogues in the region (ELF only: compact unwind describes the
 * prologue, and Apple's -S says what it reads). */
typedef struct B3FrameRegion {
    uint8_t section; /* B3SectionId of the code: .text or the procedure's own */
    uint64_t start, size;
    uint32_t first_step, nsteps, nprologue;
    uint32_t compact;
} B3FrameRegion;

/* Appends a prologue step; an internal error past B3_FRAME_MAX_STEPS. */
void b3_frame_step(B3Frame *f, uint32_t at, B3CfiOp op, B3Reg reg, int32_t offset);

/* Appends an epilogue step at offset at of the procedure, after a
 * RememberState when it is its epilogue's first. */
void b3_frame_epilogue_step(B3Frame *f, uint32_t at, B3CfiOp op, B3Reg reg, int32_t offset);
/* Ends the open epilogue, if any, with a RestoreState at at (the offset
 * right after its return): the code after it has the body's rules. */
void b3_frame_epilogue_end(B3Frame *f, uint32_t at);
/* Drops the RestoreState of a last epilogue at code_end: only data (jump
 * tables) follows it. */
void b3_frame_epilogue_trim(B3Frame *f, uint32_t code_end);
/* Frees the epilogue steps and empties f (for the next pass). */
void b3_frame_reset(B3Frame *f);

/* Records f (only what it uses) for the entry region [proc_start + off,
 * proc_start + off + size) of code section sec, after the regions before it: its
 * prologue and the epilogues in the region (the RestoreState that would
 * follow the region's last return is dropped: no code of the region is
 * after it).  On an Apple target, also its __LD,__compact_unwind entry
 * (start address, length, f->compact, no personality, no LSDA). */
void b3_obj_add_frame(B3Obj *o, const B3Frame *f, B3SectionId sec, uint64_t proc_start, uint64_t off,
                      uint64_t size);

/* ELF: lays out .eh_frame (B3Sec_EhFrame and its PC32 relocations) from
 * o->frames — one CIE, one FDE per entry region — unless it has been
 * (objwriter/eh_frame.c).  Nothing when there is no code or with
 * o->no_unwind_tables (-fno-unwind-tables). */
void b3_obj_build_eh_frame(B3Obj *o);

/* Prints step s as a .cfi_* directive (no tab, no newline) into buf;
 * reg_name spells a register for the assembler. */
void b3_frame_step_text(char *buf, size_t n, const B3CfiStep *s, const char *(*reg_name)(B3Reg r));

#endif
