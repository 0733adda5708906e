/* harness.h — what every workload shares: the run context, table-memory
 * buffers (host memory for the CPU backend, cudaMalloc for CUDA), key and
 * batch generation, timing (CUDA events on the GPU, clock_gettime on the CPU),
 * medians with the slowest and fastest runs, verification, and result rows.
 *
 * Conventions.  Functions returning int give 0 on success and -1 after
 * printing why.  A hive call's status goes through bench_status(): failures
 * that leave results to check (TABLE_FULL, RESERVED_KEY) count as
 * verification failures; anything else (CUDA, out of memory) aborts the
 * workload. */
#ifndef HIVE_BENCH_HARNESS_H
#define HIVE_BENCH_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "defaults.h"
#include "gen.h"
#include "hive.h"
#include "spread.h"

#include "gpu.h" /* declarations only; called when BENCH_WITH_CUDA is defined */

/* One result row: one figure of one workload (see report.c for the files). */
typedef struct bench_row {
    char workload[24];
    char op[40];
    uint64_t n;          /* keys or ops per call (or records, slots: see the workload) */
    double load_factor;  /* < 0: not applicable */
    double x;            /* a workload's own axis (round, capacity, ...); NAN: none */
    double gops;         /* B ops/s (10^9 per second), the median run; NAN: not a key-op rate */
    double gops_min;     /* the slowest and the fastest run's gops; NAN: not measured per run */
    double gops_max;
    double value;        /* another figure, in `unit` (NAN: none) */
    double value_min;    /* the least and greatest run's value; NAN: not per run */
    double value_max;
    char unit[16];
    char limit[24];      /* the ceiling gops is divided by ("" on the CPU) */
    double fraction;     /* gops / limit; NAN: none */
    uint64_t bytes_held; /* table footprint (hive_stats.bytes_held); 0: none */
    int runs;            /* timed runs the median is over */
    int ok;              /* 1 verified, 0 a check failed, -1 nothing to verify */
    int detail;          /* 1: in the CSV/JSON only, not the printed table (per-round rows) */
    char design[16];     /* the table design ("" for a workload that has none: limits, cache) */
    char geometry[40];   /* the tables' geometry as created (bench_ctx.geometry) */
} bench_row;

typedef struct bench_ctx {
    /* options */
    hive_backend backend;      /* HIVE_BACKEND_CPU or HIVE_BACKEND_CUDA (resolved) */
    hive_key_width key_width;
    uint32_t bits;             /* 32 or 64 */
    size_t kbytes;             /* bytes per key (= per value) */
    uint64_t seed;
    int runs;
    uint64_t n;                /* --n: 0 = the workload's default */
    uint32_t rounds;           /* --rounds: 0 = default */
    uint32_t threads;          /* CPU backend worker threads, 0 = one per core */
    uint32_t bucket_slots;     /* --geometry S x T: slots per bucket and lanes per key, */
    uint32_t lanes_per_op;     /* 0 = the backend's default (hive_config) */
    hive_design design;        /* --design: the design now running */
    const char *design_name;   /* its name (designs.c), "" while a workload without one runs */
    uint32_t dims[BENCH_CACHE_MAX_DIMS]; /* --dim (cache); ndims 0: the defaults' */
    int ndims;
    uint64_t batch;            /* --batch (cache, cache-hitrate); 0: the defaults' */
    double cache_hbm_fraction; /* --cache-hbm-fraction (cache): of the values in device memory */
    uint32_t cache_slots;      /* --cache-slots (cache): slots per bucket, 0 = the library's default */
    double hot_fraction;       /* --hot-fraction (tiered): the hot tier's share of the records */
    int pageable;              /* --pageable (tiered): host arrays from malloc on a GPU run too */
    int write_back;            /* --write-back (tiered): hive_tiered_config.write_back = 1 */
    int hot_single_bucket;     /* --hot-single-bucket (tiered): hive_tiered_config.hot_dual_bucket = 0 */
    int allocator;             /* --allocator: CUDA tables take bench_gpu_allocator() (gpu.h) */
    uint32_t absent_filter_bits; /* --absent-filter: CPU tables' absent-key filter (CUDA tables ignore it) */
    int quick;
    const bench_defaults *def;
    const char *out_dir;
    /* environment */
    int gpu;                   /* 1 when the CUDA backend runs */
    hive_stream stream;        /* the bench's stream (NULL on the CPU) */
    char device[256], driver[96], commit[64], date[32];
    char geometry[40];         /* the tables' geometry as created: "4x1" (slots x lanes), "32 slots LRU hbm 0.333" */
    uint64_t gpu_l2, gpu_mem_total;
    int limits_done;
    bench_limits limits;
    /* results of the workload now running */
    const char *workload;
    bench_row *rows;
    size_t nrows, cap_rows;
    size_t first_row;          /* the rows of the design now running start here */
    int keep_rows;             /* 1: bench_begin keeps the rows of the designs run before */
    int failures;              /* verification failures, all workloads */
    int errors;                /* workloads aborted */
    double t0;                 /* start time (progress lines) */
} bench_ctx;

#define BENCH_MAX_RUNS 64

/* One step of a run: `expr` gives 0 (fine), > 0 (that many verification
 * problems: clears `ok`) or < 0 (fatal: goes to `fail`). */
#define BENCH_STEP(expr, ok, fail)           \
    do {                                     \
        int64_t step_ = (int64_t)(expr);     \
        if (step_ < 0)                       \
            goto fail;                       \
        if (step_ > 0)                       \
            (ok) = 0;                        \
    } while (0)

/* Times one hive call with the bench's timer: *secs gets the seconds; the
 * value is bench_status()'s (0, 1 or -1; -1 also when timing failed). */
#define BENCH_TIMED(c, secs, name, call) (bench_timer_start(c), bench_timed_end((c), (secs), (call), (name)))
int bench_timed_end(bench_ctx *c, double *secs, hive_status s, const char *name);

/* ---------------------------------------------------------------- context */

int bench_ctx_init(bench_ctx *c);
/* The commit this program was built from ("unknown" when the build could not
 * tell); $HIVE_COMMIT overrides it in a run's results (bench_ctx_init). */
const char *bench_built_commit(void);
/* Creates one small table with this run's config and records the geometry the
 * backend chose (or was given) in c->geometry; -1 when the backend refuses it. */
int bench_probe_geometry(bench_ctx *c);
void bench_ctx_finish(bench_ctx *c);
/* Wall-clock seconds (CLOCK_MONOTONIC). */
double bench_now(void);
/* A seed for one point and run of a workload: fresh keys per run. */
uint64_t bench_seed(const bench_ctx *c, uint64_t point, int run);
/* printf to stderr, prefixed with the elapsed time. */
void bench_progress(const bench_ctx *c, const char *fmt, ...);

/* ---------------------------------------------------------------- tables */

/* A config for this run: backend, key width, threads, geometry; capacity
 * pinned when min_lf is 0 and max_lf 1.0. */
hive_config bench_config(const bench_ctx *c, uint64_t initial_capacity, double max_lf,
                         double min_lf);
/* hive_create on a pinned table (max_load_factor 1, min_load_factor 0). */
int bench_create_pinned(bench_ctx *c, uint64_t slots, hive_table **t);
int bench_create(bench_ctx *c, const hive_config *cfg, hive_table **t);
/* Classifies a hive call's status: 0 success; 1 a verification failure
 * (TABLE_FULL, RESERVED_KEY, INVALID_ARGUMENT from a batch); -1 fatal.
 * Prints hive_last_error() for anything but success. */
int bench_status(bench_ctx *c, hive_status s, const char *call);
int bench_stats(bench_ctx *c, hive_table *t, hive_stats *st);

/* ---------------------------------------------------------------- buffers */

void *bench_alloc(bench_ctx *c, size_t bytes); /* table memory; NULL: message printed */
void bench_free(bench_ctx *c, void *p);
/* Host arrays: on a GPU run without --pageable, page-locked and mapped
 * (bench_gpu_host_alloc), as a GPU program's I/O buffers; else malloc.
 * Every page touched.  NULL: message printed. */
void *bench_host_alloc(bench_ctx *c, size_t bytes);
void bench_host_free(bench_ctx *c, void *p);
int bench_memset(bench_ctx *c, void *p, int byte, size_t bytes);
int bench_to_host(bench_ctx *c, void *host, const void *p, size_t bytes);
int bench_to_table_memory(bench_ctx *c, void *p, const void *host, size_t bytes);
/* Free table memory now (GPU: cudaMemGetInfo; CPU: a share of physical memory). */
uint64_t bench_free_memory(bench_ctx *c);

/* Runs fn(arg, lo, hi, acc) over [0, n) split across the online cores (one
 * thread below 65,536 elements); acc[4] is each part's tally, summed. */
void bench_par_for(uint64_t n, void (*fn)(void *arg, uint64_t lo, uint64_t hi, uint64_t *acc),
                   void *arg, uint64_t acc[4]);

/* ---------------------------------------------------------------- generation */

/* Element i of a host array of keys or values of the run's width (bits 32
 * or 64): written, read. */
static inline void bench_word_put(void *a, uint32_t bits, uint64_t i, uint64_t v)
{
    if (bits == 32)
        ((uint32_t *)a)[i] = (uint32_t)v;
    else
        ((uint64_t *)a)[i] = v;
}

static inline uint64_t bench_word_get(const void *a, uint32_t bits, uint64_t i)
{
    return bits == 32 ? ((const uint32_t *)a)[i] : ((const uint64_t *)a)[i];
}

bench_keys bench_keys_for(const bench_ctx *c, uint64_t seed);
/* A batch of one op over counters [base, base + n), unshuffled. */
bench_gen bench_gen_one(bench_keys k, uint64_t n, uint64_t base, hive_op op, hive_result expect,
                        uint32_t vtag);
/* Appends a segment of `count` positions (counters from base). */
void bench_gen_add(bench_gen *g, uint64_t count, uint64_t base, hive_op op, hive_result expect,
                   uint32_t vtag, uint32_t vtag_alt);
/* Interleaves the segments at random (seeded). */
void bench_gen_shuffle(bench_gen *g, uint64_t seed);
/* Zipf mode: n ops over `records` keys (counters 0..records-1); reads are
 * FIND, the rest UPSERT with tag 1. */
bench_gen bench_gen_zipf(bench_keys k, uint64_t n, uint64_t records, double theta,
                         double read_fraction, uint64_t seed);
/* zeta(n, theta) = sum_{i=1..n} i^-theta (exact to 2^20 terms, then
 * Euler-Maclaurin). */
double bench_zeta(uint64_t n, double theta);
/* Fills the arrays (each may be NULL) in table memory. */
int bench_fill(bench_ctx *c, const bench_gen *g, uint8_t *ops, void *keys, void *values);

/* ---------------------------------------------------------------- timing */

void bench_timer_start(bench_ctx *c);
double bench_timer_stop(bench_ctx *c); /* seconds; < 0 on a CUDA error */
double bench_median(const double *v, int n);

/* ---------------------------------------------------------------- verification */

/* Counts the elements of g whose outcome is wrong (0: all right; -1: error).
 * `what` names the step in the message printed on failure. */
int64_t bench_check(bench_ctx *c, const bench_gen *g, const uint8_t *results,
                    const uint8_t *found, const void *values, const char *what);
/* A live set of one range [lo, hi) with value tag vtag (and an alternative). */
bench_live bench_live_one(bench_keys k, uint64_t lo, uint64_t hi, uint32_t vtag, uint32_t vtag_alt);
void bench_live_add(bench_live *l, uint64_t lo, uint64_t hi, uint32_t vtag, uint32_t vtag_alt);
/* The whole-table check: hive_size == l->total, hive_export's count == size,
 * and the exported pairs are exactly l's keys with right values, once each.
 * kbuf/vbuf: table memory of cap keys/values, reused (overwritten) for the
 * export; if cap < size, the check allocates its own.  Returns the number of
 * problems (0: all right), -1 on an error. */
int64_t bench_check_table(bench_ctx *c, hive_table *t, const bench_live *l, void *kbuf,
                          void *vbuf, uint64_t cap, const char *what);

/* The balanced probe shared by several workloads: times hive_insert of the n
 * keys of `k` into the empty table t, hive_find of them (values checked) and
 * hive_find of n absent keys (all must miss), then checks that the table holds
 * exactly those n keys (`what` names that check).  Returns 0, 1 on a failed
 * check, -1 on an error. */
int bench_insert_find_miss(bench_ctx *c, hive_table *t, bench_keys k, uint64_t n, void *keys,
                           void *vals, uint8_t *found, double *insert_s, double *find_s,
                           double *miss_s, const char *what);

/* ---------------------------------------------------------------- rows */

/* A throughput row: ops per second, its fraction of the sector-gather limit
 * on the GPU; no per-run spread (gops_min and gops_max NAN). */
bench_row *bench_row_rate(bench_ctx *c, const char *op, uint64_t n, double lf, double x,
                          double ops_per_s, uint64_t bytes, int runs, int ok);
/* A throughput row of n key operations timed `runs` times (secs, seconds each;
 * runs <= BENCH_MAX_RUNS): gops is n over the median time, gops_min and
 * gops_max n over the longest and the shortest. */
bench_row *bench_row_timed(bench_ctx *c, const char *op, uint64_t n, double lf, double x,
                           const double *secs, int runs, uint64_t bytes, int ok);
/* A row of another kind of figure (value in unit). */
bench_row *bench_row_value(bench_ctx *c, const char *op, uint64_t n, double lf, double x,
                           double value, const char *unit, uint64_t bytes, int runs, int ok);

/* Begins a workload (clears its rows, unless keep_rows: the same workload
 * with the next design of --design all); ends it: prints the table of this
 * design's rows, writes CSV and JSON with every design's.  Returns 0, or -1
 * when the files could not be written. */
void bench_begin(bench_ctx *c, const char *workload);
int bench_end(bench_ctx *c);

/* Counts a failure of a check that prints its own message. */
void bench_fail(bench_ctx *c, const char *fmt, ...);

#endif
