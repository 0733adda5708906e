/* lifecycle.c — hive_destroy and hive_clear while other threads' calls run:
 *
 *   hive-lifecycle <cpu|cuda> <kv32|kv64> [destroy|clear|writer ...] [--keys N]
 *
 *   destroy  four threads each make ONE call of N keys (two finds of present
 *            keys, an insert of new keys that grows the table, an erase of
 *            present keys) and say so right before it; the main thread waits
 *            for all four, sleeps a few milliseconds and destroys the table.
 *            hive_destroy waits until every call already inside the table's
 *            API has returned, and a call that starts while the table is
 *            being destroyed returns HIVE_ERROR_INVALID_ARGUMENT, so each
 *            call returns SUCCESS, with every result right, or
 *            INVALID_ARGUMENT, with an explanation.  A destroy that frees
 *            memory under a running call shows as a crash, wrong results, or
 *            (in the AddressSanitizer build) a use-after-free report.  Three
 *            rounds, with different sleeps.
 *   clear    two threads find chunks of N present keys over and over while
 *            the main thread clears the table: every key is found with its
 *            own value or not found (its value entry untouched), never a
 *            wrong value; a find that starts after hive_clear returned finds
 *            nothing; afterwards the size is 0 and no key is found.  The
 *            table is filled again and cleared twice more: it keeps working.
 *   writer   three threads find N/8 present keys over and over, without
 *            pause, while the main thread doubles the table six times with
 *            hive_reserve: each resize must get the lock within seconds (a
 *            reader-preferring lock held it off for minutes), and every key
 *            is there after.
 *
 * A call that starts after hive_destroy has returned is the caller's error
 * (use after free), so the threads here say "ready" only right before their
 * call, and the main thread gives them a few milliseconds to be inside it. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hivetest.h"

static ht_target target;
static size_t batch_keys = 1u << 18; /* --keys: N */

/* The value every key is stored with, so any thread can check a find. */
static uint64_t value_of(uint64_t key)
{
    uint64_t x = (key + 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull;
    return (x ^ (x >> 31)) & target.value_mask;
}

/* What a find leaves in the value entry of an absent key: never value_of(key). */
static uint64_t poison_of(uint64_t key) { return ~value_of(key) & target.value_mask; }

static void sleep_us(unsigned us)
{
    struct timespec ts = {(time_t)(us / 1000000), (long)(us % 1000000) * 1000L};
    nanosleep(&ts, NULL);
}

/* Waits until `count` threads have said they are about to call. */
static void wait_ready(atomic_uint *ready, unsigned count)
{
    while (atomic_load(ready) < count)
        sleep_us(100);
}

/* n distinct keys of the target's width from `seed`, in host memory (free). */
static uint64_t *unique_keys(size_t n, uint64_t seed)
{
    uint64_t *keys = malloc(n * sizeof *keys);
    if (keys == NULL)
        ht_fatal("no memory for %zu keys", n);
    ht_rng rng;
    ht_rng_seed(&rng, seed);
    ht_unique_keys(&target, &rng, keys, n, NULL);
    return keys;
}

/* Puts keys[0..n) into b with value_of(key) and one hive_insert. */
static void insert_known(hive_table *table, ht_batch *b, const uint64_t *keys, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ht_put(&target, b->keys, i, keys[i]);
        ht_put(&target, b->values, i, value_of(keys[i]));
    }
    b->n = n;
    HT_MUST(hive_insert(table, n, b->keys, b->values, HIVE_COMBINE_ASSIGN, NULL, b->stream));
}

/* ---------------------------------------------------------------- destroy */

enum call_kind { CALL_FIND, CALL_INSERT, CALL_ERASE };
static const char *const call_name[] = {"find", "insert", "erase"};

typedef struct destroy_worker {
    hive_table *table;
    enum call_kind kind;
    ht_batch batch;       /* its keys, and where the call writes */
    atomic_uint *ready;
    atomic_int returned;  /* set once the call has returned */
    hive_status status;
    char error[256];      /* hive_last_error() of a refused call */
} destroy_worker;

static void *destroy_worker_main(void *arg)
{
    destroy_worker *w = arg;
    ht_batch *b = &w->batch;
    atomic_fetch_add(w->ready, 1);
    switch (w->kind) {
    case CALL_FIND:
        w->status = hive_find(w->table, b->n, b->keys, b->values, b->found, b->stream);
        break;
    case CALL_INSERT:
        w->status = hive_insert(w->table, b->n, b->keys, b->values, HIVE_COMBINE_ASSIGN,
                                b->results, b->stream);
        break;
    case CALL_ERASE:
        w->status = hive_erase(w->table, b->n, b->keys, b->results, b->stream);
        break;
    }
    atomic_store(&w->returned, 1);
    snprintf(w->error, sizeof w->error, "%s", hive_last_error());
    return NULL;
}

/* A call that returned SUCCESS did all its work: every key found with its
 * value, inserted, or erased. */
static void check_destroy_worker(const destroy_worker *w, const char *where)
{
    const ht_batch *b = &w->batch;
    if (w->status == HIVE_ERROR_INVALID_ARGUMENT) {
        HT_CHECK(w->error[0] != '\0', "%s: %s refused without an explanation", where,
                 call_name[w->kind]);
        return;
    }
    if (!HT_CHECK(w->status == HIVE_SUCCESS,
                  "%s: %s returned %s (%s); a call beside hive_destroy returns SUCCESS or "
                  "INVALID_ARGUMENT",
                  where, call_name[w->kind], hive_status_string(w->status), w->error))
        return;
    size_t wrong = 0, first = 0;
    for (size_t i = 0; i < b->n; i++) {
        uint64_t key = ht_get(&target, b->keys, i);
        int ok = w->kind == CALL_FIND     ? b->found[i] == 1 &&
                                                ht_get(&target, b->values, i) == value_of(key)
                 : w->kind == CALL_INSERT ? b->results[i] == HIVE_RESULT_INSERTED
                                          : b->results[i] == HIVE_RESULT_ERASED;
        if (!ok && wrong++ == 0)
            first = i;
    }
    HT_CHECK_EQ(wrong, 0,
                "%s: keys of a %s that returned SUCCESS with a wrong outcome (first: element "
                "%zu, found %u, result %s)",
                where, call_name[w->kind], first, b->found[first],
                ht_result_name(b->results[first]));
}

static void scenario_destroy(void)
{
    const ht_target *t = &target;
    static const unsigned sleeps_ms[] = {2, 5, 10};
    const enum call_kind kinds[] = {CALL_FIND, CALL_FIND, CALL_INSERT, CALL_ERASE};
    enum { WORKERS = 4 };
    const size_t n = batch_keys;
    uint64_t *keys = unique_keys(3 * n, 7); /* present, erased, new */
    const uint64_t *present = keys, *erased = keys + n, *fresh = keys + 2 * n;
    unsigned in_flight_total = 0;
    for (unsigned round = 0; round < sizeof sleeps_ms / sizeof sleeps_ms[0]; round++) {
        char where[96];
        snprintf(where, sizeof where, "destroy round %u (sleep %u ms)", round, sleeps_ms[round]);
        ht_context("lifecycle %s %s: %s, %zu keys per call", t->backend_name, t->width_name,
                   where, n);
        hive_config c = ht_config(t);
        hive_table *table = ht_open(t, &c);
        destroy_worker w[WORKERS];
        atomic_uint ready = 0;
        for (unsigned i = 0; i < WORKERS; i++) {
            w[i].table = table;
            w[i].kind = kinds[i];
            w[i].ready = &ready;
            atomic_init(&w[i].returned, 0);
            w[i].status = HIVE_ERROR_INTERNAL;
            w[i].error[0] = '\0';
            ht_batch_init(&w[i].batch, t, n);
            ht_batch_poison_flags(&w[i].batch);
        }
        /* The finders' and the eraser's keys are in the table. */
        insert_known(table, &w[0].batch, present, n);
        insert_known(table, &w[3].batch, erased, n);
        for (size_t k = 0; k < n; k++) {
            ht_put(t, w[1].batch.keys, k, present[k]);
            ht_put(t, w[0].batch.values, k, poison_of(present[k]));
            ht_put(t, w[1].batch.values, k, poison_of(present[k]));
            ht_put(t, w[2].batch.keys, k, fresh[k]);
            ht_put(t, w[2].batch.values, k, value_of(fresh[k]));
        }
        w[1].batch.n = n;
        w[2].batch.n = n;

        pthread_t th[WORKERS];
        for (unsigned i = 0; i < WORKERS; i++)
            if (pthread_create(&th[i], NULL, destroy_worker_main, &w[i]) != 0)
                ht_fatal("pthread_create failed");
        wait_ready(&ready, WORKERS);
        sleep_us(1000 * sleeps_ms[round]);
        unsigned in_flight = 0;
        for (unsigned i = 0; i < WORKERS; i++)
            in_flight += !atomic_load(&w[i].returned);
        HT_CHECK_STATUS(hive_destroy(table), HIVE_SUCCESS, "%s: hive_destroy", where);
        for (unsigned i = 0; i < WORKERS; i++)
            pthread_join(th[i], NULL);

        unsigned refused = 0;
        for (unsigned i = 0; i < WORKERS; i++) {
            check_destroy_worker(&w[i], where);
            refused += w[i].status == HIVE_ERROR_INVALID_ARGUMENT;
            ht_batch_free(&w[i].batch);
        }
        in_flight_total += in_flight;
        printf("  %s: %u of %u calls still running when hive_destroy began, %u refused\n",
               where, in_flight, WORKERS, refused);
    }
    /* Otherwise nothing above was concurrent: the calls are too small for
     * this machine. */
    HT_CHECK(in_flight_total > 0,
             "no call was still running when hive_destroy began: raise --keys (now %zu)", n);
    free(keys);
}

/* ---------------------------------------------------------------- clear */

enum { CLEAR_CHUNKS = 8 };

typedef struct clear_finder {
    hive_table *table;
    unsigned id;
    const uint64_t *keys; /* the N keys in the table before the clear */
    size_t n;
    ht_batch batch;       /* room for one chunk */
    atomic_uint *ready;
    atomic_int *cleared;  /* set once hive_clear has returned */
    /* Counted by the thread, read after the join. */
    uint64_t calls, calls_after, hits, misses;
} clear_finder;

static void *clear_finder_main(void *arg)
{
    clear_finder *f = arg;
    const ht_target *t = &target;
    ht_batch *b = &f->batch;
    ht_context("lifecycle %s %s: clear, finder %u", t->backend_name, t->width_name, f->id);
    const size_t chunk = (f->n + CLEAR_CHUNKS - 1) / CLEAR_CHUNKS;
    for (uint64_t call = 0;; call++) {
        size_t off = (size_t)((call + f->id) % CLEAR_CHUNKS) * chunk;
        size_t m = off >= f->n ? 0 : f->n - off < chunk ? f->n - off : chunk;
        for (size_t i = 0; i < m; i++) {
            ht_put(t, b->keys, i, f->keys[off + i]);
            ht_put(t, b->values, i, poison_of(f->keys[off + i]));
            b->found[i] = HT_FLAG_POISON;
        }
        int after_clear = atomic_load(f->cleared);
        if (call == 0)
            atomic_fetch_add(f->ready, 1);
        HT_CHECK_STATUS(hive_find(f->table, m, b->keys, b->values, b->found, b->stream),
                        HIVE_SUCCESS, "find of chunk %llu", (unsigned long long)call);
        size_t wrong = 0, first = 0;
        for (size_t i = 0; i < m; i++) {
            uint64_t key = f->keys[off + i], got = ht_get(t, b->values, i);
            int hit = b->found[i] == 1;
            int ok = hit ? !after_clear && got == value_of(key)
                         : b->found[i] == 0 && got == poison_of(key);
            f->hits += hit;
            f->misses += !hit;
            if (!ok && wrong++ == 0)
                first = i;
        }
        HT_CHECK_EQ(wrong, 0,
                    "find %llu (%s the clear had returned): wrong entries, first key 0x%llx: "
                    "found %u, value 0x%llx, stored 0x%llx",
                    (unsigned long long)call, after_clear ? "after" : "before",
                    (unsigned long long)f->keys[off + first], b->found[first],
                    (unsigned long long)ht_get(t, b->values, first),
                    (unsigned long long)value_of(f->keys[off + first]));
        f->calls++;
        f->calls_after += after_clear;
        if (after_clear && f->calls_after >= CLEAR_CHUNKS)
            return NULL;
    }
}

static void scenario_clear(void)
{
    const ht_target *t = &target;
    static const unsigned sleeps_ms[] = {1, 3, 8};
    enum { FINDERS = 2 };
    const size_t n = batch_keys;
    uint64_t *keys = unique_keys(n, 11);
    hive_config c = ht_config(t);
    ht_context("lifecycle %s %s: clear, opening", t->backend_name, t->width_name);
    hive_table *table = ht_open(t, &c);
    ht_batch all;
    ht_batch_init(&all, t, n);
    for (unsigned round = 0; round < sizeof sleeps_ms / sizeof sleeps_ms[0]; round++) {
        char where[96];
        snprintf(where, sizeof where, "clear round %u (sleep %u ms)", round, sleeps_ms[round]);
        ht_context("lifecycle %s %s: %s, %zu keys", t->backend_name, t->width_name, where, n);
        insert_known(table, &all, keys, n);
        uint64_t size = 0;
        HT_MUST(hive_size(table, &size));
        HT_CHECK_EQ(size, n, "%s: size before the clear", where);

        clear_finder f[FINDERS];
        atomic_uint ready = 0;
        atomic_int cleared = 0;
        pthread_t th[FINDERS];
        for (unsigned i = 0; i < FINDERS; i++) {
            memset(&f[i], 0, sizeof f[i]);
            f[i].table = table;
            f[i].id = i;
            f[i].keys = keys;
            f[i].n = n;
            f[i].ready = &ready;
            f[i].cleared = &cleared;
            ht_batch_init(&f[i].batch, t, (n + CLEAR_CHUNKS - 1) / CLEAR_CHUNKS);
        }
        for (unsigned i = 0; i < FINDERS; i++)
            if (pthread_create(&th[i], NULL, clear_finder_main, &f[i]) != 0)
                ht_fatal("pthread_create failed");
        wait_ready(&ready, FINDERS);
        sleep_us(1000 * sleeps_ms[round]);
        HT_CHECK_STATUS(hive_clear(table, NULL), HIVE_SUCCESS, "%s: hive_clear", where);
        atomic_store(&cleared, 1);
        uint64_t calls = 0, after = 0, hits = 0, misses = 0;
        for (unsigned i = 0; i < FINDERS; i++) {
            pthread_join(th[i], NULL);
            calls += f[i].calls;
            after += f[i].calls_after;
            hits += f[i].hits;
            misses += f[i].misses;
            ht_batch_free(&f[i].batch);
        }
        HT_MUST(hive_size(table, &size));
        HT_CHECK_EQ(size, 0, "%s: size after the clear", where);
        ht_expect_absent(t, table, keys, n, &all, where);
        printf("  %s: %llu finds (%llu after the clear returned), %llu keys found, %llu not\n",
               where, (unsigned long long)calls, (unsigned long long)after,
               (unsigned long long)hits, (unsigned long long)misses);
    }
    ht_batch_free(&all);
    ht_close(table);
    free(keys);
}

/* ---------------------------------------------------------------- writer */

/* A resize waits for the calls that share the resize lock, never for a
 * stream of them: readers that overlap without pause must not hold a
 * growth off (a reader-preferring lock did, for minutes). */
#define WRITER_FINDERS 3
#define WRITER_GROWS 6
#define WRITER_MOST_SECONDS 5.0

typedef struct writer_finder {
    hive_table *table;
    const uint64_t *keys;
    size_t n;
    ht_batch batch;
    atomic_uint *ready;
    atomic_int *stop;
    uint64_t calls; /* read after the join */
} writer_finder;

static void *writer_finder_main(void *arg)
{
    writer_finder *f = arg;
    const ht_target *t = &target;
    ht_batch *b = &f->batch;
    for (size_t i = 0; i < f->n; i++)
        ht_put(t, b->keys, i, f->keys[i]);
    atomic_fetch_add(f->ready, 1);
    while (!atomic_load(f->stop)) {
        HT_CHECK_STATUS(hive_find(f->table, f->n, b->keys, b->values, b->found, b->stream), HIVE_SUCCESS,
                        "find while a resize waits");
        f->calls++;
    }
    return NULL;
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) * 1e-9;
}

static void scenario_writer(void)
{
    const ht_target *t = &target;
    const size_t n = batch_keys / 8 + 1;
    uint64_t *keys = unique_keys(n, 13);
    hive_config c = ht_config(t);
    ht_context("lifecycle %s %s: writer, opening", t->backend_name, t->width_name);
    hive_table *table = ht_open(t, &c);
    ht_batch all;
    ht_batch_init(&all, t, n);
    insert_known(table, &all, keys, n);

    writer_finder f[WRITER_FINDERS];
    atomic_uint ready = 0;
    atomic_int stop = 0;
    pthread_t th[WRITER_FINDERS];
    for (unsigned i = 0; i < WRITER_FINDERS; i++) {
        memset(&f[i], 0, sizeof f[i]);
        f[i].table = table;
        f[i].keys = keys;
        f[i].n = n;
        f[i].ready = &ready;
        f[i].stop = &stop;
        ht_batch_init(&f[i].batch, t, n);
        if (pthread_create(&th[i], NULL, writer_finder_main, &f[i]) != 0)
            ht_fatal("pthread_create failed");
    }
    wait_ready(&ready, WRITER_FINDERS);
    double slowest = 0;
    hive_stats st;
    for (unsigned g = 0; g < WRITER_GROWS; g++) {
        HT_MUST(hive_stats_get(table, &st));
        ht_context("lifecycle %s %s: writer, grow %u of %u", t->backend_name, t->width_name, g + 1,
                   WRITER_GROWS);
        struct timespec t0;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        HT_CHECK_STATUS(hive_reserve(table, 2 * st.capacity, NULL), HIVE_SUCCESS, "hive_reserve");
        double took = seconds_since(&t0);
        slowest = took > slowest ? took : slowest;
        HT_CHECK(took < WRITER_MOST_SECONDS,
                 "hive_reserve took %.2f s while %d threads found keys without pause: the resize "
                 "waited for a stream of readers", took, WRITER_FINDERS);
    }
    atomic_store(&stop, 1);
    uint64_t calls = 0;
    for (unsigned i = 0; i < WRITER_FINDERS; i++) {
        pthread_join(th[i], NULL);
        calls += f[i].calls;
        ht_batch_free(&f[i].batch);
    }
    ht_ref ref;
    ht_ref_init(&ref);
    for (size_t i = 0; i < n; i++)
        ht_ref_put(&ref, keys[i], value_of(keys[i]));
    ht_expect_contents(t, table, &ref, "after the grows");
    ht_ref_free(&ref);
    printf("  writer: %d grows, the slowest in %.3f s, beside %llu finds of %zu keys\n", WRITER_GROWS,
           slowest, (unsigned long long)calls, n);
    ht_batch_free(&all);
    ht_close(table);
    free(keys);
}

/* ---------------------------------------------------------------- main */

static const struct {
    const char *name;
    void (*run)(void);
} scenarios[] = {{"destroy", scenario_destroy}, {"clear", scenario_clear}, {"writer", scenario_writer}};
#define SCENARIOS (sizeof scenarios / sizeof scenarios[0])

int main(int argc, char **argv)
{
    static char name[96];
    const char *usage = "<cpu|cuda> <kv32|kv64> [destroy|clear|writer ...] [--keys N]";
    if (argc < 3) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        return HT_EXIT_FAIL;
    }
    ht_target_from_args(&target, argc, argv, 1, usage);
    int wanted[SCENARIOS] = {0}, any = 0;
    for (int a = 3; a < argc; a++) {
        if (strcmp(argv[a], "--keys") == 0 && a + 1 < argc) {
            batch_keys = (size_t)strtoull(argv[++a], NULL, 10);
            if (batch_keys < CLEAR_CHUNKS)
                batch_keys = CLEAR_CHUNKS;
            continue;
        }
        size_t s = 0;
        while (s < SCENARIOS && strcmp(argv[a], scenarios[s].name) != 0)
            s++;
        if (s == SCENARIOS) {
            fprintf(stderr, "unknown scenario %s; usage: %s %s\n", argv[a], argv[0], usage);
            return HT_EXIT_FAIL;
        }
        wanted[s] = any = 1;
    }
    snprintf(name, sizeof name, "lifecycle %s %s", target.backend_name, target.width_name);
    ht_begin(name);
    ht_require_backend(&target);
    for (size_t s = 0; s < SCENARIOS; s++)
        if (wanted[s] || !any)
            scenarios[s].run();
    return ht_finish();
}
