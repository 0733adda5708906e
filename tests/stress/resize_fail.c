/* resize_fail.c — a resize that fails part way, injected:
 *
 *   hive-resize-fail <cpu|cuda> <kv32|kv64> [--keys N] [--resize-batch K] [--stride S]
 *                    [--timeout T] [--persistent]
 *
 * With HIVE_TEST_FAIL_RESIZE_STEP=N set, the library fails step number N of
 * its CUDA resizes (counted from 0 over the process: each kernel launch of a
 * resize op and each read-back of the counters its kernels summed;
 * src/base/alloc.h), and no other.  The variable is read once per process, so
 * this program runs itself again as a child for N = 0, S, 2S, ...  Each
 * child takes a table from 1024 slots through growth by inserts and by
 * hive_reserve, shrinks by erases, and growth and shrinking again, with key
 * counts in proportion to --keys and resize kernels of K buckets (K small: a
 * step fails between the launches of one op).  After every call it checks:
 *
 *   - a call fails only with HIVE_ERROR_CUDA or OUT_OF_MEMORY, with a
 *     message, and at most one call fails (the step fails once);
 *   - the table holds exactly what the call says it did: a failed hive_reserve
 *     changed no pair (and no capacity went down); a failed insert stored
 *     the keys its results call INSERTED and no other; a failed erase (its
 *     batch ran, the shrink after it failed) removed the keys its results
 *     call ERASED: the size, every key's value (find, contains, export), the
 *     keys that are not there;
 *   - every call after the failure succeeds: after the sequence, a child
 *     that saw a failure inserts, reserves and erases (growing and shrinking)
 *     once more;
 *   - nothing hangs: a child that runs over T seconds is killed and fails
 *     (a mark of a failed tidying left in a bucket's lock bit would make the
 *     next insert there spin forever).
 *
 * With --persistent the children get HIVE_TEST_FAIL_RESIZE_STEP=N+: step N
 * and every later one fail, so that the recovery from a failed step may fail
 * too (an undone merge whose undo cannot be launched).  Then calls may keep
 * failing, and after each failure the table must either hold exactly what
 * the calls say, or be broken: every call but hive_clear and hive_destroy
 * returns HIVE_ERROR_CUDA (at once, not hanging), and hive_clear makes it an
 * empty table that takes inserts again.  At least one child must see that.
 *
 * The sweep ends when RF_QUIET_CHILDREN children in a row saw no call fail:
 * N is then past the steps the sequence takes.  The CPU backend's resize
 * steps are loops on the host that cannot fail (its failures are out of
 * memory, alloc_fail's and resize's oom part): there the program runs the
 * sequence once, without a failure, and exits 77 saying so. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "hivetest.h"

#define RF_VAR "HIVE_TEST_FAIL_RESIZE_STEP"
/* Exit codes of a child whose checks passed beyond HT_EXIT_PASS (a call
 * failed, the table recovered): no call failed; the table was broken, and
 * hive_clear mended it (--persistent). */
#define RF_CHILD_NO_FAILURE 4
#define RF_CHILD_MENDED 5
#define RF_QUIET_CHILDREN 3
/* A sweep stops at this many failed children: each may have waited its
 * whole time limit. */
#define RF_MAX_BAD_CHILDREN 5
/* A CUDA sweep must have made this many calls fail, or the injection is not
 * honoured. */
#define RF_MIN_POINTS 10

typedef struct rf_opts {
    uint64_t keys;
    uint32_t resize_batch;
    unsigned stride;
    unsigned timeout;
    int persistent; /* children fail every step from N on */
} rf_opts;

/* One child's table, its reference, and the keys it has not used yet. */
typedef struct rf_child {
    const ht_target *t;
    hive_config config;
    hive_table *table;
    ht_ref ref;
    ht_batch b, scratch;
    ht_rng rng;
    uint64_t *pool;
    size_t pool_size, pool_used;
    uint64_t *spare; /* room for a batch's keys, on the host */
    int persistent;  /* every step from N on fails */
    int failures;    /* calls that failed */
    int mended;      /* the table was broken, and hive_clear mended it */
    int stopped;     /* the sequence stops (after mending) */
} rf_child;

/* ---------------------------------------------------------------- checks */

/* The table holds exactly k->ref; prints its size and capacity. */
static void expect_table(rf_child *k, const char *where)
{
    ht_expect_contents(k->t, k->table, &k->ref, where);
    ht_expect_finds(k->t, k->table, &k->ref, &k->scratch, where);
    hive_stats st;
    HT_MUST(hive_stats_get(k->table, &st));
    printf("  after %s: %llu keys, capacity %llu\n", where, (unsigned long long)st.size,
           (unsigned long long)st.capacity);
}

/* Judges a call's status: 0 if it succeeded, 1 if it failed as the injected
 * step may make it fail (checked: the status, a message, the only failure). */
static int call_failed(rf_child *k, hive_status s, const char *what)
{
    if (s == HIVE_SUCCESS)
        return 0;
    char why[512]; /* the next hive call replaces the last-error text */
    snprintf(why, sizeof why, "%s", hive_last_error());
    printf("  %s failed: %s (%s)\n", what, hive_status_string(s), why);
    HT_CHECK(s == HIVE_ERROR_CUDA || s == HIVE_ERROR_OUT_OF_MEMORY,
             "%s failed with %s (%s): an injected resize step fails with HIVE_ERROR_CUDA or "
             "OUT_OF_MEMORY", what, hive_status_string(s), why);
    HT_CHECK(why[0] != '\0', "%s failed without an explanation", what);
    HT_CHECK(k->persistent || k->failures == 0,
             "%s failed after an earlier call had: the step fails once", what);
    k->failures++;
    return 1;
}

static void insert_new(rf_child *k, size_t n, const char *what);

/* After a failed call with --persistent: 0 if the table still works (the
 * caller checks its contents); 1 if it is broken, which is checked: finds,
 * exports, inserts, erases, stats and growth fail with HIVE_ERROR_CUDA, and
 * hive_clear makes it an empty table that takes inserts again. */
static int found_broken(rf_child *k, const char *what)
{
    if (!k->persistent)
        return 0;
    ht_batch *b = &k->b;
    b->n = 1;
    ht_put(k->t, b->keys, 0, k->pool[0]);
    hive_status s = hive_find(k->table, 1, b->keys, b->values, b->found, b->stream);
    if (s == HIVE_SUCCESS)
        return 0;
    printf("  the table is broken after %s: %s\n", what, hive_last_error());
    HT_CHECK_STATUS(s, HIVE_ERROR_CUDA, "%s: a find after the failure", what);
    if (!HT_CHECK(!k->mended, "%s: the table broke again after hive_clear mended it", what))
        return 1;
    uint64_t count = 0;
    hive_stats st;
    HT_CHECK_STATUS(hive_export(k->table, b->cap, b->keys, b->values, &count, NULL), HIVE_ERROR_CUDA,
                    "%s: export from a broken table", what);
    HT_CHECK_STATUS(hive_insert(k->table, 1, b->keys, b->values, HIVE_COMBINE_ASSIGN, b->results,
                                b->stream),
                    HIVE_ERROR_CUDA, "%s: insert into a broken table", what);
    HT_CHECK_STATUS(hive_erase(k->table, 1, b->keys, b->results, b->stream), HIVE_ERROR_CUDA,
                    "%s: erase from a broken table", what);
    HT_CHECK_STATUS(hive_stats_get(k->table, &st), HIVE_ERROR_CUDA, "%s: stats of a broken table",
                    what);
    HT_CHECK_STATUS(hive_reserve(k->table, 1ull << 30, b->stream), HIVE_ERROR_CUDA,
                    "%s: reserve in a broken table", what);
    HT_CHECK_STATUS(hive_clear(k->table, b->stream), HIVE_SUCCESS, "%s: clear a broken table", what);
    ht_ref_clear(&k->ref);
    k->mended = 1;
    insert_new(k, 100, "insert after hive_clear mended the table");
    k->stopped = 1;
    return 1;
}

/* ---------------------------------------------------------------- calls */

/* Inserts n new keys (ASSIGN, with results). */
static void insert_new(rf_child *k, size_t n, const char *what)
{
    if (k->stopped)
        return;
    ht_context("%s: insert %zu new keys into %zu", what, n, ht_ref_size(&k->ref));
    if (k->pool_used + n > k->pool_size)
        ht_fatal("%s: the key pool is too small", what);
    const uint64_t *keys = k->pool + k->pool_used;
    k->pool_used += n;
    k->b.n = n;
    for (size_t i = 0; i < n; i++) {
        ht_put(k->t, k->b.keys, i, keys[i]);
        ht_put(k->t, k->b.values, i, ht_random_value(k->t, &k->rng));
    }
    ht_batch_poison_flags(&k->b);
    hive_status s = hive_insert(k->table, n, k->b.keys, k->b.values, HIVE_COMBINE_ASSIGN,
                                k->b.results, k->b.stream);
    int failed = call_failed(k, s, what);
    /* A failed insert ran its batch or not (growth before it failed), and
     * ran it again for keys that found no room or not (growth for them
     * failed): a key it did not store is left untouched or REJECTED_FULL. */
    size_t absent = 0;
    uint64_t odd = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned r = k->b.results[i];
        if (r == HIVE_RESULT_INSERTED)
            ht_ref_put(&k->ref, keys[i], ht_get(k->t, k->b.values, i));
        else if (failed && (r == HT_FLAG_POISON || r == HIVE_RESULT_REJECTED_FULL))
            k->spare[absent++] = keys[i];
        else if (odd++ < 5)
            HT_CHECK(0, "%s: key %llu of a new batch: result %s after %s", what,
                     (unsigned long long)keys[i], ht_result_name(r), hive_status_string(s));
    }
    if (failed && found_broken(k, what))
        return;
    expect_table(k, what);
    ht_expect_absent(k->t, k->table, k->spare, absent, &k->scratch, what);
}

/* Erases `num` of every `den` live keys (with results). */
static void erase_some(rf_child *k, size_t num, size_t den, const char *what)
{
    if (k->stopped)
        return;
    size_t n = 0, j = 0;
    for (size_t i = 0; i < k->ref.cap; i++)
        if (k->ref.state[i] == HT_REF_LIVE && j++ % den < num)
            k->spare[n++] = k->ref.keys[i];
    ht_context("%s: erase %zu of %zu keys", what, n, ht_ref_size(&k->ref));
    k->b.n = n;
    for (size_t i = 0; i < n; i++)
        ht_put(k->t, k->b.keys, i, k->spare[i]);
    ht_batch_poison_flags(&k->b);
    hive_status s = hive_erase(k->table, n, k->b.keys, k->b.results, k->b.stream);
    int failed = call_failed(k, s, what);
    /* The batch runs before the shrink it may ask for: a failed erase has
     * run it (an untouched result would mean it had not). */
    uint64_t odd = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned r = k->b.results[i];
        if (r == HIVE_RESULT_ERASED)
            ht_ref_del(&k->ref, k->spare[i]);
        else if (!(failed && r == HT_FLAG_POISON) && odd++ < 5)
            HT_CHECK(0, "%s: present key %llu: result %s after %s", what,
                     (unsigned long long)k->spare[i], ht_result_name(r), hive_status_string(s));
    }
    if (failed && found_broken(k, what))
        return;
    expect_table(k, what);
}

/* hive_reserve(keys): growth that changes no pair. */
static void reserve(rf_child *k, uint64_t keys, const char *what)
{
    if (k->stopped)
        return;
    ht_context("%s: reserve %llu keys holding %zu", what, (unsigned long long)keys,
               ht_ref_size(&k->ref));
    hive_stats before, after;
    HT_MUST(hive_stats_get(k->table, &before));
    hive_status s = hive_reserve(k->table, keys, k->b.stream);
    int failed = call_failed(k, s, what);
    if (failed && found_broken(k, what))
        return;
    HT_MUST(hive_stats_get(k->table, &after));
    HT_CHECK(after.capacity >= before.capacity, "%s: capacity %llu -> %llu", what,
             (unsigned long long)before.capacity, (unsigned long long)after.capacity);
    if (!failed)
        HT_CHECK(after.capacity >= keys, "%s: capacity %llu after reserving %llu", what,
                 (unsigned long long)after.capacity, (unsigned long long)keys);
    expect_table(k, what);
}

/* ---------------------------------------------------------------- one child */

static int child(const ht_target *t, const rf_opts *o)
{
    static char name[128];
    const char *env = getenv(RF_VAR);
    snprintf(name, sizeof name, "resize-fail %s %s child (%s=%s)", t->backend_name,
             t->width_name, RF_VAR, env ? env : "unset");
    ht_begin(name);
    rf_child k;
    memset(&k, 0, sizeof k);
    k.t = t;
    k.config = ht_config(t);
    k.config.initial_capacity = 1024;
    k.config.resize_batch = o->resize_batch;
    k.config.threads = 2;
    k.persistent = o->persistent;
    k.table = ht_open(t, &k.config);
    ht_rng_seed(&k.rng, 1000 + o->keys);
    size_t n = (size_t)o->keys;
    k.pool_size = 4 * n;
    k.pool = malloc(k.pool_size * sizeof *k.pool);
    k.spare = malloc(4 * n * sizeof *k.spare);
    if (k.pool == NULL || k.spare == NULL)
        ht_fatal("out of host memory for %zu keys", k.pool_size);
    ht_unique_keys(t, &k.rng, k.pool, k.pool_size, NULL);
    ht_ref_init(&k.ref);
    ht_batch_init(&k.b, t, 4 * n);
    ht_batch_init(&k.scratch, t, 4096);

    /* Growth by inserts (the table doubles, or more), by hive_reserve (to a
     * size part way through a round), shrinks by erases that leave the table
     * nearly empty (sparse merges through several rounds) and one that
     * leaves it just under min_load_factor (merged buckets that cannot hold
     * all their pairs: the rest are rehomed), and growth again. */
    insert_new(&k, n / 4, "first insert");
    insert_new(&k, 3 * n / 4, "insert that grows the table");
    reserve(&k, 3 * n, "reserve");
    erase_some(&k, 9, 10, "erase that shrinks the table");
    insert_new(&k, 3 * n / 2, "insert that grows it again");
    erase_some(&k, 19, 20, "erase that shrinks it again");
    reserve(&k, 2 * n, "reserve again");
    insert_new(&k, n / 2, "insert into reserved room");
    erase_some(&k, 1, 4, "erase that shrinks a fuller table");
    int failed = k.failures != 0;
    if (failed && !k.persistent) {
        /* The table works on after the failure, resizes included. */
        insert_new(&k, n / 2, "insert after the failure");
        reserve(&k, 4 * n, "reserve after the failure");
        erase_some(&k, 9, 10, "erase after the failure");
    }
    /* The stats agree with each other and the config; but with every later
     * step failing, a stash that could not be resized may stay larger than
     * twice stash_fraction of a table that shrank, which ht_expect_stats
     * would call a fault: there only their consistency with the size. */
    hive_stats st;
    if (k.persistent && failed) {
        HT_MUST(hive_stats_get(k.table, &st));
        HT_CHECK_EQ(st.size, ht_ref_size(&k.ref), "stats.size at the end");
        HT_CHECK_EQ(st.capacity, st.buckets * st.bucket_slots, "capacity = buckets * slots at the end");
    } else {
        ht_expect_stats(t, k.table, &k.config, &st, "at the end");
    }
    printf("  %s: %llu grows, %llu shrinks, capacity %llu at the end\n", name,
           (unsigned long long)st.grows, (unsigned long long)st.shrinks,
           (unsigned long long)st.capacity);
    /* The sequence resizes as it says it does (growth by one insert may
     * split through two rounds in one resize). */
    if (!failed)
        HT_CHECK(st.grows >= 4 && st.shrinks >= 3, "%llu grows and %llu shrinks: the sequence "
                 "should grow at least 4 times and shrink 3 times", (unsigned long long)st.grows,
                 (unsigned long long)st.shrinks);

    ht_batch_free(&k.scratch);
    ht_batch_free(&k.b);
    ht_ref_free(&k.ref);
    free(k.spare);
    free(k.pool);
    ht_close(k.table);
    int rc = ht_finish();
    if (rc != HT_EXIT_PASS)
        return rc;
    return !failed ? RF_CHILD_NO_FAILURE : k.mended ? RF_CHILD_MENDED : HT_EXIT_PASS;
}

/* ---------------------------------------------------------------- the sweep */

static const char *child_outcome(int rc)
{
    switch (rc) {
    case HT_EXIT_PASS: return "a call failed, and the table recovered";
    case RF_CHILD_NO_FAILURE: return "no call failed";
    case RF_CHILD_MENDED: return "the table broke, and hive_clear mended it";
    case HT_EXIT_FAIL: return "FAILED its checks";
    case HT_EXIT_SKIP: return "skipped";
    case HT_CHILD_TIMED_OUT: return "HUNG (killed at its time limit)";
    default: return "CRASHED (killed by a signal)";
    }
}

/* Runs the child for step n; returns its exit code. */
static int run_child(char *self, const ht_target *t, const rf_opts *o, long n)
{
    char keys[32], batch[32], step[32];
    snprintf(keys, sizeof keys, "%llu", (unsigned long long)o->keys);
    snprintf(batch, sizeof batch, "%u", o->resize_batch);
    snprintf(step, sizeof step, "%ld%s", n, o->persistent ? "+" : "");
    char *argv[] = {self, (char *)t->backend_name, (char *)t->width_name, "--child", "--keys", keys,
                    "--resize-batch", batch, o->persistent ? "--persistent" : NULL, NULL};
    int rc = ht_run_child(argv, RF_VAR, step, o->timeout);
    printf("%s=%s: %s (exit %d)\n", RF_VAR, step, child_outcome(rc), rc);
    return rc;
}

static int sweep(char *self, const ht_target *t, const rf_opts *o)
{
    static char name[128];
    snprintf(name, sizeof name, "resize-fail %s %s (keys %llu, resize_batch %u%s)", t->backend_name,
             t->width_name, (unsigned long long)o->keys, o->resize_batch,
             o->persistent ? ", persistent" : "");
    ht_begin(name);
    ht_require_backend(t);
    if (t->backend == HIVE_BACKEND_CPU) {
        int rc = run_child(self, t, o, 0);
        HT_CHECK_EQ(rc, RF_CHILD_NO_FAILURE, "the sequence on the CPU backend, which has no "
                                             "injectable resize step");
        if (ht_failure_count() != 0)
            return ht_finish();
        ht_skip("the CPU backend's resize steps are host loops that cannot fail (its memory "
                "failures are alloc_fail's): the sequence ran once, without a failure, and "
                "passed");
    }
    int points = 0, mended = 0, quiet = 0, bad = 0;
    long n = 0;
    for (; quiet < RF_QUIET_CHILDREN && bad < RF_MAX_BAD_CHILDREN; n += o->stride) {
        ht_context("%s: child with %s=%ld", name, RF_VAR, n);
        int rc = run_child(self, t, o, n);
        if (rc == HT_EXIT_SKIP)
            ht_skip("the child skipped (no GPU?)");
        quiet = rc == RF_CHILD_NO_FAILURE ? quiet + 1 : 0;
        points += rc == HT_EXIT_PASS || rc == RF_CHILD_MENDED;
        mended += rc == RF_CHILD_MENDED;
        if (!HT_CHECK(rc == HT_EXIT_PASS || rc == RF_CHILD_NO_FAILURE ||
                          (o->persistent && rc == RF_CHILD_MENDED),
                      "child with %s=%ld: %s (exit %d)", RF_VAR, n, child_outcome(rc), rc))
            bad++;
    }
    printf("%d failure points checked, %d of them broke the table (%s up to %ld, stride %u)%s\n",
           points, mended, RF_VAR, n - (long)o->stride, o->stride,
           bad == RF_MAX_BAD_CHILDREN ? "; stopped early" : "");
    if (bad == 0)
        HT_CHECK(points >= RF_MIN_POINTS,
                 "only %d children saw a call fail: is %s honoured?", points, RF_VAR);
    if (bad == 0 && o->persistent)
        HT_CHECK(mended >= 1, "no child saw a table broken by a failed recovery%s", "");
    return ht_finish();
}

/* ---------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    const char *usage = "<cpu|cuda> <kv32|kv64> [--keys N] [--resize-batch K] [--stride S] "
                        "[--timeout T] [--persistent]";
    if (argc < 3) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        return HT_EXIT_FAIL;
    }
    ht_target t;
    ht_target_from_args(&t, argc, argv, 1, usage);
    rf_opts o = {2000, 1u << 26, 1, 30, 0};
    int is_child = 0;
    for (int i = 3; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "--child") == 0) {
            is_child = 1;
            continue;
        }
        if (strcmp(arg, "--persistent") == 0) {
            o.persistent = 1;
            continue;
        }
        if (value == NULL) {
            fprintf(stderr, "%s needs a value\nusage: %s %s\n", arg, argv[0], usage);
            return HT_EXIT_FAIL;
        }
        i++;
        unsigned long long v = strtoull(value, NULL, 10);
        if (strcmp(arg, "--keys") == 0 && v >= 100)
            o.keys = v;
        else if (strcmp(arg, "--resize-batch") == 0 && v >= 1 && v <= 1u << 31)
            o.resize_batch = (uint32_t)v;
        else if (strcmp(arg, "--stride") == 0 && v >= 1 && v <= 1000)
            o.stride = (unsigned)v;
        else if (strcmp(arg, "--timeout") == 0 && v >= 1 && v <= 3600)
            o.timeout = (unsigned)v;
        else {
            fprintf(stderr, "bad option %s %s\nusage: %s %s\n", arg, value, argv[0], usage);
            return HT_EXIT_FAIL;
        }
    }
    if (is_child) {
        if (getenv(RF_VAR) == NULL)
            ht_fatal("--child runs with %s set (by the sweep)", RF_VAR);
        return child(&t, &o);
    }
    if (getenv(RF_VAR) != NULL)
        ht_fatal("%s is set: this test sets it for its own child processes", RF_VAR);
    return sweep(argv[0], &t, &o);
}
