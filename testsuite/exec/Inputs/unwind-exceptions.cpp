// The driver of exec/unwind-exceptions.b3: main calls ex_a (b3c), which
// calls ex_b, which calls ex_c, which calls ex_callback; the callback throws
// when asked to, and main catches it.  Values main keeps in callee-saved
// registers across the call must survive the unwinding.
#include <cstdint>
#include <cstdio>

extern "C" int64_t ex_a(int64_t);

struct Boom {
    int64_t value, depth;
};

static volatile int64_t throw_above = 1500;

extern "C" int64_t ex_callback(int64_t depth, int64_t *p) {
    if (*p > throw_above)
        throw Boom{*p, depth};
    return *p + 1;
}

// The compiler cannot see through it, so the values below are computed at
// run time and kept in registers across the call.
__attribute__((noinline)) static int64_t opaque(int64_t x) {
    asm volatile("" : "+r"(x));
    return x;
}

int main() {
    int64_t v0 = opaque(11), v1 = opaque(23), v2 = opaque(37), v3 = opaque(41), v4 = opaque(53),
            v5 = opaque(67), v6 = opaque(71), v7 = opaque(83), v8 = opaque(97), v9 = opaque(101);
    int64_t want = 11 + 23 + 37 + 41 + 53 + 67 + 71 + 83 + 97 + 101;
    bool ok = true;
    // No throw (ex_callback gets 1001); the result is the same at every level.
    int64_t r = ex_a(opaque(1000));
    std::printf("returned %lld\n", (long long)r);
    try {
        ex_a(opaque(2001));
        std::printf("no exception\n");
        ok = false;
    } catch (const Boom &b) {
        std::printf("caught %lld at depth %lld\n", (long long)b.value, (long long)b.depth);
        ok = ok && b.value == 2002 && b.depth == 3;
    }
    int64_t got = v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9;
    std::printf("saved values %s\n", got == want ? "intact" : "CLOBBERED");
    ok = ok && got == want;
    std::printf("%s\n", ok ? "OK" : "FAIL");
    return 0;
}
