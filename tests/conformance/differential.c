/* differential.c — hive against the reference map (support/refmap.c), driven
 * by the same seeded stream of random batches:
 *
 *   hive-differential <cpu|cuda> <kv32|kv64> [--ops N] [--seed S] [--config I] [--cycles C]
 *                     [--geometry SxT] [--design NAME]
 *
 * Batches mix find, contains, insert (every combine mode), erase and apply
 * (mixed op codes), 1..50,000 keys each (log-uniform sizes), drawn from a
 * pool of keys so that hits and misses both happen.  The live fraction of the
 * pool swings between 10% and 75%, so each table crosses its growth and (when
 * min_load_factor > 0) shrink thresholds again and again: each configuration
 * runs for its share of the operations and at least C (default 3) fill-drain
 * cycles.  Keys are distinct
 * within a batch (hive applies repeated keys in an unspecified order), except
 * in ADD-only batches, where the order does not change the sum.
 *
 * Every per-key result, found flag and value is compared, the size after
 * every batch, the whole contents (export) every 25 batches and at the end.
 * On the first mismatching batch of a configuration the run prints the seed,
 * configuration and batch number (repeat it with --seed S --config I) and
 * goes on with the next configuration. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hivetest.h"

typedef struct df_config {
    uint64_t initial_capacity;
    double max_load_factor, min_load_factor;
    size_t pool;      /* keys drawn from */
    size_t max_batch; /* largest batch */
    uint32_t bucket_slots; /* 0: the backend's default */
    uint32_t max_evictions;
    double stash_fraction;
} df_config;

static const df_config configs[] = {
    {1024, 0.90, 0.25, 60000, 50000, 0, 8, 0.01},    /* defaults */
    {64, 0.50, 0.20, 20000, 5000, 0, 8, 0.01},       /* tiny start, resizes all the time */
    {4096, 0.85, 0.40, 120000, 50000, 0, 8, 0.01},   /* eager shrinking */
    {100000, 0.80, 0.00, 120000, 50000, 0, 8, 0.01}, /* starts big, never shrinks */
    {1024, 0.90, 0.45, 40000, 20000, 0, 8, 0.01},    /* shrinks as soon as it may */
    {1024, 0.85, 0.25, 40000, 20000, 0, 0, 0.25},    /* no cuckoo moves: the stash works */
    {1024, 0.90, 0.25, 40000, 20000, 32, 2, 0.05},   /* 32-slot buckets, short chains */
};
#define CONFIGS (sizeof configs / sizeof configs[0])

enum kind { K_FIND, K_CONTAINS, K_INSERT, K_INSERT_ADD_REPEATED, K_APPLY_ADD_REPEATED, K_ERASE,
            K_APPLY, KINDS };
static const char *kind_name[KINDS] = {"find", "contains", "insert", "insert ADD repeated",
                                       "apply ADD repeated", "erase", "apply mixed"};
/* Weights while filling the pool and while draining it. */
static const unsigned fill_weights[KINDS] = {15, 5, 35, 5, 5, 5, 30};
static const unsigned drain_weights[KINDS] = {15, 5, 2, 1, 1, 50, 26};

static enum kind pick_kind(ht_rng *rng, const unsigned *w)
{
    unsigned total = 0;
    for (int k = 0; k < KINDS; k++)
        total += w[k];
    unsigned x = (unsigned)ht_rng_below(rng, total);
    int k = 0;
    while (x >= w[k])
        x -= w[k++];
    return (enum kind)k;
}

typedef struct df_run {
    const ht_target *t;
    ht_rng rng;
    uint64_t *pool;
    size_t *perm; /* a permutation of pool indices; its prefix is shuffled per batch */
    size_t pool_n;
} df_run;

/* n distinct pool keys into b (partial Fisher-Yates over perm). */
static void draw_distinct(df_run *r, ht_batch *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t j = i + (size_t)ht_rng_below(&r->rng, r->pool_n - i);
        size_t x = r->perm[i];
        r->perm[i] = r->perm[j];
        r->perm[j] = x;
        ht_put(r->t, b->keys, i, r->pool[r->perm[i]]);
        ht_put(r->t, b->values, i, ht_random_value(r->t, &r->rng));
    }
    b->n = n;
}

/* n pool keys with repeats: a few hot keys, the rest uniform. */
static void draw_repeated(df_run *r, ht_batch *b, size_t n)
{
    size_t hot = 1 + (size_t)ht_rng_below(&r->rng, 64);
    for (size_t i = 0; i < n; i++) {
        size_t idx = ht_rng_chance(&r->rng, 0.3) ? (size_t)ht_rng_below(&r->rng, hot)
                                                 : (size_t)ht_rng_below(&r->rng, r->pool_n);
        ht_put(r->t, b->keys, i, r->pool[idx]);
        ht_put(r->t, b->values, i, ht_random_value(r->t, &r->rng));
    }
    b->n = n;
}

/* Runs one configuration for about `budget` key operations; returns the ops done. */
static unsigned min_cycles = 3;
/* --geometry SxT: every table gets S slots per bucket and T lanes per key,
 * the configurations' own bucket_slots included; 0 x 0 leaves them be. */
static uint32_t geometry_slots, geometry_lanes;

static uint64_t run_config(const ht_target *t, unsigned ci, uint64_t base_seed, uint64_t budget)
{
    const df_config *dc = &configs[ci];
    const uint64_t seed = base_seed * 1000 + ci;
    df_run r;
    r.t = t;
    ht_rng_seed(&r.rng, seed);
    r.pool_n = dc->pool;
    r.pool = malloc(r.pool_n * sizeof *r.pool);
    r.perm = malloc(r.pool_n * sizeof *r.perm);
    ht_unique_keys(t, &r.rng, r.pool, r.pool_n, NULL);
    for (size_t i = 0; i < r.pool_n; i++)
        r.perm[i] = i;

    hive_config c = ht_config(t);
    c.initial_capacity = dc->initial_capacity;
    c.max_load_factor = dc->max_load_factor;
    c.min_load_factor = dc->min_load_factor;
    c.bucket_slots = dc->bucket_slots;
    if (geometry_slots != 0) {
        c.bucket_slots = geometry_slots;
        c.lanes_per_op = geometry_lanes;
    }
    c.max_evictions = dc->max_evictions;
    c.stash_fraction = dc->stash_fraction;
    ht_context("differential %s %s %s: seed %llu, config %u, opening", t->backend_name,
               t->width_name, t->design_name, (unsigned long long)seed, ci);
    hive_table *table = ht_open(t, &c);
    hive_config resolved; /* the geometry the table got */
    HT_MUST(hive_get_config(table, &resolved));
    ht_ref ref;
    ht_ref_init(&ref);
    ht_batch b;
    ht_batch_init(&b, t, dc->max_batch);

    uint64_t ops = 0, batches = 0, failed = 0, cycles = 0, stash_peak = 0;
    int draining = 0;
    char where[160];
    /* At least the budget and min_cycles fill-drain cycles (growth, then shrinking). */
    while ((ops < budget || cycles < min_cycles) && batches < 100000 && !failed) {
        size_t live = ht_ref_size(&ref);
        if (!draining && live > r.pool_n * 3 / 4) {
            draining = 1;
        } else if (draining && live < r.pool_n / 10) {
            draining = 0;
            cycles++;
        }
        enum kind k = pick_kind(&r.rng, draining ? drain_weights : fill_weights);
        size_t cap = dc->max_batch < r.pool_n ? dc->max_batch : r.pool_n;
        size_t n = (size_t)ht_rng_log_size(&r.rng, cap);
        hive_combine mode = (hive_combine)ht_rng_below(&r.rng, 5);
        ht_context("differential %s %s: seed %llu, config %u, batch %llu (%s of %zu keys, %s)",
                   t->backend_name, t->width_name, (unsigned long long)seed, ci,
                   (unsigned long long)batches, kind_name[k], n,
                   draining ? "draining" : "filling");
        snprintf(where, sizeof where, "batch %llu", (unsigned long long)batches);
        switch (k) {
        case K_FIND: {
            static const unsigned forms[3] = {HT_PASS_ALL, HT_PASS_VALUES, HT_PASS_FOUND};
            draw_distinct(&r, &b, n);
            failed = ht_run_unique(t, table, &ref, &b, HT_CALL_FIND, HIVE_COMBINE_KEEP,
                                   forms[ht_rng_below(&r.rng, 3)], 1, where);
            break;
        }
        case K_CONTAINS:
            draw_distinct(&r, &b, n);
            failed = ht_run_unique(t, table, &ref, &b, HT_CALL_CONTAINS, HIVE_COMBINE_KEEP,
                                   HT_PASS_ALL, 1, where);
            break;
        case K_INSERT:
            draw_distinct(&r, &b, n);
            failed = ht_run_unique(t, table, &ref, &b, HT_CALL_INSERT, mode,
                                   ht_rng_chance(&r.rng, 0.9) ? HT_PASS_ALL : 0, 1, where);
            break;
        case K_INSERT_ADD_REPEATED:
        case K_APPLY_ADD_REPEATED:
            draw_repeated(&r, &b, n);
            failed = ht_run_repeated(t, table, &ref, &b, HIVE_COMBINE_ADD,
                                     k == K_APPLY_ADD_REPEATED, 1, where);
            break;
        case K_ERASE:
            draw_distinct(&r, &b, n);
            failed = ht_run_unique(t, table, &ref, &b, HT_CALL_ERASE, HIVE_COMBINE_KEEP,
                                   ht_rng_chance(&r.rng, 0.9) ? HT_PASS_ALL : 0, 1, where);
            break;
        case K_APPLY: {
            /* Filling: mostly inserts; draining: mostly erases. */
            const unsigned fill_ops[4] = {30, 25, 40, 5}, drain_ops[4] = {30, 3, 2, 65};
            const unsigned *w = draining ? drain_ops : fill_ops;
            draw_distinct(&r, &b, n);
            for (size_t i = 0; i < n; i++) {
                unsigned x = (unsigned)ht_rng_below(&r.rng, 100), op = 0;
                while (x >= w[op])
                    x -= w[op++];
                b.ops[i] = (uint8_t)op;
            }
            failed = ht_run_unique(t, table, &ref, &b, HT_CALL_APPLY, mode,
                                   ht_rng_chance(&r.rng, 0.9) ? HT_PASS_ALL : 0, 1, where);
            break;
        }
        default: break;
        }
        ops += n;
        batches++;
        if (!failed && batches % 25 == 0) {
            uint64_t before = ht_failure_count();
            ht_expect_contents(t, table, &ref, where);
            hive_stats st;
            ht_expect_stats(t, table, &c, &st, where);
            if (st.stash_size > stash_peak)
                stash_peak = st.stash_size;
            failed = ht_failure_count() - before;
        }
    }

    hive_stats st;
    memset(&st, 0, sizeof st);
    if (!failed) {
        ht_context("differential %s %s: seed %llu, config %u, end after %llu batches",
                   t->backend_name, t->width_name, (unsigned long long)seed, ci,
                   (unsigned long long)batches);
        ht_expect_contents(t, table, &ref, "end");
        ht_expect_stats(t, table, &c, &st, "end");
        /* The stream must have exercised what it is meant to. */
        HT_CHECK(st.grows > 0, "config %u: the table never grew", ci);
        HT_CHECK(c.min_load_factor == 0 || st.shrinks > 0, "config %u: the table never shrank", ci);
        HT_CHECK(c.min_load_factor > 0 || st.shrinks == 0,
                 "config %u: min_load_factor 0 but %llu shrinks", ci,
                 (unsigned long long)st.shrinks);
    } else {
        fprintf(stderr,
                "differential %s %s: config %u FAILED at batch %llu; repeat with: "
                "hive-differential %s %s --seed %llu --config %u --geometry %ux%u\n",
                t->backend_name, t->width_name, ci, (unsigned long long)(batches - 1),
                t->backend_name, t->width_name, (unsigned long long)base_seed, ci,
                resolved.bucket_slots, resolved.lanes_per_op);
    }
    printf("  config %u (initial %llu, load %.2f..%.2f, pool %zu, geometry %ux%u): seed %llu, "
           "%llu batches, %llu ops, %llu fill-drain cycles, %llu grows, %llu shrinks, "
           "%llu evictions, stash peak %llu%s\n",
           ci, (unsigned long long)dc->initial_capacity, dc->min_load_factor,
           dc->max_load_factor, dc->pool, resolved.bucket_slots, resolved.lanes_per_op,
           (unsigned long long)seed, (unsigned long long)batches,
           (unsigned long long)ops, (unsigned long long)cycles, (unsigned long long)st.grows, (unsigned long long)st.shrinks,
           (unsigned long long)st.evictions, (unsigned long long)stash_peak,
           failed ? " FAILED" : "");
    ht_batch_free(&b);
    ht_ref_free(&ref);
    ht_close(table);
    free(r.pool);
    free(r.perm);
    return ops;
}

int main(int argc, char **argv)
{
    static char name[96];
    const char *usage = "<cpu|cuda> <kv32|kv64> [--ops N] [--seed S] [--config I] [--cycles C] "
                        "[--geometry SxT] [--design NAME]";
    hive_design design = ht_take_design(&argc, argv, usage);
    if (argc < 3) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        return HT_EXIT_FAIL;
    }
    ht_target t;
    ht_target_from_args(&t, argc, argv, 1, usage);
    ht_target_set_design(&t, design);
    uint64_t total = 1000000, seed = 1;
    int only = -1, args_ok = 1;
    for (int a = 3; a + 1 < argc; a += 2) {
        if (strcmp(argv[a], "--ops") == 0)
            total = strtoull(argv[a + 1], NULL, 10);
        else if (strcmp(argv[a], "--seed") == 0)
            seed = strtoull(argv[a + 1], NULL, 10);
        else if (strcmp(argv[a], "--config") == 0)
            only = atoi(argv[a + 1]);
        else if (strcmp(argv[a], "--cycles") == 0)
            min_cycles = (unsigned)atoi(argv[a + 1]);
        else if (strcmp(argv[a], "--geometry") == 0)
            args_ok = ht_parse_geometry(argv[a + 1], &geometry_slots, &geometry_lanes);
        else
            args_ok = 0;
        if (!args_ok) {
            fprintf(stderr, "usage: %s %s\n", argv[0], usage);
            return HT_EXIT_FAIL;
        }
    }
    snprintf(name, sizeof name, "differential %s %s", t.backend_name, t.width_name);
    if (design != HIVE_DESIGN_HIVE) {
        size_t len = strlen(name);
        snprintf(name + len, sizeof name - len, " %s", t.design_name);
    }
    if (geometry_slots != 0) {
        size_t len = strlen(name);
        snprintf(name + len, sizeof name - len, " %ux%u", geometry_slots, geometry_lanes);
    }
    ht_begin(name);
    ht_require_backend(&t);
    printf("differential %s %s %s: %llu key operations over %s, base seed %llu\n", t.backend_name,
           t.width_name, t.design_name, (unsigned long long)total,
           only >= 0 ? "one configuration" : "every configuration", (unsigned long long)seed);
    uint64_t done = 0;
    for (unsigned ci = 0; ci < CONFIGS; ci++) {
        if (only >= 0 && (unsigned)only != ci)
            continue;
        uint64_t budget = only >= 0 ? total : total / CONFIGS;
        /* The configuration's seed is derived from the base seed, so a
         * failure repeats with --seed <base> --config <i>. */
        done += run_config(&t, ci, seed, budget);
    }
    printf("differential %s %s %s: %llu key operations compared\n", t.backend_name, t.width_name,
           t.design_name, (unsigned long long)done);
    return ht_finish();
}
