/* wl_tiered.c — the `tiered` workload: the two-level table (hive.h, "the
 * two-level table") on the workloads of Choudhury and Purini's
 * heterogeneous working-set hash tables, beside a CPU dictionary alone and,
 * on a GPU, a GPU dictionary holding every key.
 *
 * R records (--n; 2^24 on the GPU), 64-bit keys and values, all loaded
 * first (untimed).  The two-level table's hot tier holds --hot-fraction x
 * R entries (BENCH_TIERED_HOT, 10%, by default; on the GPU when the run has
 * one), its cold tier and the CPU dictionary run on the run's CPU threads
 * (--threads).
 * Query streams over the records: uniform; Gaussian around the middle
 * record with sigma 0.1 R (the 20% of the records within one sigma draw 68%
 * of the queries: the paper's "20% hot"); Zipf 0.99 (rank 0 hottest, ranks
 * scattered over the key space).  Each batch (--batch keys) is split by a
 * coin into finds (95% or 50%) and upserts; one call finds the batch's
 * finds, the next upserts the rest with the batch's number as the new value
 * tag, so that a key repeated in a batch gets one value.  Per target the
 * six points (3 streams x 2 mixes) run one after the other on one loaded
 * table, each after BENCH_TIERED_WARM x R untimed queries; then --runs
 * timed passes of BENCH_TIERED_OPS x R queries each (each pass its own
 * draws), the row the median pass and its spread the slowest and fastest.
 *
 *   cpu       hive_table, CPU backend, host arrays
 *   tiered    hive_tiered (promotion on find), host arrays
 *   tiered8   the same, a cold hit moving up one time in BENCH_TIERED_ONE_IN
 *             (8: promote_one_in; fewer moves, each of which costs the cold
 *             tier an erase and a write-back)
 *   gpu       (GPU runs) hive_table, CUDA backend, pre-sized for R keys;
 *             the batch's keys copied to the device and the values back
 *             inside the timing, as the host arrays of the others
 *
 * The query arrays (keys, values, found flags) are host memory: on a GPU
 * run page-locked and mapped (bench_host_alloc), as a GPU program's I/O
 * buffers, which the two-level table's hot tier reads and writes as they
 * are, and the GPU target copies by DMA; with --pageable, malloc's, which
 * the two-level table stages and the GPU target copies through the
 * driver's staging.  The rows' geometry column says which.
 *
 * Rows: G queries/s by wall clock (synchronous calls), op "<target>
 * <stream> <find%>"; the tiered rows' value is their speed-up over cpu on
 * the same point (unit "x cpu"), and a row per point gives each two-level
 * table's hot hit rate ("<target>-hitrate <stream> <find%>").  Verified: every find of every batch (warm-up
 * included) found its key with the value of its latest upsert. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads.h"

enum { T_CPU, T_TIERED, T_SAMPLED, T_GPU, NTARGETS };
static const char *const target_names[NTARGETS] = {"cpu", "tiered", "tiered8", "gpu"};
enum { S_UNIFORM, S_GAUSS, S_ZIPF, NSTREAMS };
static const char *const stream_names[NSTREAMS] = {"uniform", "gauss20", "zipf0.99"};
static const double find_shares[2] = {0.95, 0.50};

typedef struct tw_plan {
    uint64_t records, batch, warm, timed;
    bench_keys keys;
    bench_gen zipf; /* only its Zipf parameters (bench_zipf) */
    uint32_t *version; /* (records): the value tag of each record's latest upsert */
    uint64_t *fkeys, *fvals, *ukeys, *uvals; /* host (batch) */
    uint32_t *frec, *urec;                   /* host (batch): the records of fkeys, ukeys */
    uint8_t *found;                          /* host (batch) */
    void *dkeys, *dvals;                     /* table memory (batch), GPU target */
    uint8_t *dfound;
    uint32_t tag;                            /* the next batch's value tag (>= 1; 0: the load) */
} tw_plan;

/* One of the targets behind one interface: three calls and a close. */
typedef struct tw_target {
    int kind;
    hive_table *table;
    hive_tiered *tiered;
} tw_target;

static uint64_t draw(const tw_plan *p, int stream, uint64_t seed, uint64_t i)
{
    double u = bench_uniform(seed, 2 * i + 1);
    if (stream == S_UNIFORM) {
        uint64_t r = (uint64_t)(u * (double)p->records);
        return r < p->records ? r : p->records - 1;
    }
    if (stream == S_ZIPF)
        return bench_zipf(&p->zipf, u);
    /* Box-Muller from two uniforms; wrapped into range. */
    double u2 = bench_uniform(seed ^ 0x5bd1e995u, 2 * i + 1);
    double g = sqrt(-2.0 * log(u > 0 ? u : 1e-300)) * cos(6.283185307179586 * u2);
    double x = (double)p->records * (0.5 + 0.1 * g);
    int64_t r = (int64_t)floor(x) % (int64_t)p->records;
    return (uint64_t)(r < 0 ? r + (int64_t)p->records : r);
}

static int t_upsert(bench_ctx *c, tw_plan *p, tw_target *t, uint64_t n)
{
    if (n == 0)
        return 0;
    switch (t->kind) {
    case T_TIERED:
    case T_SAMPLED:
        return bench_status(c, hive_tiered_upsert(t->tiered, n, p->ukeys, p->uvals, c->stream),
                            "hive_tiered_upsert");
    case T_CPU:
        return bench_status(c, hive_insert(t->table, n, p->ukeys, p->uvals, HIVE_COMBINE_ASSIGN, NULL, NULL),
                            "hive_insert");
    default:
        if (bench_to_table_memory(c, p->dkeys, p->ukeys, n * 8) != 0 ||
            bench_to_table_memory(c, p->dvals, p->uvals, n * 8) != 0)
            return -1;
        return bench_status(c, hive_insert(t->table, n, p->dkeys, p->dvals, HIVE_COMBINE_ASSIGN, NULL,
                                           c->stream),
                            "hive_insert");
    }
}

static int t_find(bench_ctx *c, tw_plan *p, tw_target *t, uint64_t n)
{
    if (n == 0)
        return 0;
    switch (t->kind) {
    case T_TIERED:
    case T_SAMPLED:
        return bench_status(c, hive_tiered_find(t->tiered, n, p->fkeys, p->fvals, p->found, c->stream),
                            "hive_tiered_find");
    case T_CPU:
        return bench_status(c, hive_find(t->table, n, p->fkeys, p->fvals, p->found, NULL), "hive_find");
    default:
        if (bench_to_table_memory(c, p->dkeys, p->fkeys, n * 8) != 0)
            return -1;
        int s = bench_status(c, hive_find(t->table, n, p->dkeys, p->dvals, p->dfound, c->stream),
                             "hive_find");
        if (s < 0 || bench_to_host(c, p->fvals, p->dvals, n * 8) != 0 ||
            bench_to_host(c, p->found, p->dfound, n) != 0)
            return -1;
        return s;
    }
}

static int t_open(bench_ctx *c, const tw_plan *p, int kind, tw_target *t)
{
    memset(t, 0, sizeof *t);
    t->kind = kind;
    if (kind == T_TIERED || kind == T_SAMPLED) {
        hive_tiered_config cfg = HIVE_TIERED_CONFIG_INIT;
        cfg.promote_one_in = kind == T_SAMPLED ? BENCH_TIERED_ONE_IN : 1;
        cfg.hot_backend = c->backend;
        cfg.hot_capacity = (uint64_t)llround(c->hot_fraction * (double)p->records);
        cfg.cold_capacity = p->records;
        cfg.batch = (uint32_t)p->batch;
        cfg.threads = c->threads;
        cfg.write_back = (uint32_t)c->write_back;
        cfg.hot_dual_bucket = c->hot_single_bucket ? 0u : 1u;
        hive_status s = hive_tiered_create(&cfg, &t->tiered);
        if (s != HIVE_SUCCESS) {
            fprintf(stderr, "hive_tiered_create: %s: %s\n", hive_status_string(s), hive_last_error());
            return -1;
        }
        return 0;
    }
    hive_config cfg = HIVE_CONFIG_INIT;
    cfg.backend = kind == T_CPU ? HIVE_BACKEND_CPU : HIVE_BACKEND_CUDA;
    cfg.key_width = HIVE_KV64;
    cfg.initial_capacity = (uint64_t)((double)p->records / 0.85);
    cfg.min_load_factor = 0;
    cfg.threads = c->threads;
    return bench_create(c, &cfg, &t->table);
}

static void t_close(tw_target *t)
{
    if (t->tiered != NULL)
        hive_tiered_destroy(t->tiered);
    if (t->table != NULL)
        hive_destroy(t->table);
}

/* Every record with tag 0 (untimed). */
static int load(bench_ctx *c, tw_plan *p, tw_target *t)
{
    for (uint64_t first = 0; first < p->records; first += p->batch) {
        uint64_t n = p->records - first < p->batch ? p->records - first : p->batch;
        for (uint64_t i = 0; i < n; i++) {
            p->ukeys[i] = bench_key(&p->keys, first + i);
            p->uvals[i] = bench_value(64, p->ukeys[i], 0);
        }
        if (t_upsert(c, p, t, n) != 0)
            return -1;
    }
    return 0;
}

/* `total` queries of one stream and mix; the seconds of the two calls of
 * each batch summed into *secs; returns the wrong finds, or -1.  The finds
 * run before the upserts, so they are checked against the tags before the
 * batch's, which the upserts then advance. */
static int64_t queries(bench_ctx *c, tw_plan *p, tw_target *t, int stream, double share, uint64_t seed,
                       uint64_t total, double *secs)
{
    int64_t wrong = 0;
    *secs = 0;
    for (uint64_t first = 0; first < total; first += p->batch) {
        uint64_t n = total - first < p->batch ? total - first : p->batch, nf = 0, nu = 0;
        uint32_t tag = p->tag++;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t r = draw(p, stream, seed, first + i);
            uint64_t key = bench_key(&p->keys, r);
            if (bench_uniform(seed, 2 * (first + i)) < share) {
                p->frec[nf] = (uint32_t)r;
                p->fkeys[nf++] = key;
            } else {
                p->urec[nu] = (uint32_t)r;
                p->ukeys[nu] = key;
                p->uvals[nu++] = bench_value(64, key, tag);
            }
        }
        memset(p->found, 0, nf);
        double t0 = bench_now();
        if (t_find(c, p, t, nf) < 0)
            return -1;
        if (t_upsert(c, p, t, nu) < 0)
            return -1;
        *secs += bench_now() - t0;
        for (uint64_t i = 0; i < nf; i++) {
            uint64_t want = bench_value(64, p->fkeys[i], p->version[p->frec[i]]);
            if (p->found[i] && p->fvals[i] == want)
                continue;
            if (wrong < 5)
                bench_fail(c, "%s %s: key %llx found %u value %llx, expected %llx (tag %u)",
                           target_names[t->kind], stream_names[stream], (unsigned long long)p->fkeys[i],
                           p->found[i], (unsigned long long)p->fvals[i], (unsigned long long)want,
                           p->version[p->frec[i]]);
            wrong++;
        }
        for (uint64_t i = 0; i < nu; i++)
            p->version[p->urec[i]] = tag;
    }
    return wrong;
}

/* One target: opened, loaded, the six points, closed.  rates[stream][mix]
 * gets its queries per second (NAN where it failed). */
static int one_target(bench_ctx *c, tw_plan *p, int kind, double rates[NSTREAMS][2])
{
    tw_target t;
    for (int s = 0; s < NSTREAMS; s++)
        rates[s][0] = rates[s][1] = NAN;
    if (t_open(c, p, kind, &t) != 0)
        return -1;
    for (uint64_t r = 0; r < p->records; r++)
        p->version[r] = 0;
    bench_progress(c, "tiered: %s, loading %llu records", target_names[kind], (unsigned long long)p->records);
    if (load(c, p, &t) != 0)
        goto fail;
    for (int s = 0; s < NSTREAMS; s++) {
        for (int m = 0; m < 2; m++) {
            uint64_t seed = bench_seed(c, (uint64_t)(s * 2 + m), 0); /* the same stream for every target */
            double warm_s = 0;
            hive_tiered_stats before = {0}, after = {0};
            bench_progress(c, "tiered: %s, %s, %.0f%% finds", target_names[kind], stream_names[s],
                           find_shares[m] * 100);
            int64_t bad = queries(c, p, &t, s, find_shares[m], seed, p->warm, &warm_s);
            if (bad < 0)
                goto fail;
            if (t.tiered != NULL && bench_status(c, hive_tiered_stats_get(t.tiered, &before),
                                                 "hive_tiered_stats_get") != 0)
                goto fail;
            int runs = c->runs < 1 ? 1 : c->runs > BENCH_MAX_RUNS ? BENCH_MAX_RUNS : c->runs;
            double secs[BENCH_MAX_RUNS];
            for (int r = 0; r < runs; r++) {
                int64_t bad2 = queries(c, p, &t, s, find_shares[m], seed ^ (0x7e57ull + (uint64_t)r), p->timed,
                                       &secs[r]);
                if (bad2 < 0)
                    goto fail;
                bad += bad2;
            }
            char op[40];
            snprintf(op, sizeof op, "%s %s %.0f", target_names[kind], stream_names[s], find_shares[m] * 100);
            bench_row *row = bench_row_timed(c, op, p->timed, -1, c->hot_fraction, secs, runs, 0, bad == 0);
            row->n = p->batch; /* the rows' n is the batch; the rate is of the timed queries */
            rates[s][m] = row->gops * 1e9;
            if (t.tiered == NULL)
                continue;
            if (bench_status(c, hive_tiered_stats_get(t.tiered, &after), "hive_tiered_stats_get") != 0)
                goto fail;
            uint64_t hot = after.hot_hits - before.hot_hits;
            uint64_t looked = hot + (after.cold_hits - before.cold_hits) + (after.misses - before.misses);
            snprintf(op, sizeof op, "%s-hitrate %s %.0f", target_names[kind], stream_names[s],
                     find_shares[m] * 100);
            bench_row_value(c, op, p->batch, -1, c->hot_fraction, looked ? (double)hot / (double)looked : NAN,
                            "hit rate", 0, 1, -1);
        }
    }
    t_close(&t);
    return 0;
fail:
    t_close(&t);
    return -1;
}

int wl_tiered(bench_ctx *c)
{
    uint32_t bits = c->bits;
    size_t kbytes = c->kbytes;
    char geometry[sizeof c->geometry];
    memcpy(geometry, c->geometry, sizeof geometry);
    c->bits = 64;
    c->kbytes = 8;
    snprintf(c->geometry, sizeof c->geometry, "%s arrays%s%s", c->gpu ? (c->pageable ? "pageable" : "pinned") : "host",
             c->write_back ? ", write-back" : "", c->hot_single_bucket ? ", one bucket" : "");
    bench_begin(c, "tiered");
    tw_plan p;
    memset(&p, 0, sizeof p);
    p.records = c->n ? c->n : c->def->tiered_records;
    p.batch = c->batch ? c->batch : c->def->cache_batch;
    if (p.batch > p.records)
        p.batch = p.records;
    if (p.records > UINT32_MAX)
        p.records = UINT32_MAX; /* records are 32-bit in the plan */
    p.warm = (uint64_t)llround(BENCH_TIERED_WARM * (double)p.records);
    p.timed = (uint64_t)llround(BENCH_TIERED_OPS * (double)p.records);
    p.keys = bench_keys_for(c, c->seed);
    p.zipf = bench_gen_zipf(p.keys, p.batch, p.records, BENCH_TIERED_ZIPF, 1.0, 1);
    p.tag = 1;
    int rc = 0;
    size_t w = (size_t)p.batch * 8;
    p.version = malloc(p.records * sizeof *p.version);
    p.fkeys = bench_host_alloc(c, w), p.fvals = bench_host_alloc(c, w);
    p.ukeys = bench_host_alloc(c, w), p.uvals = bench_host_alloc(c, w);
    p.frec = malloc(p.batch * 4), p.urec = malloc(p.batch * 4);
    p.found = bench_host_alloc(c, p.batch);
    if (c->gpu) {
        p.dkeys = bench_alloc(c, w);
        p.dvals = bench_alloc(c, w);
        p.dfound = bench_alloc(c, p.batch);
    }
    if (!p.version || !p.fkeys || !p.fvals || !p.ukeys || !p.uvals || !p.frec || !p.urec || !p.found ||
        (c->gpu && (!p.dkeys || !p.dvals || !p.dfound))) {
        fprintf(stderr, "tiered: no memory for %llu records' buffers\n", (unsigned long long)p.records);
        rc = -1;
        goto out;
    }
    double rates[NTARGETS][NSTREAMS][2];
    for (int k = 0; k < NTARGETS && rc == 0; k++)
        if (k != T_GPU || c->gpu)
            rc = one_target(c, &p, k, rates[k]);
    /* The two-level rows' value: their speed-up over the CPU dictionary. */
    for (size_t i = c->first_row; rc == 0 && i < c->nrows; i++) {
        bench_row *r = &c->rows[i];
        for (int k = T_TIERED; k <= T_SAMPLED; k++)
            for (int s = 0; s < NSTREAMS; s++)
                for (int m = 0; m < 2; m++) {
                    char op[40];
                    snprintf(op, sizeof op, "%s %s %.0f", target_names[k], stream_names[s], find_shares[m] * 100);
                    if (strcmp(r->op, op) == 0) {
                        r->value = rates[k][s][m] / rates[T_CPU][s][m];
                        snprintf(r->unit, sizeof r->unit, "x cpu");
                    }
                }
    }
out:
    free(p.version);
    bench_host_free(c, p.fkeys), bench_host_free(c, p.fvals), bench_host_free(c, p.ukeys);
    bench_host_free(c, p.uvals), bench_host_free(c, p.found);
    free(p.frec), free(p.urec);
    if (c->gpu) {
        bench_free(c, p.dkeys);
        bench_free(c, p.dvals);
        bench_free(c, p.dfound);
    }
    if (bench_end(c) != 0)
        rc = -1;
    c->bits = bits;
    c->kbytes = kbytes;
    memcpy(c->geometry, geometry, sizeof geometry);
    return rc;
}
