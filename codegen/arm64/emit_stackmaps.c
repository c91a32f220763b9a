/* Checks and stackmaps on arm64: the overflow test of CheckMul, and the
 * Patchpoint inst's code and its stackmap record (docs/stackmaps.md).
 *
 * Record offsets count from the start of the procedure's code, as on
 * x86-64: a stackmap point, nop(N) or trap records where its code starts; a
 * call (@fn) records the return address (the instruction after the bl).
 * Locations use the AArch64 DWARF register numbers (x0-x30 = 0-30, sp = 31,
 * v0-v31 = 64-95); frame slots are recorded from x29, which every arm64
 * procedure keeps as its frame pointer, and outgoing stack arguments from sp,
 * as LLVM records them on AArch64. */
#include <stdlib.h>

#include "codegen/air/stackmaps.h"
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

/* DWARF numbers of the AArch64 registers (DWARF for the Arm 64-bit
 * Architecture, 4.1): x0-x30 0-30, sp 31, v0-v31 64-95. */
static uint16_t dwarf_reg(const AirInst *inst, AirTmp t) {
    if (t < 32)
        return (uint16_t)t;
    if (t >= B3_FPR_BASE && t < B3_FPR_BASE + 32)
        return (uint16_t)(64 + (t - B3_FPR_BASE));
    bad(inst, "a recorded value is not in a physical register");
}

static B3StackMapLoc location(const AirCode *c, const AirInst *inst, const AirArg *a, B3Type type) {
    B3StackMapLoc l = {.size = (uint16_t)b3_type_bytes(type)};
    switch (a->kind) {
    case AirArg_Tmp:
        l.kind = B3SMLoc_Register;
        l.reg = dwarf_reg(inst, a->base);
        break;
    case AirArg_Imm:
    case AirArg_BigImm:
        l.kind = B3SMLoc_Constant;
        l.value = type == B3_Int32 ? (int32_t)a->value : a->value;
        break;
    case AirArg_Addr:
        l.kind = B3SMLoc_Indirect;
        l.reg = dwarf_reg(inst, a->base);
        l.value = a->value;
        break;
    case AirArg_Stack: /* as air_allocate_stack would rewrite it: x29 is always kept */
        if (!a->u.slot)
            bad(inst, "Stack arg without a slot");
        l.kind = B3SMLoc_Indirect;
        l.reg = dwarf_reg(inst, c->desc->frame_pointer);
        l.value = a->u.slot->offset + a->value;
        break;
    case AirArg_CallArg:
        l.kind = B3SMLoc_Indirect;
        l.reg = dwarf_reg(inst, c->desc->stack_pointer);
        l.value = a->value;
        break;
    default:
        bad(inst, "a recorded value has no stackmap location (an indexed address?)");
    }
    return l;
}

void arm64_emit_patchpoint(Arm64Asm *a, const AirCode *c, const AirInst *inst, B3StackMapList *records) {
    const AirPatchpointInfo *pi = air_patchpoint_info(inst);
    if (!pi)
        bad(inst, "no AirPatchpointInfo");
    if (pi->nrecorded > inst->nargs)
        bad(inst, "more recorded values than args");
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
        if (!pi->callee)
            bad(inst, "a call without a callee");
        arm64_bl_sym(a, pi->callee, 0);
        at = a->len;
        break;
    default:
        bad(inst, "unknown patchpoint code");
    }
    B3StackMapLoc small[8], *locs = pi->nrecorded <= 8 ? small : malloc(pi->nrecorded * sizeof *locs);
    if (!locs)
        b3_internal_error("arm64 emitter", "out of memory");
    for (uint32_t i = 0; i < pi->nrecorded; i++)
        locs[i] = location(c, inst, &inst->args[i], (B3Type)pi->types[i]);
    b3_stackmap_list_add(records, (uint64_t)pi->id, at, locs, pi->nrecorded);
    if (locs != small)
        free(locs);
}
