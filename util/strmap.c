/* String maps (util/strmap.h). */
#include "util/strmap.h"

#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"

uint32_t b3_hash_bytes(const char *s, uint32_t n) {
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

void b3_strmap_init(B3StrMap *m, const char *phase) {
    memset(m, 0, sizeof *m);
    m->phase = phase;
}

void b3_strmap_free(B3StrMap *m) {
    free(m->e);
    b3_strmap_init(m, m->phase);
}

static B3StrMapEntry *slot(const B3StrMap *m, const char *s, uint32_t n) {
    uint32_t mask = m->cap - 1;
    for (uint32_t i = b3_hash_bytes(s, n) & mask;; i = (i + 1) & mask) {
        B3StrMapEntry *e = &m->e[i];
        if (!e->key || (e->len == n && !memcmp(e->key, s, n)))
            return e;
    }
}

void *b3_strmap_get(const B3StrMap *m, const char *s, uint32_t n) {
    if (!m->cap)
        return NULL;
    return slot(m, s, n)->val;
}

void b3_strmap_put(B3StrMap *m, const char *s, uint32_t n, void *val) {
    if ((m->count + 1) * 2 > m->cap) {
        B3StrMap old = *m;
        m->cap = old.cap ? old.cap * 2 : 16;
        m->count = 0;
        m->e = b3_xcalloc(m->phase, m->cap, sizeof *m->e);
        for (uint32_t i = 0; i < old.cap; i++)
            if (old.e[i].key)
                b3_strmap_put(m, old.e[i].key, old.e[i].len, old.e[i].val);
        free(old.e);
    }
    B3StrMapEntry *e = slot(m, s, n);
    if (!e->key)
        m->count++;
    e->key = s;
    e->len = n;
    e->val = val;
}
