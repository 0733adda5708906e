/* tiered.h — the handle behind hive_tiered (hive.h, "the two-level table")
 * and what its files share:
 *
 *   tiered_config.c   the config checked and resolved
 *   tiered_api.c      the handle (tiers, buffers, lock), entry points, argument checks
 *   tiered_find.c     a find step: hot (over the caller's arrays, or staged), then cold,
 *                     then promotion
 *   tiered_write.c    upsert and erase steps
 *   tiered_move.c     keys entering the hot tier (what they displace is dropped)
 *   tiered_dedup.c    a step's keys made unique, the last occurrence winning
 *   tiered_compact.c  the host loops that compact a step's arrays
 *
 * The invariant every file keeps: every live key is in the cold tier; a
 * hot copy holds the key's latest value, and where the copy is clean (its
 * score's low bit clear) the cold tier holds that value too.  Under
 * write-through every copy is clean; under write-back an upsert of a key
 * with a copy writes the copy alone and marks it dirty.  Copies enter and
 * leave only through tiered_move.c, which writes the dirty ones that leave
 * back to the cold tier.  The host loops of a step run on the CPU
 * worker pool of config.threads (the one the tiers' CPU tables share,
 * cpu/cpu_pool.h). */
#ifndef HIVE_TIERED_H
#define HIVE_TIERED_H

#include <pthread.h>
#include <stdint.h>

#include "cpu/cpu_loop.h"
#include "hive.h"

#define HIVE_TIERED_MAGIC 0x54494552u /* "TIER": catches freed and foreign handles */
#define HIVE_TIERED_DYING 0x44454144u /* "DEAD": hive_tiered_destroy waits for the calls inside */

/* Keys a block of the host loops: a unit of their work sharing. */
#define HIVE_TIERED_BLOCK 4096u

/* ---------------------------------------------------------------- dedup (tiered_dedup.c) */

#define HIVE_TIERED_DEDUP_PART_BITS 6
#define HIVE_TIERED_DEDUP_PARTS (1u << HIVE_TIERED_DEDUP_PART_BITS)

typedef struct hive_tiered_dedup_slot {
    uint64_t key;
    uint32_t last;  /* the key's last position in the step */
    uint32_t stamp; /* live when equal to the generation */
} hive_tiered_dedup_slot;

typedef struct hive_tiered_dedup {
    uint64_t blocks;                  /* of the largest step */
    uint8_t *part;                    /* (batch): each key's partition */
    uint32_t *order;                  /* (batch): positions grouped by partition; then, from
                                         each partition's start, its unique keys' map slots */
    uint64_t *counts;                 /* (blocks x parts): counts, then offsets into order */
    uint64_t start[HIVE_TIERED_DEDUP_PARTS + 1];  /* partition p: order[start[p] .. start[p+1]) */
    uint64_t unique[HIVE_TIERED_DEDUP_PARTS + 1]; /* unique keys, then their output offsets */
    hive_tiered_dedup_slot *map;      /* (map_slots): partition p owns [2 start[p], 2 start[p+1]) */
    uint64_t map_slots;               /* 2 x batch */
    uint32_t generation;
} hive_tiered_dedup;

hive_status hive_tiered_dedup_init(hive_tiered_dedup *d, uint32_t batch);
void hive_tiered_dedup_free(hive_tiered_dedup *d);
/* The n (<= batch) pairs keys/values, less the reserved keys (counted into
 * *reserved, if not NULL), made unique: each key once, with the value of its last occurrence,
 * in out_keys/out_values (no particular order).  Returns how many. */
uint64_t hive_tiered_dedup_run(hive_tiered_dedup *d, hive_cpu_pool *pool, uint64_t n, const uint64_t *keys,
                               const uint64_t *values, uint64_t *out_keys, uint64_t *out_values,
                               uint64_t *reserved);

/* ---------------------------------------------------------------- compaction (tiered_compact.c) */

/* A compaction of [0, n) on the pool: the elements `keep` accepts are
 * moved, in order, to 0, 1, 2, ... by `move(from, to)`, which must not
 * write where another element is read (out of place).  A job embeds it
 * first and adds its own fields. */
typedef struct hive_tiered_compact hive_tiered_compact;
struct hive_tiered_compact {
    hive_cpu_loop loop;
    int (*keep)(const hive_tiered_compact *c, uint64_t i);
    void (*move)(hive_tiered_compact *c, uint64_t from, uint64_t to);
    uint64_t n;
    uint64_t *offsets; /* (blocks): kept per block, then where each block's go */
    int moving;        /* 0: the counting pass, 1: the moving pass */
    int in_place_first; /* the counting pass moves each kept element to its own position */
};

/* Work units of the pool's loop (cpu_loop.h) a key of the host loops
 * costs: each reads and writes several arrays, some at scattered places
 * (about 10 ns a key on one thread), so that loops of some thousands of
 * keys, a step's misses, are shared out. */
#define HIVE_TIERED_KEY_COST 16u

/* Returns how many were kept. */
uint64_t hive_tiered_compact_run(hive_cpu_pool *pool, hive_tiered_compact *c, uint64_t n, uint64_t *offsets);

/* The unreserved keys of keys[0..n) into t->s_keys, t->at[j] the position
 * of staged key j; returns how many. */
uint64_t hive_tiered_stage(struct hive_tiered *t, uint64_t n, const uint64_t *keys);

/* ---------------------------------------------------------------- the handle */

struct hive_tiered {
    uint32_t magic;             /* HIVE_TIERED_MAGIC, HIVE_TIERED_DYING, or 0 once freed */
    uint64_t calls;             /* calls inside the API, for hive_tiered_destroy (atomic); beside
                                   the magic, so that a call on a foreign pointer touches only
                                   its first 16 bytes */
    hive_tiered_config config;  /* resolved */
    hive_cache *hot;
    hive_table *cold;
    hive_cpu_pool *pool;        /* the host loops' workers */
    /* Staging: table memory of the hot tier (hive_cache_backend_ops.alloc_io:
     * host memory, or mapped pinned host memory for a CUDA hot tier), each
     * (config.batch) elements, which the host reads once a hot call returns. */
    uint64_t *s_keys, *s_values;      /* a hot call's input (and find's values out) */
    uint64_t *s_keys2, *s_values2;    /* a second pair: find_missed's keys and their positions,
                                         or an upsert's keys new to the hot tier and their values */
    uint64_t *s_scores;               /* write-back: a hot call's scores (hive_tiered_score); else NULL */
    uint64_t *s_evicted, *s_evicted_values; /* insert_and_evict's report */
    uint64_t *s_evicted_scores;       /* write-back: the report's scores; else NULL */
    uint8_t *s_flags;                 /* found flags and erase results of the hot tier */
    /* Host scratch, (config.batch) each. */
    uint32_t *at;                     /* a staged key's position in the caller's step */
    uint64_t *c_values;               /* the cold tier's values out */
    uint8_t *c_flags;                 /* the cold tier's found flags and results */
    uint64_t *offsets;                /* (blocks of a step): compaction offsets */
    /* Dirty copies that left the hot tier, on their way to the cold tier:
     * written back before the call that evicted them returns, or, should
     * that write fail, before any later call does anything (tiered_move.c).
     * NULL under write-through. */
    uint64_t *w_keys, *w_values;
    uint64_t writing_back;            /* how many wait in w_keys/w_values */
    hive_tiered_dedup dedup;
    hive_tiered_stats stats;          /* the counters; sizes filled by hive_tiered_stats_get */
    uint64_t finds;                   /* find steps so far: salts promote_one_in's draws */
    uint64_t clock;                   /* steps so far: the hot tier's scores */
    pthread_mutex_t lock;             /* serialises the calls (hive.h) */
};

/* tiered_config.c: checks *config and resolves its defaults into *resolved
 * (hot_capacity not yet rounded: the hot cache does that). */
hive_status hive_tiered_config_resolve(const hive_tiered_config *config, hive_tiered_config *resolved);

/* The hot tier's scores under write-back (HIVE_SCORE_CUSTOM; write-through
 * tables are LRU and take none): the step's clock, so that a full bucket
 * drops the copy written longest ago, and in the low bit whether the copy
 * is dirty (newer than the cold tier's value). */
static inline uint64_t hive_tiered_score(const hive_tiered *t, int dirty)
{
    return t->clock << 1 | (uint64_t)(dirty != 0);
}

/* tiered_move.c: the m keys in keys/values (staging memory), none of them
 * in the hot tier, each with its cold tier value (a key repeated with that
 * one value) and, under write-back, a clean score in t->s_scores, enter
 * the hot tier; the dirty copies it evicts for them are written back to
 * the cold tier. */
hive_status hive_tiered_admit(hive_tiered *t, uint64_t m, const uint64_t *keys, const uint64_t *values,
                              const char *call, hive_stream stream);
/* tiered_move.c: writes back the dirty copies a failed write left waiting,
 * first thing in every call that reads or writes keys: until that
 * succeeds, the call fails and does nothing, for their cold values are
 * stale. */
hive_status hive_tiered_write_back(hive_tiered *t, const char *call);

/* tiered_find.c, tiered_write.c: one step of at most config.batch keys;
 * reserved keys are skipped and counted into *skipped.  A find or an
 * upsert is `direct` when the hot tier takes the caller's arrays as they
 * are (tiered_api.c). */
hive_status hive_tiered_find_step(hive_tiered *t, uint64_t n, const uint64_t *keys, uint64_t *values,
                                  uint8_t *found, int direct, uint64_t *skipped, hive_stream stream);
hive_status hive_tiered_upsert_step(hive_tiered *t, uint64_t n, const uint64_t *keys, const uint64_t *values,
                                    int direct, uint64_t *skipped, hive_stream stream);
hive_status hive_tiered_erase_step(hive_tiered *t, uint64_t n, const uint64_t *keys, uint8_t *results,
                                   uint64_t *skipped, hive_stream stream);

#endif
