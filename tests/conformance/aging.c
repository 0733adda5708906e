/* aging.c — churn at a steady size (WarpSpeed's aging test, reference spec
 * §2.5): a table loaded near max_load_factor, then rounds of one hive_apply
 * each that inserts new keys, erases the oldest as many, finds keys inserted
 * two rounds before and looks for keys never inserted.  The erases leave
 * tombstones, which the designs that reclaim them turn back into free slots
 * between batches (api/policy.c, churn relief) many times over the rounds;
 * the others reuse them under the lock.  Every result, value and the size
 * are checked after each round against the keys the test holds, every key
 * is found every 40 rounds, and the whole table is exported at the end. */
#include <stdio.h>
#include <stdlib.h>

#include "conformance.h"

#define ROUNDS 240
#define ROUND_SHARE 100 /* each op a round: 1/ROUND_SHARE of the slots */

static void one_param(const ht_target *t, const ct_param *p)
{
    hive_config c;
    hive_stats st0, st;
    ht_rng rng;
    ht_rng_seed(&rng, p->seed * 7919 + 17);
    hive_table *table = ct_open(t, "aging", p, 8192, &c);
    HT_MUST(hive_stats_get(table, &st0));
    size_t held = (size_t)(0.94 * p->max_load_factor * (double)st0.capacity);
    size_t s = (size_t)(st0.capacity / ROUND_SHARE);
    size_t total = held + (size_t)ROUNDS * s;
    /* keys[0, total): inserted in order, erased in order (FIFO); misses:
     * never inserted. */
    uint64_t *keys = malloc((total + s) * sizeof *keys), *values = malloc(total * sizeof *values);
    ht_unique_keys(t, &rng, keys, total + s, NULL);
    const uint64_t *misses = keys + total;
    ht_batch b;
    ht_batch_init(&b, t, held > 4 * s ? held : 4 * s);
    ct_fill(t, &b, keys, held, &rng);
    for (size_t i = 0; i < held; i++)
        values[i] = ht_get(t, b.values, i);
    HT_MUST(hive_insert(table, held, b.keys, b.values, HIVE_COMBINE_ASSIGN, NULL, b.stream));

    size_t oldest = 0, next = held;
    for (int r = 0; r < ROUNDS; r++) {
        /* Element 4j + (0 insert, 1 erase, 2 find, 3 miss), j < s. */
        b.n = 4 * s;
        for (size_t j = 0; j < s; j++) {
            values[next + j] = ht_random_value(t, &rng);
            b.ops[4 * j] = HIVE_OP_INSERT;
            ht_put(t, b.keys, 4 * j, keys[next + j]);
            ht_put(t, b.values, 4 * j, values[next + j]);
            b.ops[4 * j + 1] = HIVE_OP_ERASE;
            ht_put(t, b.keys, 4 * j + 1, keys[oldest + j]);
            b.ops[4 * j + 2] = HIVE_OP_FIND;
            ht_put(t, b.keys, 4 * j + 2, keys[next - 2 * s + j]);
            b.ops[4 * j + 3] = HIVE_OP_FIND;
            ht_put(t, b.keys, 4 * j + 3, misses[j]);
        }
        ht_batch_poison_flags(&b);
        HT_CHECK_STATUS(hive_apply(table, b.n, b.ops, b.keys, b.values, HIVE_COMBINE_ASSIGN, b.results,
                                   b.stream),
                        HIVE_SUCCESS, "round %d: apply", r);
        size_t bad = 0;
        for (size_t j = 0; j < s; j++) {
            bad += b.results[4 * j] != HIVE_RESULT_INSERTED;
            bad += b.results[4 * j + 1] != HIVE_RESULT_ERASED;
            bad += b.results[4 * j + 2] != HIVE_RESULT_FOUND ||
                   ht_get(t, b.values, 4 * j + 2) != values[next - 2 * s + j];
            bad += b.results[4 * j + 3] != HIVE_RESULT_NOT_FOUND;
        }
        HT_CHECK_EQ(bad, 0, "round %d: results (INSERTED, ERASED, FOUND with its value, NOT_FOUND)", r);
        oldest += s;
        next += s;
        HT_MUST(hive_stats_get(table, &st));
        HT_CHECK_EQ(st.size, next - oldest, "round %d: size", r);
        if (bad != 0 || st.size != next - oldest)
            break;
        if (r % 40 == 39 || r == ROUNDS - 1) {
            ht_ref ref;
            ht_ref_init(&ref);
            for (size_t i = oldest; i < next; i++)
                ht_ref_put(&ref, keys[i], values[i]);
            char where[64];
            snprintf(where, sizeof where, "after %d rounds of churn", r + 1);
            ht_expect_finds(t, table, &ref, &b, where);
            ht_expect_absent(t, table, keys, oldest < b.cap ? oldest : b.cap, &b, where);
            if (r == ROUNDS - 1)
                ht_expect_contents(t, table, &ref, where);
            ht_ref_free(&ref);
        }
    }
    free(keys);
    free(values);
    ht_batch_free(&b);
    ht_close(table);
}

void ct_suite_aging(const ht_target *t)
{
    for (size_t i = 0; i < ct_param_count; i++)
        one_param(t, &ct_params[i]);
}
