/* defaults.h — every size, count and load factor hive-bench uses, per backend,
 * in one place.  `hive-bench all` uses the full set, `hive-bench quick` the
 * quick one; --n, --runs and --rounds override single figures.
 *
 * Budgets: GPU full ~3-7 min on an H100 (docs/bench.md, "Run time"), GPU
 * quick < 1 min, CPU quick ~1.5-2.5 min on a 2-core machine (limit: 5). */
#ifndef HIVE_BENCH_DEFAULTS_H
#define HIVE_BENCH_DEFAULTS_H

#include <stdint.h>

#define BENCH_DEFAULT_RUNS 5      /* timed runs per point, after one warm-up */
#define BENCH_DEFAULT_SEED 0x48495645ull
#define BENCH_DEFAULT_OUT "bench/results/latest"

/* Load factors of the balanced workload (Hive §V-C: 0.95 is Hive's maximum). */
#define BENCH_BALANCED_LF_MAX 2
/* Peak load of the mixed workload's table (Hive's maximum, as in Fig. 8). */
#define BENCH_MIXED_LF 0.95
/* The mixed batch: insert : find : erase (Hive Fig. 8). */
#define BENCH_MIXED_INSERT 0.5
#define BENCH_MIXED_FIND 0.3
/* Load sweep: 5%, 10%, ... 90% (WarpSpeed §6.3). */
#define BENCH_LOADSWEEP_STEP 0.05
#define BENCH_LOADSWEEP_POINTS 18
/* Aging: fill, then per round insert/erase/find/miss this fraction each. */
#define BENCH_AGING_FILL 0.85
#define BENCH_AGING_SLICE 0.01
/* YCSB: Zipfian constant, table slots per record (WarpSpeed: 1.2). */
#define BENCH_YCSB_THETA 0.99
#define BENCH_YCSB_SLACK 1.2
/* Resize: the growing table starts at this many slots. */
#define BENCH_RESIZE_START 1024u
/* Scaling: load of every point; capacities grow by this factor. */
#define BENCH_SCALING_LF 0.9
/* Steps: load factors 0.55, 0.60, ... 0.95, 0.97 (Hive Fig. 9). */
#define BENCH_STEPS_POINTS 10
/* cpu-compare: hive's load factor (initial_capacity = N / 0.9). */
#define BENCH_COMPARE_LF 0.9
/* cache (HierarchicalKV's benchmark shape): fill an empty cache to each load
 * with insert_or_assign; at 1.0, top up with new keys until size/capacity >=
 * BENCH_CACHE_FULL (at most BENCH_CACHE_TOPUP x capacity keys in all). */
#define BENCH_CACHE_NLF 3
#define BENCH_CACHE_LFS {0.5, 0.75, 1.0}
#define BENCH_CACHE_FULL 0.999
#define BENCH_CACHE_TOPUP 4
#define BENCH_CACHE_HIT 0.6 /* the hit mix: share of keys from the last batch (HKV: 0.6) */
#define BENCH_CACHE_DUAL 1  /* 1: load 1.0 again with dual_bucket = 1 */
#define BENCH_CACHE_MAX_DIMS 8
/* cache-hitrate (WarpSpeed's cache test): cache sizes as fractions of the
 * backing store's records; the Zipf constant; untimed warm-up accesses and
 * timed accesses, as multiples of the records. */
#define BENCH_HITRATE_NSIZES 9
#define BENCH_HITRATE_SIZES {0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7}
#define BENCH_HITRATE_ZIPF 0.99
#define BENCH_HITRATE_WARM 1.0
#define BENCH_HITRATE_OPS 2.0
/* probes (the probe model): load points of one fill; absent keys per point
 * (at most, and at most the keys present). */
#define BENCH_PROBES_NLF 6
#define BENCH_PROBES_LFS {0.5, 0.6, 0.7, 0.8, 0.9, 0.95}
#define BENCH_PROBES_ABSENT (1u << 20)
/* caching (a dictionary table before a backing store): the cache holds lf x
 * capacity keys at most (FIFO eviction by hive_erase); the store has
 * BENCH_CACHING_STORE x capacity records; untimed warm-up accesses and timed
 * accesses as multiples of the capacity; Zipf constant. */
#define BENCH_CACHING_NLF 4
#define BENCH_CACHING_LFS {0.5, 0.7, 0.9, 0.95}
#define BENCH_CACHING_STORE 4
#define BENCH_CACHING_WARM 2
#define BENCH_CACHING_OPS 2
#define BENCH_CACHING_ZIPF 0.99
/* sptc (sparse tensor contraction): tensors X (I x J) and Y (J x K) of nnz
 * nonzeros each, contracted over J; the output table's load at its exact
 * size (its capacity = output nonzeros / this). */
#define BENCH_SPTC_OUT_LF 0.8
#define BENCH_SPTC_Y_LF 0.8

/* tiered (the two-level table): the hot tier's share of the records; the
 * Zipf constant; untimed warm-up and timed queries per point, as multiples
 * of the records. */
#define BENCH_TIERED_HOT 0.10
#define BENCH_TIERED_ZIPF 0.99
#define BENCH_TIERED_WARM 0.25
#define BENCH_TIERED_OPS 1.0
#define BENCH_TIERED_ONE_IN 8 /* the tiered8 target's promote_one_in */

/* Fraction of free GPU memory (cudaMemGetInfo) the scaling workload may plan for. */
#define BENCH_GPU_MEM_USE 0.85
/* Fraction of physical memory the CPU scaling workload may plan for. */
#define BENCH_CPU_MEM_USE 0.5

typedef struct bench_defaults {
    const char *name;
    int balanced_log2_lo, balanced_log2_hi; /* keys 2^lo .. 2^hi */
    int balanced_nlf;
    double balanced_lf[BENCH_BALANCED_LF_MAX];
    int mixed_log2_lo, mixed_log2_hi;       /* ops per batch */
    uint64_t loadsweep_slots;
    uint64_t aging_slots;
    uint32_t aging_rounds;
    uint64_t ycsb_records;                  /* = operations of the run phase */
    uint64_t resize_keys;
    uint32_t resize_batches;                /* the keys go in this many hive_insert calls */
    uint64_t scaling_min, scaling_max;      /* slots; max is also bounded by memory */
    uint64_t steps_slots;
    uint64_t adversarial_buckets;
    uint64_t compare_keys;
    uint64_t cache_slots;                   /* cache: capacity */
    uint64_t cache_batch;                   /* cache, cache-hitrate: keys per call */
    int cache_ndims;
    uint32_t cache_dims[BENCH_CACHE_MAX_DIMS]; /* cache: floats per value */
    uint64_t hitrate_records;               /* cache-hitrate: backing-store records */
    uint64_t probes_slots;                  /* probes: table (and model) slots */
    uint64_t caching_slots;                 /* caching: table slots */
    uint64_t caching_batch;                 /* caching: accesses per batch */
    uint64_t sptc_nnz;                      /* sptc: nonzeros of each tensor */
    uint64_t async_keys;                    /* async: keys in the table the batches look up */
    uint64_t shard_keys;                    /* shard: keys per GPU (weak scaling); 4x that in all
                                               (strong scaling) */
    uint64_t tiered_records;                /* tiered: records (all loaded), batches of cache_batch */
} bench_defaults;

/* H100: tables well past the 50 MB L2 from 2^23 keys on (64 MB at KV32). */
static const bench_defaults BENCH_DEFAULTS_CUDA = {
    "cuda", 20, 26, 2, {0.95, 0.90}, 20, 26,
    100000000ull,      /* loadsweep: WarpSpeed's 1e8 slots */
    100000000ull, 1000, /* aging: 1e8 slots, 1,000 rounds */
    100000000ull,      /* ycsb: 1e8 records */
    1ull << 26, 32,    /* resize */
    10000000ull, 1000000000000ull, /* scaling: 1e7 slots up to what memory allows
                                       (80 GB: 2e9 slots at KV32 and at KV64) */
    1ull << 26,        /* steps */
    1000000ull,        /* adversarial: WarpSpeed's 1e6 buckets */
    1ull << 22,
    1ull << 26, 1ull << 20, 4, {1, 8, 32, 64}, /* cache: HKV's 64M slots, 1M-key batches
                                                  (dim 64: 16 GiB of values) */
    1ull << 22,        /* cache-hitrate: 2^22 records, 3 policies x 2 streams x 9 sizes: ~45 s on
                          an H200 at 9732c47+wip, 40 of them the Zipf write-back's repeated keys
                          (docs/bench.md); 2^24 once repeats are cheap */
    1ull << 26,        /* probes: 2^26 slots (the model runs on the host) */
    1ull << 24, 1ull << 20, /* caching: 2^24 slots (a store of 2^26 records), 2^20 accesses
                                a batch: 512 batches with host work between them */
    1ull << 23,        /* sptc: 2^23 nonzeros a tensor, ~2^25 products (sorted on the host
                          for the reference) */
    1ull << 24,        /* async: batches of 2^16..2^20 keys into a table of 2^24 */
    1ull << 26,        /* shard: 2^26 keys a GPU, 2^28 in all for strong scaling */
    1ull << 24};       /* tiered: 2^24 records, a hot tier of 2^24 / 10 */

static const bench_defaults BENCH_DEFAULTS_CUDA_QUICK = {
    "cuda-quick", 22, 24, 1, {0.95, 0.0}, 22, 24,
    1ull << 24,
    1ull << 24, 100,
    1ull << 22,
    1ull << 22, 32,
    10000000ull, 100000000ull,
    1ull << 22,
    1000000ull,
    1ull << 22,
    1ull << 22, 1ull << 18, 2, {1, 64},
    1ull << 20,
    1ull << 22,
    1ull << 20, 1ull << 16, /* caching: host work between batches, kept to seconds */
    1ull << 20,
    1ull << 22,
    1ull << 22,
    1ull << 22};

/* A 2-core machine: sizes a CPU backend finishes in minutes. */
static const bench_defaults BENCH_DEFAULTS_CPU = {
    "cpu", 16, 22, 2, {0.95, 0.90}, 16, 22,
    1ull << 22,
    1ull << 22, 1000,
    1ull << 22,
    1ull << 22, 32,
    10000000ull, 100000000ull,
    1ull << 22,
    1ull << 16,
    1ull << 22,
    1ull << 20, 1ull << 16, 4, {1, 8, 32, 64},
    1ull << 20,
    1ull << 22,
    1ull << 20, 1ull << 16,
    1ull << 20,
    1ull << 22,
    1ull << 20,
    1ull << 20};

static const bench_defaults BENCH_DEFAULTS_CPU_QUICK = {
    "cpu-quick", 18, 20, 1, {0.95, 0.0}, 18, 20,
    1ull << 20,
    1ull << 20, 100,
    1ull << 20,
    1ull << 20, 16,
    10000000ull, 10000000ull,
    1ull << 20,
    1ull << 14,
    1ull << 21,
    1ull << 16, 1ull << 12, 2, {1, 32},
    1ull << 18,
    1ull << 18,
    1ull << 16, 1ull << 12,
    1ull << 16,
    1ull << 20,
    1ull << 22,
    1ull << 17};

#endif
