/* cuda_kernels32.cu — the KV32 kernels: one thread per key for 4/8/16/32-slot
 * buckets, and tiles of lanes per key for a few geometries, among them the
 * paper's (32 slots, one warp).  Kept apart from the KV64 kernels so the two
 * compile in parallel. */
#include "cuda_kernels.cuh"

#define K_W 32
#define K_SUFFIX(name) name##_kv32
#define K_KEY uint32_t
#define K_SLOT_WORDS 1
#define K_SLOT_KEY(s) hive_slot_key32(*(s))
#define K_SLOT_VALUE(s) hive_slot_value32(*(s))
#define K_RESERVED(k) hive_k32_reserved(k)
#define K_TILES 1
#define K_FULL_HINT 1
#include "cuda_kernels_body.cuh"

/* One thread per key. */
#define K_S 4
#include "cuda_kernels_bucket.cuh"
#define K_S 8
#include "cuda_kernels_bucket.cuh"
#define K_S 16
#include "cuda_kernels_bucket.cuh"
#define K_S 32
#include "cuda_kernels_bucket.cuh"

/* Tiles of K_T lanes per key. */
#define K_S 8
#define K_T 4
#include "cuda_kernels_tile.cuh"
#define K_S 16
#define K_T 8
#include "cuda_kernels_tile.cuh"
#define K_S 32
#define K_T 8
#include "cuda_kernels_tile.cuh"
#define K_S 32
#define K_T 32
#include "cuda_kernels_tile.cuh"

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
