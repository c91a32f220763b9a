/* Minimal <unistd.h> for the test drivers' macOS link (see stdio.h). */
#ifndef B3_TEST_UNISTD_H
#define B3_TEST_UNISTD_H
#include <stddef.h>
typedef int pid_t;
typedef long ssize_t;
pid_t fork(void);
void _exit(int) __attribute__((noreturn));
ssize_t write(int, const void *, size_t);
long sysconf(int);
#endif
