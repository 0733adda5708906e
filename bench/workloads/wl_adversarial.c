/* wl_adversarial.c — the `adversarial` workload: WarpSpeed's duplicate-key
 * race test (spec §1) through the public API.
 *
 * A table of B buckets (B = 1e6 on the GPU, as WarpSpeed; --n), capacity
 * pinned.  Keys are drawn from the unique key stream and sorted by their first
 * bucket, hive_bucket_of(hive_index_for(B), hash1(key)) under the table's hash
 * seed (hive_get_config) — the bucket whose lock
 * serialises a new key's placement (src/designs/hive/protocol.h, R1-R3) — until every
 * bucket is the first bucket of exactly two keys X and Y.
 *
 *   round 1  hive_insert of every X
 *   round 2  one hive_apply of 3B ops, per bucket adjacent:
 *            [erase X, upsert Y (value 1), upsert Y (value 2)]
 *            so the erase frees a slot while two inserts of Y race for it
 *   round 3  on every Y, four batches in order:
 *            find must hit             (else fail_first_query)
 *            erase must say ERASED     (else fail_original_delete)
 *            find must miss            (else query_after_delete: a duplicate)
 *            erase must say NOT_FOUND  (else delete_after_delete)
 *
 * PASS when all four counters are 0 over every run (each run draws new keys);
 * the table's size is also checked after rounds 2 and 3 (B, then 0).  The
 * process exits 1 on FAIL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/index.h"
#include "hash/bithash.h"
#include "workloads.h"

static uint32_t hash1(uint32_t bits, uint64_t seed, uint64_t key)
{
    return bits == 32 ? hive_hash1_k32((uint32_t)key, seed) : hive_hash1_k64(key, seed);
}

/* first[b], second[b] for every bucket of a table with hash seed `seed`; 0 on
 * success, -1 if the draws ran out. */
static int choose_keys(const bench_ctx *c, bench_keys k, uint64_t seed, uint64_t buckets,
                       uint64_t *first, uint64_t *second, uint8_t *have)
{
    hive_index ix = hive_index_for(buckets);
    uint64_t filled = 0, limit = 64 * buckets + (1u << 20);
    memset(have, 0, buckets);
    for (uint64_t ctr = 0; filled < 2 * buckets; ctr++) {
        if (ctr >= limit || ctr >= bench_pos_limit(c->bits))
            return -1;
        uint64_t key = bench_key(&k, ctr);
        uint64_t b = hive_bucket_of(ix, hash1(c->bits, seed, key));
        if (have[b] == 0) {
            first[b] = key;
            have[b] = 1;
            filled++;
        } else if (have[b] == 1) {
            second[b] = key;
            have[b] = 2;
            filled++;
        }
    }
    return 0;
}

static uint64_t count_not(const uint8_t *a, uint64_t n, uint8_t want)
{
    uint64_t bad = 0;
    for (uint64_t i = 0; i < n; i++)
        bad += a[i] != want;
    return bad;
}

int wl_adversarial(bench_ctx *c)
{
    bench_begin(c, "adversarial");
    uint64_t want = c->n ? c->n : c->def->adversarial_buckets;
    int rc = 0, ok = 1;
    uint64_t fail_first_query = 0, fail_original_delete = 0, query_after_delete = 0,
             delete_after_delete = 0, size_errors = 0, race_odd = 0;
    double trace[BENCH_MAX_RUNS] = {0};
    hive_table *t = NULL;
    hive_stats st = {0};
    uint64_t *first = NULL, *second = NULL;
    uint8_t *have = NULL, *h_ops = NULL, *h_res = NULL;
    void *h_keys = NULL, *h_vals = NULL, *d_keys = NULL, *d_vals = NULL;
    uint8_t *d_ops = NULL, *d_res = NULL;
    uint64_t buckets = 0;

    /* the slots per bucket, to ask for exactly `want` buckets */
    hive_config probe = bench_config(c, 1024, 1.0, 0.0);
    if (bench_create(c, &probe, &t) != 0 || bench_stats(c, t, &st) != 0)
        goto fail;
    uint32_t slots_per_bucket = st.bucket_slots ? st.bucket_slots : 1;
    hive_destroy(t);
    t = NULL;

    for (int r = 0; r < c->runs; r++) {
        bench_keys k = bench_keys_for(c, bench_seed(c, 0, r));
        if (bench_create_pinned(c, want * slots_per_bucket, &t) != 0 || bench_stats(c, t, &st) != 0)
            goto fail;
        if (buckets == 0) {
            buckets = st.buckets;
            size_t kb = c->kbytes;
            first = malloc(buckets * sizeof *first);
            second = malloc(buckets * sizeof *second);
            have = malloc(buckets);
            h_ops = malloc(3 * buckets);
            h_res = malloc(3 * buckets);
            h_keys = malloc(3 * buckets * kb);
            h_vals = malloc(3 * buckets * kb);
            d_keys = bench_alloc(c, 3 * buckets * kb);
            d_vals = bench_alloc(c, 3 * buckets * kb);
            d_ops = bench_alloc(c, 3 * buckets);
            d_res = bench_alloc(c, 3 * buckets);
            if (!first || !second || !have || !h_ops || !h_res || !h_keys || !h_vals || !d_keys ||
                !d_vals || !d_ops || !d_res) {
                fprintf(stderr, "adversarial: out of memory for %llu buckets\n",
                        (unsigned long long)buckets);
                goto fail;
            }
            bench_progress(c, "adversarial: %llu buckets of %u slots, %d runs",
                           (unsigned long long)buckets, st.bucket_slots, c->runs);
        } else if (st.buckets != buckets) {
            fprintf(stderr, "adversarial: bucket count changed between runs\n");
            goto fail;
        }
        hive_config tc = HIVE_CONFIG_INIT;
        if (bench_status(c, hive_get_config(t, &tc), "hive_get_config") != 0)
            goto fail;
        if (choose_keys(c, k, tc.hash_seed, buckets, first, second, have) != 0) {
            fprintf(stderr, "adversarial: could not give every bucket two keys\n");
            goto fail;
        }
        uint64_t B = buckets;
        uint32_t bits = c->bits;

        /* round 1: insert every X */
        for (uint64_t b = 0; b < B; b++) {
            bench_word_put(h_keys, bits, b, first[b]);
            bench_word_put(h_vals, bits, b, 0);
        }
        BENCH_STEP(bench_to_table_memory(c, d_keys, h_keys, B * c->kbytes), ok, fail);
        BENCH_STEP(bench_to_table_memory(c, d_vals, h_vals, B * c->kbytes), ok, fail);
        BENCH_STEP(bench_status(c, hive_insert(t, B, d_keys, d_vals, HIVE_COMBINE_ASSIGN, d_res,
                                               c->stream),
                                "hive_insert (round 1)"),
                   ok, fail);
        BENCH_STEP(bench_to_host(c, h_res, d_res, B), ok, fail);
        if (count_not(h_res, B, HIVE_RESULT_INSERTED) != 0) {
            bench_fail(c, "round 1: %llu inserts of X did not say INSERTED",
                       (unsigned long long)count_not(h_res, B, HIVE_RESULT_INSERTED));
            ok = 0;
        }

        /* round 2: the race */
        for (uint64_t b = 0; b < B; b++) {
            h_ops[3 * b] = HIVE_OP_ERASE;
            h_ops[3 * b + 1] = HIVE_OP_UPSERT;
            h_ops[3 * b + 2] = HIVE_OP_UPSERT;
            bench_word_put(h_keys, bits, 3 * b, first[b]);
            bench_word_put(h_keys, bits, 3 * b + 1, second[b]);
            bench_word_put(h_keys, bits, 3 * b + 2, second[b]);
            bench_word_put(h_vals, bits, 3 * b, 0);
            bench_word_put(h_vals, bits, 3 * b + 1, 1);
            bench_word_put(h_vals, bits, 3 * b + 2, 2);
        }
        BENCH_STEP(bench_to_table_memory(c, d_ops, h_ops, 3 * B), ok, fail);
        BENCH_STEP(bench_to_table_memory(c, d_keys, h_keys, 3 * B * c->kbytes), ok, fail);
        BENCH_STEP(bench_to_table_memory(c, d_vals, h_vals, 3 * B * c->kbytes), ok, fail);
        BENCH_STEP(BENCH_TIMED(c, &trace[r], "hive_apply (round 2)",
                               hive_apply(t, 3 * B, d_ops, d_keys, d_vals, HIVE_COMBINE_ASSIGN,
                                          d_res, c->stream)),
                   ok, fail);
        BENCH_STEP(bench_to_host(c, h_res, d_res, 3 * B), ok, fail);
        for (uint64_t b = 0; b < B; b++) {
            uint8_t e = h_res[3 * b], u1 = h_res[3 * b + 1], u2 = h_res[3 * b + 2];
            int one_new = (u1 == HIVE_RESULT_INSERTED && u2 == HIVE_RESULT_UPDATED) ||
                          (u2 == HIVE_RESULT_INSERTED && u1 == HIVE_RESULT_UPDATED);
            race_odd += e != HIVE_RESULT_ERASED || !one_new;
        }
        uint64_t size = 0;
        BENCH_STEP(bench_status(c, hive_size(t, &size), "hive_size"), ok, fail);
        if (size != B) {
            bench_fail(c, "after round 2 the size is %llu, expected %llu", (unsigned long long)size,
                       (unsigned long long)B);
            size_errors++;
        }

        /* round 3: four checks on every Y, in order */
        for (uint64_t b = 0; b < B; b++)
            bench_word_put(h_keys, bits, b, second[b]);
        BENCH_STEP(bench_to_table_memory(c, d_keys, h_keys, B * c->kbytes), ok, fail);
        BENCH_STEP(bench_status(c, hive_find(t, B, d_keys, d_vals, d_res, c->stream),
                                "hive_find (a)"),
                   ok, fail);
        BENCH_STEP(bench_to_host(c, h_res, d_res, B), ok, fail);
        BENCH_STEP(bench_to_host(c, h_vals, d_vals, B * c->kbytes), ok, fail);
        fail_first_query += count_not(h_res, B, 1);
        for (uint64_t b = 0; b < B; b++) {
            uint64_t v = bench_word_get(h_vals, bits, b);
            if (h_res[b] == 1 && v != 1 && v != 2) {
                bench_fail(c, "bucket %llu: Y holds value %llu, not 1 or 2", (unsigned long long)b,
                           (unsigned long long)v);
                ok = 0;
                break;
            }
        }
        BENCH_STEP(bench_status(c, hive_erase(t, B, d_keys, d_res, c->stream), "hive_erase (b)"),
                   ok, fail);
        BENCH_STEP(bench_to_host(c, h_res, d_res, B), ok, fail);
        fail_original_delete += count_not(h_res, B, HIVE_RESULT_ERASED);
        BENCH_STEP(bench_status(c, hive_find(t, B, d_keys, NULL, d_res, c->stream),
                                "hive_find (c)"),
                   ok, fail);
        BENCH_STEP(bench_to_host(c, h_res, d_res, B), ok, fail);
        query_after_delete += count_not(h_res, B, 0);
        BENCH_STEP(bench_status(c, hive_erase(t, B, d_keys, d_res, c->stream), "hive_erase (d)"),
                   ok, fail);
        BENCH_STEP(bench_to_host(c, h_res, d_res, B), ok, fail);
        delete_after_delete += count_not(h_res, B, HIVE_RESULT_NOT_FOUND);
        BENCH_STEP(bench_status(c, hive_size(t, &size), "hive_size"), ok, fail);
        if (size != 0) {
            bench_fail(c, "after round 3 the size is %llu, expected 0", (unsigned long long)size);
            size_errors++;
        }
        hive_destroy(t);
        t = NULL;
    }
    {
        int pass = fail_first_query + fail_original_delete + query_after_delete +
                       delete_after_delete + size_errors == 0 &&
                   ok;
        int okv = pass ? 1 : 0;
        bench_row_value(c, "fail_first_query", buckets, -1, NAN, (double)fail_first_query, "count",
                        st.bytes_held, c->runs, okv);
        bench_row_value(c, "fail_original_delete", buckets, -1, NAN, (double)fail_original_delete,
                        "count", st.bytes_held, c->runs, okv);
        bench_row_value(c, "query_after_delete", buckets, -1, NAN, (double)query_after_delete,
                        "count", st.bytes_held, c->runs, okv);
        bench_row_value(c, "delete_after_delete", buckets, -1, NAN, (double)delete_after_delete,
                        "count", st.bytes_held, c->runs, okv);
        bench_row_value(c, "size_errors", buckets, -1, NAN, (double)size_errors, "count",
                        st.bytes_held, c->runs, okv);
        bench_row_value(c, "race-results-unusual", buckets, -1, NAN, (double)race_odd, "count",
                        st.bytes_held, c->runs, -1);
        bench_row_timed(c, "race-apply", 3 * buckets, -1, NAN, trace, c->runs, st.bytes_held, okv);
        printf("adversarial: %llu buckets x %d runs: fail_first_query %llu, fail_original_delete "
               "%llu, query_after_delete %llu, delete_after_delete %llu: %s\n",
               (unsigned long long)buckets, c->runs, (unsigned long long)fail_first_query,
               (unsigned long long)fail_original_delete, (unsigned long long)query_after_delete,
               (unsigned long long)delete_after_delete, pass ? "PASS" : "FAIL");
        if (race_odd)
            printf("adversarial: %llu buckets saw round-2 results other than [ERASED, one "
                   "INSERTED + one UPDATED] (allowed: the ops race; not a failure by itself)\n",
                   (unsigned long long)race_odd);
        if (!pass)
            bench_fail(c, "duplicate-key race test FAILED");
    }
    goto out;
fail:
    rc = -1;
out:
    if (t != NULL)
        hive_destroy(t);
    free(first);
    free(second);
    free(have);
    free(h_ops);
    free(h_res);
    free(h_keys);
    free(h_vals);
    bench_free(c, d_keys);
    bench_free(c, d_vals);
    bench_free(c, d_ops);
    bench_free(c, d_res);
    if (bench_end(c) != 0)
        rc = -1;
    return rc;
}
