/* wl_aging.c — the `aging` workload (WarpSpeed §6.5, Fig. 6.2; spec §2.5,
 * aging_combined): a table of C slots (capacity pinned) is filled to 85%
 * (F keys, timed as "fill"), then R rounds (default 1,000; --rounds) each run
 * one hive_apply batch of 4S operations, S = 1% of C, interleaved at random:
 *
 *   insert    counters [F + iS, F + (i+1)S)      new keys
 *   erase     counters [iS, (i+1)S)              the oldest keys (FIFO)
 *   find      counters [F + (i-2)S, F + (i-1)S)  inserted two rounds ago: present
 *   miss      S counters of the never-inserted stream
 *
 * so the load stays at 85%.  Throughput per round = 4S / time of the batch.
 * Every round is verified through its result array (each insert INSERTED,
 * erase ERASED, find FOUND with the right value, miss NOT_FOUND) and the
 * table size; the whole table (export) at the end.  The result array is
 * written by the timed call (1 byte per op). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "workloads.h"

int wl_aging(bench_ctx *c)
{
    bench_begin(c, "aging");
    uint64_t slots = c->n ? c->n : c->def->aging_slots;
    uint32_t rounds = c->rounds ? c->rounds : c->def->aging_rounds;
    int rc = 0, ok = 1;
    hive_table *t = NULL;
    hive_stats st = {0};
    double *tr = malloc((size_t)rounds * sizeof *tr);
    uint8_t *ops = NULL, *res = NULL;
    void *keys = NULL, *vals = NULL;
    uint64_t seed = bench_seed(c, 0, 0);
    bench_keys k = bench_keys_for(c, seed);
    if (tr == NULL || bench_create_pinned(c, slots, &t) != 0)
        goto fail;
    if (bench_stats(c, t, &st) != 0)
        goto fail;
    uint64_t cap = st.capacity;
    uint64_t fill = (uint64_t)llround(BENCH_AGING_FILL * (double)cap);
    uint64_t s = (uint64_t)llround(BENCH_AGING_SLICE * (double)cap);
    if (s < 1)
        s = 1;
    if (fill + ((uint64_t)rounds + 1) * s > bench_pos_limit(c->bits)) {
        fprintf(stderr, "aging: %u rounds of %llu keys exceed the %u-bit key space\n", rounds,
                (unsigned long long)s, c->bits);
        goto fail;
    }
    uint64_t bufn = fill > 4 * s ? fill : 4 * s;
    ops = bench_alloc(c, 4 * s);
    res = bench_alloc(c, 4 * s);
    keys = bench_alloc(c, bufn * c->kbytes);
    vals = bench_alloc(c, bufn * c->kbytes);
    if (ops == NULL || res == NULL || keys == NULL || vals == NULL)
        goto fail;

    bench_progress(c, "aging: C = %llu slots, fill %llu keys, %u rounds of 4 x %llu ops",
                   (unsigned long long)cap, (unsigned long long)fill, rounds,
                   (unsigned long long)s);
    double tfill;
    bench_gen gfill = bench_gen_one(k, fill, 0, HIVE_OP_INSERT, HIVE_RESULT_INSERTED, 0);
    BENCH_STEP(bench_fill(c, &gfill, NULL, keys, vals), ok, fail);
    BENCH_STEP(BENCH_TIMED(c, &tfill, "hive_insert (fill)",
                           hive_insert(t, fill, keys, vals, HIVE_COMBINE_ASSIGN, NULL, c->stream)),
               ok, fail);
    if (bench_stats(c, t, &st) != 0)
        goto fail;
    bench_row_timed(c, "fill", fill, st.load_factor, NAN, &tfill, 1, st.bytes_held, ok);

    uint64_t neg_base = bench_neg_base(c->bits), neg_span = bench_neg_count(c->bits) / s * s;
    uint32_t every = rounds >= 10 ? rounds / 10 : 1;
    uint64_t bad_rounds = 0;
    for (uint32_t i = 0; i < rounds; i++) {
        uint64_t ins = fill + (uint64_t)i * s, del = (uint64_t)i * s;
        bench_gen g = bench_gen_one(k, s, ins, HIVE_OP_INSERT, HIVE_RESULT_INSERTED, 0);
        bench_gen_add(&g, s, del, HIVE_OP_ERASE, HIVE_RESULT_ERASED, 0, 0);
        bench_gen_add(&g, s, ins - 2 * s, HIVE_OP_FIND, HIVE_RESULT_FOUND, 0, 0);
        bench_gen_add(&g, s, neg_base + ((uint64_t)i * s) % neg_span, HIVE_OP_FIND,
                      HIVE_RESULT_NOT_FOUND, 0, 0);
        bench_gen_shuffle(&g, bench_mix64(seed + i));
        BENCH_STEP(bench_fill(c, &g, ops, keys, vals), ok, fail);
        int before = ok;
        BENCH_STEP(BENCH_TIMED(c, &tr[i], "hive_apply",
                               hive_apply(t, 4 * s, ops, keys, vals, HIVE_COMBINE_ASSIGN, res,
                                          c->stream)),
                   ok, fail);
        BENCH_STEP(bench_check(c, &g, res, NULL, vals, "aging round"), ok, fail);
        uint64_t size = 0;
        BENCH_STEP(bench_status(c, hive_size(t, &size), "hive_size"), ok, fail);
        if (size != fill) {
            bench_fail(c, "round %u: size %llu, expected %llu", i, (unsigned long long)size,
                       (unsigned long long)fill);
            ok = 0;
        }
        if (before && !ok)
            bad_rounds++;
        bench_row_timed(c, "round", 4 * s, (double)size / (double)cap, (double)i, &tr[i], 1, 0,
                        ok)->detail = 1;
        if ((i + 1) % every == 0)
            bench_progress(c, "aging: round %u/%u: %.3f Mops/s", i + 1, rounds,
                           4.0 * (double)s / tr[i] / 1e6);
    }
    uint64_t del_end = (uint64_t)rounds * s, ins_end = fill + (uint64_t)rounds * s;
    bench_live live = bench_live_one(k, del_end, ins_end, 0, 0);
    BENCH_STEP(bench_check_table(c, t, &live, keys, vals, bufn, "table after aging"), ok, fail);
    if (bench_stats(c, t, &st) != 0)
        goto fail;
    {
        double *rate = malloc((size_t)rounds * sizeof *rate);
        if (rate == NULL)
            goto fail;
        double sum = 0;
        for (uint32_t i = 0; i < rounds; i++) {
            rate[i] = 4.0 * (double)s / tr[i];
            sum += tr[i];
        }
        double all = 4.0 * (double)s * rounds / sum;
        bench_spread per_round = bench_spread_sort(rate, (int)rounds);
        bench_row *r = bench_row_rate(c, "rounds-median", 4 * s, st.load_factor, NAN,
                                      per_round.median, st.bytes_held, (int)rounds, ok);
        r->gops_min = per_round.min / 1e9; /* the slowest and fastest round */
        r->gops_max = per_round.max / 1e9;
        bench_row_rate(c, "rounds-aggregate", 4 * s * (uint64_t)rounds, st.load_factor, NAN, all,
                       st.bytes_held, (int)rounds, ok);
        bench_row_rate(c, "rounds-min", 4 * s, st.load_factor, NAN, per_round.min, st.bytes_held,
                       (int)rounds, ok);
        free(rate);
        if (bad_rounds)
            printf("aging: %llu of %u rounds failed verification\n",
                   (unsigned long long)bad_rounds, rounds);
    }
    goto out;
fail:
    rc = -1;
out:
    if (t != NULL)
        hive_destroy(t);
    free(tr);
    bench_free(c, ops);
    bench_free(c, res);
    bench_free(c, keys);
    bench_free(c, vals);
    if (bench_end(c) != 0)
        rc = -1;
    return rc;
}
