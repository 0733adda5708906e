/* wl_cpu_compare.c — the `cpu-compare` workload: hive's CPU backend against
 * GLib's GHashTable and Concurrency Kit's ck_ht on the same N unique random
 * keys (N = 2^22 by default; --n), bulk insert then bulk find of all N.
 *
 *   hive     table at load 0.9 (initial_capacity N / 0.9, min_load_factor 0),
 *            config.threads = 1 and = 2; one hive_insert, one hive_find
 *   GLib     GHashTable (g_direct_hash for KV32, a folding hash for KV64),
 *            single-threaded only: GLib has no concurrent mode, and a mutex
 *            around every call would only measure the mutex
 *   ck_ht    CK_HT_MODE_DIRECT, sized for N at init; SPMC: insert by one
 *            writer (ck_ht_put_spmc), find by 1 and by 2 reader threads
 *            (ck_ht_get_spmc, each thread half the keys)
 *
 * Reported in ops/s (M ops/s in the table), with ratios hive/other.  Key 0
 * (ck_ht's empty marker) never occurs: a key equal to 0 is replaced from a
 * spare counter.  Verified: every structure returns every key's value and
 * holds N keys.  GLib and ck are optional at configure time; when missing
 * their rows are skipped with a notice. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads.h"

#ifdef BENCH_HAVE_GLIB
#include <glib.h>
#endif
#ifdef BENCH_HAVE_CK
#include <ck_ht.h>
#endif

typedef struct cmp_data {
    uint32_t bits;
    uint64_t n;
    uint64_t *keys;   /* the keys, as 64-bit words whatever the width */
    uint64_t *values;
} cmp_data;

/* ---------------------------------------------------------------- GLib */

#ifdef BENCH_HAVE_GLIB
static guint fold_hash(gconstpointer p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (guint)x;
}

/* Returns wrong lookups (0 when right); times in ti/tf. */
static int64_t glib_run(const cmp_data *d, double *ti, double *tf)
{
    GHashTable *h = g_hash_table_new(d->bits == 32 ? g_direct_hash : fold_hash, g_direct_equal);
    double t0 = bench_now();
    for (uint64_t i = 0; i < d->n; i++)
        g_hash_table_insert(h, (gpointer)(uintptr_t)d->keys[i], (gpointer)(uintptr_t)d->values[i]);
    *ti = bench_now() - t0;
    int64_t bad = 0;
    t0 = bench_now();
    for (uint64_t i = 0; i < d->n; i++) {
        gpointer v = NULL;
        if (!g_hash_table_lookup_extended(h, (gconstpointer)(uintptr_t)d->keys[i], NULL, &v) ||
            (uint64_t)(uintptr_t)v != d->values[i])
            bad++;
    }
    *tf = bench_now() - t0;
    if (g_hash_table_size(h) != d->n)
        bad++;
    g_hash_table_destroy(h);
    return bad;
}
#endif

/* ---------------------------------------------------------------- ck_ht */

#ifdef BENCH_HAVE_CK
static void *ck_malloc_fn(size_t r) { return malloc(r); }
static void *ck_realloc_fn(void *p, size_t o, size_t n, bool d)
{
    (void)o;
    (void)d;
    return realloc(p, n);
}
static void ck_free_fn(void *p, size_t b, bool r)
{
    (void)b;
    (void)r;
    free(p);
}
static struct ck_malloc ck_alloc = {ck_malloc_fn, ck_realloc_fn, ck_free_fn};

typedef struct ck_reader {
    ck_ht_t *ht;
    const cmp_data *d;
    uint64_t lo, hi;
    int64_t bad;
} ck_reader;

static void *ck_read(void *p)
{
    ck_reader *r = p;
    int64_t bad = 0;
    for (uint64_t i = r->lo; i < r->hi; i++) {
        ck_ht_hash_t h;
        ck_ht_entry_t e;
        ck_ht_hash_direct(&h, r->ht, (uintptr_t)r->d->keys[i]);
        ck_ht_entry_key_set_direct(&e, (uintptr_t)r->d->keys[i]);
        if (!ck_ht_get_spmc(r->ht, h, &e) || ck_ht_entry_value_direct(&e) != (uintptr_t)r->d->values[i])
            bad++;
    }
    r->bad = bad;
    return NULL;
}

/* Inserts with one writer, then finds with `readers` threads. */
static int64_t ck_run(const cmp_data *d, int readers, double *ti, double *tf)
{
    ck_ht_t ht;
    if (!ck_ht_init(&ht, CK_HT_MODE_DIRECT, NULL, &ck_alloc, d->n, 0x48495645u)) {
        fprintf(stderr, "cpu-compare: ck_ht_init failed\n");
        return -1;
    }
    int64_t bad = 0;
    double t0 = bench_now();
    for (uint64_t i = 0; i < d->n; i++) {
        ck_ht_hash_t h;
        ck_ht_entry_t e;
        ck_ht_hash_direct(&h, &ht, (uintptr_t)d->keys[i]);
        ck_ht_entry_set_direct(&e, h, (uintptr_t)d->keys[i], (uintptr_t)d->values[i]);
        if (!ck_ht_put_spmc(&ht, h, &e))
            bad++;
    }
    *ti = bench_now() - t0;
    ck_reader r[2];
    pthread_t tid[2];
    int started[2] = {0, 0};
    t0 = bench_now();
    for (int k = 0; k < readers; k++) {
        r[k].ht = &ht;
        r[k].d = d;
        r[k].lo = d->n * (uint64_t)k / (uint64_t)readers;
        r[k].hi = d->n * (uint64_t)(k + 1) / (uint64_t)readers;
        r[k].bad = 0;
        started[k] = k > 0 && pthread_create(&tid[k], NULL, ck_read, &r[k]) == 0;
    }
    for (int k = 0; k < readers; k++)
        if (!started[k])
            ck_read(&r[k]);
    for (int k = 0; k < readers; k++) {
        if (started[k])
            pthread_join(tid[k], NULL);
        bad += r[k].bad;
    }
    *tf = bench_now() - t0;
    if (ck_ht_count(&ht) != d->n)
        bad++;
    ck_ht_destroy(&ht);
    return bad;
}
#endif

/* ---------------------------------------------------------------- hive */

static int64_t hive_run(bench_ctx *c, const cmp_data *d, uint32_t threads, void *keys,
                        void *vals, uint8_t *found, double *ti, double *tf, uint64_t *bytes)
{
    hive_config cfg = bench_config(c, (uint64_t)ceil((double)d->n / BENCH_COMPARE_LF), 1.0, 0.0);
    cfg.threads = threads;
    hive_table *t = NULL;
    int64_t bad = 0;
    if (bench_create(c, &cfg, &t) != 0)
        return -1;
    for (uint64_t i = 0; i < d->n; i++) {
        if (d->bits == 32) {
            ((uint32_t *)keys)[i] = (uint32_t)d->keys[i];
            ((uint32_t *)vals)[i] = (uint32_t)d->values[i];
        } else {
            ((uint64_t *)keys)[i] = d->keys[i];
            ((uint64_t *)vals)[i] = d->values[i];
        }
    }
    double t0 = bench_now();
    hive_status s = hive_insert(t, d->n, keys, vals, HIVE_COMBINE_ASSIGN, NULL, NULL);
    *ti = bench_now() - t0;
    int st = bench_status(c, s, "hive_insert");
    if (st < 0)
        goto fail;
    bad += st;
    memset(vals, 0, d->n * c->kbytes);
    memset(found, 0, d->n);
    t0 = bench_now();
    s = hive_find(t, d->n, keys, vals, found, NULL);
    *tf = bench_now() - t0;
    st = bench_status(c, s, "hive_find");
    if (st < 0)
        goto fail;
    bad += st;
    for (uint64_t i = 0; i < d->n; i++) {
        uint64_t v = d->bits == 32 ? ((uint32_t *)vals)[i] : ((uint64_t *)vals)[i];
        bad += !found[i] || v != d->values[i];
    }
    uint64_t size = 0;
    if (bench_status(c, hive_size(t, &size), "hive_size") < 0)
        goto fail;
    bad += size != d->n;
    hive_stats hs;
    if (bench_stats(c, t, &hs) != 0)
        goto fail;
    *bytes = hs.bytes_held;
    hive_destroy(t);
    return bad;
fail:
    hive_destroy(t);
    return -1;
}

/* ---------------------------------------------------------------- workload */

enum { H1, H2, GL, CK1, CK2, NSYS };

int wl_cpu_compare(bench_ctx *c)
{
    bench_begin(c, "cpu-compare");
    if (c->gpu) {
        printf("cpu-compare: compares the CPU backend; run it with --backend cpu\n");
        return bench_end(c);
    }
    uint64_t n = c->n ? c->n : c->def->compare_keys;
    cmp_data d = {c->bits, n, malloc(n * sizeof(uint64_t)), malloc(n * sizeof(uint64_t))};
    void *keys = bench_alloc(c, n * c->kbytes), *vals = bench_alloc(c, n * c->kbytes);
    uint8_t *found = bench_alloc(c, n);
    double ti[NSYS][BENCH_MAX_RUNS] = {{0}}, tf[NSYS][BENCH_MAX_RUNS] = {{0}};
    int have[NSYS] = {1, 1, 0, 0, 0}, okk[NSYS] = {1, 1, 1, 1, 1}, rc = 0;
    uint64_t bytes = 0;
#ifdef BENCH_HAVE_GLIB
    have[GL] = 1;
#else
    printf("cpu-compare: GLib (glib-2.0) was not found when hive was configured: its rows are "
           "skipped\n");
#endif
#ifdef BENCH_HAVE_CK
    have[CK1] = have[CK2] = 1;
#else
    printf("cpu-compare: Concurrency Kit (ck_ht.h, libck) was not found when hive was "
           "configured: its rows are skipped\n");
#endif
    if (d.keys == NULL || d.values == NULL || keys == NULL || vals == NULL || found == NULL) {
        fprintf(stderr, "cpu-compare: out of memory for %llu keys\n", (unsigned long long)n);
        rc = -1;
        goto out;
    }
    bench_progress(c, "cpu-compare: %llu keys, KV%u, %d runs", (unsigned long long)n, c->bits,
                   c->runs);
    for (int r = -1; r < c->runs; r++) {
        int ri = r < 0 ? 0 : r;
        bench_keys k = bench_keys_for(c, bench_seed(c, 0, r));
        uint64_t spare = n;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t key = bench_key(&k, i);
            while (key == 0)
                key = bench_key(&k, spare++);
            d.keys[i] = key;
            d.values[i] = bench_value(c->bits, key, 0);
        }
        int64_t bad;
        bad = hive_run(c, &d, 1, keys, vals, found, &ti[H1][ri], &tf[H1][ri], &bytes);
        if (bad < 0)
            goto fail;
        okk[H1] &= bad == 0;
        bad = hive_run(c, &d, 2, keys, vals, found, &ti[H2][ri], &tf[H2][ri], &bytes);
        if (bad < 0)
            goto fail;
        okk[H2] &= bad == 0;
#ifdef BENCH_HAVE_GLIB
        bad = glib_run(&d, &ti[GL][ri], &tf[GL][ri]);
        okk[GL] &= bad == 0;
#endif
#ifdef BENCH_HAVE_CK
        bad = ck_run(&d, 1, &ti[CK1][ri], &tf[CK1][ri]);
        if (bad < 0)
            goto fail;
        okk[CK1] &= bad == 0;
        bad = ck_run(&d, 2, &ti[CK2][ri], &tf[CK2][ri]);
        if (bad < 0)
            goto fail;
        okk[CK2] &= bad == 0;
#endif
    }
    {
        static const char *const names[NSYS] = {"hive-1t", "hive-2t", "glib", "ck-1w-1r",
                                                "ck-1w-2r"};
        double ri[NSYS], rf[NSYS];
        for (int s = 0; s < NSYS; s++) {
            if (!have[s])
                continue;
            if (!okk[s])
                bench_fail(c, "%s returned wrong values or lost keys", names[s]);
            char op[40];
            /* ck-1w-2r inserts with the same single writer as ck-1w-1r */
            snprintf(op, sizeof op, "%s-insert", names[s]);
            ri[s] = 1e9 * bench_row_timed(c, op, n, s <= H2 ? BENCH_COMPARE_LF : -1, NAN, ti[s],
                                          c->runs, s <= H2 ? bytes : 0, okk[s])->gops;
            snprintf(op, sizeof op, "%s-find", names[s]);
            rf[s] = 1e9 * bench_row_timed(c, op, n, s <= H2 ? BENCH_COMPARE_LF : -1, NAN, tf[s],
                                          c->runs, s <= H2 ? bytes : 0, okk[s])->gops;
        }
        struct {
            const char *name;
            int a, b;
            int find;
        } ratios[] = {{"insert hive-1t/glib", H1, GL, 0},  {"find hive-1t/glib", H1, GL, 1},
                      {"insert hive-1t/ck", H1, CK1, 0},   {"find hive-1t/ck-1r", H1, CK1, 1},
                      {"insert hive-2t/ck-1w", H2, CK1, 0}, {"find hive-2t/ck-2r", H2, CK2, 1}};
        for (size_t i = 0; i < sizeof ratios / sizeof ratios[0]; i++) {
            int a = ratios[i].a, b = ratios[i].b;
            if (!have[a] || !have[b])
                continue;
            double v = ratios[i].find ? rf[a] / rf[b] : ri[a] / ri[b];
            bench_row_value(c, ratios[i].name, n, -1, NAN, v, "ratio", 0, c->runs,
                            okk[a] && okk[b]);
        }
        printf("cpu-compare: GLib runs single-threaded only (no concurrent mode); ck_ht inserts "
               "with its one writer (SPMC)\n");
    }
    goto out;
fail:
    rc = -1;
out:
    free(d.keys);
    free(d.values);
    bench_free(c, keys);
    bench_free(c, vals);
    bench_free(c, found);
    if (bench_end(c) != 0)
        rc = -1;
    return rc;
}
