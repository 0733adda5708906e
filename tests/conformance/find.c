/* find.c — hive_find and hive_contains: values and found flags of present
 * keys; absent keys leave their value entries untouched (each entry starts
 * as a distinct random "poison"); values-only and found-only forms; keys
 * repeated within a batch; an empty table; values seen after updates. */
#include <stdio.h>
#include <stdlib.h>

#include "conformance.h"

#define N 4000

static void one_param(const ht_target *t, const ct_param *p)
{
    hive_config c;
    hive_table *table = ct_open(t, "find", p, 1024, &c);
    ht_rng rng;
    ht_rng_seed(&rng, p->seed * 1000 + 2);
    uint64_t *keys = malloc(2 * N * sizeof *keys);
    ht_unique_keys(t, &rng, keys, 2 * N, NULL);
    ht_ref ref;
    ht_ref_init(&ref);
    ht_batch b;
    ht_batch_init(&b, t, 4 * N);

    /* An empty table finds nothing. */
    ct_fill(t, &b, keys, N, &rng);
    ht_run_unique(t, table, &ref, &b, HT_CALL_FIND, HIVE_COMBINE_KEEP, HT_PASS_ALL, 0,
                  "find in an empty table");
    ct_fill(t, &b, keys, N, &rng);
    ht_run_unique(t, table, &ref, &b, HT_CALL_CONTAINS, HIVE_COMBINE_KEEP, HT_PASS_ALL, 0,
                  "contains in an empty table");

    /* keys[0..N) present, keys[N..2N) absent. */
    ct_fill(t, &b, keys, N, &rng);
    ht_run_unique(t, table, &ref, &b, HT_CALL_INSERT, HIVE_COMBINE_ASSIGN, HT_PASS_ALL, 1,
                  "insert the present keys");

    /* Present and absent keys mixed, in every form of the call. */
    static const struct {
        ht_call call;
        unsigned pass;
        const char *what;
    } forms[] = {
        {HT_CALL_FIND, HT_PASS_ALL, "find, values and found"},
        {HT_CALL_FIND, HT_PASS_VALUES, "find, values only"},
        {HT_CALL_FIND, HT_PASS_FOUND, "find, found only"},
        {HT_CALL_CONTAINS, HT_PASS_ALL, "contains"},
    };
    uint64_t *mix = malloc(2 * N * sizeof *mix);
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        for (size_t i = 0; i < 2 * N; i++)
            mix[i] = keys[i];
        ht_shuffle(&rng, mix, 2 * N);
        size_t n = (size_t)ht_rng_range(&rng, N, 2 * N);
        ct_fill(t, &b, mix, n, &rng);
        ht_run_unique(t, table, &ref, &b, forms[f].call, HIVE_COMBINE_KEEP, forms[f].pass, 0,
                      forms[f].what);
    }

    /* Keys repeated within a find batch: every copy is answered. */
    for (size_t i = 0; i < 2 * N; i++)
        mix[i] = keys[ht_rng_below(&rng, 2 * N)];
    ct_fill(t, &b, mix, 2 * N, &rng);
    ht_run_unique(t, table, &ref, &b, HT_CALL_FIND, HIVE_COMBINE_KEEP, HT_PASS_ALL, 0,
                  "find with repeated keys");

    /* One key: found, then absent after its erase, value entry untouched. */
    ct_fill(t, &b, keys, 1, &rng);
    ht_run_unique(t, table, &ref, &b, HT_CALL_FIND, HIVE_COMBINE_KEEP, HT_PASS_ALL, 0,
                  "find one key");
    ct_fill(t, &b, keys, 1, &rng);
    ht_run_unique(t, table, &ref, &b, HT_CALL_ERASE, HIVE_COMBINE_KEEP, HT_PASS_ALL, 0,
                  "erase one key");
    ct_fill(t, &b, keys, 1, &rng);
    ht_run_unique(t, table, &ref, &b, HT_CALL_FIND, HIVE_COMBINE_KEEP, HT_PASS_ALL, 0,
                  "find one erased key");

    /* Values written by updates are what find returns. */
    for (int m = HIVE_COMBINE_ASSIGN; m <= HIVE_COMBINE_MAX; m++) {
        ct_fill(t, &b, keys, N, &rng);
        ht_run_unique(t, table, &ref, &b, HT_CALL_INSERT, (hive_combine)m, HT_PASS_ALL, 1,
                      "update before find");
        for (size_t i = 0; i < 2 * N; i++)
            mix[i] = keys[i];
        ht_shuffle(&rng, mix, 2 * N);
        ct_fill(t, &b, mix, 2 * N, &rng);
        ht_run_unique(t, table, &ref, &b, HT_CALL_FIND, HIVE_COMBINE_KEEP, HT_PASS_ALL, 0,
                      "find after update");
    }
    ht_expect_absent(t, table, keys + N, N, &b, "never inserted keys");
    ht_expect_finds(t, table, &ref, &b, "find suite end");

    free(mix);
    ht_batch_free(&b);
    ht_ref_free(&ref);
    free(keys);
    ht_close(table);
}

void ct_suite_find(const ht_target *t)
{
    for (size_t i = 0; i < ct_param_count; i++)
        one_param(t, &ct_params[i]);
}
