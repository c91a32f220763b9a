/* promote_stack_slots: stack slots that are only loaded and stored become
 * Variables (beyond B3, which has no such phase; its front ends make SSA
 * values themselves).  fix_ssa, which runs next, turns them into SSA values.
 *
 * Addresses: SlotBase, plus constants (Add chains: an exact address), plus
 * anything else (an Add of a non-constant: a variable index).  A slot is a
 * candidate when every use of such an address is the pointer of a plain
 * load or store (no Traps, no fence: an acquire or release stays in memory)
 * or an Add deriving another address of it.  Any other use -- a stored
 * value, a call or stackmap argument, a comparison, an atomic, a Phi, an Add
 * of two addresses -- lets the slot escape, and it stays in memory.
 *
 * The exact accesses split the slot into fields: each distinct (offset,
 * width) inside the slot is one field, and two distinct fields may not
 * overlap (no byte splitting: a slot stored whole and read in halves stays in
 * memory).  A field is one Variable:
 *   - 1- and 2-byte fields hold the Int32 that Store8/Store16 wrote, and the
 *     load narrows it (Load8Z: BitAnd 0xff, Load8S: SExt8, likewise 16);
 *   - 4- and 8-byte fields take the type most of their accesses have; a
 *     Load or Store of the other type of that width (Int32/Float,
 *     Int64/Double) goes through BitwiseCast.
 *
 * A slot nobody loads from is dead: its stores go.  A slot with exact
 * accesses only is promoted whole: its accesses become Gets and Sets, and the
 * slot is removed (only loaded fields get a Variable).  A load no store
 * reaches reads zero (fix_ssa's default): C leaves such a read undefined, so
 * any value is right, and zero is deterministic.
 *
 * A slot that is also indexed (an array: int x[16] filled and read in loops,
 * its elements used at constant indices in between) is promoted by region,
 * beyond what a strict reading of "promotable" allows: each block is in
 * state Reg (the fields' Variables hold the slot's contents) or Mem (memory
 * does), or Free (nothing reaches an access of the slot any more).  Blocks
 * with an indexed access are Mem, and so is every block of a natural loop
 * that has one (so no loop syncs on each iteration); blocks from which an
 * exact access is reachable without passing a Mem block are Reg; the rest
 * Mem.  Exact accesses in Reg blocks become Gets and Sets, the others stay;
 * on each edge from a Reg to a Mem block every field is stored back, on each
 * edge from Mem to Reg every field is loaded (at the start of a successor
 * with one predecessor, else at the end of a predecessor with one successor,
 * else in a block splitting the edge).  Only worth it when some Reg block
 * has an exact access; otherwise the slot stays.  The analysis is linear per
 * slot: slots past a budget of slots times blocks stay in memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/dominators.h"
#include "ir/ice.h"
#include "ir/insertion_set.h"
#include "ir/ir.h"
#include "ir/loops.h"
#include "ir/use_counts.h"
#include "opt/phases.h"
#include "util/alloc.h"
#include "util/strmap.h"
#include "util/vec.h"

/* What a value is as an address: not yet known, no slot address,
 * SlotBase(slot) + off, or SlotBase(slot) + something not constant. */
enum { Addr_Unknown, Addr_None, Addr_Exact, Addr_Indexed };

/* What becomes of a slot. */
enum { Slot_Keep, Slot_Dead, Slot_Whole, Slot_Region };

/* A block's state for a slot promoted by region. */
enum { State_Free, State_Mem, State_Reg };

/* Region analysis budget: slots times blocks. */
#define REGION_BUDGET (1u << 21)

typedef struct {
    uint32_t slot;
    bool exact; /* at a constant offset (off); else indexed */
    bool load;
    uint8_t width;
    uint8_t type; /* of the value loaded or stored */
    int64_t off;
    B3Value *v;
    uint32_t field; /* exact: index into the fields, once known */
} Access;

typedef struct {
    int64_t off;
    uint8_t width;
    uint8_t type;    /* the Variable's */
    bool loaded;     /* by an exact load */
    B3Variable *var; /* NULL: not needed (a field never loaded, in a slot promoted whole) */
} Field;

typedef struct {
    B3Module *m;
    B3Proc *p;
    uint32_t nvalues, nblocks, nslots;
    uint8_t *state; /* by value number: Addr_* */
    uint32_t *slot_of;
    int64_t *off_of;
    B3Value **stack; /* for classify */
    uint32_t cap_stack;
    bool *escapes; /* by slot index; also: cannot be split into fields */
    bool *loaded, *indexed;
    uint8_t *fate; /* by slot index: Slot_* */
    Access *acc;   /* sorted by slot, then exact ones by offset and width */
    uint32_t nacc, cap_acc;
    uint32_t *acc_start; /* by slot: its accesses are acc[acc_start[s] .. acc_start[s + 1]) */
    Field *fields;
    uint32_t *field_start; /* by slot, likewise */
    uint8_t **region;      /* by slot: per-block State_* (Slot_Region only) */
} Promote;

static bool is_int_const(const B3Value *v) { return v->opcode == B3_Const64 || v->opcode == B3_Const32; }

static bool may_be_address(const B3Value *v) {
    return v->opcode == B3_SlotBase || (v->opcode == B3_Add && v->type == B3_Int64 && v->nkids == 2);
}

static void push(Promote *pr, uint32_t *n, B3Value *v) {
    if (*n == pr->cap_stack) {
        pr->cap_stack = pr->cap_stack ? 2 * pr->cap_stack : 64;
        pr->stack = b3_xrealloc("promote_stack_slots", pr->stack, pr->cap_stack * sizeof(B3Value *));
    }
    pr->stack[(*n)++] = v;
}

/* The address state of an Add whose children are classified. */
static void classify_add(Promote *pr, B3Value *v) {
    uint8_t sa = pr->state[v->kids[0]->scratch], sb = pr->state[v->kids[1]->scratch];
    bool a = sa == Addr_Exact || sa == Addr_Indexed, b = sb == Addr_Exact || sb == Addr_Indexed;
    if (a == b) { /* no address, or two (which escape at their use) */
        pr->state[v->scratch] = Addr_None;
        return;
    }
    const B3Value *base = a ? v->kids[0] : v->kids[1], *other = a ? v->kids[1] : v->kids[0];
    pr->slot_of[v->scratch] = pr->slot_of[base->scratch];
    if (pr->state[base->scratch] == Addr_Exact && is_int_const(other)) {
        pr->state[v->scratch] = Addr_Exact;
        /* Wrapping is harmless: an offset outside the slot keeps it in memory. */
        pr->off_of[v->scratch] = (int64_t)((uint64_t)pr->off_of[base->scratch] + (uint64_t)other->m.c.i);
    } else {
        pr->state[v->scratch] = Addr_Indexed;
    }
}

/* Classifies v and the Adds below it, children first, with an explicit
 * stack; each value is classified once, so all of them cost linear time. */
static uint8_t classify(Promote *pr, B3Value *v) {
    if (pr->state[v->scratch] != Addr_Unknown)
        return pr->state[v->scratch];
    uint32_t n = 0;
    push(pr, &n, v);
    while (n) {
        B3Value *u = pr->stack[n - 1];
        if (pr->state[u->scratch] != Addr_Unknown) {
            n--;
            continue;
        }
        if (!may_be_address(u)) {
            pr->state[u->scratch] = Addr_None;
            n--;
            continue;
        }
        if (u->opcode == B3_SlotBase) {
            pr->state[u->scratch] = Addr_Exact;
            pr->slot_of[u->scratch] = u->m.slot->index;
            pr->off_of[u->scratch] = 0;
            n--;
            continue;
        }
        bool ready = true;
        for (uint32_t k = 0; k < 2; k++)
            if (pr->state[u->kids[k]->scratch] == Addr_Unknown) {
                push(pr, &n, u->kids[k]);
                ready = false;
            }
        if (ready) {
            classify_add(pr, u);
            n--;
        }
    }
    return pr->state[v->scratch];
}

static unsigned access_width(const B3Value *v) {
    switch ((B3Opcode)v->opcode) {
    case B3_Load8Z:
    case B3_Load8S:
    case B3_Store8:
        return 1;
    case B3_Load16Z:
    case B3_Load16S:
    case B3_Store16:
        return 2;
    case B3_Store:
        return b3_type_bytes(v->kids[0]->type);
    default:
        return b3_type_bytes(v->type);
    }
}

static void add_access(Promote *pr, const Access *a) {
    B3_VEC_RESERVE("promote_stack_slots", pr->acc, pr->cap_acc, pr->nacc + 1);
    pr->acc[pr->nacc++] = *a;
}

/* Is v a plain load or store (not atomic, no Traps, no fence)? */
static bool plain_access(const B3Value *v) {
    uint16_t fl = b3_op(v->opcode)->flags;
    return (fl & (B3OF_LOAD | B3OF_STORE)) && !(fl & B3OF_ATOMIC) && !(v->kflags & B3K_TRAPS) &&
           b3_heap_is_bottom(v->m.mem.fence_range);
}

/* Looks at every use of every slot address: a plain access through it is
 * recorded, an Add deriving another address of the slot is fine, anything
 * else escapes. */
static void find_accesses(Promote *pr) {
    B3Proc *p = pr->p;
    for (uint32_t bi = 0; bi < p->nblocks; bi++) {
        B3Block *b = p->blocks[bi];
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *v = b->values[i];
            uint8_t vs = classify(pr, v);
            bool derives = v->opcode == B3_Add && (vs == Addr_Exact || vs == Addr_Indexed);
            for (uint32_t k = 0; k < v->nkids; k++) {
                B3Value *c = v->kids[k];
                uint8_t cs = classify(pr, c);
                if ((cs != Addr_Exact && cs != Addr_Indexed) || derives)
                    continue;
                uint32_t slot = pr->slot_of[c->scratch];
                uint16_t fl = b3_op(v->opcode)->flags;
                if (k == v->nkids - 1 && (fl & (B3OF_LOAD | B3OF_STORE)) && plain_access(v)) {
                    bool load = (fl & B3OF_LOAD) != 0;
                    Access a = {.slot = slot,
                                .exact = cs == Addr_Exact,
                                .load = load,
                                .width = (uint8_t)access_width(v),
                                .type = load ? v->type : v->kids[0]->type,
                                .off = cs == Addr_Exact ? (int64_t)((uint64_t)pr->off_of[c->scratch] +
                                                                    (uint64_t)(int64_t)v->m.mem.offset)
                                                        : 0,
                                .v = v};
                    add_access(pr, &a);
                    pr->loaded[slot] |= load;
                    pr->indexed[slot] |= !a.exact;
                } else {
                    pr->escapes[slot] = true;
                }
            }
        }
    }
}

static int by_slot_then_field(const void *a, const void *b) {
    const Access *x = a, *y = b;
    if (x->slot != y->slot)
        return x->slot < y->slot ? -1 : 1;
    if (x->exact != y->exact)
        return x->exact ? -1 : 1;
    if (x->off != y->off)
        return x->off < y->off ? -1 : 1;
    if (x->width != y->width)
        return x->width < y->width ? -1 : 1;
    /* Stable for determinism: value numbers are unique. */
    return x->v->index < y->v->index ? -1 : x->v->index > y->v->index;
}

/* A name for the Variable of a field that no Variable of p has yet (names:
 * the names taken, each mapped to itself). */
static const char *field_name(B3Module *m, B3StrMap *names, const char *slot, int64_t off) {
    size_t len = strlen(slot) + 48;
    char *buf = b3_xmalloc("promote_stack_slots", len);
    snprintf(buf, len, "%s_%lld", slot, (long long)off);
    for (unsigned n = 2; b3_strmap_get(names, buf, (uint32_t)strlen(buf)); n++)
        snprintf(buf, len, "%s_%lld_%u", slot, (long long)off, n);
    char *kept = b3_arena_strndup(&m->arena, buf, strlen(buf));
    free(buf);
    b3_strmap_put(names, kept, (uint32_t)strlen(kept), kept);
    return kept;
}

/* The fields of slot s from its exact accesses (sorted): each access gets its
 * field index.  False if one is outside the slot or two fields overlap. */
static bool split_fields(Promote *pr, uint32_t s, uint32_t *nf) {
    const B3StackSlot *slot = pr->p->slots[s];
    uint32_t lo = pr->acc_start[s], hi = pr->acc_start[s + 1], first = *nf;
    for (uint32_t k = lo, end; k < hi && pr->acc[k].exact; k = end) {
        const Access *a = &pr->acc[k];
        if (a->off < 0 || (uint64_t)a->off + a->width > slot->size)
            return false;
        if (*nf > first && pr->fields[*nf - 1].off + pr->fields[*nf - 1].width > a->off)
            return false;
        Field *f = &pr->fields[(*nf)++];
        f->off = a->off;
        f->width = a->width;
        f->var = NULL;
        f->loaded = false;
        unsigned nfloat = 0, nint = 0;
        for (end = k;
             end < hi && pr->acc[end].exact && pr->acc[end].off == f->off && pr->acc[end].width == f->width;
             end++) {
            pr->acc[end].field = *nf - 1;
            f->loaded |= pr->acc[end].load;
            if (b3_type_is_float(pr->acc[end].type))
                nfloat++;
            else
                nint++;
        }
        B3Type t = f->width == 8 ? B3_Int64 : B3_Int32;
        if (nfloat > nint)
            t = f->width == 8 ? B3_Double : B3_Float;
        f->type = (uint8_t)t;
    }
    return true;
}

/* Per-block and per-loop flags for the region analysis, reused slot after slot. */
typedef struct {
    uint8_t *exact, *indexed, *forced, *useful, *later; /* by block position */
    uint8_t *loop_indexed, *loop_forced;                /* by loop index */
    B3Block **work;
} Region;

/* Marks (in mark, from the blocks already marked and listed in work) every
 * block from which one of them is reachable, not entering blocks in stop. */
static void mark_backwards(B3Block **work, uint32_t n, uint8_t *mark, const uint8_t *stop) {
    while (n) {
        const B3Block *b = work[--n];
        for (uint32_t i = 0; i < b->npreds; i++) {
            B3Block *q = b->preds[i];
            if (mark[q->pos] || (stop && stop[q->pos]))
                continue;
            mark[q->pos] = 1;
            work[n++] = q;
        }
    }
}

/* The state of each block for slot s (into st); true if some Reg block has an
 * exact access, which is what promoting by region buys. */
static bool analyze_region(Promote *pr, uint32_t s, const B3Loops *l, Region *r, uint8_t *st) {
    uint32_t nb = pr->nblocks;
    memset(r->exact, 0, nb);
    memset(r->indexed, 0, nb);
    memset(r->useful, 0, nb);
    memset(r->later, 0, nb);
    memset(r->loop_indexed, 0, l->nloops);
    for (uint32_t k = pr->acc_start[s]; k < pr->acc_start[s + 1]; k++) {
        const B3Block *b = pr->acc[k].v->owner;
        (pr->acc[k].exact ? r->exact : r->indexed)[b->pos] = 1;
    }
    /* Loops with an indexed access, and the loops inside them, stay in memory. */
    for (uint32_t b = 0; b < nb; b++) {
        const B3Loop *loop = r->indexed[b] ? b3_loop_of(l, pr->p->blocks[b]) : NULL;
        if (loop)
            r->loop_indexed[loop->index] = 1;
    }
    for (uint32_t i = l->nloops; i-- > 0;) /* inner loops come after their parents */
        if (r->loop_indexed[i] && l->loops[i].parent)
            r->loop_indexed[l->loops[i].parent->index] = 1;
    for (uint32_t i = 0; i < l->nloops; i++)
        r->loop_forced[i] =
            r->loop_indexed[i] || (l->loops[i].parent && r->loop_forced[l->loops[i].parent->index]);
    uint32_t n = 0, m = 0;
    for (uint32_t b = 0; b < nb; b++) {
        const B3Loop *loop = b3_loop_of(l, pr->p->blocks[b]);
        r->forced[b] = r->indexed[b] || (loop && r->loop_forced[loop->index]);
        if (r->exact[b] && !r->forced[b]) {
            r->useful[b] = 1;
            r->work[n++] = pr->p->blocks[b];
        }
    }
    mark_backwards(r->work, n, r->useful, r->forced);
    for (uint32_t b = 0; b < nb; b++)
        if (r->exact[b] || r->indexed[b]) {
            r->later[b] = 1;
            r->work[m++] = pr->p->blocks[b];
        }
    mark_backwards(r->work, m, r->later, NULL);
    bool worth = false;
    for (uint32_t b = 0; b < nb; b++) {
        st[b] = !r->later[b] ? State_Free : r->useful[b] ? State_Reg : State_Mem;
        worth |= st[b] == State_Reg && r->exact[b];
    }
    return worth;
}

/* Decides each slot's fate (Slot_*), with its fields and their Variables. */
static bool decide(Promote *pr) {
    B3Proc *p = pr->p;
    uint32_t nf = 0, nregion = 0;
    bool any = false;
    B3Dominators dom;
    B3Loops loops;
    Region r = {0};
    bool have_loops = false;
    B3StrMap names;
    b3_strmap_init(&names, "promote_stack_slots");
    for (uint32_t i = 0; i < p->nvars; i++) {
        const char *name = p->vars[i]->name;
        b3_strmap_put(&names, name, (uint32_t)strlen(name), (void *)name);
    }
    for (uint32_t s = 0; s < p->nslots; s++) {
        pr->field_start[s] = nf;
        uint8_t fate = Slot_Keep;
        if (pr->escapes[s])
            fate = Slot_Keep;
        else if (!pr->loaded[s])
            fate = Slot_Dead;
        else if (!split_fields(pr, s, &nf))
            fate = Slot_Keep;
        else if (!pr->indexed[s])
            fate = Slot_Whole;
        else if ((uint64_t)(nregion + 1) * pr->nblocks <= REGION_BUDGET) {
            if (!have_loops) {
                b3_dominators_compute(&dom, p);
                b3_loops_compute(&loops, p, &dom);
                r.exact = b3_xcalloc("promote_stack_slots", 5 * (size_t)pr->nblocks, 1);
                r.indexed = r.exact + pr->nblocks;
                r.forced = r.indexed + pr->nblocks;
                r.useful = r.forced + pr->nblocks;
                r.later = r.useful + pr->nblocks;
                r.loop_indexed = b3_xcalloc("promote_stack_slots", 2 * (size_t)loops.nloops, 1);
                r.loop_forced = r.loop_indexed + loops.nloops;
                r.work = b3_xcalloc("promote_stack_slots", pr->nblocks, sizeof(B3Block *));
                have_loops = true;
            }
            uint8_t *st = b3_xcalloc("promote_stack_slots", pr->nblocks, 1);
            nregion++;
            if (analyze_region(pr, s, &loops, &r, st)) {
                fate = Slot_Region;
                pr->region[s] = st;
            } else {
                free(st);
            }
        }
        if (fate != Slot_Whole && fate != Slot_Region)
            nf = pr->field_start[s];
        pr->fate[s] = fate;
        any |= fate != Slot_Keep;
        /* A slot promoted whole needs Variables for the fields it loads; by
         * region, for all: every field is synced. */
        for (uint32_t i = pr->field_start[s]; i < nf; i++) {
            Field *f = &pr->fields[i];
            if (fate == Slot_Region || f->loaded) {
                const char *sn = p->slots[s]->name ? p->slots[s]->name : "slot";
                f->var = b3_variable_new(pr->m, p, field_name(pr->m, &names, sn, f->off), f->type);
            }
        }
    }
    pr->field_start[p->nslots] = nf;
    b3_strmap_free(&names);
    if (have_loops) {
        b3_loops_free(&loops);
        b3_dominators_free(&dom);
        free(r.exact);
        free(r.loop_indexed);
        free(r.work);
    }
    return any;
}

static B3Value *insert_const32(B3InsertionSet *ins, uint32_t i, const B3Value *origin, int32_t c) {
    return b3_insertion_set_insert_int_const(ins, i, origin, B3_Int32, c);
}

static B3Value *insert_op1(B3InsertionSet *ins, uint32_t i, const B3Value *origin, B3Opcode op, B3Type t,
                           B3Value *a) {
    B3Value *v = b3_insertion_set_insert_new(ins, i, op, t, 1, origin);
    v->kids[0] = a;
    return v;
}

static B3Value *insert_op2(B3InsertionSet *ins, uint32_t i, const B3Value *origin, B3Opcode op, B3Type t,
                           B3Value *a, B3Value *b) {
    B3Value *v = b3_insertion_set_insert_new(ins, i, op, t, 2, origin);
    v->kids[0] = a;
    v->kids[1] = b;
    return v;
}

/* A load of field f becomes Get, narrowed or cast to what the load reads. */
static void rewrite_load(B3InsertionSet *ins, uint32_t i, B3Value *v, const Field *f) {
    B3Value *get = b3_insertion_set_insert_new(ins, i, B3_Get, f->type, 0, v);
    get->m.var = f->var;
    B3Value *r = get;
    switch ((B3Opcode)v->opcode) {
    case B3_Load8Z:
        r = insert_op2(ins, i, v, B3_BitAnd, B3_Int32, get, insert_const32(ins, i, v, 0xff));
        break;
    case B3_Load16Z:
        r = insert_op2(ins, i, v, B3_BitAnd, B3_Int32, get, insert_const32(ins, i, v, 0xffff));
        break;
    case B3_Load8S:
        r = insert_op1(ins, i, v, B3_SExt8, B3_Int32, get);
        break;
    case B3_Load16S:
        r = insert_op1(ins, i, v, B3_SExt16, B3_Int32, get);
        break;
    default:
        if (v->type != f->type)
            r = insert_op1(ins, i, v, B3_BitwiseCast, v->type, get);
        break;
    }
    b3_value_replace_with_identity(v, r);
}

/* A store to field f becomes Set (of the bits, for a store of the other
 * type), or nothing when f is never loaded. */
static void rewrite_store(B3InsertionSet *ins, uint32_t i, B3Value *v, const Field *f) {
    if (f->var) {
        B3Value *x = v->kids[0];
        if (v->opcode == B3_Store && x->type != f->type)
            x = insert_op1(ins, i, v, B3_BitwiseCast, f->type, x);
        B3Value *set = b3_insertion_set_insert_new(ins, i, B3_Set, B3_Void, 1, v);
        set->kids[0] = x;
        set->m.var = f->var;
    }
    b3_value_replace_with_nop(v);
}

/* The code that makes slot s's memory and Variables agree before index at
 * of b: to_reg loads every field into its Variable, else every Variable is
 * stored back. */
static void emit_sync(Promote *pr, B3InsertionSet *ins, uint32_t at, const B3Value *origin, uint32_t s,
                      bool to_reg) {
    B3Value *base = b3_insertion_set_insert_new(ins, at, B3_SlotBase, B3_Int64, 0, origin);
    base->m.slot = pr->p->slots[s];
    for (uint32_t i = pr->field_start[s]; i < pr->field_start[s + 1]; i++) {
        const Field *f = &pr->fields[i];
        if (to_reg) {
            B3Opcode op = f->width == 1 ? B3_Load8Z : f->width == 2 ? B3_Load16Z : B3_Load;
            B3Value *ld = b3_insertion_set_insert_new(ins, at, op, f->type, 1, origin);
            ld->kids[0] = base;
            ld->m.mem.offset = (int32_t)f->off;
            B3Value *set = b3_insertion_set_insert_new(ins, at, B3_Set, B3_Void, 1, origin);
            set->kids[0] = ld;
            set->m.var = f->var;
        } else {
            B3Value *get = b3_insertion_set_insert_new(ins, at, B3_Get, f->type, 0, origin);
            get->m.var = f->var;
            B3Opcode op = f->width == 1 ? B3_Store8 : f->width == 2 ? B3_Store16 : B3_Store;
            B3Value *st = b3_insertion_set_insert_new(ins, at, op, B3_Void, 2, origin);
            st->kids[0] = get;
            st->kids[1] = base;
            st->m.mem.offset = (int32_t)f->off;
        }
    }
}

/* Addresses of slots promoted by region that no access uses any more (all
 * in Reg blocks): Nops, Adds before the values they derive from. */
static void drop_dead_addresses(Promote *pr, B3Value **cands, uint32_t n) {
    B3UseCounts uc;
    b3_use_counts_compute(&uc, pr->p);
    bool *cand = b3_xcalloc("promote_stack_slots", uc.nvalues, sizeof(bool));
    for (uint32_t i = 0; i < n; i++)
        cand[cands[i]->scratch] = true;
    uint32_t nwork = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!b3_use_count(&uc, cands[i]))
            cands[nwork++] = cands[i];
    while (nwork) {
        B3Value *v = cands[--nwork];
        for (uint32_t k = 0; k < v->nkids; k++) {
            B3Value *c = v->kids[k];
            if (cand[c->scratch] && --uc.uses[c->scratch] == 0)
                cands[nwork++] = c;
        }
        b3_value_replace_with_nop(v);
    }
    free(cand);
    b3_use_counts_free(&uc);
    b3_proc_remove_nops(pr->m, pr->p);
}

/* An edge of a slot promoted by region whose ends disagree. */
typedef struct {
    uint32_t from, to, slot; /* block positions, slot index */
} Sync;

static int by_edge(const void *a, const void *b) {
    const Sync *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    if (x->to != y->to)
        return x->to < y->to ? -1 : 1;
    return x->slot < y->slot ? -1 : x->slot > y->slot;
}

/* A new block on the edge from -> to, which it takes over. */
static B3Block *split_edge(Promote *pr, B3Block *from, B3Block *to) {
    B3Block *n = b3_block_new(pr->m, pr->p, UINT32_MAX);
    n->loc = n->succ_loc = to->loc;
    n->frequency = from->frequency < to->frequency ? from->frequency : to->frequency;
    B3Value *jump = b3_value_new(pr->m, pr->p, B3_Jump, B3_Void, 0, UINT32_MAX);
    const B3Value *last = b3_block_last(from);
    if (last)
        jump->loc = jump->type_loc = last->loc;
    b3_block_append(pr->m, n, jump);
    n->succs = b3_arena_alloc(&pr->m->arena, sizeof(B3Succ));
    n->succs[0] = (B3Succ){to, B3Freq_Normal};
    n->nsuccs = 1;
    for (uint32_t i = 0; i < from->nsuccs; i++)
        if (from->succs[i].block == to) {
            n->succs[0].freq = from->succs[i].freq;
            from->succs[i].block = n;
        }
    return n;
}

/* Syncs on every edge between a Reg and a Mem block of a slot promoted by
 * region.  Returns whether a block was added (predecessors are then stale). */
static bool place_syncs(Promote *pr, B3InsertionSet *ins) {
    B3Proc *p = pr->p;
    uint32_t nb = pr->nblocks, n = 0, cap = 0;
    Sync *syncs = NULL;
    uint32_t *seen =
        b3_xcalloc("promote_stack_slots", nb, sizeof(uint32_t)); /* successor listed for block + 1 */
    for (uint32_t s = 0; s < pr->nslots; s++) {
        const uint8_t *st = pr->region[s];
        if (!st)
            continue;
        for (uint32_t b = 0; b < nb; b++) {
            const B3Block *from = p->blocks[b];
            if (st[b] == State_Free)
                continue;
            for (uint32_t i = 0; i < from->nsuccs; i++) {
                uint32_t to = from->succs[i].block->pos;
                if (seen[to] == b + 1 || st[to] == State_Free || st[to] == st[b])
                    continue;
                seen[to] = b + 1;
                B3_VEC_RESERVE("promote_stack_slots", syncs, cap, n + 1);
                syncs[n++] = (Sync){b, to, s};
            }
        }
        memset(seen, 0, nb * sizeof(uint32_t));
    }
    free(seen);
    if (n) /* qsort needs a real array even for no elements */
        qsort(syncs, n, sizeof(Sync), by_edge);
    bool split = false;
    for (uint32_t lo = 0, hi; lo < n; lo = hi) {
        B3Block *from = p->blocks[syncs[lo].from], *to = p->blocks[syncs[lo].to];
        for (hi = lo; hi < n && syncs[hi].from == syncs[lo].from && syncs[hi].to == syncs[lo].to; hi++) {
        }
        /* Where the edge's code goes: the start of a successor entered only
         * through it (not the root: it is entered on the call too), the end
         * of a predecessor that only goes there, or a new block. */
        bool only_succ = true;
        for (uint32_t i = 0; i < from->nsuccs; i++)
            only_succ &= from->succs[i].block == to;
        B3Block *at;
        uint32_t index;
        if (to->npreds == 1 && to->pos != 0) {
            at = to;
            index = 0;
        } else if (only_succ) {
            at = from;
            index = from->nvalues - 1;
        } else {
            at = split_edge(pr, from, to);
            index = 0;
            split = true;
        }
        const B3Value *origin = b3_block_last(from);
        for (uint32_t k = lo; k < hi; k++)
            emit_sync(pr, ins, index, origin, syncs[k].slot, pr->region[syncs[k].slot][to->pos] == State_Reg);
        b3_insertion_set_execute(ins, at);
    }
    free(syncs);
    return split;
}

bool b3_promote_stack_slots(B3Module *m, B3Proc *p) {
    if (!p->nslots)
        return false;
    Promote pr = {.m = m, .p = p, .nblocks = p->nblocks, .nslots = p->nslots};
    pr.nvalues = b3_proc_number_values(p);
    pr.state = b3_xcalloc("promote_stack_slots", pr.nvalues, 1);
    pr.slot_of = b3_xcalloc("promote_stack_slots", pr.nvalues, sizeof(uint32_t));
    pr.off_of = b3_xcalloc("promote_stack_slots", pr.nvalues, sizeof(int64_t));
    pr.escapes = b3_xcalloc("promote_stack_slots", p->nslots, sizeof(bool));
    pr.loaded = b3_xcalloc("promote_stack_slots", p->nslots, sizeof(bool));
    pr.indexed = b3_xcalloc("promote_stack_slots", p->nslots, sizeof(bool));
    pr.fate = b3_xcalloc("promote_stack_slots", p->nslots, 1);
    pr.region = b3_xcalloc("promote_stack_slots", p->nslots, sizeof(uint8_t *));
    pr.acc_start = b3_xcalloc("promote_stack_slots", p->nslots + 1, sizeof(uint32_t));
    pr.field_start = b3_xcalloc("promote_stack_slots", p->nslots + 1, sizeof(uint32_t));
    for (uint32_t i = 0; i < p->nslots; i++)
        p->slots[i]->index = i;
    find_accesses(&pr);
    if (pr.nacc)
        qsort(pr.acc, pr.nacc, sizeof(Access), by_slot_then_field);
    for (uint32_t k = 0; k < pr.nacc; k++)
        pr.acc_start[pr.acc[k].slot + 1]++;
    for (uint32_t s = 0; s < p->nslots; s++)
        pr.acc_start[s + 1] += pr.acc_start[s];
    pr.fields = b3_xcalloc("promote_stack_slots", pr.nacc, sizeof(Field));

    bool any = decide(&pr);
    if (any) {
        uint32_t *acc_of =
            b3_xcalloc("promote_stack_slots", pr.nvalues, sizeof(uint32_t)); /* access index + 1 */
        for (uint32_t k = 0; k < pr.nacc; k++)
            acc_of[pr.acc[k].v->scratch] = k + 1;
        B3InsertionSet ins;
        b3_insertion_set_init(&ins, m, p);
        for (uint32_t bi = 0; bi < pr.nblocks; bi++) {
            B3Block *b = p->blocks[bi];
            for (uint32_t i = 0; i < b->nvalues; i++) {
                B3Value *v = b->values[i];
                uint8_t as = pr.state[v->scratch];
                if ((as == Addr_Exact || as == Addr_Indexed) &&
                    (pr.fate[pr.slot_of[v->scratch]] == Slot_Whole ||
                     pr.fate[pr.slot_of[v->scratch]] == Slot_Dead)) {
                    b3_value_replace_with_nop(v); /* SlotBase or an Add: only accesses used it */
                    continue;
                }
                uint32_t k = acc_of[v->scratch];
                if (!k)
                    continue;
                const Access *a = &pr.acc[k - 1];
                uint8_t fate = pr.fate[a->slot];
                if (fate == Slot_Dead) /* a slot nobody reads: its stores are dead */
                    b3_value_replace_with_nop(v);
                else if (fate == Slot_Whole ||
                         (fate == Slot_Region && a->exact && pr.region[a->slot][bi] == State_Reg))
                    (a->load ? rewrite_load : rewrite_store)(&ins, i, v, &pr.fields[a->field]);
            }
            b3_insertion_set_execute(&ins, b);
        }
        free(acc_of);
        /* Addresses of slots promoted by region, for drop_dead_addresses
         * (listed now: the value numbers change). */
        uint32_t ncands = 0;
        B3Value **cands = b3_xcalloc("promote_stack_slots", pr.nvalues, sizeof(B3Value *));
        for (uint32_t i = 0; i < pr.nvalues; i++) {
            B3Value *v = p->values[i];
            uint8_t as = pr.state[v->scratch];
            if ((as == Addr_Exact || as == Addr_Indexed) && pr.fate[pr.slot_of[v->scratch]] == Slot_Region)
                cands[ncands++] = v;
        }
        bool split = place_syncs(&pr, &ins);
        b3_insertion_set_free(&ins);
        /* The slots promoted whole or dead are gone; the others keep their order. */
        uint32_t kept = 0;
        for (uint32_t i = 0; i < p->nslots; i++)
            if (pr.fate[i] == Slot_Keep || pr.fate[i] == Slot_Region) {
                p->slots[kept] = p->slots[i];
                p->slots[kept]->index = kept;
                kept++;
            }
        p->nslots = kept;
        b3_proc_remove_identities(m, p);
        if (ncands)
            drop_dead_addresses(&pr, cands, ncands);
        free(cands);
        if (split)
            b3_proc_compute_preds(m, p);
    }
    for (uint32_t s = 0; s < pr.nslots; s++)
        free(pr.region[s]);
    free(pr.region);
    free(pr.state);
    free(pr.slot_of);
    free(pr.off_of);
    free(pr.stack);
    free(pr.escapes);
    free(pr.loaded);
    free(pr.indexed);
    free(pr.fate);
    free(pr.acc);
    free(pr.acc_start);
    free(pr.fields);
    free(pr.field_start);
    return any;
}
