/* The frame description of a procedure: what its prologue does to the
 * stack, step by step, in DWARF CFI terms (docs/design.md, "Unwind
 * information").  Target-neutral: the emitter of each target fills one
 * B3Frame while it emits the prologue (every entry of a procedure gets the
 * same prologue, so one description serves them all) and hands it to the
 * object once per entry region with b3_obj_add_frame.  The readers are the
 * object writers (Mach-O's __LD,__compact_unwind, with the encoding the
 * target computed; later ELF's .eh_frame) and the assembly writer (the
 * .cfi_* directives of -S). */
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
} B3Frame;

/* What the object keeps of a frame for one entry region of .text: from an
 * entry's prologue to the next entry's, or to the procedure's end; its
 * steps are B3Obj.cfi_steps[first_step .. first_step + nsteps). */
typedef struct B3FrameRegion {
    uint64_t start, size;
    uint32_t first_step, nsteps;
    uint32_t compact;
} B3FrameRegion;

/* Appends a step; an internal error past B3_FRAME_MAX_STEPS. */
void b3_frame_step(B3Frame *f, uint32_t at, B3CfiOp op, B3Reg reg, int32_t offset);

/* Records f (only what it uses) for the entry region [start, start + size)
 * of .text, after the regions before it; on an
 * Apple target, also its __LD,__compact_unwind entry (start address,
 * length, f->compact, no personality, no LSDA). */
void b3_obj_add_frame(B3Obj *o, const B3Frame *f, uint64_t start, uint64_t size);

/* Prints step s as a .cfi_* directive (no tab, no newline) into buf;
 * reg_name spells a register for the assembler. */
void b3_frame_step_text(char *buf, size_t n, const B3CfiStep *s, const char *(*reg_name)(B3Reg r));

#endif
