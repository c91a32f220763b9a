/* fold_path_constants (-O2): B3's foldPathConstants.
 *
 * The edges out of a Branch or Switch tell something about the value tested:
 *   Branch(y):  taken, y != 0 (and y == 1 if y is a comparison); not taken,
 *               y == 0;
 *   Branch(Equal(x, k)): taken, x == k too; Branch(NotEqual(x, k)): not
 *               taken, x == k too (integer x only: 0.0 == -0.0);
 *   Switch(x):  the edge of case k, x == k (when no other edge of the Switch
 *               goes to the same block).
 * A fact holds in the blocks that edge dominates: its target, when that
 * target has no other predecessor (and is not the root, entered from
 * outside), and the blocks the target dominates.  There, uses of the value
 * read a constant (one per fact, placed at the top of the target), and a
 * Branch or Switch on it becomes a Jump to the successor it must take.
 * reduce_strength, after lower_macros, folds what the constants expose.
 *
 * The value must be defined in a block that strictly dominates the target,
 * so that the uses below see the same execution of it that the Branch
 * tested (in a loop, a value defined in the target itself is a new one).
 *
 * One walk of the dominator tree, with the fact in force for each value
 * kept in an array and undone on the way back up: linear in the size of
 * the procedure, however many facts one value has (a Switch with thousands
 * of cases).
 *
 * Left alone: constants (nothing to learn), Opaque and Depend both as the
 * value tested and as users (Opaque is opaque to every phase; Depend's
 * dependence on its child is its meaning), and the children of stackmap
 * values (their constraints are about where a value lives). */
#include <stdlib.h>
#include <string.h>

#include "ir/dominators.h"
#include "ir/ice.h"
#include "ir/insertion_set.h"
#include "opt/phases.h"
#include "util/alloc.h"

#define PHASE "fold_path_constants"

enum { Fact_Const, Fact_NonZero };

typedef struct {
    B3Value *v;
    uint8_t kind;
    int64_t c;
    B3Value *made;  /* the constant, once a use needed it */
    uint32_t saved; /* the fact for v in force above this block */
} Fact;

#define FACTS_PER_BLOCK 2

typedef struct {
    B3Module *m;
    B3Proc *p;
    B3Dominators dom;
    uint32_t nv;
    Fact *facts; /* FACTS_PER_BLOCK per block position */
    uint8_t *nfacts;
    uint32_t *cur; /* by dense value id: 1 + index in facts of the fact in force, or 0 */
} FP;

static bool opaque_to_us(const B3Value *v) { return v->opcode == B3_Opaque || v->opcode == B3_Depend; }

static void add_fact(FP *fp, const B3Block *from, B3Block *to, B3Value *v, uint8_t kind, int64_t c) {
    if (to == fp->p->blocks[0] || to == from || to->npreds != 1 || fp->nfacts[to->pos] == FACTS_PER_BLOCK)
        return;
    if (b3_value_is_const(v) || opaque_to_us(v) || !v->owner ||
        !b3_strictly_dominates(&fp->dom, v->owner, to) || !b3_block_reachable(&fp->dom, to))
        return;
    if (kind == Fact_NonZero && (b3_op((B3Opcode)v->opcode)->flags & B3OF_COMPARE)) {
        kind = Fact_Const; /* a comparison is 0 or 1 */
        c = 1;
    }
    if (kind == Fact_Const)
        c = v->type == B3_Int32 ? (int64_t)(int32_t)c : c;
    Fact *f = &fp->facts[to->pos * FACTS_PER_BLOCK + fp->nfacts[to->pos]++];
    *f = (Fact){.v = v, .kind = kind, .c = c};
}

/* x compared with a constant: x and the constant, or false. */
static bool compare_with_const(const B3Value *y, B3Value **x, int64_t *k) {
    if (!b3_type_is_int((B3Type)y->kids[0]->type))
        return false;
    int64_t other;
    if (b3_value_int_const(y->kids[1], k) && !b3_value_int_const(y->kids[0], &other)) {
        *x = y->kids[0];
        return true;
    }
    if (b3_value_int_const(y->kids[0], k) && !b3_value_int_const(y->kids[1], &other)) {
        *x = y->kids[1];
        return true;
    }
    return false;
}

static void find_facts(FP *fp) {
    B3Proc *p = fp->p;
    uint32_t *edges = b3_xcalloc(PHASE, p->nblocks, sizeof *edges);
    for (uint32_t bi = 0; bi < p->nblocks; bi++) {
        B3Block *b = p->blocks[bi];
        B3Value *t = b3_block_last(b);
        if (!t || !b3_block_reachable(&fp->dom, b))
            continue;
        if (t->opcode == B3_Branch && b->nsuccs == 2 && b->succs[0].block != b->succs[1].block) {
            B3Value *y = t->kids[0], *x;
            B3Block *then = b->succs[0].block, *other = b->succs[1].block;
            int64_t k;
            add_fact(fp, b, then, y, Fact_NonZero, 0);
            add_fact(fp, b, other, y, Fact_Const, 0);
            if (y->opcode == B3_Equal && compare_with_const(y, &x, &k))
                add_fact(fp, b, then, x, Fact_Const, k);
            if (y->opcode == B3_NotEqual && compare_with_const(y, &x, &k))
                add_fact(fp, b, other, x, Fact_Const, k);
        } else if (t->opcode == B3_Switch && b->nsuccs == t->m.sw.ncases + 1) {
            /* A target with one predecessor may still be reached by two
             * edges of the Switch (preds list a block once): count them. */
            for (uint32_t i = 0; i < b->nsuccs; i++)
                edges[b->succs[i].block->pos]++;
            for (uint32_t i = 0; i < t->m.sw.ncases; i++) {
                B3Block *to = b->succs[i].block;
                if (edges[to->pos] == 1)
                    add_fact(fp, b, to, t->kids[0], Fact_Const, t->m.sw.cases[i]);
            }
            for (uint32_t i = 0; i < b->nsuccs; i++)
                edges[b->succs[i].block->pos] = 0;
        }
    }
    free(edges);
}

static Fact *fact_for(FP *fp, const B3Value *v) {
    if (v->scratch >= fp->nv || fp->p->values[v->scratch] != v || !fp->cur[v->scratch])
        return NULL;
    return &fp->facts[fp->cur[v->scratch] - 1];
}

static B3Value *constant_of(FP *fp, Fact *f) {
    if (!f->made) {
        f->made = b3_value_new(fp->m, fp->p, f->v->type == B3_Int32 ? B3_Const32 : B3_Const64,
                               (B3Type)f->v->type, 0, UINT32_MAX);
        f->made->m.c.i = f->c;
        f->made->loc = f->v->loc;
        f->made->type_loc = f->v->loc;
    }
    return f->made;
}

/* b ends in a Jump to its successor `keep`. */
static void jump_to(B3Value *t, B3Block *b, uint32_t keep) {
    b->succs[0] = b->succs[keep];
    b->nsuccs = 1;
    t->opcode = B3_Jump;
    t->nkids = 0;
    t->kid_locs = NULL;
    memset(&t->m, 0, sizeof t->m);
}

/* Uses the facts in force in b; returns whether b's successors changed. */
static bool fold_block(FP *fp, B3Block *b, bool *changed) {
    for (uint32_t i = 0; i < b->nvalues; i++) {
        B3Value *u = b->values[i];
        if (opaque_to_us(u) || (b3_op((B3Opcode)u->opcode)->flags & B3OF_STACKMAP))
            continue;
        if (u->opcode == B3_Branch && b->nsuccs == 2) {
            Fact *f = fact_for(fp, u->kids[0]);
            if (f) {
                jump_to(u, b, f->kind == Fact_NonZero || f->c != 0 ? 0 : 1);
                *changed = true;
                return true;
            }
        }
        if (u->opcode == B3_Switch && b->nsuccs == u->m.sw.ncases + 1) {
            Fact *f = fact_for(fp, u->kids[0]);
            if (f && f->kind == Fact_Const) {
                uint32_t to = u->m.sw.ncases;
                bool i32 = u->kids[0]->type == B3_Int32;
                for (uint32_t k = 0; k < u->m.sw.ncases; k++)
                    if ((i32 ? (int64_t)(int32_t)u->m.sw.cases[k] : u->m.sw.cases[k]) == f->c)
                        to = k;
                jump_to(u, b, to);
                *changed = true;
                return true;
            }
        }
        for (uint32_t k = 0; k < u->nkids; k++) {
            Fact *f = fact_for(fp, u->kids[k]);
            if (f && f->kind == Fact_Const) {
                u->kids[k] = constant_of(fp, f);
                *changed = true;
            }
        }
    }
    return false;
}

static void enter(FP *fp, const B3Block *b) {
    for (uint32_t k = 0; k < fp->nfacts[b->pos]; k++) {
        uint32_t idx = b->pos * FACTS_PER_BLOCK + k;
        Fact *f = &fp->facts[idx];
        f->saved = fp->cur[f->v->scratch];
        fp->cur[f->v->scratch] = idx + 1;
    }
}

static void leave(FP *fp, const B3Block *b) {
    for (uint32_t k = fp->nfacts[b->pos]; k-- > 0;) {
        Fact *f = &fp->facts[b->pos * FACTS_PER_BLOCK + k];
        fp->cur[f->v->scratch] = f->saved;
    }
}

bool b3_fold_path_constants(B3Module *m, B3Proc *p) {
    if (p->nblocks < 2)
        return false;
    FP fp = {.m = m, .p = p};
    fp.nv = b3_proc_number_values(p);
    b3_dominators_compute(&fp.dom, p);
    fp.facts = b3_xcalloc(PHASE, (size_t)p->nblocks * FACTS_PER_BLOCK, sizeof *fp.facts);
    fp.nfacts = b3_xcalloc(PHASE, p->nblocks, 1);
    find_facts(&fp);
    bool any = false;
    for (uint32_t i = 0; i < p->nblocks && !any; i++)
        any = fp.nfacts[i] != 0;
    bool changed = false, cfg_changed = false;
    if (any) {
        fp.cur = b3_xcalloc(PHASE, fp.nv, sizeof *fp.cur);
        /* Preorder of the dominator tree, with the blocks whose subtree we
         * are in on a stack: a block is left when the walk reaches one it
         * does not dominate. */
        B3Block **stack = b3_xcalloc(PHASE, fp.dom.norder, sizeof *stack);
        uint32_t sp = 0;
        for (uint32_t i = 0; i < fp.dom.norder; i++) {
            B3Block *b = fp.dom.order[i];
            while (sp && !b3_dominates(&fp.dom, stack[sp - 1], b))
                leave(&fp, stack[--sp]);
            enter(&fp, b);
            stack[sp++] = b;
            cfg_changed |= fold_block(&fp, b, &changed);
        }
        while (sp)
            leave(&fp, stack[--sp]);
        free(stack);
        /* The constants go at the top of the blocks whose facts they are. */
        B3InsertionSet ins;
        b3_insertion_set_init(&ins, m, p);
        for (uint32_t bi = 0; bi < p->nblocks; bi++) {
            B3Block *b = p->blocks[bi];
            for (uint32_t k = 0; k < fp.nfacts[bi]; k++) {
                Fact *f = &fp.facts[bi * FACTS_PER_BLOCK + k];
                if (f->made)
                    b3_insertion_set_insert(&ins, 0, f->made);
            }
            b3_insertion_set_execute(&ins, b);
        }
        b3_insertion_set_free(&ins);
        free(fp.cur);
    }
    free(fp.facts);
    free(fp.nfacts);
    b3_dominators_free(&fp.dom);
    if (cfg_changed) {
        b3_proc_compute_preds(m, p);
        b3_proc_remove_unreachable(m, p);
    }
    return changed;
}
