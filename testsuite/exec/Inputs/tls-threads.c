/* The C side of exec/tls-threads.b3: threads, one after another, bump their
 * own copies of the b3 object's thread-local variables. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

int64_t *tls_bump(int64_t n);
int64_t tls_get(int64_t k);

static void *thread(void *arg) {
    int64_t n = (int64_t)(intptr_t)arg;
    int64_t *counter = tls_bump(n);
    if (*counter != tls_get(0))
        printf("thread %ld: the counter's address is not this thread's\n", (long)n);
    printf("thread %ld: counter %ld zeros %ld small %ld\n", (long)n, (long)tls_get(0), (long)tls_get(1),
           (long)tls_get(2));
    return NULL;
}

int main(void) {
    for (int64_t i = 1; i <= 3; i++) {
        pthread_t t;
        pthread_create(&t, NULL, thread, (void *)(intptr_t)i);
        pthread_join(t, NULL);
    }
    printf("main: counter %ld zeros %ld small %ld\n", (long)tls_get(0), (long)tls_get(1), (long)tls_get(2));
    return 0;
}
