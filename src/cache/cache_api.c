/* cache_api.c — every hive_cache_* entry point but save and load
 * (cache_io.c): check the handle and the arguments, map the call onto one
 * hive_cache_batch (cache_view.h), and run it on the cache's backend inside
 * the group lock as a reader or a writer (hive.h, "Concurrency").  Configs
 * are checked and resolved in cache_config.c. */
#include <sched.h>
#include <string.h>

#include "base/alloc.h"
#include "base/check.h"
#include "cache/cache_table.h"

/* Larger batches are surely a mistake (the dictionary's bound). */
#define MAX_BATCH (1ull << 40)

static const char *policy_name(uint32_t policy)
{
    static const char *const names[] = {"LRU", "LFU", "EPOCH_LRU", "EPOCH_LFU", "CUSTOM"};
    return policy <= HIVE_SCORE_CUSTOM ? names[policy] : "?";
}

/* ---------------------------------------------------------------- handle */

hive_status hive_cache_create(const hive_cache_config *config, hive_cache **cache)
{
    static const char call[] = "hive_cache_create";
    hive_clear_error();
    HIVE_CHECK_ARG(cache != NULL, call, "cache (the output handle) is NULL");
    hive_cache_config cfg;
    uint64_t buckets;
    const hive_cache_backend_ops *ops;
    HIVE_TRY(hive_cache_config_resolve(config, &cfg, &buckets, &ops));

    hive_cache *c = hive_host_calloc(1, sizeof *c);
    if (c == NULL)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "no host memory for the cache handle");
    if (hive_group_lock_init(&c->group) != 0) {
        hive_host_free(c);
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "cannot initialise the cache's lock");
    }
    c->config = cfg;
    c->buckets = buckets;
    c->value_bytes = cfg.dim * hive_value_type_size(cfg.value_type);
    c->ops = ops;
    hive_status s = ops->create(&c->config, buckets, &c->impl);
    if (s != HIVE_SUCCESS) {
        hive_group_lock_destroy(&c->group);
        hive_host_free(c);
        return s;
    }
    c->magic = HIVE_CACHE_MAGIC;
    hive_debug("created a %s cache: %llu slots of %u-byte values, policy %s", ops->name,
               (unsigned long long)cfg.capacity, c->value_bytes, policy_name(cfg.policy));
    *cache = c;
    return HIVE_SUCCESS;
}

/* The count goes up before the handle is checked and hive_cache_destroy
 * marks the handle before it reads the count (both sequentially
 * consistent): either the call sees the mark and leaves, or destroy sees
 * the call and waits for it (as the dictionary's table_enter). */
hive_status hive_cache_enter(hive_cache *c, const char *call)
{
    HIVE_CHECK_ARG(c != NULL, call, "cache is NULL");
    __atomic_fetch_add(&c->calls, 1, __ATOMIC_SEQ_CST);
    uint32_t magic = __atomic_load_n(&c->magic, __ATOMIC_SEQ_CST);
    if (magic != HIVE_CACHE_MAGIC) {
        __atomic_fetch_sub(&c->calls, 1, __ATOMIC_SEQ_CST);
        return hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call,
                         magic == HIVE_CACHE_DYING
                             ? "cache is being destroyed"
                             : "cache is not a live hive cache (destroyed, or not from hive_cache_create)");
    }
    return HIVE_SUCCESS;
}

void hive_cache_leave(hive_cache *c) { __atomic_fetch_sub(&c->calls, 1, __ATOMIC_SEQ_CST); }

hive_status hive_cache_destroy(hive_cache *cache)
{
    static const char call[] = "hive_cache_destroy";
    hive_clear_error();
    HIVE_CHECK_ARG(cache != NULL, call, "cache is NULL");
    uint32_t live = HIVE_CACHE_MAGIC;
    HIVE_CHECK_ARG(__atomic_compare_exchange_n(&cache->magic, &live, HIVE_CACHE_DYING, 0,
                                               __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST),
                   call,
                   live == HIVE_CACHE_DYING
                       ? "cache is already being destroyed"
                       : "cache is not a live hive cache (destroyed, or not from hive_cache_create)");
    /* Calls in flight hold nothing this needs; each ends on its own (one
     * waiting for the group lock gets it from those ahead of it). */
    while (__atomic_load_n(&cache->calls, __ATOMIC_SEQ_CST) != 0)
        sched_yield();
    cache->ops->destroy(cache->impl);
    hive_group_lock_destroy(&cache->group);
    cache->magic = 0;
    hive_host_free(cache);
    return HIVE_SUCCESS;
}

static hive_status get_config_entered(const hive_cache *c, hive_cache_config *config)
{
    HIVE_CHECK_ARG(config != NULL, "hive_cache_get_config", "config is NULL");
    memcpy(config, &c->config, hive_cache_config_bytes_of(config));
    return HIVE_SUCCESS;
}

hive_status hive_cache_get_config(const hive_cache *cache, hive_cache_config *config)
{
    hive_cache *c = (hive_cache *)cache; /* only its call count changes */
    HIVE_CACHE_ENTERED(c, "hive_cache_get_config", get_config_entered(c, config));
}

/* ---------------------------------------------------------------- arguments */

/* An array argument of a call: NULL only where not required, aligned to its
 * elements (a misaligned array would fault a GPU's context), and in memory
 * the backend can reach. */
typedef struct array_arg {
    const void *p;
    int required;
    size_t align;
    const char *what;
} array_arg;

#define ARRAY_ARGS(c, call, ...) \
    check_arrays((c), (call), (const array_arg[]){__VA_ARGS__}, \
                 sizeof((const array_arg[]){__VA_ARGS__}) / sizeof(array_arg))

static hive_status check_arrays(const hive_cache *c, const char *call, const array_arg *a,
                                size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (a[i].p == NULL) {
            HIVE_CHECK_ARG(!a[i].required, call, "%s is NULL", a[i].what);
            continue;
        }
        HIVE_CHECK_ARG((uintptr_t)a[i].p % a[i].align == 0, call,
                       "%s (%p) is not aligned to its %zu-byte elements", a[i].what, a[i].p,
                       a[i].align);
        HIVE_TRY(c->ops->check_pointer(c->impl, a[i].p, call, a[i].what));
    }
    return HIVE_SUCCESS;
}

/* Bytes of one element of the cache's values: the alignment values need. */
static size_t value_align(const hive_cache *c) { return hive_value_type_size(c->config.value_type); }

static hive_status check_n(uint64_t n, const char *call)
{
    HIVE_CHECK_ARG(n <= MAX_BATCH, call, "n = %llu is beyond what a cache can address",
                   (unsigned long long)n);
    return HIVE_SUCCESS;
}

/* The scores a call passes as the policy's input: required by the policies
 * that take them, NULL for the others (hive.h). */
static hive_status check_policy_scores(const hive_cache *c, const uint64_t *scores, const char *call)
{
    uint32_t policy = c->config.policy;
    if (hive_cache_policy_takes_scores(policy))
        HIVE_CHECK_ARG(scores != NULL, call, "scores is NULL, and policy %s takes the caller's scores",
                       policy_name(policy));
    else
        HIVE_CHECK_ARG(scores == NULL, call,
                       "scores is given, and policy %s takes none (the cache keeps them): pass NULL",
                       policy_name(policy));
    return HIVE_SUCCESS;
}

/* ---------------------------------------------------------------- batches */

hive_cache_batch hive_cache_batch_of(const hive_cache *c, int op, uint64_t n, const uint64_t *keys)
{
    hive_cache_batch b;
    memset(&b, 0, sizeof b);
    b.op = op;
    b.policy = c->config.policy;
    b.value_type = c->config.value_type;
    b.n = n;
    b.keys = keys;
    return b;
}

hive_status hive_cache_run(hive_cache *c, const hive_cache_batch *b, hive_cache_outcome *outcome,
                           hive_stream stream, const char *call)
{
    hive_group g = hive_cache_op_writes(b->op) ? HIVE_GROUP_WRITERS : HIVE_GROUP_READERS;
    memset(outcome, 0, sizeof *outcome);
    hive_group_enter(&c->group, g);
    hive_status s = c->ops->run(c->impl, b, __atomic_load_n(&c->epoch, __ATOMIC_SEQ_CST), outcome, stream);
    hive_group_leave(&c->group, g);
    if (s == HIVE_SUCCESS && outcome->reserved > 0)
        s = hive_fail(HIVE_ERROR_RESERVED_KEY, call,
                      "%llu keys were reserved (HIVE_KV64_RESERVED_MIN and up) and skipped",
                      (unsigned long long)outcome->reserved);
    return s;
}

static hive_status upsert_entered(hive_cache *c, uint64_t n, const uint64_t *keys, const void *values,
                                  const uint64_t *scores, uint8_t *results, hive_stream stream)
{
    static const char call[] = "hive_cache_insert_or_assign";
    HIVE_TRY(check_n(n, call));
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(check_policy_scores(c, scores, call));
    HIVE_TRY(ARRAY_ARGS(c, call, {keys, 1, 8, "keys"}, {values, 1, value_align(c), "values"},
                        {scores, 0, 8, "scores"}, {results, 0, 1, "results"}));
    hive_cache_batch b = hive_cache_batch_of(c, HIVE_CACHE_UPSERT, n, keys);
    b.values_in = values;
    b.scores_in = scores;
    b.results = results;
    hive_cache_outcome out;
    return hive_cache_run(c, &b, &out, stream, call);
}

hive_status hive_cache_insert_or_assign(hive_cache *cache, uint64_t n, const uint64_t *keys,
                                        const void *values, const uint64_t *scores, uint8_t *results,
                                        hive_stream stream)
{
    HIVE_CACHE_ENTERED(cache, "hive_cache_insert_or_assign",
                       upsert_entered(cache, n, keys, values, scores, results, stream));
}

static hive_status insert_and_evict_entered(hive_cache *c, uint64_t n, const uint64_t *keys,
                                            const void *values, const uint64_t *scores,
                                            uint64_t *evicted_keys, void *evicted_values,
                                            uint64_t *evicted_scores, uint64_t *evicted_count,
                                            hive_stream stream)
{
    static const char call[] = "hive_cache_insert_and_evict";
    HIVE_TRY(check_n(n, call));
    HIVE_CHECK_ARG(evicted_count != NULL, call, "evicted_count is NULL");
    *evicted_count = 0;
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(check_policy_scores(c, scores, call));
    HIVE_TRY(ARRAY_ARGS(c, call, {keys, 1, 8, "keys"}, {values, 1, value_align(c), "values"},
                        {scores, 0, 8, "scores"}, {evicted_keys, 1, 8, "evicted_keys"},
                        {evicted_values, 1, value_align(c), "evicted_values"},
                        {evicted_scores, 0, 8, "evicted_scores"}));
    hive_cache_batch b = hive_cache_batch_of(c, HIVE_CACHE_UPSERT, n, keys);
    b.values_in = values;
    b.scores_in = scores;
    b.out_keys = evicted_keys;
    b.out_values = evicted_values;
    b.out_scores = evicted_scores;
    hive_cache_outcome out;
    hive_status s = hive_cache_run(c, &b, &out, stream, call);
    *evicted_count = out.out;
    return s;
}

hive_status hive_cache_insert_and_evict(hive_cache *cache, uint64_t n, const uint64_t *keys,
                                        const void *values, const uint64_t *scores,
                                        uint64_t *evicted_keys, void *evicted_values,
                                        uint64_t *evicted_scores, uint64_t *evicted_count,
                                        hive_stream stream)
{
    HIVE_CACHE_ENTERED(cache, "hive_cache_insert_and_evict",
                       insert_and_evict_entered(cache, n, keys, values, scores, evicted_keys,
                                                evicted_values, evicted_scores, evicted_count,
                                                stream));
}

static hive_status find_entered(hive_cache *c, uint64_t n, const uint64_t *keys, void *values,
                                uint8_t *found, uint64_t *scores, hive_stream stream)
{
    static const char call[] = "hive_cache_find";
    HIVE_TRY(check_n(n, call));
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(ARRAY_ARGS(c, call, {keys, 1, 8, "keys"}, {values, 0, value_align(c), "values"},
                        {found, 0, 1, "found"}, {scores, 0, 8, "scores"}));
    hive_cache_batch b = hive_cache_batch_of(c, HIVE_CACHE_FIND, n, keys);
    b.values_out = values;
    b.found = found;
    b.scores_out = scores;
    hive_cache_outcome out;
    return hive_cache_run(c, &b, &out, stream, call);
}

hive_status hive_cache_find(hive_cache *cache, uint64_t n, const uint64_t *keys, void *values,
                            uint8_t *found, uint64_t *scores, hive_stream stream)
{
    HIVE_CACHE_ENTERED(cache, "hive_cache_find",
                       find_entered(cache, n, keys, values, found, scores, stream));
}

static hive_status find_missed_entered(hive_cache *c, uint64_t n, const uint64_t *keys, void *values,
                                       uint64_t *scores, uint64_t *missed_keys,
                                       uint64_t *missed_indices, uint64_t *missed_count,
                                       hive_stream stream)
{
    static const char call[] = "hive_cache_find_missed";
    HIVE_TRY(check_n(n, call));
    HIVE_CHECK_ARG(missed_count != NULL, call, "missed_count is NULL");
    *missed_count = 0;
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(ARRAY_ARGS(c, call, {keys, 1, 8, "keys"}, {values, 0, value_align(c), "values"},
                        {scores, 0, 8, "scores"}, {missed_keys, 1, 8, "missed_keys"},
                        {missed_indices, 1, 8, "missed_indices"}));
    hive_cache_batch b = hive_cache_batch_of(c, HIVE_CACHE_FIND, n, keys);
    b.values_out = values;
    b.scores_out = scores;
    b.out_keys = missed_keys;
    b.out_indices = missed_indices;
    hive_cache_outcome out;
    hive_status s = hive_cache_run(c, &b, &out, stream, call);
    *missed_count = out.out;
    return s;
}

hive_status hive_cache_find_missed(hive_cache *cache, uint64_t n, const uint64_t *keys, void *values,
                                   uint64_t *scores, uint64_t *missed_keys, uint64_t *missed_indices,
                                   uint64_t *missed_count, hive_stream stream)
{
    HIVE_CACHE_ENTERED(cache, "hive_cache_find_missed",
                       find_missed_entered(cache, n, keys, values, scores, missed_keys,
                                           missed_indices, missed_count, stream));
}

static hive_status contains_entered(hive_cache *c, uint64_t n, const uint64_t *keys, uint8_t *found,
                                    hive_stream stream)
{
    static const char call[] = "hive_cache_contains";
    HIVE_TRY(check_n(n, call));
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(ARRAY_ARGS(c, call, {keys, 1, 8, "keys"}, {found, 1, 1, "found"}));
    hive_cache_batch b = hive_cache_batch_of(c, HIVE_CACHE_CONTAINS, n, keys);
    b.found = found;
    hive_cache_outcome out;
    return hive_cache_run(c, &b, &out, stream, call);
}

hive_status hive_cache_contains(hive_cache *cache, uint64_t n, const uint64_t *keys, uint8_t *found,
                                hive_stream stream)
{
    HIVE_CACHE_ENTERED(cache, "hive_cache_contains", contains_entered(cache, n, keys, found, stream));
}

static hive_status find_or_insert_entered(hive_cache *c, uint64_t n, const uint64_t *keys,
                                          void *values, uint64_t *scores, uint8_t *found,
                                          hive_stream stream)
{
    static const char call[] = "hive_cache_find_or_insert";
    HIVE_TRY(check_n(n, call));
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(check_policy_scores(c, scores, call));
    HIVE_TRY(ARRAY_ARGS(c, call, {keys, 1, 8, "keys"}, {values, 1, value_align(c), "values"},
                        {scores, 0, 8, "scores"}, {found, 0, 1, "found"}));
    hive_cache_batch b = hive_cache_batch_of(c, HIVE_CACHE_FIND_OR_INSERT, n, keys);
    b.values_in = values;
    b.values_out = values;
    b.scores_in = scores;
    b.scores_out = scores;
    b.found = found;
    hive_cache_outcome out;
    return hive_cache_run(c, &b, &out, stream, call);
}

hive_status hive_cache_find_or_insert(hive_cache *cache, uint64_t n, const uint64_t *keys, void *values,
                                      uint64_t *scores, uint8_t *found, hive_stream stream)
{
    HIVE_CACHE_ENTERED(cache, "hive_cache_find_or_insert",
                       find_or_insert_entered(cache, n, keys, values, scores, found, stream));
}

/* assign, assign_values and assign_scores: existing keys only.  `values`
 * and `scores` are NULL where the op takes none; the caller has checked the
 * scores against the policy where the op scores by it. */
static hive_status assign_entered(hive_cache *c, int op, uint64_t n, const uint64_t *keys,
                                  const void *values, const uint64_t *scores, uint8_t *found,
                                  hive_stream stream, const char *call)
{
    HIVE_TRY(check_n(n, call));
    if (n == 0)
        return HIVE_SUCCESS;
    if (op == HIVE_CACHE_ASSIGN)
        HIVE_TRY(check_policy_scores(c, scores, call));
    HIVE_TRY(ARRAY_ARGS(c, call, {keys, 1, 8, "keys"},
                        {values, op != HIVE_CACHE_ASSIGN_SCORES, value_align(c), "values"},
                        {scores, op == HIVE_CACHE_ASSIGN_SCORES, 8, "scores"}, {found, 0, 1, "found"}));
    hive_cache_batch b = hive_cache_batch_of(c, op, n, keys);
    b.values_in = values;
    b.scores_in = scores;
    b.found = found;
    hive_cache_outcome out;
    return hive_cache_run(c, &b, &out, stream, call);
}

hive_status hive_cache_assign(hive_cache *cache, uint64_t n, const uint64_t *keys, const void *values,
                              const uint64_t *scores, uint8_t *found, hive_stream stream)
{
    static const char call[] = "hive_cache_assign";
    HIVE_CACHE_ENTERED(cache, call,
                       assign_entered(cache, HIVE_CACHE_ASSIGN, n, keys, values, scores, found, stream,
                                      call));
}

hive_status hive_cache_assign_values(hive_cache *cache, uint64_t n, const uint64_t *keys,
                                     const void *values, uint8_t *found, hive_stream stream)
{
    static const char call[] = "hive_cache_assign_values";
    HIVE_CACHE_ENTERED(cache, call,
                       assign_entered(cache, HIVE_CACHE_ASSIGN_VALUES, n, keys, values, NULL, found,
                                      stream, call));
}

hive_status hive_cache_assign_scores(hive_cache *cache, uint64_t n, const uint64_t *keys,
                                     const uint64_t *scores, uint8_t *found, hive_stream stream)
{
    static const char call[] = "hive_cache_assign_scores";
    HIVE_CACHE_ENTERED(cache, call,
                       assign_entered(cache, HIVE_CACHE_ASSIGN_SCORES, n, keys, NULL, scores, found,
                                      stream, call));
}

static hive_status accum_entered(hive_cache *c, uint64_t n, const uint64_t *keys, const void *values,
                                 const uint8_t *accum_flags, const uint64_t *scores, uint8_t *results,
                                 hive_stream stream)
{
    static const char call[] = "hive_cache_accum_or_assign";
    if (c->config.value_type == HIVE_VALUE_BYTES)
        return hive_fail(HIVE_ERROR_UNSUPPORTED, call,
                         "the cache's values are HIVE_VALUE_BYTES, which cannot be added");
    HIVE_TRY(check_n(n, call));
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(check_policy_scores(c, scores, call));
    HIVE_TRY(ARRAY_ARGS(c, call, {keys, 1, 8, "keys"}, {values, 1, value_align(c), "values"},
                        {accum_flags, 1, 1, "accum_flags"}, {scores, 0, 8, "scores"},
                        {results, 0, 1, "results"}));
    hive_cache_batch b = hive_cache_batch_of(c, HIVE_CACHE_ACCUM, n, keys);
    b.values_in = values;
    b.flags = accum_flags;
    b.scores_in = scores;
    b.results = results;
    hive_cache_outcome out;
    return hive_cache_run(c, &b, &out, stream, call);
}

hive_status hive_cache_accum_or_assign(hive_cache *cache, uint64_t n, const uint64_t *keys,
                                       const void *values, const uint8_t *accum_flags,
                                       const uint64_t *scores, uint8_t *results, hive_stream stream)
{
    HIVE_CACHE_ENTERED(cache, "hive_cache_accum_or_assign",
                       accum_entered(cache, n, keys, values, accum_flags, scores, results, stream));
}

static hive_status erase_entered(hive_cache *c, uint64_t n, const uint64_t *keys, uint8_t *results,
                                 hive_stream stream)
{
    static const char call[] = "hive_cache_erase";
    HIVE_TRY(check_n(n, call));
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(ARRAY_ARGS(c, call, {keys, 1, 8, "keys"}, {results, 0, 1, "results"}));
    hive_cache_batch b = hive_cache_batch_of(c, HIVE_CACHE_ERASE, n, keys);
    b.results = results;
    hive_cache_outcome out;
    return hive_cache_run(c, &b, &out, stream, call);
}

hive_status hive_cache_erase(hive_cache *cache, uint64_t n, const uint64_t *keys, uint8_t *results,
                             hive_stream stream)
{
    HIVE_CACHE_ENTERED(cache, "hive_cache_erase", erase_entered(cache, n, keys, results, stream));
}

/* ---------------------------------------------------------------- whole table */

const hive_cache_filter hive_cache_select_all = {0, 0, 0, UINT64_MAX};

static hive_status erase_if_entered(hive_cache *c, const hive_cache_filter *filter, uint64_t *erased,
                                    hive_stream stream)
{
    /* Required: a NULL slipped in by mistake would empty the cache. */
    HIVE_CHECK_ARG(filter != NULL, "hive_cache_erase_if",
                   "filter is NULL (hive_cache_clear empties the cache; {0, 0, 0, UINT64_MAX} selects all)");
    uint64_t count = 0;
    hive_group_enter(&c->group, HIVE_GROUP_WRITERS);
    hive_status s = c->ops->erase_if(c->impl, filter, &count, stream);
    hive_group_leave(&c->group, HIVE_GROUP_WRITERS);
    if (erased != NULL)
        *erased = count;
    return s;
}

hive_status hive_cache_erase_if(hive_cache *cache, const hive_cache_filter *filter, uint64_t *erased,
                                hive_stream stream)
{
    HIVE_CACHE_ENTERED(cache, "hive_cache_erase_if", erase_if_entered(cache, filter, erased, stream));
}

/* Alone: the backend rewrites every slot and lock bit, which no other call
 * may hold meanwhile. */
static hive_status clear_entered(hive_cache *c, hive_stream stream)
{
    hive_group_enter(&c->group, HIVE_GROUP_ALONE);
    hive_status s = c->ops->clear(c->impl, stream);
    hive_group_leave(&c->group, HIVE_GROUP_ALONE);
    return s;
}

hive_status hive_cache_clear(hive_cache *cache, hive_stream stream)
{
    HIVE_CACHE_ENTERED(cache, "hive_cache_clear", clear_entered(cache, stream));
}

static hive_status export_entered(hive_cache *c, uint64_t offset, uint64_t slots,
                                  const hive_cache_filter *filter, uint64_t *keys, void *values,
                                  uint64_t *scores, uint64_t *count, hive_stream stream)
{
    static const char call[] = "hive_cache_export";
    uint64_t capacity = c->config.capacity;
    HIVE_CHECK_ARG(count != NULL, call, "count is NULL");
    *count = 0;
    HIVE_CHECK_ARG(slots <= capacity && offset <= capacity - slots, call,
                   "offset %llu + slots %llu passes the capacity %llu", (unsigned long long)offset,
                   (unsigned long long)slots, (unsigned long long)capacity);
    if (slots == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(ARRAY_ARGS(c, call, {keys, 1, 8, "keys"}, {values, 0, value_align(c), "values"},
                        {scores, 0, 8, "scores"}));
    hive_group_enter(&c->group, HIVE_GROUP_READERS);
    hive_status s = c->ops->export_range(c->impl, offset, slots, filter ? filter : &hive_cache_select_all,
                                         keys, values, scores, count, stream);
    hive_group_leave(&c->group, HIVE_GROUP_READERS);
    return s;
}

hive_status hive_cache_export(hive_cache *cache, uint64_t offset, uint64_t slots,
                              const hive_cache_filter *filter, uint64_t *keys, void *values,
                              uint64_t *scores, uint64_t *count, hive_stream stream)
{
    HIVE_CACHE_ENTERED(cache, "hive_cache_export",
                       export_entered(cache, offset, slots, filter, keys, values, scores, count,
                                      stream));
}

/* Live entries, counted by the backend as a reader (no writer runs, so the
 * count is exact). */
static hive_status count_live(hive_cache *c, uint64_t *size)
{
    hive_group_enter(&c->group, HIVE_GROUP_READERS);
    hive_status s = c->ops->count(c->impl, size, NULL);
    hive_group_leave(&c->group, HIVE_GROUP_READERS);
    return s;
}

static hive_status size_entered(hive_cache *c, uint64_t *size)
{
    HIVE_CHECK_ARG(size != NULL, "hive_cache_size", "size is NULL");
    return count_live(c, size);
}

hive_status hive_cache_size(hive_cache *cache, uint64_t *size)
{
    HIVE_CACHE_ENTERED(cache, "hive_cache_size", size_entered(cache, size));
}

static hive_status capacity_entered(const hive_cache *c, uint64_t *capacity)
{
    HIVE_CHECK_ARG(capacity != NULL, "hive_cache_capacity", "capacity is NULL");
    *capacity = c->config.capacity;
    return HIVE_SUCCESS;
}

hive_status hive_cache_capacity(const hive_cache *cache, uint64_t *capacity)
{
    hive_cache *c = (hive_cache *)cache; /* only its call count changes */
    HIVE_CACHE_ENTERED(c, "hive_cache_capacity", capacity_entered(c, capacity));
}

static hive_status load_factor_entered(hive_cache *c, double *load_factor)
{
    HIVE_CHECK_ARG(load_factor != NULL, "hive_cache_load_factor", "load_factor is NULL");
    uint64_t size = 0;
    HIVE_TRY(count_live(c, &size));
    *load_factor = (double)size / (double)c->config.capacity;
    return HIVE_SUCCESS;
}

hive_status hive_cache_load_factor(hive_cache *cache, double *load_factor)
{
    HIVE_CACHE_ENTERED(cache, "hive_cache_load_factor", load_factor_entered(cache, load_factor));
}

/* No lock: a call reads the epoch once, as it starts (hive_cache_run). */
static hive_status set_epoch_entered(hive_cache *c, uint32_t epoch)
{
    __atomic_store_n(&c->epoch, epoch, __ATOMIC_SEQ_CST);
    return HIVE_SUCCESS;
}

hive_status hive_cache_set_epoch(hive_cache *cache, uint32_t epoch)
{
    HIVE_CACHE_ENTERED(cache, "hive_cache_set_epoch", set_epoch_entered(cache, epoch));
}
