/* air_duplicate_dispatch (-O2): an interpreter's dispatch, copied into each
 * block that jumps to it, after register and stack allocation.
 *
 * A small block that ends in a JumpTable (a Switch in a loop, such as the
 * `goto *table[op]` or `switch (op)` of an interpreter: fetch the next
 * opcode, jump through the table), or a short chain of small blocks that
 * jump to one (the fetch, then the table jump), is copied into every block
 * that reaches it by a Jump: each handler then ends in its own indirect
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

/* The last block of the chain of small blocks from s (s jumping to the
 * next, ...) that ends in a JumpTable, with the number of instructions the
 * chain copies (its Jumps excluded); NULL if there is none. */
static AirBlock *dispatch_from(const AirCode *c, AirBlock *s, uint32_t *size) {
    uint32_t n = 0;
    for (uint32_t k = 0; k < MAX_CHAIN; k++) {
        if (s == c->blocks[0] || !s->ninsts)
            return NULL;
        for (uint32_t i = 0; i < s->ninsts; i++)
            if (s->insts[i].special)
                return NULL;
        const AirInst *last = &s->insts[s->ninsts - 1];
        if (last->opcode == Air_JumpTable) {
            for (uint32_t i = 0; i < s->nsuccs; i++)
                if (s->succs[i].block == s)
                    return NULL;
            n += s->ninsts;
            if (n > MAX_INSTS)
                return NULL;
            *size = n;
            return s;
        }
        if (last->opcode != Air_Jump || s->nsuccs != 1 || s->succs[0].block == s)
            return NULL;
        n += s->ninsts - 1;
        if (n > MAX_INSTS)
            return NULL;
        s = s->succs[0].block;
    }
    return NULL;
}

/* Appends copies of the chain's instructions from s to t (its Jumps
 * excluded) to b in place of b's final Jump; b takes t's successors. */
static void copy_chain(AirCode *c, AirBlock *b, AirBlock *s, const AirBlock *t, uint32_t size) {
    b->ninsts--; /* the Jump */
    uint32_t need = b->ninsts + size;
    air_block_reserve(c, b, need);
    for (;; s = s->succs[0].block) {
        uint32_t n = s == t ? s->ninsts : s->ninsts - 1;
        for (uint32_t i = 0; i < n; i++) {
            AirInst *inst = &b->insts[b->ninsts++];
            *inst = s->insts[i];
            if (inst->nargs) {
                inst->args = b3_arena_alloc(c->arena, inst->nargs * sizeof(AirArg));
                memcpy(inst->args, s->insts[i].args, inst->nargs * sizeof(AirArg));
            }
        }
        if (s == t)
            break;
    }
    b->succs = b3_arena_alloc(c->arena, t->nsuccs * sizeof(AirSucc));
    memcpy(b->succs, t->succs, t->nsuccs * sizeof(AirSucc));
    b->nsuccs = t->nsuccs;
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
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        if (!b->ninsts || b->insts[b->ninsts - 1].opcode != Air_Jump || b->nsuccs != 1)
            continue;
        AirBlock *s = b->succs[0].block;
        uint32_t size;
        AirBlock *t = s == b ? NULL : dispatch_from(c, s, &size);
        if (!t || size > budget)
            continue;
        /* b itself on the chain (a loop through the dispatch with no
         * other block in it) stays as it is. */
        bool on_chain = false;
        for (AirBlock *k = s; k != t && !on_chain; k = k->succs[0].block)
            on_chain = k == b;
        if (on_chain || t == b)
            continue;
        budget -= size;
        copy_chain(c, b, s, t, size);
        changed = true;
    }
    if (!changed)
        return;
    AirBlock *entry = c->blocks[0];
    air_drop_unreachable(c, &entry, 1, "duplicate_dispatch");
    air_compute_preds(c);
}
