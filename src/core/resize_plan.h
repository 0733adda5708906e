/* resize_plan.h — the order of linear hashing's splits and merges (Hive
 * §IV-C), shared by both backends.
 *
 * Growing splits buckets split, split+1, ... of the current round into
 * partners base * 2^m higher; a round ends when split reaches base * 2^m.
 * Shrinking undoes the last splits first: it merges bucket split-1 (and
 * below) with its partner, and when split is 0 steps back to the previous
 * round; it never goes below the base.  One step covers as many buckets of
 * one round as are wanted: their splits (or merges) touch disjoint bucket
 * pairs, so a step runs in parallel, one bucket pair per thread, in batches
 * of config.resize_batch buckets. */
#ifndef HIVE_CORE_RESIZE_PLAN_H
#define HIVE_CORE_RESIZE_PLAN_H

#include <stdint.h>

#include "index.h"

/* The per-bucket (or per-stash-slot) work of resize_body.h, as one kernel
 * or worker loop runs it over a range (hive_resize_one). */
typedef enum hive_resize_op {
    HIVE_RESIZE_SPLIT,   /* buckets: split into their partners */
    HIVE_RESIZE_MERGE,   /* buckets: take their partners' pairs in */
    HIVE_RESIZE_REHOME,  /* partner buckets: place what a merge left behind */
    HIVE_RESIZE_UNMERGE, /* buckets: undo a merge */
    HIVE_RESIZE_REFLOW,  /* buckets: pairs in their second bucket back to their first */
    HIVE_RESIZE_MARK_STASH, /* stash slots: mark the buckets of stash pairs */
    HIVE_RESIZE_COMPACT, /* buckets: TOMBs back to free slots, EMPTY where R4 allows */
    HIVE_RESIZE_DRAIN,   /* stash slots: into buckets with room */
    HIVE_RESIZE_RESTASH, /* stash slots: into a new stash */
    HIVE_RESIZE_PACK     /* buckets: TOMBs back to free slots, EMPTY in buckets that had one */
} hive_resize_op;

typedef struct hive_resize_step {
    hive_index before; /* the index the step's per-bucket calls are given */
    uint64_t first;    /* buckets [first, first + count) split, or merge their partners in */
    uint64_t count;
} hive_resize_step;

/* The stash a table of `buckets` buckets of S slots should have, holding
 * `live` pairs: stash_fraction of the table, or, where more pairs than a
 * quarter of that stay after a resize or compaction (keys crowded into a few
 * buckets: docs/design.md, "Crowding"), room for four times them, up to a
 * quarter of the table (the largest stash_fraction).  A crowded stash is
 * thus enlarged in place, and only one at that cap makes the table grow.
 * Never less than twice the pairs: a shrink can leave more pairs in the
 * stash than the cap of the smaller table holds, and a stash they do not
 * fit would stay at its old size.  No stash where stash_fraction is 0. */
static inline uint64_t hive_stash_wanted(double stash_fraction, uint64_t buckets, uint64_t live, uint32_t S)
{
    if (stash_fraction <= 0)
        return 0;
    uint64_t by_fraction = (uint64_t)((double)buckets * stash_fraction) + 1;
    uint64_t by_live = (4 * live + S - 1) / S;
    uint64_t cap = buckets / 4 + 1;
    uint64_t least = (2 * live + S - 1) / S;
    if (by_live > cap)
        by_live = cap > least ? cap : least;
    return by_live > by_fraction ? by_live : by_fraction;
}

/* Whether a stash of `have` buckets, enlarged beyond stash_fraction for
 * crowded keys, is twice what its `live` pairs need now: erases emptied it,
 * and a compaction would give the memory back. */
static inline int hive_stash_oversized(double stash_fraction, uint64_t buckets, uint64_t have, uint64_t live,
                                       uint32_t S)
{
    return have != 0 && have >= 2 * hive_stash_wanted(stash_fraction, buckets, live, S);
}

/* Whether a stash of `have` buckets should be replaced by one of `wanted`
 * (stash_fraction of the table) after a resize: when it is under half or
 * over twice that, so that growing by doubling replaces it about every
 * other doubling, not on every step. */
static inline int hive_stash_needs_resize(uint64_t have, uint64_t wanted)
{
    return wanted != 0 && (wanted >= 2 * have || have >= 2 * wanted);
}

/* The next split step from ix toward `target` buckets; 0 if there is none. */
static inline int hive_next_split(hive_index ix, uint64_t target, hive_resize_step *step)
{
    uint64_t have = hive_index_buckets(ix);
    if (have >= target)
        return 0;
    uint64_t left_in_round = hive_index_round(ix) - ix.split;
    step->before = ix;
    step->first = ix.split;
    step->count = target - have < left_in_round ? target - have : left_in_round;
    return 1;
}

/* The next merge step from ix toward `target` buckets; 0 if there is none. */
static inline int hive_next_merge(hive_index ix, uint64_t target, hive_resize_step *step)
{
    uint64_t have = hive_index_buckets(ix);
    if (have <= target || have <= ix.base)
        return 0;
    if (ix.split == 0) { /* the same buckets, seen from the previous round */
        ix.low_mask >>= 1;
        ix.split = hive_index_round(ix);
    }
    uint64_t count = have - target < ix.split ? have - target : ix.split;
    step->before = ix;
    step->first = ix.split - count;
    step->count = count;
    return 1;
}

/* The index after splitting buckets [step->first, end) of a step. */
static inline hive_index hive_after_split(const hive_resize_step *step, uint64_t end)
{
    hive_index ix = step->before;
    ix.split = end;
    if (ix.split == hive_index_round(ix)) {
        ix.low_mask = (ix.low_mask << 1) | 1;
        ix.split = 0;
    }
    return ix;
}

/* The index after merging buckets [first, split) of a step (first >=
 * step->first: a merge that does not fit stops the ones below it). */
static inline hive_index hive_after_merge(const hive_resize_step *step, uint64_t first)
{
    hive_index ix = step->before;
    ix.split = first;
    return ix;
}

#endif
