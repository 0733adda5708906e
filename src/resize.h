/* resize.h — linear hashing's one driver (resize.c): the plan of splits and
 * merges, their loop, tidying, the stash's size, what a failed step leaves,
 * and the counters, over a backend's per-step work (backend.h).  api calls
 * it with the table's resize lock held for writing (R8). */
#ifndef HIVE_RESIZE_H
#define HIVE_RESIZE_H

#include <stdint.h>

#include "backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the driver keeps of a table between resizes (in api's handle).
 * Written only under the resize lock held for writing; read with __atomic
 * loads. */
typedef struct hive_resize_state {
    uint64_t buckets_split, buckets_merged; /* lifetime totals, for hive_stats */
    /* A failed resize whose recovery failed too: which pairs live where is
     * not known, so every call but hive_clear (which resets it) and
     * hive_destroy refuses with HIVE_ERROR_CUDA. */
    int broken;
} hive_resize_state;

/* Grows or shrinks the table to about `slots` slots, keeping every pair:
 * splits add buckets until there are at least `slots` slots; merges remove
 * buckets toward `slots` and stop at the first step that would not fit
 * (undone, losing nothing).  Tidies after either, and sizes the stash.  On
 * OUT_OF_MEMORY the table keeps its pairs, and its size or one between the
 * two (docs/design.md §7, Failures). */
hive_status hive_resize(const hive_backend_ops *ops, void *impl, const hive_config *config,
                        hive_resize_state *state, uint64_t slots, hive_stream stream);

/* Turns the TOMBs of every bucket back into free slots (EMPTY where R4
 * allows), moves stash pairs into their buckets where there is room, and
 * sizes the stash to what stays: api's relief for a crowded stash. */
hive_status hive_compact(const hive_backend_ops *ops, void *impl, const hive_config *config,
                         hive_resize_state *state, hive_stream stream);

/* The tombstones of every bucket back to free slots, in one pass over the
 * buckets: no pair moves, and free slots stay VACANT in buckets that have
 * been full (core/slot_body.h, hive_pack_free).  For a table whose erases
 * and inserts keep its size, where hive_compact's reflow, marks and stash
 * drain would cost several times as much.  Errors as hive_compact. */
hive_status hive_reclaim_tombs(const hive_backend_ops *ops, void *impl, const hive_config *config,
                               hive_resize_state *state, hive_stream stream);

/* Whether a stash of `stash_buckets` holding `live` pairs in a table of
 * `buckets` buckets is twice what they need (core/resize_plan.h's one rule:
 * enlarged for crowded keys, then emptied by erases); live = 0 asks whether
 * it is enlarged at all. */
int hive_stash_is_oversized(const hive_config *config, uint64_t buckets, uint64_t stash_buckets,
                            uint64_t live);

#ifdef __cplusplus
}
#endif

#endif
