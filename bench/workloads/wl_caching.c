/* wl_caching.c — the `caching` workload: a dictionary table as a cache in
 * front of a backing store (WarpSpeed's cache test, spec §2.6, through the
 * public bulk API), so that every design can be compared on it; the cache
 * table's own workload is cache-hitrate.
 *
 * A store of R = BENCH_CACHING_STORE x C records (one value each, host
 * memory) and a table of C slots (--n), pinned.  For each cache size L = lf
 * x C (lf = BENCH_CACHING_LFS) and each stream (records uniform, or Zipfian
 * 0.99 with rank 0 hottest), per batch of --batch accesses:
 *   1. hive_find of the batch's keys (hits: the value);
 *   2. the misses' records are read from the store (deduplicated);
 *   3. hive_erase of the oldest cached keys (a FIFO ring), as many as keep the
 *      size at most L after the inserts (WarpSpeed's evict-by-erase);
 *   4. hive_insert (KEEP) of the misses with their store values.
 * Steps 1, 3 and 4 are timed; the host work between them (copying the
 * batch's found flags back, the store reads, the ring) is not: the figure is
 * the table's share of a cache access.  The first WARM x C accesses fill
 * the cache untimed, the next OPS x C are counted.
 * Verified in every batch: each hit carries its record's value, every
 * evicted key was erased, every miss was inserted as new; at the end the
 * table holds exactly the ring's keys with their values (export), and its
 * size never passed L.  Rows: op = stream, x = lf, gops = G accesses/s,
 * value = hit rate. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

typedef struct caching_bufs {
    void *keys, *vals;      /* table memory, batch elements */
    uint8_t *found, *res;   /* table memory */
    void *hkeys, *hvals;    /* host copies */
    uint8_t *hfound, *hres;
    uint64_t *rec, *miss;   /* host: the batch's records, its distinct missed records */
    uint64_t *ring;         /* host: cached keys, oldest first from ring_head */
    uint64_t *store;        /* host: the backing store's values */
} caching_bufs;

/* The accesses [at, at + b) of a stream, and the store's records: host
 * loops over all cores (bench_par_for), outside the timed calls. */
typedef struct gen_arg {
    caching_bufs *B;
    const bench_keys *k;
    const bench_gen *z; /* NULL: uniform */
    uint64_t records, seed, at;
    uint32_t bits;
} gen_arg;

static void gen_batch(void *p, uint64_t lo, uint64_t hi, uint64_t *acc)
{
    gen_arg *a = p;
    (void)acc;
    for (uint64_t i = lo; i < hi; i++) {
        double u = bench_uniform(a->seed ^ 0x5A17, a->at + i);
        uint64_t r = a->z != NULL ? bench_zipf(a->z, u) : (uint64_t)(u * (double)a->records);
        a->B->rec[i] = r < a->records ? r : a->records - 1;
        bench_word_put(a->B->hkeys, a->bits, i, bench_key(a->k, a->B->rec[i]));
    }
}

static void gen_store(void *p, uint64_t lo, uint64_t hi, uint64_t *acc)
{
    gen_arg *a = p;
    (void)acc;
    for (uint64_t r = lo; r < hi; r++)
        a->B->store[r] = bench_value(a->bits, bench_key(a->k, r), 0);
}

/* One cache size and stream: *secs the timed seconds of the counted
 * batches, *hits their hits.  0, 1 (a check failed) or -1. */
static int run(bench_ctx *c, caching_bufs *B, uint64_t slots, uint64_t records, uint64_t limit,
               uint64_t batch, int zipf, uint64_t seed, double *secs, uint64_t *hits,
               uint64_t *counted, uint64_t *size_out, uint64_t *bytes)
{
    uint32_t bits = c->bits;
    int ok = 1;
    hive_table *t = NULL;
    hive_stats st;
    bench_keys k = bench_keys_for(c, seed);
    bench_gen z = bench_gen_zipf(k, 1, records, BENCH_CACHING_ZIPF, 1.0, seed);
    gen_arg ga = {B, &k, zipf ? &z : NULL, records, seed, 0, bits};
    uint64_t acc[4];
    bench_par_for(records, gen_store, &ga, acc);
    if (bench_create_pinned(c, slots, &t) != 0)
        return -1;
    uint64_t warm = BENCH_CACHING_WARM * slots, total = warm + BENCH_CACHING_OPS * slots;
    uint64_t head = 0, size = 0; /* the ring: size keys from head (mod limit) */
    *secs = 0;
    *hits = *counted = 0;
    for (uint64_t at = 0; at < total; at += batch) {
        uint64_t b = total - at < batch ? total - at : batch;
        int timed = at >= warm;
        double s1 = 0, s2 = 0, s3 = 0;
        ga.at = at;
        bench_par_for(b, gen_batch, &ga, acc);
        BENCH_STEP(bench_to_table_memory(c, B->keys, B->hkeys, b * c->kbytes), ok, fail);
        BENCH_STEP(BENCH_TIMED(c, &s1, "hive_find",
                               hive_find(t, b, B->keys, B->vals, B->found, c->stream)),
                   ok, fail);
        BENCH_STEP(bench_to_host(c, B->hfound, B->found, b), ok, fail);
        BENCH_STEP(bench_to_host(c, B->hvals, B->vals, b * c->kbytes), ok, fail);
        uint64_t m = 0, h = 0, wrong = 0;
        for (uint64_t i = 0; i < b; i++) {
            if (B->hfound[i]) {
                h++;
                wrong += bench_word_get(B->hvals, bits, i) != (B->store[B->rec[i]] & (bits == 32 ? 0xFFFFFFFFull : ~0ull));
            } else {
                B->miss[m++] = B->rec[i];
            }
        }
        if (wrong) {
            bench_fail(c, "caching: %llu hits with a wrong value", (unsigned long long)wrong);
            ok = 0;
        }
        qsort(B->miss, m, sizeof *B->miss, cmp_u64);
        uint64_t u = 0;
        for (uint64_t i = 0; i < m; i++)
            if (u == 0 || B->miss[i] != B->miss[u - 1])
                B->miss[u++] = B->miss[i];
        m = u > limit ? limit : u;
        /* evict the oldest keys to leave room for the m new ones */
        uint64_t e = size + m > limit ? size + m - limit : 0;
        if (e > 0) {
            for (uint64_t i = 0; i < e; i++)
                bench_word_put(B->hkeys, bits, i, B->ring[(head + i) % limit]);
            BENCH_STEP(bench_to_table_memory(c, B->keys, B->hkeys, e * c->kbytes), ok, fail);
            BENCH_STEP(BENCH_TIMED(c, &s2, "hive_erase", hive_erase(t, e, B->keys, B->res, c->stream)),
                       ok, fail);
            BENCH_STEP(bench_to_host(c, B->hres, B->res, e), ok, fail);
            uint64_t bad = 0;
            for (uint64_t i = 0; i < e; i++)
                bad += B->hres[i] != HIVE_RESULT_ERASED;
            if (bad) {
                bench_fail(c, "caching: %llu evicted keys were not erased", (unsigned long long)bad);
                ok = 0;
            }
            head = (head + e) % limit;
            size -= e;
        }
        if (m > 0) {
            for (uint64_t i = 0; i < m; i++) {
                uint64_t key = bench_key(&k, B->miss[i]);
                bench_word_put(B->hkeys, bits, i, key);
                bench_word_put(B->hvals, bits, i, B->store[B->miss[i]]);
                B->ring[(head + size + i) % limit] = key;
            }
            BENCH_STEP(bench_to_table_memory(c, B->keys, B->hkeys, m * c->kbytes), ok, fail);
            BENCH_STEP(bench_to_table_memory(c, B->vals, B->hvals, m * c->kbytes), ok, fail);
            BENCH_STEP(BENCH_TIMED(c, &s3, "hive_insert",
                                   hive_insert(t, m, B->keys, B->vals, HIVE_COMBINE_KEEP, B->res,
                                               c->stream)),
                       ok, fail);
            BENCH_STEP(bench_to_host(c, B->hres, B->res, m), ok, fail);
            uint64_t bad = 0;
            for (uint64_t i = 0; i < m; i++)
                bad += B->hres[i] != HIVE_RESULT_INSERTED;
            if (bad) {
                bench_fail(c, "caching: %llu missed keys were not inserted as new",
                           (unsigned long long)bad);
                ok = 0;
            }
            size += m;
        }
        if (timed) {
            *secs += s1 + s2 + s3;
            *hits += h;
            *counted += b;
        }
    }
    /* the table holds exactly the ring's keys, with their values */
    uint64_t n = 0, count = 0;
    BENCH_STEP(bench_status(c, hive_size(t, &n), "hive_size"), ok, fail);
    if (n != size || n > limit) {
        bench_fail(c, "caching: hive_size is %llu, the ring holds %llu (limit %llu)",
                   (unsigned long long)n, (unsigned long long)size, (unsigned long long)limit);
        ok = 0;
    } else if (size > 0) {
        void *xk = bench_alloc(c, size * c->kbytes), *xv = bench_alloc(c, size * c->kbytes);
        uint64_t *hk = malloc(size * sizeof *hk), *want = malloc(size * sizeof *want);
        void *hx = malloc(size * c->kbytes), *hy = malloc(size * c->kbytes);
        int fine = xk && xv && hk && want && hx && hy &&
                   bench_status(c, hive_export(t, size, xk, xv, &count, c->stream), "hive_export") == 0 &&
                   bench_to_host(c, hx, xk, size * c->kbytes) == 0 &&
                   bench_to_host(c, hy, xv, size * c->kbytes) == 0;
        uint64_t bad = 0;
        if (fine) {
            for (uint64_t i = 0; i < size; i++) {
                hk[i] = bench_word_get(hx, bits, i);
                bad += bench_word_get(hy, bits, i) != (bench_value(bits, hk[i], 0) & (bits == 32 ? 0xFFFFFFFFull : ~0ull));
                want[i] = B->ring[(head + i) % limit];
            }
            qsort(hk, size, sizeof *hk, cmp_u64);
            qsort(want, size, sizeof *want, cmp_u64);
            bad += count != size || memcmp(hk, want, size * sizeof *hk) != 0;
        }
        bench_free(c, xk);
        bench_free(c, xv);
        free(hk);
        free(want);
        free(hx);
        free(hy);
        if (!fine) {
            hive_destroy(t);
            return -1;
        }
        if (bad) {
            bench_fail(c, "caching: the table's export is not the ring's keys and values");
            ok = 0;
        }
    }
    if (bench_stats(c, t, &st) != 0)
        goto fail;
    *size_out = size;
    *bytes = st.bytes_held;
    hive_destroy(t);
    return ok ? 0 : 1;
fail:
    hive_destroy(t);
    return -1;
}

int wl_caching(bench_ctx *c)
{
    static const double lfs[BENCH_CACHING_NLF] = BENCH_CACHING_LFS;
    static const char *const streams[2] = {"uniform", "zipf"};
    bench_begin(c, "caching");
    uint64_t slots = c->n ? c->n : c->def->caching_slots;
    uint64_t batch = c->batch ? c->batch : c->def->caching_batch;
    uint64_t records = BENCH_CACHING_STORE * slots;
    if (batch > slots / 4)
        batch = slots / 4 ? slots / 4 : 1; /* a batch's misses must fit the smallest cache */
    int rc = 0;
    caching_bufs B;
    memset(&B, 0, sizeof B);
    B.keys = bench_alloc(c, batch * c->kbytes);
    B.vals = bench_alloc(c, batch * c->kbytes);
    B.found = bench_alloc(c, batch);
    B.res = bench_alloc(c, batch);
    B.hkeys = malloc(batch * c->kbytes);
    B.hvals = malloc(batch * c->kbytes);
    B.hfound = malloc(batch);
    B.hres = malloc(batch);
    B.rec = malloc(batch * sizeof *B.rec);
    B.miss = malloc(batch * sizeof *B.miss);
    B.ring = malloc(slots * sizeof *B.ring);
    B.store = malloc(records * sizeof *B.store);
    if (!B.keys || !B.vals || !B.found || !B.res || !B.hkeys || !B.hvals || !B.hfound || !B.hres ||
        !B.rec || !B.miss || !B.ring || !B.store) {
        fprintf(stderr, "caching: no memory for %llu slots\n", (unsigned long long)slots);
        rc = -1;
        goto out;
    }
    for (int p = 0; p < BENCH_CACHING_NLF && rc == 0; p++) {
        uint64_t limit = (uint64_t)floor(lfs[p] * (double)slots);
        for (int zs = 0; zs < 2 && rc == 0; zs++) {
            bench_progress(c, "caching: %s, cache %.2f of %llu slots, %s", c->design_name, lfs[p],
                           (unsigned long long)slots, streams[zs]);
            double secs = 0;
            uint64_t hits = 0, counted = 0, size = 0, bytes = 0;
            int st = run(c, &B, slots, records, limit, batch, zs, bench_seed(c, (uint64_t)(2 * p + zs), 0),
                         &secs, &hits, &counted, &size, &bytes);
            if (st < 0) {
                rc = -1;
                break;
            }
            bench_row *r = bench_row_rate(c, streams[zs], batch, (double)size / (double)slots,
                                          lfs[p], secs > 0 ? (double)counted / secs : NAN, bytes,
                                          1, st == 0);
            r->value = counted ? (double)hits / (double)counted : NAN;
            snprintf(r->unit, sizeof r->unit, "hit rate");
        }
    }
out:
    bench_free(c, B.keys);
    bench_free(c, B.vals);
    bench_free(c, B.found);
    bench_free(c, B.res);
    free(B.hkeys);
    free(B.hvals);
    free(B.hfound);
    free(B.hres);
    free(B.rec);
    free(B.miss);
    free(B.ring);
    free(B.store);
    if (bench_end(c) != 0)
        rc = -1;
    return rc;
}
