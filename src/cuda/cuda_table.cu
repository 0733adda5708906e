/* cuda_table.cu — the CUDA backend's table operations (hive_cuda_backend):
 * create and destroy, device memory of the bucket arrays, a batch's marks,
 * clear, export, the table's shape and stash count, the per-step work of a
 * resize (src/resize.c drives it: splits and merges in place), and the
 * memory-space check of user pointers.  Kernel launches are in
 * cuda_batch.cu. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "core/marks.h"
#include "cuda_alloc.h"
#include "cuda_check.h"
#include "cuda_device.h"
#include "cuda_table.h"
#include "cuda_vm.h"

static uint64_t bucket_bytes(const hive_dict *d)
{
    return (uint64_t)d->bucket_slots * d->slot_words * sizeof(uint64_t);
}

static uint64_t lock_bytes(uint64_t buckets) { return (buckets + 31) / 32 * sizeof(uint32_t); }

/* A tagged design's tags (core/tags.h), 2 bytes a slot; other designs have none. */
static int tagged(const hive_dict *d) { return HIVE_DESIGN_TAGGED(d->view.design); }

static uint64_t tag_bytes(const hive_dict *d, uint64_t buckets)
{
    return buckets * d->bucket_slots * sizeof(uint16_t);
}

/* Bytes of a stash's side words: its bitmap of used buckets, or a node
 * pool's counter and links (designs/designs.h). */
static uint64_t stash_used_bytes(uint32_t design, uint64_t stash_buckets)
{
    return hive_stash_side_words(design, stash_buckets) * sizeof(uint32_t);
}

/* The stash arrays of a view (table_alloc'd: a resize replaces them whole),
 * given back on `s` where they came from the caller's allocator. */
static void free_stash(const hive_dict *d, hive_view *v, cudaStream_t s)
{
    table_free(&d->allocator, v->stash, v->stash_buckets * bucket_bytes(d), s);
    table_free(&d->allocator, v->stash_used, stash_used_bytes(d->view.design, v->stash_buckets), s);
    table_free(&d->allocator, v->stash_live, sizeof(uint64_t), s);
    v->stash = NULL;
    v->stash_used = NULL;
    v->stash_live = NULL;
    v->stash_buckets = 0;
}

/* An empty stash of `stash_buckets` buckets in v's stash fields; on
 * failure they are NULL and nothing is held. */
static hive_status alloc_stash(const hive_dict *d, hive_view *v, uint64_t stash_buckets, cudaStream_t s,
                               const char *call)
{
    const hive_allocator *a = &d->allocator;
    v->stash = NULL;
    v->stash_used = NULL;
    v->stash_live = NULL;
    v->stash_buckets = stash_buckets; /* the sizes free_stash gives back on failure */
    uint64_t used_bytes = stash_used_bytes(d->view.design, stash_buckets);
    hive_status st = table_alloc(a, (void **)&v->stash, stash_buckets * bucket_bytes(d), s, call, "stash");
    if (st == HIVE_SUCCESS)
        st = table_alloc(a, (void **)&v->stash_used, used_bytes, s, call, "stash bitmap");
    if (st == HIVE_SUCCESS)
        st = table_alloc(a, (void **)&v->stash_live, sizeof(uint64_t), s, call, "stash counter");
    if (st == HIVE_SUCCESS && stash_buckets)
        st = hive_cuda_status(cudaMemsetAsync(v->stash, 0xFF, stash_buckets * bucket_bytes(d), s), call,
                              "clearing the stash");
    if (st == HIVE_SUCCESS && stash_buckets)
        st = hive_cuda_status(cudaMemsetAsync(v->stash_used, 0, used_bytes, s), call,
                              "clearing the stash bitmap");
    if (st == HIVE_SUCCESS)
        st = hive_cuda_status(cudaMemsetAsync(v->stash_live, 0, sizeof(uint64_t), s), call,
                              "clearing the stash counter");
    if (st != HIVE_SUCCESS) {
        if (cudaStreamSynchronize(s) != cudaSuccess) /* a clearing queued before the failure */
            cudaGetLastError();
        free_stash(d, v, s);
        return st;
    }
    return HIVE_SUCCESS;
}

/* Everything of the bucket arrays and stashes, given back on the table's
 * stream where they came from the caller's allocator. */
static void free_arrays(hive_dict *d)
{
    hive_vm_release(&d->slot_vm, d->stream);
    hive_vm_release(&d->lock_vm, d->stream);
    if (tagged(d))
        hive_vm_release(&d->tag_vm, d->stream);
    d->view.slots = NULL;
    d->view.locks = NULL;
    d->view.tags = NULL;
    free_stash(d, &d->view, d->stream);
    free_stash(d, &d->next_stash, d->stream);
}

static uint64_t bytes_held(const hive_dict *d)
{
    return d->slot_vm.mapped + d->lock_vm.mapped + (tagged(d) ? d->tag_vm.mapped : 0) +
           d->view.stash_buckets * bucket_bytes(d) +
           stash_used_bytes(d->view.design, d->view.stash_buckets) + sizeof(uint64_t) + HIVE_COUNTER_BYTES;
}

/* The view's arrays where they are now: with an allocator, a map or trim
 * may have moved them (cuda_vm.h).  Kernels take the view by value at each
 * launch, so nothing else holds the old addresses (a CUDA Graph captured
 * before is the caller's to re-capture, hive.h). */
static void view_arrays(hive_dict *d)
{
    d->view.slots = (uint64_t *)d->slot_vm.base;
    d->view.locks = (uint32_t *)d->lock_vm.base;
    d->view.tags = tagged(d) ? (uint16_t *)d->tag_vm.base : NULL;
}

/* Maps slot, lock and tag memory for `buckets` buckets, keeping the
 * d->buckets in use; the lock bits of buckets beyond d->buckets are cleared
 * (their slots and tags are written whole by the splits that open them).  On
 * failure the table is as it was (with perhaps more memory mapped, or its
 * arrays moved to larger allocations). */
static hive_status map_for(hive_dict *d, uint64_t buckets, cudaStream_t s, const char *call)
{
    uint64_t old_lock_bytes = lock_bytes(d->buckets);
    hive_status st = hive_vm_map(&d->slot_vm, buckets * bucket_bytes(d), d->buckets * bucket_bytes(d), s, call);
    if (st == HIVE_SUCCESS)
        st = hive_vm_map(&d->lock_vm, lock_bytes(buckets), old_lock_bytes, s, call);
    if (st == HIVE_SUCCESS && tagged(d))
        st = hive_vm_map(&d->tag_vm, tag_bytes(d, buckets), tag_bytes(d, d->buckets), s, call);
    view_arrays(d);
    HIVE_TRY(st);
    if (lock_bytes(buckets) > old_lock_bytes)
        HIVE_TRY(hive_cuda_status(cudaMemsetAsync((char *)d->view.locks + old_lock_bytes, 0,
                                                  lock_bytes(buckets) - old_lock_bytes, s),
                                  call, "clearing locks"));
    return HIVE_SUCCESS;
}

/* Reserves the bucket and lock arrays for as many buckets as the GPU's
 * memory holds (and a 32-bit hash can name), and maps and clears
 * `buckets` of them, with the stash.  On failure nothing is held. */
static hive_status alloc_arrays(hive_dict *d, uint64_t buckets, double stash_fraction,
                                hive_stream stream, const char *call)
{
    if (buckets > (1ull << 32))
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call,
                         "%llu buckets: more than a GPU holds (and the 32-bit hash addresses at most 2^32)",
                         (unsigned long long)buckets);
    cudaStream_t s = (cudaStream_t)stream;
    size_t free_bytes = 0, total_bytes = 0;
    HIVE_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes), call);
    uint64_t max_buckets = total_bytes / bucket_bytes(d);
    if (max_buckets > (1ull << 32))
        max_buckets = 1ull << 32;
    if (buckets > max_buckets)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "%llu buckets: more than the GPU's %zu bytes hold",
                         (unsigned long long)buckets, total_bytes);
    d->buckets = 0;
    hive_status st = hive_vm_reserve(&d->slot_vm, d->device, max_buckets * bucket_bytes(d), &d->allocator, call);
    if (st == HIVE_SUCCESS)
        st = hive_vm_reserve(&d->lock_vm, d->device, lock_bytes(max_buckets), &d->allocator, call);
    if (st == HIVE_SUCCESS && tagged(d))
        st = hive_vm_reserve(&d->tag_vm, d->device, tag_bytes(d, max_buckets), &d->allocator, call);
    if (st == HIVE_SUCCESS)
        st = map_for(d, buckets, s, call);
    if (st == HIVE_SUCCESS)
        st = alloc_stash(d, &d->view, hive_stash_wanted(stash_fraction, buckets, 0, d->bucket_slots), s, call);
    if (st == HIVE_SUCCESS)
        st = hive_cuda_status(cudaMemsetAsync(d->view.slots, 0xFF, buckets * bucket_bytes(d), s), call,
                              "clearing slots");
    if (st == HIVE_SUCCESS && tagged(d))
        st = hive_cuda_status(cudaMemsetAsync(d->view.tags, 0xFF, tag_bytes(d, buckets), s), call, "clearing tags");
    if (st == HIVE_SUCCESS)
        st = hive_cuda_status(cudaStreamSynchronize(s), call, "cudaStreamSynchronize");
    if (st != HIVE_SUCCESS) {
        if (cudaStreamSynchronize(s) != cudaSuccess) /* clearings queued before the failure */
            cudaGetLastError();
        free_arrays(d);
        return st;
    }
    d->buckets = buckets;
    d->view.ix = hive_index_for(buckets);
    return HIVE_SUCCESS;
}

static void free_dict(hive_dict *d)
{
    hive_dict_async_free(d);
    if (d->pool != NULL)
        cudaMemPoolDestroy(d->pool);
    free_arrays(d);
    table_free(&d->allocator, d->counters, HIVE_COUNTER_BYTES, d->stream);
    if (d->stream != NULL) {
        /* An allocator's frees were ordered on it: they are done before it goes. */
        if (has_allocator(&d->allocator) && cudaStreamSynchronize(d->stream) != cudaSuccess)
            cudaGetLastError();
        cudaStreamDestroy(d->stream);
    }
    cudaFreeHost(d->host_counters);
    hive_host_free(d);
}

/* HIVE_BACKEND_AUTO takes the CUDA backend only where its kernels run
 * (cuda_device.h: needed_capability); elsewhere it falls back to the CPU. */
int hive_cuda_device_usable(int device, int kv64_slots)
{
    int count = 0, major = 0, minor = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || device >= count ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return hive_test_capability(major * 10 + minor) >= needed_capability(kv64_slots);
}

static hive_status cuda_create(const hive_config *c, void **impl)
{
    static const char call[] = "hive_create (CUDA)";
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
    uint32_t design = (uint32_t)c->design; /* validated; the IDs are the enum's (designs/names.h) */
    const hive_geometry_kernels *kernels =
        hive_cuda_kernels(width, c->bucket_slots, c->lanes_per_op, design);
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
    HIVE_TRY_GOTO(device_properties(c->device, &prop, needed_capability(width == 64),
                                    width == 64 ? "a KV64 table" : "a table", call),
                  st, out);
    d = (hive_dict *)hive_host_calloc(1, sizeof *d);
    if (d == NULL) {
        st = hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "no host memory for the table state");
        goto out;
    }
    pthread_mutex_init(&d->async_lock, NULL); /* default attributes: cannot fail on Linux */
    d->device = c->device;
    d->slot_words = width / 32;
    d->kernels = kernels;
    d->bucket_slots = c->bucket_slots;
    d->lanes = c->lanes_per_op;
    d->resize_batch = c->resize_batch;
    d->sm_count = prop.multiProcessorCount;
    d->l2_bytes = (uint64_t)prop.l2CacheSize;
    d->view.max_evictions = c->max_evictions < HIVE_MAX_CHAIN ? c->max_evictions : HIVE_MAX_CHAIN;
    d->view.design = design;
    d->allocator = c->allocator; /* checked: both functions or neither (api/config.c) */
    hive_view_set_seed(&d->view, c->hash_seed); /* resolved by api: never HIVE_HASH_SEED_RANDOM */
    HIVE_TRY_GOTO(hive_cuda_status(cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking), call,
                                   "cudaStreamCreateWithFlags"),
                  st, fail);
    HIVE_TRY_GOTO(hive_dict_load_kernels(d, call), st, fail);
    HIVE_TRY_GOTO(table_alloc(&d->allocator, (void **)&d->counters, HIVE_COUNTER_BYTES, d->stream, call,
                              "counters"),
                  st, fail);
    d->unsettled = d->counters + HIVE_COUNTER_BLOCKS * HIVE_CTR_COUNT;
    HIVE_TRY_GOTO(hive_cuda_status(cudaMemsetAsync(d->unsettled, 0, HIVE_CTR_COUNT * sizeof(uint64_t), d->stream),
                                   call, "cudaMemsetAsync(unsettled)"),
                  st, fail);
    if (hive_alloc_should_fail()) {
        st = hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "host counters: injected allocation failure");
        goto fail;
    }
    HIVE_TRY_GOTO(hive_cuda_status(cudaMallocHost((void **)&d->host_counters,
                                                  HIVE_COUNTER_BLOCKS * HIVE_CTR_COUNT * sizeof(uint64_t)),
                                   call, "cudaMallocHost(counters)"),
                  st, fail);
    if (!has_allocator(&d->allocator)) {
        /* A pool that keeps what it is given back: a call's scratch then costs
         * no cudaMalloc once the pool has grown to the largest batch.  With
         * an allocator, the scratch is the allocator's. */
        cudaMemPoolProps props;
        memset(&props, 0, sizeof props);
        props.allocType = cudaMemAllocationTypePinned;
        props.location.type = cudaMemLocationTypeDevice;
        props.location.id = c->device;
        HIVE_TRY_GOTO(hive_cuda_status(cudaMemPoolCreate(&d->pool, &props), call, "cudaMemPoolCreate"), st,
                      fail);
        uint64_t keep = UINT64_MAX;
        cudaMemPoolSetAttribute(d->pool, cudaMemPoolAttrReleaseThreshold, &keep);
        /* A pool's first allocation costs some 90 us of host time whatever
         * its size, which a fresh table's first batch would pay before it
         * could launch anything.  Paid here instead (alloc_arrays waits for
         * the stream). */
        void *first = NULL;
        if (cudaMallocFromPoolAsync(&first, 1, d->pool, d->stream) == cudaSuccess)
            cudaFreeAsync(first, d->stream);
        else
            cudaGetLastError(); /* not sticky: the first batch pays it instead */
    }
    {
        uint64_t buckets = (c->initial_capacity + d->bucket_slots - 1) / d->bucket_slots;
        HIVE_TRY_GOTO(alloc_arrays(d, buckets ? buckets : 1, c->stash_fraction, (hive_stream)d->stream, call),
                      st, fail);
    }
    *impl = d;
    goto out;
fail:
    free_dict(d);
out:
    leave_device(c->device, &scope);
    return st;
}

static void cuda_destroy(void *impl)
{
    hive_dict *d = (hive_dict *)impl;
    device_scope scope;
    if (enter_device(d->device, &scope, "hive_destroy (CUDA)") != HIVE_SUCCESS)
        return;
    /* Every call waits for its own stream before it returns: what may be
     * left is the table's own work, not the device's. */
    if (cudaStreamSynchronize(d->stream) != cudaSuccess)
        cudaGetLastError();
    free_dict(d);
    leave_device(d->device, &scope);
}

/* The marks of a batch (core/marks.h): the scratch is the words themselves,
 * from the table's pool or its allocator. */
static uint32_t *marks_of(hive_batch_scratch *scratch) { return (uint32_t *)scratch; }

static size_t marks_bytes(const hive_request *r) { return 2 * HIVE_MARK_WORDS(r->n) * sizeof(uint32_t); }

static hive_status cuda_begin(void *impl, const hive_request *r, hive_batch_scratch **scratch,
                              hive_stream stream)
{
    static const char call[] = "hive batch (CUDA)";
    *scratch = NULL;
    if (!hive_request_may_insert(r) || r->results != NULL || r->n == 0)
        return HIVE_SUCCESS;
    /* retry_full needs to know which keys found no room, and the kernels
     * which inserts they finish in later launches */
    hive_dict *d = (hive_dict *)impl;
    void *p = NULL;
    size_t bytes = marks_bytes(r);
    device_scope scope;
    if (!hive_alloc_should_fail() && enter_device(d->device, &scope, call) == HIVE_SUCCESS) {
        p = scratch_alloc(&d->allocator, d->pool, bytes, (cudaStream_t)stream);
        if (p != NULL && cudaMemsetAsync(p, 0, bytes, (cudaStream_t)stream) != cudaSuccess) {
            cudaGetLastError();
            scratch_free(&d->allocator, p, bytes, (cudaStream_t)stream);
            p = NULL;
        }
        leave_device(d->device, &scope);
    }
    if (p == NULL)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "no memory for the %llu per-key marks of the batch",
                         (unsigned long long)r->n);
    *scratch = (hive_batch_scratch *)p;
    return HIVE_SUCCESS;
}

static void cuda_end(void *impl, const hive_request *r, hive_batch_scratch *scratch, hive_stream stream)
{
    if (scratch == NULL)
        return;
    hive_dict *d = (hive_dict *)impl;
    device_scope scope;
    if (enter_device(d->device, &scope, "hive batch (CUDA)") != HIVE_SUCCESS)
        return;
    scratch_free(&d->allocator, scratch, marks_bytes(r), (cudaStream_t)stream);
    leave_device(d->device, &scope);
}

static hive_status cuda_run(void *impl, const hive_request *r, hive_batch_scratch *scratch,
                            hive_batch_outcome *out, hive_stream stream)
{
    hive_dict *d = (hive_dict *)impl;
    hive_batch b = hive_batch_of(r, marks_of(scratch));
    RETURN_ON_DEVICE(d, "hive batch (CUDA)", hive_dict_run(d, &b, out, stream));
}

static hive_status cuda_retry_full(void *impl, const hive_request *r, hive_batch_scratch *scratch,
                                   hive_batch_outcome *out, hive_stream stream)
{
    hive_dict *d = (hive_dict *)impl;
    hive_batch b = hive_batch_of(r, marks_of(scratch));
    RETURN_ON_DEVICE(d, "hive batch retry (CUDA)", hive_dict_retry_full(d, &b, out, stream));
}

static hive_status cuda_count_new(void *impl, const hive_request *r, uint64_t *count, hive_stream stream)
{
    hive_dict *d = (hive_dict *)impl;
    hive_batch b = hive_batch_of(r, NULL);
    RETURN_ON_DEVICE(d, "hive batch growth (CUDA)", hive_dict_count_new(d, &b, count, stream));
}

static hive_status cuda_count_inserts(void *impl, const hive_request *r, uint64_t *count,
                                      hive_stream stream)
{
    hive_dict *d = (hive_dict *)impl;
    hive_batch b = hive_batch_of(r, NULL);
    RETURN_ON_DEVICE(d, "hive_apply (CUDA)", hive_dict_count_inserts(d, &b, count, stream));
}

static hive_status cuda_enqueue(void *impl, const hive_request *r, uint64_t *status, hive_stream stream,
                                int *captured)
{
    hive_dict *d = (hive_dict *)impl;
    hive_batch b = hive_batch_of(r, NULL);
    RETURN_ON_DEVICE(d, "hive asynchronous call (CUDA)", hive_dict_enqueue(d, &b, status, stream, captured));
}

static hive_status cuda_settle(void *impl, hive_batch_outcome *out)
{
    hive_dict *d = (hive_dict *)impl;
    RETURN_ON_DEVICE(d, "hive settle (CUDA)", hive_dict_settle(d, out));
}

static hive_status cuda_clear(void *impl, hive_stream stream)
{
    static const char call[] = "hive_clear (CUDA)";
    hive_dict *d = (hive_dict *)impl;
    cudaStream_t s = (cudaStream_t)stream;
    device_scope scope;
    HIVE_TRY(enter_device(d->device, &scope, call));
    hive_dict_async_wait(d);
    uint64_t stash_bytes = d->view.stash_buckets * bucket_bytes(d);
    hive_status st = hive_cuda_status(cudaMemsetAsync(d->view.slots, 0xFF, d->buckets * bucket_bytes(d), s),
                                      call, "clearing slots");
    if (st == HIVE_SUCCESS && tagged(d))
        st = hive_cuda_status(cudaMemsetAsync(d->view.tags, 0xFF, tag_bytes(d, d->buckets), s), call,
                              "clearing tags");
    if (st == HIVE_SUCCESS && d->view.stash_buckets)
        st = hive_cuda_status(cudaMemsetAsync(d->view.stash, 0xFF, stash_bytes, s), call, "clearing the stash");
    if (st == HIVE_SUCCESS && d->view.stash_buckets)
        st = hive_cuda_status(cudaMemsetAsync(d->view.stash_used, 0,
                                              stash_used_bytes(d->view.design, d->view.stash_buckets),
                                              s),
                              call, "clearing the stash bitmap");
    if (st == HIVE_SUCCESS)
        st = hive_cuda_status(cudaMemsetAsync(d->view.stash_live, 0, sizeof(uint64_t), s), call,
                              "clearing the stash counter");
    /* And the lock words: a broken table may have marks left in them. */
    if (st == HIVE_SUCCESS)
        st = hive_cuda_status(cudaMemsetAsync(d->view.locks, 0, lock_bytes(d->buckets), s), call,
                              "clearing the bucket locks");
    if (st == HIVE_SUCCESS)
        st = hive_cuda_status(cudaStreamSynchronize(s), call, "cudaStreamSynchronize");
    leave_device(d->device, &scope);
    return st;
}

static const char resize_call[] = "hive resize (CUDA)";

/* ---------------------------------------------------------------- resize steps
 *
 * backend.h's per-step work of src/resize.c's driver, which owns what a
 * failed step leaves (its essay).  Every step waits for what it queued
 * whatever failed (hive_dict_resize_op), so the driver knows what ran. */

static hive_status cuda_map(void *impl, uint64_t buckets, hive_stream stream)
{
    hive_dict *d = (hive_dict *)impl;
    uint64_t max_buckets = d->slot_vm.reserved / bucket_bytes(d);
    if (buckets > max_buckets)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, resize_call,
                         "%llu buckets: more than the GPU's memory holds (%llu)",
                         (unsigned long long)buckets, (unsigned long long)max_buckets);
    hive_dict_async_wait(d);
    RETURN_ON_DEVICE(d, resize_call, map_for(d, buckets, (cudaStream_t)stream, resize_call));
}

static void cuda_unmap(void *impl)
{
    hive_dict *d = (hive_dict *)impl;
    device_scope scope;
    if (!enter_device_quietly(d->device, &scope))
        return; /* the memory stays mapped: the table is whole, only larger */
    hive_dict_async_wait(d);
    hive_vm_trim(&d->slot_vm, d->buckets * bucket_bytes(d), d->stream);
    hive_vm_trim(&d->lock_vm, lock_bytes(d->buckets), d->stream);
    if (tagged(d))
        hive_vm_trim(&d->tag_vm, tag_bytes(d, d->buckets), d->stream);
    view_arrays(d);
    leave_device(d->device, &scope);
}

/* REHOME places into the table under `ix`; RESTASH copies into the stash of
 * cuda_stash_open. */
static hive_status cuda_step(void *impl, hive_resize_op op, hive_index ix, uint64_t begin, uint64_t end,
                             hive_resize_outcome *out, hive_stream stream)
{
    hive_dict *d = (hive_dict *)impl;
    hive_view to = d->view;
    if (op == HIVE_RESIZE_REHOME)
        to.ix = ix;
    if (op == HIVE_RESIZE_RESTASH) {
        to.stash = d->next_stash.stash;
        to.stash_used = d->next_stash.stash_used;
        to.stash_live = d->next_stash.stash_live;
        to.stash_buckets = d->next_stash.stash_buckets;
    }
    out->finished = 1;
    out->done = begin;
    out->count = 0;
    hive_dict_async_wait(d);
    RETURN_ON_DEVICE(d, resize_call, hive_dict_resize_op(d, op, &to, ix, begin, end, out, stream));
}

static void cuda_set_index(void *impl, hive_index ix)
{
    hive_dict *d = (hive_dict *)impl;
    d->view.ix = ix;
    d->buckets = hive_index_buckets(ix);
}

static hive_status cuda_stash_open(void *impl, uint64_t stash_buckets, hive_stream stream)
{
    hive_dict *d = (hive_dict *)impl;
    RETURN_ON_DEVICE(d, resize_call, alloc_stash(d, &d->next_stash, stash_buckets, (cudaStream_t)stream, resize_call));
}

static void cuda_stash_close(void *impl, int keep)
{
    hive_dict *d = (hive_dict *)impl;
    device_scope scope;
    int entered = enter_device_quietly(d->device, &scope); /* cudaFree needs none: go on anyway */
    if (keep) {
        free_stash(d, &d->view, d->stream);
        d->view.stash = d->next_stash.stash;
        d->view.stash_used = d->next_stash.stash_used;
        d->view.stash_live = d->next_stash.stash_live;
        d->view.stash_buckets = d->next_stash.stash_buckets;
        d->next_stash.stash = NULL;
        d->next_stash.stash_used = NULL;
        d->next_stash.stash_live = NULL;
        d->next_stash.stash_buckets = 0;
    } else {
        free_stash(d, &d->next_stash, d->stream);
    }
    if (entered)
        leave_device(d->device, &scope);
}

/* After a failed step: tidying's marks live in the lock words, and a mark
 * left set is a lock no one releases. */
static hive_status clear_locks(hive_dict *d, cudaStream_t s)
{
    cudaError_t e = cudaMemsetAsync(d->view.locks, 0, lock_bytes(d->buckets), s);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(s);
    return hive_cuda_status(e, resize_call, "clearing the bucket locks");
}

static hive_status cuda_clear_locks(void *impl, hive_stream stream)
{
    hive_dict *d = (hive_dict *)impl;
    RETURN_ON_DEVICE(d, resize_call, clear_locks(d, (cudaStream_t)stream));
}

static hive_status cuda_export(void *impl, uint64_t capacity, void *keys, void *values,
                               uint64_t *count, hive_stream stream)
{
    hive_dict *d = (hive_dict *)impl;
    RETURN_ON_DEVICE(d, "hive_export (CUDA)", hive_dict_export(d, capacity, keys, values, count, stream));
}

static void cuda_shape(const void *impl, hive_shape *shape)
{
    const hive_dict *d = (const hive_dict *)impl;
    shape->ix = d->view.ix;
    shape->buckets = d->buckets;
    shape->stash_buckets = d->view.stash_buckets;
    shape->bytes_held = bytes_held(d);
}

/* On the table's own stream: the legacy default stream would wait for every
 * blocking stream's work (other threads' batches, the caller's kernels). */
static hive_status read_stash_live(hive_dict *d, uint64_t *live)
{
    static const char call[] = "hive stash counter (CUDA)";
    HIVE_TRY(hive_cuda_status(cudaMemcpyAsync(live, d->view.stash_live, sizeof *live, cudaMemcpyDeviceToHost,
                                              d->stream),
                              call, "reading the stash counter"));
    return hive_cuda_status(cudaStreamSynchronize(d->stream), call, "cudaStreamSynchronize");
}

static hive_status cuda_stash_live(void *impl, uint64_t *live)
{
    hive_dict *d = (hive_dict *)impl;
    RETURN_ON_DEVICE(d, "hive stash counter (CUDA)", read_stash_live(d, live));
}

/* On the table's device: what a pointer of host memory maps to, and which
 * peer memory is reachable, are the current device's (cuda_pointer.cu). */
static hive_status cuda_check_pointer(const void *impl, const void *p, const char *call,
                                      const char *what)
{
    const hive_dict *d = (const hive_dict *)impl;
    device_scope scope;
    HIVE_TRY(enter_device(d->device, &scope, call));
    hive_status st = hive_dict_check_pointer(d->device, p, call, what);
    leave_device(d->device, &scope);
    return st;
}

extern "C" const hive_backend_ops hive_cuda_backend = {
    .name = "cuda",
    .create = cuda_create,
    .destroy = cuda_destroy,
    .begin = cuda_begin,
    .end = cuda_end,
    .run = cuda_run,
    .enqueue = cuda_enqueue,
    .settle = cuda_settle,
    .device_view = hive_dict_device_view,
    .device_view_done = hive_dict_device_view_done,
    .retry_full = cuda_retry_full,
    .count_inserts = cuda_count_inserts,
    .count_new = cuda_count_new,
    .clear = cuda_clear,
    .export_pairs = cuda_export,
    .check_pointer = cuda_check_pointer,
    .shape = cuda_shape,
    .stash_live = cuda_stash_live,
    .map = cuda_map,
    .unmap = cuda_unmap,
    .step = cuda_step,
    .set_index = cuda_set_index,
    .stash_open = cuda_stash_open,
    .stash_close = cuda_stash_close,
    .clear_locks = cuda_clear_locks,
};
