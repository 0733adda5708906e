/* cache.c — the cache workloads' shared machinery (see cache.h): CPU loops
 * over cache_gen.h's functions, or gpu_cache.cu's kernels for CUDA runs. */
#define _POSIX_C_SOURCE 200809L

#include "cache.h"

#include <stdio.h>
#include <stdlib.h>

#ifdef BENCH_WITH_CUDA
#include "gpu_cache.h"
#endif

/* ---------------------------------------------------------------- batches */

typedef struct cache_arg {
    const bench_gen *g;
    const bench_evicted *x;
    uint32_t dim;
    uint64_t *keys;
    uint32_t *values;
    const uint8_t *found;
    const uint64_t *ckeys;
    const uint32_t *cvalues;
} cache_arg;

static void fill_range(void *p, uint64_t lo, uint64_t hi, uint64_t *acc)
{
    cache_arg *a = p;
    (void)acc;
    for (uint64_t i = lo; i < hi; i++)
        bench_cache_fill_row(a->g, a->dim, i, a->keys, a->values);
}

int bench_cache_fill(bench_ctx *c, const bench_gen *g, uint32_t dim, uint64_t *keys,
                     uint32_t *values)
{
#ifdef BENCH_WITH_CUDA
    if (c->gpu)
        return bench_gpu_cache_fill(g, dim, keys, values, c->stream);
#endif
    (void)c;
    cache_arg a = {g, NULL, dim, keys, values, NULL, NULL, NULL};
    uint64_t acc[4];
    bench_par_for(g->n, fill_range, &a, acc);
    return 0;
}

static void tally(uint32_t bad, uint64_t *acc)
{
    for (int k = 0; k < 3; k++)
        acc[k] += (bad >> k) & 1u;
}

static void check_range(void *p, uint64_t lo, uint64_t hi, uint64_t *acc)
{
    cache_arg *a = p;
    for (uint64_t i = lo; i < hi; i++)
        bench_cache_check_row(a->g, a->dim, i, a->found, a->cvalues, acc);
}

static void evicted_range(void *p, uint64_t lo, uint64_t hi, uint64_t *acc)
{
    cache_arg *a = p;
    for (uint64_t e = lo; e < hi; e++)
        tally(bench_cache_evicted_element(a->x, a->dim, e, a->ckeys, a->cvalues), acc);
}

/* Reports a check's tallies; returns the number of wrong elements. */
static int64_t report(bench_ctx *c, const uint64_t bad[3], uint64_t keys, uint32_t dim,
                      const char *what)
{
    uint64_t total = bad[0] + bad[1] + bad[2];
    if (total == 0)
        return 0;
    bench_fail(c, "%s: of %llu keys (dim %u), %llu wrong found flags, %llu wrong value elements, "
                  "%llu unexpected keys",
               what, (unsigned long long)keys, dim, (unsigned long long)bad[0],
               (unsigned long long)bad[1], (unsigned long long)bad[2]);
    return (int64_t)total;
}

int64_t bench_cache_check(bench_ctx *c, const bench_gen *g, uint32_t dim, const uint8_t *found,
                          const uint32_t *values, const char *what)
{
    uint64_t bad[4] = {0, 0, 0, 0};
#ifdef BENCH_WITH_CUDA
    if (c->gpu) {
        if (bench_gpu_cache_check(g, dim, found, values, bad, c->stream) != 0)
            return -1;
    } else
#endif
    {
        uint32_t d = values != NULL ? dim : 1; /* without values, one element per key */
        cache_arg a = {g, NULL, d, NULL, NULL, found, NULL, values};
        bench_par_for(g->n, check_range, &a, bad);
    }
    return report(c, bad, g->n, dim, what);
}

int64_t bench_cache_check_evicted(bench_ctx *c, const bench_evicted *x, uint32_t dim,
                                  uint64_t count, const uint64_t *ev_keys,
                                  const uint32_t *ev_values, const char *what)
{
    uint64_t bad[4] = {0, 0, 0, 0};
    if (count == 0)
        return 0;
#ifdef BENCH_WITH_CUDA
    if (c->gpu) {
        if (bench_gpu_cache_check_evicted(x, dim, count, ev_keys, ev_values, bad, c->stream) != 0)
            return -1;
    } else
#endif
    {
        uint32_t d = ev_values != NULL ? dim : 1;
        cache_arg a = {NULL, x, d, NULL, NULL, NULL, ev_keys, ev_values};
        bench_par_for(count * d, evicted_range, &a, bad);
    }
    return report(c, bad, count, dim, what);
}

/* ---------------------------------------------------------------- backing store */

typedef struct access_arg {
    const bench_gen *z;
    int zipf;
    uint64_t records, seed, first;
    uint64_t *out;
    const uint64_t *keys, *values;
} access_arg;

static void backing_range(void *p, uint64_t lo, uint64_t hi, uint64_t *acc)
{
    access_arg *a = p;
    (void)acc;
    for (uint64_t r = lo; r < hi; r++)
        a->out[r] = bench_backing_value(r);
}

uint64_t *bench_backing_create(bench_ctx *c, uint64_t records)
{
    uint64_t *b = NULL;
    size_t bytes = (size_t)records * sizeof *b;
#ifdef BENCH_WITH_CUDA
    if (c->gpu)
        b = bench_gpu_host_alloc(bytes);
    else
#endif
    {
        b = malloc(bytes > 0 ? bytes : 8);
        if (b == NULL)
            fprintf(stderr, "hive-bench: cannot allocate a %zu-byte backing store\n", bytes);
    }
    (void)c;
    if (b == NULL)
        return NULL;
    access_arg a = {NULL, 0, records, 0, 0, b, NULL, NULL};
    uint64_t acc[4];
    bench_par_for(records, backing_range, &a, acc);
    return b;
}

void bench_backing_destroy(bench_ctx *c, uint64_t *backing)
{
    if (backing == NULL)
        return;
#ifdef BENCH_WITH_CUDA
    if (c->gpu) {
        bench_gpu_host_free(backing);
        return;
    }
#endif
    (void)c;
    free(backing);
}

static void access_range(void *p, uint64_t lo, uint64_t hi, uint64_t *acc)
{
    access_arg *a = p;
    (void)acc;
    for (uint64_t i = lo; i < hi; i++)
        a->out[i] = bench_access(a->z, a->zipf, a->records, a->seed, a->first + i);
}

int bench_access_fill(bench_ctx *c, const bench_gen *z, int zipf, uint64_t records, uint64_t seed,
                      uint64_t first, uint64_t n, uint64_t *keys)
{
#ifdef BENCH_WITH_CUDA
    if (c->gpu)
        return bench_gpu_access_fill(z, zipf, records, seed, first, n, keys, c->stream);
#endif
    (void)c;
    access_arg a = {z, zipf, records, seed, first, keys, NULL, NULL};
    uint64_t acc[4];
    bench_par_for(n, access_range, &a, acc);
    return 0;
}

int bench_backing_fetch(bench_ctx *c, const uint64_t *backing, uint64_t m,
                        const uint64_t *missed_keys, const uint64_t *missed_indices,
                        uint64_t *values, uint64_t *fetched)
{
#ifdef BENCH_WITH_CUDA
    if (c->gpu)
        return bench_gpu_backing_fetch(backing, m, missed_keys, missed_indices, values, fetched,
                                       c->stream);
#endif
    (void)c;
    /* one thread: the miss path a CPU cache's caller would run, inside the time */
    for (uint64_t t = 0; t < m; t++) {
        uint64_t v = backing[missed_keys[t]];
        values[missed_indices[t]] = v;
        if (fetched != NULL)
            fetched[t] = v;
    }
    return 0;
}

static void access_check_range(void *p, uint64_t lo, uint64_t hi, uint64_t *acc)
{
    access_arg *a = p;
    for (uint64_t i = lo; i < hi; i++)
        acc[0] += a->values[i] != bench_backing_value(a->keys[i]);
}

int64_t bench_access_check(bench_ctx *c, uint64_t n, const uint64_t *keys, const uint64_t *values,
                           const char *what)
{
    uint64_t bad[4] = {0, 0, 0, 0};
#ifdef BENCH_WITH_CUDA
    if (c->gpu) {
        if (bench_gpu_access_check(n, keys, values, bad, c->stream) != 0)
            return -1;
    } else
#endif
    {
        access_arg a = {NULL, 0, 0, 0, 0, NULL, keys, values};
        bench_par_for(n, access_check_range, &a, bad);
    }
    if (bad[0] == 0)
        return 0;
    bench_fail(c, "%s: %llu of %llu accesses came back with a value not their record's", what,
               (unsigned long long)bad[0], (unsigned long long)n);
    return (int64_t)bad[0];
}

/* The slots per bucket the run's caches get (--cache-slots, or the
 * library's default): a small cache of the same config says. */
uint32_t bench_cache_bucket_slots(const bench_ctx *c)
{
    hive_cache_config cfg = HIVE_CACHE_CONFIG_INIT;
    cfg.backend = c->backend;
    cfg.capacity = 1024;
    cfg.bucket_slots = c->cache_slots;
    cfg.threads = 1;
    hive_cache *t = NULL;
    uint32_t slots = c->cache_slots;
    if (hive_cache_create(&cfg, &t) != HIVE_SUCCESS)
        return slots;
    if (hive_cache_get_config(t, &cfg) == HIVE_SUCCESS)
        slots = cfg.bucket_slots;
    hive_cache_destroy(t);
    return slots;
}
