/* wl_limits.c — the `limits` workload: the GPU's ceilings (limits.cu), kept
 * in the context so every later GPU figure in the same run is also given as a
 * fraction of the random-sector-gather rate (or, for the cache's values in
 * host memory, of the PCIe rates). */
#include <math.h>
#include <stdio.h>

#include "workloads.h"

#ifdef BENCH_WITH_CUDA
/* gops (10^9 accesses/s) from a rate in accesses/s, median, slowest, fastest. */
static void set_gops(bench_row *r, bench_spread rate)
{
    r->gops = rate.median / 1e9;
    r->gops_min = rate.min / 1e9;
    r->gops_max = rate.max / 1e9;
}

/* A row of GB/s: a rate in accesses/s times the bytes each access moves. */
static bench_row *bandwidth_row(bench_ctx *c, const char *op, uint64_t n, bench_spread rate,
                                double bytes, int runs)
{
    bench_row *r = bench_row_value(c, op, n, -1, NAN, rate.median * bytes / 1e9, "GB/s", 0, runs,
                                   -1);
    r->value_min = rate.min * bytes / 1e9;
    r->value_max = rate.max * bytes / 1e9;
    return r;
}
#endif

int wl_limits(bench_ctx *c)
{
    bench_begin(c, "limits");
    if (!c->gpu) {
        printf("limits: GPU only (this run uses the CPU backend): skipped\n");
        return bench_end(c);
    }
#ifdef BENCH_WITH_CUDA
    bench_limits *l = &c->limits;
    int runs = c->runs < 5 ? 5 : c->runs;
    if (bench_gpu_limits(l, runs) != 0)
        return -1;
    c->limits_done = 1;
    bench_row *r;
    bandwidth_row(c, "copy-d2d", l->buffer_bytes, l->copy_bytes_per_s, 1.0, runs);
    r = bandwidth_row(c, "gather-line128", l->buffer_bytes, l->line128_per_s, 128.0, runs);
    set_gops(r, l->line128_per_s);
    r = bandwidth_row(c, "gather-line256", l->buffer_bytes, l->line256_per_s, 256.0, runs);
    set_gops(r, l->line256_per_s);
    r = bandwidth_row(c, "gather-sector", l->buffer_bytes, l->sector_per_s, 32.0, runs);
    set_gops(r, l->sector_per_s);
    r = bandwidth_row(c, "atomic-cas64", l->buffer_bytes, l->cas_per_s, 32.0, runs);
    set_gops(r, l->cas_per_s);
    if (l->host_bytes != 0) {
        bandwidth_row(c, "copy-h2d", l->host_bytes, l->h2d_bytes_per_s, 1.0, runs);
        bandwidth_row(c, "copy-d2h", l->host_bytes, l->d2h_bytes_per_s, 1.0, runs);
        bandwidth_row(c, "mapped-read", l->host_bytes, l->mapped_read_bytes_per_s, 1.0, runs);
        bandwidth_row(c, "mapped-write", l->host_bytes, l->mapped_write_bytes_per_s, 1.0, runs);
        r = bandwidth_row(c, "mapped-line128", l->host_bytes, l->mapped_line128_per_s, 128.0, runs);
        set_gops(r, l->mapped_line128_per_s);
    }
    r = bench_row_value(c, "index-gen-l1", 8192, -1, NAN,
                        l->index_per_s.median / l->sector_per_s.median, "x sector", 0, runs, -1);
    set_gops(r, l->index_per_s);
    printf("limits: buffer %llu MiB (L2 %llu MiB); gops = 10^9 accesses/s, other = sector-level "
           "bytes/s (32 B per sector access, 128/256 B per line)\n",
           (unsigned long long)(l->buffer_bytes >> 20), (unsigned long long)(l->l2_bytes >> 20));
    if (l->host_bytes != 0)
        printf("limits: PCIe with %llu MiB of pinned host memory: copies h2d %.1f, d2h %.1f GB/s; kernels on "
               "it mapped: read %.1f, write %.1f GB/s, random 128-byte lines %.1f GB/s\n",
               (unsigned long long)(l->host_bytes >> 20), l->h2d_bytes_per_s.median / 1e9,
               l->d2h_bytes_per_s.median / 1e9, l->mapped_read_bytes_per_s.median / 1e9,
               l->mapped_write_bytes_per_s.median / 1e9, l->mapped_line128_per_s.median * 128.0 / 1e9);
    if (l->index_per_s.median < 3.0 * l->sector_per_s.median)
        printf("limits: WARNING: index generation (%.1f G/s) is within 3x of the sector rate "
               "(%.1f G/s)\n",
               l->index_per_s.median / 1e9, l->sector_per_s.median / 1e9);
#endif
    return bench_end(c);
}
