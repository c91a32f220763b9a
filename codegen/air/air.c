/* Air core: construction, the opcode form table, arg iteration. */
#include "codegen/air/air.h"
#include "util/alloc.h"
#include "util/vec.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t arch_mask; /* bit 0: x86-64, bit 1: arm64 */
    uint8_t kinds[8];
    uint32_t key; /* the kinds, 4 bits each from the first: one compare per row */
} AirFormRow;

typedef struct {
    int16_t opcode;
    uint8_t nargs;
    uint8_t roles[8], banks[8], widths[8];
    uint8_t conds[8]; /* non-zero: this arg is a condition of that AirArgKind */
    uint16_t first_row, nrows;
} AirOverload;

#include "codegen/air/air_forms.h"

const char *const air_opcode_names[AIR_NUM_OPCODES] = {
#define AIR_OP(name, term, branch, succs, move, effects) #name,
#define AIR_FORM(name, sig, forms)
#include "codegen/air/opcodes.def"
#undef AIR_OP
#undef AIR_FORM
};

const AirOpInfo air_op_info[AIR_NUM_OPCODES] = {
#define AIR_OP(name, term, branch, succs, move, effects) {term, branch, succs, AirMove_##move, effects},
#define AIR_FORM(name, sig, forms)
#include "codegen/air/opcodes.def"
#undef AIR_OP
#undef AIR_FORM
};

bool air_writes_partial_fp_lane(B3Target t, AirOpcode op) {
    const bool *partial = b3_target_desc(t)->partial_fp_lane_defs;
    return partial && op < AIR_NUM_OPCODES && partial[op];
}

void air_code_init(AirCode *c, B3Module *m, B3Proc *p) {
    memset(c, 0, sizeof *c);
    c->module = m;
    c->proc = p;
    c->target = m->target;
    c->desc = b3_target_desc(m->target);
    /* Its own arena, not the module's: a procedure's Air is dead once it is
     * encoded, and keeping every procedure's would dominate peak memory. */
    b3_arena_init(&c->own);
    c->arena = &c->own;
    for (uint32_t i = 0; i < p->npinned; i++)
        b3_regset_add(&c->pinned, p->pinned[i]);
}

void air_code_free(AirCode *c) {
    b3_arena_free(&c->own);
    c->arena = NULL;
}

AirBlock *air_block_new(AirCode *c) {
    AirBlock *b = b3_arena_alloc(c->arena, sizeof *b);
    b->index = c->nblocks;
    b->frequency = 1.0;
    if (c->nblocks == c->cap_blocks)
        c->blocks = b3_arena_grow(c->arena, c->blocks, sizeof(AirBlock *), &c->cap_blocks, 0);
    c->blocks[c->nblocks++] = b;
    return b;
}

AirTmp air_tmp_new(AirCode *c, AirBank bank) {
    if (c->ntmps == c->cap_tmps)
        c->tmp_bank = b3_arena_grow(c->arena, c->tmp_bank, 1, &c->cap_tmps, 64);
    c->tmp_bank[c->ntmps] = (uint8_t)bank;
    return AIR_FIRST_VTMP + c->ntmps++;
}

AirStackSlot *air_slot_new(AirCode *c, uint32_t size, uint32_t align, bool spill) {
    AirStackSlot *s = b3_arena_alloc(c->arena, sizeof *s);
    s->index = c->nslots;
    s->size = size;
    s->align = align;
    s->spill = spill;
    if (c->nslots == c->cap_slots)
        c->slots = b3_arena_grow(c->arena, c->slots, sizeof(AirStackSlot *), &c->cap_slots, 0);
    c->slots[c->nslots++] = s;
    return s;
}

void air_block_reserve(AirCode *c, AirBlock *b, uint32_t n) {
    if (n <= b->cap_insts)
        return;
    uint32_t cap = (uint32_t)b3_vec_capacity(b->cap_insts ? b->cap_insts : 4, n);
    AirInst *insts = b3_arena_alloc(c->arena, cap * sizeof(AirInst));
    if (b->ninsts) /* a new block has no array yet: memcpy takes no NULL */
        memcpy(insts, b->insts, b->ninsts * sizeof(AirInst));
    b->insts = insts;
    b->cap_insts = cap;
}

AirInst *air_append(AirCode *c, AirBlock *b, AirOpcode op, B3Value *origin, uint32_t nargs,
                    const AirArg *args) {
    if (b->ninsts == b->cap_insts)
        b->insts = b3_arena_grow(c->arena, b->insts, sizeof(AirInst), &b->cap_insts, 0);
    AirInst *i = &b->insts[b->ninsts++];
    memset(i, 0, sizeof *i);
    i->opcode = (uint16_t)op;
    i->nargs = (uint16_t)nargs;
    i->origin = origin;
    if (nargs) {
        i->args = b3_arena_alloc(c->arena, nargs * sizeof(AirArg));
        memcpy(i->args, args, nargs * sizeof(AirArg));
    }
    return i;
}

void air_compute_preds(AirCode *c) {
    for (uint32_t i = 0; i < c->nblocks; i++)
        c->blocks[i]->npreds = 0;
    for (uint32_t i = 0; i < c->nblocks; i++)
        for (uint32_t j = 0; j < c->blocks[i]->nsuccs; j++)
            c->blocks[i]->succs[j].block->npreds++;
    for (uint32_t i = 0; i < c->nblocks; i++) {
        AirBlock *b = c->blocks[i];
        b->preds = b->npreds ? b3_arena_alloc(c->arena, b->npreds * sizeof(AirBlock *)) : NULL;
        b->npreds = 0;
    }
    /* A block reached twice from one terminal is listed twice: Air edges are per successor. */
    for (uint32_t i = 0; i < c->nblocks; i++)
        for (uint32_t j = 0; j < c->blocks[i]->nsuccs; j++) {
            AirBlock *s = c->blocks[i]->succs[j].block;
            s->preds[s->npreds++] = c->blocks[i];
        }
}

void air_drop_unreachable(AirCode *c, AirBlock *const *roots, uint32_t nroots, const char *who) {
    uint32_t n = c->nblocks, sp = 0;
    uint8_t *reach = b3_xcalloc(who, n, 1);
    uint32_t *stack = b3_xmalloc(who, n * sizeof(uint32_t));
    for (uint32_t k = 0; k < nroots; k++) {
        uint32_t e = roots[k]->index;
        if (!reach[e]) {
            reach[e] = 1;
            stack[sp++] = e;
        }
    }
    while (sp) {
        AirBlock *b = c->blocks[stack[--sp]];
        for (uint32_t s = 0; s < b->nsuccs; s++) {
            uint32_t t = b->succs[s].block->index;
            if (!reach[t]) {
                reach[t] = 1;
                stack[sp++] = t;
            }
        }
    }
    uint32_t out = 0;
    for (uint32_t i = 0; i < n; i++)
        if (reach[i]) {
            c->blocks[out] = c->blocks[i];
            c->blocks[out]->index = out;
            out++;
        }
    c->nblocks = out;
    free(reach);
    free(stack);
}

/* ---- forms ---- */

static const AirOverload *find_overload(AirOpcode op, uint32_t nargs) {
    unsigned i = nargs < 9 ? air_op_arity_overload[op][nargs] : 0;
    return i ? &air_overloads[i - 1] : NULL;
}

/* The form table lists Addr for every memory kind that is based on a register or the PC. */
static uint8_t form_kind(uint8_t k) {
    return k == AirArg_Stack || k == AirArg_CallArg || k == AirArg_Sym ? AirArg_Addr : k;
}

_Static_assert(AirArg_Special < 16, "form keys hold an arg kind in 4 bits");

static bool valid_key_uncached(unsigned arch, AirOpcode op, uint32_t nargs, uint32_t key) {
    const AirOverload *o = find_overload(op, nargs);
    if (!o)
        return false;
    /* An empty FORMS string yields no rows: a no-argument overload is its only form. */
    if (nargs == 0)
        return true;
    const AirFormRow *row = &air_form_rows[o->first_row];
    for (unsigned r = 0; r < o->nrows; r++)
        if (row[r].key == key && (row[r].arch_mask & arch))
            return true;
    return false;
}

/* The answers of valid_key_uncached, direct-mapped by (opcode, arity, key,
 * target): lowering and emission ask about every instruction, a program
 * uses a few hundred forms, and an overload such as Move's has dozens of
 * rows to scan.  An entry's tag packs the question in one word (0: empty;
 * a no-argument form is not looked up), the target as its arch and OS
 * bytes, so that a hit needs not the target's description. */
enum { FORM_MEMO_LOG = 10, FORM_MEMO = 1 << FORM_MEMO_LOG };
static struct {
    uint64_t tag;
    bool ok;
} form_memo[FORM_MEMO];

_Static_assert(AIR_NUM_OPCODES <= 0x10000, "a form tag holds an opcode in 16 bits");

static bool valid_key(B3Target t, AirOpcode op, uint32_t nargs, uint32_t key) {
    if (nargs == 0)
        return valid_key_uncached(b3_target_desc(t)->air_form_mask, op, nargs, key);
    /* nargs <= 8: 4 bits; arch: 4 bits; os: 8 bits. */
    uint64_t tag = (uint64_t)key | (uint64_t)op << 32 | (uint64_t)nargs << 48 |
                   (uint64_t)(t.arch & 15) << 52 | (uint64_t)t.os << 56;
    uint32_t h = (uint32_t)((tag * 0x9E3779B97F4A7C15ull) >> (64 - FORM_MEMO_LOG));
    if (form_memo[h].tag == tag)
        return form_memo[h].ok;
    bool ok = valid_key_uncached(b3_target_desc(t)->air_form_mask, op, nargs, key);
    form_memo[h].tag = tag;
    form_memo[h].ok = ok;
    return ok;
}

bool air_is_valid_form_kinds(B3Target t, AirOpcode op, uint32_t nargs, const uint8_t *kinds) {
    if (nargs > 8)
        return false;
    uint32_t key = 0;
    for (uint32_t i = 0; i < nargs; i++)
        key |= (uint32_t)form_kind(kinds[i]) << (4 * i);
    return valid_key(t, op, nargs, key);
}

bool air_is_valid_form(B3Target t, AirOpcode op, uint32_t nargs, const AirArg *args) {
    if (nargs > 8)
        return false;
    uint32_t key = 0;
    for (uint32_t i = 0; i < nargs; i++) {
        /* An Imm must fit a sign-extended 32-bit field; larger values need BigImm. */
        if (args[i].kind == AirArg_Imm && (args[i].value < INT32_MIN || args[i].value > INT32_MAX))
            return false;
        key |= (uint32_t)form_kind(args[i].kind) << (4 * i);
    }
    return valid_key(t, op, nargs, key);
}

uint32_t air_num_overloads(void) { return AIR_NUM_OVERLOADS; }

void air_overload_info(uint32_t i, AirOverloadInfo *out) {
    const AirOverload *o = &air_overloads[i];
    memset(out, 0, sizeof *out);
    out->opcode = (AirOpcode)o->opcode;
    out->nargs = o->nargs;
    memcpy(out->roles, o->roles, sizeof out->roles);
    memcpy(out->banks, o->banks, sizeof out->banks);
    memcpy(out->widths, o->widths, sizeof out->widths);
    memcpy(out->conds, o->conds, sizeof out->conds);
    out->nforms = o->nrows;
}

unsigned air_overload_form(uint32_t i, uint32_t j, uint8_t *kinds) {
    const AirFormRow *row = &air_form_rows[air_overloads[i].first_row + j];
    memcpy(kinds, row->kinds, air_overloads[i].nargs);
    return row->arch_mask;
}

AirBank air_move_bank(AirOpcode op) {
    const AirOverload *o = &air_overloads[air_op_overloads[op][0]];
    return (AirBank)o->banks[o->nargs - 1];
}

/* ---- iteration ---- */

void air_no_overload(const AirInst *inst) {
    b3_internal_error("air", "no overload of %s with %u args", air_opcode_names[inst->opcode], inst->nargs);
}

void air_for_each_arg(const AirCode *c, AirInst *inst, AirArgFn f, void *ctx) {
    (void)c;
    air_for_each_arg_inline(inst, f, ctx);
}

void air_for_each_tmp(const AirCode *c, AirInst *inst, AirTmpFn f, void *ctx) {
    (void)c;
    air_for_each_tmp_inline(inst, f, ctx);
}

AirCond air_cond_invert(AirCond c) {
    static const uint8_t inv[AirCond_NUM] = {
        [AirCond_Equal] = AirCond_NotEqual,
        [AirCond_NotEqual] = AirCond_Equal,
        [AirCond_Above] = AirCond_BelowOrEqual,
        [AirCond_BelowOrEqual] = AirCond_Above,
        [AirCond_AboveOrEqual] = AirCond_Below,
        [AirCond_Below] = AirCond_AboveOrEqual,
        [AirCond_GreaterThan] = AirCond_LessThanOrEqual,
        [AirCond_LessThanOrEqual] = AirCond_GreaterThan,
        [AirCond_GreaterThanOrEqual] = AirCond_LessThan,
        [AirCond_LessThan] = AirCond_GreaterThanOrEqual,
        [AirCond_Overflow] = AirCond_NoOverflow,
        [AirCond_NoOverflow] = AirCond_Overflow,
        [AirCond_Signed] = AirCond_PositiveOrZero,
        [AirCond_PositiveOrZero] = AirCond_Signed,
    };
    if ((unsigned)c >= AirCond_NUM)
        b3_internal_error("air", "no such condition %u", (unsigned)c);
    return (AirCond)inv[c];
}

AirDoubleCond air_dcond_invert(AirDoubleCond c) {
    static const uint8_t dinv[] = {
        [AirDCond_Equal] = AirDCond_NotEqualOrUnordered,
        [AirDCond_NotEqual] = AirDCond_EqualOrUnordered,
        [AirDCond_GreaterThan] = AirDCond_LessThanOrEqualOrUnordered,
        [AirDCond_GreaterThanOrEqual] = AirDCond_LessThanOrUnordered,
        [AirDCond_LessThan] = AirDCond_GreaterThanOrEqualOrUnordered,
        [AirDCond_LessThanOrEqual] = AirDCond_GreaterThanOrUnordered,
        [AirDCond_EqualOrUnordered] = AirDCond_NotEqual,
        [AirDCond_NotEqualOrUnordered] = AirDCond_Equal,
        [AirDCond_GreaterThanOrUnordered] = AirDCond_LessThanOrEqual,
        [AirDCond_GreaterThanOrEqualOrUnordered] = AirDCond_LessThan,
        [AirDCond_LessThanOrUnordered] = AirDCond_GreaterThanOrEqual,
        [AirDCond_LessThanOrEqualOrUnordered] = AirDCond_GreaterThan,
    };
    return (AirDoubleCond)dinv[c];
}
