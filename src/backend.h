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

/* What a batch did, summed over its keys (host memory). */
typedef struct hive_batch_outcome {
    uint64_t inserted; /* new keys stored */
    uint64_t erased;   /* keys removed */
    uint64_t reserved; /* keys rejected as reserved sentinels */
    uint64_t full;     /* inserts rejected for lack of room */
    uint64_t bad_ops;  /* elements of a mixed batch with an op code outside hive_op */
    int stash_crowded; /* the stash is over half full after the batch (api then compacts) */
    int grow_failed;    /* api: the growth for keys rejected for room ran out of memory */
    int stash_oversized; /* a stash enlarged for crowded keys is twice what its pairs need now
                          * (core/resize_plan.h, hive_stash_wanted; api then compacts) */
} hive_batch_outcome;

typedef struct hive_backend_ops {
    const char *name;
    /* *config is resolved and checked (api/config.c): the backend keeps what
     * it needs and may only reject it.  Sets *impl.  May return NO_DEVICE,
     * OUT_OF_MEMORY, CUDA, UNSUPPORTED. */
    hive_status (*create)(const hive_config *config, void **impl);
    void (*destroy)(void *impl);
    /* Takes what the batch `r` needs beyond the caller's arrays (*scratch,
     * perhaps NULL), before anything of it runs: OUT_OF_MEMORY without it.
     * end gives it back (ordered on `stream`). */
    hive_status (*begin)(void *impl, const hive_request *r, hive_batch_scratch **scratch,
                         hive_stream stream);
    void (*end)(void *impl, hive_batch_scratch *scratch, hive_stream stream);
    /* Runs one batch to completion and fills *outcome. */
    hive_status (*run)(void *impl, const hive_request *r, hive_batch_scratch *scratch,
                       hive_batch_outcome *outcome, hive_stream stream);
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
    /* Number of elements of r that may store a new key: insert-type elements
     * (all of a uniform UPSERT batch) whose key is not reserved and not in
     * the table now.  A key repeated in the batch counts each time. */
    hive_status (*count_new)(void *impl, const hive_request *r, uint64_t *count,
                             hive_stream stream);
    hive_status (*clear)(void *impl, hive_stream stream);
    /* Slots the main table has now. */
    uint64_t (*capacity)(const void *impl);
    /* Grows or shrinks to about `slots` slots by linear hashing, keeping
     * every pair: splits add buckets (in multiples of config.resize_batch)
     * until at least `slots` slots; merges remove buckets toward `slots`
     * and stop at the first that would not fit.  After growth the stash is
     * drained into the buckets (and enlarged with the table).  Never called
     * concurrently with other operations.  On OUT_OF_MEMORY the table is
     * unchanged. */
    hive_status (*resize)(void *impl, uint64_t slots, hive_stream stream);
    /* Turns the TOMBs of every bucket back into free slots and drains the
     * stash into the buckets where they now have room.  Never called
     * concurrently with other operations. */
    hive_status (*compact)(void *impl, hive_stream stream);
    /* Writes all live pairs (capacity >= size is checked by the caller). */
    hive_status (*export_pairs)(void *impl, uint64_t capacity, void *keys, void *values,
                                uint64_t *count, hive_stream stream);
    /* Fills every field but size and load_factor. */
    hive_status (*stats)(void *impl, hive_stats *stats);
    /* HIVE_SUCCESS when the backend's kernels can read/write `p` (NULL allowed
     * by the caller's own check); else INVALID_ARGUMENT with a message naming
     * `call` and `what`. */
    hive_status (*check_pointer)(const void *impl, const void *p, const char *call,
                                 const char *what);
} hive_backend_ops;

extern const hive_backend_ops hive_cpu_backend;
#ifdef HIVE_WITH_CUDA
extern const hive_backend_ops hive_cuda_backend;
/* 1 if a CUDA device is usable (used by HIVE_BACKEND_AUTO). */
int hive_cuda_device_usable(int device);
#endif

#ifdef __cplusplus
}
#endif

#endif
