/* cpu_table.c — the CPU backend's table operations (hive_cpu_backend):
 * create and destroy, the bucket arrays, clear, resize by rebuilding into a
 * fresh store, export, stats.  Batches are in cpu_batch.c. */
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE */

#include <math.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "alloc.h"
#include "check.h"
#include "cpu_table.h"

/* A 32-bit hash names at most 2^32 buckets (core/index.h). */
#define MAX_BUCKETS (1ull << 32)
/* Rebuilds a resize attempts, each with half as many buckets again as the
 * last, before it reports that the pairs do not fit. */
#define RESIZE_TRIES 8
/* Source buckets a rehashing thread claims at a time. */
#define REHASH_CHUNK 1024u

static const char resize_call[] = "hive resize";

/* ---------------------------------------------------------------- stores */

static uint64_t physical_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
}

static uint64_t bucket_bytes(const hive_cpu_table *ct)
{
    return (uint64_t)ct->S * ct->slot_words * sizeof(uint64_t);
}

/* Slot arrays of a huge page or more are aligned to huge pages and asked to
 * be backed by them: with 4 KiB pages nearly every probe of a large table
 * would also miss the TLB, and the page walk costs as much as the probe. */
#define HUGE_PAGE (2u << 20)

static void *array_alloc(uint64_t bytes)
{
    if (bytes < HUGE_PAGE)
        return hive_host_aligned(64, (size_t)bytes);
    void *p = hive_host_aligned(HUGE_PAGE, (size_t)bytes);
#ifdef MADV_HUGEPAGE
    if (p != NULL)
        madvise(p, (size_t)bytes, MADV_HUGEPAGE); /* advice: if refused, small pages work too */
#endif
    return p;
}

static void store_free(hive_cpu_store *s)
{
    hive_host_free(s->slots);
    hive_host_free(s->locks);
    hive_host_free(s->stash);
    hive_host_free(s->stash_used);
    memset(s, 0, sizeof *s);
}

/* Every slot EMPTY and the stash unused; the locks are left as they are (all
 * free: no operation runs while a store is filled). */
static void store_fill_empty(const hive_cpu_table *ct, hive_cpu_store *s)
{
    memset(s->slots, 0xFF, s->buckets * bucket_bytes(ct));
    if (s->stash != NULL) {
        memset(s->stash, 0xFF, s->stash_buckets * bucket_bytes(ct));
        memset(s->stash_used, 0, (s->stash_buckets + 31) / 32 * sizeof(uint32_t));
    }
    s->stash_live = 0;
}

/* An empty store of `buckets` buckets with its stash.  On failure nothing is
 * held and *s is zeroed. */
static hive_status store_create(const hive_cpu_table *ct, uint64_t buckets, hive_cpu_store *s,
                                const char *call)
{
    memset(s, 0, sizeof *s);
    if (buckets > MAX_BUCKETS)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call,
                         "%llu buckets of %u slots: a 32-bit hash addresses at most 2^32 buckets",
                         (unsigned long long)buckets, ct->S);
    /* No overflow below: buckets <= 2^32, a bucket is at most 32 slots of 16
     * bytes, and the stash is at most a quarter of the buckets, plus one. */
    uint64_t stash_buckets =
        ct->stash_fraction > 0 ? (uint64_t)ceil(ct->stash_fraction * (double)buckets) : 0;
    uint64_t slot_bytes = buckets * bucket_bytes(ct);
    uint64_t stash_bytes = stash_buckets * bucket_bytes(ct);
    uint64_t lock_words = (buckets + 31) / 32;
    uint64_t used_words = (stash_buckets + 31) / 32;
    uint64_t total = slot_bytes + stash_bytes + (lock_words + used_words) * sizeof(uint32_t);
    /* Filling the slots touches every page: a table larger than the machine
     * would be killed by the OOM killer rather than fail here. */
    if (total > physical_bytes() || total > SIZE_MAX)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call,
                         "%llu buckets need %llu bytes, more than the machine's memory",
                         (unsigned long long)buckets, (unsigned long long)total);
    s->slots = array_alloc(slot_bytes);
    s->locks = hive_host_calloc((size_t)lock_words, sizeof(uint32_t));
    s->stash = stash_bytes ? array_alloc(stash_bytes) : NULL;
    s->stash_used = used_words ? hive_host_calloc((size_t)used_words, sizeof(uint32_t)) : NULL;
    if (s->slots == NULL || s->locks == NULL ||
        (stash_bytes && (s->stash == NULL || s->stash_used == NULL))) {
        store_free(s);
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call,
                         "no host memory for %llu buckets (%llu bytes)",
                         (unsigned long long)buckets, (unsigned long long)total);
    }
    s->buckets = buckets;
    s->stash_buckets = stash_buckets;
    s->ix = hive_index_for(buckets);
    s->bytes = (size_t)total;
    store_fill_empty(ct, s);
    return HIVE_SUCCESS;
}

/* ---------------------------------------------------------------- create, destroy */

static hive_status cpu_create(hive_table *t)
{
    static const char call[] = "hive_create";
    hive_config *c = &t->config;
    int kv64 = c->key_width == HIVE_KV64;
    if (c->bucket_slots == 0)
        c->bucket_slots = kv64 ? 4 : 8; /* a bucket is one 64-byte cache line */
    if (c->lanes_per_op == 0)
        c->lanes_per_op = 1; /* a CUDA knob: one CPU thread always handles a whole key */

    hive_cpu_table *ct = hive_host_calloc(1, sizeof *ct);
    if (ct == NULL)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "no host memory for the CPU table");
    ct->kernels = kv64 ? &hive_cpu_kernels_kv64 : &hive_cpu_kernels_kv32;
    ct->S = c->bucket_slots;
    ct->slot_words = kv64 ? 2 : 1;
    ct->max_evictions = c->max_evictions < HIVE_MAX_CHAIN ? c->max_evictions : HIVE_MAX_CHAIN;
    ct->stash_fraction = c->stash_fraction;
    uint64_t buckets = c->initial_capacity / ct->S + (c->initial_capacity % ct->S != 0);
    hive_status s = store_create(ct, buckets, &ct->store, call);
    if (s == HIVE_SUCCESS)
        s = hive_cpu_pool_create(c->threads > 1 ? c->threads - 1 : 0, call, &ct->pool);
    if (s != HIVE_SUCCESS) {
        store_free(&ct->store);
        hive_host_free(ct);
        return s;
    }
    t->impl = ct;
    return HIVE_SUCCESS;
}

static void cpu_destroy(hive_table *t)
{
    hive_cpu_table *ct = t->impl;
    hive_cpu_pool_destroy(ct->pool);
    store_free(&ct->store);
    hive_host_free(ct);
    t->impl = NULL;
}

/* ---------------------------------------------------------------- whole table */

static hive_status cpu_clear(hive_table *t, hive_stream stream)
{
    (void)stream;
    hive_cpu_table *ct = t->impl;
    store_fill_empty(ct, &ct->store);
    return HIVE_SUCCESS;
}

static uint64_t cpu_capacity(const hive_table *t)
{
    const hive_cpu_table *ct = t->impl;
    return ct->store.buckets * ct->S;
}

typedef struct rehash_job {
    const hive_cpu_kernels *kernels;
    const hive_cpu_store *from;
    hive_view to;
    uint32_t S;
    int second;       /* hive_cpu_prefetch_second */
    uint64_t sources; /* source buckets of `from`, stash included */
    uint64_t next;    /* first unclaimed source bucket (__atomic) */
    uint64_t full;    /* pairs that found no room (__atomic) */
} rehash_job;

static void rehash_task(void *arg)
{
    rehash_job *job = arg;
    while (__atomic_load_n(&job->full, __ATOMIC_RELAXED) == 0) { /* one miss dooms the store */
        uint64_t begin = __atomic_fetch_add(&job->next, REHASH_CHUNK, __ATOMIC_RELAXED);
        if (begin >= job->sources)
            return;
        uint64_t end = job->sources - begin < REHASH_CHUNK ? job->sources : begin + REHASH_CHUNK;
        uint64_t full = job->kernels->rehash(job->from, job->S, &job->to, job->second, begin, end);
        if (full != 0)
            __atomic_fetch_add(&job->full, full, __ATOMIC_RELAXED);
    }
}

/* Inserts every live pair of the table (`live` of them) into `next`, with
 * all its threads; returns 0 if some pair found no room there. */
static int rehash_into(hive_cpu_table *ct, uint64_t live, hive_cpu_store *next)
{
    rehash_job job;
    memset(&job, 0, sizeof job);
    job.kernels = ct->kernels;
    job.from = &ct->store;
    job.to = hive_cpu_view(ct, next);
    job.S = ct->S;
    job.second = hive_cpu_prefetch_second(live, next->buckets * ct->S);
    job.sources = ct->store.buckets + ct->store.stash_buckets;
    if (job.sources * ct->S < HIVE_CPU_PARALLEL_MIN)
        rehash_task(&job);
    else
        hive_cpu_pool_run(ct->pool, rehash_task, &job);
    return job.full == 0;
}

/* Rebuilds the table into a fresh store of about slots / S buckets (the
 * same count too: api.c rebuilds in place to empty a crowded stash).  Growth
 * takes at least 1.5 times the buckets, so that tables grown by many small
 * batches still move each pair O(1) times on average.  A rebuild that leaves
 * a pair out (eviction chains and stash exhausted) is thrown away and tried
 * again half as large again, except that a shrink gives up rather than grow;
 * the old store is freed only once a new one holds every pair. */
static hive_status cpu_resize(hive_table *t, uint64_t slots, hive_stream stream)
{
    (void)stream;
    hive_cpu_table *ct = t->impl;
    uint64_t old = ct->store.buckets;
    uint64_t buckets = slots / ct->S + (slots % ct->S != 0);
    if (buckets == 0)
        buckets = 1;
    int growing = buckets > old, shrinking = buckets < old;
    uint64_t geometric = old + (old + 1) / 2;
    if (geometric > MAX_BUCKETS)
        geometric = MAX_BUCKETS;
    if (growing && buckets < geometric)
        buckets = geometric;
    for (int tries = 1;; tries++) {
        hive_cpu_store next;
        HIVE_TRY(store_create(ct, buckets, &next, resize_call));
        if (rehash_into(ct, __atomic_load_n(&t->size, __ATOMIC_RELAXED), &next)) {
            store_free(&ct->store);
            ct->store = next;
            return HIVE_SUCCESS;
        }
        store_free(&next);
        if (tries == RESIZE_TRIES)
            return hive_fail(HIVE_ERROR_TABLE_FULL, resize_call,
                             "the pairs did not fit in %d rebuilds, the last of %llu buckets",
                             tries, (unsigned long long)buckets);
        hive_debug("%s: %llu buckets left pairs out; trying more", resize_call,
                   (unsigned long long)buckets);
        buckets += buckets / 2 + 1;
        if (shrinking && buckets >= old)
            return HIVE_SUCCESS; /* a shrink that does not fit: the old store holds every pair */
    }
}

static hive_status cpu_export(hive_table *t, uint64_t capacity, void *keys, void *values,
                              uint64_t *count, hive_stream stream)
{
    (void)stream;
    hive_cpu_table *ct = t->impl;
    uint64_t n = ct->kernels->export_pairs(&ct->store, ct->S, keys, values, capacity);
    if (n > capacity)
        return hive_fail(HIVE_ERROR_INTERNAL, "hive_export",
                         "the table holds %llu pairs, more than its size %llu",
                         (unsigned long long)n, (unsigned long long)capacity);
    *count = n;
    return HIVE_SUCCESS;
}

static hive_status cpu_stats(hive_table *t, hive_stats *stats)
{
    hive_cpu_table *ct = t->impl;
    const hive_cpu_store *s = &ct->store;
    stats->capacity = s->buckets * ct->S;
    stats->buckets = s->buckets;
    stats->bucket_slots = ct->S;
    stats->lanes_per_op = t->config.lanes_per_op;
    stats->stash_capacity = s->stash_buckets * ct->S;
    stats->stash_size = __atomic_load_n(&s->stash_live, __ATOMIC_RELAXED);
    stats->evictions = __atomic_load_n(&ct->evictions, __ATOMIC_RELAXED);
    for (int i = 0; i < 4; i++)
        stats->insert_steps[i] = __atomic_load_n(&ct->insert_steps[i], __ATOMIC_RELAXED);
    stats->bytes_held = s->bytes + sizeof *ct + hive_cpu_pool_bytes(ct->pool);
    return HIVE_SUCCESS;
}

/* A CPU table reads and writes the caller's host arrays directly. */
static hive_status cpu_check_pointer(const hive_table *t, const void *p, const char *call,
                                     const char *what)
{
    (void)t;
    (void)p;
    (void)call;
    (void)what;
    return HIVE_SUCCESS;
}

const hive_backend_ops hive_cpu_backend = {
    .name = "cpu",
    .create = cpu_create,
    .destroy = cpu_destroy,
    .run = hive_cpu_run,
    .count_inserts = hive_cpu_count_inserts,
    .retry_full = hive_cpu_retry_full,
    .results_alloc = hive_cpu_results_alloc,
    .results_free = hive_cpu_results_free,
    .clear = cpu_clear,
    .capacity = cpu_capacity,
    .resize = cpu_resize,
    .export_pairs = cpu_export,
    .stats = cpu_stats,
    .check_pointer = cpu_check_pointer,
};
