/* b3_lower_macros: rewrites B3 operations that have no direct Air form into
 * simpler B3, just before instruction selection.
 *
 *  - Chill Div/Mod (x/0 = 0, INT_MIN/-1 = INT_MIN, x%0 = 0, INT_MIN%-1 = 0),
 *    branch-free: the divisor is replaced by 1 whenever it is 0 or -1 (where
 *    the hardware divide is undefined), and for Div the result in those two
 *    cases is num * den (0 for den = 0, the wrapping -num for den = -1).
 *  - Float/Double Mod becomes a CCall to fmod/fmodf.
 *  - VaStart becomes the stores of the target's va_list, with the register
 *    save area of a variadic procedure (lower/lower_varargs.c).
 *
 * Everything else that needs more than one Air instruction (DToI/DToU
 * saturation, UToD/UToF, FMin/FMax, Abs/Neg on floats) is expanded inline by
 * b3_lower_to_air, which can use conditional moves that B3 IR cannot express. */
#include <stdlib.h>
#include <string.h>

#include "lower/lower.h"
#include "util/alloc.h"
#include "util/vec.h"

typedef struct {
    B3Module *m;
    B3Proc *p;
    B3Value **out; /* the block's new value list */
    uint32_t nout, cap;
} Rewriter;

static inline void push(Rewriter *r, B3Value *v) {
    B3_VEC_RESERVE("lower_macros", r->out, r->cap, r->nout + 1);
    r->out[r->nout++] = v;
}

/* A new value placed in the block being rewritten, before the current one. */
static B3Value *add(Rewriter *r, B3Value *at, B3Opcode op, B3Type type, uint32_t nkids, B3Value *a,
                    B3Value *b, B3Value *c) {
    B3Value *v = b3_value_new(r->m, r->p, op, type, nkids, UINT32_MAX);
    B3Value *kids[3] = {a, b, c};
    for (uint32_t i = 0; i < nkids; i++)
        v->kids[i] = kids[i];
    v->owner = at->owner;
    v->loc = at->loc;
    v->type_loc = at->loc;
    push(r, v);
    return v;
}

static B3Value *int_const(Rewriter *r, B3Value *at, B3Type type, int64_t value) {
    B3Value *v = add(r, at, type == B3_Int32 ? B3_Const32 : B3_Const64, type, 0, NULL, NULL, NULL);
    v->m.c.i = value;
    return v;
}

/* Turns v into Identity(target) in place, so that every use of v keeps working. */
static void become_identity(B3Value *v, B3Value *target) {
    v->opcode = B3_Identity;
    v->kflags = 0;
    v->nkids = 1;
    v->kids[0] = target;
    if (v->kid_locs)
        v->kid_locs[0] = v->loc;
}

static void lower_chill(Rewriter *r, B3Value *v) {
    B3Type t = (B3Type)v->type;
    B3Value *num = v->kids[0], *den = v->kids[1];
    /* den + 1 >u 1  <=>  den is neither 0 nor -1: the hardware divide is defined. */
    B3Value *one = int_const(r, v, t, 1);
    B3Value *den1 = add(r, v, B3_Add, t, 2, den, one, NULL);
    B3Value *ok1 = add(r, v, B3_Above, B3_Int32, 2, den1, one, NULL);
    B3Value *safe = add(r, v, B3_Select, t, 3, ok1, den, one);
    B3Value *q = add(r, v, v->opcode == B3_Div ? B3_Div : B3_Mod, t, 2, num, safe, NULL);
    if (v->opcode == B3_Mod) {
        /* x % 1 = 0, which is the chill answer for both den = 0 and den = -1. */
        become_identity(v, q);
        return;
    }
    B3Value *ok2 = add(r, v, B3_Above, B3_Int32, 2, den1, one, NULL);
    B3Value *edge = add(r, v, B3_Mul, t, 2, num, den, NULL);
    B3Value *res = add(r, v, B3_Select, t, 3, ok2, q, edge);
    become_identity(v, res);
}

static B3Symbol *libm_symbol(B3Module *m, const char *name) {
    bool created = false;
    B3Symbol *s = b3_symbol_get(m, name, (uint32_t)strlen(name), &created);
    if (created) {
        s->kind = B3Sym_Extern;
        s->declared = true;
        b3_module_add_item(m, B3Item_Extern, s);
    }
    return s;
}

static void lower_float_mod(Rewriter *r, B3Value *v) {
    B3Value *fn = add(r, v, B3_SymbolAddress, B3_Int64, 0, NULL, NULL, NULL);
    fn->m.symbol.sym = libm_symbol(r->m, v->type == B3_Double ? "fmod" : "fmodf");
    fn->m.symbol.offset = 0;
    B3Value *a = v->kids[0], *b = v->kids[1];
    v->opcode = B3_CCall;
    v->kflags = 0;
    v->nkids = 3;
    v->kids = b3_arena_alloc(&r->m->arena, 3 * sizeof(B3Value *));
    v->kids[0] = fn;
    v->kids[1] = a;
    v->kids[2] = b;
    v->kid_locs = NULL;
    v->m.ccall.variadic = -1;
}

/* How many values lowering v adds (0: v stays). */
static inline uint32_t added_values(const B3Value *v) {
    if ((v->opcode == B3_Div || v->opcode == B3_Mod) && b3_type_is_int((B3Type)v->type) &&
        (v->kflags & B3K_CHILL))
        return v->opcode == B3_Div ? 8 : 5;
    if (v->opcode == B3_Mod && b3_type_is_float((B3Type)v->type))
        return 1;
    return 0;
}

bool b3_lower_macros(B3Module *m, B3Proc *p) {
    Rewriter r = {m, p, NULL, 0, 0};
    bool any = b3_lower_varargs(m, p);
    /* The additions are counted first: the value list and number map then
     * grow once, exactly, and only the blocks that change are rewritten. */
    uint32_t extra = 0, nchanged = 0;
    uint32_t *changed = NULL, cap_changed = 0;
    for (uint32_t bi = 0; bi < p->nblocks; bi++) {
        B3Block *b = p->blocks[bi];
        uint32_t before = extra;
        for (uint32_t i = 0; i < b->nvalues; i++)
            extra += added_values(b->values[i]);
        if (extra != before) {
            B3_VEC_RESERVE("lower_macros", changed, cap_changed, nchanged + 1);
            changed[nchanged++] = bi;
        }
    }
    if (!nchanged)
        return any;
    b3_proc_reserve_values(m, p, extra);
    for (uint32_t k = 0; k < nchanged; k++) {
        B3Block *b = p->blocks[changed[k]];
        r.nout = 0;
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *v = b->values[i];
            uint32_t n = added_values(v);
            if (n == 1)
                lower_float_mod(&r, v);
            else if (n)
                lower_chill(&r, v);
            push(&r, v);
        }
        /* In place where the block's array has room. */
        if (r.nout > b->cap_values)
            b->values = b3_arena_grow(&m->arena, b->values, sizeof(B3Value *), &b->cap_values, r.nout);
        memcpy(b->values, r.out, r.nout * sizeof(B3Value *));
        b->nvalues = r.nout;
    }
    free(changed);
    free(r.out);
    return true;
}
