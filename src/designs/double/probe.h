/* probe.h — where a key may live in the double design (bucketized double
 * hashing, WarpSpeed's DoubleHT over hive's buckets): in probe buckets
 * i = 0 .. HIVE_DOUBLE_PROBES - 1, bucket_of(h1 + i * (h2 | 1)) under the
 * table's linear-hashing index (core/index.h), or in the stash.  Probe 0 is
 * the Hive design's b1.  A plain header (no protocol), for tests and tools
 * that aim keys as well as for the operations (double_body.h). */
#ifndef HIVE_DESIGNS_DOUBLE_PROBE_H
#define HIVE_DESIGNS_DOUBLE_PROBE_H

#include <stdint.h>

#include "../../base/platform.h"

/* Probe buckets a key has.  At load 0.9 a key that finds all of them full
 * goes to the stash: with 4-slot buckets about 1 in 200 keys at 8 probes
 * (half of a 1% stash), 1 in 3,000 at 16, and none in 10^5 at 32; 8-slot
 * buckets 1 in 1,000 at 8, 1 in 10^5 at 16 (a simulation of first-fit
 * random probing).  Absent-key finds stop at the first bucket with an EMPTY
 * slot, about 4 buckets at load 0.9 whatever the bound, so the bound only
 * caps the worst case. */
#define HIVE_DOUBLE_PROBES 16

/* The hash whose bucket is probe i: the step is h2 made odd, so that the
 * low bits the index takes as the table grows differ from probe to probe
 * (bucket_of takes its base bucket from the high bits, the rest from the
 * low ones). */
HIVE_HD uint32_t hive_double_probe_hash(uint32_t h1, uint32_t h2, uint32_t i)
{
    return h1 + i * (h2 | 1u);
}

#endif
