/* cuda_driver.h — CUDA driver functions, looked up through the runtime
 * (cudaGetDriverEntryPointByVersion): hive does not link libcuda, and runs
 * on machines without a GPU. */
#ifndef HIVE_DICT_CUDA_DRIVER_H
#define HIVE_DICT_CUDA_DRIVER_H

#include <cuda_runtime.h>

/* The driver's function `name` as of CUDA version `version` (10020 for
 * 10.2), or NULL if this driver has none. */
static inline void *hive_driver_entry(const char *name, unsigned version)
{
    void *fn = NULL;
    cudaDriverEntryPointQueryResult found;
    if (cudaGetDriverEntryPointByVersion(name, &fn, version, cudaEnableDefault, &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
        cudaGetLastError();
        return NULL;
    }
    return fn;
}

#endif
