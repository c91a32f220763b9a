/* -S (--emit=asm) on arm64: each procedure's instruction text, collected from
 * the assembler's listing (asm.h) while the emission driver encodes it, and
 * the AArch64 side of the GNU as syntax that the shared writer
 * (objwriter/asm_writer.h) prints the object with.  `aarch64-linux-gnu-as`
 * and `llvm-mc -triple=aarch64` both read it.  The assemblers never relax
 * an AArch64 branch, so the text fixes every byte: what the listing says is
 * what the object holds. */
#include <ctype.h>
#include <string.h>

#include "codegen/arm64/arm64.h"
#include "codegen/emit.h"
#include "objwriter/asm_writer.h"
#include "util/bits.h"

/* The comment leader both assemblers read on ELF and Mach-O. */
#define ARM64_COMMENT "//"

/* Does the name spell a register (any case)?  As an operand it would be
 * read as one (llvm-mc: `bl x0` is an error), so it is quoted there. */
static bool register_name(const B3Symbol *s) {
    static const char *const named[] = {"sp", "wsp", "xzr", "wzr", "lr", "fp", "ip0", "ip1"};
    char low[8];
    if (s->name_len == 0 || s->name_len >= sizeof low)
        return false;
    for (uint32_t i = 0; i < s->name_len; i++)
        low[i] = (char)tolower((unsigned char)s->name[i]);
    low[s->name_len] = 0;
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (!strcmp(low, named[i]))
            return true;
    /* x0, w30, v31, b0, h0, s0, d0, q0, z0, p0: a bank letter and a number. */
    if (!strchr("xwvbhsdqzp", low[0]) || s->name_len < 2 || s->name_len > 3)
        return false;
    for (uint32_t i = 1; i < s->name_len; i++)
        if (!isdigit((unsigned char)low[i]))
            return false;
    return true;
}

/* Mach-O (llvm-mc -triple=arm64-apple-macos): the C name with its `_` and
 * the variant after it, `adrp x0, _sym@PAGE`, `ldr x0, [x0, _sym@GOTPAGEOFF]`;
 * a `_` name never spells a register, and no local alias is needed (a
 * Mach-O symbol is never preempted: the linker binds it to its definition). */
static void print_sym_apple(FILE *f, const B3Symbol *sym, B3RelocKind kind) {
    const char *variant = "";
    switch (kind) {
    case B3Reloc_A64_AdrPrelPgHi21:
        variant = "@PAGE";
        break;
    case B3Reloc_A64_AdrGotPage:
        variant = "@GOTPAGE";
        break;
    case B3Reloc_A64_Ld64GotLo12:
        variant = "@GOTPAGEOFF";
        break;
    case B3Reloc_A64_TlvpPage21:
        variant = "@TLVPPAGE";
        break;
    case B3Reloc_A64_TlvpPageoff12:
        variant = "@TLVPPAGEOFF";
        break;
    default:
        if (*arm64_elf_modifier(kind)) /* the :lo12: kinds */
            variant = "@PAGEOFF";
        break;
    }
    b3_asm_print_name(f, "_", sym, "", variant, false);
}

/* A symbol operand (asm.h prints the addend after it), the modifier of its kind first:
 * the symbol itself, or for a PC-relative address of a global function of
 * this module its local alias, which binds locally as the object writer does.
 * A call names the symbol: AArch64 has no @PLT, the linker makes a PLT
 * entry for a CALL26/JUMP26 to a preemptible symbol by itself. */
static void print_sym(void *ctx, FILE *f, const B3Symbol *sym, B3RelocKind kind) {
    const B3Obj *o = ctx;
    if (o->module->target.os == B3OS_MacOS) {
        print_sym_apple(f, sym, kind);
        return;
    }
    fputs(arm64_elf_modifier(kind), f);
    if (b3_asm_uses_local_alias(o, sym, kind))
        b3_asm_print_name(f, ".L", sym, "$local", "", false);
    else
        b3_asm_print_name(f, "", sym, "", "", register_name(sym));
}

void arm64_listing_begin(Arm64Listing *l, Arm64Asm *a, B3Obj *o) {
    b3_emit_listing_begin(l, &a->buffer, o, print_sym, ARM64_COMMENT);
}

/* The object pads between procedures with the description's code_pad_byte,
 * 0: whole `udf #0` words, since procedures are whole words.  Both
 * assemblers pad a code section's .p2align with nops even when told to fill
 * with 0 (llvm-mc takes a fill equal to its default as "code alignment"),
 * so the padding is spelled out; the .p2align after it pads nothing and
 * gives .text its 16-byte alignment. */
static void proc_align(FILE *f, uint64_t pad, uint32_t align) {
    if (pad % 4)
        b3_internal_error("arm64 asm writer", "procedure padding of %u bytes is not whole words",
                          (unsigned)pad);
    for (uint64_t i = 0; i < pad; i += 4)
        fputs("\tudf\t#0\n", f);
    fprintf(f, "\t.p2align\t%u\n", b3_log2_floor(align));
}

static const B3AsmSyntax arm64_syntax = {.comment = ARM64_COMMENT,
                                         .proc_align = proc_align,
                                         .cfi_reg_name = b3_arm64_cfi_reg_name,
                                         .macho_entry_sum = true};

bool b3_arm64_write_asm(B3Obj *o, FILE *f) { return b3_write_asm(o, f, &arm64_syntax); }
