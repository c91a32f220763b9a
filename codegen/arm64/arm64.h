/* AArch64 machine code for allocated Air. */
#ifndef B3_ARM64_H
#define B3_ARM64_H

#include "codegen/air/air.h"
#include "codegen/arm64/asm.h"
#include "codegen/backend.h"
#include "codegen/emit.h"
#include "objwriter/obj.h"
#include "objwriter/stackmaps.h"

/* The arm64 backend, Linux and macOS (codegen/arm64/backend.c). */
extern const B3Backend b3_arm64_backend;
/* Mach-O relocations (macho_relocs.c; B3TargetDesc.macho_reloc). */
struct B3MachoFixup;
struct B3MachoReloc;
int b3_arm64_macho_reloc(const struct B3MachoFixup *fx, struct B3MachoReloc *out);
/* The lowering hooks by B3Opcode (codegen/arm64/lower.c). */
extern B3LowerHook *const b3_arm64_lower_hooks[B3_NUM_OPCODES];
/* The selection hooks of codegen/arm64/lower_isel.c: shifted and extended
 * register operands, madd/msub/mneg, bic/orn/eon, bitfield moves. */
B3LowerHook b3_arm64_lower_add, b3_arm64_lower_sub, b3_arm64_lower_mul, b3_arm64_lower_bit_and,
    b3_arm64_lower_bit_or, b3_arm64_lower_bit_xor, b3_arm64_lower_neg_mul, b3_arm64_lower_shift_pair;
/* Select-and-operate (lower_isel.c): Select as csinc/csinv/csneg (cset, csetm, cneg),
 * Neg(cmp) as csetm, Branch on cmp/tst with a shifted register operand. */
B3LowerHook b3_arm64_lower_select, b3_arm64_lower_csetm, b3_arm64_lower_shifted_branch;

/* Appends the procedure's code (prologue, blocks, epilogues, jump tables) to
 * the object's text section, defines its symbol(s) and records relocations
 * (codegen/arm64/emit.c). */
extern const B3EmitTarget b3_arm64_emit; /* emit.c */
/* The Mach-O compact unwind encoding of a frame description (unwind.c): a
 * frame with the x19-x28/d8-d15 pairs saved next to the frame record, or a
 * frameless one, as Apple's unwinder and llvm-mc's encoder see it; DWARF
 * mode if neither. */
struct B3Frame;
uint32_t b3_arm64_compact_unwind(const struct B3Frame *f);
/* The name .cfi_* directives give r ("x19", "d8"). */
const char *b3_arm64_cfi_reg_name(B3Reg r);

/* ---- arm64 atomics (lower_atomics.c, emit_atomics.c; docs/atomics.md) ---- */
/* Lowering hooks: the atomics, acquire loads and release stores, Fence, Depend. */
bool b3_arm64_lower_atomic(struct Lower *L, B3Value *v);
bool b3_arm64_lower_cas_compare(struct Lower *L, B3Value *v); /* false: not a CAS pattern */
bool b3_arm64_lower_cas_branch(struct Lower *L, B3Value *v);  /* false: not a CAS pattern */
bool b3_arm64_lower_fenced_load(struct Lower *L, B3Value *v);
bool b3_arm64_lower_fenced_store(struct Lower *L, B3Value *v);
bool b3_arm64_lower_fence(struct Lower *L, B3Value *v);
bool b3_arm64_lower_depend(struct Lower *L, B3Value *v);
/* What an arm64 atomics row of a64_ops encodes (its parameter). */
typedef enum {
    A64Atomic_LoadAcq,
    A64Atomic_StoreRel,
    A64Atomic_LoopAdd,
    A64Atomic_LoopSub,
    A64Atomic_LoopAnd,
    A64Atomic_LoopOr,
    A64Atomic_LoopXor,
    A64Atomic_LoopXchg,
    A64Atomic_LoopCAS,
    A64Atomic_Ldaddal,
    A64Atomic_Ldclral,
    A64Atomic_Ldsetal,
    A64Atomic_Ldeoral,
    A64Atomic_Swpal,
    A64Atomic_Casal,
    A64Atomic_Dmb,
    A64Atomic_Depend,
} A64AtomicKind;
/* Encodes one of them (size: the access's bytes); inst is allocated. */
void b3_arm64_emit_atomic(Arm64Asm *a, const AirInst *inst, A64AtomicKind kind, unsigned size);
/* BranchAtomicLoopCAS: the loop, a failed compare branching to `fail`
 * itself; falls through on success (the flags: Equal). */
void b3_arm64_emit_loop_cas_branch(Arm64Asm *a, const AirInst *inst, unsigned size, uint32_t fail);

/* Checks and stackmaps (codegen/arm64/emit_stackmaps.c).  d = l * r with
 * the flags set so that NE means the signed product overflowed (x16, x17
 * are scratch); the code of a Patchpoint inst, its record appended to
 * records. */
void arm64_emit_mul_overflow(Arm64Asm *a, bool is64, B3Reg d, B3Reg l, B3Reg r);
void arm64_emit_patchpoint(Arm64Asm *a, const AirCode *c, const AirInst *inst, B3StackMapList *records);

/* -S (codegen/arm64/asm_writer.c): a procedure's instruction text, collected
 * from the assembler's listing for the assembly writer with the offsets of
 * its lines (the emission driver hands it over: codegen/emit.h).  Before
 * the first instruction of the procedure, a.listing set up; nothing unless
 * the object has asm_text. */
typedef B3EmitListing Arm64Listing;
void arm64_listing_begin(Arm64Listing *l, Arm64Asm *a, B3Obj *o);
/* Writes o (with its listings) as GNU as text for AArch64 ELF. */
bool b3_arm64_write_asm(B3Obj *o, FILE *f);

#endif
