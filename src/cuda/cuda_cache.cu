/* cuda_cache.cu — the cache table's CUDA backend (hive_cache_cuda_backend,
 * cache_backend.h): device memory of the table (cache_view.h's parallel
 * arrays), the launchers of cuda_cache_kernels.cuh on the caller's stream,
 * the per-call outcome counters, and the memory-space check of caller
 * pointers.  Every call is synchronous: it waits for its stream before it
 * returns. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "cache/cache_backend.h"
#include "cuda_alloc.h"
#include "cuda_check.h"
#include "cuda_device.h"
#include "cuda_cache_kernels.cuh"
#include "cuda_cache_unique.cuh"
#include "cuda_table.h"

#include <cub/device/device_radix_sort.cuh>

/* Counter blocks, one per call in flight (calls may come from several host
 * threads at once on one table). */
#define HIVE_CACHE_COUNTER_BLOCKS 64
static_assert(HIVE_CACHE_COUNTER_BLOCKS <= 64, "counter_busy has a bit per block");

/* The kernels, in the order of cache_kernels[] (their blocks per SM are
 * taken at create, which also loads them). */
enum {
    K_FIND,
    K_CONTAINS,
    K_UPSERT,
    K_FIND_OR_INSERT,
    K_ASSIGN,
    K_ASSIGN_VALUES,
    K_ASSIGN_SCORES,
    K_ACCUM,
    K_ERASE,
    K_ERASE_IF,
    K_EXPORT,
    K_COUNT,
    K_UNIQUE_MARK,
    K_UNIQUE_EMIT,
    K_KERNELS
};

/* The most blocks per SM a batch kernel's grid gets, where fewer than the
 * registers allow would finish their random accesses sooner.  No cap by
 * default: on an H200 (2^26 slots, dim 1) caps of 6 (readers) and 2 or 3
 * (writers) were no faster, nor were 5 or 6 writer blocks (spilling). */
#ifndef HIVE_CACHE_READ_BLOCKS_PER_SM
#define HIVE_CACHE_READ_BLOCKS_PER_SM 64
#endif
#ifndef HIVE_CACHE_WRITE_BLOCKS_PER_SM
#define HIVE_CACHE_WRITE_BLOCKS_PER_SM 64
#endif

typedef void (*hive_cache_batch_kernel)(hive_cache_view, hive_cache_batch, hive_cache_copy, uint64_t *);

static const void *const cache_kernels[K_KERNELS] = {
    (const void *)hive_cache_find_kernel,          (const void *)hive_cache_contains_kernel,
    (const void *)hive_cache_upsert_kernel,        (const void *)hive_cache_find_or_insert_kernel,
    (const void *)hive_cache_assign_kernel,        (const void *)hive_cache_assign_values_kernel,
    (const void *)hive_cache_assign_scores_kernel, (const void *)hive_cache_accum_kernel,
    (const void *)hive_cache_erase_kernel,         (const void *)hive_cache_erase_if_kernel,
    (const void *)hive_cache_export_kernel,        (const void *)hive_cache_count_kernel,
    (const void *)hive_cache_unique_mark_kernel,   (const void *)hive_cache_unique_emit_kernel};

/* The batch kernel of each hive_cache_op. */
static hive_cache_batch_kernel batch_kernel(int op, int *index)
{
    switch (op) {
    case HIVE_CACHE_FIND:
        return *index = K_FIND, hive_cache_find_kernel;
    case HIVE_CACHE_CONTAINS:
        return *index = K_CONTAINS, hive_cache_contains_kernel;
    case HIVE_CACHE_UPSERT:
        return *index = K_UPSERT, hive_cache_upsert_kernel;
    case HIVE_CACHE_FIND_OR_INSERT:
        return *index = K_FIND_OR_INSERT, hive_cache_find_or_insert_kernel;
    case HIVE_CACHE_ASSIGN:
        return *index = K_ASSIGN, hive_cache_assign_kernel;
    case HIVE_CACHE_ASSIGN_VALUES:
        return *index = K_ASSIGN_VALUES, hive_cache_assign_values_kernel;
    case HIVE_CACHE_ASSIGN_SCORES:
        return *index = K_ASSIGN_SCORES, hive_cache_assign_scores_kernel;
    case HIVE_CACHE_ACCUM:
        return *index = K_ACCUM, hive_cache_accum_kernel;
    case HIVE_CACHE_ERASE:
        return *index = K_ERASE, hive_cache_erase_kernel;
    default:
        return NULL;
    }
}

/* A batch's order over host values ("calls over host values", below). */
typedef struct order_lists {
    uint64_t n;                     /* keys the lists have room for */
    uint64_t *buckets[2], *index[2]; /* CUB's double buffers */
    void *temp;
    size_t temp_bytes;
} order_lists;

/* unique_pairs' scratch (cuda_cache_unique.cuh): its map (unique_slots(n)
 * slots) and the pairs' device copies, for up to n pairs. */
typedef struct unique_scratch {
    uint64_t n;
    uint64_t *keys, *pair_keys, *pair_values;
    uint32_t *last;
} unique_scratch;

typedef struct hive_cache_cuda {
    int device;
    int sm_count;
    hive_cache_view view; /* device pointers; epoch set per call */
    uint8_t *host_values; /* pinned mapped host memory: the values of slots view.value_split and up,
                             NULL when every value is in device memory (hive.h, value_hbm_bytes) */
    int per_sm[K_KERNELS]; /* resident blocks per SM of each kernel */
    uint64_t *counters;      /* device: HIVE_CACHE_COUNTER_BLOCKS blocks of HIVE_CACHE_CTR_BLOCK */
    uint64_t *host_counters; /* pinned host, as many */
    uint64_t counter_busy;   /* bit i: block i in use (host atomics) */
    hive_allocator allocator; /* config.allocator: the device arrays' (alloc NULL: cudaMalloc) */
    pthread_mutex_t order_lock; /* held by the call that uses `order` (others go unsorted) */
    order_lists order;          /* grown on demand */
    pthread_mutex_t unique_lock; /* held by the unique_pairs call that uses `unique` */
    unique_scratch unique;       /* grown on demand */
} hive_cache_cuda;

static uint64_t table_slots(const hive_cache_cuda *c) { return c->view.buckets * c->view.slots; }

static uint64_t lock_bytes(const hive_cache_cuda *c) { return (c->view.buckets + 31) / 32 * sizeof(uint32_t); }

/* Device memory held: every array but the host part of the values. */
static uint64_t bytes_held(const hive_cache_cuda *c)
{
    uint64_t n = table_slots(c);
    return n * (1 + 2 * sizeof(uint64_t)) + c->view.value_split * c->view.value_bytes + lock_bytes(c) +
           HIVE_CACHE_COUNTER_BLOCKS * HIVE_CACHE_CTR_BLOCK * sizeof(uint64_t);
}

/* Every slot free: digests 0, keys EMPTY, scores 0, device values 0, locks
 * clear.  Queued on s.  Host values stay as they are: a free slot's value is
 * never read (as on the CPU backend), and zeroing them would cost a pass
 * over PCIe. */
static hive_status clear_arrays(const hive_cache_cuda *c, cudaStream_t s, const char *call)
{
    uint64_t n = table_slots(c);
    HIVE_CUDA_TRY(cudaMemsetAsync(c->view.digests, 0, n, s), call);
    HIVE_CUDA_TRY(cudaMemsetAsync(c->view.keys, 0xFF, n * sizeof(uint64_t), s), call);
    HIVE_CUDA_TRY(cudaMemsetAsync(c->view.scores, 0, n * sizeof(uint64_t), s), call);
    if (c->view.value_split != 0)
        HIVE_CUDA_TRY(cudaMemsetAsync(c->view.values, 0, c->view.value_split * c->view.value_bytes, s), call);
    HIVE_CUDA_TRY(cudaMemsetAsync(c->view.locks, 0, lock_bytes(c), s), call);
    return HIVE_SUCCESS;
}

/* The values of slots value_split and up in pinned host memory, mapped
 * into every device's address space (portable), reached by the kernels
 * through its device address. */
static hive_status alloc_host_values(hive_cache_cuda *c, uint64_t slots, const char *call)
{
    uint64_t split = c->view.value_split, bytes = (slots - split) * c->view.value_bytes;
    c->view.values_far = 0;
    if (bytes == 0)
        return HIVE_SUCCESS;
    if (hive_alloc_should_fail())
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "host values: injected allocation failure");
    cudaError_t e = cudaHostAlloc((void **)&c->host_values, (size_t)bytes, cudaHostAllocMapped | cudaHostAllocPortable);
    if (e != cudaSuccess) {
        c->host_values = NULL;
        cudaGetLastError();
        return hive_fail(e == cudaErrorMemoryAllocation ? HIVE_ERROR_OUT_OF_MEMORY : HIVE_ERROR_CUDA, call,
                         "cudaHostAlloc(values of slots %llu and up, %llu bytes): %s", (unsigned long long)split,
                         (unsigned long long)bytes, cudaGetErrorString(e));
    }
    void *mapped = NULL;
    HIVE_TRY(hive_cuda_status(cudaHostGetDevicePointer(&mapped, c->host_values, 0), call,
                              "cudaHostGetDevicePointer(host values)"));
    c->view.values_far = hive_cache_far_base((const uint8_t *)mapped, split, c->view.value_bytes);
    return HIVE_SUCCESS;
}

#define CACHE_COUNTER_BYTES (HIVE_CACHE_COUNTER_BLOCKS * HIVE_CACHE_CTR_BLOCK * sizeof(uint64_t))

/* A device array of the cache: the allocator's, ordered on the legacy
 * default stream (which every call's work is done by, each call being
 * synchronous), else cudaMalloc's. */
static hive_status cache_alloc(const hive_cache_cuda *c, void **p, size_t bytes, const char *call, const char *what)
{
    return table_alloc(&c->allocator, p, bytes, NULL, call, what);
}

static void order_lists_close(const hive_cache_cuda *c, order_lists *d);
static void unique_scratch_close(const hive_cache_cuda *c, unique_scratch *u);

static void free_cache(hive_cache_cuda *c)
{
    order_lists_close(c, &c->order);
    pthread_mutex_destroy(&c->order_lock);
    unique_scratch_close(c, &c->unique);
    pthread_mutex_destroy(&c->unique_lock);
    uint64_t n = table_slots(c);
    table_free(&c->allocator, c->view.digests, n, NULL);
    table_free(&c->allocator, c->view.keys, n * sizeof(uint64_t), NULL);
    table_free(&c->allocator, c->view.scores, n * sizeof(uint64_t), NULL);
    table_free(&c->allocator, c->view.values, c->view.value_split * c->view.value_bytes, NULL);
    if (c->host_values != NULL)
        cudaFreeHost(c->host_values);
    table_free(&c->allocator, c->view.locks, lock_bytes(c), NULL);
    table_free(&c->allocator, c->counters, CACHE_COUNTER_BYTES, NULL);
    cudaFreeHost(c->host_counters);
    if (has_allocator(&c->allocator) && cudaStreamSynchronize(NULL) != cudaSuccess)
        cudaGetLastError(); /* the frees are ordered on the stream: done before the caller goes on */
    hive_host_free(c);
}

/* Zeroes counter block `slot` (all of them for slot < 0) and points each
 * at its host twin (cuda_cache_kernels.cuh); synchronous. */
static hive_status reset_counters(hive_cache_cuda *c, int slot)
{
    uint64_t init[HIVE_CACHE_COUNTER_BLOCKS * HIVE_CACHE_CTR_BLOCK];
    memset(init, 0, sizeof init);
    for (int b = 0; b < HIVE_CACHE_COUNTER_BLOCKS; b++) {
        void *twin = NULL;
        cudaError_t e = cudaHostGetDevicePointer(&twin, c->host_counters + (uint64_t)b * HIVE_CACHE_CTR_BLOCK, 0);
        if (e != cudaSuccess)
            return hive_cuda_status(e, "hive cache (CUDA)", "cudaHostGetDevicePointer(counters)");
        init[b * HIVE_CACHE_CTR_BLOCK + HIVE_CACHE_CTR_HOST] = (uint64_t)(uintptr_t)twin;
    }
    size_t first = slot < 0 ? 0 : (size_t)slot * HIVE_CACHE_CTR_BLOCK;
    size_t words = slot < 0 ? HIVE_CACHE_COUNTER_BLOCKS * HIVE_CACHE_CTR_BLOCK : HIVE_CACHE_CTR_BLOCK;
    return hive_cuda_status(cudaMemcpy(c->counters + first, init + first, words * sizeof(uint64_t),
                                       cudaMemcpyHostToDevice),
                            "hive cache (CUDA)", "cudaMemcpy(counters)");
}

/* ---------------------------------------------------------------- create, destroy */

static hive_status cache_create(const hive_cache_config *config, uint64_t buckets, void **impl)
{
    static const char call[] = "hive_cache_create (CUDA)";
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        cudaGetLastError();
        return hive_fail(HIVE_ERROR_NO_DEVICE, call, "no usable CUDA device (%s)",
                         e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
    }
    if (config->device < 0 || config->device >= count)
        return hive_fail(HIVE_ERROR_NO_DEVICE, call, "config.device %d, but only %d CUDA devices",
                         config->device, count);
    uint32_t value_bytes = config->dim * hive_value_type_size(config->value_type);
    if (buckets == 0 || buckets > HIVE_CACHE_MAX_BUCKETS || value_bytes == 0)
        return hive_fail(HIVE_ERROR_INTERNAL, call, "%llu buckets of %u-byte values: not a resolved config",
                         (unsigned long long)buckets, value_bytes);

    device_scope scope;
    HIVE_TRY(enter_device(config->device, &scope, call));
    hive_status st = HIVE_SUCCESS;
    hive_cache_cuda *c = NULL;
    cudaStream_t s = NULL;
    cudaDeviceProp prop;
    HIVE_TRY_GOTO(device_properties(config->device, &prop, needed_capability(0), "the cache table", call), st,
                  out);
    c = (hive_cache_cuda *)hive_host_calloc(1, sizeof *c);
    if (c == NULL) {
        st = hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "no host memory for the table state");
        goto out;
    }
    pthread_mutex_init(&c->order_lock, NULL);
    pthread_mutex_init(&c->unique_lock, NULL);
    c->device = config->device;
    c->sm_count = prop.multiProcessorCount;
    c->allocator = config->allocator;
    c->view.buckets = buckets;
    c->view.slots = config->bucket_slots ? config->bucket_slots : HIVE_CACHE_GROUP;
    c->view.value_bytes = value_bytes;
    c->view.dual = config->dual_bucket ? 1u : 0u;
    c->view.epoch = 0;
    c->view.seed = config->hash_seed;
    {
        uint64_t n = buckets * c->view.slots;
        /* Resolved: whole values, at most n of them (cache_config.c). */
        c->view.value_split = config->value_hbm_bytes / value_bytes;
        /* cudaMalloc's 256-byte alignment (an allocator's pointers must have
         * it: cuda_alloc.h) keeps each bucket's digests whole sectors
         * (32-byte loads) and pairs of scores 16-byte aligned; the host
         * values are page-aligned, so a value's words keep the same
         * alignment in either array (the copy width is one for both). */
        HIVE_TRY_GOTO(cache_alloc(c, (void **)&c->view.digests, n, call, "digests"), st, fail);
        HIVE_TRY_GOTO(cache_alloc(c, (void **)&c->view.keys, n * sizeof(uint64_t), call, "keys"), st, fail);
        HIVE_TRY_GOTO(cache_alloc(c, (void **)&c->view.scores, n * sizeof(uint64_t), call, "scores"), st, fail);
        HIVE_TRY_GOTO(cache_alloc(c, (void **)&c->view.values, c->view.value_split * value_bytes, call, "values"),
                      st, fail);
        HIVE_TRY_GOTO(alloc_host_values(c, n, call), st, fail);
        HIVE_TRY_GOTO(cache_alloc(c, (void **)&c->view.locks, lock_bytes(c), call, "bucket locks"), st, fail);
    }
    HIVE_TRY_GOTO(cache_alloc(c, (void **)&c->counters, CACHE_COUNTER_BYTES, call, "counters"), st, fail);
    if (hive_alloc_should_fail()) {
        st = hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "host counters: injected allocation failure");
        goto fail;
    }
    HIVE_TRY_GOTO(hive_cuda_status(cudaHostAlloc((void **)&c->host_counters,
                                                 HIVE_CACHE_COUNTER_BLOCKS * HIVE_CACHE_CTR_BLOCK *
                                                     sizeof(uint64_t),
                                                 cudaHostAllocMapped),
                                   call, "cudaHostAlloc(counters)"),
                  st, fail);
    HIVE_TRY_GOTO(reset_counters(c, -1), st, fail);
    /* Loads every kernel now (CUDA loads lazily, at a first launch: the
     * first call would pay it) and takes its blocks per SM for the grids. */
    for (int k = 0; k < K_KERNELS; k++) {
        HIVE_TRY_GOTO(hive_cuda_status(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                                           &c->per_sm[k], cache_kernels[k], HIVE_CACHE_THREADS, 0),
                                       call, "loading the cache kernels (cudaOccupancyMaxActiveBlocksPerMultiprocessor)"),
                      st, fail);
        int most = k == K_FIND || k == K_CONTAINS  ? HIVE_CACHE_READ_BLOCKS_PER_SM
                   : k >= K_UPSERT && k <= K_ERASE ? HIVE_CACHE_WRITE_BLOCKS_PER_SM
                                                   : 64;
        if (c->per_sm[k] > most)
            c->per_sm[k] = most;
        if (c->per_sm[k] < 1)
            c->per_sm[k] = 1;
    }
    HIVE_TRY_GOTO(hive_cuda_status(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), call,
                                   "cudaStreamCreateWithFlags"),
                  st, fail);
    st = clear_arrays(c, s, call);
    if (st == HIVE_SUCCESS)
        st = hive_cuda_status(cudaStreamSynchronize(s), call, "cudaStreamSynchronize");
    if (st != HIVE_SUCCESS) {
        if (cudaStreamSynchronize(s) != cudaSuccess) /* clearings queued before the failure */
            cudaGetLastError();
        goto fail;
    }
    cudaStreamDestroy(s);
    *impl = c;
    goto out;
fail:
    if (s != NULL)
        cudaStreamDestroy(s);
    free_cache(c);
out:
    leave_device(config->device, &scope);
    return st;
}

static void cache_destroy(void *impl)
{
    hive_cache_cuda *c = (hive_cache_cuda *)impl;
    device_scope scope;
    if (enter_device(c->device, &scope, "hive_cache_destroy (CUDA)") != HIVE_SUCCESS)
        return;
    /* Every call waited for its stream before it returned: nothing of the
     * table still runs. */
    free_cache(c);
    leave_device(c->device, &scope);
}

/* ---------------------------------------------------------------- launching */

/* Blocks for `items` items of a thread each (or a lane each): enough to
 * fill the GPU once, the loops stride over the rest. */
static unsigned grid_for(const hive_cache_cuda *c, int kernel, uint64_t items)
{
    uint64_t blocks = (items + HIVE_CACHE_THREADS - 1) / HIVE_CACHE_THREADS;
    uint64_t cap = (uint64_t)c->sm_count * (uint64_t)c->per_sm[kernel];
    return (unsigned)(blocks < cap ? (blocks ? blocks : 1) : cap);
}

static hive_status launched(const char *call)
{
    return hive_cuda_status(cudaGetLastError(), call, "kernel launch");
}

typedef hive_status (*cache_launcher)(const hive_cache_cuda *c, const void *ctx, cudaStream_t s,
                                      uint64_t *counters);

/* Takes a counter block, runs `launch` and waits for the stream whatever
 * failed (when it returns no kernel of the call runs, and the block is free
 * for another call).  out[] is set on success, from the host twin the
 * kernel's last block wrote. */
static hive_status with_counters(hive_cache_cuda *c, cudaStream_t s, const char *call, cache_launcher launch,
                                 const void *ctx, uint64_t out[HIVE_CACHE_CTR_COUNT])
{
    unsigned slot = 0;
    for (;;) {
        uint64_t busy = __atomic_load_n(&c->counter_busy, __ATOMIC_ACQUIRE);
        if (~busy != 0) {
            slot = (unsigned)__builtin_ctzll(~busy);
            if (!(__atomic_fetch_or(&c->counter_busy, 1ull << slot, __ATOMIC_ACQ_REL) & (1ull << slot)))
                break;
        }
    }
    uint64_t *dev = c->counters + (uint64_t)slot * HIVE_CACHE_CTR_BLOCK;
    volatile uint64_t *host = c->host_counters + (uint64_t)slot * HIVE_CACHE_CTR_BLOCK;
    hive_status st = launch(c, ctx, s, dev);
    cudaError_t waited = cudaStreamSynchronize(s);
    if (st == HIVE_SUCCESS)
        st = hive_cuda_status(waited, call, "cudaStreamSynchronize");
    else if (waited != cudaSuccess)
        cudaGetLastError(); /* the first failure is the one reported */
    if (st == HIVE_SUCCESS)
        for (int k = 0; k < HIVE_CACHE_CTR_COUNT; k++)
            out[k] = host[k];
    else /* a kernel that did not finish left its block as it was: zero it again */
        reset_counters(c, slot);
    __atomic_fetch_and(&c->counter_busy, ~(1ull << slot), __ATOMIC_ACQ_REL);
    return st;
}

/* The widest word (16, 8, 4, 2 or 1 bytes) dividing value_bytes and the
 * address of each of the arrays (NULL ones aside). */
static hive_cache_copy copy_geometry(uint32_t value_bytes, uint32_t value_type, int accumulates, const void *a,
                                     const void *b, const void *d)
{
    uintptr_t bits = (uintptr_t)value_bytes | (uintptr_t)a | (uintptr_t)b | (uintptr_t)d | 16u;
    hive_cache_copy g;
    memset(&g, 0, sizeof g);
    g.W = (uint32_t)(bits & (~bits + 1)); /* lowest set bit, at most 16 */
    g.value_type = value_type;
    if (accumulates) {
        uint32_t elem = hive_value_type_size((hive_value_type)value_type);
        if (elem > 1 && g.W < elem) { /* a caller array not aligned to the element */
            g.W = elem;
            g.bytewise = 1;
        }
    }
    g.words = value_bytes / g.W;
    if (g.words == 0)
        g.words = 1;
    g.q = 32u / g.words;
    g.r = 32u - g.q * g.words;
    return g;
}

/* ---------------------------------------------------------------- calls over host values */

/* A call that moves values partly living in host memory, over more of it
 * than the GPU's address translation covers, takes its keys in the order of
 * their buckets (hive_cache_bucket_order_kernel: the first, or in a
 * dual-bucket cache the one a writer would use now: where a present key is,
 * where a new one would go): a key's value slot lies
 * in its bucket, so the values then move in about address order, whose
 * translations the GPU reuses.  Random 128-byte reads ran 14.9 GB/s over
 * 1 GiB of mapped host memory and 5.9 over 4 GiB, the same reads sorted
 * 50-53 (docs/perf.md, "Host memory read in address order").  Only the
 * order of the keys changes, which a batch leaves open (hive.h: repeats of
 * a key apply in no particular order): each copy stays where it was, a
 * writer's under the slot's lock.  The order is one CUB sort of (bucket,
 * position) into lists the cache keeps; a call that finds them taken goes
 * in its own order.  On an H200 over 2 and 4 GiB of values (2^24 slots,
 * dims 32 and 64), finds of 2^19 keys moved 0.79-0.84 of the host-to-device
 * copy and insert_or_assign 0.88-0.92 of device-to-host, against 0.12-0.18
 * unsorted (docs/perf.md, "Cache values in host memory").  From 1.5 GiB of
 * host values: over 512 MiB the slot-order copy this replaced cost a find
 * more than it saved.  The tests' build may lower the host range it takes
 * (base/alloc.h); a build may move it (UINT64_MAX: never), as an
 * experiment. */
#ifndef HIVE_CACHE_DEFER_MIN_HOST_BYTES
#define HIVE_CACHE_DEFER_MIN_HOST_BYTES (3ull << 29)
#endif
#define DEFER_MIN_KEYS (1u << 14)

/* Whether a batch moves values in or out (finds, and the writers that
 * copy in: upsert, find_or_insert, assign, assign_values, accum_or_assign)
 * over enough host values, with enough keys, to go in bucket order. */
static int orders(const hive_cache_cuda *c, const hive_cache_batch *b)
{
    uint64_t host_bytes = (table_slots(c) - c->view.value_split) * c->view.value_bytes;
    uint64_t least = (uint64_t)hive_test_cache_defer((long long)HIVE_CACHE_DEFER_MIN_HOST_BYTES);
    int moves = b->values_in != NULL || (b->op == HIVE_CACHE_FIND && b->values_out != NULL);
    return moves && c->host_values != NULL && b->n <= INT32_MAX && host_bytes >= least &&
           (b->n >= DEFER_MIN_KEYS || least < HIVE_CACHE_DEFER_MIN_HOST_BYTES);
}

static void order_lists_close(const hive_cache_cuda *c, order_lists *d)
{
    for (int k = 0; k < 2; k++) {
        table_free(&c->allocator, d->buckets[k], d->n * sizeof(uint64_t), NULL);
        table_free(&c->allocator, d->index[k], d->n * sizeof(uint64_t), NULL);
    }
    table_free(&c->allocator, d->temp, d->temp_bytes, NULL);
    memset(d, 0, sizeof *d);
}

static hive_status order_lists_open(const hive_cache_cuda *c, uint64_t n, order_lists *d, const char *call)
{
    memset(d, 0, sizeof *d);
    d->n = n;
    cub::DoubleBuffer<uint64_t> keys(NULL, NULL), values(NULL, NULL);
    hive_status st = hive_cuda_status(cub::DeviceRadixSort::SortPairs(NULL, d->temp_bytes, keys, values, (int)n),
                                      call, "cub::DeviceRadixSort (size)");
    for (int k = 0; k < 2 && st == HIVE_SUCCESS; k++) {
        st = cache_alloc(c, (void **)&d->buckets[k], n * sizeof(uint64_t), call, "buckets of a batch's keys");
        if (st == HIVE_SUCCESS)
            st = cache_alloc(c, (void **)&d->index[k], n * sizeof(uint64_t), call, "their positions");
    }
    if (st == HIVE_SUCCESS)
        st = cache_alloc(c, &d->temp, d->temp_bytes, call, "the sort's scratch");
    if (st != HIVE_SUCCESS)
        order_lists_close(c, d);
    return st;
}

/* The cache's lists, with room for n keys, for the calling batch (which
 * holds order_lock): grown to twice what they were, or n. */
static hive_status order_lists_reserve(hive_cache_cuda *c, uint64_t n, const char *call)
{
    if (c->order.n < n) {
        uint64_t want = 2 * c->order.n > n ? 2 * c->order.n : n;
        order_lists_close(c, &c->order);
        HIVE_TRY(order_lists_open(c, want > INT32_MAX ? n : want, &c->order, call));
    }
    return HIVE_SUCCESS;
}

/* The batch's positions sorted by their keys' buckets, into *order. */
static hive_status order_by_bucket(const hive_cache_cuda *c, order_lists *d, const hive_cache_batch *b,
                                   cudaStream_t s, const char *call, const uint64_t **order)
{
    hive_cache_bucket_order_kernel<<<grid_for(c, K_FIND, b->n), HIVE_CACHE_THREADS, 0, s>>>(
        c->view, b->keys, b->n, hive_cache_op_inserts(b->op), d->buckets[0], d->index[0]);
    HIVE_TRY(launched(call));
    int end_bit = 64 - __builtin_clzll(c->view.buckets | 1);
    cub::DoubleBuffer<uint64_t> keys(d->buckets[0], d->buckets[1]), values(d->index[0], d->index[1]);
    HIVE_TRY(hive_cuda_status(cub::DeviceRadixSort::SortPairs(d->temp, d->temp_bytes, keys, values, (int)b->n, 0,
                                                              end_bit, s),
                              call, "cub::DeviceRadixSort"));
    *order = values.Current();
    return HIVE_SUCCESS;
}

typedef struct batch_launch {
    hive_cache_batch_kernel kernel;
    int index;
    hive_cache_view view;
    const hive_cache_batch *batch;
    hive_cache_copy copy;
} batch_launch;

static hive_status launch_batch(const hive_cache_cuda *c, const void *ctx, cudaStream_t s, uint64_t *counters)
{
    const batch_launch *l = (const batch_launch *)ctx;
    l->kernel<<<grid_for(c, l->index, l->batch->n), HIVE_CACHE_THREADS, 0, s>>>(l->view, *l->batch, l->copy,
                                                                                counters);
    return launched("hive cache batch (CUDA)");
}

static hive_status run_batch(hive_cache_cuda *c, const hive_cache_batch *b, uint32_t epoch,
                             hive_cache_outcome *outcome, cudaStream_t s)
{
    static const char call[] = "hive cache batch (CUDA)";
    batch_launch l;
    l.kernel = batch_kernel(b->op, &l.index);
    if (l.kernel == NULL)
        return hive_fail(HIVE_ERROR_INTERNAL, call, "unknown cache op %d", b->op);
    l.view = c->view;
    l.view.epoch = epoch;
    l.batch = b;
    l.copy = copy_geometry(c->view.value_bytes, b->value_type, b->op == HIVE_CACHE_ACCUM, b->values_in,
                           b->values_out, b->out_values);
    /* Over host values: the lists, when free, give the order (a concurrent
     * call goes in its own). */
    hive_status st = HIVE_SUCCESS;
    hive_cache_batch ordered;
    int order = orders(c, b) && pthread_mutex_trylock(&c->order_lock) == 0;
    if (order) {
        st = order_lists_reserve(c, b->n, call);
        if (st == HIVE_ERROR_OUT_OF_MEMORY) { /* no room for the lists: the batch's own order */
            pthread_mutex_unlock(&c->order_lock);
            hive_clear_error();
            order = 0;
            st = HIVE_SUCCESS;
        } else if (st == HIVE_SUCCESS) {
            ordered = *b;
            st = order_by_bucket(c, &c->order, b, s, call, &ordered.order);
            l.batch = &ordered;
        }
    }
    uint64_t k[HIVE_CACHE_CTR_COUNT];
    if (st == HIVE_SUCCESS)
        st = with_counters(c, s, call, launch_batch, &l, k);
    if (order) {
        if (st != HIVE_SUCCESS) /* the lists may still be in use by what was queued */
            (void)cudaStreamSynchronize(s);
        pthread_mutex_unlock(&c->order_lock);
    }
    HIVE_TRY(st);
    outcome->reserved = k[HIVE_CACHE_CTR_RESERVED];
    outcome->out = k[HIVE_CACHE_CTR_OUT];
    outcome->inserted = k[HIVE_CACHE_CTR_INSERTED];
    outcome->evicted = k[HIVE_CACHE_CTR_EVICTED];
    outcome->refused = k[HIVE_CACHE_CTR_REFUSED];
    outcome->erased = k[HIVE_CACHE_CTR_ERASED];
    return HIVE_SUCCESS;
}

static hive_status cache_run(void *impl, const hive_cache_batch *batch, uint32_t epoch, hive_cache_outcome *outcome,
                             hive_stream stream)
{
    hive_cache_cuda *c = (hive_cache_cuda *)impl;
    memset(outcome, 0, sizeof *outcome);
    if (batch->n == 0)
        return HIVE_SUCCESS;
    RETURN_ON_DEVICE(c, "hive cache batch (CUDA)", run_batch(c, batch, epoch, outcome, (cudaStream_t)stream));
}

/* ---------------------------------------------------------------- whole-table calls */

static hive_status launch_erase_if(const hive_cache_cuda *c, const void *ctx, cudaStream_t s, uint64_t *counters)
{
    hive_cache_erase_if_kernel<<<grid_for(c, K_ERASE_IF, table_slots(c)), HIVE_CACHE_THREADS, 0, s>>>(
        c->view, *(const hive_cache_filter *)ctx, counters);
    return launched("hive_cache_erase_if (CUDA)");
}

static hive_status erase_if(hive_cache_cuda *c, const hive_cache_filter *filter, uint64_t *erased, cudaStream_t s)
{
    uint64_t k[HIVE_CACHE_CTR_COUNT];
    HIVE_TRY(with_counters(c, s, "hive_cache_erase_if (CUDA)", launch_erase_if, filter, k));
    if (erased != NULL)
        *erased = k[HIVE_CACHE_CTR_ERASED];
    return HIVE_SUCCESS;
}

static hive_status cache_erase_if(void *impl, const hive_cache_filter *filter, uint64_t *erased,
                                  hive_stream stream)
{
    hive_cache_cuda *c = (hive_cache_cuda *)impl;
    RETURN_ON_DEVICE(c, "hive_cache_erase_if (CUDA)", erase_if(c, filter, erased, (cudaStream_t)stream));
}

typedef struct export_launch {
    uint64_t offset, slots;
    hive_cache_filter filter;
    uint64_t *keys;
    uint8_t *values;
    uint64_t *scores;
    hive_cache_copy copy;
} export_launch;

static hive_status launch_export(const hive_cache_cuda *c, const void *ctx, cudaStream_t s, uint64_t *counters)
{
    const export_launch *l = (const export_launch *)ctx;
    hive_cache_export_kernel<<<grid_for(c, K_EXPORT, l->slots), HIVE_CACHE_THREADS, 0, s>>>(
        c->view, l->offset, l->slots, l->filter, l->keys, l->values, l->scores, l->copy, counters);
    return launched("hive_cache_export (CUDA)");
}

static hive_status export_range(hive_cache_cuda *c, uint64_t offset, uint64_t slots, const hive_cache_filter *filter,
                                uint64_t *keys, void *values, uint64_t *scores, uint64_t *count, cudaStream_t s)
{
    static const char call[] = "hive_cache_export (CUDA)";
    uint64_t total = table_slots(c);
    if (offset > total)
        offset = total;
    if (slots > total - offset)
        slots = total - offset;
    *count = 0;
    if (slots == 0)
        return HIVE_SUCCESS;
    export_launch l;
    l.offset = offset;
    l.slots = slots;
    l.filter = *filter;
    l.keys = keys;
    l.values = (uint8_t *)values;
    l.scores = scores;
    l.copy = copy_geometry(c->view.value_bytes, HIVE_VALUE_BYTES, 0, values, NULL, NULL);
    uint64_t k[HIVE_CACHE_CTR_COUNT];
    HIVE_TRY(with_counters(c, s, call, launch_export, &l, k));
    *count = k[HIVE_CACHE_CTR_OUT];
    if (*count > slots)
        return hive_fail(HIVE_ERROR_INTERNAL, call, "exported %llu entries from %llu slots",
                         (unsigned long long)*count, (unsigned long long)slots);
    return HIVE_SUCCESS;
}

static hive_status cache_export_range(void *impl, uint64_t offset, uint64_t slots, const hive_cache_filter *filter,
                                      uint64_t *keys, void *values, uint64_t *scores, uint64_t *count,
                                      hive_stream stream)
{
    hive_cache_cuda *c = (hive_cache_cuda *)impl;
    RETURN_ON_DEVICE(c, "hive_cache_export (CUDA)",
                     export_range(c, offset, slots, filter, keys, values, scores, count, (cudaStream_t)stream));
}

static hive_status launch_count(const hive_cache_cuda *c, const void *ctx, cudaStream_t s, uint64_t *counters)
{
    (void)ctx;
    uint64_t n = table_slots(c); /* even: 8 to 128 slots a bucket */
    hive_cache_count_kernel<<<grid_for(c, K_COUNT, n / 2), HIVE_CACHE_THREADS, 0, s>>>(c->view.keys, n, counters);
    return launched("hive_cache_size (CUDA)");
}

static hive_status count_live(hive_cache_cuda *c, uint64_t *size, cudaStream_t s)
{
    uint64_t k[HIVE_CACHE_CTR_COUNT];
    HIVE_TRY(with_counters(c, s, "hive_cache_size (CUDA)", launch_count, NULL, k));
    *size = k[HIVE_CACHE_CTR_OUT];
    return HIVE_SUCCESS;
}

static hive_status cache_count(void *impl, uint64_t *size, hive_stream stream)
{
    hive_cache_cuda *c = (hive_cache_cuda *)impl;
    RETURN_ON_DEVICE(c, "hive_cache_size (CUDA)", count_live(c, size, (cudaStream_t)stream));
}

static hive_status clear(hive_cache_cuda *c, cudaStream_t s)
{
    static const char call[] = "hive_cache_clear (CUDA)";
    hive_status st = clear_arrays(c, s, call);
    cudaError_t waited = cudaStreamSynchronize(s); /* whatever failed: what was queued ends */
    if (st == HIVE_SUCCESS)
        st = hive_cuda_status(waited, call, "cudaStreamSynchronize");
    else if (waited != cudaSuccess)
        cudaGetLastError();
    return st;
}

static hive_status cache_clear(void *impl, hive_stream stream)
{
    hive_cache_cuda *c = (hive_cache_cuda *)impl;
    RETURN_ON_DEVICE(c, "hive_cache_clear (CUDA)", clear(c, (cudaStream_t)stream));
}

/* ---------------------------------------------------------------- unique pairs */

/* Map slots for n pairs: the power of two at least twice n. */
static uint64_t unique_slots(uint64_t n)
{
    uint64_t slots = 64;
    while (slots < 2 * n)
        slots *= 2;
    return slots;
}

static void unique_scratch_close(const hive_cache_cuda *c, unique_scratch *u)
{
    uint64_t slots = unique_slots(u->n);
    table_free(&c->allocator, u->keys, slots * sizeof(uint64_t), NULL);
    table_free(&c->allocator, u->last, slots * sizeof(uint32_t), NULL);
    table_free(&c->allocator, u->pair_keys, u->n * sizeof(uint64_t), NULL);
    table_free(&c->allocator, u->pair_values, u->n * sizeof(uint64_t), NULL);
    memset(u, 0, sizeof *u);
}

/* The scratch with room for n pairs (the caller holds unique_lock): kept
 * from call to call, grown to the larger of n and twice what it was. */
static hive_status unique_scratch_reserve(hive_cache_cuda *c, uint64_t n, const char *call)
{
    unique_scratch *u = &c->unique;
    if (u->n >= n)
        return HIVE_SUCCESS;
    uint64_t want = 2 * u->n > n ? 2 * u->n : n;
    if (want >= UINT32_MAX)
        want = n;
    unique_scratch_close(c, u);
    unique_scratch grown = {want, NULL, NULL, NULL, NULL};
    uint64_t slots = unique_slots(want);
    hive_status st = cache_alloc(c, (void **)&grown.keys, slots * sizeof(uint64_t), call, "the map's keys");
    if (st == HIVE_SUCCESS)
        st = cache_alloc(c, (void **)&grown.last, slots * sizeof(uint32_t), call, "the map's positions");
    if (st == HIVE_SUCCESS)
        st = cache_alloc(c, (void **)&grown.pair_keys, want * sizeof(uint64_t), call, "the pairs' keys");
    if (st == HIVE_SUCCESS)
        st = cache_alloc(c, (void **)&grown.pair_values, want * sizeof(uint64_t), call, "the pairs' values");
    if (st != HIVE_SUCCESS) {
        unique_scratch_close(c, &grown);
        return st;
    }
    *u = grown;
    return HIVE_SUCCESS;
}

typedef struct unique_launch {
    hive_unique_map map;
    const uint64_t *keys, *values;
    uint64_t n;
    uint64_t *out_keys, *out_values;
} unique_launch;

static hive_status launch_unique(const hive_cache_cuda *c, const void *ctx, cudaStream_t s, uint64_t *counters)
{
    static const char call[] = "hive unique pairs (CUDA)";
    const unique_launch *l = (const unique_launch *)ctx;
    uint64_t slots = l->map.mask + 1;
    HIVE_CUDA_TRY(cudaMemsetAsync(l->map.keys, 0xFF, slots * sizeof(uint64_t), s), call);
    HIVE_CUDA_TRY(cudaMemsetAsync(l->map.last, 0, slots * sizeof(uint32_t), s), call);
    hive_cache_unique_mark_kernel<<<grid_for(c, K_UNIQUE_MARK, l->n), HIVE_CACHE_THREADS, 0, s>>>(
        l->map, l->keys, l->values, l->n, counters);
    HIVE_TRY(launched(call));
    hive_cache_unique_emit_kernel<<<grid_for(c, K_UNIQUE_EMIT, l->n), HIVE_CACHE_THREADS, 0, s>>>(
        l->map, l->n, l->out_keys, l->out_values, counters);
    return launched(call);
}

static hive_status unique_pairs(hive_cache_cuda *c, uint64_t n, const uint64_t *keys, const uint64_t *values,
                                uint64_t *out_keys, uint64_t *out_values, uint64_t *unique, uint64_t *reserved,
                                cudaStream_t s)
{
    static const char call[] = "hive unique pairs (CUDA)";
    if (n >= UINT32_MAX)
        return hive_fail(HIVE_ERROR_INTERNAL, call, "%llu pairs: positions are 32-bit", (unsigned long long)n);
    pthread_mutex_lock(&c->unique_lock);
    hive_status st = unique_scratch_reserve(c, n, call);
    uint64_t k[HIVE_CACHE_CTR_COUNT];
    if (st == HIVE_SUCCESS) {
        const unique_scratch *u = &c->unique;
        unique_launch l = {{u->keys, u->last, u->pair_keys, u->pair_values, unique_slots(n) - 1, c->view.seed},
                           keys, values, n, out_keys, out_values};
        st = with_counters(c, s, call, launch_unique, &l, k);
    }
    pthread_mutex_unlock(&c->unique_lock);
    HIVE_TRY(st);
    *unique = k[HIVE_CACHE_CTR_OUT];
    *reserved = k[HIVE_CACHE_CTR_RESERVED];
    return HIVE_SUCCESS;
}

static hive_status cache_unique_pairs(void *impl, uint64_t n, const uint64_t *keys, const uint64_t *values,
                                      uint64_t *out_keys, uint64_t *out_values, uint64_t *unique,
                                      uint64_t *reserved, hive_stream stream)
{
    hive_cache_cuda *c = (hive_cache_cuda *)impl;
    *unique = *reserved = 0;
    if (n == 0)
        return HIVE_SUCCESS;
    RETURN_ON_DEVICE(c, "hive unique pairs (CUDA)",
                     unique_pairs(c, n, keys, values, out_keys, out_values, unique, reserved, (cudaStream_t)stream));
}

/* On the table's device: what a host pointer maps to, and which peer memory
 * is reachable, are the current device's (cuda_pointer.cu). */
static hive_status cache_check_pointer(const void *impl, const void *p, const char *call, const char *what)
{
    const hive_cache_cuda *c = (const hive_cache_cuda *)impl;
    device_scope scope;
    HIVE_TRY(enter_device(c->device, &scope, call));
    hive_status st = hive_dict_check_pointer(c->device, p, call, what);
    leave_device(c->device, &scope);
    return st;
}

static int cache_reach(const void *impl, const void *p)
{
    const hive_cache_cuda *c = (const hive_cache_cuda *)impl;
    device_scope scope;
    if (enter_device(c->device, &scope, "hive cache memory check (CUDA)") != HIVE_SUCCESS) {
        hive_clear_error();
        return HIVE_REACH_HOST;
    }
    int reach = hive_dict_reach(p);
    leave_device(c->device, &scope);
    return reach;
}

static uint64_t cache_bytes_held(const void *impl) { return bytes_held((const hive_cache_cuda *)impl); }

/* Save and load buffers: page-locked host memory mapped into every device's
 * address space (portable), whose device address is its host address (UVA),
 * so the kernels take it as it is and the host reads it once a call has
 * returned.  Page-aligned. */
static void *cache_alloc_io(const void *impl, size_t bytes)
{
    const hive_cache_cuda *c = (const hive_cache_cuda *)impl;
    void *p = NULL;
    device_scope scope;
    if (hive_alloc_should_fail() || enter_device(c->device, &scope, "hive cache io buffer (CUDA)") != HIVE_SUCCESS)
        return NULL;
    if (cudaHostAlloc(&p, bytes ? bytes : 1, cudaHostAllocMapped | cudaHostAllocPortable) != cudaSuccess) {
        cudaGetLastError();
        p = NULL;
    }
    leave_device(c->device, &scope);
    return p;
}

static void cache_free_io(const void *impl, void *p)
{
    (void)impl;
    if (p != NULL)
        cudaFreeHost(p);
}

extern "C" const hive_cache_backend_ops hive_cache_cuda_backend = {
    .name = "cuda",
    .create = cache_create,
    .destroy = cache_destroy,
    .run = cache_run,
    .erase_if = cache_erase_if,
    .export_range = cache_export_range,
    .count = cache_count,
    .clear = cache_clear,
    .check_pointer = cache_check_pointer,
    .reach = cache_reach,
    .bytes_held = cache_bytes_held,
    .alloc_io = cache_alloc_io,
    .free_io = cache_free_io,
    .unique_pairs = cache_unique_pairs,
};
