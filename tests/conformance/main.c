/* main.c — hive-conformance <cpu|cuda> <kv32|kv64> [--growth-keys N] [--geometry SxT]
 *                           [--design NAME] [suite ...]
 * Runs the named suites (default: all) on one backend and key width.
 * --growth-keys sets how many keys the growth suite grows to (default 10^6);
 * --geometry gives every table S slots per bucket and T lanes per key
 * (hive_config.bucket_slots, lanes_per_op; default: the backend's own);
 * --design gives every table that design (hive_config.design; default
 * hive). */
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
    {"aging", ct_suite_aging},
};
#define SUITES (sizeof suites / sizeof suites[0])

/* --geometry: 0 x 0 leaves the backend's default. */
static uint32_t geometry_slots, geometry_lanes;
static char geometry_name[24] = "default";

hive_table *ct_open(const ht_target *t, const char *suite, const ct_param *p,
                    uint64_t initial_capacity, hive_config *config)
{
    ht_context("%s %s %s %s: geometry %s, seed %llu, max_load_factor %.2f, min_load_factor %.2f",
               suite, t->backend_name, t->width_name, t->design_name, geometry_name,
               (unsigned long long)p->seed, p->max_load_factor, p->min_load_factor);
    *config = ht_config(t);
    config->max_load_factor = p->max_load_factor;
    config->min_load_factor = p->min_load_factor;
    config->initial_capacity = initial_capacity;
    config->bucket_slots = geometry_slots;
    config->lanes_per_op = geometry_lanes;
    hive_table *table = ht_open(t, config);
    if (geometry_slots != 0) {
        /* The suites' checks mean something for this geometry only if the
         * table really has it. */
        hive_stats st;
        HT_MUST(hive_stats_get(table, &st));
        HT_CHECK(st.bucket_slots == geometry_slots && st.lanes_per_op == geometry_lanes,
                 "%s: asked for geometry %ux%u, the table has %ux%u", suite, geometry_slots,
                 geometry_lanes, st.bucket_slots, st.lanes_per_op);
    }
    return table;
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

/* Takes the options (each with one value) out of argv[3..], leaving the suite
 * names; returns 0 on a bad option or value. */
static int take_options(int *argc, char **argv)
{
    int kept = 3;
    for (int a = 3; a < *argc; a++) {
        int growth = strcmp(argv[a], "--growth-keys") == 0;
        int geometry = strcmp(argv[a], "--geometry") == 0;
        if (!growth && !geometry) {
            argv[kept++] = argv[a];
            continue;
        }
        if (a + 1 >= *argc)
            return 0;
        const char *value = argv[++a];
        if (geometry) {
            if (!ht_parse_geometry(value, &geometry_slots, &geometry_lanes))
                return 0;
            snprintf(geometry_name, sizeof geometry_name, "%ux%u", geometry_slots, geometry_lanes);
        }
        if (growth) {
            ct_growth_keys = strtoull(value, NULL, 10);
            if (ct_growth_keys < 1000)
                ct_growth_keys = 1000;
        }
    }
    *argc = kept;
    argv[kept] = NULL;
    return 1;
}

int main(int argc, char **argv)
{
    static char name[160];
    const char *usage = "<cpu|cuda> <kv32|kv64> [--growth-keys N] [--geometry SxT] "
                        "[--design NAME] [insert|find|erase|apply|table|growth|fill|loadfactor|aging ...]";
    hive_design design = ht_take_design(&argc, argv, usage);
    if (!take_options(&argc, argv)) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        return HT_EXIT_FAIL;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        return HT_EXIT_FAIL;
    }
    ht_target t;
    ht_target_from_args(&t, argc, argv, 1, usage);
    ht_target_set_design(&t, design);
    snprintf(name, sizeof name, "conformance %s %s", t.backend_name, t.width_name);
    if (design != HIVE_DESIGN_HIVE) {
        size_t len = strlen(name);
        snprintf(name + len, sizeof name - len, " %s", t.design_name);
    }
    if (geometry_slots != 0) {
        size_t len = strlen(name);
        snprintf(name + len, sizeof name - len, " %s", geometry_name);
    }
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
