/* Air liveness: per-bank live-in/live-out by iterative dataflow, and a
 * backwards walker over inst boundaries (see liveness.h for the timing). */
#include "codegen/air/liveness.h"
#include "util/alloc.h"
#include "util/vec.h"

#include <stdlib.h>
#include <string.h>

void air_tmpset_init(AirTmpSet *s, uint32_t universe) {
    s->universe = universe;
    s->size = 0;
    s->dense = b3_xmalloc("air liveness", (size_t)universe * sizeof(uint32_t));
    /* calloc keeps tools like valgrind quiet; correctness does not need it. */
    s->sparse = b3_xcalloc("air liveness", universe ? universe : 1, sizeof(uint32_t));
}

void air_tmpset_free(AirTmpSet *s) {
    free(s->dense);
    free(s->sparse);
    memset(s, 0, sizeof *s);
}

/* ---- actions ---- */

static void push_action(AirActionList *l, AirAction a) {
    B3_VEC_RESERVE("air liveness", l->v, l->cap, l->n + 1);
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
    (void)c;
    ActCtx x = {bank, early, late};
    AirTmpIter it;
    AirTmpRef r;
    for (air_tmp_iter_init(&it, inst); air_tmp_iter_next(&it, &r);)
        act_of_tmp(&x, inst, r.tmp, r.role, r.bank, r.width);
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
    AirBlock **order = b3_xmalloc("air liveness", n * sizeof(AirBlock *));
    uint8_t *seen = b3_xcalloc("air liveness", n ? n : 1, 1);
    uint32_t *stack = b3_xmalloc("air liveness", n * sizeof(uint32_t)),
             *next = b3_xmalloc("air liveness", n * sizeof(uint32_t));
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
    uint32_t *v = b3_xmalloc("air liveness", n * sizeof(uint32_t));
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
    s->stamp = b3_xcalloc("air liveness", universe ? universe : 1, sizeof(uint32_t));
    s->dense = b3_xmalloc("air liveness", (size_t)universe * sizeof(uint32_t));
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

/* The pushes are inline, their growing is not: a push per mention. */
static void gather_grow(GatherCtx *g) { B3_VEC_RESERVE("air liveness", g->acts->v, g->cap, g->acts->nv + 1); }

static void gather_grow_late(GatherCtx *g) {
    B3_VEC_RESERVE("air liveness", g->late, g->cap_late, g->nlate + 1);
}

static inline void gather_push(GatherCtx *g, AirAct x) {
    if (g->acts->nv >= g->cap)
        gather_grow(g);
    g->acts->v[g->acts->nv++] = x;
}

static inline void gather_push_late(GatherCtx *g, AirAct x) {
    if (g->nlate >= g->cap_late)
        gather_grow_late(g);
    g->late[g->nlate++] = x;
}

static inline void gather_tmp(GatherCtx *g, const AirTmp *tmp, AirRole role, AirBank bank) {
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
    a->first = b3_xmalloc("air liveness", (c->nblocks + 1) * sizeof(uint32_t));
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        a->first[bi] = ninsts;
        ninsts += c->blocks[bi]->ninsts;
    }
    a->first[c->nblocks] = ninsts;
    a->start = b3_xmalloc("air liveness", (2 * (size_t)ninsts + 1) * sizeof(uint32_t));
    GatherCtx g = {bank, a, 4 * ninsts + 16, NULL, 0, 0};
    a->v = b3_xmalloc("air liveness", g.cap * sizeof(AirAct));
    uint32_t i = 0;
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        for (uint32_t ii = 0; ii < b->ninsts; ii++, i++) {
            AirInst *inst = &b->insts[ii];
            a->start[2 * i] = a->nv;
            g.nlate = 0;
            AirTmpIter it;
            AirTmpRef r;
            for (air_tmp_iter_init(&it, inst); air_tmp_iter_next(&it, &r);)
                gather_tmp(&g, r.tmp, r.role, r.bank);
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

void air_acts_gather_both(AirActs a[2], const AirCode *c) {
    uint32_t ninsts = 0;
    for (uint32_t bi = 0; bi < c->nblocks; bi++)
        ninsts += c->blocks[bi]->ninsts;
    GatherCtx g[2];
    for (int k = 0; k < 2; k++) {
        memset(&a[k], 0, sizeof a[k]);
        a[k].bank = (AirBank)k;
        a[k].first = b3_xmalloc("air liveness", (c->nblocks + 1) * sizeof(uint32_t));
        a[k].start = b3_xmalloc("air liveness", (2 * (size_t)ninsts + 1) * sizeof(uint32_t));
        g[k] = (GatherCtx){(AirBank)k, &a[k], (k == AirGP ? 4 * ninsts : ninsts) + 16, NULL, 0, 0};
        a[k].v = b3_xmalloc("air liveness", g[k].cap * sizeof(AirAct));
    }
    uint32_t i = 0;
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        a[0].first[bi] = a[1].first[bi] = i;
        for (uint32_t ii = 0; ii < b->ninsts; ii++, i++) {
            AirInst *inst = &b->insts[ii];
            for (int k = 0; k < 2; k++) {
                a[k].start[2 * i] = a[k].nv;
                g[k].nlate = 0;
            }
            AirTmpIter it;
            AirTmpRef r;
            for (air_tmp_iter_init(&it, inst); air_tmp_iter_next(&it, &r);)
                gather_tmp(&g[r.bank], r.tmp, r.role, r.bank);
            for (int k = 0; k < 2; k++) {
                if (inst->special) {
                    for (uint64_t m = bank_clobbers(&inst->special->early_clobber, (AirBank)k); m; m &= m - 1)
                        gather_push(&g[k], (AirAct){(AirTmp)__builtin_ctzll(m), 1, 1});
                    for (uint64_t m = bank_clobbers(&inst->special->late_clobber, (AirBank)k); m; m &= m - 1)
                        gather_push_late(&g[k], (AirAct){(AirTmp)__builtin_ctzll(m), 1, 1});
                }
                a[k].start[2 * i + 1] = a[k].nv;
                for (uint32_t j = 0; j < g[k].nlate; j++)
                    gather_push(&g[k], g[k].late[j]);
            }
        }
    }
    for (int k = 0; k < 2; k++) {
        a[k].first[c->nblocks] = ninsts;
        a[k].start[2 * (size_t)ninsts] = a[k].nv;
        free(g[k].late);
    }
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

/* Per-block facts for the dataflow: which tmps the block kills (defines) and
 * which are in its live-in so far, as an open-addressing table of
 * (tmp + 1) | flags.  Only a block's own tmps are stored, so the memory is
 * that of the sets themselves (a universe-sized array per block would be
 * blocks x tmps). */
#define BT_IN (1u << 31)
#define BT_KILL (1u << 30)
#define BT_KEY (BT_KILL - 1)

typedef struct {
    uint32_t *slot;
    uint32_t cap, count; /* cap is a power of two, or 0 */
    uint32_t shift;      /* 32 - log2(cap) */
} BlockTable;

static uint32_t *bt_find(BlockTable *bt, uint32_t t) {
    uint32_t mask = bt->cap - 1, key = t + 1;
    /* Fibonacci hashing: the product's top bits mix all of t's bits. */
    for (uint32_t i = (t * 0x9e3779b1u) >> bt->shift;; i = (i + 1) & mask) {
        uint32_t e = bt->slot[i];
        if ((e & BT_KEY) == key || !e)
            return &bt->slot[i];
    }
}

static void bt_grow(BlockTable *bt) {
    BlockTable n = {NULL, bt->cap ? bt->cap * 2 : 16, bt->count, bt->cap ? bt->shift - 1 : 28};
    n.slot = b3_xcalloc("air liveness", n.cap, sizeof(uint32_t));
    for (uint32_t i = 0; i < bt->cap; i++)
        if (bt->slot[i])
            *bt_find(&n, (bt->slot[i] & BT_KEY) - 1) = bt->slot[i];
    free(bt->slot);
    *bt = n;
}

/* The flags of t (0 if absent), made present so the caller may set them. */
static uint32_t *bt_entry(BlockTable *bt, uint32_t t) {
    if ((bt->count + 1) * 2 > bt->cap)
        bt_grow(bt);
    uint32_t *e = bt_find(bt, t);
    if (!*e) {
        *e = t + 1;
        bt->count++;
    }
    return e;
}

/* A max-heap of post-order positions: the blocks still to visit in a sweep. */
typedef struct {
    uint32_t *v, n;
} PosHeap;

static void heap_push(PosHeap *h, uint32_t x) {
    uint32_t i = h->n++;
    while (i && h->v[(i - 1) / 2] < x) {
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i] = x;
}

static uint32_t heap_pop(PosHeap *h) {
    uint32_t top = h->v[0], x = h->v[--h->n], i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->v[c + 1] > h->v[c])
            c++;
        if (h->v[c] <= x)
            break;
        h->v[i] = h->v[c];
        i = c;
    }
    if (h->n)
        h->v[i] = x;
    return top;
}

void air_liveness_init(AirLiveness *l, const AirCode *c, AirBank bank, uint32_t universe) {
    uint32_t n = c->nblocks;
    memset(l, 0, sizeof *l);
    l->code = c;
    l->bank = bank;
    l->universe = universe;
    l->nblocks = n;
    l->live_in = b3_xcalloc("air liveness", n ? n : 1, sizeof(uint32_t *));
    l->live_out = b3_xcalloc("air liveness", n ? n : 1, sizeof(uint32_t *));
    l->nlive_in = b3_xcalloc("air liveness", n ? n : 1, sizeof(uint32_t));
    l->nlive_out = b3_xcalloc("air liveness", n ? n : 1, sizeof(uint32_t));
}

/* budget: for the ordered dataflow (UINT64_MAX: none); 0: unordered. */
static bool compute_acts(AirLiveness *l, const AirCode *c, const AirActs *a, uint64_t budget) {
    uint32_t n = c->nblocks, universe = AIR_FIRST_VTMP + c->ntmps;
    air_liveness_init(l, c, a->bank, universe);
    uint32_t **kill = b3_xcalloc("air liveness", n ? n : 1, sizeof(uint32_t *));
    uint32_t *nkill = b3_xcalloc("air liveness", n ? n : 1, sizeof(uint32_t));
    AirTmpSet live;
    air_tmpset_init(&live, universe);
    AddSet akilled;
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
    air_tmpset_free(&live);
    addset_free(&akilled);
    bool done = true;
    if (budget)
        done = air_liveness_solve_bounded(l, kill, nkill, budget);
    else
        air_liveness_solve_unordered(l, kill, nkill);
    for (uint32_t bi = 0; bi < n; bi++)
        free(kill[bi]);
    free(kill);
    free(nkill);
    if (!done)
        air_liveness_free(l);
    return done;
}

void air_liveness_compute_acts(AirLiveness *l, const AirCode *c, const AirActs *a) {
    compute_acts(l, c, a, UINT64_MAX);
}

bool air_liveness_compute_acts_bounded(AirLiveness *l, const AirCode *c, const AirActs *a, uint64_t budget) {
    return compute_acts(l, c, a, budget ? budget : 1);
}

void air_liveness_compute_acts_unordered(AirLiveness *l, const AirCode *c, const AirActs *a) {
    compute_acts(l, c, a, 0);
}

/* A block's first visits test membership with stamps (loading its sets
 * costs their size, as a visit's scan does anyway); a block visited more
 * often gets a table, so that later visits cost only what they add. */
#define TABLE_AFTER_VISITS 2

bool air_liveness_solve_bounded(AirLiveness *l, uint32_t *const *kill, const uint32_t *nkill,
                                uint64_t budget) {
    const AirCode *c = l->code;
    uint32_t n = c->nblocks, universe = l->universe;
    if (universe >= BT_KEY)
        b3_internal_error("air liveness", "too many tmps (%u)", universe);
    uint32_t *cap_in = b3_xmalloc("air liveness", (n ? n : 1) * sizeof(uint32_t));
    uint32_t *visits = b3_xcalloc("air liveness", n ? n : 1, sizeof(uint32_t));
    BlockTable *table = b3_xcalloc("air liveness", n ? n : 1, sizeof(BlockTable));
    memcpy(cap_in, l->nlive_in, n * sizeof(uint32_t));

    /* Predecessors as index lists, from the successors (b->preds may be stale). */
    uint32_t *pstart = b3_xcalloc("air liveness", n + 1, sizeof(uint32_t));
    uint32_t *estart = b3_xmalloc("air liveness", (n + 1) * sizeof(uint32_t));
    uint32_t nedges = 0;
    for (uint32_t bi = 0; bi < n; bi++) {
        estart[bi] = nedges;
        for (uint32_t j = 0; j < c->blocks[bi]->nsuccs; j++) {
            pstart[c->blocks[bi]->succs[j].block->index + 1]++;
            nedges++;
        }
    }
    estart[n] = nedges;
    for (uint32_t bi = 0; bi < n; bi++)
        pstart[bi + 1] += pstart[bi];
    uint32_t *pfill = b3_xmalloc("air liveness", (n + 1) * sizeof(uint32_t)),
             *plist = b3_xmalloc("air liveness", (nedges ? nedges : 1) * sizeof(uint32_t));
    memcpy(pfill, pstart, (n + 1) * sizeof(uint32_t));
    for (uint32_t bi = 0; bi < n; bi++)
        for (uint32_t j = 0; j < c->blocks[bi]->nsuccs; j++)
            plist[pfill[c->blocks[bi]->succs[j].block->index]++] = bi;
    free(pfill);
    /* How much of the successor's live-in each edge has already passed on:
     * live-in sets only grow at their end, so a visit reads only what is new. */
    uint32_t *scanned = b3_xcalloc("air liveness", nedges ? nedges : 1, sizeof(uint32_t));
    AddSet alive, akilled;
    addset_init(&alive, universe);
    addset_init(&akilled, universe);

    /* live_in = gen + (live_out - kill), by sweeps in post order that visit
     * only the blocks whose successors' live-in grew: a block whose pred comes
     * later in the sweep is visited in this sweep, else in the next one (the
     * order, and so the order of each set, of a sweep over all blocks that
     * skips the clean ones).  A visit reads only what is new in the
     * successors' sets. */
    AirBlock **rpo = air_rpo(c);
    uint32_t *pos = b3_xmalloc("air liveness", (n ? n : 1) * sizeof(uint32_t));
    for (uint32_t oi = 0; oi < n; oi++)
        pos[rpo[oi]->index] = oi;
    uint8_t *dirty = b3_xmalloc("air liveness", n ? n : 1);
    memset(dirty, 1, n);
    PosHeap cur = {b3_xmalloc("air liveness", (n ? n : 1) * sizeof(uint32_t)), 0};
    PosHeap next = {b3_xmalloc("air liveness", (n ? n : 1) * sizeof(uint32_t)), 0};
    for (uint32_t oi = 0; oi < n; oi++)
        heap_push(&cur, oi);
    uint64_t work = 0;
    bool done = true;
    while (cur.n && done) {
        while (cur.n) {
            uint32_t oi = heap_pop(&cur);
            AirBlock *b = rpo[oi];
            uint32_t bi = b->index, before = l->nlive_in[bi];
            dirty[bi] = 0;
            BlockTable *bt = NULL;
            if (++visits[bi] > TABLE_AFTER_VISITS) {
                bt = &table[bi];
                if (!bt->cap) {
                    for (uint32_t i = 0; i < l->nlive_in[bi]; i++)
                        *bt_entry(bt, l->live_in[bi][i]) |= BT_IN;
                    for (uint32_t i = 0; i < nkill[bi]; i++)
                        *bt_entry(bt, kill[bi][i]) |= BT_KILL;
                    work += l->nlive_in[bi] + nkill[bi];
                }
            } else {
                addset_clear(&akilled);
                for (uint32_t i = 0; i < nkill[bi]; i++)
                    addset_add(&akilled, kill[bi][i]);
                addset_clear(&alive);
                for (uint32_t i = 0; i < l->nlive_in[bi]; i++)
                    addset_add(&alive, l->live_in[bi][i]);
                work += l->nlive_in[bi] + nkill[bi];
            }
            for (uint32_t j = 0; j < b->nsuccs; j++) {
                uint32_t si = b->succs[j].block->index, e = estart[bi] + j;
                work += 1 + l->nlive_in[si] - scanned[e];
                for (uint32_t i = scanned[e]; i < l->nlive_in[si]; i++) {
                    uint32_t t = l->live_in[si][i];
                    if (bt) {
                        uint32_t *f = bt_entry(bt, t);
                        if (*f & (BT_IN | BT_KILL))
                            continue;
                        *f |= BT_IN;
                    } else {
                        if (addset_has(&akilled, t) || addset_has(&alive, t))
                            continue;
                        addset_add(&alive, t);
                    }
                    B3_VEC_RESERVE("air liveness", l->live_in[bi], cap_in[bi], l->nlive_in[bi] + 1);
                    l->live_in[bi][l->nlive_in[bi]++] = t;
                }
                scanned[e] = l->nlive_in[si];
            }
            if (work > budget) {
                done = false;
                break;
            }
            if (l->nlive_in[bi] == before)
                continue;
            for (uint32_t p = pstart[bi]; p < pstart[bi + 1]; p++) {
                uint32_t pi = plist[p];
                if (dirty[pi])
                    continue;
                dirty[pi] = 1;
                heap_push(pos[pi] < oi ? &cur : &next, pos[pi]);
            }
        }
        PosHeap t = cur;
        cur = next;
        next = t;
    }
    for (uint32_t bi = 0; bi < n; bi++)
        free(table[bi].slot);
    free(table);

    for (uint32_t bi = 0; bi < n && done; bi++) {
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
    }

    free(cap_in);
    free(visits);
    free(pstart);
    free(estart);
    free(plist);
    free(scanned);
    free(rpo);
    free(pos);
    free(dirty);
    free(cur.v);
    free(next.v);
    addset_free(&alive);
    addset_free(&akilled);
    return done;
}

void air_liveness_solve(AirLiveness *l, uint32_t *const *kill, const uint32_t *nkill) {
    air_liveness_solve_bounded(l, kill, nkill, UINT64_MAX);
}

/* Per number, from the blocks that use it first up through the predecessors
 * until a block that defines it (path exploration): each (block, number)
 * pair of the result is reached once per incoming edge, with stamps over the
 * blocks rather than tables per block.  Only live-out is computed. */
void air_liveness_solve_unordered(AirLiveness *l, uint32_t *const *kill, const uint32_t *nkill) {
    const AirCode *c = l->code;
    uint32_t n = c->nblocks, universe = l->universe;
    if (universe >= BT_KEY)
        b3_internal_error("air liveness", "too many tmps (%u)", universe);
    /* The blocks whose gen / kill mention each number (CSR by number). */
    uint32_t *gstart = b3_xcalloc("air liveness", (size_t)universe + 1, sizeof(uint32_t));
    uint32_t *kstart = b3_xcalloc("air liveness", (size_t)universe + 1, sizeof(uint32_t));
    size_t ngen = 0, nk = 0;
    for (uint32_t bi = 0; bi < n; bi++) {
        for (uint32_t i = 0; i < l->nlive_in[bi]; i++, ngen++)
            gstart[l->live_in[bi][i] + 1]++;
        for (uint32_t i = 0; i < nkill[bi]; i++, nk++)
            kstart[kill[bi][i] + 1]++;
    }
    for (uint32_t t = 0; t < universe; t++) {
        gstart[t + 1] += gstart[t];
        kstart[t + 1] += kstart[t];
    }
    uint32_t *gblk = b3_xmalloc("air liveness", (ngen ? ngen : 1) * sizeof(uint32_t)),
             *kblk = b3_xmalloc("air liveness", (nk ? nk : 1) * sizeof(uint32_t));
    uint32_t *fill = b3_xmalloc("air liveness", ((size_t)universe + 1) * sizeof(uint32_t));
    memcpy(fill, gstart, ((size_t)universe + 1) * sizeof(uint32_t));
    for (uint32_t bi = 0; bi < n; bi++)
        for (uint32_t i = 0; i < l->nlive_in[bi]; i++)
            gblk[fill[l->live_in[bi][i]]++] = bi;
    memcpy(fill, kstart, ((size_t)universe + 1) * sizeof(uint32_t));
    for (uint32_t bi = 0; bi < n; bi++)
        for (uint32_t i = 0; i < nkill[bi]; i++)
            kblk[fill[kill[bi][i]]++] = bi;
    free(fill);

    /* Predecessor lists, as in air_liveness_solve. */
    uint32_t *pstart = b3_xcalloc("air liveness", n + 1, sizeof(uint32_t)), nedges = 0;
    for (uint32_t bi = 0; bi < n; bi++)
        for (uint32_t j = 0; j < c->blocks[bi]->nsuccs; j++, nedges++)
            pstart[c->blocks[bi]->succs[j].block->index + 1]++;
    for (uint32_t bi = 0; bi < n; bi++)
        pstart[bi + 1] += pstart[bi];
    uint32_t *pfill = b3_xmalloc("air liveness", (n + 1) * sizeof(uint32_t)),
             *plist = b3_xmalloc("air liveness", (nedges ? nedges : 1) * sizeof(uint32_t));
    memcpy(pfill, pstart, (n + 1) * sizeof(uint32_t));
    for (uint32_t bi = 0; bi < n; bi++)
        for (uint32_t j = 0; j < c->blocks[bi]->nsuccs; j++)
            plist[pfill[c->blocks[bi]->succs[j].block->index]++] = bi;
    free(pfill);

    /* Stamps are number + 1 (0: never); a second pass (stamps offset by
     * universe) fills exactly sized live-out arrays: the sets can be huge
     * (a deep loop nest's counters in every block inside), so no slack. */
    uint32_t *in_mark = b3_xcalloc("air liveness", n ? n : 1, sizeof(uint32_t)),
             *out_mark = b3_xcalloc("air liveness", n ? n : 1, sizeof(uint32_t));
    uint32_t *kill_mark = b3_xcalloc("air liveness", n ? n : 1, sizeof(uint32_t)),
             *stack = b3_xmalloc("air liveness", (n ? n : 1) * sizeof(uint32_t));
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t t = 0; t < universe; t++) {
            if (gstart[t] == gstart[t + 1])
                continue;
            uint32_t stamp = t + 1 + (pass ? universe : 0), sp = 0;
            for (uint32_t i = kstart[t]; i < kstart[t + 1]; i++)
                kill_mark[kblk[i]] = stamp;
            for (uint32_t i = gstart[t]; i < gstart[t + 1]; i++) {
                in_mark[gblk[i]] = stamp;
                stack[sp++] = gblk[i];
            }
            while (sp) {
                uint32_t b = stack[--sp];
                for (uint32_t e = pstart[b]; e < pstart[b + 1]; e++) {
                    uint32_t p = plist[e];
                    if (out_mark[p] != stamp) {
                        out_mark[p] = stamp;
                        if (pass)
                            l->live_out[p][l->nlive_out[p]] = t;
                        l->nlive_out[p]++;
                    }
                    if (in_mark[p] == stamp || kill_mark[p] == stamp)
                        continue;
                    in_mark[p] = stamp;
                    stack[sp++] = p;
                }
            }
        }
        if (pass)
            break;
        for (uint32_t bi = 0; bi < n; bi++) {
            free(l->live_out[bi]);
            l->live_out[bi] =
                b3_xmalloc("air liveness", (l->nlive_out[bi] ? l->nlive_out[bi] : 1) * sizeof(uint32_t));
            l->nlive_out[bi] = 0;
        }
    }
    free(gstart);
    free(kstart);
    free(gblk);
    free(kblk);
    free(pstart);
    free(plist);
    free(in_mark);
    free(out_mark);
    free(kill_mark);
    free(stack);
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
