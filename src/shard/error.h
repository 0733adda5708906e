/* error.h — the sharded table's failures: this thread's last-error text
 * (hive_shard_last_error) and the checks that turn a CUDA or NCCL failure
 * into a hive_status.  libhive_shard keeps its own text: it is a separate
 * library over hive.h, and hive's own text stays hive_last_error's. */
#ifndef HIVE_SHARD_ERROR_H
#define HIVE_SHARD_ERROR_H

#include <cuda_runtime.h>
#include <nccl.h>

#include "hive/shard.h"

#if defined(__GNUC__)
#define SHARD_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SHARD_PRINTF(a, b)
#endif

/* Records "call: message" (the first failure of a call is the one kept)
 * and returns status. */
hive_status shard_fail(hive_status status, const char *call, const char *fmt, ...) SHARD_PRINTF(3, 4);
void shard_clear_error(void);
hive_status shard_cuda(cudaError_t e, const char *call, const char *what);
hive_status shard_nccl(ncclResult_t r, const char *call, const char *what);

/* Statuses that mean a rank's part could not run (as opposed to outcomes
 * about some keys, which stay that rank's own). */
static inline int shard_status_is_hard(hive_status s)
{
    return s == HIVE_ERROR_OUT_OF_MEMORY || s == HIVE_ERROR_CUDA || s == HIVE_ERROR_NO_DEVICE ||
           s == HIVE_ERROR_UNSUPPORTED || s == HIVE_ERROR_INTERNAL;
}

#define SHARD_TRY(expr)                    \
    do {                                   \
        hive_status shard_try_ = (expr);   \
        if (shard_try_ != HIVE_SUCCESS)    \
            return shard_try_;             \
    } while (0)

#endif
