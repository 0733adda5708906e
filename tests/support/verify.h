/* verify.h — checks many tests share: random keys and values of a width,
 * "the table holds exactly this reference map" (size, find of every key,
 * export), and the consistency of hive_stats. */
#ifndef HT_VERIFY_H
#define HT_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "hive.h"
#include "refmap.h"
#include "rng.h"
#include "target.h"

/* A uniform non-reserved key of the target's width. */
uint64_t ht_random_key(const ht_target *t, ht_rng *rng);
/* A value of the width: one time in eight an edge (0, 1, max, max - 1, max/2,
 * max/2 + 1), else uniform. */
uint64_t ht_random_value(const ht_target *t, ht_rng *rng);
/* n distinct non-reserved keys, none of them in `exclude` (may be NULL). */
void ht_unique_keys(const ht_target *t, ht_rng *rng, uint64_t *out, size_t n,
                    const ht_ref *exclude);
/* Shuffles a[0..n) in place. */
void ht_shuffle(ht_rng *rng, uint64_t *a, size_t n);

/* The table holds exactly the pairs of `ref`: hive_size, then hive_export
 * (every exported key is in ref with its value, none twice, the count is
 * the size).  `where` names the step in messages. */
void ht_expect_contents(const ht_target *t, hive_table *table, const ht_ref *ref,
                        const char *where);
/* Every key of ref is found, with its value, by hive_find (values and found
 * flags) in batches of scratch->cap; and by hive_contains. */
void ht_expect_finds(const ht_target *t, hive_table *table, const ht_ref *ref, ht_batch *scratch,
                     const char *where);
/* None of keys[0..n) is found; the value array is left untouched. */
void ht_expect_absent(const ht_target *t, hive_table *table, const uint64_t *keys, size_t n,
                      ht_batch *scratch, const char *where);
/* hive_stats_get succeeds and its fields agree with each other, with
 * hive_size and with the config the table was created with. */
void ht_expect_stats(const ht_target *t, hive_table *table, const hive_config *config,
                     hive_stats *stats, const char *where);

/* Sum of the four insert_steps counters. */
uint64_t ht_steps_total(const hive_stats *s);

#endif
