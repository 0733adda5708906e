/* universe.c — the soak run's keys and oracle.
 *
 * soak_key(i) applies P(x) = fmix(x ^ salt), a bijection of the key width's
 * words (MurmurHash3's 32-bit finaliser, or splitmix64's for 64 bits: each
 * step, an xor-shift or a multiplication by an odd number, can be undone),
 * and applies it again while the word is a reserved key ("cycle walking").
 * Indices are far below the reserved keys, so the walk from index i passes
 * only reserved words before it stops; walking back with the inverse until
 * the first non-reserved word leads to i again. */
#include "soak.h"

#include <stdlib.h>
#include <string.h>

/* x * m^-1 for odd m: Newton's iteration doubles the correct low bits. */
static uint64_t inverse_odd(uint64_t m)
{
    uint64_t x = m; /* correct to 3 bits */
    for (int i = 0; i < 5; i++)
        x *= 2 - m * x;
    return x;
}

/* Undoes y = x ^ (x >> s): x = y ^ (y >> s) ^ (y >> 2s) ^ ... */
static uint64_t unshift(uint64_t y, int s)
{
    uint64_t x = y;
    for (uint64_t t = y >> s; t != 0; t >>= s)
        x ^= t;
    return x;
}

#define M32A 0x85EBCA6Bu
#define M32B 0xC2B2AE35u
#define M64A 0xBF58476D1CE4E5B9ull
#define M64B 0x94D049BB133111EBull

static uint64_t mix(const soak_universe *u, uint64_t x)
{
    x ^= u->salt;
    if (u->t->kv_bytes == 4) {
        uint32_t h = (uint32_t)x;
        h ^= h >> 16;
        h *= M32A;
        h ^= h >> 13;
        h *= M32B;
        h ^= h >> 16;
        return h;
    }
    x ^= x >> 30;
    x *= M64A;
    x ^= x >> 27;
    x *= M64B;
    x ^= x >> 31;
    return x;
}

static uint64_t unmix(const soak_universe *u, uint64_t x)
{
    if (u->t->kv_bytes == 4) {
        uint32_t h = (uint32_t)unshift(x, 16);
        h *= (uint32_t)inverse_odd(M32B);
        h = (uint32_t)unshift(h, 13);
        h *= (uint32_t)inverse_odd(M32A);
        x = unshift(h, 16);
    } else {
        x = unshift(x, 31);
        x *= inverse_odd(M64B);
        x = unshift(x, 27);
        x *= inverse_odd(M64A);
        x = unshift(x, 30);
    }
    return x ^ u->salt;
}

uint64_t soak_key(const soak_universe *u, uint64_t index)
{
    uint64_t k = mix(u, index);
    while (k >= u->t->reserved_min)
        k = mix(u, k);
    return k;
}

uint64_t soak_index(const soak_universe *u, uint64_t key)
{
    uint64_t i = unmix(u, key);
    while (i >= u->t->reserved_min)
        i = unmix(u, i);
    return i;
}

uint64_t soak_stable_value(const soak_universe *u, uint64_t index)
{
    uint64_t x = index ^ 0x5DEECE66Dull;
    return ht_splitmix64(&x) & u->t->value_mask;
}

void soak_universe_init(soak_universe *u, const ht_target *t, uint64_t seed, uint64_t mutable_n,
                        uint64_t stable_n, uint64_t absent_n)
{
    uint64_t x = seed;
    u->t = t;
    u->salt = ht_splitmix64(&x) & t->value_mask;
    u->mutable_n = mutable_n;
    u->stable_n = stable_n;
    u->absent_n = absent_n;
    u->slots = calloc(mutable_n + stable_n, sizeof *u->slots);
    u->perm = malloc(mutable_n * sizeof *u->perm);
    if (u->slots == NULL || u->perm == NULL)
        ht_fatal("no host memory for the oracle of %llu keys",
                 (unsigned long long)(mutable_n + stable_n));
    uint64_t per_slice = mutable_n / SOAK_SLICES;
    for (unsigned s = 0; s < SOAK_SLICES; s++) {
        for (uint64_t j = 0; j < per_slice; j++)
            u->perm[s * per_slice + j] = (uint32_t)(s + SOAK_SLICES * j);
        u->live[s] = 0;
    }
    /* The inverse is what the export check trusts: make sure it is one. */
    for (uint64_t i = 0; i < soak_total(u); i += 1 + soak_total(u) / 4096) {
        uint64_t k = soak_key(u, i);
        if (k >= t->reserved_min || soak_index(u, k) != i)
            ht_fatal("soak_index(soak_key(%llu)) = %llu (key %llu)", (unsigned long long)i,
                     (unsigned long long)soak_index(u, k), (unsigned long long)k);
    }
}

void soak_universe_free(soak_universe *u)
{
    free(u->slots);
    free(u->perm);
    memset(u, 0, sizeof *u);
}

unsigned soak_oracle_apply(soak_slot *s, unsigned op, uint64_t *value, hive_combine mode,
                           uint64_t mask)
{
    switch (op) {
    case HIVE_OP_FIND:
        if (!s->present)
            return HIVE_RESULT_NOT_FOUND;
        *value = s->value;
        return HIVE_RESULT_FOUND;
    case HIVE_OP_ERASE:
        if (!s->present)
            return HIVE_RESULT_NOT_FOUND;
        s->present = 0;
        return HIVE_RESULT_ERASED;
    case HIVE_OP_INSERT:
    case HIVE_OP_UPSERT:
        if (!s->present) {
            s->present = 1;
            s->value = *value & mask;
            return HIVE_RESULT_INSERTED;
        }
        if (op == HIVE_OP_INSERT || mode == HIVE_COMBINE_KEEP)
            return HIVE_RESULT_EXISTED;
        s->value = ht_combine(mode, s->value, *value & mask, mask);
        return HIVE_RESULT_UPDATED;
    }
    ht_fatal("soak_oracle_apply: op %u is not a hive_op", op);
}
