/* probe.h — where a key may live in the p2 design (two choices, WarpSpeed's
 * P2HT over hive's buckets): probe 0 = bucket_of(hash1), probe 1 =
 * bucket_of(hash2), the Hive design's b1 and b2, or the stash; and how full
 * probe 0 may be before a new key weighs the two.  A plain header (no
 * protocol), for tests and tools that aim keys as well as for the
 * operations (p2_body.h). */
#ifndef HIVE_DESIGNS_P2_PROBE_H
#define HIVE_DESIGNS_P2_PROBE_H

#include <stdint.h>

#include "../../base/platform.h"

#define HIVE_P2_PROBES 2

HIVE_HD uint32_t hive_p2_probe_hash(uint32_t h1, uint32_t h2, uint32_t i) { return i == 0 ? h1 : h2; }

/* A new key takes probe 0's first free slot, lock-free, while fewer than
 * this many of its S slots are used (three quarters, WarpSpeed's fast
 * path); past it, under probe 0's lock, the less full of the two buckets
 * (probe 0 on a tie).  docs/designs/p2.md says why the fast path is what
 * makes a lock-free claim possible at all. */
#define HIVE_P2_FAST_FILL(S) ((S) * 3u / 4u)

#endif
