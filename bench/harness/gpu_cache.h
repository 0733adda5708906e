/* gpu_cache.h — the C face of gpu_cache.cu: the cache workloads' fill and
 * check kernels, the pinned backing store and its miss path (cache.h calls
 * these for CUDA runs).  Built only when HIVE_WITH_CUDA is ON.  Each function
 * enqueues on `stream` (the bench's stream), returns when the work is done,
 * and returns 0, or -1 after printing the CUDA call that failed.  Pointers
 * are device memory except `backing` (pinned, mapped host memory). */
#ifndef HIVE_BENCH_GPU_CACHE_H
#define HIVE_BENCH_GPU_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "cache_gen.h"
#include "hive.h"

#ifdef __cplusplus
extern "C" {
#endif

/* bad[k] counts elements with failure bit 1 << k (cache_gen.h's BENCH_CACHE_BAD_*). */
int bench_gpu_cache_fill(const bench_gen *g, uint32_t dim, uint64_t *keys, uint32_t *values,
                         hive_stream stream);
int bench_gpu_cache_check(const bench_gen *g, uint32_t dim, const uint8_t *found,
                          const uint32_t *values, uint64_t bad[3], hive_stream stream);
int bench_gpu_cache_check_evicted(const bench_evicted *x, uint32_t dim, uint64_t count,
                                  const uint64_t *ev_keys, const uint32_t *ev_values,
                                  uint64_t bad[3], hive_stream stream);
int bench_gpu_access_fill(const bench_gen *z, int zipf, uint64_t records, uint64_t seed,
                          uint64_t first, uint64_t n, uint64_t *keys, hive_stream stream);
int bench_gpu_backing_fetch(const uint64_t *backing, uint64_t m, const uint64_t *missed_keys,
                            const uint64_t *missed_indices, uint64_t *values, uint64_t *fetched,
                            hive_stream stream);
int bench_gpu_access_check(uint64_t n, const uint64_t *keys, const uint64_t *values,
                           uint64_t *bad, hive_stream stream);

#ifdef __cplusplus
}
#endif

#endif
