/* evict_body.h — the cuckoo design's eviction (its D_EVICT): a bounded
 * random walk that frees a slot for a new key whose three buckets are full,
 * moving each pair on the way to a later bucket of its own, then the chain
 * carried out by core/move_body.h's hive_apply_chain (frozen whole, copied
 * from its end), as the Hive design's cuckoo moves are.  Included by
 * cuckoo_body.h with the seam (D_OP, D_PROBES, D_PROBE_HASH) defined, before
 * core/probe_body.h, whose locked path calls it holding probe 0's lock.  No
 * include guard: once per width and mode.
 *
 * Which moves keep the rules (docs/designs/cuckoo.md): a pair of key m that
 * is in bucket b by probe i (the first probe naming b) may move only to a
 * bucket whose first naming probe q is later than i, and only out of a b
 * with no free slot.  Readers scan m's buckets in probe order, each scan
 * ordered after the last (D_MOVES), so a reader that misses m in b because
 * the move's source was reused sees the copy in the later bucket (R5); and
 * the buckets before q are b, buckets before i, or buckets named by probes
 * before i again, none with an EMPTY slot, so R4 holds for m in its new
 * bucket. */

/* Whether the pair `word`, found in bucket b, may move on, and where: the
 * first bucket, in its probe order after the first probe naming b, that no
 * probe up to there named. */
HIVE_PROTO int D_OP(hive_cuckoo_movable)(const hive_view *v, P_SLOT word, uint64_t b, uint64_t *dest)
{
    P_KEY m = P_KEY_OF(word);
    if (P_RESERVED(m))
        return 0;
    uint32_t h1 = P_VIEW_HASH1(v, m), h2 = P_VIEW_HASH2(v, m);
    uint64_t named[D_PROBES];
    int in_b = 0;
    for (uint32_t q = 0; q < D_PROBES; q++) {
        named[q] = hive_bucket_of(v->ix, D_PROBE_HASH(h1, h2, q));
        int fresh = 1;
        for (uint32_t p = 0; p < q; p++)
            fresh &= named[p] != named[q];
        if (in_b && fresh) {
            *dest = named[q];
            return 1;
        }
        in_b |= named[q] == b;
    }
    return 0;
}

/* The walk, from each of k's buckets in turn (all full: R3 calls it only
 * then), HIVE_CUCKOO_WALKS times: in the bucket at hand, from a slot the
 * walk's generator picks, the first pair that may move to a bucket with room
 * (its last slot free: free slots are a suffix) ends the chain; else the
 * first that may move at all is a link, and the walk goes on in its
 * destination, which has no free slot.  `levels` is the Hive design's
 * (HIVE_EVICT_*): this walk is one search, run whole at any level.  Returns
 * the pairs moved (k placed), 0 if no walk found room, or -1 if one did but
 * another thread changed the chain first (worth trying again). */
HIVE_PROTO int D_OP(hive_cuckoo_evict)(const hive_view *v, P_GEOM_PARAM, P_KEY k, P_VAL val, uint32_t h1,
                                       uint32_t h2, int levels, uint64_t *held)
{
    (void)levels;
    P_SUFFIX(hive_link) chain[HIVE_MAX_CHAIN];
    uint32_t max_depth = v->max_evictions < HIVE_MAX_CHAIN ? v->max_evictions : HIVE_MAX_CHAIN;
    uint32_t rng = h1 ^ (h2 * 0x9E3779B9u);
    int raced = 0;
HIVE_NO_UNROLL
    for (uint32_t walk = 0; walk < HIVE_CUCKOO_WALKS; walk++) {
        uint64_t b = hive_bucket_of(v->ix, D_PROBE_HASH(h1, h2, walk % D_PROBES));
HIVE_NO_UNROLL
        for (uint32_t depth = 0; depth < max_depth; depth++) {
            P_SLOT *bucket = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, b, P_S);
            rng = rng * 1664525u + 1013904223u; /* a linear congruential step */
            uint32_t start = (rng >> 16) % P_S;
            int link = -1, last = 0;
            uint64_t link_dest = 0;
HIVE_NO_UNROLL
            for (uint32_t j = 0; j < P_S && !last; j++) {
                uint32_t s = (start + j) % P_S;
                P_SLOT word = P_LOAD_ONE(bucket + s);
                uint64_t dest = 0;
                if (!D_OP(hive_cuckoo_movable)(v, word, b, &dest))
                    continue;
                P_SLOT tail = P_LOAD_ONE(P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, dest, P_S) + P_S - 1);
                last = P_KEY_OF(tail) >= P_VACANT;
                if (last || link < 0) {
                    link = (int)s;
                    link_dest = dest;
                    chain[depth].slot = bucket + s;
                    chain[depth].word = word;
                }
            }
            if (last) {
                P_SLOT *into = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, link_dest, P_S);
                P_SUFFIX(hive_scan) ds = P_SUFFIX(hive_scan_bucket)(into, P_GEOM_ARG, P_KEY_OF(chain[depth].word));
                if (ds.match < 0 && ds.free >= 0 &&
                    P_SUFFIX(hive_apply_chain)(v, P_GEOM_ARG, chain, (int)depth + 1, into + ds.free, ds.word,
                                               P_MAKE(k, val), held))
                    return (int)depth + 1;
                raced = 1; /* stale, or taken meanwhile: another walk */
                break;
            }
            if (link < 0)
                break;
            b = link_dest;
        }
    }
    return raced ? -1 : 0;
}
