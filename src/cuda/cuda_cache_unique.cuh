/* cuda_cache_unique.cuh — a batch of key-value pairs made unique on the GPU,
 * the last occurrence of each key giving its value (cache_backend.h,
 * unique_pairs), included once by cuda_cache.cu, which launches them.
 *
 * Why on the GPU: a cache batch applies repeats of a key in no particular
 * order, so a caller that wants the last write to win (the two-level
 * table's upserts, docs/tiered.md) must remove the repeats first.  On the
 * host that is a hash map pass over every pair; here it is two passes at
 * the bus's speed over pairs the kernels read where they are (mapped
 * pinned host memory) or in device memory.
 *
 *   1. mark: each pair's key and value are copied to device scratch, and
 *      its key claims a slot of a linear-probing map (2^k slots, at least
 *      twice the pairs, keys EMPTY at the start) whose `last` word keeps
 *      1 + the greatest position of the key (atomicMax).  Repeats of a key
 *      inside a warp are settled first (__match_any_sync: its highest lane,
 *      the last position, alone touches the map), which spares the hot
 *      keys of a skewed batch most of their atomics on one word.
 *   2. emit: each pair finds its key's slot again and, where it holds the
 *      pair's own position, writes the pair to the next place of the output
 *      (a warp-aggregated cursor: no particular order).
 *
 * Reserved keys (HIVE_KV64_RESERVED_MIN and up) are skipped and counted;
 * EMPTY, one of them, marks a free map slot.  The map's hash takes the
 * cache's seed, so keys crowded into one run of slots in one table spread
 * in another. */
#ifndef HIVE_CUDA_CACHE_UNIQUE_CUH
#define HIVE_CUDA_CACHE_UNIQUE_CUH

#include <stdint.h>

#include "cuda_cache_kernels.cuh"
#include "hash/bithash.h"

#define HIVE_UNIQUE_EMPTY UINT64_MAX

/* The scratch of one call: the map, and the pairs' device copies. */
typedef struct hive_unique_map {
    uint64_t *keys;   /* (mask + 1): a slot's key, or HIVE_UNIQUE_EMPTY */
    uint32_t *last;   /* (mask + 1): 1 + the greatest position of the slot's key, 0 when free */
    uint64_t *pair_keys, *pair_values; /* (n): the batch's pairs in device memory */
    uint64_t mask;
    uint64_t seed;
} hive_unique_map;

static __device__ __forceinline__ uint64_t hive_unique_home(const hive_unique_map *m, uint64_t key)
{
    return hive_fold64(key ^ m->seed) & m->mask;
}

/* The slot of `key`, claimed if no slot has it yet (the map has room for
 * every key of the batch twice over, so the probe ends). */
static __device__ __forceinline__ uint64_t hive_unique_claim(const hive_unique_map *m, uint64_t key)
{
    for (uint64_t s = hive_unique_home(m, key);; s = (s + 1) & m->mask) {
        uint64_t k = m->keys[s];
        if (k == HIVE_UNIQUE_EMPTY)
            k = atomicCAS((unsigned long long *)&m->keys[s], (unsigned long long)HIVE_UNIQUE_EMPTY,
                          (unsigned long long)key);
        if (k == HIVE_UNIQUE_EMPTY || k == key)
            return s;
    }
}

/* The slot `key` claimed in the mark pass. */
static __device__ __forceinline__ uint64_t hive_unique_slot(const hive_unique_map *m, uint64_t key)
{
    uint64_t s = hive_unique_home(m, key);
    while (m->keys[s] != key)
        s = (s + 1) & m->mask;
    return s;
}

__global__ void __launch_bounds__(HIVE_CACHE_THREADS)
    hive_cache_unique_mark_kernel(hive_unique_map m, const uint64_t *keys, const uint64_t *values, uint64_t n,
                                  uint64_t *counters)
{
    uint32_t lane = threadIdx.x & 31u;
    uint32_t reserved = 0;
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    /* Whole warps go round (lanes past n too), for the warp's match. */
    for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u); w < n; w += stride) {
        uint64_t i = w + lane;
        uint64_t key = HIVE_UNIQUE_EMPTY;
        if (i < n) {
            key = keys[i];
            m.pair_keys[i] = key;
            m.pair_values[i] = values[i];
            reserved += key >= HIVE_KV64_RESERVED_MIN;
        }
        uint32_t peers = __match_any_sync(HIVE_CACHE_FULL, key);
        int last_of_peers = (int)lane == 31 - __clz((int)peers);
        if (key < HIVE_KV64_RESERVED_MIN && last_of_peers)
            atomicMax(&m.last[hive_unique_claim(&m, key)], (uint32_t)(i + 1));
    }
    hive_cache_flush1(reserved, counters + HIVE_CACHE_CTR_RESERVED);
}

__global__ void __launch_bounds__(HIVE_CACHE_THREADS)
    hive_cache_unique_emit_kernel(hive_unique_map m, uint64_t n, uint64_t *out_keys, uint64_t *out_values,
                                  uint64_t *counters)
{
    uint32_t lane = threadIdx.x & 31u;
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u); w < n; w += stride) {
        uint64_t i = w + lane;
        uint64_t key = i < n ? m.pair_keys[i] : HIVE_UNIQUE_EMPTY;
        int wins = key < HIVE_KV64_RESERVED_MIN && m.last[hive_unique_slot(&m, key)] == (uint32_t)(i + 1);
        uint64_t at = hive_cache_emit_index(wins, counters + HIVE_CACHE_CTR_OUT);
        if (wins) {
            out_keys[at] = key;
            out_values[at] = m.pair_values[i];
        }
    }
    hive_cache_finish(counters);
}

#endif
