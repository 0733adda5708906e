/* apply.c — hive_apply: FIND, INSERT, UPSERT and ERASE mixed in one batch
 * over present and absent keys, with every combine mode for UPSERT; FIND
 * writes the values of found keys and leaves the others, INSERT/UPSERT inputs
 * stay as given; results = NULL; keys repeated with UPSERT (every mode) and
 * INSERT (which ignores the combine mode); a batch that makes the table grow;
 * growth decided by the exact count of a batch's insert-type elements. */
#include <stdio.h>
#include <stdlib.h>

#include "conformance.h"

#define N 3000

static const char *mode_name[] = {"KEEP", "ASSIGN", "ADD", "MIN", "MAX"};

/* n distinct keys, about half present, with random op codes. */
static void fill_mixed(const ht_target *t, ht_batch *b, const uint64_t *keys, size_t pool,
                       size_t n, ht_rng *rng, const double op_weights[4])
{
    uint64_t *ks = malloc(pool * sizeof *ks);
    for (size_t i = 0; i < pool; i++)
        ks[i] = keys[i];
    ht_shuffle(rng, ks, pool);
    ct_fill(t, b, ks, n, rng);
    for (size_t i = 0; i < n; i++) {
        double x = (double)ht_rng_below(rng, 1u << 30) / (double)(1u << 30);
        unsigned op = 0;
        while (op < 3 && x >= op_weights[op]) {
            x -= op_weights[op];
            op++;
        }
        b->ops[i] = (uint8_t)op;
    }
    free(ks);
}

static void one_param(const ht_target *t, const ct_param *p)
{
    hive_config c;
    hive_table *table = ct_open(t, "apply", p, 1024, &c);
    ht_rng rng;
    ht_rng_seed(&rng, p->seed * 1000 + 4);
    uint64_t *keys = malloc(4 * N * sizeof *keys);
    ht_unique_keys(t, &rng, keys, 4 * N, NULL);
    ht_ref ref;
    ht_ref_init(&ref);
    ht_batch b;
    ht_batch_init(&b, t, 6 * N);
    const double even[4] = {0.25, 0.25, 0.25, 0.25};
    char where[96];

    ct_fill(t, &b, keys, N, &rng);
    ht_run_unique(t, table, &ref, &b, HT_CALL_INSERT, HIVE_COMBINE_ASSIGN, HT_PASS_ALL, 1,
                  "insert keys[0..N)");

    /* Mixed ops over keys[0..2N): half present. */
    for (int m = 0; m <= HIVE_COMBINE_MAX; m++) {
        snprintf(where, sizeof where, "mixed ops, combine %s", mode_name[m]);
        fill_mixed(t, &b, keys, 2 * N, N, &rng, even);
        ht_run_unique(t, table, &ref, &b, HT_CALL_APPLY, (hive_combine)m, HT_PASS_ALL, 1, where);
        ht_expect_finds(t, table, &ref, &b, where);
    }
    fill_mixed(t, &b, keys, 2 * N, N, &rng, even);
    ht_run_unique(t, table, &ref, &b, HT_CALL_APPLY, HIVE_COMBINE_MIN, 0, 1,
                  "mixed ops, results NULL");

    /* Single-op batches through apply. */
    static const char *op_name[] = {"FIND", "INSERT", "UPSERT", "ERASE"};
    for (unsigned op = 0; op < 4; op++) {
        double w[4] = {0, 0, 0, 0};
        w[op] = 1.0;
        snprintf(where, sizeof where, "apply with only %s", op_name[op]);
        fill_mixed(t, &b, keys, 2 * N, N / 2, &rng, w);
        ht_run_unique(t, table, &ref, &b, HT_CALL_APPLY, HIVE_COMBINE_ADD, HT_PASS_ALL, 1, where);
    }
    ht_expect_contents(t, table, &ref, "after single-op applies");

    /* Repeated keys: UPSERT with every mode, INSERT for KEEP. */
    for (int m = 0; m <= HIVE_COMBINE_MAX; m++) {
        snprintf(where, sizeof where, "apply with repeated keys, %s %s",
                 m == 0 ? "INSERT" : "UPSERT", mode_name[m]);
        size_t n = 0;
        uint64_t *ks = malloc(5 * N * sizeof *ks);
        for (size_t i = 0; i < N; i++) {
            uint64_t k = keys[ht_rng_below(&rng, 3 * N)];
            for (uint64_t c2 = ht_rng_range(&rng, 1, 4); c2 > 0; c2--)
                ks[n++] = k;
        }
        ht_shuffle(&rng, ks, n);
        ct_fill(t, &b, ks, n, &rng);
        free(ks);
        ht_run_repeated(t, table, &ref, &b, (hive_combine)m, 1, 1, where);
    }
    ht_expect_contents(t, table, &ref, "after repeated-key applies");

    /* A batch that needs the table to grow: 5N new keys, mostly inserts,
     * into a table made for 1024 slots. */
    hive_config c2;
    hive_table *small = ct_open(t, "apply (growth)", p, 1024, &c2);
    ht_ref ref2;
    ht_ref_init(&ref2);
    uint64_t *fresh = malloc(5 * N * sizeof *fresh);
    ht_unique_keys(t, &rng, fresh, 5 * N, NULL);
    const double inserting[4] = {0.1, 0.4, 0.4, 0.1};
    fill_mixed(t, &b, fresh, 5 * N, 5 * N, &rng, inserting);
    hive_stats st0, st1;
    ht_expect_stats(t, small, &c2, &st0, "before a growing apply");
    ht_run_unique(t, small, &ref2, &b, HT_CALL_APPLY, HIVE_COMBINE_MAX, HT_PASS_ALL, 1,
                  "apply that grows the table");
    ht_expect_stats(t, small, &c2, &st1, "after a growing apply");
    HT_CHECK(st1.capacity > st0.capacity && st1.grows > st0.grows,
             "apply of %d mostly inserting ops: capacity %llu -> %llu, grows %llu -> %llu", 5 * N,
             (unsigned long long)st0.capacity, (unsigned long long)st1.capacity,
             (unsigned long long)st0.grows, (unsigned long long)st1.grows);
    ht_expect_finds(t, small, &ref2, &b, "after a growing apply");
    ht_expect_contents(t, small, &ref2, "after a growing apply");
    free(fresh);
    ht_ref_free(&ref2);
    ht_close(small);

    ht_batch_free(&b);
    ht_ref_free(&ref);
    free(keys);
    ht_close(table);
}

/* A table of `suite` at max_load_factor 0.5 that never shrinks, its stats
 * in *st: the limit is half its capacity. */
static hive_table *open_at_half(const ht_target *t, const ct_param *p, const char *suite, uint64_t capacity,
                                hive_stats *st)
{
    ct_param half = *p;
    half.max_load_factor = 0.5;
    half.min_load_factor = 0.0;
    hive_config c;
    hive_table *table = ct_open(t, suite, &half, capacity, &c);
    HT_MUST(hive_stats_get(table, st));
    return table;
}

/* A table at max_load_factor 0.5 holding limit_quarters quarters of its
 * limit (capacity / 2) in new keys, and a batch of n
 * elements (n odd) whose op codes start 3 bytes into the batch's arrays: an
 * insert of a new key where `insert_at` says, a find of an absent key
 * elsewhere.  The CUDA backend counts the op codes 16 bytes at a time, so the
 * odd start and length make it count the bytes before and after those too.
 * Checks the results and whether the table grew. */
#define COUNT_SKEW 3
static void count_case(const ht_target *t, const ct_param *p, ht_rng *rng, int limit_quarters,
                       int (*insert_at)(size_t i, size_t n), int expect_growth, const char *where)
{
    hive_stats st0, st1;
    hive_table *table = open_at_half(t, p, "apply (insert count)", 8192, &st0);
    size_t held = (size_t)(st0.capacity / 8 * limit_quarters);
    size_t n = (size_t)st0.capacity / 2 + 1;                    /* held + n is over it: a count */
    uint64_t *keys = malloc((held + n) * sizeof *keys);
    ht_unique_keys(t, rng, keys, held + n, NULL);
    ht_batch b;
    ht_batch_init(&b, t, held + n + COUNT_SKEW);
    ct_fill(t, &b, keys, held, rng);
    HT_MUST(hive_insert(table, held, b.keys, b.values, HIVE_COMBINE_ASSIGN, NULL, b.stream));
    size_t inserts = 0;
    for (size_t i = 0; i < n; i++) {
        ht_put(t, b.keys, COUNT_SKEW + i, keys[held + i]);
        ht_put(t, b.values, COUNT_SKEW + i, ht_random_value(t, rng));
        b.ops[COUNT_SKEW + i] = insert_at(i, n) ? HIVE_OP_INSERT : HIVE_OP_FIND;
        inserts += b.ops[COUNT_SKEW + i] == HIVE_OP_INSERT;
    }
    ht_batch_poison_flags(&b);
    HT_CHECK_STATUS(hive_apply(table, n, b.ops + COUNT_SKEW, (char *)b.keys + COUNT_SKEW * t->kv_bytes,
                               (char *)b.values + COUNT_SKEW * t->kv_bytes, HIVE_COMBINE_KEEP,
                               b.results + COUNT_SKEW, b.stream),
                    HIVE_SUCCESS, "%s: apply of %zu elements, %zu inserts, into %zu keys", where, n, inserts,
                    held);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += b.results[COUNT_SKEW + i] !=
               (b.ops[COUNT_SKEW + i] == HIVE_OP_INSERT ? HIVE_RESULT_INSERTED : HIVE_RESULT_NOT_FOUND);
    HT_CHECK_EQ(bad, 0, "%s: results other than INSERTED for the inserts, NOT_FOUND for the finds", where);
    HT_MUST(hive_stats_get(table, &st1));
    HT_CHECK_EQ(st1.size, held + inserts, "%s: size", where);
    HT_CHECK_EQ(st1.grows > st0.grows, expect_growth,
                "%s: %zu keys held and %zu inserted with room for %llu (grows %llu -> %llu)", where, held,
                inserts, (unsigned long long)(st0.capacity / 2), (unsigned long long)st0.grows,
                (unsigned long long)st1.grows);
    ht_batch_free(&b);
    free(keys);
    ht_close(table);
}

static int every_other(size_t i, size_t n) { (void)n; return i % 2 == 1; }
static int first_only(size_t i, size_t n) { (void)n; return i == 0; }
static int middle_only(size_t i, size_t n) { return i == n / 2; }
static int last_only(size_t i, size_t n) { return i == n - 1; }

static void insert_count(const ht_target *t, const ct_param *p)
{
    ht_rng rng;
    ht_rng_seed(&rng, p->seed * 1000 + 5);
    /* Half the limit held, half inserted: exactly at the limit, no growth. */
    count_case(t, p, &rng, 2, every_other, 0, "inserts up to the limit");
    /* The limit held: one insert anywhere in the batch is one too many. */
    count_case(t, p, &rng, 4, first_only, 1, "one insert, first");
    count_case(t, p, &rng, 4, middle_only, 1, "one insert, in the middle");
    count_case(t, p, &rng, 4, last_only, 1, "one insert, last");
}

/* Churn at the limit: a table at max_load_factor 0.5 holding exactly its
 * limit, and one batch of `erases` erases of held keys, `inserts` inserts of
 * new keys and as many finds of keys that stay, interleaved.  The size after
 * the batch decides growth: none while the erases make room for the inserts,
 * growth for one insert more.  Checks every result, the size, and every key
 * held before and inserted by a find afterwards. */
static void churn_case(const ht_target *t, const ct_param *p, ht_rng *rng, size_t extra, int expect_growth,
                       uint64_t capacity, int grouped)
{
    hive_stats st0, st1;
    hive_table *table = open_at_half(t, p, "apply (churn)", capacity, &st0);
    size_t held = (size_t)(st0.capacity / 2), erases = held / 8, inserts = erases + extra;
    size_t n = erases + inserts + erases;
    uint64_t *keys = malloc((held + inserts) * sizeof *keys);
    ht_unique_keys(t, rng, keys, held + inserts, NULL);
    ht_batch b;
    ht_batch_init(&b, t, held + inserts > n ? held + inserts : n);
    ct_fill(t, &b, keys, held, rng);
    HT_MUST(hive_insert(table, held, b.keys, b.values, HIVE_COMBINE_ASSIGN, NULL, b.stream));
    uint64_t *held_values = malloc(held * sizeof *held_values);
    for (size_t i = 0; i < held; i++)
        held_values[i] = ht_get(t, b.values, i);
    /* Interleaved, element 3j erases held key j, 3j+1 inserts new key j,
     * 3j+2 finds held key erases + j, which stays, and the extra inserts
     * come last; grouped, the erases come first, then the inserts, then the
     * finds (the threads of a CPU table then count chunks of erases alone:
     * their sum, not each chunk, is clamped at 0). */
    for (size_t j = 0; j < inserts; j++) {
        size_t at = grouped ? erases + j : j < erases ? 3 * j + 1 : 3 * erases + (j - erases);
        b.ops[at] = HIVE_OP_INSERT;
        ht_put(t, b.values, at, ht_random_value(t, rng));
        ht_put(t, b.keys, at, keys[held + j]);
    }
    for (size_t j = 0; j < erases; j++) {
        size_t at = grouped ? j : 3 * j;
        b.ops[at] = HIVE_OP_ERASE;
        ht_put(t, b.keys, at, keys[j]);
        at = grouped ? erases + inserts + j : 3 * j + 2;
        b.ops[at] = HIVE_OP_FIND;
        ht_put(t, b.keys, at, keys[erases + j]);
    }
    uint64_t *new_values = malloc(inserts * sizeof *new_values);
    for (size_t i = 0, j = 0; i < n; i++)
        if (b.ops[i] == HIVE_OP_INSERT)
            new_values[j++] = ht_get(t, b.values, i);
    ht_batch_poison_flags(&b);
    HT_CHECK_STATUS(hive_apply(table, n, b.ops, b.keys, b.values, HIVE_COMBINE_KEEP, b.results, b.stream),
                    HIVE_SUCCESS, "churn: apply of %zu erases and %zu inserts into %zu keys", erases, inserts,
                    held);
    size_t bad = 0;
    for (size_t i = 0, j = 0; i < n; i++) {
        int op = b.ops[i];
        bad += b.results[i] != (op == HIVE_OP_ERASE    ? HIVE_RESULT_ERASED
                                : op == HIVE_OP_INSERT ? HIVE_RESULT_INSERTED
                                                       : HIVE_RESULT_FOUND);
        if (op == HIVE_OP_FIND)
            bad += ht_get(t, b.values, i) != held_values[erases + j++];
    }
    HT_CHECK_EQ(bad, 0, "churn: results (ERASED, INSERTED, FOUND with the held value)");
    HT_MUST(hive_stats_get(table, &st1));
    HT_CHECK_EQ(st1.size, held + extra, "churn: size");
    HT_CHECK_EQ(st1.grows > st0.grows, expect_growth,
                "churn: %zu keys held at the limit, %zu erased and %zu inserted (capacity %llu -> %llu)", held,
                erases, inserts, (unsigned long long)st0.capacity, (unsigned long long)st1.capacity);
    /* Every key afterwards: erased ones absent, the others with their values. */
    for (size_t i = 0; i < held + inserts; i++)
        ht_put(t, b.keys, i, keys[i]);
    HT_MUST(hive_find(table, held + inserts, b.keys, b.values, b.found, b.stream));
    bad = 0;
    for (size_t i = 0; i < held + inserts; i++) {
        int want = i >= erases;
        uint64_t value = i < held ? held_values[i] : new_values[i - held];
        bad += b.found[i] != want || (want && ht_get(t, b.values, i) != value);
    }
    HT_CHECK_EQ(bad, 0, "churn: keys found afterwards (erased absent, the rest with their values)");
    free(new_values);
    free(held_values);
    ht_batch_free(&b);
    free(keys);
    ht_close(table);
}

static void churn_count(const ht_target *t, const ct_param *p)
{
    ht_rng rng;
    ht_rng_seed(&rng, p->seed * 1000 + 6);
    churn_case(t, p, &rng, 0, 0, 8192, 0);
    churn_case(t, p, &rng, 1, 1, 8192, 0);
    /* Batches of about 40,000 elements, which a CPU table's threads split */
    churn_case(t, p, &rng, 0, 0, 1u << 18, 1);
    churn_case(t, p, &rng, 1, 1, 1u << 18, 1);
}

void ct_suite_apply(const ht_target *t)
{
    for (size_t i = 0; i < ct_param_count; i++)
        one_param(t, &ct_params[i]);
    insert_count(t, &ct_params[0]);
    churn_count(t, &ct_params[0]);
}
