/* main.c — hive-bench: the workload list, the backend choice, and the run
 * (the options are harness/options.c's).
 *
 *   hive-bench [options] [workload ...]      (default: quick)
 *
 * Exit status: 0 every run verified; 1 a verification failed (the
 * adversarial test's FAIL included) or a workload stopped on an error;
 * 2 bad usage or no usable backend. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/designs.h"
#include "harness/options.h"
#include "workloads/workloads.h"

typedef struct workload {
    const char *name;
    int (*run)(bench_ctx *c);
    int in_all;        /* part of `all` and `quick` */
    int per_design;    /* runs once per design of --design (a dictionary table's workload) */
    const char *about;
} workload;

static const workload workloads[] = {
    {"limits", wl_limits, 1, 0, "GPU ceilings: copy bandwidth, random line/sector gathers, atomicCAS"},
    {"balanced", wl_balanced, 1, 1, "bulk insert / find / negative find at load 0.95 and 0.9"},
    {"mixed", wl_mixed, 1, 1, "one hive_apply of insert:find:erase = 0.5:0.3:0.2 (Hive Fig. 8)"},
    {"loadsweep", wl_loadsweep, 1, 1, "fresh table filled to 5%..90%: insert, find, miss, erase"},
    {"aging", wl_aging, 1, 1, "85% full, rounds of 1% insert/erase/find/miss in one batch"},
    {"ycsb", wl_ycsb, 1, 1, "YCSB A/B/C, Zipfian 0.99: load and run phases"},
    {"resize", wl_resize, 1, 1, "growing vs pre-sized inserts; split and merge rates"},
    {"scaling", wl_scaling, 1, 1, "from 1e7 slots up to what memory allows, at 90% load"},
    {"steps", wl_steps, 1, 1, "share of inserts per insert step, load 0.55..0.97"},
    {"adversarial", wl_adversarial, 1, 1, "WarpSpeed's duplicate-key race test (PASS/FAIL)"},
    {"probes", wl_probes, 1, 1, "buckets, sectors, lines read per find/miss/insert (a model)"},
    {"caching", wl_caching, 1, 1, "table before a backing store, FIFO evict-by-erase: hit rate"},
    {"sptc", wl_sptc, 1, 1, "sparse tensor contraction: build, probe, accumulate (exact check)"},
    {"async", wl_async, 1, 1, "finds, upserts of 2^16..2^20 keys a call: synchronous vs asynchronous"},
    {"cpu-compare", wl_cpu_compare, 1, 1, "CPU backend vs oneTBB, GLib GHashTable and ck_ht (CPU only)"},
    {"cache", wl_cache, 1, 0, "cache table, HKV's shape: fill to 0.5/0.75/1.0, find, evicting inserts"},
    {"cache-hitrate", wl_cache_hitrate, 1, 0, "cache before a backing store: hit rate, LRU/LFU, Zipf"},
#ifdef BENCH_WITH_SHARD
    {"shard", wl_shard, 0, 0, "the table sharded over 1, 2, 4.. GPUs (NCCL): weak and strong scaling"},
#endif
    {"tiered", wl_tiered, 1, 0, "two-level table (hot cache + cold CPU table) vs CPU and GPU tables"},
};
#define NWORKLOADS (sizeof workloads / sizeof workloads[0])

static const workload *find_workload(const char *name)
{
    for (size_t i = 0; i < NWORKLOADS; i++)
        if (strcmp(workloads[i].name, name) == 0)
            return &workloads[i];
    return NULL;
}

/* Whether a run with --backend `backend` takes the CUDA backend: for cuda,
 * and for auto when a GPU is usable.  *refused: why a cuda run cannot start
 * (NULL when it can). */
static int choose_gpu(const char *backend, const char **refused)
{
    *refused = NULL;
    if (strcmp(backend, "cpu") == 0)
        return 0;
    int gpus = 0;
#ifdef BENCH_WITH_CUDA
    gpus = bench_gpu_count();
#endif
    if (strcmp(backend, "cuda") == 0) {
#ifdef BENCH_WITH_CUDA
        if (gpus == 0)
            *refused = "no usable GPU found";
#else
        *refused = "this build has no CUDA (HIVE_WITH_CUDA=OFF)";
#endif
        return 1;
    }
    return gpus > 0;
}

static const char *build_cuda_note(void)
{
#ifdef BENCH_WITH_CUDA
    return "";
#else
    return " (this build has no CUDA)";
#endif
}

static void usage(FILE *f, const char *backend)
{
    fprintf(f,
            "usage: hive-bench [options] [workload ...]\n"
            "\n"
            "workloads (default: quick):\n");
    for (size_t i = 0; i < NWORKLOADS; i++)
        fprintf(f, "  %-13s %s\n", workloads[i].name, workloads[i].about);
    fprintf(f,
            "  %-13s every workload with the full default sizes\n"
            "  %-13s every workload with small sizes (GPU < 2 min, 2-core CPU < 5 min)\n"
            "\n",
            "all", "quick");
    bench_options_usage(f);

    const char *refused = NULL;
    int gpu = choose_gpu(backend, &refused);
    fprintf(f, "\nsizes for the ");
    if (strcmp(backend, "auto") != 0)
        fprintf(f, "%s backend (--backend %s)", gpu ? "CUDA" : "CPU", backend);
    else if (gpu)
        fprintf(f, "CUDA backend (a GPU is usable)");
    else
        fprintf(f, "CPU backend (no GPU found%s)",
#ifdef BENCH_WITH_CUDA
                ""
#else
                "; this build has no CUDA"
#endif
        );
    fprintf(f, ", from bench/defaults.h:\n");
    if (refused != NULL)
        fprintf(f, "  (a run stops at start: %s)\n", refused);
    bench_defaults_usage(f, gpu ? &BENCH_DEFAULTS_CUDA : &BENCH_DEFAULTS_CPU,
                         gpu ? &BENCH_DEFAULTS_CUDA_QUICK : &BENCH_DEFAULTS_CPU_QUICK, gpu);
}

static void version(FILE *f)
{
    fprintf(f, "hive-bench %d.%d.%d, commit %s, %s\n", HIVE_VERSION_MAJOR, HIVE_VERSION_MINOR,
            HIVE_VERSION_PATCH, bench_built_commit(),
#ifdef BENCH_WITH_CUDA
            "CPU and CUDA backends"
#else
            "CPU backend only (built without CUDA)"
#endif
    );
}

/* The results folder as a path from the root, for the last line of a run. */
static void print_out_dir(const char *dir)
{
    char cwd[4096];
    if (dir[0] != '/' && getcwd(cwd, sizeof cwd) != NULL)
        printf("hive-bench: results in %s/%s\n", cwd, dir);
    else
        printf("hive-bench: results in %s\n", dir);
}

int main(int argc, char **argv)
{
    bench_options o;
    setvbuf(stdout, NULL, _IOLBF, 0); /* tables and progress lines interleave in logs */
    if (bench_options_parse(&o, argc, argv) != 0)
        return 2;
    if (o.help) {
        usage(stdout, o.backend);
        return 0;
    }
    if (o.version) {
        version(stdout);
        return 0;
    }

    bench_ctx c;
    memset(&c, 0, sizeof c);
    c.key_width = o.key_width;
    c.seed = o.seed;
    c.runs = o.runs;
    c.n = o.n;
    c.rounds = o.rounds;
    c.threads = o.threads;
    c.bucket_slots = o.bucket_slots;
    c.lanes_per_op = o.lanes_per_op;
    c.ndims = o.ndims;
    memcpy(c.dims, o.dims, sizeof c.dims);
    c.batch = o.batch;
    c.cache_hbm_fraction = o.cache_hbm_fraction;
    c.cache_slots = o.cache_slots;
    c.hot_fraction = o.hot_fraction;
    c.pageable = o.pageable;
    c.write_back = o.write_back;
    c.hot_single_bucket = o.hot_single_bucket;
    c.allocator = o.allocator;
    c.absent_filter_bits = o.absent_filter_bits;
    c.out_dir = o.out_dir;
    const workload *list[BENCH_MAX_NAMES + 1];
    size_t nlist = 0;
    int all = 0, quick = o.quick;
    for (int i = 0; i < o.nnames; i++) {
        const char *a = o.names[i];
        if (strcmp(a, "all") == 0) {
            all = 1;
        } else if (strcmp(a, "quick") == 0) {
            all = 1;
            quick = 1;
        } else {
            const workload *w = find_workload(a);
            if (w == NULL) {
                fprintf(stderr, "hive-bench: unknown workload '%s' (see --help)\n", a);
                return 2;
            }
            list[nlist++] = w;
        }
    }
    if (nlist == 0 && !all) {
        all = 1;
        quick = 1;
    }
    if (c.runs < 5)
        fprintf(stderr, "hive-bench: note: --runs %d is below the 5 runs docs/bench.md asks "
                        "for a published figure\n",
                c.runs);

    /* the backend */
    const char *refused = NULL;
    c.gpu = choose_gpu(o.backend, &refused);
    if (refused != NULL) {
        fprintf(stderr, "hive-bench: --backend cuda: %s\n", refused);
        return 2;
    }
    if (!c.gpu && strcmp(o.backend, "auto") == 0)
        printf("no GPU found: running on the CPU backend with smaller defaults%s\n",
               build_cuda_note());
    c.backend = c.gpu ? HIVE_BACKEND_CUDA : HIVE_BACKEND_CPU;
    c.quick = quick;
    c.def = c.gpu ? (quick ? &BENCH_DEFAULTS_CUDA_QUICK : &BENCH_DEFAULTS_CUDA)
                  : (quick ? &BENCH_DEFAULTS_CPU_QUICK : &BENCH_DEFAULTS_CPU);
    if (bench_ctx_init(&c) != 0) {
        fprintf(stderr, "hive-bench: cannot start the %s backend\n", c.gpu ? "CUDA" : "CPU");
        return 2;
    }
    /* the designs: the one named, or each of the table's that this backend
     * can create (the others are skipped with a line each) */
    const bench_design *designs[16];
    char geometries[16][sizeof c.geometry];
    size_t ndesigns = 0;
    int design_all = strcmp(o.design, "all") == 0;
    for (size_t i = 0; i < bench_ndesigns && ndesigns < 16; i++) {
        const bench_design *d = &bench_designs[i];
        if (!design_all && strcmp(d->name, o.design) != 0)
            continue;
        c.design = d->design;
        c.design_name = d->name;
        if (bench_probe_geometry(&c) != 0) {
            if (design_all) {
                fprintf(stderr, "hive-bench: design %s: the %s backend cannot create its tables "
                                "with this run's config (see above): skipped\n",
                        d->name, c.gpu ? "CUDA" : "CPU");
                continue;
            }
            fprintf(stderr, "hive-bench: the %s backend cannot create a table with this run's "
                            "config (--kv, --geometry, --design): see above\n",
                    c.gpu ? "CUDA" : "CPU");
            bench_ctx_finish(&c);
            return 2;
        }
        memcpy(geometries[ndesigns], c.geometry, sizeof c.geometry);
        designs[ndesigns++] = d;
    }
    if (ndesigns == 0) {
        fprintf(stderr, "hive-bench: no design can run on the %s backend with this config\n",
                c.gpu ? "CUDA" : "CPU");
        bench_ctx_finish(&c);
        return 2;
    }
    char design_list[256] = "";
    for (size_t d = 0; d < ndesigns; d++) {
        size_t len = strlen(design_list);
        snprintf(design_list + len, sizeof design_list - len, "%s%s", d ? "," : "",
                 designs[d]->name);
    }

    if (all) {
        nlist = 0;
        for (size_t i = 0; i < NWORKLOADS; i++) {
            if (!workloads[i].in_all)
                continue;
            if (c.gpu && workloads[i].run == wl_cpu_compare)
                continue; /* CPU only */
            if (!c.gpu && workloads[i].run == wl_limits)
                continue; /* GPU only */
            list[nlist++] = &workloads[i];
        }
    } else if (c.gpu && list[0]->run != wl_limits) {
        /* every GPU figure is divided by limits measured in the same run */
        int has = 0;
        for (size_t i = 0; i < nlist; i++)
            has |= list[i]->run == wl_limits;
        if (!has && nlist < sizeof list / sizeof list[0]) {
            memmove(list + 1, list, nlist * sizeof list[0]);
            list[0] = find_workload("limits");
            nlist++;
        }
    }

    printf("hive-bench: %s backend (%s), KV%u, design%s %s, geometry %s%s, defaults '%s', %d runs + "
           "1 warm-up, seed %llu, commit %s, results in %s\n",
           c.gpu ? "CUDA" : "CPU", c.device, c.bits, ndesigns > 1 ? "s" : "", design_list,
           geometries[0],
           c.bucket_slots ? "" : " (default)", c.def->name, c.runs, (unsigned long long)c.seed,
           c.commit, c.out_dir);
    for (size_t i = 0; i < nlist; i++) {
        size_t passes = list[i]->per_design ? ndesigns : 1;
        for (size_t d = 0; d < passes; d++) {
            c.design = designs[d]->design;
            c.design_name = list[i]->per_design ? designs[d]->name : "";
            memcpy(c.geometry, geometries[d], sizeof c.geometry);
            c.keep_rows = d > 0; /* one CSV and JSON for every design */
            if (list[i]->run(&c) != 0) {
                c.errors++;
                fprintf(stderr, "hive-bench: %s stopped on an error%s%s\n", list[i]->name,
                        c.design_name[0] ? " with design " : "", c.design_name);
                if (c.gpu && list[i]->run == wl_limits)
                    c.limits_done = 0;
            }
        }
    }
    printf("\nhive-bench: %zu workloads in %.1f s; %d verification failures, %d workloads "
           "stopped on errors\n",
           nlist, bench_now() - c.t0, c.failures, c.errors);
    print_out_dir(c.out_dir);
    bench_ctx_finish(&c);
    return c.failures || c.errors ? 1 : 0;
}
