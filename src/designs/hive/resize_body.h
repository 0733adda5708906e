/* resize_body.h — the Hive design's part of linear hashing's per-bucket
 * steps (Hive §IV-C): where a split sends a pair (by the hash that placed
 * it), which buckets a pair left in its second bucket or the stash marks,
 * and the merge with its undo.  The rest (packing, compaction, the stash's
 * drain and copy) is every design's (core/slot_body.h, core/drain_body.h).
 * Included by protocol_body.h (thread mode only) with its P_* and D_OP
 * macros; no include guard: once per width.
 *
 * Rule R8: these run while no operation does (the CUDA backend orders them
 * on the stream between batches; the CPU backend holds the table's resize
 * lock), so they read and write slots with plain loads and stores.  Splits,
 * merges and compactions of different buckets run in parallel: each touches
 * only its bucket and its partner.  Drains of different stash pairs run in
 * parallel too, through the protocol (locks, CAS), as inserts do. */

#include "../../core/drain_body.h"

/* Marks both buckets of the stash pair in `slot`, if any (R4: neither may
 * end a lookup of it). */
HIVE_PROTO void D_OP(hive_mark_stash_slot)(const hive_view *v, const P_SLOT *slot)
{
    P_KEY k = P_KEY_OF(*slot);
    if (P_RESERVED(k))
        return;
    hive_mark_bucket(v, hive_bucket_of(v->ix, P_VIEW_HASH1(v, k)));
    hive_mark_bucket(v, hive_bucket_of(v->ix, P_VIEW_HASH2(v, k)));
}

/* The hash that placed key in bucket j under ix (the split's, core/
 * resize_ops_body.h; seed: the table's): its first hash if j is its first bucket, else its
 * second; a split moves the pair when that hash's next bit says so. */
HIVE_PROTO int D_OP(hive_split_hash)(hive_index ix, uint64_t seed, P_KEY key, uint64_t j, uint32_t *h)
{
    *h = P_HASH1(seed, key);
    if (hive_bucket_of(ix, *h) != j)
        *h = P_HASH2(seed, key); /* it lives here as in its second bucket */
    return 1;
}

/* After a resize: moves each pair of bucket b that lives in its second
 * bucket back to its first when that has a free slot now, and marks the
 * first bucket of each one that stays (see hive_compact_bucket).  Splits
 * leave the first buckets of such pairs half empty, and a pair in its second
 * bucket is never a victim of eviction (R5): without this, a table grown
 * many times holds ever more pairs that eviction cannot move, and its
 * inserts near max_load_factor end in the stash.  Runs beside the reflows of
 * other buckets, so a pair is claimed into the first free slot of its first
 * bucket by CAS (R2's claim), and its old slot becomes a TOMB (a compaction
 * follows).  Returns the pairs moved. */
HIVE_PROTO uint32_t D_OP(hive_reflow_bucket)(const hive_view *v, P_GEOM_PARAM, uint64_t b)
{
    P_SLOT *bucket = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, b, P_S);
    uint32_t moved = 0;
    for (uint32_t i = 0; i < P_S; i++) {
        P_SLOT w = P_LOAD(bucket + i);
        P_KEY k = P_KEY_OF(w);
        if (P_RESERVED(k))
            continue;
        uint64_t b1 = hive_bucket_of(v->ix, P_VIEW_HASH1(v, k));
        if (b1 == b)
            continue;
        P_SLOT *first = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, b1, P_S);
        for (;;) {
            P_SUFFIX(hive_scan) s1 = P_SUFFIX(hive_scan_bucket)(first, P_GEOM_ARG, k);
            if (s1.free < 0) {
                hive_mark_bucket(v, b1);
                break;
            }
            if (P_CAS(first + s1.free, s1.word, w) == s1.word) {
                P_CAS(bucket + i, w, P_MAKE(P_TOMB, 0));
                moved++;
                break;
            }
        }
    }
    return moved;
}

/* The reverse of a split (j < split under ix, the index before this merge):
 * the pairs of j + base * 2^m join j, where both of their hashes that named
 * the partner now lead, as many as fit.  Those that do not stay packed at the
 * front of the partner (TOMBs after them), for hive_rehome_bucket to place
 * under the merged index.  Returns how many stayed.  A bucket that had to
 * leave pairs behind is full: the step's REHOME puts nothing into it. */
HIVE_PROTO uint32_t D_OP(hive_merge_bucket)(P_SLOT *slots, P_GEOM_PARAM, hive_index ix, uint64_t j)
{
    P_SLOT *lo = P_SUFFIX(hive_bucket)(slots, j, P_S);
    P_SLOT *hi = P_SUFFIX(hive_bucket)(slots, j + hive_index_round(ix), P_S);
    int lo_ended, hi_ended;
    uint32_t n = P_SUFFIX(hive_pack_bucket)(lo, P_GEOM_ARG, &lo_ended);
    uint32_t m = P_SUFFIX(hive_pack_bucket)(hi, P_GEOM_ARG, &hi_ended);
    uint32_t moved = m < P_S - n ? m : P_S - n;
    for (uint32_t i = 0; i < moved; i++)
        lo[n + i] = hi[i];
    P_SUFFIX(hive_fill_free)(lo, P_GEOM_ARG, n + moved, lo_ended && hi_ended);
    for (uint32_t i = moved; i < m; i++)
        hi[i - moved] = hi[i];
    for (uint32_t i = m - moved; i < P_S; i++)
        hi[i] = P_MAKE(P_TOMB, 0);
    return m - moved;
}

/* Undoes hive_merge_bucket for a merge step that could not place every
 * pair (ix: the index before the merge): the pairs of j and its partner
 * are dealt out between the two again, first those that only one of them
 * can hold (a hash names it), then the others where there is room.  Both
 * keep no EMPTY slot: j was full, and pairs of both may have been placed
 * elsewhere meanwhile.
 *
 * A placement exists because the step's REHOME only claims free slots and
 * TOMBs and never moves a pair already placed (hive_rehome_pair): if j had
 * to leave pairs in its partner, j is full and received nothing, so its
 * pairs with one choice are j's own (at most S) and the partner's are the
 * partner's own (at most S); if j left nothing behind, the partner is empty
 * and j holds at most S pairs in all.  Returns the pairs that found no room
 * (never any, by that argument; a non-zero count is reported as a bug
 * rather than written past a bucket). */
HIVE_PROTO uint32_t D_OP(hive_unmerge_bucket)(P_SLOT *slots, P_GEOM_PARAM, hive_index ix, uint64_t seed,
                                               uint64_t j)
{
    uint64_t partner = j + hive_index_round(ix);
    P_SLOT *lo = P_SUFFIX(hive_bucket)(slots, j, P_S);
    P_SLOT *hi = P_SUFFIX(hive_bucket)(slots, partner, P_S);
    P_SLOT pairs[64]; /* 2 S, S <= 32 */
    uint32_t n = 0;
    for (uint32_t i = 0; i < P_S; i++) {
        if (!P_RESERVED(P_KEY_OF(lo[i])))
            pairs[n++] = lo[i];
        if (!P_RESERVED(P_KEY_OF(hi[i])))
            pairs[n++] = hi[i];
    }
    uint32_t nlo = 0, nhi = 0, lost = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < n; i++) {
            P_KEY key = P_KEY_OF(pairs[i]);
            uint64_t b1 = hive_bucket_of(ix, P_HASH1(seed, key)), b2 = hive_bucket_of(ix, P_HASH2(seed, key));
            int can_lo = b1 == j || b2 == j, can_hi = b1 == partner || b2 == partner;
            if ((can_lo && can_hi) != (pass == 1))
                continue; /* pass 0: pairs with one choice; pass 1: with two */
            if (can_lo && nlo < P_S)
                lo[nlo++] = pairs[i];
            else if (can_hi && nhi < P_S)
                hi[nhi++] = pairs[i];
            else
                lost++;
        }
    }
    P_SUFFIX(hive_fill_free)(lo, P_GEOM_ARG, nlo, 0);
    P_SUFFIX(hive_fill_free)(hi, P_GEOM_ARG, nhi, 0);
    return lost;
}

/* Where REHOME puts pair k under the merged index of `into` without moving
 * any other pair (core/resize_ops_body.h): a free slot or a TOMB of its
 * first bucket, else of its second.  Free slots are taken in R2's order
 * (b1's before b2's, b2's only once b1 has none, the stash only once neither
 * has one), so R4 holds for the pairs placed.  Returns the slot and the word
 * it holds now, or 0 (the stash is next). */
HIVE_PROTO P_SLOT *D_OP(hive_rehome_target)(const hive_view *into, P_GEOM_PARAM, P_KEY k, uint32_t h1,
                                            uint32_t h2, P_SLOT *seen)
{
    P_SLOT *bucket1 = P_SUFFIX(hive_bucket)((P_SLOT *)into->slots, hive_bucket_of(into->ix, h1), P_S);
    P_SLOT *bucket2 = P_SUFFIX(hive_bucket)((P_SLOT *)into->slots, hive_bucket_of(into->ix, h2), P_S);
    P_SUFFIX(hive_scan) s1 = P_SUFFIX(hive_scan_bucket)(bucket1, P_GEOM_ARG, k);
    P_SUFFIX(hive_scan) s2 = P_SUFFIX(hive_scan_bucket)(bucket2, P_GEOM_ARG, k);
    *seen = s1.free >= 0 ? s1.word : s2.free >= 0 ? s2.word : s1.tomb >= 0 ? s1.tomb_word : s2.tomb_word;
    return s1.free >= 0   ? bucket1 + s1.free
           : s2.free >= 0 ? bucket2 + s2.free
           : s1.tomb >= 0 ? bucket1 + s1.tomb
           : s2.tomb >= 0 ? bucket2 + s2.tomb
                          : 0;
}

#include "../../core/resize_ops_body.h"
