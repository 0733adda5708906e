/* api.c — every hive_* entry point: check the handle and the arguments, then
 * hand the call to policy.c (batches, reserve, clear) or to the table's
 * backend.  Configs are checked and resolved in config.c. */
#define _GNU_SOURCE /* pthread_rwlockattr_setkind_np: a writer-preferring resize lock */
#include <sched.h>
#include <string.h>

#include "base/alloc.h"
#include "backend.h"
#include "base/check.h"
#include "api/table.h"

/* The resize lock prefers writers: with glibc's default (readers first), a
 * steady stream of batches on other threads, each taking it for reading,
 * can hold off a resize indefinitely.  No thread takes it for reading twice,
 * which a writer-preferring lock would deadlock. */
static int init_resize_lock(pthread_rwlock_t *lock)
{
    pthread_rwlockattr_t attr;
    if (pthread_rwlockattr_init(&attr) != 0)
        return -1;
    pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    int r = pthread_rwlock_init(lock, &attr);
    pthread_rwlockattr_destroy(&attr);
    return r;
}

hive_status hive_create(const hive_config *config, hive_table **table)
{
    static const char call[] = "hive_create";
    hive_clear_error();
    HIVE_CHECK_ARG(table != NULL, call, "table (the output handle) is NULL");
    hive_config c;
    const hive_backend_ops *ops;
    HIVE_TRY(hive_config_resolve(config, &c, &ops));

    hive_table *t = hive_host_calloc(1, sizeof *t);
    if (t == NULL)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "no host memory for the table handle");
    if (init_resize_lock(&t->resize_lock) != 0) {
        hive_host_free(t);
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "cannot initialise the table lock");
    }
    t->config = c;
    t->ops = ops;
    t->shrink_below = UINT64_MAX;
    hive_status s = ops->create(&t->config, &t->impl);
    if (s != HIVE_SUCCESS) {
        pthread_rwlock_destroy(&t->resize_lock);
        hive_host_free(t);
        return s;
    }
    t->magic = HIVE_TABLE_MAGIC;
    hive_debug("created a %s table: %s, %llu slots", ops->name,
               c.key_width == HIVE_KV32 ? "KV32" : "KV64",
               (unsigned long long)hive_policy_capacity(t));
    *table = t;
    return HIVE_SUCCESS;
}

hive_status hive_refuse_if_broken(const hive_table *t, const char *call)
{
    if (!__atomic_load_n(&t->resized.broken, __ATOMIC_SEQ_CST))
        return HIVE_SUCCESS;
    return hive_fail(HIVE_ERROR_CUDA, call,
                     "an earlier resize failed, and so did its recovery (the GPU's context may be "
                     "lost): only hive_clear and hive_destroy work on this table");
}

/* The count of calls inside goes up before the handle is checked, and
 * hive_destroy marks the handle before it reads the count (both sequentially consistent): either
 * the call sees the mark and leaves, or hive_destroy sees the call and
 * waits for it. */
hive_status hive_table_enter(hive_table *t, const char *call)
{
    HIVE_CHECK_ARG(t != NULL, call, "table is NULL");
    __atomic_fetch_add(&t->calls, 1, __ATOMIC_SEQ_CST);
    uint32_t magic = __atomic_load_n(&t->magic, __ATOMIC_SEQ_CST);
    if (magic != HIVE_TABLE_MAGIC) {
        __atomic_fetch_sub(&t->calls, 1, __ATOMIC_SEQ_CST);
        return hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call,
                         magic == HIVE_TABLE_DYING ? "table is being destroyed"
                                                   : "table is not a live hive table (destroyed, or not from hive_create)");
    }
    return HIVE_SUCCESS;
}

void hive_table_leave(hive_table *t)
{
    __atomic_fetch_sub(&t->calls, 1, __ATOMIC_SEQ_CST);
}

hive_status hive_destroy(hive_table *table)
{
    static const char call[] = "hive_destroy";
    hive_clear_error();
    HIVE_CHECK_ARG(table != NULL, call, "table is NULL");
    uint32_t live = HIVE_TABLE_MAGIC;
    HIVE_CHECK_ARG(__atomic_compare_exchange_n(&table->magic, &live, HIVE_TABLE_DYING, 0, __ATOMIC_SEQ_CST,
                                               __ATOMIC_SEQ_CST),
                   call, live == HIVE_TABLE_DYING ? "table is already being destroyed"
                                                  : "table is not a live hive table (destroyed, or not from hive_create)");
    /* Calls in flight hold no lock that this needs; each ends on its own. */
    while (__atomic_load_n(&table->calls, __ATOMIC_SEQ_CST) != 0)
        sched_yield();
    table->ops->destroy(table->impl);
    pthread_rwlock_destroy(&table->resize_lock);
    table->magic = 0;
    hive_host_free(table);
    return HIVE_SUCCESS;
}

hive_status hive_get_config(const hive_table *table, hive_config *config)
{
    static const char call[] = "hive_get_config";
    hive_clear_error();
    hive_table *t = (hive_table *)table; /* only its call count changes */
    HIVE_TRY(hive_table_enter(t, call));
    hive_status s = config != NULL ? HIVE_SUCCESS
                                   : hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call, "config is NULL");
    if (s == HIVE_SUCCESS) {
        uint32_t bytes = hive_config_bytes_of(config);
        memcpy(config, &table->config, bytes);
        config->struct_size = bytes; /* the caller's struct, as much of it as was written */
    }
    hive_table_leave(t);
    return s;
}

/* ---------------------------------------------------------------- batches */

hive_status hive_check_array(const hive_table *t, const void *p, int required, size_t align,
                             const char *call, const char *what)
{
    if (p == NULL) {
        HIVE_CHECK_ARG(!required, call, "%s is NULL", what);
        return HIVE_SUCCESS;
    }
    HIVE_CHECK_ARG((uintptr_t)p % align == 0, call, "%s (%p) is not aligned to its %zu-byte elements",
                   what, p, align);
    return t->ops->check_pointer(t->impl, p, call, what);
}

hive_status hive_check_find_arrays(const hive_table *t, const void *keys, const void *values, const uint8_t *found,
                                   const char *call)
{
    HIVE_TRY(hive_check_array(t, keys, 1, hive_kv_bytes(t), call, "keys"));
    HIVE_TRY(hive_check_array(t, values, 0, hive_kv_bytes(t), call, "values"));
    HIVE_TRY(hive_check_array(t, found, 0, 1, call, "found"));
    HIVE_CHECK_ARG(values != NULL || found != NULL, call, "values and found are both NULL");
    return HIVE_SUCCESS;
}

size_t hive_kv_bytes(const hive_table *t)
{
    return t->config.key_width == HIVE_KV64 ? 8 : 4;
}

hive_status hive_check_batch_n(uint64_t n, const char *call)
{
    HIVE_CHECK_ARG(n <= HIVE_MAX_BATCH, call, "n = %llu is beyond what a table can address",
                   (unsigned long long)n);
    return HIVE_SUCCESS;
}

static hive_status insert_entered(hive_table *t, uint64_t n, const void *keys, const void *values,
                                  hive_combine combine, uint8_t *results, hive_stream stream)
{
    static const char call[] = "hive_insert";
    HIVE_TRY(hive_check_batch_n(n, call));
    HIVE_CHECK_ARG((unsigned)combine <= HIVE_COMBINE_MAX, call,
                   "combine %d is not a hive_combine", (int)combine);
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(hive_check_array(t, keys, 1, hive_kv_bytes(t), call, "keys"));
    HIVE_TRY(hive_check_array(t, values, 1, hive_kv_bytes(t), call, "values"));
    HIVE_TRY(hive_check_array(t, results, 0, 1, call, "results"));
    hive_request r = {.n = n, .op = HIVE_OP_UPSERT, .combine = combine, .keys = keys,
                      .values_in = values, .results = results};
    return hive_policy_run(t, &r, 0, stream, call, NULL);
}

hive_status hive_insert(hive_table *table, uint64_t n, const void *keys, const void *values,
                        hive_combine combine, uint8_t *results, hive_stream stream)
{
    HIVE_ENTERED(table, "hive_insert", insert_entered(table, n, keys, values, combine, results, stream));
}

static hive_status find_entered(hive_table *t, uint64_t n, const void *keys, void *values,
                                uint8_t *found, hive_stream stream)
{
    static const char call[] = "hive_find";
    HIVE_TRY(hive_check_batch_n(n, call));
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(hive_check_find_arrays(t, keys, values, found, call));
    hive_request r = {.n = n, .op = HIVE_OP_FIND, .keys = keys, .values_out = values, .found = found};
    return hive_policy_run(t, &r, 0, stream, call, NULL);
}

hive_status hive_find(hive_table *table, uint64_t n, const void *keys, void *values,
                      uint8_t *found, hive_stream stream)
{
    HIVE_ENTERED(table, "hive_find", find_entered(table, n, keys, values, found, stream));
}

static hive_status contains_entered(hive_table *t, uint64_t n, const void *keys, uint8_t *found,
                                    hive_stream stream)
{
    static const char call[] = "hive_contains";
    HIVE_TRY(hive_check_batch_n(n, call));
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(hive_check_array(t, keys, 1, hive_kv_bytes(t), call, "keys"));
    HIVE_TRY(hive_check_array(t, found, 1, 1, call, "found"));
    hive_request r = {.n = n, .op = HIVE_OP_FIND, .keys = keys, .found = found};
    return hive_policy_run(t, &r, 0, stream, call, NULL);
}

hive_status hive_contains(hive_table *table, uint64_t n, const void *keys, uint8_t *found,
                          hive_stream stream)
{
    HIVE_ENTERED(table, "hive_contains", contains_entered(table, n, keys, found, stream));
}

static hive_status erase_entered(hive_table *t, uint64_t n, const void *keys, uint8_t *results,
                                 hive_stream stream)
{
    static const char call[] = "hive_erase";
    HIVE_TRY(hive_check_batch_n(n, call));
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(hive_check_array(t, keys, 1, hive_kv_bytes(t), call, "keys"));
    HIVE_TRY(hive_check_array(t, results, 0, 1, call, "results"));
    hive_request r = {.n = n, .op = HIVE_OP_ERASE, .keys = keys, .results = results};
    return hive_policy_run(t, &r, 1, stream, call, NULL);
}

hive_status hive_erase(hive_table *table, uint64_t n, const void *keys, uint8_t *results,
                       hive_stream stream)
{
    HIVE_ENTERED(table, "hive_erase", erase_entered(table, n, keys, results, stream));
}

static hive_status apply_entered(hive_table *t, uint64_t n, const uint8_t *ops, const void *keys,
                                 void *values, hive_combine combine, uint8_t *results,
                                 hive_stream stream)
{
    static const char call[] = "hive_apply";
    HIVE_TRY(hive_check_batch_n(n, call));
    HIVE_CHECK_ARG((unsigned)combine <= HIVE_COMBINE_MAX, call,
                   "combine %d is not a hive_combine", (int)combine);
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(hive_check_array(t, ops, 1, 1, call, "ops"));
    HIVE_TRY(hive_check_array(t, keys, 1, hive_kv_bytes(t), call, "keys"));
    HIVE_TRY(hive_check_array(t, values, 0, hive_kv_bytes(t), call, "values"));
    HIVE_TRY(hive_check_array(t, results, 0, 1, call, "results"));
    hive_request r = {.n = n, .op = HIVE_OP_FIND, .ops = ops, .combine = combine, .keys = keys,
                      .values_in = values, .values_out = values, .results = results};
    if (values == NULL) { /* allowed when no element inserts */
        uint64_t inserts = 0;
        HIVE_TRY(hive_refuse_if_broken(t, call));
        HIVE_TRY(t->ops->count_inserts(t->impl, &r, &inserts, stream));
        HIVE_CHECK_ARG(inserts == 0, call, "values is NULL, and %llu elements insert",
                       (unsigned long long)inserts);
    }
    return hive_policy_run(t, &r, 1, stream, call, NULL);
}

hive_status hive_apply(hive_table *table, uint64_t n, const uint8_t *ops, const void *keys,
                       void *values, hive_combine combine, uint8_t *results, hive_stream stream)
{
    HIVE_ENTERED(table, "hive_apply",
                 apply_entered(table, n, ops, keys, values, combine, results, stream));
}

/* ---------------------------------------------------------------- whole table */

static hive_status size_entered(hive_table *t, uint64_t *size)
{
    HIVE_CHECK_ARG(size != NULL, "hive_size", "size is NULL");
    HIVE_TRY(hive_policy_settle(t));
    *size = __atomic_load_n(&t->size, __ATOMIC_SEQ_CST);
    return HIVE_SUCCESS;
}

hive_status hive_size(hive_table *table, uint64_t *size)
{
    HIVE_ENTERED(table, "hive_size", size_entered(table, size));
}

static hive_status clear_entered(hive_table *t, hive_stream stream)
{
    pthread_rwlock_wrlock(&t->resize_lock);
    hive_status s = hive_policy_refuse_if_pinned(t, "hive_clear");
    if (s == HIVE_SUCCESS)
        s = t->ops->clear(t->impl, stream);
    if (s == HIVE_SUCCESS) {
        __atomic_store_n(&t->resized.broken, 0, __ATOMIC_SEQ_CST); /* empty, as a fresh table */
        s = hive_policy_clear(t, stream);
    }
    pthread_rwlock_unlock(&t->resize_lock);
    return s;
}

hive_status hive_clear(hive_table *table, hive_stream stream)
{
    HIVE_ENTERED(table, "hive_clear", clear_entered(table, stream));
}

static hive_status reserve_entered(hive_table *t, uint64_t capacity, hive_stream stream)
{
    HIVE_CHECK_ARG(capacity <= HIVE_MAX_SLOTS, "hive_reserve", "capacity %llu is beyond 2^37 slots",
                   (unsigned long long)capacity);
    return hive_policy_reserve(t, capacity, stream);
}

hive_status hive_reserve(hive_table *table, uint64_t capacity, hive_stream stream)
{
    HIVE_ENTERED(table, "hive_reserve", reserve_entered(table, capacity, stream));
}

static hive_status export_entered(hive_table *t, uint64_t capacity, void *keys, void *values,
                                  uint64_t *count, hive_stream stream)
{
    static const char call[] = "hive_export";
    HIVE_CHECK_ARG(count != NULL, call, "count is NULL");
    HIVE_TRY(hive_policy_settle(t));
    pthread_rwlock_wrlock(&t->resize_lock);
    uint64_t size = __atomic_load_n(&t->size, __ATOMIC_SEQ_CST);
    /* A user kernel may still be adding keys through a device view. */
    hive_status s = hive_policy_refuse_if_pinned(t, call);
    *count = size;
    if (s != HIVE_SUCCESS)
        ;
    else if (capacity < size)
        s = hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call,
                      "capacity %llu is smaller than the size %llu",
                      (unsigned long long)capacity, (unsigned long long)size);
    else if (size > 0 && (keys == NULL || values == NULL))
        s = hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call, "keys or values is NULL");
    else if (size > 0 && (s = hive_check_array(t, keys, 1, hive_kv_bytes(t), call, "keys")) == HIVE_SUCCESS &&
             (s = hive_check_array(t, values, 1, hive_kv_bytes(t), call, "values")) == HIVE_SUCCESS &&
             (s = hive_refuse_if_broken(t, call)) == HIVE_SUCCESS)
        s = t->ops->export_pairs(t->impl, capacity, keys, values, count, stream);
    pthread_rwlock_unlock(&t->resize_lock);
    return s;
}

hive_status hive_export(hive_table *table, uint64_t capacity, void *keys, void *values,
                        uint64_t *count, hive_stream stream)
{
    HIVE_ENTERED(table, "hive_export", export_entered(table, capacity, keys, values, count, stream));
}

/* The one filler of hive_stats: the backend's shape and stash count, api's
 * counters, the resize driver's. */
static hive_status stats_entered(hive_table *t, hive_stats *stats)
{
    static const char call[] = "hive_stats_get";
    HIVE_CHECK_ARG(stats != NULL, call, "stats is NULL");
    memset(stats, 0, sizeof *stats);
    HIVE_TRY(hive_policy_settle(t));
    uint32_t S = t->config.bucket_slots;
    pthread_rwlock_rdlock(&t->resize_lock);
    hive_shape shape;
    t->ops->shape(t->impl, &shape);
    stats->capacity = shape.buckets * S;
    stats->buckets = shape.buckets;
    stats->bucket_slots = S;
    stats->lanes_per_op = t->config.lanes_per_op;
    stats->stash_capacity = shape.stash_buckets * S;
    stats->bytes_held = shape.bytes_held;
    hive_status s = hive_refuse_if_broken(t, call);
    if (s == HIVE_SUCCESS)
        s = t->ops->stash_live(t->impl, &stats->stash_size);
    pthread_rwlock_unlock(&t->resize_lock);
    stats->size = __atomic_load_n(&t->size, __ATOMIC_SEQ_CST);
    stats->load_factor = stats->capacity ? (double)stats->size / (double)stats->capacity : 0.0;
    stats->grows = __atomic_load_n(&t->grows, __ATOMIC_SEQ_CST);
    stats->shrinks = __atomic_load_n(&t->shrinks, __ATOMIC_SEQ_CST);
    stats->shrinks_undone = __atomic_load_n(&t->shrinks_undone, __ATOMIC_SEQ_CST);
    stats->buckets_split = __atomic_load_n(&t->resized.buckets_split, __ATOMIC_SEQ_CST);
    stats->buckets_merged = __atomic_load_n(&t->resized.buckets_merged, __ATOMIC_SEQ_CST);
    stats->evictions = __atomic_load_n(&t->evictions, __ATOMIC_SEQ_CST);
    for (int i = 0; i < 4; i++)
        stats->insert_steps[i] = __atomic_load_n(&t->insert_steps[i], __ATOMIC_SEQ_CST);
    return s;
}

hive_status hive_stats_get(hive_table *table, hive_stats *stats)
{
    HIVE_ENTERED(table, "hive_stats_get", stats_entered(table, stats));
}
