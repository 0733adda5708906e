/* p2_body.h — the p2 design's operations for one key width and mode: two
 * choices over the shared slot protocol.  The seam only (probe.h's two
 * probes, and the placement policy: probe 0 first fit below
 * HIVE_P2_FAST_FILL, lock-free; past it the less full bucket, under the
 * lock); the operations are every probe-sequence design's
 * (core/probe_body.h, core/probe_resize_body.h).  Included by
 * designs/instantiate.h once per width and mode, after core/slot_body.h; its
 * functions are name_<width>_p2.  No include guard: once per instantiation. */
#define D_OP(name) HIVE_PASTE(P_SUFFIX(name), _p2)
#define D_PROBES HIVE_P2_PROBES
#define D_PROBE_HASH(h1, h2, i) hive_p2_probe_hash((h1), (h2), (i))
/* No eviction: a pair stays where it was placed until a resize. */
#define D_MOVES 0
/* A key may sit in probe 1 while probe 0 has EMPTY slots (probe 1 was the
 * less full), so no EMPTY slot ends a walk early: finds read both buckets.
 * An EMPTY slot in either still rules out the stash (a key is stashed only
 * once neither has a free slot). */
#define D_ENDS(i) 0
/* Probe 0 whenever it has room; probe 1 only once probe 0 is past the fast
 * fill and probe 1 is less full. */
#define D_PREFER(i, at, w) ((w).free_slot == 0 || ((w).free_at >= HIVE_P2_FAST_FILL(P_S) && (at) < (w).free_at))
/* Lock-free only into probe 0 below the fast fill: a fill that only grows
 * during a batch, so the locked path then chooses the same slot (p2.md). */
#define D_LOCKFREE(w) ((w).free_probe == 0 && (w).free_at < HIVE_P2_FAST_FILL(P_S))

#include "../probe_design.h"
