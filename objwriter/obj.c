/* The format-independent object buffer (objwriter/obj.h) and the layout of
 * `data` items (spec section 6). */
#include "objwriter/obj.h"
#include "objwriter/dwarf.h"
#include "objwriter/stackmaps.h"
#include "util/alloc.h"
#include "util/vec.h"

#include <stdlib.h>
#include <string.h>

void b3_obj_init(B3Obj *o, B3Module *m) {
    memset(o, 0, sizeof *o);
    o->module = m;
    for (int s = 0; s < B3_NUM_SECTIONS; s++)
        o->sec[s].align = 1;
    /* Functions start 16-byte aligned, as C compilers do, so code density does
     * not depend on where the previous function ended. */
    o->sec[B3Sec_Text].align = 16;
}

void b3_obj_free(B3Obj *o) {
    b3_obj_free_stackmaps(o);
    b3_obj_free_debug(o);
    for (int s = 0; s < B3_NUM_SECTIONS; s++)
        free(o->sec[s].bytes);
    free(o->relocs);
    free(o->defs);
    free(o->code_marks);
    free(o->frames);
    free(o->cfi_steps);
    memset(o, 0, sizeof *o);
}

/* Makes room for n more bytes (no storage for the zero-filled sections, .bss
 * and .tbss, which only have a size). */
static void reserve(B3Obj *o, B3SectionId s, uint64_t n) {
    B3SectionBuf *b = &o->sec[s];
    if (b->size + n < b->size || b->size + n > SIZE_MAX)
        b3_internal_error("objwriter", "section too large");
    if (!b3_sec_is_zerofill(s))
        B3_VEC_RESERVE("objwriter", b->bytes, b->cap, b->size + n);
}

uint64_t b3_obj_emit(B3Obj *o, B3SectionId s, const void *bytes, uint64_t n) {
    B3SectionBuf *b = &o->sec[s];
    uint64_t at = b->size;
    reserve(o, s, n);
    /* n == 0 may come with bytes == NULL and an unallocated buffer (an
     * empty Bytes ""): memcpy/memset with a null pointer is UB even for 0. */
    if (!b3_sec_is_zerofill(s) && n) {
        if (bytes)
            memcpy(b->bytes + at, bytes, (size_t)n);
        else
            memset(b->bytes + at, 0, (size_t)n);
    }
    b->size += n;
    return at;
}

void b3_obj_align(B3Obj *o, B3SectionId s, uint32_t align) {
    if (align <= 1)
        return;
    if (align & (align - 1))
        b3_internal_error("objwriter", "alignment %u is not a power of two", align);
    B3SectionBuf *b = &o->sec[s];
    if (align > b->align)
        b->align = align;
    uint64_t pad = (align - (b->size & (align - 1))) & (align - 1);
    if (pad) {
        /* Padding in code is never executed, but the target's pad byte can
         * make a stray jump into it fail loudly (x86's int3) instead of
         * sliding into the next function. */
        uint8_t fill =
            b3_obj_sec_is_code(o, s) && o->module ? b3_target_desc(o->module->target)->code_pad_byte : 0;
        uint64_t at = b3_obj_emit(o, s, NULL, pad);
        if (fill)
            memset(b->bytes + at, fill, (size_t)pad);
    }
}

void b3_obj_reloc(B3Obj *o, B3SectionId s, uint64_t offset, B3RelocKind kind, B3Symbol *sym, int64_t addend) {
    B3_VEC_RESERVE("objwriter", o->relocs, o->cap_relocs, o->nrelocs + 1);
    o->relocs[o->nrelocs++] = (B3Reloc){.section = (uint8_t)s,
                                        .kind = (uint8_t)kind,
                                        .offset = offset,
                                        .sym = sym,
                                        .local_section = -1,
                                        .addend = addend};
}

void b3_obj_mark_code(B3Obj *o, B3SectionId s, uint64_t offset, bool data) {
    B3_VEC_RESERVE("objwriter", o->code_marks, o->cap_code_marks, o->ncode_marks + 1);
    o->code_marks[o->ncode_marks++] = (B3CodeMark){.offset = offset, .section = (uint8_t)s, .data = data};
}

void b3_obj_define(B3Obj *o, B3Symbol *sym, B3SectionId s, uint64_t offset, uint64_t size, bool is_func) {
    B3_VEC_RESERVE("objwriter", o->defs, o->cap_defs, o->ndefs + 1);
    o->defs[o->ndefs++] =
        (B3SymDef){.sym = sym, .section = (uint8_t)s, .offset = offset, .size = size, .is_func = is_func};
}

/* ---- data ------------------------------------------------------------------ */

static bool item_is_zero(const B3DataItem *it) {
    switch ((B3DataKind)it->kind) {
    case B3Data_Bytes:
        for (uint32_t i = 0; i < it->u.str.len; i++)
            if (it->u.str.bytes[i])
                return false;
        return true;
    case B3Data_Zero:
        return true;
    case B3Data_Addr:
    case B3Data_Rel32:
        return false; /* a relocation: never known to be zero */
    default: {
        /* Only the bits that are written count (Int8 255 stored as bits 0xff..). */
        uint64_t n = b3_data_item_size(it);
        uint64_t mask = n >= 8 ? ~0ull : (1ull << (8 * n)) - 1;
        return (it->u.bits & mask) == 0; /* -0.0 has a sign bit: not zero */
    }
    }
}

/* The section of its own that sym names, made on first use (holding code
 * when it is made for a procedure). */
static B3SectionId named_section(B3Obj *o, const B3Symbol *sym, bool writable, bool code) {
    uint32_t i = 0;
    while (i < o->nnamed &&
           (o->named[i].len != sym->section_len || memcmp(o->named[i].name, sym->section, sym->section_len)))
        i++;
    if (i == o->nnamed) {
        if (i == B3_MAX_NAMED_SECTIONS)
            b3_internal_error("objwriter", "more than %d named sections", B3_MAX_NAMED_SECTIONS);
        o->named[o->nnamed++] = (B3NamedSection){.name = sym->section, .len = sym->section_len, .code = code};
        if (code) /* functions start 16-byte aligned, as in .text */
            o->sec[B3Sec_Named0 + i].align = 16;
    }
    o->named[i].writable |= writable;
    return (B3SectionId)(B3Sec_Named0 + i);
}

B3SectionId b3_obj_code_section(B3Obj *o, const B3Symbol *sym) {
    return sym && sym->section ? named_section(o, sym, false, true) : B3Sec_Text;
}

static B3SectionId data_section(B3Obj *o, const B3Symbol *sym, const B3Data *d) {
    bool zero = true, addr = false;
    for (uint32_t i = 0; i < d->nlines; i++)
        for (uint32_t j = 0; j < d->lines[i].nitems; j++) {
            const B3DataItem *it = &d->lines[i].items[j];
            addr |= it->kind == B3Data_Addr || it->kind == B3Data_Rel32;
            zero &= item_is_zero(it);
        }
    if (sym->tls) /* constant or not, each thread has its copy */
        return zero ? B3Sec_TBss : B3Sec_TData;
    if (sym->section) /* bytes in the file, zero or not, as C compilers do */
        return named_section(o, sym, !d->readonly || addr, false);
    if (d->readonly)
        return addr ? B3Sec_DataRelRo : B3Sec_ROData;
    return zero ? B3Sec_BSS : B3Sec_Data;
}

/* Stores the low n bytes of v little-endian (both targets are little-endian). */
static void put_le(uint8_t *p, uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Mach-O's thread-local variable (docs/c-extensions.md): the symbol names
 * a 24-byte descriptor in __thread_vars, { __tlv_bootstrap, 0, the
 * initial image }, which code calls through (dyld fills the key and
 * offset); the image is a local symbol NAME$tlv$init in __thread_data or
 * __thread_bss, as clang emits them.  Returns the image's symbol. */
static B3Symbol *macho_tlv_descriptor(B3Obj *o, B3Symbol *sym) {
    B3Module *m = o->module;
    B3Symbol *init = b3_arena_alloc(&m->arena, sizeof *init);
    uint32_t n = sym->name_len + 9;
    char *name = b3_arena_alloc(&m->arena, n + 1);
    memcpy(name, sym->name, sym->name_len);
    memcpy(name + sym->name_len, "$tlv$init", 10);
    *init = (B3Symbol){
        .name = name, .name_len = n, .kind = B3Sym_Data, .internal = true, .defined = true, .loc = sym->loc};
    init->def.data = sym->def.data;
    bool created = false;
    B3Symbol *boot = b3_symbol_get(m, "_tlv_bootstrap", 14, &created);
    b3_obj_align(o, B3Sec_ThreadVars, 8);
    uint64_t at = b3_obj_emit(o, B3Sec_ThreadVars, NULL, 24);
    b3_obj_reloc(o, B3Sec_ThreadVars, at, B3Reloc_Abs64, boot, 0);
    b3_obj_reloc(o, B3Sec_ThreadVars, at + 16, B3Reloc_Abs64, init, 0);
    b3_obj_define(o, sym, B3Sec_ThreadVars, at, 24, false);
    return init;
}

static void emit_one(B3Obj *o, B3Symbol *sym) {
    static const B3Data empty;
    const B3Data *d = sym->def.data ? sym->def.data : &empty;
    B3SectionId s = data_section(o, sym, d);
    if (sym->tls && b3_target_obj_format(o->module->target) == B3ObjFormat_MachO)
        sym = macho_tlv_descriptor(o, sym);
    uint32_t align = b3_data_align(d);
    b3_obj_align(o, s, align);
    uint64_t start = o->sec[s].size;
    for (uint32_t i = 0; i < d->nlines; i++)
        for (uint32_t j = 0; j < d->lines[i].nitems; j++) {
            const B3DataItem *it = &d->lines[i].items[j];
            /* Natural alignment relative to the datum's start. */
            uint64_t pad = b3_data_item_pad(it, o->sec[s].size - start);
            if (pad)
                b3_obj_emit(o, s, NULL, pad);
            uint64_t n = b3_data_item_size(it);
            switch ((B3DataKind)it->kind) {
            case B3Data_Bytes:
                b3_obj_emit(o, s, it->u.str.bytes, n);
                break;
            case B3Data_Zero:
                b3_obj_emit(o, s, NULL, n);
                break;
            case B3Data_Addr: {
                uint64_t at = b3_obj_emit(o, s, NULL, 8);
                b3_obj_reloc(o, s, at, B3Reloc_Abs64, it->u.addr.sym, it->u.addr.addend);
                break;
            }
            case B3Data_Rel32: { /* S + A - P: the linker resolves it, no dynamic relocation */
                uint64_t at = b3_obj_emit(o, s, NULL, 4);
                b3_obj_reloc(o, s, at, B3Reloc_PC32, it->u.addr.sym, it->u.addr.addend);
                break;
            }
            default: {
                uint8_t buf[8];
                put_le(buf, it->u.bits, (unsigned)n);
                b3_obj_emit(o, s, buf, n);
                break;
            }
            }
        }
    b3_obj_define(o, sym, s, start, o->sec[s].size - start, false);
}

/* Mach-O's __mod_init_func: a pointer to each constructor, by priority and
 * in module order within one, as clang orders llvm.global_ctors there (the
 * format has no priorities: the linker keeps each object's order).  The
 * destructors were made constructors that register them with __cxa_atexit
 * (lower/lower_structors.c). */
static void macho_mod_init_func(B3Obj *o, B3Module *m) {
    B3Structor *st;
    uint32_t n = b3_obj_structors(m, &st);
    for (int32_t prio = -1;;) { /* each priority present, from the lowest */
        int32_t next = INT32_MAX;
        for (uint32_t i = 0; i < n; i++)
            if (!st[i].fini && st[i].priority > prio && st[i].priority < next)
                next = st[i].priority;
        if (next == INT32_MAX)
            break;
        for (uint32_t i = 0; i < n; i++)
            if (!st[i].fini && st[i].priority == next) {
                b3_obj_align(o, B3Sec_ModInitFunc, 8);
                uint64_t at = b3_obj_emit(o, B3Sec_ModInitFunc, NULL, 8);
                b3_obj_reloc(o, B3Sec_ModInitFunc, at, B3Reloc_Abs64, st[i].sym, 0);
            }
        prio = next;
    }
    for (uint32_t i = 0; i < n; i++)
        if (st[i].fini)
            b3_internal_error("objwriter", "destructor '%.*s' was not made a constructor for Mach-O",
                              (int)st[i].sym->name_len, st[i].sym->name);
    free(st);
}

/* Aliases (docs/c-extensions.md): another name of the target's definition,
 * at the offset into it, with the bytes left from there as its size (a
 * procedure's whole code). */
static void define_aliases(B3Obj *o, B3Module *m) {
    for (uint32_t i = 0; i < m->nitems; i++) {
        if (m->items[i].kind != B3Item_Alias)
            continue;
        B3Symbol *s = m->items[i].sym;
        const B3Alias *a = s->def.alias;
        const B3SymDef *d = NULL;
        for (uint32_t k = 0; k < o->ndefs && !d; k++)
            if (o->defs[k].sym == a->target)
                d = &o->defs[k];
        if (!d)
            b3_internal_error("objwriter", "alias '%.*s' names a symbol the object does not define",
                              (int)s->name_len, s->name);
        uint64_t off = (uint64_t)a->offset;
        B3SymDef def = *d; /* b3_obj_define may move the array */
        b3_obj_define(o, s, def.section, def.offset + off, off < def.size ? def.size - off : 0, def.is_func);
    }
}

void b3_obj_emit_data(B3Obj *o, B3Module *m) {
    for (uint32_t i = 0; i < m->nitems; i++)
        if (m->items[i].kind == B3Item_Data)
            emit_one(o, m->items[i].sym);
    define_aliases(o, m);
    if (b3_target_obj_format(m->target) == B3ObjFormat_MachO)
        macho_mod_init_func(o, m);
}
