/* tiered_test.h — what the two-level table's tests share (tests/tiered/):
 * the hot backend under test and the skip rules, the oracle comparison of a
 * whole table (every key of a universe found with its latest value, the
 * absent ones not found, sizes and tier sizes), Zipf and uniform key streams,
 * and keys aimed at chosen buckets of the hot tier (the cache's placement,
 * src/cache/cache_view.h, through cache_test.h's ct_aimed_key).
 *
 * Every program takes the hot tier's backend as argv[1] ("cpu" or "cuda";
 * the cold tier is always the CPU's) and exits 0 / 1 / 77.  A CUDA run
 * without a usable GPU skips, unless HIVE_REQUIRE_GPU=1: then it fails. */
#ifndef TT_TIERED_TEST_H
#define TT_TIERED_TEST_H

#include <stdint.h>

#include "cache_test.h"

/* The hot tier's hash seed that tt_config fixes, which aimed keys need. */
#define TT_HOT_SEED 0

/* HIVE_TIERED_CONFIG_INIT with the target's backend for the hot tier, two
 * CPU threads (the tests run beside each other on small machines) and the
 * hot tier's hash seed fixed to TT_HOT_SEED. */
hive_tiered_config tt_config(const ht_target *t);

/* Creates a two-level table, or leaves the process as ct_open does. */
hive_tiered *tt_open(const ht_target *t, const hive_tiered_config *config);
void tt_close(hive_tiered *tiered);
hive_tiered_stats tt_stats(hive_tiered *tiered);

/* Checks the table against the oracle: every key of keys[0..n) (present
 * in the oracle or not) found exactly when the oracle has it, with its
 * value, absent keys' value entries untouched; hive_tiered_size equal to the
 * oracle's size and to the cold tier's (every key is cold); the hot tier
 * within its capacity and the size.  Finds go in batches of `batch` keys.  Returns the failures. */
uint64_t tt_check_all(hive_tiered *tiered, const ht_ref *oracle, const uint64_t *keys, uint64_t n,
                      uint64_t batch);

/* Sizes only (cheap, after every call): size == oracle == cold,
 * hot <= capacity, hot <= size. */
void tt_check_sizes(hive_tiered *tiered, const ht_ref *oracle);

/* The arrays a test passes to the calls, from the memory that
 * HIVE_TIERED_TEST_MEMORY names: "host" (malloc; the default), "mapped"
 * (pinned host memory mapped for the GPU) or "managed".  A CUDA hot tier
 * takes mapped and managed arrays as they are, and stages host ones
 * (tiered_api.c); a CPU hot tier takes any as it is, unless
 * HIVE_TEST_TIERED_STAGED=1.  Never NULL (exits 1 instead). */
void *tt_array(const ht_target *t, size_t bytes);
void tt_array_free(const ht_target *t, void *p);
/* The memory's name, for the programs' banners. */
const char *tt_memory_name(void);

/* Key ranks in [0, universe): Zipf (exponent s) by inverse CDF, or uniform
 * when s == 0. */
typedef struct tt_stream {
    uint64_t universe;
    double *cdf; /* NULL when uniform */
} tt_stream;

void tt_stream_init(tt_stream *z, uint64_t universe, double s);
void tt_stream_free(tt_stream *z);
uint64_t tt_stream_next(const tt_stream *z, ht_rng *rng);

/* The key of rank r: spread over the key space, never reserved. */
static inline uint64_t tt_key(uint64_t r, uint64_t salt)
{
    uint64_t x = r ^ (salt << 40);
    return ht_splitmix64(&x) >> 2;
}

#endif
