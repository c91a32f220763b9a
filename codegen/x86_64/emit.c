/* Air -> x86-64 machine code, after register and stack allocation.
 *
 * Every Tmp is a physical register here.  Each Air inst becomes one or a few
 * instructions (see the per-opcode comments); the frame follows
 * docs/backend.md: push rbp; mov rsp, rbp; sub $frame_size, rsp; callee-saves
 * at [rbp - 8k].  Jump tables follow the function body in .text as int32
 * offsets from the table start. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/emit.h"
#include "codegen/x86_64/emit.h"
#include "codegen/x86_64/emit_operands.h"
#include "codegen/x86_64/listing.h"
#include "codegen/x86_64/x86_64.h"
#include "ir/diag.h"
#include "objwriter/dwarf.h"
#include "objwriter/frame.h"
#include "util/bits.h"
#include "util/vec.h"

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
    if (b3_fits32(a->value))
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
            /* A mask within the low seven bits sets the flags alike on the
             * low byte (SF is 0 either way): testb is 3 bytes shorter. */
            x86_test_imm(e->a, imm >= 0 && imm <= 0x7f ? 1 : size, imm, &l);
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
        [AirDCond_Equal] = {false, X86_CC_E, Fix_AndNoParity},
        [AirDCond_NotEqual] = {false, X86_CC_NE, Fix_None},
        [AirDCond_GreaterThan] = {false, X86_CC_A, Fix_None},
        [AirDCond_GreaterThanOrEqual] = {false, X86_CC_AE, Fix_None},
        [AirDCond_LessThan] = {true, X86_CC_A, Fix_None},
        [AirDCond_LessThanOrEqual] = {true, X86_CC_AE, Fix_None},
        [AirDCond_EqualOrUnordered] = {false, X86_CC_E, Fix_None},
        [AirDCond_NotEqualOrUnordered] = {false, X86_CC_NE, Fix_OrParity},
        [AirDCond_GreaterThanOrUnordered] = {true, X86_CC_B, Fix_None},
        [AirDCond_GreaterThanOrEqualOrUnordered] = {true, X86_CC_BE, Fix_None},
        [AirDCond_LessThanOrUnordered] = {false, X86_CC_B, Fix_None},
        [AirDCond_LessThanOrEqualOrUnordered] = {false, X86_CC_BE, Fix_None},
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
        x86_jcc(a, X86_CC_P, not_taken);
        if (taken_next && !not_taken_next) {
            x86_jcc(a, cc ^ 1, not_taken);
            return;
        }
        x86_jcc(a, cc, taken);
        break;
    case Fix_OrParity: /* taken iff ZF=0 or PF=1 */
        x86_jcc(a, X86_CC_P, taken);
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
        x86_jcc_short(a, X86_CC_P, skip);
        x86_jcc_short(a, cc ^ 1, skip);
        break;
    case Fix_OrParity: {
        uint32_t go = x86_label_new(a);
        x86_jcc_short(a, X86_CC_P, go);
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
        x86_jcc_short(e->a, X86_CC_P, skip);
        x86_cmov(e->a, cc, 8, &s, dst);
        x86_bind(e->a, skip);
        break;
    }
    case Fix_OrParity:
        x86_cmov(e->a, X86_CC_P, 8, &s, dst);
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

bool b3_x86_64_needs_frame_pointer(const B3Proc *p) {
    for (uint32_t bi = 0; bi < p->nblocks; bi++)
        for (uint32_t vi = 0; vi < p->blocks[bi]->nvalues; vi++) {
            const B3Value *v = p->blocks[bi]->values[vi];
            if (v->opcode == B3_FramePointer || v->opcode == B3_AllocaDynamic ||
                v->opcode == B3_StackRestore ||
                (v->opcode == B3_ArgumentReg && (v->m.reg == B3X_rbp || v->m.reg == B3X_rsp)))
                return true;
        }
    return false;
}

static unsigned callee_saves(const AirCode *c, B3Reg *regs) {
    unsigned n = 0;
    for (unsigned r = 0; r < 64; r++) {
        if (!b3_regset_has(&c->used_callee_saves, (B3Reg)r) || (r == B3X_rbp && !c->omit_frame_pointer) ||
            r == B3X_rsp)
            continue;
        if (r >= 16)
            b3_internal_error("x86-64 emitter", "floating-point callee-save %u (SysV has none)", r);
        regs[n++] = (B3Reg)r;
    }
    /* Without a frame pointer the first save is above the frame (allocate_stack). */
    if (c->frame_size + (c->omit_frame_pointer && n ? 8 : 0) < 8ull * n)
        b3_internal_error("x86-64 emitter", "frame size %llu has no room for %u callee-saves",
                          (unsigned long long)c->frame_size, n);
    return n;
}

/* The CFA is rsp + 8 at the entry (the return address below it); rbp
 * saved by a push lands at CFA - 16. */
enum { CFA_AT_ENTRY = 8 };

void x86_emit_prologue(X86Emitter *e) {
    X86Asm *a = e->a;
    AirCode *c = e->c;
    if (c->frame_size % 16 || c->frame_size > INT32_MAX)
        b3_internal_error("x86-64 emitter", "bad frame size %llu", (unsigned long long)c->frame_size);
    B3Reg regs[64];
    unsigned n = callee_saves(c, regs);
    X86RM rsp = x86_rm_reg(B3X_rsp), rbp = x86_rm_reg(B3X_rbp);
    /* Only the first prologue of a pass describes the frame (all are alike). */
    B3Frame *f = e->frame && !e->frame->nsteps ? e->frame : NULL;
    uint64_t base = a->len;
#define STEP(op, reg, off)                                             \
    do {                                                               \
        if (f)                                                         \
            b3_frame_step(f, (uint32_t)(a->len - base), op, reg, off); \
    } while (0)
    if (e->no_frame) {
        /* Said explicitly, so that even a leaf has an unwind entry. */
        STEP(B3Cfi_DefCfaOffset, B3_NO_REG, CFA_AT_ENTRY);
        return;
    }
    if (c->omit_frame_pointer && e->push_saves) {
        /* Pushed from the return address down: regs[k] at CFA - 16 - 8k,
         * then rsp where the other layout puts it. */
        int32_t cfa = CFA_AT_ENTRY;
        for (unsigned k = 0; k < n; k++) {
            x86_push(a, regs[k]);
            STEP(B3Cfi_DefCfaOffset, B3_NO_REG, cfa += 8);
        }
        int32_t rest = (int32_t)c->frame_size + 8 - 8 * (int32_t)n;
        if (rest) {
            x86_alu_imm(a, X86Alu_Sub, 8, rest, &rsp);
            if (f) {
                f->stack_imm_at = (uint32_t)(a->len - base) - 4; /* sub $imm32, %rsp ends with it */
                f->stack_imm_bias = 8 * n + CFA_AT_ENTRY;
            }
            STEP(B3Cfi_DefCfaOffset, B3_NO_REG, cfa + rest);
        }
        for (unsigned k = n; k-- > 0;)
            STEP(B3Cfi_Offset, regs[k], -16 - 8 * (int32_t)k);
        return;
    }
    if (c->omit_frame_pointer) {
        /* rsp goes where it would be with a frame pointer (8 below the return
         * address, then the frame): the offsets allocate_stack gave are
         * from there, and calls find it 16-byte aligned.  The saves go from
         * the return address down, the first where the frame pointer would
         * be saved (as the pushes above put them). */
        x86_alu_imm(a, X86Alu_Sub, 8, (int32_t)c->frame_size + 8, &rsp);
        STEP(B3Cfi_DefCfaOffset, B3_NO_REG, (int32_t)c->frame_size + 16);
        for (unsigned k = 0; k < n; k++) {
            X86RM r = x86_rm_reg(regs[k]),
                  slot = x86_rm_mem(x86_mem(B3X_rsp, (int32_t)c->frame_size - 8 * (int32_t)k));
            x86_mov(a, 8, &r, &slot);
        }
        for (unsigned k = n; k-- > 0;)
            STEP(B3Cfi_Offset, regs[k], -16 - 8 * (int32_t)k);
        return;
    }
    x86_push(a, B3X_rbp);
    STEP(B3Cfi_DefCfaOffset, B3_NO_REG, 16);
    STEP(B3Cfi_Offset, B3X_rbp, -16);
    x86_mov(a, 8, &rsp, &rbp);
    STEP(B3Cfi_DefCfaRegister, B3X_rbp, 16);
    if (c->frame_size)
        x86_alu_imm(a, X86Alu_Sub, 8, (int32_t)c->frame_size, &rsp);
    for (unsigned k = 0; k < n; k++) {
        X86RM r = x86_rm_reg(regs[k]), slot = x86_rm_mem(x86_mem(B3X_rbp, -8 * (int32_t)(k + 1)));
        x86_mov(a, 8, &r, &slot);
    }
    /* From the lowest address up, the order compact unwind lists them in. */
    for (unsigned k = n; k-- > 0;)
        STEP(B3Cfi_Offset, regs[k], -24 - 8 * (int32_t)k);
#undef STEP
}

/* The epilogue's CFI (ELF's .eh_frame; compact unwind reads only the
 * prologue): each register reloaded is restored, the CFA follows rsp down
 * to the return address. */
void x86_emit_epilogue(X86Emitter *e) {
    X86Asm *a = e->a;
    B3Frame *f = e->frame;
    B3Reg regs[64];
    unsigned n = callee_saves(e->c, regs);
#define STEP(op, reg, off)                                             \
    do {                                                               \
        if (f)                                                         \
            b3_frame_epilogue_step(f, (uint32_t)a->len, op, reg, off); \
    } while (0)
    if (e->no_frame)
        return;
    if (e->c->omit_frame_pointer && e->push_saves) {
        X86RM rsp = x86_rm_reg(B3X_rsp);
        int32_t rest = (int32_t)e->c->frame_size + 8 - 8 * (int32_t)n;
        if (rest) {
            x86_alu_imm(a, X86Alu_Add, 8, rest, &rsp);
            STEP(B3Cfi_DefCfaOffset, B3_NO_REG, CFA_AT_ENTRY + 8 * (int32_t)n);
        }
        for (unsigned k = n; k-- > 0;) {
            x86_pop(a, regs[k]);
            STEP(B3Cfi_DefCfaOffset, B3_NO_REG, CFA_AT_ENTRY + 8 * (int32_t)k);
            STEP(B3Cfi_Restore, regs[k], 0);
        }
        return;
    }
    if (e->c->omit_frame_pointer) {
        X86RM rsp = x86_rm_reg(B3X_rsp);
        for (unsigned k = 0; k < n; k++) {
            X86RM slot = x86_rm_mem(x86_mem(B3X_rsp, (int32_t)e->c->frame_size - 8 * (int32_t)k)),
                  r = x86_rm_reg(regs[k]);
            x86_mov(a, 8, &slot, &r);
            STEP(B3Cfi_Restore, regs[k], 0);
        }
        x86_alu_imm(a, X86Alu_Add, 8, (int32_t)e->c->frame_size + 8, &rsp);
        STEP(B3Cfi_DefCfaOffset, B3_NO_REG, CFA_AT_ENTRY);
        return;
    }
    for (unsigned k = 0; k < n; k++) {
        X86RM slot = x86_rm_mem(x86_mem(B3X_rbp, -8 * (int32_t)(k + 1))), r = x86_rm_reg(regs[k]);
        x86_mov(a, 8, &slot, &r);
        STEP(B3Cfi_Restore, regs[k], 0);
    }
    /* With no frame and a stack pointer that never moves, rsp already equals rbp. */
    if (e->c->frame_size || e->c->dynamic_stack)
        x86_leave(a);
    else
        x86_pop(a, B3X_rbp);
    STEP(B3Cfi_DefCfa, B3X_rsp, CFA_AT_ENTRY);
    STEP(B3Cfi_Restore, B3X_rbp, 0);
#undef STEP
}

/* ---- instructions ---- */

/* A Call whose callee is a thread-local symbol: the runtime's address of
 * this thread's copy, in %rax (lower/lower_tls.c). */
static void emit_tls_call(X86Emitter *e, const AirInst *inst, B3Symbol *sym) {
    if (b3_target_obj_format(e->c->target) == B3ObjFormat_MachO) {
        x86_tls_tlv(e->a, sym);
        return;
    }
    if (sym->tls != B3Tls_GeneralDynamic && sym->tls != B3Tls_LocalDynamic)
        bad(inst, "a thread-local call for an exec model");
    bool created = false;
    B3Symbol *get = b3_symbol_get(e->c->module, "__tls_get_addr", 14, &created);
    if (created)
        get->kind = B3Sym_Extern, get->declared = true;
    x86_tls_general_dynamic(e->a, sym, get);
}

static void emit_call(X86Emitter *e, const AirInst *inst) {
    X86Asm *a = e->a;
    const AirCallInfo *ci = inst->special ? inst->special->data : NULL;
    const AirArg *callee = arg(inst, 0);
    if (callee->kind == AirArg_Sym && callee->u.sym->tls) {
        emit_tls_call(e, inst, callee->u.sym);
        return;
    }
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
    x86_cmov(e->a, X86_CC_E, size, &rs, dst);
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
    uint32_t table = b3_emit_jump_table_new(&e->base, b);
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

/* ---- the encoder entries (table x86_ops) ----
 *
 * Each is x86_op_<handler>(e, b, inst, next, param, size) with its row's
 * param and size (bytes of the operation, when it has one). */

#define X86_OP(name)                                                                                 \
    static void x86_op_##name(X86Emitter *e, AirBlock *b, AirInst *inst, AirBlock *next, unsigned p, \
                              unsigned size)
#define UNUSED_OPERANDS (void)e, (void)b, (void)inst, (void)next, (void)p, (void)size

/* The flags of a condition arg 0 over args 1 and 2: cmp for a RelCond, test
 * for a ResCond, ucomisd/ucomiss (size 8/4) for a DoubleCond.  Returns the
 * condition code to act on and its parity fix. */
static DCond flags_of(X86Emitter *e, const AirInst *inst, unsigned size) {
    switch (arg(inst, 0)->kind) {
    case AirArg_RelCond:
        emit_cmp(e, inst, size, 1, 2);
        return (DCond){false, (uint8_t)cond_of(inst, 0, AirArg_RelCond), Fix_None};
    case AirArg_ResCond:
        emit_test(e, inst, size, 1, 2);
        return (DCond){false, (uint8_t)cond_of(inst, 0, AirArg_ResCond), Fix_None};
    default: {
        DCond dc = dcond(inst, 0);
        emit_ucomi(e, inst, size == 8, dc, 1, 2);
        return dc;
    }
    }
}

X86_OP(nop) { UNUSED_OPERANDS; }

X86_OP(add) {
    UNUSED_OPERANDS;
    if (inst->nargs == 3)
        emit_add3(e, inst, size);
    else
        alu2(e, inst, X86Alu_Add, size, 0, 1);
}

X86_OP(alu) {
    UNUSED_OPERANDS;
    alu2(e, inst, (X86AluOp)p, size, 0, 1);
}

X86_OP(unary) {
    UNUSED_OPERANDS;
    X86RM d = rm_of(inst, 0, AirGP);
    x86_unary(e->a, (X86UnaryOp)p, size, &d);
}

X86_OP(bswap) {
    UNUSED_OPERANDS;
    x86_bswap(e->a, size, gpr(inst, 0));
}

X86_OP(mul) {
    UNUSED_OPERANDS;
    if (inst->nargs == 3) {
        X86RM s = rm_of(inst, 1, AirGP);
        x86_imul_imm(e->a, size, imm_of(inst, 0, size), &s, gpr(inst, 2));
    } else {
        X86RM s = rm_of(inst, 0, AirGP);
        x86_imul(e->a, size, &s, gpr(inst, 1));
    }
}

static void need_rax_rdx(const AirInst *inst) {
    if (gpr(inst, 0) != B3X_rax || gpr(inst, 1) != B3X_rdx)
        bad(inst, "operands must be %rax, %rdx");
}

/* cdq / cqo */
X86_OP(sign_fill) {
    UNUSED_OPERANDS;
    need_rax_rdx(inst);
    if (size == 4)
        x86_cdq(e->a);
    else
        x86_cqo(e->a);
}

/* (i)div / (i)mul of rdx:rax by arg 2 */
X86_OP(rax_rdx) {
    UNUSED_OPERANDS;
    need_rax_rdx(inst);
    X86RM d = rm_of(inst, 2, AirGP);
    x86_unary(e->a, (X86UnaryOp)p, size, &d);
}

X86_OP(shift) {
    UNUSED_OPERANDS;
    emit_shift(e, inst, (X86ShiftOp)p, size);
}

X86_OP(clz) {
    UNUSED_OPERANDS;
    emit_clz(e, inst, size);
}

X86_OP(lea) {
    UNUSED_OPERANDS;
    X86Mem m = mem_of(inst, 0, false);
    x86_lea(e->a, size, &m, gpr(inst, 1));
}

X86_OP(move) {
    UNUSED_OPERANDS;
    imove(e, inst, size);
}

X86_OP(movx) {
    UNUSED_OPERANDS;
    movx(e, inst, (X86ExtOp)p);
}

X86_OP(store_narrow) {
    UNUSED_OPERANDS;
    store_narrow(e, inst, size);
}

X86_OP(fmove) {
    UNUSED_OPERANDS;
    if (size == 8)
        fmove(e, inst, X86Sse_MovsdLoad, X86Sse_MovsdStore);
    else
        fmove(e, inst, X86Sse_MovssLoad, X86Sse_MovssStore);
}

X86_OP(fzero) {
    UNUSED_OPERANDS;
    X86RM d = x86_rm_reg(fpr(inst, 0));
    x86_sse(e->a, X86Sse_Xorps, &d, &d);
}

/* movq/movd from a general register or memory into an xmm register */
X86_OP(to_fpr) {
    UNUSED_OPERANDS;
    X86RM s = rm_of(inst, 0, AirGP), d = x86_rm_reg(fpr(inst, 1));
    x86_sse(e->a, size == 8 ? (s.is_mem ? X86Sse_MovqLoad : X86Sse_MovqToXmm) : X86Sse_MovdToXmm, &s, &d);
}

/* SSE op p: an xmm register or memory source, an xmm register destination */
X86_OP(sse) {
    UNUSED_OPERANDS;
    sse_rm_r(e, inst, (X86SseOp)p, 0, 1);
}

/* SSE op p: a general register or memory source, an xmm register destination */
X86_OP(sse_from_gpr) {
    UNUSED_OPERANDS;
    X86RM s = rm_of(inst, 0, AirGP), d = x86_rm_reg(fpr(inst, 1));
    x86_sse(e->a, (X86SseOp)p, &s, &d);
}

/* SSE op p: an xmm register source, a general register destination */
X86_OP(sse_to_gpr) {
    UNUSED_OPERANDS;
    X86RM s = x86_rm_reg(fpr(inst, 0)), d = x86_rm_reg(gpr(inst, 1));
    x86_sse(e->a, (X86SseOp)p, &s, &d);
}

/* roundsd/roundss $p: bits 1:0 the mode (1 down, 2 up), bit 3 suppresses the precision exception. */
X86_OP(round) {
    UNUSED_OPERANDS;
    X86RM s = rm_of(inst, 0, AirFP);
    x86_round(e->a, size == 8, (uint8_t)p, &s, fpr(inst, 1));
}

/* Compare/Test: the 0/1 of an integer condition */
X86_OP(compare) {
    UNUSED_OPERANDS;
    DCond dc = flags_of(e, inst, size);
    set_bool(e, dc.cc, gpr(inst, 3));
}

X86_OP(compare_fp) {
    UNUSED_OPERANDS;
    X86Asm *a = e->a;
    DCond dc = dcond(inst, 0);
    B3Reg dst = gpr(inst, 3), s = gpr(inst, 4);
    if (s == dst)
        bad(inst, "scratch register overlaps the destination");
    emit_ucomi(e, inst, size == 8, dc, 1, 2);
    X86RM d = x86_rm_reg(dst), rs = x86_rm_reg(s);
    x86_setcc(a, dc.cc, &d);
    if (dc.fix == Fix_AndNoParity) {
        x86_setcc(a, X86_CC_NP, &rs);
        x86_alu(a, X86Alu_And, 1, &rs, &d);
    } else if (dc.fix == Fix_OrParity) {
        x86_setcc(a, X86_CC_P, &rs);
        x86_alu(a, X86Alu_Or, 1, &rs, &d);
    }
    x86_movx(a, X86Ext_Movzbl, &d, dst);
}

/* The condition of inst's arg 0 negated (after flags_of has set the flags).
 * A float relation and its negation compare the operands in the same order
 * (the dcond table), so only the condition code and its parity fix change. */
static DCond negated_flags(const AirInst *inst, DCond dc) {
    if (arg(inst, 0)->kind != AirArg_DoubleCond)
        return (DCond){dc.swap, (uint8_t)(dc.cc ^ 1), Fix_None};
    AirInst neg = *inst;
    AirArg c = *arg(inst, 0);
    c.cond = (uint8_t)air_dcond_invert((AirDoubleCond)c.cond);
    AirArg args[6];
    memcpy(args, inst->args, inst->nargs * sizeof *args);
    args[0] = c;
    neg.args = args;
    return dcond(&neg, 0);
}

/* Whether register r is arg i of inst (a Tmp). */
static bool arg_is_reg(const AirInst *inst, unsigned i, unsigned r) {
    return arg(inst, i)->kind == AirArg_Tmp && arg(inst, i)->base == r;
}

/* Whether the flags cmov inst (of block b) would compute are set already: the
 * inst before it, past moves into registers (mov leaves the flags alone; an
 * immediate may become xor), is a cmov of the same kind over the same
 * registers or immediates, and neither it nor the moves wrote one of those.
 * Two Selects on one compare, such as a running maximum and its position,
 * then cost one cmp. */
static bool flags_still_set(const AirBlock *b, const AirInst *inst) {
    if (inst < b->insts || inst >= b->insts + b->ninsts || arg(inst, 0)->kind == AirArg_DoubleCond)
        return false;
    for (unsigned k = 1; k <= 2; k++)
        if (arg(inst, k)->kind != AirArg_Tmp && arg(inst, k)->kind != AirArg_Imm)
            return false;
    for (const AirInst *prev = inst - 1; prev >= b->insts; prev--) {
        if (prev->special || prev->nargs < 2)
            return false;
        unsigned dst = prev->nargs - 1;
        if (arg(prev, dst)->kind != AirArg_Tmp || arg_is_reg(inst, 1, arg(prev, dst)->base) ||
            arg_is_reg(inst, 2, arg(prev, dst)->base))
            return false;
        if (prev->opcode == Air_Move || prev->opcode == Air_Move32) {
            if (is_imm(prev, 0) || arg(prev, 0)->kind == AirArg_BigImm)
                return false;
            continue;
        }
        if (prev->opcode != inst->opcode || prev->nargs < 5)
            return false;
        for (unsigned k = 1; k <= 2; k++) {
            const AirArg *x = arg(inst, k), *y = arg(prev, k);
            if (x->kind != y->kind || (x->kind == AirArg_Tmp ? x->base != y->base : x->value != y->value))
                return false;
        }
        return arg(prev, 0)->kind == arg(inst, 0)->kind;
    }
    return false;
}

/* MoveConditionally*: general registers.  Five args: dst = then if cond.
 * Six (cond, l, r, then, else, dst): dst = cond ? then : else, with no copy
 * when dst is already either input. */
X86_OP(cmov) {
    UNUSED_OPERANDS;
    DCond dc = flags_still_set(b, inst)
                   ? (DCond){false, (uint8_t)cond_of(inst, 0, (AirArgKind)arg(inst, 0)->kind), Fix_None}
                   : flags_of(e, inst, size);
    if (inst->nargs == 5) {
        cmov_fixed(e, dc.cc, dc.fix, gpr(inst, 3), gpr(inst, 4));
        return;
    }
    B3Reg th = gpr(inst, 3), el = gpr(inst, 4), dst = gpr(inst, 5);
    if (dst == th && dst != el) {
        DCond ndc = negated_flags(inst, dc);
        cmov_fixed(e, ndc.cc, ndc.fix, el, dst);
        return;
    }
    if (dst != el) {
        X86RM s = x86_rm_reg(el), d = x86_rm_reg(dst);
        x86_mov(e->a, 8, &s, &d); /* mov leaves the flags alone */
    }
    cmov_fixed(e, dc.cc, dc.fix, th, dst);
}

/* MoveDoubleConditionally*: xmm registers, five or six args as for cmov */
X86_OP(fmov) {
    UNUSED_OPERANDS;
    DCond dc = flags_of(e, inst, size);
    if (inst->nargs == 5) {
        fmov_fixed(e, dc.cc, dc.fix, fpr(inst, 3), fpr(inst, 4));
        return;
    }
    B3Reg th = fpr(inst, 3), el = fpr(inst, 4), dst = fpr(inst, 5);
    if (dst == th && dst != el) {
        DCond ndc = negated_flags(inst, dc);
        fmov_fixed(e, ndc.cc, ndc.fix, el, dst);
        return;
    }
    if (dst != el) {
        X86RM s = x86_rm_reg(el), d = x86_rm_reg(dst);
        x86_sse(e->a, X86Sse_Movaps, &s, &d);
    }
    fmov_fixed(e, dc.cc, dc.fix, th, dst);
}

X86_OP(jump) {
    UNUSED_OPERANDS;
    if (b->nsuccs != 1)
        bad(inst, "a jump needs one successor");
    if (b->succs[0].block != next)
        x86_jmp(e->a, succ_label(e, b, inst, 0));
}

X86_OP(branch) {
    UNUSED_OPERANDS;
    DCond dc = flags_of(e, inst, size);
    branch_on(e, b, inst, next, dc.cc, dc.fix);
}

/* BranchAdd/BranchSub: the arithmetic's own flags */
X86_OP(branch_alu) {
    UNUSED_OPERANDS;
    alu2(e, inst, (X86AluOp)p, size, 1, 2);
    branch_on(e, b, inst, next, cond_of(inst, 0, AirArg_ResCond), Fix_None);
}

X86_OP(branch_mul) {
    UNUSED_OPERANDS;
    unsigned cc = cond_of(inst, 0, AirArg_ResCond);
    X86RM s = rm_of(inst, 1, AirGP);
    B3Reg d = gpr(inst, 2);
    x86_imul(e->a, size, &s, d);
    /* imul defines only CF/OF; the other conditions test the result. */
    if (cc != X86_CC_O && cc != X86_CC_NO)
        x86_test(e->a, size, d, &(X86RM){.is_mem = false, .reg = d});
    branch_on(e, b, inst, next, cc, Fix_None);
}

X86_OP(branch_neg) {
    UNUSED_OPERANDS;
    X86RM d = x86_rm_reg(gpr(inst, 1));
    x86_unary(e->a, X86Unary_Neg, size, &d);
    branch_on(e, b, inst, next, cond_of(inst, 0, AirArg_ResCond), Fix_None);
}

X86_OP(ret) {
    UNUSED_OPERANDS;
    x86_emit_epilogue(e);
    x86_ret(e->a);
    if (e->frame)
        b3_frame_epilogue_end(e->frame, (uint32_t)e->a->len);
}

X86_OP(oops) {
    UNUSED_OPERANDS;
    x86_ud2(e->a);
}

/* rsp down by arg 0 and to a multiple of arg 1; the memory's address to arg
 * 2; the outgoing argument area below it. */
X86_OP(alloca_dynamic) {
    UNUSED_OPERANDS;
    X86RM rsp = x86_rm_reg(B3X_rsp), s = x86_rm_reg(gpr(inst, 0)), d = x86_rm_reg(gpr(inst, 2));
    x86_alu(e->a, X86Alu_Sub, 8, &s, &rsp);
    int64_t align = arg(inst, 1)->value;
    if (align > 16)
        x86_alu_imm(e->a, X86Alu_And, 8, (int32_t)-align, &rsp);
    x86_mov(e->a, 8, &rsp, &d);
    uint64_t area = b3_align_up(e->c->call_arg_area, 16);
    if (area)
        x86_alu_imm(e->a, X86Alu_Sub, 8, (int32_t)area, &rsp);
}

X86_OP(stack_save) {
    UNUSED_OPERANDS;
    X86RM rsp = x86_rm_reg(B3X_rsp), d = x86_rm_reg(gpr(inst, 0));
    x86_mov(e->a, 8, &rsp, &d);
}

X86_OP(stack_restore) {
    UNUSED_OPERANDS;
    X86RM rsp = x86_rm_reg(B3X_rsp), s = x86_rm_reg(gpr(inst, 0));
    x86_mov(e->a, 8, &s, &rsp);
}

X86_OP(jump_table) {
    UNUSED_OPERANDS;
    emit_jump_table(e, b, inst);
}

X86_OP(entry_switch) {
    UNUSED_OPERANDS;
    bad(inst, "EntrySwitch reached the emitter (air_lower_entry_switch must run first)");
}

X86_OP(fence) {
    UNUSED_OPERANDS;
    x86_mfence(e->a);
}

X86_OP(call) {
    UNUSED_OPERANDS;
    emit_call(e, inst);
}

/* Local- and initial-exec thread-local addresses (lower/lower_tls.c). */
X86_OP(thread_local_address) {
    UNUSED_OPERANDS;
    B3Symbol *sym = arg(inst, 0)->u.sym;
    if (arg(inst, 0)->kind != AirArg_Sym || (sym->tls != B3Tls_InitialExec && sym->tls != B3Tls_LocalExec))
        bad(inst, "expected a local- or initial-exec thread-local symbol");
    x86_tls_exec(e->a, sym, sym->tls == B3Tls_InitialExec, gpr(inst, 1));
}

X86_OP(patchpoint) {
    UNUSED_OPERANDS;
    x86_emit_patchpoint(e->a, e->c, inst, &e->stackmaps);
}

/* The encoder table: one row per Air opcode x86-64 implements (atomics:
 * emit_atomics.c); an opcode without a row has no x86-64 encoding. */
static const struct {
    X86OpFn *fn;
    uint8_t p, size;
} x86_ops[AIR_NUM_OPCODES] = {
    [Air_Nop] = {x86_op_nop, 0, 0},
    /* integer arithmetic */
    [Air_Add32] = {x86_op_add, 0, 4},
    [Air_Add64] = {x86_op_add, 0, 8},
    [Air_Sub32] = {x86_op_alu, X86Alu_Sub, 4},
    [Air_Sub64] = {x86_op_alu, X86Alu_Sub, 8},
    [Air_Neg32] = {x86_op_unary, X86Unary_Neg, 4},
    [Air_Neg64] = {x86_op_unary, X86Unary_Neg, 8},
    [Air_Mul32] = {x86_op_mul, 0, 4},
    [Air_Mul64] = {x86_op_mul, 0, 8},
    [Air_X86ConvertToDoubleWord32] = {x86_op_sign_fill, 0, 4},
    [Air_X86ConvertToQuadWord64] = {x86_op_sign_fill, 0, 8},
    [Air_X86Div32] = {x86_op_rax_rdx, X86Unary_IDiv, 4},
    [Air_X86Div64] = {x86_op_rax_rdx, X86Unary_IDiv, 8},
    [Air_X86UDiv32] = {x86_op_rax_rdx, X86Unary_Div, 4},
    [Air_X86UDiv64] = {x86_op_rax_rdx, X86Unary_Div, 8},
    [Air_X86MulHigh32] = {x86_op_rax_rdx, X86Unary_IMul, 4},
    [Air_X86MulHigh64] = {x86_op_rax_rdx, X86Unary_IMul, 8},
    [Air_X86UMulHigh32] = {x86_op_rax_rdx, X86Unary_Mul, 4},
    [Air_X86UMulHigh64] = {x86_op_rax_rdx, X86Unary_Mul, 8},
    /* bitwise */
    [Air_And32] = {x86_op_alu, X86Alu_And, 4},
    [Air_And64] = {x86_op_alu, X86Alu_And, 8},
    [Air_Or32] = {x86_op_alu, X86Alu_Or, 4},
    [Air_Or64] = {x86_op_alu, X86Alu_Or, 8},
    [Air_Xor32] = {x86_op_alu, X86Alu_Xor, 4},
    [Air_Xor64] = {x86_op_alu, X86Alu_Xor, 8},
    [Air_Not32] = {x86_op_unary, X86Unary_Not, 4},
    [Air_Not64] = {x86_op_unary, X86Unary_Not, 8},
    [Air_ByteSwap32] = {x86_op_bswap, 0, 4},
    [Air_ByteSwap64] = {x86_op_bswap, 0, 8},
    [Air_Lshift32] = {x86_op_shift, X86Shift_Shl, 4},
    [Air_Lshift64] = {x86_op_shift, X86Shift_Shl, 8},
    [Air_Rshift32] = {x86_op_shift, X86Shift_Sar, 4},
    [Air_Rshift64] = {x86_op_shift, X86Shift_Sar, 8},
    [Air_Urshift32] = {x86_op_shift, X86Shift_Shr, 4},
    [Air_Urshift64] = {x86_op_shift, X86Shift_Shr, 8},
    [Air_RotateRight32] = {x86_op_shift, X86Shift_Ror, 4},
    [Air_RotateRight64] = {x86_op_shift, X86Shift_Ror, 8},
    [Air_RotateLeft32] = {x86_op_shift, X86Shift_Rol, 4},
    [Air_RotateLeft64] = {x86_op_shift, X86Shift_Rol, 8},
    [Air_CountLeadingZeros32] = {x86_op_clz, 0, 4},
    [Air_CountLeadingZeros64] = {x86_op_clz, 0, 8},
    /* moves, loads, stores, extensions */
    [Air_Lea32] = {x86_op_lea, 0, 4},
    [Air_Lea64] = {x86_op_lea, 0, 8},
    [Air_ThreadLocalAddress] = {x86_op_thread_local_address, 0, 8},
    [Air_Move] = {x86_op_move, 0, 8},
    [Air_Move32] = {x86_op_move, 0, 4},
    [Air_Load8] = {x86_op_movx, X86Ext_Movzbl, 0},
    [Air_Load8SignedExtendTo32] = {x86_op_movx, X86Ext_Movsbl, 0},
    [Air_Load16] = {x86_op_movx, X86Ext_Movzwl, 0},
    [Air_Load16SignedExtendTo32] = {x86_op_movx, X86Ext_Movswl, 0},
    [Air_Store8] = {x86_op_store_narrow, 0, 1},
    [Air_Store16] = {x86_op_store_narrow, 0, 2},
    [Air_SignExtend8To32] = {x86_op_movx, X86Ext_Movsbl, 0},
    [Air_SignExtend16To32] = {x86_op_movx, X86Ext_Movswl, 0},
    [Air_ZeroExtend8To32] = {x86_op_movx, X86Ext_Movzbl, 0},
    [Air_ZeroExtend16To32] = {x86_op_movx, X86Ext_Movzwl, 0},
    [Air_SignExtend32ToPtr] = {x86_op_movx, X86Ext_Movslq, 0},
    [Air_MoveFloat] = {x86_op_fmove, 0, 4},
    [Air_MoveDouble] = {x86_op_fmove, 0, 8},
    [Air_MoveZeroToDouble] = {x86_op_fzero, 0, 8},
    [Air_Move64ToDouble] = {x86_op_to_fpr, 0, 8},
    [Air_Move32ToFloat] = {x86_op_to_fpr, 0, 4},
    [Air_MoveDoubleTo64] = {x86_op_sse_to_gpr, X86Sse_MovqFromXmm, 8},
    [Air_MoveFloatTo32] = {x86_op_sse_to_gpr, X86Sse_MovdFromXmm, 4},
    /* floating point */
    [Air_AddDouble] = {x86_op_sse, X86Sse_Addsd, 8},
    [Air_AddFloat] = {x86_op_sse, X86Sse_Addss, 4},
    [Air_SubDouble] = {x86_op_sse, X86Sse_Subsd, 8},
    [Air_SubFloat] = {x86_op_sse, X86Sse_Subss, 4},
    [Air_MulDouble] = {x86_op_sse, X86Sse_Mulsd, 8},
    [Air_MulFloat] = {x86_op_sse, X86Sse_Mulss, 4},
    [Air_DivDouble] = {x86_op_sse, X86Sse_Divsd, 8},
    [Air_DivFloat] = {x86_op_sse, X86Sse_Divss, 4},
    [Air_SqrtDouble] = {x86_op_sse, X86Sse_Sqrtsd, 8},
    [Air_SqrtFloat] = {x86_op_sse, X86Sse_Sqrtss, 4},
    [Air_CeilDouble] = {x86_op_round, 0x0A, 8},
    [Air_CeilFloat] = {x86_op_round, 0x0A, 4},
    [Air_FloorDouble] = {x86_op_round, 0x09, 8},
    [Air_FloorFloat] = {x86_op_round, 0x09, 4},
    [Air_AndDouble] = {x86_op_sse, X86Sse_Andpd, 8},
    [Air_AndFloat] = {x86_op_sse, X86Sse_Andps, 4},
    [Air_OrDouble] = {x86_op_sse, X86Sse_Orpd, 8},
    [Air_OrFloat] = {x86_op_sse, X86Sse_Orps, 4},
    [Air_XorDouble] = {x86_op_sse, X86Sse_Xorpd, 8},
    [Air_XorFloat] = {x86_op_sse, X86Sse_Xorps, 4},
    [Air_ConvertInt32ToDouble] = {x86_op_sse_from_gpr, X86Sse_Cvtsi2sdl, 8},
    [Air_ConvertInt64ToDouble] = {x86_op_sse_from_gpr, X86Sse_Cvtsi2sdq, 8},
    [Air_ConvertInt32ToFloat] = {x86_op_sse_from_gpr, X86Sse_Cvtsi2ssl, 4},
    [Air_ConvertInt64ToFloat] = {x86_op_sse_from_gpr, X86Sse_Cvtsi2ssq, 4},
    [Air_ConvertDoubleToFloat] = {x86_op_sse, X86Sse_Cvtsd2ss, 8},
    [Air_ConvertFloatToDouble] = {x86_op_sse, X86Sse_Cvtss2sd, 4},
    [Air_TruncateDoubleToInt32] = {x86_op_sse_to_gpr, X86Sse_Cvttsd2si32, 4},
    [Air_TruncateDoubleToInt64] = {x86_op_sse_to_gpr, X86Sse_Cvttsd2si64, 8},
    [Air_TruncateFloatToInt32] = {x86_op_sse_to_gpr, X86Sse_Cvttss2si32, 4},
    [Air_TruncateFloatToInt64] = {x86_op_sse_to_gpr, X86Sse_Cvttss2si64, 8},
    /* compares and conditional moves (materialized as 0/1) */
    [Air_Compare32] = {x86_op_compare, 0, 4},
    [Air_Compare64] = {x86_op_compare, 0, 8},
    [Air_Test32] = {x86_op_compare, 0, 4},
    [Air_Test64] = {x86_op_compare, 0, 8},
    [Air_CompareDouble] = {x86_op_compare_fp, 0, 8},
    [Air_CompareFloat] = {x86_op_compare_fp, 0, 4},
    [Air_MoveConditionally32] = {x86_op_cmov, 0, 4},
    [Air_MoveConditionally64] = {x86_op_cmov, 0, 8},
    [Air_MoveConditionallyTest32] = {x86_op_cmov, 0, 4},
    [Air_MoveConditionallyTest64] = {x86_op_cmov, 0, 8},
    [Air_MoveConditionallyDouble] = {x86_op_cmov, 0, 8},
    [Air_MoveConditionallyFloat] = {x86_op_cmov, 0, 4},
    [Air_MoveDoubleConditionally32] = {x86_op_fmov, 0, 4},
    [Air_MoveDoubleConditionally64] = {x86_op_fmov, 0, 8},
    [Air_MoveDoubleConditionallyTest32] = {x86_op_fmov, 0, 4},
    [Air_MoveDoubleConditionallyTest64] = {x86_op_fmov, 0, 8},
    [Air_MoveDoubleConditionallyDouble] = {x86_op_fmov, 0, 8},
    [Air_MoveDoubleConditionallyFloat] = {x86_op_fmov, 0, 4},
    /* control flow (terminals) */
    [Air_Jump] = {x86_op_jump, 0, 0},
    [Air_Branch32] = {x86_op_branch, 0, 4},
    [Air_Branch64] = {x86_op_branch, 0, 8},
    [Air_BranchTest32] = {x86_op_branch, 0, 4},
    [Air_BranchTest64] = {x86_op_branch, 0, 8},
    [Air_BranchDouble] = {x86_op_branch, 0, 8},
    [Air_BranchFloat] = {x86_op_branch, 0, 4},
    [Air_BranchAdd32] = {x86_op_branch_alu, X86Alu_Add, 4},
    [Air_BranchAdd64] = {x86_op_branch_alu, X86Alu_Add, 8},
    [Air_BranchSub32] = {x86_op_branch_alu, X86Alu_Sub, 4},
    [Air_BranchSub64] = {x86_op_branch_alu, X86Alu_Sub, 8},
    [Air_BranchMul32] = {x86_op_branch_mul, 0, 4},
    [Air_BranchMul64] = {x86_op_branch_mul, 0, 8},
    [Air_BranchNeg32] = {x86_op_branch_neg, 0, 4},
    [Air_BranchNeg64] = {x86_op_branch_neg, 0, 8},
    [Air_Ret32] = {x86_op_ret, 0, 0},
    [Air_Ret64] = {x86_op_ret, 0, 0},
    [Air_RetFloat] = {x86_op_ret, 0, 0},
    [Air_RetDouble] = {x86_op_ret, 0, 0},
    [Air_RetVoid] = {x86_op_ret, 0, 0},
    [Air_Oops] = {x86_op_oops, 0, 0},
    [Air_AllocaDynamic] = {x86_op_alloca_dynamic, 0, 8},
    [Air_StackSave] = {x86_op_stack_save, 0, 8},
    [Air_StackRestore] = {x86_op_stack_restore, 0, 8},
    [Air_X87] = {x86_op_x87, 0, 10},
    [Air_X87Compare] = {x86_op_x87_compare, 0, 10},
    [Air_EntrySwitch] = {x86_op_entry_switch, 0, 0},
    [Air_JumpTable] = {x86_op_jump_table, 0, 0},
    /* memory ordering */
    [Air_MemoryFence] = {x86_op_fence, 0, 0},
    /* atomics (x86: every one is a full barrier; see docs/atomics.md) */
    [Air_AtomicStrongCAS8] = {x86_op_cas, 0, 1},
    [Air_AtomicStrongCAS16] = {x86_op_cas, 0, 2},
    [Air_AtomicStrongCAS32] = {x86_op_cas, 0, 4},
    [Air_AtomicStrongCAS64] = {x86_op_cas, 0, 8},
    [Air_BranchAtomicStrongCAS8] = {x86_op_branch_cas, 0, 1},
    [Air_BranchAtomicStrongCAS16] = {x86_op_branch_cas, 0, 2},
    [Air_BranchAtomicStrongCAS32] = {x86_op_branch_cas, 0, 4},
    [Air_BranchAtomicStrongCAS64] = {x86_op_branch_cas, 0, 8},
    [Air_AtomicXchgAdd8] = {x86_op_xadd, 0, 1},
    [Air_AtomicXchgAdd16] = {x86_op_xadd, 0, 2},
    [Air_AtomicXchgAdd32] = {x86_op_xadd, 0, 4},
    [Air_AtomicXchgAdd64] = {x86_op_xadd, 0, 8},
    [Air_AtomicXchg8] = {x86_op_xchg, 0, 1},
    [Air_AtomicXchg16] = {x86_op_xchg, 0, 2},
    [Air_AtomicXchg32] = {x86_op_xchg, 0, 4},
    [Air_AtomicXchg64] = {x86_op_xchg, 0, 8},
    [Air_AtomicAdd8] = {x86_op_atomic_alu, X86Alu_Add, 1},
    [Air_AtomicAdd16] = {x86_op_atomic_alu, X86Alu_Add, 2},
    [Air_AtomicAdd32] = {x86_op_atomic_alu, X86Alu_Add, 4},
    [Air_AtomicAdd64] = {x86_op_atomic_alu, X86Alu_Add, 8},
    [Air_AtomicSub8] = {x86_op_atomic_alu, X86Alu_Sub, 1},
    [Air_AtomicSub16] = {x86_op_atomic_alu, X86Alu_Sub, 2},
    [Air_AtomicSub32] = {x86_op_atomic_alu, X86Alu_Sub, 4},
    [Air_AtomicSub64] = {x86_op_atomic_alu, X86Alu_Sub, 8},
    [Air_AtomicAnd8] = {x86_op_atomic_alu, X86Alu_And, 1},
    [Air_AtomicAnd16] = {x86_op_atomic_alu, X86Alu_And, 2},
    [Air_AtomicAnd32] = {x86_op_atomic_alu, X86Alu_And, 4},
    [Air_AtomicAnd64] = {x86_op_atomic_alu, X86Alu_And, 8},
    [Air_AtomicOr8] = {x86_op_atomic_alu, X86Alu_Or, 1},
    [Air_AtomicOr16] = {x86_op_atomic_alu, X86Alu_Or, 2},
    [Air_AtomicOr32] = {x86_op_atomic_alu, X86Alu_Or, 4},
    [Air_AtomicOr64] = {x86_op_atomic_alu, X86Alu_Or, 8},
    [Air_AtomicXor8] = {x86_op_atomic_alu, X86Alu_Xor, 1},
    [Air_AtomicXor16] = {x86_op_atomic_alu, X86Alu_Xor, 2},
    [Air_AtomicXor32] = {x86_op_atomic_alu, X86Alu_Xor, 4},
    [Air_AtomicXor64] = {x86_op_atomic_alu, X86Alu_Xor, 8},
    /* variable-argument opcodes (AirSpecial gives the roles) */
    [Air_Call] = {x86_op_call, 0, 0},
    [Air_Patchpoint] = {x86_op_patchpoint, 0, 0},
    [Air_RetMany] = {x86_op_ret, 0, 0},
};

void x86_emit_inst(X86Emitter *e, AirBlock *b, AirInst *inst, AirBlock *next) {
    AirOpcode op = (AirOpcode)inst->opcode;
    /* The table's forms are what the entries implement; anything else is a
     * bug upstream.  (Variable-argument insts carry their own roles.) */
    if (op >= AIR_NUM_OPCODES)
        bad(inst, "unknown opcode");
    if (!inst->special && inst->nargs && !air_is_valid_form(e->c->target, op, inst->nargs, inst->args))
        bad(inst, "not a valid x86-64 form");
    if (!x86_ops[op].fn) /* the arm64-only opcodes: no x86-64 form is valid, so none gets here */
        bad(inst, "has no x86-64 encoding");
    x86_ops[op].fn(e, b, inst, next, x86_ops[op].p, x86_ops[op].size);
}

/* ---- procedures ---- */

void x86_emitter_init(X86Emitter *e, AirCode *c, X86Asm *a) {
    memset(e, 0, sizeof *e);
    b3_emitter_init(&e->base, c, &a->buffer);
    e->a = a;
    /* Only a call needs rsp 16-byte aligned (patchpoints are counted as calls). */
    bool calls = false;
    for (uint32_t i = 0; i < c->nblocks && !calls; i++)
        for (uint32_t j = 0; j < c->blocks[i]->ninsts && !calls; j++)
            calls =
                c->blocks[i]->insts[j].opcode == Air_Call || c->blocks[i]->insts[j].opcode == Air_Patchpoint;
    B3Reg regs[64];
    e->no_frame = c->omit_frame_pointer && !c->frame_size && !calls && !callee_saves(c, regs);
    e->push_saves = c->target.os == B3OS_MacOS;
}

void x86_emitter_free(X86Emitter *e) {
    b3_emitter_free(&e->base);
    memset(e, 0, sizeof *e);
}

/* ---- the emission driver's hooks (codegen/emit.h) ---- */

/* Where a pass put an instruction's bytes. */
typedef struct {
    uint32_t off, len;
} X86Replay;

/* A procedure's emission: the relaxation marks, kept across passes, and
 * the pass's assembler and emitter; the last pass's code and where each
 * instruction's bytes went (by its number in the pass), for replaying. */
typedef struct {
    X86Relax relax;
    X86Asm a;
    X86Emitter e;
    uint8_t *prev_code;
    X86Replay *prev, *cur;
    uint32_t nprev, ncur, cap_prev, cap_cur;
} X86Emission;

static B3Emitter *pass_begin(void *sp, AirCode *c, B3Frame *frame) {
    X86Emission *s = sp;
    x86_asm_init(&s->a);
    s->a.relax = &s->relax;
    x86_relax_begin(&s->relax);
    x86_emitter_init(&s->e, c, &s->a);
    s->e.frame = frame;
    size_t n = 0;
    for (uint32_t i = 0; i < c->nblocks; i++)
        n += c->blocks[i]->ninsts;
    B3_VEC_RESERVE("x86-64 emitter", s->cur, s->cap_cur, n);
    s->ncur = 0;
    return &s->e.base;
}

static bool pass_again(void *sp) {
    X86Emission *s = sp;
    if (!s->relax.again)
        return false;
    x86_relax_settle(&s->relax, &s->a);
    return true;
}

static void pass_end(void *sp) {
    X86Emission *s = sp;
    x86_emitter_free(&s->e);
    /* The pass's code and records are the next pass's to replay. */
    free(s->prev_code);
    s->prev_code = s->a.buf;
    s->a.buf = NULL;
    X86Replay *t = s->prev;
    uint32_t cap = s->cap_prev;
    s->prev = s->cur;
    s->cap_prev = s->cap_cur;
    s->nprev = s->ncur;
    s->cur = t;
    s->cap_cur = cap;
    s->ncur = 0;
    x86_asm_free(&s->a);
}

static void relax_end(void *sp) {
    X86Emission *s = sp;
    x86_relax_free(&s->relax);
    free(s->prev_code);
    free(s->prev);
    free(s->cur);
}

static void listing_begin(B3Emitter *e, B3EmitListing *l, B3Obj *o) {
    x86_listing_begin(l, ((X86Emitter *)e)->a, o);
}

static void prologue(B3Emitter *e) { x86_emit_prologue((X86Emitter *)e); }

/* A loop's first instructions in one 16-byte fetch block, when that costs
 * at most 10 bytes of nop (gcc's .p2align 4,,10).  A loop entered by a jump
 * (nothing runs into the padding, so it costs no time: int3 bytes) starts
 * at a 32-byte boundary, one window of the decoded-uop cache: collatz's
 * inner loop, entered by a jump to its test between the two arms, ran 11%
 * faster there than across a boundary. */
static void loop_header(B3Emitter *e, uint32_t jumped_align) {
    if (jumped_align)
        x86_align(((X86Emitter *)e)->a, jumped_align, 0xcc);
    else
        x86_align_code(((X86Emitter *)e)->a, 16, 10);
}

/* The emitters whose bytes depend on nothing but the instruction's
 * operands, when those are registers, immediates, conditions and register-
 * or frame-based memory: no label, symbol, relaxation point, frame or
 * stackmap record, and no other state of the pass. */
static bool replayable(const AirInst *inst) {
    static X86OpFn *const pure[] = {
        x86_op_move, x86_op_movx,   x86_op_store_narrow, x86_op_fmove,      x86_op_add,
        x86_op_alu,  x86_op_lea,    x86_op_shift,        x86_op_mul,        x86_op_unary,
        x86_op_sse,  x86_op_to_fpr, x86_op_sse_from_gpr, x86_op_sse_to_gpr, x86_op_compare};
    static uint8_t known[AIR_NUM_OPCODES]; /* by opcode: 0 not yet asked, 1 no, 2 yes */
    if (inst->special || inst->opcode >= AIR_NUM_OPCODES)
        return false;
    if (!known[inst->opcode]) {
        known[inst->opcode] = 1;
        for (size_t i = 0; i < sizeof pure / sizeof pure[0]; i++)
            if (x86_ops[inst->opcode].fn == pure[i])
                known[inst->opcode] = 2;
    }
    if (known[inst->opcode] != 2)
        return false;
    for (uint32_t i = 0; i < inst->nargs; i++)
        if (inst->args[i].kind < AirArg_Tmp || inst->args[i].kind == AirArg_Sym ||
            inst->args[i].kind > AirArg_DoubleCond)
            return false;
    return true;
}

/* One instruction; a pass after the first (branch relaxation assembles a
 * procedure again when a jump turns out long) copies a replayable one's
 * bytes from the pass before instead of encoding it again. */
static uint32_t emit_insts(B3Emitter *be, AirBlock *b, uint32_t j, AirBlock *next) {
    X86Emitter *e = (X86Emitter *)be;
    X86Emission *s = (X86Emission *)((char *)e - offsetof(X86Emission, e));
    AirInst *inst = &b->insts[j];
    uint32_t k = s->ncur++, at = s->a.len;
    B3_VEC_RESERVE("x86-64 emitter", s->cur, s->cap_cur, s->ncur); /* (pass_begin made the room) */
    if (k < s->nprev && !s->a.listing && replayable(inst))
        x86_replay(&s->a, s->prev_code + s->prev[k].off, s->prev[k].len);
    else
        x86_emit_inst(e, b, inst, next);
    s->cur[k] = (X86Replay){at, s->a.len - at};
    return 1;
}

static void jump_tables(B3Emitter *e) { x86_emit_jump_tables((X86Emitter *)e); }

const B3EmitTarget b3_x86_64_emit = {
    .phase = "x86-64 emitter",
    .arch = B3Arch_X86_64,
    .stackmap_stack_extra = 8, /* the return address */
    .state_size = sizeof(X86Emission),
    .pass_begin = pass_begin,
    .pass_again = pass_again,
    .pass_end = pass_end,
    .relax_end = relax_end,
    .listing_begin = listing_begin,
    .prologue = prologue,
    .loop_header = loop_header,
    .jumped_loop_align = 32,
    .emit_insts = emit_insts,
    .jump_tables = jump_tables,
    .compact_unwind = b3_x86_64_compact_unwind,
};
