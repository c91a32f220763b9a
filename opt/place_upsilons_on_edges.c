/* b3_place_upsilons_on_edges: an Upsilon runs where it stands.  One in a
 * block that ends in a Branch or Switch, for a Phi of one of its
 * successors, so runs on every way out of the block, though only the edge
 * into that successor needs it.  A C front end's IR has many of these: a
 * state machine's loops exit to a block that saves every local (bzip2's
 * and xz's decoders: two dozen Phis there), and every test that may leave
 * the loop then writes all of them on every trip; the switch that resumes
 * such a machine writes the Phis of every state before it picks one.
 *
 * Here those Upsilons move into a new block on the edge (B -> E -> T), so
 * they run only when the edge is taken, as LLVM places a Phi's copies on
 * split critical edges.  An Upsilon moves only if every other predecessor
 * of T writes the same Phi too: the value it stores then cannot reach T by
 * another way, so nothing else read it.  A successor reached by two of B's
 * edges keeps its Upsilons in B.  Runs last at -O2, just before lowering:
 * no later B3 phase merges the blocks back. */
#include <stdlib.h>

#include "ir/ir.h"
#include "opt/phases.h"
#include "util/alloc.h"

#define PHASE "place_upsilons_on_edges"

static bool is_succ(const B3Block *b, const B3Block *t) {
    for (uint32_t s = 0; s < b->nsuccs; s++)
        if (b->succs[s].block == t)
            return true;
    return false;
}

/* Per Phi (dense id): how many distinct predecessors of its block write it. */
static uint32_t *count_writers(B3Proc *p, uint32_t nv) {
    uint32_t *count = b3_xcalloc(PHASE, nv ? nv : 1, sizeof(uint32_t));
    const B3Block **last = b3_xcalloc(PHASE, nv ? nv : 1, sizeof(B3Block *));
    for (uint32_t bi = 0; bi < p->nblocks; bi++) {
        const B3Block *b = p->blocks[bi];
        for (uint32_t i = 0; i < b->nvalues; i++) {
            const B3Value *u = b->values[i];
            if (u->opcode != B3_Upsilon || !u->m.phi || u->m.phi->scratch >= nv ||
                last[u->m.phi->scratch] == b || !u->m.phi->owner || !is_succ(b, u->m.phi->owner))
                continue;
            last[u->m.phi->scratch] = b;
            count[u->m.phi->scratch]++;
        }
    }
    free(last);
    return count;
}

/* Per block (by position): how many distinct blocks precede it. */
static uint32_t *count_distinct_preds(const B3Proc *p) {
    uint32_t nb = p->nblocks;
    uint32_t *n = b3_xcalloc(PHASE, nb ? nb : 1, sizeof(uint32_t));
    uint32_t *seen = b3_xcalloc(PHASE, nb ? nb : 1, sizeof(uint32_t)); /* pred position: 1 + block's */
    for (uint32_t bi = 0; bi < nb; bi++) {
        const B3Block *b = p->blocks[bi];
        for (uint32_t i = 0; i < b->npreds; i++)
            if (seen[b->preds[i]->pos] != bi + 1) {
                seen[b->preds[i]->pos] = bi + 1;
                n[bi]++;
            }
    }
    free(seen);
    return n;
}

/* Does u write a Phi of t that every predecessor of t writes? */
static bool movable(const B3Value *u, const B3Block *t, const uint32_t *count, uint32_t nv,
                    uint32_t npreds_t) {
    return u->opcode == B3_Upsilon && u->m.phi && u->m.phi->owner == t && u->m.phi->scratch < nv &&
           count[u->m.phi->scratch] == npreds_t;
}

/* A new block on the edge b -> t (successor s), holding nothing yet but
 * the jump on. */
static B3Block *edge_block(B3Module *m, B3Proc *p, B3Block *b, uint32_t s) {
    B3Block *t = b->succs[s].block;
    B3Block *e = b3_block_new(m, p, UINT32_MAX);
    e->loc = e->succ_loc = t->loc;
    e->frequency = b->frequency < t->frequency ? b->frequency : t->frequency;
    e->succs = b3_arena_alloc(&m->arena, sizeof(B3Succ));
    e->succs[0] = (B3Succ){t, B3Freq_Normal};
    e->nsuccs = 1;
    b->succs[s].block = e;
    return e;
}

bool b3_place_upsilons_on_edges(B3Module *m, B3Proc *p) {
    uint32_t nv = b3_proc_number_values(p);
    uint32_t *count = count_writers(p, nv);
    uint32_t nb = p->nblocks; /* not the edge blocks made here */
    uint32_t *npreds = count_distinct_preds(p);
    /* Per successor of the block at hand (by position): stamp (1 + the
     * block's position), edges to it, and its edge block if it gets one. */
    uint32_t *stamp = b3_xcalloc(PHASE, nb ? nb : 1, sizeof(uint32_t));
    uint32_t *nedges = b3_xcalloc(PHASE, nb ? nb : 1, sizeof(uint32_t));
    B3Block **edge = b3_xcalloc(PHASE, nb ? nb : 1, sizeof(B3Block *));
    bool changed = false;
    for (uint32_t bi = 0; bi < nb; bi++) {
        B3Block *b = p->blocks[bi];
        const B3Value *term = b->nvalues ? b->values[b->nvalues - 1] : NULL;
        if (!term || (term->opcode != B3_Branch && term->opcode != B3_Switch) || b->nsuccs < 2)
            continue;
        for (uint32_t s = 0; s < b->nsuccs; s++) {
            uint32_t t = b->succs[s].block->pos;
            if (stamp[t] != bi + 1) {
                stamp[t] = bi + 1;
                nedges[t] = 0;
                edge[t] = NULL;
            }
            nedges[t]++;
        }
        /* Which successors, reached by one edge, get Upsilons: marked with
         * b itself until their blocks are made, in successor order. */
        bool any = false;
        for (uint32_t i = 0; i + 1 < b->nvalues; i++) {
            const B3Value *u = b->values[i];
            if (u->opcode != B3_Upsilon || !u->m.phi || !u->m.phi->owner)
                continue;
            B3Block *t = u->m.phi->owner;
            if (t->pos < nb && stamp[t->pos] == bi + 1 && nedges[t->pos] == 1 &&
                movable(u, t, count, nv, npreds[t->pos])) {
                edge[t->pos] = b;
                any = true;
            }
        }
        if (!any)
            continue;
        for (uint32_t s = 0; s < b->nsuccs; s++) {
            uint32_t t = b->succs[s].block->pos;
            if (edge[t] == b)
                edge[t] = edge_block(m, p, b, s);
        }
        uint32_t out = 0;
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *u = b->values[i];
            B3Block *t = u->opcode == B3_Upsilon && u->m.phi ? u->m.phi->owner : NULL;
            if (i + 1 < b->nvalues && t && t->pos < nb && stamp[t->pos] == bi + 1 && edge[t->pos] &&
                movable(u, t, count, nv, npreds[t->pos]))
                b3_block_append(m, edge[t->pos], u);
            else
                b->values[out++] = u;
        }
        b->nvalues = out;
        for (uint32_t s = 0; s < b->nsuccs; s++) {
            B3Block *e = b->succs[s].block;
            if (e->pos < nb)
                continue;
            B3Value *jump = b3_value_new(m, p, B3_Jump, B3_Void, 0, UINT32_MAX);
            jump->loc = jump->type_loc = b->values[out - 1]->loc;
            b3_block_append(m, e, jump);
        }
        changed = true;
    }
    free(stamp);
    free(nedges);
    free(edge);
    free(npreds);
    free(count);
    if (changed)
        b3_proc_compute_preds(m, p);
    return changed;
}
