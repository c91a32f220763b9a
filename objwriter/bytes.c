/* The object writers' byte buffer (objwriter/bytes.h). */
#include "objwriter/bytes.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ir/diag.h"
#include "util/alloc.h"

void b3_bytes_append(B3Bytes *b, const void *p, size_t n) {
    if (!n) /* an empty string into an empty buffer: memcpy must not see NULL */
        return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n)
            cap *= 2;
        b->b = b3_xrealloc("objwriter", b->b, cap);
        b->cap = cap;
    }
    if (p)
        memcpy(b->b + b->n, p, n);
    else
        memset(b->b + b->n, 0, n);
    b->n += n;
}

void b3_bytes_le(B3Bytes *b, uint64_t v, unsigned n) {
    uint8_t t[8];
    for (unsigned i = 0; i < n; i++)
        t[i] = (uint8_t)(v >> (8 * i));
    b3_bytes_append(b, t, n);
}

void b3_bytes_uleb(B3Bytes *b, uint64_t v) {
    do {
        uint8_t c = v & 0x7f;
        v >>= 7;
        b3_bytes_le(b, c | (v ? 0x80 : 0), 1);
    } while (v);
}

void b3_bytes_sleb(B3Bytes *b, int64_t v) {
    for (;;) {
        uint8_t c = v & 0x7f;
        v >>= 7; /* arithmetic shift: C11 leaves it implementation-defined, every target compiler does it */
        bool done = (v == 0 && !(c & 0x40)) || (v == -1 && (c & 0x40));
        b3_bytes_le(b, c | (done ? 0 : 0x80), 1);
        if (done)
            return;
    }
}

void b3_bytes_set_le(B3Bytes *b, size_t at, uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; i++)
        b->b[at + i] = (uint8_t)(v >> (8 * i));
}

void b3_bytes_free(B3Bytes *b) {
    free(b->b);
    *b = (B3Bytes){0};
}
