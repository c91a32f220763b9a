/* Air atomics -> AArch64 (docs/atomics.md, "arm64"): the rows of a64_ops
 * whose parameter is an A64AtomicKind.
 *
 *   LoadAcq{W}        addr, dst                  ldar{b,h} (misaligned: ldr; dmb ishld)
 *   StoreRel{W}       value, addr                stlr{b,h} (misaligned: dmb ish; str)
 *   AtomicLoop<op>{W} value, addr[, scratch], old
 *                     L: ldaxr x16, [addr]; <op> new, x16, value;
 *                        stlxr w17, new, [addr]; cbnz w17, L; mov old, x16
 *   AtomicLoopCAS{W}  [cond,] expected, new, addr[, old|dst]
 *                     L: ldaxr x16, [addr]; cmp x16, expected; b.ne D;
 *                        stlxr w17, new, [addr]; cbnz w17, L
 *                     D: mov old, x16 | cset dst, cond
 *   Atomic<ldop>al{W} value, addr[, old]         ldaddal/ldclral/ldsetal/ldeoral/swpal
 *   AtomicCasal{W}    old(=expected), new, addr  casal
 *                     cond, expected, new, addr, dst: mov x16, expected;
 *                     casal x16, new, [addr]; cmp x16, expected; cset dst, cond
 *   BranchAtomicLoopCAS{W}, BranchAtomicCasal{W}  cond, expected, new, addr:
 *                     the sequences above, then emit.c's b.cond on their flags
 *   Dmb               #option: dmb ishst (ish, ishld);   Depend32/64  eor dst, src, src
 *
 * x16 and x17 are never allocated (the emitter's scratch): x16 holds the old
 * value inside a sequence, x17 the exclusive store's status.  A failed CAS
 * leaves the exclusive monitor open rather than clearing it (no clrex): the
 * next exclusive load resets it and nothing stores conditionally before. */
#include "codegen/arm64/arm64.h"
#include "ir/diag.h"

#define X16 ((B3Reg)16)
#define X17 ((B3Reg)17)

_Noreturn static void bad(const AirInst *inst, const char *why) {
    b3_internal_error("arm64 emitter", "%s (%u args): %s",
                      inst->opcode < AIR_NUM_OPCODES ? air_opcode_names[inst->opcode] : "?", inst->nargs,
                      why);
}

static B3Reg reg(const AirInst *inst, unsigned i) {
    if (i >= inst->nargs)
        bad(inst, "missing argument");
    const AirArg *a = &inst->args[i];
    if (a->kind != AirArg_Tmp || a->base >= 32)
        bad(inst, "expected a general-purpose register");
    if (a->base == X16 || a->base == X17)
        bad(inst, "x16/x17 are the atomic sequences' scratch");
    return (B3Reg)a->base;
}

static Arm64Cond cond_of(const AirInst *inst, unsigned i) {
    const AirArg *a = &inst->args[i];
    if (a->kind != AirArg_ResCond || (a->cond != AirCond_Equal && a->cond != AirCond_NotEqual))
        bad(inst, "the condition of a CAS is Equal or NotEqual");
    return a->cond == AirCond_Equal ? Arm64Cond_EQ : Arm64Cond_NE;
}

/* cmp x16, expected at the access width: a narrow expected value counts by
 * its low bits only (x16 holds the zero-extended old value). */
static void cmp_old(Arm64Asm *a, unsigned size, B3Reg expected) {
    if (size == 1 || size == 2)
        arm64_cmp_ext(a, false, false, X16, expected, size == 1 ? Arm64Ext_UXTB : Arm64Ext_UXTH, 0);
    else
        arm64_cmp(a, false, size == 8, X16, expected, Arm64Shift_LSL, 0);
}

/* The old value (x16, zero-extended from the width) to its Tmp. */
static void move_old(Arm64Asm *a, unsigned size, B3Reg old) { arm64_mov(a, size == 8, old, X16); }

/* The exclusive read-modify-write loop. */
static void loop_rmw(Arm64Asm *a, const AirInst *inst, A64AtomicKind k, unsigned size) {
    bool is64 = size == 8;
    B3Reg value = reg(inst, 0), addr = reg(inst, 1);
    bool xchg = k == A64Atomic_LoopXchg;
    bool used = inst->nargs == (xchg ? 3u : 4u);
    if (inst->nargs != 2 && !used)
        bad(inst, "wrong number of arguments");
    /* The new value: in the scratch when the old one is kept, else over it in x16. */
    B3Reg nv = xchg ? value : used ? reg(inst, 2) : X16;
    uint32_t loop = arm64_label_new(a);
    arm64_bind(a, loop);
    arm64_excl(a, Arm64Excl_LDAXR, size, B3_NO_REG, X16, addr);
    switch (k) {
    case A64Atomic_LoopAdd:
        arm64_addsub_shifted(a, Arm64AddSub_ADD, is64, nv, X16, value, Arm64Shift_LSL, 0);
        break;
    case A64Atomic_LoopSub:
        arm64_addsub_shifted(a, Arm64AddSub_SUB, is64, nv, X16, value, Arm64Shift_LSL, 0);
        break;
    case A64Atomic_LoopAnd:
        arm64_logic_shifted(a, Arm64Logic_AND, is64, nv, X16, value, Arm64Shift_LSL, 0);
        break;
    case A64Atomic_LoopOr:
        arm64_logic_shifted(a, Arm64Logic_ORR, is64, nv, X16, value, Arm64Shift_LSL, 0);
        break;
    case A64Atomic_LoopXor:
        arm64_logic_shifted(a, Arm64Logic_EOR, is64, nv, X16, value, Arm64Shift_LSL, 0);
        break;
    default: /* Xchg: stores value itself */
        break;
    }
    arm64_excl(a, Arm64Excl_STLXR, size, X17, nv, addr);
    arm64_cbz(a, true, false, X17, loop);
    if (used)
        move_old(a, size, reg(inst, inst->nargs - 1));
}

/* Is arg 0 the condition (the 5-arg form, or a Branch form)? */
static bool has_cond(const AirInst *inst) { return inst->nargs && inst->args[0].kind == AirArg_ResCond; }

/* The strong CAS loop; the flags say Equal exactly when it exchanged.  A
 * failed compare branches to `fail` (ARM64_NO_LABEL: past the loop). */
static void loop_cas(Arm64Asm *a, const AirInst *inst, unsigned size, uint32_t fail) {
    unsigned first = has_cond(inst) ? 1 : 0;
    if (inst->nargs < 3 || inst->nargs > 5)
        bad(inst, "wrong number of arguments");
    B3Reg expected = reg(inst, first), nv = reg(inst, first + 1), addr = reg(inst, first + 2);
    uint32_t loop = arm64_label_new(a), done = arm64_label_new(a);
    arm64_bind(a, loop);
    arm64_excl(a, Arm64Excl_LDAXR, size, B3_NO_REG, X16, addr);
    cmp_old(a, size, expected);
    arm64_bcond(a, Arm64Cond_NE, fail != ARM64_NO_LABEL ? fail : done);
    arm64_excl(a, Arm64Excl_STLXR, size, X17, nv, addr);
    arm64_cbz(a, true, false, X17, loop);
    arm64_bind(a, done);
    if (inst->nargs == 5)
        arm64_cset(a, false, false, reg(inst, 4), cond_of(inst, 0));
    else if (inst->nargs == 4 && !first)
        move_old(a, size, reg(inst, 3));
    /* (a Branch form: its flags are the branch's, emit.c) */
}

static void lse_cas(Arm64Asm *a, const AirInst *inst, unsigned size) {
    if (!has_cond(inst)) {
        arm64_cas(a, size, true, true, reg(inst, 0), reg(inst, 1), reg(inst, 2));
        return;
    }
    if (inst->nargs != 5 && inst->nargs != 4)
        bad(inst, "wrong number of arguments");
    B3Reg expected = reg(inst, 1);
    arm64_mov(a, size == 8, X16, expected);
    arm64_cas(a, size, true, true, X16, reg(inst, 2), reg(inst, 3));
    cmp_old(a, size, expected);
    (void)cond_of(inst, 0); /* Equal or NotEqual */
    if (inst->nargs == 5)
        arm64_cset(a, false, false, reg(inst, 4), cond_of(inst, 0));
}

/* ldar/stlr rt, [addr].  They fault on a misaligned address, where B3's
 * loads and stores (and x86's) work: unless the access is a byte, a
 * misaligned address takes ldr + dmb ishld (acquire) or dmb ish + str
 * (release) instead. */
static void acquire_release(Arm64Asm *a, bool store, unsigned size, B3Reg rt, B3Reg addr) {
    Arm64ExclOp op = store ? Arm64Excl_STLR : Arm64Excl_LDAR;
    if (size == 1) {
        arm64_excl(a, op, size, B3_NO_REG, rt, addr);
        return;
    }
    static const Arm64LdStOp loads[] = {[2] = Arm64LdSt_LDRH, [4] = Arm64LdSt_LDRW, [8] = Arm64LdSt_LDRX};
    static const Arm64LdStOp stores[] = {[2] = Arm64LdSt_STRH, [4] = Arm64LdSt_STRW, [8] = Arm64LdSt_STRX};
    uint32_t misaligned = arm64_label_new(a), done = arm64_label_new(a);
    arm64_tst_imm(a, true, addr, size - 1);
    arm64_bcond(a, Arm64Cond_NE, misaligned);
    arm64_excl(a, op, size, B3_NO_REG, rt, addr);
    arm64_b(a, done);
    arm64_bind(a, misaligned);
    Arm64Mem m = arm64_mem(addr, 0);
    if (store) {
        arm64_dmb(a, Arm64Barrier_ISH);
        arm64_ldst(a, stores[size], rt, &m);
    } else {
        arm64_ldst(a, loads[size], rt, &m);
        arm64_dmb(a, Arm64Barrier_ISHLD);
    }
    arm64_bind(a, done);
}

void b3_arm64_emit_loop_cas_branch(Arm64Asm *a, const AirInst *inst, unsigned size, uint32_t fail) {
    loop_cas(a, inst, size, fail);
}

void b3_arm64_emit_atomic(Arm64Asm *a, const AirInst *inst, A64AtomicKind kind, unsigned size) {
    static const Arm64AtomicOp lse_ops[] = {
        [A64Atomic_Ldaddal] = Arm64AtomicOp_LDADD, [A64Atomic_Ldclral] = Arm64AtomicOp_LDCLR,
        [A64Atomic_Ldsetal] = Arm64AtomicOp_LDSET, [A64Atomic_Ldeoral] = Arm64AtomicOp_LDEOR,
        [A64Atomic_Swpal] = Arm64AtomicOp_SWP,
    };
    switch (kind) {
    case A64Atomic_LoadAcq:
        acquire_release(a, false, size, reg(inst, 1), reg(inst, 0));
        return;
    case A64Atomic_StoreRel:
        acquire_release(a, true, size, reg(inst, 0), reg(inst, 1));
        return;
    case A64Atomic_LoopAdd:
    case A64Atomic_LoopSub:
    case A64Atomic_LoopAnd:
    case A64Atomic_LoopOr:
    case A64Atomic_LoopXor:
    case A64Atomic_LoopXchg:
        loop_rmw(a, inst, kind, size);
        return;
    case A64Atomic_LoopCAS:
        loop_cas(a, inst, size, ARM64_NO_LABEL);
        return;
    case A64Atomic_Ldaddal:
    case A64Atomic_Ldclral:
    case A64Atomic_Ldsetal:
    case A64Atomic_Ldeoral:
    case A64Atomic_Swpal:
        /* Without a result the old value still goes to a register (x16):
         * with the zero register the load would lose its acquire. */
        arm64_atomic(a, lse_ops[kind], size, true, true, reg(inst, 0), inst->nargs == 3 ? reg(inst, 2) : X16,
                     reg(inst, 1));
        return;
    case A64Atomic_Casal:
        lse_cas(a, inst, size);
        return;
    case A64Atomic_Dmb: {
        const AirArg *o = inst->nargs == 1 ? &inst->args[0] : NULL;
        if (!o || o->kind != AirArg_Imm ||
            (o->value != Arm64Barrier_ISH && o->value != Arm64Barrier_ISHST &&
             o->value != Arm64Barrier_ISHLD))
            bad(inst, "expected a barrier option (ish, ishst, ishld)");
        arm64_dmb(a, (Arm64Barrier)o->value);
        return;
    }
    case A64Atomic_Depend:
        arm64_logic_shifted(a, Arm64Logic_EOR, size == 8, reg(inst, 1), reg(inst, 0), reg(inst, 0),
                            Arm64Shift_LSL, 0);
        return;
    }
    bad(inst, "not an atomic");
}
