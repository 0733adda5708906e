/* probe.h — where a key may live in the iceberg design (WarpSpeed's
 * IcebergHT over hive's buckets): its front-yard bucket, probe 0 =
 * bucket_of(hash1), or one of its two back-yard buckets, probes 1 and 2, or
 * the stash.  The back yard is not a region of its own: its buckets are the
 * table's buckets, named by the double design's probes 1 and 2
 * (bucket_of(h1 + i * (h2 | 1))), so that a split or merge moves every
 * pair by the hash of its probe as in every other design
 * (docs/designs/iceberg.md says why).  A plain header (no protocol), for
 * tests and tools that aim keys as well as for the operations
 * (iceberg_body.h). */
#ifndef HIVE_DESIGNS_ICEBERG_PROBE_H
#define HIVE_DESIGNS_ICEBERG_PROBE_H

#include <stdint.h>

#include "../double/probe.h"

/* The front yard and two back-yard choices. */
#define HIVE_ICEBERG_PROBES 3

HIVE_HD uint32_t hive_iceberg_probe_hash(uint32_t h1, uint32_t h2, uint32_t i)
{
    return hive_double_probe_hash(h1, h2, i);
}

#endif
