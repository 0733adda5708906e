/* alloc_fail.c — out of memory in the middle of a table's life, injected:
 *
 *   HIVE_TEST_FAIL_ALLOC=N hive-alloc-fail <cpu|cuda> <kv32|kv64>
 *
 * hive lets N of its allocations succeed and fails every later one
 * (src/base/alloc.h).  N is set by CTest (ENVIRONMENT) so that the table can be
 * created and then, some growth later, an insert needs room that cannot be
 * had.  Checked: that insert returns HIVE_ERROR_OUT_OF_MEMORY and the table
 * still holds exactly its old contents (size, find, export); a hive_reserve
 * that needs memory fails the same way; erasing most keys still works
 * (shrinking, which needs memory, is skipped quietly); inserts that fit
 * still work; and the table is destroyed cleanly (the sanitizer builds check
 * for leaks on the failure paths). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hivetest.h"

int main(int argc, char **argv)
{
    static char name[96];
    const char *usage = "<cpu|cuda> <kv32|kv64> (with HIVE_TEST_FAIL_ALLOC=N set)";
    if (argc < 3) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        return HT_EXIT_FAIL;
    }
    ht_target t;
    ht_target_from_args(&t, argc, argv, 1, usage);
    const char *env = getenv("HIVE_TEST_FAIL_ALLOC");
    snprintf(name, sizeof name, "alloc-fail %s %s (HIVE_TEST_FAIL_ALLOC=%s)", t.backend_name,
             t.width_name, env ? env : "unset");
    ht_begin(name);
    if (env == NULL || env[0] == '\0')
        ht_fatal("HIVE_TEST_FAIL_ALLOC is not set: run this test through CTest");

    ht_context("alloc-fail %s %s, HIVE_TEST_FAIL_ALLOC=%s: create", t.backend_name, t.width_name,
               env);
    hive_config c = ht_config(&t);
    c.initial_capacity = 1024;
    c.threads = 2; /* a fixed number of allocations at create */
    hive_table *table = NULL;
    hive_status s = hive_create(&c, &table);
    if (s == HIVE_ERROR_OUT_OF_MEMORY)
        ht_fatal("hive_create itself ran out of its %s allocations (%s): raise "
                 "HIVE_TEST_FAIL_ALLOC for this test in tests/CMakeLists.txt",
                 env, hive_last_error());
    if (s != HIVE_SUCCESS) {
        /* The skip rules (no GPU, KV64 on CUDA) of every other test. */
        table = ht_open(&t, &c);
    }

    ht_rng rng;
    ht_rng_seed(&rng, 77);
    const size_t max_keys = 1u << 20;
    uint64_t *keys = malloc(max_keys * sizeof *keys);
    ht_unique_keys(&t, &rng, keys, max_keys, NULL);
    ht_ref ref;
    ht_ref_init(&ref);
    ht_batch b;
    ht_batch_init(&b, &t, max_keys / 2);
    hive_stats st0, st1;

    /* Insert ever larger batches of new keys until one runs out of memory. */
    size_t have = 0, n = 512; /* keys offered so far; `stored` of them went in */
    size_t stored = 0;
    int failed = 0;
    unsigned grows_ok = 0;
    while (!failed && have + n <= max_keys) {
        ht_context("alloc-fail %s %s, HIVE_TEST_FAIL_ALLOC=%s: insert %zu keys into %zu",
                   t.backend_name, t.width_name, env, n, have);
        b.n = n;
        for (size_t i = 0; i < n; i++) {
            ht_put(&t, b.keys, i, keys[have + i]);
            ht_put(&t, b.values, i, ht_random_value(&t, &rng));
        }
        HT_MUST(hive_stats_get(table, &st0));
        s = hive_insert(table, n, b.keys, b.values, HIVE_COMBINE_ASSIGN, b.results, NULL);
        char why[512]; /* the next hive call replaces the last-error text */
        snprintf(why, sizeof why, "%s", hive_last_error());
        HT_MUST(hive_stats_get(table, &st1));
        if (s == HIVE_ERROR_OUT_OF_MEMORY) {
            failed = 1;
            printf("  insert of %zu keys into %zu ran out of memory after %u successful grows: "
                   "%s\n",
                   n, have, grows_ok, why);
            HT_CHECK(why[0] != '\0', "OUT_OF_MEMORY without an explanation");
            HT_CHECK_EQ(st1.capacity, st0.capacity, "capacity after the failed insert");
            HT_CHECK_EQ(st1.size, stored, "size after the failed insert");
            break;
        }
        /* TABLE_FULL: some keys found no room and the growth that would have
         * made room ran out of memory; the others are in (see results). */
        if (s == HIVE_ERROR_TABLE_FULL)
            printf("  insert of %zu keys into %zu: TABLE_FULL (%s)\n", n, have, why);
        else if (!HT_CHECK_STATUS(s, HIVE_SUCCESS, "insert before memory runs out"))
            break;
        uint64_t odd = 0;
        for (size_t i = 0; i < n; i++) {
            if (b.results[i] == HIVE_RESULT_INSERTED) {
                ht_ref_put(&ref, keys[have + i], ht_get(&t, b.values, i));
                stored++;
            } else
                odd += s != HIVE_ERROR_TABLE_FULL || b.results[i] != HIVE_RESULT_REJECTED_FULL;
        }
        HT_CHECK_EQ(odd, 0, "results other than INSERTED (or REJECTED_FULL with TABLE_FULL)");
        grows_ok += st1.grows > st0.grows;
        have += n;
        n *= 2;
    }
    HT_CHECK(failed, "no insert ran out of memory up to %zu keys: is HIVE_TEST_FAIL_ALLOC "
                     "honoured?",
             have);

    ht_context("alloc-fail %s %s, HIVE_TEST_FAIL_ALLOC=%s: after the failed insert",
               t.backend_name, t.width_name, env);
    ht_expect_contents(&t, table, &ref, "after the failed insert");
    ht_batch s_b;
    ht_batch_init(&s_b, &t, 4096);
    ht_expect_finds(&t, table, &ref, &s_b, "after the failed insert");
    if (failed)
        ht_expect_absent(&t, table, keys + have, n, &s_b, "keys of the failed insert");

    /* A reserve that needs memory fails the same way. */
    HT_MUST(hive_stats_get(table, &st0));
    HT_CHECK_STATUS(hive_reserve(table, 4 * (have + n), NULL), HIVE_ERROR_OUT_OF_MEMORY,
                    "reserve with no memory left");
    HT_MUST(hive_stats_get(table, &st1));
    HT_CHECK_EQ(st1.capacity, st0.capacity, "capacity after the failed reserve");
    ht_expect_contents(&t, table, &ref, "after the failed reserve");

    /* Erasing 90% works (the shrink it asks for needs memory: it is skipped,
     * not an error).  Then an insert that fits in the table as it is: it
     * succeeds, or fails for lack of memory (a backend may need scratch
     * memory per call) leaving the table unchanged, or (TABLE_FULL) inserts
     * what it can place without growing. */
    size_t erase_n = have - have / 10;
    ht_batch_free(&s_b);
    b.n = erase_n;
    for (size_t i = 0; i < erase_n; i++)
        ht_put(&t, b.keys, i, keys[i]);
    HT_CHECK_STATUS(hive_erase(table, erase_n, b.keys, b.results, NULL), HIVE_SUCCESS,
                    "erase 90%% with no memory left");
    for (size_t i = 0; i < erase_n; i++)
        ht_ref_del(&ref, keys[i]);
    ht_expect_contents(&t, table, &ref, "after erasing with no memory left");

    b.n = erase_n / 2;
    for (size_t i = 0; i < b.n; i++) {
        ht_put(&t, b.keys, i, keys[i]);
        ht_put(&t, b.values, i, i);
    }
    /* Without a results array the insert needs memory for its own (to know
     * which keys to run again after a growth; on the GPU also to mark the
     * keys its second kernel finishes): with none left it fails whole. */
    HT_CHECK_STATUS(hive_insert(table, b.n, b.keys, b.values, HIVE_COMBINE_ASSIGN, NULL, NULL),
                    HIVE_ERROR_OUT_OF_MEMORY, "insert without a results array, no memory left");
    ht_expect_contents(&t, table, &ref, "after the insert without a results array");

    memset(b.results, HT_FLAG_POISON, b.n);
    s = hive_insert(table, b.n, b.keys, b.values, HIVE_COMBINE_ASSIGN, b.results, NULL);
    printf("  insert that fits, with no memory left: %s\n", hive_status_string(s));
    HT_CHECK(s == HIVE_SUCCESS || s == HIVE_ERROR_OUT_OF_MEMORY || s == HIVE_ERROR_TABLE_FULL,
             "insert that fits, with no memory left: %s", hive_status_string(s));
    if (s != HIVE_ERROR_OUT_OF_MEMORY) {
        uint64_t odd = 0;
        for (size_t i = 0; i < b.n; i++) {
            if (b.results[i] == HIVE_RESULT_INSERTED)
                ht_ref_put(&ref, keys[i], i & t.value_mask);
            else
                odd += s == HIVE_SUCCESS || b.results[i] != HIVE_RESULT_REJECTED_FULL;
        }
        HT_CHECK_EQ(odd, 0, "results of the insert that fits");
    }
    ht_expect_contents(&t, table, &ref, "after an insert that fits");

    ht_batch_free(&b);
    ht_ref_free(&ref);
    free(keys);
    ht_close(table);
    return ht_finish();
}
