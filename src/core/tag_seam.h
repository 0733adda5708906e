/* tag_seam.h — how a probe-sequence design's operations scan, claim,
 * retire and retag, with or without tags (D_TAGS, core/probe_body.h): the
 * tagged protocol of core/tag_body.h, or the slots' own scan and CAS.
 * Included by core/probe_body.h, and by core/resize_ops_body.h where no
 * probe body came first (the Hive design's resize); tag_seam_end.h #undefs
 * it.  No include guard: once per design, width and mode. */
#ifndef D_TAGS
#define D_TAGS 0
#endif
#if D_TAGS
#define D_TAG_OF(h1, h2) hive_tag_of((h1), (h2))
/* Declares `name`, the tag of a key with hashes h1, h2, where there is one. */
#define D_TAG_DECL(name, h1, h2) uint32_t name = hive_tag_of((h1), (h2))
#define D_SCAN(v, b, bucket, k, tag) P_SUFFIX(hive_scan_tagged)((v), P_GEOM_ARG, (b), (k), (tag))
#define D_CLAIM(v, slot, seen, pair, tag)                                                        \
    P_SUFFIX(hive_claim_tagged)((v), P_GEOM_ARG, (slot), (uint32_t)(seen), (pair), (tag))
#define D_RETIRE(v, slot, seen) P_SUFFIX(hive_retire_tagged)((v), P_GEOM_ARG, (slot), (seen))
#define D_RETAG(v, b) P_SUFFIX(hive_retag_bucket)((v), P_GEOM_ARG, (b))
#else
#define D_TAG_OF(h1, h2) 0u
#define D_TAG_DECL(name, h1, h2) (void)0
#define D_SCAN(v, b, bucket, k, tag) P_SUFFIX(hive_scan_bucket)((bucket), P_GEOM_ARG, (k))
#define D_CLAIM(v, slot, seen, pair, tag) (P_CAS((slot), (seen), (pair)) == (seen))
#define D_RETIRE(v, slot, seen) (P_CAS((slot), (seen), P_MAKE(P_TOMB, 0)) == (seen))
#define D_RETAG(v, b) ((void)0)
#endif
