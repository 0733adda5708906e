/* cuda_kernels.cuh — the Hive dictionary's kernels.  Each is a grid-stride
 * loop over one per-key operation of designs/hive/protocol.h (one thread per key),
 * launched from cuda_batch.cu on the caller's stream.  Per-key outcomes are
 * tallied in registers (in shared memory in the deferred kernels) and summed
 * once per warp at the end, so that no counter is touched per key. */
#ifndef HIVE_DICT_KERNELS_CUH
#define HIVE_DICT_KERNELS_CUH

#include <stdint.h>

#include "core/marks.h"
#include "designs/designs.h"
#include "cuda_table.h"

/* A thread's outcome tallies (indices: HIVE_CTR_*). */
typedef struct hive_tally {
    uint32_t c[HIVE_CTR_COUNT];
} hive_tally;

static __device__ __forceinline__ void hive_tally_flush(const hive_tally *t, uint64_t *counters)
{
#pragma unroll
    for (int c = 0; c < HIVE_CTR_COUNT; c++) {
        uint32_t sum = __reduce_add_sync(0xffffffffu, t->c[c]);
        if ((threadIdx.x & 31) == 0 && sum != 0)
            atomicAdd((unsigned long long *)(counters + c), (unsigned long long)sum);
    }
}

/* One element of a batch, carried out by one thread (SUFFIX kv32 or kv64,
 * GEOM the slots per bucket) or by a tile (SUFFIX kv32_tile, GEOM a
 * hive_geom).  Every lane of a tile computes the same outcome; its first lane
 * writes the outputs and tallies.  K is the key and value type.  PART: 0 the
 * whole operation; 1 only the lock-free part of an insert, which returns
 * HIVE_R_DEFER for a key that needs the locked part and counts it; 2 only the
 * short locked part, for such a key, which returns HIVE_R_DEFER_DEEP for one
 * it cannot place and counts it; 3 the locked part for those, from the second
 * level of the eviction search on (HIVE_EVICT_TWO_MOVES: the first found
 * nothing moments before).  Returns the outcome (HIVE_R_*); the kernels keep
 * the batch's marks (core/marks.h) from it. */
#define HIVE_DEFINE_ONE(name, GEOM_T, SUFFIX, WRITER, K, RESERVED)                          \
    static __device__ __forceinline__ int name(const hive_view *v, GEOM_T geom,             \
                                                const hive_batch *b, uint64_t i, int op,     \
                                                hive_tally *t, int part)                     \
    {                                                                                        \
        K key = ((const K *)b->keys)[i];                                                     \
        int writer = (WRITER);                                                               \
        int r;                                                                               \
        if (RESERVED(key) && (unsigned)op <= HIVE_OP_ERASE) { /* a bad op code wins */      \
            r = HIVE_R_REJECTED_RESERVED;                                                    \
            t->c[HIVE_CTR_RESERVED] += writer;                                               \
            if (writer && op == HIVE_OP_FIND && b->found != NULL)                            \
                b->found[i] = 0;                                                             \
        } else if (op == HIVE_OP_FIND) {                                                     \
            K value;                                                                         \
            r = hive_find_##SUFFIX(v, geom, key, &value);                                    \
            if (writer && r == HIVE_R_FOUND && b->values_out != NULL)                        \
                ((K *)b->values_out)[i] = value;                                             \
            if (writer && b->found != NULL)                                                  \
                b->found[i] = r == HIVE_R_FOUND;                                             \
        } else if (op == HIVE_OP_INSERT || op == HIVE_OP_UPSERT) {                           \
            int step;                                                                        \
            uint32_t moves = 0;                                                              \
            int mode = op == HIVE_OP_INSERT ? HIVE_CMB_KEEP : (int)b->combine;               \
            K val = ((const K *)b->values_in)[i];                                            \
            uint32_t h1 = hive_hash1_##SUFFIX(key), h2 = hive_hash2_##SUFFIX(key);           \
            r = part >= 2 ? HIVE_R_DEFER                                                     \
                          : hive_upsert_lockfree_##SUFFIX(v, geom, key, h1, h2, val, mode, &step); \
            if (r == HIVE_R_DEFER && part != 1)                                              \
                r = hive_upsert_deferred_##SUFFIX(v, geom, key, h1, h2, val, mode,               \
                                                  part == 2 ? HIVE_EVICT_ONE_MOVE                \
                                                  : part == 3 ? HIVE_EVICT_TWO_MOVES             \
                                                              : HIVE_EVICT_ALL, &step,           \
                                                  &moves);                                   \
            if (r == HIVE_R_DEFER) {                                                         \
                t->c[HIVE_CTR_DEFERRED] += writer;                                           \
            } else if (r == HIVE_R_DEFER_DEEP) {                                             \
                t->c[HIVE_CTR_DEFERRED_DEEP] += writer;                                      \
            } else if (r == HIVE_R_REJECTED_FULL) {                                          \
                t->c[HIVE_CTR_FULL] += writer;                                               \
            } else {                                                                         \
                /* Constant indices keep the tally in registers (indexed by `step`, it      \
                 * lived in local memory: 48 bytes of stack in the batch kernels); the       \
                 * deferred kernels, whose tallies are in shared memory, index them. */      \
                if (part >= 2)                                                               \
                    t->c[HIVE_CTR_STEP0 + step] += writer;                                   \
                else                                                                         \
                    _Pragma("unroll") for (int s_ = 0; s_ < 4; s_++)                         \
                        t->c[HIVE_CTR_STEP0 + s_] += writer && step == s_;                   \
                t->c[HIVE_CTR_EVICTIONS] += writer ? moves : 0;                              \
                if (r == HIVE_R_INSERTED)                                                    \
                    t->c[HIVE_CTR_INSERTED] += writer;                                       \
            }                                                                                \
        } else if (op == HIVE_OP_ERASE) {                                                    \
            r = hive_erase_##SUFFIX(v, geom, key);                                           \
            if (r == HIVE_R_ERASED)                                                          \
                t->c[HIVE_CTR_ERASED] += writer;                                             \
        } else {                                                                             \
            r = 0; /* HIVE_RESULT_NONE */                                                    \
            t->c[HIVE_CTR_BAD_OPS] += writer;                                                \
        }                                                                                    \
        if (writer && b->results != NULL)                                                    \
            b->results[i] = (uint8_t)r;                                                      \
        return r;                                                                            \
    }

HIVE_DEFINE_ONE(hive_dict_one_kv32, uint32_t, kv32, 1, uint32_t, hive_k32_reserved)
HIVE_DEFINE_ONE(hive_dict_one_kv64, uint32_t, kv64, 1, uint64_t, hive_k64_reserved)
HIVE_DEFINE_ONE(hive_dict_one_kv32_tile, hive_geom, kv32_tile, hive_tile_first(geom), uint32_t,
                hive_k32_reserved)

/* Blocks per SM of the insert kernel (the lock-free pass of a uniform insert
 * batch; cuda_batch.cu caps its grid there) on a table of more than twice
 * the L2's bytes, below the 6 its registers allow: its random DRAM reads and
 * CASes queue in the memory system, and fewer of them in flight finish
 * sooner.  H100, fills of 2^26 KV32 and 2^25 KV64 keys to 0.9, with the
 * acquire fence between the buckets (bench/NOTES.md item 48): 3 blocks 7.49 /
 * 6.12 G/s, 4: 7.41 / 6.01, 5: 7.16 / 5.98, 6: 7.15 / 6.00, 2: 7.34 / 6.19;
 * with scans a sector at a time (item 62), 3 is still best for KV32 and equal
 * to 2 for KV64. */
#define HIVE_PASS_BLOCKS_PER_SM 3
/* Blocks per SM the registers of the batch kernels of W-bit keys and S-slot
 * buckets must allow: that of the capped insert pass, for buckets of up to
 * 64 bytes.  Left to itself, ptxas held the KV32 pass to 40 registers and
 * spilled 16 bytes; asked for 3 blocks it took 46 and spilled none (H100:
 * insert +0.6%, mixed +0.8%, bench/NOTES.md item 54).  Since the scans stop
 * at the key or a free slot (item 61) the pass needs 40, the find 38, the
 * erase 36 and the mixed kernel 52, none spilling.  Larger buckets need more
 * than the 80 registers 3 blocks leave, and would spill. */
#define HIVE_BATCH_MIN_BLOCKS(W, S) ((W) * (S) <= 512 ? HIVE_PASS_BLOCKS_PER_SM : 1)

/* OP is a hive_op for a uniform batch, or -1 for a mixed batch (b.ops).  ONE
 * is the per-element function of the table's key width.  Inserts run only
 * their lock-free part here; hive_deferred_* runs the locked part of those
 * that need it (both buckets full), all at once, after this kernel.  Run in
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
#define HIVE_DEFINE_BATCH_KERNEL(name, W, S, OP, ONE)                                \
    __global__ void __launch_bounds__(256, HIVE_BATCH_MIN_BLOCKS(W, S)) name(hive_view v, hive_batch b, uint64_t *counters) \
    {                                                                                \
        const int inserts = (OP) != HIVE_OP_FIND && (OP) != HIVE_OP_ERASE;           \
        hive_tally t = {};                                                           \
        uint64_t stride = (uint64_t)gridDim.x * blockDim.x;                          \
        for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u); w < b.n; \
             w += stride) {                                                          \
            uint64_t i = w + (threadIdx.x & 31u);                                    \
            int r = i < b.n ? ONE(&v, S, &b, i, (OP) >= 0 ? (OP) : (int)b.ops[i], &t, 1) : 0; \
            if (inserts) {                                                           \
                uint32_t deferred = __ballot_sync(0xffffffffu, r == HIVE_R_DEFER);   \
                if ((threadIdx.x & 31u) == 0 && b.marks != NULL)                     \
                    hive_marks_deferred(&b)[w >> 5] = deferred;                      \
            } else {                                                                 \
                __syncwarp();                                                        \
            }                                                                        \
        }                                                                            \
        hive_tally_flush(&t, counters);                                              \
    }

/* The locked part of the inserts a batch kernel deferred, one thread per
 * key, in two launches: NAME runs the keys marked in ROW of the batch's marks
 * (core/marks.h), or, in a batch without marks, those whose result is MARK
 * (counted in counters[CTR]), through PART of the locked path (see
 * HIVE_DEFINE_ONE).  The short launch (PART 2) marks unfinished the keys it
 * leaves to the deep one; the deep launch (PART 3) clears the mark of every
 * key it places, so that only those rejected for room keep it.
 * The first launch takes every deferred key through the short locked path
 * (so that no warp of it waits on one lane's deep search); the second, the
 * few that need a deeper search (a sixth of them in a fill to 0.9), through
 * the rest.
 * Each warp gathers its keys 32 at a time in shared memory and runs them
 * together: in place, a warp would hold the few marked keys of each stretch
 * of 32, and the locked path's latency would be paid once per stretch
 * instead of once per 32 keys. */
#define HIVE_DEFERRED_WARPS (256 / 32)
/* Blocks of this kernel per SM, for keys of W bits (registers capped to fit):
 * its warps wait on memory with few lanes converged, so more of them in flight
 * pay for some spills (H200, last ninth of a KV32 fill to 0.9, 4 blocks and 64
 * registers: 2.12 -> 1.84 ms).  KV64's 16-byte slots spill more at 64: 3
 * blocks and 80 registers (H100, fill of 2^25 KV64 keys to 0.9: short launch
 * 1.27 -> 1.17 ms, deep 0.83 -> 0.73; KV32 unchanged at 3, bench/NOTES.md
 * item 51). */
#define HIVE_DEFERRED_MIN_BLOCKS(W) ((W) == 64 ? 3 : 4)
/* Rows of 32 keys a warp takes at once while gathering (one load of as many
 * words of marks, or independent loads of results): the scan of a batch is
 * not one memory latency per 32 keys. */
#define HIVE_DEFERRED_ROWS 8
#define HIVE_DEFERRED_HOLD (32 + 32 * HIVE_DEFERRED_ROWS)
#define HIVE_DEFINE_DEFERRED_KERNEL(NAME, W, S, ROW, MARK, CTR, PART)                           \
    __global__ void __launch_bounds__(256, HIVE_DEFERRED_MIN_BLOCKS(W))                         \
        NAME(hive_view v, hive_batch b, uint64_t *counters)                                     \
    {                                                                                           \
        __shared__ uint64_t pending_all[HIVE_DEFERRED_WARPS][HIVE_DEFERRED_HOLD];               \
        /* Tallies in shared memory, not registers: across the locked path they held a dozen   \
         * of the 64 registers this kernel may use, which it spills for (item 67 of            \
         * bench/NOTES.md: more spills cost more than the loads they replaced).  Here fewer    \
         * spills (KV32 short kernel: 28 -> 8 bytes of spill stores), fills unchanged (H100:   \
         * +0.1% KV32, +0.4% KV64, item 69). */                                                \
        __shared__ hive_tally tallies[256];                                                     \
        if (counters[CTR] == 0)                                                                 \
            return;                                                                             \
        uint64_t *pending = pending_all[threadIdx.x / 32];                                      \
        unsigned lane = threadIdx.x & 31u;                                                      \
        uint32_t *marks = b.marks != NULL ? ROW(&b) : NULL;                                     \
        hive_tally *t = &tallies[threadIdx.x];                                                  \
        hive_tally zero = {};                                                                   \
        *t = zero;                                                                              \
        uint32_t held = 0;                                                                      \
        uint64_t stride = (uint64_t)gridDim.x * blockDim.x * HIVE_DEFERRED_ROWS;                \
        for (uint64_t w = ((uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u)) * HIVE_DEFERRED_ROWS;; \
             w += stride) {                                                                     \
            int more = w < b.n; /* the same in every lane */                                    \
            uint32_t word = 0;                                                                  \
            uint8_t result[HIVE_DEFERRED_ROWS];                                                 \
            if (marks != NULL) {                                                                \
                if (more && lane < HIVE_DEFERRED_ROWS && w + 32u * lane < b.n)                  \
                    word = marks[(w >> 5) + lane];                                              \
            } else {                                                                            \
                _Pragma("unroll") for (int row = 0; row < HIVE_DEFERRED_ROWS; row++) {          \
                    uint64_t i = w + 32u * row + lane;                                          \
                    result[row] = more && i < b.n ? b.results[i] : 0;                           \
                }                                                                               \
            }                                                                                   \
            _Pragma("unroll") for (int row = 0; row < HIVE_DEFERRED_ROWS; row++) {              \
                uint32_t mask = marks != NULL ? __shfl_sync(0xffffffffu, word, row)             \
                                              : __ballot_sync(0xffffffffu, result[row] == (MARK)); \
                if (mask >> lane & 1u)                                                          \
                    pending[held + __popc(mask & ((1u << lane) - 1u))] = w + 32u * row + lane;  \
                held += __popc(mask);                                                           \
            }                                                                                   \
            __syncwarp();                                                                       \
            while (held >= 32 || (!more && held > 0)) {                                         \
                if (lane < held) {                                                              \
                    uint64_t k = pending[lane];                                                 \
                    int r = hive_dict_one_kv##W(&v, S, &b, k, b.ops != NULL ? (int)b.ops[k] : (int)b.op, \
                                                t, PART);                                       \
                    if ((PART) == 2 && r == HIVE_R_DEFER_DEEP && marks != NULL)                 \
                        hive_mark_set(hive_marks_unfinished(&b), k);                            \
                    if ((PART) == 3 && r != HIVE_R_REJECTED_FULL && marks != NULL)              \
                        hive_mark_clear(marks, k);                                              \
                }                                                                               \
                __syncwarp();                                                                   \
                uint32_t rest = held > 32 ? held - 32 : 0;                                      \
                for (uint32_t base = 0; base < rest; base += 32) { /* shift the rest down */    \
                    uint64_t moved = base + lane < rest ? pending[32 + base + lane] : 0;        \
                    __syncwarp();                                                               \
                    if (base + lane < rest)                                                     \
                        pending[base + lane] = moved;                                           \
                    __syncwarp();                                                               \
                }                                                                               \
                held = rest;                                                                    \
            }                                                                                   \
            if (!more)                                                                          \
                break;                                                                          \
        }                                                                                       \
        hive_tally_flush(t, counters);                                                          \
    }

/* Takes the full bits for the deferred kernels of a KV32 table
 * (hive_view.full_hint: one per bucket, in L2), from the last slot of every
 * bucket.  Their eviction search then reads from DRAM the room of a
 * candidate only where the bit says it may have one: about a third of them at
 * load 0.9.  The bits cost one read of the whole table in order, so they are
 * taken only for a batch whose deferred keys would have read more at random:
 * at least one per HIVE_HINT_TABLE_BYTES_PER_KEY bytes of buckets (H100, fill
 * of 2^26 KV32 keys to 0.9, 600 MB of buckets, 5.6 M deferred keys: short
 * deferred launch 2.17 -> 1.85 ms for 0.20 ms of reading).  KV64 tables never
 * take them: at 2^25 keys (as many bytes, 2.8 M deferred keys) the launch
 * went 1.33 -> 1.21 ms for the same 0.20 ms (bench/NOTES.md item 39).  A
 * batch that does not take them clears them (a write of one bit per bucket:
 * no bit says full), so the deferred kernels need not know which it was.  The
 * bits are the call's own (cuda_batch.cu). */
#define HIVE_HINT_TABLE_BYTES_PER_KEY 160
#define HIVE_DEFINE_HINT_KERNEL(NAME, S)                                                        \
    __global__ void __launch_bounds__(256) NAME(hive_view v, hive_batch b, uint64_t *counters) \
    {                                                                                           \
        (void)b;                                                                                \
        uint64_t buckets = hive_index_buckets(v.ix);                                            \
        int take = counters[HIVE_CTR_DEFERRED] * HIVE_HINT_TABLE_BYTES_PER_KEY >=               \
                   buckets * (S) * sizeof(uint64_t);                                            \
        unsigned lane = threadIdx.x & 31u;                                                      \
        uint64_t stride = (uint64_t)gridDim.x * blockDim.x;                                     \
        for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u); w < buckets; \
             w += stride) {                                                                     \
            uint64_t bk = w + lane;                                                             \
            int full = 0;                                                                       \
            if (take && bk < buckets)                                                           \
                full = hive_slot_key32(hive_load64(v.slots + bk * (S) + (S) - 1)) < HIVE_K32_VACANT; \
            uint32_t mask = __ballot_sync(0xffffffffu, full);                                   \
            if (lane == 0)                                                                      \
                ((uint32_t *)v.full_hint)[w >> 5] = mask;                                       \
        }                                                                                       \
    }

/* A tile of T lanes per key: key i goes to the i-th tile of the grid. */
#define HIVE_DEFINE_TILE_KERNEL(name, S, T, OP)                                      \
    __global__ void __launch_bounds__(256) name(hive_view v, hive_batch b, uint64_t *counters) \
    {                                                                                \
        const hive_geom g = {S, T};                                                  \
        hive_tally t = {};                                                           \
        uint64_t stride = (uint64_t)gridDim.x * blockDim.x / T;                      \
        for (uint64_t i = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / T; i < b.n; i += stride) \
            if (hive_dict_one_kv32_tile(&v, g, &b, i, (OP) >= 0 ? (OP) : (int)b.ops[i], &t, 0) == \
                    HIVE_R_REJECTED_FULL &&                                                  \
                hive_tile_first(g) && b.marks != NULL)                                       \
                hive_mark_set(hive_marks_unfinished(&b), i);                                 \
        hive_tally_flush(&t, counters);                                              \
    }

/* The four batch kernels of one bucket size and width (W: 32 or 64), and the
 * two that finish their deferred inserts. */
#define HIVE_DEFINE_BATCH_KERNELS(W, S)                                                          \
    HIVE_DEFINE_BATCH_KERNEL(hive_find_kv##W##_s##S, W, S, HIVE_OP_FIND, hive_dict_one_kv##W)    \
    HIVE_DEFINE_BATCH_KERNEL(hive_upsert_kv##W##_s##S, W, S, HIVE_OP_UPSERT, hive_dict_one_kv##W) \
    HIVE_DEFINE_BATCH_KERNEL(hive_erase_kv##W##_s##S, W, S, HIVE_OP_ERASE, hive_dict_one_kv##W)  \
    HIVE_DEFINE_BATCH_KERNEL(hive_mixed_kv##W##_s##S, W, S, -1, hive_dict_one_kv##W)             \
    HIVE_DEFINE_DEFERRED_KERNEL(hive_deferred_kv##W##_s##S, W, S, hive_marks_deferred,             \
                                HIVE_R_DEFER, HIVE_CTR_DEFERRED, 2)                              \
    HIVE_DEFINE_DEFERRED_KERNEL(hive_deferred_deep_kv##W##_s##S, W, S, hive_marks_unfinished,      \
                                HIVE_R_DEFER_DEEP, HIVE_CTR_DEFERRED_DEEP, 3)

/* The four tile kernels of one KV32 geometry. */
#define HIVE_DEFINE_TILE_KERNELS(S, T)                                                  \
    HIVE_DEFINE_TILE_KERNEL(hive_find_kv32_s##S##_t##T, S, T, HIVE_OP_FIND)             \
    HIVE_DEFINE_TILE_KERNEL(hive_upsert_kv32_s##S##_t##T, S, T, HIVE_OP_UPSERT)         \
    HIVE_DEFINE_TILE_KERNEL(hive_erase_kv32_s##S##_t##T, S, T, HIVE_OP_ERASE)           \
    HIVE_DEFINE_TILE_KERNEL(hive_mixed_kv32_s##S##_t##T, S, T, -1)

/* Runs again the elements of b rejected for room, after a growth, and clears
 * the marks of those it places; one thread per key (tiles follow the same
 * protocol). */
#define HIVE_DEFINE_RETRY_KERNEL(W, S)                                                          \
    __global__ void __launch_bounds__(256) hive_retry_kv##W##_s##S(hive_view v, hive_batch b,    \
                                                                   uint64_t *counters)          \
    {                                                                                           \
        hive_tally t = {};                                                                      \
        uint64_t stride = (uint64_t)gridDim.x * blockDim.x;                                     \
        for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < b.n; i += stride) { \
            if (!hive_batch_rejected_full(&b, i))                                               \
                continue;                                                                       \
            int op = b.ops != NULL ? (int)b.ops[i] : (int)b.op;                                 \
            hive_batch_rerun(&b, i, hive_dict_one_kv##W(&v, S, &b, i, op, &t, 0) == HIVE_R_REJECTED_FULL); \
        }                                                                                       \
        hive_tally_flush(&t, counters);                                                         \
    }

/* A slot's key and value, read outside any concurrent operation (an export
 * runs alone). */
static __device__ __forceinline__ uint32_t hive_slot_key_kv32(const uint64_t *s) { return hive_slot_key32(*s); }
static __device__ __forceinline__ uint32_t hive_slot_value_kv32(const uint64_t *s) { return hive_slot_value32(*s); }
static __device__ __forceinline__ uint64_t hive_slot_key_kv64(const uint64_t *s) { return s[0]; }
static __device__ __forceinline__ uint64_t hive_slot_value_kv64(const uint64_t *s) { return s[1]; }

/* One resize op (designs/hive/resize_body.h) over [begin, end), one thread per
 * bucket or stash slot; counters[HIVE_CTR_INSERTED] sums what it counts.
 * Tiles share the layout and the protocol, so every geometry of a bucket
 * size uses these. */
#define HIVE_DEFINE_RESIZE_KERNEL(W, S)                                                         \
    __global__ void __launch_bounds__(256) hive_resize_kv##W##_s##S(                            \
        int op, hive_view v, hive_view to, hive_index ix, uint64_t begin, uint64_t end,         \
        uint64_t *counters)                                                                     \
    {                                                                                           \
        uint64_t r = 0;                                                                         \
        uint64_t stride = (uint64_t)gridDim.x * blockDim.x;                                     \
        for (uint64_t i = begin + (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < end;     \
             i += stride)                                                                       \
            r += hive_resize_one_kv##W(op, &v, &to, S, ix, i);                                  \
        if (r != 0)                                                                             \
            atomicAdd((unsigned long long *)(counters + HIVE_CTR_INSERTED), (unsigned long long)r); \
    }

/* Appends the live pairs of `slots` (n of them) to out_keys/out_values;
 * counters[HIVE_CTR_INSERTED] is the shared write cursor. */
#define HIVE_DEFINE_EXPORT_KERNEL(W, K)                                                          \
    __global__ void __launch_bounds__(256) hive_export_kv##W(const uint64_t *slots, uint64_t n,  \
                                                             K *out_keys, K *out_values,         \
                                                             uint64_t capacity, uint64_t *counters) \
    {                                                                                            \
        uint64_t stride = (uint64_t)gridDim.x * blockDim.x;                                      \
        uint64_t start = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;                        \
        uint64_t rounds = (n + stride - 1) / stride; /* every lane runs the same trips */        \
        for (uint64_t r = 0; r < rounds; r++) {                                                  \
            uint64_t i = start + r * stride;                                                     \
            const uint64_t *slot = slots + i * (W / 32);                                         \
            int live = i < n && !hive_k##W##_reserved(hive_slot_key_kv##W(slot));                \
            uint32_t mask = __ballot_sync(0xffffffffu, live);                                    \
            if (mask == 0)                                                                       \
                continue;                                                                        \
            int lane = threadIdx.x & 31;                                                         \
            unsigned long long base = 0;                                                         \
            if (lane == 0)                                                                       \
                base = atomicAdd((unsigned long long *)(counters + HIVE_CTR_INSERTED),           \
                                 (unsigned long long)__popc(mask));                              \
            base = __shfl_sync(0xffffffffu, base, 0);                                            \
            if (live) {                                                                          \
                uint64_t at = base + __popc(mask & ((1u << lane) - 1));                          \
                if (at < capacity) {                                                             \
                    out_keys[at] = hive_slot_key_kv##W(slot);                                    \
                    out_values[at] = hive_slot_value_kv##W(slot);                                \
                }                                                                                \
            }                                                                                    \
        }                                                                                        \
    }

#endif
