/* cpu_table.c — the CPU backend's table operations (hive_cpu_backend):
 * create and destroy, the bucket arrays, clear, export, its shape, the
 * absent-key filter's rebuild (cpu_filter.h).  Batches are in cpu_batch.c,
 * resizing in cpu_resize.c. */
#include <math.h>
#include <string.h>

#include "base/alloc.h"
#include "base/check.h"
#include "cpu_loop.h"
#include "cpu_map.h"
#include "cpu_table.h"

/* ---------------------------------------------------------------- stores */

void hive_cpu_stash_free(hive_cpu_store *s)
{
    hive_host_free(s->stash);
    hive_host_free(s->stash_used);
    s->stash = NULL;
    s->stash_used = NULL;
    s->stash_buckets = 0;
    s->stash_bytes = 0;
    s->stash_live = 0;
}

hive_status hive_cpu_stash_alloc(const hive_cpu_table *ct, uint64_t stash_buckets, hive_cpu_store *s,
                                 const char *call)
{
    /* No overflow: buckets <= 2^32, a bucket is at most 32 slots of 16
     * bytes, and the stash is at most a quarter of the buckets, plus one. */
    uint64_t bytes = stash_buckets * hive_cpu_bucket_bytes(ct);
    uint64_t used_words = hive_stash_side_words(ct->design, stash_buckets);
    s->stash = NULL;
    s->stash_used = NULL;
    s->stash_buckets = 0;
    s->stash_bytes = 0;
    s->stash_live = 0;
    if (stash_buckets == 0)
        return HIVE_SUCCESS;
    if (!hive_cpu_memory_allows(bytes))
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "a stash of %llu bytes: more than the machine's memory",
                         (unsigned long long)bytes);
    s->stash = hive_host_aligned(64, (size_t)bytes);
    s->stash_used = hive_host_calloc((size_t)used_words, sizeof(uint32_t));
    if (s->stash == NULL || s->stash_used == NULL) {
        hive_cpu_stash_free(s);
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "no host memory for a stash of %llu buckets",
                         (unsigned long long)stash_buckets);
    }
    memset(s->stash, 0xFF, (size_t)bytes);
    s->stash_buckets = stash_buckets;
    s->stash_bytes = (size_t)(bytes + used_words * sizeof(uint32_t));
    return HIVE_SUCCESS;
}

static void store_free(hive_cpu_store *s)
{
    hive_cpu_unmap(s->slots, s->slot_bytes);
    hive_cpu_unmap(s->locks, s->lock_bytes);
    if (s->tags != NULL)
        hive_cpu_unmap(s->tags, s->tag_bytes);
    hive_cpu_stash_free(s);
    memset(s, 0, sizeof *s);
}

/* Every slot EMPTY and the stash unused; the locks are left as they are (all
 * free: no operation runs while a store is filled). */
static void store_fill_empty(const hive_cpu_table *ct, hive_cpu_store *s)
{
    memset(s->slots, 0xFF, s->buckets * hive_cpu_bucket_bytes(ct));
    if (s->tags != NULL)
        memset(s->tags, 0xFF, hive_cpu_tag_bytes(ct, s->buckets));
    if (s->stash != NULL) {
        memset(s->stash, 0xFF, s->stash_buckets * hive_cpu_bucket_bytes(ct));
        memset(s->stash_used, 0, hive_stash_side_words(ct->design, s->stash_buckets) * sizeof(uint32_t));
    }
    s->stash_live = 0;
}

/* An empty store of `buckets` buckets with its stash.  On failure nothing is
 * held and *s is zeroed. */
static hive_status store_create(const hive_cpu_table *ct, uint64_t buckets, hive_cpu_store *s,
                                const char *call)
{
    memset(s, 0, sizeof *s);
    if (buckets > HIVE_CPU_MAX_BUCKETS)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call,
                         "%llu buckets of %u slots: a 32-bit hash addresses at most 2^32 buckets",
                         (unsigned long long)buckets, ct->S);
    uint64_t slot_bytes = buckets * hive_cpu_bucket_bytes(ct);
    uint64_t lock_bytes = hive_cpu_lock_bytes(buckets);
    uint64_t tag_bytes = hive_cpu_tag_bytes(ct, buckets);
    if (!hive_cpu_memory_allows(slot_bytes + lock_bytes + tag_bytes))
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call,
                         "%llu buckets need %llu bytes, more than the machine's memory",
                         (unsigned long long)buckets, (unsigned long long)(slot_bytes + lock_bytes + tag_bytes));
    s->slots = hive_cpu_map((size_t)slot_bytes);
    s->locks = hive_cpu_map((size_t)lock_bytes);
    s->tags = tag_bytes ? hive_cpu_map((size_t)tag_bytes) : NULL;
    s->slot_bytes = (size_t)slot_bytes;
    s->lock_bytes = (size_t)lock_bytes;
    s->tag_bytes = (size_t)tag_bytes;
    hive_status st = s->slots != NULL && s->locks != NULL && (s->tags != NULL || tag_bytes == 0)
                         ? hive_cpu_stash_alloc(ct, hive_stash_wanted(ct->stash_fraction, buckets, 0, ct->S), s, call)
                         : hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call,
                                     "no host memory for %llu buckets (%llu bytes)",
                                     (unsigned long long)buckets, (unsigned long long)slot_bytes);
    if (st != HIVE_SUCCESS) {
        store_free(s);
        return st;
    }
    s->buckets = buckets;
    s->ix = hive_index_for(buckets);
    store_fill_empty(ct, s);
    return HIVE_SUCCESS;
}

/* ---------------------------------------------------------------- create, destroy */

static hive_status cpu_create(const hive_config *c, void **impl)
{
    static const char call[] = "hive_create";
    int kv64 = c->key_width == HIVE_KV64;

    hive_cpu_table *ct = hive_host_calloc(1, sizeof *ct);
    if (ct == NULL)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "no host memory for the CPU table");
    ct->kernels = kv64 ? &hive_cpu_kernels_kv64 : &hive_cpu_kernels_kv32;
    ct->S = c->bucket_slots;
    ct->slot_words = kv64 ? 2 : 1;
    ct->max_evictions = c->max_evictions < HIVE_MAX_CHAIN ? c->max_evictions : HIVE_MAX_CHAIN;
    ct->design = (uint32_t)c->design; /* validated; the IDs are the enum's (designs/names.h) */
    ct->resize_batch = c->resize_batch;
    ct->hash_seed = c->hash_seed;
    ct->stash_fraction = c->stash_fraction;
    uint64_t buckets = c->initial_capacity / ct->S + (c->initial_capacity % ct->S != 0);
    hive_status s = store_create(ct, buckets, &ct->store, call);
    if (s == HIVE_SUCCESS)
        s = hive_cpu_filter_create(&ct->filter, c->absent_filter_bits, buckets * ct->S, call);
    if (s == HIVE_SUCCESS)
        s = hive_cpu_pool_acquire(c->threads > 1 ? c->threads - 1 : 0, call, &ct->pool);
    if (s != HIVE_SUCCESS) {
        hive_cpu_filter_free(&ct->filter);
        store_free(&ct->store);
        hive_host_free(ct);
        return s;
    }
    *impl = ct;
    return HIVE_SUCCESS;
}

static void cpu_destroy(void *impl)
{
    hive_cpu_table *ct = impl;
    hive_cpu_pool_release(ct->pool);
    hive_cpu_filter_free(&ct->filter);
    store_free(&ct->store);
    hive_cpu_stash_free(&ct->next_stash);
    hive_host_free(ct);
}

/* ---------------------------------------------------------------- whole table */

static hive_status cpu_clear(void *impl, hive_stream stream)
{
    (void)stream;
    hive_cpu_table *ct = impl;
    store_fill_empty(ct, &ct->store);
    if (ct->filter.words != NULL)
        memset(ct->filter.words, 0, (size_t)ct->filter.count * sizeof *ct->filter.words);
    return HIVE_SUCCESS;
}

typedef struct filter_job {
    hive_cpu_loop loop;
    const hive_cpu_table *ct;
    hive_view view;
    const hive_cpu_filter *filter;
} filter_job;

static void filter_job_range(hive_cpu_loop *loop, uint64_t begin, uint64_t end)
{
    filter_job *job = (filter_job *)loop;
    job->ct->kernels->filter_range(&job->ct->store, &job->view, job->ct->S, job->filter, begin, end);
}

/* F2: a filter of the keys present now, sized for the buckets there are
 * now, in place of the old one.  Without memory for it the old one stays:
 * it still has every present key's bits, only more others'. */
static void cpu_tidied(void *impl)
{
    hive_cpu_table *ct = impl;
    if (ct->filter.words == NULL)
        return;
    hive_cpu_filter fresh;
    if (hive_cpu_filter_create(&fresh, ct->filter.bits, ct->store.buckets * ct->S, "hive resize") !=
        HIVE_SUCCESS) {
        hive_clear_error();
        return;
    }
    filter_job job;
    memset(&job, 0, sizeof job);
    job.loop.range = filter_job_range;
    job.ct = ct;
    job.view = hive_cpu_view(ct, &ct->store);
    job.filter = &fresh;
    hive_cpu_loop_run(ct->pool, &job.loop, ct->store.buckets + ct->store.stash_buckets, ct->S);
    hive_cpu_filter_free(&ct->filter);
    ct->filter = fresh;
}

static hive_status cpu_export(void *impl, uint64_t capacity, void *keys, void *values,
                              uint64_t *count, hive_stream stream)
{
    (void)stream;
    hive_cpu_table *ct = impl;
    uint64_t n = ct->kernels->export_pairs(&ct->store, ct->S, keys, values, capacity);
    if (n > capacity)
        return hive_fail(HIVE_ERROR_INTERNAL, "hive_export",
                         "the table holds %llu pairs, more than its size %llu",
                         (unsigned long long)n, (unsigned long long)capacity);
    *count = n;
    return HIVE_SUCCESS;
}

static void cpu_shape(const void *impl, hive_shape *shape)
{
    const hive_cpu_table *ct = impl;
    const hive_cpu_store *s = &ct->store;
    shape->ix = s->ix;
    shape->buckets = s->buckets;
    shape->stash_buckets = s->stash_buckets;
    shape->bytes_held = hive_cpu_map_size(s->slot_bytes) + hive_cpu_map_size(s->lock_bytes) +
                        (s->tags != NULL ? hive_cpu_map_size(s->tag_bytes) : 0) +
                        s->stash_bytes + hive_cpu_filter_bytes(&ct->filter) + sizeof *ct +
                        hive_cpu_pool_bytes(ct->pool);
}

static hive_status cpu_stash_live(void *impl, uint64_t *live)
{
    hive_cpu_table *ct = impl;
    *live = __atomic_load_n(&ct->store.stash_live, __ATOMIC_RELAXED);
    return HIVE_SUCCESS;
}

/* A CPU table reads and writes the caller's host arrays directly. */
static hive_status cpu_check_pointer(const void *impl, const void *p, const char *call,
                                     const char *what)
{
    (void)impl;
    (void)p;
    (void)call;
    (void)what;
    return HIVE_SUCCESS;
}

const hive_backend_ops hive_cpu_backend = {
    .name = "cpu",
    .create = cpu_create,
    .destroy = cpu_destroy,
    .begin = hive_cpu_begin,
    .end = hive_cpu_end,
    .run = hive_cpu_run,
    .retry_full = hive_cpu_retry_full,
    .count_inserts = hive_cpu_count_inserts,
    .count_new = hive_cpu_count_new,
    .clear = cpu_clear,
    .export_pairs = cpu_export,
    .check_pointer = cpu_check_pointer,
    .shape = cpu_shape,
    .stash_live = cpu_stash_live,
    .map = hive_cpu_map_buckets,
    .unmap = hive_cpu_unmap_beyond,
    .step = hive_cpu_step,
    .set_index = hive_cpu_set_index,
    .stash_open = hive_cpu_stash_open,
    .stash_close = hive_cpu_stash_close,
    .clear_locks = hive_cpu_clear_locks,
    .tidied = cpu_tidied,
};
