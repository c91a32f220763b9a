/* Assembly output (see asm_writer.h).
 *
 * .text is the procedures' listings in order, each after `.p2align 4, 0xcc`
 * (the object pads functions to 16 bytes with int3).  Everything else that
 * lives at a code address is an event at a .text offset, printed between the
 * listing lines where the bytes before it end: symbol definitions (with
 * .globl/.local and .type), the labels that symbol sizes and stackmap
 * records refer to.  An event inside an instruction's bytes is an internal
 * error, as is a listing that does not cover the code exactly, so the text
 * always describes the object it came from.
 *
 * Data is printed from the module's items, checked against the bytes and
 * relocations the object writer laid out, and .llvm_stackmaps is parsed back
 * from its bytes and printed with `.quad func` and `.long label - func` where
 * the object has a relocation or a code offset. */
#include "objwriter/asm_writer.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "objwriter/dwarf.h"
#include "objwriter/frame.h"
#include "objwriter/stackmaps.h"
#include "util/alloc.h"
#include "util/vec.h"

typedef struct {
    uint64_t start, end; /* offsets of the procedure's code (jump tables included) in its section */
    uint32_t first, n;   /* its listing lines */
    uint32_t proc;       /* its number: .LBB<proc>_*, .Lfunc_end<proc> */
    uint8_t section;     /* B3SectionId: .text or the procedure's own */
    uint32_t align;      /* where it starts: a multiple of 16 or more */
} Chunk;

struct B3AsmText {
    bool exact, verbose;
    uint32_t nprocs;
    char *text; /* every line, '\n'-terminated */
    size_t len, cap;
    size_t *line_at;    /* where each line starts in text */
    uint64_t *line_end; /* the .text offset where its bytes end */
    uint32_t nlines, cap_lines;
    Chunk *chunks;
    uint32_t nchunks, cap_chunks;
};

B3AsmText *b3_asm_text_new(bool exact, bool verbose) {
    B3AsmText *t = b3_xmalloc("asm writer", sizeof *t);
    memset(t, 0, sizeof *t);
    t->exact = exact;
    t->verbose = verbose;
    return t;
}

void b3_asm_text_free(B3AsmText *t) {
    if (!t)
        return;
    free(t->text);
    free(t->line_at);
    free(t->line_end);
    free(t->chunks);
    free(t);
}

bool b3_asm_text_exact(const B3AsmText *t) { return t->exact; }

bool b3_asm_text_verbose(const B3AsmText *t) { return t && t->verbose; }

uint32_t b3_asm_text_next_proc(B3AsmText *t) { return t->nprocs++; }

void b3_asm_text_add_proc(B3AsmText *t, B3SectionId sec, uint64_t start, uint64_t size, uint32_t align,
                          const char *text, size_t len, const uint32_t *line_end, uint32_t nlines) {
    if (t->nprocs == 0)
        b3_internal_error("asm writer", "procedure listing without a number");
    B3_VEC_RESERVE("asm writer", t->chunks, t->cap_chunks, t->nchunks + 1);
    t->chunks[t->nchunks++] =
        (Chunk){start, start + size, t->nlines, nlines, t->nprocs - 1, (uint8_t)sec, align};
    B3_VEC_RESERVE("asm writer", t->text, t->cap, t->len + len + 1);
    B3_VEC_RESERVE2("asm writer", t->line_at, t->line_end, t->cap_lines, t->nlines + nlines);
    size_t at = 0;
    for (uint32_t i = 0; i < nlines; i++) {
        const char *nl = at < len ? memchr(text + at, '\n', len - at) : NULL;
        if (!nl)
            b3_internal_error("asm writer", "listing has fewer lines than offsets");
        t->line_at[t->nlines + i] = t->len + at;
        t->line_end[t->nlines + i] = start + line_end[i];
        at = (size_t)(nl - text) + 1;
    }
    if (at != len)
        b3_internal_error("asm writer", "listing has more lines than offsets");
    memcpy(t->text + t->len, text, len);
    t->len += len;
    t->nlines += nlines;
}

/* ---- symbol names ---- */

/* Characters of a name the assemblers read without quotes. */
static bool plain_char(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '$';
}

/* Quoted names ("a b") take any byte but these: neither GNU as nor llvm-mc
 * reads an escape there. */
static bool spellable(const B3Symbol *s) {
    if (!s->name_len)
        return false;
    for (uint32_t i = 0; i < s->name_len; i++) {
        unsigned char c = (unsigned char)s->name[i];
        if (c < 0x20 || c == 0x7f || c == '"' || c == '\\')
            return false;
    }
    return true;
}

/* A leading digit or '$' (an immediate in AT&T operands) is quoted too. */
void b3_asm_print_name(FILE *f, const char *pre, const B3Symbol *s, const char *post, const char *variant,
                       bool quote) {
    quote =
        quote || s->name_len == 0 || (s->name[0] >= '0' && s->name[0] <= '9' && !*pre) || s->name[0] == '$';
    for (uint32_t i = 0; i < s->name_len && !quote; i++)
        quote = !plain_char((unsigned char)s->name[i]);
    const char *q = quote ? "\"" : "";
    fprintf(f, "%s%s%.*s%s%s%s", q, pre, (int)s->name_len, s->name, post, q, variant);
}

const char *b3_asm_sym_prefix(B3Target t) { return b3_target_obj_format(t) == B3ObjFormat_MachO ? "_" : ""; }
const char *b3_asm_local_prefix(B3Target t) {
    return b3_target_obj_format(t) == B3ObjFormat_MachO ? "L" : ".L";
}

/* Global functions of this module (elf.c binds PC-relative addresses of them locally). */
static bool has_local_alias(const B3Symbol *s) {
    return s->defined && !s->internal && !s->weak && (s->kind == B3Sym_Proc || s->kind == B3Sym_Entry);
}

/* Mach-O relocations always name the symbol and the linker binds them to
 * the image's own definition: no alias. */
bool b3_asm_uses_local_alias(const B3Obj *o, const B3Symbol *sym, B3RelocKind kind) {
    return b3_target_obj_format(o->module->target) == B3ObjFormat_ELF && has_local_alias(sym) &&
           b3_reloc_use(b3_target_desc(o->module->target), kind) == B3RelocUse_PCAddress;
}

/* ---- the writer ---- */

typedef enum { Ev_Def, Ev_Label, Ev_Directive, Ev_Loc } EventKind;

/* Something printed at a code address, between listing lines. */
typedef struct {
    uint64_t off;
    uint32_t chunk, seq; /* seq: creation order, which the sort keeps at one offset */
    uint8_t kind;        /* EventKind */
    const B3SymDef *def; /* Ev_Def */
    char label[48];      /* Ev_Label, Ev_Directive */
    /* Ev_Loc (-g): a line row; prologue_end: the first after the prologue */
    const B3LineRow *row;
    bool prologue_end;
} Event;

typedef struct {
    B3Obj *o;
    B3AsmText *t;
    FILE *f;
    const B3AsmSyntax *syn;
    Event *ev;
    uint32_t nev, cap_ev;
    uint32_t ntmp;          /* .Ltmp<n> labels made so far */
    uint8_t *begin_label;   /* per chunk: has a .Lfunc_begin<proc> label */
    const B3Reloc **rel;    /* the relocations sorted by section and offset */
    uint8_t *alias;         /* per definition: a PC32 reference needs its .Lname$local */
    bool macho;             /* Apple's assembler: Mach-O sections, '_' and L prefixes */
    const char *lp;         /* local label prefix: .L or L */
    uint32_t nalt;          /* Lalt_entry<n> labels made so far (Mach-O) */
    struct Place *by_place; /* the chunks by section, then offset (chunk_at) */
} Writer;

static void print_sym(Writer *w, const B3Symbol *s) {
    b3_asm_print_name(w->f, b3_asm_sym_prefix(w->o->module->target), s, "", "", false);
}

static Event *add_event(Writer *w, uint32_t chunk, uint64_t off, EventKind kind) {
    B3_VEC_RESERVE("asm writer", w->ev, w->cap_ev, w->nev + 1);
    Event *e = &w->ev[w->nev];
    memset(e, 0, sizeof *e);
    e->off = off;
    e->chunk = chunk;
    e->seq = w->nev++;
    e->kind = (uint8_t)kind;
    return e;
}

static int event_cmp(const void *pa, const void *pb) {
    const Event *a = pa, *b = pb;
    if (a->chunk != b->chunk)
        return a->chunk < b->chunk ? -1 : 1;
    if (a->off != b->off)
        return a->off < b->off ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Where a chunk is: its section and offset, for chunk_at's search. */
struct Place {
    uint8_t section;
    uint64_t start, end;
    uint32_t chunk;
};

static int place_cmp(const void *pa, const void *pb) {
    const struct Place *a = pa, *b = pb;
    if (a->section != b->section)
        return a->section < b->section ? -1 : 1;
    return a->start < b->start ? -1 : a->start > b->start;
}

/* The chunk whose code holds offset off of code section sec. */
static uint32_t chunk_at(const Writer *w, B3SectionId sec, uint64_t off) {
    const struct Place *x = w->by_place;
    /* The last chunk at or before (sec, off) is x[k], k in [lo, hi). */
    uint32_t lo = 0, hi = w->t->nchunks;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (x[mid].section < sec || (x[mid].section == sec && x[mid].start <= off))
            lo = mid;
        else
            hi = mid;
    }
    if (lo < w->t->nchunks && x[lo].section == sec && off >= x[lo].start && off < x[lo].end)
        return x[lo].chunk;
    b3_internal_error("asm writer", "code offset 0x%" PRIx64 " of section %d is in no procedure's code", off,
                      (int)sec);
}

static void section(Writer *w, B3SectionId s) {
    if (b3_sec_is_named(s)) { /* data's or a procedure's own (docs/c-extensions.md): "SEG,sect" on Mach-O */
        const B3NamedSection *ns = &w->o->named[s - B3Sec_Named0];
        fprintf(w->f, "\t.section\t%.*s", (int)ns->len, ns->name);
        if (w->macho && ns->code)
            fputs(",regular,pure_instructions", w->f);
        else if (!w->macho)
            fprintf(w->f, ",\"a%s%s\",@progbits",
                    ns->code       ? "x"
                    : ns->writable ? "w"
                                   : "",
                    b3_obj_section_retained(w->o, s) ? "R" : "");
        fputc('\n', w->f);
        return;
    }
    static const char *const dir[B3_NUM_SECTIONS] = {
        [B3Sec_Text] = "\t.text\n",
        [B3Sec_ROData] = "\t.section\t.rodata,\"a\",@progbits\n",
        [B3Sec_Data] = "\t.data\n",
        [B3Sec_BSS] = "\t.bss\n",
        /* Writable (docs/stackmaps.md); llvm-mc predefines the name read-only,
         * and `unique` makes it take ours instead of refusing the flags. */
        [B3Sec_StackMaps] = "\t.section\t.llvm_stackmaps,\"aw\",@progbits,unique,1\n",
        [B3Sec_DataRelRo] = "\t.section\t.data.rel.ro,\"aw\",@progbits\n",
        [B3Sec_TData] = "\t.section\t.tdata,\"awT\",@progbits\n",
        [B3Sec_TBss] = "\t.section\t.tbss,\"awT\",@nobits\n",
    };
    static const char *const macho_dir[B3_NUM_SECTIONS] = {
        [B3Sec_Text] = "\t.section\t__TEXT,__text,regular,pure_instructions\n",
        [B3Sec_ROData] = "\t.section\t__TEXT,__const\n",
        [B3Sec_Data] = "\t.section\t__DATA,__data\n",
        [B3Sec_BSS] = "\t.section\t__DATA,__bss\n", /* zerofill by its name */
        [B3Sec_StackMaps] = "\t.section\t__LLVM_STACKMAPS,__llvm_stackmaps\n",
        [B3Sec_DataRelRo] = "\t.section\t__DATA,__const\n",
        [B3Sec_TData] = "\t.section\t__DATA,__thread_data,thread_local_regular\n",
        [B3Sec_TBss] = "\t.section\t__DATA,__thread_bss,thread_local_zerofill\n",
        [B3Sec_ThreadVars] = "\t.section\t__DATA,__thread_vars,thread_local_variables\n",
        [B3Sec_ModInitFunc] = "\t.section\t__DATA,__mod_init_func,mod_init_funcs\n",
    };
    /* A section with a `used` definition keeps it from the linker's
     * garbage collection: the "R" flag (SHF_GNU_RETAIN; GNU as 2.36 and
     * later take it on the default sections, llvm-mc only on new ones). */
    static const char *const retained[B3_NUM_SECTIONS] = {
        [B3Sec_Text] = "\t.section\t.text,\"axR\",@progbits\n",
        [B3Sec_ROData] = "\t.section\t.rodata,\"aR\",@progbits\n",
        [B3Sec_Data] = "\t.section\t.data,\"awR\",@progbits\n",
        [B3Sec_BSS] = "\t.section\t.bss,\"awR\",@nobits\n",
        [B3Sec_DataRelRo] = "\t.section\t.data.rel.ro,\"awR\",@progbits\n",
        [B3Sec_TData] = "\t.section\t.tdata,\"awTR\",@progbits\n",
        [B3Sec_TBss] = "\t.section\t.tbss,\"awTR\",@nobits\n",
    };
    if (!w->macho && retained[s] && b3_obj_section_retained(w->o, s))
        fputs(retained[s], w->f);
    else
        fputs(w->macho ? macho_dir[s] : dir[s], w->f);
}

/* Mach-O's linkage directives of a weak or hidden definition (docs/c-extensions.md). */
static void print_linkage(Writer *w, const B3Symbol *s, const char *weak, const char *hidden) {
    if (s->weak) {
        fputs(weak, w->f);
        print_sym(w, s);
        fputc('\n', w->f);
    }
    if (s->hidden) {
        fputs(hidden, w->f);
        print_sym(w, s);
        fputc('\n', w->f);
    }
}

/* The weak references (`extern @f weak`) the code or data names, once each. */
static void print_weak_refs(Writer *w) {
    for (uint32_t i = 0; i < w->o->nrelocs; i++) {
        B3Symbol *s = w->o->relocs[i].sym;
        if (!s || s->defined || !s->weak_ref || s->id == UINT32_MAX)
            continue;
        s->id = UINT32_MAX;
        fputs(w->macho ? "\t.weak_reference\t" : "\t.weak\t", w->f);
        print_sym(w, s);
        fputc('\n', w->f);
    }
}

static void print_binding(Writer *w, const B3SymDef *d) {
    if (w->macho) {
        /* Internal symbols are local (no directive); entries inside a
         * procedure are alternate entries, which stay with it. */
        if (!d->sym->internal) {
            fputs("\t.globl\t", w->f);
            print_sym(w, d->sym);
            fputc('\n', w->f);
        }
        if (d->sym->kind == B3Sym_Entry) {
            fputs("\t.alt_entry\t", w->f);
            print_sym(w, d->sym);
            fputc('\n', w->f);
        }
        print_linkage(w, d->sym, "\t.weak_definition\t", "\t.private_extern\t");
        if (d->sym->used) {
            fputs("\t.no_dead_strip\t", w->f);
            print_sym(w, d->sym);
            fputc('\n', w->f);
        }
        return;
    }
    fputs(d->sym->internal ? "\t.local\t" : d->sym->weak ? "\t.weak\t" : "\t.globl\t", w->f);
    print_sym(w, d->sym);
    if (d->sym->hidden) {
        fputs("\n\t.hidden\t", w->f);
        print_sym(w, d->sym);
    }
    fprintf(w->f, "\n\t.type\t");
    print_sym(w, d->sym);
    fprintf(w->f, ",%s\n", d->is_func ? "@function" : d->sym->tls ? "@tls_object" : "@object");
}

static void print_event(Writer *w, const Event *e) {
    FILE *f = w->f;
    if (e->kind == Ev_Label) {
        fprintf(f, "%s:\n", e->label);
        return;
    }
    if (e->kind == Ev_Loc) {
        fprintf(f, "\t.loc\t%u %u %u%s\n", e->row->file + 1, e->row->line, e->row->col,
                e->prologue_end ? " prologue_end" : "");
        return;
    }
    if (e->kind == Ev_Directive) {
        fprintf(f, "\t%s\n", e->label);
        return;
    }
    const B3SymDef *d = e->def;
    print_binding(w, d);
    if (w->macho && d->sym->kind == B3Sym_Entry) {
        /* An entry is an alias of a local label, not a label: llvm-mc
         * would make a label a unit of its own (an atom), which it must not
         * resolve jumps and jump tables across; the linker keeps the
         * alt_entry with its procedure either way.  (arm64: a sum with 0,
         * B3AsmSyntax.macho_entry_sum.) */
        fprintf(f, "%salt_entry%u:\n", w->lp, w->nalt);
        print_sym(w, d->sym);
        fprintf(f, " = %salt_entry%u%s\n", w->lp, w->nalt++, w->syn->macho_entry_sum ? " + 0" : "");
        return;
    }
    print_sym(w, d->sym);
    fputs(":\n", f);
    if (w->alias[d - w->o->defs]) {
        b3_asm_print_name(f, ".L", d->sym, "$local", "", false);
        fputs(":\n", f);
    }
}

/* ---- .llvm_stackmaps ---- */

typedef struct {
    const uint8_t *b;
    uint64_t n, at;
} Reader;

static uint64_t rd(Reader *r, unsigned bytes) {
    if (r->at + bytes > r->n)
        b3_internal_error("asm writer", ".llvm_stackmaps ends inside a field at %" PRIu64, r->at);
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint64_t)r->b[r->at + i] << (8 * i);
    r->at += bytes;
    return v;
}

static int reloc_cmp(const void *pa, const void *pb) {
    const B3Reloc *a = *(const B3Reloc *const *)pa, *b = *(const B3Reloc *const *)pb;
    if (a->section != b->section)
        return a->section < b->section ? -1 : 1;
    return a->offset < b->offset ? -1 : a->offset > b->offset;
}

/* The relocation at a section offset, or NULL. */
static const B3Reloc *reloc_at(const Writer *w, B3SectionId s, uint64_t off) {
    uint32_t lo = 0, hi = w->o->nrelocs;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const B3Reloc *r = w->rel[mid];
        if (r->section < s || (r->section == s && r->offset < off))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < w->o->nrelocs && w->rel[lo]->section == s && w->rel[lo]->offset == off ? w->rel[lo] : NULL;
}

/* The symbol's definition in the object (B3Symbol.id: its index + 1, set by b3_write_asm). */
static const B3SymDef *def_of(const B3Obj *o, const B3Symbol *s) {
    return s->id && s->id <= o->ndefs && o->defs[s->id - 1].sym == s ? &o->defs[s->id - 1] : NULL;
}

/* Pads the section to a multiple of 8 (it starts 8-aligned) with explicit zeros. */
static void sm_pad8(Writer *w, Reader *r, bool print) {
    unsigned n = (unsigned)((8 - r->at % 8) % 8);
    for (unsigned i = 0; i < n; i++)
        if (rd(r, 1) != 0)
            b3_internal_error("asm writer", ".llvm_stackmaps padding is not zero");
    if (print && n)
        fprintf(w->f, "\t.zero\t%u\n", n);
}

/* Walks .llvm_stackmaps.  Without print it only makes the labels its code
 * offsets need; with print it writes the section (same labels, same order). */
static void stackmaps(Writer *w, bool print) {
    B3Obj *o = w->o;
    const B3SectionBuf *sec = &o->sec[B3Sec_StackMaps];
    if (!sec->size)
        return;
    FILE *f = w->f;
    const char *cm = w->syn->comment;
    Reader r = {sec->bytes, sec->size, 0};
    uint32_t tmp = 0; /* record labels are .Ltmp<tmp>, numbered the same in both passes */
    if (print) {
        section(w, B3Sec_StackMaps);
        fputs("\t.p2align\t3\n", f);
    }
    unsigned version = (unsigned)rd(&r, 1);
    if (version != 3 || rd(&r, 1) != 0 || rd(&r, 2) != 0)
        b3_internal_error("asm writer", ".llvm_stackmaps: unexpected header");
    uint32_t nfuncs = (uint32_t)rd(&r, 4), nconsts = (uint32_t)rd(&r, 4), nrecs = (uint32_t)rd(&r, 4);
    if (print)
        fprintf(
            f,
            "\t.byte\t3, 0\t%s version\n\t.short\t0\n\t.long\t%u\t%s functions\n\t.long\t%u\t%s constants\n"
            "\t.long\t%u\t%s records\n",
            cm, nfuncs, cm, nconsts, cm, nrecs, cm);
    /* Each function's address, record count and the chunk its code is. */
    uint32_t *fchunk = b3_xmalloc("asm writer", (nfuncs ? nfuncs : 1) * sizeof *fchunk);
    uint64_t *fcount = b3_xmalloc("asm writer", (nfuncs ? nfuncs : 1) * sizeof *fcount);
    const B3Symbol **fsym = b3_xmalloc("asm writer", (nfuncs ? nfuncs : 1) * sizeof *fsym);
    for (uint32_t i = 0; i < nfuncs; i++) {
        const B3Reloc *rel = reloc_at(w, B3Sec_StackMaps, r.at);
        uint64_t addr = rd(&r, 8), stack = rd(&r, 8);
        fcount[i] = rd(&r, 8);
        if (!rel || rel->kind != B3Reloc_Abs64 || addr != 0)
            b3_internal_error("asm writer", ".llvm_stackmaps: function %u has no address relocation", i);
        uint64_t text_off;
        B3SectionId code_sec;
        if (rel->sym) {
            const B3SymDef *d = def_of(o, rel->sym);
            if (!d || !b3_obj_sec_is_code(o, (B3SectionId)d->section) || rel->addend != 0)
                b3_internal_error("asm writer", ".llvm_stackmaps: function %u is not a code symbol", i);
            text_off = d->offset;
            code_sec = (B3SectionId)d->section;
        } else {
            if (rel->local_section < 0 || !b3_obj_sec_is_code(o, (B3SectionId)rel->local_section) ||
                rel->addend < 0)
                b3_internal_error("asm writer", ".llvm_stackmaps: function %u is not in code", i);
            text_off = (uint64_t)rel->addend;
            code_sec = (B3SectionId)rel->local_section;
        }
        fchunk[i] = chunk_at(w, code_sec, text_off);
        if (w->t->chunks[fchunk[i]].start != text_off)
            b3_internal_error("asm writer", ".llvm_stackmaps: function %u does not start a procedure", i);
        fsym[i] = rel->sym;
        if (!rel->sym && !print && !w->begin_label[fchunk[i]]) {
            w->begin_label[fchunk[i]] = 1;
            Event *e = add_event(w, fchunk[i], text_off, Ev_Label);
            snprintf(e->label, sizeof e->label, "%sfunc_begin%u", w->lp, w->t->chunks[fchunk[i]].proc);
        }
        if (print) {
            fputs("\t.quad\t", f);
            if (rel->sym)
                print_sym(w, rel->sym);
            else
                fprintf(f, "%sfunc_begin%u", w->lp, w->t->chunks[fchunk[i]].proc);
            fprintf(f, "\n\t.quad\t%" PRIu64 "\t%s stack size\n\t.quad\t%" PRIu64 "\t%s records\n", stack, cm,
                    fcount[i], cm);
        }
    }
    for (uint32_t i = 0; i < nconsts; i++) {
        uint64_t v = rd(&r, 8);
        if (print)
            fprintf(f, "\t.quad\t%" PRId64 "\t%s constant %u\n", (int64_t)v, cm, i);
    }
    uint32_t fn = 0;
    uint64_t left = nfuncs ? fcount[0] : 0;
    for (uint32_t i = 0; i < nrecs; i++) {
        while (fn < nfuncs && left == 0 && ++fn < nfuncs)
            left = fcount[fn];
        if (fn >= nfuncs)
            b3_internal_error("asm writer", ".llvm_stackmaps: more records than the functions count");
        left--;
        const Chunk *c = &w->t->chunks[fchunk[fn]];
        uint64_t id = rd(&r, 8);
        uint32_t off = (uint32_t)rd(&r, 4);
        unsigned flags = (unsigned)rd(&r, 2), nlocs = (unsigned)rd(&r, 2);
        if (c->start + off > c->end)
            b3_internal_error("asm writer", ".llvm_stackmaps: record %" PRIu64 " is past its function", id);
        uint32_t label = tmp++;
        if (!print) {
            Event *e = add_event(w, fchunk[fn], c->start + off, Ev_Label);
            snprintf(e->label, sizeof e->label, "%stmp%u", w->lp, w->ntmp + label);
        } else {
            fprintf(f, "\t.quad\t%" PRIu64 "\t%s record id\n\t.long\t%stmp%u-", id, cm, w->lp,
                    w->ntmp + label);
            if (fsym[fn])
                print_sym(w, fsym[fn]);
            else
                fprintf(f, "%sfunc_begin%u", w->lp, c->proc);
            fprintf(f, "\n\t.short\t%u\n\t.short\t%u\t%s locations\n", flags, nlocs, cm);
        }
        for (unsigned k = 0; k < nlocs; k++) {
            static const char *const kinds[] = {"?",        "Register", "Direct",
                                                "Indirect", "Constant", "ConstIndex"};
            unsigned kind = (unsigned)rd(&r, 1), res = (unsigned)rd(&r, 1);
            unsigned size = (unsigned)rd(&r, 2), reg = (unsigned)rd(&r, 2), res2 = (unsigned)rd(&r, 2);
            int32_t value = (int32_t)(uint32_t)rd(&r, 4);
            if (print)
                fprintf(f, "\t.byte\t%u, %u\t%s %s\n\t.short\t%u, %u, %u\n\t.long\t%" PRId32 "\n", kind, res,
                        cm, kind < 6 ? kinds[kind] : "?", size, reg, res2, value);
        }
        sm_pad8(w, &r, print);
        unsigned pad = (unsigned)rd(&r, 2), nlive = (unsigned)rd(&r, 2);
        if (print)
            fprintf(f, "\t.short\t%u\n\t.short\t%u\t%s live-outs\n", pad, nlive, cm);
        for (unsigned k = 0; k < nlive; k++) {
            unsigned reg = (unsigned)rd(&r, 2), res = (unsigned)rd(&r, 1), size = (unsigned)rd(&r, 1);
            if (print)
                fprintf(f, "\t.short\t%u\n\t.byte\t%u, %u\n", reg, res, size);
        }
        sm_pad8(w, &r, print);
    }
    if (r.at != r.n)
        b3_internal_error("asm writer", ".llvm_stackmaps has %" PRIu64 " bytes after its records",
                          r.n - r.at);
    if (print)
        w->ntmp += tmp;
    free(fchunk);
    free(fcount);
    free(fsym);
}

/* ---- .text ---- */

static void flush_events(Writer *w, uint32_t *next, uint32_t chunk, uint64_t pos) {
    while (*next < w->nev && w->ev[*next].chunk == chunk && w->ev[*next].off <= pos) {
        if (w->ev[*next].off < pos)
            b3_internal_error("asm writer", ".text offset 0x%" PRIx64 " is inside an instruction",
                              w->ev[*next].off);
        print_event(w, &w->ev[(*next)++]);
    }
}

/* The .cfi_* directives of each entry region's frame description, from
 * which the assembler computes the same unwind information: ELF's
 * .eh_frame (objwriter/eh_frame.c writes it as llvm-mc does), on Apple
 * targets the compact unwind encoding (codegen/<arch>/unwind.c follows the
 * assembler's reading of the prologue's steps, the only ones printed
 * there).  Events at one offset keep their order, so a region's
 * .cfi_endproc comes before the next one's .cfi_startproc. */
static void cfi_events(Writer *w) {
    const B3Obj *o = w->o;
    if (!w->syn->cfi_reg_name || !o->module)
        return;
    bool apple = o->module->target.os == B3OS_MacOS;
    if (!apple && o->no_unwind_tables)
        return;
    for (uint32_t i = 0; i < o->nframes; i++) {
        const B3FrameRegion *fr = &o->frames[i];
        const B3CfiStep *steps = o->cfi_steps + fr->first_step;
        uint32_t c = chunk_at(w, (B3SectionId)fr->section, fr->start);
        snprintf(add_event(w, c, fr->start, Ev_Directive)->label, sizeof w->ev->label, ".cfi_startproc");
        for (uint32_t k = 0; k < (apple ? fr->nprologue : fr->nsteps); k++) {
            Event *e = add_event(w, c, fr->start + steps[k].at, Ev_Directive);
            b3_frame_step_text(e->label, sizeof e->label, &steps[k], w->syn->cfi_reg_name);
        }
        snprintf(add_event(w, c, fr->start + fr->size, Ev_Directive)->label, sizeof w->ev->label,
                 ".cfi_endproc");
    }
}

/* Is listing line i a -fverbose-asm comment (codegen/emit.h)? */
static bool comment_line(const Writer *w, uint32_t i) {
    const char *line = w->t->text + w->t->line_at[i];
    return line[0] == '\t' && !strncmp(line + 1, w->syn->comment, strlen(w->syn->comment));
}

static void text(Writer *w) {
    B3Obj *o = w->o;
    B3AsmText *t = w->t;
    FILE *f = w->f;
    /* The procedures by section, in each by offset, for chunk_at. */
    w->by_place = b3_xmalloc("asm writer", (t->nchunks + 1) * sizeof *w->by_place);
    for (uint32_t c = 0; c < t->nchunks; c++)
        w->by_place[c] = (struct Place){t->chunks[c].section, t->chunks[c].start, t->chunks[c].end, c};
    if (t->nchunks)
        qsort(w->by_place, t->nchunks, sizeof *w->by_place, place_cmp);
    /* Every code symbol starts at, and its size ends at, a label. */
    for (uint32_t i = 0; i < o->ndefs; i++) {
        const B3SymDef *d = &o->defs[i];
        if (!b3_obj_sec_is_code(o, (B3SectionId)d->section) || d->sym->kind == B3Sym_Alias)
            continue;
        if (!d->is_func)
            b3_internal_error("asm writer", "a data symbol in .text");
        uint32_t c = chunk_at(w, (B3SectionId)d->section, d->offset);
        if (d->offset + d->size != t->chunks[c].end)
            b3_internal_error("asm writer", "a code symbol's size does not end with its procedure");
        add_event(w, c, d->offset, Ev_Def)->def = d;
    }
    stackmaps(w, false);
    cfi_events(w);
    for (uint32_t c = 0; c < t->nchunks; c++) {
        Event *e = add_event(w, c, t->chunks[c].end, Ev_Label);
        snprintf(e->label, sizeof e->label, "%sfunc_end%u", w->lp, t->chunks[c].proc);
    }
    /* -g: the rows of --emit=obj's .debug_line as .loc directives (each
     * procedure's rows as dwarf.c writes them; the assemblers end one
     * sequence per section, not per procedure). */
    uint64_t start;
    B3SectionId sec;
    const B3LineRow *rows;
    uint32_t nrows;
    for (uint32_t p = 0; b3_obj_debug_rows(o, p, &sec, &start, &rows, &nrows); p++)
        for (uint32_t r = 0; r < nrows; r++) {
            Event *e = add_event(w, chunk_at(w, sec, start + rows[r].offset), start + rows[r].offset, Ev_Loc);
            e->row = &rows[r];
            e->prologue_end = !rows[r].prologue && r > 0 && rows[r - 1].prologue;
        }
    if (w->nev) /* data only: no events and w->ev NULL, which qsort must not see */
        qsort(w->ev, w->nev, sizeof *w->ev, event_cmp);

    const char *file;
    for (uint32_t k = 0; (file = b3_obj_debug_file(o, k)) != NULL; k++) {
        fprintf(f, "\t.file\t%u \"", k + 1);
        for (const unsigned char *c = (const unsigned char *)file; *c; c++) {
            if (*c == '"' || *c == '\\')
                fputc('\\', f);
            fprintf(f, *c < 0x20 ? "\\%03o" : "%c", *c);
        }
        fputs("\"\n", f);
    }
    /* The procedures in the order they were made, each in its section, as
     * clang prints them: the assembler's unwind entries keep that order. */
    if (o->sec[B3Sec_Text].size && (!t->nchunks || t->chunks[0].section != B3Sec_Text))
        section(w, B3Sec_Text);
    uint64_t at_of[B3_NUM_SECTIONS] = {0}; /* where each code section's listing has got to */
    uint32_t next = 0;
    for (uint32_t c = 0; c < t->nchunks; c++) {
        const Chunk *ch = &t->chunks[c];
        if (!c || ch->section != t->chunks[c - 1].section)
            section(w, (B3SectionId)ch->section);
        uint64_t at = at_of[ch->section];
        if (ch->start < at || ch->start - at != ((ch->align - at % ch->align) % ch->align))
            b3_internal_error("asm writer",
                              "procedure at 0x%" PRIx64 " is not where %u-byte alignment puts it", ch->start,
                              ch->align);
        w->syn->proc_align(f, ch->start - at, ch->align);
        uint64_t pos = ch->start;
        uint32_t first = next; /* this chunk's events: [first, next) once printed */
        for (uint32_t i = ch->first; i < ch->first + ch->n; i++) {
            uint64_t end = t->line_end[i];
            if (end < pos)
                b3_internal_error("asm writer", "listing offsets go backwards");
            if (end > pos) {
                flush_events(w, &next, c, pos);
                pos = end;
            }
            const char *line = t->text + t->line_at[i];
            if (end == pos && comment_line(w, i)) {
                /* A -fverbose-asm comment goes with the instructions after it:
                 * after the symbols, labels and directives of where they
                 * start.  One whose value emitted none (a comment or the end
                 * comes first) says nothing. */
                uint32_t k = i + 1;
                while (k < ch->first + ch->n && t->line_end[k] == end && !comment_line(w, k))
                    k++;
                if (k == ch->first + ch->n || t->line_end[k] == end)
                    continue;
                flush_events(w, &next, c, pos);
            }
            fwrite(line, 1, (size_t)((const char *)memchr(line, '\n', t->len - t->line_at[i]) - line) + 1, f);
        }
        if (pos != ch->end)
            b3_internal_error("asm writer", "the listing of procedure %u does not cover its code", ch->proc);
        flush_events(w, &next, c, pos);
        if (next < w->nev && w->ev[next].chunk == c)
            b3_internal_error("asm writer", "a label past the end of procedure %u", ch->proc);
        for (uint32_t i = first; i < next; i++) {
            const B3SymDef *d = w->ev[i].kind == Ev_Def ? w->ev[i].def : NULL;
            if (d && !w->macho) { /* Mach-O has no symbol sizes */
                fputs("\t.size\t", f);
                print_sym(w, d->sym);
                fprintf(f, ", .Lfunc_end%u-", ch->proc);
                print_sym(w, d->sym);
                fputc('\n', f);
            }
        }
        at_of[ch->section] = ch->end;
    }
    for (int s = 0; s < B3_NUM_SECTIONS; s++)
        if (b3_obj_sec_is_code(o, (B3SectionId)s) && at_of[s] != o->sec[s].size)
            b3_internal_error("asm writer",
                              "code section %d has 0x%" PRIx64 " bytes, the listings 0x%" PRIx64, s,
                              o->sec[s].size, at_of[s]);
}

/* ---- data ---- */

static void print_ascii(FILE *f, const uint8_t *p, uint32_t n) {
    for (uint32_t at = 0; at < n; at += 64) {
        uint32_t k = n - at < 64 ? n - at : 64;
        fputs("\t.ascii\t\"", f);
        for (uint32_t i = at; i < at + k; i++) {
            uint8_t c = p[i];
            if (c == '"' || c == '\\')
                fprintf(f, "\\%c", c);
            else if (c >= 0x20 && c < 0x7f)
                fputc(c, f);
            else
                fprintf(f, "\\%03o", c); /* three digits: a following digit is not read into it */
        }
        fputs("\"\n", f);
    }
}

/* One datum's items, checked against the bytes and relocations laid out at base. */
static void print_items(Writer *w, const B3Data *d, B3SectionId s, uint64_t base) {
    FILE *f = w->f;
    const B3SectionBuf *sec = &w->o->sec[s];
    uint64_t rel = 0;
    for (uint32_t i = 0; i < d->nlines; i++) {
        const char *open = NULL; /* the directive of the run being printed */
        unsigned run = 0;
        for (uint32_t j = 0; j < d->lines[i].nitems; j++) {
            const B3DataItem *it = &d->lines[i].items[j];
            /* The layout of b3_obj_emit_data (obj.h). */
            uint64_t pad = b3_data_item_pad(it, rel), n = b3_data_item_size(it);
            if (pad) {
                if (open)
                    fputc('\n', f);
                open = NULL;
                fprintf(f, "\t.zero\t%" PRIu64 "\n", pad);
                rel += pad;
            }
            uint64_t at = base + rel;
            if (at + n > sec->size)
                b3_internal_error("asm writer", "a data item is past the end of its section");
            const char *dir = NULL;
            switch ((B3DataKind)it->kind) {
            case B3Data_Int8:
                dir = "\t.byte\t";
                break;
            case B3Data_Int16:
                dir = "\t.short\t";
                break;
            case B3Data_Int32:
            case B3Data_Float:
                dir = "\t.long\t";
                break;
            case B3Data_Int64:
            case B3Data_Double:
                dir = "\t.quad\t";
                break;
            default:
                break;
            }
            if (dir) {
                uint64_t mask = n >= 8 ? ~0ull : (1ull << (8 * n)) - 1, bits = it->u.bits & mask, laid = 0;
                for (unsigned b = 0; b < n; b++)
                    laid |= (uint64_t)sec->bytes[at + b] << (8 * b);
                if (laid != bits)
                    b3_internal_error("asm writer", "data item bytes differ from the object's");
                bool fp = it->kind == B3Data_Float || it->kind == B3Data_Double;
                if (fp || open != dir || run == 8) {
                    if (open)
                        fputc('\n', f);
                    fputs(dir, f);
                    run = 0;
                } else {
                    fputs(", ", f);
                }
                open = fp ? NULL : dir;
                run++;
                if (it->kind == B3Data_Float) {
                    float v;
                    uint32_t b32 = (uint32_t)bits;
                    memcpy(&v, &b32, 4);
                    fprintf(f, "0x%08" PRIx32 "\t%s float %.9g\n", b32, w->syn->comment, (double)v);
                } else if (it->kind == B3Data_Double) {
                    double v;
                    memcpy(&v, &bits, 8);
                    fprintf(f, "0x%016" PRIx64 "\t%s double %.17g\n", bits, w->syn->comment, v);
                } else {
                    /* Signed at the item's width, as the source most likely wrote it. */
                    int64_t sv = n == 1   ? (int8_t)bits
                                 : n == 2 ? (int16_t)bits
                                 : n == 4 ? (int32_t)bits
                                          : (int64_t)bits;
                    fprintf(f, "%" PRId64, sv);
                }
                rel += n;
                continue;
            }
            if (open)
                fputc('\n', f);
            open = NULL;
            switch ((B3DataKind)it->kind) {
            case B3Data_Bytes:
                /* Bytes "": both pointers may be NULL, and memcmp must not see them. */
                if (n && memcmp(sec->bytes + at, it->u.str.bytes, (size_t)n))
                    b3_internal_error("asm writer", "data bytes differ from the object's");
                print_ascii(f, it->u.str.bytes, it->u.str.len);
                break;
            case B3Data_Zero:
                if (n)
                    fprintf(f, "\t.zero\t%" PRIu64 "\n", n);
                break;
            case B3Data_Addr: {
                const B3Reloc *r = reloc_at(w, s, at);
                if (!r || r->kind != B3Reloc_Abs64 || r->sym != it->u.addr.sym ||
                    r->addend != it->u.addr.addend)
                    b3_internal_error("asm writer", "an Addr item without its relocation");
                fputs("\t.quad\t", f);
                print_sym(w, it->u.addr.sym);
                if (it->u.addr.addend)
                    fprintf(f, "%+" PRId64, it->u.addr.addend);
                fputc('\n', f);
                break;
            }
            case B3Data_Rel32: {
                const B3Reloc *r = reloc_at(w, s, at);
                if (!r || r->kind != B3Reloc_PC32 || r->sym != it->u.addr.sym ||
                    r->addend != it->u.addr.addend)
                    b3_internal_error("asm writer", "a Rel32 item without its relocation");
                fputs("\t.long\t", f);
                if (b3_asm_uses_local_alias(w->o, it->u.addr.sym, B3Reloc_PC32)) /* as elf.c binds it */
                    b3_asm_print_name(f, ".L", it->u.addr.sym, "$local", "", false);
                else
                    print_sym(w, it->u.addr.sym);
                if (it->u.addr.addend)
                    fprintf(f, "%+" PRId64, it->u.addr.addend);
                fputs("-.\n", f);
                break;
            }
            default:
                b3_internal_error("asm writer", "unknown data item kind %u", it->kind);
            }
            rel += n;
        }
        if (open)
            fputc('\n', f);
    }
}

static void data_section(Writer *w, B3SectionId s) {
    B3Obj *o = w->o;
    FILE *f = w->f;
    uint64_t at = 0;
    bool started = false;
    uint32_t nrelocs = 0;
    for (uint32_t i = 0; i < o->nrelocs; i++)
        nrelocs += o->relocs[i].section == s;
    uint32_t naddr = 0;
    for (uint32_t i = 0; i < o->ndefs; i++) {
        const B3SymDef *d = &o->defs[i];
        if (d->section != s || d->sym->kind == B3Sym_Alias)
            continue;
        if (d->is_func)
            b3_internal_error("asm writer", "a code symbol outside .text");
        static const B3Data empty;
        const B3Data *data = d->sym->def.data ? d->sym->def.data : &empty;
        uint32_t align = b3_data_align(data);
        if (align & (align - 1))
            b3_internal_error("asm writer", "alignment %u is not a power of two", align);
        if (d->offset < at || d->offset - at != ((align - at % align) % align))
            b3_internal_error("asm writer", "datum at 0x%" PRIx64 " is not where its alignment puts it",
                              d->offset);
        if (!started)
            section(w, s);
        started = true;
        unsigned log2 = 0;
        while ((1u << log2) < align)
            log2++;
        if (log2)
            fprintf(f, "\t.p2align\t%u\n", log2);
        print_binding(w, d);
        if (!w->macho) {
            fputs("\t.size\t", f);
            print_sym(w, d->sym);
            fprintf(f, ", %" PRIu64 "\n", d->size);
        }
        print_sym(w, d->sym);
        fputs(":\n", f);
        if (b3_sec_is_zerofill(s)) {
            if (d->size)
                fprintf(f, "\t.zero\t%" PRIu64 "\n", d->size);
        } else {
            print_items(w, data, s, d->offset);
            for (uint32_t li = 0; li < data->nlines; li++)
                for (uint32_t j = 0; j < data->lines[li].nitems; j++)
                    naddr += data->lines[li].items[j].kind == B3Data_Addr ||
                             data->lines[li].items[j].kind == B3Data_Rel32;
        }
        at = d->offset + d->size;
    }
    if (at != o->sec[s].size)
        b3_internal_error("asm writer", "section %d has bytes no datum accounts for", (int)s);
    if (naddr != nrelocs)
        b3_internal_error("asm writer", "section %d has relocations no Addr item accounts for", (int)s);
}

/* Mach-O sections of pointers the object writer made, not data items: the
 * thread-local descriptors (__tlv_bootstrap, 0, the image) and the
 * constructor pointers, each word a .quad of its relocation's symbol. */
static void pointer_section(Writer *w, B3SectionId s) {
    B3Obj *o = w->o;
    if (!o->sec[s].size)
        return;
    section(w, s);
    fputs("\t.p2align\t3\n", w->f);
    uint32_t d = 0;
    for (uint64_t off = 0; off < o->sec[s].size; off += 8) {
        for (; d < o->ndefs; d++)
            if (o->defs[d].section == s && o->defs[d].offset >= off)
                break;
        if (d < o->ndefs && o->defs[d].offset == off) {
            print_binding(w, &o->defs[d]);
            print_sym(w, o->defs[d].sym);
            fputs(":\n", w->f);
        }
        const B3Reloc *r = reloc_at(w, s, off);
        if (r && (r->addend || !r->sym))
            b3_internal_error("asm writer", "a pointer of section %d with an addend", (int)s);
        fputs(r ? "\t.quad\t" : "\t.quad\t0\n", w->f);
        if (r) {
            print_sym(w, r->sym);
            fputc('\n', w->f);
        }
    }
}

/* Aliases (docs/c-extensions.md; ELF only): the binding, then the symbol
 * equated to its target plus the offset, as the object writer defines it. */
static void aliases(Writer *w) {
    B3Obj *o = w->o;
    for (uint32_t i = 0; i < o->ndefs; i++) {
        const B3SymDef *d = &o->defs[i];
        if (d->sym->kind != B3Sym_Alias)
            continue;
        const B3Alias *a = d->sym->def.alias;
        print_binding(w, d);
        fputs("\t.set\t", w->f);
        print_sym(w, d->sym);
        fputs(", ", w->f);
        print_sym(w, a->target);
        if (a->offset)
            fprintf(w->f, "+%lld", (long long)a->offset);
        fputs("\n\t.size\t", w->f);
        print_sym(w, d->sym);
        fprintf(w->f, ", %" PRIu64 "\n", d->size);
    }
}

/* Constructors and destructors (docs/c-extensions.md): a pointer in
 * .init_array/.fini_array, or the section of their priority; the assemblers
 * merge repeated sections, keeping the module's order within each. */
static void init_arrays(Writer *w) {
    B3Structor *st;
    uint32_t n = b3_obj_structors(w->o->module, &st);
    for (uint32_t i = 0; i < n; i++) {
        fprintf(w->f, "\t.section\t%s", st[i].fini ? ".fini_array" : ".init_array");
        if (st[i].priority != B3_DEFAULT_INIT_PRIORITY)
            fprintf(w->f, ".%05d", (int)st[i].priority);
        fprintf(w->f, ",\"aw\",%s\n\t.p2align\t3\n\t.quad\t", st[i].fini ? "@fini_array" : "@init_array");
        print_sym(w, st[i].sym);
        fputc('\n', w->f);
    }
    free(st);
}

bool b3_write_asm(B3Obj *o, FILE *f, const B3AsmSyntax *syntax) {
    B3Module *m = o->module;
    if (!o->asm_text)
        b3_internal_error("asm writer", "no instruction text was collected");
    /* Names the assemblers cannot read back. */
    for (uint32_t i = 0; i < o->ndefs + o->nrelocs; i++) {
        const B3Symbol *s = i < o->ndefs ? o->defs[i].sym : o->relocs[i - o->ndefs].sym;
        if (s && !spellable(s)) {
            char name[256];
            size_t k = 0;
            for (uint32_t j = 0; j < s->name_len && k + 8 < sizeof name; j++) {
                unsigned char c = (unsigned char)s->name[j];
                if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
                    name[k++] = (char)c;
                else
                    k += (size_t)snprintf(name + k, sizeof name - k, "\\x%02x", c);
            }
            name[k] = 0;
            const char *why = "cannot be written in assembly (control characters, quotes and backslashes "
                              "cannot be spelled); use --emit=obj";
            /* The input's fault: shown where the symbol is declared or defined. */
            B3Loc loc = s->loc.line ? s->loc : s->ref_loc;
            if (o->diag)
                b3_error(o->diag, loc, "symbol @\"%s\" %s", name, why);
            else
                fprintf(stderr, "b3c: error: symbol @\"%s\" %s\n", name, why);
            return false;
        }
    }
    /* Only the sections this writer knows may have contents (-g: .loc directives, no sections). */
    for (int s = 0; s < B3_NUM_SECTIONS; s++) {
        bool known = s == B3Sec_Text || s == B3Sec_ROData || s == B3Sec_Data || s == B3Sec_BSS ||
                     s == B3Sec_StackMaps || s == B3Sec_DataRelRo || s == B3Sec_CompactUnwind ||
                     s == B3Sec_EhFrame /* the .cfi_* directives */ || s == B3Sec_TData || s == B3Sec_TBss ||
                     s == B3Sec_ThreadVars || s == B3Sec_ModInitFunc || b3_sec_is_named((B3SectionId)s);
        if (!known && o->sec[s].size)
            b3_internal_error("asm writer", "section %d cannot be written as assembly yet", s);
    }
    for (uint32_t i = 0; i < o->nrelocs; i++) {
        const B3Reloc *r = &o->relocs[i];
        if (b3_obj_sec_is_code(o, (B3SectionId)r->section) && !r->sym)
            b3_internal_error("asm writer", "a section-relative relocation in code");
    }

    Writer w = {.o = o, .t = o->asm_text, .f = f, .syn = syntax};
    w.macho = b3_target_obj_format(m->target) == B3ObjFormat_MachO;
    w.lp = b3_asm_local_prefix(m->target);
    if (w.macho) /* the LC_BUILD_VERSION b3_write_macho writes */
        fprintf(f, "\t.build_version macos, %u, %u\n", m->target.os_major, m->target.os_minor);
    w.begin_label = b3_xmalloc("asm writer", w.t->nchunks + 1);
    memset(w.begin_label, 0, w.t->nchunks + 1);
    w.rel = b3_xmalloc("asm writer", (o->nrelocs + 1) * sizeof *w.rel);
    for (uint32_t i = 0; i < o->nrelocs; i++)
        w.rel[i] = &o->relocs[i];
    qsort(w.rel, o->nrelocs, sizeof *w.rel, reloc_cmp);
    /* B3Symbol.id is the object writer's scratch: here a definition's index + 1. */
    for (uint32_t i = 0; i < m->nsymbols; i++)
        m->symbols[i]->id = 0;
    for (uint32_t i = 0; i < o->nrelocs; i++)
        if (o->relocs[i].sym)
            o->relocs[i].sym->id = 0;
    for (uint32_t i = 0; i < o->ndefs; i++)
        o->defs[i].sym->id = i + 1;
    w.alias = b3_xmalloc("asm writer", o->ndefs + 1);
    memset(w.alias, 0, o->ndefs + 1);
    for (uint32_t i = 0; i < o->nrelocs; i++) {
        const B3Reloc *r = &o->relocs[i];
        const B3SymDef *d = r->sym ? def_of(o, r->sym) : NULL;
        if (d && b3_asm_uses_local_alias(o, d->sym, (B3RelocKind)r->kind))
            w.alias[d - o->defs] = 1;
    }
    text(&w);
    data_section(&w, B3Sec_ROData);
    data_section(&w, B3Sec_Data);
    data_section(&w, B3Sec_DataRelRo);
    data_section(&w, B3Sec_BSS);
    data_section(&w, B3Sec_TData);
    pointer_section(&w, B3Sec_ThreadVars);
    pointer_section(&w, B3Sec_ModInitFunc); /* the object writer's order (objwriter/macho.c) */
    data_section(&w, B3Sec_TBss);
    for (uint32_t k = 0; k < o->nnamed; k++)
        if (!o->named[k].code) /* a procedure's own: printed with the code */
            data_section(&w, (B3SectionId)(B3Sec_Named0 + k));
    aliases(&w);
    if (!w.macho)
        init_arrays(&w);
    stackmaps(&w, true);
    print_weak_refs(&w);
    if (w.macho) /* MH_SUBSECTIONS_VIA_SYMBOLS, as b3_write_macho sets it */
        fputs("\t.subsections_via_symbols\n", f);
    else /* An empty .note.GNU-stack asks the linker for a non-executable stack. */
        fputs("\t.section\t.note.GNU-stack,\"\",@progbits\n", f);
    free(w.ev);
    free(w.begin_label);
    free(w.by_place);
    free(w.rel);
    free(w.alias);
    return !ferror(f);
}
