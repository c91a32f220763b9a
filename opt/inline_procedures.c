/* inline_procedures (-O2, first; beyond B3): a direct CCall of a small
 * procedure of the same module becomes a copy of that procedure's body.
 *
 * B3's clients inline before B3; an ahead-of-time compiler of B3 text has no
 * such client, and a small helper called in a hot loop (a C program's static
 * function) costs a call, the argument and result moves and the registers
 * the call clobbers.  The phase runs before promote_stack_slots and fix_ssa,
 * so the copy's Variables and stack slots are the caller's new ones and the
 * phases after it see one procedure.
 *
 * A call site is CCall(SymbolAddress(@f)) (offset 0, not variadic) where @f
 * is a procedure of the module other than the caller, not weak, with one entry, at
 * most MAX_CALLEE_VALUES values and none of what only means something in its
 * own frame or register state: a variadic procedure, FramePointer (stack arguments), an
 * ArgumentReg of a register the call does not fill, EntrySwitch, stackmap
 * values (Patchpoint, Check*: their constraints may name registers), the
 * pinned register's WasmAddress and WasmBoundsCheck (without them, pinned
 * registers only restrict allocation).  A callee that calls itself is left
 * alone (inlining would only unroll the recursion).  The result type must be
 * the CCall's (or the CCall Void), and one value (not Return(@a, @b)); a
 * CCall with `sret`, ByVal or Float128 children or `float128 = 1` is not
 * inlined (their memory and registers are the C convention's), nor a callee with a `returnsTwice` CCall (as LLVM: a
 * setjmp belongs to its caller's frame, and a longjmp to it after that
 * returned is undefined), nor a callee in a section of its own into a caller
 * outside it.
 *
 * The call's block is split after the CCall: the arguments go to the
 * copied ArgumentRegs, as the register holds them (an Int32 as ZExt32 and a
 * Float's bits likewise in the low half: C leaves the upper half undefined,
 * so the callee only Truncs it), each Return becomes a Set of a fresh
 * Variable and a Jump to the continuation, which starts with the Get that
 * replaces the CCall.  The callee itself is not changed (it may have other
 * callers, or its address may be taken).
 *
 * Growth is bounded: at most MAX_GROWTH values are added to one caller, and
 * only the call sites of the original caller are considered (the copies'
 * own calls are not inlined again in the same run), so the phase is linear
 * in the output.  A module's global procedures are inlined too: b3c treats
 * their definitions as final (no ELF symbol interposition), as clang does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/effects.h"
#include "ir/ice.h"
#include "ir/target.h"
#include "ir/x87.h"
#include "opt/phases.h"
#include "util/alloc.h"

#define PHASE "inline_procedures"

enum { MAX_CALLEE_VALUES = 120, MAX_GROWTH = 1200, MAX_ARG_REGS = 64 };

/* The procedure a CCall calls directly, or NULL. */
static B3Proc *direct_callee(const B3Value *call) {
    if (call->opcode != B3_CCall || call->m.ccall.variadic >= 0 || call->m.ccall.extra || call->nkids < 1)
        return NULL;
    const B3Value *f = call->kids[0];
    if (f->opcode != B3_SymbolAddress || f->m.symbol.offset != 0)
        return NULL;
    const B3Symbol *s = f->m.symbol.sym;
    if (!s || s->kind != B3Sym_Proc || !s->defined || s->weak)
        return NULL; /* a weak definition may be replaced by another module's */
    return s->def.proc;
}

static uint32_t count_values(const B3Proc *p) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->nblocks; i++)
        n += p->blocks[i]->nvalues;
    return n;
}

/* What each argument register holds at the call: args[reg] is the CCall's
 * child (NULL: not filled by the call). */
static void map_arguments(B3Target t, const B3Value *call, B3Value **args) {
    memset(args, 0, MAX_ARG_REGS * sizeof *args);
    unsigned ngpr = 0, nfpr = 0;
    for (uint32_t i = 1; i < call->nkids; i++) {
        B3Value *a = call->kids[i];
        if (b3_type_is_int(a->type)) {
            if (ngpr < b3_target_num_arg_gprs(t))
                args[b3_target_arg_gpr(t, ngpr)] = a;
            ngpr++;
        } else {
            if (nfpr < b3_target_num_arg_fprs(t))
                args[b3_target_arg_fpr(t, nfpr)] = a;
            nfpr++;
        }
    }
}

/* Whether the callee's body can be copied into a caller at this call. */
static bool can_inline(const B3Module *m, const B3Proc *caller, const B3Value *call, const B3Proc *callee,
                       B3Value **args) {
    if (callee == caller || callee->nentrypoints > 1 || !callee->nblocks)
        return false;
    if (callee->nentrypoints == 1 && callee->entrypoints[0] != callee->sym)
        return false;
    if (count_values(callee) > MAX_CALLEE_VALUES)
        return false;
    if (callee->variadic) /* its va_list reads the caller's own registers and stack arguments */
        return false;
    /* Code placed in a section of its own (hot/cold code, a set found
     * through __start_/__stop_ symbols) stays there. */
    const B3Symbol *cs = callee->sym, *rs = caller->sym;
    if (cs && cs->section &&
        (!rs || rs->section_len != cs->section_len || memcmp(rs->section, cs->section, cs->section_len)))
        return false;
    map_arguments(m->target, call, args);
    for (uint32_t i = 0; i < callee->nblocks; i++) {
        const B3Block *b = callee->blocks[i];
        for (uint32_t j = 0; j < b->nvalues; j++) {
            const B3Value *v = b->values[j];
            const B3OpInfo *op = b3_op(v->opcode);
            if (op->meta == B3M_STACKMAP || op->meta == B3M_BOUNDS)
                return false;
            switch (v->opcode) {
            case B3_FramePointer:
            case B3_EntrySwitch:
            case B3_AllocaDynamic: /* the caller's stack would grow at each call */
            case B3_StackSave:
            case B3_StackRestore:
            case B3_WasmAddress:
            case B3_ArgumentRegHigh: /* a Float128 pair parameter (its call has a Float128 child) */
                return false;
            case B3_X87: /* a `ret` leaves st(0) for its caller's `result` */
                if (b3_x87_info[v->m.x87].form == B3X87Form_Ret)
                    return false;
                break;
            case B3_ArgumentReg:
                if (v->m.reg >= MAX_ARG_REGS || !args[v->m.reg])
                    return false;
                break;
            case B3_CCall:
                if (direct_callee(v) == callee)
                    return false; /* recursive */
                if (b3_ccall_returns_twice(v))
                    return false; /* setjmp's frame is the callee's: a longjmp after it returns is undefined */
                break;
            case B3_Return:
                if (v->nkids > 1)
                    return false; /* several values: the call's SecondResult reads the second */
                if (v->nkids ? call->type != B3_Void && call->type != v->kids[0]->type
                             : call->type != B3_Void)
                    return false;
                break;
            default:
                break;
            }
        }
    }
    return true;
}

/* A name no Variable or slot of p has yet: "callee_K_name". */
static const char *fresh_name(B3Module *m, const B3Proc *p, const B3Proc *callee, unsigned k,
                              const char *name) {
    size_t len = callee->sym->name_len + strlen(name) + 32;
    char *buf = b3_xmalloc(PHASE, len);
    for (unsigned n = 0;; n++) {
        if (n)
            snprintf(buf, len, "%.*s_%u_%s_%u", (int)callee->sym->name_len, callee->sym->name, k, name, n);
        else
            snprintf(buf, len, "%.*s_%u_%s", (int)callee->sym->name_len, callee->sym->name, k, name);
        /* Symbol names written @"..." may hold any byte: keep identifier ones. */
        for (char *c = buf; *c; c++)
            if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
                  *c == '_'))
                *c = '_';
        bool taken = false;
        for (uint32_t i = 0; i < p->nvars && !taken; i++)
            taken = !strcmp(p->vars[i]->name, buf);
        for (uint32_t i = 0; i < p->nslots && !taken; i++)
            taken = !strcmp(p->slots[i]->name, buf);
        if (!taken)
            break;
    }
    char *kept = b3_arena_strndup(&m->arena, buf, strlen(buf));
    free(buf);
    return kept;
}

static B3Succ *succ_array(B3Module *m, uint32_t n) {
    return b3_arena_alloc(&m->arena, (n ? n : 1) * sizeof(B3Succ));
}

static B3Value *append_unary(B3Module *m, B3Proc *p, B3Block *b, B3Opcode op, B3Type type, B3Value *x) {
    B3Value *v = b3_value_new(m, p, op, type, 1, UINT32_MAX);
    v->kids[0] = x;
    v->loc = v->type_loc = x->loc;
    b3_block_append(m, b, v);
    return v;
}

/* Copies callee's body into p in place of the CCall `call`. */
static void inline_call(B3Module *m, B3Proc *p, B3Value *call, B3Proc *callee, B3Value **args, unsigned k) {
    B3Block *b = call->owner;
    uint32_t at = 0;
    while (b->values[at] != call)
        at++;
    uint32_t first_new = p->nblocks;

    /* The continuation: what followed the call, with b's successors. */
    B3Block *cont = b3_block_new(m, p, UINT32_MAX);
    cont->frequency = b->frequency;
    cont->loc = b->loc;
    cont->succ_loc = b->succ_loc;
    cont->succs = b->succs;
    cont->nsuccs = b->nsuccs;
    B3Variable *result = NULL;
    if (call->type != B3_Void) {
        result = b3_variable_new(m, p, fresh_name(m, p, callee, k, "result"), call->type);
        result->loc = call->loc;
        call->opcode = B3_Get;
        call->nkids = 0;
        call->kflags = 0;
        call->kid_locs = NULL;
        call->m.var = result;
    } else {
        b3_value_replace_with_nop(call);
    }
    b3_block_append(m, cont, call);
    for (uint32_t i = at + 1; i < b->nvalues; i++)
        b3_block_append(m, cont, b->values[i]);
    b->nvalues = at;

    /* The arguments, as the callee's ArgumentRegs read them. */
    B3Value *regs[MAX_ARG_REGS] = {0};
    for (uint32_t r = 0; r < MAX_ARG_REGS; r++) {
        B3Value *a = args[r];
        if (!a)
            continue;
        if (a->type == B3_Float) /* its bits, in the low half */
            a = append_unary(m, p, b, B3_BitwiseCast, B3_Int32, a);
        if (a->type == B3_Int32)
            a = append_unary(m, p, b, B3_ZExt32, B3_Int64, a);
        if (b3_reg_is_fpr(r) && a->type == B3_Int64)
            a = append_unary(m, p, b, B3_BitwiseCast, B3_Double, a);
        regs[r] = a;
    }

    /* The callee's blocks, Variables and slots. */
    B3Block **bmap = b3_xcalloc(PHASE, callee->nblocks, sizeof *bmap);
    for (uint32_t i = 0; i < callee->nblocks; i++) {
        bmap[i] = b3_block_new(m, p, UINT32_MAX);
        bmap[i]->frequency = b->frequency * callee->blocks[i]->frequency;
        bmap[i]->loc = callee->blocks[i]->loc;
        bmap[i]->succ_loc = callee->blocks[i]->succ_loc;
    }
    B3Variable **vmap = b3_xcalloc(PHASE, callee->nvars, sizeof *vmap);
    for (uint32_t i = 0; i < callee->nvars; i++) {
        const B3Variable *v = callee->vars[i];
        vmap[i] = b3_variable_new(m, p, fresh_name(m, p, callee, k, v->name), v->type);
        vmap[i]->loc = v->loc;
    }
    B3StackSlot **smap = b3_xcalloc(PHASE, callee->nslots, sizeof *smap);
    for (uint32_t i = 0; i < callee->nslots; i++) {
        const B3StackSlot *s = callee->slots[i];
        smap[i] = b3_slot_new(m, p, fresh_name(m, p, callee, k, s->name), s->size);
        smap[i]->align = s->align;
        smap[i]->has_align = s->has_align;
        smap[i]->loc = s->loc;
    }

    /* Values: first the copies (ArgumentRegs map to the arguments), then
     * their children and Upsilon targets through the map. */
    uint32_t n = b3_proc_number_values(callee);
    B3Value **map = b3_xcalloc(PHASE, n, sizeof *map);
    for (uint32_t i = 0; i < callee->nblocks; i++) {
        const B3Block *cb = callee->blocks[i];
        for (uint32_t j = 0; j < cb->nvalues; j++) {
            const B3Value *v = cb->values[j];
            if (v->opcode == B3_ArgumentReg) {
                map[v->scratch] = regs[v->m.reg];
                continue;
            }
            if (v->opcode == B3_Return) {
                if (v->nkids && result) {
                    B3Value *set = b3_value_new(m, p, B3_Set, B3_Void, 1, UINT32_MAX);
                    set->loc = set->type_loc = v->loc;
                    set->m.var = result;
                    map[v->scratch] = set;
                    b3_block_append(m, bmap[i], set);
                }
                B3Value *jump = b3_value_new(m, p, B3_Jump, B3_Void, 0, UINT32_MAX);
                jump->loc = jump->type_loc = v->loc;
                b3_block_append(m, bmap[i], jump);
                bmap[i]->succs = succ_array(m, 1);
                bmap[i]->succs[0] = (B3Succ){cont, B3Freq_Normal};
                bmap[i]->nsuccs = 1;
                continue;
            }
            B3Value *c = b3_value_new(m, p, (B3Opcode)v->opcode, (B3Type)v->type, v->nkids, UINT32_MAX);
            c->kflags = v->kflags;
            c->loc = v->loc;
            c->type_loc = v->type_loc;
            if (v->kid_locs && v->nkids) { /* the callee's own, freed with its IR */
                c->kid_locs = b3_arena_alloc(&m->arena, v->nkids * sizeof(B3Loc));
                memcpy(c->kid_locs, v->kid_locs, v->nkids * sizeof(B3Loc));
            }
            c->m = v->m;
            switch (b3_op(v->opcode)->meta) {
            case B3M_VARIABLE:
                c->m.var = vmap[v->m.var->index];
                break;
            case B3M_SLOT:
                c->m.slot = smap[v->m.slot->index];
                break;
            case B3M_SWITCH:
                c->m.sw.cases =
                    b3_arena_alloc(&m->arena, (v->m.sw.ncases ? v->m.sw.ncases : 1) * sizeof(int64_t));
                memcpy(c->m.sw.cases, v->m.sw.cases, v->m.sw.ncases * sizeof(int64_t));
                break;
            default:
                break;
            }
            map[v->scratch] = c;
            b3_block_append(m, bmap[i], c);
        }
        if (!bmap[i]->nsuccs && cb->nsuccs) {
            bmap[i]->succs = succ_array(m, cb->nsuccs);
            bmap[i]->nsuccs = cb->nsuccs;
            for (uint32_t s = 0; s < cb->nsuccs; s++)
                bmap[i]->succs[s] = (B3Succ){bmap[cb->succs[s].block->pos], cb->succs[s].freq};
        }
    }
    for (uint32_t i = 0; i < callee->nblocks; i++) {
        const B3Block *cb = callee->blocks[i];
        for (uint32_t j = 0; j < cb->nvalues; j++) {
            const B3Value *v = cb->values[j];
            B3Value *c = map[v->scratch];
            if (v->opcode == B3_ArgumentReg || !c)
                continue;
            for (uint32_t x = 0; x < v->nkids; x++)
                c->kids[x] = map[v->kids[x]->scratch];
            if (v->opcode == B3_Upsilon)
                c->m.phi = map[v->m.phi->scratch];
        }
    }

    /* b jumps to the copy of the callee's root. */
    B3Value *jump = b3_value_new(m, p, B3_Jump, B3_Void, 0, UINT32_MAX);
    jump->loc = jump->type_loc = call->loc;
    b3_block_append(m, b, jump);
    b->succs = succ_array(m, 1);
    b->succs[0] = (B3Succ){bmap[0], B3Freq_Normal};
    b->nsuccs = 1;

    /* Lay the new blocks out right after b: the copy, then the continuation. */
    uint32_t nnew = p->nblocks - first_new;
    B3Block **moved = b3_xcalloc(PHASE, nnew, sizeof *moved);
    for (uint32_t i = 0; i < nnew - 1; i++)
        moved[i] = p->blocks[first_new + 1 + i];
    moved[nnew - 1] = cont;
    memmove(&p->blocks[b->pos + 1 + nnew], &p->blocks[b->pos + 1],
            (first_new - b->pos - 1) * sizeof *p->blocks);
    memcpy(&p->blocks[b->pos + 1], moved, nnew * sizeof *moved);
    for (uint32_t i = b->pos + 1; i < p->nblocks; i++)
        p->blocks[i]->pos = i;

    free(moved);
    free(map);
    free(smap);
    free(vmap);
    free(bmap);
}

/* Value j of b is a call site: a direct call whose further result registers
 * nothing reads (a SecondResult or Result would read the callee's). */
static bool is_site(const B3Block *b, uint32_t j) {
    if (!direct_callee(b->values[j]))
        return false;
    if (b3_call_results_end(b, j) != j + 1)
        return false;
    /* Nor one whose long double result an X87 `result` takes from st(0). */
    const B3Value *n = b3_x87_partner(b, j, 1);
    return !n || n->opcode != B3_X87 || b3_x87_info[n->m.x87].form != B3X87Form_Result;
}

bool b3_inline_procedures(B3Module *m, B3Proc *p) {
    uint32_t nsites = 0;
    for (uint32_t i = 0; i < p->nblocks; i++)
        for (uint32_t j = 0; j < p->blocks[i]->nvalues; j++)
            nsites += is_site(p->blocks[i], j);
    if (!nsites)
        return false;
    B3Value **sites = b3_xcalloc(PHASE, nsites, sizeof *sites);
    nsites = 0;
    for (uint32_t i = 0; i < p->nblocks; i++)
        for (uint32_t j = 0; j < p->blocks[i]->nvalues; j++)
            if (is_site(p->blocks[i], j))
                sites[nsites++] = p->blocks[i]->values[j];

    B3Value *args[MAX_ARG_REGS];
    uint32_t growth = 0;
    unsigned done = 0;
    for (uint32_t i = 0; i < nsites; i++) {
        B3Proc *callee = direct_callee(sites[i]);
        if (!can_inline(m, p, sites[i], callee, args))
            continue;
        uint32_t size = count_values(callee);
        if (growth + size > MAX_GROWTH)
            continue;
        growth += size;
        inline_call(m, p, sites[i], callee, args, done++);
    }
    free(sites);
    if (!done)
        return false;
    b3_proc_remove_nops(m, p);
    b3_proc_compute_preds(m, p);
    b3_proc_remove_unreachable(m, p);
    return true;
}
