/* cpu_cache.c — the CPU backend of the cache table (hive_cache_cpu_backend):
 * the slot arrays in one page mapping, and every call as a loop over keys or
 * slots that the table's worker threads share out in chunks claimed from an
 * atomic cursor (as cpu_batch.c does for the dictionary).  The per-key work
 * is cache_body.h's; this file adds the loops and the value copies. */
#include <string.h>
#include <time.h>

#include "base/alloc.h"
#include "base/check.h"
#include "cache/cache_backend.h"
#include "cache/cache_body.h"
#include "cpu_loop.h"
#include "cpu_map.h"
#include "cpu_pool.h"

/* Loops (cpu_loop.h) count work in units of one slot looked at; a key costs
 * KEY_COST (its digests, key and score reads, and its locks) plus a unit per
 * 64 value bytes. */
#define KEY_COST 8u
/* Every array starts on a cache line of its own (digests need 32 bytes:
 * hive_cache_load_digests reads a bucket's group as eight words). */
#define ARRAY_ALIGN 64u

typedef struct cpu_cache {
    hive_cache_view view;    /* view.epoch unused: each call brings its own */
    uint32_t value_type;
    void *memory;            /* one mapping: digests, keys, scores, the first values, locks */
    size_t memory_bytes;
    void *far;               /* a mapping of the values past view.value_split, or NULL */
    size_t far_bytes;
    hive_cpu_pool *pool;
} cpu_cache;

static uint64_t align_up(uint64_t x) { return (x + ARRAY_ALIGN - 1) / ARRAY_ALIGN * ARRAY_ALIGN; }

static uint64_t slot_count(const cpu_cache *cc) { return cc->view.buckets * cc->view.slots; }

static void add_relaxed(uint64_t *p, uint64_t d)
{
    if (d != 0)
        __atomic_fetch_add(p, d, __ATOMIC_RELAXED);
}

/* ---------------------------------------------------------------- batches */

typedef struct run_job {
    hive_cpu_loop loop;
    hive_cache_view view;       /* with the call's epoch */
    const hive_cache_batch *b;
    uint32_t value_type;
    uint64_t clock;             /* the call's LRU clock */
    uint64_t emitted;           /* records written to out_keys (__atomic) */
    hive_cache_outcome total;   /* summed by the threads (__atomic) */
} run_job;

/* dst += src, element by element in `type` (integers wrap). */
static void add_values(uint32_t type, uint8_t *dst, const uint8_t *src, uint32_t bytes)
{
    switch (type) {
    case HIVE_VALUE_F32: {
        float *d = (float *)(void *)dst;
        const float *s = (const float *)(const void *)src;
        for (uint32_t j = 0; j < bytes / 4; j++)
            d[j] += s[j];
        break;
    }
    case HIVE_VALUE_F64: {
        double *d = (double *)(void *)dst;
        const double *s = (const double *)(const void *)src;
        for (uint32_t j = 0; j < bytes / 8; j++)
            d[j] += s[j];
        break;
    }
    case HIVE_VALUE_I32: {
        uint32_t *d = (uint32_t *)(void *)dst;
        const uint32_t *s = (const uint32_t *)(const void *)src;
        for (uint32_t j = 0; j < bytes / 4; j++)
            d[j] += s[j];
        break;
    }
    case HIVE_VALUE_I64: {
        uint64_t *d = (uint64_t *)(void *)dst;
        const uint64_t *s = (const uint64_t *)(const void *)src;
        for (uint32_t j = 0; j < bytes / 8; j++)
            d[j] += s[j];
        break;
    }
    default: /* HIVE_VALUE_BYTES: api refuses accum_or_assign on it */
        break;
    }
}

/* What element i did, into a thread's private outcome. */
static void tally(hive_cache_outcome *t, const hive_cache_batch *b, const hive_cache_step *st)
{
    t->reserved += st->result == HIVE_RESULT_REJECTED_RESERVED;
    t->inserted += st->kind == HIVE_CACHE_FREE || st->kind == HIVE_CACHE_EVICT;
    t->evicted += st->kind == HIVE_CACHE_EVICT;
    t->refused += st->kind == HIVE_CACHE_REFUSED;
    t->erased += b->op == HIVE_CACHE_ERASE && st->kind == HIVE_CACHE_FOUND;
}

/* Element i: its claim (again while BUSY: whoever holds what it needs never
 * waits, so it lets go), the copies its step asks for, its emitted record,
 * and its end. */
static void run_one(run_job *job, uint64_t i, hive_cache_outcome *t)
{
    const hive_cache_batch *b = job->b;
    uint32_t vb = job->view.value_bytes;
    hive_cache_step st;
    hive_cache_begin(&job->view, b, i, job->clock, &st);
    for (unsigned round = 0; st.kind == HIVE_CACHE_BUSY; round++) {
        hive_backoff(round);
        hive_cache_begin(&job->view, b, i, job->clock, &st);
    }
    uint64_t at = st.emit ? __atomic_fetch_add(&job->emitted, 1, __ATOMIC_RELAXED) : 0;
    if (st.out_src != NULL)
        memcpy(st.emit ? (uint8_t *)b->out_values + at * vb : st.out_dst, st.out_src, vb);
    if (st.in_src != NULL) {
        if (st.accumulate)
            add_values(job->value_type, st.in_dst, st.in_src, vb);
        else
            memcpy(st.in_dst, st.in_src, vb);
    }
    if (st.emit) {
        b->out_keys[at] = st.emit_key;
        if (b->op == HIVE_CACHE_FIND)
            b->out_indices[at] = st.emit_score; /* the missed key's index */
        else if (b->out_scores != NULL)
            b->out_scores[at] = st.emit_score;
    }
    hive_cache_end(&job->view, b, i, &st);
    tally(t, b, &st);
}

/* Keys between prefetching an element's buckets and running it (4-16
 * measured alike). */
#define PREFETCH_AHEAD 8u

/* The lines element i will scan: its buckets' digests, their keys where
 * they fit four lines (32 slots: a larger bucket's keys are read only at a
 * digest's match), and, for an op that inserts, their scores (an insert into
 * a full bucket reads them all for the lowest), so that the loop's misses
 * overlap instead of coming one key at a time (docs/perf.md, "Cache table":
 * contains 3-5x, evicting writes up to 2x on a 2-core EPYC). */
static void prefetch_element(const run_job *job, uint64_t i)
{
    const hive_cache_view *v = &job->view;
    uint64_t key = job->b->keys[i];
    if (hive_k64_reserved(key))
        return;
    hive_cache_place p = hive_cache_place_of(key, v->buckets, v->dual, v->seed);
    int keys = v->slots <= 32, scores = hive_cache_op_inserts(job->b->op);
    for (int k = 0; k < (p.b2 != p.b1 ? 2 : 1); k++) {
        uint64_t first = (k == 0 ? p.b1 : p.b2) * v->slots;
        __builtin_prefetch(v->digests + first);
        for (uint32_t s = 0; s < v->slots; s += 64 / sizeof(uint64_t)) {
            if (keys)
                __builtin_prefetch(v->keys + first + s);
            if (scores)
                __builtin_prefetch(v->scores + first + s);
        }
    }
}

static void run_range(hive_cpu_loop *loop, uint64_t begin, uint64_t end)
{
    run_job *job = (run_job *)loop;
    hive_cache_outcome t;
    memset(&t, 0, sizeof t);
    for (uint64_t i = begin; i < end && i < begin + PREFETCH_AHEAD; i++)
        prefetch_element(job, i);
    for (uint64_t i = begin; i < end; i++) {
        if (i + PREFETCH_AHEAD < end)
            prefetch_element(job, i + PREFETCH_AHEAD);
        run_one(job, i, &t);
    }
    add_relaxed(&job->total.reserved, t.reserved);
    add_relaxed(&job->total.inserted, t.inserted);
    add_relaxed(&job->total.evicted, t.evicted);
    add_relaxed(&job->total.refused, t.refused);
    add_relaxed(&job->total.erased, t.erased);
}

/* Nanoseconds of CLOCK_REALTIME: the LRU clock of a CPU call (hive.h). */
static uint64_t realtime_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static hive_status cpu_cache_run(void *impl, const hive_cache_batch *batch, uint32_t epoch,
                                 hive_cache_outcome *outcome, hive_stream stream)
{
    (void)stream;
    cpu_cache *cc = impl;
    run_job job;
    memset(&job, 0, sizeof job);
    job.loop.range = run_range;
    job.view = cc->view;
    job.view.epoch = epoch;
    job.b = batch;
    job.value_type = cc->value_type;
    job.clock = realtime_ns();
    hive_cpu_loop_run(cc->pool, &job.loop, batch->n, KEY_COST + cc->view.value_bytes / 64);
    *outcome = job.total;
    outcome->out = job.emitted;
    return HIVE_SUCCESS;
}

/* ---------------------------------------------------------------- whole table */

typedef struct erase_if_job {
    hive_cpu_loop loop;
    hive_cache_view view;
    const hive_cache_filter *filter;
    uint64_t erased; /* __atomic */
} erase_if_job;

static void erase_if_range(hive_cpu_loop *loop, uint64_t begin, uint64_t end)
{
    erase_if_job *job = (erase_if_job *)loop;
    uint64_t erased = 0;
    for (uint64_t s = begin; s < end; s++) {
        int r;
        for (unsigned round = 0; (r = hive_cache_erase_slot_if(&job->view, s, job->filter)) < 0; round++)
            hive_backoff(round); /* a writer holds the slot: it lets go without waiting */
        erased += (uint64_t)r;
    }
    add_relaxed(&job->erased, erased);
}

static hive_status cpu_cache_erase_if(void *impl, const hive_cache_filter *filter, uint64_t *erased,
                                      hive_stream stream)
{
    (void)stream;
    cpu_cache *cc = impl;
    erase_if_job job;
    memset(&job, 0, sizeof job);
    job.loop.range = erase_if_range;
    job.view = cc->view;
    job.filter = filter;
    hive_cpu_loop_run(cc->pool, &job.loop, slot_count(cc), 1);
    *erased = job.erased;
    return HIVE_SUCCESS;
}

/* Export and count run as readers (no writer runs), so plain loads see
 * every slot settled: a live entry has a digest and an ordinary key. */
typedef struct export_job {
    hive_cpu_loop loop;
    const cpu_cache *cc;
    uint64_t offset;
    const hive_cache_filter *filter;
    uint64_t *keys, *scores;
    uint8_t *values;
    uint64_t written; /* __atomic: entries written, the next one's index */
} export_job;

static int exported(const export_job *job, uint64_t s)
{
    uint64_t key = job->cc->view.keys[s];
    return !hive_k64_reserved(key) && hive_cache_filter_match(job->filter, key, job->cc->view.scores[s]);
}

/* Counts the chunk's entries first, so that one atomic add reserves their
 * places in the output. */
static void export_range(hive_cpu_loop *loop, uint64_t begin, uint64_t end)
{
    export_job *job = (export_job *)loop;
    const hive_cache_view *v = &job->cc->view;
    uint64_t first = job->offset + begin, last = job->offset + end, n = 0;
    for (uint64_t s = first; s < last; s++)
        n += (uint64_t)exported(job, s);
    if (n == 0)
        return;
    uint64_t at = __atomic_fetch_add(&job->written, n, __ATOMIC_RELAXED);
    for (uint64_t s = first; s < last; s++) {
        if (!exported(job, s))
            continue;
        job->keys[at] = v->keys[s];
        if (job->scores != NULL)
            job->scores[at] = v->scores[s];
        if (job->values != NULL)
            memcpy(job->values + at * v->value_bytes, hive_cache_value_at(v, s), v->value_bytes);
        at++;
    }
}

static hive_status cpu_cache_export_range(void *impl, uint64_t offset, uint64_t slots,
                                          const hive_cache_filter *filter, uint64_t *keys, void *values,
                                          uint64_t *scores, uint64_t *count, hive_stream stream)
{
    (void)stream;
    cpu_cache *cc = impl;
    export_job job;
    memset(&job, 0, sizeof job);
    job.loop.range = export_range;
    job.cc = cc;
    job.offset = offset;
    job.filter = filter;
    job.keys = keys;
    job.values = values;
    job.scores = scores;
    hive_cpu_loop_run(cc->pool, &job.loop, slots, 2 + (values != NULL ? cc->view.value_bytes / 64 : 0));
    *count = job.written;
    return HIVE_SUCCESS;
}

typedef struct count_job {
    hive_cpu_loop loop;
    const uint8_t *digests;
    uint64_t live; /* __atomic */
} count_job;

static void count_range(hive_cpu_loop *loop, uint64_t begin, uint64_t end)
{
    count_job *job = (count_job *)loop;
    uint64_t live = 0;
    for (uint64_t s = begin; s < end; s++)
        live += job->digests[s] != 0;
    add_relaxed(&job->live, live);
}

static hive_status cpu_cache_count(void *impl, uint64_t *size, hive_stream stream)
{
    (void)stream;
    cpu_cache *cc = impl;
    count_job job;
    memset(&job, 0, sizeof job);
    job.loop.range = count_range;
    job.digests = cc->view.digests;
    hive_cpu_loop_run(cc->pool, &job.loop, slot_count(cc), 1);
    *size = job.live;
    return HIVE_SUCCESS;
}

/* Every slot free (digest 0, key EMPTY, score 0) and every lock clear; no
 * other call runs (api takes the lock alone).  The values stay: a free
 * slot's value is never read. */
static hive_status cpu_cache_clear(void *impl, hive_stream stream)
{
    (void)stream;
    cpu_cache *cc = impl;
    uint64_t slots = slot_count(cc);
    memset(cc->view.digests, 0, (size_t)slots);
    memset(cc->view.keys, 0xFF, (size_t)slots * sizeof(uint64_t));
    memset(cc->view.scores, 0, (size_t)slots * sizeof(uint64_t));
    memset(cc->view.locks, 0, (size_t)(cc->view.buckets + 31) / 32 * sizeof(uint32_t));
    return HIVE_SUCCESS;
}

/* ---------------------------------------------------------------- create, destroy */

static void free_cache(cpu_cache *cc)
{
    if (cc->pool != NULL)
        hive_cpu_pool_release(cc->pool);
    if (cc->far != NULL)
        hive_cpu_unmap(cc->far, cc->far_bytes);
    if (cc->memory != NULL)
        hive_cpu_unmap(cc->memory, cc->memory_bytes);
    hive_host_free(cc);
}

/* Values are host memory here either way; the budget still splits them at
 * the same slot as on a GPU (hive.h), into a second mapping, so that the
 * two arrays behind hive_cache_value_at are the CPU's to test too. */
static hive_status cpu_cache_create(const hive_cache_config *config, uint64_t buckets, void **impl)
{
    static const char call[] = "hive_cache_create";
    uint32_t vb = config->dim * hive_value_type_size(config->value_type);
    uint64_t slots = buckets * config->bucket_slots;
    uint64_t split = config->value_hbm_bytes / vb; /* resolved: whole values, <= slots */
    /* No overflow: slots <= 2^39 (cache_config.c) and vb <= 2^20. */
    uint64_t keys_at = align_up(slots);
    uint64_t scores_at = keys_at + align_up(slots * sizeof(uint64_t));
    uint64_t values_at = scores_at + align_up(slots * sizeof(uint64_t));
    uint64_t locks_at = values_at + align_up(split * vb);
    uint64_t bytes = locks_at + align_up((buckets + 31) / 32 * sizeof(uint32_t));
    uint64_t far_bytes = (slots - split) * vb;
    if (!hive_cpu_memory_allows(bytes + far_bytes))
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call,
                         "%llu slots of %u-byte values need %llu bytes, more than the machine's memory",
                         (unsigned long long)slots, vb, (unsigned long long)(bytes + far_bytes));
    cpu_cache *cc = hive_host_calloc(1, sizeof *cc);
    if (cc == NULL)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "no host memory for the CPU cache");
    uint8_t *m = hive_cpu_map((size_t)bytes); /* zeroed: digests, scores, values, locks */
    if (m == NULL) {
        free_cache(cc);
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "no host memory for %llu slots (%llu bytes)",
                         (unsigned long long)slots, (unsigned long long)bytes);
    }
    cc->memory = m;
    cc->memory_bytes = (size_t)bytes;
    if (far_bytes != 0) {
        cc->far = hive_cpu_map((size_t)far_bytes);
        if (cc->far == NULL) {
            free_cache(cc);
            return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call,
                             "no host memory for the values of slots %llu and up (%llu bytes)",
                             (unsigned long long)split, (unsigned long long)far_bytes);
        }
        cc->far_bytes = (size_t)far_bytes;
    }
    cc->value_type = config->value_type;
    cc->view.digests = m;
    cc->view.keys = (uint64_t *)(void *)(m + keys_at);
    cc->view.scores = (uint64_t *)(void *)(m + scores_at);
    cc->view.values = m + values_at;
    cc->view.values_far = hive_cache_far_base(cc->far, split, vb);
    cc->view.value_split = split;
    cc->view.locks = (uint32_t *)(void *)(m + locks_at);
    cc->view.buckets = buckets;
    cc->view.slots = config->bucket_slots;
    cc->view.value_bytes = vb;
    cc->view.dual = config->dual_bucket;
    cc->view.seed = config->hash_seed;
    memset(cc->view.keys, 0xFF, (size_t)slots * sizeof(uint64_t)); /* every key EMPTY */
    hive_status s = hive_cpu_pool_acquire(config->threads > 1 ? config->threads - 1 : 0, call, &cc->pool);
    if (s != HIVE_SUCCESS) {
        cc->pool = NULL;
        free_cache(cc);
        return s;
    }
    *impl = cc;
    return HIVE_SUCCESS;
}

static void cpu_cache_destroy(void *impl) { free_cache(impl); }

/* ---------------------------------------------------------------- memory */

/* A CPU cache reads and writes the caller's host arrays directly. */
static hive_status cpu_cache_check_pointer(const void *impl, const void *p, const char *call,
                                           const char *what)
{
    (void)impl;
    (void)p;
    (void)call;
    (void)what;
    return HIVE_SUCCESS;
}

static int cpu_cache_reach(const void *impl, const void *p)
{
    (void)impl;
    (void)p;
    return HIVE_REACH_BOTH;
}

static uint64_t cpu_cache_bytes_held(const void *impl)
{
    const cpu_cache *cc = impl;
    return hive_cpu_map_size(cc->memory_bytes) + (cc->far != NULL ? hive_cpu_map_size(cc->far_bytes) : 0) +
           sizeof *cc + hive_cpu_pool_bytes(cc->pool);
}

static void *cpu_cache_alloc_io(const void *impl, size_t bytes)
{
    (void)impl;
    return hive_host_aligned(ARRAY_ALIGN, bytes);
}

static void cpu_cache_free_io(const void *impl, void *p)
{
    (void)impl;
    hive_host_free(p);
}

const hive_cache_backend_ops hive_cache_cpu_backend = {
    .name = "cpu",
    .create = cpu_cache_create,
    .destroy = cpu_cache_destroy,
    .run = cpu_cache_run,
    .erase_if = cpu_cache_erase_if,
    .export_range = cpu_cache_export_range,
    .count = cpu_cache_count,
    .clear = cpu_cache_clear,
    .check_pointer = cpu_cache_check_pointer,
    .reach = cpu_cache_reach,
    .bytes_held = cpu_cache_bytes_held,
    .alloc_io = cpu_cache_alloc_io,
    .free_io = cpu_cache_free_io,
};
