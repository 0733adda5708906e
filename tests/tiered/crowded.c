/* crowded.c — the two-level table where its hot tier overflows on purpose:
 * keys aimed at one or two buckets of the hot cache (its own placement), so
 * that every new key evicts, and which keys have hot copies is known.  The
 * scenarios but `dual` give each key one hot bucket (hot_dual_bucket 0).
 *
 *   hive-tiered-crowded <cpu|cuda> [--scale F] [--seed S]
 *
 * `demote` (PROMOTE_NEVER, hot tier of two 32-slot buckets): 64 keys of
 * bucket 0 upserted one a call leave the last 32 with hot copies (LRU; 32
 * evicted) and all 64 cold; a find reports each where it is answered (hot
 * or cold hits); a key without a hot copy upserted gets one and evicts the
 * least recent; erased then, it is gone (no cold copy comes back); a hot key
 * dropped, updated (hot again) and dropped once more keeps its last value;
 * an erase of a key with a hot copy removes both, of one without only the
 * cold; one batch of 100 new keys of bucket 0, each twice with two values,
 * keeps every key with its second value (the batch evicts its own keys); a
 * batch over buckets 0 and 1 and an erase of half of it.
 *
 * `promote` (PROMOTE_ON_FIND, one bucket): a find of a cold key gives it a
 * hot copy (cold hit, promoted, one entry evicted), a second find is a hot
 * hit, the key it displaced is answered cold; a find repeating a cold key
 * ten times sends it up ten times, which gives it one copy and evicts one.
 *
 * `dual` (PROMOTE_NEVER, two buckets a key, four buckets): 64 keys whose
 * first bucket is 0 and second 1, upserted one a call, all get hot copies
 * (each new one takes the emptier bucket); keys of buckets 2 and 3 beside them
 * keep theirs; one more key of 0 and 1 evicts the least recent of the 64
 * (the older of the two buckets' oldest); a batch of 100 such keys, each
 * twice, keeps the second values.
 *
 * `repeats`: batches of 20,000 pairs over 43 keys and reserved ones, and
 * of 4,096 pairs of one key: the last occurrence of each key wins.
 *
 * After every call: every key (aimed and a few never inserted) against the
 * oracle, sizes, cold == size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tiered_test.h"

#define MAX_KEYS 512

static ht_target T;
static ht_rng rng;
static ht_ref oracle, taken;
static uint64_t universe[MAX_KEYS];
static uint64_t universe_n;

/* A new key of the universe whose hot bucket is b1 of `buckets`, and
 * where `dual`, whose second is b2. */
static uint64_t aimed_at(uint64_t buckets, uint32_t dual, uint64_t b1, uint64_t b2)
{
    uint64_t k = ct_aimed_key(&rng, TT_HOT_SEED, buckets, dual, b1, (int)dual, b2, &taken);
    if (universe_n < MAX_KEYS)
        universe[universe_n++] = k;
    return k;
}

/* One bucket a key: its bucket is `bucket`. */
static uint64_t aimed(uint64_t buckets, uint64_t bucket) { return aimed_at(buckets, 0, bucket, 0); }

/* Two buckets a key: b1 and b2. */
static uint64_t aimed2(uint64_t buckets, uint64_t b1, uint64_t b2) { return aimed_at(buckets, 1, b1, b2); }

static void check(hive_tiered *t, const char *what)
{
    ht_context("%s", what);
    tt_check_all(t, &oracle, universe, universe_n, MAX_KEYS);
}

static void upsert(hive_tiered *t, uint64_t n, const uint64_t *keys, const uint64_t *values)
{
    for (uint64_t i = 0; i < n; i++)
        ht_ref_put(&oracle, keys[i], values[i]);
    HT_CHECK_STATUS(hive_tiered_upsert(t, n, keys, values, NULL), HIVE_SUCCESS, "upsert of %llu keys",
                    (unsigned long long)n);
}

static void upsert1(hive_tiered *t, uint64_t key, uint64_t value) { upsert(t, 1, &key, &value); }

static void erase1(hive_tiered *t, uint64_t key, unsigned want)
{
    uint8_t r = 0xEE;
    HT_CHECK_STATUS(hive_tiered_erase(t, 1, &key, &r, NULL), HIVE_SUCCESS, "erase of %llx",
                    (unsigned long long)key);
    HT_CHECK_EQ(r, want, "erase of %llx", (unsigned long long)key);
    ht_ref_del(&oracle, key);
}

/* A find of one key that must be answered by the tier `hot` says (1: hot
 * hit, 0: cold hit), with the oracle's value. */
static void find_in(hive_tiered *t, uint64_t key, int hot)
{
    hive_tiered_stats before = tt_stats(t);
    uint64_t v = 0, want = 0;
    uint8_t f = 2;
    HT_CHECK_STATUS(hive_tiered_find(t, 1, &key, &v, &f, NULL), HIVE_SUCCESS, "find of %llx",
                    (unsigned long long)key);
    HT_CHECK(ht_ref_get(&oracle, key, &want) && f == 1 && v == want, "find of %llx: found %u value %llx",
             (unsigned long long)key, f, (unsigned long long)v);
    hive_tiered_stats after = tt_stats(t);
    HT_CHECK_EQ(after.hot_hits - before.hot_hits, (uint64_t)hot, "key %llx: hot hits", (unsigned long long)key);
    HT_CHECK_EQ(after.cold_hits - before.cold_hits, (uint64_t)!hot, "key %llx: cold hits",
                (unsigned long long)key);
}

/* Hot copies and cold keys (every key). */
static void tiers(hive_tiered *t, uint64_t hot, uint64_t cold, const char *what)
{
    hive_tiered_stats s = tt_stats(t);
    HT_CHECK_EQ(s.hot_size, hot, "%s: hot size", what);
    HT_CHECK_EQ(s.cold_size, cold, "%s: cold size", what);
}

/* A new table with a hot tier of hot_capacity entries, one or two buckets
 * a key, and an empty oracle and universe for it. */
static hive_tiered *fresh(uint64_t hot_capacity, hive_tiered_promote promote, uint32_t dual)
{
    ht_ref_clear(&oracle);
    universe_n = 0;
    hive_tiered_config c = tt_config(&T);
    c.hot_capacity = hot_capacity;
    c.promote = promote;
    c.hot_dual_bucket = dual;
    return tt_open(&T, &c);
}

static void demote(void)
{
    hive_tiered *t = fresh(64, HIVE_TIERED_PROMOTE_NEVER, 0);
    hive_tiered_config c = HIVE_TIERED_CONFIG_INIT;
    HT_MUST(hive_tiered_get_config(t, &c));
    HT_CHECK_EQ(c.hot_capacity, 64, "%s", "hot capacity");
    const uint64_t B = 2;
    for (int i = 0; i < 4; i++)
        aimed(B, (uint64_t)i % 2); /* never inserted: absent all along */

    uint64_t a[64];
    for (int i = 0; i < 64; i++)
        a[i] = aimed(B, 0);
    for (int i = 0; i < 32; i++)
        upsert1(t, a[i], 100 + (uint64_t)i);
    tiers(t, 32, 32, "32 keys of one bucket");
    check(t, "demote: 32 keys");
    for (int i = 32; i < 64; i++) {
        upsert1(t, a[i], 100 + (uint64_t)i);
        check(t, "demote: filling past the bucket");
    }
    tiers(t, 32, 64, "64 keys of one bucket");
    HT_CHECK_EQ(tt_stats(t).evicted, 32, "%s", "hot copies evicted");
    for (int i = 0; i < 64; i += 9)
        find_in(t, a[i], i >= 32);

    /* A key without a hot copy written again gets one; erased, nothing of it is left. */
    upsert1(t, a[0], 7000);
    tiers(t, 32, 64, "a cold key upserted");
    find_in(t, a[0], 1);
    find_in(t, a[32], 0); /* the least recent hot copy was evicted for it */
    erase1(t, a[0], HIVE_RESULT_ERASED);
    tiers(t, 31, 63, "the upserted key erased");
    check(t, "demote: no resurrection after erase");

    /* A hot copy evicted, the key updated, evicted again: its last value. */
    uint64_t b[32], d[32];
    for (int i = 0; i < 32; i++)
        b[i] = aimed(B, 0), d[i] = aimed(B, 0);
    for (int i = 0; i < 32; i++)
        upsert1(t, b[i], 200 + (uint64_t)i);
    find_in(t, a[63], 0);
    upsert1(t, a[63], 8000);
    find_in(t, a[63], 1);
    for (int i = 0; i < 32; i++)
        upsert1(t, d[i], 300 + (uint64_t)i);
    find_in(t, a[63], 0);
    check(t, "demote: a hot copy evicted twice");

    /* Erases of keys with and without hot copies. */
    hive_tiered_stats s = tt_stats(t);
    erase1(t, a[5], HIVE_RESULT_ERASED); /* no hot copy since the first fill */
    tiers(t, s.hot_size, s.cold_size - 1, "a cold key erased");
    erase1(t, d[31], HIVE_RESULT_ERASED); /* the most recent */
    tiers(t, s.hot_size - 1, s.cold_size - 2, "a key with a hot copy erased");
    erase1(t, a[5], HIVE_RESULT_NOT_FOUND);
    check(t, "demote: erases with and without hot copies");

    /* One batch of 100 new keys of bucket 0, each twice: the second value. */
    uint64_t keys[200], values[200];
    for (int i = 0; i < 100; i++) {
        keys[i] = keys[100 + i] = aimed(B, 0);
        values[i] = 400 + (uint64_t)i;
        values[100 + i] = 500 + (uint64_t)i;
    }
    upsert(t, 200, keys, values);
    check(t, "demote: a batch larger than its bucket, each key twice");

    /* Both buckets in one batch, then half of it erased across the tiers. */
    for (int i = 0; i < 120; i++) {
        keys[i] = aimed(B, (uint64_t)i % 2);
        values[i] = 600 + (uint64_t)i;
    }
    upsert(t, 120, keys, values);
    check(t, "demote: two buckets in one batch");
    uint8_t results[120];
    HT_CHECK_STATUS(hive_tiered_erase(t, 60, keys + 30, results, NULL), HIVE_SUCCESS, "%s",
                    "erase of 60 keys");
    for (int i = 0; i < 60; i++) {
        HT_CHECK_EQ(results[i], HIVE_RESULT_ERASED, "erase of key %d", 30 + i);
        ht_ref_del(&oracle, keys[30 + i]);
    }
    check(t, "demote: half a two-bucket batch erased");
    HT_CHECK_EQ(tt_stats(t).cold_size, ht_ref_size(&oracle), "%s", "cold size after the erases");
    tt_close(t);
}

static void promote(void)
{
    hive_tiered *t = fresh(32, HIVE_TIERED_PROMOTE_ON_FIND, 0);
    const uint64_t B = 1;
    uint64_t a[64];
    for (int i = 0; i < 64; i++) {
        a[i] = aimed(B, 0);
        upsert1(t, a[i], 900 + (uint64_t)i);
    }
    tiers(t, 32, 64, "64 keys over a 32-entry hot tier");
    hive_tiered_stats before = tt_stats(t);
    find_in(t, a[0], 0);
    hive_tiered_stats after = tt_stats(t);
    HT_CHECK_EQ(after.promoted - before.promoted, 1, "%s", "a cold find: promoted");
    HT_CHECK_EQ(after.evicted - before.evicted, 1, "%s", "a cold find: one hot copy evicted");
    tiers(t, 32, 64, "one key promoted");
    find_in(t, a[0], 1);
    find_in(t, a[32], 0); /* displaced by a[0]; this find brings it back up */

    /* A cold key repeated ten times in one find: found ten times, sent up ten
     * times, one copy (one eviction), a hot hit next. */
    uint64_t keys[10], values[10];
    uint8_t found[10];
    for (int i = 0; i < 10; i++)
        keys[i] = a[1];
    before = tt_stats(t);
    HT_CHECK_STATUS(hive_tiered_find(t, 10, keys, values, found, NULL), HIVE_SUCCESS, "%s",
                    "find of one key ten times");
    for (int i = 0; i < 10; i++)
        HT_CHECK(found[i] == 1 && values[i] == 901, "repeat %d: found %u value %llu", i, found[i],
                 (unsigned long long)values[i]);
    after = tt_stats(t);
    HT_CHECK_EQ(after.promoted - before.promoted, 10, "%s", "a key repeated in a find: sent up");
    HT_CHECK_EQ(after.evicted - before.evicted, 1, "%s", "a key repeated in a find: copies evicted");
    tiers(t, 32, 64, "after promotions");
    find_in(t, a[1], 1);
    check(t, "promote: every key (the check's finds promote too)");
    check(t, "promote: again, after the check's own promotions");
    tt_close(t);
}

static void dual(void)
{
    hive_tiered *t = fresh(4 * 32, HIVE_TIERED_PROMOTE_NEVER, 1);
    const uint64_t B = 4;
    uint64_t other[8];
    for (int i = 0; i < 8; i++) {
        other[i] = aimed2(B, 2, 3);
        upsert1(t, other[i], 50 + (uint64_t)i);
    }
    uint64_t a[64];
    for (int i = 0; i < 64; i++) {
        a[i] = aimed2(B, 0, 1); /* one bucket a key would hold 32 of them */
        upsert1(t, a[i], 100 + (uint64_t)i);
    }
    tiers(t, 72, 72, "64 keys of buckets 0 and 1, 8 of 2 and 3");
    HT_CHECK_EQ(tt_stats(t).evicted, 0, "%s", "two buckets of 32 hold 64 keys");
    check(t, "dual: a bucket pair filled");
    for (int i = 0; i < 64; i += 7)
        find_in(t, a[i], 1);

    uint64_t x = aimed2(B, 0, 1);
    upsert1(t, x, 7000);
    tiers(t, 72, 73, "one more key of buckets 0 and 1");
    HT_CHECK_EQ(tt_stats(t).evicted, 1, "%s", "a full pair evicts one copy");
    find_in(t, x, 1);
    find_in(t, a[0], 0); /* the least recent of the pair's copies */
    find_in(t, a[1], 1);
    for (int i = 0; i < 8; i++)
        find_in(t, other[i], 1);
    check(t, "dual: the older of the two buckets' oldest evicted");

    uint64_t keys[200], values[200];
    for (int i = 0; i < 100; i++) {
        keys[i] = keys[100 + i] = aimed2(B, 0, 1);
        values[i] = 400 + (uint64_t)i;
        values[100 + i] = 500 + (uint64_t)i;
    }
    upsert(t, 200, keys, values);
    check(t, "dual: a batch larger than its bucket pair, each key twice");
    for (int i = 0; i < 8; i++)
        find_in(t, other[i], 1);
    tt_close(t);
}

/* Repeats across a whole batch: 20,000 pairs over 43 keys (three of them
 * in most pairs, so that a key repeats within warps and across thousands
 * of them), with reserved keys among them, then 4,096 pairs of one key.
 * Each key keeps the value of its last occurrence, the reserved ones are
 * skipped (RESERVED_KEY, never stored).  On a CUDA hot tier the pairs are
 * made unique on the GPU (cuda_cache_unique.cuh; steps of 4,096 pairs and
 * more, tiered_write.c). */
static void repeats(void)
{
    hive_tiered *t = fresh(64, HIVE_TIERED_PROMOTE_NEVER, 0);
    enum { N = 20000, KEYS = 43 };
    uint64_t pool[KEYS];
    for (int k = 0; k < KEYS; k++)
        pool[k] = aimed(2, (uint64_t)k % 2);
    uint64_t *keys = (uint64_t *)tt_array(&T, N * sizeof(uint64_t));
    uint64_t *values = (uint64_t *)tt_array(&T, N * sizeof(uint64_t));
    for (uint64_t round = 0; round < 3; round++) {
        uint64_t reserved = 0;
        for (uint64_t i = 0; i < N; i++) {
            uint64_t r = ht_rng_next(&rng) % 100;
            keys[i] = i % 101 == 7 ? HIVE_KV64_RESERVED_MIN + (i & 3) : pool[r < 90 ? r % 3 : 3 + r % (KEYS - 3)];
            values[i] = round << 32 | (i + 1);
            if (keys[i] >= HIVE_KV64_RESERVED_MIN)
                reserved++;
            else
                ht_ref_put(&oracle, keys[i], values[i]);
        }
        HT_CHECK(reserved > 0, "%s", "reserved keys among the pairs");
        HT_CHECK_STATUS(hive_tiered_upsert(t, N, keys, values, NULL), HIVE_ERROR_RESERVED_KEY,
                        "round %llu: 20,000 pairs of 43 keys and reserved ones", (unsigned long long)round);
        check(t, "repeats: the last of thousands of pairs of a key wins");
    }
    for (uint64_t i = 0; i < 4096; i++) {
        keys[i] = pool[5];
        values[i] = 7000 + i;
    }
    ht_ref_put(&oracle, pool[5], 7000 + 4095);
    HT_CHECK_STATUS(hive_tiered_upsert(t, 4096, keys, values, NULL), HIVE_SUCCESS, "%s", "4,096 pairs of one key");
    check(t, "repeats: a batch of one key");
    tt_array_free(&T, keys);
    tt_array_free(&T, values);
    tt_close(t);
}

int main(int argc, char **argv)
{
    const char *usage = "<cpu|cuda> [--scale F] [--seed S]";
    ct_target_from_args(&T, argc, argv, usage);
    uint64_t seed = 1;
    for (int a = 2; a < argc; a++) {
        if (strcmp(argv[a], "--scale") == 0 && a + 1 < argc)
            a++; /* fixed sizes: the scenario is the point */
        else if (strcmp(argv[a], "--seed") == 0 && a + 1 < argc)
            seed = strtoull(argv[++a], NULL, 0);
        else {
            fprintf(stderr, "usage: %s %s\n", argv[0], usage);
            return HT_EXIT_FAIL;
        }
    }
    static char name[96];
    snprintf(name, sizeof name, "tiered crowded %s (seed %llu)", T.backend_name, (unsigned long long)seed);
    ht_begin(name);
    ht_rng_seed(&rng, seed);
    ht_ref_init(&oracle);
    ht_ref_init(&taken);
    demote();
    promote();
    dual();
    repeats();
    ht_ref_free(&oracle);
    ht_ref_free(&taken);
    return ht_finish();
}
