/* wl_resize.c — the `resize` workload (Hive §IV-C, §V-A's expansion and
 * contraction rates).
 *
 * Growth: N keys inserted in B hive_insert calls of N/B keys (defaults.h)
 * into (a) a table that starts at 1,024 slots and grows (max_load_factor 0.9)
 * and (b) one created for N keys at load 0.9; the figure is insert throughput
 * of each, timed around all B calls, and the ratio (a)/(b).
 *
 * Expansion: hive_reserve on table (b), now holding N keys, to room for 2N
 * keys: the linear-hashing split of every bucket.  Reported: buckets split per
 * second (hive_stats.buckets_split over the call's time) and keys rehashed
 * per second.
 *
 * Contraction: two tables grown the same way to N keys, one with
 * min_load_factor 0.25 and one with 0 (never shrinks), each erase 90% of
 * their keys in one hive_erase.  The first then shrinks inside that call; the
 * contraction time is the difference of the two erase times (medians), and
 * the rate buckets merged (hive_stats.buckets_merged) per second of it.
 *
 * Verified: every table holds exactly its expected keys (size, export) after
 * growth, after the reserve, and after the erase. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "workloads.h"

/* Inserts counters [0, n) in `batches` calls; *secs: time around all of them. */
static int insert_batches(bench_ctx *c, hive_table *t, uint64_t n, uint32_t batches, void *keys,
                          void *vals, double *secs, int *ok)
{
    bench_timer_start(c);
    for (uint32_t b = 0; b < batches; b++) {
        uint64_t lo = n * b / batches, hi = n * (b + 1) / batches;
        hive_status s = hive_insert(t, hi - lo, (char *)keys + lo * c->kbytes,
                                    (char *)vals + lo * c->kbytes, HIVE_COMBINE_ASSIGN, NULL,
                                    c->stream);
        if (s != HIVE_SUCCESS) {
            int st = bench_status(c, s, "hive_insert");
            if (st < 0) {
                bench_timer_stop(c);
                return -1;
            }
            *ok = 0;
        }
    }
    *secs = bench_timer_stop(c);
    return *secs < 0 ? -1 : 0;
}

static void plain(bench_row *r)
{
    r->fraction = NAN;
    r->limit[0] = '\0';
}

int wl_resize(bench_ctx *c)
{
    bench_begin(c, "resize");
    uint64_t n = c->n ? c->n : c->def->resize_keys;
    uint32_t batches = c->def->resize_batches;
    double tg[BENCH_MAX_RUNS] = {0}, tp[BENCH_MAX_RUNS] = {0}, tx[BENCH_MAX_RUNS] = {0},
           ta[BENCH_MAX_RUNS] = {0}, tb[BENCH_MAX_RUNS] = {0};
    uint64_t split = 0, merged = 0, grows_a = 0, shrinks = 0, xgrows = 0;
    uint64_t bytes_g = 0, bytes_p = 0, bytes_x = 0, bytes_a = 0;
    int ok = 1, rc = 0;
    hive_table *tabs[4] = {NULL, NULL, NULL, NULL};
    void *keys = bench_alloc(c, n * c->kbytes), *vals = bench_alloc(c, n * c->kbytes);
    if (keys == NULL || vals == NULL || batches < 1)
        goto fail;
    uint64_t erase_n = n - n / 10;
    for (int r = -1; r < c->runs; r++) {
        int ri = r < 0 ? 0 : r;
        bench_keys k = bench_keys_for(c, bench_seed(c, 0, r));
        bench_progress(c, "resize: N = %llu keys in %u batches, run %d of %d",
                       (unsigned long long)n, batches, r + 1, c->runs);
        hive_config grow = bench_config(c, BENCH_RESIZE_START, 0.9, 0.0);
        hive_config pre = bench_config(c, (uint64_t)ceil((double)n / 0.9), 0.9, 0.0);
        hive_config shrink = bench_config(c, BENCH_RESIZE_START, 0.9, 0.25);
        if (bench_create(c, &grow, &tabs[0]) != 0 || bench_create(c, &pre, &tabs[1]) != 0 ||
            bench_create(c, &shrink, &tabs[2]) != 0 || bench_create(c, &grow, &tabs[3]) != 0)
            goto fail;
        bench_gen gi = bench_gen_one(k, n, 0, HIVE_OP_INSERT, HIVE_RESULT_INSERTED, 0);
        bench_live all = bench_live_one(k, 0, n, 0, 0);
        bench_live rest = bench_live_one(k, erase_n, n, 0, 0);
        hive_stats s0, s1;
        double tdummy;

        /* growth vs pre-sized */
        BENCH_STEP(bench_fill(c, &gi, NULL, keys, vals), ok, fail);
        BENCH_STEP(insert_batches(c, tabs[0], n, batches, keys, vals, &tg[ri], &ok), ok, fail);
        BENCH_STEP(insert_batches(c, tabs[1], n, batches, keys, vals, &tp[ri], &ok), ok, fail);
        if (bench_stats(c, tabs[0], &s1) != 0)
            goto fail;
        grows_a = s1.grows;
        bytes_g = s1.bytes_held;
        if (bench_stats(c, tabs[1], &s0) != 0)
            goto fail;
        bytes_p = s0.bytes_held;
        BENCH_STEP(bench_fill(c, &gi, NULL, keys, vals), ok, fail); /* the checks overwrite */
        BENCH_STEP(insert_batches(c, tabs[2], n, batches, keys, vals, &tdummy, &ok), ok, fail);
        BENCH_STEP(insert_batches(c, tabs[3], n, batches, keys, vals, &tdummy, &ok), ok, fail);
        BENCH_STEP(bench_check_table(c, tabs[0], &all, keys, vals, n, "growing table"), ok, fail);
        BENCH_STEP(bench_check_table(c, tabs[1], &all, keys, vals, n, "pre-sized table"), ok, fail);

        /* expansion: reserve room for 2N keys in the pre-sized table */
        BENCH_STEP(BENCH_TIMED(c, &tx[ri], "hive_reserve", hive_reserve(tabs[1], 2 * n, c->stream)),
                   ok, fail);
        if (bench_stats(c, tabs[1], &s1) != 0)
            goto fail;
        split = s1.buckets_split - s0.buckets_split;
        xgrows = s1.grows - s0.grows;
        bytes_x = s1.bytes_held;
        BENCH_STEP(bench_check_table(c, tabs[1], &all, keys, vals, n, "table after hive_reserve"),
                   ok, fail);

        /* contraction: erase 90% with and without shrinking */
        BENCH_STEP(bench_fill(c, &gi, NULL, keys, NULL), ok, fail);
        if (bench_stats(c, tabs[2], &s0) != 0)
            goto fail;
        BENCH_STEP(BENCH_TIMED(c, &ta[ri], "hive_erase (shrinking)",
                               hive_erase(tabs[2], erase_n, keys, NULL, c->stream)),
                   ok, fail);
        BENCH_STEP(BENCH_TIMED(c, &tb[ri], "hive_erase (pinned)",
                               hive_erase(tabs[3], erase_n, keys, NULL, c->stream)),
                   ok, fail);
        if (bench_stats(c, tabs[2], &s1) != 0)
            goto fail;
        merged = s1.buckets_merged - s0.buckets_merged;
        shrinks = s1.shrinks - s0.shrinks;
        bytes_a = s1.bytes_held;
        BENCH_STEP(bench_check_table(c, tabs[2], &rest, keys, vals, n, "table after shrinking"),
                   ok, fail);
        BENCH_STEP(bench_check_table(c, tabs[3], &rest, keys, vals, n, "table after erasing"),
                   ok, fail);
        for (int i = 0; i < 4; i++) {
            hive_destroy(tabs[i]);
            tabs[i] = NULL;
        }
    }
    {
        double g, p;
        g = bench_row_timed(c, "insert-growing", n, -1, batches, tg, c->runs, bytes_g, ok)->gops;
        p = bench_row_timed(c, "insert-presized", n, -1, batches, tp, c->runs, bytes_p, ok)->gops;
        bench_row_value(c, "growing/presized", n, -1, batches, g / p, "ratio", 0, c->runs, ok);
        bench_row_value(c, "grows-while-growing", n, -1, NAN, (double)grows_a, "count", 0, 1, ok);
        plain(bench_row_timed(c, "expand-keys", n, -1, NAN, tx, c->runs, bytes_x, ok));
        if (split > 0) { /* the last run's splits over the median, longest and shortest time */
            bench_spread t = bench_spread_sort(tx, c->runs);
            bench_row *r = bench_row_value(c, "expand-buckets", n, -1, NAN, split / t.median,
                                           "buckets/s", bytes_x, c->runs, ok);
            r->value_min = split / t.max;
            r->value_max = split / t.min;
        } else {
            bench_row_value(c, "expand-buckets", n, -1, NAN, NAN, "buckets/s", bytes_x, c->runs,
                            ok);
        }
        double dt = bench_median(ta, c->runs) - bench_median(tb, c->runs);
        bench_row_value(c, "contract-buckets", n - erase_n, -1, NAN,
                        merged > 0 && dt > 0 ? merged / dt : NAN, "buckets/s", bytes_a, c->runs,
                        ok);
        bench_row_value(c, "contract-seconds", n - erase_n, -1, NAN, dt, "s", bytes_a, c->runs,
                        ok);
        bench_row_value(c, "buckets-split", n, -1, NAN, (double)split, "count", 0, 1, ok);
        bench_row_value(c, "buckets-merged", n, -1, NAN, (double)merged, "count", 0, 1, ok);
        bench_row_value(c, "shrinks", n, -1, NAN, (double)shrinks, "count", 0, 1, ok);
        if (xgrows > 0 && split == 0)
            printf("resize: this backend does not report bucket splits (hive_stats.buckets_split "
                   "stays 0): no expansion rate in buckets/s\n");
        if (shrinks > 0 && merged == 0)
            printf("resize: this backend does not report bucket merges: no contraction rate\n");
        if (shrinks == 0)
            printf("resize: the table did not shrink after erasing 90%% of its keys\n");
        if (dt <= 0)
            printf("resize: erase with shrinking was not slower than without (%.3g s): no "
                   "contraction rate\n",
                   dt);
    }
    goto out;
fail:
    rc = -1;
out:
    for (int i = 0; i < 4; i++)
        if (tabs[i] != NULL)
            hive_destroy(tabs[i]);
    bench_free(c, keys);
    bench_free(c, vals);
    if (bench_end(c) != 0)
        rc = -1;
    return rc;
}
