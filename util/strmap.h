/* A map from byte strings (pointer and length, not copied: the caller keeps
 * them alive) to non-NULL pointers: open addressing with linear probing over
 * a power-of-two table kept at most half full, FNV-1a hashes.  The table is
 * malloc'ed (util/alloc.h): running out of memory is an internal error in
 * the map's phase. */
#ifndef B3_UTIL_STRMAP_H
#define B3_UTIL_STRMAP_H

#include <stdint.h>

typedef struct B3StrMapEntry {
    const char *key; /* NULL: empty */
    uint32_t len;
    void *val;
} B3StrMapEntry;

typedef struct B3StrMap {
    B3StrMapEntry *e;
    uint32_t cap, count;
    const char *phase; /* named if allocation fails */
} B3StrMap;

/* FNV-1a of n bytes. */
uint32_t b3_hash_bytes(const char *s, uint32_t n);

void b3_strmap_init(B3StrMap *m, const char *phase);
void b3_strmap_free(B3StrMap *m);
/* The value of key (s, n), or NULL. */
void *b3_strmap_get(const B3StrMap *m, const char *s, uint32_t n);
/* Sets key (s, n) to val (not NULL), replacing a value it had. */
void b3_strmap_put(B3StrMap *m, const char *s, uint32_t n, void *val);

#endif
