/* air_fix_obvious_spills: after register allocation, a reload of a spill
 * slot that a register still holds becomes a register copy or nothing, and
 * an operand that reads such a slot reads the register instead (Air's
 * fixObviousSpills).  Spill stores that the same block overwrites before any
 * read go too.
 *
 * What a register holds is tracked forward through each block; a block
 * starts with what all its predecessors agree on when they all come before
 * it in block order (so straight-line code and the arms of a diamond carry
 * it over; a loop header, reached by a back edge, starts empty).  Only spill
 * slots are tracked: nothing takes their address, so only Stack args touch
 * them. */
#include <stdlib.h>
#include <string.h>

#include "codegen/air/phases.h"
#include "codegen/air/regalloc.h"
#include "util/alloc.h"

#define PHASE "fix_obvious_spills"

typedef struct {
    B3Reg reg;
    const AirStackSlot *slot;
} Holds;

typedef struct {
    Holds h[64];
    uint32_t n;
} HoldSet;

static void holds_forget_reg(HoldSet *s, B3Reg r) {
    for (uint32_t i = 0; i < s->n;)
        if (s->h[i].reg == r)
            s->h[i] = s->h[--s->n];
        else
            i++;
}

static void holds_forget_slot(HoldSet *s, const AirStackSlot *slot) {
    for (uint32_t i = 0; i < s->n;)
        if (s->h[i].slot == slot)
            s->h[i] = s->h[--s->n];
        else
            i++;
}

static bool holds_has(const HoldSet *s, B3Reg r, const AirStackSlot *slot) {
    for (uint32_t i = 0; i < s->n; i++)
        if (s->h[i].reg == r && s->h[i].slot == slot)
            return true;
    return false;
}

static void holds_add(HoldSet *s, B3Reg r, const AirStackSlot *slot) {
    if (holds_has(s, r, slot))
        return;
    if (s->n == sizeof s->h / sizeof s->h[0])
        s->h[0] = s->h[--s->n]; /* full: forgetting is always safe */
    s->h[s->n++] = (Holds){r, slot};
}

static int holds_find(const HoldSet *s, const AirStackSlot *slot, AirBank bank) {
    for (uint32_t i = 0; i < s->n; i++)
        if (s->h[i].slot == slot && air_tmp_bank(NULL, s->h[i].reg) == bank)
            return s->h[i].reg;
    return -1;
}

static bool is_spill_ref(const AirArg *a) {
    return a->kind == AirArg_Stack && a->u.slot && a->u.slot->spill && a->value == 0;
}

/* A move that copies all of a spill slot that anyone reads: Move/MoveDouble
 * (64 bits), or Move32/MoveFloat with a narrow slot (nobody reads its upper
 * half, so its low 32 bits are all of it). */
static inline bool is_spill_move(const AirInst *i) {
    if (i->special || i->nargs != 2)
        return false;
    if (i->opcode == Air_Move || i->opcode == Air_MoveDouble)
        return true;
    if (i->opcode != Air_Move32 && i->opcode != Air_MoveFloat)
        return false;
    const AirArg *s = i->args[0].kind == AirArg_Stack ? &i->args[0] : &i->args[1];
    return s->kind == AirArg_Stack && s->u.slot && s->u.slot->narrow;
}

/* Move32 of a register into a spill slot.  The allocators put a narrow
 * zero-extending def in memory only when nothing reads the tmp wider
 * (air_admits_stack), so the register then holds all that anyone reads of
 * the slot: a 64-bit reload may become a copy of it.  (A Move32 reload
 * holds only half of what the slot may hold, so it is never tracked.) */
static inline bool is_narrow_spill_store(const AirInst *i) {
    return !i->special && i->nargs == 2 && i->opcode == Air_Move32 && i->args[0].kind == AirArg_Tmp &&
           is_spill_ref(&i->args[1]) && !i->args[1].u.slot->narrow;
}

typedef struct {
    AirCode *c;
    HoldSet *hs;
} FixCtx;

static void fix_use_arg(void *vctx, AirInst *inst, AirArg *arg, AirRole role, AirBank bank, AirWidth width) {
    FixCtx *x = vctx;
    if (!is_spill_ref(arg) || !(role == AirRole_Use || role == AirRole_ColdUse) || width > AirW64)
        return;
    int r = holds_find(x->hs, arg->u.slot, bank);
    if (r < 0)
        return;
    AirArg saved = *arg;
    *arg = air_tmp((AirTmp)r);
    if (!air_is_valid_form(x->c->target, (AirOpcode)inst->opcode, inst->nargs, inst->args))
        *arg = saved;
}

static void fix_def_arg(void *vctx, AirInst *inst, AirArg *arg, AirRole role, AirBank bank, AirWidth width) {
    (void)inst;
    (void)bank;
    (void)width;
    FixCtx *x = vctx;
    if (!air_role_is_def(role))
        return;
    if (arg->kind == AirArg_Tmp && air_tmp_is_reg(arg->base))
        holds_forget_reg(x->hs, (B3Reg)arg->base);
    else if (arg->kind == AirArg_Stack && arg->u.slot)
        holds_forget_slot(x->hs, arg->u.slot);
}

/* One block, starting from what hs says; leaves hs as it is at the end. */
static void fix_block(AirCode *c, AirBlock *b, HoldSet *hs) {
    FixCtx x = {c, hs};
    uint32_t out = 0;
    for (uint32_t ii = 0; ii < b->ninsts; ii++) {
        AirInst *inst = &b->insts[ii];
        if (is_spill_move(inst) && is_spill_ref(&inst->args[0]) && inst->args[1].kind == AirArg_Tmp) {
            AirTmp dst = inst->args[1].base;
            int r = holds_find(hs, inst->args[0].u.slot, air_tmp_bank(c, dst));
            /* A narrow slot's holder agrees with it in the low 32 bits only,
             * and the fill zero-extends: it becomes a register Move32 (kept
             * even as a self-move), since coalescing may have made the
             * filled register one that is read whole. */
            bool zero_extends = inst->opcode == Air_Move32;
            if (r == (int)dst && !zero_extends)
                continue; /* the register already holds the slot's value */
            if (r >= 0)
                inst->args[0] = air_tmp((AirTmp)r);
        } else if (!inst->special) {
            air_for_each_arg_inline(inst, fix_use_arg, &x);
        }
        air_for_each_arg_inline(inst, fix_def_arg, &x);
        if (inst->special) /* in register order (B3Regs are < 64: one word) */
            for (uint64_t m = inst->special->early_clobber.bits[0] | inst->special->late_clobber.bits[0];
                 m && hs->n; m &= m - 1)
                holds_forget_reg(hs, (B3Reg)__builtin_ctzll(m));
        if (is_narrow_spill_store(inst)) {
            holds_add(hs, (B3Reg)inst->args[0].base, inst->args[1].u.slot);
        } else if (is_spill_move(inst)) {
            const AirArg *a0 = &inst->args[0], *a1 = &inst->args[1];
            if (a0->kind == AirArg_Tmp && is_spill_ref(a1))
                holds_add(hs, (B3Reg)a0->base, a1->u.slot);
            else if (is_spill_ref(a0) && a1->kind == AirArg_Tmp)
                holds_add(hs, (B3Reg)a1->base, a0->u.slot);
            else if (a0->kind == AirArg_Tmp && a1->kind == AirArg_Tmp)
                /* A copy: the destination now holds whatever the source held. */
                for (uint32_t i = 0, n = hs->n; i < n; i++)
                    if (hs->h[i].reg == a0->base && a0->base != a1->base)
                        holds_add(hs, (B3Reg)a1->base, hs->h[i].slot);
        } else if (!inst->special && inst->nargs == 2 && inst->args[0].kind == AirArg_Tmp &&
                   inst->args[1].kind == AirArg_Tmp && inst->args[0].base != inst->args[1].base &&
                   (inst->opcode == Air_Move32 || inst->opcode == Air_MoveFloat)) {
            /* A narrow copy carries what its source held of narrow slots. */
            for (uint32_t i = 0, n = hs->n; i < n; i++)
                if (hs->h[i].reg == inst->args[0].base && hs->h[i].slot->narrow)
                    holds_add(hs, (B3Reg)inst->args[1].base, hs->h[i].slot);
        }
        b->insts[out++] = *inst;
    }
    b->ninsts = out;
}

void air_fix_obvious_spills(AirCode *c, const uint8_t *blocks) {
    HoldSet hs;
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        if (blocks && !blocks[bi])
            continue;
        hs.n = 0;
        fix_block(c, c->blocks[bi], &hs);
    }
}

/* The phase: the whole procedure, carrying facts across edges. */
static void fix_everywhere(AirCode *c) {
    uint32_t n = c->nblocks;
    air_compute_preds(c);
    /* Each block's facts at its end, kept while a later block may start from them. */
    uint32_t *first = b3_xmalloc(PHASE, (n + 1) * sizeof(uint32_t)),
             *count = b3_xcalloc(PHASE, n, sizeof(uint32_t));
    Holds *pool = NULL;
    uint32_t npool = 0, cap = 0;
    HoldSet hs;
    for (uint32_t bi = 0; bi < n; bi++) {
        AirBlock *b = c->blocks[bi];
        hs.n = 0;
        bool all_before = b->npreds > 0;
        for (uint32_t p = 0; p < b->npreds && all_before; p++)
            all_before = b->preds[p]->index < bi;
        if (all_before) {
            const AirBlock *p0 = b->preds[0];
            for (uint32_t i = 0; i < count[p0->index]; i++) {
                Holds h = pool[first[p0->index] + i];
                bool everywhere = true;
                for (uint32_t p = 1; p < b->npreds && everywhere; p++) {
                    uint32_t pi = b->preds[p]->index;
                    everywhere = false;
                    for (uint32_t j = 0; j < count[pi] && !everywhere; j++)
                        everywhere = pool[first[pi] + j].reg == h.reg && pool[first[pi] + j].slot == h.slot;
                }
                if (everywhere)
                    hs.h[hs.n++] = h;
            }
        }
        fix_block(c, b, &hs);
        if (npool + hs.n > cap) {
            cap = 2 * (npool + hs.n) + 64;
            pool = b3_xrealloc(PHASE, pool, cap * sizeof(Holds));
        }
        first[bi] = npool;
        count[bi] = hs.n;
        if (hs.n) /* pool may still be NULL */
            memcpy(pool + npool, hs.h, hs.n * sizeof(Holds));
        npool += hs.n;
    }
    free(pool);
    free(first);
    free(count);
}

/* ---- spill stores that the same block overwrites before reading ---- */

typedef struct {
    uint32_t *dead; /* per slot index: == stamp when the slot's value is overwritten before any read */
    uint32_t stamp;
} DeadCtx;

static void dead_use_arg(void *vctx, AirInst *inst, AirArg *arg, AirRole role, AirBank bank, AirWidth width) {
    (void)inst;
    (void)bank;
    (void)width;
    DeadCtx *x = vctx;
    if (arg->kind == AirArg_Stack && arg->u.slot && (air_role_is_use(role) || role == AirRole_UseAddr))
        x->dead[arg->u.slot->index] = 0;
}

void air_remove_dead_spill_stores(AirCode *c, const uint8_t *blocks) {
    if (!c->nslots)
        return;
    DeadCtx x = {b3_xcalloc(PHASE, c->nslots, sizeof(uint32_t)), 0};
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        if (blocks && !blocks[bi])
            continue;
        AirBlock *b = c->blocks[bi];
        x.stamp++;
        bool removed = false;
        for (uint32_t ii = b->ninsts; ii-- > 0;) {
            AirInst *inst = &b->insts[ii];
            /* A full store kills what the slot held; a narrow one only dies. */
            bool full_store =
                is_spill_move(inst) && inst->args[0].kind == AirArg_Tmp && is_spill_ref(&inst->args[1]);
            if ((full_store || is_narrow_spill_store(inst)) &&
                x.dead[inst->args[1].u.slot->index] == x.stamp) {
                inst->opcode = Air_Nop;
                inst->nargs = 0;
                removed = true;
                continue;
            }
            if (full_store)
                x.dead[inst->args[1].u.slot->index] = x.stamp;
            air_for_each_arg_inline(inst, dead_use_arg, &x);
        }
        if (!removed)
            continue;
        uint32_t out = 0;
        for (uint32_t ii = 0; ii < b->ninsts; ii++)
            if (b->insts[ii].opcode != Air_Nop || b->insts[ii].nargs)
                b->insts[out++] = b->insts[ii];
        b->ninsts = out;
    }
    free(x.dead);
}

void air_fix_obvious_spills_phase(AirCode *c) {
    fix_everywhere(c);
    air_remove_dead_spill_stores(c, NULL);
}
