/* eliminate_common_subexpressions (-O2): B3's eliminateCommonSubexpressions.
 *
 * One walk of the dominator tree (each block after its immediate dominator),
 * with two scoped tables of what the block's dominators made available:
 *
 * - Pure values (b3_value_is_pure; also integer divisions, FOLDABLE values
 *   whose only effect is that they may fault: a dominating identical one has
 *   faulted already or will not) are numbered by (opcode, kind flags, type,
 *   children, meta); one equal to a value of a dominator, or earlier in its
 *   block, becomes an Identity of it.  Commutative opcodes match with their
 *   children in either order.  Constants are pure values too, numbered by
 *   their bits: a front end writes one per use, so without merging them
 *   x + 1 and x + 1 (or two loads of w[i - 15]) would have different
 *   children and never match.  The long live ranges this makes are undone
 *   by move_constants, which places every constant again after the
 *   optimizations (integer ones become immediates anyway).  Opaque and
 *   Identity are left alone.
 *
 * - Memory facts: after a load or store, "the N bytes at ptr + offset hold
 *   the low N bytes of value V", for the access's heap range, until a value
 *   writes an overlapping range (b3_effects: stores, calls, atomics, fences,
 *   acquire loads).  A later load of the same pointer value, offset and range
 *   that those bytes cover becomes V (through Trunc, a BitAnd mask or
 *   SExt8/16 when it is narrower: exact on a little-endian target); a store
 *   of V itself to those bytes is redundant.  In a block the facts follow
 *   the values; a fact at the end of a dominator D serves a block C only if
 *   nothing in C before the access writes the range and no block on any
 *   path from D to C does (a backward search from C that stops at D, as
 *   B3's; bounded, it gives up rather than grow quadratic).
 *
 * - Dead stores: a store overwritten later in its block (same pointer value
 *   and offset, at least as wide, a range that contains the first's) with
 *   nothing in between that may read it (an overlapping read, a side exit, a
 *   fence).
 *
 * Never touched: Opaque; atomics (they only clobber); acquire loads and
 * release stores (they clobber their fence range, and serve as no fact); a
 * Load<Traps> is replaced only from a trapping access of the same bytes,
 * which proved them readable, so no trap is lost; a Store<Traps> is never
 * removed and kills no earlier store.  Not done, where B3 does more: a load
 * available from several predecessors (B3 merges them with new Phis), stores
 * dead across blocks, WasmAddress. */
#include <stdlib.h>
#include <string.h>

#include "ir/dominators.h"
#include "ir/effects.h"
#include "ir/heap_set.h"
#include "ir/ice.h"
#include "ir/insertion_set.h"
#include "opt/phases.h"
#include "util/alloc.h"
#include "util/vec.h"

#define PHASE "eliminate_common_subexpressions"

/* Bounds that keep the phase linear on any input; real code stays far below. */
#define MAX_FACTS 64        /* facts live in one block: a clobber costs O(MAX_FACTS) */
#define MAX_CANDIDATES 16   /* same-address facts of dominators one lookup tries */
#define SEARCH_BLOCKS 128   /* blocks one backward search may visit */
#define SEARCH_PER_BLOCK 16 /* and in all, per block of the procedure */
#define MAX_KILLS 16        /* later stores the dead-store scan remembers */

/* What the bits of a fact's value above its width are. */
enum { Ext_Full, Ext_Zero, Ext_Sign, Ext_None };

/* The `width` bytes at ptr + offset hold the low `width` bytes of val. */
typedef struct {
    B3Value *ptr, *val;
    B3HeapRange range;
    int32_t offset;
    uint8_t width, ext;
    bool traps; /* a trapping access proved the bytes readable */
} Fact;

typedef struct {
    B3Value *v;
    uint32_t hash, next; /* next: 1 + index of the next entry of the bucket, 0: none */
} PureEntry;

typedef struct {
    Fact f;
    B3Block *block; /* the fact holds at this block's end */
    uint32_t hash, next;
} TailEntry;

/* A dominator-tree node on the walk's stack, with where its entries start. */
typedef struct {
    B3Block *block;
    uint32_t npure, ntail;
} Scope;

typedef struct {
    B3Module *m;
    B3Proc *p;
    B3Dominators dom;
    B3HeapSet *writes; /* by block position: what the whole block writes */

    PureEntry *pure;
    uint32_t npure, *pure_head, pure_mask;
    TailEntry *tail;
    uint32_t ntail, cap_tail, *tail_head, tail_mask;
    Scope *scopes;
    uint32_t nscopes;

    /* The block being processed. */
    B3Block *blk;
    Fact facts[MAX_FACTS]; /* oldest first */
    uint32_t nfacts;
    B3HeapSet local_writes; /* what the block wrote so far */
    B3InsertionSet ins;

    /* Backward searches: blocks marked with the current epoch are seen. */
    uint32_t *mark, epoch;
    B3Block **work;
    uint64_t budget;
    struct {
        B3Block *from, *to;
        B3HeapRange range;
        bool clear;
    } last;
    bool changed;
} Cse;

static uint32_t pow2_at_least(uint64_t n) {
    uint32_t c = 16;
    while (c < n && c < (1u << 31))
        c <<= 1;
    return c;
}

static uint32_t mix(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return (uint32_t)h;
}

static bool same_range(B3HeapRange a, B3HeapRange b) { return a.begin == b.begin && a.end == b.end; }
static bool range_contains(B3HeapRange outer, B3HeapRange inner) {
    return outer.begin <= inner.begin && inner.end <= outer.end;
}

/* ---- pure values ------------------------------------------------------------ */

static uint32_t op_flags(const B3Value *v) { return b3_op((B3Opcode)v->opcode)->flags; }

static bool commutes(const B3Value *v) { return (op_flags(v) & B3OF_COMMUTATIVE) && v->nkids == 2; }

/* May v be replaced by an equal value that dominates it? */
static bool pure_candidate(const B3Value *v) {
    uint32_t fl = op_flags(v);
    if (v->opcode == B3_Identity)
        return false;
    if (!b3_value_is_pure(v)) {
        /* A computation that may only fault (an integer division): the
         * dominating twin already ran with the same operands. */
        B3Effects e = b3_effects(v);
        e.control_dependent = false;
        if (!(fl & B3OF_FOLDABLE) || !b3_effects_none(e))
            return false;
    }
    switch ((B3MetaClass)b3_op((B3Opcode)v->opcode)->meta) {
    case B3M_NONE:
    case B3M_CONST:
    case B3M_SLOT:
    case B3M_REG:
    case B3M_SYMBOL:
        return true;
    default:
        return false; /* no pure opcode carries other meta data */
    }
}

static uint64_t meta_key(const B3Value *v) {
    switch ((B3MetaClass)b3_op((B3Opcode)v->opcode)->meta) {
    case B3M_CONST:
        return b3_const_bits(v) * 0x9e3779b97f4a7c15ull;
    case B3M_SLOT:
        return (uintptr_t)v->m.slot;
    case B3M_REG:
        return v->m.reg;
    case B3M_SYMBOL:
        return (uintptr_t)v->m.symbol.sym ^ (uint64_t)v->m.symbol.offset * 0x9e3779b97f4a7c15ull;
    default:
        return 0;
    }
}

static bool same_meta(const B3Value *a, const B3Value *b) {
    switch ((B3MetaClass)b3_op((B3Opcode)a->opcode)->meta) {
    case B3M_CONST: /* bits, not values: -0.0 and 0.0 stay apart */
        return b3_const_bits(a) == b3_const_bits(b);
    case B3M_SLOT:
        return a->m.slot == b->m.slot;
    case B3M_REG:
        return a->m.reg == b->m.reg;
    case B3M_SYMBOL:
        return a->m.symbol.sym == b->m.symbol.sym && a->m.symbol.offset == b->m.symbol.offset;
    default:
        return true;
    }
}

/* A value without children (SlotBase, SymbolAddress, ArgumentReg,
 * FramePointer) is merged only within its block, so its block is part of
 * its key: the lowering computes it in place with at most one lea, which
 * beats a register held from one block into others.  Constants are merged
 * across blocks: move_constants places them again. */
static uint64_t leaf_block(const B3Value *v) {
    return v->nkids || (op_flags(v) & B3OF_CONST) ? 0 : (uint64_t)v->owner->index + 1;
}

static uint32_t pure_hash(const B3Value *v) {
    uint64_t h = (uint64_t)v->opcode << 40 ^ (uint64_t)v->kflags << 32 ^ (uint64_t)v->type << 24 ^ v->nkids ^
                 leaf_block(v) << 44;
    if (commutes(v)) {
        /* Either order hashes alike. */
        uint64_t a = v->kids[0]->index, b = v->kids[1]->index;
        h = mix(h ^ (a < b ? a : b)) ^ ((uint64_t)mix(a < b ? b : a) << 1);
    } else {
        for (uint32_t k = 0; k < v->nkids; k++)
            h = mix(h * 31 + v->kids[k]->index) + k;
    }
    return mix(h ^ meta_key(v));
}

static bool same_pure(const B3Value *a, const B3Value *b) {
    if (a->opcode != b->opcode || a->kflags != b->kflags || a->type != b->type || a->nkids != b->nkids ||
        !same_meta(a, b) || leaf_block(a) != leaf_block(b))
        return false;
    bool direct = true;
    for (uint32_t k = 0; k < a->nkids && direct; k++)
        direct = a->kids[k] == b->kids[k];
    return direct || (commutes(a) && a->kids[0] == b->kids[1] && a->kids[1] == b->kids[0]);
}

/* The equal value available here, or NULL after making v available. */
static B3Value *pure_lookup_or_add(Cse *c, B3Value *v) {
    uint32_t h = pure_hash(v);
    for (uint32_t e = c->pure_head[h & c->pure_mask]; e; e = c->pure[e - 1].next)
        if (c->pure[e - 1].hash == h && same_pure(c->pure[e - 1].v, v))
            return c->pure[e - 1].v;
    PureEntry *n = &c->pure[c->npure++];
    n->v = v;
    n->hash = h;
    n->next = c->pure_head[h & c->pure_mask];
    c->pure_head[h & c->pure_mask] = c->npure;
    return NULL;
}

/* ---- memory facts ----------------------------------------------------------- */

static bool plain_access(const B3Value *v) {
    return !(v->kflags & B3K_TRAPS) && b3_heap_is_bottom(v->m.mem.fence_range);
}

static uint32_t fact_hash(const B3Value *ptr, int32_t offset) {
    return mix((uint64_t)ptr->index << 32 ^ (uint32_t)offset);
}

static Fact load_fact(B3Value *v) {
    Fact f = {.ptr = v->kids[0], .val = v, .range = v->m.mem.range, .offset = v->m.mem.offset};
    f.width = (uint8_t)b3_mem_access_bytes(v);
    f.ext = f.width == b3_type_bytes((B3Type)v->type) ? Ext_Full
            : (op_flags(v) & B3OF_SEXT)               ? Ext_Sign
                                                      : Ext_Zero;
    f.traps = (v->kflags & B3K_TRAPS) != 0;
    return f;
}

static Fact store_fact(B3Value *v) {
    Fact f = {.ptr = v->kids[1], .val = v->kids[0], .range = v->m.mem.range, .offset = v->m.mem.offset};
    f.width = (uint8_t)b3_mem_access_bytes(v);
    f.ext = f.width == b3_type_bytes((B3Type)v->kids[0]->type) ? Ext_Full : Ext_None;
    f.traps = (v->kflags & B3K_TRAPS) != 0;
    return f;
}

/* Do f's bytes give the value the load v reads?  (Same address and range;
 * a trapping load only from a trapping access.) */
static bool forwards_to(const Fact *f, const B3Value *v) {
    if (f->ptr != v->kids[0] || f->offset != v->m.mem.offset || !same_range(f->range, v->m.mem.range))
        return false;
    if ((v->kflags & B3K_TRAPS) && !f->traps)
        return false;
    Fact want = load_fact((B3Value *)v);
    if (f->width < want.width)
        return false;
    B3Type have = (B3Type)f->val->type, type = (B3Type)v->type;
    if (!b3_type_is_int(have)) /* floating point: only the same value back */
        return want.ext == Ext_Full && type == have && f->width == want.width;
    if (!b3_type_is_int(type))
        return false;
    if (want.ext == Ext_Full)
        return type == have || (type == B3_Int32 && have == B3_Int64);
    return true; /* narrow: mask or sign-extend the low bytes */
}

/* Does the store v write what f says the bytes hold already? */
static bool store_is_redundant(const Fact *f, const B3Value *v) {
    return f->ptr == v->kids[1] && f->offset == v->m.mem.offset && same_range(f->range, v->m.mem.range) &&
           f->val == v->kids[0] && f->width >= b3_mem_access_bytes(v);
}

/* The value the load v (at index i of the block) reads, from f's bytes:
 * conversions are inserted before it. */
static B3Value *forward(Cse *c, const Fact *f, B3Value *v, uint32_t i) {
    Fact want = load_fact(v);
    B3Value *x = f->val;
    if (x->type == v->type && f->width == want.width && f->ext == want.ext)
        return x;
    if (x->type == B3_Int64) {
        B3Value *t = b3_insertion_set_insert_new(&c->ins, i, B3_Trunc, B3_Int32, 1, v);
        t->kids[0] = x;
        x = t;
    }
    if (want.ext == Ext_Full)
        return x;
    B3Value *r;
    if (want.ext == Ext_Sign) {
        r = b3_insertion_set_insert_new(&c->ins, i, want.width == 1 ? B3_SExt8 : B3_SExt16, B3_Int32, 1, v);
        r->kids[0] = x;
    } else {
        B3Value *mask =
            b3_insertion_set_insert_int_const(&c->ins, i, v, B3_Int32, want.width == 1 ? 0xff : 0xffff);
        r = b3_insertion_set_insert_new(&c->ins, i, B3_BitAnd, B3_Int32, 2, v);
        r->kids[0] = x;
        r->kids[1] = mask;
    }
    return r;
}

static void clobber(Cse *c, B3HeapRange w) {
    if (b3_heap_is_bottom(w))
        return;
    b3_heap_set_add(&c->local_writes, w);
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->nfacts; i++)
        if (!b3_heap_overlaps(c->facts[i].range, w))
            c->facts[n++] = c->facts[i];
    c->nfacts = n;
}

static void add_fact(Cse *c, Fact f) {
    if (b3_heap_is_bottom(f.range)) /* nothing would ever clobber it */
        return;
    if (c->nfacts == MAX_FACTS) {
        memmove(c->facts, c->facts + 1, (MAX_FACTS - 1) * sizeof *c->facts);
        c->nfacts--;
    }
    c->facts[c->nfacts++] = f;
}

typedef bool (*FactFilter)(const Fact *, const B3Value *);

static const Fact *find_local(Cse *c, FactFilter ok, const B3Value *v) {
    for (uint32_t i = c->nfacts; i-- > 0;)
        if (ok(&c->facts[i], v))
            return &c->facts[i];
    return NULL;
}

static void search_push(Cse *c, B3Block *b, B3Block *stop, uint32_t *n) {
    if (b == stop || c->mark[b->pos] == c->epoch)
        return;
    c->mark[b->pos] = c->epoch;
    c->work[(*n)++] = b;
}

/* Does no block on a path from `from` to `to` (from dominating to) write
 * range?  Searches backward from to's predecessors, stopping at `from`; a
 * search that grows past its bound answers no. */
static bool path_is_clear(Cse *c, B3Block *from, B3Block *to, B3HeapRange range) {
    if (c->last.from == from && c->last.to == to && same_range(c->last.range, range))
        return c->last.clear;
    c->epoch++;
    uint32_t n = 0, visited = 0;
    bool clear = true;
    for (uint32_t i = 0; i < to->npreds; i++)
        search_push(c, to->preds[i], from, &n);
    while (n && clear) {
        B3Block *b = c->work[--n];
        if (!b3_block_reachable(&c->dom, b))
            continue;
        if (++visited > SEARCH_BLOCKS || !c->budget || !b->npreds ||
            b3_heap_set_overlaps(&c->writes[b->pos], range)) {
            clear = false;
            break;
        }
        c->budget--;
        for (uint32_t i = 0; i < b->npreds; i++)
            search_push(c, b->preds[i], from, &n);
    }
    c->last.from = from;
    c->last.to = to;
    c->last.range = range;
    c->last.clear = clear;
    return clear;
}

/* A fact at the end of a dominator that serves v here, or NULL. */
static const Fact *find_dominating(Cse *c, B3Value *ptr, int32_t offset, B3HeapRange range, FactFilter ok,
                                   const B3Value *v) {
    if (b3_heap_set_overlaps(&c->local_writes, range))
        return NULL;
    uint32_t h = fact_hash(ptr, offset), tries = 0;
    for (uint32_t e = c->tail_head[h & c->tail_mask]; e && tries < MAX_CANDIDATES; e = c->tail[e - 1].next) {
        TailEntry *t = &c->tail[e - 1];
        if (t->f.ptr != ptr || t->f.offset != offset)
            continue;
        tries++;
        if (ok(&t->f, v))
            return path_is_clear(c, t->block, c->blk, range) ? &t->f : NULL;
    }
    return NULL;
}

static void process_load(Cse *c, B3Value *v, uint32_t i) {
    B3Effects e = b3_effects(v);
    if (!b3_heap_is_bottom(v->m.mem.fence_range)) {
        clobber(c, e.writes); /* an acquire: its phantom write */
        return;
    }
    Fact nf = load_fact(v);
    const Fact *src = find_local(c, forwards_to, v);
    if (!src)
        src = find_dominating(c, nf.ptr, nf.offset, nf.range, forwards_to, v);
    if (src) {
        B3Value *r = forward(c, src, v, i);
        nf.traps = src->traps;
        nf.val = r;
        b3_value_replace_with_identity(v, r);
        c->changed = true;
    }
    clobber(c, e.writes);
    add_fact(c, nf);
}

static void process_store(Cse *c, B3Value *v) {
    B3Effects e = b3_effects(v);
    if (plain_access(v) &&
        (find_local(c, store_is_redundant, v) ||
         find_dominating(c, v->kids[1], v->m.mem.offset, v->m.mem.range, store_is_redundant, v))) {
        b3_value_replace_with_nop(v); /* the memory holds that value already */
        c->changed = true;
        return;
    }
    clobber(c, e.writes);
    if (b3_heap_is_bottom(v->m.mem.fence_range))
        add_fact(c, store_fact(v));
}

/* ---- dead stores ------------------------------------------------------------ */

typedef struct {
    B3Value *ptr;
    int32_t offset;
    uint32_t width;
    B3HeapRange range;
} Kill;

static bool overwritten(const Kill *kills, uint32_t n, const B3Value *v) {
    for (uint32_t k = 0; k < n; k++)
        if (kills[k].ptr == v->kids[1] && kills[k].offset == v->m.mem.offset &&
            kills[k].width >= b3_mem_access_bytes(v) && range_contains(kills[k].range, v->m.mem.range))
            return true;
    return false;
}

/* Stores of b overwritten later in b before anything may read them. */
static void eliminate_dead_stores(Cse *c, B3Block *b) {
    Kill kills[MAX_KILLS];
    uint32_t n = 0;
    for (uint32_t i = b->nvalues; i-- > 0;) {
        B3Value *v = b->values[i];
        bool store = (op_flags(v) & B3OF_STORE) && plain_access(v) && !b3_heap_is_bottom(v->m.mem.range);
        if (store && overwritten(kills, n, v)) {
            b3_value_replace_with_nop(v);
            c->changed = true;
            continue;
        }
        B3Effects e = b3_effects(v);
        if (e.fence || e.exits_sideways) {
            n = 0;
        } else if (!b3_heap_is_bottom(e.reads)) {
            uint32_t m = 0;
            for (uint32_t k = 0; k < n; k++)
                if (!b3_heap_overlaps(kills[k].range, e.reads))
                    kills[m++] = kills[k];
            n = m;
        }
        if (!store)
            continue;
        Kill nk = {v->kids[1], v->m.mem.offset, b3_mem_access_bytes(v), v->m.mem.range};
        uint32_t k = 0;
        while (k < n && !(kills[k].ptr == nk.ptr && kills[k].offset == nk.offset))
            k++;
        if (k == n && n == MAX_KILLS) { /* full: forget the oldest */
            memmove(kills, kills + 1, (MAX_KILLS - 1) * sizeof *kills);
            k = --n;
        }
        kills[k] = nk;
        if (k == n)
            n++;
    }
}

/* ---- the walk --------------------------------------------------------------- */

static void process_block(Cse *c, B3Block *b) {
    c->blk = b;
    c->nfacts = 0;
    c->local_writes = (B3HeapSet){0};
    for (uint32_t i = 0; i < b->nvalues; i++) {
        B3Value *v = b->values[i];
        b3_value_perform_substitution(v);
        uint32_t fl = op_flags(v);
        if (pure_candidate(v)) {
            B3Value *w = pure_lookup_or_add(c, v);
            if (w) {
                b3_value_replace_with_identity(v, w);
                c->changed = true;
            }
        } else if (fl & B3OF_LOAD) {
            process_load(c, v, i);
        } else if (fl & B3OF_STORE) {
            process_store(c, v);
        } else {
            clobber(c, b3_effects(v).writes);
        }
    }
    b3_insertion_set_execute(&c->ins, b);
    eliminate_dead_stores(c, b);

    /* What holds at the block's end, for the blocks it dominates. */
    for (uint32_t i = 0; i < c->nfacts; i++) {
        B3_VEC_RESERVE(PHASE, c->tail, c->cap_tail, c->ntail + 1);
        TailEntry *t = &c->tail[c->ntail++];
        t->f = c->facts[i];
        t->block = b;
        t->hash = fact_hash(t->f.ptr, t->f.offset);
        t->next = c->tail_head[t->hash & c->tail_mask];
        c->tail_head[t->hash & c->tail_mask] = c->ntail;
    }
}

/* Leaves the innermost open dominator subtree: forgets what it made available
 * (entries are unlinked newest first, so each is its bucket's head). */
static void pop_scope(Cse *c) {
    Scope *s = &c->scopes[--c->nscopes];
    while (c->npure > s->npure) {
        PureEntry *e = &c->pure[--c->npure];
        c->pure_head[e->hash & c->pure_mask] = e->next;
    }
    while (c->ntail > s->ntail) {
        TailEntry *e = &c->tail[--c->ntail];
        c->tail_head[e->hash & c->tail_mask] = e->next;
    }
}

bool b3_eliminate_common_subexpressions(B3Module *m, B3Proc *p) {
    Cse c = {.m = m, .p = p};
    b3_dominators_compute(&c.dom, p);
    uint32_t nb = p->nblocks, nmem = 0;
    c.writes = b3_xcalloc(PHASE, nb, sizeof *c.writes);
    for (uint32_t bi = 0; bi < nb; bi++) {
        B3Block *b = p->blocks[bi];
        for (uint32_t i = 0; i < b->nvalues; i++) {
            b3_heap_set_add(&c.writes[bi], b3_effects(b->values[i]).writes);
            nmem += (op_flags(b->values[i]) & (B3OF_LOAD | B3OF_STORE)) != 0;
        }
    }
    c.pure = b3_xcalloc(PHASE, p->nvalues, sizeof *c.pure);
    c.pure_mask = pow2_at_least(2ull * p->nvalues) - 1;
    c.pure_head = b3_xcalloc(PHASE, c.pure_mask + 1ull, sizeof *c.pure_head);
    c.tail_mask = pow2_at_least(2ull * nmem) - 1;
    c.tail_head = b3_xcalloc(PHASE, c.tail_mask + 1ull, sizeof *c.tail_head);
    c.scopes = b3_xcalloc(PHASE, c.dom.norder, sizeof *c.scopes);
    c.mark = b3_xcalloc(PHASE, nb, sizeof *c.mark);
    c.work = b3_xcalloc(PHASE, nb, sizeof *c.work);
    c.budget = (uint64_t)SEARCH_PER_BLOCK * nb + 4096;
    b3_insertion_set_init(&c.ins, m, p);

    for (uint32_t k = 0; k < c.dom.norder; k++) {
        B3Block *b = c.dom.order[k];
        while (c.nscopes && !b3_dominates(&c.dom, c.scopes[c.nscopes - 1].block, b))
            pop_scope(&c);
        c.scopes[c.nscopes++] = (Scope){b, c.npure, c.ntail};
        process_block(&c, b);
    }

    b3_insertion_set_free(&c.ins);
    free(c.work);
    free(c.mark);
    free(c.scopes);
    free(c.tail_head);
    free(c.tail);
    free(c.pure_head);
    free(c.pure);
    free(c.writes);
    b3_dominators_free(&c.dom);
    /* Also any Identity the input had: the next phases count uses. */
    return b3_proc_remove_identities(m, p) || c.changed;
}
