/* seam.h — the iceberg design's seam (core/probe_body.h): its probes and
 * placement policy, shared by the design (iceberg_body.h) and its tagged
 * variant (iceberg_m_body.h), which differ only in their names and D_TAGS.  No
 * include guard: once per instantiation of either. */
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

