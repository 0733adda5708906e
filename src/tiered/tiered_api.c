/* tiered_api.c — every hive_tiered_* entry point: check the handle and the
 * arguments, take the handle's lock, and run the call step by step (at most
 * config.batch keys a step) over the two tiers' public calls.  Keys move
 * between the tiers only in tiered_move.c; this file decides which keys do:
 *
 *   upsert  unique keys (tiered_dedup.c) -> hot assign (present keys take
 *           their value there) -> the rest enter the hot tier (admit)
 *   find    hot find_missed -> the misses in the cold tier -> the cold hits,
 *           made unique, enter the hot tier (admit) unless PROMOTE_NEVER
 *   erase   hot erase -> the keys it did not find, in the cold tier
 *
 * Each relies on the invariant that a key is in one tier only: a key the hot
 * tier has is in no cold copy to update or erase, and one it lacks is
 * wholly the cold tier's. */
#include <sched.h>
#include <string.h>

#include "base/alloc.h"
#include "base/check.h"
#include "cache/cache_table.h"
#include "tiered/tiered.h"

/* Larger batches are surely a mistake (the dictionary's bound). */
#define MAX_CALL_KEYS (1ull << 40)

static int reserved(uint64_t key) { return key >= HIVE_KV64_RESERVED_MIN; }

/* ---------------------------------------------------------------- handle */

static void free_buffers(hive_tiered *t)
{
    if (t->hot != NULL) {
        void *staged[] = {t->s_keys,    t->s_values,           t->s_missed, t->s_missed_at,
                          t->s_evicted, t->s_evicted_values, t->s_flags};
        for (size_t i = 0; i < sizeof staged / sizeof staged[0]; i++)
            t->hot->ops->free_io(t->hot->impl, staged[i]);
    }
    hive_host_free(t->at);
    hive_host_free(t->c_values);
    hive_host_free(t->c_flags);
    hive_tiered_dedup_free(&t->dedup);
}

static hive_status alloc_buffers(hive_tiered *t)
{
    static const char call[] = "hive_tiered_create";
    size_t n = t->config.batch, w = n * sizeof(uint64_t);
    const hive_cache *h = t->hot;
    t->s_keys = h->ops->alloc_io(h->impl, w);
    t->s_values = h->ops->alloc_io(h->impl, w);
    t->s_missed = h->ops->alloc_io(h->impl, w);
    t->s_missed_at = h->ops->alloc_io(h->impl, w);
    t->s_evicted = h->ops->alloc_io(h->impl, w);
    t->s_evicted_values = h->ops->alloc_io(h->impl, w);
    t->s_flags = h->ops->alloc_io(h->impl, n);
    t->at = hive_host_calloc(n, sizeof *t->at);
    t->c_values = hive_host_calloc(n, sizeof *t->c_values);
    t->c_flags = hive_host_calloc(n, 1);
    if (t->s_keys == NULL || t->s_values == NULL || t->s_missed == NULL || t->s_missed_at == NULL ||
        t->s_evicted == NULL || t->s_evicted_values == NULL || t->s_flags == NULL || t->at == NULL ||
        t->c_values == NULL || t->c_flags == NULL)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call,
                         "no memory for the staging buffers of %zu keys (config.batch)", n);
    return hive_tiered_dedup_init(&t->dedup, t->config.batch);
}

/* The two tiers: a cache of 8-byte values (I64, dim 1; LRU, so that every
 * new key is admitted and scores are the library's) and a KV64 dictionary
 * that never shrinks (tiered_move.c's room argument). */
static hive_status open_tiers(hive_tiered *t)
{
    hive_cache_config hc = HIVE_CACHE_CONFIG_INIT;
    hc.backend = t->config.hot_backend;
    hc.device = t->config.device;
    hc.capacity = t->config.hot_capacity;
    hc.dim = 1;
    hc.value_type = HIVE_VALUE_I64;
    hc.policy = HIVE_SCORE_LRU;
    hc.threads = t->config.threads;
    HIVE_TRY(hive_cache_create(&hc, &t->hot));
    HIVE_TRY(hive_cache_get_config(t->hot, &hc));
    t->config.hot_backend = hc.backend;
    t->config.hot_capacity = hc.capacity;

    hive_config cc = HIVE_CONFIG_INIT;
    cc.backend = HIVE_BACKEND_CPU;
    cc.key_width = HIVE_KV64;
    cc.initial_capacity = t->config.cold_capacity;
    cc.min_load_factor = 0.0;
    cc.threads = t->config.threads;
    HIVE_TRY(hive_create(&cc, &t->cold));
    HIVE_TRY(hive_get_config(t->cold, &cc));
    t->config.threads = cc.threads;
    return HIVE_SUCCESS;
}

static void close_tiers(hive_tiered *t)
{
    free_buffers(t);
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

/* ---------------------------------------------------------------- upsert */

static hive_status upsert_step(hive_tiered *t, uint64_t n, const uint64_t *keys, const uint64_t *values,
                               uint64_t *skipped, hive_stream stream, const char *call)
{
    uint64_t u = 0;
    hive_tiered_dedup_begin(&t->dedup);
    for (uint64_t i = 0; i < n; i++) {
        if (reserved(keys[i]))
            ++*skipped;
        else
            hive_tiered_dedup_add(&t->dedup, keys[i], values[i], t->s_keys, t->s_values, &u);
    }
    if (u == 0)
        return HIVE_SUCCESS;
    /* Keys already hot take their value there; the hot tier then has none of
     * the rest, which is what admit requires. */
    HIVE_TRY(hive_cache_assign(t->hot, u, t->s_keys, t->s_values, NULL, t->s_flags, stream));
    uint64_t m = 0;
    for (uint64_t i = 0; i < u; i++) {
        if (!t->s_flags[i]) {
            t->s_keys[m] = t->s_keys[i];
            t->s_values[m] = t->s_values[i];
            m++;
        }
    }
    return hive_tiered_admit(t, m, stream, call);
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
    uint64_t skipped = 0;
    for (uint64_t at = 0; at < n; at += t->config.batch) {
        uint64_t step = n - at < t->config.batch ? n - at : t->config.batch;
        HIVE_TRY(upsert_step(t, step, keys + at, values + at, &skipped, stream, call));
    }
    return reserved_status(skipped, call);
}

hive_status hive_tiered_upsert(hive_tiered *tiered, uint64_t n, const uint64_t *keys,
                               const uint64_t *values, hive_stream stream)
{
    TIERED_CALL(tiered, "hive_tiered_upsert", upsert_locked(tiered, n, keys, values, stream));
}

/* ---------------------------------------------------------------- find */

/* The cold tier's hits of a step, made unique, enter the hot tier.  The
 * staging arrays are free again once the hot and cold results are out. */
static hive_status promote(hive_tiered *t, uint64_t missed, hive_stream stream, const char *call)
{
    uint64_t m = 0;
    hive_tiered_dedup_begin(&t->dedup);
    for (uint64_t k = 0; k < missed; k++)
        if (t->c_flags[k])
            hive_tiered_dedup_add(&t->dedup, t->s_missed[k], t->c_values[k], t->s_keys, t->s_values, &m);
    HIVE_TRY(hive_tiered_admit(t, m, stream, call));
    t->stats.promoted += m;
    return HIVE_SUCCESS;
}

static hive_status find_step(hive_tiered *t, uint64_t n, const uint64_t *keys, uint64_t *values,
                             uint8_t *found, uint64_t *skipped, hive_stream stream, const char *call)
{
    /* Staged: the step's unreserved keys, t->at[j] being key j's position. */
    uint64_t u = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (reserved(keys[i])) {
            ++*skipped;
            if (found != NULL)
                found[i] = 0;
            continue;
        }
        t->s_keys[u] = keys[i];
        t->at[u++] = (uint32_t)i;
    }
    if (u == 0)
        return HIVE_SUCCESS;
    uint64_t missed = 0;
    HIVE_TRY(hive_cache_find_missed(t->hot, u, t->s_keys, t->s_values, NULL, t->s_missed, t->s_missed_at,
                                    &missed, stream));
    /* s_flags[j]: key j was a hot hit. */
    memset(t->s_flags, 1, u);
    for (uint64_t k = 0; k < missed; k++)
        t->s_flags[t->s_missed_at[k]] = 0;
    for (uint64_t j = 0; j < u; j++) {
        if (!t->s_flags[j])
            continue;
        if (values != NULL)
            values[t->at[j]] = t->s_values[j];
        if (found != NULL)
            found[t->at[j]] = 1;
    }
    t->stats.hot_hits += u - missed;
    if (missed == 0)
        return HIVE_SUCCESS;

    HIVE_TRY(hive_find(t->cold, missed, t->s_missed, t->c_values, t->c_flags, NULL));
    uint64_t cold_hits = 0;
    for (uint64_t k = 0; k < missed; k++) {
        uint32_t i = t->at[t->s_missed_at[k]];
        if (t->c_flags[k]) {
            cold_hits++;
            if (values != NULL)
                values[i] = t->c_values[k];
        }
        if (found != NULL)
            found[i] = t->c_flags[k];
    }
    t->stats.cold_hits += cold_hits;
    t->stats.misses += missed - cold_hits;
    if (cold_hits == 0 || t->config.promote == HIVE_TIERED_PROMOTE_NEVER)
        return HIVE_SUCCESS;
    return promote(t, missed, stream, call);
}

static hive_status find_locked(hive_tiered *t, uint64_t n, const uint64_t *keys, uint64_t *values,
                               uint8_t *found, hive_stream stream)
{
    static const char call[] = "hive_tiered_find";
    HIVE_TRY(check_n(n, call));
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_CHECK_ARG(keys != NULL, call, "keys is NULL");
    uint64_t skipped = 0;
    for (uint64_t at = 0; at < n; at += t->config.batch) {
        uint64_t step = n - at < t->config.batch ? n - at : t->config.batch;
        HIVE_TRY(find_step(t, step, keys + at, values != NULL ? values + at : NULL,
                           found != NULL ? found + at : NULL, &skipped, stream, call));
    }
    return reserved_status(skipped, call);
}

hive_status hive_tiered_find(hive_tiered *tiered, uint64_t n, const uint64_t *keys, uint64_t *values,
                             uint8_t *found, hive_stream stream)
{
    TIERED_CALL(tiered, "hive_tiered_find", find_locked(tiered, n, keys, values, found, stream));
}

/* ---------------------------------------------------------------- erase */

static hive_status erase_step(hive_tiered *t, uint64_t n, const uint64_t *keys, uint8_t *results,
                              uint64_t *skipped, hive_stream stream)
{
    uint64_t u = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (reserved(keys[i])) {
            ++*skipped;
            if (results != NULL)
                results[i] = HIVE_RESULT_REJECTED_RESERVED;
            continue;
        }
        t->s_keys[u] = keys[i];
        t->at[u++] = (uint32_t)i;
    }
    if (u == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(hive_cache_erase(t->hot, u, t->s_keys, t->s_flags, stream));
    /* The keys the hot tier did not have, compacted for the cold tier (a
     * repeat of a key the hot tier erased is not there either: one tier). */
    uint64_t c = 0;
    for (uint64_t j = 0; j < u; j++) {
        if (t->s_flags[j] == HIVE_RESULT_ERASED) {
            if (results != NULL)
                results[t->at[j]] = HIVE_RESULT_ERASED;
            continue;
        }
        t->s_missed[c] = t->s_keys[j];
        t->at[c++] = t->at[j];
    }
    if (c == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(hive_erase(t->cold, c, t->s_missed, t->c_flags, NULL));
    if (results != NULL)
        for (uint64_t k = 0; k < c; k++)
            results[t->at[k]] = t->c_flags[k];
    return HIVE_SUCCESS;
}

static hive_status erase_locked(hive_tiered *t, uint64_t n, const uint64_t *keys, uint8_t *results,
                                hive_stream stream)
{
    static const char call[] = "hive_tiered_erase";
    HIVE_TRY(check_n(n, call));
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_CHECK_ARG(keys != NULL, call, "keys is NULL");
    uint64_t skipped = 0;
    for (uint64_t at = 0; at < n; at += t->config.batch) {
        uint64_t step = n - at < t->config.batch ? n - at : t->config.batch;
        HIVE_TRY(erase_step(t, step, keys + at, results != NULL ? results + at : NULL, &skipped, stream));
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
    uint64_t hot = 0, cold = 0;
    HIVE_TRY(sizes(t, &hot, &cold));
    *size = hot + cold; /* one tier a key */
    return HIVE_SUCCESS;
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
