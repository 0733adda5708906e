/* protocol_mode_thread.h — included by designs/designs.h before the bodies:
 * one thread carries out each operation (CPU workers, one GPU thread per key).
 * No include guard: once per instantiation. */
#define P_GEOM_PARAM uint32_t S
#define P_GEOM_ARG S
#define P_S S
#define P_LOAD_ONE(p) P_LOAD(p)
#define P_ADD_LIVE(v, d) hive_add_u64((v)->stash_live, (d))
#define P_STASH_USED(v, sb) hive_stash_bucket_used((v), (sb))
#define P_MARK_STASH(v, sb) hive_stash_mark_used((v), (sb))
#define P_LOCK(v, b) hive_lock_bucket((v), (b))
#define P_UNLOCK(v, b) hive_unlock_bucket((v), (b))
#define P_UNLOCK_FENCED(v, b) hive_unlock_bucket_fenced((v), (b))
#define P_CAS_TAG(p, e, d) hive_cas_tag((p), (e), (d))
#define P_STORE_TAG(p, v) hive_store_tag((p), (v))
