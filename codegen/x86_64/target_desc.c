/* The x86-64 target description (ir/target.h): System V AMD64 ABI. */
#include <elf.h>
#include <stdint.h>

#include "codegen/x86_64/regs.h"
#include "codegen/x86_64/x86_64.h"
#include "objwriter/macho.h"
#include "objwriter/obj.h"

static const char *const gpr_names[16] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                          "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
static const char *const fpr_names[16] = {"xmm0",  "xmm1",  "xmm2",  "xmm3", "xmm4",  "xmm5",
                                          "xmm6",  "xmm7",  "xmm8",  "xmm9", "xmm10", "xmm11",
                                          "xmm12", "xmm13", "xmm14", "xmm15"};

/* Caller-saved first; rbp (when the frame pointer is omitted) comes after these. */
static const B3Reg gp_order[] = {B3X_rax, B3X_rcx, B3X_rdx, B3X_rsi, B3X_rdi, B3X_r8,  B3X_r9,
                                 B3X_r10, B3X_r11, B3X_rbx, B3X_r12, B3X_r13, B3X_r14, B3X_r15};
static const B3Reg fp_order[] = {B3X_xmm0 + 0,  B3X_xmm0 + 1,  B3X_xmm0 + 2,  B3X_xmm0 + 3,
                                 B3X_xmm0 + 4,  B3X_xmm0 + 5,  B3X_xmm0 + 6,  B3X_xmm0 + 7,
                                 B3X_xmm0 + 8,  B3X_xmm0 + 9,  B3X_xmm0 + 10, B3X_xmm0 + 11,
                                 B3X_xmm0 + 12, B3X_xmm0 + 13, B3X_xmm0 + 14, B3X_xmm0 + 15};
static const B3Reg arg_gprs[] = {B3X_rdi, B3X_rsi, B3X_rdx, B3X_rcx, B3X_r8, B3X_r9};
static const B3Reg arg_fprs[] = {B3X_xmm0 + 0, B3X_xmm0 + 1, B3X_xmm0 + 2, B3X_xmm0 + 3,
                                 B3X_xmm0 + 4, B3X_xmm0 + 5, B3X_xmm0 + 6, B3X_xmm0 + 7};
/* System V: a 16-byte struct in rax/rdx, xmm0/xmm1 or one of each. */
static const B3Reg ret_gprs[] = {B3X_rax, B3X_rdx};
static const B3Reg ret_fprs[] = {B3X_xmm0, B3X_xmm0 + 1};

#define R(r) (1ull << (r))
#define ALL_XMM 0xffffull /* xmm0-15, in bits[0] above B3_FPR_BASE */

static const uint32_t elf_relocs[] = {
    [B3Reloc_PC32] = R_X86_64_PC32,
    [B3Reloc_X86_Branch32] = R_X86_64_PC32,
    [B3Reloc_X86_PLT32] = R_X86_64_PLT32,
    [B3Reloc_X86_GOTPCRELX] = R_X86_64_GOTPCRELX,
    [B3Reloc_X86_REX_GOTPCRELX] = R_X86_64_REX_GOTPCRELX,
    [B3Reloc_Abs64] = R_X86_64_64,
    [B3Reloc_Abs32] = R_X86_64_32,
    [B3Reloc_X86_TPOFF32] = R_X86_64_TPOFF32,
    [B3Reloc_X86_GOTTPOFF] = R_X86_64_GOTTPOFF,
    [B3Reloc_X86_TLSGD] = R_X86_64_TLSGD,
};
static const uint8_t reloc_use[sizeof elf_relocs / sizeof elf_relocs[0]] = {
    [B3Reloc_PC32] = B3RelocUse_PCAddress, /* lea f(%rip) */
    [B3Reloc_X86_Branch32] = B3RelocUse_PCAddress,
    [B3Reloc_X86_GOTPCRELX] = B3RelocUse_GOT,
    [B3Reloc_X86_REX_GOTPCRELX] = B3RelocUse_GOT,
    [B3Reloc_X86_TPOFF32] = B3RelocUse_TLS,
    [B3Reloc_X86_GOTTPOFF] = B3RelocUse_TLS,
    [B3Reloc_X86_TLSGD] = B3RelocUse_TLS,
};

/* DWARF numbers of the GPRs (System V psABI, figure 3.36); xmm0-15 are 17-32. */
static const uint8_t dwarf_gprs[16] = {
    [B3X_rax] = 0,  [B3X_rdx] = 1,  [B3X_rcx] = 2,  [B3X_rbx] = 3,  [B3X_rsi] = 4,  [B3X_rdi] = 5,
    [B3X_rbp] = 6,  [B3X_rsp] = 7,  [B3X_r8] = 8,   [B3X_r9] = 9,   [B3X_r10] = 10, [B3X_r11] = 11,
    [B3X_r12] = 12, [B3X_r13] = 13, [B3X_r14] = 14, [B3X_r15] = 15,
};

/* The insts that write only the low lane of their xmm destination
 * (cvtsi2sd, sqrtsd, roundsd, ...): the rest of the register is kept, so
 * the inst waits for the register's previous writer, a false dependency
 * that fix_partial_register_stalls breaks (air_writes_partial_fp_lane). */
static const bool partial_fp_lane_defs[AIR_NUM_OPCODES] = {
    [Air_SqrtDouble] = true,           [Air_SqrtFloat] = true,
    [Air_CeilDouble] = true,           [Air_CeilFloat] = true,
    [Air_FloorDouble] = true,          [Air_FloorFloat] = true,
    [Air_ConvertInt32ToDouble] = true, [Air_ConvertInt64ToDouble] = true,
    [Air_ConvertInt32ToFloat] = true,  [Air_ConvertInt64ToFloat] = true,
    [Air_ConvertDoubleToFloat] = true, [Air_ConvertFloatToDouble] = true,
};

const B3TargetDesc b3_x86_64_target_desc = {
    .name = "x86-64",
    .ngprs = 16,
    .nfprs = 16,
    .gpr_names = gpr_names,
    .fpr_names = fpr_names,
    .frame_pointer = B3X_rbp,
    .stack_pointer = B3X_rsp,
    .insn_align = 1,
    .air_form_mask = 1,
    .partial_fp_lane_defs = partial_fp_lane_defs,
    .entry_sp_from_fp = 8, /* the return address */
    .gp_order = gp_order,
    .fp_order = fp_order,
    .ngp_order = sizeof gp_order / sizeof gp_order[0],
    .nfp_order = sizeof fp_order / sizeof fp_order[0],
    .arg_gprs = arg_gprs,
    .arg_fprs = arg_fprs,
    .narg_gprs = sizeof arg_gprs / sizeof arg_gprs[0],
    .narg_fprs = sizeof arg_fprs / sizeof arg_fprs[0],
    .ret_gpr = B3X_rax,
    .ret_fpr = B3X_xmm0,
    .ret_gprs = ret_gprs,
    .ret_fprs = ret_fprs,
    .nret_gprs = sizeof ret_gprs / sizeof ret_gprs[0],
    .nret_fprs = sizeof ret_fprs / sizeof ret_fprs[0],
    .sret_reg = B3_NO_REG, /* the first argument, rdi */
    .caller_saved = {{R(B3X_rax) | R(B3X_rcx) | R(B3X_rdx) | R(B3X_rsi) | R(B3X_rdi) | R(B3X_r8) | R(B3X_r9) |
                          R(B3X_r10) | R(B3X_r11) | ALL_XMM << B3_FPR_BASE,
                      0}},
    /* %al: the vector-register count of a variadic call, written before it. */
    .call_early_clobber = {{R(B3X_rax), 0}},
    .callee_saved = {{R(B3X_rbx) | R(B3X_rbp) | R(B3X_r12) | R(B3X_r13) | R(B3X_r14) | R(B3X_r15), 0}},
    .classify_args = b3_target_classify_in_order,
    .va_list_kind = B3VaList_SysV,
    .va_list_size = 24,
    .has_x87 = true,
    .indirect_call_reg = B3X_r11,
    .pinnable_text = "%rbx, %r12-%r15",
    /* [base + index*scale + disp32] for every access, atomics included. */
    .info = {INT32_MIN, INT32_MAX, 0, INT32_MIN, INT32_MAX, false, false, false},
    .code_pad_byte = 0xcc, /* int3: a stray jump into the padding traps */
    .dwarf_gprs = dwarf_gprs,
    .dwarf_fpr_base = 17,
    /* The CFA is rsp + 8 at an entry, the return address (column 16, the
     * psABI's) right below it. */
    .eh_code_align = 1,
    .eh_data_align = -8,
    .eh_ra_column = 16,
    .eh_cfa_at_entry = 8,
    .eh_ra_at_entry = 8,
    .eh_frame_sh_type = SHT_X86_64_UNWIND,
    .elf_machine = EM_X86_64,
    .elf_relocs = elf_relocs,
    .reloc_use = reloc_use,
    .nelf_relocs = sizeof elf_relocs / sizeof elf_relocs[0],
    .macho_cputype = B3_CPU_TYPE_X86_64,
    .macho_cpusubtype = B3_CPU_SUBTYPE_X86_64_ALL,
    .macho_reloc = b3_x86_64_macho_reloc,
};
