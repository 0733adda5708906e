/* resize.c — linear hashing (Hive §IV-C; docs/design.md §7), the one driver
 * for every backend: the order of splits and merges (core/resize_plan.h),
 * their loop, tidying after them, the stash's size, what a failed step
 * leaves, and the counters.  The work of each step is the backend's
 * (backend.h: map, step, set_index, ...), and the work of each bucket the
 * design's (designs/hive/resize_body.h).  api holds the table's resize lock
 * for writing throughout, so no operation runs meanwhile (R8).
 *
 * Failures.  A step can fail part way (on the GPU: a kernel launch, or the
 * read-back of what its kernels counted; the CPU's steps cannot fail).  The
 * backend waits for what it queued whatever failed and says what ran, and
 * every failure leaves the table usable, holding exactly the pairs it held;
 * the call returns the error:
 *
 *  - Splits that ran stay, and the index names them: a split only deals a
 *    bucket's pairs out between its two halves.  A growth that fails part way
 *    leaves a table between its old and its new size.
 *  - A merge stays only if every pair it could not keep in the merged bucket
 *    is known to have been placed: its count of them read back as 0, or the
 *    rehoming's count of pairs that found no room read back as 0.  Otherwise
 *    what ran of it is undone, the index stays as it was, and shrinking
 *    stops there (as when a pair finds no room).
 *  - What ran of tidying stays (it moves pairs only between their own
 *    buckets and the stash), but its marks live in the lock bits, and a mark
 *    left set is a lock that no one releases: after any failure the lock
 *    words are cleared (no operation holds a lock while a resize runs, R8).
 *    The stash keeps its size if replacing it fails.
 *  - Memory mapped for buckets that the index does not name is given back.
 *
 * Only if this recovery fails too (the undo of a merge cannot be run, twice;
 * the stream cannot be waited for: the GPU's context is lost, as a rule) is
 * the table marked broken: every later call but hive_clear and hive_destroy
 * returns HIVE_ERROR_CUDA rather than look for pairs that may be anywhere,
 * or wait on a mark forever. */
#include "resize.h"

#include "base/check.h"
#include "core/resize_plan.h"

static const char resize_call[] = "hive resize";

/* A 32-bit hash names at most 2^32 buckets (core/index.h). */
#define MAX_BUCKETS (1ull << 32)

/* One resize or compaction: the backend, its state, and the stream. */
typedef struct resizer {
    const hive_backend_ops *ops;
    void *impl;
    uint32_t S;            /* config.bucket_slots */
    double stash_fraction; /* config.stash_fraction */
    int repack;            /* the stash is a node pool (the chaining design): replaced after every
                            * tidying, which packs its chains and gives back their emptied nodes */
    hive_resize_state *state;
    hive_stream stream;
} resizer;

static hive_shape shape_of(const resizer *z)
{
    hive_shape shape;
    z->ops->shape(z->impl, &shape);
    return shape;
}

static hive_status run_step(const resizer *z, hive_resize_op op, hive_index ix, uint64_t begin,
                            uint64_t end, hive_resize_outcome *out)
{
    return z->ops->step(z->impl, op, ix, begin, end, out, z->stream);
}

static void set_index(const resizer *z, hive_index ix) { z->ops->set_index(z->impl, ix); }

static hive_status refuse_if_broken(const resizer *z)
{
    if (!__atomic_load_n(&z->state->broken, __ATOMIC_SEQ_CST))
        return HIVE_SUCCESS;
    return hive_fail(HIVE_ERROR_CUDA, resize_call,
                     "an earlier resize failed, and so did its recovery (the GPU's context may be "
                     "lost): only hive_clear and hive_destroy work on this table");
}

static hive_status break_table(const resizer *z, const char *why)
{
    __atomic_store_n(&z->state->broken, 1, __ATOMIC_SEQ_CST);
    return hive_fail(HIVE_ERROR_CUDA, resize_call, "%s: the table is unusable until hive_clear", why);
}

/* After a failed resize or compaction: clears the marks a tidying may have
 * left in the lock words, and gives back memory beyond the buckets the
 * index names.  HIVE_ERROR_CUDA if it breaks the table. */
static hive_status recover(const resizer *z)
{
    if (__atomic_load_n(&z->state->broken, __ATOMIC_SEQ_CST))
        return HIVE_ERROR_CUDA;
    if (z->ops->clear_locks(z->impl, z->stream) != HIVE_SUCCESS)
        return break_table(z, "clearing the bucket locks after a failed resize failed");
    z->ops->unmap(z->impl);
    return HIVE_SUCCESS;
}

/* ---------------------------------------------------------------- tidying */

/* After a resize or compaction: moves stash pairs into buckets that have
 * room now, and replaces a stash that is less than half or more than twice
 * the size it should have (hive_stash_wanted) by one of that size, if all
 * remaining pairs are known to fit in it (else, or without memory for it,
 * the old one stays: still correct, only crowded or large).  A node pool
 * (the chaining design) is replaced every time: a node stays with its chain
 * until then, and RESTASH links the pairs into packed chains of the new one
 * (docs/designs/chaining.md). */
static hive_status settle_stash(const resizer *z)
{
    hive_shape shape = shape_of(z);
    uint64_t stash_slots = shape.stash_buckets * z->S, live = 0;
    hive_resize_outcome o;
    if (stash_slots != 0) {
        HIVE_TRY(run_step(z, HIVE_RESIZE_DRAIN, shape.ix, 0, stash_slots, &o));
        HIVE_TRY(z->ops->stash_live(z->impl, &live));
    }
    uint64_t wanted = hive_stash_wanted(z->stash_fraction, shape.buckets, live, z->S);
    if (!hive_stash_needs_resize(shape.stash_buckets, wanted) && !(z->repack && wanted != 0))
        return HIVE_SUCCESS;
    if (z->ops->stash_open(z->impl, wanted, z->stream) != HIVE_SUCCESS) {
        hive_clear_error();
        return HIVE_SUCCESS;
    }
    hive_status st = run_step(z, HIVE_RESIZE_RESTASH, shape.ix, 0, stash_slots, &o);
    z->ops->stash_close(z->impl, st == HIVE_SUCCESS && o.count == 0);
    return st;
}

/* After a resize, and as the relief of a crowded stash: pairs go back to
 * their first buckets where there is room, tombstones become free slots,
 * free slots become EMPTY wherever R4 allows (designs/hive/resize_body.h),
 * and the stash is drained and sized to the table. */
static hive_status tidy(const resizer *z)
{
    hive_shape shape = shape_of(z);
    hive_resize_outcome o;
    HIVE_TRY(run_step(z, HIVE_RESIZE_REFLOW, shape.ix, 0, shape.buckets, &o));
    HIVE_TRY(run_step(z, HIVE_RESIZE_MARK_STASH, shape.ix, 0, shape.stash_buckets * z->S, &o));
    HIVE_TRY(run_step(z, HIVE_RESIZE_COMPACT, shape.ix, 0, shape.buckets, &o));
    return settle_stash(z);
}

/* ---------------------------------------------------------------- growth */

/* Splits buckets until there are `want`, mapping their memory first. */
static hive_status grow(const resizer *z, uint64_t want)
{
    if (want > MAX_BUCKETS)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, resize_call,
                         "%llu buckets of %u slots: a 32-bit hash addresses at most 2^32 buckets",
                         (unsigned long long)want, z->S);
    HIVE_TRY(z->ops->map(z->impl, want, z->stream));
    hive_index ix = shape_of(z).ix;
    hive_resize_step step;
    while (hive_next_split(ix, want, &step)) {
        hive_resize_outcome o;
        hive_status st = run_step(z, HIVE_RESIZE_SPLIT, step.before, step.first, step.first + step.count, &o);
        if (!o.finished)
            return break_table(z, "a split could not be waited for");
        if (o.done > step.first) { /* what ran stays, counted or not */
            ix = hive_after_split(&step, o.done);
            set_index(z, ix);
            __atomic_fetch_add(&z->state->buckets_split, o.done - step.first, __ATOMIC_SEQ_CST);
        }
        HIVE_TRY(st);
    }
    return tidy(z);
}

/* ---------------------------------------------------------------- shrinking */

/* Undoes the merge of buckets [step->first, done) (UNMERGE under the index
 * before the step): the pairs left in each bucket and its partner are dealt
 * out between the two again.  A step that fails is run once more from where
 * it stopped (its count is not needed); if that fails too, which pairs live
 * where is not known, and the table is broken.  Returns the first failure,
 * with the merge undone. */
static hive_status undo_merge(const resizer *z, const hive_resize_step *step, uint64_t done)
{
    hive_status first = HIVE_SUCCESS;
    uint64_t at = step->first;
    for (int attempt = 0; attempt < 2 && at < done; attempt++) {
        hive_resize_outcome o;
        hive_status st = run_step(z, HIVE_RESIZE_UNMERGE, step->before, at, done, &o);
        if (st == HIVE_SUCCESS && o.count != 0) /* never, by hive_unmerge_bucket's argument */
            st = hive_fail(HIVE_ERROR_INTERNAL, resize_call, "undoing a merge step found no room for %llu pairs",
                           (unsigned long long)o.count);
        if (first == HIVE_SUCCESS)
            first = st;
        if (!o.finished)
            break;
        at = st == HIVE_SUCCESS ? done : o.done;
    }
    return at < done ? break_table(z, "undoing a merge failed") : first;
}

/* Merges buckets down toward `want`, from the last split back.  Pairs a
 * merged bucket cannot hold are placed under the merged index without
 * eviction (hive_rehome_pair); if one finds no room, the step is undone,
 * losing nothing, and shrinking stops there.  Then gives back the memory of
 * the buckets gone. */
static hive_status shrink(const resizer *z, uint64_t want)
{
    hive_index ix = shape_of(z).ix;
    hive_resize_step step;
    while (hive_next_merge(ix, want, &step)) {
        uint64_t end = step.first + step.count, partners = hive_index_round(step.before);
        hive_index merged = hive_after_merge(&step, step.first);
        hive_resize_outcome o;
        hive_status st = run_step(z, HIVE_RESIZE_MERGE, step.before, step.first, end, &o);
        uint64_t ran = o.done;
        if (st == HIVE_SUCCESS && o.count != 0)
            st = run_step(z, HIVE_RESIZE_REHOME, merged, step.first + partners, end + partners, &o);
        if (!o.finished)
            return break_table(z, "a merge could not be waited for");
        if (st != HIVE_SUCCESS || o.count != 0) { /* not known to fit: undone */
            hive_status undone = undo_merge(z, &step, ran);
            HIVE_TRY(st);
            HIVE_TRY(undone);
            break;
        }
        ix = merged;
        set_index(z, ix);
        __atomic_fetch_add(&z->state->buckets_merged, step.count, __ATOMIC_SEQ_CST);
    }
    HIVE_TRY(tidy(z));
    z->ops->unmap(z->impl);
    return HIVE_SUCCESS;
}

/* ---------------------------------------------------------------- entries */

static resizer resizer_for(const hive_backend_ops *ops, void *impl, const hive_config *config,
                           hive_resize_state *state, hive_stream stream)
{
    resizer z = {ops,   impl, config->bucket_slots, config->stash_fraction, config->design == HIVE_DESIGN_CHAINING,
                 state, stream};
    return z;
}

hive_status hive_resize(const hive_backend_ops *ops, void *impl, const hive_config *config,
                        hive_resize_state *state, uint64_t slots, hive_stream stream)
{
    resizer z = resizer_for(ops, impl, config, state, stream);
    HIVE_TRY(refuse_if_broken(&z));
    uint64_t want = slots / z.S + (slots % z.S != 0), have = shape_of(&z).buckets;
    if (want == 0)
        want = 1;
    hive_status st = want > have ? grow(&z, want) : want < have ? shrink(&z, want) : HIVE_SUCCESS;
    if (st != HIVE_SUCCESS && recover(&z) != HIVE_SUCCESS)
        st = HIVE_ERROR_CUDA; /* broken: not the OUT_OF_MEMORY that callers take as harmless */
    return st;
}

/* Packs every bucket in place (HIVE_RESIZE_PACK): hive_reclaim_tombs. */
static hive_status pack(const resizer *z)
{
    hive_shape shape = shape_of(z);
    hive_resize_outcome o;
    return run_step(z, HIVE_RESIZE_PACK, shape.ix, 0, shape.buckets, &o);
}

/* A tidying of the table at its size (tidy or pack), refused on a broken
 * table and recovered from on failure, as a resize. */
static hive_status tidy_in_place(const hive_backend_ops *ops, void *impl, const hive_config *config,
                                 hive_resize_state *state, hive_stream stream,
                                 hive_status (*work)(const resizer *z))
{
    resizer z = resizer_for(ops, impl, config, state, stream);
    HIVE_TRY(refuse_if_broken(&z));
    hive_status st = work(&z);
    if (st != HIVE_SUCCESS && recover(&z) != HIVE_SUCCESS)
        st = HIVE_ERROR_CUDA;
    return st;
}

hive_status hive_compact(const hive_backend_ops *ops, void *impl, const hive_config *config,
                         hive_resize_state *state, hive_stream stream)
{
    return tidy_in_place(ops, impl, config, state, stream, tidy);
}

hive_status hive_reclaim_tombs(const hive_backend_ops *ops, void *impl, const hive_config *config,
                               hive_resize_state *state, hive_stream stream)
{
    return tidy_in_place(ops, impl, config, state, stream, pack);
}

int hive_stash_is_oversized(const hive_config *config, uint64_t buckets, uint64_t stash_buckets,
                            uint64_t live)
{
    return hive_stash_oversized(config->stash_fraction, buckets, stash_buckets, live, config->bucket_slots);
}
