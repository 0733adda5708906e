/* cuda_kernels64_set.cuh — every KV64 kernel of one design and the table of
 * them that hive_cuda_kernels (cuda_batch.cu) looks geometries up in: 64-bit
 * keys and values in 16-byte slots, published by one 128-bit CAS (sm_90), one
 * thread per key, 4 to 32 slots per bucket.  Included once
 * by each design's KV64 file (cuda_kernels64.cu, cuda_kernels64_double.cu),
 * which defines first:
 *   HIVE_ONLY_DESIGN  the design whose operations the kernels inline
 *                     (designs/dispatch_body.h)
 *   HIVE_ONLY_NAME    for a design other than Hive, its name (the suffix of
 *                     its operations)
 *   K_NAMESPACE       where the kernels live, so two designs' kernels of one
 *                     name do not clash
 *   K_TABLE           the table's name (declared in cuda_batch.cu)
 * KV64 tables take no full bits. */
#include "cuda_kernels.cuh"

#define K_FULL_HINT 0

namespace K_NAMESPACE {
#define K_W 64
#define K_SUFFIX(name) name##_kv64
#define K_KEY uint64_t
#define K_SLOT_WORDS 2
#define K_SLOT_KEY(s) ((s)[0])
#define K_SLOT_VALUE(s) ((s)[1])
#define K_RESERVED(k) hive_k64_reserved(k)
#define K_TILES 0
#include "cuda_kernels_body.cuh"

/* The table that hive_cuda_kernels (cuda_batch.cu) looks geometries up in,
 * ending in a row of width 0: buckets of s slots, one thread per key (KV64
 * tables take no full bits). */
#define THREADS(s)                                                                                  \
    {.width = 64, .S = s, .T = 1, .find = hive_find_kv64_s##s, .upsert = hive_upsert_kv64_s##s,     \
     .erase = hive_erase_kv64_s##s, .mixed = hive_mixed_kv64_s##s,                                  \
     .deferred = hive_deferred_kv64_s##s, .deferred_deep = hive_deferred_deep_kv64_s##s,            \
     .retry = hive_retry_kv64_s##s, .resize = hive_resize_kv64_s##s,                                \
     .export_pairs = (hive_export_kernel)hive_export_kv64,                                          \
     .count_new = hive_count_new_kv64}

const hive_geometry_kernels table[] = {
    THREADS(4), THREADS(8), THREADS(16), THREADS(32),
    {.width = 0},
};
} // namespace K_NAMESPACE

extern const hive_geometry_kernels *const K_TABLE = K_NAMESPACE::table;
