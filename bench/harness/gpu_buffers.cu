/* gpu_buffers.cu — hive-bench's device side apart from the limit kernels:
 * the device, its stream and timing events, device buffers, and the kernels
 * that fill key/op/value arrays and check outcomes with gen.h's functions
 * (the same ones the CPU loops call).  C-style CUDA; entry points extern "C"
 * (gpu.h).  Every CUDA call's status is checked; a failure prints the call,
 * the place and cudaGetErrorString, and the entry point returns -1. */
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "gpu.h"
#include "gpu_try.cuh"

static cudaStream_t g_stream;
static cudaEvent_t g_ev_start, g_ev_stop;
static unsigned long long *g_counters; /* device, 8 words: the checks' tallies */
static int g_sms = 1;
static int g_ready;

/* ---------------------------------------------------------------- device */

extern "C" int bench_gpu_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        (void)cudaGetLastError(); /* no driver or no device: not an error here */
        return 0;
    }
    return n;
}

/* The NVIDIA driver version through NVML, loaded at run time so that the
 * bench needs no NVML at build time; "" when NVML is absent. */
static void nvml_driver_version(char *out, size_t size)
{
    out[0] = '\0';
    void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (h == NULL)
        return;
    typedef int (*nvml_init_fn)(void);
    typedef int (*nvml_version_fn)(char *, unsigned int);
    nvml_init_fn init = (nvml_init_fn)dlsym(h, "nvmlInit_v2");
    nvml_version_fn version = (nvml_version_fn)dlsym(h, "nvmlSystemGetDriverVersion");
    nvml_init_fn shutdown = (nvml_init_fn)dlsym(h, "nvmlShutdown");
    if (init != NULL && version != NULL && init() == 0) {
        char buf[96];
        if (version(buf, (unsigned int)sizeof buf) == 0)
            snprintf(out, size, "%s", buf);
        if (shutdown != NULL)
            shutdown();
    }
    dlclose(h);
}

extern "C" int bench_gpu_init(bench_gpu_info *info, hive_stream *stream)
{
    memset(info, 0, sizeof *info);
    GPU_TRY(cudaSetDevice(0));
    GPU_TRY(cudaFree(0)); /* create the context now, not inside a timed call */
    cudaDeviceProp p;
    GPU_TRY(cudaGetDeviceProperties(&p, 0));
    snprintf(info->name, sizeof info->name, "%s", p.name);
    info->sms = p.multiProcessorCount;
    info->cc_major = p.major;
    info->cc_minor = p.minor;
    info->l2_bytes = (uint64_t)p.l2CacheSize;
    info->mem_total = (uint64_t)p.totalGlobalMem;
    GPU_TRY(cudaRuntimeGetVersion(&info->runtime_version));
    nvml_driver_version(info->driver, sizeof info->driver);
    if (info->driver[0] == '\0') {
        int v = 0;
        GPU_TRY(cudaDriverGetVersion(&v));
        snprintf(info->driver, sizeof info->driver, "CUDA driver API %d.%d", v / 1000,
                 (v % 1000) / 10);
    }
    g_sms = p.multiProcessorCount > 0 ? p.multiProcessorCount : 1;
    GPU_TRY(cudaStreamCreate(&g_stream));
    GPU_TRY(cudaEventCreate(&g_ev_start));
    GPU_TRY(cudaEventCreate(&g_ev_stop));
    GPU_TRY(cudaMalloc((void **)&g_counters, 8 * sizeof *g_counters));
    g_ready = 1;
    *stream = g_stream; /* cudaStream_t and hive_stream are the same pointer type */
    return 0;
}

extern "C" void bench_gpu_shutdown(void)
{
    if (!g_ready)
        return;
    cudaError_t e = cudaStreamSynchronize(g_stream);
    if (e != cudaSuccess)
        fprintf(stderr, "hive-bench: cudaStreamSynchronize at exit: %s\n", cudaGetErrorString(e));
    cudaFree(g_counters);
    cudaEventDestroy(g_ev_start);
    cudaEventDestroy(g_ev_stop);
    cudaStreamDestroy(g_stream);
    g_ready = 0;
}

extern "C" int bench_gpu_mem_info(uint64_t *free_bytes, uint64_t *total_bytes)
{
    size_t fr = 0, total = 0;
    GPU_TRY(cudaMemGetInfo(&fr, &total));
    *free_bytes = fr;
    *total_bytes = total;
    return 0;
}

/* ---------------------------------------------------------------- buffers */

extern "C" void *bench_gpu_malloc(size_t bytes)
{
    void *p = NULL;
    cudaError_t e = cudaMalloc(&p, bytes);
    if (e != cudaSuccess) {
        (void)cudaGetLastError(); /* an allocation failure is not sticky: clear it */
        fprintf(stderr, "hive-bench: cudaMalloc(%zu bytes): %s\n", bytes, cudaGetErrorString(e));
        return NULL;
    }
    return p;
}

extern "C" void bench_gpu_free(void *dev)
{
    if (dev == NULL)
        return;
    cudaError_t e = cudaFree(dev);
    if (e != cudaSuccess)
        fprintf(stderr, "hive-bench: cudaFree: %s\n", cudaGetErrorString(e));
}

extern "C" void *bench_gpu_host_alloc(size_t bytes)
{
    void *p = NULL;
    cudaError_t e = cudaHostAlloc(&p, bytes > 0 ? bytes : 8, cudaHostAllocMapped | cudaHostAllocPortable);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        fprintf(stderr, "hive-bench: cudaHostAlloc(%zu bytes): %s\n", bytes, cudaGetErrorString(e));
        return NULL;
    }
    return p;
}

extern "C" void bench_gpu_host_free(void *p)
{
    if (p == NULL)
        return;
    cudaError_t e = cudaFreeHost(p);
    if (e != cudaSuccess)
        fprintf(stderr, "hive-bench: cudaFreeHost: %s\n", cudaGetErrorString(e));
}

/* --allocator: the device's default memory pool, stream-ordered on the
 * stream hive names.  A failure is hive's to report (NULL: OUT_OF_MEMORY). */
static void *pool_alloc(void *user, size_t bytes, hive_stream stream)
{
    (void)user;
    void *p = NULL;
    if (cudaMallocAsync(&p, bytes, (cudaStream_t)stream) != cudaSuccess) {
        (void)cudaGetLastError();
        return NULL;
    }
    return p;
}

static void pool_free(void *user, void *p, size_t bytes, hive_stream stream)
{
    (void)user;
    (void)bytes;
    cudaError_t e = cudaFreeAsync(p, (cudaStream_t)stream);
    if (e != cudaSuccess)
        fprintf(stderr, "hive-bench: cudaFreeAsync: %s\n", cudaGetErrorString(e));
}

extern "C" hive_allocator bench_gpu_allocator(void)
{
    hive_allocator a = {pool_alloc, pool_free, NULL};
    return a;
}

extern "C" int bench_gpu_memset(void *dev, int byte, size_t bytes)
{
    GPU_TRY(cudaMemsetAsync(dev, byte, bytes, g_stream));
    GPU_TRY(cudaStreamSynchronize(g_stream));
    return 0;
}

extern "C" int bench_gpu_to_host(void *host, const void *dev, size_t bytes)
{
    GPU_TRY(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, g_stream));
    GPU_TRY(cudaStreamSynchronize(g_stream));
    return 0;
}

extern "C" int bench_gpu_to_device(void *dev, const void *host, size_t bytes)
{
    GPU_TRY(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, g_stream));
    GPU_TRY(cudaStreamSynchronize(g_stream));
    return 0;
}

/* ---------------------------------------------------------------- timing */

extern "C" int bench_gpu_timer_start(void)
{
    GPU_TRY(cudaEventRecord(g_ev_start, g_stream));
    return 0;
}

extern "C" double bench_gpu_timer_stop(void)
{
    float ms = 0.0f;
    cudaError_t e = cudaEventRecord(g_ev_stop, g_stream);
    if (e == cudaSuccess)
        e = cudaEventSynchronize(g_ev_stop);
    if (e == cudaSuccess)
        e = cudaEventElapsedTime(&ms, g_ev_start, g_ev_stop);
    if (e != cudaSuccess) {
        fprintf(stderr, "hive-bench: timing events: %s\n", cudaGetErrorString(e));
        return -1.0;
    }
    return (double)ms * 1e-3;
}

/* ---------------------------------------------------------------- kernels */

static unsigned int grid_for(uint64_t n)
{
    uint64_t blocks = (n + BLOCK - 1) / BLOCK;
    uint64_t cap = (uint64_t)g_sms * 16;
    if (blocks > cap)
        blocks = cap;
    return blocks < 1 ? 1u : (unsigned int)blocks;
}

__global__ void k_fill(const bench_gen g, uint8_t *ops, void *keys, void *values)
{
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < g.n; i += stride)
        bench_fill_element(&g, i, ops, keys, values);
}

/* Adds a per-thread tally to counters[slot] with one atomic per warp. */
__device__ __forceinline__ void warp_add(unsigned long long *counters, int slot,
                                         unsigned long long v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0 && v != 0)
        atomicAdd(&counters[slot], v);
}

__global__ void k_check(const bench_gen g, const uint8_t *results, const uint8_t *found,
                        const void *values, unsigned long long *counters)
{
    unsigned long long any = 0, res = 0, fnd = 0, val = 0;
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < g.n; i += stride) {
        uint32_t bad = bench_check_element(&g, i, results, found, values);
        any += bad != 0;
        res += (bad & BENCH_BAD_RESULT) != 0;
        fnd += (bad & BENCH_BAD_FOUND) != 0;
        val += (bad & BENCH_BAD_VALUE) != 0;
    }
    /* every lane of every warp reaches here: the grid is whole blocks of 256 */
    warp_add(counters, 0, any);
    warp_add(counters, 1, res);
    warp_add(counters, 2, fnd);
    warp_add(counters, 3, val);
}

__global__ void k_check_export(const bench_live l, uint64_t count, const void *keys,
                               const void *values, unsigned long long *bitmap,
                               unsigned long long *counters)
{
    unsigned long long stray = 0, wrong = 0, dup = 0;
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
        uint64_t k, v;
        if (l.keys.bits == 32) {
            k = ((const uint32_t *)keys)[i];
            v = ((const uint32_t *)values)[i];
        } else {
            k = ((const uint64_t *)keys)[i];
            v = ((const uint64_t *)values)[i];
        }
        uint64_t bit = 0;
        uint32_t r = bench_export_element(&l, k, v, &bit);
        if (r == BENCH_EXPORT_STRAY) {
            stray++;
        } else if (r == BENCH_EXPORT_VALUE) {
            wrong++;
        } else {
            unsigned long long m = 1ull << (bit & 63);
            if (atomicOr(&bitmap[bit >> 6], m) & m)
                dup++;
        }
    }
    warp_add(counters, 0, stray);
    warp_add(counters, 1, wrong);
    warp_add(counters, 2, dup);
}

extern "C" int bench_gpu_fill(const bench_gen *g, uint8_t *dev_ops, void *dev_keys,
                              void *dev_values)
{
    if (g->n == 0)
        return 0;
    k_fill<<<grid_for(g->n), BLOCK, 0, g_stream>>>(*g, dev_ops, dev_keys, dev_values);
    GPU_TRY(cudaGetLastError());
    GPU_TRY(cudaStreamSynchronize(g_stream));
    return 0;
}

extern "C" int bench_gpu_check(const bench_gen *g, const uint8_t *dev_results,
                               const uint8_t *dev_found, const void *dev_values, uint64_t bad[4])
{
    unsigned long long host[4] = {0, 0, 0, 0};
    if (g->n > 0) {
        GPU_TRY(cudaMemsetAsync(g_counters, 0, 4 * sizeof *g_counters, g_stream));
        k_check<<<grid_for(g->n), BLOCK, 0, g_stream>>>(*g, dev_results, dev_found, dev_values,
                                                        g_counters);
        GPU_TRY(cudaGetLastError());
        GPU_TRY(cudaMemcpyAsync(host, g_counters, sizeof host, cudaMemcpyDeviceToHost, g_stream));
        GPU_TRY(cudaStreamSynchronize(g_stream));
    }
    for (int i = 0; i < 4; i++)
        bad[i] = host[i];
    return 0;
}

extern "C" int bench_gpu_check_export(const bench_live *l, uint64_t count, const void *dev_keys,
                                      const void *dev_values, uint64_t *dev_bitmap, uint64_t bad[3])
{
    unsigned long long host[3] = {0, 0, 0};
    uint64_t words = (l->total + 63) / 64 + 1;
    GPU_TRY(cudaMemsetAsync(dev_bitmap, 0, words * sizeof *dev_bitmap, g_stream));
    GPU_TRY(cudaMemsetAsync(g_counters, 0, 3 * sizeof *g_counters, g_stream));
    if (count > 0) {
        k_check_export<<<grid_for(count), BLOCK, 0, g_stream>>>(
            *l, count, dev_keys, dev_values, (unsigned long long *)dev_bitmap, g_counters);
        GPU_TRY(cudaGetLastError());
    }
    GPU_TRY(cudaMemcpyAsync(host, g_counters, sizeof host, cudaMemcpyDeviceToHost, g_stream));
    GPU_TRY(cudaStreamSynchronize(g_stream));
    for (int i = 0; i < 3; i++)
        bad[i] = host[i];
    return 0;
}
