/* x86-64 machine code for allocated Air. */
#ifndef B3_X86_64_H
#define B3_X86_64_H

#include "codegen/air/air.h"
#include "codegen/backend.h"
#include "codegen/x86_64/asm.h"
#include "objwriter/obj.h"

/* The x86-64 Linux backend (codegen/x86_64/backend.c). */
extern const B3Backend b3_x86_64_backend;

/* Appends the procedure's code (prologue, blocks, epilogues, jump tables) to
 * the object's text section, defines its symbol(s) and records relocations. */
extern const B3EmitTarget b3_x86_64_emit; /* emit.c */
/* A Patchpoint inst of c (codegen/air/stackmaps.h): its code (nothing,
 * nops, ud2 or a call) and its record appended to records
 * (emit_stackmaps.c). */
void x86_emit_patchpoint(X86Asm *a, const AirCode *c, const AirInst *inst, B3StackMapList *records);
/* The frame description: does the procedure need rbp as its frame pointer?
 * FramePointer() and ArgumentReg(%rbp) / ArgumentReg(%rsp) read the frame
 * through it (stack arguments, the caller's rbp, the entry rsp). */
bool b3_x86_64_needs_frame_pointer(const B3Proc *p);
/* The Mach-O compact unwind encoding of a frame description (unwind.c):
 * an rbp frame or a frameless one, as Apple's unwinder and llvm-mc's
 * encoder for the same .cfi_* directives see it; DWARF mode if neither. */
struct B3Frame;
uint32_t b3_x86_64_compact_unwind(const struct B3Frame *f);
/* The name .cfi_* directives give r ("%rbx"). */
const char *b3_x86_64_cfi_reg_name(B3Reg r);
/* -S: o (with its listings) as GNU as text in AT&T syntax (listing.c). */
bool b3_x86_64_write_asm(B3Obj *o, FILE *f);
/* Mach-O relocations (macho_relocs.c; B3TargetDesc.macho_reloc). */
struct B3MachoFixup;
struct B3MachoReloc;
int b3_x86_64_macho_reloc(const struct B3MachoFixup *fx, struct B3MachoReloc *out);

#endif
