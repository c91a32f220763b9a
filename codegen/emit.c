/* Pieces every target's emitter shares (codegen/emit.h). */
#include "codegen/emit.h"

#include <stdlib.h>
#include <string.h>

#include "ir/ice.h"
#include "objwriter/asm_writer.h"
#include "objwriter/frame.h"
#include "util/alloc.h"

uint8_t *b3_emit_entry_flags(const AirCode *c) {
    uint8_t *is_entry = b3_xcalloc("emitter", c->nblocks, 1);
    for (uint32_t k = 0; k < (c->nentries ? c->nentries : 1); k++)
        is_entry[air_entry_block(c, k)->index] = 1;
    return is_entry;
}

void b3_emit_define_entries(const AirCode *c, B3Obj *o, uint64_t start, uint64_t len,
                            const uint64_t *prologue_at) {
    const B3Proc *p = c->proc;
    if (!p)
        return;
    if (p->sym) {
        uint32_t k = 0;
        for (uint32_t i = 0; i < p->nentrypoints; i++)
            if (p->entrypoints[i] == p->sym)
                k = i;
        uint64_t off = prologue_at[air_entry_block(c, k)->index];
        b3_obj_define(o, p->sym, B3Sec_Text, start + off, len - off, true);
    }
    for (uint32_t i = 0; i < p->nentrypoints; i++)
        if (p->entrypoints[i] && p->entrypoints[i] != p->sym) {
            uint64_t off = prologue_at[air_entry_block(c, i)->index];
            b3_obj_define(o, p->entrypoints[i], B3Sec_Text, start + off, len - off, true);
        }
}

static int cmp_u64(const void *pa, const void *pb) {
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

void b3_emit_add_frames(const AirCode *c, B3Obj *o, uint64_t start, uint64_t len, const uint64_t *prologue_at,
                        const B3Frame *f) {
    uint32_t n = c->nentries ? c->nentries : 1, k = 0;
    uint64_t *at = b3_xmalloc("emitter", n * sizeof *at);
    for (uint32_t i = 0; i < n; i++)
        at[i] = prologue_at[air_entry_block(c, i)->index];
    qsort(at, n, sizeof *at, cmp_u64);
    for (uint32_t i = 0; i < n; i++)
        if (!k || at[k - 1] != at[i])
            at[k++] = at[i];
    for (uint32_t i = 0; i < k; i++)
        b3_obj_add_frame(o, f, start, at[i], (i + 1 < k ? at[i + 1] : len) - at[i]);
    free(at);
}

void b3_emit_listing_begin(B3EmitListing *l, B3AsmBuffer *b, B3Obj *o,
                           void (*sym)(void *ctx, FILE *f, const B3Symbol *sym, B3RelocKind kind),
                           const char *comment) {
    if (!o->asm_text)
        return;
    l->text = NULL;
    l->len = 0;
    b->listing = open_memstream(&l->text, &l->len);
    if (!b->listing)
        b3_out_of_memory(b->phase);
    snprintf(l->label_prefix, sizeof l->label_prefix, "%sBB%u_", b3_asm_local_prefix(o->module->target),
             b3_asm_text_next_proc(o->asm_text));
    b->label_prefix = l->label_prefix;
    b->listing_sym = sym;
    b->listing_ctx = o;
    b->listing_p2align = true;
    b->listing_comment = b3_asm_text_verbose(o->asm_text) ? comment : NULL;
    b->listing_origin = NULL;
}

/* The comment's value text at most this long (a Switch or CCall can be long). */
enum { MaxValueText = 100 };

void b3_emit_listing_origin(B3AsmBuffer *b, const B3Value *v) {
    if (!b->listing || !b->listing_comment || !v || v == b->listing_origin)
        return;
    b->listing_origin = v;
    const B3Obj *o = b->listing_ctx;
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        b3_out_of_memory(b->phase);
    b3_print_value(o->module, v, m);
    if (fclose(m) != 0)
        b3_out_of_memory(b->phase);
    /* `@12 = Add(@3, @7)`: the value's name on, without its type. */
    const char *at = strchr(text, '@');
    const char *s = at ? at : text;
    size_t n = len - (size_t)(s - text);
    fprintf(b->listing, "\t%s ", b->listing_comment);
    for (size_t i = 0; i < n && i < MaxValueText; i++)
        fputc((unsigned char)s[i] < 0x20 ? ' ' : s[i], b->listing); /* one line, whatever it holds */
    if (n > MaxValueText)
        fputs("...", b->listing);
    if (v->loc.line && o->diag && o->diag->file)
        fprintf(b->listing, "  ; %s:%u", o->diag->file, v->loc.line);
    else if (v->loc.line)
        fprintf(b->listing, "  ; line %u", v->loc.line);
    b3_asm_list_end(b);
    free(text);
}

void b3_emit_listing_reset(B3AsmBuffer *b) { b->listing_origin = NULL; }

void b3_emit_listing_end(B3EmitListing *l, B3AsmBuffer *b, B3Obj *o, uint64_t start) {
    if (!o->asm_text)
        return;
    if (fclose(b->listing) != 0)
        b3_internal_error(b->phase, "cannot collect the listing");
    b->listing = NULL;
    b3_asm_text_add_proc(o->asm_text, start, b->len, l->text, l->len, b->listing_end, b->nlisting_lines);
    free(l->text);
    l->text = NULL;
}
