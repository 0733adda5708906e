/* conformance.h — the conformance suite, written once and run on every
 * backend: `hive-conformance <cpu|cuda> <kv32|kv64> [suite]`.  One file per
 * operation; each suite loops over load factors and seeds (ct_params). */
#ifndef CT_CONFORMANCE_H
#define CT_CONFORMANCE_H

#include "hivetest.h"

typedef struct ct_param {
    double max_load_factor;
    double min_load_factor;
    uint64_t seed;
} ct_param;

extern const ct_param ct_params[];
extern const size_t ct_param_count;

/* A table of the target with the param's load factors; *config gets the
 * config used.  Sets the context line to the suite, seed and factors. */
hive_table *ct_open(const ht_target *t, const char *suite, const ct_param *p,
                    uint64_t initial_capacity, hive_config *config);

/* Fills b with keys[0..n) and random values of the width (ht_random_value). */
void ct_fill(const ht_target *t, ht_batch *b, const uint64_t *keys, size_t n, ht_rng *rng);

void ct_suite_insert(const ht_target *t);
void ct_suite_find(const ht_target *t);
void ct_suite_erase(const ht_target *t);
void ct_suite_apply(const ht_target *t);
void ct_suite_table(const ht_target *t);
void ct_suite_growth(const ht_target *t);
void ct_suite_fill(const ht_target *t);
void ct_suite_loadfactor(const ht_target *t);
void ct_suite_aging(const ht_target *t);

#endif
