/* cuda_check.h — turn a failed CUDA runtime call into HIVE_ERROR_CUDA (or
 * OUT_OF_MEMORY) with the call and CUDA's message in hive_last_error(). */
#ifndef HIVE_DICT_CUDA_CHECK_H
#define HIVE_DICT_CUDA_CHECK_H

#include <cuda_runtime.h>

#include "base/check.h"

static inline hive_status hive_cuda_status(cudaError_t e, const char *call, const char *what)
{
    if (e == cudaSuccess)
        return HIVE_SUCCESS;
    cudaGetLastError(); /* clear the sticky-free error so later calls start clean */
    if (e == cudaErrorMemoryAllocation)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "%s: %s", what, cudaGetErrorString(e));
    if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver || e == cudaErrorInvalidDevice)
        return hive_fail(HIVE_ERROR_NO_DEVICE, call, "%s: %s", what, cudaGetErrorString(e));
    return hive_fail(HIVE_ERROR_CUDA, call, "%s: %s", what, cudaGetErrorString(e));
}

/* Return from the enclosing function on failure. */
#define HIVE_CUDA_TRY(expr, call) HIVE_TRY(hive_cuda_status((expr), (call), #expr))

#endif
