/* policy.c — what api does around a backend's work, the same on every
 * backend: growth before a batch that may insert (and for keys that found no
 * room), relief of a crowded stash, shrinking after erases, the size. */
#include <math.h>

#include "api/table.h"
#include "base/check.h"
#include "designs/names.h"

/* ---------------------------------------------------------------- sizing */

static hive_shape shape_of(const hive_table *t)
{
    hive_shape shape;
    t->ops->shape(t->impl, &shape);
    return shape;
}

uint64_t hive_policy_capacity(const hive_table *t) { return shape_of(t).buckets * t->config.bucket_slots; }

/* The resize driver (src/resize.c) on this table; the resize lock is held
 * for writing. */
/* After a resize, compaction or churn relief: s, and on success no
 * tombstone left (churned, below, counts erases from here). */
static hive_status tidied(hive_table *t, hive_status s)
{
    if (s == HIVE_SUCCESS) {
        __atomic_store_n(&t->erased_since_tidy, 0, __ATOMIC_SEQ_CST);
        if (t->ops->tidied != NULL)
            t->ops->tidied(t->impl);
    }
    return s;
}

static hive_status resize_to(hive_table *t, uint64_t slots, hive_stream stream)
{
    return tidied(t, hive_resize(t->ops, t->impl, &t->config, &t->resized, slots, stream));
}

static hive_status compact(hive_table *t, hive_stream stream)
{
    return tidied(t, hive_compact(t->ops, t->impl, &t->config, &t->resized, stream));
}

/* Churn relief (below): tombstones back to free slots, nothing moved. */
static hive_status reclaim_tombs(hive_table *t, hive_stream stream)
{
    return tidied(t, hive_reclaim_tombs(t->ops, t->impl, &t->config, &t->resized, stream));
}

/* max_load_factor, or less where the table's design cannot hold that many
 * keys in its buckets (designs/names.h): the load that a growth, a reserve
 * or a shrink makes room for.  When a batch grows the table is still
 * max_load_factor's to say (a table pinned at max_load_factor 1 stays
 * pinned); past the design's load, keys the buckets and stash cannot take
 * are rejected for room and grow it (retry_full), to this load. */
static double load_limit(const hive_table *t)
{
    double cap = hive_design_load_cap(t->config.design, t->config.bucket_slots);
    return t->config.max_load_factor < cap ? t->config.max_load_factor : cap;
}

/* The slots that hold `keys` at load `lf`. */
static uint64_t slots_at(uint64_t keys, double lf)
{
    double slots = ceil((double)keys / lf);
    return slots > (double)HIVE_MAX_SLOTS ? HIVE_MAX_SLOTS : (uint64_t)slots;
}

/* The slots a growth or a reserve makes for `keys`. */
static uint64_t slots_for(const hive_table *t, uint64_t keys) { return slots_at(keys, load_limit(t)); }

/* The capacity an automatic growth to at least `want` slots asks for: twice
 * the current one if that is more.  Doubling keeps a table's growth
 * amortised O(1) per key, keeps a power-of-two bucket count a power of two
 * (linear hashing's buckets then all cover equal hash ranges: a table part
 * way through a round has buckets of twice the load of the others, and near
 * max_load_factor those overflow), and leaves the batch that grew the table
 * room below the slow end of the load range. */
static uint64_t growth_target(const hive_table *t, uint64_t want)
{
    uint64_t cap = hive_policy_capacity(t);
    uint64_t doubled = cap > HIVE_MAX_SLOTS / 2 ? HIVE_MAX_SLOTS : 2 * cap;
    return want > doubled ? want : doubled;
}

/* Grows to `slots`; called with the resize lock held for writing.  A grown
 * table may try to shrink again at once (its buckets are new). */
static hive_status grow_locked(hive_table *t, uint64_t slots, hive_stream stream)
{
    hive_status s = resize_to(t, slots, stream);
    if (s == HIVE_SUCCESS) {
        __atomic_fetch_add(&t->grows, 1, __ATOMIC_SEQ_CST);
        t->shrink_below = UINT64_MAX;
    }
    return s;
}

/* Makes room for `incoming` more keys: grows when they would take the load
 * past max_load_factor, to load_limit's room for them (not while a device
 * view pins the layout: keys without room are then rejected for it).
 * Called with the resize lock held for reading; returns with it held for
 * reading. */
static hive_status grow_for(hive_table *t, uint64_t incoming, hive_stream stream)
{
    uint64_t keys = __atomic_load_n(&t->size, __ATOMIC_SEQ_CST) + incoming;
    if (slots_at(keys, t->config.max_load_factor) <= hive_policy_capacity(t))
        return HIVE_SUCCESS;
    pthread_rwlock_unlock(&t->resize_lock);
    pthread_rwlock_wrlock(&t->resize_lock);
    hive_status s = HIVE_SUCCESS;
    keys = __atomic_load_n(&t->size, __ATOMIC_SEQ_CST) + incoming; /* others may have grown it */
    if (slots_at(keys, t->config.max_load_factor) > hive_policy_capacity(t) && !hive_policy_pinned(t))
        s = grow_locked(t, growth_target(t, slots_for(t, keys)), stream);
    pthread_rwlock_unlock(&t->resize_lock);
    pthread_rwlock_rdlock(&t->resize_lock);
    return s;
}

/* Shrinks after erases when the load falls under min_load_factor, to a load
 * half way between the two bounds, never under the initial capacity.  A
 * shrink that stops short (a merge step that cannot place every pair is
 * undone, designs/hive/resize_body.h: keys crowded into few buckets) is counted, and
 * the next is tried only once the size has halved (or after a grow or a
 * clear), not on every erasing call.  Called with no lock held. */
static hive_status shrink_if_sparse(hive_table *t, hive_stream stream)
{
    double min_lf = t->config.min_load_factor;
    if (min_lf <= 0.0)
        return HIVE_SUCCESS;
    pthread_rwlock_wrlock(&t->resize_lock);
    hive_status s = HIVE_SUCCESS;
    uint64_t cap = hive_policy_capacity(t);
    uint64_t size = __atomic_load_n(&t->size, __ATOMIC_SEQ_CST);
    if ((double)size < min_lf * (double)cap && cap > t->config.initial_capacity &&
        size < t->shrink_below && !hive_policy_pinned(t)) {
        double target_lf = (min_lf + load_limit(t)) / 2;
        uint64_t want = (uint64_t)ceil((double)size / target_lf);
        if (want < t->config.initial_capacity)
            want = t->config.initial_capacity;
        if (want < cap) {
            s = resize_to(t, want, stream);
            uint64_t now = hive_policy_capacity(t);
            if (s == HIVE_SUCCESS && now < cap)
                __atomic_fetch_add(&t->shrinks, 1, __ATOMIC_SEQ_CST);
            /* The initial capacity is at least the base of linear hashing
             * (core/index.h), so nothing but an undone step stops a shrink
             * above the whole buckets of `want`. */
            uint64_t S = t->config.bucket_slots;
            if (s == HIVE_SUCCESS && now > (want + S - 1) / S * S) {
                __atomic_fetch_add(&t->shrinks_undone, 1, __ATOMIC_SEQ_CST);
                t->shrink_below = size / 2;
            }
            if (s == HIVE_ERROR_OUT_OF_MEMORY || s == HIVE_ERROR_TABLE_FULL) {
                hive_clear_error(); /* the table is intact, and staying large is harmless */
                s = HIVE_SUCCESS;
            }
        }
    }
    pthread_rwlock_unlock(&t->resize_lock);
    return s;
}

/* Empties a crowded stash (and gives back the memory of a stash enlarged
 * for crowded keys once erases have emptied it): compaction turns the buckets' tombstones back
 * into free slots, the stash's pairs move into their buckets where there is
 * room, and the stash is resized to hold what stays with room to spare
 * (resize.h, hive_compact).  A stash still crowded after that has reached its
 * cap (a quarter of the table), and only then does the table double, where
 * the split buckets take more of the pairs: keys crowded into a few buckets
 * (docs/design.md, "Crowding") should not double the memory of a table
 * that is mostly empty.  Without this, churn at a fixed capacity fills the
 * stash: its pairs leave only when erased.  Called with no lock held. */
static hive_status relieve_stash(hive_table *t, hive_stream stream)
{
    pthread_rwlock_wrlock(&t->resize_lock);
    if (hive_policy_pinned(t)) {
        pthread_rwlock_unlock(&t->resize_lock);
        return HIVE_SUCCESS; /* the stash stays crowded until the views are released */
    }
    hive_status s = compact(t, stream);
    hive_shape shape = shape_of(t);
    uint64_t live = 0, capacity = shape.buckets * t->config.bucket_slots;
    if (s == HIVE_SUCCESS)
        s = t->ops->stash_live(t->impl, &live);
    if (s == HIVE_SUCCESS && 2 * live > shape.stash_buckets * t->config.bucket_slots &&
        capacity < HIVE_MAX_SLOTS)
        s = grow_locked(t, growth_target(t, capacity + 1), stream);
    pthread_rwlock_unlock(&t->resize_lock);
    if (s == HIVE_ERROR_OUT_OF_MEMORY || s == HIVE_ERROR_TABLE_FULL) {
        hive_clear_error(); /* the batch succeeded and the table is intact: the stash stays full */
        return HIVE_SUCCESS;
    }
    return s;
}

/* Churn: erases leave tombstones, which only an insert's locked path
 * reuses, while lock-free inserts take the free slots, which never come back
 * between resizes (docs/design.md R2).  A table that erases and inserts at a
 * steady size thus runs out of free slots, and its inserts take the locked
 * path (a tombstone, an eviction or the stash) ever more often.  Turning the
 * tombstones back into free slots (hive_reclaim_tombs) costs a pass over the
 * buckets, so it runs once the erases since the last tidying could have
 * used up the table's room, and are at least HIVE_CHURN_SHARE of its slots,
 * in the designs where it pays (designs/names.h; docs/perf.md, "Designs
 * under churn"). */
#define HIVE_CHURN_SHARE 16u /* 1/16 of the slots */

static int churned(const hive_table *t)
{
    if (!hive_design_reclaims_tombs(t->config.design))
        return 0;
    uint64_t cap = hive_policy_capacity(t);
    uint64_t size = __atomic_load_n(&t->size, __ATOMIC_SEQ_CST);
    uint64_t erased = __atomic_load_n(&t->erased_since_tidy, __ATOMIC_SEQ_CST);
    uint64_t room = cap > size ? cap - size : 0;
    return erased >= cap / HIVE_CHURN_SHARE && erased > room;
}

/* Turns a churned table's tombstones back into free slots before a batch
 * that may insert, the batch that needs them.  Called with no lock held. */
static hive_status relieve_churn(hive_table *t, hive_stream stream)
{
    pthread_rwlock_rdlock(&t->resize_lock); /* the shape, which a resize changes */
    int churn = churned(t);
    pthread_rwlock_unlock(&t->resize_lock);
    if (!churn)
        return HIVE_SUCCESS;
    pthread_rwlock_wrlock(&t->resize_lock);
    hive_status s = churned(t) && !hive_policy_pinned(t) ? reclaim_tombs(t, stream) : HIVE_SUCCESS;
    pthread_rwlock_unlock(&t->resize_lock);
    return s;
}

/* After a batch, with the resize lock held for reading: whether its stash
 * needs relief, being crowded (over half full) or, enlarged for crowded keys
 * once, now twice what its pairs need (resize.c's rule; erases emptied it).
 * Only a batch that stashed can crowd the stash, and only one that erased
 * from an enlarged stash can leave it oversized: the others need not read
 * the stash's count (on the GPU a second wait). */
static hive_status stash_needs_relief(hive_table *t, const hive_batch_outcome *o, int *relieve)
{
    *relieve = 0;
    hive_shape shape = shape_of(t);
    int enlarged = hive_stash_is_oversized(&t->config, shape.buckets, shape.stash_buckets, 0);
    if (o->steps[HIVE_OUTCOME_STASHED] == 0 && !(enlarged && o->erased != 0))
        return HIVE_SUCCESS;
    uint64_t live = 0;
    HIVE_TRY(t->ops->stash_live(t->impl, &live));
    *relieve = 2 * live > shape.stash_buckets * t->config.bucket_slots ||
               (o->erased != 0 && hive_stash_is_oversized(&t->config, shape.buckets, shape.stash_buckets, live));
    return HIVE_SUCCESS;
}

/* Adds what a batch (or a retry of its keys) did to the table's counts. */
static void fold(hive_table *t, const hive_batch_outcome *o)
{
    __atomic_fetch_add(&t->size, o->inserted, __ATOMIC_SEQ_CST);
    __atomic_fetch_sub(&t->size, o->erased, __ATOMIC_SEQ_CST);
    __atomic_fetch_add(&t->erased_since_tidy, o->erased, __ATOMIC_SEQ_CST);
    for (int i = 0; i < 4; i++)
        __atomic_fetch_add(&t->insert_steps[i], o->steps[i], __ATOMIC_RELAXED);
    __atomic_fetch_add(&t->evictions, o->evictions, __ATOMIC_RELAXED);
}

/* Why keys rejected for room stayed so (retry_full). */
enum { HIVE_GREW = 0, HIVE_GROW_OUT_OF_MEMORY, HIVE_GROW_PINNED };

static hive_status outcome_status(const hive_batch_outcome *o, int grow_failed, const char *call)
{
    if (o->bad_ops)
        return hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call,
                         "%llu elements had an op code outside hive_op and were skipped",
                         (unsigned long long)o->bad_ops);
    if (o->full)
        return hive_fail(HIVE_ERROR_TABLE_FULL, call, "%llu keys found no room (%s)",
                         (unsigned long long)o->full,
                         grow_failed == HIVE_GROW_OUT_OF_MEMORY
                             ? "and growing the table for them ran out of memory"
                         : grow_failed == HIVE_GROW_PINNED
                             ? "and a device view (hive_device_view_acquire) keeps the table from growing"
                             : "max_evictions and the stash exhausted, and the table at its largest");
    if (o->reserved)
        return hive_fail(HIVE_ERROR_RESERVED_KEY, call,
                         "%llu keys were reserved sentinels (>= HIVE_KV*_RESERVED_MIN) and skipped",
                         (unsigned long long)o->reserved);
    return HIVE_SUCCESS;
}

/* Keys rejected for lack of room in a table that may still grow: double it
 * and run those keys again, until they fit or memory runs out.  Near a
 * high max_load_factor, or in a small table filled by one large batch, a few
 * keys can find their two buckets, their eviction chains and their stash probe
 * all full while the table as a whole is not.  In a table under half of
 * max_load_factor, rejected keys are crowded into a few buckets rather than
 * numerous: the first try compacts instead, which enlarges the stash for
 * them (relieve_stash), and only a second rejection doubles the table.  So
 * does the first try in a churned table, whose room is tombstones. */
static hive_status retry_full(hive_table *t, const hive_request *r, hive_batch_scratch *scratch,
                              hive_batch_outcome *out, int *grow_failed, hive_stream stream)
{
    for (int tries = 0; out->full > 0; tries++) {
        pthread_rwlock_wrlock(&t->resize_lock);
        uint64_t cap = hive_policy_capacity(t);
        int sparse = tries == 0 && ((t->config.stash_fraction > 0 &&
                                     (double)__atomic_load_n(&t->size, __ATOMIC_SEQ_CST) <
                                         load_limit(t) / 2 * (double)cap) ||
                                    churned(t));
        int pinned = hive_policy_pinned(t);
        hive_status s = pinned                  ? HIVE_ERROR_TABLE_FULL
                        : sparse                ? compact(t, stream)
                        : cap >= HIVE_MAX_SLOTS ? HIVE_ERROR_TABLE_FULL
                                                : grow_locked(t, growth_target(t, cap + 1), stream);
        pthread_rwlock_unlock(&t->resize_lock);
        if (s == HIVE_ERROR_OUT_OF_MEMORY || s == HIVE_ERROR_TABLE_FULL) {
            hive_clear_error();
            *grow_failed = pinned ? HIVE_GROW_PINNED : s == HIVE_ERROR_OUT_OF_MEMORY ? HIVE_GROW_OUT_OF_MEMORY
                                                                                   : HIVE_GREW;
            return HIVE_SUCCESS; /* the keys stay rejected: outcome_status reports it */
        }
        if (s != HIVE_SUCCESS)
            return s;
        hive_batch_outcome again = {0};
        pthread_rwlock_rdlock(&t->resize_lock);
        s = t->ops->retry_full(t->impl, r, scratch, &again, stream);
        if (s == HIVE_SUCCESS)
            fold(t, &again);
        pthread_rwlock_unlock(&t->resize_lock);
        if (s != HIVE_SUCCESS)
            return s;
        out->inserted += again.inserted;
        out->full = again.full;
    }
    return HIVE_SUCCESS;
}

/* ---------------------------------------------------------------- work the host did not wait for */

int hive_policy_pinned(const hive_table *t) { return __atomic_load_n(&t->pins, __ATOMIC_SEQ_CST) != 0; }

hive_status hive_policy_refuse_if_pinned(const hive_table *t, const char *call)
{
    uint64_t pins = __atomic_load_n(&t->pins, __ATOMIC_SEQ_CST);
    if (pins == 0)
        return HIVE_SUCCESS;
    return hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call,
                     "%llu device view%s (hive_device_view_acquire) pin the table's layout: release %s first",
                     (unsigned long long)pins, pins == 1 ? "" : "s", pins == 1 ? "it" : "them");
}

/* Under the resize lock held for writing, no asynchronous call is being
 * enqueued (each holds it for reading), so that the calls counted are those
 * the backend's settle waits for. */
/* Whether asynchronous work may have counted something since the last settle. */
static int may_be_unsettled(const hive_table *t)
{
    return t->ops->settle != NULL && (__atomic_load_n(&t->unsettled, __ATOMIC_SEQ_CST) != 0 ||
                                      __atomic_load_n(&t->graphs_mutate, __ATOMIC_SEQ_CST) != 0);
}

static hive_status settle_locked(hive_table *t, hive_batch_outcome *o)
{
    if (!may_be_unsettled(t))
        return HIVE_SUCCESS;
    HIVE_TRY(t->ops->settle(t->impl, o));
    __atomic_store_n(&t->unsettled, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&t->async_bound, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&t->view_unsettled, 0, __ATOMIC_SEQ_CST);
    return HIVE_SUCCESS;
}

hive_status hive_policy_settle(hive_table *t)
{
    if (!may_be_unsettled(t))
        return HIVE_SUCCESS;
    pthread_rwlock_wrlock(&t->resize_lock);
    hive_batch_outcome o = {0};
    hive_status s = settle_locked(t, &o);
    if (s == HIVE_SUCCESS)
        fold(t, &o);
    pthread_rwlock_unlock(&t->resize_lock);
    return s;
}

hive_status hive_policy_room_for_async(hive_table *t, uint64_t incoming, hive_stream stream)
{
    uint64_t limit = (uint64_t)(t->config.max_load_factor * (double)hive_policy_capacity(t));
    uint64_t bound = __atomic_load_n(&t->size, __ATOMIC_SEQ_CST) +
                     __atomic_load_n(&t->async_bound, __ATOMIC_SEQ_CST) + incoming;
    hive_status s = HIVE_SUCCESS;
    if (!hive_policy_pinned(t) && (bound > limit || __atomic_load_n(&t->view_unsettled, __ATOMIC_SEQ_CST))) {
        pthread_rwlock_unlock(&t->resize_lock);
        s = hive_policy_settle(t);
        pthread_rwlock_rdlock(&t->resize_lock);
        if (s == HIVE_SUCCESS)
            s = grow_for(t, __atomic_load_n(&t->async_bound, __ATOMIC_SEQ_CST) + incoming, stream);
    }
    if (s == HIVE_SUCCESS)
        __atomic_fetch_add(&t->async_bound, incoming, __ATOMIC_SEQ_CST);
    return s;
}

/* ---------------------------------------------------------------- batches */

hive_status hive_policy_run(hive_table *t, const hive_request *request, int may_erase,
                            hive_stream stream, const char *call, hive_batch_outcome *outcome)
{
    hive_batch_outcome out = {0};
    hive_request r = *request;
    /* The size decides growth and shrinking: asynchronous work counts first. */
    if (may_erase || hive_request_may_insert(&r))
        HIVE_TRY(hive_policy_settle(t));
    if (hive_request_may_insert(&r))
        HIVE_TRY(relieve_churn(t, stream));
    /* Before anything runs: a batch that cannot have its scratch does nothing. */
    hive_batch_scratch *scratch = NULL;
    HIVE_TRY(t->ops->begin(t->impl, &r, &scratch, stream));
    pthread_rwlock_rdlock(&t->resize_lock);
    hive_status s = hive_refuse_if_broken(t, call);
    if (s == HIVE_SUCCESS && hive_request_may_insert(&r)) {
        /* How many keys the batch may add: every element, or every
         * insert-type one (a cheap pass over the op codes); and, where that
         * would grow the table, the ones whose key is absent now less the
         * erases of present keys (a pass of finds), so that updates of
         * present keys never grow it, nor does churn that keeps the size: the
         * size after the batch decides.  Within the batch the load may pass
         * the bound by what its erases free; an insert that then finds no
         * room is run again after growth (retry_full). */
        uint64_t incoming = r.n;
        uint64_t limit = (uint64_t)(t->config.max_load_factor * (double)hive_policy_capacity(t));
        uint64_t size = __atomic_load_n(&t->size, __ATOMIC_SEQ_CST);
        r.size = size; /* count_new's prefetching reads it */
        if (r.ops != NULL && size + incoming > limit)
            s = t->ops->count_inserts(t->impl, &r, &incoming, stream);
        if (s == HIVE_SUCCESS && size + incoming > limit)
            s = t->ops->count_new(t->impl, &r, &incoming, stream);
        if (s == HIVE_SUCCESS)
            s = grow_for(t, incoming, stream);
    }
    r.size = __atomic_load_n(&t->size, __ATOMIC_SEQ_CST);
    int relieve = 0, grow_failed = 0;
    if (s == HIVE_SUCCESS)
        s = t->ops->run(t->impl, &r, scratch, &out, stream);
    if (s == HIVE_SUCCESS)
        s = stash_needs_relief(t, &out, &relieve);
    if (s == HIVE_SUCCESS)
        fold(t, &out);
    pthread_rwlock_unlock(&t->resize_lock);
    if (s == HIVE_SUCCESS && out.full > 0)
        s = retry_full(t, &r, scratch, &out, &grow_failed, stream);
    t->ops->end(t->impl, &r, scratch, stream);
    if (s != HIVE_SUCCESS)
        return s;
    if (outcome != NULL)
        *outcome = out;
    if (relieve)
        HIVE_TRY(relieve_stash(t, stream));
    if (may_erase && out.erased > 0)
        HIVE_TRY(shrink_if_sparse(t, stream));
    return outcome_status(&out, grow_failed, call);
}

hive_status hive_policy_reserve(hive_table *t, uint64_t keys, hive_stream stream)
{
    pthread_rwlock_wrlock(&t->resize_lock);
    hive_status s = hive_policy_refuse_if_pinned(t, "hive_reserve");
    uint64_t want = slots_for(t, keys);
    if (s == HIVE_SUCCESS && want > hive_policy_capacity(t))
        s = grow_locked(t, want, stream);
    pthread_rwlock_unlock(&t->resize_lock);
    return s;
}

hive_status hive_policy_clear(hive_table *t, hive_stream stream)
{
    /* What asynchronous work counted before the clear is gone with its keys. */
    hive_batch_outcome gone = {0};
    HIVE_TRY(settle_locked(t, &gone));
    __atomic_store_n(&t->size, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&t->erased_since_tidy, 0, __ATOMIC_SEQ_CST); /* every slot is free again */
    t->shrink_below = UINT64_MAX;
    /* A stash enlarged for crowded keys goes back to stash_fraction.  The
     * table is cleared either way: a compaction that fails leaves it
     * usable with its large stash, and the clear succeeded. */
    hive_shape shape = shape_of(t);
    if (hive_stash_is_oversized(&t->config, shape.buckets, shape.stash_buckets, 0) &&
        compact(t, stream) != HIVE_SUCCESS)
        hive_clear_error();
    return HIVE_SUCCESS;
}
