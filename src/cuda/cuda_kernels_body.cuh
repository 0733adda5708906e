/* cuda_kernels_body.cuh — the CUDA kernels of one key width: the loops, the
 * export kernel, and (at the end) the kernels of each bucket size
 * (cuda_kernels_bucket.cuh), which call the loops with their geometry as
 * constants.  Included by cuda_kernels32.cu and cuda_kernels64.cu only, once,
 * after cuda_kernels.cuh, with K_* defined; the KV32 tile kernels
 * (cuda_kernels_tile.cuh) come after it.  No include guard on purpose.
 *
 *   K_W                      key bits, 32 or 64 (in the kernels' names)
 *   K_SUFFIX(name)           name##_kv32 / name##_kv64 (also names the protocol's functions)
 *   K_KEY                    the key and value type
 *   K_SLOT_WORDS             64-bit words per slot: 1 or 2
 *   K_SLOT_KEY(s), K_SLOT_VALUE(s)   the key and value of the slot at s (const uint64_t *)
 *   K_RESERVED(k)            hive_k32_reserved / hive_k64_reserved
 *   K_TILES                  1: also the element and loop of KV32 tiles
 *   K_FULL_HINT              1: also the loop that takes the full bits (KV32)
 *
 * The loops take the kernel's parameters by value, as the kernel has them
 * (through pointers to them NVVM tested b.marks another way, and ptxas
 * spilled 12 bytes in the tile insert kernels); they are always inlined, so
 * nothing is copied.  A tally counts with an expression, not a function: an
 * inlined hive_tally_add changed the PTX of the mixed, retry and deferred
 * kernels. */

static_assert(K_SLOT_WORDS * sizeof(uint64_t) == (K_W == 32 ? HIVE_SLOT32_BYTES : HIVE_SLOT64_BYTES),
              "K_SLOT_WORDS words make a slot of this width (core/slot.h)");

/* One element of a batch (core/batch_body.h), carried out by one thread: a
 * geometry is the slots per bucket. */
#define B_SUFFIX(name) K_SUFFIX(name)
#define B_KEY K_KEY
#define B_GEOM uint32_t
#define B_WRITER(geom) 1
#define B_RESERVED(k) K_RESERVED(k)
#define B_TALLY hive_tally
#define B_COUNT(tally, ctr, n) ((tally)->c[ctr] += (n))
#include "core/batch_body.h"

/* The batch kernels (cuda_kernels_bucket.cuh): op is a hive_op for a
 * uniform batch, or -1 for a mixed batch (b.ops).  Inserts run only their
 * lock-free part here; hive_deferred_* runs the locked part of those that
 * need it (both buckets full), all at once, after this kernel.  Run in
 * place, each held up the 31 other lanes of its warp for the whole of its
 * lock, rescans and eviction search, and made every thread of the kernel
 * carry the locked path's registers and stack.
 * The warp steps through the grid-stride loop in lockstep (synced after
 * every element): left to drift, lanes that finished their key early run
 * ahead while others wait on memory, and the warp then issues each lane's
 * loads on its own (ncu: 3.8 active threads per warp at load 0.9) instead of
 * all lanes' loads together.  In a batch that inserts, the ballot that syncs
 * them is also the deferred marks of the warp's 32 keys: a whole word, as the
 * grid-stride loop keeps w a multiple of 32. */
static __device__ __forceinline__ void K_SUFFIX(hive_batch_pass)(hive_view v, uint32_t S, hive_batch b,
                                                                 uint64_t *counters, int op)
{
    const int inserts = op != HIVE_OP_FIND && op != HIVE_OP_ERASE;
    hive_tally t = {};
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u); w < b.n; w += stride) {
        uint64_t i = w + (threadIdx.x & 31u);
        int r = i < b.n ? K_SUFFIX(hive_batch_one)(&v, S, &b, i, op >= 0 ? op : (int)b.ops[i], NULL, &t, 1)
                         : 0;
        if (inserts) {
            uint32_t deferred = __ballot_sync(0xffffffffu, r == HIVE_R_DEFER);
            if ((threadIdx.x & 31u) == 0 && b.marks != NULL)
                hive_marks_deferred(&b)[w >> 5] = deferred;
        } else {
            __syncwarp();
        }
    }
    hive_tally_flush(&t, counters);
}

/* The locked part of the inserts a batch kernel deferred, one thread per
 * key, in two launches, through `part` of the locked path (hive_batch_one):
 * the short launch (part 2) runs the keys marked in the deferred row of the
 * batch's marks (core/marks.h), or, in a batch without marks, those whose
 * result is HIVE_R_DEFER, and marks unfinished those it leaves to the deep
 * one or rejects for room; the deep launch (part 3) runs the unfinished ones, or those whose
 * result is HIVE_R_DEFER_DEEP, and clears the mark of every key it places,
 * so that only those rejected for room keep it.  Each returns at once when
 * the counters say no key was left to it.
 * The first launch takes every deferred key through the short locked path
 * (so that no warp of it waits on one lane's deep search); the second, the
 * few that need a deeper search (a sixth of them in a fill to 0.9), through
 * the rest.
 * Each warp gathers its keys 32 at a time in shared memory and runs them
 * together: in place, a warp would hold the few marked keys of each stretch
 * of 32, and the locked path's latency would be paid once per stretch
 * instead of once per 32 keys. */
static __device__ __forceinline__ void K_SUFFIX(hive_deferred_pass)(hive_view v, uint32_t S, hive_batch b,
                                                                    uint64_t *counters, int part)
{
    __shared__ uint64_t pending_all[HIVE_DEFERRED_WARPS][HIVE_DEFERRED_HOLD];
    /* Tallies in shared memory, not registers: across the locked path they
     * held a dozen of the registers this kernel may use, and cost it more
     * spills than the loads they replace (docs/perf.md). */
    __shared__ hive_tally tallies[HIVE_THREADS];
    const int mark = part == 2 ? HIVE_R_DEFER : HIVE_R_DEFER_DEEP;
    if (counters[part == 2 ? HIVE_CTR_DEFERRED : HIVE_CTR_DEFERRED_DEEP] == 0)
        return;
    uint64_t *pending = pending_all[threadIdx.x / 32];
    unsigned lane = threadIdx.x & 31u;
    uint32_t *marks = b.marks == NULL ? NULL : part == 2 ? hive_marks_deferred(&b) : hive_marks_unfinished(&b);
    hive_tally *t = &tallies[threadIdx.x];
    hive_tally zero = {};
    *t = zero;
    uint32_t held = 0;
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x * HIVE_DEFERRED_ROWS;
    for (uint64_t w = ((uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u)) * HIVE_DEFERRED_ROWS;;
         w += stride) {
        int more = w < b.n; /* the same in every lane */
        uint32_t word = 0;
        uint8_t result[HIVE_DEFERRED_ROWS];
        if (marks != NULL) {
            if (more && lane < HIVE_DEFERRED_ROWS && w + 32u * lane < b.n)
                word = marks[(w >> 5) + lane];
        } else {
#pragma unroll
            for (int row = 0; row < HIVE_DEFERRED_ROWS; row++) {
                uint64_t i = w + 32u * row + lane;
                result[row] = more && i < b.n ? b.results[i] : 0;
            }
        }
#pragma unroll
        for (int row = 0; row < HIVE_DEFERRED_ROWS; row++) {
            uint32_t mask = marks != NULL ? __shfl_sync(0xffffffffu, word, row)
                                          : __ballot_sync(0xffffffffu, result[row] == mark);
            if (mask >> lane & 1u)
                pending[held + __popc(mask & ((1u << lane) - 1u))] = w + 32u * row + lane;
            held += __popc(mask);
        }
        __syncwarp();
        while (held >= 32 || (!more && held > 0)) {
            if (lane < held) {
                uint64_t k = pending[lane];
                int r = K_SUFFIX(hive_batch_one)(&v, S, &b, k, hive_batch_op(&b, k), NULL, t, part);
                /* A design without a deep search (designs/double) rejects
                 * for room in the short launch already. */
                if (part == 2 && (r == HIVE_R_DEFER_DEEP || r == HIVE_R_REJECTED_FULL) && marks != NULL)
                    hive_mark_set(hive_marks_unfinished(&b), k);
                if (part == 3 && r != HIVE_R_REJECTED_FULL && marks != NULL)
                    hive_mark_clear(marks, k);
            }
            __syncwarp();
            uint32_t rest = held > 32 ? held - 32 : 0;
            for (uint32_t base = 0; base < rest; base += 32) { /* shift the rest down */
                uint64_t moved = base + lane < rest ? pending[32 + base + lane] : 0;
                __syncwarp();
                if (base + lane < rest)
                    pending[base + lane] = moved;
                __syncwarp();
            }
            held = rest;
        }
        if (!more)
            break;
    }
    hive_tally_flush(t, counters);
}

#if K_FULL_HINT
/* Takes the full bits for the deferred kernels of a KV32 table
 * (hive_view.full_hint: one per bucket, in L2): a bit is set where the
 * bucket has no room for a pair moved into it (hive_has_room: no free slot
 * nor TOMB; a batch that takes the bits only inserts, so no room appears
 * where a bit is set).  Their eviction search then reads from DRAM the room
 * of a candidate only where the bit says it may have one: about a third of
 * them at load 0.9.  The bits cost one read of the whole table in order, so they are
 * taken only for a batch whose deferred keys would have read more at random:
 * at least one per HIVE_HINT_TABLE_BYTES_PER_KEY bytes of buckets.  KV64
 * tables never take them: their deferred launches gained less than the read
 * cost (docs/perf.md).  A batch that does not take them clears them (a write
 * of one bit per bucket: no bit says full), so the deferred kernels need not
 * know which it was.  The bits are the call's own (cuda_batch.cu). */
static __device__ __forceinline__ void K_SUFFIX(hive_full_hint_pass)(hive_view v, uint32_t S,
                                                                     uint64_t *counters)
{
    uint64_t buckets = hive_index_buckets(v.ix);
    int take = counters[HIVE_CTR_DEFERRED] * HIVE_HINT_TABLE_BYTES_PER_KEY >= buckets * S * sizeof(uint64_t);
    unsigned lane = threadIdx.x & 31u;
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u); w < buckets; w += stride) {
        uint64_t bk = w + lane;
        int full = 0;
        if (take && bk < buckets)
            full = !hive_has_room_kv32_hive(v.slots + bk * S, S);
        uint32_t mask = __ballot_sync(0xffffffffu, full);
        if (lane == 0)
            ((uint32_t *)v.full_hint)[w >> 5] = mask;
    }
}
#endif

/* Runs again the elements of b rejected for room, after a growth, and clears
 * the marks of those it places; one thread per key (tiles follow the same
 * protocol). */
static __device__ __forceinline__ void K_SUFFIX(hive_retry_pass)(hive_view v, uint32_t S, hive_batch b,
                                                                 uint64_t *counters)
{
    hive_tally t = {};
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < b.n; i += stride) {
        if (!hive_batch_rejected_full(&b, i))
            continue;
        int op = hive_batch_op(&b, i);
        hive_batch_rerun(&b, i, K_SUFFIX(hive_batch_one)(&v, S, &b, i, op, NULL, &t, 0) == HIVE_R_REJECTED_FULL);
    }
    hive_tally_flush(&t, counters);
}

/* One resize op (designs/hive/resize_body.h) over [begin, end), one thread per
 * bucket or stash slot; counters[HIVE_CTR_INSERTED] sums what it counts.
 * Tiles share the layout and the protocol, so every geometry of a bucket
 * size uses these. */
static __device__ __forceinline__ void K_SUFFIX(hive_resize_pass)(int op, hive_view v, hive_view to, uint32_t S,
                                                                  hive_index ix, uint64_t begin, uint64_t end,
                                                                  uint64_t *counters)
{
    uint64_t r = 0;
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = begin + (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < end; i += stride)
        r += K_SUFFIX(hive_resize_one)(op, &v, &to, S, ix, i);
    if (r != 0)
        atomicAdd((unsigned long long *)(counters + HIVE_CTR_INSERTED), (unsigned long long)r);
}

/* Counts the elements of b that may store a new key (the backend's
 * count_new): insert-type elements whose key is not reserved and is not in
 * the table now, into counters[HIVE_CTR_INSERTED], and the erase elements
 * whose key is in it, into counters[HIVE_CTR_ERASED]; one thread's find per
 * key (tiles share the bucket layout, so every geometry of a width uses
 * this). */
__global__ void __launch_bounds__(HIVE_THREADS) K_SUFFIX(hive_count_new)(hive_view v, uint32_t S, hive_batch b,
                                                                         uint64_t *counters)
{
    hive_tally t = {};
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < b.n; i += stride) {
        int op = b.ops != NULL ? (int)b.ops[i] : (int)b.op;
        K_KEY key = ((const K_KEY *)b.keys)[i], value;
        int inserts = op == HIVE_OP_INSERT || op == HIVE_OP_UPSERT;
        if ((inserts || op == HIVE_OP_ERASE) && !K_RESERVED(key)) {
            int found = K_SUFFIX(hive_find)(&v, S, key, &value) == HIVE_R_FOUND;
            t.c[HIVE_CTR_INSERTED] += inserts && !found;
            t.c[HIVE_CTR_ERASED] += !inserts && found;
        }
    }
    hive_tally_flush(&t, counters);
}

/* Appends the live pairs of `slots` (n of them) to out_keys/out_values;
 * counters[HIVE_CTR_INSERTED] is the shared write cursor.  A slot is read
 * outside any concurrent operation (an export runs alone). */
__global__ void __launch_bounds__(HIVE_THREADS) K_SUFFIX(hive_export)(const uint64_t *slots, uint64_t n,
                                                                      K_KEY *out_keys, K_KEY *out_values,
                                                                      uint64_t capacity, uint64_t *counters)
{
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    uint64_t start = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint64_t rounds = (n + stride - 1) / stride; /* every lane runs the same trips */
    for (uint64_t r = 0; r < rounds; r++) {
        uint64_t i = start + r * stride;
        const uint64_t *slot = slots + i * K_SLOT_WORDS;
        int live = i < n && !K_RESERVED(K_SLOT_KEY(slot));
        uint32_t mask = __ballot_sync(0xffffffffu, live);
        if (mask == 0)
            continue;
        int lane = threadIdx.x & 31;
        unsigned long long base = 0;
        if (lane == 0)
            base = atomicAdd((unsigned long long *)(counters + HIVE_CTR_INSERTED), (unsigned long long)__popc(mask));
        base = __shfl_sync(0xffffffffu, base, 0);
        if (live) {
            uint64_t at = base + __popc(mask & ((1u << lane) - 1));
            if (at < capacity) {
                out_keys[at] = K_SLOT_KEY(slot);
                out_values[at] = K_SLOT_VALUE(slot);
            }
        }
    }
}

#if K_TILES
/* One element of a batch carried out by a tile of lanes (a hive_geom), whose
 * first lane writes the outputs and counts. */
#define B_SUFFIX(name) name##_kv32_tile
#define B_KEY uint32_t
#define B_GEOM hive_geom
#define B_WRITER(geom) hive_tile_first(geom)
#define B_RESERVED(k) hive_k32_reserved(k)
#define B_TALLY hive_tally
#define B_COUNT(tally, ctr, n) ((tally)->c[ctr] += (n))
#include "core/batch_body.h"

/* The tile kernels (cuda_kernels_tile.cuh): T lanes per key, key i to the
 * i-th tile of the grid, the whole operation in place; op as for
 * hive_batch_pass. */
static __device__ __forceinline__ void hive_tile_pass_kv32(hive_view v, uint32_t S, uint32_t T, hive_batch b,
                                                           uint64_t *counters, int op)
{
    const hive_geom g = {S, T};
    hive_tally t = {};
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x / T;
    for (uint64_t i = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / T; i < b.n; i += stride)
        if (hive_batch_one_kv32_tile(&v, g, &b, i, op >= 0 ? op : (int)b.ops[i], NULL, &t, 0) ==
                HIVE_R_REJECTED_FULL &&
            hive_tile_first(g) && b.marks != NULL)
            hive_mark_set(hive_marks_unfinished(&b), i);
    hive_tally_flush(&t, counters);
}
#endif

/* The kernels of every bucket size, one thread per key. */
#define K_S 4
#include "cuda_kernels_bucket.cuh"
#define K_S 8
#include "cuda_kernels_bucket.cuh"
#define K_S 16
#include "cuda_kernels_bucket.cuh"
#define K_S 32
#include "cuda_kernels_bucket.cuh"
