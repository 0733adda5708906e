/* main.c — hive-conformance <cpu|cuda> <kv32|kv64> [--growth-keys N] [suite ...]
 * Runs the named suites (default: all) on one backend and key width.
 * --growth-keys sets how many keys the growth suite grows to (default 10^6). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

/* Load factors up to 0.90: whether fuller tables take every insert is the
 * loadfactor suite's question alone. */
const ct_param ct_params[] = {
    {0.90, 0.25, 1}, /* the defaults */
    {0.50, 0.20, 2}, /* roomy, shrinks early */
    {0.85, 0.00, 3}, /* never shrinks */
    {0.75, 0.30, 4},
};
const size_t ct_param_count = sizeof ct_params / sizeof ct_params[0];

static const struct {
    const char *name;
    void (*run)(const ht_target *t);
} suites[] = {
    {"insert", ct_suite_insert}, {"find", ct_suite_find},     {"erase", ct_suite_erase},
    {"apply", ct_suite_apply},   {"table", ct_suite_table},   {"growth", ct_suite_growth},
    {"fill", ct_suite_fill},     {"loadfactor", ct_suite_loadfactor},
};
#define SUITES (sizeof suites / sizeof suites[0])

hive_table *ct_open(const ht_target *t, const char *suite, const ct_param *p,
                    uint64_t initial_capacity, hive_config *config)
{
    ht_context("%s %s %s: seed %llu, max_load_factor %.2f, min_load_factor %.2f", suite,
               t->backend_name, t->width_name, (unsigned long long)p->seed, p->max_load_factor,
               p->min_load_factor);
    *config = ht_config(t);
    config->max_load_factor = p->max_load_factor;
    config->min_load_factor = p->min_load_factor;
    config->initial_capacity = initial_capacity;
    return ht_open(t, config);
}

void ct_fill(const ht_target *t, ht_batch *b, const uint64_t *keys, size_t n, ht_rng *rng)
{
    if (n > b->cap)
        ht_fatal("ct_fill: %zu keys for a batch of %zu", n, b->cap);
    b->n = n;
    for (size_t i = 0; i < n; i++) {
        ht_put(t, b->keys, i, keys[i]);
        ht_put(t, b->values, i, ht_random_value(t, rng));
    }
}

extern uint64_t ct_growth_keys; /* growth.c */

int main(int argc, char **argv)
{
    static char name[128];
    const char *usage = "<cpu|cuda> <kv32|kv64> [--growth-keys N] "
                        "[insert|find|erase|apply|table|growth|fill|loadfactor ...]";
    if (argc >= 5 && strcmp(argv[3], "--growth-keys") == 0) {
        ct_growth_keys = strtoull(argv[4], NULL, 10);
        if (ct_growth_keys < 1000)
            ct_growth_keys = 1000;
        for (int a = 5; a <= argc; a++) /* drop the option (argv[argc] is NULL) */
            argv[a - 2] = argv[a];
        argc -= 2;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        return HT_EXIT_FAIL;
    }
    ht_target t;
    ht_target_from_args(&t, argc, argv, 1, usage);
    snprintf(name, sizeof name, "conformance %s %s", t.backend_name, t.width_name);
    for (int a = 3; a < argc; a++) {
        size_t len = strlen(name);
        snprintf(name + len, sizeof name - len, " %s", argv[a]);
    }
    ht_begin(name);
    ht_require_backend(&t);
    int ran = 0;
    for (size_t s = 0; s < SUITES; s++) {
        int wanted = argc == 3;
        for (int a = 3; a < argc; a++)
            wanted |= strcmp(argv[a], suites[s].name) == 0;
        if (!wanted)
            continue;
        suites[s].run(&t);
        ran++;
    }
    for (int a = 3; a < argc; a++) {
        int known = 0;
        for (size_t s = 0; s < SUITES; s++)
            known |= strcmp(argv[a], suites[s].name) == 0;
        if (!known) {
            fprintf(stderr, "unknown suite %s; usage: %s %s\n", argv[a], argv[0], usage);
            return HT_EXIT_FAIL;
        }
    }
    if (ran == 0)
        ht_fatal("no suite ran");
    return ht_finish();
}
