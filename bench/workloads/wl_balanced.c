/* wl_balanced.c — the `balanced` workload (Hive §V-C1, Figs. 6 and 7): bulk
 * insert of n unique keys into an empty table sized for load factor lf
 * (capacity pinned), bulk find of the same keys, bulk find of n absent keys.
 * n = 2^lo .. 2^hi, lf = 0.95 and 0.9 (defaults.h); --n runs one size.
 *
 * Per run: a fresh table and fresh keys; timed: hive_insert (ASSIGN, no
 * result array), hive_find (values only), hive_find of misses (found flags
 * only).  Verified: every find returned its key's value, every miss missed,
 * and the table holds exactly the n keys (size, export). */
#include <math.h>
#include <stdio.h>

#include "workloads.h"

static int point(bench_ctx *c, uint64_t n, double lf, uint64_t pid, void *keys, void *vals,
                 uint8_t *found)
{
    double ti[BENCH_MAX_RUNS] = {0}, tf[BENCH_MAX_RUNS] = {0}, tn[BENCH_MAX_RUNS] = {0};
    int ok = 1;
    hive_stats st = {0};
    hive_table *t = NULL;
    uint64_t slots = (uint64_t)ceil((double)n / lf);
    for (int r = -1; r < c->runs; r++) {
        int ri = r < 0 ? 0 : r; /* the warm-up's times are overwritten */
        bench_keys k = bench_keys_for(c, bench_seed(c, pid, r));
        if (bench_create_pinned(c, slots, &t) != 0)
            goto fail;
        BENCH_STEP(bench_insert_find_miss(c, t, k, n, keys, vals, found, &ti[ri], &tf[ri], &tn[ri],
                                          "table after insert"),
                   ok, fail);
        if (bench_stats(c, t, &st) != 0)
            goto fail;
        hive_destroy(t);
        t = NULL;
    }
    double lf_real = st.capacity ? (double)n / (double)st.capacity : lf;
    bench_row_timed(c, "insert", n, lf_real, lf, ti, c->runs, st.bytes_held, ok);
    bench_row_timed(c, "find", n, lf_real, lf, tf, c->runs, st.bytes_held, ok);
    bench_row_timed(c, "find-negative", n, lf_real, lf, tn, c->runs, st.bytes_held, ok);
    return 0;
fail:
    if (t != NULL)
        hive_destroy(t);
    return -1;
}

int wl_balanced(bench_ctx *c)
{
    bench_begin(c, "balanced");
    const bench_defaults *d = c->def;
    int lo = d->balanced_log2_lo, hi = d->balanced_log2_hi;
    uint64_t nmax = c->n ? c->n : 1ull << hi;
    int rc = 0;
    void *keys = bench_alloc(c, nmax * c->kbytes);
    void *vals = bench_alloc(c, nmax * c->kbytes);
    uint8_t *found = bench_alloc(c, nmax);
    if (keys == NULL || vals == NULL || found == NULL) {
        rc = -1;
        goto out;
    }
    for (int li = 0; li < d->balanced_nlf && rc == 0; li++) {
        double lf = d->balanced_lf[li];
        for (int e = lo; e <= hi && rc == 0; e++) {
            uint64_t n = c->n ? c->n : 1ull << e;
            bench_progress(c, "balanced: n = %llu, load factor %.2f", (unsigned long long)n, lf);
            rc = point(c, n, lf, (uint64_t)li * 64 + (uint64_t)e, keys, vals, found);
            if (c->n)
                break;
        }
    }
out:
    bench_free(c, keys);
    bench_free(c, vals);
    bench_free(c, found);
    if (bench_end(c) != 0)
        rc = -1;
    return rc;
}
