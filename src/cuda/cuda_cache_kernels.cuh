/* cuda_cache_kernels.cuh — the cache table's kernels (cache_body.h's
 * per-key element in warp-stride loops), included once by cuda_cache.cu,
 * which launches them.
 *
 * Shape of every bulk kernel.  A warp takes 32 consecutive keys, lane l key
 * base + l (lanes past n take part in the collective steps with nothing to
 * do), and the grid strides by whole warps.  Each lane runs hive_cache_begin
 * for its own key (a thread per key: the most lookups in flight); then the
 * warp copies the values of all its keys together (cache_copy_warp: word w
 * of key j by lane (j * words + w) % 32, so that a key's words are
 * consecutive lanes and a value of one word is its own lane's), then each
 * lane runs hive_cache_end.
 *
 * Readers (FIND, CONTAINS) have kernels of their own, with the op a
 * constant: no BUSY loop, digests through the read-only path, and only the
 * registers a lookup needs.  Writers run rounds: the lanes still pending run
 * begin; those that got something (not BUSY) copy, publish and leave; the
 * BUSY ones back off and run again.  A slot lock lives one round (taken in
 * begin, let go in end), a bucket lock only inside begin, so a warp never
 * waits on a lock one of its own lanes holds.
 *
 * Memory order (cache_body.h's protocol; docs/cache.md).  A writer's slot
 * lock is a relaxed CAS; when a round reads table memory under such a lock
 * (an evicted value going out, FIND_OR_INSERT's found value, ACCUM's sum),
 * every lane issues fence.acquire before the copies (the acquire half of the
 * lock: the previous holder published with fence.acq_rel + store), and the
 * copying lanes, which may not be the locking one, read after a __syncwarp.
 * Values written by other lanes are ordered before the owner's publishing
 * fence by the __syncwarp after the copies. */
#ifndef HIVE_CUDA_CACHE_KERNELS_CUH
#define HIVE_CUDA_CACHE_KERNELS_CUH

#include <stdint.h>

#include "cache/cache_body.h"

/* Threads per block of every cache kernel (whole warps). */
#define HIVE_CACHE_THREADS 256
static_assert(HIVE_CACHE_THREADS % 32 == 0, "blocks of whole warps");

#define HIVE_CACHE_FULL 0xffffffffu

/* Blocks per SM the registers of a kernel must allow (ptxas otherwise picks
 * its own target and spilled a few words in most kernels).  Readers: 8, the
 * full 2048 threads of an SM (32 registers, no spill: a lookup is latency
 * bound, more lanes in flight hide more of it).  Writers: 4 (64 registers,
 * no spill; at 5 the upsert kernel spilled 24 bytes, ACCUM 36). */
#ifndef HIVE_CACHE_READ_MIN_BLOCKS
#define HIVE_CACHE_READ_MIN_BLOCKS 8
#endif
#ifndef HIVE_CACHE_WRITE_MIN_BLOCKS
#define HIVE_CACHE_WRITE_MIN_BLOCKS 4
#endif

/* Per-call device counters: a block of HIVE_CACHE_CTR_BLOCK words per call
 * in flight, zero between calls.  The last thread block of a kernel to
 * finish hands the counts to the host and zeroes the block
 * (hive_cache_finish), so that a call is its kernel and one wait: no memset
 * or copy on the stream, which cost 5% of a 2^20-key find. */
enum {
    HIVE_CACHE_CTR_RESERVED = 0,
    HIVE_CACHE_CTR_OUT = 1, /* also the write cursor of compact outputs */
    HIVE_CACHE_CTR_INSERTED = 2,
    HIVE_CACHE_CTR_EVICTED = 3,
    HIVE_CACHE_CTR_REFUSED = 4,
    HIVE_CACHE_CTR_ERASED = 5,
    HIVE_CACHE_CTR_COUNT = 6,
    HIVE_CACHE_CTR_TICKET = 6, /* thread blocks finished */
    HIVE_CACHE_CTR_HOST = 7,   /* the device address of this block's host (mapped) twin; set at create */
    HIVE_CACHE_CTR_BLOCK = 8   /* 64 bytes a block */
};

/* Every thread of every block calls it last.  The block that finishes last
 * (its ticket) moves the counts to the host twin and zeroes them. */
static __device__ __forceinline__ void hive_cache_finish(uint64_t *counters)
{
    __syncthreads();
    if (threadIdx.x != 0)
        return;
    __threadfence(); /* this block's counts before its ticket */
    unsigned long long done = atomicAdd((unsigned long long *)&counters[HIVE_CACHE_CTR_TICKET], 1ull);
    if (done != gridDim.x - 1)
        return;
    __threadfence(); /* every block's counts, seen through their tickets */
    volatile uint64_t *host = (volatile uint64_t *)counters[HIVE_CACHE_CTR_HOST];
    for (int k = 0; k < HIVE_CACHE_CTR_COUNT; k++)
        host[k] = atomicExch((unsigned long long *)&counters[k], 0ull);
    atomicExch((unsigned long long *)&counters[HIVE_CACHE_CTR_TICKET], 0ull);
    __threadfence_system();
}

/* How a call's values are copied: words of W bytes (the widest of 16, 8, 4,
 * 2, 1 dividing value_bytes and the address of every value array the call
 * touches), `words` of them a value; 32 = q * words + r steps the copy loop
 * without a division.  `bytewise`: ACCUM with a caller array not aligned to
 * the element (W is then the element size, read and written a byte at a
 * time). */
typedef struct hive_cache_copy {
    uint32_t W, words, q, r;
    uint32_t value_type; /* hive_value_type, for ACCUM */
    uint32_t bytewise;
} hive_cache_copy;

/* ---------------------------------------------------------------- value words */

#define CACHE_ADD_ELEM(T, d, s, bytewise)                        \
    do {                                                         \
        T x_, y_;                                                \
        if (bytewise) {                                          \
            memcpy(&x_, (d), sizeof(T));                         \
            memcpy(&y_, (s), sizeof(T));                         \
            x_ += y_;                                            \
            memcpy((d), &x_, sizeof(T));                         \
        } else {                                                 \
            x_ = *(const T *)(const void *)(d);                  \
            y_ = *(const T *)(const void *)(s);                  \
            *(T *)(void *)(d) = x_ + y_;                         \
        }                                                        \
    } while (0)

/* d += s, element-wise in value_type (integers wrap), over one word. */
static __device__ __forceinline__ void hive_cache_add_word(uint8_t *d, const uint8_t *s, const hive_cache_copy *g)
{
    switch (g->value_type) {
    case HIVE_VALUE_F32:
        for (uint32_t e = 0; e < g->W; e += 4)
            CACHE_ADD_ELEM(float, d + e, s + e, g->bytewise);
        break;
    case HIVE_VALUE_F64:
        for (uint32_t e = 0; e < g->W; e += 8)
            CACHE_ADD_ELEM(double, d + e, s + e, g->bytewise);
        break;
    case HIVE_VALUE_I32:
        for (uint32_t e = 0; e < g->W; e += 4)
            CACHE_ADD_ELEM(uint32_t, d + e, s + e, g->bytewise);
        break;
    case HIVE_VALUE_I64:
        for (uint32_t e = 0; e < g->W; e += 8)
            CACHE_ADD_ELEM(uint64_t, d + e, s + e, g->bytewise);
        break;
    default: /* BYTES: api refuses to accumulate them */
        break;
    }
}

/* One word from s to d (or added to d). */
static __device__ __forceinline__ void hive_cache_word(uint8_t *d, const uint8_t *s, int accumulate,
                                                       const hive_cache_copy *g)
{
    if (accumulate) {
        hive_cache_add_word(d, s, g);
        return;
    }
    if (g->bytewise) {
        for (uint32_t k = 0; k < g->W; k++)
            d[k] = s[k];
        return;
    }
    switch (g->W) {
    case 16:
        *(uint4 *)(void *)d = *(const uint4 *)(const void *)s;
        break;
    case 8:
        *(uint64_t *)(void *)d = *(const uint64_t *)(const void *)s;
        break;
    case 4:
        *(uint32_t *)(void *)d = *(const uint32_t *)(const void *)s;
        break;
    case 2:
        *(uint16_t *)(void *)d = *(const uint16_t *)(const void *)s;
        break;
    default:
        *d = *s;
        break;
    }
}

/* Warp-collective (every lane calls it, each with its own key's src and
 * dst, NULL for none): copies every lane's value, word w of key j by lane
 * (j * words + w) % 32, coalesced.  Only the keys with a copy take part:
 * their pointers are first gathered to the low lanes (a warp with few copies
 * of long values spends no rounds on the others).  `can_accumulate`: a
 * constant, whether `accumulate` may be set. */
static __device__ __forceinline__ void hive_cache_copy_warp(const uint8_t *src, uint8_t *dst, int accumulate,
                                                            int can_accumulate, const hive_cache_copy *g)
{
    int has = src != NULL && dst != NULL;
    uint32_t mask = __ballot_sync(HIVE_CACHE_FULL, has);
    if (mask == 0)
        return;
    if (g->words == 1) { /* a lane per key: its own value */
        if (has)
            hive_cache_word(dst, src, can_accumulate && accumulate, g);
        return;
    }
    uint32_t lane = threadIdx.x & 31u;
    uint32_t m = __popc(mask);
    if (mask != HIVE_CACHE_FULL) { /* lane r takes the r-th copying lane's key */
        int from = lane < m ? (int)__fns(mask, 0, (int)lane + 1) : (int)lane;
        src = (const uint8_t *)__shfl_sync(HIVE_CACHE_FULL, (unsigned long long)src, from);
        dst = (uint8_t *)__shfl_sync(HIVE_CACHE_FULL, (unsigned long long)dst, from);
        if (can_accumulate)
            accumulate = __shfl_sync(HIVE_CACHE_FULL, accumulate, from);
    }
    uint32_t total = m * g->words;
    uint32_t j = lane / g->words, w = lane - j * g->words;
    for (uint32_t base = 0; base < total; base += 32) {
        const uint8_t *s = (const uint8_t *)__shfl_sync(HIVE_CACHE_FULL, (unsigned long long)src, (int)(j & 31u));
        uint8_t *d = (uint8_t *)__shfl_sync(HIVE_CACHE_FULL, (unsigned long long)dst, (int)(j & 31u));
        int a = can_accumulate ? __shfl_sync(HIVE_CACHE_FULL, accumulate, (int)(j & 31u)) : 0;
        if (base + lane < total)
            hive_cache_word(d + (uint64_t)w * g->W, s + (uint64_t)w * g->W, a, g);
        w += g->r;
        j += g->q;
        if (w >= g->words) {
            w -= g->words;
            j++;
        }
    }
}

/* Warp-collective: a compact index for each lane with `emit` set, one
 * atomic per warp on *cursor. */
static __device__ __forceinline__ uint64_t hive_cache_emit_index(int emit, uint64_t *cursor)
{
    uint32_t mask = __ballot_sync(HIVE_CACHE_FULL, emit);
    if (mask == 0)
        return 0;
    uint32_t lane = threadIdx.x & 31u;
    int leader = __ffs((int)mask) - 1;
    unsigned long long base = 0;
    if ((int)lane == leader)
        base = atomicAdd((unsigned long long *)cursor, (unsigned long long)__popc(mask));
    base = __shfl_sync(HIVE_CACHE_FULL, base, leader);
    return (uint64_t)base + (uint64_t)__popc(mask & ((1u << lane) - 1u));
}

/* Writes lane's compact record (emit set) and points its value copy there. */
static __device__ __forceinline__ void hive_cache_emit(const hive_cache_view *v, const hive_cache_batch *b,
                                                       hive_cache_step *st, uint64_t *counters)
{
    uint64_t at = hive_cache_emit_index(st->emit, counters + HIVE_CACHE_CTR_OUT);
    if (!st->emit)
        return;
    b->out_keys[at] = st->emit_key;
    if (b->out_scores != NULL)
        b->out_scores[at] = st->emit_score;
    if (b->out_indices != NULL)
        b->out_indices[at] = st->emit_score;
    if (st->out_src != NULL)
        st->out_dst = b->out_values != NULL ? (uint8_t *)b->out_values + at * v->value_bytes : NULL;
}

/* A lane's outcome tallies; summed per warp at the end, one atomic each. */
typedef struct hive_cache_tally {
    uint32_t reserved, inserted, evicted, refused, erased;
} hive_cache_tally;

static __device__ __forceinline__ void hive_cache_count(hive_cache_tally *t, uint8_t result)
{
    t->reserved += result == HIVE_RESULT_REJECTED_RESERVED;
    t->inserted += result == HIVE_RESULT_INSERTED || result == HIVE_RESULT_EVICTED;
    t->evicted += result == HIVE_RESULT_EVICTED;
    t->refused += result == HIVE_RESULT_REFUSED;
    t->erased += result == HIVE_RESULT_ERASED;
}

static __device__ __forceinline__ void hive_cache_flush1(uint32_t x, uint64_t *counter)
{
    uint32_t sum = hive_warp_sum(x);
    if ((threadIdx.x & 31u) == 0 && sum != 0)
        atomicAdd((unsigned long long *)counter, (unsigned long long)sum);
}

static __device__ __forceinline__ void hive_cache_flush(const hive_cache_tally *t, uint64_t *counters)
{
    hive_cache_flush1(t->reserved, counters + HIVE_CACHE_CTR_RESERVED);
    hive_cache_flush1(t->inserted, counters + HIVE_CACHE_CTR_INSERTED);
    hive_cache_flush1(t->evicted, counters + HIVE_CACHE_CTR_EVICTED);
    hive_cache_flush1(t->refused, counters + HIVE_CACHE_CTR_REFUSED);
    hive_cache_flush1(t->erased, counters + HIVE_CACHE_CTR_ERASED);
}

/* A step for a lane with nothing to do this round. */
static __device__ __forceinline__ void hive_cache_step_none(hive_cache_step *st)
{
    memset(st, 0, sizeof *st);
    st->kind = HIVE_CACHE_SKIP;
    st->slot = st->lock_lo = st->lock_hi = HIVE_CACHE_NO_SLOT;
}

/* ---------------------------------------------------------------- readers */

/* FIND or CONTAINS (op, a constant) over the batch.  No writer runs
 * (api's group lock): no BUSY, no locks, digests through the read-only
 * path (cache_body.h's `stable`). */
static __device__ __forceinline__ void hive_cache_read_pass(hive_cache_view v, hive_cache_batch b,
                                                            hive_cache_copy g, uint64_t *counters, int op)
{
    b.op = op;
    const int emits = b.out_keys != NULL;                          /* find_missed */
    const int copies = op == HIVE_CACHE_FIND && b.values_out != NULL; /* warp-uniform */
    uint32_t lane = threadIdx.x & 31u;
    uint32_t reserved = 0;
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u); w < b.n; w += stride) {
        uint64_t e = w + lane;
        int valid = e < b.n;
        uint64_t i = b.order != NULL && valid ? b.order[e] : e;
        hive_cache_step st;
        if (valid)
            hive_cache_begin(&v, &b, i, 0, &st);
        else
            hive_cache_step_none(&st);
        if (emits)
            hive_cache_emit(&v, &b, &st, counters);
        if (copies) {
            /* Warp-uniform: g, and every lane is here. */
            hive_cache_copy_warp(st.out_src, st.out_dst, 0, 0, &g);
        } else if (!emits)
            __syncwarp(); /* keep the warp's lanes in step: their loads go out together */
        if (valid) {
            hive_cache_end_outputs(&b, i, &st); /* a reader locked nothing */
            reserved += st.result == HIVE_RESULT_REJECTED_RESERVED;
        }
    }
    hive_cache_flush1(reserved, counters + HIVE_CACHE_CTR_RESERVED);
    hive_cache_finish(counters);
}

__global__ void __launch_bounds__(HIVE_CACHE_THREADS, HIVE_CACHE_READ_MIN_BLOCKS)
    hive_cache_find_kernel(hive_cache_view v, hive_cache_batch b, hive_cache_copy g, uint64_t *counters)
{
    hive_cache_read_pass(v, b, g, counters, HIVE_CACHE_FIND);
}

/* Each key's bucket and its position, for a batch to be sorted into bucket
 * order (cuda_cache.cu, "calls over host values"): its first bucket, or,
 * with two buckets a key, the one a writer would use now
 * (hive_cache_bucket_hint: where it is, else where a batch that `inserts`
 * would store it). */
__global__ void __launch_bounds__(HIVE_CACHE_THREADS)
    hive_cache_bucket_order_kernel(hive_cache_view v, const uint64_t *keys, uint64_t n, int inserts,
                                   uint64_t *buckets, uint64_t *index)
{
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        hive_cache_place p = hive_cache_place_of(keys[i], v.buckets, v.dual, v.seed);
        buckets[i] = hive_cache_bucket_hint(&v, p, keys[i], inserts);
        index[i] = i;
    }
}

__global__ void __launch_bounds__(HIVE_CACHE_THREADS, HIVE_CACHE_READ_MIN_BLOCKS)
    hive_cache_contains_kernel(hive_cache_view v, hive_cache_batch b, hive_cache_copy g, uint64_t *counters)
{
    hive_cache_read_pass(v, b, g, counters, HIVE_CACHE_CONTAINS);
}

/* ---------------------------------------------------------------- writers */

/* A writer op (a constant) over the batch, in rounds per warp (top of
 * file). */
static __device__ __forceinline__ void hive_cache_write_pass(hive_cache_view v, hive_cache_batch b,
                                                             hive_cache_copy g, uint64_t *counters, int op)
{
    b.op = op;
    const int emits = b.out_keys != NULL; /* insert_and_evict; warp-uniform */
    /* Which copies the op may make, and whether they read table memory under
     * a slot lock (then the lock needs its acquire fence). */
    const int copies_out = emits || op == HIVE_CACHE_FIND_OR_INSERT;
    const int copies_in = op != HIVE_CACHE_ASSIGN_SCORES && op != HIVE_CACHE_ERASE;
    const int can_accumulate = op == HIVE_CACHE_ACCUM;
    const int reads_table = copies_out || can_accumulate;
    uint32_t lane = threadIdx.x & 31u;
    hive_cache_tally t = {0, 0, 0, 0, 0};
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u); w < b.n; w += stride) {
        uint64_t e = w + lane;
        uint64_t i = b.order != NULL && e < b.n ? b.order[e] : e;
        uint32_t pending = __ballot_sync(HIVE_CACHE_FULL, e < b.n);
        for (unsigned round = 0; pending != 0; round++) {
            int mine = (pending >> lane) & 1u;
            hive_cache_step st;
            if (mine)
                hive_cache_begin(&v, &b, i, hive_cache_clock(), &st);
            else
                hive_cache_step_none(&st);
            int busy = mine && st.kind == HIVE_CACHE_BUSY; /* took nothing, set no copy */
            if (emits)
                hive_cache_emit(&v, &b, &st, counters);
            if (reads_table &&
                __any_sync(HIVE_CACHE_FULL, st.locked && (st.out_src != NULL || st.accumulate))) {
                hive_order_reads(); /* the slot locks' acquire */
                __syncwarp();
            }
            if (copies_out) {
                hive_cache_copy_warp(st.out_src, st.out_dst, 0, 0, &g);
                __syncwarp(); /* an evicted value out before the new one in */
            }
            if (copies_in)
                hive_cache_copy_warp(st.in_src, st.in_dst, st.accumulate, can_accumulate, &g);
            __syncwarp(); /* every lane's copies before the owners publish */
            if (mine && !busy) {
                hive_cache_end(&v, &b, i, &st);
                hive_cache_count(&t, st.result);
            }
            pending = __ballot_sync(HIVE_CACHE_FULL, busy);
            if (pending != 0)
                hive_backoff(round);
        }
    }
    hive_cache_flush(&t, counters);
    hive_cache_finish(counters);
}

#define HIVE_CACHE_WRITE_KERNEL(name, op)                                                            \
    __global__ void __launch_bounds__(HIVE_CACHE_THREADS, HIVE_CACHE_WRITE_MIN_BLOCKS)               \
        name(hive_cache_view v, hive_cache_batch b, hive_cache_copy g, uint64_t *counters)           \
    {                                                                                                \
        hive_cache_write_pass(v, b, g, counters, op);                                                \
    }

HIVE_CACHE_WRITE_KERNEL(hive_cache_upsert_kernel, HIVE_CACHE_UPSERT)
HIVE_CACHE_WRITE_KERNEL(hive_cache_find_or_insert_kernel, HIVE_CACHE_FIND_OR_INSERT)
HIVE_CACHE_WRITE_KERNEL(hive_cache_assign_kernel, HIVE_CACHE_ASSIGN)
HIVE_CACHE_WRITE_KERNEL(hive_cache_assign_values_kernel, HIVE_CACHE_ASSIGN_VALUES)
HIVE_CACHE_WRITE_KERNEL(hive_cache_assign_scores_kernel, HIVE_CACHE_ASSIGN_SCORES)
HIVE_CACHE_WRITE_KERNEL(hive_cache_accum_kernel, HIVE_CACHE_ACCUM)
HIVE_CACHE_WRITE_KERNEL(hive_cache_erase_kernel, HIVE_CACHE_ERASE)

/* ---------------------------------------------------------------- whole-table kernels */

/* erase_if: a thread per slot, a busy slot (a writer holds it for one of
 * its rounds) tried again in place. */
__global__ void __launch_bounds__(HIVE_CACHE_THREADS)
    hive_cache_erase_if_kernel(hive_cache_view v, hive_cache_filter f, uint64_t *counters)
{
    uint64_t n = v.buckets * v.slots;
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    uint32_t erased = 0;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        int r;
        for (unsigned round = 0; (r = hive_cache_erase_slot_if(&v, i, &f)) < 0; round++)
            hive_backoff(round);
        erased += (uint32_t)r;
    }
    hive_cache_flush1(erased, counters + HIVE_CACHE_CTR_ERASED);
    hive_cache_finish(counters);
}

/* export: slots [offset, offset + count), a lane per slot; the live entries
 * `f` selects go compactly to keys/scores/values (cursor: the OUT counter).
 * A reader: no writer runs. */
__global__ void __launch_bounds__(HIVE_CACHE_THREADS)
    hive_cache_export_kernel(hive_cache_view v, uint64_t offset, uint64_t count, hive_cache_filter f,
                             uint64_t *keys, uint8_t *values, uint64_t *scores, hive_cache_copy g,
                             uint64_t *counters)
{
    const int wants_score = scores != NULL || f.score_min != 0 || f.score_max != UINT64_MAX;
    uint32_t lane = threadIdx.x & 31u;
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u); w < count; w += stride) {
        uint64_t i = w + lane, s = offset + i;
        uint64_t k = HIVE_CACHE_KEY_EMPTY, score = 0;
        int take = 0;
        if (i < count) {
            k = v.keys[s];
            if (!hive_k64_reserved(k)) {
                score = wants_score ? v.scores[s] : 0;
                take = hive_cache_filter_match(&f, k, score);
            }
        }
        uint64_t at = hive_cache_emit_index(take, counters + HIVE_CACHE_CTR_OUT);
        if (take) {
            keys[at] = k;
            if (scores != NULL)
                scores[at] = score;
        }
        if (values != NULL)
            hive_cache_copy_warp(take ? hive_cache_value_at(&v, s) : NULL,
                                 take ? values + at * v.value_bytes : NULL, 0, 0, &g);
    }
    hive_cache_finish(counters);
}

/* Live keys among keys[0, n) (n even), two a load; the sum in the OUT
 * counter. */
__global__ void __launch_bounds__(HIVE_CACHE_THREADS)
    hive_cache_count_kernel(const uint64_t *keys, uint64_t n, uint64_t *counters)
{
    const ulonglong2 *pairs = (const ulonglong2 *)(const void *)keys;
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    uint32_t live = 0;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n / 2; i += stride) {
        ulonglong2 p = pairs[i];
        live += (p.x < HIVE_KV64_RESERVED_MIN) + (p.y < HIVE_KV64_RESERVED_MIN);
    }
    hive_cache_flush1(live, counters + HIVE_CACHE_CTR_OUT);
    hive_cache_finish(counters);
}

#endif
