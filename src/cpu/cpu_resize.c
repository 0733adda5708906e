/* cpu_resize.c — linear hashing on the CPU backend (Hive §IV-C): growth maps
 * more pages behind the bucket array and splits buckets into them, shrinking
 * merges buckets back and unmaps what they held; both run one step of
 * core/resize_plan.h at a time over all the table's threads, with the bucket
 * work of designs/hive/resize_body.h.  api.c holds the table's resize lock throughout,
 * so no operation runs meanwhile (R8). */
#include <string.h>

#include "base/check.h"
#include "core/resize_plan.h"
#include "cpu_map.h"
#include "cpu_table.h"

/* Buckets (or stash slots) a thread claims at a time. */
#define STEP_CHUNK 4096u

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
 * config.resize_batch buckets (the GPU's kernel launches). */
static uint64_t run_step(hive_cpu_table *ct, hive_resize_op step, const hive_view *to, hive_index ix,
                         uint64_t begin, uint64_t end)
{
    step_job job;
    memset(&job, 0, sizeof job);
    job.kernels = ct->kernels;
    job.step = step;
    job.v = hive_cpu_view(ct, &ct->store);
    if (to != NULL)
        job.to = *to;
    job.S = ct->S;
    job.ix = ix;
    for (uint64_t at = begin; at < end; at += ct->resize_batch) {
        job.next = at;
        job.end = end - at < ct->resize_batch ? end : at + ct->resize_batch;
        if ((job.end - at) * ct->S < HIVE_CPU_PARALLEL_MIN)
            step_task(&job);
        else
            hive_cpu_pool_run(ct->pool, step_task, &job);
    }
    return job.result;
}

/* Sizes the slot and lock mappings for `buckets` buckets.  Growing, on
 * failure the table keeps what it had (perhaps with one mapping larger). */
static hive_status map_for(hive_cpu_table *ct, uint64_t buckets)
{
    hive_cpu_store *s = &ct->store;
    uint64_t slot_bytes = buckets * hive_cpu_bucket_bytes(ct), lock_bytes = hive_cpu_lock_bytes(buckets);
    if (slot_bytes > s->slot_bytes &&
        !hive_cpu_memory_allows(slot_bytes + lock_bytes + s->stash_bytes))
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, resize_call,
                         "%llu buckets need %llu bytes, more than the machine's memory",
                         (unsigned long long)buckets, (unsigned long long)(slot_bytes + lock_bytes));
    void *slots = hive_cpu_remap(s->slots, s->slot_bytes, (size_t)slot_bytes);
    if (slots == NULL)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, resize_call, "no host memory for %llu buckets",
                         (unsigned long long)buckets);
    s->slots = slots;
    s->slot_bytes = (size_t)slot_bytes;
    void *locks = hive_cpu_remap(s->locks, s->lock_bytes, (size_t)lock_bytes);
    if (locks == NULL)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, resize_call, "no host memory for %llu bucket locks",
                         (unsigned long long)buckets);
    s->locks = locks;
    s->lock_bytes = (size_t)lock_bytes;
    return HIVE_SUCCESS;
}

/* After a resize or compaction: moves stash pairs into buckets that have
 * room now, and replaces a stash that is less than half or more than twice
 * the size it should have (hive_stash_wanted) by one of that size, if all
 * remaining pairs fit in it (else, or without memory for it, the old one
 * stays: it is still correct, only crowded or large). */
static void settle_stash(hive_cpu_table *ct)
{
    hive_cpu_store *s = &ct->store;
    uint64_t stash_slots = s->stash_buckets * ct->S;
    if (__atomic_load_n(&s->stash_live, __ATOMIC_RELAXED) > 0)
        run_step(ct, HIVE_RESIZE_DRAIN, NULL, s->ix, 0, stash_slots);
    uint64_t wanted = hive_stash_wanted(ct->stash_fraction, s->buckets,
                                        __atomic_load_n(&s->stash_live, __ATOMIC_RELAXED), ct->S);
    if (!hive_stash_needs_resize(s->stash_buckets, wanted))
        return;
    hive_cpu_store bigger;
    memset(&bigger, 0, sizeof bigger);
    if (hive_cpu_stash_alloc(ct, wanted, &bigger, resize_call) != HIVE_SUCCESS) {
        hive_clear_error();
        return;
    }
    hive_view to = hive_cpu_view(ct, s);
    to.stash = bigger.stash;
    to.stash_used = bigger.stash_used;
    to.stash_live = &bigger.stash_live;
    to.stash_buckets = bigger.stash_buckets;
    if (run_step(ct, HIVE_RESIZE_RESTASH, &to, s->ix, 0, stash_slots) != 0) {
        hive_cpu_stash_free(&bigger);
        return;
    }
    hive_cpu_stash_free(s);
    s->stash = bigger.stash;
    s->stash_used = bigger.stash_used;
    s->stash_buckets = bigger.stash_buckets;
    s->stash_bytes = bigger.stash_bytes;
    s->stash_live = bigger.stash_live;
}

/* After a resize, and as the relief of a crowded stash: pairs go back to
 * their first buckets where there is room, tombstones become free slots,
 * free slots become EMPTY wherever R4 allows (designs/hive/resize_body.h), and the
 * stash is drained and sized to the table. */
static void tidy(hive_cpu_table *ct)
{
    hive_cpu_store *s = &ct->store;
    run_step(ct, HIVE_RESIZE_REFLOW, NULL, s->ix, 0, s->buckets);
    run_step(ct, HIVE_RESIZE_MARK_STASH, NULL, s->ix, 0, s->stash_buckets * ct->S);
    run_step(ct, HIVE_RESIZE_COMPACT, NULL, s->ix, 0, s->buckets);
    settle_stash(ct);
}

/* Splits buckets until there are `want`. */
static hive_status grow(hive_cpu_table *ct, uint64_t want)
{
    hive_cpu_store *s = &ct->store;
    if (want > HIVE_CPU_MAX_BUCKETS)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, resize_call,
                         "%llu buckets of %u slots: a 32-bit hash addresses at most 2^32 buckets",
                         (unsigned long long)want, ct->S);
    HIVE_TRY(map_for(ct, want));
    hive_resize_step step;
    while (hive_next_split(s->ix, want, &step)) {
        run_step(ct, HIVE_RESIZE_SPLIT, NULL, step.before, step.first, step.first + step.count);
        s->ix = hive_after_split(&step, step.first + step.count);
        s->buckets = hive_index_buckets(s->ix);
        __atomic_fetch_add(&ct->buckets_split, step.count, __ATOMIC_RELAXED);
    }
    tidy(ct);
    return HIVE_SUCCESS;
}

/* Merges buckets down toward `want`, from the last split back.  Pairs a
 * merged bucket cannot hold are placed under the merged index in a free
 * slot or TOMB of their buckets, or the stash, never by eviction
 * (hive_rehome_pair); if one finds no room, the step is undone, losing
 * nothing, and shrinking stops there.  Then unmaps the memory of the buckets
 * gone. */
static hive_status shrink(hive_cpu_table *ct, uint64_t want)
{
    hive_cpu_store *s = &ct->store;
    hive_resize_step step;
    uint64_t lost = 0;
    while (hive_next_merge(s->ix, want, &step)) {
        uint64_t end = step.first + step.count, partners = hive_index_round(step.before);
        uint64_t left = run_step(ct, HIVE_RESIZE_MERGE, NULL, step.before, step.first, end);
        s->ix = hive_after_merge(&step, step.first);
        s->buckets = hive_index_buckets(s->ix);
        if (left != 0) {
            hive_view merged = hive_cpu_view(ct, s);
            if (run_step(ct, HIVE_RESIZE_REHOME, &merged, s->ix, step.first + partners, end + partners) != 0) {
                lost = run_step(ct, HIVE_RESIZE_UNMERGE, NULL, step.before, step.first, end);
                s->ix = step.before;
                s->buckets = hive_index_buckets(s->ix);
                break;
            }
        }
        __atomic_fetch_add(&ct->buckets_merged, step.count, __ATOMIC_RELAXED);
    }
    tidy(ct);
    if (map_for(ct, s->buckets) != HIVE_SUCCESS)
        hive_clear_error(); /* giving memory back failed: the table is whole, only larger */
    if (lost != 0)
        return hive_fail(HIVE_ERROR_INTERNAL, resize_call,
                         "undoing a merge step found no room for %llu pairs",
                         (unsigned long long)lost);
    return HIVE_SUCCESS;
}

hive_status hive_cpu_resize(void *impl, uint64_t slots, hive_stream stream)
{
    (void)stream;
    hive_cpu_table *ct = impl;
    uint64_t want = slots / ct->S + (slots % ct->S != 0);
    if (want == 0)
        want = 1;
    if (want > ct->store.buckets)
        return grow(ct, want);
    if (want < ct->store.buckets)
        return shrink(ct, want);
    return HIVE_SUCCESS;
}

hive_status hive_cpu_compact(void *impl, hive_stream stream)
{
    (void)stream;
    tidy(impl);
    return HIVE_SUCCESS;
}
