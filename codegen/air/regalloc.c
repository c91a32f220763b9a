/* Pieces shared by the register allocators (codegen/air/regalloc.h). */
#include "codegen/air/regalloc.h"

#include <stdlib.h>
#include <string.h>

#include "codegen/air/stackmaps.h"

#define PHASE "air register allocation"

/* ---- registers of a bank ---- */

void air_reg_file(const AirCode *c, AirBank bank, AirRegFile *rf) {
    static const B3Reg x86_gp[] = {B3X_rax, B3X_rcx, B3X_rdx, B3X_rsi, B3X_rdi, B3X_r8,  B3X_r9,
                                   B3X_r10, B3X_r11, B3X_rbx, B3X_r12, B3X_r13, B3X_r14, B3X_r15};
    B3Reg cand[32];
    uint32_t ncand = 0;
    if (c->target.arch == B3Arch_X86_64) {
        if (bank == AirGP) {
            for (uint32_t i = 0; i < sizeof x86_gp / sizeof x86_gp[0]; i++)
                cand[ncand++] = x86_gp[i];
        } else {
            for (uint32_t i = 0; i < 16; i++)
                cand[ncand++] = (B3Reg)(B3_FPR_BASE + i);
        }
    } else if (bank == AirGP) {
        /* arm64: x0-x15 caller-saved, then x19-x28; x16/x17 (ip0/ip1), x18 (platform), fp, lr, sp are reserved. */
        for (uint32_t i = 0; i < 16; i++)
            cand[ncand++] = (B3Reg)i;
        for (uint32_t i = 19; i <= 28; i++)
            cand[ncand++] = (B3Reg)i;
    } else {
        for (uint32_t i = 0; i < 8; i++)
            cand[ncand++] = (B3Reg)(B3_FPR_BASE + i);
        for (uint32_t i = 16; i < 32; i++)
            cand[ncand++] = (B3Reg)(B3_FPR_BASE + i);
        for (uint32_t i = 8; i < 16; i++)
            cand[ncand++] = (B3Reg)(B3_FPR_BASE + i);
    }
    memset(rf->rank, -1, sizeof rf->rank);
    rf->k = 0;
    for (uint32_t i = 0; i < ncand; i++) {
        if (b3_regset_has(&c->pinned, cand[i]))
            continue;
        rf->rank[cand[i]] = (int8_t)rf->k;
        rf->order[rf->k++] = cand[i];
    }
    if (rf->k == 0)
        b3_internal_error(PHASE, "no allocatable %s registers", bank == AirGP ? "GP" : "FP");
}

/* ---- spill-to-stack form checks ---- */

static bool role_admits_stack(AirRole role) {
    switch (role) {
    case AirRole_Use:
    case AirRole_ColdUse:
    case AirRole_Def:
    case AirRole_ZDef:
    case AirRole_UseDef:
    case AirRole_UseZDef:
        return true;
    default:
        return false;
    }
}

/* Would replacing this Tmp arg by a spill slot be valid and mean the same thing? */
bool air_admits_stack(const AirCode *c, AirInst *inst, AirArg *arg, AirRole role, AirWidth width,
                      const uint8_t *use_width) {
    if (inst->special) /* a patchpoint's cold uses may stay in memory (codegen/air/stackmaps.h) */
        return air_special_admits_stack(inst, role, width);
    if (!role_admits_stack(role) || width > AirW64)
        return false;
    AirTmp t = arg->base;
    /* A zero-extending def writes only `width` bits to memory: fine only if nobody reads more. */
    if ((role == AirRole_ZDef || role == AirRole_UseZDef) && width < AirW64 &&
        (air_tmp_is_reg(t) || !use_width || use_width[t] > (uint8_t)(width + 1)))
        return false;
    AirArg saved = *arg;
    *arg = air_stack(NULL, 0);
    bool ok = air_is_valid_form(c->target, (AirOpcode)inst->opcode, inst->nargs, inst->args);
    *arg = saved;
    return ok;
}

/* ---- callee saves ---- */

typedef struct {
    const AirCode *c;
    B3RegSet *set;
} CalleeCtx;

void air_note_callee_save(const AirCode *c, B3RegSet *set, B3Reg r) {
    if (!b3_target_is_callee_saved(c->target, r) || b3_regset_has(&c->pinned, r))
        return;
    /* The frame pointer is saved by the prologue itself. */
    if ((c->target.arch == B3Arch_X86_64 && r == B3X_rbp) || (c->target.arch != B3Arch_X86_64 && r == B3A_fp))
        return;
    b3_regset_add(set, r);
}

static void callee_tmp(void *vctx, AirInst *inst, AirTmp *tmp, AirRole role, AirBank bank, AirWidth width) {
    (void)inst;
    (void)bank;
    (void)width;
    CalleeCtx *x = vctx;
    (void)role;
    /* Any mention counts: saving a register that is only read costs little and is always safe. */
    if (air_tmp_is_reg(*tmp))
        air_note_callee_save(x->c, x->set, (B3Reg)*tmp);
}

void air_compute_used_callee_saves(AirCode *c) {
    B3RegSet set = {{0, 0}};
    CalleeCtx x = {c, &set};
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        for (uint32_t ii = 0; ii < b->ninsts; ii++) {
            AirInst *inst = &b->insts[ii];
            air_for_each_tmp(c, inst, callee_tmp, &x);
            if (inst->special)
                for (unsigned r = 0; r < 64; r++)
                    if (b3_regset_has(&inst->special->early_clobber, (B3Reg)r) ||
                        b3_regset_has(&inst->special->late_clobber, (B3Reg)r))
                        air_note_callee_save(c, &set, (B3Reg)r);
        }
    }
    c->used_callee_saves = set;
}

/* ---- obvious spills (like Air's FixObviousSpills, within a block) ----
 * Remembers which register holds the same 64 bits as which spill slot; a
 * reload of such a slot becomes nothing or a register copy, and a read of
 * the slot as an operand reads the register instead.  Only spill slots are
 * tracked: nothing takes their address, so only Stack args touch them. */

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

static void holds_add(HoldSet *s, B3Reg r, const AirStackSlot *slot) {
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

/* Move/MoveDouble between a register and a spill slot (64 bits both ways). */
static bool is_spill_move(const AirInst *i) {
    return !i->special && i->nargs == 2 && (i->opcode == Air_Move || i->opcode == Air_MoveDouble);
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

void air_fix_obvious_spills(AirCode *c, const uint8_t *blocks) {
    HoldSet hs;
    FixCtx x = {c, &hs};
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        if (blocks && !blocks[bi])
            continue;
        AirBlock *b = c->blocks[bi];
        hs.n = 0;
        uint32_t out = 0;
        for (uint32_t ii = 0; ii < b->ninsts; ii++) {
            AirInst *inst = &b->insts[ii];
            if (is_spill_move(inst) && is_spill_ref(&inst->args[0]) && inst->args[1].kind == AirArg_Tmp) {
                AirTmp dst = inst->args[1].base;
                int r = holds_find(&hs, inst->args[0].u.slot, air_tmp_bank(c, dst));
                if (r == (int)dst)
                    continue; /* the register already holds the slot's value */
                if (r >= 0)
                    inst->args[0] = air_tmp((AirTmp)r);
            } else if (!inst->special) {
                air_for_each_arg(c, inst, fix_use_arg, &x);
            }
            air_for_each_arg(c, inst, fix_def_arg, &x);
            if (inst->special)
                for (unsigned r = 0; r < 64; r++)
                    if (b3_regset_has(&inst->special->early_clobber, (B3Reg)r) ||
                        b3_regset_has(&inst->special->late_clobber, (B3Reg)r))
                        holds_forget_reg(&hs, (B3Reg)r);
            if (is_spill_move(inst)) {
                const AirArg *a0 = &inst->args[0], *a1 = &inst->args[1];
                if (a0->kind == AirArg_Tmp && is_spill_ref(a1))
                    holds_add(&hs, (B3Reg)a0->base, a1->u.slot);
                else if (is_spill_ref(a0) && a1->kind == AirArg_Tmp)
                    holds_add(&hs, (B3Reg)a1->base, a0->u.slot);
                else if (a0->kind == AirArg_Tmp && a1->kind == AirArg_Tmp)
                    /* A copy: the destination now holds whatever the source held. */
                    for (uint32_t i = 0, n = hs.n; i < n; i++)
                        if (hs.h[i].reg == a0->base && a0->base != a1->base)
                            holds_add(&hs, (B3Reg)a1->base, hs.h[i].slot);
            }
            b->insts[out++] = *inst;
        }
        b->ninsts = out;
    }
}

/* Removes stores to spill slots that the same block overwrites before reading. */
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
    DeadCtx x = {calloc(c->nslots, sizeof(uint32_t)), 0};
    if (!x.dead)
        b3_internal_error(PHASE, "out of memory");
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        if (blocks && !blocks[bi])
            continue;
        AirBlock *b = c->blocks[bi];
        x.stamp++;
        bool removed = false;
        for (uint32_t ii = b->ninsts; ii-- > 0;) {
            AirInst *inst = &b->insts[ii];
            bool full_store =
                is_spill_move(inst) && inst->args[0].kind == AirArg_Tmp && is_spill_ref(&inst->args[1]);
            if (full_store && x.dead[inst->args[1].u.slot->index] == x.stamp) {
                inst->opcode = Air_Nop;
                inst->nargs = 0;
                removed = true;
                continue;
            }
            if (full_store)
                x.dead[inst->args[1].u.slot->index] = x.stamp;
            air_for_each_arg(c, inst, dead_use_arg, &x);
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

void air_store_on_out_edges(AirCode *c, AirBlock *b, B3Value *origin, const AirInst *stores, uint32_t n) {
    for (uint32_t e = 0; e < b->nsuccs; e++) {
        AirBlock *nb = air_block_new(c);
        nb->frequency = b->frequency;
        for (uint32_t k = 0; k < n; k++)
            air_append(c, nb, (AirOpcode)stores[k].opcode, origin, 2, stores[k].args);
        air_append(c, nb, Air_Jump, origin, 0, NULL);
        nb->succs = b3_arena_alloc(c->arena, sizeof(AirSucc));
        nb->succs[0] = b->succs[e];
        nb->nsuccs = 1;
        b->succs[e].block = nb;
    }
}
