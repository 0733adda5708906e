/* workloads.h — one entry point per workload (bench/workloads/wl_*.c).  Each runs its
 * points, verifies every run, adds result rows, and returns 0, or -1 when it
 * had to stop (an error it printed).  Verification failures are counted in
 * c->failures and do not stop a workload. */
#ifndef HIVE_BENCH_WORKLOADS_H
#define HIVE_BENCH_WORKLOADS_H

#include "harness/harness.h"

int wl_limits(bench_ctx *c);      /* GPU only: copy, gathers, atomicCAS */
int wl_balanced(bench_ctx *c);    /* bulk insert / find / negative find, 2^20..2^26 keys */
int wl_mixed(bench_ctx *c);       /* insert:find:erase 0.5:0.3:0.2 in one hive_apply */
int wl_loadsweep(bench_ctx *c);   /* WarpSpeed's 5%..90% load sweep */
int wl_aging(bench_ctx *c);       /* 85% full, rounds of 1% churn */
int wl_ycsb(bench_ctx *c);        /* YCSB A/B/C, Zipfian 0.99 */
int wl_resize(bench_ctx *c);      /* growth vs pre-sized; split / merge rates */
int wl_scaling(bench_ctx *c);     /* 1e7 slots up to what memory allows, 90% load */
int wl_adversarial(bench_ctx *c); /* WarpSpeed's duplicate-key race test */
int wl_steps(bench_ctx *c);       /* the four insert steps, load 0.55..0.97 */
int wl_probes(bench_ctx *c);      /* buckets, sectors, lines per op: the probe model */
int wl_caching(bench_ctx *c);     /* dictionary table before a backing store: hit rate */
int wl_async(bench_ctx *c);
int wl_shard(bench_ctx *c);       /* the sharded table over the GPUs of the machine (libhive_shard) */       /* small finds: synchronous vs asynchronous calls */
int wl_sptc(bench_ctx *c);        /* sparse tensor contraction, checked against the CPU */
int wl_cpu_compare(bench_ctx *c); /* CPU backend vs oneTBB, GLib GHashTable and ck_ht */
int wl_cache(bench_ctx *c);       /* cache table, HKV's benchmark: loads 0.5/0.75/1.0 */
int wl_cache_hitrate(bench_ctx *c); /* cache in front of a backing store: hit rates */
int wl_tiered(bench_ctx *c);      /* two-level table vs CPU and GPU tables: uniform, Gaussian, Zipf */

#endif
