/* table.h — the handle behind hive_table: what api.c keeps for every backend. */
#ifndef HIVE_TABLE_H
#define HIVE_TABLE_H

#include <pthread.h>
#include <stdint.h>

#include "backend.h"
#include "hive.h"

#define HIVE_TABLE_MAGIC 0x48495645u /* "HIVE": catches freed and foreign handles */

struct hive_table {
    uint32_t magic;
    hive_config config;           /* resolved: no zero "defaults" left */
    const hive_backend_ops *ops;
    void *impl;                   /* the backend's state */
    /* Counters read and written with __atomic builtins (this header is also
     * compiled as C++ by nvcc, where _Atomic is not available). */
    uint64_t size;                /* live keys, updated from batch outcomes */
    uint64_t grows, shrinks;
    pthread_rwlock_t resize_lock; /* operations share it; resizing takes it alone */
};

#endif
