/* wl_cpu_compare.c — the `cpu-compare` workload: hive's CPU backend against
 * the hash tables CPU programs use, on the same N unique random keys (N = 2^22
 * by default; --n), at 1 thread and at T threads (T = --threads, else one per
 * online core).
 *
 *   hive     table at load 0.9 (initial_capacity N / 0.9, min_load_factor 0),
 *            config.threads = 1 and = T; each phase below is one call
 *   TBB      oneTBB's tbb::concurrent_hash_map, buckets reserved for N; each
 *            phase's keys cut into 1 or T contiguous slices, one per thread,
 *            each key the map's own call (bench/peers/tbb_map.cpp)
 *   GLib     GHashTable (bench/peers/glib_map.c),
 *            insert and find, single-threaded only: GLib has no concurrent
 *            mode, and a mutex around every call would only measure the mutex
 *   ck_ht    CK_HT_MODE_DIRECT, sized for N at init (bench/peers/ck_map.c);
 *            SPMC: insert by one writer (ck_ht_put_spmc), find by 1 and by
 *            T reader threads (ck_ht_get_spmc, each a contiguous share)
 *
 * The phases, in order, on one table (hive, TBB; GLib and ck: insert, find):
 *   insert   the N keys                              (the table at load 0.9)
 *   find     the N keys, every one present
 *   absent   N keys never inserted, none present
 *   mixed    N ops: find : insert : erase = 0.8 : 0.1 : 0.1, in groups of ten
 *            [erase an old key, insert a new key, find 8 present keys], so
 *            that a thread running its share in order holds the table at N
 *            keys (load 0.9) throughout; the finds are of keys not erased
 *   erase    the N keys then held, the table left empty
 * Reported in ops/s (M ops/s in the table), with ratios hive/other at equal
 * threads.  Key 0 (ck_ht's empty marker) never occurs: a key equal to 0 is
 * replaced from a spare counter.  Verified: every insert and erase succeeded,
 * every found value is the key's, no absent key was found, and the sizes are
 * N, N, 0 after insert, mixed and erase.  GLib, ck and TBB are optional at
 * configure time; when missing their rows are skipped with a notice. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workloads.h"

#ifdef BENCH_HAVE_GLIB
#include "peers/glib_map.h"
#endif
#ifdef BENCH_HAVE_CK
#include "peers/ck_map.h"
#endif
#ifdef BENCH_HAVE_TBB
#include "peers/tbb_map.h"
#endif

/* A group of the mixed phase: one erase, one insert, the rest finds. */
#define MIX_GROUP 10u

enum { P_INSERT, P_FIND, P_ABSENT, P_MIXED, P_ERASE, NPHASES };
static const char *const phase_names[NPHASES] = {"insert", "find", "absent", "mixed", "erase"};

typedef struct cmp_data {
    uint32_t bits;
    uint64_t n;        /* keys inserted */
    uint32_t threads;  /* T */
    uint64_t *keys;    /* (n) the keys, as 64-bit words whatever the width */
    uint64_t *values;  /* (n) their values */
    uint64_t *absent;  /* (n) keys never inserted */
    uint64_t m;        /* elements of the mixed phase, a multiple of MIX_GROUP */
    uint8_t *mix_ops;  /* (m) HIVE_OP_ERASE / INSERT / FIND */
    uint64_t *mix_keys;
    uint64_t *mix_values; /* (m) an insert's value, a find's expected value */
    uint64_t *last;    /* (n) the keys after the mixed phase, erased last */
    /* a system's outputs, per phase: ok[i] 1 where element i inserted, found
     * or erased; out[i] the value a find read */
    uint8_t *ok;
    uint64_t *out;
} cmp_data;

/* The phases' keys: counters [0, n) (0 replaced), absent ones from the
 * never-inserted counters, the mixed batch and the final erase list. */
static void make_keys(cmp_data *d, bench_keys *k)
{
    uint64_t n = d->n, spare = n, neg = bench_neg_base(d->bits);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t key = bench_key(k, i);
        while (key == 0)
            key = bench_key(k, spare++);
        d->keys[i] = key;
        d->values[i] = bench_value(d->bits, key, 0);
        do
            key = bench_key(k, neg++);
        while (key == 0);
        d->absent[i] = key;
    }
    uint64_t groups = d->m / MIX_GROUP, at = 0;
    for (uint64_t g = 0; g < groups; g++) {
        d->mix_ops[at] = HIVE_OP_ERASE;
        d->mix_keys[at] = d->keys[g];
        d->mix_values[at++] = 0;
        d->mix_ops[at] = HIVE_OP_INSERT;
        d->mix_keys[at] = d->absent[g];
        d->mix_values[at++] = bench_value(d->bits, d->absent[g], 0);
        for (uint64_t j = 0; j < MIX_GROUP - 2; j++) {
            uint64_t f = groups + g * (MIX_GROUP - 2) + j;
            d->mix_ops[at] = HIVE_OP_FIND;
            d->mix_keys[at] = d->keys[f];
            d->mix_values[at++] = d->values[f];
        }
    }
    memcpy(d->last, d->keys + groups, (n - groups) * sizeof(uint64_t));
    memcpy(d->last + (n - groups), d->absent, groups * sizeof(uint64_t));
}

/* A phase's elements: count, keys, op (ops NULL: one op for all) and the
 * values inserted or expected. */
static uint64_t phase_size(const cmp_data *d, int p) { return p == P_MIXED ? d->m : d->n; }
static const uint64_t *phase_keys(const cmp_data *d, int p)
{
    return p == P_INSERT || p == P_FIND ? d->keys : p == P_ABSENT ? d->absent : p == P_MIXED ? d->mix_keys : d->last;
}
static const uint8_t *phase_ops(const cmp_data *d, int p) { return p == P_MIXED ? d->mix_ops : NULL; }
static uint8_t phase_op(int p)
{
    return p == P_INSERT ? HIVE_OP_INSERT : p == P_ERASE ? HIVE_OP_ERASE : HIVE_OP_FIND;
}
static const uint64_t *phase_values(const cmp_data *d, int p)
{
    return p == P_MIXED ? d->mix_values : p == P_INSERT || p == P_FIND ? d->values : NULL;
}
/* The table's size after phase p. */
static uint64_t phase_size_after(const cmp_data *d, int p) { return p == P_ERASE ? 0 : d->n; }

/* What element i of phase p starts with in a system's value output: an
 * insert's value, the opposite of a find's expected value (so that a find
 * that writes nothing is caught), else 0. */
static void phase_input(const cmp_data *d, int p, uint64_t *out)
{
    uint64_t n = phase_size(d, p);
    const uint8_t *ops = phase_ops(d, p);
    const uint64_t *values = phase_values(d, p);
    for (uint64_t i = 0; i < n; i++) {
        int finds = ops != NULL ? ops[i] == HIVE_OP_FIND : p == P_FIND;
        out[i] = values == NULL ? 0 : finds ? ~values[i] : values[i];
    }
}

/* Wrong elements of phase p in d->ok / d->out, plus one if the size after
 * it is wrong. */
static int64_t phase_check(const cmp_data *d, int p, uint64_t size)
{
    uint64_t n = phase_size(d, p);
    const uint8_t *ops = phase_ops(d, p);
    const uint64_t *want = phase_values(d, p);
    int64_t bad = size != phase_size_after(d, p);
    for (uint64_t i = 0; i < n; i++) {
        if (p == P_ABSENT) {
            bad += d->ok[i] != 0;
            continue;
        }
        int finds = ops != NULL ? ops[i] == HIVE_OP_FIND : p == P_FIND;
        bad += d->ok[i] != 1 || (finds && d->out[i] != want[i]);
    }
    return bad;
}

/* ---------------------------------------------------------------- TBB */

#ifdef BENCH_HAVE_TBB
/* Runs the phases on a new map with `threads` threads; times in t[phase].
 * Returns wrong results (0 when right) or -1. */
static int64_t tbb_run(const cmp_data *d, uint32_t threads, double *t)
{
    bench_tbb_map *m = bench_tbb_create(d->bits, d->n);
    if (m == NULL) {
        fprintf(stderr, "cpu-compare: no memory for a TBB map of %llu keys\n", (unsigned long long)d->n);
        return -1;
    }
    int64_t bad = 0;
    for (int p = 0; p < NPHASES; p++) {
        uint64_t n = phase_size(d, p);
        phase_input(d, p, d->out);
        double t0 = bench_now();
        int rc = bench_tbb_apply(m, n, phase_ops(d, p), phase_op(p), phase_keys(d, p), d->out, d->ok,
                                 threads);
        t[p] = bench_now() - t0;
        if (rc != 0) {
            fprintf(stderr, "cpu-compare: TBB %s failed (no thread or no memory)\n", phase_names[p]);
            bench_tbb_destroy(m);
            return -1;
        }
        bad += phase_check(d, p, bench_tbb_size(m));
    }
    bench_tbb_destroy(m);
    return bad;
}
#endif

/* ---------------------------------------------------------------- hive */

/* Copies n words to a key-width array. */
static void to_width(uint32_t bits, const uint64_t *src, uint64_t n, void *dst)
{
    for (uint64_t i = 0; i < n; i++) {
        if (bits == 32)
            ((uint32_t *)dst)[i] = (uint32_t)src[i];
        else
            ((uint64_t *)dst)[i] = src[i];
    }
}

/* One phase as one hive call; results as hive_result codes or found flags
 * in res, turned into d->ok and d->out after the clock stops. */
static hive_status hive_phase(hive_table *t, const cmp_data *d, int p, void *keys, void *vals,
                              uint8_t *res)
{
    uint64_t n = phase_size(d, p);
    switch (p) {
    case P_INSERT:
        return hive_insert(t, n, keys, vals, HIVE_COMBINE_ASSIGN, res, NULL);
    case P_FIND:
    case P_ABSENT:
        return hive_find(t, n, keys, vals, res, NULL);
    case P_MIXED:
        return hive_apply(t, n, d->mix_ops, keys, vals, HIVE_COMBINE_ASSIGN, res, NULL);
    default:
        return hive_erase(t, n, keys, res, NULL);
    }
}

/* Runs the phases on a new table with `threads` threads; times in t[phase],
 * the table's bytes after the insert in *bytes.  Returns wrong results (0
 * when right) or -1. */
static int64_t hive_run(bench_ctx *c, const cmp_data *d, uint32_t threads, void *keys, void *vals,
                        uint8_t *res, double *t, uint64_t *bytes)
{
    hive_config cfg = bench_config(c, (uint64_t)ceil((double)d->n / BENCH_COMPARE_LF), 1.0, 0.0);
    cfg.threads = threads;
    hive_table *tab = NULL;
    int64_t bad = 0;
    if (bench_create(c, &cfg, &tab) != 0)
        return -1;
    for (int p = 0; p < NPHASES; p++) {
        uint64_t n = phase_size(d, p);
        to_width(d->bits, phase_keys(d, p), n, keys);
        phase_input(d, p, d->out);
        to_width(d->bits, d->out, n, vals);
        memset(res, 0, n);
        double t0 = bench_now();
        hive_status s = hive_phase(tab, d, p, keys, vals, res);
        t[p] = bench_now() - t0;
        int st = bench_status(c, s, phase_names[p]);
        if (st < 0)
            goto fail;
        bad += st;
        for (uint64_t i = 0; i < n; i++) {
            uint8_t want = p == P_INSERT ? HIVE_RESULT_INSERTED
                           : p == P_ERASE ? HIVE_RESULT_ERASED
                           : p == P_MIXED ? (d->mix_ops[i] == HIVE_OP_FIND     ? HIVE_RESULT_FOUND
                                             : d->mix_ops[i] == HIVE_OP_ERASE ? HIVE_RESULT_ERASED
                                                                              : HIVE_RESULT_INSERTED)
                                          : 1; /* hive_find's found flag */
            d->ok[i] = res[i] == want;
            d->out[i] = d->bits == 32 ? ((uint32_t *)vals)[i] : ((uint64_t *)vals)[i];
        }
        uint64_t size = 0;
        if (bench_status(c, hive_size(tab, &size), "hive_size") < 0)
            goto fail;
        bad += phase_check(d, p, size);
        if (p == P_INSERT) {
            hive_stats hs;
            if (bench_stats(c, tab, &hs) != 0)
                goto fail;
            *bytes = hs.bytes_held;
        }
    }
    hive_destroy(tab);
    return bad;
fail:
    hive_destroy(tab);
    return -1;
}

/* ---------------------------------------------------------------- workload */

enum { H1, HT, TB1, TBT, GL, CK1, CKT, NSYS };

/* Which phases a system runs: GLib and ck only insert and find. */
static int runs_phase(int s, int p) { return s < GL || p == P_INSERT || p == P_FIND; }

/* Threads for the "all threads" rows: --threads, else one per online core. */
static uint32_t all_threads(const bench_ctx *c)
{
    if (c->threads > 0)
        return c->threads;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 1 ? (uint32_t)cores : 1;
}

/* The rows of one system and phase: the timed row and, for hive, its load. */
static double phase_row(bench_ctx *c, const char *name, int s, int p, uint64_t n, const double *t,
                        uint64_t bytes, int ok)
{
    char op[200];
    snprintf(op, sizeof op, "%s-%s", name, phase_names[p]);
    int hive = s == H1 || s == HT;
    return 1e9 * bench_row_timed(c, op, n, hive ? BENCH_COMPARE_LF : -1, NAN, t, c->runs,
                                 hive ? bytes : 0, ok)->gops;
}

int wl_cpu_compare(bench_ctx *c)
{
    bench_begin(c, "cpu-compare");
    if (c->gpu) {
        printf("cpu-compare: compares the CPU backend; run it with --backend cpu\n");
        return bench_end(c);
    }
    uint64_t n = c->n ? c->n : c->def->compare_keys;
    cmp_data d;
    memset(&d, 0, sizeof d);
    d.bits = c->bits;
    d.n = n;
    d.threads = all_threads(c);
    d.m = n / MIX_GROUP * MIX_GROUP;
    d.keys = malloc(n * sizeof(uint64_t));
    d.values = malloc(n * sizeof(uint64_t));
    d.absent = malloc(n * sizeof(uint64_t));
    d.last = malloc(n * sizeof(uint64_t));
    d.out = malloc(n * sizeof(uint64_t));
    d.ok = malloc(n);
    d.mix_ops = malloc(d.m + 1);
    d.mix_keys = malloc((d.m + 1) * sizeof(uint64_t));
    d.mix_values = malloc((d.m + 1) * sizeof(uint64_t));
    void *keys = bench_alloc(c, n * c->kbytes), *vals = bench_alloc(c, n * c->kbytes);
    uint8_t *res = bench_alloc(c, n);
    static double t[NSYS][NPHASES][BENCH_MAX_RUNS];
    int have[NSYS] = {1, d.threads > 1, 0, 0, 0, 0, 0}, okk[NSYS] = {1, 1, 1, 1, 1, 1, 1}, rc = 0;
    uint64_t bytes[NSYS] = {0};
    memset(t, 0, sizeof t);
#ifdef BENCH_HAVE_TBB
    have[TB1] = 1;
    have[TBT] = d.threads > 1;
#else
    printf("cpu-compare: oneTBB (TBBConfig.cmake, libtbb) was not found when hive was configured: "
           "its rows are skipped\n");
#endif
#ifdef BENCH_HAVE_GLIB
    have[GL] = 1;
#else
    printf("cpu-compare: GLib (glib-2.0) was not found when hive was configured: its rows are "
           "skipped\n");
#endif
#ifdef BENCH_HAVE_CK
    have[CK1] = 1;
    have[CKT] = d.threads > 1;
#else
    printf("cpu-compare: Concurrency Kit (ck_ht.h, libck) was not found when hive was "
           "configured: its rows are skipped\n");
#endif
    if (d.keys == NULL || d.values == NULL || d.absent == NULL || d.last == NULL || d.out == NULL ||
        d.ok == NULL || d.mix_ops == NULL || d.mix_keys == NULL || d.mix_values == NULL ||
        keys == NULL || vals == NULL || res == NULL) {
        fprintf(stderr, "cpu-compare: out of memory for %llu keys\n", (unsigned long long)n);
        rc = -1;
        goto out;
    }
    bench_progress(c, "cpu-compare: %llu keys, KV%u, %s%u thread%s, %d runs", (unsigned long long)n,
                   c->bits, d.threads > 1 ? "1 and " : "", d.threads, d.threads > 1 ? "s" : "",
                   c->runs);
    for (int r = -1; r < c->runs; r++) {
        int ri = r < 0 ? 0 : r;
        bench_keys k = bench_keys_for(c, bench_seed(c, 0, r));
        make_keys(&d, &k);
        for (int s = H1; s <= HT; s++) {
            if (!have[s])
                continue;
            double tp[NPHASES];
            int64_t bad = hive_run(c, &d, s == H1 ? 1 : d.threads, keys, vals, res, tp, &bytes[s]);
            if (bad < 0)
                goto fail;
            okk[s] &= bad == 0;
            for (int p = 0; p < NPHASES; p++)
                t[s][p][ri] = tp[p];
        }
#ifdef BENCH_HAVE_TBB
        for (int s = TB1; s <= TBT; s++) {
            if (!have[s])
                continue;
            double tp[NPHASES];
            int64_t bad = tbb_run(&d, s == TB1 ? 1 : d.threads, tp);
            if (bad < 0)
                goto fail;
            okk[s] &= bad == 0;
            for (int p = 0; p < NPHASES; p++)
                t[s][p][ri] = tp[p];
        }
#endif
#ifdef BENCH_HAVE_GLIB
        okk[GL] &= bench_glib_run(d.bits, n, d.keys, d.values, &t[GL][P_INSERT][ri],
                                  &t[GL][P_FIND][ri]) == 0;
#endif
#ifdef BENCH_HAVE_CK
        for (int s = CK1; s <= CKT; s++) {
            if (!have[s])
                continue;
            int64_t bad = bench_ck_run(n, d.keys, d.values, s == CK1 ? 1 : d.threads,
                                       &t[s][P_INSERT][ri], &t[s][P_FIND][ri]);
            if (bad < 0)
                goto fail;
            okk[s] &= bad == 0;
        }
#endif
    }
    {
        char names[NSYS][24];
        snprintf(names[H1], sizeof names[H1], "hive-1t");
        snprintf(names[HT], sizeof names[HT], "hive-%ut", d.threads);
        snprintf(names[TB1], sizeof names[TB1], "tbb-1t");
        snprintf(names[TBT], sizeof names[TBT], "tbb-%ut", d.threads);
        snprintf(names[GL], sizeof names[GL], "glib");
        snprintf(names[CK1], sizeof names[CK1], "ck-1w-1r");
        snprintf(names[CKT], sizeof names[CKT], "ck-1w-%ur", d.threads);
        double ops[NSYS][NPHASES];
        for (int s = 0; s < NSYS; s++) {
            if (!have[s])
                continue;
            if (!okk[s])
                bench_fail(c, "%s returned wrong values or lost keys", names[s]);
            for (int p = 0; p < NPHASES; p++)
                if (runs_phase(s, p))
                    ops[s][p] = phase_row(c, names[s], s, p, phase_size(&d, p), t[s][p], bytes[s],
                                          okk[s]);
        }
        /* hive over each peer at equal threads (ck inserts with one writer
         * whatever its readers) */
        struct {
            int a, b, p;
        } ratios[] = {{H1, TB1, P_INSERT}, {H1, TB1, P_FIND}, {H1, TB1, P_ABSENT},
                      {H1, TB1, P_MIXED},  {H1, TB1, P_ERASE}, {HT, TBT, P_INSERT},
                      {HT, TBT, P_FIND},   {HT, TBT, P_ABSENT}, {HT, TBT, P_MIXED},
                      {HT, TBT, P_ERASE},  {H1, GL, P_INSERT},  {H1, GL, P_FIND},
                      {H1, CK1, P_INSERT}, {H1, CK1, P_FIND},   {HT, CK1, P_INSERT},
                      {HT, CKT, P_FIND}};
        for (size_t i = 0; i < sizeof ratios / sizeof ratios[0]; i++) {
            int a = ratios[i].a, b = ratios[i].b, p = ratios[i].p;
            if (!have[a] || !have[b])
                continue;
            char op[64];
            snprintf(op, sizeof op, "%s %s/%s", phase_names[p], names[a], names[b]);
            bench_row_value(c, op, phase_size(&d, p), -1, NAN, ops[a][p] / ops[b][p], "ratio", 0,
                            c->runs, okk[a] && okk[b]);
        }
        printf("cpu-compare: mixed = find:insert:erase 0.8:0.1:0.1 at load 0.9; TBB splits each "
               "phase into one contiguous slice per thread; GLib runs single-threaded only (no "
               "concurrent mode); ck_ht inserts with its one writer (SPMC)\n");
    }
    goto out;
fail:
    rc = -1;
out:
    free(d.keys);
    free(d.values);
    free(d.absent);
    free(d.last);
    free(d.out);
    free(d.ok);
    free(d.mix_ops);
    free(d.mix_keys);
    free(d.mix_values);
    bench_free(c, keys);
    bench_free(c, vals);
    bench_free(c, res);
    if (bench_end(c) != 0)
        rc = -1;
    return rc;
}
