/* AArch64 machine code for allocated Air. */
#ifndef B3_ARM64_H
#define B3_ARM64_H

#include "codegen/air/air.h"
#include "codegen/arm64/asm.h"
#include "codegen/backend.h"
#include "objwriter/obj.h"
#include "objwriter/stackmaps.h"

/* The arm64 Linux backend (codegen/arm64/backend.c). */
extern const B3Backend b3_arm64_backend;
/* The lowering hooks by B3Opcode (codegen/arm64/lower.c). */
extern B3LowerHook *const b3_arm64_lower_hooks[B3_NUM_OPCODES];
/* The selection hooks of codegen/arm64/lower_isel.c: shifted and extended
 * register operands, madd/msub/mneg, bic/orn/eon, bitfield moves. */
B3LowerHook b3_arm64_lower_add, b3_arm64_lower_sub, b3_arm64_lower_mul, b3_arm64_lower_bit_and,
    b3_arm64_lower_bit_or, b3_arm64_lower_bit_xor, b3_arm64_lower_neg_mul, b3_arm64_lower_shift_pair;

/* Appends the procedure's code (prologue, blocks, epilogues, jump tables) to
 * the object's text section, defines its symbol(s) and records relocations
 * (codegen/arm64/emit.c). */
void b3_arm64_emit_proc(AirCode *c, B3Obj *o);

/* Checks and stackmaps (codegen/arm64/emit_stackmaps.c).  d = l * r with
 * the flags set so that NE means the signed product overflowed (x16, x17
 * are scratch); the code of a Patchpoint inst, its record appended to
 * records. */
void arm64_emit_mul_overflow(Arm64Asm *a, bool is64, B3Reg d, B3Reg l, B3Reg r);
void arm64_emit_patchpoint(Arm64Asm *a, const AirCode *c, const AirInst *inst, B3StackMapList *records);

#endif
