/* move_window.c — CPU finds that run while inserts move keys between their
 * buckets (cuckoo evictions, core/move_body.h) never lose a present key.
 *
 * A move freezes its chain (key -> MOVING) and copies it from the end; a
 * find that meets a frozen slot must wait for the move rather than answer
 * "not found" (docs/design.md R5).  On a loaded machine the window is a few
 * instructions wide, so this test runs with HIVE_TEST_MOVE_PAUSE_NS set
 * (base/alloc.h): every chain stays frozen that long after its first copy.
 *
 * For the designs that move keys (Hive, cuckoo) and both key widths: a
 * table of the CPU backend filled to LOAD_START with known keys; two finder
 * threads look them up over and over, one by hive_find (finds alone: the
 * Hive design's two-stage loop) and one by hive_apply (finds among other
 * ops: the mixed loop, with absent keys among them), and check every
 * answer; meanwhile the main thread inserts new keys in small calls up to
 * LOAD_END, which evicts (and moves) old ones; the finders' looks begin
 * before the first insert and end a whole round after the last.  Every
 * present key must be found with its value on every look, and the table
 * must have evicted.  Without the variable the test runs as well, but
 * rarely meets a frozen slot.
 *
 *   hive-move-window */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hivetest.h"

#define CAPACITY (1u << 14) /* slots: no growth (max_load_factor 1) */
#define LOAD_START 0.80
#define LOAD_END 0.95
#define INSERT_CALL 32u   /* keys an insert call: many calls, each evicting a little */
#define FIND_CALL 1024u   /* keys a finder's call */

typedef struct shared {
    hive_table *table;
    int kv64;
    const uint64_t *keys; /* the preloaded keys, present throughout */
    uint64_t n;
    int stop;             /* (__atomic) */
} shared;

typedef struct finder {
    shared *s;
    int mixed;            /* hive_apply with absent keys among the finds, else hive_find */
    uint64_t rounds;      /* (__atomic) whole looks at every preloaded key */
    uint64_t wrong;
    pthread_t thread;
} finder;

static uint64_t value_of(uint64_t key, int kv64)
{
    uint64_t v = key * 0x9E3779B97F4A7C15ull + 1;
    return kv64 ? v : (uint32_t)v;
}

/* Keys into the caller's array of the table's width. */
static void put_keys(void *dst, const uint64_t *keys, uint64_t n, int kv64)
{
    for (uint64_t i = 0; i < n; i++)
        if (kv64)
            ((uint64_t *)dst)[i] = keys[i];
        else
            ((uint32_t *)dst)[i] = (uint32_t)keys[i];
}

static uint64_t get_value(const void *values, uint64_t i, int kv64)
{
    return kv64 ? ((const uint64_t *)values)[i] : ((const uint32_t *)values)[i];
}

/* One look at keys [at, at + n) of the preloaded ones (with n absent keys
 * beside them for the mixed finder); returns the wrong answers. */
static uint64_t look(finder *f, uint64_t at, uint64_t n, void *keys, void *values, uint8_t *out, uint8_t *ops)
{
    shared *s = f->s;
    uint64_t wrong = 0, m = n;
    put_keys(keys, s->keys + at, n, s->kv64);
    if (f->mixed) { /* absent keys: above every preloaded and inserted key */
        for (uint64_t i = 0; i < n; i++) {
            uint64_t absent = (1ull << 31) + at + i;
            put_keys((uint8_t *)keys + (n + i) * (s->kv64 ? 8 : 4), &absent, 1, s->kv64);
        }
        m = 2 * n;
        memset(ops, HIVE_OP_FIND, m);
        if (hive_apply(s->table, m, ops, keys, values, HIVE_COMBINE_ASSIGN, out, NULL) != HIVE_SUCCESS)
            return m;
    } else if (hive_find(s->table, n, keys, values, out, NULL) != HIVE_SUCCESS) {
        return n;
    }
    for (uint64_t i = 0; i < m; i++) {
        int present = i < n;
        int found = f->mixed ? out[i] == HIVE_RESULT_FOUND : out[i] != 0;
        if (found != present || (present && get_value(values, i, s->kv64) != value_of(s->keys[at + i], s->kv64)))
            wrong++;
    }
    return wrong;
}

static void *finder_main(void *arg)
{
    finder *f = (finder *)arg;
    shared *s = f->s;
    void *keys = malloc(2 * FIND_CALL * 8), *values = malloc(2 * FIND_CALL * 8);
    uint8_t *out = malloc(2 * FIND_CALL), *ops = malloc(2 * FIND_CALL);
    if (keys == NULL || values == NULL || out == NULL || ops == NULL) {
        f->wrong = 1;
    } else {
        while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
            for (uint64_t at = 0; at < s->n; at += FIND_CALL)
                f->wrong += look(f, at, s->n - at < FIND_CALL ? s->n - at : FIND_CALL, keys, values, out, ops);
            __atomic_fetch_add(&f->rounds, 1, __ATOMIC_RELEASE);
        }
    }
    free(keys), free(values), free(out), free(ops);
    return NULL;
}

/* Waits until both finders have finished `more` rounds beyond `from`. */
static void await_rounds(finder *f, const uint64_t from[2], uint64_t more)
{
    struct timespec nap = {0, 100000};
    for (int k = 0; k < 2; k++)
        while (__atomic_load_n(&f[k].rounds, __ATOMIC_ACQUIRE) < from[k] + more)
            nanosleep(&nap, NULL);
}

/* Distinct keys below 2^31 (the absent ones are above). */
static void draw_keys(ht_rng *r, uint64_t *keys, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        keys[i] = ((uint64_t)i << 17 | (ht_rng_next(r) & 0x1FFFFu)) & 0x7FFFFFFFu;
}

static void run(hive_design design, int kv64)
{
    const char *name = design == HIVE_DESIGN_HIVE ? "hive" : "cuckoo";
    hive_config cfg = HIVE_CONFIG_INIT;
    cfg.backend = HIVE_BACKEND_CPU;
    cfg.key_width = kv64 ? HIVE_KV64 : HIVE_KV32;
    cfg.design = design;
    cfg.initial_capacity = CAPACITY;
    cfg.max_load_factor = 1.0;
    cfg.min_load_factor = 0.0;
    cfg.threads = 1; /* each call on its caller: the finders are threads of their own */
    shared s = {0};
    s.kv64 = kv64;
    HT_CHECK_STATUS(hive_create(&cfg, &s.table), HIVE_SUCCESS, "%s KV%d: create", name, kv64 ? 64 : 32);
    if (s.table == NULL)
        return;
    hive_config got;
    HT_CHECK_STATUS(hive_get_config(s.table, &got), HIVE_SUCCESS, "get_config");
    uint64_t slots = got.initial_capacity, n0 = (uint64_t)(LOAD_START * (double)slots),
             n1 = (uint64_t)(LOAD_END * (double)slots);
    uint64_t *all = malloc(n1 * sizeof *all);
    void *keys = malloc(n1 * 8), *values = malloc(n1 * 8);
    ht_rng r;
    ht_rng_seed(&r, 0x6d6f7665u + (uint64_t)design * 2 + (uint64_t)kv64);
    draw_keys(&r, all, n1);
    for (uint64_t i = 0; i < n1; i++) {
        uint64_t v = value_of(all[i], kv64);
        put_keys((uint8_t *)values + i * (kv64 ? 8 : 4), &v, 1, kv64);
    }
    put_keys(keys, all, n1, kv64);
    HT_CHECK_STATUS(hive_insert(s.table, n0, keys, values, HIVE_COMBINE_ASSIGN, NULL, NULL), HIVE_SUCCESS,
                    "%s KV%d: preload of %llu keys", name, kv64 ? 64 : 32, (unsigned long long)n0);
    hive_stats before;
    HT_CHECK_STATUS(hive_stats_get(s.table, &before), HIVE_SUCCESS, "stats");

    s.keys = all;
    s.n = n0;
    finder f[2] = {{&s, 0, 0, 0, 0}, {&s, 1, 0, 0, 0}};
    for (int k = 0; k < 2; k++)
        if (pthread_create(&f[k].thread, NULL, finder_main, &f[k]) != 0) {
            HT_CHECK(0, "finder thread");
            exit(ht_finish());
        }
    /* The finders under way first, and a whole round of each after the
     * inserts, so that their looks span every move. */
    const uint64_t none[2] = {0, 0};
    await_rounds(f, none, 1);
    /* New keys in small calls up to LOAD_END: their inserts evict old keys. */
    uint64_t inserted = n0;
    size_t w = kv64 ? 8 : 4;
    while (inserted < n1) {
        uint64_t m = n1 - inserted < INSERT_CALL ? n1 - inserted : INSERT_CALL;
        hive_status st = hive_insert(s.table, m, (uint8_t *)keys + inserted * w, (uint8_t *)values + inserted * w,
                                     HIVE_COMBINE_ASSIGN, NULL, NULL);
        if (st != HIVE_SUCCESS) /* crowded: the keys placed so far are what counts */
            break;
        inserted += m;
    }
    const uint64_t now[2] = {__atomic_load_n(&f[0].rounds, __ATOMIC_ACQUIRE),
                             __atomic_load_n(&f[1].rounds, __ATOMIC_ACQUIRE)};
    await_rounds(f, now, 1);
    __atomic_store_n(&s.stop, 1, __ATOMIC_RELEASE);
    for (int k = 0; k < 2; k++)
        pthread_join(f[k].thread, NULL);

    hive_stats after;
    HT_CHECK_STATUS(hive_stats_get(s.table, &after), HIVE_SUCCESS, "stats");
    HT_CHECK(after.evictions > before.evictions, "%s KV%d: no key was moved (%llu inserted)", name, kv64 ? 64 : 32,
             (unsigned long long)(inserted - n0));
    for (int k = 0; k < 2; k++)
        HT_CHECK(f[k].wrong == 0, "%s KV%d: the %s finder got %llu wrong answers in %llu rounds", name,
                 kv64 ? 64 : 32, f[k].mixed ? "mixed" : "plain", (unsigned long long)f[k].wrong,
                 (unsigned long long)f[k].rounds);
    /* Afterwards every key inserted, old and new, is there with its value. */
    uint8_t *found = malloc(n1);
    HT_CHECK_STATUS(hive_find(s.table, inserted, keys, values, found, NULL), HIVE_SUCCESS, "final find");
    uint64_t missing = 0;
    for (uint64_t i = 0; i < inserted; i++)
        missing += !found[i] || get_value(values, i, kv64) != value_of(all[i], kv64);
    HT_CHECK(missing == 0, "%s KV%d: %llu of %llu keys missing or wrong at the end", name, kv64 ? 64 : 32,
             (unsigned long long)missing, (unsigned long long)inserted);
    printf("%s KV%d: %llu keys moved, finder rounds %llu and %llu\n", name, kv64 ? 64 : 32,
           (unsigned long long)(after.evictions - before.evictions), (unsigned long long)f[0].rounds,
           (unsigned long long)f[1].rounds);
    free(found), free(all), free(keys), free(values);
    hive_destroy(s.table);
}

int main(void)
{
    for (int kv64 = 0; kv64 < 2; kv64++) {
        run(HIVE_DESIGN_HIVE, kv64);
        run(HIVE_DESIGN_CUCKOO, kv64);
    }
    return ht_finish();
}
