/* The object writer on AArch64: functions assembled with codegen/arm64/asm.h
 * using every AArch64 relocation kind, and data with ABS64/PREL32, written
 * as an ELF object (objwriter/elf.c) without the code generator.
 *
 *   arm64-objgen OUT.o */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/arm64/asm.h"
#include "objwriter/obj.h"

static B3Symbol sym(const char *name, B3SymKind kind, bool internal, bool defined) {
    return (B3Symbol){.name = name,
                      .name_len = (uint32_t)strlen(name),
                      .kind = (uint8_t)kind,
                      .internal = internal,
                      .defined = defined,
                      .declared = true};
}

int main(int argc, char **argv) {
    if (argc < 2)
        return 2;
    B3Module m;
    memset(&m, 0, sizeof m);
    m.target = (B3Target){B3Arch_ARM64, B3OS_Linux, 0, 0};
    B3Symbol get42 = sym("get42", B3Sym_Proc, false, true);
    B3Symbol helper = sym("helper", B3Sym_Proc, true, true);
    B3Symbol use_all = sym("use_all", B3Sym_Proc, false, true);
    B3Symbol ext_fn = sym("ext_fn", B3Sym_Extern, false, false);
    B3Symbol ext_var = sym("ext_var", B3Sym_Extern, false, false);
    B3Symbol hidden = sym("hidden", B3Sym_Data, true, true);
    B3Symbol ptr = sym("ptr", B3Sym_Data, false, true);
    B3Symbol offs = sym("offs", B3Sym_Data, false, true);

    B3Obj o;
    b3_obj_init(&o, &m);
    Arm64Asm a;
    arm64_asm_init(&a);

    /* get42: 0x00 */
    arm64_movwide(&a, Arm64MovWide_MOVZ, false, 0, 42, 0);
    arm64_ret(&a, ARM64_LR);
    uint32_t get42_end = a.len;
    /* helper: 0x10 (internal) */
    arm64_align_code(&a, 16);
    uint32_t helper_at = a.len;
    arm64_mov_imm(&a, true, 0, 0x123456789abcdef0ull);
    arm64_ret(&a, ARM64_LR);
    uint32_t helper_end = a.len;
    /* use_all: every relocation kind. */
    arm64_align_code(&a, 16);
    uint32_t use_all_at = a.len;
    Arm64Mem push = arm64_mem_mode(Arm64Mem_PreIndex, ARM64_SP, -16);
    arm64_ldstp(&a, Arm64Pair_STPX, ARM64_FP, ARM64_LR, &push);
    arm64_mov_sp(&a, true, ARM64_FP, ARM64_SP);
    arm64_adrp_sym(&a, 0, &ext_var, 0, true);
    Arm64Mem got = arm64_mem_lo12(0, &ext_var, 0, true);
    arm64_ldst(&a, Arm64LdSt_LDRX, 0, &got);
    arm64_adrp_sym(&a, 1, &hidden, 0, false);
    arm64_add_lo12_sym(&a, 1, 1, &hidden, 0);
    arm64_adrp_sym(&a, 2, &hidden, 16, false);
    static const Arm64LdStOp loads[] = {Arm64LdSt_LDRB, Arm64LdSt_LDRH, Arm64LdSt_LDRW, Arm64LdSt_LDRX,
                                        Arm64LdSt_LDRFQ};
    for (unsigned i = 0; i < sizeof loads / sizeof loads[0]; i++) {
        Arm64Mem lo = arm64_mem_lo12(2, &hidden, 16, false);
        arm64_ldst(&a, loads[i], loads[i] == Arm64LdSt_LDRFQ ? B3_FPR_BASE : 3, &lo);
    }
    arm64_adr_sym(&a, 4, &hidden, 8);
    arm64_bl_sym(&a, &ext_fn, 0);
    arm64_bl_sym(&a, &helper, 0);
    arm64_bl_sym(&a, &get42, 0);
    Arm64Mem pop = arm64_mem_mode(Arm64Mem_PostIndex, ARM64_SP, 16);
    arm64_ldstp(&a, Arm64Pair_LDPX, ARM64_FP, ARM64_LR, &pop);
    arm64_b_sym(&a, &ext_fn, 0);
    arm64_asm_check_labels(&a);

    uint64_t base = b3_obj_emit(&o, B3Sec_Text, a.buf, a.len);
    if (o.sec[B3Sec_Text].align < 16)
        o.sec[B3Sec_Text].align = 16;
    b3_obj_define(&o, &get42, B3Sec_Text, base, get42_end, true);
    b3_obj_define(&o, &helper, B3Sec_Text, base + helper_at, helper_end - helper_at, true);
    b3_obj_define(&o, &use_all, B3Sec_Text, base + use_all_at, a.len - use_all_at, true);
    for (uint32_t i = 0; i < a.nrelocs; i++)
        b3_obj_reloc(&o, B3Sec_Text, base + a.relocs[i].offset, (B3RelocKind)a.relocs[i].kind,
                     a.relocs[i].sym, a.relocs[i].addend);

    /* hidden: 32 bytes, 16-aligned (the q load); ptr: ABS64 of get42; offs: PREL32 of get42. */
    static const uint8_t zeros[32];
    b3_obj_align(&o, B3Sec_Data, 16);
    uint64_t h = b3_obj_emit(&o, B3Sec_Data, zeros, 32);
    b3_obj_define(&o, &hidden, B3Sec_Data, h, 32, false);
    uint64_t p = b3_obj_emit(&o, B3Sec_Data, zeros, 8);
    b3_obj_reloc(&o, B3Sec_Data, p, B3Reloc_Abs64, &get42, 4);
    b3_obj_define(&o, &ptr, B3Sec_Data, p, 8, false);
    uint64_t r = b3_obj_emit(&o, B3Sec_ROData, zeros, 4);
    b3_obj_reloc(&o, B3Sec_ROData, r, B3Reloc_PC32, &use_all, 0);
    b3_obj_define(&o, &offs, B3Sec_ROData, r, 4, false);

    FILE *f = fopen(argv[1], "wb");
    if (!f || !b3_write_elf(&o, f))
        return 1;
    fclose(f);
    arm64_asm_free(&a);
    b3_obj_free(&o);
    return 0;
}
