/* combine.h — how an upsert merges its value into a stored one (hive_combine),
 * shared by every backend so that ADD/MIN/MAX mean the same everywhere.  The
 * modes (HIVE_CMB_*) are in outcome.h. */
#ifndef HIVE_CORE_COMBINE_H
#define HIVE_CORE_COMBINE_H

#include <stdint.h>

#include "../base/platform.h"
#include "outcome.h"

#define HIVE_DEFINE_COMBINE(name, type)                                \
    HIVE_HD type name(int mode, type stored, type incoming)            \
    {                                                                  \
        switch (mode) {                                                \
        case HIVE_CMB_ASSIGN: return incoming;                         \
        case HIVE_CMB_ADD: return (type)(stored + incoming);           \
        case HIVE_CMB_MIN: return incoming < stored ? incoming : stored; \
        case HIVE_CMB_MAX: return incoming > stored ? incoming : stored; \
        default: return stored;                                        \
        }                                                              \
    }

HIVE_DEFINE_COMBINE(hive_combine32, uint32_t)
HIVE_DEFINE_COMBINE(hive_combine64, uint64_t)

#endif
