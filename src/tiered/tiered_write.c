/* tiered_write.c — one step of hive_tiered_upsert and of hive_tiered_erase.
 *
 * Upsert: the step's keys are made unique (the last occurrence's value;
 * reserved keys skipped), on the GPU for a CUDA hot tier.  The hot tier's
 * assign writes the ones with a copy there, and the rest enter it (admit)
 * once the cold tier has them.
 *   - Write-through (config.write_back 0): every key is written to the
 *     cold tier first, and the copies stay clean.  Should that write fail,
 *     the step's keys leave the hot tier, so that each reads as the cold
 *     tier has it (its old or its new value).
 *   - Write-back (1): the assign marks the copies it writes dirty (their
 *     cold values are stale now; tiered_move.c writes them back when they
 *     leave), and only the keys without a copy are written to the cold
 *     tier.  Should that write fail, the keys with copies have their new
 *     values, and the others read as the cold tier has them.
 *
 * Erase: the hot tier's copies go first, dirty or not, then the cold tier's
 * keys, whose results are the call's (every key is cold).  The cold erase
 * needs no memory (its results array is given, and the cold table never
 * shrinks), so a copy is not dropped without its key. */
#include <stdio.h>
#include <string.h>

#include "base/check.h"
#include "cache/cache_table.h"
#include "tiered/tiered.h"

/* The step's scores for assign under write-back: the copies it writes are
 * dirty. */
typedef struct score_job {
    hive_cpu_loop loop;
    hive_tiered *t;
    uint64_t score;
} score_job;

static void score_range(hive_cpu_loop *loop, uint64_t j0, uint64_t j1)
{
    score_job *j = (score_job *)loop;
    for (uint64_t i = j0; i < j1; i++)
        j->t->s_scores[i] = j->score;
}

/* The keys without a copy (assign's flag 0), with their values and, under
 * write-back, clean scores, into s_keys2/s_values2/s_scores. */
typedef struct new_job {
    hive_tiered_compact c;
    hive_tiered *t;
    uint64_t score;
} new_job;

static int new_keep(const hive_tiered_compact *c, uint64_t i) { return !((const new_job *)c)->t->s_flags[i]; }

static void new_move(hive_tiered_compact *c, uint64_t from, uint64_t to)
{
    new_job *j = (new_job *)c;
    hive_tiered *t = j->t;
    t->s_keys2[to] = t->s_keys[from];
    t->s_values2[to] = t->s_values[from];
    if (t->s_scores != NULL) /* write-back */
        t->s_scores[to] = j->score;
}

/* The cold tier's write of n keys; on failure, under write-through, the
 * keys' hot copies are dropped (the cold write may or may not have
 * happened for each). */
static hive_status cold_write(hive_tiered *t, uint64_t n, const uint64_t *keys, const uint64_t *values,
                              hive_stream stream)
{
    static const char call[] = "hive_tiered_upsert";
    /* Results arrays are given so that the calls do not allocate (hive.h). */
    hive_status s = hive_insert(t->cold, n, keys, values, HIVE_COMBINE_ASSIGN, t->c_flags, NULL);
    if (s == HIVE_SUCCESS)
        return HIVE_SUCCESS;
    char cause[256]; /* the first error is kept: this one says more */
    snprintf(cause, sizeof cause, "%s", hive_last_error());
    hive_clear_error();
    if (t->config.write_back)
        return hive_fail(s, call, "the cold tier's write of %llu keys without hot copies failed: %s",
                         (unsigned long long)n, cause);
    HIVE_TRY(hive_cache_erase(t->hot, n, keys, t->s_flags, stream));
    return hive_fail(s, call, "the step's keys were dropped from the hot tier after the cold tier's write failed: %s",
                     cause);
}

/* The caller's pairs into s_keys2/s_values2, for a hot tier that does not
 * reach them where they are. */
typedef struct copy_job {
    hive_cpu_loop loop;
    hive_tiered *t;
    const uint64_t *keys, *values;
} copy_job;

static void copy_range(hive_cpu_loop *loop, uint64_t i0, uint64_t i1)
{
    copy_job *j = (copy_job *)loop;
    memcpy(j->t->s_keys2 + i0, j->keys + i0, (i1 - i0) * sizeof(uint64_t));
    memcpy(j->t->s_values2 + i0, j->values + i0, (i1 - i0) * sizeof(uint64_t));
}

/* Steps of fewer pairs are made unique by the host's maps even where the
 * hot tier's backend has a pass of its own: a synchronous GPU call costs
 * about 20 us of launch and wait (docs/perf.md, "Asynchronous calls"), what
 * the host's maps take for a thousand or two pairs on one thread.  Whole
 * upserts on an H200 broke even at about 3000 pairs (docs/perf.md, "The
 * GPU's deduplication threshold"). */
#define UNIQUE_ON_BACKEND_MIN 4096u

/* The step's pairs made unique into s_keys/s_values, *u of them, reserved
 * keys counted into *skipped: by the hot tier's backend where it has that
 * pass (CUDA: over the caller's arrays where it reaches them, `direct`,
 * else over a copy in s_keys2/s_values2), else, or for a small step, or
 * where the backend's scratch finds no memory, by the host's maps
 * (tiered_dedup.c). */
static hive_status unique_step(hive_tiered *t, uint64_t n, const uint64_t *keys, const uint64_t *values,
                               int direct, uint64_t *skipped, uint64_t *u, hive_stream stream)
{
    const hive_cache *h = t->hot;
    if (h->ops->unique_pairs != NULL && n >= UNIQUE_ON_BACKEND_MIN) {
        if (!direct) {
            copy_job cj = {{.range = copy_range}, t, keys, values};
            hive_cpu_loop_run(t->pool, &cj.loop, n, 1);
            keys = t->s_keys2;
            values = t->s_values2;
        }
        uint64_t reserved = 0;
        hive_status s = h->ops->unique_pairs(h->impl, n, keys, values, t->s_keys, t->s_values, u, &reserved, stream);
        if (s != HIVE_ERROR_OUT_OF_MEMORY) {
            *skipped += reserved;
            return s;
        }
        hive_clear_error();
    }
    *u = hive_tiered_dedup_run(&t->dedup, t->pool, n, keys, values, t->s_keys, t->s_values, skipped);
    return HIVE_SUCCESS;
}

hive_status hive_tiered_upsert_step(hive_tiered *t, uint64_t n, const uint64_t *keys, const uint64_t *values,
                                    int direct, uint64_t *skipped, hive_stream stream)
{
    uint64_t u = 0;
    HIVE_TRY(unique_step(t, n, keys, values, direct, skipped, &u, stream));
    if (u == 0)
        return HIVE_SUCCESS;
    int back = t->config.write_back != 0;
    t->clock++;
    if (back) {
        score_job sj = {{.range = score_range}, t, hive_tiered_score(t, 1)};
        hive_cpu_loop_run(t->pool, &sj.loop, u, 1);
    } else {
        HIVE_TRY(cold_write(t, u, t->s_keys, t->s_values, stream));
    }
    HIVE_TRY(hive_cache_assign(t->hot, u, t->s_keys, t->s_values, back ? t->s_scores : NULL, t->s_flags, stream));
    new_job nj = {{.keep = new_keep, .move = new_move}, t, hive_tiered_score(t, 0)};
    uint64_t m = hive_tiered_compact_run(t->pool, &nj.c, u, t->offsets);
    if (m == 0)
        return HIVE_SUCCESS;
    if (back)
        HIVE_TRY(cold_write(t, m, t->s_keys2, t->s_values2, stream));
    return hive_tiered_admit(t, m, t->s_keys2, t->s_values2, "hive_tiered_upsert", stream);
}

/* ---------------------------------------------------------------- erase */

hive_status hive_tiered_erase_step(hive_tiered *t, uint64_t n, const uint64_t *keys, uint8_t *results,
                                   uint64_t *skipped, hive_stream stream)
{
    uint64_t u = hive_tiered_stage(t, n, keys);
    *skipped += n - u;
    if (results != NULL && u < n)
        for (uint64_t i = 0; i < n; i++)
            if (keys[i] >= HIVE_KV64_RESERVED_MIN)
                results[i] = HIVE_RESULT_REJECTED_RESERVED;
    if (u == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(hive_cache_erase(t->hot, u, t->s_keys, t->s_flags, stream));
    HIVE_TRY(hive_erase(t->cold, u, t->s_keys, t->c_flags, NULL));
    if (results != NULL)
        for (uint64_t j = 0; j < u; j++)
            results[t->at[j]] = t->c_flags[j];
    return HIVE_SUCCESS;
}
