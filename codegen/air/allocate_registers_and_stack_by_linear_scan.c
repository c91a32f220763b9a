/* Register and stack allocation by linear scan with lifetime holes, for -O1
 * (as Air's AllocateRegistersAndStackByLinearScan): fast to run, not the
 * best code.  (-O0 uses allocate_registers_fast.c, -O2 graph coloring.)
 *
 * Per bank: every inst g of the code (blocks in code order) has two
 * positions, its early moment 2g and its late moment 2g+1 (the timing of
 * liveness.h).  A virtual tmp gets its exact live ranges and their hull (its
 * interval, from the first position at which it is mentioned or live to the
 * last one); an allocatable register gets the exact list of ranges where it
 * holds a value or is written (fixed-register operands, clobbers of calls
 * and patchpoints).  Tmps are scanned by interval start; a tmp takes a
 * register whose fixed ranges and holders' ranges do not meet its own (so it
 * may live in another tmp's hole), preferring the register of a tmp it is
 * copied from or to.  With none free, whichever of the tmp and the holders
 * in its way ends last is spilled.  A spilled tmp lives in a spill slot
 * (regalloc.h's spill rewriter): each mention takes the slot where the
 * inst's form allows it, else a fresh tmp loaded before / stored after the
 * inst, whose interval is that inst's two positions and which is never
 * spilled; then a pass scans those fills (liveness is not recomputed; the
 * other tmps keep their registers), until one spills nothing.  The two
 * sides of a copy that the passes left apart then share a register where
 * they can (join_copies).  Finally the stack is laid out by
 * air_allocate_stack. */
#include <stdlib.h>
#include <string.h>

#include "codegen/air/liveness.h"
#include "codegen/air/phases.h"
#include "codegen/air/regalloc.h"
#include "util/vec.h"

#define PHASE "air linear scan allocation"
#define NONE UINT32_MAX
#define NO_REG 0xff
#define MAX_ROUNDS 64

typedef struct {
    uint32_t start, end; /* positions, inclusive */
} Range;

typedef struct {
    Range *v;
    uint32_t n, cap;
} Ranges;

/* Per register, the positions its fixed ranges and the tmps holding it
 * take (they never overlap, so a spilled holder's bits clear exactly): word
 * w of register r is bits[w * k + r], so that one word row serves all the
 * registers a tmp is tested against; busy[w] has bit r set when bits[w * k +
 * r] is not empty, so that a word a range covers whole is one test for all
 * the registers. */
typedef struct {
    uint64_t *bits;
    uint32_t *busy;
    uint32_t k, words;
} Occ;

typedef struct {
    AirTmp a, d; /* source and destination */
    double w;    /* the block's frequency */
} Copy;

typedef struct {
    AirCode *c;
    AirBank bank;
    AirRegFile rf;
    uint32_t n, cap;       /* tmp numbers < n have the per-tmp arrays below */
    uint32_t *start, *end; /* the interval (start == NONE: not of this bank, or never mentioned) */
    uint8_t *unspillable;  /* fills of spilled tmps */
    uint8_t *spilled;      /* rewritten to a spill slot: no interval any more */
    uint8_t *reg;          /* the register assigned, or NO_REG */
    AirTmp *hint;          /* a tmp (or register) it is copied from or to */
    Ranges fixed[32];      /* per register rank: where the register is taken, sorted */
    uint32_t npos;         /* positions 0 .. npos-1 */
    uint32_t **pos;        /* per block, per inst: its inst number g, or NONE for spill code */
    uint32_t *npos_of;     /* per block: length of pos[block] */
    uint32_t nblocks_pos;
    AirActs acts;           /* of the code before spilling: what each inst g mentions */
    uint32_t nb_acts;       /* the blocks acts covers (not the edge blocks spill code adds) */
    uint8_t *touched;       /* per block: has spill code */
    uint32_t nslot_classes; /* spill slots shared by tmps whose intervals are disjoint */
    /* Lifetime holes.  The tmps below nr (those of the code before
     * spilling) have their exact live ranges rv[rfirst[t] ..][0 .. rn[t]),
     * sorted; the others (fills) and any with rn 0 have just their hull. */
    uint32_t nr;
    Range *rv;
    uint32_t *rfirst, *rn;
    uint32_t *rcur; /* per tmp below nr: its first range not ending before the scan position */
    Occ fixed_occ;  /* the registers' fixed ranges, the start of the first scan */
    Occ occ;        /* the positions taken after the last scan */
    Copy *cp;       /* the copies between tmps (or a tmp and a register) of the code before spilling */
    uint32_t ncp, capcp;
    uint16_t copy_ops[2]; /* the bank's copies: Move and Move32, or MoveDouble and MoveFloat */
    uint32_t nscanned;    /* tmps below it were scanned (0: none yet) */
} LS;

static void ls_grow(LS *s, uint32_t n) {
    if (n <= s->cap) {
        s->n = n > s->n ? n : s->n;
        return;
    }
    uint32_t cap = n + n / 2 + 64;
    s->start = b3_xrealloc(PHASE, s->start, cap * sizeof(uint32_t));
    s->end = b3_xrealloc(PHASE, s->end, cap * sizeof(uint32_t));
    s->unspillable = b3_xrealloc(PHASE, s->unspillable, cap);
    s->spilled = b3_xrealloc(PHASE, s->spilled, cap);
    s->reg = b3_xrealloc(PHASE, s->reg, cap);
    s->hint = b3_xrealloc(PHASE, s->hint, cap * sizeof(AirTmp));
    for (uint32_t t = s->cap; t < cap; t++) {
        s->start[t] = s->end[t] = NONE;
        s->unspillable[t] = s->spilled[t] = 0;
        s->reg[t] = NO_REG;
        s->hint[t] = AIR_NO_TMP;
    }
    s->cap = cap;
    s->n = n;
}

static inline void extend(LS *s, AirTmp t, uint32_t p) {
    if (s->start[t] == NONE || p < s->start[t])
        s->start[t] = p;
    if (s->end[t] == NONE || p > s->end[t])
        s->end[t] = p;
}

/* The pushes below are inline, their growing is not. */
static void ranges_grow(Ranges *r) { B3_VEC_RESERVE(PHASE, r->v, r->cap, (size_t)r->n + 1); }

static inline void range_add(Ranges *r, uint32_t start, uint32_t end) {
    if (r->n >= r->cap)
        ranges_grow(r);
    r->v[r->n++] = (Range){start, end};
}

static int cmp_range(const void *pa, const void *pb) {
    const Range *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return a->end < b->end ? -1 : a->end > b->end;
}

/* Merges overlapping ranges, given in order of start, so that they are
 * ordered by end too. */
static void ranges_finish(Ranges *r) {
    if (r->n < 2)
        return;
    uint32_t out = 0;
    for (uint32_t i = 1; i < r->n; i++) {
        if (r->v[i].start <= r->v[out].end) {
            if (r->v[i].end > r->v[out].end)
                r->v[out].end = r->v[i].end;
        } else {
            r->v[++out] = r->v[i];
        }
    }
    r->n = out + 1;
}

/* The ranges one block added (walking it backwards, so by descending
 * start) put in ascending order: blocks come in code order. */
static void ranges_reverse_from(Ranges *r, uint32_t from) {
    for (uint32_t i = from, j = r->n; i + 1 < j; i++, j--) {
        Range t = r->v[i];
        r->v[i] = r->v[j - 1];
        r->v[j - 1] = t;
    }
}

/* ---- intervals ---- */

/* ---- liveness ----
 * Only tmps with an upward-exposed use somewhere can be live into a block;
 * in big procedures hundreds of them live across most blocks.  Bit sets over those (densely numbered) make the dataflow a few
 * word operations per block and pass, far cheaper than sparse sets; where
 * the bit sets would be large, liveness.c's sparse solver does it.  Only
 * live-out is read (build_ranges, build_fixed_ranges). */

#define BITSET_MAX_WORDS (4u << 20) /* per set kind: 32 MiB */

typedef struct {
    uint32_t words, nb;
    uint64_t *in, *out; /* nb rows of words */
    AirTmp *tmp_of;     /* dense number -> tmp */
    uint32_t *dense;    /* tmp -> dense number, or NONE */
} LiveBits;

static void livebits_free(LiveBits *lb) {
    free(lb->in);
    free(lb->out);
    free(lb->tmp_of);
    free(lb->dense);
}

/* False if the bit sets would be too large. */
static bool bitset_liveness(LiveBits *lb, const AirCode *c, const AirActs *acts, uint32_t universe) {
    uint32_t nb = c->nblocks;
    uint32_t *stamp =
        b3_xmalloc(PHASE, universe * sizeof(uint32_t)); /* the block defining it, then its number */
    uint8_t *global = b3_xcalloc(PHASE, universe, 1);
    for (uint32_t t = 0; t < universe; t++)
        stamp[t] = NONE;
    uint32_t ng = 0;
    /* An upward-exposed use makes a tmp global. */
    for (uint32_t bi = 0; bi < nb; bi++)
        for (uint32_t p = 2 * acts->first[bi]; p < 2 * acts->first[bi + 1]; p++) {
            for (uint32_t i = acts->start[p]; i < acts->start[p + 1]; i++)
                if (!acts->v[i].def && stamp[acts->v[i].tmp] != bi && !global[acts->v[i].tmp]) {
                    global[acts->v[i].tmp] = 1;
                    ng++;
                }
            for (uint32_t i = acts->start[p]; i < acts->start[p + 1]; i++)
                if (acts->v[i].def)
                    stamp[acts->v[i].tmp] = bi;
        }
    uint32_t words = (ng + 63) / 64;
    if ((uint64_t)words * nb > BITSET_MAX_WORDS) {
        free(stamp);
        free(global);
        return false;
    }
    lb->tmp_of = b3_xmalloc(PHASE, (ng + 1) * sizeof(AirTmp));
    ng = 0;
    for (uint32_t t = 0; t < universe; t++) {
        stamp[t] = global[t] ? ng : NONE;
        if (global[t])
            lb->tmp_of[ng++] = t;
    }
    free(global);
    lb->dense = stamp;
    lb->words = words;
    lb->nb = nb;
    size_t total = (size_t)words * nb;
    uint64_t *in = b3_xcalloc(PHASE, total, 8), *out = b3_xcalloc(PHASE, total, 8),
             *kill = b3_xcalloc(PHASE, total, 8);
    /* gen goes straight into in, where it stays; live-out minus kill is added. */
    for (uint32_t bi = 0; bi < nb; bi++) {
        uint64_t *gi = in + (size_t)bi * words, *ki = kill + (size_t)bi * words;
        for (uint32_t p = 2 * acts->first[bi]; p < 2 * acts->first[bi + 1]; p++) {
            for (uint32_t i = acts->start[p]; i < acts->start[p + 1]; i++) {
                uint32_t d = stamp[acts->v[i].tmp];
                if (!acts->v[i].def && d != NONE && !air_bit_has(ki, d))
                    air_bit_set(gi, d);
            }
            for (uint32_t i = acts->start[p]; i < acts->start[p + 1]; i++)
                if (acts->v[i].def && stamp[acts->v[i].tmp] != NONE)
                    air_bit_set(ki, stamp[acts->v[i].tmp]);
        }
    }
    /* In post order (reverse RPO): a few passes, loop nesting deep. */
    /* A block is redone only if a successor's live-in changed since it was
     * last done (ticks count the blocks done; 0: never). */
    AirBlock **rpo = air_rpo(c);
    uint32_t *done_at = b3_xcalloc(PHASE, 2 * (size_t)nb, sizeof(uint32_t)), *changed_at = done_at + nb,
             tick = 0;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t r = nb; r-- > 0;) {
            const AirBlock *b = rpo[r];
            bool redo = !done_at[b->index];
            for (uint32_t si = 0; si < b->nsuccs && !redo; si++)
                redo = changed_at[b->succs[si].block->index] >= done_at[b->index];
            if (!redo)
                continue;
            done_at[b->index] = ++tick;
            size_t row = (size_t)b->index * words;
            uint64_t *o = out + row, *i = in + row, *k = kill + row;
            bool grew = false;
            for (uint32_t si = 0; si < b->nsuccs; si++) {
                const uint64_t *sin = in + (size_t)b->succs[si].block->index * words;
                for (uint32_t w = 0; w < words; w++)
                    o[w] |= sin[w];
            }
            for (uint32_t w = 0; w < words; w++) {
                uint64_t v = i[w] | (o[w] & ~k[w]);
                grew |= v != i[w];
                i[w] = v;
            }
            if (grew)
                changed_at[b->index] = tick;
            changed |= grew;
        }
    }
    free(done_at);
    free(rpo);
    free(kill);
    lb->in = in;
    lb->out = out;
    return true;
}

/* The live ranges of the bank's registers, one backward walk per block over
 * the gathered actions.  (The tmps' intervals are the hulls of their exact
 * ranges: build_ranges.) */
static void build_fixed_ranges(LS *s, const AirActs *acts, const AirLiveness *lv, const LiveBits *lb) {
    const AirCode *c = s->c;
    uint32_t open[32]; /* per register rank: end of the range being built, or NONE */
    /* The positions where the bank's registers are mentioned, ascending:
     * most positions mention none, and only these are walked below. */
    uint32_t *rp = NULL, nrp = 0, caprp = 0;
    for (uint32_t p = 0, np = 2 * acts->first[c->nblocks]; p < np; p++)
        for (uint32_t i = acts->start[p]; i < acts->start[p + 1]; i++)
            if (air_tmp_is_reg(acts->v[i].tmp) && s->rf.rank[acts->v[i].tmp] >= 0) {
                B3_VEC_PUSH(PHASE, rp, nrp, caprp, p);
                break;
            }
    uint32_t seg = 0; /* rp[seg ..]: the positions of this block and the next ones */
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        uint32_t base = acts->first[bi], ninsts = acts->first[bi + 1] - base;
        if (!ninsts)
            continue;
        uint32_t bstart = 2 * base, bend = 2 * (base + ninsts) - 1;
        uint32_t from[32];
        for (uint32_t r = 0; r < s->rf.k; r++) {
            open[r] = NONE;
            from[r] = s->fixed[r].n;
        }
        if (lb) {
            const uint64_t *o = lb->out + (size_t)bi * lb->words;
            for (uint32_t r = 0; r < s->rf.k; r++) {
                uint32_t d = lb->dense[s->rf.order[r]];
                if (d != NONE && air_bit_has(o, d))
                    open[r] = bend;
            }
        }
        for (uint32_t i = 0; lv && i < lv->nlive_out[bi]; i++) {
            AirTmp t = lv->live_out[bi][i];
            if (air_tmp_is_reg(t) && s->rf.rank[t] >= 0)
                open[s->rf.rank[t]] = bend;
        }
        uint32_t seg_end = seg;
        while (seg_end < nrp && rp[seg_end] <= bend)
            seg_end++;
        for (uint32_t j = seg_end; j-- > seg;) {
            uint32_t p = rp[j];
            uint32_t lo = acts->start[p], hi = acts->start[p + 1];
            for (uint32_t i = lo; i < hi; i++) {
                const AirAct *a = &acts->v[i];
                if (!a->def || !air_tmp_is_reg(a->tmp) || s->rf.rank[a->tmp] < 0)
                    continue;
                uint32_t r = (uint32_t)s->rf.rank[a->tmp];
                range_add(&s->fixed[r], p, open[r] == NONE ? p : open[r]);
                open[r] = NONE;
            }
            for (uint32_t i = lo; i < hi; i++) {
                const AirAct *a = &acts->v[i];
                if (!a->def && air_tmp_is_reg(a->tmp) && s->rf.rank[a->tmp] >= 0 &&
                    open[s->rf.rank[a->tmp]] == NONE)
                    open[s->rf.rank[a->tmp]] = p;
            }
        }
        for (uint32_t r = 0; r < s->rf.k; r++) {
            if (open[r] != NONE)
                range_add(&s->fixed[r], bstart, open[r]);
            ranges_reverse_from(&s->fixed[r], from[r]);
        }
        seg = seg_end;
    }
    free(rp);
    for (uint32_t r = 0; r < s->rf.k; r++)
        ranges_finish(&s->fixed[r]);
}

/* ---- lifetime holes ---- */

typedef struct {
    AirTmp t;
    uint32_t start, end;
} TmpRange;

typedef struct {
    TmpRange *v;
    size_t n, cap;
} TmpRanges;

static void tr_grow(TmpRanges *r) { B3_VEC_RESERVE(PHASE, r->v, r->cap, r->n + 1); }

/* A range of t from start to end; where it ends just before t's last one
 * begins (t lives through the block boundary), that one grows instead, so
 * a tmp living through a run of blocks takes one range, not one per block.
 * last[t] indexes t's last range, or is NONE. */
static inline void tr_push(TmpRanges *r, uint32_t *last, AirTmp t, uint32_t start, uint32_t end) {
    if (last[t] != NONE && r->v[last[t]].start == end + 1) {
        r->v[last[t]].start = start;
        return;
    }
    last[t] = (uint32_t)r->n;
    if (r->n >= r->cap)
        tr_grow(r);
    r->v[r->n++] = (TmpRange){t, start, end};
}

/* The exact live ranges of the virtual tmps (Wimmer's BuildIntervals without
 * use positions): blocks in reverse code order, each walked backwards, so
 * every tmp's ranges come out in descending order; a stable counting sort by
 * tmp then lays them out contiguously without a list per tmp. */
static void build_ranges(LS *s, const AirActs *acts, const AirLiveness *lv, const LiveBits *lb) {
    const AirCode *c = s->c;
    uint32_t n = s->n;
    uint32_t *open =
        b3_xmalloc(PHASE, 2 * (size_t)n * sizeof(uint32_t)); /* end of the range being built, or NONE */
    uint32_t *last = open + n;                               /* tr_push's */
    for (uint32_t t = 0; t < 2 * n; t++)
        open[t] = NONE;
    AirTmp *opened = NULL;
    uint32_t nopened = 0, capopened = 0;
#define OPEN(T, P)                                           \
    do {                                                     \
        B3_VEC_PUSH(PHASE, opened, nopened, capopened, (T)); \
        open[T] = (P);                                       \
    } while (0)
    TmpRanges tr = {0};
    /* With bit sets, the global tmps open at the current position are a bit
     * set too, and a range of one goes on across a block boundary where the
     * tmp is live: only the tmps whose liveness changes there are touched,
     * not every one live through the block. */
    uint64_t *live = lb ? b3_xcalloc(PHASE, lb->words + 1, sizeof(uint64_t)) : NULL;
    uint32_t after = NONE; /* the start of the block walked before (the next in code order) */
    for (uint32_t bi = c->nblocks; bi-- > 0;) {
        uint32_t base = acts->first[bi], ninsts = acts->first[bi + 1] - base;
        if (!ninsts)
            continue;
        uint32_t bstart = 2 * base, bend = 2 * (base + ninsts) - 1;
        nopened = 0;
        if (lb) {
            const uint64_t *o = lb->out + (size_t)bi * lb->words;
            for (uint32_t w = 0; w < lb->words; w++) {
                for (uint64_t m = live[w] & ~o[w]; m; m &= m - 1) {
                    AirTmp t = lb->tmp_of[64 * w + (uint32_t)__builtin_ctzll(m)];
                    if (!air_tmp_is_reg(t) && open[t] != NONE) {
                        tr_push(&tr, last, t, after, open[t]);
                        open[t] = NONE;
                    }
                }
                for (uint64_t m = o[w] & ~live[w]; m; m &= m - 1) {
                    AirTmp t = lb->tmp_of[64 * w + (uint32_t)__builtin_ctzll(m)];
                    if (!air_tmp_is_reg(t))
                        open[t] = bend;
                }
                live[w] = o[w];
            }
        } else {
            for (uint32_t i = 0; i < lv->nlive_out[bi]; i++)
                if (!air_tmp_is_reg(lv->live_out[bi][i]))
                    OPEN(lv->live_out[bi][i], bend);
        }
        for (uint32_t p = bend + 1; p-- > bstart;) {
            uint32_t lo = acts->start[p], hi = acts->start[p + 1];
            for (uint32_t i = lo; i < hi; i++) {
                AirTmp t = acts->v[i].tmp;
                if (!acts->v[i].def || air_tmp_is_reg(t))
                    continue;
                tr_push(&tr, last, t, p, open[t] == NONE ? p : open[t]);
                open[t] = NONE;
                uint32_t d = lb ? lb->dense[t] : NONE;
                if (d != NONE)
                    live[d / 64] &= ~(1ull << (d % 64));
            }
            for (uint32_t i = lo; i < hi; i++) {
                AirTmp t = acts->v[i].tmp;
                if (acts->v[i].def || air_tmp_is_reg(t) || open[t] != NONE)
                    continue;
                uint32_t d = lb ? lb->dense[t] : NONE;
                if (d != NONE) {
                    live[d / 64] |= 1ull << (d % 64);
                    open[t] = p;
                } else {
                    OPEN(t, p);
                }
            }
        }
        for (uint32_t i = 0; i < nopened; i++) {
            AirTmp t = opened[i];
            if (open[t] != NONE)
                tr_push(&tr, last, t, bstart, open[t]);
            open[t] = NONE;
        }
        after = bstart;
    }
    for (uint32_t w = 0; lb && w < lb->words; w++)
        for (uint64_t m = live[w]; m; m &= m - 1) {
            AirTmp t = lb->tmp_of[64 * w + (uint32_t)__builtin_ctzll(m)];
            if (!air_tmp_is_reg(t) && open[t] != NONE)
                tr_push(&tr, last, t, after, open[t]);
        }
    free(live);
#undef OPEN
    free(opened);
    free(open);
    s->nr = n;
    s->rfirst = b3_xcalloc(PHASE, n + 1, sizeof(uint32_t));
    s->rn = b3_xcalloc(PHASE, n, sizeof(uint32_t));
    s->rcur = b3_xcalloc(PHASE, n, sizeof(uint32_t));
    for (size_t i = 0; i < tr.n; i++)
        s->rfirst[tr.v[i].t + 1]++;
    for (uint32_t t = 0; t < n; t++)
        s->rfirst[t + 1] += s->rfirst[t];
    s->rv = b3_xmalloc(PHASE, (tr.n + 1) * sizeof(Range));
    for (size_t i = 0; i < tr.n; i++) {
        AirTmp t = tr.v[i].t;
        s->rv[s->rfirst[t] + s->rn[t]++] = (Range){tr.v[i].start, tr.v[i].end};
    }
    free(tr.v);
    /* Each tmp's ranges, descending, put in ascending order and merged where
     * they touch. */
    for (uint32_t t = 0; t < n; t++) {
        Range *v = s->rv + s->rfirst[t];
        uint32_t m = s->rn[t];
        if (!m)
            continue;
        for (uint32_t i = 0, j = m - 1; i < j; i++, j--) {
            Range x = v[i];
            v[i] = v[j];
            v[j] = x;
        }
        uint32_t out = 0;
        for (uint32_t i = 1; i < m; i++) {
            if (v[i].start <= v[out].end + 1) {
                if (v[i].end > v[out].end)
                    v[out].end = v[i].end;
            } else {
                v[++out] = v[i];
            }
        }
        s->rn[t] = out + 1;
    }
    /* The hulls: from the first range's start to the last one's end. */
    for (uint32_t t = AIR_FIRST_VTMP; t < n; t++)
        if (s->rn[t]) {
            s->start[t] = s->rv[s->rfirst[t]].start;
            s->end[t] = s->rv[s->rfirst[t] + s->rn[t] - 1].end;
        }
}

/* A copy between two tmps (or a tmp and a register) of the bank. */
static inline bool is_copy(const LS *s, const AirInst *i) {
    return (i->opcode == s->copy_ops[0] || i->opcode == s->copy_ops[1]) && !i->special && i->nargs == 2 &&
           i->args[0].kind == AirArg_Tmp && i->args[1].kind == AirArg_Tmp &&
           i->args[0].base != i->args[1].base;
}

/* Copies between tmps (or a tmp and a register) of the bank: each side
 * remembers the other, so that they may share a register; join_copies
 * gets the list. */
static void note_hints(LS *s) {
    const AirCode *c = s->c;
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        const AirBlock *b = c->blocks[bi];
        for (uint32_t ii = 0; ii < b->ninsts; ii++) {
            const AirInst *i = &b->insts[ii];
            if (!is_copy(s, i))
                continue;
            AirTmp a = i->args[0].base, d = i->args[1].base;
            B3_VEC_PUSH(PHASE, s->cp, s->ncp, s->capcp, ((Copy){a, d, b->frequency}));
            if (!air_tmp_is_reg(d) && s->hint[d] == AIR_NO_TMP)
                s->hint[d] = a;
            if (!air_tmp_is_reg(a) && s->hint[a] == AIR_NO_TMP)
                s->hint[a] = d;
        }
    }
}

/* ---- the scan ---- */

/* Do two sorted range lists meet? */
static bool ranges_meet(const Range *a, uint32_t na, const Range *b, uint32_t nb) {
    for (uint32_t i = 0, j = 0; i < na && j < nb;) {
        if (a[i].end < b[j].start)
            i++;
        else if (b[j].end < a[i].start)
            j++;
        else
            return true;
    }
    return false;
}

/* t's ranges from its cursor on (its hull if it has none). */
static inline const Range *ranges_of(const LS *s, AirTmp t, Range *hull, uint32_t *n) {
    if (t < s->nr && s->rn[t]) {
        *n = s->rn[t] - s->rcur[t];
        return s->rv + s->rfirst[t] + s->rcur[t];
    }
    *hull = (Range){s->start[t], s->end[t]};
    *n = 1;
    return hull;
}

static void occ_set(Occ *o, uint32_t r, const Range *v, uint32_t n, bool on) {
    uint32_t k = o->k;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t w0 = v[i].start >> 6, w1 = v[i].end >> 6;
        uint64_t lo = ~0ull << (v[i].start & 63), hi = ~0ull >> (63 - (v[i].end & 63));
        for (uint32_t w = w0; w <= w1; w++) {
            uint64_t m = (w == w0 ? lo : ~0ull) & (w == w1 ? hi : ~0ull);
            uint64_t *x = &o->bits[(size_t)w * k + r];
            if (on) {
                *x |= m;
                o->busy[w] |= 1u << r;
            } else if (!(*x &= ~m)) {
                o->busy[w] &= ~(1u << r);
            }
        }
    }
}

/* The registers of mask whose taken positions in word w meet m. */
static inline uint32_t occ_word_hits(const Occ *o, uint32_t w, uint64_t m, uint32_t mask) {
    const uint64_t *row = o->bits + (size_t)w * o->k;
    uint32_t mm = mask & o->busy[w];
    if (!mm)
        return 0;
    /* Every register of the row, without branches: cheaper than walking
     * the busy ones when most are. */
    uint32_t hits = 0;
    for (uint32_t r = 0; r < o->k; r++)
        hits |= (uint32_t)((row[r] & m) != 0) << r;
    return hits & mm;
}

/* The registers of mask none of whose positions in ranges v is taken. */
static uint32_t occ_free(const Occ *o, uint32_t mask, const Range *v, uint32_t n) {
    for (uint32_t i = 0; i < n && mask; i++) {
        uint32_t w0 = v[i].start >> 6, w1 = v[i].end >> 6;
        uint64_t lo = ~0ull << (v[i].start & 63), hi = ~0ull >> (63 - (v[i].end & 63));
        if (w0 == w1) {
            mask &= ~occ_word_hits(o, w0, lo & hi, mask);
            continue;
        }
        mask &= ~occ_word_hits(o, w0, lo, mask);
        for (uint32_t w = w0 + 1; w < w1 && mask; w++)
            mask &= ~o->busy[w];
        if (mask)
            mask &= ~occ_word_hits(o, w1, hi, mask);
    }
    return mask;
}

/* t's ranges, all of them (its hull if it has none). */
static const Range *all_ranges_of(const LS *s, AirTmp t, Range *hull, uint32_t *n) {
    if (t < s->nr && s->rn[t]) {
        *n = s->rn[t];
        return s->rv + s->rfirst[t];
    }
    *hull = (Range){s->start[t], s->end[t]};
    *n = 1;
    return hull;
}

/* What emptying register r for ranges tr would spill: the earliest end of
 * the tmps holding it that meet tr (NONE: none), and whether one of them is
 * unspillable.  Drops the holders that ended before st or lost r. */
static void held_meet(LS *s, AirTmp *held, uint32_t *nheld, uint32_t r, const Range *tr, uint32_t ntr,
                      uint32_t st, uint32_t *earliest, bool *stuck) {
    uint32_t out = 0;
    *earliest = NONE;
    *stuck = false;
    for (uint32_t j = 0; j < *nheld; j++) {
        AirTmp h = held[j];
        if (s->reg[h] != (uint8_t)r || s->end[h] < st)
            continue;
        held[out++] = h;
        if (h < s->nr && s->rn[h])
            while (s->rcur[h] < s->rn[h] && s->rv[s->rfirst[h] + s->rcur[h]].end < st)
                s->rcur[h]++;
        Range hh;
        uint32_t nh;
        const Range *hr = ranges_of(s, h, &hh, &nh);
        if (!ranges_meet(tr, ntr, hr, nh))
            continue;
        *stuck |= s->unspillable[h];
        if (s->end[h] < *earliest)
            *earliest = s->end[h];
    }
    *nheld = out;
}

/* The tmps from `from` on that have a range and are not spilled, by start
 * position, ties by number (a stable sort); clears their registers.  A
 * counting sort over every position (bucket: npos + 2 entries) serves the
 * first pass; a later pass's few fills take 11-bit digits, least significant
 * first, so that its cost is not the procedure's size. */
#define DIGIT_BITS 11
static uint32_t sort_by_start(LS *s, uint32_t from, uint32_t *order, uint32_t *bucket) {
    uint32_t nt = 0;
    for (uint32_t t = from; t < s->n; t++) {
        s->reg[t] = NO_REG;
        if (s->start[t] != NONE && !s->spilled[t])
            order[nt++] = t;
    }
    uint32_t ndigit = 1u << DIGIT_BITS;
    if ((uint64_t)nt * 8 >= s->npos || (uint64_t)nt + ndigit + 1 > (uint64_t)s->npos + 2) {
        memset(bucket, 0, (s->npos + 1) * sizeof(uint32_t));
        for (uint32_t i = 0; i < nt; i++)
            bucket[s->start[order[i]] + 1]++;
        for (uint32_t p = 0; p < s->npos; p++)
            bucket[p + 1] += bucket[p];
        for (uint32_t t = from; t < s->n; t++)
            if (s->start[t] != NONE && !s->spilled[t])
                order[bucket[s->start[t]]++] = t;
        return nt;
    }
    uint32_t *count = bucket, *src = order, *dst = bucket + ndigit + 1;
    for (uint32_t shift = 0; shift == 0 || ((uint64_t)s->npos - 1) >> shift; shift += DIGIT_BITS) {
        memset(count, 0, (ndigit + 1) * sizeof(uint32_t));
        for (uint32_t i = 0; i < nt; i++)
            count[((s->start[src[i]] >> shift) & (ndigit - 1)) + 1]++;
        for (uint32_t d = 0; d < ndigit; d++)
            count[d + 1] += count[d];
        for (uint32_t i = 0; i < nt; i++)
            dst[count[(s->start[src[i]] >> shift) & (ndigit - 1)]++] = src[i];
        uint32_t *x = src;
        src = dst;
        dst = x;
    }
    if (src != order)
        memcpy(order, src, nt * sizeof(uint32_t));
    return nt;
}
#undef DIGIT_BITS

/* One pass over tmps by interval start; false if it spilled (s->spilled
 * says what).  A register is free for t if neither its fixed ranges nor any
 * tmp holding it meets t's ranges, so a tmp can live in another's hole (a
 * Phi's tmp and the value it feeds, typically).  With none free, whichever
 * of t and the tmps holding a register that meet t ends last is spilled.
 * The first pass scans every tmp; a later one only the fills the spill code
 * since the last pass made (tmps from s->nscanned on): the tmps that kept
 * their registers keep them, and a fill takes a register free over its few
 * positions (an evicted tmp's register is free at its own mentions), or
 * evicts one.  (Scanning every tmp again cost as much as the first pass and
 * found the same number of spills, almost always none.) */
static bool scan(LS *s, uint32_t *order, uint32_t *bucket) {
    uint32_t k = s->rf.k;
    bool first = s->nscanned == 0;
    uint32_t from = first ? AIR_FIRST_VTMP : s->nscanned;
    uint32_t nt = sort_by_start(s, from, order, bucket);
    for (uint32_t t = AIR_FIRST_VTMP; t < s->nr; t++)
        s->rcur[t] = 0;
    s->nscanned = s->n;

    /* Per register: the tmps given it that may still meet later ones (only
     * walked when no register is free), and the positions taken.  A later
     * pass starts with every tmp holding a register. */
    AirTmp *held[32];
    uint32_t nheld[32], capheld[32];
    for (uint32_t r = 0; r < k; r++) {
        held[r] = NULL;
        nheld[r] = capheld[r] = 0;
    }
    for (uint32_t t = AIR_FIRST_VTMP; !first && t < from; t++)
        if (s->reg[t] != NO_REG)
            B3_VEC_PUSH(PHASE, held[s->reg[t]], nheld[s->reg[t]], capheld[s->reg[t]], t);
    /* The registers' fixed ranges, laid out once per bank. */
    if (!s->fixed_occ.bits) {
        Occ *f = &s->fixed_occ;
        f->k = k;
        f->words = s->npos / 64 + 1;
        f->bits = b3_xcalloc(PHASE, (size_t)f->words * k, sizeof(uint64_t));
        f->busy = b3_xcalloc(PHASE, f->words, sizeof(uint32_t));
        for (uint32_t r = 0; r < k; r++)
            occ_set(f, r, s->fixed[r].v, s->fixed[r].n, true);
    }
    /* The positions taken: the fixed ranges, then the tmps' as they get
     * registers (kept for the later passes). */
    Occ *occ = &s->occ;
    if (first) {
        *occ = s->fixed_occ;
        occ->bits = b3_xmalloc(PHASE, (size_t)occ->words * k * sizeof(uint64_t));
        occ->busy = b3_xmalloc(PHASE, occ->words * sizeof(uint32_t));
        memcpy(occ->bits, s->fixed_occ.bits, (size_t)occ->words * k * sizeof(uint64_t));
        memcpy(occ->busy, s->fixed_occ.busy, occ->words * sizeof(uint32_t));
    }
    uint32_t all = k == 32 ? ~0u : (1u << k) - 1;
    bool ok = true;
    for (uint32_t i = 0; i < nt; i++) {
        AirTmp t = order[i];
        uint32_t st = s->start[t], en = s->end[t];
        Range hull;
        uint32_t ntr;
        const Range *tr = ranges_of(s, t, &hull, &ntr);
        uint32_t freemask = occ_free(occ, all, tr, ntr), evictmask = 0;
        uint32_t evict_end[32]; /* the earliest end among the tmps t would evict */
        /* Only with no register free: what emptying each one would spill
         * (not one whose fixed ranges meet t's). */
        uint32_t unfixed = freemask ? 0 : occ_free(&s->fixed_occ, all, tr, ntr);
        for (uint32_t r = 0; r < k && !freemask; r++) {
            if (!(unfixed >> r & 1))
                continue;
            uint32_t earliest;
            bool stuck;
            held_meet(s, held[r], &nheld[r], r, tr, ntr, st, &earliest, &stuck);
            if (!stuck) {
                evictmask |= 1u << r;
                evict_end[r] = earliest;
            }
        }
        int pick = -1;
        AirTmp h = s->hint[t];
        if (h != AIR_NO_TMP) {
            uint32_t hr = air_tmp_is_reg(h) ? (uint32_t)s->rf.rank[h] : (h < s->n ? s->reg[h] : NO_REG);
            if (hr < k && (freemask >> hr & 1))
                pick = (int)hr;
            else if (hr == NO_REG && !air_tmp_is_reg(h) && h < s->n && !s->spilled[h] && s->start[h] > st) {
                /* A register h, copied from or to t and not scanned yet,
                 * would find free too: t takes it, so that they may share it
                 * (a Phi's tmp is scanned before the value it feeds, which
                 * may live across a call where the Phi's tmp does not). */
                Range hh;
                uint32_t nh;
                const Range *hrng = all_ranges_of(s, h, &hh, &nh);
                uint32_t later = occ_free(occ, freemask, hrng, nh);
                pick = later ? __builtin_ctz(later) : -1;
            }
        }
        if (pick < 0 && freemask)
            pick = __builtin_ctz(freemask); /* ranks follow the preference order */
        if (pick < 0) {
            int victim = -1;
            for (uint32_t r = 0; r < k; r++)
                if ((evictmask >> r & 1) && (victim < 0 || evict_end[r] > evict_end[victim]))
                    victim = (int)r;
            if (victim >= 0 && (s->unspillable[t] || evict_end[victim] > en)) {
                for (uint32_t j = 0; j < nheld[victim]; j++) {
                    AirTmp v = held[victim][j];
                    Range vh;
                    uint32_t nv;
                    const Range *vr = ranges_of(s, v, &vh, &nv);
                    if (s->reg[v] == (uint8_t)victim && ranges_meet(tr, ntr, vr, nv)) {
                        s->spilled[v] = 1;
                        s->reg[v] = NO_REG;
                        vr = all_ranges_of(s, v, &vh, &nv);
                        occ_set(occ, (uint32_t)victim, vr, nv, false);
                    }
                }
                pick = victim;
            } else if (!s->unspillable[t]) {
                s->spilled[t] = 1;
                ok = false;
                continue;
            } else {
                b3_internal_error(PHASE, "no %s register left for tmp %u", s->bank == AirGP ? "GP" : "FP",
                                  t - AIR_FIRST_VTMP);
            }
            ok = false;
        }
        s->reg[t] = (uint8_t)pick;
        B3_VEC_PUSH(PHASE, held[pick], nheld[pick], capheld[pick], t);
        occ_set(occ, (uint32_t)pick, tr, ntr, true);
    }
    for (uint32_t r = 0; r < k; r++)
        free(held[r]);
    return ok;
}

/* Moves t to register rank r if r is free over all of t's ranges (t's
 * own positions in its register set aside); true if it moved. */
static bool try_recolor(LS *s, AirTmp t, uint32_t r) {
    uint32_t from = s->reg[t];
    if (from == r)
        return true;
    Range hull;
    uint32_t n;
    const Range *v = all_ranges_of(s, t, &hull, &n);
    if (!occ_free(&s->occ, 1u << r, v, n))
        return false;
    occ_set(&s->occ, from, v, n, false);
    occ_set(&s->occ, r, v, n, true);
    s->reg[t] = (uint8_t)r;
    return true;
}

/* A copy side's register rank (NO_REG: none). */
static uint32_t rank_of(const LS *s, AirTmp t) {
    if (air_tmp_is_reg(t))
        return s->rf.rank[t] >= 0 ? (uint32_t)s->rf.rank[t] : NO_REG;
    return t < s->n ? s->reg[t] : NO_REG;
}

/* What moving t to rank r gains: the weight of t's copies whose other side
 * is in r, less that of those whose other side shares t's register now. */
static double recolor_gain(const LS *s, const Copy *cp, const uint32_t *first, const uint32_t *of, AirTmp t,
                           uint32_t r) {
    double gain = 0;
    for (uint32_t j = first[t - AIR_FIRST_VTMP]; j < first[t - AIR_FIRST_VTMP + 1]; j++) {
        const Copy *x = &cp[of[j]];
        uint32_t o = rank_of(s, x->a == t ? x->d : x->a);
        gain += o == r ? x->w : o == s->reg[t] ? -x->w : 0;
    }
    return gain;
}

/* After the passes, in a bank that spilled: the two sides of a copy that
 * ended in different registers move to one where it is free over the
 * whole of one side's ranges and more of that side's copies (by block
 * frequency) then share a register than before.  The first pass chose
 * registers before it knew which tmps it would spill, and the later ones
 * keep them (scan), so copies stay apart where the spilled tmps were; the
 * fills, unknown to note_hints, get their copies' registers too. */
static void join_copies(LS *s) {
    /* The copies whose sides both kept a register (the others went to
     * memory). */
    Copy *cp = s->cp;
    uint32_t ncp = 0, nv = s->n - AIR_FIRST_VTMP;
    for (uint32_t k = 0; k < s->ncp; k++)
        if (rank_of(s, s->cp[k].a) != NO_REG && rank_of(s, s->cp[k].d) != NO_REG)
            cp[ncp++] = s->cp[k];
    uint32_t *first = b3_xcalloc(PHASE, 2 * ((size_t)nv + 1), sizeof(uint32_t)), *fill = first + nv + 1;
    for (uint32_t k = 0; k < ncp; k++) {
        if (!air_tmp_is_reg(cp[k].a))
            first[cp[k].a - AIR_FIRST_VTMP + 1]++;
        if (!air_tmp_is_reg(cp[k].d))
            first[cp[k].d - AIR_FIRST_VTMP + 1]++;
    }
    for (uint32_t t = 0; t < nv; t++)
        first[t + 1] += first[t];
    uint32_t *of = b3_xmalloc(PHASE, (first[nv] + 1) * sizeof(uint32_t));
    memcpy(fill, first, (nv + 1) * sizeof(uint32_t));
    for (uint32_t k = 0; k < ncp; k++) {
        if (!air_tmp_is_reg(cp[k].a))
            of[fill[cp[k].a - AIR_FIRST_VTMP]++] = k;
        if (!air_tmp_is_reg(cp[k].d))
            of[fill[cp[k].d - AIR_FIRST_VTMP]++] = k;
    }
    for (uint32_t k = 0; k < ncp; k++) {
        AirTmp a = cp[k].a, d = cp[k].d;
        uint32_t ra = rank_of(s, a), rd = rank_of(s, d);
        if (ra == rd)
            continue;
        if (!air_tmp_is_reg(d) && recolor_gain(s, cp, first, of, d, ra) > 0 && try_recolor(s, d, ra))
            continue;
        if (!air_tmp_is_reg(a) && recolor_gain(s, cp, first, of, a, rd) > 0)
            try_recolor(s, a, rd);
    }
    free(first);
    free(of);
}

/* ---- spill code ---- */

/* The moments at which an inst reads and writes an arg of this role (0 early, 1 late). */
static void role_moments(AirRole role, uint32_t *first, uint32_t *last) {
    bool early = air_role_is_early_use(role) || role == AirRole_UseAddr || role == AirRole_EarlyDef ||
                 role == AirRole_EarlyZDef || role == AirRole_Scratch;
    bool late = role == AirRole_LateUse || role == AirRole_LateColdUse || air_role_is_late_def(role) ||
                role == AirRole_Scratch;
    *first = early ? 0 : 1;
    *last = late ? 1 : 0;
}

typedef struct {
    LS *s;
    const uint8_t *mentions; /* per original inst g: does it mention a tmp spilled in this round? */
} SpillCtx;

/* A fresh tmp standing for a spilled one in inst g is never spilled, and its
 * interval is exact: from the load (before the early moment) or its first
 * def, to its last use or the store (after the late moment), so that a use
 * in the early moment of a call does not meet the call's late clobbers. */
static void on_fill(void *vctx, uint32_t bi, uint32_t ii, AirTmp n, bool is_new, AirRole role, bool load,
                    bool store) {
    SpillCtx *x = vctx;
    LS *s = x->s;
    uint32_t g = s->pos[bi][ii];
    uint32_t first, last;
    role_moments(role, &first, &last);
    if (load)
        first = 0;
    if (store)
        last = 1;
    if (is_new) {
        ls_grow(s, n + 1);
        s->unspillable[n] = 1;
        /* A fill on one side of a copy (the inst is rewritten in place, so
         * the other side is what it will be): for join_copies. */
        const AirBlock *b = s->c->blocks[bi];
        const AirInst *i = &b->insts[ii];
        if (is_copy(s, i)) {
            bool src = air_role_is_use(role);
            AirTmp o = i->args[src ? 1 : 0].base;
            B3_VEC_PUSH(PHASE, s->cp, s->ncp, s->capcp, ((Copy){src ? n : o, src ? o : n, b->frequency}));
        }
    }
    extend(s, n, 2 * g + first);
    extend(s, n, 2 * g + last);
}

/* Spill code mentions only fills, and most insts no spilled tmp. */
static bool may_mention(void *vctx, uint32_t bi, uint32_t ii) {
    const SpillCtx *x = vctx;
    uint32_t g = x->s->pos[bi][ii];
    return g != NONE && x->mentions[g];
}

/* Spill slots for the tmps spilled in this round, by a linear scan of their
 * intervals: tmps whose intervals are disjoint share a slot (so the frame
 * stays small and allocate_stack has few slots to look at). */
static void assign_slots(LS *s, AirStackSlot **slot_of) {
    uint32_t nsp = 0;
    for (uint32_t t = AIR_FIRST_VTMP; t < s->n; t++)
        nsp += s->spilled[t] == 1;
    Range *sp = b3_xmalloc(PHASE, nsp * sizeof(Range)); /* (start, tmp) */
    nsp = 0;
    for (uint32_t t = AIR_FIRST_VTMP; t < s->n; t++)
        if (s->spilled[t] == 1)
            sp[nsp++] = (Range){s->start[t], t};
    qsort(sp, nsp, sizeof(Range), cmp_range);
    /* A min-heap of the slots by the end of their last interval. */
    struct Busy {
        uint32_t end;
        AirStackSlot *slot;
    } *heap = b3_xmalloc(PHASE, (nsp + 1) * sizeof *heap);
    uint32_t nh = 0;
    for (uint32_t i = 0; i < nsp; i++) {
        AirTmp t = sp[i].end;
        AirStackSlot *slot;
        if (nh && heap[0].end < s->start[t]) {
            slot = heap[0].slot;
            heap[0] = heap[--nh]; /* pop */
            for (uint32_t k = 0;;) {
                uint32_t l = 2 * k + 1, m = k;
                if (l < nh && heap[l].end < heap[m].end)
                    m = l;
                if (l + 1 < nh && heap[l + 1].end < heap[m].end)
                    m = l + 1;
                if (m == k)
                    break;
                struct Busy tmp = heap[k];
                heap[k] = heap[m];
                heap[m] = tmp;
                k = m;
            }
        } else {
            slot = air_slot_new(s->c, 8, 8, true);
            slot->shared = true;
        }
        slot_of[t] = slot;
        uint32_t k = nh++; /* push */
        heap[k] = (struct Busy){s->end[t], slot};
        while (k && heap[(k - 1) / 2].end > heap[k].end) {
            struct Busy tmp = heap[k];
            heap[k] = heap[(k - 1) / 2];
            heap[(k - 1) / 2] = tmp;
            k = (k - 1) / 2;
        }
        s->spilled[t] = 2;
    }
    free(heap);
    free(sp);
}

/* Rewrites the mentions of the tmps spilled since the last call (those with
 * spilled == 1; they become 2). */
static void insert_spill_code(LS *s) {
    AirCode *c = s->c;
    AirStackSlot **slot_of = b3_xcalloc(PHASE, s->n, sizeof(AirStackSlot *));
    assign_slots(s, slot_of);
    /* The original insts, and blocks, that mention a tmp spilled in this
     * round, in one walk of the actions: the rewriter visits those blocks
     * only (the edge blocks of earlier rounds hold fills, never spilled). */
    uint32_t norig = s->acts.first[s->nb_acts], nb_orig = s->nb_acts;
    uint8_t *mentions = b3_xcalloc(PHASE, (size_t)norig + nb_orig + 1, 1), *bmentions = mentions + norig;
    for (uint32_t bi = 0; bi < nb_orig; bi++)
        for (uint32_t g = s->acts.first[bi]; g < s->acts.first[bi + 1]; g++)
            for (uint32_t i = s->acts.start[2 * g]; i < s->acts.start[2 * g + 2]; i++) {
                AirTmp t = s->acts.v[i].tmp;
                if (!air_tmp_is_reg(t) && slot_of[t]) {
                    mentions[g] = bmentions[bi] = 1;
                    break;
                }
            }
    SpillCtx x = {s, mentions};
    AirSpiller sp = {.c = c,
                     .bank = s->bank,
                     .slot_of = slot_of,
                     .nslot_of = s->n,
                     .ctx = &x,
                     .on_fill = on_fill,
                     .may_mention = may_mention};
    uint32_t nblocks = c->nblocks; /* not the edge blocks it adds */
    for (uint32_t bi = 0; bi < nblocks; bi++) {
        if (bi >= nb_orig || !bmentions[bi] || !air_spill_rewrite_block(&sp, bi))
            continue;
        s->touched[bi] = 1;
        if (!sp.replaced)
            continue;
        uint32_t m = c->blocks[bi]->ninsts, *pos = b3_xmalloc(PHASE, m * sizeof(uint32_t));
        for (uint32_t i = 0; i < m; i++)
            pos[i] = sp.src[i] == NONE ? NONE : s->pos[bi][sp.src[i]];
        free(s->pos[bi]);
        s->pos[bi] = pos;
        s->npos_of[bi] = m;
    }
    /* The edge blocks hold spill code only. */
    if (c->nblocks > s->nblocks_pos) {
        s->pos = b3_xrealloc(PHASE, s->pos, c->nblocks * sizeof(uint32_t *));
        s->npos_of = b3_xrealloc(PHASE, s->npos_of, c->nblocks * sizeof(uint32_t));
        s->touched = b3_xrealloc(PHASE, s->touched, c->nblocks);
        for (uint32_t bi = s->nblocks_pos; bi < c->nblocks; bi++) {
            uint32_t m = c->blocks[bi]->ninsts;
            s->pos[bi] = b3_xmalloc(PHASE, m * sizeof(uint32_t));
            for (uint32_t i = 0; i < m; i++)
                s->pos[bi][i] = NONE;
            s->npos_of[bi] = m;
            s->touched[bi] = 1;
        }
        s->nblocks_pos = c->nblocks;
    }
    bool split = sp.split;
    air_spiller_free(&sp);
    free(mentions);
    free(slot_of);
    if (split)
        air_compute_preds(c);
}

/* ---- the driver ---- */

static void ls_free(LS *s) {
    for (uint32_t bi = 0; bi < s->nblocks_pos; bi++)
        free(s->pos[bi]);
    free(s->pos);
    free(s->npos_of);
    free(s->touched);
    for (uint32_t r = 0; r < 32; r++)
        free(s->fixed[r].v);
    free(s->start);
    free(s->end);
    free(s->unspillable);
    free(s->spilled);
    free(s->reg);
    free(s->hint);
    free(s->rv);
    free(s->rfirst);
    free(s->rn);
    free(s->rcur);
    free(s->fixed_occ.bits);
    free(s->fixed_occ.busy);
    free(s->occ.bits);
    free(s->occ.busy);
    free(s->cp);
    air_acts_free(&s->acts);
}

/* The actions of the other bank (gathered before this bank's allocation)
 * for the code as this bank's spill code left it: the insts s->pos maps to
 * an original inst keep theirs, and spill code (moves of this bank, jumps of
 * edge blocks) has none.  Same as gathering them again, without walking the
 * insts' args. */
static void acts_follow_spill_code(const LS *s, AirActs *a) {
    const AirCode *c = s->c;
    if (!s->pos)
        return;
    bool same = c->nblocks == s->nblocks_pos;
    for (uint32_t bi = 0; bi < s->nblocks_pos && same; bi++)
        same = !s->touched[bi];
    if (same)
        return;
    uint32_t ninsts = 0;
    for (uint32_t bi = 0; bi < c->nblocks; bi++)
        ninsts += c->blocks[bi]->ninsts;
    AirActs n = {.bank = a->bank, .nv = a->nv};
    n.first = b3_xmalloc(PHASE, (c->nblocks + 1) * sizeof(uint32_t));
    n.start = b3_xmalloc(PHASE, (2 * (size_t)ninsts + 1) * sizeof(uint32_t));
    n.v = b3_xmalloc(PHASE, (a->nv + 1) * sizeof(AirAct));
    uint32_t j = 0, nv = 0;
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        n.first[bi] = j;
        for (uint32_t i = 0; i < c->blocks[bi]->ninsts; i++, j++) {
            uint32_t g = s->pos[bi][i];
            n.start[2 * j] = nv;
            if (g == NONE) {
                n.start[2 * j + 1] = nv;
                continue;
            }
            uint32_t lo = a->start[2 * g], mid = a->start[2 * g + 1], hi = a->start[2 * g + 2];
            memcpy(n.v + nv, a->v + lo, (hi - lo) * sizeof(AirAct));
            n.start[2 * j + 1] = nv + (mid - lo);
            nv += hi - lo;
        }
    }
    n.first[c->nblocks] = j;
    n.start[2 * (size_t)j] = nv;
    if (nv != a->nv)
        b3_internal_error(PHASE, "spill code of one bank lost actions of the other");
    air_acts_free(a);
    *a = n;
}

/* Registers of one bank: afterwards s->reg says each virtual tmp's.  Takes
 * over the bank's gathered actions. */
static void allocate_bank(LS *s, AirCode *c, AirBank bank, B3RegSet *callee_saves, AirActs *acts) {
    memset(s, 0, sizeof *s);
    s->c = c;
    s->bank = bank;
    air_reg_file(c, bank, &s->rf);
    ls_grow(s, AIR_FIRST_VTMP + c->ntmps);

    s->acts = *acts;
    s->copy_ops[0] = bank == AirGP ? Air_Move : Air_MoveDouble;
    s->copy_ops[1] = bank == AirGP ? Air_Move32 : Air_MoveFloat;
    s->nb_acts = c->nblocks;
    uint32_t ninsts = s->acts.first[c->nblocks];
    s->npos = 2 * ninsts;
    /* Registers the code names (fixed operands, clobbers) may need saving
     * (registers are below 64: one word). */
    uint64_t named = 0;
    for (uint32_t i = 0; i < s->acts.nv; i++)
        if (air_tmp_is_reg(s->acts.v[i].tmp))
            named |= 1ull << s->acts.v[i].tmp;
    for (; named; named &= named - 1)
        air_note_callee_save(c, callee_saves, (B3Reg)__builtin_ctzll(named));
    /* Intervals need live-in and live-out, not their order. */
    LiveBits lb;
    if (bitset_liveness(&lb, c, &s->acts, s->n)) {
        build_fixed_ranges(s, &s->acts, NULL, &lb);
        build_ranges(s, &s->acts, NULL, &lb);
        livebits_free(&lb);
    } else {
        AirLiveness lv;
        air_liveness_compute_acts_unordered(&lv, c, &s->acts);
        build_fixed_ranges(s, &s->acts, &lv, NULL);
        build_ranges(s, &s->acts, &lv, NULL);
        air_liveness_free(&lv);
    }
    note_hints(s);

    bool any = false;
    for (uint32_t t = AIR_FIRST_VTMP; t < s->n && !any; t++)
        any = s->start[t] != NONE;
    if (!any)
        return;
    s->nblocks_pos = c->nblocks;
    s->pos = b3_xmalloc(PHASE, c->nblocks * sizeof(uint32_t *));
    s->npos_of = b3_xmalloc(PHASE, c->nblocks * sizeof(uint32_t));
    s->touched = b3_xcalloc(PHASE, c->nblocks, 1);
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        uint32_t m = c->blocks[bi]->ninsts;
        s->pos[bi] = b3_xmalloc(PHASE, m * sizeof(uint32_t));
        for (uint32_t i = 0; i < m; i++)
            s->pos[bi][i] = s->acts.first[bi] + i;
        s->npos_of[bi] = m;
    }

    uint32_t *bucket = b3_xmalloc(PHASE, (s->npos + 2) * sizeof(uint32_t));
    uint32_t *order = NULL;
    for (int round = 0;; round++) {
        if (round == MAX_ROUNDS)
            b3_internal_error(PHASE, "%s allocation did not converge after %d rounds",
                              bank == AirGP ? "GP" : "FP", MAX_ROUNDS);
        order = b3_xrealloc(PHASE, order, s->n * sizeof(uint32_t));
        if (scan(s, order, bucket))
            break;
        insert_spill_code(s);
    }
    free(order);
    free(bucket);
    if (s->nscanned > s->nr) /* spill code was made */
        join_copies(s);
    uint32_t given = 0; /* the ranks given to tmps */
    for (uint32_t t = AIR_FIRST_VTMP; t < s->n; t++)
        if (s->reg[t] != NO_REG)
            given |= 1u << s->reg[t];
    for (; given; given &= given - 1)
        air_note_callee_save(c, callee_saves, s->rf.order[__builtin_ctz(given)]);
}

static void assign_tmp(void *vctx, AirInst *inst, AirTmp *tmp, AirRole role, AirBank bank, AirWidth width) {
    (void)inst;
    (void)role;
    (void)width;
    const LS *s = (const LS *)vctx + bank;
    if (air_tmp_is_reg(*tmp))
        return;
    if (*tmp >= s->n || s->reg[*tmp] == NO_REG)
        b3_internal_error(PHASE, "tmp %u left without a register", *tmp - AIR_FIRST_VTMP);
    *tmp = s->rf.order[s->reg[*tmp]];
}

void air_allocate_registers_and_stack_by_linear_scan(AirCode *c) {
    LS s[2]; /* indexed by AirBank */
    B3RegSet saves = {{0, 0}};
    /* Both banks' actions in one walk; the FP bank's follow the GP bank's
     * spill code. */
    AirActs acts[2];
    air_acts_gather_both(acts, c);
    allocate_bank(&s[AirGP], c, AirGP, &saves, &acts[AirGP]);
    acts_follow_spill_code(&s[AirGP], &acts[AirFP]);
    allocate_bank(&s[AirFP], c, AirFP, &saves, &acts[AirFP]);
    /* One pass for both banks: the FP bank's intervals do not depend on GP registers. */
    for (uint32_t bi = 0; bi < c->nblocks; bi++)
        for (uint32_t ii = 0; ii < c->blocks[bi]->ninsts; ii++)
            air_for_each_tmp_inline(&c->blocks[bi]->insts[ii], assign_tmp, s);
    c->used_callee_saves = saves;
    /* Cleanups where spill code went (they are block-local). */
    uint8_t *touched = b3_xcalloc(PHASE, c->nblocks, 1);
    for (int k = 0; k < 2; k++)
        for (uint32_t bi = 0; bi < s[k].nblocks_pos; bi++)
            touched[bi] |= s[k].touched[bi];
    air_fix_obvious_spills(c, touched);
    air_remove_dead_spill_stores(c, touched);
    free(touched);
    ls_free(&s[AirGP]);
    ls_free(&s[AirFP]);
    air_allocate_stack(c);
}
