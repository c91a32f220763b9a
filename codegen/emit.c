/* What every target's emitter shares (codegen/emit.h): the emission driver
 * and the -S listing. */
#include "codegen/emit.h"

#include <stdlib.h>
#include <string.h>

#include "ir/ice.h"
#include "objwriter/asm_writer.h"
#include "objwriter/dwarf.h"
#include "objwriter/frame.h"
#include "util/alloc.h"
#include "util/vec.h"

/* The entry blocks of c: a calloc'd flag per block (every entry block gets
 * the same prologue). */
static uint8_t *entry_flags(const AirCode *c) {
    uint8_t *is_entry = b3_xcalloc("emitter", c->nblocks, 1);
    for (uint32_t k = 0; k < (c->nentries ? c->nentries : 1); k++)
        is_entry[air_entry_block(c, k)->index] = 1;
    return is_entry;
}

/* Defines c's procedure symbol and its other entrypoints in its code section sec, each at
 * its entry's prologue (prologue_at[block], relative to start) and sized to
 * the end of the code (start + len).  The procedure's own symbol is the entry
 * listed as it in entrypoints(...), else entry 0, so references resolve. */
static void define_entries(const AirCode *c, B3Obj *o, B3SectionId sec, uint64_t start, uint64_t len,
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
        b3_obj_define(o, p->sym, sec, start + off, len - off, true);
    }
    for (uint32_t i = 0; i < p->nentrypoints; i++)
        if (p->entrypoints[i] && p->entrypoints[i] != p->sym) {
            uint64_t off = prologue_at[air_entry_block(c, i)->index];
            b3_obj_define(o, p->entrypoints[i], sec, start + off, len - off, true);
        }
}

static int cmp_u64(const void *pa, const void *pb) {
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

/* Hands the frame description f (offsets from an entry) to o once per
 * entry region: from each entry's prologue to the next one in the code, or
 * to the end (start + len); entries sharing a block share a region. */
static void add_frames(const AirCode *c, B3Obj *o, B3SectionId sec, uint64_t start, uint64_t len,
                       const uint64_t *prologue_at, const B3Frame *f) {
    uint32_t n = c->nentries ? c->nentries : 1, k = 0;
    uint64_t *at = b3_xmalloc("emitter", n * sizeof *at);
    for (uint32_t i = 0; i < n; i++)
        at[i] = prologue_at[air_entry_block(c, i)->index];
    qsort(at, n, sizeof *at, cmp_u64);
    for (uint32_t i = 0; i < n; i++)
        if (!k || at[k - 1] != at[i])
            at[k++] = at[i];
    for (uint32_t i = 0; i < k; i++)
        b3_obj_add_frame(o, f, sec, start, at[i], (i + 1 < k ? at[i + 1] : len) - at[i]);
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

/* After the procedure's bytes went to .text at start. */
static void listing_end(B3EmitListing *l, B3AsmBuffer *b, B3Obj *o, B3SectionId sec, uint64_t start,
                        uint32_t align) {
    if (!o->asm_text)
        return;
    if (fclose(b->listing) != 0)
        b3_internal_error(b->phase, "cannot collect the listing");
    b->listing = NULL;
    b3_asm_text_add_proc(o->asm_text, sec, start, b->len, align, l->text, l->len, b->listing_end,
                         b->nlisting_lines);
    free(l->text);
    l->text = NULL;
}

/* ---- what every emitter holds ---- */

void b3_emitter_init(B3Emitter *e, AirCode *c, B3AsmBuffer *buf) {
    e->c = c;
    e->buf = buf;
    e->block_label = b3_xmalloc("emitter", (c->nblocks ? c->nblocks : 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < c->nblocks; i++)
        e->block_label[i] = b3_asm_label_new(buf);
}

void b3_emitter_free(B3Emitter *e) {
    free(e->block_label);
    free(e->tables);
    b3_stackmap_list_free(&e->stackmaps);
    memset(e, 0, sizeof *e);
}

/* Blocks with the same successors have the same table (copies of one
 * dispatch, air_duplicate_dispatch): laid out once. */
static bool same_succs(const AirBlock *a, const AirBlock *b) {
    if (a->nsuccs != b->nsuccs)
        return false;
    for (uint32_t i = 0; i < a->nsuccs; i++)
        if (a->succs[i].block != b->succs[i].block)
            return false;
    return true;
}

uint32_t b3_emit_jump_table_new(B3Emitter *e, AirBlock *b) {
    for (uint32_t i = 0; i < e->ntables; i++)
        if (same_succs(e->tables[i].block, b))
            return e->tables[i].label;
    B3_VEC_RESERVE("emitter", e->tables, e->cap_tables, e->ntables + 1);
    uint32_t label = b3_asm_label_new(e->buf);
    e->tables[e->ntables++] = (B3EmitJumpTable){label, b};
    return label;
}

/* ---- the driver ---- */

/* Whether the code of block p, laid out right before b, can run on into b's
 * start (it does not end in a jump elsewhere, a return or a trap). */
static bool falls_into(const AirBlock *p, const AirBlock *b) {
    if (!p->ninsts)
        return true;
    const AirInst *last = &p->insts[p->ninsts - 1];
    if (!air_is_terminal((AirOpcode)last->opcode))
        return true;
    if (!p->nsuccs)
        return false;
    return !(last->opcode == Air_Jump && p->succs[0].block != b);
}

/* Whether block i is laid out after code that cannot run on into it. */
static bool jumped_loop(const AirCode *c, uint32_t i) {
    return i > 0 && !falls_into(c->blocks[i - 1], c->blocks[i]);
}

/* The procedure's start: 16 bytes, or the alignment of a loop header the
 * code before jumps past, which is only as aligned as that. */
static uint32_t proc_align(const B3EmitTarget *t, const AirCode *c, const uint8_t *is_entry) {
    uint32_t align = 16;
    for (uint32_t i = 0; t->loop_header && i < c->nblocks; i++)
        if (c->blocks[i]->loop_header && !is_entry[c->blocks[i]->index] && jumped_loop(c, i) &&
            t->jumped_loop_align > align)
            align = t->jumped_loop_align;
    return align;
}

/* One pass over the procedure: the body (a prologue before each entry
 * block), then the jump tables.  Returns the size of the code before the
 * tables; prologue_at[block] gets each entry block's prologue offset and
 * lines (when not NULL) the -g line rows. */
static uint64_t emit_pass(const B3EmitTarget *t, B3Emitter *e, const uint8_t *is_entry, uint64_t *prologue_at,
                          B3LineRows *lines) {
    AirCode *c = e->c;
    B3AsmBuffer *a = e->buf;
    B3Proc *p = c->proc;
    for (uint32_t i = 0; i < c->nblocks; i++) {
        AirBlock *b = c->blocks[i];
        AirBlock *next = i + 1 < c->nblocks ? c->blocks[i + 1] : NULL;
        /* Entry blocks have no predecessors, so nothing falls or jumps into a prologue. */
        if (is_entry[b->index]) {
            prologue_at[b->index] = a->len;
            if (lines && p)
                b3_line_rows_note(lines, a->len, p->loc, true);
            t->prologue(e);
        } else if (b->loop_header && t->loop_header) {
            t->loop_header(e, jumped_loop(c, i) ? t->jumped_loop_align : 0);
        }
        b3_asm_bind(a, e->block_label[b->index]);
        b3_emit_listing_reset(a); /* each block names its first value */
        for (uint32_t j = 0; j < b->ninsts;) {
            if (lines && b->insts[j].origin)
                b3_line_rows_note(lines, a->len, b->insts[j].origin->loc, false);
            b3_emit_listing_origin(a, b->insts[j].origin);
            j += t->emit_insts(e, b, j, next);
        }
    }
    uint64_t code_size = a->len; /* the jump tables after it are data */
    t->jump_tables(e);
    b3_asm_check_labels(a);
    return code_size;
}

void b3_emit_proc(const B3EmitTarget *t, AirCode *c, B3Obj *o) {
    if (c->target.arch != t->arch)
        b3_internal_error(t->phase, "wrong target");
    B3Proc *p = c->proc;
    if (!c->nblocks)
        b3_internal_error(t->phase, "procedure has no blocks");
    /* prologue_at[block]: the offset of an entry block's prologue. */
    uint8_t *is_entry = entry_flags(c);
    uint64_t *prologue_at = b3_xcalloc(t->phase, c->nblocks, sizeof(uint64_t));

    /* Functions start 16-byte aligned or more (proc_align; the object pads
     * .text with the description's code_pad_byte), in .text or their own
     * section. */
    B3SectionId sec = b3_obj_code_section(o, p ? p->sym : NULL);
    uint32_t align = proc_align(t, c, is_entry);
    b3_obj_align(o, sec, align);

    /* Branch relaxation (codegen/asm_buffer.h): assemble until every short
     * branch reaches.  The passes before the last are trial runs, without
     * listing or line rows. */
    void *s = b3_xcalloc(t->phase, 1, t->state_size);
    B3Emitter *e;
    bool want_lines = o->debug != NULL, want_listing = o->asm_text != NULL;
    uint64_t code_size;
    B3Frame frame = {0};
    /* -g's line rows come with every pass, the last one's kept (a row is
     * a few words an instruction, where one more pass is the whole
     * encoding again). */
    B3LineRows lines = {0};
    for (;;) {
        b3_frame_reset(&frame);
        e = t->pass_begin(s, c, &frame);
        lines.n = 0;
        code_size = emit_pass(t, e, is_entry, prologue_at, want_lines ? &lines : NULL);
        if (!t->pass_again(s))
            break;
        t->pass_end(s);
    }
    /* The branch sizes are final: the last pass is the code, unless -S
     * wants its text, which one more pass (the same bytes) collects. */
    B3EmitListing listing; /* -S: the instruction text */
    if (want_listing) {
        t->pass_end(s);
        b3_frame_reset(&frame);
        e = t->pass_begin(s, c, &frame);
        t->listing_begin(e, &listing, o);
        lines.n = 0;
        code_size = emit_pass(t, e, is_entry, prologue_at, want_lines ? &lines : NULL);
        if (t->pass_again(s))
            b3_internal_error(t->phase, "branch relaxation did not settle");
    }

    B3AsmBuffer *a = e->buf;
    uint64_t start = b3_obj_emit(o, sec, a->buf, a->len);
    /* Instructions, then the jump tables (data), then the next procedure or
     * the padding (instructions again): ELF's mapping symbols where the
     * description wants them (AArch64's $x and $d). */
    b3_obj_mark_code(o, sec, start, false);
    if (a->len > code_size) {
        b3_obj_mark_code(o, sec, start + code_size, true);
        b3_obj_mark_code(o, sec, start + a->len, false);
    }
    if (want_listing)
        listing_end(&listing, a, o, sec, start, align);
    for (uint32_t i = 0; i < a->nrelocs; i++)
        b3_obj_reloc(o, sec, start + a->relocs[i].offset, (B3RelocKind)a->relocs[i].kind, a->relocs[i].sym,
                     a->relocs[i].addend);
    /* A frame that grows at run time has no fixed size: UINT64_MAX, as LLVM
     * writes for variable-sized objects. */
    b3_obj_add_stackmaps(o, sec, start,
                         c->dynamic_stack ? UINT64_MAX : c->frame_size + t->stackmap_stack_extra,
                         &e->stackmaps);
    if (want_lines)
        b3_obj_add_lines(o, p, sec, start, code_size, a->len, &lines);
    define_entries(c, o, sec, start, a->len, prologue_at);
    frame.compact = t->compact_unwind(&frame);
    b3_frame_epilogue_trim(&frame, (uint32_t)code_size);
    add_frames(c, o, sec, start, a->len, prologue_at, &frame);
    b3_frame_reset(&frame);
    free(is_entry);
    free(prologue_at);
    t->pass_end(s);
    t->relax_end(s);
    free(s);
}
