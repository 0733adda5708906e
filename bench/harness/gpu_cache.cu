/* gpu_cache.cu — the cache workloads' device side (gpu_cache.h): fill and
 * check kernels over cache_gen.h's functions, one thread per value element
 * (consecutive threads touch consecutive words: coalesced), the pinned
 * backing store of cache-hitrate and its miss-path gather, which reads the
 * store zero-copy over the bus as WarpSpeed's cache test does.  C-style CUDA,
 * entry points extern "C"; every CUDA status is checked. */
#include <cuda_runtime.h>
#include <stdio.h>

#include "gpu_cache.h"
#include "gpu_try.cuh"

/* Grid-stride loops over up to 16 blocks per SM. */
static unsigned int grid_for(uint64_t n)
{
    static int sms;
    if (sms == 0) {
        int dev = 0, v = 0;
        if (cudaGetDevice(&dev) != cudaSuccess ||
            cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || v < 1)
            v = 1;
        sms = v;
    }
    uint64_t blocks = (n + BLOCK - 1) / BLOCK, cap = (uint64_t)sms * 16;
    if (blocks > cap)
        blocks = cap;
    return blocks < 1 ? 1u : (unsigned int)blocks;
}

/* The checks' tallies: 3 words, zeroed before each check. */
static unsigned long long *g_tally;

static int tally_ready(cudaStream_t s)
{
    if (g_tally == NULL)
        GPU_TRY(cudaMalloc((void **)&g_tally, 4 * sizeof *g_tally));
    GPU_TRY(cudaMemsetAsync(g_tally, 0, 4 * sizeof *g_tally, s));
    return 0;
}

static int tally_read(uint64_t bad[3], cudaStream_t s)
{
    unsigned long long h[4] = {0, 0, 0, 0};
    GPU_TRY(cudaGetLastError());
    GPU_TRY(cudaMemcpyAsync(h, g_tally, sizeof h, cudaMemcpyDeviceToHost, s));
    GPU_TRY(cudaStreamSynchronize(s));
    for (int k = 0; k < 3; k++)
        bad[k] = h[k];
    return 0;
}

/* Adds each bit of a per-thread failure count to the tally, one atomic per warp. */
__device__ __forceinline__ void warp_tally(unsigned long long *tally, const unsigned long long v[3])
{
    for (int k = 0; k < 3; k++) {
        unsigned long long x = v[k];
        for (int off = 16; off > 0; off >>= 1)
            x += __shfl_down_sync(0xffffffffu, x, off);
        if ((threadIdx.x & 31) == 0 && x != 0)
            atomicAdd(&tally[k], x);
    }
}

__global__ void k_cache_fill(const bench_gen g, uint32_t dim, uint64_t *keys, uint32_t *values)
{
    uint64_t n = g.n * dim, stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t e = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; e < n; e += stride)
        bench_cache_fill_element(&g, dim, e, keys, values);
}

__global__ void k_cache_check(const bench_gen g, uint32_t dim, const uint8_t *found,
                              const uint32_t *values, unsigned long long *tally)
{
    unsigned long long v[3] = {0, 0, 0};
    uint64_t n = g.n * dim, stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t e = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; e < n; e += stride) {
        uint32_t bad = bench_cache_check_element(&g, dim, e, found, values);
        for (int k = 0; k < 3; k++)
            v[k] += (bad >> k) & 1u;
    }
    warp_tally(tally, v); /* whole blocks of 256: every lane gets here */
}

__global__ void k_cache_check_evicted(const bench_evicted x, uint32_t dim, uint64_t count,
                                      const uint64_t *ev_keys, const uint32_t *ev_values,
                                      unsigned long long *tally)
{
    unsigned long long v[3] = {0, 0, 0};
    uint64_t n = count * dim, stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t e = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; e < n; e += stride) {
        uint32_t bad = bench_cache_evicted_element(&x, dim, e, ev_keys, ev_values);
        for (int k = 0; k < 3; k++)
            v[k] += (bad >> k) & 1u;
    }
    warp_tally(tally, v);
}

extern "C" int bench_gpu_cache_fill(const bench_gen *g, uint32_t dim, uint64_t *keys,
                                    uint32_t *values, hive_stream stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (g->n == 0)
        return 0;
    /* without values, one element per key */
    uint32_t d = values != NULL ? dim : 1;
    k_cache_fill<<<grid_for(g->n * d), BLOCK, 0, s>>>(*g, d, keys, values);
    GPU_TRY(cudaGetLastError());
    GPU_TRY(cudaStreamSynchronize(s));
    return 0;
}

extern "C" int bench_gpu_cache_check(const bench_gen *g, uint32_t dim, const uint8_t *found,
                                     const uint32_t *values, uint64_t bad[3], hive_stream stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    uint32_t d = values != NULL ? dim : 1;
    if (tally_ready(s) != 0)
        return -1;
    if (g->n > 0)
        k_cache_check<<<grid_for(g->n * d), BLOCK, 0, s>>>(*g, d, found, values, g_tally);
    return tally_read(bad, s);
}

extern "C" int bench_gpu_cache_check_evicted(const bench_evicted *x, uint32_t dim, uint64_t count,
                                             const uint64_t *ev_keys, const uint32_t *ev_values,
                                             uint64_t bad[3], hive_stream stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    uint32_t d = ev_values != NULL ? dim : 1;
    if (tally_ready(s) != 0)
        return -1;
    if (count > 0)
        k_cache_check_evicted<<<grid_for(count * d), BLOCK, 0, s>>>(*x, d, count, ev_keys,
                                                                    ev_values, g_tally);
    return tally_read(bad, s);
}

/* ---------------------------------------------------------------- backing store */

__global__ void k_access_fill(const bench_gen z, int zipf, uint64_t records, uint64_t seed,
                              uint64_t first, uint64_t n, uint64_t *keys)
{
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        keys[i] = bench_access(&z, zipf, records, seed, first + i);
}

/* backing: host memory, read through its mapped (UVA) address over the bus. */
__global__ void k_backing_fetch(const uint64_t *backing, uint64_t m, const uint64_t *missed_keys,
                                const uint64_t *missed_indices, uint64_t *values,
                                uint64_t *fetched)
{
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; t < m; t += stride) {
        uint64_t v = backing[missed_keys[t]];
        values[missed_indices[t]] = v;
        if (fetched != NULL)
            fetched[t] = v;
    }
}

__global__ void k_access_check(uint64_t n, const uint64_t *keys, const uint64_t *values,
                               unsigned long long *tally)
{
    unsigned long long v[3] = {0, 0, 0};
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        v[0] += values[i] != bench_backing_value(keys[i]);
    warp_tally(tally, v);
}

extern "C" int bench_gpu_access_fill(const bench_gen *z, int zipf, uint64_t records, uint64_t seed,
                                     uint64_t first, uint64_t n, uint64_t *keys, hive_stream stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (n == 0)
        return 0;
    k_access_fill<<<grid_for(n), BLOCK, 0, s>>>(*z, zipf, records, seed, first, n, keys);
    GPU_TRY(cudaGetLastError());
    GPU_TRY(cudaStreamSynchronize(s));
    return 0;
}

extern "C" int bench_gpu_backing_fetch(const uint64_t *backing, uint64_t m,
                                       const uint64_t *missed_keys, const uint64_t *missed_indices,
                                       uint64_t *values, uint64_t *fetched, hive_stream stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (m == 0)
        return 0;
    /* many warps in flight: each fetch is a round trip over the bus */
    k_backing_fetch<<<grid_for(m), BLOCK, 0, s>>>(backing, m, missed_keys, missed_indices, values,
                                                  fetched);
    GPU_TRY(cudaGetLastError());
    GPU_TRY(cudaStreamSynchronize(s));
    return 0;
}

extern "C" int bench_gpu_access_check(uint64_t n, const uint64_t *keys, const uint64_t *values,
                                      uint64_t *bad, hive_stream stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    uint64_t b[3] = {0, 0, 0};
    if (tally_ready(s) != 0)
        return -1;
    if (n > 0)
        k_access_check<<<grid_for(n), BLOCK, 0, s>>>(n, keys, values, g_tally);
    if (tally_read(b, s) != 0)
        return -1;
    bad[0] = b[0];
    return 0;
}
