/* designs.c — the designs hive-bench runs (see designs.h). */
#include "designs.h"

#include <string.h>

#include "probe_model.h"

/* One line a design: its name, its enum, its probe model. */
const bench_design bench_designs[] = {
    {"hive", HIVE_DESIGN_HIVE, &bench_model_hive},
    {"double", HIVE_DESIGN_DOUBLE, &bench_model_double},
    {"p2", HIVE_DESIGN_P2, &bench_model_p2},
    {"iceberg", HIVE_DESIGN_ICEBERG, &bench_model_iceberg},
    {"cuckoo", HIVE_DESIGN_CUCKOO, &bench_model_cuckoo},
    {"chaining", HIVE_DESIGN_CHAINING, &bench_model_chaining},
    {"double_m", HIVE_DESIGN_DOUBLE_M, &bench_model_double_m},
    {"p2_m", HIVE_DESIGN_P2_M, &bench_model_p2_m},
    {"iceberg_m", HIVE_DESIGN_ICEBERG_M, &bench_model_iceberg_m},
};
const size_t bench_ndesigns = sizeof bench_designs / sizeof bench_designs[0];

const bench_design *bench_design_named(const char *name)
{
    for (size_t i = 0; i < bench_ndesigns; i++)
        if (strcmp(bench_designs[i].name, name) == 0)
            return &bench_designs[i];
    return NULL;
}

const char *bench_design_names(void)
{
    static char names[256];
    if (names[0] == '\0') {
        size_t len = 0;
        for (size_t i = 0; i < bench_ndesigns && len + 1 < sizeof names; i++) {
            size_t w = strlen(bench_designs[i].name);
            if (len + w + 2 >= sizeof names)
                break;
            if (i)
                names[len++] = '|';
            memcpy(names + len, bench_designs[i].name, w);
            len += w;
            names[len] = '\0';
        }
    }
    return names;
}
