/* device_kernels.h — kernels that use a table through include/hive/device.cuh
 * (device_kernels.cu), launched from the C tests and examples here. */
#ifndef HT_DEVICE_KERNELS_H
#define HT_DEVICE_KERNELS_H

#include <stdint.h>

#include "hive.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What each key's thread (or tile) does. */
typedef enum ht_device_op {
    HT_DEVICE_FIND = 0,   /* values[i] out where found */
    HT_DEVICE_INSERT = 1, /* insert if absent */
    HT_DEVICE_UPSERT = 2, /* with `combine`: HIVE_COMBINE_* or HT_DEVICE_COMBINE_OR */
    HT_DEVICE_ERASE = 3
} ht_device_op;

/* The caller's own merge that device_kernels.cu compiles in (hive/device.cuh:
 * HIVE_USER_COMBINE32/64): a bitwise OR, which does not depend on the order
 * of a key's updates. */
#define HT_DEVICE_COMBINE_OR 5

/* Runs `op` on keys[0..n) (device-reachable memory of the view's width) in a
 * kernel on `stream`, one thread per key (lanes 1) or a tile of `lanes` per
 * key (KV32); results[i] gets each key's hive_result.  Returns the CUDA
 * error of the launch (0: none); does not wait. */
int ht_device_run(hive_device_view view, int width, ht_device_op op, int combine, uint32_t lanes, uint64_t n,
                  const void *keys, void *values, uint8_t *results, hive_stream stream);

#ifdef __cplusplus
}
#endif

#endif
