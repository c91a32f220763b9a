/* air_remove_self_moves: after register allocation, a move whose source and
 * destination got the same register does nothing; coalescing leaves many. */
#include "codegen/air/phases.h"

/* Move32 %r, %r is kept: it clears the upper half of %r. */
static bool is_self_move(const AirInst *i) {
    if (i->special || i->nargs != 2 || i->args[0].kind != AirArg_Tmp || i->args[1].kind != AirArg_Tmp ||
        i->args[0].base != i->args[1].base)
        return false;
    return air_move_kind((AirOpcode)i->opcode) == AirMove_Copy;
}

void air_remove_self_moves(AirCode *c) {
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        uint32_t out = 0;
        for (uint32_t i = 0; i < b->ninsts; i++)
            if (!is_self_move(&b->insts[i]))
                b->insts[out++] = b->insts[i];
        b->ninsts = out;
        if (!out)
            b3_internal_error("remove_self_moves", "BB#%u is empty", bi);
    }
}
