/* What the targets' low-level assemblers (codegen/x86_64/asm.h,
 * codegen/arm64/asm.h) share: the code buffer, labels with their pending
 * references (each label keeps its own list, patched when it is bound),
 * symbol relocations, the listing's line ends and the branch-relaxation
 * marks.  How a label reference is encoded stays the target's: it gives
 * the buffer a `resolve` callback and its own fixup kinds.
 *
 * Each assembler struct (X86Asm, Arm64Asm) starts with these fields through
 * B3_ASM_BUFFER_MEMBERS: by name (a->len, a->listing) in its own code, and
 * as a B3AsmBuffer (&a->buffer) for the functions here. */
#ifndef B3_ASM_BUFFER_H
#define B3_ASM_BUFFER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "objwriter/obj.h"

/* A relocation against a symbol, at a buffer offset. */
typedef struct {
    uint32_t offset;
    uint8_t kind; /* B3RelocKind */
    B3Symbol *sym;
    int64_t addend;
} B3AsmReloc;

/* A label reference: the field at pos, of the target's kind, gets
 * label + addend - pc. */
typedef struct {
    uint32_t pos, label;
    int64_t pc;
    int32_t addend;
    uint8_t kind;    /* the target's: x86 the field's size, arm64 an Arm64FixKind */
    uint32_t next;   /* the label's next pending reference + 1, or 0 */
    uint32_t branch; /* a relaxable branch's number + 1 (B3AsmRelax), or 0 */
} B3AsmFixup;

/* Branch relaxation, as an assembler does it: the caller assembles its code
 * in passes with the same B3AsmRelax.  Every relaxable branch to a label
 * (numbered in the order assembled) starts short; one whose target turns out
 * out of range is marked long and `again` is set, and the caller assembles
 * once more with a fresh assembler.  Marks only grow, so the passes end. */
typedef struct {
    uint8_t *is_long; /* per branch number */
    uint32_t n, cap;
    bool again; /* a branch was marked long in this pass */
} B3AsmRelax;
void b3_asm_relax_free(B3AsmRelax *r);
/* Whether branch k is long (marks of branches not seen yet start short). */
bool b3_asm_relax_is_long(B3AsmRelax *r, uint32_t k);

struct B3AsmBuffer;
/* Patches the field of a reference whose label is bound (the target's encoding). */
typedef void B3AsmResolve(struct B3AsmBuffer *b, const B3AsmFixup *f);

#define B3_ASM_BUFFER_MEMBERS                                                                              \
    const char *phase; /* the internal errors' name for the assembler */                                   \
    B3AsmResolve *resolve;                                                                                 \
    uint8_t *buf;                                                                                          \
    uint32_t len, cap;                                                                                     \
    int64_t *label_pos; /* -1 while unbound */                                                             \
    uint32_t nlabels, cap_labels;                                                                          \
    B3AsmFixup *fixups; /* references made while their label was unbound */                                \
    uint32_t nfixups, cap_fixups;                                                                          \
    uint32_t *label_fixups; /* per label: its last pending reference + 1, or 0 */                          \
    uint32_t cap_label_fixups;                                                                             \
    uint32_t npending; /* fixups not yet resolved */                                                       \
    B3AsmReloc *relocs;                                                                                    \
    uint32_t nrelocs, cap_relocs;                                                                          \
    FILE *listing;            /* optional: every instruction's text */                                     \
    const char *label_prefix; /* listing label names; default ".L" */                                      \
    uint32_t *listing_end;    /* per listing line: the buffer length after it (-S places symbols by it) */ \
    uint32_t nlisting_lines, cap_listing_lines;                                                            \
    /* Optional, for -S: prints a symbol operand referenced by a relocation of `kind`. */                  \
    void (*listing_sym)(void *ctx, FILE *f, const B3Symbol *sym, B3RelocKind kind);                        \
    void *listing_ctx;                                                                                     \
    bool listing_p2align; /* alignment padding as .p2align (the listing is assembled as a whole) */        \
    /* -fverbose-asm: the comment leader ("#", "//"), or NULL; the B3 value last named in a comment. */    \
    const char *listing_comment;                                                                           \
    const void *listing_origin;

typedef struct B3AsmBuffer {
    B3_ASM_BUFFER_MEMBERS
} B3AsmBuffer;

/* Starts an empty buffer (everything zero). */
void b3_asm_buffer_init(B3AsmBuffer *b, const char *phase, B3AsmResolve *resolve);
void b3_asm_buffer_free(B3AsmBuffer *b);
/* Grows an array of elem-sized items to hold need of them (doubling); an
 * internal error of `phase` when out of memory. */
void *b3_asm_grow(const char *phase, void *p, uint32_t *cap, size_t elem, uint32_t need);
/* Little-endian words. */
void b3_asm_put32(B3AsmBuffer *b, uint32_t v);
uint32_t b3_asm_get32(const B3AsmBuffer *b, uint32_t pos);
void b3_asm_patch32(B3AsmBuffer *b, uint32_t pos, uint32_t v);

uint32_t b3_asm_label_new(B3AsmBuffer *b);
/* Binds the label here (listed as "<label>:"), resolving its pending references. */
void b3_asm_bind(B3AsmBuffer *b, uint32_t label);
/* A reference to f.label: resolved now if the label is bound, else when it is. */
void b3_asm_label_ref(B3AsmBuffer *b, B3AsmFixup f);
/* Internal error if a label is referenced but was never bound. */
void b3_asm_check_labels(const B3AsmBuffer *b);
void b3_asm_reloc(B3AsmBuffer *b, uint32_t offset, B3RelocKind kind, B3Symbol *sym, int64_t addend);

/* -S: does a non-mask immediate of this magnitude read better in hex?
 * When it is at least 0x100 and its hex digits other than 0 and f are at
 * most one (0x100, 0x7fffffff, 0xff00ff00, 0x80000000; not 1000 = 0x3e8):
 * docs/backend.md, "Debug information and readable -S". */
bool b3_asm_imm_reads_hex(uint64_t magnitude);

/* The listing: a label's name, and the end of a line (it lists the bytes up
 * to the current length, so an instruction is listed after it is put). */
void b3_asm_list_label(B3AsmBuffer *b, uint32_t label);
void b3_asm_list_end(B3AsmBuffer *b);

#endif
