/* stress.c — many host threads on one table at once, each with its own
 * stream (so that on a CUDA table their launches run concurrently):
 *
 *   hive-stress <kv32|kv64> [disjoint|add|keep|mixed|growrace|fill ...]
 *               [--backend cpu|cuda] [--threads T] [--scale S]
 *               [--design NAME]
 *
 *   disjoint  every thread inserts its own keys in batches of 1..2048 while
 *             the table grows from 1024 slots; each checks a sample of its
 *             earlier keys as it goes; at the end the table holds exactly
 *             the union.
 *   add       every thread upserts with ADD into the same 64 hot keys (plus
 *             keys of its own, so the table grows meanwhile), through
 *             hive_insert and hive_apply; each hot key ends at exactly the
 *             sum of every thread's values and reports INSERTED exactly once.
 *   keep      rounds of insert-if-absent (KEEP, and HIVE_OP_INSERT) of the
 *             same keys from every thread, started together at a barrier:
 *             per key exactly one INSERTED (all others EXISTED), and the
 *             stored value is the winner's.
 *   mixed     inserts, erases, finds and mixed applies on one shared key
 *             pool, with load swings that grow and shrink the table: every
 *             value found is the key's value, and per key the INSERTED and
 *             ERASED results of all threads alternate, so their difference
 *             is 0 or 1 and equals whether export lists the key; export has
 *             no duplicates and its count is the size.
 *   growrace  all threads released at once, each inserting one batch that
 *             fits a fresh table alone but not together with the others:
 *             no key may be REJECTED_FULL (growth must see every batch).
 *   fill      one thread, one batch of new keys into a fresh table of
 *             pinned capacity, up to load 0.9: the batch's own concurrency
 *             (on the GPU: every key at once, a tenth of them evicting) is
 *             the stress; afterwards every key is found with its value.  The
 *             GPU's last round fills a table of over 120 MB (at scale 2), more
 *             than twice any L2 it runs on, where a bulk insert takes the
 *             capped pass and (KV32) the full bits (cuda_batch.cu).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hivetest.h"

static ht_target target;
static unsigned n_threads = 8;
static double scale = 1.0;

static size_t scaled(size_t n)
{
    size_t s = (size_t)((double)n * scale);
    return s < 16 ? 16 : s;
}

/* The value every writer of `key` stores in the mixed scenario. */
static uint64_t value_of(uint64_t key)
{
    uint64_t x = key * 0xD6E8FEB86659FD93ull;
    return (x ^ (x >> 32)) & target.value_mask;
}

static void run_threads(void *(*fn)(void *), void *args, size_t arg_size)
{
    pthread_t th[256];
    for (unsigned i = 0; i < n_threads; i++)
        if (pthread_create(&th[i], NULL, fn, (char *)args + i * arg_size) != 0)
            ht_fatal("pthread_create failed");
    for (unsigned i = 0; i < n_threads; i++)
        pthread_join(th[i], NULL);
}

static hive_table *open_table(const char *scenario, double min_lf, hive_config *c)
{
    ht_context("stress %s %s: opening", scenario, target.width_name);
    *c = ht_config(&target);
    c->initial_capacity = 1024;
    c->min_load_factor = min_lf;
    return ht_open(&target, c);
}

/* ---------------------------------------------------------------- disjoint */

typedef struct disjoint_arg {
    hive_table *table;
    unsigned id;
    const uint64_t *keys; /* this thread's keys */
    size_t n;
    uint8_t *result;      /* per key: the insert's result code */
} disjoint_arg;

static void *disjoint_thread(void *p)
{
    disjoint_arg *a = p;
    const ht_target *t = &target;
    ht_rng rng;
    ht_rng_seed(&rng, 100 + a->id);
    ht_batch b;
    ht_batch_init(&b, t, 2048);
    size_t off = 0;
    uint64_t batch = 0;
    while (off < a->n) {
        ht_context("stress disjoint %s: thread %u, batch %llu", t->width_name, a->id,
                   (unsigned long long)batch++);
        size_t n = (size_t)ht_rng_log_size(&rng, 2048);
        if (n > a->n - off)
            n = a->n - off;
        for (size_t i = 0; i < n; i++) {
            ht_put(t, b.keys, i, a->keys[off + i]);
            ht_put(t, b.values, i, value_of(a->keys[off + i]));
        }
        memset(b.results, HT_FLAG_POISON, n);
        HT_CHECK_STATUS(hive_insert(a->table, n, b.keys, b.values, HIVE_COMBINE_ASSIGN, b.results,
                                    b.stream),
                        HIVE_SUCCESS, "insert %zu own keys", n);
        size_t bad = 0;
        for (size_t i = 0; i < n; i++) {
            bad += b.results[i] != HIVE_RESULT_INSERTED;
            a->result[off + i] = b.results[i];
        }
        HT_CHECK_EQ(bad, 0, "own new keys not reported INSERTED (of %zu)", n);
        off += n;
        /* A sample of this thread's earlier keys that were reported INSERTED
         * (should some have been rejected, the rest must still be there). */
        size_t m = 0;
        for (size_t tries = 0; m < 64 && tries < 1024; tries++) {
            size_t j = (size_t)ht_rng_below(&rng, off);
            if (a->result[j] != HIVE_RESULT_INSERTED)
                continue;
            ht_put(t, b.keys, m, a->keys[j]);
            ht_put(t, b.values, m++, 0);
        }
        memset(b.found, HT_FLAG_POISON, m);
        HT_CHECK_STATUS(hive_find(a->table, m, b.keys, b.values, b.found, b.stream), HIVE_SUCCESS,
                        "find a sample");
        bad = 0;
        for (size_t i = 0; i < m; i++)
            bad += b.found[i] != 1 || ht_get(t, b.values, i) != value_of(ht_get(t, b.keys, i));
        HT_CHECK_EQ(bad, 0, "earlier own INSERTED keys missing or with a wrong value (sample of %zu)",
                    m);
    }
    ht_batch_free(&b);
    return NULL;
}

static void scenario_disjoint(void)
{
    const ht_target *t = &target;
    hive_config c;
    hive_table *table = open_table("disjoint", 0.25, &c);
    size_t per = scaled(25000), total = per * n_threads;
    uint64_t *keys = malloc(total * sizeof *keys);
    ht_rng rng;
    ht_rng_seed(&rng, 99);
    ht_unique_keys(t, &rng, keys, total, NULL);
    uint8_t *result = calloc(total, 1);
    disjoint_arg args[256];
    for (unsigned i = 0; i < n_threads; i++)
        args[i] = (disjoint_arg){table, i, keys + i * per, per, result + i * per};
    run_threads(disjoint_thread, args, sizeof args[0]);

    ht_context("stress disjoint %s: after %u threads x %zu keys", t->width_name, n_threads, per);
    /* Exactly the keys reported INSERTED are there (rejected ones, a failure
     * of their own, are not). */
    ht_ref ref;
    ht_ref_init(&ref);
    size_t rejected = 0;
    for (size_t i = 0; i < total; i++) {
        if (result[i] == HIVE_RESULT_INSERTED)
            ht_ref_put(&ref, keys[i], value_of(keys[i]));
        else
            rejected++;
    }
    HT_CHECK_EQ(rejected, 0, "keys not inserted (of %zu)", total);
    ht_expect_contents(t, table, &ref, "disjoint end: the keys reported INSERTED");
    free(result);
    hive_stats st;
    ht_expect_stats(t, table, &c, &st, "disjoint end");
    HT_CHECK(st.grows > 0, "the table never grew");
    ht_ref_free(&ref);
    free(keys);
    ht_close(table);
}

/* ---------------------------------------------------------------- add */

#define HOT 64

typedef struct add_arg {
    hive_table *table;
    unsigned id;
    const uint64_t *hot;
    const uint64_t *own; /* this thread's filler keys, each inserted once */
    size_t own_n;
    size_t batches;
    uint64_t sum[HOT];      /* this thread's total per hot key (wrapping) */
    uint64_t inserted[HOT]; /* INSERTED results this thread saw per hot key */
    uint64_t bad_results;
} add_arg;

static void *add_thread(void *p)
{
    add_arg *a = p;
    const ht_target *t = &target;
    ht_rng rng;
    ht_rng_seed(&rng, 200 + a->id);
    ht_batch b;
    ht_batch_init(&b, t, 512);
    size_t own_used = 0;
    int8_t *hot_idx = malloc(512);
    for (size_t batch = 0; batch < a->batches; batch++) {
        ht_context("stress add %s: thread %u, batch %zu", t->width_name, a->id, batch);
        size_t n = (size_t)ht_rng_range(&rng, 1, 512);
        for (size_t i = 0; i < n; i++) {
            int hot = i == 0 || own_used == a->own_n || ht_rng_chance(&rng, 0.7);
            uint64_t v = ht_rng_chance(&rng, 0.5) ? ht_rng_below(&rng, 100)
                                                  : ht_random_value(t, &rng);
            if (hot) {
                unsigned h = i == 0 ? 0 : (unsigned)ht_rng_below(&rng, HOT);
                hot_idx[i] = (int8_t)h;
                ht_put(t, b.keys, i, a->hot[h]);
                a->sum[h] = (a->sum[h] + v) & t->value_mask;
            } else {
                hot_idx[i] = -1;
                ht_put(t, b.keys, i, a->own[own_used++]);
            }
            ht_put(t, b.values, i, v);
            b.ops[i] = HIVE_OP_UPSERT;
        }
        memset(b.results, HT_FLAG_POISON, n);
        hive_status s = batch % 2 ? hive_apply(a->table, n, b.ops, b.keys, b.values,
                                               HIVE_COMBINE_ADD, b.results, b.stream)
                                  : hive_insert(a->table, n, b.keys, b.values, HIVE_COMBINE_ADD,
                                                b.results, b.stream);
        HT_CHECK_STATUS(s, HIVE_SUCCESS, "%s of %zu ADDs", batch % 2 ? "apply" : "insert", n);
        for (size_t i = 0; i < n; i++) {
            unsigned r = b.results[i];
            if (hot_idx[i] >= 0 && r == HIVE_RESULT_INSERTED)
                a->inserted[hot_idx[i]]++;
            else if (hot_idx[i] >= 0 ? r != HIVE_RESULT_UPDATED : r != HIVE_RESULT_INSERTED) {
                if (a->bad_results++ < 3)
                    HT_CHECK(0, "element %zu (%s key %llu): result %s", i,
                             hot_idx[i] >= 0 ? "hot" : "own",
                             (unsigned long long)ht_get(t, b.keys, i), ht_result_name(r));
            }
        }
    }
    a->own_n = own_used;
    free(hot_idx);
    ht_batch_free(&b);
    return NULL;
}

static void scenario_add(void)
{
    const ht_target *t = &target;
    hive_config c;
    hive_table *table = open_table("add", 0.25, &c);
    size_t batches = scaled(300), own = batches * 512;
    uint64_t *keys = malloc((HOT + own * n_threads) * sizeof *keys);
    ht_rng rng;
    ht_rng_seed(&rng, 199);
    ht_unique_keys(t, &rng, keys, HOT + own * n_threads, NULL);
    add_arg *args = calloc(n_threads, sizeof *args);
    for (unsigned i = 0; i < n_threads; i++) {
        args[i].table = table;
        args[i].id = i;
        args[i].hot = keys;
        args[i].own = keys + HOT + i * own;
        args[i].own_n = own;
        args[i].batches = batches;
    }
    run_threads(add_thread, args, sizeof args[0]);

    ht_context("stress add %s: after %u threads x %zu batches", t->width_name, n_threads, batches);
    ht_ref ref;
    ht_ref_init(&ref);
    uint64_t bad = 0;
    for (unsigned h = 0; h < HOT; h++) {
        uint64_t sum = 0, ins = 0;
        for (unsigned i = 0; i < n_threads; i++) {
            sum = (sum + args[i].sum[h]) & t->value_mask;
            ins += args[i].inserted[h];
        }
        HT_CHECK_EQ(ins, 1, "hot key %u (%llu): INSERTED results over all threads", h,
                    (unsigned long long)keys[h]);
        ht_ref_put(&ref, keys[h], sum);
    }
    for (unsigned i = 0; i < n_threads; i++)
        bad += args[i].bad_results; /* own keys: each INSERTED once */
    HT_CHECK_EQ(bad, 0, "unexpected result codes over all threads");
    ht_batch b;
    ht_batch_init(&b, t, HOT);
    ht_expect_finds(t, table, &ref, &b, "hot key sums");
    uint64_t size = 0, want = HOT;
    for (unsigned i = 0; i < n_threads; i++)
        want += args[i].own_n;
    HT_MUST(hive_size(table, &size));
    HT_CHECK_EQ(size, want, "size: hot keys + every thread's own keys");
    hive_stats st;
    ht_expect_stats(t, table, &c, &st, "add end");
    HT_CHECK(st.grows > 0, "the table never grew while the hot keys were updated");
    ht_batch_free(&b);
    ht_ref_free(&ref);
    free(args);
    free(keys);
    ht_close(table);
}

/* ---------------------------------------------------------------- keep */

#define KEEP_KEYS 128

typedef struct keep_shared {
    hive_table *table;
    pthread_barrier_t barrier;
    const uint64_t *keys; /* rounds * KEEP_KEYS */
    size_t rounds;
    uint8_t *results;     /* [round][thread][key] */
} keep_shared;

typedef struct keep_arg {
    keep_shared *s;
    unsigned id;
} keep_arg;

static uint64_t keep_value(size_t round, unsigned id)
{
    return ((uint64_t)round << 8) | (id + 1);
}

static void *keep_thread(void *p)
{
    keep_arg *a = p;
    keep_shared *s = a->s;
    const ht_target *t = &target;
    ht_rng rng;
    ht_rng_seed(&rng, 300 + a->id);
    ht_batch b;
    ht_batch_init(&b, t, KEEP_KEYS);
    uint64_t order[KEEP_KEYS];
    for (size_t round = 0; round < s->rounds; round++) {
        ht_context("stress keep %s: thread %u, round %zu", t->width_name, a->id, round);
        for (size_t i = 0; i < KEEP_KEYS; i++)
            order[i] = i;
        ht_shuffle(&rng, order, KEEP_KEYS);
        for (size_t i = 0; i < KEEP_KEYS; i++) {
            ht_put(t, b.keys, i, s->keys[round * KEEP_KEYS + order[i]]);
            ht_put(t, b.values, i, keep_value(round, a->id));
            b.ops[i] = HIVE_OP_INSERT;
        }
        memset(b.results, HT_FLAG_POISON, KEEP_KEYS);
        pthread_barrier_wait(&s->barrier);
        hive_status st = round % 2
                             ? hive_apply(s->table, KEEP_KEYS, b.ops, b.keys, b.values,
                                          HIVE_COMBINE_ASSIGN, b.results, b.stream)
                             : hive_insert(s->table, KEEP_KEYS, b.keys, b.values,
                                           HIVE_COMBINE_KEEP, b.results, b.stream);
        HT_CHECK_STATUS(st, HIVE_SUCCESS, "insert-if-absent of the round's keys");
        uint8_t *mine = s->results + (round * n_threads + a->id) * KEEP_KEYS;
        for (size_t i = 0; i < KEEP_KEYS; i++)
            mine[order[i]] = b.results[i];
    }
    ht_batch_free(&b);
    return NULL;
}

static void scenario_keep(void)
{
    const ht_target *t = &target;
    hive_config c;
    keep_shared s;
    s.table = open_table("keep", 0.25, &c);
    s.rounds = scaled(200);
    uint64_t *keys = malloc(s.rounds * KEEP_KEYS * sizeof *keys);
    ht_rng rng;
    ht_rng_seed(&rng, 299);
    ht_unique_keys(t, &rng, keys, s.rounds * KEEP_KEYS, NULL);
    s.keys = keys;
    s.results = malloc(s.rounds * n_threads * KEEP_KEYS);
    pthread_barrier_init(&s.barrier, NULL, n_threads);
    keep_arg args[256];
    for (unsigned i = 0; i < n_threads; i++)
        args[i] = (keep_arg){&s, i};
    run_threads(keep_thread, args, sizeof args[0]);
    pthread_barrier_destroy(&s.barrier);

    ht_context("stress keep %s: after %zu rounds of %u threads", t->width_name, s.rounds,
               n_threads);
    ht_ref ref;
    ht_ref_init(&ref);
    uint64_t bad = 0;
    for (size_t round = 0; round < s.rounds; round++) {
        for (size_t k = 0; k < KEEP_KEYS; k++) {
            unsigned winners = 0, winner = 0, others_bad = 0;
            for (unsigned i = 0; i < n_threads; i++) {
                uint8_t r = s.results[(round * n_threads + i) * KEEP_KEYS + k];
                if (r == HIVE_RESULT_INSERTED) {
                    winners++;
                    winner = i;
                } else if (r != HIVE_RESULT_EXISTED) {
                    others_bad++;
                }
            }
            if ((winners != 1 || others_bad) && bad++ < 5)
                HT_CHECK(0, "round %zu key %llu: %u threads got INSERTED (expected 1), %u got "
                            "neither INSERTED nor EXISTED",
                         round, (unsigned long long)keys[round * KEEP_KEYS + k], winners,
                         others_bad);
            ht_ref_put(&ref, keys[round * KEEP_KEYS + k], keep_value(round, winner) & t->value_mask);
        }
    }
    HT_CHECK_EQ(bad, 0, "keys without exactly one INSERTED");
    ht_pass_(s.rounds * KEEP_KEYS);
    /* The stored value is the one of the thread that reported INSERTED. */
    ht_batch b;
    ht_batch_init(&b, t, 4096);
    ht_expect_finds(t, s.table, &ref, &b, "winners' values");
    ht_expect_contents(t, s.table, &ref, "keep end");
    ht_batch_free(&b);
    ht_ref_free(&ref);
    free(s.results);
    free(keys);
    ht_close(s.table);
}

/* ---------------------------------------------------------------- mixed */

typedef struct mixed_arg {
    hive_table *table;
    unsigned id;
    const uint64_t *pool;
    size_t pool_n;
    size_t iterations;
    int64_t *net; /* per pool index: INSERTED - ERASED seen by this thread */
} mixed_arg;

static void *mixed_thread(void *p)
{
    mixed_arg *a = p;
    const ht_target *t = &target;
    ht_rng rng;
    ht_rng_seed(&rng, 400 + a->id);
    ht_batch b;
    ht_batch_init(&b, t, 1024);
    size_t *perm = malloc(a->pool_n * sizeof *perm);
    size_t *idx = malloc(1024 * sizeof *idx);
    for (size_t i = 0; i < a->pool_n; i++)
        perm[i] = i;
    uint64_t wrong_values = 0, wrong_results = 0;
    for (size_t it = 0; it < a->iterations; it++) {
        /* Three swings: insert-heavy, then erase-heavy. */
        int filling = (it * 6 / a->iterations) % 2 == 0;
        size_t n = (size_t)ht_rng_log_size(&rng, 1024);
        if (n > a->pool_n)
            n = a->pool_n;
        for (size_t i = 0; i < n; i++) { /* distinct keys within the batch */
            size_t j = i + (size_t)ht_rng_below(&rng, a->pool_n - i);
            size_t x = perm[i];
            perm[i] = perm[j];
            perm[j] = x;
            idx[i] = perm[i];
            ht_put(t, b.keys, i, a->pool[idx[i]]);
            ht_put(t, b.values, i, value_of(a->pool[idx[i]]));
        }
        unsigned kind = (unsigned)ht_rng_below(&rng, 10); /* 0-3 insert/erase, 4-5 find, 6-9 apply */
        int erase = kind < 4 && (!filling || kind == 0); /* draining: only erases */
        ht_context("stress mixed %s: thread %u, iteration %zu (%s)", t->width_name, a->id, it,
                   kind < 4 ? (erase ? "erase" : "insert") : kind < 6 ? "find" : "apply");
        memset(b.results, HT_FLAG_POISON, n);
        memset(b.found, HT_FLAG_POISON, n);
        hive_status s;
        if (kind < 4 && !erase) {
            for (size_t i = 0; i < n; i++)
                b.ops[i] = HIVE_OP_UPSERT;
            s = hive_insert(a->table, n, b.keys, b.values,
                            kind == 1 ? HIVE_COMBINE_KEEP : HIVE_COMBINE_ASSIGN, b.results, b.stream);
        } else if (erase) {
            for (size_t i = 0; i < n; i++)
                b.ops[i] = HIVE_OP_ERASE;
            s = hive_erase(a->table, n, b.keys, b.results, b.stream);
        } else if (kind < 6) {
            for (size_t i = 0; i < n; i++) {
                b.ops[i] = HIVE_OP_FIND;
                ht_put(t, b.values, i, ~value_of(a->pool[idx[i]]) & t->value_mask);
            }
            s = hive_find(a->table, n, b.keys, b.values, b.found, b.stream);
        } else {
            for (size_t i = 0; i < n; i++) {
                /* filling: 30% find, 30% upsert, 20% insert, 20% erase;
                 * draining: 30% find, 70% erase. */
                unsigned x = (unsigned)ht_rng_below(&rng, 10);
                b.ops[i] = x < 3 ? HIVE_OP_FIND
                           : !filling ? HIVE_OP_ERASE
                           : x < 6   ? HIVE_OP_UPSERT
                           : x < 8   ? HIVE_OP_INSERT
                                     : HIVE_OP_ERASE;
                if (b.ops[i] == HIVE_OP_FIND)
                    ht_put(t, b.values, i, ~value_of(a->pool[idx[i]]) & t->value_mask);
            }
            s = hive_apply(a->table, n, b.ops, b.keys, b.values, HIVE_COMBINE_ASSIGN, b.results,
                           b.stream);
        }
        HT_CHECK_STATUS(s, HIVE_SUCCESS, "batch of %zu", n);
        for (size_t i = 0; i < n; i++) {
            uint64_t k = a->pool[idx[i]];
            unsigned op = b.ops[i];
            int is_find_call = kind >= 4 && kind < 6;
            unsigned r = b.results[i];
            if (is_find_call) {
                if (b.found[i] == 1 && ht_get(t, b.values, i) != value_of(k) && wrong_values++ < 3)
                    HT_CHECK(0, "find key %llu: value %llu, every writer stores %llu",
                             (unsigned long long)k, (unsigned long long)ht_get(t, b.values, i),
                             (unsigned long long)value_of(k));
                if (b.found[i] > 1 && wrong_results++ < 3)
                    HT_CHECK(0, "find key %llu: found flag %u", (unsigned long long)k, b.found[i]);
                continue;
            }
            if (r == HIVE_RESULT_INSERTED)
                a->net[idx[i]]++;
            else if (r == HIVE_RESULT_ERASED)
                a->net[idx[i]]--;
            int ok;
            switch (op) {
            case HIVE_OP_FIND:
                ok = r == HIVE_RESULT_NOT_FOUND ||
                     (r == HIVE_RESULT_FOUND && ht_get(t, b.values, i) == value_of(k));
                break;
            case HIVE_OP_INSERT: ok = r == HIVE_RESULT_INSERTED || r == HIVE_RESULT_EXISTED; break;
            case HIVE_OP_UPSERT:
                ok = r == HIVE_RESULT_INSERTED ||
                     r == (kind == 1 ? HIVE_RESULT_EXISTED : HIVE_RESULT_UPDATED);
                break;
            default: ok = r == HIVE_RESULT_ERASED || r == HIVE_RESULT_NOT_FOUND; break;
            }
            if (!ok && wrong_results++ < 3)
                HT_CHECK(0, "op %u on key %llu: result %s, value %llu", op, (unsigned long long)k,
                         ht_result_name(r), (unsigned long long)ht_get(t, b.values, i));
        }
    }
    HT_CHECK_EQ(wrong_values, 0, "wrong values found by this thread");
    HT_CHECK_EQ(wrong_results, 0, "impossible results seen by this thread");
    free(perm);
    free(idx);
    ht_batch_free(&b);
    return NULL;
}

static void scenario_mixed(void)
{
    const ht_target *t = &target;
    hive_config c;
    hive_table *table = open_table("mixed", 0.25, &c);
    size_t pool_n = scaled(16384);
    uint64_t *pool = malloc(pool_n * sizeof *pool);
    ht_rng rng;
    ht_rng_seed(&rng, 399);
    ht_unique_keys(t, &rng, pool, pool_n, NULL);
    mixed_arg args[256];
    for (unsigned i = 0; i < n_threads; i++) {
        args[i] = (mixed_arg){table, i, pool, pool_n, scaled(600), calloc(pool_n, sizeof(int64_t))};
    }
    run_threads(mixed_thread, args, sizeof args[0]);

    ht_context("stress mixed %s: after %u threads", t->width_name, n_threads);
    /* Per key, successful inserts and erases alternate: their difference
     * over all threads is whether the key is present now. */
    ht_ref expect;
    ht_ref_init(&expect);
    uint64_t bad = 0;
    for (size_t k = 0; k < pool_n; k++) {
        int64_t net = 0;
        for (unsigned i = 0; i < n_threads; i++)
            net += args[i].net[k];
        if ((net != 0 && net != 1) && bad++ < 5)
            HT_CHECK(0, "key %llu: INSERTED - ERASED over all threads is %lld, must be 0 or 1",
                     (unsigned long long)pool[k], (long long)net);
        if (net == 1)
            ht_ref_put(&expect, pool[k], value_of(pool[k]));
    }
    HT_CHECK_EQ(bad, 0, "keys whose INSERTED and ERASED results do not alternate");
    ht_pass_(pool_n);
    /* Export: no duplicates, count == size, exactly the keys with net 1. */
    ht_expect_contents(t, table, &expect, "mixed end");
    hive_stats st;
    ht_expect_stats(t, table, &c, &st, "mixed end");
    HT_CHECK(st.grows > 0 && st.shrinks > 0,
             "the load swings should grow and shrink the table: %llu grows, %llu shrinks",
             (unsigned long long)st.grows, (unsigned long long)st.shrinks);
    printf("  mixed: %llu keys present at the end, %llu grows, %llu shrinks\n",
           (unsigned long long)ht_ref_size(&expect), (unsigned long long)st.grows,
           (unsigned long long)st.shrinks);
    for (unsigned i = 0; i < n_threads; i++)
        free(args[i].net);
    ht_ref_free(&expect);
    free(pool);
    ht_close(table);
}

/* ---------------------------------------------------------------- growrace */

/* The sharpest form of "disjoint": all threads, released together by a
 * barrier, insert one batch each into a fresh table of 1024 slots; every
 * batch alone fits without growing (600 keys), all of them together do not.
 * Every key must be INSERTED: concurrent growth decisions must account for
 * each other. */
#define RACE_BATCH 600
#define RACE_ROUNDS 100 /* fewer under a --scale below 1 (the sanitizer runs) */

typedef struct growrace_arg {
    hive_table *table;
    pthread_barrier_t *barrier;
    const uint64_t *keys;
    uint64_t rejected, other;
} growrace_arg;

static void *growrace_thread(void *p)
{
    growrace_arg *a = p;
    const ht_target *t = &target;
    ht_batch b;
    ht_batch_init(&b, t, RACE_BATCH);
    for (size_t i = 0; i < RACE_BATCH; i++) {
        ht_put(t, b.keys, i, a->keys[i]);
        ht_put(t, b.values, i, value_of(a->keys[i]));
    }
    memset(b.results, HT_FLAG_POISON, RACE_BATCH);
    pthread_barrier_wait(a->barrier);
    hive_status s =
        hive_insert(a->table, RACE_BATCH, b.keys, b.values, HIVE_COMBINE_ASSIGN, b.results, b.stream);
    a->other += s != HIVE_SUCCESS && s != HIVE_ERROR_TABLE_FULL;
    for (size_t i = 0; i < RACE_BATCH; i++) {
        a->rejected += b.results[i] == HIVE_RESULT_REJECTED_FULL;
        a->other += b.results[i] != HIVE_RESULT_INSERTED && b.results[i] != HIVE_RESULT_REJECTED_FULL;
    }
    ht_batch_free(&b);
    return NULL;
}

static void scenario_growrace(void)
{
    const ht_target *t = &target;
    uint64_t rejected = 0, other = 0, bad_rounds = 0;
    size_t total = (size_t)RACE_BATCH * n_threads;
    unsigned rounds = scale < 1 ? (unsigned)scaled(RACE_ROUNDS) : RACE_ROUNDS;
    uint64_t *keys = malloc(total * sizeof *keys);
    ht_rng rng;
    ht_rng_seed(&rng, 499);
    for (unsigned round = 0; round < rounds; round++) {
        hive_config c;
        hive_table *table = open_table("growrace", 0.25, &c);
        ht_context("stress growrace %s: round %u", t->width_name, round);
        ht_unique_keys(t, &rng, keys, total, NULL);
        pthread_barrier_t barrier;
        pthread_barrier_init(&barrier, NULL, n_threads);
        growrace_arg args[256];
        for (unsigned i = 0; i < n_threads; i++)
            args[i] = (growrace_arg){table, &barrier, keys + i * RACE_BATCH, 0, 0};
        run_threads(growrace_thread, args, sizeof args[0]);
        pthread_barrier_destroy(&barrier);
        uint64_t r = 0;
        for (unsigned i = 0; i < n_threads; i++) {
            r += args[i].rejected;
            other += args[i].other;
        }
        rejected += r;
        bad_rounds += r > 0;
        /* Whatever was reported INSERTED is there, and nothing else. */
        ht_ref ref;
        ht_ref_init(&ref);
        ht_batch b;
        ht_batch_init(&b, t, total);
        b.n = total;
        for (size_t i = 0; i < total; i++)
            ht_put(t, b.keys, i, keys[i]);
        HT_MUST(hive_find(table, total, b.keys, b.values, b.found, b.stream));
        for (size_t i = 0; i < total; i++)
            if (b.found[i] == 1)
                ht_ref_put(&ref, keys[i], value_of(keys[i]));
        ht_expect_contents(t, table, &ref, "growrace round end");
        HT_CHECK_EQ(ht_ref_size(&ref) + r, total, "keys found + keys rejected");
        ht_batch_free(&b);
        ht_ref_free(&ref);
        ht_close(table);
    }
    HT_CHECK(rejected == 0,
             "%llu of %zu keys REJECTED_FULL in %llu of %u rounds: %u threads each inserting %d "
             "keys at once into a fresh 1024-slot table (each batch alone fits; together they "
             "need growth that no thread asked for)",
             (unsigned long long)rejected, total * rounds, (unsigned long long)bad_rounds, rounds,
             n_threads, RACE_BATCH);
    HT_CHECK_EQ(other, 0, "statuses or results other than SUCCESS / TABLE_FULL / INSERTED / "
                          "REJECTED_FULL");
    free(keys);
}

/* ---------------------------------------------------------------- fill */

static void scenario_fill(void)
{
    const ht_target *t = &target;
    unsigned rounds = t->backend == HIVE_BACKEND_CUDA ? 8 : 2;
    size_t small = (size_t)(scale * (1 << 21));
    size_t most = t->backend == HIVE_BACKEND_CUDA ? (size_t)(scale * (1 << 23)) : small; /* the GPU's last round */
    uint64_t *keys = malloc(most * sizeof *keys);
    ht_rng rng;
    ht_rng_seed(&rng, 907);
    ht_batch b;
    ht_batch_init(&b, t, most);
    for (unsigned round = 0; round < rounds; round++) {
        int large = t->backend == HIVE_BACKEND_CUDA && round == rounds - 1;
        size_t n = large ? most : small;
        b.n = n;
        ht_context("stress fill %s: round %u, %zu keys to load 0.9", t->width_name, round, n);
        hive_config c = ht_config(t);
        c.initial_capacity = (uint64_t)((double)n / 0.9) + 1;
        c.min_load_factor = 0;
        c.max_load_factor = 1.0; /* pinned: the batch fits without growth */
        hive_table *table = ht_open(t, &c);
        ht_unique_keys(t, &rng, keys, n, NULL);
        for (size_t i = 0; i < n; i++) {
            ht_put(t, b.keys, i, keys[i]);
            ht_put(t, b.values, i, value_of(keys[i]));
        }
        memset(b.results, HT_FLAG_POISON, n);
        HT_CHECK_STATUS(hive_insert(table, n, b.keys, b.values, HIVE_COMBINE_ASSIGN, b.results, b.stream),
                        HIVE_SUCCESS, "insert %zu new keys in one batch", n);
        size_t bad = 0;
        for (size_t i = 0; i < n; i++)
            bad += b.results[i] != HIVE_RESULT_INSERTED;
        HT_CHECK_EQ(bad, 0, "keys not reported INSERTED");
        memset(b.found, HT_FLAG_POISON, n);
        HT_MUST(hive_find(table, n, b.keys, b.values, b.found, b.stream));
        bad = 0;
        for (size_t i = 0; i < n; i++)
            bad += b.found[i] != 1 || ht_get(t, b.values, i) != value_of(keys[i]);
        HT_CHECK_EQ(bad, 0, "inserted keys not found, or found with another value");
        hive_stats st;
        HT_MUST(hive_stats_get(table, &st));
        HT_CHECK_EQ(st.size, n, "size after the fill");
        ht_close(table);
    }
    ht_batch_free(&b);
    free(keys);
}

int main(int argc, char **argv)
{
    static char name[128];
    static const struct {
        const char *name;
        void (*run)(void);
    } scenarios[] = {{"disjoint", scenario_disjoint}, {"add", scenario_add},
                     {"keep", scenario_keep},         {"mixed", scenario_mixed},
                     {"growrace", scenario_growrace}, {"fill", scenario_fill}};
    enum { SCENARIOS = sizeof scenarios / sizeof scenarios[0] };
    const char *usage = "<kv32|kv64> [disjoint|add|keep|mixed|growrace|fill ...] [--backend cpu|cuda] "
                        "[--threads T] [--scale S] [--design NAME]";
    hive_design design = ht_take_design(&argc, argv, usage);
    hive_backend backend = HIVE_BACKEND_CPU;
    hive_key_width width = HIVE_KV32;
    if (argc < 2 || !ht_parse_width(argv[1], &width)) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        return HT_EXIT_FAIL;
    }
    int chosen[SCENARIOS] = {0}, any = 0;
    for (int a = 2; a < argc; a++) {
        if (strcmp(argv[a], "--backend") == 0 && a + 1 < argc) {
            if (!ht_parse_backend(argv[++a], &backend)) {
                fprintf(stderr, "usage: %s %s\n", argv[0], usage);
                return HT_EXIT_FAIL;
            }
            continue;
        }
        if (strcmp(argv[a], "--threads") == 0 && a + 1 < argc) {
            n_threads = (unsigned)atoi(argv[++a]);
            if (n_threads < 2 || n_threads > 256)
                n_threads = 8;
            continue;
        }
        if (strcmp(argv[a], "--scale") == 0 && a + 1 < argc) {
            scale = atof(argv[++a]);
            continue;
        }
        int known = 0;
        for (int s = 0; s < SCENARIOS; s++)
            if (strcmp(argv[a], scenarios[s].name) == 0)
                chosen[s] = known = any = 1;
        if (!known) {
            fprintf(stderr, "usage: %s %s\n", argv[0], usage);
            return HT_EXIT_FAIL;
        }
    }
    ht_target_init(&target, backend, width);
    ht_target_set_design(&target, design);
    ht_require_backend(&target);
    snprintf(name, sizeof name, "stress %s %s %s", target.backend_name, target.width_name, target.design_name);
    for (int s = 0; s < SCENARIOS; s++)
        if (!any || chosen[s]) {
            size_t len = strlen(name);
            snprintf(name + len, sizeof name - len, " %s", scenarios[s].name);
        }
    ht_begin(name);
    printf("%s: %u host threads, scale %g\n", name, n_threads, scale);
    for (int s = 0; s < SCENARIOS; s++)
        if (!any || chosen[s])
            scenarios[s].run();
    return ht_finish();
}
