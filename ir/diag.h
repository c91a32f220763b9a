/* Diagnostics: "FILE:LINE:COL: error: MESSAGE", the source line, a caret. */
#ifndef B3_DIAG_H
#define B3_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/alloc.h" /* b3_x*alloc: out of memory is an internal error */

/* A source location: line and column, 1-based (line 0: "no location"),
 * and which file: 0 the input itself, k >= 1 the module's files[k - 1] (C
 * code that comes from a header, through the LLVM-IR import: its -g line
 * table names each file).  The file shares a word with the column, so a
 * location stays 8 bytes. */
enum { B3_LOC_MAX_FILE = 255, B3_LOC_MAX_COL = (1u << 24) - 1 };
typedef struct {
    uint32_t line;
    uint32_t col : 24, file : 8;
} B3Loc;

/* What warnings become: shown (the default), dropped (-w) or errors (-Werror). */
typedef enum { B3Warn_Show, B3Warn_None, B3Warn_Error } B3WarnMode;

struct B3DiagPending;

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
    bool color;            /* clang's colours (bold location, red error, magenta warning, green caret) */
    uint8_t warn_mode;     /* B3WarnMode */
    bool in_warning;       /* reporting a warning as an error (-Werror) */
    /* Between b3_diag_hold and b3_diag_release, messages wait here and are
     * then written in source order (a note stays after its message). */
    bool holding;
    struct B3DiagPending *pending;
    unsigned npending, cap_pending, seq;
    FILE *out;
} B3Diag;

void b3_diag_init(B3Diag *d, const char *file, const char *src, size_t len);
void b3_diag_free(B3Diag *d);

#if defined(__GNUC__)
#define B3_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define B3_PRINTF(a, b)
#endif

/* Holds messages back until b3_diag_release, which writes them sorted by
 * position (file order; messages without a line last), so that stages that
 * check in several passes still report top to bottom. */
void b3_diag_hold(B3Diag *d);
void b3_diag_release(B3Diag *d);
/* Should diagnostics on stderr be coloured?  force: 1 yes, -1 no, 0 when
 * stderr is a terminal and NO_COLOR is unset (https://no-color.org). */
bool b3_diag_want_color(int force);

void b3_error(B3Diag *d, B3Loc loc, const char *fmt, ...) B3_PRINTF(3, 4);
void b3_warning(B3Diag *d, B3Loc loc, const char *fmt, ...) B3_PRINTF(3, 4);
void b3_note(B3Diag *d, B3Loc loc, const char *fmt, ...) B3_PRINTF(3, 4);
/* Prints the source line of loc (a window of it, if long) and a caret under
 * its column, in one write. */
void b3_diag_show_line(B3Diag *d, B3Loc loc);
/* True once more than max_errors errors were reported: the front end and the
 * validator then stop reading, so bad input costs bounded time and output. */
static inline bool b3_diag_stopped(const B3Diag *d) { return d->max_errors && d->errors > d->max_errors; }
/* Did the input fail to compile: an error, or a warning under -Werror? */
static inline bool b3_diag_failed(const B3Diag *d) {
    return d->errors || (d->warn_mode == B3Warn_Error && d->warnings);
}
/* "b3c: internal error in PHASE, procedure @P: MESSAGE" and exit status 3
 * (ir/ice.c; ir/ice.h has the form that names a value and its line). */
_Noreturn void b3_internal_error(const char *phase, const char *fmt, ...) B3_PRINTF(2, 3);

#endif
