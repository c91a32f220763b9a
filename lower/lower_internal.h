/* Internal to the B3 -> Air lowering (lower_to_air.c, lower_stackmaps.c)
 * and the targets' lowering hooks (B3Backend.lower, e.g.
 * codegen/x86_64/lower.c): the lowering state and the helpers a target's
 * selection needs.  The targets' files include it, so its functions are
 * prefixed lower_; the emission macros (EMIT, EMIT_OP, EMIT0, VALID) and
 * the F_, CK_ constants keep their short names. */
#ifndef B3_LOWER_INTERNAL_H
#define B3_LOWER_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "codegen/air/air.h"
#include "codegen/backend.h"
#include "ir/dominators.h"
#include "ir/ice.h"
#include "ir/loops.h"
#include "lower/lower.h"
#include "util/bits.h"

/* Per-value lowering state.  NEEDED: its tmp was asked for.  INTERNAL: fused
 * into its only user, never emitted.  LOWERED: selected where it stands.
 * check_lowering verifies how they combine. */
enum { F_NEEDED = 1, F_INTERNAL = 2, F_LOWERED = 4 };

/* How many uses an address computation may have before we stop folding it
 * into every memory access (folding keeps its operands live instead). */
enum { FOLD_MAX_USES = 10 };
/* How far (in values) a load may move down to its user. */
enum { FUSE_MAX_DISTANCE = 64 };

typedef struct Lower {
    AirCode *c;
    B3Module *m;
    B3Proc *p;
    B3Target t;
    B3LowerHook *const *hooks; /* the target's, by B3Opcode (c->backend->lower) */
    uint32_t nv;               /* dense value ids are 0 .. nv - 1; nv itself stands for "unknown" */
    bool sparse;               /* value numbers too sparse for direct indexing: ids come from idmap */
    B3NumMap idmap;            /* value number -> dense id + 1 (sparse only) */
    AirTmp *vtmp;              /* by value index */
    AirTmp *phitmp;            /* by Phi value index */
    uint32_t *uses;            /* by value index (uses through Identity/Opaque count for the target) */
    B3Value **user;            /* by value index: its last user (the only one when uses == 1) */
    B3Value **feeds;           /* by value index: a Phi that an Upsilon of the value writes, or NULL */
    uint8_t *flags;            /* F_* by value index */
    uint32_t *pos;             /* by value index: position in its block */
    /* Where a value is last read (compute_last_reads): the block and position
     * of its last reader, or rblk NULL with rpos READ_MANY when read in more
     * than one block (or recomputed somewhere else). */
    B3Block **rblk; /* by value index */
    uint32_t *rpos; /* by value index */
    B3Block **ablk; /* likewise, where a value's users may absorb (execute) it */
    uint32_t *apos;
    bool *in_reg;    /* by value index: read other than as a memory address (its tmp will exist) */
    B3Value **fbase; /* by Add value index: fold_const_adds' memo, or NULL */
    int64_t *foff;
    B3Value **chain; /* fold_const_adds' walk */
    uint32_t capchain;
    B3Dominators dom; /* for loops, computed on first need */
    B3Loops loops;
    bool have_loops;
    AirTmp *vartmp;       /* by variable index */
    AirStackSlot **slots; /* by B3 slot index */
    AirBlock **ablock;    /* by B3 block position */
    /* ArgumentReg moves, placed at the very top of the entry. */
    AirInst *entry;
    uint32_t nentry, capentry;
    /* The value being lowered. */
    B3Block *blk;
    uint32_t idx;
    B3Value *cur;
    AirBlock *sink; /* non-NULL: emit straight into this (new) block */
    bool traps;     /* the value being lowered is or absorbed a <Traps> access: flag its memory insts */
    AirInst *buf;
    uint32_t nbuf, capbuf;
    uint32_t *chunks; /* start of each value's insts in buf, in lowering order */
    uint32_t nchunks, capchunks;
    struct LowerStackmaps *sm; /* Check exits and block splits (lower_stackmaps.c), or NULL */
} Lower;

/* ---- small helpers ------------------------------------------------------- */

static inline B3Value *lower_resolve(B3Value *v) {
    while (v->opcode == B3_Identity || v->opcode == B3_Opaque)
        v = v->kids[0];
    return v;
}

static inline B3Value *lower_kid(const B3Value *v, uint32_t i) { return lower_resolve(v->kids[i]); }

/* The dense id of a value for the per-value tables (its number, unless the
 * numbers are sparse); values outside the procedure's blocks share id nv. */
static inline uint32_t lower_vid(const Lower *L, const B3Value *v) {
    if (!L->sparse)
        return v->index < L->nv ? v->index : L->nv;
    void *id = b3_nummap_get(&L->idmap, v->index);
    return id ? (uint32_t)((uintptr_t)id - 1) : L->nv;
}

/* An integer constant's value, through Identity and Opaque. */
static inline bool lower_int_const(B3Value *v, int64_t *out) {
    return b3_value_int_const(lower_resolve(v), out);
}

/* An integer constant usable as an Imm operand of an op of its type. */
static inline bool lower_imm_const(B3Value *v, int64_t *out) {
    return lower_int_const(v, out) && b3_fits32(*out);
}

static inline bool lower_is_const_zero(B3Value *v) {
    int64_t c;
    return lower_int_const(v, &c) && c == 0;
}

/* Puts an immediate operand on the right: swaps *a and *b when *a is an
 * immediate constant and *b is not.  Returns whether it swapped. */
static inline bool lower_imm_to_right(B3Value **a, B3Value **b) {
    int64_t c;
    if (!lower_imm_const(*a, &c) || lower_imm_const(*b, &c))
        return false;
    B3Value *t = *a;
    *a = *b;
    *b = t;
    return true;
}

static inline bool lower_is_fp_const(B3Value *v) {
    return v->opcode == B3_ConstFloat || v->opcode == B3_ConstDouble;
}

static inline AirBank lower_bank_of(B3Type t) { return b3_type_is_float(t) ? AirFP : AirGP; }

static inline AirOpcode lower_move_op(B3Type t) {
    switch (t) {
    case B3_Int32:
        return Air_Move32;
    case B3_Int64:
        return Air_Move;
    case B3_Float:
        return Air_MoveFloat;
    case B3_Double:
        return Air_MoveDouble;
    default:
        b3_internal_error("lower_to_air", "move of a Void value");
    }
}

static inline AirTmp lower_newtmp(Lower *L, AirBank b) { return air_tmp_new(L->c, b); }

static inline const char *lower_opname(const B3Value *v) { return b3_op_info[v->opcode].name; }

/* ---- emission (lower_to_air.c) ------------------------------------------- */

/* Appends an inst to the current value's chunk (or to L->sink), checking its
 * form unless it has a special. */
AirInst *lower_emit_special(Lower *L, AirOpcode op, uint32_t n, const AirArg *args, AirSpecial *sp);

static inline AirInst *lower_emit_n(Lower *L, AirOpcode op, uint32_t n, const AirArg *args) {
    return lower_emit_special(L, op, n, args, NULL);
}

#define EMIT(L, op, ...)                                                                      \
    lower_emit_n((L), Air_##op, (uint32_t)(sizeof((AirArg[]){__VA_ARGS__}) / sizeof(AirArg)), \
                 (AirArg[]){__VA_ARGS__})
#define EMIT_OP(L, op, ...)                                                               \
    lower_emit_n((L), (op), (uint32_t)(sizeof((AirArg[]){__VA_ARGS__}) / sizeof(AirArg)), \
                 (AirArg[]){__VA_ARGS__})
#define EMIT0(L, op) lower_emit_n((L), Air_##op, 0, NULL)

static inline bool lower_valid_kinds(Lower *L, AirOpcode op, uint32_t n, const uint8_t *kinds) {
    return air_is_valid_form_kinds(L->t, op, n, kinds);
}

#define VALID(L, op, ...) \
    lower_valid_kinds((L), (op), (uint32_t)sizeof((uint8_t[]){__VA_ARGS__}), (uint8_t[]){__VA_ARGS__})

static inline AirArg lower_tmp_arg(AirTmp t) { return air_tmp(t); }

/* ---- tmps of values (lower_to_air.c) ------------------------------------- */

void lower_move_int_const(Lower *L, B3Type type, int64_t c, AirArg dst);
/* A float or double constant in a fresh FP tmp. */
AirTmp lower_fp_const_tmp(Lower *L, uint64_t bits, bool dbl);
/* The tmp holding v's value at the current point. */
AirTmp lower_vt(Lower *L, B3Value *v);
/* Is integer constant v (of value c), used here, built once in its own block
 * (another one, outside a loop that holds this use), so that lower_vt gives
 * its tmp instead of building it again? */
bool lower_const_elsewhere(Lower *L, const B3Value *v, int64_t c);
static inline AirArg lower_vt_arg(Lower *L, B3Value *v) { return lower_tmp_arg(lower_vt(L, v)); }
/* Copies v (of type `type`) into dst, with an immediate when v is a constant. */
void lower_move_value_to(Lower *L, B3Value *v, AirArg dst, B3Type type);

/* Where the C convention passes n arguments of the B3Types types[i] (byval:
 * NULL or each one's B3ByVal; nfixed: CCall's `variadic`, -1 if none): a
 * register, or B3_NO_REG for the stack at stack_off[i] in the outgoing
 * area, which grows to hold them.  Counts the registers of each bank used. */
void lower_c_arg_places(Lower *L, uint32_t n, const uint8_t *types, const B3ByVal *byval, int32_t nfixed,
                        B3Reg *where, uint32_t *stack_off, uint32_t *ngpr, uint32_t *nfpr);
/* An AirSpecial for n args, and its k-th arg (k advances) of a value of type ty. */
AirSpecial *lower_new_special(Lower *L, uint32_t n);
void lower_special_arg(AirSpecial *sp, AirArg *args, uint32_t *k, AirArg a, AirRole role, B3Type ty);
/* The registers a C function returns n (0-2) values of the given types in
 * (the second: docs/c-extensions.md), and the return of values already there. */
void lower_return_regs(Lower *L, uint32_t n, const B3Type *types, B3Reg *regs);
void lower_emit_return(Lower *L, uint32_t n, const B3Type *types);
/* The register a C function returns a value of type ty in. */
static inline B3Reg lower_c_result_reg(Lower *L, B3Type ty) {
    return b3_type_is_float(ty) ? L->c->desc->ret_fpr : L->c->desc->ret_gpr;
}
/* The registers a C call changes: early (before it reads its arguments) and late. */
static inline void lower_add_call_clobbers(Lower *L, AirSpecial *sp) {
    const B3TargetDesc *d = L->c->desc;
    for (unsigned k = 0; k < 2; k++) {
        sp->early_clobber.bits[k] |= d->call_early_clobber.bits[k];
        sp->late_clobber.bits[k] |= d->caller_saved.bits[k];
    }
}

/* ---- fusion and addresses (lower_to_air.c) ------------------------------- */

bool lower_can_be_internal(Lower *L, B3Value *v);
/* May the fused value v not be moved down across w? */
bool lower_motion_blocked(const B3Value *v, const B3Value *w);

/* ---- atomics (lower_atomics.c), shared by the targets' lowerings ---- */

/* Bits of memory an atomic accesses: its width meta, else its operand type's. */
unsigned lower_atomic_bits(const B3Value *v);
/* Index of a width (8, 16, 32, 64 bits) in a per-width opcode table. */
unsigned lower_width_index(unsigned bits);
/* dst = the low `bits` bits of src sign-extended to ty (a copy when they are all of it). */
void lower_extend_old(Lower *L, B3Type ty, unsigned bits, AirTmp src, AirTmp dst);
/* Nothing with an effect between v and the value being lowered (both in
 * this block), so that v may execute there instead. */
bool lower_nothing_between(Lower *L, B3Value *v);
/* The AtomicStrongCAS that cmp (Equal/NotEqual) compares with its own
 * expected value, when the CAS's flags can stand for cmp; else NULL. */
B3Value *lower_fusable_cas_compare(Lower *L, B3Value *cmp);
/* Branch(AtomicWeakCAS), Branch(Equal/NotEqual(AtomicStrongCAS(e, ...), e)),
 * Branch(AtomicStrongCAS(0, ...)): the CAS (marked internal, with the
 * compare) and the condition on its flags that takes the branch; else NULL. */
B3Value *lower_cas_branch_match(Lower *L, B3Value *br, AirCond *cond);
/* Can the load v be executed at the current value instead of where it stands? */
bool lower_can_fuse_load(Lower *L, B3Value *v, B3Opcode op, B3Type type);
/* Fuses the load v into the current value: its memory operand. */
AirArg lower_commit_load(Lower *L, B3Value *v);
/* The memory operand for [ptr + off]. */
AirArg lower_addr_for(Lower *L, B3Value *ptr, int64_t off);

/* ---- conditions (lower_to_air.c) ----------------------------------------- */

typedef enum { CK_Rel32, CK_Rel64, CK_Test32, CK_Test64, CK_Double, CK_Float, CK_NUM, CK_Const } CondKind;

typedef struct {
    uint8_t kind; /* CondKind */
    bool value;   /* CK_Const: the condition's truth */
    AirArg cond, left, right;
} Cond;

/* The Branch opcodes by CondKind. */
extern const AirOpcode lower_branch_ops[CK_NUM];
/* The condition "v is non-zero" for a user of the opcodes ops (by CondKind)
 * with ntrail trailing Tmp args. */
void lower_build_cond(Lower *L, B3Value *v, const AirOpcode *ops, uint32_t ntrail, Cond *out);

/* ---- blocks (lower_to_air.c) --------------------------------------------- */

void lower_set_succs(Lower *L, AirBlock *b, uint32_t n, const AirSucc *s);
AirSucc lower_succ_of(Lower *L, B3Succ s);
/* A new Air block with the current block's frequency. */
AirBlock *lower_new_block(Lower *L);

/* ---- stackmap values (lower_stackmaps.c) --------------------------------- */

/* lower/lower_tls.c */
void lower_thread_local_address(Lower *L, B3Value *v);
void lower_check(Lower *L, B3Value *v);
void lower_check_arith(Lower *L, B3Value *v);
void lower_wasm_bounds_check(Lower *L, B3Value *v);
void lower_patchpoint(Lower *L, B3Value *v);
/* Splits a laid-out block after each Check* branch in it. */
void lower_sm_split_block(Lower *L, AirBlock *ab);
/* Lays out continuations after their heads and exit blocks last. */
void lower_sm_finish(Lower *L);

#endif
