/* tiered_move.c — the one place keys move between the tiers.
 *
 * Keys enter the hot tier only here, by hive_cache_insert_and_evict of keys
 * known to be absent from it (the caller looked, under the handle's lock).
 * That call reports every entry that leaves the hot tier — evicted, or a new
 * key refused — with the value it had, and because each key of the batch is
 * new and inserted once, no reported key is in the hot tier afterwards (a
 * key present before the call could be evicted and then inserted again by a
 * later element of the same batch, leaving a stale copy in the report; the
 * callers' "absent" rule is what rules that out).  So, with H, C the keys of
 * the tiers before, M the batch and E the reported entries:
 *
 *   hot after  = (H + M) - E        cold after = (C - M) + E
 *
 * which are disjoint, and whose union is H + C + M: nothing lost, each key
 * in one tier.  The cold tier applies "- M" (erase) before "+ E" (insert,
 * assigning), so that a key of M that came back in E keeps its new value.
 *
 * Room: |E| <= m, and the cold table never shrinks (min_load_factor 0), so
 * reserving size + m before the hot call means the write-back cannot fail
 * for memory after the hot tier has let entries go. */
#include "base/check.h"
#include "tiered/tiered.h"

hive_status hive_tiered_admit(hive_tiered *t, uint64_t m, const uint64_t *keys, const uint64_t *values,
                              hive_stream stream, const char *call)
{
    if (m == 0)
        return HIVE_SUCCESS;
    uint64_t cold_size = 0;
    HIVE_TRY(hive_size(t->cold, &cold_size));
    hive_status s = hive_reserve(t->cold, cold_size + m, NULL);
    if (s != HIVE_SUCCESS)
        return hive_fail(s, call, "the cold tier cannot grow to %llu keys for the hot tier's write-back",
                         (unsigned long long)(cold_size + m));

    uint64_t evicted = 0;
    HIVE_TRY(hive_cache_insert_and_evict(t->hot, m, keys, values, NULL, t->s_evicted,
                                         t->s_evicted_values, NULL, &evicted, stream));
    if (evicted > m)
        return hive_fail(HIVE_ERROR_INTERNAL, call, "the hot tier evicted %llu entries for %llu new keys",
                         (unsigned long long)evicted, (unsigned long long)m);
    /* Results arrays are given so that neither call allocates (hive.h). */
    HIVE_TRY(hive_erase(t->cold, m, keys, t->c_flags, NULL));
    if (evicted != 0) {
        s = hive_insert(t->cold, evicted, t->s_evicted, t->s_evicted_values, HIVE_COMBINE_ASSIGN,
                        t->c_flags, NULL);
        if (s != HIVE_SUCCESS) /* only past the reservation: crowded buckets that could not grow */
            return hive_fail(s, call, "the write-back of %llu entries to the cold tier failed (%s): "
                             "entries that found no room are lost",
                             (unsigned long long)evicted, hive_status_string(s));
        t->stats.written_back += evicted;
    }
    return HIVE_SUCCESS;
}
