/* cpu_table.h — the CPU backend's state for one table: the bucket array with
 * its index rule (hive_cpu_store), the table
 * around it, and the width-specific loops that cpu_kernels.c instantiates
 * once per key width from cpu_kernels_body.h.
 *
 * The memory is laid out as the slot protocol expects (core/view.h), and every
 * per-key operation goes through the table's design (designs/designs.h:
 * hive_find_kv32 & co.): this backend is the executable reference of what the
 * GPU kernels do. */
#ifndef HIVE_CPU_TABLE_H
#define HIVE_CPU_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "designs/designs.h"
#include "cpu_filter.h"
#include "cpu_pool.h"

/* One table's memory.  Empty memory is all 0xFF bytes (EMPTY keys, both
 * widths).  The slot and lock arrays are page mappings that a resize extends
 * or cuts in place (hive_cpu_map), so growth never copies buckets. */
typedef struct hive_cpu_store {
    uint64_t *slots;        /* buckets * S slots of slot_words words, page-aligned */
    uint32_t *locks;        /* one bit per bucket, 0 = free */
    uint16_t *tags;         /* a tagged design's tag per slot (core/tags.h), else NULL */
    uint64_t *stash;        /* stash_buckets * S slots, or NULL */
    uint32_t *stash_used;   /* one bit per stash bucket: ever held a pair (protocol.h); the
                             * chaining design's links (designs/chaining/pool.h) */
    uint64_t stash_live;    /* live keys in the stash (__atomic: the protocol counts them) */
    uint64_t buckets;
    uint64_t stash_buckets;
    hive_index ix;          /* which bucket a hash names; hive_index_buckets(ix) == buckets */
    size_t slot_bytes;      /* mapped for slots (at least buckets * S slots) */
    size_t lock_bytes;      /* mapped for locks */
    size_t tag_bytes;       /* mapped for tags (0: none) */
    size_t stash_bytes;     /* allocated for stash and stash_used */
} hive_cpu_store;

/* What a run of keys did, counted privately by one thread and added to the
 * batch's outcome once. */
typedef struct hive_cpu_tally {
    hive_batch_outcome out;
    uint64_t steps[4];      /* successful upserts by HIVE_STEP_* */
    uint64_t evictions;     /* keys moved by cuckoo eviction */
} hive_cpu_tally;

/* The loops of one key width (cpu_kernels_body.h). */
typedef struct hive_cpu_kernels {
    /* Elements [begin, end) of a batch; `second`: see hive_cpu_prefetch_second;
     * `filter`: the table's absent-key filter (cpu_filter.h), or NULL. */
    void (*run_range)(const hive_view *v, uint32_t S, int second, const hive_cpu_filter *filter,
                      const hive_batch *b, uint64_t begin, uint64_t end, hive_cpu_tally *tally);
    /* Insert-type elements of [begin, end) whose key is not reserved and
     * not in the table, less erases of keys in it (backend.h's count_new;
     * may be negative: the caller sums the ranges, then clamps at 0). */
    int64_t (*count_new_range)(const hive_view *v, uint32_t S, int second, const hive_batch *b,
                               uint64_t begin, uint64_t end);
    /* One resizing step over [begin, end) (cpu_kernels_body.h). */
    uint64_t (*resize_range)(hive_resize_op op, const hive_view *v, const hive_view *to, uint32_t S,
                             hive_index ix, uint64_t begin, uint64_t end);
    /* Adds the keys of source buckets [begin, end) of `s` (main buckets,
     * then the stash: hive_cpu_source_bucket) to the filter. */
    void (*filter_range)(const hive_cpu_store *s, const hive_view *v, uint32_t S, const hive_cpu_filter *filter,
                         uint64_t begin, uint64_t end);
    /* Writes the live pairs of `s` to keys/values, at most `capacity` of
     * them, and returns how many there are. */
    uint64_t (*export_pairs)(const hive_cpu_store *s, uint32_t S, void *keys, void *values,
                             uint64_t capacity);
} hive_cpu_kernels;

extern const hive_cpu_kernels hive_cpu_kernels_kv32;
extern const hive_cpu_kernels hive_cpu_kernels_kv64;

typedef struct hive_cpu_table {
    hive_cpu_store store;
    hive_cpu_store next_stash; /* stash fields only: from stash_open to stash_close (cpu_resize.c) */
    const hive_cpu_kernels *kernels;
    uint32_t S;             /* slots per bucket */
    uint32_t slot_words;    /* 64-bit words per slot: 1 (KV32) or 2 (KV64) */
    uint32_t max_evictions; /* config.max_evictions clamped to HIVE_MAX_CHAIN */
    uint32_t design;        /* HIVE_DESIGN_ID_*: whose operations run (designs/designs.h) */
    uint32_t resize_batch;  /* K: buckets are added in multiples of it */
    uint64_t hash_seed;     /* config.hash_seed, resolved (never HIVE_HASH_SEED_RANDOM) */
    double stash_fraction;
    hive_cpu_filter filter; /* config.absent_filter_bits (words NULL: none) */
    hive_cpu_pool *pool;
} hive_cpu_table;

/* A 32-bit hash names at most 2^32 buckets (core/index.h). */
#define HIVE_CPU_MAX_BUCKETS (1ull << 32)

/* Bytes of one bucket, and of the lock bits of `buckets` buckets. */
static inline uint64_t hive_cpu_bucket_bytes(const hive_cpu_table *ct)
{
    return (uint64_t)ct->S * ct->slot_words * sizeof(uint64_t);
}

static inline uint64_t hive_cpu_lock_bytes(uint64_t buckets) { return (buckets + 31) / 32 * sizeof(uint32_t); }

/* Bytes of the tags of `buckets` buckets: none unless the design is tagged. */
static inline uint64_t hive_cpu_tag_bytes(const hive_cpu_table *ct, uint64_t buckets)
{
    return HIVE_DESIGN_TAGGED(ct->design) ? buckets * ct->S * sizeof(uint16_t) : 0;
}

/* Batches below this many keys run on the calling thread: waking sleeping
 * workers (about 60 us on a 16-core host) would cost more than it saves, at
 * 30-60 ns a key on one thread (docs/perf.md, "CPU backend"). */
#define HIVE_CPU_PARALLEL_MIN 2048u

/* Whether a pass over keys prefetches each key's second bucket as well as
 * its first, given how many keys the table may hold by the end of the pass.
 * Buckets fill first come first, so keys spill into their second bucket only
 * as the load nears one half; below that the second hash and line cost more
 * than they save (measured at 4M keys: -10% at load 0.3, even at 0.5, +30%
 * at 0.9). */
static inline int hive_cpu_prefetch_second(uint64_t keys, uint64_t capacity)
{
    return keys >= capacity / 2;
}

/* The protocol's view of a store. */
static inline hive_view hive_cpu_view(const hive_cpu_table *ct, hive_cpu_store *s)
{
    hive_view v;
    v.slots = s->slots;
    v.locks = s->locks;
    v.tags = s->tags;
    v.stash = s->stash;
    v.stash_used = s->stash_used;
    v.stash_live = &s->stash_live;
    v.ix = s->ix;
    v.stash_buckets = s->stash_buckets;
    v.max_evictions = ct->max_evictions;
    v.design = ct->design;
    v.full_hint = NULL;
    hive_view_set_seed(&v, ct->hash_seed);
    return v;
}

/* Source bucket i of a store, counting the main buckets first and the
 * stash buckets after them, so that one range covers every slot. */
static inline const uint64_t *hive_cpu_source_bucket(const hive_cpu_store *s, uint64_t i,
                                                     uint64_t bucket_words)
{
    return i < s->buckets ? s->slots + i * bucket_words
                          : s->stash + (i - s->buckets) * bucket_words;
}

/* cpu_resize.c: backend.h's per-step work of a resize. */
hive_status hive_cpu_map_buckets(void *impl, uint64_t buckets, hive_stream stream);
void hive_cpu_unmap_beyond(void *impl);
hive_status hive_cpu_step(void *impl, hive_resize_op op, hive_index ix, uint64_t begin, uint64_t end,
                          hive_resize_outcome *out, hive_stream stream);
void hive_cpu_set_index(void *impl, hive_index ix);
hive_status hive_cpu_stash_open(void *impl, uint64_t stash_buckets, hive_stream stream);
void hive_cpu_stash_close(void *impl, int keep);
hive_status hive_cpu_clear_locks(void *impl, hive_stream stream);

/* cpu_table.c: the stash buckets for a table of `buckets` buckets
 * (config.stash_fraction); a stash of that many, allocated empty into s's
 * stash fields; and its release. */
hive_status hive_cpu_stash_alloc(const hive_cpu_table *ct, uint64_t stash_buckets, hive_cpu_store *s,
                                 const char *call);
void hive_cpu_stash_free(hive_cpu_store *s);

/* cpu_batch.c: backend.h's batch operations. */
hive_status hive_cpu_begin(void *impl, const hive_request *r, hive_batch_scratch **scratch,
                           hive_stream stream);
void hive_cpu_end(void *impl, const hive_request *r, hive_batch_scratch *scratch, hive_stream stream);
hive_status hive_cpu_run(void *impl, const hive_request *r, hive_batch_scratch *scratch,
                         hive_batch_outcome *outcome, hive_stream stream);
hive_status hive_cpu_retry_full(void *impl, const hive_request *r, hive_batch_scratch *scratch,
                                hive_batch_outcome *outcome, hive_stream stream);
hive_status hive_cpu_count_new(void *impl, const hive_request *r, uint64_t *count,
                               hive_stream stream);
hive_status hive_cpu_count_inserts(void *impl, const hive_request *r, uint64_t *count,
                                   hive_stream stream);

#endif
