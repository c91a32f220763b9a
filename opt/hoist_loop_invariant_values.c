/* hoist_loop_invariant_values (-O2): B3's hoistLoopInvariantValues.
 *
 * Every loop gets a preheader (b3_loops_ensure_preheaders).  Then, visiting
 * blocks in dominator-tree preorder (a value's children are placed before
 * it is considered), a value moves to the end of the preheader of the
 * outermost loop around it that it can leave:
 *
 * - it is pure (b3_value_is_pure), or it is a load (see below);
 * - none of its children is defined in that loop (equivalently, since they
 *   dominate the value: each child's block dominates the preheader), but
 *   for values without children (constants, SlotBase, SymbolAddress,
 *   ArgumentReg), which stay where they are and go along as a copy;
 * - nothing in the loop, inner loops included, writes a heap range it reads,
 *   writes local state if it reads some, or writes the pinned registers if
 *   it reads them.
 *
 * Loads are control dependent: a load may fault where the program would not
 * have executed it (the loop may run zero times behind a guard).  B3 hoists
 * a control-dependent value only when its block backward-dominates the
 * preheader and the loop has no side exit at all.  Here the same idea, made
 * precise without post-dominators: a load moves only if every entry into
 * the loop executes it before anything else can happen — its block is on
 * the straight-line chain of single successors that starts at the loop's
 * header, and no value before it on that chain exits sideways.  Then the
 * hoisted load runs where the original's first execution would have run,
 * with nothing between them writing its range, and reads the same value.
 *
 * Never moved: anything that must execute (stores, calls, checks, Upsilons,
 * Load<Traps>, which exits sideways, fences and fenced accesses); Opaque (not
 * pure); a division that may fault (control dependent and not a load: the
 * loop may be guarded against exactly that fault); Phis and Gets (not
 * pure); values without children (see is_leaf).  A value leaves at most
 * MAX_LEVELS loops at once, so that deep nests stay linear. */
#include <stdlib.h>
#include <string.h>

#include "ir/dominators.h"
#include "ir/effects.h"
#include "ir/heap_set.h"
#include "ir/ice.h"
#include "ir/loops.h"
#include "opt/phases.h"
#include "util/alloc.h"
#include "util/vec.h"

#define PHASE "hoist_loop_invariant_values"
#define MAX_LEVELS 64 /* loops one value may leave; also the longest header chain followed */

/* What a loop (inner loops included) does that keeps values inside. */
typedef struct {
    B3HeapSet writes;
    bool writes_local, writes_pinned;
    B3Block *preheader;
} LoopData;

typedef struct {
    B3Proc *p;
    B3Dominators dom;
    B3Loops loops;
    LoopData *data;
    /* By block position: the smallest depth of a loop whose every entry runs
     * the block (0: none), and the index of its first side exit. */
    uint32_t *guard, *first_exit;
} Licm;

static void analyze(Licm *x) {
    B3Proc *p = x->p;
    uint32_t nb = p->nblocks, nl = x->loops.nloops;
    x->data = b3_xcalloc(PHASE, nl, sizeof *x->data);
    x->guard = b3_xcalloc(PHASE, nb, sizeof *x->guard);
    x->first_exit = b3_xcalloc(PHASE, nb, sizeof *x->first_exit);
    for (uint32_t bi = 0; bi < nb; bi++) {
        B3Block *b = p->blocks[bi];
        B3Loop *loop = b3_loop_of(&x->loops, b);
        x->first_exit[bi] = b->nvalues;
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Effects e = b3_effects(b->values[i]);
            if (e.exits_sideways && x->first_exit[bi] == b->nvalues)
                x->first_exit[bi] = i;
            if (!loop)
                continue;
            LoopData *d = &x->data[loop->index];
            b3_heap_set_add(&d->writes, e.writes);
            d->writes_local |= e.writes_local_state;
            d->writes_pinned |= e.writes_pinned;
        }
    }
    /* Inner loops have larger indices than the loops around them. */
    for (uint32_t i = nl; i-- > 0;) {
        const B3Loop *loop = &x->loops.loops[i];
        x->data[i].preheader = b3_loop_preheader(&x->loops, loop);
        if (loop->parent) {
            LoopData *d = &x->data[i], *pd = &x->data[loop->parent->index];
            b3_heap_set_add_all(&pd->writes, &d->writes);
            pd->writes_local |= d->writes_local;
            pd->writes_pinned |= d->writes_pinned;
        }
    }
    /* Each loop's header chain: blocks that run, one after the other, every
     * time the loop is entered.  A block on the chain of a loop is on the
     * chains of the loops inside it that contain it (the same walk), so the
     * outermost such loop's depth says it all. */
    uint32_t *seen = b3_xcalloc(PHASE, nb, sizeof *seen);
    for (uint32_t i = 0; i < nl; i++) {
        const B3Loop *loop = &x->loops.loops[i];
        B3Block *b = loop->header;
        for (uint32_t steps = 0; steps < MAX_LEVELS; steps++) {
            seen[b->pos] = i + 1;
            if (!x->guard[b->pos] || x->guard[b->pos] > loop->depth)
                x->guard[b->pos] = loop->depth;
            if (x->first_exit[b->pos] < b->nvalues || b->nsuccs != 1)
                break;
            B3Block *s = b->succs[0].block;
            if (!b3_loop_contains(&x->loops, loop, s) || seen[s->pos] == i + 1)
                break;
            b = s;
        }
    }
    free(seen);
}

/* A pure value without children: a constant, SlotBase, SymbolAddress,
 * ArgumentReg, FramePointer.  It costs nothing to compute where it is (the
 * lowering makes it an immediate, an address operand or one lea), so it
 * stays, and a value that leaves a loop takes its own copy along instead:
 * hoisted, it would only hold a register across the loop (B3 hoists them,
 * then sinks them again in moveConstants). */
static bool is_leaf(const B3Value *v) { return !v->nkids && b3_value_is_pure(v); }

/* May v, at index i of block b, leave loop?  (Its leaf children go along.) */
static bool may_leave(const Licm *x, const B3Value *v, B3Effects e, const B3Block *b, uint32_t i,
                      const B3Loop *loop) {
    const LoopData *d = &x->data[loop->index];
    if (!d->preheader)
        return false;
    for (uint32_t k = 0; k < v->nkids; k++)
        if (!is_leaf(v->kids[k]) &&
            (!v->kids[k]->owner || b3_loop_contains(&x->loops, loop, v->kids[k]->owner)))
            return false;
    if (b3_heap_set_overlaps(&d->writes, e.reads) || (e.reads_local_state && d->writes_local) ||
        (e.reads_pinned && d->writes_pinned))
        return false;
    if (e.control_dependent)
        return x->guard[b->pos] && x->guard[b->pos] <= loop->depth && i < x->first_exit[b->pos];
    return true;
}

static bool hoistable(const B3Value *v, B3Effects e) {
    if (is_leaf(v) || b3_effects_must_execute(e))
        return false;
    return b3_value_is_pure(v) || (b3_op((B3Opcode)v->opcode)->flags & B3OF_LOAD);
}

typedef struct {
    B3Block *to;
    B3Value *v;
} Move;

typedef struct {
    Move *a;
    uint32_t n, cap;
    /* By dense value id: the copy of a leaf last made, and where. */
    B3Value **copy;
    B3Block **copy_in;
    uint32_t nvalues;
} Moves;

static void add_move(Moves *mv, B3Block *to, B3Value *v) {
    B3_VEC_RESERVE(PHASE, mv->a, mv->cap, mv->n + 1);
    mv->a[mv->n++] = (Move){to, v};
    v->owner = to;
}

/* Moves v to the preheader `to` of `loop`, with a copy there of each leaf
 * child still inside the loop (one copy per leaf and preheader). */
static void hoist(B3Module *m, B3Proc *p, const Licm *x, Moves *mv, B3Value *v, const B3Loop *loop,
                  B3Block *to) {
    for (uint32_t k = 0; k < v->nkids; k++) {
        B3Value *leaf = v->kids[k];
        if (!is_leaf(leaf) || !leaf->owner || !b3_loop_contains(&x->loops, loop, leaf->owner))
            continue;
        uint32_t id = leaf->scratch;
        bool numbered = id < mv->nvalues && p->values[id] == leaf;
        if (numbered && mv->copy_in[id] == to) {
            v->kids[k] = mv->copy[id];
            continue;
        }
        B3Value *c = b3_value_new(m, p, (B3Opcode)leaf->opcode, (B3Type)leaf->type, 0, UINT32_MAX);
        c->kflags = leaf->kflags;
        c->m = leaf->m;
        c->loc = leaf->loc;
        c->type_loc = leaf->type_loc;
        add_move(mv, to, c);
        if (numbered) {
            mv->copy[id] = c;
            mv->copy_in[id] = to;
        }
        v->kids[k] = c;
    }
    add_move(mv, to, v);
}

/* Puts each moved value at the end of its preheader, before the terminal, in
 * the order they moved (children first). */
static void place(B3Module *m, B3Proc *p, Move *moves, uint32_t nmoves) {
    uint32_t nb = p->nblocks;
    uint32_t *start = b3_xcalloc(PHASE, nb + 1, sizeof *start);
    for (uint32_t i = 0; i < nmoves; i++)
        start[moves[i].to->pos + 1]++;
    for (uint32_t i = 0; i < nb; i++)
        start[i + 1] += start[i];
    B3Value **sorted = b3_xcalloc(PHASE, nmoves, sizeof *sorted);
    uint32_t *fill = b3_xcalloc(PHASE, nb, sizeof *fill);
    for (uint32_t i = 0; i < nmoves; i++)
        sorted[start[moves[i].to->pos] + fill[moves[i].to->pos]++] = moves[i].v;
    for (uint32_t bi = 0; bi < nb; bi++) {
        uint32_t k = start[bi + 1] - start[bi];
        if (!k)
            continue;
        B3Block *b = p->blocks[bi];
        uint32_t n = b->nvalues + k;
        B3Value **vals = b3_arena_alloc(&m->arena, n * sizeof *vals);
        uint32_t body = b->nvalues - 1; /* a preheader ends with its Jump */
        memcpy(vals, b->values, body * sizeof *vals);
        memcpy(vals + body, sorted + start[bi], k * sizeof *vals);
        vals[n - 1] = b->values[body];
        b->values = vals;
        b->nvalues = b->cap_values = n;
    }
    free(fill);
    free(sorted);
    free(start);
}

bool b3_hoist_loop_invariant_values(B3Module *m, B3Proc *p) {
    Licm x = {.p = p};
    bool changed = b3_loops_compute_with_preheaders(m, p, &x.dom, &x.loops);
    if (!x.loops.nloops) {
        b3_loops_free(&x.loops);
        b3_dominators_free(&x.dom);
        return false;
    }
    analyze(&x);

    Moves mv = {0};
    mv.nvalues = b3_proc_number_values(p);
    mv.copy = b3_xcalloc(PHASE, mv.nvalues, sizeof *mv.copy);
    mv.copy_in = b3_xcalloc(PHASE, mv.nvalues, sizeof *mv.copy_in);
    for (uint32_t k = 0; k < x.dom.norder; k++) {
        B3Block *b = x.dom.order[k];
        B3Loop *inner = b3_loop_of(&x.loops, b);
        if (!inner)
            continue;
        uint32_t kept = 0;
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *v = b->values[i];
            B3Effects e = b3_effects(v);
            B3Loop *target = NULL;
            if (hoistable(v, e)) {
                /* The loops it may leave are the innermost ones up to some
                 * level: climb while it may. */
                B3Loop *loop = inner;
                for (uint32_t lv = 0; loop && lv < MAX_LEVELS && may_leave(&x, v, e, b, i, loop); lv++) {
                    target = loop;
                    loop = loop->parent;
                }
            }
            if (target)
                hoist(m, p, &x, &mv, v, target, x.data[target->index].preheader);
            else
                b->values[kept++] = v;
        }
        b->nvalues = kept;
    }
    if (mv.n) {
        place(m, p, mv.a, mv.n);
        changed = true;
    }
    free(mv.a);
    free(mv.copy);
    free(mv.copy_in);
    free(x.guard);
    free(x.first_exit);
    free(x.data);
    b3_loops_free(&x.loops);
    b3_dominators_free(&x.dom);
    return changed;
}
