/* Reading a whole file (util/file.h). */
#include "util/file.h"

#include <stdlib.h>

#include "util/vec.h"

char *b3_read_stream(FILE *f, size_t *len) {
    size_t cap = 0, n = 0;
    char *buf = NULL;
    for (;;) {
        /* At least 64 KiB free, and one byte more for the NUL. */
        B3_VEC_RESERVE("reading input", buf, cap, n + (1 << 16) + 1);
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

char *b3_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = b3_read_stream(f, len);
    fclose(f);
    return buf;
}
