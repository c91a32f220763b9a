/* Block orders (ir/cfg_order.h). */
#include "ir/cfg_order.h"
#include "util/alloc.h"

#include <stdlib.h>

static bool in_proc(const B3Proc *p, const B3Block *b) {
    return b && b->pos < p->nblocks && p->blocks[b->pos] == b;
}

/* One depth-first walk gives both orders: a block's preorder number when it
 * is pushed, its postorder number when its last successor is done. */
static uint32_t walk(const B3Proc *p, B3Block **pre, B3Block **post) {
    uint32_t nb = p->nblocks, npre = 0, npost = 0, sp = 0;
    if (!nb)
        return 0;
    uint8_t *seen = b3_xcalloc("cfg_order", nb, 1);
    B3Block **stack = b3_xmalloc("cfg_order", nb * sizeof *stack);
    uint32_t *next =
        b3_xmalloc("cfg_order", nb * sizeof *next); /* the successor to try next, per stack entry */
    seen[0] = 1;
    stack[sp] = p->blocks[0];
    next[sp++] = 0;
    if (pre)
        pre[npre++] = p->blocks[0];
    while (sp) {
        B3Block *b = stack[sp - 1];
        if (next[sp - 1] < b->nsuccs) {
            B3Block *s = b->succs[next[sp - 1]++].block;
            if (in_proc(p, s) && !seen[s->pos]) {
                seen[s->pos] = 1;
                if (pre)
                    pre[npre++] = s;
                stack[sp] = s;
                next[sp++] = 0;
            }
        } else {
            if (post)
                post[npost++] = b;
            sp--;
        }
    }
    free(seen);
    free(stack);
    free(next);
    return pre ? npre : npost;
}

uint32_t b3_blocks_postorder(const B3Proc *p, B3Block ***out) {
    *out = b3_xmalloc("cfg_order", p->nblocks * sizeof **out);
    return walk(p, NULL, *out);
}

uint32_t b3_blocks_reverse_postorder(const B3Proc *p, B3Block ***out) {
    uint32_t n = b3_blocks_postorder(p, out);
    B3Block **a = *out;
    for (uint32_t i = 0, j = n; i + 1 < j; i++, j--) {
        B3Block *t = a[i];
        a[i] = a[j - 1];
        a[j - 1] = t;
    }
    return n;
}

uint32_t b3_blocks_preorder(const B3Proc *p, B3Block ***out) {
    *out = b3_xmalloc("cfg_order", p->nblocks * sizeof **out);
    return walk(p, *out, NULL);
}
