/* aim.c — keys aimed at buckets, by running the seeded bucket hashes
 * backwards. */
#include "aim.h"

#include "check.h"
#include "core/index.h"
#include "designs/chaining/pool.h"
#include "designs/cuckoo/probe.h"
#include "designs/double/probe.h"
#include "designs/names.h"
#include "designs/hive/probe.h"
#include "designs/iceberg/probe.h"
#include "designs/p2/probe.h"
#include "hash/bithash.h"

uint64_t ht_hash_seed(const hive_table *table)
{
    hive_config c = HIVE_CONFIG_INIT;
    HT_MUST(hive_get_config(table, &c));
    return c.hash_seed;
}

uint32_t ht_key_hash(const ht_target *t, uint64_t seed, uint64_t key, int which)
{
    if (t->width == HIVE_KV32)
        return which == 1 ? hive_hash1_k32((uint32_t)key, seed) : hive_hash2_k32((uint32_t)key, seed);
    return which == 1 ? hive_hash1_k64(key, seed) : hive_hash2_k64(key, seed);
}

uint32_t ht_key_probes(const ht_target *t)
{
    switch (hive_design_untagged(t->design)) {
    case HIVE_DESIGN_DOUBLE:
        return HIVE_DOUBLE_PROBES;
    case HIVE_DESIGN_P2:
        return HIVE_P2_PROBES;
    case HIVE_DESIGN_ICEBERG:
        return HIVE_ICEBERG_PROBES;
    case HIVE_DESIGN_CUCKOO:
        return HIVE_CUCKOO_PROBES;
    case HIVE_DESIGN_CHAINING:
        return 1; /* its head bucket; its chain does not depend on the table's size */
    default:
        return HIVE_HIVE_PROBES;
    }
}

uint32_t ht_probe_hash(const ht_target *t, uint32_t h1, uint32_t h2, uint32_t probe)
{
    switch (hive_design_untagged(t->design)) {
    case HIVE_DESIGN_DOUBLE:
        return hive_double_probe_hash(h1, h2, probe);
    case HIVE_DESIGN_P2:
        return hive_p2_probe_hash(h1, h2, probe);
    case HIVE_DESIGN_ICEBERG:
        return hive_iceberg_probe_hash(h1, h2, probe);
    case HIVE_DESIGN_CUCKOO:
        return hive_cuckoo_probe_hash(h1, h2, probe);
    case HIVE_DESIGN_CHAINING:
        return hive_chaining_probe_hash(h1, h2, probe);
    default:
        return hive_hive_probe_hash(h1, h2, probe);
    }
}

uint64_t ht_probe_base_bucket(const ht_target *t, uint64_t seed, uint64_t base, uint64_t key,
                              uint32_t probe)
{
    uint32_t h = ht_probe_hash(t, ht_key_hash(t, seed, key, 1), ht_key_hash(t, seed, key, 2), probe);
    return hive_bucket_of(hive_index_for(base), h);
}

/* Designs whose probes are h1 + i * (h2 | 1) (designs/double/probe.h). */
static int stepped(const ht_target *t)
{
    hive_design d = hive_design_untagged(t->design);
    return d == HIVE_DESIGN_DOUBLE || d == HIVE_DESIGN_ICEBERG || d == HIVE_DESIGN_CUCKOO;
}

int ht_aim_tight(const ht_target *t) { return !(stepped(t) && t->width == HIVE_KV32); }

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

/* The hashes naming base buckets [first, end): bucket (h * base) >> 32 of
 * the base index, so h in [*lo, *hi) = [ceil(first 2^32 / base),
 * ceil(end 2^32 / base)). */
static void hashes_of(uint64_t base, uint64_t first, uint64_t end, uint64_t *lo, uint64_t *hi)
{
    unsigned __int128 one = (unsigned __int128)1 << 32;
    *lo = (uint64_t)(((unsigned __int128)first * one + base - 1) / base);
    *hi = (uint64_t)(((unsigned __int128)end * one + base - 1) / base);
}

static uint32_t hash_in(ht_rng *rng, uint64_t base, uint64_t first, uint64_t end)
{
    uint64_t lo, hi;
    hashes_of(base, first, end, &lo, &hi);
    return (uint32_t)ht_rng_range(rng, lo, hi - 1);
}

/* A key whose first hash names a bucket of the range and, for KV64, whose
 * second does too (the Hive and p2 designs) or whose probes all do (the
 * double and iceberg designs: probe i's hash is h1 + i * step for an odd step; a step of at most
 * the range's hashes over the probes, and a first hash that far from the
 * range's end, keep them all in it). */
static uint64_t candidate(const ht_target *t, uint64_t seed, ht_rng *rng, uint64_t base,
                          uint64_t first, uint64_t end)
{
    uint32_t h1, h2;
    if (stepped(t) && t->width == HIVE_KV64) {
        uint64_t lo, hi;
        uint32_t probes = ht_key_probes(t);
        hashes_of(base, first, end, &lo, &hi);
        uint64_t most = (hi - 1 - lo) / (probes - 1); /* the largest step */
        if (most == 0)
            ht_fatal("ht_aimed_keys: base buckets %llu..%llu of %llu hold too few hashes for %u "
                     "probes", (unsigned long long)first, (unsigned long long)end - 1,
                     (unsigned long long)base, probes);
        uint64_t step = 2 * ht_rng_range(rng, 0, (most - 1) / 2) + 1;
        h1 = (uint32_t)ht_rng_range(rng, lo, hi - 1 - (probes - 1) * step);
        h2 = (uint32_t)step;
    } else {
        h1 = hash_in(rng, base, first, end);
        h2 = hash_in(rng, base, first, end);
    }
    uint32_t lo = undo_bithash1(h1);
    if (t->width == HIVE_KV32)
        return lo ^ (uint32_t)seed;
    uint32_t hi = undo_bithash2(h2);
    return undo_fold64(((uint64_t)hi << 32) | lo) ^ seed;
}

void ht_aimed_keys(const ht_target *t, uint64_t seed, ht_rng *rng, uint64_t base, uint64_t first,
                   uint64_t count, uint64_t *out, size_t n, ht_ref *taken)
{
    const uint64_t end = first + count;
    if (count == 0 || end > base)
        ht_fatal("ht_aimed_keys: buckets [%llu, %llu) are not within a base of %llu",
                 (unsigned long long)first, (unsigned long long)end, (unsigned long long)base);
    /* KV32 draws for its second hash (base / count tries a key on average);
     * far more than that in a row means the range has run out of keys. */
    const uint64_t give_up = 1000 * (base / count + 1);
    /* The probes a key must have in the range, and those its making puts
     * there (the rest are drawn for). */
    const uint32_t wanted = ht_aim_tight(t) ? ht_key_probes(t) : 1;
    const uint32_t made = t->width == HIVE_KV64 ? wanted : 1;
    uint64_t misses = 0;
    for (size_t i = 0; i < n;) {
        uint64_t key = candidate(t, seed, rng, base, first, end);
        uint32_t in = 0;
        uint64_t out_at = 0;
        while (in < wanted) {
            out_at = ht_probe_base_bucket(t, seed, base, key, in);
            if (out_at < first || out_at >= end)
                break;
            in++;
        }
        if (in < made)
            ht_fatal("ht_aimed_keys: key %llu made for base buckets %llu..%llu has its probe %u "
                     "in bucket %llu: an inverse hash is wrong",
                     (unsigned long long)key, (unsigned long long)first,
                     (unsigned long long)end - 1, in, (unsigned long long)out_at);
        if (in < wanted || key >= t->reserved_min || ht_ref_get(taken, key, NULL)) {
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
