/* fill.c — the WarpSpeed fill test (reference spec §1.10), which checks that
 * erased slots are reused: one key inserted, found, erased and not found
 * again, 10,000 times, with four failure counters that must stay 0 and a
 * table that must not grow.  Then the same churn over a few keys in a table
 * already loaded to 80% of max_load_factor (buckets near full, tombstones
 * everywhere), whose other keys must come through untouched. */
#include <stdio.h>
#include <stdlib.h>

#include "conformance.h"

#define ITERATIONS 10000

static const ct_param fill_params[] = {
    {0.90, 0.25, 21},
    {0.90, 0.00, 22}, /* never shrinks */
};

/* ITERATIONS rounds over keys[i % nkeys]: insert (value i), find, erase,
 * find.  Returns the number of failures. */
static uint64_t churn(const ht_target *t, hive_table *table, ht_batch *b, const uint64_t *keys,
                      size_t nkeys, uint64_t base_size)
{
    uint64_t fail_insert = 0, fail_find = 0, fail_erase = 0, fail_after_erase = 0, fail_size = 0;
    b->n = 1;
    for (uint64_t i = 0; i < ITERATIONS; i++) {
        uint64_t k = keys[i % nkeys], v = (i * 2654435761u) & t->value_mask;
        ht_put(t, b->keys, 0, k);
        ht_put(t, b->values, 0, v);
        b->results[0] = HT_FLAG_POISON;
        if (hive_insert(table, 1, b->keys, b->values, HIVE_COMBINE_ASSIGN, b->results, NULL) !=
                HIVE_SUCCESS ||
            b->results[0] != HIVE_RESULT_INSERTED) {
            if (fail_insert++ < 3)
                HT_CHECK(0, "iteration %llu: insert key %llu: result %s",
                         (unsigned long long)i, (unsigned long long)k,
                         ht_result_name(b->results[0]));
        }
        ht_put(t, b->values, 0, ~v & t->value_mask);
        b->found[0] = HT_FLAG_POISON;
        if (hive_find(table, 1, b->keys, b->values, b->found, NULL) != HIVE_SUCCESS ||
            b->found[0] != 1 || ht_get(t, b->values, 0) != v) {
            if (fail_find++ < 3)
                HT_CHECK(0, "iteration %llu: find key %llu: found %u value %llu, expected %llu",
                         (unsigned long long)i, (unsigned long long)k, b->found[0],
                         (unsigned long long)ht_get(t, b->values, 0), (unsigned long long)v);
        }
        b->results[0] = HT_FLAG_POISON;
        if (hive_erase(table, 1, b->keys, b->results, NULL) != HIVE_SUCCESS ||
            b->results[0] != HIVE_RESULT_ERASED) {
            if (fail_erase++ < 3)
                HT_CHECK(0, "iteration %llu: erase key %llu: result %s", (unsigned long long)i,
                         (unsigned long long)k, ht_result_name(b->results[0]));
        }
        b->found[0] = HT_FLAG_POISON;
        if (hive_find(table, 1, b->keys, b->values, b->found, NULL) != HIVE_SUCCESS ||
            b->found[0] != 0) {
            if (fail_after_erase++ < 3)
                HT_CHECK(0, "iteration %llu: key %llu found after its erase",
                         (unsigned long long)i, (unsigned long long)k);
        }
        if (i % 1000 == 999) {
            uint64_t size = 0;
            HT_MUST(hive_size(table, &size));
            if (size != base_size && fail_size++ < 3)
                HT_CHECK(0, "iteration %llu: size %llu, expected %llu", (unsigned long long)i,
                         (unsigned long long)size, (unsigned long long)base_size);
        }
    }
    HT_CHECK(fail_insert + fail_find + fail_erase + fail_after_erase + fail_size == 0,
             "fill counters: insert %llu, find %llu, erase %llu, find after erase %llu, size %llu "
             "(all must be 0)",
             (unsigned long long)fail_insert, (unsigned long long)fail_find,
             (unsigned long long)fail_erase, (unsigned long long)fail_after_erase,
             (unsigned long long)fail_size);
    ht_pass_(4 * ITERATIONS);
    return fail_insert + fail_find + fail_erase + fail_after_erase + fail_size;
}

static void one_param(const ht_target *t, const ct_param *p)
{
    ht_rng rng;
    ht_rng_seed(&rng, p->seed * 1000 + 7);
    ht_batch b;
    ht_batch_init(&b, t, 4096);
    hive_stats st0, st1;

    /* One key, an empty table. */
    hive_config c;
    hive_table *table = ct_open(t, "fill (one key)", p, 1024, &c);
    uint64_t key = ht_random_key(t, &rng);
    ht_expect_stats(t, table, &c, &st0, "before the fill test");
    churn(t, table, &b, &key, 1, 0);
    ht_expect_stats(t, table, &c, &st1, "after the fill test");
    HT_CHECK(st1.capacity == st0.capacity && st1.grows == 0,
             "the fill test grew the table: capacity %llu -> %llu, %llu grows",
             (unsigned long long)st0.capacity, (unsigned long long)st1.capacity,
             (unsigned long long)st1.grows);
    HT_CHECK_EQ(st1.size, 0, "size after the fill test");
    ht_close(table);

    /* Sixteen keys churned in a loaded table. */
    table = ct_open(t, "fill (loaded table)", p, 4096, &c);
    ht_ref ref;
    ht_ref_init(&ref);
    ht_expect_stats(t, table, &c, &st0, "empty loaded-fill table");
    size_t preload = (size_t)(0.8 * c.max_load_factor * (double)st0.capacity);
    uint64_t *keys = malloc((preload + 16) * sizeof *keys);
    ht_unique_keys(t, &rng, keys, preload + 16, NULL);
    for (size_t off = 0; off < preload; off += b.cap) {
        size_t n = preload - off < b.cap ? preload - off : b.cap;
        ct_fill(t, &b, keys + off, n, &rng);
        ht_run_unique(t, table, &ref, &b, HT_CALL_INSERT, HIVE_COMBINE_ASSIGN, HT_PASS_ALL, 1,
                      "preload");
    }
    ht_expect_stats(t, table, &c, &st0, "after preload");
    churn(t, table, &b, keys + preload, 16, preload);
    ht_expect_stats(t, table, &c, &st1, "after churn in a loaded table");
    HT_CHECK(st1.capacity == st0.capacity && st1.grows == st0.grows,
             "churn at constant size grew the table: capacity %llu -> %llu, grows %llu -> %llu",
             (unsigned long long)st0.capacity, (unsigned long long)st1.capacity,
             (unsigned long long)st0.grows, (unsigned long long)st1.grows);
    ht_expect_finds(t, table, &ref, &b, "preloaded keys after churn");
    ht_expect_contents(t, table, &ref, "after churn in a loaded table");

    free(keys);
    ht_ref_free(&ref);
    ht_close(table);
    ht_batch_free(&b);
}

void ct_suite_fill(const ht_target *t)
{
    for (size_t i = 0; i < sizeof fill_params / sizeof fill_params[0]; i++)
        one_param(t, &fill_params[i]);
}
