/* gpu_try.cuh — what hive-bench's CUDA files share: a CUDA call that fails
 * prints where and why and makes the function return -1, and the block size
 * of the bench's own kernels. */
#ifndef BENCH_GPU_TRY_CUH
#define BENCH_GPU_TRY_CUH

#include <cuda_runtime.h>
#include <stdio.h>

#define GPU_TRY(call)                                                                      \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "hive-bench: %s failed (%s:%d): %s\n", #call, __FILE__, __LINE__, \
                    cudaGetErrorString(e_));                                               \
            return -1;                                                                     \
        }                                                                                  \
    } while (0)

#define BLOCK 256

#endif
