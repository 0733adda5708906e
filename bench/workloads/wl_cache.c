/* wl_cache.c — the `cache` workload: the cache table (hive.h, "the cache
 * table") in HierarchicalKV's benchmark shape.  64-bit keys, float values of
 * dim = 1, 8, 32, 64 (--dim), a cache of 2^26 slots (--n) on the GPU, LRU,
 * the library's default buckets (--cache-slots), batches of 2^20 keys
 * (--batch, at most S/256 of the slots with S slots a bucket: a 16th at 16).
 *
 * Per (dim, load λ = 0.5, 0.75, 1.0) and run: a fresh cache is filled from
 * empty to λ·capacity keys with insert_or_assign in batches (timed together:
 * the fill rate); at 1.0 it is topped up with more new keys until
 * size/capacity >= 0.999, as HKV's benchmark does.  Then, at λ, one timed
 * call each:
 *
 *   find                    the last batch inserted (all present), values out
 *   contains                the same keys
 *   find-absent             keys never inserted
 *   insert_or_assign        a batch of new keys (at 1.0: every key evicts)
 *   insert_or_assign-hit60  HKV's mix: 60% keys of the last batch, 40% new
 *   insert_and_evict        a batch of new keys, evicted entries out
 *
 * With BENCH_CACHE_DUAL the λ 1.0 point runs again with dual_bucket = 1
 * (ops suffixed "+dual").  Verified every run: finds found every key with
 * its value (element j of key k's value is base(k) + j, exact in float),
 * misses found nothing and wrote nothing, contains agrees; after each write
 * the whole batch is present with its new values, the size never passes the
 * capacity, and it stays there once reached; insert_and_evict hands back
 * exactly size_before + batch - size_after entries, each a key stored before
 * the call with a value it was stored with (LRU refuses nothing).
 *
 * Rows: G keys/s per op (median of the runs), x = dim, load = size/capacity
 * after the fill; for dim >= 8 also the GB/s of value bytes the op must read
 * and write, with the device-to-device copy rate of `limits` as its limit on
 * the GPU (dim 1, and the ops that move no values, keep the sector-gather
 * limit).
 *
 * --cache-hbm-fraction F keeps the values of the first F of the slots in
 * device memory and the rest in mapped host memory (hive.h's
 * value_hbm_bytes).  Then the GB/s of every op that moves values (every dim)
 * are the value bytes that cross PCIe: the table's side of its copies (what
 * it reads or writes in the table) times the share of slots in host memory,
 * which the uniform keys meet in proportion.  Their limit on the GPU is
 * `limits`' pinned copy rate in the direction they move: copy-h2d for find
 * (values come from the host), copy-d2h for the fill and the inserts, the
 * sum for insert_and_evict (evicted values come out as new ones go in);
 * limits' mapped-* rows show what a kernel alone gets.  The CPU
 * backend takes the option (its second array is host memory like the
 * first) and reports as without it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/cache.h"
#include "workloads.h"

enum { OP_FILL, OP_FIND, OP_CONTAINS, OP_ABSENT, OP_INSERT, OP_HIT, OP_EVICT, NOPS };

static const char *const op_names[NOPS] = {
    "fill",  "find", "contains", "find-absent", "insert_or_assign", "insert_or_assign-hit60",
    "insert_and_evict",
};

typedef struct cache_bufs {
    uint64_t *keys;     /* (batch) */
    uint32_t *in, *out; /* (batch * dim) floats, as words */
    uint8_t *found;     /* (batch) */
    uint64_t *ev_keys;  /* (batch) */
    uint32_t *ev_vals;  /* (batch * dim) */
} cache_bufs;

typedef struct cache_point {
    uint64_t slots, batch;
    uint32_t dim;
    double lf;
    int dual;
    uint64_t pid;
} cache_point;

/* One run's figures per op: seconds, keys, value bytes read and written. */
typedef struct cache_run {
    double secs[NOPS], keys[NOPS], bytes[NOPS];
    double load;
    uint64_t held;
    double host_share; /* of the value bytes, in host memory (--cache-hbm-fraction) */
} cache_run;

static int cache_size(bench_ctx *c, hive_cache *t, uint64_t *size)
{
    return bench_status(c, hive_cache_size(t, size), "hive_cache_size") < 0 ? -1 : 0;
}

/* Poisons the find outputs: all-ones value words, found flags 2. */
static int poison(bench_ctx *c, cache_bufs *b, uint64_t n, uint32_t dim)
{
    if (bench_memset(c, b->out, 0xFF, (size_t)n * dim * sizeof *b->out) != 0)
        return -1;
    return bench_memset(c, b->found, 2, (size_t)n);
}

/* Untimed: every key of g (FIND, FOUND) is present with its value. */
static int64_t check_present(bench_ctx *c, hive_cache *t, const bench_gen *g, uint32_t dim,
                             cache_bufs *b, const char *what)
{
    if (bench_cache_fill(c, g, dim, b->keys, NULL) != 0 || poison(c, b, g->n, dim) != 0)
        return -1;
    int st = bench_status(c, hive_cache_find(t, g->n, b->keys, b->out, b->found, NULL, c->stream),
                          "hive_cache_find (check)");
    if (st != 0)
        return st;
    return bench_cache_check(c, g, dim, b->found, b->out, what);
}

/* The size after a write of n keys of which at most `fresh` are new: it
 * never passes the capacity, grows by at most `fresh`, and a full cache
 * stays full.  Returns the problems found. */
static int64_t check_size(bench_ctx *c, uint64_t before, uint64_t after, uint64_t fresh,
                          uint64_t cap, const char *what)
{
    if (after <= cap && after >= before && after - before <= fresh && (before < cap || after == cap))
        return 0;
    bench_fail(c, "%s: size %llu -> %llu (capacity %llu, %llu new keys)", what,
               (unsigned long long)before, (unsigned long long)after, (unsigned long long)cap,
               (unsigned long long)fresh);
    return 1;
}

static int run_once(bench_ctx *c, const cache_point *p, int r, cache_bufs *b, cache_run *f,
                    int *ok)
{
    hive_cache *t = NULL;
    hive_cache_config cfg = HIVE_CACHE_CONFIG_INIT;
    cfg.backend = c->backend;
    cfg.capacity = p->slots;
    cfg.dim = p->dim;
    cfg.value_type = HIVE_VALUE_F32;
    cfg.policy = HIVE_SCORE_LRU;
    cfg.bucket_slots = c->cache_slots;
    cfg.dual_bucket = (uint32_t)p->dual;
    cfg.threads = c->threads;
    if (c->cache_hbm_fraction < 1.0)
        cfg.value_hbm_bytes = (uint64_t)(c->cache_hbm_fraction * (double)p->slots) * p->dim * sizeof(float);
    hive_status s = hive_cache_create(&cfg, &t);
    if (s != HIVE_SUCCESS) {
        fprintf(stderr, "hive_cache_create(%llu slots, dim %u): %s: %s\n",
                (unsigned long long)p->slots, p->dim, hive_status_string(s), hive_last_error());
        return -1;
    }
    const uint32_t dim = p->dim;
    const uint64_t B = p->batch;
    uint64_t cap = 0, size = 0, before = 0, next = 0;
    if (bench_status(c, hive_cache_capacity(t, &cap), "hive_cache_capacity") != 0)
        goto fail;
    bench_keys k = bench_keys_for(c, bench_seed(c, p->pid, r));
    memset(f, 0, sizeof *f);
    const double vbytes = 4.0 * dim; /* one value */

    /* the fill: λ·capacity keys, then at 1.0 new keys until 0.999 full */
    uint64_t target = p->lf >= 1.0 ? cap : (uint64_t)llround(p->lf * (double)cap);
    for (;;) {
        uint64_t m = 0;
        if (next < target) {
            m = target - next < B ? target - next : B;
        } else if (p->lf >= 1.0 && next < BENCH_CACHE_TOPUP * cap) {
            if (cache_size(c, t, &size) != 0)
                goto fail;
            if ((double)size >= BENCH_CACHE_FULL * (double)cap)
                break;
            m = B;
        } else {
            break;
        }
        bench_gen g = bench_gen_one(k, m, next, HIVE_OP_UPSERT, HIVE_RESULT_NONE, 0);
        double secs = 0;
        if (bench_cache_fill(c, &g, dim, b->keys, b->in) != 0)
            goto fail;
        BENCH_STEP(BENCH_TIMED(c, &secs, "hive_cache_insert_or_assign (fill)",
                               hive_cache_insert_or_assign(t, m, b->keys, b->in, NULL, NULL,
                                                           c->stream)),
                   *ok, fail);
        f->secs[OP_FILL] += secs;
        next += m;
    }
    f->keys[OP_FILL] = (double)next;
    f->bytes[OP_FILL] = 2.0 * vbytes * (double)next;
    if (cache_size(c, t, &size) != 0)
        goto fail;
    BENCH_STEP(check_size(c, 0, size, next, cap, "fill"), *ok, fail);
    f->load = (double)size / (double)cap;
    if (p->lf >= 1.0 && (double)size < BENCH_CACHE_FULL * (double)cap && r < 0)
        printf("cache: dim %u%s: %llu keys filled the cache only to %.4f\n", dim,
               p->dual ? " dual" : "", (unsigned long long)next, f->load);

    /* find, contains, find-absent: the last batch filled */
    bench_gen gf = bench_gen_one(k, B, next - B, HIVE_OP_FIND, HIVE_RESULT_FOUND, 0);
    bench_gen gn = bench_gen_one(k, B, bench_neg_base(64), HIVE_OP_FIND, HIVE_RESULT_NOT_FOUND, 0);
    if (bench_cache_fill(c, &gf, dim, b->keys, NULL) != 0 || poison(c, b, B, dim) != 0)
        goto fail;
    BENCH_STEP(BENCH_TIMED(c, &f->secs[OP_FIND], "hive_cache_find",
                           hive_cache_find(t, B, b->keys, b->out, b->found, NULL, c->stream)),
               *ok, fail);
    BENCH_STEP(bench_cache_check(c, &gf, dim, b->found, b->out, "find"), *ok, fail);
    if (poison(c, b, B, dim) != 0)
        goto fail;
    BENCH_STEP(BENCH_TIMED(c, &f->secs[OP_CONTAINS], "hive_cache_contains",
                           hive_cache_contains(t, B, b->keys, b->found, c->stream)),
               *ok, fail);
    BENCH_STEP(bench_cache_check(c, &gf, dim, b->found, NULL, "contains"), *ok, fail);
    if (bench_cache_fill(c, &gn, dim, b->keys, NULL) != 0 || poison(c, b, B, dim) != 0)
        goto fail;
    BENCH_STEP(BENCH_TIMED(c, &f->secs[OP_ABSENT], "hive_cache_find (absent)",
                           hive_cache_find(t, B, b->keys, b->out, b->found, NULL, c->stream)),
               *ok, fail);
    BENCH_STEP(bench_cache_check(c, &gn, dim, b->found, b->out, "find-absent"), *ok, fail);
    f->keys[OP_FIND] = f->keys[OP_CONTAINS] = f->keys[OP_ABSENT] = (double)B;
    f->bytes[OP_FIND] = 2.0 * vbytes * (double)B;

    /* insert_or_assign of B new keys */
    bench_gen gi = bench_gen_one(k, B, next, HIVE_OP_UPSERT, HIVE_RESULT_NONE, 0);
    bench_gen gic = bench_gen_one(k, B, next, HIVE_OP_FIND, HIVE_RESULT_FOUND, 0);
    if (bench_cache_fill(c, &gi, dim, b->keys, b->in) != 0 || cache_size(c, t, &before) != 0)
        goto fail;
    BENCH_STEP(BENCH_TIMED(c, &f->secs[OP_INSERT], "hive_cache_insert_or_assign",
                           hive_cache_insert_or_assign(t, B, b->keys, b->in, NULL, NULL,
                                                       c->stream)),
               *ok, fail);
    if (cache_size(c, t, &size) != 0)
        goto fail;
    BENCH_STEP(check_size(c, before, size, B, cap, "insert_or_assign"), *ok, fail);
    BENCH_STEP(check_present(c, t, &gic, dim, b, "insert_or_assign: the batch afterwards"), *ok,
               fail);
    f->keys[OP_INSERT] = (double)B;
    f->bytes[OP_INSERT] = 2.0 * vbytes * (double)B;
    next += B;

    /* the 60%-hit mix: hits from the batch just inserted (new values, tag 1), the rest new */
    uint64_t nh = (uint64_t)llround(BENCH_CACHE_HIT * (double)B), nn = B - nh;
    uint64_t mix_seed = bench_mix64(bench_seed(c, p->pid, r) ^ 0x48495436ull);
    bench_gen gm, gmc;
    memset(&gm, 0, sizeof gm);
    memset(&gmc, 0, sizeof gmc);
    gm.keys = gmc.keys = k;
    bench_gen_add(&gm, nh, next - B, HIVE_OP_UPSERT, HIVE_RESULT_NONE, 1, 1);
    bench_gen_add(&gm, nn, next, HIVE_OP_UPSERT, HIVE_RESULT_NONE, 0, 0);
    bench_gen_add(&gmc, nh, next - B, HIVE_OP_FIND, HIVE_RESULT_FOUND, 1, 1);
    bench_gen_add(&gmc, nn, next, HIVE_OP_FIND, HIVE_RESULT_FOUND, 0, 0);
    bench_gen_shuffle(&gm, mix_seed);
    bench_gen_shuffle(&gmc, mix_seed);
    if (bench_cache_fill(c, &gm, dim, b->keys, b->in) != 0 || cache_size(c, t, &before) != 0)
        goto fail;
    BENCH_STEP(BENCH_TIMED(c, &f->secs[OP_HIT], "hive_cache_insert_or_assign (hit 60%)",
                           hive_cache_insert_or_assign(t, B, b->keys, b->in, NULL, NULL,
                                                       c->stream)),
               *ok, fail);
    if (cache_size(c, t, &size) != 0)
        goto fail;
    BENCH_STEP(check_size(c, before, size, nn, cap, "insert_or_assign-hit60"), *ok, fail);
    BENCH_STEP(check_present(c, t, &gmc, dim, b, "insert_or_assign-hit60: the batch afterwards"),
               *ok, fail);
    f->keys[OP_HIT] = (double)B;
    f->bytes[OP_HIT] = 2.0 * vbytes * (double)B;
    next += nn;

    /* insert_and_evict of B new keys */
    bench_gen ge = bench_gen_one(k, B, next, HIVE_OP_UPSERT, HIVE_RESULT_NONE, 0);
    bench_gen gec = bench_gen_one(k, B, next, HIVE_OP_FIND, HIVE_RESULT_FOUND, 0);
    uint64_t evicted = 0;
    if (bench_cache_fill(c, &ge, dim, b->keys, b->in) != 0 || cache_size(c, t, &before) != 0)
        goto fail;
    BENCH_STEP(BENCH_TIMED(c, &f->secs[OP_EVICT], "hive_cache_insert_and_evict",
                           hive_cache_insert_and_evict(t, B, b->keys, b->in, NULL, b->ev_keys,
                                                       b->ev_vals, NULL, &evicted, c->stream)),
               *ok, fail);
    if (cache_size(c, t, &size) != 0)
        goto fail;
    BENCH_STEP(check_size(c, before, size, B, cap, "insert_and_evict"), *ok, fail);
    if (evicted > B || evicted + size != before + B) {
        bench_fail(c, "insert_and_evict: %llu evicted, size %llu -> %llu, batch %llu (expected "
                      "evicted + size after = size before + batch)",
                   (unsigned long long)evicted, (unsigned long long)before,
                   (unsigned long long)size, (unsigned long long)B);
        *ok = 0;
    } else {
        bench_evicted x = {k, next, next, next + B};
        BENCH_STEP(bench_cache_check_evicted(c, &x, dim, evicted, b->ev_keys, b->ev_vals,
                                             "insert_and_evict: the evicted entries"),
                   *ok, fail);
    }
    BENCH_STEP(check_present(c, t, &gec, dim, b, "insert_and_evict: the batch afterwards"), *ok,
               fail);
    f->keys[OP_EVICT] = (double)B;
    f->bytes[OP_EVICT] = 2.0 * vbytes * (double)(B + evicted);
    next += B;

    {
        /* the footprint from the layout (docs/cache.md): digest, key and score
         * per slot, and the values in device memory; the cache API has no
         * stats call */
        hive_cache_config got = HIVE_CACHE_CONFIG_INIT;
        if (hive_cache_get_config(t, &got) == HIVE_SUCCESS) {
            /* the CPU backend's values are all host memory: no PCIe */
            uint64_t all = got.capacity * (uint64_t)got.dim * 4u, device = c->gpu ? got.value_hbm_bytes : all;
            f->held = got.capacity * (8u + 8u + 1u) + device;
            f->host_share = all ? (double)(all - device) / (double)all : 0.0;
        }
    }
    hive_cache_destroy(t);
    return 0;
fail:
    hive_cache_destroy(t);
    return -1;
}

/* With values in host memory: the PCIe ceiling of an op's value traffic
 * (top of file) in bytes/s, and its name; 0 before `limits` has run. */
static double pcie_limit(const bench_ctx *c, int which, const char **name)
{
    const bench_limits *l = &c->limits;
    if (!c->gpu || !c->limits_done || l->host_bytes == 0)
        return 0;
    if (which == OP_FIND)
        return *name = "copy-h2d", l->h2d_bytes_per_s.median;
    if (which == OP_EVICT)
        return *name = "copy-h2d+d2h", l->h2d_bytes_per_s.median + l->d2h_bytes_per_s.median;
    return *name = "copy-d2h", l->d2h_bytes_per_s.median;
}

/* A row from per-run rates: G keys/s (median, slowest, fastest) and, for
 * dim >= 8 and an op that moves values, GB/s of value bytes; with values in
 * host memory, for every dim, GB/s of value bytes over PCIe. */
static void add_row(bench_ctx *c, const char *op, uint64_t n, double load, uint32_t dim,
                    const cache_run *runs, int nruns, int which, int ok)
{
    const int tiered = runs[0].host_share > 0;
    double rate[BENCH_MAX_RUNS], gbs[BENCH_MAX_RUNS];
    for (int r = 0; r < nruns; r++) {
        double t = runs[r].secs[which] > 0 ? runs[r].secs[which] : NAN;
        /* the table's side of the copies is half of bytes[] (read + written) */
        double moved = tiered ? runs[r].bytes[which] / 2 * runs[r].host_share : runs[r].bytes[which];
        rate[r] = runs[r].keys[which] / t;
        gbs[r] = moved / t / 1e9;
    }
    bench_spread sr = bench_spread_sort(rate, nruns);
    bench_row *row = bench_row_rate(c, op, n, load, (double)dim, sr.median, runs[0].held, nruns,
                                    ok);
    row->gops_min = sr.min / 1e9;
    row->gops_max = sr.max / 1e9;
    if ((dim < 8 && !tiered) || runs[0].bytes[which] <= 0)
        return;
    bench_spread sb = bench_spread_sort(gbs, nruns);
    row->value = sb.median;
    row->value_min = sb.min;
    row->value_max = sb.max;
    snprintf(row->unit, sizeof row->unit, tiered ? "GB/s pcie" : "GB/s");
    const char *name = NULL;
    double limit = tiered ? pcie_limit(c, which, &name) : 0;
    if (!tiered && c->gpu && c->limits_done && c->limits.copy_bytes_per_s.median > 0)
        name = "copy", limit = c->limits.copy_bytes_per_s.median;
    if (limit > 0) {
        snprintf(row->limit, sizeof row->limit, "%s", name);
        row->fraction = sb.median * 1e9 / limit;
    }
}

static int point(bench_ctx *c, const cache_point *p, cache_bufs *b)
{
    cache_run runs[BENCH_MAX_RUNS];
    int ok = 1;
    for (int r = -1; r < c->runs; r++) {
        cache_run scratch;
        if (run_once(c, p, r, b, r < 0 ? &scratch : &runs[r], &ok) != 0)
            return -1;
    }
    double load = 0, fill_keys = 0; /* means over the runs */
    for (int r = 0; r < c->runs; r++) {
        load += runs[r].load / c->runs;
        fill_keys += runs[r].keys[OP_FILL] / c->runs;
    }
    for (int op = 0; op < NOPS; op++) {
        char name[40];
        snprintf(name, sizeof name, "%s%s", op_names[op], p->dual ? "+dual" : "");
        add_row(c, name, op == OP_FILL ? (uint64_t)llround(fill_keys) : p->batch, load, p->dim, runs, c->runs, op, ok);
    }
    return 0;
}

/* Device (or host) bytes one point needs: the table from its layout (on a
 * GPU only the share `hbm` of its values) and the batch buffers. */
static uint64_t point_bytes(uint64_t slots, uint64_t batch, uint32_t dim, double hbm)
{
    uint64_t v = 4ull * dim;
    return slots * (8 + 8 + 1) + (uint64_t)((double)slots * hbm) * v + batch * (8 + 8 + 1 + 3 * v);
}

int wl_cache(bench_ctx *c)
{
    /* 64-bit keys whatever --kv says: the files and tables say KV64 */
    uint32_t bits = c->bits;
    size_t kbytes = c->kbytes;
    char geometry[sizeof c->geometry];
    memcpy(geometry, c->geometry, sizeof geometry);
    c->bits = 64;
    c->kbytes = 8;
    bench_begin(c, "cache");
    const bench_defaults *d = c->def;
    uint64_t slots = c->n ? c->n : d->cache_slots;
    uint64_t batch = c->batch ? c->batch : d->cache_batch;
    int ndims = c->ndims ? c->ndims : d->cache_ndims;
    const uint32_t *dims = c->ndims ? c->dims : d->cache_dims;
    uint32_t bucket_slots = bench_cache_bucket_slots(c);
    /* At most S/256 of the slots a batch (S slots a bucket: a 16th at 16,
     * against HKV's 64th, 2^20 keys into 2^26), about S^2/256 new keys a
     * bucket, so that a batch never evicts its own keys (more of its new
     * keys in one bucket than the bucket holds), which the checks below would
     * report: at a quarter of the slots per batch, 16-slot buckets did so
     * about once in 4 batches; at a 16th, a Poisson mean of 1 passes 16 about
     * once in 10^14 buckets.  Denser batches move host values faster
     * (--cache-hbm-fraction; docs/perf.md, "Calls over host values in bucket
     * order"). */
    uint64_t most = slots * bucket_slots / 256;
    if (batch > most)
        batch = most > 0 ? most : 1;
    if (c->cache_hbm_fraction < 1.0)
        snprintf(c->geometry, sizeof c->geometry, "%u slots LRU hbm %.3g", bucket_slots,
                 c->cache_hbm_fraction);
    else
        snprintf(c->geometry, sizeof c->geometry, "%u slots LRU", bucket_slots);

    /* the dims that fit: the points run one at a time, buffers for the widest */
    uint64_t avail = (uint64_t)((double)bench_free_memory(c) *
                                (c->gpu ? BENCH_GPU_MEM_USE : BENCH_CPU_MEM_USE));
    uint32_t run_dims[BENCH_CACHE_MAX_DIMS], dmax = 0;
    int nrun = 0;
    for (int i = 0; i < ndims; i++) {
        uint64_t need = point_bytes(slots, batch, dims[i], c->gpu ? c->cache_hbm_fraction : 1.0);
        if (avail != 0 && need > avail) {
            printf("cache: dim %u skipped: it needs about %.1f GiB, %.1f GiB may be used\n",
                   dims[i], (double)need / (1ull << 30), (double)avail / (1ull << 30));
            continue;
        }
        run_dims[nrun++] = dims[i];
        dmax = dims[i] > dmax ? dims[i] : dmax;
    }
    int rc = 0;
    cache_bufs b = {0};
    if (nrun > 0) {
        size_t vb = (size_t)batch * dmax * sizeof(uint32_t);
        b.keys = bench_alloc(c, (size_t)batch * sizeof *b.keys);
        b.ev_keys = bench_alloc(c, (size_t)batch * sizeof *b.ev_keys);
        b.found = bench_alloc(c, (size_t)batch);
        b.in = bench_alloc(c, vb);
        b.out = bench_alloc(c, vb);
        b.ev_vals = bench_alloc(c, vb);
        if (!b.keys || !b.ev_keys || !b.found || !b.in || !b.out || !b.ev_vals)
            rc = -1;
    }
    static const double lfs[BENCH_CACHE_NLF] = BENCH_CACHE_LFS;
    for (int i = 0; i < nrun && rc == 0; i++) {
        for (int l = 0; l <= BENCH_CACHE_NLF && rc == 0; l++) {
            int dual = l == BENCH_CACHE_NLF;
            if (dual && !BENCH_CACHE_DUAL)
                break;
            cache_point p = {slots, batch, run_dims[i], dual ? 1.0 : lfs[l], dual,
                             (uint64_t)run_dims[i] * 16 + (uint64_t)l};
            bench_progress(c, "cache: %llu slots, dim %u, load %.2f%s, batch %llu",
                           (unsigned long long)slots, p.dim, p.lf, dual ? ", dual bucket" : "",
                           (unsigned long long)batch);
            rc = point(c, &p, &b);
        }
    }
    bench_free(c, b.keys);
    bench_free(c, b.ev_keys);
    bench_free(c, b.found);
    bench_free(c, b.in);
    bench_free(c, b.out);
    bench_free(c, b.ev_vals);
    if (bench_end(c) != 0)
        rc = -1;
    c->bits = bits;
    c->kbytes = kbytes;
    memcpy(c->geometry, geometry, sizeof geometry);
    return rc;
}
