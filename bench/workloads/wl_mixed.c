/* wl_mixed.c — the `mixed` workload (Hive §V-C2, Fig. 8): one hive_apply
 * batch of n operations, insert : find : erase = 0.5 : 0.3 : 0.2, interleaved
 * at random, on a table that already holds the keys to be found and erased.
 *
 *   counters [0, nf)          prefilled, found by the batch
 *            [nf, nf + ne)    prefilled, erased by the batch
 *            [n - ni, n)      inserted by the batch (ni = n/2)
 *
 * The table is pinned at capacity n / 0.95: the batch's peak (prefill + new
 * keys = n) is load 0.95, as Hive's maximum; after it the load is 0.8 x 0.95.
 * Timed: the hive_apply only (no result array; finds write values).
 * Verified: every find returned its value; afterwards the table holds exactly
 * [0, nf) and the inserted keys (erased keys absent, nothing lost, no
 * duplicates). */
#include <math.h>
#include <stdio.h>

#include "workloads.h"

static int point(bench_ctx *c, uint64_t n, uint64_t pid, uint8_t *ops, void *keys, void *vals)
{
    double ta[BENCH_MAX_RUNS] = {0};
    int ok = 1;
    hive_stats st = {0};
    hive_table *t = NULL;
    uint64_t ni = (uint64_t)((double)n * BENCH_MIXED_INSERT);
    uint64_t nf = (uint64_t)((double)n * BENCH_MIXED_FIND);
    uint64_t ne = n - ni - nf;
    uint64_t slots = (uint64_t)ceil((double)n / BENCH_MIXED_LF);
    for (int r = -1; r < c->runs; r++) {
        int ri = r < 0 ? 0 : r;
        uint64_t seed = bench_seed(c, pid, r);
        bench_keys k = bench_keys_for(c, seed);
        double tp;
        if (bench_create_pinned(c, slots, &t) != 0)
            goto fail;
        bench_gen pre = bench_gen_one(k, nf + ne, 0, HIVE_OP_INSERT, HIVE_RESULT_INSERTED, 0);
        BENCH_STEP(bench_fill(c, &pre, NULL, keys, vals), ok, fail);
        BENCH_STEP(BENCH_TIMED(c, &tp, "hive_insert (prefill)",
                               hive_insert(t, nf + ne, keys, vals, HIVE_COMBINE_ASSIGN, NULL,
                                           c->stream)),
                   ok, fail);
        bench_gen g;
        g = bench_gen_one(k, ni, nf + ne, HIVE_OP_INSERT, HIVE_RESULT_INSERTED, 0);
        bench_gen_add(&g, nf, 0, HIVE_OP_FIND, HIVE_RESULT_FOUND, 0, 0);
        bench_gen_add(&g, ne, nf, HIVE_OP_ERASE, HIVE_RESULT_ERASED, 0, 0);
        bench_gen_shuffle(&g, seed);
        BENCH_STEP(bench_fill(c, &g, ops, keys, vals), ok, fail);
        BENCH_STEP(BENCH_TIMED(c, &ta[ri], "hive_apply",
                               hive_apply(t, n, ops, keys, vals, HIVE_COMBINE_ASSIGN, NULL,
                                          c->stream)),
                   ok, fail);
        BENCH_STEP(bench_check(c, &g, NULL, NULL, vals, "mixed batch finds"), ok, fail);
        bench_live live = bench_live_one(k, 0, nf, 0, 0);
        bench_live_add(&live, nf + ne, n, 0, 0);
        BENCH_STEP(bench_check_table(c, t, &live, keys, vals, n, "table after the mixed batch"),
                   ok, fail);
        if (bench_stats(c, t, &st) != 0)
            goto fail;
        hive_destroy(t);
        t = NULL;
    }
    double lf_peak = st.capacity ? (double)n / (double)st.capacity : BENCH_MIXED_LF;
    bench_row_timed(c, "apply-0.5:0.3:0.2", n, lf_peak, NAN, ta, c->runs, st.bytes_held, ok);
    return 0;
fail:
    if (t != NULL)
        hive_destroy(t);
    return -1;
}

int wl_mixed(bench_ctx *c)
{
    bench_begin(c, "mixed");
    const bench_defaults *d = c->def;
    uint64_t nmax = c->n ? c->n : 1ull << d->mixed_log2_hi;
    int rc = 0;
    uint8_t *ops = bench_alloc(c, nmax);
    void *keys = bench_alloc(c, nmax * c->kbytes);
    void *vals = bench_alloc(c, nmax * c->kbytes);
    if (ops == NULL || keys == NULL || vals == NULL) {
        rc = -1;
        goto out;
    }
    for (int e = d->mixed_log2_lo; e <= d->mixed_log2_hi && rc == 0; e++) {
        uint64_t n = c->n ? c->n : 1ull << e;
        bench_progress(c, "mixed: n = %llu ops", (unsigned long long)n);
        rc = point(c, n, (uint64_t)e, ops, keys, vals);
        if (c->n)
            break;
    }
out:
    bench_free(c, ops);
    bench_free(c, keys);
    bench_free(c, vals);
    if (bench_end(c) != 0)
        rc = -1;
    return rc;
}
