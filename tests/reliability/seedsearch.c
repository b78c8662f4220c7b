/* The attack on lab seeds (tests/reliability/test_secret_deal.py): given one rack,
 * try every seed of a range the way meldtour dealt before secret seeds — Python's
 * random.Random("meldtour/<seed>/deal/0").shuffle(full set) — and print each seed
 * whose deal gives that rack at that place.
 *
 *   seedsearch deal SEED               print the shuffled tile codes (to check this
 *                                      program against Python's own shuffle)
 *   seedsearch search LO HI < TARGETS  for each target line "OFFSET C1 .. C14", the
 *                                      seeds in [LO, HI) whose deal holds the tile
 *                                      codes C1..C14 (any order) at OFFSET..OFFSET+13;
 *                                      prints "TARGET SEED" lines
 *
 * Python's seeding of a str (random.py, version 2): the int whose big-endian bytes
 * are s + sha512(s), given to init_by_array as little-endian 32-bit words; shuffle is
 * Fisher-Yates from the end with _randbelow(n) = getrandbits(n.bit_length()) redrawn
 * until below n; getrandbits(k <= 32) is one genrand_uint32() >> (32 - k).
 */
#include <openssl/sha.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 624
#define M 397
#define TILES 106
#define KINDS 53
#define MAX_TARGETS 8

typedef struct { uint32_t mt[N]; int i; } mt_t;

static void init_genrand(mt_t *s, uint32_t seed) {
    s->mt[0] = seed;
    for (int i = 1; i < N; i++)
        s->mt[i] = 1812433253U * (s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) + (uint32_t)i;
    s->i = N;
}

/* Python's key for one seed: the little-endian 32-bit words of the int whose
 * big-endian bytes are s + sha512(s); returns the number of words. */
static size_t seed_key(uint64_t seed, uint32_t *key) {
    unsigned char buf[128], le[160], digits[24];
    int nd = 0, len = 0;
    do { digits[nd++] = (unsigned char)('0' + seed % 10); seed /= 10; } while (seed);
    memcpy(buf, "meldtour/", 9); len = 9;
    while (nd) buf[len++] = digits[--nd];
    memcpy(buf + len, "/deal/0", 7); len += 7;
    SHA512(buf, (size_t)len, buf + len);
    int total = len + SHA512_DIGEST_LENGTH;
    memset(le, 0, sizeof le);
    for (int b = 0; b < total; b++) le[b] = buf[total - 1 - b];
    int top = buf[0], topbits = 0;
    while (top) { topbits++; top >>= 1; }
    int bits = (total - 1) * 8 + topbits;
    size_t words = (size_t)((bits - 1) / 32 + 1);
    for (size_t w = 0; w < words; w++)
        key[w] = (uint32_t)le[4 * w] | (uint32_t)le[4 * w + 1] << 8 |
                 (uint32_t)le[4 * w + 2] << 16 | (uint32_t)le[4 * w + 3] << 24;
    return words;
}

/* B seeds at once (their states side by side, so that the compiler uses vector
 * instructions): init_by_array for each. Every seed of one batch has the same key
 * length (the same number of decimal digits). */
#define B 16
static uint32_t base[N];

static void init_batch(uint32_t (*mt)[B], uint32_t (*key)[B], size_t len) {
    for (int i = 0; i < N; i++)
        for (int b = 0; b < B; b++) mt[i][b] = base[i];
    size_t i = 1, j = 0, k = N > len ? N : len;
    for (; k; k--) {
        for (int b = 0; b < B; b++)
            mt[i][b] = (mt[i][b] ^ ((mt[i - 1][b] ^ (mt[i - 1][b] >> 30)) * 1664525U))
                       + key[j][b] + (uint32_t)j;
        i++; j++;
        if (i >= N) { for (int b = 0; b < B; b++) mt[0][b] = mt[N - 1][b]; i = 1; }
        if (j >= len) j = 0;
    }
    for (k = N - 1; k; k--) {
        for (int b = 0; b < B; b++)
            mt[i][b] = (mt[i][b] ^ ((mt[i - 1][b] ^ (mt[i - 1][b] >> 30)) * 1566083941U))
                       - (uint32_t)i;
        i++;
        if (i >= N) { for (int b = 0; b < B; b++) mt[0][b] = mt[N - 1][b]; i = 1; }
    }
    for (int b = 0; b < B; b++) mt[0][b] = 0x80000000U;
}

static uint32_t temper(uint32_t y) {
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* The first N - M words of the twisted state, for every lane at once: they need only
 * the state before the twist. */
static uint32_t new_b[N][B], out_b[N - M][B];

static void twist_head(uint32_t (*mt)[B]) {
    for (int k = 0; k < N - M; k++)
        for (int b = 0; b < B; b++) {
            uint32_t y = (mt[k][b] & 0x80000000U) | (mt[k + 1][b] & 0x7fffffffU);
            uint32_t v = mt[k + M][b] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
            new_b[k][b] = v;
            out_b[k][b] = temper(v);
        }
}

/* Output k of lane b (k < N), past the head the rest of the twist word by word. */
static uint32_t output(uint32_t (*mt)[B], int b, int k) {
    if (k < N - M) return out_b[k][b];
    uint32_t next = k + 1 < N ? mt[k + 1][b] : new_b[0][b];
    uint32_t y = (mt[k][b] & 0x80000000U) | (next & 0x7fffffffU);
    uint32_t v = new_b[k - (N - M)][b] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
    new_b[k][b] = v;
    return temper(v);
}

/* The shuffle of lane b from its seeded state (at most N outputs: a shuffle of 106
 * uses about 150). */
static void shuffle_from(uint32_t (*mt)[B], int b, int *tiles) {
    int next = 0;
    for (int t = 0; t < TILES; t++) tiles[t] = t < 104 ? t / 2 : 52;
    for (int i = TILES - 1; i >= 1; i--) {
        uint32_t n = (uint32_t)i + 1, r;
        int k = 32 - __builtin_clz(n);
        do {
            if (next >= N) { fprintf(stderr, "more outputs than one twist\n"); exit(3); }
            r = output(mt, b, next++) >> (32 - k);
        } while (r >= n);
        int tmp = tiles[i]; tiles[i] = tiles[r]; tiles[r] = tmp;
    }
}

static uint32_t mt_b[N][B], key_b[40][B];

/* Deals seeds lo..lo+count-1 (count <= B, one key length), into tiles[b][]. */
static void deal_batch(uint64_t lo, int count, int (*tiles)[TILES]) {
    uint32_t key[40];
    size_t len = 0;
    for (int b = 0; b < B; b++) {
        len = seed_key(lo + (uint64_t)(b < count ? b : 0), key);
        for (size_t w = 0; w < len; w++) key_b[w][b] = key[w];
    }
    init_batch(mt_b, key_b, len);
    twist_head(mt_b);
    for (int b = 0; b < count; b++) shuffle_from(mt_b, b, tiles[b]);
}

static int digits(uint64_t x) { int d = 1; while (x >= 10) { x /= 10; d++; } return d; }

int main(int argc, char **argv) {
    static int tiles[B][TILES];
    mt_t s0;
    init_genrand(&s0, 19650218U);
    memcpy(base, s0.mt, sizeof base);
    if (argc == 3 && strcmp(argv[1], "deal") == 0) {
        deal_batch(strtoull(argv[2], NULL, 10), 1, tiles);
        for (int t = 0; t < TILES; t++)
            printf("%d%c", tiles[0][t], t + 1 < TILES ? ' ' : '\n');
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "search") == 0) {
        uint64_t lo = strtoull(argv[2], NULL, 10), hi = strtoull(argv[3], NULL, 10);
        /* Targets on standard input, one a line: OFFSET C1 .. C14. */
        static int want[MAX_TARGETS][KINDS], offset[MAX_TARGETS];
        int targets = 0;
        while (targets < MAX_TARGETS && scanf("%d", &offset[targets]) == 1) {
            for (int c = 0; c < 14; c++) {
                int code;
                if (scanf("%d", &code) != 1 || code < 0 || code >= KINDS) return 2;
                want[targets][code]++;
            }
            targets++;
        }
        for (uint64_t seed = lo; seed < hi;) {
            /* A batch: at most B seeds, all of one number of digits. */
            uint64_t stop = seed + B < hi ? seed + B : hi;
            while (digits(stop - 1) != digits(seed)) stop--;
            int count = (int)(stop - seed);
            deal_batch(seed, count, tiles);
            for (int b = 0; b < count; b++)
                for (int g = 0; g < targets; g++) {
                    int have[KINDS];
                    memcpy(have, want[g], sizeof have);
                    int ok = 1;
                    for (int t = offset[g]; t < offset[g] + 14; t++)
                        if (--have[tiles[b][t]] < 0) { ok = 0; break; }
                    if (ok) printf("%d %llu\n", g, (unsigned long long)(seed + (uint64_t)b));
                }
            seed = stop;
        }
        return 0;
    }
    fprintf(stderr, "usage: seedsearch deal SEED | search LO HI < targets\n");
    return 2;
}
