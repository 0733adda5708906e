/* differential.c — every cache call, in a random sequence, against a
 * reference model:
 *
 *   hive-cache-differential <cpu|cuda> [--scale F] [--seed S] [--steps N] [--hbm-fraction F]
 *
 * A small CUSTOM-policy table (a few buckets of 8 to 128 slots, single
 * and dual) takes a random sequence of insert_or_assign, insert_and_evict,
 * find, find_missed, contains, find_or_insert, assign, assign_values,
 * assign_scores, accum_or_assign, erase, erase_if, export (filtered, in
 * chunks), size and clear; batches of 1..256 keys, part of them aimed at two
 * buckets (hive_cache_place_of), with keys repeated (up to 3 times) in some
 * batches.  Every score is unique (two global counters: rising "high"
 * scores, falling "low" ones below them, which full buckets refuse), values
 * are dim 2 of I64: (v, v * C), so that accum adds v.
 *
 * Which entry a full bucket evicts among equal scores is free, and a batch's
 * elements run in any order, so the model checks what every valid order
 * allows and then takes the table's state as the truth:
 *   - every key the table holds that the call did not write holds exactly
 *     its old value and score; every key it wrote holds a state that some
 *     order of its elements (from its old state, or from absent after an
 *     eviction between them) gives;
 *   - every entry that left (an old key gone) was written out by
 *     insert_and_evict with its old state, or counted by an EVICTED result;
 *     a batch key that is absent after insert_and_evict came out as
 *     evicted/refused with a state its elements give;
 *   - size after - size before == the INSERTED results; export has no
 *     duplicates and its count is the size;
 *   - result codes and found flags are among the valid ones, and exact where
 *     the order cannot matter.
 * Exactly: in single-bucket tables, a bucket that a batch without repeated
 * keys sends new keys to, and no element on a present key (which a new key
 * may evict first, so that the element writes it again), ends holding the top
 * B by score of its old entries and the new keys (scores are unique), with
 * min(new, free) INSERTED results, and insert_and_evict writes out exactly
 * the rest.  Readers, erase, erase_if, export, size and clear are compared
 * exactly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache/cache_view.h"
#include "cache_test.h"

static ht_target T;
static ht_rng R;
static double scale = 1.0;
static uint64_t score_hi = 1ull << 40, score_lo = (1ull << 40) - 1;

#define DIM 2
#define VB 16
static const uint64_t C1 = 0x9E3779B97F4A7C15ull;

enum op {
    OP_UPSERT, OP_IAE, OP_FIND, OP_FIND_MISSED, OP_CONTAINS, OP_FOI, OP_ASSIGN, OP_ASSIGN_VALUES,
    OP_ASSIGN_SCORES, OP_ACCUM, OP_ERASE, OP_ERASE_IF, OP_EXPORT, OP_SIZE, OP_CLEAR, OPS
};
static const char *op_name[OPS] = {"insert_or_assign", "insert_and_evict", "find", "find_missed", "contains",
                                   "find_or_insert", "assign", "assign_values", "assign_scores",
                                   "accum_or_assign", "erase", "erase_if", "export", "size", "clear"};
static const unsigned op_weight[OPS] = {20, 15, 8, 5, 5, 10, 5, 4, 4, 10, 8, 2, 3, 2, 1};

typedef struct df_config {
    uint32_t slots, dual;
    uint64_t capacity;
} df_config;
static const df_config configs[] = {{32, 0, 1024}, {64, 1, 2048}, {128, 0, 1024}, {32, 1, 512}, {8, 0, 256}, {16, 1, 512}};

/* ---------------------------------------------------------------- values and states */

static void put_value(uint8_t *dst, uint64_t v)
{
    uint64_t e[2] = {v, v * C1};
    memcpy(dst, e, VB);
}

/* 1 and *v if the value is (v, v * C). */
static int get_value(const uint8_t *src, uint64_t *v)
{
    uint64_t e[2];
    memcpy(e, src, VB);
    *v = e[0];
    return e[1] == e[0] * C1;
}

typedef struct st {
    int present;
    uint64_t v, s;
} st;

/* One element of `op` on a key in state x; *inserts says it would store a
 * new key (which a full bucket may refuse). */
static st apply1(enum op op, st x, uint64_t vin, uint64_t sin, int flag, int *inserts)
{
    *inserts = 0;
    switch (op) {
    case OP_UPSERT:
    case OP_IAE:
        *inserts = !x.present;
        return (st){1, vin, sin};
    case OP_FOI:
        *inserts = !x.present;
        return x.present ? (st){1, x.v, sin} : (st){1, vin, sin};
    case OP_ASSIGN:
        return x.present ? (st){1, vin, sin} : x;
    case OP_ASSIGN_VALUES:
        return x.present ? (st){1, vin, x.s} : x;
    case OP_ASSIGN_SCORES:
        return x.present ? (st){1, x.v, sin} : x;
    case OP_ACCUM:
        if (flag)
            return x.present ? (st){1, x.v + vin, sin} : x;
        *inserts = !x.present;
        return x.present ? x : (st){1, vin, sin};
    default:
        return x;
    }
}

static int may_insert(enum op op)
{
    return op == OP_UPSERT || op == OP_IAE || op == OP_FOI || op == OP_ACCUM;
}

/* The states a key's elements can leave: `fin` those after all of its
 * elements (in some order, each start either its old state or absent after
 * an eviction), `mid` those after any run of them (evicted records). */
#define MAXS 64
typedef struct poss {
    st fin[MAXS], mid[MAXS];
    int nfin, nmid;
} poss;

static void add_state(st *a, int *n, st x)
{
    if (!x.present)
        return;
    for (int i = 0; i < *n; i++)
        if (a[i].v == x.v && a[i].s == x.s)
            return;
    if (*n < MAXS)
        a[(*n)++] = x;
}

static int has_state(const st *a, int n, uint64_t v, uint64_t s)
{
    for (int i = 0; i < n; i++)
        if (a[i].v == v && a[i].s == s)
            return 1;
    return 0;
}

static void possibilities(enum op op, st old, const size_t *occ, int m, const uint64_t *vin, const uint64_t *sin,
                          const uint8_t *flags, poss *p)
{
    static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    int nperm = m == 1 ? 1 : m == 2 ? 2 : 6;
    static const int perms2[2][3] = {{0, 1, 2}, {1, 0, 2}};
    p->nfin = p->nmid = 0;
    add_state(p->mid, &p->nmid, old);
    for (int q = 0; q < nperm; q++) {
        const int *pm = m == 2 ? perms2[q] : perms[q];
        for (int j = 0; j < m; j++) {
            for (int start = 0; start < 2; start++) {
                if (start == 0 && j > 0)
                    continue; /* the old state only before the first */
                st x = start == 0 ? old : (st){0, 0, 0};
                for (int e = j; e < m; e++) {
                    size_t i = occ[pm[e]];
                    int ins;
                    x = apply1(op, x, vin[i], sin[i], flags ? flags[i] : 0, &ins);
                    add_state(p->mid, &p->nmid, x);
                }
                add_state(p->fin, &p->nfin, x);
            }
        }
    }
}

/* ---------------------------------------------------------------- the run */

typedef struct run {
    const df_config *cfg;
    hive_cache *c;
    uint64_t cap, buckets;
    ct_bufs b;
    ct_snap model; /* the table's state after the last call, checked */
    uint64_t *pool, *aimed;
    size_t npool, naimed;
    size_t *next_occ; /* per element: the next element with its key, or SIZE_MAX */
    uint64_t step;
    uint64_t exact_buckets, loose_calls, evicted_seen, refused_seen;
} run;

static uint64_t bucket_of(const run *r, uint64_t k) { return hive_cache_place_of(k, r->buckets, r->cfg->dual, ht_test_hash_seed()).b1; }

static st model_state(const run *r, uint64_t k)
{
    long long at = ct_snap_find(&r->model, k);
    if (at < 0)
        return (st){0, 0, 0};
    uint64_t v;
    get_value(r->model.values + (uint64_t)at * VB, &v);
    return (st){1, v, r->model.scores[at]};
}

static uint64_t new_score(void)
{
    return ht_rng_chance(&R, 0.2) ? score_lo-- : score_hi++;
}

/* Draws a batch of n keys (repeats allowed up to 3 times when `repeats`). */
static void draw_keys(run *r, size_t n, int repeats, uint64_t *keys)
{
    ht_ref count;
    ht_ref_init(&count);
    for (size_t i = 0; i < n; i++) {
        uint64_t k, c = 0;
        for (;;) {
            if (repeats && i > 0 && ht_rng_chance(&R, 0.15))
                k = keys[ht_rng_below(&R, i)];
            else if (ht_rng_chance(&R, 0.4))
                k = r->aimed[ht_rng_below(&R, r->naimed)];
            else
                k = r->pool[ht_rng_below(&R, r->npool)];
            c = 0;
            ht_ref_get(&count, k, &c);
            if (c < (repeats ? 3u : 1u))
                break;
        }
        ht_ref_put(&count, k, c + 1);
        keys[i] = k;
    }
    ht_ref_free(&count);
}

/* Checks a writer's outcome against the model, then adopts the table's state. */
static void check_writer(run *r, enum op op, size_t n, int repeats, const uint64_t *vin, const uint64_t *sin,
                         const uint8_t *flags, const uint8_t *results, const uint8_t *found_out,
                         const uint8_t *values_out, const uint64_t *scores_out, uint64_t ev_count)
{
    const uint64_t *keys = r->b.keys;
    ct_snap a;
    ct_snapshot(&T, r->c, &a);
    ht_ref first; /* key -> first element */
    ht_ref_init(&first);
    for (size_t i = 0; i < n; i++)
        r->next_occ[i] = SIZE_MAX;
    for (size_t i = n; i-- > 0;) {
        uint64_t f;
        if (ht_ref_get(&first, keys[i], &f))
            r->next_occ[i] = (size_t)f;
        ht_ref_put(&first, keys[i], i);
    }
    /* Per key: its possible states. */
    uint64_t inserted = 0, evicted = 0, refused = 0;
    if (results)
        for (size_t i = 0; i < n; i++) {
            inserted += results[i] == HIVE_RESULT_INSERTED;
            evicted += results[i] == HIVE_RESULT_EVICTED;
            refused += results[i] == HIVE_RESULT_REFUSED;
        }
    r->evicted_seen += evicted;
    r->refused_seen += refused;
    ht_ref ev; /* insert_and_evict records: key -> how many */
    ht_ref_init(&ev);
    for (uint64_t e = 0; e < ev_count; e++) {
        uint64_t c = 0;
        ht_ref_get(&ev, r->b.ev_keys[e], &c);
        ht_ref_put(&ev, r->b.ev_keys[e], c + 1);
    }
    /* Keys after the call. */
    for (uint64_t i = 0; i < a.n; i++) {
        uint64_t k = a.keys[i], v, f;
        HT_CHECK(get_value(a.values + i * VB, &v), "key %llu's value is not (v, v*C)", (unsigned long long)k);
        st old = model_state(r, k);
        if (!ht_ref_get(&first, k, &f)) {
            if (!HT_CHECK(old.present, "key %llu appeared without being written", (unsigned long long)k))
                continue;
            HT_CHECK(old.v == v && old.s == a.scores[i], "untouched key %llu changed: (%llu, %llu) -> (%llu, %llu)",
                     (unsigned long long)k, (unsigned long long)old.v, (unsigned long long)old.s,
                     (unsigned long long)v, (unsigned long long)a.scores[i]);
            continue;
        }
        size_t occ[3];
        int m = 0;
        for (size_t j = (size_t)f; j != SIZE_MAX && m < 3; j = r->next_occ[j])
            occ[m++] = j;
        poss p;
        possibilities(op, old, occ, m, vin, sin, flags, &p);
        HT_CHECK(has_state(p.fin, p.nfin, v, a.scores[i]),
                 "key %llu (%d elements, present before %d) holds (%llu, %llu): no order of its elements gives that",
                 (unsigned long long)k, m, old.present, (unsigned long long)v, (unsigned long long)a.scores[i]);
    }
    /* Old keys gone. */
    uint64_t departed = 0;
    for (uint64_t i = 0; i < r->model.n; i++) {
        uint64_t k = r->model.keys[i], f;
        if (ct_snap_find(&a, k) >= 0)
            continue;
        departed++;
        HT_CHECK(may_insert(op), "key %llu left during %s, which never inserts", (unsigned long long)k, op_name[op]);
        if (op == OP_IAE) {
            uint64_t c = 0;
            HT_CHECK(ht_ref_get(&ev, k, &c), "key %llu left without an evicted record", (unsigned long long)k);
        }
        (void)f;
    }
    if (results)
        HT_CHECK(evicted >= departed, "%llu old entries left but only %llu EVICTED results",
                 (unsigned long long)departed, (unsigned long long)evicted);
    /* insert_and_evict's records: each an old entry or a state of its key's elements. */
    if (op == OP_IAE) {
        HT_CHECK(ev_count <= n, "evicted count %llu > batch %zu", (unsigned long long)ev_count, n);
        for (uint64_t e = 0; e < ev_count && e < n; e++) {
            uint64_t k = r->b.ev_keys[e], v, f;
            HT_CHECK(get_value(r->b.ev_values + e * VB, &v), "evicted key %llu's value is not (v, v*C)",
                     (unsigned long long)k);
            st old = model_state(r, k);
            uint64_t s = r->b.ev_scores[e];
            if (old.present && old.v == v && old.s == s)
                continue;
            if (!HT_CHECK(ht_ref_get(&first, k, &f), "evicted key %llu (%llu, %llu) was neither present nor written",
                          (unsigned long long)k, (unsigned long long)v, (unsigned long long)s))
                continue;
            size_t occ[3];
            int m = 0;
            for (size_t j = (size_t)f; j != SIZE_MAX && m < 3; j = r->next_occ[j])
                occ[m++] = j;
            poss p;
            possibilities(op, old, occ, m, vin, sin, flags, &p);
            HT_CHECK(has_state(p.mid, p.nmid, v, s), "evicted record of key %llu (%llu, %llu): not a state of it",
                     (unsigned long long)k, (unsigned long long)v, (unsigned long long)s);
        }
        for (size_t i = 0; i < n; i++) /* every batch key absent after came out */
            if (ct_snap_find(&a, keys[i]) < 0)
                HT_CHECK(ht_ref_get(&ev, keys[i], NULL), "batch key %llu absent after insert_and_evict and not out",
                         (unsigned long long)keys[i]);
        r->evicted_seen += ev_count;
    }
    if (results)
        HT_CHECK_EQ(a.n, r->model.n + inserted, "size after == size before + INSERTED results (%s)", op_name[op]);
    /* Buckets that new keys of this call went to (both, dual): a present key
     * elsewhere cannot have been evicted in the call ("quiet"). */
    uint8_t *busy = calloc(r->buckets, 1);
    for (size_t i = 0; i < n; i++) {
        int ins = 0;
        apply1(op, model_state(r, keys[i]), vin[i], sin[i], flags ? flags[i] : 0, &ins);
        if (ins) {
            hive_cache_place pl = hive_cache_place_of(keys[i], r->buckets, r->cfg->dual, ht_test_hash_seed());
            busy[pl.b1] = busy[pl.b2] = 1;
        }
    }
    /* Per element: results, found flags, outputs. */
    for (size_t i = 0; i < n; i++) {
        uint64_t k = keys[i], f = 0;
        ht_ref_get(&first, k, &f);
        int single = f == i && r->next_occ[i] == SIZE_MAX;
        st old = model_state(r, k);
        unsigned res = results ? results[i] : 0;
        hive_cache_place pl = hive_cache_place_of(k, r->buckets, r->cfg->dual, ht_test_hash_seed());
        int quiet = !busy[pl.b1] && !busy[pl.b2];
        switch (op) {
        case OP_UPSERT:
            HT_CHECK(res == HIVE_RESULT_INSERTED || res == HIVE_RESULT_UPDATED || res == HIVE_RESULT_EVICTED ||
                         res == HIVE_RESULT_REFUSED,
                     "upsert result %s", ct_result_name(res));
            if (single && !old.present)
                HT_CHECK(res != HIVE_RESULT_UPDATED, "new key %llu UPDATED", (unsigned long long)k);
            if (old.present && (evicted == 0 || quiet))
                HT_CHECK_EQ(res, HIVE_RESULT_UPDATED, "present key %llu, nothing evicted from its buckets",
                            (unsigned long long)k);
            if (res == HIVE_RESULT_REFUSED && single)
                HT_CHECK(ct_snap_find(&a, k) < 0, "refused key %llu present", (unsigned long long)k);
            break;
        case OP_ACCUM:
            if (flags[i])
                HT_CHECK(res == HIVE_RESULT_UPDATED || res == HIVE_RESULT_NONE, "accum flag 1 result %s",
                         ct_result_name(res));
            else
                HT_CHECK(res == HIVE_RESULT_NONE || res == HIVE_RESULT_INSERTED || res == HIVE_RESULT_EVICTED ||
                             res == HIVE_RESULT_REFUSED,
                         "accum flag 0 result %s", ct_result_name(res));
            if (single && (evicted == 0 || quiet)) {
                unsigned want = flags[i] ? (old.present ? HIVE_RESULT_UPDATED : HIVE_RESULT_NONE)
                                         : (old.present ? HIVE_RESULT_NONE : res);
                HT_CHECK_EQ(res, want, "accum key %llu flag %u present %d: %s", (unsigned long long)k, flags[i],
                            old.present, ct_result_name(res));
            }
            break;
        case OP_FOI:
            if (single && old.present && found_out[i] == 1) {
                uint64_t v;
                get_value(values_out + i * VB, &v);
                HT_CHECK_EQ(v, old.v, "find_or_insert value out of present key %llu", (unsigned long long)k);
                HT_CHECK_EQ(scores_out[i], sin[i], "find_or_insert refreshed score of key %llu",
                            (unsigned long long)k);
            }
            if (single && !old.present)
                HT_CHECK_EQ(found_out[i], 0, "find_or_insert of absent key %llu", (unsigned long long)k);
            if (old.present && quiet)
                HT_CHECK_EQ(found_out[i], 1, "find_or_insert of present key %llu, nothing evicted from its buckets",
                            (unsigned long long)k);
            break;
        case OP_ASSIGN:
        case OP_ASSIGN_VALUES:
        case OP_ASSIGN_SCORES: /* nothing leaves: exact */
            HT_CHECK_EQ(found_out[i], old.present, "%s found of key %llu (single %d)", op_name[op],
                        (unsigned long long)k, single);
            break;
        default:
            break;
        }
    }
    /* Exact buckets: single-bucket tables, no repeats, new keys and no
     * rescored present key in the bucket. */
    if (!r->cfg->dual && !repeats && may_insert(op)) {
        uint64_t nb = r->buckets;
        uint8_t *mixed = calloc(nb, 1);   /* a present key rescored here */
        uint32_t *newc = calloc(nb, 4);   /* new keys sent here */
        for (size_t i = 0; i < n; i++) {
            st old = model_state(r, keys[i]);
            uint64_t bk = bucket_of(r, keys[i]);
            int ins = 0;
            apply1(op, old, vin[i], sin[i], flags ? flags[i] : 0, &ins);
            if (ins)
                newc[bk]++;
            else if (old.present) /* rescored, or (evicted by a new key first) written again */
                mixed[bk] = 1;
        }
        for (uint64_t bk = 0; bk < nb; bk++) {
            if (mixed[bk] || newc[bk] == 0)
                continue;
            r->exact_buckets++;
            /* Candidates: old entries of the bucket and its new keys. */
            size_t cand_n = 0, cap_c = r->cfg->slots + newc[bk];
            uint64_t *ck = malloc(cap_c * 8), *cs = malloc(cap_c * 8);
            for (uint64_t i = 0; i < r->model.n; i++)
                if (bucket_of(r, r->model.keys[i]) == bk)
                    ck[cand_n] = r->model.keys[i], cs[cand_n++] = r->model.scores[i];
            size_t olds = cand_n;
            for (size_t i = 0; i < n; i++) {
                if (bucket_of(r, keys[i]) != bk || model_state(r, keys[i]).present)
                    continue;
                if (op == OP_ACCUM && flags[i])
                    continue;
                ck[cand_n] = keys[i], cs[cand_n++] = sin[i];
            }
            /* The B-th highest score: everything at or above it stays. */
            uint64_t keep_from = 0;
            if (cand_n > r->cfg->slots) {
                uint64_t *sorted = malloc(cand_n * 8);
                memcpy(sorted, cs, cand_n * 8);
                for (size_t x = 1; x < cand_n; x++) /* insertion sort, descending */
                    for (size_t y = x; y > 0 && sorted[y - 1] < sorted[y]; y--) {
                        uint64_t t = sorted[y];
                        sorted[y] = sorted[y - 1];
                        sorted[y - 1] = t;
                    }
                keep_from = sorted[r->cfg->slots - 1];
                free(sorted);
            }
            uint64_t wrong = 0;
            for (size_t x = 0; x < cand_n; x++)
                wrong += (cs[x] >= keep_from) != (ct_snap_find(&a, ck[x]) >= 0);
            if (wrong && getenv("CT_TRACE")) {
                for (size_t x = 0; x < cand_n; x++)
                    printf("    bucket %llu candidate %zu: key %llu score %llu %s, after: %s\n", (unsigned long long)bk,
                           x, (unsigned long long)ck[x], (unsigned long long)cs[x], x < olds ? "old" : "new",
                           ct_snap_find(&a, ck[x]) >= 0 ? "there" : "gone");
                for (size_t i = 0; i < n; i++)
                    if (bucket_of(r, keys[i]) == bk)
                        printf("    element %zu: key %llu flag %u score %llu result %s\n", i,
                               (unsigned long long)keys[i], flags ? flags[i] : 9, (unsigned long long)sin[i],
                               results ? ct_result_name(results[i]) : "-");
            }
            uint64_t want_ins = newc[bk] < r->cfg->slots - olds ? newc[bk] : r->cfg->slots - olds;
            uint64_t got_ins = 0;
            for (size_t x = 0; x < cand_n; x++) {
                int stays = cs[x] >= keep_from;
                int there = ct_snap_find(&a, ck[x]) >= 0;
                HT_CHECK_EQ(there, stays, "bucket %llu: key %llu of score %llu (cut %llu, %zu candidates, %zu old) %s",
                            (unsigned long long)bk, (unsigned long long)ck[x], (unsigned long long)cs[x],
                            (unsigned long long)keep_from, cand_n, olds, stays ? "must stay" : "must leave");
                if (op == OP_IAE && !stays)
                    HT_CHECK(ht_ref_get(&ev, ck[x], NULL), "bucket %llu: key %llu left and was not written out",
                             (unsigned long long)bk, (unsigned long long)ck[x]);
            }
            if (results) {
                for (size_t i = 0; i < n; i++)
                    if (bucket_of(r, keys[i]) == bk)
                        got_ins += results[i] == HIVE_RESULT_INSERTED;
                HT_CHECK_EQ(got_ins, want_ins, "bucket %llu: INSERTED results (free slots %llu, new keys %u)",
                            (unsigned long long)bk, (unsigned long long)(r->cfg->slots - olds), newc[bk]);
            }
            free(ck);
            free(cs);
        }
        free(mixed);
        free(newc);
    } else if (may_insert(op)) {
        r->loose_calls++;
    }
    free(busy);
    ht_ref_free(&ev);
    ht_ref_free(&first);
    ct_snap_free(&r->model);
    r->model = a;
}

/* Readers: exact against the model. */
static void check_find(run *r, size_t n, const uint8_t *found, const uint8_t *values, const uint64_t *scores)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t k = r->b.keys[i];
        st x = model_state(r, k);
        HT_CHECK_EQ(found[i], x.present, "find of key %llu", (unsigned long long)k);
        if (x.present && found[i] == 1) {
            uint64_t v;
            HT_CHECK(get_value(values + i * VB, &v) && v == x.v, "find value of key %llu", (unsigned long long)k);
            HT_CHECK_EQ(scores[i], x.s, "find score of key %llu", (unsigned long long)k);
        } else {
            HT_CHECK(values[i * VB] == 0xA5 && values[i * VB + VB - 1] == 0xA5,
                     "find wrote the value entry of absent key %llu", (unsigned long long)k);
        }
    }
}

static void one_step(run *r)
{
    unsigned total = 0, pick;
    for (int o = 0; o < OPS; o++)
        total += op_weight[o];
    pick = (unsigned)ht_rng_below(&R, total);
    enum op op = 0;
    while (pick >= op_weight[op])
        pick -= op_weight[op++];
    size_t n = (size_t)ht_rng_log_size(&R, 256);
    int repeats = ht_rng_chance(&R, 0.3) && op != OP_FIND && op != OP_FIND_MISSED;
    ct_bufs *b = &r->b;
    hive_cache *c = r->c;
    ht_context("differential slots %u dual %u capacity %llu, step %llu: %s of %zu%s", r->cfg->slots, r->cfg->dual,
               (unsigned long long)r->cap, (unsigned long long)r->step, op_name[op], n,
               repeats ? " (keys repeated)" : "");
    draw_keys(r, n, repeats, b->keys);
    uint64_t vin[256], sin[256];
    for (size_t i = 0; i < n; i++) {
        vin[i] = ht_rng_next(&R) >> 1;
        sin[i] = new_score();
        if (op == OP_ACCUM) {
            vin[i] = ht_rng_below(&R, 1000);
            b->flags[i] = (uint8_t)ht_rng_chance(&R, 0.5);
        }
        put_value(b->values + i * VB, vin[i]);
        b->scores[i] = sin[i];
    }
    memset(b->results, 0xEE, n);
    memset(b->found, 0xEE, n);
    memset(b->values_out, 0xA5, n * VB);
    uint64_t count = 0;
    switch (op) {
    case OP_UPSERT:
        HT_CHECK_STATUS(hive_cache_insert_or_assign(c, n, b->keys, b->values, b->scores, b->results, NULL),
                        HIVE_SUCCESS, "%s", "");
        check_writer(r, op, n, repeats, vin, sin, NULL, b->results, NULL, NULL, NULL, 0);
        break;
    case OP_IAE:
        HT_CHECK_STATUS(hive_cache_insert_and_evict(c, n, b->keys, b->values, b->scores, b->ev_keys, b->ev_values,
                                                    b->ev_scores, &count, NULL),
                        HIVE_SUCCESS, "%s", "");
        check_writer(r, op, n, repeats, vin, sin, NULL, NULL, NULL, NULL, NULL, count);
        break;
    case OP_FOI:
        HT_CHECK_STATUS(hive_cache_find_or_insert(c, n, b->keys, b->values, b->scores, b->found, NULL),
                        HIVE_SUCCESS, "%s", "");
        check_writer(r, op, n, repeats, vin, sin, NULL, NULL, b->found, b->values, b->scores, 0);
        break;
    case OP_ASSIGN:
        HT_CHECK_STATUS(hive_cache_assign(c, n, b->keys, b->values, b->scores, b->found, NULL), HIVE_SUCCESS, "%s", "");
        check_writer(r, op, n, repeats, vin, sin, NULL, NULL, b->found, NULL, NULL, 0);
        break;
    case OP_ASSIGN_VALUES:
        HT_CHECK_STATUS(hive_cache_assign_values(c, n, b->keys, b->values, b->found, NULL), HIVE_SUCCESS, "%s", "");
        check_writer(r, op, n, repeats, vin, sin, NULL, NULL, b->found, NULL, NULL, 0);
        break;
    case OP_ASSIGN_SCORES:
        HT_CHECK_STATUS(hive_cache_assign_scores(c, n, b->keys, b->scores, b->found, NULL), HIVE_SUCCESS, "%s", "");
        check_writer(r, op, n, repeats, vin, sin, NULL, NULL, b->found, NULL, NULL, 0);
        break;
    case OP_ACCUM:
        HT_CHECK_STATUS(hive_cache_accum_or_assign(c, n, b->keys, b->values, b->flags, b->scores, b->results, NULL),
                        HIVE_SUCCESS, "%s", "");
        check_writer(r, op, n, repeats, vin, sin, b->flags, b->results, NULL, NULL, NULL, 0);
        break;
    case OP_FIND:
        HT_CHECK_STATUS(hive_cache_find(c, n, b->keys, b->values_out, b->found, b->ev_scores, NULL), HIVE_SUCCESS,
                        "%s", "");
        check_find(r, n, b->found, b->values_out, b->ev_scores);
        break;
    case OP_FIND_MISSED: {
        HT_CHECK_STATUS(hive_cache_find_missed(c, n, b->keys, b->values_out, b->ev_scores, b->missed_keys,
                                               b->missed_idx, &count, NULL),
                        HIVE_SUCCESS, "%s", "");
        uint8_t *seen = calloc(n, 1);
        uint64_t want_missed = 0;
        for (uint64_t m = 0; m < count && m < n; m++) {
            uint64_t i = b->missed_idx[m];
            if (!HT_CHECK(i < n, "missed index %llu", (unsigned long long)i))
                continue;
            HT_CHECK(!seen[i], "index %llu missed twice", (unsigned long long)i);
            seen[i] = 1;
            HT_CHECK_EQ(b->missed_keys[m], b->keys[i], "missed key at index %llu", (unsigned long long)i);
        }
        for (size_t i = 0; i < n; i++) {
            want_missed += !model_state(r, b->keys[i]).present;
            b->found[i] = (uint8_t)!seen[i];
        }
        HT_CHECK_EQ(count, want_missed, "missed count");
        check_find(r, n, b->found, b->values_out, b->ev_scores);
        free(seen);
        break;
    }
    case OP_CONTAINS:
        HT_CHECK_STATUS(hive_cache_contains(c, n, b->keys, b->found, NULL), HIVE_SUCCESS, "%s", "");
        for (size_t i = 0; i < n; i++)
            HT_CHECK_EQ(b->found[i], model_state(r, b->keys[i]).present, "contains of key %llu",
                        (unsigned long long)b->keys[i]);
        break;
    case OP_ERASE: {
        HT_CHECK_STATUS(hive_cache_erase(c, n, b->keys, b->results, NULL), HIVE_SUCCESS, "%s", "");
        ht_ref erased;
        ht_ref_init(&erased);
        for (size_t i = 0; i < n; i++)
            if (b->results[i] == HIVE_RESULT_ERASED) {
                HT_CHECK(!ht_ref_get(&erased, b->keys[i], NULL), "key %llu ERASED twice", (unsigned long long)b->keys[i]);
                ht_ref_put(&erased, b->keys[i], 0);
            } else {
                HT_CHECK_EQ(b->results[i], HIVE_RESULT_NOT_FOUND, "erase result of key %llu", (unsigned long long)b->keys[i]);
            }
        for (size_t i = 0; i < n; i++)
            HT_CHECK_EQ(ht_ref_get(&erased, b->keys[i], NULL), model_state(r, b->keys[i]).present,
                        "erased iff present: key %llu", (unsigned long long)b->keys[i]);
        ct_snap a;
        ct_snapshot(&T, c, &a);
        HT_CHECK_EQ(a.n, r->model.n - ht_ref_size(&erased), "size after erase");
        for (uint64_t i = 0; i < r->model.n; i++) {
            long long at = ct_snap_find(&a, r->model.keys[i]);
            int gone = ht_ref_get(&erased, r->model.keys[i], NULL);
            HT_CHECK_EQ(at < 0, gone, "key %llu after erase", (unsigned long long)r->model.keys[i]);
            if (at >= 0)
                HT_CHECK(a.scores[at] == r->model.scores[i] &&
                             memcmp(a.values + (uint64_t)at * VB, r->model.values + i * VB, VB) == 0,
                         "key %llu changed by erase", (unsigned long long)r->model.keys[i]);
        }
        ht_ref_free(&erased);
        ct_snap_free(&r->model);
        r->model = a;
        break;
    }
    case OP_ERASE_IF: {
        hive_cache_filter f = {0, 0, 0, UINT64_MAX};
        if (ht_rng_chance(&R, 0.7)) {
            f.key_mask = ht_rng_below(&R, 8);
            f.key_pattern = ht_rng_next(&R) & f.key_mask;
        }
        if (ht_rng_chance(&R, 0.7)) {
            f.score_min = ht_rng_chance(&R, 0.5) ? 0 : (1ull << 40) - ht_rng_below(&R, 2000);
            f.score_max = ht_rng_chance(&R, 0.5) ? UINT64_MAX : (1ull << 40) + ht_rng_below(&R, r->step * 20 + 1);
        }
        uint64_t erased = UINT64_MAX, want = 0;
        HT_CHECK_STATUS(hive_cache_erase_if(c, &f, &erased, NULL), HIVE_SUCCESS, "%s", "");
        ct_snap a;
        ct_snapshot(&T, c, &a);
        for (uint64_t i = 0; i < r->model.n; i++) {
            int sel = hive_cache_filter_match(&f, r->model.keys[i], r->model.scores[i]);
            want += sel;
            HT_CHECK_EQ(ct_snap_find(&a, r->model.keys[i]) < 0, sel, "erase_if: key %llu score %llu",
                        (unsigned long long)r->model.keys[i], (unsigned long long)r->model.scores[i]);
        }
        HT_CHECK_EQ(erased, want, "erase_if count");
        HT_CHECK_EQ(a.n, r->model.n - want, "size after erase_if");
        ct_snap_free(&r->model);
        r->model = a;
        break;
    }
    case OP_EXPORT: {
        hive_cache_filter f = {0, 0, 0, UINT64_MAX};
        f.key_mask = ht_rng_below(&R, 4);
        f.key_pattern = ht_rng_next(&R) & f.key_mask;
        uint64_t chunk = ht_rng_range(&R, 1, r->cap), total = 0;
        uint64_t *k = ht_alloc(&T, chunk * 8), *s = ht_alloc(&T, chunk * 8);
        uint8_t *v = ht_alloc(&T, chunk * VB);
        ht_ref seen;
        ht_ref_init(&seen);
        for (uint64_t off = 0; off < r->cap; off += chunk) {
            uint64_t slots = r->cap - off < chunk ? r->cap - off : chunk;
            HT_CHECK_STATUS(hive_cache_export(c, off, slots, &f, k, v, s, &count, NULL), HIVE_SUCCESS, "offset %llu",
                            (unsigned long long)off);
            HT_CHECK(count <= slots, "export of %llu slots gave %llu", (unsigned long long)slots,
                     (unsigned long long)count);
            for (uint64_t i = 0; i < count && i < slots; i++) {
                st x = model_state(r, k[i]);
                uint64_t val;
                HT_CHECK(!ht_ref_get(&seen, k[i], NULL), "key %llu exported twice",
                         (unsigned long long)k[i]);
                ht_ref_put(&seen, k[i], 0);
                HT_CHECK(x.present && get_value(v + i * VB, &val) && val == x.v && s[i] == x.s,
                         "exported entry of key %llu", (unsigned long long)k[i]);
                HT_CHECK(hive_cache_filter_match(&f, k[i], s[i]), "exported key %llu outside the filter",
                         (unsigned long long)k[i]);
                total++;
            }
        }
        uint64_t want = 0;
        for (uint64_t i = 0; i < r->model.n; i++)
            want += hive_cache_filter_match(&f, r->model.keys[i], r->model.scores[i]);
        HT_CHECK_EQ(total, want, "filtered export count (chunks of %llu)", (unsigned long long)chunk);
        ht_ref_free(&seen);
        ht_free(&T, k);
        ht_free(&T, s);
        ht_free(&T, v);
        break;
    }
    case OP_SIZE: {
        uint64_t size = 0, cap = 0;
        double lf = -1;
        HT_MUST(hive_cache_size(c, &size));
        HT_MUST(hive_cache_capacity(c, &cap));
        HT_MUST(hive_cache_load_factor(c, &lf));
        HT_CHECK_EQ(size, r->model.n, "size");
        HT_CHECK_EQ(cap, r->cap, "capacity");
        HT_CHECK(lf > (double)size / (double)cap - 1e-9 && lf < (double)size / (double)cap + 1e-9, "load factor %g",
                 lf);
        break;
    }
    case OP_CLEAR: {
        HT_CHECK_STATUS(hive_cache_clear(c, NULL), HIVE_SUCCESS, "%s", "");
        ct_snap_free(&r->model);
        ct_snapshot(&T, c, &r->model);
        HT_CHECK_EQ(r->model.n, 0, "size after clear");
        break;
    }
    default:
        break;
    }
}

int main(int argc, char **argv)
{
    const char *usage = "<cpu|cuda> [--scale F] [--seed S] [--steps N] [--hbm-fraction F]";
    ct_target_from_args(&T, argc, argv, usage);
    uint64_t seed = 1, steps = 8000;
    for (int a = 2; a < argc; a++) {
        if (ct_tier_arg(argc, argv, &a))
            continue;
        if (strcmp(argv[a], "--scale") == 0 && a + 1 < argc)
            scale = atof(argv[++a]);
        else if (strcmp(argv[a], "--seed") == 0 && a + 1 < argc)
            seed = strtoull(argv[++a], NULL, 0);
        else if (strcmp(argv[a], "--steps") == 0 && a + 1 < argc)
            steps = strtoull(argv[++a], NULL, 0);
        else {
            fprintf(stderr, "usage: %s %s\n", argv[0], usage);
            return HT_EXIT_FAIL;
        }
    }
    steps = (uint64_t)((double)steps * scale) + 50;
    static char name[128];
    snprintf(name, sizeof name, "cache differential %s (seed %llu, %llu steps a table, hbm fraction %g)",
             T.backend_name, (unsigned long long)seed, (unsigned long long)steps, ct_tier_fraction());
    ht_begin(name);
    ht_rng_seed(&R, seed);
    ct_require_backend(&T);
    for (size_t ci = 0; ci < sizeof configs / sizeof configs[0]; ci++) {
        run r;
        memset(&r, 0, sizeof r);
        r.cfg = &configs[ci];
        hive_cache_config cc = ct_config(&T);
        cc.policy = HIVE_SCORE_CUSTOM;
        cc.bucket_slots = r.cfg->slots;
        cc.dual_bucket = r.cfg->dual;
        cc.capacity = r.cfg->capacity;
        cc.dim = DIM;
        cc.value_type = HIVE_VALUE_I64;
        cc.threads = 2;
        r.c = ct_open(&T, &cc);
        HT_MUST(hive_cache_capacity(r.c, &r.cap));
        r.buckets = r.cap / r.cfg->slots;
        ct_bufs_init(&r.b, &T, 256, VB);
        r.next_occ = malloc(256 * sizeof *r.next_occ);
        r.npool = 3 * r.cap;
        r.pool = malloc(r.npool * 8);
        for (size_t i = 0; i < r.npool; i++)
            r.pool[i] = ht_rng_next(&R) >> 2;
        /* Aimed keys: both buckets (dual) among two chosen ones. */
        r.naimed = 3 * r.cfg->slots;
        r.aimed = malloc(r.naimed * 8);
        uint64_t x = ht_rng_below(&R, r.buckets), y = (x + 1 + ht_rng_below(&R, r.buckets - 1)) % r.buckets;
        for (size_t i = 0; i < r.naimed; i++) {
            int first_x = ht_rng_chance(&R, 0.5);
            r.aimed[i] = ct_aimed_key(&R, ht_test_hash_seed(), r.buckets, r.cfg->dual, first_x ? x : y, 1, first_x ? y : x, NULL);
        }
        ct_snapshot(&T, r.c, &r.model);
        for (r.step = 0; r.step < steps; r.step++) {
            uint64_t before = ht_failure_count();
            one_step(&r);
            if (ht_failure_count() != before) {
                printf("  first failure at step %llu of configuration %zu (seed %llu): going on with the next\n",
                       (unsigned long long)r.step, ci, (unsigned long long)seed);
                break;
            }
        }
        printf("  slots %3u dual %u capacity %llu: %llu steps, %llu bucket outcomes checked exactly, %llu inserting calls "
               "checked by invariants only, %llu evicted/refused out, %llu REFUSED results, final size %llu\n",
               r.cfg->slots, r.cfg->dual, (unsigned long long)r.cap, (unsigned long long)r.step,
               (unsigned long long)r.exact_buckets, (unsigned long long)r.loose_calls,
               (unsigned long long)r.evicted_seen, (unsigned long long)r.refused_seen,
               (unsigned long long)r.model.n);
        ct_snap_free(&r.model);
        free(r.pool);
        free(r.aimed);
        free(r.next_occ);
        ct_bufs_free(&r.b);
        ct_close(r.c);
    }
    return ht_finish();
}
