/* launch.h — one batch as the per-key loops see it: the CUDA kernels take it
 * by value as a launch parameter, the CPU backend's workers share it.  A
 * backend makes it from api's request (backend.h, hive_request) and its own
 * scratch: the marks of a batch that may insert and has no result bytes
 * (core/marks.h). */
#ifndef HIVE_CORE_LAUNCH_H
#define HIVE_CORE_LAUNCH_H

#include <stdint.h>

#include "hive.h"

typedef struct hive_batch {
    uint64_t n;
    hive_op op;            /* uniform op when ops == NULL: FIND, UPSERT or ERASE */
    const uint8_t *ops;    /* (n) hive_op, or NULL */
    hive_combine combine;  /* for UPSERT (HIVE_OP_INSERT elements use KEEP) */
    const void *keys;      /* (n) */
    const void *values_in; /* (n): UPSERT values; NULL when no op needs them */
    void *values_out;      /* (n): FIND output, or NULL (may alias values_in) */
    uint8_t *found;        /* (n) 1/0 for FIND, or NULL */
    uint8_t *results;      /* (n) hive_result, or NULL */
    uint32_t *marks;       /* 2 * HIVE_MARK_WORDS(n) words, zeroed, or NULL (core/marks.h) */
} hive_batch;

#endif
