/* options.h — hive-bench's command line, read with getopt_long: every option
 * takes its value as `--name=value` or `--name value`; the other arguments
 * are workload names (`all` and `quick` included), kept in order and checked
 * by the caller. */
#ifndef HIVE_BENCH_OPTIONS_H
#define HIVE_BENCH_OPTIONS_H

#include <stdint.h>
#include <stdio.h>

#include "defaults.h"
#include "hive.h"

#define BENCH_MAX_NAMES 64

typedef struct bench_options {
    const char *backend;       /* "cpu", "cuda" or "auto" */
    hive_key_width key_width;
    uint64_t n;                /* 0: each workload's default */
    uint64_t seed;
    int runs;
    uint32_t rounds;           /* 0: the defaults' */
    uint32_t threads;          /* 0: one per core */
    uint32_t bucket_slots;     /* --geometry SxT; 0 0: the backend's own */
    uint32_t lanes_per_op;
    const char *design;        /* --design: a name of designs.c's table, or "all" */
    uint32_t dims[BENCH_CACHE_MAX_DIMS]; /* --dim: cache value widths; ndims 0 = defaults' */
    int ndims;
    uint64_t batch;            /* --batch: cache keys per call; 0 = defaults' */
    double cache_hbm_fraction; /* --cache-hbm-fraction: of the cache's values in device memory; 1 = all */
    uint32_t cache_slots;      /* --cache-slots: the cache's slots per bucket; 0 = the library's default */
    double hot_fraction;       /* --hot-fraction: the tiered hot tier's share of the records */
    int pageable;              /* --pageable: tiered host arrays from malloc on a GPU run too */
    int write_back;            /* --write-back: tiered, hive_tiered_config.write_back = 1 */
    int hot_single_bucket;     /* --hot-single-bucket: tiered, hive_tiered_config.hot_dual_bucket = 0 */
    int allocator;             /* --allocator: CUDA tables' device memory through hive_config.allocator */
    uint32_t absent_filter_bits; /* --absent-filter: CPU tables' hive_config.absent_filter_bits */
    int quick;                 /* --quick */
    int help, version;
    const char *out_dir;
    const char *names[BENCH_MAX_NAMES]; /* workload names, as given */
    int nnames;
} bench_options;

/* Reads argv into o (the defaults first).  Returns 0, or 2 after printing why
 * to stderr. */
int bench_options_parse(bench_options *o, int argc, char **argv);

/* The options part of --help. */
void bench_options_usage(FILE *f);

/* The sizes of one backend's defaults, the full set beside the quick one, a
 * line per workload with what --n sets.  gpu: whether they are the CUDA
 * backend's (limits runs there only, cpu-compare on the CPU only). */
void bench_defaults_usage(FILE *f, const bench_defaults *full, const bench_defaults *quick,
                          int gpu);

#endif
