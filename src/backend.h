/* backend.h — the table of operations each backend (CUDA, CPU) provides, so
 * that api.c checks arguments once and stays blind to where the table lives.
 *
 * Every bulk operation reaches a backend as one hive_batch: a uniform op (or a
 * per-key op array) over n keys.  hive_insert is UPSERT with its combine mode,
 * HIVE_OP_INSERT is UPSERT with KEEP, contains is FIND without values. */
#ifndef HIVE_BACKEND_H
#define HIVE_BACKEND_H

#include <stdint.h>

#include "hive.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Internal op codes: hive_op's FIND and ERASE, with INSERT folded into UPSERT. */
typedef struct hive_batch {
    uint64_t n;
    hive_op op;           /* uniform op when ops == NULL: FIND, UPSERT or ERASE */
    const uint8_t *ops;   /* table memory, (n) hive_op, or NULL */
    hive_combine combine; /* for UPSERT (HIVE_OP_INSERT elements use KEEP) */
    const void *keys;     /* table memory, (n) */
    const void *values_in; /* table memory, (n): UPSERT values; NULL when no op needs them */
    void *values_out;      /* table memory, (n): FIND output, or NULL (may alias values_in) */
    uint8_t *found;        /* table memory, (n) 1/0 for FIND, or NULL */
    uint8_t *results;      /* table memory, (n) hive_result, or NULL */
    uint32_t *marks;       /* table memory, 2 * HIVE_MARK_WORDS(n) words, zeroed, for a batch that
                            * may insert and has no results (core/marks.h); else NULL */
} hive_batch;

/* What a batch did, summed over its keys (host memory). */
typedef struct hive_batch_outcome {
    uint64_t inserted; /* new keys stored */
    uint64_t erased;   /* keys removed */
    uint64_t reserved; /* keys rejected as reserved sentinels */
    uint64_t full;     /* inserts rejected for lack of room */
    uint64_t bad_ops;  /* elements of a mixed batch with an op code outside hive_op */
    int stash_crowded; /* the stash is over half full after the batch (api.c then compacts) */
    int grow_failed;    /* api.c: the growth for keys rejected for room ran out of memory */
    int stash_oversized; /* a stash enlarged for crowded keys is twice what its pairs need now
                          * (core/resize_plan.h, hive_stash_wanted; api.c then compacts) */
} hive_batch_outcome;

typedef struct hive_backend_ops {
    const char *name;
    /* t->config is resolved and validated; sets t->impl.  May return
     * NO_DEVICE, OUT_OF_MEMORY, CUDA, UNSUPPORTED. */
    hive_status (*create)(hive_table *t);
    void (*destroy)(hive_table *t);
    /* Runs one batch to completion and fills *outcome. */
    hive_status (*run)(hive_table *t, const hive_batch *b, hive_batch_outcome *outcome,
                       hive_stream stream);
    /* Number of elements of a mixed batch (b->ops != NULL) that may insert
     * (HIVE_OP_INSERT or HIVE_OP_UPSERT): how much room the batch can need. */
    hive_status (*count_inserts)(hive_table *t, const hive_batch *b, uint64_t *count,
                                 hive_stream stream);
    /* Number of elements of b that may store a new key: insert-type elements
     * (all of a uniform UPSERT batch) whose key is not reserved and not in
     * the table now.  A key repeated in the batch counts each time. */
    hive_status (*count_new)(hive_table *t, const hive_batch *b, uint64_t *count,
                             hive_stream stream);
    /* Runs again the elements of b rejected for room (results[i]
     * HIVE_RESULT_REJECTED_FULL, or their unfinished mark set: core/marks.h),
     * after the table grew; *outcome counts only those elements, whose marks
     * stay set only if they are rejected again. */
    hive_status (*retry_full)(hive_table *t, const hive_batch *b, hive_batch_outcome *outcome,
                              hive_stream stream);
    /* The zeroed marks of a batch of n keys, in table memory (ordered on
     * `stream`), NULL if none can be had; and their release. */
    uint32_t *(*marks_alloc)(hive_table *t, uint64_t n, hive_stream stream);
    void (*marks_free)(hive_table *t, uint32_t *marks, hive_stream stream);
    hive_status (*clear)(hive_table *t, hive_stream stream);
    /* Slots the main table has now. */
    uint64_t (*capacity)(const hive_table *t);
    /* Grows or shrinks to about `slots` slots by linear hashing, keeping
     * every pair: splits add buckets (in multiples of config.resize_batch)
     * until at least `slots` slots; merges remove buckets toward `slots`
     * and stop at the first that would not fit.  After growth the stash is
     * drained into the buckets (and enlarged with the table).  Never called
     * concurrently with other operations.  On OUT_OF_MEMORY the table is
     * unchanged. */
    hive_status (*resize)(hive_table *t, uint64_t slots, hive_stream stream);
    /* Turns the TOMBs of every bucket back into free slots and drains the
     * stash into the buckets where they now have room.  Never called
     * concurrently with other operations. */
    hive_status (*compact)(hive_table *t, hive_stream stream);
    /* Writes all live pairs (capacity >= size is checked by the caller). */
    hive_status (*export_pairs)(hive_table *t, uint64_t capacity, void *keys, void *values,
                                uint64_t *count, hive_stream stream);
    /* Fills every field but size and load_factor. */
    hive_status (*stats)(hive_table *t, hive_stats *stats);
    /* HIVE_SUCCESS when the backend's kernels can read/write `p` (NULL allowed
     * by the caller's own check); else INVALID_ARGUMENT with a message naming
     * `call` and `what`. */
    hive_status (*check_pointer)(const hive_table *t, const void *p, const char *call,
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
