/* cache_config.c — a caller's hive_cache_config made into a cache's: taken
 * from an older header's layout, checked, every default resolved (bucket
 * slots, threads, capacity in whole buckets, the values' device budget in
 * whole values), and the backend picked.  The one place the cache's
 * defaults live: backends get the resolved config and may only reject it. */
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "backend.h" /* hive_backend_resolve */
#include "base/check.h"
#include "cache/cache_table.h"

/* A value of more than 1 MiB is surely a mistake (and would make one
 * bucket's values alone 128 MiB). */
#define MAX_VALUE_BYTES (1u << 20)
#define MAX_THREADS 4096u
/* Slots per bucket when the config leaves it at 0 (hive.h).  One bucket a
 * key: 16, whose scores are one 128-byte line, so that an eviction reads
 * half of what 32 slots cost (on an H100, evicting upserts 2.2 against 1.85
 * G/s) with the same hit rates; dual buckets: 32, which fill to 0.95 before
 * the first eviction where 16 reach 0.87 (docs/cache.md). */
#define DEFAULT_BUCKET_SLOTS 16u
#define DEFAULT_DUAL_BUCKET_SLOTS 32u

static uint32_t bucket_slots_of(const hive_cache_config *c)
{
    if (c->bucket_slots)
        return c->bucket_slots;
    return c->dual_bucket ? DEFAULT_DUAL_BUCKET_SLOTS : DEFAULT_BUCKET_SLOTS;
}

void hive_cache_config_init(hive_cache_config *config)
{
    static const hive_cache_config defaults = HIVE_CACHE_CONFIG_INIT;
    if (config != NULL)
        *config = defaults;
}

/* Versions 2 and 3 only appended: version 1's fields keep their offsets. */
_Static_assert(offsetof(hive_cache_config, value_hbm_bytes) == HIVE_OLDEST_CACHE_CONFIG_SIZE,
               "version 1's hive_cache_config ended where value_hbm_bytes begins");

uint32_t hive_cache_config_bytes_of(const hive_cache_config *c)
{
    return c->struct_size >= HIVE_OLDEST_CACHE_CONFIG_SIZE && c->struct_size < sizeof *c
               ? c->struct_size
               : (uint32_t)sizeof *c;
}

/* The caller's config as this header's: what an older header's config
 * lacks (version 1's value_hbm_bytes) takes its default. */
static hive_status upgrade_config(const hive_cache_config *in, hive_cache_config *out)
{
    static const char call[] = "hive_cache_create";
    HIVE_CHECK_ARG(in != NULL, call, "config is NULL");
    HIVE_CHECK_ARG(in->struct_size >= HIVE_OLDEST_CACHE_CONFIG_SIZE && in->struct_size <= sizeof *in, call,
                   "config.struct_size is %u, expected %u (or an older header's, down to %u): start from "
                   "HIVE_CACHE_CONFIG_INIT",
                   in->struct_size, (unsigned)sizeof *in, HIVE_OLDEST_CACHE_CONFIG_SIZE);
    HIVE_CHECK_ARG(in->version >= 1 && in->version <= HIVE_CACHE_CONFIG_VERSION, call,
                   "config.version is %u, this library takes 1..%u", in->version,
                   HIVE_CACHE_CONFIG_VERSION);
    hive_cache_config_init(out);
    memcpy(out, in, in->struct_size);
    if (in->version < 2)
        out->value_hbm_bytes = HIVE_CACHE_HBM_UNLIMITED;
    if (in->version < 3) {
        out->hash_seed = HIVE_HASH_SEED_RANDOM;
        memset(&out->allocator, 0, sizeof out->allocator);
    }
    out->struct_size = sizeof *out;
    out->version = HIVE_CACHE_CONFIG_VERSION;
    return HIVE_SUCCESS;
}

static hive_status check_config(const hive_cache_config *c)
{
    static const char call[] = "hive_cache_create";
    HIVE_CHECK_ARG(c->backend == HIVE_BACKEND_AUTO || c->backend == HIVE_BACKEND_CUDA ||
                       c->backend == HIVE_BACKEND_CPU,
                   call, "config.backend %d is not a hive_backend", (int)c->backend);
    HIVE_CHECK_ARG(c->device >= 0, call, "config.device %d is negative", c->device);
    HIVE_CHECK_ARG(c->dim >= 1, call, "config.dim is 0");
    uint32_t elem = hive_value_type_size(c->value_type);
    HIVE_CHECK_ARG(elem != 0, call, "config.value_type %d is not a hive_value_type",
                   (int)c->value_type);
    HIVE_CHECK_ARG((uint64_t)c->dim * elem <= MAX_VALUE_BYTES, call,
                   "config.dim %u makes values of %llu bytes, over 2^20", c->dim,
                   (unsigned long long)c->dim * elem);
    HIVE_CHECK_ARG((unsigned)c->policy <= HIVE_SCORE_CUSTOM, call,
                   "config.policy %d is not a hive_score_policy", (int)c->policy);
    HIVE_CHECK_ARG(c->bucket_slots == 0 || (c->bucket_slots >= HIVE_CACHE_MIN_SLOTS &&
                                            c->bucket_slots <= HIVE_CACHE_MAX_SLOTS &&
                                            (c->bucket_slots & (c->bucket_slots - 1)) == 0),
                   call, "config.bucket_slots %u is not 0, 8, 16, 32, 64 or 128", c->bucket_slots);
    HIVE_CHECK_ARG(c->dual_bucket <= 1, call, "config.dual_bucket %u is not 0 or 1",
                   c->dual_bucket);
    HIVE_CHECK_ARG(c->threads <= MAX_THREADS, call, "config.threads %u is over %u", c->threads,
                   MAX_THREADS);
    HIVE_TRY(hive_check_allocator(&c->allocator, call));
    uint32_t slots = bucket_slots_of(c);
    HIVE_CHECK_ARG(c->capacity >= 1 && c->capacity <= HIVE_CACHE_MAX_BUCKETS * slots, call,
                   "config.capacity %llu is outside 1..2^32 buckets of %u slots",
                   (unsigned long long)c->capacity, slots);
    return HIVE_SUCCESS;
}

/* The backend's operations (AUTO resolved as for the dictionary); NULL for
 * CUDA in a build without it. */
static const hive_cache_backend_ops *pick_backend(hive_cache_config *c)
{
    c->backend = hive_backend_resolve(c->backend, c->device, 0);
#ifdef HIVE_WITH_CUDA
    if (c->backend == HIVE_BACKEND_CUDA)
        return &hive_cache_cuda_backend;
#endif
    return c->backend == HIVE_BACKEND_CUDA ? NULL : &hive_cache_cpu_backend;
}

hive_status hive_cache_config_resolve(const hive_cache_config *config, hive_cache_config *resolved,
                                      uint64_t *buckets, const hive_cache_backend_ops **ops)
{
    hive_cache_config c;
    HIVE_TRY(upgrade_config(config, &c));
    HIVE_TRY(check_config(&c));
    if (c.threads == 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        c.threads = cores > 0 ? (uint32_t)cores : 1u;
    }
    c.bucket_slots = bucket_slots_of(&c);
    if (c.hash_seed == HIVE_HASH_SEED_RANDOM)
        c.hash_seed = hive_hash_seed_draw();
    *ops = pick_backend(&c);
    if (*ops == NULL)
        return hive_fail(HIVE_ERROR_UNSUPPORTED, "hive_cache_create",
                         "this build of hive has no CUDA backend (built with HIVE_WITH_CUDA=OFF)");
    *buckets = c.capacity / c.bucket_slots + (c.capacity % c.bucket_slots != 0);
    c.capacity = *buckets * c.bucket_slots;
    /* Whole values, at most all of them: what the backends split at
     * (value_hbm_bytes / value bytes is the first slot in host memory). */
    uint64_t value_bytes = (uint64_t)c.dim * hive_value_type_size(c.value_type);
    uint64_t hbm_slots = c.value_hbm_bytes / value_bytes;
    c.value_hbm_bytes = (hbm_slots < c.capacity ? hbm_slots : c.capacity) * value_bytes;
    *resolved = c;
    return HIVE_SUCCESS;
}
