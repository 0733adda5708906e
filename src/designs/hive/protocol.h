/* protocol.h — the Hive bucket protocol, written once.
 *
 * Every operation on one key, as a function of one thread: the CPU backend
 * calls these from its worker threads, the CUDA backend from one GPU thread
 * per key.  Both widths come from one body (protocol_body.h) included twice
 * with the slot type and its accessors #defined.  docs/design.md explains the
 * rules below and why they keep the table free of duplicates and lost keys.
 *
 *   table  = buckets of S slots (S = 4..32, a power of two), plus a stash of
 *            stash_buckets buckets of S slots, plus one lock bit per bucket.
 *
 *   bucket b:  [ k v | k v | TOMB | k v | EMPTY | EMPTY ]   (S slots)
 *                ^^^^^^^^^^^^^^^^^^^^^^^^  ^^^^^^^^^^^^^
 *                used (live, erased, frozen)  free: always a suffix, all EMPTY
 *                                             (never full) or all VACANT
 *
 * Rules (each one is a reason in design.md):
 *  R1  A key has two buckets, b1 = bucket_of(hash1) and b2 = bucket_of(hash2).
 *  R2  Lock-free, a new key may only take the first free slot (EMPTY or
 *      VACANT) of its b1 -- when that slot is VACANT, only after finding k in
 *      neither b2 nor the stash -- or, once b1 has no free slot, the first
 *      free slot of its b2 (one CAS free -> pair).  Free slots never come
 *      back while operations run.
 *  R3  Any other placement of a new key k (a TOMB, cuckoo, stash) happens
 *      only once neither bucket has a free slot, while holding the lock of
 *      b1(k), after re-checking that k is absent.  Together with R2 this makes
 *      duplicates impossible.
 *  R4  Hence: if b1(k) has an EMPTY slot (it has never been full), k is
 *      neither in b2(k) nor in the stash; if b2(k) has one, k is not in the
 *      stash.  Finds of absent keys mostly stop after one bucket.  A VACANT
 *      slot says nothing of the kind: its bucket was full once.
 *  R5  Cuckoo eviction moves a key only from its b1 to its b2, copy first:
 *      freeze the slot (key -> MOVING), CAS the pair into b2, then overwrite
 *      the frozen slot.  Readers scan b1 before b2, so they see the key in
 *      one place or the other; one that meets MOVING without finding its key
 *      retries.  A frozen pair cannot be updated or erased meanwhile.
 *  R6  Updates and erases are one CAS on the slot that holds the key.
 *  R8  Resizing runs while no operation does (resize_body.h): a split or
 *      merge moves keys only between a bucket and its linear-hashing partner,
 *      and a bucket that had no EMPTY slot gets VACANT, never EMPTY, slots,
 *      so R4 stays true for keys left in their second bucket or the stash.
 */
#ifndef HIVE_CORE_PROTOCOL_H
#define HIVE_CORE_PROTOCOL_H

#include <stdint.h>

#include "../../hash/bithash.h"
#include "../../core/atomics.h"
#include "../../base/platform.h"
#include "../../core/combine.h"
#include "../../core/index.h"
#include "../../core/outcome.h"
#include "../../core/resize_plan.h"
#include "../../core/slot.h"
#include "../../core/tile.h"

/* Insert steps (hive_stats.insert_steps). */
#define HIVE_STEP_REPLACE 0
#define HIVE_STEP_CLAIM 1
#define HIVE_STEP_EVICT 2
#define HIVE_STEP_STASH 3

/* Longest cuckoo chain a thread records (config.max_evictions is clamped). */
#define HIVE_MAX_CHAIN 32
/* Candidates whose rooms the eviction search reads together (it divides S).
 * Two, not four: the deferred launches are bound by their random DRAM reads,
 * and a group stops at the first with room (H100: 1 -2%, 2 +1% against 4;
 * bench/NOTES.md). */
#define HIVE_NEAR_GROUP 2
/* Levels of the breadth-first eviction search (hive_evict_near) that an
 * insert's locked path runs: one move (a pair of b1 or b2 straight to its
 * second bucket), two moves (through a pair of that bucket; this level also
 * checks each candidate's own room, and goes on to the walk and the stash).
 * The GPU's short deferred launch runs the first only, the deep launch the
 * second only (the first found nothing moments before); the rest run both. */
#define HIVE_EVICT_ONE_MOVE 1
#define HIVE_EVICT_TWO_MOVES 2
#define HIVE_EVICT_ALL (HIVE_EVICT_ONE_MOVE | HIVE_EVICT_TWO_MOVES)
/* Times an insert looks for a new chain after others broke its chains. */
#define HIVE_EVICT_RETRIES 16
/* Stash buckets a key may probe, starting at its stash home bucket. */
#define HIVE_STASH_PROBE 8

/* Where a table's memory is, as the protocol sees it.  `slots` and `stash`
 * point to 64-bit words; a KV64 slot is two of them (key, value). */
typedef struct hive_view {
    uint64_t *slots;         /* buckets * S slots */
    uint32_t *locks;         /* one bit per bucket */
    uint64_t *stash;         /* stash_buckets * S slots, or NULL */
    uint32_t *stash_used;    /* one bit per stash bucket: a pair was ever placed there */
    uint64_t *stash_live;    /* live keys in the stash (one counter, for stats) */
    hive_index ix;           /* bucket index rule (linear hashing) */
    uint64_t stash_buckets;  /* 0: no stash */
    uint32_t max_evictions;  /* <= HIVE_MAX_CHAIN */
    /* NULL, or one bit per bucket, set if the bucket had no free slot when
     * the bits were taken: only in the deferred kernels of a KV32 bulk insert
     * (cuda_kernels.cuh). */
    const uint32_t *full_hint;
} hive_view;

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
    uint64_t h = ((uint64_t)h2 << 32 | h1) * 0x9E3779B97F4A7C15ull;
    return (h >> 32) % stash_buckets;
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
 * the buckets that must keep VACANT free slots: the first bucket of a pair
 * left in its second bucket, both buckets of a stash pair. */
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

/* ---------------------------------------------------------------- KV32 */
#define P_SUFFIX(name) name##_kv32
#define P_KEY uint32_t
#define P_VAL uint32_t
#define P_SLOT uint64_t
#define P_WORDS 1
#define P_LOAD(p) hive_load64(p)
#define P_CAS(p, e, d) hive_cas64((p), (e), (d))
#define P_KEY_OF(s) ((uint32_t)(s))
#define P_VAL_OF(s) ((uint32_t)((s) >> 32))
#define P_MAKE(k, v) hive_pack32((k), (v))
#define P_EMPTY HIVE_K32_EMPTY
#define P_TOMB HIVE_K32_TOMB
#define P_MOVING HIVE_K32_MOVING
#define P_VACANT HIVE_K32_VACANT
#define P_RESERVED(k) hive_k32_reserved(k)
#define P_HASH1(k) hive_bithash1(k)
#define P_HASH2(k) hive_bithash2(k)
#define P_COMBINE(m, a, b) hive_combine32((m), (a), (b))
#define P_HINTED_FULL(v, b) hive_hinted_full((v), (b))
#include "protocol_mode_thread.h"
#include "protocol_body.h"

/* ---------------------------------------------------------------- KV32, tile */
#ifdef __CUDACC__
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

#define P_SUFFIX(name) name##_kv32_tile
#define P_KEY uint32_t
#define P_VAL uint32_t
#define P_SLOT uint64_t
#define P_WORDS 1
#define P_LOAD(p) hive_load64(p)
#define P_CAS(p, e, d) hive_tile_cas64(g, (p), (e), (d))
#define P_KEY_OF(s) ((uint32_t)(s))
#define P_VAL_OF(s) ((uint32_t)((s) >> 32))
#define P_MAKE(k, v) hive_pack32((k), (v))
#define P_EMPTY HIVE_K32_EMPTY
#define P_TOMB HIVE_K32_TOMB
#define P_MOVING HIVE_K32_MOVING
#define P_VACANT HIVE_K32_VACANT
#define P_RESERVED(k) hive_k32_reserved(k)
#define P_HASH1(k) hive_bithash1(k)
#define P_HASH2(k) hive_bithash2(k)
#define P_COMBINE(m, a, b) hive_combine32((m), (a), (b))
#define P_HINTED_FULL(v, b) 0 /* tiles run no deferred kernels */
#include "protocol_mode_tile.h"
#include "protocol_body.h"
#endif

/* ---------------------------------------------------------------- KV64 */
#ifdef HIVE_HAVE_SLOT128
#define P_SUFFIX(name) name##_kv64
#define P_KEY uint64_t
#define P_VAL uint64_t
#define P_SLOT hive_u128
#define P_WORDS 2
#define P_LOAD(p) hive_load128(p)
#define P_CAS(p, e, d) hive_cas128((p), (e), (d))
#define P_KEY_OF(s) ((uint64_t)(s))
#define P_VAL_OF(s) ((uint64_t)((s) >> 64))
#define P_MAKE(k, v) (((hive_u128)(v) << 64) | (hive_u128)(k))
#define P_EMPTY HIVE_K64_EMPTY
#define P_TOMB HIVE_K64_TOMB
#define P_MOVING HIVE_K64_MOVING
#define P_VACANT HIVE_K64_VACANT
#define P_RESERVED(k) hive_k64_reserved(k)
#define P_HASH1(k) hive_hash1_k64(k)
#define P_HASH2(k) hive_hash2_k64(k)
#define P_COMBINE(m, a, b) hive_combine64((m), (a), (b))
#define P_HINTED_FULL(v, b) 0 /* KV64 tables take no full bits */
#include "protocol_mode_thread.h"
#include "protocol_body.h"
#endif

#endif
