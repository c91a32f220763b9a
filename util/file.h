/* Reading a whole file into memory: the B3 text when it cannot be mapped,
 * response files, and the C source lines the LLVM-IR front end quotes in its
 * diagnostics.  One reader, so every caller gets the same NUL termination
 * and the same out-of-memory policy (util/alloc.h). */
#ifndef B3_UTIL_FILE_H
#define B3_UTIL_FILE_H

#include <stddef.h>
#include <stdio.h>

/* All of f, NUL-terminated (*len bytes before the NUL), or NULL on a read
 * error.  The caller frees it. */
char *b3_read_stream(FILE *f, size_t *len);

/* All of the file at path, as b3_read_stream, or NULL when it cannot be
 * opened or read. */
char *b3_read_file(const char *path, size_t *len);

#endif
