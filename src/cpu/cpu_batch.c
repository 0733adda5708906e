/* cpu_batch.c — running a batch on a CPU table: the keys are cut into
 * contiguous chunks that the table's threads claim one at a time (a thread
 * held up elsewhere then simply claims fewer), each thread counts what its
 * keys did privately and adds the counts to the batch's totals once. */
#include <stdint.h>
#include <string.h>

#include "base/alloc.h"
#include "base/check.h"
#include "core/marks.h"
#include "cpu_table.h"

/* Chunks per thread: enough to even out threads that run at different
 * speeds, few enough that claiming one is noise. */
#define CHUNKS_PER_THREAD 8u
/* Smallest chunk: 10-15 us of work, so that a batch of a few thousand keys
 * is shared out over every thread. */
#define MIN_CHUNK 256u

typedef struct run_job {
    const hive_cpu_kernels *kernels;
    hive_view view;
    uint32_t S;
    int second;               /* hive_cpu_prefetch_second */
    const hive_cpu_filter *filter; /* the table's (run_task) */
    const hive_batch *b;
    uint64_t chunk;
    uint64_t next;            /* first key of the next unclaimed chunk (__atomic) */
    hive_batch_outcome total; /* summed by the threads (__atomic) */
    int64_t net;              /* count_new's, summed likewise */
} run_job;

/* Claims the next chunk of the batch: 0 once none is left. */
static int claim_chunk(run_job *job, uint64_t *begin, uint64_t *end)
{
    uint64_t n = job->b->n;
    *begin = __atomic_fetch_add(&job->next, job->chunk, __ATOMIC_RELAXED);
    if (*begin >= n)
        return 0;
    *end = n - *begin < job->chunk ? n : *begin + job->chunk;
    return 1;
}

static void add_relaxed(uint64_t *p, uint64_t d)
{
    if (d != 0)
        __atomic_fetch_add(p, d, __ATOMIC_RELAXED);
}

static void run_task(void *arg)
{
    run_job *job = arg;
    hive_cpu_tally tally;
    memset(&tally, 0, sizeof tally);
    uint64_t begin, end;
    while (claim_chunk(job, &begin, &end))
        job->kernels->run_range(&job->view, job->S, job->second, job->filter, job->b, begin, end, &tally);
    add_relaxed(&job->total.inserted, tally.out.inserted);
    add_relaxed(&job->total.erased, tally.out.erased);
    add_relaxed(&job->total.reserved, tally.out.reserved);
    add_relaxed(&job->total.full, tally.out.full);
    add_relaxed(&job->total.bad_ops, tally.out.bad_ops);
    for (int s = 0; s < 4; s++)
        add_relaxed(&job->total.steps[s], tally.steps[s]);
    add_relaxed(&job->total.evictions, tally.evictions);
}

static void count_task(void *arg)
{
    run_job *job = arg;
    int64_t net = 0;
    uint64_t begin, end;
    while (claim_chunk(job, &begin, &end))
        net += job->kernels->count_new_range(&job->view, job->S, job->second, job->b, begin, end);
    __atomic_fetch_add(&job->net, net, __ATOMIC_RELAXED);
}

/* Runs `task` over the batch of `job`: on the table's threads in chunks, or
 * on this one for a small batch. */
static void run_chunks(hive_cpu_table *ct, run_job *job, void (*task)(void *))
{
    uint32_t width = hive_cpu_pool_width(ct->pool);
    uint64_t n = job->b->n;
    if (n < HIVE_CPU_PARALLEL_MIN || width == 1) {
        job->chunk = n;
        task(job);
    } else {
        uint64_t chunk = n / ((uint64_t)width * CHUNKS_PER_THREAD);
        job->chunk = chunk < MIN_CHUNK ? MIN_CHUNK : chunk;
        hive_cpu_pool_run(ct->pool, task, job);
    }
}

/* A thread's tally as a batch outcome. */
static hive_batch_outcome outcome_of(const hive_cpu_tally *tally)
{
    hive_batch_outcome out = tally->out;
    for (int s = 0; s < 4; s++)
        out.steps[s] = tally->steps[s];
    out.evictions = tally->evictions;
    return out;
}

/* The marks of a batch (core/marks.h): the scratch is the words themselves. */
static uint32_t *marks_of(hive_batch_scratch *scratch) { return (uint32_t *)scratch; }

hive_status hive_cpu_begin(void *impl, const hive_request *r, hive_batch_scratch **scratch,
                           hive_stream stream)
{
    (void)impl;
    (void)stream;
    *scratch = NULL;
    if (!hive_request_may_insert(r) || r->results != NULL || r->n == 0)
        return HIVE_SUCCESS;
    /* retry_full needs to know which keys found no room */
    uint64_t words = 2 * HIVE_MARK_WORDS(r->n);
    uint32_t *marks = words > SIZE_MAX / sizeof(uint32_t) ? NULL
                                                         : hive_host_calloc((size_t)words, sizeof(uint32_t));
    if (marks == NULL)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, "hive batch",
                         "no memory for the %llu per-key marks of the batch", (unsigned long long)r->n);
    *scratch = (hive_batch_scratch *)marks;
    return HIVE_SUCCESS;
}

void hive_cpu_end(void *impl, const hive_request *r, hive_batch_scratch *scratch, hive_stream stream)
{
    (void)impl;
    (void)r;
    (void)stream;
    hive_host_free(marks_of(scratch));
}

hive_status hive_cpu_run(void *impl, const hive_request *r, hive_batch_scratch *scratch,
                         hive_batch_outcome *outcome, hive_stream stream)
{
    (void)stream;
    hive_cpu_table *ct = impl;
    hive_batch b = hive_batch_of(r, marks_of(scratch));
    run_job job;
    memset(&job, 0, sizeof job);
    job.kernels = ct->kernels;
    job.view = hive_cpu_view(ct, &ct->store);
    job.S = ct->S;
    uint64_t reach = r->size;
    if (b.ops != NULL || b.op == HIVE_OP_UPSERT)
        reach += b.n; /* as if every element inserted */
    job.second = hive_cpu_prefetch_second(reach, ct->store.buckets * ct->S);
    job.filter = &ct->filter;
    job.b = &b;
    run_chunks(ct, &job, run_task);
    *outcome = job.total;
    return HIVE_SUCCESS;
}

hive_status hive_cpu_count_inserts(void *impl, const hive_request *r, uint64_t *count,
                                   hive_stream stream)
{
    (void)impl;
    (void)stream;
    uint64_t c = 0;
    for (uint64_t i = 0; i < r->n; i++)
        c += r->ops[i] == HIVE_OP_INSERT || r->ops[i] == HIVE_OP_UPSERT;
    *count = c;
    return HIVE_SUCCESS;
}

hive_status hive_cpu_count_new(void *impl, const hive_request *r, uint64_t *count,
                               hive_stream stream)
{
    (void)stream;
    hive_cpu_table *ct = impl;
    hive_batch b = hive_batch_of(r, NULL);
    run_job job;
    memset(&job, 0, sizeof job);
    job.kernels = ct->kernels;
    job.view = hive_cpu_view(ct, &ct->store);
    job.S = ct->S;
    job.second = hive_cpu_prefetch_second(r->size, ct->store.buckets * ct->S);
    job.b = &b;
    run_chunks(ct, &job, count_task);
    *count = job.net > 0 ? (uint64_t)job.net : 0;
    return HIVE_SUCCESS;
}

hive_status hive_cpu_retry_full(void *impl, const hive_request *r, hive_batch_scratch *scratch,
                                hive_batch_outcome *outcome, hive_stream stream)
{
    (void)stream;
    hive_cpu_table *ct = impl;
    hive_view view = hive_cpu_view(ct, &ct->store);
    hive_batch b = hive_batch_of(r, marks_of(scratch));
    hive_cpu_tally tally;
    memset(&tally, 0, sizeof tally);
    /* Few keys (those rejected for room), so one thread, one key at a time. */
    for (uint64_t i = 0; i < b.n; i++) {
        if (!hive_batch_rejected_full(&b, i))
            continue;
        uint64_t rejected = tally.out.full;
        ct->kernels->run_range(&view, ct->S, 0, &ct->filter, &b, i, i + 1, &tally);
        hive_batch_rerun(&b, i, tally.out.full != rejected);
    }
    *outcome = outcome_of(&tally);
    return HIVE_SUCCESS;
}
