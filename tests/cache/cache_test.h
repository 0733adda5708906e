/* cache_test.h — what the cache table's tests share (tests/cache/): the
 * backend under test and the skip rules for a cache, table memory for one
 * call's arrays, whole-table snapshots through hive_cache_export, values
 * derived from keys, and keys aimed at chosen buckets with the table's own
 * placement (src/cache/cache_view.h's hive_cache_place_of).
 *
 * Every program takes the backend as argv[1] ("cpu" or "cuda"), as the
 * dictionary's conformance programs do, and exits 0 / 1 / 77.  A CUDA run
 * without a usable GPU skips, unless HIVE_REQUIRE_GPU=1: then it fails. */
#ifndef CT_CACHE_TEST_H
#define CT_CACHE_TEST_H

#include <stddef.h>
#include <stdint.h>

#include "hivetest.h"

/* The backend from argv[1] (exits 1 with the usage line on anything else);
 * the target's width is KV64 (a cache's keys are 64-bit), so ht_alloc and
 * ht_free give table memory of the backend. */
void ct_target_from_args(ht_target *t, int argc, char **argv, const char *usage);

/* The arguments after the backend of a test that sweeps out-of-memory in
 * children (support/child.h): --scale F, ignored (its sizes are fixed), and
 * --oom-child, which makes this process the child: returns whether it was
 * given.  Anything else prints the usage and exits HT_EXIT_FAIL. */
int ct_oom_child_args(int argc, char **argv, const char *usage);

/* HIVE_CACHE_CONFIG_INIT with the target's backend. */
hive_cache_config ct_config(const ht_target *t);

/* The value tier of the caches ct_open creates (hive.h's value_hbm_bytes):
 * `--hbm-fraction F` in [0, 1] on a program's command line keeps the values
 * of the first F of a cache's slots in device memory and the rest in host
 * memory, asking for a budget that is not a whole number of values (it is
 * rounded down); without it a config is left as it is.  Returns 1 when
 * argv[*a] is the option, having stepped *a past its value (exits 1 on a bad
 * value); a program's argument loop asks it first. */
int ct_tier_arg(int argc, char **argv, int *a);
/* The fraction set, or -1 for none (for a program's banner). */
double ct_tier_fraction(void);

/* Creates a cache, or leaves the process as ht_open does: exit 77 for a CUDA
 * cache without a GPU or without CUDA in the build (exit 1 under
 * HIVE_REQUIRE_GPU=1), exit 1 for any other failure.  Under --hbm-fraction
 * a config that leaves value_hbm_bytes at its default gets the fraction's
 * budget, and the budget the cache reports is checked. */
hive_cache *ct_open(const ht_target *t, const hive_cache_config *config);
void ct_close(hive_cache *cache);
/* The cache's size, or leaves the process as HT_MUST does. */
uint64_t ct_size(hive_cache *cache);
/* Opens and closes a small cache, so that a program skips before it does
 * anything else on a backend that is not there. */
void ct_require_backend(const ht_target *t);

/* Bytes of one element of a value type, 0 for an unknown one. */
size_t ct_elem_bytes(hive_value_type type);

/* One call's arrays, table memory, for up to `cap` keys of `vb` value bytes. */
typedef struct ct_bufs {
    const ht_target *t;
    size_t cap, vb;
    uint64_t *keys, *scores, *ev_keys, *ev_scores, *missed_keys, *missed_idx;
    uint8_t *values, *ev_values, *values_out;
    uint8_t *results, *found, *flags;
} ct_bufs;

void ct_bufs_init(ct_bufs *b, const ht_target *t, size_t cap, size_t vb);
void ct_bufs_free(ct_bufs *b);

/* A copy of the whole table in host memory (malloc), by one export call of
 * capacity slots; `index` maps each key to its position (ht_ref), and
 * `duplicates` counts keys that appeared more than once. */
typedef struct ct_snap {
    uint64_t n, vb, duplicates;
    uint64_t *keys, *scores;
    uint8_t *values;
    ht_ref index;
} ct_snap;

/* Exports every entry (checked: SUCCESS, count == hive_cache_size) into s. */
void ct_snapshot(const ht_target *t, hive_cache *cache, ct_snap *s);
void ct_snap_free(ct_snap *s);
/* Position of key in s, or -1. */
long long ct_snap_find(const ct_snap *s, uint64_t key);

/* A value derived from (key, tag): element j of `dim` elements of `type`,
 * written to dst; ct_value_check says whether src holds exactly that. */
void ct_value_make(void *dst, hive_value_type type, uint32_t dim, uint64_t key, uint64_t tag);
int ct_value_check(const void *src, hive_value_type type, uint32_t dim, uint64_t key, uint64_t tag);

/* A key (distinct from every key in `taken`, and added to it; taken may be
 * NULL) whose bucket b1 is `bucket` and, when `b2_also` is set and the table
 * is dual, whose b2 is `bucket2`; found by drawing random keys.  The table
 * has `buckets` buckets and hashes with `seed` (ht_test_hash_seed() for a
 * cache from ct_open). */
uint64_t ct_aimed_key(ht_rng *rng, uint64_t seed, uint64_t buckets, uint32_t dual, uint64_t bucket, int b2_also,
                      uint64_t bucket2, ht_ref *taken);

/* Nanoseconds of CLOCK_REALTIME (the CPU backend's LRU clock). */
uint64_t ct_realtime_ns(void);

/* "LRU", "LFU", ...; a hive_result's name, the cache's EVICTED and REFUSED included. */
const char *ct_policy_name(hive_score_policy p);
const char *ct_result_name(unsigned result);

#endif
