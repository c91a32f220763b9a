/* Driver for cfg.b3. */
#include <stdint.h>
#include <stdio.h>

int64_t branch_const(int64_t);
int64_t dead_phi(int64_t);
int32_t branch_eqz(int64_t);
int64_t same_phi(int64_t, int64_t);
int64_t loop(int64_t);
int64_t switches(int64_t);
int64_t spin(int64_t);

static int fails;
static void check(const char *what, long long got, long long want) {
    if (got != want) {
        printf("FAIL %s: got %lld want %lld\n", what, got, want);
        fails++;
    }
}

int main(void) {
    check("branch_const", branch_const(41), 42);
    check("dead_phi", dead_phi(-3), -3);
    check("branch_eqz(0)", branch_eqz(0), 10);
    check("branch_eqz(5)", branch_eqz(5), 20);
    check("same_phi", same_phi(9, 0), 9);
    check("same_phi", same_phi(9, 1), 9);
    check("loop", loop(100), 110);
    check("switches(0)", switches(0), 40);
    check("switches(6)", switches(6), 6);
    check("spin", spin(0), 0);
    printf(fails ? "FAILED\n" : "OK\n");
    return fails != 0;
}
