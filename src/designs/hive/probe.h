/* probe.h — where a key may live in the Hive design, in the probe order of
 * the designs' seam (designs/designs.h): probe 0 is its first bucket b1 =
 * bucket_of(hash1), probe 1 its second b2 = bucket_of(hash2), and then the
 * stash (R1).  The operations (protocol_body.h) compute b1 and b2 themselves;
 * this is for tests and tools that aim keys at buckets. */
#ifndef HIVE_DESIGNS_HIVE_PROBE_H
#define HIVE_DESIGNS_HIVE_PROBE_H

#include <stdint.h>

#include "../../base/platform.h"

#define HIVE_HIVE_PROBES 2

HIVE_HD uint32_t hive_hive_probe_hash(uint32_t h1, uint32_t h2, uint32_t i) { return i == 0 ? h1 : h2; }

#endif
