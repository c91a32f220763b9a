/* -S: collects a procedure's instruction text (see listing.h). */
#include "codegen/x86_64/listing.h"

#include <stdlib.h>

#include "objwriter/asm_writer.h"

static void print_sym(void *ctx, FILE *f, const B3Symbol *sym, B3RelocKind kind) {
    (void)ctx;
    b3_asm_print_sym_ref(f, sym, kind);
}

void x86_listing_begin(X86Listing *l, X86Asm *a, B3Obj *o) {
    if (!o->asm_text)
        return;
    l->text = NULL;
    l->len = 0;
    a->listing = open_memstream(&l->text, &l->len);
    if (!a->listing)
        b3_internal_error("x86-64 emitter", "out of memory");
    snprintf(l->label_prefix, sizeof l->label_prefix, ".LBB%u_", b3_asm_text_next_proc(o->asm_text));
    a->label_prefix = l->label_prefix;
    a->listing_sym = print_sym;
    a->listing_ctx = NULL;
    /* The writer puts the procedure at a 16-byte boundary, so .p2align pads
     * as the object does; with exact sizes every jump keeps its size too. */
    a->listing_p2align = true;
    a->listing_disp32 = b3_asm_text_exact(o->asm_text);
}

void x86_listing_end(X86Listing *l, X86Asm *a, B3Obj *o, uint64_t start) {
    if (!o->asm_text)
        return;
    if (fclose(a->listing) != 0)
        b3_internal_error("x86-64 emitter", "cannot collect the listing");
    a->listing = NULL;
    b3_asm_text_add_proc(o->asm_text, start, a->len, l->text, l->len, a->listing_end, a->nlisting_lines);
    free(l->text);
    l->text = NULL;
}
