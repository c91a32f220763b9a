/* The low-level x86-64 assembler: encodes instructions into a growable byte
 * buffer, with labels (forward references patched when the label is bound)
 * and a list of symbol relocations for the object writer.
 *
 * Registers are B3Regs (ir/target.h): GPRs 0..15, XMM n = 32 + n.  Operand
 * order follows AT&T: sources first, destination last.  Every instruction is
 * encoded in the form llvm-mc picks for the same AT&T text (short immediates,
 * accumulator forms, D1 for shifts by one), so that the encoder test can
 * compare bytes exactly.
 *
 * With `listing` set, every instruction is also printed there in AT&T syntax
 * (labels as <label_prefix><id>, raw bytes such as nops as .byte); the
 * encoder test assembles that text with llvm-mc and compares, and -S
 * (codegen/x86_64/listing.c) writes it out.  Each listing line's end offset
 * is recorded in listing_end, so a caller can put text of its own (symbols,
 * labels) between instructions. */
#ifndef B3_X86_ASM_H
#define B3_X86_ASM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "codegen/asm_buffer.h"
#include "codegen/x86_64/regs.h"
#include "ir/ir.h"
#include "objwriter/obj.h"

#define X86_NO_LABEL UINT32_MAX
#define X86_RIP ((B3Reg)0xfe) /* X86Mem.base of a RIP-relative operand */

/* A memory operand: base + index*scale + disp, or RIP-relative to a symbol
 * (a relocation) or to a label of this buffer (a fixup). */
typedef struct {
    B3Reg base;     /* GPR, or X86_RIP */
    B3Reg index;    /* GPR other than rsp, or B3_NO_REG */
    uint8_t scale;  /* 1, 2, 4, 8 */
    bool got;       /* RIP: sym@GOTPCREL (load the address from the GOT) */
    int32_t disp;   /* RIP: the addend to the symbol/label */
    B3Symbol *sym;  /* RIP: target symbol, or NULL */
    uint32_t label; /* RIP: target label, or X86_NO_LABEL */
} X86Mem;

/* A register-or-memory operand (ModRM.rm). */
typedef struct {
    bool is_mem;
    B3Reg reg;
    X86Mem mem;
} X86RM;

static inline X86Mem x86_mem(B3Reg base, int32_t disp) {
    return (X86Mem){.base = base, .index = B3_NO_REG, .scale = 1, .disp = disp, .label = X86_NO_LABEL};
}
static inline X86Mem x86_mem_index(B3Reg base, B3Reg index, unsigned scale, int32_t disp) {
    return (X86Mem){
        .base = base, .index = index, .scale = (uint8_t)scale, .disp = disp, .label = X86_NO_LABEL};
}
static inline X86Mem x86_mem_sym(B3Symbol *s, int32_t addend, bool got) {
    return (X86Mem){.base = X86_RIP,
                    .index = B3_NO_REG,
                    .scale = 1,
                    .got = got,
                    .disp = addend,
                    .sym = s,
                    .label = X86_NO_LABEL};
}
static inline X86Mem x86_mem_label(uint32_t label, int32_t addend) {
    return (X86Mem){.base = X86_RIP, .index = B3_NO_REG, .scale = 1, .disp = addend, .label = label};
}
static inline X86RM x86_rm_reg(B3Reg r) { return (X86RM){.is_mem = false, .reg = r}; }
static inline X86RM x86_rm_mem(X86Mem m) { return (X86RM){.is_mem = true, .reg = B3_NO_REG, .mem = m}; }

/* A relocation against a symbol, and a pending label reference (kind: the
 * field's size, 1 or 4 bytes), of the shared buffer (codegen/asm_buffer.h). */
typedef B3AsmReloc X86Reloc;
typedef B3AsmFixup X86Fixup;

/* Branch relaxation (what an assembler does with `jmp label`): the caller
 * assembles its code in passes with the same X86Relax.  Every jump to a
 * label (x86_jcc, x86_jmp; numbered in the order they are assembled) starts
 * as rel8; one whose target turns out out of range is marked long and
 * `again` is set, and the caller assembles the code once more.  Marks only
 * ever grow, so the passes end, at the least set of long jumps: the one GNU
 * as and llvm-mc reach for the same text, which is why -S needs no {disp32}. */
typedef struct {
    uint32_t off;  /* in the pass's code */
    uint32_t arg;  /* jump: its label; alignment: the alignment */
    uint32_t jump; /* jump: its number; code alignment: the most padding */
    uint8_t kind;  /* X86RelaxPointKind (asm.c) */
    uint8_t size;  /* bytes in the pass */
} X86RelaxPoint;
typedef struct {
    uint8_t *is_long; /* per jump number */
    uint32_t n, cap;
    bool again; /* a jump was marked long in this pass */
    /* What the last pass put where: its jumps and alignment paddings, the
     * only code whose size depends on where it lands. */
    X86RelaxPoint *points;
    uint32_t npoints, cap_points;
} X86Relax;
void x86_relax_free(X86Relax *r);
/* Start a pass (clears again and the recorded points). */
void x86_relax_begin(X86Relax *r);
/* After a pass that set again: mark long every jump the next passes would,
 * working from the pass's layout alone, so that the next pass is the last
 * (each pass of the old loop re-assembled the whole procedure). */
struct X86Asm;
void x86_relax_settle(X86Relax *r, const struct X86Asm *a);

typedef struct X86Asm {
    /* The buffer, labels, relocations and listing, by name (a->len) and as
     * the shared part (codegen/asm_buffer.h).  The listing is AT&T syntax. */
    union {
        B3AsmBuffer buffer;
        struct {
            B3_ASM_BUFFER_MEMBERS
        };
    };
    bool listing_disp32; /* rel32 jumps as "{disp32} j..": the assembler keeps every jump's size */
    X86Relax *relax; /* optional: jumps sized by relaxation (else rel8 only back to a bound label in range) */
    uint32_t njumps; /* jumps assembled so far (their X86Relax numbers) */
} X86Asm;

void x86_asm_init(X86Asm *a);
void x86_asm_free(X86Asm *a);
/* Appends n bytes an earlier pass assembled for the same instruction (one
 * whose encoding depends on nothing but its operands; not with a listing). */
void x86_replay(X86Asm *a, const uint8_t *bytes, uint32_t n);
/* Internal error if a label is referenced but was never bound. */
void x86_asm_check_labels(const X86Asm *a);

uint32_t x86_label_new(X86Asm *a);
void x86_bind(X86Asm *a, uint32_t label);
static inline bool x86_label_bound(const X86Asm *a, uint32_t l) { return a->label_pos[l] >= 0; }

/* The condition codes (the low nibble of jcc, setcc, cmovcc); a code and its
 * negation differ in the low bit. */
enum {
    X86_CC_O,
    X86_CC_NO,
    X86_CC_B,
    X86_CC_AE,
    X86_CC_E,
    X86_CC_NE,
    X86_CC_BE,
    X86_CC_A,
    X86_CC_S,
    X86_CC_NS,
    X86_CC_P,
    X86_CC_NP,
    X86_CC_L,
    X86_CC_GE,
    X86_CC_LE,
    X86_CC_G,
};
const char *x86_cc_name(unsigned cc);
/* Register names (no '%') for a width in bytes (XMM registers ignore it). */
const char *x86_reg_name(B3Reg r, unsigned size);

/* ---- integer ---- */
typedef enum {
    X86Alu_Add = 0,
    X86Alu_Or = 1,
    X86Alu_Adc = 2,
    X86Alu_Sbb = 3,
    X86Alu_And = 4,
    X86Alu_Sub = 5,
    X86Alu_Xor = 6,
    X86Alu_Cmp = 7,
} X86AluOp;
typedef enum {
    X86Shift_Rol = 0,
    X86Shift_Ror = 1,
    X86Shift_Shl = 4,
    X86Shift_Shr = 5,
    X86Shift_Sar = 7
} X86ShiftOp;
typedef enum {
    X86Unary_Not = 2,
    X86Unary_Neg = 3,
    X86Unary_Mul = 4,
    X86Unary_IMul = 5,
    X86Unary_Div = 6,
    X86Unary_IDiv = 7
} X86UnaryOp;
typedef enum { X86Ext_Movzbl, X86Ext_Movzwl, X86Ext_Movsbl, X86Ext_Movswl, X86Ext_Movslq } X86ExtOp;

/* op src, dst: at most one memory operand.  size is 1, 2, 4 or 8 bytes. */
void x86_alu(X86Asm *a, X86AluOp op, unsigned size, const X86RM *src, const X86RM *dst);
void x86_alu_imm(X86Asm *a, X86AluOp op, unsigned size, int32_t imm, const X86RM *dst);
void x86_test(X86Asm *a, unsigned size, B3Reg src, const X86RM *dst);
void x86_test_imm(X86Asm *a, unsigned size, int32_t imm, const X86RM *dst);
void x86_mov(X86Asm *a, unsigned size, const X86RM *src, const X86RM *dst);
/* mov $imm: size 8 into a register takes any value (movabsq when it does not
 * fit a sign-extended 32-bit field); otherwise imm must fit the field. */
void x86_mov_imm(X86Asm *a, unsigned size, int64_t imm, const X86RM *dst);
void x86_movx(X86Asm *a, X86ExtOp op, const X86RM *src, B3Reg dst);
void x86_lea(X86Asm *a, unsigned size, const X86Mem *m, B3Reg dst);
void x86_imul(X86Asm *a, unsigned size, const X86RM *src, B3Reg dst);
void x86_imul_imm(X86Asm *a, unsigned size, int32_t imm, const X86RM *src, B3Reg dst);
void x86_unary(X86Asm *a, X86UnaryOp op, unsigned size, const X86RM *dst);
void x86_shift_cl(X86Asm *a, X86ShiftOp op, unsigned size, const X86RM *dst);
void x86_shift_imm(X86Asm *a, X86ShiftOp op, unsigned size, uint8_t imm, const X86RM *dst);
void x86_bswap(X86Asm *a, unsigned size, B3Reg r);
void x86_cdq(X86Asm *a);
void x86_cqo(X86Asm *a);
void x86_bsr(X86Asm *a, unsigned size, const X86RM *src, B3Reg dst);
void x86_cmov(X86Asm *a, unsigned cc, unsigned size, const X86RM *src, B3Reg dst);
void x86_setcc(X86Asm *a, unsigned cc, const X86RM *dst);

/* ---- atomics ---- */
/* The lock prefix (F0) of the next instruction (x86_alu/x86_alu_imm to memory, cmpxchg, xadd). */
void x86_lock(X86Asm *a);
/* cmpxchg src, dst: compares the accumulator with dst (size 1, 2, 4 or 8). */
void x86_cmpxchg(X86Asm *a, unsigned size, B3Reg src, const X86RM *dst);
void x86_xadd(X86Asm *a, unsigned size, B3Reg src, const X86RM *dst);
/* xchg src, (mem): memory form only (implicitly locked). */
void x86_xchg(X86Asm *a, unsigned size, B3Reg src, const X86Mem *dst);

/* ---- SSE ---- */
typedef enum {
    X86Sse_Addsd,
    X86Sse_Addss,
    X86Sse_Subsd,
    X86Sse_Subss,
    X86Sse_Mulsd,
    X86Sse_Mulss,
    X86Sse_Divsd,
    X86Sse_Divss,
    X86Sse_Sqrtsd,
    X86Sse_Sqrtss,
    X86Sse_Andpd,
    X86Sse_Andps,
    X86Sse_Orpd,
    X86Sse_Orps,
    X86Sse_Xorpd,
    X86Sse_Xorps,
    X86Sse_Cvtsd2ss,
    X86Sse_Cvtss2sd,
    X86Sse_Movaps,    /* xmm -> xmm */
    X86Sse_MovsdLoad, /* m64 -> xmm */
    X86Sse_MovssLoad, /* m32 -> xmm */
    X86Sse_MovqLoad,  /* m64 -> xmm (movq, F3 0F 7E) */
    X86Sse_Ucomisd,   /* ucomisd src, dst: flags of dst compared with src */
    X86Sse_Ucomiss,
    X86Sse_Cvtsi2sdl,
    X86Sse_Cvtsi2sdq,
    X86Sse_Cvtsi2ssl,
    X86Sse_Cvtsi2ssq, /* r/m32|64 -> xmm */
    X86Sse_MovdToXmm, /* r/m32 -> xmm */
    X86Sse_MovqToXmm, /* r64 -> xmm */
    X86Sse_Cvttsd2si32,
    X86Sse_Cvttsd2si64,
    X86Sse_Cvttss2si32,
    X86Sse_Cvttss2si64, /* xmm -> r32|64 */
    X86Sse_MovsdStore,  /* xmm -> m64 */
    X86Sse_MovssStore,  /* xmm -> m32 */
    X86Sse_MovdFromXmm, /* xmm -> r32 */
    X86Sse_MovqFromXmm, /* xmm -> r64 */
    X86_NUM_SSE_OPS
} X86SseOp;

/* op src, dst; the operand the instruction keeps in ModRM.reg must be a register. */
void x86_sse(X86Asm *a, X86SseOp op, const X86RM *src, const X86RM *dst);
/* roundsd/roundss $mode, src, dst (SSE4.1).  mode 0x0A ceil, 0x09 floor. */
void x86_round(X86Asm *a, bool dbl, uint8_t mode, const X86RM *src, B3Reg dst);

/* ---- control flow ---- */
/* With a->relax, the size relaxation gives it; without, rel8 if the label
 * is bound and in range, else rel32. */
void x86_jcc(X86Asm *a, unsigned cc, uint32_t label);
void x86_jmp(X86Asm *a, uint32_t label);
/* Always rel8: for short forward skips (internal error at bind if out of range). */
void x86_jcc_short(X86Asm *a, unsigned cc, uint32_t label);
void x86_jmp_rm(X86Asm *a, const X86RM *target);
void x86_call_rm(X86Asm *a, const X86RM *target);
/* call sym+addend (R_X86_64_PLT32; PC32 with a non-zero addend). */
void x86_call_sym(X86Asm *a, B3Symbol *sym, int64_t addend);
/* Thread-local addresses (docs/c-extensions.md): local- or initial-exec
 * into dst; general-dynamic and Mach-O's descriptor call into %rax. */
void x86_tls_exec(X86Asm *a, B3Symbol *sym, bool initial_exec, B3Reg dst);
void x86_tls_general_dynamic(X86Asm *a, B3Symbol *sym, B3Symbol *tls_get_addr);
void x86_tls_tlv(X86Asm *a, B3Symbol *sym);
void x86_push(X86Asm *a, B3Reg r);
void x86_pop(X86Asm *a, B3Reg r);
void x86_ret(X86Asm *a);
void x86_leave(X86Asm *a);
void x86_ud2(X86Asm *a);
void x86_mfence(X86Asm *a);

/* ---- x87 (the X87 opcode: C's long double) ---- */
typedef enum {
    X87_Fldt,    /* push an 80-bit value */
    X87_Fstpt,   /* pop to an 80-bit value */
    X87_Fildl,   /* push an int32 */
    X87_Fildll,  /* push an int64 */
    X87_Fistpll, /* pop to an int64, rounded by the control word */
    X87_Flds,
    X87_Fstps,
    X87_Fldl,
    X87_Fstpl,
    X87_Fnstcw, /* store the control word */
    X87_Fldcw,  /* load it */
    X87_NUM_MEM
} X86X87Mem;
void x86_x87_mem(X86Asm *a, X86X87Mem op, const X86Mem *m);
typedef enum {
    X87_Faddp, /* st(1) = st(1) op st(0), pop */
    X87_Fsubp,
    X87_Fmulp,
    X87_Fdivp,
    X87_Fchs,
    X87_Fabs,
    X87_Fucomip, /* compare st(0) with st(1) into ZF, PF, CF (as ucomisd), pop */
    X87_Fpop,    /* fstp %st(0) */
    X87_NUM_REG
} X86X87Reg;
void x86_x87(X86Asm *a, X86X87Reg op);

/* ---- raw bytes and data ---- */
/* n bytes of (multi-byte) no-ops. */
void x86_nops(X86Asm *a, uint32_t n);
/* Pads with `fill` bytes to a multiple of align (relative to the buffer start). */
void x86_align(X86Asm *a, uint32_t align, uint8_t fill);
/* Pads with one multi-byte nop to a multiple of align when that takes at most
 * max (<= 10) bytes, as `.p2align log2(align),,max` does in GNU as and llvm-mc. */
void x86_align_code(X86Asm *a, uint32_t align, uint32_t max);
/* A 32-bit word holding target - base (both labels of this buffer). */
void x86_data32_label_diff(X86Asm *a, uint32_t target, uint32_t base);

#endif
