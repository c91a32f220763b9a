// A range decoder in the shape of xz's lzma_decode: every bit is a state
// of a resumable machine (a case label inside the loop), so each of the
// sixteen locals is merged by Phis at every one of them.  At -O2 the
// copies joining those Phis coalesce (optimistically: a merged value that
// finds no register spills whole, into one slot, rather than being parted
// into pieces that copy between registers and slots at every merge): 1,935
// moves in the object with conservative coalescing, 1,607 now.  The output is
// checked against gcc's.
// REQUIRES: x86_64
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t.bc
// RUN: %b3c -O2 %t.bc -o %t.o
// RUN: llvm-objdump -d --no-show-raw-insn %t.o | awk '$2 ~ /^mov/ { n++ } END { print n + 0; exit !(n < 1750) }'
// RUN: %cc %t.o -o %t
// RUN: %run %t | FileCheck %s
// CHECK: checksum 3015786177234236221 calls 2125
#include <stdio.h>

struct S {
    int state, avail, pos;
    unsigned range, code;
    const unsigned char *in;
    unsigned short probs[4096];
    unsigned save[16], out[256];
};
#define BIT(k, p, v)                                         \
    case k:                                                  \
        if (s->range < (1u << 24)) {                         \
            if (s->avail == 0) {                             \
                s->state = k;                                \
                goto out;                                    \
            }                                                \
            s->avail--;                                      \
            s->range <<= 8;                                  \
            s->code = (s->code << 8) | s->in[s->pos++];      \
        }                                                    \
        {                                                    \
            unsigned bound = (s->range >> 11) * s->probs[p]; \
            if (s->code < bound) {                           \
                s->range = bound;                            \
                s->probs[p] += (2048 - s->probs[p]) >> 5;    \
                v = v * 2;                                   \
            } else {                                         \
                s->range -= bound;                           \
                s->code -= bound;                            \
                s->probs[p] -= s->probs[p] >> 5;             \
                v = v * 2 + 1;                               \
            }                                                \
        }
int decode(struct S *s) {
    unsigned v0 = s->save[0];
    unsigned v1 = s->save[1];
    unsigned v2 = s->save[2];
    unsigned v3 = s->save[3];
    unsigned v4 = s->save[4];
    unsigned v5 = s->save[5];
    unsigned v6 = s->save[6];
    unsigned v7 = s->save[7];
    unsigned v8 = s->save[8];
    unsigned v9 = s->save[9];
    unsigned v10 = s->save[10];
    unsigned v11 = s->save[11];
    unsigned v12 = s->save[12];
    unsigned v13 = s->save[13];
    unsigned v14 = s->save[14];
    unsigned v15 = s->save[15];
    switch (s->state) {
    case 1000:
        break;
    default:
        goto out;
    case 0:
        for (;;) {
            BIT(1, (v1 & 255) + 97, v3)
            BIT(2, (v2 & 255) + 194, v6)
            BIT(3, (v3 & 255) + 291, v9)
            BIT(4, (v4 & 255) + 388, v12)
            BIT(5, (v5 & 255) + 485, v15)
            BIT(6, (v6 & 255) + 582, v2)
            s->out[(v6 ^ v2) & 255] += v7;
            if (v2 > 100000)
                v2 = v7 & 7;
            BIT(7, (v7 & 255) + 679, v5)
            BIT(8, (v8 & 255) + 776, v8)
            BIT(9, (v9 & 255) + 873, v11)
            BIT(10, (v10 & 255) + 970, v14)
            BIT(11, (v11 & 255) + 1067, v1)
            BIT(12, (v12 & 255) + 1164, v4)
            s->out[(v12 ^ v4) & 255] += v13;
            if (v4 > 100000)
                v4 = v9 & 7;
            BIT(13, (v13 & 255) + 1261, v7)
            BIT(14, (v14 & 255) + 1358, v10)
            BIT(15, (v15 & 255) + 1455, v13)
            BIT(16, (v0 & 255) + 1552, v0)
            BIT(17, (v1 & 255) + 1649, v3)
            BIT(18, (v2 & 255) + 1746, v6)
            s->out[(v2 ^ v6) & 255] += v3;
            if (v6 > 100000)
                v6 = v11 & 7;
            BIT(19, (v3 & 255) + 1843, v9)
            BIT(20, (v4 & 255) + 1940, v12)
            BIT(21, (v5 & 255) + 2037, v15)
            BIT(22, (v6 & 255) + 2134, v2)
            BIT(23, (v7 & 255) + 2231, v5)
            BIT(24, (v8 & 255) + 2328, v8)
            s->out[(v8 ^ v8) & 255] += v9;
            if (v8 > 100000)
                v8 = v13 & 7;
            if (s->pos > 4000)
                break;
        }
    }
out:
    s->save[0] = v0;
    s->save[1] = v1;
    s->save[2] = v2;
    s->save[3] = v3;
    s->save[4] = v4;
    s->save[5] = v5;
    s->save[6] = v6;
    s->save[7] = v7;
    s->save[8] = v8;
    s->save[9] = v9;
    s->save[10] = v10;
    s->save[11] = v11;
    s->save[12] = v12;
    s->save[13] = v13;
    s->save[14] = v14;
    s->save[15] = v15;
    return 0;
}

int main(void) {
    static struct S s;
    static unsigned char input[5000];
    unsigned x = 2463534242u;
    for (int i = 0; i < 5000; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        input[i] = (unsigned char)x;
    }
    for (int i = 0; i < 4096; i++)
        s.probs[i] = 1024;
    s.in = input;
    s.range = 0xffffffffu;
    unsigned long sum = 0;
    int calls = 0;
    for (int off = 0; off < 5000 && calls < 100000; calls++) {
        if (s.avail == 0) {
            s.pos = off;
            s.avail = 5000 - off < 29 ? 5000 - off : 29;
            off += s.avail;
        }
        decode(&s);
        sum = sum * 31 + (unsigned)s.state;
    }
    for (int i = 0; i < 16; i++)
        sum = sum * 31 + (unsigned)s.save[i];
    for (int i = 0; i < 256; i++)
        sum = sum * 31 + (unsigned)s.out[i];
    for (int i = 0; i < 4096; i++)
        sum = sum * 7 + s.probs[i];
    printf("checksum %lu calls %d\n", sum, calls);
    return 0;
}
