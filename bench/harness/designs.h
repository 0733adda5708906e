/* designs.h — the table designs hive-bench knows, in one table
 * (designs.c): the name --design takes, the hive_design it sets, and the
 * design's probe model (probe_model.h; NULL: the `probes` workload skips the
 * design with a notice).  A new design is one line there. */
#ifndef HIVE_BENCH_DESIGNS_H
#define HIVE_BENCH_DESIGNS_H

#include <stddef.h>

#include "hive.h"

struct bench_probe_model;

typedef struct bench_design {
    const char *name;                     /* as --design takes it and the CSV writes it */
    hive_design design;                   /* hive_config.design */
    const struct bench_probe_model *model; /* where its keys live, for `probes` */
} bench_design;

extern const bench_design bench_designs[];
extern const size_t bench_ndesigns;

/* The design named `name`, or NULL. */
const bench_design *bench_design_named(const char *name);

/* "hive|double|..." for messages and --help. */
const char *bench_design_names(void);

#endif
