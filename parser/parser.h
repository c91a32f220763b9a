/* Front end: text -> B3 IR module. */
#ifndef B3_PARSER_H
#define B3_PARSER_H

#include <stdbool.h>
#include <stddef.h>

#include "ir/ir.h"

typedef struct {
    /* Symbol for a bare procedure body (a file that starts with BB#): the
     * --name option, else derived from the input file's stem by the caller. */
    const char *bare_name;
    /* Every line through the grammar: the fast path for plain value lines
     * (parser.y, fast_lines) is off, so tests can compare the two. */
    bool no_fast_lines;
} B3ParseOptions;

/* Parses src (NUL-terminated, len bytes) into m, resolving every name.
 * Reports problems through d; returns true if no error was reported.
 * On success every child, Upsilon phi, successor, variable, slot, register
 * and symbol reference is resolved, predecessors are computed, and blocks
 * unreachable from the root have been dropped. Semantic rules (types,
 * terminals, dominance, ...) are left to b3_validate. */
bool b3_parse(B3Module *m, B3Diag *d, const char *src, size_t len, const B3ParseOptions *opt);

#endif
