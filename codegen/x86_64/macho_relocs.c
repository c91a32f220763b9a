/* x86-64 Mach-O relocations (B3TargetDesc.macho_reloc; objwriter/macho.h).
 *
 * Mach-O keeps the addend in the field.  A PC-relative field of x86-64
 * holds S + A - P measured from the end of the 4-byte field, so the field
 * holds the B3Reloc's (ELF-style) addend plus 4; when that leaves -1, -2 or
 * -4 (an immediate of that size follows the field, as in `movl $5,
 * x(%rip)`), SIGNED_1/2/4 say so instead — the choice llvm-mc makes, so the
 * object equals the one it assembles from our -S.  Calls are BRANCH, GOT
 * loads by movq GOT_LOAD (the linker may turn them into lea), other GOT
 * uses GOT, absolute words UNSIGNED, a thread-local variable's descriptor
 * TLV.  A PC-relative reference within one
 * atom (a recursive call) is resolved in place, as llvm-mc does. */
#include "codegen/x86_64/x86_64.h"
#include "objwriter/macho.h"

enum {
    X86_64_RELOC_UNSIGNED = 0,
    X86_64_RELOC_SIGNED = 1,
    X86_64_RELOC_BRANCH = 2,
    X86_64_RELOC_GOT_LOAD = 3,
    X86_64_RELOC_GOT = 4,
    X86_64_RELOC_SUBTRACTOR = 5,
    X86_64_RELOC_SIGNED_1 = 6,
    X86_64_RELOC_SIGNED_2 = 7,
    X86_64_RELOC_SIGNED_4 = 8,
    X86_64_RELOC_TLV = 9,
};

/* Per B3RelocKind: its Mach-O type, whether it is PC-relative, and the log2
 * of its field's size; type -1: no Mach-O form. */
static const struct {
    int8_t type;
    uint8_t pcrel, length;
} kinds[] = {
    [B3Reloc_PC32] = {X86_64_RELOC_SIGNED, 1, 2},
    [B3Reloc_Abs64] = {X86_64_RELOC_UNSIGNED, 0, 3},
    [B3Reloc_Abs32] = {X86_64_RELOC_UNSIGNED, 0, 2},
    [B3Reloc_X86_PLT32] = {X86_64_RELOC_BRANCH, 1, 2},
    [B3Reloc_X86_GOTPCRELX] = {X86_64_RELOC_GOT, 1, 2},
    [B3Reloc_X86_REX_GOTPCRELX] = {X86_64_RELOC_GOT_LOAD, 1, 2},
    [B3Reloc_X86_Branch32] = {X86_64_RELOC_BRANCH, 1, 2},
    /* movq _x@TLVP(%rip): a thread-local variable's descriptor, like a GOT load. */
    [B3Reloc_X86_TLV] = {X86_64_RELOC_TLV, 1, 2},
};

int b3_x86_64_macho_reloc(const B3MachoFixup *fx, B3MachoReloc *out) {
    const B3Reloc *r = fx->r;
    if (r->kind >= sizeof kinds / sizeof kinds[0] || (r->kind != B3Reloc_Abs64 && !kinds[r->kind].length))
        return -1;
    int type = kinds[r->kind].type;
    bool pcrel = kinds[r->kind].pcrel;
    if (pcrel && fx->same_atom && type != X86_64_RELOC_GOT && type != X86_64_RELOC_GOT_LOAD &&
        type != X86_64_RELOC_TLV) {
        b3_macho_put32(fx->field, (uint32_t)(fx->sym_addr + (uint64_t)r->addend - fx->place));
        return 0;
    }
    int64_t value = r->addend;
    if (pcrel)
        value += 4; /* from the end of the field, as Mach-O measures */
    if (type == X86_64_RELOC_SIGNED)
        type = value == -1   ? X86_64_RELOC_SIGNED_1
               : value == -2 ? X86_64_RELOC_SIGNED_2
               : value == -4 ? X86_64_RELOC_SIGNED_4
                             : type;
    if (!fx->is_extern) {
        /* The address the field resolves to, as if the object were loaded at 0. */
        value += (int64_t)fx->target;
        if (pcrel)
            value -= (int64_t)(fx->place + 4);
    }
    if (kinds[r->kind].length == 3)
        b3_macho_put64(fx->field, (uint64_t)value);
    else
        b3_macho_put32(fx->field, (uint32_t)value);
    out[0] = (B3MachoReloc){.address = (uint32_t)r->offset,
                            .symbolnum = fx->symbolnum,
                            .pcrel = pcrel,
                            .length = kinds[r->kind].length,
                            .is_extern = fx->is_extern,
                            .type = (uint8_t)type};
    return 1;
}
