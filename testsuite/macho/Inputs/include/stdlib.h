/* Minimal <stdlib.h> for the test drivers' macOS link (see stdio.h). */
#ifndef B3_TEST_STDLIB_H
#define B3_TEST_STDLIB_H
#include <stddef.h>
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
void abort(void) __attribute__((noreturn));
void exit(int) __attribute__((noreturn));
void _Exit(int) __attribute__((noreturn));
void *malloc(size_t);
void *calloc(size_t, size_t);
void *realloc(void *, size_t);
void free(void *);
int atoi(const char *);
long atol(const char *);
long strtol(const char *, char **, int);
long long strtoll(const char *, char **, int);
unsigned long strtoul(const char *, char **, int);
unsigned long long strtoull(const char *, char **, int);
double strtod(const char *, char **);
int abs(int);
long labs(long);
char *getenv(const char *);
int atexit(void (*)(void));
void qsort(void *, size_t, size_t, int (*)(const void *, const void *));
#endif
