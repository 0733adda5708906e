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
 *     cuda_kernels32_double.cu for the double design), and picks a table's
 *     kernels by its design.
 *
 *   Not defined: at run time, by hive_view.design (the CPU backend, and the
 *     few CUDA kernels every design shares).  The Hive design's branch is
 *     its operation, inlined; the others are called out of line on the GPU
 *     (HIVE_DESIGN_CALL), with the view and the key passed by value and the
 *     outcome returned by value, so that no address of a kernel parameter
 *     or of the caller's outputs escapes into a call (which would move them
 *     to local memory on every path). */

#if !defined(HIVE_ONLY_DESIGN)
#define HIVE_AT_RUN_TIME 1   /* choose by hive_view.design */
#define HIVE_DOUBLE_ONLY 0
#elif HIVE_ONLY_DESIGN == HIVE_DESIGN_ID_HIVE
#define HIVE_AT_RUN_TIME 0
#define HIVE_DOUBLE_ONLY 0
#elif HIVE_ONLY_DESIGN == HIVE_DESIGN_ID_DOUBLE
#define HIVE_AT_RUN_TIME 0
#define HIVE_DOUBLE_ONLY 1
#else
#error "HIVE_ONLY_DESIGN names no design"
#endif

#define H_OP(name) HIVE_PASTE(P_SUFFIX(name), _hive)
#define DBL_OP(name) HIVE_PASTE(P_SUFFIX(name), _double)

#if HIVE_AT_RUN_TIME
/* An operation's outputs, returned by value from an out-of-line design. */
typedef struct P_SUFFIX(hive_outcome) {
    int r;          /* HIVE_R_* */
    int step;       /* HIVE_STEP_* (upserts) */
    uint32_t moves; /* pairs an eviction moved (upserts) */
    P_VAL val;      /* the value found (finds) */
} P_SUFFIX(hive_outcome);

HIVE_DESIGN_CALL P_SUFFIX(hive_outcome) DBL_OP(hive_find_call)(hive_view v, P_GEOM_PARAM, P_KEY k,
                                                               uint32_t h1, uint32_t h2)
{
    P_SUFFIX(hive_outcome) o = {0, 0, 0, 0};
    o.r = DBL_OP(hive_find_hashed)(&v, P_GEOM_ARG, k, h1, h2, &o.val);
    return o;
}

HIVE_DESIGN_CALL int DBL_OP(hive_erase_call)(hive_view v, P_GEOM_PARAM, P_KEY k, uint32_t h1, uint32_t h2)
{
    return DBL_OP(hive_erase_hashed)(&v, P_GEOM_ARG, k, h1, h2);
}

HIVE_DESIGN_CALL P_SUFFIX(hive_outcome) DBL_OP(hive_upsert_lockfree_call)(hive_view v, P_GEOM_PARAM,
                                                                          P_KEY k, uint32_t h1,
                                                                          uint32_t h2, P_VAL val, int mode)
{
    P_SUFFIX(hive_outcome) o = {0, 0, 0, 0};
    o.r = DBL_OP(hive_upsert_lockfree)(&v, P_GEOM_ARG, k, h1, h2, val, mode, &o.step);
    return o;
}

HIVE_DESIGN_CALL P_SUFFIX(hive_outcome) DBL_OP(hive_upsert_deferred_call)(hive_view v, P_GEOM_PARAM,
                                                                          P_KEY k, uint32_t h1,
                                                                          uint32_t h2, P_VAL val, int mode,
                                                                          int levels)
{
    P_SUFFIX(hive_outcome) o = {0, 0, 0, 0};
    o.r = DBL_OP(hive_upsert_deferred)(&v, P_GEOM_ARG, k, h1, h2, val, mode, levels, &o.step, &o.moves);
    return o;
}

HIVE_DESIGN_CALL P_SUFFIX(hive_outcome) DBL_OP(hive_upsert_call)(hive_view v, P_GEOM_PARAM, P_KEY k,
                                                                 uint32_t h1, uint32_t h2, P_VAL val,
                                                                 int mode)
{
    P_SUFFIX(hive_outcome) o = {0, 0, 0, 0};
    o.r = DBL_OP(hive_upsert_hashed)(&v, P_GEOM_ARG, k, h1, h2, val, mode, &o.step, &o.moves);
    return o;
}
#endif

/* ---------------------------------------------------------------- the names the kernels call */

/* Returns HIVE_R_FOUND (value in *out) or HIVE_R_NOT_FOUND; h1, h2: the
 * key's hashes (hive_hash1/2), for a caller that has them already. */
HIVE_PROTO int P_SUFFIX(hive_find_hashed)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1, uint32_t h2,
                                          P_VAL *out)
{
#if HIVE_DOUBLE_ONLY
    return DBL_OP(hive_find_hashed)(v, P_GEOM_ARG, k, h1, h2, out);
#else
#if HIVE_AT_RUN_TIME
    if (v->design == HIVE_DESIGN_ID_DOUBLE) {
        P_SUFFIX(hive_outcome) o = DBL_OP(hive_find_call)(*v, P_GEOM_ARG, k, h1, h2);
        if (o.r == HIVE_R_FOUND)
            *out = o.val;
        return o.r;
    }
#endif
    return H_OP(hive_find_hashed)(v, P_GEOM_ARG, k, h1, h2, out);
#endif
}

HIVE_PROTO int P_SUFFIX(hive_find)(const hive_view *v, P_GEOM_PARAM, P_KEY k, P_VAL *out)
{
    return P_SUFFIX(hive_find_hashed)(v, P_GEOM_ARG, k, P_HASH1(k), P_HASH2(k), out);
}

/* Returns HIVE_R_ERASED or HIVE_R_NOT_FOUND. */
HIVE_PROTO int P_SUFFIX(hive_erase_hashed)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1, uint32_t h2)
{
#if HIVE_DOUBLE_ONLY
    return DBL_OP(hive_erase_hashed)(v, P_GEOM_ARG, k, h1, h2);
#else
#if HIVE_AT_RUN_TIME
    if (v->design == HIVE_DESIGN_ID_DOUBLE)
        return DBL_OP(hive_erase_call)(*v, P_GEOM_ARG, k, h1, h2);
#endif
    return H_OP(hive_erase_hashed)(v, P_GEOM_ARG, k, h1, h2);
#endif
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
#if HIVE_DOUBLE_ONLY
    return DBL_OP(hive_upsert_lockfree)(v, P_GEOM_ARG, k, h1, h2, val, mode, step);
#else
#if HIVE_AT_RUN_TIME
    if (v->design == HIVE_DESIGN_ID_DOUBLE) {
        P_SUFFIX(hive_outcome) o = DBL_OP(hive_upsert_lockfree_call)(*v, P_GEOM_ARG, k, h1, h2, val, mode);
        *step = o.step;
        return o.r;
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
#if HIVE_DOUBLE_ONLY
    return DBL_OP(hive_upsert_deferred)(v, P_GEOM_ARG, k, h1, h2, val, mode, levels, step, moves);
#else
#if HIVE_AT_RUN_TIME
    if (v->design == HIVE_DESIGN_ID_DOUBLE) {
        P_SUFFIX(hive_outcome) o =
            DBL_OP(hive_upsert_deferred_call)(*v, P_GEOM_ARG, k, h1, h2, val, mode, levels);
        *step = o.step;
        *moves = o.moves;
        return o.r;
    }
#endif
    return H_OP(hive_upsert_deferred)(v, P_GEOM_ARG, k, h1, h2, val, mode, levels, step, moves);
#endif
}

/* A whole insert: HIVE_R_INSERTED, UPDATED, EXISTED or REJECTED_FULL. */
HIVE_PROTO int P_SUFFIX(hive_upsert_hashed)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1,
                                            uint32_t h2, P_VAL val, int mode, int *step, uint32_t *moves)
{
#if HIVE_DOUBLE_ONLY
    return DBL_OP(hive_upsert_hashed)(v, P_GEOM_ARG, k, h1, h2, val, mode, step, moves);
#else
#if HIVE_AT_RUN_TIME
    if (v->design == HIVE_DESIGN_ID_DOUBLE) {
        P_SUFFIX(hive_outcome) o = DBL_OP(hive_upsert_call)(*v, P_GEOM_ARG, k, h1, h2, val, mode);
        *step = o.step;
        *moves = o.moves;
        return o.r;
    }
#endif
    return H_OP(hive_upsert_hashed)(v, P_GEOM_ARG, k, h1, h2, val, mode, step, moves);
#endif
}

HIVE_PROTO int P_SUFFIX(hive_upsert)(const hive_view *v, P_GEOM_PARAM, P_KEY k, P_VAL val, int mode, int *step,
                                     uint32_t *moves)
{
    return P_SUFFIX(hive_upsert_hashed)(v, P_GEOM_ARG, k, P_HASH1(k), P_HASH2(k), val, mode, step, moves);
}

#ifndef P_TILE
#if HIVE_AT_RUN_TIME
HIVE_DESIGN_CALL uint64_t DBL_OP(hive_resize_one_call)(int op, hive_view v, hive_view to, P_GEOM_PARAM,
                                                       hive_index ix, uint64_t i)
{
    return DBL_OP(hive_resize_one)(op, &v, &to, P_GEOM_ARG, ix, i);
}
#endif

/* One unit of a resize op (core/resize_plan.h) for the table's design:
 * bucket or stash slot i; returns what the op counts. */
HIVE_PROTO uint64_t P_SUFFIX(hive_resize_one)(int op, const hive_view *v, const hive_view *to, P_GEOM_PARAM,
                                              hive_index ix, uint64_t i)
{
#if HIVE_DOUBLE_ONLY
    return DBL_OP(hive_resize_one)(op, v, to, P_GEOM_ARG, ix, i);
#else
#if HIVE_AT_RUN_TIME
    if (v->design == HIVE_DESIGN_ID_DOUBLE)
        return DBL_OP(hive_resize_one_call)(op, *v, *to, P_GEOM_ARG, ix, i);
#endif
    return H_OP(hive_resize_one)(op, v, to, P_GEOM_ARG, ix, i);
#endif
}
#endif

#undef H_OP
#undef DBL_OP
#undef HIVE_AT_RUN_TIME
#undef HIVE_DOUBLE_ONLY
