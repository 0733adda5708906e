/* wl_cache_hitrate.c — the `cache-hitrate` workload: WarpSpeed's caching
 * benchmark (warpspeed-hkv-specs.md §2.6) on the cache table.  A backing
 * store of R records (2^24 on the GPU, --n) holds one 64-bit value each, in
 * pinned host memory that the GPU reads zero-copy (plain host memory for CPU
 * runs); a cache of 1% .. 70% of R slots (dim 1, HIVE_VALUE_I64: WarpSpeed's
 * 8-byte values) sits in front of it.  A stream of accesses (records drawn
 * uniformly, or Zipfian with constant 0.99, rank 0 hottest; the record is the
 * key) goes through in batches (--batch), each:
 *
 *   hive_cache_find_missed     values of the hits, the misses compactly
 *   fetch                      each miss's value from the store, into its
 *                              place in the batch (a kernel, on the GPU)
 *   hive_cache_insert_or_assign
 *       lru         the whole batch: hits write back, refreshing their clock
 *       lfu         the whole batch with score 1: hits count up
 *       lru-misses  the misses only (WarpSpeed's flow: find, fetch, insert);
 *                   finds refresh nothing, so eviction goes by insertion
 *                   order, as WarpSpeed's FIFO ring
 *
 * The three calls are timed together per batch (events around them: the
 * find's miss count comes back to the host in between, as any caller's).
 * The first R accesses warm the cache (untimed, uncounted); the next 2 R
 * are counted.  Rows: G accesses/s over the counted batches (slowest and
 * fastest batch beside it), and the hit rate (value).  Per size a `bound`
 * row gives the hit rate of an oracle holding the hottest records: uniform
 * size/R, Zipf zeta(size)/zeta(R).  Verified: every access of every batch
 * comes back with its record's value, and the cache never holds more than
 * its capacity.  The streams are the same for every policy and size. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cache.h"
#include "workloads.h"

static const struct {
    const char *name;
    hive_score_policy policy;
    int all; /* 1: the whole batch is written back; 0: the misses only */
} variants[] = {
    {"lru", HIVE_SCORE_LRU, 1},
    {"lfu", HIVE_SCORE_LFU, 1},
    {"lru-misses", HIVE_SCORE_LRU, 0},
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

typedef struct hr_bufs {
    uint64_t *keys, *values, *missed_keys, *missed_idx, *fetched, *ones; /* (batch) each */
} hr_bufs;

typedef struct hr_plan {
    uint64_t records, batch, warm, total;
    const uint64_t *backing;
} hr_plan;

static int one(bench_ctx *c, const hr_plan *p, int zipf, const bench_gen *z, int v, double frac,
               hr_bufs *b)
{
    hive_cache *t = NULL;
    hive_cache_config cfg = HIVE_CACHE_CONFIG_INIT;
    uint64_t slots = (uint64_t)llround(frac * (double)p->records);
    cfg.backend = c->backend;
    cfg.capacity = slots < 64 ? 64 : slots;
    cfg.dim = 1;
    cfg.value_type = HIVE_VALUE_I64;
    cfg.policy = variants[v].policy;
    cfg.bucket_slots = c->cache_slots;
    cfg.threads = c->threads;
    hive_status s = hive_cache_create(&cfg, &t);
    if (s != HIVE_SUCCESS) {
        fprintf(stderr, "hive_cache_create(%llu slots): %s: %s\n",
                (unsigned long long)cfg.capacity, hive_status_string(s), hive_last_error());
        return -1;
    }
    const uint64_t *scores = variants[v].policy == HIVE_SCORE_LFU ? b->ones : NULL;
    uint64_t seed = bench_seed(c, (uint64_t)zipf, 0); /* one stream per distribution */
    double secs = 0, slow = INFINITY, fast = 0;
    uint64_t counted = 0, misses = 0, batches = 0, cap = 0, size = 0;
    int ok = 1;
    for (uint64_t first = 0; first < p->total; first += p->batch) {
        uint64_t n = p->total - first < p->batch ? p->total - first : p->batch, m = 0;
        if (bench_access_fill(c, z, zipf, p->records, seed, first, n, b->keys) != 0)
            goto fail;
        bench_timer_start(c);
        int st = bench_status(c, hive_cache_find_missed(t, n, b->keys, b->values, NULL,
                                                        b->missed_keys, b->missed_idx, &m,
                                                        c->stream),
                              "hive_cache_find_missed");
        if (st == 0 && bench_backing_fetch(c, p->backing, m, b->missed_keys, b->missed_idx,
                                           b->values, b->fetched) != 0)
            st = -1;
        if (st == 0)
            st = bench_status(c,
                              variants[v].all
                                  ? hive_cache_insert_or_assign(t, n, b->keys, b->values, scores,
                                                                NULL, c->stream)
                                  : hive_cache_insert_or_assign(t, m, b->missed_keys, b->fetched,
                                                                scores, NULL, c->stream),
                              "hive_cache_insert_or_assign");
        double dt = bench_timer_stop(c);
        if (st < 0 || dt < 0)
            goto fail;
        if (st > 0)
            ok = 0;
        BENCH_STEP(bench_access_check(c, n, b->keys, b->values, "the batch's values"), ok, fail);
        if (first < p->warm)
            continue;
        secs += dt;
        counted += n;
        misses += m;
        batches++;
        double r = (double)n / dt;
        slow = r < slow ? r : slow;
        fast = r > fast ? r : fast;
    }
    if (bench_status(c, hive_cache_capacity(t, &cap), "hive_cache_capacity") != 0 ||
        bench_status(c, hive_cache_size(t, &size), "hive_cache_size") != 0)
        goto fail;
    if (size > cap) {
        bench_fail(c, "%s: size %llu above the capacity %llu", variants[v].name,
                   (unsigned long long)size, (unsigned long long)cap);
        ok = 0;
    }
    char op[40];
    snprintf(op, sizeof op, "%s %s", variants[v].name, zipf ? "zipf" : "uniform");
    bench_row *row = bench_row_rate(c, op, p->batch, (double)size / (double)cap, frac,
                                    (double)counted / secs, cap * (8u + 8u + 1u + 8u),
                                    (int)batches, ok);
    row->gops_min = slow / 1e9;
    row->gops_max = fast / 1e9;
    row->value = counted ? 1.0 - (double)misses / (double)counted : NAN;
    snprintf(row->unit, sizeof row->unit, "hit rate");
    hive_cache_destroy(t);
    return 0;
fail:
    hive_cache_destroy(t);
    return -1;
}

int wl_cache_hitrate(bench_ctx *c)
{
    uint32_t bits = c->bits;
    size_t kbytes = c->kbytes;
    char geometry[sizeof c->geometry];
    memcpy(geometry, c->geometry, sizeof geometry);
    c->bits = 64;
    c->kbytes = 8;
    snprintf(c->geometry, sizeof c->geometry, "%u slots", bench_cache_bucket_slots(c));
    bench_begin(c, "cache-hitrate");
    hr_plan p;
    p.records = c->n ? c->n : c->def->hitrate_records;
    p.batch = c->batch ? c->batch : c->def->cache_batch;
    if (p.batch > p.records)
        p.batch = p.records;
    /* whole batches: warm-up and counted accesses */
    uint64_t warm = (uint64_t)llround(BENCH_HITRATE_WARM * (double)p.records);
    uint64_t ops = (uint64_t)llround(BENCH_HITRATE_OPS * (double)p.records);
    p.warm = (warm + p.batch - 1) / p.batch * p.batch;
    p.total = p.warm + (ops + p.batch - 1) / p.batch * p.batch;
    int rc = 0;
    hr_bufs b = {0};
    uint64_t *backing = bench_backing_create(c, p.records);
    size_t bytes = (size_t)p.batch * sizeof(uint64_t);
    b.keys = bench_alloc(c, bytes);
    b.values = bench_alloc(c, bytes);
    b.missed_keys = bench_alloc(c, bytes);
    b.missed_idx = bench_alloc(c, bytes);
    b.fetched = bench_alloc(c, bytes);
    b.ones = bench_alloc(c, bytes);
    if (backing == NULL || !b.keys || !b.values || !b.missed_keys || !b.missed_idx || !b.fetched ||
        !b.ones) {
        rc = -1;
        goto out;
    }
    p.backing = backing;
    { /* LFU's scores: 1 a key */
        uint64_t *h = malloc(bytes);
        if (h == NULL) {
            rc = -1;
            goto out;
        }
        for (uint64_t i = 0; i < p.batch; i++)
            h[i] = 1;
        rc = bench_to_table_memory(c, b.ones, h, bytes);
        free(h);
    }
    static const double sizes[BENCH_HITRATE_NSIZES] = BENCH_HITRATE_SIZES;
    double zn = bench_zeta(p.records, BENCH_HITRATE_ZIPF);
    for (int zipf = 0; zipf <= 1 && rc == 0; zipf++) {
        bench_keys k = bench_keys_for(c, c->seed); /* unused by the access stream */
        bench_gen z = bench_gen_zipf(k, p.batch, p.records, BENCH_HITRATE_ZIPF, 1.0,
                                     bench_seed(c, 7 + (uint64_t)zipf, 0));
        for (int i = 0; i < BENCH_HITRATE_NSIZES; i++) {
            uint64_t slots = (uint64_t)llround(sizes[i] * (double)p.records);
            double bound = zipf ? bench_zeta(slots, BENCH_HITRATE_ZIPF) / zn
                                : (double)slots / (double)p.records;
            char op[40];
            snprintf(op, sizeof op, "bound %s", zipf ? "zipf" : "uniform");
            bench_row_value(c, op, p.batch, -1, sizes[i], bound, "hit rate", 0, 0, -1);
        }
        for (size_t v = 0; v < NVARIANTS && rc == 0; v++) {
            bench_progress(c, "cache-hitrate: %s, %s, %llu records, batch %llu", variants[v].name,
                           zipf ? "zipf 0.99" : "uniform", (unsigned long long)p.records,
                           (unsigned long long)p.batch);
            for (int i = 0; i < BENCH_HITRATE_NSIZES && rc == 0; i++)
                rc = one(c, &p, zipf, &z, (int)v, sizes[i], &b);
        }
    }
out:
    bench_backing_destroy(c, backing);
    bench_free(c, b.keys);
    bench_free(c, b.values);
    bench_free(c, b.missed_keys);
    bench_free(c, b.missed_idx);
    bench_free(c, b.fetched);
    bench_free(c, b.ones);
    if (bench_end(c) != 0)
        rc = -1;
    c->bits = bits;
    c->kbytes = kbytes;
    memcpy(c->geometry, geometry, sizeof geometry);
    return rc;
}
