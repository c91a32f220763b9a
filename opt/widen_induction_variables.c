/* widen_induction_variables (-O2): Int32 loop counters as Int64 (beyond B3).
 *
 * A C loop `for (int i = 0; i < n; i++) a[i]` reaches B3 as an Int32
 * counter whose uses as an index are SExt32(i): a sign extension on every
 * trip, and an address that strength reduction cannot advance, since an
 * Int32 Add wraps and its SExt32 does not.
 *
 * A counted induction variable of a loop L is a Phi k of L's header written
 * by two Upsilons: init, from outside L (as reduce_loop_strength's basic
 * induction variables), and Add(k, 1) from inside L, in a block that only
 * the true edge of a Branch on LessThan(k, n) reaches (n any Int32; also
 * GreaterThan(n, k), or the false edge of GreaterEqual(k, n) or
 * LessEqual(n, k)).  That edge leaves a block of L other than the header
 * and dominates the step, so the step runs only after k < n held in the
 * same trip: k < INT32_MAX, and k + 1 never wraps.  So k takes the values
 * init, init + 1, ... exactly, and a new Int64 Phi k64, written
 * SExt32(init) in the preheader and Add(k64, 1) beside k's step, equals
 * SExt32(k) everywhere in L (and wherever the header dominates).  With an
 * unsigned test (Below(k, n), ...) the same holds of ZExt32; with a signed
 * one and init >= 0 (opt/int_range.h) k never goes below 0 and ZExt32(k) is
 * k64 too.
 *
 * Then, in L, SExt32(k) (and ZExt32(k) where exact) become k64; a compare of
 * k with an Int32 invariant m becomes the same compare of k64 with
 * SExt32(m) (sign extension keeps equality and both orders); k's step
 * value, where used besides, becomes Trunc(Add(k64, 1)), and any other use
 * of k Trunc(k64).  k is then dead when nothing else needs it, and the
 * loop counts in 64 bits without extending.
 *
 * SExt32 of an expression x = C + S * k (Add, Sub, Neg, Mul with one side
 * invariant, Shl by a constant 0..31, of k and Int32 invariants: matmul's
 * a[i * n + k]) equals the same expression X computed in Int64 from k64 and
 * the SExt32 of the invariants exactly when X fits in Int32: these are ring
 * operations, so X's low 32 bits are x.  Where every Int64 step of X is
 * exact for any Int32 inputs (a bound on the magnitudes, below 2^62), X is
 * affine in k over the integers, and for k in [init, n - 1] (the values k
 * takes where k < n held, with n invariant in L) it fits exactly when it
 * fits at both ends.  That is not known at compile time, so an innermost
 * loop with such an SExt32, whose counter's start and bound are the same on
 * every trip of the loop around it, is versioned: the preheader tests both ends of
 * every such X (Equal(SExt32(Trunc(X)), X)) and enters L, where the SExt32s
 * become the Int64 expressions, or an unchanged copy of L.  A copy is made
 * only of a loop with one exit edge whose target has no other predecessor
 * (values of L used after it go through a Phi there), of at most
 * MAX_COPY values and no value that must not be cloned (NO_CLONE), at most
 * MAX_VERSIONED per procedure; the copy is never versioned again.
 * reduce_loop_strength, after this phase, turns the Int64 expressions into
 * pointers that advance. */
#include <stdlib.h>
#include <string.h>

#include "ir/dominators.h"
#include "ir/ice.h"
#include "ir/insertion_set.h"
#include "ir/loops.h"
#include "ir/target.h"
#include "ir/use_counts.h"
#include "opt/int_range.h"
#include "opt/phases.h"
#include "util/alloc.h"

#define PHASE "widen_induction_variables"
#define MAX_COPY 400    /* values of a loop that may be copied */
#define MAX_VERSIONED 8 /* loops copied per procedure */
#define MAX_TREE 24     /* nodes of one expression (as visited) */
#define MAX_SEXTS 16    /* versioned SExt32s per loop */
#define BOUND_LIMIT (UINT64_C(1) << 63)

typedef struct {
    B3Value *phi, *init, *step, *step_up; /* step = Add(phi, 1), written by step_up */
    B3Value *bound;                       /* n of the test k < n */
    B3Block *body;                        /* the block the test's edge enters */
    bool sext, zext;                      /* which extension of k is k64 */
    B3Value *wide, *wide_step;            /* k64 and its step, made lazily */
} CountedIV;

typedef struct {
    B3Module *m;
    B3Proc *p;
    B3Dominators dom;
    B3Loops loops;
    uint32_t nv;
    B3UseCounts uc;
    B3PhiUpsilons pu;
    B3Loop *loop;
    B3Block *pre;
    CountedIV *ivs;
    uint32_t nivs, cap_ivs;
    /* The wide form of a value (dense id) in the loop being changed. */
    B3Value **wide;
    uint32_t *wide_stamp, stamp;
    /* Insertion sets, one per block changed. */
    B3Block **set_block;
    B3InsertionSet *sets;
    uint32_t nsets, cap_sets;
    /* Headers (block numbers) of copies made: never versioned again. */
    uint32_t *copies;
    uint32_t ncopies;
} WIV;

static bool is_original(const WIV *w, const B3Value *v) {
    return v->scratch < w->nv && w->p->values[v->scratch] == v;
}

static bool in_loop(const WIV *w, const B3Block *b) { return b && b3_loop_contains(&w->loops, w->loop, b); }

/* b's index in the loop's blocks. */
static uint32_t slot_in_loop(const WIV *w, const B3Block *b) {
    return w->loops.slot[b->pos] - (uint32_t)(w->loop->blocks - w->loops.order);
}

static bool invariant(const WIV *w, const B3Value *v) {
    return v->type == B3_Int32 && (!in_loop(w, v->owner) || v->opcode == B3_Const32);
}

/* Is v the same on every trip of the loop around the current one (or is
 * there none)?  The versioning test runs each time the loop is entered: a
 * loop whose counter's start and bound change with each entry (fannkuch's
 * flips: a few trips to a bound loaded just before) pays the test for
 * little gain, where one whose ends are fixed for the outer loop (matmul's
 * n) pays it once per outer trip. */
static bool invariant_outside(const WIV *w, const B3Value *v) {
    const B3Loop *outer = w->loop->parent;
    return !outer || v->opcode == B3_Const32 || !v->owner || !b3_loop_contains(&w->loops, outer, v->owner);
}

static B3InsertionSet *set_for(WIV *w, B3Block *b) {
    for (uint32_t i = 0; i < w->nsets; i++)
        if (w->set_block[i] == b)
            return &w->sets[i];
    if (w->nsets == w->cap_sets) {
        w->cap_sets = w->cap_sets ? 2 * w->cap_sets : 8;
        w->set_block = b3_xrealloc(PHASE, w->set_block, w->cap_sets * sizeof *w->set_block);
        w->sets = b3_xrealloc(PHASE, w->sets, w->cap_sets * sizeof *w->sets);
    }
    w->set_block[w->nsets] = b;
    b3_insertion_set_init(&w->sets[w->nsets], w->m, w->p);
    return &w->sets[w->nsets++];
}

static void execute_sets(WIV *w) {
    for (uint32_t i = 0; i < w->nsets; i++) {
        b3_insertion_set_execute(&w->sets[i], w->set_block[i]);
        b3_insertion_set_free(&w->sets[i]);
    }
    w->nsets = 0;
}

static uint32_t index_in_block(const B3Value *v) {
    const B3Block *b = v->owner;
    for (uint32_t i = 0; i < b->nvalues; i++)
        if (b->values[i] == v)
            return i;
    b3_internal_error_at(PHASE, v, "is not in its block");
}

/* A new value inserted in b before index at. */
static B3Value *emit_at(WIV *w, B3Block *b, uint32_t at, B3Opcode op, B3Type t, B3Value *a, B3Value *c,
                        const B3Value *origin) {
    B3Value *v = b3_insertion_set_insert_new(set_for(w, b), at, op, t, c ? 2 : 1, origin);
    v->kids[0] = a;
    if (c)
        v->kids[1] = c;
    return v;
}

/* In the preheader, before its terminator. */
static B3Value *emit_pre(WIV *w, B3Opcode op, B3Type t, B3Value *a, B3Value *c, const B3Value *origin) {
    return emit_at(w, w->pre, w->pre->nvalues - 1, op, t, a, c, origin);
}

static B3Value *const64_pre(WIV *w, int64_t c, const B3Value *origin) {
    return b3_insertion_set_insert_int_const(set_for(w, w->pre), w->pre->nvalues - 1, origin, B3_Int64, c);
}

/* ---- finding counted induction variables ---- */

/* Whether the edge into b (b's only predecessor's Branch) proves phi < its
 * bound; sets *bound and *is_unsigned. */
static bool edge_proves_less(const WIV *w, const B3Block *b, const B3Value *phi, B3Value **bound,
                             bool *is_unsigned) {
    if (b->npreds != 1 || b == w->loop->header)
        return false;
    const B3Block *from = b->preds[0];
    const B3Value *br = b3_block_last(from);
    if (!br || br->opcode != B3_Branch || from->nsuccs != 2 || from->succs[0].block == from->succs[1].block)
        return false;
    const B3Value *c = br->kids[0];
    bool then_edge = from->succs[0].block == b;
    B3Value *n = NULL;
    bool uns = false;
    /* phi < n on this edge, as each compare says it */
    switch (c->opcode) {
    case B3_LessThan:
    case B3_Below:
        if (then_edge && c->kids[0] == phi)
            n = c->kids[1];
        break;
    case B3_GreaterThan:
    case B3_Above:
        if (then_edge && c->kids[1] == phi)
            n = c->kids[0];
        break;
    case B3_GreaterEqual:
    case B3_AboveEqual:
        if (!then_edge && c->kids[0] == phi)
            n = c->kids[1];
        break;
    case B3_LessEqual:
    case B3_BelowEqual:
        if (!then_edge && c->kids[1] == phi)
            n = c->kids[0];
        break;
    default:
        return false;
    }
    if (!n)
        return false;
    uns = c->opcode == B3_Below || c->opcode == B3_Above || c->opcode == B3_AboveEqual ||
          c->opcode == B3_BelowEqual;
    *bound = n;
    *is_unsigned = uns;
    return true;
}

static void find_counted_ivs(WIV *w) {
    w->nivs = 0;
    B3Block *h = w->loop->header;
    for (uint32_t i = 0; i < h->nvalues; i++) {
        B3Value *phi = h->values[i];
        B3Value *ua, *ub;
        if (phi->type != B3_Int32 ||
            !b3_loop_phi_init_and_step(&w->loops, &w->dom, w->loop, w->pre, &w->pu, phi, &ua, &ub))
            continue;
        B3Value *st = ub->kids[0];
        int64_t one;
        if (st->opcode != B3_Add || st->kids[0] != phi || !b3_value_int_const(st->kids[1], &one) || one != 1)
            continue;
        CountedIV iv = {.phi = phi, .init = ua->kids[0], .step = st, .step_up = ub};
        bool uns = false;
        for (B3Block *b = ub->owner; b && b != h; b = b3_idom(&w->dom, b)) {
            if (edge_proves_less(w, b, phi, &iv.bound, &uns)) {
                iv.body = b;
                break;
            }
        }
        if (!iv.body)
            continue;
        iv.sext = !uns;
        iv.zext = uns || b3_int_range(iv.init).lo >= 0;
        if (w->nivs == w->cap_ivs) {
            w->cap_ivs = w->cap_ivs ? 2 * w->cap_ivs : 8;
            w->ivs = b3_xrealloc(PHASE, w->ivs, w->cap_ivs * sizeof *w->ivs);
        }
        w->ivs[w->nivs++] = iv;
    }
}

/* k64: a Phi of the header, SExt32 or ZExt32 of init in the preheader,
 * Add(k64, 1) beside k's own step. */
static B3Value *wide_iv(WIV *w, CountedIV *iv) {
    if (iv->wide)
        return iv->wide;
    B3Value *start = emit_pre(w, iv->sext ? B3_SExt32 : B3_ZExt32, B3_Int64, iv->init, NULL, iv->phi);
    B3Value *q = b3_insertion_set_insert_new(set_for(w, w->loop->header), 0, B3_Phi, B3_Int64, 0, iv->phi);
    B3Value *u0 = emit_pre(w, B3_Upsilon, B3_Void, start, NULL, iv->phi);
    u0->m.phi = q;
    B3Block *sb = iv->step->owner;
    uint32_t at = index_in_block(iv->step) + 1;
    B3Value *one = b3_insertion_set_insert_int_const(set_for(w, sb), at, iv->step, B3_Int64, 1);
    B3Value *next = emit_at(w, sb, at, B3_Add, B3_Int64, q, one, iv->step);
    B3Block *ub = iv->step_up->owner;
    B3Value *u1 = emit_at(w, ub, index_in_block(iv->step_up), B3_Upsilon, B3_Void, next, NULL, iv->step_up);
    u1->m.phi = q;
    iv->wide = q;
    iv->wide_step = next;
    return q;
}

/* ---- expressions affine in a counter ---- */

typedef struct {
    bool ok, dep;   /* affine; depends on k */
    uint64_t bound; /* of its exact magnitude, saturated at BOUND_LIMIT */
} Shape;

static uint64_t sat_add(uint64_t a, uint64_t b) {
    return a >= BOUND_LIMIT || b >= BOUND_LIMIT || a + b >= BOUND_LIMIT ? BOUND_LIMIT : a + b;
}
static uint64_t sat_mul(uint64_t a, uint64_t b) {
    return a && b > (BOUND_LIMIT - 1) / a ? BOUND_LIMIT : a * b;
}

static Shape shape_of(const WIV *w, const CountedIV *iv, const B3Value *x, unsigned *visits) {
    Shape no = {false, false, 0};
    if (++*visits > MAX_TREE || x->type != B3_Int32)
        return no;
    if (x == iv->phi)
        return (Shape){true, true, (UINT64_C(1) << 31) + 1};
    if (invariant(w, x)) {
        int64_t c;
        if (b3_value_int_const(x, &c))
            return (Shape){true, false, c < 0 ? (uint64_t)-c : (uint64_t)c};
        return (Shape){true, false, UINT64_C(1) << 31};
    }
    if (!is_original(w, x))
        return no;
    Shape a, b;
    int64_t c;
    switch (x->opcode) {
    case B3_Add:
    case B3_Sub:
        a = shape_of(w, iv, x->kids[0], visits);
        b = shape_of(w, iv, x->kids[1], visits);
        if (!a.ok || !b.ok)
            return no;
        return (Shape){true, a.dep || b.dep, sat_add(a.bound, b.bound)};
    case B3_Mul:
        a = shape_of(w, iv, x->kids[0], visits);
        b = shape_of(w, iv, x->kids[1], visits);
        if (!a.ok || !b.ok || (a.dep && b.dep))
            return no;
        return (Shape){true, a.dep || b.dep, sat_mul(a.bound, b.bound)};
    case B3_Shl:
        if (!b3_value_int_const(x->kids[1], &c) || c < 0 || c > 31)
            return no;
        a = shape_of(w, iv, x->kids[0], visits);
        return (Shape){a.ok, a.dep, sat_mul(a.bound, UINT64_C(1) << c)};
    case B3_Neg:
        return shape_of(w, iv, x->kids[0], visits);
    default:
        return no;
    }
}

/* The Int64 form of x (affine in iv), right after x (its children's forms
 * come before it), in the preheader for invariants. */
static B3Value *wide_of(WIV *w, CountedIV *iv, B3Value *x) {
    if (x == iv->phi)
        return wide_iv(w, iv);
    if (!is_original(w, x))
        b3_internal_error_at(PHASE, x, "made by this phase in an expression");
    if (w->wide_stamp[x->scratch] == w->stamp)
        return w->wide[x->scratch];
    B3Value *r;
    int64_t c;
    if (b3_value_int_const(x, &c))
        r = const64_pre(w, c, x);
    else if (!in_loop(w, x->owner))
        r = emit_pre(w, B3_SExt32, B3_Int64, x, NULL, x);
    else {
        B3Value *a = wide_of(w, iv, x->kids[0]);
        B3Value *b = x->opcode == B3_Neg   ? NULL
                     : x->opcode == B3_Shl ? x->kids[1]
                                           : wide_of(w, iv, x->kids[1]);
        r = emit_at(w, x->owner, index_in_block(x) + 1, (B3Opcode)x->opcode, B3_Int64, a, b, x);
    }
    w->wide[x->scratch] = r;
    w->wide_stamp[x->scratch] = w->stamp;
    return r;
}

/* x (affine in iv) computed in the preheader in Int64 with k = at. */
static B3Value *value_at(WIV *w, CountedIV *iv, B3Value *x, B3Value *at) {
    if (x == iv->phi)
        return at;
    int64_t c;
    if (b3_value_int_const(x, &c))
        return const64_pre(w, c, x);
    if (!in_loop(w, x->owner))
        return wide_of(w, iv, x);
    B3Value *a = value_at(w, iv, x->kids[0], at);
    B3Value *b = NULL;
    if (x->opcode == B3_Shl)
        b = b3_insertion_set_insert_int_const(set_for(w, w->pre), w->pre->nvalues - 1, x, B3_Int32,
                                              x->kids[1]->m.c.i);
    else if (x->opcode != B3_Neg)
        b = value_at(w, iv, x->kids[1], at);
    return emit_pre(w, (B3Opcode)x->opcode, B3_Int64, a, b, x);
}

/* ---- the rewriting ---- */

static bool is_integer_compare(const B3Value *u) {
    return (b3_op((B3Opcode)u->opcode)->flags & B3OF_COMPARE) && u->nkids == 2 &&
           u->kids[0]->type == B3_Int32;
}

/* How u uses iv (0: not in a way this phase rewrites; 1: an extension of
 * k; 2: a compare of k or its step with an invariant, operand *which). */
static int use_kind(const WIV *w, const CountedIV *iv, const B3Value *u, uint32_t *which) {
    if (u == iv->step || u->opcode == B3_Upsilon || !is_original(w, u))
        return 0;
    if ((u->opcode == B3_SExt32 && iv->sext) || (u->opcode == B3_ZExt32 && iv->zext))
        return u->kids[0] == iv->phi ? 1 : 0;
    if (!is_integer_compare(u))
        return 0;
    /* ZExt32 keeps equality and the unsigned order only. */
    if (!iv->sext && u->opcode != B3_Equal && u->opcode != B3_NotEqual && u->opcode != B3_Below &&
        u->opcode != B3_Above && u->opcode != B3_BelowEqual && u->opcode != B3_AboveEqual)
        return 0;
    for (uint32_t k = 0; k < 2; k++) {
        const B3Value *other = u->kids[1 - k];
        if ((u->kids[k] == iv->phi || u->kids[k] == iv->step) && invariant(w, other) &&
            is_original(w, other)) {
            *which = k;
            return 2;
        }
    }
    return 0;
}

/* Rewrites the uses of the counters in the loop's blocks (see the header):
 * those of a counter that then dies, or that is extended twice or more, or
 * all (`all`: the loop's expressions are widened already).  Returns whether
 * anything changed. */
static bool rewrite_uses(WIV *w, bool all) {
    bool changed = false;
    B3Loop *loop = w->loop;
    for (uint32_t ii = 0; ii < w->nivs; ii++) {
        CountedIV *iv = &w->ivs[ii];
        uint32_t ext = 0, phi_uses = 1, step_uses = 1, which; /* the step, its Upsilon */
        for (uint32_t bi = 0; bi < loop->nblocks; bi++) {
            B3Block *b = loop->blocks[bi];
            for (uint32_t i = 0; i < b->nvalues; i++) {
                int kind = use_kind(w, iv, b->values[i], &which);
                ext += kind == 1;
                if (kind == 1 || (kind == 2 && b->values[i]->kids[which] == iv->phi))
                    phi_uses++;
                else if (kind == 2)
                    step_uses++;
            }
        }
        bool dies = b3_use_count(&w->uc, iv->phi) == phi_uses && b3_use_count(&w->uc, iv->step) == step_uses;
        if (!all && !dies && ext < 2)
            continue;
        for (uint32_t bi = 0; bi < loop->nblocks; bi++) {
            B3Block *b = loop->blocks[bi];
            for (uint32_t i = 0; i < b->nvalues; i++) {
                B3Value *u = b->values[i];
                int kind = use_kind(w, iv, u, &which);
                if (kind == 1) {
                    b3_value_replace_with_identity(u, wide_iv(w, iv));
                    changed = true;
                } else if (kind == 2) {
                    B3Value *o = u->kids[1 - which];
                    int64_t c;
                    B3Value *ow = iv->sext                    ? wide_of(w, iv, o)
                                  : b3_value_int_const(o, &c) ? const64_pre(w, (int64_t)(uint32_t)c, o)
                                                              : emit_pre(w, B3_ZExt32, B3_Int64, o, NULL, o);
                    wide_iv(w, iv);
                    u->kids[which] = u->kids[which] == iv->phi ? iv->wide : iv->wide_step;
                    u->kids[1 - which] = ow;
                    changed = true;
                }
            }
        }
    }
    return changed;
}

/* ---- versioning ---- */

/* The SExt32s of expressions that the versioned loop widens, and whether
 * the loop may be copied. */
static uint32_t versioned_sexts(WIV *w, B3Value **out, CountedIV **out_iv) {
    B3Loop *loop = w->loop;
    if (loop->own != loop->nblocks)
        return 0; /* innermost loops only */
    if (b3_target_info(w->m->target)->sext32_index_free)
        return 0; /* the copy would gain nothing for its test */
    for (uint32_t i = 0; i < w->ncopies; i++)
        if (w->copies[i] == loop->header->index)
            return 0;
    uint32_t n = 0, size = 0;
    for (uint32_t bi = 0; bi < loop->nblocks; bi++) {
        B3Block *b = loop->blocks[bi];
        size += b->nvalues;
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *u = b->values[i];
            if (b3_op((B3Opcode)u->opcode)->flags & B3OF_NO_CLONE)
                return 0;
            if (u->opcode != B3_SExt32 || !is_original(w, u) || n == MAX_SEXTS)
                continue;
            for (uint32_t ii = 0; ii < w->nivs; ii++) {
                CountedIV *iv = &w->ivs[ii];
                if (!iv->sext || u->kids[0] == iv->phi || !invariant(w, iv->bound) ||
                    !invariant_outside(w, iv->bound) || !invariant_outside(w, iv->init) ||
                    !b3_dominates(&w->dom, iv->body, b))
                    continue;
                unsigned visits = 0;
                Shape s = shape_of(w, iv, u->kids[0], &visits);
                if (s.ok && s.dep && s.bound < BOUND_LIMIT) {
                    out[n] = u;
                    out_iv[n++] = iv;
                    break;
                }
            }
        }
    }
    return size <= MAX_COPY ? n : 0;
}

/* The loop's only exit edge (from *from to *to, which has no other
 * predecessor), or false. */
static bool single_exit(const WIV *w, B3Block **from, B3Block **to) {
    *from = *to = NULL;
    for (uint32_t bi = 0; bi < w->loop->nblocks; bi++) {
        B3Block *b = w->loop->blocks[bi];
        for (uint32_t k = 0; k < b->nsuccs; k++) {
            B3Block *s = b->succs[k].block;
            if (in_loop(w, s))
                continue;
            if (*from || s->npreds != 1)
                return false;
            *from = b;
            *to = s;
        }
    }
    return *from != NULL;
}

/* An unchanged copy of the loop's blocks; returns the copy of the header.
 * Values of the loop used after the exit read a Phi at its target instead;
 * Upsilons outside the loop to its Phis also write the copies' Phis. */
static B3Block *copy_loop(WIV *w, B3Block *exit_from, B3Block *exit_to) {
    B3Module *m = w->m;
    B3Proc *p = w->p;
    B3Loop *loop = w->loop;
    B3Value **map = b3_xcalloc(PHASE, w->nv, sizeof *map);
    B3Block **bmap = b3_xcalloc(PHASE, loop->nblocks, sizeof *bmap);
    for (uint32_t bi = 0; bi < loop->nblocks; bi++) {
        B3Block *b = loop->blocks[bi];
        B3Block *nb = b3_block_new(m, p, UINT32_MAX);
        nb->loc = b->loc;
        nb->succ_loc = b->succ_loc;
        nb->frequency = b->frequency;
        bmap[bi] = nb;
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *c = b3_value_clone(m, p, b->values[i]);
            map[b->values[i]->scratch] = c;
            b3_block_append(m, nb, c);
        }
    }
    for (uint32_t bi = 0; bi < loop->nblocks; bi++) {
        B3Block *nb = bmap[bi], *b = loop->blocks[bi];
        for (uint32_t i = 0; i < nb->nvalues; i++) {
            B3Value *c = nb->values[i];
            for (uint32_t k = 0; k < c->nkids; k++)
                if (is_original(w, c->kids[k]) && map[c->kids[k]->scratch])
                    c->kids[k] = map[c->kids[k]->scratch];
            if (c->opcode == B3_Upsilon && c->m.phi && is_original(w, c->m.phi) && map[c->m.phi->scratch])
                c->m.phi = map[c->m.phi->scratch];
        }
        nb->succs = b3_arena_alloc(&m->arena, (b->nsuccs ? b->nsuccs : 1) * sizeof(B3Succ));
        nb->nsuccs = b->nsuccs;
        for (uint32_t k = 0; k < b->nsuccs; k++) {
            nb->succs[k] = b->succs[k];
            B3Block *s = b->succs[k].block;
            if (in_loop(w, s))
                nb->succs[k].block = bmap[slot_in_loop(w, s)];
        }
    }
    /* Outside the loop: Upsilons to its Phis, and uses of its values. */
    B3Value **phi_of = b3_xcalloc(PHASE, w->nv, sizeof *phi_of);
    B3Block *exit_copy = bmap[slot_in_loop(w, exit_from)];
    uint32_t nblocks = p->nblocks - loop->nblocks; /* the copies come last */
    for (uint32_t bi = 0; bi < nblocks; bi++) {
        B3Block *b = p->blocks[bi];
        if (in_loop(w, b))
            continue;
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *u = b->values[i];
            for (uint32_t k = 0; k < u->nkids; k++) {
                B3Value *v = u->kids[k];
                if (!is_original(w, v) || !in_loop(w, v->owner))
                    continue;
                if (!phi_of[v->scratch]) {
                    B3Value *phi =
                        b3_insertion_set_insert_new(set_for(w, exit_to), 0, B3_Phi, (B3Type)v->type, 0, v);
                    B3Value *u0 =
                        emit_at(w, exit_from, exit_from->nvalues - 1, B3_Upsilon, B3_Void, v, NULL, v);
                    u0->m.phi = phi;
                    B3Value *u1 = emit_at(w, exit_copy, exit_copy->nvalues - 1, B3_Upsilon, B3_Void,
                                          map[v->scratch], NULL, v);
                    u1->m.phi = phi;
                    phi_of[v->scratch] = phi;
                }
                u->kids[k] = phi_of[v->scratch];
            }
            if (u->opcode == B3_Upsilon && u->m.phi && in_loop(w, u->m.phi->owner) &&
                is_original(w, u->m.phi)) {
                B3Value *c = emit_at(w, b, i + 1, B3_Upsilon, B3_Void, u->kids[0], NULL, u);
                c->m.phi = map[u->m.phi->scratch];
            }
        }
    }
    B3Block *header_copy = bmap[0];
    free(phi_of);
    free(map);
    free(bmap);
    return header_copy;
}

/* Versions the loop (see the header); returns whether it did. */
static bool version_loop(WIV *w) {
    B3Value *sexts[MAX_SEXTS];
    CountedIV *sext_iv[MAX_SEXTS];
    uint32_t n = versioned_sexts(w, sexts, sext_iv);
    B3Block *exit_from, *exit_to;
    B3Value *term = b3_block_last(w->pre);
    if (!n || !single_exit(w, &exit_from, &exit_to) || !term || term->opcode != B3_Jump)
        return false;
    if (w->ncopies + 2 > 2 * MAX_VERSIONED)
        return false;
    B3Block *header_copy = copy_loop(w, exit_from, exit_to);
    w->copies[w->ncopies++] = header_copy->index;
    w->copies[w->ncopies++] = w->loop->header->index;
    /* The test: each expression fits in Int32 at both ends of the counter. */
    B3Value *all = NULL;
    for (uint32_t i = 0; i < n; i++) {
        CountedIV *iv = sext_iv[i];
        B3Value *x = sexts[i]->kids[0];
        B3Value *first = emit_pre(w, B3_SExt32, B3_Int64, iv->init, NULL, x);
        B3Value *nw = wide_of(w, iv, iv->bound);
        B3Value *last = emit_pre(w, B3_Sub, B3_Int64, nw, const64_pre(w, 1, x), x);
        B3Value *ends[2] = {first, last};
        for (uint32_t e = 0; e < 2; e++) {
            B3Value *v = value_at(w, iv, x, ends[e]);
            B3Value *t = emit_pre(w, B3_Trunc, B3_Int32, v, NULL, x);
            B3Value *s = emit_pre(w, B3_SExt32, B3_Int64, t, NULL, x);
            B3Value *fits = emit_pre(w, B3_Equal, B3_Int32, s, v, x);
            all = all ? emit_pre(w, B3_BitAnd, B3_Int32, all, fits, x) : fits;
        }
    }
    B3Value *br = b3_value_new(w->m, w->p, B3_Branch, B3_Void, 1, UINT32_MAX);
    br->loc = br->type_loc = term->loc;
    br->kids[0] = all;
    w->pre->values[w->pre->nvalues - 1] = br;
    br->owner = w->pre;
    b3_value_replace_with_nop(term);
    term->owner = NULL;
    B3Succ *succs = b3_arena_alloc(&w->m->arena, 2 * sizeof *succs);
    succs[0] = (B3Succ){w->loop->header, B3Freq_Normal};
    succs[1] = (B3Succ){header_copy, B3Freq_Normal};
    w->pre->succs = succs;
    w->pre->nsuccs = 2;
    for (uint32_t i = 0; i < n; i++)
        b3_value_replace_with_identity(sexts[i], wide_of(w, sext_iv[i], sexts[i]->kids[0]));
    rewrite_uses(w, true);
    return true;
}

/* One round over the loops; versions at most one loop (the analysis is
 * stale after copying).  *versioned says whether it did. */
static bool round_over_loops(WIV *w, bool *versioned) {
    bool changed = false;
    *versioned = false;
    b3_use_counts_compute(&w->uc, w->p);
    w->nv = w->uc.nvalues;
    b3_phi_upsilons_compute(&w->pu, w->p, w->nv);
    w->wide = b3_xcalloc(PHASE, w->nv, sizeof *w->wide);
    w->wide_stamp = b3_xcalloc(PHASE, w->nv, sizeof *w->wide_stamp);
    for (uint32_t li = w->loops.nloops; li-- > 0;) {
        w->loop = &w->loops.loops[li];
        w->pre = b3_loop_preheader(&w->loops, w->loop);
        if (!w->pre || !w->pre->nvalues)
            continue;
        find_counted_ivs(w);
        if (!w->nivs)
            continue;
        w->stamp++;
        if (version_loop(w)) {
            *versioned = changed = true;
            execute_sets(w);
            break; /* the analysis is stale now */
        }
        changed |= rewrite_uses(w, false);
        execute_sets(w);
    }
    free(w->wide);
    free(w->wide_stamp);
    b3_phi_upsilons_free(&w->pu);
    b3_use_counts_free(&w->uc);
    return changed;
}

bool b3_widen_induction_variables(B3Module *m, B3Proc *p) {
    WIV w = {.m = m, .p = p};
    w.copies = b3_xcalloc(PHASE, 2 * MAX_VERSIONED, sizeof *w.copies);
    bool changed = false;
    for (;;) {
        changed |= b3_loops_compute_with_preheaders(m, p, &w.dom, &w.loops);
        bool versioned = false;
        if (w.loops.nloops && round_over_loops(&w, &versioned)) {
            changed = true;
            b3_proc_remove_nops(m, p);
            b3_proc_remove_identities(m, p);
            if (versioned)
                b3_proc_compute_preds(m, p);
        }
        b3_loops_free(&w.loops);
        b3_dominators_free(&w.dom);
        if (!versioned)
            break;
    }
    free(w.copies);
    free(w.ivs);
    free(w.set_block);
    free(w.sets);
    return changed;
}
