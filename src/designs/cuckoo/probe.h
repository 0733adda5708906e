/* probe.h — where a key may live in the cuckoo design (WarpSpeed's CuckooHT
 * over hive's buckets): in one of three buckets, the double design's probes
 * 0, 1 and 2 (bucket_of(h1 + i * (h2 | 1))), or in the stash; and how long
 * its eviction walks may be.  A plain header (no protocol), for tests and
 * tools that aim keys as well as for the operations (cuckoo_body.h). */
#ifndef HIVE_DESIGNS_CUCKOO_PROBE_H
#define HIVE_DESIGNS_CUCKOO_PROBE_H

#include <stdint.h>

#include "../double/probe.h"

#define HIVE_CUCKOO_PROBES 3

HIVE_HD uint32_t hive_cuckoo_probe_hash(uint32_t h1, uint32_t h2, uint32_t i)
{
    return hive_double_probe_hash(h1, h2, i);
}

/* Random walks an insert tries, each from one of its buckets in turn, before
 * the stash; each is at most config.max_evictions moves long. */
#define HIVE_CUCKOO_WALKS 6

#endif
