/* Air: the assembly-level IR (see the Air reference).
 *
 * Code holds Blocks of Insts.  An Inst is an opcode plus Args; what each Arg
 * means (role, bank, width) and which Arg kinds are allowed on which target is
 * declared once in codegen/air/opcodes.def.  Tmps are either physical
 * registers (the B3Reg numbering, 0..63) or virtual temporaries (>= 64),
 * each with a bank. */
#ifndef B3_AIR_H
#define B3_AIR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ir/ir.h"

typedef uint32_t AirTmp;
#define AIR_NO_TMP UINT32_MAX
#define AIR_FIRST_VTMP 64u
static inline bool air_tmp_is_reg(AirTmp t) { return t < AIR_FIRST_VTMP; }

typedef enum { AirGP, AirFP } AirBank;
typedef enum { AirW8, AirW16, AirW32, AirW64, AirW128 } AirWidth;

typedef enum {
    AirArg_None,
    AirArg_Tmp,
    AirArg_Imm,     /* fits a sign-extended 32-bit immediate */
    AirArg_BigImm,  /* any 64-bit immediate (movabs) */
    AirArg_Addr,    /* base + offset */
    AirArg_Index,   /* base + index * scale + offset */
    AirArg_Stack,   /* an Air stack slot + offset; becomes Addr(fp, ...) */
    AirArg_CallArg, /* offset from the stack pointer at a call */
    AirArg_Sym,     /* a symbol + addend as a PC-relative memory operand (or GOT entry when got) */
    AirArg_RelCond, AirArg_ResCond, AirArg_DoubleCond,
    AirArg_Special, /* opcode-specific data (calls, patchpoints, jump tables) */
} AirArgKind;

/* Integer relations (RelCond) and result conditions (ResCond), as B3's
 * RelationalCondition and ResultCondition: what is tested, not how a target
 * encodes it (each emitter maps them to its condition codes). */
typedef enum {
    AirCond_Equal, AirCond_NotEqual,
    AirCond_Above, AirCond_BelowOrEqual,
    AirCond_AboveOrEqual, AirCond_Below,
    AirCond_GreaterThan, AirCond_LessThanOrEqual,
    AirCond_GreaterThanOrEqual, AirCond_LessThan,
    AirCond_Overflow, AirCond_NoOverflow,
    AirCond_Signed, AirCond_PositiveOrZero,
    AirCond_NUM,
    /* ResCond aliases */
    AirCond_Zero = AirCond_Equal, AirCond_NonZero = AirCond_NotEqual,
} AirCond;

/* Floating-point relations (ordered unless named OrUnordered). */
typedef enum {
    AirDCond_Equal, AirDCond_NotEqual, AirDCond_GreaterThan, AirDCond_GreaterThanOrEqual,
    AirDCond_LessThan, AirDCond_LessThanOrEqual,
    AirDCond_EqualOrUnordered, AirDCond_NotEqualOrUnordered, AirDCond_GreaterThanOrUnordered,
    AirDCond_GreaterThanOrEqualOrUnordered, AirDCond_LessThanOrUnordered, AirDCond_LessThanOrEqualOrUnordered,
} AirDoubleCond;

typedef struct AirStackSlot {
    uint32_t index;
    uint32_t size, align;
    bool spill;          /* a spill slot (else a B3 stack slot, "locked") */
    bool shared;         /* a spill slot its allocator already shares between tmps
                          * (linear scan): allocate_stack gives it a place of its own */
    bool narrow;         /* a spill slot nobody reads wider than 32 bits: its fills
                          * and stores are Move32/MoveFloat (allocate_registers) */
    B3StackSlot *b3;     /* the B3 slot it implements, if any */
    int64_t offset;      /* from the frame pointer, assigned by allocate_stack */
} AirStackSlot;

/* The widening of an Index arg's 32-bit index (none: a 64-bit index). */
enum { AirExt_None, AirExt_SXTW, AirExt_UXTW };

typedef struct {
    uint8_t kind;  /* AirArgKind */
    uint8_t scale; /* Index: 1, 2, 4, 8 */
    uint8_t cond;  /* RelCond/ResCond: AirCond; DoubleCond: AirDoubleCond */
    bool got;      /* Sym: load the address from the GOT */
    uint8_t ext;   /* Index: AirExt_*, how a 32-bit index widens (arm64's [x, w, sxtw #s]) */
    AirTmp base;   /* Tmp: the tmp; Addr/Index: base */
    AirTmp index;  /* Index */
    int64_t value; /* Imm/BigImm value; Addr/Index/Stack/Sym offset; CallArg offset */
    union {
        AirStackSlot *slot; /* Stack */
        B3Symbol *sym;      /* Sym */
        void *special;      /* Special */
    } u;
} AirArg;

typedef enum {
#define AIR_OP(name, term, branch, succs, move, effects) Air_##name,
#define AIR_FORM(name, sig, forms)
#include "codegen/air/opcodes.def"
#undef AIR_OP
#undef AIR_FORM
    AIR_NUM_OPCODES
} AirOpcode;

extern const char *const air_opcode_names[AIR_NUM_OPCODES];

/* Arg roles, with the timing the Air reference gives them. */
typedef enum {
    AirRole_Use,         /* early warm use */
    AirRole_ColdUse,     /* early cold use */
    AirRole_LateUse,
    AirRole_LateColdUse,
    AirRole_Def,         /* late def */
    AirRole_ZDef,        /* late def, zero-extending above the width */
    AirRole_UseDef,
    AirRole_UseZDef,
    AirRole_EarlyDef,
    AirRole_EarlyZDef,
    AirRole_Scratch,     /* early def + late use: a register that conflicts with everything in the inst */
    AirRole_UseAddr,     /* computes the address; does not access memory */
} AirRole;

static inline bool air_role_is_use(AirRole r) {
    return r == AirRole_Use || r == AirRole_ColdUse || r == AirRole_LateUse || r == AirRole_LateColdUse ||
           r == AirRole_UseDef || r == AirRole_UseZDef || r == AirRole_Scratch;
}
static inline bool air_role_is_def(AirRole r) {
    return r == AirRole_Def || r == AirRole_ZDef || r == AirRole_UseDef || r == AirRole_UseZDef ||
           r == AirRole_EarlyDef || r == AirRole_EarlyZDef || r == AirRole_Scratch;
}
static inline bool air_role_is_early_use(AirRole r) {
    return r == AirRole_Use || r == AirRole_ColdUse || r == AirRole_UseDef || r == AirRole_UseZDef;
}
static inline bool air_role_is_late_def(AirRole r) {
    return r == AirRole_Def || r == AirRole_ZDef || r == AirRole_UseDef || r == AirRole_UseZDef;
}

enum { AirInstFlag_Traps = 1 };

/* Data for the variable-argument opcodes (Call, Patchpoint, jump tables).
 * Their Args are listed with explicit roles instead of a table signature. */
typedef struct {
    uint8_t *roles;   /* AirRole per arg */
    uint8_t *banks;   /* AirBank per arg */
    uint8_t *widths;  /* AirWidth per arg */
    B3RegSet early_clobber, late_clobber; /* registers the inst destroys */
    void *data;       /* opcode specific (stackmap info, jump table, ...) */
} AirSpecial;

/* special->data of a Call. */
typedef struct {
    uint32_t nfprs; /* vector registers used by the arguments (%al for varargs) */
    bool returns_twice; /* the CCall's returnsTwice: see spill_across_returns_twice.c */
} AirCallInfo;

typedef struct AirInst {
    uint16_t opcode;
    uint16_t nargs; /* a Patchpoint or a Call may have hundreds */
    uint8_t flags;  /* AirInstFlag_* */
    AirArg *args;
    AirSpecial *special; /* Call, Patchpoint, ...; NULL otherwise */
    B3Value *origin;
} AirInst;

typedef struct AirBlock AirBlock;
typedef struct {
    AirBlock *block;
    uint8_t freq; /* B3FrequencyClass */
} AirSucc;

struct AirBlock {
    uint32_t index;
    AirInst *insts;
    uint32_t ninsts, cap_insts;
    AirSucc *succs;
    uint32_t nsuccs;
    AirBlock **preds;
    uint32_t npreds;
    double frequency;
    bool loop_header; /* a back edge of the final order goes here: the
                       * emitter may align it (air_align_loop_headers) */
};

typedef struct {
    B3Module *module;
    B3Proc *proc;
    B3Target target;
    const B3TargetDesc *desc; /* the target's registers and conventions */
    /* Its lowering hooks and emitter (codegen/backend.h), set by the pipeline. */
    const struct B3Backend *backend;
    B3Arena *arena; /* &own: Air memory, freed with the procedure's Air */
    B3Arena own;
    AirBlock **blocks; /* blocks[0] is the entry */
    uint32_t nblocks, cap_blocks;
    uint32_t ntmps;    /* virtual tmps are AIR_FIRST_VTMP .. AIR_FIRST_VTMP + ntmps - 1 */
    uint8_t *tmp_bank; /* AirBank per virtual tmp (index tmp - AIR_FIRST_VTMP) */
    uint32_t cap_tmps;
    AirStackSlot **slots;
    uint32_t nslots, cap_slots;
    B3RegSet pinned;      /* never allocated */
    B3RegSet used_callee_saves; /* filled by register allocation */
    /* No frame pointer (-O2 unless -fno-omit-frame-pointer; set before
     * allocation): the target's frame register is allocatable (a callee save
     * like the others) and Stack args address from the stack pointer. */
    bool omit_frame_pointer;
    /* The stack pointer moves in the body (AllocaDynamic, StackRestore; set
     * by lower_to_air): the epilogue restores it from the frame pointer. */
    bool dynamic_stack;
    uint64_t frame_size;  /* bytes below the saved frame pointer, 16-aligned; set by allocate_stack */
    uint32_t call_arg_area; /* bytes of outgoing stack arguments needed */
    /* One entry block per entrypoint, set by air_lower_entry_switch (several
     * entrypoints may share a block).  Before it runs (nentries == 0) the only
     * entry is blocks[0]. */
    AirBlock **entries;
    uint32_t nentries;
    /* The -O level (0, 1, 2), set by the pipeline, for phases that trade code
     * quality for compile time as B3's Options::optLevel() does. */
    uint8_t opt_level;
} AirCode;

/* ---- construction ---- */
void air_code_init(AirCode *c, B3Module *m, B3Proc *p);
/* Frees the Air of one procedure (once it is encoded or printed). */
void air_code_free(AirCode *c);
AirBlock *air_block_new(AirCode *c);
AirTmp air_tmp_new(AirCode *c, AirBank bank);
static inline AirBank air_tmp_bank(const AirCode *c, AirTmp t) {
    return air_tmp_is_reg(t) ? (t >= B3_FPR_BASE ? AirFP : AirGP) : (AirBank)c->tmp_bank[t - AIR_FIRST_VTMP];
}
AirStackSlot *air_slot_new(AirCode *c, uint32_t size, uint32_t align, bool spill);
/* Appends an inst; args are copied. Returns it (valid until the next append). */
/* Makes room for n instructions in b (its current ones kept). */
void air_block_reserve(AirCode *c, AirBlock *b, uint32_t n);
AirInst *air_append(AirCode *c, AirBlock *b, AirOpcode op, B3Value *origin, uint32_t nargs, const AirArg *args);
void air_compute_preds(AirCode *c);
/* Entrypoint k's block: c->entries once air_lower_entry_switch ran, else blocks[0]. */
static inline const AirBlock *air_entry_block(const AirCode *c, uint32_t k) {
    return k < c->nentries ? c->entries[k] : c->blocks[0];
}
/* Removes the blocks that none of the roots reaches, keeping the survivors'
 * order and renumbering them (preds are left for air_compute_preds).  `who`
 * names the pass in an out-of-memory error. */
void air_drop_unreachable(AirCode *c, AirBlock *const *roots, uint32_t nroots, const char *who);

/* Arg constructors. */
static inline AirArg air_tmp(AirTmp t) { return (AirArg){.kind = AirArg_Tmp, .base = t}; }
static inline AirArg air_imm(int64_t v) { return (AirArg){.kind = AirArg_Imm, .value = v}; }
static inline AirArg air_bigimm(int64_t v) { return (AirArg){.kind = AirArg_BigImm, .value = v}; }
static inline AirArg air_addr(AirTmp base, int64_t off) { return (AirArg){.kind = AirArg_Addr, .base = base, .value = off}; }
static inline AirArg air_index(AirTmp base, AirTmp index, unsigned scale, int64_t off) {
    return (AirArg){.kind = AirArg_Index, .base = base, .index = index, .scale = (uint8_t)scale, .value = off};
}
/* base + extend(index32) * scale + off: ext AirExt_SXTW or AirExt_UXTW. */
static inline AirArg air_index_ext(AirTmp base, AirTmp index, unsigned scale, int64_t off, uint8_t ext) {
    AirArg a = air_index(base, index, scale, off);
    a.ext = ext;
    return a;
}
static inline AirArg air_stack(AirStackSlot *s, int64_t off) {
    return (AirArg){.kind = AirArg_Stack, .value = off, .u.slot = s};
}
static inline AirArg air_callarg(int64_t off) { return (AirArg){.kind = AirArg_CallArg, .value = off}; }
static inline AirArg air_sym(B3Symbol *s, int64_t addend, bool got) {
    return (AirArg){.kind = AirArg_Sym, .got = got, .value = addend, .u.sym = s};
}
static inline AirArg air_relcond(AirCond c) { return (AirArg){.kind = AirArg_RelCond, .cond = (uint8_t)c}; }
static inline AirArg air_rescond(AirCond c) { return (AirArg){.kind = AirArg_ResCond, .cond = (uint8_t)c}; }
static inline AirArg air_dcond(AirDoubleCond c) { return (AirArg){.kind = AirArg_DoubleCond, .cond = (uint8_t)c}; }
/* The negation of an integer or result condition. */
AirCond air_cond_invert(AirCond c);
/* The negation of a float relation: each ordered relation and the "or
 * unordered" complement of it (NaN makes every ordered relation false). */
AirDoubleCond air_dcond_invert(AirDoubleCond c);
static inline bool air_arg_is_memory(const AirArg *a) {
    return a->kind == AirArg_Addr || a->kind == AirArg_Index || a->kind == AirArg_Stack ||
           a->kind == AirArg_CallArg || a->kind == AirArg_Sym;
}

/* ---- the opcode table ---- */

/* Is this combination of opcode and arg kinds valid on the target? */
bool air_is_valid_form(B3Target t, AirOpcode op, uint32_t nargs, const AirArg *args);
/* Same, asked before building the inst: kinds[i] is an AirArgKind. */
bool air_is_valid_form_kinds(B3Target t, AirOpcode op, uint32_t nargs, const uint8_t *kinds);

/* Calls f for every Tmp the inst mentions (directly, or as a base/index of an
 * address — those are Use roles of the address), with its role, bank and
 * width.  The callback may rewrite *tmp. */
typedef void (*AirTmpFn)(void *ctx, AirInst *inst, AirTmp *tmp, AirRole role, AirBank bank, AirWidth width);
void air_for_each_tmp(const AirCode *c, AirInst *inst, AirTmpFn f, void *ctx);

/* Calls f for every Arg with its role/bank/width as the signature gives them. */
typedef void (*AirArgFn)(void *ctx, AirInst *inst, AirArg *arg, AirRole role, AirBank bank, AirWidth width);
void air_for_each_arg(const AirCode *c, AirInst *inst, AirArgFn f, void *ctx);

/* An inst's signature: per arg its AirRole, AirBank and AirWidth; skip[i]
 * non-zero: arg i is a condition, not walked (skip NULL: none is). */
typedef struct {
    const uint8_t *roles, *banks, *widths, *skip;
} AirSig;
/* Per opcode and arity (at most 8 for a table signature), the index + 1 in
 * air_overload_sigs of the opcode's overload of that arity (0: none). */
extern const uint16_t air_op_arity_overload[][9];
extern const AirSig air_overload_sigs[];
_Noreturn void air_no_overload(const AirInst *inst);
static inline void air_inst_sig(const AirInst *inst, AirSig *sig) {
    if (inst->special) {
        *sig = (AirSig){inst->special->roles, inst->special->banks, inst->special->widths, NULL};
        return;
    }
    unsigned i = inst->nargs < 9 ? air_op_arity_overload[inst->opcode][inst->nargs] : 0;
    if (!i)
        air_no_overload(inst);
    *sig = air_overload_sigs[i - 1];
}

/* The same walk as air_for_each_tmp, inline, for the hottest loops:
 *     AirTmpIter it;
 *     AirTmpRef r;
 *     for (air_tmp_iter_init(&it, inst); air_tmp_iter_next(&it, &r);)
 *         ... r.tmp, r.role, r.bank, r.width ...
 * visits the tmps in the same order with the same roles. */
typedef struct {
    AirTmp *tmp;
    AirRole role;
    AirBank bank;
    AirWidth width;
} AirTmpRef;

typedef struct {
    AirArg *args;
    AirSig sig;
    uint32_t i, n;
    bool index_next; /* args[i] is an Index whose base was visited */
} AirTmpIter;

static inline void air_tmp_iter_init(AirTmpIter *it, AirInst *inst) {
    air_inst_sig(inst, &it->sig);
    it->args = inst->args;
    it->i = 0;
    it->n = inst->nargs;
    it->index_next = false;
}

static inline bool air_tmp_iter_next(AirTmpIter *it, AirTmpRef *r) {
    if (it->index_next) {
        /* An extended index is read in its low 32 bits only. */
        AirArg *a = &it->args[it->i++];
        it->index_next = false;
        *r = (AirTmpRef){&a->index, AirRole_Use, AirGP, a->ext ? AirW32 : AirW64};
        return true;
    }
    for (; it->i < it->n; it->i++) {
        uint32_t i = it->i;
        if (it->sig.skip && it->sig.skip[i])
            continue;
        AirArg *a = &it->args[i];
        switch (a->kind) {
        case AirArg_Tmp:
            *r = (AirTmpRef){&a->base, (AirRole)it->sig.roles[i], (AirBank)it->sig.banks[i],
                             (AirWidth)it->sig.widths[i]};
            it->i++;
            return true;
        case AirArg_Addr:
            /* The address's registers are read early, whatever the access does. */
            *r = (AirTmpRef){&a->base, AirRole_Use, AirGP, AirW64};
            it->i++;
            return true;
        case AirArg_Index:
            *r = (AirTmpRef){&a->base, AirRole_Use, AirGP, AirW64};
            it->index_next = true;
            return true;
        default:
            break;
        }
    }
    return false;
}

/* air_for_each_arg and air_for_each_tmp inline, for the hot loops: with f
 * a known static function, the compiler inlines the walk and f. */
__attribute__((always_inline)) static inline void air_for_each_arg_inline(AirInst *inst, AirArgFn f,
                                                                          void *ctx) {
    AirSig sig;
    air_inst_sig(inst, &sig);
    for (uint32_t i = 0; i < inst->nargs; i++) {
        if (sig.skip && sig.skip[i])
            continue;
        f(ctx, inst, &inst->args[i], (AirRole)sig.roles[i], (AirBank)sig.banks[i], (AirWidth)sig.widths[i]);
    }
}

__attribute__((always_inline)) static inline void air_for_each_tmp_inline(AirInst *inst, AirTmpFn f,
                                                                          void *ctx) {
    AirTmpIter it;
    AirTmpRef r;
    for (air_tmp_iter_init(&it, inst); air_tmp_iter_next(&it, &r);)
        f(ctx, inst, r.tmp, r.role, r.bank, r.width);
}

/* Enumerating the form table (tests and tools): overload i of
 * 0..air_num_overloads()-1 has a signature and nforms allowed kind tuples. */
typedef struct {
    AirOpcode opcode;
    uint32_t nargs;
    uint8_t roles[8], banks[8], widths[8]; /* AirRole, AirBank, AirWidth per arg */
    uint8_t conds[8]; /* non-zero: the arg is a condition of that AirArgKind */
    uint32_t nforms;
} AirOverloadInfo;
uint32_t air_num_overloads(void);
void air_overload_info(uint32_t i, AirOverloadInfo *out);
/* Form j of overload i: fills kinds[0..nargs-1] (AirArgKind; Addr stands for
 * every memory kind based on a register or the PC) and returns its target
 * mask: bit 0 x86-64, bit 1 arm64. */
unsigned air_overload_form(uint32_t i, uint32_t j, uint8_t *kinds);

/* ---- per-opcode facts: the AIR_OP columns of opcodes.def ---- */

typedef enum { AirMove_None, AirMove_Copy, AirMove_ZeroExtend } AirMoveKind;
#define AIR_ANY 0xff /* SUCCS column: one successor or more */

typedef struct {
    bool terminal;
    bool branch;   /* a two-way conditional branch that only reads its args */
    uint8_t succs; /* successors of a block it ends, or AIR_ANY */
    uint8_t move;  /* AirMoveKind */
    bool effects;  /* effects beyond its args (eliminate_dead_code keeps it) */
} AirOpInfo;

extern const AirOpInfo air_op_info[AIR_NUM_OPCODES];

/* Terminals: Jump, Branch*, Ret*, Oops, ... */
static inline bool air_is_terminal(AirOpcode op) { return air_op_info[op].terminal; }
static inline bool air_is_branch(AirOpcode op) { return air_op_info[op].branch; }
static inline AirMoveKind air_move_kind(AirOpcode op) { return (AirMoveKind)air_op_info[op].move; }
/* The bank a move opcode copies in (from its signature). */
AirBank air_move_bank(AirOpcode op);
/* A terminal that goes to succs[0] when its condition (args[0]) holds, else
 * to succs[1]: Branch*, BranchAdd*, BranchAtomicStrongCAS*, ... */
static inline bool air_is_conditional_branch(const AirInst *i) {
    return i->nargs &&
           (i->args[0].kind == AirArg_RelCond || i->args[0].kind == AirArg_ResCond ||
            i->args[0].kind == AirArg_DoubleCond) &&
           air_is_terminal((AirOpcode)i->opcode);
}
/* Whether s is one of b's successors. */
static inline bool air_block_has_succ(const AirBlock *b, const AirBlock *s) {
    for (uint32_t k = 0; k < b->nsuccs; k++)
        if (b->succs[k].block == s)
            return true;
    return false;
}
/* Effects beyond the args (the EFFECTS column): a fence. */
static inline bool air_has_non_arg_effects(AirOpcode op) { return air_op_info[op].effects; }

/* Does the opcode write only the low lane of its FP destination on the
 * target, keeping the rest (B3TargetDesc.partial_fp_lane_defs)? */
bool air_writes_partial_fp_lane(B3Target t, AirOpcode op);

/* Readable dump (--emit=air). */
void air_print_code(const AirCode *c, FILE *out);

#endif
