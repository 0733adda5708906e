/* wl_loadsweep.c — the `loadsweep` workload (WarpSpeed §6.3, Fig. 6.1; spec
 * §2.1): for load factor lf = 5%, 10%, ... 90%, a fresh table of C slots
 * (capacity pinned: min_load_factor 0, initial_capacity C) gets n = lf x C
 * keys in one hive_insert; then timed hive_find of those keys, hive_find of n
 * absent keys, and hive_erase of all n keys.  As in WarpSpeed, the insert
 * figure is the average over filling 0 -> lf, the others are at load lf (the
 * erase figure: emptying lf -> 0).  C = defaults.h, or --n.
 * Verified each run: finds return their values, misses miss, the table holds
 * exactly the n keys before the erase (size, export) and nothing after it. */
#include <math.h>
#include <stdio.h>

#include "workloads.h"

static int point(bench_ctx *c, uint64_t slots, int step, void *keys, void *vals, uint8_t *found)
{
    double ti[BENCH_MAX_RUNS] = {0}, tf[BENCH_MAX_RUNS] = {0}, tn[BENCH_MAX_RUNS] = {0},
           te[BENCH_MAX_RUNS] = {0};
    double lf = BENCH_LOADSWEEP_STEP * step;
    int ok = 1;
    uint64_t n = 0;
    hive_stats st = {0};
    hive_table *t = NULL;
    for (int r = -1; r < c->runs; r++) {
        int ri = r < 0 ? 0 : r;
        bench_keys k = bench_keys_for(c, bench_seed(c, (uint64_t)step, r));
        if (bench_create_pinned(c, slots, &t) != 0)
            goto fail;
        if (bench_stats(c, t, &st) != 0)
            goto fail;
        n = (uint64_t)llround(lf * (double)st.capacity);
        if (n > (uint64_t)llround(lf * (double)slots)) /* buffers hold lf x C keys */
            n = (uint64_t)llround(lf * (double)slots);
        BENCH_STEP(bench_insert_find_miss(c, t, k, n, keys, vals, found, &ti[ri], &tf[ri], &tn[ri],
                                          "table before erase"),
                   ok, fail);
        if (bench_stats(c, t, &st) != 0)
            goto fail;
        bench_gen gi = bench_gen_one(k, n, 0, HIVE_OP_INSERT, HIVE_RESULT_INSERTED, 0);
        BENCH_STEP(bench_fill(c, &gi, NULL, keys, NULL), ok, fail);
        BENCH_STEP(BENCH_TIMED(c, &te[ri], "hive_erase",
                               hive_erase(t, n, keys, NULL, c->stream)),
                   ok, fail);
        bench_live none = bench_live_one(k, 0, 0, 0, 0);
        BENCH_STEP(bench_check_table(c, t, &none, keys, vals, n, "table after erase"), ok, fail);
        hive_destroy(t);
        t = NULL;
    }
    double lf_real = st.capacity ? (double)n / (double)st.capacity : lf;
    double x = round(lf * 100.0) / 100.0;
    bench_row_timed(c, "insert", n, lf_real, x, ti, c->runs, st.bytes_held, ok);
    bench_row_timed(c, "find", n, lf_real, x, tf, c->runs, st.bytes_held, ok);
    bench_row_timed(c, "find-negative", n, lf_real, x, tn, c->runs, st.bytes_held, ok);
    bench_row_timed(c, "erase", n, lf_real, x, te, c->runs, st.bytes_held, ok);
    return 0;
fail:
    if (t != NULL)
        hive_destroy(t);
    return -1;
}

int wl_loadsweep(bench_ctx *c)
{
    bench_begin(c, "loadsweep");
    uint64_t slots = c->n ? c->n : c->def->loadsweep_slots;
    uint64_t nmax = (uint64_t)llround(BENCH_LOADSWEEP_STEP * BENCH_LOADSWEEP_POINTS * (double)slots) + 1;
    int rc = 0;
    void *keys = bench_alloc(c, nmax * c->kbytes);
    void *vals = bench_alloc(c, nmax * c->kbytes);
    uint8_t *found = bench_alloc(c, nmax);
    if (keys == NULL || vals == NULL || found == NULL) {
        rc = -1;
        goto out;
    }
    for (int step = 1; step <= BENCH_LOADSWEEP_POINTS && rc == 0; step++) {
        bench_progress(c, "loadsweep: C = %llu slots, load %.2f", (unsigned long long)slots,
                       BENCH_LOADSWEEP_STEP * step);
        rc = point(c, slots, step, keys, vals, found);
    }
out:
    bench_free(c, keys);
    bench_free(c, vals);
    bench_free(c, found);
    if (bench_end(c) != 0)
        rc = -1;
    return rc;
}
