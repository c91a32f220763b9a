/* Patchpoint insts on x86-64: the patchpoint's code and its stackmap record
 * (docs/stackmaps.md).
 *
 * Record offsets count from the start of the procedure's code.  A stackmap
 * point, nop(N) or trap records where its code starts; a call (@fn) records
 * the return address, where a runtime walking the stack finds it (the
 * locations describe the state at the call instruction). */
#include <stdlib.h>

#include "codegen/air/stackmaps.h"
#include "codegen/x86_64/emit.h"

_Noreturn static void bad(const AirInst *inst, const char *why) {
    b3_internal_error("x86-64 emitter", "Patchpoint (%u args): %s", inst->nargs, why);
}

/* DWARF numbers of the x86-64 registers (System V psABI, figure 3.36). */
static uint16_t dwarf_reg(const AirInst *inst, AirTmp t) {
    static const uint8_t gp[16] = {
        [B3X_rax] = 0,  [B3X_rdx] = 1,  [B3X_rcx] = 2,  [B3X_rbx] = 3,  [B3X_rsi] = 4,  [B3X_rdi] = 5,
        [B3X_rbp] = 6,  [B3X_rsp] = 7,  [B3X_r8] = 8,   [B3X_r9] = 9,   [B3X_r10] = 10, [B3X_r11] = 11,
        [B3X_r12] = 12, [B3X_r13] = 13, [B3X_r14] = 14, [B3X_r15] = 15,
    };
    if (t < 16)
        return gp[t];
    if (t >= B3_FPR_BASE && t < B3_FPR_BASE + 16)
        return (uint16_t)(17 + (t - B3_FPR_BASE));
    bad(inst, "a recorded value is not in a physical register");
}

static B3StackMapLoc location(const AirCode *c, const AirInst *inst, const AirArg *a, B3Type type) {
    bool omit_fp = c->omit_frame_pointer;
    uint64_t frame_size = c->frame_size;
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
    case AirArg_Stack: /* as air_allocate_stack would rewrite it */
        if (!a->u.slot)
            bad(inst, "Stack arg without a slot");
        l.kind = B3SMLoc_Indirect;
        l.reg = dwarf_reg(inst, B3X_rbp);
        l.value = a->u.slot->offset + a->value;
        if (omit_fp) { /* from where the frame pointer would be: sp + frame size */
            l.reg = dwarf_reg(inst, B3X_rsp);
            l.value += (int64_t)frame_size;
        }
        break;
    case AirArg_CallArg:
        l.kind = B3SMLoc_Indirect;
        l.reg = dwarf_reg(inst, B3X_rsp);
        l.value = a->value;
        break;
    default:
        bad(inst, "a recorded value has no stackmap location (an indexed address?)");
    }
    return l;
}

void x86_emit_patchpoint(X86Emitter *e, const AirInst *inst) {
    const AirPatchpointInfo *pi = air_patchpoint_info(inst);
    if (!pi)
        bad(inst, "no AirPatchpointInfo");
    if (pi->nrecorded > inst->nargs)
        bad(inst, "more recorded values than args");
    X86Asm *a = e->a;
    uint32_t at = a->len;
    switch ((AirPatchCode)pi->code) {
    case AirPatch_Point:
        break;
    case AirPatch_Nop:
        x86_nops(a, pi->nop_bytes);
        break;
    case AirPatch_Trap:
        x86_ud2(a);
        break;
    case AirPatch_Call:
        if (!pi->callee)
            bad(inst, "a call without a callee");
        x86_call_sym(a, pi->callee, 0);
        at = a->len;
        break;
    default:
        bad(inst, "unknown patchpoint code");
    }
    B3StackMapLoc small[8], *locs = pi->nrecorded <= 8 ? small : malloc(pi->nrecorded * sizeof *locs);
    if (!locs)
        b3_internal_error("x86-64 emitter", "out of memory");
    for (uint32_t i = 0; i < pi->nrecorded; i++)
        locs[i] = location(e->c, inst, &inst->args[i], (B3Type)pi->types[i]);
    b3_stackmap_list_add(&e->stackmaps, (uint64_t)pi->id, at, locs, pi->nrecorded);
    if (locs != small)
        free(locs);
}
