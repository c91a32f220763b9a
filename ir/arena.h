/* Bump allocation for IR memory: everything a module owns is freed at once. */
#ifndef B3_ARENA_H
#define B3_ARENA_H

#include <stddef.h>
#include <stdint.h>

typedef struct B3ArenaChunk B3ArenaChunk;

/* Recycled blocks of 2^(B3_ARENA_MIN_LOG + k) bytes (see b3_arena_release). */
enum { B3_ARENA_MIN_LOG = 6, B3_ARENA_NFREE = 26 };

typedef struct {
    B3ArenaChunk *chunk;
    char *cur, *end;
    size_t total; /* bytes obtained from malloc, for statistics */
    /* Non-zero: the size of the next chunk, doubled at each new one until
     * the 2 MiB chunks (B3_ARENA_SMALL: an arena that may stay small, such
     * as a procedure's, which would otherwise take a whole huge page). */
    size_t next_chunk;
    void *free[B3_ARENA_NFREE]; /* per power-of-two size: released blocks, linked through their first word */
} B3Arena;

enum { B3_ARENA_SMALL = 64 << 10 };

void b3_arena_init(B3Arena *a);
void b3_arena_free(B3Arena *a);
/* b3_arena_free for an arena whose memory is not needed again soon: its
 * pages are given back to the kernel first (a procedure's B3 IR once the
 * procedure is emitted; the Air arenas' chunks stay resident for the next). */
void b3_arena_drop(B3Arena *a);
/* Gives back the pages of the current chunk's unused rest (when it is big):
 * for an arena that is done growing for a while, whose last chunk, a huge
 * page, would otherwise stay resident whole (a procedure's, once parsed). */
void b3_arena_trim(B3Arena *a);
/* Zeroed memory, aligned to 16 bytes.  Aborts on out-of-memory. */
void *b3_arena_alloc(B3Arena *a, size_t n);
/* Uninitialised memory, aligned to 16 bytes, for a block its caller writes
 * whole: the bump path inline, the rest out of line. */
void *b3_arena_alloc_uninit_slow(B3Arena *a, size_t n);
static inline void *b3_arena_alloc_uninit(B3Arena *a, size_t n) {
    n = (n + 15) & ~(size_t)15;
    if (n && (size_t)(a->end - a->cur) >= n) {
        void *p = a->cur;
        a->cur += n;
        return p;
    }
    return b3_arena_alloc_uninit_slow(a, n);
}
/* Copies n bytes and appends a NUL. */
char *b3_arena_strndup(B3Arena *a, const char *s, size_t n);
/* Grows an arena array: returns a new array of cap*2 (at least min) elements
 * holding the old contents (the rest zeroed).  The old array is released
 * (b3_arena_release): no pointer into it may be kept. */
void *b3_arena_grow(B3Arena *a, void *old, size_t elem, uint32_t *cap, uint32_t min);
/* The same without zeroing the new part, for an array whose elements past
 * its count are never read. */
void *b3_arena_grow_uninit(B3Arena *a, void *old, size_t elem, uint32_t *cap, uint32_t min);
/* Zeroed memory of n bytes, a recycled block when n is a power of two that
 * was released before.  For arrays that grow by doubling (b3_arena_grow,
 * hash tables): what they leave behind would otherwise stay until the arena
 * is freed, and was a fifth of the IR's memory. */
void *b3_arena_alloc_pow2(B3Arena *a, size_t n);
/* The same without the zeroing, for memory that is written before it is read. */
void *b3_arena_alloc_pow2_uninit(B3Arena *a, size_t n);
/* Gives back a block of n bytes that nothing points into any more; only a
 * power-of-two n of at least 64 is kept, for b3_arena_alloc_pow2. */
void b3_arena_release(B3Arena *a, void *p, size_t n);

#endif
