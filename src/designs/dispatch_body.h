/* dispatch_body.h — the per-key operations the kernels and the CPU loops
 * call (hive_find_kv32, hive_upsert_lockfree_kv32, hive_resize_one_kv64,
 * ...), for one key width and mode: each picks the table's design
 * (hive_view.design) and runs that design's operation.  Included by
 * designs/designs.h after every design's body.  No include guard: once per
 * instantiation.
 *
 * The Hive design is the only one so far: each name is its operation,
 * inlined as before. */

#define H_OP(name) HIVE_PASTE(P_SUFFIX(name), _hive)

/* ---------------------------------------------------------------- the names the kernels call */

/* Returns HIVE_R_FOUND (value in *out) or HIVE_R_NOT_FOUND; h1, h2: the
 * key's hashes (hive_hash1/2), for a caller that has them already. */
HIVE_PROTO int P_SUFFIX(hive_find_hashed)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1, uint32_t h2,
                                          P_VAL *out)
{
    return H_OP(hive_find_hashed)(v, P_GEOM_ARG, k, h1, h2, out);
}

HIVE_PROTO int P_SUFFIX(hive_find)(const hive_view *v, P_GEOM_PARAM, P_KEY k, P_VAL *out)
{
    return P_SUFFIX(hive_find_hashed)(v, P_GEOM_ARG, k, P_HASH1(k), P_HASH2(k), out);
}

/* Returns HIVE_R_ERASED or HIVE_R_NOT_FOUND. */
HIVE_PROTO int P_SUFFIX(hive_erase_hashed)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1, uint32_t h2)
{
    return H_OP(hive_erase_hashed)(v, P_GEOM_ARG, k, h1, h2);
}

HIVE_PROTO int P_SUFFIX(hive_erase)(const hive_view *v, P_GEOM_PARAM, P_KEY k)
{
    return P_SUFFIX(hive_erase_hashed)(v, P_GEOM_ARG, k, P_HASH1(k), P_HASH2(k));
}

/* The lock-free part of an insert: HIVE_R_INSERTED, UPDATED or EXISTED, or
 * HIVE_R_DEFER for a key that needs the locked part. */
HIVE_PROTO int P_SUFFIX(hive_upsert_lockfree)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1,
                                              uint32_t h2, P_VAL val, int mode, int *step)
{
    return H_OP(hive_upsert_lockfree)(v, P_GEOM_ARG, k, h1, h2, val, mode, step);
}

/* The locked part of an insert that the lock-free part deferred; levels:
 * HIVE_EVICT_*, the parts of an eviction search to run (the Hive design;
 * a design without eviction finishes the key at any level). */
HIVE_PROTO int P_SUFFIX(hive_upsert_deferred)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1,
                                              uint32_t h2, P_VAL val, int mode, int levels, int *step,
                                              uint32_t *moves)
{
    return H_OP(hive_upsert_deferred)(v, P_GEOM_ARG, k, h1, h2, val, mode, levels, step, moves);
}

/* A whole insert: HIVE_R_INSERTED, UPDATED, EXISTED or REJECTED_FULL. */
HIVE_PROTO int P_SUFFIX(hive_upsert_hashed)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1,
                                            uint32_t h2, P_VAL val, int mode, int *step, uint32_t *moves)
{
    return H_OP(hive_upsert_hashed)(v, P_GEOM_ARG, k, h1, h2, val, mode, step, moves);
}

HIVE_PROTO int P_SUFFIX(hive_upsert)(const hive_view *v, P_GEOM_PARAM, P_KEY k, P_VAL val, int mode, int *step,
                                     uint32_t *moves)
{
    return P_SUFFIX(hive_upsert_hashed)(v, P_GEOM_ARG, k, P_HASH1(k), P_HASH2(k), val, mode, step, moves);
}

#ifndef P_TILE
/* One unit of a resize op (core/resize_plan.h) for the table's design:
 * bucket or stash slot i; returns what the op counts. */
HIVE_PROTO uint64_t P_SUFFIX(hive_resize_one)(int op, const hive_view *v, const hive_view *to, P_GEOM_PARAM,
                                              hive_index ix, uint64_t i)
{
    return H_OP(hive_resize_one)(op, v, to, P_GEOM_ARG, ix, i);
}
#endif

#undef H_OP
