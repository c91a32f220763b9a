#include "ir/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    b3_diag_release(d);
    free(d->pending);
    d->pending = NULL;
    free(d->line_starts);
    d->line_starts = NULL;
}

bool b3_diag_want_color(int force) {
    if (force)
        return force > 0;
    const char *no = getenv("NO_COLOR");
    if (no && *no)
        return false;
    const char *term = getenv("TERM");
    return isatty(2) && !(term && !strcmp(term, "dumb"));
}

/* clang's escapes: the location and message bold, the kind in its colour. */
#define SGR_BOLD "\033[1m"
#define SGR_RESET "\033[0m"
#define SGR_ERROR "\033[0;1;31m"
#define SGR_WARNING "\033[0;1;35m"
#define SGR_NOTE "\033[0;1;30m"
#define SGR_CARET "\033[0;1;32m"

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
    if (d->color)
        buf_puts(b, SGR_CARET);
    if (pre)
        buf_puts(b, "   ");
    for (size_t i = ws; i < col; i++) {
        if (s[i] == '\t')
            buf_putc(b, '\t');
        else if (!(utf8_cont(s[i]) && i > start && s[i - 1] >= 0x80))
            buf_putc(b, ' ');
    }
    buf_puts(b, d->color ? "^" SGR_RESET "\n" : "^\n");
}

void b3_diag_show_line(B3Diag *d, B3Loc loc) {
    Buf b = {0};
    put_line(d, &b, loc);
    buf_flush(d, &b);
}

/* A held message: its sort key (a note takes its message's) and its text. */
struct B3DiagPending {
    uint32_t line, col;
    unsigned group, seq;
    char *text;
    size_t n;
};

/* Messages without a line sort after the located ones; "too many errors" last. */
#define KEY_UNLOCATED (UINT32_MAX - 1)
#define KEY_LAST UINT32_MAX

static void emit(B3Diag *d, Buf *b, uint32_t line, uint32_t col, bool note) {
    if (!d->holding || b->failed) {
        buf_flush(d, b);
        return;
    }
    if (d->npending == d->cap_pending) {
        unsigned cap = d->cap_pending ? 2 * d->cap_pending : 32;
        struct B3DiagPending *p = realloc(d->pending, cap * sizeof *p);
        if (!p) { /* out of memory: write it now, unsorted */
            buf_flush(d, b);
            return;
        }
        d->pending = p;
        d->cap_pending = cap;
    }
    struct B3DiagPending *e = &d->pending[d->npending];
    if (note && d->npending) {
        const struct B3DiagPending *parent = &d->pending[d->npending - 1];
        e->line = parent->line;
        e->col = parent->col;
        e->group = parent->group;
    } else {
        e->line = line;
        e->col = col;
        e->group = d->seq;
    }
    e->seq = d->seq++;
    e->text = b->p;
    e->n = b->n;
    d->npending++;
    *b = (Buf){0};
}

void b3_diag_hold(B3Diag *d) { d->holding = true; }

static int cmp_pending(const void *pa, const void *pb) {
    const struct B3DiagPending *a = pa, *b = pb;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if (a->col != b->col)
        return a->col < b->col ? -1 : 1;
    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void b3_diag_release(B3Diag *d) {
    d->holding = false;
    if (!d->npending)
        return;
    qsort(d->pending, d->npending, sizeof *d->pending, cmp_pending);
    for (unsigned i = 0; i < d->npending; i++) {
        fwrite(d->pending[i].text, 1, d->pending[i].n, d->out);
        free(d->pending[i].text);
    }
    d->npending = 0;
}

static void report(B3Diag *d, const char *what, B3Loc loc, const char *fmt, va_list ap) {
    Buf b = {0};
    const char *kind_color = what[0] == 'e' ? SGR_ERROR : what[0] == 'w' ? SGR_WARNING : SGR_NOTE;
    if (d->color)
        buf_puts(&b, SGR_BOLD);
    if (loc.line)
        buf_printf(&b, "%s:%u:%u: ", d->file, loc.line, loc.col);
    else
        buf_printf(&b, "%s: ", d->file);
    if (d->color)
        buf_printf(&b, SGR_RESET "%s%s: " SGR_RESET SGR_BOLD, kind_color, what);
    else
        buf_printf(&b, "%s: ", what);
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
    if (cut)
        buf_puts(&b, "...");
    /* -Werror: say why a warning stopped the compilation, as gcc and clang do. */
    if (what[0] == 'e' && d->warn_mode == B3Warn_Error && d->in_warning)
        buf_puts(&b, " [-Werror]");
    buf_puts(&b, d->color ? SGR_RESET "\n" : "\n");
    if (loc.line)
        put_line(d, &b, loc);
    emit(d, &b, loc.line ? loc.line : KEY_UNLOCATED, loc.col, what[0] == 'n');
}

/* "too many errors" and the like: plain lines, after every held message. */
static void report_plain(B3Diag *d, const char *text) {
    Buf b = {0};
    buf_printf(&b, "%s: %s\n", d->file, text);
    emit(d, &b, KEY_LAST, 0, false);
}

void b3_error(B3Diag *d, B3Loc loc, const char *fmt, ...) {
    d->errors++;
    d->last_hidden = b3_diag_stopped(d);
    if (d->last_hidden) {
        if (d->errors == d->max_errors + 1)
            report_plain(d, "too many errors; stopping");
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    report(d, "error", loc, fmt, ap);
    va_end(ap);
}

void b3_warning(B3Diag *d, B3Loc loc, const char *fmt, ...) {
    if (d->warn_mode == B3Warn_None) {
        d->last_hidden = true; /* -w: nor its notes */
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    d->warnings++;
    /* Warnings do not stop compilation, but their output is bounded too. */
    d->last_hidden = b3_diag_stopped(d) || (d->max_warnings && d->warnings > d->max_warnings);
    if (d->last_hidden) {
        if (!b3_diag_stopped(d) && d->warnings == d->max_warnings + 1)
            report_plain(d, "too many warnings; not showing more");
        va_end(ap);
        return;
    }
    /* -Werror: shown as an error, but counted as a warning, so that the
     * front end goes on as for a warning; b3_diag_failed() says the
     * compilation failed. */
    d->in_warning = true;
    report(d, d->warn_mode == B3Warn_Error ? "error" : "warning", loc, fmt, ap);
    d->in_warning = false;
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
