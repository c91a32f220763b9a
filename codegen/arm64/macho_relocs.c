/* arm64 Mach-O relocations (B3TargetDesc.macho_reloc; objwriter/macho.h).
 *
 * Unlike x86-64, arm64 Mach-O keeps no addend in an instruction: the field
 * of a bl, adrp, add or ldr/str holds 0 and a non-zero addend goes in an
 * ARM64_RELOC_ADDEND entry just before the relocation it modifies (its
 * symbolnum field holds the addend, 24 bits signed).  Data words
 * (UNSIGNED) keep theirs in the word as on x86-64.  Calls are BRANCH26,
 * adrp/add and adrp/ldr/str of a local address PAGE21/PAGEOFF12 (one
 * PAGEOFF12 for every access size: the linker reads the scale from the
 * instruction), GOT loads GOT_LOAD_PAGE21/GOT_LOAD_PAGEOFF12, a thread-local
 * variable's descriptor TLVP_LOAD_PAGE21/TLVP_LOAD_PAGEOFF12; llvm-mc
 * -triple=arm64-apple-macos makes the same choices from our -S. */
#include "codegen/arm64/arm64.h"
#include "objwriter/macho.h"

/* <mach-o/arm64/reloc.h>'s numbering, our names. */
enum {
    ARM64_RELOC_UNSIGNED = 0,
    ARM64_RELOC_SUBTRACTOR = 1,
    ARM64_RELOC_BRANCH26 = 2,
    ARM64_RELOC_PAGE21 = 3,
    ARM64_RELOC_PAGEOFF12 = 4,
    ARM64_RELOC_GOT_LOAD_PAGE21 = 5,
    ARM64_RELOC_GOT_LOAD_PAGEOFF12 = 6,
    ARM64_RELOC_POINTER_TO_GOT = 7,
    ARM64_RELOC_TLVP_LOAD_PAGE21 = 8,
    ARM64_RELOC_TLVP_LOAD_PAGEOFF12 = 9,
    ARM64_RELOC_ADDEND = 10,
};

/* Per B3RelocKind: its Mach-O type (0 with length 0: none), whether it is
 * PC-relative, log2 of the field's bytes, the instruction bits that hold
 * the value (cleared: the field holds 0), and whether an addend may go in
 * an ADDEND entry (GOT references take none). */
static const struct {
    uint8_t type, pcrel, length;
    bool addend;
    uint32_t imm_mask;
} kinds[] = {
    [B3Reloc_Abs64] = {ARM64_RELOC_UNSIGNED, 0, 3, false, 0},
    [B3Reloc_Abs32] = {ARM64_RELOC_UNSIGNED, 0, 2, false, 0},
    [B3Reloc_A64_Call26] = {ARM64_RELOC_BRANCH26, 1, 2, true, 0x03ffffffu},
    [B3Reloc_A64_Jump26] = {ARM64_RELOC_BRANCH26, 1, 2, true, 0x03ffffffu},
    [B3Reloc_A64_AdrPrelPgHi21] = {ARM64_RELOC_PAGE21, 1, 2, true, 0x60ffffe0u},
    [B3Reloc_A64_AddAbsLo12] = {ARM64_RELOC_PAGEOFF12, 0, 2, true, 0x003ffc00u},
    [B3Reloc_A64_Ldst8Lo12] = {ARM64_RELOC_PAGEOFF12, 0, 2, true, 0x003ffc00u},
    [B3Reloc_A64_Ldst16Lo12] = {ARM64_RELOC_PAGEOFF12, 0, 2, true, 0x003ffc00u},
    [B3Reloc_A64_Ldst32Lo12] = {ARM64_RELOC_PAGEOFF12, 0, 2, true, 0x003ffc00u},
    [B3Reloc_A64_Ldst64Lo12] = {ARM64_RELOC_PAGEOFF12, 0, 2, true, 0x003ffc00u},
    [B3Reloc_A64_Ldst128Lo12] = {ARM64_RELOC_PAGEOFF12, 0, 2, true, 0x003ffc00u},
    [B3Reloc_A64_AdrGotPage] = {ARM64_RELOC_GOT_LOAD_PAGE21, 1, 2, false, 0x60ffffe0u},
    [B3Reloc_A64_Ld64GotLo12] = {ARM64_RELOC_GOT_LOAD_PAGEOFF12, 0, 2, false, 0x003ffc00u},
    /* A thread-local variable's descriptor, loaded as from the GOT. */
    [B3Reloc_A64_TlvpPage21] = {ARM64_RELOC_TLVP_LOAD_PAGE21, 1, 2, false, 0x60ffffe0u},
    [B3Reloc_A64_TlvpPageoff12] = {ARM64_RELOC_TLVP_LOAD_PAGEOFF12, 0, 2, false, 0x003ffc00u},
};

static uint32_t get32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int b3_arm64_macho_reloc(const B3MachoFixup *fx, B3MachoReloc *out) {
    const B3Reloc *r = fx->r;
    /* adr (ADR_PREL_LO21) and a 32-bit PC-relative data word have no
     * Mach-O form; the code generator produces neither. */
    if (r->kind >= sizeof kinds / sizeof kinds[0] || !kinds[r->kind].length)
        return -1;
    int n = 0;
    if (kinds[r->kind].type == ARM64_RELOC_BRANCH26 && fx->same_atom) {
        /* A call within its own atom (recursion): resolved in place, as
         * llvm-mc resolves a plain `bl _f` there; @PAGE/@PAGEOFF operands
         * it never resolves. */
        int64_t d = (int64_t)(fx->sym_addr - fx->place) + r->addend;
        b3_macho_put32(fx->field, (get32(fx->field) & ~kinds[r->kind].imm_mask) |
                                      ((uint32_t)(d >> 2) & kinds[r->kind].imm_mask));
        return 0;
    }
    if (kinds[r->kind].type == ARM64_RELOC_UNSIGNED) {
        /* The word holds the addend (non-extern: the address it resolves
         * to, the object loaded at 0). */
        uint64_t value = (uint64_t)r->addend + (fx->is_extern ? 0 : fx->target);
        if (kinds[r->kind].length == 3)
            b3_macho_put64(fx->field, value);
        else
            b3_macho_put32(fx->field, (uint32_t)value);
    } else {
        /* Instructions relocate against a symbol only (ld64 takes no
         * section-relative arm64 code relocation), the addend in ADDEND. */
        if (!fx->is_extern || (r->addend && !kinds[r->kind].addend) || r->addend < -(1 << 23) ||
            r->addend >= 1 << 23)
            return -1;
        b3_macho_put32(fx->field, get32(fx->field) & ~kinds[r->kind].imm_mask);
        if (r->addend)
            out[n++] = (B3MachoReloc){.address = (uint32_t)r->offset,
                                      .symbolnum = (uint32_t)r->addend & 0xffffffu,
                                      .length = 2,
                                      .type = ARM64_RELOC_ADDEND};
    }
    out[n++] = (B3MachoReloc){.address = (uint32_t)r->offset,
                              .symbolnum = fx->symbolnum,
                              .pcrel = kinds[r->kind].pcrel,
                              .length = kinds[r->kind].length,
                              .is_extern = fx->is_extern,
                              .type = kinds[r->kind].type};
    return n;
}
