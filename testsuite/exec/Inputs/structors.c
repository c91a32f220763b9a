/* The C side of exec/structors.b3: the constructors' numbers in the order
 * they ran, printed by main; the destructors print theirs at exit. */
#include <stdio.h>

static int order[16], n;

void record(int k) {
    if (k < 0)
        printf("destructor %d\n", k);
    else if (n < 16)
        order[n++] = k;
}

int main(void) {
    printf("main:");
    for (int i = 0; i < n; i++)
        printf(" %d", order[i]);
    printf("\n");
    return 0;
}
