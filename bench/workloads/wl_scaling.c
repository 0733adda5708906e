/* wl_scaling.c — the `scaling` workload (WarpSpeed §6.4; spec §2.9): tables
 * of C slots, C = 1e7, 2e7, 5e7, 1e8, 2e8, 5e8, 1e9, 2e9, ... up to the
 * defaults' maximum (--n sets it) and to what memory allows (GPU:
 * cudaMemGetInfo; CPU: a share of the available physical memory), each filled
 * to 90% (one hive_insert), then timed hive_find and hive_erase of all keys.
 * The memory plan per point: table (slots x slot bytes x 1.1 for the stash
 * and locks) + keys + values + found flags for 0.9 C keys.  Verified: finds
 * return their values, the table holds exactly the keys (size, export) before
 * the erase and nothing after. */
#include <math.h>
#include <stdio.h>

#include "workloads.h"

static int point(bench_ctx *c, uint64_t slots, uint64_t pid, void *keys, void *vals)
{
    double ti[BENCH_MAX_RUNS] = {0}, tf[BENCH_MAX_RUNS] = {0}, te[BENCH_MAX_RUNS] = {0};
    int ok = 1;
    hive_stats st = {0};
    hive_table *t = NULL;
    uint64_t n = (uint64_t)((double)slots * BENCH_SCALING_LF);
    for (int r = -1; r < c->runs; r++) {
        int ri = r < 0 ? 0 : r;
        bench_keys k = bench_keys_for(c, bench_seed(c, pid, r));
        int cr = bench_create_pinned(c, slots, &t);
        if (cr == -2 && r < 0) {
            printf("scaling: %llu slots: out of memory, stopping here\n", (unsigned long long)slots);
            return 1;
        }
        if (cr != 0)
            goto fail;
        bench_gen gi = bench_gen_one(k, n, 0, HIVE_OP_INSERT, HIVE_RESULT_INSERTED, 0);
        bench_gen gf = bench_gen_one(k, n, 0, HIVE_OP_FIND, HIVE_RESULT_FOUND, 0);
        BENCH_STEP(bench_fill(c, &gi, NULL, keys, vals), ok, fail);
        BENCH_STEP(BENCH_TIMED(c, &ti[ri], "hive_insert",
                               hive_insert(t, n, keys, vals, HIVE_COMBINE_ASSIGN, NULL, c->stream)),
                   ok, fail);
        BENCH_STEP(bench_fill(c, &gf, NULL, keys, vals), ok, fail);
        BENCH_STEP(BENCH_TIMED(c, &tf[ri], "hive_find",
                               hive_find(t, n, keys, vals, NULL, c->stream)),
                   ok, fail);
        BENCH_STEP(bench_check(c, &gf, NULL, NULL, vals, "find"), ok, fail);
        bench_live live = bench_live_one(k, 0, n, 0, 0);
        BENCH_STEP(bench_check_table(c, t, &live, keys, vals, n, "table before erase"), ok, fail);
        if (bench_stats(c, t, &st) != 0)
            goto fail;
        BENCH_STEP(bench_fill(c, &gi, NULL, keys, NULL), ok, fail);
        BENCH_STEP(BENCH_TIMED(c, &te[ri], "hive_erase", hive_erase(t, n, keys, NULL, c->stream)),
                   ok, fail);
        bench_live none = bench_live_one(k, 0, 0, 0, 0);
        BENCH_STEP(bench_check_table(c, t, &none, keys, vals, n, "table after erase"), ok, fail);
        hive_destroy(t);
        t = NULL;
    }
    double lf = st.capacity ? (double)n / (double)st.capacity : BENCH_SCALING_LF;
    bench_row_timed(c, "insert", n, lf, (double)slots, ti, c->runs, st.bytes_held, ok);
    bench_row_timed(c, "find", n, lf, (double)slots, tf, c->runs, st.bytes_held, ok);
    bench_row_timed(c, "erase", n, lf, (double)slots, te, c->runs, st.bytes_held, ok);
    return 0;
fail:
    if (t != NULL)
        hive_destroy(t);
    return -1;
}

/* Bytes one point needs: the table, with room for stash and locks, and the
 * bench's keys, values and flags. */
static uint64_t plan_bytes(const bench_ctx *c, uint64_t slots)
{
    double table = (double)slots * 2.0 * (double)c->kbytes * 1.1;
    double bufs = (double)slots * BENCH_SCALING_LF * (2.0 * (double)c->kbytes + 1.0);
    double bitmap = (double)slots / 8.0;
    return (uint64_t)(table + bufs + bitmap);
}

int wl_scaling(bench_ctx *c)
{
    bench_begin(c, "scaling");
    static const uint64_t mant[3] = {1, 2, 5};
    uint64_t lo = c->def->scaling_min, hi = c->n ? c->n : c->def->scaling_max;
    int rc = 0;
    uint64_t budget = (uint64_t)((double)bench_free_memory(c) *
                                 (c->gpu ? BENCH_GPU_MEM_USE : BENCH_CPU_MEM_USE));
    uint64_t maxkeys = bench_pos_limit(c->bits);
    /* the largest point decides the buffers; they are reused by smaller ones */
    uint64_t top = 0;
    for (uint64_t dec = 1; dec <= 100000000000ull; dec *= 10)
        for (int m = 0; m < 3; m++) {
            uint64_t slots = mant[m] * dec;
            if (slots >= lo && slots <= hi && plan_bytes(c, slots) <= budget &&
                (uint64_t)(slots * BENCH_SCALING_LF) < maxkeys)
                top = slots;
        }
    if (top == 0) {
        printf("scaling: not even %llu slots fit in %llu MiB: skipped\n", (unsigned long long)lo,
               (unsigned long long)(budget >> 20));
        return bench_end(c);
    }
    uint64_t nmax = (uint64_t)((double)top * BENCH_SCALING_LF) + 1;
    void *keys = bench_alloc(c, nmax * c->kbytes);
    void *vals = bench_alloc(c, nmax * c->kbytes);
    if (keys == NULL || vals == NULL) {
        rc = -1;
        goto out;
    }
    for (uint64_t dec = 1, pid = 0; dec <= 100000000000ull && rc == 0; dec *= 10)
        for (int m = 0; m < 3 && rc == 0; m++, pid++) {
            uint64_t slots = mant[m] * dec;
            if (slots < lo || slots > top)
                continue;
            bench_progress(c, "scaling: C = %llu slots (plan %.2f GiB of %.2f GiB)",
                           (unsigned long long)slots, plan_bytes(c, slots) / 1073741824.0,
                           budget / 1073741824.0);
            rc = point(c, slots, pid, keys, vals);
            if (rc > 0) { /* out of memory: larger points won't fit either */
                rc = 0;
                goto out;
            }
        }
out:
    bench_free(c, keys);
    bench_free(c, vals);
    if (bench_end(c) != 0)
        rc = -1;
    return rc;
}
