/* air_eliminate_zero_extensions: after register allocation, deletes the
 * `Move32 %r, %r` that do nothing (Air's TmpWidth reasoning, on registers).
 *
 * Lowering writes every 32-bit copy as Move32, which zero-extends; when
 * coalescing gives both sides one register, a `movl %eax, %eax` is left
 * unless the allocator could prove it pure.  It is dead when
 *   (1) nobody reads the bits above 31 of %r before they are written again
 *       (a backward dataflow of "upper half live"), or
 *   (2) they are already zero: every path to it ends in a def that
 *       zero-extends (a ZD role of width <= 32 in the form table), or in a
 *       copy of a register that is so (a forward dataflow).
 * (1) changes what the upper half holds where nobody looks, so its deletions
 * come first and (2) is computed on what is left; (2) deletes only moves
 * that leave the register as it was.  The registers are 64-bit masks, so
 * both dataflows are a few words per block. */
#include <stdlib.h>
#include <string.h>

#include "codegen/air/phases.h"
#include "codegen/air/reg_effects.h"
#include "ir/diag.h"
#include "util/alloc.h"

#define PHASE "eliminate_zero_extensions"

/* What the dataflows need of an inst, computed once per phase: the
 * fixpoints visit a block several times, and walking an inst's args is most
 * of the phase's cost. */
typedef struct {
    uint64_t use_upper, def_upper, def, zdef;
    int16_t src, dst; /* a whole GP copy's registers, else -1 */
    int16_t reg;      /* a self Move32's register */
    bool self_move32;
} Fx;

static bool is_self_move32(const AirInst *i) {
    return !i->special && air_move_kind((AirOpcode)i->opcode) == AirMove_ZeroExtend && i->nargs == 2 &&
           i->args[0].kind == AirArg_Tmp && i->args[1].kind == AirArg_Tmp &&
           i->args[0].base == i->args[1].base && air_tmp_is_reg(i->args[0].base);
}

static bool is_gp_copy(const AirInst *i) {
    return !i->special && air_move_kind((AirOpcode)i->opcode) == AirMove_Copy && i->nargs == 2 &&
           i->args[0].kind == AirArg_Tmp && i->args[1].kind == AirArg_Tmp &&
           air_move_bank((AirOpcode)i->opcode) == AirGP;
}

static void fx_of(const AirCode *c, AirInst *inst, Fx *f) {
    AirRegEffects e;
    air_reg_effects_inline(c, inst, &e);
    f->use_upper = e.use_upper, f->def_upper = e.def_upper, f->def = e.def, f->zdef = e.zdef;
    f->src = f->dst = -1;
    if (is_gp_copy(inst))
        f->src = (int16_t)inst->args[0].base, f->dst = (int16_t)inst->args[1].base;
    f->self_move32 = is_self_move32(inst);
    f->reg = f->self_move32 ? (int16_t)inst->args[0].base : -1;
}

/* Deletes the marked insts of b and their cache entries. */
static void delete_marked(AirBlock *b, Fx *fx, const uint8_t *dead) {
    uint32_t out = 0;
    for (uint32_t i = 0; i < b->ninsts; i++)
        if (!dead[i]) {
            fx[out] = fx[i];
            b->insts[out++] = b->insts[i];
        }
    b->ninsts = out;
}

/* The registers whose upper half is live before an inst, given those after. */
static uint64_t upper_before(const Fx *f, uint64_t live) {
    uint64_t use = f->use_upper;
    /* A whole copy reads the source's upper half only for a reader of the
     * destination's (TmpWidth's moves). */
    if (f->src >= 0 && !(live & air_reg_bit((AirTmp)f->dst)))
        use &= ~air_reg_bit((AirTmp)f->src);
    return (live & ~f->def_upper) | use;
}

/* (1): upper halves live after each inst, from the live-out sets. */
static void delete_unread(AirCode *c, Fx **fx, uint64_t *out, uint64_t *in, uint8_t *dead,
                          uint32_t *done_at) {
    uint32_t *changed_at = done_at + c->nblocks;
    uint64_t at_exit = air_regs_live_at_exit(c);
    for (uint32_t bi = 0; bi < c->nblocks; bi++)
        in[bi] = 0;
    uint32_t tick = 0;
    memset(done_at, 0, 2 * c->nblocks * sizeof(uint32_t));
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t bi = c->nblocks; bi-- > 0;) {
            AirBlock *b = c->blocks[bi];
            bool redo = !done_at[bi];
            for (uint32_t s = 0; s < b->nsuccs && !redo; s++)
                redo = changed_at[b->succs[s].block->index] >= done_at[bi];
            if (!redo)
                continue;
            done_at[bi] = ++tick;
            uint64_t live = air_regs_live_out(b, in, at_exit);
            out[bi] = live;
            for (uint32_t i = b->ninsts; i-- > 0;)
                live = upper_before(&fx[bi][i], live);
            if (live != in[bi]) {
                in[bi] = live;
                changed_at[bi] = tick;
                changed = true;
            }
        }
    }
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        uint64_t live = out[bi];
        bool here = false;
        for (uint32_t i = b->ninsts; i-- > 0;) {
            const Fx *f = &fx[bi][i];
            dead[i] = f->self_move32 && !(live & air_reg_bit((AirTmp)f->reg));
            here |= dead[i];
            if (dead[i])
                continue; /* deleted: the live set passes through */
            live = upper_before(f, live);
        }
        if (here)
            delete_marked(b, fx[bi], dead);
    }
}

/* The registers zero above bit 31 after an inst, given those before it. */
static uint64_t zero_after(const Fx *f, uint64_t z) {
    uint64_t after = (z & ~f->def) | f->zdef;
    /* A whole copy carries the property along. */
    if (f->src >= 0 && (z & air_reg_bit((AirTmp)f->src)))
        after |= air_reg_bit((AirTmp)f->dst);
    return after;
}

/* (2): registers known zero-extended at each block's start. */
static void delete_redundant(AirCode *c, Fx **fx, uint64_t *out, uint64_t *in, uint8_t *dead,
                             uint32_t *done_at) {
    uint32_t *changed_at = done_at + c->nblocks;
    air_compute_preds(c);
    for (uint32_t bi = 0; bi < c->nblocks; bi++)
        out[bi] = ~0ull; /* optimistic: the fixpoint only removes registers */
    uint32_t tick = 0;
    memset(done_at, 0, 2 * c->nblocks * sizeof(uint32_t));
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t bi = 0; bi < c->nblocks; bi++) {
            AirBlock *b = c->blocks[bi];
            bool redo = !done_at[bi];
            for (uint32_t p = 0; p < b->npreds && !redo; p++)
                redo = changed_at[b->preds[p]->index] >= done_at[bi];
            if (!redo)
                continue;
            done_at[bi] = ++tick;
            uint64_t z = b->npreds ? ~0ull : 0; /* nothing is known at an entry */
            for (uint32_t p = 0; p < b->npreds; p++)
                z &= out[b->preds[p]->index];
            in[bi] = z;
            for (uint32_t i = 0; i < b->ninsts; i++)
                z = zero_after(&fx[bi][i], z);
            if (z != out[bi]) {
                out[bi] = z;
                changed_at[bi] = tick;
                changed = true;
            }
        }
    }
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        uint64_t z = in[bi];
        bool here = false;
        for (uint32_t i = 0; i < b->ninsts; i++) {
            const Fx *f = &fx[bi][i];
            dead[i] = f->self_move32 && (z & air_reg_bit((AirTmp)f->reg));
            here |= dead[i];
            z = zero_after(f, z);
        }
        if (here)
            delete_marked(b, fx[bi], dead);
    }
}

void air_eliminate_zero_extensions(AirCode *c) {
    uint32_t most = 1;
    size_t total = 0;
    bool any = false;
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        if (b->ninsts > most)
            most = b->ninsts;
        total += b->ninsts;
        for (uint32_t i = 0; i < b->ninsts && !any; i++)
            any = is_self_move32(&b->insts[i]);
    }
    if (!any)
        return;
    Fx *all = b3_xmalloc(PHASE, (total + 1) * sizeof(Fx));
    Fx **fx = b3_xmalloc(PHASE, (c->nblocks + 1) * sizeof(Fx *));
    for (uint32_t bi = 0, k = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        fx[bi] = all + k;
        for (uint32_t i = 0; i < b->ninsts; i++)
            fx_of(c, &b->insts[i], &all[k++]);
    }
    uint64_t *out = b3_xmalloc(PHASE, (c->nblocks + 1) * sizeof(uint64_t));
    uint64_t *in = b3_xmalloc(PHASE, (c->nblocks + 1) * sizeof(uint64_t));
    uint8_t *dead = b3_xmalloc(PHASE, most);
    /* Per block: when it was last done and when its result last changed
     * (ticks count the blocks done; 0: never), so that each pass redoes only
     * the blocks whose neighbours changed since. */
    uint32_t *done_at = b3_xmalloc(PHASE, (2 * (size_t)c->nblocks + 1) * sizeof(uint32_t));
    delete_unread(c, fx, out, in, dead, done_at);
    delete_redundant(c, fx, out, in, dead, done_at);
    free(done_at);
    free(all);
    free(fx);
    free(out);
    free(in);
    free(dead);
}
