/* The arm64 emitter: allocated Air to AArch64 machine code through the
 * assembler of codegen/arm64/asm.h.
 *
 * The encoder entry of each Air opcode is a row of the table a64_ops below
 * (handler, parameter, operation size), as x86_ops is for x86-64
 * (codegen/x86_64/emit.c); an opcode without a row stops with "not yet supported on
 * aarch64".  x16 and x17 (ip0/ip1, never allocated) are the emitter's
 * scratch registers: x16 for an immediate that does not fit its
 * instruction, x17 for an address that does not fit its load or store.
 *
 * Frame (docs/backend.md, "arm64"): the frame record at [x29] (caller's x29,
 * then x30), the callee-saves at [x29 - 8*(k+1)], the slots below them, the
 * outgoing stack arguments at [sp]; sp stays 16-byte aligned. */
#include <stdlib.h>
#include <string.h>

#include "codegen/arm64/arm64.h"
#include "codegen/arm64/asm.h"
#include "codegen/emit.h"
#include "ir/diag.h"
#include "objwriter/dwarf.h"
#include "objwriter/frame.h"
#include "objwriter/stackmaps.h"
#include "util/bits.h"

#define IP0 ((B3Reg)16)
#define IP1 ((B3Reg)17)

typedef struct {
    /* What every target's emitter holds (codegen/emit.h): the procedure,
     * block labels, jump tables (emit_jump_tables lays them out), stackmap
     * records and frame description. */
    union {
        struct {
            B3_EMITTER_MEMBERS
        };
        B3Emitter base;
    };
    Arm64Asm *a;
} A64Emitter;

_Noreturn static void bad(const AirInst *inst, const char *why) {
    b3_internal_error("arm64 emitter", "%s (%u args): %s",
                      inst->opcode < AIR_NUM_OPCODES ? air_opcode_names[inst->opcode] : "?", inst->nargs,
                      why);
}

static const AirArg *arg(const AirInst *inst, unsigned i) {
    if (i >= inst->nargs)
        bad(inst, "missing argument");
    return &inst->args[i];
}

static bool is_tmp(const AirInst *inst, unsigned i) { return arg(inst, i)->kind == AirArg_Tmp; }
static bool is_imm(const AirInst *inst, unsigned i) {
    return arg(inst, i)->kind == AirArg_Imm || arg(inst, i)->kind == AirArg_BigImm;
}

static B3Reg gpr(const AirInst *inst, unsigned i) {
    const AirArg *a = arg(inst, i);
    if (a->kind != AirArg_Tmp || a->base >= 32)
        bad(inst, "expected a general-purpose register");
    return (B3Reg)a->base;
}

static B3Reg fpr(const AirInst *inst, unsigned i) {
    const AirArg *a = arg(inst, i);
    if (a->kind != AirArg_Tmp || !b3_reg_is_fpr((B3Reg)a->base))
        bad(inst, "expected a floating-point register");
    return (B3Reg)a->base;
}

/* A GPR source: its register, or an immediate in x16 (zero: the zero register). */
static B3Reg src_gpr(A64Emitter *e, const AirInst *inst, unsigned i, bool is64) {
    if (is_tmp(inst, i))
        return gpr(inst, i);
    if (!is_imm(inst, i))
        bad(inst, "expected a register or an immediate");
    uint64_t v = (uint64_t)arg(inst, i)->value;
    if (!is64)
        v &= 0xffffffffu;
    if (!v)
        return ARM64_ZR;
    arm64_mov_imm(e->a, is64, IP0, v);
    return IP0;
}

static uint32_t succ_label(A64Emitter *e, const AirBlock *b, const AirInst *inst, unsigned i) {
    if (i >= b->nsuccs)
        bad(inst, "missing successor");
    return e->block_label[b->succs[i].block->index];
}

/* ---- memory operands ---- */

/* How an Index arg's index register widens (UXTX: a 64-bit index). */
static Arm64Extend index_ext(const AirArg *m) {
    return m->ext == AirExt_SXTW ? Arm64Ext_SXTW : m->ext == AirExt_UXTW ? Arm64Ext_UXTW : Arm64Ext_UXTX;
}

/* Is sym + off a multiple of size at link time? */
static bool sym_aligned(const B3Symbol *sym, int64_t off, unsigned size) {
    if (size <= 1)
        return true;
    if (!sym->defined || sym->kind != B3Sym_Data || sym->def.data->align < size)
        return false;
    return (off & (int64_t)(size - 1)) == 0;
}

/* Addr, Index or Sym arg i as an operand of op (x17 when it needs computing). */
static Arm64Mem mem_of(A64Emitter *e, const AirInst *inst, unsigned i, Arm64LdStOp op) {
    const AirArg *m = arg(inst, i);
    unsigned size = arm64_ldst_size(op);
    switch (m->kind) {
    case AirArg_Addr:
        if (m->base >= 32)
            bad(inst, "address base is not a general-purpose register");
        if (arm64_ldst_offset_ok(op, m->value))
            return arm64_mem((B3Reg)m->base, m->value);
        arm64_mov_imm(e->a, true, IP1, (uint64_t)m->value);
        return arm64_mem_reg((B3Reg)m->base, IP1, Arm64Ext_UXTX, false);
    case AirArg_Index: {
        if (m->base >= 32 || m->index >= 32)
            bad(inst, "address register is not a general-purpose register");
        Arm64Extend ext = index_ext(m);
        if (m->value == 0 && (m->scale == 1 || m->scale == size))
            return arm64_mem_reg((B3Reg)m->base, (B3Reg)m->index, ext, m->scale > 1);
        if (ext != Arm64Ext_UXTX) {
            /* x17 = base + extend(index) << s, and the offset (x17 only, as below). */
            if (arm64_ldst_offset_ok(op, m->value)) {
                arm64_addsub_ext(e->a, Arm64AddSub_ADD, true, IP1, (B3Reg)m->base, (B3Reg)m->index, ext,
                                 b3_log2_ceil(m->scale));
                return arm64_mem(IP1, m->value);
            }
            arm64_mov_imm(e->a, true, IP1, (uint64_t)m->value);
            arm64_addsub_ext(e->a, Arm64AddSub_ADD, true, IP1, (B3Reg)m->base, IP1, Arm64Ext_UXTX, 0);
            arm64_addsub_ext(e->a, Arm64AddSub_ADD, true, IP1, IP1, (B3Reg)m->index, ext,
                             b3_log2_ceil(m->scale));
            return arm64_mem(IP1, 0);
        }
        /* x17 = base + index << s (+ the offset when the access cannot
         * take it): memory operands use x17 only, so an immediate source
         * may sit in x16. */
        if (!arm64_ldst_offset_ok(op, m->value)) {
            arm64_mov_imm(e->a, true, IP1, (uint64_t)m->value);
            arm64_addsub_ext(e->a, Arm64AddSub_ADD, true, IP1, (B3Reg)m->base, IP1, Arm64Ext_UXTX, 0);
            arm64_addsub_shifted(e->a, Arm64AddSub_ADD, true, IP1, IP1, (B3Reg)m->index, Arm64Shift_LSL,
                                 b3_log2_ceil(m->scale));
            return arm64_mem(IP1, 0);
        }
        if (m->base == ARM64_SP)
            arm64_addsub_ext(e->a, Arm64AddSub_ADD, true, IP1, (B3Reg)m->base, (B3Reg)m->index, Arm64Ext_UXTX,
                             b3_log2_ceil(m->scale));
        else
            arm64_addsub_shifted(e->a, Arm64AddSub_ADD, true, IP1, (B3Reg)m->base, (B3Reg)m->index,
                                 Arm64Shift_LSL, b3_log2_ceil(m->scale));
        return arm64_mem(IP1, m->value);
    }
    case AirArg_Sym:
        if (m->got) {
            arm64_adrp_sym(e->a, IP1, m->u.sym, 0, true);
            return arm64_mem_lo12(IP1, m->u.sym, 0, true);
        }
        arm64_adrp_sym(e->a, IP1, m->u.sym, m->value, false);
        /* The LDST*_LO12 relocations scale the low 12 bits by the access
         * size, so the linker refuses an address that is not a multiple of
         * it: only data known to be aligned (its declared alignment and
         * the offset) takes the folded form; the rest is computed first. */
        if (sym_aligned(m->u.sym, m->value, size))
            return arm64_mem_lo12(IP1, m->u.sym, m->value, false);
        arm64_add_lo12_sym(e->a, IP1, IP1, m->u.sym, m->value);
        return arm64_mem(IP1, 0);
    default:
        bad(inst, "expected a memory operand");
    }
}

static void ldst(A64Emitter *e, const AirInst *inst, Arm64LdStOp op, B3Reg rt, unsigned memarg) {
    Arm64Mem m = mem_of(e, inst, memarg, op);
    if (m.mode == Arm64Mem_Lo12 && m.got && op != Arm64LdSt_LDRX)
        bad(inst, "a GOT entry is read as a 64-bit load");
    arm64_ldst(e->a, op, rt, &m);
}

/* rd = the address of arg i (Lea). */
static void lea(A64Emitter *e, const AirInst *inst, unsigned i, B3Reg rd) {
    const AirArg *m = arg(inst, i);
    Arm64Asm *a = e->a;
    switch (m->kind) {
    case AirArg_Addr:
    case AirArg_Index: {
        B3Reg base = (B3Reg)m->base;
        if (m->kind == AirArg_Index && m->ext) {
            arm64_addsub_ext(a, Arm64AddSub_ADD, true, rd, base, (B3Reg)m->index, index_ext(m),
                             b3_log2_ceil(m->scale));
            base = rd;
        } else if (m->kind == AirArg_Index) {
            if (base == ARM64_SP)
                arm64_addsub_ext(a, Arm64AddSub_ADD, true, rd, base, (B3Reg)m->index, Arm64Ext_UXTX,
                                 b3_log2_ceil(m->scale));
            else
                arm64_addsub_shifted(a, Arm64AddSub_ADD, true, rd, base, (B3Reg)m->index, Arm64Shift_LSL,
                                     b3_log2_ceil(m->scale));
            base = rd;
        }
        int64_t off = m->value;
        if (!off) {
            if (base != rd)
                arm64_mov_sp(a, true, rd, base);
        } else if (arm64_addsub_imm_ok(off < 0 ? -(uint64_t)off : (uint64_t)off)) {
            arm64_add_imm_any(a, true, rd, base, off);
        } else {
            arm64_mov_imm(a, true, IP0, (uint64_t)off);
            arm64_addsub_ext(a, Arm64AddSub_ADD, true, rd, base, IP0, Arm64Ext_UXTX, 0);
        }
        return;
    }
    case AirArg_Sym:
        if (m->got)
            bad(inst, "the address of a GOT operand");
        arm64_adrp_sym(a, rd, m->u.sym, m->value, false);
        arm64_add_lo12_sym(a, rd, rd, m->u.sym, m->value);
        return;
    default:
        bad(inst, "expected an address");
    }
}

/* ---- conditions ---- */

static Arm64Cond cond_code(const AirInst *inst, AirCond c) {
    static const Arm64Cond map[AirCond_NUM] = {
        [AirCond_Equal] = Arm64Cond_EQ,
        [AirCond_NotEqual] = Arm64Cond_NE,
        [AirCond_Above] = Arm64Cond_HI,
        [AirCond_BelowOrEqual] = Arm64Cond_LS,
        [AirCond_AboveOrEqual] = Arm64Cond_HS,
        [AirCond_Below] = Arm64Cond_LO,
        [AirCond_GreaterThan] = Arm64Cond_GT,
        [AirCond_LessThanOrEqual] = Arm64Cond_LE,
        [AirCond_GreaterThanOrEqual] = Arm64Cond_GE,
        [AirCond_LessThan] = Arm64Cond_LT,
        [AirCond_Overflow] = Arm64Cond_VS,
        [AirCond_NoOverflow] = Arm64Cond_VC,
        [AirCond_Signed] = Arm64Cond_MI,
        [AirCond_PositiveOrZero] = Arm64Cond_PL,
    };
    if (c >= AirCond_NUM)
        bad(inst, "bad condition");
    return map[c];
}

/* A float relation after fcmp: one condition code, or two that are or-ed
 * (the second AL when there is one).  Unordered sets C and V. */
typedef struct {
    Arm64Cond c1, c2;
} DCodes;

static DCodes dcodes(AirDoubleCond dc) {
    switch (dc) {
    case AirDCond_Equal:
        return (DCodes){Arm64Cond_EQ, Arm64Cond_AL};
    case AirDCond_NotEqual:
        return (DCodes){Arm64Cond_MI, Arm64Cond_GT};
    case AirDCond_GreaterThan:
        return (DCodes){Arm64Cond_GT, Arm64Cond_AL};
    case AirDCond_GreaterThanOrEqual:
        return (DCodes){Arm64Cond_GE, Arm64Cond_AL};
    case AirDCond_LessThan:
        return (DCodes){Arm64Cond_MI, Arm64Cond_AL};
    case AirDCond_LessThanOrEqual:
        return (DCodes){Arm64Cond_LS, Arm64Cond_AL};
    case AirDCond_EqualOrUnordered:
        return (DCodes){Arm64Cond_EQ, Arm64Cond_VS};
    case AirDCond_NotEqualOrUnordered:
        return (DCodes){Arm64Cond_NE, Arm64Cond_AL};
    case AirDCond_GreaterThanOrUnordered:
        return (DCodes){Arm64Cond_HI, Arm64Cond_AL};
    case AirDCond_GreaterThanOrEqualOrUnordered:
        return (DCodes){Arm64Cond_PL, Arm64Cond_AL};
    case AirDCond_LessThanOrUnordered:
        return (DCodes){Arm64Cond_LT, Arm64Cond_AL};
    default:
        return (DCodes){Arm64Cond_LE, Arm64Cond_AL}; /* LessThanOrEqualOrUnordered */
    }
}

/* cmp Rn, Rm|#imm at the size. */
static void cmp(A64Emitter *e, const AirInst *inst, bool is64, unsigned l, unsigned r) {
    B3Reg rn = gpr(inst, l);
    if (is_imm(inst, r)) {
        int64_t v = arg(inst, r)->value;
        if (!is64)
            v = (int32_t)v;
        if (v >= 0 && arm64_addsub_imm_ok((uint64_t)v)) {
            arm64_cmp_imm(e->a, false, is64, rn, (uint32_t)(v >= 4096 ? v >> 12 : v), v >= 4096);
            return;
        }
        if (v < 0 && v > INT64_MIN && arm64_addsub_imm_ok((uint64_t)-v)) {
            int64_t n = -v;
            arm64_cmp_imm(e->a, true, is64, rn, (uint32_t)(n >= 4096 ? n >> 12 : n), n >= 4096);
            return;
        }
    }
    arm64_cmp(e->a, false, is64, rn, src_gpr(e, inst, r, is64), Arm64Shift_LSL, 0);
}

static void tst(A64Emitter *e, const AirInst *inst, bool is64, unsigned l, unsigned r) {
    B3Reg rn = gpr(inst, l);
    uint32_t enc;
    if (is_imm(inst, r)) {
        uint64_t v = (uint64_t)arg(inst, r)->value;
        if (!is64)
            v &= 0xffffffffu;
        if (arm64_logical_imm_encode(v, is64, &enc)) {
            arm64_tst_imm(e->a, is64, rn, v);
            return;
        }
    }
    arm64_tst(e->a, is64, rn, src_gpr(e, inst, r, is64), Arm64Shift_LSL, 0);
}

/* Sets the flags for the condition arg 0 over args 1 and 2; returns its codes. */
static DCodes flags_of(A64Emitter *e, const AirInst *inst, unsigned size) {
    const AirArg *c = arg(inst, 0);
    switch (c->kind) {
    case AirArg_RelCond:
        cmp(e, inst, size == 8, 1, 2);
        return (DCodes){cond_code(inst, (AirCond)c->cond), Arm64Cond_AL};
    case AirArg_ResCond:
        tst(e, inst, size == 8, 1, 2);
        return (DCodes){cond_code(inst, (AirCond)c->cond), Arm64Cond_AL};
    case AirArg_DoubleCond:
        arm64_fcmp(e->a, false, size == 8, fpr(inst, 1), fpr(inst, 2));
        return dcodes((AirDoubleCond)c->cond);
    default:
        bad(inst, "expected a condition");
    }
}

static DCodes invert_codes(const AirInst *inst, DCodes d) {
    const AirArg *c = arg(inst, 0);
    if (c->kind == AirArg_DoubleCond)
        return dcodes(air_dcond_invert((AirDoubleCond)c->cond));
    return (DCodes){arm64_cond_invert(d.c1), Arm64Cond_AL};
}

/* Goes to succs[0] when the codes hold, else to succs[1]; falls through to next when it can. */
static void branch_on(A64Emitter *e, AirBlock *b, const AirInst *inst, AirBlock *next, DCodes d, DCodes inv) {
    uint32_t t = succ_label(e, b, inst, 0), f = succ_label(e, b, inst, 1);
    if (b->succs[0].block == next) {
        arm64_bcond(e->a, inv.c1, f);
        if (inv.c2 != Arm64Cond_AL)
            arm64_bcond(e->a, inv.c2, f);
        return;
    }
    arm64_bcond(e->a, d.c1, t);
    if (d.c2 != Arm64Cond_AL)
        arm64_bcond(e->a, d.c2, t);
    if (b->succs[1].block != next)
        arm64_b(e->a, f);
}

/* ---- frame ---- */

static unsigned callee_saves(const AirCode *c, B3Reg *regs) {
    unsigned n = 0;
    for (unsigned r = 0; r < 64; r++)
        if (b3_regset_has(&c->used_callee_saves, (B3Reg)r) && r != ARM64_FP && r != ARM64_SP)
            regs[n++] = (B3Reg)r;
    if (c->frame_size < 8ull * n)
        b3_internal_error("arm64 emitter", "frame size %llu has no room for %u callee-saves",
                          (unsigned long long)c->frame_size, n);
    return n;
}

/* A pinned register among the saves is the pair partner of a callee save
 * on Apple (regalloc.c): saved for the unwinder, never restored, since the
 * procedure may set it. */
static bool kept(const A64Emitter *e, B3Reg r, bool save) { return save || !b3_regset_has(&e->c->pinned, r); }

/* The epilogue's CFI (ELF's .eh_frame): r holds its entry value again. */
static void restored(A64Emitter *e, B3Reg r) {
    if (e->frame)
        b3_frame_epilogue_step(e->frame, (uint32_t)e->a->len, B3Cfi_Restore, r, 0);
}

static void save_restore(A64Emitter *e, bool save) {
    B3Reg regs[64];
    unsigned n = callee_saves(e->c, regs);
    for (unsigned k = 0; k < n; k++) {
        bool f = b3_reg_is_fpr(regs[k]);
        if (!kept(e, regs[k], save))
            continue;
        /* Two neighbours of one bank: one stp/ldp (regs[k + 1] is the lower slot). */
        if (k + 1 < n && b3_reg_is_fpr(regs[k + 1]) == f && kept(e, regs[k + 1], save)) {
            Arm64PairOp op =
                f ? (save ? Arm64Pair_STPD : Arm64Pair_LDPD) : (save ? Arm64Pair_STPX : Arm64Pair_LDPX);
            Arm64Mem m = arm64_mem(ARM64_FP, -8 * (int64_t)(k + 2));
            arm64_ldstp(e->a, op, regs[k + 1], regs[k], &m);
            if (!save) {
                restored(e, regs[k]);
                restored(e, regs[k + 1]);
            }
            k++;
            continue;
        }
        Arm64LdStOp op =
            f ? (save ? Arm64LdSt_STRFD : Arm64LdSt_LDRFD) : (save ? Arm64LdSt_STRX : Arm64LdSt_LDRX);
        Arm64Mem m = arm64_mem(ARM64_FP, -8 * (int64_t)(k + 1));
        arm64_ldst(e->a, op, regs[k], &m);
        if (!save)
            restored(e, regs[k]);
    }
}

static void emit_prologue(A64Emitter *e) {
    Arm64Asm *a = e->a;
    uint64_t fs = e->c->frame_size;
    if (fs % 16)
        b3_internal_error("arm64 emitter", "bad frame size %llu", (unsigned long long)fs);
    B3Frame *f = e->frame && !e->frame->nsteps ? e->frame : NULL;
    uint64_t base = a->len;
    Arm64Mem rec = arm64_mem_mode(Arm64Mem_PreIndex, ARM64_SP, -16);
    arm64_ldstp(a, Arm64Pair_STPX, ARM64_FP, ARM64_LR, &rec);
    /* Between the push of the frame record and fp's move (ELF only: Apple's
     * compact unwind, and llvm-mc's encoder of it, want the frame's steps alone). */
    if (f && e->c->target.os != B3OS_MacOS)
        b3_frame_step(f, (uint32_t)(a->len - base), B3Cfi_DefCfaOffset, B3_NO_REG, 16);
    arm64_mov_sp(a, true, ARM64_FP, ARM64_SP);
    if (f) {
        /* The frame record: CFA = fp + 16, lr and fp saved in it. */
        uint32_t at = (uint32_t)(a->len - base);
        b3_frame_step(f, at, B3Cfi_DefCfa, ARM64_FP, 16);
        b3_frame_step(f, at, B3Cfi_Offset, ARM64_LR, -8);
        b3_frame_step(f, at, B3Cfi_Offset, ARM64_FP, -16);
    }
    if (fs) {
        if (arm64_addsub_imm_ok(fs)) {
            arm64_add_imm_any(a, true, ARM64_SP, ARM64_SP, -(int64_t)fs);
        } else {
            arm64_mov_imm(a, true, IP0, fs);
            arm64_addsub_ext(a, Arm64AddSub_SUB, true, ARM64_SP, ARM64_SP, IP0, Arm64Ext_UXTX, 0);
        }
    }
    save_restore(e, true);
    if (f) {
        /* regs[k] at fp - 8(k + 1), from the highest address down: the
         * order of compact unwind's pairs. */
        B3Reg regs[64];
        unsigned n = callee_saves(e->c, regs);
        for (unsigned k = 0; k < n; k++)
            b3_frame_step(f, (uint32_t)(a->len - base), B3Cfi_Offset, regs[k], -16 - 8 * (int32_t)(k + 1));
    }
}

static void emit_epilogue(A64Emitter *e) {
    save_restore(e, false);
    Arm64Asm *a = e->a;
    if (e->c->frame_size || e->c->dynamic_stack)
        arm64_mov_sp(a, true, ARM64_SP, ARM64_FP);
    Arm64Mem rec = arm64_mem_mode(Arm64Mem_PostIndex, ARM64_SP, 16);
    arm64_ldstp(a, Arm64Pair_LDPX, ARM64_FP, ARM64_LR, &rec);
    if (e->frame) {
        b3_frame_epilogue_step(e->frame, (uint32_t)a->len, B3Cfi_DefCfa, ARM64_SP, 0);
        restored(e, ARM64_LR);
        restored(e, ARM64_FP);
    }
    arm64_ret(a, ARM64_LR);
    if (e->frame)
        b3_frame_epilogue_end(e->frame, (uint32_t)a->len);
}

/* ---- the encoder entries (table a64_ops) ----
 * Each is op_<name>(e, b, inst, next, p, size): p the table's parameter,
 * size the operation's bytes. */

#define A64_OP(name)                                                                             \
    static void op_##name(A64Emitter *e, AirBlock *b, AirInst *inst, AirBlock *next, unsigned p, \
                          unsigned size)
#define UNUSED_OPERANDS (void)e, (void)b, (void)inst, (void)next, (void)p, (void)size
typedef void A64OpFn(A64Emitter *e, AirBlock *b, AirInst *inst, AirBlock *next, unsigned p, unsigned size);

A64_OP(nop) { UNUSED_OPERANDS; }

/* add/sub (p: Arm64AddSubOp): two-operand src, dst or three-operand a, b, dst. */
static void addsub(A64Emitter *e, const AirInst *inst, Arm64AddSubOp op, bool is64, B3Reg rd, B3Reg rn,
                   unsigned src) {
    if (is_imm(inst, src)) {
        int64_t v = arg(inst, src)->value;
        if (!is64)
            v = (int32_t)v;
        if (op == Arm64AddSub_SUB || op == Arm64AddSub_SUBS)
            v = -v;
        uint64_t mag = v < 0 ? -(uint64_t)v : (uint64_t)v;
        if ((op == Arm64AddSub_ADD || op == Arm64AddSub_SUB) && arm64_addsub_imm_ok(mag)) {
            arm64_add_imm_any(e->a, is64, rd, rn, v);
            return;
        }
    }
    arm64_addsub_shifted(e->a, op, is64, rd, rn, src_gpr(e, inst, src, is64), Arm64Shift_LSL, 0);
}

A64_OP(addsub) {
    UNUSED_OPERANDS;
    bool is64 = size == 8;
    if (inst->nargs == 2) {
        B3Reg d = gpr(inst, 1);
        addsub(e, inst, (Arm64AddSubOp)p, is64, d, d, 0);
    } else if (is_imm(inst, 0)) { /* Add Imm, Tmp, Tmp */
        addsub(e, inst, (Arm64AddSubOp)p, is64, gpr(inst, 2), gpr(inst, 1), 0);
    } else {
        addsub(e, inst, (Arm64AddSubOp)p, is64, gpr(inst, 2), gpr(inst, 0), 1);
    }
}

A64_OP(neg) {
    UNUSED_OPERANDS;
    B3Reg d = gpr(inst, 0);
    if (p)
        arm64_mvn(e->a, size == 8, d, d, Arm64Shift_LSL, 0);
    else
        arm64_neg(e->a, false, size == 8, d, d, Arm64Shift_LSL, 0);
}

static void logic(A64Emitter *e, const AirInst *inst, Arm64LogicOp op, bool is64, B3Reg rd, B3Reg rn,
                  unsigned src) {
    uint32_t enc;
    if (is_imm(inst, src)) {
        uint64_t v = (uint64_t)arg(inst, src)->value;
        if (!is64)
            v &= 0xffffffffu;
        if (arm64_logical_imm_encode(v, is64, &enc)) {
            arm64_logic_imm(e->a, op, is64, rd, rn, v);
            return;
        }
    }
    arm64_logic_shifted(e->a, op, is64, rd, rn, src_gpr(e, inst, src, is64), Arm64Shift_LSL, 0);
}

A64_OP(logic) {
    UNUSED_OPERANDS;
    bool is64 = size == 8;
    if (inst->nargs == 2) {
        B3Reg d = gpr(inst, 1);
        logic(e, inst, (Arm64LogicOp)p, is64, d, d, 0);
    } else {
        logic(e, inst, (Arm64LogicOp)p, is64, gpr(inst, 2), gpr(inst, 0), 1);
    }
}

A64_OP(mul) {
    UNUSED_OPERANDS;
    bool is64 = size == 8;
    if (inst->nargs == 2) {
        B3Reg d = gpr(inst, 1);
        arm64_mul(e->a, Arm64Mul_MADD, is64, d, d, gpr(inst, 0));
    } else {
        arm64_mul(e->a, Arm64Mul_MADD, is64, gpr(inst, 2), gpr(inst, 0), gpr(inst, 1));
    }
}

/* madd/msub (p: Arm64MulOp): a, b, c, dst. */
A64_OP(mul3) {
    UNUSED_OPERANDS;
    arm64_mul3(e->a, (Arm64MulOp)p, size == 8, gpr(inst, 3), gpr(inst, 0), gpr(inst, 1), gpr(inst, 2));
}

/* mneg, smull, umull (p: Arm64MulOp): a, b, dst. */
A64_OP(mul2) {
    UNUSED_OPERANDS;
    arm64_mul(e->a, (Arm64MulOp)p, size == 8, gpr(inst, 2), gpr(inst, 0), gpr(inst, 1));
}

A64_OP(mulh) {
    UNUSED_OPERANDS;
    arm64_mulh(e->a, p != 0, gpr(inst, 2), gpr(inst, 0), gpr(inst, 1));
}

/* sdiv, udiv (p: Arm64DP2Op): a, b, dst. */
A64_OP(dp2) {
    UNUSED_OPERANDS;
    arm64_dp2(e->a, (Arm64DP2Op)p, size == 8, gpr(inst, 2), gpr(inst, 0), gpr(inst, 1));
}

/* Shifts and rotates (p: Arm64DP2Op of the variable form): amount, dst or src, amount, dst. */
A64_OP(shift) {
    UNUSED_OPERANDS;
    bool is64 = size == 8;
    B3Reg rd, rn;
    unsigned amt;
    if (inst->nargs == 2)
        rd = rn = gpr(inst, 1), amt = 0;
    else
        rd = gpr(inst, 2), rn = gpr(inst, 0), amt = 1;
    if (is_tmp(inst, amt)) {
        arm64_dp2(e->a, (Arm64DP2Op)p, is64, rd, rn, gpr(inst, amt));
        return;
    }
    unsigned n = (unsigned)arg(inst, amt)->value & (is64 ? 63 : 31);
    if (!n) {
        if (rd != rn || !is64)
            arm64_mov(e->a, is64, rd, rn);
        return;
    }
    switch (p) {
    case Arm64DP2_LSLV:
        arm64_lsl_imm(e->a, is64, rd, rn, n);
        break;
    case Arm64DP2_LSRV:
        arm64_lsr_imm(e->a, is64, rd, rn, n);
        break;
    case Arm64DP2_ASRV:
        arm64_asr_imm(e->a, is64, rd, rn, n);
        break;
    default:
        arm64_ror_imm(e->a, is64, rd, rn, n);
        break;
    }
}

A64_OP(clz) {
    UNUSED_OPERANDS;
    if (inst->nargs != 2)
        bad(inst, "the x86 form");
    arm64_dp1(e->a, Arm64DP1_CLZ, size == 8, gpr(inst, 1), gpr(inst, 0));
}

/* Lea32 of base + index * scale + off in 32-bit adds, which zero-extend as
 * Lea32 must (a widened index's sxtw/uxtw changes no bit of the low word):
 * `add wd, wn, wm, lsl #s; add wd, wd, #off` where the 64-bit sum and a mov
 * would take one more.  Returns false where it does not apply (an sp base,
 * an offset that is no add immediate). */
static bool lea32(A64Emitter *e, const AirInst *inst, B3Reg rd) {
    const AirArg *m = arg(inst, 0);
    if ((m->kind != AirArg_Addr && m->kind != AirArg_Index) || m->base == ARM64_SP)
        return false;
    int64_t off = (int32_t)(uint32_t)m->value;
    if (off && !arm64_addsub_imm_ok(off < 0 ? -(uint64_t)off : (uint64_t)off))
        return false;
    B3Reg base = (B3Reg)m->base;
    if (m->kind == AirArg_Index) {
        arm64_addsub_shifted(e->a, Arm64AddSub_ADD, false, rd, base, (B3Reg)m->index, Arm64Shift_LSL,
                             b3_log2_ceil(m->scale));
        base = rd;
    }
    if (off)
        arm64_add_imm_any(e->a, false, rd, base, off);
    else if (m->kind == AirArg_Addr)
        arm64_mov(e->a, false, rd, base);
    return true;
}

A64_OP(lea) {
    UNUSED_OPERANDS;
    B3Reg rd = gpr(inst, 1);
    if (size == 4 && lea32(e, inst, rd))
        return;
    lea(e, inst, 0, rd);
    if (size == 4)
        arm64_mov(e->a, false, rd, rd); /* Lea32 zero-extends */
}

/* Move, Move32 (size 8, 4). */
A64_OP(move) {
    UNUSED_OPERANDS;
    bool is64 = size == 8;
    Arm64LdStOp ld = is64 ? Arm64LdSt_LDRX : Arm64LdSt_LDRW, st = is64 ? Arm64LdSt_STRX : Arm64LdSt_STRW;
    if (air_arg_is_memory(arg(inst, 1))) {
        ldst(e, inst, st, src_gpr(e, inst, 0, is64), 1);
        return;
    }
    B3Reg rd = gpr(inst, 1);
    if (air_arg_is_memory(arg(inst, 0)))
        ldst(e, inst, ld, rd, 0);
    else if (is_imm(inst, 0))
        arm64_mov_imm(e->a, is64, rd, (uint64_t)arg(inst, 0)->value);
    else if (gpr(inst, 0) != rd || !is64)
        arm64_mov(e->a, is64, rd, gpr(inst, 0));
}

/* Loads and narrow stores with the op in p (Arm64LdStOp). */
A64_OP(load) {
    UNUSED_OPERANDS;
    ldst(e, inst, (Arm64LdStOp)p, gpr(inst, 1), 0);
}

A64_OP(store) {
    UNUSED_OPERANDS;
    ldst(e, inst, (Arm64LdStOp)p, src_gpr(e, inst, 0, false), 1);
}

/* Extensions: p bytes, size 4 (to W) or 8 (to X); signed unless size has bit 4 (16: zero). */
A64_OP(sxt) {
    UNUSED_OPERANDS;
    arm64_sxt(e->a, size == 8, gpr(inst, 1), gpr(inst, 0), p);
}

A64_OP(uxt) {
    UNUSED_OPERANDS;
    arm64_uxt(e->a, gpr(inst, 1), gpr(inst, 0), p);
}

/* MoveFloat, MoveDouble. */
A64_OP(fmove) {
    UNUSED_OPERANDS;
    bool dbl = size == 8;
    if (air_arg_is_memory(arg(inst, 1)))
        ldst(e, inst, dbl ? Arm64LdSt_STRFD : Arm64LdSt_STRFS, fpr(inst, 0), 1);
    else if (air_arg_is_memory(arg(inst, 0)))
        ldst(e, inst, dbl ? Arm64LdSt_LDRFD : Arm64LdSt_LDRFS, fpr(inst, 1), 0);
    else if (fpr(inst, 0) != fpr(inst, 1))
        arm64_fp1(e->a, Arm64FP1_FMOV, dbl, fpr(inst, 1), fpr(inst, 0));
}

A64_OP(fzero) {
    UNUSED_OPERANDS;
    arm64_fmov_to_fpr(e->a, true, fpr(inst, 0), ARM64_ZR);
}

A64_OP(to_fpr) {
    UNUSED_OPERANDS;
    arm64_fmov_to_fpr(e->a, size == 8, fpr(inst, 1), gpr(inst, 0));
}

A64_OP(to_gpr) {
    UNUSED_OPERANDS;
    arm64_fmov_to_gpr(e->a, size == 8, gpr(inst, 1), fpr(inst, 0));
}

A64_OP(to_high_lane) {
    UNUSED_OPERANDS;
    arm64_mov_to_high_lane(e->a, fpr(inst, 1), gpr(inst, 0));
}

A64_OP(from_high_lane) {
    UNUSED_OPERANDS;
    arm64_mov_from_high_lane(e->a, gpr(inst, 1), fpr(inst, 0));
}

/* fadd, fsub, fmul, fdiv, fmin, fmax (p: Arm64FP2Op): src, dst (dst op= src) or a, b, dst. */
A64_OP(fp2) {
    UNUSED_OPERANDS;
    if (inst->nargs == 2)
        arm64_fp2(e->a, (Arm64FP2Op)p, size == 8, fpr(inst, 1), fpr(inst, 1), fpr(inst, 0));
    else
        arm64_fp2(e->a, (Arm64FP2Op)p, size == 8, fpr(inst, 2), fpr(inst, 0), fpr(inst, 1));
}

/* fsqrt, frintp, frintm, fneg, fabs (p: Arm64FP1Op): src, dst. */
A64_OP(fp1) {
    UNUSED_OPERANDS;
    arm64_fp1(e->a, (Arm64FP1Op)p, size == 8, fpr(inst, 1), fpr(inst, 0));
}

/* And/Or/Xor of float registers through x16/x17 (no vector bit ops here). */
A64_OP(fp_logic) {
    UNUSED_OPERANDS;
    bool dbl = size == 8;
    B3Reg d = fpr(inst, 1);
    arm64_fmov_to_gpr(e->a, dbl, IP0, d);
    arm64_fmov_to_gpr(e->a, dbl, IP1, fpr(inst, 0));
    arm64_logic_shifted(e->a, (Arm64LogicOp)p, dbl, IP0, IP0, IP1, Arm64Shift_LSL, 0);
    arm64_fmov_to_fpr(e->a, dbl, d, IP0);
}

/* scvtf/ucvtf: p bit 0 signed, bit 1 from 64 bits; size: the result's. */
A64_OP(cvtf) {
    UNUSED_OPERANDS;
    arm64_cvtf(e->a, p & 1, size == 8, (p & 2) != 0, fpr(inst, 1), gpr(inst, 0));
}

/* fcvtzs/fcvtzu: p bit 0 signed, bit 1 from a double; size: the result's. */
A64_OP(fcvtz) {
    UNUSED_OPERANDS;
    arm64_fcvtz(e->a, p & 1, (p & 2) != 0, size == 8, gpr(inst, 1), fpr(inst, 0));
}

A64_OP(fcvt) {
    UNUSED_OPERANDS;
    arm64_fcvt(e->a, p != 0, fpr(inst, 1), fpr(inst, 0));
}

/* Compare*, Test*, CompareDouble/Float: flags, then cset (two codes: or-ed by csinc). */
A64_OP(compare) {
    UNUSED_OPERANDS;
    DCodes d = flags_of(e, inst, size);
    B3Reg rd = gpr(inst, 3);
    arm64_cset(e->a, false, false, rd, d.c1);
    if (d.c2 != Arm64Cond_AL) /* rd = c2 ? 1 : rd */
        arm64_csel(e->a, Arm64CSel_CSINC, false, rd, rd, ARM64_ZR, arm64_cond_invert(d.c2));
}

/* MoveConditionally*: (cond, l, r, src, dst) dst = cond ? src : dst, or
 * (cond, l, r, then, else, dst). */
A64_OP(cmov) {
    UNUSED_OPERANDS;
    unsigned csize = arg(inst, 0)->kind == AirArg_DoubleCond || p == 0 ? size : p;
    DCodes d = flags_of(e, inst, csize);
    B3Reg dst = gpr(inst, inst->nargs - 1), then = gpr(inst, 3);
    B3Reg els = inst->nargs == 6 ? gpr(inst, 4) : dst;
    if (d.c2 == Arm64Cond_AL) {
        arm64_csel(e->a, Arm64CSel_CSEL, true, dst, then, els, d.c1);
        return;
    }
    arm64_csel(e->a, Arm64CSel_CSEL, true, IP0, then, els, d.c1);
    arm64_csel(e->a, Arm64CSel_CSEL, true, dst, then, IP0, d.c2);
}

A64_OP(fcmov) {
    UNUSED_OPERANDS;
    unsigned csize = arg(inst, 0)->kind == AirArg_DoubleCond || p == 0 ? size : p;
    DCodes d = flags_of(e, inst, csize);
    B3Reg dst = fpr(inst, inst->nargs - 1), then = fpr(inst, 3);
    B3Reg els = inst->nargs == 6 ? fpr(inst, 4) : dst;
    if (d.c2 == Arm64Cond_AL) {
        arm64_fcsel(e->a, true, dst, then, els, d.c1);
        return;
    }
    /* Two codes: branch (no FP scratch register to build it in). */
    uint32_t yes = arm64_label_new(e->a), done = arm64_label_new(e->a);
    arm64_bcond(e->a, d.c1, yes);
    arm64_bcond(e->a, d.c2, yes);
    if (els != dst)
        arm64_fp1(e->a, Arm64FP1_FMOV, true, dst, els);
    arm64_b(e->a, done);
    arm64_bind(e->a, yes);
    if (then != dst)
        arm64_fp1(e->a, Arm64FP1_FMOV, true, dst, then);
    arm64_bind(e->a, done);
}

A64_OP(jump) {
    UNUSED_OPERANDS;
    if (b->nsuccs < 1)
        bad(inst, "missing successor");
    if (b->succs[0].block != next)
        arm64_b(e->a, succ_label(e, b, inst, 0));
}

A64_OP(branch) {
    UNUSED_OPERANDS;
    const AirArg *c = arg(inst, 0);
    bool is64 = size == 8;
    /* Against zero: cbz/cbnz; a test of one bit: tbz/tbnz. */
    if (c->kind == AirArg_RelCond && (c->cond == AirCond_Equal || c->cond == AirCond_NotEqual) &&
        is_imm(inst, 2) && arg(inst, 2)->value == 0) {
        bool nz = c->cond == AirCond_NotEqual;
        uint32_t t = succ_label(e, b, inst, 0), f = succ_label(e, b, inst, 1);
        if (b->succs[0].block == next) {
            arm64_cbz(e->a, !nz, is64, gpr(inst, 1), f);
        } else {
            arm64_cbz(e->a, nz, is64, gpr(inst, 1), t);
            if (b->succs[1].block != next)
                arm64_b(e->a, f);
        }
        return;
    }
    /* The sign (x < 0, x >= 0, or a test of x with itself for Signed or
     * PositiveOrZero): tbnz/tbz on the top bit. */
    bool sign_rel = c->kind == AirArg_RelCond &&
                    (c->cond == AirCond_LessThan || c->cond == AirCond_GreaterThanOrEqual) &&
                    is_imm(inst, 2) && arg(inst, 2)->value == 0;
    bool sign_test = c->kind == AirArg_ResCond &&
                     (c->cond == AirCond_Signed || c->cond == AirCond_PositiveOrZero) && is_tmp(inst, 2) &&
                     gpr(inst, 2) == gpr(inst, 1);
    if (sign_rel || sign_test) {
        bool neg = c->cond == AirCond_LessThan || c->cond == AirCond_Signed;
        uint32_t t = succ_label(e, b, inst, 0), f = succ_label(e, b, inst, 1);
        bool to_f = b->succs[0].block == next;
        arm64_tbz(e->a, to_f ? !neg : neg, gpr(inst, 1), is64 ? 63 : 31, to_f ? f : t);
        if (!to_f && b->succs[1].block != next)
            arm64_b(e->a, f);
        return;
    }
    if (c->kind == AirArg_ResCond && (c->cond == AirCond_Zero || c->cond == AirCond_NonZero)) {
        bool nz = c->cond == AirCond_NonZero;
        uint64_t v = is_imm(inst, 2) ? (uint64_t)arg(inst, 2)->value & (is64 ? UINT64_MAX : 0xffffffffu) : 0;
        bool self = is_tmp(inst, 2) && gpr(inst, 2) == gpr(inst, 1);
        bool bit = v && !(v & (v - 1));
        if (self || bit) {
            uint32_t t = succ_label(e, b, inst, 0), f = succ_label(e, b, inst, 1);
            B3Reg r = gpr(inst, 1);
            bool to_f = b->succs[0].block == next;
            bool k = to_f ? !nz : nz;
            uint32_t l = to_f ? f : t;
            if (self)
                arm64_cbz(e->a, k, is64, r, l);
            else
                arm64_tbz(e->a, k, r, (unsigned)__builtin_ctzll(v), l);
            if (!to_f && b->succs[1].block != next)
                arm64_b(e->a, f);
            return;
        }
    }
    DCodes d = flags_of(e, inst, size);
    branch_on(e, b, inst, next, d, invert_codes(inst, d));
}

/* BranchAdd/BranchSub (p: the flag-setting Arm64AddSubOp): (cond, src, dst)
 * or (cond, a, b, dst).  An immediate that fits is encoded, negated with the
 * opposite operation if need be: the V flag is the same for x - k and
 * x + (-k) when k is at most 12 bits (shifted). */
A64_OP(branch_alu) {
    UNUSED_OPERANDS;
    bool is64 = size == 8;
    unsigned src = inst->nargs - 2;
    B3Reg d = gpr(inst, inst->nargs - 1), n = inst->nargs == 4 ? gpr(inst, 1) : d;
    Arm64AddSubOp op = (Arm64AddSubOp)p;
    int64_t v = is_imm(inst, src) ? arg(inst, src)->value : 0;
    if (!is64)
        v = (int32_t)v;
    uint64_t mag = v < 0 ? -(uint64_t)v : (uint64_t)v;
    if (is_imm(inst, src) && v && arm64_addsub_imm_ok(mag)) {
        if (v < 0)
            op = op == Arm64AddSub_ADDS ? Arm64AddSub_SUBS : Arm64AddSub_ADDS;
        bool hi = mag >= 4096;
        arm64_addsub_imm(e->a, op, is64, d, n, (uint32_t)(hi ? mag >> 12 : mag), hi);
    } else {
        arm64_addsub_shifted(e->a, op, is64, d, n, src_gpr(e, inst, src, is64), Arm64Shift_LSL, 0);
    }
    DCodes c = {cond_code(inst, (AirCond)arg(inst, 0)->cond), Arm64Cond_AL};
    branch_on(e, b, inst, next, c, (DCodes){arm64_cond_invert(c.c1), Arm64Cond_AL});
}

/* BranchNeg (cond, dst) or (cond, src, dst): negs. */
A64_OP(branch_neg) {
    UNUSED_OPERANDS;
    B3Reg d = gpr(inst, inst->nargs - 1);
    arm64_neg(e->a, true, size == 8, d, gpr(inst, 1), Arm64Shift_LSL, 0);
    DCodes c = {cond_code(inst, (AirCond)arg(inst, 0)->cond), Arm64Cond_AL};
    branch_on(e, b, inst, next, c, (DCodes){arm64_cond_invert(c.c1), Arm64Cond_AL});
}

/* BranchMul (cond, src, dst) or (cond, a, b, dst): dst = a * b, branching on whether the signed
 * product overflowed (codegen/arm64/emit_stackmaps.c sets NE for it). */
A64_OP(branch_mul) {
    UNUSED_OPERANDS;
    AirCond cond = (AirCond)arg(inst, 0)->cond;
    if (cond != AirCond_Overflow && cond != AirCond_NoOverflow)
        bad(inst, "a multiply branches on Overflow or NoOverflow only");
    B3Reg d = gpr(inst, inst->nargs - 1);
    arm64_emit_mul_overflow(e->a, size == 8, d, inst->nargs == 4 ? gpr(inst, 1) : d,
                            gpr(inst, inst->nargs - 2));
    DCodes c = {cond == AirCond_Overflow ? Arm64Cond_NE : Arm64Cond_EQ, Arm64Cond_AL};
    branch_on(e, b, inst, next, c, (DCodes){arm64_cond_invert(c.c1), Arm64Cond_AL});
}

A64_OP(patchpoint) {
    UNUSED_OPERANDS;
    arm64_emit_patchpoint(e->a, e->c, inst, &e->stackmaps);
}

A64_OP(ret) {
    UNUSED_OPERANDS;
    emit_epilogue(e);
}

A64_OP(oops) {
    UNUSED_OPERANDS;
    arm64_brk(e->a, 0); /* the spec's trap instruction (SIGTRAP), as for Check exits */
}

/* sp down by arg 0 and to a multiple of arg 1 (through IP0: sp is no
 * operand of and); the memory's address to arg 2; the outgoing argument
 * area below it. */
A64_OP(alloca_dynamic) {
    UNUSED_OPERANDS;
    Arm64Asm *a = e->a;
    arm64_addsub_ext(a, Arm64AddSub_SUB, true, IP0, ARM64_SP, gpr(inst, 0), Arm64Ext_UXTX, 0);
    int64_t align = arg(inst, 1)->value;
    if (align > 16)
        arm64_logic_imm(a, Arm64Logic_AND, true, IP0, IP0, (uint64_t)-align);
    arm64_mov(a, true, gpr(inst, 2), IP0);
    uint64_t area = b3_align_up(e->c->call_arg_area, 16);
    if (!area) {
        arm64_mov_sp(a, true, ARM64_SP, IP0);
    } else if (arm64_addsub_imm_ok(area)) {
        arm64_add_imm_any(a, true, ARM64_SP, IP0, -(int64_t)area);
    } else {
        arm64_mov_imm(a, true, IP1, area);
        arm64_addsub_ext(a, Arm64AddSub_SUB, true, ARM64_SP, IP0, IP1, Arm64Ext_UXTX, 0);
    }
}

A64_OP(stack_save) {
    UNUSED_OPERANDS;
    arm64_mov_sp(e->a, true, gpr(inst, 0), ARM64_SP);
}

A64_OP(stack_restore) {
    UNUSED_OPERANDS;
    arm64_mov_sp(e->a, true, ARM64_SP, gpr(inst, 0));
}

A64_OP(fence) {
    UNUSED_OPERANDS;
    arm64_dmb(e->a, Arm64Barrier_ISH);
}

/* The arm64 atomics, fences and Depend (p: A64AtomicKind; emit_atomics.c). */
A64_OP(atomic) {
    UNUSED_OPERANDS;
    b3_arm64_emit_atomic(e->a, inst, (A64AtomicKind)p, size);
}

/* A CAS and a branch on its flags (p: A64Atomic_LoopCAS or _Casal).  The
 * loop's failed compare goes straight to its successor; success falls
 * out of the loop to the other. */
A64_OP(atomic_branch) {
    UNUSED_OPERANDS;
    DCodes c = {cond_code(inst, (AirCond)arg(inst, 0)->cond), Arm64Cond_AL};
    if (p == A64Atomic_LoopCAS && (c.c1 == Arm64Cond_EQ || c.c1 == Arm64Cond_NE)) {
        unsigned on_success = c.c1 == Arm64Cond_EQ ? 0 : 1;
        b3_arm64_emit_loop_cas_branch(e->a, inst, size, succ_label(e, b, inst, 1 - on_success));
        if (b->succs[on_success].block != next)
            arm64_b(e->a, succ_label(e, b, inst, on_success));
        return;
    }
    b3_arm64_emit_atomic(e->a, inst, (A64AtomicKind)p, size);
    branch_on(e, b, inst, next, c, (DCodes){arm64_cond_invert(c.c1), Arm64Cond_AL});
}

A64_OP(call) {
    UNUSED_OPERANDS;
    const AirArg *callee = arg(inst, 0);
    if (callee->kind == AirArg_Sym && callee->u.sym->tls) {
        /* This thread's address of the variable, in x0 (lower/lower_tls.c). */
        if (b3_target_obj_format(e->c->target) == B3ObjFormat_MachO)
            arm64_tls_tlv(e->a, callee->u.sym);
        else
            arm64_tls_descriptor(e->a, callee->u.sym);
        return;
    }
    if (callee->kind == AirArg_Sym) {
        if (callee->got)
            bad(inst, "call through a GOT symbol operand");
        arm64_bl_sym(e->a, callee->u.sym, callee->value);
    } else {
        arm64_blr(e->a, gpr(inst, 0));
    }
}

/* Local- and initial-exec thread-local addresses (lower/lower_tls.c). */
A64_OP(thread_local_address) {
    UNUSED_OPERANDS;
    B3Symbol *sym = arg(inst, 0)->u.sym;
    if (arg(inst, 0)->kind != AirArg_Sym || (sym->tls != B3Tls_InitialExec && sym->tls != B3Tls_LocalExec))
        bad(inst, "expected a local- or initial-exec thread-local symbol");
    arm64_tls_exec(e->a, sym, sym->tls == B3Tls_InitialExec, gpr(inst, 1), IP1);
}

/* JumpTable (index, scratch, scratch): a table of 32-bit offsets from its start. */
A64_OP(jump_table) {
    UNUSED_OPERANDS;
    B3Reg idx = gpr(inst, 0), t = gpr(inst, 1), k = gpr(inst, 2);
    uint32_t label = b3_emit_jump_table_new(&e->base, b);
    arm64_adr(e->a, t, label);
    Arm64Mem m = arm64_mem_reg(t, idx, Arm64Ext_UXTX, true);
    arm64_ldst(e->a, Arm64LdSt_LDRSW, k, &m);
    arm64_addsub_shifted(e->a, Arm64AddSub_ADD, true, t, t, k, Arm64Shift_LSL, 0);
    arm64_br(e->a, t);
}

static void emit_jump_tables(A64Emitter *e) {
    for (uint32_t i = 0; i < e->ntables; i++) {
        AirBlock *b = e->tables[i].block;
        arm64_bind(e->a, e->tables[i].label);
        /* The last successor is the default, reached by the bounds check only. */
        for (uint32_t s = 0; s + 1 < b->nsuccs; s++)
            arm64_data32_label_diff(e->a, e->block_label[b->succs[s].block->index], e->tables[i].label);
    }
}

/* ---- arm64 selection (codegen/arm64/lower_isel.c) ---- */

/* a op (b shift #k), dst: p = operation * 4 + shift kind (0 lsl, 1 asr, 2
 * lsr, 3 ror: logical only; operations add, sub, and, orr, eor). */
A64_OP(shifted) {
    UNUSED_OPERANDS;
    static const Arm64Shift shifts[4] = {Arm64Shift_LSL, Arm64Shift_ASR, Arm64Shift_LSR, Arm64Shift_ROR};
    static const Arm64LogicOp logics[3] = {Arm64Logic_AND, Arm64Logic_ORR, Arm64Logic_EOR};
    bool is64 = size == 8;
    unsigned k = (unsigned)arg(inst, 2)->value & (is64 ? 63 : 31), op = p / 4;
    Arm64Shift sh = shifts[p % 4];
    B3Reg rd = gpr(inst, 3), rn = gpr(inst, 0), rm = gpr(inst, 1);
    if (op < 2)
        arm64_addsub_shifted(e->a, op ? Arm64AddSub_SUB : Arm64AddSub_ADD, is64, rd, rn, rm, sh, k);
    else
        arm64_logic_shifted(e->a, logics[op - 2], is64, rd, rn, rm, sh, k);
}

/* a +- extend(b32) << k, dst (p: bit 0 sub, bit 1 sign-extend). */
A64_OP(extended) {
    UNUSED_OPERANDS;
    unsigned k = (unsigned)arg(inst, 2)->value;
    if (k > 4)
        bad(inst, "extended-register shift over 4");
    arm64_addsub_ext(e->a, p & 1 ? Arm64AddSub_SUB : Arm64AddSub_ADD, true, gpr(inst, 3), gpr(inst, 0),
                     gpr(inst, 1), p & 2 ? Arm64Ext_SXTW : Arm64Ext_UXTW, k);
}

/* bic, orn, eon (p: Arm64LogicOp): a, b, dst. */
A64_OP(logic_not) {
    UNUSED_OPERANDS;
    arm64_logic_shifted(e->a, (Arm64LogicOp)p, size == 8, gpr(inst, 2), gpr(inst, 0), gpr(inst, 1),
                        Arm64Shift_LSL, 0);
}

/* ubfx, sbfx, ubfiz, bfi (p 0-3): src, lsb, width, dst. */
A64_OP(bitfield) {
    UNUSED_OPERANDS;
    bool is64 = size == 8;
    unsigned lsb = (unsigned)arg(inst, 1)->value, w = (unsigned)arg(inst, 2)->value;
    if (!w || lsb + w > (is64 ? 64u : 32u))
        bad(inst, "bitfield out of the register");
    B3Reg rd = gpr(inst, 3), rn = gpr(inst, 0);
    switch (p) {
    case 0:
        arm64_ubfx(e->a, is64, rd, rn, lsb, w);
        break;
    case 1:
        arm64_sbfx(e->a, is64, rd, rn, lsb, w);
        break;
    case 2:
        arm64_ubfiz(e->a, is64, rd, rn, lsb, w);
        break;
    default:
        arm64_bfi(e->a, is64, rd, rn, lsb, w);
        break;
    }
}

/* ---- conditional select-and-operate, compares of a shifted operand ---- */

/* An operand of a Select{Increment,Invert,Negate}: a register, or the zero
 * register for Imm 0 (any other immediate goes in scratch). */
static B3Reg csel_operand(A64Emitter *e, const AirInst *inst, unsigned i, bool is64, B3Reg scratch) {
    if (is_tmp(inst, i))
        return gpr(inst, i);
    uint64_t v = (uint64_t)arg(inst, i)->value & (is64 ? UINT64_MAX : 0xffffffffu);
    if (!v)
        return ARM64_ZR;
    arm64_mov_imm(e->a, is64, scratch, v);
    return scratch;
}

/* csinc/csinv/csneg (p: Arm64CSelOp): (cond, l, r, a, b, dst), dst = cond ? a : op(b). */
A64_OP(csel_op) {
    UNUSED_OPERANDS;
    bool is64 = size == 8;
    DCodes d = flags_of(e, inst, size);
    B3Reg ra = csel_operand(e, inst, 3, is64, IP0), rb = csel_operand(e, inst, 4, is64, IP1);
    arm64_csel(e->a, (Arm64CSelOp)p, is64, gpr(inst, 5), ra, rb, d.c1);
}

/* cmp/tst/cmn a, b, shift #k; b.cond (p: the shift, 0 lsl, 1 asr, 2 lsr; +4: tst, +8: cmn). */
A64_OP(branch_shifted) {
    UNUSED_OPERANDS;
    static const Arm64Shift shifts[3] = {Arm64Shift_LSL, Arm64Shift_ASR, Arm64Shift_LSR};
    bool is64 = size == 8;
    unsigned k = (unsigned)arg(inst, 3)->value & (is64 ? 63 : 31);
    if (p & 4)
        arm64_tst(e->a, is64, gpr(inst, 1), gpr(inst, 2), shifts[p & 3], k);
    else
        arm64_cmp(e->a, (p & 8) != 0, is64, gpr(inst, 1), gpr(inst, 2), shifts[p & 3], k);
    DCodes c = {cond_code(inst, (AirCond)arg(inst, 0)->cond), Arm64Cond_AL};
    branch_on(e, b, inst, next, c, (DCodes){arm64_cond_invert(c.c1), Arm64Cond_AL});
}

/* The encoder table: one row per Air opcode this emitter implements. */
static const struct {
    A64OpFn *fn;
    uint8_t p, size;
} a64_ops[AIR_NUM_OPCODES] = {
    [Air_Nop] = {op_nop, 0, 0},
    /* arm64 selection (codegen/arm64/lower_isel.c) */
    [Air_AddLeftShift32] = {op_shifted, 0, 4},
    [Air_AddLeftShift64] = {op_shifted, 0, 8},
    [Air_AddRightShift32] = {op_shifted, 1, 4},
    [Air_AddRightShift64] = {op_shifted, 1, 8},
    [Air_AddUnsignedRightShift32] = {op_shifted, 2, 4},
    [Air_AddUnsignedRightShift64] = {op_shifted, 2, 8},
    [Air_SubLeftShift32] = {op_shifted, 4, 4},
    [Air_SubLeftShift64] = {op_shifted, 4, 8},
    [Air_SubRightShift32] = {op_shifted, 5, 4},
    [Air_SubRightShift64] = {op_shifted, 5, 8},
    [Air_SubUnsignedRightShift32] = {op_shifted, 6, 4},
    [Air_SubUnsignedRightShift64] = {op_shifted, 6, 8},
    [Air_AndLeftShift32] = {op_shifted, 8, 4},
    [Air_AndLeftShift64] = {op_shifted, 8, 8},
    [Air_AndRightShift32] = {op_shifted, 9, 4},
    [Air_AndRightShift64] = {op_shifted, 9, 8},
    [Air_AndUnsignedRightShift32] = {op_shifted, 10, 4},
    [Air_AndUnsignedRightShift64] = {op_shifted, 10, 8},
    [Air_OrLeftShift32] = {op_shifted, 12, 4},
    [Air_OrLeftShift64] = {op_shifted, 12, 8},
    [Air_OrRightShift32] = {op_shifted, 13, 4},
    [Air_OrRightShift64] = {op_shifted, 13, 8},
    [Air_OrUnsignedRightShift32] = {op_shifted, 14, 4},
    [Air_OrUnsignedRightShift64] = {op_shifted, 14, 8},
    [Air_XorLeftShift32] = {op_shifted, 16, 4},
    [Air_XorLeftShift64] = {op_shifted, 16, 8},
    [Air_XorRightShift32] = {op_shifted, 17, 4},
    [Air_XorRightShift64] = {op_shifted, 17, 8},
    [Air_XorUnsignedRightShift32] = {op_shifted, 18, 4},
    [Air_XorUnsignedRightShift64] = {op_shifted, 18, 8},
    [Air_MultiplyAddSignExtend32] = {op_mul3, Arm64Mul_SMADDL, 8},
    [Air_MultiplyAddZeroExtend32] = {op_mul3, Arm64Mul_UMADDL, 8},
    [Air_MultiplySubSignExtend32] = {op_mul3, Arm64Mul_SMSUBL, 8},
    [Air_MultiplySubZeroExtend32] = {op_mul3, Arm64Mul_UMSUBL, 8},
    [Air_AndRotateRight32] = {op_shifted, 11, 4},
    [Air_AndRotateRight64] = {op_shifted, 11, 8},
    [Air_OrRotateRight32] = {op_shifted, 15, 4},
    [Air_OrRotateRight64] = {op_shifted, 15, 8},
    [Air_XorRotateRight32] = {op_shifted, 19, 4},
    [Air_XorRotateRight64] = {op_shifted, 19, 8},
    [Air_AddZeroExtend32To64] = {op_extended, 0, 8},
    [Air_SubZeroExtend32To64] = {op_extended, 1, 8},
    [Air_AddSignExtend32To64] = {op_extended, 2, 8},
    [Air_SubSignExtend32To64] = {op_extended, 3, 8},
    [Air_AndNot32] = {op_logic_not, Arm64Logic_BIC, 4},
    [Air_AndNot64] = {op_logic_not, Arm64Logic_BIC, 8},
    [Air_OrNot32] = {op_logic_not, Arm64Logic_ORN, 4},
    [Air_OrNot64] = {op_logic_not, Arm64Logic_ORN, 8},
    [Air_XorNot32] = {op_logic_not, Arm64Logic_EON, 4},
    [Air_XorNot64] = {op_logic_not, Arm64Logic_EON, 8},
    [Air_ExtractUnsignedBitfield32] = {op_bitfield, 0, 4},
    [Air_ExtractUnsignedBitfield64] = {op_bitfield, 0, 8},
    [Air_ExtractSignedBitfield32] = {op_bitfield, 1, 4},
    [Air_ExtractSignedBitfield64] = {op_bitfield, 1, 8},
    [Air_InsertUnsignedBitfieldInZero32] = {op_bitfield, 2, 4},
    [Air_InsertUnsignedBitfieldInZero64] = {op_bitfield, 2, 8},
    [Air_InsertBitField32] = {op_bitfield, 3, 4},
    [Air_InsertBitField64] = {op_bitfield, 3, 8},
    [Air_Add32] = {op_addsub, Arm64AddSub_ADD, 4},
    [Air_Add64] = {op_addsub, Arm64AddSub_ADD, 8},
    [Air_Sub32] = {op_addsub, Arm64AddSub_SUB, 4},
    [Air_Sub64] = {op_addsub, Arm64AddSub_SUB, 8},
    [Air_Neg32] = {op_neg, 0, 4},
    [Air_Neg64] = {op_neg, 0, 8},
    [Air_Not32] = {op_neg, 1, 4},
    [Air_Not64] = {op_neg, 1, 8},
    [Air_Mul32] = {op_mul, 0, 4},
    [Air_Mul64] = {op_mul, 0, 8},
    [Air_And32] = {op_logic, Arm64Logic_AND, 4},
    [Air_And64] = {op_logic, Arm64Logic_AND, 8},
    [Air_Or32] = {op_logic, Arm64Logic_ORR, 4},
    [Air_Or64] = {op_logic, Arm64Logic_ORR, 8},
    [Air_Xor32] = {op_logic, Arm64Logic_EOR, 4},
    [Air_Xor64] = {op_logic, Arm64Logic_EOR, 8},
    [Air_Lshift32] = {op_shift, Arm64DP2_LSLV, 4},
    [Air_Lshift64] = {op_shift, Arm64DP2_LSLV, 8},
    [Air_Rshift32] = {op_shift, Arm64DP2_ASRV, 4},
    [Air_Rshift64] = {op_shift, Arm64DP2_ASRV, 8},
    [Air_Urshift32] = {op_shift, Arm64DP2_LSRV, 4},
    [Air_Urshift64] = {op_shift, Arm64DP2_LSRV, 8},
    [Air_RotateRight32] = {op_shift, Arm64DP2_RORV, 4},
    [Air_RotateRight64] = {op_shift, Arm64DP2_RORV, 8},
    [Air_CountLeadingZeros32] = {op_clz, 0, 4},
    [Air_CountLeadingZeros64] = {op_clz, 0, 8},
    [Air_Lea32] = {op_lea, 0, 4},
    [Air_Lea64] = {op_lea, 0, 8},
    [Air_ThreadLocalAddress] = {op_thread_local_address, 0, 8},
    [Air_Move] = {op_move, 0, 8},
    [Air_Move32] = {op_move, 0, 4},
    [Air_Load8] = {op_load, Arm64LdSt_LDRB, 1},
    [Air_Load8SignedExtendTo32] = {op_load, Arm64LdSt_LDRSBW, 1},
    [Air_Load16] = {op_load, Arm64LdSt_LDRH, 2},
    [Air_Load16SignedExtendTo32] = {op_load, Arm64LdSt_LDRSHW, 2},
    [Air_Store8] = {op_store, Arm64LdSt_STRB, 1},
    [Air_Store16] = {op_store, Arm64LdSt_STRH, 2},
    [Air_SignExtend8To32] = {op_sxt, 1, 4},
    [Air_SignExtend16To32] = {op_sxt, 2, 4},
    [Air_ZeroExtend8To32] = {op_uxt, 1, 4},
    [Air_ZeroExtend16To32] = {op_uxt, 2, 4},
    [Air_SignExtend32ToPtr] = {op_sxt, 4, 8},
    [Air_MoveFloat] = {op_fmove, 0, 4},
    [Air_MoveDouble] = {op_fmove, 0, 8},
    [Air_MoveZeroToDouble] = {op_fzero, 0, 8},
    [Air_Move64ToDouble] = {op_to_fpr, 0, 8},
    [Air_Move32ToFloat] = {op_to_fpr, 0, 4},
    [Air_MoveDoubleTo64] = {op_to_gpr, 0, 8},
    [Air_MoveFloatTo32] = {op_to_gpr, 0, 4},
    [Air_Move64ToHighLane] = {op_to_high_lane, 0, 8},
    [Air_MoveHighLaneTo64] = {op_from_high_lane, 0, 8},
    [Air_AddDouble] = {op_fp2, Arm64FP2_FADD, 8},
    [Air_AddFloat] = {op_fp2, Arm64FP2_FADD, 4},
    [Air_SubDouble] = {op_fp2, Arm64FP2_FSUB, 8},
    [Air_SubFloat] = {op_fp2, Arm64FP2_FSUB, 4},
    [Air_MulDouble] = {op_fp2, Arm64FP2_FMUL, 8},
    [Air_MulFloat] = {op_fp2, Arm64FP2_FMUL, 4},
    [Air_DivDouble] = {op_fp2, Arm64FP2_FDIV, 8},
    [Air_DivFloat] = {op_fp2, Arm64FP2_FDIV, 4},
    [Air_SqrtDouble] = {op_fp1, Arm64FP1_FSQRT, 8},
    [Air_SqrtFloat] = {op_fp1, Arm64FP1_FSQRT, 4},
    [Air_CeilDouble] = {op_fp1, Arm64FP1_FRINTP, 8},
    [Air_CeilFloat] = {op_fp1, Arm64FP1_FRINTP, 4},
    [Air_FloorDouble] = {op_fp1, Arm64FP1_FRINTM, 8},
    [Air_FloorFloat] = {op_fp1, Arm64FP1_FRINTM, 4},
    [Air_AndDouble] = {op_fp_logic, Arm64Logic_AND, 8},
    [Air_AndFloat] = {op_fp_logic, Arm64Logic_AND, 4},
    [Air_OrDouble] = {op_fp_logic, Arm64Logic_ORR, 8},
    [Air_OrFloat] = {op_fp_logic, Arm64Logic_ORR, 4},
    [Air_XorDouble] = {op_fp_logic, Arm64Logic_EOR, 8},
    [Air_XorFloat] = {op_fp_logic, Arm64Logic_EOR, 4},
    [Air_ConvertInt32ToDouble] = {op_cvtf, 1, 8},
    [Air_ConvertInt64ToDouble] = {op_cvtf, 3, 8},
    [Air_ConvertInt32ToFloat] = {op_cvtf, 1, 4},
    [Air_ConvertInt64ToFloat] = {op_cvtf, 3, 4},
    [Air_ConvertUInt32ToDouble] = {op_cvtf, 0, 8},
    [Air_ConvertUInt64ToDouble] = {op_cvtf, 2, 8},
    [Air_ConvertUInt32ToFloat] = {op_cvtf, 0, 4},
    [Air_ConvertUInt64ToFloat] = {op_cvtf, 2, 4},
    [Air_ConvertDoubleToFloat] = {op_fcvt, 0, 4},
    [Air_ConvertFloatToDouble] = {op_fcvt, 1, 8},
    [Air_TruncateDoubleToInt32] = {op_fcvtz, 3, 4},
    [Air_TruncateDoubleToInt64] = {op_fcvtz, 3, 8},
    [Air_TruncateFloatToInt32] = {op_fcvtz, 1, 4},
    [Air_TruncateFloatToInt64] = {op_fcvtz, 1, 8},
    [Air_TruncateDoubleToUInt32] = {op_fcvtz, 2, 4},
    [Air_TruncateDoubleToUInt64] = {op_fcvtz, 2, 8},
    [Air_TruncateFloatToUInt32] = {op_fcvtz, 0, 4},
    [Air_TruncateFloatToUInt64] = {op_fcvtz, 0, 8},
    [Air_Compare32] = {op_compare, 0, 4},
    [Air_Compare64] = {op_compare, 0, 8},
    [Air_Test32] = {op_compare, 0, 4},
    [Air_Test64] = {op_compare, 0, 8},
    [Air_CompareDouble] = {op_compare, 0, 8},
    [Air_CompareFloat] = {op_compare, 0, 4},
    [Air_MoveConditionally32] = {op_cmov, 4, 8},
    [Air_MoveConditionally64] = {op_cmov, 8, 8},
    [Air_MoveConditionallyTest32] = {op_cmov, 4, 8},
    [Air_MoveConditionallyTest64] = {op_cmov, 8, 8},
    [Air_MoveConditionallyDouble] = {op_cmov, 0, 8},
    [Air_MoveConditionallyFloat] = {op_cmov, 0, 4},
    [Air_MoveDoubleConditionally32] = {op_fcmov, 4, 8},
    [Air_MoveDoubleConditionally64] = {op_fcmov, 8, 8},
    [Air_MoveDoubleConditionallyTest32] = {op_fcmov, 4, 8},
    [Air_MoveDoubleConditionallyTest64] = {op_fcmov, 8, 8},
    [Air_MoveDoubleConditionallyDouble] = {op_fcmov, 0, 8},
    [Air_MoveDoubleConditionallyFloat] = {op_fcmov, 0, 4},
    [Air_Div32] = {op_dp2, Arm64DP2_SDIV, 4},
    [Air_Div64] = {op_dp2, Arm64DP2_SDIV, 8},
    [Air_UDiv32] = {op_dp2, Arm64DP2_UDIV, 4},
    [Air_UDiv64] = {op_dp2, Arm64DP2_UDIV, 8},
    [Air_MultiplyAdd32] = {op_mul3, Arm64Mul_MADD, 4},
    [Air_MultiplyAdd64] = {op_mul3, Arm64Mul_MADD, 8},
    [Air_MultiplySub32] = {op_mul3, Arm64Mul_MSUB, 4},
    [Air_MultiplySub64] = {op_mul3, Arm64Mul_MSUB, 8},
    [Air_MultiplyNeg32] = {op_mul2, Arm64Mul_MSUB, 4},
    [Air_MultiplyNeg64] = {op_mul2, Arm64Mul_MSUB, 8},
    [Air_MultiplySignExtend32] = {op_mul2, Arm64Mul_SMADDL, 8},
    [Air_MultiplyZeroExtend32] = {op_mul2, Arm64Mul_UMADDL, 8},
    [Air_MulHigh64] = {op_mulh, 1, 8},
    [Air_UMulHigh64] = {op_mulh, 0, 8},
    [Air_NegateDouble] = {op_fp1, Arm64FP1_FNEG, 8},
    [Air_NegateFloat] = {op_fp1, Arm64FP1_FNEG, 4},
    [Air_AbsDouble] = {op_fp1, Arm64FP1_FABS, 8},
    [Air_AbsFloat] = {op_fp1, Arm64FP1_FABS, 4},
    [Air_MinDouble] = {op_fp2, Arm64FP2_FMIN, 8},
    [Air_MaxDouble] = {op_fp2, Arm64FP2_FMAX, 8},
    [Air_MinFloat] = {op_fp2, Arm64FP2_FMIN, 4},
    [Air_MaxFloat] = {op_fp2, Arm64FP2_FMAX, 4},
    /* conditional select-and-operate, compares of a shifted operand (lower_isel.c) */
    [Air_SelectIncrement32] = {op_csel_op, Arm64CSel_CSINC, 4},
    [Air_SelectIncrement64] = {op_csel_op, Arm64CSel_CSINC, 8},
    [Air_SelectIncrementTest32] = {op_csel_op, Arm64CSel_CSINC, 4},
    [Air_SelectIncrementTest64] = {op_csel_op, Arm64CSel_CSINC, 8},
    [Air_SelectInvert32] = {op_csel_op, Arm64CSel_CSINV, 4},
    [Air_SelectInvert64] = {op_csel_op, Arm64CSel_CSINV, 8},
    [Air_SelectInvertTest32] = {op_csel_op, Arm64CSel_CSINV, 4},
    [Air_SelectInvertTest64] = {op_csel_op, Arm64CSel_CSINV, 8},
    [Air_SelectNegate32] = {op_csel_op, Arm64CSel_CSNEG, 4},
    [Air_SelectNegate64] = {op_csel_op, Arm64CSel_CSNEG, 8},
    [Air_SelectNegateTest32] = {op_csel_op, Arm64CSel_CSNEG, 4},
    [Air_SelectNegateTest64] = {op_csel_op, Arm64CSel_CSNEG, 8},
    [Air_BranchCompareLeftShift32] = {op_branch_shifted, 0, 4},
    [Air_BranchCompareLeftShift64] = {op_branch_shifted, 0, 8},
    [Air_BranchCompareRightShift32] = {op_branch_shifted, 1, 4},
    [Air_BranchCompareRightShift64] = {op_branch_shifted, 1, 8},
    [Air_BranchCompareUnsignedRightShift32] = {op_branch_shifted, 2, 4},
    [Air_BranchCompareUnsignedRightShift64] = {op_branch_shifted, 2, 8},
    [Air_BranchTestLeftShift32] = {op_branch_shifted, 4, 4},
    [Air_BranchTestLeftShift64] = {op_branch_shifted, 4, 8},
    [Air_BranchTestRightShift32] = {op_branch_shifted, 5, 4},
    [Air_BranchTestRightShift64] = {op_branch_shifted, 5, 8},
    [Air_BranchTestUnsignedRightShift32] = {op_branch_shifted, 6, 4},
    [Air_BranchTestUnsignedRightShift64] = {op_branch_shifted, 6, 8},
    [Air_BranchCompareNegatedLeftShift32] = {op_branch_shifted, 8, 4},
    [Air_BranchCompareNegatedLeftShift64] = {op_branch_shifted, 8, 8},
    [Air_BranchCompareNegatedRightShift32] = {op_branch_shifted, 9, 4},
    [Air_BranchCompareNegatedRightShift64] = {op_branch_shifted, 9, 8},
    [Air_BranchCompareNegatedUnsignedRightShift32] = {op_branch_shifted, 10, 4},
    [Air_BranchCompareNegatedUnsignedRightShift64] = {op_branch_shifted, 10, 8},
    /* arm64 atomics */
    [Air_LoadAcq8] = {op_atomic, A64Atomic_LoadAcq, 1},
    [Air_LoadAcq16] = {op_atomic, A64Atomic_LoadAcq, 2},
    [Air_LoadAcq32] = {op_atomic, A64Atomic_LoadAcq, 4},
    [Air_LoadAcq64] = {op_atomic, A64Atomic_LoadAcq, 8},
    [Air_StoreRel8] = {op_atomic, A64Atomic_StoreRel, 1},
    [Air_StoreRel16] = {op_atomic, A64Atomic_StoreRel, 2},
    [Air_StoreRel32] = {op_atomic, A64Atomic_StoreRel, 4},
    [Air_StoreRel64] = {op_atomic, A64Atomic_StoreRel, 8},
    [Air_AtomicLoopAdd8] = {op_atomic, A64Atomic_LoopAdd, 1},
    [Air_AtomicLoopAdd16] = {op_atomic, A64Atomic_LoopAdd, 2},
    [Air_AtomicLoopAdd32] = {op_atomic, A64Atomic_LoopAdd, 4},
    [Air_AtomicLoopAdd64] = {op_atomic, A64Atomic_LoopAdd, 8},
    [Air_AtomicLoopSub8] = {op_atomic, A64Atomic_LoopSub, 1},
    [Air_AtomicLoopSub16] = {op_atomic, A64Atomic_LoopSub, 2},
    [Air_AtomicLoopSub32] = {op_atomic, A64Atomic_LoopSub, 4},
    [Air_AtomicLoopSub64] = {op_atomic, A64Atomic_LoopSub, 8},
    [Air_AtomicLoopAnd8] = {op_atomic, A64Atomic_LoopAnd, 1},
    [Air_AtomicLoopAnd16] = {op_atomic, A64Atomic_LoopAnd, 2},
    [Air_AtomicLoopAnd32] = {op_atomic, A64Atomic_LoopAnd, 4},
    [Air_AtomicLoopAnd64] = {op_atomic, A64Atomic_LoopAnd, 8},
    [Air_AtomicLoopOr8] = {op_atomic, A64Atomic_LoopOr, 1},
    [Air_AtomicLoopOr16] = {op_atomic, A64Atomic_LoopOr, 2},
    [Air_AtomicLoopOr32] = {op_atomic, A64Atomic_LoopOr, 4},
    [Air_AtomicLoopOr64] = {op_atomic, A64Atomic_LoopOr, 8},
    [Air_AtomicLoopXor8] = {op_atomic, A64Atomic_LoopXor, 1},
    [Air_AtomicLoopXor16] = {op_atomic, A64Atomic_LoopXor, 2},
    [Air_AtomicLoopXor32] = {op_atomic, A64Atomic_LoopXor, 4},
    [Air_AtomicLoopXor64] = {op_atomic, A64Atomic_LoopXor, 8},
    [Air_AtomicLoopXchg8] = {op_atomic, A64Atomic_LoopXchg, 1},
    [Air_AtomicLoopXchg16] = {op_atomic, A64Atomic_LoopXchg, 2},
    [Air_AtomicLoopXchg32] = {op_atomic, A64Atomic_LoopXchg, 4},
    [Air_AtomicLoopXchg64] = {op_atomic, A64Atomic_LoopXchg, 8},
    [Air_AtomicLoopCAS8] = {op_atomic, A64Atomic_LoopCAS, 1},
    [Air_AtomicLoopCAS16] = {op_atomic, A64Atomic_LoopCAS, 2},
    [Air_AtomicLoopCAS32] = {op_atomic, A64Atomic_LoopCAS, 4},
    [Air_AtomicLoopCAS64] = {op_atomic, A64Atomic_LoopCAS, 8},
    [Air_AtomicLdaddal8] = {op_atomic, A64Atomic_Ldaddal, 1},
    [Air_AtomicLdaddal16] = {op_atomic, A64Atomic_Ldaddal, 2},
    [Air_AtomicLdaddal32] = {op_atomic, A64Atomic_Ldaddal, 4},
    [Air_AtomicLdaddal64] = {op_atomic, A64Atomic_Ldaddal, 8},
    [Air_AtomicLdclral8] = {op_atomic, A64Atomic_Ldclral, 1},
    [Air_AtomicLdclral16] = {op_atomic, A64Atomic_Ldclral, 2},
    [Air_AtomicLdclral32] = {op_atomic, A64Atomic_Ldclral, 4},
    [Air_AtomicLdclral64] = {op_atomic, A64Atomic_Ldclral, 8},
    [Air_AtomicLdsetal8] = {op_atomic, A64Atomic_Ldsetal, 1},
    [Air_AtomicLdsetal16] = {op_atomic, A64Atomic_Ldsetal, 2},
    [Air_AtomicLdsetal32] = {op_atomic, A64Atomic_Ldsetal, 4},
    [Air_AtomicLdsetal64] = {op_atomic, A64Atomic_Ldsetal, 8},
    [Air_AtomicLdeoral8] = {op_atomic, A64Atomic_Ldeoral, 1},
    [Air_AtomicLdeoral16] = {op_atomic, A64Atomic_Ldeoral, 2},
    [Air_AtomicLdeoral32] = {op_atomic, A64Atomic_Ldeoral, 4},
    [Air_AtomicLdeoral64] = {op_atomic, A64Atomic_Ldeoral, 8},
    [Air_AtomicSwpal8] = {op_atomic, A64Atomic_Swpal, 1},
    [Air_AtomicSwpal16] = {op_atomic, A64Atomic_Swpal, 2},
    [Air_AtomicSwpal32] = {op_atomic, A64Atomic_Swpal, 4},
    [Air_AtomicSwpal64] = {op_atomic, A64Atomic_Swpal, 8},
    [Air_AtomicCasal8] = {op_atomic, A64Atomic_Casal, 1},
    [Air_AtomicCasal16] = {op_atomic, A64Atomic_Casal, 2},
    [Air_AtomicCasal32] = {op_atomic, A64Atomic_Casal, 4},
    [Air_AtomicCasal64] = {op_atomic, A64Atomic_Casal, 8},
    [Air_BranchAtomicLoopCAS8] = {op_atomic_branch, A64Atomic_LoopCAS, 1},
    [Air_BranchAtomicLoopCAS16] = {op_atomic_branch, A64Atomic_LoopCAS, 2},
    [Air_BranchAtomicLoopCAS32] = {op_atomic_branch, A64Atomic_LoopCAS, 4},
    [Air_BranchAtomicLoopCAS64] = {op_atomic_branch, A64Atomic_LoopCAS, 8},
    [Air_BranchAtomicCasal8] = {op_atomic_branch, A64Atomic_Casal, 1},
    [Air_BranchAtomicCasal16] = {op_atomic_branch, A64Atomic_Casal, 2},
    [Air_BranchAtomicCasal32] = {op_atomic_branch, A64Atomic_Casal, 4},
    [Air_BranchAtomicCasal64] = {op_atomic_branch, A64Atomic_Casal, 8},
    [Air_Dmb] = {op_atomic, A64Atomic_Dmb, 0},
    [Air_Depend32] = {op_atomic, A64Atomic_Depend, 4},
    [Air_Depend64] = {op_atomic, A64Atomic_Depend, 8},
    [Air_Jump] = {op_jump, 0, 0},
    [Air_Branch32] = {op_branch, 0, 4},
    [Air_Branch64] = {op_branch, 0, 8},
    [Air_BranchTest32] = {op_branch, 0, 4},
    [Air_BranchTest64] = {op_branch, 0, 8},
    [Air_BranchDouble] = {op_branch, 0, 8},
    [Air_BranchFloat] = {op_branch, 0, 4},
    [Air_BranchAdd32] = {op_branch_alu, Arm64AddSub_ADDS, 4},
    [Air_BranchAdd64] = {op_branch_alu, Arm64AddSub_ADDS, 8},
    [Air_BranchSub32] = {op_branch_alu, Arm64AddSub_SUBS, 4},
    [Air_BranchSub64] = {op_branch_alu, Arm64AddSub_SUBS, 8},
    [Air_BranchNeg32] = {op_branch_neg, 0, 4},
    [Air_BranchNeg64] = {op_branch_neg, 0, 8},
    [Air_Ret32] = {op_ret, 0, 0},
    [Air_Ret64] = {op_ret, 0, 0},
    [Air_RetFloat] = {op_ret, 0, 0},
    [Air_RetDouble] = {op_ret, 0, 0},
    [Air_RetVoid] = {op_ret, 0, 0},
    [Air_RetMany] = {op_ret, 0, 0},
    [Air_Oops] = {op_oops, 0, 0},
    [Air_AllocaDynamic] = {op_alloca_dynamic, 0, 8},
    [Air_StackSave] = {op_stack_save, 0, 8},
    [Air_StackRestore] = {op_stack_restore, 0, 8},
    [Air_JumpTable] = {op_jump_table, 0, 0},
    [Air_MemoryFence] = {op_fence, 0, 0},
    [Air_Call] = {op_call, 0, 0},
    /* arm64 checks and stackmaps */
    [Air_BranchMul32] = {op_branch_mul, 0, 4},
    [Air_BranchMul64] = {op_branch_mul, 0, 8},
    [Air_Patchpoint] = {op_patchpoint, 0, 0},
};

static void emit_inst(A64Emitter *e, AirBlock *b, AirInst *inst, AirBlock *next) {
    AirOpcode op = (AirOpcode)inst->opcode;
    if (op >= AIR_NUM_OPCODES)
        bad(inst, "unknown opcode");
    if (!a64_ops[op].fn)
        b3_internal_error("arm64 emitter", "not yet supported on aarch64: Air %s", air_opcode_names[op]);
    if (!inst->special && inst->nargs && !air_is_valid_form(e->c->target, op, inst->nargs, inst->args))
        bad(inst, "not a valid arm64 form");
    a64_ops[op].fn(e, b, inst, next, a64_ops[op].p, a64_ops[op].size);
}

/* ---- load and store pairs ---- */

/* Two neighbouring plain loads or stores of one bank and size off one base
 * at adjacent offsets: one ldp/stp (the prologue's callee-saves are paired
 * in save_restore).  Returns whether it emitted x and y as the pair. */
static bool try_pair(A64Emitter *e, const AirInst *x, const AirInst *y) {
    if (x->opcode != y->opcode || x->special || y->special || x->nargs != 2 || y->nargs != 2 ||
        ((x->flags | y->flags) & AirInstFlag_Traps))
        return false;
    unsigned size;
    bool fp;
    switch (x->opcode) {
    case Air_Move:
        size = 8, fp = false;
        break;
    case Air_Move32:
        size = 4, fp = false;
        break;
    case Air_MoveDouble:
        size = 8, fp = true;
        break;
    case Air_MoveFloat:
        size = 4, fp = true;
        break;
    default:
        return false;
    }
    bool load = x->args[0].kind == AirArg_Addr;
    unsigned m = load ? 0 : 1, r = 1 - m;
    const AirArg *mx = &x->args[m], *my = &y->args[m], *rx = &x->args[r], *ry = &y->args[r];
    if (mx->kind != AirArg_Addr || my->kind != AirArg_Addr || rx->kind != AirArg_Tmp ||
        ry->kind != AirArg_Tmp || mx->base != my->base || mx->base >= 32 || rx->base >= 64 ||
        ry->base >= 64 || b3_reg_is_fpr((B3Reg)rx->base) != fp || b3_reg_is_fpr((B3Reg)ry->base) != fp)
        return false;
    int64_t d = my->value - mx->value, lo = d > 0 ? mx->value : my->value;
    if ((d != (int64_t)size && d != -(int64_t)size) || lo % (int64_t)size || lo < -64 * (int64_t)size ||
        lo > 63 * (int64_t)size)
        return false;
    /* Loads: x must not change the base or y's destination (ldp reads the
     * base once and needs two registers). */
    if (load && (rx->base == mx->base || rx->base == ry->base))
        return false;
    static const Arm64PairOp ops[2][2][2] = {
        {{Arm64Pair_STPW, Arm64Pair_STPX}, {Arm64Pair_STPS, Arm64Pair_STPD}},
        {{Arm64Pair_LDPW, Arm64Pair_LDPX}, {Arm64Pair_LDPS, Arm64Pair_LDPD}}};
    B3Reg first = (B3Reg)(d > 0 ? rx->base : ry->base), second = (B3Reg)(d > 0 ? ry->base : rx->base);
    Arm64Mem mem = arm64_mem((B3Reg)mx->base, lo);
    arm64_ldstp(e->a, ops[load][fp][size == 8], first, second, &mem);
    return true;
}

/* ---- procedures ---- */

/* ---- the emission driver's hooks (codegen/emit.h) ---- */

/* A procedure's emission: the relaxation marks, kept across passes, and
 * the pass's assembler and emitter. */
typedef struct {
    Arm64Relax relax;
    Arm64Asm a;
    A64Emitter e;
} A64Emission;

static B3Emitter *pass_begin(void *sp, AirCode *c, B3Frame *frame) {
    A64Emission *s = sp;
    arm64_asm_init(&s->a);
    s->a.relax = &s->relax;
    s->relax.again = false;
    memset(&s->e, 0, sizeof s->e);
    b3_emitter_init(&s->e.base, c, &s->a.buffer);
    s->e.a = &s->a;
    s->e.frame = frame;
    return &s->e.base;
}

static bool pass_again(void *sp) { return ((A64Emission *)sp)->relax.again; }

static void pass_end(void *sp) {
    A64Emission *s = sp;
    b3_emitter_free(&s->e.base);
    arm64_asm_free(&s->a);
}

static void relax_end(void *sp) { arm64_relax_free(&((A64Emission *)sp)->relax); }

static void listing_begin(B3Emitter *e, B3EmitListing *l, B3Obj *o) {
    arm64_listing_begin(l, ((A64Emitter *)e)->a, o);
}

static void prologue(B3Emitter *e) { emit_prologue((A64Emitter *)e); }

/* Instruction j of b, or it and the next as one load or store pair. */
static uint32_t emit_insts(B3Emitter *be, AirBlock *b, uint32_t j, AirBlock *next) {
    A64Emitter *e = (A64Emitter *)be;
    if (j + 1 < b->ninsts && try_pair(e, &b->insts[j], &b->insts[j + 1]))
        return 2;
    emit_inst(e, b, &b->insts[j], next);
    return 1;
}

static void jump_tables(B3Emitter *e) { emit_jump_tables((A64Emitter *)e); }

const B3EmitTarget b3_arm64_emit = {
    .phase = "arm64 emitter",
    .arch = B3Arch_ARM64,
    .stackmap_stack_extra = 16, /* the frame record */
    .state_size = sizeof(A64Emission),
    .pass_begin = pass_begin,
    .pass_again = pass_again,
    .pass_end = pass_end,
    .relax_end = relax_end,
    .listing_begin = listing_begin,
    .prologue = prologue,
    .emit_insts = emit_insts,
    .jump_tables = jump_tables,
    .compact_unwind = b3_arm64_compact_unwind,
};
