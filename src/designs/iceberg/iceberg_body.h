/* iceberg_body.h — the iceberg design's operations for one key width and
 * mode over the shared slot protocol.  The seam only (probe.h's three
 * probes, and the placement policy: the front yard, probe 0, first fit and
 * lock-free; once it has no free slot, the less full of the back-yard
 * buckets, probes 1 and 2, under probe 0's lock); the operations are every
 * probe-sequence design's (core/probe_body.h, core/probe_resize_body.h).
 * Included by designs/instantiate.h once per width and mode, after
 * core/slot_body.h; its functions are name_<width>_iceberg.  No include
 * guard: once per instantiation. */
#define D_OP(name) HIVE_PASTE(P_SUFFIX(name), _iceberg)
#define D_PROBES HIVE_ICEBERG_PROBES
#define D_PROBE_HASH(h1, h2, i) hive_iceberg_probe_hash((h1), (h2), (i))
/* No eviction: a pair stays where it was placed until a resize. */
#define D_MOVES 0
/* A key goes to the back yard only once its front yard has no free slot,
 * so an EMPTY slot there ends a walk (most absent keys read one bucket);
 * between the two back-yard buckets it does not (either may be the less
 * full), but it still rules out the stash. */
#define D_ENDS(i) ((i) == 0)
/* The front yard whenever it has room; else probe 1, or probe 2 where it
 * is less full. */
#define D_PREFER(i, at, w) ((w).free_slot == 0 || ((w).free_probe > 0 && (at) < (w).free_at))
/* Lock-free only into the front yard: the back yard's choice weighs two
 * fills that other inserts change meanwhile, so it is made under the lock
 * (docs/designs/iceberg.md). */
#define D_LOCKFREE(w) ((w).free_probe == 0)

#include "../probe_design.h"
