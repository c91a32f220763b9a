#include "ir/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Bounds on what one message prints, so that output stays small however
 * long the offending line or token is (a message quotes tokens). */
#define MSG_MAX 1024     /* bytes of message text */
#define LINE_WHOLE 150   /* a source line up to this many bytes is shown whole */
#define WINDOW 120       /* else this many bytes of it around the column */
#define WINDOW_BEFORE 60 /* of which this many before the column */

void b3_diag_init(B3Diag *d, const char *file, const char *src, size_t len) {
    memset(d, 0, sizeof *d);
    d->file = file;
    d->src = src;
    d->len = len;
    d->max_errors = 50;
    d->max_warnings = 50;
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
    if (!d->line_starts)
        return;
    d->line_starts[n++] = 0;
    for (const char *p = d->src, *e = d->src + d->len; (p = memchr(p, '\n', (size_t)(e - p))); p++) {
        if (n == cap) {
            uint32_t *a = realloc(d->line_starts, 2 * cap * sizeof(uint32_t));
            if (!a) {
                free(d->line_starts);
                d->line_starts = NULL;
                return;
            }
            d->line_starts = a;
            cap *= 2;
        }
        d->line_starts[n++] = (uint32_t)(p - d->src + 1);
    }
    d->nlines = n;
}

/* A message is assembled here and written at once: stderr is unbuffered, and
 * byte-by-byte output would cost one system call per byte. */
typedef struct {
    char *p;
    size_t n, cap;
    bool failed;
} Buf;

static void buf_put(Buf *b, const char *s, size_t n) {
    if (b->failed)
        return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
}

static void buf_puts(Buf *b, const char *s) { buf_put(b, s, strlen(s)); }
static void buf_putc(Buf *b, char ch) { buf_put(b, &ch, 1); }

static void buf_printf(Buf *b, const char *fmt, ...) B3_PRINTF(2, 3);
static void buf_printf(Buf *b, const char *fmt, ...) {
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        buf_put(b, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        b->failed = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    buf_put(b, big, (size_t)n);
    free(big);
}

static void buf_flush(B3Diag *d, Buf *b) {
    if (!b->failed && b->n)
        fwrite(b->p, 1, b->n, d->out);
    free(b->p);
    *b = (Buf){0};
}

static bool utf8_cont(unsigned char ch) { return (ch & 0xc0) == 0x80; }

/* A source byte as echoed: control characters would garble the terminal or
 * end the line early, so they become one visible column each. */
static char shown_byte(unsigned char ch) {
    if (ch == '\t' || (ch >= 0x20 && ch != 0x7f))
        return (char)ch;
    return ch == '\r' || ch == '\v' || ch == '\f' ? ' ' : '?';
}

static void put_line(B3Diag *d, Buf *b, B3Loc loc) {
    index_lines(d);
    if (!d->line_starts || loc.line == 0 || loc.line > d->nlines)
        return;
    const unsigned char *s = (const unsigned char *)d->src;
    size_t start = d->line_starts[loc.line - 1];
    size_t end = loc.line < d->nlines ? d->line_starts[loc.line] - 1 : d->len;
    if (end > start && s[end - 1] == '\r')
        end--; /* CRLF */
    size_t col = start + (loc.col ? loc.col - 1 : 0);
    if (col > end)
        col = end;
    /* A long line is shown as a window around the column, clamped to the
     * line and not splitting a UTF-8 character. */
    size_t ws = start, we = end;
    if (end - start > LINE_WHOLE) {
        ws = col - start > WINDOW_BEFORE ? col - WINDOW_BEFORE : start;
        we = end - ws > WINDOW ? ws + WINDOW : end;
        if (we == end && end - start > WINDOW)
            ws = end - WINDOW < ws ? end - WINDOW : ws;
        while (ws > start && ws < col && utf8_cont(s[ws]))
            ws++;
        while (we < end && we > col && utf8_cont(s[we]))
            we--;
    }
    bool pre = ws > start, post = we < end;
    if (pre)
        buf_puts(b, "...");
    for (size_t i = ws; i < we; i++)
        buf_putc(b, shown_byte(s[i]));
    buf_puts(b, post ? "...\n" : "\n");
    /* The caret line keeps tabs and counts a UTF-8 character as one column,
     * so the caret stands under the column's character. */
    if (pre)
        buf_puts(b, "   ");
    for (size_t i = ws; i < col; i++) {
        if (s[i] == '\t')
            buf_putc(b, '\t');
        else if (!(utf8_cont(s[i]) && i > start && s[i - 1] >= 0x80))
            buf_putc(b, ' ');
    }
    buf_puts(b, "^\n");
}

void b3_diag_show_line(B3Diag *d, B3Loc loc) {
    Buf b = {0};
    put_line(d, &b, loc);
    buf_flush(d, &b);
}

static void report(B3Diag *d, const char *what, B3Loc loc, const char *fmt, va_list ap) {
    Buf b = {0};
    if (loc.line)
        buf_printf(&b, "%s:%u:%u: %s: ", d->file, loc.line, loc.col, what);
    else
        buf_printf(&b, "%s: %s: ", d->file, what);
    /* The message is one line of bounded length whatever the tokens it quotes. */
    char msg[MSG_MAX + 1];
    int n = vsnprintf(msg, sizeof msg, fmt, ap);
    size_t len = n < 0 ? 0 : (size_t)n > MSG_MAX ? MSG_MAX : (size_t)n;
    bool cut = n > MSG_MAX;
    if (cut)
        while (len > 0 && utf8_cont((unsigned char)msg[len]))
            len--;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)msg[i] < 0x20 || msg[i] == 0x7f)
            msg[i] = '?';
    buf_put(&b, msg, len);
    buf_puts(&b, cut ? "...\n" : "\n");
    if (loc.line)
        put_line(d, &b, loc);
    buf_flush(d, &b);
}

void b3_error(B3Diag *d, B3Loc loc, const char *fmt, ...) {
    d->errors++;
    d->last_hidden = b3_diag_stopped(d);
    if (d->last_hidden) {
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
    /* Warnings do not stop compilation, but their output is bounded too. */
    d->last_hidden = b3_diag_stopped(d) || (d->max_warnings && d->warnings > d->max_warnings);
    if (d->last_hidden) {
        if (!b3_diag_stopped(d) && d->warnings == d->max_warnings + 1)
            fprintf(d->out, "%s: too many warnings; not showing more\n", d->file);
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    report(d, "warning", loc, fmt, ap);
    va_end(ap);
}

void b3_note(B3Diag *d, B3Loc loc, const char *fmt, ...) {
    if (d->last_hidden)
        return;
    va_list ap;
    va_start(ap, fmt);
    report(d, "note", loc, fmt, ap);
    va_end(ap);
}
