/* A growable byte buffer for the object writers' built sections (DWARF,
 * .eh_frame, the Mach-O image): little-endian fields, LEB128, fields
 * patched once a length is known. */
#ifndef B3_OBJ_BYTES_H
#define B3_OBJ_BYTES_H

#include <stddef.h>
#include <stdint.h>

typedef struct B3Bytes {
    uint8_t *b;
    size_t n, cap;
} B3Bytes;

/* Appends n bytes from p, or n zero bytes when p is NULL. */
void b3_bytes_append(B3Bytes *b, const void *p, size_t n);
/* Appends v as an n-byte little-endian field (n <= 8). */
void b3_bytes_le(B3Bytes *b, uint64_t v, unsigned n);
void b3_bytes_uleb(B3Bytes *b, uint64_t v);
void b3_bytes_sleb(B3Bytes *b, int64_t v);
/* Overwrites the n-byte little-endian field at `at` (already appended). */
void b3_bytes_set_le(B3Bytes *b, size_t at, uint64_t v, unsigned n);
void b3_bytes_free(B3Bytes *b);

#endif
