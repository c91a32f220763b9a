/* Readable Air (--emit=air), in the style of the Air reference's examples:
 *
 *   BB#0: ; frequency = 1
 *     Predecessors: #2
 *       Move $42, %tmp0
 *       Add32 8(%rbp), %rcx
 *       Branch32 LessThan, %rdi, $10
 *     Successors: #1, #2
 */
#include <inttypes.h>

#include "codegen/air/air.h"

static const char *rel_cond_name(unsigned c) {
    static const char *const names[AirCond_NUM] = {
        [AirCond_Equal] = "Equal",
        [AirCond_NotEqual] = "NotEqual",
        [AirCond_Above] = "Above",
        [AirCond_BelowOrEqual] = "BelowOrEqual",
        [AirCond_AboveOrEqual] = "AboveOrEqual",
        [AirCond_Below] = "Below",
        [AirCond_GreaterThan] = "GreaterThan",
        [AirCond_LessThanOrEqual] = "LessThanOrEqual",
        [AirCond_GreaterThanOrEqual] = "GreaterThanOrEqual",
        [AirCond_LessThan] = "LessThan",
        [AirCond_Overflow] = "Overflow",
        [AirCond_NoOverflow] = "NoOverflow",
        [AirCond_Signed] = "Signed",
        [AirCond_PositiveOrZero] = "PositiveOrZero",
    };
    return c < AirCond_NUM ? names[c] : "?";
}

static const char *res_cond_name(unsigned c) {
    if (c == AirCond_Zero)
        return "Zero";
    if (c == AirCond_NonZero)
        return "NonZero";
    return rel_cond_name(c);
}

static const char *double_cond_name(unsigned c) {
    static const char *const names[] = {"DoubleEqual",
                                        "DoubleNotEqual",
                                        "DoubleGreaterThan",
                                        "DoubleGreaterThanOrEqual",
                                        "DoubleLessThan",
                                        "DoubleLessThanOrEqual",
                                        "DoubleEqualOrUnordered",
                                        "DoubleNotEqualOrUnordered",
                                        "DoubleGreaterThanOrUnordered",
                                        "DoubleGreaterThanOrEqualOrUnordered",
                                        "DoubleLessThanOrUnordered",
                                        "DoubleLessThanOrEqualOrUnordered"};
    return c < sizeof names / sizeof names[0] ? names[c] : "?";
}

static void print_tmp(const AirCode *c, AirTmp t, FILE *out) {
    if (t == AIR_NO_TMP)
        fputs("%<none>", out);
    else if (air_tmp_is_reg(t))
        fprintf(out, "%%%s", b3_reg_name(c->target, (B3Reg)t));
    else if (t - AIR_FIRST_VTMP < c->ntmps && air_tmp_bank(c, t) == AirFP)
        fprintf(out, "%%ftmp%u", t - AIR_FIRST_VTMP);
    else
        fprintf(out, "%%tmp%u", t - AIR_FIRST_VTMP);
}

static void print_offset(int64_t v, FILE *out) {
    if (v)
        fprintf(out, "%" PRId64, v);
}

static void print_sym_name(const B3Symbol *s, FILE *out) {
    if (!s) {
        fputs("<null>", out);
        return;
    }
    fwrite(s->name, 1, s->name_len, out);
}

static void print_arg(const AirCode *c, const AirArg *a, FILE *out) {
    switch (a->kind) {
    case AirArg_None:
        fputs("<none>", out);
        break;
    case AirArg_Tmp:
        print_tmp(c, a->base, out);
        break;
    case AirArg_Imm:
        fprintf(out, "$%" PRId64, a->value);
        break;
    case AirArg_BigImm:
        fprintf(out, "$0x%" PRIx64, (uint64_t)a->value);
        break;
    case AirArg_Addr:
        print_offset(a->value, out);
        fputc('(', out);
        print_tmp(c, a->base, out);
        fputc(')', out);
        break;
    case AirArg_Index:
        print_offset(a->value, out);
        fputc('(', out);
        print_tmp(c, a->base, out);
        fputc(',', out);
        print_tmp(c, a->index, out);
        fprintf(out,
                a->ext == AirExt_SXTW   ? ",%u,sxtw)"
                : a->ext == AirExt_UXTW ? ",%u,uxtw)"
                                        : ",%u)",
                a->scale);
        break;
    case AirArg_Stack:
        if (a->u.slot)
            fprintf(out, "stack%u", a->u.slot->index);
        else
            fputs("stack?", out);
        if (a->value)
            fprintf(out, "%+" PRId64, a->value);
        break;
    case AirArg_CallArg:
        fprintf(out, "callArg(%" PRId64 ")", a->value);
        break;
    case AirArg_Sym:
        print_sym_name(a->u.sym, out);
        if (a->got)
            fputs("@GOTPCREL", out);
        if (a->value)
            fprintf(out, "%+" PRId64, a->value);
        fputs("(%rip)", out);
        break;
    case AirArg_RelCond:
        fputs(rel_cond_name(a->cond), out);
        break;
    case AirArg_ResCond:
        fputs(res_cond_name(a->cond), out);
        break;
    case AirArg_DoubleCond:
        fputs(double_cond_name(a->cond), out);
        break;
    case AirArg_Special:
        fputs("<special>", out);
        break;
    default:
        fprintf(out, "<kind %u>", a->kind);
        break;
    }
}

static void print_regset(const AirCode *c, const B3RegSet *s, FILE *out) {
    bool first = true;
    for (unsigned r = 0; r < 64; r++)
        if (b3_regset_has(s, (B3Reg)r)) {
            fprintf(out, "%s%%%s", first ? "" : ", ", b3_reg_name(c->target, (B3Reg)r));
            first = false;
        }
    if (first)
        fputs("none", out);
}

static bool regset_empty(const B3RegSet *s) { return !s->bits[0] && !s->bits[1]; }

static void print_inst(const AirCode *c, const AirInst *i, FILE *out) {
    fprintf(out, "    %s", i->opcode < AIR_NUM_OPCODES ? air_opcode_names[i->opcode] : "<bad opcode>");
    if (i->flags & AirInstFlag_Traps)
        fputs("<Traps>", out);
    for (uint32_t k = 0; k < i->nargs; k++) {
        fputs(k ? ", " : " ", out);
        print_arg(c, &i->args[k], out);
    }
    if (i->special) {
        if (!regset_empty(&i->special->early_clobber)) {
            fputs(" ; early clobbers ", out);
            print_regset(c, &i->special->early_clobber, out);
        }
        if (!regset_empty(&i->special->late_clobber)) {
            fputs(" ; late clobbers ", out);
            print_regset(c, &i->special->late_clobber, out);
        }
    }
    fputc('\n', out);
}

void air_print_code(const AirCode *c, FILE *out) {
    fputs("Air for ", out);
    if (c->proc && c->proc->sym)
        print_sym_name(c->proc->sym, out);
    else
        fputs("<anonymous>", out);
    fputs(":\n", out);
    for (uint32_t i = 0; i < c->nslots; i++) {
        const AirStackSlot *s = c->slots[i];
        fprintf(out, "  stack%u: size %u, align %u%s%s", s->index, s->size, s->align,
                s->spill ? ", spill" : "", s->narrow ? ", narrow" : "");
        if (s->b3 && s->b3->name)
            fprintf(out, ", %s", s->b3->name);
        if (s->offset)
            fprintf(out, ", at %" PRId64 "(fp)", s->offset);
        fputc('\n', out);
    }
    if (c->frame_size || c->call_arg_area)
        fprintf(out, "  frame size %" PRIu64 ", call arg area %u%s\n", c->frame_size, c->call_arg_area,
                c->omit_frame_pointer ? ", no frame pointer" : "");
    if (!regset_empty(&c->used_callee_saves)) {
        fputs("  callee saves: ", out);
        print_regset(c, &c->used_callee_saves, out);
        fputc('\n', out);
    }
    if (!regset_empty(&c->pinned)) {
        fputs("  pinned: ", out);
        print_regset(c, &c->pinned, out);
        fputc('\n', out);
    }
    if (c->nentries) {
        fputs("  entries:", out);
        for (uint32_t k = 0; k < c->nentries; k++)
            fprintf(out, "%s #%u", k ? "," : "", c->entries[k]->index);
        fputc('\n', out);
    }
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        const AirBlock *b = c->blocks[bi];
        fprintf(out, "BB#%u: ; frequency = %g%s\n", b->index, b->frequency,
                b->loop_header ? " ; loop header" : "");
        if (b->npreds) {
            fputs("  Predecessors:", out);
            for (uint32_t p = 0; p < b->npreds; p++)
                fprintf(out, "%s #%u", p ? "," : "", b->preds[p]->index);
            fputc('\n', out);
        }
        for (uint32_t ii = 0; ii < b->ninsts; ii++)
            print_inst(c, &b->insts[ii], out);
        if (b->nsuccs) {
            fputs("  Successors:", out);
            for (uint32_t s = 0; s < b->nsuccs; s++)
                fprintf(out, "%s #%u%s", s ? "," : "", b->succs[s].block->index,
                        b->succs[s].freq == B3Freq_Rare ? " (rare)" : "");
            fputc('\n', out);
        }
    }
}
