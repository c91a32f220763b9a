#include "ir/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void b3_diag_init(B3Diag *d, const char *file, const char *src, size_t len) {
    memset(d, 0, sizeof *d);
    d->file = file;
    d->src = src;
    d->len = len;
    d->max_errors = 50;
    d->out = stderr;
}

void b3_diag_free(B3Diag *d) {
    free(d->line_starts);
    d->line_starts = NULL;
}

/* Line starts are needed only when something is reported, so they are found lazily. */
static void index_lines(B3Diag *d) {
    if (d->line_starts || !d->src)
        return;
    uint32_t cap = 1024, n = 0;
    d->line_starts = malloc(cap * sizeof(uint32_t));
    d->line_starts[n++] = 0;
    for (size_t i = 0; i < d->len; i++) {
        if (d->src[i] == '\n') {
            if (n == cap) {
                cap *= 2;
                d->line_starts = realloc(d->line_starts, cap * sizeof(uint32_t));
            }
            d->line_starts[n++] = (uint32_t)(i + 1);
        }
    }
    d->nlines = n;
}

void b3_diag_show_line(B3Diag *d, B3Loc loc) {
    index_lines(d);
    if (!d->line_starts || loc.line == 0 || loc.line > d->nlines)
        return;
    size_t start = d->line_starts[loc.line - 1];
    size_t end = start;
    while (end < d->len && d->src[end] != '\n' && d->src[end] != '\r')
        end++;
    fprintf(d->out, "%.*s\n", (int)(end - start), d->src + start);
    /* Keep tabs so the caret lines up with the echoed line. */
    for (size_t i = 0; i + 1 < loc.col && start + i < end; i++)
        fputc(d->src[start + i] == '\t' ? '\t' : ' ', d->out);
    fputs("^\n", d->out);
}

static void report(B3Diag *d, const char *what, B3Loc loc, const char *fmt, va_list ap) {
    if (loc.line)
        fprintf(d->out, "%s:%u:%u: %s: ", d->file, loc.line, loc.col, what);
    else
        fprintf(d->out, "%s: %s: ", d->file, what);
    vfprintf(d->out, fmt, ap);
    fputc('\n', d->out);
    if (loc.line)
        b3_diag_show_line(d, loc);
}

void b3_error(B3Diag *d, B3Loc loc, const char *fmt, ...) {
    d->errors++;
    if (d->max_errors && d->errors > d->max_errors) {
        if (d->errors == d->max_errors + 1)
            fprintf(d->out, "%s: too many errors; stopping\n", d->file);
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    report(d, "error", loc, fmt, ap);
    va_end(ap);
}

void b3_warning(B3Diag *d, B3Loc loc, const char *fmt, ...) {
    d->warnings++;
    va_list ap;
    va_start(ap, fmt);
    report(d, "warning", loc, fmt, ap);
    va_end(ap);
}

void b3_note(B3Diag *d, B3Loc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    report(d, "note", loc, fmt, ap);
    va_end(ap);
}
