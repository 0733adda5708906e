/* cache.h — what the cache workloads (wl_cache.c, wl_cache_hitrate.c) share:
 * batch fill and checks of dim-wide float values (cache_gen.h's functions, in
 * CPU loops or, for CUDA tables, in gpu_cache.cu's kernels) and the backing
 * store of cache-hitrate.  Pointers are table memory (bench_alloc) unless
 * named host; conventions as harness.h: 0 success, -1 an error printed,
 * checks return how many elements were wrong. */
#ifndef HIVE_BENCH_CACHE_H
#define HIVE_BENCH_CACHE_H

#include <stdint.h>

#include "cache_gen.h"
#include "harness.h"

/* The slots per bucket the run's caches get (--cache-slots, or the
 * library's default for one bucket a key). */
uint32_t bench_cache_bucket_slots(const bench_ctx *c);

/* keys (g->n) and values (g->n * dim words, or NULL) for batch g. */
int bench_cache_fill(bench_ctx *c, const bench_gen *g, uint32_t dim, uint64_t *keys,
                     uint32_t *values);
/* Counts wrong elements of a find or contains over g (found and values may
 * each be NULL); a failure is reported (bench_fail) under `what`. */
int64_t bench_cache_check(bench_ctx *c, const bench_gen *g, uint32_t dim, const uint8_t *found,
                          const uint32_t *values, const char *what);
/* Counts wrong entries among `count` evicted ones (ev_values may be NULL). */
int64_t bench_cache_check_evicted(bench_ctx *c, const bench_evicted *x, uint32_t dim,
                                  uint64_t count, const uint64_t *ev_keys,
                                  const uint32_t *ev_values, const char *what);

/* The backing store of `records` 64-bit values (bench_backing_value): pinned,
 * mapped host memory that the GPU reads zero-copy for CUDA runs (as
 * WarpSpeed's cache test), plain host memory for CPU runs. */
uint64_t *bench_backing_create(bench_ctx *c, uint64_t records);
void bench_backing_destroy(bench_ctx *c, uint64_t *backing);
/* keys[0..n) := the records of accesses first .. first + n - 1. */
int bench_access_fill(bench_ctx *c, const bench_gen *z, int zipf, uint64_t records, uint64_t seed,
                      uint64_t first, uint64_t n, uint64_t *keys);
/* The miss path: for t < m, v = backing[missed_keys[t]]; values[missed_indices[t]]
 * = v and fetched[t] = v (fetched may be NULL). */
int bench_backing_fetch(bench_ctx *c, const uint64_t *backing, uint64_t m,
                        const uint64_t *missed_keys, const uint64_t *missed_indices,
                        uint64_t *values, uint64_t *fetched);
/* Counts accesses whose value is not their record's. */
int64_t bench_access_check(bench_ctx *c, uint64_t n, const uint64_t *keys, const uint64_t *values,
                           const char *what);

#endif
