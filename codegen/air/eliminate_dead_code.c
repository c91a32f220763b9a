/* air_eliminate_dead_code: removes the instructions whose results nobody
 * reads and that do nothing else (Air's eliminateDeadCode).
 *
 * An inst is live when it has effects beyond its args (a terminal, an inst
 * with an AirSpecial — calls, patchpoints —, a <Traps> inst, or an opcode
 * with the EFFECTS column set in opcodes.def), when it defines memory (every memory
 * arg counts as live: a store is never dead) or a physical register (the
 * calling convention reads those), or when it defines a virtual tmp that a
 * live inst uses.  Rather than sweep the code until nothing changes, as
 * WebKit does, the live insts are a worklist: each tmp, once live, makes its
 * defining insts live once, so the phase is linear in the code's size
 * whatever the shape of its loops.  Runs before register allocation, which
 * then has fewer tmps to color (it matters most at -O0, where no B3 phase
 * removed dead values first). */
#include <stdlib.h>
#include <string.h>

#include "codegen/air/phases.h"
#include "util/alloc.h"

typedef struct {
    uint32_t ntmps;
    bool live;          /* set by note_def: the inst defines memory or a register */
    uint32_t *count;    /* pass 1: defs per virtual tmp */
    uint32_t *fill;     /* pass 2: next free place in defs[] per virtual tmp */
    uint32_t *defs;     /* inst ids, grouped by the tmp they define */
    uint32_t inst_id;   /* the inst being visited */
    uint8_t *tmp_live;  /* per virtual tmp */
    uint8_t *inst_live; /* per inst id */
    uint32_t *work, nwork;
} Dce;

static bool is_vtmp(const Dce *d, AirTmp t) { return !air_tmp_is_reg(t) && t - AIR_FIRST_VTMP < d->ntmps; }

/* Pass 1 (count) and 2 (fill): the defs of each virtual tmp. */
static void note_defs(Dce *d, const AirInst *inst) {
    AirSig sig;
    air_inst_sig(inst, &sig);
    for (uint32_t i = 0; i < inst->nargs; i++) {
        if ((sig.skip && sig.skip[i]) || !air_role_is_def((AirRole)sig.roles[i]))
            continue;
        const AirArg *arg = &inst->args[i];
        if (arg->kind != AirArg_Tmp || !is_vtmp(d, arg->base)) {
            if (arg->kind != AirArg_None)
                d->live = true; /* memory or a physical register */
            continue;
        }
        uint32_t t = arg->base - AIR_FIRST_VTMP;
        if (d->fill)
            d->defs[d->fill[t]++] = d->inst_id;
        else
            d->count[t]++;
    }
}

static void mark_inst(Dce *d, uint32_t id) {
    if (!d->inst_live[id]) {
        d->inst_live[id] = 1;
        d->work[d->nwork++] = id;
    }
}

/* A live inst's uses make their tmps, and so those tmps' defs, live. */
static inline void note_use(Dce *d, const AirTmp *tmp, AirRole role) {
    if (!air_role_is_use(role) || !is_vtmp(d, *tmp))
        return;
    uint32_t t = *tmp - AIR_FIRST_VTMP;
    if (d->tmp_live[t])
        return;
    d->tmp_live[t] = 1;
    for (uint32_t k = t ? d->count[t - 1] : 0; k < d->count[t]; k++)
        mark_inst(d, d->defs[k]);
}

static bool has_effects(const AirInst *i) {
    return i->special || (i->flags & AirInstFlag_Traps) || air_is_terminal((AirOpcode)i->opcode) ||
           air_has_non_arg_effects((AirOpcode)i->opcode);
}

void air_eliminate_dead_code(AirCode *c) {
    uint32_t n = 0;
    for (uint32_t bi = 0; bi < c->nblocks; bi++)
        n += c->blocks[bi]->ninsts;
    if (!n)
        return;
    Dce d = {.ntmps = c->ntmps};
    d.count = b3_xcalloc("eliminate_dead_code", c->ntmps + 1, sizeof(uint32_t));
    d.inst_live = b3_xcalloc("eliminate_dead_code", n, 1);
    d.tmp_live = b3_xcalloc("eliminate_dead_code", c->ntmps + 1, 1);
    d.work = b3_xmalloc("eliminate_dead_code", n * sizeof(uint32_t));

    /* Count the defs per tmp, and find the insts live by themselves. */
    uint32_t id = 0;
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        for (uint32_t i = 0; i < b->ninsts; i++, id++) {
            d.live = false;
            d.inst_id = id;
            note_defs(&d, &b->insts[i]);
            if (d.live || has_effects(&b->insts[i]))
                mark_inst(&d, id);
        }
    }
    /* count[] becomes each tmp's end in defs[]; fill[] its start. */
    uint32_t total = 0;
    for (uint32_t t = 0; t < c->ntmps; t++)
        total += d.count[t];
    d.defs = b3_xmalloc("eliminate_dead_code", (total ? total : 1) * sizeof(uint32_t));
    d.fill = b3_xmalloc("eliminate_dead_code", (c->ntmps + 1) * sizeof(uint32_t));
    for (uint32_t t = 0, sum = 0; t < c->ntmps; t++) {
        d.fill[t] = sum;
        sum += d.count[t];
        d.count[t] = sum;
    }
    id = 0;
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        for (uint32_t i = 0; i < b->ninsts; i++, id++) {
            d.inst_id = id;
            note_defs(&d, &b->insts[i]);
        }
    }

    /* Propagate: inst ids map back to (block, index) through a prefix array. */
    uint32_t *first = b3_xmalloc("eliminate_dead_code", (c->nblocks + 1) * sizeof(uint32_t));
    first[0] = 0;
    for (uint32_t bi = 0; bi < c->nblocks; bi++)
        first[bi + 1] = first[bi] + c->blocks[bi]->ninsts;
    while (d.nwork) {
        uint32_t x = d.work[--d.nwork];
        uint32_t lo = 0, hi = c->nblocks; /* the block holding inst x */
        while (hi - lo > 1) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (first[mid] <= x)
                lo = mid;
            else
                hi = mid;
        }
        AirTmpIter it;
        AirTmpRef r;
        for (air_tmp_iter_init(&it, &c->blocks[lo]->insts[x - first[lo]]); air_tmp_iter_next(&it, &r);)
            note_use(&d, r.tmp, r.role);
    }

    id = 0;
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        uint32_t out = 0;
        for (uint32_t i = 0; i < b->ninsts; i++, id++)
            if (d.inst_live[id])
                b->insts[out++] = b->insts[i];
        b->ninsts = out;
    }
    free(first);
    free(d.count);
    free(d.fill);
    free(d.defs);
    free(d.inst_live);
    free(d.tmp_live);
    free(d.work);
}
