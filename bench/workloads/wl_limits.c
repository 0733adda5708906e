/* wl_limits.c — the `limits` workload: the GPU's ceilings (limits.cu), kept
 * in the context so every later GPU figure in the same run is also given as a
 * fraction of the random-sector-gather rate. */
#include <math.h>
#include <stdio.h>

#include "workloads.h"

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
    const char *unit = "GB/s";
    bench_row *r;
    r = bench_row_value(c, "copy-d2d", l->buffer_bytes, -1, NAN, l->copy_bytes_per_s / 1e9, unit,
                        0, runs, -1);
    r = bench_row_value(c, "gather-line128", l->buffer_bytes, -1, NAN,
                        l->line128_per_s * 128 / 1e9, unit, 0, runs, -1);
    r->gops = l->line128_per_s / 1e9;
    r = bench_row_value(c, "gather-line256", l->buffer_bytes, -1, NAN,
                        l->line256_per_s * 256 / 1e9, unit, 0, runs, -1);
    r->gops = l->line256_per_s / 1e9;
    r = bench_row_value(c, "gather-sector", l->buffer_bytes, -1, NAN, l->sector_per_s * 32 / 1e9,
                        unit, 0, runs, -1);
    r->gops = l->sector_per_s / 1e9;
    r = bench_row_value(c, "atomic-cas64", l->buffer_bytes, -1, NAN, l->cas_per_s * 32 / 1e9, unit,
                        0, runs, -1);
    r->gops = l->cas_per_s / 1e9;
    r = bench_row_value(c, "index-gen-l1", 8192, -1, NAN, l->index_per_s / l->sector_per_s,
                        "x sector", 0, runs, -1);
    r->gops = l->index_per_s / 1e9;
    printf("limits: buffer %llu MiB (L2 %llu MiB); gops = 10^9 accesses/s, other = sector-level "
           "bytes/s (32 B per sector access, 128/256 B per line)\n",
           (unsigned long long)(l->buffer_bytes >> 20), (unsigned long long)(l->l2_bytes >> 20));
    if (l->index_per_s < 3.0 * l->sector_per_s)
        printf("limits: WARNING: index generation (%.1f G/s) is within 3x of the sector rate "
               "(%.1f G/s)\n",
               l->index_per_s / 1e9, l->sector_per_s / 1e9);
#endif
    return bench_end(c);
}
