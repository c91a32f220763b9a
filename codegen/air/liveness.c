/* Air liveness: per-bank live-in/live-out by iterative dataflow, and a
 * backwards walker over inst boundaries (see liveness.h for the timing). */
#include "codegen/air/liveness.h"

#include <stdlib.h>
#include <string.h>

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p)
        b3_internal_error("air liveness", "out of memory");
    return p;
}

static void *xrealloc(void *p, size_t n) {
    p = realloc(p, n ? n : 1);
    if (!p)
        b3_internal_error("air liveness", "out of memory");
    return p;
}

void air_tmpset_init(AirTmpSet *s, uint32_t universe) {
    s->universe = universe;
    s->size = 0;
    s->dense = xmalloc((size_t)universe * sizeof(uint32_t));
    /* calloc keeps tools like valgrind quiet; correctness does not need it. */
    s->sparse = calloc(universe ? universe : 1, sizeof(uint32_t));
    if (!s->sparse)
        b3_internal_error("air liveness", "out of memory");
}

void air_tmpset_free(AirTmpSet *s) {
    free(s->dense);
    free(s->sparse);
    memset(s, 0, sizeof *s);
}

/* ---- actions ---- */

static void push_action(AirActionList *l, AirAction a) {
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->v = xrealloc(l->v, l->cap * sizeof(AirAction));
    }
    l->v[l->n++] = a;
}

void air_action_list_free(AirActionList *l) {
    free(l->v);
    memset(l, 0, sizeof *l);
}

typedef struct {
    AirBank bank;
    AirActionList *early, *late;
} ActCtx;

/* What a mention with this role does at each moment (see liveness.h). */
enum { MO_EARLY_USE = 1, MO_EARLY_DEF = 2, MO_LATE_USE = 4, MO_LATE_DEF = 8 };

static unsigned role_moments(AirRole role) {
    switch (role) {
    case AirRole_Use:
    case AirRole_ColdUse:
    case AirRole_UseAddr:
        return MO_EARLY_USE;
    case AirRole_LateUse:
    case AirRole_LateColdUse:
        return MO_LATE_USE;
    case AirRole_Def:
    case AirRole_ZDef:
        return MO_LATE_DEF;
    case AirRole_UseDef:
    case AirRole_UseZDef:
        return MO_EARLY_USE | MO_LATE_DEF;
    case AirRole_EarlyDef:
    case AirRole_EarlyZDef:
        return MO_EARLY_DEF;
    case AirRole_Scratch:
        return MO_EARLY_DEF | MO_LATE_USE;
    }
    return 0;
}

static void act_of_tmp(void *vctx, AirInst *inst, AirTmp *tmp, AirRole role, AirBank bank, AirWidth width) {
    ActCtx *x = vctx;
    if (bank != x->bank)
        return;
    AirAction a = {.tmp = *tmp, .slot = tmp, .inst = inst, .role = (uint8_t)role, .width = (uint8_t)width};
    unsigned m = role_moments(role);
    if (m & (MO_EARLY_USE | MO_EARLY_DEF)) {
        a.def = (m & MO_EARLY_DEF) != 0;
        push_action(x->early, a);
    }
    if (m & (MO_LATE_USE | MO_LATE_DEF)) {
        a.def = (m & MO_LATE_DEF) != 0;
        a.late = true;
        push_action(x->late, a);
    }
}

static void push_clobbers(const B3RegSet *set, AirBank bank, AirInst *inst, bool late, AirActionList *out) {
    unsigned lo = bank == AirGP ? 0 : B3_FPR_BASE, hi = bank == AirGP ? B3_FPR_BASE : 64;
    for (unsigned r = lo; r < hi; r++)
        if (b3_regset_has(set, (B3Reg)r))
            push_action(out, (AirAction){.tmp = r,
                                         .inst = inst,
                                         .role = AirRole_Def,
                                         .width = AirW64,
                                         .def = true,
                                         .late = late,
                                         .clobber = true});
}

void air_inst_actions(const AirCode *c, AirInst *inst, AirBank bank, AirActionList *early,
                      AirActionList *late) {
    ActCtx x = {bank, early, late};
    air_for_each_tmp(c, inst, act_of_tmp, &x);
    if (inst->special) {
        push_clobbers(&inst->special->early_clobber, bank, inst, false, early);
        push_clobbers(&inst->special->late_clobber, bank, inst, true, late);
    }
}

/* ---- local walker ---- */

void air_apply_actions(const AirActionList *acts, AirTmpSet *live) {
    for (uint32_t i = 0; i < acts->n; i++)
        if (acts->v[i].def)
            air_tmpset_remove(live, acts->v[i].tmp);
    for (uint32_t i = 0; i < acts->n; i++)
        if (!acts->v[i].def)
            air_tmpset_add(live, acts->v[i].tmp);
}

/* Collects the moments of boundary k; `ahead` already holds inst k's early actions. */
static void gather_boundary(AirLocalLiveness *lc, uint32_t k) {
    AirActionList t = lc->early;
    lc->early = lc->ahead;
    lc->ahead = t;
    lc->ahead.n = 0;
    lc->late.n = 0;
    if (k > 0)
        air_inst_actions(lc->code, &lc->block->insts[k - 1], lc->bank, &lc->ahead, &lc->late);
}

static void init_walk(AirLocalLiveness *lc, const AirCode *c, const AirBlock *b, AirBank bank,
                      AirTmpSet *live) {
    memset(lc, 0, sizeof *lc);
    lc->code = c;
    lc->block = b;
    lc->bank = bank;
    lc->live = live;
    lc->boundary = b->ninsts;
    gather_boundary(lc, b->ninsts);
}

void air_local_init(AirLocalLiveness *lc, const AirLiveness *l, const AirBlock *b, AirTmpSet *live) {
    init_walk(lc, l->code, b, l->bank, live);
    air_tmpset_clear(live);
    for (uint32_t i = 0; i < l->nlive_out[b->index]; i++)
        air_tmpset_add(live, l->live_out[b->index][i]);
}

void air_local_advance(AirLocalLiveness *lc) {
    if (lc->boundary == 0) {
        lc->done = true;
        lc->early.n = lc->late.n = 0;
        return;
    }
    lc->boundary--;
    gather_boundary(lc, lc->boundary);
}

void air_local_step(AirLocalLiveness *lc) {
    air_apply_actions(&lc->early, lc->live);
    air_apply_actions(&lc->late, lc->live);
    air_local_advance(lc);
}

void air_local_free(AirLocalLiveness *lc) {
    air_action_list_free(&lc->early);
    air_action_list_free(&lc->late);
    air_action_list_free(&lc->ahead);
}

/* ---- block order ---- */

AirBlock **air_rpo(const AirCode *c) {
    uint32_t n = c->nblocks;
    AirBlock **order = xmalloc(n * sizeof(AirBlock *));
    uint8_t *seen = calloc(n ? n : 1, 1);
    uint32_t *stack = xmalloc(n * sizeof(uint32_t)), *next = xmalloc(n * sizeof(uint32_t));
    uint32_t npost = 0;
    /* Post order by an explicit DFS stack, then reversed. */
    for (uint32_t root = 0; root < n; root++) {
        if (seen[root])
            continue;
        uint32_t sp = 0;
        stack[sp++] = root;
        next[root] = 0;
        seen[root] = 1;
        while (sp) {
            AirBlock *b = c->blocks[stack[sp - 1]];
            if (next[b->index] < b->nsuccs) {
                AirBlock *s = b->succs[next[b->index]++].block;
                if (!seen[s->index]) {
                    seen[s->index] = 1;
                    next[s->index] = 0;
                    stack[sp++] = s->index;
                }
            } else {
                order[npost++] = b;
                sp--;
            }
        }
        /* Roots after the entry are unreachable blocks; keep the entry's part first. */
        if (root == 0) {
            for (uint32_t i = 0; i < npost / 2; i++) {
                AirBlock *t = order[i];
                order[i] = order[npost - 1 - i];
                order[npost - 1 - i] = t;
            }
        }
    }
    /* The unreachable tail is in post order; good enough (it only affects iteration counts). */
    free(seen);
    free(stack);
    free(next);
    return order;
}

/* ---- block liveness ---- */

static uint32_t *copy_array(const uint32_t *a, uint32_t n) {
    uint32_t *v = xmalloc(n * sizeof(uint32_t));
    memcpy(v, a, n * sizeof(uint32_t));
    return v;
}

static uint32_t *copy_set(const AirTmpSet *s) { return copy_array(s->dense, s->size); }

/* An add-only set for the dataflow: membership is one load of a stamp (the
 * sparse set needs two dependent loads), and the elements stay in insertion
 * order, as an AirTmpSet's would without removals. */
typedef struct {
    uint32_t *stamp, *dense;
    uint32_t size, epoch, universe;
} AddSet;

static void addset_init(AddSet *s, uint32_t universe) {
    s->stamp = calloc(universe ? universe : 1, sizeof(uint32_t));
    if (!s->stamp)
        b3_internal_error("air liveness", "out of memory");
    s->dense = xmalloc((size_t)universe * sizeof(uint32_t));
    s->size = s->epoch = 0;
    s->universe = universe;
}

static void addset_free(AddSet *s) {
    free(s->stamp);
    free(s->dense);
}

/* Empties the set (a new epoch; stamps are reset only when it wraps). */
static void addset_clear(AddSet *s) {
    s->size = 0;
    if (++s->epoch == 0) {
        memset(s->stamp, 0, (size_t)s->universe * sizeof(uint32_t));
        s->epoch = 1;
    }
}

static inline bool addset_has(const AddSet *s, uint32_t t) { return s->stamp[t] == s->epoch; }

static inline void addset_add(AddSet *s, uint32_t t) {
    if (s->stamp[t] != s->epoch) {
        s->stamp[t] = s->epoch;
        s->dense[s->size++] = t;
    }
}

/* Gathering straight into the compact form: an inst's early actions go to
 * the end of acts->v, its late ones to `late` until the inst is done (the
 * order of air_inst_actions). */
typedef struct {
    AirBank bank;
    AirActs *acts;
    uint32_t cap;
    AirAct *late;
    uint32_t nlate, cap_late;
} GatherCtx;

static void gather_push(GatherCtx *g, AirAct x) {
    if (g->acts->nv == g->cap) {
        g->cap *= 2;
        g->acts->v = xrealloc(g->acts->v, g->cap * sizeof(AirAct));
    }
    g->acts->v[g->acts->nv++] = x;
}

static void gather_push_late(GatherCtx *g, AirAct x) {
    if (g->nlate == g->cap_late) {
        g->cap_late = g->cap_late ? 2 * g->cap_late : 16;
        g->late = xrealloc(g->late, g->cap_late * sizeof(AirAct));
    }
    g->late[g->nlate++] = x;
}

static void gather_tmp(void *vctx, AirInst *inst, AirTmp *tmp, AirRole role, AirBank bank, AirWidth width) {
    (void)inst;
    (void)width;
    GatherCtx *g = vctx;
    if (bank != g->bank)
        return;
    unsigned m = role_moments(role);
    if (m & (MO_EARLY_USE | MO_EARLY_DEF))
        gather_push(g, (AirAct){*tmp, (m & MO_EARLY_DEF) != 0, 0});
    if (m & (MO_LATE_USE | MO_LATE_DEF))
        gather_push_late(g, (AirAct){*tmp, (m & MO_LATE_DEF) != 0, 0});
}

/* The bank's registers in a clobber set, in register order (as push_clobbers). */
static uint64_t bank_clobbers(const B3RegSet *set, AirBank bank) {
    return bank == AirGP ? set->bits[0] & 0xffffffffull : set->bits[0] & ~0xffffffffull;
}

void air_acts_gather(AirActs *a, const AirCode *c, AirBank bank) {
    memset(a, 0, sizeof *a);
    a->bank = bank;
    uint32_t ninsts = 0;
    a->first = xmalloc((c->nblocks + 1) * sizeof(uint32_t));
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        a->first[bi] = ninsts;
        ninsts += c->blocks[bi]->ninsts;
    }
    a->first[c->nblocks] = ninsts;
    a->start = xmalloc((2 * (size_t)ninsts + 1) * sizeof(uint32_t));
    GatherCtx g = {bank, a, 4 * ninsts + 16, NULL, 0, 0};
    a->v = xmalloc(g.cap * sizeof(AirAct));
    uint32_t i = 0;
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        for (uint32_t ii = 0; ii < b->ninsts; ii++, i++) {
            AirInst *inst = &b->insts[ii];
            a->start[2 * i] = a->nv;
            g.nlate = 0;
            air_for_each_tmp(c, inst, gather_tmp, &g);
            if (inst->special) {
                for (uint64_t m = bank_clobbers(&inst->special->early_clobber, bank); m; m &= m - 1)
                    gather_push(&g, (AirAct){(AirTmp)__builtin_ctzll(m), 1, 1});
                for (uint64_t m = bank_clobbers(&inst->special->late_clobber, bank); m; m &= m - 1)
                    gather_push_late(&g, (AirAct){(AirTmp)__builtin_ctzll(m), 1, 1});
            }
            a->start[2 * i + 1] = a->nv;
            for (uint32_t k = 0; k < g.nlate; k++)
                gather_push(&g, g.late[k]);
        }
    }
    a->start[2 * (size_t)ninsts] = a->nv;
    free(g.late);
}

void air_acts_free(AirActs *a) {
    free(a->v);
    free(a->start);
    free(a->first);
    memset(a, 0, sizeof *a);
}

void air_liveness_compute(AirLiveness *l, const AirCode *c, AirBank bank) {
    AirActs a;
    air_acts_gather(&a, c, bank);
    air_liveness_compute_acts(l, c, &a);
    air_acts_free(&a);
}

static void apply_acts(const AirAct *v, uint32_t lo, uint32_t hi, AirTmpSet *live) {
    for (uint32_t i = lo; i < hi; i++)
        if (v[i].def)
            air_tmpset_remove(live, v[i].tmp);
    for (uint32_t i = lo; i < hi; i++)
        if (!v[i].def)
            air_tmpset_add(live, v[i].tmp);
}

void air_liveness_compute_acts(AirLiveness *l, const AirCode *c, const AirActs *a) {
    memset(l, 0, sizeof *l);
    uint32_t n = c->nblocks, universe = AIR_FIRST_VTMP + c->ntmps;
    l->code = c;
    l->bank = a->bank;
    l->universe = universe;
    l->nblocks = n;
    l->live_in = calloc(n ? n : 1, sizeof(uint32_t *));
    l->live_out = calloc(n ? n : 1, sizeof(uint32_t *));
    l->nlive_in = calloc(n ? n : 1, sizeof(uint32_t));
    l->nlive_out = calloc(n ? n : 1, sizeof(uint32_t));
    uint32_t **kill = calloc(n ? n : 1, sizeof(uint32_t *));
    uint32_t *nkill = calloc(n ? n : 1, sizeof(uint32_t));
    if (!l->live_in || !l->live_out || !l->nlive_in || !l->nlive_out || !kill || !nkill)
        b3_internal_error("air liveness", "out of memory");

    AirTmpSet live;
    air_tmpset_init(&live, universe);
    AddSet alive, akilled;
    addset_init(&alive, universe);
    addset_init(&akilled, universe);

    /* Upward-exposed uses (the initial live-in) and defs of each block, walking
     * its boundaries backwards: inst k's early moment, then inst k-1's late one. */
    for (uint32_t bi = 0; bi < n; bi++) {
        air_tmpset_clear(&live);
        addset_clear(&akilled);
        const uint32_t *st = a->start + 2 * (size_t)a->first[bi];
        for (uint32_t k = c->blocks[bi]->ninsts + 1; k-- > 0;) {
            uint32_t elo = st[2 * k], ehi = k < c->blocks[bi]->ninsts ? st[2 * k + 1] : elo;
            uint32_t llo = k > 0 ? st[2 * k - 1] : elo, lhi = elo;
            for (uint32_t i = elo; i < ehi; i++)
                if (a->v[i].def)
                    addset_add(&akilled, a->v[i].tmp);
            for (uint32_t i = llo; i < lhi; i++)
                if (a->v[i].def)
                    addset_add(&akilled, a->v[i].tmp);
            apply_acts(a->v, elo, ehi, &live);
            apply_acts(a->v, llo, lhi, &live);
        }
        l->live_in[bi] = copy_set(&live);
        l->nlive_in[bi] = live.size;
        kill[bi] = copy_array(akilled.dense, akilled.size);
        nkill[bi] = akilled.size;
    }

    /* Predecessors as index lists, from the successors (b->preds may be stale). */
    uint32_t *pstart = calloc(n + 1, sizeof(uint32_t));
    uint32_t nedges = 0;
    for (uint32_t bi = 0; bi < n; bi++)
        for (uint32_t j = 0; j < c->blocks[bi]->nsuccs; j++) {
            pstart[c->blocks[bi]->succs[j].block->index + 1]++;
            nedges++;
        }
    for (uint32_t bi = 0; bi < n; bi++)
        pstart[bi + 1] += pstart[bi];
    uint32_t *pfill = xmalloc((n + 1) * sizeof(uint32_t)), *plist = xmalloc(nedges * sizeof(uint32_t));
    memcpy(pfill, pstart, (n + 1) * sizeof(uint32_t));
    for (uint32_t bi = 0; bi < n; bi++)
        for (uint32_t j = 0; j < c->blocks[bi]->nsuccs; j++)
            plist[pfill[c->blocks[bi]->succs[j].block->index]++] = bi;
    free(pfill);

    /* live_in = gen + (live_out - kill), iterated in post order until stable.
     * Sets only grow, so a size change is a change. */
    AirBlock **rpo = air_rpo(c);
    uint8_t *dirty = xmalloc(n);
    memset(dirty, 1, n);
    bool again = true;
    while (again) {
        again = false;
        for (uint32_t oi = n; oi-- > 0;) {
            AirBlock *b = rpo[oi];
            uint32_t bi = b->index;
            if (!dirty[bi])
                continue;
            dirty[bi] = 0;
            addset_clear(&akilled);
            for (uint32_t i = 0; i < nkill[bi]; i++)
                addset_add(&akilled, kill[bi][i]);
            addset_clear(&alive);
            for (uint32_t i = 0; i < l->nlive_in[bi]; i++)
                addset_add(&alive, l->live_in[bi][i]);
            uint32_t before = alive.size;
            for (uint32_t j = 0; j < b->nsuccs; j++) {
                uint32_t si = b->succs[j].block->index;
                for (uint32_t i = 0; i < l->nlive_in[si]; i++) {
                    uint32_t t = l->live_in[si][i];
                    if (!addset_has(&akilled, t))
                        addset_add(&alive, t);
                }
            }
            if (alive.size != before) {
                free(l->live_in[bi]);
                l->live_in[bi] = copy_array(alive.dense, alive.size);
                l->nlive_in[bi] = alive.size;
                for (uint32_t p = pstart[bi]; p < pstart[bi + 1]; p++)
                    dirty[plist[p]] = 1;
                again = true;
            }
        }
    }

    for (uint32_t bi = 0; bi < n; bi++) {
        AirBlock *b = c->blocks[bi];
        if (b->nsuccs == 1) {
            /* The successor's live-in (no duplicates, so the same order the set would give). */
            uint32_t si = b->succs[0].block->index;
            l->live_out[bi] = copy_array(l->live_in[si], l->nlive_in[si]);
            l->nlive_out[bi] = l->nlive_in[si];
        } else {
            addset_clear(&alive);
            for (uint32_t j = 0; j < b->nsuccs; j++) {
                uint32_t si = b->succs[j].block->index;
                for (uint32_t i = 0; i < l->nlive_in[si]; i++)
                    addset_add(&alive, l->live_in[si][i]);
            }
            l->live_out[bi] = copy_array(alive.dense, alive.size);
            l->nlive_out[bi] = alive.size;
        }
        free(kill[bi]);
    }

    free(kill);
    free(nkill);
    free(pstart);
    free(plist);
    free(rpo);
    free(dirty);
    air_tmpset_free(&live);
    addset_free(&alive);
    addset_free(&akilled);
}

void air_liveness_free_live_in(AirLiveness *l) {
    for (uint32_t i = 0; i < l->nblocks; i++) {
        free(l->live_in[i]);
        l->live_in[i] = NULL;
    }
}

void air_liveness_free(AirLiveness *l) {
    for (uint32_t i = 0; i < l->nblocks; i++) {
        free(l->live_in[i]);
        free(l->live_out[i]);
    }
    free(l->live_in);
    free(l->live_out);
    free(l->nlive_in);
    free(l->nlive_out);
    memset(l, 0, sizeof *l);
}

/* ---- bit matrices ---- */

/* One step of the 64x64 transpose: swaps the off-diagonal j x j sub-blocks. */
static inline void transpose_stage(uint64_t a[64], unsigned j, uint64_t m) {
    for (unsigned b = 0; b < 64; b += 2 * j)
        for (unsigned k = b; k < b + j; k++) {
            uint64_t t = ((a[k] >> j) ^ a[k + j]) & m;
            a[k + j] ^= t;
            a[k] ^= t << j;
        }
}

/* In place: bit j of a[i] becomes bit i of a[j]. */
static void transpose64(uint64_t a[64]) {
    transpose_stage(a, 32, 0x00000000ffffffffull);
    transpose_stage(a, 16, 0x0000ffff0000ffffull);
    transpose_stage(a, 8, 0x00ff00ff00ff00ffull);
    transpose_stage(a, 4, 0x0f0f0f0f0f0f0f0full);
    transpose_stage(a, 2, 0x3333333333333333ull);
    transpose_stage(a, 1, 0x5555555555555555ull);
}

/* 64x64 blocks at a time: block (i, j) |= transpose(block (j, i)) and back.
 * Edges recorded at defs mostly point to earlier tmps, so often one block
 * of a pair is empty and needs no transpose. */
void air_bitmatrix_symmetrize(uint64_t *bits, uint32_t words) {
    uint64_t x[64], y[64];
    for (uint32_t bi = 0; bi < words; bi++)
        for (uint32_t bj = bi; bj < words; bj++) {
            uint64_t *p = bits + (size_t)64 * bi * words + bj, *q = bits + (size_t)64 * bj * words + bi;
            uint64_t anyx = 0, anyy = 0;
            for (uint32_t r = 0; r < 64; r++) {
                x[r] = p[(size_t)r * words];
                y[r] = q[(size_t)r * words];
                anyx |= x[r];
                anyy |= y[r];
            }
            if (anyy) {
                transpose64(y);
                for (uint32_t r = 0; r < 64; r++)
                    p[(size_t)r * words] |= y[r];
            }
            if (anyx) {
                transpose64(x);
                for (uint32_t r = 0; r < 64; r++)
                    q[(size_t)r * words] |= x[r];
            }
        }
    for (uint32_t i = 0; i < 64 * words; i++)
        air_bit_clear(bits + (size_t)i * words, i);
}
