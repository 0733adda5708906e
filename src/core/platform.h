/* platform.h — one spelling for functions that compile as C11 and as CUDA
 * host+device code, so the hashing and slot rules exist once for both backends. */
#ifndef HIVE_CORE_PLATFORM_H
#define HIVE_CORE_PLATFORM_H

#ifdef __CUDACC__
#define HIVE_HD __host__ __device__ __forceinline__
#else
#define HIVE_HD static inline
#endif

#endif
