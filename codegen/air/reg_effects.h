/* After register allocation: what an inst does to the physical registers, as
 * 64-bit masks in B3Reg numbering (bit r: register r), for the phases that
 * run dataflow over registers (eliminate_zero_extensions,
 * report_used_registers, fix_partial_register_stalls). */
#ifndef B3_AIR_REG_EFFECTS_H
#define B3_AIR_REG_EFFECTS_H

#include "codegen/air/air.h"
#include "ir/ice.h"

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

static inline bool air_reg_effects_is_zdef(AirRole r) {
    return r == AirRole_ZDef || r == AirRole_UseZDef || r == AirRole_EarlyZDef;
}

static inline void air_reg_effects_note(AirRegEffects *e, const AirTmp *tmp, AirRole role, AirBank bank,
                                        AirWidth width) {
    if (!air_tmp_is_reg(*tmp))
        b3_internal_error("reg_effects", "a virtual tmp after register allocation");
    uint64_t bit = air_reg_bit(*tmp);
    if (air_role_is_use(role)) {
        e->use |= bit;
        if (bank == AirGP && width > AirW32)
            e->use_upper |= bit;
    }
    if (!air_role_is_def(role))
        return;
    e->def |= bit;
    bool z = bank == AirGP && air_reg_effects_is_zdef(role) && width <= AirW32;
    if (z)
        e->zdef |= bit;
    /* A narrow GP def that is not zero-extending keeps the rest of the
     * register (a pure def of that kind reads it, in effect). */
    bool whole = bank == AirFP || z || width >= AirW64 || role == AirRole_Scratch;
    if (whole)
        e->kill |= bit;
    else if (!air_role_is_use(role))
        e->use |= bit, e->use_upper |= bit;
    if (bank == AirGP && (z || width >= AirW64))
        e->def_upper |= bit;
}

/* air_reg_effects inline, for the phases that call it on every inst: the
 * compiler drops the masks a caller does not read. */
__attribute__((always_inline)) static inline void air_reg_effects_inline(const AirCode *c, AirInst *inst,
                                                                         AirRegEffects *e) {
    (void)c;
    *e = (AirRegEffects){0};
    /* The tmps of air_tmp_iter, walked directly (the masks do not depend
     * on the order). */
    AirSig sig;
    air_inst_sig(inst, &sig);
    for (uint32_t i = 0; i < inst->nargs; i++) {
        if (sig.skip && sig.skip[i])
            continue;
        const AirArg *a = &inst->args[i];
        switch (a->kind) {
        case AirArg_Tmp:
            air_reg_effects_note(e, &a->base, (AirRole)sig.roles[i], (AirBank)sig.banks[i],
                                 (AirWidth)sig.widths[i]);
            break;
        case AirArg_Addr:
            air_reg_effects_note(e, &a->base, AirRole_Use, AirGP, AirW64);
            break;
        case AirArg_Index:
            air_reg_effects_note(e, &a->base, AirRole_Use, AirGP, AirW64);
            air_reg_effects_note(e, &a->index, AirRole_Use, AirGP, a->ext ? AirW32 : AirW64);
            break;
        default:
            break;
        }
    }
    if (inst->special) {
        /* Clobbers destroy the register whole (B3Regs are < 64: one word). */
        uint64_t cl = inst->special->early_clobber.bits[0] | inst->special->late_clobber.bits[0];
        e->def |= cl;
        e->kill |= cl;
        e->def_upper |= cl;
    }
}

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
