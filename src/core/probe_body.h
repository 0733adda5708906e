/* probe_body.h — every per-key operation of a design that is a probe
 * sequence over the shared buckets, for one key width and mode: find,
 * erase, and the two parts of an insert, written once over the design's
 * seam.  A design (src/designs/NAME/) defines, before including this:
 *
 *   D_OP(name)             its function names: name_<width>_NAME
 *   D_PROBES               how many probe buckets a key has (P >= 1)
 *   D_PROBE_HASH(h1, h2, i) the hash (of the key's two, core/slot_body.h's
 *                          hive_hash1/2) whose bucket, under the table's
 *                          index, is probe i; probe 0's lock serialises the
 *                          key's locked placements
 *   D_MOVES                1 if the design moves pairs between their probe
 *                          buckets while operations run (cuckoo eviction):
 *                          then the scans of one probe bucket are ordered
 *                          before the next's, as the Hive design's b1 before
 *                          its b2; 0 if a pair stays where it was placed
 *   D_EVICT(...)           optional: the placement policy's last resort
 *                          before the stash, under probe 0's lock (see
 *                          hive_insert_locked below); none by default
 *   D_TAGS                 optional, 1 for a tagged design (WarpSpeed's
 *                          metadata variants): its scans read a bucket's
 *                          tags before its slots, its claims and erases
 *                          keep both in step (core/tag_body.h, T1-T4);
 *                          0 by default
 *   D_OV(name)             optional: the overflow store's functions, where a
 *                          key goes once its probe buckets have no room
 *                          (hive_stash_in_use, hive_scan_stash,
 *                          hive_stash_erase, hive_stash_put, with the
 *                          signatures of core/slot_body.h's); the shared
 *                          stash by default, the chaining design's chains
 *                          (designs/chaining/chain_body.h) otherwise
 *
 * and, where its placement is not first fit along the probes (P2, the
 * iceberg's back yard), the three hooks below (first fit by default):
 *
 *   D_ENDS(i)              1 if an EMPTY slot in probe i's bucket proves k
 *                          is in no later probe bucket: the design places
 *                          a key past probe i only once probe i's bucket has
 *                          no free slot.  A walk stops there; where it is
 *                          0 the walk goes on through every probe bucket
 *   D_PREFER(i, at, w)     1 if the first free slot of probe i's bucket,
 *                          slot `at` of it (the bucket's fill: free slots
 *                          are a suffix), is a better place for a new key
 *                          than the walk w's choice so far (w.free_slot,
 *                          NULL for none; w.free_probe, w.free_at)
 *   D_LOCKFREE(w)          1 if the lock-free path may claim w's choice; the
 *                          locked path must then choose the same one (see
 *                          R2 below)
 *   D_SPREAD_TOMBS         optional: defined where a key that finds no free
 *                          slot in its probe buckets should take a TOMB of
 *                          the one holding the most TOMBs (the fewest live
 *                          pairs) rather than the first TOMB in probe order:
 *                          a policy that balances its buckets' loads (P2)
 *                          keeps balancing them once churn has used up their
 *                          EMPTY slots (docs/designs/p2.md)
 *
 * The rules, generalised from the Hive design's R2-R4 (docs/design.md) to
 * P probe buckets (docs/designs/double.md gives the proofs):
 *
 *  R2  Lock-free, a new key may only take the first free slot (EMPTY or
 *      VACANT) of the probe bucket the placement policy chooses (D_PREFER;
 *      first fit: the first that has one), where D_LOCKFREE allows it, by
 *      one CAS, after finding k in none of the probe buckets up to the first
 *      whose EMPTY slot ends the walk (D_ENDS), and, where none has one,
 *      not in the stash either.  The locked path chooses the same slot
 *      whenever D_LOCKFREE would allow it, so two placements of one key
 *      meet on one frontier (docs/designs/p2.md gives the proof).
 *  R3  Any other placement (a bucket D_LOCKFREE refuses, a TOMB, D_EVICT,
 *      the stash) holds the lock of probe bucket 0, after looking for k
 *      again in all the probe buckets and the stash; a TOMB, D_EVICT or the
 *      stash only once no probe bucket has a free slot.
 *  R4  Hence a key in probe bucket i leaves probe buckets j < i with
 *      D_ENDS(j) without EMPTY slots, and a key in the stash leaves all of
 *      them so: a lookup stops at the first such probe bucket with an EMPTY
 *      slot, and one that saw an EMPTY slot anywhere skips the stash.
 *
 * Free slots never come back while operations run (every design: R2 of
 * docs/design.md), which is what makes "no EMPTY slot" and "no free slot"
 * permanent during a batch.  No include guard: once per design, width and
 * mode. */

#ifndef D_ENDS
#define D_ENDS(i) 1
#endif
#ifndef D_PREFER
#define D_PREFER(i, at, w) ((w).free_slot == 0)
#endif
#ifndef D_LOCKFREE
#define D_LOCKFREE(w) 1
#endif
#ifndef D_OV
#define D_OV(name) P_SUFFIX(name) /* the shared stash */
#define D_OV_DEFAULT_PROBE_BODY 1
#endif
#include "tag_seam.h"

/* What a walk along a key's probe buckets saw. */
typedef struct D_OP(hive_walk) {
    P_SLOT *match;     /* the slot holding the key, or NULL */
    P_SLOT match_word;
    P_SLOT *free_slot; /* the first free slot of the probe bucket D_PREFER chose, or NULL */
    P_SLOT free_word;
    uint32_t free_probe; /* the probe that named that bucket */
    uint32_t free_at;    /* the free slot's index in it: the bucket's fill */
    P_SLOT *tomb;      /* the first TOMB in probe order, or NULL */
    P_SLOT tomb_word;
    int ended;         /* a probe bucket had an EMPTY slot: the key is not in the stash, and
                        * (D_ENDS) in no later probe bucket, where the walk stopped (R4) */
    int moving;        /* a slot is frozen by a move (never where D_MOVES is 0), or (D_TAGS)
                        * between the two writes of a claim or an erase (T3) */
} D_OP(hive_walk);

/* Scans the key's probe buckets in order from probe `first`, stopping at
 * the key or at the first bucket whose EMPTY slot ends the walk (R4,
 * D_ENDS).  Each bucket scan stops at the key or at its first free slot
 * (free slots are a suffix).  A walk from probe 1 is the rest of one whose
 * first bucket was scanned earlier: a walk may pause between any two
 * buckets. */
HIVE_PROTO D_OP(hive_walk) D_OP(hive_walk_from)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1,
                                                uint32_t h2, uint32_t first)
{
    D_OP(hive_walk) w;
    w.match = 0;
    w.match_word = 0;
    w.free_slot = 0;
    w.free_word = 0;
    w.free_probe = 0;
    w.free_at = 0;
    w.tomb = 0;
    w.tomb_word = 0;
    w.ended = 0;
    w.moving = 0;
    D_TAG_DECL(tag, h1, h2);
HIVE_NO_UNROLL
    for (uint32_t i = first; i < D_PROBES; i++) {
        if (D_MOVES && i > 0)
            hive_order_reads(); /* a move copies into a later probe bucket before it reuses */
        uint64_t b = hive_bucket_of(v->ix, D_PROBE_HASH(h1, h2, i));
        P_SLOT *bucket = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, b, P_S);
        P_SUFFIX(hive_scan) s = D_SCAN(v, b, bucket, k, tag);
        if (s.match >= 0) {
            w.match = bucket + s.match;
            w.match_word = s.word;
            return w;
        }
        w.moving |= s.moving;
        if (w.tomb == 0 && s.tomb >= 0) {
            w.tomb = bucket + s.tomb;
            w.tomb_word = s.tomb_word;
        }
        if (s.free >= 0 && D_PREFER(i, (uint32_t)s.free, w)) {
            w.free_slot = bucket + s.free;
            w.free_word = s.word;
            w.free_probe = i;
            w.free_at = (uint32_t)s.free;
        }
        if (s.ended) {
            w.ended = 1;
            if (D_ENDS(i))
                return w;
        }
    }
    return w;
}

HIVE_PROTO D_OP(hive_walk) D_OP(hive_walk_probes)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1,
                                                  uint32_t h2)
{
    return D_OP(hive_walk_from)(v, P_GEOM_ARG, k, h1, h2, 0);
}

/* ---------------------------------------------------------------- find, erase */

/* A find's answer from its walk: HIVE_R_FOUND (value in *out) from the
 * walk or the stash (which an EMPTY slot on the walk rules out), or
 * HIVE_R_NOT_FOUND; -1 where a frozen or half-written slot was seen and the
 * key may be in flight: the find must look again. */
HIVE_PROTO int D_OP(hive_find_answer)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1, uint32_t h2,
                                      D_OP(hive_walk) w, P_VAL *out)
{
    if (w.match) {
        *out = P_VAL_OF(w.match_word);
        return HIVE_R_FOUND;
    }
    if (!w.ended && D_OV(hive_stash_in_use)(v, P_GEOM_ARG, h1, h2)) {
        P_SUFFIX(hive_stash_scan) st = D_OV(hive_scan_stash)(v, P_GEOM_ARG, k, h1, h2);
        if (st.match) {
            *out = P_VAL_OF(st.match_word);
            return HIVE_R_FOUND;
        }
    }
    return w.moving ? -1 : HIVE_R_NOT_FOUND;
}

/* Returns HIVE_R_FOUND (value in *out) or HIVE_R_NOT_FOUND. */
HIVE_PROTO int D_OP(hive_find_hashed)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1, uint32_t h2,
                                      P_VAL *out)
{
    for (unsigned round = 0;; round++) {
        D_OP(hive_walk) w = D_OP(hive_walk_probes)(v, P_GEOM_ARG, k, h1, h2);
        int r = D_OP(hive_find_answer)(v, P_GEOM_ARG, k, h1, h2, w, out);
        if (r >= 0)
            return r;
        hive_backoff(round); /* the key may be in flight between its buckets */
    }
}

/* A find in two parts, for a caller that fetches a key's later probe
 * buckets while it reads other keys' first ones (the CPU backend's finds in
 * two stages): the walk of hive_find_hashed's first round, paused after its
 * first bucket.
 *
 * Part 1, the first probe bucket: HIVE_R_FOUND (value in *out) or
 * HIVE_R_NOT_FOUND where that bucket decides, as the walk's first probe
 * would; else -1, with what part 2 needs to know of the bucket in *first:
 * HIVE_FIRST_ENDED (an EMPTY slot: the key is not in the stash) and
 * HIVE_FIRST_MOVING (a frozen or half-written slot). */
HIVE_PROTO int D_OP(hive_find_first_bucket)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1, uint32_t h2,
                                            P_VAL *out, uint32_t *first)
{
    D_TAG_DECL(tag, h1, h2);
    uint64_t b = hive_bucket_of(v->ix, D_PROBE_HASH(h1, h2, 0));
    P_SLOT *bucket = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, b, P_S);
    (void)bucket; /* a tagged design's scan finds it by b */
    P_SUFFIX(hive_scan) s = D_SCAN(v, b, bucket, k, tag);
    if (s.match >= 0) {
        *out = P_VAL_OF(s.word);
        return HIVE_R_FOUND;
    }
    if (s.ended && D_ENDS(0) && !s.moving)
        return HIVE_R_NOT_FOUND;
    *first = (s.ended ? HIVE_FIRST_ENDED : 0u) | (s.moving ? HIVE_FIRST_MOVING : 0u);
    return -1;
}

/* Part 2, for a key that part 1 left open: the walk on from probe 1, then
 * the stash, as the first round would go on; where a frozen or half-written
 * slot was seen here or in part 1, the whole find again, with its retries. */
HIVE_PROTO int D_OP(hive_find_after_first)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1, uint32_t h2,
                                           uint32_t first, P_VAL *out)
{
    D_OP(hive_walk) w = D_OP(hive_walk_from)(v, P_GEOM_ARG, k, h1, h2, 1);
    w.ended |= (first & HIVE_FIRST_ENDED) != 0;
    w.moving |= (first & HIVE_FIRST_MOVING) != 0;
    int r = D_OP(hive_find_answer)(v, P_GEOM_ARG, k, h1, h2, w, out);
    return r >= 0 ? r : D_OP(hive_find_hashed)(v, P_GEOM_ARG, k, h1, h2, out);
}

HIVE_PROTO int D_OP(hive_find)(const hive_view *v, P_GEOM_PARAM, P_KEY k, P_VAL *out)
{
    return D_OP(hive_find_hashed)(v, P_GEOM_ARG, k, P_VIEW_HASH1(v, k), P_VIEW_HASH2(v, k), out);
}

/* Returns HIVE_R_ERASED or HIVE_R_NOT_FOUND (R6: one CAS to TOMB). */
HIVE_PROTO int D_OP(hive_erase_hashed)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1, uint32_t h2)
{
    for (unsigned round = 0;; round++) {
        D_OP(hive_walk) w = D_OP(hive_walk_probes)(v, P_GEOM_ARG, k, h1, h2);
        if (w.match) {
            if (D_RETIRE(v, w.match, w.match_word))
                return HIVE_R_ERASED;
            continue;
        }
        if (!w.ended && D_OV(hive_stash_in_use)(v, P_GEOM_ARG, h1, h2)) {
            int r = D_OV(hive_stash_erase)(v, P_GEOM_ARG, k, h1, h2);
            if (r > 0)
                return HIVE_R_ERASED;
            if (r < 0)
                continue;
        }
        if (!w.moving)
            return HIVE_R_NOT_FOUND;
        hive_backoff(round);
    }
}

HIVE_PROTO int D_OP(hive_erase)(const hive_view *v, P_GEOM_PARAM, P_KEY k)
{
    return D_OP(hive_erase_hashed)(v, P_GEOM_ARG, k, P_VIEW_HASH1(v, k), P_VIEW_HASH2(v, k));
}

/* ---------------------------------------------------------------- upsert */

#ifdef D_SPREAD_TOMBS
/* Whether slot i of bucket b (slots `bucket`) is a TOMB: by its tag, or by
 * its key. */
HIVE_PROTO int D_OP(hive_slot_tomb)(const hive_view *v, P_GEOM_PARAM, uint64_t b, const P_SLOT *bucket, uint32_t i)
{
    return D_TAGS ? hive_load_tag(v->tags + b * P_S + i) == HIVE_TAG_TOMB : P_KEY_OF(P_LOAD(bucket + i)) == P_TOMB;
}

/* TOMBs in bucket b, the same count in every lane of a tile: each lane
 * reads its share of the slots, and the tile's ballots add them up. */
HIVE_PROTO uint32_t D_OP(hive_count_tombs)(const hive_view *v, P_GEOM_PARAM, uint64_t b, const P_SLOT *bucket)
{
    uint32_t count = 0;
#ifdef P_TILE
    uint32_t per = P_S / g.T, first = hive_tile_lane(g) * per;
    for (uint32_t i = first; i < first + per; i++)
        count += (uint32_t)__popc(hive_tile_ballot(g, D_OP(hive_slot_tomb)(v, P_GEOM_ARG, b, bucket, i)));
#else
    for (uint32_t i = 0; i < P_S; i++)
        count += (uint32_t)D_OP(hive_slot_tomb)(v, P_GEOM_ARG, b, bucket, i);
#endif
    return count;
}

/* For a key absent from its probe buckets, none of which has a free slot
 * (under probe 0's lock): points w's TOMB at the first TOMB of the probe
 * bucket with the most TOMBs.  Only a choice among TOMBs R3 allows; should
 * the TOMB go meanwhile (another key's locked insert), the claim fails and
 * the caller looks again. */
HIVE_PROTO void D_OP(hive_spread_tombs)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1, uint32_t h2,
                                        D_OP(hive_walk) *w)
{
    D_TAG_DECL(tag, h1, h2);
    uint32_t most = 0, pick = D_PROBES;
    for (uint32_t i = 0; i < D_PROBES; i++) {
        uint64_t b = hive_bucket_of(v->ix, D_PROBE_HASH(h1, h2, i));
        uint32_t tombs = D_OP(hive_count_tombs)(v, P_GEOM_ARG, b, P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, b, P_S));
        if (tombs > most) {
            most = tombs;
            pick = i;
        }
    }
    if (pick == D_PROBES)
        return;
    uint64_t b = hive_bucket_of(v->ix, D_PROBE_HASH(h1, h2, pick));
    P_SLOT *bucket = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, b, P_S);
    P_SUFFIX(hive_scan) s = D_SCAN(v, b, bucket, k, tag);
    if (s.match < 0 && s.tomb >= 0) {
        w->tomb = bucket + s.tomb;
        w->tomb_word = s.tomb_word;
    }
}
#endif

/* The slow path of an insert (R3): under the lock of probe bucket 0, look
 * for k again everywhere it may be, then place it in the frontier of the
 * probe bucket the placement policy chooses (R2's claim, under the lock), else in
 * the first TOMB in probe order, else by D_EVICT where the design has it,
 * else in the stash.  *step tells which (HIVE_STEP_*), *moves how many
 * pairs D_EVICT moved.  `levels` and `held` are D_EVICT's (HIVE_EVICT_*;
 * the lock it may release early); a design without it always finishes here,
 * never returning HIVE_R_DEFER_DEEP. */
HIVE_PROTO int D_OP(hive_insert_locked)(const hive_view *v, P_GEOM_PARAM, P_KEY k, P_VAL val, int mode,
                                        uint32_t h1, uint32_t h2, int levels, int *step, uint32_t *moves,
                                        uint64_t *held)
{
    (void)levels;
    (void)held;
    (void)moves;
    P_SLOT pair = P_MAKE(k, val);
    for (unsigned round = 0;; round++) {
        /* Read with the rescans: only a holder of probe 0's lock stashes k,
         * and the lock orders an earlier holder's mark before this read. */
        int stash_maybe = D_OV(hive_stash_in_use)(v, P_GEOM_ARG, h1, h2);
        D_OP(hive_walk) w = D_OP(hive_walk_probes)(v, P_GEOM_ARG, k, h1, h2);
        P_SLOT *at = w.match;
        P_SLOT seen = w.match_word;
        if (!at && !w.ended && stash_maybe) {
            P_SUFFIX(hive_stash_scan) st = D_OV(hive_scan_stash)(v, P_GEOM_ARG, k, h1, h2);
            at = st.match;
            seen = st.match_word;
        }
        if (at) {
            int r = P_SUFFIX(hive_update_slot)(P_GEOM_ARG, at, seen, k, val, mode);
            if (r) {
                *step = HIVE_STEP_REPLACE;
                return r;
            }
            continue;
        }
        if (w.moving) {
            hive_backoff(round); /* k itself may be in flight */
            continue;
        }
        /* k is absent, and no one else may place it but by R2 while we hold
         * the lock; R2 needs a free slot, and a TOMB is taken only once no
         * probe bucket has one. */
        *step = HIVE_STEP_CLAIM;
#ifdef D_SPREAD_TOMBS
        if (!w.free_slot && w.tomb)
            D_OP(hive_spread_tombs)(v, P_GEOM_ARG, k, h1, h2, &w);
#endif
        P_SLOT *target = w.free_slot ? w.free_slot : w.tomb;
        if (target) {
            seen = w.free_slot ? w.free_word : w.tomb_word;
            if (D_CLAIM(v, target, seen, pair, D_TAG_OF(h1, h2)))
                return HIVE_R_INSERTED;
            continue;
        }
#ifdef D_EVICT
        {
            int moved = D_EVICT(v, P_GEOM_ARG, k, val, h1, h2, levels, held);
            if (moved > 0) {
                *step = HIVE_STEP_EVICT;
                *moves = (uint32_t)moved;
                return HIVE_R_INSERTED;
            }
            if (moved < 0 && round < HIVE_EVICT_RETRIES) {
                hive_backoff(round);
                continue;
            }
        }
#endif
        int stashed = D_OV(hive_stash_put)(v, P_GEOM_ARG, k, pair, h1, h2);
        if (stashed < 0)
            continue;
        if (stashed == 0)
            return HIVE_R_REJECTED_FULL;
        *step = HIVE_STEP_STASH;
        return HIVE_R_INSERTED;
    }
}

/* The lock-free part of an insert (R2): updates k where it is, or claims
 * the frontier of the probe bucket the placement policy chooses.  Returns
 * HIVE_R_INSERTED, HIVE_R_UPDATED or HIVE_R_EXISTED, or HIVE_R_DEFER when k
 * needs the locked path (no probe bucket has a free slot, D_LOCKFREE
 * refuses the choice, or a frozen slot may be k in flight).  *step tells
 * which insert step finished it. */
HIVE_PROTO int D_OP(hive_upsert_lockfree)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1, uint32_t h2,
                                          P_VAL val, int mode, int *step)
{
    for (;;) {
        *step = HIVE_STEP_REPLACE;
        D_OP(hive_walk) w = D_OP(hive_walk_probes)(v, P_GEOM_ARG, k, h1, h2);
        P_SLOT *at = w.match;
        P_SLOT seen = w.match_word;
        if (!at) {
            if (w.moving || !w.free_slot || !D_LOCKFREE(w))
                return HIVE_R_DEFER;
            /* A walk that no EMPTY slot ended has not ruled out the stash. */
            if (!w.ended && D_OV(hive_stash_in_use)(v, P_GEOM_ARG, h1, h2)) {
                P_SUFFIX(hive_stash_scan) st = D_OV(hive_scan_stash)(v, P_GEOM_ARG, k, h1, h2);
                at = st.match;
                seen = st.match_word;
            }
        }
        if (at) {
            int r = P_SUFFIX(hive_update_slot)(P_GEOM_ARG, at, seen, k, val, mode);
            if (r)
                return r;
            continue;
        }
        if (D_CLAIM(v, w.free_slot, w.free_word, P_MAKE(k, val), D_TAG_OF(h1, h2))) {
            *step = HIVE_STEP_CLAIM;
            return HIVE_R_INSERTED;
        }
        /* Someone took the slot (maybe k itself): look again. */
    }
}

/* The locked part of an insert, for a key hive_upsert_lockfree deferred:
 * under probe bucket 0's lock.  levels: as for hive_insert_locked. */
HIVE_PROTO int D_OP(hive_upsert_deferred)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1, uint32_t h2,
                                          P_VAL val, int mode, int levels, int *step, uint32_t *moves)
{
    uint64_t b0 = hive_bucket_of(v->ix, D_PROBE_HASH(h1, h2, 0));
    uint64_t held = b0; /* D_EVICT may release it early */
    *moves = 0;
    P_LOCK(v, b0);
    int r = D_OP(hive_insert_locked)(v, P_GEOM_ARG, k, val, mode, h1, h2, levels, step, moves, &held);
    if (held != HIVE_LOCK_NONE)
        P_UNLOCK(v, b0);
    return r;
}

/* Inserts k, or combines val into its value (mode: HIVE_CMB_*).  Returns
 * HIVE_R_INSERTED, HIVE_R_UPDATED, HIVE_R_EXISTED or HIVE_R_REJECTED_FULL. */
HIVE_PROTO int D_OP(hive_upsert_hashed)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1, uint32_t h2,
                                        P_VAL val, int mode, int *step, uint32_t *moves)
{
    *moves = 0;
    int r = D_OP(hive_upsert_lockfree)(v, P_GEOM_ARG, k, h1, h2, val, mode, step);
    if (r != HIVE_R_DEFER)
        return r;
    return D_OP(hive_upsert_deferred)(v, P_GEOM_ARG, k, h1, h2, val, mode, HIVE_EVICT_ALL, step, moves);
}

HIVE_PROTO int D_OP(hive_upsert)(const hive_view *v, P_GEOM_PARAM, P_KEY k, P_VAL val, int mode, int *step,
                                 uint32_t *moves)
{
    return D_OP(hive_upsert_hashed)(v, P_GEOM_ARG, k, P_VIEW_HASH1(v, k), P_VIEW_HASH2(v, k), val, mode,
                                    step, moves);
}

#ifdef D_OV_DEFAULT_PROBE_BODY
#undef D_OV
#undef D_OV_DEFAULT_PROBE_BODY
#endif
