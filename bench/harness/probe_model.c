/* probe_model.c — the probe model (see probe_model.h) and the designs'
 * placement rules in it. */
#include "probe_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h" /* bench_par_for */

#include "designs/chaining/pool.h"
#include "designs/cuckoo/probe.h"
#include "designs/double/probe.h"
#include "designs/hive/probe.h"
#include "designs/iceberg/probe.h"
#include "designs/p2/probe.h"
#include "hash/bithash.h"

static void hashes(const bench_model_table *m, uint64_t key, uint32_t *h1, uint32_t *h2)
{
    if (m->bits == 32) {
        *h1 = hive_hash1_k32((uint32_t)key, m->hash_seed);
        *h2 = hive_hash2_k32((uint32_t)key, m->hash_seed);
    } else {
        *h1 = hive_hash1_k64(key, m->hash_seed);
        *h2 = hive_hash2_k64(key, m->hash_seed);
    }
}

/* Probe i of a key whose hashes are known. */
static uint64_t probe_of(const bench_model_table *m, uint32_t h1, uint32_t h2, uint32_t i)
{
    return hive_bucket_of(m->ix, m->model->probe_hash(h1, h2, i));
}

uint64_t bench_model_probe(const bench_model_table *m, uint64_t key, uint32_t i)
{
    uint32_t h1, h2;
    hashes(m, key, &h1, &h2);
    return probe_of(m, h1, h2, i);
}

int bench_model_init(bench_model_table *m, const bench_probe_model *model, uint64_t buckets,
                     uint32_t slots, uint64_t stash_buckets, uint32_t bits, uint64_t hash_seed)
{
    memset(m, 0, sizeof *m);
    m->stash_buckets = stash_buckets ? stash_buckets : 1;
    m->model = model;
    m->buckets = buckets;
    m->slots = slots;
    m->bits = bits;
    m->hash_seed = hash_seed;
    m->slot_bytes = bits / 4; /* key and value */
    m->ix = hive_index_for(buckets);
    m->fill = calloc(buckets, 1);
    m->keys = malloc(buckets * slots * sizeof *m->keys);
    if (model->chains)
        m->chain_fill = calloc(hive_chain_count(m->stash_buckets), sizeof *m->chain_fill);
    if (m->fill == NULL || m->keys == NULL || slots > 255 || (model->chains && m->chain_fill == NULL)) {
        bench_model_free(m);
        return -1;
    }
    return 0;
}

void bench_model_free(bench_model_table *m)
{
    free(m->fill);
    free(m->keys);
    free(m->chain_fill);
    m->fill = NULL;
    m->keys = NULL;
    m->chain_fill = NULL;
}

/* Bytes a scan that stops at `slot` reads from its start: slots, or tags. */
static uint32_t scan_bytes(const bench_model_table *m, uint32_t slot)
{
    return (slot + 1) * (m->model->tags ? 2u : m->slot_bytes);
}

void bench_model_scan(const bench_model_table *m, uint32_t slot, bench_model_cost *cost)
{
    uint32_t end = scan_bytes(m, slot); /* bytes up to the end of `slot` */
    cost->buckets += 1;
    cost->sectors += (end + 31) / 32;
    cost->lines += (end + 127) / 128;
}

void bench_model_put(bench_model_table *m, uint64_t b, uint64_t key)
{
    m->keys[b * m->slots + m->fill[b]] = key;
    m->fill[b]++;
    m->size++;
}

/* Walks the probe buckets to the first with a free slot: its index, or
 * `probes` when every one is full (all of them read whole). */
static uint32_t walk_to_free(const bench_model_table *m, uint64_t key, uint64_t *bucket,
                             bench_model_cost *cost)
{
    uint32_t P = m->model->probes;
    for (uint32_t i = 0; i < P; i++) {
        uint64_t b = bench_model_probe(m, key, i);
        if (m->fill[b] < m->slots) {
            bench_model_scan(m, m->fill[b], cost);
            *bucket = b;
            return i;
        }
        bench_model_scan(m, m->slots - 1, cost);
    }
    return P;
}

int bench_model_first_fit(bench_model_table *m, uint64_t key, bench_model_cost *cost)
{
    uint64_t b = 0;
    if (walk_to_free(m, key, &b, cost) == m->model->probes)
        return 1;
    bench_model_put(m, b, key);
    return 0;
}

void bench_model_stash(bench_model_table *m, bench_model_cost *cost)
{
    cost->buckets += 1; /* the stash: one bucket read */
    cost->sectors += (m->slots * m->slot_bytes + 31) / 32;
    cost->lines += (m->slots * m->slot_bytes + 127) / 128;
    m->stash++;
    m->size++;
}

void bench_model_absent_r4(const bench_model_table *m, uint64_t key, bench_model_cost *cost)
{
    uint64_t b = 0;
    if (walk_to_free(m, key, &b, cost) < m->model->probes || m->stash == 0)
        return;
    /* the stash bucket, when the key's home bit is set */
    double p = 1.0 - exp(-(double)m->stash / (double)m->stash_buckets);
    cost->buckets += p;
    cost->sectors += p * ((m->slots * m->slot_bytes + 31) / 32);
    cost->lines += p * ((m->slots * m->slot_bytes + 127) / 128);
}

void bench_model_insert(bench_model_table *m, uint64_t key, bench_model_cost *cost)
{
    if (m->model->place != NULL)
        m->model->place(m, key, cost);
    else if (bench_model_first_fit(m, key, cost) != 0)
        bench_model_stash(m, cost);
}

void bench_model_find_absent(const bench_model_table *m, uint64_t key, bench_model_cost *cost)
{
    if (m->model->absent != NULL)
        m->model->absent(m, key, cost);
    else
        bench_model_absent_r4(m, key, cost);
}

static void scan_counts(const bench_model_table *m, uint32_t slot, uint64_t acc[4])
{
    uint32_t end = scan_bytes(m, slot);
    acc[0] += 1;
    acc[1] += (end + 31) / 32;
    acc[2] += (end + 127) / 128;
}

/* Finds of the keys of buckets [lo, hi): acc = buckets, sectors, lines, lost. */
static void find_range(void *p, uint64_t lo, uint64_t hi, uint64_t *acc)
{
    const bench_model_table *m = p;
    for (uint64_t b = lo; b < hi; b++) {
        for (uint32_t s = 0; s < m->fill[b]; s++) {
            uint32_t h1, h2, i = 0;
            hashes(m, m->keys[b * m->slots + s], &h1, &h2);
            for (; i < m->model->probes; i++) {
                uint64_t p = probe_of(m, h1, h2, i);
                if (p == b)
                    break;
                /* up to its first free slot: whole for a first-fit design
                 * (the key went on because it was full), maybe less for a
                 * two-choice one */
                scan_counts(m, m->fill[p] < m->slots ? m->fill[p] : m->slots - 1, acc);
            }
            if (i == m->model->probes) {
                acc[3]++;
            } else {
                scan_counts(m, s, acc);
                if (m->model->tags) { /* and the key's slot, one sector and line */
                    acc[1]++;
                    acc[2]++;
                }
            }
        }
    }
}

uint64_t bench_model_find_all(const bench_model_table *m, bench_model_cost *cost)
{
    uint64_t acc[4];
    bench_par_for(m->buckets, find_range, (void *)m, acc);
    cost->buckets += (double)acc[0];
    cost->sectors += (double)acc[1];
    cost->lines += (double)acc[2];
    if (m->model->find_overflow != NULL) {
        m->model->find_overflow(m, cost);
        return acc[3];
    }
    /* stashed keys: every probe bucket whole (its tags, for a tagged
     * design), then one stash bucket */
    uint32_t probe_bytes = scan_bytes(m, m->slots - 1), stash_bytes = m->slots * m->slot_bytes;
    double probes = m->model->probes;
    cost->buckets += (double)m->stash * (probes + 1.0);
    cost->sectors += (double)m->stash * (probes * ((probe_bytes + 31) / 32) + (stash_bytes + 31) / 32);
    cost->lines += (double)m->stash * (probes * ((probe_bytes + 127) / 128) + (stash_bytes + 127) / 128);
    return acc[3];
}

/* ---------------------------------------------------------------- designs */

/* Hive, both buckets full: the locked path reads b1 and b2 again, then
 * searches breadth-first for a chain of at most HIVE_MODEL_CHAIN cuckoo
 * moves: each victim lives in its own b1 and moves to its b2 (a read of one
 * word: its b2's last slot), the last into a free slot; a full b2 is read
 * whole for the next victims.  The library searches two moves breadth-first
 * and then walks (docs/design.md R5), so the two differ in which chains they
 * find: the `stash` rows show by how much. */
#define HIVE_MODEL_CHAIN 8
#define HIVE_MODEL_NODES 1024

typedef struct chain_node {
    uint64_t bucket;
    uint32_t slot;
    int parent, depth;
} chain_node;

static int on_path(const chain_node *q, int at, uint64_t bucket, uint32_t slot)
{
    for (; at >= 0; at = q[at].parent)
        if (q[at].bucket == bucket && q[at].slot == slot)
            return 1;
    return 0;
}

static int push_victims(const bench_model_table *m, chain_node *q, int *n, uint64_t b, int parent,
                        int depth)
{
    for (uint32_t s = 0; s < m->slots && *n < HIVE_MODEL_NODES; s++) {
        if (bench_model_probe(m, m->keys[b * m->slots + s], 0) != b || on_path(q, parent, b, s))
            continue;
        q[*n].bucket = b;
        q[*n].slot = s;
        q[*n].parent = parent;
        q[*n].depth = depth;
        (*n)++;
    }
    return 0;
}

static int hive_chain(bench_model_table *m, uint64_t key, bench_model_cost *cost)
{
    static chain_node q[HIVE_MODEL_NODES]; /* the model runs on one thread */
    uint64_t home[2] = {bench_model_probe(m, key, 0), bench_model_probe(m, key, 1)};
    int n = 0;
    bench_model_scan(m, m->slots - 1, cost);
    bench_model_scan(m, m->slots - 1, cost);
    push_victims(m, q, &n, home[0], -1, 1);
    if (home[1] != home[0])
        push_victims(m, q, &n, home[1], -1, 1);
    for (int i = 0; i < n; i++) {
        uint64_t victim = m->keys[q[i].bucket * m->slots + q[i].slot];
        uint64_t to = bench_model_probe(m, victim, 1);
        cost->buckets += 1; /* its b2's last slot: one sector, one line */
        cost->sectors += 1;
        cost->lines += 1;
        if (to == q[i].bucket)
            continue;
        if (m->fill[to] < m->slots) { /* room: apply the chain from its end */
            bench_model_put(m, to, victim);
            int at = i;
            for (; q[at].parent >= 0; at = q[at].parent) { /* each slot takes its parent's pair */
                const chain_node *up = &q[q[at].parent];
                m->keys[q[at].bucket * m->slots + q[at].slot] = m->keys[up->bucket * m->slots + up->slot];
                m->moves++;
            }
            m->keys[q[at].bucket * m->slots + q[at].slot] = key; /* the chain's first slot */
            m->moves++;
            return 0;
        }
        if (q[i].depth < HIVE_MODEL_CHAIN && n < HIVE_MODEL_NODES) {
            bench_model_scan(m, m->slots - 1, cost);
            push_victims(m, q, &n, to, i, q[i].depth + 1);
        }
    }
    return 1;
}

static void hive_place(bench_model_table *m, uint64_t key, bench_model_cost *cost)
{
    if (bench_model_first_fit(m, key, cost) != 0 && hive_chain(m, key, cost) != 0)
        bench_model_stash(m, cost);
}

const bench_probe_model bench_model_hive = {
    HIVE_HIVE_PROBES, hive_hive_probe_hash, hive_place, NULL,
    NULL, 0,
    "b1, b2 by first fit; when both are full a breadth-first chain of up to 8 cuckoo moves "
    "(b1 -> b2), else the stash (the library's search differs: compare the stash rows)", 0};

const bench_probe_model bench_model_double = {
    HIVE_DOUBLE_PROBES, hive_double_probe_hash, NULL, NULL,
    NULL, 0,
    "first fit along the probe buckets, then the stash (exact for one key at a time)", 0};

/* ---------------------------------------------------------------- choices */

/* The bucket, of probes [from, probes), that has the fewest keys (the
 * first on a tie), after scanning each up to its first free slot; `probes`
 * when all are full. */
static uint32_t least_full(bench_model_table *m, uint64_t key, uint32_t from, uint64_t *bucket,
                           bench_model_cost *cost)
{
    uint32_t best = m->model->probes;
    for (uint32_t i = from; i < m->model->probes; i++) {
        uint64_t b = bench_model_probe(m, key, i);
        bench_model_scan(m, m->fill[b] < m->slots ? m->fill[b] : m->slots - 1, cost);
        if (m->fill[b] < m->slots && (best == m->model->probes || m->fill[b] < m->fill[*bucket])) {
            best = i;
            *bucket = b;
        }
    }
    return best;
}

/* An absent find where R4 holds for probes [0, from) only: those up to the
 * first with a free slot, else every later probe bucket up to its first
 * free slot (a key there may have chosen either), then the stash bucket
 * with the chance that the key's home bit is set when all were full. */
static void absent_choices(const bench_model_table *m, uint64_t key, uint32_t from, bench_model_cost *cost)
{
    int all_full = 1;
    for (uint32_t i = 0; i < m->model->probes; i++) {
        uint64_t b = bench_model_probe(m, key, i);
        int full = m->fill[b] == m->slots;
        bench_model_scan(m, full ? m->slots - 1 : m->fill[b], cost);
        if (!full) {
            all_full = 0;
            if (i < from)
                return;
        }
    }
    if (!all_full || m->stash == 0)
        return;
    double p = 1.0 - exp(-(double)m->stash / (double)m->stash_buckets);
    cost->buckets += p;
    cost->sectors += p * ((m->slots * m->slot_bytes + 31) / 32);
    cost->lines += p * ((m->slots * m->slot_bytes + 127) / 128);
}

/* Two-choice placement: probe 0's first free slot while it holds fewer than
 * `fast` keys; else (probe 0 read whole where it is not itself a choice)
 * the least full of probes [from, probes), else the stash. */
static void place_choices(bench_model_table *m, uint64_t key, uint32_t fast, uint32_t from,
                          bench_model_cost *cost)
{
    uint64_t b = bench_model_probe(m, key, 0);
    if (m->fill[b] < fast) {
        bench_model_scan(m, m->fill[b], cost);
        bench_model_put(m, b, key);
        return;
    }
    if (from > 0)
        bench_model_scan(m, m->slots - 1, cost);
    if (least_full(m, key, from, &b, cost) == m->model->probes)
        bench_model_stash(m, cost);
    else
        bench_model_put(m, b, key);
}

/* p2: probe 0 while under three quarters full, else the less full of the
 * two (probe 0 on a tie). */
static void p2_place(bench_model_table *m, uint64_t key, bench_model_cost *cost)
{
    place_choices(m, key, HIVE_P2_FAST_FILL(m->slots), 0, cost);
}

static void p2_absent(const bench_model_table *m, uint64_t key, bench_model_cost *cost)
{
    absent_choices(m, key, 0, cost);
}

const bench_probe_model bench_model_p2 = {
    HIVE_P2_PROBES, hive_p2_probe_hash, p2_place, p2_absent,
    NULL, 0,
    "probe 0 by first fit below 3/4 full, else the less full of the two, else the stash; an "
    "absent find reads both (exact for one key at a time)", 0};

/* iceberg: the front yard (probe 0) while it has room, else the less full
 * of the two back-yard buckets (probe 1 on a tie). */
static void iceberg_place(bench_model_table *m, uint64_t key, bench_model_cost *cost)
{
    place_choices(m, key, m->slots, 1, cost);
}

static void iceberg_absent(const bench_model_table *m, uint64_t key, bench_model_cost *cost)
{
    absent_choices(m, key, 1, cost);
}

const bench_probe_model bench_model_iceberg = {
    HIVE_ICEBERG_PROBES, hive_iceberg_probe_hash, iceberg_place, iceberg_absent,
    NULL, 0,
    "the front yard by first fit, else the less full back-yard bucket, else the stash; an absent "
    "find stops at a front yard with room, else reads both back-yard buckets (exact for one key "
    "at a time)", 0};

const bench_probe_model bench_model_cuckoo = {
    HIVE_CUCKOO_PROBES, hive_cuckoo_probe_hash, NULL, NULL,
    NULL, 0,
    "first fit along the three buckets, then the stash (the library's random walks place keys "
    "that this model stashes: compare the stash rows)", 0};

/* ---------------------------------------------------------------- tagged variants */

#define TAGGED_ABOUT "; tags read first, a slot only where its tag is the key's (collisions not counted)"

const bench_probe_model bench_model_double_m = {
    HIVE_DOUBLE_PROBES, hive_double_probe_hash, NULL, NULL,
    NULL, 0,
    "first fit along the probe buckets, then the stash" TAGGED_ABOUT, 1};

const bench_probe_model bench_model_p2_m = {
    HIVE_P2_PROBES, hive_p2_probe_hash, p2_place, p2_absent,
    NULL, 0,
    "probe 0 by first fit below 3/4 full, else the less full of the two, else the stash" TAGGED_ABOUT, 1};

const bench_probe_model bench_model_iceberg_m = {
    HIVE_ICEBERG_PROBES, hive_iceberg_probe_hash, iceberg_place, iceberg_absent,
    NULL, 0,
    "the front yard by first fit, else the less full back-yard bucket, else the stash" TAGGED_ABOUT, 1};

/* ---------------------------------------------------------------- chains */

static uint64_t chain_of(const bench_model_table *m, uint64_t key)
{
    uint32_t h1, h2;
    hashes(m, key, &h1, &h2);
    return hive_chain_of(h1, h2, m->stash_buckets);
}

/* A walk of a whole chain of n keys: its full nodes whole, its last node
 * up to its first free slot. */
static void walk_chain(const bench_model_table *m, uint32_t n, bench_model_cost *cost)
{
    for (uint32_t done = 0; done < n; done += m->slots) {
        uint32_t in = n - done < m->slots ? n - done : m->slots;
        bench_model_scan(m, in < m->slots ? in : m->slots - 1, cost);
    }
}

/* chaining: the head bucket by first fit, else its chain (the head read
 * whole, then the whole chain: the locked path looks for the key in every
 * node before it takes the first free slot, or a new node). */
static void chaining_place(bench_model_table *m, uint64_t key, bench_model_cost *cost)
{
    if (bench_model_first_fit(m, key, cost) == 0)
        return;
    uint64_t c = chain_of(m, key);
    walk_chain(m, m->chain_fill[c], cost);
    m->chain_fill[c]++;
    m->stash++;
    m->size++;
}

/* An absent key: the head bucket, and where it is full the whole chain. */
static void chaining_absent(const bench_model_table *m, uint64_t key, bench_model_cost *cost)
{
    uint64_t b = bench_model_probe(m, key, 0);
    if (m->fill[b] < m->slots) {
        bench_model_scan(m, m->fill[b], cost);
        return;
    }
    bench_model_scan(m, m->slots - 1, cost);
    walk_chain(m, m->chain_fill[chain_of(m, key)], cost);
}

/* Finds of the keys in chains: the k-th key of a chain (in the order they
 * went in) reads the full head bucket, the nodes before its own whole, and
 * its own up to its slot. */
static void chaining_find_chains(const bench_model_table *m, bench_model_cost *cost)
{
    uint64_t chains = hive_chain_count(m->stash_buckets);
    for (uint64_t c = 0; c < chains; c++)
        for (uint32_t k = 0; k < m->chain_fill[c]; k++) {
            bench_model_scan(m, m->slots - 1, cost);
            for (uint32_t node = 0; node < k / m->slots; node++)
                bench_model_scan(m, m->slots - 1, cost);
            bench_model_scan(m, k % m->slots, cost);
        }
}

const bench_probe_model bench_model_chaining = {
    1 /* the head bucket */, hive_chaining_probe_hash, chaining_place, chaining_absent, chaining_find_chains, 1,
    "the head bucket by first fit, else the key's chain (nodes of the bucket's slots, filled in "
    "order: the library fills the same nodes, a concurrent batch in another order); the stash "
    "rows count the keys in chains", 0};
