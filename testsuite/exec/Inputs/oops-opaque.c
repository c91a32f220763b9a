/* Driver for ../oops-opaque.b3: the trapping calls run in a child process. */
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int64_t div_or_trap(int64_t);
void always_trap(void);
int64_t opaque_mix(int64_t);
int64_t count_then_trap(int64_t);

/* Oops is ud2 on x86-64 (SIGILL), brk #0 on arm64 (SIGTRAP). */
#if defined(__aarch64__)
#define TRAP_SIGNAL SIGTRAP
#else
#define TRAP_SIGNAL SIGILL
#endif

static int fails;
#define CHECK_EQ(got, want)                                                                        \
    do {                                                                                           \
        int64_t g_ = (got), w_ = (want);                                                           \
        if (g_ != w_) {                                                                            \
            printf("FAIL line %d: %s = %" PRId64 ", want %" PRId64 "\n", __LINE__, #got, g_, w_); \
            fails++;                                                                               \
        }                                                                                          \
    } while (0)

/* Runs f(a) in a child; returns the signal that ended it (0 if it returned). */
static int trap_signal(int which, int64_t a) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        if (which == 0)
            div_or_trap(a);
        else if (which == 1)
            always_trap();
        else
            count_then_trap(a);
        _exit(0);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

int main(void) {
    CHECK_EQ(div_or_trap(7), 1000 / 7);
    CHECK_EQ(div_or_trap(-3), 1000 / -3);
    for (int64_t a = -5; a < 6; a++)
        CHECK_EQ(opaque_mix(a), a + 5 * a);
    CHECK_EQ(opaque_mix(INT64_C(1) << 50), (INT64_C(1) << 50) * 6);
    CHECK_EQ(count_then_trap(0), 0);
    CHECK_EQ(count_then_trap(100), 200);
    CHECK_EQ(trap_signal(0, 0), TRAP_SIGNAL);
    CHECK_EQ(trap_signal(0, 5), 0);
    CHECK_EQ(trap_signal(1, 0), TRAP_SIGNAL);
    CHECK_EQ(trap_signal(2, 101), TRAP_SIGNAL);
    CHECK_EQ(trap_signal(2, 50), 0);
    printf("%s\n", fails ? "FAILED" : "OK");
    return fails != 0;
}
