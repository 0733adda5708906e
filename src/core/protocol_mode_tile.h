/* protocol_mode_tile.h — included by designs/designs.h before the bodies (CUDA
 * only): a tile of g.T lanes of one warp carries out each operation together.
 * Every lane runs the same control flow, because every value it branches on
 * is the same in all lanes: scans are combined by ballots (tile_scan_body.h),
 * and each atomic is done by the tile's first lane and broadcast.  The
 * paper's WCME (match) and WABC (claim) are the scan plus one elected CAS.
 * No include guard: once per instantiation. */
#define P_TILE 1
#define P_GEOM_PARAM hive_geom g
#define P_GEOM_ARG g
#define P_S g.S
#define P_LOAD_ONE(p) hive_tile_bcast64(g, hive_tile_first(g) ? P_LOAD(p) : 0)
#define P_ADD_LIVE(v, d) hive_tile_add_live(g, (v), (d))
#define P_STASH_USED(v, sb) hive_tile_bcast64(g, hive_tile_first(g) ? hive_stash_bucket_used((v), (sb)) : 0)
#define P_MARK_STASH(v, sb) hive_tile_mark_stash(g, (v), (sb))
#define P_LOCK(v, b) hive_tile_lock(g, (v), (b))
#define P_UNLOCK(v, b) hive_tile_unlock(g, (v), (b))
#define P_UNLOCK_FENCED(v, b) hive_tile_unlock(g, (v), (b))
#define P_CAS_TAG(p, e, d) hive_tile_cas_tag(g, (p), (e), (d))
#define P_STORE_TAG(p, v) hive_tile_store_tag(g, (p), (v))
