/* wl_shard.c — the `shard` workload: the sharded table (include/hive/shard.h)
 * over 1, 2, 4, ... GPUs of this machine, one rank a GPU, one host thread a
 * rank, NCCL communicators from ncclCommInitAll.
 *
 *   plain   one GPU, a hive table without the shard layer: the baseline
 *           the scaling is measured against (the same calls, n keys);
 *   weak    n keys a GPU (--n, default 2^26): g*n keys over g GPUs;
 *   strong  4n keys in all, 4n/g a GPU (g = 1 included: the one-GPU time
 *           of the same keys).
 * For each: insert of every rank's keys into empty shards sized for them
 * at load 0.9 (one call a rank), find of every rank's own keys, find of as
 * many absent keys.  Keys are the bench's (gen.h) by counter, rank r taking
 * counters [r*n, (r+1)*n), so most of a rank's keys belong to other ranks
 * (all but 1/g of them).  A run's time is the slowest rank's, from the
 * shard's CUDA events (hive_shard_stats: first kernel to last); rows give
 * keys over all ranks per second, with x = GPUs, and /exchange and /local
 * rows the median run's milliseconds of NCCL exchange and of the owners'
 * batches (a find overlaps them).  The fraction is to g times the sector
 * gather limit of GPU 0.  Every rank checks its last find and absent find
 * on its GPU (gpu_shard.cu). */
#define _POSIX_C_SOURCE 200809L

#include <cuda_runtime_api.h>
#include <math.h>
#include <nccl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/gpu_shard.h"
#include "hive/shard.h"
#include "workloads.h"

#define SHARD_BENCH_MAX_GPUS 16
#define SHARD_BENCH_LF 0.9

enum { PH_INSERT, PH_FIND, PH_ABSENT, PHASES };
static const char *const phase_name[PHASES] = {"insert", "find", "find-absent"};

typedef struct shard_run {
    bench_ctx *c;
    const char *mode; /* plain, weak, strong */
    int gpus;
    uint64_t per_rank;
    ncclComm_t comms[SHARD_BENCH_MAX_GPUS];
    pthread_barrier_t barrier;
    /* [phase][rank][run] milliseconds */
    double total[PHASES][SHARD_BENCH_MAX_GPUS][BENCH_MAX_RUNS];
    double exchange[PHASES][SHARD_BENCH_MAX_GPUS][BENCH_MAX_RUNS];
    double local[PHASES][SHARD_BENCH_MAX_GPUS][BENCH_MAX_RUNS];
    int64_t bad[SHARD_BENCH_MAX_GPUS];
    int failed[SHARD_BENCH_MAX_GPUS];
    uint64_t bytes_held[SHARD_BENCH_MAX_GPUS];
} shard_run;

typedef struct rank_arg {
    shard_run *run;
    int rank;
} rank_arg;

static int fail(shard_run *s, int rank, const char *what, hive_status st, const char *why)
{
    fprintf(stderr, "hive-bench shard (%s, %d GPUs, rank %d): %s: %s: %s\n", s->mode, s->gpus, rank, what,
            hive_status_string(st), why);
    s->failed[rank] = 1;
    return -1;
}

/* One timed call: the shard's own event timing, or events around a plain
 * table's call. */
typedef struct rank_state {
    shard_run *s;
    int rank;
    cudaStream_t stream;
    cudaEvent_t begin, end;
    hive_shard *shard;
    hive_table *table;
} rank_state;

static hive_status timed(rank_state *rs, int phase, int run, hive_status (*call)(rank_state *, void *), void *arg)
{
    shard_run *s = rs->s;
    pthread_barrier_wait(&s->barrier);
    hive_status st;
    if (rs->shard) {
        hive_shard_stats_reset(rs->shard);
        st = call(rs, arg);
        hive_shard_stats stats;
        hive_shard_stats_get(rs->shard, &stats);
        if (run >= 0) {
            s->total[phase][rs->rank][run] = stats.total_ms;
            s->exchange[phase][rs->rank][run] = stats.exchange_ms;
            s->local[phase][rs->rank][run] = stats.local_ms;
        }
    } else {
        cudaEventRecord(rs->begin, rs->stream);
        st = call(rs, arg);
        cudaEventRecord(rs->end, rs->stream);
        cudaEventSynchronize(rs->end);
        float ms = 0;
        cudaEventElapsedTime(&ms, rs->begin, rs->end);
        if (run >= 0) {
            s->total[phase][rs->rank][run] = ms;
            s->local[phase][rs->rank][run] = ms;
        }
    }
    return st;
}

typedef struct call_args {
    uint64_t n;
    void *keys, *values, *out;
    uint8_t *found;
} call_args;

static hive_status do_insert(rank_state *rs, void *p)
{
    call_args *a = p;
    return rs->shard ? hive_shard_insert(rs->shard, a->n, a->keys, a->values, HIVE_COMBINE_ASSIGN, NULL, rs->stream)
                     : hive_insert(rs->table, a->n, a->keys, a->values, HIVE_COMBINE_ASSIGN, NULL, rs->stream);
}

static hive_status do_find(rank_state *rs, void *p)
{
    call_args *a = p;
    return rs->shard ? hive_shard_find(rs->shard, a->n, a->keys, a->out, a->found, rs->stream)
                     : hive_find(rs->table, a->n, a->keys, a->out, a->found, rs->stream);
}

static void *rank_main(void *p)
{
    rank_arg *ra = p;
    shard_run *s = ra->run;
    bench_ctx *c = s->c;
    int r = ra->rank;
    rank_state rs = {.s = s, .rank = r};
    uint64_t n = s->per_rank;
    size_t w = c->kbytes;
    void *keys = NULL, *values = NULL, *out = NULL, *absent = NULL;
    uint8_t *found = NULL;
    cudaSetDevice(r);
    cudaStreamCreateWithFlags(&rs.stream, cudaStreamNonBlocking);
    cudaEventCreate(&rs.begin);
    cudaEventCreate(&rs.end);
    int ok = cudaMalloc(&keys, n * w) == cudaSuccess && cudaMalloc(&values, n * w) == cudaSuccess &&
             cudaMalloc(&out, n * w) == cudaSuccess && cudaMalloc(&absent, n * w) == cudaSuccess &&
             cudaMalloc((void **)&found, n) == cudaSuccess;
    bench_keys k = bench_keys_for(c, bench_seed(c, 0, 0));
    if (ok)
        ok = bench_shard_fill(keys, values, n, (uint64_t)r * n, k, rs.stream) == 0 &&
             bench_shard_fill(absent, NULL, n, bench_neg_base(c->bits) + (uint64_t)r * n, k, rs.stream) == 0;
    if (!ok)
        fail(s, r, "device buffers", HIVE_ERROR_OUT_OF_MEMORY, "cudaMalloc or the key kernel failed");
    /* A rank owns about n keys (exactly n in the plain run): room for them at
     * load 0.9, with a margin for the binomial spread of their owners. */
    hive_config cfg = bench_config(c, (uint64_t)ceil((double)n * 1.01 / SHARD_BENCH_LF), SHARD_BENCH_LF, 0.0);
    cfg.backend = HIVE_BACKEND_CUDA;
    cfg.device = r;
    hive_status st = HIVE_SUCCESS;
    if (strcmp(s->mode, "plain") == 0)
        st = hive_create(&cfg, &rs.table);
    else
        st = hive_shard_create(&cfg, s->comms[r], &rs.shard);
    if (st != HIVE_SUCCESS) {
        fail(s, r, "create", st, rs.shard || strcmp(s->mode, "plain") ? hive_shard_last_error() : hive_last_error());
        rs.shard = NULL;
        rs.table = NULL;
    }
    hive_table *table = rs.shard ? hive_shard_local(rs.shard) : rs.table;
    call_args insert = {n, keys, values, NULL, NULL}, hits = {n, keys, NULL, out, found},
              misses = {n, absent, NULL, out, found};
    for (int run = -1; run < c->runs; run++) {
        /* A failed rank still meets its peers at every barrier, calling
         * nothing (the others' shard calls then fail alike or were never
         * made: every rank failed create together). */
        int live = table != NULL && !s->failed[r];
        if (live)
            hive_clear(table, rs.stream);
        st = live ? timed(&rs, PH_INSERT, run, do_insert, &insert) : (pthread_barrier_wait(&s->barrier), HIVE_SUCCESS);
        if (st != HIVE_SUCCESS)
            fail(s, r, "insert", st, rs.shard ? hive_shard_last_error() : hive_last_error());
        live = live && st == HIVE_SUCCESS;
        st = live ? timed(&rs, PH_FIND, run, do_find, &hits) : (pthread_barrier_wait(&s->barrier), HIVE_SUCCESS);
        if (st != HIVE_SUCCESS)
            fail(s, r, "find", st, rs.shard ? hive_shard_last_error() : hive_last_error());
        if (live && run == c->runs - 1)
            s->bad[r] += bench_shard_verify(keys, out, found, n, c->bits, 1, rs.stream);
        st = live ? timed(&rs, PH_ABSENT, run, do_find, &misses) : (pthread_barrier_wait(&s->barrier), HIVE_SUCCESS);
        if (st != HIVE_SUCCESS)
            fail(s, r, "absent find", st, rs.shard ? hive_shard_last_error() : hive_last_error());
        if (live && run == c->runs - 1)
            s->bad[r] += bench_shard_verify(absent, NULL, found, n, c->bits, 0, rs.stream);
    }
    hive_stats stats = {0};
    if (table && hive_stats_get(table, &stats) == HIVE_SUCCESS)
        s->bytes_held[r] = stats.bytes_held;
    if (rs.shard)
        hive_shard_destroy(rs.shard);
    if (rs.table)
        hive_destroy(rs.table);
    cudaFree(keys);
    cudaFree(values);
    cudaFree(out);
    cudaFree(absent);
    cudaFree(found);
    cudaEventDestroy(rs.begin);
    cudaEventDestroy(rs.end);
    cudaStreamDestroy(rs.stream);
    return NULL;
}

/* The run's time of each phase: the slowest rank's, per timed run. */
static void slowest(const double per_rank[SHARD_BENCH_MAX_GPUS][BENCH_MAX_RUNS], int gpus, int runs, double *secs)
{
    for (int run = 0; run < runs; run++) {
        double worst = 0;
        for (int r = 0; r < gpus; r++)
            worst = per_rank[r][run] > worst ? per_rank[r][run] : worst;
        secs[run] = worst / 1e3;
    }
}

static double median_ms(const double per_rank[SHARD_BENCH_MAX_GPUS][BENCH_MAX_RUNS], int gpus, int runs)
{
    double secs[BENCH_MAX_RUNS];
    slowest(per_rank, gpus, runs, secs);
    for (int i = 1; i < runs; i++)
        for (int j = i; j > 0 && secs[j - 1] > secs[j]; j--) {
            double t = secs[j];
            secs[j] = secs[j - 1];
            secs[j - 1] = t;
        }
    return runs > 0 ? secs[runs / 2] * 1e3 : NAN;
}

static int run_one(bench_ctx *c, const char *mode, int gpus, uint64_t per_rank)
{
    shard_run *s = calloc(1, sizeof *s);
    if (s == NULL)
        return -1;
    s->c = c;
    s->mode = mode;
    s->gpus = gpus;
    s->per_rank = per_rank;
    int devices[SHARD_BENCH_MAX_GPUS];
    for (int r = 0; r < gpus; r++)
        devices[r] = r;
    int plain = strcmp(mode, "plain") == 0;
    if (!plain) {
        ncclResult_t nr = ncclCommInitAll(s->comms, gpus, devices);
        if (nr != ncclSuccess) {
            fprintf(stderr, "hive-bench shard: ncclCommInitAll over %d GPUs: %s\n", gpus, ncclGetErrorString(nr));
            free(s);
            return -1;
        }
    }
    bench_progress(c, "shard: %s, %d GPU(s), %llu keys a GPU", mode, gpus, (unsigned long long)per_rank);
    pthread_barrier_init(&s->barrier, NULL, (unsigned)gpus);
    pthread_t threads[SHARD_BENCH_MAX_GPUS];
    rank_arg args[SHARD_BENCH_MAX_GPUS];
    for (int r = 0; r < gpus; r++) {
        args[r] = (rank_arg){s, r};
        pthread_create(&threads[r], NULL, rank_main, &args[r]);
    }
    for (int r = 0; r < gpus; r++)
        pthread_join(threads[r], NULL);
    pthread_barrier_destroy(&s->barrier);
    if (!plain)
        for (int r = 0; r < gpus; r++)
            ncclCommDestroy(s->comms[r]);
    int rc = 0;
    int64_t bad = 0;
    uint64_t bytes = 0;
    for (int r = 0; r < gpus; r++) {
        rc = s->failed[r] || s->bad[r] < 0 ? -1 : rc;
        bad += s->bad[r] > 0 ? s->bad[r] : 0;
        bytes += s->bytes_held[r];
    }
    if (bad > 0)
        fprintf(stderr, "hive-bench shard: %s, %d GPUs: %lld keys came back wrong\n", mode, gpus, (long long)bad);
    if (rc == 0) {
        uint64_t keys = per_rank * (uint64_t)gpus;
        for (int ph = 0; ph < PHASES; ph++) {
            double secs[BENCH_MAX_RUNS];
            slowest(s->total[ph], gpus, c->runs, secs);
            char op[40];
            snprintf(op, sizeof op, "%s-%s", mode, phase_name[ph]);
            bench_row *row = bench_row_timed(c, op, keys, SHARD_BENCH_LF, gpus, secs, c->runs, bytes, bad == 0);
            row->n = per_rank;
            if (!isnan(row->fraction)) {
                row->fraction /= gpus;
                snprintf(row->limit, sizeof row->limit, "sector_gather x %d", gpus);
            }
            if (plain)
                continue;
            snprintf(op, sizeof op, "%s-%s/exchange", mode, phase_name[ph]);
            bench_row_value(c, op, per_rank, SHARD_BENCH_LF, gpus, median_ms(s->exchange[ph], gpus, c->runs), "ms",
                            bytes, c->runs, bad == 0);
            snprintf(op, sizeof op, "%s-%s/local", mode, phase_name[ph]);
            bench_row_value(c, op, per_rank, SHARD_BENCH_LF, gpus, median_ms(s->local[ph], gpus, c->runs), "ms",
                            bytes, c->runs, bad == 0);
        }
    }
    if (bad > 0)
        c->failures++;
    free(s);
    return rc;
}

int wl_shard(bench_ctx *c)
{
    bench_begin(c, "shard");
    int rc = 0;
    int available = 0;
    if (!c->gpu || cudaGetDeviceCount(&available) != cudaSuccess || available == 0) {
        printf("shard: the sharded table runs on GPUs; none is in use (--backend cuda)\n");
        return bench_end(c);
    }
    if (available > SHARD_BENCH_MAX_GPUS)
        available = SHARD_BENCH_MAX_GPUS;
    uint64_t n = c->n ? c->n : c->def->shard_keys;
    rc |= run_one(c, "plain", 1, n);
    int counts[8], ncounts = 0;
    for (int g = 1; g <= available; g *= 2)
        counts[ncounts++] = g;
    if (counts[ncounts - 1] != available)
        counts[ncounts++] = available;
    for (int i = 0; i < ncounts; i++)
        rc |= run_one(c, "weak", counts[i], n);
    for (int i = 0; i < ncounts; i++)
        rc |= run_one(c, "strong", counts[i], n * 4 / (uint64_t)counts[i]);
    if (bench_end(c) != 0)
        rc = -1;
    return rc;
}
