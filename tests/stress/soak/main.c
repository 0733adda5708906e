/* main.c — the soak run: a long stream of mixed batches (hive_apply with
 * FIND, INSERT, UPSERT and ERASE) at loads up to max_load_factor 0.95, in
 * resize storms, with finder threads on their own streams, all checked
 * against an oracle:
 *
 *   hive-soak <cpu|cuda> <kv32|kv64> [--ops N] [--universe U] [--batch B]
 *             [--seed S] [--checks C] [--clears K] [--finders F] [--finder-rest R]
 *             [--memory mapped|managed]
 *
 * (N, U, B take 1e9, 2^24 or plain digits.)  Defaults: on a GPU 10^9 ops,
 * U = 2^24, batches of up to 2^20, finders flat out (R = 0); on the CPU 10^7
 * ops, U = 2^20, batches of up to 2^16, finders resting R = 3 times a
 * round's duration between rounds; everywhere C = 20 full checks, K = 2
 * clears, F = 2 finders.  A CUDA table's batches live in mapped pinned host
 * memory by default: the host writes every batch and reads every result,
 * which in managed memory would move each page across and back per batch.
 * The keys are U mutable keys, U/256 stable keys and U/256 never-inserted
 * keys (soak.h).  The live count follows phases, rise -> hold -> drain,
 * again and again:
 *   rise   big batches, mostly inserts: the table doubles 2-4 times (fewer
 *          where the hold after would need more than 85% of the mutable
 *          keys);
 *   hold   small batches, inserts and erases in balance, just under 0.95 of
 *          the capacity (a batch's inserts must fit under max_load_factor
 *          without growth), for four times the capacity in ops;
 *   drain  big batches, mostly erases, down to 5-12% of the capacity: the
 *          table shrinks (min_load_factor 0.3), several times.
 * After a drain, one time in three, hive_reserve grows the table by up to
 * twice its capacity (the next erases shrink it back); K times in the run
 * the finders are held and the table is cleared (hive_clear), then the
 * stable keys are put back.
 *
 * Checks: every element of every batch (result code, and the value found or
 * the input left untouched) against the oracle's sequential meaning (keys
 * are distinct within a batch); hive_size after every batch; C times in the
 * run and at the end the whole table (full_check.c); the finders' every
 * lookup (finders.c).  A progress line follows each full check; the last
 * line but one is the summary:
 *   soak cuda kv32: 1000000000 ops, 96 grows, 81 shrinks, 0 mismatches */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soak.h"

typedef struct options {
    uint64_t ops, universe, batch, seed, checks, clears, finders;
    double finder_rest;
} options;

typedef enum phase_kind { RISE, HOLD, DRAIN } phase_kind;
static const char *phase_names[] = {"rise", "hold", "drain"};

typedef struct phase {
    phase_kind kind;
    uint64_t number;
    uint64_t target;   /* live keys aimed at, stable keys included */
    uint64_t ops_left; /* a hold's length; a bound for rises and drains */
    size_t batch_min, batch_max;
} phase;

typedef struct tally {
    double start;
    double secs[4]; /* generating, in hive_apply, checking batches, full checks */
    uint64_t ops, ops_high; /* ops run, and run at a load of 0.9 or more */
    double max_load;
    uint64_t reserves, clears, full_checks;
} tally;

#define MAX_LOAD 0.95
#define MIN_LOAD 0.3
#define HIGH_LOAD 0.9

/* "1e9", "2^24" or digits. */
static int parse_count(const char *s, uint64_t *out)
{
    char *end;
    if (strncmp(s, "2^", 2) == 0) {
        unsigned long e = strtoul(s + 2, &end, 10);
        if (*end != '\0' || e > 62)
            return 0;
        *out = 1ull << e;
        return 1;
    }
    double d = strtod(s, &end);
    if (*end != '\0' || d < 0 || d > 1e19)
        return 0;
    *out = (uint64_t)d;
    return 1;
}

static void parse_options(int argc, char **argv, ht_target *t, options *o)
{
    const char *usage = "<cpu|cuda> <kv32|kv64> [--ops N] [--universe U] [--batch B] [--seed S] "
                        "[--checks C] [--clears K] [--finders F] [--finder-rest R] "
                        "[--memory mapped|managed]";
    ht_target_from_args(t, argc, argv, 1, usage);
    t->memory = HT_MEMORY_MAPPED;
    int gpu = t->backend == HIVE_BACKEND_CUDA;
    *o = (options){gpu ? 1000000000ull : 10000000ull, gpu ? 1ull << 24 : 1ull << 20,
                   gpu ? 1ull << 20 : 1ull << 16, 1, 20, 2, 2, gpu ? 0.0 : 3.0};
    static const char *names[] = {"--ops", "--universe", "--batch", "--seed",
                                  "--checks", "--clears", "--finders"};
    uint64_t *fields[] = {&o->ops, &o->universe, &o->batch, &o->seed,
                          &o->checks, &o->clears, &o->finders};
    for (int a = 3; a < argc; a++) {
        int known = 0;
        if (strcmp(argv[a], "--finder-rest") == 0 && a + 1 < argc) {
            char *end;
            o->finder_rest = strtod(argv[++a], &end);
            known = *end == '\0' && o->finder_rest >= 0;
        } else if (strcmp(argv[a], "--memory") == 0 && a + 1 < argc) {
            const char *m = argv[++a];
            t->memory = strcmp(m, "managed") == 0 ? HT_MEMORY_MANAGED : HT_MEMORY_MAPPED;
            known = strcmp(m, "managed") == 0 || strcmp(m, "mapped") == 0;
        }
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            if (strcmp(argv[a], names[k]) == 0 && a + 1 < argc)
                known = parse_count(argv[++a], fields[k]);
        if (!known) {
            fprintf(stderr, "usage: %s %s\n", argv[0], usage);
            exit(HT_EXIT_FAIL);
        }
    }
    /* Whole slices; room for every batch to draw distinct keys quickly. */
    if (o->universe < 4096 || o->universe > (1ull << 30) || o->universe % SOAK_SLICES != 0)
        ht_fatal("--universe %llu: must be a multiple of %d in [4096, 2^30]",
                 (unsigned long long)o->universe, SOAK_SLICES);
    if (o->batch > o->universe / 8)
        o->batch = o->universe / 8;
    if (o->batch < 1024)
        o->batch = 1024;
    if (o->checks == 0)
        o->checks = 1;
}

/* ---------------------------------------------------------------- steering */

/* Chances that an absent key is inserted (p_insert) and that a present one
 * is erased (p_erase) for an expected change of `want` keys per element,
 * when a share f of the keys drawn are present ones: (1 - f) p_insert -
 * f p_erase = want, with the other chance at 1/4 where that can be, else at
 * its end. */
static void steer(double f, double want, double *p_insert, double *p_erase)
{
    const double base = 0.25;
    double a = 1.0 - f;
    double pi = base, pe = base;
    if (want > a * base - f * base) {
        pi = a > 0 ? (want + f * base) / a : 1;
        if (pi > 1) {
            pi = 1;
            pe = f > 0 ? (a - want) / f : 0;
        }
    } else {
        pe = f > 0 ? (a * base - want) / f : 1;
        if (pe > 1) {
            pe = 1;
            pi = a > 0 ? (want + f) / a : 0;
        }
    }
    *p_insert = pi < 0 ? 0 : pi > 1 ? 1 : pi;
    *p_erase = pe < 0 ? 0 : pe > 1 ? 1 : pe;
}

static hive_stats stats_of(const soak_run *r)
{
    hive_stats st;
    HT_MUST(hive_stats_get(r->table, &st));
    return st;
}

/* The most keys a hold may aim at: 85% of the mutable keys (the universe
 * bounds the live count; the rest stay for the lookups and erases that
 * must miss). */
static double most_keys(const soak_run *r)
{
    return 0.85 * (double)r->u.mutable_n + (double)r->u.stable_n;
}

/* Just under max_load_factor: a batch's inserts (at most batch_max) must
 * fit under it without growth. */
static uint64_t hold_target(const soak_run *r, uint64_t cap, size_t batch_max)
{
    double room = MAX_LOAD * (double)cap - 1.125 * (double)batch_max, most = most_keys(r);
    return (uint64_t)(room < most ? (room > 0 ? room : 0) : most);
}

static phase next_phase(const soak_run *r, const phase *prev, ht_rng *rng, size_t batch)
{
    uint64_t cap = stats_of(r).capacity, mut = r->u.mutable_n, stable = r->u.stable_n;
    phase p = {prev->kind == RISE ? HOLD : prev->kind == HOLD ? DRAIN : RISE, prev->number + 1, 0,
               16 * mut, batch / 4, batch};
    if (p.kind == RISE) {
        /* Up to a load of 1 of the capacity before the k-th doubling (so the
         * table doubles k times), with k as large as the hold after it can
         * fill to 0.95; if none fits, up to what the hold will aim at. */
        unsigned k = 2 + (unsigned)ht_rng_below(rng, 3);
        while (k > 0 && MAX_LOAD * (double)cap * (double)(1ull << k) > most_keys(r))
            k--;
        p.target = k > 0 ? cap << (k - 1) : hold_target(r, cap, batch / 8);
    } else if (p.kind == HOLD) {
        p.batch_min = batch / 64;
        p.batch_max = batch / 8;
        p.target = hold_target(r, cap, p.batch_max);
        p.ops_left = 4 * cap;
    } else {
        double lo = 0.05 + 0.07 * (double)ht_rng_below(rng, 1001) / 1000;
        p.target = stable + (uint64_t)(lo * (double)cap);
    }
    if (p.batch_min < 1)
        p.batch_min = 1;
    return p;
}

static int phase_done(const soak_run *r, const phase *p)
{
    uint64_t slack = p->batch_max / 16;
    return p->ops_left == 0 || (p->kind == RISE && r->live + slack >= p->target) ||
           (p->kind == DRAIN && r->live <= p->target + slack);
}

/* ---------------------------------------------------------------- between phases */

/* The stable keys into the table (at the start and after a clear), checked
 * to be INSERTED, and into the oracle. */
static void insert_stable(soak_run *r, ht_batch *stable)
{
    ht_batch_poison_flags(stable);
    if (!HT_CHECK_STATUS(hive_insert(r->table, stable->n, stable->keys, stable->values,
                                     HIVE_COMBINE_ASSIGN, stable->results, stable->stream),
                         HIVE_SUCCESS, "inserting the %zu stable keys", stable->n))
        soak_mismatches(r, 1);
    uint64_t bad = 0;
    for (size_t i = 0; i < stable->n; i++) {
        soak_slot *slot = &r->u.slots[r->u.mutable_n + i];
        slot->present = 1;
        slot->value = soak_stable_value(&r->u, r->u.mutable_n + i);
        if (stable->results[i] != HIVE_RESULT_INSERTED && bad++ < SOAK_SHOW)
            HT_CHECK(0, "stable key %zu: result %s (expected INSERTED)", i,
                     ht_result_name(stable->results[i]));
    }
    ht_pass_(stable->n - bad);
    soak_mismatches(r, bad);
    r->live += stable->n;
}

static void reserve_room(soak_run *r, ht_rng *rng, tally *tl)
{
    uint64_t cap = stats_of(r).capacity;
    uint64_t want = r->live + ht_rng_below(rng, 2 * cap + 1);
    hive_status s = hive_reserve(r->table, want, r->batch.stream);
    hive_stats st = stats_of(r);
    int ok = HT_CHECK_STATUS(s, HIVE_SUCCESS, "hive_reserve(%llu) at capacity %llu",
                             (unsigned long long)want, (unsigned long long)cap);
    ok &= HT_CHECK((double)st.capacity * MAX_LOAD >= (double)want - 1,
                   "hive_reserve(%llu): capacity %llu holds only %.0f keys under max_load_factor",
                   (unsigned long long)want, (unsigned long long)st.capacity,
                   (double)st.capacity * MAX_LOAD);
    ok &= HT_CHECK_EQ(st.size, r->live, "hive_size after hive_reserve(%llu)",
                      (unsigned long long)want);
    soak_mismatches(r, !ok);
    tl->reserves++;
}

static void clear_table(soak_run *r, ht_batch *stable, tally *tl)
{
    soak_finders_pause(r->finders);
    int ok = HT_CHECK_STATUS(hive_clear(r->table, r->batch.stream), HIVE_SUCCESS, "hive_clear");
    uint64_t size = ~0ull;
    HT_MUST(hive_size(r->table, &size));
    ok &= HT_CHECK_EQ(size, 0, "hive_size after hive_clear");
    soak_mismatches(r, !ok);
    soak_oracle_clear(r);
    insert_stable(r, stable);
    soak_finders_resume(r->finders);
    tl->clears++;
}

/* ---------------------------------------------------------------- reports */

static void progress(soak_run *r, const options *o, const tally *tl, const char *name)
{
    hive_stats st = stats_of(r);
    double secs = soak_now() - tl->start;
    uint64_t missed, wrong, stray;
    soak_finders_errors(r->finders, &missed, &wrong, &stray);
    printf("%s: %llu ops (%.0f%%) in %.1f s, %.2f M ops/s; live %llu, capacity %llu (load %.3f, "
           "max %.3f, %.0f%% of ops at >= %.1f), %llu grows, %llu shrinks, %llu reserves, "
           "%llu clears; finders %llu rounds (%llu missed, %llu wrong, %llu stray); "
           "%llu mismatches; secs: generate %.1f, hive %.1f, check %.1f, full checks %.1f\n",
           name, (unsigned long long)tl->ops, 100.0 * (double)tl->ops / (double)o->ops, secs,
           (double)tl->ops / secs / 1e6, (unsigned long long)r->live,
           (unsigned long long)st.capacity, st.load_factor, tl->max_load,
           tl->ops ? 100.0 * (double)tl->ops_high / (double)tl->ops : 0.0, HIGH_LOAD,
           (unsigned long long)st.grows, (unsigned long long)st.shrinks,
           (unsigned long long)tl->reserves, (unsigned long long)tl->clears,
           (unsigned long long)soak_finders_rounds(r->finders), (unsigned long long)missed,
           (unsigned long long)wrong, (unsigned long long)stray,
           (unsigned long long)atomic_load(&r->mismatches), tl->secs[0], tl->secs[1],
           tl->secs[2], tl->secs[3]);
}

static void full_check(soak_run *r, tally *tl, const char *what)
{
    char where[160];
    snprintf(where, sizeof where, "seed %llu, full check %llu (%s, after %llu ops)",
             (unsigned long long)r->seed, (unsigned long long)tl->full_checks, what,
             (unsigned long long)tl->ops);
    double t0 = soak_now();
    soak_full_check(r, where);
    tl->secs[3] += soak_now() - t0;
    tl->full_checks++;
}

/* ---------------------------------------------------------------- the run */

static void run(soak_run *r, const options *o, ht_batch *stable, const char *name)
{
    tally tl = {soak_now(), {0, 0, 0, 0}, 0, 0, 0, 0, 0, 0};
    ht_rng rng;
    ht_rng_seed(&rng, o->seed);
    phase p = {DRAIN, 0, 0, 0, 0, 0};
    p = next_phase(r, &p, &rng, o->batch);
    uint64_t check_every = o->ops / o->checks ? o->ops / o->checks : 1, next_check = check_every;
    while (tl.ops < o->ops) {
        if (phase_done(r, &p)) {
            if (p.kind == DRAIN && ht_rng_below(&rng, 3) == 0)
                reserve_room(r, &rng, &tl);
            if (p.kind == DRAIN && tl.clears < o->clears &&
                tl.ops >= (tl.clears + 1) * (o->ops / (o->clears + 1)))
                clear_table(r, stable, &tl);
            p = next_phase(r, &p, &rng, o->batch);
        }
        uint64_t cap = stats_of(r).capacity;
        if (p.kind == HOLD) /* the table may have doubled for keys that found no room */
            p.target = hold_target(r, cap, p.batch_max);
        size_t n = ht_rng_below(&rng, 16) == 0
                       ? (size_t)ht_rng_log_size(&rng, 1024)
                       : (size_t)ht_rng_range(&rng, p.batch_min, p.batch_max);
        if (n > o->ops - tl.ops)
            n = (size_t)(o->ops - tl.ops);
        double want = ((double)p.target - (double)r->live) / (double)n;
        steer(r->p_present, want < -1 ? -1 : want > 1 ? 1 : want, &r->p_insert, &r->p_erase);
        static const hive_combine modes[8] = {HIVE_COMBINE_ASSIGN, HIVE_COMBINE_ASSIGN,
                                              HIVE_COMBINE_ASSIGN, HIVE_COMBINE_ADD,
                                              HIVE_COMBINE_ADD,    HIVE_COMBINE_ADD,
                                              HIVE_COMBINE_MIN,    HIVE_COMBINE_MAX};
        r->mode = modes[ht_rng_below(&rng, 8)];
        double load = (double)r->live / (double)cap;
        snprintf(r->where, sizeof r->where,
                 "seed %llu, batch %llu of %zu ops (%s phase %llu, live %llu, capacity %llu)",
                 (unsigned long long)o->seed, (unsigned long long)r->batch_no + 1, n,
                 phase_names[p.kind], (unsigned long long)p.number, (unsigned long long)r->live,
                 (unsigned long long)cap);
        ht_context("%s", r->where);
        soak_mixed_batch(r, n, tl.secs);
        uint64_t size = ~0ull;
        HT_MUST(hive_size(r->table, &size));
        if (!HT_CHECK_EQ(size, r->live, "%s: hive_size after the batch", r->where))
            soak_mismatches(r, 1);
        tl.ops += n;
        p.ops_left -= n < p.ops_left ? n : p.ops_left;
        tl.ops_high += load >= HIGH_LOAD ? n : 0;
        tl.max_load = load > tl.max_load ? load : tl.max_load;
        if (tl.ops >= next_check || tl.ops == o->ops) {
            full_check(r, &tl, tl.ops == o->ops ? "the end" : "periodic");
            progress(r, o, &tl, name);
            next_check += check_every;
        }
    }
    hive_stats st = stats_of(r);
    printf("%s: %llu ops, %llu grows, %llu shrinks, %llu mismatches\n", name,
           (unsigned long long)tl.ops, (unsigned long long)st.grows,
           (unsigned long long)st.shrinks, (unsigned long long)atomic_load(&r->mismatches));
}

int main(int argc, char **argv)
{
    ht_target t;
    options o;
    parse_options(argc, argv, &t, &o);
    static char name[64];
    snprintf(name, sizeof name, "soak %s %s", t.backend_name, t.width_name);
    ht_begin(name);

    soak_run r;
    memset(&r, 0, sizeof r);
    atomic_init(&r.mismatches, 0);
    r.t = &t;
    r.seed = o.seed;
    r.p_present = 0.5;
    r.config = ht_config(&t);
    r.config.initial_capacity = o.universe / 64 < 16384 ? o.universe / 64 : 16384;
    r.config.max_load_factor = MAX_LOAD;
    r.config.min_load_factor = MIN_LOAD;
    ht_context("%s: creating the table", name);
    r.table = ht_open(&t, &r.config);

    uint64_t side = o.universe / 256 < 1024 ? 1024 : o.universe / 256;
    soak_universe_init(&r.u, &t, o.seed, o.universe, side, side);
    printf("%s: %llu ops, seed %llu; %llu mutable, %llu stable and %llu never-inserted keys; "
           "batches of up to %llu in %s; max_load_factor %.2f, min_load_factor %.2f; %llu "
           "finders (rest %g); %d slices\n",
           name, (unsigned long long)o.ops, (unsigned long long)o.seed,
           (unsigned long long)r.u.mutable_n, (unsigned long long)r.u.stable_n,
           (unsigned long long)r.u.absent_n, (unsigned long long)o.batch,
           t.backend == HIVE_BACKEND_CPU       ? "host memory"
           : t.memory == HT_MEMORY_MAPPED ? "mapped host memory"
                                          : "managed memory",
           MAX_LOAD, MIN_LOAD,
           (unsigned long long)o.finders, o.finder_rest, SOAK_SLICES);
    soak_pool_start(&r.pool);
    ht_batch_init(&r.batch, &t, o.batch);
    r.want_result = malloc(o.batch);
    r.want_value = malloc(o.batch * sizeof *r.want_value);
    r.index = malloc(o.batch * sizeof *r.index);
    if (r.want_result == NULL || r.want_value == NULL || r.index == NULL)
        ht_fatal("out of host memory");
    soak_full_check_init(&r);

    ht_batch stable;
    ht_batch_init(&stable, &t, r.u.stable_n);
    stable.n = r.u.stable_n;
    for (size_t i = 0; i < stable.n; i++) {
        ht_put(&t, stable.keys, i, soak_key(&r.u, r.u.mutable_n + i));
        ht_put(&t, stable.values, i, soak_stable_value(&r.u, r.u.mutable_n + i));
    }
    insert_stable(&r, &stable);
    r.finders = soak_finders_start(&r, (unsigned)o.finders, o.finder_rest);

    run(&r, &o, &stable, name);

    soak_finders_stop(r.finders);
    ht_batch_free(&stable);
    soak_full_check_free(&r);
    free(r.want_result);
    free(r.want_value);
    free(r.index);
    ht_batch_free(&r.batch);
    soak_pool_stop(&r.pool);
    soak_universe_free(&r.u);
    ht_close(r.table);
    return ht_finish();
}
