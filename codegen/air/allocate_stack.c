/* Stack allocation (docs/backend.md, "Frame layout"):
 *
 *   [fp - 8*k]   callee-saved registers used, in register-number order
 *                (without a frame pointer from [fp + 0] down: the first
 *                takes the place where the frame pointer would be saved)
 *   ...          B3 stack slots and spill slots, aligned and packed
 *   [sp + 0 ..]  outgoing call arguments (c->call_arg_area)
 *
 * Spill slots whose live ranges never overlap share a location (like Air's
 * AllocateStackByGraphColoring); B3 slots may have their address taken, so
 * each keeps its own.  Finally Stack args become Addr(fp, offset) (with no
 * frame pointer, Addr(sp, frame_size + offset): "fp" is then where the
 * frame pointer would be) and CallArg args Addr(sp, offset). */
#include <stdlib.h>
#include <string.h>

#include "codegen/air/liveness.h"
#include "codegen/air/phases.h"
#include "util/alloc.h"
#include "util/bits.h"
#include "util/vec.h"

#define PHASE "air stack allocation"

/* Memory for sharing spill slots: the interference matrix.  Beyond this
 * (about 16k spill slots in a procedure), slots are not shared. */
#define SHARE_MAX_BITS (256ull << 20)

/* ---- spill slot sharing ----
 * Only the insts that mention a candidate slot (spill loads and stores, and
 * insts using a slot in place) change slot liveness, so one pass records
 * those mentions and the analyses walk them instead of every inst.  Live
 * sets are bit sets over the candidates. */

enum { SM_USE = 1, SM_DEF = 2, SM_FULLDEF = 4 };

typedef struct {
    uint32_t inst; /* position in its block */
    uint32_t slot; /* spill number */
    uint32_t flags;
} Mention;

typedef struct {
    const int32_t *dense; /* slot index -> spill number, or -1 */
    uint32_t nslots;
    uint8_t *escaped;
    Mention *v;
    uint32_t n, cap;
    uint32_t inst;
} SlotCtx;

static void slot_arg(void *vctx, AirInst *inst, AirArg *arg, AirRole role, AirBank bank, AirWidth width) {
    (void)inst;
    (void)bank;
    SlotCtx *x = vctx;
    if (arg->kind != AirArg_Stack || !arg->u.slot || arg->u.slot->index >= x->nslots)
        return;
    int32_t s = x->dense[arg->u.slot->index];
    if (s < 0)
        return;
    if (role == AirRole_UseAddr) {
        x->escaped[s] = 1; /* the address leaks: keep the slot to itself */
        return;
    }
    uint32_t flags = 0;
    if (air_role_is_use(role))
        flags |= SM_USE;
    if (air_role_is_def(role)) {
        flags |= SM_DEF;
        /* Only a def covering all 8 bytes at offset 0 (or the 4 that are
         * ever read of a narrow slot) ends the previous value; a partial one
         * keeps the rest of the slot's bytes alive. */
        bool whole = arg->value == 0 && (width == AirW64 || (arg->u.slot->narrow && width == AirW32));
        if (whole && role != AirRole_UseDef && role != AirRole_UseZDef)
            flags |= SM_FULLDEF;
        if (!whole)
            flags |= SM_USE;
    }
    if (!flags)
        return;
    B3_VEC_RESERVE(PHASE, x->v, x->cap, x->n + 1);
    x->v[x->n++] = (Mention){x->inst, (uint32_t)s, flags};
}

static bool has_stack_arg(const AirInst *inst) {
    for (uint32_t i = 0; i < inst->nargs; i++)
        if (inst->args[i].kind == AirArg_Stack)
            return true;
    return false;
}

/* Mentions [lo, hi) of one block, walked backwards one inst at a time:
 * `adj` (if any) gets, in each def's row, what the def conflicts with (all
 * live after the inst and all the inst touches); then live = (live -
 * fulldefs) + uses, and kill (if any) collects the fulldefs. */
static void walk_back(const Mention *m, uint32_t lo, uint32_t hi, uint64_t *live, uint64_t *kill,
                      uint64_t *adj, uint32_t words) {
    while (hi > lo) {
        uint32_t end = hi, inst = m[hi - 1].inst;
        while (hi > lo && m[hi - 1].inst == inst)
            hi--;
        if (adj)
            for (uint32_t i = hi; i < end; i++) {
                if (!(m[i].flags & SM_DEF))
                    continue;
                uint64_t *row = adj + (size_t)m[i].slot * words;
                for (uint32_t w = 0; w < words; w++)
                    row[w] |= live[w];
                for (uint32_t j = hi; j < end; j++)
                    air_bit_set(row, m[j].slot);
            }
        for (uint32_t i = hi; i < end; i++)
            if (m[i].flags & SM_FULLDEF) {
                air_bit_clear(live, m[i].slot);
                if (kill)
                    air_bit_set(kill, m[i].slot);
            }
        for (uint32_t i = hi; i < end; i++)
            if (m[i].flags & SM_USE)
                air_bit_set(live, m[i].slot);
    }
}

/* Bit sets per block for the slot dataflow cost blocks x slots: used up to
 * this many words per set, and while the sweeps stay cheap. */
#define BITSET_DATAFLOW_WORDS (1u << 20)

/* Live-out bit sets of every block (nb rows of `words`), by sweeps in post
 * order over the blocks whose successors' live-in grew; NULL once the sweeps
 * have read more than `budget` words (deep loop nests with many slots live
 * through them: blocks x slots x depth). */
static uint64_t *bitset_live_out(const AirCode *c, const Mention *m, const uint32_t *mstart, uint32_t words,
                                 uint64_t budget) {
    uint32_t nb = c->nblocks;
    uint64_t *gen = b3_xcalloc(PHASE, (size_t)nb * words, 8),
             *kill = b3_xcalloc(PHASE, (size_t)nb * words, 8);
    uint64_t *in = b3_xcalloc(PHASE, (size_t)nb * words, 8), *out = b3_xcalloc(PHASE, (size_t)nb * words, 8);
    for (uint32_t bi = 0; bi < nb; bi++) {
        uint64_t *g = gen + (size_t)bi * words;
        walk_back(m, mstart[bi], mstart[bi + 1], g, kill + (size_t)bi * words, NULL, words);
        memcpy(in + (size_t)bi * words, g, words * 8);
    }
    uint32_t *pstart = b3_xcalloc(PHASE, nb + 1, sizeof(uint32_t)), nedges = 0;
    for (uint32_t bi = 0; bi < nb; bi++)
        for (uint32_t s = 0; s < c->blocks[bi]->nsuccs; s++, nedges++)
            pstart[c->blocks[bi]->succs[s].block->index + 1]++;
    for (uint32_t bi = 0; bi < nb; bi++)
        pstart[bi + 1] += pstart[bi];
    uint32_t *plist = b3_xcalloc(PHASE, nedges, sizeof(uint32_t)),
             *pfill = b3_xcalloc(PHASE, nb + 1, sizeof(uint32_t));
    memcpy(pfill, pstart, (nb + 1) * sizeof(uint32_t));
    for (uint32_t bi = 0; bi < nb; bi++)
        for (uint32_t s = 0; s < c->blocks[bi]->nsuccs; s++)
            plist[pfill[c->blocks[bi]->succs[s].block->index]++] = bi;
    AirBlock **rpo = air_rpo(c);
    uint8_t *dirty = b3_xcalloc(PHASE, nb, 1);
    memset(dirty, 1, nb);
    uint64_t work = 0;
    for (bool again = true; again && out;) {
        again = false;
        for (uint32_t oi = nb; oi-- > 0;) {
            AirBlock *b = rpo[oi];
            uint32_t bi = b->index;
            if (!dirty[bi])
                continue;
            dirty[bi] = 0;
            work += (uint64_t)(b->nsuccs + 1) * words;
            if (work > budget) {
                free(out);
                out = NULL;
                break;
            }
            uint64_t *o = out + (size_t)bi * words, *i = in + (size_t)bi * words;
            const uint64_t *g = gen + (size_t)bi * words, *k = kill + (size_t)bi * words;
            for (uint32_t s = 0; s < b->nsuccs; s++) {
                const uint64_t *si = in + (size_t)b->succs[s].block->index * words;
                for (uint32_t w = 0; w < words; w++)
                    o[w] |= si[w];
            }
            bool changed = false;
            for (uint32_t w = 0; w < words; w++) {
                uint64_t v = g[w] | (o[w] & ~k[w]);
                changed |= v != i[w];
                i[w] = v;
            }
            if (changed) {
                for (uint32_t p = pstart[bi]; p < pstart[bi + 1]; p++)
                    dirty[plist[p]] = 1;
                again = true;
            }
        }
    }
    free(pstart);
    free(plist);
    free(pfill);
    free(rpo);
    free(dirty);
    free(gen);
    free(kill);
    free(in);
    return out;
}

/* The same walk without interference, on sparse sets: a block's
 * upward-exposed uses (left in live) and its fulldefs (added to kill). */
static void walk_back_sets(const Mention *m, uint32_t lo, uint32_t hi, AirTmpSet *live, AirTmpSet *kill) {
    while (hi > lo) {
        uint32_t end = hi, inst = m[hi - 1].inst;
        while (hi > lo && m[hi - 1].inst == inst)
            hi--;
        for (uint32_t i = hi; i < end; i++)
            if (m[i].flags & SM_FULLDEF) {
                air_tmpset_remove(live, m[i].slot);
                air_tmpset_add(kill, m[i].slot);
            }
        for (uint32_t i = hi; i < end; i++)
            if (m[i].flags & SM_USE)
                air_tmpset_add(live, m[i].slot);
    }
}

static uint32_t *copy_list(const AirTmpSet *s) {
    uint32_t *v = b3_xmalloc(PHASE, s->size ? s->size * sizeof(uint32_t) : 1);
    memcpy(v, s->dense, s->size * sizeof(uint32_t));
    return v;
}

/* Assigns each spill slot a color; slots of one color share a location.
 * Returns the number of colors, or 0 if sharing was skipped. */
static uint32_t color_spill_slots(const AirCode *c, const int32_t *dense, uint32_t ns, uint32_t *color) {
    uint32_t words = (ns + 63) / 64, nb = c->nblocks;
    if (ns < 2 || (uint64_t)words * 64 * 64ull * words > SHARE_MAX_BITS)
        return 0;
    uint8_t *escaped = b3_xcalloc(PHASE, ns, 1);
    SlotCtx x = {dense, c->nslots, escaped, NULL, 0, 0, 0};
    uint32_t *mstart = b3_xcalloc(PHASE, nb + 1, sizeof(uint32_t));
    for (uint32_t bi = 0; bi < nb; bi++) {
        AirBlock *b = c->blocks[bi];
        mstart[bi] = x.n;
        for (uint32_t ii = 0; ii < b->ninsts; ii++)
            if (has_stack_arg(&b->insts[ii])) {
                x.inst = ii;
                air_for_each_arg(c, &b->insts[ii], slot_arg, &x);
            }
    }
    mstart[nb] = x.n;
    uint64_t *live = b3_xcalloc(PHASE, words, 8), *adj = b3_xcalloc(PHASE, (size_t)64 * words * words, 8);

    /* Slot liveness per block: bit sets when small and quick, else by the
     * sparse dataflow of liveness.c (the slots as its numbers), which costs
     * what the live sets hold, where bit sets cost blocks x slots in memory
     * and blocks x slots x loop depth in time.  Both give the same sets. */
    uint64_t *out = NULL;
    if ((uint64_t)nb * words <= BITSET_DATAFLOW_WORDS)
        out = bitset_live_out(c, x.v, mstart, words, 16 * ((uint64_t)nb * words + x.n) + (1u << 16));
    AirLiveness lv;
    air_liveness_init(&lv, c, AirGP, ns);
    if (!out) {
        uint32_t **kill = b3_xcalloc(PHASE, nb, sizeof(uint32_t *)),
                 *nkill = b3_xcalloc(PHASE, nb, sizeof(uint32_t));
        AirTmpSet sl, sk;
        air_tmpset_init(&sl, ns);
        air_tmpset_init(&sk, ns);
        for (uint32_t bi = 0; bi < nb; bi++) {
            if (mstart[bi] == mstart[bi + 1])
                continue;
            air_tmpset_clear(&sl);
            air_tmpset_clear(&sk);
            walk_back_sets(x.v, mstart[bi], mstart[bi + 1], &sl, &sk);
            lv.live_in[bi] = copy_list(&sl);
            lv.nlive_in[bi] = sl.size;
            kill[bi] = copy_list(&sk);
            nkill[bi] = sk.size;
        }
        air_tmpset_free(&sl);
        air_tmpset_free(&sk);
        air_liveness_solve_unordered(&lv, kill, nkill);
        for (uint32_t bi = 0; bi < nb; bi++)
            free(kill[bi]);
        free(kill);
        free(nkill);
    }
    /* Interference, recorded in the defs' rows, then made symmetric. */
    for (uint32_t bi = 0; bi < nb; bi++) {
        if (mstart[bi] == mstart[bi + 1])
            continue;
        if (out) {
            memcpy(live, out + (size_t)bi * words, words * 8);
        } else {
            memset(live, 0, words * 8);
            for (uint32_t i = 0; i < lv.nlive_out[bi]; i++)
                air_bit_set(live, lv.live_out[bi][i]);
        }
        walk_back(x.v, mstart[bi], mstart[bi + 1], live, NULL, adj, words);
    }
    air_liveness_free(&lv);
    free(out);
    air_bitmatrix_symmetrize(adj, words);

    /* Greedy, in slot order; escaped slots' colors are private. */
    uint32_t ncolors = 0, nprivate = 0;
    uint32_t *taken = b3_xcalloc(PHASE, ns + 1, sizeof(uint32_t)); /* == s + 1: a neighbour of s has it */
    uint8_t *private_color = b3_xcalloc(PHASE, ns + 1, 1);
    for (uint32_t s = 0; s < ns; s++) {
        if (escaped[s]) {
            private_color[ncolors] = 1;
            nprivate++;
            color[s] = ncolors++;
            continue;
        }
        const uint64_t *row = adj + (size_t)s * words;
        uint32_t ntaken = 0;
        for (uint32_t w = 0; w <= s / 64; w++) {
            uint64_t bits = row[w];
            if (w == s / 64)
                bits &= (1ull << (s & 63)) - 1;
            for (; bits; bits &= bits - 1) {
                uint32_t k = color[64 * w + (uint32_t)__builtin_ctzll(bits)];
                if (taken[k] != s + 1 && !private_color[k])
                    ntaken++;
                taken[k] = s + 1;
            }
        }
        /* Every shared color taken (many slots live at once): a new one,
         * without scanning them all. */
        uint32_t k = ntaken + nprivate == ncolors ? ncolors : 0;
        while (k < ncolors && (taken[k] == s + 1 || private_color[k]))
            k++;
        color[s] = k;
        if (k == ncolors)
            ncolors++;
    }
    free(taken);
    free(private_color);
    free(x.v);
    free(mstart);
    free(live);
    free(adj);
    free(escaped);
    return ncolors;
}

/* ---- layout ---- */

typedef struct {
    uint64_t size, align;
    uint32_t order; /* tie-break: creation order */
    int64_t offset;
} Item;

static int cmp_item(const void *pa, const void *pb) {
    const Item *a = *(Item *const *)pa, *b = *(Item *const *)pb;
    if (a->align != b->align)
        return a->align > b->align ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

typedef struct {
    AirTmp fp, sp;
    int64_t fp_bias; /* fp + off is at fp + fp_bias + off (the stack pointer with no frame pointer) */
} FrameRegs;

static void rewrite_arg(void *vctx, AirInst *inst, AirArg *arg, AirRole role, AirBank bank, AirWidth width) {
    (void)inst;
    (void)role;
    (void)bank;
    (void)width;
    const FrameRegs *r = vctx;
    int64_t off;
    AirTmp base;
    if (arg->kind == AirArg_Stack) {
        off = arg->u.slot->offset + arg->value + r->fp_bias;
        base = r->fp;
    } else if (arg->kind == AirArg_CallArg) {
        off = arg->value;
        base = r->sp;
    } else {
        return;
    }
    if (off < INT32_MIN || off > INT32_MAX)
        b3_internal_error(PHASE, "frame offset %lld does not fit a 32-bit displacement", (long long)off);
    *arg = air_addr(base, off);
}

void air_allocate_stack(AirCode *c) {
    FrameRegs regs = {c->desc->frame_pointer, c->desc->stack_pointer, 0};

    uint64_t saves = 0;
    for (unsigned r = 0; r < 64; r++)
        if (b3_regset_has(&c->used_callee_saves, (B3Reg)r))
            saves += 8;

    uint32_t ns = 0;
    int32_t *dense = b3_xcalloc(PHASE, c->nslots, sizeof(int32_t));
    for (uint32_t i = 0; i < c->nslots; i++) {
        AirStackSlot *s = c->slots[i];
        if (s->index != i)
            b3_internal_error(PHASE, "stack slot %u has index %u", i, s->index);
        /* Only the 8-byte spill slots the register allocator makes are candidates for sharing. */
        dense[i] = s->spill && !s->shared && s->size <= 8 && s->align <= 8 ? (int32_t)ns++ : -1;
    }
    uint32_t *color = b3_xcalloc(PHASE, ns, sizeof(uint32_t));
    uint32_t ncolors = color_spill_slots(c, dense, ns, color);
    if (!ncolors) {
        for (uint32_t s = 0; s < ns; s++)
            color[s] = s;
        ncolors = ns;
    }

    /* One item per non-shared slot, one per spill color. */
    uint32_t nitems = 0;
    Item *items = b3_xcalloc(PHASE, c->nslots + ncolors, sizeof(Item));
    Item **sorted = b3_xcalloc(PHASE, c->nslots + ncolors, sizeof(Item *));
    Item **slot_item = b3_xcalloc(PHASE, c->nslots, sizeof(Item *));
    Item **color_item = b3_xcalloc(PHASE, ncolors, sizeof(Item *));
    for (uint32_t i = 0; i < c->nslots; i++) {
        AirStackSlot *s = c->slots[i];
        Item *it;
        if (dense[i] >= 0) {
            uint32_t k = color[dense[i]];
            if (!color_item[k]) {
                color_item[k] = &items[nitems++];
                *color_item[k] = (Item){8, 8, i, 0};
            }
            it = color_item[k];
        } else {
            it = &items[nitems++];
            uint64_t align = s->align ? s->align : 1;
            if (align > 16)
                b3_internal_error(PHASE, "stack slot %u wants alignment %u; the frame guarantees 16", i,
                                  s->align);
            /* A zero-sized slot still needs an address of its own. */
            *it = (Item){s->size ? s->size : 1, align, i, 0};
        }
        slot_item[i] = it;
    }
    for (uint32_t i = 0; i < nitems; i++)
        sorted[i] = &items[i];
    qsort(sorted, nitems, sizeof(Item *), cmp_item);

    /* The frame pointer is 16-byte aligned, so aligning offsets from it aligns
     * addresses.  Without one, [fp, fp + 8) (the saved frame pointer's place
     * of the other layout, below the return address) holds the first callee
     * save, so its 8 bytes are not lost to the frame. */
    uint64_t top = c->omit_frame_pointer && saves ? saves - 8 : saves;
    for (uint32_t i = 0; i < nitems; i++) {
        top = b3_align_up(top + sorted[i]->size, sorted[i]->align);
        sorted[i]->offset = -(int64_t)top;
    }
    for (uint32_t i = 0; i < c->nslots; i++) {
        AirStackSlot *s = c->slots[i];
        s->offset = slot_item[i]->offset;
        if (s->b3)
            s->b3->offset = s->offset;
    }
    uint64_t frame = b3_align_up(top + c->call_arg_area, 16);
    if (frame > INT32_MAX)
        b3_internal_error(PHASE, "frame of %llu bytes is too large", (unsigned long long)frame);
    c->frame_size = frame;
    /* Without a frame pointer the prologue moves the stack pointer to where
     * it would be with one, so the frame pointer's place is sp + frame. */
    if (c->omit_frame_pointer) {
        regs.fp = regs.sp;
        regs.fp_bias = (int64_t)frame;
    }

    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        /* Only the arg kinds matter here, not the roles the signature gives them. */
        for (uint32_t ii = 0; ii < b->ninsts; ii++)
            for (uint32_t ai = 0; ai < b->insts[ii].nargs; ai++)
                rewrite_arg(&regs, &b->insts[ii], &b->insts[ii].args[ai], AirRole_Use, AirGP, AirW64);
    }

    free(dense);
    free(color);
    free(items);
    free(sorted);
    free(slot_item);
    free(color_item);
}
