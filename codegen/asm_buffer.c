/* The assemblers' shared buffer, labels and relocations (asm_buffer.h). */
#include "codegen/asm_buffer.h"

#include <stdlib.h>
#include <string.h>

#include "ir/diag.h"
#include "util/alloc.h"

void b3_asm_relax_free(B3AsmRelax *r) {
    free(r->is_long);
    memset(r, 0, sizeof *r);
}

bool b3_asm_relax_is_long(B3AsmRelax *r, uint32_t k) {
    if (k >= r->n) {
        uint32_t cap = r->cap ? r->cap : 16;
        while (cap < k + 1)
            cap *= 2;
        if (cap != r->cap) {
            r->is_long = b3_xrealloc("assembler", r->is_long, cap);
            r->cap = cap;
        }
        memset(r->is_long + r->n, 0, k + 1 - r->n);
        r->n = k + 1;
    }
    return r->is_long[k];
}

void b3_asm_buffer_init(B3AsmBuffer *b, const char *phase, B3AsmResolve *resolve) {
    memset(b, 0, sizeof *b);
    b->phase = phase;
    b->resolve = resolve;
}

void b3_asm_buffer_free(B3AsmBuffer *b) {
    free(b->buf);
    free(b->label_pos);
    free(b->fixups);
    free(b->label_fixups);
    free(b->relocs);
    free(b->listing_end);
    memset(b, 0, sizeof *b);
}

void *b3_asm_grow(const char *phase, void *p, uint32_t *cap, size_t elem, uint32_t need) {
    if (need <= *cap)
        return p;
    uint32_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    p = b3_xrealloc(phase, p, n * elem);
    *cap = n;
    return p;
}

void b3_asm_put32(B3AsmBuffer *b, uint32_t v) {
    b->buf = b3_asm_grow(b->phase, b->buf, &b->cap, 1, b->len + 4);
    for (int i = 0; i < 4; i++)
        b->buf[b->len++] = (uint8_t)(v >> (8 * i));
}

uint32_t b3_asm_get32(const B3AsmBuffer *b, uint32_t pos) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)b->buf[pos + i] << (8 * i);
    return v;
}

void b3_asm_patch32(B3AsmBuffer *b, uint32_t pos, uint32_t v) {
    for (int i = 0; i < 4; i++)
        b->buf[pos + i] = (uint8_t)(v >> (8 * i));
}

uint32_t b3_asm_label_new(B3AsmBuffer *b) {
    b->label_pos = b3_asm_grow(b->phase, b->label_pos, &b->cap_labels, sizeof(int64_t), b->nlabels + 1);
    b->label_pos[b->nlabels] = -1;
    b->label_fixups =
        b3_asm_grow(b->phase, b->label_fixups, &b->cap_label_fixups, sizeof(uint32_t), b->nlabels + 1);
    b->label_fixups[b->nlabels] = 0;
    return b->nlabels++;
}

bool b3_asm_imm_reads_hex(uint64_t magnitude) {
    if (magnitude < 0x100)
        return false;
    unsigned other = 0; /* distinct digits besides 0 and f, as a bit set */
    for (; magnitude; magnitude >>= 4)
        if ((magnitude & 15) != 0 && (magnitude & 15) != 15)
            other |= 1u << (magnitude & 15);
    return (other & (other - 1)) == 0;
}

void b3_asm_list_label(B3AsmBuffer *b, uint32_t label) {
    fprintf(b->listing, "%s%u", b->label_prefix ? b->label_prefix : ".L", label);
}

void b3_asm_list_end(B3AsmBuffer *b) {
    fputc('\n', b->listing);
    b->listing_end =
        b3_asm_grow(b->phase, b->listing_end, &b->cap_listing_lines, sizeof(uint32_t), b->nlisting_lines + 1);
    b->listing_end[b->nlisting_lines++] = b->len;
}

void b3_asm_bind(B3AsmBuffer *b, uint32_t l) {
    if (b->label_pos[l] >= 0)
        b3_internal_error(b->phase, "label %u bound twice", l);
    b->label_pos[l] = b->len;
    if (b->listing) {
        b3_asm_list_label(b, l);
        fputc(':', b->listing);
        b3_asm_list_end(b);
    }
    /* Patch the pending references to it: its own list, not every pending
     * reference (many branches to one late block made this quadratic). */
    for (uint32_t i = b->label_fixups[l]; i; i = b->fixups[i - 1].next) {
        b->resolve(b, &b->fixups[i - 1]);
        b->npending--;
    }
    b->label_fixups[l] = 0;
    if (!b->npending)
        b->nfixups = 0;
}

void b3_asm_label_ref(B3AsmBuffer *b, B3AsmFixup f) {
    if (f.label >= b->nlabels)
        b3_internal_error(b->phase, "bad label %u", f.label);
    if (b->label_pos[f.label] >= 0) {
        b->resolve(b, &f);
        return;
    }
    f.next = b->label_fixups[f.label];
    b->fixups = b3_asm_grow(b->phase, b->fixups, &b->cap_fixups, sizeof(B3AsmFixup), b->nfixups + 1);
    b->fixups[b->nfixups++] = f;
    b->label_fixups[f.label] = b->nfixups;
    b->npending++;
}

void b3_asm_check_labels(const B3AsmBuffer *b) {
    if (b->npending)
        for (uint32_t l = 0; l < b->nlabels; l++)
            if (b->label_fixups[l])
                b3_internal_error(b->phase, "label %u referenced but never bound", l);
}

void b3_asm_reloc(B3AsmBuffer *b, uint32_t offset, B3RelocKind kind, B3Symbol *sym, int64_t addend) {
    b->relocs = b3_asm_grow(b->phase, b->relocs, &b->cap_relocs, sizeof(B3AsmReloc), b->nrelocs + 1);
    b->relocs[b->nrelocs++] = (B3AsmReloc){offset, (uint8_t)kind, sym, addend};
}
