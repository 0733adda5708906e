/* cuda_table.cu — the CUDA backend's table operations (hive_cuda_backend):
 * create and destroy, device memory of the bucket arrays, clear, resize by
 * linear hashing (splits and merges in place), compaction, export, stats,
 * and the memory-space check of user pointers. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "core/marks.h"
#include "cuda_check.h"
#include "cuda_table.h"
#include "cuda_vm.h"
#include "api/table.h"

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

/* A table whose recovery from a failed resize failed too (see "failures
 * while resizing") refuses every call but hive_clear and hive_destroy. */
static hive_status refuse_if_broken(const hive_dict *d, const char *call)
{
    if (!d->broken)
        return HIVE_SUCCESS;
    return hive_fail(HIVE_ERROR_CUDA, call,
                     "an earlier resize failed, and so did its recovery (the GPU's context may be "
                     "lost): only hive_clear and hive_destroy work on this table");
}

/* Returns `expr` (a hive_status), evaluated on the table's device, unless
 * the table is broken. */
#define RETURN_ON_DEVICE(dict, call, expr)                          \
    do {                                                            \
        HIVE_TRY(refuse_if_broken((dict), (call)));                 \
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

static uint64_t bucket_bytes(const hive_dict *d)
{
    return (uint64_t)d->bucket_slots * d->slot_words * sizeof(uint64_t);
}

static uint64_t lock_bytes(uint64_t buckets) { return (buckets + 31) / 32 * sizeof(uint32_t); }

/* The stash arrays of d->view (cudaMalloc'd: a resize replaces them whole). */
static void free_stash(hive_view *v)
{
    cudaFree(v->stash);
    cudaFree(v->stash_used);
    cudaFree(v->stash_live);
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
    v->stash = NULL;
    v->stash_used = NULL;
    v->stash_live = NULL;
    v->stash_buckets = 0;
    uint64_t used_bytes = (stash_buckets + 31) / 32 * sizeof(uint32_t);
    hive_status st = device_alloc((void **)&v->stash, stash_buckets * bucket_bytes(d), call, "stash");
    if (st == HIVE_SUCCESS)
        st = device_alloc((void **)&v->stash_used, used_bytes, call, "stash bitmap");
    if (st == HIVE_SUCCESS)
        st = device_alloc((void **)&v->stash_live, sizeof(uint64_t), call, "stash counter");
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
        free_stash(v);
        return st;
    }
    v->stash_buckets = stash_buckets;
    return HIVE_SUCCESS;
}

static void free_arrays(hive_dict *d)
{
    hive_vm_release(&d->slot_vm);
    hive_vm_release(&d->lock_vm);
    d->view.slots = NULL;
    d->view.locks = NULL;
    free_stash(&d->view);
}

static uint64_t bytes_held(const hive_dict *d)
{
    return d->slot_vm.mapped + d->lock_vm.mapped + d->view.stash_buckets * bucket_bytes(d) +
           (d->view.stash_buckets + 31) / 32 * sizeof(uint32_t) + sizeof(uint64_t) +
           HIVE_COUNTER_BLOCKS * HIVE_CTR_COUNT * sizeof(uint64_t);
}

/* Maps slot and lock memory for `buckets` buckets; the lock bits of buckets
 * beyond d->buckets are cleared.  On failure the table is as it was (with
 * perhaps more memory mapped). */
static hive_status map_for(hive_dict *d, uint64_t buckets, cudaStream_t s, const char *call)
{
    uint64_t old_lock_bytes = lock_bytes(d->buckets);
    HIVE_TRY(hive_vm_map(&d->slot_vm, buckets * bucket_bytes(d), call));
    HIVE_TRY(hive_vm_map(&d->lock_vm, lock_bytes(buckets), call));
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
    hive_status st = hive_vm_reserve(&d->slot_vm, d->device, max_buckets * bucket_bytes(d), call);
    if (st == HIVE_SUCCESS)
        st = hive_vm_reserve(&d->lock_vm, d->device, lock_bytes(max_buckets), call);
    if (st == HIVE_SUCCESS) {
        d->view.slots = (uint64_t *)d->slot_vm.base;
        d->view.locks = (uint32_t *)d->lock_vm.base;
        st = map_for(d, buckets, s, call);
    }
    if (st == HIVE_SUCCESS)
        st = alloc_stash(d, &d->view, hive_stash_wanted(stash_fraction, buckets, 0, d->bucket_slots), s, call);
    if (st == HIVE_SUCCESS)
        st = hive_cuda_status(cudaMemsetAsync(d->view.slots, 0xFF, buckets * bucket_bytes(d), s), call,
                              "clearing slots");
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
    if (d->pool != NULL)
        cudaMemPoolDestroy(d->pool);
    free_arrays(d);
    if (d->stream != NULL)
        cudaStreamDestroy(d->stream);
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

static hive_status cuda_create(hive_table *t)
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
    uint32_t design = c->design == HIVE_DESIGN_DOUBLE ? HIVE_DESIGN_ID_DOUBLE : HIVE_DESIGN_ID_HIVE;
    const hive_geometry_kernels *kernels = hive_cuda_kernels(width, c->bucket_slots, c->lanes_per_op, design);
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
    d->resize_batch = c->resize_batch;
    d->sm_count = prop.multiProcessorCount;
    d->l2_bytes = (uint64_t)prop.l2CacheSize;
    d->view.max_evictions = c->max_evictions < HIVE_MAX_CHAIN ? c->max_evictions : HIVE_MAX_CHAIN;
    d->view.design = design;
    HIVE_TRY_GOTO(hive_cuda_status(cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking), call,
                                   "cudaStreamCreateWithFlags"),
                  st, fail);
    HIVE_TRY_GOTO(hive_dict_load_kernels(d, call), st, fail);
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
        /* A pool's first allocation costs some 90 us of host time whatever
         * its size (H100, driver 580: bench/NOTES.md item 57), which a fresh
         * table's first batch would pay before it could launch anything.
         * Paid here instead (alloc_arrays waits for the stream). */
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
    d->bytes_held = bytes_held(d);
    t->impl = d;
    goto out;
fail:
    free_dict(d);
out:
    leave_device(c->device, &scope);
    return st;
}

static void cuda_destroy(hive_table *t)
{
    hive_dict *d = (hive_dict *)t->impl;
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

static hive_status cuda_run(hive_table *t, const hive_batch *b, hive_batch_outcome *out,
                            hive_stream stream)
{
    RETURN_ON_DEVICE((hive_dict *)t->impl, "hive batch (CUDA)", hive_dict_run(t, b, out, stream));
}

static hive_status cuda_count_new(hive_table *t, const hive_batch *b, uint64_t *count, hive_stream stream)
{
    RETURN_ON_DEVICE((hive_dict *)t->impl, "hive batch growth (CUDA)", hive_dict_count_new(t, b, count, stream));
}

static hive_status cuda_count_inserts(hive_table *t, const hive_batch *b, uint64_t *count,
                                      hive_stream stream)
{
    RETURN_ON_DEVICE((hive_dict *)t->impl, "hive_apply (CUDA)", hive_dict_count_inserts(t, b, count, stream));
}

static hive_status cuda_retry_full(hive_table *t, const hive_batch *b, hive_batch_outcome *out,
                                   hive_stream stream)
{
    RETURN_ON_DEVICE((hive_dict *)t->impl, "hive batch retry (CUDA)", hive_dict_retry_full(t, b, out, stream));
}

static uint32_t *cuda_marks_alloc(hive_table *t, uint64_t n, hive_stream stream)
{
    hive_dict *d = (hive_dict *)t->impl;
    void *p = NULL;
    size_t bytes = 2 * HIVE_MARK_WORDS(n) * sizeof(uint32_t);
    device_scope scope;
    if (hive_alloc_should_fail() || enter_device(d->device, &scope, "hive batch (CUDA)") != HIVE_SUCCESS)
        return NULL;
    if (cudaMallocFromPoolAsync(&p, bytes, d->pool, (cudaStream_t)stream) != cudaSuccess) {
        cudaGetLastError();
        p = NULL;
    } else if (cudaMemsetAsync(p, 0, bytes, (cudaStream_t)stream) != cudaSuccess) {
        cudaGetLastError();
        cudaFreeAsync(p, (cudaStream_t)stream);
        p = NULL;
    }
    leave_device(d->device, &scope);
    return (uint32_t *)p;
}

static void cuda_marks_free(hive_table *t, uint32_t *marks, hive_stream stream)
{
    hive_dict *d = (hive_dict *)t->impl;
    device_scope scope;
    if (enter_device(d->device, &scope, "hive batch (CUDA)") != HIVE_SUCCESS)
        return;
    cudaFreeAsync(marks, (cudaStream_t)stream);
    leave_device(d->device, &scope);
}

static hive_status cuda_clear(hive_table *t, hive_stream stream)
{
    static const char call[] = "hive_clear (CUDA)";
    hive_dict *d = (hive_dict *)t->impl;
    cudaStream_t s = (cudaStream_t)stream;
    device_scope scope;
    HIVE_TRY(enter_device(d->device, &scope, call));
    uint64_t stash_bytes = d->view.stash_buckets * bucket_bytes(d);
    hive_status st = hive_cuda_status(cudaMemsetAsync(d->view.slots, 0xFF, d->buckets * bucket_bytes(d), s),
                                      call, "clearing slots");
    if (st == HIVE_SUCCESS && d->view.stash_buckets)
        st = hive_cuda_status(cudaMemsetAsync(d->view.stash, 0xFF, stash_bytes, s), call, "clearing the stash");
    if (st == HIVE_SUCCESS && d->view.stash_buckets)
        st = hive_cuda_status(cudaMemsetAsync(d->view.stash_used, 0,
                                              (d->view.stash_buckets + 31) / 32 * sizeof(uint32_t), s),
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
    if (st == HIVE_SUCCESS)
        d->broken = 0; /* empty, and every word as a fresh table has it */
    leave_device(d->device, &scope);
    return st;
}

static uint64_t cuda_capacity(const hive_table *t)
{
    const hive_dict *d = (const hive_dict *)t->impl;
    return d->buckets * d->bucket_slots;
}

static const char resize_call[] = "hive resize (CUDA)";

/* ---------------------------------------------------------------- failures while resizing
 *
 * A resize op can fail part way: a kernel launch fails (the launches queued
 * before it still run), or the counters its kernels summed cannot be read
 * back (they ran).  hive_dict_resize_op waits for the stream either way and
 * says what ran, and every failure leaves the table usable, holding exactly
 * the pairs it held; the call returns the error.
 *
 *  - Splits that ran stay, and the index names them: a split only deals a
 *    bucket's pairs out between its two halves.  A growth that fails part way
 *    leaves a table between its old and its new size.
 *  - A merge stays only if every pair it could not keep in the merged bucket
 *    is known to have been placed: its count of them read back as 0, or the
 *    rehoming's count of pairs that found no room read back as 0.  Otherwise
 *    what ran of it is undone, the index stays as it was, and shrinking
 *    stops there (as when a pair finds no room).
 *  - What ran of tidying stays (it moves pairs only between their own
 *    buckets and the stash), but its marks live in the lock bits
 *    (designs/hive/protocol.h), and a mark left set is a lock that no one releases:
 *    after any failure the lock words are cleared (no operation holds a lock
 *    while a resize runs, R8).  The stash keeps its size if replacing it fails.
 *  - Memory mapped for buckets that the index does not name is unmapped.
 *
 * Only if this recovery fails too (the undo of a merge cannot be launched,
 * twice; the stream cannot be waited for: the GPU's context is lost, as a
 * rule) is the table marked broken: every later call but hive_clear and
 * hive_destroy returns HIVE_ERROR_CUDA rather than look for pairs that may
 * be anywhere, or wait on a mark forever. */

static hive_status break_table(hive_dict *d, const char *why)
{
    d->broken = 1;
    return hive_fail(HIVE_ERROR_CUDA, resize_call, "%s: the table is unusable until hive_clear", why);
}

/* After a failed resize or compaction: clears the marks a tidying may have
 * left in the lock words, waits for that, and unmaps memory beyond the
 * buckets the index names.  HIVE_ERROR_CUDA if it breaks the table. */
static hive_status recover(hive_dict *d, hive_stream stream)
{
    if (d->broken)
        return HIVE_ERROR_CUDA;
    cudaStream_t s = (cudaStream_t)stream;
    cudaError_t e = cudaMemsetAsync(d->view.locks, 0, lock_bytes(d->buckets), s);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(s);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return break_table(d, "clearing the bucket locks after a failed resize failed");
    }
    hive_vm_trim(&d->slot_vm, d->buckets * bucket_bytes(d));
    hive_vm_trim(&d->lock_vm, lock_bytes(d->buckets));
    return HIVE_SUCCESS;
}

/* ---------------------------------------------------------------- resize */

/* After a resize or compaction: moves stash pairs into buckets that have
 * room now, and replaces a stash that is less than half or more than twice
 * the size it should have (hive_stash_wanted) by one of that size, if all
 * remaining pairs are known to fit in it (else, or without memory for it,
 * the old one stays: still correct, only crowded or large). */
static hive_status settle_stash(hive_table *t, hive_dict *d, hive_stream stream)
{
    uint64_t stash_slots = d->view.stash_buckets * d->bucket_slots, live = 0;
    hive_resize_outcome o;
    if (stash_slots != 0) {
        HIVE_TRY(hive_dict_resize_op(d, HIVE_RESIZE_DRAIN, NULL, d->view.ix, 0, stash_slots, &o, stream));
        HIVE_TRY(hive_cuda_status(cudaMemcpyAsync(&live, d->view.stash_live, sizeof live, cudaMemcpyDeviceToHost,
                                                  (cudaStream_t)stream),
                                  resize_call, "reading the stash counter"));
        HIVE_TRY(hive_cuda_status(cudaStreamSynchronize((cudaStream_t)stream), resize_call,
                                  "cudaStreamSynchronize"));
    }
    uint64_t wanted = hive_stash_wanted(t->config.stash_fraction, d->buckets, live, d->bucket_slots);
    if (!hive_stash_needs_resize(d->view.stash_buckets, wanted))
        return HIVE_SUCCESS;
    hive_view to = d->view;
    if (alloc_stash(d, &to, wanted, (cudaStream_t)stream, resize_call) != HIVE_SUCCESS) {
        hive_clear_error();
        return HIVE_SUCCESS;
    }
    hive_status st = hive_dict_resize_op(d, HIVE_RESIZE_RESTASH, &to, d->view.ix, 0, stash_slots, &o, stream);
    if (st != HIVE_SUCCESS || o.count != 0) {
        free_stash(&to);
        return st;
    }
    free_stash(&d->view);
    d->view.stash = to.stash;
    d->view.stash_used = to.stash_used;
    d->view.stash_live = to.stash_live;
    d->view.stash_buckets = to.stash_buckets;
    return HIVE_SUCCESS;
}

/* After a resize, and as the relief of a crowded stash: pairs go back to
 * their first buckets where there is room, tombstones become free slots,
 * free slots become EMPTY wherever R4 allows (designs/hive/resize_body.h), and the
 * stash is drained and sized to the table. */
static hive_status tidy(hive_table *t, hive_dict *d, hive_stream stream)
{
    hive_resize_outcome o;
    HIVE_TRY(hive_dict_resize_op(d, HIVE_RESIZE_REFLOW, NULL, d->view.ix, 0, d->buckets, &o, stream));
    HIVE_TRY(hive_dict_resize_op(d, HIVE_RESIZE_MARK_STASH, NULL, d->view.ix, 0,
                                 d->view.stash_buckets * d->bucket_slots, &o, stream));
    HIVE_TRY(hive_dict_resize_op(d, HIVE_RESIZE_COMPACT, NULL, d->view.ix, 0, d->buckets, &o, stream));
    return settle_stash(t, d, stream);
}

/* Splits buckets until there are `want`, mapping their memory first. */
static hive_status grow(hive_table *t, hive_dict *d, uint64_t want, hive_stream stream)
{
    uint64_t max_buckets = d->slot_vm.reserved / bucket_bytes(d);
    if (want > max_buckets)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, resize_call,
                         "%llu buckets: more than the GPU's memory holds (%llu)",
                         (unsigned long long)want, (unsigned long long)max_buckets);
    HIVE_TRY(map_for(d, want, (cudaStream_t)stream, resize_call));
    hive_resize_step step;
    while (hive_next_split(d->view.ix, want, &step)) {
        hive_resize_outcome o;
        hive_status st = hive_dict_resize_op(d, HIVE_RESIZE_SPLIT, NULL, step.before, step.first,
                                             step.first + step.count, &o, stream);
        if (!o.finished)
            return break_table(d, "a split could not be waited for");
        if (o.done > step.first) { /* what ran stays, counted or not */
            d->view.ix = hive_after_split(&step, o.done);
            d->buckets = hive_index_buckets(d->view.ix);
            __atomic_fetch_add(&d->buckets_split, o.done - step.first, __ATOMIC_RELAXED);
        }
        HIVE_TRY(st);
    }
    return tidy(t, d, stream);
}

/* Undoes the merge of buckets [step->first, done) (UNMERGE under the index
 * before the step): the pairs left in each bucket and its partner are dealt
 * out between the two again.  A launch that fails is tried once more from
 * where it stopped (the counters are not needed); if that fails too, which
 * pairs live where is not known, and the table is broken.  Returns the first
 * failure, with the merge undone. */
static hive_status undo_merge(hive_dict *d, const hive_resize_step *step, uint64_t done, hive_stream stream)
{
    hive_status first = HIVE_SUCCESS;
    uint64_t at = step->first;
    for (int attempt = 0; attempt < 2 && at < done; attempt++) {
        hive_resize_outcome o;
        hive_status st = hive_dict_resize_op(d, HIVE_RESIZE_UNMERGE, NULL, step->before, at, done, &o, stream);
        if (st == HIVE_SUCCESS && o.count != 0) /* never, by hive_unmerge_bucket's argument */
            st = hive_fail(HIVE_ERROR_INTERNAL, resize_call, "undoing a merge step found no room for %llu pairs",
                           (unsigned long long)o.count);
        if (first == HIVE_SUCCESS)
            first = st;
        if (!o.finished)
            break;
        at = st == HIVE_SUCCESS ? done : o.done;
    }
    return at < done ? break_table(d, "undoing a merge failed") : first;
}

/* Merges buckets down toward `want`, from the last split back.  Pairs a
 * merged bucket cannot hold are placed under the merged index without
 * eviction (hive_rehome_pair); if one finds no room, the step is undone,
 * losing nothing, and shrinking stops there.  Then unmaps the memory of the
 * buckets gone. */
static hive_status shrink(hive_table *t, hive_dict *d, uint64_t want, hive_stream stream)
{
    hive_resize_step step;
    while (hive_next_merge(d->view.ix, want, &step)) {
        uint64_t end = step.first + step.count, partners = hive_index_round(step.before);
        hive_view merged = d->view;
        merged.ix = hive_after_merge(&step, step.first);
        hive_resize_outcome o;
        hive_status st = hive_dict_resize_op(d, HIVE_RESIZE_MERGE, NULL, step.before, step.first, end, &o, stream);
        uint64_t ran = o.done;
        if (st == HIVE_SUCCESS && o.count != 0)
            st = hive_dict_resize_op(d, HIVE_RESIZE_REHOME, &merged, merged.ix, step.first + partners,
                                     end + partners, &o, stream);
        if (!o.finished)
            return break_table(d, "a merge could not be waited for");
        if (st != HIVE_SUCCESS || o.count != 0) { /* not known to fit: undone */
            hive_status undone = undo_merge(d, &step, ran, stream);
            HIVE_TRY(st);
            HIVE_TRY(undone);
            break;
        }
        d->view.ix = merged.ix;
        d->buckets = hive_index_buckets(d->view.ix);
        __atomic_fetch_add(&d->buckets_merged, step.count, __ATOMIC_RELAXED);
    }
    HIVE_TRY(tidy(t, d, stream));
    hive_vm_trim(&d->slot_vm, d->buckets * bucket_bytes(d));
    hive_vm_trim(&d->lock_vm, lock_bytes(d->buckets));
    return HIVE_SUCCESS;
}

/* Grows or shrinks by linear hashing (backend.h).  The bucket memory is
 * mapped in place: growth copies no bucket.  A failure leaves the table
 * usable with the same pairs (see "failures while resizing"). */
static hive_status cuda_resize(hive_table *t, uint64_t slots, hive_stream stream)
{
    hive_dict *d = (hive_dict *)t->impl;
    uint64_t want = (slots + d->bucket_slots - 1) / d->bucket_slots;
    if (want == 0)
        want = 1;
    device_scope scope;
    HIVE_TRY(enter_device(d->device, &scope, resize_call));
    hive_status st = refuse_if_broken(d, resize_call);
    if (st == HIVE_SUCCESS)
        st = want > d->buckets   ? grow(t, d, want, stream)
             : want < d->buckets ? shrink(t, d, want, stream)
                                 : HIVE_SUCCESS;
    if (st != HIVE_SUCCESS && recover(d, stream) != HIVE_SUCCESS)
        st = HIVE_ERROR_CUDA; /* broken: not the OUT_OF_MEMORY that callers take as harmless */
    d->bytes_held = bytes_held(d);
    leave_device(d->device, &scope);
    return st;
}

static hive_status cuda_compact(hive_table *t, hive_stream stream)
{
    static const char call[] = "hive compact (CUDA)";
    hive_dict *d = (hive_dict *)t->impl;
    device_scope scope;
    HIVE_TRY(enter_device(d->device, &scope, call));
    hive_status st = refuse_if_broken(d, call);
    if (st == HIVE_SUCCESS)
        st = tidy(t, d, stream);
    if (st != HIVE_SUCCESS && recover(d, stream) != HIVE_SUCCESS)
        st = HIVE_ERROR_CUDA;
    d->bytes_held = bytes_held(d);
    leave_device(d->device, &scope);
    return st;
}

static hive_status cuda_export(hive_table *t, uint64_t capacity, void *keys, void *values,
                               uint64_t *count, hive_stream stream)
{
    hive_dict *d = (hive_dict *)t->impl;
    RETURN_ON_DEVICE(d, "hive_export (CUDA)", hive_dict_export(d, capacity, keys, values, count, stream));
}

static hive_status cuda_stats(hive_table *t, hive_stats *s)
{
    static const char call[] = "hive_stats_get (CUDA)";
    hive_dict *d = (hive_dict *)t->impl;
    s->capacity = d->buckets * d->bucket_slots;
    s->buckets = d->buckets;
    s->bucket_slots = d->bucket_slots;
    s->lanes_per_op = d->lanes;
    s->stash_capacity = d->view.stash_buckets * d->bucket_slots;
    s->evictions = __atomic_load_n(&d->evictions, __ATOMIC_RELAXED);
    s->buckets_split = __atomic_load_n(&d->buckets_split, __ATOMIC_RELAXED);
    s->buckets_merged = __atomic_load_n(&d->buckets_merged, __ATOMIC_RELAXED);
    for (int i = 0; i < 4; i++)
        s->insert_steps[i] = __atomic_load_n(&d->insert_steps[i], __ATOMIC_RELAXED);
    s->bytes_held = d->bytes_held;
    HIVE_TRY(refuse_if_broken(d, call));
    device_scope scope;
    HIVE_TRY(enter_device(d->device, &scope, call));
    /* On the table's stream: the legacy default stream would wait for every
     * blocking stream's work (other threads' batches, the caller's kernels). */
    hive_status st = hive_cuda_status(cudaMemcpyAsync(&s->stash_size, d->view.stash_live, sizeof(uint64_t),
                                                      cudaMemcpyDeviceToHost, d->stream),
                                      call, "reading the stash counter");
    if (st == HIVE_SUCCESS)
        st = hive_cuda_status(cudaStreamSynchronize(d->stream), call, "cudaStreamSynchronize");
    leave_device(d->device, &scope);
    return st;
}

/* On the table's device: what a pointer of host memory maps to, and which
 * peer memory is reachable, are the current device's (cuda_pointer.cu). */
static hive_status cuda_check_pointer(const hive_table *t, const void *p, const char *call,
                                      const char *what)
{
    const hive_dict *d = (const hive_dict *)t->impl;
    device_scope scope;
    HIVE_TRY(enter_device(d->device, &scope, call));
    hive_status st = hive_dict_check_pointer(d->device, p, call, what);
    leave_device(d->device, &scope);
    return st;
}

extern "C" const hive_backend_ops hive_cuda_backend = {
    "cuda",           cuda_create,        cuda_destroy,      cuda_run,      cuda_count_inserts,
    cuda_count_new,   cuda_retry_full,  cuda_marks_alloc,   cuda_marks_free,   cuda_clear,    cuda_capacity,
    cuda_resize,      cuda_compact,       cuda_export,       cuda_stats,    cuda_check_pointer,
};
