/* After register allocation: what an inst does to the physical registers, as
 * 64-bit masks in B3Reg numbering (bit r: register r), for the phases that
 * run dataflow over registers (eliminate_zero_extensions,
 * report_used_registers, fix_partial_register_stalls). */
#ifndef B3_AIR_REG_EFFECTS_H
#define B3_AIR_REG_EFFECTS_H

#include "codegen/air/air.h"

typedef struct {
    uint64_t use;       /* read (any width; address registers included) */
    uint64_t use_upper; /* GP registers read above bit 31 */
    uint64_t def;       /* written (defs, scratch, clobbers) */
    uint64_t kill;      /* written whole: the old value is not needed after */
    uint64_t def_upper; /* GP registers whose bits above 31 are written */
    uint64_t zdef;      /* GP registers written with bits 32..63 zero */
} AirRegEffects;

static inline uint64_t air_reg_bit(AirTmp r) { return 1ull << r; }

void air_reg_effects(const AirCode *c, AirInst *inst, AirRegEffects *e);

/* Registers someone may read after the procedure returns: those the
 * allocator never hands out (they carry the frame, or the input named them),
 * the callee-saved ones and the pinned ones. */
uint64_t air_regs_live_at_exit(const AirCode *c);

/* A block's live-out registers in a backward dataflow: the union of its
 * successors' live-in sets, or at_exit where it leaves the procedure. */
static inline uint64_t air_regs_live_out(const AirBlock *b, const uint64_t *in, uint64_t at_exit) {
    uint64_t live = b->nsuccs ? 0 : at_exit;
    for (uint32_t s = 0; s < b->nsuccs; s++)
        live |= in[b->succs[s].block->index];
    return live;
}

/* Is the inst removable when nothing reads what it writes?  (No effect
 * beyond its register defs.) */
bool air_inst_only_defines_registers(const AirInst *inst);

#endif
