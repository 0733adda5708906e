/* dispatch_body.h — the per-key operations the kernels and the CPU loops
 * call (hive_find_kv32, hive_upsert_lockfree_kv32, hive_resize_one_kv64,
 * ...), for one key width and mode: each runs the table's design.  Included
 * by designs/designs.h after every design's body.  No include guard: once
 * per instantiation.
 *
 * Two ways to choose:
 *
 *   HIVE_ONLY_DESIGN defined (HIVE_DESIGN_ID_*), before designs.h: at
 *     compile time.  Each name is that design's operation, inlined, and
 *     hive_view.design is not read.  The CUDA backend builds its kernels so,
 *     once per design (cuda_kernels32.cu for the Hive design, whose kernels
 *     are then the code they were before designs were a seam;
 *     cuda_kernels32_NAME.cu for each other design, which also defines
 *     HIVE_ONLY_NAME, the suffix of its operations), and picks a table's
 *     kernels by its design.
 *
 *   Not defined: at run time, by hive_view.design (the CPU backend, and the
 *     few CUDA kernels every design shares).  The Hive design's branch is
 *     its operation, inlined; the others, one case each of a switch over
 *     HIVE_PROBE_DESIGNS (core/view.h), are called out of line on the GPU
 *     through their entry points (designs/calls_body.h: the view and the
 *     key passed by value and the outcome returned by value, so that no
 *     address of a kernel parameter or of the caller's outputs escapes into
 *     a call, which would move them to local memory on every path). */

#if !defined(HIVE_ONLY_DESIGN)
#define HIVE_AT_RUN_TIME 1   /* choose by hive_view.design */
#define HIVE_ONE_PROBE_DESIGN 0
#elif HIVE_ONLY_DESIGN == HIVE_DESIGN_ID_HIVE
#define HIVE_AT_RUN_TIME 0
#define HIVE_ONE_PROBE_DESIGN 0
#elif defined(HIVE_ONLY_NAME)
#define HIVE_AT_RUN_TIME 0
#define HIVE_ONE_PROBE_DESIGN 1 /* the probe-sequence design HIVE_ONLY_NAME, inlined */
#else
#error "HIVE_ONLY_DESIGN is not the Hive design, and HIVE_ONLY_NAME names no other"
#endif

#define H_OP(name) HIVE_PASTE(P_SUFFIX(name), _hive)
#define ONE_OP(name) HIVE_PASTE(P_SUFFIX(name), HIVE_PASTE(_, HIVE_ONLY_NAME))
/* A probe design's out-of-line entry point (designs/calls_body.h). */
#define CALL_OP(design, name) HIVE_PASTE(P_SUFFIX(name), _##design)

/* ---------------------------------------------------------------- the names the kernels call */

/* Returns HIVE_R_FOUND (value in *out) or HIVE_R_NOT_FOUND; h1, h2: the
 * key's hashes (hive_hash1/2), for a caller that has them already. */
HIVE_PROTO int P_SUFFIX(hive_find_hashed)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1, uint32_t h2,
                                          P_VAL *out)
{
#if HIVE_ONE_PROBE_DESIGN
    return ONE_OP(hive_find_hashed)(v, P_GEOM_ARG, k, h1, h2, out);
#else
#if HIVE_AT_RUN_TIME
    switch (v->design) {
#define X(ID, design)                                                                          \
    case HIVE_DESIGN_ID_##ID: {                                                                \
        hive_design_outcome o = CALL_OP(design, hive_find_call)(*v, P_GEOM_ARG, k, h1, h2);    \
        if (o.r == HIVE_R_FOUND)                                                               \
            *out = (P_VAL)o.val;                                                               \
        return o.r;                                                                            \
    }
        HIVE_PROBE_DESIGNS(X)
#undef X
    }
#endif
    return H_OP(hive_find_hashed)(v, P_GEOM_ARG, k, h1, h2, out);
#endif
}

HIVE_PROTO int P_SUFFIX(hive_find)(const hive_view *v, P_GEOM_PARAM, P_KEY k, P_VAL *out)
{
    return P_SUFFIX(hive_find_hashed)(v, P_GEOM_ARG, k, P_VIEW_HASH1(v, k), P_VIEW_HASH2(v, k), out);
}

/* Returns HIVE_R_ERASED or HIVE_R_NOT_FOUND. */
HIVE_PROTO int P_SUFFIX(hive_erase_hashed)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1, uint32_t h2)
{
#if HIVE_ONE_PROBE_DESIGN
    return ONE_OP(hive_erase_hashed)(v, P_GEOM_ARG, k, h1, h2);
#else
#if HIVE_AT_RUN_TIME
    switch (v->design) {
#define X(ID, design)                                                                          \
    case HIVE_DESIGN_ID_##ID:                                                                  \
        return CALL_OP(design, hive_erase_call)(*v, P_GEOM_ARG, k, h1, h2);
        HIVE_PROBE_DESIGNS(X)
#undef X
    }
#endif
    return H_OP(hive_erase_hashed)(v, P_GEOM_ARG, k, h1, h2);
#endif
}

HIVE_PROTO int P_SUFFIX(hive_erase)(const hive_view *v, P_GEOM_PARAM, P_KEY k)
{
    return P_SUFFIX(hive_erase_hashed)(v, P_GEOM_ARG, k, P_VIEW_HASH1(v, k), P_VIEW_HASH2(v, k));
}

/* The lock-free part of an insert: HIVE_R_INSERTED, UPDATED or EXISTED, or
 * HIVE_R_DEFER for a key that needs the locked part. */
HIVE_PROTO int P_SUFFIX(hive_upsert_lockfree)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1,
                                              uint32_t h2, P_VAL val, int mode, int *step)
{
#if HIVE_ONE_PROBE_DESIGN
    return ONE_OP(hive_upsert_lockfree)(v, P_GEOM_ARG, k, h1, h2, val, mode, step);
#else
#if HIVE_AT_RUN_TIME
    switch (v->design) {
#define X(ID, design)                                                                          \
    case HIVE_DESIGN_ID_##ID: {                                                                \
        hive_design_outcome o =                                                                \
            CALL_OP(design, hive_upsert_lockfree_call)(*v, P_GEOM_ARG, k, h1, h2, val, mode);  \
        *step = o.step;                                                                        \
        return o.r;                                                                            \
    }
        HIVE_PROBE_DESIGNS(X)
#undef X
    }
#endif
    return H_OP(hive_upsert_lockfree)(v, P_GEOM_ARG, k, h1, h2, val, mode, step);
#endif
}

/* The locked part of an insert that the lock-free part deferred; levels:
 * HIVE_EVICT_*, the parts of an eviction search to run (the Hive design;
 * a design without eviction finishes the key at any level). */
HIVE_PROTO int P_SUFFIX(hive_upsert_deferred)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1,
                                              uint32_t h2, P_VAL val, int mode, int levels, int *step,
                                              uint32_t *moves)
{
#if HIVE_ONE_PROBE_DESIGN
    return ONE_OP(hive_upsert_deferred)(v, P_GEOM_ARG, k, h1, h2, val, mode, levels, step, moves);
#else
#if HIVE_AT_RUN_TIME
    switch (v->design) {
#define X(ID, design)                                                                          \
    case HIVE_DESIGN_ID_##ID: {                                                                \
        hive_design_outcome o = CALL_OP(design, hive_upsert_deferred_call)(*v, P_GEOM_ARG, k,  \
                                                                           h1, h2, val, mode,  \
                                                                           levels);            \
        *step = o.step;                                                                        \
        *moves = o.moves;                                                                      \
        return o.r;                                                                            \
    }
        HIVE_PROBE_DESIGNS(X)
#undef X
    }
#endif
    return H_OP(hive_upsert_deferred)(v, P_GEOM_ARG, k, h1, h2, val, mode, levels, step, moves);
#endif
}

/* A whole insert: HIVE_R_INSERTED, UPDATED, EXISTED or REJECTED_FULL. */
HIVE_PROTO int P_SUFFIX(hive_upsert_hashed)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1,
                                            uint32_t h2, P_VAL val, int mode, int *step, uint32_t *moves)
{
#if HIVE_ONE_PROBE_DESIGN
    return ONE_OP(hive_upsert_hashed)(v, P_GEOM_ARG, k, h1, h2, val, mode, step, moves);
#else
#if HIVE_AT_RUN_TIME
    switch (v->design) {
#define X(ID, design)                                                                          \
    case HIVE_DESIGN_ID_##ID: {                                                                \
        hive_design_outcome o =                                                                \
            CALL_OP(design, hive_upsert_call)(*v, P_GEOM_ARG, k, h1, h2, val, mode);           \
        *step = o.step;                                                                        \
        *moves = o.moves;                                                                      \
        return o.r;                                                                            \
    }
        HIVE_PROBE_DESIGNS(X)
#undef X
    }
#endif
    return H_OP(hive_upsert_hashed)(v, P_GEOM_ARG, k, h1, h2, val, mode, step, moves);
#endif
}

HIVE_PROTO int P_SUFFIX(hive_upsert)(const hive_view *v, P_GEOM_PARAM, P_KEY k, P_VAL val, int mode, int *step,
                                     uint32_t *moves)
{
    return P_SUFFIX(hive_upsert_hashed)(v, P_GEOM_ARG, k, P_VIEW_HASH1(v, k), P_VIEW_HASH2(v, k), val, mode,
                                        step, moves);
}

#ifndef P_TILE
/* One unit of a resize op (core/resize_plan.h) for the table's design:
 * bucket or stash slot i; returns what the op counts. */
HIVE_PROTO uint64_t P_SUFFIX(hive_resize_one)(int op, const hive_view *v, const hive_view *to, P_GEOM_PARAM,
                                              hive_index ix, uint64_t i)
{
#if HIVE_ONE_PROBE_DESIGN
    return ONE_OP(hive_resize_one)(op, v, to, P_GEOM_ARG, ix, i);
#else
#if HIVE_AT_RUN_TIME
    switch (v->design) {
#define X(ID, design)                                                                          \
    case HIVE_DESIGN_ID_##ID:                                                                  \
        return CALL_OP(design, hive_resize_one_call)(op, *v, *to, P_GEOM_ARG, ix, i);
        HIVE_PROBE_DESIGNS(X)
#undef X
    }
#endif
    return H_OP(hive_resize_one)(op, v, to, P_GEOM_ARG, ix, i);
#endif
}
#endif

#undef H_OP
#undef ONE_OP
#undef CALL_OP
#undef HIVE_AT_RUN_TIME
#undef HIVE_ONE_PROBE_DESIGN
