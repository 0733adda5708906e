/* tiered.h — the handle behind hive_tiered (hive.h, "the two-level table")
 * and what its files share: tiered_config.c (the config checked and
 * resolved), tiered_api.c (entry points, argument checks, the handle's lock,
 * the three bulk calls step by step), tiered_move.c (keys entering the hot
 * tier and the write-back of what they displace) and tiered_dedup.c (a
 * step's keys made unique, the last occurrence winning).
 *
 * The invariant every file keeps: a live key is in exactly one tier, with
 * its latest value.  Only tiered_move.c moves keys between the tiers. */
#ifndef HIVE_TIERED_H
#define HIVE_TIERED_H

#include <pthread.h>
#include <stdint.h>

#include "hive.h"

#define HIVE_TIERED_MAGIC 0x54494552u /* "TIER": catches freed and foreign handles */
#define HIVE_TIERED_DYING 0x44454144u /* "DEAD": hive_tiered_destroy waits for the calls inside */

/* The keys of one step made unique (tiered_dedup.c): an open-addressing map
 * from key to its position in the output arrays, whose slots are valid only
 * when their stamp is the current generation, so that a step starts without
 * clearing it. */
typedef struct hive_tiered_dedup {
    uint64_t *keys;    /* (slots) */
    uint32_t *pos;     /* (slots) */
    uint32_t *stamp;   /* (slots) */
    uint64_t mask;     /* slots - 1; slots a power of two >= 2 * batch */
    uint32_t generation;
} hive_tiered_dedup;

struct hive_tiered {
    uint32_t magic;             /* HIVE_TIERED_MAGIC, HIVE_TIERED_DYING, or 0 once freed */
    hive_tiered_config config;  /* resolved */
    hive_cache *hot;
    hive_table *cold;
    /* Staging: table memory of the hot tier (hive_cache_backend_ops.alloc_io:
     * host memory, or mapped pinned host memory for a CUDA hot tier), each
     * (config.batch) elements, which the host reads once a hot call returns. */
    uint64_t *s_keys, *s_values;     /* a hot call's input (and find's values out) */
    uint64_t *s_missed, *s_missed_at; /* find_missed's keys and their positions */
    uint64_t *s_evicted, *s_evicted_values; /* insert_and_evict's write-back */
    uint8_t *s_flags;                /* found flags and erase results of the hot tier */
    /* Host scratch, (config.batch) each. */
    uint32_t *at;                    /* a staged key's position in the caller's step */
    uint64_t *c_values;              /* the cold tier's values out */
    uint8_t *c_flags;                /* the cold tier's found flags and results */
    hive_tiered_dedup dedup;
    hive_tiered_stats stats;         /* the counters; sizes filled by hive_tiered_stats_get */
    pthread_mutex_t lock;            /* serialises the calls (hive.h) */
    uint64_t calls;                  /* calls inside the API, for hive_tiered_destroy (atomic) */
};

/* tiered_config.c: checks *config and resolves its defaults into *resolved
 * (hot_capacity not yet rounded: the hot cache does that). */
hive_status hive_tiered_config_resolve(const hive_tiered_config *config, hive_tiered_config *resolved);

/* tiered_dedup.c */
hive_status hive_tiered_dedup_init(hive_tiered_dedup *d, uint32_t batch);
void hive_tiered_dedup_free(hive_tiered_dedup *d);
/* Starts a step: the map forgets every key. */
void hive_tiered_dedup_begin(hive_tiered_dedup *d);
/* Adds (key, value) to the unique arrays keys/values of *count entries: a
 * key already there takes `value` (the later occurrence wins), a new one is
 * appended.  At most `batch` distinct keys a step. */
void hive_tiered_dedup_add(hive_tiered_dedup *d, uint64_t key, uint64_t value, uint64_t *keys,
                           uint64_t *values, uint64_t *count);

/* tiered_move.c: the m keys staged in t->s_keys / t->s_values, distinct and
 * none of them in the hot tier, enter the hot tier; every key of them that
 * was in the cold tier leaves it, and every entry the hot tier evicts for
 * them (or refuses) is written to the cold tier.  The cold tier is grown
 * first, so that an out-of-memory failure leaves both tiers as they were.
 * `call` names the public call in errors. */
hive_status hive_tiered_admit(hive_tiered *t, uint64_t m, hive_stream stream, const char *call);

#endif
