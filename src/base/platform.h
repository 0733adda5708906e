/* platform.h — one spelling for functions that compile as C11 and as CUDA
 * host+device code, so the hashing and slot rules exist once for both backends. */
#ifndef HIVE_CORE_PLATFORM_H
#define HIVE_CORE_PLATFORM_H

#ifdef __CUDACC__
#define HIVE_HD __host__ __device__ __forceinline__
#else
#define HIVE_HD static inline
#endif

/* Loop unrolling for nvcc (a GPU thread's independent loads must be issued
 * together); host compilers leave the loop as it is. */
#ifdef __CUDACC__
#define HIVE_UNROLL _Pragma("unroll")
#define HIVE_NO_UNROLL _Pragma("unroll 1")
#else
#define HIVE_UNROLL
#define HIVE_NO_UNROLL
#endif

#endif
