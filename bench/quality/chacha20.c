/* ChaCha20 (RFC 8439 block function, 20 rounds) encrypting len bytes from in
 * to out: the quarter round written as the usual macro over a local array,
 * rotates as shift/shift/or, the keystream XORed in a byte at a time.
 * Returns a hash of the ciphertext: see chacha20.b3. */
#include <stdint.h>

#define ROTL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))
#define QR(a, b, c, d)                                      \
    x[a] += x[b]; x[d] ^= x[a]; x[d] = ROTL(x[d], 16);       \
    x[c] += x[d]; x[b] ^= x[c]; x[b] = ROTL(x[b], 12);       \
    x[a] += x[b]; x[d] ^= x[a]; x[d] = ROTL(x[d], 8);        \
    x[c] += x[d]; x[b] ^= x[c]; x[b] = ROTL(x[b], 7);

static void chacha20_block(uint32_t *out, const uint32_t *in)
{
    uint32_t x[16];
    for (int32_t i = 0; i < 16; i++)
        x[i] = in[i];
    for (int32_t i = 0; i < 10; i++) {
        QR(0, 4, 8, 12)
        QR(1, 5, 9, 13)
        QR(2, 6, 10, 14)
        QR(3, 7, 11, 15)
        QR(0, 5, 10, 15)
        QR(1, 6, 11, 12)
        QR(2, 7, 8, 13)
        QR(3, 4, 9, 14)
    }
    for (int32_t i = 0; i < 16; i++)
        out[i] = x[i] + in[i];
}

uint64_t kernel_chacha20_c(const uint8_t *in, uint8_t *out, int64_t len, const uint32_t *key)
{
    uint32_t state[16], ks[16];
    state[0] = 0x61707865;
    state[1] = 0x3320646e;
    state[2] = 0x79622d32;
    state[3] = 0x6b206574;
    for (int32_t i = 0; i < 8; i++)
        state[4 + i] = key[i];
    state[12] = 1;
    state[13] = 0;
    state[14] = 0x4a000000;
    state[15] = 0;
    uint64_t hash = 0;
    for (int64_t off = 0; off < len; off += 64) {
        chacha20_block(ks, state);
        state[12]++;
        const uint8_t *kb = (const uint8_t *)ks;
        for (int32_t i = 0; i < 64 && off + i < len; i++) {
            uint8_t c = in[off + i] ^ kb[i];
            out[off + i] = c;
            hash = hash * 31 + c;
        }
    }
    return hash;
}
