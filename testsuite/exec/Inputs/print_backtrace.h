/* For the unwinding drivers (exec/unwind-backtrace.b3, exec/unwind-paths.b3):
 * prints the function of each frame that glibc's backtrace() finds (libgcc's
 * unwinder, reading .eh_frame), from the caller of print_backtrace up to
 * main, one "frame: NAME" line each (the programs link with -rdynamic). */
#ifndef PRINT_BACKTRACE_H
#define PRINT_BACKTRACE_H

#include <execinfo.h>
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static void print_backtrace(void) {
    void *pcs[64];
    int n = backtrace(pcs, 64);
    char **names = backtrace_symbols(pcs, n);
    /* frame 0 is print_backtrace itself */
    for (int i = 1; names && i < n; i++) {
        /* "path(name+0xoff) [0xaddr]": the name, or the whole line if there is none. */
        const char *s = strchr(names[i], '('), *e = s ? strchr(s, '+') : NULL;
        if (s && e && e > s + 1)
            printf("frame: %.*s\n", (int)(e - s - 1), s + 1);
        else
            printf("frame: ? %s\n", names[i]);
        if (s && e && e - s - 1 == 4 && !strncmp(s + 1, "main", 4))
            break;
    }
}

#endif
