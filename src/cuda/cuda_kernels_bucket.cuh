/* cuda_kernels_bucket.cuh — the kernels of one key width
 * (cuda_kernels_body.cuh) for buckets of K_S slots, one thread per key: the
 * four batch kernels, the two that finish their deferred inserts, the one
 * that takes the full bits for those (KV32), the retry and the resize.  Each
 * runs a loop of cuda_kernels_body.cuh with the bucket size as a constant.
 * Included once per bucket size with K_S defined as a number (it names the
 * kernels: hive_find_kv32_s8 & co.); it #undefs it.  No include guard on
 * purpose. */

#define K_NAME(op) HIVE_KERNEL_NAME(op, K_W, K_S)

static_assert(K_S * K_SLOT_WORDS * sizeof(uint64_t) % HIVE_SECTOR_BYTES == 0,
              "a bucket is whole sectors: the scans load one at a time (core/slot.h)");

__global__ void __launch_bounds__(HIVE_THREADS, HIVE_BATCH_MIN_BLOCKS(K_W, K_S))
    K_NAME(hive_find)(hive_view v, hive_batch b, uint64_t *counters)
{
    K_SUFFIX(hive_batch_pass)(v, K_S, b, counters, HIVE_OP_FIND);
}

__global__ void __launch_bounds__(HIVE_THREADS, HIVE_BATCH_MIN_BLOCKS(K_W, K_S))
    K_NAME(hive_upsert)(hive_view v, hive_batch b, uint64_t *counters)
{
    K_SUFFIX(hive_batch_pass)(v, K_S, b, counters, HIVE_OP_UPSERT);
}

__global__ void __launch_bounds__(HIVE_THREADS, HIVE_BATCH_MIN_BLOCKS(K_W, K_S))
    K_NAME(hive_erase)(hive_view v, hive_batch b, uint64_t *counters)
{
    K_SUFFIX(hive_batch_pass)(v, K_S, b, counters, HIVE_OP_ERASE);
}

__global__ void __launch_bounds__(HIVE_THREADS, HIVE_BATCH_MIN_BLOCKS(K_W, K_S))
    K_NAME(hive_mixed)(hive_view v, hive_batch b, uint64_t *counters)
{
    K_SUFFIX(hive_batch_pass)(v, K_S, b, counters, -1);
}

__global__ void __launch_bounds__(HIVE_THREADS, HIVE_DEFERRED_MIN_BLOCKS(K_W))
    K_NAME(hive_deferred)(hive_view v, hive_batch b, uint64_t *counters)
{
    K_SUFFIX(hive_deferred_pass)(v, K_S, b, counters, 2);
}

__global__ void __launch_bounds__(HIVE_THREADS, HIVE_DEFERRED_MIN_BLOCKS(K_W))
    K_NAME(hive_deferred_deep)(hive_view v, hive_batch b, uint64_t *counters)
{
    K_SUFFIX(hive_deferred_pass)(v, K_S, b, counters, 3);
}

#if K_FULL_HINT
__global__ void __launch_bounds__(HIVE_THREADS) K_NAME(hive_full_hint)(hive_view v, hive_batch b, uint64_t *counters)
{
    (void)b;
    K_SUFFIX(hive_full_hint_pass)(v, K_S, counters);
}
#endif

__global__ void __launch_bounds__(HIVE_THREADS) K_NAME(hive_retry)(hive_view v, hive_batch b, uint64_t *counters)
{
    K_SUFFIX(hive_retry_pass)(v, K_S, b, counters);
}

__global__ void __launch_bounds__(HIVE_THREADS) K_NAME(hive_resize)(int op, hive_view v, hive_view to, hive_index ix,
                                                                     uint64_t begin, uint64_t end, uint64_t *counters)
{
    K_SUFFIX(hive_resize_pass)(op, v, to, K_S, ix, begin, end, counters);
}

#undef K_NAME
#undef K_S
