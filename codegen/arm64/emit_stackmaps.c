/* Checks and stackmaps on arm64: the overflow test of CheckMul, and the
 * Patchpoint inst's code and its stackmap record (docs/stackmaps.md).
 *
 * Record offsets count from the start of the procedure's code, as on
 * x86-64: a stackmap point, nop(N) or trap records where its code starts; a
 * call (@fn) records the return address (the instruction after the bl).
 * The record's locations are the shared codegen/emit_stackmaps.c's, in the
 * AArch64 DWARF register numbers of the target description (x0-x30 = 0-30,
 * sp = 31, v0-v31 = 64-95); frame slots are recorded from x29, which every
 * arm64 procedure keeps as its frame pointer, and outgoing stack arguments
 * from sp, as LLVM records them on AArch64. */
#include "codegen/arm64/arm64.h"
#include "codegen/arm64/asm.h"
#include "ir/diag.h"

#define IP0 ((B3Reg)16)
#define IP1 ((B3Reg)17)

_Noreturn static void bad(const AirInst *inst, const char *why) {
    b3_internal_error("arm64 emitter", "Patchpoint (%u args): %s", inst->nargs, why);
}

void arm64_emit_mul_overflow(Arm64Asm *a, bool is64, B3Reg d, B3Reg l, B3Reg r) {
    if (!is64) {
        /* The 64-bit product fits 32 bits iff it equals its sign-extended low word. */
        arm64_mul(a, Arm64Mul_SMADDL, true, IP0, l, r);
        arm64_cmp_ext(a, false, true, IP0, IP0, Arm64Ext_SXTW, 0);
        arm64_mov(a, false, d, IP0);
        return;
    }
    /* The 128-bit product fits 64 bits iff its high half is the low half's sign. */
    arm64_mul(a, Arm64Mul_MADD, true, IP0, l, r);
    arm64_mulh(a, true, IP1, l, r);
    arm64_cmp(a, false, true, IP1, IP0, Arm64Shift_ASR, 63);
    arm64_mov(a, true, d, IP0);
}

void arm64_emit_patchpoint(Arm64Asm *a, const AirCode *c, const AirInst *inst, B3StackMapList *records) {
    const AirPatchpointInfo *pi = b3_emit_patchpoint_info(c, inst);
    uint32_t at = a->len;
    switch ((AirPatchCode)pi->code) {
    case AirPatch_Point:
        break;
    case AirPatch_Nop:
        if (pi->nop_bytes % 4) /* the validator refuses it */
            bad(inst, "nop(N) with N not a multiple of 4");
        arm64_nops(a, pi->nop_bytes / 4);
        break;
    case AirPatch_Trap:
        arm64_brk(a, 0); /* as Oops and the trap exits */
        break;
    case AirPatch_Call:
        arm64_bl_sym(a, pi->callee, 0);
        at = a->len;
        break;
    }
    b3_emit_stackmap_record(c, inst, at, records);
}
