/* table.c — hive-crowded's key pool, and the table under test with its
 * reference: checked insert and erase calls, and the full check after each. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crowded.h"

#define SHOWN_PER_CHECK 6 /* failures printed in detail by one check */

uint64_t crowd_value(const ht_target *t, uint64_t key, unsigned gen)
{
    uint64_t x = key ^ ((uint64_t)gen << 56) ^ 0x243F6A8885A308D3ull;
    return ht_splitmix64(&x) & t->value_mask;
}

uint64_t crowd_absent_value(const ht_target *t, uint64_t key) { return crowd_value(t, key, 0); }

/* ---------------------------------------------------------------- pool */

static void *grow_array(void *a, size_t cap, size_t elem)
{
    void *p = realloc(a, cap * elem);
    if (p == NULL)
        ht_fatal("out of host memory for a pool of %zu keys", cap);
    return p;
}

void pool_add(key_pool *p, const uint64_t *keys, size_t n, key_kind kind, unsigned set,
              unsigned stable_every)
{
    if (p->n + n > p->cap) {
        size_t cap = 2 * (p->n + n);
        p->keys = grow_array(p->keys, cap, sizeof *p->keys);
        p->kind = grow_array(p->kind, cap, 1);
        p->set = grow_array(p->set, cap, 1);
        p->stable = grow_array(p->stable, cap, 1);
        p->cap = cap;
    }
    for (size_t i = 0; i < n; i++) {
        size_t id = p->n++;
        p->keys[id] = keys[i];
        p->kind[id] = (uint8_t)kind;
        p->set[id] = (uint8_t)set;
        p->stable[id] = kind != KIND_DECOY && stable_every > 0 && i % stable_every == 0;
        ht_ref_put(&p->taken, keys[i], id);
    }
}

uint64_t *pool_select(const key_pool *p, ht_rng *rng, int (*keep)(const key_pool *p, uint64_t id),
                      size_t *n)
{
    uint64_t *ids = malloc((p->n ? p->n : 1) * sizeof *ids);
    if (ids == NULL)
        ht_fatal("out of host memory");
    *n = 0;
    for (uint64_t id = 0; id < p->n; id++)
        if (keep(p, id))
            ids[(*n)++] = id;
    ht_shuffle(rng, ids, *n);
    return ids;
}

const char *pool_describe(const key_pool *p, uint64_t id, char *buf, size_t len)
{
    static const char *kinds[] = {"crowded", "filler", "decoy"};
    int at = snprintf(buf, len, "id %llu, %s", (unsigned long long)id, kinds[p->kind[id]]);
    if (p->set[id] != NO_SET && at > 0 && (size_t)at < len)
        at += snprintf(buf + at, len - (size_t)at, " set %u", p->set[id]);
    if (p->kind[id] != KIND_DECOY && at > 0 && (size_t)at < len)
        snprintf(buf + at, len - (size_t)at, ", %s", p->stable[id] ? "stable" : "churn");
    return buf;
}

/* ---------------------------------------------------------------- open, close */

void crowd_open(crowd *w, const ht_target *t, const char *name, const hive_config *config,
                uint64_t seed)
{
    memset(w, 0, sizeof *w);
    w->t = t;
    w->name = name;
    w->phase = "create";
    ht_context("%s: creating the table", name);
    w->table = ht_open(t, config);
    HT_MUST(hive_get_config(w->table, &w->config));
    HT_MUST(hive_stats_get(w->table, &w->last));
    w->base_buckets = w->last.buckets;
    w->capacity_peak = w->last.capacity;
    ht_ref_init(&w->ref);
    ht_ref_init(&w->pool.taken);
    ht_rng_seed(&w->rng, seed);
}

void crowd_ready(crowd *w, size_t batch_cap)
{
    size_t n = w->pool.n ? w->pool.n : 1;
    ht_batch_init(&w->batch, w->t, batch_cap);
    w->want_value = malloc(batch_cap * sizeof *w->want_value);
    w->want = malloc(batch_cap);
    w->exported = malloc(n);
    if (w->want_value == NULL || w->want == NULL || w->exported == NULL)
        ht_fatal("out of host memory");
    w->export_keys = ht_alloc(w->t, n * w->t->kv_bytes);
    w->export_values = ht_alloc(w->t, n * w->t->kv_bytes);
}

void crowd_close(crowd *w)
{
    ht_close(w->table);
    ht_batch_free(&w->batch);
    ht_free(w->t, w->export_keys);
    ht_free(w->t, w->export_values);
    free(w->want_value);
    free(w->want);
    free(w->exported);
    free(w->pool.keys);
    free(w->pool.kind);
    free(w->pool.set);
    free(w->pool.stable);
    ht_ref_free(&w->pool.taken);
    ht_ref_free(&w->ref);
}

/* ---------------------------------------------------------------- checks */

/* What one check found wrong. */
typedef struct tally {
    uint64_t missing, missing_crowded, wrong_value, ghost, touched;
    uint64_t export_unlisted, export_twice, export_ghost, export_foreign, export_wrong;
    uint64_t shown;
} tally;

/* A failure printed in detail (the first few of a check), counted always. */
static void note(tally *c, const char *fmt, ...) HT_PRINTF(2, 3);
static void note(tally *c, const char *fmt, ...)
{
    if (c->shown++ >= SHOWN_PER_CHECK)
        return;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    HT_CHECK(0, "%s", msg);
}

/* Counts the passed checks of n elements, and the failures beyond those
 * printed. */
static void sum_up(const tally *c, const char *what, size_t n)
{
    ht_pass_(n - (c->shown < n ? c->shown : n));
    if (c->shown > SHOWN_PER_CHECK)
        HT_CHECK(0, "%s: %llu of %zu wrong", what, (unsigned long long)c->shown, n);
}

/* hive_find of every pool key, on the main thread's stream. */
static void check_finds(crowd *w, tally *c)
{
    const ht_target *t = w->t;
    ht_batch *b = &w->batch;
    char what[96];
    for (size_t off = 0; off < w->pool.n; off += b->cap) {
        size_t n = w->pool.n - off < b->cap ? w->pool.n - off : b->cap;
        for (size_t j = 0; j < n; j++) {
            uint64_t key = w->pool.keys[off + j], v = 0;
            w->want[j] = (uint8_t)ht_ref_get(&w->ref, key, &v);
            w->want_value[j] = w->want[j] ? v : crowd_absent_value(t, key);
            ht_put(t, b->keys, j, key);
            /* a present key's value must be written over this */
            ht_put(t, b->values, j, w->want[j] ? ~v & t->value_mask : w->want_value[j]);
        }
        memset(b->found, HT_FLAG_POISON, n);
        if (!HT_CHECK_STATUS(hive_find(w->table, n, b->keys, b->values, b->found, b->stream),
                             HIVE_SUCCESS, "find of %zu pool keys", n))
            return;
        uint64_t bad = 0;
        for (size_t j = 0; j < n; j++) {
            uint64_t id = off + j, key = w->pool.keys[id], got = ht_get(t, b->values, j);
            unsigned found = b->found[j];
            if (w->want[j] && found != 1) {
                c->missing++;
                c->missing_crowded += w->pool.kind[id] == KIND_CROWDED;
                note(c, "key %llu (%s) is missing: find says found %u, expected found 1 value %llu",
                     (unsigned long long)key, pool_describe(&w->pool, id, what, sizeof what), found,
                     (unsigned long long)w->want_value[j]);
            } else if (w->want[j] && got != w->want_value[j]) {
                c->wrong_value++;
                note(c, "key %llu (%s): value %llu, expected %llu", (unsigned long long)key,
                     pool_describe(&w->pool, id, what, sizeof what), (unsigned long long)got,
                     (unsigned long long)w->want_value[j]);
            } else if (!w->want[j] && found != 0) {
                c->ghost++;
                note(c, "key %llu (%s) is absent (erased or never inserted) but find says "
                     "found %u, value %llu", (unsigned long long)key,
                     pool_describe(&w->pool, id, what, sizeof what), found,
                     (unsigned long long)got);
            } else if (!w->want[j] && got != w->want_value[j]) {
                c->touched++;
                note(c, "absent key %llu (%s): its value entry changed from %llu to %llu",
                     (unsigned long long)key, pool_describe(&w->pool, id, what, sizeof what),
                     (unsigned long long)w->want_value[j], (unsigned long long)got);
            } else {
                continue;
            }
            bad++;
        }
        ht_pass_(n - bad);
    }
}

/* hive_export: exactly the reference's pairs, each once. */
static void check_export(crowd *w, tally *c)
{
    const ht_target *t = w->t;
    uint64_t count = ~0ull, size = ht_ref_size(&w->ref);
    char what[96];
    hive_status s = hive_export(w->table, w->pool.n, w->export_keys, w->export_values, &count,
                                w->batch.stream);
    if (!HT_CHECK_STATUS(s, HIVE_SUCCESS, "export into room for %zu pairs", w->pool.n))
        return;
    HT_CHECK_EQ(count, size, "pairs exported, against the reference's size");
    memset(w->exported, 0, w->pool.n);
    uint64_t listed = 0; /* reference keys listed */
    for (uint64_t i = 0; i < count && i < w->pool.n; i++) {
        uint64_t key = ht_get(t, w->export_keys, i), v = ht_get(t, w->export_values, i);
        uint64_t id = 0, want = 0;
        if (!ht_ref_get(&w->pool.taken, key, &id)) {
            c->export_foreign++;
            note(c, "exported pair %llu: key %llu was never given to the table",
                 (unsigned long long)i, (unsigned long long)key);
        } else if (w->exported[id]++) {
            c->export_twice++;
            note(c, "exported pair %llu: key %llu (%s) listed a second time",
                 (unsigned long long)i, (unsigned long long)key,
                 pool_describe(&w->pool, id, what, sizeof what));
        } else if (!ht_ref_get(&w->ref, key, &want)) {
            c->export_ghost++;
            note(c, "exported pair %llu: key %llu (%s) is absent (erased or never inserted)",
                 (unsigned long long)i, (unsigned long long)key,
                 pool_describe(&w->pool, id, what, sizeof what));
        } else {
            listed++;
            if (v != want) {
                c->export_wrong++;
                note(c, "exported pair %llu: key %llu (%s) with value %llu, expected %llu",
                     (unsigned long long)i, (unsigned long long)key,
                     pool_describe(&w->pool, id, what, sizeof what), (unsigned long long)v,
                     (unsigned long long)want);
            }
        }
    }
    c->export_unlisted = size - listed;
    if (c->export_unlisted == 0)
        return;
    for (uint64_t id = 0; id < w->pool.n; id++)
        if (!w->exported[id] && ht_ref_get(&w->ref, w->pool.keys[id], NULL))
            note(c, "key %llu (%s) is not in the export", (unsigned long long)w->pool.keys[id],
                 pool_describe(&w->pool, id, what, sizeof what));
}

/* hive_stats: the size, the fields that must agree with each other, and
 * every capacity change since the last check counted as a grow or a
 * shrink. */
static void check_stats(crowd *w)
{
    hive_stats st, *was = &w->last;
    if (!HT_CHECK_STATUS(hive_stats_get(w->table, &st), HIVE_SUCCESS, "stats"))
        return;
    HT_CHECK_EQ(st.size, ht_ref_size(&w->ref), "stats.size, against the reference");
    HT_CHECK(st.grows >= was->grows && st.shrinks >= was->shrinks,
             "stats counters went down: grows %llu -> %llu, shrinks %llu -> %llu",
             (unsigned long long)was->grows, (unsigned long long)st.grows,
             (unsigned long long)was->shrinks, (unsigned long long)st.shrinks);
    if (st.capacity > was->capacity)
        HT_CHECK(st.grows > was->grows, "capacity %llu -> %llu slots, but grows stayed %llu",
                 (unsigned long long)was->capacity, (unsigned long long)st.capacity,
                 (unsigned long long)st.grows);
    if (st.capacity < was->capacity)
        HT_CHECK(st.shrinks > was->shrinks, "capacity %llu -> %llu slots, but shrinks stayed %llu",
                 (unsigned long long)was->capacity, (unsigned long long)st.capacity,
                 (unsigned long long)st.shrinks);
    HT_CHECK(st.capacity == st.buckets * st.bucket_slots && st.stash_size <= st.stash_capacity &&
                 st.stash_size <= st.size,
             "stats: capacity %llu, buckets %llu of %u slots, stash %llu of %llu, size %llu",
             (unsigned long long)st.capacity, (unsigned long long)st.buckets, st.bucket_slots,
             (unsigned long long)st.stash_size, (unsigned long long)st.stash_capacity,
             (unsigned long long)st.size);
    HT_CHECK(st.capacity >= w->config.initial_capacity,
             "capacity %llu slots, under initial_capacity %llu", (unsigned long long)st.capacity,
             (unsigned long long)w->config.initial_capacity);
    if (st.capacity > w->capacity_peak)
        w->capacity_peak = st.capacity;
    *was = st;
}

int crowd_check(crowd *w)
{
    uint64_t failures = ht_failure_count(), size = ~0ull;
    tally c;
    memset(&c, 0, sizeof c);
    HT_CHECK_STATUS(hive_size(w->table, &size), HIVE_SUCCESS, "size");
    HT_CHECK_EQ(size, ht_ref_size(&w->ref), "hive_size, against the reference");
    check_finds(w, &c);
    check_export(w, &c);
    check_stats(w);
    if (c.shown > 0)
        HT_CHECK(0,
                 "the table no longer holds what it was given: of %zu keys, %llu missing (%llu of "
                 "them crowded), %llu with a wrong value, %llu absent keys found, %llu absent "
                 "keys' value entries written; export: %llu of the table's keys not listed, %llu "
                 "listed twice, %llu absent keys listed, %llu keys never inserted, %llu wrong "
                 "values; size %llu, the reference's %zu",
                 w->pool.n, (unsigned long long)c.missing, (unsigned long long)c.missing_crowded,
                 (unsigned long long)c.wrong_value, (unsigned long long)c.ghost,
                 (unsigned long long)c.touched, (unsigned long long)c.export_unlisted,
                 (unsigned long long)c.export_twice, (unsigned long long)c.export_ghost,
                 (unsigned long long)c.export_foreign, (unsigned long long)c.export_wrong,
                 (unsigned long long)size, ht_ref_size(&w->ref));
    if (ht_failure_count() != failures)
        w->broken = 1;
    return !w->broken;
}

/* ---------------------------------------------------------------- calls */

static void begin_call(crowd *w, const char *op, size_t n)
{
    w->calls++;
    ht_context("%s: %s, call %llu (%s, n = %zu), before it capacity %llu slots, size %zu",
               w->name, w->phase, (unsigned long long)w->calls, op, n,
               (unsigned long long)w->last.capacity, ht_ref_size(&w->ref));
}

int crowd_insert(crowd *w, const uint64_t *ids, size_t n, unsigned gen)
{
    const ht_target *t = w->t;
    ht_batch *b = &w->batch;
    uint64_t failures = ht_failure_count();
    char what[96];
    begin_call(w, "insert", n);
    for (size_t j = 0; j < n; j++) {
        uint64_t key = w->pool.keys[ids[j]];
        ht_put(t, b->keys, j, key);
        ht_put(t, b->values, j, crowd_value(t, key, gen));
        w->want[j] = ht_ref_get(&w->ref, key, NULL) ? HIVE_RESULT_UPDATED : HIVE_RESULT_INSERTED;
    }
    memset(b->results, HT_FLAG_POISON, n);
    hive_status s = hive_insert(w->table, n, b->keys, b->values, HIVE_COMBINE_ASSIGN, b->results,
                                b->stream);
    uint64_t rejected = 0;
    tally c;
    memset(&c, 0, sizeof c);
    for (size_t j = 0; j < n; j++) {
        uint64_t key = w->pool.keys[ids[j]];
        unsigned r = b->results[j];
        /* TABLE_FULL is an outcome for new keys only, and they stay out */
        if (r == HIVE_RESULT_REJECTED_FULL && w->want[j] == HIVE_RESULT_INSERTED) {
            rejected++;
            continue;
        }
        if (r != w->want[j])
            note(&c, "insert element %zu, key %llu (%s): result %s, expected %s", j,
                 (unsigned long long)key, pool_describe(&w->pool, ids[j], what, sizeof what),
                 ht_result_name(r), ht_result_name(w->want[j]));
        ht_ref_put(&w->ref, key, crowd_value(t, key, gen));
    }
    sum_up(&c, "insert results", n);
    HT_CHECK_STATUS(s, rejected > 0 ? HIVE_ERROR_TABLE_FULL : HIVE_SUCCESS,
                    "insert of %zu keys, %llu of them REJECTED_FULL", n,
                    (unsigned long long)rejected);
    w->rejected += rejected;
    crowd_check(w);
    if (ht_failure_count() != failures)
        w->broken = 1;
    return !w->broken;
}

int crowd_erase(crowd *w, const uint64_t *ids, size_t n)
{
    const ht_target *t = w->t;
    ht_batch *b = &w->batch;
    uint64_t failures = ht_failure_count(), capacity = w->last.capacity;
    char what[96];
    begin_call(w, "erase", n);
    for (size_t j = 0; j < n; j++) {
        uint64_t key = w->pool.keys[ids[j]];
        ht_put(t, b->keys, j, key);
        w->want[j] = ht_ref_get(&w->ref, key, NULL) ? HIVE_RESULT_ERASED : HIVE_RESULT_NOT_FOUND;
    }
    memset(b->results, HT_FLAG_POISON, n);
    hive_status s = hive_erase(w->table, n, b->keys, b->results, b->stream);
    tally c;
    memset(&c, 0, sizeof c);
    for (size_t j = 0; j < n; j++) {
        uint64_t key = w->pool.keys[ids[j]];
        if (b->results[j] != w->want[j])
            note(&c, "erase element %zu, key %llu (%s): result %s, expected %s", j,
                 (unsigned long long)key, pool_describe(&w->pool, ids[j], what, sizeof what),
                 ht_result_name(b->results[j]), ht_result_name(w->want[j]));
        ht_ref_del(&w->ref, key);
    }
    sum_up(&c, "erase results", n);
    HT_CHECK_STATUS(s, HIVE_SUCCESS, "erase of %zu keys", n);
    /* Under min_load_factor of a table above its initial capacity, the call
     * tries to shrink it (hive.h: "may shrink the table afterwards"). */
    if (capacity > w->config.initial_capacity &&
        (double)ht_ref_size(&w->ref) < w->config.min_load_factor * (double)capacity)
        w->shrink_tries++;
    crowd_check(w);
    if (ht_failure_count() != failures)
        w->broken = 1;
    return !w->broken;
}

/* ---------------------------------------------------------------- phases */

int crowd_phase(crowd *w, const char *phase, const uint64_t *ids, size_t n, int erase,
                unsigned gen, call_plan plan)
{
    hive_stats was = w->last;
    uint64_t calls = w->calls, tries = w->shrink_tries, rejected = w->rejected;
    uint64_t low = was.capacity, high = was.capacity;
    w->phase = phase;
    for (size_t off = 0, k = 0; off < n && !w->broken; k++) {
        size_t most = plan.most ? plan.most : 1;
        size_t m = k < plan.singles ? 1
                   : plan.fixed     ? most
                                    : (size_t)ht_rng_log_size(&w->rng, most);
        if (m > n - off)
            m = n - off;
        if (m > w->batch.cap)
            m = w->batch.cap;
        if (erase)
            crowd_erase(w, ids + off, m);
        else
            crowd_insert(w, ids + off, m, gen);
        off += m;
        low = w->last.capacity < low ? w->last.capacity : low;
        high = w->last.capacity > high ? w->last.capacity : high;
    }
    printf("  %-22s %5llu calls, %8zu keys: capacity %llu -> %llu slots (low %llu, high %llu), "
           "grows +%llu, shrinks +%llu, stash %llu of %llu, shrink attempts %llu, "
           "rejected %llu%s\n",
           phase, (unsigned long long)(w->calls - calls), n, (unsigned long long)was.capacity,
           (unsigned long long)w->last.capacity, (unsigned long long)low, (unsigned long long)high,
           (unsigned long long)(w->last.grows - was.grows),
           (unsigned long long)(w->last.shrinks - was.shrinks),
           (unsigned long long)w->last.stash_size, (unsigned long long)w->last.stash_capacity,
           (unsigned long long)(w->shrink_tries - tries),
           (unsigned long long)(w->rejected - rejected),
           w->broken ? " -- STOPPED at a failed check" : "");
    return !w->broken;
}
