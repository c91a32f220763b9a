/* C symbols of the Apple targets through the LLVM-IR import
 * (macho/symbols.test): thread-local variables (__thread_vars
 * descriptors), constructors with priorities (__mod_init_func) and
 * destructors, which clang registers with __cxa_atexit from its
 * __GLOBAL_init_N functions (in __TEXT,__StaticInit).  No variadic calls
 * out of the object: the Linux driver that runs it is not Apple's arm64
 * convention. */
#include <pthread.h>

void say(const char *s); /* the driver's */

static int order[16], n;
static void record(int k) {
    if (n < 16)
        order[n++] = k;
}
__attribute__((constructor(200))) static void c200(void) { record(200); }
__attribute__((constructor(101))) void c101(void) { record(101); }
__attribute__((constructor)) void cdef(void) { record(1000); }
__attribute__((destructor(150))) void d150(void) { say("destructor 150"); }
__attribute__((destructor)) void ddef(void) { say("destructor default"); }

__thread long counter = 100;
static __thread char name[16] = "main";
_Thread_local int zero;

static long seen[4][2];
static char names[4][16];

static void *thread(void *arg) {
    long k = (long)arg;
    counter += k;
    zero += (int)k;
    name[0] = (char)('0' + k);
    seen[k][0] = counter;
    seen[k][1] = zero;
    for (int i = 0; i < 16; i++)
        names[k][i] = name[i];
    return 0;
}

int constructors(int i) { return i < n ? order[i] : -1; }

/* Threads 1-3 one after another, then main's own copies in slot 0. */
void run_threads(void) {
    for (long i = 1; i <= 3; i++) {
        pthread_t t;
        pthread_create(&t, 0, thread, (void *)i);
        pthread_join(t, 0);
    }
    seen[0][0] = counter;
    seen[0][1] = zero;
    for (int i = 0; i < 16; i++)
        names[0][i] = name[i];
}

long thread_counter(int k) { return seen[k][0]; }
long thread_zero(int k) { return seen[k][1]; }
const char *thread_name(int k) { return names[k]; }
