/* backend.h — the table of operations each backend (CUDA, CPU) provides, so
 * that api checks arguments once and stays blind to where the table lives.
 *
 * Data crosses it one way: api hands a backend the resolved config at create
 * (the backend keeps what it needs, and may only reject it) and a request
 * per call; the backend hands back statuses, counts and outcomes.  A backend
 * never sees api's handle: every operation gets the backend's own state
 * (`impl`, from create).
 *
 * Every bulk operation reaches a backend as one hive_request: a uniform op
 * (or a per-key op array) over n keys.  hive_insert is UPSERT with its
 * combine mode, HIVE_OP_INSERT is UPSERT with KEEP, contains is FIND without
 * values. */
#ifndef HIVE_BACKEND_H
#define HIVE_BACKEND_H

#include <stdint.h>

#include "core/launch.h"
#include "core/resize_plan.h"
#include "hive.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One call's keys and arrays, as the caller passed them (table memory).
 * Internal op codes: hive_op's FIND and ERASE, with INSERT folded into
 * UPSERT. */
typedef struct hive_request {
    uint64_t n;
    hive_op op;            /* uniform op when ops == NULL: FIND, UPSERT or ERASE */
    const uint8_t *ops;    /* (n) hive_op, or NULL */
    hive_combine combine;  /* for UPSERT (HIVE_OP_INSERT elements use KEEP) */
    const void *keys;      /* (n) */
    const void *values_in; /* (n): UPSERT values; NULL when no element inserts */
    void *values_out;      /* (n): FIND output, or NULL (may alias values_in) */
    uint8_t *found;        /* (n) 1/0 for FIND, or NULL */
    uint8_t *results;      /* (n) hive_result, or NULL */
    uint64_t size;         /* keys in the table before the call, as api counts them */
} hive_request;

/* Whether a request may store new keys: a uniform UPSERT, or a mixed batch
 * with values (one without values is checked to insert nothing). */
static inline int hive_request_may_insert(const hive_request *r)
{
    return r->values_in != NULL && (r->ops != NULL || r->op == HIVE_OP_UPSERT);
}

/* The request as the per-key loops take it, with the backend's marks
 * (core/marks.h), or NULL. */
static inline hive_batch hive_batch_of(const hive_request *r, uint32_t *marks)
{
    hive_batch b = {r->n,         r->op,       r->ops,   r->combine, r->keys,
                    r->values_in, r->values_out, r->found, r->results, marks};
    return b;
}

/* A batch's scratch from begin to end: the backend's own business (both
 * backends: the marks of core/marks.h, for a batch that may insert and has
 * no result bytes; api only hands it back). */
typedef struct hive_batch_scratch hive_batch_scratch;

/* What a batch did, summed over its keys (host memory).  api folds it into
 * the table's size and counters, and decides from it what follows (growth
 * for keys rejected for room, relief of a crowded stash, shrinking). */
typedef struct hive_batch_outcome {
    uint64_t inserted;  /* new keys stored */
    uint64_t erased;    /* keys removed */
    uint64_t reserved;  /* keys rejected as reserved sentinels */
    uint64_t full;      /* inserts rejected for lack of room */
    uint64_t bad_ops;   /* elements of a mixed batch with an op code outside hive_op */
    uint64_t steps[4];  /* inserts finished at each step, as hive_stats.insert_steps */
    uint64_t evictions; /* keys moved by cuckoo eviction */
} hive_batch_outcome;

/* steps[] of the inserts placed in the overflow stash. */
#define HIVE_OUTCOME_STASHED 3

/* What a table is now, known on the host without reading the table. */
typedef struct hive_shape {
    hive_index ix;          /* which bucket a hash names (core/index.h) */
    uint64_t buckets;       /* hive_index_buckets(ix) */
    uint64_t stash_buckets; /* 0: no stash */
    uint64_t bytes_held;    /* memory the table holds, of every kind (hive_stats.bytes_held) */
} hive_shape;

/* What one resize step ran, also when it failed. */
typedef struct hive_resize_outcome {
    int finished;   /* nothing of the step still runs, and [begin, done) ran (0 only when waiting
                     * for it failed: on the GPU, its context is lost, as a rule) */
    uint64_t done;  /* the step's work up to the first part that failed covered [begin, done) */
    uint64_t count; /* what the op counts over [begin, end) (designs/hive/resize_body.h); 0
                     * unless the step succeeded */
} hive_resize_outcome;

typedef struct hive_backend_ops {
    const char *name;
    /* *config is resolved and checked (api/config.c): the backend keeps what
     * it needs and may only reject it.  Sets *impl.  May return NO_DEVICE,
     * OUT_OF_MEMORY, CUDA, UNSUPPORTED. */
    hive_status (*create)(const hive_config *config, void **impl);
    void (*destroy)(void *impl);
    /* Takes what the batch `r` needs beyond the caller's arrays (*scratch,
     * perhaps NULL), before anything of it runs: OUT_OF_MEMORY without it.
     * end gives it back (ordered on `stream`), given the same `r` (its n:
     * an allocator's free takes the size, hive_config.allocator). */
    hive_status (*begin)(void *impl, const hive_request *r, hive_batch_scratch **scratch,
                         hive_stream stream);
    void (*end)(void *impl, const hive_request *r, hive_batch_scratch *scratch, hive_stream stream);
    /* Runs one batch to completion and fills *outcome. */
    hive_status (*run)(void *impl, const hive_request *r, hive_batch_scratch *scratch,
                       hive_batch_outcome *outcome, hive_stream stream);
    /* Enqueues request r on `stream` and returns without waiting, allocating
     * or reading back (a CUDA Graph may capture it): its tallies (core/batch.h:
     * HIVE_CTR_*) go to status[HIVE_ASYNC_STATUS_WORDS], in the table's memory,
     * zeroed first.  A request that may insert has r->results (which hold
     * the keys the locked part of an insert must finish) and never grows the
     * table: keys without room are rejected for it.  What such a request
     * inserts and erases is also added to the table's unsettled counts, which
     * `settle` hands to api.  The backend's resizes, clear and destroy wait
     * for the work.  *captured: 1 where `stream` was capturing a CUDA Graph
     * (the work then runs at each of the graph's launches, which nothing
     * here sees), else 0.  NULL where the backend has no asynchronous work
     * (the CPU: api runs the request before returning). */
    hive_status (*enqueue)(void *impl, const hive_request *r, uint64_t *status, hive_stream stream,
                           int *captured);
    /* Waits for the asynchronous work noted so far (enqueue, device views)
     * and takes the counts it added (inserted, erased: the other fields 0),
     * leaving them zero.  NULL with enqueue. */
    hive_status (*settle)(void *impl, hive_batch_outcome *out);
    /* The table's memory and geometry as device code sees it
     * (include/hive/device.cuh), its counts going where `settle` takes
     * them; and the end of such use on `stream`: work enqueued there
     * so far is waited for as enqueue's is.  NULL with enqueue. */
    hive_status (*device_view)(void *impl, void *view);
    hive_status (*device_view_done)(void *impl, hive_stream stream);
    /* Runs again the elements of r rejected for room (results[i]
     * HIVE_RESULT_REJECTED_FULL, or as the scratch recorded), after api made
     * room; *outcome counts only those elements, which stay recorded only if
     * they are rejected again. */
    hive_status (*retry_full)(void *impl, const hive_request *r, hive_batch_scratch *scratch,
                              hive_batch_outcome *outcome, hive_stream stream);
    /* Number of elements of a mixed batch (r->ops != NULL) that may insert
     * (HIVE_OP_INSERT or HIVE_OP_UPSERT): how much room the batch can need. */
    hive_status (*count_inserts)(void *impl, const hive_request *r, uint64_t *count,
                                 hive_stream stream);
    /* How many keys r may add, net: its insert-type elements (all of a
     * uniform UPSERT batch) whose key is not reserved and not in the table
     * now, less its erase elements whose key is in the table now (0 if
     * those are more).  A key repeated in the batch counts each time. */
    hive_status (*count_new)(void *impl, const hive_request *r, uint64_t *count,
                             hive_stream stream);
    hive_status (*clear)(void *impl, hive_stream stream);
    /* Writes all live pairs (capacity >= size is checked by the caller). */
    hive_status (*export_pairs)(void *impl, uint64_t capacity, void *keys, void *values,
                                uint64_t *count, hive_stream stream);
    /* HIVE_SUCCESS when the backend's kernels can read/write `p` (NULL allowed
     * by the caller's own check); else INVALID_ARGUMENT with a message naming
     * `call` and `what`. */
    hive_status (*check_pointer)(const void *impl, const void *p, const char *call,
                                 const char *what);

    /* What the table is now: api's statistics and resize.c's plan. */
    void (*shape)(const void *impl, hive_shape *shape);
    /* Live pairs in the stash now (on the GPU a read of the device's
     * counter on the table's own stream, waited for: call it once the
     * table's work is done). */
    hive_status (*stash_live)(void *impl, uint64_t *live);

    /* Resizing's per-step work, which src/resize.c drives (linear hashing,
     * core/resize_plan.h).  Never concurrent with any other operation (R8).
     *
     * Maps memory for `buckets` buckets, more than the index names (their
     * lock bits clear).  OUT_OF_MEMORY beyond what the backend can hold;
     * then the table is as it was, perhaps with more memory mapped. */
    hive_status (*map)(void *impl, uint64_t buckets, hive_stream stream);
    /* Gives back memory beyond the buckets the index names. */
    void (*unmap)(void *impl);
    /* Runs `op` over [begin, end) (buckets, or stash slots for MARK_STASH,
     * DRAIN and RESTASH), in parts of config.resize_batch, with index `ix`:
     * the step's index for SPLIT, MERGE and UNMERGE; for REHOME the merged
     * index, under which the pairs are placed; the table's own otherwise.
     * RESTASH copies into the stash of stash_open.  Waits for what it ran
     * whatever fails; *out says what that was. */
    hive_status (*step)(void *impl, hive_resize_op op, hive_index ix, uint64_t begin, uint64_t end,
                        hive_resize_outcome *out, hive_stream stream);
    /* The index the table's operations use from now on. */
    void (*set_index)(void *impl, hive_index ix);
    /* An empty stash of `stash_buckets` buckets beside the table's, for
     * RESTASH; stash_close makes it the table's (`keep`: the old one goes,
     * RESTASH having copied its pairs) or drops it. */
    hive_status (*stash_open)(void *impl, uint64_t stash_buckets, hive_stream stream);
    void (*stash_close)(void *impl, int keep);
    /* After a failed step: clears every bucket's lock bit (tidying marks
     * buckets there, designs/hive/resize_body.h) and waits for the stream. */
    hive_status (*clear_locks)(void *impl, hive_stream stream);
    /* Optional (NULL: nothing to do): after a resize, a compaction or a
     * reclaim of tombstones that succeeded, with the table still to itself,
     * what the backend keeps about the keys present is made anew from them
     * (the CPU's absent-key filter, cpu/cpu_filter.h, F2). */
    void (*tidied)(void *impl);
} hive_backend_ops;

extern const hive_backend_ops hive_cpu_backend;

/* The backend a table asking for `requested` on `device` gets: AUTO becomes
 * CUDA where the GPU runs the table's kernels (in a build with CUDA; KV64
 * dictionary slots need more of it: kv64_slots 1), else the CPU; the others
 * stay (api/config.c; the dictionary and the cache table both). */
hive_backend hive_backend_resolve(hive_backend requested, int device, int kv64_slots);

/* A seed for a table or cache whose config asks for a random one (never
 * HIVE_HASH_SEED_RANDOM itself; api/config.c). */
uint64_t hive_hash_seed_draw(void);

/* INVALID_ARGUMENT unless a config's allocator has both functions or
 * neither (api/config.c; the dictionary and the cache table both). */
hive_status hive_check_allocator(const hive_allocator *a, const char *call);

#ifdef HIVE_WITH_CUDA
extern const hive_backend_ops hive_cuda_backend;
/* 1 if a CUDA device runs the kernels (used by HIVE_BACKEND_AUTO). */
int hive_cuda_device_usable(int device, int kv64_slots);
#endif

#ifdef __cplusplus
}
#endif

#endif
