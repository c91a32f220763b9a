/* DWARF 4 debug info for -g: line tables mapping machine code to .b3 lines
 * and a compile unit with a subprogram per entry (docs/backend.md, "Debug
 * info"; docs/backend.md, "Debug information and readable -S").
 *
 * The emitter collects each procedure's rows (code offset, line, column) in a
 * B3LineRows while it encodes the procedure and hands them to the object with
 * b3_obj_add_lines; b3_obj_emit_debug writes .debug_abbrev, .debug_info (one
 * compile unit, one subprogram per entry region) and .debug_line once every
 * procedure is done.  All of it is inert unless b3_obj_enable_debug ran. */
#ifndef B3_OBJ_DWARF_H
#define B3_OBJ_DWARF_H

#include "objwriter/obj.h"

typedef struct {
    uint64_t offset; /* from the start of the procedure's code */
    uint32_t line, col;
    uint32_t file; /* B3Loc.file: 0 the input, k the module's files[k - 1] */
    bool prologue; /* the frame setup, attributed to the `proc` line */
} B3LineRow;

typedef struct {
    B3LineRow *v;
    uint32_t n, cap;
} B3LineRows;

/* Code from offset on comes from loc: adds a row when the line changes (a
 * line 0 location keeps the previous line).  A prologue row is always added. */
void b3_line_rows_note(B3LineRows *r, uint64_t offset, B3Loc loc, bool prologue);
void b3_line_rows_free(B3LineRows *r);

/* Turns debug info on for o; file is the input's name as the compile unit
 * and the line table name it (relative to the current directory), and the
 * module's other source files (B3Module.files) follow it in the line
 * table's file list.  Each of
 * the nprefix_map strings "OLD=NEW" (-fdebug-prefix-map) rewrites a leading
 * OLD of the file name and of the current directory to NEW; the last that
 * matches wins, as in gcc. */
void b3_obj_enable_debug(B3Obj *o, const char *file, const char *const *prefix_map, uint32_t nprefix_map);
/* Takes the rows of procedure p, whose code is at text_offset in code section sec:
 * code_size bytes of instructions, size bytes in all (with its jump tables).
 * The list is left empty.  Does nothing (but empty the list) without -g. */
void b3_obj_add_lines(B3Obj *o, const B3Proc *p, B3SectionId sec, uint64_t text_offset, uint64_t code_size,
                      uint64_t size, B3LineRows *rows);
/* Writes the debug sections and their relocations; call once, after the last
 * procedure and the data.  Does nothing without -g. */
void b3_obj_emit_debug(B3Obj *o);
/* For -S -g (the assembly writer's .file/.loc): the name of file k (0 the
 * input, k >= 1 the module's files[k - 1]), or NULL without -g or past the
 * last; and procedure i's rows (offsets from start in its code section
 * *sec), false past the last procedure.  The line table's file number of
 * B3Loc.file k is k + 1. */
const char *b3_obj_debug_file(const B3Obj *o, uint32_t k);
bool b3_obj_debug_rows(const B3Obj *o, uint32_t i, B3SectionId *sec, uint64_t *start, const B3LineRow **rows,
                       uint32_t *n);
/* Frees what the functions above kept (b3_obj_free calls it). */
void b3_obj_free_debug(B3Obj *o);

#endif
