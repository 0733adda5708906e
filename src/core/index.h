/* index.h — which bucket a hash names, under linear hashing (Hive §IV-C).
 *
 * A table starts with `base` buckets (any count: its size at creation) and
 * grows in rounds: round m has base * 2^m buckets, of which the first
 * `split` have already been split into partners base * 2^m higher.  A hash h
 * names bucket  u + base * (h & mask)  where u = (h * base) >> 32 picks one of
 * the base buckets from h's high bits and the mask takes m low bits (m + 1
 * for a bucket below `split`).  Splitting bucket j moves the hashes whose
 * next low bit is set to j + base * 2^m; every other bucket keeps its hashes.
 * With a power-of-two base this is the classic mask rule; with any other,
 * a table created for exactly n keys has buckets of equal expected load (a
 * mask would leave it part way through a round, with buckets of two loads).
 * Both backends and every kernel use this one rule. */
#ifndef HIVE_CORE_INDEX_H
#define HIVE_CORE_INDEX_H

#include <stdint.h>

#include "../base/platform.h"

typedef struct hive_index {
    uint64_t base;     /* buckets of round 0, >= 1 */
    uint64_t low_mask; /* 2^m - 1 */
    uint64_t split;    /* buckets of round m already split, < base * 2^m */
} hive_index;

/* Buckets of a whole round m (before any of them is split). */
HIVE_HD uint64_t hive_index_round(hive_index ix) { return ix.base * (ix.low_mask + 1); }

HIVE_HD uint64_t hive_index_buckets(hive_index ix) { return hive_index_round(ix) + ix.split; }

/* The bucket of h when `mask` selects its low bits. */
HIVE_HD uint64_t hive_bucket_masked(hive_index ix, uint32_t h, uint64_t mask)
{
    return (((uint64_t)h * ix.base) >> 32) + ix.base * (h & mask);
}

HIVE_HD uint64_t hive_bucket_of(hive_index ix, uint32_t h)
{
    uint64_t b = hive_bucket_masked(ix, h, ix.low_mask);
    if (b < ix.split)
        b = hive_bucket_masked(ix, h, (ix.low_mask << 1) | 1);
    return b;
}

/* One of n homes (n >= 1) for a key's two hashes, independent of the table's
 * size: where its stash probe starts (core/view.h), and which chain its
 * overflow hangs from in the chaining design (designs/chaining/pool.h). */
HIVE_HD uint64_t hive_home_of(uint32_t h1, uint32_t h2, uint64_t n)
{
    uint64_t h = ((uint64_t)h2 << 32 | h1) * 0x9E3779B97F4A7C15ull;
    return (h >> 32) % n;
}

/* The index rule of a table created with `buckets` buckets (>= 1). */
HIVE_HD hive_index hive_index_for(uint64_t buckets)
{
    hive_index ix;
    ix.base = buckets;
    ix.low_mask = 0;
    ix.split = 0;
    return ix;
}

#endif
