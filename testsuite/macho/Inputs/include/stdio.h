/* Minimal <stdio.h> for linking the test drivers for macOS (proof 2 of
 * docs/testing.md, "Apple targets"): only what they use.  libSystem's names
 * (__stdoutp, __stderrp) so that ld64.lld binds them to libSystem.tbd. */
#ifndef B3_TEST_STDIO_H
#define B3_TEST_STDIO_H
#include <stdarg.h>
#include <stddef.h>
typedef struct __sFILE FILE;
extern FILE *__stdinp, *__stdoutp, *__stderrp;
#define stdin __stdinp
#define stdout __stdoutp
#define stderr __stderrp
#define EOF (-1)
#define _IONBF 2
#define _IOLBF 1
#define _IOFBF 0
int printf(const char *, ...);
int fprintf(FILE *, const char *, ...);
int sprintf(char *, const char *, ...);
int snprintf(char *, size_t, const char *, ...);
int vfprintf(FILE *, const char *, va_list);
int vsnprintf(char *, size_t, const char *, va_list);
int puts(const char *);
int fputs(const char *, FILE *);
int putchar(int);
int fputc(int, FILE *);
int fflush(FILE *);
int setvbuf(FILE *, char *, int, size_t);
FILE *fopen(const char *, const char *);
int fclose(FILE *);
size_t fread(void *, size_t, size_t, FILE *);
size_t fwrite(const void *, size_t, size_t, FILE *);
void perror(const char *);
#endif
