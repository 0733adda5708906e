/* gen.h — every key, value and batch hive-bench uses, as pure functions of
 * (seed, position), compiled as C11 and as CUDA host+device code: the CPU
 * loops over them to fill host arrays, a GPU kernel calls the same functions
 * to fill device arrays, and the checks recompute what each element should
 * have produced.  Nothing here allocates or stores state.
 *
 * Keys.  A key is a keyed bijective mix of a counter, so keys from distinct
 * counters are distinct (unique keys without a set).  The mix is a permutation
 * of all 2^w words; reserved keys (>= HIVE_KV*_RESERVED_MIN) are skipped by
 * cycle-walking (apply the mix again until the word is not reserved), which
 * keeps the map a bijection from the counters below the reserved minimum onto
 * the non-reserved keys, and leaves it invertible: an exported key maps back
 * to the counter that made it, so an export can be checked exactly.
 *
 *   counters  [0, POS_LIMIT)            keys that workloads insert
 *             [NEG_BASE, +NEG_COUNT)    keys that are never inserted (misses)
 *
 * Values.  value(key, tag) is another mix; tag 0 is what a key is first
 * inserted with, tag 1 what an update writes.  poison(key, tag) differs from
 * value(key, tag) in every bit; it is written where a find's output goes, so a
 * find that leaves an entry unchanged is caught.
 *
 * Batches (bench_gen).  n elements; element i is first mapped to position
 * j = shuffle(i) (a keyed permutation of [0, n) when shuffling is on), and
 * position j falls in one of up to four segments, each one op over a run of
 * consecutive counters: e.g. the mixed workload's [insert new | find old |
 * erase old], interleaved at random by the shuffle.  In Zipf mode (YCSB) the
 * segment (0 = read, 1 = update) is drawn per element and the counter is a
 * Zipfian rank.
 */
#ifndef HIVE_BENCH_GEN_H
#define HIVE_BENCH_GEN_H

#include <math.h>
#include <stdint.h>

#include "hive.h"

#ifdef __CUDACC__
#define BENCH_HD __host__ __device__ __forceinline__
#else
#define BENCH_HD static inline
#endif

/* ---------------------------------------------------------------- counters */

#define BENCH_POS_LIMIT32 0xC0000000ull /* 3 * 2^30 insertable keys */
#define BENCH_NEG_BASE32 0xC0000000ull
#define BENCH_NEG_COUNT32 0x3FFFFFFCull /* up to the reserved keys */
#define BENCH_POS_LIMIT64 (1ull << 62)
#define BENCH_NEG_BASE64 (1ull << 62)
#define BENCH_NEG_COUNT64 (1ull << 61)

BENCH_HD uint64_t bench_pos_limit(uint32_t bits) { return bits == 32 ? BENCH_POS_LIMIT32 : BENCH_POS_LIMIT64; }
BENCH_HD uint64_t bench_neg_base(uint32_t bits) { return bits == 32 ? BENCH_NEG_BASE32 : BENCH_NEG_BASE64; }
BENCH_HD uint64_t bench_neg_count(uint32_t bits) { return bits == 32 ? BENCH_NEG_COUNT32 : BENCH_NEG_COUNT64; }

/* ---------------------------------------------------------------- mixing */

/* SplitMix64's finaliser: seeds, counters to uniform words. */
BENCH_HD uint64_t bench_mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* A uniform double in [0, 1) from (seed, i). */
BENCH_HD double bench_uniform(uint64_t seed, uint64_t i)
{
    return (double)(bench_mix64(seed ^ bench_mix64(i)) >> 11) * (1.0 / 9007199254740992.0);
}

/* The key permutation's round keys and width. */
typedef struct bench_keys {
    uint64_t k0, k1, k2;
    uint32_t bits; /* 32 or 64 */
    uint32_t pad;
} bench_keys;

/* Odd multipliers (MurmurHash3's finalisers) and their inverses mod 2^w. */
#define BENCH_M32A 0x85EBCA6Bu
#define BENCH_M32A_INV 0xA5CB9243u
#define BENCH_M32B 0xC2B2AE35u
#define BENCH_M32B_INV 0x7ED1B41Du
#define BENCH_M64A 0xFF51AFD7ED558CCDull
#define BENCH_M64A_INV 0x4F74430C22A54005ull
#define BENCH_M64B 0xC4CEB9FE1A85EC53ull
#define BENCH_M64B_INV 0x9CB4B2F8129337DBull

/* x ^= x >> s is its own inverse when 2s >= w, hence 16 and 33. */
BENCH_HD uint32_t bench_perm32(const bench_keys *k, uint32_t x)
{
    x ^= (uint32_t)k->k0;
    x ^= x >> 16;
    x *= BENCH_M32A;
    x += (uint32_t)k->k1;
    x ^= x >> 16;
    x *= BENCH_M32B;
    x += (uint32_t)k->k2;
    x ^= x >> 16;
    return x;
}

BENCH_HD uint32_t bench_unperm32(const bench_keys *k, uint32_t x)
{
    x ^= x >> 16;
    x -= (uint32_t)k->k2;
    x *= BENCH_M32B_INV;
    x ^= x >> 16;
    x -= (uint32_t)k->k1;
    x *= BENCH_M32A_INV;
    x ^= x >> 16;
    x ^= (uint32_t)k->k0;
    return x;
}

BENCH_HD uint64_t bench_perm64(const bench_keys *k, uint64_t x)
{
    x ^= k->k0;
    x ^= x >> 33;
    x *= BENCH_M64A;
    x += k->k1;
    x ^= x >> 33;
    x *= BENCH_M64B;
    x += k->k2;
    x ^= x >> 33;
    return x;
}

BENCH_HD uint64_t bench_unperm64(const bench_keys *k, uint64_t x)
{
    x ^= x >> 33;
    x -= k->k2;
    x *= BENCH_M64B_INV;
    x ^= x >> 33;
    x -= k->k1;
    x *= BENCH_M64A_INV;
    x ^= x >> 33;
    x ^= k->k0;
    return x;
}

/* The key of counter c (c below the reserved minimum). */
BENCH_HD uint64_t bench_key(const bench_keys *k, uint64_t c)
{
    if (k->bits == 32) {
        uint32_t x = bench_perm32(k, (uint32_t)c);
        while (x >= HIVE_KV32_RESERVED_MIN)
            x = bench_perm32(k, x);
        return x;
    }
    uint64_t x = bench_perm64(k, c);
    while (x >= HIVE_KV64_RESERVED_MIN)
        x = bench_perm64(k, x);
    return x;
}

/* The counter that made `key` (inverse of bench_key). */
BENCH_HD uint64_t bench_counter(const bench_keys *k, uint64_t key)
{
    if (k->bits == 32) {
        uint32_t x = bench_unperm32(k, (uint32_t)key);
        while (x >= HIVE_KV32_RESERVED_MIN)
            x = bench_unperm32(k, x);
        return x;
    }
    uint64_t x = bench_unperm64(k, key);
    while (x >= HIVE_KV64_RESERVED_MIN)
        x = bench_unperm64(k, x);
    return x;
}

BENCH_HD uint64_t bench_value(uint32_t bits, uint64_t key, uint32_t tag)
{
    uint64_t v = (key + 0x9E3779B97F4A7C15ull * (uint64_t)(tag + 1)) * 0xD6E8FEB86659FD93ull;
    v ^= v >> 29;
    return bits == 32 ? (uint32_t)v : v;
}

BENCH_HD uint64_t bench_poison(uint32_t bits, uint64_t key, uint32_t tag)
{
    uint64_t v = ~bench_value(bits, key, tag);
    return bits == 32 ? (uint32_t)v : v;
}

/* ---------------------------------------------------------------- batches */

#define BENCH_MAX_SEGS 4

typedef struct bench_seg {
    uint64_t start;    /* first position of the segment */
    uint64_t count;    /* positions (Zipf mode: the number of records) */
    uint64_t base;     /* counter of the segment's first key */
    uint32_t op;       /* hive_op */
    uint32_t expect;   /* expected hive_result, 0 = not checked */
    uint32_t vtag;     /* value tag written (INSERT/UPSERT) or expected (FIND) */
    uint32_t vtag_alt; /* a second value a FIND may return (YCSB: updated) */
} bench_seg;

typedef struct bench_gen {
    bench_keys keys;
    uint64_t n;        /* elements */
    uint32_t nsegs;
    uint32_t shuffle;  /* 1: positions are a keyed permutation of [0, n) */
    uint32_t sshift;
    uint32_t zipf;     /* 1: YCSB mode, see bench_zipf */
    uint64_t smask, sa, sb, sc, sd;
    bench_seg seg[BENCH_MAX_SEGS];
    /* Zipf mode (Gray et al., "Quickly generating billion-record synthetic
     * databases", as in YCSB): ranks 0..zn-1, P(rank r) ~ 1/(r+1)^theta. */
    uint64_t zseed;
    double read_fraction; /* P(segment 0) */
    double ztheta, zalpha, zzetan, zeta, zhalf;
    uint64_t zn;
} bench_gen;

/* Position of element i: a bijection of [0, n), by cycle-walking a keyed
 * permutation of [0, 2^m) (m = bits of n - 1). */
BENCH_HD uint64_t bench_position(const bench_gen *g, uint64_t i)
{
    if (!g->shuffle)
        return i;
    uint64_t x = i;
    do {
        x = (x * g->sa + g->sb) & g->smask;
        x ^= x >> g->sshift;
        x = (x * g->sc + g->sd) & g->smask;
        x ^= x >> g->sshift;
    } while (x >= g->n);
    return x;
}

BENCH_HD uint64_t bench_zipf(const bench_gen *g, double u)
{
    double uz = u * g->zzetan;
    if (uz < 1.0)
        return 0;
    if (uz < 1.0 + g->zhalf)
        return g->zn > 1 ? 1 : 0;
    double r = (double)g->zn * pow(g->zeta * u - g->zeta + 1.0, g->zalpha);
    uint64_t rank = (uint64_t)r;
    return rank >= g->zn ? g->zn - 1 : rank;
}

/* Which segment element i belongs to, and its key. */
BENCH_HD const bench_seg *bench_element(const bench_gen *g, uint64_t i, uint64_t *key)
{
    const bench_seg *s;
    uint64_t c;
    if (g->zipf) {
        s = &g->seg[bench_uniform(g->zseed, 2 * i) < g->read_fraction ? 0 : 1];
        c = s->base + bench_zipf(g, bench_uniform(g->zseed, 2 * i + 1));
    } else {
        uint64_t j = bench_position(g, i);
        uint32_t k = 0;
        while (k + 1 < g->nsegs && j >= g->seg[k + 1].start)
            k++;
        s = &g->seg[k];
        c = s->base + (j - s->start);
    }
    *key = bench_key(&g->keys, c);
    return s;
}

/* Writes element i into whichever of ops (uint8_t), keys and values (the
 * table's width) are not NULL.  Values: the op's input for INSERT/UPSERT,
 * poison for FIND (its output slot) and ERASE. */
BENCH_HD void bench_fill_element(const bench_gen *g, uint64_t i, uint8_t *ops, void *keys,
                                 void *values)
{
    uint64_t key;
    const bench_seg *s = bench_element(g, i, &key);
    uint32_t bits = g->keys.bits;
    if (ops != 0)
        ops[i] = (uint8_t)s->op;
    if (keys != 0) {
        if (bits == 32)
            ((uint32_t *)keys)[i] = (uint32_t)key;
        else
            ((uint64_t *)keys)[i] = key;
    }
    if (values != 0) {
        uint64_t v = (s->op == HIVE_OP_INSERT || s->op == HIVE_OP_UPSERT)
                         ? bench_value(bits, key, s->vtag)
                         : bench_poison(bits, key, s->vtag);
        if (bits == 32)
            ((uint32_t *)values)[i] = (uint32_t)v;
        else
            ((uint64_t *)values)[i] = v;
    }
}

/* Failure bits of one element's outcome. */
#define BENCH_BAD_RESULT 1u /* results[i] is not the expected hive_result */
#define BENCH_BAD_FOUND 2u  /* found[i] is not the expected 1/0 */
#define BENCH_BAD_VALUE 4u  /* a find returned a wrong value, or wrote one for a miss */

/* Checks element i against its segment's expectation; results, found and
 * values (FIND outputs) are each optional. */
BENCH_HD uint32_t bench_check_element(const bench_gen *g, uint64_t i, const uint8_t *results,
                                      const uint8_t *found, const void *values)
{
    uint64_t key;
    const bench_seg *s = bench_element(g, i, &key);
    uint32_t bad = 0, bits = g->keys.bits;
    if (s->expect == 0)
        return 0;
    if (results != 0 && results[i] != s->expect)
        bad |= BENCH_BAD_RESULT;
    if (s->op != HIVE_OP_FIND)
        return bad;
    int hit = s->expect == HIVE_RESULT_FOUND;
    if (found != 0 && found[i] != (uint8_t)hit)
        bad |= BENCH_BAD_FOUND;
    if (values != 0) {
        uint64_t v = bits == 32 ? ((const uint32_t *)values)[i] : ((const uint64_t *)values)[i];
        if (hit) {
            if (v != bench_value(bits, key, s->vtag) && v != bench_value(bits, key, s->vtag_alt))
                bad |= BENCH_BAD_VALUE;
        } else if (v != bench_poison(bits, key, s->vtag)) {
            bad |= BENCH_BAD_VALUE;
        }
    }
    return bad;
}

/* ---------------------------------------------------------------- exports */

/* The keys a table should hold: up to four counter ranges [lo, hi) with the
 * value tags their values may carry.  An exported pair maps back to its
 * counter; it must fall in a range, carry a right value, and be seen once
 * (one bit per live key, at prefix[r] + counter - lo[r]). */
typedef struct bench_live {
    bench_keys keys;
    uint32_t nranges;
    uint32_t pad;
    uint64_t lo[BENCH_MAX_SEGS], hi[BENCH_MAX_SEGS], prefix[BENCH_MAX_SEGS];
    uint32_t vtag[BENCH_MAX_SEGS], vtag_alt[BENCH_MAX_SEGS];
    uint64_t total; /* sum of the range lengths */
} bench_live;

#define BENCH_EXPORT_STRAY 1u /* key outside every live range */
#define BENCH_EXPORT_VALUE 2u /* wrong value */

/* Classifies one exported pair; *bit is its bit when the return is 0. */
BENCH_HD uint32_t bench_export_element(const bench_live *l, uint64_t key, uint64_t value,
                                       uint64_t *bit)
{
    uint64_t c = bench_counter(&l->keys, key);
    for (uint32_t r = 0; r < l->nranges; r++) {
        if (c >= l->lo[r] && c < l->hi[r]) {
            uint32_t bits = l->keys.bits;
            if (value != bench_value(bits, key, l->vtag[r]) &&
                value != bench_value(bits, key, l->vtag_alt[r]))
                return BENCH_EXPORT_VALUE;
            *bit = l->prefix[r] + (c - l->lo[r]);
            return 0;
        }
    }
    return BENCH_EXPORT_STRAY;
}

#endif
