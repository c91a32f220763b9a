/* The stackmap record of a Patchpoint inst, shared by the targets' emitters
 * (docs/stackmaps.md): where each recorded value lives after allocation, in
 * the target's DWARF register numbers (B3TargetDesc.dwarf_gprs,
 * dwarf_fpr_base).  The patchpoint's own code (nop, trap, call) is each
 * emitter's; so is the record's offset, which it passes in. */
#include <stdlib.h>

#include "codegen/air/stackmaps.h"
#include "codegen/emit.h"
#include "util/alloc.h"

_Noreturn static void bad(const AirCode *c, const AirInst *inst, const char *why) {
    b3_internal_error("emitter", "%s Patchpoint (%u args): %s", c->desc->name, inst->nargs, why);
}

static uint16_t dwarf_reg(const AirCode *c, const AirInst *inst, AirTmp t) {
    const B3TargetDesc *d = c->desc;
    if (t < d->ngprs)
        return d->dwarf_gprs[t];
    if (t >= B3_FPR_BASE && t < (AirTmp)B3_FPR_BASE + d->nfprs)
        return (uint16_t)(d->dwarf_fpr_base + (t - B3_FPR_BASE));
    bad(c, inst, "a recorded value is not in a physical register");
}

static B3StackMapLoc location(const AirCode *c, const AirInst *inst, const AirArg *a, B3Type type) {
    B3StackMapLoc l = {.size = (uint16_t)b3_type_bytes(type)};
    switch (a->kind) {
    case AirArg_Tmp:
        l.kind = B3SMLoc_Register;
        l.reg = dwarf_reg(c, inst, a->base);
        break;
    case AirArg_Imm:
    case AirArg_BigImm:
        l.kind = B3SMLoc_Constant;
        l.value = type == B3_Int32 ? (int32_t)a->value : a->value;
        break;
    case AirArg_Addr:
        l.kind = B3SMLoc_Indirect;
        l.reg = dwarf_reg(c, inst, a->base);
        l.value = a->value;
        break;
    case AirArg_Stack: /* as air_allocate_stack would rewrite it */
        if (!a->u.slot)
            bad(c, inst, "Stack arg without a slot");
        l.kind = B3SMLoc_Indirect;
        l.reg = dwarf_reg(c, inst, c->desc->frame_pointer);
        l.value = a->u.slot->offset + a->value;
        if (c->omit_frame_pointer) { /* from where the frame pointer would be: sp + frame size */
            l.reg = dwarf_reg(c, inst, c->desc->stack_pointer);
            l.value += (int64_t)c->frame_size;
        }
        break;
    case AirArg_CallArg:
        l.kind = B3SMLoc_Indirect;
        l.reg = dwarf_reg(c, inst, c->desc->stack_pointer);
        l.value = a->value;
        break;
    default:
        bad(c, inst, "a recorded value has no stackmap location (an indexed address?)");
    }
    return l;
}

const AirPatchpointInfo *b3_emit_patchpoint_info(const AirCode *c, const AirInst *inst) {
    const AirPatchpointInfo *pi = air_patchpoint_info(inst);
    if (!pi)
        bad(c, inst, "no AirPatchpointInfo");
    if (pi->nrecorded > inst->nargs)
        bad(c, inst, "more recorded values than args");
    if (pi->code == AirPatch_Call && !pi->callee)
        bad(c, inst, "a call without a callee");
    if (pi->code > AirPatch_Call)
        bad(c, inst, "unknown patchpoint code");
    return pi;
}

void b3_emit_stackmap_record(const AirCode *c, const AirInst *inst, uint32_t offset,
                             B3StackMapList *records) {
    const AirPatchpointInfo *pi = b3_emit_patchpoint_info(c, inst);
    B3StackMapLoc small[8] = {{0}},
                  *locs = pi->nrecorded <= 8 ? small : b3_xmalloc("emitter", pi->nrecorded * sizeof *locs);
    for (uint32_t i = 0; i < pi->nrecorded; i++)
        locs[i] = location(c, inst, &inst->args[i], (B3Type)pi->types[i]);
    b3_stackmap_list_add(records, (uint64_t)pi->id, offset, locs, pi->nrecorded);
    if (locs != small)
        free(locs);
}
