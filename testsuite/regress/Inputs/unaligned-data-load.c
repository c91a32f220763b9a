#include <inttypes.h>
#include <stdio.h>
#include <string.h>

double load_d5(void);
int32_t load_i3(void);
int32_t load_h1(void);
int64_t load_a8(void);
int32_t store_i13(int32_t);

int main(void) {
    double d = load_d5();
    uint64_t bits;
    memcpy(&bits, &d, 8);
    printf("d5 %016" PRIx64 "\n", bits);
    printf("i3 0x%08" PRIx32 "\n", (uint32_t)load_i3());
    printf("h1 0x%04" PRIx32 "\n", (uint32_t)load_h1());
    printf("a8 0x%016" PRIx64 "\n", (uint64_t)load_a8());
    printf("stored 0x%08" PRIx32 "\n", (uint32_t)store_i13((int32_t)0x99887766));
    return 0;
}
