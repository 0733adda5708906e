/* main.c — hive-crowded: tables whose keys crowd a few small sets of
 * buckets, made to grow and then to shrink while the crowd cannot fit back:
 *
 *   hive-crowded <cpu|cuda> <kv32|kv64> <small|crowded|finders|sparse> [--stash0]
 *                [--geometry SxT] [--scale N] [--fill F] [--seed S] [--design NAME]
 *
 * Each crowded key has its buckets (both of the Hive design's; the double
 * design's 16 probe buckets, or for KV32 keys its first only) in one set of
 * consecutive buckets of the table's base index (tests/support/aim.h), the
 * index a table merges back to when it shrinks to its initial capacity.
 * There the sets hold fewer slots than their keys, so a shrink must find
 * them room elsewhere (the stash) or be undone, and whichever it does, no
 * key may be lost.  After
 * every insert and erase call the whole table is compared with the reference
 * map (crowd_check in table.c: every key found with its value, absent keys
 * not found and their value entries untouched, hive_size, hive_export pair
 * for pair, capacity changes counted as grows or shrinks in hive_stats); the
 * first call after which they differ stops the scenario.
 *
 *   small    4 sets of 16 buckets of a table of 256 buckets with no stash,
 *            reserved to 512 buckets; 1.5 keys a slot of each set (96 keys
 *            a set of 4-slot buckets), one insert call a set, then every key
 *            erased: 16 calls of one key, then calls of up to 1/16 of them.
 *            The first erase leaves the table under min_load_factor: it
 *            tries to merge back to 256 buckets, where the sets cannot hold
 *            their keys.
 *   crowded  a table of N x 16384 slots; sets on 1/8 of its buckets, 16 of
 *            1/128 each, or fewer of 16 buckets where that is more, given F
 *            keys a slot (the crowd overflows the stash, and the table
 *            grows), and filler keys outside the sets up to 0.533 of
 *            the initial capacity, so that the grown table is just above
 *            min_load_factor.  Half of each kind is stable (inserted first,
 *            never erased), half churns: inserted (the table grows), erased
 *            in 8 calls of one key, then of up to 1/24 of them, filler first
 *            (the table goes under min_load_factor with the whole crowd in
 *            it, and tries to shrink on every call), inserted again, erased
 *            again.
 *   finders  crowded, with three threads looking up, all the while, the
 *            stable keys (found, exact values) and keys never inserted (not
 *            found, value entries untouched), each with its own arrays and,
 *            on a CUDA table, its own stream.
 *
 *   --stash0        stash_fraction 0 for crowded and finders (small has no
 *                   stash anyway): an insert that finds no room must grow the
 *                   table, or report REJECTED_FULL for exactly the keys it
 *                   did not store (and TABLE_FULL); the reference follows
 *                   the results.
 *   --geometry SxT  config.bucket_slots S, lanes_per_op T (default: the
 *                   backend's own); small scales its sets' keys by S.
 *   --scale N       crowded and finders tables start with N x 16384 slots
 *                   (default 1).
 *   --fill F        keys a slot of a crowded set of crowded and finders
 *                   (default 1.25: more than the stash takes when the table
 *                   merges back).  The report
 *                   that found lost keys was --geometry 4x1 --scale 256
 *                   --fill 1.0625: 4,194,304 slots, 16 sets of 8,192
 *                   buckets, 557,056 crowded keys.
 *   --seed S        the keys, values and call sizes (default 1).
 *   --design D      hive (the default) or double: the tables' design. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crowded.h"

#define FINDERS 3

typedef struct options {
    const char *scenario;
    int stash0;
    uint32_t slots, lanes; /* 0: the backend's default */
    double scale, fill;
    uint64_t seed;
} options;

/* Where the crowded sets lie in the base index: `sets` runs of
 * `set_buckets` buckets, one every `spacing` buckets from bucket 0. */
typedef struct layout {
    uint64_t base, sets, set_buckets, spacing;
    size_t keys_per_set;
} layout;

static int in_a_set(const layout *l, uint64_t bucket)
{
    return bucket < l->sets * l->spacing && bucket % l->spacing < l->set_buckets;
}

static hive_config geometry_config(const ht_target *t, const options *o)
{
    hive_config c = ht_config(t);
    c.bucket_slots = o->slots;
    c.lanes_per_op = o->lanes;
    return c;
}

/* The geometry the backend gives a table of these options (and a skip,
 * through ht_open, where the backend is not there). */
static void resolve_geometry(const ht_target *t, options *o)
{
    hive_config c = geometry_config(t, o);
    hive_table *table = ht_open(t, &c);
    HT_MUST(hive_get_config(table, &c));
    o->slots = c.bucket_slots;
    o->lanes = c.lanes_per_op;
    ht_close(table);
}

/* ---------------------------------------------------------------- keys */

/* Whether any probe bucket of key (both of the Hive design's, all 16 of
 * the double design's) lies in a set. */
static int probes_in_a_set(const crowd *w, const layout *l, uint64_t key)
{
    for (uint32_t p = 0; p < ht_key_probes(w->t); p++)
        if (in_a_set(l, ht_probe_base_bucket(w->t, w->config.hash_seed, l->base, key, p)))
            return 1;
    return 0;
}

/* n new random keys (not in the pool), with no probe bucket in a set when
 * outside_sets is set. */
static void random_keys(crowd *w, const layout *l, int outside_sets, uint64_t *out, size_t n)
{
    for (size_t i = 0; i < n;) {
        uint64_t key = ht_random_key(w->t, &w->rng);
        if (ht_ref_get(&w->pool.taken, key, NULL))
            continue;
        if (outside_sets && probes_in_a_set(w, l, key))
            continue;
        ht_ref_put(&w->pool.taken, key, 0);
        out[i++] = key;
    }
}

static uint64_t *key_buffer(size_t n)
{
    uint64_t *keys = malloc((n ? n : 1) * sizeof *keys);
    if (keys == NULL)
        ht_fatal("out of host memory for %zu keys", n);
    return keys;
}

/* The crowd (keys_per_set aimed keys a set, key ids set by set) and
 * `decoys_per_set` aimed decoys a set. */
static void add_crowd(crowd *w, const layout *l, unsigned stable_every, size_t decoys_per_set)
{
    size_t most = l->keys_per_set > decoys_per_set ? l->keys_per_set : decoys_per_set;
    uint64_t *keys = key_buffer(most);
    for (uint64_t s = 0; s < l->sets; s++) {
        ht_aimed_keys(w->t, w->config.hash_seed, &w->rng, l->base, s * l->spacing, l->set_buckets,
                      keys, l->keys_per_set, &w->pool.taken);
        pool_add(&w->pool, keys, l->keys_per_set, KIND_CROWDED, (unsigned)s, stable_every);
    }
    for (uint64_t s = 0; s < l->sets; s++) {
        ht_aimed_keys(w->t, w->config.hash_seed, &w->rng, l->base, s * l->spacing, l->set_buckets,
                      keys, decoys_per_set, &w->pool.taken);
        pool_add(&w->pool, keys, decoys_per_set, KIND_DECOY, (unsigned)s, 0);
    }
    free(keys);
}

static void add_random(crowd *w, const layout *l, key_kind kind, size_t n, unsigned stable_every)
{
    uint64_t *keys = key_buffer(n);
    random_keys(w, l, kind == KIND_FILLER, keys, n);
    pool_add(&w->pool, keys, n, kind, NO_SET, stable_every);
    free(keys);
}

static int is_stable(const key_pool *p, uint64_t id)
{
    return p->kind[id] != KIND_DECOY && p->stable[id];
}

static int is_churn(const key_pool *p, uint64_t id)
{
    return p->kind[id] != KIND_DECOY && !p->stable[id];
}

/* Reorders ids: filler keys first, each kind in the order it had. */
static void filler_first(const key_pool *p, uint64_t *ids, size_t n)
{
    uint64_t *sorted = key_buffer(n);
    size_t at = 0;
    for (int crowd_pass = 0; crowd_pass < 2; crowd_pass++)
        for (size_t i = 0; i < n; i++)
            if ((p->kind[ids[i]] == KIND_CROWDED) == crowd_pass)
                sorted[at++] = ids[i];
    memcpy(ids, sorted, n * sizeof *ids);
    free(sorted);
}

static void print_layout(const crowd *w, const layout *l)
{
    printf("  table: %llu slots, buckets of %u slots (lanes %u), stash_fraction %g; base index of "
           "%llu buckets: %llu sets of %llu buckets (one every %llu), %zu keys a set (%.4g a "
           "slot); pool: %zu keys\n",
           (unsigned long long)w->last.capacity, w->last.bucket_slots, w->last.lanes_per_op,
           w->config.stash_fraction, (unsigned long long)w->base_buckets,
           (unsigned long long)l->sets, (unsigned long long)l->set_buckets,
           (unsigned long long)l->spacing, l->keys_per_set,
           (double)l->keys_per_set / (double)(l->set_buckets * w->last.bucket_slots), w->pool.n);
}

/* The whole table once more (after the finders are gone), and what
 * happened to it. */
static void finish(crowd *w)
{
    const hive_stats *st = &w->last;
    w->phase = "end";
    ht_context("%s: end", w->name);
    if (!w->broken)
        crowd_check(w);
    printf("  end: %zu keys, capacity %llu slots (peak %llu), grows %llu, shrinks %llu, %llu "
           "calls, %llu shrink attempts, %llu keys REJECTED_FULL\n",
           ht_ref_size(&w->ref), (unsigned long long)st->capacity,
           (unsigned long long)w->capacity_peak, (unsigned long long)st->grows,
           (unsigned long long)st->shrinks, (unsigned long long)w->calls,
           (unsigned long long)w->shrink_tries, (unsigned long long)w->rejected);
}

/* ---------------------------------------------------------------- small */

#define SMALL_BASE 256
#define SMALL_RESERVED 512

static void scenario_small(const ht_target *t, const options *o, const char *name)
{
    hive_config c = geometry_config(t, o);
    c.initial_capacity = (uint64_t)SMALL_BASE * o->slots;
    c.stash_fraction = 0.0;
    crowd w;
    crowd_open(&w, t, name, &c, o->seed);
    if (w.base_buckets != SMALL_BASE)
        ht_fatal("%s: a table of %llu slots has %llu buckets, not %d", name,
                 (unsigned long long)c.initial_capacity, (unsigned long long)w.base_buckets,
                 SMALL_BASE);
    HT_MUST(hive_reserve(w.table, (uint64_t)(ht_design_load(&c, o->slots) * SMALL_RESERVED * o->slots),
                         NULL));
    HT_MUST(hive_stats_get(w.table, &w.last));
    if (w.last.buckets != SMALL_RESERVED)
        ht_fatal("%s: hive_reserve made %llu buckets, not %d", name,
                 (unsigned long long)w.last.buckets, SMALL_RESERVED);

    /* 1.5 keys a slot at the base index: 96 keys a set of 16 4-slot buckets */
    layout l = {SMALL_BASE, 4, 16, 64, (size_t)24 * o->slots};
    add_crowd(&w, &l, 0, 8);
    add_random(&w, &l, KIND_DECOY, 32, 0);
    crowd_ready(&w, l.keys_per_set);
    print_layout(&w, &l);
    crowd_check(&w);

    uint64_t *ids = key_buffer(l.sets * l.keys_per_set);
    for (size_t i = 0; i < l.sets * l.keys_per_set; i++)
        ids[i] = i; /* add_crowd gives the crowd the first ids, set by set */
    for (uint64_t s = 0; s < l.sets && !w.broken; s++) {
        char phase[32];
        snprintf(phase, sizeof phase, "insert set %llu", (unsigned long long)s);
        crowd_phase(&w, phase, ids + s * l.keys_per_set, l.keys_per_set, 0, 1,
                    (call_plan){0, l.keys_per_set, 1});
    }
    ht_shuffle(&w.rng, ids, l.sets * l.keys_per_set);
    /* One key a call for a while (the report's keys went missing at the
     * first or second), then up to 1/16 of the keys a call until the sets
     * fit their base buckets and the shrink goes through. */
    if (!w.broken)
        crowd_phase(&w, "erase", ids, l.sets * l.keys_per_set, 1, 0,
                    (call_plan){16, l.sets * l.keys_per_set / 16, 0});
    free(ids);
    finish(&w);
    crowd_close(&w);
}

/* ---------------------------------------------------------------- crowded, finders */

#define BASE_SLOTS 16384.0 /* a crowded table's initial slots at scale 1 */
#define MOST_SETS 16
#define SET_SHARE 128       /* a set is 1/128 of the base buckets, */
#define LEAST_SET 16        /* or 16 buckets (fewer sets then): keys go missing
                               from sets of a few buckets far less often */
#define START_LOAD 0.533    /* crowd and filler: the grown table just above 0.25 */

/* Inserts in calls of up to 1/8 of the keys; erases one key a call at
 * first (the shrink that lost keys came after a one-key erase), then up to
 * 1/24 of them a call: some hundred calls a phase at any scale. */
static call_plan inserts(size_t n) { return (call_plan){0, n / 8 + 1, 0}; }
static call_plan erases(size_t n) { return (call_plan){8, n / 24 + 1, 0}; }

static void scenario_crowded(const ht_target *t, const options *o, const char *name,
                             int with_finders)
{
    hive_config c = geometry_config(t, o);
    uint64_t slots = (uint64_t)ceil(o->scale * BASE_SLOTS);
    uint64_t least = (uint64_t)8 * LEAST_SET * o->slots;
    c.initial_capacity = slots > least ? slots : least;
    if (o->stash0)
        c.stash_fraction = 0.0;
    crowd w;
    crowd_open(&w, t, name, &c, o->seed);

    layout l;
    l.base = w.base_buckets;
    l.set_buckets = l.base / SET_SHARE > LEAST_SET ? l.base / SET_SHARE : LEAST_SET;
    l.sets = l.base / (8 * l.set_buckets) < MOST_SETS ? l.base / (8 * l.set_buckets) : MOST_SETS;
    l.spacing = l.base / l.sets;
    l.keys_per_set = (size_t)ceil(o->fill * (double)(l.set_buckets * o->slots));
    size_t crowd_keys = l.sets * l.keys_per_set;
    size_t filler = (size_t)(START_LOAD * (double)w.last.capacity) - crowd_keys;
    add_crowd(&w, &l, 2, l.keys_per_set / 8 + 1);
    add_random(&w, &l, KIND_FILLER, filler, 2);
    add_random(&w, &l, KIND_DECOY, (crowd_keys + filler) / 16, 0);

    /* Churn erases go filler first: the table falls under min_load_factor
     * while the whole crowd is still there. */
    size_t n_stable, n_churn;
    uint64_t *stable = pool_select(&w.pool, &w.rng, is_stable, &n_stable);
    uint64_t *churn = pool_select(&w.pool, &w.rng, is_churn, &n_churn);
    filler_first(&w.pool, churn, n_churn);
    crowd_ready(&w, n_churn / 4 + 64);
    print_layout(&w, &l);
    crowd_check(&w);

    finder_crew *crew = NULL;
    crowd_phase(&w, "insert stable keys", stable, n_stable, 0, 1, inserts(n_stable));
    if (with_finders && !w.broken)
        crew = finders_start(&w, FINDERS, n_stable / 64 + 64);
    if (!w.broken) {
        crowd_phase(&w, "insert churn keys", churn, n_churn, 0, 1, inserts(n_churn));
        /* A crowd that the stash took in place (design.md, Crowding) leaves
         * the table at its size: grow it as a user would, so that the
         * erases below still take it under min_load_factor with the crowded
         * sets unable to merge back. */
        /* With a stash, crowded keys must not double a table under half of
         * max_load_factor: the stash is enlarged for them instead (up to a
         * quarter of the table), and only a fuller table grows for keys
         * rejected for room. */
        HT_CHECK(w.broken || o->stash0 || w.capacity_peak <= w.config.initial_capacity ||
                     (double)w.last.size >= w.config.max_load_factor / 2 * (double)w.config.initial_capacity,
                 "crowded keys doubled a table at load %.3f (capacity %llu -> %llu slots, stash %llu "
                 "of %llu): a crowded stash should be enlarged in place",
                 w.last.load_factor, (unsigned long long)w.config.initial_capacity,
                 (unsigned long long)w.capacity_peak, (unsigned long long)w.last.stash_size,
                 (unsigned long long)w.last.stash_capacity);
        if (!w.broken && w.capacity_peak <= w.config.initial_capacity) {
            ht_context("%s: hive_reserve to twice the capacity", w.name);
            double keys = 2.0 * (double)w.last.capacity * ht_design_load(&w.config, o->slots);
            HT_CHECK_STATUS(hive_reserve(w.table, (uint64_t)keys, NULL), HIVE_SUCCESS, "hive_reserve");
            crowd_check(&w);
        }
        HT_CHECK(w.broken || w.capacity_peak > w.config.initial_capacity,
                 "the table never grew (capacity stayed %llu slots): the shrinks this test is "
                 "about never happen",
                 (unsigned long long)w.capacity_peak);
    }
    if (!w.broken)
        crowd_phase(&w, "erase churn keys", churn, n_churn, 1, 0, erases(n_churn));
    ht_shuffle(&w.rng, churn, n_churn);
    filler_first(&w.pool, churn, n_churn);
    if (!w.broken)
        crowd_phase(&w, "insert churn again", churn, n_churn, 0, 2, inserts(n_churn));
    if (!w.broken)
        crowd_phase(&w, "erase churn again", churn, n_churn, 1, 0, erases(n_churn));
    if (crew != NULL)
        finders_stop(crew);
    HT_CHECK(w.broken || w.shrink_tries > 0,
             "no erase call left the table under min_load_factor: the shrinks this test is "
             "about never happen");
    free(stable);
    free(churn);
    finish(&w);
    crowd_close(&w);
}

/* ---------------------------------------------------------------- main */

static int parse_geometry(const char *s, uint32_t *slots, uint32_t *lanes)
{
    unsigned a = 0, b = 0;
    char tail = 0;
    if (sscanf(s, "%ux%u%c", &a, &b, &tail) != 2 || a == 0 || b == 0)
        return 0;
    *slots = a;
    *lanes = b;
    return 1;
}

/* ---------------------------------------------------------------- sparse */

/* Crowded keys alone, in a table that is otherwise empty (load about 0.13):
 * their sets overflow by a sixteenth, more than half of a stash of 1% of the
 * table.  The stash must be enlarged for them and the table must not double
 * (design.md, Crowding); erasing them all, one sixteenth a call, must lose
 * nothing either. */
static void scenario_sparse(const ht_target *t, const options *o, const char *name)
{
    hive_config c = geometry_config(t, o);
    c.initial_capacity = (uint64_t)ceil(o->scale * 4 * BASE_SLOTS);
    crowd w;
    crowd_open(&w, t, name, &c, o->seed);
    layout l;
    l.base = w.base_buckets;
    l.sets = MOST_SETS;
    l.set_buckets = l.base / (8 * MOST_SETS);
    l.spacing = l.base / MOST_SETS;
    l.keys_per_set = (size_t)ceil(1.0625 * (double)(l.set_buckets * o->slots));
    add_crowd(&w, &l, 0, 8);
    crowd_ready(&w, l.keys_per_set);
    print_layout(&w, &l);
    crowd_check(&w);
    uint64_t stash_at_start = w.last.stash_capacity;
    size_t n = l.sets * l.keys_per_set;
    uint64_t *ids = key_buffer(n);
    for (size_t i = 0; i < n; i++)
        ids[i] = i; /* add_crowd gives the crowd the first ids */
    crowd_phase(&w, "insert the crowd", ids, n, 0, 1, inserts(n));
    HT_CHECK(w.broken || w.capacity_peak == w.config.initial_capacity,
             "crowded keys at load %.3f doubled the table (%llu -> %llu slots; stash %llu of %llu)",
             w.last.load_factor, (unsigned long long)w.config.initial_capacity,
             (unsigned long long)w.capacity_peak, (unsigned long long)w.last.stash_size,
             (unsigned long long)w.last.stash_capacity);
    /* Only a crowd aimed with all its probes overflows into the stash, and
     * only one that fills more than half of it needs a larger one (the
     * chaining design's node pool is sized for its overflow already). */
    HT_CHECK(w.broken || o->stash0 || !ht_aim_tight(t) || 2 * w.last.stash_size <= stash_at_start ||
                 w.last.stash_capacity > stash_at_start,
             "the stash holds %llu pairs of %llu slots, as many slots as at the start: it was not "
             "enlarged for the crowd", (unsigned long long)w.last.stash_size,
             (unsigned long long)w.last.stash_capacity);
    ht_shuffle(&w.rng, ids, n);
    if (!w.broken)
        crowd_phase(&w, "erase the crowd", ids, n, 1, 0, (call_plan){0, n / 16 + 1, 0});
    free(ids);
    finish(&w);
    crowd_close(&w);
}

int main(int argc, char **argv)
{
    static char name[160];
    const char *usage = "<cpu|cuda> <kv32|kv64> <small|crowded|finders|sparse> [--stash0] "
                        "[--geometry SxT] [--scale N] [--fill F] [--seed S] [--design NAME]";
    options o = {NULL, 0, 0, 0, 1.0, 1.25, 1};
    hive_design design = ht_take_design(&argc, argv, usage);
    if (argc < 4) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        return HT_EXIT_FAIL;
    }
    ht_target t;
    ht_target_from_args(&t, argc, argv, 1, usage);
    ht_target_set_design(&t, design);
    o.scenario = argv[3];
    for (int a = 4; a < argc; a++) {
        const char *v = a + 1 < argc ? argv[a + 1] : NULL;
        if (strcmp(argv[a], "--stash0") == 0) {
            o.stash0 = 1;
        } else if (strcmp(argv[a], "--geometry") == 0 && v &&
                   parse_geometry(v, &o.slots, &o.lanes)) {
            a++;
        } else if (strcmp(argv[a], "--scale") == 0 && v && atof(v) > 0) {
            o.scale = atof(v);
            a++;
        } else if (strcmp(argv[a], "--fill") == 0 && v && atof(v) > 0) {
            o.fill = atof(v);
            a++;
        } else if (strcmp(argv[a], "--seed") == 0 && v) {
            o.seed = strtoull(v, NULL, 0);
            a++;
        } else {
            fprintf(stderr, "%s: bad argument '%s'\nusage: %s %s\n", argv[0], argv[a], argv[0],
                    usage);
            return HT_EXIT_FAIL;
        }
    }
    int small = strcmp(o.scenario, "small") == 0, crowded = strcmp(o.scenario, "crowded") == 0;
    int finders = strcmp(o.scenario, "finders") == 0, sparse = strcmp(o.scenario, "sparse") == 0;
    if (!small && !crowded && !finders && !sparse) {
        fprintf(stderr, "%s: unknown scenario '%s'\nusage: %s %s\n", argv[0], o.scenario, argv[0],
                usage);
        return HT_EXIT_FAIL;
    }
    snprintf(name, sizeof name, "crowded %s%s %s %s", o.scenario, o.stash0 ? " stash0" : "",
             t.backend_name, t.width_name);
    if (design != HIVE_DESIGN_HIVE) {
        size_t len = strlen(name);
        snprintf(name + len, sizeof name - len, " %s", t.design_name);
    }
    ht_begin(name);
    resolve_geometry(&t, &o);
    size_t len = strlen(name);
    len += (size_t)snprintf(name + len, sizeof name - len, " %ux%u seed %llu", o.slots, o.lanes,
                            (unsigned long long)o.seed);
    if (!small && len < sizeof name)
        snprintf(name + len, sizeof name - len, " scale %g fill %g", o.scale, o.fill);
    printf("%s\n", name);
    if (small)
        scenario_small(&t, &o, name);
    else if (sparse)
        scenario_sparse(&t, &o, name);
    else
        scenario_crowded(&t, &o, name, finders);
    return ht_finish();
}
