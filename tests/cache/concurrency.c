/* concurrency.c — several host threads on one cache at once (each with its
 * own stream on a CUDA cache, so that their calls run concurrently):
 *
 *   hive-cache-concurrency <cpu|cuda> [--scale F] [--seed S] [--hbm-fraction F]
 *
 * upsert   4 writers insert_or_assign the same K keys round after round
 *          (shuffled, keys repeated within a batch), each value dim copies of
 *          one 32-bit pattern naming the key, the writer and the round, while
 *          2 readers find and contain them: a value read must be one whole
 *          pattern of its own key (a mixed value is a torn write); at the end
 *          size == K, export has no duplicates, every value whole.
 * accum    the same K keys stored once (LFU, score 1), then 4 writers
 *          accum_or_assign deltas onto them (flag 1, keys repeated within a
 *          batch) while 2 readers find them: every value read has element j
 *          == (j + 1) * element 0; the final sums are exact and each LFU score
 *          is 1 + the number of its accumulations (the table is big enough
 *          that nothing is evicted).
 * churn    a small dual-bucket table under 4 threads that upsert,
 *          find_or_insert, insert_and_evict and erase a hot key set of twice
 *          its capacity at once, 2 readers beside them: export never has a
 *          key twice, its count is the size, every value whole. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache_test.h"

static ht_target T;
static double scale = 1.0;
static uint64_t seed = 1;

#define WRITERS 4
#define READERS 2
#define DIM 8

static uint32_t key_tag(uint64_t key) { return (uint32_t)(ht_splitmix64(&key) >> 48) & 0xFFFFu; }

/* The pattern a writer stores: 16 bits of the key, 4 of the writer, 12 of the round. */
static uint32_t pattern(uint64_t key, unsigned writer, unsigned round)
{
    return key_tag(key) << 16 | (writer & 0xFu) << 12 | (round & 0xFFFu);
}

static int whole(uint64_t key, const uint32_t *v)
{
    for (int j = 1; j < DIM; j++)
        if (v[j] != v[0])
            return 0;
    return v[0] >> 16 == key_tag(key);
}

typedef struct shared {
    hive_cache *c;
    uint64_t *keys;
    size_t nkeys;
    unsigned rounds;
    int mode; /* 0 upsert, 1 accum, 2 churn */
    _Atomic int writers_left;
    _Atomic uint64_t torn, reads;
} shared;

typedef struct worker {
    shared *s;
    unsigned id;
    ht_batch stream_owner; /* its stream */
    ct_bufs b;
    uint64_t *expect_adds; /* accum: this writer's adds per key position */
} worker;

static void fill_pattern(uint8_t *dst, uint32_t p)
{
    uint32_t v[DIM];
    for (int j = 0; j < DIM; j++)
        v[j] = p;
    memcpy(dst, v, sizeof v);
}

static void *writer_main(void *arg)
{
    worker *w = arg;
    shared *s = w->s;
    ht_rng rng;
    ht_rng_seed(&rng, seed * 100 + w->id);
    hive_stream st = w->stream_owner.stream;
    ht_context("concurrency %s writer %u mode %d", T.backend_name, w->id, s->mode);
    size_t cap = w->b.cap;
    for (unsigned r = 0; r < s->rounds; r++) {
        size_t n = 0;
        for (size_t i = 0; i < s->nkeys && n < cap; i++) {
            size_t pos = (size_t)ht_rng_below(&rng, s->nkeys);
            if (s->mode != 2 && ht_rng_chance(&rng, 0.5))
                pos = i; /* every key at least once a round, others repeated */
            uint64_t k = s->keys[pos];
            w->b.keys[n] = k;
            w->b.scores[n] = 1;
            if (s->mode == 1) {
                uint64_t v[4], d = w->id + 1;
                for (int j = 0; j < 4; j++)
                    v[j] = d * (uint64_t)(j + 1);
                memcpy(w->b.values + n * 32, v, 32);
                w->b.flags[n] = 1;
                w->expect_adds[pos]++;
            } else {
                fill_pattern(w->b.values + n * (DIM * 4), pattern(k, w->id, r));
            }
            n++;
        }
        hive_status got = HIVE_SUCCESS;
        uint64_t count = 0;
        if (s->mode == 0) {
            got = hive_cache_insert_or_assign(s->c, n, w->b.keys, w->b.values, NULL, w->b.results, st);
        } else if (s->mode == 1) {
            got = hive_cache_accum_or_assign(s->c, n, w->b.keys, w->b.values, w->b.flags, w->b.scores, w->b.results, st);
            for (size_t i = 0; i < n; i++)
                HT_CHECK_EQ(w->b.results[i], HIVE_RESULT_UPDATED, "accum of a present key");
        } else {
            switch ((w->id + r) % 4) {
            case 0:
                got = hive_cache_insert_or_assign(s->c, n, w->b.keys, w->b.values, NULL, w->b.results, st);
                break;
            case 1:
                got = hive_cache_find_or_insert(s->c, n, w->b.keys, w->b.values, NULL, w->b.found, st);
                break;
            case 2:
                got = hive_cache_insert_and_evict(s->c, n, w->b.keys, w->b.values, NULL, w->b.ev_keys, w->b.ev_values,
                                                  NULL, &count, st);
                for (uint64_t e = 0; e < count && e < n; e++)
                    if (!whole(w->b.ev_keys[e], (const uint32_t *)(w->b.ev_values + e * DIM * 4)))
                        s->torn++;
                break;
            default:
                got = hive_cache_erase(s->c, n / 2, w->b.keys, w->b.results, st);
                break;
            }
        }
        HT_CHECK_STATUS(got, HIVE_SUCCESS, "round %u", r);
    }
    s->writers_left--;
    return NULL;
}

static void *reader_main(void *arg)
{
    worker *w = arg;
    shared *s = w->s;
    ht_rng rng;
    ht_rng_seed(&rng, seed * 1000 + w->id);
    hive_stream st = w->stream_owner.stream;
    ht_context("concurrency %s reader %u mode %d", T.backend_name, w->id, s->mode);
    size_t n = w->b.cap < s->nkeys ? w->b.cap : s->nkeys;
    size_t vb = s->mode == 1 ? 32 : DIM * 4;
    do {
        for (size_t i = 0; i < n; i++)
            w->b.keys[i] = s->keys[ht_rng_below(&rng, s->nkeys)];
        HT_CHECK_STATUS(hive_cache_find(s->c, n, w->b.keys, w->b.values_out, w->b.found, NULL, st), HIVE_SUCCESS,
                        "%s", "find");
        HT_CHECK_STATUS(hive_cache_contains(s->c, n, w->b.keys, w->b.flags, st), HIVE_SUCCESS, "%s", "contains");
        for (size_t i = 0; i < n; i++) {
            if (!w->b.found[i])
                continue;
            const uint8_t *v = w->b.values_out + i * vb;
            int ok;
            if (s->mode == 1) {
                uint64_t e[4];
                memcpy(e, v, 32);
                ok = e[1] == 2 * e[0] && e[2] == 3 * e[0] && e[3] == 4 * e[0];
            } else {
                ok = whole(w->b.keys[i], (const uint32_t *)v);
            }
            if (!ok) {
                s->torn++;
                HT_CHECK(ok, "reader %u read a torn value of key %llu", w->id, (unsigned long long)w->b.keys[i]);
            }
            s->reads++;
        }
        if (s->mode != 2) /* nothing leaves: a key once found stays */
            for (size_t i = 0; i < n; i++)
                if (w->b.found[i])
                    HT_CHECK_EQ(w->b.flags[i], 1, "contains of a key find found");
    } while (s->writers_left > 0);
    return NULL;
}

static void run_mode(int mode)
{
    const char *names[3] = {"upsert", "accum", "churn"};
    ht_context("concurrency %s %s: setup", T.backend_name, names[mode]);
    hive_cache_config c = ct_config(&T);
    size_t nkeys = (size_t)(4096 * scale) < 256 ? 256 : (size_t)(4096 * scale);
    c.threads = 2;
    if (mode == 0) {
        c.policy = HIVE_SCORE_LRU;
        c.capacity = nkeys * 16; /* a key a bucket on average: nothing evicted */
        c.dim = DIM;
        c.value_type = HIVE_VALUE_I32;
    } else if (mode == 1) {
        c.policy = HIVE_SCORE_LFU;
        c.capacity = nkeys * 16;
        c.dim = 4;
        c.value_type = HIVE_VALUE_I64;
    } else {
        nkeys = 1024;
        c.policy = HIVE_SCORE_LRU;
        c.capacity = 512;
        c.dual_bucket = 1;
        c.dim = DIM;
        c.value_type = HIVE_VALUE_I32;
    }
    shared s;
    memset(&s, 0, sizeof s);
    s.c = ct_open(&T, &c);
    s.mode = mode;
    s.nkeys = nkeys;
    s.rounds = (unsigned)(mode == 2 ? 400 * scale + 20 : 100 * scale + 5);
    s.keys = malloc(nkeys * 8);
    ht_rng rng;
    ht_rng_seed(&rng, seed);
    for (size_t i = 0; i < nkeys; i++)
        s.keys[i] = (ht_rng_next(&rng) >> 2) | 1;
    size_t vb = mode == 1 ? 32 : DIM * 4;
    if (mode == 1) { /* the counters, stored once with score 1 */
        ct_bufs b;
        ct_bufs_init(&b, &T, nkeys, vb);
        memcpy(b.keys, s.keys, nkeys * 8);
        memset(b.values, 0, nkeys * vb);
        memset(b.flags, 0, nkeys);
        for (size_t i = 0; i < nkeys; i++)
            b.scores[i] = 1;
        HT_MUST(hive_cache_accum_or_assign(s.c, nkeys, b.keys, b.values, b.flags, b.scores, b.results, NULL));
        for (size_t i = 0; i < nkeys; i++)
            HT_CHECK_EQ(b.results[i], HIVE_RESULT_INSERTED, "counter %zu stored", i);
        ct_bufs_free(&b);
    }
    worker w[WRITERS + READERS];
    pthread_t th[WRITERS + READERS];
    s.writers_left = WRITERS;
    for (unsigned i = 0; i < WRITERS + READERS; i++) {
        w[i].s = &s;
        w[i].id = i;
        ht_batch_init(&w[i].stream_owner, &T, 1);
        ct_bufs_init(&w[i].b, &T, mode == 2 ? 256 : nkeys, vb);
        w[i].expect_adds = calloc(nkeys, 8);
    }
    for (unsigned i = 0; i < WRITERS + READERS; i++)
        if (pthread_create(&th[i], NULL, i < WRITERS ? writer_main : reader_main, &w[i]) != 0)
            ht_fatal("pthread_create");
    for (unsigned i = 0; i < WRITERS + READERS; i++)
        pthread_join(th[i], NULL);
    ht_context("concurrency %s %s: after", T.backend_name, names[mode]);
    HT_CHECK_EQ(s.torn, 0, "torn values read");
    ct_snap snap;
    ct_snapshot(&T, s.c, &snap); /* checks: no duplicates, count == size */
    uint64_t cap = 0;
    HT_MUST(hive_cache_capacity(s.c, &cap));
    HT_CHECK(snap.n <= cap, "size %llu > capacity", (unsigned long long)snap.n);
    if (mode != 2)
        HT_CHECK_EQ(snap.n, nkeys, "every key stored once");
    uint64_t bad = 0;
    for (uint64_t i = 0; i < snap.n; i++) {
        const uint8_t *v = snap.values + i * vb;
        if (mode == 1) {
            uint64_t want = 0, adds = 0, e[4], pos = nkeys;
            for (size_t p = 0; p < nkeys; p++)
                if (s.keys[p] == snap.keys[i])
                    pos = p;
            if (!HT_CHECK(pos < nkeys, "unknown key %llu", (unsigned long long)snap.keys[i]))
                continue;
            for (unsigned t = 0; t < WRITERS; t++) {
                want += (t + 1) * w[t].expect_adds[pos];
                adds += w[t].expect_adds[pos];
            }
            memcpy(e, v, 32);
            if (!HT_CHECK(e[0] == want && e[1] == 2 * want && e[2] == 3 * want && e[3] == 4 * want,
                          "counter %llu: %llu, want %llu", (unsigned long long)snap.keys[i], (unsigned long long)e[0],
                          (unsigned long long)want))
                bad++;
            HT_CHECK_EQ(snap.scores[i], 1 + adds, "LFU score of counter %llu", (unsigned long long)snap.keys[i]);
        } else if (!whole(snap.keys[i], (const uint32_t *)v)) {
            bad++;
        }
    }
    HT_CHECK_EQ(bad, 0, "entries with a wrong value at the end");
    printf("  %-6s %s: %u writers x %u rounds of %zu keys, %u readers read %llu values, size %llu\n", names[mode],
           T.backend_name, WRITERS, s.rounds, mode == 2 ? (size_t)256 : nkeys, READERS,
           (unsigned long long)s.reads, (unsigned long long)snap.n);
    ct_snap_free(&snap);
    for (unsigned i = 0; i < WRITERS + READERS; i++) {
        ht_batch_free(&w[i].stream_owner);
        ct_bufs_free(&w[i].b);
        free(w[i].expect_adds);
    }
    free(s.keys);
    ct_close(s.c);
}

int main(int argc, char **argv)
{
    const char *usage = "<cpu|cuda> [--scale F] [--seed S] [--hbm-fraction F]";
    ct_target_from_args(&T, argc, argv, usage);
    for (int a = 2; a < argc; a++) {
        if (ct_tier_arg(argc, argv, &a))
            continue;
        if (strcmp(argv[a], "--scale") == 0 && a + 1 < argc)
            scale = atof(argv[++a]);
        else if (strcmp(argv[a], "--seed") == 0 && a + 1 < argc)
            seed = strtoull(argv[++a], NULL, 0);
        else {
            fprintf(stderr, "usage: %s %s\n", argv[0], usage);
            return HT_EXIT_FAIL;
        }
    }
    static char name[96];
    snprintf(name, sizeof name, "cache concurrency %s (seed %llu, hbm fraction %g)", T.backend_name,
             (unsigned long long)seed, ct_tier_fraction());
    ht_begin(name);
    ct_require_backend(&T);
    for (int mode = 0; mode < 3; mode++)
        run_mode(mode);
    return ht_finish();
}
