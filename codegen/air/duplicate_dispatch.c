/* air_duplicate_dispatch (-O2): an interpreter's dispatch, copied into each
 * block that jumps to it, after register and stack allocation.
 *
 * A small block that ends in a JumpTable (a Switch in a loop, such as the
 * `goto *table[op]` or `switch (op)` of an interpreter: fetch the next
 * opcode, jump through the table), or a short chain of small blocks that
 * lead to one (the fetch, then the table jump; a block on the way may end in
 * a conditional branch with the rest of the chain on one side, such as a
 * switch's range check, its other side the default), is copied into every
 * block that reaches it by a Jump: each handler then ends in its own indirect
 * jump, whose history the branch predictor keeps apart from the others' (a
 * shared one mostly predicts the last opcode's successor), and the jump to
 * the shared block goes.  This is LLVM's tail duplication of indirect
 * branches.
 *
 * Done on Air after allocation rather than on B3: the registers and stack
 * slots are fixed, so a copy is the same instructions; on SSA every handler
 * would need a Phi (with an Upsilon in every copy) for each value live
 * across the dispatch.  The copies' jump tables are equal, and the emitter
 * lays out one table for all of them (b3_emit_jump_table_new).
 *
 * Limits: the chain has at most MAX_CHAIN blocks and MAX_INSTS instructions
 * (Jumps not counted), none of them special (calls, patchpoints), the entry
 * block not among them; the copies add at most as many instructions as the
 * procedure had, plus ALLOWANCE. */
#include <stdlib.h>
#include <string.h>

#include "codegen/air/phases.h"
#include "util/alloc.h"

#define MAX_CHAIN 3
#define MAX_INSTS 16
#define ALLOWANCE 256

/* The chain of small blocks from s to a JumpTable: each block jumps to the
 * next, or ends in a conditional branch with the next as one side (the range
 * check of a switch: its other side, the default, is left as it is). */
typedef struct {
    AirBlock *blocks[MAX_CHAIN];
    uint32_t via[MAX_CHAIN]; /* the successor that goes on along the chain */
    uint32_t n;
    uint32_t size; /* instructions the chain copies, its Jumps excluded */
} Chain;

static bool chain_from(const AirCode *c, AirBlock *s, Chain *ch) {
    if (ch->n == MAX_CHAIN || s == c->blocks[0] || !s->ninsts)
        return false;
    for (uint32_t k = 0; k < ch->n; k++)
        if (ch->blocks[k] == s)
            return false;
    for (uint32_t i = 0; i < s->ninsts; i++)
        if (s->insts[i].special)
            return false;
    const AirInst *last = &s->insts[s->ninsts - 1];
    for (uint32_t i = 0; i < s->nsuccs; i++)
        if (s->succs[i].block == s)
            return false;
    uint32_t n = ch->size + s->ninsts - (last->opcode == Air_Jump ? 1 : 0);
    if (n > MAX_INSTS)
        return false;
    if (last->opcode == Air_JumpTable) {
        ch->blocks[ch->n++] = s;
        ch->size = n;
        return true;
    }
    if (!(last->opcode == Air_Jump && s->nsuccs == 1) && !(air_is_conditional_branch(last) && s->nsuccs == 2))
        return false;
    /* A failed try leaves *ch as it found it. */
    Chain saved = *ch;
    for (uint32_t i = 0; i < s->nsuccs; i++) {
        ch->blocks[saved.n] = s;
        ch->via[saved.n] = i;
        ch->n = saved.n + 1;
        ch->size = n;
        if (chain_from(c, s->succs[i].block, ch))
            return true;
    }
    *ch = saved;
    return false;
}

/* Appends copies of the chain's instructions (its Jumps excluded) to b in
 * place of b's final Jump.  A conditional branch of the chain ends the block
 * it is copied into: the copy goes on in a new block, its side of the
 * branch.  The last block takes the JumpTable's successors. */
static void copy_chain(AirCode *c, AirBlock *b, const Chain *ch) {
    b->ninsts--; /* the Jump */
    for (uint32_t k = 0; k < ch->n; k++) {
        const AirBlock *s = ch->blocks[k];
        const AirInst *last = &s->insts[s->ninsts - 1];
        uint32_t n = last->opcode == Air_Jump ? s->ninsts - 1 : s->ninsts;
        air_block_reserve(c, b, b->ninsts + n);
        for (uint32_t i = 0; i < n; i++) {
            AirInst *inst = &b->insts[b->ninsts++];
            *inst = s->insts[i];
            if (inst->nargs) {
                inst->args = b3_arena_alloc(c->arena, inst->nargs * sizeof(AirArg));
                memcpy(inst->args, s->insts[i].args, inst->nargs * sizeof(AirArg));
            }
        }
        if (last->opcode == Air_Jump)
            continue;
        b->succs = b3_arena_alloc(c->arena, s->nsuccs * sizeof(AirSucc));
        memcpy(b->succs, s->succs, s->nsuccs * sizeof(AirSucc));
        b->nsuccs = s->nsuccs;
        if (k + 1 == ch->n)
            break;
        AirBlock *nb = air_block_new(c);
        nb->frequency = b->frequency;
        b->succs[ch->via[k]].block = nb;
        b = nb;
    }
}

void air_duplicate_dispatch(AirCode *c) {
    uint64_t budget = ALLOWANCE;
    bool any = false;
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        budget += c->blocks[bi]->ninsts;
        any |=
            c->blocks[bi]->ninsts && c->blocks[bi]->insts[c->blocks[bi]->ninsts - 1].opcode == Air_JumpTable;
    }
    if (!any)
        return;
    bool changed = false;
    for (uint32_t bi = 0, nblocks = c->nblocks; bi < nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        if (!b->ninsts || b->insts[b->ninsts - 1].opcode != Air_Jump || b->nsuccs != 1)
            continue;
        AirBlock *s = b->succs[0].block;
        Chain ch = {.n = 0};
        if (s == b || !chain_from(c, s, &ch) || ch.size > budget)
            continue;
        /* b itself on the chain (a loop through the dispatch with no
         * other block in it) stays as it is. */
        bool on_chain = false;
        for (uint32_t k = 0; k < ch.n; k++)
            on_chain |= ch.blocks[k] == b;
        if (on_chain)
            continue;
        budget -= ch.size;
        copy_chain(c, b, &ch);
        changed = true;
    }
    if (!changed)
        return;
    AirBlock *entry = c->blocks[0];
    air_drop_unreachable(c, &entry, 1, "duplicate_dispatch");
    air_compute_preds(c);
}
