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
 *
 * The rules, generalised from the Hive design's R2-R4 (docs/design.md) to
 * P probe buckets (docs/designs/double.md gives the proofs):
 *
 *  R2  Lock-free, a new key may only take the first free slot (EMPTY or
 *      VACANT) of the first probe bucket that has one, by one CAS, after
 *      finding k in none of the probe buckets up to the first that has an
 *      EMPTY slot, and, where none has one, not in the stash either.
 *  R3  Any other placement (a TOMB, D_EVICT, the stash) happens once no
 *      probe bucket has a free slot, holding the lock of probe bucket 0,
 *      after looking for k again in all of them and the stash.
 *  R4  Hence a key in probe bucket i leaves probe buckets 0 .. i-1 without
 *      EMPTY slots, and a key in the stash leaves all of them so: a lookup
 *      stops at the first probe bucket with an EMPTY slot.
 *
 * Free slots never come back while operations run (every design: R2 of
 * docs/design.md), which is what makes "no EMPTY slot" and "no free slot"
 * permanent during a batch.  No include guard: once per design, width and
 * mode. */

/* What a walk along a key's probe buckets saw. */
typedef struct D_OP(hive_walk) {
    P_SLOT *match;     /* the slot holding the key, or NULL */
    P_SLOT match_word;
    P_SLOT *free_slot; /* the first free slot of the first probe bucket with one, or NULL */
    P_SLOT free_word;
    P_SLOT *tomb;      /* the first TOMB in probe order, or NULL */
    P_SLOT tomb_word;
    int ended;         /* a probe bucket with an EMPTY slot ended the walk: the key is in no
                        * later probe bucket and not in the stash (R4) */
    int moving;        /* a slot is frozen by a move (never where D_MOVES is 0) */
} D_OP(hive_walk);

/* Scans the key's probe buckets in order, stopping at the key or at the
 * first bucket with an EMPTY slot (R4).  Each bucket scan stops at the key
 * or at its first free slot (free slots are a suffix). */
HIVE_PROTO D_OP(hive_walk) D_OP(hive_walk_probes)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1,
                                                  uint32_t h2)
{
    D_OP(hive_walk) w;
    w.match = 0;
    w.match_word = 0;
    w.free_slot = 0;
    w.free_word = 0;
    w.tomb = 0;
    w.tomb_word = 0;
    w.ended = 0;
    w.moving = 0;
HIVE_NO_UNROLL
    for (uint32_t i = 0; i < D_PROBES; i++) {
        if (D_MOVES && i > 0)
            hive_order_reads(); /* a move copies into a later probe bucket before it reuses */
        uint64_t b = hive_bucket_of(v->ix, D_PROBE_HASH(h1, h2, i));
        P_SLOT *bucket = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, b, P_S);
        P_SUFFIX(hive_scan) s = P_SUFFIX(hive_scan_bucket)(bucket, P_GEOM_ARG, k);
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
        if (w.free_slot == 0 && s.free >= 0) {
            w.free_slot = bucket + s.free;
            w.free_word = s.word;
        }
        if (s.ended) {
            w.ended = 1;
            return w;
        }
    }
    return w;
}

/* ---------------------------------------------------------------- find, erase */

/* Returns HIVE_R_FOUND (value in *out) or HIVE_R_NOT_FOUND. */
HIVE_PROTO int D_OP(hive_find_hashed)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1, uint32_t h2,
                                      P_VAL *out)
{
    for (unsigned round = 0;; round++) {
        D_OP(hive_walk) w = D_OP(hive_walk_probes)(v, P_GEOM_ARG, k, h1, h2);
        if (w.match) {
            *out = P_VAL_OF(w.match_word);
            return HIVE_R_FOUND;
        }
        if (!w.ended && P_SUFFIX(hive_stash_in_use)(v, P_GEOM_ARG, h1, h2)) {
            P_SUFFIX(hive_stash_scan) st = P_SUFFIX(hive_scan_stash)(v, P_GEOM_ARG, k, h1, h2);
            if (st.match) {
                *out = P_VAL_OF(st.match_word);
                return HIVE_R_FOUND;
            }
        }
        if (!w.moving)
            return HIVE_R_NOT_FOUND;
        hive_backoff(round); /* the key may be in flight between its buckets */
    }
}

HIVE_PROTO int D_OP(hive_find)(const hive_view *v, P_GEOM_PARAM, P_KEY k, P_VAL *out)
{
    return D_OP(hive_find_hashed)(v, P_GEOM_ARG, k, P_HASH1(k), P_HASH2(k), out);
}

/* Returns HIVE_R_ERASED or HIVE_R_NOT_FOUND (R6: one CAS to TOMB). */
HIVE_PROTO int D_OP(hive_erase_hashed)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1, uint32_t h2)
{
    const P_SLOT tomb = P_MAKE(P_TOMB, 0);
    for (unsigned round = 0;; round++) {
        D_OP(hive_walk) w = D_OP(hive_walk_probes)(v, P_GEOM_ARG, k, h1, h2);
        if (w.match) {
            if (P_CAS(w.match, w.match_word, tomb) == w.match_word)
                return HIVE_R_ERASED;
            continue;
        }
        if (!w.ended && P_SUFFIX(hive_stash_in_use)(v, P_GEOM_ARG, h1, h2)) {
            int r = P_SUFFIX(hive_stash_erase)(v, P_GEOM_ARG, k, h1, h2);
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
    return D_OP(hive_erase_hashed)(v, P_GEOM_ARG, k, P_HASH1(k), P_HASH2(k));
}

/* ---------------------------------------------------------------- upsert */

/* The slow path of an insert (R3): under the lock of probe bucket 0, look
 * for k again everywhere it may be, then place it in the frontier of the
 * first probe bucket with a free slot (R2's claim, under the lock), else in
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
        int stash_maybe = P_SUFFIX(hive_stash_in_use)(v, P_GEOM_ARG, h1, h2);
        D_OP(hive_walk) w = D_OP(hive_walk_probes)(v, P_GEOM_ARG, k, h1, h2);
        P_SLOT *at = w.match;
        P_SLOT seen = w.match_word;
        if (!at && !w.ended && stash_maybe) {
            P_SUFFIX(hive_stash_scan) st = P_SUFFIX(hive_scan_stash)(v, P_GEOM_ARG, k, h1, h2);
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
        P_SLOT *target = w.free_slot ? w.free_slot : w.tomb;
        if (target) {
            seen = w.free_slot ? w.free_word : w.tomb_word;
            if (P_CAS(target, seen, pair) == seen)
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
        int stashed = P_SUFFIX(hive_stash_put)(v, P_GEOM_ARG, k, pair, h1, h2);
        if (stashed < 0)
            continue;
        if (stashed == 0)
            return HIVE_R_REJECTED_FULL;
        *step = HIVE_STEP_STASH;
        return HIVE_R_INSERTED;
    }
}

/* The lock-free part of an insert (R2): updates k where it is, or claims
 * the frontier of the first probe bucket with a free slot.  Returns
 * HIVE_R_INSERTED, HIVE_R_UPDATED or HIVE_R_EXISTED, or HIVE_R_DEFER when k
 * needs the locked path (no probe bucket has a free slot, or a frozen slot
 * may be k in flight).  *step tells which insert step finished it. */
HIVE_PROTO int D_OP(hive_upsert_lockfree)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1, uint32_t h2,
                                          P_VAL val, int mode, int *step)
{
    for (;;) {
        *step = HIVE_STEP_REPLACE;
        D_OP(hive_walk) w = D_OP(hive_walk_probes)(v, P_GEOM_ARG, k, h1, h2);
        P_SLOT *at = w.match;
        P_SLOT seen = w.match_word;
        if (!at) {
            if (w.moving || !w.free_slot)
                return HIVE_R_DEFER;
            /* A walk that no EMPTY slot ended has not ruled out the stash. */
            if (!w.ended && P_SUFFIX(hive_stash_in_use)(v, P_GEOM_ARG, h1, h2)) {
                P_SUFFIX(hive_stash_scan) st = P_SUFFIX(hive_scan_stash)(v, P_GEOM_ARG, k, h1, h2);
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
        if (P_CAS(w.free_slot, w.free_word, P_MAKE(k, val)) == w.free_word) {
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
    return D_OP(hive_upsert_hashed)(v, P_GEOM_ARG, k, P_HASH1(k), P_HASH2(k), val, mode, step, moves);
}
