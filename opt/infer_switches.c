/* infer_switches (-O2): B3's inferSwitches.
 *
 * A block that branches on one integer value x compared with constants
 * (Branch(Equal(x, k)), Branch(NotEqual(x, k)), Branch(x), read as a switch
 * with the one case k, or 0, or a Switch(x)) describes a switch on x with a
 * fall-through: its default.  When that default is a block reached from
 * nowhere else that does nothing but test x against constants (its values:
 * the terminal, the comparison it alone uses, the constants only that
 * comparison uses), the test is folded into the first block: its cases join
 * the first block's switch, except those whose value the first block already
 * decides (x cannot have them on the fall-through edge), and its default
 * becomes the new fall-through.  A chain of such blocks becomes one Switch,
 * lowered to a jump table or a binary search (lower/lower_to_air.c).
 *
 * Unlike B3, which merges a block into its predecessor one pair at a time
 * (copying the grown case list each time), the blocks are visited in
 * reverse postorder and the first block of a chain absorbs the whole chain
 * at once: the cases are appended to one growing list with a hash set of
 * the values seen, so a chain of n tests costs O(n).
 *
 * Nothing else changes: the merged blocks become unreachable and are
 * dropped, and the first block's comparison, if the Branch was its only
 * use, becomes a Nop. */
#include <stdlib.h>
#include <string.h>

#include "ir/cfg_order.h"
#include "ir/ice.h"
#include "ir/use_counts.h"
#include "opt/phases.h"
#include "util/alloc.h"

#define PHASE "infer_switches"

/* A block's terminal read as a switch on x: its cases (value, successor
 * index) and the successor index of its fall-through. */
typedef struct {
    B3Value *x;
    B3Value *cmp; /* the Equal/NotEqual the Branch tests, or NULL */
    int64_t value[1];
    uint32_t target[1];
    uint32_t ncases; /* for a Branch; a Switch's cases are its meta */
    uint32_t fall;
} Desc;

static bool describe(const B3Block *b, Desc *d) {
    B3Value *t = b3_block_last(b);
    if (!t || t->nkids != 1)
        return false;
    memset(d, 0, sizeof *d);
    B3Value *c = t->kids[0];
    if (t->opcode == B3_Switch) {
        if (!b3_type_is_int((B3Type)c->type) || t->m.sw.ncases + 1 != b->nsuccs)
            return false;
        d->x = c;
        d->fall = t->m.sw.ncases;
        return true;
    }
    if (t->opcode != B3_Branch || b->nsuccs != 2)
        return false;
    int64_t k;
    if ((c->opcode == B3_Equal || c->opcode == B3_NotEqual) && b3_type_is_int((B3Type)c->kids[0]->type)) {
        B3Value *x = c->kids[0], *kv = c->kids[1];
        if (!b3_value_int_const(kv, &k)) {
            x = c->kids[1];
            kv = c->kids[0];
            if (!b3_value_int_const(kv, &k))
                return false;
        }
        int64_t other;
        if (b3_value_int_const(x, &other))
            return false; /* both constant: reduce_strength's business */
        d->x = x;
        d->cmp = c;
        d->value[0] = k;
        bool eq = c->opcode == B3_Equal;
        d->target[0] = eq ? 0 : 1;
        d->fall = eq ? 1 : 0;
        d->ncases = 1;
        return true;
    }
    if (b3_value_int_const(c, &k))
        return false;
    d->x = c; /* Branch(x): x == 0 goes to the else successor */
    d->value[0] = 0;
    d->target[0] = 1;
    d->fall = 0;
    d->ncases = 1;
    return true;
}

static uint32_t desc_ncases(const B3Block *b, const Desc *d) {
    return b3_block_last(b)->opcode == B3_Switch ? b3_block_last(b)->m.sw.ncases : d->ncases;
}
static int64_t desc_value(const B3Block *b, const Desc *d, uint32_t i) {
    const B3Value *t = b3_block_last(b);
    if (t->opcode != B3_Switch)
        return d->value[i];
    int64_t v = t->m.sw.cases[i];
    return d->x->type == B3_Int32 ? (int64_t)(int32_t)v : v;
}
static uint32_t desc_target(const B3Block *b, const Desc *d, uint32_t i) {
    return b3_block_last(b)->opcode == B3_Switch ? i : d->target[i];
}

/* Does c test d's value and nothing else? */
static bool only_test(const B3Block *c, const B3Value *x, const B3UseCounts *uc, Desc *cd) {
    if (!describe(c, cd) || cd->x != x)
        return false;
    for (uint32_t i = 0; i + 1 < c->nvalues; i++) {
        B3Value *w = c->values[i];
        if (w == cd->cmp) {
            if (b3_use_count(uc, w) != 1)
                return false;
            continue;
        }
        if (!b3_value_is_const(w) || !cd->cmp || cd->cmp->owner != c)
            return false;
        uint32_t here = (cd->cmp->kids[0] == w) + (cd->cmp->kids[1] == w);
        if (!here || b3_use_count(uc, w) != here)
            return false;
    }
    return true;
}

/* Open-addressing set of case values (the merged switch's), grown by doubling. */
typedef struct {
    int64_t *keys;
    uint8_t *used;
    uint32_t cap, count;
} ValueSet;

static uint32_t hash64(int64_t v) {
    uint64_t h = (uint64_t)v * 0x9e3779b97f4a7c15ull;
    return (uint32_t)(h >> 32);
}

static bool set_add(ValueSet *s, int64_t v);

static void set_grow(ValueSet *s) {
    ValueSet old = *s;
    s->cap = old.cap ? old.cap * 2 : 16;
    s->keys = b3_xrealloc(PHASE, NULL, s->cap * sizeof *s->keys);
    s->used = b3_xcalloc(PHASE, s->cap, 1);
    s->count = 0;
    for (uint32_t i = 0; i < old.cap; i++)
        if (old.used[i])
            set_add(s, old.keys[i]);
    free(old.keys);
    free(old.used);
}

/* Adds v; false if it was there. */
static bool set_add(ValueSet *s, int64_t v) {
    if (2 * (s->count + 1) > s->cap)
        set_grow(s);
    uint32_t i = hash64(v) & (s->cap - 1);
    while (s->used[i]) {
        if (s->keys[i] == v)
            return false;
        i = (i + 1) & (s->cap - 1);
    }
    s->used[i] = 1;
    s->keys[i] = v;
    s->count++;
    return true;
}

static void set_clear(ValueSet *s) {
    if (s->used)
        memset(s->used, 0, s->cap);
    s->count = 0;
}

typedef struct {
    int64_t *values;
    B3Succ *succs; /* one per value, then room for the default */
    uint32_t n, cap;
} CaseList;

static void case_add(CaseList *l, int64_t v, B3Succ s) {
    if (l->n + 2 > l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->values = b3_xrealloc(PHASE, l->values, l->cap * sizeof *l->values);
        l->succs = b3_xrealloc(PHASE, l->succs, l->cap * sizeof *l->succs);
    }
    l->values[l->n] = v;
    l->succs[l->n] = s;
    l->n++;
}

/* Adds b's cases (those not decided already) to the list. */
static void add_cases(CaseList *l, ValueSet *seen, const B3Block *b, const Desc *d) {
    uint32_t n = desc_ncases(b, d);
    for (uint32_t i = 0; i < n; i++) {
        int64_t v = desc_value(b, d, i);
        if (set_add(seen, v))
            case_add(l, v, b->succs[desc_target(b, d, i)]);
    }
}

/* How many of b's successor edges go to c (a case may share the fall-through's target). */
static uint32_t edges(const B3Block *b, const B3Block *c) {
    uint32_t k = 0;
    for (uint32_t i = 0; i < b->nsuccs; i++)
        k += b->succs[i].block == c;
    return k;
}

bool b3_infer_switches(B3Module *m, B3Proc *p) {
    if (p->nblocks < 2)
        return false;
    B3UseCounts uc;
    b3_use_counts_compute(&uc, p);
    B3Block **rpo;
    uint32_t n = b3_blocks_reverse_postorder(p, &rpo);
    uint8_t *merged = b3_xcalloc(PHASE, p->nblocks, 1);
    ValueSet seen = {0};
    CaseList cl = {0};
    bool changed = false;
    for (uint32_t r = 0; r < n; r++) {
        B3Block *h = rpo[r];
        Desc hd, cd;
        if (merged[h->pos] || !describe(h, &hd))
            continue;
        B3Succ fall = h->succs[hd.fall];
        bool any = false;
        B3Block *prev = h;
        for (;;) {
            B3Block *c = fall.block;
            if (c == h || c == p->blocks[0] || c->npreds != 1 || merged[c->pos] || edges(prev, c) != 1 ||
                !only_test(c, hd.x, &uc, &cd))
                break;
            if (!any) {
                set_clear(&seen);
                cl.n = 0;
                add_cases(&cl, &seen, h, &hd);
                any = true;
            }
            add_cases(&cl, &seen, c, &cd);
            merged[c->pos] = 1;
            fall = c->succs[cd.fall];
            prev = c;
        }
        if (!any)
            continue;
        changed = true;
        B3Value *t = b3_block_last(h);
        if (hd.cmp && hd.cmp->owner == h && b3_use_count(&uc, hd.cmp) == 1)
            b3_value_replace_with_nop(hd.cmp);
        t->opcode = B3_Switch;
        t->kids[0] = hd.x;
        t->m.sw.ncases = cl.n;
        t->m.sw.cases = b3_arena_alloc(&m->arena, (cl.n ? cl.n : 1) * sizeof(int64_t));
        memcpy(t->m.sw.cases, cl.values, cl.n * sizeof(int64_t));
        h->succs = b3_arena_alloc(&m->arena, (cl.n + 1) * sizeof(B3Succ));
        memcpy(h->succs, cl.succs, cl.n * sizeof(B3Succ));
        h->succs[cl.n] = fall;
        h->nsuccs = cl.n + 1;
    }
    free(seen.keys);
    free(seen.used);
    free(cl.values);
    free(cl.succs);
    free(merged);
    free(rpo);
    b3_use_counts_free(&uc);
    if (changed) {
        b3_proc_remove_nops(m, p);
        b3_proc_compute_preds(m, p);
        b3_proc_remove_unreachable(m, p);
    }
    return changed;
}
