/* differential.c — the two-level table against an oracle, call by call.
 *
 *   hive-tiered-differential <cpu|cuda> [--scale F] [--seed S]
 *
 * For each key stream (uniform, Zipf 0.99), hot tier size (1%, 10%, 100% of
 * a universe of U keys, U = 4096 times the scale) and promotion policy
 * (ON_FIND, ON_FIND one in 4, NEVER), 240 calls drawn at random: upserts (repeats inside a
 * batch included: the last occurrence wins), finds and erases of 1..600
 * keys from the stream, plus keys never inserted.  The staging batch is 256
 * keys in half the configurations, so that calls span several steps and a
 * key repeated across steps still takes its last value.
 *
 * Checked after every call: each find's found flag and value against the
 * oracle (absent keys' value entries untouched), each erase's results (a key
 * erased once however often it is repeated), sizes (size == oracle == cold:
 * every key is cold; hot within capacity and the size); every 20 calls and
 * at the end every key of the universe.  A stale hot copy shows in the next
 * find of its key, a stale cold key once its copy is evicted, which the 1%
 * and 10% runs must have done, and with ON_FIND promoted some.
 *
 * `large`: calls of 2^17 keys and more (times the scale), so that the
 * host loops of a step (staging, deduplication, compaction) are shared out
 * over the worker pool in many blocks: a whole universe upserted in one call
 * with a fifth of it repeated at the end (the repeats' values win), finds of
 * the universe and as many absent keys (most of them cold: promotion of
 * tens of thousands of keys at once), Zipf upserts, an erase of a third,
 * each checked against the oracle.
 *
 * The arrays come from HIVE_TIERED_TEST_MEMORY's memory (tiered_test.h), so
 * that the finds run over the caller's arrays or staged, as registered. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tiered_test.h"

#define CALLS 240
#define MAX_KEYS 600
#define POISON 0x5A5A5A5A5A5A5A5Aull

static ht_target T;

typedef struct run_cfg {
    double zipf;
    double hot_fraction;
    hive_tiered_promote promote;
    uint32_t one_in; /* promote_one_in */
    uint32_t batch;
} run_cfg;

static void check_find(hive_tiered *t, const ht_ref *oracle, const uint64_t *keys, uint64_t n,
                       uint64_t *values, uint8_t *found)
{
    for (uint64_t i = 0; i < n; i++)
        values[i] = POISON;
    memset(found, 2, n);
    HT_CHECK_STATUS(hive_tiered_find(t, n, keys, values, found, NULL), HIVE_SUCCESS, "find of %llu keys",
                    (unsigned long long)n);
    uint64_t ok = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t want = 0;
        int present = ht_ref_get(oracle, keys[i], &want);
        if (found[i] == present && values[i] == (present ? want : POISON)) {
            ok++;
            continue;
        }
        HT_CHECK(0, "find key %llx: found %u value %llx, the oracle: %s %llx",
                 (unsigned long long)keys[i], found[i], (unsigned long long)values[i],
                 present ? "present" : "absent", (unsigned long long)want);
    }
    ht_pass_(ok);
}

static void check_erase(hive_tiered *t, ht_ref *oracle, const uint64_t *keys, uint64_t n, uint8_t *results)
{
    memset(results, 0xEE, n);
    HT_CHECK_STATUS(hive_tiered_erase(t, n, keys, results, NULL), HIVE_SUCCESS, "erase of %llu keys",
                    (unsigned long long)n);
    /* Per distinct key: ERASED exactly once if the oracle had it, never
     * otherwise; every other occurrence NOT_FOUND. */
    ht_ref erased;
    ht_ref_init(&erased);
    for (uint64_t i = 0; i < n; i++) {
        HT_CHECK(results[i] == HIVE_RESULT_ERASED || results[i] == HIVE_RESULT_NOT_FOUND,
                 "erase key %llx: result %s", (unsigned long long)keys[i], ht_result_name(results[i]));
        if (results[i] == HIVE_RESULT_ERASED) {
            uint64_t count = 0;
            ht_ref_get(&erased, keys[i], &count);
            ht_ref_put(&erased, keys[i], count + 1);
        }
    }
    for (uint64_t i = 0; i < n; i++) {
        uint64_t count = 0;
        ht_ref_get(&erased, keys[i], &count);
        int present = ht_ref_get(oracle, keys[i], NULL);
        if (present || count != 0)
            HT_CHECK_EQ(count, (uint64_t)present, "erase key %llx: times erased",
                        (unsigned long long)keys[i]);
    }
    for (uint64_t i = 0; i < n; i++)
        ht_ref_del(oracle, keys[i]);
    ht_ref_free(&erased);
}

static void run(const run_cfg *rc, uint64_t universe, uint64_t seed)
{
    ht_context("%s, hot %.0f%%, promote %s 1/%u, batch %u, seed %llu", rc->zipf ? "Zipf 0.99" : "uniform",
               rc->hot_fraction * 100, rc->promote == HIVE_TIERED_PROMOTE_NEVER ? "never" : "on find",
               rc->one_in, rc->batch, (unsigned long long)seed);
    hive_tiered_config c = tt_config(&T);
    c.hot_capacity = (uint64_t)((double)universe * rc->hot_fraction);
    c.cold_capacity = 1024;
    c.promote = rc->promote;
    c.promote_one_in = rc->one_in;
    c.batch = rc->batch;
    hive_tiered *t = tt_open(&T, &c);

    tt_stream z;
    tt_stream_init(&z, universe, rc->zipf);
    ht_rng rng;
    ht_rng_seed(&rng, seed);
    ht_ref oracle;
    ht_ref_init(&oracle);
    /* The universe, and as many keys never inserted (another salt). */
    uint64_t all_n = 2 * universe;
    uint64_t *all = tt_array(&T, all_n * sizeof *all);
    for (uint64_t r = 0; r < universe; r++) {
        all[r] = tt_key(r, 1);
        all[universe + r] = tt_key(r, 2);
    }
    uint64_t *keys = tt_array(&T, MAX_KEYS * sizeof *keys), *values = tt_array(&T, MAX_KEYS * sizeof *values);
    uint8_t *flags = tt_array(&T, MAX_KEYS);

    for (int call = 0; call < CALLS; call++) {
        uint64_t n = 1 + ht_rng_below(&rng, MAX_KEYS);
        for (uint64_t i = 0; i < n; i++)
            keys[i] = ht_rng_chance(&rng, 0.05) ? all[universe + ht_rng_below(&rng, universe)]
                                                : all[tt_stream_next(&z, &rng)];
        /* Upserts lead early on, so that the table fills; then an even mix. */
        unsigned op = call < 20 ? 0 : (unsigned)ht_rng_below(&rng, 3);
        if (op == 0) {
            for (uint64_t i = 0; i < n; i++) {
                values[i] = ht_rng_next(&rng);
                ht_ref_put(&oracle, keys[i], values[i]); /* in order: the last occurrence wins */
            }
            HT_CHECK_STATUS(hive_tiered_upsert(t, n, keys, values, NULL), HIVE_SUCCESS,
                            "call %d: upsert of %llu keys", call, (unsigned long long)n);
        } else if (op == 1) {
            check_find(t, &oracle, keys, n, values, flags);
        } else {
            check_erase(t, &oracle, keys, n, flags);
        }
        tt_check_sizes(t, &oracle);
        if (call % 20 == 19 && tt_check_all(t, &oracle, all, all_n, MAX_KEYS) != 0)
            break; /* one report of a broken table is enough */
    }
    /* Again the whole universe, now that nothing erases: refill first. */
    for (uint64_t at = 0; at < universe; at += MAX_KEYS) {
        uint64_t n = universe - at < MAX_KEYS ? universe - at : MAX_KEYS;
        for (uint64_t i = 0; i < n; i++) {
            values[i] = ht_rng_next(&rng);
            ht_ref_put(&oracle, all[at + i], values[i]);
        }
        HT_CHECK_STATUS(hive_tiered_upsert(t, n, all + at, values, NULL), HIVE_SUCCESS, "refill at %llu",
                        (unsigned long long)at);
    }
    tt_check_all(t, &oracle, all, all_n, MAX_KEYS);

    hive_tiered_stats s = tt_stats(t);
    if (rc->hot_fraction < 1) {
        HT_CHECK(s.evicted > 0, "%s", "no hot copy was evicted with a hot tier smaller than the keys");
        if (rc->promote == HIVE_TIERED_PROMOTE_ON_FIND)
            HT_CHECK(s.promoted > 0, "%s", "no key was promoted");
        if (rc->one_in > 1) /* about a quarter of the cold hits (fewer: repeats move once) */
            HT_CHECK(s.promoted < s.cold_hits / 2, "promoted %llu of %llu cold hits, one in %u",
                     (unsigned long long)s.promoted, (unsigned long long)s.cold_hits, rc->one_in);
    }
    if (rc->promote == HIVE_TIERED_PROMOTE_NEVER)
        HT_CHECK_EQ(s.promoted, 0, "%s", "keys promoted under PROMOTE_NEVER");
    printf("  %-40s hot %5llu / %5llu, cold %5llu; hits hot %llu cold %llu, promoted %llu, evicted %llu\n",
           ht_context_text(), (unsigned long long)s.hot_size, (unsigned long long)s.hot_capacity,
           (unsigned long long)s.cold_size, (unsigned long long)s.hot_hits,
           (unsigned long long)s.cold_hits, (unsigned long long)s.promoted,
           (unsigned long long)s.evicted);

    tt_close(t);
    tt_array_free(&T, all);
    tt_array_free(&T, keys);
    tt_array_free(&T, values);
    tt_array_free(&T, flags);
    ht_ref_free(&oracle);
    tt_stream_free(&z);
}

static void large(uint64_t universe, uint64_t seed)
{
    ht_context("large, universe %llu, seed %llu", (unsigned long long)universe, (unsigned long long)seed);
    hive_tiered_config c = tt_config(&T);
    c.hot_capacity = universe / 10;
    c.cold_capacity = 1024;
    hive_tiered *t = tt_open(&T, &c);
    ht_rng rng;
    ht_rng_seed(&rng, seed);
    ht_ref oracle;
    ht_ref_init(&oracle);
    uint64_t all_n = 2 * universe, n = universe + universe / 5;
    uint64_t *all = tt_array(&T, all_n * sizeof *all), *keys = tt_array(&T, n * sizeof *keys);
    uint64_t *values = tt_array(&T, n * sizeof *values);
    uint8_t *flags = tt_array(&T, n);
    for (uint64_t r = 0; r < universe; r++) {
        all[r] = tt_key(r, 3);
        all[universe + r] = tt_key(r, 4);
    }
    /* The universe, then a fifth of it again with other values. */
    for (uint64_t i = 0; i < n; i++) {
        keys[i] = all[i < universe ? i : ht_rng_below(&rng, universe)];
        values[i] = ht_rng_next(&rng);
        ht_ref_put(&oracle, keys[i], values[i]);
    }
    HT_CHECK_STATUS(hive_tiered_upsert(t, n, keys, values, NULL), HIVE_SUCCESS, "%s", "upsert of the universe");
    tt_check_sizes(t, &oracle);
    tt_check_all(t, &oracle, all, all_n, all_n);
    tt_stream z;
    tt_stream_init(&z, universe, 0.99);
    uint64_t m = universe * 3 / 4;
    for (uint64_t i = 0; i < m; i++) {
        keys[i] = all[tt_stream_next(&z, &rng)];
        values[i] = ht_rng_next(&rng);
        ht_ref_put(&oracle, keys[i], values[i]);
    }
    HT_CHECK_STATUS(hive_tiered_upsert(t, m, keys, values, NULL), HIVE_SUCCESS, "%s", "Zipf upserts");
    tt_check_sizes(t, &oracle);
    check_find(t, &oracle, all, universe, values, flags);
    for (uint64_t i = 0; i < universe / 3; i++)
        keys[i] = all[ht_rng_below(&rng, all_n)];
    check_erase(t, &oracle, keys, universe / 3, flags);
    tt_check_sizes(t, &oracle);
    tt_check_all(t, &oracle, all, all_n, all_n);
    hive_tiered_stats s = tt_stats(t);
    HT_CHECK(s.promoted > universe / 4, "promoted %llu of a universe of %llu", (unsigned long long)s.promoted,
             (unsigned long long)universe);
    printf("  %-40s hot %llu, cold %llu; hits hot %llu cold %llu, promoted %llu, evicted %llu\n",
           ht_context_text(), (unsigned long long)s.hot_size, (unsigned long long)s.cold_size,
           (unsigned long long)s.hot_hits, (unsigned long long)s.cold_hits, (unsigned long long)s.promoted,
           (unsigned long long)s.evicted);
    tt_stream_free(&z);
    tt_close(t);
    tt_array_free(&T, all);
    tt_array_free(&T, keys);
    tt_array_free(&T, values);
    tt_array_free(&T, flags);
    ht_ref_free(&oracle);
}

int main(int argc, char **argv)
{
    const char *usage = "<cpu|cuda> [--scale F] [--seed S]";
    ct_target_from_args(&T, argc, argv, usage);
    double scale = 1.0;
    uint64_t seed = 1;
    for (int a = 2; a < argc; a++) {
        if (strcmp(argv[a], "--scale") == 0 && a + 1 < argc)
            scale = atof(argv[++a]);
        else if (strcmp(argv[a], "--seed") == 0 && a + 1 < argc)
            seed = strtoull(argv[++a], NULL, 0);
        else {
            fprintf(stderr, "usage: %s %s\n", argv[0], usage);
            return HT_EXIT_FAIL;
        }
    }
    uint64_t universe = (uint64_t)(4096 * scale);
    if (universe < 1024)
        universe = 1024;
    static char name[96];
    snprintf(name, sizeof name, "tiered differential %s (universe %llu, %s arrays)", T.backend_name,
             (unsigned long long)universe, tt_memory_name());
    ht_begin(name);
    const double zipfs[] = {0, 0.99}, fractions[] = {0.01, 0.10, 1.0};
    const hive_tiered_promote promotes[] = {HIVE_TIERED_PROMOTE_ON_FIND, HIVE_TIERED_PROMOTE_ON_FIND,
                                            HIVE_TIERED_PROMOTE_NEVER};
    const uint32_t one_in[] = {1, 4, 1};
    int k = 0;
    for (int zi = 0; zi < 2; zi++)
        for (int fi = 0; fi < 3; fi++)
            for (int pi = 0; pi < 3; pi++, k++) {
                run_cfg rc = {zipfs[zi], fractions[fi], promotes[pi], one_in[pi], (zi + fi) % 2 ? 256u : 4096u};
                run(&rc, universe, seed + (uint64_t)k);
            }
    uint64_t big = (uint64_t)((double)(1u << 17) * scale);
    large(big < 65536 ? 65536 : big, seed + 100);
    return ht_finish();
}
