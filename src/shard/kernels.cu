/* kernels.cu — partitioning a batch by owner, and the results back in input
 * order (kernels.h). */
#include "kernels.h"

#include "hive.h"
#include "route.h"

#define SHARD_BLOCK 256

static int shard_grid(uint64_t n)
{
    uint64_t blocks = (n + SHARD_BLOCK - 1) / SHARD_BLOCK;
    /* Enough blocks to fill any GPU several times over; the loops stride. */
    return (int)(blocks < 65536 ? (blocks > 0 ? blocks : 1) : 65536);
}

__device__ __forceinline__ uint64_t shard_key_at(const void *keys, int kv64, uint64_t i)
{
    return kv64 ? ((const uint64_t *)keys)[i] : (uint64_t)((const uint32_t *)keys)[i];
}

__device__ __forceinline__ int shard_key_reserved(uint64_t key, int kv64)
{
    return kv64 ? key >= HIVE_KV64_RESERVED_MIN : key >= HIVE_KV32_RESERVED_MIN;
}

/* Per-block histogram in shared memory, then one global atomic per owner a
 * block. */
__global__ void shard_count_kernel(const void *keys, int kv64, uint32_t n, uint32_t ranks, uint32_t rank,
                                   int count_reserved, const uint8_t *ops, int values_absent,
                                   unsigned long long *meta)
{
    extern __shared__ unsigned int histogram[];
    for (uint32_t r = threadIdx.x; r < ranks; r += blockDim.x)
        histogram[r] = 0;
    __syncthreads();
    unsigned int reserved = 0, inserting = 0;
    unsigned lane = threadIdx.x & 31u;
    for (uint64_t base = (uint64_t)blockIdx.x * blockDim.x; base < n; base += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t i = base + threadIdx.x;
        int valid = i < n;
        unsigned mask = __ballot_sync(0xffffffffu, valid);
        if (!valid)
            continue;
        uint64_t key = shard_key_at(keys, kv64, i);
        uint32_t owner = shard_route(key, ranks);
        /* One shared atomic for the lanes with one owner: with few ranks,
         * most of a block's keys share an owner and its counter. */
        unsigned group = __match_any_sync(mask, owner);
        if (lane == __ffs(group) - 1)
            atomicAdd(&histogram[owner], (unsigned)__popc(group));
        reserved += count_reserved && shard_key_reserved(key, kv64);
        if (ops != NULL && values_absent)
            inserting += ops[i] == HIVE_OP_INSERT || ops[i] == HIVE_OP_UPSERT;
    }
    if (reserved)
        atomicAdd(&meta[SHARD_META_RESERVED], (unsigned long long)reserved);
    if (inserting)
        atomicMax(&meta[SHARD_META_STATUS],
                  (unsigned long long)SHARD_STATUS_WORD(HIVE_ERROR_INVALID_ARGUMENT, rank));
    __syncthreads();
    for (uint32_t r = threadIdx.x; r < ranks; r += blockDim.x)
        if (histogram[r])
            atomicAdd(&meta[SHARD_META_COUNTS + r], (unsigned long long)histogram[r]);
}

/* The cursors start at each owner's segment: the exclusive prefix sum of
 * the counts (few ranks: one thread). */
__global__ void shard_prefix_kernel(uint32_t ranks, unsigned long long *meta)
{
    unsigned long long at = 0;
    for (uint32_t r = 0; r < ranks; r++) {
        meta[SHARD_META_COUNTS + 2 * ranks + r] = at;
        at += meta[SHARD_META_COUNTS + r];
    }
}

/* A block takes a tile of SHARD_TILE_ITEMS keys a thread.  Lanes of a warp
 * with the same owner take consecutive places in the block's share of that
 * owner's segment (one shared atomic a group), and the block takes its
 * shares with one global atomic an owner: a global atomic a warp would
 * serialise every warp of the GPU on the cursor of an owner that most keys
 * go to (all of them, with one rank).  A segment keeps the batch's order
 * warp by warp, so the gather back reads whole sectors. */
#define SHARD_TILE_ITEMS 8

__global__ void shard_scatter_kernel(const void *keys, const void *values, const uint8_t *ops, int kv64, uint32_t n,
                                     uint32_t ranks, unsigned long long *meta, uint32_t *pos, void *send_keys,
                                     void *send_values, uint8_t *send_ops)
{
    extern __shared__ unsigned long long share[]; /* per owner: the block's count, then its first place */
    unsigned long long *cursor = meta + SHARD_META_COUNTS + 2 * ranks;
    unsigned lane = threadIdx.x & 31u;
    uint64_t tile = (uint64_t)blockDim.x * SHARD_TILE_ITEMS;
    for (uint64_t base = (uint64_t)blockIdx.x * tile; base < n; base += (uint64_t)gridDim.x * tile) {
        for (uint32_t r = threadIdx.x; r < ranks; r += blockDim.x)
            share[r] = 0;
        __syncthreads();
        uint64_t key[SHARD_TILE_ITEMS];
        uint32_t owner[SHARD_TILE_ITEMS], place[SHARD_TILE_ITEMS];
        HIVE_UNROLL
        for (int j = 0; j < SHARD_TILE_ITEMS; j++) {
            uint64_t i = base + (uint64_t)j * blockDim.x + threadIdx.x;
            int valid = i < n;
            unsigned mask = __ballot_sync(0xffffffffu, valid);
            owner[j] = 0;
            place[j] = 0;
            if (!valid)
                continue;
            key[j] = shard_key_at(keys, kv64, i);
            owner[j] = shard_route(key[j], ranks);
            unsigned group = __match_any_sync(mask, owner[j]);
            unsigned leader = __ffs(group) - 1;
            unsigned long long first = 0;
            if (lane == leader)
                first = atomicAdd(&share[owner[j]], (unsigned long long)__popc(group));
            first = __shfl_sync(mask, first, leader);
            place[j] = (uint32_t)first + __popc(group & ((1u << lane) - 1u));
        }
        __syncthreads();
        for (uint32_t r = threadIdx.x; r < ranks; r += blockDim.x)
            share[r] = share[r] ? atomicAdd(&cursor[r], share[r]) : 0;
        __syncthreads();
        HIVE_UNROLL
        for (int j = 0; j < SHARD_TILE_ITEMS; j++) {
            uint64_t i = base + (uint64_t)j * blockDim.x + threadIdx.x;
            if (i >= n)
                continue;
            uint64_t at = share[owner[j]] + place[j];
            pos[i] = (uint32_t)at;
            if (kv64) {
                ((uint64_t *)send_keys)[at] = key[j];
                if (values)
                    ((uint64_t *)send_values)[at] = ((const uint64_t *)values)[i];
            } else {
                ((uint32_t *)send_keys)[at] = (uint32_t)key[j];
                if (values)
                    ((uint32_t *)send_values)[at] = ((const uint32_t *)values)[i];
            }
            if (ops)
                send_ops[at] = ops[i];
        }
        __syncthreads(); /* the shares are read before the next tile clears them */
    }
}

__global__ void shard_gather_kernel(uint32_t n, const uint32_t *pos, const void *back_values, void *values_out,
                                    int kv64, const uint8_t *back_flags, uint8_t *flags_out,
                                    int values_where_flag, int count_results, unsigned long long *meta)
{
    unsigned none = 0, rejected_reserved = 0, rejected_full = 0;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        uint32_t at = pos[i];
        uint8_t flag = back_flags[at];
        if (flags_out)
            flags_out[i] = flag;
        if (values_out && (!values_where_flag || flag)) {
            if (kv64)
                ((uint64_t *)values_out)[i] = ((const uint64_t *)back_values)[at];
            else
                ((uint32_t *)values_out)[i] = ((const uint32_t *)back_values)[at];
        }
        none += flag == HIVE_RESULT_NONE;
        rejected_reserved += flag == HIVE_RESULT_REJECTED_RESERVED;
        rejected_full += flag == HIVE_RESULT_REJECTED_FULL;
    }
    /* Rare outcomes: an atomic only where a thread saw one. */
    if (count_results && none)
        atomicAdd(&meta[SHARD_META_NONE], (unsigned long long)none);
    if (count_results && rejected_reserved)
        atomicAdd(&meta[SHARD_META_REJ_RESERVED], (unsigned long long)rejected_reserved);
    if (count_results && rejected_full)
        atomicAdd(&meta[SHARD_META_REJ_FULL], (unsigned long long)rejected_full);
}

extern "C" cudaError_t shard_route_count(const void *keys, int kv64, uint32_t n, uint32_t ranks, uint32_t rank,
                                         int count_reserved, const uint8_t *ops, int values_absent,
                                         unsigned long long *meta, cudaStream_t stream)
{
    if (n > 0)
        shard_count_kernel<<<shard_grid(n), SHARD_BLOCK, ranks * sizeof(unsigned int), stream>>>(
            keys, kv64, n, ranks, rank, count_reserved, ops, values_absent, meta);
    shard_prefix_kernel<<<1, 1, 0, stream>>>(ranks, meta);
    return cudaGetLastError();
}

extern "C" cudaError_t shard_route_scatter(const void *keys, const void *values, const uint8_t *ops, int kv64,
                                           uint32_t n, uint32_t ranks, unsigned long long *meta, uint32_t *pos,
                                           void *send_keys, void *send_values, uint8_t *send_ops,
                                           cudaStream_t stream)
{
    if (n > 0)
        shard_scatter_kernel<<<shard_grid((n + SHARD_TILE_ITEMS - 1) / SHARD_TILE_ITEMS), SHARD_BLOCK,
                               ranks * sizeof(unsigned long long), stream>>>(keys, values, ops, kv64, n, ranks, meta,
                                                                             pos, send_keys, send_values, send_ops);
    return cudaGetLastError();
}

extern "C" cudaError_t shard_gather(uint32_t n, const uint32_t *pos, const void *back_values, void *values_out,
                                    int kv64, const uint8_t *back_flags, uint8_t *flags_out, int values_where_flag,
                                    int count_results, unsigned long long *meta, cudaStream_t stream)
{
    if (n > 0)
        shard_gather_kernel<<<shard_grid(n), SHARD_BLOCK, 0, stream>>>(n, pos, back_values, values_out, kv64,
                                                                      back_flags, flags_out, values_where_flag,
                                                                      count_results, meta);
    return cudaGetLastError();
}
