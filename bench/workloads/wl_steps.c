/* wl_steps.c — the `steps` workload (Hive §V-D, Fig. 9): which of the four
 * insert steps (hive_stats.insert_steps: 0 replace, 1 claim-then-commit,
 * 2 cuckoo eviction, 3 overflow stash) finishes each insert, as the load
 * factor goes 0.55, 0.60, ... 0.95, 0.97.  Per point a fresh table of C slots
 * (capacity pinned) is filled in two hive_insert calls: keys up to the
 * previous point's load, then the rest.  Reported per step: the fraction of
 * all inserts of the fill ("all-*", the table's history 0 -> lf) and of the
 * second call alone ("last-*", the inserts made between the previous load
 * and lf), and the insert throughput of the whole fill (median of runs;
 * fractions from the first timed run).  Hive's figure is a share of time;
 * these are shares of inserts: a count is what hive_stats holds.
 * Verified: the table holds exactly the inserted keys (size, export). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "workloads.h"

static const char *const step_names[4] = {"replace", "claim", "cuckoo", "stash"};

static double point_lf(int i) { return i < BENCH_STEPS_POINTS - 1 ? 0.55 + 0.05 * i : 0.97; }

static int point(bench_ctx *c, uint64_t slots, int pi, void *keys, void *vals)
{
    double tt[BENCH_MAX_RUNS] = {0};
    int ok = 1;
    hive_stats st = {0};
    hive_table *t = NULL;
    uint64_t all[4] = {0, 0, 0, 0}, last[4] = {0, 0, 0, 0}, n = 0;
    double lf = point_lf(pi), prev = pi > 0 ? point_lf(pi - 1) : 0.5;
    for (int r = -1; r < c->runs; r++) {
        int ri = r < 0 ? 0 : r;
        bench_keys k = bench_keys_for(c, bench_seed(c, (uint64_t)pi, r));
        if (bench_create_pinned(c, slots, &t) != 0 || bench_stats(c, t, &st) != 0)
            goto fail;
        n = (uint64_t)llround(lf * (double)st.capacity);
        uint64_t n1 = (uint64_t)llround(prev * (double)st.capacity);
        if (n > slots) /* the buffers hold `slots` keys */
            n = slots;
        if (n1 > n)
            n1 = n;
        bench_gen gi = bench_gen_one(k, n, 0, HIVE_OP_INSERT, HIVE_RESULT_INSERTED, 0);
        BENCH_STEP(bench_fill(c, &gi, NULL, keys, vals), ok, fail);
        hive_stats s0, s1;
        double t1, t2;
        BENCH_STEP(BENCH_TIMED(c, &t1, "hive_insert",
                               hive_insert(t, n1, keys, vals, HIVE_COMBINE_ASSIGN, NULL, c->stream)),
                   ok, fail);
        if (bench_stats(c, t, &s0) != 0)
            goto fail;
        BENCH_STEP(BENCH_TIMED(c, &t2, "hive_insert",
                               hive_insert(t, n - n1, (char *)keys + n1 * c->kbytes,
                                           (char *)vals + n1 * c->kbytes, HIVE_COMBINE_ASSIGN,
                                           NULL, c->stream)),
                   ok, fail);
        if (bench_stats(c, t, &s1) != 0)
            goto fail;
        tt[ri] = t1 + t2;
        if (r == 0)
            for (int s = 0; s < 4; s++) {
                all[s] = s1.insert_steps[s];
                last[s] = s1.insert_steps[s] - s0.insert_steps[s];
            }
        bench_live live = bench_live_one(k, 0, n, 0, 0);
        BENCH_STEP(bench_check_table(c, t, &live, keys, vals, slots, "table after the fill"), ok,
                   fail);
        st = s1;
        hive_destroy(t);
        t = NULL;
    }
    {
        double x = round(lf * 100.0) / 100.0, lf_real = (double)n / (double)st.capacity;
        uint64_t sa = all[0] + all[1] + all[2] + all[3], sl = last[0] + last[1] + last[2] + last[3];
        bench_row_timed(c, "insert", n, lf_real, x, tt, c->runs, st.bytes_held, ok);
        for (int s = 0; s < 4; s++) {
            char op[40];
            snprintf(op, sizeof op, "all-%s", step_names[s]);
            bench_row_value(c, op, n, lf_real, x, sa ? (double)all[s] / (double)sa : NAN,
                            "fraction", st.bytes_held, 1, ok);
        }
        for (int s = 0; s < 4; s++) {
            char op[40];
            snprintf(op, sizeof op, "last-%s", step_names[s]);
            bench_row_value(c, op, n, lf_real, x, sl ? (double)last[s] / (double)sl : NAN,
                            "fraction", st.bytes_held, 1, ok);
        }
        if (sa == 0)
            printf("steps: load %.2f: hive_stats.insert_steps are all 0 (not reported by this "
                   "backend)\n",
                   lf);
        else if (sa != n)
            printf("steps: load %.2f: insert_steps sum to %llu for %llu inserts\n", lf,
                   (unsigned long long)sa, (unsigned long long)n);
    }
    return 0;
fail:
    if (t != NULL)
        hive_destroy(t);
    return -1;
}

int wl_steps(bench_ctx *c)
{
    bench_begin(c, "steps");
    uint64_t slots = c->n ? c->n : c->def->steps_slots;
    int rc = 0;
    void *keys = bench_alloc(c, slots * c->kbytes), *vals = bench_alloc(c, slots * c->kbytes);
    if (keys == NULL || vals == NULL) {
        rc = -1;
        goto out;
    }
    for (int i = 0; i < BENCH_STEPS_POINTS && rc == 0; i++) {
        bench_progress(c, "steps: C = %llu slots, load %.2f", (unsigned long long)slots,
                       point_lf(i));
        rc = point(c, slots, i, keys, vals);
    }
out:
    bench_free(c, keys);
    bench_free(c, vals);
    if (bench_end(c) != 0)
        rc = -1;
    return rc;
}
