/* The low-level x86-64 assembler (see asm.h). */
#include "codegen/x86_64/asm.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ir/diag.h"
#include "util/alloc.h"
#include "util/bits.h"
#include "util/vec.h"

/* ---- buffer (codegen/asm_buffer.h) ---- */

#define PHASE "x86 assembler"

/* Room for n more bytes (the code buffer grows once in a while, so the
 * common case is one compare). */
static inline void room(X86Asm *a, uint32_t n) { B3_VEC_RESERVE(PHASE, a->buf, a->cap, (size_t)a->len + n); }
static inline void put8(X86Asm *a, unsigned v) {
    room(a, 1);
    a->buf[a->len++] = (uint8_t)v;
}
static void put16(X86Asm *a, unsigned v) {
    room(a, 2);
    a->buf[a->len++] = (uint8_t)v;
    a->buf[a->len++] = (uint8_t)(v >> 8);
}
static inline void put32(X86Asm *a, uint32_t v) {
    room(a, 4);
    uint8_t *p = a->buf + a->len;
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
    a->len += 4;
}
static void put64(X86Asm *a, uint64_t v) {
    room(a, 8);
    for (int i = 0; i < 8; i++)
        a->buf[a->len++] = (uint8_t)(v >> (8 * i));
}

static void resolve(B3AsmBuffer *b, const X86Fixup *f);

void x86_asm_init(X86Asm *a) {
    memset(a, 0, sizeof *a);
    b3_asm_buffer_init(&a->buffer, PHASE, resolve);
}

void x86_asm_free(X86Asm *a) {
    b3_asm_buffer_free(&a->buffer);
    memset(a, 0, sizeof *a);
}

void x86_replay(X86Asm *a, const uint8_t *bytes, uint32_t n) {
    if (a->listing)
        b3_internal_error(PHASE, "replayed bytes in a listing");
    room(a, n);
    for (uint32_t i = 0; i < n; i++) /* a few bytes: no call */
        a->buf[a->len++] = bytes[i];
}

static bool fits8(int64_t v) { return v >= -128 && v <= 127; }

/* ---- listing ---- */

static const char *const gpr64[16] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                      "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
static const char *const gpr32[16] = {"eax", "ecx", "edx",  "ebx",  "esp",  "ebp",  "esi",  "edi",
                                      "r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d"};
static const char *const gpr16[16] = {"ax",  "cx",  "dx",   "bx",   "sp",   "bp",   "si",   "di",
                                      "r8w", "r9w", "r10w", "r11w", "r12w", "r13w", "r14w", "r15w"};
static const char *const gpr8[16] = {"al",  "cl",  "dl",   "bl",   "spl",  "bpl",  "sil",  "dil",
                                     "r8b", "r9b", "r10b", "r11b", "r12b", "r13b", "r14b", "r15b"};
static const char *const xmms[16] = {"xmm0", "xmm1", "xmm2",  "xmm3",  "xmm4",  "xmm5",  "xmm6",  "xmm7",
                                     "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"};

const char *x86_reg_name(B3Reg r, unsigned size) {
    if (b3_reg_is_fpr(r))
        return (r - B3_FPR_BASE) < 16 ? xmms[r - B3_FPR_BASE] : "xmm?";
    if (r >= 16)
        return "?";
    return size == 8 ? gpr64[r] : size == 4 ? gpr32[r] : size == 2 ? gpr16[r] : gpr8[r];
}

const char *x86_cc_name(unsigned cc) {
    static const char *const names[16] = {"o", "no", "b", "ae", "e", "ne", "be", "a",
                                          "s", "ns", "p", "np", "l", "ge", "le", "g"};
    return names[cc & 15];
}

static char suffix(unsigned size) { return size == 8 ? 'q' : size == 4 ? 'l' : size == 2 ? 'w' : 'b'; }

static void lbegin(X86Asm *a, const char *mnem, const char *suff) {
    fprintf(a->listing, "\t%s%s\t", mnem, suff);
}
static void lsep(X86Asm *a) { fputs(", ", a->listing); }
/* Ends a listing line; it lists the bytes up to the current length. */
static void lend(X86Asm *a) { b3_asm_list_end(&a->buffer); }
static void lreg(X86Asm *a, B3Reg r, unsigned size) { fprintf(a->listing, "%%%s", x86_reg_name(r, size)); }
static void limm(X86Asm *a, int64_t v) { fprintf(a->listing, "$%" PRId64, v); }
/* An immediate of an operation of size bytes: a mask operand (and, or,
 * xor, test) in hex as the operand's bit pattern, as objdump shows it (both
 * assemblers read it back as the same value, so pick the same encoding); any
 * other in hex when that reads better (asm_buffer.h), with its sign. */
static void limm_sized(X86Asm *a, const char *mnem, int64_t v, unsigned size) {
    static const char *const mask_ops[] = {"and", "or", "xor", "test"};
    for (size_t i = 0; i < sizeof mask_ops / sizeof mask_ops[0]; i++)
        if (!strcmp(mnem, mask_ops[i])) {
            uint64_t bits = size >= 8 ? (uint64_t)v : (uint64_t)v & ((UINT64_C(1) << (8 * size)) - 1);
            fprintf(a->listing, "$0x%" PRIx64, bits);
            return;
        }
    uint64_t mag = v < 0 ? -(uint64_t)v : (uint64_t)v;
    if (b3_asm_imm_reads_hex(mag))
        fprintf(a->listing, "$%s0x%" PRIx64, v < 0 ? "-" : "", mag);
    else
        limm(a, v);
}
static void llabel(X86Asm *a, uint32_t l) { b3_asm_list_label(&a->buffer, l); }
/* A symbol operand referenced with relocation `kind` (any GOTPCRELX kind for a GOT load). */
static void lsym(X86Asm *a, const B3Symbol *s, B3RelocKind kind) {
    if (a->listing_sym) {
        a->listing_sym(a->listing_ctx, a->listing, s, kind);
        return;
    }
    fprintf(a->listing, "%.*s", (int)s->name_len, s->name);
    if (kind == B3Reloc_X86_GOTPCRELX || kind == B3Reloc_X86_REX_GOTPCRELX)
        fputs("@GOTPCREL", a->listing);
    else if (kind == B3Reloc_X86_TPOFF32)
        fputs("@tpoff", a->listing);
    else if (kind == B3Reloc_X86_GOTTPOFF)
        fputs("@gottpoff", a->listing);
    else if (kind == B3Reloc_X86_TLSGD)
        fputs("@tlsgd", a->listing);
}

static void lmem(X86Asm *a, const X86Mem *m) {
    FILE *f = a->listing;
    if (m->base == X86_RIP) {
        if (m->sym)
            lsym(a, m->sym, m->got ? B3Reloc_X86_GOTPCRELX : B3Reloc_PC32);
        else
            llabel(a, m->label);
        if (m->disp)
            fprintf(f, "%+" PRId32, m->disp);
        fputs("(%rip)", f);
        return;
    }
    if (m->disp)
        fprintf(f, "%" PRId32, m->disp);
    fprintf(f, "(%%%s", x86_reg_name(m->base, 8));
    if (m->index != B3_NO_REG)
        fprintf(f, ",%%%s,%u", x86_reg_name(m->index, 8), m->scale);
    fputc(')', f);
}

static void lrm(X86Asm *a, const X86RM *rm, unsigned size) {
    if (rm->is_mem)
        lmem(a, &rm->mem);
    else
        lreg(a, rm->reg, size);
}

/* ---- labels and relocations ---- */

uint32_t x86_label_new(X86Asm *a) { return b3_asm_label_new(&a->buffer); }

void x86_relax_free(X86Relax *r) {
    free(r->is_long);
    free(r->points);
    memset(r, 0, sizeof *r);
}

enum { RelaxJmp, RelaxJcc, RelaxAlignCode, RelaxAlignFill };

void x86_relax_begin(X86Relax *r) {
    r->again = false;
    r->npoints = 0;
}

static void relax_point(X86Asm *a, uint8_t kind, uint32_t off, uint32_t arg, uint32_t jump, uint32_t size) {
    X86Relax *r = a->relax;
    B3_VEC_RESERVE(PHASE, r->points, r->cap_points, r->npoints + 1);
    r->points[r->npoints++] = (X86RelaxPoint){off, arg, jump, kind, (uint8_t)size};
}

/* A point's size when it starts at off (jumps: by their current mark). */
static uint32_t relax_size(const X86Relax *r, const X86RelaxPoint *p, int64_t off) {
    uint32_t n;
    switch (p->kind) {
    case RelaxJmp:
        return r->is_long[p->jump] ? 5 : 2;
    case RelaxJcc:
        return r->is_long[p->jump] ? 6 : 2;
    case RelaxAlignCode:
        n = (uint32_t)((p->arg - (uint64_t)off % p->arg) % p->arg);
        return n > p->jump ? 0 : n;
    default:
        return (uint32_t)((p->arg - (uint64_t)off % p->arg) % p->arg);
    }
}

void x86_relax_settle(X86Relax *r, const X86Asm *a) {
    uint32_t n = r->npoints;
    /* shift[i]: how much later everything after point i lands. */
    int64_t *shift = b3_xmalloc(PHASE, (n + 1) * sizeof *shift);
    int64_t *at = b3_xmalloc(PHASE, (n + 1) * sizeof *at);
    for (;;) {
        int64_t d = 0;
        for (uint32_t i = 0; i < n; i++) {
            const X86RelaxPoint *p = &r->points[i];
            at[i] = p->off + d;
            d += (int64_t)relax_size(r, p, at[i]) - p->size;
            shift[i] = d;
        }
        bool changed = false;
        for (uint32_t i = 0; i < n; i++) {
            const X86RelaxPoint *p = &r->points[i];
            if (p->kind > RelaxJcc || r->is_long[p->jump])
                continue;
            /* The label moves with the last point that ends at or before it. */
            int64_t pos = a->label_pos[p->arg];
            uint32_t lo = 0, hi = n;
            while (lo < hi) {
                uint32_t mid = lo + (hi - lo) / 2;
                if (r->points[mid].off + r->points[mid].size <= pos)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            int64_t target = pos + (lo ? shift[lo - 1] : 0);
            if (!fits8(target - (at[i] + 2))) {
                r->is_long[p->jump] = 1;
                changed = true;
            }
        }
        if (!changed)
            break;
    }
    free(shift);
    free(at);
}

/* The field of a reference is its size in bytes (kind: 1 or 4). */
static void resolve(B3AsmBuffer *b, const X86Fixup *f) {
    X86Asm *a = (X86Asm *)b;
    int64_t v = a->label_pos[f->label] + f->addend - f->pc;
    if (f->kind == 1) {
        if (!fits8(v) && f->branch && a->relax) {
            /* Too far for rel8: long in the next pass. */
            a->relax->is_long[f->branch - 1] = 1;
            a->relax->again = true;
            v = 0;
        }
        if (!fits8(v))
            b3_internal_error(PHASE, "short jump out of range (%" PRId64 ")", v);
        a->buf[f->pos] = (uint8_t)(int8_t)v;
    } else {
        b3_asm_patch32(b, f->pos, (uint32_t)(int32_t)v);
    }
}

void x86_bind(X86Asm *a, uint32_t l) { b3_asm_bind(&a->buffer, l); }

void x86_asm_check_labels(const X86Asm *a) { b3_asm_check_labels(&a->buffer); }

/* A reference to a label from the field at pos, relative to pc. */
static void label_ref(X86Asm *a, uint32_t label, uint32_t pos, uint32_t pc, int32_t addend, uint8_t size,
                      uint32_t jump) {
    b3_asm_label_ref(
        &a->buffer,
        (X86Fixup){.pos = pos, .label = label, .pc = pc, .addend = addend, .kind = size, .branch = jump});
}

static void reloc(X86Asm *a, uint32_t off, B3RelocKind kind, B3Symbol *sym, int64_t addend) {
    b3_asm_reloc(&a->buffer, off, kind, sym, addend);
}

/* ---- encoding core ---- */

typedef struct {
    uint8_t prefix; /* 0, 0x66, 0xF2 or 0xF3 */
    bool w;
    bool reg8, rm8; /* byte-register operands: spl/bpl/sil/dil need a REX prefix */
    uint8_t nop;
    uint8_t op[3];
    unsigned reg; /* ModRM.reg: a register (low 4 bits) or an opcode extension */
    const X86RM *rm;
    unsigned imm_bytes; /* immediate bytes after the displacement */
} Enc;

static unsigned scale_bits(unsigned s) {
    if (!b3_is_pow2(s) || s > 8)
        b3_internal_error(PHASE, "bad index scale %u", s);
    return b3_log2_floor(s);
}

static void check_gpr(B3Reg r, const char *what) {
    if (r >= 16)
        b3_internal_error(PHASE, "%s is not a general-purpose register (%u)", what, r);
}

static void encode(X86Asm *a, const Enc *e) {
    const X86RM *rm = e->rm;
    unsigned rex = e->w ? 0x48 : 0x40;
    if (e->reg & 8)
        rex |= 4;
    bool need = false;
    if (rm->is_mem) {
        const X86Mem *m = &rm->mem;
        if (m->base != X86_RIP) {
            check_gpr(m->base, "address base");
            if (m->base & 8)
                rex |= 1;
            if (m->index != B3_NO_REG) {
                check_gpr(m->index, "address index");
                if (m->index == B3X_rsp)
                    b3_internal_error(PHASE, "%%rsp cannot be an index register");
                if (m->index & 8)
                    rex |= 2;
            }
        }
    } else {
        if (rm->reg & 8)
            rex |= 1;
        if (e->rm8 && (rm->reg & 15) >= 4 && (rm->reg & 15) < 8)
            need = true;
    }
    if (e->reg8 && (e->reg & 15) >= 4 && (e->reg & 15) < 8)
        need = true;
    if (rex != 0x40)
        need = true;
    /* At most 11 bytes (prefix, REX, 3 opcode bytes, ModRM, SIB, disp32),
     * written through one cursor. */
    room(a, 16);
    uint8_t *p = a->buf + a->len;
    if (e->prefix)
        *p++ = e->prefix;
    if (need)
        *p++ = (uint8_t)rex;
    for (unsigned i = 0; i < e->nop && i < 3; i++)
        *p++ = e->op[i];

    unsigned reg = e->reg & 7;
    if (!rm->is_mem) {
        *p++ = (uint8_t)(0xC0 | reg << 3 | (rm->reg & 7));
        a->len = (uint32_t)(p - a->buf);
        return;
    }
    const X86Mem *m = &rm->mem;
    if (m->base == X86_RIP) {
        /* mod=00 rm=101: disp32 relative to the end of the instruction. */
        *p++ = (uint8_t)(0x05 | reg << 3);
        uint32_t pos = (uint32_t)(p - a->buf);
        for (int i = 0; i < 4; i++)
            *p++ = 0;
        a->len = (uint32_t)(p - a->buf);
        if (m->sym) {
            B3RelocKind k =
                m->got ? (need ? B3Reloc_X86_REX_GOTPCRELX : B3Reloc_X86_GOTPCRELX) : B3Reloc_PC32;
            reloc(a, pos, k, m->sym, (int64_t)m->disp - 4 - e->imm_bytes);
        } else if (m->label != X86_NO_LABEL) {
            label_ref(a, m->label, pos, pos + 4 + e->imm_bytes, m->disp, 4, 0);
        } else {
            b3_internal_error(PHASE, "RIP-relative operand without a target");
        }
        return;
    }
    unsigned base = m->base & 7;
    /* mod=00 with base 101 means RIP/no base, so rbp and r13 take a disp8 of 0. */
    unsigned mod = m->disp == 0 && base != 5 ? 0 : fits8(m->disp) ? 1 : 2;
    if (m->index == B3_NO_REG) {
        if (base == 4) {
            /* rsp/r12: rm=100 means "SIB follows"; SIB with no index. */
            *p++ = (uint8_t)(mod << 6 | reg << 3 | 4);
            *p++ = 0x24;
        } else {
            *p++ = (uint8_t)(mod << 6 | reg << 3 | base);
        }
    } else {
        *p++ = (uint8_t)(mod << 6 | reg << 3 | 4);
        *p++ = (uint8_t)(scale_bits(m->scale) << 6 | (m->index & 7) << 3 | base);
    }
    if (mod == 1) {
        *p++ = (uint8_t)(int8_t)m->disp;
    } else if (mod == 2) {
        uint32_t d = (uint32_t)m->disp;
        for (int i = 0; i < 4; i++)
            *p++ = (uint8_t)(d >> (8 * i));
    }
    a->len = (uint32_t)(p - a->buf);
}

static void put_imm(X86Asm *a, unsigned bytes, int64_t v) {
    switch (bytes) {
    case 1:
        put8(a, (uint8_t)v);
        break;
    case 2:
        put16(a, (uint16_t)v);
        break;
    case 4:
        put32(a, (uint32_t)v);
        break;
    case 8:
        put64(a, (uint64_t)v);
        break;
    }
}

static void check_size(unsigned size) {
    if (size != 1 && size != 2 && size != 4 && size != 8)
        b3_internal_error(PHASE, "bad operand size %u", size);
}

/* The common "opcode /r" shape of integer instructions of a given size:
 * 16-bit gets the operand-size prefix, 64-bit REX.W; byte ops flag byte registers. */
static Enc int_enc(unsigned size, unsigned reg, const X86RM *rm) {
    check_size(size);
    Enc e = {0};
    e.prefix = size == 2 ? 0x66 : 0;
    e.w = size == 8;
    e.reg8 = e.rm8 = size == 1;
    e.reg = reg;
    e.rm = rm;
    return e;
}

/* Same, with an opcode extension (/digit) in ModRM.reg instead of a register. */
static Enc int_ext(unsigned size, unsigned ext, const X86RM *rm) {
    Enc e = int_enc(size, ext, rm);
    e.reg8 = false;
    return e;
}

static void no_byte_form(unsigned size) {
    if (size == 1)
        b3_internal_error(PHASE, "no 8-bit form");
}

static void op1(Enc *e, unsigned b) {
    e->op[0] = (uint8_t)b;
    e->nop = 1;
}
static void op2(Enc *e, unsigned b1, unsigned b2) {
    e->op[0] = (uint8_t)b1;
    e->op[1] = (uint8_t)b2;
    e->nop = 2;
}

static unsigned imm_size(unsigned size) { return size == 1 ? 1 : size == 2 ? 2 : 4; }

/* ---- integer instructions ----
 *
 * Like the SSE ones below, the "op reg, r/m" integer instructions are rows
 * of a table (opcode bytes, the direction of the ModRM.reg operand, whether
 * there is a byte form), encoded and listed by one function; the /digit
 * forms with immediates share one listing helper. */

/* One listing line: "\t<mnem><suffix>\t[$imm, ][op1[, op2]]" (linsn: only
 * with a listing, which most assembling has not). */
static void linsn_text(X86Asm *a, const char *mnem, char sfx, const int64_t *imm, const X86RM *op1,
                       unsigned size1, const X86RM *op2, unsigned size2) {
    char s[2] = {sfx, 0};
    lbegin(a, mnem, s);
    if (imm) {
        limm_sized(a, mnem, *imm, size1);
        if (op1)
            lsep(a);
    }
    if (op1)
        lrm(a, op1, size1);
    if (op2) {
        lsep(a);
        lrm(a, op2, size2);
    }
    lend(a);
}

static inline void linsn(X86Asm *a, const char *mnem, char sfx, const int64_t *imm, const X86RM *op1,
                         unsigned size1, const X86RM *op2, unsigned size2) {
    if (a->listing)
        linsn_text(a, mnem, sfx, imm, op1, size1, op2, size2);
}

typedef enum {
    I_AluMR, /* op r, r/m: the ALU operation * 8 is added to the opcode */
    I_AluRM,
    I_Test,
    I_MovMR,
    I_MovRM,
    I_Lea,
    I_Imul,
    I_Bsr,
    I_Cmov, /* the condition is added to the opcode */
    I_Cmpxchg,
    I_Xadd,
    I_Xchg,
    I_NUM
} IntOp;

enum { NO_BYTE_FORM = 0xff };

static const struct {
    const char *name;   /* NULL: given by the caller (ALU op, cmov condition) */
    uint8_t nop, op[2]; /* the 16/32/64-bit opcode */
    uint8_t byte_delta; /* the 8-bit form's last opcode byte is op - byte_delta, or NO_BYTE_FORM */
    bool reg_is_src;    /* MR: "op reg, r/m"; else RM: "op r/m, reg" */
} int_info[I_NUM] = {
    [I_AluMR] = {NULL, 1, {0x01}, 1, true},
    [I_AluRM] = {NULL, 1, {0x03}, 1, false},
    [I_Test] = {"test", 1, {0x85}, 1, true},
    [I_MovMR] = {"mov", 1, {0x89}, 1, true},
    [I_MovRM] = {"mov", 1, {0x8B}, 1, false},
    [I_Lea] = {"lea", 1, {0x8D}, NO_BYTE_FORM, false},
    [I_Imul] = {"imul", 2, {0x0F, 0xAF}, NO_BYTE_FORM, false},
    [I_Bsr] = {"bsr", 2, {0x0F, 0xBD}, NO_BYTE_FORM, false},
    [I_Cmov] = {NULL, 2, {0x0F, 0x40}, NO_BYTE_FORM, false},
    [I_Cmpxchg] = {"cmpxchg", 2, {0x0F, 0xB1}, 1, true},
    [I_Xadd] = {"xadd", 2, {0x0F, 0xC1}, 1, true},
    [I_Xchg] = {"xchg", 1, {0x87}, 1, true},
};

/* Row op of int_info with `add` added to its last opcode byte: reg in
 * ModRM.reg, rm in ModRM.rm, both of `size` bytes. */
static void int_rm(X86Asm *a, IntOp op, const char *name, unsigned add, unsigned size, B3Reg reg,
                   const X86RM *rm) {
    if (!name)
        name = int_info[op].name;
    if (size == 1 && int_info[op].byte_delta == NO_BYTE_FORM)
        b3_internal_error(PHASE, "no 8-bit form of %s", name);
    check_gpr(reg, name);
    Enc e = int_enc(size, reg, rm);
    e.nop = int_info[op].nop;
    memcpy(e.op, int_info[op].op, e.nop);
    e.op[e.nop - 1] += add - (size == 1 ? int_info[op].byte_delta : 0);
    encode(a, &e);
    X86RM r = x86_rm_reg(reg);
    if (int_info[op].reg_is_src)
        linsn(a, name, suffix(size), NULL, &r, size, rm, size);
    else
        linsn(a, name, suffix(size), NULL, rm, size, &r, size);
}

/* A /digit form (opcode extension ext) on dst, then imm_bytes of imm. */
static void int_ext_imm(X86Asm *a, unsigned opc, unsigned ext, unsigned size, const X86RM *dst,
                        unsigned imm_bytes, int64_t imm) {
    Enc e = int_ext(size, ext, dst);
    op1(&e, opc);
    e.imm_bytes = imm_bytes;
    encode(a, &e);
    put_imm(a, imm_bytes, imm);
}

static const char *const alu_names[8] = {"add", "or", "adc", "sbb", "and", "sub", "xor", "cmp"};

void x86_alu(X86Asm *a, X86AluOp op, unsigned size, const X86RM *src, const X86RM *dst) {
    /* op r, r/m (MR form; the one llvm-mc uses for register pairs too). */
    if (!src->is_mem)
        int_rm(a, I_AluMR, alu_names[op], op * 8, size, src->reg, dst);
    else if (!dst->is_mem)
        int_rm(a, I_AluRM, alu_names[op], op * 8, size, dst->reg, src);
    else
        b3_internal_error(PHASE, "%s with two memory operands", alu_names[op]);
}

/* The accumulator short form: op $imm, %al/%ax/%eax/%rax (opc is the 8-bit one). */
static void acc_imm(X86Asm *a, unsigned opc, unsigned size, int64_t imm) {
    if (size == 2)
        put8(a, 0x66);
    if (size == 8)
        put8(a, 0x48);
    put8(a, opc + (size == 1 ? 0 : 1));
    put_imm(a, imm_size(size), imm);
}

void x86_alu_imm(X86Asm *a, X86AluOp op, unsigned size, int32_t imm, const X86RM *dst) {
    if (size == 1)
        imm = (int8_t)imm;
    else if (size == 2)
        imm = (int16_t)imm;
    if (size == 1 || !fits8(imm)) {
        if (!dst->is_mem && dst->reg == B3X_rax)
            acc_imm(a, op * 8 + 4, size, imm);
        else
            int_ext_imm(a, size == 1 ? 0x80 : 0x81, op, size, dst, imm_size(size), imm);
    } else {
        int_ext_imm(a, 0x83, op, size, dst, 1, imm);
    }
    int64_t v = imm;
    linsn(a, alu_names[op], suffix(size), &v, dst, size, NULL, 0);
}

void x86_test(X86Asm *a, unsigned size, B3Reg src, const X86RM *dst) {
    int_rm(a, I_Test, NULL, 0, size, src, dst);
}

void x86_test_imm(X86Asm *a, unsigned size, int32_t imm, const X86RM *dst) {
    if (size == 1)
        imm = (int8_t)imm;
    else if (size == 2)
        imm = (int16_t)imm;
    if (!dst->is_mem && dst->reg == B3X_rax)
        acc_imm(a, 0xA8, size, imm);
    else
        int_ext_imm(a, size == 1 ? 0xF6 : 0xF7, 0, size, dst, imm_size(size), imm);
    int64_t v = imm;
    linsn(a, "test", suffix(size), &v, dst, size, NULL, 0);
}

void x86_mov(X86Asm *a, unsigned size, const X86RM *src, const X86RM *dst) {
    if (!src->is_mem)
        int_rm(a, I_MovMR, NULL, 0, size, src->reg, dst);
    else if (!dst->is_mem)
        int_rm(a, I_MovRM, NULL, 0, size, dst->reg, src);
    else
        b3_internal_error(PHASE, "mov with two memory operands");
}

void x86_mov_imm(X86Asm *a, unsigned size, int64_t imm, const X86RM *dst) {
    const char *mnem = "mov";
    if (size == 1)
        imm = (int8_t)imm;
    else if (size == 2)
        imm = (int16_t)imm;
    else if (size == 4)
        imm = (int32_t)imm;
    if (!dst->is_mem && size == 8 && !b3_fits32(imm)) {
        /* movabsq $imm64, %r: REX.W B8+r io. */
        check_gpr(dst->reg, "movabs destination");
        put8(a, 0x48 | (dst->reg >> 3));
        put8(a, 0xB8 + (dst->reg & 7));
        put64(a, (uint64_t)imm);
        mnem = "movabs";
    } else if (!dst->is_mem && size != 8) {
        /* mov $imm, %r8/16/32: B0+r ib, 66 B8+r iw, B8+r id (what llvm-mc picks). */
        check_gpr(dst->reg, "mov destination");
        if (size == 2)
            put8(a, 0x66);
        if (dst->reg & 8)
            put8(a, 0x41);
        else if (size == 1 && dst->reg >= 4)
            put8(a, 0x40); /* spl, bpl, sil, dil */
        put8(a, (size == 1 ? 0xB0 : 0xB8) + (dst->reg & 7));
        put_imm(a, size, imm);
    } else {
        if (size == 8 && !b3_fits32(imm))
            b3_internal_error(PHASE, "64-bit immediate store to memory");
        int_ext_imm(a, size == 1 ? 0xC6 : 0xC7, 0, size, dst, imm_size(size), imm);
    }
    linsn(a, mnem, suffix(size), &imm, dst, size, NULL, 0);
}

void x86_movx(X86Asm *a, X86ExtOp op, const X86RM *src, B3Reg dst) {
    static const struct {
        const char *name;
        uint8_t src_size, dst_size, opc;
    } info[] = {
        [X86Ext_Movzbl] = {"movzbl", 1, 4, 0xB6}, [X86Ext_Movzwl] = {"movzwl", 2, 4, 0xB7},
        [X86Ext_Movsbl] = {"movsbl", 1, 4, 0xBE}, [X86Ext_Movswl] = {"movswl", 2, 4, 0xBF},
        [X86Ext_Movslq] = {"movslq", 4, 8, 0x63},
    };
    Enc e = int_enc(info[op].dst_size, dst, src);
    e.reg8 = false;
    e.rm8 = info[op].src_size == 1;
    if (op == X86Ext_Movslq)
        op1(&e, 0x63);
    else
        op2(&e, 0x0F, info[op].opc);
    encode(a, &e);
    X86RM d = x86_rm_reg(dst);
    linsn(a, info[op].name, 0, NULL, src, info[op].src_size, &d, info[op].dst_size);
}

void x86_lea(X86Asm *a, unsigned size, const X86Mem *m, B3Reg dst) {
    if (m->got)
        b3_internal_error(PHASE, "lea of a GOT entry");
    X86RM rm = x86_rm_mem(*m);
    int_rm(a, I_Lea, NULL, 0, size, dst, &rm);
}

void x86_imul(X86Asm *a, unsigned size, const X86RM *src, B3Reg dst) {
    int_rm(a, I_Imul, NULL, 0, size, dst, src);
}

void x86_imul_imm(X86Asm *a, unsigned size, int32_t imm, const X86RM *src, B3Reg dst) {
    no_byte_form(size);
    Enc e = int_enc(size, dst, src);
    bool short_imm = fits8(imm);
    op1(&e, short_imm ? 0x6B : 0x69);
    e.imm_bytes = short_imm ? 1 : imm_size(size);
    encode(a, &e);
    put_imm(a, e.imm_bytes, imm);
    int64_t v = imm;
    X86RM d = x86_rm_reg(dst);
    linsn(a, "imul", suffix(size), &v, src, size, &d, size);
}

void x86_unary(X86Asm *a, X86UnaryOp op, unsigned size, const X86RM *dst) {
    static const char *const names[8] = {"?", "?", "not", "neg", "mul", "imul", "div", "idiv"};
    int_ext_imm(a, size == 1 ? 0xF6 : 0xF7, op, size, dst, 0, 0);
    linsn(a, names[op], suffix(size), NULL, dst, size, NULL, 0);
}

static const char *const shift_names[8] = {"rol", "ror", "rcl", "rcr", "shl", "shr", "sal", "sar"};

void x86_shift_cl(X86Asm *a, X86ShiftOp op, unsigned size, const X86RM *dst) {
    int_ext_imm(a, size == 1 ? 0xD2 : 0xD3, op, size, dst, 0, 0);
    X86RM cl = x86_rm_reg(B3X_rcx);
    linsn(a, shift_names[op], suffix(size), NULL, &cl, 1, dst, size);
}

void x86_shift_imm(X86Asm *a, X86ShiftOp op, unsigned size, uint8_t imm, const X86RM *dst) {
    if (imm == 1)
        int_ext_imm(a, size == 1 ? 0xD0 : 0xD1, op, size, dst, 0, 0);
    else
        int_ext_imm(a, size == 1 ? 0xC0 : 0xC1, op, size, dst, 1, imm);
    int64_t v = imm;
    linsn(a, shift_names[op], suffix(size), &v, dst, size, NULL, 0);
}

static void no_operands(X86Asm *a, const char *mnem, unsigned n, const uint8_t *bytes) {
    for (unsigned i = 0; i < n; i++)
        put8(a, bytes[i]);
    if (a->listing) {
        fprintf(a->listing, "\t%s", mnem);
        lend(a);
    }
}

/* bswap r: 0F C8+r, REX.W for 64 bits, REX.B for r8-r15. */
void x86_bswap(X86Asm *a, unsigned size, B3Reg r) {
    const char *mnem = size == 8 ? "bswapq" : "bswapl";
    check_gpr(r, mnem);
    unsigned rex = (size == 8 ? 0x48 : 0x40) | (r & 8 ? 1 : 0);
    if (rex != 0x40)
        put8(a, (uint8_t)rex);
    put8(a, 0x0F);
    put8(a, (uint8_t)(0xC8 + (r & 7)));
    if (a->listing) {
        lbegin(a, mnem, "");
        lreg(a, r, size);
        lend(a);
    }
}

void x86_cdq(X86Asm *a) { no_operands(a, "cltd", 1, (const uint8_t[]){0x99}); }
void x86_cqo(X86Asm *a) { no_operands(a, "cqto", 2, (const uint8_t[]){0x48, 0x99}); }

void x86_bsr(X86Asm *a, unsigned size, const X86RM *src, B3Reg dst) {
    int_rm(a, I_Bsr, NULL, 0, size, dst, src);
}

void x86_cmov(X86Asm *a, unsigned cc, unsigned size, const X86RM *src, B3Reg dst) {
    char m[16];
    snprintf(m, sizeof m, "cmov%s", x86_cc_name(cc));
    int_rm(a, I_Cmov, m, cc & 15, size, dst, src);
}

void x86_setcc(X86Asm *a, unsigned cc, const X86RM *dst) {
    Enc e = int_ext(1, 0, dst);
    op2(&e, 0x0F, 0x90 + (cc & 15));
    encode(a, &e);
    char m[8];
    snprintf(m, sizeof m, "set%s", x86_cc_name(cc));
    linsn(a, m, 0, NULL, dst, 1, NULL, 0);
}

/* ---- atomics ---- */

/* The lock prefix, listed on a line of its own (llvm-mc reads it as a prefix of the next instruction). */
void x86_lock(X86Asm *a) { no_operands(a, "lock", 1, (const uint8_t[]){0xF0}); }

void x86_cmpxchg(X86Asm *a, unsigned size, B3Reg src, const X86RM *dst) {
    int_rm(a, I_Cmpxchg, NULL, 0, size, src, dst);
}
void x86_xadd(X86Asm *a, unsigned size, B3Reg src, const X86RM *dst) {
    int_rm(a, I_Xadd, NULL, 0, size, src, dst);
}

void x86_xchg(X86Asm *a, unsigned size, B3Reg src, const X86Mem *dst) {
    /* Memory only: llvm-mc encodes register pairs with the accumulator as 90+r. */
    X86RM m = x86_rm_mem(*dst);
    int_rm(a, I_Xchg, NULL, 0, size, src, &m);
}

/* ---- SSE ---- */

enum { K_XMM, K_G32, K_G64 };

static const struct {
    const char *name;
    uint8_t prefix, op, w;
    uint8_t src, dst; /* K_* */
    bool reg_is_src;  /* ModRM.reg holds the source (stores, moves out of xmm) */
} sse_info[X86_NUM_SSE_OPS] = {
    [X86Sse_Addsd] = {"addsd", 0xF2, 0x58, 0, K_XMM, K_XMM, false},
    [X86Sse_Addss] = {"addss", 0xF3, 0x58, 0, K_XMM, K_XMM, false},
    [X86Sse_Subsd] = {"subsd", 0xF2, 0x5C, 0, K_XMM, K_XMM, false},
    [X86Sse_Subss] = {"subss", 0xF3, 0x5C, 0, K_XMM, K_XMM, false},
    [X86Sse_Mulsd] = {"mulsd", 0xF2, 0x59, 0, K_XMM, K_XMM, false},
    [X86Sse_Mulss] = {"mulss", 0xF3, 0x59, 0, K_XMM, K_XMM, false},
    [X86Sse_Divsd] = {"divsd", 0xF2, 0x5E, 0, K_XMM, K_XMM, false},
    [X86Sse_Divss] = {"divss", 0xF3, 0x5E, 0, K_XMM, K_XMM, false},
    [X86Sse_Sqrtsd] = {"sqrtsd", 0xF2, 0x51, 0, K_XMM, K_XMM, false},
    [X86Sse_Sqrtss] = {"sqrtss", 0xF3, 0x51, 0, K_XMM, K_XMM, false},
    [X86Sse_Andpd] = {"andpd", 0x66, 0x54, 0, K_XMM, K_XMM, false},
    [X86Sse_Andps] = {"andps", 0, 0x54, 0, K_XMM, K_XMM, false},
    [X86Sse_Orpd] = {"orpd", 0x66, 0x56, 0, K_XMM, K_XMM, false},
    [X86Sse_Orps] = {"orps", 0, 0x56, 0, K_XMM, K_XMM, false},
    [X86Sse_Xorpd] = {"xorpd", 0x66, 0x57, 0, K_XMM, K_XMM, false},
    [X86Sse_Xorps] = {"xorps", 0, 0x57, 0, K_XMM, K_XMM, false},
    [X86Sse_Cvtsd2ss] = {"cvtsd2ss", 0xF2, 0x5A, 0, K_XMM, K_XMM, false},
    [X86Sse_Cvtss2sd] = {"cvtss2sd", 0xF3, 0x5A, 0, K_XMM, K_XMM, false},
    [X86Sse_Movaps] = {"movaps", 0, 0x28, 0, K_XMM, K_XMM, false},
    [X86Sse_MovsdLoad] = {"movsd", 0xF2, 0x10, 0, K_XMM, K_XMM, false},
    [X86Sse_MovssLoad] = {"movss", 0xF3, 0x10, 0, K_XMM, K_XMM, false},
    [X86Sse_MovqLoad] = {"movq", 0xF3, 0x7E, 0, K_XMM, K_XMM, false},
    [X86Sse_Ucomisd] = {"ucomisd", 0x66, 0x2E, 0, K_XMM, K_XMM, false},
    [X86Sse_Ucomiss] = {"ucomiss", 0, 0x2E, 0, K_XMM, K_XMM, false},
    [X86Sse_Cvtsi2sdl] = {"cvtsi2sdl", 0xF2, 0x2A, 0, K_G32, K_XMM, false},
    [X86Sse_Cvtsi2sdq] = {"cvtsi2sdq", 0xF2, 0x2A, 1, K_G64, K_XMM, false},
    [X86Sse_Cvtsi2ssl] = {"cvtsi2ssl", 0xF3, 0x2A, 0, K_G32, K_XMM, false},
    [X86Sse_Cvtsi2ssq] = {"cvtsi2ssq", 0xF3, 0x2A, 1, K_G64, K_XMM, false},
    [X86Sse_MovdToXmm] = {"movd", 0x66, 0x6E, 0, K_G32, K_XMM, false},
    [X86Sse_MovqToXmm] = {"movq", 0x66, 0x6E, 1, K_G64, K_XMM, false},
    [X86Sse_Cvttsd2si32] = {"cvttsd2si", 0xF2, 0x2C, 0, K_XMM, K_G32, false},
    [X86Sse_Cvttsd2si64] = {"cvttsd2si", 0xF2, 0x2C, 1, K_XMM, K_G64, false},
    [X86Sse_Cvttss2si32] = {"cvttss2si", 0xF3, 0x2C, 0, K_XMM, K_G32, false},
    [X86Sse_Cvttss2si64] = {"cvttss2si", 0xF3, 0x2C, 1, K_XMM, K_G64, false},
    [X86Sse_MovsdStore] = {"movsd", 0xF2, 0x11, 0, K_XMM, K_XMM, true},
    [X86Sse_MovssStore] = {"movss", 0xF3, 0x11, 0, K_XMM, K_XMM, true},
    [X86Sse_MovdFromXmm] = {"movd", 0x66, 0x7E, 0, K_XMM, K_G32, true},
    [X86Sse_MovqFromXmm] = {"movq", 0x66, 0x7E, 1, K_XMM, K_G64, true},
};

static void check_kind(const X86RM *rm, unsigned kind, const char *name) {
    if (rm->is_mem)
        return;
    bool ok = kind == K_XMM ? b3_reg_is_fpr(rm->reg) && rm->reg < B3_FPR_BASE + 16 : rm->reg < 16;
    if (!ok)
        b3_internal_error(PHASE, "%s: wrong register bank (%u)", name, rm->reg);
}

static void lsse_operand(X86Asm *a, const X86RM *rm, unsigned kind) { lrm(a, rm, kind == K_G32 ? 4 : 8); }

void x86_sse(X86Asm *a, X86SseOp op, const X86RM *src, const X86RM *dst) {
    const char *name = sse_info[op].name;
    check_kind(src, sse_info[op].src, name);
    check_kind(dst, sse_info[op].dst, name);
    const X86RM *reg = sse_info[op].reg_is_src ? src : dst, *rm = sse_info[op].reg_is_src ? dst : src;
    if (reg->is_mem)
        b3_internal_error(PHASE, "%s: memory operand in the register position", name);
    Enc e = {0};
    e.prefix = sse_info[op].prefix;
    e.w = sse_info[op].w;
    e.reg = reg->reg;
    e.rm = rm;
    op2(&e, 0x0F, sse_info[op].op);
    encode(a, &e);
    if (a->listing) {
        lbegin(a, name, "");
        lsse_operand(a, src, sse_info[op].src);
        lsep(a);
        lsse_operand(a, dst, sse_info[op].dst);
        lend(a);
    }
}

void x86_round(X86Asm *a, bool dbl, uint8_t mode, const X86RM *src, B3Reg dst) {
    check_kind(src, K_XMM, "round");
    Enc e = {0};
    e.prefix = 0x66;
    e.reg = dst;
    e.rm = src;
    e.op[0] = 0x0F;
    e.op[1] = 0x3A;
    e.op[2] = dbl ? 0x0B : 0x0A;
    e.nop = 3;
    e.imm_bytes = 1;
    encode(a, &e);
    put8(a, mode);
    if (a->listing) {
        lbegin(a, dbl ? "roundsd" : "roundss", "");
        limm(a, mode);
        lsep(a);
        lrm(a, src, 8);
        lsep(a);
        lreg(a, dst, 8);
        lend(a);
    }
}

/* ---- control flow ---- */

/* A jump: forced short; sized by relaxation (a->relax); or else the short
 * form when the label is bound and in range, the 32-bit form otherwise. */
static void jump(X86Asm *a, int cc, uint32_t label, bool force_short) {
    if (label >= a->nlabels)
        b3_internal_error(PHASE, "bad label %u", label);
    bool short_form = force_short;
    uint32_t relaxed = 0; /* this jump's number + 1 when relaxation sizes it */
    if (!force_short && a->relax) {
        X86Relax *r = a->relax;
        uint32_t k = a->njumps++;
        if (k >= r->n) {
            B3_VEC_RESERVE(PHASE, r->is_long, r->cap, k + 1);
            memset(r->is_long + r->n, 0, k + 1 - r->n);
            r->n = k + 1;
        }
        short_form = !r->is_long[k];
        relaxed = short_form ? k + 1 : 0;
        relax_point(a, cc < 0 ? RelaxJmp : RelaxJcc, a->len, label, k, short_form ? 2 : cc < 0 ? 5 : 6);
    } else if (!force_short && a->label_pos[label] >= 0) {
        short_form = fits8(a->label_pos[label] - (int64_t)(a->len + 2));
    }
    if (short_form) {
        put8(a, cc < 0 ? 0xEB : 0x70 + cc);
        put8(a, 0);
        label_ref(a, label, a->len - 1, a->len, 0, 1, relaxed);
    } else {
        if (cc < 0) {
            put8(a, 0xE9);
        } else {
            put8(a, 0x0F);
            put8(a, 0x80 + cc);
        }
        put32(a, 0);
        label_ref(a, label, a->len - 4, a->len, 0, 4, 0);
    }
    if (a->listing) {
        fprintf(a->listing, "\t%sj%s\t", !short_form && a->listing_disp32 ? "{disp32} " : "",
                cc < 0 ? "mp" : x86_cc_name((unsigned)cc));
        llabel(a, label);
        lend(a);
    }
}

void x86_jcc(X86Asm *a, unsigned cc, uint32_t label) { jump(a, (int)(cc & 15), label, false); }
void x86_jmp(X86Asm *a, uint32_t label) { jump(a, -1, label, false); }
void x86_jcc_short(X86Asm *a, unsigned cc, uint32_t label) { jump(a, (int)(cc & 15), label, true); }

static void indirect(X86Asm *a, unsigned ext, const char *mnem, const X86RM *target) {
    Enc e = int_ext(4, ext, target); /* 64-bit by default: no REX.W */
    op1(&e, 0xFF);
    encode(a, &e);
    if (a->listing) {
        lbegin(a, mnem, "");
        fputc('*', a->listing);
        lrm(a, target, 8);
        lend(a);
    }
}

void x86_jmp_rm(X86Asm *a, const X86RM *target) { indirect(a, 4, "jmpq", target); }
void x86_call_rm(X86Asm *a, const X86RM *target) { indirect(a, 2, "callq", target); }

void x86_call_sym(X86Asm *a, B3Symbol *sym, int64_t addend) {
    put8(a, 0xE8);
    /* An offset into a function cannot go through its PLT entry. */
    reloc(a, a->len, addend ? B3Reloc_X86_Branch32 : B3Reloc_X86_PLT32, sym, addend - 4);
    put32(a, 0);
    if (a->listing) {
        lbegin(a, "callq", "");
        lsym(a, sym, addend ? B3Reloc_X86_Branch32 : B3Reloc_X86_PLT32);
        if (addend)
            fprintf(a->listing, "%+" PRId64, addend);
        lend(a);
    }
}

/* ---- thread-local addresses (docs/c-extensions.md) ----
 * The psABI's sequences byte for byte, so that linkers recognize and relax
 * them (general-dynamic to initial- or local-exec in an executable,
 * initial-exec to local-exec). */

/* A listing line of raw prefix bytes (both assemblers read .byte in code). */
static void lbytes(X86Asm *a, unsigned n, const uint8_t *b) {
    for (unsigned i = 0; i < n; i++)
        put8(a, b[i]);
    if (a->listing) {
        fputs("\t.byte\t", a->listing);
        for (unsigned i = 0; i < n; i++)
            fprintf(a->listing, "%s0x%02x", i ? ", " : "", b[i]);
        lend(a);
    }
}

/* movq %fs:0, dst (the thread pointer), then dst += the variable's offset:
 * leaq x@tpoff(dst), dst (local-exec) or addq x@gottpoff(%rip), dst
 * (initial-exec: the offset is in a GOT entry the dynamic linker fills). */
void x86_tls_exec(X86Asm *a, B3Symbol *sym, bool initial_exec, B3Reg dst) {
    check_gpr(dst, "thread-local address");
    unsigned r = dst & 7, rex = 0x48 | (dst & 8 ? 0x04 : 0);
    put8(a, 0x64);
    put8(a, rex);
    put8(a, 0x8B);
    put8(a, (r << 3) | 4); /* mod 00, rm 100: SIB */
    put8(a, 0x25);         /* no base, no index: disp32 */
    put32(a, 0);
    if (a->listing) {
        lbegin(a, "movq", "");
        fputs("%fs:0, ", a->listing);
        lreg(a, dst, 8);
        lend(a);
    }
    if (initial_exec) {
        put8(a, rex);
        put8(a, 0x03);
        put8(a, (r << 3) | 5); /* RIP-relative */
        reloc(a, a->len, B3Reloc_X86_GOTTPOFF, sym, -4);
        put32(a, 0);
        if (a->listing) {
            lbegin(a, "addq", "");
            lsym(a, sym, B3Reloc_X86_GOTTPOFF);
            fputs("(%rip), ", a->listing);
            lreg(a, dst, 8);
            lend(a);
        }
        return;
    }
    put8(a, rex | (dst & 8 ? 0x01 : 0));
    put8(a, 0x8D);
    put8(a, 0x80 | (r << 3) | r); /* mod 10: disp32 */
    if (r == 4)
        put8(a, 0x24); /* rsp/r12 as a base needs a SIB */
    reloc(a, a->len, B3Reloc_X86_TPOFF32, sym, 0);
    put32(a, 0);
    if (a->listing) {
        lbegin(a, "leaq", "");
        lsym(a, sym, B3Reloc_X86_TPOFF32);
        fputs("(", a->listing);
        lreg(a, dst, 8);
        fputs("), ", a->listing);
        lreg(a, dst, 8);
        lend(a);
    }
}

/* General-dynamic: data16 leaq x@tlsgd(%rip), %rdi; data16 data16 rex64
 * callq __tls_get_addr@PLT (16 bytes, the padding making room for the
 * linker's rewrite); the address comes back in %rax. */
void x86_tls_general_dynamic(X86Asm *a, B3Symbol *sym, B3Symbol *tls_get_addr) {
    lbytes(a, 1, (const uint8_t[]){0x66});
    put8(a, 0x48);
    put8(a, 0x8D);
    put8(a, 0x3D); /* rdi, RIP-relative */
    reloc(a, a->len, B3Reloc_X86_TLSGD, sym, -4);
    put32(a, 0);
    if (a->listing) {
        lbegin(a, "leaq", "");
        lsym(a, sym, B3Reloc_X86_TLSGD);
        fputs("(%rip), %rdi", a->listing);
        lend(a);
    }
    lbytes(a, 3, (const uint8_t[]){0x66, 0x66, 0x48});
    put8(a, 0xE8);
    reloc(a, a->len, B3Reloc_X86_PLT32, tls_get_addr, -4);
    put32(a, 0);
    if (a->listing) {
        lbegin(a, "callq", "");
        lsym(a, tls_get_addr, B3Reloc_X86_PLT32);
        lend(a);
    }
}

/* Mach-O: movq _x@TLVP(%rip), %rdi; callq *(%rdi): the descriptor's thunk
 * returns the address in %rax. */
void x86_tls_tlv(X86Asm *a, B3Symbol *sym) {
    put8(a, 0x48);
    put8(a, 0x8B);
    put8(a, 0x3D);
    reloc(a, a->len, B3Reloc_X86_TLV, sym, -4);
    put32(a, 0);
    if (a->listing) {
        lbegin(a, "movq", "");
        lsym(a, sym, B3Reloc_X86_TLV);
        fputs("(%rip), %rdi", a->listing);
        lend(a);
    }
    put8(a, 0xFF);
    put8(a, 0x17);
    if (a->listing) {
        lbegin(a, "callq", "");
        fputs("*(%rdi)", a->listing);
        lend(a);
    }
}

static void push_pop(X86Asm *a, unsigned base, const char *mnem, B3Reg r) {
    check_gpr(r, mnem);
    if (r & 8)
        put8(a, 0x41);
    put8(a, base + (r & 7));
    if (a->listing) {
        lbegin(a, mnem, "");
        lreg(a, r, 8);
        lend(a);
    }
}

void x86_push(X86Asm *a, B3Reg r) { push_pop(a, 0x50, "pushq", r); }
void x86_pop(X86Asm *a, B3Reg r) { push_pop(a, 0x58, "popq", r); }

static void simple(X86Asm *a, const char *mnem, unsigned n, const uint8_t *bytes) {
    for (unsigned i = 0; i < n; i++)
        put8(a, bytes[i]);
    if (a->listing) {
        fprintf(a->listing, "\t%s", mnem);
        lend(a);
    }
}

void x86_ret(X86Asm *a) { simple(a, "retq", 1, (const uint8_t[]){0xC3}); }
void x86_leave(X86Asm *a) { simple(a, "leave", 1, (const uint8_t[]){0xC9}); }
void x86_ud2(X86Asm *a) { simple(a, "ud2", 2, (const uint8_t[]){0x0F, 0x0B}); }
void x86_mfence(X86Asm *a) { simple(a, "mfence", 3, (const uint8_t[]){0x0F, 0xAE, 0xF0}); }

/* ---- x87 ----
 *
 * The extended-precision unit's instructions b3c uses (the X87 opcode,
 * docs/c-extensions.md): loads and stores of memory as "opcode /digit", and
 * register-stack forms of two fixed bytes. */

static const struct {
    const char *name;
    uint8_t op, digit;
} x87_mem[X87_NUM_MEM] = {
    [X87_Fldt] = {"fldt", 0xDB, 5},     [X87_Fstpt] = {"fstpt", 0xDB, 7},   [X87_Fildl] = {"fildl", 0xDB, 0},
    [X87_Fildll] = {"fildll", 0xDF, 5}, [X87_Fistpll] = {"fistpll", 0xDF, 7}, [X87_Flds] = {"flds", 0xD9, 0},
    [X87_Fstps] = {"fstps", 0xD9, 3},   [X87_Fldl] = {"fldl", 0xDD, 0},     [X87_Fstpl] = {"fstpl", 0xDD, 3},
    [X87_Fnstcw] = {"fnstcw", 0xD9, 7}, [X87_Fldcw] = {"fldcw", 0xD9, 5},
};

void x86_x87_mem(X86Asm *a, X86X87Mem op, const X86Mem *m) {
    X86RM rm = x86_rm_mem(*m);
    Enc e = {0};
    e.reg = x87_mem[op].digit;
    e.rm = &rm;
    op1(&e, x87_mem[op].op);
    encode(a, &e);
    linsn(a, x87_mem[op].name, 0, NULL, &rm, 8, NULL, 0);
}

/* The AT&T names of the register forms: "fsubrp %st, %st(1)" is DE E9,
 * st(1) = st(1) - st(0) (Intel's FSUBP), and likewise fdivrp. */
static const struct {
    const char *text;
    uint8_t bytes[2];
} x87_reg[X87_NUM_REG] = {
    [X87_Faddp] = {"faddp\t%st, %st(1)", {0xDE, 0xC1}},  [X87_Fsubp] = {"fsubrp\t%st, %st(1)", {0xDE, 0xE9}},
    [X87_Fmulp] = {"fmulp\t%st, %st(1)", {0xDE, 0xC9}},  [X87_Fdivp] = {"fdivrp\t%st, %st(1)", {0xDE, 0xF9}},
    [X87_Fchs] = {"fchs", {0xD9, 0xE0}},                  [X87_Fabs] = {"fabs", {0xD9, 0xE1}},
    [X87_Fucomip] = {"fucomip\t%st(1), %st", {0xDF, 0xE9}}, [X87_Fpop] = {"fstp\t%st(0)", {0xDD, 0xD8}},
};

void x86_x87(X86Asm *a, X86X87Reg op) { no_operands(a, x87_reg[op].text, 2, x87_reg[op].bytes); }

/* ---- raw bytes ---- */

static void raw(X86Asm *a, const uint8_t *bytes, uint32_t n) {
    if (!n)
        return;
    if (a->listing)
        fputs("\t.byte\t", a->listing);
    for (uint32_t i = 0; i < n; i++) {
        put8(a, bytes[i]);
        if (a->listing)
            fprintf(a->listing, "%s0x%02x", i ? "," : "", bytes[i]);
    }
    if (a->listing)
        lend(a);
}

/* The recommended multi-byte nop sequences (Intel SDM, NOP), and at 10 bytes
 * the one GNU as and llvm-mc both pad with (a CS prefix on the 9-byte one). */
static const uint8_t nop_seq[10][10] = {
    {0x90},
    {0x66, 0x90},
    {0x0F, 0x1F, 0x00},
    {0x0F, 0x1F, 0x40, 0x00},
    {0x0F, 0x1F, 0x44, 0x00, 0x00},
    {0x66, 0x0F, 0x1F, 0x44, 0x00, 0x00},
    {0x0F, 0x1F, 0x80, 0x00, 0x00, 0x00, 0x00},
    {0x0F, 0x1F, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
    {0x66, 0x0F, 0x1F, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
    {0x66, 0x2E, 0x0F, 0x1F, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
};

void x86_nops(X86Asm *a, uint32_t n) {
    while (n) {
        uint32_t k = n > 9 ? 9 : n;
        raw(a, nop_seq[k - 1], k);
        n -= k;
    }
}

static unsigned log2_of(uint32_t align) {
    if (!align || (align & (align - 1)))
        b3_internal_error(PHASE, "alignment %u is not a power of two", align);
    return b3_log2_floor(align);
}

void x86_align_code(X86Asm *a, uint32_t align, uint32_t max) {
    /* Up to 10 bytes both assemblers pad with one nop, the one we emit;
     * beyond that they differ, and -S would not give these bytes. */
    if (max > 10)
        b3_internal_error(PHASE, "code alignment padding above 10 bytes");
    unsigned log2 = log2_of(align);
    uint32_t n = (align - a->len % align) % align;
    if (n > max)
        n = 0;
    if (a->relax)
        relax_point(a, RelaxAlignCode, a->len, align, max, n);
    if (a->listing && a->listing_p2align) {
        /* The assembler pads to where the code it assembled ends up. */
        for (uint32_t i = 0; i < n; i++)
            put8(a, nop_seq[n - 1][i]);
        fprintf(a->listing, "\t.p2align\t%u,,%u", log2, max);
        lend(a);
        return;
    }
    if (n)
        raw(a, nop_seq[n - 1], n);
}

void x86_align(X86Asm *a, uint32_t align, uint8_t fill) {
    uint8_t pad[64];
    uint32_t n = (align - a->len % align) % align;
    if (a->relax)
        relax_point(a, RelaxAlignFill, a->len, align, 0, n);
    if (a->listing && a->listing_p2align) {
        /* The assembler pads to where the code it assembled ends up. */
        unsigned log2 = log2_of(align);
        for (uint32_t i = 0; i < n; i++)
            put8(a, fill);
        fprintf(a->listing, "\t.p2align\t%u, 0x%02x", log2, fill);
        lend(a);
        return;
    }
    memset(pad, fill, sizeof pad);
    while (n) {
        uint32_t k = n > sizeof pad ? (uint32_t)sizeof pad : n;
        raw(a, pad, k);
        n -= k;
    }
}

void x86_data32_label_diff(X86Asm *a, uint32_t target, uint32_t base) {
    if (!x86_label_bound(a, base))
        b3_internal_error(PHASE, "data word relative to an unbound label");
    uint32_t pos = a->len;
    put32(a, 0);
    /* label(target) - label(base) == target + (pos - base) - pos. */
    label_ref(a, target, pos, pos, (int32_t)(pos - (uint32_t)a->label_pos[base]), 4, 0);
    if (a->listing) {
        fputs("\t.long\t", a->listing);
        llabel(a, target);
        fputc('-', a->listing);
        llabel(a, base);
        lend(a);
    }
}
