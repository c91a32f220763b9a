/* air_handle_callee_saves: after register allocation, the callee-saved
 * registers the procedure uses (mentions or clobbers), which the prologue
 * saves and the epilogue restores (Air's handleCalleeSaves); allocate_stack
 * then gives them their save slots. */
#include "codegen/air/phases.h"
#include "codegen/air/regalloc.h"

typedef struct {
    const AirCode *c;
    B3RegSet *set;
} CalleeCtx;

static void callee_tmp(void *vctx, AirInst *inst, AirTmp *tmp, AirRole role, AirBank bank, AirWidth width) {
    (void)inst;
    (void)bank;
    (void)width;
    (void)role;
    CalleeCtx *x = vctx;
    /* Any mention counts: saving a register that is only read costs little and is always safe. */
    if (air_tmp_is_reg(*tmp))
        air_note_callee_save(x->c, x->set, (B3Reg)*tmp);
}

void air_compute_used_callee_saves(AirCode *c) {
    B3RegSet set = {{0, 0}};
    CalleeCtx x = {c, &set};
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        for (uint32_t ii = 0; ii < b->ninsts; ii++) {
            AirInst *inst = &b->insts[ii];
            air_for_each_tmp(c, inst, callee_tmp, &x);
            if (inst->special)
                for (unsigned r = 0; r < 64; r++)
                    if (b3_regset_has(&inst->special->early_clobber, (B3Reg)r) ||
                        b3_regset_has(&inst->special->late_clobber, (B3Reg)r))
                        air_note_callee_save(c, &set, (B3Reg)r);
        }
    }
    c->used_callee_saves = set;
}

void air_handle_callee_saves(AirCode *c) { air_compute_used_callee_saves(c); }
