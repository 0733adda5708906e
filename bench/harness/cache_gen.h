/* cache_gen.h — the values and checks of the cache workloads as pure
 * functions, compiled as C11 and as CUDA host+device code like gen.h (whose
 * keys and batches they reuse: a cache batch is a bench_gen of 64-bit keys).
 *
 * Values.  A cache value is `dim` floats; element j of the value that key k
 * carries under tag t is  base(k, t) + j,  base a 20-bit mix of (k, t), so
 * every element is an integer below 2^20 + dim: exact in float, and compared
 * bit for bit.  Tag 0 is what a key is inserted with, tag 1 what the
 * 60%-hit mix writes over a present key.  A find's output is poisoned first
 * with all-ones words (a NaN no value has), so a find that writes a miss's
 * value is caught.
 *
 * Elements.  GPU kernels run one thread per value element (e = i * dim + j,
 * so that stores and loads coalesce); the CPU loops call the same functions
 * per element.  The key of element e is recomputed from (g, e / dim).
 *
 * The backing store of cache-hitrate: record r (the key) holds the 64-bit
 * value bench_backing_value(r); every access must come back with it, from
 * the cache on a hit and from the store on a miss. */
#ifndef HIVE_BENCH_CACHE_GEN_H
#define HIVE_BENCH_CACHE_GEN_H

#include <stdint.h>
#include <string.h>

#include "gen.h"

#define BENCH_CACHE_POISON 0xFFFFFFFFu

/* Bit positions of a cache check's failures (bench_cache_check's tallies). */
#define BENCH_CACHE_BAD_FOUND 1u /* found flag wrong (once per key: element j == 0) */
#define BENCH_CACHE_BAD_VALUE 2u /* a value element wrong, or a miss's output written */
#define BENCH_CACHE_BAD_KEY 4u   /* an evicted key that was never stored, or is in the batch */

BENCH_HD uint32_t bench_cache_base(uint64_t key, uint32_t tag)
{
    return (uint32_t)(bench_mix64(key ^ (0xA0761D6478BD642Full * (uint64_t)(tag + 1))) >> 44);
}

/* The bits of element j of a value whose base is `base` (a float, exact). */
BENCH_HD uint32_t bench_cache_word_of(uint32_t base, uint32_t j)
{
    float f = (float)(base + j);
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

BENCH_HD uint32_t bench_cache_word(uint64_t key, uint32_t tag, uint32_t j)
{
    return bench_cache_word_of(bench_cache_base(key, tag), j);
}

/* Element e of batch g: the key (written when keys is not NULL and j == 0)
 * and the value element of the segment's vtag (when values is not NULL). */
BENCH_HD void bench_cache_fill_element(const bench_gen *g, uint32_t dim, uint64_t e, uint64_t *keys,
                                       uint32_t *values)
{
    uint64_t i = e / dim, key;
    uint32_t j = (uint32_t)(e - i * dim);
    const bench_seg *s = bench_element(g, i, &key);
    if (keys != 0 && j == 0)
        keys[i] = key;
    if (values != 0)
        values[e] = bench_cache_word(key, s->vtag, j);
}

/* The same for all dim elements of key i (the CPU loops: one key mix a row). */
BENCH_HD void bench_cache_fill_row(const bench_gen *g, uint32_t dim, uint64_t i, uint64_t *keys,
                                   uint32_t *values)
{
    uint64_t key;
    const bench_seg *s = bench_element(g, i, &key);
    if (keys != 0)
        keys[i] = key;
    if (values != 0) {
        uint32_t base = bench_cache_base(key, s->vtag);
        for (uint32_t j = 0; j < dim; j++)
            values[i * dim + j] = bench_cache_word_of(base, j);
    }
}

/* Checks element j of key i of a find (or contains) over batch g: a segment
 * that expects HIVE_RESULT_FOUND must report found = 1 and the value of vtag
 * or vtag_alt; any other expectation found = 0 and the poison left in
 * place.  found and values may each be NULL (not checked). */
BENCH_HD uint32_t bench_cache_check_at(const bench_seg *s, uint64_t key, uint32_t dim, uint64_t i,
                                       uint32_t j, const uint8_t *found, const uint32_t *values)
{
    uint32_t bad = 0;
    int hit = s->expect == HIVE_RESULT_FOUND;
    if (found != 0 && j == 0 && found[i] != (uint8_t)hit)
        bad |= BENCH_CACHE_BAD_FOUND;
    if (values != 0) {
        uint32_t w = values[i * dim + j];
        if (hit) {
            if (w != bench_cache_word(key, s->vtag, j) && w != bench_cache_word(key, s->vtag_alt, j))
                bad |= BENCH_CACHE_BAD_VALUE;
        } else if (w != BENCH_CACHE_POISON) {
            bad |= BENCH_CACHE_BAD_VALUE;
        }
    }
    return bad;
}

BENCH_HD uint32_t bench_cache_check_element(const bench_gen *g, uint32_t dim, uint64_t e,
                                            const uint8_t *found, const uint32_t *values)
{
    uint64_t i = e / dim, key;
    const bench_seg *s = bench_element(g, i, &key);
    return bench_cache_check_at(s, key, dim, i, (uint32_t)(e - i * dim), found, values);
}

/* Adds key i's failures, one per element, to tally[k] for bit 1 << k. */
BENCH_HD void bench_cache_check_row(const bench_gen *g, uint32_t dim, uint64_t i,
                                    const uint8_t *found, const uint32_t *values, uint64_t *tally)
{
    uint64_t key;
    const bench_seg *s = bench_element(g, i, &key);
    for (uint32_t j = 0; j < dim; j++) {
        uint32_t bad = bench_cache_check_at(s, key, dim, i, j, found, values);
        for (int k = 0; k < 3; k++)
            tally[k] += (bad >> k) & 1u;
    }
}

/* What an insert_and_evict may hand back.  Keys stored before the call are
 * the counters below `limit`; the call's own keys are [lo, hi) and must all
 * stay (LRU admits every new key, and a batch far smaller than the table
 * never evicts its own keys).  A stored value carries tag 0 or 1. */
typedef struct bench_evicted {
    bench_keys keys;
    uint64_t limit, lo, hi;
} bench_evicted;

/* Checks element e of the evicted output (ev_keys (count), ev_values
 * (count * dim), or NULL). */
BENCH_HD uint32_t bench_cache_evicted_element(const bench_evicted *x, uint32_t dim, uint64_t e,
                                            const uint64_t *ev_keys, const uint32_t *ev_values)
{
    uint64_t i = e / dim;
    uint32_t j = (uint32_t)(e - i * dim), bad = 0;
    uint64_t key = ev_keys[i];
    if (j == 0) {
        uint64_t c = key < HIVE_KV64_RESERVED_MIN ? bench_counter(&x->keys, key) : x->limit;
        if (c >= x->limit || (c >= x->lo && c < x->hi))
            bad |= BENCH_CACHE_BAD_KEY;
    }
    if (ev_values != 0) {
        uint32_t w = ev_values[e];
        if (w != bench_cache_word(key, 0, j) && w != bench_cache_word(key, 1, j))
            bad |= BENCH_CACHE_BAD_VALUE;
    }
    return bad;
}

/* ---------------------------------------------------------------- cache-hitrate */

/* The value record r holds in the backing store. */
BENCH_HD uint64_t bench_backing_value(uint64_t r)
{
    return bench_mix64(r ^ 0x6A09E667F3BCC909ull);
}

/* The record of access i of a stream over `records` records: uniform, or a
 * Zipfian rank (z: a bench_gen_zipf over the records; rank 0 the hottest).
 * The record is the key itself, as in WarpSpeed's cache test. */
BENCH_HD uint64_t bench_access(const bench_gen *z, int zipf, uint64_t records, uint64_t seed,
                               uint64_t i)
{
    double u = bench_uniform(seed, i);
    if (zipf)
        return bench_zipf(z, u);
    uint64_t r = (uint64_t)(u * (double)records);
    return r >= records ? records - 1 : r;
}

#endif
