/* resize.c — dynamic resizing (issue 5: linear hashing), through the public
 * API only, so that it judges any resize implementation by its contract:
 *
 *   hive-resize <cpu|cuda> <kv32|kv64> [--keys N] [--one-call-keys M] [--mix-keys P]
 *               [--cycles C] [--seed S] [--part grow|mix|oom|pinned]
 *
 *   grow    From initial_capacity 1024 (load factors 0.9 / 0.25) to M keys in
 *           one hive_insert, and on a second table to N keys in 1000+ calls of
 *           varying sizes that also update earlier keys; then erase 95% of
 *           the keys (one call, or a dozen of uneven sizes).  After the growth
 *           and after every erase step: every remaining key's value (find and
 *           export), the erased keys absent, the size, and the capacity
 *           (enough for the keys, not runaway; falling but never under the
 *           initial capacity while erasing).
 *   mix     Random insert / erase / mixed batches on a pool of P keys, whose
 *           live share swings between 3% and 90% for C cycles, so that the
 *           table crosses its grow and shrink thresholds again and again;
 *           erased keys are inserted again, present keys are updated (ASSIGN
 *           and the other modes).  After every batch: the whole contents
 *           (export) against the reference map, finds of absent keys, and
 *           that grows / shrinks moved with the capacity.
 *   oom     An insert whose growth cannot allocate: HIVE_ERROR_OUT_OF_MEMORY,
 *           and the table keeps exactly its keys, values, size and capacity,
 *           and goes on working (finds, erases, inserts that fit).
 *   pinned  min_load_factor 0 and hive_reserve(P): the bucket count stays
 *           fixed while the table is filled to P keys and emptied, twice.
 *
 * Allocation failures are injected by the library (src/base/alloc.h) with
 * HIVE_TEST_FAIL_ALLOC=N: N allocations succeed, every later one fails.
 * The counter is read once per process, so the oom part runs this program
 * again as a child (--oom-child) once per N, from 0 up: the first children
 * cannot even create a table, the next ones fail on each allocation of the
 * first growths in turn.  Sweeping N keeps the test independent of how many
 * allocations an implementation makes at create and per resize. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hivetest.h"

extern char **environ;

typedef struct rs_opts {
    uint64_t keys;          /* N: growth in small calls, shrinking */
    uint64_t one_call_keys; /* M: growth in one call (2^26 on a GPU) */
    uint64_t mix_keys;      /* P: the pool of the mix part and the pinned capacity */
    unsigned cycles;        /* fill-drain cycles of the mix part */
    uint64_t seed;
    const char *part; /* NULL: every part */
} rs_opts;

#define RS_INITIAL_CAPACITY 1024u
#define RS_MAX_LF 0.9
#define RS_MIN_LF 0.25
/* The mix part must see at least this many grows and shrinks. */
#define RS_MIN_RESIZES 5
/* Exit codes of an --oom-child beyond pass / fail / skip. */
#define RS_CHILD_CREATE_OOM 3 /* N too small even for hive_create */
#define RS_CHILD_NO_OOM 4     /* N so large that no growth failed */

/* ---------------------------------------------------------------- helpers */

static hive_table *open_table(const ht_target *t, double min_lf, hive_config *c)
{
    *c = ht_config(t);
    c->initial_capacity = RS_INITIAL_CAPACITY;
    c->max_load_factor = RS_MAX_LF;
    c->min_load_factor = min_lf;
    return ht_open(t, c);
}

static void get_stats(hive_table *table, hive_stats *st) { HT_MUST(hive_stats_get(table, st)); }

static uint64_t *host_keys(size_t n)
{
    uint64_t *p = malloc((n ? n : 1) * sizeof *p);
    if (p == NULL)
        ht_fatal("out of host memory for %zu keys", n);
    return p;
}

/* Appends keys[0..n) to b with random values of the width. */
static void append_keys(const ht_target *t, ht_batch *b, const uint64_t *keys, size_t n,
                        ht_rng *rng)
{
    if (b->n + n > b->cap)
        ht_fatal("append_keys: %zu + %zu keys for a batch of %zu", b->n, n, b->cap);
    for (size_t i = 0; i < n; i++) {
        ht_put(t, b->keys, b->n + i, keys[i]);
        ht_put(t, b->values, b->n + i, ht_random_value(t, rng));
    }
    b->n += n;
}

/* A random combine mode, ASSIGN half of the time (the common update). */
static hive_combine random_combine(ht_rng *rng)
{
    return ht_rng_chance(rng, 0.5) ? HIVE_COMBINE_ASSIGN : (hive_combine)ht_rng_below(rng, 5);
}

/* The table holds exactly ref: every key found with its value, and the
 * export equal to ref; then the stats, consistent with both. */
static void expect_table(const ht_target *t, hive_table *table, const ht_ref *ref,
                         const hive_config *c, ht_batch *scratch, hive_stats *st,
                         const char *where)
{
    ht_expect_finds(t, table, ref, scratch, where);
    ht_expect_contents(t, table, ref, where);
    ht_expect_stats(t, table, c, st, where);
}

/* ---------------------------------------------------------------- grow and shrink */

/* Inserts keys[0..n) in calls of 1..2n/target keys (at least `target`
 * calls for n >= 10^4: a log-uniform size averages well under half its
 * maximum).  A quarter of the calls also update a run of earlier keys with
 * a random combine mode, so that values written before a resize must
 * survive it.
 * Every call's results, values and the size are compared with ref. */
static size_t grow_in_small_calls(const ht_target *t, hive_table *table, ht_ref *ref,
                                  ht_batch *b, const uint64_t *keys, size_t n, size_t target,
                                  ht_rng *rng)
{
    size_t most = 2 * n / target > 8 ? 2 * n / target : 8, calls = 0, off = 0;
    char where[96];
    while (off < n) {
        size_t k = (size_t)ht_rng_log_size(rng, most);
        if (k > n - off)
            k = n - off;
        b->n = 0;
        append_keys(t, b, keys + off, k, rng);
        if (off > 0 && ht_rng_chance(rng, 0.25)) {
            size_t u = 1 + (size_t)ht_rng_below(rng, (k < off ? k : off));
            append_keys(t, b, keys + ht_rng_below(rng, off - u + 1), u, rng);
        }
        snprintf(where, sizeof where, "small insert %zu (%zu new keys after %zu)", calls, k, off);
        ht_run_unique(t, table, ref, b, HT_CALL_INSERT, random_combine(rng), HT_PASS_ALL, 1,
                      where);
        off += k;
        calls++;
    }
    return calls;
}

/* Erases `erase[0..n)` in `steps` calls of uneven sizes (1: one call).
 * After each: every remaining key has its value, every key erased so far is
 * absent, the size; the capacity never rises nor falls under the initial
 * capacity, and erasing never counts a grow. */
static void shrink_in_steps(const ht_target *t, hive_table *table, ht_ref *ref,
                            const hive_config *c, ht_batch *b, const uint64_t *erase, size_t n,
                            unsigned steps, ht_rng *rng)
{
    hive_stats prev, st;
    get_stats(table, &prev);
    size_t off = 0;
    char where[96];
    for (unsigned s = 0; s < steps && off < n; s++) {
        size_t left = n - off, k = left;
        if (s + 1 < steps) { /* a share of 1/4 .. 7/4 of an even split */
            size_t even = left / (steps - s);
            k = even / 4 + (size_t)ht_rng_below(rng, even * 3 / 2 + 1);
            k = k < 1 ? 1 : k > left ? left : k;
        }
        b->n = 0;
        append_keys(t, b, erase + off, k, rng);
        off += k;
        snprintf(where, sizeof where, "erase step %u of %u (%zu keys, %zu of %zu erased)",
                 s + 1, steps, k, off, n);
        ht_context("resize %s %s: grow: %s", t->backend_name, t->width_name, where);
        ht_run_unique(t, table, ref, b, HT_CALL_ERASE, HIVE_COMBINE_KEEP, HT_PASS_ALL, 0, where);
        ht_expect_finds(t, table, ref, b, where);
        ht_expect_absent(t, table, erase, off, b, where);
        ht_expect_stats(t, table, c, &st, where);
        HT_CHECK(st.capacity <= prev.capacity, "%s: capacity rose from %llu to %llu", where,
                 (unsigned long long)prev.capacity, (unsigned long long)st.capacity);
        HT_CHECK_EQ(st.grows, prev.grows, "%s: grows (an erase must not grow the table)", where);
        prev = st;
    }
}

/* One table: growth to n keys (in one call, or in many), then 95% erased. */
static void grow_then_shrink(const ht_target *t, size_t n, int many_calls, ht_rng *rng)
{
    const char *how = many_calls ? "many calls" : "one call";
    ht_context("resize %s %s: grow to %zu keys in %s, seed %llu", t->backend_name, t->width_name,
               n, how, (unsigned long long)rng->seed);
    uint64_t *keys = host_keys(n);
    ht_unique_keys(t, rng, keys, n, NULL);
    hive_config c;
    hive_table *table = open_table(t, RS_MIN_LF, &c);
    ht_ref ref;
    ht_ref_init(&ref);
    ht_batch b;
    ht_batch_init(&b, t, n);
    hive_stats st0, st1, st2;
    get_stats(table, &st0);

    size_t calls = 1;
    if (many_calls) {
        calls = grow_in_small_calls(t, table, &ref, &b, keys, n, 1000, rng);
        HT_CHECK(calls >= 1000, "the growth took only %zu calls", calls);
    } else {
        b.n = 0;
        append_keys(t, &b, keys, n, rng);
        ht_run_unique(t, table, &ref, &b, HT_CALL_INSERT, HIVE_COMBINE_ASSIGN, HT_PASS_ALL, 1,
                      "the one growing insert");
    }
    expect_table(t, table, &ref, &c, &b, &st1, "after growth");
    uint64_t size = 0;
    HT_MUST(hive_size(table, &size));
    HT_CHECK_EQ(size, n, "hive_size after growing in %s", how);
    HT_CHECK(st1.grows > st0.grows, "growing 1024 slots to %zu keys counted no grow", n);
    HT_CHECK((double)st1.capacity * c.max_load_factor >= (double)n,
             "%zu keys in capacity %llu: over max_load_factor %g", n,
             (unsigned long long)st1.capacity, c.max_load_factor);
    /* Growth steps of up to 2x, plus one retry for keys that found no room
     * (1.5x), stay under 3x what the keys need; more means runaway growth. */
    HT_CHECK((double)st1.capacity <= 3.0 * (double)n / c.max_load_factor + (double)c.initial_capacity,
             "%zu keys grew the table to capacity %llu, over 3x the %.0f they need", n,
             (unsigned long long)st1.capacity, (double)n / c.max_load_factor);
    printf("  grow in %s: %zu keys in %zu calls: capacity %llu -> %llu (%llu grows)\n", how, n,
           calls, (unsigned long long)st0.capacity, (unsigned long long)st1.capacity,
           (unsigned long long)st1.grows);

    /* Keep every 20th key, erase the rest. */
    uint64_t *erase = host_keys(n);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (i % 20 != 0)
            erase[m++] = keys[i];
    shrink_in_steps(t, table, &ref, &c, &b, erase, m, many_calls ? 12 : 1, rng);
    ht_context("resize %s %s: after erasing 95%% of %zu keys (%s)", t->backend_name,
               t->width_name, n, how);
    ht_expect_contents(t, table, &ref, "after erasing 95%");
    ht_expect_stats(t, table, &c, &st2, "after erasing 95%");
    HT_CHECK(st2.shrinks > st1.shrinks && st2.capacity < st1.capacity,
             "erasing 95%% of %zu keys: capacity %llu -> %llu, shrinks %llu -> %llu", n,
             (unsigned long long)st1.capacity, (unsigned long long)st2.capacity,
             (unsigned long long)st1.shrinks, (unsigned long long)st2.shrinks);
    printf("  shrink after %s: %zu keys left: capacity %llu -> %llu (%llu shrinks)\n", how,
           ht_ref_size(&ref), (unsigned long long)st1.capacity, (unsigned long long)st2.capacity,
           (unsigned long long)st2.shrinks);

    free(erase);
    free(keys);
    ht_batch_free(&b);
    ht_ref_free(&ref);
    ht_close(table);
}

/* ---------------------------------------------------------------- key pools */

/* A fixed set of keys; batches draw distinct keys from it by a partial
 * Fisher-Yates over `perm`, those present in the reference and those absent
 * each up to a quota. */
typedef struct rs_pool {
    const ht_target *t;
    uint64_t *keys;
    size_t *perm;
    size_t n;
} rs_pool;

static void pool_init(rs_pool *p, const ht_target *t, size_t n, ht_rng *rng)
{
    p->t = t;
    p->n = n;
    p->keys = host_keys(n);
    p->perm = malloc(n * sizeof *p->perm);
    if (p->perm == NULL)
        ht_fatal("out of host memory for a pool of %zu keys", n);
    ht_unique_keys(t, rng, p->keys, n, NULL);
    for (size_t i = 0; i < n; i++)
        p->perm[i] = i;
}

static void pool_free(rs_pool *p)
{
    free(p->keys);
    free(p->perm);
}

/* Appends to b up to `present` distinct pool keys that ref holds and up to
 * `absent` that it does not, interleaved at random, with random values. */
static void pool_draw(rs_pool *p, const ht_ref *ref, ht_batch *b, size_t present, size_t absent,
                      ht_rng *rng)
{
    size_t got_present = 0, got_absent = 0;
    for (size_t i = 0; i < p->n && (got_present < present || got_absent < absent); i++) {
        size_t j = i + (size_t)ht_rng_below(rng, p->n - i);
        size_t x = p->perm[i];
        p->perm[i] = p->perm[j];
        p->perm[j] = x;
        uint64_t key = p->keys[p->perm[i]]; /* perm[0..i] are the keys drawn so far */
        int live = ht_ref_get(ref, key, NULL);
        size_t *got = live ? &got_present : &got_absent;
        if (*got >= (live ? present : absent))
            continue;
        (*got)++;
        append_keys(p->t, b, &key, 1, rng);
    }
}

/* Up to `want` pool keys that ref does not hold (repeats allowed). */
static size_t pool_absent(const rs_pool *p, const ht_ref *ref, uint64_t *out, size_t want,
                          ht_rng *rng)
{
    size_t got = 0;
    for (size_t tries = 0; tries < 8 * want && got < want; tries++) {
        uint64_t key = p->keys[ht_rng_below(rng, p->n)];
        if (!ht_ref_get(ref, key, NULL))
            out[got++] = key;
    }
    return got;
}

/* ---------------------------------------------------------------- mix */

enum mix_kind { MIX_INSERT, MIX_ERASE, MIX_APPLY };
static const char *mix_kind_name[] = {"insert", "erase", "apply"};

/* Random ops for a mixed batch: filling favours inserts, draining erases. */
static void random_ops(ht_batch *b, int draining, ht_rng *rng)
{
    static const unsigned fill_w[4] = {20, 30, 40, 10}, drain_w[4] = {20, 5, 10, 65};
    const unsigned *w = draining ? drain_w : fill_w; /* FIND, INSERT, UPSERT, ERASE */
    for (size_t i = 0; i < b->n; i++) {
        unsigned x = (unsigned)ht_rng_below(rng, 100), op = 0;
        while (x >= w[op])
            x -= w[op++];
        b->ops[i] = (uint8_t)op;
    }
}

/* What a batch of one kind may do to the counters: an insert never shrinks
 * and counts a grow exactly when the capacity rose; an erase the reverse. */
static void expect_resize_counts(enum mix_kind kind, const hive_stats *a, const hive_stats *z,
                                 const char *where)
{
    if (kind == MIX_APPLY)
        return; /* may grow before and shrink after: either may show */
    int up = z->capacity > a->capacity, down = z->capacity < a->capacity;
    int grew = z->grows > a->grows, shrank = z->shrinks > a->shrinks;
    if (kind == MIX_INSERT)
        HT_CHECK(!down && !shrank && grew == up,
                 "%s: insert batch: capacity %llu -> %llu, grows +%llu, shrinks +%llu", where,
                 (unsigned long long)a->capacity, (unsigned long long)z->capacity,
                 (unsigned long long)(z->grows - a->grows),
                 (unsigned long long)(z->shrinks - a->shrinks));
    else
        HT_CHECK(!up && !grew && shrank == down,
                 "%s: erase batch: capacity %llu -> %llu, grows +%llu, shrinks +%llu", where,
                 (unsigned long long)a->capacity, (unsigned long long)z->capacity,
                 (unsigned long long)(z->grows - a->grows),
                 (unsigned long long)(z->shrinks - a->shrinks));
}

/* Counts re-inserts of erased keys and ASSIGN updates in a checked batch
 * (results as hive reported them, which ht_run_unique found right), so the
 * end can check that the stream did exercise them. */
static void tally_batch(const ht_target *t, const ht_batch *b, hive_combine mode,
                        ht_ref *erased_once, uint64_t *reinserts, uint64_t *assigns)
{
    for (size_t i = 0; i < b->n; i++) {
        uint64_t key = ht_get(t, b->keys, i);
        if (b->results[i] == HIVE_RESULT_ERASED)
            ht_ref_put(erased_once, key, 1);
        else if (b->results[i] == HIVE_RESULT_INSERTED)
            *reinserts += ht_ref_get(erased_once, key, NULL);
        else if (b->results[i] == HIVE_RESULT_UPDATED)
            *assigns += mode == HIVE_COMBINE_ASSIGN;
    }
}

static void mix(const ht_target *t, size_t pool_n, unsigned cycles, ht_rng *rng)
{
    rs_pool pool;
    pool_init(&pool, t, pool_n, rng);
    /* Keys that were never in the pool, for absent finds. */
    uint64_t outside[16], absent[80];
    {
        ht_ref in_pool;
        ht_ref_init(&in_pool);
        for (size_t i = 0; i < pool_n; i++)
            ht_ref_put(&in_pool, pool.keys[i], 0);
        ht_unique_keys(t, rng, outside, 16, &in_pool);
        ht_ref_free(&in_pool);
    }
    hive_config c;
    hive_table *table = open_table(t, RS_MIN_LF, &c);
    ht_ref ref, erased_once;
    ht_ref_init(&ref);
    ht_ref_init(&erased_once);
    ht_batch b, s;
    ht_batch_init(&b, t, pool_n);
    ht_batch_init(&s, t, 128);

    size_t most = pool_n / 4;
    uint64_t batches = 0, reinserts = 0, assigns = 0;
    unsigned done = 0;
    int draining = 0;
    char where[128];
    hive_stats before, after;
    get_stats(table, &before);
    while (done < cycles && batches < 100000) {
        size_t live = ht_ref_size(&ref);
        if (!draining && live >= pool_n * 9 / 10)
            draining = 1;
        else if (draining && live <= pool_n * 3 / 100) {
            draining = 0;
            done++;
            continue;
        }
        unsigned x = (unsigned)ht_rng_below(rng, 100);
        enum mix_kind kind = x < (draining ? 15u : 60u)   ? MIX_INSERT
                             : x < (draining ? 75u : 80u) ? MIX_ERASE
                                                          : MIX_APPLY;
        size_t k = (size_t)ht_rng_log_size(rng, most);
        hive_combine mode = random_combine(rng);
        b.n = 0;
        switch (kind) {
        case MIX_INSERT: /* new and erased keys, plus updates of present ones */
            pool_draw(&pool, &ref, &b, k / 4, k - k / 4, rng);
            break;
        case MIX_ERASE: /* a few absent keys too: NOT_FOUND */
            pool_draw(&pool, &ref, &b, k - k / 10, k / 10, rng);
            break;
        case MIX_APPLY:
            pool_draw(&pool, &ref, &b, k / 2, k - k / 2, rng);
            random_ops(&b, draining, rng);
            break;
        }
        snprintf(where, sizeof where, "batch %llu (%s of %zu keys, %zu live, %s)",
                 (unsigned long long)batches, mix_kind_name[kind], b.n, live,
                 draining ? "draining" : "filling");
        ht_context("resize %s %s: mix, seed %llu, pool %zu: %s", t->backend_name, t->width_name,
                   (unsigned long long)rng->seed, pool_n, where);
        static const ht_call calls[] = {HT_CALL_INSERT, HT_CALL_ERASE, HT_CALL_APPLY};
        uint64_t bad = ht_run_unique(t, table, &ref, &b, calls[kind], mode, HT_PASS_ALL, 1, where);
        tally_batch(t, &b, mode, &erased_once, &reinserts, &assigns);

        ht_expect_contents(t, table, &ref, where);
        size_t n_absent = pool_absent(&pool, &ref, absent, 64, rng);
        memcpy(absent + n_absent, outside, sizeof outside);
        ht_expect_absent(t, table, absent, n_absent + 16, &s, where);
        ht_expect_stats(t, table, &c, &after, where);
        expect_resize_counts(kind, &before, &after, where);
        before = after;
        batches++;
        if (bad > 0 && ht_failure_count() >= HT_MAX_REPORTS)
            break; /* the reference has drifted from the table: the rest is noise */
    }
    printf("  mix: pool %zu, %llu batches, %u fill-drain cycles: %llu grows, %llu shrinks, "
           "capacity now %llu, %llu re-inserts of erased keys, %llu ASSIGN updates\n",
           pool_n, (unsigned long long)batches, done, (unsigned long long)after.grows,
           (unsigned long long)after.shrinks, (unsigned long long)after.capacity,
           (unsigned long long)reinserts, (unsigned long long)assigns);
    HT_CHECK_EQ(done, cycles, "fill-drain cycles finished within 100000 batches");
    HT_CHECK(after.grows >= RS_MIN_RESIZES && after.shrinks >= RS_MIN_RESIZES,
             "%u cycles crossed the thresholds too rarely: %llu grows, %llu shrinks (want %d each)",
             done, (unsigned long long)after.grows, (unsigned long long)after.shrinks,
             RS_MIN_RESIZES);
    HT_CHECK(reinserts > 0 && assigns > 0, "the stream made %llu re-inserts, %llu ASSIGN updates",
             (unsigned long long)reinserts, (unsigned long long)assigns);

    ht_batch_free(&b);
    ht_batch_free(&s);
    ht_ref_free(&ref);
    ht_ref_free(&erased_once);
    pool_free(&pool);
    ht_close(table);
}

/* ---------------------------------------------------------------- pinned capacity */

/* Reserve room for `cap` keys with shrinking off; then twice: fill to
 * exactly `cap` keys (the most that fits under max_load_factor) with new and
 * erased keys and updates, then empty it with erases mixed with some
 * inserts.  The buckets, capacity and grows stay as the reserve left them,
 * no shrink is counted, and every batch matches the reference.  A batch
 * never makes size plus its key count pass `cap`, since an implementation
 * may count every key of a batch as new when it decides to grow. */
static void pinned(const ht_target *t, size_t cap, ht_rng *rng)
{
    ht_context("resize %s %s: pinned capacity %zu, seed %llu", t->backend_name, t->width_name,
               cap, (unsigned long long)rng->seed);
    rs_pool pool;
    pool_init(&pool, t, cap + cap / 2, rng);
    hive_config c;
    hive_table *table = open_table(t, 0.0, &c);
    HT_CHECK_STATUS(hive_reserve(table, cap, NULL), HIVE_SUCCESS, "reserve %zu", cap);
    hive_stats r, st;
    ht_expect_stats(t, table, &c, &r, "after reserve");
    HT_CHECK((double)r.capacity * c.max_load_factor >= (double)cap,
             "reserve(%zu) left capacity %llu", cap, (unsigned long long)r.capacity);
    ht_ref ref;
    ht_ref_init(&ref);
    ht_batch b;
    ht_batch_init(&b, t, cap);
    char where[128];
    uint64_t batches = 0;
    for (int cycle = 0; cycle < 2; cycle++) {
        for (int draining = 0; draining < 2; draining++) {
            for (;;) {
                size_t live = ht_ref_size(&ref);
                if (draining ? live == 0 : live == cap)
                    break;
                size_t k = (size_t)ht_rng_log_size(rng, cap / 4 + 1);
                int insert = !draining || ht_rng_chance(rng, 0.2);
                b.n = 0;
                if (insert) { /* new keys up to cap, then updates in what room is left */
                    size_t fresh = k < cap - live ? k : cap - live;
                    size_t room = cap - live - fresh, upd = fresh / 4 < room ? fresh / 4 : room;
                    pool_draw(&pool, &ref, &b, upd, fresh, rng);
                } else {
                    pool_draw(&pool, &ref, &b, k, k / 8, rng);
                }
                snprintf(where, sizeof where, "cycle %d, %s batch %llu (%zu keys, %zu live)",
                         cycle, insert ? "insert" : "erase", (unsigned long long)batches, b.n,
                         live);
                ht_context("resize %s %s: pinned capacity %zu, seed %llu: %s", t->backend_name,
                           t->width_name, cap, (unsigned long long)rng->seed, where);
                ht_run_unique(t, table, &ref, &b, insert ? HT_CALL_INSERT : HT_CALL_ERASE,
                              random_combine(rng), HT_PASS_ALL, 1, where);
                get_stats(table, &st);
                HT_CHECK(st.buckets == r.buckets && st.capacity == r.capacity &&
                             st.grows == r.grows && st.shrinks == 0,
                         "%s: buckets %llu (pinned at %llu), grows %llu (%llu after reserve), "
                         "shrinks %llu",
                         where, (unsigned long long)st.buckets, (unsigned long long)r.buckets,
                         (unsigned long long)st.grows, (unsigned long long)r.grows,
                         (unsigned long long)st.shrinks);
                batches++;
            }
            snprintf(where, sizeof where, "cycle %d, %s", cycle, draining ? "emptied" : "full");
            ht_expect_contents(t, table, &ref, where);
            ht_expect_stats(t, table, &c, &st, where);
        }
    }
    printf("  pinned: capacity %llu (%llu buckets) for %zu keys through %llu batches\n",
           (unsigned long long)r.capacity, (unsigned long long)r.buckets, cap,
           (unsigned long long)batches);
    ht_batch_free(&b);
    ht_ref_free(&ref);
    pool_free(&pool);
    ht_close(table);
}

/* ---------------------------------------------------------------- out of memory */

/* Inserts the new keys[0..n) (ASSIGN) in one call into a table whose growth
 * may fail; returns the status.  On success, or TABLE_FULL (some keys found
 * no room and the growth for them failed), the keys hive took go into ref. */
static hive_status oom_insert(const ht_target *t, hive_table *table, ht_ref *ref, ht_batch *b,
                              const uint64_t *keys, size_t n, ht_rng *rng)
{
    b->n = 0;
    append_keys(t, b, keys, n, rng);
    ht_batch_poison_flags(b);
    hive_status s = hive_insert(table, n, b->keys, b->values, HIVE_COMBINE_ASSIGN, b->results, NULL);
    if (s != HIVE_SUCCESS && s != HIVE_ERROR_TABLE_FULL)
        return s;
    uint64_t odd = 0;
    for (size_t i = 0; i < n; i++) {
        if (b->results[i] == HIVE_RESULT_INSERTED)
            ht_ref_put(ref, keys[i], ht_get(t, b->values, i));
        else
            odd += s == HIVE_SUCCESS || b->results[i] != HIVE_RESULT_REJECTED_FULL;
    }
    HT_CHECK_EQ(odd, 0, "insert of %zu new keys (%s): results other than INSERTED "
                        "(or REJECTED_FULL with TABLE_FULL)", n, hive_status_string(s));
    return s;
}

/* The insert that needed growth failed: the table is as before it. */
static void expect_unchanged(const ht_target *t, hive_table *table, const ht_ref *ref,
                             const hive_stats *before, const uint64_t *failed, size_t n_failed,
                             ht_batch *scratch, const char *where)
{
    hive_stats st;
    get_stats(table, &st);
    HT_CHECK(st.capacity == before->capacity && st.buckets == before->buckets &&
                 st.grows == before->grows,
             "%s: capacity %llu -> %llu, buckets %llu -> %llu, grows %llu -> %llu", where,
             (unsigned long long)before->capacity, (unsigned long long)st.capacity,
             (unsigned long long)before->buckets, (unsigned long long)st.buckets,
             (unsigned long long)before->grows, (unsigned long long)st.grows);
    ht_expect_contents(t, table, ref, where); /* size and every pair */
    ht_expect_finds(t, table, ref, scratch, where);
    ht_expect_absent(t, table, failed, n_failed, scratch, where);
}

/* After a failed growth, with no memory left at all: erasing every third
 * key succeeds, and so does an insert that fits in the capacity the table
 * has: half of the erased keys again plus as many updates of present keys,
 * which keeps size plus batch under the size the table held before (an
 * implementation may count every key of a batch as new when it decides to
 * grow).  A third leaves the load over min_load_factor for any growth
 * policy up to doubling (a table grown to >= 0.45 keeps >= 0.3), so no shrink
 * is due and the capacity must stay as it was; should one be due, a shrink
 * that needs memory is skipped, so the capacity may only fall. */
static void keeps_working(const ht_target *t, hive_table *table, ht_ref *ref,
                          const hive_config *c, const hive_stats *before, ht_batch *b,
                          ht_rng *rng, const char *name)
{
    ht_context("%s: erasing a third of the keys with no memory left", name);
    size_t live = ht_ref_size(ref), n_erased = 0, n_kept = 0;
    uint64_t *erased = host_keys(live), *kept = host_keys(live);
    for (size_t i = 0, j = 0; i < ref->cap; i++)
        if (ref->state[i] == HT_REF_LIVE) {
            if (j++ % 3 == 0)
                erased[n_erased++] = ref->keys[i];
            else
                kept[n_kept++] = ref->keys[i];
        }
    b->n = 0;
    append_keys(t, b, erased, n_erased, rng);
    ht_run_unique(t, table, ref, b, HT_CALL_ERASE, HIVE_COMBINE_KEEP, HT_PASS_ALL, 0,
                  "erase a third with no memory left");
    ht_expect_finds(t, table, ref, b, "after erasing a third");
    ht_expect_absent(t, table, erased, n_erased, b, "after erasing a third");
    int shrink_due = (double)ht_ref_size(ref) < c->min_load_factor * (double)before->capacity;

    ht_context("%s: inserting what fits with no memory left", name);
    size_t again = n_erased / 2, updates = again < n_kept ? again : n_kept;
    b->n = 0;
    append_keys(t, b, erased, again, rng);
    append_keys(t, b, kept, updates, rng);
    ht_run_unique(t, table, ref, b, HT_CALL_INSERT, HIVE_COMBINE_ASSIGN, HT_PASS_ALL, 1,
                  "insert that fits, with no memory left");
    hive_stats st;
    ht_expect_stats(t, table, c, &st, "after an insert that fits");
    HT_CHECK(shrink_due ? st.capacity <= before->capacity : st.capacity == before->capacity,
             "capacity %llu -> %llu after erasing and inserting with no memory left "
             "(a shrink was %sdue)",
             (unsigned long long)before->capacity, (unsigned long long)st.capacity,
             shrink_due ? "" : "not ");
    ht_expect_contents(t, table, ref, "after an insert that fits");
    free(erased);
    free(kept);
}

/* One child: HIVE_TEST_FAIL_ALLOC is set.  Grows a table by ever larger
 * inserts until one fails for memory; checks that it (and a repeat of it)
 * changed nothing, and that the table keeps working.  Returns the exit
 * code: RS_CHILD_CREATE_OOM or RS_CHILD_NO_OOM when N was too small or too
 * large to test anything. */
static int oom_child(const ht_target *t, size_t max_keys, uint64_t seed)
{
    static char name[128];
    const char *env = getenv("HIVE_TEST_FAIL_ALLOC");
    snprintf(name, sizeof name, "resize %s %s oom child (HIVE_TEST_FAIL_ALLOC=%s)",
             t->backend_name, t->width_name, env ? env : "unset");
    ht_begin(name);
    if (env == NULL || env[0] == '\0')
        ht_fatal("--oom-child runs with HIVE_TEST_FAIL_ALLOC set (by the oom part)");
    ht_context("%s: create", name);
    hive_config c = ht_config(t);
    c.initial_capacity = RS_INITIAL_CAPACITY;
    c.threads = 2; /* the same allocations at create on every machine */
    hive_table *table = NULL;
    hive_status s = hive_create(&c, &table);
    if (s == HIVE_ERROR_OUT_OF_MEMORY)
        return RS_CHILD_CREATE_OOM;
    if (s != HIVE_SUCCESS)
        table = ht_open(t, &c); /* the skip rules of every other test */

    ht_rng rng;
    ht_rng_seed(&rng, seed);
    uint64_t *keys = host_keys(max_keys);
    ht_unique_keys(t, &rng, keys, max_keys, NULL);
    ht_ref ref;
    ht_ref_init(&ref);
    ht_batch b;
    ht_batch_init(&b, t, max_keys);
    hive_stats before;
    size_t have = 0, n = 256;
    for (;; n *= 2) {
        if (have + n > max_keys) {
            printf("%s: no growth failed up to %zu keys\n", name, have);
            s = HIVE_SUCCESS;
            goto done;
        }
        ht_context("%s: insert %zu keys into %zu", name, n, have);
        get_stats(table, &before);
        s = oom_insert(t, table, &ref, &b, keys + have, n, &rng);
        if (s == HIVE_ERROR_OUT_OF_MEMORY)
            break;
        if (!HT_CHECK(s == HIVE_SUCCESS || s == HIVE_ERROR_TABLE_FULL,
                      "insert of %zu keys into %zu before memory ran out: %s (%s)", n, have,
                      hive_status_string(s), hive_last_error()))
            goto done;
        have += n;
    }
    printf("%s: inserting %zu keys into %zu (capacity %llu, %llu grows) ran out of memory\n", name,
           n, ht_ref_size(&ref), (unsigned long long)before.capacity,
           (unsigned long long)before.grows);
    HT_CHECK(hive_last_error()[0] != '\0', "OUT_OF_MEMORY without an explanation");
    ht_context("%s: after the failed insert of %zu keys into %zu", name, n, ht_ref_size(&ref));
    expect_unchanged(t, table, &ref, &before, keys + have, n, &b, "after the failed insert");

    /* The same failure again must not wear the table down. */
    HT_CHECK_STATUS(oom_insert(t, table, &ref, &b, keys + have, n, &rng),
                    HIVE_ERROR_OUT_OF_MEMORY, "the failed insert, repeated");
    expect_unchanged(t, table, &ref, &before, keys + have, n, &b, "after the repeated failure");
    keeps_working(t, table, &ref, &c, &before, &b, &rng, name);
done:
    free(keys);
    ht_batch_free(&b);
    ht_ref_free(&ref);
    ht_close(table);
    if (s != HIVE_ERROR_OUT_OF_MEMORY && ht_failure_count() == 0)
        return RS_CHILD_NO_OOM;
    return ht_finish();
}

/* Runs `self --oom-child` with HIVE_TEST_FAIL_ALLOC=n; returns its exit code
 * (128 + signal if it was killed). */
static int run_oom_child(const char *self, const ht_target *t, long n, size_t max_keys,
                         uint64_t seed)
{
    static const char var[] = "HIVE_TEST_FAIL_ALLOC=";
    char env_arg[64], keys_arg[32], seed_arg[32];
    char child_flag[] = "--oom-child", keys_flag[] = "--keys", seed_flag[] = "--seed";
    snprintf(env_arg, sizeof env_arg, "%s%ld", var, n);
    snprintf(keys_arg, sizeof keys_arg, "%zu", max_keys);
    snprintf(seed_arg, sizeof seed_arg, "%llu", (unsigned long long)seed);
    size_t count = 0;
    while (environ[count] != NULL)
        count++;
    char **envp = malloc((count + 2) * sizeof *envp);
    if (envp == NULL)
        ht_fatal("out of host memory");
    size_t k = 0;
    for (size_t i = 0; i < count; i++)
        if (strncmp(environ[i], var, sizeof var - 1) != 0)
            envp[k++] = environ[i];
    envp[k++] = env_arg;
    envp[k] = NULL;
    char *argv[] = {(char *)self, (char *)t->backend_name, (char *)t->width_name, child_flag,
                    keys_flag, keys_arg, seed_flag, seed_arg, NULL};
    fflush(stdout);
    fflush(stderr);
    pid_t pid;
    int e = posix_spawn(&pid, self, NULL, NULL, argv, envp);
    free(envp);
    if (e != 0)
        ht_fatal("cannot run %s as an --oom-child: %s", self, strerror(e));
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            ht_fatal("waitpid: %s", strerror(errno));
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* Sweeps HIVE_TEST_FAIL_ALLOC upwards: children that cannot create a table
 * are passed over; each later one must hit OUT_OF_MEMORY on some growth and
 * pass its checks, until one grows to max_keys without failing.  The first
 * failure points go one allocation at a time (every allocation of the first
 * growths), the later ones three at a time (later growths, at shifting
 * allocations), to keep the number of children down. */
static void oom(const char *self, const ht_target *t, size_t max_keys, uint64_t seed)
{
    int points = 0;
    long n = 0;
    for (; n <= 400; n += points <= 12 ? 1 : 3) {
        ht_context("resize %s %s: oom child with HIVE_TEST_FAIL_ALLOC=%ld", t->backend_name,
                   t->width_name, n);
        int rc = run_oom_child(self, t, n, max_keys, seed + (uint64_t)n);
        if (rc == RS_CHILD_CREATE_OOM)
            continue;
        if (rc == RS_CHILD_NO_OOM)
            break;
        HT_CHECK_EQ(rc, HT_EXIT_PASS, "exit code of the oom child with HIVE_TEST_FAIL_ALLOC=%ld",
                    n);
        points++;
    }
    printf("  oom: %d failure points checked (HIVE_TEST_FAIL_ALLOC up to %ld)\n", points, n);
    HT_CHECK(points >= 3, "only %d children ran out of memory while growing "
                          "(HIVE_TEST_FAIL_ALLOC 0..%ld): is it honoured?", points, n);
}

/* ---------------------------------------------------------------- main */

static int wants(const rs_opts *o, const char *part)
{
    return o->part == NULL || strcmp(o->part, part) == 0;
}

int main(int argc, char **argv)
{
    static char name[96];
    const char *usage = "<cpu|cuda> <kv32|kv64> [--keys N] [--one-call-keys M] [--mix-keys P] "
                        "[--cycles C] [--seed S] [--part grow|mix|oom|pinned]";
    if (argc < 3) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        return HT_EXIT_FAIL;
    }
    ht_target t;
    ht_target_from_args(&t, argc, argv, 1, usage);
    rs_opts o = {1000000, 0, 0, 4, 1, NULL};
    int child = 0;
    for (int a = 3; a < argc; a++) {
        const char *arg = argv[a], *val = a + 1 < argc ? argv[a + 1] : NULL;
        if (strcmp(arg, "--oom-child") == 0) {
            child = 1;
            continue;
        }
        if (val == NULL)
            goto bad_usage;
        if (strcmp(arg, "--keys") == 0)
            o.keys = strtoull(val, NULL, 10);
        else if (strcmp(arg, "--one-call-keys") == 0)
            o.one_call_keys = strtoull(val, NULL, 10);
        else if (strcmp(arg, "--mix-keys") == 0)
            o.mix_keys = strtoull(val, NULL, 10);
        else if (strcmp(arg, "--cycles") == 0)
            o.cycles = (unsigned)strtoul(val, NULL, 10);
        else if (strcmp(arg, "--seed") == 0)
            o.seed = strtoull(val, NULL, 10);
        else if (strcmp(arg, "--part") == 0)
            o.part = val;
        else
            goto bad_usage;
        a++;
    }
    if (child)
        return oom_child(&t, (size_t)o.keys, o.seed);
    if (o.keys < 10000)
        o.keys = 10000; /* 1000 growing calls need keys for them */
    if (o.one_call_keys == 0)
        o.one_call_keys = o.keys;
    if (o.mix_keys == 0) /* the mix part checks the whole table after every batch */
        o.mix_keys = o.keys / 20 > 10000 ? o.keys / 20 : 10000;

    snprintf(name, sizeof name, "resize %s %s", t.backend_name, t.width_name);
    ht_begin(name);
    if (getenv("HIVE_TEST_FAIL_ALLOC") != NULL)
        ht_fatal("HIVE_TEST_FAIL_ALLOC is set: this test sets it for its own child processes");
    ht_require_backend(&t);
    printf("resize %s %s: seed %llu, growth to %llu keys (%llu in one call), mix and pinned "
           "with %llu keys\n",
           t.backend_name, t.width_name, (unsigned long long)o.seed,
           (unsigned long long)o.keys, (unsigned long long)o.one_call_keys,
           (unsigned long long)o.mix_keys);

    /* Every part gets its own stream of random numbers, so that one part's
     * failure repeats with --part alone. */
    ht_rng rng;
    if (wants(&o, "grow")) {
        ht_rng_seed(&rng, o.seed * 100 + 1);
        grow_then_shrink(&t, (size_t)o.one_call_keys, 0, &rng);
        ht_rng_seed(&rng, o.seed * 100 + 2);
        grow_then_shrink(&t, (size_t)o.keys, 1, &rng);
    }
    if (wants(&o, "mix")) {
        ht_rng_seed(&rng, o.seed * 100 + 3);
        mix(&t, (size_t)o.mix_keys, o.cycles, &rng);
    }
    if (wants(&o, "pinned")) {
        ht_rng_seed(&rng, o.seed * 100 + 4);
        pinned(&t, (size_t)o.mix_keys, &rng);
    }
    if (wants(&o, "oom")) {
        const char *self = access("/proc/self/exe", X_OK) == 0 ? "/proc/self/exe" : argv[0];
        oom(self, &t, o.keys < (1u << 18) ? (size_t)o.keys : (1u << 18), o.seed * 100 + 5);
    }
    return ht_finish();

bad_usage:
    fprintf(stderr, "usage: %s %s\n", argv[0], usage);
    return HT_EXIT_FAIL;
}
