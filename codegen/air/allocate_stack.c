/* Stack allocation (docs/backend.md, "Frame layout"):
 *
 *   [fp - 8*k]   callee-saved registers used, in register-number order
 *   ...          B3 stack slots and spill slots, aligned and packed
 *   [sp + 0 ..]  outgoing call arguments (c->call_arg_area)
 *
 * Spill slots whose live ranges never overlap share a location (like Air's
 * AllocateStackByGraphColoring); B3 slots may have their address taken, so
 * each keeps its own.  Finally Stack args become Addr(fp, offset) and CallArg
 * args Addr(sp, offset). */
#include <stdlib.h>
#include <string.h>

#include "codegen/air/phases.h"

#define PHASE "air stack allocation"

/* Beyond these, sharing spill slots is not worth its quadratic parts. */
#define SHARE_MAX_SLOTS 4096u
#define SHARE_MAX_BITS (512ull << 20)

static void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        b3_internal_error(PHASE, "out of memory");
    return p;
}

static uint64_t align_up(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

/* ---- spill slot sharing ---- */

typedef struct {
    const AirCode *c;
    const int32_t *dense;          /* slot index -> spill number, or -1 */
    uint32_t words;                /* bitset words per set */
    uint64_t *use, *fulldef, *def; /* the current inst's sets */
    uint8_t *escaped;
} SlotCtx;

static inline void bit_set(uint64_t *s, uint32_t i) { s[i >> 6] |= 1ull << (i & 63); }
static inline bool bit_has(const uint64_t *s, uint32_t i) { return (s[i >> 6] >> (i & 63)) & 1; }

static void slot_arg(void *vctx, AirInst *inst, AirArg *arg, AirRole role, AirBank bank, AirWidth width) {
    (void)inst;
    (void)bank;
    SlotCtx *x = vctx;
    if (arg->kind != AirArg_Stack || !arg->u.slot || arg->u.slot->index >= x->c->nslots)
        return;
    int32_t s = x->dense[arg->u.slot->index];
    if (s < 0)
        return;
    if (role == AirRole_UseAddr) {
        x->escaped[s] = 1; /* the address leaks: keep the slot to itself */
        return;
    }
    if (air_role_is_use(role))
        bit_set(x->use, (uint32_t)s);
    if (air_role_is_def(role)) {
        bit_set(x->def, (uint32_t)s);
        /* Only a def covering all 8 bytes at offset 0 ends the previous value. */
        if (width == AirW64 && arg->value == 0 && role != AirRole_UseDef && role != AirRole_UseZDef)
            bit_set(x->fulldef, (uint32_t)s);
    }
    /* A partial access keeps the rest of the slot's bytes alive. */
    if (air_role_is_def(role) && !(width == AirW64 && arg->value == 0))
        bit_set(x->use, (uint32_t)s);
}

static void inst_sets(SlotCtx *x, AirInst *inst) {
    memset(x->use, 0, x->words * 8);
    memset(x->def, 0, x->words * 8);
    memset(x->fulldef, 0, x->words * 8);
    air_for_each_arg(x->c, inst, slot_arg, x);
}

/* Assigns each spill slot a color; slots of one color share a location.
 * Returns the number of colors, or 0 if sharing was skipped. */
static uint32_t color_spill_slots(const AirCode *c, const int32_t *dense, uint32_t ns, uint32_t *color) {
    uint32_t words = (ns + 63) / 64, nb = c->nblocks;
    if (ns < 2 || ns > SHARE_MAX_SLOTS || (uint64_t)words * 64 * (4ull * nb + ns) > SHARE_MAX_BITS)
        return 0;
    uint64_t *gen = xcalloc((size_t)nb * words, 8), *kill = xcalloc((size_t)nb * words, 8);
    uint64_t *in = xcalloc((size_t)nb * words, 8), *out = xcalloc((size_t)nb * words, 8);
    uint64_t *live = xcalloc(words, 8), *adj = xcalloc((size_t)ns * words, 8);
    uint8_t *escaped = xcalloc(ns, 1);
    SlotCtx x = {c, dense, words, xcalloc(words, 8), xcalloc(words, 8), xcalloc(words, 8), escaped};

    /* gen/kill per block, walking backwards. */
    for (uint32_t bi = 0; bi < nb; bi++) {
        AirBlock *b = c->blocks[bi];
        uint64_t *g = gen + (size_t)bi * words, *k = kill + (size_t)bi * words;
        for (uint32_t ii = b->ninsts; ii-- > 0;) {
            inst_sets(&x, &b->insts[ii]);
            for (uint32_t w = 0; w < words; w++) {
                g[w] = (g[w] & ~x.fulldef[w]) | x.use[w];
                k[w] |= x.fulldef[w];
            }
        }
        memcpy(in + (size_t)bi * words, g, words * 8);
    }
    /* Round-robin to a fixed point (backwards over the block list converges fast enough here). */
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t bi = nb; bi-- > 0;) {
            AirBlock *b = c->blocks[bi];
            uint64_t *o = out + (size_t)bi * words, *i = in + (size_t)bi * words;
            const uint64_t *g = gen + (size_t)bi * words, *k = kill + (size_t)bi * words;
            for (uint32_t s = 0; s < b->nsuccs; s++) {
                const uint64_t *si = in + (size_t)b->succs[s].block->index * words;
                for (uint32_t w = 0; w < words; w++)
                    o[w] |= si[w];
            }
            for (uint32_t w = 0; w < words; w++) {
                uint64_t v = g[w] | (o[w] & ~k[w]);
                if (v != i[w]) {
                    i[w] = v;
                    changed = true;
                }
            }
        }
    }
    /* Interference: what an inst writes conflicts with everything live after it and all it reads. */
    for (uint32_t bi = 0; bi < nb; bi++) {
        AirBlock *b = c->blocks[bi];
        memcpy(live, out + (size_t)bi * words, words * 8);
        for (uint32_t ii = b->ninsts; ii-- > 0;) {
            inst_sets(&x, &b->insts[ii]);
            for (uint32_t w = 0; w < words; w++) {
                uint64_t d = x.def[w];
                while (d) {
                    uint32_t s = w * 64 + (uint32_t)__builtin_ctzll(d);
                    d &= d - 1;
                    uint64_t *row = adj + (size_t)s * words;
                    for (uint32_t v = 0; v < words; v++)
                        row[v] |= live[v] | x.use[v] | x.def[v];
                }
            }
            for (uint32_t w = 0; w < words; w++)
                live[w] = (live[w] & ~x.fulldef[w]) | x.use[w];
        }
    }
    /* Make the relation symmetric, then color greedily. */
    for (uint32_t s = 0; s < ns; s++)
        for (uint32_t t = 0; t < ns; t++)
            if (bit_has(adj + (size_t)s * words, t))
                bit_set(adj + (size_t)t * words, s);
    uint32_t ncolors = 0;
    uint8_t *taken = xcalloc(ns + 1, 1);
    for (uint32_t s = 0; s < ns; s++) {
        if (escaped[s]) {
            color[s] = ncolors++;
            continue;
        }
        memset(taken, 0, ncolors + 1);
        const uint64_t *row = adj + (size_t)s * words;
        for (uint32_t t = 0; t < s; t++)
            if (bit_has(row, t))
                taken[color[t]] = 1;
        /* Escaped slots' colors are private. */
        for (uint32_t t = 0; t < s; t++)
            if (escaped[t])
                taken[color[t]] = 1;
        uint32_t k = 0;
        while (k < ncolors && taken[k])
            k++;
        color[s] = k;
        if (k == ncolors)
            ncolors++;
    }
    free(taken);
    free(gen);
    free(kill);
    free(in);
    free(out);
    free(live);
    free(adj);
    free(escaped);
    free(x.use);
    free(x.def);
    free(x.fulldef);
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
        off = arg->u.slot->offset + arg->value;
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
    bool x86 = c->target.arch == B3Arch_X86_64;
    FrameRegs regs = {x86 ? B3X_rbp : B3A_fp, x86 ? B3X_rsp : B3A_sp};

    uint64_t saves = 0;
    for (unsigned r = 0; r < 64; r++)
        if (b3_regset_has(&c->used_callee_saves, (B3Reg)r))
            saves += 8;

    uint32_t ns = 0;
    int32_t *dense = xcalloc(c->nslots, sizeof(int32_t));
    for (uint32_t i = 0; i < c->nslots; i++) {
        AirStackSlot *s = c->slots[i];
        if (s->index != i)
            b3_internal_error(PHASE, "stack slot %u has index %u", i, s->index);
        /* Only the 8-byte spill slots the register allocator makes are candidates for sharing. */
        dense[i] = s->spill && s->size <= 8 && s->align <= 8 ? (int32_t)ns++ : -1;
    }
    uint32_t *color = xcalloc(ns, sizeof(uint32_t));
    uint32_t ncolors = color_spill_slots(c, dense, ns, color);
    if (!ncolors) {
        for (uint32_t s = 0; s < ns; s++)
            color[s] = s;
        ncolors = ns;
    }

    /* One item per non-shared slot, one per spill color. */
    uint32_t nitems = 0;
    Item *items = xcalloc(c->nslots + ncolors, sizeof(Item));
    Item **sorted = xcalloc(c->nslots + ncolors, sizeof(Item *));
    Item **slot_item = xcalloc(c->nslots, sizeof(Item *));
    Item **color_item = xcalloc(ncolors, sizeof(Item *));
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

    /* The frame pointer is 16-byte aligned, so aligning offsets from it aligns addresses. */
    uint64_t top = saves;
    for (uint32_t i = 0; i < nitems; i++) {
        top = align_up(top + sorted[i]->size, sorted[i]->align);
        sorted[i]->offset = -(int64_t)top;
    }
    for (uint32_t i = 0; i < c->nslots; i++) {
        AirStackSlot *s = c->slots[i];
        s->offset = slot_item[i]->offset;
        if (s->b3)
            s->b3->offset = s->offset;
    }
    uint64_t frame = align_up(top + c->call_arg_area, 16);
    if (frame > INT32_MAX)
        b3_internal_error(PHASE, "frame of %llu bytes is too large", (unsigned long long)frame);
    c->frame_size = frame;

    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        for (uint32_t ii = 0; ii < b->ninsts; ii++)
            air_for_each_arg(c, &b->insts[ii], rewrite_arg, &regs);
    }

    free(dense);
    free(color);
    free(items);
    free(sorted);
    free(slot_item);
    free(color_item);
}
