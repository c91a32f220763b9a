/* Minimal <sys/mman.h> for the test drivers' macOS link (see ../stdio.h):
 * Darwin's flag values. */
#ifndef B3_TEST_SYS_MMAN_H
#define B3_TEST_SYS_MMAN_H
#include <stddef.h>
typedef long long off_t;
#define PROT_NONE 0
#define PROT_READ 1
#define PROT_WRITE 2
#define PROT_EXEC 4
#define MAP_SHARED 0x1
#define MAP_PRIVATE 0x2
#define MAP_ANONYMOUS 0x1000
#define MAP_ANON MAP_ANONYMOUS
#define MAP_FAILED ((void *)-1)
void *mmap(void *, size_t, int, int, int, off_t);
int munmap(void *, size_t);
int mprotect(void *, size_t, int);
#endif
