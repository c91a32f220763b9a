/* Host driver of the loader's tests (../loader-*.test): calls the functions of
 * relocs-<arch>.s, loaded by macho_run.c, and reads its data. */
#include <stdio.h>
#include <stdlib.h>

long host_data[4] = {11, 22, 33, 44};
extern long answer[2];
int call_ext(int);
long call_local(void);
long signed_n(void);
long got_load(void);
long got_data(void);
long diff(void);
int ptr_call(int);
const char *local_str(void);
const char *local_ptr(void);
long zero(void);
#if !defined(__APPLE__)
void *b3_macho_sym(const char *name); /* macho_run.c */
#endif
#if defined(__aarch64__)
long addend(void);
long wide(void);
long ptr_got(void);
#endif

int main(void) {
    printf("call_ext %d\n", call_ext(-5));
    printf("call_local %ld\n", call_local());
    printf("signed_n %ld\n", signed_n());
    printf("got_load %ld\n", got_load());
    printf("got_data %ld\n", got_data());
    printf("diff %ld\n", diff());
    printf("ptr_call %d\n", ptr_call(-9));
    printf("local_str %s\n", local_str());
    printf("local_ptr %s\n", local_ptr());
    long z0 = zero();
    printf("zero %ld %ld\n", z0, zero());
    printf("answer %ld %ld\n", answer[0], answer[1]);
#if !defined(__APPLE__)
    /* the driver's references are bound to the loaded definitions */
    printf("bound %d %d\n", (void *)call_ext == b3_macho_sym("call_ext"),
           (void *)answer == b3_macho_sym("answer"));
#endif
#if defined(__aarch64__)
    printf("addend %ld\n", addend());
    printf("wide %ld\n", wide());
    printf("ptr_got %ld\n", ptr_got());
#endif
    return 0;
}
