/* loadfactor.c — a growable table takes every insert up to its
 * max_load_factor, for every max_load_factor the config accepts ((0, 1]):
 * growth happens "before size would pass it", so no key of a batch may come
 * back REJECTED_FULL (status HIVE_ERROR_TABLE_FULL) while the table could
 * still grow.  Tried at 0.90, 0.95, 0.97 and 1.00, with one large insert and
 * with many small ones, from initial_capacity 1024, and with many small ones
 * without a results array (the keys to run again after a growth are then
 * the batch's own marks, core/marks.h); every key is then found.
 * The other suites use load factors up to 0.90, so that a failure here is
 * reported once, by this suite. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

#define N 20000

static const ct_param lf_params[] = {
    {0.90, 0.00, 31},
    {0.95, 0.00, 32},
    {0.97, 0.00, 33},
    {1.00, 0.00, 34},
};

static void one_param(const ht_target *t, const ct_param *p)
{
    ht_rng rng;
    ht_rng_seed(&rng, p->seed * 1000 + 8);
    uint64_t *keys = malloc(N * sizeof *keys);
    ht_unique_keys(t, &rng, keys, N, NULL);
    ht_batch b;
    ht_batch_init(&b, t, N);
    static const char *const how[3] = {"one call", "small calls", "small calls without results"};
    for (int mode = 0; mode < 3; mode++) {
        int small = mode > 0, with_results = mode < 2;
        char name[64];
        snprintf(name, sizeof name, "loadfactor (%s)", how[mode]);
        hive_config c;
        hive_table *table = ct_open(t, name, p, 1024, &c);
        uint64_t rejected = 0, other = 0, calls = 0, full_calls = 0;
        hive_stats first; /* right after the first call that rejected keys */
        memset(&first, 0, sizeof first);
        size_t off = 0;
        while (off < N) {
            size_t n = small ? (size_t)ht_rng_log_size(&rng, 2048) : N;
            if (n > N - off)
                n = N - off;
            ct_fill(t, &b, keys + off, n, &rng);
            ht_batch_poison_flags(&b);
            hive_status s = hive_insert(table, n, b.keys, b.values, HIVE_COMBINE_ASSIGN,
                                        with_results ? b.results : NULL, NULL);
            calls++;
            full_calls += s == HIVE_ERROR_TABLE_FULL;
            other += s != HIVE_SUCCESS && s != HIVE_ERROR_TABLE_FULL;
            uint64_t before = rejected;
            for (size_t i = 0; with_results && i < n; i++) {
                rejected += b.results[i] == HIVE_RESULT_REJECTED_FULL;
                other += b.results[i] != HIVE_RESULT_INSERTED &&
                         b.results[i] != HIVE_RESULT_REJECTED_FULL;
            }
            if ((before == 0 && rejected > 0) || (!with_results && s == HIVE_ERROR_TABLE_FULL))
                HT_MUST(hive_stats_get(table, &first));
            off += n;
        }
        hive_stats st;
        HT_MUST(hive_stats_get(table, &st));
        HT_CHECK(rejected == 0 && full_calls == 0,
                 "%llu of %d new keys REJECTED_FULL (%llu of %llu calls returned TABLE_FULL) in a "
                 "growable table at max_load_factor %.2f; the first rejection left %llu keys in "
                 "%llu slots (load %.3f, %u slots per bucket, stash %llu/%llu full) and the table "
                 "did not grow",
                 (unsigned long long)rejected, N, (unsigned long long)full_calls,
                 (unsigned long long)calls, c.max_load_factor, (unsigned long long)first.size,
                 (unsigned long long)first.capacity, first.load_factor, first.bucket_slots,
                 (unsigned long long)first.stash_size, (unsigned long long)first.stash_capacity);
        HT_CHECK_EQ(other, 0, "statuses or results other than SUCCESS / INSERTED / REJECTED_FULL");
        /* What was accepted is all there. */
        HT_CHECK_EQ(st.size + rejected, N, "size + rejected keys");
        if (!with_results && full_calls == 0) {
            ct_fill(t, &b, keys, N, &rng);
            HT_MUST(hive_contains(table, N, b.keys, b.found, NULL));
            uint64_t missing = 0;
            for (size_t i = 0; i < N; i++)
                missing += b.found[i] != 1;
            HT_CHECK_EQ(missing, 0, "keys missing after inserts without results");
        }
        printf("  max_load_factor %.2f, %s: %llu of %d keys rejected (first at load %.3f), %llu grows\n",
               c.max_load_factor, how[mode], (unsigned long long)rejected, N, first.load_factor,
               (unsigned long long)st.grows);
        ht_close(table);
    }
    ht_batch_free(&b);
    free(keys);
}

void ct_suite_loadfactor(const ht_target *t)
{
    for (size_t i = 0; i < sizeof lf_params / sizeof lf_params[0]; i++)
        one_param(t, &lf_params[i]);
}
