/* error.c — this thread's last-error text of the sharded table (error.h). */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last_error[512];
static _Thread_local int error_recorded;

hive_status shard_fail(hive_status status, const char *call, const char *fmt, ...)
{
    if (error_recorded)
        return status;
    int used = snprintf(last_error, sizeof last_error, "%s: ", call);
    if (used < 0 || (size_t)used >= sizeof last_error)
        used = 0;
    va_list args;
    va_start(args, fmt);
    vsnprintf(last_error + used, sizeof last_error - (size_t)used, fmt, args);
    va_end(args);
    error_recorded = 1;
    return status;
}

void shard_clear_error(void)
{
    last_error[0] = '\0';
    error_recorded = 0;
}

hive_status shard_cuda(cudaError_t e, const char *call, const char *what)
{
    if (e == cudaSuccess)
        return HIVE_SUCCESS;
    cudaGetLastError();
    return shard_fail(e == cudaErrorMemoryAllocation ? HIVE_ERROR_OUT_OF_MEMORY : HIVE_ERROR_CUDA, call, "%s: %s",
                      what, cudaGetErrorString(e));
}

hive_status shard_nccl(ncclResult_t r, const char *call, const char *what)
{
    if (r == ncclSuccess)
        return HIVE_SUCCESS;
    return shard_fail(r == ncclInvalidArgument || r == ncclInvalidUsage ? HIVE_ERROR_INVALID_ARGUMENT
                                                                          : HIVE_ERROR_CUDA,
                      call, "%s: %s", what, ncclGetErrorString(r));
}

const char *hive_shard_last_error(void)
{
    return last_error;
}
