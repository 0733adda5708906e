/* tiered_dedup.c — a step's keys made unique before they reach the hot
 * tier, the last occurrence of a key giving its value.  Two reasons: an
 * upsert's "latest value wins" needs an order among repeats, which a cache
 * batch does not give (it applies repeats in no particular order); and a
 * skewed stream repeats its hottest keys thousands of times a batch, which
 * a GPU cache serialises (docs/cache.md, "Concurrency").
 *
 * On the worker pool, in passes over fixed blocks of the input and over
 * DEDUP_PARTS partitions of the keys (by the top bits of the 64-bit fold the
 * tables use, hash/bithash.h):
 *
 *   1. blocks      each key's partition (or none: reserved);
 *                  counts per block and partition
 *   2. (caller)    offsets: partition-major, block-minor prefix sums
 *   3. blocks      positions scattered into `order`, grouped by partition,
 *                  in input order within each (blocks in order, and each
 *                  block in order)
 *   4. partitions  each partition's keys, in input order, into its own
 *                  region of the map (linear probing, twice as many slots
 *                  as keys: it cannot fill), a repeat overwriting the
 *                  position kept (so the last occurrence wins); each new
 *                  key's slot listed where the partition's positions were
 *                  (the list never passes the position being read)
 *   5. (caller)    offsets of each partition's unique keys
 *   6. partitions  the listed slots' keys, and the values at their last
 *                  positions, written out
 *
 * A slot is live only if its stamp is the current generation, so a step
 * begins without clearing the map. */
#include <string.h>

#include "base/alloc.h"
#include "base/check.h"
#include "cpu/cpu_loop.h"
#include "hash/bithash.h"
#include "tiered/tiered.h"

#define NONE 0xFFu

static uint32_t part_of(uint64_t h) { return (uint32_t)(h >> (64 - HIVE_TIERED_DEDUP_PART_BITS)); }

hive_status hive_tiered_dedup_init(hive_tiered_dedup *d, uint32_t batch)
{
    memset(d, 0, sizeof *d);
    d->blocks = (batch + HIVE_TIERED_BLOCK - 1) / HIVE_TIERED_BLOCK;
    d->part = hive_host_calloc(batch, 1);
    d->order = hive_host_calloc(batch, sizeof *d->order);
    d->counts = hive_host_calloc((size_t)d->blocks * HIVE_TIERED_DEDUP_PARTS, sizeof *d->counts);
    d->map_slots = 2 * (uint64_t)batch;
    d->map = hive_host_calloc(d->map_slots, sizeof *d->map);
    if (d->part == NULL || d->order == NULL || d->counts == NULL || d->map == NULL) {
        hive_tiered_dedup_free(d);
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, "hive_tiered_create",
                         "no host memory for the key map of a step of %u keys", batch);
    }
    return HIVE_SUCCESS;
}

void hive_tiered_dedup_free(hive_tiered_dedup *d)
{
    hive_host_free(d->part);
    hive_host_free(d->order);
    hive_host_free(d->counts);
    hive_host_free(d->map);
    memset(d, 0, sizeof *d);
}

typedef struct dedup_job {
    hive_cpu_loop loop;
    hive_tiered_dedup *d;
    uint64_t n;
    const uint64_t *keys, *values;
    uint64_t *out_keys, *out_values;
    uint64_t reserved; /* (__atomic) */
} dedup_job;

static void partition_range(hive_cpu_loop *loop, uint64_t b0, uint64_t b1)
{
    dedup_job *j = (dedup_job *)loop;
    hive_tiered_dedup *d = j->d;
    uint64_t reserved = 0;
    for (uint64_t b = b0; b < b1; b++) {
        uint64_t *count = d->counts + b * HIVE_TIERED_DEDUP_PARTS;
        memset(count, 0, HIVE_TIERED_DEDUP_PARTS * sizeof *count);
        uint64_t end = (b + 1) * HIVE_TIERED_BLOCK < j->n ? (b + 1) * HIVE_TIERED_BLOCK : j->n;
        for (uint64_t i = b * HIVE_TIERED_BLOCK; i < end; i++) {
            uint8_t p = NONE;
            if (j->keys[i] >= HIVE_KV64_RESERVED_MIN)
                reserved++;
            else
                p = (uint8_t)part_of(hive_fold64(j->keys[i]));
            d->part[i] = p;
            if (p != NONE)
                count[p]++;
        }
    }
    if (reserved != 0)
        __atomic_fetch_add(&j->reserved, reserved, __ATOMIC_RELAXED);
}

static void scatter_range(hive_cpu_loop *loop, uint64_t b0, uint64_t b1)
{
    dedup_job *j = (dedup_job *)loop;
    hive_tiered_dedup *d = j->d;
    for (uint64_t b = b0; b < b1; b++) {
        uint64_t *at = d->counts + b * HIVE_TIERED_DEDUP_PARTS; /* offsets after pass 2 */
        uint64_t end = (b + 1) * HIVE_TIERED_BLOCK < j->n ? (b + 1) * HIVE_TIERED_BLOCK : j->n;
        for (uint64_t i = b * HIVE_TIERED_BLOCK; i < end; i++)
            if (d->part[i] != NONE)
                d->order[at[d->part[i]]++] = (uint32_t)i;
    }
}

/* A key's slot in a region of `size` slots: the low half of the fold the
 * partition took its top bits from. */
static uint64_t slot_of(uint64_t key, uint64_t size) { return ((hive_fold64(key) & 0xFFFFFFFFull) * size) >> 32; }

/* Keys ahead of the one merged whose first slot is prefetched: the map's
 * regions outgrow the caches once a step has some 10^5 keys.  Their slots
 * wait in a ring of DEDUP_RING, a power of two above it. */
#define DEDUP_AHEAD 8
#define DEDUP_RING 16

static void merge_range(hive_cpu_loop *loop, uint64_t p0, uint64_t p1)
{
    dedup_job *j = (dedup_job *)loop;
    hive_tiered_dedup *d = j->d;
    for (uint64_t p = p0; p < p1; p++) {
        uint64_t first = d->start[p], end = d->start[p + 1], unique = 0;
        hive_tiered_dedup_slot *region = d->map + 2 * first;
        uint64_t size = 2 * (end - first);
        uint32_t *listed = d->order + first;
        uint64_t ahead[DEDUP_RING];
        for (uint64_t o = first; o < end && o < first + DEDUP_AHEAD; o++) {
            ahead[o % DEDUP_RING] = slot_of(j->keys[d->order[o]], size);
            __builtin_prefetch(&region[ahead[o % DEDUP_RING]]);
        }
        for (uint64_t o = first; o < end; o++) {
            if (o + DEDUP_AHEAD < end) {
                uint64_t *a = &ahead[(o + DEDUP_AHEAD) % DEDUP_RING];
                *a = slot_of(j->keys[d->order[o + DEDUP_AHEAD]], size);
                __builtin_prefetch(&region[*a]);
            }
            uint32_t i = d->order[o];
            uint64_t key = j->keys[i];
            for (uint64_t s = ahead[o % DEDUP_RING];; s = s + 1 == size ? 0 : s + 1) {
                hive_tiered_dedup_slot *slot = &region[s];
                if (slot->stamp != d->generation) {
                    slot->stamp = d->generation;
                    slot->key = key;
                    slot->last = i;
                    listed[unique++] = (uint32_t)s; /* unique <= o - first + 1: read already */
                    break;
                }
                if (slot->key == key) {
                    slot->last = i;
                    break;
                }
            }
        }
        d->unique[p] = unique;
    }
}

static void emit_range(hive_cpu_loop *loop, uint64_t p0, uint64_t p1)
{
    dedup_job *j = (dedup_job *)loop;
    hive_tiered_dedup *d = j->d;
    for (uint64_t p = p0; p < p1; p++) {
        const hive_tiered_dedup_slot *region = d->map + 2 * d->start[p];
        const uint32_t *listed = d->order + d->start[p];
        for (uint64_t u = 0, out = d->unique[p]; out < d->unique[p + 1]; u++, out++) {
            const hive_tiered_dedup_slot *slot = &region[listed[u]];
            j->out_keys[out] = slot->key;
            j->out_values[out] = j->values[slot->last];
        }
    }
}

uint64_t hive_tiered_dedup_run(hive_tiered_dedup *d, hive_cpu_pool *pool, uint64_t n, const uint64_t *keys,
                               const uint64_t *values, uint64_t *out_keys, uint64_t *out_values,
                               uint64_t *reserved)
{
    dedup_job j;
    memset(&j, 0, sizeof j);
    j.d = d;
    j.n = n;
    j.keys = keys;
    j.values = values;
    j.out_keys = out_keys;
    j.out_values = out_values;
    /* Stamps start at 0 (calloc): generation 0 is never current, and on
     * wrapping around every stamp is cleared so that no old one matches. */
    if (++d->generation == 0) {
        for (uint64_t s = 0; s < d->map_slots; s++)
            d->map[s].stamp = 0;
        d->generation = 1;
    }
    uint64_t blocks = (n + HIVE_TIERED_BLOCK - 1) / HIVE_TIERED_BLOCK;
    j.loop.range = partition_range;
    hive_cpu_loop_run(pool, &j.loop, blocks, HIVE_TIERED_BLOCK * 4);
    uint64_t at = 0;
    for (uint32_t p = 0; p < HIVE_TIERED_DEDUP_PARTS; p++) {
        d->start[p] = at;
        for (uint64_t b = 0; b < blocks; b++) {
            uint64_t c = d->counts[b * HIVE_TIERED_DEDUP_PARTS + p];
            d->counts[b * HIVE_TIERED_DEDUP_PARTS + p] = at;
            at += c;
        }
    }
    d->start[HIVE_TIERED_DEDUP_PARTS] = at;
    j.loop.range = scatter_range;
    hive_cpu_loop_run(pool, &j.loop, blocks, HIVE_TIERED_BLOCK * 2);
    /* A partition's work is about n / parts keys of random map accesses. */
    uint64_t part_cost = at / HIVE_TIERED_DEDUP_PARTS * 8 + 1;
    j.loop.range = merge_range;
    hive_cpu_loop_run(pool, &j.loop, HIVE_TIERED_DEDUP_PARTS, part_cost);
    uint64_t unique = 0;
    for (uint32_t p = 0; p < HIVE_TIERED_DEDUP_PARTS; p++) {
        uint64_t u = d->unique[p];
        d->unique[p] = unique;
        unique += u;
    }
    d->unique[HIVE_TIERED_DEDUP_PARTS] = unique;
    j.loop.range = emit_range;
    hive_cpu_loop_run(pool, &j.loop, HIVE_TIERED_DEDUP_PARTS, part_cost);
    if (reserved != NULL)
        *reserved += j.reserved;
    return unique;
}
