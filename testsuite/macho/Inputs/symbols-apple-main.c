/* The driver of macho/symbols.test (Inputs/symbols-apple.c). */
#include <stdio.h>

int constructors(int i);
void run_threads(void);
long thread_counter(int k);
long thread_zero(int k);
const char *thread_name(int k);

void say(const char *s) { puts(s); }

int main(void) {
    printf("constructors:");
    for (int i = 0; constructors(i) >= 0; i++)
        printf(" %d", constructors(i));
    printf("\n");
    run_threads();
    for (int k = 1; k <= 3; k++)
        printf("thread %d: counter %ld zero %ld name %s\n", k, thread_counter(k), thread_zero(k),
               thread_name(k));
    printf("main: counter %ld zero %ld name %s\n", thread_counter(0), thread_zero(0), thread_name(0));
    return 0;
}
