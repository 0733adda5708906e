/* probe_model.h — a host-side model of where a design keeps its keys, to
 * count what each operation reads (WarpSpeed's probe counts, its Table 5.1)
 * without touching the library.
 *
 * The model is a table of the real table's shape (buckets, slots per bucket,
 * the linear-hashing index of core/index.h) filled one key at a time, in the
 * batch's order, by the design's placement rule over its probe order (the
 * hashes of hash/bithash.h under the real table's hash seed, and the
 * design's probe.h).  Slots of a
 * bucket fill as a suffix and nothing is erased, so a key's place is its
 * bucket and its slot.  Costs of one operation:
 *
 *   buckets  probe buckets scanned (a stash visit counts one bucket);
 *   sectors  32-byte sectors read: a scan stops at the key or at the first
 *            free slot and reads up to the sector holding that slot, a full
 *            bucket without the key is read whole (the GPU reads a bucket a
 *            sector at a time, docs/design.md section 5);
 *   lines    128-byte lines touched, the same way (WarpSpeed's unit).
 *
 * find of a present key walks its probe buckets to the one holding it; find
 * of an absent key stops at the first probe bucket with a free slot (R4),
 * or reads all of them and then one stash bucket when the key's home bit in
 * the stash bitmap is set: the model keeps no stash layout, so it counts
 * the chance of that, 1 - exp(-stash keys / stash buckets); an
 * insert reads what the walk to its free slot reads, plus what its
 * placement policy reads when no probe bucket has room.  Exact for a design
 * that places by first fit when the keys go in one at a time; a model (the
 * order of a concurrent batch differs, and a design's placement may be
 * simplified: each model says how in `about`). */
#ifndef HIVE_BENCH_PROBE_MODEL_H
#define HIVE_BENCH_PROBE_MODEL_H

#include <stdint.h>

#include "core/index.h"

/* Reads of one or more operations. */
typedef struct bench_model_cost {
    double buckets, sectors, lines;
} bench_model_cost;

typedef struct bench_model_table {
    uint64_t buckets;
    uint32_t slots;      /* per bucket */
    uint32_t slot_bytes; /* 8 (KV32) or 16 (KV64) */
    uint32_t bits;       /* key width */
    uint64_t hash_seed;  /* the real table's (hive_get_config) */
    hive_index ix;
    uint8_t *fill;       /* keys held per bucket: slots [0, fill) are taken */
    uint64_t *keys;      /* buckets x slots */
    uint64_t stash;      /* keys the model put in the stash */
    uint64_t stash_buckets; /* the real table's (hive_stats.stash_capacity / slots) */
    uint64_t size;       /* keys held, stash included */
    uint64_t moves;      /* pairs moved by eviction */
    uint32_t *chain_fill; /* keys per chain (designs whose overflow is chains), or NULL */
    const struct bench_probe_model *model;
} bench_model_table;

/* A design's model: its probe order and, where they are not the first-fit
 * designs' (NULL), how it places a key and what an absent find reads.  A new
 * design is one of these (probe_model.c) and its line in designs.c. */
typedef struct bench_probe_model {
    uint32_t probes; /* probe buckets a key has */
    /* The hash whose bucket is probe i (the design's probe.h). */
    uint32_t (*probe_hash)(uint32_t h1, uint32_t h2, uint32_t i);
    /* Places a new key, adding what it reads to *cost.  NULL: first fit
     * along the probe buckets, else the stash. */
    void (*place)(bench_model_table *m, uint64_t key, bench_model_cost *cost);
    /* What a find of an absent key reads.  NULL: bench_model_absent_r4. */
    void (*absent)(const bench_model_table *m, uint64_t key, bench_model_cost *cost);
    /* What finds of every key outside the probe buckets read.  NULL: each
     * reads every probe bucket whole, then one stash bucket. */
    void (*find_overflow)(const bench_model_table *m, bench_model_cost *cost);
    /* Whether the design's overflow is chains keyed by the key's hashes
     * (chain_fill counts their keys) rather than the stash. */
    int chains;
    const char *about; /* how the model follows the design */
    /* A tagged design (core/tags.h): a scan reads the bucket's 2-byte tags
     * up to where it stops, and only the slot that holds the key (a find's
     * last bucket); the stash has no tags. */
    int tags;
} bench_probe_model;

extern const bench_probe_model bench_model_hive;
extern const bench_probe_model bench_model_double;
extern const bench_probe_model bench_model_p2;
extern const bench_probe_model bench_model_double_m;
extern const bench_probe_model bench_model_p2_m;
extern const bench_probe_model bench_model_iceberg_m;
extern const bench_probe_model bench_model_iceberg;
extern const bench_probe_model bench_model_cuckoo;
extern const bench_probe_model bench_model_chaining;

/* A model table of `buckets` buckets of `slots` slots and a stash of
 * `stash_buckets`, for keys of `bits` hashed with `hash_seed`; 0, or -1 (no
 * memory). */
int bench_model_init(bench_model_table *m, const bench_probe_model *model, uint64_t buckets,
                     uint32_t slots, uint64_t stash_buckets, uint32_t bits, uint64_t hash_seed);
void bench_model_free(bench_model_table *m);

/* Probe i of key: its bucket. */
uint64_t bench_model_probe(const bench_model_table *m, uint64_t key, uint32_t i);

/* Inserts a new key; adds its reads to *cost. */
void bench_model_insert(bench_model_table *m, uint64_t key, bench_model_cost *cost);

/* The reads of a find of an absent key (adds to *cost). */
void bench_model_find_absent(const bench_model_table *m, uint64_t key, bench_model_cost *cost);

/* The reads of a find of every key the model holds (adds to *cost; over all
 * cores); returns how many held keys sit in none of their probe buckets (0:
 * the model is consistent). */
uint64_t bench_model_find_all(const bench_model_table *m, bench_model_cost *cost);

/* Shared by models.  First fit: walks the probe buckets to the first with a
 * free slot and puts the key there (0), or reads them all (1, nothing
 * placed).  The stash: one bucket read, the key counted there.  An absent
 * find under R4: the probe buckets up to the first with a free slot, or all
 * of them and the stash bucket with the chance that the key's home bit is
 * set. */
int bench_model_first_fit(bench_model_table *m, uint64_t key, bench_model_cost *cost);
void bench_model_stash(bench_model_table *m, bench_model_cost *cost);
void bench_model_absent_r4(const bench_model_table *m, uint64_t key, bench_model_cost *cost);
/* Scans of a bucket that stop at slot `slot` (the key or the first free
 * slot; slots - 1: the whole bucket). */
void bench_model_scan(const bench_model_table *m, uint32_t slot, bench_model_cost *cost);
/* Puts key into slot fill[b] of bucket b (which has room). */
void bench_model_put(bench_model_table *m, uint64_t b, uint64_t key);

#endif
