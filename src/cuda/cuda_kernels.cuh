/* cuda_kernels.cuh — what the Hive dictionary's kernels and their launchers
 * (cuda_batch.cu) share: a thread's outcome tallies, the kernels' blocks per
 * SM, and the names of the kernels of a geometry.
 *
 * The kernels are written once: cuda_kernels_body.cuh holds the loops of one
 * key width and includes cuda_kernels_bucket.cuh (the kernels of one bucket
 * size) for each size; cuda_kernels32.cu and cuda_kernels64.cu include it
 * with the width #defined, and the first adds cuda_kernels_tile.cuh (the
 * kernels of one KV32 tile geometry) for each tile geometry.
 * Each is a grid-stride loop over one batch element (core/batch_body.h), one
 * thread (or tile) per key, launched from cuda_batch.cu on the caller's
 * stream.  Per-key outcomes are tallied in registers (in shared memory in
 * the deferred kernels) and summed once per warp at the end, so that no
 * counter is touched per key. */
#ifndef HIVE_DICT_KERNELS_CUH
#define HIVE_DICT_KERNELS_CUH

#include <stdint.h>

#include "core/batch.h"
#include "core/marks.h"
#include "designs/designs.h"
#include "cuda_table.h"

/* Threads per block of every kernel, as cuda_batch.cu launches them (a
 * #define of its own must say the same): whole warps, whose ballots write
 * whole words of marks. */
#define HIVE_THREADS 256
static_assert(HIVE_THREADS % 32 == 0, "blocks of whole warps");

/* A thread's outcome tallies (indices: HIVE_CTR_*). */
typedef struct hive_tally {
    uint32_t c[HIVE_CTR_COUNT];
} hive_tally;

static __device__ __forceinline__ void hive_tally_flush(const hive_tally *t, uint64_t *counters)
{
#pragma unroll
    for (int c = 0; c < HIVE_CTR_COUNT; c++) {
        uint32_t sum = hive_warp_sum(t->c[c]);
        if ((threadIdx.x & 31) == 0 && sum != 0)
            atomicAdd((unsigned long long *)(counters + c), (unsigned long long)sum);
    }
}

/* Blocks per SM of the insert kernel (the lock-free pass of a uniform insert
 * batch; cuda_batch.cu caps its grid there) on a table of more than twice
 * the L2's bytes, below the 6 its registers allow: its random DRAM reads and
 * CASes queue in the memory system, and fewer of them in flight finish
 * sooner (3 is best for KV32, as good as 2 for KV64; docs/perf.md). */
#define HIVE_PASS_BLOCKS_PER_SM 3
/* Blocks per SM the registers of the batch kernels of W-bit keys and S-slot
 * buckets must allow: that of the capped insert pass, for buckets of up to
 * 64 bytes, so that ptxas does not hold the pass to fewer registers and
 * spill (docs/perf.md).  Larger buckets need more than the 80 registers 3
 * blocks leave, and would spill. */
#define HIVE_BATCH_MIN_BLOCKS(W, S) ((W) * (S) <= 512 ? HIVE_PASS_BLOCKS_PER_SM : 1)

/* Warps of a deferred kernel's block, each gathering its keys in shared
 * memory (cuda_kernels_body.cuh). */
#define HIVE_DEFERRED_WARPS (HIVE_THREADS / 32)
/* Blocks of a deferred kernel per SM, for keys of W bits (registers capped
 * to fit): its warps wait on memory with few lanes converged, so more of them
 * in flight pay for some spills; KV64's 16-byte slots spill more, and take
 * one block fewer (docs/perf.md). */
#define HIVE_DEFERRED_MIN_BLOCKS(W) ((W) == 64 ? 3 : 4)
/* Rows of 32 keys a warp takes at once while gathering (one load of as many
 * words of marks, or independent loads of results): the scan of a batch is
 * not one memory latency per 32 keys. */
#define HIVE_DEFERRED_ROWS 8
#define HIVE_DEFERRED_HOLD (32 + 32 * HIVE_DEFERRED_ROWS)
static_assert(HIVE_DEFERRED_ROWS <= 32, "a lane loads each row's word of marks");
static_assert(HIVE_DEFERRED_WARPS * HIVE_DEFERRED_HOLD * sizeof(uint64_t) +
                      HIVE_THREADS * sizeof(hive_tally) <=
                  48 * 1024,
              "a deferred kernel's keys and tallies fit the 48 KiB of static shared memory");

/* Takes the full bits for the deferred kernels of a KV32 table (see
 * hive_full_hint_pass_kv32) only for a batch that defers at least one key per
 * this many bytes of buckets: below that, one read of the whole table in
 * order costs more than the random reads of rooms it spares. */
#define HIVE_HINT_TABLE_BYTES_PER_KEY 160

/* hive_find_kv32_s4 and the like: the name of a kernel for keys of W bits
 * and buckets of S slots (cuda_kernels_bucket.cuh), or for KV32 tiles of T
 * lanes (cuda_kernels_tile.cuh).  W, S and T may be macros of numbers. */
#define HIVE_KERNEL_NAME(op, W, S) HIVE_KERNEL_NAME_(op, W, S)
#define HIVE_KERNEL_NAME_(op, W, S) op##_kv##W##_s##S
#define HIVE_TILE_KERNEL_NAME(op, S, T) HIVE_TILE_KERNEL_NAME_(op, S, T)
#define HIVE_TILE_KERNEL_NAME_(op, S, T) op##_kv32_s##S##_t##T

#endif
