/* design_probes.c — what the CPU loops assume of every design's probes
 * when they prefetch a key's buckets ahead (src/cpu/cpu_kernels_body.h),
 * on random hashes:
 *
 *   first    every design reads the bucket of h1 first: probe 0 of each
 *            probe design's hash is h1;
 *   second   hive_design_second_hash (designs/designs.h) names, for each
 *            design ID, that design's own probe 1 (the Hive design: h2;
 *            chaining, whose second read is a chain node: h1).
 *
 * A wrong answer loses no key (a prefetch is only a hint), but it fetches
 * a line nobody reads and leaves the one read to a miss: the tagged
 * designs' CPU finds ran 4-5 times slower so.
 *
 *   hive-design-probes */
#include "designs/designs.h"
#include "hivetest.h"

#define SAMPLES 100000

typedef uint32_t (*probe_fn)(uint32_t h1, uint32_t h2, uint32_t i);

static const struct {
    uint32_t id;
    const char *name;
    probe_fn probe; /* NULL: the Hive design, b2 = h2 */
} designs[] = {
    {HIVE_DESIGN_ID_HIVE, "hive", NULL},
    {HIVE_DESIGN_ID_DOUBLE, "double", hive_double_probe_hash},
    {HIVE_DESIGN_ID_P2, "p2", hive_p2_probe_hash},
    {HIVE_DESIGN_ID_ICEBERG, "iceberg", hive_iceberg_probe_hash},
    {HIVE_DESIGN_ID_CUCKOO, "cuckoo", hive_cuckoo_probe_hash},
    {HIVE_DESIGN_ID_DOUBLE_M, "double_m", hive_double_probe_hash},
    {HIVE_DESIGN_ID_P2_M, "p2_m", hive_p2_probe_hash},
    {HIVE_DESIGN_ID_ICEBERG_M, "iceberg_m", hive_iceberg_probe_hash},
};

int main(void)
{
    ht_begin("design_probes");
    ht_rng rng;
    ht_rng_seed(&rng, 7);
    for (size_t d = 0; d < sizeof designs / sizeof designs[0]; d++) {
        uint64_t first_wrong = 0, second_wrong = 0;
        for (int i = 0; i < SAMPLES; i++) {
            uint32_t h1 = (uint32_t)ht_rng_next(&rng), h2 = (uint32_t)ht_rng_next(&rng);
            uint32_t second = designs[d].probe ? designs[d].probe(h1, h2, 1) : h2;
            first_wrong += designs[d].probe && designs[d].probe(h1, h2, 0) != h1;
            second_wrong += hive_design_second_hash(designs[d].id, h1, h2) != second;
        }
        HT_CHECK_EQ(first_wrong, 0, "%s: probe 0 is not h1", designs[d].name);
        HT_CHECK_EQ(second_wrong, 0, "%s: the second hash is not its probe 1", designs[d].name);
    }
    uint64_t chained = 0;
    for (int i = 0; i < SAMPLES; i++) {
        uint32_t h1 = (uint32_t)ht_rng_next(&rng), h2 = (uint32_t)ht_rng_next(&rng);
        chained += hive_chaining_probe_hash(h1, h2, 0) != h1 ||
                   hive_design_second_hash(HIVE_DESIGN_ID_CHAINING, h1, h2) != h1;
    }
    HT_CHECK_EQ(chained, 0, "chaining: its head bucket is not h1, or a second bucket is named");
    return ht_finish();
}
