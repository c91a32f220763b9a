/* Post-allocation cleanup: drops self-moves and threads jumps through blocks
 * that only jump, then removes the blocks nothing reaches any more. */
#include <stdlib.h>
#include <string.h>

#include "codegen/air/phases.h"

/* Move32 %r, %r is not removed: it clears the upper half of %r. */
static bool is_self_move(const AirInst *i) {
    if (i->special || i->nargs != 2 || i->args[0].kind != AirArg_Tmp || i->args[1].kind != AirArg_Tmp ||
        i->args[0].base != i->args[1].base)
        return false;
    return i->opcode == Air_Move || i->opcode == Air_MoveDouble || i->opcode == Air_MoveFloat;
}

static bool is_pure_branch(AirOpcode op) {
    return op == Air_Branch32 || op == Air_Branch64 || op == Air_BranchTest32 || op == Air_BranchTest64 ||
           op == Air_BranchDouble || op == Air_BranchFloat;
}

static bool is_jump_only(const AirBlock *b) {
    return b->ninsts == 1 && b->insts[0].opcode == Air_Jump && b->nsuccs == 1;
}

/* Where a jump to b ends up after skipping jump-only blocks (stopping at cycles). */
static AirBlock *final_target(AirBlock *b, uint32_t *seen, uint32_t stamp) {
    while (is_jump_only(b) && seen[b->index] != stamp) {
        seen[b->index] = stamp;
        AirBlock *next = b->succs[0].block;
        if (next == b)
            break;
        b = next;
    }
    return b;
}

void air_simplify(AirCode *c) {
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        uint32_t out = 0;
        for (uint32_t i = 0; i < b->ninsts; i++)
            if (!is_self_move(&b->insts[i]))
                b->insts[out++] = b->insts[i];
        b->ninsts = out;
        if (!out)
            b3_internal_error("air simplify", "BB#%u is empty", bi);
    }

    if (c->nblocks == 0)
        return;
    uint32_t *seen = calloc(c->nblocks, sizeof(uint32_t));
    if (!seen)
        b3_internal_error("air simplify", "out of memory");
    uint32_t stamp = 0;
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        for (uint32_t s = 0; s < b->nsuccs; s++)
            b->succs[s].block = final_target(b->succs[s].block, seen, ++stamp);
    }

    /* A branch whose two edges now meet is a jump (only the branches that define nothing). */
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        AirInst *last = &b->insts[b->ninsts - 1];
        if (b->nsuccs == 2 && b->succs[0].block == b->succs[1].block &&
            is_pure_branch((AirOpcode)last->opcode)) {
            last->opcode = Air_Jump;
            last->nargs = 0;
            last->args = NULL;
            b->nsuccs = 1;
            if (b->succs[1].freq == B3Freq_Normal)
                b->succs[0].freq = B3Freq_Normal;
        }
    }

    free(seen);
    /* Drop what the entry no longer reaches; keep the survivors' order. */
    AirBlock *entry = c->blocks[0];
    air_drop_unreachable(c, &entry, 1, "air simplify");
    air_compute_preds(c);
}
