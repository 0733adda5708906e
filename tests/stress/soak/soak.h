/* soak.h — the soak run's shared state (see main.c for what the run does).
 *
 * The universe.  Every key the run uses is soak_key(index) for an index of a
 * fixed range, a keyed bijection, so the oracle is a plain array indexed by
 * key index and an exported key leads back to its index (soak_index):
 *
 *   [0, mutable_n)                      mixed operations (insert, upsert, erase, find)
 *   [mutable_n, mutable_n + stable_n)   inserted once at the start, never touched
 *                                       again (the finders look them up all along)
 *   [.. + stable_n, .. + absent_n)      never inserted (the finders never find them)
 *
 * Slices.  A mixed batch is generated and checked by SOAK_SLICES host threads
 * at once: slice s owns the mutable indices i with i % SOAK_SLICES == s, so
 * the slices update the oracle without sharing a slot.  Each slice keeps its
 * indices in an order with the present keys first (perm, live), so that an
 * element can draw a present or an absent key directly, however few of
 * either there are: a uniform draw from the universe would mostly miss the
 * keys of a small table.  The slice count is fixed (not the machine's core
 * count) so that a seed names the same run on every machine. */
#ifndef SOAK_H
#define SOAK_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "hivetest.h"

#define SOAK_SLICES 8
/* What a find must leave in the value entry of a key it does not find. */
#define SOAK_UNTOUCHED 0x5A5A5A5A5A5A5A5Aull

/* Seconds on the monotonic clock. */
static inline double soak_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---------------------------------------------------------------- universe */

typedef struct soak_slot {
    uint64_t value;  /* the oracle's value of a present key */
    uint32_t stamp;  /* the last batch (or export check) that met this key */
    uint8_t present; /* 1 if the key is in the table */
} soak_slot;

typedef struct soak_universe {
    const ht_target *t;
    uint64_t salt;      /* keys the bijection with the seed */
    uint64_t mutable_n; /* a multiple of SOAK_SLICES */
    uint64_t stable_n;
    uint64_t absent_n;
    soak_slot *slots;   /* host, (mutable_n + stable_n) */
    uint32_t *perm;     /* host, (mutable_n): slice s's mutable indices at
                           [s * mutable_n / SOAK_SLICES, +mutable_n / SOAK_SLICES),
                           its live[s] present ones first */
    uint64_t live[SOAK_SLICES];
} soak_universe;

void soak_universe_init(soak_universe *u, const ht_target *t, uint64_t seed, uint64_t mutable_n,
                        uint64_t stable_n, uint64_t absent_n);
void soak_universe_free(soak_universe *u);
static inline uint64_t soak_total(const soak_universe *u)
{
    return u->mutable_n + u->stable_n + u->absent_n;
}
/* The key of an index (never a reserved key), and back: soak_index of any
 * non-reserved key is an index, in range only for the universe's keys. */
uint64_t soak_key(const soak_universe *u, uint64_t index);
uint64_t soak_index(const soak_universe *u, uint64_t key);
/* The value a stable key is inserted with. */
uint64_t soak_stable_value(const soak_universe *u, uint64_t index);
/* One element of hive_apply on the oracle slot of its key, in the documented
 * sequential meaning: returns the hive_result; a FIND that finds writes the
 * value to *value, INSERT/UPSERT read it. */
unsigned soak_oracle_apply(soak_slot *s, unsigned op, uint64_t *value, hive_combine mode,
                           uint64_t mask);

/* ---------------------------------------------------------------- slices */

typedef void (*soak_job)(void *arg, unsigned slice);

typedef struct soak_pool {
    pthread_t threads[SOAK_SLICES];
    pthread_barrier_t start, done;
    soak_job job;
    void *arg;
    int quit;
} soak_pool;

void soak_pool_start(soak_pool *p);
/* Runs job(arg, s) for every slice s on the pool's threads; returns when
 * all are done. */
void soak_pool_run(soak_pool *p, soak_job job, void *arg);
void soak_pool_stop(soak_pool *p);

/* [first, end) of part s of n items cut into SOAK_SLICES parts. */
static inline void soak_slice_range(uint64_t n, unsigned s, uint64_t *first, uint64_t *end)
{
    *first = n * s / SOAK_SLICES;
    *end = n * (s + 1) / SOAK_SLICES;
}

/* ---------------------------------------------------------------- the run */

typedef struct soak_finders soak_finders;

typedef struct soak_run {
    const ht_target *t;
    hive_table *table;
    hive_config config;
    soak_universe u;
    soak_pool pool;
    uint64_t seed;
    uint32_t stamp;        /* the current batch's (or export check's) stamp */
    uint64_t live;         /* keys the oracle holds (stable ones included) */

    /* the current mixed batch */
    uint64_t batch_no;     /* batches run so far */
    ht_batch batch;        /* table memory: keys, values, ops, results; its own stream */
    uint8_t *want_result;  /* host, (batch.cap) */
    uint64_t *want_value;  /* host, (batch.cap): a found value, else the input untouched */
    uint32_t *index;       /* host, (batch.cap): each element's key index */
    hive_combine mode;     /* of the batch's UPSERTs */
    double p_present;      /* chance that an element draws a present key */
    double p_insert;       /* chance that an absent key is inserted */
    double p_erase;        /* chance that a present key is erased */
    int64_t delta[SOAK_SLICES]; /* keys each slice's elements add (or remove) */
    char where[160];       /* names the batch in failure messages */

    /* every key of the universe, for the full check's find */
    void *all_keys;        /* table memory, (soak_total) */
    void *all_values;      /* table memory, (soak_total) */
    uint8_t *all_found;    /* table memory, (soak_total) */
    void *export_keys;     /* table memory, (mutable_n + stable_n) */
    void *export_values;
    uint64_t export_count;

    soak_finders *finders;
    /* Every disagreement with the oracle: batch elements, full-check keys
     * and pairs, counts, finder lookups.  The first few of each batch,
     * check and round are printed (HT_CHECK), the rest only counted. */
    atomic_uint_fast64_t mismatches;
} soak_run;

/* Mismatches printed per slice of a batch or check, and per finder round. */
#define SOAK_SHOW 3

static inline void soak_mismatches(soak_run *r, uint64_t n)
{
    atomic_fetch_add(&r->mismatches, n);
}

/* mixed.c: generates the next batch of n distinct keys from the oracle with
 * r->mode and the chances r->p_* (updating the oracle and r->live),
 * runs it through hive_apply, checks every element.  Adds the seconds spent
 * generating, in hive and checking to secs[0..2]. */
void soak_mixed_batch(soak_run *r, size_t n, double secs[3]);

/* full_check.c: hive_size, hive_export and a hive_find of every universe key
 * against the oracle (adding what disagrees to r->mismatches).  _init
 * allocates and fills the arrays it needs, _free frees them. */
void soak_full_check_init(soak_run *r);
void soak_full_check(soak_run *r, const char *where);
void soak_full_check_free(soak_run *r);
/* Sets every key absent (after hive_clear). */
void soak_oracle_clear(soak_run *r);

/* finders.c: host threads, each with its own stream, that find the stable
 * keys (every one, with its value) and the absent keys (none) over and over
 * until stopped, resting `rest` times a round's duration after each. */
soak_finders *soak_finders_start(soak_run *r, unsigned count, double rest);
/* Waits until every finder is between rounds and holds it there. */
void soak_finders_pause(soak_finders *f);
void soak_finders_resume(soak_finders *f);
/* Rounds done so far, by all finders together, and the lookups that went
 * wrong: stable keys not found, found with a wrong value, never-inserted
 * keys found (or their value entries written). */
uint64_t soak_finders_rounds(soak_finders *f);
void soak_finders_errors(soak_finders *f, uint64_t *missed, uint64_t *wrong, uint64_t *stray);
void soak_finders_stop(soak_finders *f);

#endif
