/* ELF64 relocatable objects (ET_REL) written with libelf.
 *
 * Layout: null, .text, .rela.text, .rodata, .rela.rodata, .data, .rela.data,
 * .data.rel.ro, .rela.data.rel.ro, .bss, .llvm_stackmaps, .rela.llvm_stackmaps,
 * (with -g) .debug_abbrev, .debug_info, .rela.debug_info, .debug_line,
 * .rela.debug_line, .eh_frame, .rela.eh_frame, .note.GNU-stack, .symtab, .strtab, .shstrtab — each
 * content section only when it has bytes or symbols, each .rela only when it
 * has relocations.
 *
 * Symbols: null, one STT_SECTION symbol per content section (but
 * .eh_frame, which nothing refers to), the internal
 * (STB_LOCAL) definitions, then the global definitions and the undefined
 * symbols the relocations name (STB_GLOBAL, STT_NOTYPE, SHN_UNDEF).  A weak
 * definition or reference (docs/c-extensions.md) is STB_WEAK, a hidden
 * definition STV_HIDDEN.
 *
 * Which symbol a relocation names (see bind_locally): references to internal
 * symbols go to the section symbol plus the symbol's offset, as assemblers do
 * for local labels.  References to global symbols keep the symbol, so that in
 * a shared library they follow the dynamic linker (copy relocations of data
 * into an executable, canonical function addresses) — except a PC32 to a
 * global function (a PC-relative address, B3RelocUse_PCAddress: x86's `lea
 * f(%rip)`, AArch64's adrp + add), which binds to this object's definition as
 * clang's -fno-semantic-interposition does: otherwise it would not link into a
 * shared library at all.  A PC32 to global data keeps the symbol, so it links
 * in executables and fails loudly (not silently wrong) in a shared library:
 * global data is to be addressed through the GOT, as -fPIC code does. */
#include "objwriter/obj.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "objwriter/frame.h"
#include "util/alloc.h"
#include "util/vec.h"

typedef struct {
    char *buf;
    size_t len, cap;
} StrTab;

static uint32_t str_add(StrTab *t, const char *s, size_t n) {
    B3_VEC_RESERVE("objwriter", t->buf, t->cap, t->len + n + 1);
    uint32_t at = (uint32_t)t->len;
    if (n) /* s may be NULL for an empty name */
        memcpy(t->buf + t->len, s, n);
    t->buf[t->len + n] = 0;
    t->len += n + 1;
    return at;
}

/* Content sections in file order, with what ELF says about each. */
typedef struct {
    B3SectionId id;
    const char *name, *rela_name;
    uint32_t type;
    uint64_t flags;
    uint32_t min_align;
} SecInfo;

static const SecInfo sec_info[] = {
    {B3Sec_Text, ".text", ".rela.text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 16},
    {B3Sec_ROData, ".rodata", ".rela.rodata", SHT_PROGBITS, SHF_ALLOC, 1},
    {B3Sec_Data, ".data", ".rela.data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 1},
    {B3Sec_DataRelRo, ".data.rel.ro", ".rela.data.rel.ro", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 1},
    {B3Sec_BSS, ".bss", NULL, SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 1},
    {B3Sec_TData, ".tdata", ".rela.tdata", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE | SHF_TLS, 1},
    {B3Sec_TBss, ".tbss", NULL, SHT_NOBITS, SHF_ALLOC | SHF_WRITE | SHF_TLS, 1},
    /* Writable, like .data.rel.ro: its absolute function addresses then become
     * load-time RELATIVE relocations in PIE and shared objects, not text relocations. */
    {B3Sec_StackMaps, ".llvm_stackmaps", ".rela.llvm_stackmaps", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 8},
    /* DWARF (objwriter/dwarf.c): read by tools from the file, never loaded. */
    {B3Sec_DebugAbbrev, ".debug_abbrev", ".rela.debug_abbrev", SHT_PROGBITS, 0, 1},
    {B3Sec_DebugInfo, ".debug_info", ".rela.debug_info", SHT_PROGBITS, 0, 1},
    {B3Sec_DebugLine, ".debug_line", ".rela.debug_line", SHT_PROGBITS, 0, 1},
    {B3Sec_DebugRanges, ".debug_ranges", ".rela.debug_ranges", SHT_PROGBITS, 0, 1},
    /* Unwind tables (objwriter/eh_frame.c): the type is the target's
     * (SHT_X86_64_UNWIND on x86-64); no section symbol, since nothing
     * refers to it (as the assemblers write it). */
    {B3Sec_EhFrame, ".eh_frame", ".rela.eh_frame", 0, SHF_ALLOC, 8},
};
#define NSEC (sizeof sec_info / sizeof sec_info[0])

typedef struct {
    bool fini;
    int32_t priority;
    B3Symbol **procs; /* in module order */
    uint32_t n, cap;
    uint32_t shndx, rela_shndx;
    uint64_t *zeros; /* the section's bytes: the relocations fill them */
    Elf64_Rela *relas;
} InitGroup;

typedef struct {
    B3Obj *o;
    B3Module *m;
    uint16_t machine;
    /* Per B3SectionId: ELF section index (0 = not written), its rela section
     * index, its STT_SECTION symbol index, its relocation count. */
    uint32_t shndx[B3_NUM_SECTIONS], rela_shndx[B3_NUM_SECTIONS], secsym[B3_NUM_SECTIONS];
    uint32_t nrelocs[B3_NUM_SECTIONS];
    uint32_t symtab_shndx, strtab_shndx, shstrtab_shndx, note_shndx, nsections;
    Elf64_Sym *syms;
    uint32_t nsyms, cap_syms, first_global;
    StrTab strtab, shstrtab;
    const B3SymDef **elfdef; /* per ELF symbol index: the definition, if it is one */
    uint32_t nelfdef;
    Elf64_Rela *relas[B3_NUM_SECTIONS];
    /* The content sections in file order: sec_info's, with the data's own
     * sections (`section("name")`) after .tbss; their names are malloc'd. */
    SecInfo rows[NSEC + B3_MAX_NAMED_SECTIONS];
    uint32_t nrows;
    /* Constructors and destructors: one .init_array/.fini_array section per
     * priority, a pointer to each procedure (docs/c-extensions.md). */
    InitGroup *inits;
    uint32_t ninits, cap_inits;
} Writer;

static uint32_t add_sym(Writer *w, Elf64_Sym s) {
    B3_VEC_RESERVE("objwriter", w->syms, w->cap_syms, w->nsyms + 1);
    w->syms[w->nsyms] = s;
    return w->nsyms++;
}

static void print_sym_name(FILE *f, const B3Symbol *s) {
    for (uint32_t i = 0; i < s->name_len; i++) {
        unsigned char c = (unsigned char)s->name[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
            fputc(c, f);
        else
            fprintf(f, "\\x%02x", c);
    }
}

/* Adds a named symbol; false (after a message) if ELF cannot spell its name.
 * The front end rejects such names in its input (parser/build.c); this is
 * for modules built through the API. */
static bool add_named(Writer *w, B3Symbol *s, Elf64_Sym es, uint32_t *index) {
    if (memchr(s->name, 0, s->name_len)) {
        fputs("b3c: error: symbol @\"", stderr);
        print_sym_name(stderr, s);
        fputs("\" contains a NUL byte, which an ELF symbol name cannot hold\n", stderr);
        return false;
    }
    es.st_name = str_add(&w->strtab, s->name, s->name_len);
    *index = add_sym(w, es);
    s->id = *index;
    return true;
}

/* The constructor and destructor procedures, grouped by kind and priority. */
static void collect_inits(Writer *w) {
    B3Structor *st;
    uint32_t n = b3_obj_structors(w->m, &st);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t g = 0;
        while (g < w->ninits && (w->inits[g].fini != st[i].fini || w->inits[g].priority != st[i].priority))
            g++;
        if (g == w->ninits) {
            B3_VEC_RESERVE("objwriter", w->inits, w->cap_inits, w->ninits + 1);
            w->inits[w->ninits++] = (InitGroup){.fini = st[i].fini, .priority = st[i].priority};
        }
        InitGroup *ig = &w->inits[g];
        B3_VEC_RESERVE("objwriter", ig->procs, ig->cap, ig->n + 1);
        ig->procs[ig->n++] = st[i].sym;
    }
    free(st);
}

/* w->rows: the fixed sections, and after .tbss those the data and the
 * procedures name. */
static void build_rows(Writer *w) {
    B3Obj *o = w->o;
    for (size_t i = 0; i < NSEC; i++) {
        w->rows[w->nrows++] = sec_info[i];
        if (sec_info[i].id != B3Sec_TBss)
            continue;
        for (uint32_t k = 0; k < o->nnamed; k++) {
            const B3NamedSection *ns = &o->named[k];
            char *name = b3_xmalloc("objwriter", ns->len + 1), *rela = b3_xmalloc("objwriter", ns->len + 6);
            memcpy(name, ns->name, ns->len);
            name[ns->len] = 0;
            snprintf(rela, ns->len + 6, ".rela%s", name);
            w->rows[w->nrows++] = (SecInfo){(B3SectionId)(B3Sec_Named0 + k),
                                            name,
                                            rela,
                                            SHT_PROGBITS,
                                            SHF_ALLOC | (ns->code       ? SHF_EXECINSTR
                                                         : ns->writable ? SHF_WRITE
                                                                        : 0),
                                            1};
        }
    }
}

/* Decides which sections exist and numbers them. */
static void number_sections(Writer *w) {
    B3Obj *o = w->o;
    bool used[B3_NUM_SECTIONS] = {0};
    for (int s = 0; s < B3_NUM_SECTIONS; s++)
        used[s] = o->sec[s].size > 0;
    for (uint32_t i = 0; i < o->ndefs; i++)
        used[o->defs[i].section] = true;
    for (uint32_t i = 0; i < o->nrelocs; i++) {
        w->nrelocs[o->relocs[i].section]++;
        used[o->relocs[i].section] = true;
        if (!o->relocs[i].sym && o->relocs[i].local_section >= 0)
            used[o->relocs[i].local_section] = true;
    }
    uint32_t n = 1;
    for (uint32_t i = 0; i < w->nrows; i++) {
        B3SectionId s = w->rows[i].id;
        if (!used[s])
            continue;
        w->shndx[s] = n++;
        if (w->nrelocs[s]) {
            if (b3_sec_is_zerofill(s))
                b3_internal_error("objwriter", "relocation in a zero-filled section");
            w->rela_shndx[s] = n++;
        }
    }
    for (uint32_t i = 0; i < w->ninits; i++) {
        w->inits[i].shndx = n++;
        w->inits[i].rela_shndx = n++;
    }
    w->note_shndx = n++;
    w->symtab_shndx = n++;
    w->strtab_shndx = n++;
    w->shstrtab_shndx = n++;
    w->nsections = n;
}

/* AArch64 mapping symbols in the code sections, where GNU as and llvm-mc put them: $x
 * where it changes to instructions, $d where it changes to data (a mark at
 * the end of the section or overtaken by the next at its offset changes
 * nothing).  None in data sections: the ABI makes them optional there, and
 * the assemblers disagree (llvm-mc marks .ascii data, GNU as does not). */
static void add_mapping_symbols(Writer *w) {
    B3Obj *o = w->o;
    uint32_t x = str_add(&w->strtab, "$x", 2), d = str_add(&w->strtab, "$d", 2);
    int state[B3_NUM_SECTIONS]; /* per code section: -1: none yet, else the last mark's data */
    for (int s = 0; s < B3_NUM_SECTIONS; s++)
        state[s] = -1;
    for (uint32_t i = 0; i < o->ncode_marks; i++) {
        const B3CodeMark *k = &o->code_marks[i];
        const B3CodeMark *next = NULL; /* the section's next mark */
        for (uint32_t j = i + 1; j < o->ncode_marks && !next; j++)
            if (o->code_marks[j].section == k->section)
                next = &o->code_marks[j];
        if (k->offset >= o->sec[k->section].size || (next && next->offset == k->offset) ||
            state[k->section] == k->data)
            continue;
        state[k->section] = k->data;
        add_sym(w, (Elf64_Sym){.st_name = k->data ? d : x,
                               .st_info = ELF64_ST_INFO(STB_LOCAL, STT_NOTYPE),
                               .st_shndx = (uint16_t)w->shndx[k->section],
                               .st_value = k->offset});
    }
}

static bool build_symbols(Writer *w) {
    B3Obj *o = w->o;
    B3Module *m = w->m;
    /* B3Symbol.id is the objwriter's: 0 means "no ELF symbol yet". */
    for (uint32_t i = 0; i < m->nsymbols; i++)
        m->symbols[i]->id = 0;
    for (uint32_t i = 0; i < o->ndefs; i++)
        o->defs[i].sym->id = 0;
    for (uint32_t i = 0; i < o->nrelocs; i++)
        if (o->relocs[i].sym)
            o->relocs[i].sym->id = 0;

    add_sym(w, (Elf64_Sym){0});
    for (uint32_t i = 0; i < w->nrows; i++) {
        B3SectionId s = w->rows[i].id;
        if (w->shndx[s] && s != B3Sec_EhFrame)
            w->secsym[s] = add_sym(w, (Elf64_Sym){.st_info = ELF64_ST_INFO(STB_LOCAL, STT_SECTION),
                                                  .st_shndx = (uint16_t)w->shndx[s]});
    }
    if (b3_target_desc(m->target)->elf_mapping_symbols)
        add_mapping_symbols(w);
    /* Definitions get the indices right after the section symbols. */
    w->nelfdef = w->nsyms + o->ndefs;
    w->elfdef = b3_xmalloc("objwriter", w->nelfdef * sizeof *w->elfdef);
    memset(w->elfdef, 0, w->nelfdef * sizeof *w->elfdef);
    for (int pass = 0; pass < 2; pass++) {
        bool want_local = pass == 0;
        if (!want_local)
            w->first_global = w->nsyms;
        for (uint32_t i = 0; i < o->ndefs; i++) {
            const B3SymDef *d = &o->defs[i];
            if (d->sym->internal != want_local)
                continue;
            if (d->sym->id)
                b3_internal_error("objwriter", "symbol '%.*s' defined twice", (int)d->sym->name_len,
                                  d->sym->name);
            /* Linkage (docs/c-extensions.md): weak is STB_WEAK, hidden STV_HIDDEN. */
            Elf64_Sym es = {
                .st_info = ELF64_ST_INFO(want_local     ? STB_LOCAL
                                         : d->sym->weak ? STB_WEAK
                                                        : STB_GLOBAL,
                                         d->is_func    ? STT_FUNC
                                         : d->sym->tls ? STT_TLS
                                                       : STT_OBJECT),
                .st_other = d->sym->hidden ? STV_HIDDEN : STV_DEFAULT,
                .st_shndx = (uint16_t)w->shndx[d->section],
                .st_value = d->offset,
                .st_size = d->size,
            };
            uint32_t idx;
            if (!add_named(w, d->sym, es, &idx))
                return false;
            w->elfdef[idx] = d;
        }
    }
    /* Undefined symbols, in the order relocations first name them. */
    for (uint32_t i = 0; i < o->nrelocs; i++) {
        B3Symbol *s = o->relocs[i].sym;
        if (!s || s->id)
            continue;
        if (s->internal || s->defined)
            b3_internal_error("objwriter", "symbol '%.*s' is referenced but the object does not define it",
                              (int)s->name_len, s->name);
        uint32_t idx;
        if (!add_named(w, s,
                       (Elf64_Sym){.st_info = ELF64_ST_INFO(s->weak_ref ? STB_WEAK : STB_GLOBAL,
                                                            s->tls ? STT_TLS : STT_NOTYPE),
                                   .st_shndx = SHN_UNDEF},
                       &idx))
            return false;
    }
    return true;
}

/* The target description's ELF relocation type for k. */
static uint32_t reloc_type(const Writer *w, B3RelocKind k) {
    const B3TargetDesc *d = b3_target_desc(w->m->target);
    if ((unsigned)k >= d->nelf_relocs || !d->elf_relocs[k])
        b3_internal_error("objwriter", "relocation kind %d is not implemented for %s", (int)k, d->name);
    return d->elf_relocs[k];
}

/* See the comment at the top of the file; the kinds' uses come from the
 * target description. */
static bool bind_locally(const Writer *w, const B3Reloc *r, const B3SymDef *d) {
    B3RelocUse use = b3_reloc_use(b3_target_desc(w->m->target), (B3RelocKind)r->kind);
    if (use == B3RelocUse_GOT || use == B3RelocUse_TLS)
        return false;
    if (d->sym->internal)
        return true;
    /* A weak definition may be replaced at link or load time. */
    return use == B3RelocUse_PCAddress && d->is_func && !d->sym->weak;
}

static void build_relocs(Writer *w) {
    B3Obj *o = w->o;
    uint32_t fill[B3_NUM_SECTIONS] = {0};
    for (int s = 0; s < B3_NUM_SECTIONS; s++)
        if (w->nrelocs[s])
            w->relas[s] = b3_xmalloc("objwriter", w->nrelocs[s] * sizeof(Elf64_Rela));
    for (uint32_t i = 0; i < o->nrelocs; i++) {
        const B3Reloc *r = &o->relocs[i];
        uint32_t sym;
        int64_t addend = r->addend;
        const B3SymDef *d = r->sym && r->sym->id < w->nelfdef ? w->elfdef[r->sym->id] : NULL;
        if (!r->sym) {
            if (r->local_section < 0 || r->local_section >= B3_NUM_SECTIONS)
                b3_internal_error("objwriter", "relocation without a target");
            sym = w->secsym[r->local_section];
        } else if (d && bind_locally(w, r, d)) {
            sym = w->secsym[d->section];
            addend += (int64_t)d->offset;
        } else {
            sym = r->sym->id;
        }
        if (r->offset + (r->kind == B3Reloc_Abs64 ? 8 : 4) > o->sec[r->section].size)
            b3_internal_error("objwriter", "relocation at 0x%llx is outside its section",
                              (unsigned long long)r->offset);
        w->relas[r->section][fill[r->section]++] = (Elf64_Rela){
            .r_offset = r->offset,
            .r_info = ELF64_R_INFO(sym, reloc_type(w, (B3RelocKind)r->kind)),
            .r_addend = addend,
        };
    }
}

/* The pointers of the .init_array/.fini_array sections: relocations (the
 * section symbol of .text plus the offset for an internal procedure). */
static void build_init_relocs(Writer *w) {
    uint32_t type = reloc_type(w, B3Reloc_Abs64);
    for (uint32_t i = 0; i < w->ninits; i++) {
        InitGroup *ig = &w->inits[i];
        ig->zeros = b3_xrealloc("objwriter", NULL, ig->n * 8);
        memset(ig->zeros, 0, ig->n * 8);
        ig->relas = b3_xrealloc("objwriter", NULL, ig->n * sizeof(Elf64_Rela));
        for (uint32_t k = 0; k < ig->n; k++) {
            B3Symbol *s = ig->procs[k];
            const B3SymDef *d = s->id && s->id < w->nelfdef ? w->elfdef[s->id] : NULL;
            if (!d)
                b3_internal_error("objwriter", "constructor '%.*s' has no code", (int)s->name_len, s->name);
            bool local = s->internal;
            ig->relas[k] = (Elf64_Rela){
                .r_offset = k * 8,
                .r_info = ELF64_R_INFO(local ? w->secsym[d->section] : s->id, type),
                .r_addend = local ? (int64_t)d->offset : 0,
            };
        }
    }
}

static Elf_Scn *new_section(Elf *e, uint32_t expect_index) {
    Elf_Scn *scn = elf_newscn(e);
    if (!scn || elf_ndxscn(scn) != expect_index)
        b3_internal_error("objwriter", "libelf: %s", elf_errmsg(-1));
    return scn;
}

static void set_data(Elf_Scn *scn, void *buf, size_t size, Elf_Type type, size_t align) {
    Elf_Data *d = elf_newdata(scn);
    if (!d)
        b3_internal_error("objwriter", "libelf: %s", elf_errmsg(-1));
    d->d_buf = buf;
    d->d_size = size;
    d->d_type = type;
    d->d_align = align;
    d->d_off = 0;
    d->d_version = EV_CURRENT;
}

static Elf64_Shdr *shdr_of(Elf_Scn *scn, uint32_t name, uint32_t type, uint64_t flags, uint64_t align) {
    Elf64_Shdr *sh = elf64_getshdr(scn);
    if (!sh)
        b3_internal_error("objwriter", "libelf: %s", elf_errmsg(-1));
    sh->sh_name = name;
    sh->sh_type = type;
    sh->sh_flags = flags;
    sh->sh_addralign = align;
    return sh;
}

/* Builds the ELF image on fd. */
static bool write_image(Writer *w, int fd) {
    B3Obj *o = w->o;
    Elf *e = elf_begin(fd, ELF_C_WRITE, NULL);
    if (!e) {
        fprintf(stderr, "b3c: error: cannot write the object file: %s\n", elf_errmsg(-1));
        return false;
    }
    Elf64_Ehdr *eh = elf64_newehdr(e);
    if (!eh)
        b3_internal_error("objwriter", "libelf: %s", elf_errmsg(-1));
    eh->e_ident[EI_DATA] = ELFDATA2LSB;
    /* SHF_GNU_RETAIN is a GNU extension: GNU ld honours it in an object
     * marked ELFOSABI_GNU only, as GNU as marks one. */
    bool retain = false;
    for (int s = 0; s < B3_NUM_SECTIONS; s++)
        retain |= w->shndx[s] && b3_obj_section_retained(o, (B3SectionId)s);
    eh->e_ident[EI_OSABI] = retain ? ELFOSABI_GNU : ELFOSABI_NONE;
    eh->e_type = ET_REL;
    eh->e_machine = w->machine;
    eh->e_version = EV_CURRENT;

    for (uint32_t i = 0; i < w->nrows; i++) {
        const SecInfo *si = &w->rows[i];
        B3SectionId s = si->id;
        if (!w->shndx[s])
            continue;
        const B3SectionBuf *b = &o->sec[s];
        uint32_t align = b->align > si->min_align ? b->align : si->min_align;
        Elf_Scn *scn = new_section(e, w->shndx[s]);
        uint32_t type = s == B3Sec_EhFrame ? b3_target_desc(w->m->target)->eh_frame_sh_type : si->type;
        shdr_of(scn, str_add(&w->shstrtab, si->name, strlen(si->name)), type,
                si->flags | (b3_obj_section_retained(o, s) ? SHF_GNU_RETAIN : 0), align);
        /* .bss has no bytes in the file: a NULL buffer of the right size. */
        set_data(scn, b3_sec_is_zerofill(s) ? NULL : b->bytes, (size_t)b->size, ELF_T_BYTE, align);
        if (w->rela_shndx[s]) {
            Elf_Scn *rs = new_section(e, w->rela_shndx[s]);
            Elf64_Shdr *sh = shdr_of(rs, str_add(&w->shstrtab, si->rela_name, strlen(si->rela_name)),
                                     SHT_RELA, SHF_INFO_LINK, 8);
            sh->sh_entsize = sizeof(Elf64_Rela);
            sh->sh_link = w->symtab_shndx;
            sh->sh_info = w->shndx[s];
            set_data(rs, w->relas[s], w->nrelocs[s] * sizeof(Elf64_Rela), ELF_T_RELA, 8);
        }
    }
    for (uint32_t i = 0; i < w->ninits; i++) {
        InitGroup *ig = &w->inits[i];
        char name[32];
        const char *base = ig->fini ? ".fini_array" : ".init_array";
        if (ig->priority == B3_DEFAULT_INIT_PRIORITY)
            snprintf(name, sizeof name, "%s", base);
        else
            snprintf(name, sizeof name, "%s.%05d", base, (int)ig->priority);
        Elf_Scn *scn = new_section(e, ig->shndx);
        Elf64_Shdr *sh = shdr_of(scn, str_add(&w->shstrtab, name, strlen(name)),
                                 ig->fini ? SHT_FINI_ARRAY : SHT_INIT_ARRAY, SHF_ALLOC | SHF_WRITE, 8);
        sh->sh_entsize = 8;
        set_data(scn, ig->zeros, ig->n * 8, ELF_T_BYTE, 8);
        char rname[40];
        snprintf(rname, sizeof rname, ".rela%s", name);
        Elf_Scn *rs = new_section(e, ig->rela_shndx);
        sh = shdr_of(rs, str_add(&w->shstrtab, rname, strlen(rname)), SHT_RELA, SHF_INFO_LINK, 8);
        sh->sh_entsize = sizeof(Elf64_Rela);
        sh->sh_link = w->symtab_shndx;
        sh->sh_info = ig->shndx;
        set_data(rs, ig->relas, ig->n * sizeof(Elf64_Rela), ELF_T_RELA, 8);
    }
    /* An empty .note.GNU-stack asks the linker for a non-executable stack. */
    Elf_Scn *note = new_section(e, w->note_shndx);
    shdr_of(note, str_add(&w->shstrtab, ".note.GNU-stack", 15), SHT_PROGBITS, 0, 1);

    Elf_Scn *symtab = new_section(e, w->symtab_shndx);
    Elf64_Shdr *sh = shdr_of(symtab, str_add(&w->shstrtab, ".symtab", 7), SHT_SYMTAB, 0, 8);
    sh->sh_entsize = sizeof(Elf64_Sym);
    sh->sh_link = w->strtab_shndx;
    sh->sh_info = w->first_global;
    set_data(symtab, w->syms, w->nsyms * sizeof(Elf64_Sym), ELF_T_SYM, 8);

    Elf_Scn *strtab = new_section(e, w->strtab_shndx);
    shdr_of(strtab, str_add(&w->shstrtab, ".strtab", 7), SHT_STRTAB, 0, 1);
    set_data(strtab, w->strtab.buf, w->strtab.len, ELF_T_BYTE, 1);

    Elf_Scn *shstr = new_section(e, w->shstrtab_shndx);
    /* Its own name goes in before its data is attached, so the table is complete. */
    shdr_of(shstr, str_add(&w->shstrtab, ".shstrtab", 9), SHT_STRTAB, 0, 1);
    set_data(shstr, w->shstrtab.buf, w->shstrtab.len, ELF_T_BYTE, 1);
    eh->e_shstrndx = (uint16_t)w->shstrtab_shndx;

    bool ok = elf_update(e, ELF_C_WRITE) >= 0;
    if (!ok)
        fprintf(stderr, "b3c: error: cannot write the object file: %s\n", elf_errmsg(-1));
    elf_end(e);
    return ok;
}

/* Copies a temporary file's bytes to f. */
static bool copy_out(FILE *from, FILE *to) {
    char buf[1 << 14];
    if (fseek(from, 0, SEEK_SET) != 0)
        return false;
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, from)) > 0)
        if (fwrite(buf, 1, n, to) != n)
            return false;
    return !ferror(from);
}

bool b3_write_elf(B3Obj *o, FILE *f) {
    B3Module *m = o->module;
    if (b3_target_obj_format(m->target) != B3ObjFormat_ELF)
        b3_internal_error("objwriter", "an ELF object for a Mach-O target");
    if (elf_version(EV_CURRENT) == EV_NONE)
        b3_internal_error("objwriter", "libelf: %s", elf_errmsg(-1));

    Writer w;
    memset(&w, 0, sizeof w);
    w.o = o;
    w.m = m;
    w.machine = b3_target_desc(m->target)->elf_machine;
    b3_obj_build_eh_frame(o);
    str_add(&w.strtab, "", 0);
    str_add(&w.shstrtab, "", 0);
    collect_inits(&w);
    build_rows(&w);
    number_sections(&w);
    bool ok = build_symbols(&w);
    if (ok) {
        build_relocs(&w);
        build_init_relocs(&w);
        /* libelf writes through a file descriptor at offset 0: use f's own when
         * it is a fresh regular file (the usual temporary of cmd/output.c),
         * else an anonymous temporary copied to f (stdout, pipes). */
        struct stat st;
        int fd = fileno(f);
        if (fflush(f) == 0 && fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0 &&
            lseek(fd, 0, SEEK_CUR) == 0) {
            ok = write_image(&w, fd);
        } else {
            FILE *tmp = tmpfile();
            if (!tmp) {
                fprintf(stderr, "b3c: error: cannot create a temporary file: %s\n", strerror(errno));
                ok = false;
            } else {
                ok = write_image(&w, fileno(tmp)) && copy_out(tmp, f);
                fclose(tmp);
            }
        }
    }
    for (int s = 0; s < B3_NUM_SECTIONS; s++)
        free(w.relas[s]);
    for (uint32_t i = 0; i < w.ninits; i++) {
        free(w.inits[i].procs);
        free(w.inits[i].zeros);
        free(w.inits[i].relas);
    }
    free(w.inits);
    for (uint32_t i = 0; i < w.nrows; i++)
        if (b3_sec_is_named(w.rows[i].id)) {
            free((char *)w.rows[i].name);
            free((char *)w.rows[i].rela_name);
        }
    free(w.syms);
    free(w.elfdef);
    free(w.strtab.buf);
    free(w.shstrtab.buf);
    return ok;
}
