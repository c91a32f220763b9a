/* convert_branches_to_selects (-O2): if-conversion of small triangles and
 * diamonds (beyond B3).
 *
 *   A: ... Branch(c, T, J)          A: ... x' = <T's values>
 *   T: x' = ...; Upsilon(x', ^p)      s = Select(c, x', x)
 *      Jump(J)                 =>     Upsilon(s, ^p); Jump(J)
 *   J: p = Phi() (A gives x)
 *
 * and the same with an arm on each side (a diamond).  The Phi becomes a
 * Select, which the backends emit as a conditional move (cmov, csel): the
 * running maximum `if (v > best) best = v;` runs without a branch.
 *
 * Only where it clearly pays, measured on the code-quality kernels: each arm
 * has a single predecessor (A) and jumps to J, J has exactly A's arms (or A
 * and the arm) as predecessors, the arms compute nothing but constants
 * (MAX_COST: a Select of values that exist anyway costs a compare and a
 * move; computing an arm's value on every trip, such as Collatz's
 * `x odd ? 3x+1 : x/2`, costs more than the branch, which is mostly well
 * predicted) but for the absolute value `d < 0 ? -d : d` (ABS_COST: one
 * negation, where the sign of data is often random: itoa's signed digits ran
 * 12% faster with the cmov), and J has at most two integer Phis (MAX_PHIS:
 * all select on A's one compare; two cover a running maximum and its
 * position, `if (len > best) { best = len; arg = i; }`, whose branch on
 * data mispredicts: collatz ran 6% faster with two cmovs; a register of the
 * general kind, as a conditional move needs).  Any value an
 * arm keeps must be pure (b3_value_is_pure, and no division or square root).
 * Runs on SSA, before duplicate_tails copies the join into the arms. */
#include <stdlib.h>

#include "ir/effects.h"
#include "ir/ice.h"
#include "opt/phases.h"
#include "util/alloc.h"

#define PHASE "convert_branches_to_selects"
#define MAX_COST 0
#define MAX_PHIS 2
/* The absolute value `if (d < 0) d = -d;`: one arm computes only the
 * negation of what the other side gives, a neg and a cmov where the branch on
 * a sign is as good as random (itoa's digits of a signed number). */
#define ABS_COST 1

/* Whether arm (a block A branches to) may move into A: see the header. */
static bool arm_ok(const B3Block *arm, const B3Block *a, const B3Block *j, uint32_t *cost) {
    if (arm->npreds != 1 || arm->preds[0] != a || arm->nsuccs != 1 || arm->succs[0].block != j)
        return false;
    for (uint32_t i = 0; i < arm->nvalues; i++) {
        const B3Value *v = arm->values[i];
        switch (v->opcode) {
        case B3_Jump:
            if (i + 1 != arm->nvalues)
                return false;
            continue;
        case B3_Upsilon:
            if (!v->m.phi || v->m.phi->owner != j)
                return false;
            continue;
        case B3_Nop:
            continue;
        case B3_Div:
        case B3_Mod:
        case B3_UDiv:
        case B3_UMod:
        case B3_Sqrt:
        case B3_Phi:
            return false;
        default:
            break;
        }
        if (!b3_value_is_pure(v))
            return false;
        if (!b3_value_is_const(v) && ++*cost > ABS_COST)
            return false;
    }
    return true;
}

/* The Upsilon in b that feeds phi, or NULL. */
static B3Value *upsilon_for(const B3Block *b, const B3Value *phi) {
    for (uint32_t i = 0; i < b->nvalues; i++)
        if (b->values[i]->opcode == B3_Upsilon && b->values[i]->m.phi == phi)
            return b->values[i];
    return NULL;
}

/* Whether n is -o: Neg(o), Sub(0, o), or Sub(y, x) for o = Sub(x, y). */
static bool negates(const B3Value *n, const B3Value *o) {
    int64_t c;
    if (n->opcode == B3_Neg)
        return n->kids[0] == o;
    if (n->opcode != B3_Sub)
        return false;
    if (n->kids[1] == o)
        return b3_value_int_const(n->kids[0], &c) && c == 0;
    return o->opcode == B3_Sub && n->kids[0] == o->kids[1] && n->kids[1] == o->kids[0];
}

/* Converts the triangle or diamond A heads, if it qualifies. */
static bool convert(B3Module *m, B3Proc *p, B3Block *a) {
    B3Value *br = b3_block_last(a);
    if (!br || br->opcode != B3_Branch || a->nsuccs != 2)
        return false;
    B3Block *then = a->succs[0].block, *els = a->succs[1].block;
    if (then == els || then == a || els == a)
        return false;
    /* The join, and each side's arm (NULL: the edge goes straight there). */
    B3Block *j, *arm_then = NULL, *arm_else = NULL;
    if (then->nsuccs == 1 && then->succs[0].block == els) {
        j = els, arm_then = then;
    } else if (els->nsuccs == 1 && els->succs[0].block == then) {
        j = then, arm_else = els;
    } else if (then->nsuccs == 1 && els->nsuccs == 1 && then->succs[0].block == els->succs[0].block) {
        j = then->succs[0].block, arm_then = then, arm_else = els;
    } else {
        return false;
    }
    uint32_t cost = 0;
    if (j == a || j->npreds != 2 || (arm_then && !arm_ok(arm_then, a, j, &cost)) ||
        (arm_else && !arm_ok(arm_else, a, j, &cost)))
        return false;
    /* Past MAX_COST only the absolute value: a triangle whose arm's one
     * computed value negates the value A gives the Phi. */
    if (cost > MAX_COST) {
        B3Block *arm = arm_then ? arm_then : arm_else;
        const B3Value *up = NULL;
        uint32_t nups = 0;
        for (uint32_t i = 0; i < arm->nvalues; i++)
            if (arm->values[i]->opcode == B3_Upsilon && nups++ == 0)
                up = arm->values[i];
        const B3Value *other = (arm_then && arm_else) || nups != 1 ? NULL : upsilon_for(a, up->m.phi);
        if (!other || !negates(up->kids[0], other->kids[0]))
            return false;
    }
    /* J's Phis: integers, few, each fed on both incoming edges. */
    uint32_t nphis = 0;
    B3Block *from_then = arm_then ? arm_then : a, *from_else = arm_else ? arm_else : a;
    for (uint32_t i = 0; i < j->nvalues; i++) {
        B3Value *phi = j->values[i];
        if (phi->opcode != B3_Phi)
            continue;
        if ((phi->type != B3_Int32 && phi->type != B3_Int64) || ++nphis > MAX_PHIS ||
            !upsilon_for(from_then, phi) || !upsilon_for(from_else, phi))
            return false;
    }
    if (!nphis)
        return false;

    /* A's values but its terminal and its Upsilons to J; then the arms'
     * values; then per Phi a Select and one Upsilon; then a Jump. */
    uint32_t cap =
        a->nvalues + (arm_then ? arm_then->nvalues : 0) + (arm_else ? arm_else->nvalues : 0) + 2 * nphis + 1;
    B3Value **vals = b3_xmalloc(PHASE, cap * sizeof *vals);
    uint32_t n = 0;
    for (uint32_t i = 0; i + 1 < a->nvalues; i++) {
        B3Value *v = a->values[i];
        if (!(v->opcode == B3_Upsilon && v->m.phi && v->m.phi->owner == j))
            vals[n++] = v;
    }
    B3Block *arms[2] = {arm_then, arm_else};
    for (int k = 0; k < 2; k++)
        for (uint32_t i = 0; arms[k] && i < arms[k]->nvalues; i++) {
            B3Value *v = arms[k]->values[i];
            if (v->opcode != B3_Upsilon && v->opcode != B3_Jump && v->opcode != B3_Nop)
                vals[n++] = v;
        }
    B3Value *cond = br->kids[0];
    for (uint32_t i = 0; i < j->nvalues; i++) {
        B3Value *phi = j->values[i];
        if (phi->opcode != B3_Phi)
            continue;
        B3Value *ut = upsilon_for(from_then, phi), *ue = upsilon_for(from_else, phi);
        B3Value *sel = b3_value_new(m, p, B3_Select, (B3Type)phi->type, 3, UINT32_MAX);
        sel->loc = sel->type_loc = br->loc;
        sel->kids[0] = cond;
        sel->kids[1] = ut->kids[0];
        sel->kids[2] = ue->kids[0];
        vals[n++] = sel;
        ue->kids[0] = sel; /* reused as A's Upsilon (the other one goes with its block) */
        vals[n++] = ue;
        if (ut->owner == a)
            b3_value_replace_with_nop(ut); /* not in A's list any more */
    }
    br->opcode = B3_Jump;
    br->nkids = 0;
    vals[n++] = br;
    a->nvalues = 0;
    for (uint32_t i = 0; i < n; i++)
        b3_block_append(m, a, vals[i]);
    free(vals);
    a->succs[0] = (B3Succ){j, B3Freq_Normal};
    a->nsuccs = 1;
    for (int k = 0; k < 2; k++)
        if (arms[k]) {
            arms[k]->nvalues = 0; /* unreachable now: dropped with its values */
            arms[k]->nsuccs = 0;
            arms[k]->npreds = 0;
        }
    j->preds[0] = a;
    j->npreds = 1;
    return true;
}

bool b3_convert_branches_to_selects(B3Module *m, B3Proc *p) {
    bool changed = false;
    for (uint32_t bi = 0; bi < p->nblocks; bi++)
        changed |= convert(m, p, p->blocks[bi]);
    if (changed) {
        b3_proc_remove_nops(m, p);
        b3_proc_remove_unreachable(m, p);
    }
    return changed;
}
