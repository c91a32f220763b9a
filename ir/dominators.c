/* Dominators: Lengauer-Tarjan with path compression, iterative throughout.
 *
 * Inside the algorithm vertices are named by their DFS preorder number
 * (1..n; 0 means "none"), as in the original paper. */
#include "ir/dominators.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

static bool in_proc(const B3Proc *p, const B3Block *b) {
    return b && b->pos < p->nblocks && p->blocks[b->pos] == b;
}

typedef struct {
    uint32_t *semi, *label, *ancestor, *stack;
} Forest;

/* Path compression of the link-eval forest, without recursion: collect the
 * chain up to the node just below a forest root, then update it top-down. */
static void compress(Forest *f, uint32_t v) {
    uint32_t sp = 0;
    while (f->ancestor[f->ancestor[v]] != 0) {
        f->stack[sp++] = v;
        v = f->ancestor[v];
    }
    while (sp) {
        uint32_t y = f->stack[--sp];
        uint32_t a = f->ancestor[y];
        if (f->semi[f->label[a]] < f->semi[f->label[y]])
            f->label[y] = f->label[a];
        f->ancestor[y] = f->ancestor[a];
    }
}

static uint32_t eval(Forest *f, uint32_t v) {
    if (f->ancestor[v] == 0)
        return v;
    compress(f, v);
    return f->label[v];
}

void b3_dominators_compute(B3Dominators *dom, const B3Proc *p) {
    uint32_t nb = p->nblocks;
    memset(dom, 0, sizeof *dom);
    dom->nblocks = nb;
    /* pre and post share one array, idom and order another (freed by pre and idom). */
    dom->pre = b3_xcalloc("dominators", 2 * (size_t)nb + 1, sizeof(uint32_t));
    dom->post = dom->pre + nb;
    dom->idom = b3_xcalloc("dominators", 2 * (size_t)nb + 1, sizeof(B3Block *));
    dom->order = dom->idom + nb;
    if (nb == 0)
        return;

    /* Predecessors in CSR form, built from the successors (so stale pred
     * lists cannot mislead the analysis). */
    uint32_t *pred_start = b3_xcalloc("dominators", nb + 1, sizeof(uint32_t));
    for (uint32_t i = 0; i < nb; i++) {
        const B3Block *b = p->blocks[i];
        for (uint32_t j = 0; j < b->nsuccs; j++)
            if (in_proc(p, b->succs[j].block))
                pred_start[b->succs[j].block->pos + 1]++;
    }
    for (uint32_t i = 0; i < nb; i++)
        pred_start[i + 1] += pred_start[i];
    uint32_t nedges = pred_start[nb];
    /* The rest of the scratch arrays, carved from one zeroed block (each
     * sized for nb blocks; the search numbers n <= nb of them). */
    size_t m = (size_t)nb + 2;
    uint32_t *scratch = b3_xcalloc("dominators", nedges + 19 * m, sizeof(uint32_t)), *at = scratch;
#define SCRATCH(len) (at += (len), at - (len))
    uint32_t *preds = SCRATCH(nedges);
    uint32_t *fill = SCRATCH(m);
    for (uint32_t i = 0; i < nb; i++) {
        const B3Block *b = p->blocks[i];
        for (uint32_t j = 0; j < b->nsuccs; j++) {
            const B3Block *s = b->succs[j].block;
            if (in_proc(p, s))
                preds[pred_start[s->pos] + fill[s->pos]++] = i;
        }
    }

    /* Depth-first search from the root: dfn[pos] = preorder number. */
    uint32_t *dfn = SCRATCH(m);
    uint32_t *vertex = SCRATCH(m); /* number -> pos */
    uint32_t *parent = SCRATCH(m);
    uint32_t *stack_pos = SCRATCH(m);
    uint32_t *stack_next = SCRATCH(m);
    uint32_t n = 0, sp = 0;
    dfn[0] = ++n;
    vertex[n] = 0;
    stack_pos[sp] = 0;
    stack_next[sp++] = 0;
    while (sp) {
        const B3Block *b = p->blocks[stack_pos[sp - 1]];
        if (stack_next[sp - 1] < b->nsuccs) {
            const B3Block *s = b->succs[stack_next[sp - 1]++].block;
            if (in_proc(p, s) && !dfn[s->pos]) {
                dfn[s->pos] = ++n;
                vertex[n] = s->pos;
                parent[n] = dfn[b->pos];
                stack_pos[sp] = s->pos;
                stack_next[sp++] = 0;
            }
        } else {
            sp--;
        }
    }

    Forest f;
    f.semi = SCRATCH(m);
    f.label = SCRATCH(m);
    f.ancestor = SCRATCH(m);
    f.stack = SCRATCH(m);
    uint32_t *idom = SCRATCH(m);
    uint32_t *bucket_head = SCRATCH(m);
    uint32_t *bucket_next = SCRATCH(m);
    for (uint32_t v = 1; v <= n; v++) {
        f.semi[v] = v;
        f.label[v] = v;
    }
    for (uint32_t w = n; w >= 2; w--) {
        uint32_t wp = vertex[w];
        for (uint32_t k = pred_start[wp]; k < pred_start[wp + 1]; k++) {
            uint32_t v = dfn[preds[k]];
            if (!v)
                continue; /* an unreachable predecessor */
            uint32_t u = eval(&f, v);
            if (f.semi[u] < f.semi[w])
                f.semi[w] = f.semi[u];
        }
        bucket_next[w] = bucket_head[f.semi[w]];
        bucket_head[f.semi[w]] = w;
        uint32_t pw = parent[w];
        f.ancestor[w] = pw; /* link */
        for (uint32_t v = bucket_head[pw]; v; v = bucket_next[v]) {
            uint32_t u = eval(&f, v);
            idom[v] = f.semi[u] < f.semi[v] ? u : pw;
        }
        bucket_head[pw] = 0;
    }
    for (uint32_t w = 2; w <= n; w++)
        if (idom[w] != f.semi[w])
            idom[w] = idom[idom[w]];
    idom[1] = 0;

    for (uint32_t w = 2; w <= n; w++)
        dom->idom[vertex[w]] = p->blocks[vertex[idom[w]]];

    /* Number the dominator tree: children in CSR form, then an iterative DFS. */
    uint32_t *child_start = SCRATCH(m);
    for (uint32_t w = 2; w <= n; w++)
        child_start[idom[w] + 1]++;
    for (uint32_t v = 1; v <= n + 1; v++)
        child_start[v] += child_start[v - 1];
    uint32_t *children = SCRATCH(m);
    uint32_t *cfill = SCRATCH(m);
    for (uint32_t w = 2; w <= n; w++)
        children[child_start[idom[w]] + cfill[idom[w]]++] = w;

    uint32_t *tstack = f.stack; /* reuse: at most n entries */
    uint32_t *tnext = SCRATCH(m);
#undef SCRATCH
    uint32_t pre = 0, post = 0;
    sp = 0;
    tstack[sp++] = 1;
    dom->pre[vertex[1]] = ++pre;
    dom->order[dom->norder++] = p->blocks[vertex[1]];
    while (sp) {
        uint32_t v = tstack[sp - 1];
        if (child_start[v] + tnext[v] < child_start[v + 1]) {
            uint32_t c = children[child_start[v] + tnext[v]++];
            dom->pre[vertex[c]] = ++pre;
            dom->order[dom->norder++] = p->blocks[vertex[c]];
            tstack[sp++] = c;
        } else {
            dom->post[vertex[v]] = ++post;
            sp--;
        }
    }
    free(scratch);
    free(pred_start);
}

void b3_dominators_free(B3Dominators *dom) {
    free(dom->pre);  /* and post */
    free(dom->idom); /* and order */
    memset(dom, 0, sizeof *dom);
}
