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

#include "codegen/air/phases.h"
#include "codegen/air/reg_effects.h"
#include "ir/diag.h"

static bool is_self_move32(const AirInst *i) {
    return !i->special && air_move_kind((AirOpcode)i->opcode) == AirMove_ZeroExtend && i->nargs == 2 &&
           i->args[0].kind == AirArg_Tmp && i->args[1].kind == AirArg_Tmp &&
           i->args[0].base == i->args[1].base && air_tmp_is_reg(i->args[0].base);
}

static void delete_marked(AirBlock *b, const uint8_t *dead) {
    uint32_t out = 0;
    for (uint32_t i = 0; i < b->ninsts; i++)
        if (!dead[i])
            b->insts[out++] = b->insts[i];
    b->ninsts = out;
}

static bool is_gp_copy(const AirInst *i) {
    return !i->special && air_move_kind((AirOpcode)i->opcode) == AirMove_Copy && i->nargs == 2 &&
           i->args[0].kind == AirArg_Tmp && i->args[1].kind == AirArg_Tmp &&
           air_move_bank((AirOpcode)i->opcode) == AirGP;
}

/* The registers whose upper half is live before inst, given those after. */
static uint64_t upper_before(const AirCode *c, AirInst *inst, uint64_t live) {
    AirRegEffects e;
    air_reg_effects(c, inst, &e);
    uint64_t use = e.use_upper;
    /* A whole copy reads the source's upper half only for a reader of the
     * destination's (TmpWidth's moves). */
    if (is_gp_copy(inst) && !(live & air_reg_bit(inst->args[1].base)))
        use &= ~air_reg_bit(inst->args[0].base);
    return (live & ~e.def_upper) | use;
}

/* (1): upper halves live after each inst, from the live-out sets. */
static bool delete_unread(AirCode *c, uint64_t *out, uint64_t *in, uint8_t *dead) {
    uint64_t at_exit = air_regs_live_at_exit(c);
    for (uint32_t bi = 0; bi < c->nblocks; bi++)
        in[bi] = 0;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t bi = c->nblocks; bi-- > 0;) {
            AirBlock *b = c->blocks[bi];
            uint64_t live = b->nsuccs ? 0 : at_exit;
            for (uint32_t s = 0; s < b->nsuccs; s++)
                live |= in[b->succs[s].block->index];
            out[bi] = live;
            for (uint32_t i = b->ninsts; i-- > 0;)
                live = upper_before(c, &b->insts[i], live);
            if (live != in[bi]) {
                in[bi] = live;
                changed = true;
            }
        }
    }
    bool any = false;
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        uint64_t live = out[bi];
        bool here = false;
        for (uint32_t i = b->ninsts; i-- > 0;) {
            AirInst *inst = &b->insts[i];
            dead[i] = is_self_move32(inst) && !(live & air_reg_bit(inst->args[0].base));
            here |= dead[i];
            if (dead[i])
                continue; /* deleted: the live set passes through */
            live = upper_before(c, inst, live);
        }
        if (here)
            delete_marked(b, dead);
        any |= here;
    }
    return any;
}

/* The registers zero above bit 31 after inst, given those before it. */
static uint64_t zero_after(const AirCode *c, AirInst *inst, uint64_t z) {
    AirRegEffects e;
    air_reg_effects(c, inst, &e);
    uint64_t after = (z & ~e.def) | e.zdef;
    /* A whole copy carries the property along. */
    if (is_gp_copy(inst) && (z & air_reg_bit(inst->args[0].base)))
        after |= air_reg_bit(inst->args[1].base);
    return after;
}

/* (2): registers known zero-extended at each block's start. */
static void delete_redundant(AirCode *c, uint64_t *out, uint64_t *in, uint8_t *dead) {
    air_compute_preds(c);
    for (uint32_t bi = 0; bi < c->nblocks; bi++)
        out[bi] = ~0ull; /* optimistic: the fixpoint only removes registers */
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t bi = 0; bi < c->nblocks; bi++) {
            AirBlock *b = c->blocks[bi];
            uint64_t z = b->npreds ? ~0ull : 0; /* nothing is known at an entry */
            for (uint32_t p = 0; p < b->npreds; p++)
                z &= out[b->preds[p]->index];
            in[bi] = z;
            for (uint32_t i = 0; i < b->ninsts; i++)
                z = zero_after(c, &b->insts[i], z);
            if (z != out[bi]) {
                out[bi] = z;
                changed = true;
            }
        }
    }
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        uint64_t z = in[bi];
        bool here = false;
        for (uint32_t i = 0; i < b->ninsts; i++) {
            dead[i] = is_self_move32(&b->insts[i]) && (z & air_reg_bit(b->insts[i].args[0].base));
            here |= dead[i];
            z = zero_after(c, &b->insts[i], z);
        }
        if (here)
            delete_marked(b, dead);
    }
}

void air_eliminate_zero_extensions(AirCode *c) {
    uint32_t most = 1;
    bool any = false;
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        if (c->blocks[bi]->ninsts > most)
            most = c->blocks[bi]->ninsts;
        for (uint32_t i = 0; i < c->blocks[bi]->ninsts && !any; i++)
            any = is_self_move32(&c->blocks[bi]->insts[i]);
    }
    if (!any)
        return;
    uint64_t *out = b3_xmalloc("eliminate_zero_extensions", (c->nblocks + 1) * sizeof(uint64_t));
    uint64_t *in = b3_xmalloc("eliminate_zero_extensions", (c->nblocks + 1) * sizeof(uint64_t));
    uint8_t *dead = b3_xmalloc("eliminate_zero_extensions", most);
    delete_unread(c, out, in, dead);
    delete_redundant(c, out, in, dead);
    free(out);
    free(in);
    free(dead);
}
