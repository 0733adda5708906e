/* cuckoo_body.h — the cuckoo design's operations for one key width and
 * mode: three choices, first fit, then eviction by a bounded random walk
 * (evict_body.h), then the stash, over the shared slot protocol.  The
 * operations are every probe-sequence design's (core/probe_body.h,
 * core/probe_resize_body.h) with this D_EVICT.  Included by
 * designs/instantiate.h once per width and mode, after core/slot_body.h and
 * core/move_body.h; its functions are name_<width>_cuckoo.  No include
 * guard: once per instantiation. */
#define D_OP(name) HIVE_PASTE(P_SUFFIX(name), _cuckoo)
#define D_PROBES HIVE_CUCKOO_PROBES
#define D_PROBE_HASH(h1, h2, i) hive_cuckoo_probe_hash((h1), (h2), (i))
/* Evictions move pairs to later buckets of theirs while operations run: the
 * scans of a key's buckets are ordered, one after the last, and a frozen
 * (MOVING) slot makes a reader that did not find its key look again. */
#define D_MOVES 1

#include "evict_body.h"
#define D_EVICT(v, g, k, val, h1, h2, levels, held) D_OP(hive_cuckoo_evict)((v), g, (k), (val), (h1), (h2), (levels), (held))

#include "../probe_design.h"
