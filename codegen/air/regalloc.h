/* Internal to the register allocators (allocate_registers.c, graph coloring;
 * allocate_registers_and_stack_by_linear_scan.c; allocate_registers_fast.c):
 * what they need to agree on, and the spill rewriter and spill moves they share. */
#ifndef B3_AIR_REGALLOC_H
#define B3_AIR_REGALLOC_H

#include "codegen/air/air.h"

/* The allocatable registers of a bank (pinned ones left out). */
typedef struct {
    uint32_t k;      /* number of allocatable registers */
    B3Reg order[32]; /* in preference order: caller-saved first */
    int8_t rank[64]; /* position in order, or -1 if not allocatable */
} AirRegFile;

void air_reg_file(const AirCode *c, AirBank bank, AirRegFile *rf);

/* Would replacing this Tmp arg by a spill slot be valid and mean the same
 * thing?  use_width[t]: the widest use of tmp t (AirWidth + 1; 0 = never used);
 * NULL: unknown, so a narrow zero-extending def never goes to memory. */
bool air_admits_stack(const AirCode *c, AirInst *inst, AirArg *arg, AirRole role, AirWidth width,
                      const uint8_t *use_width);

/* A terminal of b that defines spilled tmps: the n stores (moves) that follow
 * the definition go on each outgoing edge, in a new block of their own
 * (whatever lives there lives at the terminal). */
void air_store_on_out_edges(AirCode *c, AirBlock *b, B3Value *origin, const AirInst *stores, uint32_t n);

/* ---- the spill rewriter ----
 * Rewrites the mentions of the spilled tmps of one bank, a block at a time:
 * a mention the inst's form allows in memory becomes the tmp's spill slot;
 * any other gets a fresh tmp (one per spilled tmp and inst), loaded from the
 * slot before the inst if the inst reads it, stored to it after the inst if
 * the inst writes it (after a terminal: on each outgoing edge, see
 * air_store_on_out_edges).  Fills and stores are Move/MoveDouble, or
 * Move32/MoveFloat for a narrow slot.  The allocators differ in how they
 * choose slots and in what they record about a fresh tmp (the callbacks). */
typedef struct {
    AirTmp orig, fresh;
    bool load, store;
} AirSpillFill;

/* Dead memory of the Air arena: the insts arrays blocks had before a
 * rewrite replaced them (lowering's, of their exact size), reused for the
 * spill moves' args and later blocks' arrays; they had been a third of
 * what an allocator added to the arena. */
typedef struct {
    char *p;
    size_t n;
} AirHole;
typedef struct {
    AirHole *v;
    uint32_t n, cap;
    char *cur, *end; /* the hole being filled */
} AirHoles;
/* Gives a dead block of n bytes (16-byte aligned) to the holes. */
void air_holes_add(AirHoles *h, void *p, size_t n);
/* Moves to a hole with room for n bytes (one of the last few); false: none. */
bool air_holes_next(AirHoles *h, size_t n);
/* n bytes (a multiple of 16), not zeroed: from the holes, else from the arena. */
static inline void *air_holes_take(AirHoles *h, AirCode *c, size_t n) {
    if ((size_t)(h->end - h->cur) < n && !air_holes_next(h, n))
        return b3_arena_alloc(c->arena, n);
    void *p = h->cur;
    h->cur += n;
    return p;
}
void air_holes_free(AirHoles *h);

typedef struct {
    /* Set by the caller: */
    AirCode *c;
    AirBank bank;
    AirStackSlot **slot_of; /* per tmp below nslot_of: its spill slot, or NULL */
    uint32_t nslot_of;
    const uint8_t *use_width; /* for air_admits_stack (NULL: unknown) */
    void *ctx;                /* for the callbacks */
    /* Each time a mention of a spilled tmp in inst ii of block bi (before
     * the rewrite) gets fresh tmp `fresh` (is_new: just made; else an
     * earlier mention in the same inst made it), with the mention's role and
     * whether it is loaded / stored there.  NULL: nothing to note. */
    void (*on_fill)(void *ctx, uint32_t bi, uint32_t ii, AirTmp fresh, bool is_new, AirRole role, bool load,
                    bool store);
    /* May inst ii of block bi mention a spilled tmp?  NULL: any may. */
    bool (*may_mention)(void *ctx, uint32_t bi, uint32_t ii);
    /* Set by air_spill_rewrite_block: */
    bool replaced; /* the block's inst list was replaced ... */
    uint32_t *src; /* ... and its inst k was inst src[k] before (UINT32_MAX: spill code) */
    bool split;    /* stores went on new edge blocks (predecessors are stale); never cleared */
    /* Private: */
    uint32_t bi, ii; /* the inst being rewritten */
    AirSpillFill *fills;
    uint32_t nfills, cap_fills;
    bool touched;
    AirInst *out, *after;
    uint32_t nout, cap_out, nafter, cap_after;
    AirHoles holes;
} AirSpiller;

/* A fill (load: slot s to tmp t) or store (t to s) of a bank's value, the
 * move the spill rewriter and the fast allocator put around insts: Move or
 * MoveDouble, Move32 or MoveFloat for a narrow slot. */
AirInst air_spill_move(AirCode *c, AirBank bank, const AirStackSlot *s, AirTmp t, bool load, B3Value *origin);
/* The same with its two args in memory the caller provides. */
static inline AirInst air_spill_move_in(AirArg args[2], AirBank bank, const AirStackSlot *s, AirTmp t,
                                        bool load, B3Value *origin) {
    AirOpcode op =
        bank == AirGP ? (s->narrow ? Air_Move32 : Air_Move) : (s->narrow ? Air_MoveFloat : Air_MoveDouble);
    AirInst i = {.opcode = (uint16_t)op, .nargs = 2, .args = args, .origin = origin};
    args[load ? 0 : 1] = air_stack((AirStackSlot *)s, 0);
    args[load ? 1 : 0] = air_tmp(t);
    return i;
}

/* Rewrites block bi; true if any mention in it was rewritten. */
bool air_spill_rewrite_block(AirSpiller *sp, uint32_t bi);
void air_spiller_free(AirSpiller *sp);

/* After allocation: sets c->used_callee_saves from the registers mentioned and clobbered. */
void air_compute_used_callee_saves(AirCode *c);
/* Adds r to set if the prologue must save it when the code uses it. */
void air_note_callee_save(const AirCode *c, B3RegSet *set, B3Reg r);

/* After allocation, within each block: a reload of a spill slot that a
 * register still holds becomes a copy or nothing (like Air's FixObviousSpills).
 * blocks (by index; NULL: all) limits it to the blocks that have spill code. */
void air_fix_obvious_spills(AirCode *c, const uint8_t *blocks);
/* Removes stores to spill slots that the same block overwrites before reading. */
void air_remove_dead_spill_stores(AirCode *c, const uint8_t *blocks);

#endif
