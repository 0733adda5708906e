/* protocol_body.h — the Hive design's per-key operations (protocol.h's rules
 * R1-R6) for one key width and mode, over the shared slot protocol
 * (core/slot_body.h: bucket scans, updates in place, the stash).  Included by
 * designs/designs.h once per width and mode, after core/slot_body.h.  Its
 * functions are D_OP(name) = name_<width>_hive (hive_find_kv32_hive, ...);
 * the names the kernels call (hive_find_kv32, ...) choose the table's design
 * and, for this one, call these (designs/dispatch_body.h).  No include guard:
 * once per instantiation. */
#define D_OP(name) HIVE_PASTE(P_SUFFIX(name), _hive)
/* Whether eviction counts TOMBs as room (protocol.h, HIVE_ROOM_BYTES). */
#if !defined(__CUDACC__) || !defined(P_TILE)
#define D_ROOM_TOMBS 1
#else
#define D_ROOM_TOMBS 0
#endif

/* ---------------------------------------------------------------- find */

/* A find in two parts, so that a batch loop can scan the first bucket of
 * many keys before it fetches their second buckets (cpu/cpu_kernels_body.h);
 * hive_find_hashed runs them back to back.  R5 makes the pause between them
 * harmless: a key moves only from its b1 to its b2, copy first, so a key
 * that b1 lacked when the first part read it is in b2 (or the stash, or
 * frozen in b1, which the scan's `moving` says) when the second part reads
 * them.
 *
 * Part 1, the scan of b1 (R1): the key is found (match), absent (ended: b1
 * has an EMPTY slot, R4), or may be in b2 or the stash. */
HIVE_PROTO P_SUFFIX(hive_scan) D_OP(hive_find_first)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1)
{
    return P_SUFFIX(hive_scan_bucket)(P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, hive_bucket_of(v->ix, h1), P_S),
                                      P_GEOM_ARG, k);
}

/* Part 2, for a key that part 1 neither found nor ruled out: b2, then the
 * stash.  Returns HIVE_R_FOUND (value in *out) or HIVE_R_NOT_FOUND; *moving:
 * whether a frozen slot was seen here or in b1 (part 1's scan says), in
 * which case a key not found may be in flight between its buckets and the
 * find starts again from part 1. */
HIVE_PROTO int D_OP(hive_find_second)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1, uint32_t h2,
                                      int *moving, P_VAL *out)
{
    uint64_t b1 = hive_bucket_of(v->ix, h1);
    hive_order_reads();
    int second_has_empty = 0;
    uint64_t b2 = hive_bucket_of(v->ix, h2);
    if (b2 != b1) {
        P_SUFFIX(hive_scan) s2 = P_SUFFIX(hive_scan_bucket)(P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, b2, P_S), P_GEOM_ARG, k);
        if (s2.match >= 0) {
            *out = P_VAL_OF(s2.word);
            return HIVE_R_FOUND;
        }
        *moving |= s2.moving;
        second_has_empty = s2.ended;
    }
    if (!second_has_empty && P_SUFFIX(hive_stash_in_use)(v, P_GEOM_ARG, h1, h2)) {
        P_SUFFIX(hive_stash_scan) st = P_SUFFIX(hive_scan_stash)(v, P_GEOM_ARG, k, h1, h2);
        if (st.match) {
            *out = P_VAL_OF(st.match_word);
            return HIVE_R_FOUND;
        }
    }
    return HIVE_R_NOT_FOUND;
}

/* Returns HIVE_R_FOUND (value in *out) or HIVE_R_NOT_FOUND; h1, h2: the
 * key's hashes, for a caller that has them already (one that prefetched its
 * buckets). */
HIVE_PROTO int D_OP(hive_find_hashed)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1,
                                      uint32_t h2, P_VAL *out)
{
    for (unsigned round = 0;; round++) {
        P_SUFFIX(hive_scan) s1 = D_OP(hive_find_first)(v, P_GEOM_ARG, k, h1);
        if (s1.match >= 0) {
            *out = P_VAL_OF(s1.word);
            return HIVE_R_FOUND;
        }
        if (s1.ended)
            return HIVE_R_NOT_FOUND; /* R4 */
        int moving = s1.moving;
        if (D_OP(hive_find_second)(v, P_GEOM_ARG, k, h1, h2, &moving, out) == HIVE_R_FOUND)
            return HIVE_R_FOUND;
        if (!moving)
            return HIVE_R_NOT_FOUND;
        hive_backoff(round); /* the key may be in flight between its buckets */
    }
}

HIVE_PROTO int D_OP(hive_find)(const hive_view *v, P_GEOM_PARAM, P_KEY k, P_VAL *out)
{
    return D_OP(hive_find_hashed)(v, P_GEOM_ARG, k, P_VIEW_HASH1(v, k), P_VIEW_HASH2(v, k), out);
}

/* ---------------------------------------------------------------- erase */

/* Returns HIVE_R_ERASED or HIVE_R_NOT_FOUND. */
HIVE_PROTO int D_OP(hive_erase_hashed)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1,
                                       uint32_t h2)
{
    const P_SLOT tomb = P_MAKE(P_TOMB, 0);
    for (unsigned round = 0;; round++) {
        uint64_t b1 = hive_bucket_of(v->ix, h1);
        P_SLOT *bucket1 = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, b1, P_S);
        P_SUFFIX(hive_scan) s1 = P_SUFFIX(hive_scan_bucket)(bucket1, P_GEOM_ARG, k);
        if (s1.match >= 0) {
            if (P_CAS(bucket1 + s1.match, s1.word, tomb) == s1.word)
                return HIVE_R_ERASED;
            continue;
        }
        if (s1.ended)
            return HIVE_R_NOT_FOUND; /* R4 */
        hive_order_reads();
        int moving = s1.moving;
        int second_has_empty = 0;
        uint64_t b2 = hive_bucket_of(v->ix, h2);
        if (b2 != b1) {
            P_SLOT *bucket2 = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, b2, P_S);
            P_SUFFIX(hive_scan) s2 = P_SUFFIX(hive_scan_bucket)(bucket2, P_GEOM_ARG, k);
            if (s2.match >= 0) {
                if (P_CAS(bucket2 + s2.match, s2.word, tomb) == s2.word)
                    return HIVE_R_ERASED;
                continue;
            }
            moving |= s2.moving;
            second_has_empty = s2.ended;
        }
        if (!second_has_empty && P_SUFFIX(hive_stash_in_use)(v, P_GEOM_ARG, h1, h2)) {
            int r = P_SUFFIX(hive_stash_erase)(v, P_GEOM_ARG, k, h1, h2);
            if (r > 0)
                return HIVE_R_ERASED;
            if (r < 0)
                continue;
        }
        if (!moving)
            return HIVE_R_NOT_FOUND;
        hive_backoff(round);
    }
}

HIVE_PROTO int D_OP(hive_erase)(const hive_view *v, P_GEOM_PARAM, P_KEY k)
{
    return D_OP(hive_erase_hashed)(v, P_GEOM_ARG, k, P_VIEW_HASH1(v, k), P_VIEW_HASH2(v, k));
}

/* ---------------------------------------------------------------- cuckoo eviction */

/* A chain's links (P_SUFFIX(hive_link)) and how a chain is carried out
 * (P_SUFFIX(hive_apply_chain)) are core/move_body.h's: the cuckoo design
 * moves pairs the same way. */

/* Is `word` a pair that may be moved out of bucket b (R5: it lives in its
 * first bucket, and its second bucket is another one)?  Sets *dest to that
 * second bucket. */
HIVE_PROTO int D_OP(hive_movable)(const hive_view *v, P_SLOT word, uint64_t b, uint64_t *dest)
{
    P_KEY m = P_KEY_OF(word);
    if (P_RESERVED(m))
        return 0;
    if (hive_bucket_of(v->ix, P_VIEW_HASH1(v, m)) != b)
        return 0;
    *dest = hive_bucket_of(v->ix, P_VIEW_HASH2(v, m));
    return *dest != b;
}

/* Whether a slot holding `key` can take a moved pair: free or a TOMB. */
HIVE_PROTO int D_OP(hive_room_key)(P_KEY key) { return (key >= P_VACANT) | (key == P_TOMB); }

/* Whether a pair may be moved into `bucket` (its second bucket): its last
 * slot is free (free slots are a suffix, R2), or, where D_ROOM_TOMBS, a
 * slot is a TOMB (on the GPU, for KV64, one of the last sector's). */
HIVE_PROTO int D_OP(hive_has_room)(const P_SLOT *bucket, P_GEOM_PARAM)
{
#if D_ROOM_TOMBS && defined(__CUDACC__) && P_WORDS == 1
    if (P_S * sizeof(P_SLOT) <= 32u) { /* one sector, two 16-byte loads */
        int room = 0;
        for (uint32_t i = 0; i < P_S; i += 2) {
            P_SLOT a, b;
            hive_load64x2(bucket + i, &a, &b);
            room |= D_OP(hive_room_key)(P_KEY_OF(a)) | D_OP(hive_room_key)(P_KEY_OF(b));
        }
        return room;
    }
#elif D_ROOM_TOMBS && defined(__CUDACC__)
    if (P_S % 2u == 0) { /* the last sector's two slots: the frontier's sector, read anyway */
        P_KEY a = P_KEY_OF(P_LOAD_ONE(bucket + P_S - 2)), b = P_KEY_OF(P_LOAD_ONE(bucket + P_S - 1));
        return D_OP(hive_room_key)(a) | D_OP(hive_room_key)(b);
    }
#elif D_ROOM_TOMBS
    if (P_S * sizeof(P_SLOT) <= HIVE_ROOM_BYTES) {
        /* The key words alone (a slot's first, little-endian): a room
         * seen here is checked again by the scan before it is taken. */
        int room = 0;
        for (uint32_t i = 0; i < P_S; i++)
            room |= D_OP(hive_room_key)(__atomic_load_n((const P_KEY *)(bucket + i), __ATOMIC_RELAXED));
        return room;
    }
#endif
    return P_KEY_OF(P_LOAD_ONE(bucket + P_S - 1)) >= P_VACANT;
}

/* The slot of a scanned bucket that a pair moved into it takes: a TOMB
 * where D_ROOM_TOMBS (keeping the frontier for lock-free claims, R2, and
 * for lookups that stop there, R4), else the frontier.  Returns 0 if it has
 * neither. */
HIVE_PROTO int D_OP(hive_room_slot)(const P_SUFFIX(hive_scan) * s, P_SLOT *bucket, P_SLOT **slot,
                                    P_SLOT *word)
{
    if (D_ROOM_TOMBS && s->tomb >= 0) {
        *slot = bucket + s->tomb;
        *word = s->tomb_word;
        return 1;
    }
    if (s->free < 0)
        return 0;
    *slot = bucket + s->free;
    *word = s->word;
    return 1;
}

/* The first pair of bucket b that may move (R5) to a second bucket with
 * room (hive_has_room: a word, a sector or a cache line per pair tells); the
 * words of a group of HIVE_NEAR_GROUP slots, then their rooms, are loaded
 * before any is looked at, so a bucket costs two round trips per group
 * instead of two per pair.
 * Returns 1 with the pair as seen (*victim) and its second bucket (*dest).
 * For a walk (`walk` not NULL) it also sets *walk to a movable pair whose
 * second bucket has no room (the first from slot `start` on, cyclically), and
 * *walk_dest to that bucket, to go on from; and *tomb to b's first TOMB, which
 * the pair moved into b may take; a link's slot is NULL where there is none.
 * With `own_room` not NULL, b itself may have room: then *own_room is 1,
 * *dest is b, and it returns 0 (the pair that led here takes it; no pair may
 * leave a bucket with a free slot, R4); b's room is read with the first
 * group's words, not a round trip before them. */
HIVE_PROTO int D_OP(hive_movable_with_room)(const hive_view *v, P_GEOM_PARAM, uint64_t b,
                                            P_SUFFIX(hive_link) * victim, uint64_t *dest,
                                            uint32_t start, P_SUFFIX(hive_link) * walk,
                                            uint64_t *walk_dest, P_SUFFIX(hive_link) * tomb,
                                            int *own_room)
{
    P_SLOT *bucket = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, b, P_S);
    uint32_t walk_rank = P_S;
    int found = 0;
    if (walk) {
        walk->slot = 0;
        tomb->slot = 0;
        tomb->word = 0;
    }
    int own = own_room && D_OP(hive_has_room)(bucket, P_GEOM_ARG);
HIVE_NO_UNROLL
    for (uint32_t group = 0; group < P_S && !found; group += HIVE_NEAR_GROUP) {
        P_SLOT word[HIVE_NEAR_GROUP];
        uint64_t to[HIVE_NEAR_GROUP] = {0};
        int movable[HIVE_NEAR_GROUP];
#if defined(__CUDACC__) && P_WORDS == 1 && !defined(P_TILE) && HIVE_NEAR_GROUP % 2 == 0
        /* Two 8-byte slots per 16-byte access, as the scans load them: half
         * the L2 requests (the deferred launches are bound by those). */
HIVE_UNROLL
        for (uint32_t j = 0; j < HIVE_NEAR_GROUP; j += 2)
            hive_load64x2(bucket + group + j, &word[j], &word[j + 1]);
#else
HIVE_UNROLL
        for (uint32_t j = 0; j < HIVE_NEAR_GROUP; j++)
            word[j] = P_LOAD_ONE(bucket + group + j);
#endif
        if (own_room && group == 0 && (*own_room = own)) {
            *dest = b;
            break;
        }
HIVE_UNROLL
        for (uint32_t j = 0; j < HIVE_NEAR_GROUP; j++)
            movable[j] = D_OP(hive_movable)(v, word[j], b, &to[j]);
        int room[HIVE_NEAR_GROUP];
        P_SLOT *into[HIVE_NEAR_GROUP];
HIVE_UNROLL
        for (uint32_t j = 0; j < HIVE_NEAR_GROUP; j++) {
            into[j] = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, to[j], P_S);
            room[j] = movable[j] && !P_HINTED_FULL(v, to[j]);
#ifndef __CUDACC__
            /* Every room's line in flight before the first is looked at
             * (without it, KV64 fills on the host ran 7% slower than with
             * the last-slot read; docs/perf.md, "Eviction search"). */
            if (room[j])
                __builtin_prefetch(into[j] + P_S - 1);
#endif
        }
HIVE_UNROLL
        for (uint32_t j = 0; j < HIVE_NEAR_GROUP; j++)
            room[j] = room[j] && D_OP(hive_has_room)(into[j], P_GEOM_ARG);
HIVE_UNROLL
        for (uint32_t j = HIVE_NEAR_GROUP; j-- > 0;) { /* the first with room wins */
            if (room[j]) {
                victim->slot = bucket + group + j;
                victim->word = word[j];
                *dest = to[j];
                found = 1;
            } else if (walk && movable[j] && (group + j + P_S - start) % P_S < walk_rank) {
                walk_rank = (group + j + P_S - start) % P_S;
                walk->slot = bucket + group + j;
                walk->word = word[j];
                *walk_dest = to[j];
            }
            if (walk && P_KEY_OF(word[j]) == P_TOMB) {
                tomb->slot = bucket + group + j;
                tomb->word = word[j];
            }
        }
    }
    return found;
}

/* Eviction by a breadth-first search two moves deep: first every pair of b1
 * and b2 that could move straight to a bucket with room, then every pair of
 * their second buckets.  Found chains are carried out once the search is
 * over, so that the lanes of a warp that all evict (the deferred-keys kernel)
 * leave the search together and issue the atomics of one copy of the move
 * together; hive_evict's walk, one dependent read after another and a copy of
 * the move per branch, is left for the few keys this does not place.
 * `levels` (HIVE_EVICT_*) says which levels to search.  Called holding b1's
 * lock.  Returns the keys moved (1 or 2), or 0 if no such chain exists or
 * another thread changed it first. */
HIVE_PROTO int D_OP(hive_evict_near)(const hive_view *v, P_GEOM_PARAM, P_KEY k, P_VAL val, uint64_t b1,
                                     uint64_t b2, int levels, uint64_t *held)
{
    P_SUFFIX(hive_link) chain[2] = {{0, 0}, {0, 0}};
    uint64_t dest = 0;
    int depth = (levels & HIVE_EVICT_ONE_MOVE) &&
                (D_OP(hive_movable_with_room)(v, P_GEOM_ARG, b1, &chain[0], &dest, 0, 0, 0, 0, 0) ||
                 (b2 != b1 &&
                  D_OP(hive_movable_with_room)(v, P_GEOM_ARG, b2, &chain[0], &dest, 0, 0, 0, 0, 0)));
    uint32_t candidates = !(levels & HIVE_EVICT_TWO_MOVES) ? 0 : b2 != b1 ? 2 * P_S : P_S;
HIVE_NO_UNROLL
    for (uint32_t c = 0; c < candidates && depth == 0; c++) {
        uint64_t b = c < P_S ? b1 : b2;
        chain[0].slot = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, b, P_S) + c % P_S;
        chain[0].word = P_LOAD_ONE(chain[0].slot);
        uint64_t via = 0;
        if (!D_OP(hive_movable)(v, chain[0].word, b, &via))
            continue;
        /* The slot may hold another pair than the first search saw (other
         * threads' chains pass through b1 and b2), so `via` may have room:
         * then the pair moves there.  Only out of a bucket with no free slot
         * (never again) may a pair move on to its second bucket (R4). */
        int via_room = 0;
        if (D_OP(hive_movable_with_room)(v, P_GEOM_ARG, via, &chain[1], &dest, 0, 0, 0, 0, &via_room)) {
            depth = 2;
        } else if (via_room) {
            depth = 1; /* dest is via */
        }
    }
    if (depth == 0)
        return 0;
    P_SLOT *dest_bucket = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, dest, P_S);
    P_SUFFIX(hive_scan) ds = P_SUFFIX(hive_scan_bucket)(dest_bucket, P_GEOM_ARG, P_KEY_OF(chain[depth - 1].word));
    P_SLOT *into = 0, into_word = 0;
    if (ds.match >= 0 || !D_OP(hive_room_slot)(&ds, dest_bucket, &into, &into_word))
        return 0; /* stale, or the room was taken */
    if (!P_SUFFIX(hive_apply_chain)(v, P_GEOM_ARG, chain, depth, into, into_word, P_MAKE(k, val), held))
        return 0;
    return depth;
}

/* Looks for a displacement chain of at most max_evictions moves that frees a
 * slot for k in b1 or b2, and carries it out: a walk that, at each bucket,
 * reads the rooms of all its movable pairs' second buckets together
 * (hive_movable_with_room: two round trips a bucket, not two a pair) and,
 * finding none, goes on into the second bucket of one of them, which has no
 * free slot, so that moving a pair out of it keeps R4.  Tries from b1 and b2,
 * twice each, from other slots.  Called holding b1's lock.  Returns the
 * number of keys moved, 0 if no chain was found, or -1 if chains were found
 * but other threads changed them first (worth trying again). */
HIVE_PROTO int D_OP(hive_evict)(const hive_view *v, P_GEOM_PARAM, P_KEY k, P_VAL val,
                                uint32_t h1, uint64_t b1, uint64_t b2, uint64_t *held)
{
    P_SUFFIX(hive_link) chain[HIVE_MAX_CHAIN];
    uint32_t max_depth = v->max_evictions < HIVE_MAX_CHAIN ? v->max_evictions : HIVE_MAX_CHAIN;
    int raced = 0;
    for (uint32_t attempt = 0; attempt < 4; attempt++) {
        uint64_t b = (attempt & 1) ? b2 : b1;
        for (uint32_t depth = 0; depth < max_depth; depth++) {
            uint64_t dest = 0, walk_dest = 0;
            P_SUFFIX(hive_link) walk, tomb;
            uint32_t start = (h1 + 7u * depth + attempt) % P_S;
            int room = D_OP(hive_movable_with_room)(v, P_GEOM_ARG, b, &chain[depth], &dest, start,
                                                    &walk, &walk_dest, &tomb, 0);
            if (depth > 0 && tomb.slot) {
                /* The previous victim takes a TOMB of the bucket it was to
                 * be moved into: one move fewer (b1's and b2's own TOMBs are
                 * the newcomer's, taken before any eviction, R3). */
                if (P_SUFFIX(hive_apply_chain)(v, P_GEOM_ARG, chain, (int)depth, tomb.slot, tomb.word,
                                           P_MAKE(k, val), held))
                    return (int)depth;
                raced = 1;
                break;
            }
            if (room) {
                P_SLOT *dest_bucket = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, dest, P_S);
                P_SUFFIX(hive_scan) ds = P_SUFFIX(hive_scan_bucket)(dest_bucket, P_GEOM_ARG,
                                                                    P_KEY_OF(chain[depth].word));
                P_SLOT *into = 0, into_word = 0;
                if (ds.match < 0 && D_OP(hive_room_slot)(&ds, dest_bucket, &into, &into_word) &&
                    P_SUFFIX(hive_apply_chain)(v, P_GEOM_ARG, chain, (int)depth + 1, into, into_word,
                                           P_MAKE(k, val), held))
                    return (int)depth + 1;
                raced = 1; /* stale, or taken meanwhile: a fresh attempt */
                break;
            }
            if (!walk.slot)
                break;
            /* The word seen when walk_dest was computed from it: if the slot
             * has changed since, freezing it fails and the chain is dropped,
             * so a key is never moved to a bucket that is not its own. */
            chain[depth] = walk;
            b = walk_dest;
        }
    }
    return raced ? -1 : 0;
}

/* ---------------------------------------------------------------- upsert */

/* The slow path of an insert (R3): under b1's lock, re-check that k is absent
 * and place it in a TOMB of b1, the frontier or a TOMB of b2, by cuckoo
 * eviction, or in the stash.  *step tells which (HIVE_STEP_*), *moves how many
 * keys eviction displaced.  `levels` (HIVE_EVICT_*) are the levels of the
 * breadth-first eviction search to run.  Without HIVE_EVICT_TWO_MOVES it
 * stops short of the searches that take many dependent reads (a second level
 * of eviction, the walk, the stash) and returns HIVE_R_DEFER_DEEP, having
 * changed nothing: the GPU runs those few keys in a launch of their own (with
 * HIVE_EVICT_TWO_MOVES alone), so that the lanes of a warp go through the
 * short path together. */
HIVE_PROTO int D_OP(hive_insert_locked)(const hive_view *v, P_GEOM_PARAM, P_KEY k, P_VAL val, int mode,
                                        uint32_t h1, uint32_t h2, int levels, int *step, uint32_t *moves,
                                        uint64_t *held)
{
    uint64_t b1 = hive_bucket_of(v->ix, h1), b2 = hive_bucket_of(v->ix, h2);
    P_SLOT *bucket1 = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, b1, P_S);
    P_SLOT *bucket2 = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, b2, P_S);
    P_SLOT pair = P_MAKE(k, val);
    for (unsigned round = 0;; round++) {
        /* Read with the rescans rather than after them: only a holder of
         * b1's lock stashes k, and the lock orders an earlier holder's mark
         * before this read. */
        int stash_maybe = P_SUFFIX(hive_stash_in_use)(v, P_GEOM_ARG, h1, h2);
        P_SUFFIX(hive_scan) s1 = P_SUFFIX(hive_scan_bucket)(bucket1, P_GEOM_ARG, k);
        if (s1.match >= 0) {
            int r = P_SUFFIX(hive_update_slot)(P_GEOM_ARG, bucket1 + s1.match, s1.word, k, val, mode);
            if (r) {
                *step = HIVE_STEP_REPLACE;
                return r;
            }
            continue;
        }
        hive_order_reads();
        P_SUFFIX(hive_scan) s2 = s1;
        if (b2 != b1) {
            s2 = P_SUFFIX(hive_scan_bucket)(bucket2, P_GEOM_ARG, k);
            if (s2.match >= 0) {
                int r = P_SUFFIX(hive_update_slot)(P_GEOM_ARG, bucket2 + s2.match, s2.word, k, val, mode);
                if (r) {
                    *step = HIVE_STEP_REPLACE;
                    return r;
                }
                continue;
            }
        }
        if (stash_maybe) {
            P_SUFFIX(hive_stash_scan) st = P_SUFFIX(hive_scan_stash)(v, P_GEOM_ARG, k, h1, h2);
            if (st.match) {
                int r = P_SUFFIX(hive_update_slot)(P_GEOM_ARG, st.match, st.match_word, k, val, mode);
                if (r) {
                    *step = HIVE_STEP_REPLACE;
                    return r;
                }
                continue;
            }
        }
        if (s1.moving || s2.moving) {
            hive_backoff(round); /* k itself may be in flight */
            continue;
        }
        /* k is absent, and no one else may place it while we hold b1's lock. */
        *step = HIVE_STEP_CLAIM;
        if (s1.free >= 0) { /* R2's frontier of b1, taken under the lock */
            if (P_CAS(bucket1 + s1.free, s1.word, pair) == s1.word)
                return HIVE_R_INSERTED;
            continue;
        }
        /* R3: a TOMB only once neither bucket has a free slot, so that no
         * lock-free frontier claim of k (R2) can be under way elsewhere. */
        if (s2.free >= 0) {
            if (P_CAS(bucket2 + s2.free, s2.word, pair) == s2.word)
                return HIVE_R_INSERTED;
            continue;
        }
        if (s1.tomb >= 0) {
            if (P_CAS(bucket1 + s1.tomb, s1.tomb_word, pair) == s1.tomb_word)
                return HIVE_R_INSERTED;
            continue;
        }
        if (s2.tomb >= 0) {
            if (P_CAS(bucket2 + s2.tomb, s2.tomb_word, pair) == s2.tomb_word)
                return HIVE_R_INSERTED;
            continue;
        }
        int moved = D_OP(hive_evict_near)(v, P_GEOM_ARG, k, val, b1, b2, levels, held);
        if (!moved && !(levels & HIVE_EVICT_TWO_MOVES))
            return HIVE_R_DEFER_DEEP;
        if (!moved)
            moved = D_OP(hive_evict)(v, P_GEOM_ARG, k, val, h1, b1, b2, held);
        if (moved > 0) {
            *step = HIVE_STEP_EVICT;
            *moves = (uint32_t)moved;
            return HIVE_R_INSERTED;
        }
        if (moved < 0 && round < HIVE_EVICT_RETRIES) {
            /* Many threads evicting through the same buckets (a small table
             * filled by one large batch) break each other's chains; the
             * buckets still have room to make, so look again before the stash. */
            hive_backoff(round);
            continue;
        }
        /* Last resort: the stash. */
        int stashed = P_SUFFIX(hive_stash_put)(v, P_GEOM_ARG, k, pair, h1, h2);
        if (stashed < 0)
            continue;
        if (stashed == 0)
            return HIVE_R_REJECTED_FULL;
        *step = HIVE_STEP_STASH;
        return HIVE_R_INSERTED;
    }
}

/* The lock-free part of an insert (R2): updates k where it is, or claims a
 * frontier slot for it.  Returns HIVE_R_INSERTED, HIVE_R_UPDATED or
 * HIVE_R_EXISTED, or HIVE_R_DEFER when k needs the locked path (R3: neither
 * bucket has a free slot) or a bucket holds a frozen slot that may be k in
 * flight.  *step tells which insert step finished it. */
HIVE_PROTO int D_OP(hive_upsert_lockfree)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1,
                                          uint32_t h2, P_VAL val, int mode, int *step)
{
    for (;;) {
        uint64_t b1 = hive_bucket_of(v->ix, h1);
        P_SLOT *bucket1 = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, b1, P_S);
        P_SUFFIX(hive_scan) s1 = P_SUFFIX(hive_scan_bucket)(bucket1, P_GEOM_ARG, k);
        *step = HIVE_STEP_REPLACE;
        if (s1.match >= 0) {
            int r = P_SUFFIX(hive_update_slot)(P_GEOM_ARG, bucket1 + s1.match, s1.word, k, val, mode);
            if (r)
                return r;
            continue;
        }
        if (s1.ended) { /* R2: claim-then-commit at b1's frontier */
            if (P_CAS(bucket1 + s1.free, s1.word, P_MAKE(k, val)) == s1.word) {
                *step = HIVE_STEP_CLAIM;
                return HIVE_R_INSERTED;
            }
            continue; /* someone took the slot: maybe k itself */
        }
        hive_order_reads();
        int moving = s1.moving;
        int second_has_empty = 0;
        uint64_t b2 = hive_bucket_of(v->ix, h2);
        P_SLOT *bucket2 = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, b2, P_S);
        P_SUFFIX(hive_scan) s2 = s1;
        if (b2 != b1) {
            s2 = P_SUFFIX(hive_scan_bucket)(bucket2, P_GEOM_ARG, k);
            if (s2.match >= 0) {
                int r = P_SUFFIX(hive_update_slot)(P_GEOM_ARG, bucket2 + s2.match, s2.word, k, val, mode);
                if (r)
                    return r;
                continue;
            }
            moving |= s2.moving;
            second_has_empty = s2.ended;
        }
        /* R2: b1's VACANT frontier, once k is in neither b2 nor the stash;
         * or, b1 being full, b2's frontier.  Without one, or with a frozen
         * slot that may be k in flight, k needs the locked path, which also
         * looks in the stash. */
        P_SLOT *frontier = s1.free >= 0 ? bucket1 + s1.free : s2.free >= 0 ? bucket2 + s2.free : 0;
        if (moving || !frontier)
            return HIVE_R_DEFER;
        if (!second_has_empty && P_SUFFIX(hive_stash_in_use)(v, P_GEOM_ARG, h1, h2)) {
            P_SUFFIX(hive_stash_scan) st = P_SUFFIX(hive_scan_stash)(v, P_GEOM_ARG, k, h1, h2);
            if (st.match) {
                int r = P_SUFFIX(hive_update_slot)(P_GEOM_ARG, st.match, st.match_word, k, val, mode);
                if (r)
                    return r;
                continue;
            }
        }
        P_SLOT seen = s1.free >= 0 ? s1.word : s2.word;
        if (P_CAS(frontier, seen, P_MAKE(k, val)) == seen) {
            *step = HIVE_STEP_CLAIM;
            return HIVE_R_INSERTED;
        }
    }
}

/* The locked part of an insert, for a key hive_upsert_lockfree deferred:
 * under b1's lock, which waits out frozen slots and places k (R3).  levels:
 * as for hive_insert_locked. */
HIVE_PROTO int D_OP(hive_upsert_deferred)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1,
                                          uint32_t h2, P_VAL val, int mode, int levels, int *step,
                                          uint32_t *moves)
{
    uint64_t b1 = hive_bucket_of(v->ix, h1);
    uint64_t held = b1; /* an eviction releases it as soon as it may (hive_apply_chain) */
    *moves = 0;
    P_LOCK(v, b1);
    int r = D_OP(hive_insert_locked)(v, P_GEOM_ARG, k, val, mode, h1, h2, levels, step, moves, &held);
    if (held != HIVE_LOCK_NONE)
        P_UNLOCK(v, b1);
    return r;
}

/* Inserts k, or combines val into its value (mode: HIVE_CMB_*).  Returns
 * HIVE_R_INSERTED, HIVE_R_UPDATED, HIVE_R_EXISTED or HIVE_R_REJECTED_FULL;
 * *step is the insert step that finished it, *moves the keys eviction moved.
 * The GPU runs the two parts apart (cuda_kernels.cuh): deferred keys go to a
 * second launch, so that no warp waits on one lane's locked path. */
HIVE_PROTO int D_OP(hive_upsert_hashed)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1,
                                        uint32_t h2, P_VAL val, int mode, int *step,
                                        uint32_t *moves)
{
    *moves = 0;
    int r = D_OP(hive_upsert_lockfree)(v, P_GEOM_ARG, k, h1, h2, val, mode, step);
    if (r != HIVE_R_DEFER)
        return r;
    return D_OP(hive_upsert_deferred)(v, P_GEOM_ARG, k, h1, h2, val, mode, HIVE_EVICT_ALL, step, moves);
}

HIVE_PROTO int D_OP(hive_upsert)(const hive_view *v, P_GEOM_PARAM, P_KEY k, P_VAL val, int mode,
                                 int *step, uint32_t *moves)
{
    return D_OP(hive_upsert_hashed)(v, P_GEOM_ARG, k, P_VIEW_HASH1(v, k), P_VIEW_HASH2(v, k), val, mode,
                                    step, moves);
}

#ifndef P_TILE
#include "resize_body.h"
#endif

#undef D_OP
#undef D_ROOM_TOMBS
