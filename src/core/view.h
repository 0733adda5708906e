/* view.h — the shared slot protocol's state: where a table's memory is, as
 * every design sees it, and the per-bucket locks, stash bits and resize
 * marks that every design uses the same way.  Design-neutral: a design
 * (src/designs/NAME/) says only which buckets a key may live in and how it is
 * placed there; the slots, their sentinels (core/slot.h), the bucket scan and
 * the stash (core/slot_body.h) are these.  docs/design.md describes them. */
#ifndef HIVE_CORE_VIEW_H
#define HIVE_CORE_VIEW_H

#include <stdint.h>

#include "atomics.h"
#include "index.h"
#include "tags.h"
#include "tile.h"

/* Token pasting after expansion: HIVE_PASTE(P_SUFFIX(f), _double). */
#define HIVE_PASTE_(a, b) a##b
#define HIVE_PASTE(a, b) HIVE_PASTE_(a, b)

/* Designs, the values of enum hive_design (hive.h), repeated here because
 * device code does not include the public header. */
#define HIVE_DESIGN_ID_HIVE 0
#define HIVE_DESIGN_ID_DOUBLE 1
#define HIVE_DESIGN_ID_P2 2
#define HIVE_DESIGN_ID_ICEBERG 3
#define HIVE_DESIGN_ID_CUCKOO 4
#define HIVE_DESIGN_ID_CHAINING 5
#define HIVE_DESIGN_ID_DOUBLE_M 6
#define HIVE_DESIGN_ID_P2_M 7
#define HIVE_DESIGN_ID_ICEBERG_M 8

/* Every design other than the Hive design is a probe sequence over the
 * shared buckets (core/probe_body.h): X(ID, name) for each, ID naming its
 * HIVE_DESIGN_ID_* and name its folder (src/designs/name/) and the suffix
 * of its operations (name_<width>_name; a tagged variant NAME_m lives in
 * its base design's folder).  The dispatch (designs/dispatch_body.h),
 * the names table (designs/names.h) and the tests' and bench's --design
 * take every design from here, so a new one is a line. */
#define HIVE_PROBE_DESIGNS(X)                                                                    \
    X(DOUBLE, double) X(P2, p2) X(ICEBERG, iceberg) X(CUCKOO, cuckoo) X(CHAINING, chaining)         \
    X(DOUBLE_M, double_m) X(P2_M, p2_m) X(ICEBERG_M, iceberg_m)
/* All designs, the Hive design first. */
#define HIVE_DESIGNS(X) X(HIVE, hive) HIVE_PROBE_DESIGNS(X)

/* Stash buckets a key may probe, starting at its stash home bucket. */
#define HIVE_STASH_PROBE 8

/* Where a table's memory is, as the protocol sees it.  `slots` and `stash`
 * point to 64-bit words; a KV64 slot is two of them (key, value). */
typedef struct hive_view {
    uint64_t *slots;         /* buckets * S slots */
    uint32_t *locks;         /* one bit per bucket */
    uint64_t *stash;         /* stash_buckets * S slots, or NULL */
    uint32_t *stash_used;    /* one bit per stash bucket: a pair was ever placed there (the
                              * chaining design: its chain heads and links instead,
                              * designs/chaining/pool.h) */
    uint64_t *stash_live;    /* live keys in the stash (one counter, for stats) */
    hive_index ix;           /* bucket index rule (linear hashing) */
    uint64_t stash_buckets;  /* 0: no stash */
    uint32_t max_evictions;  /* <= HIVE_MAX_CHAIN (the Hive design's cuckoo chains) */
    /* HIVE_DESIGN_ID_*: which design's operations run on this memory
     * (designs/designs.h).  In what was padding before the pointer below, so
     * the kernels' parameters keep their layout. */
    uint32_t design;
    /* NULL, or one bit per bucket, set if the bucket had no free slot when
     * the bits were taken: only in the deferred kernels of a KV32 bulk insert
     * (cuda_kernels.cuh). */
    const uint32_t *full_hint;
    /* The table's hash seed (hive_config.hash_seed, resolved): mixed into
     * both bucket hashes of every key (hash/bithash.h) by every operation and
     * resize step, so a view carries it wherever it goes.  Kept whole (a
     * KV64 key takes it before the fold) and as two 32-bit halves (a KV32
     * key's first hash takes the low one, its second the high one), and read
     * through P_VIEW_SEED (designs/designs.h), so that each width loads only
     * what it uses.  Measured with ptxas -v (sm_90): one 64-bit field, split
     * for KV32 keys, made the KV32 count kernel spill and tile kernels take
     * up to 14 more registers; the halves alone, joined for KV64 keys, cost
     * KV64 kernels up to 4.  hive_view_set_seed sets all three. */
    uint64_t hash_seed;
    uint32_t hash_seed_lo, hash_seed_hi;
    /* The tagged designs' (HIVE_DESIGN_ID_*_M) fingerprints: one 16-bit
     * tag per slot of `slots`, in the same order (core/tags.h); NULL for
     * the other designs. */
    uint16_t *tags;
} hive_view;

/* Does design d keep a tag per slot (core/tags.h)? */
#define HIVE_DESIGN_TAGGED(d)                                                                    \
    ((d) == HIVE_DESIGN_ID_DOUBLE_M || (d) == HIVE_DESIGN_ID_P2_M || (d) == HIVE_DESIGN_ID_ICEBERG_M)

/* The seed, loaded whole, or as its two halves. */
HIVE_HD uint64_t hive_view_seed(const hive_view *v) { return v->hash_seed; }

HIVE_HD uint64_t hive_view_seed_halves(const hive_view *v)
{
    return (uint64_t)v->hash_seed_hi << 32 | v->hash_seed_lo;
}

HIVE_HD void hive_view_set_seed(hive_view *v, uint64_t seed)
{
    v->hash_seed = seed;
    v->hash_seed_lo = (uint32_t)seed;
    v->hash_seed_hi = (uint32_t)(seed >> 32);
}

/* Did bucket b have no free slot when the full bits were taken?  A hint for
 * the eviction search, which then need not read b's room: buckets never
 * regain a free slot while operations run (R2), and a clear bit is only a
 * maybe, so a stale bit costs a read at worst. */
HIVE_PROTO int hive_hinted_full(const hive_view *v, uint64_t b)
{
    return v->full_hint != NULL && ((hive_read_u32(v->full_hint + (b >> 5)) >> (b & 31)) & 1u);
}

/* Where a key's stash probe starts: a third hash made of the first two. */
HIVE_PROTO uint64_t hive_stash_home(uint32_t h1, uint32_t h2, uint64_t stash_buckets)
{
    return hive_home_of(h1, h2, stash_buckets);
}

/* Has stash bucket sb ever held a pair?  A key's stash probe starts at its
 * home bucket and only goes on past buckets without an EMPTY slot, so a home
 * bucket that never held a pair ends every probe that starts there.  One bit
 * per bucket keeps this check off DRAM and off any single hot address. */
HIVE_PROTO int hive_stash_bucket_used(const hive_view *v, uint64_t sb)
{
    return (hive_read_u32(v->stash_used + (sb >> 5)) >> (sb & 31)) & 1u;
}

HIVE_PROTO void hive_stash_mark_used(const hive_view *v, uint64_t sb)
{
    uint32_t bit = 1u << (sb & 31);
    if (!(hive_read_u32(v->stash_used + (sb >> 5)) & bit))
        hive_or_u32(v->stash_used + (sb >> 5), bit);
    hive_fence(); /* the mark is visible before the pair it announces */
}

HIVE_PROTO void hive_lock_bucket(const hive_view *v, uint64_t b)
{
    uint32_t *word = v->locks + (b >> 5);
    uint32_t bit = 1u << (b & 31);
    for (unsigned round = 0; !hive_lock_try(word, bit); round++)
        hive_backoff(round);
}

HIVE_PROTO void hive_unlock_bucket(const hive_view *v, uint64_t b)
{
    hive_lock_release(v->locks + (b >> 5), 1u << (b & 31));
}

/* Releases bucket b's lock right after a fence of the caller's own, which
 * already orders everything before it. */
HIVE_PROTO void hive_unlock_bucket_fenced(const hive_view *v, uint64_t b)
{
    hive_lock_release_fenced(v->locks + (b >> 5), 1u << (b & 31));
}

/* No lock held (hive_apply_chain released it). */
#define HIVE_LOCK_NONE UINT64_MAX

/* While no operation runs (resizing, R8), the lock bits are free, and mark
 * the buckets that must keep VACANT free slots: every bucket a key may live
 * in that comes before the one it does live in (for the Hive design, the
 * first bucket of a pair left in its second), and every bucket of a stash
 * pair. */
HIVE_PROTO void hive_mark_bucket(const hive_view *v, uint64_t b)
{
    hive_or_u32(v->locks + (b >> 5), 1u << (b & 31));
}

/* Reads and clears bucket b's mark. */
HIVE_PROTO int hive_take_mark(const hive_view *v, uint64_t b)
{
    uint32_t bit = 1u << (b & 31);
    if (!(hive_read_u32(v->locks + (b >> 5)) & bit))
        return 0;
    hive_lock_release(v->locks + (b >> 5), bit);
    return 1;
}

#ifdef __CUDACC__
/* The same for a tile of lanes: the first lane acts, the tile waits. */
HIVE_PROTO void hive_tile_lock(hive_geom g, const hive_view *v, uint64_t b)
{
    if (hive_tile_first(g))
        hive_lock_bucket(v, b);
    __syncwarp(hive_tile_mask(g));
}

HIVE_PROTO void hive_tile_unlock(hive_geom g, const hive_view *v, uint64_t b)
{
    __syncwarp(hive_tile_mask(g));
    if (hive_tile_first(g))
        hive_unlock_bucket(v, b);
}

HIVE_PROTO void hive_tile_add_live(hive_geom g, const hive_view *v, uint64_t d)
{
    if (hive_tile_first(g))
        hive_add_u64(v->stash_live, d);
}

HIVE_PROTO void hive_tile_mark_stash(hive_geom g, const hive_view *v, uint64_t sb)
{
    if (hive_tile_first(g))
        hive_stash_mark_used(v, sb);
    __syncwarp(hive_tile_mask(g));
}
#endif

#endif
