/* tiered_write.c — one step of hive_tiered_upsert and of hive_tiered_erase.
 *
 * Upsert: the step's keys made unique (the last occurrence's value; reserved
 * keys skipped), then the hot tier's assign gives the keys it has their
 * value there; the rest, which the hot tier now lacks, enter it (admit).
 *
 * Erase: the hot tier erases what it has; the keys it did not find are
 * erased in the cold tier (one tier a key: a repeat of a key the hot tier
 * erased is in neither). */
#include "base/check.h"
#include "tiered/tiered.h"

typedef struct new_job {
    hive_tiered_compact c;
    hive_tiered *t;
} new_job;

static int new_keep(const hive_tiered_compact *c, uint64_t i) { return !((const new_job *)c)->t->s_flags[i]; }

static void new_move(hive_tiered_compact *c, uint64_t from, uint64_t to)
{
    hive_tiered *t = ((new_job *)c)->t;
    t->s_keys2[to] = t->s_keys[from];
    t->s_values2[to] = t->s_values[from];
}

hive_status hive_tiered_upsert_step(hive_tiered *t, uint64_t n, const uint64_t *keys, const uint64_t *values,
                                    uint64_t *skipped, hive_stream stream, const char *call)
{
    uint64_t u = hive_tiered_dedup_run(&t->dedup, t->pool, n, keys, values, NULL, t->s_keys, t->s_values,
                                       skipped);
    if (u == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(hive_cache_assign(t->hot, u, t->s_keys, t->s_values, NULL, t->s_flags, stream));
    new_job nj = {{.keep = new_keep, .move = new_move}, t};
    uint64_t m = hive_tiered_compact_run(t->pool, &nj.c, u, t->offsets);
    return hive_tiered_admit(t, m, t->s_keys2, t->s_values2, stream, call);
}

/* ---------------------------------------------------------------- erase */

typedef struct cold_job {
    hive_tiered_compact c;
    hive_tiered *t;
    uint8_t *results;
} cold_job;

/* The keys the hot tier did not erase go on to the cold tier; the erased
 * ones' results are written on the way. */
static int cold_keep(const hive_tiered_compact *c, uint64_t j)
{
    const cold_job *cj = (const cold_job *)c;
    if (cj->t->s_flags[j] != HIVE_RESULT_ERASED)
        return 1;
    if (cj->results != NULL)
        cj->results[cj->t->at[j]] = HIVE_RESULT_ERASED;
    return 0;
}

static void cold_move(hive_tiered_compact *c, uint64_t from, uint64_t to)
{
    hive_tiered *t = ((cold_job *)c)->t;
    t->s_keys2[to] = t->s_keys[from];
    t->at2[to] = t->at[from];
}

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
    cold_job cj = {{.keep = cold_keep, .move = cold_move}, t, results};
    uint64_t c = hive_tiered_compact_run(t->pool, &cj.c, u, t->offsets);
    if (c == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(hive_erase(t->cold, c, t->s_keys2, t->c_flags, NULL));
    if (results != NULL)
        for (uint64_t k = 0; k < c; k++)
            results[t->at2[k]] = t->c_flags[k];
    return HIVE_SUCCESS;
}
