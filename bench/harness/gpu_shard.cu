/* gpu_shard.cu — the `shard` workload's device work on each rank's GPU:
 * its keys and values made where they are used (gen.h's pure functions),
 * and its finds checked there, so that no rank waits on host copies. */
#include <cuda_runtime.h>

#include "gen.h"
#include "gpu_shard.h"

__global__ void shard_fill_kernel(void *keys, void *values, uint64_t n, uint64_t first, bench_keys k)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t key = bench_key(&k, first + i);
        if (k.bits == 32) {
            ((uint32_t *)keys)[i] = (uint32_t)key;
            if (values)
                ((uint32_t *)values)[i] = (uint32_t)bench_value(32, key, 0);
        } else {
            ((uint64_t *)keys)[i] = key;
            if (values)
                ((uint64_t *)values)[i] = bench_value(64, key, 0);
        }
    }
}

__global__ void shard_verify_kernel(const void *keys, const void *values, const uint8_t *found, uint64_t n,
                                    uint32_t bits, int present, unsigned long long *bad)
{
    unsigned long long mine = 0;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t key = bits == 32 ? ((const uint32_t *)keys)[i] : ((const uint64_t *)keys)[i];
        if (found[i] != (uint8_t)present) {
            mine++;
            continue;
        }
        if (present && values) {
            uint64_t v = bits == 32 ? ((const uint32_t *)values)[i] : ((const uint64_t *)values)[i];
            mine += v != bench_value(bits, key, 0);
        }
    }
    if (mine)
        atomicAdd(bad, mine);
}

extern "C" int bench_shard_fill(void *keys, void *values, uint64_t n, uint64_t first, bench_keys k,
                                cudaStream_t stream)
{
    shard_fill_kernel<<<1024, 256, 0, stream>>>(keys, values, n, first, k);
    return cudaGetLastError() == cudaSuccess && cudaStreamSynchronize(stream) == cudaSuccess ? 0 : -1;
}

extern "C" int64_t bench_shard_verify(const void *keys, const void *values, const uint8_t *found, uint64_t n,
                                      uint32_t bits, int present, cudaStream_t stream)
{
    unsigned long long *bad = NULL, host = 0;
    if (cudaMalloc((void **)&bad, sizeof *bad) != cudaSuccess)
        return -1;
    cudaMemsetAsync(bad, 0, sizeof *bad, stream);
    shard_verify_kernel<<<1024, 256, 0, stream>>>(keys, values, found, n, bits, present, bad);
    int ok = cudaGetLastError() == cudaSuccess &&
             cudaMemcpyAsync(&host, bad, sizeof host, cudaMemcpyDeviceToHost, stream) == cudaSuccess &&
             cudaStreamSynchronize(stream) == cudaSuccess;
    cudaFree(bad);
    return ok ? (int64_t)host : -1;
}
