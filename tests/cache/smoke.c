/* smoke.c — one pass over the cache table's calls on the CPU backend: the
 * API layer's first check (the suite beside it tests each call in depth).
 * A cache of one bucket (32 slots, CUSTOM scores) is filled, a low score is
 * refused, a high one evicts the lowest, keys are updated, accumulated,
 * erased, missed and exported; the cache is saved to a file and loaded into
 * a second one; a larger LRU cache takes twice its capacity in one
 * parallel call and loses nothing. */
#define _POSIX_C_SOURCE 200809L /* fileno */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hivetest.h"

#define DIM 4
#define SLOTS 32

/* Element j of key k's value, as stored at tag t. */
static float value_of(uint64_t k, int j, int t) { return (float)(k * 8 + (uint64_t)j + (uint64_t)t * 1000); }

static void fill_values(float *v, const uint64_t *keys, uint64_t n, int t)
{
    for (uint64_t i = 0; i < n; i++)
        for (int j = 0; j < DIM; j++)
            v[i * DIM + j] = value_of(keys[i], j, t);
}

static hive_cache *open_custom(void)
{
    hive_cache_config config = HIVE_CACHE_CONFIG_INIT;
    config.backend = HIVE_BACKEND_CPU;
    config.capacity = SLOTS;
    config.dim = DIM;
    config.policy = HIVE_SCORE_CUSTOM;
    config.bucket_slots = SLOTS;
    config.threads = 2;
    hive_cache *cache = NULL;
    HT_MUST(hive_cache_create(&config, &cache));
    return cache;
}

static uint64_t size_of(hive_cache *cache)
{
    uint64_t size = 0;
    HT_MUST(hive_cache_size(cache, &size));
    return size;
}

/* Keys 1..32 with scores 10 * key fill the one bucket. */
static void fill(hive_cache *cache)
{
    uint64_t keys[SLOTS], scores[SLOTS];
    float values[SLOTS * DIM];
    uint8_t results[SLOTS];
    for (uint64_t i = 0; i < SLOTS; i++)
        keys[i] = i + 1, scores[i] = 10 * (i + 1);
    fill_values(values, keys, SLOTS, 0);
    HT_CHECK_STATUS(hive_cache_insert_or_assign(cache, SLOTS, keys, values, scores, results, NULL),
                    HIVE_SUCCESS, "fill");
    for (int i = 0; i < SLOTS; i++)
        HT_CHECK_EQ(results[i], HIVE_RESULT_INSERTED, "key %llu", (unsigned long long)keys[i]);
    HT_CHECK_EQ(size_of(cache), SLOTS, "after the fill");

    float got[SLOTS * DIM];
    uint8_t found[SLOTS];
    uint64_t got_scores[SLOTS];
    HT_CHECK_STATUS(hive_cache_find(cache, SLOTS, keys, got, found, got_scores, NULL), HIVE_SUCCESS, "find");
    for (int i = 0; i < SLOTS; i++) {
        HT_CHECK_EQ(found[i], 1, "key %llu", (unsigned long long)keys[i]);
        HT_CHECK_EQ(got_scores[i], scores[i], "key %llu", (unsigned long long)keys[i]);
        HT_CHECK(memcmp(got + i * DIM, values + i * DIM, sizeof(float) * DIM) == 0, "key %llu value",
                 (unsigned long long)keys[i]);
    }
}

/* A score below the bucket's lowest (10) is refused; one above evicts key 1. */
static void evict(hive_cache *cache)
{
    uint64_t key = 100, score = 5, ev_keys[1], ev_scores[1], count = 9;
    float value[DIM], ev_values[DIM];
    fill_values(value, &key, 1, 0);
    HT_CHECK_STATUS(hive_cache_insert_and_evict(cache, 1, &key, value, &score, ev_keys, ev_values,
                                                ev_scores, &count, NULL),
                    HIVE_SUCCESS, "refused");
    HT_CHECK_EQ(count, 1, "the refused key goes out");
    HT_CHECK_EQ(ev_keys[0], 100, "refused key");
    HT_CHECK_EQ(ev_scores[0], 5, "refused score");
    HT_CHECK(memcmp(ev_values, value, sizeof value) == 0, "refused value");

    key = 101, score = 1000;
    fill_values(value, &key, 1, 0);
    HT_CHECK_STATUS(hive_cache_insert_and_evict(cache, 1, &key, value, &score, ev_keys, ev_values,
                                                ev_scores, &count, NULL),
                    HIVE_SUCCESS, "evicting");
    HT_CHECK_EQ(count, 1, "one entry leaves");
    HT_CHECK_EQ(ev_keys[0], 1, "the lowest-scored key leaves");
    HT_CHECK_EQ(ev_scores[0], 10, "with its score");
    HT_CHECK(ev_values[0] == value_of(1, 0, 0) && ev_values[DIM - 1] == value_of(1, DIM - 1, 0),
             "with its value");
    uint64_t probe[2] = {1, 101};
    uint8_t found[2];
    HT_CHECK_STATUS(hive_cache_contains(cache, 2, probe, found, NULL), HIVE_SUCCESS, "contains");
    HT_CHECK(found[0] == 0 && found[1] == 1, "key 1 gone, key 101 in");
    HT_CHECK_EQ(size_of(cache), SLOTS, "a full cache stays full");
}

/* Update, accumulate, reserved key, erase, find_missed, argument checks. */
static void update_and_erase(hive_cache *cache)
{
    uint64_t key = 2, score = 7;
    float value[DIM], got[DIM];
    uint8_t result = 0, found = 0;
    fill_values(value, &key, 1, 1);
    HT_CHECK_STATUS(hive_cache_insert_or_assign(cache, 1, &key, value, &score, &result, NULL), HIVE_SUCCESS,
                    "update");
    HT_CHECK_EQ(result, HIVE_RESULT_UPDATED, "key 2");
    uint8_t flag = 1;
    HT_CHECK_STATUS(hive_cache_accum_or_assign(cache, 1, &key, value, &flag, &score, &result, NULL),
                    HIVE_SUCCESS, "accumulate");
    HT_CHECK_EQ(result, HIVE_RESULT_UPDATED, "key 2 accumulated");
    HT_CHECK_STATUS(hive_cache_find(cache, 1, &key, got, &found, NULL, NULL), HIVE_SUCCESS, "find key 2");
    HT_CHECK(found && got[0] == 2 * value_of(2, 0, 1) && got[DIM - 1] == 2 * value_of(2, DIM - 1, 1),
             "key 2 holds twice its new value");

    uint64_t reserved = HIVE_KV64_RESERVED_MIN;
    HT_CHECK_STATUS(hive_cache_insert_or_assign(cache, 1, &reserved, value, &score, &result, NULL),
                    HIVE_ERROR_RESERVED_KEY, "reserved key");
    HT_CHECK_EQ(result, HIVE_RESULT_REJECTED_RESERVED, "reserved key");
    HT_CHECK_STATUS(hive_cache_insert_or_assign(cache, 1, &key, value, NULL, NULL, NULL),
                    HIVE_ERROR_INVALID_ARGUMENT, "CUSTOM takes scores");

    key = 3;
    HT_CHECK_STATUS(hive_cache_erase(cache, 1, &key, &result, NULL), HIVE_SUCCESS, "erase");
    HT_CHECK_EQ(result, HIVE_RESULT_ERASED, "key 3");
    HT_CHECK_EQ(size_of(cache), SLOTS - 1, "after the erase");

    uint64_t keys[3] = {2, 3, 999}, missed[3], indices[3], count = 0;
    HT_CHECK_STATUS(hive_cache_find_missed(cache, 3, keys, NULL, NULL, missed, indices, &count, NULL),
                    HIVE_SUCCESS, "find_missed");
    HT_CHECK_EQ(count, 2, "keys 3 and 999 missed");
    HT_CHECK(count == 2 && indices[0] + indices[1] == 3 && missed[0] + missed[1] == 1002,
             "missed keys and their indices");
}

typedef struct snapshot {
    uint64_t n, keys[SLOTS], scores[SLOTS];
    float values[SLOTS * DIM];
} snapshot;

/* The whole cache in two export calls of half the slots each. */
static void export_all(hive_cache *cache, snapshot *s)
{
    uint64_t half = SLOTS / 2, a = 0, b = 0;
    HT_CHECK_STATUS(hive_cache_export(cache, 0, half, NULL, s->keys, s->values, s->scores, &a, NULL),
                    HIVE_SUCCESS, "export, first half");
    HT_CHECK_STATUS(hive_cache_export(cache, half, half, NULL, s->keys + a, s->values + a * DIM,
                                      s->scores + a, &b, NULL),
                    HIVE_SUCCESS, "export, second half");
    s->n = a + b;
    HT_CHECK_EQ(s->n, size_of(cache), "export finds every entry");
    HT_CHECK_STATUS(hive_cache_export(cache, 1, SLOTS, NULL, s->keys, NULL, NULL, &a, NULL),
                    HIVE_ERROR_INVALID_ARGUMENT, "export past the capacity");
}

/* Saved to a file and loaded into a fresh cache: the same entries. */
static void save_and_load(hive_cache *cache)
{
    snapshot before, after;
    export_all(cache, &before);
    FILE *f = tmpfile();
    if (f == NULL)
        ht_fatal("tmpfile failed");
    uint64_t saved = 0, loaded = 0;
    HT_CHECK_STATUS(hive_cache_save_fd(cache, fileno(f), &saved), HIVE_SUCCESS, "save");
    HT_CHECK_EQ(saved, before.n, "entries saved");
    lseek(fileno(f), 0, SEEK_SET);
    hive_cache *copy = open_custom();
    HT_CHECK_STATUS(hive_cache_load_fd(copy, fileno(f), &loaded), HIVE_SUCCESS, "load");
    HT_CHECK_EQ(loaded, before.n, "entries loaded");
    fclose(f);

    export_all(copy, &after);
    HT_CHECK_EQ(after.n, before.n, "the copy's size");
    uint8_t found[SLOTS];
    uint64_t scores[SLOTS];
    float values[SLOTS * DIM];
    HT_CHECK_STATUS(hive_cache_find(copy, before.n, before.keys, values, found, scores, NULL), HIVE_SUCCESS,
                    "find in the copy");
    for (uint64_t i = 0; i < before.n; i++) {
        HT_CHECK(found[i] && scores[i] == before.scores[i] &&
                     memcmp(values + i * DIM, before.values + i * DIM, sizeof(float) * DIM) == 0,
                 "key %llu in the copy", (unsigned long long)before.keys[i]);
    }
    uint64_t erased = 0;
    const hive_cache_filter all = {0, 0, 0, UINT64_MAX};
    HT_CHECK_STATUS(hive_cache_erase_if(copy, &all, &erased, NULL), HIVE_SUCCESS, "erase_if all");
    HT_CHECK_EQ(erased, before.n, "erase_if erases every entry");
    HT_CHECK_EQ(size_of(copy), 0, "after erase_if");
    HT_CHECK_STATUS(hive_cache_destroy(copy), HIVE_SUCCESS, "destroy the copy");
}

/* 2^17 distinct keys into 2^16 LRU slots in one call (the workers share
 * it): every key is either in the cache or reported evicted. */
static void overfill_lru(void)
{
    enum { CAP = 1 << 16, N = 1 << 17 };
    hive_cache_config config = HIVE_CACHE_CONFIG_INIT;
    config.backend = HIVE_BACKEND_CPU;
    config.capacity = CAP;
    config.dual_bucket = 1;
    config.threads = 2;
    hive_cache *cache = NULL;
    HT_MUST(hive_cache_create(&config, &cache));
    ht_target t;
    ht_target_init(&t, HIVE_BACKEND_CPU, HIVE_KV64);
    uint64_t *keys = ht_alloc(&t, 3 * N * sizeof(uint64_t));
    uint64_t *ev_keys = keys + N, *ev_scores = keys + 2 * N, count = 0;
    float *values = ht_alloc(&t, 2 * N * sizeof(float));
    for (uint64_t i = 0; i < N; i++)
        keys[i] = i * 0x9E3779B97F4A7C15ull >> 8, values[i] = (float)i;
    HT_CHECK_STATUS(hive_cache_insert_or_assign(cache, 1, keys, values, ev_scores, NULL, NULL),
                    HIVE_ERROR_INVALID_ARGUMENT, "LRU takes no scores");
    HT_CHECK_STATUS(hive_cache_insert_and_evict(cache, N, keys, values, NULL, ev_keys, values + N, ev_scores,
                                                &count, NULL),
                    HIVE_SUCCESS, "overfill");
    uint64_t size = size_of(cache);
    HT_CHECK(size <= CAP && size > CAP / 2, "size %llu of %u slots", (unsigned long long)size, CAP);
    HT_CHECK_EQ(size + count, N, "entries kept and evicted");
    double lf = 0;
    HT_CHECK_STATUS(hive_cache_load_factor(cache, &lf), HIVE_SUCCESS, "load factor");
    HT_CHECK(lf == (double)size / CAP, "load factor %g", lf);
    HT_CHECK_STATUS(hive_cache_clear(cache, NULL), HIVE_SUCCESS, "clear");
    HT_CHECK_EQ(size_of(cache), 0, "after clear");
    ht_free(&t, keys);
    ht_free(&t, values);
    HT_CHECK_STATUS(hive_cache_destroy(cache), HIVE_SUCCESS, "destroy");
}

int main(void)
{
    ht_begin("cache smoke cpu");
    hive_cache *cache = open_custom();
    uint64_t capacity = 0;
    HT_CHECK_STATUS(hive_cache_capacity(cache, &capacity), HIVE_SUCCESS, "capacity");
    HT_CHECK_EQ(capacity, SLOTS, "one bucket");
    fill(cache);
    evict(cache);
    update_and_erase(cache);
    save_and_load(cache);
    HT_CHECK_STATUS(hive_cache_destroy(cache), HIVE_SUCCESS, "destroy");
    overfill_lru();
    return ht_finish();
}
