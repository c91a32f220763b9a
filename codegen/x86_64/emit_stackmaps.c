/* Patchpoint insts on x86-64: the patchpoint's code and its stackmap record
 * (docs/stackmaps.md).
 *
 * Record offsets count from the start of the procedure's code.  A stackmap
 * point, nop(N) or trap records where its code starts; a call (@fn) records
 * the return address, where a runtime walking the stack finds it (the
 * locations describe the state at the call instruction).  The record's
 * locations are the shared codegen/emit_stackmaps.c's. */
#include "codegen/emit.h"
#include "codegen/x86_64/asm.h"
#include "codegen/x86_64/x86_64.h"

void x86_emit_patchpoint(X86Asm *a, const AirCode *c, const AirInst *inst, B3StackMapList *records) {
    const AirPatchpointInfo *pi = b3_emit_patchpoint_info(c, inst);
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
        x86_call_sym(a, pi->callee, 0);
        at = a->len;
        break;
    }
    b3_emit_stackmap_record(c, inst, at, records);
}
