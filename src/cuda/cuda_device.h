/* cuda_device.h — what every CUDA backend entry does around its work: run
 * on the table's device and give the caller's current device back, and
 * allocate device memory with the failure-injection hook and the status
 * the API promises.  Included by the backends' .cu files (the dictionary's
 * cuda_table.cu, the cache's cuda_cache.cu). */
#ifndef HIVE_CUDA_DEVICE_H
#define HIVE_CUDA_DEVICE_H

#include <cuda_runtime.h>

#include "base/alloc.h"
#include "base/check.h"
#include "cuda_check.h"

/* Runs the rest of a backend entry on the table's device and puts the
 * caller's current device back afterwards. */
typedef struct device_scope {
    int previous;
} device_scope;

static inline hive_status enter_device(int device, device_scope *scope, const char *call)
{
    HIVE_CUDA_TRY(cudaGetDevice(&scope->previous), call);
    if (scope->previous != device)
        HIVE_CUDA_TRY(cudaSetDevice(device), call);
    return HIVE_SUCCESS;
}

/* For work that reports no status (giving memory back): 1 if it may go on
 * on the table's device, leaving the last-error text alone either way. */
static inline int enter_device_quietly(int device, device_scope *scope)
{
    if (cudaGetDevice(&scope->previous) != cudaSuccess ||
        (scope->previous != device && cudaSetDevice(device) != cudaSuccess)) {
        cudaGetLastError();
        return 0;
    }
    return 1;
}

static inline void leave_device(int device, const device_scope *scope)
{
    if (scope->previous != device)
        cudaSetDevice(scope->previous);
}

/* Returns `expr` (a hive_status), evaluated on the table's device. */
#define RETURN_ON_DEVICE(table, call, expr)                         \
    do {                                                            \
        device_scope scope_;                                        \
        HIVE_TRY(enter_device((table)->device, &scope_, (call)));   \
        hive_status status_ = (expr);                               \
        leave_device((table)->device, &scope_);                     \
        return status_;                                             \
    } while (0)

static inline hive_status device_alloc(void **p, size_t bytes, const char *call, const char *what)
{
    *p = NULL;
    if (bytes == 0)
        return HIVE_SUCCESS;
    if (hive_alloc_should_fail())
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "%s: injected allocation failure", what);
    cudaError_t e = cudaMalloc(p, bytes);
    if (e != cudaSuccess) {
        *p = NULL;
        cudaGetLastError();
        return hive_fail(e == cudaErrorMemoryAllocation ? HIVE_ERROR_OUT_OF_MEMORY : HIVE_ERROR_CUDA,
                         call, "cudaMalloc(%s, %zu bytes): %s", what, bytes, cudaGetErrorString(e));
    }
    return HIVE_SUCCESS;
}

/* The compute capability (major * 10 + minor) a table needs of its device:
 * the oldest the library's kernels were built for (HIVE_CUDA_OLDEST_CC, from
 * CMake's CUDA architectures: each major version from there up has code,
 * and the newest has PTX too, which newer GPUs compile when loading), and
 * 9.0 for the dictionary's KV64 slots, whose 16-byte CAS (atom.cas.b128)
 * Hopper introduced. */
#define HIVE_CC_KV64 90
static inline int needed_capability(int kv64_slots)
{
    return kv64_slots && HIVE_CC_KV64 > HIVE_CUDA_OLDEST_CC ? HIVE_CC_KV64 : HIVE_CUDA_OLDEST_CC;
}

/* The device's properties, or UNSUPPORTED naming `call` where its compute
 * capability is below `needed` (needed_capability). */
static inline hive_status device_properties(int device, cudaDeviceProp *prop, int needed, const char *what,
                                            const char *call)
{
    HIVE_TRY(hive_cuda_status(cudaGetDeviceProperties(prop, device), call, "cudaGetDeviceProperties"));
    int cc = hive_test_capability(prop->major * 10 + prop->minor);
    if (cc < needed)
        return hive_fail(HIVE_ERROR_UNSUPPORTED, call,
                         "device %d is compute capability %d.%d; %s needs %d.%d or newer%s", device, cc / 10,
                         cc % 10, what, needed / 10, needed % 10,
                         needed == HIVE_CC_KV64 ? " (a 16-byte CAS per slot); KV32 tables and the cache table "
                                                  "run on older GPUs, and the CPU backend everywhere"
                                                : " in this build (CMake's CUDA architectures)");
    return HIVE_SUCCESS;
}

#endif
