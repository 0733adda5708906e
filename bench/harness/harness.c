/* harness.c — the shared machinery of hive-bench (see harness.h). */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report.h"

#ifdef BENCH_WITH_CUDA
#include "gpu.h"
#endif

#if __has_include("bench_commit.h")
#include "bench_commit.h" /* BENCH_COMMIT, written at build time (commit.cmake) */
#endif
#ifndef BENCH_COMMIT
#define BENCH_COMMIT "unknown"
#endif

/* ---------------------------------------------------------------- context */

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void cpu_name(char *out, size_t size)
{
    snprintf(out, size, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL)
        return;
    char line[512];
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "model name", 10) == 0) {
            char *p = strchr(line, ':');
            if (p != NULL) {
                p++;
                while (*p == ' ' || *p == '\t')
                    p++;
                p[strcspn(p, "\n")] = '\0';
                long cores = sysconf(_SC_NPROCESSORS_ONLN);
                snprintf(out, size, "%s (%ld cores)", p, cores);
            }
            break;
        }
    }
    fclose(f);
}

const char *bench_built_commit(void) { return BENCH_COMMIT; }

int bench_ctx_init(bench_ctx *c)
{
    c->t0 = bench_now();
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(c->date, sizeof c->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    const char *env = getenv("HIVE_COMMIT");
    snprintf(c->commit, sizeof c->commit, "%s",
             env != NULL && env[0] != '\0' ? env : BENCH_COMMIT);
    c->bits = c->key_width == HIVE_KV64 ? 64u : 32u;
    c->kbytes = c->bits / 8u;
    if (c->gpu) {
#ifdef BENCH_WITH_CUDA
        bench_gpu_info info;
        if (bench_gpu_init(&info, &c->stream) != 0)
            return -1;
        snprintf(c->device, sizeof c->device, "%s", info.name);
        snprintf(c->driver, sizeof c->driver, "%s", info.driver);
        c->gpu_l2 = info.l2_bytes;
        c->gpu_mem_total = info.mem_total;
#else
        fprintf(stderr, "hive-bench: built without CUDA\n");
        return -1;
#endif
    } else {
        cpu_name(c->device, sizeof c->device);
        snprintf(c->driver, sizeof c->driver, "-");
        c->stream = NULL;
    }
    return 0;
}

void bench_ctx_finish(bench_ctx *c)
{
    free(c->rows);
    c->rows = NULL;
    c->nrows = c->cap_rows = 0;
#ifdef BENCH_WITH_CUDA
    if (c->gpu)
        bench_gpu_shutdown();
#endif
}

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; s != NULL && *s != '\0'; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

uint64_t bench_seed(const bench_ctx *c, uint64_t point, int run)
{
    uint64_t h = bench_mix64(c->seed ^ fnv1a(c->workload));
    h = bench_mix64(h ^ (point * 0x9E3779B97F4A7C15ull));
    return bench_mix64(h + (uint64_t)(run + 2));
}

void bench_progress(const bench_ctx *c, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "[%7.1fs] ", bench_now() - c->t0);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
}

void bench_fail(bench_ctx *c, const char *fmt, ...)
{
    va_list ap;
    c->failures++;
    fprintf(stderr, "FAILED (%s): ", c->workload != NULL ? c->workload : "?");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
}

/* ---------------------------------------------------------------- tables */

hive_config bench_config(const bench_ctx *c, uint64_t initial_capacity, double max_lf,
                         double min_lf)
{
    hive_config cfg = HIVE_CONFIG_INIT;
    cfg.backend = c->backend;
    cfg.key_width = c->key_width;
    cfg.initial_capacity = initial_capacity < 1 ? 1 : initial_capacity;
    cfg.max_load_factor = max_lf;
    cfg.min_load_factor = min_lf;
    cfg.threads = c->threads;
    cfg.bucket_slots = c->bucket_slots;
    cfg.lanes_per_op = c->lanes_per_op;
    cfg.design = c->design;
    cfg.absent_filter_bits = c->absent_filter_bits;
#ifdef BENCH_WITH_CUDA
    if (c->allocator)
        cfg.allocator = bench_gpu_allocator(); /* CPU tables ignore it */
#endif
    return cfg;
}

int bench_create(bench_ctx *c, const hive_config *cfg, hive_table **t)
{
    hive_status s = hive_create(cfg, t);
    if (s == HIVE_SUCCESS)
        return 0;
    fprintf(stderr, "hive_create(%llu slots): %s: %s\n",
            (unsigned long long)cfg->initial_capacity, hive_status_string(s), hive_last_error());
    (void)c;
    return s == HIVE_ERROR_OUT_OF_MEMORY ? -2 : -1;
}

int bench_probe_geometry(bench_ctx *c)
{
    hive_config cfg = bench_config(c, 1024, 1.0, 0.0);
    hive_table *t = NULL;
    hive_stats st = {0};
    if (bench_create(c, &cfg, &t) != 0)
        return -1;
    int rc = bench_stats(c, t, &st);
    hive_config got = HIVE_CONFIG_INIT; /* a CUDA table reports no filter (it ignores one) */
    if (rc == 0 && hive_get_config(t, &got) != HIVE_SUCCESS)
        rc = -1;
    hive_destroy(t);
    if (rc != 0)
        return -1;
    char filter[24] = "";
    if (got.absent_filter_bits != 0)
        snprintf(filter, sizeof filter, " filter %u", got.absent_filter_bits);
    snprintf(c->geometry, sizeof c->geometry, "%ux%u%s%s", st.bucket_slots, st.lanes_per_op,
             c->allocator && c->gpu ? " alloc" : "", filter);
    return 0;
}

int bench_create_pinned(bench_ctx *c, uint64_t slots, hive_table **t)
{
    hive_config cfg = bench_config(c, slots, 1.0, 0.0);
    return bench_create(c, &cfg, t);
}

int bench_status(bench_ctx *c, hive_status s, const char *call)
{
    if (s == HIVE_SUCCESS)
        return 0;
    fprintf(stderr, "%s: %s: %s\n", call, hive_status_string(s), hive_last_error());
    switch (s) {
    case HIVE_ERROR_TABLE_FULL:
    case HIVE_ERROR_RESERVED_KEY:
    case HIVE_ERROR_INVALID_ARGUMENT:
        bench_fail(c, "%s returned %s", call, hive_status_string(s));
        return 1;
    default:
        return -1;
    }
}

int bench_stats(bench_ctx *c, hive_table *t, hive_stats *st)
{
    memset(st, 0, sizeof *st);
    hive_status s = hive_stats_get(t, st);
    return bench_status(c, s, "hive_stats_get") < 0 ? -1 : 0;
}

/* ---------------------------------------------------------------- buffers */

void *bench_alloc(bench_ctx *c, size_t bytes)
{
    if (bytes == 0)
        bytes = 64;
#ifdef BENCH_WITH_CUDA
    if (c->gpu)
        return bench_gpu_malloc(bytes);
#endif
    (void)c;
    size_t rounded = (bytes + 4095) & ~(size_t)4095;
    void *p = aligned_alloc(4096, rounded);
    if (p == NULL) {
        fprintf(stderr, "hive-bench: cannot allocate %zu bytes of host memory\n", bytes);
        return NULL;
    }
    memset(p, 0, rounded); /* touch every page now, not inside a timed call */
    return p;
}

void bench_free(bench_ctx *c, void *p)
{
    if (p == NULL)
        return;
#ifdef BENCH_WITH_CUDA
    if (c->gpu) {
        bench_gpu_free(p);
        return;
    }
#endif
    (void)c;
    free(p);
}

void *bench_host_alloc(bench_ctx *c, size_t bytes)
{
    if (bytes == 0)
        bytes = 64;
    void *p = NULL;
#ifdef BENCH_WITH_CUDA
    if (c->gpu && !c->pageable)
        p = bench_gpu_host_alloc(bytes);
    else
#endif
    {
        (void)c;
        p = malloc(bytes);
        if (p == NULL)
            fprintf(stderr, "hive-bench: cannot allocate %zu bytes of host memory\n", bytes);
    }
    if (p != NULL)
        memset(p, 0, bytes); /* touch every page now, not inside a timed call */
    return p;
}

void bench_host_free(bench_ctx *c, void *p)
{
#ifdef BENCH_WITH_CUDA
    if (c->gpu && !c->pageable) {
        bench_gpu_host_free(p);
        return;
    }
#endif
    (void)c;
    free(p);
}

int bench_memset(bench_ctx *c, void *p, int byte, size_t bytes)
{
#ifdef BENCH_WITH_CUDA
    if (c->gpu)
        return bench_gpu_memset(p, byte, bytes);
#endif
    (void)c;
    memset(p, byte, bytes);
    return 0;
}

int bench_to_host(bench_ctx *c, void *host, const void *p, size_t bytes)
{
#ifdef BENCH_WITH_CUDA
    if (c->gpu)
        return bench_gpu_to_host(host, p, bytes);
#endif
    (void)c;
    memcpy(host, p, bytes);
    return 0;
}

int bench_to_table_memory(bench_ctx *c, void *p, const void *host, size_t bytes)
{
#ifdef BENCH_WITH_CUDA
    if (c->gpu)
        return bench_gpu_to_device(p, host, bytes);
#endif
    (void)c;
    memcpy(p, host, bytes);
    return 0;
}

uint64_t bench_free_memory(bench_ctx *c)
{
#ifdef BENCH_WITH_CUDA
    if (c->gpu) {
        uint64_t fr = 0, total = 0;
        if (bench_gpu_mem_info(&fr, &total) != 0)
            return 0;
        return fr;
    }
#endif
    (void)c;
    long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
}

/* ---------------------------------------------------------------- CPU parallel loops */

typedef struct par_job {
    uint64_t lo, hi;
    void (*fn)(void *arg, uint64_t lo, uint64_t hi, uint64_t *acc);
    void *arg;
    uint64_t acc[4];
} par_job;

static void *par_run(void *p)
{
    par_job *j = p;
    j->fn(j->arg, j->lo, j->hi, j->acc);
    return NULL;
}

void bench_par_for(uint64_t n, void (*fn)(void *, uint64_t, uint64_t, uint64_t *), void *arg,
                   uint64_t acc[4])
{
    enum { MAXT = 64 };
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int nt = cores < 1 ? 1 : cores > MAXT ? MAXT : (int)cores;
    if (n < 65536)
        nt = 1;
    par_job jobs[MAXT];
    pthread_t tid[MAXT];
    int started[MAXT];
    for (int k = 0; k < nt; k++) {
        jobs[k].lo = n * (uint64_t)k / (uint64_t)nt;
        jobs[k].hi = n * (uint64_t)(k + 1) / (uint64_t)nt;
        jobs[k].fn = fn;
        jobs[k].arg = arg;
        memset(jobs[k].acc, 0, sizeof jobs[k].acc);
        started[k] = k > 0 && pthread_create(&tid[k], NULL, par_run, &jobs[k]) == 0;
    }
    for (int k = 0; k < nt; k++)
        if (!started[k])
            par_run(&jobs[k]);
    memset(acc, 0, 4 * sizeof *acc);
    for (int k = 0; k < nt; k++) {
        if (started[k])
            pthread_join(tid[k], NULL);
        for (int a = 0; a < 4; a++)
            acc[a] += jobs[k].acc[a];
    }
}

/* ---------------------------------------------------------------- generation */

bench_keys bench_keys_for(const bench_ctx *c, uint64_t seed)
{
    bench_keys k;
    k.k0 = bench_mix64(seed ^ 0x243F6A8885A308D3ull);
    k.k1 = bench_mix64(k.k0 ^ 0x13198A2E03707344ull);
    k.k2 = bench_mix64(k.k1 ^ 0xA4093822299F31D0ull);
    k.bits = c->bits;
    k.pad = 0;
    return k;
}

bench_gen bench_gen_one(bench_keys k, uint64_t n, uint64_t base, hive_op op, hive_result expect,
                        uint32_t vtag)
{
    bench_gen g;
    memset(&g, 0, sizeof g);
    g.keys = k;
    bench_gen_add(&g, n, base, op, expect, vtag, vtag);
    return g;
}

void bench_gen_add(bench_gen *g, uint64_t count, uint64_t base, hive_op op, hive_result expect,
                   uint32_t vtag, uint32_t vtag_alt)
{
    if (g->nsegs >= BENCH_MAX_SEGS)
        abort(); /* a workload asked for a fifth segment: a bug here */
    bench_seg *s = &g->seg[g->nsegs++];
    s->start = g->n;
    s->count = count;
    s->base = base;
    s->op = (uint32_t)op;
    s->expect = (uint32_t)expect;
    s->vtag = vtag;
    s->vtag_alt = vtag_alt;
    g->n += count;
}

void bench_gen_shuffle(bench_gen *g, uint64_t seed)
{
    unsigned m = 0;
    while (m < 64 && (1ull << m) < g->n)
        m++;
    g->shuffle = 1;
    g->smask = m >= 64 ? ~0ull : (1ull << m) - 1;
    g->sshift = m / 2 + 1;
    g->sa = bench_mix64(seed ^ 1) | 1;
    g->sb = bench_mix64(seed ^ 2);
    g->sc = bench_mix64(seed ^ 3) | 1;
    g->sd = bench_mix64(seed ^ 4);
}

/* zeta(n, theta) = sum_{i=1..n} i^-theta: exact up to 2^20 terms, the rest by
 * Euler-Maclaurin (integral + end corrections; error far below 1e-12). */
double bench_zeta(uint64_t n, double theta)
{
    uint64_t head = n < (1u << 20) ? n : (1u << 20);
    double s = 0.0;
    for (uint64_t i = head; i >= 1; i--) /* small terms first */
        s += pow((double)i, -theta);
    if (n > head) {
        double a = (double)head, b = (double)n;
        double integral = (pow(b, 1.0 - theta) - pow(a, 1.0 - theta)) / (1.0 - theta);
        double ends = (pow(b, -theta) - pow(a, -theta)) / 2.0;
        double d1 = (-theta * pow(b, -theta - 1.0) + theta * pow(a, -theta - 1.0)) / 12.0;
        s += integral + ends + d1;
    }
    return s;
}

bench_gen bench_gen_zipf(bench_keys k, uint64_t n, uint64_t records, double theta,
                         double read_fraction, uint64_t seed)
{
    bench_gen g;
    memset(&g, 0, sizeof g);
    g.keys = k;
    bench_gen_add(&g, records, 0, HIVE_OP_FIND, HIVE_RESULT_FOUND, 0, 1);
    bench_gen_add(&g, records, 0, HIVE_OP_UPSERT, HIVE_RESULT_UPDATED, 1, 1);
    g.seg[1].start = 0;
    g.n = n;
    g.zipf = 1;
    g.zseed = seed;
    g.read_fraction = read_fraction;
    g.zn = records;
    g.ztheta = theta;
    g.zalpha = 1.0 / (1.0 - theta);
    g.zzetan = bench_zeta(records, theta);
    double zeta2 = 1.0 + pow(0.5, theta);
    g.zeta = (1.0 - pow(2.0 / (double)records, 1.0 - theta)) / (1.0 - zeta2 / g.zzetan);
    g.zhalf = pow(0.5, theta);
    return g;
}

typedef struct fill_arg {
    const bench_gen *g;
    uint8_t *ops;
    void *keys, *values;
} fill_arg;

static void fill_range(void *p, uint64_t lo, uint64_t hi, uint64_t *acc)
{
    fill_arg *a = p;
    (void)acc;
    for (uint64_t i = lo; i < hi; i++)
        bench_fill_element(a->g, i, a->ops, a->keys, a->values);
}

int bench_fill(bench_ctx *c, const bench_gen *g, uint8_t *ops, void *keys, void *values)
{
#ifdef BENCH_WITH_CUDA
    if (c->gpu)
        return bench_gpu_fill(g, ops, keys, values);
#endif
    (void)c;
    fill_arg a = {g, ops, keys, values};
    uint64_t acc[4];
    bench_par_for(g->n, fill_range, &a, acc);
    return 0;
}

/* ---------------------------------------------------------------- timing */

static double cpu_timer_start_s;

void bench_timer_start(bench_ctx *c)
{
#ifdef BENCH_WITH_CUDA
    if (c->gpu) {
        bench_gpu_timer_start();
        return;
    }
#endif
    (void)c;
    cpu_timer_start_s = bench_now();
}

double bench_timer_stop(bench_ctx *c)
{
#ifdef BENCH_WITH_CUDA
    if (c->gpu)
        return bench_gpu_timer_stop();
#endif
    (void)c;
    return bench_now() - cpu_timer_start_s;
}

int bench_timed_end(bench_ctx *c, double *secs, hive_status s, const char *name)
{
    double t = bench_timer_stop(c);
    *secs = t;
    int st = bench_status(c, s, name);
    return t < 0 ? -1 : st;
}

double bench_median(const double *v, int n)
{
    if (n <= 0)
        return NAN;
    double *t = malloc((size_t)n * sizeof *t);
    if (t == NULL)
        return NAN;
    memcpy(t, v, (size_t)n * sizeof *t);
    double m = bench_spread_sort(t, n).median;
    free(t);
    return m;
}

/* ---------------------------------------------------------------- verification */

typedef struct check_arg {
    const bench_gen *g;
    const uint8_t *results, *found;
    const void *values;
    uint64_t first_bad;
} check_arg;

static void check_range(void *p, uint64_t lo, uint64_t hi, uint64_t *acc)
{
    check_arg *a = p;
    for (uint64_t i = lo; i < hi; i++) {
        uint32_t bad = bench_check_element(a->g, i, a->results, a->found, a->values);
        if (bad) {
            acc[0]++;
            acc[1] += (bad & BENCH_BAD_RESULT) != 0;
            acc[2] += (bad & BENCH_BAD_FOUND) != 0;
            acc[3] += (bad & BENCH_BAD_VALUE) != 0;
        }
    }
}

int64_t bench_check(bench_ctx *c, const bench_gen *g, const uint8_t *results,
                    const uint8_t *found, const void *values, const char *what)
{
    uint64_t bad[4] = {0, 0, 0, 0};
#ifdef BENCH_WITH_CUDA
    if (c->gpu) {
        if (bench_gpu_check(g, results, found, values, bad) != 0)
            return -1;
    } else
#endif
    {
        check_arg a = {g, results, found, values, 0};
        bench_par_for(g->n, check_range, &a, bad);
    }
    if (bad[0] == 0)
        return 0;
    bench_fail(c, "%s: %llu of %llu elements wrong (result code %llu, found flag %llu, value %llu)",
               what, (unsigned long long)bad[0], (unsigned long long)g->n,
               (unsigned long long)bad[1], (unsigned long long)bad[2], (unsigned long long)bad[3]);
    if (!c->gpu) { /* name the first few, to help whoever debugs the table */
        int shown = 0;
        for (uint64_t i = 0; i < g->n && shown < 3; i++) {
            uint32_t b = bench_check_element(g, i, results, found, values);
            if (!b)
                continue;
            uint64_t key;
            const bench_seg *s = bench_element(g, i, &key);
            fprintf(stderr, "  element %llu: op %u key %#llx expected result %u, got %d%s%s\n",
                    (unsigned long long)i, s->op, (unsigned long long)key, s->expect,
                    results ? results[i] : -1, (b & BENCH_BAD_FOUND) ? ", wrong found flag" : "",
                    (b & BENCH_BAD_VALUE) ? ", wrong value" : "");
            shown++;
        }
    }
    return (int64_t)bad[0];
}

bench_live bench_live_one(bench_keys k, uint64_t lo, uint64_t hi, uint32_t vtag, uint32_t vtag_alt)
{
    bench_live l;
    memset(&l, 0, sizeof l);
    l.keys = k;
    bench_live_add(&l, lo, hi, vtag, vtag_alt);
    return l;
}

void bench_live_add(bench_live *l, uint64_t lo, uint64_t hi, uint32_t vtag, uint32_t vtag_alt)
{
    if (l->nranges >= BENCH_MAX_SEGS)
        abort();
    if (hi <= lo)
        return;
    uint32_t r = l->nranges++;
    l->lo[r] = lo;
    l->hi[r] = hi;
    l->prefix[r] = l->total;
    l->vtag[r] = vtag;
    l->vtag_alt[r] = vtag_alt;
    l->total += hi - lo;
}

static void check_export_host(const bench_live *l, uint64_t count, const void *keys,
                              const void *values, uint64_t *bitmap, uint64_t bad[3])
{
    uint32_t bits = l->keys.bits;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t k = bits == 32 ? ((const uint32_t *)keys)[i] : ((const uint64_t *)keys)[i];
        uint64_t v = bits == 32 ? ((const uint32_t *)values)[i] : ((const uint64_t *)values)[i];
        uint64_t bit = 0;
        uint32_t r = bench_export_element(l, k, v, &bit);
        if (r == BENCH_EXPORT_STRAY) {
            bad[0]++;
        } else if (r == BENCH_EXPORT_VALUE) {
            bad[1]++;
        } else {
            uint64_t m = 1ull << (bit & 63);
            if (bitmap[bit >> 6] & m)
                bad[2]++;
            bitmap[bit >> 6] |= m;
        }
    }
}

int64_t bench_check_table(bench_ctx *c, hive_table *t, const bench_live *l, void *kbuf,
                          void *vbuf, uint64_t cap, const char *what)
{
    uint64_t size = 0, count = 0;
    int64_t problems = 0;
    if (bench_status(c, hive_size(t, &size), "hive_size") != 0)
        return -1;
    if (size != l->total) {
        bench_fail(c, "%s: hive_size is %llu, expected %llu", what, (unsigned long long)size,
                   (unsigned long long)l->total);
        problems++;
    }
    void *kx = kbuf, *vx = vbuf, *own_k = NULL, *own_v = NULL;
    uint64_t xcap = cap;
    if (cap < size || kbuf == NULL || vbuf == NULL) {
        xcap = size + 1;
        own_k = kx = bench_alloc(c, xcap * c->kbytes);
        own_v = vx = bench_alloc(c, xcap * c->kbytes);
        if (kx == NULL || vx == NULL) {
            bench_free(c, own_k);
            bench_free(c, own_v);
            return -1;
        }
    }
    uint64_t words = (l->total + 63) / 64 + 1;
    uint64_t *bitmap = NULL;
    hive_status s = hive_export(t, xcap, kx, vx, &count, c->stream);
    int st = bench_status(c, s, "hive_export");
    if (st < 0) {
        problems = -1;
        goto done;
    }
    problems += st;
    if (count != size) {
        bench_fail(c, "%s: hive_export gave %llu pairs, hive_size says %llu", what,
                   (unsigned long long)count, (unsigned long long)size);
        problems++;
    }
    if (count > xcap)
        count = xcap;
    uint64_t bad[3] = {0, 0, 0};
#ifdef BENCH_WITH_CUDA
    if (c->gpu) {
        bitmap = bench_gpu_malloc(words * sizeof *bitmap);
        if (bitmap == NULL || bench_gpu_check_export(l, count, kx, vx, bitmap, bad) != 0) {
            problems = -1;
            goto done;
        }
    } else
#endif
    {
        bitmap = calloc(words, sizeof *bitmap);
        if (bitmap == NULL) {
            fprintf(stderr, "hive-bench: no memory for the export bitmap\n");
            problems = -1;
            goto done;
        }
        check_export_host(l, count, kx, vx, bitmap, bad);
    }
    if (bad[0] + bad[1] + bad[2] != 0) {
        bench_fail(c, "%s: export has %llu unexpected keys, %llu wrong values, %llu duplicates",
                   what, (unsigned long long)bad[0], (unsigned long long)bad[1],
                   (unsigned long long)bad[2]);
        problems += (int64_t)(bad[0] + bad[1] + bad[2]);
    }
done:
#ifdef BENCH_WITH_CUDA
    if (c->gpu)
        bench_gpu_free(bitmap);
    else
#endif
        free(bitmap);
    bench_free(c, own_k);
    bench_free(c, own_v);
    return problems;
}

/* ---------------------------------------------------------------- rows */

static bench_row *new_row(bench_ctx *c, const char *op)
{
    if (c->nrows == c->cap_rows) {
        size_t cap = c->cap_rows ? 2 * c->cap_rows : 64;
        bench_row *r = realloc(c->rows, cap * sizeof *r);
        if (r == NULL) {
            fprintf(stderr, "hive-bench: no memory for result rows\n");
            exit(2);
        }
        c->rows = r;
        c->cap_rows = cap;
    }
    bench_row *r = &c->rows[c->nrows++];
    memset(r, 0, sizeof *r);
    snprintf(r->workload, sizeof r->workload, "%s", c->workload);
    snprintf(r->op, sizeof r->op, "%s", op);
    r->load_factor = -1;
    r->x = NAN;
    r->gops = r->gops_min = r->gops_max = NAN;
    r->value = r->value_min = r->value_max = NAN;
    r->fraction = NAN;
    snprintf(r->design, sizeof r->design, "%s", c->design_name != NULL ? c->design_name : "");
    snprintf(r->geometry, sizeof r->geometry, "%s", c->geometry);
    return r;
}

bench_row *bench_row_rate(bench_ctx *c, const char *op, uint64_t n, double lf, double x,
                          double ops_per_s, uint64_t bytes, int runs, int ok)
{
    bench_row *r = new_row(c, op);
    r->n = n;
    r->load_factor = lf;
    r->x = x;
    r->gops = ops_per_s / 1e9;
    if (c->gpu && c->limits_done && c->limits.sector_per_s.median > 0) {
        snprintf(r->limit, sizeof r->limit, "sector_gather");
        r->fraction = ops_per_s / c->limits.sector_per_s.median;
    }
    r->bytes_held = bytes;
    r->runs = runs;
    r->ok = ok;
    return r;
}

bench_row *bench_row_timed(bench_ctx *c, const char *op, uint64_t n, double lf, double x,
                           const double *secs, int runs, uint64_t bytes, int ok)
{
    double t[BENCH_MAX_RUNS];
    if (runs > BENCH_MAX_RUNS)
        runs = BENCH_MAX_RUNS;
    if (runs > 0)
        memcpy(t, secs, (size_t)runs * sizeof *t);
    bench_spread rate = bench_spread_rate((double)n, t, runs);
    bench_row *r = bench_row_rate(c, op, n, lf, x, rate.median, bytes, runs, ok);
    r->gops_min = rate.min / 1e9;
    r->gops_max = rate.max / 1e9;
    return r;
}

bench_row *bench_row_value(bench_ctx *c, const char *op, uint64_t n, double lf, double x,
                           double value, const char *unit, uint64_t bytes, int runs, int ok)
{
    bench_row *r = new_row(c, op);
    r->n = n;
    r->load_factor = lf;
    r->x = x;
    r->value = value;
    snprintf(r->unit, sizeof r->unit, "%s", unit);
    r->bytes_held = bytes;
    r->runs = runs;
    r->ok = ok;
    return r;
}

void bench_begin(bench_ctx *c, const char *workload)
{
    c->workload = workload;
    if (!c->keep_rows)
        c->nrows = 0;
    c->first_row = c->nrows;
    bench_progress(c, "%s: start (%s backend, KV%u%s%s)", workload, c->gpu ? "CUDA" : "CPU",
                   c->bits, c->design_name[0] ? ", design " : "", c->design_name);
}

int bench_end(bench_ctx *c)
{
    bench_report_table(c, stdout);
    int rc = 0;
    if (bench_report_files(c) != 0)
        rc = -1;
    bench_progress(c, "%s: done", c->workload);
    return rc;
}

int bench_insert_find_miss(bench_ctx *c, hive_table *t, bench_keys k, uint64_t n, void *keys,
                           void *vals, uint8_t *found, double *insert_s, double *find_s,
                           double *miss_s, const char *what)
{
    int ok = 1;
    bench_gen gi = bench_gen_one(k, n, 0, HIVE_OP_INSERT, HIVE_RESULT_INSERTED, 0);
    bench_gen gf = bench_gen_one(k, n, 0, HIVE_OP_FIND, HIVE_RESULT_FOUND, 0);
    bench_gen gn = bench_gen_one(k, n, bench_neg_base(c->bits), HIVE_OP_FIND, HIVE_RESULT_NOT_FOUND, 0);
    BENCH_STEP(bench_fill(c, &gi, NULL, keys, vals), ok, fail);
    BENCH_STEP(BENCH_TIMED(c, insert_s, "hive_insert",
                           hive_insert(t, n, keys, vals, HIVE_COMBINE_ASSIGN, NULL, c->stream)),
               ok, fail);
    BENCH_STEP(bench_fill(c, &gf, NULL, keys, vals), ok, fail); /* vals := poison */
    BENCH_STEP(BENCH_TIMED(c, find_s, "hive_find", hive_find(t, n, keys, vals, NULL, c->stream)),
               ok, fail);
    BENCH_STEP(bench_check(c, &gf, NULL, NULL, vals, "find"), ok, fail);
    BENCH_STEP(bench_fill(c, &gn, NULL, keys, NULL), ok, fail);
    BENCH_STEP(BENCH_TIMED(c, miss_s, "hive_find (misses)",
                           hive_find(t, n, keys, NULL, found, c->stream)),
               ok, fail);
    BENCH_STEP(bench_check(c, &gn, NULL, found, NULL, "negative find"), ok, fail);
    bench_live live = bench_live_one(k, 0, n, 0, 0);
    BENCH_STEP(bench_check_table(c, t, &live, keys, vals, n, what), ok, fail);
    return ok ? 0 : 1;
fail:
    return -1;
}
