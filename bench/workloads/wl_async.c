/* wl_async.c — the `async` workload: what a synchronous call's wait costs on
 * small batches, and what hive_find_async saves.  A table of n keys at load
 * 0.9 (pinned); for batches of 2^16, 2^18 and 2^20 of its keys,
 * BENCH_ASYNC_CALLS calls of hive_find back to back, then as many of
 * hive_find_async and one wait, each series timed whole (the bench's timer:
 * CUDA events on its stream, around every call of the series).  Rows `find`
 * and `find-async`, x = keys a call: keys looked up per second over the
 * series.  Verified after both series: every key of the batch found with
 * its value, and the asynchronous calls' status counting no reserved key. */
#include <math.h>
#include <stdio.h>

#include "workloads.h"

#define BENCH_ASYNC_CALLS 32
#define BENCH_ASYNC_LF 0.9
static const int batch_log2[] = {16, 18, 20};

/* One series of `calls` finds of the batch's keys, synchronous or not, timed
 * whole; returns 0, or -1 on an error. */
static int series(bench_ctx *c, hive_table *t, uint64_t batch, const void *keys, void *vals, uint8_t *found,
                  hive_async_status *status, int async, double *secs)
{
    bench_timer_start(c);
    hive_status s = HIVE_SUCCESS;
    for (int i = 0; i < BENCH_ASYNC_CALLS && s == HIVE_SUCCESS; i++)
        s = async ? hive_find_async(t, batch, keys, vals, found, status, c->stream)
                  : hive_find(t, batch, keys, vals, found, c->stream);
    return bench_timed_end(c, secs, s, async ? "hive_find_async" : "hive_find") < 0 ? -1 : 0;
}

/* The last call found the batch: values and flags, and a clean status. */
static int64_t check(bench_ctx *c, bench_keys k, uint64_t batch, uint8_t *found, void *vals,
                     const hive_async_status *status, const char *what)
{
    bench_gen g = bench_gen_one(k, batch, 0, HIVE_OP_FIND, HIVE_RESULT_FOUND, 0);
    int64_t bad = bench_check(c, &g, NULL, found, vals, what);
    if (bad < 0 || status == NULL)
        return bad;
    hive_async_status host;
    if (bench_to_host(c, &host, status, sizeof host) != 0)
        return -1;
    if (host.words[HIVE_ASYNC_RESERVED] != 0) {
        fprintf(stderr, "hive-bench async: %s: the status counts %llu reserved keys, expected 0\n", what,
                (unsigned long long)host.words[HIVE_ASYNC_RESERVED]);
        bad++;
    }
    return bad;
}

int wl_async(bench_ctx *c)
{
    bench_begin(c, "async");
    uint64_t n = c->n ? c->n : c->def->async_keys;
    uint64_t max_batch = 1ull << batch_log2[sizeof batch_log2 / sizeof batch_log2[0] - 1];
    if (max_batch > n)
        max_batch = n;
    int rc = 0;
    hive_table *t = NULL;
    void *keys = bench_alloc(c, n * c->kbytes);
    void *vals = bench_alloc(c, n * c->kbytes);
    uint8_t *found = bench_alloc(c, n);
    hive_async_status *status = bench_alloc(c, sizeof *status);
    if (keys == NULL || vals == NULL || found == NULL || status == NULL) {
        rc = -1;
        goto out;
    }
    bench_keys k = bench_keys_for(c, bench_seed(c, 0, 0));
    hive_stats st = {0};
    bench_gen g = bench_gen_one(k, n, 0, HIVE_OP_INSERT, HIVE_RESULT_INSERTED, 0);
    if (bench_create_pinned(c, (uint64_t)ceil((double)n / BENCH_ASYNC_LF), &t) != 0 ||
        bench_fill(c, &g, NULL, keys, vals) != 0 ||
        bench_status(c, hive_insert(t, n, keys, vals, HIVE_COMBINE_ASSIGN, NULL, c->stream), "hive_insert") != 0 ||
        bench_stats(c, t, &st) != 0) {
        rc = -1;
        goto out;
    }
    double lf = st.capacity ? (double)n / (double)st.capacity : BENCH_ASYNC_LF;
    for (size_t b = 0; b < sizeof batch_log2 / sizeof batch_log2[0] && rc == 0; b++) {
        uint64_t batch = 1ull << batch_log2[b];
        if (batch > max_batch)
            break;
        bench_progress(c, "async: %llu calls of %llu keys", (unsigned long long)BENCH_ASYNC_CALLS,
                       (unsigned long long)batch);
        double ts[BENCH_MAX_RUNS] = {0}, ta[BENCH_MAX_RUNS] = {0};
        int ok = 1;
        for (int r = -1; r < c->runs && rc == 0; r++) {
            int ri = r < 0 ? 0 : r;
            if (series(c, t, batch, keys, vals, found, NULL, 0, &ts[ri]) != 0 ||
                series(c, t, batch, keys, vals, found, status, 1, &ta[ri]) != 0) {
                rc = -1;
                break;
            }
        }
        if (rc != 0)
            break;
        int64_t bad = check(c, k, batch, found, vals, status, "the last hive_find_async");
        if (bad < 0) {
            rc = -1;
            break;
        }
        ok = bad == 0;
        uint64_t looked_up = batch * BENCH_ASYNC_CALLS;
        bench_row_timed(c, "find", looked_up, lf, (double)batch, ts, c->runs, st.bytes_held, ok);
        bench_row_timed(c, "find-async", looked_up, lf, (double)batch, ta, c->runs, st.bytes_held, ok);
    }
out:
    if (t != NULL)
        hive_destroy(t);
    bench_free(c, keys);
    bench_free(c, vals);
    bench_free(c, found);
    bench_free(c, status);
    if (bench_end(c) != 0)
        rc = -1;
    return rc;
}
