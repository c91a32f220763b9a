/* Driver for ../traps.b3: the faulting calls run in a child process, which
 * shares a page with the parent so the order of the stores around a fault can
 * be checked.  "null-load" / "null-plain-load" as the argument run one call
 * directly (for `not --crash`). */
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

int32_t load_unused(int32_t *);
int32_t load8_unused(int8_t *);
int32_t plain_unused(int32_t *);
int32_t load_fused(int32_t *, int32_t);
void store_traps(int64_t *, int64_t);
int64_t ordered(int64_t *, int64_t *);
int32_t ordered_unused(int32_t *, int32_t *);

static int fails;
#define CHECK_EQ(got, want)                                                                        \
    do {                                                                                           \
        int64_t g_ = (got), w_ = (want);                                                           \
        if (g_ != w_) {                                                                            \
            printf("FAIL line %d: %s = %" PRId64 ", want %" PRId64 "\n", __LINE__, #got, g_, w_); \
            fails++;                                                                               \
        }                                                                                          \
    } while (0)

static int64_t *shared; /* a MAP_SHARED page: the child's stores are seen here */

/* Runs call `which` with a NULL pointer in a child; returns the signal that ended it (0 if none). */
static int fault_signal(int which) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        switch (which) {
        case 0: load_unused(NULL); break;
        case 1: load8_unused(NULL); break;
        case 2: plain_unused(NULL); break;
        case 3: load_fused(NULL, 5); break;
        case 4: store_traps(NULL, 5); break;
        case 5: ordered(NULL, shared); break;
        case 6: ordered_unused(NULL, (int32_t *)(shared + 4)); break;
        }
        _exit(0);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "null-load"))
        return load_unused(NULL) == 1 ? 0 : 1; /* must not return */
    if (argc > 1 && !strcmp(argv[1], "null-plain-load")) {
        plain_unused(NULL);
        puts("survived");
        return 0;
    }
    shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) {
        puts("FAIL mmap");
        return 1;
    }

    int32_t cell[2] = {20, 30};
    int8_t bytes[8] = {0};
    int64_t wide[2] = {0, 0};
    CHECK_EQ(load_unused(cell), 1);
    CHECK_EQ(load8_unused(bytes), 2);
    CHECK_EQ(plain_unused(cell), 3);
    CHECK_EQ(load_fused(cell, 5), 35);
    store_traps(wide, 44);
    CHECK_EQ(wide[0], 44);
    CHECK_EQ(ordered(wide, shared), 54);
    CHECK_EQ(shared[0] * 10 + shared[1], 12);

    CHECK_EQ(fault_signal(0), SIGSEGV);
    CHECK_EQ(fault_signal(1), SIGSEGV);
    CHECK_EQ(fault_signal(2), 0);
    CHECK_EQ(fault_signal(3), SIGSEGV);
    CHECK_EQ(fault_signal(4), SIGSEGV);
    shared[0] = shared[1] = 0;
    CHECK_EQ(fault_signal(5), SIGSEGV);
    CHECK_EQ(shared[0], 1); /* the store before the fault happened */
    CHECK_EQ(shared[1], 0); /* the one after it did not */
    int32_t *s32 = (int32_t *)(shared + 4);
    s32[0] = s32[1] = 0;
    CHECK_EQ(fault_signal(6), SIGSEGV);
    CHECK_EQ(s32[0], 1);
    CHECK_EQ(s32[1], 0);

    if (!fails)
        puts("OK");
    return fails != 0;
}
