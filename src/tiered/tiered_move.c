/* tiered_move.c — the one place keys enter the hot tier, and where the
 * copies they displace go.
 *
 * Every live key is in the cold tier.  A clean copy in the hot tier holds
 * the key's cold value; a dirty one (under write-back, an upsert wrote it
 * in the hot tier alone; docs/tiered.md) holds a newer value.  Keys enter by
 * hive_cache_insert_and_evict alone, which reports every copy that leaves
 * with its score: a clean one is dropped, a dirty one is written back to
 * the cold tier before the call returns.  That write assigns keys the cold
 * table has, so it cannot be refused for room; should it fail all the
 * same, the copies wait in w_keys/w_values and every later call writes
 * them first, failing until it can, so that none is lost and no stale cold
 * value is read.
 *
 * The keys entering are absent from the hot tier (the caller has just
 * looked, under the handle's lock) and carry their cold values: a key may
 * repeat (a find's cold hits), but with one value, for two values of one
 * key in a batch would apply in no particular order. */
#include <stdio.h>

#include "base/alloc.h"
#include "base/check.h"
#include "tiered/tiered.h"

/* The dirty copies of insert_and_evict's report, into w_keys/w_values.
 * The report also lists refused keys, with the clean score they came with. */
typedef struct dirty_job {
    hive_tiered_compact c;
    hive_tiered *t;
} dirty_job;

static int dirty_keep(const hive_tiered_compact *c, uint64_t i)
{
    return (int)(((const dirty_job *)c)->t->s_evicted_scores[i] & 1u);
}

static void dirty_move(hive_tiered_compact *c, uint64_t from, uint64_t to)
{
    hive_tiered *t = ((dirty_job *)c)->t;
    t->w_keys[to] = t->s_evicted[from];
    t->w_values[to] = t->s_evicted_values[from];
}

hive_status hive_tiered_write_back(hive_tiered *t, const char *call)
{
    if (t->writing_back == 0)
        return HIVE_SUCCESS;
    hive_status s = hive_test_write_back_should_fail()
                        ? hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "injected (HIVE_TEST_FAIL_WRITE_BACK)")
                        : hive_insert(t->cold, t->writing_back, t->w_keys, t->w_values, HIVE_COMBINE_ASSIGN,
                                      t->c_flags, NULL);
    if (s != HIVE_SUCCESS) {
        char cause[256]; /* the first error is kept: this one says more */
        snprintf(cause, sizeof cause, "%s", hive_last_error());
        hive_clear_error();
        return hive_fail(s, call,
                         "%llu updated entries that left the hot tier wait to be written to the cold "
                         "tier, and the write failed (calls fail until it succeeds): %s",
                         (unsigned long long)t->writing_back, cause);
    }
    t->writing_back = 0;
    return HIVE_SUCCESS;
}

hive_status hive_tiered_admit(hive_tiered *t, uint64_t m, const uint64_t *keys, const uint64_t *values,
                              const char *call, hive_stream stream)
{
    if (m == 0)
        return HIVE_SUCCESS;
    uint64_t evicted = 0;
    int back = t->config.write_back != 0;
    HIVE_TRY(hive_cache_insert_and_evict(t->hot, m, keys, values, back ? t->s_scores : NULL, t->s_evicted,
                                         t->s_evicted_values, back ? t->s_evicted_scores : NULL, &evicted,
                                         stream));
    t->stats.evicted += evicted;
    if (!back)
        return HIVE_SUCCESS; /* every copy is clean */
    dirty_job j = {{.keep = dirty_keep, .move = dirty_move}, t};
    t->writing_back = hive_tiered_compact_run(t->pool, &j.c, evicted, t->offsets);
    return hive_tiered_write_back(t, call);
}
