/* combine.h — how an upsert merges its value into a stored one (hive_combine),
 * shared by every backend so that ADD/MIN/MAX mean the same everywhere.  The
 * modes (HIVE_CMB_*) are in outcome.h.
 *
 * Device code that includes hive/device.cuh may add its own mode,
 * HIVE_CMB_USER: it #defines HIVE_USER_COMBINE32(stored, incoming) (and/or
 * ..64) before the include, and those expressions merge the values (the
 * slot's CAS loop makes each merge atomic).  The library's own kernels
 * define neither, and never see the mode (api checks combine). */
#ifndef HIVE_CORE_COMBINE_H
#define HIVE_CORE_COMBINE_H

#include <stdint.h>

#include "../base/platform.h"
#include "outcome.h"

#define HIVE_DEFINE_COMBINE(name, type, user_case)                    \
    HIVE_HD type name(int mode, type stored, type incoming)            \
    {                                                                  \
        switch (mode) {                                                \
        user_case                                                      \
        case HIVE_CMB_ASSIGN: return incoming;                         \
        case HIVE_CMB_ADD: return (type)(stored + incoming);           \
        case HIVE_CMB_MIN: return incoming < stored ? incoming : stored; \
        case HIVE_CMB_MAX: return incoming > stored ? incoming : stored; \
        default: return stored;                                        \
        }                                                              \
    }

/* Device code only (the caller's expressions may use device intrinsics). */
#if defined(HIVE_USER_COMBINE32) && defined(__CUDA_ARCH__)
#define HIVE_USER_CASE32 case HIVE_CMB_USER: return (uint32_t)(HIVE_USER_COMBINE32(stored, incoming));
#else
#define HIVE_USER_CASE32
#endif
#if defined(HIVE_USER_COMBINE64) && defined(__CUDA_ARCH__)
#define HIVE_USER_CASE64 case HIVE_CMB_USER: return (uint64_t)(HIVE_USER_COMBINE64(stored, incoming));
#else
#define HIVE_USER_CASE64
#endif

HIVE_DEFINE_COMBINE(hive_combine32, uint32_t, HIVE_USER_CASE32)
HIVE_DEFINE_COMBINE(hive_combine64, uint64_t, HIVE_USER_CASE64)

#endif
