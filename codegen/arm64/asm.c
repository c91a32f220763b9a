/* The low-level AArch64 assembler (see asm.h).  Every instruction is one
 * 32-bit word: an encoder ORs its fields into the form's base pattern and
 * prints the same instruction in the listing.  The base patterns and field
 * positions are those of the Arm Architecture Reference Manual (A64 encoding
 * index); the encoder test checks every one against llvm-mc. */
#include "codegen/arm64/asm.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ir/diag.h"
#include "util/bits.h"

#define PHASE "arm64 assembler"

/* ---- buffer (codegen/asm_buffer.h) ---- */

static void put32(Arm64Asm *a, uint32_t v) { b3_asm_put32(&a->buffer, v); }
static uint32_t get32(const Arm64Asm *a, uint32_t pos) { return b3_asm_get32(&a->buffer, pos); }
static void patch32(Arm64Asm *a, uint32_t pos, uint32_t v) { b3_asm_patch32(&a->buffer, pos, v); }

static void resolve(B3AsmBuffer *b, const Arm64Fixup *f);

void arm64_asm_init(Arm64Asm *a) {
    memset(a, 0, sizeof *a);
    b3_asm_buffer_init(&a->buffer, PHASE, resolve);
}

void arm64_asm_free(Arm64Asm *a) {
    b3_asm_buffer_free(&a->buffer);
    memset(a, 0, sizeof *a);
}

static bool fits_signed(int64_t v, unsigned bits) {
    return v >= -((int64_t)1 << (bits - 1)) && v < ((int64_t)1 << (bits - 1));
}

/* ---- registers and listing ---- */

#define NAMES(p)                                                                                            \
    {                                                                                                       \
        p "0", p "1", p "2", p "3", p "4", p "5", p "6", p "7", p "8", p "9", p "10", p "11", p "12",       \
            p "13", p "14", p "15", p "16", p "17", p "18", p "19", p "20", p "21", p "22", p "23", p "24", \
            p "25", p "26", p "27", p "28", p "29", p "30", p "31"                                          \
    }
static const char *const xnames[32] = NAMES("x");
static const char *const wnames[32] = NAMES("w");
static const char *const bnames[32] = NAMES("b");
static const char *const hnames[32] = NAMES("h");
static const char *const snames[32] = NAMES("s");
static const char *const dnames[32] = NAMES("d");
static const char *const qnames[32] = NAMES("q");

static unsigned gpr(B3Reg r) {
    if (r > 31)
        b3_internal_error(PHASE, "register %u is not a general-purpose register", r);
    return r;
}
static unsigned fpr(B3Reg r) {
    if (!b3_reg_is_fpr(r))
        b3_internal_error(PHASE, "register %u is not a floating-point register", r);
    return r - B3_FPR_BASE;
}

const char *arm64_gpr_name(B3Reg r, bool is64, bool sp) {
    if (r == 31)
        return sp ? (is64 ? "sp" : "wsp") : (is64 ? "xzr" : "wzr");
    return is64 ? xnames[gpr(r)] : wnames[gpr(r)];
}

const char *arm64_fpr_name(B3Reg r, unsigned size) {
    unsigned n = fpr(r);
    switch (size) {
    case 1:
        return bnames[n];
    case 2:
        return hnames[n];
    case 4:
        return snames[n];
    case 8:
        return dnames[n];
    default:
        return qnames[n];
    }
}

const char *arm64_cond_name(Arm64Cond c) {
    static const char *const names[16] = {"eq", "ne", "hs", "lo", "mi", "pl", "vs", "vc",
                                          "hi", "ls", "ge", "lt", "gt", "le", "al", "nv"};
    return names[c & 15];
}

/* Short names for the listing: X/W registers with 31 as the zero register or sp. */
static const char *rz(B3Reg r, bool is64) { return arm64_gpr_name(r, is64, false); }
static const char *rs(B3Reg r, bool is64) { return arm64_gpr_name(r, is64, true); }
static const char *fr(B3Reg r, bool dbl) { return arm64_fpr_name(r, dbl ? 8 : 4); }

static const char *const shift_names[4] = {"lsl", "lsr", "asr", "ror"};
static const char *const ext_names[8] = {"uxtb", "uxth", "uxtw", "uxtx", "sxtb", "sxth", "sxtw", "sxtx"};

/* Ends a listing line: it lists the bytes up to the current length (so an
 * instruction is listed after its word is put). */
static void lend(Arm64Asm *a) { b3_asm_list_end(&a->buffer); }

/* One listing line: a tab, the instruction, a newline. */
static void lst(Arm64Asm *a, const char *fmt, ...) B3_PRINTF(2, 3);
static void lst(Arm64Asm *a, const char *fmt, ...) {
    if (!a->listing)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputc('\t', a->listing);
    vfprintf(a->listing, fmt, ap);
    va_end(ap);
    lend(a);
}
static void llabel(Arm64Asm *a, uint32_t l) { b3_asm_list_label(&a->buffer, l); }
/* An add/sub/cmp immediate's text: hex when that reads rounder (asm_buffer.h). */
static const char *limm12(char buf[16], uint32_t imm12) {
    snprintf(buf, 16, b3_asm_imm_reads_hex(imm12) ? "0x%x" : "%u", imm12);
    return buf;
}
const char *arm64_elf_modifier(B3RelocKind kind) {
    switch (kind) {
    case B3Reloc_A64_AdrGotPage:
        return ":got:";
    case B3Reloc_A64_Ld64GotLo12:
        return ":got_lo12:";
    case B3Reloc_A64_AddAbsLo12:
    case B3Reloc_A64_Ldst8Lo12:
    case B3Reloc_A64_Ldst16Lo12:
    case B3Reloc_A64_Ldst32Lo12:
    case B3Reloc_A64_Ldst64Lo12:
    case B3Reloc_A64_Ldst128Lo12:
        return ":lo12:";
    case B3Reloc_A64_TprelHi12:
        return ":tprel_hi12:";
    case B3Reloc_A64_TprelLo12Nc:
        return ":tprel_lo12_nc:";
    case B3Reloc_A64_GottprelPage21:
        return ":gottprel:";
    case B3Reloc_A64_GottprelLo12Nc:
        return ":gottprel_lo12:";
    case B3Reloc_A64_TlsdescPage21:
        return ":tlsdesc:";
    case B3Reloc_A64_TlsdescLd64Lo12:
    case B3Reloc_A64_TlsdescAddLo12:
        return ":tlsdesc_lo12:";
    default:
        return "";
    }
}

/* A symbol operand of a relocation of this kind, then its addend: the
 * listing's symbol printer spells the name and the kind's modifier as the
 * object format's assembler does (:lo12:sym on ELF, _sym@PAGEOFF on Mach-O). */
static void lsym(Arm64Asm *a, const B3Symbol *s, B3RelocKind kind, int64_t addend) {
    if (a->listing_sym)
        a->listing_sym(a->listing_ctx, a->listing, s, kind);
    else
        fprintf(a->listing, "%s%.*s", arm64_elf_modifier(kind), (int)s->name_len, s->name);
    if (addend)
        fprintf(a->listing, "%+" PRId64, addend);
}
/* ", <shift> #n" unless it is lsl #0. */
static void lshift(Arm64Asm *a, Arm64Shift shift, unsigned amount) {
    if (shift != Arm64Shift_LSL || amount)
        fprintf(a->listing, ", %s #%u", shift_names[shift], amount);
}

/* ---- labels and relocations ---- */

uint32_t arm64_label_new(Arm64Asm *a) { return b3_asm_label_new(&a->buffer); }

/* The field of a reference is an Arm64FixKind. */
static void resolve(B3AsmBuffer *b, const Arm64Fixup *f) {
    Arm64Asm *a = (Arm64Asm *)b;
    int64_t v = a->label_pos[f->label] - f->pc;
    uint32_t w = get32(a, f->pos);
    static const unsigned bits[] = {26, 19, 14};
    switch ((Arm64FixKind)f->kind) {
    case Arm64Fix_Imm26:
    case Arm64Fix_Imm19:
    case Arm64Fix_Imm14: {
        unsigned n = bits[f->kind];
        if (!fits_signed(v >> 2, n) && f->branch && a->relax) {
            /* Too far: long in the next pass (this pass's bytes are thrown away). */
            a->relax->is_long[f->branch - 1] = 1;
            a->relax->again = true;
            return;
        }
        if (v & 3 || !fits_signed(v >> 2, n))
            b3_internal_error(PHASE, "label %u out of range of a %u-bit branch (%" PRId64 ")", f->label, n,
                              v);
        uint32_t field = (uint32_t)(v >> 2) & ((1u << n) - 1);
        w |= f->kind == Arm64Fix_Imm26 ? field : field << 5;
        break;
    }
    case Arm64Fix_Adr21:
        if (!fits_signed(v, 21))
            b3_internal_error(PHASE, "label %u out of range of adr (%" PRId64 ")", f->label, v);
        w |= ((uint32_t)v & 3) << 29 | (((uint32_t)(v >> 2)) & 0x7ffff) << 5;
        break;
    case Arm64Fix_Data32:
        w = (uint32_t)(int32_t)v;
        break;
    }
    patch32(a, f->pos, w);
}

void arm64_bind(Arm64Asm *a, uint32_t l) { b3_asm_bind(&a->buffer, l); }

void arm64_asm_check_labels(const Arm64Asm *a) { b3_asm_check_labels(&a->buffer); }

void arm64_relax_free(Arm64Relax *r) { b3_asm_relax_free(r); }

/* The word at pos refers to label (relative to pc); branch: its relaxation number + 1, or 0. */
static void label_ref(Arm64Asm *a, uint32_t label, uint32_t pos, int64_t pc, Arm64FixKind kind,
                      uint32_t branch) {
    b3_asm_label_ref(
        &a->buffer,
        (Arm64Fixup){.pos = pos, .label = label, .pc = pc, .kind = (uint8_t)kind, .branch = branch});
}

/* Emits an instruction word that refers to a label. */
static void put_label_branch(Arm64Asm *a, uint32_t w, uint32_t label, Arm64FixKind kind, uint32_t branch) {
    uint32_t pos = a->len;
    put32(a, w);
    label_ref(a, label, pos, pos, kind, branch);
}
static void put_label(Arm64Asm *a, uint32_t w, uint32_t label, Arm64FixKind kind) {
    put_label_branch(a, w, label, kind, 0);
}

/* Emits an instruction word relocated against a symbol. */
static void put_reloc(Arm64Asm *a, uint32_t w, B3RelocKind kind, B3Symbol *sym, int64_t addend) {
    b3_asm_reloc(&a->buffer, a->len, kind, sym, addend);
    put32(a, w);
}

/* ---- immediates ---- */

static uint64_t ror_in(uint64_t x, unsigned r, unsigned e) {
    uint64_t mask = e == 64 ? ~0ull : (1ull << e) - 1;
    r %= e;
    if (!r)
        return x & mask;
    return ((x >> r) | (x << (e - r))) & mask;
}

/* A non-empty run of contiguous ones (anywhere)? */
static bool is_shifted_mask(uint64_t x) {
    uint64_t filled = x | (x - 1); /* the run with the zeros below it set */
    return x && ((filled + 1) & filled) == 0;
}

bool arm64_logical_imm_encode(uint64_t v, bool is64, uint32_t *out) {
    if (!is64) {
        if (v >> 32)
            return false;
        v |= v << 32;
    }
    if (v == 0 || v == ~0ull)
        return false;
    /* The smallest element size the value replicates. */
    unsigned e = 64;
    while (e > 2) {
        unsigned h = e / 2;
        uint64_t m = (1ull << h) - 1;
        if ((v & m) != ((v >> h) & m))
            break;
        e = h;
    }
    uint64_t mask = e == 64 ? ~0ull : (1ull << e) - 1;
    uint64_t x = v & mask;
    /* The element is a run of ones rotated left by `start`: either it does
     * not wrap (a shifted mask) or its complement is one. */
    unsigned ones, start;
    if (is_shifted_mask(x)) {
        ones = (unsigned)__builtin_popcountll(x);
        start = (unsigned)__builtin_ctzll(x);
    } else if (is_shifted_mask(~x & mask)) {
        uint64_t y = ~x & mask;
        ones = e - (unsigned)__builtin_popcountll(y);
        start = (unsigned)__builtin_ctzll(y) + (unsigned)__builtin_popcountll(y);
    } else {
        return false;
    }
    unsigned n = e == 64, immr = (e - start) % e; /* rotate right by immr */
    unsigned imms = ((~(e - 1) << 1) & 0x3f) | (ones - 1);
    *out = n << 12 | immr << 6 | imms;
    return true;
}

uint64_t arm64_logical_imm_decode(uint32_t f, bool is64) {
    unsigned n = (f >> 12) & 1, immr = (f >> 6) & 0x3f, imms = f & 0x3f;
    /* The element size: the highest set bit of N:NOT(imms). */
    unsigned len = n ? 6 : 0;
    if (!n)
        for (int i = 5; i >= 0; i--)
            if (!(imms >> i & 1)) {
                len = (unsigned)i;
                break;
            }
    unsigned e = 1u << len;
    unsigned ones = (imms & (e - 1)) + 1;
    uint64_t elem = ror_in(ones >= 64 ? ~0ull : (1ull << ones) - 1, immr & (e - 1), e);
    uint64_t v = 0;
    for (unsigned i = 0; i < 64; i += e)
        v |= elem << i;
    return is64 ? v : v & 0xffffffffu;
}

double arm64_fp_imm_decode(uint8_t imm8) {
    unsigned b = imm8 >> 6 & 1, cd = imm8 >> 4 & 3, frac = imm8 & 15;
    int exp = b ? (int)cd - 3 : (int)cd + 1;
    double v = ldexp((16.0 + frac) / 16.0, exp);
    return imm8 & 0x80 ? -v : v;
}

bool arm64_fp_imm_encode(double v, bool dbl, uint8_t *out) {
    /* +-(16 + frac)/16 * 2^exp with exp in -3..4: a double with only the top
     * 4 fraction bits (so a float too: dbl does not matter). */
    (void)dbl;
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    int exp = (int)((bits >> 52) & 0x7ff) - 1023;
    if ((bits & ((1ull << 48) - 1)) || exp < -3 || exp > 4)
        return false;
    unsigned b = exp <= 0, cd = (unsigned)(b ? exp + 3 : exp - 1);
    *out = (uint8_t)((bits >> 63) << 7 | b << 6 | cd << 4 | ((bits >> 48) & 15));
    return true;
}

/* ---- integer arithmetic ---- */

static const char *const addsub_names[4] = {"add", "adds", "sub", "subs"};

static uint32_t addsub_bits(Arm64AddSubOp op, bool is64) {
    return (uint32_t)is64 << 31 | (uint32_t)(op >> 1) << 30 | (uint32_t)(op & 1) << 29;
}

static void check_amount(unsigned amount, bool is64) {
    if (amount >= (is64 ? 64u : 32u))
        b3_internal_error(PHASE, "shift amount %u out of range", amount);
}

static void addsub_imm_enc(Arm64Asm *a, Arm64AddSubOp op, bool is64, B3Reg rd, B3Reg rn, uint32_t imm12,
                           bool lsl12) {
    if (imm12 > 4095)
        b3_internal_error(PHASE, "add/sub immediate %u out of range", imm12);
    put32(a,
          0x11000000 | addsub_bits(op, is64) | (uint32_t)lsl12 << 22 | imm12 << 10 | gpr(rn) << 5 | gpr(rd));
}

void arm64_addsub_imm(Arm64Asm *a, Arm64AddSubOp op, bool is64, B3Reg rd, B3Reg rn, uint32_t imm12,
                      bool lsl12) {
    addsub_imm_enc(a, op, is64, rd, rn, imm12, lsl12);
    bool s = op & 1;
    char imm[16];
    lst(a, "%s\t%s, %s, #%s%s", addsub_names[op], s ? rz(rd, is64) : rs(rd, is64), rs(rn, is64),
        limm12(imm, imm12), lsl12 ? ", lsl #12" : "");
}

static void addsub_shifted_enc(Arm64Asm *a, Arm64AddSubOp op, bool is64, B3Reg rd, B3Reg rn, B3Reg rm,
                               Arm64Shift shift, unsigned amount) {
    if (shift == Arm64Shift_ROR)
        b3_internal_error(PHASE, "add/sub takes no ror");
    check_amount(amount, is64);
    put32(a, 0x0B000000 | addsub_bits(op, is64) | (uint32_t)shift << 22 | gpr(rm) << 16 | amount << 10 |
                 gpr(rn) << 5 | gpr(rd));
}

void arm64_addsub_shifted(Arm64Asm *a, Arm64AddSubOp op, bool is64, B3Reg rd, B3Reg rn, B3Reg rm,
                          Arm64Shift shift, unsigned amount) {
    addsub_shifted_enc(a, op, is64, rd, rn, rm, shift, amount);
    if (a->listing) {
        fprintf(a->listing, "\t%s\t%s, %s, %s", addsub_names[op], rz(rd, is64), rz(rn, is64), rz(rm, is64));
        lshift(a, shift, amount);
        lend(a);
    }
}

static void addsub_ext_enc(Arm64Asm *a, Arm64AddSubOp op, bool is64, B3Reg rd, B3Reg rn, B3Reg rm,
                           Arm64Extend ext, unsigned amount) {
    if (amount > 4)
        b3_internal_error(PHASE, "extend shift %u out of range", amount);
    put32(a, 0x0B200000 | addsub_bits(op, is64) | gpr(rm) << 16 | (uint32_t)ext << 13 | amount << 10 |
                 gpr(rn) << 5 | gpr(rd));
}

/* ", Rm, ext {#n}": Rm is an X register only for the 64-bit uxtx/sxtx. */
static void lext(Arm64Asm *a, bool is64, B3Reg rm, Arm64Extend ext, unsigned amount) {
    fprintf(a->listing, ", %s, %s", rz(rm, is64 && (ext & 3) == 3), ext_names[ext]);
    if (amount)
        fprintf(a->listing, " #%u", amount);
}

void arm64_addsub_ext(Arm64Asm *a, Arm64AddSubOp op, bool is64, B3Reg rd, B3Reg rn, B3Reg rm, Arm64Extend ext,
                      unsigned amount) {
    addsub_ext_enc(a, op, is64, rd, rn, rm, ext, amount);
    if (a->listing) {
        fprintf(a->listing, "\t%s\t%s, %s", addsub_names[op], op & 1 ? rz(rd, is64) : rs(rd, is64),
                rs(rn, is64));
        lext(a, is64, rm, ext, amount);
        lend(a);
    }
}

void arm64_neg(Arm64Asm *a, bool setflags, bool is64, B3Reg rd, B3Reg rm, Arm64Shift shift, unsigned amount) {
    addsub_shifted_enc(a, setflags ? Arm64AddSub_SUBS : Arm64AddSub_SUB, is64, rd, ARM64_ZR, rm, shift,
                       amount);
    if (a->listing) {
        fprintf(a->listing, "\t%s\t%s, %s", setflags ? "negs" : "neg", rz(rd, is64), rz(rm, is64));
        lshift(a, shift, amount);
        lend(a);
    }
}

void arm64_cmp_imm(Arm64Asm *a, bool cmn, bool is64, B3Reg rn, uint32_t imm12, bool lsl12) {
    addsub_imm_enc(a, cmn ? Arm64AddSub_ADDS : Arm64AddSub_SUBS, is64, ARM64_ZR, rn, imm12, lsl12);
    char imm[16];
    lst(a, "%s\t%s, #%s%s", cmn ? "cmn" : "cmp", rs(rn, is64), limm12(imm, imm12), lsl12 ? ", lsl #12" : "");
}

void arm64_cmp(Arm64Asm *a, bool cmn, bool is64, B3Reg rn, B3Reg rm, Arm64Shift shift, unsigned amount) {
    addsub_shifted_enc(a, cmn ? Arm64AddSub_ADDS : Arm64AddSub_SUBS, is64, ARM64_ZR, rn, rm, shift, amount);
    if (a->listing) {
        fprintf(a->listing, "\t%s\t%s, %s", cmn ? "cmn" : "cmp", rz(rn, is64), rz(rm, is64));
        lshift(a, shift, amount);
        lend(a);
    }
}

void arm64_cmp_ext(Arm64Asm *a, bool cmn, bool is64, B3Reg rn, B3Reg rm, Arm64Extend ext, unsigned amount) {
    addsub_ext_enc(a, cmn ? Arm64AddSub_ADDS : Arm64AddSub_SUBS, is64, ARM64_ZR, rn, rm, ext, amount);
    if (a->listing) {
        fprintf(a->listing, "\t%s\t%s", cmn ? "cmn" : "cmp", rs(rn, is64));
        lext(a, is64, rm, ext, amount);
        lend(a);
    }
}

void arm64_add_imm_any(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, int64_t imm) {
    Arm64AddSubOp op = imm < 0 ? Arm64AddSub_SUB : Arm64AddSub_ADD;
    uint64_t u = imm < 0 ? -(uint64_t)imm : (uint64_t)imm;
    if (!arm64_addsub_imm_ok(u))
        b3_internal_error(PHASE, "add immediate %" PRId64 " not encodable", imm);
    if (u < 4096)
        arm64_addsub_imm(a, op, is64, rd, rn, (uint32_t)u, false);
    else
        arm64_addsub_imm(a, op, is64, rd, rn, (uint32_t)(u >> 12), true);
}

/* ---- logical ---- */

static const char *const logic_names[8] = {"and", "orr", "eor", "ands", "bic", "orn", "eon", "bics"};

static void logic_shifted_enc(Arm64Asm *a, Arm64LogicOp op, bool is64, B3Reg rd, B3Reg rn, B3Reg rm,
                              Arm64Shift shift, unsigned amount) {
    check_amount(amount, is64);
    put32(a, 0x0A000000 | (uint32_t)is64 << 31 | (uint32_t)(op & 3) << 29 | (uint32_t)shift << 22 |
                 (uint32_t)(op >> 2) << 21 | gpr(rm) << 16 | amount << 10 | gpr(rn) << 5 | gpr(rd));
}

void arm64_logic_shifted(Arm64Asm *a, Arm64LogicOp op, bool is64, B3Reg rd, B3Reg rn, B3Reg rm,
                         Arm64Shift shift, unsigned amount) {
    logic_shifted_enc(a, op, is64, rd, rn, rm, shift, amount);
    if (a->listing) {
        fprintf(a->listing, "\t%s\t%s, %s, %s", logic_names[op], rz(rd, is64), rz(rn, is64), rz(rm, is64));
        lshift(a, shift, amount);
        lend(a);
    }
}

static void logic_imm_enc(Arm64Asm *a, Arm64LogicOp op, bool is64, B3Reg rd, B3Reg rn, uint64_t imm) {
    uint32_t f;
    if (op > Arm64Logic_ANDS)
        b3_internal_error(PHASE, "%s takes no immediate", logic_names[op]);
    if (!arm64_logical_imm_encode(imm, is64, &f))
        b3_internal_error(PHASE, "0x%" PRIx64 " is not a logical immediate", imm);
    put32(a, 0x12000000 | (uint32_t)is64 << 31 | (uint32_t)op << 29 | f << 10 | gpr(rn) << 5 | gpr(rd));
}

void arm64_logic_imm(Arm64Asm *a, Arm64LogicOp op, bool is64, B3Reg rd, B3Reg rn, uint64_t imm) {
    logic_imm_enc(a, op, is64, rd, rn, imm);
    lst(a, "%s\t%s, %s, #0x%" PRIx64, logic_names[op], op == Arm64Logic_ANDS ? rz(rd, is64) : rs(rd, is64),
        rz(rn, is64), imm);
}

void arm64_tst_imm(Arm64Asm *a, bool is64, B3Reg rn, uint64_t imm) {
    logic_imm_enc(a, Arm64Logic_ANDS, is64, ARM64_ZR, rn, imm);
    lst(a, "tst\t%s, #0x%" PRIx64, rz(rn, is64), imm);
}

void arm64_tst(Arm64Asm *a, bool is64, B3Reg rn, B3Reg rm, Arm64Shift shift, unsigned amount) {
    logic_shifted_enc(a, Arm64Logic_ANDS, is64, ARM64_ZR, rn, rm, shift, amount);
    if (a->listing) {
        fprintf(a->listing, "\ttst\t%s, %s", rz(rn, is64), rz(rm, is64));
        lshift(a, shift, amount);
        lend(a);
    }
}

void arm64_mvn(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rm, Arm64Shift shift, unsigned amount) {
    logic_shifted_enc(a, Arm64Logic_ORN, is64, rd, ARM64_ZR, rm, shift, amount);
    if (a->listing) {
        fprintf(a->listing, "\tmvn\t%s, %s", rz(rd, is64), rz(rm, is64));
        lshift(a, shift, amount);
        lend(a);
    }
}

void arm64_mov(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rm) {
    logic_shifted_enc(a, Arm64Logic_ORR, is64, rd, ARM64_ZR, rm, Arm64Shift_LSL, 0);
    lst(a, "mov\t%s, %s", rz(rd, is64), rz(rm, is64));
}

void arm64_mov_sp(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn) {
    addsub_imm_enc(a, Arm64AddSub_ADD, is64, rd, rn, 0, false);
    /* "mov" names the add only when one side is sp; else it would be orr. */
    if (rd == ARM64_SP || rn == ARM64_SP)
        lst(a, "mov\t%s, %s", rs(rd, is64), rs(rn, is64));
    else
        lst(a, "add\t%s, %s, #0", rs(rd, is64), rs(rn, is64));
}

/* ---- move wide and constants ---- */

static const char *const movwide_names[4] = {"movn", "?", "movz", "movk"};

void arm64_movwide(Arm64Asm *a, Arm64MovWideOp op, bool is64, B3Reg rd, uint16_t imm16, unsigned hw) {
    if (hw >= (is64 ? 4u : 2u) || op == 1)
        b3_internal_error(PHASE, "bad move-wide shift %u", hw);
    put32(a,
          0x12800000 | (uint32_t)is64 << 31 | (uint32_t)op << 29 | hw << 21 | (uint32_t)imm16 << 5 | gpr(rd));
    if (hw)
        lst(a, "%s\t%s, #0x%x, lsl #%u", movwide_names[op], rz(rd, is64), imm16, 16 * hw);
    else
        lst(a, "%s\t%s, #0x%x", movwide_names[op], rz(rd, is64), imm16);
}

/* A constant's materialisation: a first instruction (orr, movz, movn) and movks. */
typedef struct {
    enum { Plan_Orr, Plan_Movz, Plan_Movn } first;
    uint64_t orr_imm;
    unsigned first_hw;
    uint16_t first_imm;
    unsigned nk;
    uint8_t k_hw[4];
    uint16_t k_imm[4];
} MovPlan;

static unsigned plan_count(const MovPlan *p) { return 1 + p->nk; }

/* movz (inv false) or movn (inv true): the halfwords that differ from the filler. */
static MovPlan plan_wide(uint64_t v, unsigned nhw, bool inv) {
    MovPlan p = {.first = inv ? Plan_Movn : Plan_Movz};
    uint16_t fill = inv ? 0xffff : 0;
    bool first = true;
    for (unsigned i = 0; i < nhw; i++) {
        uint16_t h = (uint16_t)(v >> (16 * i));
        if (h == fill)
            continue;
        if (first) {
            p.first_hw = i;
            p.first_imm = inv ? (uint16_t)~h : h;
            first = false;
        } else {
            p.k_hw[p.nk] = (uint8_t)i;
            p.k_imm[p.nk++] = h;
        }
    }
    return p; /* all filler: movz/movn #0 */
}

static MovPlan plan_mov(bool is64, uint64_t v) {
    unsigned nhw = is64 ? 4 : 2;
    if (!is64)
        v &= 0xffffffffu;
    uint32_t f;
    MovPlan z = plan_wide(v, nhw, false), n = plan_wide(v, nhw, true);
    MovPlan best = plan_count(&n) < plan_count(&z) ? n : z;
    /* One movz/movn (the assemblers' "mov"), else one orr. */
    if (plan_count(&best) == 1)
        return best;
    if (arm64_logical_imm_encode(v, is64, &f))
        return (MovPlan){.first = Plan_Orr, .orr_imm = v};
    if (plan_count(&best) <= 2)
        return best;
    /* A logical immediate that matches v but for one halfword (then one
     * movk) or, against 4 instructions, two.  The replaced halfwords are
     * tried as 0, 0xffff or a copy of another of v's: the bitmask patterns
     * close to v are those (runs of ones, replicated chunks). */
    uint64_t fill[6] = {0, 0xffff};
    for (unsigned j = 0; j < nhw; j++)
        fill[2 + j] = (v >> (16 * j)) & 0xffff;
    unsigned nfill = 2 + nhw;
    for (unsigned i = 0; i < nhw; i++)
        for (unsigned a = 0; a < nfill; a++) {
            uint64_t cand = (v & ~(0xffffull << (16 * i))) | fill[a] << (16 * i);
            if (cand != v && arm64_logical_imm_encode(cand, is64, &f))
                return (MovPlan){.first = Plan_Orr,
                                 .orr_imm = cand,
                                 .nk = 1,
                                 .k_hw = {(uint8_t)i},
                                 .k_imm = {(uint16_t)(v >> (16 * i))}};
        }
    if (plan_count(&best) < 4)
        return best;
    for (unsigned i = 0; i < nhw; i++)
        for (unsigned j = i + 1; j < nhw; j++)
            for (unsigned a = 0; a < nfill; a++)
                for (unsigned b = 0; b < nfill; b++) {
                    uint64_t cand = (v & ~(0xffffull << (16 * i)) & ~(0xffffull << (16 * j))) |
                                    fill[a] << (16 * i) | fill[b] << (16 * j);
                    if (arm64_logical_imm_encode(cand, is64, &f))
                        return (MovPlan){.first = Plan_Orr,
                                         .orr_imm = cand,
                                         .nk = 2,
                                         .k_hw = {(uint8_t)i, (uint8_t)j},
                                         .k_imm = {(uint16_t)(v >> (16 * i)), (uint16_t)(v >> (16 * j))}};
                }
    return best;
}

unsigned arm64_mov_imm_cost(bool is64, uint64_t v) {
    MovPlan p = plan_mov(is64, v);
    return plan_count(&p);
}

unsigned arm64_mov_imm(Arm64Asm *a, bool is64, B3Reg rd, uint64_t v) {
    MovPlan p = plan_mov(is64, v);
    if (p.first == Plan_Orr)
        arm64_logic_imm(a, Arm64Logic_ORR, is64, rd, ARM64_ZR, p.orr_imm);
    else
        arm64_movwide(a, p.first == Plan_Movn ? Arm64MovWide_MOVN : Arm64MovWide_MOVZ, is64, rd, p.first_imm,
                      p.first_hw);
    for (unsigned i = 0; i < p.nk; i++)
        arm64_movwide(a, Arm64MovWide_MOVK, is64, rd, p.k_imm[i], p.k_hw[i]);
    return plan_count(&p);
}

/* ---- multiply and divide ---- */

/* op31:o0 of each multiply form, and whether it is 64-bit only (the long forms). */
static const struct {
    uint8_t op31, o0;
    const char *name, *alias;
} mul_forms[] = {
    [Arm64Mul_MADD] = {0, 0, "madd", "mul"},       [Arm64Mul_MSUB] = {0, 1, "msub", "mneg"},
    [Arm64Mul_SMADDL] = {1, 0, "smaddl", "smull"}, [Arm64Mul_SMSUBL] = {1, 1, "smsubl", "smnegl"},
    [Arm64Mul_UMADDL] = {5, 0, "umaddl", "umull"}, [Arm64Mul_UMSUBL] = {5, 1, "umsubl", "umnegl"},
};

static void mul_enc(Arm64Asm *a, Arm64MulOp op, bool is64, B3Reg rd, B3Reg rn, B3Reg rm, B3Reg ra) {
    bool longmul = mul_forms[op].op31 != 0;
    if (longmul && !is64)
        b3_internal_error(PHASE, "%s is 64-bit only", mul_forms[op].name);
    put32(a, 0x1B000000 | (uint32_t)is64 << 31 | (uint32_t)mul_forms[op].op31 << 21 | gpr(rm) << 16 |
                 (uint32_t)mul_forms[op].o0 << 15 | gpr(ra) << 10 | gpr(rn) << 5 | gpr(rd));
}

void arm64_mul3(Arm64Asm *a, Arm64MulOp op, bool is64, B3Reg rd, B3Reg rn, B3Reg rm, B3Reg ra) {
    mul_enc(a, op, is64, rd, rn, rm, ra);
    bool w_src = mul_forms[op].op31 != 0; /* the long forms multiply W registers */
    lst(a, "%s\t%s, %s, %s, %s", mul_forms[op].name, rz(rd, is64), rz(rn, is64 && !w_src),
        rz(rm, is64 && !w_src), rz(ra, is64));
}

void arm64_mul(Arm64Asm *a, Arm64MulOp op, bool is64, B3Reg rd, B3Reg rn, B3Reg rm) {
    mul_enc(a, op, is64, rd, rn, rm, ARM64_ZR);
    bool w_src = mul_forms[op].op31 != 0;
    lst(a, "%s\t%s, %s, %s", mul_forms[op].alias, rz(rd, is64), rz(rn, is64 && !w_src),
        rz(rm, is64 && !w_src));
}

void arm64_mulh(Arm64Asm *a, bool is_signed, B3Reg rd, B3Reg rn, B3Reg rm) {
    put32(a, 0x9B407C00 | (uint32_t)(is_signed ? 2 : 6) << 21 | gpr(rm) << 16 | gpr(rn) << 5 | gpr(rd));
    lst(a, "%s\t%s, %s, %s", is_signed ? "smulh" : "umulh", rz(rd, true), rz(rn, true), rz(rm, true));
}

void arm64_dp2(Arm64Asm *a, Arm64DP2Op op, bool is64, B3Reg rd, B3Reg rn, B3Reg rm) {
    const char *name;
    switch (op) {
    case Arm64DP2_UDIV:
        name = "udiv";
        break;
    case Arm64DP2_SDIV:
        name = "sdiv";
        break;
    case Arm64DP2_LSLV:
    case Arm64DP2_LSRV:
    case Arm64DP2_ASRV:
    case Arm64DP2_RORV:
        name = shift_names[op - Arm64DP2_LSLV];
        break;
    default:
        b3_internal_error(PHASE, "bad data-processing op %d", (int)op);
    }
    put32(a, 0x1AC00000 | (uint32_t)is64 << 31 | gpr(rm) << 16 | (uint32_t)op << 10 | gpr(rn) << 5 | gpr(rd));
    lst(a, "%s\t%s, %s, %s", name, rz(rd, is64), rz(rn, is64), rz(rm, is64));
}

void arm64_dp1(Arm64Asm *a, Arm64DP1Op op, bool is64, B3Reg rd, B3Reg rn) {
    static const char *const names[] = {"rbit", "rev16", "rev32", "rev", "clz", "cls"};
    /* opcode: rev is 2 in the 32-bit form (where rev32 does not exist), 3 in the 64-bit one. */
    static const uint8_t opcode[] = {0, 1, 2, 3, 4, 5};
    unsigned opc = opcode[op];
    if (op == Arm64DP1_REV32 && !is64)
        b3_internal_error(PHASE, "rev32 is 64-bit only");
    if (op == Arm64DP1_REV && !is64)
        opc = 2;
    put32(a, 0x5AC00000 | (uint32_t)is64 << 31 | opc << 10 | gpr(rn) << 5 | gpr(rd));
    lst(a, "%s\t%s, %s", names[op], rz(rd, is64), rz(rn, is64));
}

/* ---- bitfields ---- */

static void bfm_enc(Arm64Asm *a, Arm64BfmOp op, bool is64, B3Reg rd, B3Reg rn, unsigned immr, unsigned imms) {
    unsigned size = is64 ? 64 : 32;
    if (immr >= size || imms >= size)
        b3_internal_error(PHASE, "bitfield immr %u imms %u out of range", immr, imms);
    put32(a, 0x13000000 | (uint32_t)is64 << 31 | (uint32_t)op << 29 | (uint32_t)is64 << 22 | immr << 16 |
                 imms << 10 | gpr(rn) << 5 | gpr(rd));
}

void arm64_bfm(Arm64Asm *a, Arm64BfmOp op, bool is64, B3Reg rd, B3Reg rn, unsigned immr, unsigned imms) {
    static const char *const names[] = {"sbfm", "bfm", "ubfm"};
    bfm_enc(a, op, is64, rd, rn, immr, imms);
    lst(a, "%s\t%s, %s, #%u, #%u", names[op], rz(rd, is64), rz(rn, is64), immr, imms);
}

static void shift_imm(Arm64Asm *a, const char *name, Arm64BfmOp op, bool is64, B3Reg rd, B3Reg rn,
                      unsigned immr, unsigned imms, unsigned n) {
    bfm_enc(a, op, is64, rd, rn, immr, imms);
    lst(a, "%s\t%s, %s, #%u", name, rz(rd, is64), rz(rn, is64), n);
}

void arm64_lsl_imm(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, unsigned n) {
    unsigned size = is64 ? 64 : 32;
    check_amount(n, is64);
    shift_imm(a, "lsl", Arm64Bfm_UBFM, is64, rd, rn, (size - n) % size, size - 1 - n, n);
}
void arm64_lsr_imm(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, unsigned n) {
    check_amount(n, is64);
    shift_imm(a, "lsr", Arm64Bfm_UBFM, is64, rd, rn, n, is64 ? 63 : 31, n);
}
void arm64_asr_imm(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, unsigned n) {
    check_amount(n, is64);
    shift_imm(a, "asr", Arm64Bfm_SBFM, is64, rd, rn, n, is64 ? 63 : 31, n);
}

static void extr_enc(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, B3Reg rm, unsigned lsb) {
    check_amount(lsb, is64);
    put32(a, 0x13800000 | (uint32_t)is64 << 31 | (uint32_t)is64 << 22 | gpr(rm) << 16 | lsb << 10 |
                 gpr(rn) << 5 | gpr(rd));
}
void arm64_extr(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, B3Reg rm, unsigned lsb) {
    extr_enc(a, is64, rd, rn, rm, lsb);
    lst(a, "extr\t%s, %s, %s, #%u", rz(rd, is64), rz(rn, is64), rz(rm, is64), lsb);
}
void arm64_ror_imm(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, unsigned n) {
    extr_enc(a, is64, rd, rn, rn, n);
    lst(a, "ror\t%s, %s, #%u", rz(rd, is64), rz(rn, is64), n);
}

/* The bitfield aliases: extract (immr = lsb, imms = lsb + width - 1) or
 * insert-in-zero (immr = -lsb mod size, imms = width - 1). */
static void bitfield(Arm64Asm *a, const char *name, Arm64BfmOp op, bool insert, bool is64, B3Reg rd, B3Reg rn,
                     unsigned lsb, unsigned width) {
    unsigned size = is64 ? 64 : 32;
    if (width < 1 || lsb >= size || width > size - lsb)
        b3_internal_error(PHASE, "%s lsb %u width %u out of range", name, lsb, width);
    if (insert)
        bfm_enc(a, op, is64, rd, rn, (size - lsb) % size, width - 1);
    else
        bfm_enc(a, op, is64, rd, rn, lsb, lsb + width - 1);
    lst(a, "%s\t%s, %s, #%u, #%u", name, rz(rd, is64), rz(rn, is64), lsb, width);
}

void arm64_ubfx(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, unsigned lsb, unsigned width) {
    bitfield(a, "ubfx", Arm64Bfm_UBFM, false, is64, rd, rn, lsb, width);
}
void arm64_sbfx(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, unsigned lsb, unsigned width) {
    bitfield(a, "sbfx", Arm64Bfm_SBFM, false, is64, rd, rn, lsb, width);
}
void arm64_ubfiz(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, unsigned lsb, unsigned width) {
    bitfield(a, "ubfiz", Arm64Bfm_UBFM, true, is64, rd, rn, lsb, width);
}
void arm64_sbfiz(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, unsigned lsb, unsigned width) {
    bitfield(a, "sbfiz", Arm64Bfm_SBFM, true, is64, rd, rn, lsb, width);
}
void arm64_bfi(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, unsigned lsb, unsigned width) {
    bitfield(a, "bfi", Arm64Bfm_BFM, true, is64, rd, rn, lsb, width);
}
void arm64_bfxil(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, unsigned lsb, unsigned width) {
    bitfield(a, "bfxil", Arm64Bfm_BFM, false, is64, rd, rn, lsb, width);
}

void arm64_uxt(Arm64Asm *a, B3Reg rd, B3Reg rn, unsigned bytes) {
    if (bytes == 4) {
        arm64_mov(a, false, rd, rn); /* writing a W register zeroes the upper half */
        return;
    }
    if (bytes != 1 && bytes != 2)
        b3_internal_error(PHASE, "uxt of %u bytes", bytes);
    bfm_enc(a, Arm64Bfm_UBFM, false, rd, rn, 0, 8 * bytes - 1);
    lst(a, "%s\t%s, %s", bytes == 1 ? "uxtb" : "uxth", rz(rd, false), rz(rn, false));
}

void arm64_sxt(Arm64Asm *a, bool is64, B3Reg rd, B3Reg rn, unsigned bytes) {
    if ((bytes != 1 && bytes != 2 && bytes != 4) || (bytes == 4 && !is64))
        b3_internal_error(PHASE, "sxt of %u bytes", bytes);
    bfm_enc(a, Arm64Bfm_SBFM, is64, rd, rn, 0, 8 * bytes - 1);
    lst(a, "%s\t%s, %s", bytes == 1 ? "sxtb" : bytes == 2 ? "sxth" : "sxtw", rz(rd, is64), rz(rn, false));
}

/* ---- conditional ---- */

static const char *const csel_names[4] = {"csel", "csinc", "csinv", "csneg"};

static void csel_enc(Arm64Asm *a, Arm64CSelOp op, bool is64, B3Reg rd, B3Reg rn, B3Reg rm, Arm64Cond cond) {
    put32(a, 0x1A800000 | (uint32_t)is64 << 31 | (uint32_t)(op >> 1) << 30 | gpr(rm) << 16 |
                 (uint32_t)(cond & 15) << 12 | (uint32_t)(op & 1) << 10 | gpr(rn) << 5 | gpr(rd));
}

void arm64_csel(Arm64Asm *a, Arm64CSelOp op, bool is64, B3Reg rd, B3Reg rn, B3Reg rm, Arm64Cond cond) {
    csel_enc(a, op, is64, rd, rn, rm, cond);
    lst(a, "%s\t%s, %s, %s, %s", csel_names[op], rz(rd, is64), rz(rn, is64), rz(rm, is64),
        arm64_cond_name(cond));
}

static void check_alias_cond(Arm64Cond cond) {
    if ((cond & 14) == 14)
        b3_internal_error(PHASE, "al/nv in a conditional alias");
}

void arm64_cset(Arm64Asm *a, bool mask, bool is64, B3Reg rd, Arm64Cond cond) {
    check_alias_cond(cond);
    csel_enc(a, mask ? Arm64CSel_CSINV : Arm64CSel_CSINC, is64, rd, ARM64_ZR, ARM64_ZR,
             arm64_cond_invert(cond));
    lst(a, "%s\t%s, %s", mask ? "csetm" : "cset", rz(rd, is64), arm64_cond_name(cond));
}

void arm64_cinc(Arm64Asm *a, Arm64CSelOp op, bool is64, B3Reg rd, B3Reg rn, Arm64Cond cond) {
    static const char *const names[4] = {"?", "cinc", "cinv", "cneg"};
    check_alias_cond(cond);
    if (op == Arm64CSel_CSEL)
        b3_internal_error(PHASE, "csel has no cinc alias");
    csel_enc(a, op, is64, rd, rn, rn, arm64_cond_invert(cond));
    lst(a, "%s\t%s, %s, %s", names[op], rz(rd, is64), rz(rn, is64), arm64_cond_name(cond));
}

void arm64_ccmp(Arm64Asm *a, bool ccmn, bool is64, B3Reg rn, B3Reg rm, unsigned nzcv, Arm64Cond cond) {
    if (nzcv > 15)
        b3_internal_error(PHASE, "bad nzcv %u", nzcv);
    put32(a, 0x3A400000 | (uint32_t)is64 << 31 | (uint32_t)!ccmn << 30 | gpr(rm) << 16 |
                 (uint32_t)(cond & 15) << 12 | gpr(rn) << 5 | nzcv);
    lst(a, "%s\t%s, %s, #%u, %s", ccmn ? "ccmn" : "ccmp", rz(rn, is64), rz(rm, is64), nzcv,
        arm64_cond_name(cond));
}

void arm64_ccmp_imm(Arm64Asm *a, bool ccmn, bool is64, B3Reg rn, unsigned imm5, unsigned nzcv,
                    Arm64Cond cond) {
    if (nzcv > 15 || imm5 > 31)
        b3_internal_error(PHASE, "bad ccmp immediate %u or nzcv %u", imm5, nzcv);
    put32(a, 0x3A400800 | (uint32_t)is64 << 31 | (uint32_t)!ccmn << 30 | imm5 << 16 |
                 (uint32_t)(cond & 15) << 12 | gpr(rn) << 5 | nzcv);
    lst(a, "%s\t%s, #%u, #%u, %s", ccmn ? "ccmn" : "ccmp", rz(rn, is64), imm5, nzcv, arm64_cond_name(cond));
}

/* ---- branches ---- */

/* "<mnemonic>\t<operands>, <label>". */
static void lbranch(Arm64Asm *a, const char *head, uint32_t label) {
    if (!a->listing)
        return;
    fprintf(a->listing, "\t%s", head);
    llabel(a, label);
    lend(a);
}

void arm64_b(Arm64Asm *a, uint32_t label) {
    put_label(a, 0x14000000, label, Arm64Fix_Imm26);
    lbranch(a, "b\t", label);
}
void arm64_bl(Arm64Asm *a, uint32_t label) {
    put_label(a, 0x94000000, label, Arm64Fix_Imm26);
    lbranch(a, "bl\t", label);
}
/* The next relaxable branch: its number + 1, and whether it is long. */
static uint32_t next_branch(Arm64Asm *a, bool *is_long) {
    uint32_t n = a->nbranches++;
    *is_long = false;
    if (!a->relax)
        return 0;
    *is_long = b3_asm_relax_is_long(a->relax, n);
    return n + 1;
}

/* A conditional branch (word w with the label field empty, its inverse
 * w ^ invert): short, or long as the inverse over a b. */
static void cond_branch(Arm64Asm *a, const char *head, const char *inv_head, uint32_t w, uint32_t invert,
                        uint32_t label, Arm64FixKind kind) {
    bool is_long;
    uint32_t branch = next_branch(a, &is_long);
    if (!is_long) {
        put_label_branch(a, w, label, kind, branch);
        lbranch(a, head, label);
        return;
    }
    uint32_t skip = arm64_label_new(a);
    put_label(a, w ^ invert, skip, kind);
    lbranch(a, inv_head, skip);
    arm64_b(a, label);
    arm64_bind(a, skip);
}

void arm64_bcond(Arm64Asm *a, Arm64Cond cond, uint32_t label) {
    if ((cond & 14) == 14) { /* al and nv both always branch */
        arm64_b(a, label);
        return;
    }
    char head[16], inv[16];
    snprintf(head, sizeof head, "b.%s\t", arm64_cond_name(cond));
    snprintf(inv, sizeof inv, "b.%s\t", arm64_cond_name(arm64_cond_invert(cond)));
    cond_branch(a, head, inv, 0x54000000 | (uint32_t)(cond & 15), 1, label, Arm64Fix_Imm19);
}
void arm64_cbz(Arm64Asm *a, bool nonzero, bool is64, B3Reg rt, uint32_t label) {
    char head[32], inv[32];
    snprintf(head, sizeof head, "%s\t%s, ", nonzero ? "cbnz" : "cbz", rz(rt, is64));
    snprintf(inv, sizeof inv, "%s\t%s, ", nonzero ? "cbz" : "cbnz", rz(rt, is64));
    cond_branch(a, head, inv, 0x34000000 | (uint32_t)is64 << 31 | (uint32_t)nonzero << 24 | gpr(rt), 1u << 24,
                label, Arm64Fix_Imm19);
}
void arm64_tbz(Arm64Asm *a, bool nonzero, B3Reg rt, unsigned bit, uint32_t label) {
    if (bit > 63)
        b3_internal_error(PHASE, "tbz bit %u", bit);
    char head[32], inv[32];
    snprintf(head, sizeof head, "%s\t%s, #%u, ", nonzero ? "tbnz" : "tbz", rz(rt, bit >= 32), bit);
    snprintf(inv, sizeof inv, "%s\t%s, #%u, ", nonzero ? "tbz" : "tbnz", rz(rt, bit >= 32), bit);
    cond_branch(a, head, inv,
                0x36000000 | (uint32_t)(bit >> 5) << 31 | (uint32_t)nonzero << 24 | (bit & 31) << 19 |
                    gpr(rt),
                1u << 24, label, Arm64Fix_Imm14);
}

static void branch_sym(Arm64Asm *a, bool link, B3Symbol *sym, int64_t addend) {
    B3RelocKind k = link ? B3Reloc_A64_Call26 : B3Reloc_A64_Jump26;
    put_reloc(a, link ? 0x94000000 : 0x14000000, k, sym, addend);
    if (a->listing) {
        fprintf(a->listing, "\t%s\t", link ? "bl" : "b");
        lsym(a, sym, k, addend);
        lend(a);
    }
}
void arm64_b_sym(Arm64Asm *a, B3Symbol *sym, int64_t addend) { branch_sym(a, false, sym, addend); }
void arm64_bl_sym(Arm64Asm *a, B3Symbol *sym, int64_t addend) { branch_sym(a, true, sym, addend); }

void arm64_br(Arm64Asm *a, B3Reg rn) {
    put32(a, 0xD61F0000 | gpr(rn) << 5);
    lst(a, "br\t%s", rz(rn, true));
}
void arm64_blr(Arm64Asm *a, B3Reg rn) {
    put32(a, 0xD63F0000 | gpr(rn) << 5);
    lst(a, "blr\t%s", rz(rn, true));
}
void arm64_ret(Arm64Asm *a, B3Reg rn) {
    put32(a, 0xD65F0000 | gpr(rn) << 5);
    if (rn == ARM64_LR)
        lst(a, "ret");
    else
        lst(a, "ret\t%s", rz(rn, true));
}

/* ---- addresses ---- */

void arm64_adr(Arm64Asm *a, B3Reg rd, uint32_t label) {
    char head[32];
    snprintf(head, sizeof head, "adr\t%s, ", rz(rd, true));
    put_label(a, 0x10000000 | gpr(rd), label, Arm64Fix_Adr21);
    lbranch(a, head, label);
}

void arm64_adr_sym(Arm64Asm *a, B3Reg rd, B3Symbol *sym, int64_t addend) {
    put_reloc(a, 0x10000000 | gpr(rd), B3Reloc_A64_AdrPrelLo21, sym, addend);
    if (a->listing) {
        fprintf(a->listing, "\tadr\t%s, ", rz(rd, true));
        lsym(a, sym, B3Reloc_A64_AdrPrelLo21, addend);
        lend(a);
    }
}

void arm64_adrp_sym(Arm64Asm *a, B3Reg rd, B3Symbol *sym, int64_t addend, bool got) {
    B3RelocKind k = got ? B3Reloc_A64_AdrGotPage : B3Reloc_A64_AdrPrelPgHi21;
    if (got && addend)
        b3_internal_error(PHASE, "a GOT reference with an addend");
    put_reloc(a, 0x90000000 | gpr(rd), k, sym, addend);
    if (a->listing) {
        fprintf(a->listing, "\tadrp\t%s, ", rz(rd, true));
        lsym(a, sym, k, addend);
        lend(a);
    }
}

void arm64_add_lo12_sym(Arm64Asm *a, B3Reg rd, B3Reg rn, B3Symbol *sym, int64_t addend) {
    put_reloc(a, 0x91000000 | gpr(rn) << 5 | gpr(rd), B3Reloc_A64_AddAbsLo12, sym, addend);
    if (a->listing) {
        fprintf(a->listing, "\tadd\t%s, %s, ", rs(rd, true), rs(rn, true));
        lsym(a, sym, B3Reloc_A64_AddAbsLo12, addend);
        lend(a);
    }
}

/* ---- thread-local addresses (docs/c-extensions.md) ----
 * The sequences of the AArch64 ELF ABI and Apple's, which linkers relax
 * (TLS descriptors to initial- or local-exec, initial- to local-exec). */

static void mrs_tpidr(Arm64Asm *a, B3Reg rd) {
    put32(a, 0xD53BD040 | gpr(rd));
    lst(a, "mrs\t%s, TPIDR_EL0", rz(rd, true));
}

/* A word with the relocation kind of sym, listed as "mnem OPERANDS :mod:sym SUFFIX". */
static void tls_word(Arm64Asm *a, uint32_t w, B3RelocKind k, B3Symbol *sym, const char *head,
                     const char *tail) {
    put_reloc(a, w, k, sym, 0);
    if (a->listing) {
        fprintf(a->listing, "\t%s", head);
        lsym(a, sym, k, 0);
        fputs(tail, a->listing);
        lend(a);
    }
}

void arm64_tls_exec(Arm64Asm *a, B3Symbol *sym, bool initial_exec, B3Reg rd, B3Reg scratch) {
    char head[64];
    mrs_tpidr(a, rd);
    if (initial_exec) {
        snprintf(head, sizeof head, "adrp\t%s, ", rz(scratch, true));
        tls_word(a, 0x90000000 | gpr(scratch), B3Reloc_A64_GottprelPage21, sym, head, "");
        snprintf(head, sizeof head, "ldr\t%s, [%s, ", rz(scratch, true), rs(scratch, true));
        tls_word(a, 0xF9400000 | gpr(scratch) << 5 | gpr(scratch), B3Reloc_A64_GottprelLo12Nc, sym, head,
                 "]");
        put32(a, 0x8B000000 | gpr(scratch) << 16 | gpr(rd) << 5 | gpr(rd));
        lst(a, "add\t%s, %s, %s", rz(rd, true), rz(rd, true), rz(scratch, true));
        return;
    }
    snprintf(head, sizeof head, "add\t%s, %s, ", rs(rd, true), rs(rd, true));
    tls_word(a, 0x91400000 | gpr(rd) << 5 | gpr(rd), B3Reloc_A64_TprelHi12, sym, head,
             ""); /* the relocation implies lsl #12 */
    tls_word(a, 0x91000000 | gpr(rd) << 5 | gpr(rd), B3Reloc_A64_TprelLo12Nc, sym, head, "");
}

void arm64_tls_descriptor(Arm64Asm *a, B3Symbol *sym) {
    tls_word(a, 0x90000000, B3Reloc_A64_TlsdescPage21, sym, "adrp\tx0, ", "");
    tls_word(a, 0xF9400001, B3Reloc_A64_TlsdescLd64Lo12, sym, "ldr\tx1, [x0, ", "]");
    tls_word(a, 0x91000000, B3Reloc_A64_TlsdescAddLo12, sym, "add\tx0, x0, ", "");
    b3_asm_reloc(&a->buffer, a->len, B3Reloc_A64_TlsdescCall, sym, 0);
    if (a->listing) {
        fputs("\t.tlsdesccall\t", a->listing);
        lsym(a, sym, B3Reloc_A64_TlsdescCall, 0);
        lend(a);
    }
    put32(a, 0xD63F0020);
    lst(a, "blr\tx1");
    mrs_tpidr(a, 1);
    put32(a, 0x8B000020);
    lst(a, "add\tx0, x1, x0");
}

void arm64_tls_tlv(Arm64Asm *a, B3Symbol *sym) {
    tls_word(a, 0x90000000, B3Reloc_A64_TlvpPage21, sym, "adrp\tx0, ", "");
    tls_word(a, 0xF9400000, B3Reloc_A64_TlvpPageoff12, sym, "ldr\tx0, [x0, ", "]");
    put32(a, 0xF9400001);
    lst(a, "ldr\tx1, [x0]");
    put32(a, 0xD63F0020);
    lst(a, "blr\tx1");
}

/* ---- loads and stores ---- */

/* size: the size field (log2 of the access, 0 for q); V: FP/SIMD register;
 * opc: the load/store/sign-extension field; scale: log2 of the access. */
static const struct {
    uint8_t size, v, opc, scale;
    bool x;             /* a GPR operand is an X register */
    const char *suffix; /* after ldr/str, ldur/stur */
} ldst_forms[ARM64_NUM_LDST] = {
    [Arm64LdSt_STRB] = {0, 0, 0, 0, false, "b"},   [Arm64LdSt_LDRB] = {0, 0, 1, 0, false, "b"},
    [Arm64LdSt_LDRSBX] = {0, 0, 2, 0, true, "sb"}, [Arm64LdSt_LDRSBW] = {0, 0, 3, 0, false, "sb"},
    [Arm64LdSt_STRH] = {1, 0, 0, 1, false, "h"},   [Arm64LdSt_LDRH] = {1, 0, 1, 1, false, "h"},
    [Arm64LdSt_LDRSHX] = {1, 0, 2, 1, true, "sh"}, [Arm64LdSt_LDRSHW] = {1, 0, 3, 1, false, "sh"},
    [Arm64LdSt_STRW] = {2, 0, 0, 2, false, ""},    [Arm64LdSt_LDRW] = {2, 0, 1, 2, false, ""},
    [Arm64LdSt_LDRSW] = {2, 0, 2, 2, true, "sw"},  [Arm64LdSt_STRX] = {3, 0, 0, 3, true, ""},
    [Arm64LdSt_LDRX] = {3, 0, 1, 3, true, ""},     [Arm64LdSt_STRFB] = {0, 1, 0, 0, false, ""},
    [Arm64LdSt_LDRFB] = {0, 1, 1, 0, false, ""},   [Arm64LdSt_STRFH] = {1, 1, 0, 1, false, ""},
    [Arm64LdSt_LDRFH] = {1, 1, 1, 1, false, ""},   [Arm64LdSt_STRFS] = {2, 1, 0, 2, false, ""},
    [Arm64LdSt_LDRFS] = {2, 1, 1, 2, false, ""},   [Arm64LdSt_STRFD] = {3, 1, 0, 3, false, ""},
    [Arm64LdSt_LDRFD] = {3, 1, 1, 3, false, ""},   [Arm64LdSt_STRFQ] = {0, 1, 2, 4, false, ""},
    [Arm64LdSt_LDRFQ] = {0, 1, 3, 4, false, ""},
};

unsigned arm64_ldst_size(Arm64LdStOp op) { return 1u << ldst_forms[op].scale; }

static bool is_store(Arm64LdStOp op) {
    return ldst_forms[op].v ? (ldst_forms[op].opc & 1) == 0 : ldst_forms[op].opc == 0;
}

static bool scaled_ok(Arm64LdStOp op, int64_t off) {
    unsigned sc = ldst_forms[op].scale;
    return off >= 0 && (off & ((1 << sc) - 1)) == 0 && (off >> sc) < 4096;
}

bool arm64_ldst_offset_ok(Arm64LdStOp op, int64_t off) {
    return scaled_ok(op, off) || (off >= -256 && off <= 255);
}

/* The literal-load opcodes (opc:V), for the loads that have one. */
static uint32_t literal_op(Arm64LdStOp op) {
    switch (op) {
    case Arm64LdSt_LDRW:
        return 0x18000000;
    case Arm64LdSt_LDRX:
        return 0x58000000;
    case Arm64LdSt_LDRSW:
        return 0x98000000;
    case Arm64LdSt_LDRFS:
        return 0x1C000000;
    case Arm64LdSt_LDRFD:
        return 0x5C000000;
    case Arm64LdSt_LDRFQ:
        return 0x9C000000;
    default:
        b3_internal_error(PHASE, "no literal form of this load");
    }
}

static const B3RelocKind lo12_kinds[5] = {B3Reloc_A64_Ldst8Lo12, B3Reloc_A64_Ldst16Lo12,
                                          B3Reloc_A64_Ldst32Lo12, B3Reloc_A64_Ldst64Lo12,
                                          B3Reloc_A64_Ldst128Lo12};

void arm64_ldst(Arm64Asm *a, Arm64LdStOp op, B3Reg rt, const Arm64Mem *m) {
    if (op >= ARM64_NUM_LDST)
        b3_internal_error(PHASE, "bad load/store %d", (int)op);
    unsigned sc = ldst_forms[op].scale;
    uint32_t t = ldst_forms[op].v ? fpr(rt) : gpr(rt);
    const char *rtn = ldst_forms[op].v ? arm64_fpr_name(rt, 1u << sc) : rz(rt, ldst_forms[op].x);
    const char *ls = is_store(op) ? "str" : "ldr";
    uint32_t common = (uint32_t)ldst_forms[op].size << 30 | (uint32_t)ldst_forms[op].v << 26 |
                      (uint32_t)ldst_forms[op].opc << 22 | t;
    FILE *f = a->listing;
    uint32_t n = m->mode == Arm64Mem_Literal ? 0 : gpr(m->base);
    const char *base = m->mode == Arm64Mem_Literal ? "" : rs(m->base, true);
    switch ((Arm64MemMode)m->mode) {
    case Arm64Mem_Offset:
        if (scaled_ok(op, m->off)) {
            put32(a, 0x39000000 | common | (uint32_t)(m->off >> sc) << 10 | n << 5);
            if (m->off)
                lst(a, "%s%s\t%s, [%s, #%" PRId64 "]", ls, ldst_forms[op].suffix, rtn, base, m->off);
            else
                lst(a, "%s%s\t%s, [%s]", ls, ldst_forms[op].suffix, rtn, base);
            return;
        }
        /* fall through - to the unscaled form */
    case Arm64Mem_Unscaled:
    case Arm64Mem_PreIndex:
    case Arm64Mem_PostIndex: {
        if (m->off < -256 || m->off > 255)
            b3_internal_error(PHASE, "load/store offset %" PRId64 " out of range", m->off);
        unsigned idx = m->mode == Arm64Mem_PreIndex ? 3 : m->mode == Arm64Mem_PostIndex ? 1 : 0;
        if (idx && !ldst_forms[op].v && rt == m->base && rt != 31)
            b3_internal_error(PHASE, "writeback to the base register being loaded or stored");
        put32(a, 0x38000000 | common | ((uint32_t)m->off & 0x1ff) << 12 | idx << 10 | n << 5);
        if (m->mode == Arm64Mem_PreIndex)
            lst(a, "%s%s\t%s, [%s, #%" PRId64 "]!", ls, ldst_forms[op].suffix, rtn, base, m->off);
        else if (m->mode == Arm64Mem_PostIndex)
            lst(a, "%s%s\t%s, [%s], #%" PRId64, ls, ldst_forms[op].suffix, rtn, base, m->off);
        else
            lst(a, "%s%s\t%s, [%s, #%" PRId64 "]", is_store(op) ? "stur" : "ldur", ldst_forms[op].suffix, rtn,
                base, m->off);
        return;
    }
    case Arm64Mem_Reg: {
        Arm64Extend ext = (Arm64Extend)m->ext;
        if (ext != Arm64Ext_UXTW && ext != Arm64Ext_UXTX && ext != Arm64Ext_SXTW && ext != Arm64Ext_SXTX)
            b3_internal_error(PHASE, "bad register-offset extend %s", ext_names[ext & 7]);
        put32(a, 0x38200800 | common | gpr(m->index) << 16 | (uint32_t)ext << 13 | (uint32_t)m->shift << 12 |
                     n << 5);
        if (!f)
            return;
        bool xidx = (ext & 3) == 3;
        fprintf(f, "\t%s%s\t%s, [%s, %s", ls, ldst_forms[op].suffix, rtn, base, rz(m->index, xidx));
        if (m->shift)
            fprintf(f, ", %s #%u", ext == Arm64Ext_UXTX ? "lsl" : ext_names[ext], sc);
        else if (ext != Arm64Ext_UXTX)
            fprintf(f, ", %s", ext_names[ext]);
        fputc(']', f);
        lend(a);
        return;
    }
    case Arm64Mem_Lo12: {
        B3RelocKind k = lo12_kinds[sc];
        if (m->got) {
            if (op != Arm64LdSt_LDRX || m->off)
                b3_internal_error(PHASE, "a GOT load is ldr x, with no addend");
            k = B3Reloc_A64_Ld64GotLo12;
        }
        put_reloc(a, 0x39000000 | common | n << 5, k, m->sym, m->off);
        if (f) {
            fprintf(f, "\t%s%s\t%s, [%s, ", ls, ldst_forms[op].suffix, rtn, base);
            lsym(a, m->sym, k, m->off);
            fputc(']', f);
            lend(a);
        }
        return;
    }
    case Arm64Mem_Literal:
        put_label(a, literal_op(op) | t, m->label, Arm64Fix_Imm19);
        if (f) {
            fprintf(f, "\tldr%s\t%s, ", ldst_forms[op].suffix, rtn);
            llabel(a, m->label);
            lend(a);
        }
        return;
    }
    b3_internal_error(PHASE, "bad addressing mode %u", m->mode);
}

static const struct {
    uint8_t opc, v, l, scale;
    bool x;
    const char *name;
} pair_forms[] = {
    [Arm64Pair_STPW] = {0, 0, 0, 2, false, "stp"},   [Arm64Pair_LDPW] = {0, 0, 1, 2, false, "ldp"},
    [Arm64Pair_LDPSW] = {1, 0, 1, 2, true, "ldpsw"}, [Arm64Pair_STPX] = {2, 0, 0, 3, true, "stp"},
    [Arm64Pair_LDPX] = {2, 0, 1, 3, true, "ldp"},    [Arm64Pair_STPS] = {0, 1, 0, 2, false, "stp"},
    [Arm64Pair_LDPS] = {0, 1, 1, 2, false, "ldp"},   [Arm64Pair_STPD] = {1, 1, 0, 3, false, "stp"},
    [Arm64Pair_LDPD] = {1, 1, 1, 3, false, "ldp"},   [Arm64Pair_STPQ] = {2, 1, 0, 4, false, "stp"},
    [Arm64Pair_LDPQ] = {2, 1, 1, 4, false, "ldp"},
};

void arm64_ldstp(Arm64Asm *a, Arm64PairOp op, B3Reg rt, B3Reg rt2, const Arm64Mem *m) {
    unsigned sc = pair_forms[op].scale;
    int64_t scaled = m->off >> sc;
    if ((m->off & ((1 << sc) - 1)) || scaled < -64 || scaled > 63)
        b3_internal_error(PHASE, "load/store pair offset %" PRId64 " out of range", m->off);
    unsigned mode;
    switch ((Arm64MemMode)m->mode) {
    case Arm64Mem_Offset:
        mode = 2;
        break;
    case Arm64Mem_PreIndex:
        mode = 3;
        break;
    case Arm64Mem_PostIndex:
        mode = 1;
        break;
    default:
        b3_internal_error(PHASE, "bad load/store pair addressing mode %u", m->mode);
    }
    bool v = pair_forms[op].v;
    uint32_t t = v ? fpr(rt) : gpr(rt), t2 = v ? fpr(rt2) : gpr(rt2);
    /* The architecture leaves these unpredictable (and assemblers refuse them). */
    if (pair_forms[op].l && rt == rt2)
        b3_internal_error(PHASE, "a load pair into one register twice");
    if (mode != 2 && !v && (rt == m->base || rt2 == m->base) && m->base != 31)
        b3_internal_error(PHASE, "writeback to the base register of a pair");
    put32(a, 0x28000000 | (uint32_t)pair_forms[op].opc << 30 | (uint32_t)v << 26 | mode << 23 |
                 (uint32_t)pair_forms[op].l << 22 | ((uint32_t)scaled & 0x7f) << 15 | t2 << 10 |
                 gpr(m->base) << 5 | t);
    if (!a->listing)
        return;
    const char *r1 = v ? arm64_fpr_name(rt, 1u << sc) : rz(rt, pair_forms[op].x);
    const char *r2 = v ? arm64_fpr_name(rt2, 1u << sc) : rz(rt2, pair_forms[op].x);
    const char *base = rs(m->base, true);
    if (mode == 3)
        lst(a, "%s\t%s, %s, [%s, #%" PRId64 "]!", pair_forms[op].name, r1, r2, base, m->off);
    else if (mode == 1)
        lst(a, "%s\t%s, %s, [%s], #%" PRId64, pair_forms[op].name, r1, r2, base, m->off);
    else if (m->off)
        lst(a, "%s\t%s, %s, [%s, #%" PRId64 "]", pair_forms[op].name, r1, r2, base, m->off);
    else
        lst(a, "%s\t%s, %s, [%s]", pair_forms[op].name, r1, r2, base);
}

/* ---- atomics ---- */

static unsigned size_log2(unsigned size) {
    if (!b3_is_pow2(size) || size > 8)
        b3_internal_error(PHASE, "bad atomic size %u", size);
    return b3_log2_floor(size);
}
static const char *const size_suffix[4] = {"b", "h", "", ""};

void arm64_excl(Arm64Asm *a, Arm64ExclOp op, unsigned size, B3Reg rs_, B3Reg rt, B3Reg rn) {
    static const struct {
        uint32_t base;
        const char *name;
        bool status;
    } forms[] = {
        [Arm64Excl_LDXR] = {0x085F7C00, "ldxr", false}, [Arm64Excl_LDAXR] = {0x085FFC00, "ldaxr", false},
        [Arm64Excl_STXR] = {0x08007C00, "stxr", true},  [Arm64Excl_STLXR] = {0x0800FC00, "stlxr", true},
        [Arm64Excl_LDAR] = {0x08DFFC00, "ldar", false}, [Arm64Excl_STLR] = {0x089FFC00, "stlr", false},
    };
    unsigned sz = size_log2(size);
    uint32_t w = forms[op].base | sz << 30 | gpr(rn) << 5 | gpr(rt);
    if (forms[op].status) {
        if (rs_ == rt || rs_ == rn)
            b3_internal_error(PHASE, "the exclusive store's status register is also an operand");
        w |= gpr(rs_) << 16;
    }
    put32(a, w);
    if (forms[op].status)
        lst(a, "%s%s\t%s, %s, [%s]", forms[op].name, size_suffix[sz], rz(rs_, false), rz(rt, sz == 3),
            rs(rn, true));
    else
        lst(a, "%s%s\t%s, [%s]", forms[op].name, size_suffix[sz], rz(rt, sz == 3), rs(rn, true));
}

static const char *const order_suffix[4] = {"", "l", "a", "al"}; /* by acquire << 1 | release */

void arm64_cas(Arm64Asm *a, unsigned size, bool acquire, bool release, B3Reg rs_, B3Reg rt, B3Reg rn) {
    unsigned sz = size_log2(size);
    put32(a, 0x08A07C00 | sz << 30 | (uint32_t)acquire << 22 | gpr(rs_) << 16 | (uint32_t)release << 15 |
                 gpr(rn) << 5 | gpr(rt));
    lst(a, "cas%s%s\t%s, %s, [%s]", order_suffix[acquire << 1 | release], size_suffix[sz], rz(rs_, sz == 3),
        rz(rt, sz == 3), rs(rn, true));
}

void arm64_atomic(Arm64Asm *a, Arm64AtomicOp op, unsigned size, bool acquire, bool release, B3Reg rs_,
                  B3Reg rt, B3Reg rn) {
    static const char *const names[] = {"ldadd",  "ldclr",  "ldeor",  "ldset", "ldsmax",
                                        "ldsmin", "ldumax", "ldumin", "swp"};
    unsigned sz = size_log2(size);
    uint32_t o3opc = op == Arm64AtomicOp_SWP ? 8 : (uint32_t)op;
    put32(a, 0x38200000 | sz << 30 | (uint32_t)acquire << 23 | (uint32_t)release << 22 | gpr(rs_) << 16 |
                 o3opc << 12 | gpr(rn) << 5 | gpr(rt));
    lst(a, "%s%s%s\t%s, %s, [%s]", names[op], order_suffix[acquire << 1 | release], size_suffix[sz],
        rz(rs_, sz == 3), rz(rt, sz == 3), rs(rn, true));
}

/* ---- system ---- */

void arm64_dmb(Arm64Asm *a, Arm64Barrier option) {
    const char *name = option == Arm64Barrier_ISH     ? "ish"
                       : option == Arm64Barrier_ISHST ? "ishst"
                       : option == Arm64Barrier_ISHLD ? "ishld"
                       : option == Arm64Barrier_SY    ? "sy"
                                                      : NULL;
    if (!name)
        b3_internal_error(PHASE, "bad barrier option %d", (int)option);
    put32(a, 0xD50330BF | (uint32_t)option << 8);
    lst(a, "dmb\t%s", name);
}
void arm64_isb(Arm64Asm *a) {
    put32(a, 0xD5033FDF);
    lst(a, "isb");
}
void arm64_brk(Arm64Asm *a, uint16_t imm) {
    put32(a, 0xD4200000 | (uint32_t)imm << 5);
    lst(a, "brk\t#0x%x", imm);
}
void arm64_udf(Arm64Asm *a, uint16_t imm) {
    put32(a, imm);
    lst(a, "udf\t#%u", imm);
}
void arm64_nop(Arm64Asm *a) {
    put32(a, 0xD503201F);
    lst(a, "nop");
}
void arm64_nops(Arm64Asm *a, uint32_t n) {
    if (n <= 16) {
        for (uint32_t i = 0; i < n; i++)
            arm64_nop(a);
        return;
    }
    for (uint32_t i = 0; i < n; i++)
        put32(a, 0xD503201F);
    lst(a, ".fill\t%" PRIu32 ", 4, 0xd503201f", n);
}

/* ---- floating point ---- */

void arm64_fp2(Arm64Asm *a, Arm64FP2Op op, bool dbl, B3Reg rd, B3Reg rn, B3Reg rm) {
    static const char *const names[] = {"fmul", "fdiv",   "fadd",   "fsub", "fmax",
                                        "fmin", "fmaxnm", "fminnm", "fnmul"};
    put32(a, 0x1E200800 | (uint32_t)dbl << 22 | fpr(rm) << 16 | (uint32_t)op << 12 | fpr(rn) << 5 | fpr(rd));
    lst(a, "%s\t%s, %s, %s", names[op], fr(rd, dbl), fr(rn, dbl), fr(rm, dbl));
}

void arm64_fp1(Arm64Asm *a, Arm64FP1Op op, bool dbl, B3Reg rd, B3Reg rn) {
    static const char *const names[16] = {"fmov",   "fabs", "fneg",   "fsqrt",  NULL,     NULL,
                                          NULL,     NULL,   "frintn", "frintp", "frintm", "frintz",
                                          "frinta", NULL,   "frintx", "frinti"};
    if ((unsigned)op > 15 || !names[op])
        b3_internal_error(PHASE, "bad FP unary op %d", (int)op);
    put32(a, 0x1E204000 | (uint32_t)dbl << 22 | (uint32_t)op << 15 | fpr(rn) << 5 | fpr(rd));
    lst(a, "%s\t%s, %s", names[op], fr(rd, dbl), fr(rn, dbl));
}

void arm64_fcvt(Arm64Asm *a, bool to_dbl, B3Reg rd, B3Reg rn) {
    /* The type field is the source's; opcode 4 converts to single, 5 to double. */
    put32(a, 0x1E204000 | (uint32_t)!to_dbl << 22 | (to_dbl ? 5u : 4u) << 15 | fpr(rn) << 5 | fpr(rd));
    lst(a, "fcvt\t%s, %s", fr(rd, to_dbl), fr(rn, !to_dbl));
}

void arm64_fp3(Arm64Asm *a, Arm64FP3Op op, bool dbl, B3Reg rd, B3Reg rn, B3Reg rm, B3Reg ra) {
    static const char *const names[] = {"fmadd", "fmsub", "fnmadd", "fnmsub"};
    put32(a, 0x1F000000 | (uint32_t)dbl << 22 | (uint32_t)(op >> 1) << 21 | fpr(rm) << 16 |
                 (uint32_t)(op & 1) << 15 | fpr(ra) << 10 | fpr(rn) << 5 | fpr(rd));
    lst(a, "%s\t%s, %s, %s, %s", names[op], fr(rd, dbl), fr(rn, dbl), fr(rm, dbl), fr(ra, dbl));
}

void arm64_fcmp(Arm64Asm *a, bool signaling, bool dbl, B3Reg rn, B3Reg rm) {
    bool zero = rm == B3_NO_REG;
    put32(a, 0x1E202000 | (uint32_t)dbl << 22 | (zero ? 0 : fpr(rm) << 16) | fpr(rn) << 5 |
                 (uint32_t)signaling << 4 | (uint32_t)zero << 3);
    lst(a, "%s\t%s, %s", signaling ? "fcmpe" : "fcmp", fr(rn, dbl), zero ? "#0.0" : fr(rm, dbl));
}

void arm64_fcsel(Arm64Asm *a, bool dbl, B3Reg rd, B3Reg rn, B3Reg rm, Arm64Cond cond) {
    put32(a, 0x1E200C00 | (uint32_t)dbl << 22 | fpr(rm) << 16 | (uint32_t)(cond & 15) << 12 | fpr(rn) << 5 |
                 fpr(rd));
    lst(a, "fcsel\t%s, %s, %s, %s", fr(rd, dbl), fr(rn, dbl), fr(rm, dbl), arm64_cond_name(cond));
}

/* The integer <-> FP conversions: rmode:opcode. */
static uint32_t conv(bool is64, bool dbl, unsigned rmode, unsigned opcode, uint32_t n, uint32_t d) {
    return 0x1E200000 | (uint32_t)is64 << 31 | (uint32_t)dbl << 22 | rmode << 19 | opcode << 16 | n << 5 | d;
}

void arm64_cvtf(Arm64Asm *a, bool is_signed, bool dbl, bool is64, B3Reg rd, B3Reg rn) {
    put32(a, conv(is64, dbl, 0, is_signed ? 2 : 3, gpr(rn), fpr(rd)));
    lst(a, "%s\t%s, %s", is_signed ? "scvtf" : "ucvtf", fr(rd, dbl), rz(rn, is64));
}
void arm64_fcvtz(Arm64Asm *a, bool is_signed, bool dbl, bool is64, B3Reg rd, B3Reg rn) {
    put32(a, conv(is64, dbl, 3, is_signed ? 0 : 1, fpr(rn), gpr(rd)));
    lst(a, "%s\t%s, %s", is_signed ? "fcvtzs" : "fcvtzu", rz(rd, is64), fr(rn, dbl));
}
void arm64_fmov_to_fpr(Arm64Asm *a, bool dbl, B3Reg rd, B3Reg rn) {
    put32(a, conv(dbl, dbl, 0, 7, gpr(rn), fpr(rd)));
    lst(a, "fmov\t%s, %s", fr(rd, dbl), rz(rn, dbl));
}
void arm64_fmov_to_gpr(Arm64Asm *a, bool dbl, B3Reg rd, B3Reg rn) {
    put32(a, conv(dbl, dbl, 0, 6, fpr(rn), gpr(rd)));
    lst(a, "fmov\t%s, %s", rz(rd, dbl), fr(rn, dbl));
}

/* The high 64 bits of a vector register (element d[1]) from and to an X
 * register: INS (general) and UMOV, imm5 = 0b11000. */
void arm64_mov_to_high_lane(Arm64Asm *a, B3Reg vd, B3Reg xn) {
    put32(a, 0x4E181C00u | gpr(xn) << 5 | fpr(vd));
    lst(a, "mov\tv%u.d[1], %s", fpr(vd), rz(xn, true));
}
void arm64_mov_from_high_lane(Arm64Asm *a, B3Reg xd, B3Reg vn) {
    put32(a, 0x4E183C00u | fpr(vn) << 5 | gpr(xd));
    lst(a, "mov\t%s, v%u.d[1]", rz(xd, true), fpr(vn));
}

void arm64_fmov_imm(Arm64Asm *a, bool dbl, B3Reg rd, double imm) {
    uint8_t imm8;
    if (!arm64_fp_imm_encode(imm, dbl, &imm8))
        b3_internal_error(PHASE, "%g is not an FP immediate", imm);
    put32(a, 0x1E201000 | (uint32_t)dbl << 22 | (uint32_t)imm8 << 13 | fpr(rd));
    if (a->listing) {
        char num[32];
        snprintf(num, sizeof num, "%.9g", imm);
        /* An integer-looking literal would not parse as a float constant. */
        lst(a, "fmov\t%s, #%s%s", fr(rd, dbl), num, strpbrk(num, ".e") ? "" : ".0");
    }
}

/* ---- data and padding ---- */

void arm64_data32_label_diff(Arm64Asm *a, uint32_t target, uint32_t base) {
    if (base >= a->nlabels || a->label_pos[base] < 0)
        b3_internal_error(PHASE, "a label difference from an unbound base");
    uint32_t pos = a->len;
    put32(a, 0);
    label_ref(a, target, pos, a->label_pos[base], Arm64Fix_Data32, 0);
    if (a->listing) {
        fputs("\t.word\t", a->listing);
        llabel(a, target);
        fputc('-', a->listing);
        llabel(a, base);
        lend(a);
    }
}

void arm64_data32(Arm64Asm *a, uint32_t v) {
    put32(a, v);
    lst(a, ".word\t0x%08" PRIx32, v);
}

void arm64_data64(Arm64Asm *a, uint64_t v) {
    put32(a, (uint32_t)v);
    put32(a, (uint32_t)(v >> 32));
    lst(a, ".xword\t0x%016" PRIx64, v);
}

void arm64_align_code(Arm64Asm *a, uint32_t align) {
    if (align < 4 || (align & (align - 1)))
        b3_internal_error(PHASE, "bad code alignment %u", align);
    if (a->len & 3)
        b3_internal_error(PHASE, "code not word aligned");
    if (a->listing && a->listing_p2align) {
        unsigned log2 = (unsigned)__builtin_ctz(align);
        while (a->len % align)
            put32(a, 0xD503201F);
        lst(a, ".p2align\t%u", log2);
        return;
    }
    while (a->len % align)
        arm64_nop(a);
}
