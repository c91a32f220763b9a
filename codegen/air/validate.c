/* Air invariants: block structure, valid forms on the target, tmp banks,
 * stack slot ownership.  Any violation is an internal error naming the phase. */
#include <stdio.h>

#include "codegen/air/phases.h"
#include "ir/ice.h"

typedef struct {
    AirCode *c;
    const char *phase;
    const AirBlock *b;
    uint32_t ii;
} VCtx;

#define FAIL(x, ...)                                                                           \
    do {                                                                                       \
        char msg_[256];                                                                        \
        snprintf(msg_, sizeof msg_, __VA_ARGS__);                                              \
        b3_internal_error_at((x)->phase, (x)->b->insts[(x)->ii].origin,                        \
                             "invalid Air in BB#%u, inst %u (%s): %s", (x)->b->index, (x)->ii, \
                             air_opcode_names[(x)->b->insts[(x)->ii].opcode], msg_);           \
    } while (0)

static void check_tmp(VCtx *x, AirTmp t, AirBank bank, const char *what) {
    if (t == AIR_NO_TMP)
        FAIL(x, "%s has no tmp", what);
    if (air_tmp_is_reg(t)) {
        if (!b3_reg_valid(x->c->target, (B3Reg)t))
            FAIL(x, "%s names register %u, which %s does not have", what, t, b3_target_name(x->c->target));
    } else if (t - AIR_FIRST_VTMP >= x->c->ntmps) {
        FAIL(x, "%s names %%tmp%u, but the code has %u tmps", what, t - AIR_FIRST_VTMP, x->c->ntmps);
    }
    if (air_tmp_bank(x->c, t) != bank)
        FAIL(x, "%s is a %s tmp where a %s one is expected", what,
             air_tmp_bank(x->c, t) == AirGP ? "GP" : "FP", bank == AirGP ? "GP" : "FP");
}

static void check_arg(void *vctx, AirInst *inst, AirArg *a, AirRole role, AirBank bank, AirWidth width) {
    (void)inst;
    (void)width;
    VCtx *x = vctx;
    switch (a->kind) {
    case AirArg_Tmp:
        check_tmp(x, a->base, bank, "a Tmp arg");
        break;
    case AirArg_Addr:
        check_tmp(x, a->base, AirGP, "an address base");
        break;
    case AirArg_Index:
        check_tmp(x, a->base, AirGP, "an address base");
        check_tmp(x, a->index, AirGP, "an address index");
        if (a->scale != 1 && a->scale != 2 && a->scale != 4 && a->scale != 8)
            FAIL(x, "index scale %u", a->scale);
        if (a->ext > AirExt_UXTW)
            FAIL(x, "index extension %u", a->ext);
        break;
    case AirArg_Stack: {
        const AirStackSlot *s = a->u.slot;
        if (!s || s->index >= x->c->nslots || x->c->slots[s->index] != s)
            FAIL(x, "a Stack arg points at a slot that is not this code's");
        break;
    }
    case AirArg_CallArg:
        if (a->value < 0 || (uint64_t)a->value >= x->c->call_arg_area)
            FAIL(x, "callArg(%lld) is outside the %u-byte call argument area", (long long)a->value,
                 x->c->call_arg_area);
        break;
    case AirArg_Sym:
        if (!a->u.sym)
            FAIL(x, "a Sym arg has no symbol");
        break;
    case AirArg_Imm:
    case AirArg_BigImm:
        if (air_role_is_def(role))
            FAIL(x, "an immediate is defined");
        break;
    default:
        break;
    }
}

/* The SUCCS column; a multi-way terminal (AIR_ANY) needs at least one. */
static uint32_t expected_succs(AirOpcode op, uint32_t have) {
    uint8_t n = air_op_info[op].succs;
    if (n != AIR_ANY)
        return n;
    return have ? have : 1;
}

void air_validate(AirCode *c, const char *phase) {
    if (c->nblocks == 0)
        b3_internal_error(phase, "invalid Air: no blocks");
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        if (b->index != bi)
            b3_internal_error(phase, "invalid Air: block %u has index %u", bi, b->index);
        if (b->ninsts == 0)
            b3_internal_error(phase, "invalid Air: BB#%u is empty", bi);
        VCtx x = {c, phase, b, 0};
        for (uint32_t ii = 0; ii < b->ninsts; ii++) {
            AirInst *inst = &b->insts[ii];
            x.ii = ii;
            if (inst->opcode >= AIR_NUM_OPCODES)
                b3_internal_error(phase, "invalid Air in BB#%u, inst %u: opcode %u", bi, ii, inst->opcode);
            bool term = air_is_terminal((AirOpcode)inst->opcode);
            if (term && ii + 1 != b->ninsts)
                FAIL(&x, "a terminal in the middle of the block");
            if (!term && ii + 1 == b->ninsts)
                FAIL(&x, "the block does not end with a terminal");
            if (inst->special) {
                if (inst->nargs && (!inst->special->roles || !inst->special->banks || !inst->special->widths))
                    FAIL(&x, "special without roles");
            } else if (inst->opcode == Air_Call || inst->opcode == Air_Patchpoint) {
                FAIL(&x, "no AirSpecial");
            } else if (!air_is_valid_form(c->target, (AirOpcode)inst->opcode, inst->nargs, inst->args)) {
                FAIL(&x, "not a valid form on %s", b3_target_name(c->target));
            }
            air_for_each_arg(c, inst, check_arg, &x);
        }
        AirOpcode last = (AirOpcode)b->insts[b->ninsts - 1].opcode;
        x.ii = b->ninsts - 1;
        /* EntrySwitch: one successor per entrypoint. */
        uint32_t want = last == Air_EntrySwitch
                            ? (c->proc && c->proc->nentrypoints ? c->proc->nentrypoints : 1)
                            : expected_succs(last, b->nsuccs);
        if (b->nsuccs != want)
            FAIL(&x, "%u successors, expected %u", b->nsuccs, want);
        for (uint32_t s = 0; s < b->nsuccs; s++) {
            const AirBlock *t = b->succs[s].block;
            if (!t || t->index >= c->nblocks || c->blocks[t->index] != t)
                FAIL(&x, "successor %u is not a block of this code", s);
        }
    }
    /* After air_lower_entry_switch: one entry block per entrypoint, none a jump target. */
    for (uint32_t k = 0; k < c->nentries; k++) {
        const AirBlock *e = c->entries[k];
        if (!e || e->index >= c->nblocks || c->blocks[e->index] != e)
            b3_internal_error(phase, "invalid Air: entry %u is not a block of this code", k);
        if (e->npreds)
            b3_internal_error(phase, "invalid Air: entry %u (BB#%u) has predecessors", k, e->index);
    }
}
