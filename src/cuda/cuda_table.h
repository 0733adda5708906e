/* cuda_table.h — the CUDA backend's state for one table: device arrays laid
 * out as the slot protocol expects (core/view.h), the launch geometry, and
 * the small buffers a batch reads its outcome back through. */
#ifndef HIVE_DICT_TABLE_H
#define HIVE_DICT_TABLE_H

#include <cuda_runtime.h>
#include <pthread.h>
#include <stdint.h>

#include "backend.h"
#include "core/batch.h"
#include "designs/designs.h"
#include "cuda_vm.h"

/* Blocks of HIVE_CTR_COUNT counters (core/batch.h), summed on the device and
 * read back after each batch: one per call in flight. */
#define HIVE_COUNTER_BLOCKS 64
static_assert(HIVE_COUNTER_BLOCKS <= 64, "hive_dict.counter_busy has a bit per block");
/* The device counters' bytes: those blocks and the unsettled counts after them. */
#define HIVE_COUNTER_BYTES ((HIVE_COUNTER_BLOCKS + 1) * HIVE_CTR_COUNT * sizeof(uint64_t))

/* Events that mark asynchronous lookups in flight (cuda_async.cu). */
#define HIVE_ASYNC_EVENTS 32

/* Kernels of one geometry and key width (cuda_kernels32.cu, cuda_kernels64.cu). */
typedef void (*hive_batch_kernel)(hive_view, hive_batch, uint64_t *);
typedef void (*hive_resize_kernel)(int, hive_view, hive_view, hive_index, uint64_t, uint64_t, uint64_t *);
typedef void (*hive_export_kernel)(const uint64_t *, uint64_t, void *, void *, uint64_t, uint64_t *);
typedef void (*hive_count_kernel)(hive_view, uint32_t, hive_batch, uint64_t *);

typedef struct hive_geometry_kernels {
    uint32_t width; /* key bits: 32 or 64 */
    uint32_t S, T;  /* slots per bucket, lanes per key */
    hive_batch_kernel find, upsert, erase, mixed;
    hive_batch_kernel deferred; /* the locked part of inserts the upsert and mixed kernels defer, or NULL */
    hive_batch_kernel deferred_deep; /* its deeper searches, for the keys `deferred` leaves (NULL with it) */
    hive_batch_kernel full_hint; /* takes the full bits for those two, or NULL (KV64, tiles) */
    hive_batch_kernel retry;   /* these two: one thread per key or bucket, as threads */
    hive_resize_kernel resize; /* and tiles share the layout and the protocol */
    hive_export_kernel export_pairs;
    hive_count_kernel count_new; /* one thread per key whatever the geometry: a find each */
} hive_geometry_kernels;

typedef struct hive_dict {
    int device;
    uint32_t slot_words;   /* 64-bit words per slot: 1 (KV32) or 2 (KV64) */
    const hive_geometry_kernels *kernels;
    uint32_t bucket_slots; /* S */
    uint32_t lanes;        /* lanes per key */
    uint32_t resize_batch; /* buckets per resize kernel launch (config.resize_batch) */
    int sm_count;
    uint64_t l2_bytes;     /* the device's L2 (cuda_batch.cu: tables beyond twice it) */
    hive_allocator allocator; /* config.allocator: every device allocation's, where alloc is set
                                 (cuda_alloc.h, cuda_vm.h) */
    cudaMemPool_t pool;      /* per-call scratch (results of callers that pass none); none with an allocator */
    cudaStream_t stream;     /* the table's own, non-blocking: for work of calls that take no stream */
    hive_view view;        /* device pointers, passed by value to kernels */
    hive_view next_stash;  /* stash fields only: from stash_open to stash_close (cuda_table.cu) */
    hive_vm slot_vm;       /* view.slots and view.locks live in these arrays (their bases: with an
                              allocator they move as the table grows, cuda_vm.h) */
    hive_vm lock_vm;
    hive_vm tag_vm;        /* view.tags: a tagged design's, else never reserved */
    uint64_t buckets;
    /* HIVE_COUNTER_BLOCKS blocks of HIVE_CTR_COUNT counters, one per call in
     * flight (calls may come from several host threads at once). */
    uint64_t *counters;      /* device; one block more, at `unsettled` */
    /* Counts (HIVE_CTR_*) that work the host does not wait for adds:
     * asynchronous inserts and erases, and user kernels through a device
     * view; hive_dict_settle takes them for api's size. */
    uint64_t *unsettled;
    uint64_t *host_counters; /* pinned host */
    uint64_t counter_busy;   /* bit i: block i in use (host atomics) */
    /* Asynchronous lookups (cuda_async.cu): an event recorded after each, so
     * that what changes the layout waits for them. */
    pthread_mutex_t async_lock;
    cudaEvent_t async_done[HIVE_ASYNC_EVENTS]; /* created at the first asynchronous call */
    uint32_t async_next;                       /* the event the next call records */
    int async_pending;                         /* events recorded since the last wait */
} hive_dict;

#ifdef __cplusplus
extern "C" {
#endif

/* The kernels for a width, geometry and design (HIVE_DESIGN_ID_*), or NULL
 * if this build has none. */
const hive_geometry_kernels *hive_cuda_kernels(uint32_t width, uint32_t S, uint32_t T, uint32_t design);

/* cuda_batch.cu */
/* Loads every kernel the table may launch (CUDA loads them lazily). */
hive_status hive_dict_load_kernels(const hive_dict *d, const char *call);
/* A batch's kernels (the request with the batch's marks, core/marks.h). */
hive_status hive_dict_run(hive_dict *d, const hive_batch *b, hive_batch_outcome *out,
                          hive_stream stream);
hive_status hive_dict_count_inserts(hive_dict *d, const hive_batch *b, uint64_t *count,
                                    hive_stream stream);
hive_status hive_dict_count_new(hive_dict *d, const hive_batch *b, uint64_t *count,
                                hive_stream stream);
hive_status hive_dict_retry_full(hive_dict *d, const hive_batch *b, hive_batch_outcome *out,
                                 hive_stream stream);
/* Runs resize op `op` (core/resize_plan.h) over [begin, end) of d's view,
 * with index ix and second view `to`, in launches of d->resize_batch, and
 * waits for them whatever fails; *out says what ran. */
hive_status hive_dict_resize_op(hive_dict *d, hive_resize_op op, const hive_view *to, hive_index ix,
                                uint64_t begin, uint64_t end, hive_resize_outcome *out, hive_stream stream);
/* Writes all live pairs to keys/values; *count receives their number. */
hive_status hive_dict_export(hive_dict *d, uint64_t capacity, void *keys, void *values,
                             uint64_t *count, hive_stream stream);

/* Enqueues batch b on `stream` with its tallies summed into
 * status[HIVE_ASYNC_STATUS_WORDS] (zeroed first), and returns without waiting;
 * a batch that may insert has results and no marks (backend.h: enqueue). */
hive_status hive_dict_enqueue(hive_dict *d, const hive_batch *b, uint64_t *status, hive_stream stream,
                              int *captured);
/* Waits for the asynchronous work noted so far and takes the unsettled
 * counts (backend.h: settle). */
hive_status hive_dict_settle(hive_dict *d, hive_batch_outcome *out);

/* cuda_async.cu */
/* Notes that asynchronous work was just enqueued on `s` (nothing where s is
 * capturing a graph). */
hive_status hive_dict_async_enqueued(hive_dict *d, cudaStream_t s, const char *call);
/* The same for a caller that knows `s` is not capturing: records the event
 * after the work without asking the stream again. */
hive_status hive_dict_async_track(hive_dict *d, cudaStream_t s, const char *call);
/* Waits for the asynchronous work noted so far: before anything changes the
 * table's layout or frees it. */
void hive_dict_async_wait(hive_dict *d);
/* Waits, then frees the events (the table's destruction). */
void hive_dict_async_free(hive_dict *d);
/* backend.h: device_view and device_view_done (impl is a hive_dict). */
hive_status hive_dict_device_view(void *impl, void *view);
hive_status hive_dict_device_view_done(void *impl, hive_stream stream);

/* cuda_pointer.cu */
/* HIVE_SUCCESS when a table on `device` (the current device) can read and
 * write p; else INVALID_ARGUMENT naming call and what (backend.h). */
hive_status hive_dict_check_pointer(int device, const void *p, const char *call, const char *what);
/* Who reaches p at that address (cache/cache_backend.h's hive_cache_reach):
 * the host and the current device (mapped page-locked host memory, managed
 * memory), the host only (pageable, or page-locked and unmapped), or a device
 * only.  Sets no error. */
int hive_dict_reach(const void *p);

#ifdef __cplusplus
}
#endif

#endif
