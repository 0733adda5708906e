/* debug.c — status names, the per-thread last-error text, HIVE_DEBUG logging. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static _Thread_local char last_error[512];

static int debug_enabled(void)
{
    static int cached = -1; /* benign race: every thread computes the same value */
    if (cached < 0) {
        const char *v = getenv("HIVE_DEBUG");
        cached = v != NULL && v[0] != '\0' && strcmp(v, "0") != 0;
    }
    return cached;
}

const char *hive_status_string(hive_status status)
{
    switch (status) {
    case HIVE_SUCCESS: return "success";
    case HIVE_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case HIVE_ERROR_RESERVED_KEY: return "reserved key";
    case HIVE_ERROR_OUT_OF_MEMORY: return "out of memory";
    case HIVE_ERROR_TABLE_FULL: return "table full";
    case HIVE_ERROR_CUDA: return "CUDA error";
    case HIVE_ERROR_NO_DEVICE: return "no CUDA device";
    case HIVE_ERROR_UNSUPPORTED: return "unsupported";
    case HIVE_ERROR_INTERNAL: return "internal error";
    }
    return "unknown status";
}

const char *hive_last_error(void) { return last_error; }

void hive_clear_error(void) { last_error[0] = '\0'; }

hive_status hive_fail(hive_status status, const char *call, const char *fmt, ...)
{
    if (last_error[0] == '\0') {
        int used = snprintf(last_error, sizeof last_error, "%s: ", call);
        va_list ap;
        va_start(ap, fmt);
        if (used > 0 && (size_t)used < sizeof last_error)
            vsnprintf(last_error + used, sizeof last_error - (size_t)used, fmt, ap);
        va_end(ap);
    }
    if (debug_enabled())
        fprintf(stderr, "hive: %s (%s)\n", last_error, hive_status_string(status));
    return status;
}

void hive_debug(const char *fmt, ...)
{
    if (!debug_enabled())
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("hive: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
