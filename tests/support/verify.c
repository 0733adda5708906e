/* verify.c — shared content and stats checks. */
#include "verify.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

uint64_t ht_random_key(const ht_target *t, ht_rng *rng)
{
    return ht_rng_below(rng, t->reserved_min);
}

uint64_t ht_random_value(const ht_target *t, ht_rng *rng)
{
    uint64_t m = t->value_mask;
    if (ht_rng_below(rng, 8) == 0) {
        const uint64_t edges[6] = {0, 1, m, m - 1, m / 2, m / 2 + 1};
        return edges[ht_rng_below(rng, 6)];
    }
    return ht_rng_next(rng) & m;
}

void ht_unique_keys(const ht_target *t, ht_rng *rng, uint64_t *out, size_t n,
                    const ht_ref *exclude)
{
    ht_ref seen;
    ht_ref_init(&seen);
    size_t i = 0;
    while (i < n) {
        uint64_t k = ht_random_key(t, rng);
        if (ht_ref_get(&seen, k, NULL) || (exclude != NULL && ht_ref_get(exclude, k, NULL)))
            continue;
        ht_ref_put(&seen, k, 0);
        out[i++] = k;
    }
    ht_ref_free(&seen);
}

void ht_shuffle(ht_rng *rng, uint64_t *a, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)ht_rng_below(rng, i);
        uint64_t x = a[i - 1];
        a[i - 1] = a[j];
        a[j] = x;
    }
}

void ht_expect_contents(const ht_target *t, hive_table *table, const ht_ref *ref,
                        const char *where)
{
    uint64_t size = ~0ull;
    HT_CHECK_STATUS(hive_size(table, &size), HIVE_SUCCESS, "%s", where);
    HT_CHECK_EQ(size, ht_ref_size(ref), "%s: hive_size", where);

    size_t cap = ht_ref_size(ref) + 8;
    void *keys = ht_alloc(t, cap * t->kv_bytes);
    void *values = ht_alloc(t, cap * t->kv_bytes);
    uint64_t count = ~0ull;
    hive_status s = hive_export(table, cap, keys, values, &count, NULL);
    if (HT_CHECK_STATUS(s, HIVE_SUCCESS, "%s: export", where) &&
        HT_CHECK_EQ(count, ht_ref_size(ref), "%s: exported pairs", where)) {
        ht_ref seen;
        ht_ref_init(&seen);
        uint64_t bad = 0;
        for (uint64_t i = 0; i < count; i++) {
            uint64_t k = ht_get(t, keys, i), v = ht_get(t, values, i), want = 0;
            int dup = ht_ref_get(&seen, k, NULL);
            int known = ht_ref_get(ref, k, &want);
            if (dup || !known || want != v) {
                if (bad++ < 5)
                    HT_CHECK(0, "%s: exported pair %llu (key %llu, value %llu): %s", where,
                             (unsigned long long)i, (unsigned long long)k, (unsigned long long)v,
                             dup ? "key exported twice"
                                 : !known ? "key is not in the reference" : "wrong value");
                continue;
            }
            ht_ref_put(&seen, k, v);
        }
        HT_CHECK_EQ(bad, 0, "%s: bad exported pairs", where);
        /* count == size, no duplicates, all known: the sets are equal. */
        HT_CHECK_EQ(ht_ref_size(&seen), ht_ref_size(ref), "%s: distinct exported keys", where);
        ht_ref_free(&seen);
    }
    ht_free(t, keys);
    ht_free(t, values);
}

void ht_expect_finds(const ht_target *t, hive_table *table, const ht_ref *ref, ht_batch *b,
                     const char *where)
{
    uint64_t bad = 0, checked = 0;
    size_t i = 0;
    while (i < ref->cap) {
        /* Gather up to b->cap live keys of the reference. */
        b->n = 0;
        for (; i < ref->cap && b->n < b->cap; i++)
            if (ref->state[i] == HT_REF_LIVE)
                ht_put(t, b->keys, b->n++, ref->keys[i]);
        if (b->n == 0)
            break;
        for (size_t j = 0; j < b->n; j++)
            ht_put(t, b->values, j, ~ht_get(t, b->keys, j)); /* poison */
        ht_batch_poison_flags(b);
        if (!HT_CHECK_STATUS(hive_find(table, b->n, b->keys, b->values, b->found, NULL),
                             HIVE_SUCCESS, "%s: find", where))
            return;
        for (size_t j = 0; j < b->n; j++) {
            uint64_t k = ht_get(t, b->keys, j), want = 0;
            ht_ref_get(ref, k, &want);
            uint64_t got = ht_get(t, b->values, j);
            if (b->found[j] != 1 || got != want) {
                if (bad++ < 5)
                    HT_CHECK(0, "%s: find key %llu: found %u value %llu, expected found 1 value %llu",
                             where, (unsigned long long)k, b->found[j], (unsigned long long)got,
                             (unsigned long long)want);
            }
        }
        memset(b->found, HT_FLAG_POISON, b->n);
        if (!HT_CHECK_STATUS(hive_contains(table, b->n, b->keys, b->found, NULL), HIVE_SUCCESS,
                             "%s: contains", where))
            return;
        for (size_t j = 0; j < b->n; j++)
            if (b->found[j] != 1 && bad++ < 5)
                HT_CHECK(0, "%s: contains key %llu: %u, expected 1", where,
                         (unsigned long long)ht_get(t, b->keys, j), b->found[j]);
        checked += b->n;
    }
    HT_CHECK_EQ(bad, 0, "%s: wrong finds among %llu keys", where, (unsigned long long)checked);
    ht_pass_(checked);
}

void ht_expect_absent(const ht_target *t, hive_table *table, const uint64_t *keys, size_t n,
                      ht_batch *b, const char *where)
{
    uint64_t bad = 0;
    for (size_t off = 0; off < n; off += b->cap) {
        b->n = n - off < b->cap ? n - off : b->cap;
        for (size_t j = 0; j < b->n; j++) {
            ht_put(t, b->keys, j, keys[off + j]);
            ht_put(t, b->values, j, (0x5Aull * (j + 1)) & t->value_mask);
        }
        ht_batch_poison_flags(b);
        if (!HT_CHECK_STATUS(hive_find(table, b->n, b->keys, b->values, b->found, NULL),
                             HIVE_SUCCESS, "%s: find", where))
            return;
        for (size_t j = 0; j < b->n; j++) {
            uint64_t v = ht_get(t, b->values, j);
            if ((b->found[j] != 0 || v != ((0x5Aull * (j + 1)) & t->value_mask)) && bad++ < 5)
                HT_CHECK(0, "%s: absent key %llu: found %u, value %llu (should be untouched)",
                         where, (unsigned long long)keys[off + j], b->found[j],
                         (unsigned long long)v);
        }
    }
    HT_CHECK_EQ(bad, 0, "%s: absent keys found among %zu", where, n);
    ht_pass_(n);
}

uint64_t ht_steps_total(const hive_stats *s)
{
    return s->insert_steps[0] + s->insert_steps[1] + s->insert_steps[2] + s->insert_steps[3];
}

void ht_expect_stats(const ht_target *t, hive_table *table, const hive_config *c, hive_stats *st,
                     const char *where)
{
    memset(st, 0, sizeof *st);
    if (!HT_CHECK_STATUS(hive_stats_get(table, st), HIVE_SUCCESS, "%s: stats", where))
        return;
    uint64_t size = ~0ull;
    HT_MUST(hive_size(table, &size));
    HT_CHECK_EQ(st->size, size, "%s: stats.size vs hive_size", where);
    HT_CHECK(st->bucket_slots >= 4 && st->bucket_slots <= 32 &&
                 (st->bucket_slots & (st->bucket_slots - 1)) == 0,
             "%s: stats.bucket_slots %u is not a power of two in 4..32", where, st->bucket_slots);
    HT_CHECK(c->bucket_slots == 0 || st->bucket_slots == c->bucket_slots,
             "%s: stats.bucket_slots %u, config asked for %u", where, st->bucket_slots,
             c->bucket_slots);
    HT_CHECK(st->lanes_per_op >= 1 && st->lanes_per_op <= st->bucket_slots,
             "%s: stats.lanes_per_op %u outside 1..bucket_slots", where, st->lanes_per_op);
    HT_CHECK(c->lanes_per_op == 0 || st->lanes_per_op == c->lanes_per_op,
             "%s: stats.lanes_per_op %u, config asked for %u", where, st->lanes_per_op,
             c->lanes_per_op);
    HT_CHECK_EQ(st->capacity, st->buckets * st->bucket_slots, "%s: capacity = buckets * slots",
                where);
    HT_CHECK(st->capacity >= c->initial_capacity,
             "%s: capacity %llu below initial_capacity %llu", where,
             (unsigned long long)st->capacity, (unsigned long long)c->initial_capacity);
    /* Growth keeps size <= max_load_factor * capacity (keys in the stash
     * count in size, so allow for them). */
    HT_CHECK((double)st->size <= c->max_load_factor * (double)st->capacity + 1.0,
             "%s: size %llu over max_load_factor %g of capacity %llu", where,
             (unsigned long long)st->size, c->max_load_factor, (unsigned long long)st->capacity);
    double lf = st->capacity ? (double)st->size / (double)st->capacity : 0.0;
    HT_CHECK(fabs(st->load_factor - lf) <= 1e-12,
             "%s: load_factor %.15g, size/capacity is %.15g", where, st->load_factor, lf);
    HT_CHECK(st->stash_size <= st->stash_capacity && st->stash_size <= st->size,
             "%s: stash_size %llu, stash_capacity %llu, size %llu", where,
             (unsigned long long)st->stash_size, (unsigned long long)st->stash_capacity,
             (unsigned long long)st->size);
    /* The stash is within a factor of two of stash_fraction of the table, or
     * was enlarged for crowded keys up to a quarter of it (hive.h, and
     * hive_stash_wanted in src/core/resize_plan.h) and keeps that size until
     * the next resize or compaction; a stash is kept whole where its pairs
     * would not fit a smaller one, so allow twice the smallest that could
     * hold them with each key's probe of 8 buckets, and twice the cap (a
     * shrink halves the table under a stash at its cap). */
    double S = st->bucket_slots;
    /* The fraction as the table resolved it: the chaining design's node pool
     * may take more than was asked (hive.h). */
    hive_config resolved;
    double fraction = hive_get_config(table, &resolved) == HIVE_SUCCESS ? resolved.stash_fraction
                                                                          : c->stash_fraction;
    double by_fraction = 2 * fraction * (double)st->capacity + 2.0 * S;
    double by_pairs = 8.0 * (double)st->stash_size + 16.0 * S;
    double by_cap = 2 * ((double)st->capacity / 4 + S);
    double bound = by_fraction > by_pairs ? by_fraction : by_pairs;
    bound = bound > by_cap ? bound : by_cap;
    HT_CHECK(fraction > 0 ? (double)st->stash_capacity <= bound : st->stash_capacity == 0,
             "%s: stash_capacity %llu over twice stash_fraction %g of %llu, twice a quarter of it, "
             "and 8 x its %llu pairs",
             where, (unsigned long long)st->stash_capacity, fraction,
             (unsigned long long)st->capacity, (unsigned long long)st->stash_size);
    uint64_t slot_bytes = 2 * t->kv_bytes;
    HT_CHECK(st->bytes_held >= st->capacity * slot_bytes,
             "%s: bytes_held %llu below capacity %llu x %llu bytes", where,
             (unsigned long long)st->bytes_held, (unsigned long long)st->capacity,
             (unsigned long long)slot_bytes);
    HT_CHECK(st->insert_steps[1] + st->insert_steps[2] + st->insert_steps[3] >= st->size,
             "%s: insert steps 1-3 (%llu new keys placed) below size %llu", where,
             (unsigned long long)(st->insert_steps[1] + st->insert_steps[2] +
                                  st->insert_steps[3]),
             (unsigned long long)st->size);
}
