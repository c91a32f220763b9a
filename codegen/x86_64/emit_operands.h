/* Operand accessors of the x86-64 emitter, shared by emit.c and emit_atomics.c
 * (private to them: the names are short), and the condition codes of Air's
 * conditions.  Each reports an inst that does not have the operand it needs
 * as an internal error.  Below the emitter: it needs nothing of emit.c. */
#ifndef B3_X86_EMIT_OPERANDS_H
#define B3_X86_EMIT_OPERANDS_H

#include "codegen/air/air.h"
#include "codegen/x86_64/asm.h"
#include "ir/diag.h"

_Noreturn static inline void bad(const AirInst *inst, const char *why) {
    b3_internal_error("x86-64 emitter", "%s (%u args): %s",
                      inst->opcode < AIR_NUM_OPCODES ? air_opcode_names[inst->opcode] : "?", inst->nargs,
                      why);
}

static inline const AirArg *arg(const AirInst *inst, unsigned i) {
    if (i >= inst->nargs)
        bad(inst, "missing argument");
    return &inst->args[i];
}

static inline B3Reg gpr(const AirInst *inst, unsigned i) {
    const AirArg *a = arg(inst, i);
    if (a->kind != AirArg_Tmp || a->base >= 16)
        bad(inst, "expected a general-purpose register");
    return (B3Reg)a->base;
}

static inline int32_t disp32(const AirInst *inst, int64_t v) {
    if (v < INT32_MIN || v > INT32_MAX)
        bad(inst, "address offset does not fit 32 bits");
    return (int32_t)v;
}

static inline B3Reg addr_reg(const AirInst *inst, AirTmp t) {
    if (t >= 16)
        bad(inst, "address register is not a general-purpose register");
    return (B3Reg)t;
}

/* Memory operands.  Stack and CallArg should have been rewritten by
 * air_allocate_stack; they get the same addresses here.  A GOT symbol is
 * allowed only where allow_got says so (Move), and without an offset. */
static inline X86Mem mem_of(const AirInst *inst, unsigned i, bool allow_got) {
    const AirArg *a = arg(inst, i);
    switch (a->kind) {
    case AirArg_Addr:
        return x86_mem(addr_reg(inst, a->base), disp32(inst, a->value));
    case AirArg_Index:
        if (a->index == B3X_rsp)
            bad(inst, "%rsp cannot be an index register");
        return x86_mem_index(addr_reg(inst, a->base), addr_reg(inst, a->index), a->scale,
                             disp32(inst, a->value));
    case AirArg_Stack:
        if (!a->u.slot)
            bad(inst, "Stack arg without a slot");
        return x86_mem(B3X_rbp, disp32(inst, a->u.slot->offset + a->value));
    case AirArg_CallArg:
        return x86_mem(B3X_rsp, disp32(inst, a->value));
    case AirArg_Sym:
        if (a->got && !allow_got)
            bad(inst, "GOT symbol operand outside Move");
        if (a->got && a->value)
            bad(inst, "GOT symbol operand with an offset");
        return x86_mem_sym(a->u.sym, disp32(inst, a->value), a->got);
    default:
        bad(inst, "expected a memory operand");
    }
}

/* The x86 condition code (X86_CC_*) of an Air integer or result condition. */
static inline unsigned x86_cc(AirCond c) {
    static const uint8_t cc[AirCond_NUM] = {
        [AirCond_Equal] = X86_CC_E,
        [AirCond_NotEqual] = X86_CC_NE,
        [AirCond_Above] = X86_CC_A,
        [AirCond_BelowOrEqual] = X86_CC_BE,
        [AirCond_AboveOrEqual] = X86_CC_AE,
        [AirCond_Below] = X86_CC_B,
        [AirCond_GreaterThan] = X86_CC_G,
        [AirCond_LessThanOrEqual] = X86_CC_LE,
        [AirCond_GreaterThanOrEqual] = X86_CC_GE,
        [AirCond_LessThan] = X86_CC_L,
        [AirCond_Overflow] = X86_CC_O,
        [AirCond_NoOverflow] = X86_CC_NO,
        [AirCond_Signed] = X86_CC_S,
        [AirCond_PositiveOrZero] = X86_CC_NS,
    };
    return cc[c];
}

/* The x86 condition code of a RelCond or ResCond (kind) argument. */
static inline unsigned cond_of(const AirInst *inst, unsigned i, AirArgKind kind) {
    const AirArg *a = arg(inst, i);
    if (a->kind != kind || a->cond >= AirCond_NUM)
        bad(inst, "expected a condition");
    return x86_cc((AirCond)a->cond);
}

#endif
