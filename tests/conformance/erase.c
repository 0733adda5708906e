/* erase.c — hive_erase: ERASED for present keys, NOT_FOUND for absent and
 * already erased ones; erased keys are no longer found and the others keep
 * their values; results = NULL; a key repeated in one erase batch is erased
 * exactly once; erased keys can be inserted again; erasing everything. */
#include <stdio.h>
#include <stdlib.h>

#include "conformance.h"

#define N 4000

/* A batch with `distinct` keys of keys[], each repeated 1..5 times: per key,
 * one ERASED if it was present and NOT_FOUND for every other copy. */
static void erase_repeated(const ht_target *t, hive_table *table, ht_ref *ref, ht_batch *b,
                           const uint64_t *keys, size_t distinct, ht_rng *rng)
{
    uint64_t *ks = malloc(distinct * 5 * sizeof *ks);
    size_t n = 0;
    for (size_t i = 0; i < distinct; i++)
        for (uint64_t c = ht_rng_range(rng, 1, 5); c > 0; c--)
            ks[n++] = keys[i];
    ht_shuffle(rng, ks, n);
    ct_fill(t, b, ks, n, rng);
    ht_batch_poison_flags(b);
    HT_CHECK_STATUS(hive_erase(table, n, b->keys, b->results, NULL), HIVE_SUCCESS,
                    "erase with repeated keys");
    ht_ref erased;
    ht_ref_init(&erased);
    uint64_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned r = b->results[i];
        if (r == HIVE_RESULT_ERASED) {
            uint64_t c = 0;
            ht_ref_get(&erased, ks[i], &c);
            ht_ref_put(&erased, ks[i], c + 1);
        } else if (r != HIVE_RESULT_NOT_FOUND && bad++ < 5) {
            HT_CHECK(0, "erase with repeated keys: element %zu (key %llu) result %s", i,
                     (unsigned long long)ks[i], ht_result_name(r));
        }
    }
    for (size_t i = 0; i < distinct; i++) {
        uint64_t c = 0;
        ht_ref_get(&erased, keys[i], &c);
        unsigned want = ht_ref_get(ref, keys[i], NULL) ? 1 : 0;
        if (c != want && bad++ < 5)
            HT_CHECK(0, "erase with repeated keys: key %llu erased %llu times, expected %u",
                     (unsigned long long)keys[i], (unsigned long long)c, want);
        ht_ref_del(ref, keys[i]);
    }
    HT_CHECK_EQ(bad, 0, "erase with repeated keys: wrong results");
    ht_ref_free(&erased);
    free(ks);
}

static void one_param(const ht_target *t, const ct_param *p)
{
    hive_config c;
    hive_table *table = ct_open(t, "erase", p, 1024, &c);
    ht_rng rng;
    ht_rng_seed(&rng, p->seed * 1000 + 3);
    uint64_t *keys = malloc(2 * N * sizeof *keys);
    uint64_t *mix = malloc(2 * N * sizeof *mix);
    ht_unique_keys(t, &rng, keys, 2 * N, NULL);
    ht_ref ref;
    ht_ref_init(&ref);
    ht_batch b;
    ht_batch_init(&b, t, 5 * N);

    /* Erasing from an empty table. */
    ct_fill(t, &b, keys, N, &rng);
    ht_run_unique(t, table, &ref, &b, HT_CALL_ERASE, HIVE_COMBINE_KEEP, HT_PASS_ALL, 0,
                  "erase from an empty table");

    ct_fill(t, &b, keys, N, &rng);
    ht_run_unique(t, table, &ref, &b, HT_CALL_INSERT, HIVE_COMBINE_ASSIGN, HT_PASS_ALL, 1,
                  "insert keys[0..N)");

    /* Half the present keys and a quarter of absent ones, twice: the second
     * time every key is NOT_FOUND. */
    for (size_t i = 0; i < N / 2; i++)
        mix[i] = keys[2 * i];
    for (size_t i = 0; i < N / 4; i++)
        mix[N / 2 + i] = keys[N + i];
    ht_shuffle(&rng, mix, N / 2 + N / 4);
    for (int round = 0; round < 2; round++) {
        ct_fill(t, &b, mix, N / 2 + N / 4, &rng);
        ht_run_unique(t, table, &ref, &b, HT_CALL_ERASE, HIVE_COMBINE_KEEP, HT_PASS_ALL, 0,
                      round == 0 ? "erase present and absent keys" : "erase them again");
    }
    ht_expect_finds(t, table, &ref, &b, "after erasing half");
    ht_expect_absent(t, table, mix, N / 2 + N / 4, &b, "erased keys");
    ht_expect_contents(t, table, &ref, "after erasing half");

    /* results = NULL. */
    for (size_t i = 0; i < N / 4; i++)
        mix[i] = keys[2 * i + 1];
    ct_fill(t, &b, mix, N / 4, &rng);
    ht_run_unique(t, table, &ref, &b, HT_CALL_ERASE, HIVE_COMBINE_KEEP, 0, 0,
                  "erase with results NULL");
    ht_expect_absent(t, table, mix, N / 4, &b, "erased with results NULL");

    /* Erased keys come back with new values. */
    ct_fill(t, &b, keys, N, &rng);
    ht_run_unique(t, table, &ref, &b, HT_CALL_INSERT, HIVE_COMBINE_ADD, HT_PASS_ALL, 1,
                  "insert erased keys again (ADD)");
    ht_expect_finds(t, table, &ref, &b, "after reinsertion");

    /* Repeated keys in one erase batch: present and absent ones. */
    for (size_t i = 0; i < N; i++)
        mix[i] = keys[(i * 7) % (2 * N)];
    erase_repeated(t, table, &ref, &b, mix, N, &rng);
    ht_expect_contents(t, table, &ref, "after erasing repeated keys");

    /* Everything. */
    for (size_t i = 0; i < 2 * N; i++)
        mix[i] = keys[i];
    ht_shuffle(&rng, mix, 2 * N);
    ct_fill(t, &b, mix, 2 * N, &rng);
    ht_run_unique(t, table, &ref, &b, HT_CALL_ERASE, HIVE_COMBINE_KEEP, HT_PASS_ALL, 0,
                  "erase every key");
    ht_expect_contents(t, table, &ref, "after erasing everything");
    ht_expect_absent(t, table, keys, 2 * N, &b, "after erasing everything");
    hive_stats st;
    ht_expect_stats(t, table, &c, &st, "after erasing everything");
    HT_CHECK_EQ(st.size, 0, "size after erasing everything");

    /* And the table works after being emptied. */
    ct_fill(t, &b, keys + N, N, &rng);
    ht_run_unique(t, table, &ref, &b, HT_CALL_INSERT, HIVE_COMBINE_KEEP, HT_PASS_ALL, 1,
                  "insert after erasing everything");
    ht_expect_finds(t, table, &ref, &b, "erase suite end");
    ht_expect_contents(t, table, &ref, "erase suite end");

    ht_batch_free(&b);
    ht_ref_free(&ref);
    free(keys);
    free(mix);
    ht_close(table);
}

void ct_suite_erase(const ht_target *t)
{
    for (size_t i = 0; i < ct_param_count; i++)
        one_param(t, &ct_params[i]);
}
