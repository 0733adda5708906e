/* wl_probes.c — the `probes` workload: what each operation reads, as
 * WarpSpeed's probe counts (its Table 5.1, spec §2.2), from the probe model
 * of harness/probe_model.h (buckets, 32-byte sectors and 128-byte lines per
 * operation).  One fill of a table of C slots (--n) to loads 0.5 .. 0.95:
 * at each load, per op, the mean reads of find (every present key), find of
 * absent keys (up to 2^20) and insert (the mean over the fill 0 -> lf, as
 * loadsweep's, and over the keys since the previous load, `insert-last`).
 * The real table of the same config is filled with the same keys in the
 * same batches: its shape (buckets, slots) is the model's, its stash share
 * is reported beside the model's, and it is checked whole at the end.  The
 * model is checked too: it holds exactly the keys inserted, each in one of
 * its probe buckets or the stash. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/designs.h"
#include "harness/probe_model.h"
#include "workloads.h"

/* Three rows of one op: buckets, sectors and lines per operation (detail:
 * in the files only). */
static void cost_rows(bench_ctx *c, const char *op, uint64_t n, double lf, double x,
                      bench_model_cost cost, double ops, uint64_t bytes, int ok, int detail)
{
    bench_row_value(c, op, n, lf, x, cost.buckets / ops, "buckets", bytes, 1, ok)->detail = detail;
    bench_row_value(c, op, n, lf, x, cost.sectors / ops, "sectors", bytes, 1, ok)->detail = detail;
    bench_row_value(c, op, n, lf, x, cost.lines / ops, "lines128", bytes, 1, ok)->detail = detail;
}

int wl_probes(bench_ctx *c)
{
    static const double lfs[BENCH_PROBES_NLF] = BENCH_PROBES_LFS;
    bench_begin(c, "probes");
    const bench_design *d = bench_design_named(c->design_name);
    if (d == NULL || d->model == NULL) {
        printf("probes: design %s has no probe model (bench/harness/designs.c): skipped\n",
               c->design_name);
        return bench_end(c);
    }
    uint64_t slots = c->n ? c->n : c->def->probes_slots;
    uint64_t nmax = (uint64_t)ceil(lfs[BENCH_PROBES_NLF - 1] * (double)slots) + 1;
    int rc = 0, ok = 1;
    hive_table *t = NULL;
    hive_stats st = {0};
    bench_model_table m;
    int have_model = 0;
    void *keys = bench_alloc(c, nmax * c->kbytes);
    void *vals = bench_alloc(c, nmax * c->kbytes);
    hive_config tc = HIVE_CONFIG_INIT;
    if (keys == NULL || vals == NULL || bench_create_pinned(c, slots, &t) != 0 ||
        bench_stats(c, t, &st) != 0 || bench_status(c, hive_get_config(t, &tc), "hive_get_config") != 0) {
        rc = -1;
        goto out;
    }
    if (bench_model_init(&m, d->model, st.buckets, st.bucket_slots,
                         st.stash_capacity / (st.bucket_slots ? st.bucket_slots : 1), c->bits,
                         tc.hash_seed) != 0) {
        fprintf(stderr, "probes: no memory for a model of %llu buckets\n",
                (unsigned long long)st.buckets);
        rc = -1;
        goto out;
    }
    have_model = 1;
    printf("probes: design %s's model: %s\n", d->name, d->model->about);
    bench_keys k = bench_keys_for(c, bench_seed(c, 0, 0));
    bench_model_cost fill = {0, 0, 0};
    uint64_t done = 0;
    for (int p = 0; p < BENCH_PROBES_NLF; p++) {
        uint64_t n = (uint64_t)llround(lfs[p] * (double)st.capacity);
        if (n > nmax)
            n = nmax;
        bench_progress(c, "probes: %s, load %.2f", d->name, lfs[p]);
        /* the real table: the keys since the last point, in one batch */
        bench_gen g = bench_gen_one(k, n - done, done, HIVE_OP_INSERT, HIVE_RESULT_INSERTED, 0);
        BENCH_STEP(bench_fill(c, &g, NULL, keys, vals), ok, out_err);
        BENCH_STEP(bench_status(c, hive_insert(t, n - done, keys, vals, HIVE_COMBINE_ASSIGN, NULL,
                                               c->stream),
                                "hive_insert"),
                   ok, out_err);
        if (bench_stats(c, t, &st) != 0)
            goto out_err;
        /* the model: the same keys in the same order */
        bench_model_cost last = {0, 0, 0};
        for (uint64_t i = done; i < n; i++)
            bench_model_insert(&m, bench_key(&k, i), &last);
        fill.buckets += last.buckets;
        fill.sectors += last.sectors;
        fill.lines += last.lines;
        bench_model_cost find = {0, 0, 0}, miss = {0, 0, 0};
        uint64_t lost = bench_model_find_all(&m, &find);
        uint64_t absent = n < BENCH_PROBES_ABSENT ? n : BENCH_PROBES_ABSENT;
        uint64_t neg = bench_neg_base(c->bits);
        for (uint64_t i = 0; i < absent; i++)
            bench_model_find_absent(&m, bench_key(&k, neg + i), &miss);
        if (lost != 0 || m.size != n) {
            bench_fail(c, "probes: the model holds %llu keys (expected %llu), %llu outside their "
                          "probe buckets", (unsigned long long)m.size, (unsigned long long)n,
                       (unsigned long long)lost);
            ok = 0;
        }
        double lf = (double)n / (double)st.capacity;
        cost_rows(c, "find", n, lf, lfs[p], find, (double)n, st.bytes_held, ok, 0);
        cost_rows(c, "find-negative", absent, lf, lfs[p], miss, (double)absent, st.bytes_held, ok, 0);
        cost_rows(c, "insert", n, lf, lfs[p], fill, (double)n, st.bytes_held, ok, 0);
        cost_rows(c, "insert-last", n - done, lf, lfs[p], last, (double)(n - done), st.bytes_held,
                  ok, 1);
        bench_row_value(c, "stash-model", n, lf, lfs[p], (double)m.stash / (double)n, "share",
                        st.bytes_held, 1, ok);
        bench_row_value(c, "stash-table", n, lf, lfs[p], (double)st.stash_size / (double)n,
                        "share", st.bytes_held, 1, ok);
        done = n;
    }
    {
        bench_live live = bench_live_one(k, 0, done, 0, 0);
        BENCH_STEP(bench_check_table(c, t, &live, keys, vals, nmax, "probes: the table"), ok,
                   out_err);
    }
    for (size_t i = c->first_row; i < c->nrows; i++)
        c->rows[i].ok = ok;
    goto out;
out_err:
    rc = -1;
out:
    if (have_model)
        bench_model_free(&m);
    if (t != NULL)
        hive_destroy(t);
    bench_free(c, keys);
    bench_free(c, vals);
    if (bench_end(c) != 0)
        rc = -1;
    return rc;
}
