/* DWARF 4 line tables and the compile unit that points at them (-g).
 *
 * .debug_line: one header naming the input file (file 1, directory 0 = the
 * compile unit's comp_dir) and the module's other source files (2 on: the
 * headers of C code imported from LLVM IR), then one sequence per procedure:
 * set_address (R_X86_64_64 against .text, or the procedure's own code
 * section) and a row at each change of source
 * line or file (DW_LNS_set_file before a row in another file), ending
 * at the end of the procedure's instructions (its jump tables, which follow
 * them, are data and get no rows).
 * .debug_info: a DW_TAG_compile_unit (name, comp_dir, producer "b3c VERSION",
 * DW_LANG_Mips_Assembler as assemblers use, stmt_list, low_pc/high_pc over
 * all of .text; when procedures have sections of their own, low_pc 0 and
 * DW_AT_ranges: .debug_ranges lists each code section whole) with a
 * DW_TAG_subprogram per entry region of each procedure
 * (docs/backend.md, "Debug information and readable -S"): name,
 * decl_file/decl_line (the `proc` line), low_pc/high_pc, frame_base
 * DW_OP_call_frame_cfa (the CFA of the unwind information, as clang says
 * it), external unless internal.
 * Section offsets (abbrev offset, stmt_list) are R_X86_64_32 against the
 * section symbols, so a linker concatenating objects keeps them right.
 * Strings are inline (DW_FORM_string): there is no .debug_str to share.
 * -fdebug-prefix-map rewrites the names (the file and comp_dir) once, when
 * debug info is turned on. */
#include "objwriter/dwarf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ir/version.h"
#include "objwriter/bytes.h"
#include "util/alloc.h"
#include "util/vec.h"

/* DWARF constants (DWARF 4, section 7). */
enum {
    DW_TAG_compile_unit = 0x11,
    DW_TAG_subprogram = 0x2e,
    DW_CHILDREN_no = 0,
    DW_CHILDREN_yes = 1,
    DW_AT_name = 0x03,
    DW_AT_stmt_list = 0x10,
    DW_AT_low_pc = 0x11,
    DW_AT_high_pc = 0x12,
    DW_AT_language = 0x13,
    DW_AT_comp_dir = 0x1b,
    DW_AT_producer = 0x25,
    DW_AT_ranges = 0x55,
    DW_AT_decl_file = 0x3a,
    DW_AT_decl_line = 0x3b,
    DW_AT_external = 0x3f,
    DW_AT_frame_base = 0x40,
    DW_FORM_addr = 0x01,
    DW_FORM_data2 = 0x05,
    DW_FORM_data4 = 0x06,
    DW_FORM_string = 0x08,
    DW_FORM_data1 = 0x0b,
    DW_FORM_udata = 0x0f,
    DW_FORM_sec_offset = 0x17,
    DW_FORM_exprloc = 0x18,
    DW_FORM_flag_present = 0x19,
    DW_LANG_Mips_Assembler = 0x8001,
    DW_OP_call_frame_cfa = 0x9c,
    DW_LNS_copy = 1,
    DW_LNS_advance_pc = 2,
    DW_LNS_advance_line = 3,
    DW_LNS_set_file = 4,
    DW_LNS_set_column = 5,
    DW_LNS_set_prologue_end = 10,
    DW_LNE_end_sequence = 1,
    DW_LNE_set_address = 2,
};

/* Abbreviation codes of this writer's .debug_abbrev. */
enum { Abbrev_CU = 1, Abbrev_CUNoCode, Abbrev_Subprogram, Abbrev_SubprogramLocal, Abbrev_CURanges };

/* The line program's special-opcode parameters (those GNU as uses). */
enum { LineBase = -5, LineRange = 14, OpcodeBase = 13 };

typedef struct {
    uint32_t decl_line; /* the `proc` line */
    uint32_t decl_file; /* its B3Loc.file */
    uint8_t section;    /* B3SectionId: .text or the procedure's own */
    uint64_t start;     /* in that section */
    uint64_t code_size; /* the instructions: the line sequence's extent */
    uint64_t size;      /* with the jump tables: the subprogram's extent */
    B3LineRow *rows;
    uint32_t nrows;
} DebugProc;

struct B3DebugInfo {
    char *comp_dir;
    char **files; /* 0: the input, then the module's files */
    uint32_t nfiles;
    DebugProc *procs;
    uint32_t nprocs, cap_procs;
};

static char *xstrdup(const char *s) {
    size_t n = strlen(s) + 1;
    return memcpy(b3_xrealloc("debug info", NULL, n), s, n);
}

/* ---- rows ---------------------------------------------------------------------- */

void b3_line_rows_note(B3LineRows *r, uint64_t offset, B3Loc loc, bool prologue) {
    if (!loc.line)
        return;
    B3LineRow row = {.offset = offset, .line = loc.line, .col = loc.col, .file = loc.file, .prologue = prologue};
    B3LineRow *last = r->n ? &r->v[r->n - 1] : NULL;
    /* The same line goes on; after a prologue row a new row marks its end. */
    if (last && !prologue && !last->prologue && last->line == loc.line && last->file == loc.file)
        return;
    /* The previous row covers no bytes (its insts emitted nothing): replace it,
     * or drop it if the row before already says the same. */
    if (last && last->offset == offset) {
        const B3LineRow *before = r->n > 1 ? &r->v[r->n - 2] : NULL;
        if (before && !prologue && !before->prologue && before->line == loc.line && before->file == loc.file)
            r->n--;
        else
            *last = row;
        return;
    }
    B3_VEC_RESERVE("debug info", r->v, r->cap, r->n + 1);
    r->v[r->n++] = row;
}

void b3_line_rows_free(B3LineRows *r) {
    free(r->v);
    memset(r, 0, sizeof *r);
}

/* ---- collecting ----------------------------------------------------------------- */

/* -fdebug-prefix-map: name with the OLD prefix of the last map that
 * matches replaced by its NEW (each map "OLD=NEW", split at the first '=',
 * as gcc does); a copy of name when none does. */
static char *map_prefix(const char *name, const char *const *maps, uint32_t nmaps) {
    for (uint32_t i = nmaps; i-- > 0;) {
        const char *eq = strchr(maps[i], '=');
        if (!eq)
            continue;
        size_t n = (size_t)(eq - maps[i]);
        if (strncmp(name, maps[i], n))
            continue;
        size_t nn = strlen(eq + 1), rest = strlen(name + n);
        char *s = b3_xrealloc("debug info", NULL, nn + rest + 1);
        memcpy(s, eq + 1, nn);
        memcpy(s + nn, name + n, rest + 1);
        return s;
    }
    return xstrdup(name);
}

void b3_obj_enable_debug(B3Obj *o, const char *file, const char *const *prefix_map, uint32_t nprefix_map) {
    if (o->debug)
        return;
    struct B3DebugInfo *d = b3_xcalloc("debug info", 1, sizeof *d);
    const B3Module *m = o->module;
    d->nfiles = 1 + (m ? m->nfiles : 0);
    d->files = b3_xcalloc("debug info", d->nfiles, sizeof *d->files);
    d->files[0] = map_prefix(file, prefix_map, nprefix_map);
    for (uint32_t k = 1; k < d->nfiles; k++)
        d->files[k] = map_prefix(m->files[k - 1], prefix_map, nprefix_map);
    /* The directory relative file names are resolved against, as compilers record it. */
    size_t cap = 256;
    char *cwd = b3_xmalloc("debug info", cap);
    while (!getcwd(cwd, cap)) {
        if (errno != ERANGE || cap > (1u << 20)) { /* e.g. the directory was removed */
            strcpy(cwd, ".");
            break;
        }
        cap *= 2;
        cwd = b3_xrealloc("debug info", cwd, cap);
    }
    d->comp_dir = map_prefix(cwd, prefix_map, nprefix_map);
    free(cwd);
    o->debug = d;
}

void b3_obj_add_lines(B3Obj *o, const B3Proc *p, B3SectionId sec, uint64_t text_offset, uint64_t code_size,
                      uint64_t size, B3LineRows *rows) {
    struct B3DebugInfo *d = o->debug;
    if (!d || !code_size) {
        b3_line_rows_free(rows);
        return;
    }
    B3_VEC_RESERVE("debug info", d->procs, d->cap_procs, d->nprocs + 1);
    uint32_t decl_line = p && p->loc.line ? p->loc.line : 1;
    uint32_t decl_file = p && p->loc.line ? p->loc.file : 0;
    /* Rows past the instructions (the last insts emitted nothing) cover no code. */
    while (rows->n && rows->v[rows->n - 1].offset >= code_size)
        rows->n--;
    /* Every byte of the sequence has a line: the first row is at offset 0 (the
     * prologue normally is; otherwise the procedure's line stands in). */
    if (!rows->n || rows->v[0].offset != 0) {
        B3_VEC_RESERVE("debug info", rows->v, rows->cap, rows->n + 1);
        memmove(rows->v + 1, rows->v, rows->n * sizeof *rows->v);
        rows->v[0] = (B3LineRow){
            .offset = 0, .line = decl_line, .col = p ? p->loc.col : 0, .file = decl_file, .prologue = true};
        rows->n++;
    }
    d->procs[d->nprocs++] = (DebugProc){
        .decl_line = decl_line,
        .decl_file = decl_file,
        .section = (uint8_t)sec,
        .start = text_offset,
        .code_size = code_size,
        .size = size,
        .rows = rows->v,
        .nrows = rows->n,
    };
    memset(rows, 0, sizeof *rows); /* the procedure owns the array now */
}

const char *b3_obj_debug_file(const B3Obj *o, uint32_t k) {
    return o->debug && k < o->debug->nfiles ? o->debug->files[k] : NULL;
}

bool b3_obj_debug_rows(const B3Obj *o, uint32_t i, B3SectionId *sec, uint64_t *start, const B3LineRow **rows,
                       uint32_t *n) {
    if (!o->debug || i >= o->debug->nprocs)
        return false;
    *sec = (B3SectionId)o->debug->procs[i].section;
    *start = o->debug->procs[i].start;
    *rows = o->debug->procs[i].rows;
    *n = o->debug->procs[i].nrows;
    return true;
}

void b3_obj_free_debug(B3Obj *o) {
    struct B3DebugInfo *d = o->debug;
    if (!d)
        return;
    for (uint32_t i = 0; i < d->nprocs; i++)
        free(d->procs[i].rows);
    free(d->procs);
    for (uint32_t k = 0; k < d->nfiles; k++)
        free(d->files[k]);
    free(d->files);
    free(d->comp_dir);
    free(d);
    o->debug = NULL;
}

static void put_str(B3Bytes *b, const char *s, size_t n) {
    b3_bytes_append(b, s, n);
    b3_bytes_le(b, 0, 1);
}

/* A relocation in section s at offset `at` against section target + addend. */
static void reloc_to_section(B3Obj *o, B3SectionId s, uint64_t at, B3RelocKind kind, B3SectionId target,
                             int64_t addend) {
    b3_obj_reloc(o, s, at, kind, NULL, addend);
    o->relocs[o->nrelocs - 1].local_section = (int16_t)target;
}

/* ---- .debug_abbrev ------------------------------------------------------------------- */

/* One attribute of an abbreviation: its name and form. */
typedef struct {
    unsigned at, form;
} AttrSpec;

static void abbrev(B3Bytes *b, unsigned code, unsigned tag, bool children, const AttrSpec *attrs,
                   unsigned n) {
    b3_bytes_uleb(b, code);
    b3_bytes_uleb(b, tag);
    b3_bytes_le(b, children ? DW_CHILDREN_yes : DW_CHILDREN_no, 1);
    for (unsigned i = 0; i < n; i++) {
        b3_bytes_uleb(b, attrs[i].at);
        b3_bytes_uleb(b, attrs[i].form);
    }
    b3_bytes_le(b, 0, 2); /* the attribute list's end */
}

/* The code sections with bytes, .text first, in *code; their count. */
static uint32_t code_sections(const B3Obj *o, B3SectionId *code) {
    uint32_t n = 0;
    if (o->sec[B3Sec_Text].size)
        code[n++] = B3Sec_Text;
    for (uint32_t k = 0; k < o->nnamed; k++)
        if (o->named[k].code && o->sec[B3Sec_Named0 + k].size)
            code[n++] = (B3SectionId)(B3Sec_Named0 + k);
    return n;
}

/* Does the compile unit list its code as ranges: is code in a section
 * other than .text? */
static bool cu_ranges(const B3Obj *o) {
    B3SectionId code[1 + B3_MAX_NAMED_SECTIONS];
    uint32_t n = code_sections(o, code);
    return n > 1 || (n == 1 && code[0] != B3Sec_Text);
}

static void emit_abbrev(B3Obj *o) {
    B3Bytes b = {0};
    /* The order emit_info writes them in; low_pc/high_pc last, so that the
     * variant without code is a prefix. */
    static const AttrSpec cu[] = {
        {DW_AT_producer, DW_FORM_string}, {DW_AT_language, DW_FORM_data2},       {DW_AT_name, DW_FORM_string},
        {DW_AT_comp_dir, DW_FORM_string}, {DW_AT_stmt_list, DW_FORM_sec_offset}, {DW_AT_low_pc, DW_FORM_addr},
        {DW_AT_high_pc, DW_FORM_data4},
    };
    /* DW_AT_external last: the internal variant is a prefix. */
    static const AttrSpec sub[] = {
        {DW_AT_name, DW_FORM_string},           {DW_AT_decl_file, DW_FORM_data1},
        {DW_AT_decl_line, DW_FORM_udata},       {DW_AT_low_pc, DW_FORM_addr},
        {DW_AT_high_pc, DW_FORM_data4},         {DW_AT_frame_base, DW_FORM_exprloc},
        {DW_AT_external, DW_FORM_flag_present},
    };
    abbrev(&b, Abbrev_CU, DW_TAG_compile_unit, true, cu, 7);
    abbrev(&b, Abbrev_CUNoCode, DW_TAG_compile_unit, true, cu, 5); /* without low_pc/high_pc */
    abbrev(&b, Abbrev_Subprogram, DW_TAG_subprogram, false, sub, 7);
    abbrev(&b, Abbrev_SubprogramLocal, DW_TAG_subprogram, false, sub, 6); /* internal: not external */
    /* Code in more than one section: low_pc 0 (the base of the ranges'
     * absolute addresses) and the list in .debug_ranges. */
    static const AttrSpec cu_ranges_attrs[] = {
        {DW_AT_producer, DW_FORM_string}, {DW_AT_language, DW_FORM_data2},       {DW_AT_name, DW_FORM_string},
        {DW_AT_comp_dir, DW_FORM_string}, {DW_AT_stmt_list, DW_FORM_sec_offset}, {DW_AT_low_pc, DW_FORM_addr},
        {DW_AT_ranges, DW_FORM_sec_offset},
    };
    if (cu_ranges(o)) /* only then: the objects without stay as they were */
        abbrev(&b, Abbrev_CURanges, DW_TAG_compile_unit, true, cu_ranges_attrs, 7);
    b3_bytes_le(&b, 0, 1);
    b3_obj_emit(o, B3Sec_DebugAbbrev, b.b, b.n);
    b3_bytes_free(&b);
}

/* ---- .debug_info ---------------------------------------------------------------------- */

/* A subprogram: the symbol defined at the start of a code range. */
typedef struct {
    const B3Symbol *sym;
    uint32_t decl_line, decl_file;
    uint64_t start, size;
    uint8_t section;
} Subprogram;

static int def_cmp(const void *pa, const void *pb) {
    const B3SymDef *a = *(const B3SymDef *const *)pa, *b = *(const B3SymDef *const *)pb;
    if (a->section != b->section)
        return a->section < b->section ? -1 : 1;
    if (a->offset != b->offset)
        return a->offset < b->offset ? -1 : 1;
    /* At one offset the procedure's own symbol first, then by id (deterministic). */
    if ((a->sym->kind == B3Sym_Proc) != (b->sym->kind == B3Sym_Proc))
        return a->sym->kind == B3Sym_Proc ? -1 : 1;
    return a->sym->id < b->sym->id ? -1 : a->sym->id > b->sym->id;
}

/* The subprograms of the procedures: one per entry region, as the unwind
 * information has them (codegen/emit.c, the emission driver): from the
 * prologue of an entry to the next entry's in the code, the last to the
 * procedure's end (its jump tables included); the first from the
 * procedure's start.  Sibling subprograms must not overlap (a debugger
 * picks the innermost), so entries sharing a prologue get one subprogram,
 * named by the procedure's symbol if it is one of them.  Returns how many
 * were put in *out (the caller frees it). */
static uint32_t subprograms(const B3Obj *o, Subprogram **out) {
    const struct B3DebugInfo *d = o->debug;
    const B3SymDef **defs = b3_xrealloc("debug info", NULL, (o->ndefs + 1) * sizeof *defs);
    uint32_t ndefs = 0;
    for (uint32_t i = 0; i < o->ndefs; i++)
        if (b3_obj_sec_is_code(o, (B3SectionId)o->defs[i].section) && o->defs[i].is_func)
            defs[ndefs++] = &o->defs[i];
    if (ndefs)
        qsort(defs, ndefs, sizeof *defs, def_cmp);
    Subprogram *v = b3_xrealloc("debug info", NULL, (ndefs + 1) * sizeof *v);
    uint32_t n = 0;
    for (uint32_t i = 0; i < d->nprocs; i++) {
        const DebugProc *p = &d->procs[i];
        uint64_t end = p->start + p->size;
        /* The first definition at or after the procedure's start in its section. */
        uint32_t k = 0, hi = ndefs;
        while (k < hi) {
            uint32_t mid = k + (hi - k) / 2;
            if (defs[mid]->section < p->section ||
                (defs[mid]->section == p->section && defs[mid]->offset < p->start))
                k = mid + 1;
            else
                hi = mid;
        }
        bool any = false;
        uint64_t last_def = 0;
        for (; k < ndefs && defs[k]->section == p->section && defs[k]->offset < end; k++) {
            if (any && defs[k]->offset == last_def)
                continue; /* the same prologue as the entry before */
            if (any)
                v[n - 1].size = defs[k]->offset - v[n - 1].start;
            uint64_t at = any ? defs[k]->offset : p->start;
            v[n++] = (Subprogram){defs[k]->sym, p->decl_line, p->decl_file, at, end - at, p->section};
            any = true;
            last_def = defs[k]->offset;
        }
    }
    free(defs);
    *out = v;
    return n;
}

static void emit_info(B3Obj *o) {
    const struct B3DebugInfo *d = o->debug;
    uint64_t text_size = o->sec[B3Sec_Text].size;
    Subprogram *subs;
    uint32_t nsubs = subprograms(o, &subs);
    B3Bytes b = {0};
    b3_bytes_le(&b, 0, 4); /* unit_length, patched below */
    b3_bytes_le(&b, 4, 2); /* version */
    size_t abbrev_at = b.n;
    b3_bytes_le(&b, 0, 4); /* debug_abbrev_offset */
    b3_bytes_le(&b, 8, 1); /* address_size */

    /* Procedures in sections of their own: the compile unit's code is a
     * list of ranges, each a whole code section. */
    B3SectionId code[1 + B3_MAX_NAMED_SECTIONS];
    uint32_t ncode = code_sections(o, code);
    bool ranges = cu_ranges(o);
    b3_bytes_uleb(&b, ranges ? Abbrev_CURanges : text_size ? Abbrev_CU : Abbrev_CUNoCode);
    static const char producer[] = "b3c " B3C_VERSION;
    put_str(&b, producer, sizeof producer - 1);
    b3_bytes_le(&b, DW_LANG_Mips_Assembler, 2);
    put_str(&b, d->files[0], strlen(d->files[0]));
    put_str(&b, d->comp_dir, strlen(d->comp_dir));
    size_t stmt_at = b.n;
    b3_bytes_le(&b, 0, 4);
    size_t *addr_at = b3_xrealloc("debug info", NULL, (nsubs + 1) * sizeof *addr_at);
    uint64_t *addr_val = b3_xrealloc("debug info", NULL, (nsubs + 1) * sizeof *addr_val);
    uint32_t naddr = 0;
    size_t ranges_at = 0;
    if (ranges) {
        b3_bytes_le(&b, 0, 8); /* low_pc: the ranges' addresses are absolute */
        ranges_at = b.n;
        b3_bytes_le(&b, 0, 4);
    } else if (text_size) {
        /* The whole of .text: every procedure, its jump tables and the padding. */
        addr_at[naddr] = b.n;
        addr_val[naddr++] = 0;
        b3_bytes_le(&b, 0, 8);
        b3_bytes_le(&b, text_size, 4);
    }
    for (uint32_t i = 0; i < nsubs; i++) {
        const Subprogram *p = &subs[i];
        b3_bytes_uleb(&b, p->sym->internal ? Abbrev_SubprogramLocal : Abbrev_Subprogram);
        /* A name holding a NUL byte cannot be written to ELF at all (elf.c says so). */
        const char *nul = memchr(p->sym->name, 0, p->sym->name_len);
        put_str(&b, p->sym->name, nul ? (size_t)(nul - p->sym->name) : p->sym->name_len);
        b3_bytes_le(&b, p->decl_file + 1, 1); /* decl_file: the line table's number */
        b3_bytes_uleb(&b, p->decl_line);
        addr_at[naddr] = b.n;
        addr_val[naddr++] = p->start;
        b3_bytes_le(&b, 0, 8);
        b3_bytes_le(&b, p->size, 4);
        b3_bytes_uleb(&b, 1); /* frame_base: a one-byte expression */
        b3_bytes_le(&b, DW_OP_call_frame_cfa, 1);
    }
    b3_bytes_le(&b, 0, 1); /* the compile unit's children end */
    b3_bytes_set_le(&b, 0, (uint32_t)(b.n - 4), 4);

    uint64_t base = b3_obj_emit(o, B3Sec_DebugInfo, b.b, b.n);
    reloc_to_section(o, B3Sec_DebugInfo, base + abbrev_at, B3Reloc_Abs32, B3Sec_DebugAbbrev, 0);
    reloc_to_section(o, B3Sec_DebugInfo, base + stmt_at, B3Reloc_Abs32, B3Sec_DebugLine, 0);
    /* addr_at[0] is the compile unit's .text when there are no ranges. */
    for (uint32_t i = 0; i < naddr; i++)
        reloc_to_section(o, B3Sec_DebugInfo, base + addr_at[i], B3Reloc_Abs64,
                         i < naddr - nsubs ? B3Sec_Text : (B3SectionId)subs[i - (naddr - nsubs)].section,
                         (int64_t)addr_val[i]);
    if (ranges) {
        reloc_to_section(o, B3Sec_DebugInfo, base + ranges_at, B3Reloc_Abs32, B3Sec_DebugRanges, 0);
        /* .debug_ranges: each code section's start and end, then the end of the list. */
        B3Bytes r = {0};
        for (uint32_t i = 0; i < 2 * ncode + 2; i++)
            b3_bytes_le(&r, 0, 8);
        uint64_t rbase = b3_obj_emit(o, B3Sec_DebugRanges, r.b, r.n);
        for (uint32_t i = 0; i < ncode; i++) {
            reloc_to_section(o, B3Sec_DebugRanges, rbase + 16 * i, B3Reloc_Abs64, code[i], 0);
            reloc_to_section(o, B3Sec_DebugRanges, rbase + 16 * i + 8, B3Reloc_Abs64, code[i],
                             (int64_t)o->sec[code[i]].size);
        }
        b3_bytes_free(&r);
    }
    free(addr_at);
    free(addr_val);
    free(subs);
    b3_bytes_free(&b);
}

/* ---- .debug_line ------------------------------------------------------------------------ */

/* The registers the line program has set so far in the current sequence. */
typedef struct {
    uint64_t addr;
    uint32_t line, col, file;
} LineState;

/* Appends a row at `addr`, `line`: a special opcode when the deltas fit one. */
static void line_row(B3Bytes *b, LineState *st, uint64_t addr, uint32_t line) {
    int64_t dline = (int64_t)line - (int64_t)st->line;
    uint64_t daddr = addr - st->addr;
    if (dline < LineBase || dline >= LineBase + LineRange) {
        b3_bytes_le(b, DW_LNS_advance_line, 1);
        b3_bytes_sleb(b, dline);
        dline = 0;
    }
    uint64_t special = (uint64_t)(dline - LineBase) + (uint64_t)LineRange * daddr + OpcodeBase;
    if (daddr <= 255 && special <= 255) {
        b3_bytes_le(b, special, 1);
    } else {
        if (daddr) {
            b3_bytes_le(b, DW_LNS_advance_pc, 1);
            b3_bytes_uleb(b, daddr);
        }
        if (dline) {
            b3_bytes_le(b, DW_LNS_advance_line, 1);
            b3_bytes_sleb(b, dline);
        }
        b3_bytes_le(b, DW_LNS_copy, 1);
    }
    st->addr = addr;
    st->line = line;
}

static void emit_line(B3Obj *o) {
    const struct B3DebugInfo *d = o->debug;
    B3Bytes b = {0};
    b3_bytes_le(&b, 0, 4); /* unit_length, patched below */
    b3_bytes_le(&b, 4, 2); /* version */
    size_t header_length_at = b.n;
    b3_bytes_le(&b, 0, 4); /* header_length, patched below */
    b3_bytes_le(&b, 1, 1); /* minimum_instruction_length */
    b3_bytes_le(&b, 1, 1); /* maximum_operations_per_instruction */
    b3_bytes_le(&b, 1, 1); /* default_is_stmt */
    b3_bytes_le(&b, (uint8_t)(int8_t)LineBase, 1);
    b3_bytes_le(&b, LineRange, 1);
    b3_bytes_le(&b, OpcodeBase, 1);
    static const uint8_t std_lengths[OpcodeBase - 1] = {0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1};
    b3_bytes_append(&b, std_lengths, sizeof std_lengths);
    b3_bytes_le(&b, 0, 1); /* include_directories: none besides comp_dir */
    for (uint32_t k = 0; k < d->nfiles; k++) { /* file k + 1 */
        put_str(&b, d->files[k], strlen(d->files[k]));
        b3_bytes_uleb(&b, 0); /* directory: comp_dir (or the name is absolute) */
        b3_bytes_uleb(&b, 0); /* mtime: unknown */
        b3_bytes_uleb(&b, 0); /* length: unknown */
    }
    b3_bytes_le(&b, 0, 1); /* file_names end */
    b3_bytes_set_le(&b, header_length_at, (uint32_t)(b.n - header_length_at - 4), 4);

    size_t *set_at = b3_xrealloc("debug info", NULL, (d->nprocs ? d->nprocs : 1) * sizeof *set_at);
    for (uint32_t i = 0; i < d->nprocs; i++) {
        const DebugProc *p = &d->procs[i];
        /* A sequence starts from the initial registers: address 0, line 1, column 0. */
        LineState st = {.addr = 0, .line = 1, .col = 0, .file = 0};
        b3_bytes_le(&b, 0, 1);
        b3_bytes_uleb(&b, 9);
        b3_bytes_le(&b, DW_LNE_set_address, 1);
        set_at[i] = b.n;
        b3_bytes_le(&b, 0, 8);
        for (uint32_t r = 0; r < p->nrows; r++) {
            const B3LineRow *row = &p->rows[r];
            if (row->file != st.file) {
                b3_bytes_le(&b, DW_LNS_set_file, 1);
                b3_bytes_uleb(&b, row->file + 1);
                st.file = row->file;
            }
            if (row->col != st.col) {
                b3_bytes_le(&b, DW_LNS_set_column, 1);
                b3_bytes_uleb(&b, row->col);
                st.col = row->col;
            }
            /* The first row after a prologue is where a debugger's breakpoint on the function goes. */
            if (!row->prologue && r > 0 && p->rows[r - 1].prologue)
                b3_bytes_le(&b, DW_LNS_set_prologue_end, 1);
            line_row(&b, &st, row->offset, row->line);
        }
        if (p->code_size > st.addr) {
            b3_bytes_le(&b, DW_LNS_advance_pc, 1);
            b3_bytes_uleb(&b, p->code_size - st.addr);
        }
        b3_bytes_le(&b, 0, 1);
        b3_bytes_uleb(&b, 1);
        b3_bytes_le(&b, DW_LNE_end_sequence, 1);
    }
    b3_bytes_set_le(&b, 0, (uint32_t)(b.n - 4), 4);

    uint64_t base = b3_obj_emit(o, B3Sec_DebugLine, b.b, b.n);
    for (uint32_t i = 0; i < d->nprocs; i++)
        reloc_to_section(o, B3Sec_DebugLine, base + set_at[i], B3Reloc_Abs64, (B3SectionId)d->procs[i].section,
                         (int64_t)d->procs[i].start);
    free(set_at);
    b3_bytes_free(&b);
}

void b3_obj_emit_debug(B3Obj *o) {
    if (!o->debug)
        return;
    emit_abbrev(o);
    emit_line(o);
    emit_info(o);
}
