/* cpu_resize.c — the CPU backend's part of a resize (backend.h's map, step,
 * set_index, stash_open ...): page mappings that grow and shrink in place,
 * and each step of src/resize.c run over all the table's threads with the
 * bucket work of designs/hive/resize_body.h.  These loops cannot fail; only
 * memory can run out.  No operation runs meanwhile (R8). */
#include <string.h>

#include "base/check.h"
#include "cpu_map.h"
#include "cpu_table.h"

/* Buckets (or stash slots) a thread claims at a time. */
#define STEP_CHUNK 4096u
/* Steps over fewer slots run on the calling thread: a slot costs a few
 * nanoseconds in a sequential pass, against tens of microseconds to wake
 * the workers. */
#define RESIZE_PARALLEL_SLOTS 16384u

static const char resize_call[] = "hive resize";

typedef struct step_job {
    const hive_cpu_kernels *kernels;
    hive_resize_op step;
    hive_view v, to;
    uint32_t S;
    hive_index ix;
    uint64_t end;
    uint64_t next;   /* first unclaimed index (__atomic) */
    uint64_t result; /* sum of the chunks' results (__atomic) */
} step_job;

static void step_task(void *arg)
{
    step_job *job = arg;
    for (;;) {
        uint64_t begin = __atomic_fetch_add(&job->next, STEP_CHUNK, __ATOMIC_RELAXED);
        if (begin >= job->end)
            return;
        uint64_t end = job->end - begin < STEP_CHUNK ? job->end : begin + STEP_CHUNK;
        uint64_t r = job->kernels->resize_range(job->step, &job->v, &job->to, job->S, job->ix, begin, end);
        __atomic_fetch_add(&job->result, r, __ATOMIC_RELAXED);
    }
}

/* Runs one step over [begin, end) on all the table's threads (on the caller
 * alone when that is too little work to share), in passes of
 * config.resize_batch buckets (the GPU's kernel launches).  REHOME places
 * into the table under `ix`, RESTASH into the stash of stash_open. */
hive_status hive_cpu_step(void *impl, hive_resize_op op, hive_index ix, uint64_t begin, uint64_t end,
                          hive_resize_outcome *out, hive_stream stream)
{
    (void)stream;
    hive_cpu_table *ct = impl;
    step_job job;
    memset(&job, 0, sizeof job);
    job.kernels = ct->kernels;
    job.step = op;
    job.v = hive_cpu_view(ct, &ct->store);
    job.to = job.v;
    if (op == HIVE_RESIZE_REHOME)
        job.to.ix = ix;
    if (op == HIVE_RESIZE_RESTASH) {
        hive_cpu_store *next = &ct->next_stash;
        job.to.stash = next->stash;
        job.to.stash_used = next->stash_used;
        job.to.stash_live = &next->stash_live;
        job.to.stash_buckets = next->stash_buckets;
    }
    job.S = ct->S;
    job.ix = ix;
    for (uint64_t at = begin; at < end; at += ct->resize_batch) {
        job.next = at;
        job.end = end - at < ct->resize_batch ? end : at + ct->resize_batch;
        if ((job.end - at) * ct->S < RESIZE_PARALLEL_SLOTS)
            step_task(&job);
        else
            hive_cpu_pool_run(ct->pool, step_task, &job);
    }
    out->finished = 1;
    out->done = end > begin ? end : begin;
    out->count = job.result;
    return HIVE_SUCCESS;
}

/* Resizes mapping p of *bytes to `want` bytes (*moved: where it is now,
 * in place where it can be).  On failure p is unchanged. */
static hive_status remap(void *p, size_t *bytes, uint64_t want, uint64_t buckets, const char *what, void **moved)
{
    void *q = hive_cpu_remap(p, *bytes, (size_t)want);
    if (q == NULL)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, resize_call, "no host memory for the %s of %llu buckets",
                         what, (unsigned long long)buckets);
    *moved = q;
    *bytes = (size_t)want;
    return HIVE_SUCCESS;
}

/* Sizes the slot, lock and tag mappings for `buckets` buckets.  Growing,
 * on failure the table keeps what it had (perhaps with a mapping larger). */
static hive_status map_for(hive_cpu_table *ct, uint64_t buckets)
{
    hive_cpu_store *s = &ct->store;
    uint64_t slot_bytes = buckets * hive_cpu_bucket_bytes(ct), lock_bytes = hive_cpu_lock_bytes(buckets);
    uint64_t tag_bytes = hive_cpu_tag_bytes(ct, buckets);
    if (slot_bytes > s->slot_bytes &&
        !hive_cpu_memory_allows(slot_bytes + lock_bytes + tag_bytes + s->stash_bytes))
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, resize_call,
                         "%llu buckets need %llu bytes, more than the machine's memory",
                         (unsigned long long)buckets, (unsigned long long)(slot_bytes + lock_bytes + tag_bytes));
    void *moved = NULL;
    HIVE_TRY(remap(s->slots, &s->slot_bytes, slot_bytes, buckets, "slots", &moved));
    s->slots = moved;
    HIVE_TRY(remap(s->locks, &s->lock_bytes, lock_bytes, buckets, "locks", &moved));
    s->locks = moved;
    if (s->tags != NULL) {
        HIVE_TRY(remap(s->tags, &s->tag_bytes, tag_bytes, buckets, "tags", &moved));
        s->tags = moved;
    }
    return HIVE_SUCCESS;
}

hive_status hive_cpu_map_buckets(void *impl, uint64_t buckets, hive_stream stream)
{
    (void)stream;
    return map_for(impl, buckets);
}

void hive_cpu_unmap_beyond(void *impl)
{
    hive_cpu_table *ct = impl;
    int quiet = hive_last_error()[0] == '\0'; /* else a failure's text, which must stay */
    if (map_for(ct, ct->store.buckets) != HIVE_SUCCESS && quiet)
        hive_clear_error(); /* giving memory back failed: the table is whole, only larger */
}

void hive_cpu_set_index(void *impl, hive_index ix)
{
    hive_cpu_table *ct = impl;
    ct->store.ix = ix;
    ct->store.buckets = hive_index_buckets(ix);
}

hive_status hive_cpu_stash_open(void *impl, uint64_t stash_buckets, hive_stream stream)
{
    (void)stream;
    hive_cpu_table *ct = impl;
    return hive_cpu_stash_alloc(ct, stash_buckets, &ct->next_stash, resize_call);
}

void hive_cpu_stash_close(void *impl, int keep)
{
    hive_cpu_table *ct = impl;
    hive_cpu_store *s = &ct->store, *next = &ct->next_stash;
    if (keep) {
        hive_cpu_stash_free(s);
        s->stash = next->stash;
        s->stash_used = next->stash_used;
        s->stash_buckets = next->stash_buckets;
        s->stash_bytes = next->stash_bytes;
        s->stash_live = next->stash_live;
        memset(next, 0, sizeof *next);
    } else {
        hive_cpu_stash_free(next);
    }
}

hive_status hive_cpu_clear_locks(void *impl, hive_stream stream)
{
    (void)stream;
    hive_cpu_table *ct = impl;
    memset(ct->store.locks, 0, hive_cpu_lock_bytes(ct->store.buckets));
    return HIVE_SUCCESS;
}
