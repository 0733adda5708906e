/* cuda_kernels32_set.cuh — every KV32 kernel of one design and the table of
 * them that hive_cuda_kernels (cuda_batch.cu) looks geometries up in: one
 * thread per key for 4/8/16/32-slot buckets, and tiles of lanes per key for a
 * few geometries, among them the paper's (32 slots, one warp).  Included once
 * by each design's KV32 file (cuda_kernels32.cu, cuda_kernels32_double.cu),
 * which defines first:
 *   HIVE_ONLY_DESIGN  the design whose operations the kernels inline
 *                     (designs/dispatch_body.h)
 *   HIVE_ONLY_NAME    for a design other than Hive, its name (the suffix of
 *                     its operations)
 *   K_NAMESPACE       where the kernels live, so two designs' kernels of one
 *                     name do not clash
 *   K_TABLE           the table's name (declared in cuda_batch.cu)
 *   K_FULL_HINT       1: the deferred kernels take full bits, a hint for
 *                     cuckoo eviction (the Hive design) */
#include "cuda_kernels.cuh"

#if K_FULL_HINT
#define K_FULL_HINT_KERNEL(k) k
#else
#define K_FULL_HINT_KERNEL(k) NULL
#endif

namespace K_NAMESPACE {
#define K_W 32
#define K_SUFFIX(name) name##_kv32
#define K_KEY uint32_t
#define K_SLOT_WORDS 1
#define K_SLOT_KEY(s) hive_slot_key32(*(s))
#define K_SLOT_VALUE(s) hive_slot_value32(*(s))
#define K_RESERVED(k) hive_k32_reserved(k)
#define K_TILES 1
#include "cuda_kernels_body.cuh"

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

/* The table that hive_cuda_kernels (cuda_batch.cu) looks geometries up in,
 * ending in a row of width 0.  THREADS: buckets of s slots, one thread per
 * key; TILES: t lanes per key, which run inserts whole (no deferred kernels)
 * and share the retry and resize kernels of their bucket size. */
#define THREADS(s)                                                                                  \
    {.width = 32, .S = s, .T = 1, .find = hive_find_kv32_s##s, .upsert = hive_upsert_kv32_s##s,     \
     .erase = hive_erase_kv32_s##s, .mixed = hive_mixed_kv32_s##s,                                  \
     .deferred = hive_deferred_kv32_s##s, .deferred_deep = hive_deferred_deep_kv32_s##s,            \
     .full_hint = K_FULL_HINT_KERNEL(hive_full_hint_kv32_s##s), .retry = hive_retry_kv32_s##s,      \
     .resize = hive_resize_kv32_s##s, .export_pairs = (hive_export_kernel)hive_export_kv32,         \
     .count_new = hive_count_new_kv32}
#define TILES(s, t)                                                                                 \
    {.width = 32, .S = s, .T = t, .find = hive_find_kv32_s##s##_t##t,                               \
     .upsert = hive_upsert_kv32_s##s##_t##t, .erase = hive_erase_kv32_s##s##_t##t,                  \
     .mixed = hive_mixed_kv32_s##s##_t##t, .retry = hive_retry_kv32_s##s,                           \
     .resize = hive_resize_kv32_s##s, .export_pairs = (hive_export_kernel)hive_export_kv32,         \
     .count_new = hive_count_new_kv32}

const hive_geometry_kernels table[] = {
    THREADS(4),  THREADS(8),   THREADS(16),  THREADS(32),
    TILES(8, 4), TILES(16, 8), TILES(32, 8), TILES(32, 32),
    {.width = 0},
};
} // namespace K_NAMESPACE

extern const hive_geometry_kernels *const K_TABLE = K_NAMESPACE::table;
