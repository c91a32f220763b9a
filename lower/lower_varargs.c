/* b3_lower_varargs: VaStart and the register save area of a variadic
 * procedure (docs/c-extensions.md, "Variadic procedures"), part of
 * lower_macros.
 *
 * A `variadic(G, F, S)` procedure that starts a va_list gets a stack slot,
 * its register save area, and the root block stores into it the argument
 * registers the named parameters leave free: ArgumentReg reads a register's
 * value at the procedure's entry wherever it stands, so the save is plain
 * B3, and the frame, the allocators and the unwind information need
 * nothing of their own.  Each VaStart becomes the stores of the target's
 * va_list fields (ir/target.h, B3VaListKind).
 *
 * The floating-point registers are saved whatever %al says (x86-64 callers
 * set it to the count of vector registers used, which gcc tests to skip
 * the saves): the stores are cheap, and a caller that leaves %al wrong
 * still works.  The low 8 bytes of each vector register are saved (an
 * ArgumentReg of an FPR is a Double): what C's double and float variadic
 * arguments use; where the target has Float128 pairs (AAPCS64's long
 * double in a q register) the high 8 bytes too (ArgumentRegHigh). */
#include <stdio.h>
#include <string.h>

#include "ir/insertion_set.h"
#include "ir/target.h"
#include "lower/lower.h"

/* The save area of each va_list kind: its size and where argument register
 * i of each bank is saved in it, as the va_list's fields expect. */
typedef struct {
    uint32_t size;
    uint32_t gpr_base, gpr_stride, fpr_base, fpr_stride;
} SaveArea;

static const SaveArea save_areas[] = {
    [B3VaList_SysV] = {176, 0, 8, 48, 16},     /* rdi..r9, then xmm0..xmm7 */
    [B3VaList_AAPCS64] = {192, 128, 8, 0, 16}, /* q0..q7 (__vr_top = +128), then x0..x7 (__gr_top = +192) */
    [B3VaList_StackPointer] = {0, 0, 0, 0, 0}, /* every variadic argument is on the stack */
};

typedef struct {
    B3InsertionSet ins;
    uint32_t at; /* insert before this index */
    const B3Value *origin;
} Emit;

static B3Value *emit(Emit *e, B3Opcode op, B3Type type, uint32_t nkids, B3Value *a, B3Value *b) {
    B3Value *v = b3_insertion_set_insert_new(&e->ins, e->at, op, type, nkids, e->origin);
    if (nkids > 0)
        v->kids[0] = a;
    if (nkids > 1)
        v->kids[1] = b;
    return v;
}

static void store(Emit *e, B3Value *x, B3Value *base, int32_t offset) {
    B3Value *s = emit(e, B3_Store, B3_Void, 2, x, base);
    s->m.mem.offset = offset;
}

static B3Value *int_const(Emit *e, B3Type type, int64_t value) {
    return b3_insertion_set_insert_int_const(&e->ins, e->at, e->origin, type, value);
}

static B3Value *plus(Emit *e, B3Value *a, int64_t k) {
    return emit(e, B3_Add, B3_Int64, 2, a, int_const(e, B3_Int64, k));
}

/* A slot name the procedure does not use yet. */
static const char *fresh_slot_name(B3Module *m, const B3Proc *p) {
    char buf[32];
    for (unsigned k = 0;; k++) {
        snprintf(buf, sizeof buf, k ? "va_save%u" : "va_save", k);
        bool used = false;
        for (uint32_t i = 0; i < p->nslots && !used; i++)
            used = !strcmp(p->slots[i]->name, buf);
        if (!used) {
            size_t n = strlen(buf) + 1;
            char *s = b3_arena_alloc(&m->arena, n);
            memcpy(s, buf, n);
            return s;
        }
    }
}

/* The root block's stores of the argument registers left to the variadic
 * arguments; returns the save area's slot. */
static B3StackSlot *save_registers(B3Module *m, B3Proc *p, const B3TargetDesc *d, const SaveArea *sa) {
    B3StackSlot *slot = b3_slot_new(m, p, fresh_slot_name(m, p), sa->size);
    B3Block *root = p->blocks[0];
    Emit e = {.at = 0, .origin = root->values[0]};
    b3_insertion_set_init(&e.ins, m, p);
    B3Value *base = emit(&e, B3_SlotBase, B3_Int64, 0, NULL, NULL);
    base->m.slot = slot;
    for (uint32_t i = p->va_gprs; i < d->narg_gprs; i++) {
        B3Value *r = emit(&e, B3_ArgumentReg, B3_Int64, 0, NULL, NULL);
        r->m.reg = d->arg_gprs[i];
        store(&e, r, base, (int32_t)(sa->gpr_base + i * sa->gpr_stride));
    }
    for (uint32_t i = p->va_fprs; i < d->narg_fprs; i++) {
        B3Value *r = emit(&e, B3_ArgumentReg, B3_Double, 0, NULL, NULL);
        r->m.reg = d->arg_fprs[i];
        store(&e, r, base, (int32_t)(sa->fpr_base + i * sa->fpr_stride));
        if (d->float128_pairs && sa->fpr_stride == 16) {
            B3Value *h = emit(&e, B3_ArgumentRegHigh, B3_Int64, 0, NULL, NULL);
            h->m.reg = d->arg_fprs[i];
            store(&e, h, base, (int32_t)(sa->fpr_base + i * sa->fpr_stride + 8));
        }
    }
    b3_insertion_set_execute(&e.ins, root);
    b3_insertion_set_free(&e.ins);
    return slot;
}

/* The stores that fill the va_list at `ap` (VaStart's child). */
static void fill_va_list(Emit *e, const B3Proc *p, const B3TargetDesc *d, const SaveArea *sa,
                         B3StackSlot *slot, B3Value *ap) {
    B3Value *fp = emit(e, B3_FramePointer, B3_Int64, 0, NULL, NULL);
    B3Value *stack = plus(e, fp, 16 + (int64_t)p->va_stack); /* the first variadic stack argument */
    B3Value *base = NULL;
    if (slot) {
        base = emit(e, B3_SlotBase, B3_Int64, 0, NULL, NULL);
        base->m.slot = slot;
    }
    int64_t gprs_left = (int64_t)d->narg_gprs - p->va_gprs, fprs_left = (int64_t)d->narg_fprs - p->va_fprs;
    switch ((B3VaListKind)d->va_list_kind) {
    case B3VaList_SysV:
        /* { i32 gp_offset, i32 fp_offset, ptr overflow_arg_area, ptr reg_save_area } */
        store(e, int_const(e, B3_Int32, sa->gpr_base + p->va_gprs * sa->gpr_stride), ap, 0);
        store(e, int_const(e, B3_Int32, sa->fpr_base + p->va_fprs * sa->fpr_stride), ap, 4);
        store(e, stack, ap, 8);
        store(e, base, ap, 16);
        break;
    case B3VaList_AAPCS64:
        /* { ptr __stack, ptr __gr_top, ptr __vr_top, i32 __gr_offs, i32 __vr_offs } */
        store(e, stack, ap, 0);
        store(e, plus(e, base, sa->gpr_base + d->narg_gprs * sa->gpr_stride), ap, 8);
        store(e, plus(e, base, sa->fpr_base + d->narg_fprs * sa->fpr_stride), ap, 16);
        store(e, int_const(e, B3_Int32, -gprs_left * sa->gpr_stride), ap, 24);
        store(e, int_const(e, B3_Int32, -fprs_left * sa->fpr_stride), ap, 28);
        break;
    case B3VaList_StackPointer:
        store(e, stack, ap, 0);
        break;
    }
}

bool b3_lower_varargs(B3Module *m, B3Proc *p) {
    if (!p->variadic)
        return false;
    bool any = false;
    for (uint32_t bi = 0; bi < p->nblocks && !any; bi++)
        for (uint32_t i = 0; i < p->blocks[bi]->nvalues && !any; i++)
            any = p->blocks[bi]->values[i]->opcode == B3_VaStart;
    if (!any)
        return false;
    const B3TargetDesc *d = b3_target_desc(m->target);
    const SaveArea *sa = &save_areas[d->va_list_kind];
    B3StackSlot *slot = sa->size ? save_registers(m, p, d, sa) : NULL;
    Emit e;
    b3_insertion_set_init(&e.ins, m, p);
    for (uint32_t bi = 0; bi < p->nblocks; bi++) {
        B3Block *b = p->blocks[bi];
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *v = b->values[i];
            if (v->opcode != B3_VaStart)
                continue;
            e.at = i;
            e.origin = v;
            fill_va_list(&e, p, d, sa, slot, v->kids[0]);
            v->opcode = B3_Nop;
            v->nkids = 0;
        }
        b3_insertion_set_execute(&e.ins, b);
    }
    b3_insertion_set_free(&e.ins);
    return true;
}
