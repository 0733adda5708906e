/* wl_ycsb.c — the `ycsb` workload (WarpSpeed §6.8; spec §2.7 with our
 * changes: a seeded self-generated trace, real updates, both phases
 * reported).  YCSB core workloads over N records (default 1e8 on the GPU):
 *
 *   A  50% read / 50% update      B  95% / 5%      C  100% read
 *
 * Load phase: one hive_insert of the N records into a fresh table of
 * 1.2 N slots (capacity pinned; ~83% load, as WarpSpeed).  Run phase: one
 * hive_apply of N operations; each picks read (FIND) or update (UPSERT,
 * ASSIGN) with the workload's odds and a key by a Zipfian rank (constant
 * 0.99, Gray et al.'s method as in YCSB's ZipfianGenerator), drawn from a
 * seeded counter-based generator; the rank is the key's counter, and the key
 * permutation scatters hot ranks over the key space, as YCSB's scrambled
 * Zipfian does.  Timed: the load call and the run phase (eight hive_apply calls, see
 * RUN_BATCHES).  Verified: reads return the loaded or the
 * updated value; afterwards the table holds exactly the N records, each with
 * one of the two values. */
#include <math.h>
#include <stdio.h>

#include "workloads.h"

/* hive_apply makes room for every UPSERT of a batch as if its key were new
 * (api.c: count_inserts, then grow_for), so one batch of N operations of
 * workload A (N/2 updates) on a table of N records in 1.2 N slots would grow
 * the table.  Eight batches keep each one's worst case (N + N/16 for A) under
 * the pinned capacity; the time is taken around all eight. */
#define RUN_BATCHES 8

static const struct {
    const char *name;
    double read;
} workloads[] = {{"A", 0.5}, {"B", 0.95}, {"C", 1.0}};

static int one(bench_ctx *c, int w, uint64_t records, uint8_t *ops, void *keys, void *vals)
{
    double tl[BENCH_MAX_RUNS] = {0}, tr[BENCH_MAX_RUNS] = {0};
    int ok = 1;
    hive_stats st = {0};
    hive_table *t = NULL;
    uint64_t slots = (uint64_t)ceil((double)records * BENCH_YCSB_SLACK);
    bench_gen run;
    for (int r = -1; r < c->runs; r++) {
        int ri = r < 0 ? 0 : r;
        uint64_t seed = bench_seed(c, (uint64_t)w, r);
        bench_keys k = bench_keys_for(c, seed);
        if (bench_create_pinned(c, slots, &t) != 0)
            goto fail;
        bench_gen load = bench_gen_one(k, records, 0, HIVE_OP_INSERT, HIVE_RESULT_INSERTED, 0);
        BENCH_STEP(bench_fill(c, &load, NULL, keys, vals), ok, fail);
        BENCH_STEP(BENCH_TIMED(c, &tl[ri], "hive_insert (load)",
                               hive_insert(t, records, keys, vals, HIVE_COMBINE_ASSIGN, NULL,
                                           c->stream)),
                   ok, fail);
        run = bench_gen_zipf(k, records, records, BENCH_YCSB_THETA, workloads[w].read,
                             bench_mix64(seed ^ 0x5943u));
        BENCH_STEP(bench_fill(c, &run, ops, keys, vals), ok, fail);
        /* The run phase in RUN_BATCHES hive_apply calls, timed together. */
        bench_timer_start(c);
        for (uint64_t b = 0; b < RUN_BATCHES; b++) {
            uint64_t lo = records * b / RUN_BATCHES, hi = records * (b + 1) / RUN_BATCHES;
            hive_status s = hive_apply(t, hi - lo, ops + lo, (char *)keys + lo * c->kbytes,
                                       (char *)vals + lo * c->kbytes, HIVE_COMBINE_ASSIGN, NULL,
                                       c->stream);
            if (s != HIVE_SUCCESS) {
                bench_timer_stop(c);
                BENCH_STEP(bench_status(c, s, "hive_apply (run)"), ok, fail);
            }
        }
        tr[ri] = bench_timer_stop(c);
        if (tr[ri] < 0)
            goto fail;
        BENCH_STEP(bench_check(c, &run, NULL, NULL, vals, "ycsb reads"), ok, fail);
        bench_live live = bench_live_one(k, 0, records, 0, 1);
        BENCH_STEP(bench_check_table(c, t, &live, keys, vals, records, "table after the run"),
                   ok, fail);
        if (bench_stats(c, t, &st) != 0)
            goto fail;
        hive_destroy(t);
        t = NULL;
    }
    char op[40];
    snprintf(op, sizeof op, "%s-load", workloads[w].name);
    bench_row_timed(c, op, records, st.load_factor, workloads[w].read, tl, c->runs,
                    st.bytes_held, ok);
    snprintf(op, sizeof op, "%s-run", workloads[w].name);
    bench_row_timed(c, op, records, st.load_factor, workloads[w].read, tr, c->runs,
                    st.bytes_held, ok);
    return 0;
fail:
    if (t != NULL)
        hive_destroy(t);
    return -1;
}

int wl_ycsb(bench_ctx *c)
{
    bench_begin(c, "ycsb");
    uint64_t records = c->n ? c->n : c->def->ycsb_records;
    int rc = 0;
    uint8_t *ops = bench_alloc(c, records);
    void *keys = bench_alloc(c, records * c->kbytes);
    void *vals = bench_alloc(c, records * c->kbytes);
    if (records < 2 || ops == NULL || keys == NULL || vals == NULL) {
        rc = -1;
        goto out;
    }
    for (int w = 0; w < 3 && rc == 0; w++) {
        bench_progress(c, "ycsb: workload %s, %llu records, %llu ops", workloads[w].name,
                       (unsigned long long)records, (unsigned long long)records);
        rc = one(c, w, records, ops, keys, vals);
    }
out:
    bench_free(c, ops);
    bench_free(c, keys);
    bench_free(c, vals);
    if (bench_end(c) != 0)
        rc = -1;
    return rc;
}
