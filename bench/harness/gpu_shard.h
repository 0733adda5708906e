/* gpu_shard.h — the `shard` workload's kernels (gpu_shard.cu), run on the
 * calling thread's current GPU. */
#ifndef HIVE_BENCH_GPU_SHARD_H
#define HIVE_BENCH_GPU_SHARD_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#include "gen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* keys[i] = the key of counter first + i; values[i] its tag-0 value (when
 * values is given).  Waits for the stream.  0, or -1 on a CUDA error. */
int bench_shard_fill(void *keys, void *values, uint64_t n, uint64_t first, bench_keys k, cudaStream_t stream);

/* How many of the n looked-up keys came back wrong: found must be
 * `present`, and a present key's value its tag-0 value.  -1: CUDA error. */
int64_t bench_shard_verify(const void *keys, const void *values, const uint8_t *found, uint64_t n, uint32_t bits,
                           int present, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
