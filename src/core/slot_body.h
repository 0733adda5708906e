/* slot_body.h — the shared slot protocol for one key width: a bucket scan
 * (thread or tile), the update of a pair in place (R6), the stash probe, the
 * key's two hashes, and the per-bucket resize work that depends on no design
 * (packing a bucket, its free slots, compaction).
 * Included once per width and mode by designs/designs.h, with P_* defined
 * (core/protocol_mode_*.h); every design's operations call these.  No
 * include guard: once per instantiation.
 *
 * HIVE_R_* and HIVE_STEP_* come from designs/hive/protocol.h, included
 * first (until they move to a core header of their own). */

/* What one pass over a bucket saw. */
typedef struct P_SUFFIX(hive_scan) {
    int match;      /* slot holding the key, or -1 */
    int free;       /* first free (EMPTY or VACANT) slot, or -1 */
    int ended;      /* the free slots are EMPTY: the bucket has never been full (R4) */
    int tomb;       /* first TOMB slot, or -1 */
    int moving;     /* a slot is frozen by a cuckoo move */
    P_SLOT word;    /* the matching slot's word, else the first free slot's */
    P_SLOT tomb_word;
} P_SUFFIX(hive_scan);

HIVE_PROTO P_SLOT *P_SUFFIX(hive_bucket)(P_SLOT *base, uint64_t b, uint32_t slots_per_bucket)
{
    return base + b * slots_per_bucket;
}

/* A scan that has seen nothing yet. */
HIVE_PROTO P_SUFFIX(hive_scan) P_SUFFIX(hive_scan_none)(void)
{
    P_SUFFIX(hive_scan) s;
    s.match = -1;
    s.free = -1;
    s.ended = 0;
    s.tomb = -1;
    s.moving = 0;
    s.word = 0;
    s.tomb_word = 0;
    return s;
}

#ifndef P_TILE
/* Classifies one slot for a scan that stops at the key or at the first free
 * slot (free slots are a suffix, so nothing lies beyond it; every caller uses
 * only `match`/`word` once a match is found).  Returns 1 where it stops. */
HIVE_PROTO int P_SUFFIX(hive_scan_slot)(P_SUFFIX(hive_scan) * s, P_SLOT w, uint32_t i, P_KEY k)
{
    P_KEY key = P_KEY_OF(w);
    if (key == k) {
        s->match = (int)i;
        s->word = w;
        return 1;
    }
    if (key >= P_VACANT) { /* EMPTY or VACANT */
        s->free = (int)i;
        s->ended = key == P_EMPTY;
        s->word = w;
        return 1;
    }
    if (key == P_TOMB) {
        if (s->tomb < 0) {
            s->tomb = (int)i;
            s->tomb_word = w;
        }
    } else if (key == P_MOVING) {
        s->moving = 1;
    }
    return 0;
}

/* Slots of one 32-byte sector, the unit the L2 serves. */
#define P_SECTOR_SLOTS (4 / P_WORDS)

/* Loads the bucket's slots (each slot atomically) and classifies them,
 * stopping at the key or at the first free slot.  The GPU loads a sector at a
 * time, every slot of it before any is looked at (unrolled: S is a
 * compile-time constant at every call site), and stops between sectors: the
 * L2 serves random reads by the sector, and a KV64 find at load 0.9 that stops
 * in the first sector of its 4-slot bucket where it can reads 1.7 sectors a
 * key, not 2.25 (H100: 12.4 -> 15.9 G/s; docs/perf.md, "Finds and bucket scans").  The host
 * loads slot by slot. */
HIVE_PROTO P_SUFFIX(hive_scan) P_SUFFIX(hive_scan_bucket)(const P_SLOT *bucket, P_GEOM_PARAM, P_KEY k)
{
#if defined(__CUDACC__)
    P_SUFFIX(hive_scan) s = P_SUFFIX(hive_scan_none)();
#pragma unroll
    for (uint32_t g = 0; g < P_S; g += P_SECTOR_SLOTS) {
        P_SLOT w[P_SECTOR_SLOTS];
#if P_WORDS == 1
#pragma unroll
        for (uint32_t i = 0; i < P_SECTOR_SLOTS; i += 2)
            hive_load64x2(bucket + g + i, &w[i], &w[i + 1]);
#else
#pragma unroll
        for (uint32_t i = 0; i < P_SECTOR_SLOTS; i++)
            w[i] = P_LOAD(bucket + g + i);
#endif
#pragma unroll
        for (uint32_t i = 0; i < P_SECTOR_SLOTS; i++)
            if (P_SUFFIX(hive_scan_slot)(&s, w[i], g + i, k))
                return s;
    }
    return s;
#else
    P_SUFFIX(hive_scan) s = P_SUFFIX(hive_scan_none)();
    for (uint32_t i = 0; i < P_S; i++)
        if (P_SUFFIX(hive_scan_slot)(&s, P_LOAD(bucket + i), i, k))
            return s;
    return s;
#endif
}
#undef P_SECTOR_SLOTS
#else
#include "tile_scan_body.h"
#endif

/* Applies an upsert to a slot that held k as `seen`.  Returns the result code,
 * or 0 when the slot no longer holds k (erased or frozen): the caller retries. */
HIVE_PROTO int P_SUFFIX(hive_update_slot)(P_GEOM_PARAM, P_SLOT *slot, P_SLOT seen, P_KEY k, P_VAL val, int mode)
{
    (void)P_GEOM_ARG;
    if (mode == HIVE_CMB_KEEP)
        return HIVE_R_EXISTED;
    P_SLOT cur = seen;
    for (;;) {
        P_VAL next = P_COMBINE(mode, P_VAL_OF(cur), val);
        if (next == P_VAL_OF(cur))
            return HIVE_R_UPDATED; /* nothing to write: linearizes at the load */
        P_SLOT old = P_CAS(slot, cur, P_MAKE(k, next));
        if (old == cur)
            return HIVE_R_UPDATED;
        if (P_KEY_OF(old) != k)
            return 0;
        cur = old; /* a concurrent update of the same key: combine again */
    }
}

/* Scans the stash probe of a key: the first match (slot pointer, word), and
 * the first free slot (EMPTY or TOMB) up to the first bucket with an EMPTY
 * slot, where every probe stops. */
typedef struct P_SUFFIX(hive_stash_scan) {
    P_SLOT *match;
    P_SLOT match_word;
    P_SLOT *free_slot;
    P_SLOT free_word;
    uint64_t free_bucket;
} P_SUFFIX(hive_stash_scan);

HIVE_PROTO P_SUFFIX(hive_stash_scan) P_SUFFIX(hive_scan_stash)(const hive_view *v, P_GEOM_PARAM,
                                                               P_KEY k, uint32_t h1, uint32_t h2)
{
    P_SUFFIX(hive_stash_scan) r;
    r.match = 0;
    r.match_word = 0;
    r.free_slot = 0;
    r.free_word = 0;
    r.free_bucket = 0;
    if (v->stash_buckets == 0)
        return r;
    uint64_t home = hive_stash_home(h1, h2, v->stash_buckets);
    uint32_t probes = v->stash_buckets < HIVE_STASH_PROBE ? (uint32_t)v->stash_buckets : HIVE_STASH_PROBE;
    for (uint32_t p = 0; p < probes; p++) {
        uint64_t sb = (home + p) % v->stash_buckets;
        P_SLOT *bucket = P_SUFFIX(hive_bucket)((P_SLOT *)v->stash, sb, P_S);
        P_SUFFIX(hive_scan) s = P_SUFFIX(hive_scan_bucket)(bucket, P_GEOM_ARG, k);
        if (s.match >= 0) {
            r.match = bucket + s.match;
            r.match_word = s.word;
            return r;
        }
        if (r.free_slot == 0 && s.tomb >= 0) {
            r.free_slot = bucket + s.tomb;
            r.free_word = s.tomb_word;
            r.free_bucket = sb;
        }
        if (s.free >= 0) { /* a stash bucket's free slots are EMPTY */
            if (r.free_slot == 0) {
                r.free_slot = bucket + s.free;
                r.free_word = s.word;
                r.free_bucket = sb;
            }
            return r;
        }
    }
    return r;
}

/* Erases k from its stash probe if it is there (R6: one CAS to TOMB).
 * Returns 1 if erased, 0 if k is not there, -1 if its slot changed under
 * the CAS (look again). */
HIVE_PROTO int P_SUFFIX(hive_stash_erase)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1,
                                          uint32_t h2)
{
    P_SUFFIX(hive_stash_scan) st = P_SUFFIX(hive_scan_stash)(v, P_GEOM_ARG, k, h1, h2);
    if (!st.match)
        return 0;
    if (P_CAS(st.match, st.match_word, P_MAKE(P_TOMB, 0)) != st.match_word)
        return -1;
    P_ADD_LIVE(v, (uint64_t)-1);
    return 1;
}

/* Puts k's pair in the first free slot of its stash probe (scanned again:
 * an insert's earlier scan may have been skipped, and eviction took time).
 * Returns 1 if placed, 0 if the probe has no free slot, -1 if k is there or
 * the slot was taken meanwhile (look again). */
HIVE_PROTO int P_SUFFIX(hive_stash_put)(const hive_view *v, P_GEOM_PARAM, P_KEY k, P_SLOT pair,
                                        uint32_t h1, uint32_t h2)
{
    P_SUFFIX(hive_stash_scan) st = P_SUFFIX(hive_scan_stash)(v, P_GEOM_ARG, k, h1, h2);
    if (st.match)
        return -1;
    if (st.free_slot == 0)
        return 0;
    P_MARK_STASH(v, st.free_bucket);
    if (P_CAS(st.free_slot, st.free_word, pair) != st.free_word)
        return -1;
    P_ADD_LIVE(v, 1);
    return 1;
}

/* May the stash hold k?  Only if k's home stash bucket ever held a pair. */
HIVE_PROTO int P_SUFFIX(hive_stash_in_use)(const hive_view *v, P_GEOM_PARAM, uint32_t h1, uint32_t h2)
{
    (void)P_GEOM_ARG;
    return v->stash_buckets != 0 &&
           P_STASH_USED(v, hive_stash_home(h1, h2, v->stash_buckets));
}

/* The key's two hashes in v's table, for callers that run an operation in
 * parts. */
HIVE_PROTO uint32_t P_SUFFIX(hive_hash1)(const hive_view *v, P_KEY k) { return P_VIEW_HASH1(v, k); }
HIVE_PROTO uint32_t P_SUFFIX(hive_hash2)(const hive_view *v, P_KEY k) { return P_VIEW_HASH2(v, k); }


#ifndef P_TILE
/* ---------------------------------------------------------------- resize, any design
 * Rule R8: these run while no operation does (resize_body.h of each design
 * says when), so they read and write slots with plain loads and stores. */

/* Slots [from, S) of a bucket become free: EMPTY if the bucket has never
 * been full, else VACANT (R4, R8). */
HIVE_PROTO void P_SUFFIX(hive_fill_free)(P_SLOT *bucket, P_GEOM_PARAM, uint32_t from, int ended)
{
    P_SLOT vacancy = P_MAKE(ended ? P_EMPTY : P_VACANT, (P_VAL)~(P_VAL)0);
    for (uint32_t i = from; i < P_S; i++)
        bucket[i] = vacancy;
}

/* Packs the live pairs of a bucket at its front (dropping TOMBs, making
 * them free slots again) and returns how many there are.  *ended: the
 * bucket had an EMPTY slot. */
HIVE_PROTO uint32_t P_SUFFIX(hive_pack_bucket)(P_SLOT *bucket, P_GEOM_PARAM, int *ended)
{
    uint32_t n = 0;
    *ended = 0;
    for (uint32_t i = 0; i < P_S; i++) {
        P_SLOT w = bucket[i];
        P_KEY key = P_KEY_OF(w);
        if (key == P_EMPTY)
            *ended = 1;
        if (!P_RESERVED(key))
            bucket[n++] = w;
    }
    return n;
}

/* Compaction of one bucket, after the design's REFLOW and MARK_STASH have
 * marked every bucket whose keys may live elsewhere: its TOMBs become free
 * slots, and its free slots become EMPTY unless it is marked (R4 holds again
 * for it: no key of it is anywhere else, so lookups may stop there).  Clears
 * the mark. */
HIVE_PROTO void P_SUFFIX(hive_compact_bucket)(const hive_view *v, P_GEOM_PARAM, uint64_t b)
{
    P_SLOT *bucket = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, b, P_S);
    int ended;
    uint32_t n = P_SUFFIX(hive_pack_bucket)(bucket, P_GEOM_ARG, &ended);
    int marked = hive_take_mark(v, b);
    P_SUFFIX(hive_fill_free)(bucket, P_GEOM_ARG, n, ended || !marked);
}

/* Compaction of one bucket without marks (a churned table's, between
 * resizes): its TOMBs become free slots, EMPTY if it has an EMPTY slot (it
 * has never been full since the last tidying, so no key of it is anywhere
 * else: R4), else VACANT, as a marked bucket's. */
HIVE_PROTO void P_SUFFIX(hive_pack_free)(const hive_view *v, P_GEOM_PARAM, uint64_t b)
{
    P_SLOT *bucket = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, b, P_S);
    int ended;
    uint32_t n = P_SUFFIX(hive_pack_bucket)(bucket, P_GEOM_ARG, &ended);
    P_SUFFIX(hive_fill_free)(bucket, P_GEOM_ARG, n, ended);
}

#endif

#include "tag_body.h"
