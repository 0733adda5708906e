/* resize_ops_body.h — what every design's resize steps share, included by
 * a design's resize body once it has defined its own steps and
 * D_OP(hive_split_hash) (which hash placed a pair in a bucket) and
 * D_OP(hive_rehome_target) (where a pair goes under the merged index): the
 * split of a bucket, REHOME of a pair and of a bucket, and the one entry
 * point that runs a resize op on one unit (the backends' resize kernels and
 * loops call it).  A design whose overflow is not the shared stash names its
 * own with D_OV (core/probe_body.h).  No include guard: once per
 * instantiation. */

#ifndef D_OV
#define D_OV(name) P_SUFFIX(name) /* the shared stash */
#define D_OV_DEFAULT_OPS_BODY 1
#endif
#ifndef D_SCAN
#include "tag_seam.h"
#define D_TAG_SEAM_OPS_BODY 1
#endif

/* Splits bucket j (split <= j < base * 2^m under ix, the index before this
 * split; seed: the table's hash seed) into j and its partner j + base * 2^m:
 * a pair moves when the next bit of the hash that placed it in j (the
 * design's D_OP(hive_split_hash)) says so.  A bucket that had no EMPTY slot
 * gives both halves VACANT ones (R8: its keys may have spilled to later
 * buckets or the stash).  The partner's memory is written whole.  Returns
 * the pairs moved. */
HIVE_PROTO uint32_t D_OP(hive_split_bucket)(P_SLOT *slots, P_GEOM_PARAM, hive_index ix, uint64_t seed,
                                             uint64_t j)
{
    uint64_t wide = (ix.low_mask << 1) | 1;
    P_SLOT *lo = P_SUFFIX(hive_bucket)(slots, j, P_S);
    P_SLOT *hi = P_SUFFIX(hive_bucket)(slots, j + hive_index_round(ix), P_S);
    uint32_t nlo = 0, nhi = 0;
    int ended = 0;
    for (uint32_t i = 0; i < P_S; i++) {
        P_SLOT w = lo[i];
        P_KEY key = P_KEY_OF(w);
        if (key == P_EMPTY)
            ended = 1;
        if (P_RESERVED(key))
            continue;
        uint32_t h;
        if (!D_OP(hive_split_hash)(ix, seed, key, j, &h) || hive_bucket_masked(ix, h, wide) == j)
            lo[nlo++] = w;
        else
            hi[nhi++] = w;
    }
    P_SUFFIX(hive_fill_free)(lo, P_GEOM_ARG, nlo, ended);
    P_SUFFIX(hive_fill_free)(hi, P_GEOM_ARG, nhi, ended);
    return nhi;
}

/* Places the pair in `slot` (a merged-away partner's), if any, under the
 * merged index of `into` without moving any other pair: into the design's
 * rehome target, else into the stash; then makes the slot a TOMB.  No
 * eviction, so that a step that fails can be undone (hive_unmerge_bucket).
 * Other REHOMEs of the step race for the same slots by CAS, and no
 * operation runs (R8).  Returns 1 if a pair moved, 0 if there was none, -1
 * if it found no room (it stays). */
HIVE_PROTO int D_OP(hive_rehome_pair)(const hive_view *into, P_GEOM_PARAM, P_SLOT *slot)
{
    P_SLOT w = *slot;
    P_KEY k = P_KEY_OF(w);
    if (P_RESERVED(k))
        return 0;
    uint32_t h1 = P_VIEW_HASH1(into, k), h2 = P_VIEW_HASH2(into, k);
    for (;;) {
        P_SLOT seen;
        P_SLOT *target = D_OP(hive_rehome_target)(into, P_GEOM_ARG, k, h1, h2, &seen);
        if (target == 0) {
            int r = D_OV(hive_stash_put)(into, P_GEOM_ARG, k, w, h1, h2);
            if (r < 0)
                continue; /* another REHOME took the stash slot first */
            if (r == 0)
                return -1;
            break;
        }
        if (D_CLAIM(into, target, seen, w, D_TAG_OF(h1, h2)))
            break;
    }
    *slot = P_MAKE(P_TOMB, 0); /* a merged-away bucket's: no one reads its tag */
    return 1;
}

/* Moves every pair left in bucket b (a merged-away partner) into `into`,
 * the table under the merged index.  Returns how many found no room. */
HIVE_PROTO uint32_t D_OP(hive_rehome_bucket)(const hive_view *into, P_GEOM_PARAM, uint64_t b)
{
    P_SLOT *bucket = P_SUFFIX(hive_bucket)((P_SLOT *)into->slots, b, P_S);
    uint32_t stuck = 0;
    for (uint32_t i = 0; i < P_S; i++)
        stuck += D_OP(hive_rehome_pair)(into, P_GEOM_ARG, bucket + i) < 0;
    return stuck;
}

/* Copies the overflow pair in `slot`, if any, into the overflow store of
 * `to` (a larger stash replacing this one, or a new node pool).  Copies of
 * distinct keys race only for free slots, by CAS.  Returns 0 if it found no
 * room there. */
HIVE_PROTO int D_OP(hive_restash_slot)(const hive_view *to, P_GEOM_PARAM, const P_SLOT *slot)
{
    P_SLOT w = *slot;
    P_KEY k = P_KEY_OF(w);
    if (P_RESERVED(k))
        return 1;
    int r;
    while ((r = D_OV(hive_stash_put)(to, P_GEOM_ARG, k, w, P_VIEW_HASH1(to, k), P_VIEW_HASH2(to, k))) < 0)
        ; /* another copy took the slot first */
    return r;
}

/* One unit of a resize op: bucket i (SPLIT, MERGE, UNMERGE and COMPACT of
 * v's slots with the step's index ix; REFLOW under v's own index; REHOME
 * into `to`), or stash slot i of v (MARK_STASH, DRAIN; RESTASH into `to`).
 * Returns what the op counts: pairs moved (SPLIT, REFLOW, DRAIN), pairs a
 * merge left behind (MERGE), pairs that found no room (REHOME, RESTASH,
 * UNMERGE). */
HIVE_PROTO uint64_t D_OP(hive_resize_one)(int op, const hive_view *v, const hive_view *to, P_GEOM_PARAM,
                                          hive_index ix, uint64_t i)
{
    P_SLOT *slots = (P_SLOT *)v->slots;
    P_SLOT *stash = (P_SLOT *)v->stash;
    uint64_t r = 0;
    switch (op) {
    case HIVE_RESIZE_SPLIT:
        r = D_OP(hive_split_bucket)(slots, P_GEOM_ARG, ix, P_VIEW_SEED(v), i);
        break;
    case HIVE_RESIZE_MERGE:
        r = D_OP(hive_merge_bucket)(slots, P_GEOM_ARG, ix, i);
        break;
    case HIVE_RESIZE_REHOME:
        return D_OP(hive_rehome_bucket)(to, P_GEOM_ARG, i);
    case HIVE_RESIZE_UNMERGE:
        r = D_OP(hive_unmerge_bucket)(slots, P_GEOM_ARG, ix, P_VIEW_SEED(v), i);
        break;
    case HIVE_RESIZE_REFLOW:
        return D_OP(hive_reflow_bucket)(v, P_GEOM_ARG, i);
    case HIVE_RESIZE_COMPACT:
        P_SUFFIX(hive_compact_bucket)(v, P_GEOM_ARG, i);
        D_RETAG(v, i);
        return 0;
    case HIVE_RESIZE_PACK:
        P_SUFFIX(hive_pack_free)(v, P_GEOM_ARG, i);
        D_RETAG(v, i);
        return 0;
    case HIVE_RESIZE_MARK_STASH:
        D_OP(hive_mark_stash_slot)(v, stash + i);
        return 0;
    case HIVE_RESIZE_DRAIN:
        return (uint64_t)D_OP(hive_drain_stash_slot)(v, P_GEOM_ARG, stash + i);
    default: /* HIVE_RESIZE_RESTASH */
        return D_OP(hive_restash_slot)(to, P_GEOM_ARG, stash + i) == 0;
    }
    /* SPLIT, MERGE, UNMERGE: bucket i and its partner were rewritten whole (T4) */
    D_RETAG(v, i);
    D_RETAG(v, i + hive_index_round(ix));
    return r;
}

#ifdef D_OV_DEFAULT_OPS_BODY
#undef D_OV
#undef D_OV_DEFAULT_OPS_BODY
#endif
#ifdef D_TAG_SEAM_OPS_BODY
#include "tag_seam_end.h"
#undef D_TAG_SEAM_OPS_BODY
#endif
