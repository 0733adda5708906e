/* device_kernels.cu — the kernels of device_kernels.h: each key's operation
 * through include/hive/device.cuh, with a merge of the caller's own (OR). */
#define HIVE_USER_COMBINE32(stored, incoming) ((stored) | (incoming))
#define HIVE_USER_COMBINE64(stored, incoming) ((stored) | (incoming))
#include "hive/device.cuh"

#include "device_kernels.h"

static_assert(HT_DEVICE_COMBINE_OR == HIVE_DEVICE_COMBINE_USER, "the tests' OR is the user's mode");


__global__ void ht_device_kernel32(hive_device_view view, int op, int combine, uint32_t lanes, uint64_t n,
                                   const uint32_t *keys, uint32_t *values, uint8_t *results)
{
    uint64_t thread = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint64_t i = thread / lanes;
    /* Whole tiles stay in the loop together (their lanes share shuffles). */
    if ((thread - thread % lanes) / lanes >= n)
        return;
    uint32_t key = keys[i];
    int r;
    if (lanes == 1) {
        r = op == HT_DEVICE_FIND     ? hive_device_find32(view, key, &values[i])
            : op == HT_DEVICE_INSERT ? hive_device_insert32(view, key, values[i])
            : op == HT_DEVICE_UPSERT ? hive_device_upsert32(view, key, values[i], combine)
                                     : hive_device_erase32(view, key);
    } else {
        uint32_t found = 0;
        r = op == HT_DEVICE_FIND     ? hive_device_find32_tile(view, lanes, key, &found)
            : op == HT_DEVICE_INSERT ? hive_device_insert32_tile(view, lanes, key, values[i])
            : op == HT_DEVICE_UPSERT ? hive_device_upsert32_tile(view, lanes, key, values[i], combine)
                                     : hive_device_erase32_tile(view, lanes, key);
        if (op == HT_DEVICE_FIND && r == HIVE_RESULT_FOUND && thread % lanes == 0)
            values[i] = found;
    }
    if (thread % lanes == 0)
        results[i] = (uint8_t)r;
}

__global__ void ht_device_kernel64(hive_device_view view, int op, int combine, uint64_t n, const uint64_t *keys,
                                   uint64_t *values, uint8_t *results)
{
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint64_t key = keys[i];
    int r = op == HT_DEVICE_FIND     ? hive_device_find64(view, key, &values[i])
            : op == HT_DEVICE_INSERT ? hive_device_insert64(view, key, values[i])
            : op == HT_DEVICE_UPSERT ? hive_device_upsert64(view, key, values[i], combine)
                                     : hive_device_erase64(view, key);
    results[i] = (uint8_t)r;
}

extern "C" int ht_device_run(hive_device_view view, int width, ht_device_op op, int combine, uint32_t lanes,
                             uint64_t n, const void *keys, void *values, uint8_t *results, hive_stream stream)
{
    if (n == 0)
        return 0;
    const unsigned threads = 256;
    cudaStream_t s = (cudaStream_t)stream;
    if (width == 32) {
        uint64_t blocks = (n * lanes + threads - 1) / threads;
        ht_device_kernel32<<<(unsigned)blocks, threads, 0, s>>>(view, (int)op, combine, lanes, n,
                                                              (const uint32_t *)keys, (uint32_t *)values, results);
    } else {
        uint64_t blocks = (n + threads - 1) / threads;
        ht_device_kernel64<<<(unsigned)blocks, threads, 0, s>>>(view, (int)op, combine, n, (const uint64_t *)keys,
                                                              (uint64_t *)values, results);
    }
    return (int)cudaGetLastError();
}
