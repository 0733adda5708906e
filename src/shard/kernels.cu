/* kernels.cu — partitioning a batch by owner, and the results back in input
 * order (kernels.h).
 *
 * A batch is cut into tiles of SHARD_TILE keys, one block a tile, each
 * thread holding SHARD_ITEMS keys (the tile's j-th row of 256 keys is the
 * j-th item of every thread, so every load and store of a warp covers
 * consecutive words).  The partition is the two passes of a radix sort's
 * scatter: count each tile's keys per owner; one prefix sum (CUB) over those
 * counts, owner by owner, gives every tile its place in every owner's
 * segment; then the scatter writes each key there.  No global atomic orders
 * the tiles, and a thread keeps eight loads in flight.  Against one key a
 * thread and a global cursor per owner, the scatter took 300 µs instead of
 * 504 for 2^26 KV32 keys on an H200; the count kernel stayed at about a
 * quarter of the DRAM bandwidth, its hashing and grouping costing more than
 * its loads (docs/perf.md, "Sharded table"). */
#include <cub/device/device_scan.cuh>

#include "kernels.h"

#include "hive.h"
#include "route.h"

#define SHARD_BLOCK 256
#define SHARD_WARPS (SHARD_BLOCK / 32)
#define SHARD_ITEMS 8
#define SHARD_TILE (SHARD_BLOCK * SHARD_ITEMS)
/* Up to this many ranks, a warp groups its lanes by owner with a ballot a
 * rank; beyond, with match.any. */
#define SHARD_BALLOT_RANKS 8

static uint32_t shard_tiles(uint32_t n)
{
    return (uint32_t)(((uint64_t)n + SHARD_TILE - 1) / SHARD_TILE);
}

__device__ __forceinline__ uint64_t shard_key_at(const void *keys, int kv64, uint64_t i)
{
    return kv64 ? ((const uint64_t *)keys)[i] : (uint64_t)((const uint32_t *)keys)[i];
}

__device__ __forceinline__ int shard_key_reserved(uint64_t key, int kv64)
{
    return kv64 ? key >= HIVE_KV64_RESERVED_MIN : key >= HIVE_KV32_RESERVED_MIN;
}

/* Item j of this thread in the tile that begins at `base`. */
__device__ __forceinline__ uint64_t shard_item(uint64_t base, int j)
{
    return base + (uint64_t)j * SHARD_BLOCK + threadIdx.x;
}

/* The lanes of this warp whose key has this lane's owner (0 for a lane
 * without a key).  Every lane of the warp calls it. */
__device__ __forceinline__ unsigned shard_peers(int valid, uint32_t owner, uint32_t ranks)
{
    if (ranks <= SHARD_BALLOT_RANKS) {
        unsigned mine = 0;
        for (uint32_t r = 0; r < ranks; r++) {
            unsigned same = __ballot_sync(0xffffffffu, valid && owner == r);
            mine = valid && owner == r ? same : mine;
        }
        return mine;
    }
    unsigned same = __match_any_sync(0xffffffffu, valid ? owner : 0xffffffffu);
    return valid ? same : 0;
}

/* A thread's keys of its block's tile, their owners, and the lanes of its
 * warp that share each owner (0 past the batch's end). */
typedef struct shard_tile {
    uint64_t base;
    uint64_t key[SHARD_ITEMS];
    uint32_t owner[SHARD_ITEMS];
    unsigned peers[SHARD_ITEMS];
} shard_tile;

/* Zeroes `count` words of shared memory (the block's counts), then loads
 * the block's tile: every key before any is routed. */
__device__ __forceinline__ void shard_load_tile(const void *keys, int kv64, uint32_t n, uint32_t ranks,
                                                unsigned *shared_counts, uint32_t count, shard_tile *t)
{
    for (uint32_t e = threadIdx.x; e < count; e += blockDim.x)
        shared_counts[e] = 0;
    __syncthreads();
    t->base = (uint64_t)blockIdx.x * SHARD_TILE;
    HIVE_UNROLL
    for (int j = 0; j < SHARD_ITEMS; j++) {
        uint64_t i = shard_item(t->base, j);
        t->key[j] = i < n ? shard_key_at(keys, kv64, i) : 0;
    }
    HIVE_UNROLL
    for (int j = 0; j < SHARD_ITEMS; j++) {
        int valid = shard_item(t->base, j) < n;
        t->owner[j] = valid ? shard_route(t->key[j], ranks) : 0;
        t->peers[j] = shard_peers(valid, t->owner[j], ranks);
    }
}

/* Per tile: its keys per owner, into tile_counts[owner * tiles + tile];
 * and the batch's reserved keys and inserting ops without values (meta). */
__global__ void shard_count_kernel(const void *keys, int kv64, uint32_t n, uint32_t ranks, uint32_t rank,
                                   int count_reserved, const uint8_t *ops, int values_absent, uint32_t tiles,
                                   unsigned int *tile_counts, unsigned long long *meta)
{
    extern __shared__ unsigned int histogram[];
    shard_tile t;
    shard_load_tile(keys, kv64, n, ranks, histogram, ranks, &t);
    unsigned lane = threadIdx.x & 31u, reserved = 0, inserting = 0;
    HIVE_UNROLL
    for (int j = 0; j < SHARD_ITEMS; j++) {
        uint64_t i = shard_item(t.base, j);
        if (i >= n)
            continue;
        /* One shared atomic for the lanes with one owner. */
        if (lane == __ffs(t.peers[j]) - 1)
            atomicAdd(&histogram[t.owner[j]], (unsigned)__popc(t.peers[j]));
        reserved += count_reserved && shard_key_reserved(t.key[j], kv64);
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
        tile_counts[(uint64_t)r * tiles + blockIdx.x] = histogram[r];
}

/* Each owner's total from the prefix sums: the first place of the next
 * owner's first tile less its own (the sums have one entry past the last,
 * the batch's size). */
__global__ void shard_totals_kernel(uint32_t ranks, uint32_t tiles, const unsigned int *tile_places,
                                    unsigned long long *meta)
{
    for (uint32_t r = threadIdx.x; r < ranks; r += blockDim.x)
        meta[SHARD_META_COUNTS + r] =
            tile_places[(uint64_t)(r + 1) * tiles] - tile_places[(uint64_t)r * tiles];
}

/* Per tile: each key (with its value and op) to its owner's segment, from
 * the tile's place there on; pos[i] = where key i went.  Within the tile,
 * warp w's keys for an owner follow warp w-1's, and a warp's keys keep
 * their order, so the gather back reads runs of consecutive places. */
__global__ void shard_scatter_kernel(const void *keys, const void *values, const uint8_t *ops, int kv64, uint32_t n,
                                     uint32_t ranks, uint32_t tiles, const unsigned int *tile_places, uint32_t *pos,
                                     void *send_keys, void *send_values, uint8_t *send_ops)
{
    extern __shared__ unsigned int next_place[]; /* [warp][owner] */
    unsigned lane = threadIdx.x & 31u, warp = threadIdx.x / 32u;
    shard_tile t;
    shard_load_tile(keys, kv64, n, ranks, next_place, SHARD_WARPS * ranks, &t);
    unsigned *mine = next_place + warp * ranks;
    /* This warp's keys per owner... */
    HIVE_UNROLL
    for (int j = 0; j < SHARD_ITEMS; j++) {
        if (t.peers[j] && lane == __ffs(t.peers[j]) - 1)
            mine[t.owner[j]] += (unsigned)__popc(t.peers[j]);
        __syncwarp();
    }
    __syncthreads();
    /* ...become the warp's first place in each owner's segment. */
    for (uint32_t r = threadIdx.x; r < ranks; r += blockDim.x) {
        unsigned at = tile_places[(uint64_t)r * tiles + blockIdx.x];
        for (uint32_t w = 0; w < SHARD_WARPS; w++) {
            unsigned count = next_place[w * ranks + r];
            next_place[w * ranks + r] = at;
            at += count;
        }
    }
    __syncthreads();
    HIVE_UNROLL
    for (int j = 0; j < SHARD_ITEMS; j++) {
        uint64_t i = shard_item(t.base, j);
        unsigned at = t.peers[j] ? mine[t.owner[j]] + __popc(t.peers[j] & ((1u << lane) - 1u)) : 0;
        __syncwarp();
        if (t.peers[j] && lane == __ffs(t.peers[j]) - 1)
            mine[t.owner[j]] += (unsigned)__popc(t.peers[j]);
        __syncwarp();
        if (i >= n)
            continue;
        pos[i] = at;
        if (kv64) {
            ((uint64_t *)send_keys)[at] = t.key[j];
            if (values)
                ((uint64_t *)send_values)[at] = ((const uint64_t *)values)[i];
        } else {
            ((uint32_t *)send_keys)[at] = (uint32_t)t.key[j];
            if (values)
                ((uint32_t *)send_values)[at] = ((const uint32_t *)values)[i];
        }
        if (ops)
            send_ops[at] = ops[i];
    }
}

/* Per tile: every place first, then every flag, then the values (a find's
 * only where found), so that a thread waits on memory three times a tile
 * rather than three times a key. */
__global__ void shard_gather_kernel(uint32_t n, const uint32_t *pos, const void *back_values, void *values_out,
                                    int kv64, const uint8_t *back_flags, uint8_t *flags_out,
                                    int values_where_flag, int count_results, unsigned long long *meta)
{
    uint64_t base = (uint64_t)blockIdx.x * SHARD_TILE;
    uint32_t at[SHARD_ITEMS];
    uint8_t flag[SHARD_ITEMS];
    HIVE_UNROLL
    for (int j = 0; j < SHARD_ITEMS; j++) {
        uint64_t i = shard_item(base, j);
        at[j] = i < n ? pos[i] : 0;
    }
    HIVE_UNROLL
    for (int j = 0; j < SHARD_ITEMS; j++)
        flag[j] = shard_item(base, j) < n ? back_flags[at[j]] : 0;
    unsigned none = 0, rejected_reserved = 0, rejected_full = 0;
    HIVE_UNROLL
    for (int j = 0; j < SHARD_ITEMS; j++) {
        uint64_t i = shard_item(base, j);
        if (i >= n)
            continue;
        if (flags_out)
            flags_out[i] = flag[j];
        if (values_out && (!values_where_flag || flag[j])) {
            if (kv64)
                ((uint64_t *)values_out)[i] = ((const uint64_t *)back_values)[at[j]];
            else
                ((uint32_t *)values_out)[i] = ((const uint32_t *)back_values)[at[j]];
        }
        none += flag[j] == HIVE_RESULT_NONE;
        rejected_reserved += flag[j] == HIVE_RESULT_REJECTED_RESERVED;
        rejected_full += flag[j] == HIVE_RESULT_REJECTED_FULL;
    }
    /* Rare outcomes: an atomic only where a thread saw one. */
    if (count_results && none)
        atomicAdd(&meta[SHARD_META_NONE], (unsigned long long)none);
    if (count_results && rejected_reserved)
        atomicAdd(&meta[SHARD_META_REJ_RESERVED], (unsigned long long)rejected_reserved);
    if (count_results && rejected_full)
        atomicAdd(&meta[SHARD_META_REJ_FULL], (unsigned long long)rejected_full);
}

/* The scratch layout: tile counts, then their prefix sums (each ranks *
 * tiles + 1 words, the last count 0 so that the last sum is the batch's
 * size), then CUB's scan scratch, each from a 256-byte boundary. */
static size_t shard_round_up(size_t bytes)
{
    return (bytes + 255) & ~(size_t)255;
}

static size_t shard_sums_bytes(uint32_t n, uint32_t ranks)
{
    return shard_round_up(((size_t)ranks * shard_tiles(n) + 1) * sizeof(unsigned int));
}

static size_t shard_cub_bytes(uint32_t n, uint32_t ranks)
{
    size_t bytes = 0;
    long long items = (long long)ranks * shard_tiles(n) + 1;
    cub::DeviceScan::ExclusiveSum(NULL, bytes, (const unsigned int *)NULL, (unsigned int *)NULL, items);
    return bytes;
}

extern "C" size_t shard_route_scratch_bytes(uint32_t n, uint32_t ranks)
{
    return 2 * shard_sums_bytes(n, ranks) + shard_cub_bytes(n, ranks);
}

extern "C" cudaError_t shard_route_count(const void *keys, int kv64, uint32_t n, uint32_t ranks, uint32_t rank,
                                         int count_reserved, const uint8_t *ops, int values_absent, void *scratch,
                                         unsigned long long *meta, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess; /* the counts stay the zeros the call wrote */
    uint32_t tiles = shard_tiles(n);
    size_t sums = shard_sums_bytes(n, ranks), cub_bytes = shard_cub_bytes(n, ranks);
    unsigned int *counts = (unsigned int *)scratch, *places = (unsigned int *)((char *)scratch + sums);
    cudaError_t e = cudaMemsetAsync(counts + (size_t)ranks * tiles, 0, sizeof(unsigned int), stream);
    if (e != cudaSuccess)
        return e;
    shard_count_kernel<<<tiles, SHARD_BLOCK, ranks * sizeof(unsigned int), stream>>>(
        keys, kv64, n, ranks, rank, count_reserved, ops, values_absent, tiles, counts, meta);
    e = cub::DeviceScan::ExclusiveSum((char *)scratch + 2 * sums, cub_bytes, counts, places,
                                      (long long)ranks * tiles + 1, stream);
    if (e != cudaSuccess)
        return e;
    shard_totals_kernel<<<1, SHARD_BLOCK, 0, stream>>>(ranks, tiles, places, meta);
    return cudaGetLastError();
}

extern "C" cudaError_t shard_route_scatter(const void *keys, const void *values, const uint8_t *ops, int kv64,
                                           uint32_t n, uint32_t ranks, const void *scratch, uint32_t *pos,
                                           void *send_keys, void *send_values, uint8_t *send_ops,
                                           cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    const unsigned int *places = (const unsigned int *)((const char *)scratch + shard_sums_bytes(n, ranks));
    shard_scatter_kernel<<<shard_tiles(n), SHARD_BLOCK, SHARD_WARPS * ranks * sizeof(unsigned int), stream>>>(
        keys, values, ops, kv64, n, ranks, shard_tiles(n), places, pos, send_keys, send_values, send_ops);
    return cudaGetLastError();
}

extern "C" cudaError_t shard_gather(uint32_t n, const uint32_t *pos, const void *back_values, void *values_out,
                                    int kv64, const uint8_t *back_flags, uint8_t *flags_out, int values_where_flag,
                                    int count_results, unsigned long long *meta, cudaStream_t stream)
{
    if (n > 0)
        shard_gather_kernel<<<shard_tiles(n), SHARD_BLOCK, 0, stream>>>(n, pos, back_values, values_out, kv64,
                                                                       back_flags, flags_out, values_where_flag,
                                                                       count_results, meta);
    return cudaGetLastError();
}
