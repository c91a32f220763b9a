/* Diagnostics: "FILE:LINE:COL: error: MESSAGE", the source line, a caret. */
#ifndef B3_DIAG_H
#define B3_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    uint32_t line, col; /* 1-based; line 0 means "no location" */
} B3Loc;

typedef struct {
    const char *file; /* name shown in messages ("<stdin>" for -) */
    const char *src;  /* whole input, NUL-terminated */
    size_t len;
    uint32_t *line_starts; /* built on first use */
    uint32_t nlines;
    unsigned errors, warnings;
    unsigned max_errors;   /* print this many, then stop the front end (0: no limit) */
    unsigned max_warnings; /* print this many, then count the rest silently (0: no limit) */
    bool last_hidden;      /* the last error or warning was not printed, so neither are its notes */
    FILE *out;
} B3Diag;

void b3_diag_init(B3Diag *d, const char *file, const char *src, size_t len);
void b3_diag_free(B3Diag *d);

#if defined(__GNUC__)
#define B3_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define B3_PRINTF(a, b)
#endif

void b3_error(B3Diag *d, B3Loc loc, const char *fmt, ...) B3_PRINTF(3, 4);
void b3_warning(B3Diag *d, B3Loc loc, const char *fmt, ...) B3_PRINTF(3, 4);
void b3_note(B3Diag *d, B3Loc loc, const char *fmt, ...) B3_PRINTF(3, 4);
/* Prints the source line of loc (a window of it, if long) and a caret under
 * its column, in one write. */
void b3_diag_show_line(B3Diag *d, B3Loc loc);
/* True once more than max_errors errors were reported: the front end and the
 * validator then stop reading, so bad input costs bounded time and output. */
static inline bool b3_diag_stopped(const B3Diag *d) { return d->max_errors && d->errors > d->max_errors; }
/* "b3c: internal error in PHASE, procedure @P: MESSAGE" and exit status 3
 * (ir/ice.c; ir/ice.h has the form that names a value and its line). */
_Noreturn void b3_internal_error(const char *phase, const char *fmt, ...) B3_PRINTF(2, 3);
/* malloc, calloc and realloc that never return NULL: running out of memory
 * is an internal error in phase.  Sizes of 0 allocate 1 byte, so a result is
 * always a pointer to free. */
void *b3_xmalloc(const char *phase, size_t n);
void *b3_xcalloc(const char *phase, size_t n, size_t size);
void *b3_xrealloc(const char *phase, void *p, size_t n);

#endif
