/* move_constants (-O1, -O2, after the optimizations): B3's moveConstants.
 *
 * Every constant (Const32, Const64, ConstFloat, ConstDouble) is made once
 * per procedure: uses of equal constants (same opcode, same bits: -0.0 and
 * 0.0 stay apart, NaNs by payload) share one value, placed in the lowest
 * common dominator of its uses, then raised along the dominator tree to the
 * closest dominator outside as many loops as possible (B3 raises to the
 * least frequent dominator; b3c's block frequencies are mostly not written,
 * so loop depth stands for frequency).  In its block the constant goes just
 * before its first use, or before the terminal.
 *
 * Why this matters: lower_to_air materialises a Float/Double constant where
 * it stands (an integer move and a GPR-to-XMM move; zero is one xor) while
 * integer constants become immediates at each use wherever they stand.  A
 * Double constant inside a loop was rebuilt every iteration; now it is made
 * once before the loop and lives in a register (or a spill slot, which is
 * what a constant pool would cost).  B3 instead loads non-trivial doubles
 * from a per-procedure data table; hoisting gives the same single
 * materialisation without a memory access, and keeps the IR free of new
 * data symbols.  B3's rewriting of big Add/Sub immediates and of constant
 * load addresses into nearby ones is not done: x86-64 needs neither.
 *
 * On a target whose SymbolAddress costs instructions where it stands
 * (B3TargetInfo.symbol_address_costly: arm64's adrp/add), a SymbolAddress
 * is a constant too, equal to another of the same symbol and offset: made
 * once and out of loops, as a table's base in a loop should be.  (x86-64
 * folds it into each use's rip-relative operand, so there it stays.)
 *
 * A SlotBase is a constant too, on every target: equal to another of the
 * same slot, made once and out of loops.  A load or store of the slot
 * itself still addresses it in place wherever the SlotBase stands
 * (lower_addr_for); only an address computed from it (a local array
 * indexed in a loop) needs it in a register, which is then built once
 * instead of by a lea at every use. */
#include <stdlib.h>
#include <string.h>

#include "ir/dominators.h"
#include "ir/ice.h"
#include "ir/loops.h"
#include "opt/phases.h"
#include "util/alloc.h"
#include "util/vec.h"

#define PHASE "move_constants"

typedef struct {
    B3Value **slots;
    uint32_t cap;
    bool symbols; /* SymbolAddress counts as a constant */
} Table;

static bool is_const(const Table *t, const B3Value *v) {
    return b3_value_is_const(v) || v->opcode == B3_SlotBase || (t->symbols && v->opcode == B3_SymbolAddress);
}

static uint64_t const_bits(const B3Value *v) {
    if (v->opcode == B3_SlotBase)
        return (uint64_t)(uintptr_t)v->m.slot;
    if (v->opcode == B3_SymbolAddress)
        return (uint64_t)(uintptr_t)v->m.symbol.sym * 31 + (uint64_t)v->m.symbol.offset;
    return b3_const_bits(v);
}

static bool same_const(const B3Value *a, const B3Value *b) {
    if (a->opcode != b->opcode)
        return false;
    if (a->opcode == B3_SlotBase)
        return a->m.slot == b->m.slot;
    if (a->opcode == B3_SymbolAddress)
        return a->m.symbol.sym == b->m.symbol.sym && a->m.symbol.offset == b->m.symbol.offset;
    return b3_const_bits(a) == b3_const_bits(b);
}

/* The canonical constant equal to v (v itself if it is the first). */
static B3Value **lookup(Table *t, const B3Value *v) {
    uint64_t h = (const_bits(v) ^ ((uint64_t)v->opcode << 59)) * 0x9e3779b97f4a7c15ull;
    for (uint32_t i = (uint32_t)(h >> 32) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        B3Value *s = t->slots[i];
        if (!s || same_const(s, v))
            return &t->slots[i];
    }
}

bool b3_move_constants(B3Module *m, B3Proc *p) {
    uint32_t n = b3_proc_number_values(p);
    B3Dominators dom;
    b3_dominators_compute(&dom, p);
    B3Loops loops;
    b3_loops_compute(&loops, p, &dom);
    /* at most half full: a power of two from 16 up */
    Table t = {NULL, (uint32_t)b3_vec_capacity(16, 2 * (size_t)n + 16),
               b3_target_info(m->target)->symbol_address_costly};
    t.slots = b3_xcalloc(PHASE, t.cap, sizeof *t.slots);
    B3Block **home = b3_xcalloc(PHASE, n + 1, sizeof *home); /* canonical constant -> its block, or NULL */
    uint32_t *per_block = b3_xcalloc(PHASE, p->nblocks + 1, sizeof *per_block);
    bool *placed = b3_xcalloc(PHASE, n + 1, sizeof *placed);

    /* Share equal constants; the home is the common dominator of the uses. */
    bool changed = false;
    for (uint32_t bi = 0; bi < p->nblocks; bi++) {
        B3Block *b = p->blocks[bi];
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *u = b->values[i];
            for (uint32_t k = 0; k < u->nkids; k++) {
                B3Value *c = u->kids[k];
                if (!is_const(&t, c))
                    continue;
                B3Value **slot = lookup(&t, c);
                if (!*slot)
                    *slot = c;
                if (*slot != c) {
                    u->kids[k] = *slot;
                    changed = true;
                }
                B3Value *canon = *slot;
                B3Block *h = home[canon->scratch];
                if (!h)
                    h = b;
                while (!b3_dominates(&dom, h, b) && b3_idom(&dom, h))
                    h = b3_idom(&dom, h);
                home[canon->scratch] = h;
            }
        }
    }
    /* Out of loops: the closest dominator of the least loop depth. */
    for (uint32_t i = 0; i < p->nvalues; i++) {
        B3Value *c = p->values[i];
        B3Block *h = home[c->scratch];
        if (!h)
            continue;
        B3Block *best = h;
        for (B3Block *x = b3_idom(&dom, h); x && b3_loop_depth(&loops, best); x = b3_idom(&dom, x))
            if (b3_loop_depth(&loops, x) < b3_loop_depth(&loops, best))
                best = x;
        if (best != c->owner)
            changed = true;
        home[c->scratch] = best;
        per_block[best->pos]++;
    }

    /* Each block's constants, contiguous in homed[start[b]..start[b+1]). */
    uint32_t *start = b3_xcalloc(PHASE, p->nblocks + 2, sizeof *start);
    B3Value **homed = b3_xcalloc(PHASE, n + 1, sizeof *homed);
    for (uint32_t bi = 0; bi < p->nblocks; bi++)
        start[bi + 1] = start[bi] + per_block[bi];
    memset(per_block, 0, p->nblocks * sizeof *per_block);
    for (uint32_t i = 0; i < p->nvalues; i++) {
        B3Value *c = p->values[i];
        if (home[c->scratch]) {
            uint32_t pos = home[c->scratch]->pos;
            homed[start[pos] + per_block[pos]++] = c;
        }
    }

    /* Rebuild the blocks: constants leave their places (a shared or unused
     * one becomes a Nop) and each canonical one goes before its first use in
     * its home, or before the home's terminal. */
    for (uint32_t bi = 0; bi < p->nblocks; bi++) {
        B3Block *b = p->blocks[bi];
        uint32_t cap = b->nvalues + start[bi + 1] - start[bi];
        B3Value **out = b3_arena_alloc(&m->arena, (cap ? cap : 1) * sizeof *out);
        uint32_t nout = 0;
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *u = b->values[i];
            if (is_const(&t, u)) {
                if (!home[u->scratch]) {
                    b3_value_replace_with_nop(u); /* shared, or unused */
                    changed = true;
                }
                continue;
            }
            for (uint32_t k = 0; k < u->nkids; k++) {
                B3Value *c = u->kids[k];
                if (is_const(&t, c) && home[c->scratch] == b && !placed[c->scratch]) {
                    placed[c->scratch] = true;
                    c->owner = b;
                    out[nout++] = c;
                }
            }
            if (b3_is_terminal(u))
                for (uint32_t j = start[bi]; j < start[bi + 1]; j++) {
                    /* A home that is only a dominator of the uses. */
                    B3Value *c = homed[j];
                    if (!placed[c->scratch]) {
                        placed[c->scratch] = true;
                        c->owner = b;
                        out[nout++] = c;
                    }
                }
            out[nout++] = u;
        }
        b->values = out;
        b->nvalues = nout;
        b->cap_values = cap;
    }
    b3_proc_remove_nops(m, p);

    free(t.slots);
    free(home);
    free(per_block);
    free(placed);
    free(start);
    free(homed);
    b3_loops_free(&loops);
    b3_dominators_free(&dom);
    return changed;
}
