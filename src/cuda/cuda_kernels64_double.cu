/* cuda_kernels64_double.cu — the KV64 kernels of the double design, as
 * cuda_kernels32_double.cu is for KV32 (which says why a file of their own). */
#define HIVE_ONLY_DESIGN HIVE_DESIGN_ID_DOUBLE
#include <stdint.h>

#include "core/marks.h"
#include "designs/designs.h"
#include "cuda_table.h"

namespace hive_double {
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
} // namespace hive_double

#define D(name) hive_double::name
#define THREADS(S)                                                                                 \
    {64, S, 1, D(hive_find_kv64_s##S), D(hive_upsert_kv64_s##S), D(hive_erase_kv64_s##S),          \
     D(hive_mixed_kv64_s##S), D(hive_deferred_kv64_s##S), D(hive_deferred_deep_kv64_s##S), NULL, \
     D(hive_retry_kv64_s##S), D(hive_resize_kv64_s##S), (hive_export_kernel)D(hive_export_kv64)}

extern const hive_geometry_kernels hive_cuda_kernels64_double[] = {
    THREADS(4), THREADS(8), THREADS(16), THREADS(32),
    {0, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};
