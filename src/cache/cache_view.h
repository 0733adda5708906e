/* cache_view.h — what the cache table's per-key element (cache_body.h) sees
 * of a table, where a key may live, and what one bulk call asks of it: plain
 * C shared by api, both backends and the tests.
 *
 * Layout (docs/cache.md).  Slot s of bucket b is index i = b * slots + s of
 * four parallel arrays:
 *   digests[i]  one byte: 0 for a free slot, else the digest of its key (1..255),
 *               so that a bucket's digests are slots bytes in a row (one 32-byte
 *               sector for 32 slots) and a miss reads no key;
 *   keys[i]     the key, or a sentinel (below);
 *   scores[i]   the score;
 *   the value: value_bytes at hive_cache_value_at(view, i).
 * plus one lock bit per bucket (inserters of new keys take it).
 *
 * Values are split by slot position (hive.h's value_hbm_bytes): slots
 * below value_split keep theirs in `values`, the rest in a second array,
 * which the CUDA backend puts in mapped host memory.  Every access goes
 * through hive_cache_value_at, so that no operation knows where a value
 * lives. */
#ifndef HIVE_CACHE_VIEW_H
#define HIVE_CACHE_VIEW_H

#include <stdint.h>

#include "../base/platform.h"
#include "../core/slot.h"
#include "../hash/bithash.h"
#include "hive.h"

/* Key sentinels: the dictionary's reserved 64-bit keys (core/slot.h).
 *   EMPTY   never used since creation or clear;
 *   ERASED  erased (its digest 0, score 0): free again;
 *   LOCKED  a writer holds the slot: its key, score and value are changing. */
#define HIVE_CACHE_KEY_EMPTY HIVE_K64_EMPTY
#define HIVE_CACHE_KEY_ERASED HIVE_K64_TOMB
#define HIVE_CACHE_KEY_LOCKED HIVE_K64_MOVING
#define HIVE_CACHE_NO_SLOT 0xFFFFFFFFFFFFFFFFull

/* Slots per bucket the table allows (8 to 128, a power of two), and the
 * most digests a scan loads at a time (32 bytes: one sector). */
#define HIVE_CACHE_GROUP 32u
#define HIVE_CACHE_MIN_SLOTS 8u
#define HIVE_CACHE_MAX_SLOTS 128u

/* A bucket index comes from 32 bits of hash (multiply-shift), so a cache has
 * at most 2^32 buckets. */
#define HIVE_CACHE_MAX_BUCKETS (1ull << 32)

typedef struct hive_cache_view {
    uint8_t *digests;
    uint64_t *keys;
    uint64_t *scores;
    uint8_t *values;      /* slots [0, value_split): value i at values + i * value_bytes */
    uintptr_t values_far; /* slots [value_split, buckets * slots): the second array's address
                             less value_split * value_bytes, modulo 2^64, so that value i is at
                             values_far + i * value_bytes there too */
    uint64_t value_split; /* buckets * slots when every value is in `values` */
    uint32_t *locks;      /* (buckets + 31) / 32 words: bit b % 32 of word b / 32 */
    uint64_t buckets;
    uint32_t slots;       /* per bucket: 8, 16, 32, 64 or 128 */
    uint32_t value_bytes; /* dim * element size */
    uint32_t dual;        /* 1: two buckets per key */
    uint32_t epoch;       /* for the EPOCH_* policies */
    uint64_t seed;        /* hive_cache_config.hash_seed, xored into every key before its mix */
} hive_cache_view;

/* The digests a scan loads at a time: a bucket's, up to one sector. */
HIVE_HD uint32_t hive_cache_group(const hive_cache_view *v)
{
    return v->slots < HIVE_CACHE_GROUP ? v->slots : HIVE_CACHE_GROUP;
}

/* The value of slot i: one compare and a select of the base, so that a
 * table whose values are all in `values` pays nothing for the split but the
 * compare (which always goes one way there). */
HIVE_HD uint8_t *hive_cache_value_at(const hive_cache_view *v, uint64_t i)
{
    uintptr_t base = i < v->value_split ? (uintptr_t)v->values : v->values_far;
    return (uint8_t *)(base + (uintptr_t)(i * v->value_bytes));
}

/* The values_far of a second array `far` that begins at slot `split`. */
HIVE_HD uintptr_t hive_cache_far_base(const uint8_t *far, uint64_t split, uint32_t value_bytes)
{
    return (uintptr_t)far - (uintptr_t)(split * value_bytes);
}

/* Where a key may live: its bucket(s) and its digest. */
typedef struct hive_cache_place {
    uint64_t b1, b2; /* b2 == b1 unless the table is dual */
    uint8_t digest;  /* 1..255 */
} hive_cache_place;

/* The 64-bit mix (core's fmix64 fold) of the key xored with the cache's
 * seed gives the digest from bits 56..63, the first bucket from bits 0..31
 * and the second from bits 24..55, each by multiply-shift, whose result
 * follows the top bits of its input: the first bucket mostly bits 24..31,
 * the second mostly 48..55, so that the three are about independent.  Keys
 * chosen to share a bucket under one seed need the mix's exact input, so
 * under another seed they spread. */
HIVE_HD hive_cache_place hive_cache_place_of(uint64_t key, uint64_t buckets, uint32_t dual, uint64_t seed)
{
    uint64_t h = hive_fold64(key ^ seed);
    hive_cache_place p;
    p.digest = (uint8_t)(h >> 56);
    if (p.digest == 0)
        p.digest = 1;
    p.b1 = ((h & 0xFFFFFFFFull) * buckets) >> 32;
    p.b2 = p.b1;
    if (dual && buckets > 1) {
        p.b2 = (((h >> 24) & 0xFFFFFFFFull) * buckets) >> 32;
        if (p.b2 == p.b1)
            p.b2 = p.b1 + 1 == buckets ? 0 : p.b1 + 1;
    }
    return p;
}

/* ---------------------------------------------------------------- scores */

/* The score a write stores, by policy (hive.h's hive_score_policy): `existed`
 * whether the key was present with score `old`; `inc` the caller's score. */
HIVE_HD uint64_t hive_cache_score(uint32_t policy, int existed, uint64_t old, uint64_t inc, uint64_t clock,
                                  uint32_t epoch)
{
    uint64_t ep = (uint64_t)epoch << 32;
    switch (policy) {
    case HIVE_SCORE_LRU:
        return clock;
    case HIVE_SCORE_LFU:
        return existed ? (old + inc < old ? UINT64_MAX : old + inc) : inc;
    case HIVE_SCORE_EPOCH_LRU:
        return ep | ((clock >> 20) & 0xFFFFFFFFull);
    case HIVE_SCORE_EPOCH_LFU: {
        uint64_t lo = existed && (old >> 32) == epoch ? (old & 0xFFFFFFFFull) + inc : inc;
        return ep | (lo > 0xFFFFFFFFull || lo < inc ? 0xFFFFFFFFull : lo);
    }
    default: /* HIVE_SCORE_CUSTOM */
        return inc;
    }
}

/* The score a new key competes with for a full bucket: LRU and LFU always
 * enter (HierarchicalKV's rule: the newest, and a new key's count, are
 * never refused); the others by the score they would store. */
HIVE_HD uint64_t hive_cache_admission(uint32_t policy, uint64_t inc, uint64_t clock, uint32_t epoch)
{
    if (policy == HIVE_SCORE_LRU || policy == HIVE_SCORE_LFU)
        return UINT64_MAX;
    return hive_cache_score(policy, 0, 0, inc, clock, epoch);
}

/* Whether a policy takes the caller's scores (else they must be NULL). */
HIVE_HD int hive_cache_policy_takes_scores(uint32_t policy)
{
    return policy == HIVE_SCORE_LFU || policy == HIVE_SCORE_EPOCH_LFU || policy == HIVE_SCORE_CUSTOM;
}

HIVE_HD int hive_cache_filter_match(const hive_cache_filter *f, uint64_t key, uint64_t score)
{
    return (key & f->key_mask) == f->key_pattern && score >= f->score_min && score <= f->score_max;
}

/* ---------------------------------------------------------------- one call */

/* What a bulk call does to each key (api maps the public calls onto these). */
typedef enum hive_cache_op {
    HIVE_CACHE_FIND = 0,           /* values/scores out, found; missed lists when asked */
    HIVE_CACHE_CONTAINS = 1,       /* found */
    HIVE_CACHE_UPSERT = 2,         /* insert_or_assign; insert_and_evict with evicted outputs */
    HIVE_CACHE_FIND_OR_INSERT = 3, /* values in/out, scores in/out */
    HIVE_CACHE_ASSIGN = 4,         /* value, score by the policy; existing keys */
    HIVE_CACHE_ASSIGN_VALUES = 5,  /* value only */
    HIVE_CACHE_ASSIGN_SCORES = 6,  /* score only, as given */
    HIVE_CACHE_ACCUM = 7,          /* accum_or_assign */
    HIVE_CACHE_ERASE = 8
} hive_cache_op;

/* Whether an op writes (the writers' group, hive.h) and whether it may
 * store new keys. */
HIVE_HD int hive_cache_op_writes(int op) { return op != HIVE_CACHE_FIND && op != HIVE_CACHE_CONTAINS; }
HIVE_HD int hive_cache_op_inserts(int op)
{
    return op == HIVE_CACHE_UPSERT || op == HIVE_CACHE_FIND_OR_INSERT || op == HIVE_CACHE_ACCUM;
}

/* One bulk call as the per-key loops take it.  Arrays are the caller's
 * (table memory) or NULL where the call has none. */
typedef struct hive_cache_batch {
    int op;                  /* hive_cache_op */
    uint32_t policy;         /* how this call's writes score (the table's, or CUSTOM for load) */
    uint32_t value_type;     /* hive_value_type, for ACCUM */
    uint64_t n;
    const uint64_t *keys;
    const void *values_in;   /* (n * value_bytes): UPSERT, FIND_OR_INSERT, ASSIGN*, ACCUM */
    void *values_out;        /* FIND; FIND_OR_INSERT (== values_in) */
    const uint64_t *scores_in;
    uint64_t *scores_out;    /* FIND; FIND_OR_INSERT (== scores_in when given) */
    const uint8_t *flags;    /* ACCUM */
    uint8_t *found;
    uint8_t *results;        /* hive_result */
    uint64_t *out_keys;      /* UPSERT: evicted keys; FIND: missed keys (compact) */
    void *out_values;        /* UPSERT: evicted values */
    uint64_t *out_scores;    /* UPSERT: evicted scores */
    uint64_t *out_indices;   /* FIND: missed indices */
    const uint64_t *order;   /* NULL, or (n) the positions of the batch in the order its elements
                                run: the CUDA backend's calls over host values, by bucket */
} hive_cache_batch;

/* What a call did, summed over its keys (host memory). */
typedef struct hive_cache_outcome {
    uint64_t reserved; /* keys rejected as reserved */
    uint64_t out;      /* entries written to out_keys (evicted or refused; missed) */
    uint64_t inserted; /* new keys stored (INSERTED or EVICTED) */
    uint64_t evicted;  /* entries that left the table for a new key */
    uint64_t refused;
    uint64_t erased;
} hive_cache_outcome;

#endif
