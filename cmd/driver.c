/* The pipeline: read, parse, validate, (optimize, lower, allocate, encode), write. */
#include "cmd/driver.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/output.h"
#include "ir/ir.h"
#include "parser/parser.h"

static char *read_all(const char *path, size_t *len) {
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    bool err = ferror(f);
    if (f != stdin)
        fclose(f);
    if (err) {
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

/* The stem of a path: its last component without the extension. */
static char *stem(const char *path) {
    if (!strcmp(path, "-"))
        return strdup("stdin");
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    char *s = malloc(n + 1);
    memcpy(s, base, n);
    s[n] = 0;
    return s;
}

/* A bare body's symbol: the stem with every character outside [A-Za-z0-9_] made '_'. */
static char *bare_symbol(const char *path) {
    char *s = stem(path);
    for (char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
            *p = '_';
    return s;
}

int b3_drive(const B3Options *o) {
    size_t len = 0;
    char *src = read_all(o->input, &len);
    if (!src) {
        fprintf(stderr, "b3c: error: cannot read '%s': %s\n", o->input, strerror(errno));
        return 1;
    }
    const char *shown = strcmp(o->input, "-") ? o->input : "<stdin>";
    B3Diag diag;
    b3_diag_init(&diag, shown, src, len);
    B3Module m;
    b3_module_init(&m, o->target);
    char *bare = o->name ? NULL : bare_symbol(o->input);
    B3ParseOptions popt = {o->name ? o->name : bare};

    int status = 0;
    bool ok = b3_parse(&m, &diag, src, len, &popt) && b3_validate(&m, &diag);
    if (!ok || diag.errors) {
        status = 1;
        goto done;
    }

    const char *out_path = o->output;
    char *default_path = NULL;
    if (!out_path) {
        if (o->emit == B3Emit_B3 || o->emit == B3Emit_Air) {
            out_path = "-";
        } else {
            char *s = stem(o->input);
            default_path = malloc(strlen(s) + 3);
            sprintf(default_path, "%s.%s", s, o->emit == B3Emit_Asm ? "s" : "o");
            free(s);
            out_path = default_path;
        }
    }

    switch (o->emit) {
    case B3Emit_B3: {
        B3Output out;
        if (!b3_output_open(&out, out_path, false)) {
            status = 1;
            break;
        }
        b3_print_module(&m, out.f);
        if (!b3_output_commit(&out))
            status = 1;
        break;
    }
    case B3Emit_Obj:
    case B3Emit_Asm:
    case B3Emit_Air:
        fprintf(stderr, "b3c: error: --emit=%s is not available yet in this build (use --emit=b3)\n",
                o->emit == B3Emit_Obj ? "obj" : o->emit == B3Emit_Asm ? "asm" : "air");
        status = 2;
        break;
    }
    free(default_path);
done:
    free(bare);
    b3_module_free(&m);
    b3_diag_free(&diag);
    free(src);
    return status;
}
