/* Register effects of an inst after allocation (reg_effects.h). */
#include "codegen/air/reg_effects.h"

#include "codegen/air/regalloc.h"
#include "ir/ice.h"
#include "ir/target.h"

static bool is_zdef(AirRole r) { return r == AirRole_ZDef || r == AirRole_UseZDef || r == AirRole_EarlyZDef; }

static inline void note(AirRegEffects *e, const AirTmp *tmp, AirRole role, AirBank bank, AirWidth width) {
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
    bool z = bank == AirGP && is_zdef(role) && width <= AirW32;
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

void air_reg_effects(const AirCode *c, AirInst *inst, AirRegEffects *e) {
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
            note(e, &a->base, (AirRole)sig.roles[i], (AirBank)sig.banks[i], (AirWidth)sig.widths[i]);
            break;
        case AirArg_Addr:
            note(e, &a->base, AirRole_Use, AirGP, AirW64);
            break;
        case AirArg_Index:
            note(e, &a->base, AirRole_Use, AirGP, AirW64);
            note(e, &a->index, AirRole_Use, AirGP, a->ext ? AirW32 : AirW64);
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

uint64_t air_regs_live_at_exit(const AirCode *c) {
    uint64_t live = 0;
    AirRegFile gp, fp;
    air_reg_file(c, AirGP, &gp);
    air_reg_file(c, AirFP, &fp);
    for (unsigned r = 0; r < 64; r++) {
        bool allocatable = r < B3_FPR_BASE ? gp.rank[r] >= 0 : fp.rank[r] >= 0;
        if (!allocatable || b3_target_is_callee_saved(c->target, (B3Reg)r) ||
            b3_regset_has(&c->pinned, (B3Reg)r))
            live |= air_reg_bit(r);
    }
    return live;
}

bool air_inst_only_defines_registers(const AirInst *inst) {
    AirOpcode op = (AirOpcode)inst->opcode;
    if (inst->special || (inst->flags & AirInstFlag_Traps) || air_is_terminal(op) ||
        air_has_non_arg_effects(op))
        return false;
    for (uint32_t i = 0; i < inst->nargs; i++)
        if (air_arg_is_memory(&inst->args[i]))
            return false; /* a store, or a load that may fault: kept */
    return true;
}
