/* cuda_kernels_tile.cuh — the four batch kernels of one KV32 tile geometry:
 * buckets of K_S slots, K_T lanes per key (hive_tile_pass_kv32 of
 * cuda_kernels_body.cuh, with the geometry as constants).  Their retry and
 * resize are those of the bucket size (cuda_kernels_bucket.cuh).  Included
 * by cuda_kernels32.cu once per geometry with K_S and K_T defined as numbers
 * (they name the kernels: hive_find_kv32_s32_t32 & co.); it #undefs them.
 * No include guard on purpose. */

#define K_NAME(op) HIVE_TILE_KERNEL_NAME(op, K_S, K_T)

__global__ void __launch_bounds__(HIVE_THREADS) K_NAME(hive_find)(hive_view v, hive_batch b, uint64_t *counters)
{
    hive_tile_pass_kv32(v, K_S, K_T, b, counters, HIVE_OP_FIND);
}

__global__ void __launch_bounds__(HIVE_THREADS) K_NAME(hive_upsert)(hive_view v, hive_batch b, uint64_t *counters)
{
    hive_tile_pass_kv32(v, K_S, K_T, b, counters, HIVE_OP_UPSERT);
}

__global__ void __launch_bounds__(HIVE_THREADS) K_NAME(hive_erase)(hive_view v, hive_batch b, uint64_t *counters)
{
    hive_tile_pass_kv32(v, K_S, K_T, b, counters, HIVE_OP_ERASE);
}

__global__ void __launch_bounds__(HIVE_THREADS) K_NAME(hive_mixed)(hive_view v, hive_batch b, uint64_t *counters)
{
    hive_tile_pass_kv32(v, K_S, K_T, b, counters, -1);
}

#undef K_NAME
#undef K_S
#undef K_T
