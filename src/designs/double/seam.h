/* seam.h — the double design's seam (core/probe_body.h): its probes and
 * placement policy, shared by the design (double_body.h) and its tagged
 * variant (double_m_body.h), which differ only in their names and D_TAGS.  No
 * include guard: once per instantiation of either. */
#define D_PROBES HIVE_DOUBLE_PROBES
#define D_PROBE_HASH(h1, h2, i) hive_double_probe_hash((h1), (h2), (i))
/* A pair stays where it was placed until a resize: no cuckoo moves, so the
 * probe buckets' scans need no order between them and no slot is ever
 * MOVING. */
#define D_MOVES 0

