/* The C side of exec/linkage.b3: a strong definition that overrides the b3
 * object's weak one, and no definition of its weak reference. */
#include <stdint.h>
#include <stdio.h>

int64_t overridden(void) { return 2; }
int64_t overridden_data = 20;

int64_t b3_linkage(void);

int main(void) {
    printf("b3_linkage %ld\n", (long)b3_linkage());
    return 0;
}
