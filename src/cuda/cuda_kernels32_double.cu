/* cuda_kernels32_double.cu — the KV32 kernels of the double design
 * (designs/double/): the kernels of cuda_kernels32.cu, compiled from the same
 * macros with the double design's operations inlined in place of the Hive
 * design's (HIVE_ONLY_DESIGN, designs/dispatch_body.h), so that neither
 * design's kernels carry the other's code and the Hive design's stay the
 * code they were.  In a namespace of their own, so that their names do not
 * clash with those; a table takes its design's kernels (hive_cuda_kernels).
 * No full-bit kernel: the full bits are a hint for cuckoo eviction. */
#define HIVE_ONLY_DESIGN HIVE_DESIGN_ID_DOUBLE
#include <stdint.h>

#include "core/marks.h"
#include "designs/designs.h"
#include "cuda_table.h"

namespace hive_double {
#include "cuda_kernels.cuh"

HIVE_DEFINE_BATCH_KERNELS(32, 4)
HIVE_DEFINE_BATCH_KERNELS(32, 8)
HIVE_DEFINE_BATCH_KERNELS(32, 16)
HIVE_DEFINE_BATCH_KERNELS(32, 32)
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
} // namespace hive_double

#define D(name) hive_double::name
#define THREADS(S)                                                                                 \
    {32, S, 1, D(hive_find_kv32_s##S), D(hive_upsert_kv32_s##S), D(hive_erase_kv32_s##S),          \
     D(hive_mixed_kv32_s##S), D(hive_deferred_kv32_s##S), D(hive_deferred_deep_kv32_s##S), NULL, \
     D(hive_retry_kv32_s##S), D(hive_resize_kv32_s##S), (hive_export_kernel)D(hive_export_kv32)}
#define TILES(S, T)                                                                                \
    {32, S, T, D(hive_find_kv32_s##S##_t##T), D(hive_upsert_kv32_s##S##_t##T),                       \
     D(hive_erase_kv32_s##S##_t##T), D(hive_mixed_kv32_s##S##_t##T), NULL, NULL, NULL,               \
     D(hive_retry_kv32_s##S), D(hive_resize_kv32_s##S), (hive_export_kernel)D(hive_export_kv32)}

extern const hive_geometry_kernels hive_cuda_kernels32_double[] = {
    THREADS(4),    THREADS(8),     THREADS(16),    THREADS(32),
    TILES(8, 4),   TILES(16, 8),   TILES(32, 8),   TILES(32, 32),
    {0, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};
