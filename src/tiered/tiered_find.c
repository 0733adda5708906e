/* tiered_find.c — one step of hive_tiered_find:
 *
 *   1. hot tier: find_missed, with the misses listed.  Over the caller's
 *      arrays as they are when the hot tier takes them (`direct`: host
 *      memory on a CPU hot tier, mapped pinned or managed memory on a CUDA
 *      one): the hits' values and every found flag land in place.  Else
 *      the step's unreserved keys are staged first (a compaction; at[] their
 *      positions), and the hits' values and flags scattered out after.
 *   2. cold tier: find of the misses; their values and flags scattered out
 *   3. unless PROMOTE_NEVER, the cold hits (one in promote_one_in of them,
 *      drawn) enter the hot tier.  A key repeated among them carries one
 *      value (the cold tier's, read in this step), so its repeats may enter
 *      together: the cache gives the key one copy.
 *
 * The cold tier has every key, a hot copy the latest value, and a key
 * without a copy its latest value in the cold tier (a dirty copy is written
 * back as it leaves), so a hot hit and, for the keys the hot tier misses,
 * the cold answer are final.  Copies of cold hits are clean.
 * The loops run on the worker pool. */
#include <string.h>

#include "base/check.h"
#include "cache/cache_table.h"
#include "hash/bithash.h"
#include "tiered/tiered.h"

/* Loops over the staged keys (hits) and over the misses. */
typedef struct out_job {
    hive_cpu_loop loop;
    hive_tiered *t;
    uint64_t *values;
    uint8_t *found;
    const uint32_t *at; /* staged: the caller's position of staged key j; direct: NULL */
    uint64_t salt;      /* this step's draws of promote_one_in */
    uint64_t cold_hits; /* (__atomic) */
} out_job;

/* Whether a cold hit moves up: always, or one in promote_one_in by a hash
 * of the key and the step (so that a key passed over now is drawn again
 * by the next find). */
static int promote_drawn(const out_job *o, uint64_t key)
{
    uint32_t one_in = o->t->config.promote_one_in;
    return one_in == 1 || hive_fold64(key ^ o->salt) % one_in == 0;
}

static void unmark_range(hive_cpu_loop *loop, uint64_t k0, uint64_t k1)
{
    hive_tiered *t = ((out_job *)loop)->t;
    for (uint64_t k = k0; k < k1; k++)
        t->s_flags[t->s_values2[k]] = 0; /* s_values2: find_missed's positions */
}

static void hits_range(hive_cpu_loop *loop, uint64_t j0, uint64_t j1)
{
    out_job *o = (out_job *)loop;
    hive_tiered *t = o->t;
    for (uint64_t j = j0; j < j1; j++) {
        if (!t->s_flags[j])
            continue;
        if (o->values != NULL)
            o->values[t->at[j]] = t->s_values[j];
        if (o->found != NULL)
            o->found[t->at[j]] = 1;
    }
}

static void cold_range(hive_cpu_loop *loop, uint64_t k0, uint64_t k1)
{
    out_job *o = (out_job *)loop;
    hive_tiered *t = o->t;
    uint64_t hits = 0;
    for (uint64_t k = k0; k < k1; k++) {
        uint64_t i = o->at != NULL ? o->at[t->s_values2[k]] : t->s_values2[k];
        if (t->c_flags[k]) {
            hits++;
            if (o->values != NULL)
                o->values[i] = t->c_values[k];
        }
        if (o->found != NULL)
            o->found[i] = t->c_flags[k];
        /* s_flags, free again: which misses move up. */
        t->s_flags[k] = t->c_flags[k] && promote_drawn(o, t->s_keys2[k]);
    }
    __atomic_fetch_add(&o->cold_hits, hits, __ATOMIC_RELAXED);
}

/* The drawn cold hits (s_flags), with their values, into s_keys/s_values. */
typedef struct up_job {
    hive_tiered_compact c;
    hive_tiered *t;
    uint64_t score; /* clean: the copies hold the cold values */
} up_job;

static int up_keep(const hive_tiered_compact *c, uint64_t k) { return ((const up_job *)c)->t->s_flags[k]; }

static void up_move(hive_tiered_compact *c, uint64_t from, uint64_t to)
{
    up_job *j = (up_job *)c;
    hive_tiered *t = j->t;
    t->s_keys[to] = t->s_keys2[from];
    t->s_values[to] = t->c_values[from];
    if (t->s_scores != NULL) /* write-back */
        t->s_scores[to] = j->score;
}

/* Step 1 over the staged keys: *u of them, *missed listed. */
static hive_status hot_staged(hive_tiered *t, out_job *o, uint64_t n, const uint64_t *keys, uint64_t *skipped,
                              uint64_t *u, uint64_t *missed, hive_stream stream)
{
    *u = hive_tiered_stage(t, n, keys);
    *skipped += n - *u;
    if (o->found != NULL && *u < n)
        for (uint64_t i = 0; i < n; i++)
            if (keys[i] >= HIVE_KV64_RESERVED_MIN)
                o->found[i] = 0;
    if (*u == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(hive_cache_find_missed(t->hot, *u, t->s_keys, t->s_values, NULL, t->s_keys2, t->s_values2,
                                    missed, stream));
    memset(t->s_flags, 1, *u); /* s_flags[j]: staged key j was a hot hit */
    o->loop.range = unmark_range;
    hive_cpu_loop_run(t->pool, &o->loop, *missed, HIVE_TIERED_KEY_COST);
    o->loop.range = hits_range;
    hive_cpu_loop_run(t->pool, &o->loop, *u, HIVE_TIERED_KEY_COST);
    o->at = t->at;
    return HIVE_SUCCESS;
}

/* Step 1 over the caller's arrays: the hot tier skips and counts reserved
 * keys (found 0, not listed as missed). */
static hive_status hot_direct(hive_tiered *t, out_job *o, uint64_t n, const uint64_t *keys, uint64_t *skipped,
                              uint64_t *u, uint64_t *missed, hive_stream stream)
{
    hive_cache_batch b = hive_cache_batch_of(t->hot, HIVE_CACHE_FIND, n, keys);
    b.values_out = o->values;
    b.found = o->found;
    b.out_keys = t->s_keys2;
    b.out_indices = t->s_values2;
    hive_cache_outcome out;
    hive_status s = hive_cache_run(t->hot, &b, &out, stream, "hive_tiered_find");
    if (s == HIVE_ERROR_RESERVED_KEY) { /* counted into the call's own report */
        hive_clear_error();
        s = HIVE_SUCCESS;
    }
    HIVE_TRY(s);
    *skipped += out.reserved;
    *u = n - out.reserved;
    *missed = out.out;
    o->at = NULL;
    return HIVE_SUCCESS;
}

hive_status hive_tiered_find_step(hive_tiered *t, uint64_t n, const uint64_t *keys, uint64_t *values,
                                  uint8_t *found, int direct, uint64_t *skipped, hive_stream stream)
{
    out_job o;
    memset(&o, 0, sizeof o);
    o.t = t;
    o.values = values;
    o.found = found;
    uint64_t u = 0, missed = 0;
    HIVE_TRY((direct ? hot_direct : hot_staged)(t, &o, n, keys, skipped, &u, &missed, stream));
    t->stats.hot_hits += u - missed;
    if (missed == 0)
        return HIVE_SUCCESS;

    HIVE_TRY(hive_find(t->cold, missed, t->s_keys2, t->c_values, t->c_flags, NULL));
    o.salt = hive_fold64(++t->finds);
    o.loop.range = cold_range;
    hive_cpu_loop_run(t->pool, &o.loop, missed, HIVE_TIERED_KEY_COST);
    t->stats.cold_hits += o.cold_hits;
    t->stats.misses += missed - o.cold_hits;
    if (o.cold_hits == 0 || t->config.promote == HIVE_TIERED_PROMOTE_NEVER)
        return HIVE_SUCCESS;
    /* The cold hits drawn move up: the staged keys are free now. */
    t->clock++;
    up_job uj = {{.keep = up_keep, .move = up_move}, t, hive_tiered_score(t, 0)};
    uint64_t m = hive_tiered_compact_run(t->pool, &uj.c, missed, t->offsets);
    HIVE_TRY(hive_tiered_admit(t, m, t->s_keys, t->s_values, "hive_tiered_find", stream));
    t->stats.promoted += m;
    return HIVE_SUCCESS;
}
