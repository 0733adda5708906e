/* regrow.c — the sizes of an array that grows by moving (src/base/regrow.h:
 * a CUDA table's bucket and lock arrays when hive_config.allocator is set),
 * as pure functions:
 *
 *   size      a growth's allocation holds what is needed, is a whole number
 *             of units (or the limit), never passes the limit, and is at least
 *             half as large again as the one it replaces where the limit
 *             allows;
 *   amortised an array grown one small step at a time up to 64 MiB moves
 *             O(log) times and copies under three times its final size in
 *             all;
 *   shrink    a shrunken array moves only once what stays is at most a
 *             quarter of its allocation, to an allocation that holds it; an
 *             array that halves and doubles again never moves for it.
 *
 *   hive-regrow */
#include <stdio.h>

#include "base/regrow.h"
#include "hivetest.h"

static void check_size(ht_rng *rng)
{
    const size_t unit = HIVE_REGROW_UNIT;
    uint64_t bad = 0;
    for (int i = 0; i < 200000; i++) {
        size_t limit = hive_regrow_round(1 + ht_rng_below(rng, (uint64_t)1 << 36), unit);
        size_t have = (size_t)ht_rng_below(rng, limit);
        size_t need = have + 1 + (size_t)ht_rng_below(rng, limit - have);
        if (i % 4 == 0)
            need = have + 1; /* the smallest steps */
        size_t got = hive_regrow_size(have, need, unit, limit);
        int ok = got >= need && got <= limit && (got % unit == 0 || got == limit) &&
                 (got >= have + have / 2 || got == limit);
        if (!ok && bad++ < 5)
            HT_CHECK(0, "hive_regrow_size(%zu, %zu, %zu, %zu) = %zu", have, need, unit, limit, got);
        ht_pass_(ok);
    }
    HT_CHECK_EQ(bad, 0, "sizes that broke the rules");
    /* Exact values: the first allocation is what is needed, rounded. */
    HT_CHECK_EQ(hive_regrow_size(0, 1, unit, 1 << 20), unit, "first allocation of 1 byte");
    HT_CHECK_EQ(hive_regrow_size(0, 1000, unit, 1 << 20), 1024, "first allocation of 1000 bytes");
    HT_CHECK_EQ(hive_regrow_size(1024, 1025, unit, 1 << 20), 1536, "half as large again");
    HT_CHECK_EQ(hive_regrow_size(1024, 4000, unit, 1 << 20), 4096, "what is needed, past 1.5x");
    HT_CHECK_EQ(hive_regrow_size(1024, 1100, unit, 1280), 1280, "capped at the limit");
}

static void check_amortised(void)
{
    const size_t unit = HIVE_REGROW_UNIT, limit = (size_t)64 << 20;
    size_t have = 0, copied = 0, moves = 0;
    for (size_t need = 64; need <= limit; need += 64) { /* 64 bytes a step: a million steps */
        if (need <= have)
            continue;
        copied += need - 64; /* the bytes in use are moved */
        have = hive_regrow_size(have, need, unit, limit);
        moves++;
    }
    HT_CHECK(moves <= 40, "%zu moves to grow to 64 MiB by 64 bytes", moves);
    HT_CHECK(copied < 3 * limit, "%zu bytes copied to grow to %zu", copied, limit);
    printf("  64 MiB in 64-byte steps: %zu moves, %.2f bytes copied per byte\n", moves,
           (double)copied / (double)limit);
}

static void check_shrink(ht_rng *rng)
{
    const size_t unit = HIVE_REGROW_UNIT;
    uint64_t bad = 0;
    for (int i = 0; i < 200000; i++) {
        size_t have = hive_regrow_round(1 + ht_rng_below(rng, (uint64_t)1 << 36), unit);
        size_t keep = (size_t)ht_rng_below(rng, have + 1);
        size_t got = hive_reshrink_size(have, keep, unit);
        int ok = got == have ? hive_regrow_round(keep, unit) > have / 4
                             : got >= keep && got <= have / 4 && got % unit == 0;
        if (!ok && bad++ < 5)
            HT_CHECK(0, "hive_reshrink_size(%zu, %zu, %zu) = %zu", have, keep, unit, got);
        ht_pass_(ok);
    }
    HT_CHECK_EQ(bad, 0, "shrink sizes that broke the rules");
    HT_CHECK_EQ(hive_reshrink_size(4096, 1024, unit), 1024, "a quarter left: moves");
    HT_CHECK_EQ(hive_reshrink_size(4096, 1025, unit), 4096, "over a quarter left: stays");
    HT_CHECK_EQ(hive_reshrink_size(4096, 0, unit), 0, "nothing left: nothing kept");

    /* Halving and doubling around one size: no move either way. */
    size_t have = hive_regrow_size(0, (size_t)1 << 20, unit, (size_t)1 << 30), moves = 0;
    for (int round = 0; round < 10; round++) {
        size_t to = hive_reshrink_size(have, (size_t)1 << 19, unit);
        moves += to != have;
        have = to;
        if (((size_t)1 << 20) > have) {
            have = hive_regrow_size(have, (size_t)1 << 20, unit, (size_t)1 << 30);
            moves++;
        }
    }
    HT_CHECK_EQ(moves, 0, "moves of an array halving and doubling again");
}

int main(void)
{
    ht_begin("regrow");
    ht_rng rng;
    ht_rng_seed(&rng, 1);
    check_size(&rng);
    check_amortised();
    check_shrink(&rng);
    return ht_finish();
}
