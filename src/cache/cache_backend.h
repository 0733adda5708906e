/* cache_backend.h — what each backend (CPU, CUDA) provides for the cache
 * table, so that api (cache_api.c) checks arguments and takes the group lock
 * once, blind to where the table lives.  The per-key work is cache_body.h's,
 * the same on both sides; a backend owns the memory and the loops. */
#ifndef HIVE_CACHE_BACKEND_H
#define HIVE_CACHE_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "cache_view.h"
#include "hive.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hive_cache_backend_ops {
    const char *name;
    /* config is resolved and checked (cache_config.c); `buckets` buckets of
     * config->bucket_slots slots, every slot free, every lock clear.  Sets
     * *impl.  May return NO_DEVICE, OUT_OF_MEMORY, CUDA. */
    hive_status (*create)(const hive_cache_config *config, uint64_t buckets, void **impl);
    void (*destroy)(void *impl);
    /* Runs one bulk call to completion (its arrays checked by api) with the
     * table's epoch, and fills *outcome. */
    hive_status (*run)(void *impl, const hive_cache_batch *batch, uint32_t epoch,
                       hive_cache_outcome *outcome, hive_stream stream);
    /* Frees every entry `filter` selects; *erased says how many. */
    hive_status (*erase_if)(void *impl, const hive_cache_filter *filter, uint64_t *erased,
                            hive_stream stream);
    /* Writes the live entries of slots [offset, offset + slots) that `filter`
     * (never NULL here) selects, compactly; values and scores may be NULL. */
    hive_status (*export_range)(void *impl, uint64_t offset, uint64_t slots,
                                const hive_cache_filter *filter, uint64_t *keys, void *values,
                                uint64_t *scores, uint64_t *count, hive_stream stream);
    /* Live entries now. */
    hive_status (*count)(void *impl, uint64_t *size, hive_stream stream);
    /* Every slot free again. */
    hive_status (*clear)(void *impl, hive_stream stream);
    /* As hive_backend_ops.check_pointer (backend.h). */
    hive_status (*check_pointer)(const void *impl, const void *p, const char *call, const char *what);
    /* Who reaches memory p at that address (hive_cache_reach): the host and
     * this backend's calls both (any host memory on the CPU; on CUDA, mapped
     * pinned host memory or managed memory), so that a caller's host arrays
     * may go to the calls as they are; the host only (pageable memory); or
     * the device only.  Sets no error. */
    int (*reach)(const void *impl, const void *p);
    /* Memory the table holds (values, keys, scores, digests, locks). */
    uint64_t (*bytes_held)(const void *impl);
    /* Buffers for save and load (cache_io.c): `bytes` that this backend's
     * calls take as table memory and that the host reads and writes directly
     * once a call has returned (host memory on the CPU; on CUDA, mapped
     * pinned host memory or managed memory), 64-byte aligned; NULL when they
     * cannot be had.  free_io(NULL) does nothing. */
    void *(*alloc_io)(const void *impl, size_t bytes);
    void (*free_io)(const void *impl, void *p);
    /* Optional (NULL: the caller does it on the host).  The n pairs
     * keys/values (n < 2^32 - 1, 8-byte aligned, memory this backend's
     * calls reach), less the reserved keys (counted into *reserved), made
     * unique: each key once, with the value of its last occurrence, into
     * out_keys/out_values (alloc_io memory with room for n; no particular
     * order); *unique says how many.  A CUDA backend does it at the bus's
     * speed where a host pass would cost a hash-map probe a pair
     * (cuda_cache_unique.cuh). */
    hive_status (*unique_pairs)(void *impl, uint64_t n, const uint64_t *keys, const uint64_t *values,
                                uint64_t *out_keys, uint64_t *out_values, uint64_t *unique, uint64_t *reserved,
                                hive_stream stream);
} hive_cache_backend_ops;

enum hive_cache_reach { HIVE_REACH_HOST = 0, HIVE_REACH_BOTH = 1, HIVE_REACH_DEVICE = 2 };

extern const hive_cache_backend_ops hive_cache_cpu_backend;
#ifdef HIVE_WITH_CUDA
extern const hive_cache_backend_ops hive_cache_cuda_backend;
#endif

/* Element size of a value type (0 for none). */
static inline uint32_t hive_value_type_size(hive_value_type t)
{
    switch (t) {
    case HIVE_VALUE_F32:
    case HIVE_VALUE_I32:
        return 4;
    case HIVE_VALUE_F64:
    case HIVE_VALUE_I64:
        return 8;
    case HIVE_VALUE_BYTES:
        return 1;
    default:
        return 0;
    }
}

#ifdef __cplusplus
}
#endif

#endif
