/* rng.h — the tests' seeded random numbers: xoshiro256** seeded through
 * splitmix64, so that one printed 64-bit seed reproduces a whole run. */
#ifndef HT_RNG_H
#define HT_RNG_H

#include <stdint.h>

typedef struct ht_rng {
    uint64_t s[4];
    uint64_t seed; /* as given, for messages */
} ht_rng;

static inline uint64_t ht_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline void ht_rng_seed(ht_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = ht_splitmix64(&x);
    r->seed = seed;
}

static inline uint64_t ht_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t ht_rng_next(ht_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = ht_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = ht_rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n), n >= 1 (multiply-shift; the bias is below 2^-32). */
static inline uint64_t ht_rng_below(ht_rng *r, uint64_t n)
{
    return (uint64_t)(((unsigned __int128)ht_rng_next(r) * n) >> 64);
}

/* Uniform in [lo, hi]. */
static inline uint64_t ht_rng_range(ht_rng *r, uint64_t lo, uint64_t hi)
{
    return lo + ht_rng_below(r, hi - lo + 1);
}

/* 1 with probability p. */
static inline int ht_rng_chance(ht_rng *r, double p)
{
    return (double)(ht_rng_next(r) >> 11) * (1.0 / 9007199254740992.0) < p;
}

/* Log-uniform in [1, max]: as many batches of 1..10 as of 10^4..10^5. */
static inline uint64_t ht_rng_log_size(ht_rng *r, uint64_t max)
{
    uint64_t bits = 0;
    while ((1ull << (bits + 1)) <= max)
        bits++;
    uint64_t top = 1ull << ht_rng_below(r, bits + 1); /* 1, 2, 4, .. <= max */
    uint64_t n = ht_rng_range(r, top, top * 2 - 1);
    return n > max ? max : n;
}

#endif
