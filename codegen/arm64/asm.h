/* The low-level AArch64 assembler: encodes instructions into a growable byte
 * buffer of 32-bit little-endian words, with labels (forward references
 * patched when the label is bound) and a list of symbol relocations for the
 * object writer (B3Reloc_A64_*, ELF RELA: the addend lives in the relocation,
 * the field is left zero).
 *
 * Registers are B3Regs (ir/target.h): x0..x30 are 0..30; 31 is sp or the
 * zero register, whichever the operand's field means (the comments say
 * "Rd|SP" where it is sp; everywhere else it is xzr/wzr); v0..v31 are 32+n.
 * `is64` picks the X (64-bit) or W (32-bit) form, `dbl` the D or S form.
 * Conditions are the AArch64 condition numbers (Arm64Cond).
 *
 * With `listing` set, every instruction is also printed there in the GNU/LLVM
 * AArch64 syntax, aliases under their alias names (lsl #n, ubfx, cset, mul,
 * mov, ...); the encoder test (testsuite/encoder/arm64-encoding.test)
 * assembles that text with llvm-mc and compares bytes and relocations, so
 * every encoder here is checked against it.  Labels print as
 * <label_prefix><id>. */
#ifndef B3_ARM64_ASM_H
#define B3_ARM64_ASM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "codegen/asm_buffer.h"
#include "ir/ir.h"
#include "objwriter/obj.h"

#define ARM64_NO_LABEL UINT32_MAX
#define ARM64_SP ((B3Reg)31) /* in an Rd|SP / Rn|SP field */
#define ARM64_ZR ((B3Reg)31) /* anywhere else */
#define ARM64_FP ((B3Reg)29)
#define ARM64_LR ((B3Reg)30)

typedef enum {
    Arm64Cond_EQ,
    Arm64Cond_NE,
    Arm64Cond_HS, /* carry set: unsigned >= */
    Arm64Cond_LO, /* unsigned < */
    Arm64Cond_MI,
    Arm64Cond_PL,
    Arm64Cond_VS,
    Arm64Cond_VC,
    Arm64Cond_HI,
    Arm64Cond_LS,
    Arm64Cond_GE,
    Arm64Cond_LT,
    Arm64Cond_GT,
    Arm64Cond_LE,
    Arm64Cond_AL,
    Arm64Cond_NV,
} Arm64Cond;
static inline Arm64Cond arm64_cond_invert(Arm64Cond c) { return (Arm64Cond)(c ^ 1); }

typedef enum { Arm64Shift_LSL, Arm64Shift_LSR, Arm64Shift_ASR, Arm64Shift_ROR } Arm64Shift;
typedef enum {
    Arm64Ext_UXTB,
    Arm64Ext_UXTH,
    Arm64Ext_UXTW,
    Arm64Ext_UXTX,
    Arm64Ext_SXTB,
    Arm64Ext_SXTH,
    Arm64Ext_SXTW,
    Arm64Ext_SXTX,
} Arm64Extend;

/* A relocation against a symbol, at a buffer offset (an instruction word),
 * and a pending label reference (kind: an Arm64FixKind), of the shared
 * buffer (codegen/asm_buffer.h). */
typedef B3AsmReloc Arm64Reloc;
typedef B3AsmFixup Arm64Fixup;

/* The label-relative fields an instruction can hold. */
typedef enum {
    Arm64Fix_Imm26, /* b, bl */
    Arm64Fix_Imm19, /* b.cond, cbz/cbnz, ldr (literal) */
    Arm64Fix_Imm14, /* tbz/tbnz */
    Arm64Fix_Adr21, /* adr: byte offset in immhi:immlo */
    Arm64Fix_Data32 /* a 32-bit word: label - pc (pc: another label's position) */
} Arm64FixKind;

/* Branch relaxation for the short-range conditional branches (b.cond,
 * cbz/cbnz: +-1 MiB; tbz/tbnz: +-32 KiB), as X86Relax does for x86 jumps:
 * the caller assembles its code in passes with the same Arm64Relax.  Each
 * conditional branch to a label (numbered in the order assembled) starts
 * short; one whose target turns out out of range is marked long and `again`
 * is set, and the caller assembles once more.  A long one is the inverted
 * branch over a `b label` (+-128 MiB).  Marks only grow, so the passes end.
 * Each pass uses a fresh Arm64Asm (its bytes and listing are thrown away when
 * `again`).  Without an Arm64Relax an out-of-range label is an internal error. */
typedef B3AsmRelax Arm64Relax;
void arm64_relax_free(Arm64Relax *r);

typedef struct {
    /* The buffer, labels, relocations and listing, by name (a->len) and as
     * the shared part (codegen/asm_buffer.h). */
    union {
        B3AsmBuffer buffer;
        struct {
            B3_ASM_BUFFER_MEMBERS
        };
    };
    Arm64Relax *relax;  /* optional: conditional branches sized by relaxation */
    uint32_t nbranches; /* relaxable branches assembled so far (their Arm64Relax numbers) */
} Arm64Asm;

void arm64_asm_init(Arm64Asm *a);
void arm64_asm_free(Arm64Asm *a);
/* Internal error if a label is referenced but was never bound. */
void arm64_asm_check_labels(const Arm64Asm *a);
uint32_t arm64_label_new(Arm64Asm *a);
void arm64_bind(Arm64Asm *a, uint32_t label);
static inline bool arm64_label_bound(const Arm64Asm *a, uint32_t l) { return a->label_pos[l] >= 0; }

const char *arm64_cond_name(Arm64Cond c);
/* A register's name: GPRs as x/w (31 as sp/wsp when sp, else xzr/wzr), FPRs
 * by access size in bytes: b h s d q. */
const char *arm64_gpr_name(B3Reg r, bool is64, bool sp);
const char *arm64_fpr_name(B3Reg r, unsigned size);

/* ---- immediates ---- */
/* The N:immr:imms field (13 bits, N at bit 12) of a logical immediate, or
 * false if v is not a bitmask immediate (a rotated run of ones replicated in
 * 2, 4, ..., 64-bit elements; never 0 or all ones).  A 32-bit v must fit 32 bits. */
bool arm64_logical_imm_encode(uint64_t v, bool is64, uint32_t *out);
/* The value a logical immediate field stands for. */
uint64_t arm64_logical_imm_decode(uint32_t nimmrimms, bool is64);
/* The 8-bit FP immediate of fmov (+-(16..31)/16 * 2^(-3..4)), or false.
 * The same values for S and D (every one is exact in both). */
bool arm64_fp_imm_encode(double v, bool dbl, uint8_t *out);
double arm64_fp_imm_decode(uint8_t imm8);
/* add/sub immediates: 0..4095, optionally shifted left by 12. */
static inline bool arm64_addsub_imm_ok(uint64_t v) {
    return v < 4096 || ((v & 0xfff) == 0 && v < (4096u << 12));
}

/* ---- integer arithmetic ---- */
typedef enum { Arm64AddSub_ADD, Arm64AddSub_ADDS, Arm64AddSub_SUB, Arm64AddSub_SUBS } Arm64AddSubOp;
/* op Rd|SP (Rd for the S forms), Rn|SP, #imm12 {, lsl #12}. */
void arm64_addsub_imm(Arm64Asm *a, Arm64AddSubOp op, bool is64, B3Reg rd, B3Reg rn, uint32_t imm12,
                      bool lsl12);
/* op Rd, Rn, Rm {, shift #amount} (no ror). */
void arm64_addsub_shifted(Arm64Asm *a, Arm64AddSubOp op, bool is64, B3Reg rd, B3Reg rn, B3Reg rm,
                          Arm64Shift shift, unsigned amount);
/* op Rd|SP (Rd for the S forms), Rn|SP, Rm, ext {#0..4}.  Rm is a W register
 * unless ext is uxtx/sxtx. */
void arm64_addsub_ext(Arm64Asm *a, Arm64AddSubOp op, bool is64, B3Reg rd, B3Reg rn, B3Reg rm, Arm64Extend ext,
                      unsigned amount);
/* neg/negs Rd, Rm {, shift #n}: sub(s) Rd, ZR, Rm. */
void arm64_neg(Arm64Asm *a, bool setflags, bool is64, B3Reg rd, B3Reg rm, Arm64Shift shift, unsigned amount);
/* cmp/cmn Rn|SP, #imm: subs/adds ZR, Rn, #imm. */
void arm64_cmp_imm(Arm64Asm *a, bool cmn, bool is64, B3Reg rn, uint32_t imm12, bool lsl12);
/* cmp/cmn Rn, Rm {, shift #n}. */
void arm64_cmp(Arm64Asm *a, bool cmn, bool is64, B3Reg rn, B3Reg rm, Arm64Shift shift, unsigned amount);
/* cmp/cmn Rn|SP, Rm, ext {#n}. */
void arm64_cmp_ext(Arm64Asm *a, bool cmn, bool is64, B3Reg rn, B3Reg rm, Arm64Extend ext, unsigned amount);
/* Rd = Rn + imm for any imm the 12-bit field (shifted or not) takes, as add
 * or sub: the caller checks arm64_addsub_imm_ok(|imm|). */
void arm64_add_imm_any(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, int64_t imm);

/* ---- logical ---- */
typedef enum {
    Arm64Logic_AND,
    Arm64Logic_ORR,
    Arm64Logic_EOR,
    Arm64Logic_ANDS,
    Arm64Logic_BIC, /* the N forms: Rm inverted (shifted-register only) */
    Arm64Logic_ORN,
    Arm64Logic_EON,
    Arm64Logic_BICS,
} Arm64LogicOp;
/* op Rd, Rn, Rm {, shift #n} (ror allowed). */
void arm64_logic_shifted(Arm64Asm *a, Arm64LogicOp op, bool is64, B3Reg rd, B3Reg rn, B3Reg rm,
                         Arm64Shift shift, unsigned amount);
/* and/orr/eor Rd|SP, Rn, #imm; ands Rd, Rn, #imm.  imm must be encodable
 * (arm64_logical_imm_encode). */
void arm64_logic_imm(Arm64Asm *a, Arm64LogicOp op, bool is64, B3Reg rd, B3Reg rn, uint64_t imm);
/* tst Rn, #imm / tst Rn, Rm {, shift #n}: ands ZR, ... */
void arm64_tst_imm(Arm64Asm *a, bool is64, B3Reg rn, uint64_t imm);
void arm64_tst(Arm64Asm *a, bool is64, B3Reg rn, B3Reg rm, Arm64Shift shift, unsigned amount);
/* mvn Rd, Rm {, shift #n}: orn Rd, ZR, Rm. */
void arm64_mvn(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rm, Arm64Shift shift, unsigned amount);
/* mov Rd, Rm: orr Rd, ZR, Rm (31 is the zero register). */
void arm64_mov(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rm);
/* mov Rd|SP, Rn|SP: add Rd, Rn, #0 (31 is sp: the frame's mov x29, sp). */
void arm64_mov_sp(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn);

/* ---- move wide and constants ---- */
typedef enum { Arm64MovWide_MOVN = 0, Arm64MovWide_MOVZ = 2, Arm64MovWide_MOVK = 3 } Arm64MovWideOp;
/* op Rd, #imm16, lsl #(16 * hw); hw < 2 for 32-bit. */
void arm64_movwide(Arm64Asm *a, Arm64MovWideOp op, bool is64, B3Reg rd, uint16_t imm16, unsigned hw);
/* Rd = v in the fewest instructions: one orr with a logical immediate,
 * movz or movn + movk for the other halfwords, or orr + one movk.  Returns
 * how many instructions it took.  With is64 false only the low 32 bits count. */
unsigned arm64_mov_imm(Arm64Asm *a, bool is64, B3Reg rd, uint64_t v);
/* How many instructions arm64_mov_imm takes for v (nothing is emitted). */
unsigned arm64_mov_imm_cost(bool is64, uint64_t v);

/* ---- multiply and divide ---- */
typedef enum {
    Arm64Mul_MADD,
    Arm64Mul_MSUB,
    Arm64Mul_SMADDL, /* 64-bit only: Xd = Xa + Wn * Wm, signed */
    Arm64Mul_SMSUBL,
    Arm64Mul_UMADDL,
    Arm64Mul_UMSUBL,
} Arm64MulOp;
/* op Rd, Rn, Rm, Ra. */
void arm64_mul3(Arm64Asm *a, Arm64MulOp op, bool is64, B3Reg rd, B3Reg rn, B3Reg rm, B3Reg ra);
/* The Ra = ZR aliases: mul (MADD), mneg (MSUB), smull (SMADDL), smnegl,
 * umull (UMADDL), umnegl. */
void arm64_mul(Arm64Asm *a, Arm64MulOp op, bool is64, B3Reg rd, B3Reg rn, B3Reg rm);
/* smulh/umulh Xd, Xn, Xm. */
void arm64_mulh(Arm64Asm *a, bool is_signed, B3Reg rd, B3Reg rn, B3Reg rm);

typedef enum {
    Arm64DP2_UDIV = 2,
    Arm64DP2_SDIV = 3,
    Arm64DP2_LSLV = 8,
    Arm64DP2_LSRV = 9,
    Arm64DP2_ASRV = 10,
    Arm64DP2_RORV = 11,
} Arm64DP2Op;
/* op Rd, Rn, Rm (the variable shifts listed as lsl/lsr/asr/ror). */
void arm64_dp2(Arm64Asm *a, Arm64DP2Op op, bool is64, B3Reg rd, B3Reg rn, B3Reg rm);

typedef enum {
    Arm64DP1_RBIT,
    Arm64DP1_REV16,
    Arm64DP1_REV32, /* 64-bit only */
    Arm64DP1_REV,
    Arm64DP1_CLZ,
    Arm64DP1_CLS,
} Arm64DP1Op;
void arm64_dp1(Arm64Asm *a, Arm64DP1Op op, bool is64, B3Reg rd, B3Reg rn);

/* ---- bitfields and shifts by an immediate ---- */
typedef enum { Arm64Bfm_SBFM, Arm64Bfm_BFM, Arm64Bfm_UBFM } Arm64BfmOp;
void arm64_bfm(Arm64Asm *a, Arm64BfmOp op, bool is64, B3Reg rd, B3Reg rn, unsigned immr, unsigned imms);
/* The aliases; lsb + width <= the register width, width >= 1. */
void arm64_lsl_imm(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, unsigned n);
void arm64_lsr_imm(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, unsigned n);
void arm64_asr_imm(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, unsigned n);
void arm64_ror_imm(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, unsigned n); /* extr Rd, Rn, Rn, #n */
void arm64_extr(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, B3Reg rm, unsigned lsb);
void arm64_ubfx(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, unsigned lsb, unsigned width);
void arm64_sbfx(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, unsigned lsb, unsigned width);
void arm64_ubfiz(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, unsigned lsb, unsigned width);
void arm64_sbfiz(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, unsigned lsb, unsigned width);
void arm64_bfi(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, unsigned lsb, unsigned width);
void arm64_bfxil(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, unsigned lsb, unsigned width);
/* Zero/sign extension of the low 1, 2 or 4 bytes of Wn: uxtb/uxth (into a W
 * register; the upper half of X is zeroed anyway), sxtb/sxth into W or X,
 * sxtw into X. */
void arm64_uxt(Arm64Asm *a, B3Reg rd, B3Reg rn, unsigned bytes);
void arm64_sxt(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, unsigned bytes);

/* ---- conditional ---- */
typedef enum { Arm64CSel_CSEL, Arm64CSel_CSINC, Arm64CSel_CSINV, Arm64CSel_CSNEG } Arm64CSelOp;
void arm64_csel(Arm64Asm *a, Arm64CSelOp op, bool is64, B3Reg rd, B3Reg rn, B3Reg rm, Arm64Cond cond);
/* cset (CSINC), csetm (CSINV) Rd, cond: Rd = cond ? 1 (-1) : 0. */
void arm64_cset(Arm64Asm *a, bool mask, bool is64, B3Reg rd, Arm64Cond cond);
/* cinc (CSINC), cinv (CSINV), cneg (CSNEG) Rd, Rn, cond: Rd = cond ? op(Rn) : Rn. */
void arm64_cinc(Arm64Asm *a, Arm64CSelOp op, bool is64, B3Reg rd, B3Reg rn, Arm64Cond cond);
/* ccmp/ccmn Rn, Rm|#imm5, #nzcv, cond. */
void arm64_ccmp(Arm64Asm *a, bool ccmn, bool is64, B3Reg rn, B3Reg rm, unsigned nzcv, Arm64Cond cond);
void arm64_ccmp_imm(Arm64Asm *a, bool ccmn, bool is64, B3Reg rn, unsigned imm5, unsigned nzcv,
                    Arm64Cond cond);

/* ---- branches ---- */
/* Label ranges: b/bl +-128 MiB, b.cond/cbz/cbnz/ldr literal/adr +-1 MiB,
 * tbz/tbnz +-32 KiB (internal error when bound out of range; with a->relax
 * b.cond/cbz/cbnz/tbz/tbnz become long instead, see Arm64Relax). */
void arm64_b(Arm64Asm *a, uint32_t label);
void arm64_bl(Arm64Asm *a, uint32_t label);
void arm64_bcond(Arm64Asm *a, Arm64Cond cond, uint32_t label); /* al, nv: a plain b */
void arm64_cbz(Arm64Asm *a, bool nonzero, bool is64, B3Reg rt, uint32_t label);
/* tbz/tbnz Rt, #bit (X register for bit >= 32). */
void arm64_tbz(Arm64Asm *a, bool nonzero, B3Reg rt, unsigned bit, uint32_t label);
/* b/bl sym+addend: R_AARCH64_JUMP26 / CALL26. */
void arm64_b_sym(Arm64Asm *a, B3Symbol *sym, int64_t addend);
void arm64_bl_sym(Arm64Asm *a, B3Symbol *sym, int64_t addend);
void arm64_br(Arm64Asm *a, B3Reg rn);
void arm64_blr(Arm64Asm *a, B3Reg rn);
void arm64_ret(Arm64Asm *a, B3Reg rn); /* ARM64_LR for the plain ret */

/* ---- addresses ---- */
void arm64_adr(Arm64Asm *a, B3Reg rd, uint32_t label);
/* adr Rd, sym+addend (ADR_PREL_LO21); adrp Rd, sym+addend (ADR_PREL_PG_HI21),
 * or adrp Rd, :got:sym (ADR_GOT_PAGE; addend 0). */
void arm64_adr_sym(Arm64Asm *a, B3Reg rd, B3Symbol *sym, int64_t addend);
void arm64_adrp_sym(Arm64Asm *a, B3Reg rd, B3Symbol *sym, int64_t addend, bool got);
/* add Rd|SP, Rn|SP, :lo12:sym+addend (ADD_ABS_LO12_NC). */
void arm64_add_lo12_sym(Arm64Asm *a, B3Reg rd, B3Reg rn, B3Symbol *sym, int64_t addend);
/* Thread-local addresses (docs/c-extensions.md): local- or initial-exec
 * into rd (initial-exec reads the GOT through scratch); a TLS descriptor
 * call (ELF) or the descriptor's thunk (Mach-O) into x0. */
void arm64_tls_exec(Arm64Asm *a, B3Symbol *sym, bool initial_exec, B3Reg rd, B3Reg scratch);
void arm64_tls_descriptor(Arm64Asm *a, B3Symbol *sym);
void arm64_tls_tlv(Arm64Asm *a, B3Symbol *sym);
/* The GNU as modifier of a symbol operand of this relocation kind
 * (":lo12:", ":got:", ":got_lo12:" or ""). */
const char *arm64_elf_modifier(B3RelocKind kind);

/* ---- loads and stores ---- */
typedef enum {
    Arm64Mem_Offset,    /* [Rn|SP, #off]: scaled unsigned offset if it fits, else unscaled (ldur/stur) */
    Arm64Mem_Unscaled,  /* [Rn|SP, #off], -256..255: always ldur/stur */
    Arm64Mem_PreIndex,  /* [Rn|SP, #off]!, -256..255 */
    Arm64Mem_PostIndex, /* [Rn|SP], #off */
    Arm64Mem_Reg,       /* [Rn|SP, Rm, ext {#log2 size}]: ext UXTW, SXTW (Wm) or UXTX (lsl), SXTX (Xm) */
    Arm64Mem_Lo12,      /* [Rn|SP, :lo12:sym+addend] or [Rn|SP, :got_lo12:sym] */
    Arm64Mem_Literal,   /* a label (ldr only): PC-relative, +-1 MiB */
} Arm64MemMode;

typedef struct {
    uint8_t mode; /* Arm64MemMode */
    B3Reg base, index;
    uint8_t ext; /* Arm64Extend, for Arm64Mem_Reg */
    bool shift;  /* Arm64Mem_Reg: index scaled by the access size */
    bool got;    /* Arm64Mem_Lo12 */
    int64_t off; /* the offset, or the symbol's addend */
    B3Symbol *sym;
    uint32_t label;
} Arm64Mem;

static inline Arm64Mem arm64_mem(B3Reg base, int64_t off) {
    return (Arm64Mem){
        .mode = Arm64Mem_Offset, .base = base, .index = B3_NO_REG, .off = off, .label = ARM64_NO_LABEL};
}
static inline Arm64Mem arm64_mem_mode(Arm64MemMode mode, B3Reg base, int64_t off) {
    return (Arm64Mem){
        .mode = (uint8_t)mode, .base = base, .index = B3_NO_REG, .off = off, .label = ARM64_NO_LABEL};
}
static inline Arm64Mem arm64_mem_reg(B3Reg base, B3Reg index, Arm64Extend ext, bool shift) {
    return (Arm64Mem){.mode = Arm64Mem_Reg,
                      .base = base,
                      .index = index,
                      .ext = (uint8_t)ext,
                      .shift = shift,
                      .label = ARM64_NO_LABEL};
}
static inline Arm64Mem arm64_mem_lo12(B3Reg base, B3Symbol *sym, int64_t addend, bool got) {
    return (Arm64Mem){.mode = Arm64Mem_Lo12,
                      .base = base,
                      .index = B3_NO_REG,
                      .got = got,
                      .off = addend,
                      .sym = sym,
                      .label = ARM64_NO_LABEL};
}
static inline Arm64Mem arm64_mem_literal(uint32_t label) {
    return (Arm64Mem){.mode = Arm64Mem_Literal, .base = B3_NO_REG, .index = B3_NO_REG, .label = label};
}

typedef enum {
    Arm64LdSt_STRB,
    Arm64LdSt_LDRB,
    Arm64LdSt_LDRSBX,
    Arm64LdSt_LDRSBW,
    Arm64LdSt_STRH,
    Arm64LdSt_LDRH,
    Arm64LdSt_LDRSHX,
    Arm64LdSt_LDRSHW,
    Arm64LdSt_STRW,
    Arm64LdSt_LDRW,
    Arm64LdSt_LDRSW,
    Arm64LdSt_STRX,
    Arm64LdSt_LDRX,
    Arm64LdSt_STRFB, /* FP/SIMD registers: b h s d q */
    Arm64LdSt_LDRFB,
    Arm64LdSt_STRFH,
    Arm64LdSt_LDRFH,
    Arm64LdSt_STRFS,
    Arm64LdSt_LDRFS,
    Arm64LdSt_STRFD,
    Arm64LdSt_LDRFD,
    Arm64LdSt_STRFQ,
    Arm64LdSt_LDRFQ,
    ARM64_NUM_LDST
} Arm64LdStOp;
/* The access size in bytes of a load/store. */
unsigned arm64_ldst_size(Arm64LdStOp op);
/* Can op address [base, #off] in a single instruction (scaled or unscaled)? */
bool arm64_ldst_offset_ok(Arm64LdStOp op, int64_t off);
void arm64_ldst(Arm64Asm *a, Arm64LdStOp op, B3Reg rt, const Arm64Mem *m);

typedef enum {
    Arm64Pair_STPW,
    Arm64Pair_LDPW,
    Arm64Pair_LDPSW,
    Arm64Pair_STPX,
    Arm64Pair_LDPX,
    Arm64Pair_STPS,
    Arm64Pair_LDPS,
    Arm64Pair_STPD,
    Arm64Pair_LDPD,
    Arm64Pair_STPQ,
    Arm64Pair_LDPQ,
} Arm64PairOp;
/* op Rt, Rt2, [Rn|SP, #off] (Offset), [Rn|SP, #off]! (PreIndex), [Rn|SP], #off
 * (PostIndex); off a multiple of the register size in -64..63 of them. */
void arm64_ldstp(Arm64Asm *a, Arm64PairOp op, B3Reg rt, B3Reg rt2, const Arm64Mem *m);

/* ---- atomics ---- */
/* size in bytes 1, 2, 4, 8.  Address [Rn|SP]. */
typedef enum {
    Arm64Excl_LDXR,
    Arm64Excl_LDAXR,
    Arm64Excl_STXR, /* stxr Ws, Rt, [Rn] */
    Arm64Excl_STLXR,
    Arm64Excl_LDAR,
    Arm64Excl_STLR,
} Arm64ExclOp;
/* rs: the status register of stxr/stlxr (ignored otherwise). */
void arm64_excl(Arm64Asm *a, Arm64ExclOp op, unsigned size, B3Reg rs, B3Reg rt, B3Reg rn);
/* ARMv8.1 LSE.  cas{a}{l}{b,h} Rs, Rt, [Rn]: compares Rs, stores Rt, Rs gets the old value. */
void arm64_cas(Arm64Asm *a, unsigned size, bool acquire, bool release, B3Reg rs, B3Reg rt, B3Reg rn);
typedef enum {
    Arm64AtomicOp_LDADD,
    Arm64AtomicOp_LDCLR,
    Arm64AtomicOp_LDEOR,
    Arm64AtomicOp_LDSET,
    Arm64AtomicOp_LDSMAX,
    Arm64AtomicOp_LDSMIN,
    Arm64AtomicOp_LDUMAX,
    Arm64AtomicOp_LDUMIN,
    Arm64AtomicOp_SWP,
} Arm64AtomicOp;
/* op{a}{l}{b,h} Rs, Rt, [Rn]: Rt gets the old value, memory op= Rs. */
void arm64_atomic(Arm64Asm *a, Arm64AtomicOp op, unsigned size, bool acquire, bool release, B3Reg rs,
                  B3Reg rt, B3Reg rn);

/* ---- system ---- */
typedef enum {
    Arm64Barrier_ISHLD = 9,
    Arm64Barrier_ISHST = 10,
    Arm64Barrier_ISH = 11,
    Arm64Barrier_SY = 15
} Arm64Barrier;
void arm64_dmb(Arm64Asm *a, Arm64Barrier option);
void arm64_isb(Arm64Asm *a);
void arm64_brk(Arm64Asm *a, uint16_t imm);
void arm64_udf(Arm64Asm *a, uint16_t imm);
void arm64_nop(Arm64Asm *a);
/* n nops (patchpoint padding); many are listed as one .fill. */
void arm64_nops(Arm64Asm *a, uint32_t n);

/* ---- floating point (dbl: D registers, else S) ---- */
typedef enum {
    Arm64FP2_FMUL,
    Arm64FP2_FDIV,
    Arm64FP2_FADD,
    Arm64FP2_FSUB,
    Arm64FP2_FMAX,
    Arm64FP2_FMIN,
    Arm64FP2_FMAXNM,
    Arm64FP2_FMINNM,
    Arm64FP2_FNMUL,
} Arm64FP2Op;
void arm64_fp2(Arm64Asm *a, Arm64FP2Op op, bool dbl, B3Reg rd, B3Reg rn, B3Reg rm);
typedef enum {
    Arm64FP1_FMOV,
    Arm64FP1_FABS,
    Arm64FP1_FNEG,
    Arm64FP1_FSQRT,
    Arm64FP1_FRINTN = 8,
    Arm64FP1_FRINTP,
    Arm64FP1_FRINTM,
    Arm64FP1_FRINTZ,
    Arm64FP1_FRINTA,
    Arm64FP1_FRINTX = 14,
    Arm64FP1_FRINTI,
} Arm64FP1Op;
void arm64_fp1(Arm64Asm *a, Arm64FP1Op op, bool dbl, B3Reg rd, B3Reg rn);
/* fcvt: to_dbl Dd, Sn, else Sd, Dn. */
void arm64_fcvt(Arm64Asm *a, bool to_dbl, B3Reg rd, B3Reg rn);
typedef enum { Arm64FP3_FMADD, Arm64FP3_FMSUB, Arm64FP3_FNMADD, Arm64FP3_FNMSUB } Arm64FP3Op;
/* op Rd, Rn, Rm, Ra: fmadd Ra + Rn*Rm, fmsub Ra - Rn*Rm, fnmadd -Ra - Rn*Rm, fnmsub -Ra + Rn*Rm. */
void arm64_fp3(Arm64Asm *a, Arm64FP3Op op, bool dbl, B3Reg rd, B3Reg rn, B3Reg rm, B3Reg ra);
/* fcmp/fcmpe Rn, Rm; rm == B3_NO_REG compares with #0.0. */
void arm64_fcmp(Arm64Asm *a, bool signaling, bool dbl, B3Reg rn, B3Reg rm);
void arm64_fcsel(Arm64Asm *a, bool dbl, B3Reg rd, B3Reg rn, B3Reg rm, Arm64Cond cond);
/* Integer <-> FP.  scvtf/ucvtf Fd, Rn; fcvtzs/fcvtzu Rd, Fn (round toward
 * zero, saturating: NaN -> 0). */
void arm64_cvtf(Arm64Asm *a, bool is_signed, bool dbl, bool is64, B3Reg rd, B3Reg rn);
void arm64_fcvtz(Arm64Asm *a, bool is_signed, bool dbl, bool is64, B3Reg rd, B3Reg rn);
/* fmov between a GPR and an FPR of the same size: Wn <-> Sn, Xn <-> Dn. */
void arm64_fmov_to_fpr(Arm64Asm *a, bool dbl, B3Reg rd, B3Reg rn);
void arm64_fmov_to_gpr(Arm64Asm *a, bool dbl, B3Reg rd, B3Reg rn);
/* mov vd.d[1], xn / mov xd, vn.d[1]: the high half of a 128-bit register. */
void arm64_mov_to_high_lane(Arm64Asm *a, B3Reg vd, B3Reg xn);
void arm64_mov_from_high_lane(Arm64Asm *a, B3Reg xd, B3Reg vn);
/* fmov Fd, #imm: imm must be encodable (arm64_fp_imm_encode). */
void arm64_fmov_imm(Arm64Asm *a, bool dbl, B3Reg rd, double imm);

/* ---- data and padding ---- */
/* A 32-bit word holding target - base (both labels of this buffer): jump tables. */
void arm64_data32_label_diff(Arm64Asm *a, uint32_t target, uint32_t base);
void arm64_data32(Arm64Asm *a, uint32_t v);
void arm64_data64(Arm64Asm *a, uint64_t v);
/* Pads with nops to a multiple of align (a power of two >= 4), relative to the buffer start. */
void arm64_align_code(Arm64Asm *a, uint32_t align);

#endif
