/* options.c — hive-bench's command line (see options.h). */
#define _POSIX_C_SOURCE 200809L

#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "designs.h"
#include "harness.h"

enum {
    OPT_BACKEND = 256,
    OPT_KV,
    OPT_N,
    OPT_SEED,
    OPT_RUNS,
    OPT_ROUNDS,
    OPT_THREADS,
    OPT_GEOMETRY,
    OPT_DESIGN,
    OPT_DIM,
    OPT_BATCH,
    OPT_CACHE_HBM,
    OPT_CACHE_SLOTS,
    OPT_HOT_FRACTION,
    OPT_PAGEABLE,
    OPT_WRITE_BACK,
    OPT_HOT_SINGLE_BUCKET,
    OPT_ALLOCATOR,
    OPT_ABSENT_FILTER,
    OPT_QUICK,
    OPT_OUT,
    OPT_VERSION,
};

static const struct option long_options[] = {
    {"backend", required_argument, NULL, OPT_BACKEND},
    {"kv", required_argument, NULL, OPT_KV},
    {"n", required_argument, NULL, OPT_N},
    {"seed", required_argument, NULL, OPT_SEED},
    {"runs", required_argument, NULL, OPT_RUNS},
    {"rounds", required_argument, NULL, OPT_ROUNDS},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"geometry", required_argument, NULL, OPT_GEOMETRY},
    {"design", required_argument, NULL, OPT_DESIGN},
    {"dim", required_argument, NULL, OPT_DIM},
    {"batch", required_argument, NULL, OPT_BATCH},
    {"cache-hbm-fraction", required_argument, NULL, OPT_CACHE_HBM},
    {"cache-slots", required_argument, NULL, OPT_CACHE_SLOTS},
    {"hot-fraction", required_argument, NULL, OPT_HOT_FRACTION},
    {"pageable", no_argument, NULL, OPT_PAGEABLE},
    {"write-back", no_argument, NULL, OPT_WRITE_BACK},
    {"hot-single-bucket", no_argument, NULL, OPT_HOT_SINGLE_BUCKET},
    {"allocator", no_argument, NULL, OPT_ALLOCATOR},
    {"absent-filter", required_argument, NULL, OPT_ABSENT_FILTER},
    {"quick", no_argument, NULL, OPT_QUICK},
    {"out", required_argument, NULL, OPT_OUT},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

void bench_options_usage(FILE *f)
{
    fprintf(f,
            "options (--name=value or --name value):\n"
            "  --backend cpu|cuda|auto  (auto: CUDA if a GPU is present, else the CPU backend)\n"
            "  --kv 32|64               key and value width (default 32)\n"
            "  --n N                    the workload's main size instead of its defaults (the\n"
            "                           sizes below; docs/bench.md); accepts 1e8, 2^26, 4M, 1G\n"
            "  --seed S                 base seed (default %llu)\n"
            "  --runs R                 timed runs per point, after one warm-up (default %d)\n"
            "  --rounds R               aging rounds (default: the sizes below)\n"
            "  --threads T              CPU backend worker threads (default: one per core)\n"
            "  --geometry SxT           S slots per bucket (4, 8, 16, 32) and T lanes per key\n"
            "                           (1 .. S; the CPU backend runs a key on one thread): e.g.\n"
            "                           32x32, the Hive paper's warp per bucket (default: the\n"
            "                           backend's own)\n"
            "  --design NAME|all        the table design (hive_config.design, default hive;\n"
            "                           %s); all: each workload once per design\n"
            "  --dim D[,D...]           cache: floats per value, one point each (default: the\n"
            "                           sizes below)\n"
            "  --batch N                cache, cache-hitrate, caching, tiered: keys per call (default:\n"
            "                           below)\n"
            "  --cache-hbm-fraction F   cache: the values of the first F (0..1) of the slots in\n"
            "                           device memory, the rest in mapped host memory\n"
            "                           (value_hbm_bytes; default 1: all in device memory)\n"
            "  --cache-slots S          cache, cache-hitrate: slots per bucket (hive_cache_config.bucket_slots:\n"
            "                           8, 16, 32, 64 or 128; default: the library's)\n"
            "  --hot-fraction F         tiered: the hot tier's entries as a fraction (0..1] of the\n"
            "                           records (default 0.1)\n"
            "  --pageable               tiered: the query arrays from malloc on a GPU run too\n"
            "                           (default there: page-locked and mapped, which the hot\n"
            "                           tier reads and writes as they are)\n"
            "  --write-back             tiered: the two-level table's upserts write keys with hot\n"
            "                           copies in the hot tier alone (hive_tiered_config.write_back)\n"
            "  --hot-single-bucket      tiered: one bucket a key in the hot tier\n"
            "                           (hive_tiered_config.hot_dual_bucket = 0; default two)\n"
            "  --allocator              CUDA tables take their device memory through\n"
            "                           hive_config.allocator (cudaMallocAsync on the call's\n"
            "                           stream): their buckets move at each growth; the\n"
            "                           geometry reads \"SxT alloc\"\n"
            "  --absent-filter B        CPU tables keep an absent-key filter of B bits a slot\n"
            "                           (hive_config.absent_filter_bits: 4..16; default 0, none);\n"
            "                           the geometry reads \"SxT filter B\"\n"
            "  --quick                  quick sizes for the named workloads\n"
            "  --out DIR                results folder (default %s)\n"
            "  -h, --help               this text\n"
            "  --version                the version and commit of this build\n",
            (unsigned long long)BENCH_DEFAULT_SEED, BENCH_DEFAULT_RUNS, bench_design_names(),
            BENCH_DEFAULT_OUT);
}

/* 2^k for powers of two from 2^10, 1e7 or 2e9 for one digit and zeros, else
 * the number. */
static const char *fmt_count(char *out, size_t size, uint64_t v)
{
    if (v >= 1024 && (v & (v - 1)) == 0) {
        int k = 0;
        while ((1ull << k) != v)
            k++;
        snprintf(out, size, "2^%d", k);
        return out;
    }
    int e = 0;
    uint64_t m = v;
    while (m >= 10 && m % 10 == 0)
        m /= 10, e++;
    if (e >= 6 && m < 10)
        snprintf(out, size, "%llue%d", (unsigned long long)m, e);
    else
        snprintf(out, size, "%llu", (unsigned long long)v);
    return out;
}

/* One workload's default size in d, as --help prints it. */
static void fmt_size(char *out, size_t size, const bench_defaults *d, const char *workload)
{
    char a[24], b[24];
    if (strcmp(workload, "balanced") == 0) {
        int len = snprintf(out, size, "2^%d..2^%d, load", d->balanced_log2_lo,
                           d->balanced_log2_hi);
        for (int i = 0; i < d->balanced_nlf && len > 0 && (size_t)len < size; i++)
            len += snprintf(out + len, size - (size_t)len, "%s %.2f", i ? "," : "",
                            d->balanced_lf[i]);
    } else if (strcmp(workload, "mixed") == 0) {
        snprintf(out, size, "2^%d..2^%d", d->mixed_log2_lo, d->mixed_log2_hi);
    } else if (strcmp(workload, "loadsweep") == 0) {
        fmt_count(out, size, d->loadsweep_slots);
    } else if (strcmp(workload, "aging") == 0) {
        snprintf(out, size, "%s, %u rounds", fmt_count(a, sizeof a, d->aging_slots),
                 d->aging_rounds);
    } else if (strcmp(workload, "ycsb") == 0) {
        fmt_count(out, size, d->ycsb_records);
    } else if (strcmp(workload, "resize") == 0) {
        snprintf(out, size, "%s in %u calls", fmt_count(a, sizeof a, d->resize_keys),
                 d->resize_batches);
    } else if (strcmp(workload, "scaling") == 0) {
        if (d->scaling_max >= 1000000000000ull) /* no cap but memory */
            snprintf(out, size, "%s..what memory allows", fmt_count(a, sizeof a, d->scaling_min));
        else if (d->scaling_max > d->scaling_min)
            snprintf(out, size, "%s..%s, as memory allows", fmt_count(a, sizeof a, d->scaling_min),
                     fmt_count(b, sizeof b, d->scaling_max));
        else
            snprintf(out, size, "%s, as memory allows", fmt_count(a, sizeof a, d->scaling_min));
    } else if (strcmp(workload, "steps") == 0) {
        fmt_count(out, size, d->steps_slots);
    } else if (strcmp(workload, "adversarial") == 0) {
        fmt_count(out, size, d->adversarial_buckets);
    } else if (strcmp(workload, "cache") == 0) {
        int len = snprintf(out, size, "%s, batch %s, dim", fmt_count(a, sizeof a, d->cache_slots),
                           fmt_count(b, sizeof b, d->cache_batch));
        for (int i = 0; i < d->cache_ndims && len > 0 && (size_t)len < size; i++)
            len += snprintf(out + len, size - (size_t)len, "%s%u", i ? "," : " ", d->cache_dims[i]);
    } else if (strcmp(workload, "cache-hitrate") == 0) {
        snprintf(out, size, "%s, batch %s", fmt_count(a, sizeof a, d->hitrate_records),
                 fmt_count(b, sizeof b, d->cache_batch));
    } else if (strcmp(workload, "tiered") == 0) {
        snprintf(out, size, "%s, batch %s", fmt_count(a, sizeof a, d->tiered_records),
                 fmt_count(b, sizeof b, d->cache_batch));
    } else if (strcmp(workload, "probes") == 0) {
        fmt_count(out, size, d->probes_slots);
    } else if (strcmp(workload, "caching") == 0) {
        snprintf(out, size, "%s, batch %s", fmt_count(a, sizeof a, d->caching_slots),
                 fmt_count(b, sizeof b, d->caching_batch));
    } else if (strcmp(workload, "sptc") == 0) {
        fmt_count(out, size, d->sptc_nnz);
    } else if (strcmp(workload, "async") == 0) {
        fmt_count(out, size, d->async_keys);
    } else if (strcmp(workload, "shard") == 0) {
        fmt_count(out, size, d->shard_keys);
    } else {
        fmt_count(out, size, d->compare_keys);
    }
}

void bench_defaults_usage(FILE *f, const bench_defaults *full, const bench_defaults *quick,
                          int gpu)
{
    static const struct {
        const char *workload, *unit;
    } rows[] = {
        {"balanced", "keys"},   {"mixed", "ops"},        {"loadsweep", "slots"},
        {"aging", "slots"},     {"ycsb", "records"},     {"resize", "keys"},
        {"scaling", "max slots"}, {"steps", "slots"},    {"adversarial", "buckets"},
        {"probes", "slots"},    {"caching", "slots"},    {"sptc", "nonzeros"},
        {"async", "keys"},      {"cpu-compare", "keys"}, {"cache", "slots"},
        {"cache-hitrate", "records"}, {"shard", "keys a GPU"}, {"tiered", "records"},
    };
    fprintf(f, "  %-13s %-10s %-34s %s\n", "workload", "--n sets", "all, named workloads",
            "quick, --quick");
    if (gpu)
        fprintf(f, "  %-13s %-10s %s\n", "limits", "-", "a buffer of max(1 GiB, 8 x L2)");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char a[64], b[64];
        if (gpu && strcmp(rows[i].workload, "cpu-compare") == 0) {
            fprintf(f, "  %-13s %-10s %s\n", rows[i].workload, rows[i].unit, "(CPU backend only)");
            continue;
        }
        fmt_size(a, sizeof a, full, rows[i].workload);
        fmt_size(b, sizeof b, quick, rows[i].workload);
        fprintf(f, "  %-13s %-10s %-34s %s\n", rows[i].workload, rows[i].unit, a, b);
    }
    if (!gpu)
        fprintf(f, "  %-13s %-10s %s\n", "limits", "-", "(GPU only)");
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
/* A number in [0, 1], or in (0, 1] where zero_ok is 0. */
static int parse_fraction(const char *s, int zero_ok, double *out)
{
    char *end = NULL;
    double f = strtod(s, &end);
    if (end == s || *end != '\0' || !(f >= 0.0 && f <= 1.0) || (f == 0.0 && !zero_ok))
        return -1;
    *out = f;
    return 0;
}

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

/* "1,8,32,64": up to BENCH_CACHE_MAX_DIMS widths, each 1 .. 65536. */
static int parse_dims(const char *s, uint32_t *dims, int *ndims)
{
    int n = 0;
    const char *p = s;
    for (;;) {
        char *end = NULL;
        errno = 0;
        if (*p < '0' || *p > '9')
            return -1;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || errno != 0 || v < 1 || v > 65536 || n == BENCH_CACHE_MAX_DIMS)
            return -1;
        dims[n++] = (uint32_t)v;
        if (*end == '\0')
            break;
        if (*end != ',')
            return -1;
        p = end + 1;
    }
    *ndims = n;
    return 0;
}

/* One option's value; 0, or 2 after printing why. */
static int take(bench_options *o, int opt, const char *name, const char *v)
{
    uint64_t num = 0;
    switch (opt) {
    case OPT_BACKEND:
        if (strcmp(v, "cpu") && strcmp(v, "cuda") && strcmp(v, "auto")) {
            fprintf(stderr, "hive-bench: --backend takes cpu, cuda or auto (got '%s')\n", v);
            return 2;
        }
        o->backend = v;
        return 0;
    case OPT_KV:
        if (strcmp(v, "32") == 0)
            o->key_width = HIVE_KV32;
        else if (strcmp(v, "64") == 0)
            o->key_width = HIVE_KV64;
        else {
            fprintf(stderr, "hive-bench: --kv takes 32 or 64 (got '%s')\n", v);
            return 2;
        }
        return 0;
    case OPT_OUT:
        if (v[0] == '\0') {
            fprintf(stderr, "hive-bench: --out takes a folder\n");
            return 2;
        }
        o->out_dir = v;
        return 0;
    case OPT_DESIGN:
        if (strcmp(v, "all") != 0 && bench_design_named(v) == NULL) {
            fprintf(stderr, "hive-bench: --design takes %s or all (got '%s'; see hive-bench --help)\n",
                    bench_design_names(), v);
            return 2;
        }
        o->design = v;
        return 0;
    case OPT_DIM:
        if (parse_dims(v, o->dims, &o->ndims) != 0) {
            fprintf(stderr, "hive-bench: --dim takes up to %d widths 1..65536 separated by "
                            "commas, e.g. 1,8,32,64 (got '%s')\n", BENCH_CACHE_MAX_DIMS, v);
            return 2;
        }
        return 0;
    case OPT_CACHE_HBM:
        if (parse_fraction(v, 1, &o->cache_hbm_fraction) != 0) {
            fprintf(stderr, "hive-bench: --cache-hbm-fraction takes a number in 0..1 (got '%s')\n", v);
            return 2;
        }
        return 0;
    case OPT_HOT_FRACTION:
        if (parse_fraction(v, 0, &o->hot_fraction) != 0) {
            fprintf(stderr, "hive-bench: --hot-fraction takes a number in (0, 1] (got '%s')\n", v);
            return 2;
        }
        return 0;
    case OPT_CACHE_SLOTS: {
        char *end = NULL;
        unsigned long s = strtoul(v, &end, 10);
        if (end == v || *end != '\0' || s < 8 || s > 128 || (s & (s - 1)) != 0) {
            fprintf(stderr, "hive-bench: --cache-slots takes 8, 16, 32, 64 or 128 (got '%s')\n", v);
            return 2;
        }
        o->cache_slots = (uint32_t)s;
        return 0;
    }
    case OPT_GEOMETRY:
        if (parse_geometry(v, &o->bucket_slots, &o->lanes_per_op) != 0) {
            fprintf(stderr, "hive-bench: --geometry takes SxT: S slots per bucket and "
                            "T lanes per key, e.g. 32x32 (got '%s')\n", v);
            return 2;
        }
        return 0;
    default:
        break;
    }
    if (parse_count(v, &num) != 0) {
        fprintf(stderr, "hive-bench: --%s: cannot read '%s' as a number\n", name, v);
        return 2;
    }
    switch (opt) {
    case OPT_N:
        if (num < 2) {
            fprintf(stderr, "hive-bench: --n must be at least 2\n");
            return 2;
        }
        o->n = num;
        break;
    case OPT_SEED:
        o->seed = num;
        break;
    case OPT_BATCH:
        if (num < 1 || num > (1ull << 32)) {
            fprintf(stderr, "hive-bench: --batch takes 1..2^32\n");
            return 2;
        }
        o->batch = num;
        break;
    case OPT_RUNS:
        if (num < 1 || num > BENCH_MAX_RUNS) {
            fprintf(stderr, "hive-bench: --runs takes 1..%d\n", BENCH_MAX_RUNS);
            return 2;
        }
        o->runs = (int)num;
        break;
    case OPT_ROUNDS:
        if (num < 1 || num > 100000000) {
            fprintf(stderr, "hive-bench: --rounds takes 1..1e8\n");
            return 2;
        }
        o->rounds = (uint32_t)num;
        break;
    case OPT_ABSENT_FILTER:
        if (num < 4 || num > 16) {
            fprintf(stderr, "hive-bench: --absent-filter takes 4..16 bits a slot\n");
            return 2;
        }
        o->absent_filter_bits = (uint32_t)num;
        break;
    case OPT_THREADS:
        if (num > 4096) {
            fprintf(stderr, "hive-bench: --threads takes 0..4096\n");
            return 2;
        }
        o->threads = (uint32_t)num;
        break;
    default:
        break;
    }
    return 0;
}

int bench_options_parse(bench_options *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    o->backend = "auto";
    o->key_width = HIVE_KV32;
    o->seed = BENCH_DEFAULT_SEED;
    o->runs = BENCH_DEFAULT_RUNS;
    o->out_dir = BENCH_DEFAULT_OUT;
    o->design = "hive";
    o->cache_hbm_fraction = 1.0;
    o->hot_fraction = BENCH_TIERED_HOT;

    /* getopt_long names the program by argv[0] in its messages: a copy of
     * argv whose [0] is the bare name keeps them as short as ours. */
    char **av = malloc((size_t)(argc + 1) * sizeof *av);
    if (av == NULL) {
        fprintf(stderr, "hive-bench: no memory for the arguments\n");
        return 2;
    }
    memcpy(av, argv, (size_t)(argc + 1) * sizeof *av);
    av[0] = (char *)"hive-bench";

    int rc = 0, opt, index;
    optind = 1;
    opterr = 1;
    /* "-": workload names come back in place (as 1), whatever POSIXLY_CORRECT says */
    while (rc == 0 && (opt = getopt_long(argc, av, "-h", long_options, &index)) != -1) {
        switch (opt) {
        case 1:
            if (o->nnames == BENCH_MAX_NAMES) {
                fprintf(stderr, "hive-bench: more than %d workload names\n", BENCH_MAX_NAMES);
                rc = 2;
            } else {
                o->names[o->nnames++] = optarg;
            }
            break;
        case 'h':
            o->help = 1;
            break;
        case OPT_VERSION:
            o->version = 1;
            break;
        case OPT_ALLOCATOR:
            o->allocator = 1;
            break;
        case OPT_PAGEABLE:
            o->pageable = 1;
            break;
        case OPT_WRITE_BACK:
            o->write_back = 1;
            break;
        case OPT_HOT_SINGLE_BUCKET:
            o->hot_single_bucket = 1;
            break;
        case OPT_QUICK:
            o->quick = 1;
            break;
        case '?': /* getopt_long said what was wrong */
            fprintf(stderr, "hive-bench: see hive-bench --help\n");
            rc = 2;
            break;
        default:
            rc = take(o, opt, long_options[index].name, optarg);
            break;
        }
    }
    /* after "--": workload names too */
    for (; rc == 0 && optind < argc; optind++) {
        if (o->nnames == BENCH_MAX_NAMES) {
            fprintf(stderr, "hive-bench: more than %d workload names\n", BENCH_MAX_NAMES);
            rc = 2;
        } else {
            o->names[o->nnames++] = av[optind];
        }
    }
    free(av);
    return rc;
}
