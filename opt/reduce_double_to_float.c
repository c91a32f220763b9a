/* reduce_double_to_float (-O2, first of B3's phases): B3's reduceDoubleToFloat.
 *
 * Double arithmetic on float-widened operands whose result is only ever
 * narrowed back to Float is done in Float:
 *
 *     DoubleToFloat(Add(FloatToDouble(a), FloatToDouble(b)))  ->  Add(a, b)
 *
 * This is exact, not an approximation: for Add, Sub, Mul, Div and Sqrt the
 * double result rounded to float equals the float operation's correctly
 * rounded result, because double has more than 2*24+2 significand bits (the
 * double rounding is innocuous), and its exponent range holds every exact
 * float result, so overflow and underflow land the same way.  Abs, Neg,
 * Ceil and Floor are exact in both types.  These are B3's list (Add, Sub,
 * Mul, Div, Abs, Ceil, Sqrt) plus Floor and Neg, exact for the same reason.
 * Nothing else (FMin/FMax, Mod, conversions) is touched.
 *
 * An operand qualifies when it is exactly a float widened ("exact"):
 * FloatToDouble(x), a ConstDouble that a float represents bit for bit
 * (-0.0 does, NaNs only if the round trip keeps every bit), or a Phi whose
 * every Upsilon writes an exact value.  An operand that is itself a narrowed
 * operation does not: the double intermediate keeps bits the float one
 * would round away (Add(Mul(a, b), c) is rounded once in double).
 *
 * A result qualifies when every use narrows it: DoubleToFloat, or an Upsilon
 * to a Phi that also becomes Float.  Such Phis are found with the operations
 * (a greatest fixpoint): a Double Phi becomes Float when every Upsilon writes
 * an exact value or a narrowed operation, and every use is DoubleToFloat, an
 * Upsilon to such a Phi, or an operand of a narrowed operation.
 *
 * Comparisons of two exact operands compare the floats (widening keeps the
 * order and unorderedness), as in B3, when at least one is FloatToDouble.
 *
 * The DoubleToFloats made useless become Identities, removed at the end;
 * the FloatToDoubles left without uses are eliminate_dead_code's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ice.h"
#include "ir/insertion_set.h"
#include "opt/phases.h"
#include "util/alloc.h"

#define PHASE "reduce_double_to_float"
/* Each fixpoint pass is linear; a change must travel along a chain of Phis
 * to need many.  Past this bound the procedure is left alone (nothing has
 * been changed yet), so the phase stays linear. */
#define MAX_PASSES 32

static bool narrowable_op(B3Opcode op) {
    switch (op) {
    case B3_Add:
    case B3_Sub:
    case B3_Mul:
    case B3_Div:
    case B3_Sqrt:
    case B3_Abs:
    case B3_Ceil:
    case B3_Floor:
    case B3_Neg:
        return true;
    default:
        return false;
    }
}

static bool is_compare(B3Opcode op) {
    switch (op) {
    case B3_Equal:
    case B3_NotEqual:
    case B3_LessThan:
    case B3_GreaterThan:
    case B3_LessEqual:
    case B3_GreaterEqual:
    case B3_EqualOrUnordered:
        return true;
    default:
        return false;
    }
}

/* Is the ConstDouble exactly a float, bit for bit? */
static bool const_fits_float(const B3Value *v, float *out) {
    float f = (float)v->m.c.d;
    double back = (double)f;
    if (memcmp(&back, &v->m.c.d, sizeof back))
        return false;
    *out = f;
    return true;
}

static bool cheap_exact(const B3Value *v) {
    float f;
    return v->opcode == B3_FloatToDouble || (v->opcode == B3_ConstDouble && const_fits_float(v, &f));
}

typedef struct {
    B3Module *m;
    B3Proc *p;
    bool *exact, *cand;
    B3InsertionSet ins;
} R;

/* The Float that k (exact or a candidate) stands for, made before index i. */
static B3Value *float_of(R *r, B3Value *k, uint32_t i, const B3Value *at) {
    if (k->opcode == B3_FloatToDouble)
        return k->kids[0];
    if (k->opcode == B3_ConstDouble) {
        float f = 0;
        const_fits_float(k, &f);
        B3Value *c = b3_insertion_set_insert_new(&r->ins, i, B3_ConstFloat, B3_Float, 0, at);
        c->m.c.bits = 0;
        c->m.c.f = f;
        return c;
    }
    if (r->cand[k->scratch])
        return k; /* turned Float in place */
    /* An exact Phi that stays Double: narrowing it loses nothing. */
    B3Value *n = b3_insertion_set_insert_new(&r->ins, i, B3_DoubleToFloat, B3_Float, 1, at);
    n->kids[0] = k;
    return n;
}

static bool may_use(const R *r, const B3Value *user, const B3Value *k) {
    if (user->opcode == B3_DoubleToFloat)
        return true;
    if (user->opcode == B3_Upsilon)
        return r->cand[user->m.phi->scratch];
    /* Only an exact Phi is ever an operand of a candidate (checked there). */
    return k->opcode == B3_Phi && r->cand[user->scratch];
}

bool b3_reduce_double_to_float(B3Module *m, B3Proc *p) {
    uint32_t n = b3_proc_number_values(p);
    R r = {m, p, b3_xcalloc(PHASE, n + 1, sizeof(bool)), b3_xcalloc(PHASE, n + 1, sizeof(bool)), {0}};
    bool any = false, widened = false;

    /* Exact values; Phis start exact and lose it (greatest fixpoint). */
    for (uint32_t i = 0; i < p->nvalues; i++) {
        B3Value *v = p->values[i];
        r.exact[v->scratch] = cheap_exact(v) || (v->opcode == B3_Phi && v->type == B3_Double);
        widened |= v->opcode == B3_FloatToDouble;
    }
    if (!widened)
        goto done;
    unsigned passes = 0;
    for (bool changed = true; changed;) {
        if (++passes > MAX_PASSES)
            goto done; /* long Phi chains: leave the procedure as it is */
        changed = false;
        for (uint32_t bi = 0; bi < p->nblocks; bi++)
            for (uint32_t i = 0; i < p->blocks[bi]->nvalues; i++) {
                B3Value *u = p->blocks[bi]->values[i];
                if (u->opcode == B3_Upsilon && r.exact[u->m.phi->scratch] && !r.exact[u->kids[0]->scratch]) {
                    r.exact[u->m.phi->scratch] = false;
                    changed = true;
                }
            }
    }

    /* Candidates: operations on exact operands, and Double Phis. */
    for (uint32_t bi = 0; bi < p->nblocks; bi++)
        for (uint32_t i = 0; i < p->blocks[bi]->nvalues; i++) {
            B3Value *v = p->blocks[bi]->values[i];
            if (v->type != B3_Double)
                continue;
            bool c = v->opcode == B3_Phi;
            if (narrowable_op((B3Opcode)v->opcode)) {
                c = true;
                for (uint32_t k = 0; k < v->nkids; k++)
                    c &= r.exact[v->kids[k]->scratch];
            }
            r.cand[v->scratch] = c;
        }
    /* Drop those with a use that needs the Double, or a Phi with an input
     * that has no Float form, until nothing changes. */
    passes = 0;
    for (bool changed = true; changed;) {
        if (++passes > MAX_PASSES)
            goto done;
        changed = false;
        for (uint32_t bi = 0; bi < p->nblocks; bi++)
            for (uint32_t i = 0; i < p->blocks[bi]->nvalues; i++) {
                B3Value *u = p->blocks[bi]->values[i];
                for (uint32_t k = 0; k < u->nkids; k++) {
                    B3Value *c = u->kids[k];
                    if (r.cand[c->scratch] && !may_use(&r, u, c)) {
                        r.cand[c->scratch] = false;
                        changed = true;
                    }
                }
                if (u->opcode == B3_Upsilon && r.cand[u->m.phi->scratch] && !r.exact[u->kids[0]->scratch] &&
                    !r.cand[u->kids[0]->scratch]) {
                    r.cand[u->m.phi->scratch] = false;
                    changed = true;
                }
            }
    }

    /* Retype every candidate first: a DoubleToFloat may come before its
     * operand's definition in block order (a Phi of a later block). */
    for (uint32_t i = 0; i < p->nvalues; i++)
        if (r.cand[p->values[i]->scratch])
            p->values[i]->type = B3_Float;
    b3_insertion_set_init(&r.ins, m, p);
    for (uint32_t bi = 0; bi < p->nblocks; bi++) {
        B3Block *b = p->blocks[bi];
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *v = b->values[i];
            if (r.cand[v->scratch]) {
                if (v->opcode != B3_Phi)
                    for (uint32_t k = 0; k < v->nkids; k++)
                        v->kids[k] = float_of(&r, v->kids[k], i, v);
                v->type = B3_Float;
                any = true;
            } else if (v->opcode == B3_Upsilon && r.cand[v->m.phi->scratch]) {
                v->kids[0] = float_of(&r, v->kids[0], i, v);
            } else if (v->opcode == B3_DoubleToFloat && r.cand[v->kids[0]->scratch]) {
                b3_value_replace_with_identity(v, v->kids[0]);
            } else if (is_compare((B3Opcode)v->opcode) && v->kids[0]->type == B3_Double &&
                       cheap_exact(v->kids[0]) && cheap_exact(v->kids[1]) &&
                       (v->kids[0]->opcode == B3_FloatToDouble || v->kids[1]->opcode == B3_FloatToDouble)) {
                v->kids[0] = float_of(&r, v->kids[0], i, v);
                v->kids[1] = float_of(&r, v->kids[1], i, v);
                any = true;
            }
        }
        b3_insertion_set_execute(&r.ins, b);
    }
    b3_insertion_set_free(&r.ins);
    if (any)
        b3_proc_remove_identities(m, p);
done:
    free(r.exact);
    free(r.cand);
    return any;
}
