/* IR construction: the opcode table, modules, symbols, procedures, blocks, values. */
#include "ir/ir.h"

#include <stdlib.h>
#include <string.h>

#include "ir/ice.h"
#include "util/vec.h"

const B3OpInfo b3_op_info[B3_NUM_OPCODES] = {
#define B3_OP(name, res, kids, mn, mx, meta, eff, fl) \
    {#name, B3R_##res, B3C_##kids, mn, mx, B3M_##meta, B3E_##eff, (uint32_t)(fl)},
#include "ir/opcodes.def"
#undef B3_OP
};

const char *b3_type_name(B3Type t) {
    static const char *const names[] = {"Void", "Int32", "Int64", "Float", "Double"};
    return t < B3_NUM_TYPES ? names[t] : "?";
}

const char *b3_rep_name(B3RepKind k) {
    static const char *const names[] = {
        [B3Rep_WarmAny] = "WarmAny",
        [B3Rep_ColdAny] = "ColdAny",
        [B3Rep_LateColdAny] = "LateColdAny",
        [B3Rep_SomeRegister] = "SomeRegister",
        [B3Rep_SomeRegisterWithClobber] = "SomeRegisterWithClobber",
        [B3Rep_SomeEarlyRegister] = "SomeEarlyRegister",
        [B3Rep_SomeLateRegister] = "SomeLateRegister",
        [B3Rep_Register] = "Register",
        [B3Rep_LateRegister] = "LateRegister",
        [B3Rep_Stack] = "Stack",
        [B3Rep_StackArgument] = "StackArgument",
        [B3Rep_Constant] = "Constant",
    };
    return (unsigned)k <= B3Rep_Constant ? names[k] : "?";
}

/* Opcode names are looked up in a small hash table built on first use. */
B3Opcode b3_opcode_from_name(const char *s, size_t len) {
    for (int i = 0; i < B3_NUM_OPCODES; i++) {
        const char *n = b3_op_info[i].name;
        if (n[0] == s[0] && strlen(n) == len && !memcmp(n, s, len))
            return (B3Opcode)i;
    }
    return B3_NUM_OPCODES;
}

/* Comparison facts: tables indexed by opcode, B3_Nop (0) elsewhere. */
#define B3_OP(...)
static const uint16_t compare_swapped[B3_NUM_OPCODES] = {
#define B3_COMPARE(name, sw, inv, finv) [B3_##name] = B3_##sw,
#include "ir/opcodes.def"
#undef B3_COMPARE
};
static const uint16_t compare_inverted[B3_NUM_OPCODES] = {
#define B3_COMPARE(name, sw, inv, finv) [B3_##name] = B3_##inv,
#include "ir/opcodes.def"
#undef B3_COMPARE
};
static const uint16_t compare_inverted_fp[B3_NUM_OPCODES] = {
#define B3_COMPARE(name, sw, inv, finv) [B3_##name] = B3_##finv,
#include "ir/opcodes.def"
#undef B3_COMPARE
};
#undef B3_OP

B3Opcode b3_compare_swapped(B3Opcode op) {
    return op < B3_NUM_OPCODES ? (B3Opcode)compare_swapped[op] : B3_Nop;
}

B3Opcode b3_compare_inverted(B3Opcode op, B3Type operand_type) {
    if (op >= B3_NUM_OPCODES)
        return B3_Nop;
    return (B3Opcode)(b3_type_is_float(operand_type) ? compare_inverted_fp[op] : compare_inverted[op]);
}

/* ---- number maps ---- */

/* Value and block numbers are mostly dense and ascending: runs of 16
 * neighbours stay together, which keeps the map's probes cache-friendly,
 * and the runs are scattered by a full mix of the rest of the number.  (A
 * hash that kept whole ranges together would let two ranges that alias in
 * the table merge into one long probe run: quadratic time.)  A probe that
 * misses steps to the next run's slot after its own (NUM_PROBE_STEP): a run
 * that lands on an occupied one then moves next door as a whole, where a
 * step of 1 would walk each of its keys through the other run.  The step is
 * odd, so the probe still visits every slot of the power-of-two table. */
enum { NUM_PROBE_STEP = 17 };

static uint32_t hash32(uint32_t x) {
    uint32_t h = x >> 4;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h << 4 | (x & 15);
}

/* Whether key keeps a map of count entries dense: the array stays within a
 * few slots per entry (values and blocks are numbered from 0, mostly without
 * gaps), so a direct index costs no more memory than the table would. */
static bool nummap_dense_ok(uint32_t key, uint32_t count) { return key < (uint64_t)4 * count + 1024; }

static void nummap_init_dense(B3NumMap *m, B3Arena *a, uint32_t slots) {
    m->cap = (uint32_t)b3_vec_capacity(16, slots);
    m->count = 0;
    m->keys = NULL;
    m->vals = b3_arena_alloc_pow2(a, m->cap * sizeof(void *));
}

static void nummap_init_hashed(B3NumMap *m, B3Arena *a, uint32_t expected) {
    uint32_t cap = (uint32_t)b3_vec_capacity(16, (size_t)expected * 2); /* at most half full */
    m->cap = cap;
    m->count = 0;
    m->keys = b3_arena_alloc_pow2_uninit(a, cap * sizeof(uint32_t)); /* read only where a value is set */
    m->vals = b3_arena_alloc_pow2(a, cap * sizeof(void *));
}

void b3_nummap_init(B3NumMap *m, B3Arena *a, uint32_t expected) { nummap_init_dense(m, a, expected); }

static void nummap_release(B3NumMap *m, B3Arena *a) {
    if (m->keys)
        b3_arena_release(a, m->keys, m->cap * sizeof(uint32_t));
    b3_arena_release(a, m->vals, m->cap * sizeof(void *));
}

void b3_nummap_clear(B3NumMap *m, B3Arena *a, uint32_t expected) {
    if (!m->cap || m->keys || m->cap < expected) {
        if (m->cap)
            nummap_release(m, a);
        b3_nummap_init(m, a, expected);
        return;
    }
    memset(m->vals, 0, m->cap * sizeof(void *)); /* a NULL value marks a free slot */
    m->count = 0;
}

void *b3_nummap_get(const B3NumMap *m, uint32_t key) {
    if (!m->keys)
        return key < m->cap ? m->vals[key] : NULL;
    uint32_t mask = m->cap - 1;
    for (uint32_t i = hash32(key) & mask;; i = (i + NUM_PROBE_STEP) & mask) {
        if (!m->vals[i])
            return NULL;
        if (m->keys[i] == key)
            return m->vals[i];
    }
}

/* Stores a key known not to be in m, which is hashed and has room. */
static void nummap_insert_new(B3NumMap *m, uint32_t key, void *val) {
    uint32_t mask = m->cap - 1, i = hash32(key) & mask;
    while (m->vals[i])
        i = (i + NUM_PROBE_STEP) & mask;
    m->keys[i] = key;
    m->vals[i] = val;
    m->count++;
}

/* Makes room for key: a bigger array while the map stays dense, else a
 * bigger table (the entries moved over). */
static void nummap_grow(B3NumMap *m, B3Arena *a, uint32_t key) {
    B3NumMap n;
    if (!m->keys && nummap_dense_ok(key, m->count + 1)) {
        nummap_init_dense(&n, a, key + 1);
        memcpy(n.vals, m->vals, m->cap * sizeof(void *));
        n.count = m->count;
    } else {
        nummap_init_hashed(&n, a, m->keys ? m->cap : m->count + 1);
        for (uint32_t i = 0; i < m->cap; i++)
            if (m->vals[i])
                nummap_insert_new(&n, m->keys ? m->keys[i] : i, m->vals[i]);
    }
    nummap_release(m, a);
    *m = n;
}

bool b3_nummap_remove_dense(B3NumMap *m, uint32_t key, const void *val) {
    if (m->keys)
        return false;
    if (key < m->cap && m->vals[key] == val && val) {
        m->vals[key] = NULL;
        m->count--;
    }
    return true;
}

void *b3_nummap_put(B3NumMap *m, B3Arena *a, uint32_t key, void *val) {
    if (!m->cap)
        b3_nummap_init(m, a, 8);
    if (!m->keys) {
        if (key >= m->cap)
            nummap_grow(m, a, key);
        if (!m->keys) {
            void *old = m->vals[key];
            m->vals[key] = val;
            m->count += !old;
            return old;
        }
    }
    if ((m->count + 1) * 2 > m->cap)
        nummap_grow(m, a, key);
    uint32_t mask = m->cap - 1;
    for (uint32_t i = hash32(key) & mask;; i = (i + NUM_PROBE_STEP) & mask) {
        if (!m->vals[i]) {
            m->keys[i] = key;
            m->vals[i] = val;
            m->count++;
            return NULL;
        }
        if (m->keys[i] == key) {
            void *old = m->vals[i];
            m->vals[i] = val;
            return old;
        }
    }
}

/* ---- module and symbols ---- */

void b3_module_init(B3Module *m, B3Target target) {
    memset(m, 0, sizeof *m);
    b3_arena_init(&m->arena);
    b3_strmap_init(&m->symtab, "symbols");
    m->target = target;
}

void b3_module_free(B3Module *m) {
    for (uint32_t i = 0; i < m->nprocs; i++)
        b3_arena_free(&m->procs[i]->arena);
    b3_strmap_free(&m->symtab);
    b3_arena_free(&m->arena);
}

B3Symbol *b3_symbol_find(const B3Module *m, const char *name, uint32_t len) {
    return b3_strmap_get(&m->symtab, name, len);
}

const char *const b3_tls_model_names[B3_NUM_TLS_MODELS] = {
    [B3Tls_None] = "none",
    [B3Tls_GeneralDynamic] = "generaldynamic",
    [B3Tls_LocalDynamic] = "localdynamic",
    [B3Tls_InitialExec] = "initialexec",
    [B3Tls_LocalExec] = "localexec",
};

B3Symbol *b3_symbol_get(B3Module *m, const char *name, uint32_t len, bool *created) {
    B3Symbol *s = b3_symbol_find(m, name, len);
    if (created)
        *created = s == NULL;
    if (s)
        return s;
    s = b3_arena_alloc(&m->arena, sizeof *s);
    s->name = b3_arena_strndup(&m->arena, name, len);
    s->name_len = len;
    s->kind = B3Sym_Extern;
    s->id = m->nsymbols;
    if (m->nsymbols == m->cap_symbols)
        m->symbols = b3_arena_grow(&m->arena, m->symbols, sizeof(B3Symbol *), &m->cap_symbols, 0);
    m->symbols[m->nsymbols++] = s;
    b3_strmap_put(&m->symtab, s->name, s->name_len, s);
    return s;
}

void b3_module_add_item(B3Module *m, B3ItemKind kind, B3Symbol *sym) {
    if (m->nitems == m->cap_items)
        m->items = b3_arena_grow(&m->arena, m->items, sizeof(B3Item), &m->cap_items, 0);
    m->items[m->nitems++] = (B3Item){(uint8_t)kind, sym};
}

/* ---- procedures ---- */

B3Proc *b3_proc_new(B3Module *m, B3Symbol *sym) {
    B3Proc *p = b3_arena_alloc(&m->arena, sizeof *p);
    p->sym = sym;
    p->ctor_priority = p->dtor_priority = -1;
    b3_arena_init(&p->arena);
    p->arena.next_chunk = B3_ARENA_SMALL; /* most procedures are small */
    if (m->nprocs == m->cap_procs)
        m->procs = b3_arena_grow(&m->arena, m->procs, sizeof(B3Proc *), &m->cap_procs, 0);
    m->procs[m->nprocs++] = p;
    return p;
}

void b3_proc_free_ir(B3Proc *p) {
    b3_arena_drop(&p->arena);
    p->blocks = NULL;
    p->nblocks = p->cap_blocks = 0;
    p->values = NULL;
    p->nvalues = p->cap_values = 0;
    memset(&p->value_map, 0, sizeof p->value_map);
    memset(&p->block_map, 0, sizeof p->block_map);
}

B3Block *b3_block_find(const B3Proc *p, uint32_t index) { return b3_nummap_get(&p->block_map, index); }
B3Value *b3_value_find(const B3Proc *p, uint32_t index) { return b3_nummap_get(&p->value_map, index); }

B3Block *b3_block_new(B3Module *m, B3Proc *p, uint32_t index) {
    (void)m; /* the procedure's own arena (B3Proc.arena) */
    if (index == UINT32_MAX)
        while (b3_block_find(p, p->next_block_index))
            p->next_block_index++;
    if (index == UINT32_MAX)
        index = p->next_block_index++;
    else if (index >= p->next_block_index)
        p->next_block_index = index + 1;
    B3Block *b = b3_arena_alloc(&p->arena, sizeof *b);
    b->index = index;
    b->pos = p->nblocks;
    b->frequency = 1.0;
    if (p->nblocks == p->cap_blocks)
        p->blocks = b3_arena_grow(&p->arena, p->blocks, sizeof(B3Block *), &p->cap_blocks, 0);
    p->blocks[p->nblocks++] = b;
    b3_nummap_put(&p->block_map, &p->arena, index, b);
    return b;
}

uint64_t b3_const_bits(const B3Value *v) {
    if (v->opcode == B3_ConstFloat) {
        uint32_t b;
        memcpy(&b, &v->m.c.f, sizeof b);
        return b;
    }
    if (v->opcode == B3_Const32)
        return (uint32_t)v->m.c.i;
    return v->m.c.bits;
}

bool b3_value_int_const(const B3Value *v, int64_t *out) {
    if (v->opcode == B3_Const32) {
        uint32_t u = (uint32_t)v->m.c.i; /* sign-extended without an implementation-defined conversion */
        *out = u & 0x80000000u ? (int64_t)u - 0x100000000ll : (int64_t)u;
        return true;
    }
    if (v->opcode != B3_Const64)
        return false;
    *out = v->m.c.i;
    return true;
}

/* A value, its children and (located) their locations in one arena block:
 * room for max(nkids, 1) children right after the value, then nkids
 * locations.  A phase that needs more children gives the value a new array. */
static B3Value *value_alloc(B3Proc *p, uint32_t nkids, bool located) {
    size_t room = nkids ? nkids : 1;
    size_t n = sizeof(B3Value) + room * sizeof(B3Value *) + (located ? nkids * sizeof(B3Loc) : 0);
    B3Value *v = b3_arena_alloc(&p->arena, n);
    v->kids = (B3Value **)(v + 1);
    if (located && nkids)
        v->kid_locs = (B3Loc *)(v->kids + room);
    return v;
}

/* The meta data's defaults for a new value of opcode op (v->m zeroed). */
static void meta_defaults(B3Module *m, B3Value *v, B3Opcode op, uint32_t nkids) {
    switch (b3_op_info[op].meta) {
    case B3M_NONE:
        break;
    case B3M_MEMORY:
        v->m.mem.range = B3_HEAP_TOP;
        v->m.mem.fence_range = B3_HEAP_BOTTOM;
        break;
    case B3M_FENCE:
        v->m.fence.read = B3_HEAP_TOP;
        v->m.fence.write = B3_HEAP_TOP;
        break;
    case B3M_CCALL:
        v->m.ccall.variadic = -1;
        break;
    case B3M_REG:
        if (op == B3_WasmAddress || op == B3_ArgumentReg)
            v->m.reg = B3_NO_REG;
        break;
    case B3M_BOUNDS:
        v->m.bounds = b3_arena_alloc(&m->arena, sizeof(B3BoundsMeta));
        v->m.bounds->pinned = B3_NO_REG;
        break;
    case B3M_STACKMAP:
        v->m.stackmap = b3_arena_alloc(&m->arena, sizeof(B3StackmapMeta));
        if (nkids)
            v->m.stackmap->reps = b3_arena_alloc(&m->arena, nkids * sizeof(B3ValueRep));
        for (uint32_t i = 0; i < nkids; i++)
            v->m.stackmap->reps[i].kind = B3Rep_ColdAny;
        break;
    default:
        break;
    }
}

static B3Value *value_new(B3Module *m, B3Proc *p, B3Opcode op, B3Type type, uint32_t nkids, uint32_t index,
                          bool located) {
    if (index == UINT32_MAX) {
        while (b3_value_find(p, p->next_value_index))
            p->next_value_index++;
        index = p->next_value_index++;
    } else if (index >= p->next_value_index) {
        p->next_value_index = index + 1;
    }
    B3Value *v = value_alloc(p, nkids, located);
    v->index = index;
    v->opcode = (uint16_t)op;
    v->type = (uint8_t)type;
    v->nkids = nkids;
    meta_defaults(m, v, op, nkids);
    if (p->nvalues == p->cap_values)
        p->values = b3_arena_grow(&p->arena, p->values, sizeof(B3Value *), &p->cap_values, 0);
    p->values[p->nvalues++] = v;
    if (!located)
        b3_nummap_put(&p->value_map, &p->arena, index, v);
    return v;
}

void b3_proc_reserve_values(B3Module *m, B3Proc *p, uint32_t extra) {
    (void)m; /* the procedure's own arena (B3Proc.arena) */
    uint32_t need = p->nvalues + extra;
    if (extra && need > p->cap_values) {
        need += need / 16; /* room for the next phase's few (a copy more otherwise) */
        B3Value **vals = b3_arena_alloc(&p->arena, (size_t)need * sizeof *vals);
        memcpy(vals, p->values, (size_t)p->nvalues * sizeof *vals);
        b3_arena_release(&p->arena, p->values, (size_t)p->cap_values * sizeof *vals);
        p->values = vals;
        p->cap_values = need;
    }
    /* The new values take the free numbers from next_value_index on. */
    B3NumMap *map = &p->value_map;
    uint64_t slots = (uint64_t)p->next_value_index + extra;
    if (extra && map->cap && !map->keys && slots > map->cap && slots + slots / 16 <= UINT32_MAX) {
        slots += slots / 16;
        void **vals = b3_arena_alloc(&p->arena, (size_t)slots * sizeof *vals);
        memcpy(vals, map->vals, (size_t)map->cap * sizeof *vals);
        b3_arena_release(&p->arena, map->vals, (size_t)map->cap * sizeof *vals);
        map->vals = vals;
        map->cap = (uint32_t)slots;
    }
}

B3Value *b3_value_new(B3Module *m, B3Proc *p, B3Opcode op, B3Type type, uint32_t nkids, uint32_t index) {
    return value_new(m, p, op, type, nkids, index, false);
}

B3Value *b3_value_new_located(B3Module *m, B3Proc *p, B3Opcode op, B3Type type, uint32_t nkids,
                              uint32_t index) {
    return value_new(m, p, op, type, nkids, index, true);
}

B3Value *b3_value_new_parsed(B3Module *m, B3Proc *p, B3Opcode op, B3Type type, uint32_t nkids, uint32_t index,
                             B3Loc loc, B3Loc type_loc) {
    size_t room = nkids ? nkids : 1;
    B3Value *v =
        b3_arena_alloc_uninit(&p->arena, sizeof(B3Value) + room * sizeof(B3Value *) + nkids * sizeof(B3Loc));
    B3Value **kids = (B3Value **)(v + 1);
    *v = (B3Value){
        .index = index,
        .opcode = (uint16_t)op,
        .type = (uint8_t)type,
        .nkids = nkids,
        .kids = kids,
        .kid_locs = nkids ? (B3Loc *)(kids + room) : NULL,
        .loc = loc,
        .type_loc = type_loc,
    };
    memset(&v->m, 0, sizeof v->m); /* all of it, not only the union's first member */
    kids[0] = NULL;                /* the room of a value without children */
    if (b3_op_info[op].meta != B3M_NONE)
        meta_defaults(m, v, op, nkids);
    if (index >= p->next_value_index)
        p->next_value_index = index + 1;
    if (p->nvalues == p->cap_values) /* (no phase reads past nvalues) */
        p->values = b3_arena_grow_uninit(&p->arena, p->values, sizeof(B3Value *), &p->cap_values, 0);
    p->values[p->nvalues++] = v;
    return v;
}

B3Value *b3_value_clone(B3Module *m, B3Proc *p, const B3Value *v) {
    B3Value *c = b3_value_new(m, p, (B3Opcode)v->opcode, (B3Type)v->type, v->nkids, UINT32_MAX);
    B3Value **kids = c->kids;
    uint32_t index = c->index;
    *c = *v;
    c->kids = kids;
    c->index = index;
    c->owner = NULL;
    memcpy(kids, v->kids, v->nkids * sizeof *kids);
    if (v->opcode == B3_Switch && v->m.sw.ncases) {
        c->m.sw.cases = b3_arena_alloc(&m->arena, v->m.sw.ncases * sizeof(int64_t));
        memcpy(c->m.sw.cases, v->m.sw.cases, v->m.sw.ncases * sizeof(int64_t));
    }
    return c;
}

void b3_block_append_grow(B3Module *m, B3Block *b, B3Value *v) {
    b->values = b3_arena_grow(&m->arena, b->values, sizeof(B3Value *), &b->cap_values, 0);
    b->values[b->nvalues++] = v;
    v->owner = b;
}

B3Variable *b3_variable_new(B3Module *m, B3Proc *p, const char *name, B3Type type) {
    B3Variable *v = b3_arena_alloc(&m->arena, sizeof *v);
    v->name = name;
    v->type = type;
    v->index = p->nvars;
    if (p->nvars == p->cap_vars)
        p->vars = b3_arena_grow(&m->arena, p->vars, sizeof(B3Variable *), &p->cap_vars, 0);
    p->vars[p->nvars++] = v;
    return v;
}

B3StackSlot *b3_slot_new(B3Module *m, B3Proc *p, const char *name, uint64_t size) {
    B3StackSlot *s = b3_arena_alloc(&m->arena, sizeof *s);
    s->name = name;
    s->size = size;
    s->align = size >= 16 ? 16 : 8;
    s->index = p->nslots;
    if (p->nslots == p->cap_slots)
        p->slots = b3_arena_grow(&m->arena, p->slots, sizeof(B3StackSlot *), &p->cap_slots, 0);
    p->slots[p->nslots++] = s;
    return s;
}

void b3_proc_compute_preds(B3Module *m, B3Proc *p) {
    (void)m; /* the procedure's own arena (B3Proc.arena) */
    /* Count every edge (an upper bound), then fill.  A block reached twice
     * from one terminal is listed once: all of b's edges are added before the
     * next block's, so an earlier edge from b to s is s's last pred.  (A scan
     * of the earlier successors was quadratic in a big Switch.) */
    for (uint32_t i = 0; i < p->nblocks; i++)
        p->blocks[i]->npreds = 0;
    for (uint32_t i = 0; i < p->nblocks; i++) {
        B3Block *b = p->blocks[i];
        for (uint32_t j = 0; j < b->nsuccs; j++)
            b->succs[j].block->npreds++;
    }
    for (uint32_t i = 0; i < p->nblocks; i++) {
        B3Block *b = p->blocks[i];
        b->preds = b->npreds ? b3_arena_alloc(&p->arena, b->npreds * sizeof(B3Block *)) : NULL;
        b->npreds = 0;
    }
    for (uint32_t i = 0; i < p->nblocks; i++) {
        B3Block *b = p->blocks[i];
        for (uint32_t j = 0; j < b->nsuccs; j++) {
            B3Block *s = b->succs[j].block;
            if (!s->npreds || s->preds[s->npreds - 1] != b)
                s->preds[s->npreds++] = b;
        }
    }
}

/* ---- rewriting values in place ---- */

void b3_value_replace_with_nop(B3Value *v) {
    v->opcode = B3_Nop;
    v->type = B3_Void;
    v->kflags = 0;
    v->nkids = 0;
    v->kid_locs = NULL;
    memset(&v->m, 0, sizeof v->m);
}

void b3_value_replace_with_identity(B3Value *v, B3Value *w) {
    if (v->type == B3_Void) {
        b3_value_replace_with_nop(v);
        return;
    }
    if (w == v || w->type != v->type)
        b3_internal_error_at(NULL, v, "cannot become Identity(@%u) of type %s", w->index,
                             b3_type_name((B3Type)w->type));
    v->opcode = B3_Identity;
    v->kflags = 0;
    v->nkids = 1;
    v->kids[0] = w; /* every value has room for one child (b3_value_new) */
    v->kid_locs = NULL;
    memset(&v->m, 0, sizeof v->m);
}

/* The end of v's Identity chain, pointing every Identity on the way straight
 * at it, so that a long chain shared by many uses is walked once.  A cycle
 * (which valid SSA cannot have) is caught by a pointer moving at half speed. */
static B3Value *identity_target(B3Value *v) {
    B3Value *t = v, *slow = v;
    for (uint32_t n = 0; t->opcode == B3_Identity; n++) {
        t = t->kids[0];
        if (n & 1)
            slow = slow->kids[0];
        if (t == slow && t->opcode == B3_Identity)
            b3_internal_error_at(NULL, v, "is part of a cycle of Identities");
    }
    while (v != t && v->kids[0] != t) {
        B3Value *next = v->kids[0];
        v->kids[0] = t;
        v = next;
    }
    return t;
}

bool b3_value_perform_substitution(B3Value *v) {
    bool changed = false;
    for (uint32_t i = 0; i < v->nkids; i++) {
        if (v->kids[i]->opcode == B3_Identity) {
            v->kids[i] = identity_target(v->kids[i]);
            changed = true;
        }
    }
    return changed;
}

/* The values drop_values removes: Nops, and Identities if asked (a test the
 * compiler inlines, not a call per value). */
static inline bool drop(const B3Value *v, bool identities) {
    return v->opcode == B3_Nop || (identities && v->opcode == B3_Identity);
}

/* Removes the Nops (and, with identities, the Identities) from the blocks
 * and p->values; returns true if there were any. */
static bool drop_values(B3Module *m, B3Proc *p, bool identities) {
    (void)m; /* the procedure's own arena (B3Proc.arena) */
    bool dropped = false;
    for (uint32_t bi = 0; bi < p->nblocks; bi++) {
        B3Block *b = p->blocks[bi];
        uint32_t n = 0;
        for (uint32_t i = 0; i < b->nvalues; i++) {
            if (drop(b->values[i], identities))
                b->values[i]->owner = NULL;
            else
                b->values[n++] = b->values[i];
        }
        dropped |= n != b->nvalues;
        b->nvalues = n;
    }
    uint32_t n = 0;
    bool rebuild = false; /* the map is a table: it is built again */
    for (uint32_t i = 0; i < p->nvalues; i++) {
        B3Value *v = p->values[i];
        if (!drop(v, identities))
            p->values[n++] = v;
        else if (!rebuild)
            rebuild = !b3_nummap_remove_dense(&p->value_map, v->index, v);
    }
    if (n == p->nvalues)
        return dropped;
    p->nvalues = n;
    if (rebuild) {
        b3_nummap_clear(&p->value_map, &p->arena, n);
        for (uint32_t i = 0; i < n; i++)
            b3_nummap_put(&p->value_map, &p->arena, p->values[i]->index, p->values[i]);
    }
    return true;
}

bool b3_proc_remove_identities(B3Module *m, B3Proc *p) {
    bool changed = false;
    for (uint32_t i = 0; i < p->nvalues; i++)
        changed |= b3_value_perform_substitution(p->values[i]);
    return drop_values(m, p, true) || changed;
}

void b3_proc_remove_nops(B3Module *m, B3Proc *p) { drop_values(m, p, false); }

uint32_t b3_proc_number_values(B3Proc *p) {
    for (uint32_t i = 0; i < p->nvalues; i++)
        p->values[i]->scratch = i;
    return p->nvalues;
}
