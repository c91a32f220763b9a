#include <stdint.h>
#include <stdio.h>
int64_t pinned9(int64_t);
int64_t late5(int64_t);
static int calls;
void h(void) { calls += 7; }
int main(void) {
    printf("pinned %lld\n", (long long)pinned9(6)); /* 9x + 3x = 12x */
    printf("late %lld\n", (long long)late5(3));     /* 5x + 2x = 7x */
    printf("h %d\n", calls);
    return 0;
}
