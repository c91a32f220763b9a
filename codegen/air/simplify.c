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
    return air_move_kind((AirOpcode)i->opcode) == AirMove_Copy;
}

static bool is_jump_only(const AirBlock *b) {
    return b->ninsts == 1 && b->insts[0].opcode == Air_Jump && b->nsuccs == 1;
}

/* Where a jump to each block ends up after skipping jump-only blocks,
 * computed once per block (memoized along each path, so a long chain of
 * jump-only blocks costs linear time, not quadratic).  A cycle of jump-only
 * blocks is left alone: every block on it maps to itself. */
static AirBlock **final_targets(AirCode *c) {
    uint32_t n = c->nblocks;
    AirBlock **target = calloc(n, sizeof(AirBlock *));
    uint32_t *path = malloc(n * sizeof(uint32_t));
    uint8_t *on_path = calloc(n, 1);
    if (!target || !path || !on_path)
        b3_internal_error("air simplify", "out of memory");
    for (uint32_t bi = 0; bi < n; bi++) {
        uint32_t np = 0;
        AirBlock *b = c->blocks[bi], *end;
        /* Follow jumps until a block already resolved, a non-jump block or a cycle. */
        for (;;) {
            if (target[b->index]) {
                end = target[b->index];
                break;
            }
            if (!is_jump_only(b)) {
                end = b;
                break;
            }
            if (on_path[b->index]) {
                /* The blocks from b on form a cycle: each keeps its own jump. */
                while (np && path[np - 1] != b->index) {
                    uint32_t k = path[--np];
                    target[k] = c->blocks[k];
                    on_path[k] = 0;
                }
                np--;
                target[b->index] = b;
                on_path[b->index] = 0;
                end = b;
                break;
            }
            on_path[b->index] = 1;
            path[np++] = b->index;
            b = b->succs[0].block;
        }
        while (np) {
            uint32_t k = path[--np];
            target[k] = end;
            on_path[k] = 0;
        }
        if (!target[bi])
            target[bi] = end;
    }
    free(path);
    free(on_path);
    return target;
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
    AirBlock **target = final_targets(c);
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        for (uint32_t s = 0; s < b->nsuccs; s++)
            b->succs[s].block = target[b->succs[s].block->index];
    }

    /* A branch whose two edges now meet is a jump (only the branches that define nothing). */
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        AirInst *last = &b->insts[b->ninsts - 1];
        if (b->nsuccs == 2 && b->succs[0].block == b->succs[1].block &&
            air_is_branch((AirOpcode)last->opcode)) {
            last->opcode = Air_Jump;
            last->nargs = 0;
            last->args = NULL;
            b->nsuccs = 1;
            if (b->succs[1].freq == B3Freq_Normal)
                b->succs[0].freq = B3Freq_Normal;
        }
    }

    free(target);
    /* Drop what the entry no longer reaches; keep the survivors' order. */
    AirBlock *entry = c->blocks[0];
    air_drop_unreachable(c, &entry, 1, "air simplify");
    air_compute_preds(c);
}
