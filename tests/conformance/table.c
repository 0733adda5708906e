/* table.c — whole-table calls: hive_get_config (defaults resolved),
 * hive_size, hive_clear (empties, keeps the capacity), hive_reserve (room
 * for that many keys without growing later; never shrinks), hive_export
 * (the exact set of pairs; too small a capacity is INVALID_ARGUMENT with
 * *count set and nothing written), hive_stats_get consistency. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

#define N 5000

static void check_config(const ht_target *t, hive_table *table, const hive_config *asked)
{
    hive_config got;
    memset(&got, 0, sizeof got);
    if (!HT_CHECK_STATUS(hive_get_config(table, &got), HIVE_SUCCESS, "get_config"))
        return;
    HT_CHECK_EQ(got.struct_size, sizeof(hive_config), "get_config struct_size");
    HT_CHECK_EQ(got.version, HIVE_CONFIG_VERSION, "get_config version");
    HT_CHECK_EQ(got.backend, t->backend, "get_config backend (resolved)");
    HT_CHECK_EQ(got.key_width, t->width, "get_config key_width");
    HT_CHECK_EQ(got.design, asked->design, "get_config design");
    HT_CHECK_EQ(got.initial_capacity, asked->initial_capacity, "get_config initial_capacity");
    HT_CHECK(got.max_load_factor == asked->max_load_factor &&
                 got.min_load_factor == asked->min_load_factor,
             "get_config load factors %g/%g, asked %g/%g", got.max_load_factor,
             got.min_load_factor, asked->max_load_factor, asked->min_load_factor);
    HT_CHECK(got.threads >= 1, "get_config threads %u: 0 should be resolved", got.threads);
    HT_CHECK(got.bucket_slots >= 4 && got.bucket_slots <= 32 &&
                 (got.bucket_slots & (got.bucket_slots - 1)) == 0,
             "get_config bucket_slots %u: 0 should be resolved to a power of two in 4..32",
             got.bucket_slots);
    HT_CHECK(got.lanes_per_op >= 1 && got.lanes_per_op <= got.bucket_slots &&
                 (got.lanes_per_op & (got.lanes_per_op - 1)) == 0,
             "get_config lanes_per_op %u: 0 should be resolved", got.lanes_per_op);
    hive_stats st;
    HT_MUST(hive_stats_get(table, &st));
    HT_CHECK_EQ(st.bucket_slots, got.bucket_slots, "stats and config agree on bucket_slots");
    HT_CHECK_EQ(st.lanes_per_op, got.lanes_per_op, "stats and config agree on lanes_per_op");
    /* What get_config returns makes a table again, and resolves to itself
     * (the chaining design reports its pool's share raised: hive.h). */
    hive_table *again = NULL;
    if (HT_CHECK_STATUS(hive_create(&got, &again), HIVE_SUCCESS, "create from get_config's config")) {
        hive_config twice;
        HT_MUST(hive_get_config(again, &twice));
        HT_CHECK(twice.stash_fraction == got.stash_fraction && twice.bucket_slots == got.bucket_slots &&
                     twice.design == got.design,
                 "get_config of a table made from get_config: stash_fraction %g, then %g",
                 got.stash_fraction, twice.stash_fraction);
        HT_MUST(hive_destroy(again));
    }
}

static void check_export_too_small(const ht_target *t, hive_table *table, uint64_t size)
{
    uint64_t cap = size - 1;
    void *keys = ht_alloc(t, (size + 1) * t->kv_bytes);
    void *values = ht_alloc(t, (size + 1) * t->kv_bytes);
    uint64_t count = 12345;
    HT_CHECK_STATUS(hive_export(table, cap, keys, values, &count, NULL),
                    HIVE_ERROR_INVALID_ARGUMENT, "export with capacity size - 1");
    HT_CHECK_EQ(count, size, "export with capacity size - 1 sets *count to the size");
    const unsigned char *kb = keys, *vb = values;
    size_t touched = 0;
    for (size_t i = 0; i < (size + 1) * t->kv_bytes; i++)
        touched += (kb[i] != 0xA5) + (vb[i] != 0xA5);
    HT_CHECK_EQ(touched, 0, "bytes written by an export that was too small");
    count = 12345;
    HT_CHECK_STATUS(hive_export(table, 0, NULL, NULL, &count, NULL), HIVE_ERROR_INVALID_ARGUMENT,
                    "export with capacity 0 from a non-empty table");
    HT_CHECK_EQ(count, size, "export with capacity 0 sets *count to the size");
    /* Exactly the size is enough. */
    count = 0;
    HT_CHECK_STATUS(hive_export(table, size, keys, values, &count, NULL), HIVE_SUCCESS,
                    "export with capacity == size");
    HT_CHECK_EQ(count, size, "export with capacity == size");
    ht_free(t, keys);
    ht_free(t, values);
}

static void one_param(const ht_target *t, const ct_param *p)
{
    hive_config c;
    hive_table *table = ct_open(t, "table", p, 1024, &c);
    ht_rng rng;
    ht_rng_seed(&rng, p->seed * 1000 + 5);
    uint64_t *keys = malloc(4 * N * sizeof *keys);
    ht_unique_keys(t, &rng, keys, 4 * N, NULL);
    ht_ref ref;
    ht_ref_init(&ref);
    ht_batch b;
    ht_batch_init(&b, t, 4 * N);
    hive_stats st, st2;

    check_config(t, table, &c);

    /* Empty: size 0, export of nothing into nothing. */
    ht_expect_stats(t, table, &c, &st, "empty table");
    HT_CHECK(st.size == 0 && st.load_factor == 0.0 && st.stash_size == 0,
             "empty table: size %llu load_factor %g stash_size %llu", (unsigned long long)st.size,
             st.load_factor, (unsigned long long)st.stash_size);
    HT_CHECK(st.bytes_held > 0, "empty table holds %llu bytes", (unsigned long long)st.bytes_held);
    uint64_t count = 777;
    HT_CHECK_STATUS(hive_export(table, 0, NULL, NULL, &count, NULL), HIVE_SUCCESS,
                    "export of an empty table with capacity 0 and NULL arrays");
    HT_CHECK_EQ(count, 0, "export count of an empty table");
    ht_expect_contents(t, table, &ref, "empty table");

    /* Size follows inserts and erases. */
    ct_fill(t, &b, keys, N, &rng);
    ht_run_unique(t, table, &ref, &b, HT_CALL_INSERT, HIVE_COMBINE_ASSIGN, HT_PASS_ALL, 1,
                  "insert N");
    ht_expect_contents(t, table, &ref, "after insert N");
    ht_expect_stats(t, table, &c, &st, "after insert N");
    HT_CHECK_EQ(st.size, N, "stats.size after inserting N keys");
    check_export_too_small(t, table, N);

    /* Clear: empty, same capacity, usable again. */
    HT_CHECK_STATUS(hive_clear(table, NULL), HIVE_SUCCESS, "clear");
    ht_ref_clear(&ref);
    ht_expect_stats(t, table, &c, &st2, "after clear");
    HT_CHECK_EQ(st2.capacity, st.capacity, "clear keeps the capacity");
    HT_CHECK_EQ(st2.size, 0, "size after clear");
    ht_expect_absent(t, table, keys, N, &b, "after clear");
    ht_expect_contents(t, table, &ref, "after clear");
    ct_fill(t, &b, keys + N / 2, N, &rng);
    ht_run_unique(t, table, &ref, &b, HT_CALL_INSERT, HIVE_COMBINE_KEEP, HT_PASS_ALL, 1,
                  "insert after clear");
    ht_expect_finds(t, table, &ref, &b, "insert after clear");
    HT_CHECK_STATUS(hive_clear(table, NULL), HIVE_SUCCESS, "clear twice");
    HT_CHECK_STATUS(hive_clear(table, NULL), HIVE_SUCCESS, "clear an empty table");
    ht_ref_clear(&ref);
    ht_expect_contents(t, table, &ref, "after clearing twice");
    ht_close(table);

    /* Reserve: room for R keys, then R inserts do not grow the table. */
    const uint64_t R = 3 * N;
    table = ct_open(t, "table (reserve)", p, 1024, &c);
    HT_CHECK_STATUS(hive_reserve(table, 0, NULL), HIVE_SUCCESS, "reserve 0");
    HT_CHECK_STATUS(hive_reserve(table, R, NULL), HIVE_SUCCESS, "reserve %llu", (unsigned long long)R);
    ht_expect_stats(t, table, &c, &st, "after reserve");
    HT_CHECK((double)st.capacity * c.max_load_factor >= (double)R,
             "reserve(%llu): capacity %llu holds only %g keys under max_load_factor %g",
             (unsigned long long)R, (unsigned long long)st.capacity,
             (double)st.capacity * c.max_load_factor, c.max_load_factor);
    for (uint64_t off = 0; off < R; off += R / 8) {
        ct_fill(t, &b, keys + off, R / 8, &rng);
        ht_run_unique(t, table, &ref, &b, HT_CALL_INSERT, HIVE_COMBINE_ADD, HT_PASS_ALL, 1,
                      "insert into reserved room");
    }
    ht_expect_stats(t, table, &c, &st2, "after filling reserved room");
    HT_CHECK(st2.capacity == st.capacity && st2.grows == st.grows,
             "inserting %llu keys after reserve(%llu) grew the table: capacity %llu -> %llu, "
             "grows %llu -> %llu",
             (unsigned long long)R, (unsigned long long)R, (unsigned long long)st.capacity,
             (unsigned long long)st2.capacity, (unsigned long long)st.grows,
             (unsigned long long)st2.grows);
    HT_CHECK_STATUS(hive_reserve(table, R / 4, NULL), HIVE_SUCCESS, "reserve less");
    HT_CHECK_STATUS(hive_reserve(table, 0, NULL), HIVE_SUCCESS, "reserve 0 again");
    ht_expect_stats(t, table, &c, &st, "after reserving less");
    HT_CHECK_EQ(st.capacity, st2.capacity, "reserve never shrinks");
    ht_expect_finds(t, table, &ref, &b, "after reserve");
    ht_expect_contents(t, table, &ref, "after reserve");

    /* Reserve with keys present keeps them. */
    HT_CHECK_STATUS(hive_reserve(table, 4 * R, NULL), HIVE_SUCCESS, "reserve 4R with keys");
    ht_expect_stats(t, table, &c, &st, "after reserve 4R");
    HT_CHECK((double)st.capacity * c.max_load_factor >= (double)(4 * R),
             "reserve(4R): capacity %llu", (unsigned long long)st.capacity);
    ht_expect_finds(t, table, &ref, &b, "after reserve with keys present");
    ht_expect_contents(t, table, &ref, "after reserve with keys present");

    ht_batch_free(&b);
    ht_ref_free(&ref);
    free(keys);
    ht_close(table);
}

void ct_suite_table(const ht_target *t)
{
    for (size_t i = 0; i < ct_param_count; i++)
        one_param(t, &ct_params[i]);
}
