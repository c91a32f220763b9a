/* Register allocation by iterated register coalescing (George & Appel), one
 * bank at a time, as Air's AllocateRegistersByGraphColoring does.
 *
 * Nodes are tmp numbers: allocatable physical registers are precolored nodes,
 * virtual tmps of the bank are the rest.  Interference follows the timing
 * model of liveness.h.  Spilled tmps get 8-byte spill slots; each mention is
 * rewritten to the slot when the inst's form allows it, else to a fresh
 * unspillable tmp loaded before / stored after the inst (regalloc.h's spill
 * rewriter), and allocation repeats until nothing spills.
 *
 * Coalescing is optimistic (Park and Moon) where George and Appel's is
 * conservative: two virtual tmps joined by a copy merge whenever they do
 * not interfere, and a merged node that finds no register when colored
 * either parts again, each tmp colored or spilled alone, or spills whole
 * into one slot, whichever costs less (split_or_spill).  A copy with a
 * register keeps George's test. */
#include <stdlib.h>
#include <string.h>

#include "codegen/air/liveness.h"
#include "codegen/air/phases.h"
#include "codegen/air/regalloc.h"
#include "util/vec.h"

#define PHASE "air register allocation"
#define MAX_ROUNDS 64

typedef struct {
    uint32_t *v;
    uint32_t n, cap;
} Vec;

static void vec_push(Vec *v, uint32_t x) { B3_VEC_PUSH(PHASE, v->v, v->n, v->cap, x); }

/* Per-node lists of one round live in a bump allocator: no per-list
 * malloc/free, and (unlike B3Arena) no zeroing of memory about to be written. */
typedef struct PoolChunk {
    struct PoolChunk *next;
    uint32_t data[];
} PoolChunk;

typedef struct {
    PoolChunk *chunks;
    uint32_t *cur, *end;
} Pool;

#define POOL_CHUNK_WORDS (1u << 18) /* 1 MiB */

static uint32_t *pool_alloc(Pool *p, uint32_t words) {
    if ((size_t)(p->end - p->cur) < words) {
        size_t n = words > POOL_CHUNK_WORDS ? words : POOL_CHUNK_WORDS;
        PoolChunk *c = b3_xmalloc(PHASE, sizeof(PoolChunk) + n * sizeof(uint32_t));
        c->next = p->chunks;
        p->chunks = c;
        p->cur = c->data;
        p->end = c->data + n;
    }
    uint32_t *r = p->cur;
    p->cur += words;
    return r;
}

static void pool_free(Pool *p) {
    while (p->chunks) {
        PoolChunk *c = p->chunks;
        p->chunks = c->next;
        free(c);
    }
    p->cur = p->end = NULL;
}

static void pool_push(Pool *pool, Vec *v, uint32_t x) {
    if (v->n == v->cap) {
        uint32_t cap = (uint32_t)b3_vec_capacity(v->cap, v->n + 1);
        uint32_t *nv = pool_alloc(pool, cap);
        if (v->n)
            memcpy(nv, v->v, v->n * sizeof(uint32_t));
        v->v = nv;
        v->cap = cap;
    }
    v->v[v->n++] = x;
}

static void vec_free(Vec *v) {
    free(v->v);
    v->v = NULL;
    v->n = v->cap = 0;
}

/* ---- per-tmp facts gathered before each round ---- */

typedef struct {
    uint8_t *use_width; /* widest use (AirWidth + 1; 0 = never used) */
    uint8_t *def_width; /* widest def, counting a non-zero-extending def as 64 bits */
    uint8_t *appears;
    uint8_t *unspillable; /* persistent across rounds: spill tmps and such */
    uint8_t *no_split;    /* persistent: made by spill code or by splitting around calls */
    /* Persistent: for a tmp made by splitting around calls, its parent's slot
     * (which the split keeps up to date), else NULL. */
    AirStackSlot **split_slot;
    double *uses;   /* uses + defs, weighted by block frequency */
    uint32_t *span; /* insts from the first mention to the last, in block order */
    /* Coalescable moves, noted while their args are at hand so the
     * interference walk need not touch the insts: per inst in block order,
     * 0 or 1 + the index of its entry in copies. */
    uint32_t *copy;
    struct Copy {
        AirTmp src, dst;
        bool move32;
        double freq; /* the block's weight */
    } * copies;
    uint32_t ncopies, cap_copies;
} TmpFacts;

static bool is_coalescable_move(const AirInst *inst, AirBank bank) {
    if (inst->nargs != 2 || inst->special || inst->args[0].kind != AirArg_Tmp ||
        inst->args[1].kind != AirArg_Tmp)
        return false;
    AirOpcode op = (AirOpcode)inst->opcode;
    return air_move_kind(op) != AirMove_None && air_move_bank(op) == bank;
}

static uint8_t width_bits(uint8_t w) { return (uint8_t)(8u << w); }

/* Can the move's source and destination share a register even where the
 * source stays live?  A Move32 copy differs in the upper half unless the
 * source is already zero-extended or nobody reads the destination's upper half. */
static bool copy_is_pure(bool move32, AirTmp s, AirTmp d, const TmpFacts *f) {
    if (!move32)
        return true;
    bool src_narrow =
        !air_tmp_is_reg(s) && f->def_width[s] && width_bits((uint8_t)(f->def_width[s] - 1)) <= 32;
    bool dst_narrow =
        !air_tmp_is_reg(d) && width_bits((uint8_t)(f->use_width[d] ? f->use_width[d] - 1 : 0)) <= 32;
    return src_narrow || dst_narrow;
}

static bool move_is_pure_copy(const AirInst *inst, const TmpFacts *f) {
    return copy_is_pure(air_move_kind((AirOpcode)inst->opcode) == AirMove_ZeroExtend, inst->args[0].base,
                        inst->args[1].base, f);
}

/* ---- virtual-virtual interference as a square bit matrix ----
 * Rows and columns are the bank's node numbers (its virtual tmps, densely
 * numbered).  Building ORs the whole live set into a def's row in one pass
 * and adds the transpose at the end; a row scan lists a node's neighbours.
 * Used when the graph is dense (round 0 of a big procedure has hundreds of
 * values live at once), where it is smaller and faster than adjacency lists. */

typedef struct {
    uint64_t *bits; /* 64 * words rows of `words` words; NULL: adjacency lists instead */
    uint32_t words;
} Matrix;

static inline uint64_t *mat_row(const Matrix *m, uint32_t i) { return m->bits + (size_t)i * m->words; }

static inline bool mat_has(const Matrix *m, uint32_t i, uint32_t j) {
    return (mat_row(m, i)[j >> 6] >> (j & 63)) & 1;
}

/* Portable popcount (__builtin_popcountll is a libgcc call without -mpopcnt). */
static inline uint32_t popcount64(uint64_t x) {
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (uint32_t)((x * 0x0101010101010101ull) >> 56);
}

/* Bits set in p[0 .. n-1]: byte counts of up to 31 words are summed before
 * the fields are added up (each byte stays <= 248). */
static uint32_t popcount_words(const uint64_t *p, uint32_t n) {
    uint32_t total = 0;
    for (uint32_t i = 0; i < n;) {
        uint64_t acc = 0;
        for (uint32_t end = n - i > 31 ? i + 31 : n; i < end; i++) {
            uint64_t x = p[i];
            x -= (x >> 1) & 0x5555555555555555ull;
            x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
            acc += (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
        }
        acc = (acc & 0x00ff00ff00ff00ffull) + ((acc >> 8) & 0x00ff00ff00ff00ffull);
        total += (uint32_t)((acc * 0x0001000100010001ull) >> 48);
    }
    return total;
}

/* ---- the coloring allocator for one bank, one round ---- */

enum {
    N_NONE, /* not a node of this bank (other bank, or a reserved register) */
    N_PRECOLORED,
    N_INITIAL,
    N_SIMPLIFY,
    N_FREEZE,
    N_SPILL,
    N_SELECT,
    N_COALESCED,
    N_COLORED,
    N_SPILLED,
};

enum { M_WORKLIST, M_ACTIVE, M_COALESCED, M_CONSTRAINED, M_FROZEN };

typedef struct {
    AirTmp src, dst;
    uint8_t state;
    uint32_t george_word; /* matrix graphs: where George's test last failed (likely to again) */
    double freq;          /* the copy's block weight */
} Move;

typedef struct {
    double score;
    uint32_t node;
} HeapEntry;

typedef struct {
    AirCode *c;
    AirBank bank;
    AirRegFile rf;
    uint32_t n; /* node universe: tmp numbers < n */
    TmpFacts *f;

    uint8_t *state;
    uint32_t *degree;
    double *own_uses; /* during coloring: each tmp's uses before coalescing added others' */
    uint32_t *alias;
    uint8_t *color; /* B3Reg */
    Vec *adj;       /* list graphs: neighbours, registers included (in csr, or from pool) */
    uint32_t *csr;  /* list graphs: the lists as built */
    /* List graphs while building: the edges (u, v) as found (a register v
     * gets no list), in runs of one u: a word with PAIR_RUN set starts the
     * run of its u, each other word is a v.  A def meets its whole live set
     * at once, so a run holds about as many edges as tmps are live: about
     * half the words of (u, v) pairs, at the peak of a big procedure. */
    uint32_t *pairs;
    size_t npairs, cap_pairs; /* words */
    uint32_t run_u;           /* the last run's u */
    Vec *moves_of;            /* from pool */
    Pool pool;
    Matrix mat;         /* dense graphs: virtual-virtual edges (then adj stays empty) */
    uint32_t *node;     /* matrix row of a virtual tmp of the bank */
    uint32_t *node_tmp; /* and back */
    uint32_t nnodes;
    uint64_t alloc_regs; /* the precolored nodes */
    /* Matrix graphs, after the build: bit sets over nodes that let the
     * coalescing tests and neighbour walks work a word at a time. */
    uint64_t *alive;   /* neither simplified nor coalesced (adjacent_live) */
    uint64_t *hi;      /* alive and of significant degree (>= k) */
    uint64_t *regcol;  /* per register (64 rows of mat.words): the nodes interfering with it */
    uint64_t *regmask; /* per virtual node: the registers it interferes with */
    bool building;     /* edges are one-sided (matrix) or duplicated (lists) until finish_build */
    Move *moves;
    uint32_t nmoves, cap_moves;

    Vec simplify_wl, freeze_wl, move_wl, select_stack, spilled;
    HeapEntry *heap;
    uint32_t nheap, cap_heap;

    uint32_t *mark;        /* scratch: dedup of neighbours */
    uint8_t *maybe_active; /* moves_of[t] may hold an M_ACTIVE move */
    /* Per register, a bit set over moves (rows of (nmoves + 63) / 64 words,
     * words [ra_lo, ra_hi) possibly non-zero): its moves made active since it
     * last enabled them. */
    uint64_t *reg_active;
    uint32_t ra_lo[AIR_FIRST_VTMP], ra_hi[AIR_FIRST_VTMP];
    uint32_t nactive; /* moves in M_ACTIVE */
    uint32_t epoch;
} Alloc;

static inline bool is_precolored(const Alloc *a, uint32_t t) { return a->state[t] == N_PRECOLORED; }

static bool has_edge(const Alloc *a, uint32_t u, uint32_t v) {
    if (is_precolored(a, u))
        return (a->regmask[v] >> u) & 1;
    if (is_precolored(a, v))
        return (a->regmask[u] >> v) & 1;
    if (a->mat.bits)
        return mat_has(&a->mat, a->node[u], a->node[v]);
    /* Sparse graphs: scan the shorter list (queries are rare: one per move, and while combining). */
    const Vec *x = a->adj[u].n <= a->adj[v].n ? &a->adj[u] : &a->adj[v];
    uint32_t y = x == &a->adj[u] ? v : u;
    for (uint32_t i = 0; i < x->n; i++)
        if (x->v[i] == y)
            return true;
    return false;
}

static void degree_up(Alloc *a, uint32_t t) {
    if (++a->degree[t] == a->rf.k && a->hi && air_bit_has(a->alive, a->node[t]))
        air_bit_set(a->hi, a->node[t]);
}

/* List graphs while building: an edge as found (duplicates included). */
#define PAIR_RUN 0x80000000u /* tmp numbers stay below it */

static void pair_push(Alloc *a, uint32_t u, uint32_t v) {
    B3_VEC_RESERVE(PHASE, a->pairs, a->cap_pairs, a->npairs + 2);
    if (!a->npairs || u != a->run_u) {
        a->pairs[a->npairs++] = u | PAIR_RUN;
        a->run_u = u;
    }
    a->pairs[a->npairs++] = v;
}

static void add_edge(Alloc *a, uint32_t u, uint32_t v) {
    if (u == v || a->state[u] == N_NONE || a->state[v] == N_NONE)
        return;
    bool pu = is_precolored(a, u), pv = is_precolored(a, v);
    if (pu && pv)
        return;
    /* Precolored nodes keep no adjacency: their degree is effectively infinite. */
    if (pu || pv) {
        uint32_t r = pu ? u : v, t = pu ? v : u;
        if ((a->regmask[t] >> r) & 1)
            return;
        a->regmask[t] |= 1ull << r;
        if (!a->mat.bits && a->building)
            pair_push(a, t, r);
        else if (!a->mat.bits)
            pool_push(&a->pool, &a->adj[t], r);
        else if (a->regcol)
            air_bit_set(a->regcol + (size_t)r * a->mat.words, a->node[t]);
        degree_up(a, t);
        return;
    }
    if (a->mat.bits) {
        uint32_t nu = a->node[u], nv = a->node[v];
        if (mat_has(&a->mat, nu, nv))
            return;
        air_bit_set(mat_row(&a->mat, nu), nv);
        air_bit_set(mat_row(&a->mat, nv), nu);
    } else if (a->building) {
        pair_push(a, u, v);
    } else {
        if (has_edge(a, u, v))
            return;
        pool_push(&a->pool, &a->adj[u], v);
        pool_push(&a->pool, &a->adj[v], u);
    }
    degree_up(a, u);
    degree_up(a, v);
}

/* Matrix: adds the transpose of the one-sided rows, counts degrees and sets
 * up alive/hi/regcol.  Lists: lays the lists out from the pairs and drops
 * duplicates. */
static void finish_build(Alloc *a) {
    if (!a->building)
        return;
    a->building = false;
    if (a->mat.bits) {
        uint32_t words = a->mat.words;
        air_bitmatrix_symmetrize(a->mat.bits, words);
        a->alive = b3_xcalloc(PHASE, words, sizeof(uint64_t));
        a->hi = b3_xcalloc(PHASE, words, sizeof(uint64_t));
        a->regcol = b3_xcalloc(PHASE, (size_t)64 * words, sizeof(uint64_t));
        for (uint32_t i = 0; i < a->nnodes; i++) {
            uint32_t t = a->node_tmp[i];
            a->degree[t] = popcount_words(mat_row(&a->mat, i), words) + popcount64(a->regmask[t]);
            air_bit_set(a->alive, i);
            if (a->degree[t] >= a->rf.k)
                air_bit_set(a->hi, i);
            for (uint64_t m = a->regmask[t]; m; m &= m - 1)
                air_bit_set(a->regcol + (size_t)__builtin_ctzll(m) * words, i);
        }
        return;
    }
    /* Lists: the pairs become one array of lists in tmp order (each in the
     * order its edges were found), compact for the coloring's walks; a list
     * that grows later moves to the pool. */
    uint32_t n = a->n, *off = b3_xcalloc(PHASE, (size_t)n + 1, sizeof(uint32_t));
    uint32_t u = 0;
    for (size_t i = 0; i < a->npairs; i++) {
        uint32_t v = a->pairs[i];
        if (v & PAIR_RUN) {
            u = v & ~PAIR_RUN;
            continue;
        }
        off[u + 1]++;
        if (!air_tmp_is_reg(v))
            off[v + 1]++;
    }
    for (uint32_t t = 0; t < n; t++)
        off[t + 1] += off[t];
    a->csr = b3_xmalloc(PHASE, (size_t)off[n] * sizeof(uint32_t));
    for (uint32_t t = 0; t < n; t++)
        a->adj[t] = (Vec){a->csr + off[t], 0, off[t + 1] - off[t]};
    for (size_t i = 0; i < a->npairs; i++) {
        uint32_t v = a->pairs[i];
        if (v & PAIR_RUN) {
            u = v & ~PAIR_RUN;
            continue;
        }
        a->adj[u].v[a->adj[u].n++] = v;
        if (!air_tmp_is_reg(v))
            a->adj[v].v[a->adj[v].n++] = u;
    }
    free(off);
    free(a->pairs);
    a->pairs = NULL;
    a->npairs = a->cap_pairs = 0;
    /* Then drop the duplicates, keeping first occurrences. */
    for (uint32_t t = 0; t < n; t++) {
        Vec *adj = &a->adj[t];
        if (!adj->n)
            continue;
        if (++a->epoch == 0) {
            memset(a->mark, 0, a->n * sizeof(uint32_t));
            a->epoch = 1;
        }
        uint32_t out = 0;
        for (uint32_t i = 0; i < adj->n; i++) {
            uint32_t x = adj->v[i];
            if (a->mark[x] != a->epoch) {
                a->mark[x] = a->epoch;
                adj->v[out++] = x;
            }
        }
        adj->n = out;
        a->degree[t] = out;
    }
}

/* With path halving: coalescing a chain of moves (t1 -> t2 -> ... at -O0)
 * builds an alias chain as long as the procedure, walked once per move.
 * Shortening it changes no answer, so const callers may do it. */
static uint32_t get_alias(const Alloc *a, uint32_t t) {
    while (a->state[t] == N_COALESCED) {
        uint32_t up = a->alias[t];
        if (a->state[up] == N_COALESCED)
            a->alias[t] = a->alias[up];
        t = up;
    }
    return t;
}

static bool adjacent_live(const Alloc *a, uint32_t w) {
    return a->state[w] != N_SELECT && a->state[w] != N_COALESCED;
}

/* Iterates a node's neighbours, registers included: its list, or its matrix
 * row and then its register mask.  With live_only, a matrix row skips the
 * nodes that are not adjacent_live a word at a time (lists still list them:
 * callers test adjacent_live either way). */
typedef struct {
    const uint32_t *list;
    uint32_t i, n;
    const uint64_t *row;    /* NULL for lists */
    const uint64_t *filter; /* NULL: every node */
    const uint32_t *node_tmp;
    uint32_t w, words;
    uint64_t bits, regs;
} Nbrs;

static inline void nbrs_init(const Alloc *a, uint32_t t, bool live_only, Nbrs *it) {
    if (a->mat.bits && !is_precolored(a, t)) {
        const uint64_t *row = mat_row(&a->mat, a->node[t]);
        const uint64_t *filter = live_only ? a->alive : NULL;
        *it = (Nbrs){.row = row,
                     .filter = filter,
                     .node_tmp = a->node_tmp,
                     .words = a->mat.words,
                     .bits = row[0] & (filter ? filter[0] : ~0ull),
                     .regs = a->regmask[t]};
    } else {
        *it = (Nbrs){.list = a->adj[t].v, .n = a->adj[t].n};
    }
}

static inline bool nbrs_next(Nbrs *it, uint32_t *out) {
    if (!it->row) {
        if (it->i == it->n)
            return false;
        *out = it->list[it->i++];
        return true;
    }
    while (!it->bits) {
        if (it->w + 1 >= it->words) {
            if (!it->regs)
                return false;
            *out = (uint32_t)__builtin_ctzll(it->regs);
            it->regs &= it->regs - 1;
            return true;
        }
        it->w++;
        it->bits = it->row[it->w] & (it->filter ? it->filter[it->w] : ~0ull);
    }
    *out = it->node_tmp[64 * it->w + (uint32_t)__builtin_ctzll(it->bits)];
    it->bits &= it->bits - 1;
    return true;
}

/* t leaves the graph: simplified or coalesced. */
static void node_retire(Alloc *a, uint32_t t) {
    if (a->alive && !is_precolored(a, t)) {
        air_bit_clear(a->alive, a->node[t]);
        air_bit_clear(a->hi, a->node[t]);
    }
}

static bool move_related(const Alloc *a, uint32_t t) {
    const Vec *ms = &a->moves_of[t];
    for (uint32_t i = 0; i < ms->n; i++) {
        uint8_t s = a->moves[ms->v[i]].state;
        if (s == M_WORKLIST || s == M_ACTIVE)
            return true;
    }
    return false;
}

static double spill_score(const Alloc *a, uint32_t t) {
    /* Chaitin's degree over cost: many neighbours and few (frequency-weighted)
     * uses go first; spill tmps never unless forced.  Weighing the range too
     * made a value used all over a big function (bzip2's decoder state `s`)
     * the first candidate: pushed early, it was popped after its many short
     * neighbours had taken every register somewhere, and spilled, though
     * keeping it cost far less than reloading it at every use. */
    double deg = a->degree[t], uses = a->f->uses[t] > 1e-9 ? a->f->uses[t] : 1e-9;
    double s = deg / uses;
    if (a->f->unspillable[t])
        s = -1e300 + deg;
    return s;
}

static void heap_push(Alloc *a, uint32_t t) {
    B3_VEC_RESERVE(PHASE, a->heap, a->cap_heap, a->nheap + 1);
    HeapEntry e = {spill_score(a, t), t};
    uint32_t i = a->nheap++;
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (a->heap[p].score >= e.score)
            break;
        a->heap[i] = a->heap[p];
        i = p;
    }
    a->heap[i] = e;
}

static HeapEntry heap_pop(Alloc *a) {
    HeapEntry top = a->heap[0], last = a->heap[--a->nheap];
    uint32_t i = 0, n = a->nheap;
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        double ms = last.score;
        if (l < n && a->heap[l].score > ms) {
            m = l;
            ms = a->heap[l].score;
        }
        if (r < n && a->heap[r].score > ms)
            m = r;
        if (m == i)
            break;
        a->heap[i] = a->heap[m];
        i = m;
    }
    if (n)
        a->heap[i] = last;
    return top;
}

static void set_state(Alloc *a, uint32_t t, uint8_t s) {
    a->state[t] = s;
    switch (s) {
    case N_SIMPLIFY:
        vec_push(&a->simplify_wl, t);
        break;
    case N_FREEZE:
        vec_push(&a->freeze_wl, t);
        break;
    case N_SPILL:
        heap_push(a, t);
        break;
    default:
        break;
    }
}

/* A move became active: flag every list holding it, i.e. its ends' moves_of
 * and those of the nodes they were coalesced into (combine copies lists). */
static void note_active(Alloc *a, uint32_t mi) {
    const uint32_t ends[2] = {a->moves[mi].src, a->moves[mi].dst};
    for (int j = 0; j < 2; j++) {
        /* A register's list only ever holds its own moves (combine copies
         * none into it), and it is long: remember the move itself. */
        if (is_precolored(a, ends[j])) {
            uint32_t r = ends[j], words = (a->nmoves + 63) / 64;
            if (!a->reg_active)
                a->reg_active = b3_xcalloc(PHASE, (size_t)AIR_FIRST_VTMP * words, sizeof(uint64_t));
            air_bit_set(a->reg_active + (size_t)r * words, mi);
            if (a->ra_lo[r] > mi / 64)
                a->ra_lo[r] = mi / 64;
            if (a->ra_hi[r] < mi / 64 + 1)
                a->ra_hi[r] = mi / 64 + 1;
            continue;
        }
        /* Only a representative's list is read again (enable_moves_of). */
        uint32_t t = get_alias(a, ends[j]);
        if (!is_precolored(a, t))
            a->maybe_active[t] = 1;
    }
}

static void enable_moves_of(Alloc *a, uint32_t t) {
    if (is_precolored(a, t)) {
        /* Its list is in move order: enabling in that order is what a scan would do. */
        if (!a->reg_active)
            return;
        uint64_t *ra = a->reg_active + (size_t)t * ((a->nmoves + 63) / 64);
        for (uint32_t w = a->ra_lo[t]; w < a->ra_hi[t]; w++) {
            for (uint64_t bits = ra[w]; bits; bits &= bits - 1) {
                uint32_t mi = 64 * w + (uint32_t)__builtin_ctzll(bits);
                Move *m = &a->moves[mi];
                if (m->state == M_ACTIVE) {
                    m->state = M_WORKLIST;
                    a->nactive--;
                    vec_push(&a->move_wl, mi);
                }
            }
            ra[w] = 0;
        }
        a->ra_lo[t] = UINT32_MAX;
        a->ra_hi[t] = 0;
        return;
    }
    /* Most calls find nothing to enable. */
    if (!a->maybe_active[t])
        return;
    a->maybe_active[t] = 0;
    Vec *ms = &a->moves_of[t];
    for (uint32_t i = 0; i < ms->n; i++) {
        Move *m = &a->moves[ms->v[i]];
        if (m->state == M_ACTIVE) {
            m->state = M_WORKLIST;
            a->nactive--;
            vec_push(&a->move_wl, ms->v[i]);
        }
    }
}

static void became_insignificant(Alloc *a, uint32_t m);

static inline void decrement_degree(Alloc *a, uint32_t m) {
    if (is_precolored(a, m))
        return;
    if (a->degree[m]-- == a->rf.k)
        became_insignificant(a, m);
}

/* m's degree just dropped below k. */
static void became_insignificant(Alloc *a, uint32_t m) {
    if (a->hi)
        air_bit_clear(a->hi, a->node[m]);
    if (a->state[m] != N_SPILL)
        return;
    /* With no move active anywhere there is nothing to enable. */
    if (a->nactive) {
        enable_moves_of(a, m);
        Nbrs it;
        uint32_t w;
        for (nbrs_init(a, m, true, &it); nbrs_next(&it, &w);)
            if (adjacent_live(a, w))
                enable_moves_of(a, w);
    }
    set_state(a, m, move_related(a, m) ? N_FREEZE : N_SIMPLIFY);
}

static void simplify(Alloc *a, uint32_t t) {
    set_state(a, t, N_SELECT);
    node_retire(a, t);
    vec_push(&a->select_stack, t);
    if (a->alive) {
        /* The hot loop of dense graphs: live virtual neighbours a word at a
         * time (registers' degrees never change). */
        const uint64_t *row = mat_row(&a->mat, a->node[t]);
        for (uint32_t w = 0; w < a->mat.words; w++)
            for (uint64_t bits = row[w] & a->alive[w]; bits; bits &= bits - 1) {
                uint32_t m = a->node_tmp[64 * w + (uint32_t)__builtin_ctzll(bits)];
                if (a->degree[m]-- == a->rf.k)
                    became_insignificant(a, m);
            }
        return;
    }
    /* adj may grow through add_edge only for nodes still in play, never for t now. */
    Nbrs it;
    uint32_t w;
    for (nbrs_init(a, t, true, &it); nbrs_next(&it, &w);)
        if (adjacent_live(a, w))
            decrement_degree(a, w);
}

static void add_worklist(Alloc *a, uint32_t u) {
    if (!is_precolored(a, u) && a->state[u] == N_FREEZE && !move_related(a, u) && a->degree[u] < a->rf.k)
        set_state(a, u, N_SIMPLIFY);
}

static bool ok_for_george(const Alloc *a, uint32_t t, uint32_t r) {
    return a->degree[t] < a->rf.k || is_precolored(a, t) || has_edge(a, t, r);
}

static bool george(const Alloc *a, uint32_t u, uint32_t v, Move *m) {
    if (a->alive) {
        /* u is a register: no live significant neighbour of v may miss it.
         * A move is retried many times; checking first where it failed
         * last makes a repeated failure cheap. */
        const uint64_t *row = mat_row(&a->mat, a->node[v]), *col = a->regcol + (size_t)u * a->mat.words;
        uint32_t h = m->george_word < a->mat.words ? m->george_word : 0;
        if (row[h] & a->hi[h] & ~col[h])
            return false;
        for (uint32_t w = 0; w < a->mat.words; w++)
            if (row[w] & a->hi[w] & ~col[w]) {
                m->george_word = w;
                return false;
            }
        return true;
    }
    Nbrs it;
    uint32_t t;
    for (nbrs_init(a, v, false, &it); nbrs_next(&it, &t);)
        if (adjacent_live(a, t) && !ok_for_george(a, t, u))
            return false;
    return true;
}

static void combine(Alloc *a, uint32_t u, uint32_t v) {
    a->state[v] = N_COALESCED;
    node_retire(a, v);
    a->alias[v] = u;
    a->f->uses[u] += a->f->uses[v];
    if (!a->f->unspillable[v])
        a->f->unspillable[u] = 0;
    /* Coalesced and constrained moves are left behind: nothing reads them
     * again through u (their ends are one node, or interfere, so they never
     * enable, freeze or suggest a color), and copying them along chains of
     * coalescing made the lists quadratic. */
    if (!is_precolored(a, u))
        for (uint32_t i = 0; i < a->moves_of[v].n; i++) {
            uint8_t ms = a->moves[a->moves_of[v].v[i]].state;
            if (ms != M_COALESCED && ms != M_CONSTRAINED)
                pool_push(&a->pool, &a->moves_of[u], a->moves_of[v].v[i]);
        }
    enable_moves_of(a, v);
    Nbrs it;
    uint32_t t;
    for (nbrs_init(a, v, true, &it); nbrs_next(&it, &t);) {
        if (!adjacent_live(a, t))
            continue;
        add_edge(a, t, u);
        decrement_degree(a, t);
    }
    if (!is_precolored(a, u) && a->degree[u] >= a->rf.k && a->state[u] == N_FREEZE)
        set_state(a, u, N_SPILL);
}

static void coalesce(Alloc *a, uint32_t mi) {
    Move *m = &a->moves[mi];
    uint32_t x = get_alias(a, m->src), y = get_alias(a, m->dst), u, v;
    if (is_precolored(a, y)) {
        u = y;
        v = x;
    } else if (is_precolored(a, x) || a->moves_of[x].n + a->degree[x] >= a->moves_of[y].n + a->degree[y]) {
        u = x;
        v = y;
    } else {
        /* The smaller node merges into the larger: combine copies v's moves
         * and edges, and a chain of coalescing into one growing node (all
         * the Upsilons of a Phi) would otherwise copy it over and over. */
        u = y;
        v = x;
    }
    if (u == v) {
        m->state = M_COALESCED;
        add_worklist(a, u);
    } else if (is_precolored(a, v) || has_edge(a, u, v)) {
        m->state = M_CONSTRAINED;
        add_worklist(a, u);
        add_worklist(a, v);
    } else if (!is_precolored(a, u) || george(a, u, v, m)) {
        m->state = M_COALESCED;
        combine(a, u, v);
        add_worklist(a, u);
    } else {
        m->state = M_ACTIVE;
        a->nactive++;
        note_active(a, mi);
    }
}

static void freeze_moves(Alloc *a, uint32_t u) {
    Vec *ms = &a->moves_of[u];
    for (uint32_t i = 0; i < ms->n; i++) {
        Move *m = &a->moves[ms->v[i]];
        if (m->state != M_WORKLIST && m->state != M_ACTIVE)
            continue;
        uint32_t x = get_alias(a, m->src), y = get_alias(a, m->dst);
        uint32_t v = y == get_alias(a, u) ? x : y;
        if (m->state == M_ACTIVE)
            a->nactive--;
        m->state = M_FROZEN;
        if (a->state[v] == N_FREEZE && !move_related(a, v) && a->degree[v] < a->rf.k)
            set_state(a, v, N_SIMPLIFY);
    }
}

/* Pops the next entry of a lazily maintained worklist whose node is still in state s. */
static bool pop_node(Alloc *a, Vec *wl, uint8_t s, uint32_t *out) {
    while (wl->n) {
        uint32_t t = wl->v[--wl->n];
        if (a->state[t] == s) {
            *out = t;
            return true;
        }
    }
    return false;
}

static bool pop_spill(Alloc *a, uint32_t *out) {
    while (a->nheap) {
        HeapEntry e = heap_pop(a);
        if (a->state[e.node] != N_SPILL)
            continue;
        /* Scores only drop as degrees do; re-rank an entry that is badly stale (at most
         * a logarithmic number of times per node) instead of trusting it. */
        double now = spill_score(a, e.node);
        if (e.score > 0 && now < 0.5 * e.score && a->nheap && now < a->heap[0].score) {
            heap_push(a, e.node);
            continue;
        }
        *out = e.node;
        return true;
    }
    return false;
}

/* ---- build ---- */

static void register_move(Alloc *a, AirTmp s, AirTmp d, double freq) {
    if (s == d || a->state[s] == N_NONE || a->state[d] == N_NONE)
        return;
    if (is_precolored(a, s) && is_precolored(a, d))
        return;
    uint32_t mi = a->nmoves;
    B3_VEC_PUSH(PHASE, a->moves, a->nmoves, a->cap_moves, ((Move){s, d, M_WORKLIST, 0, freq}));
    pool_push(&a->pool, &a->moves_of[s], mi);
    pool_push(&a->pool, &a->moves_of[d], mi);
    vec_push(&a->move_wl, mi);
}

/* One moment's actions (gathered: all of one inst's early or late ones). */
typedef struct {
    const AirAct *v;
    uint32_t n;
} Moment;

/* The defs of one moment interfere with everything live after it, with the
 * moment's uses and with each other (see liveness.h).  copy_src (or
 * AIR_NO_TMP): the moment is a pure copy's, whose destination may share its
 * source's register, as both hold one value. */
static void add_moment_edges(Alloc *a, Moment acts, const AirTmpSet *live, AirTmp copy_src) {
    for (uint32_t i = 0; i < acts.n; i++) {
        const AirAct *d = &acts.v[i];
        if (!d->def || a->state[d->tmp] == N_NONE)
            continue;
        AirTmp excl = !d->clobber ? copy_src : AIR_NO_TMP;
        /* Register-register pairs are no edges; a call's clobbers make many. */
        bool dreg = air_tmp_is_reg(d->tmp);
        for (uint32_t j = 0; j < live->size; j++)
            if (live->dense[j] != excl && !(dreg && air_tmp_is_reg(live->dense[j])))
                add_edge(a, d->tmp, live->dense[j]);
        for (uint32_t j = 0; j < acts.n; j++)
            if (j != i && acts.v[j].tmp != excl && !(dreg && air_tmp_is_reg(acts.v[j].tmp)))
                add_edge(a, d->tmp, acts.v[j].tmp);
    }
}

/* The build walk's live set: a sparse set of tmps and, for matrix graphs,
 * the same as bits over nodes plus a mask of registers. */
typedef struct {
    AirTmpSet set;
    uint64_t *bits; /* matrix graphs only */
    uint64_t regs;
} BuildLive;

static void live_add(Alloc *a, BuildLive *l, uint32_t t) {
    if (!air_tmpset_add(&l->set, t))
        return;
    if (!l->bits)
        return;
    if (air_tmp_is_reg(t))
        l->regs |= 1ull << t;
    else
        air_bit_set(l->bits, a->node[t]);
}

static void live_remove(Alloc *a, BuildLive *l, uint32_t t) {
    if (!air_tmpset_remove(&l->set, t))
        return;
    if (!l->bits)
        return;
    if (air_tmp_is_reg(t))
        l->regs &= ~(1ull << t);
    else
        air_bit_clear(l->bits, a->node[t]);
}

/* live = (live - defs) + uses for the moments of boundary k. */
static void apply_moment(Alloc *a, BuildLive *l, Moment acts) {
    for (uint32_t i = 0; i < acts.n; i++)
        if (acts.v[i].def)
            live_remove(a, l, acts.v[i].tmp);
    for (uint32_t i = 0; i < acts.n; i++)
        if (!acts.v[i].def)
            live_add(a, l, acts.v[i].tmp);
}

/* add_moment_edges for matrix graphs: a virtual def ORs the live bits into
 * its row (and the live registers into its mask); register defs reach the
 * live virtual tmps' masks in one pass. */
static void matrix_moment_edges(Alloc *a, const BuildLive *l, Moment acts, AirTmp copy_src) {
    uint64_t rdefs = 0;
    for (uint32_t i = 0; i < acts.n; i++) {
        const AirAct *d = &acts.v[i];
        if (!d->def || a->state[d->tmp] == N_NONE)
            continue;
        AirTmp excl = !d->clobber ? copy_src : AIR_NO_TMP;
        if (is_precolored(a, d->tmp)) {
            if (excl == AIR_NO_TMP) {
                rdefs |= 1ull << d->tmp;
            } else {
                for (uint32_t j = 0; j < l->set.size; j++) {
                    uint32_t t = l->set.dense[j];
                    if (t != excl && !air_tmp_is_reg(t))
                        a->regmask[t] |= 1ull << d->tmp;
                }
            }
        } else {
            uint64_t *row = mat_row(&a->mat, a->node[d->tmp]);
            bool excl_node = excl != AIR_NO_TMP && !air_tmp_is_reg(excl) && a->state[excl] != N_NONE;
            bool had = excl_node && mat_has(&a->mat, a->node[d->tmp], a->node[excl]);
            for (uint32_t w = 0; w < a->mat.words; w++)
                row[w] |= l->bits[w];
            if (excl_node && !had)
                row[a->node[excl] >> 6] &= ~(1ull << (a->node[excl] & 63));
            uint64_t regs = l->regs & a->alloc_regs;
            if (excl != AIR_NO_TMP && air_tmp_is_reg(excl))
                regs &= ~(1ull << excl);
            a->regmask[d->tmp] |= regs;
        }
        bool dreg = air_tmp_is_reg(d->tmp);
        for (uint32_t j = 0; j < acts.n; j++)
            if (j != i && acts.v[j].tmp != excl && !(dreg && air_tmp_is_reg(acts.v[j].tmp)))
                add_edge(a, d->tmp, acts.v[j].tmp);
    }
    rdefs &= a->alloc_regs;
    if (rdefs)
        for (uint32_t j = 0; j < l->set.size; j++)
            if (!air_tmp_is_reg(l->set.dense[j]))
                a->regmask[l->set.dense[j]] |= rdefs;
}

/* Dense graphs get the matrix: it costs nnodes^2 bits, adjacency lists about
 * 8 bytes per (def, live tmp) pair, estimated from the blocks' live sets. */
static void choose_graph(Alloc *a, const AirLiveness *lv) {
    uint32_t words = (a->nnodes + 63) / 64;
    uint64_t pairs = 0;
    for (uint32_t bi = 0; bi < a->c->nblocks; bi++) {
        const AirBlock *b = a->c->blocks[bi];
        pairs += ((uint64_t)lv->nlive_in[bi] + lv->nlive_out[bi]) * (b->ninsts + 1) / 4;
    }
    uint64_t bytes = (uint64_t)words * words * 64 * 8;
#ifdef AIR_REGALLOC_LISTS
    bytes = UINT64_MAX; /* test builds: cover the adjacency lists */
#endif
    if (bytes <= (256u << 10) || bytes <= 8 * pairs) {
        a->mat.words = words;
        a->mat.bits = b3_xcalloc(PHASE, (size_t)words * 64 * words, sizeof(uint64_t));
        a->adj = b3_xcalloc(PHASE, AIR_FIRST_VTMP, sizeof(Vec)); /* only registers' (empty) lists are read */
    } else {
        a->adj = b3_xcalloc(PHASE, a->n, sizeof(Vec));
        a->mark = b3_xcalloc(PHASE, a->n, sizeof(uint32_t)); /* dedup on lists */
    }
}

/* Walks each block's boundaries backwards (see liveness.h): at boundary k,
 * inst k's early moment, then inst k-1's late one. */
static void build(Alloc *a, const AirLiveness *lv, const AirActs *acts) {
    a->building = true;
    BuildLive l = {.bits = a->mat.bits ? b3_xcalloc(PHASE, a->mat.words, sizeof(uint64_t)) : NULL};
    air_tmpset_init(&l.set, a->n);
    for (uint32_t bi = 0; bi < a->c->nblocks; bi++) {
        AirBlock *b = a->c->blocks[bi];
        const uint32_t *st = acts->start + 2 * (size_t)acts->first[bi];
        air_tmpset_clear(&l.set);
        for (uint32_t i = 0; i < lv->nlive_out[bi]; i++)
            live_add(a, &l, lv->live_out[bi][i]);
        for (int32_t k = (int32_t)b->ninsts; k >= 0; k--) {
            /* E: inst k's early moment. */
            Moment early = {acts->v + st[2 * k], k < (int32_t)b->ninsts ? st[2 * k + 1] - st[2 * k] : 0};
            if (l.bits)
                matrix_moment_edges(a, &l, early, AIR_NO_TMP);
            else
                add_moment_edges(a, early, &l.set, AIR_NO_TMP);
            apply_moment(a, &l, early);
            if (k == 0)
                break;
            /* L: inst k-1's late moment. */
            Moment late = {acts->v + st[2 * k - 1], st[2 * k] - st[2 * k - 1]};
            AirTmp copy_src = AIR_NO_TMP;
            uint32_t ci = a->f->copy[acts->first[bi] + (uint32_t)k - 1];
            if (ci) {
                const struct Copy *cp = &a->f->copies[ci - 1];
                register_move(a, cp->src, cp->dst, cp->freq);
                if (copy_is_pure(cp->move32, cp->src, cp->dst, a->f))
                    copy_src = cp->src;
            }
            if (l.bits)
                matrix_moment_edges(a, &l, late, copy_src);
            else
                add_moment_edges(a, late, &l.set, copy_src);
            apply_moment(a, &l, late);
        }
        /* What is live into the block was counted down to boundary 0. */
        while (l.set.size)
            live_remove(a, &l, l.set.dense[l.set.size - 1]);
        l.regs = 0;
    }
    air_tmpset_free(&l.set);
    free(l.bits);
}

/* ---- assign colors ---- */

/* Matrix graphs: `colored` holds the nodes whose representative has a
 * register so far and ncol[i] its rank, so a node's row is ANDed with
 * `colored` a word at a time and only colored neighbours are visited, with
 * no alias chasing; head/next chain each representative's coalesced nodes. */
typedef struct {
    uint64_t *colored;
    uint8_t *ncol;
    uint32_t *head, *next;
} ColorCache;

static void color_cache_init(const Alloc *a, ColorCache *cc) {
    uint32_t nn = a->nnodes;
    cc->colored = b3_xcalloc(PHASE, a->mat.words, sizeof(uint64_t));
    cc->ncol = b3_xcalloc(PHASE, nn, 1);
    cc->head = b3_xcalloc(PHASE, nn, sizeof(uint32_t));
    cc->next = b3_xcalloc(PHASE, nn, sizeof(uint32_t));
    memset(cc->head, 0xff, nn * sizeof(uint32_t));
    for (uint32_t i = 0; i < nn; i++) {
        uint32_t t = a->node_tmp[i];
        if (a->state[t] != N_COALESCED)
            continue;
        uint32_t r = get_alias(a, t);
        if (is_precolored(a, r)) {
            air_bit_set(cc->colored, i);
            cc->ncol[i] = (uint8_t)a->rf.rank[r];
        } else {
            cc->next[i] = cc->head[a->node[r]];
            cc->head[a->node[r]] = i;
        }
    }
}

static uint64_t color_cache_taken(const Alloc *a, const ColorCache *cc, uint32_t t) {
    const uint64_t *row = mat_row(&a->mat, a->node[t]);
    uint64_t all = a->rf.k == 64 ? ~0ull : (1ull << a->rf.k) - 1, taken = 0;
    for (uint64_t m = a->regmask[t]; m; m &= m - 1)
        taken |= 1ull << a->rf.rank[__builtin_ctzll(m)];
    for (uint32_t w = 0; w < a->mat.words && taken != all; w++)
        for (uint64_t bits = row[w] & cc->colored[w]; bits; bits &= bits - 1)
            taken |= 1ull << cc->ncol[64 * w + (uint32_t)__builtin_ctzll(bits)];
    return taken;
}

static void color_cache_set(const Alloc *a, ColorCache *cc, uint32_t t, int pick) {
    uint32_t i = a->node[t];
    air_bit_set(cc->colored, i);
    cc->ncol[i] = (uint8_t)pick;
    for (uint32_t m = cc->head[i]; m != UINT32_MAX; m = cc->next[m]) {
        air_bit_set(cc->colored, m);
        cc->ncol[m] = (uint8_t)pick;
    }
}

/* The registers t may take: none that a colored neighbour or a register it
 * meets holds (as a bit set over ranks). */
static uint64_t free_colors(Alloc *a, const ColorCache *cc, uint32_t t) {
    uint64_t ok = a->rf.k == 64 ? ~0ull : (1ull << a->rf.k) - 1;
    if (a->alive)
        return ok & ~color_cache_taken(a, cc, t);
    Nbrs it;
    uint32_t nb;
    for (nbrs_init(a, t, false, &it); nbrs_next(&it, &nb);) {
        uint32_t w = get_alias(a, nb);
        if (a->state[w] == N_COLORED || a->state[w] == N_PRECOLORED)
            ok &= ~(1ull << a->rf.rank[a->color[w]]);
    }
    return ok;
}

/* Gives t a register if one is free (a move partner's first, so the move
 * disappears); false if none is. */
static bool color_node(Alloc *a, ColorCache *cc, uint32_t t) {
    uint64_t ok = free_colors(a, cc, t);
    if (!ok)
        return false;
    int pick = -1;
    for (uint32_t i = 0; i < a->moves_of[t].n && pick < 0; i++) {
        const Move *m = &a->moves[a->moves_of[t].v[i]];
        uint32_t x = get_alias(a, m->src), y = get_alias(a, m->dst), o = x == t ? y : x;
        if ((a->state[o] == N_COLORED || a->state[o] == N_PRECOLORED) && (ok >> a->rf.rank[a->color[o]]) & 1)
            pick = a->rf.rank[a->color[o]];
    }
    if (pick < 0)
        pick = __builtin_ctzll(ok);
    a->state[t] = N_COLORED;
    a->color[t] = a->rf.order[pick];
    if (a->alive)
        color_cache_set(a, cc, t, pick);
    return true;
}

/* A tmp with a score (its uses, or how well it would spill), sorted highest
 * first, ties by tmp number. */
typedef struct {
    double score;
    uint32_t tmp;
} Victim;

static int cmp_victim(const void *pa, const void *pb) {
    const Victim *a = pa, *b = pb;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    return a->tmp < b->tmp ? -1 : a->tmp > b->tmp;
}

/* t, made of several tmps by coalescing, found no register.  Spilled
 * whole, its tmps share one slot and the copies between them go; parted
 * again (Park and Moon's optimistic coalescing), each tmp takes a register
 * of its own, the most used first, or spills alone, and the copies between
 * tmps that end up apart come back.  Parted if that costs less: the spilled
 * tmps' uses and the parted copies, weighted, against all the uses.  (A
 * value a state machine carries through Phis at every merge and rarely
 * uses is best kept whole in its slot; a hot loop's value and its next
 * trip's are best parted.) */
static void split_or_spill(Alloc *a, ColorCache *cc, uint32_t t, const uint32_t *first,
                           const uint32_t *next) {
    uint32_t n = 1;
    for (uint32_t m = first[t]; m != UINT32_MAX; m = next[m])
        n++;
    Victim *mem = b3_xmalloc(PHASE, n * sizeof(Victim));
    n = 0;
    mem[n++] = (Victim){a->own_uses[t], t};
    for (uint32_t m = first[t]; m != UINT32_MAX; m = next[m])
        mem[n++] = (Victim){a->own_uses[m], m};
    double whole = 0, parted = 0;
    for (uint32_t i = 0; i < n; i++) {
        whole += mem[i].score;
        a->alias[mem[i].tmp] = mem[i].tmp;
        a->state[mem[i].tmp] = N_SELECT;
    }
    uint32_t saved_head = 0;
    if (a->alive) {
        saved_head = cc->head[a->node[t]];
        cc->head[a->node[t]] = UINT32_MAX; /* t alone from here on */
    }
    qsort(mem, n, sizeof(Victim), cmp_victim);
    for (uint32_t i = 0; i < n; i++)
        if (!color_node(a, cc, mem[i].tmp)) {
            a->state[mem[i].tmp] = N_SPILLED;
            parted += mem[i].score;
        }
    /* The copies between the group's tmps that now join different places. */
    for (uint32_t i = 0; i < n && parted < whole; i++) {
        const Vec *ms = &a->moves_of[mem[i].tmp];
        for (uint32_t j = 0; j < ms->n; j++) {
            const Move *mv = &a->moves[ms->v[j]];
            uint32_t o = mv->src == mem[i].tmp ? mv->dst : mv->src;
            if (mv->state != M_COALESCED || o < mem[i].tmp || a->alias[o] != o ||
                (a->state[o] != N_COLORED && a->state[o] != N_SPILLED))
                continue; /* each copy once, from its lower end; only the group's */
            bool same = a->state[o] == a->state[mem[i].tmp] &&
                        (a->state[o] == N_SPILLED || a->color[o] == a->color[mem[i].tmp]);
            if (!same)
                parted += mv->freq;
        }
    }
    if (parted < whole) {
        for (uint32_t i = 0; i < n; i++)
            if (a->state[mem[i].tmp] == N_SPILLED)
                vec_push(&a->spilled, mem[i].tmp);
    } else {
        /* Back together, spilled whole. */
        for (uint32_t i = 0; i < n; i++) {
            uint32_t m = mem[i].tmp;
            if (a->alive && a->state[m] == N_COLORED)
                air_bit_clear(cc->colored, a->node[m]);
            if (m != t) {
                a->alias[m] = t;
                a->state[m] = N_COALESCED;
            }
        }
        if (a->alive)
            cc->head[a->node[t]] = saved_head;
        a->state[t] = N_SPILLED;
        vec_push(&a->spilled, t);
    }
    free(mem);
}

static void assign_colors(Alloc *a) {
    ColorCache cc = {0};
    if (a->alive)
        color_cache_init(a, &cc);
    /* Per node made of several tmps: the tmps coalesced into it. */
    uint32_t *first = b3_xmalloc(PHASE, (size_t)a->n * sizeof(uint32_t));
    uint32_t *next = b3_xmalloc(PHASE, (size_t)a->n * sizeof(uint32_t));
    memset(first, 0xff, (size_t)a->n * sizeof(uint32_t));
    for (uint32_t t = AIR_FIRST_VTMP; t < a->n; t++)
        if (a->state[t] == N_COALESCED) {
            uint32_t r = get_alias(a, t);
            if (a->state[r] == N_SELECT) {
                next[t] = first[r];
                first[r] = t;
            }
        }
    while (a->select_stack.n) {
        uint32_t t = a->select_stack.v[--a->select_stack.n];
        if (color_node(a, &cc, t))
            continue;
        if (first[t] != UINT32_MAX) {
            split_or_spill(a, &cc, t, first, next);
            continue;
        }
        a->state[t] = N_SPILLED;
        vec_push(&a->spilled, t);
    }
    free(first);
    free(next);
    free(cc.colored);
    free(cc.ncol);
    free(cc.head);
    free(cc.next);
}

/* ---- one round ---- */

static void alloc_init(Alloc *a, AirCode *c, AirBank bank, TmpFacts *f) {
    memset(a, 0, sizeof *a);
    a->c = c;
    a->bank = bank;
    a->f = f;
    air_reg_file(c, bank, &a->rf);
    uint32_t n = a->n = AIR_FIRST_VTMP + c->ntmps;
    /* Arrays every round: zeroed only where entries are read before written
     * (alias: coalesced nodes; node, node_tmp: the bank's nodes).  adj and
     * mark come with the graph representation (choose_graph). */
    a->state = b3_xcalloc(PHASE, n, 1);
    a->degree = b3_xcalloc(PHASE, n, sizeof(uint32_t));
    a->alias = b3_xmalloc(PHASE, (size_t)n * sizeof(uint32_t));
    a->color = b3_xcalloc(PHASE, n, 1);
    a->moves_of = b3_xcalloc(PHASE, n, sizeof(Vec));
    a->maybe_active = b3_xcalloc(PHASE, n, 1);
    memset(a->ra_lo, 0xff, sizeof a->ra_lo);
    a->regmask = b3_xcalloc(PHASE, n, sizeof(uint64_t));
    a->node = b3_xmalloc(PHASE, (size_t)n * sizeof(uint32_t));
    a->node_tmp = b3_xmalloc(PHASE, (size_t)n * sizeof(uint32_t));
    for (uint32_t r = 0; r < AIR_FIRST_VTMP; r++)
        if (a->rf.rank[r] >= 0) {
            a->state[r] = N_PRECOLORED;
            a->color[r] = (uint8_t)r;
            a->degree[r] = UINT32_MAX / 2;
            a->alloc_regs |= 1ull << r;
        }
    for (uint32_t t = AIR_FIRST_VTMP; t < n; t++)
        if (air_tmp_bank(c, t) == bank && f->appears[t]) {
            a->state[t] = N_INITIAL;
            a->node[t] = a->nnodes;
            a->node_tmp[a->nnodes++] = t;
        }
}

static void alloc_free(Alloc *a) {
    pool_free(&a->pool);
    free(a->state);
    free(a->degree);
    free(a->alias);
    free(a->color);
    free(a->adj);
    free(a->moves_of);
    free(a->mark);
    free(a->maybe_active);
    free(a->reg_active);
    free(a->moves);
    free(a->heap);
    free(a->mat.bits);
    free(a->csr);
    free(a->pairs);
    free(a->alive);
    free(a->hi);
    free(a->regcol);
    free(a->node);
    free(a->node_tmp);
    free(a->regmask);
    vec_free(&a->simplify_wl);
    vec_free(&a->freeze_wl);
    vec_free(&a->move_wl);
    vec_free(&a->select_stack);
    vec_free(&a->spilled);
}

static void run_coloring(Alloc *a) {
    /* Each tmp's own uses: coalescing adds the others' to a node's. */
    a->own_uses = b3_xmalloc(PHASE, (size_t)a->n * sizeof(double));
    memcpy(a->own_uses, a->f->uses, (size_t)a->n * sizeof(double));
    for (uint32_t t = AIR_FIRST_VTMP; t < a->n; t++) {
        if (a->state[t] != N_INITIAL)
            continue;
        if (a->degree[t] >= a->rf.k)
            set_state(a, t, N_SPILL);
        else if (move_related(a, t))
            set_state(a, t, N_FREEZE);
        else
            set_state(a, t, N_SIMPLIFY);
    }
    for (;;) {
        uint32_t t;
        if (pop_node(a, &a->simplify_wl, N_SIMPLIFY, &t)) {
            simplify(a, t);
        } else if (a->move_wl.n) {
            uint32_t mi = a->move_wl.v[--a->move_wl.n];
            if (a->moves[mi].state == M_WORKLIST)
                coalesce(a, mi);
        } else if (pop_node(a, &a->freeze_wl, N_FREEZE, &t)) {
            set_state(a, t, N_SIMPLIFY);
            freeze_moves(a, t);
        } else if (pop_spill(a, &t)) {
            set_state(a, t, N_SIMPLIFY);
            freeze_moves(a, t);
        } else {
            break;
        }
    }
    assign_colors(a);
    free(a->own_uses);
    a->own_uses = NULL;
}

/* ---- facts ---- */

typedef struct {
    AirCode *c;
    AirBank bank;
    TmpFacts *f;
    double freq;
    /* short-range detection */
    uint32_t *first, *last, *count, *stack_ok;
    uint32_t index;
    /* Tmp args seen within one inst of their tmp's first mention: every
     * mention of a short tmp, for the second pass to look at again. */
    struct FactMention {
        AirInst *inst;
        AirArg *arg;
        AirTmp tmp;
        uint8_t role, width;
    } * cand;
    uint32_t ncand, cap_cand;
} FactCtx;

static void fact_arg(void *vctx, AirInst *inst, AirArg *arg, AirRole role, AirBank bank, AirWidth width) {
    FactCtx *x = vctx;
    AirTmp ts[2];
    uint32_t nt = 0;
    if (arg->kind == AirArg_Tmp) {
        if (bank != x->bank)
            return;
        ts[nt++] = arg->base;
    } else if ((arg->kind == AirArg_Addr || arg->kind == AirArg_Index) && x->bank == AirGP) {
        ts[nt++] = arg->base;
        if (arg->kind == AirArg_Index)
            ts[nt++] = arg->index;
        role = AirRole_Use;
        width = AirW64;
    }
    for (uint32_t i = 0; i < nt; i++) {
        AirTmp t = ts[i];
        if (t == AIR_NO_TMP)
            continue;
        TmpFacts *f = x->f;
        f->appears[t] = 1;
        f->uses[t] += x->freq;
        if (air_role_is_use(role) && f->use_width[t] < width + 1)
            f->use_width[t] = (uint8_t)(width + 1);
        if (air_role_is_def(role)) {
            /* A Tmp-to-Tmp Move32 may be deleted as a coalesced copy, so it does not
             * count as zero-extending: otherwise removing `Move32 %a, %b` (b read
             * narrowly) and `Move32 %b, %c` (b "already zero-extended") together
             * would lose the zero extension. */
            bool z = (role == AirRole_ZDef || role == AirRole_UseZDef || role == AirRole_EarlyZDef) &&
                     !(air_move_kind((AirOpcode)inst->opcode) == AirMove_ZeroExtend &&
                       is_coalescable_move(inst, AirGP));
            uint8_t w = z ? (uint8_t)(width + 1) : (uint8_t)(AirW64 + 1);
            if (f->def_width[t] < w)
                f->def_width[t] = w;
        }
        if (air_tmp_is_reg(t))
            continue;
        if (x->count[t]++ == 0)
            x->first[t] = x->index;
        x->last[t] = x->index;
        if (arg->kind == AirArg_Tmp && x->index - x->first[t] <= 1) {
            B3_VEC_PUSH(PHASE, x->cand, x->ncand, x->cap_cand,
                        ((struct FactMention){inst, arg, t, (uint8_t)role, (uint8_t)width}));
        }
    }
}

/* Second pass: which mentions of short tmps could take the spill slot
 * directly (needs the widths, known after the first pass). */
static void fact_stack_args(FactCtx *x) {
    for (uint32_t i = 0; i < x->ncand; i++) {
        const struct FactMention *m = &x->cand[i];
        AirTmp t = m->tmp; /* not m->arg->base: the arg is cold by now */
        if (x->last[t] - x->first[t] > 1)
            continue;
        if (air_admits_stack(x->c, m->inst, m->arg, (AirRole)m->role, (AirWidth)m->width, x->f->use_width))
            x->stack_ok[t]++;
    }
}

/* ---- loop depth ----
 * B3 weighs a use by its block's frequency; B3 text rarely gives one, so a
 * block inside loops also counts 10^depth (capped) times: a value used in a
 * hot loop is kept in a register before one that only lives across it.
 * Loops are found from the back edges of a depth-first walk; each header's
 * body is the set of blocks reaching one of its back edges' tails without
 * passing the header.  The body walks stop after a budget linear in the size
 * of the procedure (later loops then count as depth 0: only a cost estimate). */
#define LOOP_DEPTH_CAP 6

static double *loop_weights(const AirCode *c) {
    uint32_t n = c->nblocks, m = n ? n : 1, nedges = 0;
    for (uint32_t b = 0; b < n; b++)
        nedges += c->blocks[b]->nsuccs;
    uint8_t *depth = b3_xcalloc(PHASE, m, 1), *state = b3_xcalloc(PHASE, m, 1);
    uint32_t *stack = b3_xcalloc(PHASE, m, sizeof(uint32_t)), *next = b3_xcalloc(PHASE, m, sizeof(uint32_t));
    uint32_t *mark = b3_xcalloc(PHASE, m, sizeof(uint32_t)), *work = b3_xcalloc(PHASE, m, sizeof(uint32_t));
    /* Back edges, listed per header (first_tail/next_tail: 1 + index, 0 ends). */
    uint32_t *tail = b3_xcalloc(PHASE, nedges + 1, sizeof(uint32_t)),
             *next_tail = b3_xcalloc(PHASE, nedges + 1, sizeof(uint32_t));
    uint32_t *first_tail = b3_xcalloc(PHASE, m, sizeof(uint32_t)),
             *heads = b3_xcalloc(PHASE, m, sizeof(uint32_t));
    uint32_t nheads = 0, nback = 0, sp = 0;
    if (n) {
        stack[sp++] = 0;
        state[0] = 1;
    }
    while (sp) {
        uint32_t b = stack[sp - 1];
        const AirBlock *blk = c->blocks[b];
        if (next[b] == blk->nsuccs) {
            state[b] = 2;
            sp--;
            continue;
        }
        uint32_t s = blk->succs[next[b]++].block->index;
        if (state[s] == 1) { /* s is on the walk's stack: b -> s closes a loop */
            if (!first_tail[s])
                heads[nheads++] = s;
            tail[nback] = b;
            next_tail[nback] = first_tail[s];
            first_tail[s] = ++nback;
        } else if (state[s] == 0) {
            state[s] = 1;
            stack[sp++] = s;
        }
    }
    uint64_t budget = 32 * (uint64_t)n + 4096;
    for (uint32_t h = 0; h < nheads && budget; h++) {
        uint32_t head = heads[h], stamp = h + 1, nw = 0;
        mark[head] = stamp;
        depth[head] += depth[head] < LOOP_DEPTH_CAP;
        for (uint32_t e = first_tail[head]; e; e = next_tail[e - 1])
            if (mark[tail[e - 1]] != stamp) {
                mark[tail[e - 1]] = stamp;
                work[nw++] = tail[e - 1];
            }
        while (nw && budget) {
            uint32_t b = work[--nw];
            budget--;
            depth[b] += depth[b] < LOOP_DEPTH_CAP;
            const AirBlock *bb = c->blocks[b];
            for (uint32_t p = 0; p < bb->npreds; p++) {
                uint32_t q = bb->preds[p]->index;
                if (state[q] && mark[q] != stamp) {
                    mark[q] = stamp;
                    work[nw++] = q;
                }
            }
        }
    }
    double *w = b3_xcalloc(PHASE, m, sizeof(double));
    for (uint32_t b = 0; b < n; b++) {
        double f = c->blocks[b]->frequency > 0 ? c->blocks[b]->frequency : 1.0;
        for (uint8_t d = 0; d < depth[b]; d++)
            f *= 10;
        w[b] = f;
    }
    free(depth);
    free(state);
    free(stack);
    free(next);
    free(mark);
    free(work);
    free(tail);
    free(next_tail);
    free(first_tail);
    free(heads);
    return w;
}

/* Extends the persistent per-tmp facts to n tmps, the new ones unspillable
 * and not to be split as told. */
static void grow_persistent(TmpFacts *f, uint32_t *cap, uint32_t n, uint8_t unspillable, uint8_t no_split) {
    if (*cap >= n)
        return;
    f->unspillable = b3_xrealloc(PHASE, f->unspillable, n);
    f->no_split = b3_xrealloc(PHASE, f->no_split, n);
    f->split_slot = b3_xrealloc(PHASE, f->split_slot, n * sizeof(AirStackSlot *));
    memset(f->unspillable + *cap, unspillable, n - *cap);
    memset(f->no_split + *cap, no_split, n - *cap);
    memset(f->split_slot + *cap, 0, (n - *cap) * sizeof(AirStackSlot *));
    *cap = n;
}

static void compute_facts(AirCode *c, AirBank bank, TmpFacts *f, uint32_t *unspill_cap) {
    uint32_t n = AIR_FIRST_VTMP + c->ntmps;
    free(f->use_width);
    free(f->def_width);
    free(f->appears);
    free(f->uses);
    free(f->span);
    f->use_width = b3_xcalloc(PHASE, n, 1);
    f->def_width = b3_xcalloc(PHASE, n, 1);
    f->appears = b3_xcalloc(PHASE, n, 1);
    f->uses = b3_xcalloc(PHASE, n, sizeof(double));
    f->span = b3_xcalloc(PHASE, n, sizeof(uint32_t));
    grow_persistent(f, unspill_cap, n, 0, 0);
    /* first/last are read only where count says the tmp was seen. */
    FactCtx x = {c,
                 bank,
                 f,
                 1.0,
                 b3_xmalloc(PHASE, (size_t)n * sizeof(uint32_t)),
                 b3_xmalloc(PHASE, (size_t)n * sizeof(uint32_t)),
                 b3_xcalloc(PHASE, n, sizeof(uint32_t)),
                 b3_xcalloc(PHASE, n, sizeof(uint32_t)),
                 0,
                 NULL,
                 0,
                 0};
    uint32_t ninsts = 0;
    for (uint32_t bi = 0; bi < c->nblocks; bi++)
        ninsts += c->blocks[bi]->ninsts;
    free(f->copy);
    f->copy = b3_xcalloc(PHASE, ninsts, sizeof(uint32_t));
    f->ncopies = 0;
    double *weight = loop_weights(c);
    for (uint32_t bi = 0, gi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        x.freq = weight[bi];
        for (uint32_t i = 0; i < b->ninsts; i++, x.index++, gi++) {
            AirInst *inst = &b->insts[i];
            air_for_each_arg(c, inst, fact_arg, &x);
            if (!is_coalescable_move(inst, bank))
                continue;
            B3_VEC_PUSH(
                PHASE, f->copies, f->ncopies, f->cap_copies,
                ((struct Copy){inst->args[0].base, inst->args[1].base,
                               air_move_kind((AirOpcode)inst->opcode) == AirMove_ZeroExtend, x.freq}));
            f->copy[gi] = f->ncopies;
        }
        x.index++; /* a tmp used in two blocks is never "short" */
    }
    free(weight);
    fact_stack_args(&x);
    free(x.cand);
    /* Spilling a tmp that lives from one inst to the next buys nothing unless every mention takes the slot. */
    for (uint32_t t = AIR_FIRST_VTMP; t < n; t++) {
        if (x.count[t])
            f->span[t] = x.last[t] - x.first[t];
        if (x.count[t] && x.last[t] - x.first[t] <= 1 && x.count[t] > x.stack_ok[t])
            f->unspillable[t] = 1;
    }
    free(x.first);
    free(x.last);
    free(x.count);
    free(x.stack_ok);
}

static void facts_free(TmpFacts *f) {
    free(f->use_width);
    free(f->def_width);
    free(f->appears);
    free(f->uses);
    free(f->span);
    free(f->unspillable);
    free(f->no_split);
    free(f->split_slot);
    free(f->copy);
    free(f->copies);
}

/* ---- spilling before coloring under extreme pressure ----
 * Where hundreds of tmps are live at once, coloring would spill nearly all of
 * them, but only after building their interference clique: quadratic time and
 * memory.  Instead a backward walk over the blocks spills, wherever more than
 * PRESPILL_TRIGGER virtual tmps are live, the live tmps with the longest span
 * per (frequency-weighted) mention until PRESPILL_TARGET remain, and the round
 * starts over.  Once that has happened, the rest of the walk uses the lower
 * PRESPILL_RETRIGGER: code that builds up such pressure keeps doing it (a
 * long block of values all live to its end), and each def then meets at most
 * that many live tmps rather than up to PRESPILL_TRIGGER.
 * Ordinary code never comes near the trigger (most tests peak near 20 live
 * tmps; the pressure test exec/gen-pressure.b3 at 402), so it is colored
 * exactly as before. */
#define PRESPILL_TRIGGER 512
#define PRESPILL_RETRIGGER 128
#define PRESPILL_TARGET 64

/* Spills the best candidates among the live tmps down to PRESPILL_TARGET. */
static void prespill_point(const TmpFacts *f, AirTmpSet *live, uint8_t *chosen, Vec *out, Victim **cand,
                           uint32_t *cap) {
    if (*cap < live->size) {
        *cap = live->size;
        *cand = b3_xrealloc(PHASE, *cand, (size_t)*cap * sizeof(Victim));
    }
    uint32_t nc = 0;
    for (uint32_t i = 0; i < live->size; i++) {
        uint32_t t = live->dense[i];
        if (!f->unspillable[t]) {
            double uses = f->uses[t] > 1e-9 ? f->uses[t] : 1e-9;
            (*cand)[nc++] = (Victim){(f->span[t] + 1.0) / uses, t};
        }
    }
    uint32_t want = live->size - PRESPILL_TARGET;
    if (want > nc)
        want = nc;
    qsort(*cand, nc, sizeof(Victim), cmp_victim);
    for (uint32_t i = 0; i < want; i++) {
        uint32_t t = (*cand)[i].tmp;
        chosen[t] = 1;
        vec_push(out, t);
        air_tmpset_remove(live, t);
    }
}

/* Spills if the live set holds too many.  stuck: every live tmp is
 * unspillable (fills of earlier spills), so until a spillable one
 * (added_spillable) comes along there is nothing to do. */
static void prespill_check(const TmpFacts *f, AirTmpSet *live, uint8_t *chosen, Vec *out, Victim **cand,
                           uint32_t *cap, bool *stuck, bool added_spillable) {
    uint32_t trigger = out->n ? PRESPILL_RETRIGGER : PRESPILL_TRIGGER;
    if (live->size <= trigger || (*stuck && !added_spillable))
        return;
    uint32_t before = out->n;
    prespill_point(f, live, chosen, out, cand, cap);
    *stuck = out->n == before;
}

/* Fewer spillable tmps of the bank than the trigger can never be too many. */
static bool prespill_possible(const AirCode *c, AirBank bank, const TmpFacts *f) {
    uint32_t n = 0;
    for (uint32_t t = AIR_FIRST_VTMP; t < AIR_FIRST_VTMP + c->ntmps; t++)
        if (f->appears[t] && air_tmp_bank(c, t) == bank && !f->unspillable[t] && ++n > PRESPILL_TRIGGER)
            return true;
    return false;
}

static void prespill(const AirCode *c, const TmpFacts *f, const AirLiveness *lv, const AirActs *acts,
                     Vec *out) {
    uint32_t n = AIR_FIRST_VTMP + c->ntmps, maxout = 0;
    for (uint32_t bi = 0; bi < c->nblocks; bi++)
        if (lv->nlive_out[bi] > maxout)
            maxout = lv->nlive_out[bi];
    /* Cheap exit: no block ends with many live tmps and no block is long
     * enough to build up many inside (a block's live count grows by at most
     * its mentions). */
    bool maybe = maxout > PRESPILL_TRIGGER;
    for (uint32_t bi = 0; bi < c->nblocks && !maybe; bi++)
        maybe = lv->nlive_out[bi] + (acts->start[2 * (size_t)acts->first[bi + 1]] -
                                     acts->start[2 * (size_t)acts->first[bi]]) >
                PRESPILL_TRIGGER;
    if (!maybe)
        return;
    uint8_t *chosen = b3_xcalloc(PHASE, n, 1);
    AirTmpSet live;
    air_tmpset_init(&live, n);
    Victim *cand = NULL;
    uint32_t cap = 0;
    bool stuck = false;
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        const AirBlock *b = c->blocks[bi];
        const uint32_t *st = acts->start + 2 * (size_t)acts->first[bi];
        air_tmpset_clear(&live);
        /* All of live-out first: the choice does not depend on the sets' order. */
        for (uint32_t i = 0; i < lv->nlive_out[bi]; i++) {
            uint32_t t = lv->live_out[bi][i];
            if (!air_tmp_is_reg(t) && !chosen[t])
                air_tmpset_add(&live, t);
        }
        stuck = false;
        prespill_check(f, &live, chosen, out, &cand, &cap, &stuck, true);
        for (uint32_t k = b->ninsts + 1; k-- > 0;) {
            /* Inst k's early moment (none at the end), then inst k-1's late one. */
            uint32_t elo = st[2 * k], ehi = k < b->ninsts ? st[2 * k + 1] : elo;
            uint32_t llo = k > 0 ? st[2 * k - 1] : elo, lhi = elo;
            for (int m = 0; m < 2; m++) {
                uint32_t lo = m ? llo : elo, hi = m ? lhi : ehi;
                for (uint32_t i = lo; i < hi; i++)
                    if (acts->v[i].def)
                        air_tmpset_remove(&live, acts->v[i].tmp);
                for (uint32_t i = lo; i < hi; i++) {
                    uint32_t t = acts->v[i].tmp;
                    if (!acts->v[i].def && !air_tmp_is_reg(t) && !chosen[t] && air_tmpset_add(&live, t))
                        prespill_check(f, &live, chosen, out, &cand, &cap, &stuck, !f->unspillable[t]);
                }
            }
        }
    }
    free(cand);
    free(chosen);
    air_tmpset_free(&live);
}

/* ---- spill code ---- */

/* Spilled nodes joined by copies share a slot when no tmp of one interferes
 * with a tmp of the other, the hottest copies first: the copy then goes away
 * instead of becoming a load and a store.  (Values that stay spilled across a
 * big switch carry a Phi at every merge, and each Phi's copies would
 * otherwise move the value from slot to slot.)  Copies the coloring left
 * between spilled nodes were frozen, so the graph says nothing of their
 * nodes as a whole; the test looks at every pair of their tmps, which never
 * lose an edge.  Returns, per spilled node, the spilled node whose slot it
 * takes. */
#define SLOT_SHARE_BUDGET (1u << 22) /* edge tests in all */

static uint32_t slot_group(uint32_t *group, uint32_t t) {
    while (group[t] != t) {
        group[t] = group[group[t]];
        t = group[t];
    }
    return t;
}

/* Can the copy's ends share a location?  A Move32 zero-extends: its
 * destination may take the source's slot only if nobody reads its upper half
 * (a narrow def in place leaves that half of the slot unwritten). */
static bool copy_fits_slot(const TmpFacts *f, const struct Copy *cp) {
    return !cp->move32 || f->use_width[cp->dst] <= AirW32 + 1;
}

static uint32_t *copy_slot_groups(const Alloc *a, AirStackSlot *const *take) {
    const TmpFacts *f = a->f;
    uint32_t n = a->n;
    uint32_t *group = b3_xmalloc(PHASE, (size_t)n * sizeof(uint32_t));
    uint32_t *next = b3_xmalloc(PHASE, (size_t)n * sizeof(uint32_t)); /* members, in a ring per group */
    for (uint32_t t = 0; t < n; t++)
        group[t] = next[t] = t;
    for (uint32_t t = AIR_FIRST_VTMP; t < n; t++)
        if (a->state[t] == N_COALESCED) {
            uint32_t r = get_alias(a, t);
            if (a->state[r] == N_SPILLED) {
                next[t] = next[r];
                next[r] = t;
            }
        }
    /* The copies between spilled nodes, hottest first (Victim's tmp: the copy's index). */
    Victim *order = b3_xmalloc(PHASE, (f->ncopies + 1) * sizeof(Victim));
    uint32_t norder = 0;
    for (uint32_t i = 0; i < f->ncopies; i++) {
        const struct Copy *cp = &f->copies[i];
        if (air_tmp_is_reg(cp->src) || air_tmp_is_reg(cp->dst) || a->state[cp->src] == N_NONE ||
            a->state[cp->dst] == N_NONE || !copy_fits_slot(f, cp))
            continue;
        uint32_t rs = get_alias(a, cp->src), rd = get_alias(a, cp->dst);
        if (a->state[rs] == N_SPILLED && a->state[rd] == N_SPILLED && !take[rs] && !take[rd])
            order[norder++] = (Victim){cp->freq, i};
    }
    qsort(order, norder, sizeof(Victim), cmp_victim);
    uint64_t budget = SLOT_SHARE_BUDGET;
    for (uint32_t k = 0; k < norder && budget; k++) {
        const struct Copy *cp = &f->copies[order[k].tmp];
        uint32_t x = slot_group(group, get_alias(a, cp->src)), y = slot_group(group, get_alias(a, cp->dst));
        if (x == y)
            continue;
        bool clash = false;
        uint32_t u = x;
        do {
            uint32_t v = y;
            do {
                clash = has_edge(a, u, v);
                v = next[v];
            } while (!clash && v != y && --budget);
            u = next[u];
        } while (!clash && u != x && budget);
        if (clash || !budget)
            continue;
        group[y] = x;
        uint32_t t = next[x]; /* splice the rings */
        next[x] = next[y];
        next[y] = t;
    }
    for (uint32_t t = AIR_FIRST_VTMP; t < n; t++)
        if (a->state[t] == N_SPILLED)
            next[t] = slot_group(group, t);
    free(order);
    free(group);
    return next;
}

/* ---- splitting around calls ----
 * A spilled tmp that lives across a call would be read from its slot at
 * every use.  Instead, in the blocks without a call where it lives or is
 * mentioned (its region), it becomes a fresh tmp, which crosses no call and
 * may take a caller-saved register: each of its defs there also stores to
 * the slot, so the slot holds the value wherever the tmp lives, and the
 * region loads it from the slot on each edge that enters it from a block
 * outside (a block with a call, where the tmp's mentions use the slot as
 * any spilled tmp's do).  The fresh tmp is colored like any other; if it
 * spills in turn, it is not split again. */
#define SPLIT_BUDGET (1u << 26) /* candidate tmps times blocks */
#define SPLIT_GAIN_FACTOR 1.0

typedef struct {
    AirTmp from, to;
    bool def;
} RenameCtx;

static void rename_tmp(void *vctx, AirInst *inst, AirTmp *tmp, AirRole role, AirBank bank, AirWidth width) {
    (void)inst;
    (void)bank;
    (void)width;
    RenameCtx *x = vctx;
    if (*tmp == x->from) {
        *tmp = x->to;
        x->def |= air_role_is_def(role);
    }
}

static bool inst_is_call(const AirInst *inst, const AirRegFile *rf) {
    if (!inst->special)
        return false;
    for (uint32_t i = 0; i < rf->k; i++)
        if (b3_regset_has(&inst->special->late_clobber, rf->order[i]))
            return true;
    return false;
}

/* Renames t to t2 in block b and stores t2 to the slot after each def;
 * load: t2 is loaded from the slot first. */
static void split_rewrite_block(AirCode *c, AirBank bank, AirBlock *b, AirTmp t, AirTmp t2,
                                const AirStackSlot *slot, bool load) {
    uint32_t cap = b->ninsts + 1 + load, n = 0;
    AirInst *out = b3_xmalloc(PHASE, cap * sizeof(AirInst));
    if (load)
        out[n++] = air_spill_move(c, bank, slot, t2, true, b->ninsts ? b->insts[0].origin : NULL);
    for (uint32_t i = 0; i < b->ninsts; i++) {
        RenameCtx x = {t, t2, false};
        air_for_each_tmp(c, &b->insts[i], rename_tmp, &x);
        if (n + 2 > cap) {
            cap = 2 * cap + 2;
            out = b3_xrealloc(PHASE, out, cap * sizeof(AirInst));
        }
        out[n++] = b->insts[i];
        if (x.def)
            out[n++] = air_spill_move(c, bank, slot, t2, false, b->insts[i].origin);
    }
    if (n > b->cap_insts) {
        b->cap_insts = n + n / 8 + 4;
        b->insts = b3_arena_alloc(c->arena, b->cap_insts * sizeof(AirInst));
    }
    memcpy(b->insts, out, n * sizeof(AirInst));
    b->ninsts = n;
    free(out);
}

/* Puts a load of t2 before b's terminal. */
static void split_load_at_end(AirCode *c, AirBank bank, AirBlock *b, AirTmp t2, const AirStackSlot *slot) {
    AirInst term = b->insts[b->ninsts - 1];
    air_block_reserve(c, b, b->ninsts + 1);
    b->insts[b->ninsts - 1] = air_spill_move(c, bank, slot, t2, true, term.origin);
    b->insts[b->ninsts++] = term;
}

typedef struct {
    uint32_t *first, *next, *blk; /* per tmp, lists of blocks (1 + entry index; 0 ends) */
    uint32_t n, cap;
} BlockLists;

static void block_list_add(BlockLists *l, uint32_t t, uint32_t b) {
    if (l->first[t] && l->blk[l->first[t] - 1] == b)
        return;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->next = b3_xrealloc(PHASE, l->next, l->cap * sizeof(uint32_t));
        l->blk = b3_xrealloc(PHASE, l->blk, l->cap * sizeof(uint32_t));
    }
    l->blk[l->n] = b;
    l->next[l->n] = l->first[t];
    l->first[t] = ++l->n;
}

typedef struct {
    BlockLists *l;
    uint32_t b;
    const AirStackSlot *const *slot_of;
    bool terminal;
    uint8_t *term_def; /* per tmp: defined by the current block's terminal */
    double use_w;      /* the block's weight if it has no call, else 0 */
    double *gain;      /* per tmp: its uses in blocks without a call, weighted */
} MentionCtx;

static void note_mention(void *vctx, AirInst *inst, AirTmp *tmp, AirRole role, AirBank bank, AirWidth width) {
    (void)inst;
    (void)bank;
    (void)width;
    MentionCtx *x = vctx;
    if (air_tmp_is_reg(*tmp) || !x->slot_of[*tmp])
        return;
    block_list_add(x->l, *tmp, x->b);
    if (air_role_is_use(role))
        x->gain[*tmp] += x->use_w;
    if (x->terminal && air_role_is_def(role))
        x->term_def[*tmp] = 1;
}

/* The block a pred stands for: an edge block made by an earlier split
 * stands for the block before it. */
static const AirBlock *split_pred(const AirBlock *q, uint32_t nold) {
    while (q->index >= nold && q->npreds == 1)
        q = q->preds[0];
    return q;
}

/* Do t's uses in its region (the blocks marked in[b] == t), weighted,
 * outweigh the loads entering the region would cost? */
static bool split_pays(const AirCode *c, uint32_t t, const BlockLists *live, const uint32_t *in,
                       const uint8_t *is_live_in, uint32_t nold, const double *w, double gain) {
    double cost = 0;
    for (uint32_t e = live->first[t]; e; e = live->next[e - 1]) {
        uint32_t bi = live->blk[e - 1];
        const AirBlock *b = c->blocks[bi];
        if (in[bi] != t || !is_live_in[bi])
            continue;
        if (b == c->blocks[0])
            cost += w[bi];
        for (uint32_t p = 0; p < b->npreds; p++) {
            const AirBlock *q = split_pred(b->preds[p], nold);
            if (q->index >= nold)
                cost += w[bi];
            else if (in[q->index] != t)
                cost += w[q->index] < w[bi] ? w[q->index] : w[bi];
        }
    }
    return gain > SPLIT_GAIN_FACTOR * cost;
}

/* Returns true if any tmp was split. */
static bool split_around_calls(AirCode *c, AirBank bank, AirStackSlot *const *slot_of, TmpFacts *f,
                               uint32_t *persist_cap) {
    const uint8_t *no_split = f->no_split; /* read only below the tmps made here */
    uint32_t n = AIR_FIRST_VTMP + c->ntmps, nold = c->nblocks, ncand = 0;
    AirRegFile rf;
    air_reg_file(c, bank, &rf);
    uint8_t *call = b3_xcalloc(PHASE, nold ? nold : 1, 1);
    bool any_call = false;
    for (uint32_t bi = 0; bi < nold; bi++)
        for (uint32_t i = 0; i < c->blocks[bi]->ninsts && !call[bi]; i++)
            any_call |= call[bi] = inst_is_call(&c->blocks[bi]->insts[i], &rf);
    for (uint32_t t = AIR_FIRST_VTMP; t < n; t++)
        ncand += slot_of[t] && !no_split[t];
    if (!any_call || !ncand || (uint64_t)ncand * nold > SPLIT_BUDGET) {
        free(call);
        return false;
    }
    AirLiveness lv;
    air_liveness_compute(&lv, c, bank);
    BlockLists live = {b3_xcalloc(PHASE, n, sizeof(uint32_t)), NULL, NULL, 0, 0};
    BlockLists ment = {b3_xcalloc(PHASE, n, sizeof(uint32_t)), NULL, NULL, 0, 0};
    uint8_t *term_def = b3_xcalloc(PHASE, n, 1);
    double *gain = b3_xcalloc(PHASE, n, sizeof(double));
    double *w = loop_weights(c);
    for (uint32_t bi = 0; bi < nold; bi++) {
        for (uint32_t i = 0; i < lv.nlive_in[bi]; i++) {
            uint32_t t = lv.live_in[bi][i];
            if (!air_tmp_is_reg(t) && slot_of[t] && !no_split[t])
                block_list_add(&live, t, bi);
        }
        MentionCtx x = {
            &ment, bi, (const AirStackSlot *const *)slot_of, false, term_def, call[bi] ? 0 : w[bi], gain};
        AirBlock *b = c->blocks[bi];
        for (uint32_t i = 0; i < b->ninsts; i++) {
            x.terminal = i + 1 == b->ninsts;
            air_for_each_tmp(c, &b->insts[i], note_mention, &x);
        }
    }
    /* Per block: 1 + the candidate whose region it is in (the current one). */
    uint32_t *in = b3_xcalloc(PHASE, nold ? nold : 1, sizeof(uint32_t));
    uint8_t *is_live_in = b3_xcalloc(PHASE, nold ? nold : 1, 1);
    bool changed = false;
    for (uint32_t t = AIR_FIRST_VTMP; t < n; t++) {
        if (!slot_of[t] || no_split[t] || term_def[t])
            continue;
        bool crosses = false, used = false;
        for (uint32_t e = live.first[t]; e; e = live.next[e - 1])
            crosses |= call[live.blk[e - 1]];
        for (uint32_t e = ment.first[t]; e; e = ment.next[e - 1])
            crosses |= call[ment.blk[e - 1]];
        for (uint32_t e = ment.first[t]; e; e = ment.next[e - 1])
            used |= !call[ment.blk[e - 1]];
        if (!crosses || !used)
            continue;
        for (int pass = 0; pass < 2; pass++) {
            BlockLists *l = pass ? &ment : &live;
            for (uint32_t e = l->first[t]; e; e = l->next[e - 1]) {
                uint32_t b = l->blk[e - 1];
                if (!call[b])
                    in[b] = t;
                if (!pass)
                    is_live_in[b] = 1;
            }
        }
        /* Worth it only if the region's uses, which would read the slot,
         * outweigh the loads on the edges entering it. */
        if (!split_pays(c, t, &live, in, is_live_in, nold, w, gain[t])) {
            for (int pass = 0; pass < 2; pass++) {
                BlockLists *l = pass ? &ment : &live;
                for (uint32_t e = l->first[t]; e; e = l->next[e - 1]) {
                    in[l->blk[e - 1]] = 0;
                    is_live_in[l->blk[e - 1]] = 0;
                }
            }
            continue;
        }
        AirTmp t2 = air_tmp_new(c, bank);
        /* May spill, but is not split again. */
        grow_persistent(f, persist_cap, AIR_FIRST_VTMP + c->ntmps, 0, 1);
        no_split = f->no_split;
        f->split_slot[t2] = slot_of[t];
        changed = true;
        bool split_edges = false;
        for (int pass = 0; pass < 2; pass++) {
            BlockLists *l = pass ? &ment : &live;
            for (uint32_t e = l->first[t]; e; e = l->next[e - 1]) {
                uint32_t bi = l->blk[e - 1];
                AirBlock *b = c->blocks[bi];
                if (in[bi] != t)
                    continue;
                in[bi] = UINT32_MAX; /* done */
                /* The edges entering the region here from outside. */
                uint32_t outside = 0;
                for (uint32_t p = 0; p < b->npreds; p++) {
                    const AirBlock *q = b->preds[p];
                    while (q->index >= nold && q->npreds == 1) /* an edge block split earlier */
                        q = q->preds[0];
                    outside += q->index >= nold || (in[q->index] != t && in[q->index] != UINT32_MAX);
                }
                bool top = is_live_in[bi] && (outside == b->npreds || b == c->blocks[0]);
                split_rewrite_block(c, bank, b, t, t2, slot_of[t], top);
                if (!is_live_in[bi] || top)
                    continue;
                for (uint32_t p = 0; p < b->npreds; p++) {
                    AirBlock *pb = b->preds[p];
                    const AirBlock *q = pb;
                    while (q->index >= nold && q->npreds == 1)
                        q = q->preds[0];
                    if (!(q->index >= nold || (in[q->index] != t && in[q->index] != UINT32_MAX)))
                        continue;
                    if (pb->nsuccs == 1 && !pb->insts[pb->ninsts - 1].special) {
                        split_load_at_end(c, bank, pb, t2, slot_of[t]);
                        continue;
                    }
                    for (uint32_t s = 0; s < pb->nsuccs; s++) {
                        if (pb->succs[s].block != b)
                            continue;
                        AirBlock *nb = air_block_new(c);
                        nb->frequency = pb->frequency < b->frequency ? pb->frequency : b->frequency;
                        AirInst ld = air_spill_move(c, bank, slot_of[t], t2, true, NULL);
                        air_append(c, nb, (AirOpcode)ld.opcode, NULL, 2, ld.args);
                        air_append(c, nb, Air_Jump, NULL, 0, NULL);
                        nb->succs = b3_arena_alloc(c->arena, sizeof(AirSucc));
                        nb->succs[0] = pb->succs[s];
                        nb->nsuccs = 1;
                        pb->succs[s].block = nb;
                    }
                    split_edges = true;
                }
            }
        }
        for (int pass = 0; pass < 2; pass++) {
            BlockLists *l = pass ? &ment : &live;
            for (uint32_t e = l->first[t]; e; e = l->next[e - 1]) {
                in[l->blk[e - 1]] = 0;
                is_live_in[l->blk[e - 1]] = 0;
            }
        }
        if (split_edges)
            air_compute_preds(c);
    }
    free(in);
    free(is_live_in);
    free(call);
    free(term_def);
    free(gain);
    free(w);
    free(live.first);
    free(live.next);
    free(live.blk);
    free(ment.first);
    free(ment.next);
    free(ment.blk);
    air_liveness_free(&lv);
    return changed;
}

/* Is the inst a load or store between a tmp and the slot the tmp now takes
 * (a split tmp's, which spilled into its parent's slot)? */
static bool moves_within_slot(const AirInst *inst, AirBank bank, AirStackSlot *const *slot_of, uint32_t n) {
    if (inst->nargs != 2 || inst->special)
        return false;
    AirOpcode op = (AirOpcode)inst->opcode;
    if (air_move_kind(op) == AirMove_None || air_move_bank(op) != bank)
        return false;
    for (int k = 0; k < 2; k++) {
        const AirArg *m = &inst->args[k], *r = &inst->args[1 - k];
        if (m->kind == AirArg_Stack && m->value == 0 && r->kind == AirArg_Tmp && !air_tmp_is_reg(r->base) &&
            r->base < n && slot_of[r->base] == m->u.slot)
            return true;
    }
    return false;
}

/* Deletes the copies whose ends now share a slot, and the loads and stores
 * between a tmp and its own slot. */
static void drop_copies_within_slots(AirCode *c, AirBank bank, AirStackSlot *const *slot_of, uint32_t n,
                                     const TmpFacts *f) {
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        uint32_t out = 0;
        for (uint32_t ii = 0; ii < b->ninsts; ii++) {
            const AirInst *inst = &b->insts[ii];
            if (is_coalescable_move(inst, bank)) {
                AirTmp s = inst->args[0].base, d = inst->args[1].base;
                struct Copy cp = {s, d, air_move_kind((AirOpcode)inst->opcode) == AirMove_ZeroExtend, 0};
                if (!air_tmp_is_reg(s) && !air_tmp_is_reg(d) && s < n && d < n && slot_of[s] &&
                    slot_of[s] == slot_of[d] && copy_fits_slot(f, &cp))
                    continue;
            } else if (moves_within_slot(inst, bank, slot_of, n)) {
                continue;
            }
            b->insts[out++] = b->insts[ii];
        }
        b->ninsts = out;
    }
}

/* Rewrites the mentions of the spilled tmps; a (NULL for spills chosen
 * before coloring) tells which tmps were coalesced into spilled ones. */
static void insert_spill_code(AirCode *c, AirBank bank, const Vec *spilled, const Alloc *a, TmpFacts *f,
                              uint32_t *unspill_cap) {
    uint32_t n = AIR_FIRST_VTMP + c->ntmps;
    AirStackSlot **slot_of = b3_xcalloc(PHASE, n, sizeof(AirStackSlot *));
    /* A spilled node made only of tmps split from one slot takes that slot:
     * the split's loads and stores of it then do nothing and go, and the
     * node's mentions use the slot as the parent's did.  The slot already
     * holds the value wherever the node lives. */
    AirStackSlot **take = b3_xcalloc(PHASE, n, sizeof(AirStackSlot *));
    for (uint32_t i = 0; i < spilled->n; i++)
        take[spilled->v[i]] = f->split_slot[spilled->v[i]];
    for (uint32_t t = AIR_FIRST_VTMP; a && t < n; t++)
        if (a->state[t] == N_COALESCED) {
            uint32_t r = get_alias(a, t);
            if (a->state[r] == N_SPILLED && take[r] != f->split_slot[t])
                take[r] = NULL;
        }
    uint32_t *group = a ? copy_slot_groups(a, take) : NULL;
    for (uint32_t i = 0; i < spilled->n; i++) {
        uint32_t t = spilled->v[i], g = group ? group[t] : t;
        if (take[t]) {
            slot_of[t] = take[t];
            continue;
        }
        if (!slot_of[g])
            slot_of[g] = air_slot_new(c, 8, 8, true);
        slot_of[t] = slot_of[g];
    }
    free(group);
    /* Tmps coalesced into a spilled node share its slot: they never interfere. */
    for (uint32_t t = AIR_FIRST_VTMP; a && t < n; t++)
        if (a->state[t] == N_COALESCED) {
            uint32_t r = get_alias(a, t);
            if (a->state[r] == N_SPILLED)
                slot_of[t] = slot_of[r];
        }
    /* A slot whose tmps are never read wider than 32 bits is filled and
     * stored at 32 bits: mentions rewritten to the slot (a Move32 or an
     * Add32 into it) store 4 bytes, and an 8-byte reload of a 4-byte store
     * cannot be forwarded from the store buffer (a stall of ~10 cycles). */
    for (uint32_t i = 0; i < spilled->n; i++)
        if (!take[spilled->v[i]]) /* a taken slot keeps its width */
            slot_of[spilled->v[i]]->narrow = true;
    for (uint32_t t = AIR_FIRST_VTMP; t < n; t++)
        if (slot_of[t] && slot_of[t] != f->split_slot[t] && f->use_width[t] > AirW32 + 1)
            slot_of[t]->narrow = false;
    free(take);
    if (a && c->opt_level >= 2)
        split_around_calls(c, bank, slot_of, f, unspill_cap);
    drop_copies_within_slots(c, bank, slot_of, n, f);
    AirSpiller sp = {.c = c, .bank = bank, .slot_of = slot_of, .nslot_of = n, .use_width = f->use_width};
    uint32_t nblocks = c->nblocks; /* not the edge blocks it adds */
    for (uint32_t bi = 0; bi < nblocks; bi++)
        air_spill_rewrite_block(&sp, bi);
    bool split = sp.split;
    air_spiller_free(&sp);
    free(slot_of);
    /* Everything the spill code introduced must get a register. */
    uint32_t nn = AIR_FIRST_VTMP + c->ntmps;
    grow_persistent(f, unspill_cap, nn, 1, 1);
    if (split)
        air_compute_preds(c);
}

/* ---- final rewrite ---- */

typedef struct {
    AirBank bank;
    const uint8_t *color;
    const uint8_t *state;
} AssignCtx;

static void assign_tmp(void *vctx, AirInst *inst, AirTmp *tmp, AirRole role, AirBank bank, AirWidth width) {
    (void)inst;
    (void)role;
    (void)width;
    AssignCtx *x = vctx;
    if (air_tmp_is_reg(*tmp) || bank != x->bank)
        return;
    *tmp = x->color[*tmp];
}

#ifdef AIR_REGALLOC_VERIFY
/* Test builds: re-derives interference from fresh liveness (not from the
 * allocator's graph) and checks the coloring against it. */
static uint32_t reg_of(const Alloc *a, uint32_t t) {
    if (air_tmp_is_reg(t))
        return t;
    uint32_t r = get_alias(a, t);
    return air_tmp_is_reg(r) ? r : a->color[r];
}

static void verify_moment(const Alloc *a, const AirActionList *acts, const AirTmpSet *live,
                          const AirInst *move, uint32_t bi, uint32_t k) {
    for (uint32_t i = 0; i < acts->n; i++) {
        const AirAction *d = &acts->v[i];
        if (!d->def || a->state[d->tmp] == N_NONE)
            continue;
        uint32_t rd = reg_of(a, d->tmp);
        AirTmp excl = move && d->inst == move && !d->clobber ? move->args[0].base : AIR_NO_TMP;
        for (uint32_t j = 0; j <= live->size + acts->n; j++) {
            uint32_t t = j < live->size             ? live->dense[j]
                         : j - live->size < acts->n ? acts->v[j - live->size].tmp
                                                    : 0;
            if (j == live->size + acts->n || (j >= live->size && j - live->size == i))
                continue;
            if (t == d->tmp || t == excl || a->state[t] == N_NONE)
                continue;
            if (reg_of(a, t) == rd)
                b3_internal_error(PHASE, "verify: BB#%u boundary %u: %u and %u share register %u", bi, k,
                                  d->tmp, t, rd);
        }
    }
}

static void verify_coloring(AirCode *c, Alloc *a) {
    AirLiveness lv;
    air_liveness_compute(&lv, c, a->bank);
    AirTmpSet live;
    air_tmpset_init(&live, a->n);
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        AirLocalLiveness lc;
        air_local_init(&lc, &lv, b, &live);
        while (!lc.done) {
            uint32_t k = lc.boundary;
            verify_moment(a, &lc.early, &live, NULL, bi, k);
            air_apply_actions(&lc.early, &live);
            const AirInst *move = k > 0 && is_coalescable_move(&b->insts[k - 1], a->bank) &&
                                          move_is_pure_copy(&b->insts[k - 1], a->f)
                                      ? &b->insts[k - 1]
                                      : NULL;
            verify_moment(a, &lc.late, &live, move, bi, k);
            air_apply_actions(&lc.late, &live);
            air_local_advance(&lc);
        }
        air_local_free(&lc);
    }
    air_tmpset_free(&live);
    air_liveness_free(&lv);
}
#endif

static void apply_colors(AirCode *c, Alloc *a) {
    /* Resolve coalesced tmps to their representative's register. */
    for (uint32_t t = AIR_FIRST_VTMP; t < a->n; t++) {
        if (a->state[t] == N_COALESCED) {
            uint32_t r = get_alias(a, t);
            a->color[t] = a->color[r];
        } else if (a->state[t] != N_COLORED && a->f->appears[t] && air_tmp_bank(c, t) == a->bank) {
            b3_internal_error(PHASE, "tmp %u left without a register", t - AIR_FIRST_VTMP);
        }
    }
    AssignCtx x = {a->bank, a->color, a->state};
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        uint32_t out = 0;
        for (uint32_t ii = 0; ii < b->ninsts; ii++) {
            AirInst *inst = &b->insts[ii];
            bool copy = is_coalescable_move(inst, a->bank) && move_is_pure_copy(inst, a->f);
            air_for_each_tmp(c, inst, assign_tmp, &x);
            if (copy && inst->args[0].base == inst->args[1].base)
                continue; /* the move was coalesced away */
            b->insts[out++] = *inst;
        }
        b->ninsts = out;
    }
}

static void allocate_bank(AirCode *c, AirBank bank) {
    TmpFacts f = {0};
    uint32_t unspill_cap = 0;
    /* Spilling only lowers pressure, so after a round without extreme
     * pressure none comes back. */
    bool check_pressure = true;
    for (int round = 0;; round++) {
        if (round == MAX_ROUNDS)
            b3_internal_error(PHASE, "%s allocation did not converge after %d rounds",
                              bank == AirGP ? "GP" : "FP", MAX_ROUNDS);
        compute_facts(c, bank, &f, &unspill_cap);
        /* Gathered once: liveness and the interference walk both need them. */
        AirActs acts;
        air_acts_gather(&acts, c, bank);
        /* The interference walk needs the ordered sets (edge order steers
         * coloring), but where they are huge (thousands of tmps live across
         * thousands of blocks) their dataflow is slow and extreme pressure is
         * likely: then look for it first on the unordered sets, which are
         * cheaper and give the same spill choice. */
        AirLiveness lv;
        Vec early = {0};
        bool have = false;
        if (check_pressure && prespill_possible(c, bank, &f)) {
            uint64_t budget = 16 * ((uint64_t)acts.nv + c->nblocks) + (1u << 16);
            have = air_liveness_compute_acts_bounded(&lv, c, &acts, budget);
            if (have) {
                prespill(c, &f, &lv, &acts, &early);
            } else {
                AirLiveness ul;
                air_liveness_compute_acts_unordered(&ul, c, &acts);
                prespill(c, &f, &ul, &acts, &early);
                air_liveness_free(&ul);
            }
        }
        if (early.n) {
            if (have)
                air_liveness_free(&lv);
            air_acts_free(&acts);
            insert_spill_code(c, bank, &early, NULL, &f, &unspill_cap);
            vec_free(&early);
            continue;
        }
        check_pressure = false;
        if (!have)
            air_liveness_compute_acts(&lv, c, &acts);
        Alloc a;
        alloc_init(&a, c, bank, &f);
        choose_graph(&a, &lv);
        air_liveness_free_live_in(&lv); /* the walk starts from live-out: less at the peak */
        build(&a, &lv, &acts);
        air_liveness_free(&lv);
        air_acts_free(&acts);
        finish_build(&a);
        run_coloring(&a);
        if (!a.spilled.n) {
#ifdef AIR_REGALLOC_VERIFY
            verify_coloring(c, &a);
#endif
            apply_colors(c, &a);
            alloc_free(&a);
            break;
        }
        insert_spill_code(c, bank, &a.spilled, &a, &f, &unspill_cap);
        alloc_free(&a);
    }
    facts_free(&f);
}

void air_allocate_registers(AirCode *c) {
    air_compute_preds(c); /* the loop weights walk them */
    allocate_bank(c, AirGP);
    allocate_bank(c, AirFP);
}
