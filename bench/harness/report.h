/* report.h — hive-bench's output: a table on stdout, and per workload a CSV
 * and a JSON file in the results folder (--out). */
#ifndef HIVE_BENCH_REPORT_H
#define HIVE_BENCH_REPORT_H

#include <stdio.h>

#include "harness.h"

/* The current workload's rows as an aligned table. */
void bench_report_table(const bench_ctx *c, FILE *f);
/* Writes <out>/<workload>_<backend>_kv<bits>.csv and .json (creating the
 * folder).  Returns 0, or -1 after printing why. */
int bench_report_files(const bench_ctx *c);

#endif
