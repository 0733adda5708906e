/* table.h — the handle behind hive_table: what api.c keeps for every backend. */
#ifndef HIVE_TABLE_H
#define HIVE_TABLE_H

#include <pthread.h>
#include <stdint.h>

#include "backend.h"
#include "hive.h"

#define HIVE_TABLE_MAGIC 0x48495645u /* "HIVE": catches freed and foreign handles */
#define HIVE_TABLE_DYING 0x44454144u /* "DEAD": hive_destroy waits for the calls inside */

struct hive_table {
    uint32_t magic;               /* HIVE_TABLE_MAGIC, HIVE_TABLE_DYING, or 0 once freed */
    hive_config config;           /* resolved: no zero "defaults" left */
    const hive_backend_ops *ops;
    void *impl;                   /* the backend's state */
    /* Counters read and written with __atomic builtins (this header is also
     * compiled as C++ by nvcc, where _Atomic is not available). */
    uint64_t size;                /* live keys, updated from batch outcomes */
    uint64_t grows, shrinks, shrinks_undone;
    uint64_t shrink_below;        /* a shrink is tried only while size < this (hysteresis) */
    uint64_t calls;               /* calls inside the API on this table, for hive_destroy */
    pthread_rwlock_t resize_lock; /* operations share it; resizing takes it alone */
};

#endif
