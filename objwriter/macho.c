/* Mach-O relocatable objects (MH_OBJECT; objwriter/macho.h).
 *
 * Layout, as Apple's assembler and llvm-mc lay it out: the header; the load
 * commands LC_SEGMENT_64 (one unnamed segment holding every section that has
 * bytes or symbols, in the order of sec_info), LC_BUILD_VERSION (macOS, the
 * triple's minimum version), LC_SYMTAB and LC_DYSYMTAB; the sections' bytes
 * at their addresses (the zerofill __bss last, with no bytes); each
 * section's relocations; the symbol table; the string table.
 *
 * Symbols carry a leading '_'.  The table is the local symbols (internal
 * definitions, in definition order), then the external definitions, then
 * the undefined symbols, the last two sorted by name as the linker expects
 * (LC_DYSYMTAB gives the three ranges).  An internal symbol is local (not
 * N_PEXT): like ELF's STB_LOCAL, two objects may each have their own.  Entry
 * symbols (EntrySwitch entrypoints inside a procedure) are N_ALT_ENTRY, so
 * the linker never separates them from the procedure they are in: with
 * that, every other symbol starts an independent piece of its section (a
 * procedure with its jump tables, a datum), which MH_SUBSECTIONS_VIA_SYMBOLS
 * tells the linker.
 *
 * Relocations always name a symbol (r_extern): the symbol of the reference,
 * or for a reference to a section offset (the stackmaps' function address
 * of a procedure entered elsewhere, DWARF's code addresses) the symbol whose
 * piece holds it, plus the distance, as llvm-mc does for a temporary label.
 * References from one DWARF section to another are section offsets, stored
 * without a relocation as Mach-O's DWARF has them.  The target's hook
 * (B3TargetDesc.macho_reloc) chooses the types and stores the addends;
 * entries are written in the reverse order of their offsets, as llvm-mc
 * writes them. */
#include "objwriter/macho.h"

#include <stdlib.h>
#include <string.h>

#include "objwriter/bytes.h"
#include "util/alloc.h"
#include "util/bits.h"

/* A 16-byte name field (segment or section), zero-padded. */
static void put_name16(B3Bytes *b, const char *s) {
    char x[16] = {0};
    memcpy(x, s, strlen(s) < 16 ? strlen(s) : 16);
    b3_bytes_append(b, x, 16);
}

/* Where each section goes, and what Mach-O says about it. */
typedef struct {
    B3SectionId id;
    const char *seg, *sect;
    uint32_t flags;
    uint32_t min_align;
} SecInfo;

static const SecInfo sec_info[] = {
    {B3Sec_Text, "__TEXT", "__text", B3_S_REGULAR | B3_S_ATTR_PURE_INSTRUCTIONS | B3_S_ATTR_SOME_INSTRUCTIONS,
     16},
    {B3Sec_ROData, "__TEXT", "__const", B3_S_REGULAR, 1},
    {B3Sec_Data, "__DATA", "__data", B3_S_REGULAR, 1},
    /* Read-only data with absolute addresses: the dynamic linker writes
     * them, so it goes where __DATA_CONST would be made read-only after. */
    {B3Sec_DataRelRo, "__DATA", "__const", B3_S_REGULAR, 1},
    {B3Sec_BSS, "__DATA", "__bss", B3_S_ZEROFILL, 1},
    /* Thread-local variables (docs/c-extensions.md): each thread's initial
     * image, the descriptors the code calls through (clang's order), the
     * constructors, the zero-filled images.  (The order of the -S, which
     * llvm-mc keeps: the data's own sections come after these.) */
    {B3Sec_TData, "__DATA", "__thread_data", B3_S_THREAD_LOCAL_REGULAR, 1},
    {B3Sec_ThreadVars, "__DATA", "__thread_vars", B3_S_THREAD_LOCAL_VARIABLES, 8},
    {B3Sec_ModInitFunc, "__DATA", "__mod_init_func", B3_S_MOD_INIT_FUNC_POINTERS, 8},
    {B3Sec_TBss, "__DATA", "__thread_bss", B3_S_THREAD_LOCAL_ZEROFILL, 1},
    {B3Sec_StackMaps, "__LLVM_STACKMAPS", "__llvm_stackmaps", B3_S_REGULAR, 8},
    /* Read by the linker, which builds __TEXT,__unwind_info from it
     * (objwriter/frame.h); debug, so not loaded itself. */
    {B3Sec_CompactUnwind, "__LD", "__compact_unwind", B3_S_REGULAR | B3_S_ATTR_DEBUG, 8},
    /* DWARF: read from the object by dsymutil, never linked. */
    {B3Sec_DebugAbbrev, "__DWARF", "__debug_abbrev", B3_S_REGULAR | B3_S_ATTR_DEBUG, 1},
    {B3Sec_DebugInfo, "__DWARF", "__debug_info", B3_S_REGULAR | B3_S_ATTR_DEBUG, 1},
    {B3Sec_DebugLine, "__DWARF", "__debug_line", B3_S_REGULAR | B3_S_ATTR_DEBUG, 1},
    {B3Sec_DebugRanges, "__DWARF", "__debug_ranges", B3_S_REGULAR | B3_S_ATTR_DEBUG, 1},
};
#define NSEC (sizeof sec_info / sizeof sec_info[0])

typedef struct {
    B3Obj *o;
    const B3TargetDesc *desc;
    /* Per B3SectionId: its row (NULL: not written), ordinal (1-based),
     * address, alignment, a copy of its bytes (the hooks store addends),
     * its relocation entries. */
    const SecInfo *info[B3_NUM_SECTIONS];
    uint32_t ordinal[B3_NUM_SECTIONS];
    uint64_t addr[B3_NUM_SECTIONS];
    uint32_t align[B3_NUM_SECTIONS];
    uint8_t *bytes[B3_NUM_SECTIONS];
    B3MachoReloc *rel[B3_NUM_SECTIONS];
    uint32_t nrel[B3_NUM_SECTIONS];
    uint32_t nsects;
    const SecInfo *order[NSEC + B3_MAX_NAMED_SECTIONS]; /* written sections by ordinal - 1 */
    /* sec_info's rows, with the data's own sections ("SEG,sect") after
     * __thread_bss. */
    SecInfo rows[NSEC + B3_MAX_NAMED_SECTIONS];
    uint32_t nrows;
    char named_seg[B3_MAX_NAMED_SECTIONS][17], named_sect[B3_MAX_NAMED_SECTIONS][17];
    /* Symbols in table order; B3Symbol.id is the index + 1. */
    B3Symbol **syms;
    const B3SymDef **symdef; /* NULL: undefined */
    uint32_t nsyms, nlocal, nextdef, nundef;
    uint64_t strbytes; /* the names' lengths */
    /* The section symbols (desc->macho_section_symbols): ltmp<k> at the
     * start of the k-th section, local. */
    B3Symbol secsym[B3_NUM_SECTIONS];
    B3SymDef secdef[B3_NUM_SECTIONS];
    char secname[B3_NUM_SECTIONS][16];
    /* Per section: the definitions that start atoms (not entries), by offset. */
    const B3SymDef **atoms[B3_NUM_SECTIONS];
    uint32_t natoms[B3_NUM_SECTIONS];
} Writer;

static bool is_debug(const SecInfo *si) { return si && (si->flags & B3_S_ATTR_DEBUG); }

static bool is_section_symbol(const Writer *w, const B3Symbol *s) {
    return s >= w->secsym && s < w->secsym + B3_NUM_SECTIONS;
}

static void build_rows(Writer *w) {
    B3Obj *o = w->o;
    for (size_t i = 0; i < NSEC; i++) {
        w->rows[w->nrows++] = sec_info[i];
        if (sec_info[i].id != B3Sec_TBss)
            continue;
        for (uint32_t k = 0; k < o->nnamed; k++) {
            const B3NamedSection *ns = &o->named[k];
            const char *comma = memchr(ns->name, ',', ns->len);
            size_t seg = comma ? (size_t)(comma - ns->name) : 0, sect = comma ? ns->len - seg - 1 : 0;
            if (!comma || seg > 16 || sect > 16) /* the validator's rule */
                b3_internal_error("objwriter", "section \"%.*s\" is not SEG,sect", (int)ns->len, ns->name);
            memcpy(w->named_seg[k], ns->name, seg);
            memcpy(w->named_sect[k], comma + 1, sect);
            /* A procedure's own section holds instructions, as clang's
             * ",regular,pure_instructions" says. */
            uint32_t flags = ns->code
                                 ? B3_S_REGULAR | B3_S_ATTR_PURE_INSTRUCTIONS | B3_S_ATTR_SOME_INSTRUCTIONS
                                 : B3_S_REGULAR;
            w->rows[w->nrows++] = (SecInfo){(B3SectionId)(B3Sec_Named0 + k), w->named_seg[k],
                                            w->named_sect[k], flags, ns->code ? 16 : 1};
        }
    }
}

static void number_sections(Writer *w) {
    B3Obj *o = w->o;
    bool used[B3_NUM_SECTIONS] = {0};
    for (int s = 0; s < B3_NUM_SECTIONS; s++)
        used[s] = o->sec[s].size > 0;
    /* Apple's assemblers always have __text, first: so does this writer,
     * which makes a data-only object the one llvm-mc assembles from -S. */
    used[B3Sec_Text] = true;
    for (uint32_t i = 0; i < o->ndefs; i++)
        used[o->defs[i].section] = true;
    for (uint32_t i = 0; i < o->nrelocs; i++)
        used[o->relocs[i].section] = true;
    for (uint32_t i = 0; i < w->nrows; i++) {
        const SecInfo *si = &w->rows[i];
        B3SectionId s = si->id;
        if (!used[s])
            continue;
        w->info[s] = si;
        w->order[w->nsects] = si;
        w->ordinal[s] = ++w->nsects;
        w->align[s] = o->sec[s].align > si->min_align ? o->sec[s].align : si->min_align;
        if (!o->sec[s].size && s == B3Sec_Text)
            w->align[s] = 1; /* nothing aligned it */
    }
    for (int s = 0; s < B3_NUM_SECTIONS; s++)
        if (used[s] && !w->info[s])
            b3_internal_error("objwriter", "section %d has no Mach-O name", s);
    /* Addresses: the sections with bytes in order, then the zerofill ones. */
    uint64_t at = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t k = 0; k < w->nsects; k++) {
            B3SectionId s = w->order[k]->id;
            if (b3_sec_is_zerofill(s) != (pass == 1))
                continue;
            at = (at + w->align[s] - 1) & ~(uint64_t)(w->align[s] - 1);
            w->addr[s] = at;
            at += o->sec[s].size;
        }
}

/* The name as the table has it: '_' and the symbol's own, shorter first on a common prefix. */
static int name_cmp(const void *pa, const void *pb) {
    const B3Symbol *a = *(B3Symbol *const *)pa, *b = *(B3Symbol *const *)pb;
    uint32_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
    int c = memcmp(a->name, b->name, n);
    if (c)
        return c;
    return a->name_len < b->name_len ? -1 : a->name_len > b->name_len;
}

static int def_name_cmp(const void *pa, const void *pb) {
    const B3SymDef *a = *(const B3SymDef *const *)pa, *b = *(const B3SymDef *const *)pb;
    return name_cmp(&a->sym, &b->sym);
}

static bool nameable(const B3Symbol *s) {
    if (!memchr(s->name, 0, s->name_len))
        return true;
    fputs("b3c: error: symbol @\"", stderr);
    for (uint32_t i = 0; i < s->name_len; i++) {
        unsigned char c = (unsigned char)s->name[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
            fputc(c, stderr);
        else
            fprintf(stderr, "\\x%02x", c);
    }
    fputs("\" contains a NUL byte, which a Mach-O symbol name cannot hold\n", stderr);
    return false;
}

static bool build_symbols(Writer *w) {
    B3Obj *o = w->o;
    B3Module *m = o->module;
    for (uint32_t i = 0; i < m->nsymbols; i++)
        m->symbols[i]->id = 0;
    for (uint32_t i = 0; i < o->nrelocs; i++)
        if (o->relocs[i].sym)
            o->relocs[i].sym->id = 0;
    uint32_t cap = o->ndefs + o->nrelocs + B3_NUM_SECTIONS + 1;
    w->syms = b3_xrealloc("objwriter", NULL, cap * sizeof *w->syms);
    w->symdef = b3_xrealloc("objwriter", NULL, cap * sizeof *w->symdef);
    /* Locals in definition order, then external definitions by name. */
    for (int pass = 0; pass < 2; pass++) {
        uint32_t first = w->nsyms;
        for (uint32_t i = 0; i < o->ndefs; i++) {
            B3SymDef *d = &o->defs[i];
            if (d->sym->internal != (pass == 0))
                continue;
            if (d->sym->id)
                b3_internal_error("objwriter", "symbol '%.*s' defined twice", (int)d->sym->name_len,
                                  d->sym->name);
            if (!nameable(d->sym))
                return false;
            d->sym->id = ~0u;
            w->symdef[w->nsyms++] = d;
        }
        if (pass == 0 && w->desc->macho_section_symbols)
            for (uint32_t k = 0; k < w->nsects; k++) {
                B3SectionId s = w->order[k]->id;
                /* llvm-mc's DWARF sections have their own start symbols
                 * (__compact_unwind, also debug, has an ltmp). */
                if (!strcmp(w->info[s]->seg, "__DWARF"))
                    continue;
                snprintf(w->secname[s], sizeof w->secname[s], "ltmp%u", k);
                w->secsym[s] = (B3Symbol){.name = w->secname[s],
                                          .name_len = (uint32_t)strlen(w->secname[s]),
                                          .kind = B3Sym_Data,
                                          .internal = true,
                                          .defined = true};
                w->secdef[s] = (B3SymDef){.sym = &w->secsym[s], .section = (uint8_t)s};
                w->symdef[w->nsyms++] = &w->secdef[s];
            }
        if (pass == 0) {
            w->nlocal = w->nsyms - first;
        } else {
            w->nextdef = w->nsyms - first;
            qsort(w->symdef + first, w->nextdef, sizeof *w->symdef, def_name_cmp);
        }
    }
    for (uint32_t i = 0; i < w->nsyms; i++)
        w->syms[i] = w->symdef[i]->sym;
    /* Undefined symbols the relocations name, by name. */
    uint32_t first = w->nsyms;
    for (uint32_t i = 0; i < o->nrelocs; i++) {
        B3Symbol *s = o->relocs[i].sym;
        if (!s || s->id)
            continue;
        if (s->internal || s->defined)
            b3_internal_error("objwriter", "symbol '%.*s' is referenced but the object does not define it",
                              (int)s->name_len, s->name);
        if (!nameable(s))
            return false;
        s->id = ~0u;
        w->symdef[w->nsyms] = NULL;
        w->syms[w->nsyms++] = s;
    }
    w->nundef = w->nsyms - first;
    for (uint32_t i = 0; i < w->nsyms; i++)
        w->strbytes += w->syms[i]->name_len;
    qsort(w->syms + first, w->nundef, sizeof *w->syms, name_cmp);
    for (uint32_t i = 0; i < w->nsyms; i++)
        w->syms[i]->id = i + 1;
    return true;
}

/* The symbol whose piece of section s holds offset off: the last definition
 * at or before it that is not an alternate entry, or NULL. */
static const B3SymDef *atom_at(const Writer *w, B3SectionId s, uint64_t off) {
    const B3SymDef *const *a = w->atoms[s];
    uint32_t lo = 0, hi = w->natoms[s]; /* the first atom after off is in [lo, hi] */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (a[mid]->offset <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? a[lo - 1] : NULL;
}

static int def_offset_cmp(const void *pa, const void *pb) {
    const B3SymDef *a = *(const B3SymDef *const *)pa, *b = *(const B3SymDef *const *)pb;
    if (a->offset != b->offset)
        return a->offset < b->offset ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* Each section's atoms, by offset. */
static void find_atoms(Writer *w) {
    B3Obj *o = w->o;
    for (uint32_t i = 0; i < o->ndefs; i++)
        if (o->defs[i].sym->kind != B3Sym_Entry)
            w->natoms[o->defs[i].section]++;
    for (int s = 0; s < B3_NUM_SECTIONS; s++) {
        w->atoms[s] = b3_xrealloc("objwriter", NULL, (w->natoms[s] + 1) * sizeof *w->atoms[s]);
        w->natoms[s] = 0;
    }
    for (uint32_t i = 0; i < o->ndefs; i++)
        if (o->defs[i].sym->kind != B3Sym_Entry)
            w->atoms[o->defs[i].section][w->natoms[o->defs[i].section]++] = &o->defs[i];
    for (int s = 0; s < B3_NUM_SECTIONS; s++)
        qsort(w->atoms[s], w->natoms[s], sizeof *w->atoms[s], def_offset_cmp);
}

static int reloc_offset_cmp(const void *pa, const void *pb) {
    const B3Reloc *a = *(const B3Reloc *const *)pa, *b = *(const B3Reloc *const *)pb;
    if (a->offset != b->offset)
        return a->offset < b->offset ? -1 : 1;
    return a < b ? -1 : a > b; /* stable: creation order */
}

static void build_relocs(Writer *w) {
    B3Obj *o = w->o;
    const B3Reloc **list = b3_xrealloc("objwriter", NULL, (o->nrelocs + 1) * sizeof *list);
    for (uint32_t k = 0; k < w->nsects; k++) {
        B3SectionId s = w->order[k]->id;
        uint32_t n = 0;
        for (uint32_t i = 0; i < o->nrelocs; i++)
            if (o->relocs[i].section == s)
                list[n++] = &o->relocs[i];
        if (!n)
            continue;
        if (b3_sec_is_zerofill(s))
            b3_internal_error("objwriter", "relocation in a zerofill section");
        qsort(list, n, sizeof *list, reloc_offset_cmp);
        w->rel[s] =
            b3_xrealloc("objwriter", NULL, (size_t)n * B3_MACHO_MAX_RELOCS_PER_FIXUP * sizeof *w->rel[s]);
        /* Last offset first, as llvm-mc writes them. */
        for (uint32_t i = n; i-- > 0;) {
            B3Reloc r = *list[i];
            unsigned width = r.kind == B3Reloc_Abs64 ? 8 : 4;
            if (r.offset + width > o->sec[s].size)
                b3_internal_error("objwriter", "relocation at 0x%llx is outside its section",
                                  (unsigned long long)r.offset);
            B3MachoFixup fx = {.r = &r, .field = w->bytes[s] + r.offset, .place = w->addr[s] + r.offset};
            if (r.sym) {
                fx.is_extern = true;
                fx.symbolnum = r.sym->id - 1;
                const B3SymDef *d = w->symdef[r.sym->id - 1];
                if (d && d->section == s) {
                    fx.sym_addr = w->addr[s] + d->offset;
                    fx.same_atom = atom_at(w, s, d->offset) == atom_at(w, s, r.offset);
                }
            } else {
                if (r.local_section < 0 || r.local_section >= B3_NUM_SECTIONS || !w->info[r.local_section])
                    b3_internal_error("objwriter", "relocation without a target");
                B3SectionId t = (B3SectionId)r.local_section;
                if (is_debug(w->info[t])) {
                    /* DWARF to DWARF: a section offset, no relocation. */
                    if (width == 8)
                        b3_macho_put64(fx.field, (uint64_t)r.addend);
                    else
                        b3_macho_put32(fx.field, (uint32_t)r.addend);
                    continue;
                }
                /* From a debug section (__compact_unwind) a section-relative
                 * address stays local, as llvm-mc keeps it. */
                const B3SymDef *a =
                    r.addend >= 0 && !is_debug(w->info[s]) ? atom_at(w, t, (uint64_t)r.addend) : NULL;
                if (a) {
                    fx.is_extern = true;
                    fx.symbolnum = a->sym->id - 1;
                    r.sym = a->sym;
                    r.addend -= (int64_t)a->offset;
                } else {
                    fx.symbolnum = w->ordinal[t];
                    fx.target = w->addr[t];
                }
            }
            int got = w->desc->macho_reloc(&fx, w->rel[s] + w->nrel[s]);
            if (got < 0)
                b3_internal_error("objwriter", "relocation kind %d has no Mach-O form on %s", (int)r.kind,
                                  w->desc->name);
            w->nrel[s] += (uint32_t)got;
        }
    }
    free(list);
}

static void write_image(Writer *w, B3Bytes *out) {
    B3Obj *o = w->o;
    B3Target t = o->module->target;
    /* Without symbols, no symbol tables (as llvm-mc). */
    bool symtab = w->nsyms > 0;
    uint32_t sizeofcmds = B3_MACHO_SEGMENT_SIZE + w->nsects * B3_MACHO_SECTION_SIZE +
                          B3_MACHO_BUILD_VERSION_SIZE +
                          (symtab ? B3_MACHO_SYMTAB_SIZE + B3_MACHO_DYSYMTAB_SIZE : 0);
    uint64_t data_at = B3_MACHO_HEADER_SIZE + sizeofcmds;
    /* The file holds the sections up to the end of the last one with bytes. */
    uint64_t file_size = 0, vm_size = 0;
    for (uint32_t k = 0; k < w->nsects; k++) {
        B3SectionId s = w->order[k]->id;
        uint64_t end = w->addr[s] + o->sec[s].size;
        if (end > vm_size)
            vm_size = end;
        if (!b3_sec_is_zerofill(s) && end > file_size)
            file_size = end;
    }
    uint64_t rel_at = (data_at + file_size + 7) & ~(uint64_t)7;
    uint64_t reloff[B3_NUM_SECTIONS] = {0};
    uint64_t at = rel_at;
    for (uint32_t k = 0; k < w->nsects; k++) {
        B3SectionId s = w->order[k]->id;
        reloff[s] = w->nrel[s] ? at : 0;
        at += (uint64_t)w->nrel[s] * B3_MACHO_RELOC_SIZE;
    }
    uint64_t sym_at = at;
    uint64_t str_at = sym_at + (uint64_t)w->nsyms * B3_MACHO_NLIST_SIZE;

    if (w->nsyms >= 1u << 24 || str_at + 2 * (uint64_t)w->nsyms + w->strbytes + 8 > UINT32_MAX)
        b3_internal_error("objwriter", "the object is too large for Mach-O's 32-bit offsets");
    /* The string table: an empty name at 0, then each symbol's. */
    B3Bytes str = {0};
    b3_bytes_le(&str, 0, 1);
    uint32_t *strx = b3_xrealloc("objwriter", NULL, (w->nsyms + 1) * sizeof *strx);
    for (uint32_t i = 0; i < w->nsyms; i++) {
        strx[i] = (uint32_t)str.n;
        if (!is_section_symbol(w, w->syms[i])) /* the C name */
            b3_bytes_le(&str, '_', 1);
        b3_bytes_append(&str, w->syms[i]->name, w->syms[i]->name_len);
        b3_bytes_le(&str, 0, 1);
    }
    while (str.n % 8)
        b3_bytes_le(&str, 0, 1);

    /* mach_header_64 */
    b3_bytes_le(out, B3_MH_MAGIC_64, 4);
    b3_bytes_le(out, w->desc->macho_cputype, 4);
    b3_bytes_le(out, w->desc->macho_cpusubtype, 4);
    b3_bytes_le(out, B3_MH_OBJECT, 4);
    b3_bytes_le(out, symtab ? 4 : 2, 4); /* ncmds */
    b3_bytes_le(out, sizeofcmds, 4);
    b3_bytes_le(out, B3_MH_SUBSECTIONS_VIA_SYMBOLS, 4);
    b3_bytes_le(out, 0, 4);
    /* LC_SEGMENT_64 with its sections */
    b3_bytes_le(out, B3_LC_SEGMENT_64, 4);
    b3_bytes_le(out, B3_MACHO_SEGMENT_SIZE + w->nsects * B3_MACHO_SECTION_SIZE, 4);
    put_name16(out, "");
    b3_bytes_le(out, 0, 8);
    b3_bytes_le(out, vm_size, 8);
    b3_bytes_le(out, data_at, 8);
    b3_bytes_le(out, file_size, 8);
    b3_bytes_le(out, B3_VM_PROT_RWX, 4);
    b3_bytes_le(out, B3_VM_PROT_RWX, 4);
    b3_bytes_le(out, w->nsects, 4);
    b3_bytes_le(out, 0, 4);
    for (uint32_t k = 0; k < w->nsects; k++) {
        const SecInfo *si = w->order[k];
        B3SectionId s = si->id;
        bool zf = b3_sec_is_zerofill(s);
        put_name16(out, si->sect);
        put_name16(out, si->seg);
        b3_bytes_le(out, w->addr[s], 8);
        b3_bytes_le(out, o->sec[s].size, 8);
        b3_bytes_le(out, zf ? 0 : (uint32_t)(data_at + w->addr[s]), 4);
        b3_bytes_le(out, b3_log2_ceil(w->align[s]), 4);
        b3_bytes_le(out, (uint32_t)reloff[s], 4);
        b3_bytes_le(out, w->nrel[s], 4);
        /* An instruction section says whether it has any. */
        b3_bytes_le(out, o->sec[s].size ? si->flags : si->flags & ~B3_S_ATTR_SOME_INSTRUCTIONS, 4);
        b3_bytes_le(out, 0, 4);
        b3_bytes_le(out, 0, 4);
        b3_bytes_le(out, 0, 4);
    }
    /* LC_BUILD_VERSION: macOS, minos from the triple, sdk as llvm-mc leaves it, no tools */
    b3_bytes_le(out, B3_LC_BUILD_VERSION, 4);
    b3_bytes_le(out, B3_MACHO_BUILD_VERSION_SIZE, 4);
    b3_bytes_le(out, B3_PLATFORM_MACOS, 4);
    b3_bytes_le(out, (uint32_t)t.os_major << 16 | (uint32_t)t.os_minor << 8, 4);
    b3_bytes_le(out, 0, 4);
    b3_bytes_le(out, 0, 4);
    if (symtab) {
        /* LC_SYMTAB */
        b3_bytes_le(out, B3_LC_SYMTAB, 4);
        b3_bytes_le(out, B3_MACHO_SYMTAB_SIZE, 4);
        b3_bytes_le(out, (uint32_t)sym_at, 4);
        b3_bytes_le(out, w->nsyms, 4);
        b3_bytes_le(out, (uint32_t)str_at, 4);
        b3_bytes_le(out, (uint32_t)str.n, 4);
        /* LC_DYSYMTAB: the three ranges; no indirect symbols, no tables */
        b3_bytes_le(out, B3_LC_DYSYMTAB, 4);
        b3_bytes_le(out, B3_MACHO_DYSYMTAB_SIZE, 4);
        b3_bytes_le(out, 0, 4);
        b3_bytes_le(out, w->nlocal, 4);
        b3_bytes_le(out, w->nlocal, 4);
        b3_bytes_le(out, w->nextdef, 4);
        b3_bytes_le(out, w->nlocal + w->nextdef, 4);
        b3_bytes_le(out, w->nundef, 4);
        for (int i = 0; i < 12; i++)
            b3_bytes_le(out, 0, 4);
    }
    if (out->n != data_at)
        b3_internal_error("objwriter", "Mach-O load commands are %zu bytes, not %u", out->n - 32, sizeofcmds);
    /* Section bytes at their addresses. */
    for (uint32_t k = 0; k < w->nsects; k++) {
        B3SectionId s = w->order[k]->id;
        if (b3_sec_is_zerofill(s))
            continue;
        uint64_t pos = data_at + w->addr[s];
        if (out->n < pos)
            b3_bytes_append(out, NULL, pos - out->n);
        b3_bytes_append(out, w->bytes[s], o->sec[s].size);
    }
    b3_bytes_append(out, NULL, rel_at - out->n);
    for (uint32_t k = 0; k < w->nsects; k++) {
        B3SectionId s = w->order[k]->id;
        for (uint32_t i = 0; i < w->nrel[s]; i++) {
            const B3MachoReloc *r = &w->rel[s][i];
            b3_bytes_le(out, r->address, 4);
            b3_bytes_le(out,
                        (r->symbolnum & 0xffffff) | (uint32_t)(r->pcrel & 1) << 24 |
                            (uint32_t)(r->length & 3) << 25 | (uint32_t)(r->is_extern & 1) << 27 |
                            (uint32_t)(r->type & 15) << 28,
                        4);
        }
    }
    /* nlist_64 */
    for (uint32_t i = 0; i < w->nsyms; i++) {
        const B3SymDef *d = w->symdef[i];
        b3_bytes_le(out, strx[i], 4);
        if (d) {
            /* hidden: a private extern (N_PEXT); weak: N_WEAK_DEF; used: N_NO_DEAD_STRIP. */
            b3_bytes_le(
                out,
                (uint8_t)(B3_N_SECT | (d->sym->internal ? 0 : B3_N_EXT) | (d->sym->hidden ? B3_N_PEXT : 0)),
                1);
            b3_bytes_le(out, (uint8_t)w->ordinal[d->section], 1);
            b3_bytes_le(out,
                        (d->sym->kind == B3Sym_Entry ? B3_N_ALT_ENTRY : 0) |
                            (d->sym->weak ? B3_N_WEAK_DEF : 0) | (d->sym->used ? B3_N_NO_DEAD_STRIP : 0),
                        2);
            b3_bytes_le(out, w->addr[d->section] + d->offset, 8);
        } else {
            b3_bytes_le(out, B3_N_UNDF | B3_N_EXT, 1);
            b3_bytes_le(out, 0, 1);
            b3_bytes_le(out, w->syms[i]->weak_ref ? B3_N_WEAK_REF : 0, 2);
            b3_bytes_le(out, 0, 8);
        }
    }
    if (symtab)
        b3_bytes_append(out, str.b, str.n);
    b3_bytes_free(&str);
    free(strx);
}

bool b3_write_macho(B3Obj *o, FILE *f) {
    Writer w;
    memset(&w, 0, sizeof w);
    w.o = o;
    w.desc = b3_target_desc(o->module->target);
    if (!w.desc->macho_reloc) {
        fprintf(stderr, "b3c: error: Mach-O output for %s is not supported yet\n",
                b3_target_name(o->module->target));
        return false;
    }
    build_rows(&w);
    number_sections(&w);
    if (w.nsects > 255) /* n_sect is a byte */
        b3_internal_error("objwriter", "too many Mach-O sections");
    for (uint32_t k = 0; k < w.nsects; k++) {
        B3SectionId s = w.order[k]->id;
        if (!b3_sec_is_zerofill(s) && o->sec[s].size) {
            w.bytes[s] = b3_xrealloc("objwriter", NULL, (size_t)o->sec[s].size);
            memcpy(w.bytes[s], o->sec[s].bytes, (size_t)o->sec[s].size);
        }
    }
    find_atoms(&w);
    bool ok = build_symbols(&w);
    if (ok) {
        build_relocs(&w);
        B3Bytes out = {0};
        write_image(&w, &out);
        ok = fwrite(out.b, 1, out.n, f) == out.n && fflush(f) == 0;
        if (!ok)
            fputs("b3c: error: cannot write the object file\n", stderr);
        b3_bytes_free(&out);
    }
    for (int s = 0; s < B3_NUM_SECTIONS; s++) {
        free(w.bytes[s]);
        free(w.rel[s]);
        free(w.atoms[s]);
    }
    free(w.syms);
    free(w.symdef);
    return ok;
}

bool b3_write_object(B3Obj *o, FILE *f) {
    return b3_target_obj_format(o->module->target) == B3ObjFormat_MachO ? b3_write_macho(o, f)
                                                                        : b3_write_elf(o, f);
}
