/* Bump allocation for IR memory: everything a module owns is freed at once. */
#ifndef B3_ARENA_H
#define B3_ARENA_H

#include <stddef.h>
#include <stdint.h>

typedef struct B3ArenaChunk B3ArenaChunk;

typedef struct {
    B3ArenaChunk *chunk;
    char *cur, *end;
    size_t total; /* bytes obtained from malloc, for statistics */
} B3Arena;

void b3_arena_init(B3Arena *a);
void b3_arena_free(B3Arena *a);
/* Zeroed memory, aligned to 16 bytes.  Aborts on out-of-memory. */
void *b3_arena_alloc(B3Arena *a, size_t n);
/* Copies n bytes and appends a NUL. */
char *b3_arena_strndup(B3Arena *a, const char *s, size_t n);
/* Grows an arena array: returns a new array of cap*2 (at least min) elements
 * holding the old contents.  The old array is abandoned to the arena. */
void *b3_arena_grow(B3Arena *a, void *old, size_t elem, uint32_t *cap, uint32_t min);

#endif
