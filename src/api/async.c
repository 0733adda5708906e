/* async.c — the asynchronous calls (hive.h: hive_find_async and the rest):
 * arguments checked as the synchronous calls check them, then the request
 * enqueued by the backend, or, where it has no asynchronous work (the CPU),
 * run now through policy.c with its outcome written to the status words. */
#include <string.h>

#include "api/table.h"
#include "base/check.h"

/* A CPU table's call, run before returning: the outcome's counts are the
 * status, and the errors that only report counts (reserved keys, keys
 * without room, bad op codes) are not the call's. */
static hive_status run_now(hive_table *t, const hive_request *r, int may_erase, hive_async_status *status,
                           hive_stream stream, const char *call)
{
    memset(status, 0, sizeof *status);
    if (r->n == 0)
        return HIVE_SUCCESS;
    hive_batch_outcome o = {0};
    hive_status s = hive_policy_run(t, r, may_erase, stream, call, &o);
    if (s != HIVE_SUCCESS && s != HIVE_ERROR_RESERVED_KEY && s != HIVE_ERROR_TABLE_FULL &&
        !(s == HIVE_ERROR_INVALID_ARGUMENT && o.bad_ops != 0))
        return s;
    status->words[HIVE_ASYNC_INSERTED] = o.inserted;
    status->words[HIVE_ASYNC_ERASED] = o.erased;
    status->words[HIVE_ASYNC_RESERVED] = o.reserved;
    status->words[HIVE_ASYNC_FULL] = o.full;
    status->words[HIVE_ASYNC_BAD_OPS] = o.bad_ops;
    hive_clear_error();
    return HIVE_SUCCESS;
}

/* The request enqueued, growing first where it may insert (policy.c). */
static hive_status enqueue(hive_table *t, const hive_request *r, int may_erase, hive_async_status *status,
                           hive_stream stream, const char *call)
{
    HIVE_TRY(hive_check_array(t, status, 1, sizeof(uint64_t), call, "status"));
    if (t->ops->enqueue == NULL)
        return run_now(t, r, may_erase, status, stream, call);
    int mutates = may_erase || hive_request_may_insert(r);
    pthread_rwlock_rdlock(&t->resize_lock);
    hive_status s = hive_refuse_if_broken(t, call);
    if (s == HIVE_SUCCESS && hive_request_may_insert(r) && r->n > 0)
        s = hive_policy_room_for_async(t, r->n, stream);
    int captured = 0;
    if (s == HIVE_SUCCESS)
        s = t->ops->enqueue(t->impl, r, status->words, stream, &captured);
    if (s == HIVE_SUCCESS && mutates && r->n > 0) {
        __atomic_fetch_add(&t->unsettled, 1, __ATOMIC_SEQ_CST);
        if (captured)
            __atomic_store_n(&t->graphs_mutate, 1, __ATOMIC_SEQ_CST);
    }
    pthread_rwlock_unlock(&t->resize_lock);
    return s;
}

static hive_status find_async_entered(hive_table *t, uint64_t n, const void *keys, void *values,
                                      uint8_t *found, hive_async_status *status, hive_stream stream,
                                      const char *call)
{
    HIVE_TRY(hive_check_batch_n(n, call));
    if (n > 0)
        HIVE_TRY(hive_check_find_arrays(t, keys, values, found, call));
    hive_request r = {.n = n, .op = HIVE_OP_FIND, .keys = keys, .values_out = values, .found = found};
    return enqueue(t, &r, 0, status, stream, call);
}

hive_status hive_find_async(hive_table *table, uint64_t n, const void *keys, void *values, uint8_t *found,
                            hive_async_status *status, hive_stream stream)
{
    HIVE_ENTERED(table, "hive_find_async",
                 find_async_entered(table, n, keys, values, found, status, stream, "hive_find_async"));
}

static hive_status contains_async_entered(hive_table *t, uint64_t n, const void *keys, uint8_t *found,
                                          hive_async_status *status, hive_stream stream)
{
    static const char call[] = "hive_contains_async";
    HIVE_CHECK_ARG(n == 0 || found != NULL, call, "found is NULL");
    return find_async_entered(t, n, keys, NULL, found, status, stream, call);
}

hive_status hive_contains_async(hive_table *table, uint64_t n, const void *keys, uint8_t *found,
                                hive_async_status *status, hive_stream stream)
{
    HIVE_ENTERED(table, "hive_contains_async", contains_async_entered(table, n, keys, found, status, stream));
}

/* The checks every asynchronous call that may insert or erase shares. */
static hive_status check_mutating(hive_table *t, uint64_t n, const void *keys, uint8_t *results,
                                  hive_combine combine, const char *call)
{
    HIVE_TRY(hive_check_batch_n(n, call));
    HIVE_CHECK_ARG((unsigned)combine <= HIVE_COMBINE_MAX, call, "combine %d is not a hive_combine", (int)combine);
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(hive_check_array(t, keys, 1, hive_kv_bytes(t), call, "keys"));
    return hive_check_array(t, results, 0, 1, call, "results");
}

static hive_status insert_async_entered(hive_table *t, uint64_t n, const void *keys, const void *values,
                                        hive_combine combine, uint8_t *results, hive_async_status *status,
                                        hive_stream stream)
{
    static const char call[] = "hive_insert_async";
    HIVE_TRY(check_mutating(t, n, keys, results, combine, call));
    if (n > 0) {
        HIVE_TRY(hive_check_array(t, values, 1, hive_kv_bytes(t), call, "values"));
        HIVE_CHECK_ARG(results != NULL, call, "results is NULL (an asynchronous insert needs it)");
    }
    hive_request r = {.n = n, .op = HIVE_OP_UPSERT, .combine = combine, .keys = keys, .values_in = values,
                      .results = results};
    return enqueue(t, &r, 0, status, stream, call);
}

hive_status hive_insert_async(hive_table *table, uint64_t n, const void *keys, const void *values,
                              hive_combine combine, uint8_t *results, hive_async_status *status,
                              hive_stream stream)
{
    HIVE_ENTERED(table, "hive_insert_async",
                 insert_async_entered(table, n, keys, values, combine, results, status, stream));
}

static hive_status erase_async_entered(hive_table *t, uint64_t n, const void *keys, uint8_t *results,
                                       hive_async_status *status, hive_stream stream)
{
    static const char call[] = "hive_erase_async";
    HIVE_TRY(check_mutating(t, n, keys, results, HIVE_COMBINE_KEEP, call));
    hive_request r = {.n = n, .op = HIVE_OP_ERASE, .keys = keys, .results = results};
    return enqueue(t, &r, 1, status, stream, call);
}

hive_status hive_erase_async(hive_table *table, uint64_t n, const void *keys, uint8_t *results,
                             hive_async_status *status, hive_stream stream)
{
    HIVE_ENTERED(table, "hive_erase_async", erase_async_entered(table, n, keys, results, status, stream));
}

/* As hive_apply, except that values is required: whether a batch without
 * them inserts is in its op codes, which only a read-back would tell. */
static hive_status apply_async_entered(hive_table *t, uint64_t n, const uint8_t *ops, const void *keys,
                                       void *values, hive_combine combine, uint8_t *results,
                                       hive_async_status *status, hive_stream stream)
{
    static const char call[] = "hive_apply_async";
    HIVE_TRY(check_mutating(t, n, keys, results, combine, call));
    if (n > 0) {
        HIVE_TRY(hive_check_array(t, ops, 1, 1, call, "ops"));
        HIVE_TRY(hive_check_array(t, values, 1, hive_kv_bytes(t), call, "values"));
        HIVE_CHECK_ARG(results != NULL, call, "results is NULL (an asynchronous apply needs it)");
    }
    hive_request r = {.n = n, .op = HIVE_OP_FIND, .ops = ops, .combine = combine, .keys = keys,
                      .values_in = values, .values_out = values, .results = results};
    return enqueue(t, &r, 1, status, stream, call);
}

hive_status hive_apply_async(hive_table *table, uint64_t n, const uint8_t *ops, const void *keys, void *values,
                             hive_combine combine, uint8_t *results, hive_async_status *status,
                             hive_stream stream)
{
    HIVE_ENTERED(table, "hive_apply_async",
                 apply_async_entered(table, n, ops, keys, values, combine, results, status, stream));
}
