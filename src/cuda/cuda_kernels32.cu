/* cuda_kernels32.cu — the KV32 kernels: one thread per key for 4/8/16/32-slot
 * buckets, and tiles of lanes per key for a few geometries, among them the
 * paper's (32 slots, one warp).  Kept apart from the KV64 kernels so the two
 * compile in parallel. */
/* The Hive design's kernels, its operations inlined (designs/dispatch_body.h);
 * the double design's are cuda_kernels32_double.cu. */
#define HIVE_ONLY_DESIGN HIVE_DESIGN_ID_HIVE
#include "cuda_kernels.cuh"

HIVE_DEFINE_BATCH_KERNELS(32, 4)
HIVE_DEFINE_BATCH_KERNELS(32, 8)
HIVE_DEFINE_BATCH_KERNELS(32, 16)
HIVE_DEFINE_BATCH_KERNELS(32, 32)
HIVE_DEFINE_HINT_KERNEL(hive_full_hint_kv32_s4, 4)
HIVE_DEFINE_HINT_KERNEL(hive_full_hint_kv32_s8, 8)
HIVE_DEFINE_HINT_KERNEL(hive_full_hint_kv32_s16, 16)
HIVE_DEFINE_HINT_KERNEL(hive_full_hint_kv32_s32, 32)
HIVE_DEFINE_TILE_KERNELS(8, 4)
HIVE_DEFINE_TILE_KERNELS(16, 8)
HIVE_DEFINE_TILE_KERNELS(32, 8)
HIVE_DEFINE_TILE_KERNELS(32, 32)
HIVE_DEFINE_RESIZE_KERNEL(32, 4)
HIVE_DEFINE_RESIZE_KERNEL(32, 8)
HIVE_DEFINE_RESIZE_KERNEL(32, 16)
HIVE_DEFINE_RESIZE_KERNEL(32, 32)
HIVE_DEFINE_RETRY_KERNEL(32, 4)
HIVE_DEFINE_RETRY_KERNEL(32, 8)
HIVE_DEFINE_RETRY_KERNEL(32, 16)
HIVE_DEFINE_RETRY_KERNEL(32, 32)
HIVE_DEFINE_EXPORT_KERNEL(32, uint32_t)

#define THREADS(S)                                                                         \
    {32, S, 1, hive_find_kv32_s##S, hive_upsert_kv32_s##S, hive_erase_kv32_s##S,           \
     hive_mixed_kv32_s##S, hive_deferred_kv32_s##S, hive_deferred_deep_kv32_s##S,         \
     hive_full_hint_kv32_s##S,                                                            \
     hive_retry_kv32_s##S, hive_resize_kv32_s##S, (hive_export_kernel)hive_export_kv32}
#define TILES(S, T)                                                                        \
    {32, S, T, hive_find_kv32_s##S##_t##T, hive_upsert_kv32_s##S##_t##T,                     \
     hive_erase_kv32_s##S##_t##T, hive_mixed_kv32_s##S##_t##T, NULL, NULL, NULL,           \
     hive_retry_kv32_s##S,                                                                 \
     hive_resize_kv32_s##S, (hive_export_kernel)hive_export_kv32}

extern const hive_geometry_kernels hive_cuda_kernels32[] = {
    THREADS(4),    THREADS(8),     THREADS(16),    THREADS(32),
    TILES(8, 4),   TILES(16, 8),   TILES(32, 8),   TILES(32, 32),
    {0, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};
