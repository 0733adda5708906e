/* placement.c — each design's placement under crowding, one key a call,
 * with every key checked against the reference after every call:
 *
 *   hive-placement <cpu|cuda> <kv32|kv64> [--design NAME]
 *
 * Keys are aimed with the public hash functions (tests/support/aim.c) at the
 * buckets a design chooses between: first all at one bucket (the two of p2
 * and the Hive design, the front yard of the iceberg, the three of the
 * cuckoo and the double design's probes: every probe where ht_aim_tight
 * says so, else probe 0), three buckets' worth of them, so that the bucket
 * fills, the design's other choices take what they can (p2's second bucket,
 * the iceberg's back yard, the probes a KV32 key could not aim) and the
 * stash the rest; then keys aimed at a run of four buckets, one and a half
 * times what they hold, so that the placement choice between buckets of the
 * run, and the cuckoo design's walks through it, have work to do.  After
 * each insert every key so far is found with its value and the next keys
 * are not.  Then the table is grown eight times (a resize crossed: splits,
 * the reflow, the stash drained into its buckets), checked, half the keys
 * erased one a call with the same checks, and the rest checked again.
 * Where every probe was aimed, the first phase must have stashed and, for
 * the cuckoo design, the second must have evicted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aim.h"
#include "hivetest.h"

#define PL_BASE_BUCKETS 64 /* the table's buckets at creation */
#define PL_RUN 4           /* buckets of the second phase's run */
#define PL_ABSENT 8        /* keys not yet inserted, checked absent after each call */

static ht_target target;

typedef struct placement {
    hive_table *table;
    hive_config config;
    ht_ref ref;
    ht_batch one;     /* a one-key call */
    ht_batch scratch; /* the checks' */
    uint64_t *keys;   /* every key the test inserts, in order */
    size_t n, done;
} placement;

/* Every key inserted so far is found with its value, and the next
 * PL_ABSENT keys (aimed as the last phase's, never inserted past the end)
 * are not. */
static void check_all(placement *p, const char *where)
{
    ht_expect_finds(&target, p->table, &p->ref, &p->scratch, where);
    ht_expect_absent(&target, p->table, p->keys + p->done, PL_ABSENT, &p->scratch, where);
}

static void insert_next(placement *p, ht_rng *rng, const char *phase)
{
    p->one.n = 1;
    ht_put(&target, p->one.keys, 0, p->keys[p->done]);
    ht_put(&target, p->one.values, 0, ht_random_value(&target, rng));
    ht_run_unique(&target, p->table, &p->ref, &p->one, HT_CALL_INSERT, HIVE_COMBINE_ASSIGN,
                  HT_PASS_ALL, 1, phase);
    p->done++;
    check_all(p, phase);
}

static void erase_key(placement *p, uint64_t key)
{
    p->one.n = 1;
    ht_put(&target, p->one.keys, 0, key);
    ht_run_unique(&target, p->table, &p->ref, &p->one, HT_CALL_ERASE, HIVE_COMBINE_ASSIGN,
                  HT_PASS_ALL, 1, "erase half");
    ht_expect_finds(&target, p->table, &p->ref, &p->scratch, "erase half");
}

int main(int argc, char **argv)
{
    static char name[96];
    const char *usage = "<cpu|cuda> <kv32|kv64> [--design NAME]";
    hive_design design = ht_take_design(&argc, argv, usage);
    ht_target_from_args(&target, argc, argv, 1, usage);
    ht_target_set_design(&target, design);
    snprintf(name, sizeof name, "placement %s %s %s", target.backend_name, target.width_name,
             target.design_name);
    ht_begin(name);
    ht_require_backend(&target);

    placement p;
    memset(&p, 0, sizeof p);
    p.config = ht_config(&target);
    p.config.min_load_factor = 0.0; /* the erases below must not shrink it */
    p.config.max_load_factor = 0.9;
    hive_stats st;
    {
        /* The slots per bucket, to size the table in buckets. */
        hive_table *probe = ht_open(&target, &p.config);
        HT_MUST(hive_stats_get(probe, &st));
        ht_close(probe);
    }
    const uint32_t S = st.bucket_slots;
    p.config.initial_capacity = (uint64_t)PL_BASE_BUCKETS * S;
    p.table = ht_open(&target, &p.config);
    HT_MUST(hive_stats_get(p.table, &st));
    const uint64_t base = st.buckets;
    ht_context("%s: %llu buckets of %u slots", name, (unsigned long long)base, S);

    const size_t n1 = 3 * (size_t)S, n2 = PL_RUN * (size_t)S * 3 / 2;
    p.n = n1 + n2;
    p.keys = calloc(p.n + PL_ABSENT, sizeof *p.keys);
    if (p.keys == NULL)
        ht_fatal("out of host memory");
    ht_rng rng;
    ht_rng_seed(&rng, 77);
    ht_ref taken;
    ht_ref_init(&taken);
    const uint64_t seed = ht_hash_seed(p.table); /* the keys crowd this table's buckets */
    ht_aimed_keys(&target, seed, &rng, base, base / 4, 1, p.keys, n1, &taken);
    ht_aimed_keys(&target, seed, &rng, base, base / 2, PL_RUN, p.keys + n1, n2 + PL_ABSENT, &taken);
    ht_ref_free(&taken);
    ht_ref_init(&p.ref);
    ht_batch_init(&p.one, &target, 1);
    ht_batch_init(&p.scratch, &target, p.n + PL_ABSENT);
    const int tight = ht_aim_tight(&target);

    while (p.done < n1)
        insert_next(&p, &rng, "one bucket's keys");
    HT_MUST(hive_stats_get(p.table, &st));
    /* Three buckets' worth of keys in one bucket: with every probe aimed,
     * the stash took some (and perhaps the table grew for the rest). */
    HT_CHECK(!tight || st.insert_steps[3] > 0,
             "%zu keys whose every probe names one bucket of %u slots, and none was stashed", n1, S);
    uint64_t evictions_before = st.evictions;

    while (p.done < n1 + n2)
        insert_next(&p, &rng, "a run's keys");
    HT_MUST(hive_stats_get(p.table, &st));
    HT_CHECK(design != HIVE_DESIGN_CUCKOO || !tight || st.evictions > evictions_before,
             "cuckoo: %zu keys aimed at %d buckets of %u slots, and no walk moved a pair", n2, PL_RUN,
             S);
    printf("  %zu + %zu aimed keys: %llu stashed, %llu evictions, %llu buckets now\n", n1, n2,
           (unsigned long long)st.insert_steps[3], (unsigned long long)st.evictions,
           (unsigned long long)st.buckets);

    HT_MUST(hive_reserve(p.table, 8 * st.capacity, NULL));
    check_all(&p, "after growing eight times");
    ht_expect_contents(&target, p.table, &p.ref, "after growing eight times");
    for (size_t i = 0; i < p.done; i += 2)
        erase_key(&p, p.keys[i]);
    ht_expect_contents(&target, p.table, &p.ref, "after erasing half");
    ht_expect_stats(&target, p.table, &p.config, &st, "at the end");

    ht_batch_free(&p.one);
    ht_batch_free(&p.scratch);
    ht_ref_free(&p.ref);
    free(p.keys);
    ht_close(p.table);
    return ht_finish();
}
