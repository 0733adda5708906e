/* universe.h — the keys a fuzz input draws from: a few plain keys (small
 * integers, random keys, the edges next to the reserved range) and keys
 * aimed at a few buckets, whose two buckets (src/hash/bithash.h, under the
 * table's hash seed; the double design's first two probes) both are one of a
 * small set of buckets of the table as created (src/core/index.h),
 * so that their buckets overflow into eviction chains, the stash and the
 * growth that a key rejected for room triggers.  Growth splits each of those
 * buckets in two, so the keys stay crowded in the larger table; shrinking
 * merges them back. */
#ifndef FZ_UNIVERSE_H
#define FZ_UNIVERSE_H

#include <stddef.h>
#include <stdint.h>

#include "hivetest.h"

#define FZ_PLAIN_MAX 31
#define FZ_CROWDED_MAX 60
#define FZ_UNIVERSE_MAX (FZ_PLAIN_MAX + FZ_CROWDED_MAX)

typedef struct fz_universe {
    uint64_t keys[FZ_UNIVERSE_MAX]; /* distinct, none reserved */
    size_t n;
    size_t plain;          /* keys[0, plain) are plain, the rest crowded */
    uint64_t crowd_buckets; /* how many buckets the crowded keys' hashes name */
} fz_universe;

/* `plain` and `crowded` keys (at most the _MAX above) for a table of the
 * width of t, with hash seed `hash_seed`, that was created with `buckets`
 * buckets; `crowd_buckets` (>= 1) asks how many buckets the crowded keys aim
 * at, raised to a 32nd of the table so that they take little time to find.
 * The same arguments give the same keys. */
void fz_universe_build(fz_universe *u, const ht_target *t, uint64_t hash_seed, uint64_t buckets,
                       unsigned plain, unsigned crowded, unsigned crowd_buckets, uint64_t seed);

#endif
