/* Register effects of an inst after allocation (reg_effects.h). */
#include "codegen/air/reg_effects.h"

#include "codegen/air/regalloc.h"
#include "ir/ice.h"
#include "ir/target.h"

void air_reg_effects(const AirCode *c, AirInst *inst, AirRegEffects *e) {
    air_reg_effects_inline(c, inst, e);
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
