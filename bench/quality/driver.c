/* Driver for the code-quality benchmark (bench/quality.sh).
 *
 *   driver KERNEL [--check] [--size N] [--reps R]
 *   driver --list
 *
 * Sets up KERNEL's input (outside the timing), calls the kernel R times,
 * checks that every call returned the same checksum, and prints one line:
 *
 *   KERNEL size=N reps=R checksum=0x... cpu=SECONDS wall=SECONDS
 *
 * cpu is the process CPU time of the R calls, wall their elapsed time.
 * --check uses each kernel's small size and one call.  Compiled once with
 * -DIMPL_C (calls kernel_NAME_c, the C versions) and once without (calls
 * kernel_NAME, the B3 versions); every kernel is a weak reference, so a
 * binary links just the one kernel it runs.  Exit status: 0 on success, 1 if
 * the calls disagree, 2 on bad usage or a kernel that is not linked in.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef IMPL_C
#define K(name) name##_c
#else
#define K(name) name
#endif
#define WEAK __attribute__((weak))

extern uint64_t K(kernel_sieve)(uint8_t *flags, int32_t n) WEAK;
extern uint64_t K(kernel_nqueens)(int32_t n) WEAK;
extern uint64_t K(kernel_nbody)(int32_t steps) WEAK;
extern uint64_t K(kernel_spectral)(int32_t n, double *u, double *v, double *tmp) WEAK;
extern uint64_t K(kernel_mandelbrot)(int32_t size, uint8_t *out) WEAK;
extern uint64_t K(kernel_fannkuch)(int32_t n) WEAK;
extern uint64_t K(kernel_matmul)(int32_t n, const double *a, const double *b, double *c) WEAK;
extern uint64_t K(kernel_crc32)(const uint8_t *buf, int64_t len) WEAK;
extern uint64_t K(kernel_sha256)(const uint8_t *buf, int64_t nblocks) WEAK;
extern uint64_t K(kernel_chacha20)(const uint8_t *in, uint8_t *out, int64_t len,
                                   const uint32_t *key) WEAK;
extern uint64_t K(kernel_quicksort)(int32_t *a, int32_t n, uint32_t seed) WEAK;
extern uint64_t K(kernel_interp)(int64_t n) WEAK;
extern uint64_t K(kernel_itoa)(uint8_t *buf, int32_t count, uint64_t seed) WEAK;
extern uint64_t K(kernel_collatz)(int32_t n, uint32_t *memo) WEAK;
extern uint64_t K(kernel_brainfuck)(int32_t n) WEAK;

/* Inputs, set up by prepare() before the timed calls. */
static int64_t size;
static void *buf0, *buf1, *buf2;

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "driver: out of memory\n");
        exit(2);
    }
    return p;
}

/* Deterministic pseudo-random bytes (xorshift64*). */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}
static void *random_bytes(size_t n)
{
    uint8_t *p = xmalloc(n);
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(rng() >> 56);
    return p;
}
static double *random_doubles(size_t n)
{
    double *p = xmalloc(n * sizeof *p);
    for (size_t i = 0; i < n; i++)
        p[i] = (double)(int64_t)(rng() >> 40) / 16777216.0 - 0.5; /* exact */
    return p;
}

static uint64_t call_sieve(void) { return K(kernel_sieve)(buf0, (int32_t)size); }
static void prep_sieve(void) { buf0 = xmalloc((size_t)size + 1); }

static uint64_t call_nqueens(void) { return K(kernel_nqueens)((int32_t)size); }
static void prep_nqueens(void) {}

static uint64_t call_nbody(void) { return K(kernel_nbody)((int32_t)size); }
static void prep_nbody(void) {}

static uint64_t call_spectral(void)
{
    return K(kernel_spectral)((int32_t)size, buf0, buf1, buf2);
}
static void prep_spectral(void)
{
    buf0 = xmalloc((size_t)size * sizeof(double));
    buf1 = xmalloc((size_t)size * sizeof(double));
    buf2 = xmalloc((size_t)size * sizeof(double));
}

static uint64_t call_mandelbrot(void) { return K(kernel_mandelbrot)((int32_t)size, buf0); }
static void prep_mandelbrot(void) { buf0 = xmalloc((size_t)size * (size_t)(size + 7) / 8 + 8); }

static uint64_t call_fannkuch(void) { return K(kernel_fannkuch)((int32_t)size); }
static void prep_fannkuch(void) {}

static uint64_t call_matmul(void) { return K(kernel_matmul)((int32_t)size, buf0, buf1, buf2); }
static void prep_matmul(void)
{
    size_t n = (size_t)size * (size_t)size;
    buf0 = random_doubles(n);
    buf1 = random_doubles(n);
    buf2 = xmalloc(n * sizeof(double));
}

static uint64_t call_crc32(void) { return K(kernel_crc32)(buf0, size); }
static void prep_crc32(void) { buf0 = random_bytes((size_t)size); }

static uint64_t call_sha256(void) { return K(kernel_sha256)(buf0, size); }
static void prep_sha256(void) { buf0 = random_bytes((size_t)size * 64); }

static uint64_t call_chacha20(void) { return K(kernel_chacha20)(buf0, buf1, size, buf2); }
static void prep_chacha20(void)
{
    buf0 = random_bytes((size_t)size);
    buf1 = xmalloc((size_t)size);
    buf2 = random_bytes(32);
}

static uint64_t call_quicksort(void) { return K(kernel_quicksort)(buf0, (int32_t)size, 12345u); }
static void prep_quicksort(void) { buf0 = xmalloc((size_t)size * sizeof(int32_t)); }

static uint64_t call_interp(void) { return K(kernel_interp)(size); }
static void prep_interp(void) {}

static uint64_t call_itoa(void) { return K(kernel_itoa)(buf0, (int32_t)size, 42u); }
static void prep_itoa(void) { buf0 = xmalloc((size_t)size * 40 + 16); }

static uint64_t call_collatz(void) { return K(kernel_collatz)((int32_t)size, buf0); }
static void prep_collatz(void) { buf0 = xmalloc((size_t)size * sizeof(uint32_t)); }

static uint64_t call_brainfuck(void) { return K(kernel_brainfuck)((int32_t)size); }
static void prep_brainfuck(void) {}

struct kernel {
    const char *name;
    int linked;
    void (*prep)(void);
    uint64_t (*call)(void);
    int64_t bench_size; /* about 0.2-0.5 s at gcc -O2 with bench_reps calls */
    int bench_reps;
    int64_t check_size; /* a few milliseconds even unoptimized */
};

#define KERNEL(name, bs, br, cs) \
    {#name, K(kernel_##name) != 0, prep_##name, call_##name, bs, br, cs}

int main(int argc, char **argv)
{
    const struct kernel kernels[] = {
        KERNEL(sieve, 2000000, 60, 10000),
        KERNEL(nqueens, 12, 40, 6),
        KERNEL(nbody, 2000000, 1, 1000),
        KERNEL(spectral, 500, 20, 20),
        KERNEL(mandelbrot, 600, 10, 40),
        KERNEL(fannkuch, 10, 1, 6),
        KERNEL(matmul, 200, 40, 12),
        KERNEL(crc32, 1 << 20, 100, 4096),
        KERNEL(sha256, 1 << 14, 60, 16),
        KERNEL(chacha20, 1 << 20, 90, 1000),
        KERNEL(quicksort, 1000000, 4, 1000),
        KERNEL(interp, 2000000, 3, 1000),
        KERNEL(itoa, 1000000, 4, 1000),
        KERNEL(collatz, 1000000, 30, 1000),
        KERNEL(brainfuck, 200, 1, 2),
    };
    const int nkernels = (int)(sizeof kernels / sizeof kernels[0]);

    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < nkernels; i++)
            printf("%s %" PRId64 " %d %" PRId64 "\n", kernels[i].name, kernels[i].bench_size,
                   kernels[i].bench_reps, kernels[i].check_size);
        return 0;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: %s KERNEL [--check] [--size N] [--reps R] | --list\n", argv[0]);
        return 2;
    }
    const struct kernel *k = 0;
    for (int i = 0; i < nkernels; i++)
        if (strcmp(kernels[i].name, argv[1]) == 0)
            k = &kernels[i];
    if (!k) {
        fprintf(stderr, "driver: unknown kernel '%s'\n", argv[1]);
        return 2;
    }
    if (!k->linked) {
        fprintf(stderr, "driver: kernel '%s' is not linked into this binary\n", k->name);
        return 2;
    }
    size = k->bench_size;
    long reps = k->bench_reps;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--check") == 0) {
            size = k->check_size;
            reps = 1;
        } else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
            size = strtoll(argv[++i], 0, 0);
        } else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
            reps = strtol(argv[++i], 0, 0);
        } else {
            fprintf(stderr, "driver: bad argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (size <= 0 || reps <= 0) {
        fprintf(stderr, "driver: size and reps must be positive\n");
        return 2;
    }

    k->prep();
    struct timespec c0, c1, w0, w1;
    clock_gettime(CLOCK_MONOTONIC, &w0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    uint64_t first = k->call();
    int bad = 0;
    for (long r = 1; r < reps; r++)
        if (k->call() != first)
            bad = 1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    clock_gettime(CLOCK_MONOTONIC, &w1);
    double cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-9;
    double wall = (double)(w1.tv_sec - w0.tv_sec) + (double)(w1.tv_nsec - w0.tv_nsec) * 1e-9;
    printf("%s size=%" PRId64 " reps=%ld checksum=0x%016" PRIx64 " cpu=%.6f wall=%.6f\n", k->name,
           size, reps, first, cpu, wall);
    if (bad) {
        fprintf(stderr, "driver: %s: the %ld calls did not all return the same checksum\n",
                k->name, reps);
        return 1;
    }
    return 0;
}
