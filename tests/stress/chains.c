/* chains.c — the chaining design's chains and node pool
 * (docs/designs/chaining.md), on any backend:
 *
 *   hive-chains <cpu|cuda> <kv32|kv64> <long|pool> [--seed S]
 *
 * long  keys aimed (support/aim.h) at one head bucket of a table of 512
 *       slots, 40 buckets' worth of them, so that all but one bucket of them live
 *       in chains: inserted S keys a call, then assigned new values,
 *       half erased and inserted again, then all erased one call at a time.
 *       After every call every key is checked against the reference map
 *       (found with its value, or absent with its value entry untouched),
 *       and the size and statistics.  The chains must get long (at some
 *       point the pool holds on average 1.5 nodes' worth of pairs a chain:
 *       api relieves a pool over half full, at 2), and they cross resizes
 *       both ways: half way through the inserts the table reserves four
 *       times its capacity (splits), and the erases shrink it (merges).
 *  pool  the pool runs out.  A table whose pool holds P pairs at most takes
 *       one call of more aimed keys than its head bucket and pool can hold:
 *       the call succeeds and the table has made room (R7, as for a full
 *       stash), every key found.  Then the same in children that may only
 *       allocate HIVE_TEST_FAIL_ALLOC times: where growth runs out of
 *       memory, the call returns HIVE_ERROR_TABLE_FULL, exactly the keys
 *       whose result is REJECTED_FULL are absent, every other key is found,
 *       and the size agrees.
 *
 * The design is always chaining; exits 0 pass, 1 fail, 77 skip. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aim.h"
#include "child.h"
#include "hivetest.h"

/* Tables here start with CH_BUCKETS * 8 slots; keys aim at one head bucket. */
#define CH_BUCKETS 64u
#define CH_HEAD 7u

/* Exit codes of a pool child, beside pass (it saw the pool full) and fail. */
#define CH_CHILD_CREATE_OOM 3 /* too few allocations to create the table */
#define CH_CHILD_GREW 4       /* enough allocations to grow: nothing to check */

typedef struct ch_run {
    const ht_target *t;
    hive_table *table;
    hive_config config;
    ht_ref ref;
    ht_batch b, scratch;
    ht_rng rng;
    uint32_t S;
    uint64_t *keys; /* the aimed keys */
    size_t n;
    double longest;   /* the most pairs a chain held on average, in nodes */
    uint64_t grows, shrinks;
} ch_run;

static void ch_stats(ch_run *r, const char *where)
{
    hive_stats st;
    ht_expect_stats(r->t, r->table, &r->config, &st, where);
    uint64_t nodes = st.stash_capacity / r->S, chains = (nodes + 3) / 4;
    if (chains != 0) {
        double per_chain = (double)st.stash_size / (double)(chains * r->S);
        if (per_chain > r->longest)
            r->longest = per_chain;
    }
    r->grows = st.grows;
    r->shrinks = st.shrinks;
}

/* Every aimed key against the reference: present ones found with their
 * values, the others absent. */
static void ch_check_all(ch_run *r, const char *where)
{
    ht_expect_finds(r->t, r->table, &r->ref, &r->scratch, where);
    size_t absent = 0;
    uint64_t *gone = malloc(r->n * sizeof *gone);
    if (gone == NULL)
        ht_fatal("out of host memory");
    for (size_t i = 0; i < r->n; i++)
        if (!ht_ref_get(&r->ref, r->keys[i], NULL))
            gone[absent++] = r->keys[i];
    ht_expect_absent(r->t, r->table, gone, absent, &r->scratch, where);
    free(gone);
    ch_stats(r, where);
}

/* One call over keys[from, from + n) of the aimed keys, checked whole. */
static void ch_call(ch_run *r, ht_call call, hive_combine mode, size_t from, size_t n, const char *phase)
{
    char where[96];
    snprintf(where, sizeof where, "%s, keys %zu..%zu", phase, from, from + n - 1);
    r->b.n = n;
    for (size_t i = 0; i < n; i++) {
        ht_put(r->t, r->b.keys, i, r->keys[from + i]);
        ht_put(r->t, r->b.values, i, ht_random_value(r->t, &r->rng));
    }
    ht_run_unique(r->t, r->table, &r->ref, &r->b, call, mode, HT_PASS_ALL, 1, where);
    ch_check_all(r, where);
}

/* A table of CH_BUCKETS * 8 slots (the base its keys aim at is what that
 * makes: 64 buckets of 8 slots, 128 of 4), and n_per_slot keys a slot of a
 * bucket aimed at one of its head buckets.  Returns 0 (nothing held) when
 * creating the table ran out of memory (the pool children). */
static int ch_open(ch_run *r, const ht_target *t, uint64_t seed, double stash_fraction, double max_load,
                   size_t per_bucket)
{
    memset(r, 0, sizeof *r);
    r->t = t;
    r->config = ht_config(t);
    r->config.stash_fraction = stash_fraction;
    r->config.max_load_factor = max_load;
    r->config.min_load_factor = max_load / 4;
    r->config.initial_capacity = CH_BUCKETS * 8u;
    r->config.threads = 2; /* the same allocations at create on every machine */
    hive_status s = hive_create(&r->config, &r->table);
    if (s == HIVE_ERROR_OUT_OF_MEMORY && getenv("HIVE_TEST_FAIL_ALLOC") != NULL)
        return 0;
    HT_MUST(s);
    hive_stats st;
    HT_MUST(hive_stats_get(r->table, &st));
    r->S = st.bucket_slots;
    ht_ref_init(&r->ref);
    ht_rng_seed(&r->rng, seed);
    r->n = per_bucket * r->S;
    r->keys = malloc(r->n * sizeof *r->keys);
    if (r->keys == NULL)
        ht_fatal("out of host memory");
    ht_ref taken;
    ht_ref_init(&taken);
    ht_aimed_keys(t, ht_hash_seed(r->table), &r->rng, st.buckets, CH_HEAD, 1, r->keys, r->n, &taken);
    ht_ref_free(&taken);
    ht_batch_init(&r->b, t, r->n);
    ht_batch_init(&r->scratch, t, r->n);
    return 1;
}

static void ch_close(ch_run *r)
{
    ht_close(r->table);
    ht_batch_free(&r->b);
    ht_batch_free(&r->scratch);
    ht_ref_free(&r->ref);
    free(r->keys);
}

/* ---------------------------------------------------------------- long */

static void scenario_long(const ht_target *t, uint64_t seed)
{
    ch_run r;
    ch_open(&r, t, seed, 0.01, 0.5, 40);
    ch_check_all(&r, "empty");
    for (size_t i = 0; i < r.n; i += r.S) {
        ch_call(&r, HT_CALL_INSERT, HIVE_COMBINE_KEEP, i, r.S, "insert");
        if (i == r.n / 2) { /* splits under full chains, whatever R7 did so far */
            hive_stats st;
            HT_MUST(hive_stats_get(r.table, &st));
            HT_CHECK_STATUS(hive_reserve(r.table, 4 * st.capacity, NULL), HIVE_SUCCESS, "reserve");
            ch_check_all(&r, "after reserving four times the capacity");
        }
    }
    uint64_t grown = r.grows;
    for (size_t i = 0; i < r.n; i += 4 * r.S)
        ch_call(&r, HT_CALL_INSERT, HIVE_COMBINE_ASSIGN, i, 4 * r.S, "assign");
    ht_shuffle(&r.rng, r.keys, r.n);
    for (size_t i = 0; i < r.n / 2; i += r.S)
        ch_call(&r, HT_CALL_ERASE, HIVE_COMBINE_KEEP, i, r.S, "erase half");
    for (size_t i = 0; i < r.n / 2; i += 2 * r.S)
        ch_call(&r, HT_CALL_INSERT, HIVE_COMBINE_ADD, i, 2 * r.S, "insert again");
    ht_shuffle(&r.rng, r.keys, r.n);
    for (size_t i = 0; i < r.n; i += r.S)
        ch_call(&r, HT_CALL_ERASE, HIVE_COMBINE_KEEP, i, r.S, "erase all");
    ht_expect_contents(t, r.table, &r.ref, "at the end");
    printf("  %zu keys aimed at one head bucket of %u-slot buckets: the longest chains held %.2f nodes' "
           "worth of pairs on average; %llu grows, %llu shrinks\n",
           r.n, r.S, r.longest, (unsigned long long)r.grows, (unsigned long long)r.shrinks);
    HT_CHECK(r.longest >= 1.5, "the chains held at most %.2f nodes' worth of pairs on average: never long",
             r.longest);
    HT_CHECK(grown >= 1 && r.shrinks >= 1, "the table grew %llu times and shrank %llu times under the chains",
             (unsigned long long)grown, (unsigned long long)r.shrinks);
    ch_close(&r);
}

/* ---------------------------------------------------------------- pool */

/* One call of keys that the head bucket and the pool cannot hold.  Returns
 * its status; checks what it did whatever it was. */
static hive_status pool_overflow(ch_run *r, const char *where)
{
    hive_stats before;
    HT_MUST(hive_stats_get(r->table, &before));
    uint64_t room = r->S + before.stash_capacity; /* the head bucket and every slot of the pool */
    HT_CHECK(room < r->n, "%s: %llu slots of head and pool hold all %zu keys: nothing runs out", where,
             (unsigned long long)room, r->n);
    for (size_t i = 0; i < r->n; i++) {
        ht_put(r->t, r->b.keys, i, r->keys[i]);
        ht_put(r->t, r->b.values, i, i);
    }
    memset(r->b.results, HT_FLAG_POISON, r->n);
    hive_status s = hive_insert(r->table, r->n, r->b.keys, r->b.values, HIVE_COMBINE_KEEP, r->b.results,
                                r->b.stream);
    HT_CHECK(s == HIVE_SUCCESS || s == HIVE_ERROR_TABLE_FULL, "%s: insert returned %s (%s)", where,
             hive_status_string(s), hive_last_error());
    size_t inserted = 0;
    for (size_t i = 0; i < r->n; i++) {
        unsigned res = r->b.results[i];
        HT_CHECK(res == HIVE_RESULT_INSERTED || (s != HIVE_SUCCESS && res == HIVE_RESULT_REJECTED_FULL),
                 "%s: key %zu's result %s after %s", where, i, ht_result_name(res), hive_status_string(s));
        if (res == HIVE_RESULT_INSERTED) {
            ht_ref_put(&r->ref, r->keys[i], i);
            inserted++;
        }
    }
    HT_CHECK(s == HIVE_SUCCESS || inserted < r->n, "%s: TABLE_FULL with every key inserted", where);
    ch_check_all(r, where);
    ht_expect_contents(r->t, r->table, &r->ref, where);
    hive_stats after;
    HT_MUST(hive_stats_get(r->table, &after));
    HT_CHECK(s != HIVE_SUCCESS || after.capacity > before.capacity || after.stash_capacity > before.stash_capacity,
             "%s: %zu keys fitted %llu slots of head bucket and pool without room made", where, r->n,
             (unsigned long long)room);
    return s;
}

/* A child with HIVE_TEST_FAIL_ALLOC set: the overflow where growth may run
 * out of memory. */
static int pool_child(const ht_target *t, uint64_t seed)
{
    ht_begin("chains pool child");
    ch_run r;
    if (!ch_open(&r, t, seed, 0.05, 0.5, 12))
        return CH_CHILD_CREATE_OOM;
    hive_status s = pool_overflow(&r, "pool child: one call past the pool");
    ch_close(&r);
    if (ht_failure_count() == 0 && s == HIVE_SUCCESS)
        return CH_CHILD_GREW;
    return ht_finish();
}

static void scenario_pool(const ht_target *t, const char *self, uint64_t seed)
{
    ch_run r;
    ch_open(&r, t, seed, 0.05, 0.5, 12);
    HT_CHECK_STATUS(pool_overflow(&r, "one call past the pool"), HIVE_SUCCESS, "one call past the pool");
    ch_close(&r);
    if (t->backend == HIVE_BACKEND_CUDA)
        return; /* the injection counts host allocations: the CPU's table memory */
    int full = 0;
    long n = 0;
    for (; n <= 60; n++) {
        char value[24], seed_arg[24];
        snprintf(value, sizeof value, "%ld", n);
        snprintf(seed_arg, sizeof seed_arg, "%llu", (unsigned long long)seed);
        char *argv[] = {(char *)self, (char *)t->backend_name, (char *)t->width_name, "pool-child", "--seed",
                        seed_arg, NULL};
        int rc = ht_run_child(argv, "HIVE_TEST_FAIL_ALLOC", value, 60);
        if (rc == CH_CHILD_CREATE_OOM)
            continue;
        if (rc == CH_CHILD_GREW)
            break;
        HT_CHECK_EQ(rc, HT_EXIT_PASS, "exit code of the pool child with HIVE_TEST_FAIL_ALLOC=%ld", n);
        full++;
    }
    printf("  pool: %d children found the pool full and could not grow (HIVE_TEST_FAIL_ALLOC up to %ld)\n",
           full, n);
    HT_CHECK(full >= 1, "no child ran out of memory making room (HIVE_TEST_FAIL_ALLOC 0..%ld)", n);
}

/* ---------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    static char name[96];
    const char *usage = "<cpu|cuda> <kv32|kv64> <long|pool> [--seed S]";
    if (argc < 4) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        return HT_EXIT_FAIL;
    }
    ht_target t;
    ht_target_from_args(&t, argc, argv, 1, usage);
    ht_target_set_design(&t, HIVE_DESIGN_CHAINING);
    const char *scenario = argv[3];
    uint64_t seed = 1;
    for (int a = 4; a + 1 < argc; a += 2)
        if (strcmp(argv[a], "--seed") == 0)
            seed = strtoull(argv[a + 1], NULL, 10);
    if (strcmp(scenario, "pool-child") == 0)
        return pool_child(&t, seed);
    snprintf(name, sizeof name, "chains %s %s %s", scenario, t.backend_name, t.width_name);
    ht_begin(name);
    ht_require_backend(&t);
    if (strcmp(scenario, "long") == 0)
        scenario_long(&t, seed);
    else if (strcmp(scenario, "pool") == 0)
        scenario_pool(&t, argv[0], seed);
    else
        ht_fatal("unknown scenario %s (usage: %s %s)", scenario, argv[0], usage);
    return ht_finish();
}
