/* Assembly output (-S, --emit=asm): GNU assembler text, AT&T syntax, for
 * x86-64 ELF, that `cc -c` and `llvm-mc -filetype=obj` assemble into an
 * object equivalent to the one b3_write_elf writes from the same B3Obj.
 *
 * The backend fills the B3Obj as for an object file; in addition each
 * procedure's instruction text (the x86 assembler's listing, with the .text
 * offset where each line's bytes end) is collected in a B3AsmText hung on
 * B3Obj.asm_text (codegen/x86_64/listing.c).  b3_write_asm then prints the
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
 * object is byte for byte the one --emit=obj writes (--asm-exact). */
B3AsmText *b3_asm_text_new(bool exact);
void b3_asm_text_free(B3AsmText *t);
bool b3_asm_text_exact(const B3AsmText *t);
/* Numbers the next procedure (its local labels are .LBB<k>_<n>). */
uint32_t b3_asm_text_next_proc(B3AsmText *t);
/* A procedure's code: size bytes at .text offset start, listed by text
 * (lines ending in '\n'); line_end[i] is the offset from start where the
 * bytes of line i end (a label's or directive's own offset when it has none). */
void b3_asm_text_add_proc(B3AsmText *t, uint64_t start, uint64_t size, const char *text, size_t len,
                          const uint32_t *line_end, uint32_t nlines);

/* A symbol operand as the listing prints it for a relocation of `kind`:
 * sym@PLT for calls to global symbols, sym@GOTPCREL for GOT loads, and for
 * PC32 references to a global function of this module its local alias
 * (.Lname$local), which binds locally as the object writer does. */
void b3_asm_print_sym_ref(FILE *f, const B3Symbol *sym, B3RelocKind kind);

/* Writes o (which must have asm_text) as assembly to f.  Returns false
 * (after printing why) when the output cannot express it, such as a symbol
 * name the assembler cannot spell. */
bool b3_write_asm(B3Obj *o, FILE *f);

#endif
