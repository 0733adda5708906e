/* insert.c — hive_insert: every combine mode on absent and present keys, with
 * per-key results (INSERTED / UPDATED / EXISTED), results = NULL, keys
 * repeated within one batch, unsigned wrap-around of ADD, and the
 * insert_steps counters. */
#include <stdio.h>
#include <stdlib.h>

#include "conformance.h"

#define N 3000

static const char *mode_name[] = {"KEEP", "ASSIGN", "ADD", "MIN", "MAX"};

/* A batch of `distinct` keys, half present in ref and half from fresh[],
 * each repeated 1..6 times, shuffled. */
static void fill_repeated(const ht_target *t, ht_batch *b, const ht_ref *ref,
                          const uint64_t *fresh, size_t distinct, ht_rng *rng)
{
    uint64_t *ks = malloc(distinct * 6 * sizeof *ks);
    size_t n = 0, taken = 0;
    for (size_t i = 0; i < ref->cap && taken < distinct / 2; i++) {
        if (ref->state[i] != HT_REF_LIVE || ht_rng_chance(rng, 0.5))
            continue;
        for (uint64_t c = ht_rng_range(rng, 1, 6); c > 0; c--)
            ks[n++] = ref->keys[i];
        taken++;
    }
    for (size_t i = 0; taken < distinct; i++, taken++)
        for (uint64_t c = ht_rng_range(rng, 1, 6); c > 0; c--)
            ks[n++] = fresh[i];
    ht_shuffle(rng, ks, n);
    ct_fill(t, b, ks, n, rng);
    free(ks);
}

static void one_param(const ht_target *t, const ct_param *p)
{
    hive_config c;
    hive_table *table = ct_open(t, "insert", p, 1024, &c);
    ht_rng rng;
    ht_rng_seed(&rng, p->seed * 1000 + 1);
    uint64_t *keys = malloc((4 * N + 2) * sizeof *keys);
    ht_unique_keys(t, &rng, keys, 4 * N + 2, NULL);
    ht_ref ref;
    ht_ref_init(&ref);
    ht_batch b;
    ht_batch_init(&b, t, 6 * N);
    char where[96];

    /* Absent keys: every mode stores the given value and reports INSERTED. */
    for (int m = 0; m <= HIVE_COMBINE_MAX; m++) {
        snprintf(where, sizeof where, "absent keys, combine %s", mode_name[m]);
        ct_fill(t, &b, keys + m * (N / 5), N / 5, &rng);
        ht_run_unique(t, table, &ref, &b, HT_CALL_INSERT, (hive_combine)m, HT_PASS_ALL, 1, where);
    }
    ht_expect_finds(t, table, &ref, &b, "after inserting absent keys");

    /* Present keys: KEEP reports EXISTED and keeps the value; the others
     * report UPDATED and combine (edge values included: 0, max, max/2). */
    for (int m = 0; m <= HIVE_COMBINE_MAX; m++) {
        snprintf(where, sizeof where, "present keys, combine %s", mode_name[m]);
        ct_fill(t, &b, keys, N, &rng);
        ht_run_unique(t, table, &ref, &b, HT_CALL_INSERT, (hive_combine)m, HT_PASS_ALL, 1, where);
        ht_expect_finds(t, table, &ref, &b, where);
    }

    /* Present and absent keys in one batch. */
    for (int m = 0; m <= HIVE_COMBINE_MAX; m++) {
        snprintf(where, sizeof where, "present and absent keys, combine %s", mode_name[m]);
        uint64_t mix[N / 2 + N / 5];
        for (size_t i = 0; i < N / 2; i++)
            mix[i] = keys[(i * 2 + (size_t)m) % N]; /* distinct present keys */
        for (size_t i = 0; i < N / 5; i++)
            mix[N / 2 + i] = keys[N + m * (N / 5) + i];
        ht_shuffle(&rng, mix, N / 2 + N / 5);
        ct_fill(t, &b, mix, N / 2 + N / 5, &rng);
        ht_run_unique(t, table, &ref, &b, HT_CALL_INSERT, (hive_combine)m, HT_PASS_ALL, 1, where);
    }
    ht_expect_finds(t, table, &ref, &b, "after mixed batches");

    /* results = NULL. */
    ct_fill(t, &b, keys + N, 2 * N, &rng);
    ht_run_unique(t, table, &ref, &b, HT_CALL_INSERT, HIVE_COMBINE_ASSIGN, 0, 1,
                  "results NULL, ASSIGN");
    ht_expect_finds(t, table, &ref, &b, "after results NULL");

    /* Keys repeated within a batch, every mode. */
    for (int m = 0; m <= HIVE_COMBINE_MAX; m++) {
        snprintf(where, sizeof where, "repeated keys, combine %s", mode_name[m]);
        fill_repeated(t, &b, &ref, keys + 3 * N + m * (N / 5), 2 * (N / 5), &rng);
        ht_run_repeated(t, table, &ref, &b, (hive_combine)m, 0, 1, where);
    }

    /* One key 1000 times with ADD 1 (and once with ADD 7): 1007, one INSERTED. */
    {
        uint64_t k = keys[4 * N];
        b.n = 1001;
        for (size_t i = 0; i < b.n; i++) {
            ht_put(t, b.keys, i, k);
            ht_put(t, b.values, i, i == 500 ? 7 : 1);
        }
        ht_run_repeated(t, table, &ref, &b, HIVE_COMBINE_ADD, 0, 1, "one key 1001 times, ADD");
        uint64_t v = 0;
        HT_CHECK(ht_ref_get(&ref, k, &v) && v == 1007, "ADD of 1000 x 1 and 7: %llu, expected 1007",
                 (unsigned long long)v);
    }

    /* ADD wraps around in the width: max + 2 == 1. */
    {
        uint64_t k = keys[4 * N + 1];
        b.n = 1;
        ht_put(t, b.keys, 0, k);
        ht_put(t, b.values, 0, t->value_mask);
        ht_run_unique(t, table, &ref, &b, HT_CALL_INSERT, HIVE_COMBINE_ADD, HT_PASS_ALL, 1,
                      "ADD wrap: insert max");
        ht_put(t, b.keys, 0, k);
        ht_put(t, b.values, 0, 2);
        ht_run_unique(t, table, &ref, &b, HT_CALL_INSERT, HIVE_COMBINE_ADD, HT_PASS_ALL, 1,
                      "ADD wrap: add 2");
        uint64_t v = 99;
        HT_CHECK(ht_ref_get(&ref, k, &v) && v == 1, "reference: max + 2 = %llu",
                 (unsigned long long)v);
    }

    hive_stats st;
    ht_expect_finds(t, table, &ref, &b, "insert suite end");
    ht_expect_contents(t, table, &ref, "insert suite end");
    ht_expect_stats(t, table, &c, &st, "insert suite end");
    ht_batch_free(&b);
    ht_ref_free(&ref);
    free(keys);
    ht_close(table);
}

void ct_suite_insert(const ht_target *t)
{
    for (size_t i = 0; i < ct_param_count; i++)
        one_param(t, &ct_params[i]);
}
