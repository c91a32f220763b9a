/* Minimal <signal.h> for the test drivers' macOS link (see stdio.h): the
 * signal numbers of Darwin; no ucontext. */
#ifndef B3_TEST_SIGNAL_H
#define B3_TEST_SIGNAL_H
#define SIGILL 4
#define SIGTRAP 5
#define SIGABRT 6
#define SIGFPE 8
#define SIGBUS 10
#define SIGSEGV 11
typedef void (*sig_t)(int);
#define SIG_DFL ((sig_t)0)
#define SIG_IGN ((sig_t)1)
sig_t signal(int, sig_t);
int raise(int);
#endif
