/* Register and stack allocation for -O0, one pass per block (as LLVM's
 * RegAllocFast): no global liveness, no interference, no cleanup phase.
 *
 * A pre-pass over the code finds, for every virtual tmp, whether it is
 * global: mentioned in more than one block, or read in its block before
 * any write (live around a loop that is the block itself).  A global lives
 * in a stack slot of its own: each def is followed by a store (or writes
 * the slot itself where the form takes memory there), and a use reads the
 * slot in place where the form allows it, else a register loaded once per
 * block while the register keeps it.  The other tmps live in registers
 * from def to last use; one goes to a slot (a block-local one, reused by
 * the next block) only when the registers run out or a call clobbers its
 * register.  The same pre-pass gives the physical registers that are live
 * out of each block (64-bit masks, a tiny dataflow): the input's fixed
 * registers (call arguments, results, div, shifts, patchpoint operands)
 * are honoured as they appear in the code.
 *
 * Each block is walked backwards, so that the first mention met of a tmp is
 * its last use: it takes a register there, which stays its own upwards
 * until its def, which ends it.  A tmp whose register is taken from it
 * before its def (a need for that register, a clobber, the block's top for
 * a global) is loaded right before its topmost use met so far, since its
 * value is in its slot: a global's always, a local's because its def will
 * store it.  Within an inst, operands take registers by the timing of
 * their roles (liveness.h): a late def may share with an early use, an
 * early use with a late clobber, and so on, exactly as the other
 * allocators allow.  Insts whose results are all dead and that do nothing
 * else are dropped on the way (free block-local dead code elimination).
 *
 * Stack: with a frame pointer (-O0's default) every slot gets its frame
 * offset when it is made and the args that name slots become addresses
 * when the walk meets them: no pass of its own.  Only where callee saves
 * turn out to be needed, below the frame pointer, are the slots pushed
 * down past them, through the list of those args.  Without
 * one the offsets depend on the frame size, so air_allocate_stack lays the
 * slots out (all 8 bytes and marked shared: no sharing analysis). */
#include <stdlib.h>
#include <string.h>

#include "codegen/air/phases.h"
#include "codegen/air/regalloc.h"
#include "ir/target.h"
#include "util/bits.h"
#include "util/vec.h"

#define PHASE "air fast register allocation"
#define NONE UINT32_MAX
#define NO_REG 0xff
#define MEMO_BITS 10

/* One register mention of an inst: a Tmp arg, or an address's base or index. */
typedef struct {
    AirArg *arg;
    AirTmp *tmp;
    AirTmp orig; /* *tmp before allocation */
    uint8_t role, bank, width;
    bool direct; /* the arg is the Tmp itself (it may become a Stack arg) */
} Op;

/* A load placed before the output inst at position pos (of the reversed block). */
typedef struct {
    uint32_t pos, next;
    AirInst inst;
} Load;

typedef struct {
    AirCode *c;
    /* per virtual tmp (index t - AIR_FIRST_VTMP) */
    uint8_t *reg;        /* its register now, or NO_REG */
    uint8_t *global;     /* lives in its slot across blocks */
    uint8_t *hint;       /* a register it is copied from or to, or NO_REG */
    uint32_t *top;       /* pre-pass: block of first mention; walk: reversed position of its topmost use */
    uint32_t *def_at;    /* the inst (numbered through the code) of its last def */
    AirStackSlot **slot; /* globals, and locals that had to leave their register */
    uint32_t *stored;    /* stamp of the block in which a def below stores it */
    uint32_t stamp;      /* the block's: its index + 1 */
    /* registers (B3Reg numbering) */
    AirTmp occ[64];     /* the virtual tmp holding it */
    uint64_t busy;      /* holding a value: a virtual tmp's, or a physical one's (phys) */
    uint64_t phys;      /* holding a value the code put in the register itself */
    uint64_t alloc[2];  /* allocatable, per bank */
    uint64_t caller[2]; /* allocatable and caller-saved, per bank */
    uint64_t used;      /* ever assigned (callee saves) */
    uint64_t *live_out; /* per block: physical registers live out */
    /* the inst being allocated: registers read or written at each moment */
    uint64_t eu, ed, edv, lu, ld; /* edv: early defs whose value outlives the inst */
    bool keep;                    /* the inst writes memory or a register not allocatable */
    AirInst *inst;                /* the inst being allocated */
    uint32_t gbase, gcur;         /* the block's first inst and the inst, numbered as def_at */
    Op *ops;
    uint32_t nops, cap_ops;
    /* the block being rewritten, reversed */
    AirInst *rev;
    uint32_t nrev, cap_rev;
    AirInst *stores; /* after the current inst */
    uint32_t nstores, cap_stores;
    Load *loads;
    uint32_t nloads, cap_loads;
    uint32_t *load_at; /* per reversed position: first Load, or NONE */
    uint32_t cap_load_at;
    uint64_t memo_key[1 << MEMO_BITS]; /* admits_stack */
    bool memo_ok[1 << MEMO_BITS];
    AirStackSlot **pool; /* block-local slots, reused block after block */
    /* With a frame pointer the frame is laid out on the way: every slot gets
     * its offset when made, below room for every callee save the code may
     * need, and Stack and CallArg args become addresses as they are met. */
    bool layout;
    AirTmp fp, sp;
    uint64_t frame; /* bytes below the frame pointer taken (the saves' excluded) */
    AirArg **fix;   /* the args addressing slots */
    uint32_t nfix, cap_fix;
    uint32_t npool, cap_pool, used_pool;
    bool split;
    AirHoles holes; /* the replaced insts arrays */
} Fast;

static inline uint64_t bit(uint32_t r) { return 1ull << r; }

/* ---- pre-pass ---- */

typedef struct {
    Fast *f;
    uint32_t bi, g;
    uint64_t gen, kill, inst_kill;
} Pre;

static void pre_tmp(void *vctx, AirInst *inst, AirTmp *tmp, AirRole role, AirBank bank, AirWidth width) {
    (void)inst;
    (void)bank;
    (void)width;
    Pre *p = vctx;
    Fast *f = p->f;
    AirTmp t = *tmp;
    /* A scratch's use is its own def's, within the inst. */
    bool use = air_role_is_use(role) && role != AirRole_Scratch, def = air_role_is_def(role);
    if (air_tmp_is_reg(t)) {
        if (!((f->alloc[0] | f->alloc[1]) & bit(t)))
            return;
        f->used |= bit(t);
        if (use && !(p->kill & bit(t)))
            p->gen |= bit(t);
        if (def)
            p->inst_kill |= bit(t);
        return;
    }
    uint32_t v = t - AIR_FIRST_VTMP;
    if (f->top[v] == NONE) {
        f->top[v] = p->bi;
        f->def_at[v] = p->g;
        f->global[v] |= use;
    } else if (f->top[v] != p->bi || (use && f->def_at[v] == p->g)) {
        f->global[v] = 1;
    }
    if (def)
        f->def_at[v] = p->g;
}

/* Copies between a tmp and a register: the tmp prefers that register. */
static void pre_hint(Fast *f, const AirInst *i) {
    if (i->special || i->nargs != 2 || air_move_kind((AirOpcode)i->opcode) == AirMove_None ||
        i->args[0].kind != AirArg_Tmp || i->args[1].kind != AirArg_Tmp)
        return;
    AirTmp a = i->args[0].base, d = i->args[1].base;
    if (air_tmp_is_reg(a) != air_tmp_is_reg(d)) {
        AirTmp r = air_tmp_is_reg(a) ? a : d, t = air_tmp_is_reg(a) ? d : a;
        if ((f->alloc[0] | f->alloc[1]) & bit(r))
            f->hint[t - AIR_FIRST_VTMP] = (uint8_t)r;
    }
}

static void prepass(Fast *f) {
    AirCode *c = f->c;
    uint32_t nb = c->nblocks;
    uint64_t *gen = b3_xcalloc(PHASE, 3 * (size_t)nb, sizeof(uint64_t)), *kill = gen + nb, *in = kill + nb;
    f->live_out = b3_xcalloc(PHASE, nb, sizeof(uint64_t));
    Pre p = {f, 0, 0, 0, 0, 0};
    uint64_t allocatable = f->alloc[0] | f->alloc[1];
    for (uint32_t bi = 0; bi < nb; bi++) {
        AirBlock *b = c->blocks[bi];
        p.bi = bi;
        p.gen = p.kill = 0;
        for (uint32_t ii = 0; ii < b->ninsts; ii++, p.g++) {
            AirInst *i = &b->insts[ii];
            p.inst_kill = 0;
            air_for_each_tmp_inline(i, pre_tmp, &p);
            if (i->special)
                p.inst_kill |=
                    (i->special->early_clobber.bits[0] | i->special->late_clobber.bits[0]) & allocatable;
            p.kill |= p.inst_kill;
            pre_hint(f, i);
        }
        gen[bi] = p.gen;
        kill[bi] = p.kill;
        in[bi] = p.gen;
    }
    /* Registers live out: blocks backwards until nothing changes (mostly one
     * sweep: the code rarely keeps a register live across an edge). */
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t bi = nb; bi-- > 0;) {
            const AirBlock *b = c->blocks[bi];
            uint64_t out = 0;
            for (uint32_t s = 0; s < b->nsuccs; s++)
                out |= in[b->succs[s].block->index];
            f->live_out[bi] = out;
            uint64_t v = gen[bi] | (out & ~kill[bi]);
            changed |= v != in[bi];
            in[bi] = v;
        }
    }
    free(gen);
}

/* ---- registers ---- */

/* Gives slot s its place below the frame laid out so far. */
static void place(Fast *f, AirStackSlot *s) {
    uint64_t align = s->align ? s->align : 1;
    if (align > 16)
        b3_internal_error(PHASE, "stack slot %u wants alignment %u; the frame guarantees 16", s->index,
                          s->align);
    f->frame =
        b3_align_up(f->frame + (s->size ? s->size : 1), align); /* a zero-sized slot needs an address too */
    s->offset = -(int64_t)f->frame;
    if (s->b3)
        s->b3->offset = s->offset;
}

static AirStackSlot *new_slot(Fast *f) {
    AirStackSlot *s = air_slot_new(f->c, 8, 8, true);
    s->shared = true; /* for air_allocate_stack: no sharing analysis */
    if (f->layout)
        place(f, s);
    return s;
}

static void note_fix(Fast *f, AirArg *a) { B3_VEC_PUSH(PHASE, f->fix, f->nfix, f->cap_fix, a); }

/* Makes *dst name slot s (plus off): its frame address once laid out,
 * remembered in case the callee saves push the slots down. */
static void set_slot_arg(Fast *f, AirArg *dst, AirStackSlot *s, int64_t off) {
    if (!f->layout) {
        *dst = air_stack(s, off);
        return;
    }
    *dst = air_addr(f->fp, s->offset + off);
    note_fix(f, dst);
}

/* The slot of t, made on demand: a global's own, a local's from the pool. */
static AirStackSlot *slot_of(Fast *f, uint32_t v) {
    if (f->slot[v])
        return f->slot[v];
    if (f->global[v])
        return f->slot[v] = new_slot(f);
    if (f->used_pool == f->npool)
        B3_VEC_PUSH(PHASE, f->pool, f->npool, f->cap_pool, new_slot(f));
    return f->slot[v] = f->pool[f->used_pool++];
}

/* A load (slot to register r) or a store (r to the slot): the spill
 * rewriter's move (the slots here are never narrow), its slot operand
 * placed as every slot mention here. */
static AirInst make_move(Fast *f, AirBank bank, bool load, AirStackSlot *s, uint32_t r, B3Value *origin) {
    AirInst i =
        air_spill_move_in(air_holes_take(&f->holes, f->c, 2 * sizeof(AirArg)), bank, s, r, load, origin);
    set_slot_arg(f, &i.args[!load], s, 0);
    return i;
}

/* t gives up register r above this point: it is loaded from its slot into r
 * before its topmost use met so far. */
static void release(Fast *f, AirTmp t, uint32_t r) {
    uint32_t v = t - AIR_FIRST_VTMP;
    AirBank bank = r >= B3_FPR_BASE ? AirFP : AirGP;
    B3_VEC_RESERVE(PHASE, f->loads, f->cap_loads, f->nloads + 1);
    Load *l = &f->loads[f->nloads];
    l->pos = f->top[v];
    l->inst = make_move(f, bank, true, slot_of(f, v), r, NULL);
    f->stored[v] = 0; /* the load reads the slot: the def above stores */
    l->next = f->load_at[l->pos];
    f->load_at[l->pos] = f->nloads++;
    f->reg[v] = NO_REG;
    f->busy &= ~bit(r);
}

/* Empties register r of the virtual tmp holding it. */
static void evict(Fast *f, uint32_t r) {
    if ((f->busy & ~f->phys) & bit(r))
        release(f, f->occ[r], r);
}

static bool admits_stack(Fast *f, AirInst *inst, Op *o);
static bool is_cold_use(AirRole r) { return r == AirRole_ColdUse || r == AirRole_LateColdUse; }

/* A register of the bank held by a virtual tmp that the inst only reads
 * cold (a stackmap's "any" location), every mention of it admitting the
 * stack: its args move to its slot and it gives the register up, loaded
 * below.  The last resort of pick: a patchpoint whose cold arguments were
 * left in registers by the code below may still need registers for its
 * others.  Returns the register, or NO_REG. */
static uint32_t free_cold_use(Fast *f, AirBank bank, uint64_t forbid) {
    uint64_t named = f->phys | f->ed | f->ld | (forbid & ~(f->eu | f->lu));
    for (uint64_t m = f->alloc[bank] & f->busy & (f->eu | f->lu) & ~named; m; m &= m - 1) {
        uint32_t r = (uint32_t)__builtin_ctzll(m);
        AirTmp t = f->occ[r];
        bool ok = true, any = false;
        for (uint32_t k = 0; k < f->nops && ok; k++) {
            Op *o = &f->ops[k];
            if (o->orig != t)
                continue;
            any = true;
            ok = is_cold_use((AirRole)o->role) && o->direct && admits_stack(f, f->inst, o);
        }
        if (!ok || !any)
            continue;
        uint32_t v = t - AIR_FIRST_VTMP;
        for (uint32_t k = 0; k < f->nops; k++)
            if (f->ops[k].orig == t)
                set_slot_arg(f, f->ops[k].arg, slot_of(f, v), 0);
        release(f, t, r);
        f->stored[v] = 0; /* read here: the def above stores */
        f->eu &= ~bit(r);
        f->lu &= ~bit(r);
        return r;
    }
    return NO_REG;
}

/* A register of the bank outside `forbid` for a new value; hint first,
 * then caller-saved ones.  With none free, a virtual tmp that is no
 * operand of the inst gives its register up (a global's first: its slot
 * already has its value). */
static uint32_t pick(Fast *f, AirBank bank, uint64_t forbid, uint32_t hint) {
    uint64_t free_ = f->alloc[bank] & ~f->busy & ~forbid;
    if (hint != NO_REG && (free_ & bit(hint)))
        return hint;
    if (free_ & f->caller[bank])
        return (uint32_t)__builtin_ctzll(free_ & f->caller[bank]);
    if (free_)
        return (uint32_t)__builtin_ctzll(free_);
    uint64_t cand = f->alloc[bank] & f->busy & ~f->phys & ~forbid & ~(f->eu | f->ed | f->lu | f->ld);
    if (!cand) {
        uint32_t r = free_cold_use(f, bank, forbid);
        if (r == NO_REG)
            b3_internal_error(PHASE, "no %s register left", bank == AirGP ? "GP" : "FP");
        return r;
    }
    uint32_t victim = (uint32_t)__builtin_ctzll(cand);
    for (uint64_t m = cand; m; m &= m - 1) {
        uint32_t r = (uint32_t)__builtin_ctzll(m);
        uint32_t v = f->occ[r] - AIR_FIRST_VTMP;
        if (f->global[v] || f->slot[v]) {
            victim = r;
            break;
        }
    }
    release(f, f->occ[victim], victim);
    return victim;
}

static void take(Fast *f, AirTmp t, uint32_t r) {
    uint32_t v = t - AIR_FIRST_VTMP;
    f->reg[v] = (uint8_t)r;
    f->occ[r] = t;
    f->busy |= bit(r);
    f->used |= bit(r);
    f->top[v] = f->nrev;
}

static void add_store(Fast *f, AirBank bank, uint32_t r, uint32_t v, B3Value *origin) {
    AirInst store = make_move(f, bank, false, slot_of(f, v), r, origin);
    B3_VEC_PUSH(PHASE, f->stores, f->nstores, f->cap_stores, store);
}

static void push_rev(Fast *f, AirInst i) {
    B3_VEC_RESERVE2(PHASE, f->rev, f->load_at, f->cap_rev, f->nrev + 1);
    f->load_at[f->nrev] = NONE;
    f->rev[f->nrev++] = i;
}

/* ---- one inst ---- */

static void collect(void *vctx, AirInst *inst, AirArg *arg, AirRole role, AirBank bank, AirWidth width) {
    (void)inst;
    Fast *f = vctx;
    AirTmp *tmps[2];
    uint32_t n = 0;
    bool direct = arg->kind == AirArg_Tmp;
    if (air_role_is_def(role) && arg->kind != AirArg_None &&
        (air_arg_is_memory(arg) ||
         (direct && air_tmp_is_reg(arg->base) && !(f->alloc[bank] & bit(arg->base)))))
        f->keep = true; /* it writes memory, or a register no allocator hands out */
    if (f->layout && arg->kind == AirArg_Stack) {
        set_slot_arg(f, arg, arg->u.slot, arg->value);
        return;
    }
    if (f->layout && arg->kind == AirArg_CallArg) {
        *arg = air_addr(f->sp, arg->value);
        return;
    }
    if (direct) {
        tmps[n++] = &arg->base;
    } else if (arg->kind == AirArg_Addr || arg->kind == AirArg_Index) {
        tmps[n++] = &arg->base;
        if (arg->kind == AirArg_Index)
            tmps[n++] = &arg->index;
        role = AirRole_Use;
        bank = AirGP;
        width = AirW64;
    }
    for (uint32_t k = 0; k < n; k++) {
        AirTmp t = *tmps[k];
        if (air_tmp_is_reg(t) && !(f->alloc[bank] & bit(t)))
            continue; /* the stack or frame pointer, a pinned register */
        B3_VEC_PUSH(PHASE, f->ops, f->nops, f->cap_ops,
                    ((Op){arg, tmps[k], t, (uint8_t)role, (uint8_t)bank, (uint8_t)width, direct}));
    }
}

static bool is_late_def(AirRole r) { return air_role_is_late_def(r); }
static bool is_use_def(AirRole r) { return r == AirRole_UseDef || r == AirRole_UseZDef; }
static bool is_late_use(AirRole r) { return r == AirRole_LateUse || r == AirRole_LateColdUse; }
static bool is_early_def(AirRole r) { return r == AirRole_EarlyDef || r == AirRole_EarlyZDef; }
static bool is_early_use(AirRole r) {
    return r == AirRole_Use || r == AirRole_ColdUse || r == AirRole_UseAddr;
}

/* Does the inst do nothing but write values nobody reads? */
static bool dead(const Fast *f, const AirInst *inst) {
    AirOpcode op = (AirOpcode)inst->opcode;
    /* As air_eliminate_dead_code: a load may go, a store may not. */
    if (f->keep || inst->special || (inst->flags & AirInstFlag_Traps) || air_is_terminal(op) ||
        air_has_non_arg_effects(op))
        return false;
    bool any = false;
    for (uint32_t k = 0; k < f->nops; k++) {
        const Op *o = &f->ops[k];
        if (!air_role_is_def((AirRole)o->role))
            continue;
        AirTmp t = *o->tmp;
        if (air_tmp_is_reg(t)) {
            if (f->busy & bit(t))
                return false;
        } else {
            uint32_t v = t - AIR_FIRST_VTMP;
            if (f->reg[v] != NO_REG || f->global[v] || f->slot[v])
                return false;
        }
        any = true;
    }
    return any;
}

/* air_admits_stack for a virtual tmp arg, remembered by opcode, arg and
 * arg kinds (what the answer depends on but for immediates too large for a
 * 32-bit field, which are not remembered): most insts at -O0 are a few
 * forms asked about again and again. */
static bool admits_stack(Fast *f, AirInst *inst, Op *o) {
    uint32_t idx = (uint32_t)(o->arg - inst->args);
    if (inst->special || inst->nargs > 8)
        return air_admits_stack(f->c, inst, o->arg, (AirRole)o->role, (AirWidth)o->width, NULL);
    uint64_t key = 1ull << 63 | (uint64_t)inst->opcode | (uint64_t)idx << 16 | (uint64_t)inst->nargs << 20;
    for (uint32_t i = 0; i < inst->nargs; i++) {
        const AirArg *a = &inst->args[i];
        if (a->kind == AirArg_Imm && (a->value < INT32_MIN || a->value > INT32_MAX))
            return air_admits_stack(f->c, inst, o->arg, (AirRole)o->role, (AirWidth)o->width, NULL);
        key |= (uint64_t)a->kind << (24 + 4 * i);
    }
    uint32_t h = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> (64 - MEMO_BITS));
    if (f->memo_key[h] != key) {
        f->memo_key[h] = key;
        f->memo_ok[h] = air_admits_stack(f->c, inst, o->arg, (AirRole)o->role, (AirWidth)o->width, NULL);
    }
    return f->memo_ok[h];
}

static bool try_stack(Fast *f, AirInst *inst, Op *o, uint32_t v) {
    /* A cold use (a stackmap's "any" location) goes to memory even for a
     * local: a patchpoint may record more values than there are registers. */
    bool cold = o->role == AirRole_ColdUse || o->role == AirRole_LateColdUse;
    if (!o->direct || (!f->global[v] && !f->slot[v] && !cold))
        return false;
    /* A global read after a def above in the block takes a register: the
     * def writes it there, and no load is needed. */
    if (!cold && !air_role_is_def((AirRole)o->role) && f->def_at[v] >= f->gbase && f->def_at[v] < f->gcur)
        return false;
    if (!admits_stack(f, inst, o))
        return false;
    set_slot_arg(f, o->arg, slot_of(f, v), 0);
    f->stored[v] = 0; /* read here: the def above stores (a def's caller says otherwise) */
    return true;
}

/* The register a use is copied into by this Move, if it has one already. */
static uint32_t move_hint(const AirInst *inst, const Op *o, uint32_t v, const Fast *f) {
    if (air_move_kind((AirOpcode)inst->opcode) != AirMove_None && !inst->special && inst->nargs == 2 &&
        o->arg == &inst->args[0] && inst->args[1].kind == AirArg_Tmp && air_tmp_is_reg(inst->args[1].base))
        return inst->args[1].base;
    return f->hint[v];
}

/* A def of v into r: its slot gets the value, unless v is read below in
 * r (live_below) up to a later def that stores it, since then nobody
 * reads the slot in between (such a reader would have taken v out of r). */
static void def_stored(Fast *f, AirBank bank, uint32_t r, uint32_t v, B3Value *origin, bool live_below) {
    if (!f->global[v] && !f->slot[v])
        return;
    if (live_below && f->stored[v] == f->stamp)
        return;
    add_store(f, bank, r, v, origin);
    f->stored[v] = f->stamp;
}

/* A late def may take a register the inst reads or writes early; a late use
 * may not.  When the free registers a late use could take are no more than
 * the late uses still to place (a patchpoint at the limit of its
 * constraints), a late def leaves them alone if it has anything else: the
 * registers to forbid it, or 0 (the usual case, which changes nothing). */
static uint64_t keep_for_late_uses(const Fast *f, AirBank bank, uint64_t forbid) {
    uint32_t pending = 0;
    for (uint32_t k = 0; k < f->nops; k++) {
        const Op *o = &f->ops[k];
        pending += o->role == AirRole_LateUse && o->bank == bank && !air_tmp_is_reg(*o->tmp) &&
                   f->reg[*o->tmp - AIR_FIRST_VTMP] == NO_REG;
    }
    if (!pending)
        return 0;
    uint64_t free_ = f->alloc[bank] & ~f->busy;
    uint64_t for_late_uses = free_ & ~(f->ld | f->ed | f->eu | f->lu);
    if ((uint32_t)__builtin_popcountll(for_late_uses) > pending || !(free_ & ~forbid & ~for_late_uses))
        return 0;
    return for_late_uses;
}

/* Does the inst write t at its late moment, without reading it? */
static bool defines_late(const Fast *f, AirTmp t) {
    for (uint32_t k = 0; k < f->nops; k++) {
        AirRole role = (AirRole)f->ops[k].role;
        if (f->ops[k].orig == t && (air_role_is_use(role) || !is_late_def(role)))
            return false;
    }
    for (uint32_t k = 0; k < f->nops; k++)
        if (f->ops[k].orig == t)
            return true;
    return false;
}

/* Allocates inst (walking backwards); false if it is dead and dropped. */
static bool allocate_inst(Fast *f, AirInst *inst) {
    f->nops = 0;
    f->keep = false;
    f->inst = inst;
    air_for_each_arg_inline(inst, collect, f);
    if (dead(f, inst))
        return false;
    /* The registers the code names and the clobbers. */
    uint64_t peu = 0, ped = 0, plu = 0, pld = 0, ecl = 0, lcl = 0;
    for (uint32_t k = 0; k < f->nops; k++) {
        AirTmp t = *f->ops[k].tmp;
        if (!air_tmp_is_reg(t))
            continue;
        AirRole role = (AirRole)f->ops[k].role;
        uint64_t b = bit(t);
        if (role == AirRole_Scratch)
            ped |= b, plu |= b;
        if (is_early_use(role) || is_use_def(role))
            peu |= b;
        if (is_late_use(role))
            plu |= b;
        if (is_late_def(role))
            pld |= b;
        if (is_early_def(role))
            ped |= b;
    }
    if (inst->special) {
        uint64_t all = f->alloc[0] | f->alloc[1];
        ecl = inst->special->early_clobber.bits[0] & all;
        lcl = inst->special->late_clobber.bits[0] & all;
    }
    uint64_t named = peu | ped | plu | pld | ecl | lcl;
    f->eu = peu;
    f->lu = plu;
    f->ld = pld | lcl;
    f->ed = ped | ecl;
    f->edv = ped;
    f->used |= named;
    uint64_t taken = ped | plu | pld | ecl | lcl;
    for (uint64_t m = named & f->busy & ~f->phys; m; m &= m - 1) {
        uint32_t r = (uint32_t)__builtin_ctzll(m);
        /* A register read early may take what the inst defines late, the
         * way `Move %rdi, %tmp` copies an argument. */
        if (!(taken & bit(r)) && defines_late(f, f->occ[r]))
            continue;
        evict(f, r);
    }
    /* A register the inst writes holds no earlier value above it. */
    uint64_t written = (ped | pld | ecl | lcl) & f->phys;
    f->busy &= ~written;
    f->phys &= ~written;
    f->nstores = 0;

    /* Late defs, late uses, early defs, early uses: each kind avoids the
     * registers the kinds before it took when their moments meet. */
    for (uint32_t k = 0; k < f->nops; k++) {
        Op *o = &f->ops[k];
        AirRole role = (AirRole)o->role;
        if (!is_late_def(role) || air_tmp_is_reg(*o->tmp))
            continue;
        uint32_t v = *o->tmp - AIR_FIRST_VTMP, r = f->reg[v];
        bool ud = is_use_def(role), live_below = r != NO_REG;
        if (r == NO_REG) {
            if (try_stack(f, inst, o, v)) {
                f->stored[v] = ud ? 0 : f->stamp; /* a UseDef reads the slot too */
                continue;
            }
            uint64_t forbid = f->ld | f->lu | f->edv | (ud ? f->ed | f->eu : 0);
            r = pick(f, (AirBank)o->bank, forbid | keep_for_late_uses(f, (AirBank)o->bank, forbid),
                     f->hint[v]);
            if (ud)
                take(f, *o->tmp, r);
        } else if (!ud) {
            f->reg[v] = NO_REG;
            f->busy &= ~bit(r);
        } else {
            f->top[v] = f->nrev;
        }
        f->used |= bit(r);
        f->ld |= bit(r);
        if (ud)
            f->eu |= bit(r);
        def_stored(f, (AirBank)o->bank, r, v, inst->origin, live_below);
        *o->tmp = r;
    }
    for (uint32_t k = 0; k < f->nops; k++) {
        Op *o = &f->ops[k];
        if (!is_late_use((AirRole)o->role) || air_tmp_is_reg(*o->tmp))
            continue;
        uint32_t v = *o->tmp - AIR_FIRST_VTMP, r = f->reg[v];
        if (r == NO_REG) {
            if (try_stack(f, inst, o, v))
                continue;
            r = pick(f, (AirBank)o->bank, f->ld | f->ed | f->eu | f->lu, f->hint[v]);
            take(f, *o->tmp, r);
        } else {
            f->top[v] = f->nrev;
        }
        f->lu |= bit(r);
        *o->tmp = r;
    }
    for (uint32_t k = 0; k < f->nops; k++) {
        Op *o = &f->ops[k];
        AirRole role = (AirRole)o->role;
        if ((!is_early_def(role) && role != AirRole_Scratch) || air_tmp_is_reg(*o->tmp))
            continue;
        uint32_t v = *o->tmp - AIR_FIRST_VTMP, r = f->reg[v];
        bool live_below = r != NO_REG;
        if (role == AirRole_Scratch || r == NO_REG) {
            r = pick(f, (AirBank)o->bank, f->eu | f->ed | f->lu | f->ld, NO_REG);
        } else {
            f->reg[v] = NO_REG;
            f->busy &= ~bit(r);
        }
        f->used |= bit(r);
        f->ed |= bit(r);
        if (role == AirRole_Scratch)
            f->lu |= bit(r);
        else
            f->edv |= bit(r), def_stored(f, (AirBank)o->bank, r, v, inst->origin, live_below);
        *o->tmp = r;
    }
    for (uint32_t k = 0; k < f->nops; k++) {
        Op *o = &f->ops[k];
        if (!is_early_use((AirRole)o->role) || air_tmp_is_reg(*o->tmp))
            continue;
        uint32_t v = *o->tmp - AIR_FIRST_VTMP, r = f->reg[v];
        if (r == NO_REG) {
            if (try_stack(f, inst, o, v))
                continue;
            r = pick(f, (AirBank)o->bank, f->ed | f->eu | f->lu, move_hint(inst, o, v, f));
            take(f, *o->tmp, r);
        } else {
            f->top[v] = f->nrev;
        }
        f->eu |= bit(r);
        *o->tmp = r;
    }
    /* The registers the inst reads hold the code's values above it. */
    f->busy |= peu | plu;
    f->phys |= peu | plu;
    return true;
}

/* ---- blocks ---- */

static void allocate_block(Fast *f, AirBlock *b) {
    AirCode *c = f->c;
    f->nrev = 0;
    f->nloads = 0;
    f->used_pool = 0;
    f->stamp = b->index + 1;
    f->busy = f->phys = f->live_out[b->index];
    for (uint32_t ii = b->ninsts; ii-- > 0;) {
        AirInst inst = b->insts[ii];
        /* Its stores go after it: pushed first, as the block is built reversed. */
        uint32_t at = f->nrev;
        f->gcur = f->gbase + ii;
        if (!allocate_inst(f, &inst))
            continue;
        if (f->nstores && air_is_terminal((AirOpcode)inst.opcode)) {
            uint32_t first = c->nblocks;
            air_store_on_out_edges(c, b, inst.origin, f->stores, f->nstores);
            /* The edge blocks hold copies of the stores: their addresses are the ones to fix. */
            for (uint32_t nb = first; f->layout && nb < c->nblocks; nb++)
                for (uint32_t k = 0; k + 1 < c->blocks[nb]->ninsts; k++)
                    note_fix(f, &c->blocks[nb]->insts[k].args[1]);
            f->split = true;
            f->nstores = 0;
        }
        for (uint32_t k = f->nstores; k-- > 0;)
            push_rev(f, f->stores[k]);
        /* A copy of a register to itself is no inst (remove_self_moves at -O1/-O2). */
        bool self = air_move_kind((AirOpcode)inst.opcode) == AirMove_Copy && !inst.special &&
                    inst.nargs == 2 && inst.args[0].kind == AirArg_Tmp && inst.args[1].kind == AirArg_Tmp &&
                    inst.args[0].base == inst.args[1].base;
        if (!self)
            push_rev(f, inst);
        /* Its operands' topmost use is the inst, past its stores; for a
         * dropped self-copy, what follows it. */
        if (f->nstores || self)
            for (uint32_t k = 0; k < f->nops; k++) {
                AirTmp t = f->ops[k].orig;
                if (!air_tmp_is_reg(t) && f->top[t - AIR_FIRST_VTMP] == at)
                    f->top[t - AIR_FIRST_VTMP] = f->nrev - 1;
            }
    }
    /* What is still in a register at the top comes from its slot. */
    for (uint64_t m = f->busy & ~f->phys; m; m &= m - 1) {
        uint32_t r = (uint32_t)__builtin_ctzll(m);
        if (!f->global[f->occ[r] - AIR_FIRST_VTMP])
            b3_internal_error(PHASE, "tmp %u read before it is written in BB#%u", f->occ[r] - AIR_FIRST_VTMP,
                              b->index);
        release(f, f->occ[r], r);
    }
    uint32_t n = f->nrev + f->nloads;
    if (n > b->cap_insts) {
        air_holes_add(&f->holes, b->insts, (size_t)b->cap_insts * sizeof(AirInst));
        b->cap_insts = n;
        b->insts = air_holes_take(&f->holes, c, (size_t)n * sizeof(AirInst));
    }
    uint32_t out = 0;
    for (uint32_t p = f->nrev; p-- > 0;) {
        for (uint32_t l = f->load_at[p]; l != NONE; l = f->loads[l].next) {
            f->loads[l].inst.origin = f->rev[p].origin;
            b->insts[out++] = f->loads[l].inst;
        }
        b->insts[out++] = f->rev[p];
    }
    b->ninsts = out;
}

void air_allocate_registers_fast(AirCode *c) {
    Fast f;
    memset(&f, 0, sizeof f);
    f.c = c;
    for (int bank = 0; bank < 2; bank++) {
        AirRegFile rf;
        air_reg_file(c, (AirBank)bank, &rf);
        for (uint32_t i = 0; i < rf.k; i++) {
            f.alloc[bank] |= bit(rf.order[i]);
            if (!b3_target_is_callee_saved(c->target, rf.order[i]))
                f.caller[bank] |= bit(rf.order[i]);
        }
    }
    uint32_t n = c->ntmps;
    f.reg = b3_xmalloc(PHASE, 3 * (size_t)n + 1);
    f.global = f.reg + n;
    f.hint = f.global + n;
    memset(f.reg, NO_REG, n);
    memset(f.global, 0, n);
    memset(f.hint, NO_REG, n);
    f.top = b3_xmalloc(PHASE, 2 * (size_t)n * sizeof(uint32_t) + 1);
    f.def_at = f.top + n;
    memset(f.top, 0xff, (size_t)n * sizeof(uint32_t));
    f.slot = b3_xcalloc(PHASE, n + 1, sizeof(AirStackSlot *));
    f.stored = b3_xcalloc(PHASE, n + 1, sizeof(uint32_t));
    f.layout = !c->omit_frame_pointer;
    if (f.layout) {
        f.fp = c->desc->frame_pointer;
        f.sp = c->desc->stack_pointer;
        for (uint32_t i = 0; i < c->nslots; i++)
            place(&f, c->slots[i]);
    }
    prepass(&f);
    uint32_t nb = c->nblocks; /* not the edge blocks made on the way */
    for (uint32_t bi = 0; bi < nb; bi++) {
        uint32_t ninsts = c->blocks[bi]->ninsts;
        allocate_block(&f, c->blocks[bi]);
        f.gbase += ninsts;
    }
    if (f.split)
        air_compute_preds(c);
    B3RegSet saves = {{0, 0}};
    for (uint64_t m = f.used; m; m &= m - 1)
        air_note_callee_save(c, &saves, (B3Reg)__builtin_ctzll(m));
    c->used_callee_saves = saves;
    free(f.reg);
    free(f.top);
    free(f.slot);
    free(f.stored);
    free(f.live_out);
    free(f.ops);
    free(f.rev);
    free(f.stores);
    free(f.loads);
    free(f.load_at);
    free(f.pool);
    air_holes_free(&f.holes);
    if (!f.layout) {
        air_allocate_stack(c);
        return;
    }
    /* The saves go right below the frame pointer: the slots move down
     * past them (most procedures at -O0 save none). */
    uint64_t below =
        8 * (uint64_t)(__builtin_popcountll(saves.bits[0]) + __builtin_popcountll(saves.bits[1]));
    if (below) {
        for (uint32_t i = 0; i < f.nfix; i++)
            f.fix[i]->value -= (int64_t)below;
        for (uint32_t i = 0; i < c->nslots; i++) {
            c->slots[i]->offset -= (int64_t)below;
            if (c->slots[i]->b3)
                c->slots[i]->b3->offset = c->slots[i]->offset;
        }
        if (f.frame + below > (uint64_t)INT32_MAX)
            b3_internal_error(PHASE, "frame offset does not fit a 32-bit displacement");
    }
    free(f.fix);
    c->frame_size = b3_align_up(f.frame + below + c->call_arg_area, 16);
    if (c->frame_size > INT32_MAX)
        b3_internal_error(PHASE, "frame of %llu bytes is too large", (unsigned long long)c->frame_size);
}
