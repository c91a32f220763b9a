/* Driver for ../toolchain.test: calls the target's hand-written assembly. */
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int64_t fn_mix(int64_t, int64_t, int64_t);
double fn_fma(double, double);
void fn_trap(void);

static void *worker(void *p) {
    int64_t *n = p;
    for (int i = 0; i < 1000; i++)
        __atomic_fetch_add(n, fn_mix(1, 1, 0), __ATOMIC_SEQ_CST);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "trap") == 0) {
        fn_trap();
        return 0;
    }
#if defined(__aarch64__)
    printf("arch aarch64\n");
#elif defined(__x86_64__)
    printf("arch x86_64\n");
#endif
    printf("mix %" PRId64 "\n", fn_mix(-7, 6, 1000000000000));
    printf("fma %.17g\n", fn_fma(1.5, -3.0));
    /* Two threads (the atomics tests' stress runs need them under qemu too). */
    int64_t n = 0;
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, &n);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("threads %" PRId64 "\n", n);
    return 0;
}
