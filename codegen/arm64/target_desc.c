/* The arm64 target descriptions (ir/target.h): AAPCS64 as Linux has it, and
 * Apple's variant (docs/backend.md, "Apple arm64 ABI"), which differ only in
 * x18, the caller-saved set and the classifier. */
#include <elf.h>

#include "codegen/arm64/arm64.h"
#include "codegen/arm64/regs.h"
#include "objwriter/macho.h"
#include "objwriter/obj.h"

static const char *const gpr_names[32] = {"x0",  "x1",  "x2",  "x3",  "x4",  "x5",  "x6",  "x7",
                                          "x8",  "x9",  "x10", "x11", "x12", "x13", "x14", "x15",
                                          "x16", "x17", "x18", "x19", "x20", "x21", "x22", "x23",
                                          "x24", "x25", "x26", "x27", "x28", "fp",  "lr",  "sp"};
static const char *const fpr_names[32] = {"q0",  "q1",  "q2",  "q3",  "q4",  "q5",  "q6",  "q7",
                                          "q8",  "q9",  "q10", "q11", "q12", "q13", "q14", "q15",
                                          "q16", "q17", "q18", "q19", "q20", "q21", "q22", "q23",
                                          "q24", "q25", "q26", "q27", "q28", "q29", "q30", "q31"};

/* d0-d31 for the FPRs, x29 and x30 for fp and lr. */
static B3Reg parse_alias(const char *s, size_t n) {
    int k;
    if ((k = b3_reg_parse_numbered(s, n, "d", 32)) >= 0)
        return (B3Reg)(B3A_q0 + k);
    if ((k = b3_reg_parse_numbered(s, n, "x", 31)) >= 0)
        return (B3Reg)k;
    return B3_NO_REG;
}

/* x0-x15 caller-saved, then x19-x28; x16/x17 (ip0/ip1), x18 (platform),
 * fp, lr and sp are never allocated.  FP: v0-v7, v16-v31, then v8-v15
 * (callee-saved in their low 64 bits). */
static const B3Reg gp_order[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,
                                 13, 14, 15, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28};
#define Q(n) (B3A_q0 + (n))
static const B3Reg fp_order[] = {Q(0),  Q(1),  Q(2),  Q(3),  Q(4),  Q(5),  Q(6),  Q(7),  Q(16), Q(17), Q(18),
                                 Q(19), Q(20), Q(21), Q(22), Q(23), Q(24), Q(25), Q(26), Q(27), Q(28), Q(29),
                                 Q(30), Q(31), Q(8),  Q(9),  Q(10), Q(11), Q(12), Q(13), Q(14), Q(15)};
static const B3Reg arg_gprs[] = {0, 1, 2, 3, 4, 5, 6, 7};
static const B3Reg arg_fprs[] = {Q(0), Q(1), Q(2), Q(3), Q(4), Q(5), Q(6), Q(7)};
/* AAPCS64: an integer composite of up to 16 bytes in x0-x1, a homogeneous
 * floating-point aggregate of up to four members in v0-v3. */
static const B3Reg ret_gprs[] = {0, 1};
static const B3Reg ret_fprs[] = {Q(0), Q(1), Q(2), Q(3)};

static const uint32_t elf_relocs[] = {
    [B3Reloc_PC32] = R_AARCH64_PREL32,
    [B3Reloc_Abs64] = R_AARCH64_ABS64,
    [B3Reloc_Abs32] = R_AARCH64_ABS32,
    [B3Reloc_A64_Call26] = R_AARCH64_CALL26,
    [B3Reloc_A64_Jump26] = R_AARCH64_JUMP26,
    [B3Reloc_A64_AdrPrelLo21] = R_AARCH64_ADR_PREL_LO21,
    [B3Reloc_A64_AdrPrelPgHi21] = R_AARCH64_ADR_PREL_PG_HI21,
    [B3Reloc_A64_AddAbsLo12] = R_AARCH64_ADD_ABS_LO12_NC,
    [B3Reloc_A64_Ldst8Lo12] = R_AARCH64_LDST8_ABS_LO12_NC,
    [B3Reloc_A64_Ldst16Lo12] = R_AARCH64_LDST16_ABS_LO12_NC,
    [B3Reloc_A64_Ldst32Lo12] = R_AARCH64_LDST32_ABS_LO12_NC,
    [B3Reloc_A64_Ldst64Lo12] = R_AARCH64_LDST64_ABS_LO12_NC,
    [B3Reloc_A64_Ldst128Lo12] = R_AARCH64_LDST128_ABS_LO12_NC,
    [B3Reloc_A64_AdrGotPage] = R_AARCH64_ADR_GOT_PAGE,
    [B3Reloc_A64_Ld64GotLo12] = R_AARCH64_LD64_GOT_LO12_NC,
    [B3Reloc_A64_TprelHi12] = R_AARCH64_TLSLE_ADD_TPREL_HI12,
    [B3Reloc_A64_TprelLo12Nc] = R_AARCH64_TLSLE_ADD_TPREL_LO12_NC,
    [B3Reloc_A64_GottprelPage21] = R_AARCH64_TLSIE_ADR_GOTTPREL_PAGE21,
    [B3Reloc_A64_GottprelLo12Nc] = R_AARCH64_TLSIE_LD64_GOTTPREL_LO12_NC,
    [B3Reloc_A64_TlsdescPage21] = R_AARCH64_TLSDESC_ADR_PAGE21,
    [B3Reloc_A64_TlsdescLd64Lo12] = R_AARCH64_TLSDESC_LD64_LO12,
    [B3Reloc_A64_TlsdescAddLo12] = R_AARCH64_TLSDESC_ADD_LO12,
    [B3Reloc_A64_TlsdescCall] = R_AARCH64_TLSDESC_CALL,
};
/* adrp + add/ldr/str :lo12: (and adr) form a PC-relative address as PC32 does. */
static const uint8_t reloc_use[sizeof elf_relocs / sizeof elf_relocs[0]] = {
    [B3Reloc_PC32] = B3RelocUse_PCAddress,
    [B3Reloc_A64_AdrPrelLo21] = B3RelocUse_PCAddress,
    [B3Reloc_A64_AdrPrelPgHi21] = B3RelocUse_PCAddress,
    [B3Reloc_A64_AddAbsLo12] = B3RelocUse_PCAddress,
    [B3Reloc_A64_Ldst8Lo12] = B3RelocUse_PCAddress,
    [B3Reloc_A64_Ldst16Lo12] = B3RelocUse_PCAddress,
    [B3Reloc_A64_Ldst32Lo12] = B3RelocUse_PCAddress,
    [B3Reloc_A64_Ldst64Lo12] = B3RelocUse_PCAddress,
    [B3Reloc_A64_Ldst128Lo12] = B3RelocUse_PCAddress,
    [B3Reloc_A64_AdrGotPage] = B3RelocUse_GOT,
    [B3Reloc_A64_Ld64GotLo12] = B3RelocUse_GOT,
    [B3Reloc_A64_TprelHi12] = B3RelocUse_TLS,
    [B3Reloc_A64_TprelLo12Nc] = B3RelocUse_TLS,
    [B3Reloc_A64_GottprelPage21] = B3RelocUse_TLS,
    [B3Reloc_A64_GottprelLo12Nc] = B3RelocUse_TLS,
    [B3Reloc_A64_TlsdescPage21] = B3RelocUse_TLS,
    [B3Reloc_A64_TlsdescLd64Lo12] = B3RelocUse_TLS,
    [B3Reloc_A64_TlsdescAddLo12] = B3RelocUse_TLS,
    [B3Reloc_A64_TlsdescCall] = B3RelocUse_TLS,
};

/* DWARF numbers (DWARF for the Arm 64-bit Architecture, 4.1): x0-x30 are
 * 0-30, sp 31; v0-v31 are 64-95. */
static const uint8_t dwarf_gprs[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                       16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};

/* The callee-saved pairs of Apple's compact unwind (UNWIND_ARM64_FRAME_*_PAIR). */
static const B3Reg macho_save_pairs[][2] = {
    {19, 20},
    {21, 22},
    {23, 24},
    {25, 26},
    {27, 28},
    {B3A_q0 + 8, B3A_q0 + 9},
    {B3A_q0 + 10, B3A_q0 + 11},
    {B3A_q0 + 12, B3A_q0 + 13},
    {B3A_q0 + 14, B3A_q0 + 15},
};

/* The fields both arm64 conventions share.  The frame record (fp, lr) is
 * what the entry sp is above the frame pointer; x9 calls indirectly (not
 * x16, the emitter's scratch); offsets: ldur/stur's signed 9 bits,
 * ldr/str's unsigned 12 bits scaled by the access size, none for atomics;
 * the pad is udf #0. */
/* clang-format off */
#define ARM64_COMMON_FIELDS \
    .ngprs = 32, \
    .nfprs = 32, \
    .gpr_names = gpr_names, \
    .fpr_names = fpr_names, \
    .parse_alias = parse_alias, \
    .frame_pointer = B3A_fp, \
    .stack_pointer = B3A_sp, \
    .insn_align = 4, \
    .air_form_mask = 2, \
    .entry_sp_from_fp = 16, \
    .gp_order = gp_order, \
    .fp_order = fp_order, \
    .ngp_order = sizeof gp_order / sizeof gp_order[0], \
    .nfp_order = sizeof fp_order / sizeof fp_order[0], \
    .arg_gprs = arg_gprs, \
    .arg_fprs = arg_fprs, \
    .narg_gprs = sizeof arg_gprs / sizeof arg_gprs[0], \
    .narg_fprs = sizeof arg_fprs / sizeof arg_fprs[0], \
    .ret_gpr = B3A_x0, \
    .ret_fpr = B3A_q0, \
    .ret_gprs = ret_gprs, \
    .ret_fprs = ret_fprs, \
    .nret_gprs = sizeof ret_gprs / sizeof ret_gprs[0], \
    .nret_fprs = sizeof ret_fprs / sizeof ret_fprs[0], \
    .sret_reg = 8, /* x8, the indirect result register */ \
    .call_early_clobber = {{0, 0}}, \
    .callee_saved = {{0x3ff80000ull | 0xff00ull << B3_FPR_BASE, 0}}, /* x19-x29, d8-d15 */ \
    .indirect_call_reg = 9, \
    .pinnable_text = "%x19-%x28", \
    .info = {-256, 255, 4095, 0, 0, true, true, true}, \
    .code_pad_byte = 0, \
    .elf_machine = EM_AARCH64, \
    .elf_relocs = elf_relocs, \
    .reloc_use = reloc_use, \
    .nelf_relocs = sizeof elf_relocs / sizeof elf_relocs[0], \
    .macho_cputype = B3_CPU_TYPE_ARM64, \
    .macho_cpusubtype = B3_CPU_SUBTYPE_ARM64_ALL, \
    .macho_reloc = b3_arm64_macho_reloc, \
    .macho_section_symbols = true, \
    .dwarf_gprs = dwarf_gprs, \
    .dwarf_fpr_base = 64, \
    /* CFA = sp at an entry, the return address in x30 (llvm-mc's factors: \
     * GNU as says 4 and -8, which decodes the same). */ \
    .eh_code_align = 1, \
    .eh_data_align = -4, \
    .eh_ra_column = 30, \
    .eh_cfa_at_entry = 0, \
    .eh_ra_at_entry = 0, \
    .eh_frame_sh_type = SHT_PROGBITS, \
    .elf_mapping_symbols = true
/* clang-format on */

/* x0-x17 and lr; v0-v7 and v16-v31 (v8-v15 are callee-saved only in their
 * low half: counted as saved). */
#define ARM64_CALLER_SAVED_X0_X17 (0x3ffffull | 1ull << B3A_lr | 0xffff00ffull << B3_FPR_BASE)

/* AAPCS64 (Linux): x18 is an ordinary temporary register there (b3c never
 * allocates it, as the emitter's x16/x17). */
const B3TargetDesc b3_arm64_target_desc = {
    ARM64_COMMON_FIELDS,
    .name = "arm64",
    .caller_saved = {{ARM64_CALLER_SAVED_X0_X17 | 1ull << 18, 0}},
    .classify_args = b3_target_classify_in_order,
    .va_list_kind = B3VaList_AAPCS64,
    .va_list_size = 32,
    .float128_pairs = true,
};

/* Apple's arm64 convention ("Writing ARM64 code for Apple platforms"):
 * variadic arguments all on the stack in 8-byte slots, the other stack
 * arguments packed by natural size and alignment. */
static uint32_t classify_apple(const B3TargetDesc *d, uint32_t n, const uint8_t *types, const B3ByVal *byval,
                               int32_t nfixed, B3Reg *where, uint32_t *stack_off) {
    unsigned ngpr = 0, nfpr = 0;
    uint32_t area = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (byval && byval[i].size) {
            where[i] = B3_NO_REG;
            stack_off[i] = b3_target_place_byval(&area, byval[i].size, byval[i].align);
            continue;
        }
        bool variadic = nfixed >= 0 && i >= (uint32_t)nfixed;
        bool fp = b3_type_is_float((B3Type)types[i]);
        where[i] = B3_NO_REG;
        if (!variadic && fp && nfpr < d->narg_fprs)
            where[i] = d->arg_fprs[nfpr++];
        else if (!variadic && !fp && ngpr < d->narg_gprs)
            where[i] = d->arg_gprs[ngpr++];
        stack_off[i] = 0;
        if (where[i] != B3_NO_REG)
            continue;
        uint32_t size = variadic ? 8 : b3_type_bytes((B3Type)types[i]);
        area = (area + size - 1) & ~(size - 1);
        stack_off[i] = area;
        area += size;
    }
    return area;
}

/* x18 is the platform's: reserved, so neither caller- nor callee-saved. */
const B3TargetDesc b3_arm64_apple_target_desc = {
    ARM64_COMMON_FIELDS,
    .name = "arm64-apple",
    .caller_saved = {{ARM64_CALLER_SAVED_X0_X17, 0}},
    .reserved = {{1ull << 18, 0}},
    .classify_args = classify_apple,
    .va_list_kind = B3VaList_StackPointer,
    .va_list_size = 8,
    .macho_save_pairs = macho_save_pairs,
    .nmacho_save_pairs = sizeof macho_save_pairs / sizeof macho_save_pairs[0],
};
