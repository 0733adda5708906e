/* report.c — the table, CSV and JSON writers (see report.h).
 *
 * Columns (CSV header, JSON row keys):
 *   workload, backend, key_bits, n, load_factor, op, x,
 *   gops        throughput in 10^9 key operations per second (the median run)
 *   value, unit another figure (a limit's bandwidth, a fraction, a ratio, buckets/s)
 *   limit       the ceiling gops is divided by (GPU: sector_gather), fraction = gops / limit
 *   bytes_held  the table's footprint (hive_stats.bytes_held)
 *   runs, ok    timed runs behind the median; 1 verified / 0 failed / -1 nothing to verify
 *   device, driver, commit, date
 *   geometry    slots per bucket x lanes per key of the tables, as created
 *   gops_min, gops_max    the slowest and the fastest run's gops (empty: not per run)
 *   value_min, value_max  the least and the greatest run's value (empty: not per run)
 *   design      the table design (hive_config.design; empty for limits and the cache table)
 * In the CSV the four min/max columns and then design come last, so the columns
 * before them keep fixed positions; the JSON rows carry the same keys (geometry
 * and design per row: one file holds every design of --design all). */
#define _POSIX_C_SOURCE 200809L

#include "report.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

static const char *backend_name(const bench_ctx *c) { return c->gpu ? "cuda" : "cpu"; }

static void fmt_bytes(char *out, size_t size, uint64_t b)
{
    if (b == 0)
        snprintf(out, size, "-");
    else if (b >= (1ull << 30))
        snprintf(out, size, "%.2f GiB", (double)b / (double)(1ull << 30));
    else if (b >= (1ull << 20))
        snprintf(out, size, "%.1f MiB", (double)b / (double)(1ull << 20));
    else
        snprintf(out, size, "%.1f KiB", (double)b / 1024.0);
}

void bench_report_table(const bench_ctx *c, FILE *f)
{
    /* GPU figures in B ops/s; CPU figures read better in M ops/s. */
    double scale = c->gpu ? 1.0 : 1000.0;
    const char *unit = c->gpu ? "Gops/s" : "Mops/s";
    fprintf(f, "\n== %s: %s backend, KV%u, %s%s%sgeometry %s, %s, driver %s, commit %s, %s\n",
            c->workload, backend_name(c), c->bits, c->design_name[0] ? "design " : "",
            c->design_name, c->design_name[0] ? ", " : "", c->geometry, c->device, c->driver,
            c->commit, c->date);
    fprintf(f, "%-26s %12s %6s %12s %10s %-17s %9s %18s %11s %4s\n", "op", "n", "load", "x", unit,
            "(min..max)", c->gpu ? "of limit" : "", "other", "footprint", "ok");
    size_t detail = 0;
    for (size_t i = c->first_row; i < c->nrows; i++) {
        const bench_row *r = &c->rows[i];
        if (r->detail) {
            detail++;
            continue;
        }
        char lf[16] = "", x[24] = "", rate[24] = "", range[48] = "", frac[16] = "",
             other[40] = "", fp[24];
        if (r->load_factor >= 0)
            snprintf(lf, sizeof lf, "%.3f", r->load_factor);
        if (!isnan(r->x))
            snprintf(x, sizeof x, "%.6g", r->x);
        if (!isnan(r->gops))
            snprintf(rate, sizeof rate, "%.3f", r->gops * scale);
        if (!isnan(r->gops_min) && !isnan(r->gops_max) && r->runs > 1)
            snprintf(range, sizeof range, "%.3f..%.3f", r->gops_min * scale, r->gops_max * scale);
        if (!isnan(r->fraction))
            snprintf(frac, sizeof frac, "%.3f", r->fraction);
        if (!isnan(r->value))
            snprintf(other, sizeof other, "%.4g %s", r->value, r->unit);
        fmt_bytes(fp, sizeof fp, r->bytes_held);
        fprintf(f, "%-26s %12llu %6s %12s %10s %-17s %9s %18s %11s %4s\n", r->op,
                (unsigned long long)r->n, lf, x, rate, range, frac, other, fp,
                r->ok > 0 ? "yes" : r->ok == 0 ? "NO" : "-");
    }
    if (detail)
        fprintf(f, "(%zu more rows in the CSV and JSON files)\n", detail);
    fflush(f);
}

/* mkdir -p */
static int make_dirs(const char *path)
{
    char buf[4096];
    size_t len = strlen(path);
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, path, len + 1);
    for (size_t i = 1; i <= len; i++) {
        if (buf[i] == '/' || buf[i] == '\0') {
            char saved = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return -1;
            buf[i] = saved;
        }
    }
    return 0;
}

static void csv_last_double(FILE *f, double v)
{
    if (!isnan(v))
        fprintf(f, "%.9g", v);
}

static void csv_double(FILE *f, double v)
{
    csv_last_double(f, v);
    fputc(',', f);
}

/* CSV fields here never hold commas or quotes except device names: quote them. */
static void csv_string(FILE *f, const char *s, int last)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
    fputc(last ? '\n' : ',', f);
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static void json_double(FILE *f, const char *key, double v, int comma)
{
    fprintf(f, "\"%s\": ", key);
    if (isnan(v) || isinf(v))
        fprintf(f, "null");
    else
        fprintf(f, "%.9g", v);
    if (comma)
        fprintf(f, ", ");
}

/* "key": median, "key_min": slowest, "key_max": fastest, then ", " */
static void json_spread(FILE *f, const char *key, bench_spread s)
{
    char k[64];
    json_double(f, key, s.median, 1);
    snprintf(k, sizeof k, "%s_min", key);
    json_double(f, k, s.min, 1);
    snprintf(k, sizeof k, "%s_max", key);
    json_double(f, k, s.max, 1);
}

int bench_report_files(const bench_ctx *c)
{
    if (make_dirs(c->out_dir) != 0) {
        fprintf(stderr, "hive-bench: cannot create %s: %s\n", c->out_dir, strerror(errno));
        return -1;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/%s_%s_kv%u.csv", c->out_dir, c->workload, backend_name(c),
             c->bits);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "hive-bench: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(f, "workload,backend,key_bits,n,load_factor,op,x,gops,value,unit,limit,fraction,"
               "bytes_held,runs,ok,device,driver,commit,date,geometry,gops_min,gops_max,"
               "value_min,value_max,design\n");
    for (size_t i = 0; i < c->nrows; i++) {
        const bench_row *r = &c->rows[i];
        fprintf(f, "%s,%s,%u,%llu,", r->workload, backend_name(c), c->bits,
                (unsigned long long)r->n);
        csv_double(f, r->load_factor >= 0 ? r->load_factor : NAN);
        fprintf(f, "%s,", r->op);
        csv_double(f, r->x);
        csv_double(f, r->gops);
        csv_double(f, r->value);
        fprintf(f, "%s,%s,", r->unit, r->limit);
        csv_double(f, r->fraction);
        fprintf(f, "%llu,%d,%d,", (unsigned long long)r->bytes_held, r->runs, r->ok);
        csv_string(f, c->device, 0);
        csv_string(f, c->driver, 0);
        csv_string(f, c->commit, 0);
        csv_string(f, c->date, 0);
        csv_string(f, r->geometry, 0);
        csv_double(f, r->gops_min);
        csv_double(f, r->gops_max);
        csv_double(f, r->value_min);
        csv_double(f, r->value_max);
        csv_string(f, r->design, 1);
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "hive-bench: error writing %s\n", path);
        return -1;
    }

    snprintf(path, sizeof path, "%s/%s_%s_kv%u.json", c->out_dir, c->workload, backend_name(c),
             c->bits);
    f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "hive-bench: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(f, "{\n  \"workload\": ");
    json_string(f, c->workload);
    fprintf(f, ",\n  \"backend\": ");
    json_string(f, backend_name(c));
    fprintf(f, ",\n  \"key_bits\": %u,\n  \"device\": ", c->bits);
    json_string(f, c->device);
    fprintf(f, ",\n  \"driver\": ");
    json_string(f, c->driver);
    fprintf(f, ",\n  \"commit\": ");
    json_string(f, c->commit);
    fprintf(f, ",\n  \"date\": ");
    json_string(f, c->date);
    fprintf(f, ",\n  \"geometry\": ");
    json_string(f, c->geometry);
    fprintf(f, ",\n  \"seed\": %llu,\n  \"units\": {\"gops\": \"1e9 key operations per second\", "
               "\"bytes_held\": \"bytes\"},\n",
            (unsigned long long)c->seed);
    if (c->gpu && c->limits_done) {
        fprintf(f, "  \"limits\": {");
        json_spread(f, "copy_bytes_per_s", c->limits.copy_bytes_per_s);
        json_spread(f, "line128_per_s", c->limits.line128_per_s);
        json_spread(f, "line256_per_s", c->limits.line256_per_s);
        json_spread(f, "sector_per_s", c->limits.sector_per_s);
        json_spread(f, "cas_per_s", c->limits.cas_per_s);
        json_spread(f, "index_per_s", c->limits.index_per_s);
        fprintf(f, "\"buffer_bytes\": %llu, \"l2_bytes\": %llu},\n",
                (unsigned long long)c->limits.buffer_bytes, (unsigned long long)c->limits.l2_bytes);
    }
    fprintf(f, "  \"rows\": [");
    for (size_t i = 0; i < c->nrows; i++) {
        const bench_row *r = &c->rows[i];
        fprintf(f, "%s\n    {\"op\": ", i ? "," : "");
        json_string(f, r->op);
        fprintf(f, ", \"n\": %llu, ", (unsigned long long)r->n);
        json_double(f, "load_factor", r->load_factor >= 0 ? r->load_factor : NAN, 1);
        json_double(f, "x", r->x, 1);
        json_double(f, "gops", r->gops, 1);
        json_double(f, "gops_min", r->gops_min, 1);
        json_double(f, "gops_max", r->gops_max, 1);
        json_double(f, "value", r->value, 1);
        json_double(f, "value_min", r->value_min, 1);
        json_double(f, "value_max", r->value_max, 1);
        fprintf(f, "\"unit\": ");
        json_string(f, r->unit);
        fprintf(f, ", \"limit\": ");
        json_string(f, r->limit);
        fprintf(f, ", ");
        json_double(f, "fraction", r->fraction, 1);
        fprintf(f, "\"bytes_held\": %llu, \"runs\": %d, \"ok\": %d, \"design\": ",
                (unsigned long long)r->bytes_held, r->runs, r->ok);
        json_string(f, r->design);
        fprintf(f, ", \"geometry\": ");
        json_string(f, r->geometry);
        fputc('}', f);
    }
    fprintf(f, "\n  ]\n}\n");
    bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "hive-bench: error writing %s\n", path);
        return -1;
    }
    return 0;
}
