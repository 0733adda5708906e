/* cuda_kernels64.cu — the KV64 kernels (64-bit keys and values in 16-byte
 * slots, published by one 128-bit CAS: sm_90), one thread per key, 4 to 32 slots per bucket. */
/* The Hive design's kernels, its operations inlined (designs/dispatch_body.h);
 * the double design's are cuda_kernels64_double.cu. */
#define HIVE_ONLY_DESIGN HIVE_DESIGN_ID_HIVE
#include "cuda_kernels.cuh"

HIVE_DEFINE_BATCH_KERNELS(64, 4)
HIVE_DEFINE_BATCH_KERNELS(64, 8)
HIVE_DEFINE_BATCH_KERNELS(64, 16)
HIVE_DEFINE_BATCH_KERNELS(64, 32)
HIVE_DEFINE_RESIZE_KERNEL(64, 4)
HIVE_DEFINE_RESIZE_KERNEL(64, 8)
HIVE_DEFINE_RESIZE_KERNEL(64, 16)
HIVE_DEFINE_RESIZE_KERNEL(64, 32)
HIVE_DEFINE_RETRY_KERNEL(64, 4)
HIVE_DEFINE_RETRY_KERNEL(64, 8)
HIVE_DEFINE_RETRY_KERNEL(64, 16)
HIVE_DEFINE_RETRY_KERNEL(64, 32)
HIVE_DEFINE_EXPORT_KERNEL(64, uint64_t)

#define THREADS(S)                                                                         \
    {64, S, 1, hive_find_kv64_s##S, hive_upsert_kv64_s##S, hive_erase_kv64_s##S,           \
     hive_mixed_kv64_s##S, hive_deferred_kv64_s##S, hive_deferred_deep_kv64_s##S, NULL,   \
     hive_retry_kv64_s##S, hive_resize_kv64_s##S, (hive_export_kernel)hive_export_kv64}

extern const hive_geometry_kernels hive_cuda_kernels64[] = {
    THREADS(4), THREADS(8), THREADS(16), THREADS(32),
    {0, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};
