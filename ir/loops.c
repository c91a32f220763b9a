/* Natural loops and preheaders (ir/loops.h). */
#include "ir/loops.h"
#include "util/alloc.h"
#include "util/vec.h"

#include <stdlib.h>
#include <string.h>

static bool in_proc(const B3Proc *p, const B3Block *b) {
    return b && b->pos < p->nblocks && p->blocks[b->pos] == b;
}

typedef struct {
    uint32_t *a, n, cap;
} Stack;

static void push(Stack *s, uint32_t x) {
    B3_VEC_RESERVE("loops", s->a, s->cap, s->n + 1);
    s->a[s->n++] = x;
}

/* The outermost loop found so far around loop x, compressing the path. */
static uint32_t find(uint32_t *uf, uint32_t x) {
    uint32_t r = x;
    while (uf[r] != r)
        r = uf[r];
    while (uf[x] != r) {
        uint32_t next = uf[x];
        uf[x] = r;
        x = next;
    }
    return r;
}

void b3_loops_compute(B3Loops *l, const B3Proc *p, const B3Dominators *dom) {
    uint32_t nb = p->nblocks;
    memset(l, 0, sizeof *l);
    l->nblocks = nb;
    l->innermost = b3_xmalloc("loops", nb * sizeof(uint32_t));
    l->slot = b3_xmalloc("loops", nb * sizeof(uint32_t));
    for (uint32_t i = 0; i < nb; i++)
        l->innermost[i] = l->slot[i] = B3_NO_LOOP;

    /* Predecessors from the successors (stale pred lists cannot mislead the
     * analysis), as start offsets into one array. */
    uint32_t *pred_start = b3_xcalloc("loops", nb + 1, sizeof(uint32_t));
    for (uint32_t i = 0; i < nb; i++)
        for (uint32_t j = 0; j < p->blocks[i]->nsuccs; j++)
            if (in_proc(p, p->blocks[i]->succs[j].block))
                pred_start[p->blocks[i]->succs[j].block->pos + 1]++;
    for (uint32_t i = 0; i < nb; i++)
        pred_start[i + 1] += pred_start[i];
    uint32_t *preds = b3_xmalloc("loops", pred_start[nb] * sizeof(uint32_t));
    uint32_t *fill = b3_xcalloc("loops", nb ? nb : 1, sizeof(uint32_t));
    for (uint32_t i = 0; i < nb; i++)
        for (uint32_t j = 0; j < p->blocks[i]->nsuccs; j++) {
            const B3Block *s = p->blocks[i]->succs[j].block;
            if (in_proc(p, s))
                preds[pred_start[s->pos] + fill[s->pos]++] = i;
        }

    /* Headers innermost first: in reverse dominator-tree preorder, a header
     * comes before every header that dominates it, i.e. every loop around it.
     * When a loop's walk meets a block of an inner loop, it links that inner
     * loop (its outermost one found so far) under the new loop and goes on
     * from the inner header's predecessors, never revisiting its body. */
    uint32_t *header = fill; /* reused: loop -> header position */
    uint32_t *parent = b3_xmalloc("loops", nb * sizeof(uint32_t)),
             *uf = b3_xmalloc("loops", nb * sizeof(uint32_t));
    uint32_t nloops = 0;
    Stack work = {0};
    for (uint32_t k = dom->norder; k-- > 0;) {
        uint32_t h = dom->order[k]->pos;
        work.n = 0;
        for (uint32_t e = pred_start[h]; e < pred_start[h + 1]; e++)
            if (b3_block_reachable(dom, p->blocks[preds[e]]) &&
                b3_dominates(dom, p->blocks[h], p->blocks[preds[e]]))
                push(&work, preds[e]);
        if (!work.n)
            continue;
        uint32_t L = nloops++;
        header[L] = h;
        parent[L] = uf[L] = L;
        l->innermost[h] = L;
        while (work.n) {
            uint32_t x = work.a[--work.n], from;
            if (l->innermost[x] == B3_NO_LOOP) {
                l->innermost[x] = L;
                from = x;
            } else {
                uint32_t top = find(uf, l->innermost[x]);
                if (top == L)
                    continue;
                uf[top] = parent[top] = L;
                from = header[top];
            }
            for (uint32_t e = pred_start[from]; e < pred_start[from + 1]; e++)
                if (b3_block_reachable(dom, p->blocks[preds[e]]))
                    push(&work, preds[e]);
        }
    }
    free(work.a);
    free(uf);
    free(preds);
    free(pred_start);

    /* Loops were made innermost first; number them outermost first (by their
     * headers' dominator preorder, the reverse), so parents precede children. */
    l->nloops = nloops;
    l->loops = b3_xcalloc("loops", nloops ? nloops : 1, sizeof(B3Loop));
    for (uint32_t old = 0; old < nloops; old++) {
        B3Loop *loop = &l->loops[nloops - 1 - old];
        loop->index = nloops - 1 - old;
        loop->header = p->blocks[header[old]];
        loop->parent = parent[old] == old ? NULL : &l->loops[nloops - 1 - parent[old]];
    }
    for (uint32_t i = 0; i < nb; i++)
        if (l->innermost[i] != B3_NO_LOOP)
            l->innermost[i] = nloops - 1 - l->innermost[i];
    free(parent);
    free(header);

    /* Lay the blocks out along the loop tree: a loop's own blocks, then each
     * inner loop's slice.  Sizes bottom-up, offsets top-down. */
    uint32_t *start = b3_xmalloc("loops", nloops * sizeof(uint32_t));
    uint32_t *next = b3_xmalloc("loops", nloops * sizeof(uint32_t)); /* where a loop's next inner loop goes */
    for (uint32_t i = 0; i < nb; i++)
        if (l->innermost[i] != B3_NO_LOOP)
            l->loops[l->innermost[i]].own++;
    for (uint32_t i = 0; i < nloops; i++)
        l->loops[i].nblocks = l->loops[i].own;
    for (uint32_t i = nloops; i-- > 0;)
        if (l->loops[i].parent)
            l->loops[i].parent->nblocks += l->loops[i].nblocks;
    uint32_t total = 0;
    for (uint32_t i = 0; i < nloops; i++) {
        B3Loop *loop = &l->loops[i];
        loop->depth = loop->parent ? loop->parent->depth + 1 : 1;
        if (loop->parent) {
            start[i] = next[loop->parent->index];
            next[loop->parent->index] += loop->nblocks;
        } else {
            start[i] = total;
            total += loop->nblocks;
        }
        next[i] = start[i] + loop->own;
    }
    l->order = b3_xmalloc("loops", total * sizeof(B3Block *));
    for (uint32_t i = 0; i < nloops; i++) {
        B3Loop *loop = &l->loops[i];
        loop->blocks = l->order + start[i];
        loop->blocks[0] = loop->header;
        l->slot[loop->header->pos] = start[i];
        next[i] = start[i] + 1; /* now: where the loop's next own block goes */
    }
    for (uint32_t k = 0; k < dom->norder; k++) {
        const B3Block *b = dom->order[k];
        uint32_t L = l->innermost[b->pos];
        if (L == B3_NO_LOOP || l->loops[L].header == b)
            continue;
        l->slot[b->pos] = next[L];
        l->order[next[L]++] = p->blocks[b->pos];
    }
    free(start);
    free(next);
}

void b3_loops_free(B3Loops *l) {
    free(l->loops);
    free(l->innermost);
    free(l->slot);
    free(l->order);
    memset(l, 0, sizeof *l);
}

/* The predecessors of the loop's header from outside the loop, into out
 * (room for header->npreds); returns how many. */
static uint32_t entering_preds(const B3Loops *l, const B3Loop *loop, B3Block **out) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < loop->header->npreds; i++)
        if (!b3_loop_contains(l, loop, loop->header->preds[i]))
            out[n++] = loop->header->preds[i];
    return n;
}

static bool only_successor_is(const B3Block *b, const B3Block *h) {
    for (uint32_t i = 0; i < b->nsuccs; i++)
        if (b->succs[i].block != h)
            return false;
    return b->nsuccs > 0;
}

B3Block *b3_loop_preheader(const B3Loops *l, const B3Loop *loop) {
    B3Block *found = NULL;
    uint32_t n = 0;
    for (uint32_t i = 0; i < loop->header->npreds; i++) {
        if (!b3_loop_contains(l, loop, loop->header->preds[i])) {
            found = loop->header->preds[i];
            n++;
        }
    }
    return n == 1 && only_successor_is(found, loop->header) ? found : NULL;
}

/* A block that jumps to the loop's header, taking over the edges from
 * outside the loop; appended to p->blocks (the caller places it). */
static B3Block *make_preheader(B3Module *m, B3Proc *p, const B3Loops *l, const B3Loop *loop,
                               B3Block **scratch) {
    B3Block *h = loop->header;
    uint32_t n = entering_preds(l, loop, scratch);
    B3Block *ph = b3_block_new(m, p, UINT32_MAX);
    ph->loc = ph->succ_loc = h->loc;
    ph->frequency = n ? 0 : 1.0; /* the root's: entered once per call */
    for (uint32_t i = 0; i < n; i++) {
        ph->frequency += scratch[i]->frequency;
        for (uint32_t j = 0; j < scratch[i]->nsuccs; j++)
            if (scratch[i]->succs[j].block == h)
                scratch[i]->succs[j].block = ph;
    }
    B3Value *jump = b3_value_new(m, p, B3_Jump, B3_Void, 0, UINT32_MAX);
    jump->loc = jump->type_loc = h->nvalues ? h->values[0]->loc : h->loc;
    b3_block_append(m, ph, jump);
    ph->succs = b3_arena_alloc(&m->arena, sizeof(B3Succ));
    ph->succs[0] = (B3Succ){h, B3Freq_Normal};
    ph->nsuccs = 1;
    return ph;
}

uint32_t b3_loops_ensure_preheaders(B3Module *m, B3Proc *p, const B3Loops *l) {
    uint32_t nb = p->nblocks, made = 0;
    B3Block **ph_of = b3_xcalloc("loops", nb ? nb : 1, sizeof(B3Block *)); /* by header position */
    B3Block **scratch = b3_xmalloc("loops", nb * sizeof(B3Block *)); /* a block has at most nb predecessors */
    for (uint32_t i = 0; i < l->nloops; i++) {
        const B3Loop *loop = &l->loops[i];
        if (loop->header->pos != 0 && b3_loop_preheader(l, loop))
            continue;
        ph_of[loop->header->pos] = make_preheader(m, p, l, loop, scratch);
        made++;
    }
    free(scratch);
    if (made) {
        /* Each new block (appended at the end) moves to just before its
         * header; p->blocks has room for all of them already. */
        B3Block **order = b3_xmalloc("loops", p->nblocks * sizeof(B3Block *));
        uint32_t n = 0;
        for (uint32_t i = 0; i < nb; i++) {
            if (ph_of[i])
                order[n++] = ph_of[i];
            order[n++] = p->blocks[i];
        }
        for (uint32_t i = 0; i < n; i++) {
            p->blocks[i] = order[i];
            p->blocks[i]->pos = i;
        }
        free(order);
        b3_proc_compute_preds(m, p);
    }
    free(ph_of);
    return made;
}

bool b3_loops_compute_with_preheaders(B3Module *m, B3Proc *p, B3Dominators *dom, B3Loops *l) {
    b3_dominators_compute(dom, p);
    b3_loops_compute(l, p, dom);
    if (!l->nloops || !b3_loops_ensure_preheaders(m, p, l))
        return false;
    b3_loops_free(l);
    b3_dominators_free(dom);
    b3_dominators_compute(dom, p);
    b3_loops_compute(l, p, dom);
    return true;
}

/* ---- counted loops' Phis ---- */

static bool numbered(const B3Proc *p, uint32_t n, const B3Value *v) {
    return v->scratch < n && v->scratch < p->nvalues && p->values[v->scratch] == v;
}

void b3_phi_upsilons_compute(B3PhiUpsilons *pu, const B3Proc *p, uint32_t n) {
    pu->n = n;
    pu->ups = b3_xcalloc("loops", 2 * (size_t)n + 1, sizeof *pu->ups);
    pu->nups = b3_xcalloc("loops", (size_t)n + 1, sizeof *pu->nups);
    for (uint32_t bi = 0; bi < p->nblocks; bi++) {
        const B3Block *b = p->blocks[bi];
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *u = b->values[i];
            if (u->opcode != B3_Upsilon || !u->m.phi || !numbered(p, n, u->m.phi))
                continue;
            uint32_t id = u->m.phi->scratch;
            if (pu->nups[id] < 2)
                pu->ups[2 * id + pu->nups[id]] = u;
            if (pu->nups[id] < 3)
                pu->nups[id]++;
        }
    }
}

void b3_phi_upsilons_free(B3PhiUpsilons *pu) {
    free(pu->ups);
    free(pu->nups);
    pu->ups = NULL;
    pu->nups = NULL;
}

bool b3_loop_phi_init_and_step(const B3Loops *l, const B3Dominators *dom, const B3Loop *loop,
                               const B3Block *pre, const B3PhiUpsilons *pu, const B3Value *phi,
                               B3Value **init, B3Value **step) {
    if (phi->opcode != B3_Phi || phi->scratch >= pu->n || pu->nups[phi->scratch] != 2 ||
        pu->ups[2 * phi->scratch]->m.phi != phi)
        return false;
    B3Value *ua = pu->ups[2 * phi->scratch], *ub = pu->ups[2 * phi->scratch + 1];
    if (b3_loop_contains(l, loop, ua->owner)) {
        B3Value *t = ua;
        ua = ub;
        ub = t;
    }
    if (b3_loop_contains(l, loop, ua->owner) || !b3_loop_contains(l, loop, ub->owner))
        return false;
    if (b3_loop_of(l, ua->owner) != loop->parent || !b3_dominates(dom, ua->owner, pre) ||
        !b3_dominates(dom, ua->kids[0]->owner, pre))
        return false;
    *init = ua;
    *step = ub;
    return true;
}
