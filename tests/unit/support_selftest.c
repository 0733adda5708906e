/* support_selftest.c — the tests' own machinery, tested without hive tables:
 * the reference map against a plain array indexed by key (a universe of
 * 4096 keys, 10^6 random puts/gets/deletes, through many rebuilds), the
 * combine modes, and that a failing check is counted and fails the run.
 *
 *   hive-support-selftest */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hivetest.h"

#define UNIVERSE 4096

static void reference_map(void)
{
    ht_context("reference map against an array");
    ht_rng rng;
    ht_rng_seed(&rng, 1);
    ht_ref r;
    ht_ref_init(&r);
    uint8_t present[UNIVERSE] = {0};
    uint64_t value[UNIVERSE] = {0};
    size_t live = 0;
    uint64_t bad = 0;
    for (int i = 0; i < 1000000; i++) {
        /* Keys spread over the 64-bit range, one per universe slot. */
        uint64_t u = ht_rng_below(&rng, UNIVERSE), key = u * 0x9E3779B97F4A7C15ull;
        uint64_t v = ht_rng_next(&rng), got = 0;
        switch (ht_rng_below(&rng, 3)) {
        case 0:
            ht_ref_put(&r, key, v);
            live += !present[u];
            present[u] = 1;
            value[u] = v;
            break;
        case 1:
            bad += ht_ref_del(&r, key) != present[u];
            live -= present[u];
            present[u] = 0;
            break;
        default:
            bad += ht_ref_get(&r, key, &got) != present[u] || (present[u] && got != value[u]);
        }
        bad += ht_ref_size(&r) != live;
        /* Every so often, empty most of it so that rebuilds shrink too. */
        if (i % 100000 == 99999)
            for (u = 0; u < UNIVERSE; u++)
                if (present[u] && ht_rng_chance(&rng, 0.9)) {
                    bad += !ht_ref_del(&r, u * 0x9E3779B97F4A7C15ull);
                    present[u] = 0;
                    live--;
                }
    }
    size_t seen = 0;
    for (size_t i = 0; i < r.cap; i++)
        if (r.state[i] == HT_REF_LIVE) {
            uint64_t u = r.keys[i] * 0xF1DE83E19937733Dull; /* inverse of the multiplier */
            bad += u >= UNIVERSE || !present[u] || value[u] != r.values[i];
            seen++;
        }
    HT_CHECK_EQ(seen, live, "live slots found by iteration");
    HT_CHECK_EQ(bad, 0, "reference map disagreements with the array");
    ht_ref_free(&r);
}

static void combine_modes(void)
{
    ht_context("combine modes");
    const uint64_t m32 = 0xFFFFFFFFull;
    HT_CHECK_EQ(ht_combine(HIVE_COMBINE_KEEP, 5, 9, m32), 5, "KEEP");
    HT_CHECK_EQ(ht_combine(HIVE_COMBINE_ASSIGN, 5, 9, m32), 9, "ASSIGN");
    HT_CHECK_EQ(ht_combine(HIVE_COMBINE_ADD, m32, 2, m32), 1, "ADD wraps in 32 bits");
    HT_CHECK_EQ(ht_combine(HIVE_COMBINE_ADD, ~0ull, 2, ~0ull), 1, "ADD wraps in 64 bits");
    HT_CHECK_EQ(ht_combine(HIVE_COMBINE_MIN, 5, 9, m32), 5, "MIN");
    HT_CHECK_EQ(ht_combine(HIVE_COMBINE_MAX, 5, 9, m32), 9, "MAX");
    ht_ref r;
    ht_ref_init(&r);
    HT_CHECK_EQ(ht_ref_upsert(&r, 7, 3, HIVE_COMBINE_KEEP, m32), HIVE_RESULT_INSERTED, "absent");
    HT_CHECK_EQ(ht_ref_upsert(&r, 7, 4, HIVE_COMBINE_KEEP, m32), HIVE_RESULT_EXISTED, "KEEP");
    HT_CHECK_EQ(ht_ref_upsert(&r, 7, 4, HIVE_COMBINE_MIN, m32), HIVE_RESULT_UPDATED,
                "MIN reports UPDATED even when the value stays");
    uint64_t v = 0;
    HT_CHECK_EQ(ht_ref_find(&r, 7, &v), HIVE_RESULT_FOUND, "find");
    HT_CHECK_EQ(v, 3, "value after MIN");
    v = 99;
    HT_CHECK_EQ(ht_ref_apply(&r, HIVE_OP_FIND, 8, &v, HIVE_COMBINE_ADD, m32),
                HIVE_RESULT_NOT_FOUND, "apply FIND absent");
    HT_CHECK_EQ(v, 99, "apply FIND absent leaves the value");
    HT_CHECK_EQ(ht_ref_erase(&r, 7), HIVE_RESULT_ERASED, "erase");
    HT_CHECK_EQ(ht_ref_erase(&r, 7), HIVE_RESULT_NOT_FOUND, "erase again");
    ht_ref_free(&r);
}

static void rng_ranges(void)
{
    ht_context("random numbers");
    ht_rng a, b;
    ht_rng_seed(&a, 42);
    ht_rng_seed(&b, 42);
    uint64_t differ = 0, out = 0, small = 0;
    for (int i = 0; i < 100000; i++)
        differ += ht_rng_next(&a) != ht_rng_next(&b);
    for (int i = 0; i < 100000; i++) {
        uint64_t s = ht_rng_log_size(&a, 50000);
        out += s < 1 || s > 50000;
        small += s <= 10;
    }
    HT_CHECK_EQ(differ, 0, "one seed, one stream");
    HT_CHECK_EQ(out, 0, "log sizes outside 1..50000");
    HT_CHECK(small > 10000, "log-uniform sizes: %llu of 100000 in 1..10", (unsigned long long)small);
}

int main(void)
{
    /* A failing check is counted and makes the run fail. */
    ht_begin("support self-test (deliberate failure)");
    ht_context("deliberate failure");
    fprintf(stderr, "(the next FAIL line is deliberate)\n");
    HT_CHECK_EQ(1, 2, "this check must fail");
    int failed_ok = ht_failure_count() == 1 && ht_check_count() == 1;

    ht_begin("support self-test");
    HT_CHECK(failed_ok, "a failing check was not counted");
    reference_map();
    combine_modes();
    rng_ranges();
    return ht_finish();
}
