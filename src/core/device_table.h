/* device_table.h — what a hive_device_view (hive.h) holds: the table's
 * memory as the slot protocol sees it, its bucket size and key width, and
 * where device code counts the keys it inserts and erases (the CUDA
 * backend's unsettled counts, cuda_table.h).  The library fills it
 * (hive_device_view_acquire); include/hive/device.cuh reads it. */
#ifndef HIVE_CORE_DEVICE_TABLE_H
#define HIVE_CORE_DEVICE_TABLE_H

#include <stdint.h>

#include "hive.h"
#include "view.h"

typedef struct hive_device_table {
    hive_view view;
    uint32_t S;       /* slots per bucket */
    uint32_t width;   /* key bits: 32 or 64 */
    uint64_t *counts; /* HIVE_CTR_COUNT words (core/batch.h): inserts and erases are counted here,
                       * at HIVE_ASYNC_INSERTED and HIVE_ASYNC_ERASED (the same indices) */
} hive_device_table;

static_assert(sizeof(hive_device_table) <= sizeof(hive_device_view),
              "a hive_device_view has room for the table's view");

/* The view's words as the table they hold (and back): a copy, so that a
 * view passed by value to a kernel stays in registers. */
typedef union hive_device_words {
    hive_device_view view;
    hive_device_table table;
} hive_device_words;

#endif
