/* tiered_dedup.c — a step's keys made unique before they reach the hot
 * tier, the last occurrence of a key giving its value.  Two reasons: an
 * upsert's "latest value wins" needs an order among repeats, which a cache
 * batch does not give (it applies repeats in no particular order); and a
 * skewed stream repeats its hottest keys thousands of times a batch, which
 * a GPU cache serialises (docs/cache.md, "Concurrency").
 *
 * Linear probing over a power-of-two table at most half full, keyed by the
 * 64-bit fold the tables use (hash/bithash.h).  A slot is live only if its
 * stamp equals the current generation, so a step begins in O(1). */
#include <string.h>

#include "base/alloc.h"
#include "base/check.h"
#include "hash/bithash.h"
#include "tiered/tiered.h"

hive_status hive_tiered_dedup_init(hive_tiered_dedup *d, uint32_t batch)
{
    uint64_t slots = 2;
    while (slots < 2ull * batch)
        slots <<= 1;
    memset(d, 0, sizeof *d);
    d->keys = hive_host_calloc(slots, sizeof *d->keys);
    d->pos = hive_host_calloc(slots, sizeof *d->pos);
    d->stamp = hive_host_calloc(slots, sizeof *d->stamp);
    if (d->keys == NULL || d->pos == NULL || d->stamp == NULL) {
        hive_tiered_dedup_free(d);
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, "hive_tiered_create",
                         "no host memory for the batch's key map (%llu slots)",
                         (unsigned long long)slots);
    }
    d->mask = slots - 1;
    return HIVE_SUCCESS;
}

void hive_tiered_dedup_free(hive_tiered_dedup *d)
{
    hive_host_free(d->keys);
    hive_host_free(d->pos);
    hive_host_free(d->stamp);
    memset(d, 0, sizeof *d);
}

void hive_tiered_dedup_begin(hive_tiered_dedup *d)
{
    /* Stamps start at 0 (calloc): generation 0 is never current, and on
     * wrapping around every stamp is cleared so that no old one matches. */
    if (++d->generation == 0) {
        memset(d->stamp, 0, (size_t)(d->mask + 1) * sizeof *d->stamp);
        d->generation = 1;
    }
}

void hive_tiered_dedup_add(hive_tiered_dedup *d, uint64_t key, uint64_t value, uint64_t *keys,
                           uint64_t *values, uint64_t *count)
{
    uint64_t i = hive_fold64(key) & d->mask;
    while (d->stamp[i] == d->generation) {
        if (d->keys[i] == key) {
            values[d->pos[i]] = value;
            return;
        }
        i = (i + 1) & d->mask;
    }
    d->stamp[i] = d->generation;
    d->keys[i] = key;
    d->pos[i] = (uint32_t)*count;
    keys[*count] = key;
    values[*count] = value;
    ++*count;
}
