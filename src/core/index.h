/* index.h — which bucket a hash names, under linear hashing (Hive §IV-C).
 *
 * The table has  low_mask + 1 + split  buckets, low_mask = 2^m - 1.  Buckets
 * below `split` have already been split in round m, so a hash that lands there
 * takes one more bit and may name bucket b + 2^m.  Growing by one bucket is
 * split += 1; when split reaches 2^m the round ends (low_mask = 2^(m+1) - 1,
 * split = 0).  With split = 0 and a power-of-two bucket count this is a plain
 * mask.  Both backends and every kernel use this one rule. */
#ifndef HIVE_CORE_INDEX_H
#define HIVE_CORE_INDEX_H

#include <stdint.h>

#include "platform.h"

typedef struct hive_index {
    uint64_t low_mask; /* 2^m - 1 */
    uint64_t split;    /* buckets of round m already split, < 2^m */
} hive_index;

HIVE_HD uint64_t hive_index_buckets(hive_index ix) { return ix.low_mask + 1 + ix.split; }

HIVE_HD uint64_t hive_bucket_of(hive_index ix, uint32_t hash)
{
    uint64_t b = hash & ix.low_mask;
    if (b < ix.split)
        b = hash & ((ix.low_mask << 1) | 1);
    return b;
}

/* The index rule for exactly `buckets` buckets (buckets >= 1). */
HIVE_HD hive_index hive_index_for(uint64_t buckets)
{
    hive_index ix;
    uint64_t p = 1;
    while (p * 2 <= buckets)
        p *= 2;
    ix.low_mask = p - 1;
    ix.split = buckets - p;
    return ix;
}

#endif
