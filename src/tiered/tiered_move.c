/* tiered_move.c — the one place keys enter the hot tier.
 *
 * The hot tier holds copies: every live key is in the cold tier with its
 * latest value, and a key in the hot tier has the same value there (every
 * write goes to the cold tier first; docs/tiered.md).  So an entry may leave
 * the hot tier at any time without being written anywhere, and keys enter
 * it by hive_cache_insert_and_evict alone, whose report of what left is
 * only counted.
 *
 * The keys entering are absent from the hot tier (the caller has just
 * looked, under the handle's lock) and carry their cold values: a key may
 * repeat (a find's cold hits), but with one value, for two values of one
 * key in a batch would apply in no particular order. */
#include "base/check.h"
#include "tiered/tiered.h"

hive_status hive_tiered_admit(hive_tiered *t, uint64_t m, const uint64_t *keys, const uint64_t *values,
                              hive_stream stream)
{
    if (m == 0)
        return HIVE_SUCCESS;
    uint64_t evicted = 0;
    HIVE_TRY(hive_cache_insert_and_evict(t->hot, m, keys, values, NULL, t->s_evicted, t->s_evicted_values,
                                         NULL, &evicted, stream));
    t->stats.evicted += evicted;
    return HIVE_SUCCESS;
}
