/* A minimal B3Obj for the encoder tests: sections, relocations and symbol
 * definitions kept in memory (no ELF writing), so the emitter can be tested
 * without objwriter/. */
#include <stdlib.h>
#include <string.h>

#include "objwriter/obj.h"

static void *grow(void *p, uint32_t *cap, size_t elem, uint32_t need) {
    if (need <= *cap)
        return p;
    uint32_t n = *cap ? *cap * 2 : 16;
    while (n < need)
        n *= 2;
    p = realloc(p, n * elem);
    if (!p)
        abort();
    *cap = n;
    return p;
}

void b3_obj_init(B3Obj *o, B3Module *m) {
    memset(o, 0, sizeof *o);
    o->module = m;
    for (int i = 0; i < B3_NUM_SECTIONS; i++)
        o->sec[i].align = 1;
}

void b3_obj_free(B3Obj *o) {
    for (int i = 0; i < B3_NUM_SECTIONS; i++)
        free(o->sec[i].bytes);
    free(o->relocs);
    free(o->defs);
    free(o->frames);
    free(o->cfi_steps);
    memset(o, 0, sizeof *o);
}

uint64_t b3_obj_emit(B3Obj *o, B3SectionId s, const void *bytes, uint64_t n) {
    B3SectionBuf *b = &o->sec[s];
    uint64_t off = b->size;
    if (b->size + n > b->cap) {
        uint64_t cap = b->cap ? b->cap : 64;
        while (cap < b->size + n)
            cap *= 2;
        b->bytes = realloc(b->bytes, cap);
        if (!b->bytes)
            abort();
        b->cap = cap;
    }
    memcpy(b->bytes + b->size, bytes, n);
    b->size += n;
    return off;
}

void b3_obj_align(B3Obj *o, B3SectionId s, uint32_t align) {
    const uint8_t fill = s == B3Sec_Text ? 0xcc : 0; /* as objwriter/obj.c: int3 in code */
    if (o->sec[s].align < align)
        o->sec[s].align = align;
    while (o->sec[s].size % align)
        b3_obj_emit(o, s, &fill, 1);
}

void b3_obj_reloc(B3Obj *o, B3SectionId s, uint64_t offset, B3RelocKind kind, B3Symbol *sym, int64_t addend) {
    o->relocs = grow(o->relocs, &o->cap_relocs, sizeof(B3Reloc), o->nrelocs + 1);
    o->relocs[o->nrelocs++] = (B3Reloc){.section = (uint8_t)s,
                                        .kind = (uint8_t)kind,
                                        .offset = offset,
                                        .sym = sym,
                                        .local_section = -1,
                                        .addend = addend};
}

void b3_obj_define(B3Obj *o, B3Symbol *sym, B3SectionId s, uint64_t offset, uint64_t size, bool is_func) {
    o->defs = grow(o->defs, &o->cap_defs, sizeof(B3SymDef), o->ndefs + 1);
    o->defs[o->ndefs++] = (B3SymDef){sym, (uint8_t)s, offset, size, is_func};
}

/* Every procedure's code in .text here. */
B3SectionId b3_obj_code_section(B3Obj *o, const B3Symbol *sym) {
    (void)o;
    (void)sym;
    return B3Sec_Text;
}

/* The data-in-code marks matter only to ELF's AArch64 mapping symbols. */
void b3_obj_mark_code(B3Obj *o, B3SectionId s, uint64_t offset, bool data) {
    (void)o;
    (void)s;
    (void)offset;
    (void)data;
}
