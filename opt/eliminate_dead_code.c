/* eliminate_dead_code (-O1, -O2, and again last at -O2): B3's
 * eliminateDeadCode, by marking from what must execute.
 *
 * Roots are the values whose effects require execution
 * (b3_effects_must_execute: terminals, stores, calls, checks, side exits,
 * fences, trapping accesses), except the writes of local state, which live
 * only if something reads what they write:
 *   - an Upsilon is live when its Phi is (a store to the Phi's location that
 *     no live Phi reads is dead), so a cycle of Phis and Upsilons that only
 *     feed each other goes as a whole;
 *   - a Set is live when some live Get reads its Variable.
 * Everything a live value uses is live.  The rest is removed, with the
 * Variables no value names any more and the stack slots no SlotBase names.
 * Linear: every value is marked once, and each Phi's Upsilons and each
 * Variable's Sets are found through lists built in one pass.  Unused values
 * that are merely control dependent (a plain load, a division that could
 * fault) go, as in B3: their fault would be undefined behaviour. */
#include <stdlib.h>
#include <string.h>

#include "ir/effects.h"
#include "ir/ice.h"
#include "opt/phases.h"
#include "util/alloc.h"

#define PHASE "eliminate_dead_code"

/* Lists of values grouped by a key 0..nkeys-1 (a Phi's dense id, a
 * Variable's index), in two passes: count, then fill. */
typedef struct {
    uint32_t *start; /* nkeys + 1 */
    B3Value **items;
} Groups;

typedef struct {
    B3Proc *p;
    uint32_t n;
    uint8_t *live;
    B3Value **work;
    uint32_t nwork;
    Groups upsilons, sets; /* by Phi id, by Variable index */
    uint8_t *var_read;
} Dce;

/* The Phi an Upsilon writes, if it is a value of p (dense id into *id). */
static bool phi_id(const Dce *d, const B3Value *ups, uint32_t *id) {
    const B3Value *phi = ups->m.phi;
    if (!phi || phi->scratch >= d->n || d->p->values[phi->scratch] != phi)
        return false;
    *id = phi->scratch;
    return true;
}

static bool var_id(const Dce *d, const B3Value *set, uint32_t *id) {
    const B3Variable *var = set->m.var;
    if (!var || var->index >= d->p->nvars || d->p->vars[var->index] != var)
        return false;
    *id = var->index;
    return true;
}

static void build_groups(Dce *d, Groups *g, uint32_t nkeys, B3Opcode op,
                         bool (*key)(const Dce *, const B3Value *, uint32_t *)) {
    g->start = b3_xcalloc(PHASE, nkeys + 1, sizeof *g->start);
    B3Proc *p = d->p;
    uint32_t id;
    for (uint32_t bi = 0; bi < p->nblocks; bi++)
        for (uint32_t i = 0; i < p->blocks[bi]->nvalues; i++)
            if (p->blocks[bi]->values[i]->opcode == op && key(d, p->blocks[bi]->values[i], &id))
                g->start[id + 1]++;
    for (uint32_t k = 0; k < nkeys; k++)
        g->start[k + 1] += g->start[k];
    g->items = b3_xcalloc(PHASE, g->start[nkeys], sizeof *g->items);
    uint32_t *fill = b3_xcalloc(PHASE, nkeys, sizeof *fill);
    for (uint32_t bi = 0; bi < p->nblocks; bi++)
        for (uint32_t i = 0; i < p->blocks[bi]->nvalues; i++) {
            B3Value *v = p->blocks[bi]->values[i];
            if (v->opcode == op && key(d, v, &id))
                g->items[g->start[id] + fill[id]++] = v;
        }
    free(fill);
}

static void mark(Dce *d, B3Value *v) {
    if (v->scratch >= d->n || d->p->values[v->scratch] != v || d->live[v->scratch])
        return;
    d->live[v->scratch] = 1;
    d->work[d->nwork++] = v;
}

static void mark_group(Dce *d, const Groups *g, uint32_t id) {
    for (uint32_t i = g->start[id]; i < g->start[id + 1]; i++)
        mark(d, g->items[i]);
}

/* Is v a root?  Local writes wait for a reader. */
static bool root(const B3Value *v) {
    if (b3_op((B3Opcode)v->opcode)->effects != B3E_LOCAL_WRITE)
        return b3_value_must_execute(v);
    B3Effects e = b3_effects(v);
    if (e.writes_local_state) {
        e.writes_local_state = false;
        return b3_effects_must_execute(e);
    }
    return b3_effects_must_execute(e);
}

/* Drops the Variables (or slots) no live value names, renumbering the rest. */
static bool compact_vars(B3Proc *p, const uint8_t *used) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->nvars; i++)
        if (used[i]) {
            p->vars[n] = p->vars[i];
            p->vars[n]->index = n;
            n++;
        }
    bool changed = n != p->nvars;
    p->nvars = n;
    return changed;
}

static bool compact_slots(B3Proc *p, const uint8_t *used) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->nslots; i++)
        if (used[i]) {
            p->slots[n] = p->slots[i];
            p->slots[n]->index = n;
            n++;
        }
    bool changed = n != p->nslots;
    p->nslots = n;
    return changed;
}

bool b3_eliminate_dead_code(B3Module *m, B3Proc *p) {
    Dce d = {.p = p};
    d.n = b3_proc_number_values(p);
    d.live = b3_xcalloc(PHASE, d.n, 1);
    d.work = b3_xcalloc(PHASE, d.n, sizeof *d.work);
    d.var_read = b3_xcalloc(PHASE, p->nvars, 1);
    build_groups(&d, &d.upsilons, d.n, B3_Upsilon, phi_id);
    build_groups(&d, &d.sets, p->nvars, B3_Set, var_id);

    for (uint32_t bi = 0; bi < p->nblocks; bi++)
        for (uint32_t i = 0; i < p->blocks[bi]->nvalues; i++)
            if (root(p->blocks[bi]->values[i]))
                mark(&d, p->blocks[bi]->values[i]);
    while (d.nwork) {
        B3Value *v = d.work[--d.nwork];
        for (uint32_t k = 0; k < v->nkids; k++)
            mark(&d, v->kids[k]);
        /* Only a read of local state (a Get, a Phi) has more to mark. */
        if (b3_op((B3Opcode)v->opcode)->effects != B3E_LOCAL_READ)
            continue;
        uint32_t id;
        if (b3_op((B3Opcode)v->opcode)->meta == B3M_VARIABLE) { /* a Get */
            if (var_id(&d, v, &id) && !d.var_read[id]) {
                d.var_read[id] = 1;
                mark_group(&d, &d.sets, id);
            }
        } else { /* a Phi */
            mark_group(&d, &d.upsilons, v->scratch);
        }
    }

    /* Sweep; note what the survivors name. */
    bool changed = false;
    uint8_t *var_used = b3_xcalloc(PHASE, p->nvars, 1), *slot_used = b3_xcalloc(PHASE, p->nslots, 1);
    for (uint32_t bi = 0; bi < p->nblocks; bi++) {
        B3Block *b = p->blocks[bi];
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *v = b->values[i];
            if (!d.live[v->scratch]) {
                b3_value_replace_with_nop(v);
                changed = true;
                continue;
            }
            uint8_t meta = b3_op((B3Opcode)v->opcode)->meta;
            if (meta == B3M_VARIABLE && v->m.var && v->m.var->index < p->nvars)
                var_used[v->m.var->index] = 1;
            if (meta == B3M_SLOT && v->m.slot && v->m.slot->index < p->nslots)
                slot_used[v->m.slot->index] = 1;
        }
    }
    if (changed)
        b3_proc_remove_nops(m, p);
    changed |= compact_vars(p, var_used);
    changed |= compact_slots(p, slot_used);

    free(slot_used);
    free(var_used);
    free(d.sets.start);
    free(d.sets.items);
    free(d.upsilons.start);
    free(d.upsilons.items);
    free(d.var_read);
    free(d.work);
    free(d.live);
    return changed;
}
