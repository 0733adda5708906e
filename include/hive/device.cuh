/* hive/device.cuh — a hive table used from the caller's own CUDA kernels.
 *
 * The host takes a view of a CUDA table (hive.h: hive_device_view_acquire,
 * which pins the table's layout until hive_device_view_release) and passes
 * it by value to its kernels, whose threads then find, insert, upsert and
 * erase keys one at a time with the same slot protocol, the same design and
 * the same guarantees as the bulk calls: any mix of operations on any keys
 * from any threads at once.  Capacity is fixed inside a kernel: an insert
 * that finds no room returns HIVE_RESULT_REJECTED_FULL (make room before,
 * with hive_reserve, or run those keys again through hive_insert after the
 * release).
 *
 *   __global__ void count_words(hive_device_view t, const uint32_t *words, uint64_t n)
 *   {
 *       uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
 *       if (i < n)
 *           hive_device_upsert32(t, words[i], 1, HIVE_COMBINE_ADD);
 *   }
 *
 * Every function returns a hive_result: FOUND / NOT_FOUND (find), INSERTED,
 * UPDATED (a combine mode other than KEEP), EXISTED (KEEP), REJECTED_FULL
 * (insert, upsert), ERASED / NOT_FOUND (erase), REJECTED_RESERVED (a key
 * >= HIVE_KV*_RESERVED_MIN: nothing done), or HIVE_RESULT_NONE where the
 * view holds keys of the other width.  The ...32 functions take a KV32
 * table's view, the ...64 ones a KV64 table's (compute capability 9.0).
 *
 * Combining: HIVE_COMBINE_* as for hive_insert, or HIVE_DEVICE_COMBINE_USER
 * with the caller's own merge.  #define, before including this header,
 *     #define HIVE_USER_COMBINE32(stored, incoming)  (expression of two uint32_t)
 * (HIVE_USER_COMBINE64 likewise): e.g. a float sum in the value's bits,
 *     __float_as_uint(__uint_as_float(stored) + __uint_as_float(incoming)).
 * Each merge is atomic (a compare-and-swap of the slot, retried).
 *
 * Tiles (KV32): hive_device_*32_tile run one key on `lanes` consecutive
 * lanes of a warp (a power of two up to the table's bucket_slots, 32 at
 * most; the lanes aligned to a multiple of it), each lane passing the same
 * key, every lane getting the result: for buckets of 16 or 32 slots, whose
 * scan one thread would do alone.
 *
 * Building: this header compiles the protocol into the caller's kernels, so
 * that nothing is called out of line but the designs other than Hive's.
 * Its include path is the library's internal headers: `-I <src>` in the
 * source tree, `-I <prefix>/include/hive/internal` once installed (the CMake
 * target hive::device adds it), besides the one for hive.h.  C++17 for nvcc
 * (-std=c++17), as the library builds. */
#ifndef HIVE_DEVICE_CUH
#define HIVE_DEVICE_CUH

#include <cooperative_groups.h>
#include <stdint.h>

#include "hive.h"
#include "core/device_table.h"
#include "designs/designs.h"

/* The caller's own merge (HIVE_USER_COMBINE32/64), as a combine mode. */
#define HIVE_DEVICE_COMBINE_USER HIVE_CMB_USER

/* The view's words as the table they describe. */
static __device__ __forceinline__ hive_device_table hive_device_table_of(hive_device_view view)
{
    hive_device_words w;
    w.view = view;
    return w.table;
}

/* Adds the calling threads' `yes` to counter `ctr` of their views: one
 * atomic per view among the threads that arrive together (the counts are the
 * table's size once the view is released; hive_size). */
static __device__ __forceinline__ void hive_device_count(uint64_t *counts, int ctr, int yes)
{
    namespace cg = cooperative_groups;
    cg::coalesced_group arrived = cg::coalesced_threads();
    cg::coalesced_group same = cg::labeled_partition(arrived, (unsigned long long)(uintptr_t)counts);
    unsigned n = __popc(same.ballot(yes));
    if (same.thread_rank() == 0 && n != 0)
        atomicAdd((unsigned long long *)(counts + ctr), (unsigned long long)n);
}

/* ---------------------------------------------------------------- a thread per key */

/* The thread-per-key functions of key width W (32 or 64) with keys and
 * values of type T, written once for both widths:
 *   int hive_device_findW(view, T key, T *value)      FOUND (*value, where not NULL) / NOT_FOUND
 *   int hive_device_upsertW(view, T key, T value, int combine)
 *   int hive_device_insertW(view, T key, T value)     insert if absent: the stored value stays
 *                                                     (HIVE_RESULT_EXISTED)
 *   int hive_device_eraseW(view, T key) */
#define HIVE_DEVICE_THREAD_OPS(W, T)                                                                         \
    static __device__ __forceinline__ int hive_device_find##W(hive_device_view view, T key, T *value)         \
    {                                                                                                        \
        hive_device_table t = hive_device_table_of(view);                                                    \
        if (t.width != W)                                                                                    \
            return HIVE_R_NONE;                                                                              \
        if (hive_k##W##_reserved(key))                                                                       \
            return HIVE_R_REJECTED_RESERVED;                                                                 \
        T found = 0;                                                                                         \
        int r = hive_find_kv##W(&t.view, t.S, key, &found);                                                  \
        if (r == HIVE_R_FOUND && value != NULL)                                                              \
            *value = found;                                                                                  \
        return r;                                                                                            \
    }                                                                                                        \
                                                                                                             \
    static __device__ __forceinline__ int hive_device_upsert##W(hive_device_view view, T key, T value,        \
                                                                int combine)                                 \
    {                                                                                                        \
        hive_device_table t = hive_device_table_of(view);                                                    \
        if (t.width != W)                                                                                    \
            return HIVE_R_NONE;                                                                              \
        if (hive_k##W##_reserved(key))                                                                       \
            return HIVE_R_REJECTED_RESERVED;                                                                 \
        int step = 0;                                                                                        \
        uint32_t moves = 0;                                                                                  \
        int r = hive_upsert_kv##W(&t.view, t.S, key, value, combine, &step, &moves);                          \
        hive_device_count(t.counts, HIVE_ASYNC_INSERTED, r == HIVE_R_INSERTED);                               \
        return r;                                                                                            \
    }                                                                                                        \
                                                                                                             \
    static __device__ __forceinline__ int hive_device_insert##W(hive_device_view view, T key, T value)        \
    {                                                                                                        \
        return hive_device_upsert##W(view, key, value, HIVE_CMB_KEEP);                                       \
    }                                                                                                        \
                                                                                                             \
    static __device__ __forceinline__ int hive_device_erase##W(hive_device_view view, T key)                  \
    {                                                                                                        \
        hive_device_table t = hive_device_table_of(view);                                                    \
        if (t.width != W)                                                                                    \
            return HIVE_R_NONE;                                                                              \
        if (hive_k##W##_reserved(key))                                                                       \
            return HIVE_R_REJECTED_RESERVED;                                                                 \
        int r = hive_erase_kv##W(&t.view, t.S, key);                                                         \
        hive_device_count(t.counts, HIVE_ASYNC_ERASED, r == HIVE_R_ERASED);                                  \
        return r;                                                                                            \
    }

HIVE_DEVICE_THREAD_OPS(32, uint32_t)
HIVE_DEVICE_THREAD_OPS(64, uint64_t)
#undef HIVE_DEVICE_THREAD_OPS

/* ---------------------------------------------------------------- KV32, a tile of lanes per key */

static __device__ __forceinline__ hive_geom hive_device_geom(const hive_device_table *t, uint32_t lanes)
{
    hive_geom g = {t->S, lanes};
    return g;
}

static __device__ __forceinline__ int hive_device_find32_tile(hive_device_view view, uint32_t lanes, uint32_t key,
                                                              uint32_t *value)
{
    hive_device_table t = hive_device_table_of(view);
    if (t.width != 32)
        return HIVE_R_NONE;
    if (hive_k32_reserved(key))
        return HIVE_R_REJECTED_RESERVED;
    uint32_t found = 0;
    int r = hive_find_kv32_tile(&t.view, hive_device_geom(&t, lanes), key, &found);
    if (r == HIVE_R_FOUND && value != NULL)
        *value = found;
    return r;
}

static __device__ __forceinline__ int hive_device_upsert32_tile(hive_device_view view, uint32_t lanes,
                                                                uint32_t key, uint32_t value, int combine)
{
    hive_device_table t = hive_device_table_of(view);
    if (t.width != 32)
        return HIVE_R_NONE;
    if (hive_k32_reserved(key))
        return HIVE_R_REJECTED_RESERVED;
    hive_geom g = hive_device_geom(&t, lanes);
    int step = 0;
    uint32_t moves = 0;
    int r = hive_upsert_kv32_tile(&t.view, g, key, value, combine, &step, &moves);
    hive_device_count(t.counts, HIVE_ASYNC_INSERTED, r == HIVE_R_INSERTED && hive_tile_first(g));
    return r;
}

static __device__ __forceinline__ int hive_device_insert32_tile(hive_device_view view, uint32_t lanes,
                                                                uint32_t key, uint32_t value)
{
    return hive_device_upsert32_tile(view, lanes, key, value, HIVE_CMB_KEEP);
}

static __device__ __forceinline__ int hive_device_erase32_tile(hive_device_view view, uint32_t lanes, uint32_t key)
{
    hive_device_table t = hive_device_table_of(view);
    if (t.width != 32)
        return HIVE_R_NONE;
    if (hive_k32_reserved(key))
        return HIVE_R_REJECTED_RESERVED;
    hive_geom g = hive_device_geom(&t, lanes);
    int r = hive_erase_kv32_tile(&t.view, g, key);
    hive_device_count(t.counts, HIVE_ASYNC_ERASED, r == HIVE_R_ERASED && hive_tile_first(g));
    return r;
}

#endif
