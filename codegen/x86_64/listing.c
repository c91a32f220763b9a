/* -S: collects a procedure's instruction text (see listing.h), and the
 * x86-64 side of the assembly syntax (AT&T, GNU as). */
#include "codegen/x86_64/listing.h"

#include "codegen/x86_64/x86_64.h"
#include "objwriter/asm_writer.h"
#include "util/bits.h"

/* A symbol operand for a relocation of `kind`: sym@PLT for calls to global
 * symbols, sym@GOTPCREL for GOT loads, and for a PC-relative address of a
 * global function of this module its local alias (.Lname$local), which
 * binds locally as the object writer does. */
/* The comment leader of AT&T syntax (GNU as and llvm-mc on x86-64). */
#define X86_COMMENT "#"

static void print_sym(void *ctx, FILE *f, const B3Symbol *sym, B3RelocKind kind) {
    const B3Obj *o = ctx;
    const char *pre = b3_asm_sym_prefix(o->module->target);
    bool macho = b3_target_obj_format(o->module->target) == B3ObjFormat_MachO;
    switch (kind) {
    case B3Reloc_X86_PLT32:
        /* Internal targets need no PLT: the assembler resolves or relocates
         * them locally.  Mach-O has none: a BRANCH relocation goes to a stub
         * when the symbol is in a dylib. */
        b3_asm_print_name(f, pre, sym, "", sym->internal || macho ? "" : "@PLT", false);
        return;
    case B3Reloc_X86_GOTPCRELX:
    case B3Reloc_X86_REX_GOTPCRELX:
        b3_asm_print_name(f, pre, sym, "", "@GOTPCREL", false);
        return;
    case B3Reloc_X86_TPOFF32:
        b3_asm_print_name(f, pre, sym, "", "@tpoff", false);
        return;
    case B3Reloc_X86_GOTTPOFF:
        b3_asm_print_name(f, pre, sym, "", "@gottpoff", false);
        return;
    case B3Reloc_X86_TLSGD:
        b3_asm_print_name(f, pre, sym, "", "@tlsgd", false);
        return;
    case B3Reloc_X86_TLV:
        b3_asm_print_name(f, pre, sym, "", "@TLVP", false);
        return;
    default:
        if (b3_asm_uses_local_alias(o, sym, kind))
            b3_asm_print_name(f, ".L", sym, "$local", "", false);
        else
            b3_asm_print_name(f, pre, sym, "", "", false);
        return;
    }
}

void x86_listing_begin(X86Listing *l, X86Asm *a, B3Obj *o) {
    b3_emit_listing_begin(l, &a->buffer, o, print_sym, X86_COMMENT);
    /* With exact sizes every jump keeps its size too. */
    if (o->asm_text)
        a->listing_disp32 = b3_asm_text_exact(o->asm_text);
}

/* The object pads between procedures with int3 (the description's
 * code_pad_byte); the assemblers pad as much, the plain -S text's jumps
 * relaxed by them or not. */
static void proc_align(FILE *f, uint64_t pad, uint32_t align) {
    (void)pad;
    fprintf(f, "\t.p2align\t%u, 0xcc\n", b3_log2_floor(align));
}

static const B3AsmSyntax x86_64_syntax = {
    .comment = X86_COMMENT, .proc_align = proc_align, .cfi_reg_name = b3_x86_64_cfi_reg_name};

bool b3_x86_64_write_asm(B3Obj *o, FILE *f) { return b3_write_asm(o, f, &x86_64_syntax); }
