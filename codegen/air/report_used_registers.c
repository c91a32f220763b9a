/* air_report_used_registers: after register allocation, deletes the insts
 * whose only effect is to write registers that nobody reads (Air's
 * reportUsedRegisters, whose other half -- telling each Patchpoint which
 * registers are live across it -- has no client here: the spec ignores
 * `usedRegisters`, and a generator is not a C++ callback; docs/backend.md, "Air
 * phases after allocation").
 *
 * Allocation leaves such writes behind: coalescing can make a copy's
 * result unused, and spill code may reload what is not read again.  A
 * backward liveness over the physical registers (64-bit masks) finds them;
 * what is live where the procedure returns is air_regs_live_at_exit. */
#include <stdlib.h>

#include "codegen/air/phases.h"
#include "codegen/air/reg_effects.h"
#include "ir/diag.h"
#include "util/alloc.h"

#define PHASE "report_used_registers"

typedef struct {
    uint64_t use, def, kill;
} Fx;

void air_report_used_registers(AirCode *c) {
    uint64_t at_exit = air_regs_live_at_exit(c);
    uint64_t *in = b3_xcalloc(PHASE, c->nblocks + 1, sizeof(uint64_t));
    uint32_t most = 1;
    for (uint32_t bi = 0; bi < c->nblocks; bi++)
        if (c->blocks[bi]->ninsts > most)
            most = c->blocks[bi]->ninsts;
    uint8_t *dead = b3_xmalloc(PHASE, most);
    /* Each block as one transfer, live_in = gen | (live_out & ~kill), so the
     * fixpoint does not walk the insts again (that walk is the cost). */
    uint64_t *gen = b3_xmalloc(PHASE, (c->nblocks + 1) * sizeof(uint64_t));
    uint64_t *kill = b3_xmalloc(PHASE, (c->nblocks + 1) * sizeof(uint64_t));
    /* Each inst's effects, kept for the sweep: walking its args is most of
     * the phase's cost. */
    size_t total = 0;
    for (uint32_t bi = 0; bi < c->nblocks; bi++)
        total += c->blocks[bi]->ninsts;
    Fx *fx = b3_xmalloc(PHASE, (total + 1) * sizeof(Fx));
    for (uint32_t bi = 0, k0 = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        uint64_t g = 0, k = 0;
        k0 += b->ninsts;
        for (uint32_t i = b->ninsts; i-- > 0;) {
            AirRegEffects e;
            air_reg_effects_inline(c, &b->insts[i], &e);
            fx[k0 - b->ninsts + i] = (Fx){e.use, e.def, e.kill};
            g = (g & ~e.kill) | e.use;
            k |= e.kill;
        }
        gen[bi] = g, kill[bi] = k;
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t bi = c->nblocks; bi-- > 0;) {
            AirBlock *b = c->blocks[bi];
            uint64_t live = air_regs_live_out(b, in, at_exit);
            live = gen[bi] | (live & ~kill[bi]);
            if (live != in[bi]) {
                in[bi] = live;
                changed = true;
            }
        }
    }
    free(gen);
    free(kill);
    /* One sweep: a deleted inst's uses are not counted, so what only it
     * read dies too when it comes before it in the same block. */
    for (uint32_t bi = 0, k0 = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        uint64_t live = air_regs_live_out(b, in, at_exit);
        bool any = false;
        const Fx *bfx = fx + k0;
        k0 += b->ninsts;
        for (uint32_t i = b->ninsts; i-- > 0;) {
            AirInst *inst = &b->insts[i];
            const Fx *e = &bfx[i];
            dead[i] = e->def && !(e->def & live) && air_inst_only_defines_registers(inst);
            if (dead[i]) {
                any = true;
                continue;
            }
            live = (live & ~e->kill) | e->use;
        }
        if (any) {
            uint32_t out = 0;
            for (uint32_t i = 0; i < b->ninsts; i++)
                if (!dead[i])
                    b->insts[out++] = b->insts[i];
            b->ninsts = out;
        }
    }
    free(fx);
    free(in);
    free(dead);
}
