/* cuda_batch.cu — C-style launchers for the dictionary's kernels: pick the
 * kernel for the table's bucket size and the batch's op, launch it on the
 * caller's stream, read the outcome counters back; and load them when a
 * table is created. */
#include <stdint.h>

#include "base/alloc.h"
#include "cuda_alloc.h"
#include "cuda_check.h"
#include "cuda_kernels.cuh"

/* Each design's kernel tables (cuda_kernels32.cu, cuda_kernels32_NAME.cu, ...). */
extern const hive_geometry_kernels *const hive_cuda_kernels32;
extern const hive_geometry_kernels *const hive_cuda_kernels64;
#define HIVE_KERNEL_TABLES(ID, name)                                                             \
    extern const hive_geometry_kernels *const hive_cuda_kernels32_##name;                        \
    extern const hive_geometry_kernels *const hive_cuda_kernels64_##name;
HIVE_PROBE_DESIGNS(HIVE_KERNEL_TABLES)
#undef HIVE_KERNEL_TABLES

extern "C" const hive_geometry_kernels *hive_cuda_kernels(uint32_t width, uint32_t S, uint32_t T,
                                                         uint32_t design)
{
    const hive_geometry_kernels *k = width == 32 ? hive_cuda_kernels32 : hive_cuda_kernels64;
    switch (design) {
#define HIVE_KERNEL_TABLE(ID, name)                                                              \
    case HIVE_DESIGN_ID_##ID:                                                                    \
        k = width == 32 ? hive_cuda_kernels32_##name : hive_cuda_kernels64_##name;               \
        break;
        HIVE_PROBE_DESIGNS(HIVE_KERNEL_TABLE)
#undef HIVE_KERNEL_TABLE
    }
    for (; k->width != 0; k++)
        if (k->S == S && k->T == T)
            return k;
    return NULL;
}

/* Likewise for the erase kernel (one thread per key) on such a table: an
 * erase is a scan and a CAS, as a lock-free insert is, and fewer blocks in
 * flight finish their random accesses sooner (docs/perf.md). */
#define HIVE_ERASE_BLOCKS_PER_SM 4
/* And for the find kernel: fewer warps in flight wait less on the memory
 * system, more so for absent keys, which read both buckets; KV64 finds keep
 * a fourth block, as three slowed those of smaller tables (docs/perf.md). */
#define HIVE_FIND_BLOCKS_PER_SM(width) ((width) == 64 ? 4 : 3)
/* But a KV32 find grid of that one wave left SMs idle whenever some of its
 * blocks ran slower than the rest (beside another stream's kernels, such as
 * a sharded table's NCCL exchange, and at its end): with HIVE_FIND_WAVES
 * times the blocks, each a smaller share of the keys, an SM that finishes
 * early takes more, and how many are resident is the occupancy's.  H200,
 * KV32: finds of 2^24-2^26 keys +2-9%, a 2-GPU sharded find +5%.  KV64
 * keeps one wave: its finds of 2^25-2^26 keys gained 5%, those of 2^23-2^24
 * lost up to 9% (docs/perf.md). */
#define HIVE_FIND_WAVES(width) ((width) == 64 ? 1 : 8)

/* Enough blocks to fill the GPU `waves` times (for n items of `lanes`
 * threads each): as many as can be resident together (at most max_per_sm).
 * With one wave, the grid-stride loop runs in one go and no SM idles
 * through a last, partly filled wave. */
static unsigned grid_for_at_most(const hive_dict *d, const void *kernel, uint64_t n, uint32_t lanes,
                                 int max_per_sm, int waves)
{
    int per_sm = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, HIVE_THREADS, 0) != cudaSuccess ||
        per_sm < 1) {
        cudaGetLastError(); /* not sticky; the launch reports what is wrong */
        per_sm = 1;
    }
    if (per_sm > max_per_sm)
        per_sm = max_per_sm;
    uint64_t blocks = (n * lanes + HIVE_THREADS - 1) / HIVE_THREADS;
    uint64_t cap = (uint64_t)d->sm_count * (uint64_t)per_sm * (uint64_t)waves;
    return (unsigned)(blocks < cap ? (blocks ? blocks : 1) : cap);
}

static unsigned grid_for(const hive_dict *d, const void *kernel, uint64_t n, uint32_t lanes)
{
    return grid_for_at_most(d, kernel, n, lanes, 1 << 30, 1);
}

/* Queues a call's kernels on its stream, stopping at the first launch that
 * fails; returns that failure (the launches before it stay queued). */
typedef hive_status (*hive_launcher)(void *ctx, uint64_t *counters);

/* The status of the launch just made. */
static hive_status launched(const char *call)
{
    return hive_cuda_status(cudaGetLastError(), call, "kernel launch");
}

/* Zeroes a counter block, runs `launch`, copies the counters back, and waits
 * for the stream whatever failed: when it returns, no kernel of the call
 * still runs (a resize keeps or undoes a step by what ran, and a counter
 * block goes back to the pool only when no kernel writes it), unless the
 * wait itself failed (the GPU's context is lost, as a rule): *finished, if
 * not NULL, says which.  out[] is set on success.  Each call takes its own
 * block from the table's small pool, so concurrent calls on several streams
 * do not share counters.  `injectable`: the read-back is a resize step
 * (alloc.h, HIVE_TEST_FAIL_RESIZE_STEP). */
static hive_status with_counters(hive_dict *d, cudaStream_t s, const char *call, hive_launcher launch,
                                 void *ctx, int injectable, uint64_t out[HIVE_CTR_COUNT], int *finished)
{
    unsigned slot = 0;
    for (unsigned round = 0;; round++) {
        uint64_t busy = __atomic_load_n(&d->counter_busy, __ATOMIC_ACQUIRE);
        if (~busy != 0) {
            slot = (unsigned)__builtin_ctzll(~busy);
            if (!(__atomic_fetch_or(&d->counter_busy, 1ull << slot, __ATOMIC_ACQ_REL) &
                  (1ull << slot)))
                break;
        }
    }
    uint64_t *dev = d->counters + (uint64_t)slot * HIVE_CTR_COUNT;
    uint64_t *host = d->host_counters + (uint64_t)slot * HIVE_CTR_COUNT;
    hive_status st = hive_cuda_status(cudaMemsetAsync(dev, 0, HIVE_CTR_COUNT * sizeof(uint64_t), s),
                                      call, "cudaMemsetAsync(counters)");
    if (st == HIVE_SUCCESS)
        st = launch(ctx, dev);
    if (st == HIVE_SUCCESS && injectable && hive_resize_step_should_fail())
        st = hive_fail(HIVE_ERROR_CUDA, call, "reading the counters back: injected failure "
                                              "(HIVE_TEST_FAIL_RESIZE_STEP)");
    if (st == HIVE_SUCCESS)
        st = hive_cuda_status(cudaMemcpyAsync(host, dev, HIVE_CTR_COUNT * sizeof(uint64_t),
                                              cudaMemcpyDeviceToHost, s),
                              call, "cudaMemcpyAsync(counters)");
    cudaError_t waited = cudaStreamSynchronize(s);
    if (finished != NULL)
        *finished = waited == cudaSuccess;
    if (st == HIVE_SUCCESS)
        st = hive_cuda_status(waited, call, "cudaStreamSynchronize");
    else if (waited != cudaSuccess)
        cudaGetLastError(); /* the first failure is the one reported */
    if (st == HIVE_SUCCESS)
        for (int c = 0; c < HIVE_CTR_COUNT; c++)
            out[c] = host[c];
    __atomic_fetch_and(&d->counter_busy, ~(1ull << slot), __ATOMIC_ACQ_REL);
    return st;
}

typedef struct batch_launch {
    hive_batch_kernel kernel;
    hive_batch_kernel deferred, deferred_deep; /* or NULL */
    const hive_dict *d;
    uint32_t lanes; /* per key, of `kernel` */
    int max_per_sm; /* blocks of `kernel` */
    int waves;      /* of `kernel`'s grid */
    cudaStream_t stream;
    const hive_batch *batch;
    uint32_t *full_hint; /* room for the deferred kernels' full bits, or NULL */
} batch_launch;

static hive_status launch_batch(void *ctx, uint64_t *counters)
{
    const batch_launch *l = (const batch_launch *)ctx;
    static const char call[] = "hive batch (CUDA)";
    uint64_t n = l->batch->n;
    l->kernel<<<grid_for_at_most(l->d, (const void *)l->kernel, n, l->lanes, l->max_per_sm, l->waves),
                HIVE_THREADS, 0, l->stream>>>(l->d->view, *l->batch, counters);
    HIVE_TRY(launched(call));
    if (l->deferred == NULL)
        return HIVE_SUCCESS;
    /* The hint kernel takes the full bits for this batch, or clears them. */
    hive_view hinted = l->d->view;
    hinted.full_hint = l->full_hint;
    if (l->full_hint != NULL) {
        hive_batch_kernel hint = l->d->kernels->full_hint;
        hint<<<grid_for(l->d, (const void *)hint, l->d->buckets, 1), HIVE_THREADS, 0, l->stream>>>(
            hinted, *l->batch, counters);
        HIVE_TRY(launched(call));
    }
    /* Each returns at once when the counters say nothing was left to it. */
    l->deferred<<<grid_for(l->d, (const void *)l->deferred, n, 1), HIVE_THREADS, 0, l->stream>>>(
        hinted, *l->batch, counters);
    HIVE_TRY(launched(call));
    l->deferred_deep<<<grid_for(l->d, (const void *)l->deferred_deep, n, 1), HIVE_THREADS, 0,
                       l->stream>>>(hinted, *l->batch, counters);
    return launched(call);
}

/* What a batch's counters say it did. */
static void outcome_of(const uint64_t c[HIVE_CTR_COUNT], hive_batch_outcome *out)
{
    out->inserted = c[HIVE_CTR_INSERTED];
    out->erased = c[HIVE_CTR_ERASED];
    out->reserved = c[HIVE_CTR_RESERVED];
    out->full = c[HIVE_CTR_FULL];
    out->bad_ops = c[HIVE_CTR_BAD_OPS];
    for (int s = 0; s < 4; s++)
        out->steps[s] = c[HIVE_CTR_STEP0 + s];
    out->evictions = c[HIVE_CTR_EVICTIONS];
}

/* Bytes of the table's buckets, and whether L2 does not hold them. */
static uint64_t table_bytes_of(const hive_dict *d)
{
    return d->buckets * d->bucket_slots * d->slot_words * sizeof(uint64_t);
}

static int beyond_l2(const hive_dict *d) { return table_bytes_of(d) > 2 * d->l2_bytes; }

/* The blocks per SM a batch kernel may have.  A uniform insert batch into a
 * table that L2 does not hold gets the capped pass (bulk_insert; and the
 * full bits, hive_dict_run), a uniform erase or find batch a capped grid.  In
 * a table L2 holds, the rooms the bits spare are L2 hits anyway, and mixed
 * batches (half finds and erases, with TOMBs for their inserts to take) lost
 * with the cap and the bits and gained nothing from a capped grid alone
 * (docs/perf.md). */
static int blocks_per_sm_cap(const hive_dict *d, hive_batch_kernel kernel, int bulk_insert)
{
    const hive_geometry_kernels *k = d->kernels;
    int one_thread_beyond_l2 = d->lanes == 1 && beyond_l2(d);
    return bulk_insert                                    ? HIVE_PASS_BLOCKS_PER_SM
           : kernel == k->erase && one_thread_beyond_l2 ? HIVE_ERASE_BLOCKS_PER_SM
           : kernel == k->find && one_thread_beyond_l2  ? HIVE_FIND_BLOCKS_PER_SM(k->width)
                                                          : 1 << 30;
}

/* How many times its capped wave a batch kernel's grid holds. */
static int grid_waves(const hive_dict *d, hive_batch_kernel kernel)
{
    return kernel == d->kernels->find && d->lanes == 1 && beyond_l2(d) ? HIVE_FIND_WAVES(d->kernels->width) : 1;
}

extern "C" hive_status hive_dict_run(hive_dict *d, const hive_batch *b, hive_batch_outcome *out,
                                     hive_stream stream)
{
    const hive_geometry_kernels *k = d->kernels;
    hive_batch_kernel kernel = b->ops != NULL            ? k->mixed
                               : b->op == HIVE_OP_FIND  ? k->find
                               : b->op == HIVE_OP_ERASE ? k->erase
                                                        : k->upsert;
    int defers = kernel == k->mixed || kernel == k->upsert;
    uint64_t table_bytes = table_bytes_of(d);
    int bulk_insert = kernel == k->upsert && k->deferred != NULL && beyond_l2(d);
    int max_per_sm = blocks_per_sm_cap(d, kernel, bulk_insert);
    /* The full bits are the call's own, from the table's pool (after the
     * first call, no allocation) or its allocator: concurrent calls never
     * share them.  A batch too small to defer enough keys for them
     * (HIVE_HINT_TABLE_BYTES_PER_KEY) neither allocates them nor launches the
     * kernel that would clear them.  Without them (no memory) the deferred
     * kernels read every room. */
    void *hint = NULL;
    size_t hint_bytes = (d->buckets + 31) / 32 * sizeof(uint32_t);
    if (bulk_insert && k->full_hint != NULL && b->n * HIVE_HINT_TABLE_BYTES_PER_KEY >= table_bytes)
        hint = scratch_alloc(&d->allocator, d->pool, hint_bytes, (cudaStream_t)stream);
    batch_launch l = {kernel, defers ? k->deferred : NULL, defers ? k->deferred_deep : NULL, d, d->lanes,
                      max_per_sm, grid_waves(d, kernel), (cudaStream_t)stream, b, (uint32_t *)hint};
    uint64_t c[HIVE_CTR_COUNT];
    hive_status st = with_counters(d, (cudaStream_t)stream, "hive batch (CUDA)", launch_batch, &l, 0, c, NULL);
    if (hint != NULL)
        scratch_free(&d->allocator, hint, hint_bytes, (cudaStream_t)stream);
    HIVE_TRY(st);
    outcome_of(c, out);
    return HIVE_SUCCESS;
}

/* Adds an asynchronous batch's tallies to the table's unsettled counts
 * (hive_dict.unsettled), where hive_dict_settle takes them. */
__global__ void hive_add_unsettled_kernel(const uint64_t *tallies, uint64_t *unsettled)
{
    unsigned c = threadIdx.x;
    if (c < HIVE_CTR_COUNT && tallies[c] != 0)
        atomicAdd((unsigned long long *)(unsettled + c), (unsigned long long)tallies[c]);
}

/* Takes the unsettled counts, leaving zeros: an exchange, so that a batch
 * adding its own at the same moment is counted now or at the next take,
 * never lost. */
__global__ void hive_take_unsettled_kernel(uint64_t *unsettled, uint64_t *out)
{
    unsigned c = threadIdx.x;
    if (c < HIVE_CTR_COUNT)
        out[c] = atomicExch((unsigned long long *)(unsettled + c), 0ull);
}

extern "C" hive_status hive_dict_enqueue(hive_dict *d, const hive_batch *b, uint64_t *status, hive_stream stream,
                                        int *captured)
{
    static const char call[] = "hive asynchronous call (CUDA)";
    const hive_geometry_kernels *k = d->kernels;
    cudaStream_t s = (cudaStream_t)stream;
    cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
    HIVE_TRY(hive_cuda_status(cudaStreamIsCapturing(s, &capturing), call, "cudaStreamIsCapturing"));
    *captured = capturing != cudaStreamCaptureStatusNone;
    HIVE_TRY(hive_cuda_status(cudaMemsetAsync(status, 0, HIVE_ASYNC_STATUS_WORDS * sizeof(uint64_t), s), call,
                              "cudaMemsetAsync(status)"));
    if (b->n == 0)
        return HIVE_SUCCESS;
    hive_batch_kernel kernel = b->ops != NULL            ? k->mixed
                               : b->op == HIVE_OP_FIND  ? k->find
                               : b->op == HIVE_OP_ERASE ? k->erase
                                                        : k->upsert;
    int defers = kernel == k->mixed || kernel == k->upsert;
    int bulk_insert = kernel == k->upsert && k->deferred != NULL && beyond_l2(d);
    /* No full bits (they would need memory of the call's own, and a batch
     * small enough to be asynchronous seldom defers enough keys for them). */
    batch_launch l = {kernel, defers ? k->deferred : NULL, defers ? k->deferred_deep : NULL, d, d->lanes,
                      blocks_per_sm_cap(d, kernel, bulk_insert), grid_waves(d, kernel), s, b, NULL};
    HIVE_TRY(launch_batch(&l, status));
    if (kernel != k->find) {
        hive_add_unsettled_kernel<<<1, 32, 0, s>>>(status, d->unsettled);
        HIVE_TRY(launched(call));
    }
    return *captured ? HIVE_SUCCESS : hive_dict_async_track(d, s, call);
}

static hive_status launch_take(void *ctx, uint64_t *counters)
{
    hive_take_unsettled_kernel<<<1, 32, 0, ((const hive_dict *)ctx)->stream>>>(((hive_dict *)ctx)->unsettled,
                                                                              counters);
    return launched("hive settle (CUDA)");
}

extern "C" hive_status hive_dict_settle(hive_dict *d, hive_batch_outcome *out)
{
    hive_dict_async_wait(d);
    uint64_t c[HIVE_CTR_COUNT];
    HIVE_TRY(with_counters(d, d->stream, "hive settle (CUDA)", launch_take, d, 0, c, NULL));
    outcome_of(c, out);
    return HIVE_SUCCESS;
}

extern "C" hive_status hive_dict_retry_full(hive_dict *d, const hive_batch *b, hive_batch_outcome *out,
                                            hive_stream stream)
{
    batch_launch l = {d->kernels->retry, NULL, NULL, d, 1, 1 << 30, 1, (cudaStream_t)stream, b, NULL};
    uint64_t c[HIVE_CTR_COUNT];
    HIVE_TRY(with_counters(d, (cudaStream_t)stream, "hive batch retry (CUDA)", launch_batch, &l, 0, c, NULL));
    outcome_of(c, out);
    return HIVE_SUCCESS;
}

/* ---------------------------------------------------------------- counting inserts */

static __device__ __forceinline__ uint32_t inserts_in_byte(uint8_t op)
{
    return op == HIVE_OP_INSERT || op == HIVE_OP_UPSERT;
}

/* Insert-type op codes among the four bytes of w: __vcmpeq4 sets a byte to
 * 0xFF where it matches. */
static __device__ __forceinline__ uint32_t inserts_in_word(uint32_t w)
{
    return __popc(__vcmpeq4(w, 0x01010101u * HIVE_OP_INSERT) | __vcmpeq4(w, 0x01010101u * HIVE_OP_UPSERT)) / 8;
}

/* Counts the insert-type elements of a mixed batch, 16 bytes of op codes a
 * load (the bytes before the first 16-byte boundary and after the last one a
 * byte a load): a byte a thread kept too few bytes in flight (docs/perf.md). */
__global__ void __launch_bounds__(256) hive_count_inserts_kernel(const uint8_t *ops, uint64_t n,
                                                                 uint64_t *counters)
{
    hive_tally t = {};
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    uint64_t first = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint64_t head = (16u - ((uintptr_t)ops & 15u)) & 15u;
    if (head > n)
        head = n;
    uint64_t vectors = (n - head) / 16;
    const uint4 *body = (const uint4 *)(ops + head);
    uint32_t count = 0;
    for (uint64_t i = first; i < vectors; i += stride) {
        uint4 w = body[i];
        count += inserts_in_word(w.x) + inserts_in_word(w.y) + inserts_in_word(w.z) + inserts_in_word(w.w);
    }
    uint64_t tail = head + vectors * 16;
    for (uint64_t i = first; i < head + (n - tail); i += stride)
        count += inserts_in_byte(ops[i < head ? i : tail + (i - head)]);
    t.c[HIVE_CTR_INSERTED] = count;
    hive_tally_flush(&t, counters);
}

typedef struct count_launch {
    unsigned grid;
    cudaStream_t stream;
    const hive_batch *batch;
} count_launch;

static hive_status launch_count(void *ctx, uint64_t *counters)
{
    const count_launch *l = (const count_launch *)ctx;
    hive_count_inserts_kernel<<<l->grid, HIVE_THREADS, 0, l->stream>>>(l->batch->ops, l->batch->n,
                                                                       counters);
    return launched("hive_apply (CUDA)");
}

extern "C" hive_status hive_dict_count_inserts(hive_dict *d, const hive_batch *b, uint64_t *count,
                                               hive_stream stream)
{
    unsigned grid = grid_for(d, (const void *)hive_count_inserts_kernel, (b->n + 15) / 16, 1);
    count_launch l = {grid, (cudaStream_t)stream, b};
    uint64_t c[HIVE_CTR_COUNT];
    HIVE_TRY(with_counters(d, (cudaStream_t)stream, "hive_apply (CUDA)", launch_count, &l, 0, c, NULL));
    *count = c[HIVE_CTR_INSERTED];
    return HIVE_SUCCESS;
}

/* ---------------------------------------------------------------- counting new keys */

typedef struct count_new_launch {
    const hive_dict *d;
    cudaStream_t stream;
    const hive_batch *batch;
} count_new_launch;

static hive_status launch_count_new(void *ctx, uint64_t *counters)
{
    const count_new_launch *l = (const count_new_launch *)ctx;
    const hive_dict *d = l->d;
    unsigned grid = grid_for(d, (const void *)d->kernels->count_new, l->batch->n, 1);
    d->kernels->count_new<<<grid, HIVE_THREADS, 0, l->stream>>>(d->view, d->bucket_slots, *l->batch, counters);
    return launched("hive batch growth (CUDA)");
}

extern "C" hive_status hive_dict_count_new(hive_dict *d, const hive_batch *b, uint64_t *count,
                                           hive_stream stream)
{
    count_new_launch l = {d, (cudaStream_t)stream, b};
    uint64_t c[HIVE_CTR_COUNT];
    HIVE_TRY(with_counters(d, (cudaStream_t)stream, "hive batch growth (CUDA)", launch_count_new, &l, 0, c, NULL));
    *count = c[HIVE_CTR_INSERTED] > c[HIVE_CTR_ERASED] ? c[HIVE_CTR_INSERTED] - c[HIVE_CTR_ERASED] : 0;
    return HIVE_SUCCESS;
}

/* ---------------------------------------------------------------- loading */

/* Loads the table's kernels now.  CUDA loads a kernel at its first use
 * (lazy loading, the default since CUDA 12.2), which made a process's first
 * batch several times slower; a table's creation is where a caller expects
 * to wait.  A kernel without code for this GPU fails here, with its message,
 * instead of at a first launch. */
extern "C" hive_status hive_dict_load_kernels(const hive_dict *d, const char *call)
{
    const hive_geometry_kernels *k = d->kernels;
    const void *kernels[] = {(const void *)k->find,      (const void *)k->upsert,
                             (const void *)k->erase,     (const void *)k->mixed,
                             (const void *)k->deferred,  (const void *)k->deferred_deep,
                             (const void *)k->full_hint, (const void *)k->retry,
                             (const void *)k->resize,    (const void *)k->export_pairs,
                             (const void *)hive_count_inserts_kernel, (const void *)k->count_new};
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        cudaFuncAttributes attributes;
        if (kernels[i] != NULL)
            HIVE_TRY(hive_cuda_status(cudaFuncGetAttributes(&attributes, kernels[i]), call,
                                      "loading the table's kernels (cudaFuncGetAttributes)"));
    }
    return HIVE_SUCCESS;
}

/* ---------------------------------------------------------------- resize */

typedef struct resize_launch {
    const hive_dict *d;
    hive_resize_op op;
    const hive_view *to;
    hive_index ix;
    uint64_t begin, end, batch;
    cudaStream_t stream;
    uint64_t queued; /* the launches made cover [begin, queued) */
} resize_launch;

/* One launch per batch of K = config.resize_batch buckets (or stash slots),
 * queued together: the stream waits once, when the counters come back.
 * Each launch is a resize step (alloc.h, HIVE_TEST_FAIL_RESIZE_STEP). */
static hive_status launch_resize(void *ctx, uint64_t *counters)
{
    resize_launch *l = (resize_launch *)ctx;
    for (uint64_t at = l->begin; at < l->end; at += l->batch) {
        uint64_t end = l->end - at < l->batch ? l->end : at + l->batch;
        if (hive_resize_step_should_fail())
            return hive_fail(HIVE_ERROR_CUDA, "hive resize (CUDA)",
                             "launching resize op %d over [%llu, %llu): injected failure "
                             "(HIVE_TEST_FAIL_RESIZE_STEP)",
                             (int)l->op, (unsigned long long)at, (unsigned long long)end);
        hive_resize_kernel k = l->d->kernels->resize;
        k<<<grid_for(l->d, (const void *)k, end - at, 1), HIVE_THREADS, 0, l->stream>>>(
            (int)l->op, l->d->view, l->to != NULL ? *l->to : l->d->view, l->ix, at, end, counters);
        HIVE_TRY(launched("hive resize (CUDA)"));
        l->queued = end;
    }
    return HIVE_SUCCESS;
}

extern "C" hive_status hive_dict_resize_op(hive_dict *d, hive_resize_op op, const hive_view *to,
                                           hive_index ix, uint64_t begin, uint64_t end,
                                           hive_resize_outcome *out, hive_stream stream)
{
    out->finished = 1;
    out->done = begin;
    out->count = 0;
    if (begin >= end)
        return HIVE_SUCCESS;
    resize_launch l = {d, op, to, ix, begin, end, d->resize_batch, (cudaStream_t)stream, begin};
    uint64_t c[HIVE_CTR_COUNT];
    hive_status st = with_counters(d, (cudaStream_t)stream, "hive resize (CUDA)", launch_resize, &l, 1, c,
                                   &out->finished);
    out->done = l.queued;
    if (st == HIVE_SUCCESS)
        out->count = c[HIVE_CTR_INSERTED];
    return st;
}

/* ---------------------------------------------------------------- export */

typedef struct export_launch {
    unsigned grid;
    cudaStream_t stream;
    const hive_dict *d;
    void *keys, *values;
    uint64_t capacity;
} export_launch;

static hive_status launch_export(void *ctx, uint64_t *counters)
{
    const export_launch *l = (const export_launch *)ctx;
    const hive_dict *d = l->d;
    hive_export_kernel k = d->kernels->export_pairs;
    k<<<l->grid, HIVE_THREADS, 0, l->stream>>>(d->view.slots, d->buckets * d->bucket_slots, l->keys,
                                              l->values, l->capacity, counters);
    if (d->view.stash_buckets == 0)
        return launched("hive_export (CUDA)");
    HIVE_TRY(launched("hive_export (CUDA)"));
    k<<<l->grid, HIVE_THREADS, 0, l->stream>>>(d->view.stash, d->view.stash_buckets * d->bucket_slots,
                                              l->keys, l->values, l->capacity, counters);
    return launched("hive_export (CUDA)");
}

extern "C" hive_status hive_dict_export(hive_dict *d, uint64_t capacity, void *keys, void *values,
                                        uint64_t *count, hive_stream stream)
{
    unsigned grid = grid_for(d, (const void *)d->kernels->export_pairs, d->buckets * d->bucket_slots, 1);
    export_launch l = {grid, (cudaStream_t)stream, d, keys, values, capacity};
    uint64_t c[HIVE_CTR_COUNT];
    HIVE_TRY(with_counters(d, (cudaStream_t)stream, "hive_export (CUDA)", launch_export, &l, 0, c, NULL));
    *count = c[HIVE_CTR_INSERTED];
    if (*count > capacity)
        return hive_fail(HIVE_ERROR_INTERNAL, "hive_export (CUDA)",
                         "found %llu live pairs, more than the size %llu",
                         (unsigned long long)*count, (unsigned long long)capacity);
    return HIVE_SUCCESS;
}
