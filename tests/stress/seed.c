/* seed.c — the hash seed (hive_config.hash_seed) on any backend, width and
 * design:
 *
 *   hive-seed <cpu|cuda> <kv32|kv64> [--design NAME]
 *
 *   honoured    keys aimed (tests/support/aim.h) at 2 buckets of a 64-bucket
 *               table under seed A, two and a half buckets' worth, inserted
 *               one a call: a table with seed A overflows into its stash
 *               (every probe aimed: ht_aim_tight; a KV32 key of the double,
 *               iceberg or cuckoo design has only its first probe aimed, so
 *               its other probes take the overflow and only the half below
 *               is checked), and a table with seed B holds the same keys in
 *               its buckets: none stashed, none evicted.
 *   repeatable  the same explicit seed twice: hive_get_config reports it,
 *               and the same calls give the same results and the same
 *               stats (insert steps, evictions, stash, buckets).
 *   random      two tables of the default config report drawn seeds, which
 *               differ (the chance that two draws agree is 2^-64) and are
 *               not HIVE_HASH_SEED_RANDOM.
 *   findable    for seeds 0, A, B and a drawn one: the aimed keys and random
 *               ones inserted in calls that grow the table, then erased in
 *               calls that shrink it; after every call each result and the
 *               size match the reference map, and every key is found with
 *               its value (the splits, merges, reflows and stash moves of a
 *               resize must use the table's seeded hashes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aim.h"
#include "hivetest.h"

#define SD_BASE 64     /* the table's buckets at creation */
#define SD_BATCH 128   /* keys a call in the findable part */
#define SD_SEED_A 0x243F6A8885A308D3ull
#define SD_SEED_B 0x13198A2E03707344ull

static ht_target target;
static uint32_t S; /* slots per bucket */

/* A table of SD_BASE buckets with hash seed `seed`, checked to have them
 * and (unless drawn) to report the seed. */
static hive_table *open_seeded(uint64_t seed, double min_load_factor, hive_config *c)
{
    *c = ht_config(&target);
    c->initial_capacity = (uint64_t)SD_BASE * S;
    c->min_load_factor = min_load_factor;
    c->max_load_factor = 0.9;
    c->stash_fraction = 0.05; /* 3.2 buckets: room for the overflow of 2 crowded ones */
    c->hash_seed = seed;
    hive_table *table = ht_open(&target, c);
    hive_stats st;
    HT_MUST(hive_stats_get(table, &st));
    if (st.buckets != SD_BASE)
        ht_fatal("a table of %llu slots has %llu buckets, not %d", (unsigned long long)c->initial_capacity,
                 (unsigned long long)st.buckets, SD_BASE);
    uint64_t got = ht_hash_seed(table);
    if (seed == HIVE_HASH_SEED_RANDOM)
        HT_CHECK(got != HIVE_HASH_SEED_RANDOM, "a drawn seed is HIVE_HASH_SEED_RANDOM");
    else
        HT_CHECK_EQ(got, seed, "hive_get_config's hash_seed of a table created with seed %llx",
                    (unsigned long long)seed);
    return table;
}

/* keys[0..n) inserted one a call into a new table with seed `seed`, every
 * result checked and every key found after each call; *st: the stats at the
 * end. */
static void fill_one_a_call(uint64_t seed, const uint64_t *keys, size_t n, hive_stats *st)
{
    hive_config c;
    hive_table *table = open_seeded(seed, 0.0, &c);
    ht_ref ref;
    ht_ref_init(&ref);
    ht_batch one, scratch;
    ht_batch_init(&one, &target, 1);
    ht_batch_init(&scratch, &target, n);
    char where[64];
    for (size_t i = 0; i < n; i++) {
        snprintf(where, sizeof where, "seed %llx: insert %zu", (unsigned long long)seed, i);
        one.n = 1;
        ht_put(&target, one.keys, 0, keys[i]);
        ht_put(&target, one.values, 0, keys[i] ^ 0x5a5a5a5au);
        ht_run_unique(&target, table, &ref, &one, HT_CALL_INSERT, HIVE_COMBINE_ASSIGN, HT_PASS_ALL, 1,
                      where);
        ht_expect_finds(&target, table, &ref, &scratch, where);
    }
    ht_expect_stats(&target, table, &c, st, "after the one-a-call inserts");
    ht_batch_free(&one);
    ht_batch_free(&scratch);
    ht_ref_free(&ref);
    ht_close(table);
}

static void honoured_and_repeatable(const uint64_t *aimed, size_t n)
{
    const int tight = ht_aim_tight(&target);
    hive_stats a, again, b;
    fill_one_a_call(SD_SEED_A, aimed, n, &a);
    fill_one_a_call(SD_SEED_A, aimed, n, &again);
    fill_one_a_call(SD_SEED_B, aimed, n, &b);
    printf("  %zu keys aimed at 2 buckets of %u slots under seed A: %llu stashed, %llu evictions "
           "with seed A; %llu stashed, %llu evictions with seed B\n",
           n, S, (unsigned long long)a.insert_steps[3], (unsigned long long)a.evictions,
           (unsigned long long)b.insert_steps[3], (unsigned long long)b.evictions);
    if (tight) {
        /* Every probe of every key names one of the two buckets: at most
         * 2 S keys fit in them, the rest go to the stash (3.2 S slots). */
        HT_CHECK(a.insert_steps[3] >= n - 2 * (uint64_t)S,
                 "seed A: %zu keys whose probes all name 2 buckets of %u slots, %llu stashed", n, S,
                 (unsigned long long)a.insert_steps[3]);
        HT_CHECK(a.stash_size > 0, "seed A: the aimed keys left the stash empty");
    } else {
        printf("  (KV32 %s: only the first probe is aimed, the overflow check is left out)\n",
               target.design_name);
    }
    HT_CHECK_EQ(b.insert_steps[3], 0, "seed B: keys aimed under seed A stashed");
    HT_CHECK_EQ(b.stash_size, 0, "seed B: keys in the stash");
    HT_CHECK_EQ(b.evictions, 0, "seed B: keys aimed under seed A needed eviction");
    HT_CHECK_EQ(b.insert_steps[1], n, "seed B: inserts placed by a claim");
    HT_CHECK_EQ(b.grows, 0, "seed B: grows");

    /* The same seed, the same calls: the same placements. */
    for (int s = 0; s < 4; s++)
        HT_CHECK_EQ(again.insert_steps[s], a.insert_steps[s], "seed A twice: insert_steps[%d]", s);
    HT_CHECK_EQ(again.evictions, a.evictions, "seed A twice: evictions");
    HT_CHECK_EQ(again.stash_size, a.stash_size, "seed A twice: stash_size");
    HT_CHECK_EQ(again.stash_capacity, a.stash_capacity, "seed A twice: stash_capacity");
    HT_CHECK_EQ(again.buckets, a.buckets, "seed A twice: buckets");
    HT_CHECK_EQ(again.grows, a.grows, "seed A twice: grows");
}

static void random_seeds(void)
{
    const hive_config init = HIVE_CONFIG_INIT;
    HT_CHECK_EQ(init.hash_seed, HIVE_HASH_SEED_RANDOM, "HIVE_CONFIG_INIT's hash_seed");
    hive_config c = ht_config(&target); /* the tests' fixed seed, replaced by the default */
    c.hash_seed = init.hash_seed;
    hive_table *one = ht_open(&target, &c), *two = ht_open(&target, &c);
    uint64_t s1 = ht_hash_seed(one), s2 = ht_hash_seed(two);
    HT_CHECK(s1 != HIVE_HASH_SEED_RANDOM && s2 != HIVE_HASH_SEED_RANDOM,
             "a drawn seed is HIVE_HASH_SEED_RANDOM (%llx, %llx)", (unsigned long long)s1,
             (unsigned long long)s2);
    HT_CHECK(s1 != s2, "two tables of the default config drew the same seed %llx", (unsigned long long)s1);
    ht_close(one);
    ht_close(two);
}

/* The aimed keys and random ones up to twice the table's capacity, in calls
 * of SD_BATCH keys, then erased in such calls down to a sixteenth. */
static void findable(uint64_t seed, const uint64_t *aimed, size_t n_aimed, ht_rng *rng)
{
    hive_config c;
    hive_table *table = open_seeded(seed, 0.2, &c);
    const size_t n = 2 * (size_t)SD_BASE * S;
    uint64_t *keys = malloc(n * sizeof *keys);
    if (keys == NULL)
        ht_fatal("out of host memory");
    ht_ref taken;
    ht_ref_init(&taken);
    for (size_t i = 0; i < n_aimed; i++)
        ht_ref_put(&taken, aimed[i], 0);
    memcpy(keys, aimed, n_aimed * sizeof *keys);
    ht_unique_keys(&target, rng, keys + n_aimed, n - n_aimed, &taken);
    ht_ref_free(&taken);

    ht_ref ref;
    ht_ref_init(&ref);
    ht_batch b, scratch;
    ht_batch_init(&b, &target, SD_BATCH);
    ht_batch_init(&scratch, &target, SD_BATCH);
    char where[80];
    for (size_t at = 0; at < n; at += SD_BATCH) {
        snprintf(where, sizeof where, "seed %llx: insert call at key %zu", (unsigned long long)seed, at);
        b.n = n - at < SD_BATCH ? n - at : SD_BATCH;
        for (size_t i = 0; i < b.n; i++) {
            ht_put(&target, b.keys, i, keys[at + i]);
            ht_put(&target, b.values, i, ht_random_value(&target, rng));
        }
        ht_run_unique(&target, table, &ref, &b, HT_CALL_INSERT, HIVE_COMBINE_ASSIGN, HT_PASS_ALL, 1, where);
        ht_expect_finds(&target, table, &ref, &scratch, where);
    }
    ht_shuffle(rng, keys, n);
    for (size_t at = 0; at + n / 16 < n; at += SD_BATCH) {
        snprintf(where, sizeof where, "seed %llx: erase call at key %zu", (unsigned long long)seed, at);
        b.n = n - n / 16 - at < SD_BATCH ? n - n / 16 - at : SD_BATCH;
        for (size_t i = 0; i < b.n; i++)
            ht_put(&target, b.keys, i, keys[at + i]);
        ht_run_unique(&target, table, &ref, &b, HT_CALL_ERASE, HIVE_COMBINE_ASSIGN, HT_PASS_ALL, 1, where);
        ht_expect_finds(&target, table, &ref, &scratch, where);
        ht_expect_absent(&target, table, keys + at, b.n, &scratch, where);
    }
    hive_stats st;
    ht_expect_contents(&target, table, &ref, "at the end");
    ht_expect_stats(&target, table, &c, &st, "at the end");
    printf("  seed %llx: %zu keys, %llu grows, %llu shrinks, %llu stashed\n",
           (unsigned long long)ht_hash_seed(table), n, (unsigned long long)st.grows,
           (unsigned long long)st.shrinks, (unsigned long long)st.insert_steps[3]);
    HT_CHECK(st.grows > 0 && st.shrinks > 0, "seed %llx: %llu grows and %llu shrinks, wanted both",
             (unsigned long long)seed, (unsigned long long)st.grows, (unsigned long long)st.shrinks);
    ht_batch_free(&b);
    ht_batch_free(&scratch);
    ht_ref_free(&ref);
    free(keys);
    ht_close(table);
}

int main(int argc, char **argv)
{
    static char name[96];
    const char *usage = "<cpu|cuda> <kv32|kv64> [--design NAME]";
    hive_design design = ht_take_design(&argc, argv, usage);
    ht_target_from_args(&target, argc, argv, 1, usage);
    ht_target_set_design(&target, design);
    snprintf(name, sizeof name, "seed %s %s %s", target.backend_name, target.width_name,
             target.design_name);
    ht_begin(name);
    ht_require_backend(&target);
    {
        hive_config c = ht_config(&target);
        hive_table *probe = ht_open(&target, &c);
        HT_MUST(hive_get_config(probe, &c));
        S = c.bucket_slots;
        ht_close(probe);
    }

    /* Two and a half buckets' worth of keys, every probe in base buckets
     * [SD_BASE / 2, SD_BASE / 2 + 2) under seed A. */
    const size_t n_aimed = 5 * (size_t)S / 2;
    uint64_t *aimed = malloc(n_aimed * sizeof *aimed);
    if (aimed == NULL)
        ht_fatal("out of host memory");
    ht_rng rng;
    ht_rng_seed(&rng, 2718);
    ht_ref taken;
    ht_ref_init(&taken);
    ht_aimed_keys(&target, SD_SEED_A, &rng, SD_BASE, SD_BASE / 2, 2, aimed, n_aimed, &taken);
    ht_ref_free(&taken);

    ht_context("%s: honoured, repeatable", name);
    honoured_and_repeatable(aimed, n_aimed);
    ht_context("%s: random", name);
    random_seeds();
    const uint64_t seeds[4] = {0, SD_SEED_A, SD_SEED_B, HIVE_HASH_SEED_RANDOM};
    for (int s = 0; s < 4; s++) {
        ht_context("%s: findable, seed %llx", name, (unsigned long long)seeds[s]);
        findable(seeds[s], aimed, n_aimed, &rng);
    }
    free(aimed);
    return ht_finish();
}
