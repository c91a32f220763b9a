/* optimize_associative_expression_trees (-O2, after lower_macros): B3's
 * optimizeAssociativeExpressionTrees.
 *
 * A tree of one associative integer operation (the B3OF_ASSOCIATIVE column:
 * Add, Mul, BitAnd, BitOr, BitXor; never on floats, which round differently
 * when regrouped) is rebuilt balanced:
 *
 *     Add(Add(Add(a, b), c), d)  ->  Add(Add(a, b), Add(c, d))
 *
 * which shortens the chain of dependent instructions from 3 to 2.  The
 * tree's interior nodes are values of the root's opcode and type with one
 * use; a shared node is a leaf (rebuilding it would compute it twice).
 * Unlike B3, interior nodes must also stand in the root's block: the
 * rebuilt tree is computed at the root, and gathering nodes from other
 * blocks could pull work into a loop.
 *
 * On the way the constants are combined into one leaf (wrapping, as the
 * operation does), an absorbing constant (0 for Mul/BitAnd, -1 for BitOr)
 * replaces the whole tree, and repeated leaves are merged as B3 does:
 * x + x + x -> x * 3, x & x -> x, x ^ x -> nothing; Mul keeps them.  Trees
 * with fewer than four leaves are reduce_strength's business.
 *
 * The old interior nodes are left unused for eliminate_dead_code. */
#include <stdlib.h>

#include "ir/ice.h"
#include "ir/insertion_set.h"
#include "ir/use_counts.h"
#include "opt/phases.h"
#include "util/alloc.h"

#define PHASE "optimize_associative_expression_trees"
#define MAX_LEAVES 4096 /* a bigger tree keeps its shape beyond this many leaves */

static bool is_tree_op(const B3Value *v) {
    return (b3_op_info[v->opcode].flags & B3OF_ASSOCIATIVE) && b3_type_is_int((B3Type)v->type);
}

static uint64_t neutral(B3Opcode op) { return op == B3_Mul ? 1 : op == B3_BitAnd ? ~0ull : 0; }

static uint64_t combine(B3Opcode op, uint64_t a, uint64_t b) {
    switch (op) {
    case B3_Add:
        return a + b;
    case B3_Mul:
        return a * b;
    case B3_BitAnd:
        return a & b;
    case B3_BitOr:
        return a | b;
    default:
        return a ^ b;
    }
}

static uint64_t truncate(B3Type t, uint64_t c) { return t == B3_Int32 ? (uint64_t)(int64_t)(int32_t)c : c; }

static bool absorbing(B3Opcode op, B3Type t, uint64_t c) {
    c = truncate(t, c);
    return ((op == B3_Mul || op == B3_BitAnd) && c == 0) || (op == B3_BitOr && c == ~0ull);
}

static int by_index(const void *a, const void *b) {
    uint32_t x = (*(B3Value *const *)a)->index, y = (*(B3Value *const *)b)->index;
    return x < y ? -1 : x > y;
}

typedef struct {
    B3Module *m;
    B3Proc *p;
    B3UseCounts uc;
    B3InsertionSet ins;
    B3Value **leaves, **out, **stack;
} T;

static B3Value *constant(T *t, uint32_t i, const B3Value *at, B3Type ty, uint64_t c) {
    return b3_insertion_set_insert_int_const(&t->ins, i, at, ty, (int64_t)truncate(ty, c));
}

static B3Value *binary(T *t, uint32_t i, const B3Value *at, B3Opcode op, B3Value *a, B3Value *b) {
    B3Value *v = b3_insertion_set_insert_new(&t->ins, i, op, (B3Type)at->type, 2, at);
    v->kids[0] = a;
    v->kids[1] = b;
    return v;
}

static bool interior(T *t, const B3Value *root, const B3Value *v) {
    return v->opcode == root->opcode && v->type == root->type && v->owner == root->owner &&
           b3_use_count(&t->uc, v) == 1;
}

static bool rebuild(T *t, B3Value *root, uint32_t i) {
    B3Opcode op = (B3Opcode)root->opcode;
    B3Type ty = (B3Type)root->type;
    if (!interior(t, root, root->kids[0]) && !interior(t, root, root->kids[1]))
        return false;
    uint32_t nleaves = 0, nstack = 0, seen = 0;
    uint64_t c = neutral(op);
    t->stack[nstack++] = root->kids[1];
    t->stack[nstack++] = root->kids[0];
    while (nstack) {
        B3Value *v = t->stack[--nstack];
        if (interior(t, root, v) && nstack + 2 <= MAX_LEAVES) {
            t->stack[nstack++] = v->kids[1];
            t->stack[nstack++] = v->kids[0];
            continue;
        }
        seen++;
        if (v->opcode == B3_Const32 || v->opcode == B3_Const64)
            c = combine(op, c, (uint64_t)v->m.c.i);
        else if (nleaves < MAX_LEAVES)
            t->leaves[nleaves++] = v;
        else
            return false;
    }
    if (absorbing(op, ty, c)) {
        b3_value_replace_with_identity(root, constant(t, i, root, ty, c));
        return true;
    }
    if (seen < 4)
        return false;

    /* Merge repeated leaves (sorted by @N, so the result is deterministic). */
    qsort(t->leaves, nleaves, sizeof *t->leaves, by_index);
    uint32_t nout = 0;
    for (uint32_t a = 0; a < nleaves;) {
        uint32_t e = a;
        while (e < nleaves && t->leaves[e] == t->leaves[a])
            e++;
        B3Value *x = t->leaves[a];
        uint32_t count = e - a;
        if (op == B3_Add && count > 1)
            t->out[nout++] = binary(t, i, root, B3_Mul, x, constant(t, i, root, ty, count));
        else if (op == B3_Mul)
            for (uint32_t k = 0; k < count; k++)
                t->out[nout++] = x;
        else if (op != B3_BitXor || count % 2)
            t->out[nout++] = x;
        a = e;
    }
    if (truncate(ty, c) != truncate(ty, neutral(op)) || !nout)
        t->out[nout++] = constant(t, i, root, ty, c);

    /* Pair neighbours level by level: a tree of depth ceil(log2(n)). */
    while (nout > 1) {
        uint32_t k = 0;
        for (uint32_t j = 0; j + 1 < nout; j += 2)
            t->out[k++] = binary(t, i, root, op, t->out[j], t->out[j + 1]);
        if (nout % 2)
            t->out[k++] = t->out[nout - 1];
        nout = k;
    }
    b3_value_replace_with_identity(root, t->out[0]);
    return true;
}

bool b3_optimize_associative_expression_trees(B3Module *m, B3Proc *p) {
    T t = {.m = m, .p = p};
    b3_use_counts_compute(&t.uc, p);
    /* A root: a tree op not used as an interior node, i.e. with a use that is
     * not the same op in its block, or more than one use. */
    bool *inner = b3_xcalloc(PHASE, t.uc.nvalues + 1, sizeof(bool));
    t.leaves = b3_xmalloc(PHASE, MAX_LEAVES * sizeof(B3Value *));
    t.out = b3_xmalloc(PHASE, (MAX_LEAVES + 2) * sizeof(B3Value *)); /* the leaves, and the constant */
    t.stack = b3_xmalloc(PHASE, (MAX_LEAVES + 2) * sizeof(B3Value *));
    for (uint32_t bi = 0; bi < p->nblocks; bi++)
        for (uint32_t i = 0; i < p->blocks[bi]->nvalues; i++) {
            B3Value *u = p->blocks[bi]->values[i];
            if (!is_tree_op(u))
                continue;
            for (uint32_t k = 0; k < 2; k++)
                if (interior(&t, u, u->kids[k]))
                    inner[u->kids[k]->scratch] = true;
        }
    bool changed = false;
    b3_insertion_set_init(&t.ins, m, p);
    for (uint32_t bi = 0; bi < p->nblocks; bi++) {
        B3Block *b = p->blocks[bi];
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *v = b->values[i];
            if (is_tree_op(v) && !inner[v->scratch])
                changed |= rebuild(&t, v, i);
        }
        b3_insertion_set_execute(&t.ins, b);
    }
    b3_insertion_set_free(&t.ins);
    b3_use_counts_free(&t.uc);
    free(inner);
    free(t.leaves);
    free(t.out);
    free(t.stack);
    if (changed)
        b3_proc_remove_identities(m, p);
    return changed;
}
