/* dict_table.cu — the CUDA backend's table operations (hive_cuda_backend):
 * create and destroy, device memory of the bucket arrays, clear, resize by
 * rebuild, export, stats, and the memory-space check of user pointers. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cuda_check.h"
#include "dict_table.h"
#include "table.h"

/* Default geometry, chosen by measurement (bench/NOTES.md): buckets of 4
 * slots (32 bytes, one sector) probed by one thread per key. */
#define HIVE_DICT_DEFAULT_SLOTS 4u
#define HIVE_DICT_DEFAULT_LANES 1u

/* Runs the rest of a backend entry on the table's device and puts the
 * caller's current device back afterwards. */
typedef struct device_scope {
    int previous;
} device_scope;

static hive_status enter_device(int device, device_scope *scope, const char *call)
{
    HIVE_CUDA_TRY(cudaGetDevice(&scope->previous), call);
    if (scope->previous != device)
        HIVE_CUDA_TRY(cudaSetDevice(device), call);
    return HIVE_SUCCESS;
}

static void leave_device(int device, const device_scope *scope)
{
    if (scope->previous != device)
        cudaSetDevice(scope->previous);
}

/* Returns `expr` (a hive_status), evaluated on the table's device. */
#define RETURN_ON_DEVICE(dict, call, expr)                          \
    do {                                                            \
        device_scope scope_;                                        \
        HIVE_TRY(enter_device((dict)->device, &scope_, (call)));    \
        hive_status status_ = (expr);                               \
        leave_device((dict)->device, &scope_);                      \
        return status_;                                             \
    } while (0)

static hive_status device_alloc(void **p, size_t bytes, const char *call, const char *what)
{
    *p = NULL;
    if (bytes == 0)
        return HIVE_SUCCESS;
    if (hive_alloc_should_fail())
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "%s: injected allocation failure", what);
    cudaError_t e = cudaMalloc(p, bytes);
    if (e != cudaSuccess) {
        *p = NULL;
        cudaGetLastError();
        return hive_fail(e == cudaErrorMemoryAllocation ? HIVE_ERROR_OUT_OF_MEMORY : HIVE_ERROR_CUDA,
                         call, "cudaMalloc(%s, %zu bytes): %s", what, bytes, cudaGetErrorString(e));
    }
    return HIVE_SUCCESS;
}

/* The arrays that make up the table proper, in d->view. */
static void free_arrays(hive_dict *d)
{
    cudaFree(d->view.slots);
    cudaFree(d->view.locks);
    cudaFree(d->view.stash);
    cudaFree(d->view.stash_used);
    cudaFree(d->view.stash_live);
    d->view.slots = NULL;
    d->view.locks = NULL;
    d->view.stash = NULL;
    d->view.stash_used = NULL;
    d->view.stash_live = NULL;
}

static uint64_t slot_array_bytes(const hive_dict *d, uint64_t buckets)
{
    return buckets * d->bucket_slots * d->slot_words * sizeof(uint64_t);
}

static uint64_t bytes_held(const hive_dict *d)
{
    return slot_array_bytes(d, d->buckets + d->view.stash_buckets) +
           ((d->buckets + 31) / 32 + (d->view.stash_buckets + 31) / 32) * sizeof(uint32_t) +
           sizeof(uint64_t) +
           HIVE_COUNTER_BLOCKS * HIVE_CTR_COUNT * sizeof(uint64_t);
}

/* Allocates and clears arrays for `buckets` buckets; on failure frees what
 * it took and leaves d->view's pointers NULL. */
static hive_status alloc_arrays(hive_dict *d, uint64_t buckets, double stash_fraction,
                                hive_stream stream, const char *call)
{
    uint64_t stash_buckets =
        stash_fraction > 0 ? (uint64_t)((double)buckets * stash_fraction) + 1 : 0;
    if (buckets > (1ull << 32))
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call,
                         "%llu buckets: more than a GPU holds (and the 32-bit hash addresses at most 2^32)",
                         (unsigned long long)buckets);
    /* d may be a copy of a live table (a resize): forget its arrays before
     * allocating, so that a failure below frees only what it allocated. */
    d->view.slots = NULL;
    d->view.locks = NULL;
    d->view.stash = NULL;
    d->view.stash_used = NULL;
    d->view.stash_live = NULL;
    cudaStream_t s = (cudaStream_t)stream;
    hive_status st = device_alloc((void **)&d->view.slots, slot_array_bytes(d, buckets), call, "slots");
    if (st == HIVE_SUCCESS)
        st = device_alloc((void **)&d->view.locks, (buckets + 31) / 32 * sizeof(uint32_t), call, "locks");
    if (st == HIVE_SUCCESS)
        st = device_alloc((void **)&d->view.stash, slot_array_bytes(d, stash_buckets), call, "stash");
    if (st == HIVE_SUCCESS)
        st = device_alloc((void **)&d->view.stash_used, (stash_buckets + 31) / 32 * sizeof(uint32_t), call,
                          "stash bitmap");
    if (st == HIVE_SUCCESS)
        st = device_alloc((void **)&d->view.stash_live, sizeof(uint64_t), call, "stash counter");
    if (st == HIVE_SUCCESS)
        st = hive_cuda_status(cudaMemsetAsync(d->view.slots, 0xFF, slot_array_bytes(d, buckets), s),
                              call, "clearing slots");
    if (st == HIVE_SUCCESS)
        st = hive_cuda_status(cudaMemsetAsync(d->view.locks, 0, (buckets + 31) / 32 * sizeof(uint32_t), s),
                              call, "clearing locks");
    if (st == HIVE_SUCCESS && stash_buckets)
        st = hive_cuda_status(cudaMemsetAsync(d->view.stash, 0xFF, slot_array_bytes(d, stash_buckets), s),
                              call, "clearing the stash");
    if (st == HIVE_SUCCESS && stash_buckets)
        st = hive_cuda_status(cudaMemsetAsync(d->view.stash_used, 0, (stash_buckets + 31) / 32 * sizeof(uint32_t), s),
                              call, "clearing the stash bitmap");
    if (st == HIVE_SUCCESS)
        st = hive_cuda_status(cudaMemsetAsync(d->view.stash_live, 0, sizeof(uint64_t), s), call,
                              "clearing the stash counter");
    if (st == HIVE_SUCCESS)
        st = hive_cuda_status(cudaStreamSynchronize(s), call, "cudaStreamSynchronize");
    if (st != HIVE_SUCCESS) {
        free_arrays(d);
        return st;
    }
    d->buckets = buckets;
    d->view.ix = hive_index_for(buckets);
    d->view.stash_buckets = stash_buckets;
    return HIVE_SUCCESS;
}

static void free_dict(hive_dict *d)
{
    if (d->pool != NULL)
        cudaMemPoolDestroy(d->pool);
    free_arrays(d);
    cudaFree(d->counters);
    cudaFreeHost(d->host_counters);
    hive_host_free(d);
}

int hive_cuda_device_usable(int device)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return device < count;
}

static hive_status dict_create(hive_table *t)
{
    static const char call[] = "hive_create (CUDA)";
    hive_config *c = &t->config;
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        cudaGetLastError();
        return hive_fail(HIVE_ERROR_NO_DEVICE, call, "no usable CUDA device (%s)",
                         e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
    }
    if (c->device >= count)
        return hive_fail(HIVE_ERROR_NO_DEVICE, call, "config.device %d, but only %d CUDA devices",
                         c->device, count);
    uint32_t width = c->key_width == HIVE_KV32 ? 32 : 64;
    if (c->bucket_slots == 0)
        c->bucket_slots = HIVE_DICT_DEFAULT_SLOTS;
    if (c->lanes_per_op == 0)
        c->lanes_per_op = HIVE_DICT_DEFAULT_LANES;
    const hive_geometry_kernels *kernels = hive_dict_kernels(width, c->bucket_slots, c->lanes_per_op);
    if (kernels == NULL)
        return hive_fail(HIVE_ERROR_UNSUPPORTED, call,
                         "no KV%u kernels for %u slots per bucket with %u lanes per key; built: KV32 "
                         "4/8/16/32 slots with 1 lane and (slots, lanes) = (8, 4), (16, 8), (32, 8), "
                         "(32, 32) (the paper's warp per key); KV64 4/8/16/32 slots with 1 lane",
                         width, c->bucket_slots, c->lanes_per_op);

    device_scope scope;
    HIVE_TRY(enter_device(c->device, &scope, call));
    hive_status st = HIVE_SUCCESS;
    cudaDeviceProp prop;
    hive_dict *d = NULL;
    HIVE_TRY_GOTO(hive_cuda_status(cudaGetDeviceProperties(&prop, c->device), call,
                                   "cudaGetDeviceProperties"),
                  st, out);
    /* The kernels are built for sm_90 (Hopper); KV64 needs its 16-byte CAS. */
    if (prop.major < 9) {
        st = hive_fail(HIVE_ERROR_UNSUPPORTED, call,
                       "device %d is compute capability %d.%d; this build of hive runs on 9.0 "
                       "(Hopper) and newer",
                       c->device, prop.major, prop.minor);
        goto out;
    }
    d = (hive_dict *)hive_host_calloc(1, sizeof *d);
    if (d == NULL) {
        st = hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "no host memory for the table state");
        goto out;
    }
    d->device = c->device;
    d->slot_words = width / 32;
    d->kernels = kernels;
    d->bucket_slots = c->bucket_slots;
    d->lanes = c->lanes_per_op;
    d->sm_count = prop.multiProcessorCount;
    d->view.max_evictions = c->max_evictions < HIVE_MAX_CHAIN ? c->max_evictions : HIVE_MAX_CHAIN;
    HIVE_TRY_GOTO(device_alloc((void **)&d->counters,
                               HIVE_COUNTER_BLOCKS * HIVE_CTR_COUNT * sizeof(uint64_t), call, "counters"),
                  st, fail);
    if (hive_alloc_should_fail()) {
        st = hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "host counters: injected allocation failure");
        goto fail;
    }
    HIVE_TRY_GOTO(hive_cuda_status(cudaMallocHost((void **)&d->host_counters,
                                                  HIVE_COUNTER_BLOCKS * HIVE_CTR_COUNT * sizeof(uint64_t)),
                                   call, "cudaMallocHost(counters)"),
                  st, fail);
    {
        /* A pool that keeps what it is given back: a call's scratch then costs
         * no cudaMalloc once the pool has grown to the largest batch. */
        cudaMemPoolProps props;
        memset(&props, 0, sizeof props);
        props.allocType = cudaMemAllocationTypePinned;
        props.location.type = cudaMemLocationTypeDevice;
        props.location.id = c->device;
        HIVE_TRY_GOTO(hive_cuda_status(cudaMemPoolCreate(&d->pool, &props), call, "cudaMemPoolCreate"), st,
                      fail);
        uint64_t keep = UINT64_MAX;
        cudaMemPoolSetAttribute(d->pool, cudaMemPoolAttrReleaseThreshold, &keep);
    }
    {
        uint64_t buckets = (c->initial_capacity + d->bucket_slots - 1) / d->bucket_slots;
        HIVE_TRY_GOTO(alloc_arrays(d, buckets ? buckets : 1, c->stash_fraction, NULL, call), st, fail);
    }
    d->bytes_held = bytes_held(d);
    t->impl = d;
    goto out;
fail:
    free_dict(d);
out:
    leave_device(c->device, &scope);
    return st;
}

static void dict_destroy(hive_table *t)
{
    hive_dict *d = (hive_dict *)t->impl;
    device_scope scope;
    if (enter_device(d->device, &scope, "hive_destroy (CUDA)") != HIVE_SUCCESS)
        return;
    cudaDeviceSynchronize();
    free_dict(d);
    leave_device(d->device, &scope);
}

static hive_status dict_run(hive_table *t, const hive_batch *b, hive_batch_outcome *out,
                            hive_stream stream)
{
    RETURN_ON_DEVICE((hive_dict *)t->impl, "hive batch (CUDA)", hive_dict_run(t, b, out, stream));
}

static hive_status dict_count_inserts(hive_table *t, const hive_batch *b, uint64_t *count,
                                      hive_stream stream)
{
    RETURN_ON_DEVICE((hive_dict *)t->impl, "hive_apply (CUDA)", hive_dict_count_inserts(t, b, count, stream));
}

static hive_status dict_retry_full(hive_table *t, const hive_batch *b, hive_batch_outcome *out,
                                   hive_stream stream)
{
    RETURN_ON_DEVICE((hive_dict *)t->impl, "hive batch retry (CUDA)", hive_dict_retry_full(t, b, out, stream));
}

static uint8_t *dict_results_alloc(hive_table *t, uint64_t n, hive_stream stream)
{
    hive_dict *d = (hive_dict *)t->impl;
    void *p = NULL;
    device_scope scope;
    if (hive_alloc_should_fail() || enter_device(d->device, &scope, "hive batch (CUDA)") != HIVE_SUCCESS)
        return NULL;
    if (cudaMallocFromPoolAsync(&p, n, d->pool, (cudaStream_t)stream) != cudaSuccess) {
        cudaGetLastError();
        p = NULL;
    }
    leave_device(d->device, &scope);
    return (uint8_t *)p;
}

static void dict_results_free(hive_table *t, uint8_t *results, hive_stream stream)
{
    hive_dict *d = (hive_dict *)t->impl;
    device_scope scope;
    if (enter_device(d->device, &scope, "hive batch (CUDA)") != HIVE_SUCCESS)
        return;
    cudaFreeAsync(results, (cudaStream_t)stream);
    leave_device(d->device, &scope);
}

static hive_status dict_clear(hive_table *t, hive_stream stream)
{
    static const char call[] = "hive_clear (CUDA)";
    hive_dict *d = (hive_dict *)t->impl;
    cudaStream_t s = (cudaStream_t)stream;
    device_scope scope;
    HIVE_TRY(enter_device(d->device, &scope, call));
    hive_status st = hive_cuda_status(cudaMemsetAsync(d->view.slots, 0xFF, slot_array_bytes(d, d->buckets), s),
                                      call, "clearing slots");
    if (st == HIVE_SUCCESS && d->view.stash_buckets)
        st = hive_cuda_status(cudaMemsetAsync(d->view.stash, 0xFF,
                                              slot_array_bytes(d, d->view.stash_buckets), s),
                              call, "clearing the stash");
    if (st == HIVE_SUCCESS && d->view.stash_buckets)
        st = hive_cuda_status(cudaMemsetAsync(d->view.stash_used, 0,
                                              (d->view.stash_buckets + 31) / 32 * sizeof(uint32_t), s),
                              call, "clearing the stash bitmap");
    if (st == HIVE_SUCCESS)
        st = hive_cuda_status(cudaMemsetAsync(d->view.stash_live, 0, sizeof(uint64_t), s), call,
                              "clearing the stash counter");
    if (st == HIVE_SUCCESS)
        st = hive_cuda_status(cudaStreamSynchronize(s), call, "cudaStreamSynchronize");
    leave_device(d->device, &scope);
    return st;
}

static uint64_t dict_capacity(const hive_table *t)
{
    const hive_dict *d = (const hive_dict *)t->impl;
    return d->buckets * d->bucket_slots;
}

/* Rebuilds into new arrays of about `slots` slots (1.5x at least when
 * growing, so that many small growing inserts stay amortised O(1)), re-inserting
 * every pair; if some pair does not fit, tries again 1.5x larger (a shrink
 * gives up instead once that would not be smaller).  The old arrays are freed
 * only once every pair is in the new ones. */
static hive_status dict_resize(hive_table *t, uint64_t slots, hive_stream stream)
{
    static const char call[] = "hive resize (CUDA)";
    hive_dict *d = (hive_dict *)t->impl;
    uint32_t S = d->bucket_slots;
    uint64_t buckets = (slots + S - 1) / S;
    if (buckets > d->buckets && buckets < d->buckets + d->buckets / 2)
        buckets = d->buckets + d->buckets / 2;
    if (buckets == 0)
        buckets = 1;
    const uint64_t old_buckets = d->buckets;
    const int shrinking = buckets < old_buckets;
    device_scope scope;
    HIVE_TRY(enter_device(d->device, &scope, call));
    hive_status st = HIVE_SUCCESS;
    for (int attempt = 0; attempt < 4; attempt++, buckets += buckets / 2 + 1) {
        if (shrinking && buckets >= old_buckets) {
            st = HIVE_SUCCESS; /* a shrink that does not fit: the old arrays hold every pair */
            hive_clear_error();
            break;
        }
        hive_dict next = *d;
        st = alloc_arrays(&next, buckets, t->config.stash_fraction, stream, call);
        if (st != HIVE_SUCCESS)
            break;
        uint64_t full = 0;
        st = hive_dict_rehash(d, &next, &full, stream);
        if (st == HIVE_SUCCESS && full == 0) {
            free_arrays(d);
            *d = next;
            d->bytes_held = bytes_held(d);
            break;
        }
        free_arrays(&next);
        if (st != HIVE_SUCCESS)
            break;
        st = hive_fail(HIVE_ERROR_TABLE_FULL, call, "%llu pairs did not fit in %llu buckets",
                       (unsigned long long)full, (unsigned long long)buckets);
    }
    leave_device(d->device, &scope);
    return st;
}

static hive_status dict_export(hive_table *t, uint64_t capacity, void *keys, void *values,
                               uint64_t *count, hive_stream stream)
{
    hive_dict *d = (hive_dict *)t->impl;
    RETURN_ON_DEVICE(d, "hive_export (CUDA)", hive_dict_export(d, capacity, keys, values, count, stream));
}

static hive_status dict_stats(hive_table *t, hive_stats *s)
{
    static const char call[] = "hive_stats_get (CUDA)";
    hive_dict *d = (hive_dict *)t->impl;
    s->capacity = d->buckets * d->bucket_slots;
    s->buckets = d->buckets;
    s->bucket_slots = d->bucket_slots;
    s->lanes_per_op = d->lanes;
    s->stash_capacity = d->view.stash_buckets * d->bucket_slots;
    s->evictions = __atomic_load_n(&d->evictions, __ATOMIC_RELAXED);
    for (int i = 0; i < 4; i++)
        s->insert_steps[i] = __atomic_load_n(&d->insert_steps[i], __ATOMIC_RELAXED);
    s->bytes_held = d->bytes_held;
    device_scope scope;
    HIVE_TRY(enter_device(d->device, &scope, call));
    hive_status st = hive_cuda_status(cudaMemcpy(&s->stash_size, d->view.stash_live, sizeof(uint64_t),
                                                 cudaMemcpyDeviceToHost),
                                      call, "reading the stash counter");
    leave_device(d->device, &scope);
    return st;
}

static hive_status dict_check_pointer(const hive_table *t, const void *p, const char *call,
                                      const char *what)
{
    (void)t;
    cudaPointerAttributes attr;
    cudaError_t e = cudaPointerGetAttributes(&attr, p);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call, "%s: not a pointer CUDA knows (%s)", what,
                         cudaGetErrorString(e));
    }
    if (attr.type == cudaMemoryTypeUnregistered ||
        (attr.type == cudaMemoryTypeHost && attr.devicePointer == NULL))
        return hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call,
                         "%s is pageable host memory; a CUDA table takes device, managed or mapped "
                         "host memory",
                         what);
    return HIVE_SUCCESS;
}

extern "C" const hive_backend_ops hive_cuda_backend = {
    "cuda",           dict_create,        dict_destroy,      dict_run,      dict_count_inserts,
    dict_retry_full,  dict_results_alloc, dict_results_free, dict_clear,    dict_capacity,
    dict_resize,      dict_export,        dict_stats,        dict_check_pointer,
};
