/* tiered_api.c — every hive_tiered_* entry point: check the handle and the
 * arguments, take the handle's lock, and run the call step by step (at most
 * config.batch keys a step: tiered_find.c, tiered_write.c).  The handle's
 * tiers, buffers and worker pool are made and freed here. */
#include <sched.h>
#include <stdint.h>
#include <string.h>

#include "base/alloc.h"
#include "base/check.h"
#include "cache/cache_table.h"
#include "tiered/tiered.h"

/* Larger batches are surely a mistake (the dictionary's bound). */
#define MAX_CALL_KEYS (1ull << 40)

/* ---------------------------------------------------------------- handle */

static void free_buffers(hive_tiered *t)
{
    if (t->hot != NULL) {
        void *staged[] = {t->s_keys,    t->s_values,         t->s_keys2,          t->s_values2, t->s_scores,
                          t->s_evicted, t->s_evicted_values, t->s_evicted_scores, t->s_flags};
        for (size_t i = 0; i < sizeof staged / sizeof staged[0]; i++)
            t->hot->ops->free_io(t->hot->impl, staged[i]);
    }
    hive_host_free(t->at);
    hive_host_free(t->offsets);
    hive_host_free(t->c_values);
    hive_host_free(t->c_flags);
    hive_host_free(t->w_keys);
    hive_host_free(t->w_values);
    hive_tiered_dedup_free(&t->dedup);
}

static hive_status alloc_buffers(hive_tiered *t)
{
    static const char call[] = "hive_tiered_create";
    size_t n = t->config.batch, w = n * sizeof(uint64_t);
    const hive_cache *h = t->hot;
    t->s_keys = h->ops->alloc_io(h->impl, w);
    t->s_values = h->ops->alloc_io(h->impl, w);
    t->s_keys2 = h->ops->alloc_io(h->impl, w);
    t->s_values2 = h->ops->alloc_io(h->impl, w);
    t->s_evicted = h->ops->alloc_io(h->impl, w);
    t->s_evicted_values = h->ops->alloc_io(h->impl, w);
    t->s_flags = h->ops->alloc_io(h->impl, n);
    t->at = hive_host_calloc(n, sizeof *t->at);
    t->offsets = hive_host_calloc(n / HIVE_TIERED_BLOCK + 1, sizeof *t->offsets);
    t->c_values = hive_host_calloc(n, sizeof *t->c_values);
    t->c_flags = hive_host_calloc(n, 1);
    int back = t->config.write_back != 0; /* scores and copies waiting: write-back's alone */
    if (back) {
        t->s_scores = h->ops->alloc_io(h->impl, w);
        t->s_evicted_scores = h->ops->alloc_io(h->impl, w);
        t->w_keys = hive_host_calloc(n, sizeof *t->w_keys);
        t->w_values = hive_host_calloc(n, sizeof *t->w_values);
    }
    if (t->s_keys == NULL || t->s_values == NULL || t->s_keys2 == NULL || t->s_values2 == NULL ||
        t->s_evicted == NULL || t->s_evicted_values == NULL || t->s_flags == NULL || t->at == NULL ||
        t->offsets == NULL || t->c_values == NULL || t->c_flags == NULL ||
        (back && (t->s_scores == NULL || t->s_evicted_scores == NULL || t->w_keys == NULL ||
                  t->w_values == NULL)))
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call,
                         "no memory for the staging buffers of %zu keys (config.batch)", n);
    return hive_tiered_dedup_init(&t->dedup, t->config.batch);
}

/* The two tiers: a cache of 8-byte values (I64, dim 1; LRU, so that every
 * new key is admitted and a full bucket drops the copy written longest ago,
 * or under write-back the same order in scores of the handle's, which also
 * mark dirty copies (tiered.h, hive_tiered_score); 32-slot buckets, as
 * docs/tiered.md gives the hot tier's capacity, one or two a key as the
 * config says; the config's hash seed, drawn per table by default) and a
 * KV64 dictionary of every key that never shrinks. */
static hive_status open_tiers(hive_tiered *t)
{
    hive_cache_config hc = HIVE_CACHE_CONFIG_INIT;
    hc.backend = t->config.hot_backend;
    hc.device = t->config.device;
    hc.capacity = t->config.hot_capacity;
    hc.dim = 1;
    hc.value_type = HIVE_VALUE_I64;
    hc.policy = t->config.write_back ? HIVE_SCORE_CUSTOM : HIVE_SCORE_LRU;
    hc.bucket_slots = 32;
    hc.dual_bucket = t->config.hot_dual_bucket;
    hc.hash_seed = t->config.hash_seed;
    hc.threads = t->config.threads;
    HIVE_TRY(hive_cache_create(&hc, &t->hot));
    HIVE_TRY(hive_cache_get_config(t->hot, &hc));
    t->config.hot_backend = hc.backend;
    t->config.hot_capacity = hc.capacity;
    t->config.hash_seed = hc.hash_seed;

    hive_config cc = HIVE_CONFIG_INIT;
    cc.backend = HIVE_BACKEND_CPU;
    cc.key_width = HIVE_KV64;
    cc.initial_capacity = t->config.cold_capacity;
    cc.min_load_factor = 0.0;
    cc.threads = t->config.threads;
    HIVE_TRY(hive_create(&cc, &t->cold));
    HIVE_TRY(hive_get_config(t->cold, &cc));
    t->config.threads = cc.threads;
    /* The host loops share the workers of the tiers' thread count. */
    return hive_cpu_pool_acquire(cc.threads - 1, "hive_tiered_create", &t->pool);
}

static void close_tiers(hive_tiered *t)
{
    free_buffers(t);
    hive_cpu_pool_release(t->pool);
    if (t->hot != NULL)
        hive_cache_destroy(t->hot);
    if (t->cold != NULL)
        hive_destroy(t->cold);
}

hive_status hive_tiered_create(const hive_tiered_config *config, hive_tiered **tiered)
{
    static const char call[] = "hive_tiered_create";
    hive_clear_error();
    HIVE_CHECK_ARG(tiered != NULL, call, "tiered (the output handle) is NULL");
    hive_tiered_config cfg;
    HIVE_TRY(hive_tiered_config_resolve(config, &cfg));
    hive_tiered *t = hive_host_calloc(1, sizeof *t);
    if (t == NULL)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "no host memory for the handle");
    t->config = cfg;
    hive_status s = open_tiers(t);
    if (s == HIVE_SUCCESS)
        s = alloc_buffers(t);
    if (s == HIVE_SUCCESS && pthread_mutex_init(&t->lock, NULL) != 0)
        s = hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "cannot initialise the handle's lock");
    if (s != HIVE_SUCCESS) {
        close_tiers(t);
        hive_host_free(t);
        return s;
    }
    t->stats.hot_capacity = t->config.hot_capacity;
    t->magic = HIVE_TIERED_MAGIC;
    hive_debug("created a two-level table: %s hot tier of %llu entries, CPU cold tier",
               t->config.hot_backend == HIVE_BACKEND_CUDA ? "CUDA" : "CPU",
               (unsigned long long)t->config.hot_capacity);
    *tiered = t;
    return HIVE_SUCCESS;
}

/* As hive_cache_enter: the count goes up before the handle is checked, and
 * destroy marks the handle before it reads the count. */
static hive_status enter(hive_tiered *t, const char *call)
{
    HIVE_CHECK_ARG(t != NULL, call, "tiered is NULL");
    __atomic_fetch_add(&t->calls, 1, __ATOMIC_SEQ_CST);
    uint32_t magic = __atomic_load_n(&t->magic, __ATOMIC_SEQ_CST);
    if (magic != HIVE_TIERED_MAGIC) {
        __atomic_fetch_sub(&t->calls, 1, __ATOMIC_SEQ_CST);
        return hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call,
                         magic == HIVE_TIERED_DYING
                             ? "tiered table is being destroyed"
                             : "tiered is not a live two-level table (destroyed, or not from "
                               "hive_tiered_create)");
    }
    return HIVE_SUCCESS;
}

static void leave(hive_tiered *t) { __atomic_fetch_sub(&t->calls, 1, __ATOMIC_SEQ_CST); }

/* The whole of a public call: last error cleared, `body` run inside the
 * handle's lock between enter and leave. */
#define TIERED_CALL(t, call, body)                 \
    do {                                           \
        hive_clear_error();                        \
        HIVE_TRY(enter((t), (call)));              \
        pthread_mutex_lock(&(t)->lock);            \
        hive_status tiered_status_ = (body);       \
        pthread_mutex_unlock(&(t)->lock);          \
        leave(t);                                  \
        return tiered_status_;                     \
    } while (0)

hive_status hive_tiered_destroy(hive_tiered *tiered)
{
    static const char call[] = "hive_tiered_destroy";
    hive_clear_error();
    HIVE_CHECK_ARG(tiered != NULL, call, "tiered is NULL");
    uint32_t live = HIVE_TIERED_MAGIC;
    HIVE_CHECK_ARG(__atomic_compare_exchange_n(&tiered->magic, &live, HIVE_TIERED_DYING, 0,
                                               __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST),
                   call,
                   live == HIVE_TIERED_DYING ? "tiered table is already being destroyed"
                                             : "tiered is not a live two-level table (destroyed, or "
                                               "not from hive_tiered_create)");
    while (__atomic_load_n(&tiered->calls, __ATOMIC_SEQ_CST) != 0)
        sched_yield();
    close_tiers(tiered);
    pthread_mutex_destroy(&tiered->lock);
    tiered->magic = 0;
    hive_host_free(tiered);
    return HIVE_SUCCESS;
}

static hive_status get_config_locked(const hive_tiered *t, hive_tiered_config *config)
{
    HIVE_CHECK_ARG(config != NULL, "hive_tiered_get_config", "config is NULL");
    *config = t->config;
    return HIVE_SUCCESS;
}

hive_status hive_tiered_get_config(const hive_tiered *tiered, hive_tiered_config *config)
{
    hive_tiered *t = (hive_tiered *)tiered; /* only its call count and lock change */
    TIERED_CALL(t, "hive_tiered_get_config", get_config_locked(t, config));
}

/* ---------------------------------------------------------------- arguments */

static hive_status check_n(uint64_t n, const char *call)
{
    HIVE_CHECK_ARG(n <= MAX_CALL_KEYS, call, "n = %llu is over 2^40 keys", (unsigned long long)n);
    return HIVE_SUCCESS;
}

static hive_status reserved_status(uint64_t count, const char *call)
{
    if (count == 0)
        return HIVE_SUCCESS;
    return hive_fail(HIVE_ERROR_RESERVED_KEY, call,
                     "%llu keys were reserved (HIVE_KV64_RESERVED_MIN and up) and skipped",
                     (unsigned long long)count);
}

/* ---------------------------------------------------------------- bulk calls */

/* Who reaches array p, into *reach where given (cache_backend.h's
 * hive_cache_reach; a NULL array counts as reached by both).  The host reads
 * and writes every array of a call (the cold tier is on the host): memory
 * only a device reaches is refused, where a host loop would fault on it. */
static hive_status reach_of(const hive_tiered *t, const char *call, const void *p, const char *what, int *reach)
{
    const hive_cache *h = t->hot;
    int r = p == NULL ? HIVE_REACH_BOTH : h->ops->reach(h->impl, p);
    if (reach != NULL)
        *reach = r;
    HIVE_CHECK_ARG(r != HIVE_REACH_DEVICE, call,
                   "%s is device memory; the two-level table takes host memory (pageable, page-locked or "
                   "managed)",
                   what);
    return HIVE_SUCCESS;
}

/* Whether a call's arrays go to the hot tier as they are: it reaches them
 * all where the host does, and keys and values are 8-byte aligned. */
static int is_direct(int reach_keys, int reach_values, int reach_found, const uint64_t *keys,
                     const uint64_t *values)
{
    return reach_keys == HIVE_REACH_BOTH && reach_values == HIVE_REACH_BOTH && reach_found == HIVE_REACH_BOTH &&
           (((uintptr_t)keys | (uintptr_t)values) & 7u) == 0 && !hive_test_tiered_staged();
}

static hive_status upsert_locked(hive_tiered *t, uint64_t n, const uint64_t *keys, const uint64_t *values,
                                 hive_stream stream)
{
    static const char call[] = "hive_tiered_upsert";
    HIVE_TRY(check_n(n, call));
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_CHECK_ARG(keys != NULL, call, "keys is NULL");
    HIVE_CHECK_ARG(values != NULL, call, "values is NULL");
    int rk, rv;
    HIVE_TRY(reach_of(t, call, keys, "keys", &rk));
    HIVE_TRY(reach_of(t, call, values, "values", &rv));
    int direct = is_direct(rk, rv, HIVE_REACH_BOTH, keys, values);
    HIVE_TRY(hive_tiered_write_back(t, call));
    uint64_t skipped = 0;
    for (uint64_t at = 0; at < n; at += t->config.batch) {
        uint64_t step = n - at < t->config.batch ? n - at : t->config.batch;
        HIVE_TRY(hive_tiered_upsert_step(t, step, keys + at, values + at, direct, &skipped, stream));
    }
    return reserved_status(skipped, call);
}

hive_status hive_tiered_upsert(hive_tiered *tiered, uint64_t n, const uint64_t *keys,
                               const uint64_t *values, hive_stream stream)
{
    TIERED_CALL(tiered, "hive_tiered_upsert", upsert_locked(tiered, n, keys, values, stream));
}

static hive_status find_locked(hive_tiered *t, uint64_t n, const uint64_t *keys, uint64_t *values,
                               uint8_t *found, hive_stream stream)
{
    static const char call[] = "hive_tiered_find";
    HIVE_TRY(check_n(n, call));
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_CHECK_ARG(keys != NULL, call, "keys is NULL");
    /* The hot tier takes the arrays as they are when it reaches them all
     * where the host does (any host memory for a CPU hot tier; mapped pinned
     * or managed memory for a CUDA one) and they are 8-byte aligned: its
     * steps then skip the staging and the scatter of the hot hits
     * (tiered_find.c). */
    int rk, rv, rf;
    HIVE_TRY(reach_of(t, call, keys, "keys", &rk));
    HIVE_TRY(reach_of(t, call, values, "values", &rv));
    HIVE_TRY(reach_of(t, call, found, "found", &rf));
    int direct = is_direct(rk, rv, rf, keys, values);
    HIVE_TRY(hive_tiered_write_back(t, call));
    uint64_t skipped = 0;
    for (uint64_t at = 0; at < n; at += t->config.batch) {
        uint64_t step = n - at < t->config.batch ? n - at : t->config.batch;
        HIVE_TRY(hive_tiered_find_step(t, step, keys + at, values != NULL ? values + at : NULL,
                                       found != NULL ? found + at : NULL, direct, &skipped, stream));
    }
    return reserved_status(skipped, call);
}

hive_status hive_tiered_find(hive_tiered *tiered, uint64_t n, const uint64_t *keys, uint64_t *values,
                             uint8_t *found, hive_stream stream)
{
    TIERED_CALL(tiered, "hive_tiered_find", find_locked(tiered, n, keys, values, found, stream));
}

static hive_status erase_locked(hive_tiered *t, uint64_t n, const uint64_t *keys, uint8_t *results,
                                hive_stream stream)
{
    static const char call[] = "hive_tiered_erase";
    HIVE_TRY(check_n(n, call));
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_CHECK_ARG(keys != NULL, call, "keys is NULL");
    HIVE_TRY(reach_of(t, call, keys, "keys", NULL));
    HIVE_TRY(reach_of(t, call, results, "results", NULL));
    HIVE_TRY(hive_tiered_write_back(t, call));
    uint64_t skipped = 0;
    for (uint64_t at = 0; at < n; at += t->config.batch) {
        uint64_t step = n - at < t->config.batch ? n - at : t->config.batch;
        HIVE_TRY(hive_tiered_erase_step(t, step, keys + at, results != NULL ? results + at : NULL, &skipped,
                                        stream));
    }
    return reserved_status(skipped, call);
}

hive_status hive_tiered_erase(hive_tiered *tiered, uint64_t n, const uint64_t *keys, uint8_t *results,
                              hive_stream stream)
{
    TIERED_CALL(tiered, "hive_tiered_erase", erase_locked(tiered, n, keys, results, stream));
}

/* ---------------------------------------------------------------- size and stats */

static hive_status sizes(hive_tiered *t, uint64_t *hot, uint64_t *cold)
{
    HIVE_TRY(hive_cache_size(t->hot, hot));
    return hive_size(t->cold, cold);
}

static hive_status size_locked(hive_tiered *t, uint64_t *size)
{
    HIVE_CHECK_ARG(size != NULL, "hive_tiered_size", "size is NULL");
    return hive_size(t->cold, size); /* every key is cold; the hot tier holds copies */
}

hive_status hive_tiered_size(hive_tiered *tiered, uint64_t *size)
{
    TIERED_CALL(tiered, "hive_tiered_size", size_locked(tiered, size));
}

static hive_status stats_locked(hive_tiered *t, hive_tiered_stats *stats)
{
    HIVE_CHECK_ARG(stats != NULL, "hive_tiered_stats_get", "stats is NULL");
    HIVE_TRY(sizes(t, &t->stats.hot_size, &t->stats.cold_size));
    *stats = t->stats;
    return HIVE_SUCCESS;
}

hive_status hive_tiered_stats_get(hive_tiered *tiered, hive_tiered_stats *stats)
{
    TIERED_CALL(tiered, "hive_tiered_stats_get", stats_locked(tiered, stats));
}
