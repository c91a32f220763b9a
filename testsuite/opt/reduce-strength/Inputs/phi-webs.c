#include <stdio.h>
int bump(int *p, long n, long c);
int main(void) {
    int a[4] = {0, 0, 0, 0}, b[4] = {0, 0, 5, 0};
    int x = bump(a, 4, 1); /* a[2] = 1, then += 0, 1, 2, 3: 7 */
    int y = bump(b, 5, 0); /* b[2] = 5, then += 0..4 */
    printf("%d %d\n", x - 1, y);
    return 0;
}
