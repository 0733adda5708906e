/* growth.c — growth and shrinking: from initial_capacity 1024 to about 10^6
 * keys in one call and in many small calls, then erasing 95% of the keys
 * (in one call, or in many) so that the table shrinks when min_load_factor >
 * 0 and keeps its capacity when it is 0; then growing again.  Values are
 * checked after every step: each small call checks its own keys, its
 * results and the size, plus a sample of earlier keys; each phase ends with
 * a find of every key and an export. */
#include <stdio.h>
#include <stdlib.h>

#include "conformance.h"

uint64_t ct_growth_keys = 1000000;

static const struct {
    ct_param p;
    unsigned keys_div; /* grows to ct_growth_keys / keys_div keys */
} growth_params[] = {
    {{0.90, 0.25, 11}, 1},
    {{0.50, 0.20, 12}, 4},
    {{0.85, 0.00, 13}, 2}, /* never shrinks */
};

/* Finds `count` random keys of keys[0..n) and compares with the reference. */
static void sample_check(const ht_target *t, hive_table *table, const ht_ref *ref,
                         const uint64_t *keys, size_t n, size_t count, ht_rng *rng, ht_batch *s,
                         const char *where)
{
    if (n == 0)
        return;
    s->n = count < s->cap ? count : s->cap;
    for (size_t i = 0; i < s->n; i++) {
        ht_put(t, s->keys, i, keys[ht_rng_below(rng, n)]);
        ht_put(t, s->values, i, ht_rng_next(rng) & t->value_mask);
    }
    /* A FIND batch leaves the reference as it is. */
    ht_run_unique(t, table, (ht_ref *)ref, s, HT_CALL_FIND, HIVE_COMBINE_KEEP, HT_PASS_ALL, 0,
                  where);
}

static void phase_end(const ht_target *t, hive_table *table, const ht_ref *ref,
                      const hive_config *c, ht_batch *b, hive_stats *st, const char *where)
{
    ht_expect_finds(t, table, ref, b, where);
    ht_expect_contents(t, table, ref, where);
    ht_expect_stats(t, table, c, st, where);
}

/* Erases keys[0..n) except every 20th, in calls of `step` keys (0: one call). */
static void erase_95(const ht_target *t, hive_table *table, ht_ref *ref, ht_batch *b,
                     const uint64_t *keys, size_t n, size_t step, ht_rng *rng, uint64_t *erased,
                     size_t *n_erased)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (i % 20 != 0)
            erased[m++] = keys[i];
    *n_erased = m;
    size_t off = 0;
    while (off < m) {
        size_t k = step == 0 ? m : (size_t)ht_rng_log_size(rng, step);
        if (k > m - off)
            k = m - off;
        ct_fill(t, b, erased + off, k, rng);
        ht_run_unique(t, table, ref, b, HT_CALL_ERASE, HIVE_COMBINE_KEEP, HT_PASS_ALL, 0,
                      step == 0 ? "erase 95% in one call" : "erase 95% in small calls");
        off += k;
    }
}

static void one_param(const ht_target *t, const ct_param *p, size_t M)
{
    ht_rng rng;
    ht_rng_seed(&rng, p->seed * 1000 + 6);
    uint64_t *keys = malloc(M * sizeof *keys);
    uint64_t *erased = malloc(M * sizeof *erased);
    ht_unique_keys(t, &rng, keys, M, NULL);
    ht_batch b, s;
    ht_batch_init(&b, t, M);
    ht_batch_init(&s, t, 256);
    hive_stats st0, st1, st2;

    for (int small_calls = 0; small_calls < 2; small_calls++) {
        hive_config c;
        hive_table *table = ct_open(t, small_calls ? "growth (small calls)" : "growth (one call)",
                                    p, 1024, &c);
        ht_ref ref;
        ht_ref_init(&ref);
        ht_expect_stats(t, table, &c, &st0, "before growth");

        /* Grow to M keys. */
        if (!small_calls) {
            ct_fill(t, &b, keys, M, &rng);
            ht_run_unique(t, table, &ref, &b, HT_CALL_INSERT, HIVE_COMBINE_ASSIGN, HT_PASS_ALL, 1,
                          "insert ~10^6 keys in one call");
        } else {
            size_t off = 0;
            while (off < M) {
                size_t k = (size_t)ht_rng_log_size(&rng, 4096);
                if (k > M - off)
                    k = M - off;
                ct_fill(t, &b, keys + off, k, &rng);
                ht_run_unique(t, table, &ref, &b, HT_CALL_INSERT,
                              (hive_combine)ht_rng_below(&rng, 5), HT_PASS_ALL, 1,
                              "insert in small calls");
                off += k;
                sample_check(t, table, &ref, keys, off, 32, &rng, &s, "sample after a small insert");
            }
        }
        phase_end(t, table, &ref, &c, &b, &st1, "after growth");
        HT_CHECK(st1.grows > 0 && st1.capacity > st0.capacity &&
                     (double)st1.capacity * c.max_load_factor >= (double)M,
                 "growth to %zu keys: capacity %llu -> %llu, %llu grows", M,
                 (unsigned long long)st0.capacity, (unsigned long long)st1.capacity,
                 (unsigned long long)st1.grows);

        /* Erase 95%. */
        size_t n_erased = 0;
        erase_95(t, table, &ref, &b, keys, M, small_calls ? 8192 : 0, &rng, erased, &n_erased);
        phase_end(t, table, &ref, &c, &b, &st2, "after erasing 95%");
        ht_expect_absent(t, table, erased, n_erased, &b, "erased keys");
        if (c.min_load_factor > 0) {
            HT_CHECK(st2.shrinks > 0 && st2.capacity < st1.capacity,
                     "erasing 95%% with min_load_factor %g: capacity %llu -> %llu, %llu shrinks",
                     c.min_load_factor, (unsigned long long)st1.capacity,
                     (unsigned long long)st2.capacity, (unsigned long long)st2.shrinks);
            HT_CHECK(st2.load_factor >= c.min_load_factor || st2.capacity < 2 * c.initial_capacity,
                     "after shrinking, load factor %g is still under min_load_factor %g "
                     "(capacity %llu)",
                     st2.load_factor, c.min_load_factor, (unsigned long long)st2.capacity);
        } else {
            HT_CHECK(st2.shrinks == 0 && st2.capacity == st1.capacity,
                     "min_load_factor 0 must never shrink: capacity %llu -> %llu, %llu shrinks",
                     (unsigned long long)st1.capacity, (unsigned long long)st2.capacity,
                     (unsigned long long)st2.shrinks);
        }

        /* Grow again with the erased keys. */
        ct_fill(t, &b, erased, n_erased, &rng);
        ht_run_unique(t, table, &ref, &b, HT_CALL_INSERT, HIVE_COMBINE_MAX, HT_PASS_ALL, 1,
                      "insert the erased keys again");
        phase_end(t, table, &ref, &c, &b, &st2, "after growing again");

        ht_ref_free(&ref);
        ht_close(table);
    }
    ht_batch_free(&b);
    ht_batch_free(&s);
    free(keys);
    free(erased);
}

/* Growth is for new keys only: a table filled to its bound takes batches of
 * updates of its own keys (hive_insert ASSIGN and ADD, hive_apply UPSERT and
 * INSERT) without growing; and churn over 1,024 hot keys (mixed batches of
 * inserts, upserts, erases and finds of distinct hot keys) neither grows nor
 * shrinks the table on call after call. */
#define HOT_KEYS 1024
#define CHURN_CALLS 300
#define CHURN_BATCH 512

static void updates_and_churn(const ht_target *t, const ct_param *p)
{
    ht_rng rng;
    ht_rng_seed(&rng, p->seed * 1000 + 7);
    hive_config c;
    hive_table *table = ct_open(t, "growth (updates of a full table)", p, 50000, &c);
    hive_stats st;
    HT_MUST(hive_stats_get(table, &st));
    size_t n = (size_t)(p->max_load_factor * (double)st.capacity);
    uint64_t *keys = malloc(n * sizeof *keys);
    ht_unique_keys(t, &rng, keys, n, NULL);
    ht_batch b;
    ht_batch_init(&b, t, n);
    ht_ref ref;
    ht_ref_init(&ref);
    ct_fill(t, &b, keys, n, &rng);
    ht_run_unique(t, table, &ref, &b, HT_CALL_INSERT, HIVE_COMBINE_ASSIGN, HT_PASS_ALL, 1,
                  "fill to max_load_factor");
    hive_stats full;
    HT_MUST(hive_stats_get(table, &full));
    for (int round = 0; round < 4; round++) {
        ct_fill(t, &b, keys + round * 1000, 1000, &rng);
        for (size_t i = 0; i < b.n; i++)
            b.ops[i] = round == 3 ? HIVE_OP_INSERT : HIVE_OP_UPSERT;
        ht_run_unique(t, table, &ref, &b, round >= 2 ? HT_CALL_APPLY : HT_CALL_INSERT,
                      round == 1 ? HIVE_COMBINE_ADD : HIVE_COMBINE_ASSIGN, HT_PASS_ALL, 1,
                      "1,000 updates of present keys");
        HT_MUST(hive_stats_get(table, &st));
        HT_CHECK_EQ(st.capacity, full.capacity, "round %d: 1,000 updates of a full table grew it", round);
    }
    ht_expect_contents(t, table, &ref, "after the updates");
    ht_ref_free(&ref);
    ht_close(table);

    table = ct_open(t, "growth (churn over 1,024 hot keys)", p, 1024, &c);
    ht_ref_init(&ref);
    uint64_t hot[HOT_KEYS];
    ht_unique_keys(t, &rng, hot, HOT_KEYS, NULL);
    for (int call = 0; call < CHURN_CALLS; call++) {
        ht_shuffle(&rng, hot, HOT_KEYS);
        ct_fill(t, &b, hot, CHURN_BATCH, &rng);
        for (size_t i = 0; i < b.n; i++)
            b.ops[i] = (uint8_t)(ht_rng_next(&rng) % 4); /* FIND, INSERT, UPSERT, ERASE */
        ht_run_unique(t, table, &ref, &b, HT_CALL_APPLY, HIVE_COMBINE_ASSIGN, HT_PASS_ALL, 1,
                      "a mixed batch of hot keys");
    }
    HT_MUST(hive_stats_get(table, &st));
    HT_CHECK(st.grows + st.shrinks <= 4,
             "%d mixed batches over %d hot keys: %llu grows and %llu shrinks (the table must not "
             "swing with the churn)", CHURN_CALLS, HOT_KEYS, (unsigned long long)st.grows,
             (unsigned long long)st.shrinks);
    ht_expect_contents(t, table, &ref, "after the churn");
    ht_ref_free(&ref);
    ht_close(table);
    ht_batch_free(&b);
    free(keys);
}

void ct_suite_growth(const ht_target *t)
{
    for (size_t i = 0; i < sizeof growth_params / sizeof growth_params[0]; i++)
        one_param(t, &growth_params[i].p, (size_t)ct_growth_keys / growth_params[i].keys_div);
    for (size_t i = 0; i < ct_param_count; i++)
        updates_and_churn(t, &ct_params[i]);
}
