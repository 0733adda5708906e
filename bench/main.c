/* main.c — hive-bench: options, backend choice, and the subcommand dispatch.
 *
 *   hive-bench [options] [workload ...]      (default: quick)
 *
 * Exit status: 0 every run verified; 1 a verification failed (the
 * adversarial test's FAIL included) or a workload stopped on an error;
 * 2 bad usage or no usable backend. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/workloads.h"

typedef struct workload {
    const char *name;
    int (*run)(bench_ctx *c);
    int in_all;        /* part of `all` and `quick` */
    const char *about;
} workload;

static const workload workloads[] = {
    {"limits", wl_limits, 1, "GPU ceilings: copy bandwidth, random line/sector gathers, atomicCAS"},
    {"balanced", wl_balanced, 1, "bulk insert / find / negative find, 2^20..2^26 keys, load 0.95 and 0.9"},
    {"mixed", wl_mixed, 1, "one hive_apply of insert:find:erase = 0.5:0.3:0.2 (Hive Fig. 8)"},
    {"loadsweep", wl_loadsweep, 1, "fresh table filled to 5%..90%: insert, find, miss, erase"},
    {"aging", wl_aging, 1, "85% full, rounds of 1% insert/erase/find/miss in one batch"},
    {"ycsb", wl_ycsb, 1, "YCSB A/B/C, Zipfian 0.99: load and run phases"},
    {"resize", wl_resize, 1, "growing vs pre-sized inserts; split and merge rates"},
    {"scaling", wl_scaling, 1, "1e7 slots up to what memory allows, at 90% load"},
    {"steps", wl_steps, 1, "share of inserts per insert step, load 0.55..0.97"},
    {"adversarial", wl_adversarial, 1, "WarpSpeed's duplicate-key race test (PASS/FAIL)"},
    {"cpu-compare", wl_cpu_compare, 1, "CPU backend vs GLib GHashTable and ck_ht (CPU only)"},
};
#define NWORKLOADS (sizeof workloads / sizeof workloads[0])

static void usage(FILE *f)
{
    fprintf(f,
            "usage: hive-bench [options] [workload ...]\n"
            "\n"
            "workloads (default: quick):\n");
    for (size_t i = 0; i < NWORKLOADS; i++)
        fprintf(f, "  %-12s %s\n", workloads[i].name, workloads[i].about);
    fprintf(f,
            "  %-12s every workload with the full default sizes\n"
            "  %-12s every workload with small sizes (GPU < 2 min, 2-core CPU < 5 min)\n"
            "\n"
            "options:\n"
            "  --backend cpu|cuda|auto  (auto: CUDA if a GPU is present, else the CPU backend)\n"
            "  --kv 32|64               key and value width (default 32)\n"
            "  --n N                    the workload's main size instead of its defaults\n"
            "                           (keys, ops, slots, records or buckets: see docs/bench.md);\n"
            "                           accepts 1e8, 2^26, 4M, 1G\n"
            "  --seed S                 base seed (default %llu)\n"
            "  --runs R                 timed runs per point, after one warm-up (default %d)\n"
            "  --rounds R               aging rounds (default 1000; quick 100)\n"
            "  --threads T              CPU backend worker threads (default: one per core)\n"
            "  --geometry SxT           S slots per bucket (4, 8, 16, 32) and T lanes per key (1 .. S;\n"
            "                           the CPU backend runs a key on one thread): e.g. 32x32, the\n"
            "                           Hive paper's warp per bucket (default: the backend's own)\n"
            "  --quick                  quick sizes for the named workloads\n"
            "  --out DIR                results folder (default %s)\n"
            "  --help\n",
            "all", "quick", (unsigned long long)BENCH_DEFAULT_SEED, BENCH_DEFAULT_RUNS,
            BENCH_DEFAULT_OUT);
}

/* 12345, 1e8, 2^26, 4M, 1G (binary suffixes K/M/G = 2^10/2^20/2^30). */
static int parse_count(const char *s, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    const char *caret = strchr(s, '^');
    if (caret != NULL) {
        unsigned long long base = strtoull(s, &end, 10);
        if (end != caret)
            return -1;
        unsigned long long e = strtoull(caret + 1, &end, 10);
        if (*end != '\0' || e > 63)
            return -1;
        double v = pow((double)base, (double)e);
        if (v >= 18446744073709551615.0)
            return -1;
        *out = (uint64_t)v;
        return 0;
    }
    double v = strtod(s, &end);
    if (end == s || errno != 0 || v < 0)
        return -1;
    if (*end == 'K' || *end == 'k')
        v *= 1024.0, end++;
    else if (*end == 'M' || *end == 'm')
        v *= 1048576.0, end++;
    else if (*end == 'G' || *end == 'g')
        v *= 1073741824.0, end++;
    if (*end != '\0' || v >= 18446744073709551615.0)
        return -1;
    *out = (uint64_t)llround(v);
    return 0;
}

/* "SxT", two positive numbers.  Which of them make a table is hive_create's
 * rule (and, on the GPU, which kernels were built): bench_probe_geometry asks. */
static int parse_geometry(const char *s, uint32_t *slots, uint32_t *lanes)
{
    char *end = NULL;
    errno = 0;
    unsigned long S = strtoul(s, &end, 10);
    if (end == s || *s == '-' || (*end != 'x' && *end != 'X') || errno != 0)
        return -1;
    const char *t = end + 1;
    unsigned long T = strtoul(t, &end, 10);
    if (end == t || *t == '-' || *end != '\0' || errno != 0)
        return -1;
    if (S < 1 || T < 1 || S > UINT32_MAX || T > UINT32_MAX) /* 0 would mean "the default" */
        return -1;
    *slots = (uint32_t)S;
    *lanes = (uint32_t)T;
    return 0;
}

static const workload *find_workload(const char *name)
{
    for (size_t i = 0; i < NWORKLOADS; i++)
        if (strcmp(workloads[i].name, name) == 0)
            return &workloads[i];
    return NULL;
}

int main(int argc, char **argv)
{
    bench_ctx c;
    memset(&c, 0, sizeof c);
    setvbuf(stdout, NULL, _IOLBF, 0); /* tables and progress lines interleave in logs */
    c.key_width = HIVE_KV32;
    c.seed = BENCH_DEFAULT_SEED;
    c.runs = BENCH_DEFAULT_RUNS;
    c.out_dir = BENCH_DEFAULT_OUT;
    const char *backend = "auto";
    const workload *list[64];
    size_t nlist = 0;
    int all = 0, quick = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t num = 0;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--quick") == 0) {
            quick = 1;
        } else if (strncmp(a, "--", 2) == 0) {
            if (v == NULL) {
                fprintf(stderr, "hive-bench: %s needs a value\n", a);
                return 2;
            }
            i++;
            if (strcmp(a, "--backend") == 0) {
                if (strcmp(v, "cpu") && strcmp(v, "cuda") && strcmp(v, "auto")) {
                    fprintf(stderr, "hive-bench: --backend takes cpu, cuda or auto\n");
                    return 2;
                }
                backend = v;
            } else if (strcmp(a, "--kv") == 0) {
                if (strcmp(v, "32") == 0)
                    c.key_width = HIVE_KV32;
                else if (strcmp(v, "64") == 0)
                    c.key_width = HIVE_KV64;
                else {
                    fprintf(stderr, "hive-bench: --kv takes 32 or 64\n");
                    return 2;
                }
            } else if (strcmp(a, "--out") == 0) {
                c.out_dir = v;
            } else if (strcmp(a, "--geometry") == 0) {
                if (parse_geometry(v, &c.bucket_slots, &c.lanes_per_op) != 0) {
                    fprintf(stderr, "hive-bench: --geometry takes SxT: S slots per bucket and "
                                    "T lanes per key, e.g. 32x32 (got '%s')\n", v);
                    return 2;
                }
            } else if (parse_count(v, &num) != 0) {
                fprintf(stderr, "hive-bench: %s: cannot read '%s' as a number\n", a, v);
                return 2;
            } else if (strcmp(a, "--n") == 0) {
                if (num < 2) {
                    fprintf(stderr, "hive-bench: --n must be at least 2\n");
                    return 2;
                }
                c.n = num;
            } else if (strcmp(a, "--seed") == 0) {
                c.seed = num;
            } else if (strcmp(a, "--runs") == 0) {
                if (num < 1 || num > BENCH_MAX_RUNS) {
                    fprintf(stderr, "hive-bench: --runs takes 1..%d\n", BENCH_MAX_RUNS);
                    return 2;
                }
                c.runs = (int)num;
            } else if (strcmp(a, "--rounds") == 0) {
                if (num < 1 || num > 100000000) {
                    fprintf(stderr, "hive-bench: --rounds takes 1..1e8\n");
                    return 2;
                }
                c.rounds = (uint32_t)num;
            } else if (strcmp(a, "--threads") == 0) {
                if (num > 4096) {
                    fprintf(stderr, "hive-bench: --threads takes 0..4096\n");
                    return 2;
                }
                c.threads = (uint32_t)num;
            } else {
                fprintf(stderr, "hive-bench: unknown option %s (see --help)\n", a);
                return 2;
            }
        } else if (strcmp(a, "all") == 0) {
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
            if (nlist < sizeof list / sizeof list[0])
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
    int gpus = 0;
#ifdef BENCH_WITH_CUDA
    gpus = bench_gpu_count();
#endif
    if (strcmp(backend, "cuda") == 0) {
#ifndef BENCH_WITH_CUDA
        fprintf(stderr, "hive-bench: --backend cuda: this build has no CUDA (HIVE_WITH_CUDA=OFF)\n");
        return 2;
#endif
        if (gpus == 0) {
            fprintf(stderr, "hive-bench: --backend cuda: no usable GPU found\n");
            return 2;
        }
        c.gpu = 1;
    } else if (strcmp(backend, "auto") == 0) {
        c.gpu = gpus > 0;
        if (!c.gpu)
            printf("no GPU found: running on the CPU backend with smaller defaults%s\n",
#ifdef BENCH_WITH_CUDA
                   ""
#else
                   " (this build has no CUDA)"
#endif
            );
    }
    c.backend = c.gpu ? HIVE_BACKEND_CUDA : HIVE_BACKEND_CPU;
    c.quick = quick;
    c.def = c.gpu ? (quick ? &BENCH_DEFAULTS_CUDA_QUICK : &BENCH_DEFAULTS_CUDA)
                  : (quick ? &BENCH_DEFAULTS_CPU_QUICK : &BENCH_DEFAULTS_CPU);
    if (bench_ctx_init(&c) != 0) {
        fprintf(stderr, "hive-bench: cannot start the %s backend\n", c.gpu ? "CUDA" : "CPU");
        return 2;
    }
    if (bench_probe_geometry(&c) != 0) {
        fprintf(stderr, "hive-bench: the %s backend cannot create a table with this run's "
                        "config (--kv, --geometry): see above\n",
                c.gpu ? "CUDA" : "CPU");
        bench_ctx_finish(&c);
        return 2;
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

    printf("hive-bench: %s backend (%s), KV%u, geometry %s%s, defaults '%s', %d runs + 1 warm-up, "
           "seed %llu, commit %s, results in %s\n",
           c.gpu ? "CUDA" : "CPU", c.device, c.bits, c.geometry,
           c.bucket_slots ? "" : " (default)", c.def->name, c.runs, (unsigned long long)c.seed,
           c.commit, c.out_dir);
    for (size_t i = 0; i < nlist; i++) {
        if (list[i]->run(&c) != 0) {
            c.errors++;
            fprintf(stderr, "hive-bench: %s stopped on an error\n", list[i]->name);
            if (c.gpu && list[i]->run == wl_limits)
                c.limits_done = 0;
        }
    }
    printf("\nhive-bench: %zu workloads in %.1f s; %d verification failures, %d workloads "
           "stopped on errors\n",
           nlist, bench_now() - c.t0, c.failures, c.errors);
    bench_ctx_finish(&c);
    return c.failures || c.errors ? 1 : 0;
}
