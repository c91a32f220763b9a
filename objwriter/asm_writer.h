/* Assembly output (-S, --emit=asm): GNU assembler text for ELF that the
 * target's GNU as (`cc -c`) and `llvm-mc -filetype=obj` assemble into an
 * object equivalent to the one b3_write_elf writes from the same B3Obj;
 * for the Apple targets, text in Apple's assembler syntax (Mach-O
 * sections, `_` and `L` prefixes, .alt_entry) that llvm-mc assembles into
 * the one b3_write_macho writes (docs/backend.md, "Mach-O").
 * This writer is the target-neutral part (sections, symbols, data,
 * .llvm_stackmaps); the instructions and what else is the target's own
 * syntax come from the target (B3AsmSyntax; codegen/x86_64/listing.c,
 * codegen/arm64/asm_writer.c), reached through B3Backend.write_asm.
 *
 * The backend fills the B3Obj as for an object file; in addition each
 * procedure's instruction text (its assembler's listing, with the .text
 * offset where each line's bytes end) is collected in a B3AsmText hung on
 * B3Obj.asm_text.  b3_write_asm then prints the
 * sections from the B3Obj: symbols and their sizes from its definitions,
 * labels wherever the other sections need a code address (stackmap
 * records), data items from the module, and the .llvm_stackmaps section
 * with its code offsets as label differences, so the assembler may relax
 * branches (docs/backend.md, "Assembly output"). */
#ifndef B3_ASM_WRITER_H
#define B3_ASM_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "objwriter/obj.h"

typedef struct B3AsmText B3AsmText;

/* exact: keep every jump's encoded size ({disp32}), so that the assembled
 * object is byte for byte the one --emit=obj writes (--asm-exact); verbose:
 * -fverbose-asm. */
B3AsmText *b3_asm_text_new(bool exact, bool verbose);
void b3_asm_text_free(B3AsmText *t);
bool b3_asm_text_exact(const B3AsmText *t);
/* -fverbose-asm: the listings hold comment lines naming each instruction's
 * B3 value (codegen/emit.h, b3_emit_listing_origin). */
bool b3_asm_text_verbose(const B3AsmText *t);
/* Numbers the next procedure (its local labels are .LBB<k>_<n>). */
uint32_t b3_asm_text_next_proc(B3AsmText *t);
/* A procedure's code: size bytes at offset start of code section sec
 * (aligned to align, 16 or more), listed by text
 * (lines ending in '\n'); line_end[i] is the offset from start where the
 * bytes of line i end (a label's or directive's own offset when it has none). */
void b3_asm_text_add_proc(B3AsmText *t, B3SectionId sec, uint64_t start, uint64_t size, uint32_t align,
                          const char *text, size_t len, const uint32_t *line_end, uint32_t nlines);

/* The name pre + sym + post, quoted if `quote` or unless every character is
 * plain (a leading digit or '$' is quoted too), then the relocation variant
 * (such as x86's @PLT) if any: how a listing prints a symbol operand. */
void b3_asm_print_name(FILE *f, const char *pre, const B3Symbol *s, const char *post, const char *variant,
                       bool quote);
/* How the target's assembler spells a symbol and a local label: Mach-O
 * puts '_' before every symbol and calls labels that stay out of the
 * symbol table L..., ELF .L... */
const char *b3_asm_sym_prefix(B3Target t);
const char *b3_asm_local_prefix(B3Target t);

/* Does a reference of `kind` to sym name its local alias (.Lname$local)?
 * The object writer binds a PC-relative address of a global function of
 * this module to its definition (elf.c, bind_locally); the alias, a local
 * label at the same place, makes the assembler do the same.  The writer
 * defines the alias of every symbol that some relocation needs it for. */
bool b3_asm_uses_local_alias(const B3Obj *o, const B3Symbol *sym, B3RelocKind kind);

/* What differs between the targets' GNU as syntaxes, beyond the
 * instructions (the listings). */
typedef struct B3AsmSyntax {
    /* The comment that may end a line ("#" on x86-64, "//" on AArch64). */
    const char *comment;
    /* Prints what puts the next procedure at its .text offset: `pad` bytes
     * of the description's code_pad_byte in the object (0 at the section's
     * start) up to the boundary of align bytes (16 or more). */
    void (*proc_align)(FILE *f, uint64_t pad, uint32_t align);
    /* How .cfi_* directives name a register (NULL: the target prints none). */
    const char *(*cfi_reg_name)(B3Reg r);
    /* Mach-O: is an entry of a procedure `_e = Lalt_entryN + 0` (arm64)
     * rather than the alias `_e = Lalt_entryN` (x86-64)?  llvm-mc for arm64
     * resolves a call to an alias of a local label in place even from
     * another atom (which the linker may move apart); the sum is no alias,
     * so it keeps that call's relocation as b3c's object does. */
    bool macho_entry_sum;
} B3AsmSyntax;

/* Writes o (which must have asm_text) as assembly to f in the target's
 * syntax.  Returns false (after printing why) when the output cannot
 * express it, such as a symbol name the assembler cannot spell. */
bool b3_write_asm(B3Obj *o, FILE *f, const B3AsmSyntax *syntax);

#endif
