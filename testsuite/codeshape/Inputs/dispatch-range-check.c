#include <stdio.h>
long run(const unsigned char *pc);
int main(void) {
    static const unsigned char a[] = {1, 2, 1, 2, 1, 1, 1, 0};
    static const unsigned char b[] = {1, 1, 1, 2, 1, 1, 3, 3, 3, 0};
    static const unsigned char c[] = {1, 2, 9, 0};
    printf("%ld %ld %ld\n", run(a), run(b), run(c));
    return 0;
}
