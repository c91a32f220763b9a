/* promote_stack_slots: stack slots that are only loaded and stored become
 * Variables (beyond B3, which has no such phase; its front ends make SSA
 * values themselves).  fix_ssa, which runs next, turns them into SSA values.
 *
 * A slot is promoted when every use of its address is the pointer of a plain
 * load or store (no Traps, no fence: an acquire or release stays in memory)
 * at a constant offset inside the slot, where the address is SlotBase or
 * SlotBase plus constants (Add chains).  Any other use of such an address --
 * a stored value, a call or stackmap argument, a comparison, an Add of a
 * non-constant, an atomic, a Phi -- lets the slot escape, and it stays.
 *
 * The accesses then split the slot into fields: each distinct (offset, width)
 * is one field, and two distinct fields may not overlap (no byte splitting:
 * a slot stored whole and read in halves stays in memory).  Each field that
 * is loaded becomes one Variable:
 *   - 1- and 2-byte fields hold the Int32 that Store8/Store16 wrote, and the
 *     load narrows it (Load8Z: BitAnd 0xff, Load8S: SExt8, likewise 16);
 *   - 4- and 8-byte fields take the type most of their accesses have; a
 *     Load or Store of the other type of that width (Int32/Float,
 *     Int64/Double) goes through BitwiseCast.
 * Stores to fields never loaded, and every store to a slot never loaded, are
 * removed.  A load no store reaches reads zero (fix_ssa's default): C leaves
 * such a read undefined, so any value is right, and zero is deterministic.
 * Promoted slots are removed from the procedure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ice.h"
#include "ir/insertion_set.h"
#include "ir/ir.h"
#include "opt/phases.h"

static void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size);
    if (!p)
        b3_internal_error("promote_stack_slots", "out of memory");
    return p;
}

/* What a value is as an address: not yet known, no slot address, or
 * SlotBase(slot) + off. */
enum { Addr_Unknown, Addr_None, Addr_Slot };

typedef struct {
    uint32_t slot;
    int64_t off;
    uint8_t width;
    uint8_t type; /* of the value loaded or stored */
    bool load;
    B3Value *v;
    uint32_t field; /* index into the fields, once known */
} Access;

typedef struct {
    int64_t off;
    uint8_t width;
    uint8_t type;    /* the Variable's */
    B3Variable *var; /* NULL: never loaded */
} Field;

typedef struct {
    B3Module *m;
    B3Proc *p;
    uint8_t *state; /* by value number: Addr_* */
    uint32_t *slot_of;
    int64_t *off_of;
    bool *escapes; /* by slot index; also: cannot be split into fields */
    bool *loaded;
    Access *acc;
    uint32_t nacc, cap_acc;
    B3Value **chain;
    uint32_t cap_chain;
} Promote;

static bool is_int_const(const B3Value *v) { return v->opcode == B3_Const64 || v->opcode == B3_Const32; }

/* The constant child of an Add of a constant, and the other one in *other. */
static const B3Value *const_addend(const B3Value *v, B3Value **other) {
    if (v->opcode != B3_Add || v->nkids != 2 || v->type != B3_Int64)
        return NULL;
    if (is_int_const(v->kids[1]) && !is_int_const(v->kids[0])) {
        *other = v->kids[0];
        return v->kids[1];
    }
    if (is_int_const(v->kids[0]) && !is_int_const(v->kids[1])) {
        *other = v->kids[1];
        return v->kids[0];
    }
    return NULL;
}

/* Classifies v (and the Add chain below it) as an address; each value is
 * classified once, so all of them cost linear time. */
static uint8_t classify(Promote *pr, B3Value *v) {
    uint32_t n = 0;
    B3Value *u = v, *other;
    while (pr->state[u->scratch] == Addr_Unknown && const_addend(u, &other)) {
        if (n == pr->cap_chain) {
            pr->cap_chain = pr->cap_chain ? 2 * pr->cap_chain : 64;
            pr->chain = realloc(pr->chain, pr->cap_chain * sizeof(B3Value *));
            if (!pr->chain)
                b3_internal_error("promote_stack_slots", "out of memory");
        }
        pr->chain[n++] = u;
        u = other;
    }
    if (pr->state[u->scratch] == Addr_Unknown) {
        if (u->opcode == B3_SlotBase) {
            pr->state[u->scratch] = Addr_Slot;
            pr->slot_of[u->scratch] = u->m.slot->index;
            pr->off_of[u->scratch] = 0;
        } else {
            pr->state[u->scratch] = Addr_None;
        }
    }
    while (n) {
        B3Value *w = pr->chain[--n];
        const B3Value *c = const_addend(w, &other);
        pr->state[w->scratch] = pr->state[u->scratch];
        pr->slot_of[w->scratch] = pr->slot_of[u->scratch];
        /* Wrapping is harmless: an offset outside the slot keeps it in memory. */
        pr->off_of[w->scratch] = (int64_t)((uint64_t)pr->off_of[u->scratch] + (uint64_t)c->m.c.i);
        u = w;
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

static void add_access(Promote *pr, uint32_t slot, B3Value *v, int64_t off, bool load) {
    if (pr->nacc == pr->cap_acc) {
        pr->cap_acc = pr->cap_acc ? 2 * pr->cap_acc : 64;
        pr->acc = realloc(pr->acc, pr->cap_acc * sizeof(Access));
        if (!pr->acc)
            b3_internal_error("promote_stack_slots", "out of memory");
    }
    pr->acc[pr->nacc++] = (Access){.slot = slot,
                                   .off = off,
                                   .width = (uint8_t)access_width(v),
                                   .type = load ? v->type : v->kids[0]->type,
                                   .load = load,
                                   .v = v};
}

/* Is v a plain load or store (not atomic, no Traps, no fence)? */
static bool plain_access(const B3Value *v) {
    uint16_t fl = b3_op(v->opcode)->flags;
    return (fl & (B3OF_LOAD | B3OF_STORE)) && !(fl & B3OF_ATOMIC) && !(v->kflags & B3K_TRAPS) &&
           b3_heap_is_bottom(v->m.mem.fence_range);
}

/* Looks at every use of every slot address: a plain access through it is
 * recorded, a constant Add makes another address, anything else escapes. */
static void find_accesses(Promote *pr) {
    B3Proc *p = pr->p;
    for (uint32_t bi = 0; bi < p->nblocks; bi++) {
        B3Block *b = p->blocks[bi];
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *v = b->values[i];
            bool v_is_addr = classify(pr, v) == Addr_Slot && v->opcode == B3_Add;
            for (uint32_t k = 0; k < v->nkids; k++) {
                B3Value *c = v->kids[k];
                if (classify(pr, c) != Addr_Slot || v_is_addr)
                    continue;
                uint32_t slot = pr->slot_of[c->scratch];
                uint16_t fl = b3_op(v->opcode)->flags;
                bool is_ptr = k == v->nkids - 1 && (fl & (B3OF_LOAD | B3OF_STORE));
                if (is_ptr && plain_access(v)) {
                    bool load = (fl & B3OF_LOAD) != 0;
                    add_access(pr, slot, v, pr->off_of[c->scratch] + v->m.mem.offset, load);
                    pr->loaded[slot] |= load;
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
    if (x->off != y->off)
        return x->off < y->off ? -1 : 1;
    if (x->width != y->width)
        return x->width < y->width ? -1 : 1;
    return 0;
}

/* A name for the Variable of a field that no Variable of p has yet. */
typedef struct {
    const char **names;
    uint32_t cap, count;
} NameSet;

static uint32_t name_hash(const char *s) {
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static bool names_add(NameSet *ns, const char *s) {
    if (2 * (ns->count + 1) > ns->cap) {
        NameSet bigger = {xcalloc(ns->cap ? 2 * ns->cap : 64, sizeof(char *)), ns->cap ? 2 * ns->cap : 64, 0};
        for (uint32_t i = 0; i < ns->cap; i++)
            if (ns->names[i])
                names_add(&bigger, ns->names[i]);
        free(ns->names);
        *ns = bigger;
    }
    uint32_t i = name_hash(s) & (ns->cap - 1);
    for (; ns->names[i]; i = (i + 1) & (ns->cap - 1))
        if (!strcmp(ns->names[i], s))
            return false;
    ns->names[i] = s;
    ns->count++;
    return true;
}

static const char *field_name(B3Module *m, NameSet *ns, const char *slot, int64_t off) {
    size_t len = strlen(slot) + 48;
    char *buf = malloc(len);
    if (!buf)
        b3_internal_error("promote_stack_slots", "out of memory");
    snprintf(buf, len, "%s_%lld", slot, (long long)off);
    for (unsigned n = 2; !names_add(ns, buf); n++) {
        snprintf(buf, len, "%s_%lld_%u", slot, (long long)off, n);
    }
    /* The set holds buf: move it to the arena for good. */
    char *kept = b3_arena_strndup(&m->arena, buf, strlen(buf));
    uint32_t i = name_hash(buf) & (ns->cap - 1);
    while (ns->names[i] != buf)
        i = (i + 1) & (ns->cap - 1);
    ns->names[i] = kept;
    free(buf);
    return kept;
}

/* Splits each promotable slot's accesses into fields and makes a Variable
 * for each loaded field.  Accesses must be sorted by slot, offset, width.
 * Returns the fields (by Access.field); a slot that cannot be split gets
 * escapes[slot] set instead. */
static Field *make_fields(Promote *pr, uint32_t *nfields) {
    B3Proc *p = pr->p;
    Field *fields = xcalloc(pr->nacc, sizeof(Field));
    uint32_t nf = 0;
    NameSet names = {0};
    for (uint32_t i = 0; i < p->nvars; i++)
        names_add(&names, p->vars[i]->name);
    for (uint32_t lo = 0, hi; lo < pr->nacc; lo = hi) {
        uint32_t slot = pr->acc[lo].slot;
        for (hi = lo; hi < pr->nacc && pr->acc[hi].slot == slot; hi++) {
        }
        if (pr->escapes[slot] || !pr->loaded[slot])
            continue;
        const B3StackSlot *s = p->slots[slot];
        /* Inside the slot, and each field either equal to or disjoint from the last. */
        for (uint32_t k = lo; k < hi && !pr->escapes[slot]; k++) {
            const Access *a = &pr->acc[k];
            if (a->off < 0 || (uint64_t)a->off + a->width > s->size)
                pr->escapes[slot] = true;
            else if (k > lo && (a->off != a[-1].off || a->width != a[-1].width) &&
                     a[-1].off + a[-1].width > a->off)
                pr->escapes[slot] = true;
        }
        if (pr->escapes[slot])
            continue;
        for (uint32_t k = lo, end; k < hi; k = end) {
            Field *f = &fields[nf];
            f->off = pr->acc[k].off;
            f->width = pr->acc[k].width;
            unsigned nfloat = 0, nint = 0;
            bool loaded = false;
            for (end = k; end < hi && pr->acc[end].off == f->off && pr->acc[end].width == f->width; end++) {
                pr->acc[end].field = nf;
                loaded |= pr->acc[end].load;
                if (b3_type_is_float(pr->acc[end].type))
                    nfloat++;
                else
                    nint++;
            }
            B3Type t = f->width == 8 ? B3_Int64 : B3_Int32;
            if (nfloat > nint)
                t = f->width == 8 ? B3_Double : B3_Float;
            f->type = (uint8_t)t;
            if (loaded)
                f->var = b3_variable_new(pr->m, p,
                                         field_name(pr->m, &names, s->name ? s->name : "slot", f->off), t);
            nf++;
        }
    }
    free(names.names);
    *nfields = nf;
    return fields;
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

bool b3_promote_stack_slots(B3Module *m, B3Proc *p) {
    if (!p->nslots)
        return false;
    uint32_t n = b3_proc_number_values(p);
    Promote pr = {.m = m, .p = p};
    pr.state = xcalloc(n, 1);
    pr.slot_of = xcalloc(n, sizeof(uint32_t));
    pr.off_of = xcalloc(n, sizeof(int64_t));
    pr.escapes = xcalloc(p->nslots, sizeof(bool));
    pr.loaded = xcalloc(p->nslots, sizeof(bool));
    for (uint32_t i = 0; i < p->nslots; i++)
        p->slots[i]->index = i;
    find_accesses(&pr);

    /* Promotable: not escaping, and (when loaded) split into fields. */
    qsort(pr.acc, pr.nacc, sizeof(Access), by_slot_then_field);
    uint32_t nfields;
    Field *fields = make_fields(&pr, &nfields);
    bool *promoted = xcalloc(p->nslots, sizeof(bool));
    bool any = false;
    for (uint32_t i = 0; i < p->nslots; i++) {
        promoted[i] = !pr.escapes[i];
        any |= promoted[i];
    }
    if (any) {
        /* Accesses in value order, per block, for the insertion set. */
        uint32_t *acc_of = xcalloc(n, sizeof(uint32_t)); /* access index + 1 */
        for (uint32_t k = 0; k < pr.nacc; k++)
            acc_of[pr.acc[k].v->scratch] = k + 1;
        B3InsertionSet ins;
        b3_insertion_set_init(&ins, m, p);
        for (uint32_t bi = 0; bi < p->nblocks; bi++) {
            B3Block *b = p->blocks[bi];
            for (uint32_t i = 0; i < b->nvalues; i++) {
                B3Value *v = b->values[i];
                if (v->opcode == B3_Nop || v->opcode == B3_Identity)
                    continue;
                if (pr.state[v->scratch] == Addr_Slot && promoted[pr.slot_of[v->scratch]]) {
                    b3_value_replace_with_nop(v); /* SlotBase or an Add: only accesses used it */
                    continue;
                }
                uint32_t k = acc_of[v->scratch];
                if (!k || !promoted[pr.acc[k - 1].slot])
                    continue;
                const Access *a = &pr.acc[k - 1];
                if (!pr.loaded[a->slot]) /* a slot nobody reads: its stores are dead */
                    b3_value_replace_with_nop(v);
                else if (a->load)
                    rewrite_load(&ins, i, v, &fields[a->field]);
                else
                    rewrite_store(&ins, i, v, &fields[a->field]);
            }
            b3_insertion_set_execute(&ins, b);
        }
        b3_insertion_set_free(&ins);
        free(acc_of);
        /* The promoted slots are gone; the others keep their order. */
        uint32_t kept = 0;
        for (uint32_t i = 0; i < p->nslots; i++)
            if (!promoted[i]) {
                p->slots[kept] = p->slots[i];
                p->slots[kept]->index = kept;
                kept++;
            }
        p->nslots = kept;
        b3_proc_remove_identities(m, p);
    }
    free(promoted);
    free(fields);
    free(pr.state);
    free(pr.slot_of);
    free(pr.off_of);
    free(pr.escapes);
    free(pr.loaded);
    free(pr.acc);
    free(pr.chain);
    return any;
}
