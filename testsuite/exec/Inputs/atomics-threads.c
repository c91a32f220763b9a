/* Driver for ../atomics-threads.b3: NTHREADS threads run each B3 loop on one
 * shared word at the same time; the totals must be exact. */
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

void add_n(int64_t *, int64_t);
int64_t fetch_add_n(int64_t *, int64_t);
int32_t add16_n(int16_t *, int32_t);
void cas_inc_n(int64_t *, int64_t);
void weak_inc_n(int32_t *, int64_t);
int64_t orand_n(int64_t *, int64_t, int64_t);

enum { NTHREADS = 2, N = 1000000, N16 = 30000, NCAS = 200000 };

static int fails;
static volatile int64_t word; /* shared by the threads of one round */
static volatile int32_t word32;
static volatile int16_t word16;
static pthread_barrier_t start;

typedef struct {
    int kind, index;
    int64_t result;
} Job;

static void *run(void *arg) {
    Job *j = arg;
    pthread_barrier_wait(&start); /* all threads begin together, to contend */
    switch (j->kind) {
    case 0: add_n((int64_t *)&word, N); break;
    case 1: j->result = fetch_add_n((int64_t *)&word, N); break;
    case 2: j->result = add16_n((int16_t *)&word16, N16); break;
    case 3: cas_inc_n((int64_t *)&word, NCAS); break;
    case 4: weak_inc_n((int32_t *)&word32, NCAS); break;
    case 5: j->result = orand_n((int64_t *)&word, NCAS, (int64_t)1 << (j->index * 9 + 3)); break;
    }
    return NULL;
}

static void round_of(int kind, Job *jobs) {
    pthread_t t[NTHREADS];
    word = 0;
    word32 = 0;
    word16 = 0;
    pthread_barrier_init(&start, NULL, NTHREADS);
    for (int i = 0; i < NTHREADS; i++) {
        jobs[i] = (Job){kind, i, 0};
        pthread_create(&t[i], NULL, run, &jobs[i]);
    }
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&start);
}

#define EXPECT(what, got, want)                                                                        \
    do {                                                                                               \
        if ((int64_t)(got) != (int64_t)(want)) {                                                       \
            printf("FAIL %s: %" PRId64 ", expected %" PRId64 "\n", what, (int64_t)(got), (int64_t)(want)); \
            fails++;                                                                                   \
        }                                                                                              \
    } while (0)

int main(void) {
    Job jobs[NTHREADS];
    const int64_t total = (int64_t)NTHREADS * N;

    round_of(0, jobs);
    EXPECT("add_n", word, total);

    round_of(1, jobs);
    EXPECT("fetch_add_n", word, total);
    int64_t sum = 0;
    for (int i = 0; i < NTHREADS; i++)
        sum += jobs[i].result;
    EXPECT("fetch_add_n old values", sum, total * (total - 1) / 2);

    round_of(2, jobs);
    EXPECT("add16_n", (uint16_t)word16, NTHREADS * N16);
    int last = 0; /* the thread that finished last saw old = total - 1 */
    for (int i = 0; i < NTHREADS; i++)
        if (jobs[i].result == NTHREADS * N16)
            last = 1;
    EXPECT("add16_n last old value", last, 1);

    round_of(3, jobs);
    EXPECT("cas_inc_n", word, (int64_t)NTHREADS * NCAS);

    round_of(4, jobs);
    EXPECT("weak_inc_n", word32, NTHREADS * NCAS);

    round_of(5, jobs);
    EXPECT("orand_n final", word, 0);
    for (int i = 0; i < NTHREADS; i++)
        EXPECT("orand_n violations", jobs[i].result, 0);

    if (!fails)
        puts("OK");
    return fails != 0;
}
