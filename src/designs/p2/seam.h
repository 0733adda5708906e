/* seam.h — the p2 design's seam (core/probe_body.h): its probes and
 * placement policy, shared by the design (p2_body.h) and its tagged
 * variant (p2_m_body.h), which differ only in their names and D_TAGS.  No
 * include guard: once per instantiation of either. */
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
/* Once churn has used up both buckets' EMPTY slots, a new key takes a TOMB
 * of the one with more TOMBs: the less full, as while they had EMPTY ones. */
#define D_SPREAD_TOMBS 1
/* Lock-free only into probe 0 below the fast fill: a fill that only grows
 * during a batch, so the locked path then chooses the same slot (p2.md). */
#define D_LOCKFREE(w) ((w).free_probe == 0 && (w).free_at < HIVE_P2_FAST_FILL(P_S))

