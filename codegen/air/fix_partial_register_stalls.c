/* air_fix_partial_register_stalls: on x86-64, cvtsi2sd, sqrtsd, roundsd,
 * cvtss2sd and the like write only the low lane of their xmm destination,
 * so they wait for whatever last wrote the register: a dependency the
 * program does not have, and in a loop one that chains the iterations
 * together (mandelbrot's, spectral's and nbody's conversions and square
 * roots).  An `xorps` of the destination (MoveZeroToDouble) first breaks
 * it: the CPU knows that it depends on nothing, and it costs no execution
 * unit (Air's fixPartialRegisterStalls).
 *
 * Air's phase inserts it only where the register was written in the last 16
 * insts; that misses the worst case, an inst whose previous writer is itself
 * one iteration back (spectral's loop is longer than 16 insts and its
 * cvtsi2sd is the only writer of its register).  So, as gcc does, every such
 * inst gets one, except when it reads its destination anyway or when the
 * register's last write in the block already was a zeroing.  After
 * allocation, at -O2. */
#include "codegen/air/phases.h"
#include "codegen/air/reg_effects.h"
#include "ir/arena.h"
#include "ir/target.h"

/* The FP register the inst writes partially (and does not read), or AIR_NO_TMP. */
static AirTmp partial_def(const AirCode *c, AirInst *inst) {
    if (!air_writes_partial_fp_lane(c->target, (AirOpcode)inst->opcode) || inst->special || !inst->nargs)
        return AIR_NO_TMP;
    const AirArg *dst = &inst->args[inst->nargs - 1]; /* AT&T order: the destination last */
    if (dst->kind != AirArg_Tmp || !air_tmp_is_reg(dst->base) || !b3_reg_is_fpr((B3Reg)dst->base))
        return AIR_NO_TMP;
    AirRegEffects e;
    air_reg_effects(c, inst, &e);
    return e.use & air_reg_bit(dst->base) ? AIR_NO_TMP : dst->base;
}

/* Does inst i need an xorps before it?  zeroed: the FP registers whose last
 * write in the block so far was a zeroing. */
static bool needs_fix(const AirCode *c, AirInst *inst, uint64_t zeroed) {
    AirTmp r = partial_def(c, inst);
    return r != AIR_NO_TMP && !(zeroed & air_reg_bit(r));
}

static uint64_t after(const AirCode *c, AirInst *inst, uint64_t zeroed) {
    AirRegEffects e;
    air_reg_effects(c, inst, &e);
    zeroed &= ~e.def;
    if (inst->opcode == Air_MoveZeroToDouble && inst->args[0].kind == AirArg_Tmp)
        zeroed |= air_reg_bit(inst->args[0].base);
    return zeroed;
}

void air_fix_partial_register_stalls(AirCode *c) {
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        uint32_t nfix = 0;
        uint64_t zeroed = 0;
        for (uint32_t i = 0; i < b->ninsts; i++) {
            nfix += needs_fix(c, &b->insts[i], zeroed);
            zeroed = after(c, &b->insts[i], zeroed);
        }
        if (!nfix)
            continue;
        /* Rebuild the block with an xorps before each such inst. */
        AirInst *old = b->insts;
        uint32_t n = b->ninsts;
        b->insts = b3_arena_alloc(c->arena, (n + nfix) * sizeof(AirInst));
        b->cap_insts = n + nfix;
        b->ninsts = 0;
        zeroed = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (needs_fix(c, &old[i], zeroed)) {
                AirArg z = air_tmp(partial_def(c, &old[i]));
                air_append(c, b, Air_MoveZeroToDouble, old[i].origin, 1, &z);
            }
            zeroed = after(c, &old[i], zeroed);
            b->insts[b->ninsts++] = old[i];
        }
    }
}
