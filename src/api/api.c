/* api.c — every hive_* entry point: check the handle and the arguments, take
 * the table's resize lock, keep the size and the load factor in bounds, and
 * hand the work to the table's backend. */
#define _GNU_SOURCE /* pthread_rwlockattr_setkind_np: a writer-preferring resize lock */
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "backend.h"
#include "base/check.h"
#include "api/table.h"

/* The hash is 32 bits wide, so a table addresses at most 2^32 buckets; with
 * buckets of at most 32 slots that is 2^37 slots. */
#define HIVE_MAX_SLOTS (1ull << 37)
/* Larger batches are surely a mistake (over 4 TiB of keys). */
#define HIVE_MAX_BATCH (1ull << 40)

/* ---------------------------------------------------------------- config */

static hive_status check_config(const hive_config *c)
{
    static const char call[] = "hive_create";
    HIVE_CHECK_ARG(c != NULL, call, "config is NULL");
    HIVE_CHECK_ARG(c->struct_size == sizeof(hive_config), call,
                   "config.struct_size is %u, expected %u: start from HIVE_CONFIG_INIT",
                   c->struct_size, (unsigned)sizeof(hive_config));
    HIVE_CHECK_ARG(c->version == HIVE_CONFIG_VERSION, call,
                   "config.version is %u, this library takes %u", c->version, HIVE_CONFIG_VERSION);
    HIVE_CHECK_ARG(c->backend == HIVE_BACKEND_AUTO || c->backend == HIVE_BACKEND_CUDA ||
                       c->backend == HIVE_BACKEND_CPU,
                   call, "config.backend %d is not a hive_backend", (int)c->backend);
    HIVE_CHECK_ARG(c->key_width == HIVE_KV32 || c->key_width == HIVE_KV64, call,
                   "config.key_width %d is not a hive_key_width", (int)c->key_width);
    HIVE_CHECK_ARG(c->device >= 0, call, "config.device %d is negative", c->device);
    HIVE_CHECK_ARG(c->initial_capacity >= 1 && c->initial_capacity <= HIVE_MAX_SLOTS, call,
                   "config.initial_capacity %llu is outside 1..2^37",
                   (unsigned long long)c->initial_capacity);
    HIVE_CHECK_ARG(c->max_load_factor > 0.0 && c->max_load_factor <= 1.0, call,
                   "config.max_load_factor %g is outside (0, 1]", c->max_load_factor);
    HIVE_CHECK_ARG(c->min_load_factor >= 0.0 && c->min_load_factor <= c->max_load_factor / 2, call,
                   "config.min_load_factor %g is outside [0, max_load_factor/2]",
                   c->min_load_factor);
    HIVE_CHECK_ARG(c->resize_batch >= 1, call, "config.resize_batch is 0");
    HIVE_CHECK_ARG(c->max_evictions <= 1024, call, "config.max_evictions %u is over 1024",
                   c->max_evictions);
    HIVE_CHECK_ARG(c->stash_fraction >= 0.0 && c->stash_fraction <= 0.25, call,
                   "config.stash_fraction %g is outside [0, 0.25]", c->stash_fraction);
    HIVE_CHECK_ARG(c->threads <= 4096, call, "config.threads %u is over 4096", c->threads);
    HIVE_CHECK_ARG(c->bucket_slots == 0 || (c->bucket_slots >= 4 && c->bucket_slots <= 32 &&
                                            (c->bucket_slots & (c->bucket_slots - 1)) == 0),
                   call, "config.bucket_slots %u is not 0 or a power of two in 4..32",
                   c->bucket_slots);
    HIVE_CHECK_ARG(c->lanes_per_op == 0 || (c->lanes_per_op <= 32 &&
                                            (c->lanes_per_op & (c->lanes_per_op - 1)) == 0),
                   call, "config.lanes_per_op %u is not 0 or a power of two in 1..32",
                   c->lanes_per_op);
    HIVE_CHECK_ARG(c->lanes_per_op == 0 || c->bucket_slots == 0 ||
                       c->lanes_per_op <= c->bucket_slots,
                   call, "config.lanes_per_op %u exceeds bucket_slots %u", c->lanes_per_op,
                   c->bucket_slots);
    HIVE_CHECK_ARG(c->design == HIVE_DESIGN_HIVE || c->design == HIVE_DESIGN_DOUBLE, call,
                   "config.design %d is not a hive_design (HIVE_DESIGN_HIVE or HIVE_DESIGN_DOUBLE)",
                   (int)c->design);
    return HIVE_SUCCESS;
}

static const hive_backend_ops *pick_backend(hive_config *c)
{
#ifdef HIVE_WITH_CUDA
    if (c->backend == HIVE_BACKEND_AUTO)
        c->backend = hive_cuda_device_usable(c->device) ? HIVE_BACKEND_CUDA : HIVE_BACKEND_CPU;
    if (c->backend == HIVE_BACKEND_CUDA)
        return &hive_cuda_backend;
#else
    if (c->backend == HIVE_BACKEND_AUTO)
        c->backend = HIVE_BACKEND_CPU;
    if (c->backend == HIVE_BACKEND_CUDA)
        return NULL;
#endif
    return &hive_cpu_backend;
}

/* The resize lock prefers writers: with glibc's default (readers first), a
 * steady stream of batches on other threads, each taking it for reading,
 * can hold off a resize indefinitely.  No thread takes it for reading twice,
 * which a writer-preferring lock would deadlock. */
static int init_resize_lock(pthread_rwlock_t *lock)
{
    pthread_rwlockattr_t attr;
    if (pthread_rwlockattr_init(&attr) != 0)
        return -1;
    pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    int r = pthread_rwlock_init(lock, &attr);
    pthread_rwlockattr_destroy(&attr);
    return r;
}

hive_status hive_create(const hive_config *config, hive_table **table)
{
    static const char call[] = "hive_create";
    hive_clear_error();
    HIVE_CHECK_ARG(table != NULL, call, "table (the output handle) is NULL");
    HIVE_TRY(check_config(config));

    hive_config c = *config;
    if (c.threads == 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        c.threads = cores > 0 ? (uint32_t)cores : 1u;
    }
    const hive_backend_ops *ops = pick_backend(&c);
    if (ops == NULL)
        return hive_fail(HIVE_ERROR_UNSUPPORTED, call,
                         "this build of hive has no CUDA backend (built with HIVE_WITH_CUDA=OFF)");

    hive_table *t = hive_host_calloc(1, sizeof *t);
    if (t == NULL)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "no host memory for the table handle");
    if (init_resize_lock(&t->resize_lock) != 0) {
        hive_host_free(t);
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "cannot initialise the table lock");
    }
    t->config = c;
    t->ops = ops;
    t->shrink_below = UINT64_MAX;
    hive_status s = ops->create(t);
    if (s != HIVE_SUCCESS) {
        pthread_rwlock_destroy(&t->resize_lock);
        hive_host_free(t);
        return s;
    }
    t->magic = HIVE_TABLE_MAGIC;
    hive_debug("created a %s table: %s, %llu slots", ops->name,
               c.key_width == HIVE_KV32 ? "KV32" : "KV64",
               (unsigned long long)ops->capacity(t));
    *table = t;
    return HIVE_SUCCESS;
}

/* Every call but hive_create and hive_destroy runs between table_enter and
 * table_leave, so that hive_destroy can wait for the calls inside.  The
 * count goes up before the handle is checked and hive_destroy marks the
 * handle before it reads the count (both sequentially consistent): either
 * the call sees the mark and leaves, or hive_destroy sees the call and
 * waits for it. */
static hive_status table_enter(hive_table *t, const char *call)
{
    HIVE_CHECK_ARG(t != NULL, call, "table is NULL");
    __atomic_fetch_add(&t->calls, 1, __ATOMIC_SEQ_CST);
    uint32_t magic = __atomic_load_n(&t->magic, __ATOMIC_SEQ_CST);
    if (magic != HIVE_TABLE_MAGIC) {
        __atomic_fetch_sub(&t->calls, 1, __ATOMIC_SEQ_CST);
        return hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call,
                         magic == HIVE_TABLE_DYING ? "table is being destroyed"
                                                   : "table is not a live hive table (destroyed, or not from hive_create)");
    }
    return HIVE_SUCCESS;
}

static void table_leave(hive_table *t)
{
    __atomic_fetch_sub(&t->calls, 1, __ATOMIC_SEQ_CST);
}

hive_status hive_destroy(hive_table *table)
{
    static const char call[] = "hive_destroy";
    hive_clear_error();
    HIVE_CHECK_ARG(table != NULL, call, "table is NULL");
    uint32_t live = HIVE_TABLE_MAGIC;
    HIVE_CHECK_ARG(__atomic_compare_exchange_n(&table->magic, &live, HIVE_TABLE_DYING, 0, __ATOMIC_SEQ_CST,
                                               __ATOMIC_SEQ_CST),
                   call, live == HIVE_TABLE_DYING ? "table is already being destroyed"
                                                  : "table is not a live hive table (destroyed, or not from hive_create)");
    /* Calls in flight hold no lock that this needs; each ends on its own. */
    while (__atomic_load_n(&table->calls, __ATOMIC_SEQ_CST) != 0)
        sched_yield();
    table->ops->destroy(table);
    pthread_rwlock_destroy(&table->resize_lock);
    table->magic = 0;
    hive_host_free(table);
    return HIVE_SUCCESS;
}

hive_status hive_get_config(const hive_table *table, hive_config *config)
{
    static const char call[] = "hive_get_config";
    hive_clear_error();
    hive_table *t = (hive_table *)table; /* only its call count changes */
    HIVE_TRY(table_enter(t, call));
    hive_status s = config != NULL ? HIVE_SUCCESS
                                   : hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call, "config is NULL");
    if (s == HIVE_SUCCESS)
        *config = table->config;
    table_leave(t);
    return s;
}

/* ---------------------------------------------------------------- sizing */

static uint64_t slots_for(const hive_table *t, uint64_t keys)
{
    double slots = ceil((double)keys / t->config.max_load_factor);
    return slots > (double)HIVE_MAX_SLOTS ? HIVE_MAX_SLOTS : (uint64_t)slots;
}

/* The capacity an automatic growth to at least `want` slots asks for: twice
 * the current one if that is more.  Doubling keeps a table's growth
 * amortised O(1) per key, keeps a power-of-two bucket count a power of two
 * (linear hashing's buckets then all cover equal hash ranges: a table part
 * way through a round has buckets of twice the load of the others, and near
 * max_load_factor those overflow), and leaves the batch that grew the table
 * room below the slow end of the load range. */
static uint64_t growth_target(const hive_table *t, uint64_t want)
{
    uint64_t cap = t->ops->capacity(t);
    uint64_t doubled = cap > HIVE_MAX_SLOTS / 2 ? HIVE_MAX_SLOTS : 2 * cap;
    return want > doubled ? want : doubled;
}

/* Grows to `slots`; called with the resize lock held for writing.  A grown
 * table may try to shrink again at once (its buckets are new). */
static hive_status grow_locked(hive_table *t, uint64_t slots, hive_stream stream)
{
    hive_status s = t->ops->resize(t, slots, stream);
    if (s == HIVE_SUCCESS) {
        __atomic_fetch_add(&t->grows, 1, __ATOMIC_SEQ_CST);
        t->shrink_below = UINT64_MAX;
    }
    return s;
}

/* Makes room for `incoming` more keys under max_load_factor.  Called with the
 * resize lock held for reading; returns with it held for reading. */
static hive_status grow_for(hive_table *t, uint64_t incoming, hive_stream stream)
{
    uint64_t want = slots_for(t, __atomic_load_n(&t->size, __ATOMIC_SEQ_CST) + incoming);
    if (want <= t->ops->capacity(t))
        return HIVE_SUCCESS;
    pthread_rwlock_unlock(&t->resize_lock);
    pthread_rwlock_wrlock(&t->resize_lock);
    hive_status s = HIVE_SUCCESS;
    want = slots_for(t, __atomic_load_n(&t->size, __ATOMIC_SEQ_CST) + incoming); /* others may have grown it */
    if (want > t->ops->capacity(t))
        s = grow_locked(t, growth_target(t, want), stream);
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
    uint64_t cap = t->ops->capacity(t);
    uint64_t size = __atomic_load_n(&t->size, __ATOMIC_SEQ_CST);
    if ((double)size < min_lf * (double)cap && cap > t->config.initial_capacity &&
        size < t->shrink_below) {
        double target_lf = (min_lf + t->config.max_load_factor) / 2;
        uint64_t want = (uint64_t)ceil((double)size / target_lf);
        if (want < t->config.initial_capacity)
            want = t->config.initial_capacity;
        if (want < cap) {
            s = t->ops->resize(t, want, stream);
            uint64_t now = t->ops->capacity(t);
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
 * (backend.h's compact).  A stash still crowded after that has reached its
 * cap (a quarter of the table), and only then does the table double, where
 * the split buckets take more of the pairs: keys crowded into a few buckets
 * (docs/design.md, "Crowding") should not double the memory of a table
 * that is mostly empty.  Without this, churn at a fixed capacity fills the
 * stash: its pairs leave only when erased.  Called with no lock held. */
static hive_status relieve_stash(hive_table *t, hive_stream stream)
{
    pthread_rwlock_wrlock(&t->resize_lock);
    hive_status s = t->ops->compact(t, stream);
    hive_stats st;
    if (s == HIVE_SUCCESS)
        s = t->ops->stats(t, &st);
    if (s == HIVE_SUCCESS && 2 * st.stash_size > st.stash_capacity && st.capacity < HIVE_MAX_SLOTS)
        s = grow_locked(t, growth_target(t, st.capacity + 1), stream);
    pthread_rwlock_unlock(&t->resize_lock);
    if (s == HIVE_ERROR_OUT_OF_MEMORY || s == HIVE_ERROR_TABLE_FULL) {
        hive_clear_error(); /* the batch succeeded and the table is intact: the stash stays full */
        return HIVE_SUCCESS;
    }
    return s;
}

/* ---------------------------------------------------------------- batches */

/* An array argument: NULL only where not required, aligned to its
 * elements (`align` bytes: a misaligned key array would fault a GPU's
 * context for every table on it), and in memory the backend can reach. */
static hive_status check_array(const hive_table *t, const void *p, int required, size_t align,
                               const char *call, const char *what)
{
    if (p == NULL) {
        HIVE_CHECK_ARG(!required, call, "%s is NULL", what);
        return HIVE_SUCCESS;
    }
    HIVE_CHECK_ARG((uintptr_t)p % align == 0, call, "%s (%p) is not aligned to its %zu-byte elements",
                   what, p, align);
    return t->ops->check_pointer(t, p, call, what);
}

/* Bytes of one key or value of the table. */
static size_t kv_bytes(const hive_table *t)
{
    return t->config.key_width == HIVE_KV64 ? 8 : 4;
}

static hive_status outcome_status(const hive_batch_outcome *o, const char *call)
{
    if (o->bad_ops)
        return hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call,
                         "%llu elements had an op code outside hive_op and were skipped",
                         (unsigned long long)o->bad_ops);
    if (o->full)
        return hive_fail(HIVE_ERROR_TABLE_FULL, call, "%llu keys found no room (%s)",
                         (unsigned long long)o->full,
                         o->grow_failed ? "and growing the table for them ran out of memory"
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
 * them (relieve_stash), and only a second rejection doubles the table. */
static hive_status retry_full(hive_table *t, const hive_batch *b, hive_batch_outcome *out,
                              hive_stream stream)
{
    for (int tries = 0; out->full > 0; tries++) {
        pthread_rwlock_wrlock(&t->resize_lock);
        uint64_t cap = t->ops->capacity(t);
        int sparse = tries == 0 && t->config.stash_fraction > 0 &&
                      (double)__atomic_load_n(&t->size, __ATOMIC_SEQ_CST) < t->config.max_load_factor / 2 * (double)cap;
        hive_status s = sparse                 ? t->ops->compact(t, stream)
                        : cap >= HIVE_MAX_SLOTS ? HIVE_ERROR_TABLE_FULL
                                                : grow_locked(t, growth_target(t, cap + 1), stream);
        pthread_rwlock_unlock(&t->resize_lock);
        if (s == HIVE_ERROR_OUT_OF_MEMORY || s == HIVE_ERROR_TABLE_FULL) {
            hive_clear_error();
            out->grow_failed = s == HIVE_ERROR_OUT_OF_MEMORY;
            return HIVE_SUCCESS; /* the keys stay rejected: outcome_status reports it */
        }
        if (s != HIVE_SUCCESS)
            return s;
        hive_batch_outcome again = {0};
        pthread_rwlock_rdlock(&t->resize_lock);
        s = t->ops->retry_full(t, b, &again, stream);
        if (s == HIVE_SUCCESS)
            __atomic_fetch_add(&t->size, again.inserted, __ATOMIC_SEQ_CST);
        pthread_rwlock_unlock(&t->resize_lock);
        if (s != HIVE_SUCCESS)
            return s;
        out->inserted += again.inserted;
        out->full = again.full;
    }
    return HIVE_SUCCESS;
}

/* Runs one checked batch: grows first if it may insert (and again for keys
 * that found no room), shrinks after if it may erase, and turns the outcome
 * into a status. */
static hive_status run_batch(hive_table *t, const hive_batch *caller_batch, int may_insert,
                             int may_erase, hive_stream stream, const char *call)
{
    hive_batch_outcome out = {0};
    hive_batch batch = *caller_batch;
    const hive_batch *b = &batch;
    if (may_insert && batch.results == NULL && batch.n > 0) {
        /* retry_full needs to know which keys found no room, and the CUDA
         * backend which inserts it finishes in later launches (core/marks.h) */
        batch.marks = t->ops->marks_alloc(t, batch.n, stream);
        if (batch.marks == NULL)
            return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call,
                             "no memory for the %llu per-key marks of the batch",
                             (unsigned long long)batch.n);
    }
    pthread_rwlock_rdlock(&t->resize_lock);
    hive_status s = HIVE_SUCCESS;
    if (may_insert) {
        /* How many keys the batch may add: every element, or every
         * insert-type one (a cheap pass over the op codes); and, where that
         * would grow the table, the ones whose key is absent now (a pass of
         * finds), so that updates of present keys never grow it. */
        uint64_t incoming = b->n;
        uint64_t limit = (uint64_t)(t->config.max_load_factor * (double)t->ops->capacity(t));
        uint64_t size = __atomic_load_n(&t->size, __ATOMIC_SEQ_CST);
        if (b->ops != NULL && size + incoming > limit)
            s = t->ops->count_inserts(t, b, &incoming, stream);
        if (s == HIVE_SUCCESS && size + incoming > limit)
            s = t->ops->count_new(t, b, &incoming, stream);
        if (s == HIVE_SUCCESS)
            s = grow_for(t, incoming, stream);
    }
    if (s == HIVE_SUCCESS)
        s = t->ops->run(t, b, &out, stream);
    if (s == HIVE_SUCCESS) {
        __atomic_fetch_add(&t->size, out.inserted, __ATOMIC_SEQ_CST);
        __atomic_fetch_sub(&t->size, out.erased, __ATOMIC_SEQ_CST);
    }
    pthread_rwlock_unlock(&t->resize_lock);
    if (s == HIVE_SUCCESS && out.full > 0)
        s = retry_full(t, b, &out, stream);
    if (batch.marks != NULL)
        t->ops->marks_free(t, batch.marks, stream);
    if (s != HIVE_SUCCESS)
        return s;
    if (out.stash_crowded || out.stash_oversized)
        HIVE_TRY(relieve_stash(t, stream));
    if (may_erase && out.erased > 0)
        HIVE_TRY(shrink_if_sparse(t, stream));
    return outcome_status(&out, call);
}

static hive_status check_batch_n(uint64_t n, const char *call)
{
    HIVE_CHECK_ARG(n <= HIVE_MAX_BATCH, call, "n = %llu is beyond what a table can address",
                   (unsigned long long)n);
    return HIVE_SUCCESS;
}

/* The body of a public call, run between table_enter and table_leave. */
#define HIVE_ENTERED(t, call, body)                  \
    do {                                             \
        hive_clear_error();                          \
        HIVE_TRY(table_enter((t), (call)));          \
        hive_status entered_status_ = (body);        \
        table_leave(t);                              \
        return entered_status_;                      \
    } while (0)

static hive_status insert_entered(hive_table *t, uint64_t n, const void *keys, const void *values,
                                  hive_combine combine, uint8_t *results, hive_stream stream)
{
    static const char call[] = "hive_insert";
    HIVE_TRY(check_batch_n(n, call));
    HIVE_CHECK_ARG((unsigned)combine <= HIVE_COMBINE_MAX, call,
                   "combine %d is not a hive_combine", (int)combine);
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(check_array(t, keys, 1, kv_bytes(t), call, "keys"));
    HIVE_TRY(check_array(t, values, 1, kv_bytes(t), call, "values"));
    HIVE_TRY(check_array(t, results, 0, 1, call, "results"));
    hive_batch b = {n, HIVE_OP_UPSERT, NULL, combine, keys, values, NULL, NULL, results, NULL};
    return run_batch(t, &b, 1, 0, stream, call);
}

hive_status hive_insert(hive_table *table, uint64_t n, const void *keys, const void *values,
                        hive_combine combine, uint8_t *results, hive_stream stream)
{
    HIVE_ENTERED(table, "hive_insert", insert_entered(table, n, keys, values, combine, results, stream));
}

static hive_status find_entered(hive_table *t, uint64_t n, const void *keys, void *values,
                                uint8_t *found, hive_stream stream)
{
    static const char call[] = "hive_find";
    HIVE_TRY(check_batch_n(n, call));
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(check_array(t, keys, 1, kv_bytes(t), call, "keys"));
    HIVE_TRY(check_array(t, values, 0, kv_bytes(t), call, "values"));
    HIVE_TRY(check_array(t, found, 0, 1, call, "found"));
    HIVE_CHECK_ARG(values != NULL || found != NULL, call, "values and found are both NULL");
    hive_batch b = {n, HIVE_OP_FIND, NULL, HIVE_COMBINE_KEEP, keys, NULL, values, found, NULL, NULL};
    return run_batch(t, &b, 0, 0, stream, call);
}

hive_status hive_find(hive_table *table, uint64_t n, const void *keys, void *values,
                      uint8_t *found, hive_stream stream)
{
    HIVE_ENTERED(table, "hive_find", find_entered(table, n, keys, values, found, stream));
}

static hive_status contains_entered(hive_table *t, uint64_t n, const void *keys, uint8_t *found,
                                    hive_stream stream)
{
    static const char call[] = "hive_contains";
    HIVE_TRY(check_batch_n(n, call));
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(check_array(t, keys, 1, kv_bytes(t), call, "keys"));
    HIVE_TRY(check_array(t, found, 1, 1, call, "found"));
    hive_batch b = {n, HIVE_OP_FIND, NULL, HIVE_COMBINE_KEEP, keys, NULL, NULL, found, NULL, NULL};
    return run_batch(t, &b, 0, 0, stream, call);
}

hive_status hive_contains(hive_table *table, uint64_t n, const void *keys, uint8_t *found,
                          hive_stream stream)
{
    HIVE_ENTERED(table, "hive_contains", contains_entered(table, n, keys, found, stream));
}

static hive_status erase_entered(hive_table *t, uint64_t n, const void *keys, uint8_t *results,
                                 hive_stream stream)
{
    static const char call[] = "hive_erase";
    HIVE_TRY(check_batch_n(n, call));
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(check_array(t, keys, 1, kv_bytes(t), call, "keys"));
    HIVE_TRY(check_array(t, results, 0, 1, call, "results"));
    hive_batch b = {n, HIVE_OP_ERASE, NULL, HIVE_COMBINE_KEEP, keys, NULL, NULL, NULL, results, NULL};
    return run_batch(t, &b, 0, 1, stream, call);
}

hive_status hive_erase(hive_table *table, uint64_t n, const void *keys, uint8_t *results,
                       hive_stream stream)
{
    HIVE_ENTERED(table, "hive_erase", erase_entered(table, n, keys, results, stream));
}

static hive_status apply_entered(hive_table *t, uint64_t n, const uint8_t *ops, const void *keys,
                                 void *values, hive_combine combine, uint8_t *results,
                                 hive_stream stream)
{
    static const char call[] = "hive_apply";
    HIVE_TRY(check_batch_n(n, call));
    HIVE_CHECK_ARG((unsigned)combine <= HIVE_COMBINE_MAX, call,
                   "combine %d is not a hive_combine", (int)combine);
    if (n == 0)
        return HIVE_SUCCESS;
    HIVE_TRY(check_array(t, ops, 1, 1, call, "ops"));
    HIVE_TRY(check_array(t, keys, 1, kv_bytes(t), call, "keys"));
    HIVE_TRY(check_array(t, values, 0, kv_bytes(t), call, "values"));
    HIVE_TRY(check_array(t, results, 0, 1, call, "results"));
    hive_batch b = {n, HIVE_OP_FIND, ops, combine, keys, values, values, NULL, results, NULL};
    if (values == NULL) { /* allowed when no element inserts */
        uint64_t inserts = 0;
        HIVE_TRY(t->ops->count_inserts(t, &b, &inserts, stream));
        HIVE_CHECK_ARG(inserts == 0, call, "values is NULL, and %llu elements insert",
                       (unsigned long long)inserts);
    }
    return run_batch(t, &b, values != NULL, 1, stream, call);
}

hive_status hive_apply(hive_table *table, uint64_t n, const uint8_t *ops, const void *keys,
                       void *values, hive_combine combine, uint8_t *results, hive_stream stream)
{
    HIVE_ENTERED(table, "hive_apply",
                 apply_entered(table, n, ops, keys, values, combine, results, stream));
}

/* ---------------------------------------------------------------- whole table */

static hive_status size_entered(hive_table *t, uint64_t *size)
{
    HIVE_CHECK_ARG(size != NULL, "hive_size", "size is NULL");
    *size = __atomic_load_n(&t->size, __ATOMIC_SEQ_CST);
    return HIVE_SUCCESS;
}

hive_status hive_size(hive_table *table, uint64_t *size)
{
    HIVE_ENTERED(table, "hive_size", size_entered(table, size));
}

static hive_status clear_entered(hive_table *t, hive_stream stream)
{
    pthread_rwlock_wrlock(&t->resize_lock);
    hive_status s = t->ops->clear(t, stream);
    if (s == HIVE_SUCCESS) {
        __atomic_store_n(&t->size, 0, __ATOMIC_SEQ_CST);
        t->shrink_below = UINT64_MAX;
        /* A stash enlarged for crowded keys goes back to stash_fraction.  The
         * table is cleared either way: a compaction that fails leaves it
         * usable with its large stash, and the clear succeeded. */
        hive_stats st;
        double S = (double)t->config.bucket_slots;
        if (t->ops->stats(t, &st) == HIVE_SUCCESS &&
            (double)st.stash_capacity > 2 * (t->config.stash_fraction * (double)st.capacity + S) &&
            t->ops->compact(t, stream) != HIVE_SUCCESS)
            hive_clear_error();
    }
    pthread_rwlock_unlock(&t->resize_lock);
    return s;
}

hive_status hive_clear(hive_table *table, hive_stream stream)
{
    HIVE_ENTERED(table, "hive_clear", clear_entered(table, stream));
}

static hive_status reserve_entered(hive_table *t, uint64_t capacity, hive_stream stream)
{
    HIVE_CHECK_ARG(capacity <= HIVE_MAX_SLOTS, "hive_reserve", "capacity %llu is beyond 2^37 slots",
                   (unsigned long long)capacity);
    pthread_rwlock_wrlock(&t->resize_lock);
    hive_status s = HIVE_SUCCESS;
    uint64_t want = slots_for(t, capacity);
    if (want > t->ops->capacity(t))
        s = grow_locked(t, want, stream);
    pthread_rwlock_unlock(&t->resize_lock);
    return s;
}

hive_status hive_reserve(hive_table *table, uint64_t capacity, hive_stream stream)
{
    HIVE_ENTERED(table, "hive_reserve", reserve_entered(table, capacity, stream));
}

static hive_status export_entered(hive_table *t, uint64_t capacity, void *keys, void *values,
                                  uint64_t *count, hive_stream stream)
{
    static const char call[] = "hive_export";
    HIVE_CHECK_ARG(count != NULL, call, "count is NULL");
    pthread_rwlock_wrlock(&t->resize_lock);
    uint64_t size = __atomic_load_n(&t->size, __ATOMIC_SEQ_CST);
    hive_status s = HIVE_SUCCESS;
    *count = size;
    if (capacity < size)
        s = hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call,
                      "capacity %llu is smaller than the size %llu",
                      (unsigned long long)capacity, (unsigned long long)size);
    else if (size > 0 && (keys == NULL || values == NULL))
        s = hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call, "keys or values is NULL");
    else if (size > 0 && (s = check_array(t, keys, 1, kv_bytes(t), call, "keys")) == HIVE_SUCCESS &&
             (s = check_array(t, values, 1, kv_bytes(t), call, "values")) == HIVE_SUCCESS)
        s = t->ops->export_pairs(t, capacity, keys, values, count, stream);
    pthread_rwlock_unlock(&t->resize_lock);
    return s;
}

hive_status hive_export(hive_table *table, uint64_t capacity, void *keys, void *values,
                        uint64_t *count, hive_stream stream)
{
    HIVE_ENTERED(table, "hive_export", export_entered(table, capacity, keys, values, count, stream));
}

static hive_status stats_entered(hive_table *t, hive_stats *stats)
{
    HIVE_CHECK_ARG(stats != NULL, "hive_stats_get", "stats is NULL");
    pthread_rwlock_rdlock(&t->resize_lock);
    memset(stats, 0, sizeof *stats);
    hive_status s = t->ops->stats(t, stats);
    pthread_rwlock_unlock(&t->resize_lock);
    stats->size = __atomic_load_n(&t->size, __ATOMIC_SEQ_CST);
    stats->load_factor = stats->capacity ? (double)stats->size / (double)stats->capacity : 0.0;
    stats->grows = __atomic_load_n(&t->grows, __ATOMIC_SEQ_CST);
    stats->shrinks = __atomic_load_n(&t->shrinks, __ATOMIC_SEQ_CST);
    stats->shrinks_undone = __atomic_load_n(&t->shrinks_undone, __ATOMIC_SEQ_CST);
    return s;
}

hive_status hive_stats_get(hive_table *table, hive_stats *stats)
{
    HIVE_ENTERED(table, "hive_stats_get", stats_entered(table, stats));
}
