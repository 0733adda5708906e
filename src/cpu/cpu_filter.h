/* cpu_filter.h — a CPU table's filter of absent keys (hive_config.
 * absent_filter_bits): a Bloom filter of the table's keys, blocked by 64-bit
 * words (each key sets, and a find tests, `k` bits of one word), that a find
 * reads before its buckets.  A word without all of a key's bits says the key
 * is in no bucket and no stash: the find answers "absent" from one line
 * instead of the two buckets' (docs/perf.md, "CPU backend").  Where a
 * batch's finds mostly hit, the batch loop stops reading words for a while
 * (cpu_kernels_body.h, K_FILTER_SAMPLE): there a word costs a line and
 * saves none.
 *
 * Keys index the filter by a hash of their own (hive_cpu_filter_hash), not
 * by where they sit, so moves between buckets, the stash and resizing steps
 * leave it right.
 * Rules:
 *   F1  an operation that may insert a key sets its bits before it claims a
 *       slot for it (cpu_kernels_body.h), so a find that reads a word
 *       without them ran before the key could be found (it is linearised
 *       before the insert);
 *   F2  bits are never cleared while operations run: an erased key's stay
 *       until the filter is rebuilt from the keys present, which happens
 *       only with the table to itself (after a resize, a compaction or a
 *       reclaim of tombstones, under api's resize lock, and by hive_clear).
 * So a word may hold bits of keys that are gone (a find then reads the
 * buckets, as without a filter), never lack a present key's. */
#ifndef HIVE_CPU_FILTER_H
#define HIVE_CPU_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "hash/bithash.h"
#include "hive.h"

/* hive_config.absent_filter_bits: 0 (none) or this range of bits per slot. */
#define HIVE_CPU_FILTER_MIN_BITS 4u
#define HIVE_CPU_FILTER_MAX_BITS 16u

typedef struct hive_cpu_filter {
    uint64_t *words;  /* NULL: no filter */
    uint64_t count;   /* words */
    uint32_t k;       /* bits a key sets in its word */
    uint32_t bits;    /* per slot: what count was sized by */
} hive_cpu_filter;

/* A key's word and bits. */
typedef struct hive_cpu_filter_spot {
    uint64_t *word;
    uint64_t mask;
} hive_cpu_filter_spot;

/* The hash a key's spot is taken from: the key and the table's seed through
 * a 64-bit finaliser.  Cheaper than the two bucket hashes, which a find
 * that the filter rules out never computes. */
static inline uint64_t hive_cpu_filter_hash(uint64_t key, uint64_t seed) { return hive_fold64(key ^ seed); }

static inline hive_cpu_filter_spot hive_cpu_filter_spot_of(const hive_cpu_filter *f, uint64_t hash)
{
    /* The word from the high half (multiply-shift), the bits from 6-bit
     * fields of a second mix, so that keys of one word differ in their
     * bits. */
    uint64_t y = (hash ^ (hash >> 29)) * 0xBF58476D1CE4E5B9ull;
    hive_cpu_filter_spot s;
    s.word = f->words + (uint64_t)(((unsigned __int128)hash * f->count) >> 64);
    s.mask = 0;
    for (uint32_t j = 0; j < f->k; j++)
        s.mask |= 1ull << ((y >> (6 * j)) & 63);
    return s;
}

/* F1: the key's bits set, an atomic only where one is missing.  Release
 * and acquire: bits seen already set (another key's) happen before this
 * key's claim as bits set here do. */
static inline void hive_cpu_filter_add(hive_cpu_filter_spot s)
{
    if ((__atomic_load_n(s.word, __ATOMIC_ACQUIRE) & s.mask) != s.mask)
        __atomic_fetch_or(s.word, s.mask, __ATOMIC_RELEASE);
}

/* 0: the key is absent (no present key lacks its bits, F1). */
static inline int hive_cpu_filter_may_hold(hive_cpu_filter_spot s)
{
    return (__atomic_load_n(s.word, __ATOMIC_ACQUIRE) & s.mask) == s.mask;
}

/* A filter of `bits` per slot for `slots` slots, every word 0; bits 0 gives
 * none (words NULL).  OUT_OF_MEMORY names `call`. */
hive_status hive_cpu_filter_create(hive_cpu_filter *f, uint32_t bits, uint64_t slots, const char *call);
void hive_cpu_filter_free(hive_cpu_filter *f);
size_t hive_cpu_filter_bytes(const hive_cpu_filter *f);

#endif
