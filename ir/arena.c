#define _DEFAULT_SOURCE /* madvise */
#include "ir/arena.h"
#include "util/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct B3ArenaChunk {
    B3ArenaChunk *next;
    size_t size;
    max_align_t pad[]; /* keeps the payload aligned */
};

/* A chunk and its header fill 2 MiB (a huge page's size). */
enum { HUGE = 2 << 20, CHUNK = HUGE - 64 };

/* The 2 MiB chunks of freed arenas, kept for the next arena: each
 * procedure's Air arena is freed after its emission, and the next one's
 * fresh chunks would cost the kernel a fault and zeroing per page again.
 * At most SPARE_MAX are kept; the process is single-threaded. */
enum { SPARE_MAX = 32 };
static B3ArenaChunk *spare;
static unsigned nspare;

void b3_arena_init(B3Arena *a) { memset(a, 0, sizeof *a); }

/* Blocks from this size on give their whole pages back when released. */
enum { RELEASE_PAGES_MIN = 128 << 10 };

/* Gives back the whole pages of [lo, hi): they read as zeroes when touched again. */
static void drop_pages(void *lo_p, void *hi_p) {
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = ((uintptr_t)lo_p + page - 1) & ~(page - 1);
    uintptr_t hi = (uintptr_t)hi_p & ~(page - 1);
    if (hi > lo)
        madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

void b3_arena_trim(B3Arena *a) {
    if ((size_t)(a->end - a->cur) >= RELEASE_PAGES_MIN)
        drop_pages(a->cur, a->end);
}

void b3_arena_drop(B3Arena *a) {
    for (B3ArenaChunk *c = a->chunk; c; c = c->next)
        drop_pages(c + 1, (char *)(c + 1) + c->size);
    b3_arena_free(a);
}

void b3_arena_free(B3Arena *a) {
    B3ArenaChunk *c = a->chunk;
    while (c) {
        B3ArenaChunk *n = c->next;
        if (sizeof *c + c->size == HUGE && nspare < SPARE_MAX) {
            c->next = spare;
            spare = c;
            nspare++;
        } else {
            free(c);
        }
        c = n;
    }
    memset(a, 0, sizeof *a);
}

static B3ArenaChunk *chunk_alloc(B3Arena *a, size_t size) {
    B3ArenaChunk *c = NULL;
    if (spare && sizeof *c + size <= HUGE && sizeof *c + size >= HUGE / 2) {
        c = spare; /* what a new chunk of this size would be: 2 MiB */
        spare = c->next;
        nspare--;
        a->total += HUGE;
        return c;
    }
    /* Whole 2 MiB chunks, aligned, which the spare list can take back.  Not
     * advised onto huge pages (MADV_HUGEPAGE): with the kernel's default
     * "defrag=madvise" a fault there may compact memory first, and on a
     * busy machine that made -O0's system time swing from 0.02 to 0.2 s; on
     * 4 KiB pages -O0's least time is the same, -O2's median 0.90 s against
     * 0.98, and the peak 5-8% lower. */
    if (sizeof *c + size >= HUGE / 2) {
        size_t n = (sizeof *c + size + HUGE - 1) & ~(size_t)(HUGE - 1);
        void *p = NULL;
        if (!posix_memalign(&p, HUGE, n)) {
            c = p;
            size = n - sizeof *c;
        }
    }
    if (!c)
        c = malloc(sizeof *c + size);
    if (!c)
        b3_out_of_memory(NULL); /* names the running phase */
    c->size = size;
    a->total += sizeof *c + size;
    return c;
}

/* Zeroes n bytes (a multiple of 16) at p: most blocks are a few dozen
 * bytes, where a call to memset costs more than the stores.  (Spelled as
 * fixed-size stores: a loop would be turned back into the call.) */
static void zero16(char *p, size_t n) {
    switch (n >> 4) {
    case 8:
        memset(p + 112, 0, 16); /* fall through */
    case 7:
        memset(p + 96, 0, 16); /* fall through */
    case 6:
        memset(p + 80, 0, 16); /* fall through */
    case 5:
        memset(p + 64, 0, 16); /* fall through */
    case 4:
        memset(p + 48, 0, 16); /* fall through */
    case 3:
        memset(p + 32, 0, 16); /* fall through */
    case 2:
        memset(p + 16, 0, 16); /* fall through */
    case 1:
        memset(p, 0, 16);
        break;
    default:
        memset(p, 0, n);
        break;
    }
}

/* Uninitialised memory: for blocks that are written whole at once. */
static void *alloc_raw(B3Arena *a, size_t n) {
    if ((size_t)(a->end - a->cur) >= n) {
        void *p = a->cur;
        a->cur += n;
        return p;
    }
    if (n >= HUGE / 2 && n <= CHUNK) {
        /* A block that would get a huge page of its own (chunk_alloc) takes
         * a whole chunk instead, and the rest of it serves the bump path if
         * that is more than the current chunk has left: the rest was resident
         * and unused (a tenth of -O0's peak memory). */
        B3ArenaChunk *c = chunk_alloc(a, CHUNK);
        char *p = (char *)(c + 1);
        if (!a->chunk || (size_t)(a->end - a->cur) < CHUNK - n) {
            c->next = a->chunk;
            a->chunk = c;
            a->cur = p + n;
            a->end = p + CHUNK;
        } else {
            c->next = a->chunk->next;
            a->chunk->next = c;
        }
        return p;
    }
    if (n > CHUNK / 4) {
        /* A big block gets a chunk of its own, kept off the bump path. */
        B3ArenaChunk *c = chunk_alloc(a, n);
        if (a->chunk) {
            c->next = a->chunk->next;
            a->chunk->next = c;
        } else {
            c->next = NULL;
            a->chunk = c;
            a->cur = a->end = (char *)(c + 1) + n;
        }
        return c + 1;
    }
    size_t size = CHUNK;
    if (a->next_chunk) {
        size = a->next_chunk - sizeof(B3ArenaChunk);
        if (size < n)
            size = n;
        a->next_chunk = 2 * a->next_chunk < HUGE / 2 ? 2 * a->next_chunk : 0;
    }
    B3ArenaChunk *c = chunk_alloc(a, size);
    c->next = a->chunk;
    a->chunk = c;
    a->cur = (char *)(c + 1);
    a->end = a->cur + size;
    void *p = a->cur;
    a->cur += n;
    return p;
}

void *b3_arena_alloc(B3Arena *a, size_t n) {
    n = (n + 15) & ~(size_t)15;
    if (n == 0)
        n = 16;
    void *p = alloc_raw(a, n);
    zero16(p, n);
    return p;
}

void *b3_arena_alloc_uninit_slow(B3Arena *a, size_t n) {
    n = (n + 15) & ~(size_t)15;
    return alloc_raw(a, n ? n : 16);
}

char *b3_arena_strndup(B3Arena *a, const char *s, size_t n) {
    char *p = b3_arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

/* The free-list class of a block of n bytes, or -1 if it is not kept. */
static int pow2_class(size_t n) {
    if (n < ((size_t)1 << B3_ARENA_MIN_LOG) || (n & (n - 1)))
        return -1;
    int k = __builtin_ctzll((unsigned long long)n) - B3_ARENA_MIN_LOG;
    return k < B3_ARENA_NFREE ? k : -1;
}

void *b3_arena_alloc_pow2_uninit(B3Arena *a, size_t n) {
    int k = pow2_class(n);
    if (k >= 0 && a->free[k]) {
        void *p = a->free[k];
        a->free[k] = *(void **)p;
        return p;
    }
    n = (n + 15) & ~(size_t)15;
    return alloc_raw(a, n ? n : 16);
}

void *b3_arena_alloc_pow2(B3Arena *a, size_t n) {
    void *p = b3_arena_alloc_pow2_uninit(a, n);
    memset(p, 0, n);
    return p;
}

void b3_arena_release(B3Arena *a, void *p, size_t n) {
    int k = pow2_class(n);
    if (!p || k < 0)
        return;
    if (n >= RELEASE_PAGES_MIN) {
        /* The big arrays (a procedure's values, its number map) grow once or
         * twice late and leave the old one behind, which is seldom asked for
         * again: its pages need not stay resident.  Past the free-list link
         * in the first word; a recycled block then reads as zeroes. */
        drop_pages((char *)p + sizeof(void *), (char *)p + n);
    }
    *(void **)p = a->free[k];
    a->free[k] = p;
}

void *b3_arena_grow_uninit(B3Arena *a, void *old, size_t elem, uint32_t *cap, uint32_t min) {
    uint32_t n = *cap ? *cap * 2 : 8;
    if (n < min)
        n = min;
    char *p = b3_arena_alloc_pow2_uninit(a, (size_t)n * elem);
    size_t kept = old ? (size_t)*cap * elem : 0;
    if (kept) {
        memcpy(p, old, kept);
        b3_arena_release(a, old, kept);
    }
    *cap = n;
    return p;
}

void *b3_arena_grow(B3Arena *a, void *old, size_t elem, uint32_t *cap, uint32_t min) {
    size_t kept = old ? (size_t)*cap * elem : 0;
    char *p = b3_arena_grow_uninit(a, old, elem, cap, min);
    /* Only the part past the old contents needs zeroing. */
    memset(p + kept, 0, (size_t)*cap * elem - kept);
    return p;
}
