/* Air -> x86-64 machine code, after register and stack allocation.
 *
 * Every Tmp is a physical register here.  Each Air inst becomes one or a few
 * instructions (see the per-opcode comments); the frame follows
 * docs/backend.md: push rbp; mov rsp, rbp; sub $frame_size, rsp; callee-saves
 * at [rbp - 8k].  Jump tables follow the function body in .text as int32
 * offsets from the table start. */
#include <stdlib.h>
#include <string.h>

#include "codegen/x86_64/emit.h"
#include "codegen/x86_64/emit_operands.h"
#include "codegen/x86_64/listing.h"
#include "codegen/x86_64/x86_64.h"
#include "ir/diag.h"
#include "objwriter/dwarf.h"

/* ---- operands (the accessors shared with emit_atomics.c are in emit_operands.h) ---- */

static B3Reg fpr(const AirInst *inst, unsigned i) {
    const AirArg *a = arg(inst, i);
    if (a->kind != AirArg_Tmp || a->base < B3_FPR_BASE || a->base >= B3_FPR_BASE + 16)
        bad(inst, "expected a floating-point register");
    return (B3Reg)a->base;
}

static bool is_tmp(const AirInst *inst, unsigned i) { return arg(inst, i)->kind == AirArg_Tmp; }
static bool is_imm(const AirInst *inst, unsigned i) { return arg(inst, i)->kind == AirArg_Imm; }
static bool is_big_imm(const AirInst *inst, unsigned i) { return arg(inst, i)->kind == AirArg_BigImm; }

/* A register (of the bank) or memory operand. */
static X86RM rm_of(const AirInst *inst, unsigned i, AirBank bank) {
    if (is_tmp(inst, i))
        return x86_rm_reg(bank == AirGP ? gpr(inst, i) : fpr(inst, i));
    return x86_rm_mem(mem_of(inst, i, false));
}

/* An immediate for an operation of `size` bytes.  32-bit (and narrower)
 * operations take the low bits of any value that fits 32 bits either way;
 * 64-bit ones need a sign-extended 32-bit value. */
static int32_t imm_of(const AirInst *inst, unsigned i, unsigned size) {
    const AirArg *a = arg(inst, i);
    if (a->kind != AirArg_Imm)
        bad(inst, "expected an immediate");
    if (a->value >= INT32_MIN && a->value <= INT32_MAX)
        return (int32_t)a->value;
    if (size <= 4 && a->value >= 0 && a->value <= (int64_t)UINT32_MAX)
        return (int32_t)(uint32_t)a->value;
    bad(inst, "immediate does not fit 32 bits");
}

static uint32_t succ_label(X86Emitter *e, const AirBlock *b, const AirInst *inst, unsigned i) {
    if (i >= b->nsuccs)
        bad(inst, "missing successor");
    return e->block_label[b->succs[i].block->index];
}

/* ---- shared sequences ---- */

/* mov $v, %reg of `size` bytes, shortest form (xor for zero; a 32-bit move
 * zero-extends, so it also serves 64-bit values below 2^32). */
static void move_imm(X86Asm *a, unsigned size, int64_t v, B3Reg r) {
    X86RM d = x86_rm_reg(r);
    if (size == 4)
        v = (uint32_t)v;
    if (v == 0)
        x86_alu(a, X86Alu_Xor, 4, &d, &d);
    else if (v > 0 && v <= (int64_t)UINT32_MAX)
        x86_mov_imm(a, 4, v, &d);
    else
        x86_mov_imm(a, 8, v, &d);
}

/* op src, dst where src is a Tmp, Imm or memory and dst a Tmp or memory. */
static void alu2(X86Emitter *e, const AirInst *inst, X86AluOp op, unsigned size, unsigned src, unsigned dst) {
    X86RM d = rm_of(inst, dst, AirGP);
    if (is_imm(inst, src)) {
        x86_alu_imm(e->a, op, size, imm_of(inst, src, size), &d);
        return;
    }
    X86RM s = rm_of(inst, src, AirGP);
    if (s.is_mem && d.is_mem)
        bad(inst, "two memory operands");
    x86_alu(e->a, op, size, &s, &d);
}

/* Flags of `left - right` (cmp); cmp $0 of a register is test r, r, which sets
 * the same flags. */
static void emit_cmp(X86Emitter *e, const AirInst *inst, unsigned size, unsigned left, unsigned right) {
    X86RM l = rm_of(inst, left, AirGP);
    if (is_imm(inst, right)) {
        int32_t imm = imm_of(inst, right, size);
        if (imm == 0 && !l.is_mem)
            x86_test(e->a, size, l.reg, &l);
        else
            x86_alu_imm(e->a, X86Alu_Cmp, size, imm, &l);
        return;
    }
    X86RM r = rm_of(inst, right, AirGP);
    if (l.is_mem && r.is_mem)
        bad(inst, "two memory operands");
    x86_alu(e->a, X86Alu_Cmp, size, &r, &l);
}

/* Flags of `left & right`. */
static void emit_test(X86Emitter *e, const AirInst *inst, unsigned size, unsigned left, unsigned right) {
    X86RM l = rm_of(inst, left, AirGP);
    if (is_imm(inst, right)) {
        int32_t imm = imm_of(inst, right, size);
        if (imm == -1 && !l.is_mem)
            x86_test(e->a, size, l.reg, &l);
        else
            x86_test_imm(e->a, size, imm, &l);
        return;
    }
    X86RM r = rm_of(inst, right, AirGP);
    if (!r.is_mem)
        x86_test(e->a, size, r.reg, &l);
    else if (!l.is_mem)
        x86_test(e->a, size, l.reg, &r);
    else
        bad(inst, "two memory operands");
}

/* dst = cc ? 1 : 0 (32-bit). */
static void set_bool(X86Emitter *e, unsigned cc, B3Reg dst) {
    X86RM d = x86_rm_reg(dst);
    x86_setcc(e->a, cc, &d);
    x86_movx(e->a, X86Ext_Movzbl, &d, dst);
}

/* Double conditions after ucomisd.  ucomisd sets ZF,PF,CF = 1,1,1 for
 * unordered, so "above" (CF=0 and ZF=0) and "above or equal" (CF=0) are false
 * on NaN and their inverses true: comparing with the operands swapped turns
 * LessThan into Above.  Ordered Equal (ZF=1, PF=0) and NotEqualOrUnordered
 * (ZF=0 or PF=1) need the parity flag as well. */
enum { Fix_None, Fix_AndNoParity, Fix_OrParity };
typedef struct {
    bool swap;  /* compare right against left */
    uint8_t cc; /* x86 condition after the compare */
    uint8_t fix;
} DCond;

static DCond dcond(const AirInst *inst, unsigned i) {
    static const DCond table[] = {
        [AirDCond_Equal] = {false, AirCond_Equal, Fix_AndNoParity},
        [AirDCond_NotEqual] = {false, AirCond_NotEqual, Fix_None},
        [AirDCond_GreaterThan] = {false, AirCond_Above, Fix_None},
        [AirDCond_GreaterThanOrEqual] = {false, AirCond_AboveOrEqual, Fix_None},
        [AirDCond_LessThan] = {true, AirCond_Above, Fix_None},
        [AirDCond_LessThanOrEqual] = {true, AirCond_AboveOrEqual, Fix_None},
        [AirDCond_EqualOrUnordered] = {false, AirCond_Equal, Fix_None},
        [AirDCond_NotEqualOrUnordered] = {false, AirCond_NotEqual, Fix_OrParity},
        [AirDCond_GreaterThanOrUnordered] = {true, AirCond_Below, Fix_None},
        [AirDCond_GreaterThanOrEqualOrUnordered] = {true, AirCond_BelowOrEqual, Fix_None},
        [AirDCond_LessThanOrUnordered] = {false, AirCond_Below, Fix_None},
        [AirDCond_LessThanOrEqualOrUnordered] = {false, AirCond_BelowOrEqual, Fix_None},
    };
    const AirArg *a = arg(inst, i);
    if (a->kind != AirArg_DoubleCond || a->cond > AirDCond_LessThanOrEqualOrUnordered)
        bad(inst, "expected a double condition");
    return table[a->cond];
}

/* ucomisd/ucomiss of args left and right (swapped if the condition says so). */
static void emit_ucomi(X86Emitter *e, const AirInst *inst, bool dbl, DCond dc, unsigned left,
                       unsigned right) {
    X86RM l = x86_rm_reg(fpr(inst, left)), r = x86_rm_reg(fpr(inst, right));
    X86SseOp op = dbl ? X86Sse_Ucomisd : X86Sse_Ucomiss;
    if (dc.swap)
        x86_sse(e->a, op, &l, &r);
    else
        x86_sse(e->a, op, &r, &l);
}

/* Terminal branch on the flags: to succs[0] if the condition holds, else succs[1]. */
static void branch_on(X86Emitter *e, AirBlock *b, const AirInst *inst, AirBlock *next, unsigned cc, int fix) {
    if (b->nsuccs != 2)
        bad(inst, "a branch needs two successors");
    uint32_t taken = succ_label(e, b, inst, 0), not_taken = succ_label(e, b, inst, 1);
    bool taken_next = b->succs[0].block == next, not_taken_next = b->succs[1].block == next;
    X86Asm *a = e->a;
    switch (fix) {
    case Fix_None:
        if (taken_next && !not_taken_next) {
            x86_jcc(a, cc ^ 1, not_taken);
            return;
        }
        x86_jcc(a, cc, taken);
        break;
    case Fix_AndNoParity: /* taken iff ZF=1 and PF=0 */
        x86_jcc(a, AirCond_Parity, not_taken);
        if (taken_next && !not_taken_next) {
            x86_jcc(a, cc ^ 1, not_taken);
            return;
        }
        x86_jcc(a, cc, taken);
        break;
    case Fix_OrParity: /* taken iff ZF=0 or PF=1 */
        x86_jcc(a, AirCond_Parity, taken);
        if (taken_next && !not_taken_next) {
            x86_jcc(a, cc ^ 1, not_taken);
            return;
        }
        x86_jcc(a, cc, taken);
        break;
    }
    if (!not_taken_next)
        x86_jmp(a, not_taken);
}

/* Skips over the code that follows unless the (double) condition holds;
 * `skip` is bound by the caller after that code (which must be short). */
static void skip_unless(X86Emitter *e, unsigned cc, int fix, uint32_t skip) {
    X86Asm *a = e->a;
    switch (fix) {
    case Fix_None:
        x86_jcc_short(a, cc ^ 1, skip);
        break;
    case Fix_AndNoParity:
        x86_jcc_short(a, AirCond_Parity, skip);
        x86_jcc_short(a, cc ^ 1, skip);
        break;
    case Fix_OrParity: {
        uint32_t go = x86_label_new(a);
        x86_jcc_short(a, AirCond_Parity, go);
        x86_jcc_short(a, cc ^ 1, skip);
        x86_bind(a, go);
        break;
    }
    }
}

/* dst = src (general registers, 64-bit) if the flags say cc (with the parity fix). */
static void cmov_fixed(X86Emitter *e, unsigned cc, int fix, B3Reg src, B3Reg dst) {
    X86RM s = x86_rm_reg(src);
    switch (fix) {
    case Fix_None:
        x86_cmov(e->a, cc, 8, &s, dst);
        break;
    case Fix_AndNoParity: {
        uint32_t skip = x86_label_new(e->a);
        x86_jcc_short(e->a, AirCond_Parity, skip);
        x86_cmov(e->a, cc, 8, &s, dst);
        x86_bind(e->a, skip);
        break;
    }
    case Fix_OrParity:
        x86_cmov(e->a, AirCond_Parity, 8, &s, dst);
        x86_cmov(e->a, cc, 8, &s, dst);
        break;
    }
}

/* dst = src (float registers) if the flags say cc: a branch around a movaps. */
static void fmov_fixed(X86Emitter *e, unsigned cc, int fix, B3Reg src, B3Reg dst) {
    if (src == dst)
        return;
    uint32_t skip = x86_label_new(e->a);
    skip_unless(e, cc, fix, skip);
    X86RM s = x86_rm_reg(src), d = x86_rm_reg(dst);
    x86_sse(e->a, X86Sse_Movaps, &s, &d);
    x86_bind(e->a, skip);
}

/* ---- frame ---- */

static unsigned callee_saves(const AirCode *c, B3Reg *regs) {
    unsigned n = 0;
    for (unsigned r = 0; r < 64; r++) {
        if (!b3_regset_has(&c->used_callee_saves, (B3Reg)r) || r == B3X_rbp || r == B3X_rsp)
            continue;
        if (r >= 16)
            b3_internal_error("x86-64 emitter", "floating-point callee-save %u (SysV has none)", r);
        regs[n++] = (B3Reg)r;
    }
    if (c->frame_size < 8ull * n)
        b3_internal_error("x86-64 emitter", "frame size %llu has no room for %u callee-saves",
                          (unsigned long long)c->frame_size, n);
    return n;
}

void x86_emit_prologue(X86Emitter *e) {
    X86Asm *a = e->a;
    AirCode *c = e->c;
    if (c->frame_size % 16 || c->frame_size > INT32_MAX)
        b3_internal_error("x86-64 emitter", "bad frame size %llu", (unsigned long long)c->frame_size);
    B3Reg regs[64];
    unsigned n = callee_saves(c, regs);
    X86RM rsp = x86_rm_reg(B3X_rsp), rbp = x86_rm_reg(B3X_rbp);
    x86_push(a, B3X_rbp);
    x86_mov(a, 8, &rsp, &rbp);
    if (c->frame_size)
        x86_alu_imm(a, X86Alu_Sub, 8, (int32_t)c->frame_size, &rsp);
    for (unsigned k = 0; k < n; k++) {
        X86RM r = x86_rm_reg(regs[k]), slot = x86_rm_mem(x86_mem(B3X_rbp, -8 * (int32_t)(k + 1)));
        x86_mov(a, 8, &r, &slot);
    }
}

void x86_emit_epilogue(X86Emitter *e) {
    X86Asm *a = e->a;
    B3Reg regs[64];
    unsigned n = callee_saves(e->c, regs);
    for (unsigned k = 0; k < n; k++) {
        X86RM slot = x86_rm_mem(x86_mem(B3X_rbp, -8 * (int32_t)(k + 1))), r = x86_rm_reg(regs[k]);
        x86_mov(a, 8, &slot, &r);
    }
    /* With no frame, rsp already equals rbp. */
    if (e->c->frame_size)
        x86_leave(a);
    else
        x86_pop(a, B3X_rbp);
}

/* ---- instructions ---- */

static void emit_call(X86Emitter *e, const AirInst *inst) {
    X86Asm *a = e->a;
    const AirCallInfo *ci = inst->special ? inst->special->data : NULL;
    const AirArg *callee = arg(inst, 0);
    if (callee->kind == AirArg_Tmp && callee->base == B3X_rax)
        bad(inst, "the callee cannot be in %rax (it holds the vector register count)");
    /* %al = number of vector registers used by the arguments, for varargs callees. */
    move_imm(a, 4, ci ? ci->nfprs : 0, B3X_rax);
    if (callee->kind == AirArg_Sym) {
        if (callee->got)
            bad(inst, "call through a GOT symbol operand");
        x86_call_sym(a, callee->u.sym, callee->value);
    } else {
        X86RM t = rm_of(inst, 0, AirGP);
        x86_call_rm(a, &t);
    }
}

static void emit_shift(X86Emitter *e, const AirInst *inst, X86ShiftOp op, unsigned size) {
    B3Reg dst = gpr(inst, 1);
    X86RM d = x86_rm_reg(dst);
    if (is_tmp(inst, 0)) {
        if (gpr(inst, 0) != B3X_rcx)
            bad(inst, "shift amount must be in %rcx");
        x86_shift_cl(e->a, op, size, &d);
        return;
    }
    unsigned n = (unsigned)imm_of(inst, 0, size) & (size * 8 - 1);
    if (n)
        x86_shift_imm(e->a, op, size, (uint8_t)n, &d);
    else if (size == 4)
        x86_mov(e->a, 4, &d, &d); /* still zero-extend */
}

/* c = a + b with a in {Tmp, Imm}, b and c Tmps. */
static void emit_add3(X86Emitter *e, const AirInst *inst, unsigned size) {
    X86Asm *a = e->a;
    B3Reg y = gpr(inst, 1), d = gpr(inst, 2);
    X86RM rd = x86_rm_reg(d);
    if (is_imm(inst, 0)) {
        int32_t imm = imm_of(inst, 0, size);
        if (d == y) {
            x86_alu_imm(a, X86Alu_Add, size, imm, &rd);
        } else if (imm == 0) {
            X86RM ry = x86_rm_reg(y);
            x86_mov(a, size, &ry, &rd);
        } else {
            X86Mem m = x86_mem(y, imm);
            x86_lea(a, size, &m, d);
        }
        return;
    }
    B3Reg x = gpr(inst, 0);
    X86RM rx = x86_rm_reg(x), ry = x86_rm_reg(y);
    if (d == y) {
        x86_alu(a, X86Alu_Add, size, &rx, &rd);
    } else if (d == x) {
        x86_alu(a, X86Alu_Add, size, &ry, &rd);
    } else if (x == B3X_rsp && y == B3X_rsp) {
        x86_mov(a, size, &rx, &rd);
        x86_alu(a, X86Alu_Add, size, &ry, &rd);
    } else {
        /* lea (x, y), d; rsp can only be the base. */
        X86Mem m = y == B3X_rsp ? x86_mem_index(y, x, 1, 0) : x86_mem_index(x, y, 1, 0);
        x86_lea(a, size, &m, d);
    }
}

static void emit_clz(X86Emitter *e, const AirInst *inst, unsigned size) {
    /* bsr gives the index of the highest set bit i, and clz = i ^ (bits-1);
     * for a zero input bsr leaves dst undefined and sets ZF, so take the
     * value whose xor gives `bits` (63 -> 32, 127 -> 64) from the scratch. */
    X86RM src = rm_of(inst, 0, AirGP);
    B3Reg dst = gpr(inst, 1), s = gpr(inst, 2);
    if (s == dst || (!src.is_mem && src.reg == s))
        bad(inst, "scratch register overlaps an operand");
    X86RM rs = x86_rm_reg(s), rd = x86_rm_reg(dst);
    x86_mov_imm(e->a, 4, size == 8 ? 127 : 63, &rs);
    x86_bsr(e->a, size, &src, dst);
    x86_cmov(e->a, AirCond_Equal, size, &rs, dst);
    x86_alu_imm(e->a, X86Alu_Xor, size, size == 8 ? 63 : 31, &rd);
}

static void emit_jump_table(X86Emitter *e, AirBlock *b, const AirInst *inst) {
    X86Asm *a = e->a;
    B3Reg idx = gpr(inst, 0), s1 = gpr(inst, 1), s2 = gpr(inst, 2);
    if (s1 == s2 || s1 == idx || s2 == idx)
        bad(inst, "scratch registers overlap");
    if (idx == B3X_rsp)
        bad(inst, "%rsp cannot be the index");
    if (b->nsuccs < 2)
        bad(inst, "a jump table needs at least one case and the default");
    if (e->ntables == e->cap_tables) {
        e->cap_tables = e->cap_tables ? 2 * e->cap_tables : 4;
        e->tables = realloc(e->tables, e->cap_tables * sizeof *e->tables);
        if (!e->tables)
            b3_internal_error("x86-64 emitter", "out of memory");
    }
    uint32_t table = x86_label_new(a);
    e->tables[e->ntables++] = (X86JumpTable){table, b};
    /* lea table(%rip), s1; movslq (s1,idx,4), s2; add s1, s2; jmp *s2 */
    X86Mem t = x86_mem_label(table, 0), entry = x86_mem_index(s1, idx, 4, 0);
    X86RM r1 = x86_rm_mem(entry), rs1 = x86_rm_reg(s1), rs2 = x86_rm_reg(s2);
    x86_lea(a, 8, &t, s1);
    x86_movx(a, X86Ext_Movslq, &r1, s2);
    x86_alu(a, X86Alu_Add, 8, &rs1, &rs2);
    x86_jmp_rm(a, &rs2);
}

void x86_emit_jump_tables(X86Emitter *e) {
    if (!e->ntables)
        return;
    X86Asm *a = e->a;
    x86_align(a, 4, 0xCC);
    for (uint32_t t = 0; t < e->ntables; t++) {
        AirBlock *b = e->tables[t].block;
        x86_bind(a, e->tables[t].label);
        for (uint32_t i = 0; i + 1 < b->nsuccs; i++)
            x86_data32_label_diff(a, e->block_label[b->succs[i].block->index], e->tables[t].label);
    }
    e->ntables = 0;
}

/* SSE op with an F register or memory source and an F register destination. */
static void sse_rm_r(X86Emitter *e, const AirInst *inst, X86SseOp op, unsigned src, unsigned dst) {
    X86RM s = rm_of(inst, src, AirFP), d = x86_rm_reg(fpr(inst, dst));
    x86_sse(e->a, op, &s, &d);
}

/* FP move: register copy (movaps), load or store. */
static void fmove(X86Emitter *e, const AirInst *inst, X86SseOp load, X86SseOp store) {
    if (is_tmp(inst, 0) && is_tmp(inst, 1)) {
        B3Reg s = fpr(inst, 0), d = fpr(inst, 1);
        if (s != d) {
            X86RM rs = x86_rm_reg(s), rd = x86_rm_reg(d);
            x86_sse(e->a, X86Sse_Movaps, &rs, &rd);
        }
    } else if (is_tmp(inst, 1)) {
        sse_rm_r(e, inst, load, 0, 1);
    } else if (is_tmp(inst, 0)) {
        X86RM s = x86_rm_reg(fpr(inst, 0)), d = x86_rm_mem(mem_of(inst, 1, false));
        x86_sse(e->a, store, &s, &d);
    } else {
        bad(inst, "two memory operands");
    }
}

/* Integer move of `size` bytes (register, load, store, immediate). */
static void imove(X86Emitter *e, const AirInst *inst, unsigned size) {
    X86Asm *a = e->a;
    if (is_imm(inst, 0) || is_big_imm(inst, 0)) {
        if (is_big_imm(inst, 0) && size != 8)
            bad(inst, "BigImm needs a 64-bit move");
        if (is_tmp(inst, 1)) {
            move_imm(a, size, arg(inst, 0)->value, gpr(inst, 1));
        } else {
            if (is_big_imm(inst, 0))
                bad(inst, "BigImm store to memory");
            X86RM d = x86_rm_mem(mem_of(inst, 1, false));
            x86_mov_imm(a, size, imm_of(inst, 0, size), &d);
        }
        return;
    }
    if (is_tmp(inst, 0) && is_tmp(inst, 1)) {
        B3Reg s = gpr(inst, 0), d = gpr(inst, 1);
        X86RM rs = x86_rm_reg(s), rd = x86_rm_reg(d);
        if (s != d || size == 4) /* a 32-bit move to itself still zero-extends */
            x86_mov(a, size, &rs, &rd);
        return;
    }
    X86RM s, d;
    if (is_tmp(inst, 1)) {
        s = x86_rm_mem(mem_of(inst, 0, size == 8)); /* Move Sym(got), Tmp loads the GOT entry */
        d = x86_rm_reg(gpr(inst, 1));
    } else if (is_tmp(inst, 0)) {
        s = x86_rm_reg(gpr(inst, 0));
        d = x86_rm_mem(mem_of(inst, 1, false));
    } else {
        bad(inst, "two memory operands");
    }
    x86_mov(a, size, &s, &d);
}

/* Store8/Store16: a register's low bytes or an immediate. */
static void store_narrow(X86Emitter *e, const AirInst *inst, unsigned size) {
    X86RM d = x86_rm_mem(mem_of(inst, 1, false));
    if (is_imm(inst, 0)) {
        x86_mov_imm(e->a, size, arg(inst, 0)->value, &d);
    } else {
        X86RM s = x86_rm_reg(gpr(inst, 0));
        x86_mov(e->a, size, &s, &d);
    }
}

static void movx(X86Emitter *e, const AirInst *inst, X86ExtOp op) {
    X86RM s = rm_of(inst, 0, AirGP);
    x86_movx(e->a, op, &s, gpr(inst, 1));
}

void x86_emit_inst(X86Emitter *e, AirBlock *b, AirInst *inst, AirBlock *next) {
    X86Asm *a = e->a;
    AirOpcode op = (AirOpcode)inst->opcode;
    /* The table's forms are what this switch implements; anything else is a
     * bug upstream.  (Variable-argument insts carry their own roles.) */
    if (op >= AIR_NUM_OPCODES)
        bad(inst, "unknown opcode");
    if (!inst->special && inst->nargs && !air_is_valid_form(e->c->target, op, inst->nargs, inst->args))
        bad(inst, "not a valid x86-64 form");
    switch (op) {
    case Air_Nop:
        return;

    /* ---- integer arithmetic ---- */
    case Air_Add32:
    case Air_Add64: {
        unsigned size = op == Air_Add32 ? 4 : 8;
        if (inst->nargs == 3)
            emit_add3(e, inst, size);
        else
            alu2(e, inst, X86Alu_Add, size, 0, 1);
        return;
    }
    case Air_Sub32:
        alu2(e, inst, X86Alu_Sub, 4, 0, 1);
        return;
    case Air_Sub64:
        alu2(e, inst, X86Alu_Sub, 8, 0, 1);
        return;
    case Air_And32:
        alu2(e, inst, X86Alu_And, 4, 0, 1);
        return;
    case Air_And64:
        alu2(e, inst, X86Alu_And, 8, 0, 1);
        return;
    case Air_Or32:
        alu2(e, inst, X86Alu_Or, 4, 0, 1);
        return;
    case Air_Or64:
        alu2(e, inst, X86Alu_Or, 8, 0, 1);
        return;
    case Air_Xor32:
        alu2(e, inst, X86Alu_Xor, 4, 0, 1);
        return;
    case Air_Xor64:
        alu2(e, inst, X86Alu_Xor, 8, 0, 1);
        return;
    case Air_Neg32:
    case Air_Neg64:
    case Air_Not32:
    case Air_Not64: {
        X86RM d = rm_of(inst, 0, AirGP);
        x86_unary(a, op == Air_Neg32 || op == Air_Neg64 ? X86Unary_Neg : X86Unary_Not,
                  op == Air_Neg32 || op == Air_Not32 ? 4 : 8, &d);
        return;
    }
    case Air_Mul32:
    case Air_Mul64: {
        unsigned size = op == Air_Mul32 ? 4 : 8;
        if (inst->nargs == 3) {
            X86RM s = rm_of(inst, 1, AirGP);
            x86_imul_imm(a, size, imm_of(inst, 0, size), &s, gpr(inst, 2));
        } else {
            X86RM s = rm_of(inst, 0, AirGP);
            x86_imul(a, size, &s, gpr(inst, 1));
        }
        return;
    }
    case Air_X86ConvertToDoubleWord32:
    case Air_X86ConvertToQuadWord64:
        if (gpr(inst, 0) != B3X_rax || gpr(inst, 1) != B3X_rdx)
            bad(inst, "operands must be %rax, %rdx");
        if (op == Air_X86ConvertToDoubleWord32)
            x86_cdq(a);
        else
            x86_cqo(a);
        return;
    case Air_X86Div32:
    case Air_X86Div64:
    case Air_X86UDiv32:
    case Air_X86UDiv64: {
        if (gpr(inst, 0) != B3X_rax || gpr(inst, 1) != B3X_rdx)
            bad(inst, "operands must be %rax, %rdx");
        X86RM d = rm_of(inst, 2, AirGP);
        x86_unary(a, op == Air_X86Div32 || op == Air_X86Div64 ? X86Unary_IDiv : X86Unary_Div,
                  op == Air_X86Div32 || op == Air_X86UDiv32 ? 4 : 8, &d);
        return;
    }
    case Air_X86MulHigh32:
    case Air_X86MulHigh64:
    case Air_X86UMulHigh32:
    case Air_X86UMulHigh64: {
        if (gpr(inst, 0) != B3X_rax || gpr(inst, 1) != B3X_rdx)
            bad(inst, "operands must be %rax, %rdx");
        X86RM src = rm_of(inst, 2, AirGP);
        x86_unary(a, op == Air_X86MulHigh32 || op == Air_X86MulHigh64 ? X86Unary_IMul : X86Unary_Mul,
                  op == Air_X86MulHigh32 || op == Air_X86UMulHigh32 ? 4 : 8, &src);
        return;
    }

    /* ---- shifts, rotates, bit counts ---- */
    case Air_Lshift32:
        emit_shift(e, inst, X86Shift_Shl, 4);
        return;
    case Air_Lshift64:
        emit_shift(e, inst, X86Shift_Shl, 8);
        return;
    case Air_Rshift32:
        emit_shift(e, inst, X86Shift_Sar, 4);
        return;
    case Air_Rshift64:
        emit_shift(e, inst, X86Shift_Sar, 8);
        return;
    case Air_Urshift32:
        emit_shift(e, inst, X86Shift_Shr, 4);
        return;
    case Air_Urshift64:
        emit_shift(e, inst, X86Shift_Shr, 8);
        return;
    case Air_RotateRight32:
        emit_shift(e, inst, X86Shift_Ror, 4);
        return;
    case Air_RotateRight64:
        emit_shift(e, inst, X86Shift_Ror, 8);
        return;
    case Air_RotateLeft32:
        emit_shift(e, inst, X86Shift_Rol, 4);
        return;
    case Air_RotateLeft64:
        emit_shift(e, inst, X86Shift_Rol, 8);
        return;
    case Air_CountLeadingZeros32:
        emit_clz(e, inst, 4);
        return;
    case Air_CountLeadingZeros64:
        emit_clz(e, inst, 8);
        return;

    /* ---- moves ---- */
    case Air_Lea32:
    case Air_Lea64: {
        X86Mem m = mem_of(inst, 0, false);
        x86_lea(a, op == Air_Lea32 ? 4 : 8, &m, gpr(inst, 1));
        return;
    }
    case Air_Move:
        imove(e, inst, 8);
        return;
    case Air_Move32:
        imove(e, inst, 4);
        return;
    case Air_Load8:
        movx(e, inst, X86Ext_Movzbl);
        return;
    case Air_Load8SignedExtendTo32:
        movx(e, inst, X86Ext_Movsbl);
        return;
    case Air_Load16:
        movx(e, inst, X86Ext_Movzwl);
        return;
    case Air_Load16SignedExtendTo32:
        movx(e, inst, X86Ext_Movswl);
        return;
    case Air_Store8:
        store_narrow(e, inst, 1);
        return;
    case Air_Store16:
        store_narrow(e, inst, 2);
        return;
    case Air_SignExtend8To32:
        movx(e, inst, X86Ext_Movsbl);
        return;
    case Air_SignExtend16To32:
        movx(e, inst, X86Ext_Movswl);
        return;
    case Air_ZeroExtend8To32:
        movx(e, inst, X86Ext_Movzbl);
        return;
    case Air_ZeroExtend16To32:
        movx(e, inst, X86Ext_Movzwl);
        return;
    case Air_SignExtend32ToPtr:
        movx(e, inst, X86Ext_Movslq);
        return;
    case Air_MoveFloat:
        fmove(e, inst, X86Sse_MovssLoad, X86Sse_MovssStore);
        return;
    case Air_MoveDouble:
        fmove(e, inst, X86Sse_MovsdLoad, X86Sse_MovsdStore);
        return;
    case Air_MoveZeroToDouble: {
        X86RM d = x86_rm_reg(fpr(inst, 0));
        x86_sse(a, X86Sse_Xorps, &d, &d);
        return;
    }
    case Air_Move64ToDouble:
    case Air_Move32ToFloat: {
        bool q = op == Air_Move64ToDouble;
        X86RM s = rm_of(inst, 0, AirGP), d = x86_rm_reg(fpr(inst, 1));
        x86_sse(a, q ? (s.is_mem ? X86Sse_MovqLoad : X86Sse_MovqToXmm) : X86Sse_MovdToXmm, &s, &d);
        return;
    }
    case Air_MoveDoubleTo64:
    case Air_MoveFloatTo32: {
        X86RM s = x86_rm_reg(fpr(inst, 0)), d = x86_rm_reg(gpr(inst, 1));
        x86_sse(a, op == Air_MoveDoubleTo64 ? X86Sse_MovqFromXmm : X86Sse_MovdFromXmm, &s, &d);
        return;
    }

    /* ---- floating point ---- */
    case Air_AddDouble:
        sse_rm_r(e, inst, X86Sse_Addsd, 0, 1);
        return;
    case Air_AddFloat:
        sse_rm_r(e, inst, X86Sse_Addss, 0, 1);
        return;
    case Air_SubDouble:
        sse_rm_r(e, inst, X86Sse_Subsd, 0, 1);
        return;
    case Air_SubFloat:
        sse_rm_r(e, inst, X86Sse_Subss, 0, 1);
        return;
    case Air_MulDouble:
        sse_rm_r(e, inst, X86Sse_Mulsd, 0, 1);
        return;
    case Air_MulFloat:
        sse_rm_r(e, inst, X86Sse_Mulss, 0, 1);
        return;
    case Air_DivDouble:
        sse_rm_r(e, inst, X86Sse_Divsd, 0, 1);
        return;
    case Air_DivFloat:
        sse_rm_r(e, inst, X86Sse_Divss, 0, 1);
        return;
    case Air_SqrtDouble:
        sse_rm_r(e, inst, X86Sse_Sqrtsd, 0, 1);
        return;
    case Air_SqrtFloat:
        sse_rm_r(e, inst, X86Sse_Sqrtss, 0, 1);
        return;
    case Air_AndDouble:
        sse_rm_r(e, inst, X86Sse_Andpd, 0, 1);
        return;
    case Air_AndFloat:
        sse_rm_r(e, inst, X86Sse_Andps, 0, 1);
        return;
    case Air_OrDouble:
        sse_rm_r(e, inst, X86Sse_Orpd, 0, 1);
        return;
    case Air_OrFloat:
        sse_rm_r(e, inst, X86Sse_Orps, 0, 1);
        return;
    case Air_XorDouble:
        sse_rm_r(e, inst, X86Sse_Xorpd, 0, 1);
        return;
    case Air_XorFloat:
        sse_rm_r(e, inst, X86Sse_Xorps, 0, 1);
        return;
    case Air_ConvertDoubleToFloat:
        sse_rm_r(e, inst, X86Sse_Cvtsd2ss, 0, 1);
        return;
    case Air_ConvertFloatToDouble:
        sse_rm_r(e, inst, X86Sse_Cvtss2sd, 0, 1);
        return;
    case Air_CeilDouble:
    case Air_CeilFloat:
    case Air_FloorDouble:
    case Air_FloorFloat: {
        /* roundsd imm: bits 1:0 the mode (1 down, 2 up), bit 3 suppresses the precision exception. */
        X86RM s = rm_of(inst, 0, AirFP);
        bool ceil = op == Air_CeilDouble || op == Air_CeilFloat;
        x86_round(a, op == Air_CeilDouble || op == Air_FloorDouble, ceil ? 0x0A : 0x09, &s, fpr(inst, 1));
        return;
    }
    case Air_ConvertInt32ToDouble:
    case Air_ConvertInt64ToDouble:
    case Air_ConvertInt32ToFloat:
    case Air_ConvertInt64ToFloat: {
        X86SseOp o = op == Air_ConvertInt32ToDouble   ? X86Sse_Cvtsi2sdl
                     : op == Air_ConvertInt64ToDouble ? X86Sse_Cvtsi2sdq
                     : op == Air_ConvertInt32ToFloat  ? X86Sse_Cvtsi2ssl
                                                      : X86Sse_Cvtsi2ssq;
        X86RM s = rm_of(inst, 0, AirGP), d = x86_rm_reg(fpr(inst, 1));
        x86_sse(a, o, &s, &d);
        return;
    }
    case Air_TruncateDoubleToInt32:
    case Air_TruncateDoubleToInt64:
    case Air_TruncateFloatToInt32:
    case Air_TruncateFloatToInt64: {
        X86SseOp o = op == Air_TruncateDoubleToInt32   ? X86Sse_Cvttsd2si32
                     : op == Air_TruncateDoubleToInt64 ? X86Sse_Cvttsd2si64
                     : op == Air_TruncateFloatToInt32  ? X86Sse_Cvttss2si32
                                                       : X86Sse_Cvttss2si64;
        X86RM s = x86_rm_reg(fpr(inst, 0)), d = x86_rm_reg(gpr(inst, 1));
        x86_sse(a, o, &s, &d);
        return;
    }

    /* ---- compares and conditional moves ---- */
    case Air_Compare32:
    case Air_Compare64:
        emit_cmp(e, inst, op == Air_Compare32 ? 4 : 8, 1, 2);
        set_bool(e, cond_of(inst, 0, AirArg_RelCond), gpr(inst, 3));
        return;
    case Air_Test32:
    case Air_Test64:
        emit_test(e, inst, op == Air_Test32 ? 4 : 8, 1, 2);
        set_bool(e, cond_of(inst, 0, AirArg_ResCond), gpr(inst, 3));
        return;
    case Air_CompareDouble:
    case Air_CompareFloat: {
        DCond dc = dcond(inst, 0);
        B3Reg dst = gpr(inst, 3), s = gpr(inst, 4);
        if (s == dst)
            bad(inst, "scratch register overlaps the destination");
        emit_ucomi(e, inst, op == Air_CompareDouble, dc, 1, 2);
        X86RM d = x86_rm_reg(dst), rs = x86_rm_reg(s);
        x86_setcc(a, dc.cc, &d);
        if (dc.fix == Fix_AndNoParity) {
            x86_setcc(a, AirCond_NoParity, &rs);
            x86_alu(a, X86Alu_And, 1, &rs, &d);
        } else if (dc.fix == Fix_OrParity) {
            x86_setcc(a, AirCond_Parity, &rs);
            x86_alu(a, X86Alu_Or, 1, &rs, &d);
        }
        x86_movx(a, X86Ext_Movzbl, &d, dst);
        return;
    }
    case Air_MoveConditionally32:
    case Air_MoveConditionally64:
        emit_cmp(e, inst, op == Air_MoveConditionally32 ? 4 : 8, 1, 2);
        cmov_fixed(e, cond_of(inst, 0, AirArg_RelCond), Fix_None, gpr(inst, 3), gpr(inst, 4));
        return;
    case Air_MoveConditionallyTest32:
    case Air_MoveConditionallyTest64:
        emit_test(e, inst, op == Air_MoveConditionallyTest32 ? 4 : 8, 1, 2);
        cmov_fixed(e, cond_of(inst, 0, AirArg_ResCond), Fix_None, gpr(inst, 3), gpr(inst, 4));
        return;
    case Air_MoveConditionallyDouble:
    case Air_MoveConditionallyFloat: {
        DCond dc = dcond(inst, 0);
        emit_ucomi(e, inst, op == Air_MoveConditionallyDouble, dc, 1, 2);
        cmov_fixed(e, dc.cc, dc.fix, gpr(inst, 3), gpr(inst, 4));
        return;
    }
    case Air_MoveDoubleConditionally32:
    case Air_MoveDoubleConditionally64:
        emit_cmp(e, inst, op == Air_MoveDoubleConditionally32 ? 4 : 8, 1, 2);
        fmov_fixed(e, cond_of(inst, 0, AirArg_RelCond), Fix_None, fpr(inst, 3), fpr(inst, 4));
        return;
    case Air_MoveDoubleConditionallyTest32:
    case Air_MoveDoubleConditionallyTest64:
        emit_test(e, inst, op == Air_MoveDoubleConditionallyTest32 ? 4 : 8, 1, 2);
        fmov_fixed(e, cond_of(inst, 0, AirArg_ResCond), Fix_None, fpr(inst, 3), fpr(inst, 4));
        return;
    case Air_MoveDoubleConditionallyDouble:
    case Air_MoveDoubleConditionallyFloat: {
        DCond dc = dcond(inst, 0);
        emit_ucomi(e, inst, op == Air_MoveDoubleConditionallyDouble, dc, 1, 2);
        fmov_fixed(e, dc.cc, dc.fix, fpr(inst, 3), fpr(inst, 4));
        return;
    }

    /* ---- terminals ---- */
    case Air_Jump:
        if (b->nsuccs != 1)
            bad(inst, "a jump needs one successor");
        if (b->succs[0].block != next)
            x86_jmp(a, succ_label(e, b, inst, 0));
        return;
    case Air_Branch32:
    case Air_Branch64:
        emit_cmp(e, inst, op == Air_Branch32 ? 4 : 8, 1, 2);
        branch_on(e, b, inst, next, cond_of(inst, 0, AirArg_RelCond), Fix_None);
        return;
    case Air_BranchTest32:
    case Air_BranchTest64:
        emit_test(e, inst, op == Air_BranchTest32 ? 4 : 8, 1, 2);
        branch_on(e, b, inst, next, cond_of(inst, 0, AirArg_ResCond), Fix_None);
        return;
    case Air_BranchDouble:
    case Air_BranchFloat: {
        DCond dc = dcond(inst, 0);
        emit_ucomi(e, inst, op == Air_BranchDouble, dc, 1, 2);
        branch_on(e, b, inst, next, dc.cc, dc.fix);
        return;
    }
    case Air_BranchAdd32:
    case Air_BranchAdd64:
    case Air_BranchSub32:
    case Air_BranchSub64: {
        bool add = op == Air_BranchAdd32 || op == Air_BranchAdd64;
        alu2(e, inst, add ? X86Alu_Add : X86Alu_Sub, op == Air_BranchAdd32 || op == Air_BranchSub32 ? 4 : 8,
             1, 2);
        branch_on(e, b, inst, next, cond_of(inst, 0, AirArg_ResCond), Fix_None);
        return;
    }
    case Air_BranchMul32:
    case Air_BranchMul64: {
        unsigned size = op == Air_BranchMul32 ? 4 : 8, cc = cond_of(inst, 0, AirArg_ResCond);
        X86RM s = rm_of(inst, 1, AirGP);
        B3Reg d = gpr(inst, 2);
        x86_imul(a, size, &s, d);
        /* imul defines only CF/OF; the other conditions test the result. */
        if (cc != AirCond_Overflow && cc != AirCond_NoOverflow)
            x86_test(a, size, d, &(X86RM){.is_mem = false, .reg = d});
        branch_on(e, b, inst, next, cc, Fix_None);
        return;
    }
    case Air_BranchNeg32:
    case Air_BranchNeg64: {
        X86RM d = x86_rm_reg(gpr(inst, 1));
        x86_unary(a, X86Unary_Neg, op == Air_BranchNeg32 ? 4 : 8, &d);
        branch_on(e, b, inst, next, cond_of(inst, 0, AirArg_ResCond), Fix_None);
        return;
    }
    case Air_Ret32:
    case Air_Ret64:
    case Air_RetFloat:
    case Air_RetDouble:
    case Air_RetVoid:
        x86_emit_epilogue(e);
        x86_ret(a);
        return;
    case Air_Oops:
        x86_ud2(a);
        return;
    case Air_JumpTable:
        emit_jump_table(e, b, inst);
        return;

    case Air_MemoryFence:
        x86_mfence(a);
        return;
    /* Atomics: emit_atomics.c. */
    case Air_AtomicStrongCAS8: case Air_AtomicStrongCAS16: case Air_AtomicStrongCAS32: case Air_AtomicStrongCAS64:
    case Air_BranchAtomicStrongCAS8: case Air_BranchAtomicStrongCAS16: case Air_BranchAtomicStrongCAS32:
    case Air_BranchAtomicStrongCAS64:
    case Air_AtomicXchgAdd8: case Air_AtomicXchgAdd16: case Air_AtomicXchgAdd32: case Air_AtomicXchgAdd64:
    case Air_AtomicXchg8: case Air_AtomicXchg16: case Air_AtomicXchg32: case Air_AtomicXchg64:
    case Air_AtomicAdd8: case Air_AtomicAdd16: case Air_AtomicAdd32: case Air_AtomicAdd64:
    case Air_AtomicSub8: case Air_AtomicSub16: case Air_AtomicSub32: case Air_AtomicSub64:
    case Air_AtomicAnd8: case Air_AtomicAnd16: case Air_AtomicAnd32: case Air_AtomicAnd64:
    case Air_AtomicOr8: case Air_AtomicOr16: case Air_AtomicOr32: case Air_AtomicOr64:
    case Air_AtomicXor8: case Air_AtomicXor16: case Air_AtomicXor32: case Air_AtomicXor64:
        x86_emit_atomic(e, b, inst, next);
        return;
    case Air_Call:
        emit_call(e, inst);
        return;
    case Air_Patchpoint:
        x86_emit_patchpoint(e, inst);
        return;
    case Air_EntrySwitch:
        bad(inst, "EntrySwitch reached the emitter (air_lower_entry_switch must run first)");
    case AIR_NUM_OPCODES:
        break;
    }
    bad(inst, "unknown opcode");
}

/* ---- procedures ---- */

void x86_emitter_init(X86Emitter *e, AirCode *c, X86Asm *a) {
    memset(e, 0, sizeof *e);
    e->c = c;
    e->a = a;
    e->block_label = malloc((c->nblocks ? c->nblocks : 1) * sizeof(uint32_t));
    if (!e->block_label)
        b3_internal_error("x86-64 emitter", "out of memory");
    for (uint32_t i = 0; i < c->nblocks; i++)
        e->block_label[i] = x86_label_new(a);
}

void x86_emitter_free(X86Emitter *e) {
    free(e->block_label);
    free(e->tables);
    b3_stackmap_list_free(&e->stackmaps);
    memset(e, 0, sizeof *e);
}

/* Entrypoint k's block: c->entries once air_lower_entry_switch ran, else blocks[0]. */
static const AirBlock *entry_block(const AirCode *c, uint32_t k) {
    return k < c->nentries ? c->entries[k] : c->blocks[0];
}

void b3_x86_64_emit_proc(AirCode *c, B3Obj *o) {
    if (c->target.arch != B3Arch_X86_64)
        b3_internal_error("x86-64 emitter", "wrong target");
    B3Proc *p = c->proc;
    if (!c->nblocks)
        b3_internal_error("x86-64 emitter", "procedure has no blocks");
    /* Every entry block gets the (same) prologue; prologue_at[block] is its offset. */
    uint8_t *is_entry = calloc(c->nblocks, 1);
    uint64_t *prologue_at = calloc(c->nblocks, sizeof(uint64_t));
    if (!is_entry || !prologue_at)
        b3_internal_error("x86-64 emitter", "out of memory");
    for (uint32_t k = 0; k < (c->nentries ? c->nentries : 1); k++)
        is_entry[entry_block(c, k)->index] = 1;

    /* Functions start 16-byte aligned (the object pads .text with int3). */
    b3_obj_align(o, B3Sec_Text, 16);

    X86Asm a;
    X86Emitter e;
    x86_asm_init(&a);
    x86_emitter_init(&e, c, &a);
    X86Listing listing; /* -S: the instruction text (nothing without o->asm_text) */
    x86_listing_begin(&listing, &a, o);
    /* -g: a (code offset, .b3 line) row at each prologue and each change of
     * the insts' source line (objwriter/dwarf.h). */
    B3LineRows lines = {0};
    bool want_lines = o->debug != NULL;
    for (uint32_t i = 0; i < c->nblocks; i++) {
        AirBlock *b = c->blocks[i];
        AirBlock *next = i + 1 < c->nblocks ? c->blocks[i + 1] : NULL;
        /* Entry blocks have no predecessors, so nothing falls or jumps into a prologue. */
        if (is_entry[b->index]) {
            prologue_at[b->index] = a.len;
            if (want_lines && p)
                b3_line_rows_note(&lines, a.len, p->loc, true);
            x86_emit_prologue(&e);
        }
        x86_bind(&a, e.block_label[b->index]);
        for (uint32_t j = 0; j < b->ninsts; j++) {
            if (want_lines && b->insts[j].origin)
                b3_line_rows_note(&lines, a.len, b->insts[j].origin->loc, false);
            x86_emit_inst(&e, b, &b->insts[j], next);
        }
    }
    uint64_t code_size = a.len; /* the jump tables after it are data */
    x86_emit_jump_tables(&e);
    x86_asm_check_labels(&a);

    uint64_t start = b3_obj_emit(o, B3Sec_Text, a.buf, a.len);
    x86_listing_end(&listing, &a, o, start);
    for (uint32_t i = 0; i < a.nrelocs; i++)
        b3_obj_reloc(o, B3Sec_Text, start + a.relocs[i].offset, (B3RelocKind)a.relocs[i].kind,
                     a.relocs[i].sym, a.relocs[i].addend);
    /* Stack size as LLVM counts it: everything below the return address. */
    b3_obj_add_stackmaps(o, start, c->frame_size + 8, &e.stackmaps);
    if (want_lines)
        b3_obj_add_lines(o, p, start, code_size, a.len, &lines);
    /* entrypoints[k] is defined at entry k's prologue (without an EntrySwitch all
     * entries share blocks[0]).  The procedure's own symbol is its entry when it
     * is listed in entrypoints(...), else it is entry 0 as well, so that
     * references to @name resolve.  Each size runs to the end of the code. */
    if (p && p->sym) {
        uint32_t k = 0;
        for (uint32_t i = 0; i < p->nentrypoints; i++)
            if (p->entrypoints[i] == p->sym)
                k = i;
        uint64_t off = prologue_at[entry_block(c, k)->index];
        b3_obj_define(o, p->sym, B3Sec_Text, start + off, a.len - off, true);
    }
    for (uint32_t i = 0; p && i < p->nentrypoints; i++)
        if (p->entrypoints[i] && p->entrypoints[i] != p->sym) {
            uint64_t off = prologue_at[entry_block(c, i)->index];
            b3_obj_define(o, p->entrypoints[i], B3Sec_Text, start + off, a.len - off, true);
        }
    free(is_entry);
    free(prologue_at);

    x86_emitter_free(&e);
    x86_asm_free(&a);
}
