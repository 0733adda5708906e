/* adversarial.c — the WarpSpeed adversarial concurrency test (reference spec
 * §1), adapted to hive, on any backend:
 *
 *   hive-adversarial <cpu|cuda> <kv32|kv64> [--reps R] [--design NAME]
 *
 * Keys are picked so that every bucket of the table is the first bucket
 * (hash1, under the table's linear-hashing index) of exactly two keys X and
 * Y; this needs the internal hash and index rule (src/hash/bithash.h,
 * src/core/index.h), the table's hash seed from hive_get_config and the
 * bucket count from hive_stats_get.  The first
 * bucket is the one whose lock serialises a key's locked placements in
 * every design: the Hive design's b1, the double design's probe 0.  The
 * capacity is pinned (min_load_factor 0, max_load_factor 1, checked
 * unchanged).
 *
 *   round 1  insert every X
 *   round 2  one hive_apply batch holding, per bucket, three adjacent
 *            elements: erase X, upsert Y (value 1), upsert Y (value 2).  The
 *            two upserts of Y race each other and the erase that frees a slot
 *            of Y's bucket: a protocol that lets both miss Y and then place it
 *            twice (one in X's freed slot, one at the frontier) fails below.
 *   round 3  for every Y: find hits, erase returns ERASED, find misses (the
 *            duplicate detector), erase returns NOT_FOUND.
 *
 * The four counters of §1.6 must be 0; also checked: round 2's result codes
 * (X ERASED; the two Y upserts one INSERTED and one UPDATED), Y's value 1 or
 * 2, X gone, the size.  A second variant runs round 2 as three host threads
 * (erase X / upsert Y 1 / upsert Y 2) working through the buckets together. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aim.h"
#include "core/index.h"
#include "hivetest.h"

static ht_target target;

typedef struct adv_keys {
    uint64_t buckets;
    uint64_t *x, *y; /* per bucket */
} adv_keys;

/* Draws random keys until every bucket has two distinct keys whose first
 * bucket it is, under hash seed `seed` (spec §1.3: the first key seen
 * becomes X, the next other Y). */
static void pick_keys(adv_keys *k, uint64_t seed, uint64_t buckets, ht_rng *rng)
{
    hive_index ix = hive_index_for(buckets);
    k->buckets = buckets;
    k->x = malloc(buckets * sizeof *k->x);
    k->y = malloc(buckets * sizeof *k->y);
    uint8_t *have = calloc(buckets, 1);
    uint64_t missing = buckets * 2, draws = 0;
    while (missing > 0) {
        uint64_t key = ht_random_key(&target, rng);
        uint64_t b = hive_bucket_of(ix, ht_key_hash(&target, seed, key, 1));
        draws++;
        if (b >= buckets)
            ht_fatal("hive_bucket_of gave bucket %llu of %llu", (unsigned long long)b,
                     (unsigned long long)buckets);
        if (have[b] == 0) {
            k->x[b] = key;
            have[b] = 1;
            missing--;
        } else if (have[b] == 1 && key != k->x[b]) {
            k->y[b] = key;
            have[b] = 2;
            missing--;
        }
    }
    free(have);
}

static void free_keys(adv_keys *k)
{
    free(k->x);
    free(k->y);
}

typedef struct counters {
    uint64_t fail_first_query, fail_original_delete, query_after_delete, delete_after_delete;
    uint64_t round2_results, y_value, x_present;
} counters;

/* Round 3 and the checks around it. */
static void verify(hive_table *table, const adv_keys *k, ht_batch *b, counters *c)
{
    const ht_target *t = &target;
    uint64_t B = k->buckets;
    b->n = B;
    for (uint64_t i = 0; i < B; i++)
        ht_put(t, b->keys, i, k->x[i]);
    memset(b->found, HT_FLAG_POISON, B);
    HT_CHECK_STATUS(hive_contains(table, B, b->keys, b->found, NULL), HIVE_SUCCESS, "contains X");
    for (uint64_t i = 0; i < B; i++)
        c->x_present += b->found[i] != 0;

    for (uint64_t i = 0; i < B; i++) {
        ht_put(t, b->keys, i, k->y[i]);
        ht_put(t, b->values, i, 0xBAD);
    }
    /* (a) find(Y) hits, with value 1 or 2 */
    memset(b->found, HT_FLAG_POISON, B);
    HT_CHECK_STATUS(hive_find(table, B, b->keys, b->values, b->found, NULL), HIVE_SUCCESS,
                    "round 3 (a) find Y");
    for (uint64_t i = 0; i < B; i++) {
        c->fail_first_query += b->found[i] != 1;
        uint64_t v = ht_get(t, b->values, i);
        c->y_value += b->found[i] == 1 && v != 1 && v != 2;
    }
    /* (b) erase(Y) returns ERASED */
    memset(b->results, HT_FLAG_POISON, B);
    HT_CHECK_STATUS(hive_erase(table, B, b->keys, b->results, NULL), HIVE_SUCCESS,
                    "round 3 (b) erase Y");
    for (uint64_t i = 0; i < B; i++)
        c->fail_original_delete += b->results[i] != HIVE_RESULT_ERASED;
    /* (c) find(Y) misses: a second copy of Y would show here */
    memset(b->found, HT_FLAG_POISON, B);
    HT_CHECK_STATUS(hive_find(table, B, b->keys, b->values, b->found, NULL), HIVE_SUCCESS,
                    "round 3 (c) find Y");
    for (uint64_t i = 0; i < B; i++)
        c->query_after_delete += b->found[i] != 0;
    /* (d) erase(Y) returns NOT_FOUND */
    memset(b->results, HT_FLAG_POISON, B);
    HT_CHECK_STATUS(hive_erase(table, B, b->keys, b->results, NULL), HIVE_SUCCESS,
                    "round 3 (d) erase Y");
    for (uint64_t i = 0; i < B; i++)
        c->delete_after_delete += b->results[i] != HIVE_RESULT_NOT_FOUND;
}

/* Round 2 as three host threads. */
typedef struct racer {
    hive_table *table;
    const adv_keys *k;
    pthread_barrier_t *barrier;
    int role;           /* 0 erase X, 1 upsert Y = 1, 2 upsert Y = 2 */
    uint8_t *results;   /* per bucket, host */
} racer;

#define RACE_CHUNK 256

static void *race(void *p)
{
    racer *r = p;
    const ht_target *t = &target;
    ht_batch b;
    ht_batch_init(&b, t, RACE_CHUNK);
    ht_context("adversarial %s %s: racer %d", t->backend_name, t->width_name, r->role);
    pthread_barrier_wait(r->barrier);
    for (uint64_t off = 0; off < r->k->buckets; off += RACE_CHUNK) {
        uint64_t n = r->k->buckets - off < RACE_CHUNK ? r->k->buckets - off : RACE_CHUNK;
        for (uint64_t i = 0; i < n; i++) {
            ht_put(t, b.keys, i, r->role == 0 ? r->k->x[off + i] : r->k->y[off + i]);
            ht_put(t, b.values, i, (uint64_t)r->role);
        }
        memset(b.results, HT_FLAG_POISON, n);
        hive_status s = r->role == 0 ? hive_erase(r->table, n, b.keys, b.results, NULL)
                                     : hive_insert(r->table, n, b.keys, b.values,
                                                   HIVE_COMBINE_ASSIGN, b.results, NULL);
        HT_CHECK_STATUS(s, HIVE_SUCCESS, "racer %d, buckets %llu..", r->role,
                        (unsigned long long)off);
        memcpy(r->results + off, b.results, n);
    }
    ht_batch_free(&b);
    return NULL;
}

static void one_rep(int threaded, unsigned rep, uint64_t seed)
{
    const ht_target *t = &target;
    ht_context("adversarial %s %s %s (%s round 2): rep %u, seed %llu", t->backend_name,
               t->width_name, t->design_name, threaded ? "threads" : "one batch", rep,
               (unsigned long long)seed);
    hive_config c = ht_config(t);
    /* 3 x buckets elements: well over the CPU backend's threshold for
     * spreading a batch over its worker threads. */
    c.initial_capacity = 1u << 18;
    c.max_load_factor = 1.0;
    c.min_load_factor = 0.0;
    hive_table *table = ht_open(t, &c);
    hive_stats st0, st1;
    HT_MUST(hive_stats_get(table, &st0));
    const uint64_t B = st0.buckets;
    ht_rng rng;
    ht_rng_seed(&rng, seed);
    adv_keys k;
    pick_keys(&k, ht_hash_seed(table), B, &rng);
    ht_batch b;
    ht_batch_init(&b, t, 3 * B);
    counters cnt;
    memset(&cnt, 0, sizeof cnt);

    /* Round 1: every X. */
    b.n = B;
    for (uint64_t i = 0; i < B; i++) {
        ht_put(t, b.keys, i, k.x[i]);
        ht_put(t, b.values, i, 0);
    }
    memset(b.results, HT_FLAG_POISON, B);
    HT_CHECK_STATUS(hive_insert(table, B, b.keys, b.values, HIVE_COMBINE_ASSIGN, b.results, NULL),
                    HIVE_SUCCESS, "round 1: insert X");
    uint64_t bad1 = 0;
    for (uint64_t i = 0; i < B; i++)
        bad1 += b.results[i] != HIVE_RESULT_INSERTED;
    HT_CHECK_EQ(bad1, 0, "round 1: X not INSERTED");

    /* Round 2: erase X, upsert Y twice, per bucket. */
    uint8_t *res[3];
    for (int r = 0; r < 3; r++)
        res[r] = malloc(B);
    if (!threaded) {
        b.n = 3 * B;
        for (uint64_t i = 0; i < B; i++) {
            b.ops[3 * i] = HIVE_OP_ERASE;
            ht_put(t, b.keys, 3 * i, k.x[i]);
            ht_put(t, b.values, 3 * i, 0);
            for (int r = 1; r <= 2; r++) {
                b.ops[3 * i + r] = HIVE_OP_UPSERT;
                ht_put(t, b.keys, 3 * i + r, k.y[i]);
                ht_put(t, b.values, 3 * i + r, (uint64_t)r);
            }
        }
        memset(b.results, HT_FLAG_POISON, 3 * B);
        HT_CHECK_STATUS(hive_apply(table, 3 * B, b.ops, b.keys, b.values, HIVE_COMBINE_ASSIGN,
                                   b.results, NULL),
                        HIVE_SUCCESS, "round 2: one apply batch");
        for (uint64_t i = 0; i < B; i++)
            for (int r = 0; r < 3; r++)
                res[r][i] = b.results[3 * i + r];
    } else {
        pthread_barrier_t barrier;
        pthread_barrier_init(&barrier, NULL, 3);
        racer rc[3];
        pthread_t th[3];
        for (int r = 0; r < 3; r++) {
            rc[r] = (racer){table, &k, &barrier, r, res[r]};
            if (pthread_create(&th[r], NULL, race, &rc[r]) != 0)
                ht_fatal("pthread_create failed");
        }
        for (int r = 0; r < 3; r++)
            pthread_join(th[r], NULL);
        pthread_barrier_destroy(&barrier);
    }
    for (uint64_t i = 0; i < B; i++) {
        int ok = res[0][i] == HIVE_RESULT_ERASED &&
                 ((res[1][i] == HIVE_RESULT_INSERTED && res[2][i] == HIVE_RESULT_UPDATED) ||
                  (res[1][i] == HIVE_RESULT_UPDATED && res[2][i] == HIVE_RESULT_INSERTED));
        if (!ok && cnt.round2_results++ < 3)
            HT_CHECK(0, "round 2, bucket %llu (X %llu, Y %llu): erase X %s, upsert Y %s and %s",
                     (unsigned long long)i, (unsigned long long)k.x[i], (unsigned long long)k.y[i],
                     ht_result_name(res[0][i]), ht_result_name(res[1][i]),
                     ht_result_name(res[2][i]));
    }
    uint64_t size = 0;
    HT_MUST(hive_size(table, &size));
    HT_CHECK_EQ(size, B, "size after round 2 (one Y per bucket)");
    HT_MUST(hive_stats_get(table, &st1));
    if (st1.buckets != B)
        ht_fatal("the table resized during the test (%llu -> %llu buckets): the keys no longer "
                 "target one bucket each; the test is void",
                 (unsigned long long)B, (unsigned long long)st1.buckets);

    /* Round 3. */
    verify(table, &k, &b, &cnt);
    HT_MUST(hive_size(table, &size));
    HT_CHECK_EQ(size, 0, "size after round 3");
    HT_CHECK(cnt.fail_first_query == 0 && cnt.fail_original_delete == 0 &&
                 cnt.query_after_delete == 0 && cnt.delete_after_delete == 0,
             "FAILED counters: fail_first_query %llu, fail_original_delete %llu, "
             "query_after_delete %llu, delete_after_delete %llu (of %llu buckets)",
             (unsigned long long)cnt.fail_first_query, (unsigned long long)cnt.fail_original_delete,
             (unsigned long long)cnt.query_after_delete, (unsigned long long)cnt.delete_after_delete,
             (unsigned long long)B);
    HT_CHECK_EQ(cnt.y_value, 0, "Y found with a value other than 1 or 2");
    HT_CHECK_EQ(cnt.x_present, 0, "X still present after its erase");
    HT_CHECK_EQ(cnt.round2_results, 0, "buckets with wrong round-2 result codes");
    ht_pass_(4 * B);
    printf("  rep %u (%s): %llu buckets of %u slots, counters %llu %llu %llu %llu\n", rep,
           threaded ? "threads" : "one batch", (unsigned long long)B, st0.bucket_slots,
           (unsigned long long)cnt.fail_first_query, (unsigned long long)cnt.fail_original_delete,
           (unsigned long long)cnt.query_after_delete, (unsigned long long)cnt.delete_after_delete);
    for (int r = 0; r < 3; r++)
        free(res[r]);
    ht_batch_free(&b);
    free_keys(&k);
    ht_close(table);
}

int main(int argc, char **argv)
{
    static char name[96];
    const char *usage = "<cpu|cuda> <kv32|kv64> [--reps R] [--design NAME]";
    hive_design design = ht_take_design(&argc, argv, usage);
    if (argc < 3) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        return HT_EXIT_FAIL;
    }
    ht_target_from_args(&target, argc, argv, 1, usage);
    ht_target_set_design(&target, design);
    unsigned reps = 10;
    if (argc >= 5 && strcmp(argv[3], "--reps") == 0)
        reps = (unsigned)atoi(argv[4]);
    snprintf(name, sizeof name, "adversarial %s %s", target.backend_name, target.width_name);
    if (design != HIVE_DESIGN_HIVE) {
        size_t len = strlen(name);
        snprintf(name + len, sizeof name - len, " %s", target.design_name);
    }
    ht_begin(name);
    ht_require_backend(&target);
    for (unsigned rep = 0; rep < reps; rep++)
        one_rep(rep % 2, rep, 5000 + rep);
    return ht_finish();
}
