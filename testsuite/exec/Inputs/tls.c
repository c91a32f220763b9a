/* The C side of exec/tls.b3: threads bump their own copies of the b3
 * object's thread-local variables (and of one defined here), main's copies
 * stay as initialized.  The threads run one after another so the output
 * order is fixed; each one's copies start fresh all the same. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

_Thread_local int64_t c_tls = 5000;

int64_t *tls_bump(int64_t n);
int64_t tls_get(int32_t k);
#ifdef SHARED
int64_t lib_bump(int64_t n);
extern _Thread_local int64_t lib_gd;
#endif

static void *thread(void *arg) {
    int64_t n = (int64_t)(intptr_t)arg;
    int64_t *ld = tls_bump(n);
    if (*ld != tls_get(3))
        printf("tls_ld's address is not this thread's\n");
    if (tls_get(4) != n)
        printf("thread %ld: zero-initialized copy %ld\n", (long)n, (long)tls_get(4));
    printf("thread %ld: le %ld ie %ld gd %ld ld %ld c %ld\n", (long)n, (long)tls_get(0), (long)tls_get(1),
           (long)tls_get(2), (long)tls_get(3), (long)c_tls);
#ifdef SHARED
    if (n <= 2) {
        int64_t r = lib_bump(n);
        printf("shared %ld: %ld %ld\n", (long)n, (long)(r % 1000), (long)(r / 1000));
        if (lib_gd != 100 + n)
            printf("lib_gd seen from C: %ld\n", (long)lib_gd);
    }
#endif
    return NULL;
}

int main(void) {
    for (int64_t i = 1; i <= 3; i++) {
        pthread_t t;
        pthread_create(&t, NULL, thread, (void *)(intptr_t)i);
        pthread_join(t, NULL);
    }
    printf("main: le %ld ie %ld gd %ld ld %ld c %ld\n", (long)tls_get(0), (long)tls_get(1), (long)tls_get(2),
           (long)tls_get(3), (long)c_tls);
    return 0;
}
