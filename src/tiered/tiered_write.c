/* tiered_write.c — one step of hive_tiered_upsert and of hive_tiered_erase.
 *
 * Upsert: the step's keys made unique (the last occurrence's value; reserved
 * keys skipped) are written to the cold tier, which has every key; then the
 * hot tier's assign updates the copies it has, and the rest enter it
 * (admit).  Should the cold write fail, the step's keys leave the hot tier,
 * so that no hot copy differs from its cold one.
 *
 * Erase: the hot tier's copies go first, then the cold tier's keys, whose
 * results are the call's (every key is cold).  A failure between the two
 * leaves keys in the cold tier alone, with their values: not erased, and
 * consistent. */
#include <stdio.h>

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
                                    uint64_t *skipped, hive_stream stream)
{
    uint64_t u = hive_tiered_dedup_run(&t->dedup, t->pool, n, keys, values, t->s_keys, t->s_values, skipped);
    if (u == 0)
        return HIVE_SUCCESS;
    /* Results arrays are given so that the calls do not allocate (hive.h). */
    hive_status s = hive_insert(t->cold, u, t->s_keys, t->s_values, HIVE_COMBINE_ASSIGN, t->c_flags, NULL);
    if (s != HIVE_SUCCESS) {
        char cause[256]; /* the erase's call clears the last error */
        snprintf(cause, sizeof cause, "%s", hive_last_error());
        HIVE_TRY(hive_cache_erase(t->hot, u, t->s_keys, t->s_flags, stream));
        return hive_fail(s, "hive_tiered_upsert", "the step's keys were dropped from the hot tier after "
                                                  "the cold tier's write failed: %s", cause);
    }
    HIVE_TRY(hive_cache_assign(t->hot, u, t->s_keys, t->s_values, NULL, t->s_flags, stream));
    new_job nj = {{.keep = new_keep, .move = new_move}, t};
    uint64_t m = hive_tiered_compact_run(t->pool, &nj.c, u, t->offsets);
    return hive_tiered_admit(t, m, t->s_keys2, t->s_values2, stream);
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
