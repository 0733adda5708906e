/* wl_async.c — the `async` workload: what a synchronous call's wait costs on
 * small batches, and what the asynchronous calls save.  A table of n keys at
 * load 0.9 (pinned); for batches of 2^16, 2^18 and 2^20 of its keys,
 * BENCH_ASYNC_CALLS calls of hive_find back to back, then as many of
 * hive_find_async and one wait; then the same with upserts (ASSIGN) of the
 * batch's keys with their own values, hive_insert and hive_insert_async,
 * each series timed whole (the bench's timer: CUDA events on its stream,
 * around every call of the series).  Rows `find`, `find-async`, `assign`
 * and `assign-async`, x = keys a call: keys per second over the series.
 * Verified after the series: every key of the batch found with its value,
 * the last upserts' results all UPDATED, and the asynchronous calls' status
 * counting no reserved key, no new key and no key without room. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "workloads.h"

#define BENCH_ASYNC_CALLS 32
#define BENCH_ASYNC_LF 0.9
static const int batch_log2[] = {16, 18, 20};

/* One series of `calls` finds (or ASSIGN upserts: `assign`) of the batch's
 * keys, synchronous or not, timed whole; returns 0, or -1 on an error. */
static int series(bench_ctx *c, hive_table *t, uint64_t batch, const void *keys, void *vals, uint8_t *flags,
                  hive_async_status *status, int assign, double *secs)
{
    static const char *names[2][2] = {{"hive_find", "hive_find_async"}, {"hive_insert", "hive_insert_async"}};
    int async = status != NULL;
    bench_timer_start(c);
    hive_status s = HIVE_SUCCESS;
    for (int i = 0; i < BENCH_ASYNC_CALLS && s == HIVE_SUCCESS; i++) {
        if (assign)
            s = async ? hive_insert_async(t, batch, keys, vals, HIVE_COMBINE_ASSIGN, flags, status, c->stream)
                      : hive_insert(t, batch, keys, vals, HIVE_COMBINE_ASSIGN, flags, c->stream);
        else
            s = async ? hive_find_async(t, batch, keys, vals, flags, status, c->stream)
                      : hive_find(t, batch, keys, vals, flags, c->stream);
    }
    return bench_timed_end(c, secs, s, names[assign][async]) < 0 ? -1 : 0;
}

/* The last upserts updated every key of the batch (results), and their
 * status counts no new key and no key without room. */
static int64_t check_assigned(bench_ctx *c, uint64_t batch, const uint8_t *results, const hive_async_status *status)
{
    uint8_t *host = malloc(batch);
    hive_async_status words;
    if (host == NULL || bench_to_host(c, host, results, batch) != 0 || bench_to_host(c, &words, status, sizeof words) != 0) {
        free(host);
        return -1;
    }
    int64_t bad = 0;
    for (uint64_t i = 0; i < batch; i++)
        bad += host[i] != HIVE_RESULT_UPDATED;
    free(host);
    if (words.words[HIVE_ASYNC_INSERTED] != 0 || words.words[HIVE_ASYNC_FULL] != 0) {
        fprintf(stderr, "hive-bench async: the upserts' status counts %llu new keys and %llu without room\n",
                (unsigned long long)words.words[HIVE_ASYNC_INSERTED], (unsigned long long)words.words[HIVE_ASYNC_FULL]);
        bad++;
    }
    if (bad)
        fprintf(stderr, "hive-bench async: %lld upserts of present keys went wrong\n", (long long)bad);
    return bad;
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
    uint8_t *results = bench_alloc(c, max_batch);
    hive_async_status *status = bench_alloc(c, sizeof *status);
    if (keys == NULL || vals == NULL || found == NULL || results == NULL || status == NULL) {
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
        double us[BENCH_MAX_RUNS] = {0}, ua[BENCH_MAX_RUNS] = {0};
        for (int r = -1; r < c->runs && rc == 0; r++) {
            int ri = r < 0 ? 0 : r;
            if (series(c, t, batch, keys, vals, found, NULL, 0, &ts[ri]) != 0 ||
                series(c, t, batch, keys, vals, found, status, 0, &ta[ri]) != 0 ||
                series(c, t, batch, keys, vals, results, NULL, 1, &us[ri]) != 0 ||
                series(c, t, batch, keys, vals, results, status, 1, &ua[ri]) != 0) {
                rc = -1;
                break;
            }
        }
        if (rc != 0)
            break;
        int64_t bad_assign = check_assigned(c, batch, results, status);
        /* The finds' flags and values, after the upserts that kept them. */
        double untimed = 0;
        int64_t bad = bad_assign < 0 ? -1
                      : series(c, t, batch, keys, vals, found, status, 0, &untimed) != 0
                          ? -1
                          : check(c, k, batch, found, vals, status, "the last hive_find_async");
        if (bad < 0) {
            rc = -1;
            break;
        }
        int ok = bad == 0 && bad_assign == 0;
        uint64_t done = batch * BENCH_ASYNC_CALLS;
        bench_row_timed(c, "find", done, lf, (double)batch, ts, c->runs, st.bytes_held, ok);
        bench_row_timed(c, "find-async", done, lf, (double)batch, ta, c->runs, st.bytes_held, ok);
        bench_row_timed(c, "assign", done, lf, (double)batch, us, c->runs, st.bytes_held, ok);
        bench_row_timed(c, "assign-async", done, lf, (double)batch, ua, c->runs, st.bytes_held, ok);
    }
out:
    if (t != NULL)
        hive_destroy(t);
    bench_free(c, keys);
    bench_free(c, vals);
    bench_free(c, found);
    bench_free(c, results);
    bench_free(c, status);
    if (bench_end(c) != 0)
        rc = -1;
    return rc;
}
