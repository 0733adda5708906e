/* concurrency.c — one two-level table used from several host threads at
 * once (hive.h: calls on one handle are serialised by its lock).
 *
 *   hive-tiered-concurrency <cpu|cuda> [--scale F] [--seed S]
 *
 * Four threads, each with its own keys (all aimed at the same few hot
 * buckets, so that each thread's upserts evict the others' hot copies and
 * its finds promote its own back), run 60 rounds each: an upsert of a batch of
 * its keys with new values, a find of every key it owns (each found with
 * its latest value: no other thread's call may lose or change it), and an
 * erase of a few.  A fifth thread asks for the size and stats throughout
 * (hot within its capacity and the cold size at every moment a call can
 * see).  At the end: every
 * key of every thread against its oracle. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tiered_test.h"

#define THREADS 4
#define KEYS 400
#define ROUNDS 60

static ht_target T;
static hive_tiered *table;
static int stop;

typedef struct worker {
    int id;
    uint64_t keys[KEYS], values[KEYS];
    uint8_t live[KEYS];
    ht_rng rng;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    uint64_t batch[KEYS], vals[KEYS], out[KEYS];
    uint8_t found[KEYS];
    for (int round = 0; round < ROUNDS; round++) {
        uint64_t n = 1 + ht_rng_below(&w->rng, KEYS);
        for (uint64_t i = 0; i < n; i++) {
            uint64_t k = ht_rng_below(&w->rng, KEYS);
            batch[i] = w->keys[k];
            vals[i] = ht_rng_next(&w->rng);
            w->values[k] = vals[i]; /* in order: the last occurrence wins */
            w->live[k] = 1;
        }
        HT_CHECK_STATUS(hive_tiered_upsert(table, n, batch, vals, NULL), HIVE_SUCCESS, "thread %d round %d",
                        w->id, round);
        HT_CHECK_STATUS(hive_tiered_find(table, KEYS, w->keys, out, found, NULL), HIVE_SUCCESS,
                        "thread %d round %d find", w->id, round);
        uint64_t ok = 0;
        for (int k = 0; k < KEYS; k++) {
            if (found[k] == w->live[k] && (!w->live[k] || out[k] == w->values[k])) {
                ok++;
                continue;
            }
            HT_CHECK(0, "thread %d round %d key %d: found %u value %llx, expected %u %llx", w->id, round, k,
                     found[k], (unsigned long long)out[k], w->live[k], (unsigned long long)w->values[k]);
        }
        ht_pass_(ok);
        for (int e = 0; e < 8; e++) {
            uint64_t k = ht_rng_below(&w->rng, KEYS);
            uint8_t r = 0;
            HT_CHECK_STATUS(hive_tiered_erase(table, 1, &w->keys[k], &r, NULL), HIVE_SUCCESS, "thread %d erase",
                            w->id);
            HT_CHECK_EQ(r, w->live[k] ? HIVE_RESULT_ERASED : HIVE_RESULT_NOT_FOUND, "thread %d erase of key %d",
                        w->id, (int)k);
            w->live[k] = 0;
        }
    }
    return NULL;
}

static void *watch(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
        hive_tiered_stats s;
        uint64_t size = 0;
        HT_CHECK_STATUS(hive_tiered_stats_get(table, &s), HIVE_SUCCESS, "%s", "stats");
        HT_CHECK_STATUS(hive_tiered_size(table, &size), HIVE_SUCCESS, "%s", "size");
        HT_CHECK(s.hot_size <= s.hot_capacity && s.hot_size <= s.cold_size, "hot %llu over %llu or cold %llu",
                 (unsigned long long)s.hot_size, (unsigned long long)s.hot_capacity,
                 (unsigned long long)s.cold_size);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    const char *usage = "<cpu|cuda> [--scale F] [--seed S]";
    ct_target_from_args(&T, argc, argv, usage);
    uint64_t seed = 1;
    for (int a = 2; a < argc; a++) {
        if (strcmp(argv[a], "--scale") == 0 && a + 1 < argc)
            a++; /* fixed sizes */
        else if (strcmp(argv[a], "--seed") == 0 && a + 1 < argc)
            seed = strtoull(argv[++a], NULL, 0);
        else {
            fprintf(stderr, "usage: %s %s\n", argv[0], usage);
            return HT_EXIT_FAIL;
        }
    }
    static char name[96];
    snprintf(name, sizeof name, "tiered concurrency %s (seed %llu)", T.backend_name, (unsigned long long)seed);
    ht_begin(name);
    hive_tiered_config c = tt_config(&T);
    c.hot_capacity = 4 * 32; /* four buckets, for 1600 keys */
    table = tt_open(&T, &c);
    ht_rng rng;
    ht_rng_seed(&rng, seed);
    ht_ref taken;
    ht_ref_init(&taken);
    static worker w[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i].id = i;
        ht_rng_seed(&w[i].rng, seed * 100 + (uint64_t)i);
        for (int k = 0; k < KEYS; k++)
            w[i].keys[k] = ct_aimed_key(&rng, TT_HOT_SEED, 4, 0, (uint64_t)k % 4, 0, 0, &taken);
    }
    pthread_t th[THREADS], watcher;
    pthread_create(&watcher, NULL, watch, NULL);
    for (int i = 0; i < THREADS; i++)
        pthread_create(&th[i], NULL, work, &w[i]);
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
    pthread_join(watcher, NULL);

    ht_ref oracle;
    ht_ref_init(&oracle);
    uint64_t all[THREADS * KEYS];
    for (int i = 0; i < THREADS; i++)
        for (int k = 0; k < KEYS; k++) {
            all[i * KEYS + k] = w[i].keys[k];
            if (w[i].live[k])
                ht_ref_put(&oracle, w[i].keys[k], w[i].values[k]);
        }
    tt_check_all(table, &oracle, all, THREADS * KEYS, THREADS * KEYS);
    hive_tiered_stats s = tt_stats(table);
    HT_CHECK(s.evicted > 0 && s.promoted > 0, "evicted %llu, promoted %llu", (unsigned long long)s.evicted,
             (unsigned long long)s.promoted);
    tt_close(table);
    ht_ref_free(&oracle);
    ht_ref_free(&taken);
    return ht_finish();
}
