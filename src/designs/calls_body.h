/* calls_body.h — the out-of-line entry points through which the run-time
 * dispatch (designs/dispatch_body.h) calls one probe-sequence design's
 * operations (hive_find_call_kv32_NAME and so on).  The view and the key go by value and the outcome comes back by value
 * (hive_design_outcome, designs/designs.h), so that no address of a kernel
 * parameter or of the caller's outputs escapes into a call on the GPU.
 * Included by designs/probe_design.h where no HIVE_ONLY_DESIGN is defined.
 * No include guard: once per design, width and mode. */

HIVE_DESIGN_CALL hive_design_outcome D_OP(hive_find_call)(hive_view v, P_GEOM_PARAM, P_KEY k, uint32_t h1,
                                                          uint32_t h2)
{
    hive_design_outcome o = {0, 0, 0, 0};
    P_VAL val = 0;
    o.r = D_OP(hive_find_hashed)(&v, P_GEOM_ARG, k, h1, h2, &val);
    o.val = val;
    return o;
}

#ifndef __CUDACC__ /* the CPU backend's finds in two stages alone */
/* The first bucket's HIVE_FIRST_* flags come back in `moves`. */
HIVE_DESIGN_CALL hive_design_outcome D_OP(hive_find_first_call)(hive_view v, P_GEOM_PARAM, P_KEY k, uint32_t h1,
                                                                uint32_t h2)
{
    hive_design_outcome o = {0, 0, 0, 0};
    P_VAL val = 0;
    o.r = D_OP(hive_find_first_bucket)(&v, P_GEOM_ARG, k, h1, h2, &val, &o.moves);
    o.val = val;
    return o;
}

HIVE_DESIGN_CALL hive_design_outcome D_OP(hive_find_after_first_call)(hive_view v, P_GEOM_PARAM, P_KEY k,
                                                                      uint32_t h1, uint32_t h2, uint32_t first)
{
    hive_design_outcome o = {0, 0, 0, 0};
    P_VAL val = 0;
    o.r = D_OP(hive_find_after_first)(&v, P_GEOM_ARG, k, h1, h2, first, &val);
    o.val = val;
    return o;
}
#endif

HIVE_DESIGN_CALL int D_OP(hive_erase_call)(hive_view v, P_GEOM_PARAM, P_KEY k, uint32_t h1, uint32_t h2)
{
    return D_OP(hive_erase_hashed)(&v, P_GEOM_ARG, k, h1, h2);
}

HIVE_DESIGN_CALL hive_design_outcome D_OP(hive_upsert_lockfree_call)(hive_view v, P_GEOM_PARAM, P_KEY k,
                                                                     uint32_t h1, uint32_t h2, P_VAL val,
                                                                     int mode)
{
    hive_design_outcome o = {0, 0, 0, 0};
    o.r = D_OP(hive_upsert_lockfree)(&v, P_GEOM_ARG, k, h1, h2, val, mode, &o.step);
    return o;
}

HIVE_DESIGN_CALL hive_design_outcome D_OP(hive_upsert_deferred_call)(hive_view v, P_GEOM_PARAM, P_KEY k,
                                                                     uint32_t h1, uint32_t h2, P_VAL val,
                                                                     int mode, int levels)
{
    hive_design_outcome o = {0, 0, 0, 0};
    o.r = D_OP(hive_upsert_deferred)(&v, P_GEOM_ARG, k, h1, h2, val, mode, levels, &o.step, &o.moves);
    return o;
}

HIVE_DESIGN_CALL hive_design_outcome D_OP(hive_upsert_call)(hive_view v, P_GEOM_PARAM, P_KEY k, uint32_t h1,
                                                            uint32_t h2, P_VAL val, int mode)
{
    hive_design_outcome o = {0, 0, 0, 0};
    o.r = D_OP(hive_upsert_hashed)(&v, P_GEOM_ARG, k, h1, h2, val, mode, &o.step, &o.moves);
    return o;
}

#ifndef P_TILE
HIVE_DESIGN_CALL uint64_t D_OP(hive_resize_one_call)(int op, hive_view v, hive_view to, P_GEOM_PARAM,
                                                     hive_index ix, uint64_t i)
{
    return D_OP(hive_resize_one)(op, &v, &to, P_GEOM_ARG, ix, i);
}
#endif
