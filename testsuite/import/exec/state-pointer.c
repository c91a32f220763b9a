// A resumable decoder in the shape of bzip2's BZ2_decompress: a state
// pointer used in every state, two dozen locals saved to it on return, and
// the states' labels inside loops (cycles with several entries).  At -O2 the
// pointer, the value with by far the most uses, stays in a register; the
// locals that are only read at entry and written at exit are the ones that
// go to the stack.  (The graph colouring once chose spill candidates by
// degree times range over uses: the pointer, live everywhere, became a
// candidate first and was reloaded at every use: 101 64-bit reloads from the
// stack, against 20 now.)
// REQUIRES: x86_64
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t.bc
// RUN: %b3c -O2 %t.bc -S -o %t.s
// RUN: awk '/movq[ \t]+[0-9]+\(%%rsp\), %%r/ { n++ } END { print n + 0; exit !(n < 40) }' %t.s
// RUN: %b3c -O2 %t.bc -o %t.o
// RUN: %cc %t.o -o %t
// RUN: %run %t | FileCheck %s
// CHECK: checksum 1359850721749501978 calls 4624
#include <stdio.h>
#include <string.h>

#define NV 24
struct S {
    int state, avail, pos, live;
    unsigned bits;
    const unsigned char *in;
    int save[NV];
    int base[16];
    unsigned char mtf[4096];
    int out[1024];
    int limit[32];
};

#define V(i) int v##i = s->save[i];
#define W(i) s->save[i] = v##i;
#define ALL(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) \
    X(12) X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23)

/* One state: refill bits (may return), read a code, move to front. */
#define STATE(k, a, b, c, d, e)                                                    \
    for (;;) {                                                                    \
    S##k:                                                                         \
        while (s->live < v##a) {                                                  \
            if (s->avail == 0) {                                                  \
                s->state = k;                                                     \
                goto out;                                                         \
            }                                                                     \
            s->bits = (s->bits << 8) | s->in[s->pos++];                           \
            s->avail--;                                                           \
            s->live += 8;                                                         \
        }                                                                         \
        {                                                                         \
            int zn = v##b, zvec = (s->bits >> (s->live - zn)) & ((1 << zn) - 1); \
            s->live -= zn;                                                        \
            while (zvec > s->limit[zn & 31]) {                                    \
                zn++;                                                             \
                zvec = (zvec << 1) | (s->bits & 1);                               \
                s->bits >>= 1;                                                    \
                if (zn > 20) {                                                    \
                    r = -(k + 1);                                                 \
                    goto out;                                                     \
                }                                                                 \
            }                                                                     \
            int nn = zvec & 15, lno = (zvec >> 4) & 15, pp = s->base[lno] + nn;   \
            unsigned char uc = s->mtf[pp];                                        \
            while (pp > s->base[lno]) {                                           \
                s->mtf[pp] = s->mtf[pp - 1];                                      \
                pp--;                                                             \
            }                                                                     \
            s->mtf[s->base[lno]] = uc;                                            \
            s->out[v##c & 1023] = uc + v##d;                                      \
            v##c++;                                                               \
            v##d ^= zvec;                                                         \
        }                                                                         \
        if (v##c >= v##e)                                                         \
            break;                                                                \
    }

int decode(struct S *s) {
    ALL(V)
    int r = 0;
    switch (s->state) {
    case 0: goto S0;
    case 1: goto S1;
    case 2: goto S2;
    case 3: goto S3;
    case 4: goto S4;
    case 5: goto S5;
    default: goto out;
    }
    STATE(0, 0, 1, 2, 3, 7)
    STATE(1, 4, 5, 6, 7, 11)
    STATE(2, 8, 9, 10, 11, 15)
    STATE(3, 12, 13, 14, 15, 19)
    STATE(4, 16, 17, 18, 19, 23)
    STATE(5, 20, 21, 22, 23, 3)
out:
    ALL(W)
    return r;
}

int main(void) {
    static struct S s;
    static unsigned char input[4096];
    unsigned x = 12345;
    for (int i = 0; i < 4096; i++) {
        x = x * 1103515245u + 12345u;
        input[i] = (unsigned char)(x >> 16);
    }
    for (int i = 0; i < 16; i++)
        s.base[i] = 64 * i + 16;
    for (int i = 0; i < 4096; i++)
        s.mtf[i] = (unsigned char)(i * 7);
    for (int i = 0; i < 32; i++)
        s.limit[i] = (1 << (i < 20 ? i : 20)) - 1 - (i & 3);
    for (int i = 0; i < NV; i++)
        s.save[i] = i % 4 == 0 ? 9 : i % 4 == 1 ? 5 : i % 4 == 2 ? 0 : 300 + i;
    s.in = input;
    unsigned long sum = 0;
    int calls = 0;
    /* Feed the input in chunks: each call resumes where the last stopped. */
    for (int off = 0; off < 4096 && calls < 10000; calls++) {
        if (s.avail == 0) {
            s.pos = off;
            s.avail = 4096 - off < 37 ? 4096 - off : 37;
            off += s.avail;
        }
        int r = decode(&s);
        sum = sum * 31 + (unsigned)r + (unsigned)s.state;
        if (r < 0)
            s.state = (s.state + 1) % 6, s.live = 0;
    }
    for (int i = 0; i < NV; i++)
        sum = sum * 31 + (unsigned)s.save[i];
    for (int i = 0; i < 1024; i++)
        sum = sum * 31 + (unsigned)s.out[i];
    for (int i = 0; i < 4096; i++)
        sum = sum * 7 + s.mtf[i];
    printf("checksum %lu calls %d\n", sum, calls);
    return 0;
}
