/* tag_body.h — the slot protocol of the tagged designs (core/tags.h) for one
 * key width and mode, included by core/slot_body.h: the scan of a bucket
 * through its tags, the claim of a slot, the retirement of a pair, and the
 * tags of a bucket rewritten after a resize step.  A tagged design's
 * operations (core/probe_body.h with D_TAGS) call these where the others
 * scan, CAS and retire slots directly.  The rules, and why they keep every
 * guarantee of the untagged protocol (docs/designs/metadata.md):
 *
 *  T1  A claim takes a slot by a CAS of its tag, from the free (or TOMB) tag
 *      its scan saw to the key's fingerprint, and only then stores the pair
 *      into the slot, which no one else writes meanwhile: one atomic a
 *      claim.  The tag CAS is R2's claim: free tags are a suffix of a
 *      bucket's, as free slots are, and a claim takes the first.
 *  T2  An erase retires a pair by a CAS of its slot to TOMB (its
 *      linearization point, as in every design), then stores TOMB in its
 *      tag, which no one else writes meanwhile.
 *  T3  Hence a slot holds key k only while its tag is k's fingerprint, and
 *      a scan reads only the slots whose tag is the key's.  A slot with the
 *      key's tag but no key in it is between the two writes of a claim or of
 *      an erase, maybe of k: the scan reports it as `moving`, as a slot that
 *      a cuckoo move froze, so that finds and erases look again and inserts
 *      wait (core/probe_body.h), each until the other thread's second write.
 *  T4  Resize steps that rewrite buckets whole (split, merge and its undo,
 *      compaction: no operation runs, R8) rewrite their tags from the slots;
 *      those that place pairs beside each other (reflow, rehome) claim by T1.
 *
 * No include guard: once per instantiation. */

/* Classifies slot i of a bucket by its tag t for a scan for key k of tag
 * `tag`: reads the slot only where t is k's.  Returns 1 where the scan stops
 * (k, or the first free slot: free tags are a suffix).  The free slot's and
 * the TOMB's "word" is the tag seen, which the claim's CAS expects. */
HIVE_PROTO int P_SUFFIX(hive_tag_classify)(P_SUFFIX(hive_scan) * s, const P_SLOT *bucket, uint32_t t,
                                           uint32_t i, P_KEY k, uint32_t tag)
{
    if (t == tag) {
        P_SLOT w = P_LOAD(bucket + i);
        P_KEY key = P_KEY_OF(w);
        if (key == k) {
            s->match = (int)i;
            s->word = w;
            return 1;
        }
        if (P_RESERVED(key))
            s->moving = 1; /* T3 */
        return 0;
    }
    if (t >= HIVE_TAG_VACANT) {
        s->free = (int)i;
        s->ended = t == HIVE_TAG_EMPTY;
        s->word = (P_SLOT)t;
        return 1;
    }
    if (t == HIVE_TAG_TOMB && s->tomb < 0) {
        s->tomb = (int)i;
        s->tomb_word = (P_SLOT)HIVE_TAG_TOMB;
    }
    return 0;
}

/* Scans slots [first, first + count) of bucket b for k through their tags.
 * The GPU loads a 32-byte sector of tags (16) at a time, all of it before
 * any is looked at, as hive_scan_bucket loads slots; counts that are not a
 * multiple of 4 (a tile lane's share) and the host load tag by tag. */
HIVE_PROTO P_SUFFIX(hive_scan) P_SUFFIX(hive_scan_tags)(const hive_view *v, uint32_t S, uint64_t b,
                                                        uint32_t first, uint32_t count, P_KEY k, uint32_t tag)
{
    P_SUFFIX(hive_scan) s = P_SUFFIX(hive_scan_none)();
    const P_SLOT *bucket = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, b, S);
    const uint16_t *tags = v->tags + b * S + first;
#if defined(__CUDACC__)
    if (count % 4 == 0) {
#pragma unroll
        for (uint32_t g = 0; g < count; g += 16) {
            uint64_t w[4];
            uint32_t words = count - g < 16 ? (count - g) / 4 : 4;
            if (words == 1) {
                w[0] = hive_load_tags4(tags + g);
            } else {
#pragma unroll
                for (uint32_t q = 0; q < 4; q += 2) {
                    if (q >= words)
                        break;
                    hive_load64x2((const uint64_t *)(tags + g) + q, &w[q], &w[q + 1]);
                }
            }
#pragma unroll
            for (uint32_t q = 0; q < 4; q++) {
                if (q >= words)
                    break;
#pragma unroll
                for (uint32_t j = 0; j < 4; j++)
                    if (P_SUFFIX(hive_tag_classify)(&s, bucket, (uint32_t)(w[q] >> (16 * j)) & 0xFFFFu,
                                                    first + g + 4 * q + j, k, tag))
                        return s;
            }
        }
        return s;
    }
#endif
    for (uint32_t i = 0; i < count; i++)
        if (P_SUFFIX(hive_tag_classify)(&s, bucket, hive_load_tag(tags + i), first + i, k, tag))
            return s;
    return s;
}

#ifdef P_TILE
/* The tile's scan of bucket b: lane r takes the tags of slots r*S/T ..
 * (r+1)*S/T - 1, and ballots pick the first of each kind, as
 * tile_scan_body.h does for the slots themselves. */
HIVE_PROTO P_SUFFIX(hive_scan) P_SUFFIX(hive_scan_tagged)(const hive_view *v, hive_geom g, uint64_t b, P_KEY k,
                                                          uint32_t tag)
{
    uint32_t per = g.S / g.T;
    P_SUFFIX(hive_scan) mine = P_SUFFIX(hive_scan_tags)(v, g.S, b, hive_tile_lane(g) * per, per, k, tag);
    P_SUFFIX(hive_scan) s = P_SUFFIX(hive_scan_none)();
    s.moving = hive_tile_ballot(g, mine.moving) != 0;
    uint32_t m = hive_tile_ballot(g, mine.match >= 0);
    if (m) {
        uint32_t src = (uint32_t)__ffs(m) - 1;
        s.match = hive_tile_from32(g, mine.match, src);
        s.word = hive_tile_from64(g, mine.word, src);
        return s;
    }
    uint32_t e = hive_tile_ballot(g, mine.free >= 0);
    if (e) {
        uint32_t src = (uint32_t)__ffs(e) - 1;
        s.free = hive_tile_from32(g, mine.free, src);
        s.ended = hive_tile_from32(g, mine.ended, src);
        s.word = hive_tile_from64(g, mine.word, src);
    }
    uint32_t t = hive_tile_ballot(g, mine.tomb >= 0);
    if (t) { /* a lane's TOMB before its free slot, or in a lane before the free one */
        s.tomb = hive_tile_from32(g, mine.tomb, (uint32_t)__ffs(t) - 1);
        s.tomb_word = (P_SLOT)HIVE_TAG_TOMB;
    }
    return s;
}
#else
HIVE_PROTO P_SUFFIX(hive_scan) P_SUFFIX(hive_scan_tagged)(const hive_view *v, uint32_t S, uint64_t b, P_KEY k,
                                                          uint32_t tag)
{
    return P_SUFFIX(hive_scan_tags)(v, S, b, 0, S, k, tag);
}
#endif

/* The tag of slot `slot` of v's buckets. */
HIVE_PROTO uint16_t *P_SUFFIX(hive_tag_at)(const hive_view *v, const P_SLOT *slot)
{
    return v->tags + (uint64_t)(slot - (const P_SLOT *)v->slots);
}

/* T1: claims `slot`, whose tag the scan saw as `seen` (free or TOMB), for
 * `pair`, whose key's tag is `tag`.  Returns 1 if the slot is the pair's, 0
 * if another claim took it first. */
HIVE_PROTO int P_SUFFIX(hive_claim_tagged)(const hive_view *v, P_GEOM_PARAM, P_SLOT *slot, uint32_t seen,
                                           P_SLOT pair, uint32_t tag)
{
    (void)P_GEOM_ARG;
    if (P_CAS_TAG(P_SUFFIX(hive_tag_at)(v, slot), seen, tag) != seen)
        return 0;
    P_STORE(slot, pair); /* the slot is ours alone: a store, not a second atomic */
    return 1;
}

/* T2: retires the pair `seen` in `slot`.  Returns 0 if the slot changed
 * first. */
HIVE_PROTO int P_SUFFIX(hive_retire_tagged)(const hive_view *v, P_GEOM_PARAM, P_SLOT *slot, P_SLOT seen)
{
    (void)P_GEOM_ARG;
    if (P_CAS(slot, seen, P_MAKE(P_TOMB, 0)) != seen)
        return 0;
    hive_fence(); /* whoever sees the TOMB tag sees the TOMB slot */
    /* a store: no one else writes a tag that is a key's (T1 claims free and
     * TOMB tags, T4 runs alone) */
    P_STORE_TAG(P_SUFFIX(hive_tag_at)(v, slot), HIVE_TAG_TOMB);
    return 1;
}

#ifndef P_TILE
/* T4: bucket b's tags from its slots, after a step that rewrote it whole
 * while no operation runs (R8). */
HIVE_PROTO void P_SUFFIX(hive_retag_bucket)(const hive_view *v, uint32_t S, uint64_t b)
{
    const P_SLOT *bucket = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, b, S);
    uint16_t *tags = v->tags + b * S;
    for (uint32_t i = 0; i < S; i++) {
        P_KEY key = P_KEY_OF(bucket[i]);
        tags[i] = (uint16_t)(key == P_EMPTY    ? HIVE_TAG_EMPTY
                             : key == P_VACANT ? HIVE_TAG_VACANT
                             : P_RESERVED(key) ? HIVE_TAG_TOMB
                                               : hive_tag_of(P_VIEW_HASH1(v, key), P_VIEW_HASH2(v, key)));
    }
}
#endif
