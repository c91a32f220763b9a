/* reduce_loop_strength (-O2): loop strength reduction (beyond B3).
 *
 * A basic induction variable of a loop L is a Phi p of L's header written
 * by exactly two Upsilons: init, from a block outside L that runs before
 * every entry into L (it dominates the preheader and shares its innermost
 * loop), and Add(p, s), from inside L, with s invariant in L.  A value of L
 * is affine in p when it is built from p and L-invariant values by Add,
 * Sub, Neg, Mul by an invariant and Shl by a constant, all of one type.
 * Such a value v = A + B * p takes the values S, S + D, S + 2D, ... where S
 * is v with p replaced by init and D is v with p replaced by s and the
 * invariant terms dropped: every operation listed is a ring operation
 * modulo 2^32 or 2^64, so this holds with wrapping too.
 *
 * Where computing v on every trip costs at least COST_MIN operations more
 * than an address mode absorbs (a multiplication counts twice), v becomes
 * a new induction variable q: Upsilon(S, ^q) at the end of the preheader
 * (S and D are computed there), q = Phi() in the header, and
 * Upsilon(Add(q, D), ^q) right before p's own step Upsilon, so that q moves
 * exactly when p does.  `a[i * n + k]` in a loop over k then costs one add
 * per trip instead of a multiplication, an add and a shift; `b[k * n + j]`
 * becomes a pointer that advances by n * 8.
 *
 * Only the uses of v inside L change (outside L, v is the value of the last
 * trip that computed it, which q is not after the back edge), so a value
 * used outside L is left alone (known from each value's scope: the
 * innermost loop around its block and all its users).  Loops are done
 * innermost first, all from one analysis of the procedure, so the phase is
 * linear in the procedure times the loop depth; values the phase makes are
 * not candidates in the loops around.  At most MAX_NEW per loop: each costs
 * a register across the loop. */
#include <stdlib.h>
#include <string.h>

#include "ir/dominators.h"
#include "ir/ice.h"
#include "ir/insertion_set.h"
#include "ir/loops.h"
#include "ir/use_counts.h"
#include "opt/phases.h"
#include "util/alloc.h"

#define PHASE "reduce_loop_strength"
#define COST_MIN 2
#define MAX_NEW 4

/* How a value relates to the loop being reduced (Form.kind). */
enum { F_UNSEEN, F_NONE, F_INVARIANT, F_AFFINE };

typedef struct {
    uint32_t stamp; /* the loop (index + 1) the rest is for */
    uint8_t kind;
    uint8_t outside_use, other_use, address_use, done;
    uint32_t iv;           /* F_AFFINE: index into LSR.ivs */
    B3Value *start, *step; /* materialized in the preheader; step NULL: 0 */
} Form;

typedef struct {
    B3Value *phi, *init, *s, *step_upsilon;
} BasicIV;

typedef struct {
    B3Module *m;
    B3Proc *p;
    B3Dominators dom;
    B3Loops loops;
    B3UseCounts uc;
    uint32_t nvalues;
    Form *form;
    /* Per value (dense id): the innermost loop holding its block and every
     * block that uses it (NULL: none). */
    B3Loop **scope;
    B3PhiUpsilons pu; /* per Phi (dense id): its Upsilons */
    /* The loop being reduced. */
    B3Loop *loop;
    uint32_t stamp;
    B3Block *pre;
    BasicIV *ivs;
    uint32_t nivs, cap_ivs;
    uint32_t nnew;
    /* One insertion set per block changed (the preheader, the header, the
     * blocks of the step Upsilons: these may coincide). */
    B3Block *set_block[2 + MAX_NEW];
    B3InsertionSet sets[2 + MAX_NEW];
    uint32_t nsets;
} LSR;

/* The innermost loop containing both a and b (NULL: none). */
static B3Loop *common_loop(B3Loop *a, B3Loop *b) {
    while (a && b && a != b) {
        if (a->depth >= b->depth)
            a = a->parent;
        else
            b = b->parent;
    }
    return a == b ? a : NULL;
}

static void compute_scopes(LSR *x) {
    x->scope = b3_xcalloc(PHASE, x->nvalues, sizeof *x->scope);
    for (uint32_t i = 0; i < x->nvalues; i++) {
        const B3Value *v = x->p->values[i];
        x->scope[i] = v->owner ? b3_loop_of(&x->loops, v->owner) : NULL;
    }
    for (uint32_t bi = 0; bi < x->p->nblocks; bi++) {
        B3Block *b = x->p->blocks[bi];
        B3Loop *lb = b3_loop_of(&x->loops, b);
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *u = b->values[i];
            for (uint32_t k = 0; k < u->nkids; k++) {
                uint32_t id = u->kids[k]->scratch;
                if (id < x->nvalues && x->p->values[id] == u->kids[k])
                    x->scope[id] = common_loop(x->scope[id], lb);
            }
        }
    }
}

static bool in_loop(const LSR *x, const B3Block *b) { return b && b3_loop_contains(&x->loops, x->loop, b); }

static bool is_leaf_constant(const B3Value *v) { return v->opcode == B3_Const32 || v->opcode == B3_Const64; }

static Form *form_of(LSR *x, const B3Value *v) {
    Form *f = &x->form[v->scratch];
    if (f->stamp != x->stamp) {
        memset(f, 0, sizeof *f);
        f->stamp = x->stamp;
    }
    return f;
}

/* Classifies v (memoized per loop). */
static uint8_t classify(LSR *x, B3Value *v) {
    if (v->scratch >= x->nvalues || x->p->values[v->scratch] != v)
        return F_NONE; /* made by this phase */
    Form *f = form_of(x, v);
    if (f->kind != F_UNSEEN)
        return f->kind;
    f->kind = F_NONE; /* also breaks cycles through Phis */
    if (!in_loop(x, v->owner) || is_leaf_constant(v)) {
        f->kind = F_INVARIANT;
        return f->kind;
    }
    if (v->opcode == B3_Phi) {
        for (uint32_t i = 0; i < x->nivs; i++)
            if (x->ivs[i].phi == v) {
                f->kind = F_AFFINE;
                f->iv = i;
            }
        return f->kind;
    }
    if (!b3_type_is_int((B3Type)v->type))
        return f->kind;
    uint8_t a, b;
    switch (v->opcode) {
    case B3_Add:
    case B3_Sub:
        a = classify(x, v->kids[0]);
        b = classify(x, v->kids[1]);
        if (a == F_INVARIANT && b == F_INVARIANT) {
            f->kind = F_NONE; /* left for hoisting: not ours to move */
        } else if (a == F_AFFINE && b == F_AFFINE) {
            if (form_of(x, v->kids[0])->iv == form_of(x, v->kids[1])->iv) {
                f->kind = F_AFFINE;
                f->iv = form_of(x, v->kids[0])->iv;
            }
        } else if ((a == F_AFFINE && b == F_INVARIANT) || (a == F_INVARIANT && b == F_AFFINE)) {
            f->kind = F_AFFINE;
            f->iv = form_of(x, v->kids[a == F_AFFINE ? 0 : 1])->iv;
        }
        break;
    case B3_Mul:
        a = classify(x, v->kids[0]);
        b = classify(x, v->kids[1]);
        if ((a == F_AFFINE && b == F_INVARIANT) || (a == F_INVARIANT && b == F_AFFINE)) {
            f->kind = F_AFFINE;
            f->iv = form_of(x, v->kids[a == F_AFFINE ? 0 : 1])->iv;
        }
        break;
    case B3_Shl:
        if (classify(x, v->kids[0]) == F_AFFINE && is_leaf_constant(v->kids[1])) {
            f->kind = F_AFFINE;
            f->iv = form_of(x, v->kids[0])->iv;
        }
        break;
    case B3_Neg:
        if (classify(x, v->kids[0]) == F_AFFINE) {
            f->kind = F_AFFINE;
            f->iv = form_of(x, v->kids[0])->iv;
        }
        break;
    default:
        break;
    }
    return f->kind;
}

static bool is_scaled_index(const B3Value *v) {
    int64_t c;
    if (v->opcode == B3_Shl && b3_value_int_const(v->kids[1], &c))
        return c >= 0 && c <= 3;
    if (v->opcode == B3_Mul && b3_value_int_const(v->kids[1], &c))
        return c == 1 || c == 2 || c == 4 || c == 8;
    return false;
}

static bool exclusive(LSR *x, const B3Value *v) {
    return classify(x, (B3Value *)v) == F_AFFINE && x->ivs[form_of(x, v)->iv].phi != v &&
           b3_use_count(&x->uc, v) == 1;
}

/* Operations computed on every trip for v, counting the subtrees only v
 * uses; a multiplication by a non-constant counts twice. */
static uint32_t tree_cost(LSR *x, B3Value *v, bool top) {
    if (classify(x, v) != F_AFFINE || x->ivs[form_of(x, v)->iv].phi == v)
        return 0;
    if (!top && b3_use_count(&x->uc, v) != 1)
        return 0;
    uint32_t c = 1;
    if (v->opcode == B3_Mul && !is_leaf_constant(v->kids[0]) && !is_leaf_constant(v->kids[1]))
        c = 2;
    for (uint32_t i = 0; i < v->nkids; i++)
        c += tree_cost(x, v->kids[i], false);
    return c;
}

/* What an address mode computes of v for free: base + index * scale + disp. */
static uint32_t absorbed(LSR *x, const B3Value *v) {
    if (v->opcode != B3_Add)
        return 0;
    uint32_t n = 1;
    const B3Value *a = v->kids[0], *b = v->kids[1];
    if (is_leaf_constant(b) && a->opcode == B3_Add && exclusive(x, a)) {
        n++;
        b = a->kids[1];
        a = a->kids[0];
    }
    if ((is_scaled_index(a) && exclusive(x, a)) || (is_scaled_index(b) && exclusive(x, b)))
        n++;
    return n;
}

/* ---- materializing S and D in the preheader ---- */

static B3InsertionSet *set_for(LSR *x, B3Block *b) {
    for (uint32_t i = 0; i < x->nsets; i++)
        if (x->set_block[i] == b)
            return &x->sets[i];
    if (x->nsets == 2 + MAX_NEW)
        b3_internal_error_at(PHASE, NULL, "too many blocks changed");
    x->set_block[x->nsets] = b;
    b3_insertion_set_init(&x->sets[x->nsets], x->m, x->p);
    return &x->sets[x->nsets++];
}

/* Before the preheader's terminator. */
static uint32_t pre_index(const LSR *x) { return x->pre->nvalues - 1; }

static B3Value *emit(LSR *x, B3Opcode op, B3Type t, B3Value *a, B3Value *b, const B3Value *origin) {
    B3Value *v = b3_insertion_set_insert_new(set_for(x, x->pre), pre_index(x), op, t, b ? 2 : 1, origin);
    v->kids[0] = a;
    if (b)
        v->kids[1] = b;
    else
        v->nkids = 1;
    return v;
}

/* An invariant value usable in the preheader: constants inside the loop are
 * copied there. */
static B3Value *invariant_here(LSR *x, B3Value *v) {
    if (!in_loop(x, v->owner))
        return v;
    return b3_insertion_set_insert_int_const(set_for(x, x->pre), pre_index(x), v, (B3Type)v->type, v->m.c.i);
}

static void materialize(LSR *x, B3Value *v) {
    Form *f = form_of(x, v);
    if (f->start)
        return;
    B3Type t = (B3Type)v->type;
    if (f->kind == F_INVARIANT) {
        f->start = invariant_here(x, v);
        f->step = NULL;
        return;
    }
    const BasicIV *iv = &x->ivs[f->iv];
    if (v == iv->phi) {
        f->start = iv->init;
        f->step = invariant_here(x, iv->s);
        return;
    }
    for (uint32_t i = 0; i < v->nkids && i < 2; i++)
        if (v->opcode != B3_Shl || i == 0)
            materialize(x, v->kids[i]);
    Form *fa = form_of(x, v->kids[0]);
    Form *fb = v->nkids > 1 ? form_of(x, v->kids[1]) : NULL;
    switch (v->opcode) {
    case B3_Add:
        f->start = emit(x, B3_Add, t, fa->start, fb->start, v);
        f->step = !fa->step ? fb->step : !fb->step ? fa->step : emit(x, B3_Add, t, fa->step, fb->step, v);
        break;
    case B3_Sub:
        f->start = emit(x, B3_Sub, t, fa->start, fb->start, v);
        f->step = !fb->step   ? fa->step
                  : !fa->step ? emit(x, B3_Neg, t, fb->step, NULL, v)
                              : emit(x, B3_Sub, t, fa->step, fb->step, v);
        break;
    case B3_Mul: {
        Form *aff = fa->kind == F_AFFINE ? fa : fb, *inv = fa->kind == F_AFFINE ? fb : fa;
        f->start = emit(x, B3_Mul, t, fa->start, fb->start, v);
        f->step = aff->step ? emit(x, B3_Mul, t, aff->step, inv->start, v) : NULL;
        break;
    }
    case B3_Shl: {
        B3Value *amount = invariant_here(x, v->kids[1]);
        f->start = emit(x, B3_Shl, t, fa->start, amount, v);
        f->step = fa->step ? emit(x, B3_Shl, t, fa->step, amount, v) : NULL;
        break;
    }
    case B3_Neg:
        f->start = emit(x, B3_Neg, t, fa->start, NULL, v);
        f->step = fa->step ? emit(x, B3_Neg, t, fa->step, NULL, v) : NULL;
        break;
    default:
        b3_internal_error_at(PHASE, v, "not an affine operation");
    }
}

static uint32_t index_in_block(const B3Value *v) {
    const B3Block *b = v->owner;
    for (uint32_t i = 0; i < b->nvalues; i++)
        if (b->values[i] == v)
            return i;
    return UINT32_MAX;
}

static void make_induction_variable(LSR *x, B3Value *v) {
    Form *f = form_of(x, v);
    materialize(x, v);
    B3Type t = (B3Type)v->type;
    B3Value *q = b3_insertion_set_insert_new(set_for(x, x->loop->header), 0, B3_Phi, t, 0, v);
    B3Value *u0 = b3_insertion_set_insert_new(set_for(x, x->pre), pre_index(x), B3_Upsilon, B3_Void, 1, v);
    u0->kids[0] = f->start;
    u0->m.phi = q;
    const BasicIV *iv = &x->ivs[f->iv];
    B3InsertionSet *ls = set_for(x, iv->step_upsilon->owner);
    uint32_t at = index_in_block(iv->step_upsilon);
    B3Value *next = q;
    if (f->step) {
        next = b3_insertion_set_insert_new(ls, at, B3_Add, t, 2, v);
        next->kids[0] = q;
        next->kids[1] = f->step;
    }
    B3Value *u1 = b3_insertion_set_insert_new(ls, at, B3_Upsilon, B3_Void, 1, v);
    u1->kids[0] = next;
    u1->m.phi = q;
    b3_value_replace_with_identity(v, q);
    f->done = 1;
    x->nnew++;
}

/* Top-down from a root: reduce v if it pays, else look below it. */
static void consider(LSR *x, B3Value *v, bool root) {
    if (x->nnew >= MAX_NEW || classify(x, v) != F_AFFINE)
        return;
    Form *f = form_of(x, v);
    if (f->done || x->ivs[f->iv].phi == v || f->outside_use)
        return;
    f->done = 1;
    uint32_t cost = tree_cost(x, v, true);
    if (!f->other_use && f->address_use)
        cost -= absorbed(x, v) < cost ? absorbed(x, v) : cost;
    if (cost >= COST_MIN && (root || b3_use_count(&x->uc, v) > 1)) {
        /* A shared inner value is reduced once for all its users; a value
         * only one tree uses is left to that tree's root. */
        make_induction_variable(x, v);
        return;
    }
    if (v->opcode == B3_Shl) {
        consider(x, v->kids[0], false);
        return;
    }
    for (uint32_t i = 0; i < v->nkids; i++)
        consider(x, v->kids[i], false);
}

static bool is_address_use(const B3Value *u, uint32_t k) {
    uint32_t fl = b3_op(u->opcode)->flags;
    if (fl & B3OF_ATOMIC)
        return false;
    return ((fl & B3OF_LOAD) && k == 0) || ((fl & B3OF_STORE) && k == 1);
}

static void find_basic_ivs(LSR *x) {
    x->nivs = 0;
    B3Block *h = x->loop->header;
    for (uint32_t i = 0; i < h->nvalues; i++) {
        B3Value *phi = h->values[i];
        B3Value *ua, *ub;
        if (!b3_type_is_int((B3Type)phi->type) ||
            !b3_loop_phi_init_and_step(&x->loops, &x->dom, x->loop, x->pre, &x->pu, phi, &ua, &ub))
            continue;
        B3Value *st = ub->kids[0];
        if (st->opcode != B3_Add || st->type != phi->type)
            continue;
        B3Value *s = st->kids[0] == phi ? st->kids[1] : st->kids[1] == phi ? st->kids[0] : NULL;
        if (!s || (in_loop(x, s->owner) && !is_leaf_constant(s)))
            continue;
        if (x->nivs == x->cap_ivs) {
            x->cap_ivs = x->cap_ivs ? 2 * x->cap_ivs : 8;
            x->ivs = b3_xrealloc(PHASE, x->ivs, x->cap_ivs * sizeof *x->ivs);
        }
        x->ivs[x->nivs++] = (BasicIV){phi, ua->kids[0], s, ub};
    }
}

/* Reduces one loop; returns whether anything changed. */
static bool reduce_loop(LSR *x, B3Loop *loop) {
    x->loop = loop;
    x->stamp++;
    x->pre = b3_loop_preheader(&x->loops, loop);
    if (!x->pre || !x->pre->nvalues)
        return false;
    find_basic_ivs(x);
    if (!x->nivs)
        return false;
    /* Mark how each affine value is used. */
    bool any = false;
    for (uint32_t bi = 0; bi < loop->nblocks; bi++) {
        B3Block *b = loop->blocks[bi];
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *u = b->values[i];
            bool affine_user = classify(x, u) == F_AFFINE;
            for (uint32_t k = 0; k < u->nkids; k++) {
                B3Value *v = u->kids[k];
                if (v->scratch >= x->nvalues || x->p->values[v->scratch] != v || !in_loop(x, v->owner) ||
                    classify(x, v) != F_AFFINE)
                    continue;
                Form *f = form_of(x, v);
                B3Loop *sc = x->scope[v->scratch];
                if (!sc || !b3_loop_contains_loop(loop, sc))
                    f->outside_use = 1;
                if (is_address_use(u, k))
                    f->address_use = 1;
                else if (!affine_user)
                    f->other_use = 1;
                any = true;
            }
        }
    }
    if (!any)
        return false;
    x->nnew = 0;
    x->nsets = 0;
    /* Roots: affine values some non-affine value uses, in the loop's own
     * blocks (a value of an inner loop is invariant there, and hoisted). */
    for (uint32_t bi = 0; bi < loop->own; bi++) {
        B3Block *b = loop->blocks[bi];
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *v = b->values[i];
            if (classify(x, v) != F_AFFINE)
                continue;
            Form *f = form_of(x, v);
            if (f->address_use || f->other_use)
                consider(x, v, true);
        }
    }
    for (uint32_t i = 0; i < x->nsets; i++) {
        b3_insertion_set_execute(&x->sets[i], x->set_block[i]);
        b3_insertion_set_free(&x->sets[i]);
    }
    return x->nnew > 0;
}

static void analyze(LSR *x) {
    x->nvalues = b3_proc_number_values(x->p);
    b3_use_counts_compute(&x->uc, x->p);
    x->form = b3_xcalloc(PHASE, x->nvalues, sizeof *x->form);
    b3_phi_upsilons_compute(&x->pu, x->p, x->nvalues);
    compute_scopes(x);
}

bool b3_reduce_loop_strength(B3Module *m, B3Proc *p) {
    LSR x = {.m = m, .p = p};
    bool changed = b3_loops_compute_with_preheaders(m, p, &x.dom, &x.loops);
    if (!x.loops.nloops) {
        b3_loops_free(&x.loops);
        b3_dominators_free(&x.dom);
        return false;
    }
    analyze(&x);
    /* Inner loops come after the loops around them in the array.  One
     * analysis serves all loops: values this phase makes are no candidates
     * (their dense ids are not set), and the use counts it leaves stale only
     * grow too large, which keeps cost estimates on the safe side. */
    bool reduced = false;
    for (uint32_t li = x.loops.nloops; li-- > 0;)
        reduced |= reduce_loop(&x, &x.loops.loops[li]);
    if (reduced) {
        changed = true;
        b3_proc_remove_identities(m, p);
    }
    b3_use_counts_free(&x.uc);
    free(x.form);
    free(x.scope);
    b3_phi_upsilons_free(&x.pu);
    free(x.ivs);
    b3_loops_free(&x.loops);
    b3_dominators_free(&x.dom);
    return changed;
}
