/* fix_ssa: every Variable becomes SSA values (B3's fixSSA).
 *
 * Classic SSA construction (Cytron et al.), pruned by liveness:
 *   1. one scan of the blocks finds, per Variable, the blocks that Set it and
 *      the blocks that Get it before any Set in the same block (upward-exposed
 *      reads);
 *   2. per Variable, the blocks where it is live on entry: backwards from the
 *      upward-exposed reads to the Sets (cost: its live range);
 *   3. Phis at the iterated dominance frontier of its Sets, only where it is
 *      live (ir/idf.h);
 *   4. one walk of the dominator tree with the current definition of each
 *      Variable (undone on the way back up): a Get becomes an Identity of it,
 *      a Set records its child and becomes a Nop, and each block ends with an
 *      Upsilon per Phi of its successors, just before the terminal.
 * Then b3_proc_remove_identities forwards the Gets' uses, and the Variables
 * are dropped from the procedure.  Near-linear overall: the work is the
 * values, the Variables' live ranges and the dominator subtrees below their
 * Sets.
 *
 * A Get no Set reaches reads a zero of its type, inserted where it is needed
 * (B3 inserts its "bottom" there too).  Unlike B3, critical edges are not
 * split: an Upsilon is a store to its Phi's location, so one at the end of a
 * block with several successors is harmless to the successors without that
 * Phi.  When a Phi lands in a root that has predecessors (a loop back to the
 * root), a new root block, jumping to the old one, holds the Upsilons of the
 * procedure's entry.  Gets and Sets in unreachable blocks are rewritten
 * locally (a Get no earlier Set in its block reaches reads zero). */
#include <stdlib.h>
#include <string.h>

#include "ir/dominators.h"
#include "ir/ice.h"
#include "ir/idf.h"
#include "ir/insertion_set.h"
#include "ir/ir.h"
#include "opt/phases.h"
#include "util/alloc.h"

/* (Variable, block) pairs, grown as found. */
typedef struct {
    uint32_t *var, *pos;
    uint32_t n, cap;
} Pairs;

static void pairs_add(Pairs *ps, uint32_t var, uint32_t pos) {
    if (ps->n == ps->cap) {
        ps->cap = ps->cap ? 2 * ps->cap : 64;
        ps->var = b3_xrealloc("fix_ssa", ps->var, ps->cap * sizeof(uint32_t));
        ps->pos = b3_xrealloc("fix_ssa", ps->pos, ps->cap * sizeof(uint32_t));
    }
    ps->var[ps->n] = var;
    ps->pos[ps->n] = pos;
    ps->n++;
}

static void pairs_free(Pairs *ps) {
    free(ps->var);
    free(ps->pos);
}

/* Groups pairs by key (counting sort): the values of key k are
 * out[start[k] .. start[k + 1]).  start has nkeys + 1 entries. */
static void group(const uint32_t *key, const uint32_t *val, uint32_t n, uint32_t nkeys, uint32_t **start,
                  uint32_t **out) {
    uint32_t *s = b3_xcalloc("fix_ssa", nkeys + 1, sizeof(uint32_t));
    uint32_t *o = b3_xcalloc("fix_ssa", n, sizeof(uint32_t));
    for (uint32_t i = 0; i < n; i++)
        s[key[i] + 1]++;
    for (uint32_t k = 0; k < nkeys; k++)
        s[k + 1] += s[k];
    for (uint32_t i = 0; i < n; i++)
        o[s[key[i]]++] = val[i];
    for (uint32_t k = nkeys; k > 0; k--) /* the fill moved each start to the next one's */
        s[k] = s[k - 1];
    s[0] = 0;
    *start = s;
    *out = o;
}

typedef struct {
    B3Module *m;
    B3Proc *p;
    uint32_t nvars, nblocks;
    B3Dominators dom;
    /* Per Variable: blocks that Set it, blocks that read it on entry. */
    uint32_t *def_start, *defs, *use_start, *uses;
    /* Per block: its Phis (Variable index and value). */
    uint32_t *phi_start, *phi_var;
    B3Value **phi_val;
    /* Per block: the Variable whose liveness / Sets are being computed. */
    uint32_t *live_mark, *def_mark;
    uint32_t mark;
    /* The renaming walk: the current definition of each Variable, and an undo
     * log of (Variable, previous definition). */
    B3Value **cur;
    uint32_t *undo_var;
    B3Value **undo_val;
    uint32_t nundo, cap_undo;
    uint32_t *succ_seen; /* by block position: the block whose successors were last listed + 1 */
    B3InsertionSet ins;
} Fix;

/* Pass 1: which blocks Set each Variable, which read it on entry.  Returns
 * whether there is any Get or Set at all. */
static bool find_defs_and_uses(Fix *f) {
    B3Proc *p = f->p;
    uint32_t *last_def = b3_xcalloc("fix_ssa", f->nvars, sizeof(uint32_t)); /* block position + 1 */
    uint32_t *last_use = b3_xcalloc("fix_ssa", f->nvars, sizeof(uint32_t));
    Pairs defs = {0}, uses = {0};
    bool any = false;
    for (uint32_t bi = 0; bi < p->nblocks; bi++) {
        B3Block *b = p->blocks[bi];
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *v = b->values[i];
            if (v->opcode != B3_Get && v->opcode != B3_Set)
                continue;
            any = true;
            uint32_t x = v->m.var->index;
            if (v->opcode == B3_Set) {
                if (last_def[x] != bi + 1)
                    pairs_add(&defs, x, bi);
                last_def[x] = bi + 1;
            } else if (last_def[x] != bi + 1 && last_use[x] != bi + 1) {
                pairs_add(&uses, x, bi);
                last_use[x] = bi + 1;
            }
        }
    }
    group(defs.var, defs.pos, defs.n, f->nvars, &f->def_start, &f->defs);
    group(uses.var, uses.pos, uses.n, f->nvars, &f->use_start, &f->uses);
    pairs_free(&defs);
    pairs_free(&uses);
    free(last_def);
    free(last_use);
    return any;
}

/* Lists in live the reachable blocks where Variable x is live on entry:
 * backwards from its upward-exposed reads, stopping at its Sets (the list is
 * also the work queue).  Returns how many. */
static uint32_t compute_live_in(Fix *f, uint32_t x, B3Block **live) {
    uint32_t n = 0;
    for (uint32_t k = f->def_start[x]; k < f->def_start[x + 1]; k++)
        f->def_mark[f->defs[k]] = f->mark;
    for (uint32_t k = f->use_start[x]; k < f->use_start[x + 1]; k++) {
        B3Block *b = f->p->blocks[f->uses[k]];
        if (b3_block_reachable(&f->dom, b)) {
            f->live_mark[b->pos] = f->mark;
            live[n++] = b;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        const B3Block *b = live[i];
        for (uint32_t j = 0; j < b->npreds; j++) {
            B3Block *q = b->preds[j];
            if (f->live_mark[q->pos] == f->mark || f->def_mark[q->pos] == f->mark ||
                !b3_block_reachable(&f->dom, q))
                continue;
            f->live_mark[q->pos] = f->mark;
            live[n++] = q;
        }
    }
    return n;
}

/* Passes 2 and 3: where each Variable needs a Phi; creates the Phis (not yet
 * in their blocks).  Returns whether the root got one. */
static bool place_phis(Fix *f) {
    B3Proc *p = f->p;
    B3IDF idf;
    b3_idf_init(&idf, p, &f->dom);
    f->live_mark = b3_xcalloc("fix_ssa", f->nblocks, sizeof(uint32_t));
    f->def_mark = b3_xcalloc("fix_ssa", f->nblocks, sizeof(uint32_t));
    B3Block **work = b3_xcalloc("fix_ssa", f->nblocks, sizeof(B3Block *));
    B3Block **def_blocks = b3_xcalloc("fix_ssa", f->nblocks, sizeof(B3Block *));
    Pairs phis = {0};
    for (uint32_t x = 0; x < f->nvars; x++) {
        /* Read only after Sets in the same block, or never Set: no Phi. */
        if (f->use_start[x] == f->use_start[x + 1] || f->def_start[x] == f->def_start[x + 1])
            continue;
        f->mark = x + 1;
        uint32_t nlive = compute_live_in(f, x, work);
        uint32_t nd = 0;
        for (uint32_t k = f->def_start[x]; k < f->def_start[x + 1]; k++)
            def_blocks[nd++] = p->blocks[f->defs[k]];
        B3Block *const *joins;
        uint32_t nj = b3_idf_compute(&idf, def_blocks, nd, work, nlive, &joins);
        for (uint32_t k = 0; k < nj; k++)
            pairs_add(&phis, x, joins[k]->pos);
    }
    free(work);
    free(def_blocks);
    b3_idf_free(&idf);

    uint32_t *var_of;
    group(phis.pos, phis.var, phis.n, f->nblocks, &f->phi_start, &var_of);
    f->phi_var = var_of;
    f->phi_val = b3_xcalloc("fix_ssa", phis.n, sizeof(B3Value *));
    for (uint32_t bi = 0; bi < f->nblocks; bi++) {
        B3Block *b = p->blocks[bi];
        const B3Loc loc = b->nvalues ? b->values[0]->loc : b->loc;
        for (uint32_t k = f->phi_start[bi]; k < f->phi_start[bi + 1]; k++) {
            B3Value *phi = b3_value_new(f->m, p, B3_Phi, p->vars[f->phi_var[k]]->type, 0, UINT32_MAX);
            phi->loc = phi->type_loc = loc;
            f->phi_val[k] = phi;
        }
    }
    pairs_free(&phis);
    return f->phi_start[1] > 0;
}

static void set_cur(Fix *f, uint32_t x, B3Value *v) {
    if (f->nundo == f->cap_undo) {
        f->cap_undo = f->cap_undo ? 2 * f->cap_undo : 64;
        f->undo_var = b3_xrealloc("fix_ssa", f->undo_var, f->cap_undo * sizeof(uint32_t));
        f->undo_val = b3_xrealloc("fix_ssa", f->undo_val, f->cap_undo * sizeof(B3Value *));
    }
    f->undo_var[f->nundo] = x;
    f->undo_val[f->nundo] = f->cur[x];
    f->nundo++;
    f->cur[x] = v;
}

static void undo_to(Fix *f, uint32_t mark) {
    while (f->nundo > mark) {
        f->nundo--;
        f->cur[f->undo_var[f->nundo]] = f->undo_val[f->nundo];
    }
}

/* The current definition of Variable x, or a zero inserted before index i. */
static B3Value *reaching(Fix *f, uint32_t x, uint32_t i, const B3Value *origin) {
    if (!f->cur[x])
        set_cur(f, x, b3_insertion_set_insert_bottom(&f->ins, i, origin, f->p->vars[x]->type));
    return f->cur[x];
}

static B3Value *upsilon(Fix *f, uint32_t i, const B3Value *origin, B3Value *value, B3Value *phi) {
    B3Value *u = b3_insertion_set_insert_new(&f->ins, i, B3_Upsilon, B3_Void, 1, origin);
    u->kids[0] = value;
    u->m.phi = phi;
    return u;
}

/* Pass 4 for one block: its Phis, Gets and Sets, and the Upsilons for its
 * successors' Phis (none when the block is unreachable). */
static void rename_block(Fix *f, B3Block *b, bool reachable) {
    for (uint32_t k = f->phi_start[b->pos]; k < f->phi_start[b->pos + 1]; k++) {
        b3_insertion_set_insert(&f->ins, 0, f->phi_val[k]);
        set_cur(f, f->phi_var[k], f->phi_val[k]);
    }
    for (uint32_t i = 0; i < b->nvalues; i++) {
        B3Value *v = b->values[i];
        if (v->opcode == B3_Get) {
            b3_value_replace_with_identity(v, reaching(f, v->m.var->index, i, v));
        } else if (v->opcode == B3_Set) {
            B3Value *w = v->kids[0];
            while (w->opcode == B3_Identity)
                w = w->kids[0];
            set_cur(f, v->m.var->index, w);
            b3_value_replace_with_nop(v);
        }
    }
    B3Value *term = b3_block_last(b);
    if (reachable && term && b3_is_terminal(term)) {
        uint32_t at = b->nvalues - 1;
        for (uint32_t s = 0; s < b->nsuccs; s++) {
            B3Block *succ = b->succs[s].block;
            if (f->succ_seen[succ->pos] == b->pos + 1) /* one Upsilon per Phi, however many edges */
                continue;
            f->succ_seen[succ->pos] = b->pos + 1;
            for (uint32_t k = f->phi_start[succ->pos]; k < f->phi_start[succ->pos + 1]; k++)
                upsilon(f, at, term, reaching(f, f->phi_var[k], at, term), f->phi_val[k]);
        }
    }
    b3_insertion_set_execute(&f->ins, b);
}

/* Pass 4: the dominator tree in preorder; a block's definitions are undone
 * when the walk leaves its subtree. */
static void rename_all(Fix *f) {
    B3Proc *p = f->p;
    B3Block **stack = b3_xcalloc("fix_ssa", f->nblocks, sizeof(B3Block *));
    uint32_t *stack_mark = b3_xcalloc("fix_ssa", f->nblocks, sizeof(uint32_t));
    uint32_t sp = 0;
    for (uint32_t i = 0; i < f->dom.norder; i++) {
        B3Block *b = f->dom.order[i];
        B3Block *up = f->dom.idom[b->pos];
        while (sp && stack[sp - 1] != up)
            undo_to(f, stack_mark[--sp]);
        stack[sp] = b;
        stack_mark[sp++] = f->nundo;
        rename_block(f, b, true);
    }
    undo_to(f, 0);
    free(stack);
    free(stack_mark);
    for (uint32_t bi = 0; bi < f->nblocks; bi++) { /* not a new entry block */
        if (b3_block_reachable(&f->dom, p->blocks[bi]))
            continue;
        rename_block(f, p->blocks[bi], false);
        undo_to(f, 0);
    }
}

/* A new root that jumps to the old one and writes each of its Phis with the
 * zero a Variable holds before any Set.  Appended to p->blocks (the caller
 * moves it to the front). */
static B3Block *make_entry(Fix *f) {
    B3Proc *p = f->p;
    B3Block *root = p->blocks[0];
    B3Block *e = b3_block_new(f->m, p, UINT32_MAX);
    e->loc = e->succ_loc = root->loc;
    B3Value *jump = b3_value_new(f->m, p, B3_Jump, B3_Void, 0, UINT32_MAX);
    jump->loc = jump->type_loc = root->nvalues ? root->values[0]->loc : root->loc;
    b3_block_append(f->m, e, jump);
    e->succs = b3_arena_alloc(&f->m->arena, sizeof(B3Succ));
    e->succs[0] = (B3Succ){root, B3Freq_Normal};
    e->nsuccs = 1;
    for (uint32_t k = f->phi_start[0]; k < f->phi_start[1]; k++) {
        B3Value *zero = b3_insertion_set_insert_bottom(&f->ins, 0, jump, f->phi_val[k]->type);
        upsilon(f, 0, jump, zero, f->phi_val[k]);
    }
    b3_insertion_set_execute(&f->ins, e);
    return e;
}

bool b3_fix_ssa(B3Module *m, B3Proc *p) {
    if (!p->nvars)
        return false;
    Fix f = {.m = m, .p = p, .nvars = p->nvars, .nblocks = p->nblocks};
    for (uint32_t i = 0; i < p->nvars; i++)
        p->vars[i]->index = i;
    if (find_defs_and_uses(&f)) {
        b3_dominators_compute(&f.dom, p);
        bool root_phis = place_phis(&f);
        f.cur = b3_xcalloc("fix_ssa", f.nvars, sizeof(B3Value *));
        f.succ_seen = b3_xcalloc("fix_ssa", f.nblocks, sizeof(uint32_t));
        b3_insertion_set_init(&f.ins, m, p);
        B3Block *entry = root_phis && p->blocks[0]->npreds ? make_entry(&f) : NULL;
        rename_all(&f);
        b3_insertion_set_free(&f.ins);
        if (entry) {
            memmove(p->blocks + 1, p->blocks, (p->nblocks - 1) * sizeof(B3Block *));
            p->blocks[0] = entry;
            for (uint32_t i = 0; i < p->nblocks; i++)
                p->blocks[i]->pos = i;
            b3_proc_compute_preds(m, p);
        }
        b3_dominators_free(&f.dom);
        free(f.live_mark);
        free(f.def_mark);
        free(f.phi_start);
        free(f.phi_var);
        free(f.phi_val);
        free(f.cur);
        free(f.undo_var);
        free(f.undo_val);
        free(f.succ_seen);
        b3_proc_remove_identities(m, p);
    }
    free(f.def_start);
    free(f.defs);
    free(f.use_start);
    free(f.uses);
    p->nvars = 0; /* no Get or Set names them any more */
    return true;
}
