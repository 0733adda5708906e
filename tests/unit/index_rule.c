/* index_rule.c — the linear-hashing index rule (src/core/index.h) and the
 * order of its splits and merges (src/core/resize_plan.h), as pure
 * functions, on random hashes, for bases of every kind (1, a power of two,
 * odd, a table created for 2^26 keys at load 0.9):
 *
 *   range     every hash names a bucket below the bucket count;
 *   split     a split step moves hashes only from a split bucket to its
 *             partner (base * 2^m higher), as hive_bucket_masked with one
 *             more bit says; every other hash keeps its bucket;
 *   merge     merging back restores every hash's bucket of before the
 *             splits, step for step, down to the base and no further;
 *   balance   a table at a round boundary spreads hashes evenly over its
 *             buckets, and one part way through a round gives its buckets
 *             not yet split twice the hashes of the split ones.
 *
 * Resizing moves pairs by exactly these rules (resize_body.h), so a wrong
 * rule here would lose keys there; the resize and differential tests see
 * that only through whole tables.
 *
 *   hive-index-rule */
#include <stdio.h>

#include "core/resize_plan.h"
#include "hivetest.h"

#define SAMPLES 200000

static const uint64_t bases[] = {1, 3, 256, 1000, 18641351, 1ull << 24};

static void check_range(hive_index ix, ht_rng *rng)
{
    uint64_t buckets = hive_index_buckets(ix), out = 0;
    for (int i = 0; i < SAMPLES; i++)
        out += hive_bucket_of(ix, (uint32_t)ht_rng_next(rng)) >= buckets;
    HT_CHECK_EQ(out, 0, "hashes naming a bucket past %llu", (unsigned long long)buckets);
}

/* One split step from ix toward `target`: checks where every sampled hash
 * goes, returns the index after it. */
static hive_index check_split(hive_index ix, uint64_t target, ht_rng *rng)
{
    hive_resize_step step;
    HT_CHECK(hive_next_split(ix, target, &step), "no split step from %llu buckets toward %llu",
             (unsigned long long)hive_index_buckets(ix), (unsigned long long)target);
    uint64_t end = step.first + step.count, partner = hive_index_round(step.before);
    uint64_t wide = (step.before.low_mask << 1) | 1;
    hive_index after = hive_after_split(&step, end);
    HT_CHECK_EQ(hive_index_buckets(after), hive_index_buckets(ix) + step.count, "buckets after a split step");
    uint64_t wrong = 0, moved = 0;
    for (int i = 0; i < SAMPLES; i++) {
        uint32_t h = (uint32_t)ht_rng_next(rng);
        uint64_t b = hive_bucket_of(step.before, h), a = hive_bucket_of(after, h);
        if (b >= step.first && b < end) {
            wrong += a != hive_bucket_masked(step.before, h, wide) || (a != b && a != b + partner);
            moved += a != b;
        } else {
            wrong += a != b;
        }
    }
    HT_CHECK_EQ(wrong, 0, "hashes misplaced by splitting [%llu, %llu)", (unsigned long long)step.first,
                (unsigned long long)end);
    HT_CHECK(step.count == 0 || moved > 0 || step.count * 50 < hive_index_buckets(ix),
             "splitting %llu of %llu buckets moved no sampled hash", (unsigned long long)step.count,
             (unsigned long long)hive_index_buckets(ix));
    return after;
}

/* Splits from a fresh index of `base` buckets to `target`, remembering a
 * sample of hashes' buckets, then merges back and checks they return. */
static void split_and_merge(uint64_t base, uint64_t target, ht_rng *rng)
{
    ht_context("base %llu, split to %llu buckets and merge back", (unsigned long long)base,
               (unsigned long long)target);
    enum { KEPT = 4096 };
    static uint32_t hashes[KEPT];
    static uint64_t homes[KEPT];
    hive_index ix = hive_index_for(base);
    for (int i = 0; i < KEPT; i++) {
        hashes[i] = (uint32_t)ht_rng_next(rng);
        homes[i] = hive_bucket_of(ix, hashes[i]);
    }
    check_range(ix, rng);
    for (int steps = 0; hive_index_buckets(ix) < target; steps++) {
        if (!HT_CHECK(steps < 64, "growing to %llu buckets takes over 64 steps", (unsigned long long)target))
            break;
        ix = check_split(ix, target, rng);
        check_range(ix, rng);
    }
    HT_CHECK_EQ(hive_index_buckets(ix), target, "buckets after growing");
    hive_resize_step step;
    HT_CHECK(!hive_next_split(ix, target, &step), "a split step past the target");
    for (int steps = 0; hive_next_merge(ix, base, &step); steps++) {
        if (!HT_CHECK(steps < 64, "merging back to %llu buckets takes over 64 steps",
                      (unsigned long long)base))
            break;
        hive_index after = hive_after_merge(&step, step.first);
        uint64_t partner = hive_index_round(step.before), wrong = 0;
        for (int i = 0; i < SAMPLES / 4; i++) {
            uint32_t h = (uint32_t)ht_rng_next(rng);
            uint64_t b = hive_bucket_of(ix, h), a = hive_bucket_of(after, h);
            wrong += b >= step.first + partner ? a != b - partner : a != b;
        }
        HT_CHECK_EQ(wrong, 0, "hashes misplaced by merging [%llu, %llu)", (unsigned long long)step.first,
                    (unsigned long long)(step.first + step.count));
        ix = after;
    }
    HT_CHECK_EQ(hive_index_buckets(ix), base, "buckets after shrinking to the base");
    HT_CHECK(!hive_next_merge(ix, 0, &step), "a merge step below the base");
    uint64_t lost = 0;
    for (int i = 0; i < KEPT; i++)
        lost += hive_bucket_of(ix, hashes[i]) != homes[i];
    HT_CHECK_EQ(lost, 0, "hashes not back in their first bucket after growing and shrinking");
}

/* Counts sampled hashes per bucket class: the mean of buckets below
 * `split` (and their partners) against that of buckets not yet split. */
static void check_balance(uint64_t base, uint64_t rounds, uint64_t split, ht_rng *rng)
{
    ht_context("balance: base %llu, round %llu, split %llu", (unsigned long long)base,
               (unsigned long long)rounds, (unsigned long long)split);
    hive_index ix = {base, (1ull << rounds) - 1, split};
    uint64_t round = hive_index_round(ix), buckets = hive_index_buckets(ix);
    enum { RANGES = 64 };
    uint64_t hits_split = 0, hits_unsplit = 0, out = 0, range[RANGES] = {0};
    const int n = 4 * SAMPLES;
    for (int i = 0; i < n; i++) {
        uint64_t b = hive_bucket_of(ix, (uint32_t)ht_rng_next(rng));
        if (b >= buckets) {
            out++;
            continue;
        }
        if (b < split || b >= round)
            hits_split++;
        else
            hits_unsplit++;
        range[b * RANGES / buckets]++;
    }
    HT_CHECK_EQ(out, 0, "hashes naming a bucket past %llu", (unsigned long long)buckets);
    if (split == 0) { /* a round boundary: every stretch of buckets gets its share */
        uint64_t worst = 0;
        for (int r = 0; r < RANGES; r++) {
            uint64_t want = (uint64_t)n / RANGES, got = range[r];
            uint64_t off = got > want ? got - want : want - got;
            worst = off > worst ? off : worst;
        }
        HT_CHECK(worst * 10 < (uint64_t)n / RANGES, "a 1/64 stretch of buckets is %llu hashes off %d",
                 (unsigned long long)worst, n / RANGES);
        return;
    }
    double per_split = (double)hits_split / (double)(2 * split);
    double per_unsplit = (double)hits_unsplit / (double)(round - split);
    HT_CHECK(per_unsplit > 1.8 * per_split && per_unsplit < 2.2 * per_split,
             "buckets not yet split get %.2f hashes each, split ones %.2f (want twice)", per_unsplit,
             per_split);
}

int main(void)
{
    ht_begin("index rule");
    ht_rng rng;
    ht_rng_seed(&rng, 5);
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
        uint64_t base = bases[i];
        split_and_merge(base, base * 8 + base / 3 + 1, &rng);
        check_balance(base < 64 ? base * 64 : base, 0, 0, &rng);
        check_balance(base < 64 ? base * 64 : base, 2, 0, &rng);
        check_balance(base < 64 ? base * 64 : base, 1, (base < 64 ? base * 64 : base), &rng);
    }
    return ht_finish();
}
