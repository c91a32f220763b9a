/* air_optimize_block_order: lays the blocks out so that each block's likely
 * successor follows it, where the emitter lets it fall through (Air's
 * optimizeBlockOrder, plus loop rotation).
 *
 * 1. Loops.  A depth-first numbering from the entries gives the retreating
 *    edges (v -> w, w an ancestor of v: the back edges of a reducible CFG);
 *    their targets are the loop headers.  The loop bodies are found as in
 *    Havlak's algorithm, innermost headers first, each block walked once and
 *    inner loops skipped through a union-find, so the phase stays linear on
 *    deep nests.  A loop entered other than through its header (irreducible)
 *    is only the part its header reaches.
 * 2. Layout, as B3: blocks are placed from a stack; after a block, its
 *    successors are pushed so that the likeliest is taken next.  Likeliest:
 *    not behind a Rare edge, then the deeper in loops (B3 would compare
 *    frequencies; ours are all 1 unless a client gave them, and loop depth is
 *    what a static estimate of them would say), then the higher block
 *    frequency, then the terminal's own order.  Successors behind Rare edges
 *    go to a second stack that is used only when the first is empty, so the
 *    rare paths end up after the hot code.
 * 3. Loop rotation.  A loop laid out from its header is "test; body; jmp
 *    test": two jumps per iteration.  When the header ends in a conditional
 *    branch that falls through into the loop and a latch laid after it ends in
 *    a Jump back to it, the header moves to just after the last such latch:
 *    the latch falls into the test, whose branch is now the one conditional
 *    back edge, falling through to the exit; the loop is entered by one jump
 *    to the test.  Outer loops are rotated before the loops inside them.
 * The emitter does the rest: no jump to the next block, and a branch whose
 * taken target is next is inverted (x86_64/emit.c, branch_on).  Runs last,
 * after lower_entry_switch: every entry is a root, and entry 0 comes first. */
#include <stdlib.h>
#include <string.h>

#include "codegen/air/phases.h"
#include "util/alloc.h"

#define NONE UINT32_MAX

typedef struct {
    AirCode *c;
    uint32_t n;
    uint32_t *pre, *last; /* DFS preorder number and the largest one in the subtree; NONE: unreached */
    uint32_t *at_pre;     /* block index by preorder number */
    uint32_t nreached;
    uint32_t *uf;          /* union-find: the outermost header found so far around a block */
    uint32_t *loop_parent; /* a block's innermost header (a header's: the one around it) */
    uint32_t *depth;       /* loops around a block (a header counts its own) */
    uint8_t *is_header;
} Order;

static bool is_ancestor(const Order *o, uint32_t w, uint32_t v) {
    return o->pre[w] != NONE && o->pre[v] != NONE && o->pre[w] <= o->pre[v] && o->pre[v] <= o->last[w];
}

/* Depth-first preorder from the entries, with an explicit stack. */
static void number(Order *o, AirBlock *const *roots, uint32_t nroots) {
    AirCode *c = o->c;
    uint32_t *stack = b3_xmalloc("optimize_block_order", o->n * sizeof(uint32_t)),
             *next_succ = b3_xmalloc("optimize_block_order", o->n * sizeof(uint32_t));
    uint32_t counter = 0;
    for (uint32_t r = 0; r < nroots; r++) {
        uint32_t root = roots[r]->index;
        if (o->pre[root] != NONE)
            continue;
        uint32_t sp = 0;
        o->pre[root] = counter;
        o->at_pre[counter++] = root;
        next_succ[root] = 0;
        stack[sp++] = root;
        while (sp) {
            uint32_t v = stack[sp - 1];
            AirBlock *b = c->blocks[v];
            if (next_succ[v] < b->nsuccs) {
                uint32_t w = b->succs[next_succ[v]++].block->index;
                if (o->pre[w] == NONE) {
                    o->pre[w] = counter;
                    o->at_pre[counter++] = w;
                    next_succ[w] = 0;
                    stack[sp++] = w;
                }
                continue;
            }
            o->last[v] = counter - 1;
            sp--;
        }
    }
    o->nreached = counter;
    free(stack);
    free(next_succ);
}

static uint32_t find(uint32_t *uf, uint32_t x) {
    while (uf[x] != x) {
        uf[x] = uf[uf[x]];
        x = uf[x];
    }
    return x;
}

/* Havlak-style loop nesting, innermost headers first. */
static void find_loops(Order *o) {
    AirCode *c = o->c;
    uint32_t *mark = b3_xmalloc("optimize_block_order", o->n * sizeof(uint32_t)),
             *pool = b3_xmalloc("optimize_block_order", o->n * sizeof(uint32_t)),
             *work = b3_xmalloc("optimize_block_order", o->n * sizeof(uint32_t));
    for (uint32_t i = 0; i < o->n; i++) {
        o->uf[i] = i;
        o->loop_parent[i] = NONE;
        mark[i] = NONE;
    }
    for (uint32_t p = o->nreached; p-- > 0;) {
        uint32_t w = o->at_pre[p], npool = 0, nwork = 0;
        AirBlock *wb = c->blocks[w];
        bool self = false;
        for (uint32_t k = 0; k < wb->npreds; k++) {
            uint32_t v = wb->preds[k]->index;
            if (!is_ancestor(o, w, v))
                continue;
            if (v == w) {
                self = true;
                continue;
            }
            uint32_t x = find(o->uf, v);
            if (x != w && mark[x] != w) {
                mark[x] = w;
                pool[npool++] = work[nwork++] = x;
            }
        }
        if (!npool && !self)
            continue;
        o->is_header[w] = 1;
        while (nwork) {
            AirBlock *xb = c->blocks[work[--nwork]];
            for (uint32_t k = 0; k < xb->npreds; k++) {
                uint32_t y = xb->preds[k]->index;
                if (o->pre[y] == NONE)
                    continue;
                y = find(o->uf, y);
                /* Only what the header reaches: an entry from outside makes the loop irreducible. */
                if (y == w || mark[y] == w || !is_ancestor(o, w, y))
                    continue;
                mark[y] = w;
                pool[npool++] = work[nwork++] = y;
            }
        }
        for (uint32_t k = 0; k < npool; k++) {
            o->loop_parent[pool[k]] = w;
            o->uf[pool[k]] = w;
        }
    }
    /* A header precedes its blocks in preorder, so their depth follows its. */
    for (uint32_t p = 0; p < o->nreached; p++) {
        uint32_t v = o->at_pre[p], par = o->loop_parent[v];
        o->depth[v] = (par == NONE ? 0 : o->depth[par]) + (o->is_header[v] ? 1 : 0);
    }
    free(mark);
    free(pool);
    free(work);
}

/* Is block x in the loop headed by h? */
static bool in_loop(const Order *o, uint32_t x, uint32_t h) {
    while (x != NONE && x != h && o->depth[x] >= o->depth[h])
        x = o->loop_parent[x];
    return x == h;
}

/* Should successor a be laid out before successor b? */
static bool likelier(const Order *o, const AirSucc *a, const AirSucc *b) {
    if ((a->freq == B3Freq_Rare) != (b->freq == B3Freq_Rare))
        return b->freq == B3Freq_Rare;
    uint32_t da = o->depth[a->block->index], db = o->depth[b->block->index];
    if (da != db)
        return da > db;
    return a->block->frequency > b->block->frequency;
}

/* Before the layout leaves the innermost loop around the block just placed
 * (the top of the stack is outside it), the loop's own pending blocks come
 * first: an exit pushed by one arm of a loop must not separate that arm from
 * the other, which would then sit after the exit code, far from the header
 * it jumps back to.  Only the top few entries are looked at (the pending arms
 * of the current loop are pushed recently), so the layout stays linear.
 * Only for a small innermost loop (blocks[h]: how many blocks h heads
 * directly, UINT32_MAX when it holds another loop), such as collatz's
 * odd/even step: brainfuck's bracket loops, around a larger body, ran 17%
 * slower with their blocks pulled ahead of the exits. */
#define FINISH_LOOP_WINDOW 8
#define FINISH_LOOP_BLOCKS 4
static void finish_loop_first(const Order *o, uint32_t *fast, uint32_t nfast, const uint8_t *placed,
                              uint32_t last, const uint32_t *blocks) {
    if (last == NONE)
        return;
    uint32_t h = o->is_header[last] ? last : o->loop_parent[last];
    if (h == NONE || blocks[h] > FINISH_LOOP_BLOCKS || in_loop(o, fast[nfast - 1], h))
        return;
    uint32_t stop = nfast > FINISH_LOOP_WINDOW ? nfast - FINISH_LOOP_WINDOW : 0;
    for (uint32_t k = nfast - 1; k-- > stop;) {
        uint32_t x = fast[k];
        if (placed[x] || !in_loop(o, x, h))
            continue;
        memmove(&fast[k], &fast[k + 1], (nfast - 1 - k) * sizeof(uint32_t));
        fast[nfast - 1] = x;
        return;
    }
}

/* The B3 layout: a stack of likely blocks and one of rare ones. */
static uint32_t lay_out(Order *o, AirBlock *const *roots, uint32_t nroots, uint32_t *order) {
    AirCode *c = o->c;
    uint32_t nedges = nroots;
    for (uint32_t i = 0; i < o->n; i++)
        nedges += c->blocks[i]->nsuccs;
    uint32_t *fast = b3_xmalloc("optimize_block_order", nedges * sizeof(uint32_t)),
             *slow = b3_xmalloc("optimize_block_order", nedges * sizeof(uint32_t));
    uint8_t *placed = b3_xcalloc("optimize_block_order", o->n, 1);
    uint32_t nfast = 0, nslow = 0, norder = 0;
    for (uint32_t r = nroots; r-- > 0;)
        fast[nfast++] = roots[r]->index;
    uint32_t last = NONE;
    uint32_t *blocks = b3_xcalloc("optimize_block_order", o->n, sizeof(uint32_t));
    for (uint32_t i = 0; i < o->n; i++) {
        uint32_t h = o->is_header[i] ? o->loop_parent[i] : NONE;
        if (h != NONE)
            blocks[h] = UINT32_MAX;
        h = o->is_header[i] ? i : o->loop_parent[i];
        if (h != NONE && blocks[h] != UINT32_MAX)
            blocks[h]++;
    }
    for (;;) {
        uint32_t v;
        if (nfast) {
            finish_loop_first(o, fast, nfast, placed, last, blocks);
            v = fast[--nfast];
        } else if (nslow)
            v = slow[--nslow];
        else
            break;
        if (placed[v])
            continue;
        placed[v] = 1;
        order[norder++] = v;
        last = v;
        AirBlock *b = c->blocks[v];
        /* Pushed last is taken first: the likelier successor of a branch goes on
         * top; a multi-way terminal keeps its own order. */
        uint32_t ns = b->nsuccs;
        bool swap = ns == 2 && likelier(o, &b->succs[1], &b->succs[0]);
        for (uint32_t k = ns; k-- > 0;) {
            const AirSucc *s = &b->succs[swap ? 1 - k : k];
            uint32_t w = s->block->index;
            if (placed[w])
                continue;
            if (s->freq == B3Freq_Rare)
                slow[nslow++] = w;
            else
                fast[nfast++] = w;
        }
    }
    free(fast);
    free(slow);
    free(placed);
    free(blocks);
    return norder;
}

/* The other rotation: the block nx after header h is a latch that ends in a
 * conditional branch back to h (a tail duplicate_tails copied the test into),
 * and the block after it is h's other successor.  h moves between them: nx
 * falls into the test, the test falls into its other arm, and each trip
 * around takes one branch where "test; nx: branch back or jump out; other
 * arm" took two on one of its paths.  The other successor must be in the
 * loop (an arm): when it is the exit, the test would only move from the top
 * to the bottom behind a jump in (mandelbrot 2% slower).  NONE when the
 * shape is not there. */
static uint32_t branching_latch(const Order *o, const AirBlock *hb, uint32_t nx, uint32_t after) {
    const AirBlock *nb = o->c->blocks[nx];
    if (after == NONE || o->is_header[nx] || nb->nsuccs != 2 || !air_block_has_succ(nb, hb) ||
        !air_is_conditional_branch(&nb->insts[nb->ninsts - 1]))
        return NONE;
    const AirBlock *other = hb->succs[0].block == nb ? hb->succs[1].block : hb->succs[0].block;
    return other->index == after && other != hb && other != nb && in_loop(o, after, hb->index) ? nx : NONE;
}

/* Loop rotation over the layout (a doubly linked list of block indices). */
static void rotate_loops(Order *o, uint32_t *order, uint32_t norder) {
    AirCode *c = o->c;
    uint32_t *prev = b3_xmalloc("optimize_block_order", o->n * sizeof(uint32_t)),
             *next = b3_xmalloc("optimize_block_order", o->n * sizeof(uint32_t)),
             *pos = b3_xmalloc("optimize_block_order", o->n * sizeof(uint32_t));
    for (uint32_t i = 0; i < norder; i++) {
        prev[order[i]] = i ? order[i - 1] : NONE;
        next[order[i]] = i + 1 < norder ? order[i + 1] : NONE;
        pos[order[i]] = i;
    }
    uint32_t head = order[0];
    bool rotated = false;
    for (uint32_t p = 0; p < o->nreached; p++) {
        uint32_t h = o->at_pre[p];
        AirBlock *hb = c->blocks[h];
        if (!o->is_header[h] || hb->nsuccs != 2 || !air_is_conditional_branch(&hb->insts[hb->ninsts - 1]))
            continue;
        uint32_t nx = next[h];
        if (nx == NONE || nx == h || !air_block_has_succ(hb, c->blocks[nx]) || !in_loop(o, nx, h))
            continue;
        /* The last latch that jumps back (relative order is never changed by
         * an earlier rotation: only headers move, and latches end in Jump). */
        uint32_t latch = NONE;
        for (uint32_t k = 0; k < hb->npreds; k++) {
            AirBlock *ub = hb->preds[k];
            uint32_t u = ub->index;
            if (u == h || !is_ancestor(o, h, u) || ub->nsuccs != 1 ||
                ub->insts[ub->ninsts - 1].opcode != Air_Jump || pos[u] <= pos[h])
                continue;
            if (latch == NONE || pos[u] > pos[latch])
                latch = u;
        }
        if (latch == NONE)
            latch = branching_latch(o, hb, nx, next[nx]);
        if (latch == NONE)
            continue;
        /* Unlink h, put it after the latch. */
        if (prev[h] != NONE)
            next[prev[h]] = next[h];
        else
            head = next[h];
        prev[next[h]] = prev[h];
        next[h] = next[latch];
        prev[h] = latch;
        if (next[latch] != NONE)
            prev[next[latch]] = h;
        next[latch] = h;
        rotated = true;
    }
    if (rotated) {
        uint32_t i = 0;
        for (uint32_t v = head; v != NONE; v = next[v])
            order[i++] = v;
        if (i != norder)
            b3_internal_error("optimize_block_order", "rotation lost blocks");
    }
    free(prev);
    free(next);
    free(pos);
}

void air_optimize_block_order(AirCode *c) {
    if (c->nblocks < 2)
        return;
    AirBlock *const *roots = c->nentries ? c->entries : c->blocks;
    uint32_t nroots = c->nentries ? c->nentries : 1;
    air_compute_preds(c);
    Order o = {.c = c, .n = c->nblocks};
    o.pre = b3_xmalloc("optimize_block_order", o.n * sizeof(uint32_t));
    o.last = b3_xmalloc("optimize_block_order", o.n * sizeof(uint32_t));
    o.at_pre = b3_xmalloc("optimize_block_order", o.n * sizeof(uint32_t));
    o.uf = b3_xmalloc("optimize_block_order", o.n * sizeof(uint32_t));
    o.loop_parent = b3_xmalloc("optimize_block_order", o.n * sizeof(uint32_t));
    o.depth = b3_xcalloc("optimize_block_order", o.n, sizeof(uint32_t));
    o.is_header = b3_xcalloc("optimize_block_order", o.n, 1);
    for (uint32_t i = 0; i < o.n; i++)
        o.pre[i] = o.last[i] = NONE;
    number(&o, roots, nroots);
    find_loops(&o);

    uint32_t *order = b3_xmalloc("optimize_block_order", o.n * sizeof(uint32_t));
    uint32_t norder = lay_out(&o, roots, nroots, order);
    rotate_loops(&o, order, norder);

    /* Blocks nothing reaches (none, after the phases before) keep their place at the end. */
    uint8_t *seen = b3_xcalloc("optimize_block_order", o.n, 1);
    for (uint32_t i = 0; i < norder; i++)
        seen[order[i]] = 1;
    for (uint32_t i = 0; i < o.n; i++)
        if (!seen[i])
            order[norder++] = i;
    AirBlock **blocks = b3_xmalloc("optimize_block_order", o.n * sizeof(AirBlock *));
    for (uint32_t i = 0; i < o.n; i++)
        blocks[i] = c->blocks[order[i]];
    for (uint32_t i = 0; i < o.n; i++) {
        c->blocks[i] = blocks[i];
        c->blocks[i]->index = i;
    }
    free(blocks);
    free(seen);
    free(order);
    free(o.pre);
    free(o.last);
    free(o.at_pre);
    free(o.uf);
    free(o.loop_parent);
    free(o.depth);
    free(o.is_header);
}
