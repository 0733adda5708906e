/* cuda_table.h — the CUDA backend's state for one table: device arrays laid
 * out as the slot protocol expects (core/view.h), the launch geometry, and
 * the small buffers a batch reads its outcome back through. */
#ifndef HIVE_DICT_TABLE_H
#define HIVE_DICT_TABLE_H

#include <cuda_runtime.h>
#include <stdint.h>

#include "backend.h"
#include "designs/designs.h"
#include "cuda_vm.h"

/* Per-batch counters summed on the device, read back after each batch. */
enum {
    HIVE_CTR_INSERTED,
    HIVE_CTR_ERASED,
    HIVE_CTR_RESERVED,
    HIVE_CTR_FULL,
    HIVE_CTR_BAD_OPS,
    HIVE_CTR_STEP0, /* .. HIVE_CTR_STEP0 + 3: insert steps */
    HIVE_CTR_EVICTIONS = HIVE_CTR_STEP0 + 4,
    HIVE_CTR_DEFERRED, /* inserts whose locked part a batch kernel left to hive_deferred_* */
    HIVE_CTR_DEFERRED_DEEP, /* of those, the ones left to hive_deferred_deep_* */
    HIVE_CTR_COUNT
};

#define HIVE_COUNTER_BLOCKS 64

/* Kernels of one geometry and key width (cuda_kernels32.cu, cuda_kernels64.cu). */
typedef void (*hive_batch_kernel)(hive_view, hive_batch, uint64_t *);
typedef void (*hive_resize_kernel)(int, hive_view, hive_view, hive_index, uint64_t, uint64_t, uint64_t *);
typedef void (*hive_export_kernel)(const uint64_t *, uint64_t, void *, void *, uint64_t, uint64_t *);

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
    cudaMemPool_t pool;      /* per-call scratch (results of callers that pass none) */
    cudaStream_t stream;     /* the table's own, non-blocking: for work of calls that take no stream */
    hive_view view;        /* device pointers, passed by value to kernels */
    hive_vm slot_vm;       /* view.slots and view.locks live in these ranges */
    hive_vm lock_vm;
    uint64_t buckets;
    uint64_t bytes_held;
    int broken; /* a failed resize could not be recovered from (cuda_table.cu) */
    /* HIVE_COUNTER_BLOCKS blocks of HIVE_CTR_COUNT counters, one per call in
     * flight (calls may come from several host threads at once). */
    uint64_t *counters;      /* device */
    uint64_t *host_counters; /* pinned host */
    uint64_t counter_busy;   /* bit i: block i in use (host atomics) */
    /* lifetime totals, for hive_stats */
    uint64_t insert_steps[4];
    uint64_t evictions;
    uint64_t buckets_split, buckets_merged;
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
hive_status hive_dict_run(hive_table *t, const hive_batch *b, hive_batch_outcome *out,
                          hive_stream stream);
hive_status hive_dict_count_inserts(hive_table *t, const hive_batch *b, uint64_t *count,
                                    hive_stream stream);
hive_status hive_dict_count_new(hive_table *t, const hive_batch *b, uint64_t *count,
                                hive_stream stream);
hive_status hive_dict_retry_full(hive_table *t, const hive_batch *b, hive_batch_outcome *out,
                                 hive_stream stream);
/* What a resize op ran, also when it failed. */
typedef struct hive_resize_outcome {
    int finished;   /* the stream was waited for: nothing of the op still runs, and [begin, done) ran
                     * (0 only when the wait failed: the GPU's context is lost, as a rule) */
    uint64_t done;  /* the op's launches up to the first that failed covered [begin, done) */
    uint64_t count; /* what it counts over [begin, end) (designs/hive/resize_body.h); 0 unless it succeeded */
} hive_resize_outcome;

/* Runs resize op `op` (core/resize_plan.h) over [begin, end) of d's view,
 * with index ix and second view `to`, in launches of d->resize_batch, and
 * waits for them whatever fails; *out says what ran. */
hive_status hive_dict_resize_op(hive_dict *d, hive_resize_op op, const hive_view *to, hive_index ix,
                                uint64_t begin, uint64_t end, hive_resize_outcome *out, hive_stream stream);
/* Writes all live pairs to keys/values; *count receives their number. */
hive_status hive_dict_export(hive_dict *d, uint64_t capacity, void *keys, void *values,
                             uint64_t *count, hive_stream stream);

/* cuda_pointer.cu */
/* HIVE_SUCCESS when a table on `device` (the current device) can read and
 * write p; else INVALID_ARGUMENT naming call and what (backend.h). */
hive_status hive_dict_check_pointer(int device, const void *p, const char *call, const char *what);

#ifdef __cplusplus
}
#endif

#endif
