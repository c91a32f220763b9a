/* duplicate_tails (-O2): B3's duplicateTails.
 *
 * A small block (at most MAX_SIZE values that cost an instruction, terminal
 * included, at most MAX_VALUES values in all, and at most MAX_SUCCS
 * successors: a Return or Oops, or a short Jump, Branch or Switch) is
 * copied into each block that reaches it by a Jump, which then ends in its
 * own copy instead of jumping: the join of an if/else that only
 * returns a Phi becomes a Return in each arm.  A block that gets a copy
 * ending in a Jump to another such block takes that one too (at most once
 * per block, so loops of tails end).
 *
 * Phis, Upsilons, Gets, Sets, constants and a Jump cost nothing here: they
 * become register moves (mostly coalesced away), immediates, or fall
 * through.  So the join of an if/else inside a loop (a Phi per loop
 * variable, an increment, an Upsilon per variable, a Jump) is copied into
 * both arms, and then the loop's test at the top (its Phis, a compare and a
 * Branch) too: each arm ends in its own test and branch back, as a C
 * compiler's rotated loop does, instead of jumping to one shared test.  A
 * block of only such free values before a Jump is no tail, though, and a
 * loop of two blocks keeps a header larger than B3's MAX_SIZE values (see
 * the copying loop).
 *
 * A block ending in a Branch or Switch gets an empty block on each edge to a
 * successor with several predecessors (a critical edge) that gained some:
 * fix_ssa puts the moves into a join's Phis at the end of each predecessor,
 * so without the split the moves for the loop's exit would run on every
 * trip round the loop, and the exit's and the loop's Phis, both written
 * before the branch, could not share a register.  An edge block left empty
 * by the register allocator is jumped over (air_simplify_cfg).
 *
 * As in B3, SSA is given up where copying would break it, and fix_ssa (the
 * next phase at -O2) rebuilds it:
 *   - a Phi of a tail becomes a Get of a new Variable, its Upsilons Sets;
 *   - a value of a tail used in another block gets a Set of a new Variable
 *     after it, and each use elsewhere reads a Get placed before the user.
 * Only tails that some block reaches by a Jump are considered, so nothing
 * changes where nothing is copied.
 *
 * Never copied: the root, a block with a value whose opcode has NO_CLONE
 * (stackmap values, whose records are keyed by their number; WasmBoundsCheck;
 * EntrySwitch), a self-loop.  Growth is bounded: at most as many values are
 * made as the procedure had (plus a small allowance), Sets and Gets
 * included. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/cfg_order.h"
#include "ir/ice.h"
#include "ir/insertion_set.h"
#include "opt/phases.h"
#include "util/alloc.h"

#define PHASE "duplicate_tails"
#define MAX_SIZE 3  /* B3's maxB3TailDupBlockSize */
#define MAX_SUCCS 3 /* B3's maxB3TailDupBlockSuccessors */
#define MAX_VALUES 16
#define ALLOWANCE 64

typedef struct {
    B3Module *m;
    B3Proc *p;
    uint8_t *cand;      /* by block position */
    B3Variable **var;   /* by dense value id: the Variable a demoted value goes through */
    const char *prefix; /* of the new Variables' names, which no existing name starts with */
    uint32_t nvars_made;
} DT;

static B3Variable *new_var(DT *dt, B3Type type) {
    char buf[64];
    snprintf(buf, sizeof buf, "%s%u", dt->prefix, dt->nvars_made++);
    return b3_variable_new(dt->m, dt->p, b3_arena_strndup(&dt->m->arena, buf, strlen(buf)), type);
}

static const char *fresh_prefix(B3Module *m, const B3Proc *p) {
    char buf[64] = "tail";
    for (size_t len = 4; len + 2 < sizeof buf; len++) {
        bool clash = false;
        for (uint32_t i = 0; i < p->nvars && !clash; i++)
            clash = p->vars[i]->name && !strncmp(p->vars[i]->name, buf, len);
        if (!clash)
            return b3_arena_strndup(&m->arena, buf, len);
        buf[len] = '_';
        buf[len + 1] = 0;
    }
    b3_internal_error(PHASE, "no fresh Variable name");
}

/* Whether v costs an instruction of its own in a copy (see the header). */
static bool costs(const B3Value *v) {
    switch (v->opcode) {
    case B3_Phi:
    case B3_Upsilon:
    case B3_Get:
    case B3_Set:
    case B3_Jump:
        return false;
    default:
        return !(b3_op((B3Opcode)v->opcode)->flags & B3OF_CONST);
    }
}

static bool is_candidate(const B3Proc *p, const B3Block *b) {
    if (b == p->blocks[0] || b->nvalues > MAX_VALUES || b->nsuccs > MAX_SUCCS || !b->nvalues)
        return false;
    uint32_t size = 0;
    for (uint32_t i = 0; i < b->nvalues; i++) {
        if (b3_op((B3Opcode)b->values[i]->opcode)->flags & B3OF_NO_CLONE)
            return false;
        size += costs(b->values[i]);
    }
    if (size > MAX_SIZE)
        return false;
    /* Only Phis, Upsilons and constants before a Jump: copying would remove
     * no more than the jump (which block ordering removes anyway) and would
     * turn the Phis into Variables live across whatever loop follows. */
    if (!size && b3_block_last(b)->opcode == B3_Jump)
        return false;
    for (uint32_t i = 0; i < b->nsuccs; i++)
        if (b->succs[i].block == b)
            return false;
    return true;
}

/* Phis of tails become Gets, their Upsilons Sets; values of tails used in
 * other blocks go through a Variable. */
static void demote(DT *dt) {
    B3Proc *p = dt->p;
    uint32_t nv = b3_proc_number_values(p);
    dt->var = b3_xcalloc(PHASE, nv, sizeof *dt->var);
    for (uint32_t i = 0; i < nv; i++) {
        B3Value *v = p->values[i];
        if (v->opcode == B3_Phi && v->owner && dt->cand[v->owner->pos])
            dt->var[i] = new_var(dt, (B3Type)v->type);
    }
    for (uint32_t i = 0; i < nv; i++) {
        B3Value *u = p->values[i];
        if (u->opcode != B3_Upsilon || !u->m.phi || u->m.phi->scratch >= nv ||
            p->values[u->m.phi->scratch] != u->m.phi)
            continue;
        B3Variable *var = dt->var[u->m.phi->scratch];
        if (!var)
            continue;
        u->opcode = B3_Set;
        u->m.var = var;
    }
    for (uint32_t i = 0; i < nv; i++) {
        B3Value *v = p->values[i];
        if (v->opcode == B3_Phi && dt->var[i]) {
            v->opcode = B3_Get;
            v->m.var = dt->var[i];
        }
    }
    /* Which values are used outside their tail: they need a Variable of
     * their own (a demoted Phi, now a Get, too: its Variable may be Set again
     * in the tail after it). */
    B3Variable **out = b3_xcalloc(PHASE, nv, sizeof *out);
    for (uint32_t bi = 0; bi < p->nblocks; bi++) {
        B3Block *b = p->blocks[bi];
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *u = b->values[i];
            for (uint32_t k = 0; k < u->nkids; k++) {
                B3Value *c = u->kids[k];
                if (c->owner != b && c->owner && dt->cand[c->owner->pos] && !out[c->scratch])
                    out[c->scratch] = new_var(dt, (B3Type)c->type);
            }
        }
    }
    B3InsertionSet ins;
    b3_insertion_set_init(&ins, dt->m, p);
    for (uint32_t bi = 0; bi < p->nblocks; bi++) {
        B3Block *b = p->blocks[bi];
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *u = b->values[i];
            for (uint32_t k = 0; k < u->nkids; k++) {
                B3Value *c = u->kids[k];
                if (c->owner == b || c->scratch >= nv || p->values[c->scratch] != c || !out[c->scratch])
                    continue;
                B3Value *get = b3_insertion_set_insert_new(&ins, i, B3_Get, (B3Type)c->type, 0, u);
                get->m.var = out[c->scratch];
                u->kids[k] = get;
            }
            if (u->scratch < nv && p->values[u->scratch] == u && out[u->scratch]) {
                /* After a CCall's further results, which must stay next to it. */
                B3Value *call = u->opcode == B3_CCall ? u : b3_is_call_result(u) ? u->kids[0] : NULL;
                uint32_t at = i + 1;
                while (call && at < b->nvalues && b3_is_call_result(b->values[at]) &&
                       b->values[at]->kids[0] == call)
                    at++;
                B3Value *set = b3_insertion_set_insert_new(&ins, at, B3_Set, B3_Void, 1, u);
                set->kids[0] = u;
                set->m.var = out[u->scratch];
            }
        }
        b3_insertion_set_execute(&ins, b);
    }
    b3_insertion_set_free(&ins);
    free(out);
}

/* Puts an empty block on each edge from b to a successor with several
 * predecessors that gained some (gained, by position; b has several
 * successors), moving b's Upsilons to that successor's Phis into it.
 * Returns how many blocks were made. */
static uint32_t split_critical_edges(B3Module *m, B3Proc *p, B3Block *b, const uint8_t *gained) {
    B3Value *term = b3_block_last(b);
    if (b->nsuccs < 2 || !term)
        return 0;
    uint32_t made = 0;
    for (uint32_t i = 0; i < b->nsuccs; i++) {
        B3Block *s = b->succs[i].block;
        bool twice = false;
        for (uint32_t k = 0; k < b->nsuccs; k++)
            twice |= k != i && b->succs[k].block == s;
        if (s->pos >= p->nblocks || !gained[s->pos] || s->npreds < 2 || twice || s == b)
            continue;
        B3Block *e = b3_block_new(m, p, UINT32_MAX);
        e->loc = e->succ_loc = b->succ_loc;
        e->frequency = b->frequency;
        uint32_t kept = 0;
        for (uint32_t k = 0; k < b->nvalues; k++) {
            B3Value *v = b->values[k];
            if (v->opcode == B3_Upsilon && v->m.phi && v->m.phi->owner == s)
                b3_block_append(m, e, v);
            else
                b->values[kept++] = v;
        }
        b->nvalues = kept;
        B3Value *jump = b3_value_new(m, p, B3_Jump, B3_Void, 0, UINT32_MAX);
        jump->loc = jump->type_loc = term->loc;
        b3_block_append(m, e, jump);
        e->succs = b3_arena_alloc(&m->arena, sizeof(B3Succ));
        e->succs[0] = (B3Succ){s, B3Freq_Normal};
        e->nsuccs = 1;
        b->succs[i].block = e;
        made++;
    }
    return made;
}

/* Whether header h branches to a block that only jumps back to it. */
static bool two_block_loop(const B3Block *h) {
    for (uint32_t k = 0; k < h->nsuccs; k++) {
        const B3Block *s = h->succs[k].block;
        if (s != h && s->nsuccs == 1 && s->succs[0].block == h)
            return true;
    }
    return false;
}

bool b3_duplicate_tails(B3Module *m, B3Proc *p) {
    if (p->nblocks < 2)
        return false;
    DT dt = {.m = m, .p = p};
    dt.cand = b3_xcalloc(PHASE, p->nblocks, 1);
    bool any = false;
    for (uint32_t bi = 0; bi < p->nblocks; bi++) {
        B3Block *b = p->blocks[bi];
        B3Value *t = b3_block_last(b);
        if (t && t->opcode == B3_Jump && b->nsuccs == 1) {
            B3Block *s = b->succs[0].block;
            if (s != b && !dt.cand[s->pos] && is_candidate(p, s)) {
                dt.cand[s->pos] = s->nvalues <= MAX_SIZE ? 2 : 1; /* 2: small by B3's count too */
                any = true;
            }
        }
    }
    if (!any) {
        free(dt.cand);
        return false;
    }
    dt.prefix = fresh_prefix(m, p);
    demote(&dt);

    uint64_t budget = (uint64_t)p->nvalues + ALLOWANCE;
    uint32_t nv = b3_proc_number_values(p);
    B3Value **map = b3_xcalloc(PHASE, nv, sizeof *map);
    uint32_t *map_stamp = b3_xcalloc(PHASE, nv, sizeof *map_stamp);
    uint32_t *copied_into = b3_xcalloc(PHASE, p->nblocks, sizeof *copied_into); /* block pos + 1 */
    uint8_t *gained = b3_xcalloc(PHASE, p->nblocks, 1);                         /* successor of a copy */
    uint32_t stamp = 0;
    /* In reverse postorder: a block takes its copies before the blocks it
     * jumps to take theirs (and, grown, stop being tails), so each arm of a
     * switch in a loop takes the join's increment and the loop test after
     * it. */
    B3Block **order;
    uint32_t norder = b3_blocks_reverse_postorder(p, &order);
    /* Each block's place in that order: an edge to a block no later is a
     * retreating edge (a loop's back edge). */
    uint32_t *rpo = b3_xcalloc(PHASE, p->nblocks, sizeof *rpo);
    uint8_t *header = b3_xcalloc(PHASE, p->nblocks, 1);
    for (uint32_t oi = 0; oi < norder; oi++)
        rpo[order[oi]->pos] = oi;
    for (uint32_t oi = 0; oi < norder; oi++)
        for (uint32_t k = 0; k < order[oi]->nsuccs; k++)
            if (rpo[order[oi]->succs[k].block->pos] <= oi)
                header[order[oi]->succs[k].block->pos] = 1;
    for (uint32_t oi = 0; oi < norder; oi++) {
        B3Block *b = order[oi];
        uint32_t bi = b->pos;
        for (bool first = true;; first = false) {
            B3Value *j = b3_block_last(b);
            if (!j || j->opcode != B3_Jump || b->nsuccs != 1)
                break;
            B3Block *t = b->succs[0].block;
            if (t == b || !dt.cand[t->pos] || copied_into[t->pos] == bi + 1 || t->nvalues > budget)
                break;
            /* A loop of two blocks (a header of more than MAX_SIZE values,
             * as B3 counts, and a body it branches to that jumps back)
             * stays so: block
             * ordering puts the test at the bottom anyway, and with the
             * header copied into the body (and the preheader) the exit
             * would read the last trip's values after the moves into the
             * Phis, which then cannot share registers: more moves in the
             * loop.  A header goes on after a join's copy, though (then the
             * arms of an if/else or a switch each end in their own test). */
            if (first && header[t->pos] && dt.cand[t->pos] != 2 && two_block_loop(t))
                break;
            budget -= t->nvalues;
            copied_into[t->pos] = bi + 1;
            dt.cand[b->pos] = 0; /* b grows: it is no small tail any more */
            stamp++;
            b->nvalues--; /* the Jump */
            b3_value_replace_with_nop(j);
            for (uint32_t i = 0; i < t->nvalues; i++) {
                B3Value *v = t->values[i];
                B3Value *c = b3_value_clone(m, p, v);
                for (uint32_t k = 0; k < c->nkids; k++) {
                    B3Value *kid = c->kids[k];
                    if (kid->scratch < nv && p->values[kid->scratch] == kid &&
                        map_stamp[kid->scratch] == stamp)
                        c->kids[k] = map[kid->scratch];
                }
                if (v->scratch < nv && p->values[v->scratch] == v) {
                    map[v->scratch] = c;
                    map_stamp[v->scratch] = stamp;
                }
                b3_block_append(m, b, c);
            }
            b->succs = b3_arena_alloc(&m->arena, (t->nsuccs ? t->nsuccs : 1) * sizeof(B3Succ));
            if (t->nsuccs)
                memcpy(b->succs, t->succs, t->nsuccs * sizeof(B3Succ));
            b->nsuccs = t->nsuccs;
            for (uint32_t k = 0; k < t->nsuccs; k++)
                gained[t->succs[k].block->pos] = 1;
        }
    }
    free(order);
    free(rpo);
    free(header);
    free(map);
    free(map_stamp);
    free(copied_into);
    free(dt.var);
    free(dt.cand);
    b3_proc_remove_nops(m, p);
    b3_proc_compute_preds(m, p);
    uint32_t nblocks = p->nblocks, split = 0;
    for (uint32_t bi = 0; bi < nblocks; bi++)
        split += split_critical_edges(m, p, p->blocks[bi], gained);
    free(gained);
    if (split)
        b3_proc_compute_preds(m, p);
    b3_proc_remove_unreachable(m, p);
    return true; /* the demotion alone is a change */
}
