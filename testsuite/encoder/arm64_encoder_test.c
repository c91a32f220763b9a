/* AArch64 encoder test: every instruction of codegen/arm64/asm.h over a
 * spread of registers (x0, x15, x28, x29, x30, sp/xzr), immediates at the
 * edges of their fields, addressing modes, conditions, labels in both
 * directions and symbol relocations.  For each case it writes the
 * assembler's listing to CASES.s (one label "cN:" per case) and its bytes and
 * relocations to CASES.expected; compare.py assembles the listing with
 * llvm-mc and compares both exactly.
 *
 * The logical-immediate and FP-immediate encoders are tested both ways:
 * every value they accept is a case (llvm-mc must encode it the same), and
 * every value they refuse goes to REJECTS.s as an instruction llvm-mc must
 * refuse too.  All 5334 64-bit and 1302 32-bit bitmask immediates are
 * generated here and must be accepted and decode back.
 *
 *   arm64_encoder_test OUT.s OUT.expected REJECTS.s */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/arm64/asm.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

typedef struct {
    FILE *s_out, *exp_out, *rej_out;
    uint32_t ncases, nrejects, failures;
    /* the case being assembled */
    Arm64Asm a;
    char *text;
    size_t tlen;
    char prefix[32];
    const char *what;
} T;

static B3Symbol ext_sym = {.name = "ext_fn", .name_len = 6};
static B3Symbol data_sym = {.name = "data_sym", .name_len = 8};

static const char *reloc_name(unsigned k) {
    switch (k) {
    case B3Reloc_A64_Call26:
        return "R_AARCH64_CALL26";
    case B3Reloc_A64_Jump26:
        return "R_AARCH64_JUMP26";
    case B3Reloc_A64_AdrPrelLo21:
        return "R_AARCH64_ADR_PREL_LO21";
    case B3Reloc_A64_AdrPrelPgHi21:
        return "R_AARCH64_ADR_PREL_PG_HI21";
    case B3Reloc_A64_AddAbsLo12:
        return "R_AARCH64_ADD_ABS_LO12_NC";
    case B3Reloc_A64_Ldst8Lo12:
        return "R_AARCH64_LDST8_ABS_LO12_NC";
    case B3Reloc_A64_Ldst16Lo12:
        return "R_AARCH64_LDST16_ABS_LO12_NC";
    case B3Reloc_A64_Ldst32Lo12:
        return "R_AARCH64_LDST32_ABS_LO12_NC";
    case B3Reloc_A64_Ldst64Lo12:
        return "R_AARCH64_LDST64_ABS_LO12_NC";
    case B3Reloc_A64_Ldst128Lo12:
        return "R_AARCH64_LDST128_ABS_LO12_NC";
    case B3Reloc_A64_AdrGotPage:
        return "R_AARCH64_ADR_GOT_PAGE";
    case B3Reloc_A64_Ld64GotLo12:
        return "R_AARCH64_LD64_GOT_LO12_NC";
    default:
        return "?";
    }
}

static void begin(T *t, const char *what) {
    arm64_asm_init(&t->a);
    t->text = NULL;
    t->tlen = 0;
    t->a.listing = open_memstream(&t->text, &t->tlen);
    snprintf(t->prefix, sizeof t->prefix, "c%u_L", t->ncases);
    t->a.label_prefix = t->prefix;
    t->what = what;
}

static void end(T *t) {
    uint32_t n = t->ncases++;
    arm64_asm_check_labels(&t->a);
    fclose(t->a.listing);
    fprintf(t->s_out, "# case %u: %s\nc%u:\n%s", n, t->what, n, t->text);
    fprintf(t->exp_out, "case %u ", n);
    for (uint32_t i = 0; i < t->a.len; i++)
        fprintf(t->exp_out, "%02x", t->a.buf[i]);
    fputs(t->a.len ? "\n" : "-\n", t->exp_out);
    for (uint32_t i = 0; i < t->a.nrelocs; i++)
        fprintf(t->exp_out, "reloc %u %u %s %s %" PRId64 "\n", n, t->a.relocs[i].offset,
                reloc_name(t->a.relocs[i].kind), t->a.relocs[i].sym->name, t->a.relocs[i].addend);
    free(t->text);
    arm64_asm_free(&t->a);
}

/* One case of one instruction. */
#define CASE(t, what, ...) \
    do {                   \
        begin(t, what);    \
        __VA_ARGS__;       \
        end(t);            \
    } while (0)

static void fail(T *t, const char *fmt, uint64_t v) {
    printf("FAIL: ");
    printf(fmt, v);
    printf("\n");
    t->failures++;
}

/* GPRs: x0, x15, x28, x29, x30 and 31 (sp or xzr, as the field means). */
static const B3Reg R[] = {0, 15, 28, 29, 30, 31, 1, 7};
#define NR N(R)
static B3Reg r_at(unsigned i) { return R[i % NR]; }
/* GPRs that are never 31 (base registers of writebacks, status registers...). */
static const B3Reg RN[] = {0, 1, 15, 28, 30};
static const B3Reg V[] = {32 + 0, 32 + 1, 32 + 15, 32 + 16, 32 + 31};
#define NV N(V)
static B3Reg v_at(unsigned i) { return V[i % NV]; }

/* ---- integer arithmetic ---- */

static void test_addsub(T *t) {
    static const uint32_t imms[] = {0, 1, 4095, 2048};
    for (unsigned op = 0; op < 4; op++)
        for (unsigned w = 0; w < 2; w++) {
            for (unsigned i = 0; i < NR; i++)
                for (unsigned k = 0; k < N(imms); k++)
                    CASE(t, "add/sub immediate",
                         arm64_addsub_imm(&t->a, op, w, r_at(i), r_at(i + 1 + k), imms[k], (i + k) & 1));
            unsigned max = w ? 63 : 31;
            const unsigned amounts[] = {0, 1, max / 2, max};
            for (unsigned sh = 0; sh < 3; sh++)
                for (unsigned k = 0; k < N(amounts); k++)
                    for (unsigned i = 0; i < 3; i++)
                        CASE(t, "add/sub shifted register",
                             arm64_addsub_shifted(&t->a, op, w, r_at(i + k), r_at(i + k + 2), r_at(i + k + 5),
                                                  sh, amounts[k]));
            for (unsigned ext = 0; ext < 8; ext++)
                for (unsigned amt = 0; amt <= 4; amt += 2)
                    for (unsigned i = 0; i < 3; i++)
                        CASE(t, "add/sub extended register",
                             arm64_addsub_ext(&t->a, op, w, r_at(ext + i + 3), r_at(ext + i + 5),
                                              r_at(i + amt), ext, (amt + i) % 5));
        }
    for (unsigned w = 0; w < 2; w++)
        for (unsigned i = 0; i < NR; i++) {
            CASE(t, "neg", arm64_neg(&t->a, i & 1, w, r_at(i), r_at(i + 3), i % 3, i % 3 ? 1 + i : 0));
            CASE(t, "cmp imm", arm64_cmp_imm(&t->a, i & 1, w, r_at(i), i * 585, i & 2));
            CASE(t, "cmp reg", arm64_cmp(&t->a, i & 1, w, r_at(i), r_at(i + 2), i % 3, i));
            CASE(t, "cmp ext", arm64_cmp_ext(&t->a, i & 1, w, r_at(i), r_at(i + 1), i, i % 5));
        }
    static const int64_t any[] = {0, 1, -1, 4095, -4095, 4096, -4096, 0xfff000, -0xfff000, 0x123000};
    for (unsigned k = 0; k < N(any); k++)
        CASE(t, "add immediate (any sign)", arm64_add_imm_any(&t->a, k & 1, r_at(k), r_at(k + 3), any[k]));
}

/* ---- logical ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static int cmp_u64(const void *x, const void *y) {
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* Every bitmask immediate of one width, generated from its definition:
 * element sizes 2..64, runs of 1..e-1 ones, every rotation. */
static uint32_t all_bitmasks(bool is64, uint64_t *out) {
    uint32_t n = 0;
    for (unsigned e = 2; e <= (is64 ? 64u : 32u); e *= 2)
        for (unsigned ones = 1; ones < e; ones++)
            for (unsigned r = 0; r < e; r++) {
                uint64_t run = (1ull << ones) - 1;
                uint64_t mask = e == 64 ? ~0ull : (1ull << e) - 1;
                uint64_t elem = r ? ((run >> r) | (run << (e - r))) & mask : run;
                uint64_t v = 0;
                for (unsigned i = 0; i < (is64 ? 64u : 32u); i += e)
                    v |= elem << i;
                out[n++] = v;
            }
    return n;
}

static void logical_reject(T *t, bool is64, uint64_t v) {
    fprintf(t->rej_out, "\tand\t%s, %s, #0x%" PRIx64 "\n", is64 ? "x0" : "w0", is64 ? "x1" : "w1", v);
    t->nrejects++;
}

/* One value through the encoder: a case if it encodes, a reject if not. */
static bool logical_value(T *t, bool is64, uint64_t v, unsigned i) {
    uint32_t f;
    if (!arm64_logical_imm_encode(v, is64, &f)) {
        logical_reject(t, is64, v);
        return false;
    }
    if (arm64_logical_imm_decode(f, is64) != v)
        fail(t, "logical immediate 0x%" PRIx64 " does not decode back", v);
    Arm64LogicOp op = (Arm64LogicOp)(i % 4);
    B3Reg rd = r_at(i), rn = r_at(i + 3);
    if (i % 9 == 8)
        CASE(t, "tst immediate", arm64_tst_imm(&t->a, is64, rn, v));
    else
        CASE(t, "logical immediate", arm64_logic_imm(&t->a, op, is64, rd, rn, v));
    return true;
}

static void test_logical(T *t) {
    for (unsigned op = 0; op < 8; op++)
        for (unsigned w = 0; w < 2; w++)
            for (unsigned sh = 0; sh < 4; sh++) {
                unsigned amounts[] = {0, 1, w ? 63 : 31};
                for (unsigned k = 0; k < N(amounts); k++)
                    CASE(t, "logical shifted register",
                         arm64_logic_shifted(&t->a, op, w, r_at(op + k), r_at(op + sh + 2), r_at(op + k + 5),
                                             sh, amounts[k]));
            }
    for (unsigned w = 0; w < 2; w++)
        for (unsigned i = 0; i < NR; i++) {
            CASE(t, "tst", arm64_tst(&t->a, w, r_at(i), r_at(i + 1), i % 4, i));
            CASE(t, "mvn", arm64_mvn(&t->a, w, r_at(i), r_at(i + 2), i % 4, 2 * i));
            CASE(t, "mov", arm64_mov(&t->a, w, r_at(i), r_at(i + 1)));
            CASE(t, "mov sp", arm64_mov_sp(&t->a, w, r_at(i), r_at(i + 5)));
        }

    /* Exhaustively: every bitmask immediate of both widths. */
    uint64_t *all = malloc(5334 * sizeof(uint64_t));
    for (unsigned w = 0; w < 2; w++) {
        uint32_t n = all_bitmasks(w, all), want = w ? 5334 : 1302;
        qsort(all, n, sizeof *all, cmp_u64);
        uint32_t distinct = 0;
        for (uint32_t i = 0; i < n; i++)
            if (!i || all[i] != all[i - 1])
                all[distinct++] = all[i];
        if (distinct != want)
            fail(t, "%" PRIu64 " distinct bitmask immediates", distinct);
        uint32_t ok = 0;
        for (uint32_t i = 0; i < distinct; i++) {
            ok += logical_value(t, w, all[i], i);
            /* Near misses: one bit flipped (rarely still a bitmask). */
            logical_value(t, w, all[i] ^ (1ull << (rng() % (w ? 64 : 32))), i + 1);
        }
        printf("logical immediates (%s): %u encodable of %u\n", w ? "64-bit" : "32-bit", ok, distinct);
    }
    free(all);
    /* Random values, zero, all ones, and 32-bit values with upper bits. */
    for (unsigned i = 0; i < 1000; i++) {
        uint64_t v = rng();
        logical_value(t, true, v, i);
        logical_value(t, false, v & 0xffffffffu, i);
    }
    logical_value(t, true, 0, 0);
    logical_value(t, true, ~0ull, 0);
    logical_value(t, false, 0, 0);
    logical_value(t, false, 0xffffffffu, 0);
    logical_value(t, false, 0x1ffffffffull, 0);
    logical_value(t, false, 0xff00000000ull, 0);
}

/* ---- moves and constants ---- */

/* What a sequence of movz/movn/movk and orr-immediate instructions leaves in
 * their (common) destination: llvm-mc checks each encoding, this checks the
 * sequence means the constant. */
static uint64_t run_moves(const uint8_t *buf, uint32_t len) {
    uint64_t x = 0;
    for (uint32_t i = 0; i < len; i += 4) {
        uint32_t w = (uint32_t)buf[i] | (uint32_t)buf[i + 1] << 8 | (uint32_t)buf[i + 2] << 16 |
                     (uint32_t)buf[i + 3] << 24;
        bool sf = w >> 31;
        if ((w & 0x1f800000) == 0x12800000) {
            unsigned opc = (w >> 29) & 3, sh = 16 * ((w >> 21) & 3);
            uint64_t imm = (uint64_t)((w >> 5) & 0xffff) << sh;
            x = opc == 0 ? ~imm : opc == 2 ? imm : (x & ~(0xffffull << sh)) | imm;
        } else if ((w & 0x7f8003e0) == 0x320003e0) { /* orr Rd, zr, #imm */
            x = arm64_logical_imm_decode((w >> 10) & 0x1fff, sf);
        } else {
            return 0xbadbadbadull;
        }
        if (!sf)
            x &= 0xffffffffu;
    }
    return x;
}

/* The fewest instructions of movz/movn + movks and orr-of-a-bitmask + movks
 * for v, by brute force over every bitmask immediate. */
static unsigned fewest_moves(bool is64, uint64_t v, const uint64_t *masks, uint32_t n) {
    unsigned nhw = is64 ? 4 : 2, zeros = 0, ones = 0;
    if (!is64)
        v &= 0xffffffffu;
    for (unsigned j = 0; j < nhw; j++) {
        uint64_t h = (v >> (16 * j)) & 0xffff;
        zeros += h == 0;
        ones += h == 0xffff;
    }
    unsigned best = nhw - (zeros > ones ? zeros : ones);
    if (best < 1)
        best = 1;
    for (uint32_t i = 0; i < n; i++) {
        unsigned d = 1;
        for (unsigned j = 0; j < nhw; j++)
            d += ((masks[i] >> (16 * j)) & 0xffff) != ((v >> (16 * j)) & 0xffff);
        if (d < best)
            best = d;
    }
    return best;
}

static void test_moves(T *t) {
    static const uint16_t imms[] = {0, 1, 0x8000, 0xffff, 0x1234};
    static const unsigned ops[] = {Arm64MovWide_MOVN, Arm64MovWide_MOVZ, Arm64MovWide_MOVK};
    for (unsigned o = 0; o < 3; o++)
        for (unsigned w = 0; w < 2; w++)
            for (unsigned hw = 0; hw < (w ? 4u : 2u); hw++)
                for (unsigned k = 0; k < N(imms); k++)
                    CASE(t, "move wide", arm64_movwide(&t->a, ops[o], w, r_at(k + hw), imms[k], hw));

    static const uint64_t consts[] = {0,
                                      1,
                                      0xffff,
                                      0x10000,
                                      0xffffffffull,
                                      0x100000000ull,
                                      ~0ull,
                                      ~1ull,
                                      0x8000000000000000ull,
                                      0x7fffffffffffffffull,
                                      0x123456789abcdef0ull,
                                      0xffff1234ffff5678ull,
                                      0x0000ffff0000ffffull,
                                      0x5555555555555555ull,
                                      0x5555555555551234ull,
                                      0x12345555555555ull,
                                      0xff00ff00ff00ff00ull,
                                      0xffffffff00000000ull,
                                      0xfffffffffffff000ull,
                                      0x00000000fffff000ull,
                                      0x1234ffffffffffffull,
                                      0xabcd00000000ef01ull};
    unsigned hist[5] = {0};
    uint64_t *masks[2] = {malloc(1302 * sizeof(uint64_t)), malloc(5334 * sizeof(uint64_t))};
    uint32_t nmasks[2] = {all_bitmasks(false, masks[0]), all_bitmasks(true, masks[1])};
    for (unsigned w = 0; w < 2; w++)
        for (unsigned i = 0; i < N(consts) + 600; i++) {
            uint64_t v;
            if (i < N(consts)) {
                v = consts[i];
            } else {
                /* Halfwords drawn from 0, ffff, a repeated one and random ones. */
                uint64_t r = rng(), h0 = rng() & 0xffff;
                v = 0;
                for (unsigned j = 0; j < 4; j++) {
                    unsigned c = (r >> (3 * j)) & 7;
                    uint64_t h = c == 0   ? 0
                                 : c == 1 ? 0xffff
                                 : c == 2 ? h0
                                 : c < 5  ? (rng() & 0xffff)
                                          : (0xffffu << (rng() % 16)) & 0xffff; /* edges of runs of ones */
                    v |= h << (16 * j);
                }
            }
            unsigned cost = arm64_mov_imm_cost(w, v);
            begin(t, "mov constant");
            unsigned got = arm64_mov_imm(&t->a, w, r_at(i), v);
            if (got != cost || got > (w ? 4u : 2u) || got * 4 != t->a.len)
                fail(t, "mov constant 0x%" PRIx64 ": wrong instruction count", v);
            if (run_moves(t->a.buf, t->a.len) != (w ? v : v & 0xffffffffu))
                fail(t, "mov constant 0x%" PRIx64 ": the instructions compute something else", v);
            if (got != fewest_moves(w, v, masks[w], nmasks[w]))
                fail(t, "mov constant 0x%" PRIx64 ": not the fewest instructions", v);
            end(t);
            hist[got]++;
        }
    printf("mov constant: %u/%u/%u/%u of 1/2/3/4 instructions\n", hist[1], hist[2], hist[3], hist[4]);
    free(masks[0]);
    free(masks[1]);
}

/* ---- multiply, divide, bits ---- */

static void test_muldiv(T *t) {
    for (unsigned op = 0; op < 6; op++)
        for (unsigned w = op < 2 ? 0 : 1; w < 2; w++)
            for (unsigned i = 0; i < 4; i++) {
                CASE(t, "multiply-add",
                     arm64_mul3(&t->a, op, w, r_at(i), r_at(i + 1), r_at(i + 4), r_at(i + 5 + op)));
                CASE(t, "multiply", arm64_mul(&t->a, op, w, r_at(i + op), r_at(i + 2), r_at(i + 5)));
            }
    for (unsigned i = 0; i < NR; i++)
        CASE(t, "mulh", arm64_mulh(&t->a, i & 1, r_at(i), r_at(i + 1), r_at(i + 2)));
    static const Arm64DP2Op dp2[] = {Arm64DP2_UDIV, Arm64DP2_SDIV, Arm64DP2_LSLV,
                                     Arm64DP2_LSRV, Arm64DP2_ASRV, Arm64DP2_RORV};
    for (unsigned op = 0; op < N(dp2); op++)
        for (unsigned w = 0; w < 2; w++)
            for (unsigned i = 0; i < 3; i++)
                CASE(t, "two-source", arm64_dp2(&t->a, dp2[op], w, r_at(i + op), r_at(i + 4), r_at(i + 5)));
    for (unsigned op = 0; op < 6; op++)
        for (unsigned w = op == Arm64DP1_REV32; w < 2; w++)
            for (unsigned i = 0; i < 3; i++)
                CASE(t, "one-source", arm64_dp1(&t->a, op, w, r_at(i + op), r_at(i + 5)));
}

static void test_bitfield(T *t) {
    for (unsigned w = 0; w < 2; w++) {
        unsigned size = w ? 64 : 32;
        for (unsigned n = 0; n < size; n++) {
            B3Reg rd = r_at(n), rn = r_at(n + 1);
            CASE(t, "lsl immediate", arm64_lsl_imm(&t->a, w, rd, rn, n));
            CASE(t, "lsr immediate", arm64_lsr_imm(&t->a, w, rd, rn, n));
            CASE(t, "asr immediate", arm64_asr_imm(&t->a, w, rd, rn, n));
            CASE(t, "ror immediate", arm64_ror_imm(&t->a, w, rd, rn, n));
        }
        for (unsigned op = 0; op < 3; op++)
            for (unsigned k = 0; k < 4; k++) {
                unsigned immr = (k * 13) % size, imms = (size - 1 - k * 7) % size;
                CASE(t, "bitfield move", arm64_bfm(&t->a, op, w, r_at(k), r_at(k + op + 1), immr, imms));
            }
        const unsigned fields[][2] = {{0, 1}, {0, size}, {size - 1, 1}, {1, size - 1},
                                      {8, 8}, {3, 17},   {31, 1}};
        for (unsigned k = 0; k < N(fields); k++) {
            unsigned lsb = fields[k][0], width = fields[k][1];
            B3Reg rd = r_at(k), rn = r_at(k + 2);
            CASE(t, "ubfx", arm64_ubfx(&t->a, w, rd, rn, lsb, width));
            CASE(t, "sbfx", arm64_sbfx(&t->a, w, rd, rn, lsb, width));
            CASE(t, "ubfiz", arm64_ubfiz(&t->a, w, rd, rn, lsb, width));
            CASE(t, "sbfiz", arm64_sbfiz(&t->a, w, rd, rn, lsb, width));
            CASE(t, "bfi", arm64_bfi(&t->a, w, rd, rn, lsb, width));
            CASE(t, "bfxil", arm64_bfxil(&t->a, w, rd, rn, lsb, width));
        }
        for (unsigned lsb = 0; lsb < size; lsb += 7)
            CASE(t, "extr", arm64_extr(&t->a, w, r_at(lsb), r_at(lsb + 1), r_at(lsb + 2), lsb));
        for (unsigned i = 0; i < NR; i++) {
            CASE(t, "sxtb", arm64_sxt(&t->a, w, r_at(i), r_at(i + 1), 1));
            CASE(t, "sxth", arm64_sxt(&t->a, w, r_at(i), r_at(i + 2), 2));
        }
    }
    for (unsigned i = 0; i < NR; i++) {
        CASE(t, "sxtw", arm64_sxt(&t->a, true, r_at(i), r_at(i + 3), 4));
        CASE(t, "uxtb", arm64_uxt(&t->a, r_at(i), r_at(i + 1), 1));
        CASE(t, "uxth", arm64_uxt(&t->a, r_at(i), r_at(i + 2), 2));
        CASE(t, "uxtw", arm64_uxt(&t->a, r_at(i), r_at(i + 3), 4));
    }
}

static void test_conditional(T *t) {
    for (unsigned w = 0; w < 2; w++)
        for (unsigned c = 0; c < 16; c++) {
            for (unsigned op = 0; op < 4; op++)
                CASE(t, "conditional select",
                     arm64_csel(&t->a, op, w, r_at(c + op), r_at(c + 2), r_at(c + op + 5), (Arm64Cond)c));
            if (c < 14) {
                CASE(t, "cset", arm64_cset(&t->a, false, w, r_at(c), (Arm64Cond)c));
                CASE(t, "csetm", arm64_cset(&t->a, true, w, r_at(c + 1), (Arm64Cond)c));
                for (unsigned op = 1; op < 4; op++)
                    CASE(t, "cinc/cinv/cneg",
                         arm64_cinc(&t->a, op, w, r_at(c + op), r_at(c + 4), (Arm64Cond)c));
            }
            CASE(t, "ccmp", arm64_ccmp(&t->a, c & 1, w, r_at(c), r_at(c + 3), c, (Arm64Cond)c));
            CASE(t, "ccmp immediate",
                 arm64_ccmp_imm(&t->a, c & 1, w, r_at(c + 1), c * 2 + 1, 15 - c, (Arm64Cond)(15 - c)));
        }
}

/* ---- control flow ---- */

/* One branch to a label `dist` instructions away (negative: backward),
 * with nop padding between. */
typedef enum { Br_B, Br_BL, Br_Cond, Br_Cbz, Br_Tbz, Br_Adr, Br_Lit } BrKind;

static void branch(T *t, BrKind k, unsigned i) {
    B3Reg r = r_at(i) == 31 ? 2 : r_at(i);
    switch (k) {
    case Br_B:
        arm64_b(&t->a, 0);
        break;
    case Br_BL:
        arm64_bl(&t->a, 0);
        break;
    case Br_Cond:
        arm64_bcond(&t->a, (Arm64Cond)(i % 16), 0);
        break;
    case Br_Cbz:
        arm64_cbz(&t->a, i & 1, i & 2, r_at(i), 0);
        break;
    case Br_Tbz:
        arm64_tbz(&t->a, i & 1, r_at(i), (unsigned[]){0, 1, 31, 32, 63, 5}[i % 6], 0);
        break;
    case Br_Adr:
        arm64_adr(&t->a, r, 0);
        break;
    case Br_Lit: {
        static const Arm64LdStOp lits[] = {Arm64LdSt_LDRW,  Arm64LdSt_LDRX,  Arm64LdSt_LDRSW,
                                           Arm64LdSt_LDRFS, Arm64LdSt_LDRFD, Arm64LdSt_LDRFQ};
        Arm64LdStOp op = lits[i % N(lits)];
        Arm64Mem m = arm64_mem_literal(0);
        arm64_ldst(&t->a, op, op >= Arm64LdSt_STRFB ? v_at(i) : r, &m);
        break;
    }
    }
}

static void branch_case(T *t, BrKind k, unsigned i, int64_t dist) {
    begin(t, "branch to a label");
    arm64_label_new(&t->a);
    if (dist <= 0) {
        arm64_bind(&t->a, 0);
        arm64_nops(&t->a, (uint32_t)-dist);
        branch(t, k, i);
    } else {
        branch(t, k, i);
        arm64_nops(&t->a, (uint32_t)dist - 1);
        arm64_bind(&t->a, 0);
    }
    end(t);
}

/* Throws the case being assembled away (a relaxation pass that must be redone). */
static void discard(T *t) {
    fclose(t->a.listing);
    free(t->text);
    arm64_asm_free(&t->a);
}

/* Conditional branches sized by relaxation: each layout is assembled until
 * no branch is marked long, and the last pass is the case. */
typedef struct {
    BrKind kind;
    int64_t dist;  /* as branch_case */
    int64_t dist2; /* if non-zero, a second branch of the same kind right after the first, to its own label */
    unsigned passes;
} RelaxCase;

static void relax_case(T *t, const RelaxCase *rc) {
    Arm64Relax r = {0};
    unsigned passes = 0;
    for (;;) {
        passes++;
        begin(t, "relaxed branch");
        t->a.relax = &r;
        r.again = false;
        uint32_t l = arm64_label_new(&t->a), l2 = arm64_label_new(&t->a);
        if (rc->dist <= 0) {
            arm64_bind(&t->a, l);
            arm64_nops(&t->a, (uint32_t)-rc->dist);
        }
        branch(t, rc->kind, 3);
        if (rc->dist2) {
            /* branch() targets label 0; the second one targets l2. */
            if (rc->kind == Br_Tbz)
                arm64_tbz(&t->a, true, 7, 40, l2);
            else
                arm64_bcond(&t->a, Arm64Cond_GE, l2);
        }
        if (rc->dist > 0) {
            arm64_nops(&t->a, (uint32_t)rc->dist - 1);
            arm64_bind(&t->a, l);
        }
        if (rc->dist2) {
            arm64_nops(&t->a, (uint32_t)rc->dist2);
            arm64_bind(&t->a, l2);
        }
        if (!r.again)
            break;
        discard(t);
    }
    if (passes != rc->passes)
        fail(t, "relaxation took %" PRIu64 " passes", passes);
    end(t);
    arm64_relax_free(&r);
}

static void test_relaxation(T *t) {
    static const RelaxCase cases[] = {
        {Br_Tbz, 8191, 0, 1},
        {Br_Tbz, 8192, 0, 2},
        {Br_Tbz, -8192, 0, 1},
        {Br_Tbz, -8193, 0, 2},
        {Br_Cond, 262143, 0, 1},
        {Br_Cond, 262144, 0, 2},
        {Br_Cbz, -262145, 0, 2},
        {Br_Cbz, 262144, 0, 2},
        /* The second branch turns long, which pushes the first out of range: three passes. */
        {Br_Tbz, 8190, 8191, 3},
        {Br_Cond, 262142, 262143, 3},
    };
    for (unsigned i = 0; i < N(cases); i++)
        relax_case(t, &cases[i]);
}

static void test_branches(T *t) {
    static const int64_t near[] = {0, -1, 1, 2, -5, 40, -300};
    for (unsigned k = Br_B; k <= Br_Lit; k++)
        for (unsigned i = 0; i < 16; i++)
            branch_case(t, k, i, near[i % N(near)]);
    /* The edges of each field (in instructions). */
    branch_case(t, Br_Tbz, 3, 8191);
    branch_case(t, Br_Tbz, 4, -8192);
    branch_case(t, Br_Cond, 0, 262143);
    branch_case(t, Br_Cond, 1, -262144);
    branch_case(t, Br_Cbz, 2, 262143);
    branch_case(t, Br_Lit, 1, -262144);
    branch_case(t, Br_Adr, 1, 262143);
    branch_case(t, Br_Adr, 2, -262144);
    branch_case(t, Br_B, 0, 300000);
    branch_case(t, Br_BL, 0, -300000);
    /* Several references to one label, both before and after it is bound. */
    begin(t, "many references to one label");
    uint32_t l0 = arm64_label_new(&t->a), l1 = arm64_label_new(&t->a);
    arm64_b(&t->a, l1);
    arm64_bind(&t->a, l0);
    arm64_cbz(&t->a, false, true, 3, l1);
    arm64_tbz(&t->a, true, 4, 40, l0);
    arm64_bcond(&t->a, Arm64Cond_HI, l1);
    arm64_bind(&t->a, l1);
    arm64_b(&t->a, l0);
    arm64_adr(&t->a, 5, l1);
    end(t);

    static const int64_t addends[] = {0, 8, -4, 0x1000};
    for (unsigned i = 0; i < N(addends); i++) {
        B3Symbol *s = i & 1 ? &data_sym : &ext_sym;
        CASE(t, "b symbol", arm64_b_sym(&t->a, s, addends[i]));
        CASE(t, "bl symbol", arm64_bl_sym(&t->a, s, addends[i]));
        CASE(t, "adr symbol", arm64_adr_sym(&t->a, RN[i], s, addends[i]));
        CASE(t, "adrp symbol", arm64_adrp_sym(&t->a, RN[i + 1], s, addends[i], false));
        CASE(t, "add lo12 symbol", arm64_add_lo12_sym(&t->a, r_at(i + 2), r_at(i + 5), s, addends[i]));
    }
    CASE(t, "adrp got", arm64_adrp_sym(&t->a, 16, &ext_sym, 0, true));
    for (unsigned i = 0; i < NR; i++) {
        CASE(t, "br", arm64_br(&t->a, r_at(i)));
        CASE(t, "blr", arm64_blr(&t->a, r_at(i)));
        CASE(t, "ret", arm64_ret(&t->a, r_at(i)));
    }
    /* A jump table: adr of the table, ldrsw of an entry, add, br; entries are differences. */
    begin(t, "jump table");
    uint32_t tab = arm64_label_new(&t->a), a0 = arm64_label_new(&t->a), a1 = arm64_label_new(&t->a);
    arm64_bind(&t->a, a0);
    arm64_adr(&t->a, 16, tab);
    Arm64Mem m = arm64_mem_reg(16, 0, Arm64Ext_UXTW, true);
    arm64_ldst(&t->a, Arm64LdSt_LDRSW, 17, &m);
    arm64_addsub_shifted(&t->a, Arm64AddSub_ADD, true, 16, 16, 17, Arm64Shift_LSL, 0);
    arm64_br(&t->a, 16);
    arm64_bind(&t->a, tab);
    arm64_data32_label_diff(&t->a, a0, tab);
    arm64_data32_label_diff(&t->a, a1, tab);
    arm64_data32(&t->a, 0xdeadbeef);
    arm64_data64(&t->a, 0x0123456789abcdefull);
    arm64_bind(&t->a, a1);
    arm64_nop(&t->a);
    end(t);
    for (uint32_t align = 4; align <= 64; align *= 2) {
        begin(t, "code alignment");
        arm64_nop(&t->a);
        arm64_align_code(&t->a, align);
        arm64_nop(&t->a);
        end(t);
    }
}

/* ---- loads and stores ---- */

static B3Reg rt_for(Arm64LdStOp op, unsigned i) { return op >= Arm64LdSt_STRFB ? v_at(i) : r_at(i); }

static void test_loads_stores(T *t) {
    for (unsigned op = 0; op < ARM64_NUM_LDST; op++) {
        int64_t size = arm64_ldst_size(op);
        const int64_t offs[] = {0, size, 4095 * size, 100 * size, -256, 255, 1, -1, size * 3 + 1};
        for (unsigned k = 0; k < N(offs); k++) {
            Arm64Mem m = arm64_mem(r_at(k + 3), offs[k]);
            CASE(t, "load/store offset", arm64_ldst(&t->a, op, rt_for(op, k), &m));
        }
        const int64_t un[] = {0, -256, 255, 8};
        for (unsigned k = 0; k < N(un); k++) {
            Arm64Mem m = arm64_mem_mode(Arm64Mem_Unscaled, r_at(k + 5), un[k]);
            CASE(t, "load/store unscaled", arm64_ldst(&t->a, op, rt_for(op, k + 1), &m));
        }
        const int64_t wb[] = {-256, 255, 0, 16, -8};
        for (unsigned k = 0; k < N(wb); k++)
            for (unsigned pre = 0; pre < 2; pre++) {
                B3Reg base = k == 2 ? 31 : RN[k];
                B3Reg rt = op >= Arm64LdSt_STRFB ? v_at(k) : RN[(k + 1) % N(RN)];
                Arm64Mem m = arm64_mem_mode(pre ? Arm64Mem_PreIndex : Arm64Mem_PostIndex, base, wb[k]);
                CASE(t, "load/store writeback", arm64_ldst(&t->a, op, rt, &m));
            }
        static const Arm64Extend exts[] = {Arm64Ext_UXTW, Arm64Ext_UXTX, Arm64Ext_SXTW, Arm64Ext_SXTX};
        for (unsigned e = 0; e < 4; e++)
            for (unsigned s = 0; s < 2; s++) {
                Arm64Mem m = arm64_mem_reg(r_at(e + s + 3), r_at(e + 2 * s), exts[e], s);
                CASE(t, "load/store register offset", arm64_ldst(&t->a, op, rt_for(op, e + s), &m));
            }
        Arm64Mem m = arm64_mem_lo12(r_at(op), op & 1 ? &data_sym : &ext_sym, op & 2 ? 16 : 0, false);
        CASE(t, "load/store lo12", arm64_ldst(&t->a, op, rt_for(op, op + 1), &m));
    }
    Arm64Mem got = arm64_mem_lo12(16, &ext_sym, 0, true);
    CASE(t, "load got lo12", arm64_ldst(&t->a, Arm64LdSt_LDRX, 17, &got));

    for (unsigned op = 0; op <= Arm64Pair_LDPQ; op++) {
        int64_t size = op >= Arm64Pair_STPQ   ? 16
                       : op >= Arm64Pair_STPD ? 8
                       : op >= Arm64Pair_STPS ? 4
                       : op >= Arm64Pair_STPX ? 8
                                              : 4;
        bool fp = op >= Arm64Pair_STPS;
        const int64_t offs[] = {0, size, -64 * size, 63 * size, -2 * size};
        for (unsigned k = 0; k < N(offs); k++)
            for (unsigned mode = 0; mode < 3; mode++) {
                static const Arm64MemMode modes[] = {Arm64Mem_Offset, Arm64Mem_PreIndex, Arm64Mem_PostIndex};
                B3Reg base = k == 1 ? 31 : RN[k];
                B3Reg rt = fp ? v_at(k) : RN[(k + 1) % N(RN)], rt2 = fp ? v_at(k + 2) : RN[(k + 3) % N(RN)];
                Arm64Mem m = arm64_mem_mode(modes[mode], base, offs[k]);
                CASE(t, "load/store pair", arm64_ldstp(&t->a, op, rt, rt2, &m));
            }
    }
    /* The frame record. */
    begin(t, "frame");
    Arm64Mem push = arm64_mem_mode(Arm64Mem_PreIndex, ARM64_SP, -32);
    arm64_ldstp(&t->a, Arm64Pair_STPX, ARM64_FP, ARM64_LR, &push);
    arm64_mov_sp(&t->a, true, ARM64_FP, ARM64_SP);
    arm64_addsub_imm(&t->a, Arm64AddSub_SUB, true, ARM64_SP, ARM64_SP, 64, false);
    arm64_mov_sp(&t->a, true, ARM64_SP, ARM64_FP);
    Arm64Mem pop = arm64_mem_mode(Arm64Mem_PostIndex, ARM64_SP, 32);
    arm64_ldstp(&t->a, Arm64Pair_LDPX, ARM64_FP, ARM64_LR, &pop);
    arm64_ret(&t->a, ARM64_LR);
    end(t);
}

/* ---- atomics, system ---- */

static void test_atomics(T *t) {
    static const unsigned sizes[] = {1, 2, 4, 8};
    for (unsigned s = 0; s < 4; s++) {
        for (unsigned op = 0; op <= Arm64Excl_STLR; op++)
            for (unsigned i = 0; i < 3; i++)
                CASE(t, "exclusive",
                     arm64_excl(&t->a, op, sizes[s], RN[i], RN[i + 1], i == 2 ? 31 : RN[i + 2]));
        for (unsigned o = 0; o < 4; o++) {
            CASE(t, "cas",
                 arm64_cas(&t->a, sizes[s], o & 2, o & 1, r_at(o + s), r_at(o + s + 1), r_at(o + 5)));
            for (unsigned op = 0; op <= Arm64AtomicOp_SWP; op++)
                CASE(t, "LSE atomic",
                     arm64_atomic(&t->a, op, sizes[s], o & 2, o & 1, r_at(op + o), r_at(op + s + 2),
                                  r_at(op + 5)));
        }
    }
    static const Arm64Barrier bars[] = {Arm64Barrier_ISH, Arm64Barrier_ISHST, Arm64Barrier_ISHLD,
                                        Arm64Barrier_SY};
    for (unsigned i = 0; i < N(bars); i++)
        CASE(t, "dmb", arm64_dmb(&t->a, bars[i]));
    CASE(t, "isb", arm64_isb(&t->a));
    CASE(t, "nop", arm64_nop(&t->a));
    static const uint16_t codes[] = {0, 1, 0x3e8, 0xffff};
    for (unsigned i = 0; i < N(codes); i++) {
        CASE(t, "brk", arm64_brk(&t->a, codes[i]));
        CASE(t, "udf", arm64_udf(&t->a, codes[i]));
    }
}

/* ---- floating point ---- */

static void fp_imm_reject(T *t, bool dbl, double v) {
    fprintf(t->rej_out, "\tfmov\t%s, #%.17g\n", dbl ? "d0" : "s0", v);
    t->nrejects++;
}

static void test_fp(T *t) {
    for (unsigned d = 0; d < 2; d++) {
        for (unsigned op = 0; op <= Arm64FP2_FNMUL; op++)
            for (unsigned i = 0; i < 3; i++)
                CASE(t, "fp two-source", arm64_fp2(&t->a, op, d, v_at(i + op), v_at(i + 1), v_at(i + 3)));
        static const Arm64FP1Op fp1[] = {Arm64FP1_FMOV,   Arm64FP1_FABS,   Arm64FP1_FNEG,   Arm64FP1_FSQRT,
                                         Arm64FP1_FRINTN, Arm64FP1_FRINTP, Arm64FP1_FRINTM, Arm64FP1_FRINTZ,
                                         Arm64FP1_FRINTA, Arm64FP1_FRINTX, Arm64FP1_FRINTI};
        for (unsigned op = 0; op < N(fp1); op++)
            for (unsigned i = 0; i < 2; i++)
                CASE(t, "fp one-source", arm64_fp1(&t->a, fp1[op], d, v_at(i + op), v_at(i + 2)));
        for (unsigned i = 0; i < NV; i++)
            CASE(t, "fcvt", arm64_fcvt(&t->a, d, v_at(i), v_at(i + 1)));
        for (unsigned op = 0; op < 4; op++)
            for (unsigned i = 0; i < 3; i++)
                CASE(t, "fp three-source",
                     arm64_fp3(&t->a, op, d, v_at(i + op), v_at(i + 1), v_at(i + 2), v_at(i + 4)));
        for (unsigned i = 0; i < NV; i++)
            for (unsigned e = 0; e < 2; e++) {
                CASE(t, "fcmp", arm64_fcmp(&t->a, e, d, v_at(i), v_at(i + 1)));
                CASE(t, "fcmp zero", arm64_fcmp(&t->a, e, d, v_at(i), B3_NO_REG));
            }
        for (unsigned c = 0; c < 16; c++)
            CASE(t, "fcsel", arm64_fcsel(&t->a, d, v_at(c), v_at(c + 1), v_at(c + 3), (Arm64Cond)c));
        for (unsigned w = 0; w < 2; w++)
            for (unsigned i = 0; i < NR; i++) {
                CASE(t, "int to fp", arm64_cvtf(&t->a, i & 1, d, w, v_at(i), r_at(i)));
                CASE(t, "fp to int", arm64_fcvtz(&t->a, i & 1, d, w, r_at(i + 1), v_at(i + 2)));
            }
        for (unsigned i = 0; i < NR; i++) {
            CASE(t, "fmov to fpr", arm64_fmov_to_fpr(&t->a, d, v_at(i), r_at(i)));
            CASE(t, "fmov to gpr", arm64_fmov_to_gpr(&t->a, d, r_at(i), v_at(i + 1)));
            if (d) { /* the high half of a q register (Float128 pairs) */
                CASE(t, "mov to d[1]", arm64_mov_to_high_lane(&t->a, v_at(i + 2), r_at(i)));
                CASE(t, "mov from d[1]", arm64_mov_from_high_lane(&t->a, r_at(i), v_at(i + 3)));
            }
        }
        /* Every FP immediate, and values just outside. */
        for (unsigned imm8 = 0; imm8 < 256; imm8++) {
            double v = arm64_fp_imm_decode((uint8_t)imm8);
            uint8_t back;
            if (!arm64_fp_imm_encode(v, d, &back) || back != imm8)
                fail(t, "fp immediate %" PRIu64 " does not encode back", imm8);
            CASE(t, "fmov immediate", arm64_fmov_imm(&t->a, d, v_at(imm8), v));
        }
        static const double outside[] = {0.1,   33.0,    0.0625,      1.0 / 3, 100.0, 1e10,
                                         -32.5, 1.03125, 0.123046875, 64.0,    -0.05, 3.0e-9};
        for (unsigned i = 0; i < N(outside); i++) {
            uint8_t imm8;
            if (arm64_fp_imm_encode(outside[i], d, &imm8))
                fail(t, "%" PRIu64 ": a value outside the FP immediates encodes", i);
            fp_imm_reject(t, d, outside[i]);
        }
        /* Not immediates either, but llvm-mc takes #0.0 (as fmov from xzr) and cannot spell the others. */
        static const double special[] = {0.0, -0.0, 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0, 1e-310, 1.0 + 0x1p-40};
        for (unsigned i = 0; i < N(special); i++) {
            uint8_t imm8;
            if (arm64_fp_imm_encode(special[i], d, &imm8))
                fail(t, "special FP value %" PRIu64 " encodes", i);
        }
    }
}

/* ---- checks and stackmaps (codegen/arm64/emit_stackmaps.c, emit.c) ----
 * The sequences the emitter produces for CheckAdd/CheckSub (adds/subs with a
 * register or an immediate, then b.vs), CheckSub(0, x) (negs), CheckMul
 * (smull and a compare with the sign-extended low word; mul, smulh and a
 * compare with the low half's sign) and the patchpoint codes (bl, brk,
 * nops). */
static void test_checks(T *t) {
    for (unsigned w = 0; w < 2; w++)
        for (unsigned i = 0; i < 4; i++) {
            B3Reg d = RN[i], l = RN[i + 1], r = RN[(i + 2) % N(RN)];
            begin(t, "CheckAdd/CheckSub");
            uint32_t exit = arm64_label_new(&t->a);
            arm64_addsub_shifted(&t->a, i & 1 ? Arm64AddSub_SUBS : Arm64AddSub_ADDS, w, d, l, r,
                                 Arm64Shift_LSL, 0);
            arm64_addsub_imm(&t->a, i & 1 ? Arm64AddSub_ADDS : Arm64AddSub_SUBS, w, d, l, 100 * i + 1, i & 2);
            arm64_neg(&t->a, true, w, d, l, Arm64Shift_LSL, 0);
            arm64_bcond(&t->a, Arm64Cond_VS, exit);
            arm64_bcond(&t->a, Arm64Cond_VC, exit);
            arm64_bind(&t->a, exit);
            end(t);
            begin(t, "CheckMul");
            exit = arm64_label_new(&t->a);
            if (!w) {
                arm64_mul(&t->a, Arm64Mul_SMADDL, true, 16, l, r);
                arm64_cmp_ext(&t->a, false, true, 16, 16, Arm64Ext_SXTW, 0);
                arm64_mov(&t->a, false, d, 16);
            } else {
                arm64_mul(&t->a, Arm64Mul_MADD, true, 16, l, r);
                arm64_mulh(&t->a, true, 17, l, r);
                arm64_cmp(&t->a, false, true, 17, 16, Arm64Shift_ASR, 63);
                arm64_mov(&t->a, true, d, 16);
            }
            arm64_bcond(&t->a, Arm64Cond_NE, exit);
            arm64_bcond(&t->a, Arm64Cond_EQ, exit);
            arm64_bind(&t->a, exit);
            end(t);
        }
    CASE(t, "patchpoint call", arm64_bl_sym(&t->a, &ext_sym, 0));
    CASE(t, "patchpoint trap", arm64_brk(&t->a, 0));
    CASE(t, "patchpoint nop(12)", arm64_nops(&t->a, 3));
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s OUT.s OUT.expected REJECTS.s\n", argv[0]);
        return 2;
    }
    T t = {0};
    t.s_out = fopen(argv[1], "w");
    t.exp_out = fopen(argv[2], "w");
    t.rej_out = fopen(argv[3], "w");
    if (!t.s_out || !t.exp_out || !t.rej_out) {
        perror("open");
        return 2;
    }
    fputs("\t.text\n", t.s_out);
    /* Listed as .p2align, padding is relative to the section: only the
     * first case starts at a known alignment. */
    begin(&t, "code alignment listed as .p2align");
    t.a.listing_p2align = true;
    arm64_nop(&t.a);
    arm64_align_code(&t.a, 64);
    arm64_nop(&t.a);
    end(&t);
    test_addsub(&t);
    test_logical(&t);
    test_moves(&t);
    test_muldiv(&t);
    test_bitfield(&t);
    test_conditional(&t);
    test_branches(&t);
    test_relaxation(&t);
    test_loads_stores(&t);
    test_atomics(&t);
    test_fp(&t);
    test_checks(&t);
    fclose(t.s_out);
    fclose(t.exp_out);
    fclose(t.rej_out);
    printf("cases: %u\n", t.ncases);
    printf("rejects: %u\n", t.nrejects);
    printf("failures: %u\n", t.failures);
    return t.failures ? 1 : 0;
}
