/* fuzz_one.c — one fuzz input against the CPU backend (fuzz_one.h).
 *
 * Input format.  Bytes past the end read as 0.
 *
 *   header, 7 bytes
 *     0  bit 0: KV64 (else KV32); bit 1: 2 threads (else 1); bit 2: the double
 *        design (with bit 5: its tagged variant, double_m), bit 4: the
 *        chaining design (over bit 2; else the Hive design); bit 3: a hash
 *        seed made from the header's first 5 bytes
 *        (else seed 0, the unseeded hashes); bit 6: an absent-key filter
 *        (its bits per slot: byte 4's bits 6-7, of 4, 6, 8, 16)
 *     1  initial_capacity: c < 128 gives 1 + c, else 128 + 3 (c - 128) (up to 509)
 *     2  max_load_factor (bits 0-2), min_load_factor as a fraction of
 *        max_load_factor / 2 (bits 3-5)                  see the tables below
 *     3  stash_fraction (bits 0-2), max_evictions (bits 3-5)
 *     4  bucket_slots (bits 0-2), resize_batch (bits 3-5), the filter's bits (6-7)
 *     5  2 (bits 0-3) plain keys, 4 (bits 4-7) crowded keys (universe.h)
 *     6  buckets the crowded keys aim at (1 + bits 0-1), and the universe's seed
 *
 *   then calls, until the input ends or FZ_MAX_CALLS: a code byte (taken
 *   mod 16) and the bytes the call reads.  N below is 1 + (byte mod 48); a key
 *   byte k names universe key k mod size, or for k >= 252 the reserved key
 *   RESERVED_MIN + (k - 252) where reserved keys are allowed; a value byte
 *   names an edge value (0, 1, max, max - 1, max/2, max/2 + 1) below 6, else
 *   a hash of it.  Batches of distinct keys drop a key byte that repeats one.
 *
 *      0, 15  insert     mode, N, N x (key, value)      distinct keys; mode:
 *                        combine = mode mod 5, bit 3: no results array
 *      1  insert repeated  mode, N, N x (key, value)    keys may repeat; bit 3:
 *                        through hive_apply (UPSERT, or INSERT for KEEP)
 *      2  find           mode, N, N x (key, value)      mode mod 3: values and
 *                        found, values only, found only; the values are the
 *                        array's contents before, untouched for absent keys
 *      3  contains       N, N x key
 *      4  erase          mode, N, N x key               bit 0: no results array
 *      5  apply          mode, N, N x (op, key, value)  op byte o: o mod 9 < 8
 *                        gives op (o mod 9) & 3, else the bad op code 4 + o / 9
 *      6  reserve        c: capacity 16 c
 *      7  clear
 *      8  export         the whole contents; and one too small for the size
 *      9  stats          hive_stats_get, consistent with the size and the config
 *     10  size
 *     11  fill           mode: insert every key (bit 7: the crowded ones only)
 *                        with combine mode mod 5
 *     12  drain          mode: erase every key (bit 7: crowded only) but every
 *                        s-th, s = mode mod 8 (0, 1: none kept)
 *     13  swing          mode: one hive_apply over every key: present ones
 *                        erased, absent ones upserted (combine mode mod 5)
 *     14  get_config     the config as created, defaults resolved, the seed as given
 *
 * After every call: the status, every result code, found flag and value
 * (model.h), the size, every key of the universe found with its value or
 * absent as the reference says; every FZ_EXPORT_EVERY calls and at the end
 * the whole contents through hive_export; at the end the stats. */
#include "fuzz_one.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aim.h"
#include "hivetest.h"
#include "input.h"
#include "universe.h"

#define FZ_MAX_CALLS 200
#define FZ_BATCH_MAX 48
#define FZ_EXPORT_EVERY 8
#define FZ_RESERVED_BYTE 252 /* key bytes from here name reserved keys */

static const double max_lfs[8] = {0.5, 0.6, 0.7, 0.75, 0.8, 0.9, 0.95, 1.0};
static const double min_lf_shares[8] = {0, 0, 0.25, 0.5, 0.75, 0.9, 1.0, 0.5};
static const double stash_fractions[8] = {0, 0.001, 0.01, 0.05, 0.1, 0.25, 0, 0.01};
static const uint32_t evictions[8] = {0, 1, 2, 3, 8, 16, 64, 1024};
static const uint32_t bucket_slots[8] = {0, 4, 8, 16, 32, 4, 8, 4}; /* 0: the default */
static const uint32_t resize_batches[8] = {1, 2, 3, 5, 8, 64, 1024, 67108864};

enum fz_code {
    FZ_INSERT, FZ_INSERT_REPEATED, FZ_FIND, FZ_CONTAINS, FZ_ERASE, FZ_APPLY, FZ_RESERVE, FZ_CLEAR,
    FZ_EXPORT, FZ_STATS, FZ_SIZE, FZ_FILL, FZ_DRAIN, FZ_SWING, FZ_GET_CONFIG, FZ_INSERT_TOO,
    FZ_CODES
};
static const char *code_names[FZ_CODES] = {
    "insert", "insert repeated", "find", "contains", "erase", "apply", "reserve", "clear",
    "export", "stats", "size", "fill", "drain", "swing", "get_config", "insert"};

static int trace;

void fz_init(void)
{
    const char *v = getenv("HIVE_FUZZ_TRACE");
    trace = v != NULL && strcmp(v, "1") == 0;
}

typedef struct fz_run_state {
    ht_target t;
    hive_config config;
    hive_table *table;
    ht_ref ref;
    fz_universe u;
    ht_batch b;       /* the call's batch */
    ht_batch scratch; /* the checks after it */
    char where[64];
} fz_run_state;

/* ---------------------------------------------------------------- the header */

static hive_config read_config(fz_input *in, ht_target *t)
{
    uint8_t b0 = fz_byte(in), cap = fz_byte(in), lf = fz_byte(in), stash = fz_byte(in),
            geo = fz_byte(in);
    ht_target_init(t, HIVE_BACKEND_CPU, (b0 & 1) ? HIVE_KV64 : HIVE_KV32);
    ht_target_set_design(t, (b0 & 16)  ? HIVE_DESIGN_CHAINING
                            : (b0 & 4) ? ((b0 & 32) ? HIVE_DESIGN_DOUBLE_M : HIVE_DESIGN_DOUBLE)
                                       : HIVE_DESIGN_HIVE);
    hive_config c = ht_config(t);
    c.threads = (b0 & 2) ? 2 : 1;
    c.initial_capacity = cap < 128 ? 1u + cap : 128u + 3u * (cap - 128u);
    c.max_load_factor = max_lfs[lf & 7];
    c.min_load_factor = c.max_load_factor / 2 * min_lf_shares[(lf >> 3) & 7];
    c.stash_fraction = stash_fractions[stash & 7];
    c.max_evictions = evictions[(stash >> 3) & 7];
    c.bucket_slots = bucket_slots[geo & 7];
    c.resize_batch = resize_batches[(geo >> 3) & 7];
    /* A fixed seed, never a random one: an input must replay the same way. */
    uint64_t header = (uint64_t)b0 | (uint64_t)cap << 8 | (uint64_t)lf << 16 | (uint64_t)stash << 24 |
                      (uint64_t)geo << 32;
    c.hash_seed = (b0 & 8) ? ht_splitmix64(&header) : 0;
    static const uint32_t filter_bits[4] = {4, 6, 8, 16};
    c.absent_filter_bits = (b0 & 64) ? filter_bits[geo >> 6] : 0;
    return c;
}

/* ---------------------------------------------------------------- batches */

static uint64_t value_of(const ht_target *t, unsigned byte)
{
    uint64_t m = t->value_mask;
    const uint64_t edges[6] = {0, 1, m, m - 1, m / 2, m / 2 + 1};
    if (byte < 6)
        return edges[byte];
    uint64_t x = byte;
    return ht_splitmix64(&x) & m;
}

static uint64_t key_of(const fz_run_state *r, unsigned byte, int reserved_ok)
{
    if (reserved_ok && byte >= FZ_RESERVED_BYTE)
        return r->t.reserved_min + (byte - FZ_RESERVED_BYTE);
    return r->u.keys[byte % r->u.n];
}

static int in_batch(const fz_run_state *r, uint64_t key)
{
    for (size_t i = 0; i < r->b.n; i++)
        if (ht_get(&r->t, r->b.keys, i) == key)
            return 1;
    return 0;
}

static void append(fz_run_state *r, uint8_t op, uint64_t key, uint64_t value)
{
    ht_batch *b = &r->b;
    b->ops[b->n] = op;
    ht_put(&r->t, b->keys, b->n, key);
    ht_put(&r->t, b->values, b->n, value);
    b->n++;
}

/* Reads N elements: an op byte if with_op, a key byte, a value byte if
 * with_value.  distinct: drops a key already in the batch, and lets key
 * bytes name reserved keys. */
static void read_batch(fz_run_state *r, fz_input *in, int with_op, int with_value, int distinct)
{
    size_t n = 1 + fz_byte(in) % FZ_BATCH_MAX;
    r->b.n = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t o = with_op ? fz_byte(in) : 0;
        uint64_t key = key_of(r, fz_byte(in), distinct);
        uint64_t value = with_value ? value_of(&r->t, fz_byte(in)) : 0x5A;
        uint8_t op = o % 9 < 8 ? (o % 9) & 3 : (uint8_t)(4 + o / 9);
        if (!distinct || !in_batch(r, key))
            append(r, op, key, value);
    }
}

/* Every universe key (crowded_only: the crowded ones) whose index is not a
 * multiple of `keep_every` (0, 1: all of them). */
static void universe_batch(fz_run_state *r, int crowded_only, unsigned keep_every, unsigned salt)
{
    r->b.n = 0;
    for (size_t i = crowded_only ? r->u.plain : 0; i < r->u.n; i++)
        if (keep_every < 2 || i % keep_every != 0)
            append(r, HIVE_OP_UPSERT, r->u.keys[i], value_of(&r->t, (salt + i) & 0xFF));
}

static void trace_batch(const fz_run_state *r, int with_op)
{
    if (!trace)
        return;
    for (size_t i = 0; i < r->b.n; i++) {
        if (with_op)
            fprintf(stderr, " %u:", r->b.ops[i]);
        fprintf(stderr, " %llx=%llx", (unsigned long long)ht_get(&r->t, r->b.keys, i),
                (unsigned long long)ht_get(&r->t, r->b.values, i));
    }
    fprintf(stderr, "\n");
}

/* ---------------------------------------------------------------- whole-table calls */

static void check_size(fz_run_state *r)
{
    uint64_t size = ~0ull;
    HT_CHECK_STATUS(hive_size(r->table, &size), HIVE_SUCCESS, "%s", r->where);
    HT_CHECK_EQ(size, ht_ref_size(&r->ref), "%s: hive_size", r->where);
}

static void get_stats(fz_run_state *r, hive_stats *st)
{
    memset(st, 0, sizeof *st);
    HT_CHECK_STATUS(hive_stats_get(r->table, st), HIVE_SUCCESS, "%s", r->where);
}

static void do_reserve(fz_run_state *r, uint64_t capacity)
{
    hive_stats before, after;
    get_stats(r, &before);
    HT_CHECK_STATUS(hive_reserve(r->table, capacity, NULL), HIVE_SUCCESS, "%s: reserve %llu",
                    r->where, (unsigned long long)capacity);
    get_stats(r, &after);
    uint64_t need = (uint64_t)ceil((double)capacity / r->config.max_load_factor);
    HT_CHECK(after.capacity >= need && after.capacity >= before.capacity,
             "%s: capacity %llu after reserving %llu keys (from %llu; %llu slots needed)",
             r->where, (unsigned long long)after.capacity, (unsigned long long)capacity,
             (unsigned long long)before.capacity, (unsigned long long)need);
    check_size(r);
}

static void do_clear(fz_run_state *r)
{
    hive_stats before, after;
    get_stats(r, &before);
    HT_CHECK_STATUS(hive_clear(r->table, NULL), HIVE_SUCCESS, "%s", r->where);
    ht_ref_clear(&r->ref);
    get_stats(r, &after);
    HT_CHECK_EQ(after.capacity, before.capacity, "%s: capacity kept by clear", r->where);
    HT_CHECK_EQ(after.stash_size, 0, "%s: stash_size after clear", r->where);
    check_size(r);
}

/* An export into arrays one pair too small: INVALID_ARGUMENT, the size in
 * *count, nothing written. */
static void export_too_small(fz_run_state *r)
{
    uint64_t size = ht_ref_size(&r->ref);
    if (size == 0)
        return;
    ht_batch *b = &r->scratch;
    memset(b->keys, 0xA5, b->cap * r->t.kv_bytes);
    memset(b->values, 0xA5, b->cap * r->t.kv_bytes);
    uint64_t count = 0;
    HT_CHECK_STATUS(hive_export(r->table, size - 1, b->keys, b->values, &count, NULL),
                    HIVE_ERROR_INVALID_ARGUMENT, "%s: export into %llu pairs", r->where,
                    (unsigned long long)(size - 1));
    HT_CHECK_EQ(count, size, "%s: count of an export too small", r->where);
    uint64_t written = 0;
    for (size_t i = 0; i < b->cap * r->t.kv_bytes; i++)
        written += ((uint8_t *)b->keys)[i] != 0xA5 || ((uint8_t *)b->values)[i] != 0xA5;
    HT_CHECK_EQ(written, 0, "%s: bytes written by an export too small", r->where);
}

static void check_config(fz_run_state *r)
{
    hive_config got;
    memset(&got, 0, sizeof got);
    HT_CHECK_STATUS(hive_get_config(r->table, &got), HIVE_SUCCESS, "%s", r->where);
    const hive_config *c = &r->config;
    uint32_t slots = c->bucket_slots ? c->bucket_slots : got.bucket_slots;
    /* The chaining design raises its pool's share to what its overflow needs
     * (hive.h), up to half the table; 0 stays 0. */
    int fraction_ok = c->design == HIVE_DESIGN_CHAINING
                          ? (c->stash_fraction == 0 ? got.stash_fraction == 0
                                                    : got.stash_fraction >= c->stash_fraction &&
                                                          got.stash_fraction <= 0.5)
                          : got.stash_fraction == c->stash_fraction;
    HT_CHECK(got.struct_size == c->struct_size && got.version == c->version &&
                 got.backend == HIVE_BACKEND_CPU && got.key_width == c->key_width &&
                 got.initial_capacity == c->initial_capacity &&
                 got.max_load_factor == c->max_load_factor &&
                 got.min_load_factor == c->min_load_factor &&
                 got.resize_batch == c->resize_batch && got.max_evictions == c->max_evictions &&
                 fraction_ok && got.threads == c->threads &&
                 got.bucket_slots == slots && got.lanes_per_op >= 1 && got.design == c->design &&
                 got.hash_seed == c->hash_seed,
             "%s: hive_get_config differs from the config given (bucket_slots %u, lanes %u)",
             r->where, got.bucket_slots, got.lanes_per_op);
}

/* ---------------------------------------------------------------- one call */

static hive_combine combine_of(unsigned byte) { return (hive_combine)(byte % 5); }

static void run_call(fz_run_state *r, fz_input *in, enum fz_code code)
{
    const ht_target *t = &r->t;
    ht_batch *b = &r->b;
    uint8_t mode;
    hive_stats st;
    switch (code) {
    case FZ_INSERT:
    case FZ_INSERT_TOO:
        mode = fz_byte(in);
        read_batch(r, in, 0, 1, 1);
        trace_batch(r, 0);
        ht_run_unique(t, r->table, &r->ref, b, HT_CALL_INSERT, combine_of(mode),
                      (mode & 8) ? 0 : HT_PASS_RESULTS, 1, r->where);
        break;
    case FZ_INSERT_REPEATED:
        mode = fz_byte(in);
        read_batch(r, in, 0, 1, 0);
        trace_batch(r, 0);
        ht_run_repeated(t, r->table, &r->ref, b, combine_of(mode), (mode & 8) != 0, 1, r->where);
        break;
    case FZ_FIND: {
        static const unsigned passes[3] = {HT_PASS_ALL, HT_PASS_VALUES, HT_PASS_FOUND};
        mode = fz_byte(in);
        read_batch(r, in, 0, 1, 1);
        trace_batch(r, 0);
        ht_run_unique(t, r->table, &r->ref, b, HT_CALL_FIND, HIVE_COMBINE_KEEP, passes[mode % 3], 0,
                      r->where);
        break;
    }
    case FZ_CONTAINS:
        read_batch(r, in, 0, 0, 1);
        trace_batch(r, 0);
        ht_run_unique(t, r->table, &r->ref, b, HT_CALL_CONTAINS, HIVE_COMBINE_KEEP, HT_PASS_ALL, 0,
                      r->where);
        break;
    case FZ_ERASE:
        mode = fz_byte(in);
        read_batch(r, in, 0, 0, 1);
        trace_batch(r, 0);
        ht_run_unique(t, r->table, &r->ref, b, HT_CALL_ERASE, HIVE_COMBINE_KEEP,
                      (mode & 1) ? 0 : HT_PASS_RESULTS, 0, r->where);
        break;
    case FZ_APPLY:
        mode = fz_byte(in);
        read_batch(r, in, 1, 1, 1);
        trace_batch(r, 1);
        ht_run_unique(t, r->table, &r->ref, b, HT_CALL_APPLY, combine_of(mode),
                      (mode & 8) ? 0 : HT_PASS_RESULTS, 1, r->where);
        break;
    case FZ_RESERVE: {
        uint64_t capacity = 16u * fz_byte(in);
        if (trace)
            fprintf(stderr, " %llu\n", (unsigned long long)capacity);
        do_reserve(r, capacity);
        break;
    }
    case FZ_CLEAR: do_clear(r); break;
    case FZ_EXPORT:
        ht_expect_contents(t, r->table, &r->ref, r->where);
        export_too_small(r);
        break;
    case FZ_STATS: ht_expect_stats(t, r->table, &r->config, &st, r->where); break;
    case FZ_SIZE: check_size(r); break;
    case FZ_FILL:
        mode = fz_byte(in);
        universe_batch(r, mode >> 7, 0, mode);
        trace_batch(r, 0);
        ht_run_unique(t, r->table, &r->ref, b, HT_CALL_INSERT, combine_of(mode), HT_PASS_RESULTS, 1,
                      r->where);
        break;
    case FZ_DRAIN:
        mode = fz_byte(in);
        universe_batch(r, mode >> 7, mode % 8, mode);
        trace_batch(r, 0);
        ht_run_unique(t, r->table, &r->ref, b, HT_CALL_ERASE, HIVE_COMBINE_KEEP, HT_PASS_RESULTS, 0,
                      r->where);
        break;
    case FZ_SWING:
        mode = fz_byte(in);
        universe_batch(r, 0, 0, mode);
        for (size_t i = 0; i < b->n; i++)
            b->ops[i] = ht_ref_get(&r->ref, ht_get(t, b->keys, i), NULL) ? HIVE_OP_ERASE
                                                                          : HIVE_OP_UPSERT;
        trace_batch(r, 1);
        ht_run_unique(t, r->table, &r->ref, b, HT_CALL_APPLY, combine_of(mode), HT_PASS_RESULTS, 1,
                      r->where);
        break;
    case FZ_GET_CONFIG: check_config(r); break;
    case FZ_CODES: break;
    }
}

static void trace_table(fz_run_state *r)
{
    hive_stats st;
    get_stats(r, &st);
    fprintf(stderr,
            "  -> size %llu, %llu buckets of %u, stash %llu of %llu, grows %llu, shrinks %llu "
            "(undone %llu)\n",
            (unsigned long long)st.size, (unsigned long long)st.buckets, st.bucket_slots,
            (unsigned long long)st.stash_size, (unsigned long long)st.stash_capacity,
            (unsigned long long)st.grows, (unsigned long long)st.shrinks,
            (unsigned long long)st.shrinks_undone);
}

/* Every key of the universe: found with its value, or absent, as ref says. */
static void check_universe(fz_run_state *r)
{
    uint64_t absent[FZ_UNIVERSE_MAX];
    size_t n = 0;
    for (size_t i = 0; i < r->u.n; i++)
        if (!ht_ref_get(&r->ref, r->u.keys[i], NULL))
            absent[n++] = r->u.keys[i];
    ht_expect_finds(&r->t, r->table, &r->ref, &r->scratch, r->where);
    ht_expect_absent(&r->t, r->table, absent, n, &r->scratch, r->where);
}

/* ---------------------------------------------------------------- one input */

uint64_t fz_run(const uint8_t *data, size_t size)
{
    fz_input in = {data, size, 0};
    uint64_t failures = ht_failure_count();
    fz_run_state r;
    r.config = read_config(&in, &r.t);
    uint8_t shape = fz_byte(&in), aim = fz_byte(&in);
    const hive_config *c = &r.config;
    snprintf(r.where, sizeof r.where, "create");
    ht_context("fuzz %s cap %llu lf %g/%g slots %u stash %g evictions %u resize_batch %u "
               "threads %u", r.t.width_name, (unsigned long long)c->initial_capacity,
               c->max_load_factor, c->min_load_factor, c->bucket_slots, c->stash_fraction,
               c->max_evictions, c->resize_batch, c->threads);
    if (trace)
        fprintf(stderr, "%s\n", ht_context_text());
    r.table = NULL;
    if (!HT_CHECK_STATUS(hive_create(c, &r.table), HIVE_SUCCESS, "a valid config"))
        return ht_failure_count() - failures;

    hive_stats st;
    get_stats(&r, &st);
    /* Aimed with the seed the table reports, so that a table ignoring its
     * seed would leave the crowded keys spread. */
    const uint64_t hash_seed = ht_hash_seed(r.table);
    fz_universe_build(&r.u, &r.t, hash_seed, st.buckets ? st.buckets : 1, 2u * (shape & 15),
                      4u * (shape >> 4), 1u + (aim & 3), aim);
    if (r.u.n == 0) /* no plain and no crowded keys asked for: one plain key */
        fz_universe_build(&r.u, &r.t, hash_seed, st.buckets ? st.buckets : 1, 1, 0, 1, aim);
    if (trace)
        fprintf(stderr, "universe: %zu plain, %zu crowded in %llu of %llu buckets\n", r.u.plain,
                r.u.n - r.u.plain, (unsigned long long)r.u.crowd_buckets,
                (unsigned long long)st.buckets);
    ht_ref_init(&r.ref);
    ht_batch_init(&r.b, &r.t, FZ_UNIVERSE_MAX > FZ_BATCH_MAX ? FZ_UNIVERSE_MAX : FZ_BATCH_MAX);
    ht_batch_init(&r.scratch, &r.t, FZ_UNIVERSE_MAX);

    for (unsigned call = 0; call < FZ_MAX_CALLS && fz_more(&in); call++) {
        enum fz_code code = (enum fz_code)(fz_byte(&in) % FZ_CODES);
        snprintf(r.where, sizeof r.where, "call %u (%s)", call, code_names[code]);
        if (trace)
            fprintf(stderr, "%s:", r.where);
        run_call(&r, &in, code);
        if (trace && (code == FZ_CLEAR || code == FZ_EXPORT || code == FZ_STATS ||
                      code == FZ_SIZE || code == FZ_GET_CONFIG))
            fprintf(stderr, "\n");
        if (trace)
            trace_table(&r);
        check_universe(&r);
        if (call % FZ_EXPORT_EVERY == FZ_EXPORT_EVERY - 1)
            ht_expect_contents(&r.t, r.table, &r.ref, r.where);
        if (ht_failure_count() > failures)
            break;
    }
    if (ht_failure_count() == failures) {
        snprintf(r.where, sizeof r.where, "end");
        ht_expect_contents(&r.t, r.table, &r.ref, r.where);
        ht_expect_stats(&r.t, r.table, c, &st, r.where);
    }
    HT_CHECK_STATUS(hive_destroy(r.table), HIVE_SUCCESS, "hive_destroy");
    ht_batch_free(&r.b);
    ht_batch_free(&r.scratch);
    ht_ref_free(&r.ref);
    return ht_failure_count() - failures;
}
