/* spread.h — a figure measured over several runs: the median, and the least
 * and greatest of the runs.  Plain C, for the host code of both the C and the
 * CUDA files. */
#ifndef HIVE_BENCH_SPREAD_H
#define HIVE_BENCH_SPREAD_H

#include <math.h>
#include <stdlib.h>

typedef struct bench_spread {
    double median, min, max; /* NAN each when there were no runs */
} bench_spread;

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median, least and greatest of v[0..n); sorts v. */
static inline bench_spread bench_spread_sort(double *v, int n)
{
    bench_spread s = {NAN, NAN, NAN};
    if (n <= 0)
        return s;
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    s.median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    s.min = v[0];
    s.max = v[n - 1];
    return s;
}

/* A rate from times: `work` over the median, the longest and the shortest of
 * secs (so min is the slowest run's rate, max the fastest's); sorts secs. */
static inline bench_spread bench_spread_rate(double work, double *secs, int n)
{
    bench_spread t = bench_spread_sort(secs, n), r;
    r.median = work / t.median;
    r.min = work / t.max;
    r.max = work / t.min;
    return r;
}

#endif
