/* crowded.h — the parts of hive-crowded (main.c says what it tests):
 * the key pool, the table with its reference and the checked calls on it
 * (table.c), and the finder threads (finders.c). */
#ifndef HT_CROWDED_H
#define HT_CROWDED_H

#include <stddef.h>
#include <stdint.h>

#include "aim.h"
#include "hivetest.h"

typedef enum key_kind {
    KIND_CROWDED, /* both base buckets in one crowded set */
    KIND_FILLER,  /* neither base bucket in a crowded set */
    KIND_DECOY    /* never inserted (aimed at a set, or not) */
} key_kind;

#define NO_SET 0xFFu

/* Every key the test uses, by id. */
typedef struct key_pool {
    uint64_t *keys;
    uint8_t *kind;   /* key_kind */
    uint8_t *set;    /* the crowded set a key is aimed at, or NO_SET */
    uint8_t *stable; /* 1: inserted once with its first value, never erased */
    size_t n, cap;
    ht_ref taken;    /* key -> id */
} key_pool;

/* One table under test, its reference, and the state the checks carry from
 * call to call.  Only the main thread uses it; the finders read t and
 * table. */
typedef struct crowd {
    const ht_target *t;
    const char *name;        /* for messages: scenario, backend, width, geometry, seed */
    hive_config config;
    hive_table *table;
    uint64_t base_buckets;   /* buckets at creation: the index merges stop at */
    key_pool pool;
    ht_ref ref;              /* what the table must hold */
    ht_batch batch;          /* the main thread's arrays and stream */
    uint64_t *want_value;    /* per element of a batch, host */
    uint8_t *want;           /* per element of a batch: expected result or found flag */
    void *export_keys, *export_values; /* (pool.n) table memory */
    uint8_t *exported;       /* per id: times hive_export listed the key */
    ht_rng rng;
    hive_stats last;         /* after the previous call */
    const char *phase;
    uint64_t calls;          /* insert and erase calls so far */
    uint64_t rejected;       /* keys reported REJECTED_FULL */
    uint64_t shrink_tries;   /* erase calls that left the table under min_load_factor */
    uint64_t capacity_peak;
    int broken;              /* a check failed: the reference no longer says what the table holds */
} crowd;

/* The value a key is given by insert number `gen` (1, 2, ...). */
uint64_t crowd_value(const ht_target *t, uint64_t key, unsigned gen);
/* What hive_find's value array holds for an absent key before the call
 * (and must still hold after it). */
uint64_t crowd_absent_value(const ht_target *t, uint64_t key);

/* Adds keys[0..n) of one kind to the pool; key i is stable when
 * stable_every > 0 and i % stable_every == 0.  The keys are distinct and new
 * to the pool (ht_aimed_keys may have put them in p->taken already). */
void pool_add(key_pool *p, const uint64_t *keys, size_t n, key_kind kind, unsigned set,
              unsigned stable_every);
/* Ids of the pool's keys for which keep(p, id) holds, shuffled. */
uint64_t *pool_select(const key_pool *p, ht_rng *rng, int (*keep)(const key_pool *p, uint64_t id),
                      size_t *n);
/* "id 7, crowded set 3, stable" and the like, for messages. */
const char *pool_describe(const key_pool *p, uint64_t id, char *buf, size_t len);

/* Creates the table of `config` and the rest of *w; the pool starts empty
 * (with its taken map, for ht_aimed_keys) and the buffers are made by
 * crowd_ready once the pool is full. */
void crowd_open(crowd *w, const ht_target *t, const char *name, const hive_config *config,
                uint64_t seed);
void crowd_ready(crowd *w, size_t batch_cap);
void crowd_close(crowd *w);

/* One checked call of ids[0..n) (n <= batch cap): hive_insert (ASSIGN, the
 * keys' values of generation gen) or hive_erase; then every check of
 * crowd_check.  Returns 0 (and sets w->broken) when a check failed. */
int crowd_insert(crowd *w, const uint64_t *ids, size_t n, unsigned gen);
int crowd_erase(crowd *w, const uint64_t *ids, size_t n);
/* The table against the reference: hive_size, hive_find of every pool key
 * (found flag, value; absent keys' values untouched), hive_export (count and
 * every pair, no key twice), hive_stats (size, fields that must agree, and
 * each capacity change matched by a grow or shrink counted since the last
 * check).  Returns 0 (and sets w->broken) when a check failed. */
int crowd_check(crowd *w);

/* How a phase cuts its keys into calls: `singles` calls of one key, then
 * calls of `most` keys when fixed is set, else of 1..most keys
 * (log-uniform). */
typedef struct call_plan {
    size_t singles, most;
    int fixed;
} call_plan;

/* Runs ids[0..n) through checked calls (erase, or insert of generation
 * gen) cut by plan, stopping at a failed check; prints a line about the
 * phase.  Returns 0 when it stopped early. */
int crowd_phase(crowd *w, const char *phase, const uint64_t *ids, size_t n, int erase,
                unsigned gen, call_plan plan);

/* ---------------------------------------------------------------- finders (finders.c) */

typedef struct finder_crew finder_crew;

/* Starts `count` threads, each with its own batch (own stream on a CUDA
 * table), looking up, until finders_stop: the pool's stable keys
 * present in w->ref now (found, with their first value) and its decoys (not
 * found, values untouched).  Returns once every thread has started. */
finder_crew *finders_start(crowd *w, unsigned count, size_t batch_cap);
/* Stops and joins them, checks that each looked keys up, prints their
 * counts. */
void finders_stop(finder_crew *crew);

#endif
