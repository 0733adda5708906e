/* gpu.h — the C face of hive-bench's CUDA code (gpu_buffers.cu: device
 * buffers, events, fill and check kernels; limits.cu: the hardware ceilings).
 * Built only when HIVE_WITH_CUDA is ON (BENCH_WITH_CUDA defined).
 *
 * Every function returns 0 on success, or -1 after printing which CUDA call
 * failed and why (cudaGetErrorString) to stderr.  Pointers named dev_* are
 * device memory; `stream` is the stream every call is enqueued on, and each
 * call below has finished (synchronised) when it returns. */
#ifndef HIVE_BENCH_GPU_H
#define HIVE_BENCH_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "gen.h"
#include "hive.h"
#include "spread.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_gpu_info {
    char name[256];
    char driver[96];        /* NVIDIA driver version (NVML), else the CUDA driver API version */
    int runtime_version;    /* cudaRuntimeGetVersion */
    int sms;
    int cc_major, cc_minor;
    uint64_t l2_bytes;
    uint64_t mem_total;
} bench_gpu_info;

/* Number of usable CUDA devices (0 when none, or when the driver is absent). */
int bench_gpu_count(void);
/* Selects device 0, creates the context, a stream and two timing events. */
int bench_gpu_init(bench_gpu_info *info, hive_stream *stream);
void bench_gpu_shutdown(void);
int bench_gpu_mem_info(uint64_t *free_bytes, uint64_t *total_bytes);

void *bench_gpu_malloc(size_t bytes); /* NULL (message printed) on failure */
void bench_gpu_free(void *dev);
/* Page-locked host memory mapped for the device (cudaHostAlloc, mapped and
 * portable): NULL (message printed) on failure. */
void *bench_gpu_host_alloc(size_t bytes);
void bench_gpu_host_free(void *p);
/* hive_config.allocator over cudaMallocAsync / cudaFreeAsync (--allocator). */
hive_allocator bench_gpu_allocator(void);
int bench_gpu_memset(void *dev, int byte, size_t bytes);
int bench_gpu_to_host(void *host, const void *dev, size_t bytes);
int bench_gpu_to_device(void *dev, const void *host, size_t bytes);

/* CUDA events around host code: start records an event on the stream, stop
 * records another, waits for it and returns the seconds in between (< 0 on
 * error). */
int bench_gpu_timer_start(void);
double bench_gpu_timer_stop(void);

/* Fills dev_ops / dev_keys / dev_values (each may be NULL) for g's n elements. */
int bench_gpu_fill(const bench_gen *g, uint8_t *dev_ops, void *dev_keys, void *dev_values);
/* Counts elements whose outcome fails bench_check_element:
 * bad[0] any failure, bad[1] result code, bad[2] found flag, bad[3] value. */
int bench_gpu_check(const bench_gen *g, const uint8_t *dev_results, const uint8_t *dev_found,
                    const void *dev_values, uint64_t bad[4]);
/* Checks count exported pairs against l: bad[0] strays, bad[1] wrong values,
 * bad[2] keys seen twice.  dev_bitmap: (l->total + 63) / 64 words, zeroed here. */
int bench_gpu_check_export(const bench_live *l, uint64_t count, const void *dev_keys,
                           const void *dev_values, uint64_t *dev_bitmap, uint64_t bad[3]);

/* The ceilings every GPU figure is divided by (limits.cu).  Each rate is the
 * median of `runs` timed launches after one warm-up, with the slowest and the
 * fastest launch's rates beside it. */
typedef struct bench_limits {
    uint64_t buffer_bytes;        /* random-access buffer: >= 8 x L2, >= 1 GiB */
    uint64_t l2_bytes;
    bench_spread copy_bytes_per_s; /* device-to-device copy, bytes read + written */
    bench_spread line128_per_s;   /* random aligned 128-byte lines, one warp each */
    bench_spread line256_per_s;   /* random aligned 256-byte blocks, one warp each */
    bench_spread sector_per_s;    /* random aligned 8-byte words, one thread each (one sector) */
    bench_spread cas_per_s;       /* random 64-bit atomicCAS, one thread each */
    bench_spread index_per_s;     /* the sector kernel on an 8 KiB (L1) buffer: index generation */
    /* Host memory over PCIe (the cache's value tier, docs/cache.md): pinned
     * host buffer of host_bytes, each rate bytes moved per second. */
    uint64_t host_bytes;
    bench_spread h2d_bytes_per_s;         /* cudaMemcpyAsync pinned host to device */
    bench_spread d2h_bytes_per_s;         /* cudaMemcpyAsync device to pinned host */
    bench_spread mapped_read_bytes_per_s; /* a kernel reading mapped host memory, 16 B a lane, in order */
    bench_spread mapped_write_bytes_per_s; /* a kernel writing it likewise */
    bench_spread mapped_line128_per_s;    /* random 128-byte lines of mapped host memory, a warp each */
} bench_limits;

int bench_gpu_limits(bench_limits *out, int runs);

#ifdef __cplusplus
}
#endif

#endif
