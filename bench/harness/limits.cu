/* limits.cu — the hardware ceilings every GPU figure of hive-bench is
 * divided by, measured in the same run as the figures:
 *
 *   copy      cudaMemcpyAsync device to device; bytes read + bytes written per second
 *   line128   one warp reads one random aligned 128-byte line (4 bytes a lane)
 *   line256   one warp reads one random aligned 256-byte block (8 bytes a lane)
 *   sector    one thread reads one random aligned 8-byte word: one 32-byte sector
 *   cas       one thread does one 64-bit atomicCAS on a random word
 *   index     the sector kernel on an 8 KiB buffer (L1-resident): what index
 *             generation alone costs, to show it is not the bottleneck
 *
 * and, over PCIe, with a pinned host buffer of 256 MiB (or less, as the host
 * allows) mapped into the device's address space (the cache table's host
 * value tier reads and writes such memory from its kernels):
 *
 *   h2d, d2h        cudaMemcpyAsync between it and device memory; bytes moved per second
 *   mapped-read     a kernel reading it in order, 16 bytes a lane (every warp's
 *                   loads whole 128-byte lines); bytes per second
 *   mapped-write    the same writing
 *   mapped-line128  the line128 kernel on it: random 128-byte lines, a warp each
 *
 * The random-access buffer is the larger of 1 GiB and 8 x L2 (a power of
 * two), so nearly every access misses L2.  Indices come from a cheap in-kernel
 * hash of the access number (lowbias32: two multiplies, three xor-shifts),
 * masked to the buffer; each thread keeps LIM_UNROLL independent accesses in
 * flight.  Every kernel folds what it reads into a value that is stored only
 * under an impossible condition, so no load is optimised away.  Launches use
 * full occupancy (cudaOccupancyMaxActiveBlocksPerMultiprocessor); each rate is
 * the median of `runs` (>= 5) timed launches after one warm-up, timed with
 * CUDA events on one stream, with the slowest and fastest launch's rates. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"

#define LIM_TRY(call)                                                                      \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "hive-bench limits: %s failed (%s:%d): %s\n", #call, __FILE__,   \
                    __LINE__, cudaGetErrorString(e_));                                     \
            rc = -1;                                                                       \
            goto out;                                                                      \
        }                                                                                  \
    } while (0)

#define LIM_BLOCK 256
#define LIM_UNROLL 4
#define LIM_MAGIC 0x9E3779B9u

__device__ __forceinline__ uint32_t lim_hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7FEB352Du;
    x ^= x >> 15;
    x *= 0x846CA68Bu;
    x ^= x >> 16;
    return x;
}

/* Access a = (it * LIM_UNROLL + u) * nunits + unit, unit = the warp (line
 * kernels) or the thread (sector, cas); every launch does exactly
 * iters * LIM_UNROLL * nunits accesses (< 2^32). */

__global__ void __launch_bounds__(LIM_BLOCK, 8) k_line128(const uint32_t *__restrict__ buf, uint32_t mask, uint32_t iters,
                          uint32_t seed, uint32_t *sink)
{
    const uint32_t lane = threadIdx.x & 31;
    const uint32_t unit = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const uint32_t nunits = (gridDim.x * blockDim.x) >> 5;
    uint32_t acc = 0;
    for (uint32_t it = 0; it < iters; it++) {
        uint32_t v[LIM_UNROLL];
#pragma unroll
        for (int u = 0; u < LIM_UNROLL; u++) {
            uint32_t line = lim_hash(((it * LIM_UNROLL + u) * nunits + unit) ^ seed) & mask;
            v[u] = buf[(size_t)line * 32 + lane];
        }
#pragma unroll
        for (int u = 0; u < LIM_UNROLL; u++)
            acc ^= v[u];
    }
    if (acc == LIM_MAGIC)
        sink[0] = acc;
}

__global__ void __launch_bounds__(LIM_BLOCK, 8) k_line256(const unsigned long long *__restrict__ buf, uint32_t mask,
                          uint32_t iters, uint32_t seed, uint32_t *sink)
{
    const uint32_t lane = threadIdx.x & 31;
    const uint32_t unit = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const uint32_t nunits = (gridDim.x * blockDim.x) >> 5;
    unsigned long long acc = 0;
    for (uint32_t it = 0; it < iters; it++) {
        unsigned long long v[LIM_UNROLL];
#pragma unroll
        for (int u = 0; u < LIM_UNROLL; u++) {
            uint32_t blk = lim_hash(((it * LIM_UNROLL + u) * nunits + unit) ^ seed) & mask;
            v[u] = buf[(size_t)blk * 32 + lane];
        }
#pragma unroll
        for (int u = 0; u < LIM_UNROLL; u++)
            acc ^= v[u];
    }
    if ((uint32_t)acc == LIM_MAGIC)
        sink[0] = (uint32_t)acc;
}

__global__ void __launch_bounds__(LIM_BLOCK, 8) k_sector(const unsigned long long *__restrict__ buf, uint32_t mask,
                         uint32_t iters, uint32_t seed, uint32_t *sink)
{
    const uint32_t unit = blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t nunits = gridDim.x * blockDim.x;
    unsigned long long acc = 0;
    for (uint32_t it = 0; it < iters; it++) {
        unsigned long long v[LIM_UNROLL];
#pragma unroll
        for (int u = 0; u < LIM_UNROLL; u++) {
            uint32_t w = lim_hash(((it * LIM_UNROLL + u) * nunits + unit) ^ seed) & mask;
            v[u] = buf[w];
        }
#pragma unroll
        for (int u = 0; u < LIM_UNROLL; u++)
            acc ^= v[u];
    }
    if ((uint32_t)acc == LIM_MAGIC)
        sink[0] = (uint32_t)acc;
}

__global__ void k_cas(unsigned long long *buf, uint32_t mask, uint32_t iters, uint32_t seed,
                      uint32_t *sink)
{
    const uint32_t unit = blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t nunits = gridDim.x * blockDim.x;
    unsigned long long acc = 0;
    for (uint32_t it = 0; it < iters; it++) {
        unsigned long long v[LIM_UNROLL];
#pragma unroll
        for (int u = 0; u < LIM_UNROLL; u++) {
            uint32_t a = (it * LIM_UNROLL + u) * nunits + unit;
            uint32_t w = lim_hash(a ^ seed) & mask;
            v[u] = atomicCAS(&buf[w], (unsigned long long)a, (unsigned long long)a + 1);
        }
#pragma unroll
        for (int u = 0; u < LIM_UNROLL; u++)
            acc ^= v[u];
    }
    if ((uint32_t)acc == LIM_MAGIC)
        sink[0] = (uint32_t)acc;
}

/* In order over n16 16-byte words of `buf` (mapped host memory), a grid
 * stride: each warp's 32 loads or stores are 512 contiguous bytes. */
__global__ void __launch_bounds__(LIM_BLOCK) k_stream_read(const uint4 *buf, uint64_t n16, uint32_t *sink)
{
    uint32_t acc = 0;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n16; i += (uint64_t)gridDim.x * blockDim.x) {
        uint4 v = buf[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == LIM_MAGIC)
        sink[0] = acc;
}

__global__ void __launch_bounds__(LIM_BLOCK) k_stream_write(uint4 *buf, uint64_t n16)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n16; i += (uint64_t)gridDim.x * blockDim.x)
        buf[i] = make_uint4((uint32_t)i, (uint32_t)(i >> 32), LIM_MAGIC, 0u);
}

typedef enum lim_kind { LIM_LINE128, LIM_LINE256, LIM_SECTOR, LIM_CAS, LIM_INDEX } lim_kind;

/* Times one kind `runs` times after a warm-up: *rate gets accesses per second
 * (median, slowest, fastest).  Returns 0, or -1 on a CUDA error. */
static int time_kind(bench_spread *rate, lim_kind kind, void *buf, uint64_t bytes, uint32_t *sink,
                     int sms, uint64_t target, int runs, cudaStream_t s, cudaEvent_t e0,
                     cudaEvent_t e1)
{
    int rc = 0;
    double secs[64];
    const void *fn;
    uint32_t mask, per_thread_units;
    switch (kind) {
    case LIM_LINE128:
        fn = (const void *)k_line128;
        mask = (uint32_t)(bytes / 128 - 1);
        per_thread_units = 32; /* a warp per access */
        break;
    case LIM_LINE256:
        fn = (const void *)k_line256;
        mask = (uint32_t)(bytes / 256 - 1);
        per_thread_units = 32;
        break;
    case LIM_SECTOR:
        fn = (const void *)k_sector;
        mask = (uint32_t)(bytes / 8 - 1);
        per_thread_units = 1;
        break;
    case LIM_CAS:
        fn = (const void *)k_cas;
        mask = (uint32_t)(bytes / 8 - 1);
        per_thread_units = 1;
        break;
    default:
        fn = (const void *)k_sector;
        mask = 1023u; /* 8 KiB */
        per_thread_units = 1;
        break;
    }
    int per_sm = 0;
    LIM_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, LIM_BLOCK, 0));
    if (per_sm < 1)
        per_sm = 1;
    {
        uint32_t blocks = (uint32_t)(sms * per_sm);
        uint64_t units = (uint64_t)blocks * LIM_BLOCK / per_thread_units;
        uint64_t iters64 = target / (units * LIM_UNROLL);
        uint32_t iters = iters64 < 1 ? 1u : (uint32_t)iters64;
        double accesses = (double)iters * LIM_UNROLL * (double)units;
        if (runs > 64)
            runs = 64;
        for (int r = -1; r < runs; r++) {
            uint32_t seed = 0x5EED0000u + (uint32_t)(r + 1) * 0x9E3779B1u;
            LIM_TRY(cudaEventRecord(e0, s));
            switch (kind) {
            case LIM_LINE128:
                k_line128<<<blocks, LIM_BLOCK, 0, s>>>((const uint32_t *)buf, mask, iters, seed, sink);
                break;
            case LIM_LINE256:
                k_line256<<<blocks, LIM_BLOCK, 0, s>>>((const unsigned long long *)buf, mask, iters,
                                                       seed, sink);
                break;
            case LIM_CAS:
                k_cas<<<blocks, LIM_BLOCK, 0, s>>>((unsigned long long *)buf, mask, iters, seed, sink);
                break;
            default:
                k_sector<<<blocks, LIM_BLOCK, 0, s>>>((const unsigned long long *)buf, mask, iters,
                                                      seed, sink);
                break;
            }
            LIM_TRY(cudaGetLastError());
            LIM_TRY(cudaEventRecord(e1, s));
            LIM_TRY(cudaEventSynchronize(e1));
            float ms = 0.0f;
            LIM_TRY(cudaEventElapsedTime(&ms, e0, e1));
            if (r >= 0)
                secs[r] = (double)ms * 1e-3;
        }
        *rate = bench_spread_rate(accesses, secs, runs);
    }
out:
    return rc;
}

typedef enum pcie_kind { PCIE_H2D, PCIE_D2H, PCIE_READ, PCIE_WRITE } pcie_kind;

/* Times one transfer of `bytes` between pinned host memory (host: its host
 * address, mapped: its device address) and device memory `dev`, `runs`
 * times after a warm-up: *rate gets bytes per second. */
static int time_pcie(bench_spread *rate, pcie_kind kind, void *host, void *mapped, void *dev, uint64_t bytes,
                     uint32_t *sink, int sms, int runs, cudaStream_t s, cudaEvent_t e0, cudaEvent_t e1)
{
    int rc = 0;
    double secs[64];
    int per_sm = 0;
    const void *fn = kind == PCIE_WRITE ? (const void *)k_stream_write : (const void *)k_stream_read;
    LIM_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, LIM_BLOCK, 0));
    if (per_sm < 1)
        per_sm = 1;
    if (runs > 64)
        runs = 64;
    for (int r = -1; r < runs; r++) {
        LIM_TRY(cudaEventRecord(e0, s));
        switch (kind) {
        case PCIE_H2D:
            LIM_TRY(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, s));
            break;
        case PCIE_D2H:
            LIM_TRY(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, s));
            break;
        case PCIE_READ:
            k_stream_read<<<sms * per_sm, LIM_BLOCK, 0, s>>>((const uint4 *)mapped, bytes / 16, sink);
            break;
        default:
            k_stream_write<<<sms * per_sm, LIM_BLOCK, 0, s>>>((uint4 *)mapped, bytes / 16);
            break;
        }
        LIM_TRY(cudaGetLastError());
        LIM_TRY(cudaEventRecord(e1, s));
        LIM_TRY(cudaEventSynchronize(e1));
        float ms = 0.0f;
        LIM_TRY(cudaEventElapsedTime(&ms, e0, e1));
        if (r >= 0)
            secs[r] = (double)ms * 1e-3;
    }
    *rate = bench_spread_rate((double)bytes, secs, runs);
out:
    return rc;
}

/* The PCIe rates (top of file) with device buffer `dev` of dev_bytes (a
 * power of two).  A host that cannot pin 16 MiB leaves them 0. */
static int pcie_limits(bench_limits *out, void *dev, uint64_t dev_bytes, uint32_t *sink, int sms, int runs,
                       cudaStream_t s, cudaEvent_t e0, cudaEvent_t e1)
{
    int rc = 0;
    void *host = NULL, *mapped = NULL;
    uint64_t bytes = dev_bytes < (256ull << 20) ? dev_bytes : 256ull << 20; /* a power of two: line128's mask */
    while (cudaHostAlloc(&host, bytes, cudaHostAllocMapped | cudaHostAllocPortable) != cudaSuccess) {
        cudaGetLastError();
        host = NULL;
        if ((bytes >>= 1) < (16ull << 20)) {
            fprintf(stderr, "hive-bench limits: no pinned host memory for the PCIe rates\n");
            return 0;
        }
    }
    out->host_bytes = bytes;
    memset(host, 0, bytes);
    LIM_TRY(cudaHostGetDevicePointer(&mapped, host, 0));
    if (time_pcie(&out->h2d_bytes_per_s, PCIE_H2D, host, mapped, dev, bytes, sink, sms, runs, s, e0, e1) != 0 ||
        time_pcie(&out->d2h_bytes_per_s, PCIE_D2H, host, mapped, dev, bytes, sink, sms, runs, s, e0, e1) != 0 ||
        time_pcie(&out->mapped_read_bytes_per_s, PCIE_READ, host, mapped, dev, bytes, sink, sms, runs, s, e0,
                  e1) != 0 ||
        time_pcie(&out->mapped_write_bytes_per_s, PCIE_WRITE, host, mapped, dev, bytes, sink, sms, runs, s, e0,
                  e1) != 0 ||
        time_kind(&out->mapped_line128_per_s, LIM_LINE128, mapped, bytes, sink, sms, 1ull << 22, runs, s, e0,
                  e1) != 0)
        rc = -1;
out:
    if (host != NULL)
        cudaFreeHost(host);
    return rc;
}

extern "C" int bench_gpu_limits(bench_limits *out, int runs)
{
    int rc = 0;
    void *a = NULL, *b = NULL;
    uint32_t *sink = NULL;
    cudaStream_t s = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    double secs[64];
    memset(out, 0, sizeof *out);
    if (runs < 5)
        runs = 5;
    if (runs > 64)
        runs = 64;

    int dev = 0, sms = 0, l2 = 0;
    LIM_TRY(cudaGetDevice(&dev));
    LIM_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    LIM_TRY(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    {
        uint64_t bytes = 1ull << 30;
        while (bytes < 8ull * (uint64_t)l2)
            bytes <<= 1;
        size_t fr = 0, total = 0;
        LIM_TRY(cudaMemGetInfo(&fr, &total));
        while (2 * bytes + (256ull << 20) > fr && bytes > (64ull << 20))
            bytes >>= 1;
        if (bytes < 8ull * (uint64_t)l2)
            fprintf(stderr, "hive-bench limits: only %llu MiB free for the buffer, under 8 x L2\n",
                    (unsigned long long)(bytes >> 20));
        out->buffer_bytes = bytes;
        out->l2_bytes = (uint64_t)l2;

        LIM_TRY(cudaStreamCreate(&s));
        LIM_TRY(cudaEventCreate(&e0));
        LIM_TRY(cudaEventCreate(&e1));
        LIM_TRY(cudaMalloc(&a, bytes));
        LIM_TRY(cudaMalloc(&b, bytes));
        LIM_TRY(cudaMalloc((void **)&sink, 64));
        LIM_TRY(cudaMemsetAsync(a, 0, bytes, s));
        LIM_TRY(cudaMemsetAsync(b, 0, bytes, s));
        LIM_TRY(cudaStreamSynchronize(s));

        /* copy: bytes read + bytes written per second */
        for (int r = -1; r < runs; r++) {
            LIM_TRY(cudaEventRecord(e0, s));
            LIM_TRY(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, s));
            LIM_TRY(cudaEventRecord(e1, s));
            LIM_TRY(cudaEventSynchronize(e1));
            float ms = 0.0f;
            LIM_TRY(cudaEventElapsedTime(&ms, e0, e1));
            if (r >= 0)
                secs[r] = (double)ms * 1e-3;
        }
        out->copy_bytes_per_s = bench_spread_rate(2.0 * (double)bytes, secs, runs);

        /* access counts sized for launches of a few to a few tens of ms */
        if (time_kind(&out->line128_per_s, LIM_LINE128, a, bytes, sink, sms, 1ull << 27, runs, s,
                      e0, e1) != 0 ||
            time_kind(&out->line256_per_s, LIM_LINE256, a, bytes, sink, sms, 1ull << 26, runs, s,
                      e0, e1) != 0 ||
            time_kind(&out->sector_per_s, LIM_SECTOR, a, bytes, sink, sms, 1ull << 30, runs, s,
                      e0, e1) != 0 ||
            time_kind(&out->cas_per_s, LIM_CAS, a, bytes, sink, sms, 1ull << 28, runs, s, e0,
                      e1) != 0 ||
            time_kind(&out->index_per_s, LIM_INDEX, a, bytes, sink, sms, 1ull << 30, runs, s, e0,
                      e1) != 0 ||
            pcie_limits(out, a, bytes, sink, sms, runs, s, e0, e1) != 0)
            rc = -1;
    }
out:
    if (a != NULL)
        cudaFree(a);
    if (b != NULL)
        cudaFree(b);
    if (sink != NULL)
        cudaFree(sink);
    if (e0 != NULL)
        cudaEventDestroy(e0);
    if (e1 != NULL)
        cudaEventDestroy(e1);
    if (s != NULL)
        cudaStreamDestroy(s);
    return rc;
}
