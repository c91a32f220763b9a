/* Minimal <sys/wait.h> for the test drivers' macOS link (see ../stdio.h):
 * Darwin's status encoding. */
#ifndef B3_TEST_SYS_WAIT_H
#define B3_TEST_SYS_WAIT_H
#include <unistd.h>
#define WTERMSIG(s) ((s)&0177)
#define WIFSIGNALED(s) (WTERMSIG(s) != 0177 && WTERMSIG(s) != 0)
#define WIFEXITED(s) (WTERMSIG(s) == 0)
#define WEXITSTATUS(s) (((s) >> 8) & 0xff)
pid_t waitpid(pid_t, int *, int);
#endif
