/* Stackmap points in Air: the Patchpoint opcode (docs/stackmaps.md).
 *
 * One Air_Patchpoint inst stands for a B3 Patchpoint, and for the state a
 * Check*, CheckAdd/Sub/Mul or WasmBoundsCheck exit records at the start of its
 * out-of-line exit block.  Its AirSpecial lists the recorded values first
 * (args[0 .. nrecorded-1], in stackmap order, with roles from their B3
 * ValueReps), then an optional result def; special->data points at an
 * AirPatchpointInfo.  After allocation each recorded arg says where the value
 * lives: a register (Tmp), a constant (Imm/BigImm), or memory (Addr,
 * Stack or CallArg: a spill slot, a stack argument or a fused load). */
#ifndef B3_AIR_STACKMAPS_H
#define B3_AIR_STACKMAPS_H

#include "codegen/air/air.h"

/* What the patchpoint's own code is. */
typedef enum {
    AirPatch_Point, /* no code: a stackmap point (Check exits, nop(0)) */
    AirPatch_Nop,   /* nop_bytes bytes of no-ops */
    AirPatch_Trap,  /* ud2 */
    AirPatch_Call,  /* call callee@PLT; the record's offset is the return address */
} AirPatchCode;

typedef struct {
    int64_t id;         /* the record's id */
    uint8_t code;       /* AirPatchCode */
    uint32_t nop_bytes; /* AirPatch_Nop */
    B3Symbol *callee;   /* AirPatch_Call */
    uint32_t nrecorded; /* args[0 .. nrecorded-1] go into the record */
    uint8_t *types;     /* B3Type of each recorded value (its size in the record) */
} AirPatchpointInfo;

static inline const AirPatchpointInfo *air_patchpoint_info(const AirInst *inst) {
    return inst->opcode == Air_Patchpoint && inst->special ? (const AirPatchpointInfo *)inst->special->data
                                                           : NULL;
}

/* May the register allocator replace this Tmp arg of a special inst by its
 * spill slot?  Only a patchpoint's cold uses: "any location" constraints,
 * which the stackmap record then describes as memory. */
static inline bool air_special_admits_stack(const AirInst *inst, AirRole role, AirWidth width) {
    return inst->opcode == Air_Patchpoint && (role == AirRole_ColdUse || role == AirRole_LateColdUse) &&
           width <= AirW64;
}

#endif
