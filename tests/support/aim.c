/* aim.c — keys aimed at buckets, by running the bucket hashes backwards. */
#include "aim.h"

#include "check.h"
#include "core/index.h"
#include "hash/bithash.h"

uint32_t ht_key_hash(const ht_target *t, uint64_t key, int which)
{
    if (t->width == HIVE_KV32)
        return which == 1 ? hive_bithash1((uint32_t)key) : hive_bithash2((uint32_t)key);
    return which == 1 ? hive_hash1_k64(key) : hive_hash2_k64(key);
}

uint64_t ht_base_bucket(const ht_target *t, uint64_t base, uint64_t key, int which)
{
    return hive_bucket_of(hive_index_for(base), ht_key_hash(t, key, which));
}

/* ---------------------------------------------------------------- inverse steps */

/* The inverse of an odd number modulo 2^64 (Newton's iteration: each step
 * doubles the correct low bits, from 3). */
static uint64_t odd_inverse(uint64_t a)
{
    uint64_t x = a;
    for (int i = 0; i < 5; i++)
        x *= 2 - a * x;
    return x;
}

/* x from y = x ^ (x >> s) in `bits` bits: the top s bits of y are x's, and
 * each round gets s more. */
static uint64_t undo_xorshift(uint64_t y, int s, int bits)
{
    uint64_t x = y;
    for (int got = s; got < bits; got += s)
        x = y ^ (x >> s);
    return x;
}

static uint32_t undo_bithash1(uint32_t h)
{
    uint32_t k = (uint32_t)undo_xorshift(h, 16, 32);
    k *= (uint32_t)odd_inverse(2057u);
    k = (uint32_t)undo_xorshift(k, 4, 32);
    k *= (uint32_t)odd_inverse(5u); /* k += k << 2 */
    k = (uint32_t)undo_xorshift(k, 12, 32);
    return (k + 1u) * (uint32_t)odd_inverse(32767u); /* ~k + (k << 15) = 32767 k - 1 */
}

static uint32_t undo_bithash2(uint32_t h)
{
    uint32_t k = (uint32_t)undo_xorshift(h ^ 0xb55a4f09u, 16, 32);
    k = (k - 0xfd7046c5u) * (uint32_t)odd_inverse(9u);
    /* y = (x + c) ^ (x << 9): x = (y ^ (x << 9)) - c holds for the true x,
     * and each round makes 9 more low bits of x right. */
    uint32_t x = 0;
    for (int got = 0; got < 32; got += 9)
        x = (k ^ (x << 9)) - 0xd3a2646cu;
    k = (x - 0x165667b1u) * (uint32_t)odd_inverse(33u);
    k = (uint32_t)undo_xorshift(k ^ 0xc761c23cu, 19, 32);
    return (k - 0x7ed55d16u) * (uint32_t)odd_inverse(4097u);
}

static uint64_t undo_fold64(uint64_t f)
{
    f = undo_xorshift(f, 33, 64);
    f *= odd_inverse(0xc4ceb9fe1a85ec53ull);
    f = undo_xorshift(f, 33, 64);
    f *= odd_inverse(0xff51afd7ed558ccdull);
    return undo_xorshift(f, 33, 64);
}

/* ---------------------------------------------------------------- aiming */

/* A hash naming one of base buckets [first, end): bucket (h * base) >> 32
 * of the base index, so h in [ceil(first 2^32 / base), ceil(end 2^32 / base)). */
static uint32_t hash_in(ht_rng *rng, uint64_t base, uint64_t first, uint64_t end)
{
    unsigned __int128 one = (unsigned __int128)1 << 32;
    uint64_t lo = (uint64_t)(((unsigned __int128)first * one + base - 1) / base);
    uint64_t hi = (uint64_t)(((unsigned __int128)end * one + base - 1) / base);
    return (uint32_t)ht_rng_range(rng, lo, hi - 1);
}

/* A key whose first hash names a bucket of the range and, for KV64, whose
 * second does too. */
static uint64_t candidate(const ht_target *t, ht_rng *rng, uint64_t base, uint64_t first,
                          uint64_t end)
{
    uint32_t lo = undo_bithash1(hash_in(rng, base, first, end));
    if (t->width == HIVE_KV32)
        return lo;
    uint32_t hi = undo_bithash2(hash_in(rng, base, first, end));
    return undo_fold64(((uint64_t)hi << 32) | lo);
}

void ht_aimed_keys(const ht_target *t, ht_rng *rng, uint64_t base, uint64_t first,
                   uint64_t count, uint64_t *out, size_t n, ht_ref *taken)
{
    const uint64_t end = first + count;
    if (count == 0 || end > base)
        ht_fatal("ht_aimed_keys: buckets [%llu, %llu) are not within a base of %llu",
                 (unsigned long long)first, (unsigned long long)end, (unsigned long long)base);
    /* KV32 draws for its second hash (base / count tries a key on average);
     * far more than that in a row means the range has run out of keys. */
    const uint64_t give_up = 1000 * (base / count + 1);
    uint64_t misses = 0;
    for (size_t i = 0; i < n;) {
        uint64_t key = candidate(t, rng, base, first, end);
        uint64_t b1 = ht_base_bucket(t, base, key, 1), b2 = ht_base_bucket(t, base, key, 2);
        int b1_in = b1 >= first && b1 < end, b2_in = b2 >= first && b2 < end;
        if (!b1_in || (t->width == HIVE_KV64 && !b2_in))
            ht_fatal("ht_aimed_keys: key %llu made for base buckets %llu..%llu has its hashes "
                     "in buckets %llu and %llu: an inverse hash is wrong",
                     (unsigned long long)key, (unsigned long long)first,
                     (unsigned long long)end - 1, (unsigned long long)b1, (unsigned long long)b2);
        if (!b2_in || key >= t->reserved_min || ht_ref_get(taken, key, NULL)) {
            if (++misses > give_up)
                ht_fatal("ht_aimed_keys: no new key found for base buckets %llu..%llu of %llu "
                         "after %llu tries (%zu of %zu made)",
                         (unsigned long long)first, (unsigned long long)end - 1,
                         (unsigned long long)base, (unsigned long long)misses, i, n);
            continue;
        }
        misses = 0;
        ht_ref_put(taken, key, 0);
        out[i++] = key;
    }
}
