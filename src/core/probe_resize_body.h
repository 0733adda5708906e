/* probe_resize_body.h — linear hashing's per-bucket steps (Hive §IV-C) for a
 * design that is a probe sequence (probe_body.h: D_OP, D_PROBES,
 * D_PROBE_HASH), for one key width, thread mode.  The Hive design's own
 * steps (designs/hive/resize_body.h) are this for two probes, with the merge
 * undone another way.
 *
 * Rule R8, as for every design: these run while no operation does (the CUDA
 * backend orders them on the stream between batches; the CPU backend holds
 * the table's resize lock), so they read and write slots with plain loads
 * and stores; steps of different buckets run in parallel, each touching only
 * its bucket and its partner (REFLOW and REHOME go through CASes, as R2's
 * claims).  What they keep, by the arguments of docs/designs/double.md:
 *
 *  R1  every pair lives in one of its probe buckets under the new index, or
 *      in the stash;
 *  R4  a pair in probe bucket i (the first of its probes naming the bucket
 *      it is in) leaves probe buckets 0 .. i-1 without EMPTY slots, a stash
 *      pair all of them.
 *
 * No include guard: once per design and width. */

#include "drain_body.h"

/* The probe by which a pair of key k is in bucket j under ix (seed: the
 * table's hash seed): the first
 * probe naming j, or D_PROBES if none does (never, by R1).  A pair was
 * placed by that probe or a later one that names the same bucket; either
 * way its hash names j, and R4 asks least of the first. */
HIVE_PROTO uint32_t D_OP(hive_probe_of)(hive_index ix, uint64_t seed, P_KEY k, uint64_t j)
{
    uint32_t h1 = P_HASH1(seed, k), h2 = P_HASH2(seed, k);
    for (uint32_t i = 0; i < D_PROBES; i++)
        if (hive_bucket_of(ix, D_PROBE_HASH(h1, h2, i)) == j)
            return i;
    return D_PROBES;
}

/* Marks every probe bucket of the stash pair in `slot`, if any (R4: none
 * may end a lookup of it). */
HIVE_PROTO void D_OP(hive_mark_stash_slot)(const hive_view *v, const P_SLOT *slot)
{
    P_KEY k = P_KEY_OF(*slot);
    if (P_RESERVED(k))
        return;
    uint32_t h1 = P_VIEW_HASH1(v, k), h2 = P_VIEW_HASH2(v, k);
    for (uint32_t i = 0; i < D_PROBES; i++)
        hive_mark_bucket(v, hive_bucket_of(v->ix, D_PROBE_HASH(h1, h2, i)));
}

/* The hash of the probe that placed key in bucket j under ix (the split's,
 * core/resize_ops_body.h); 0 if no probe names j (the pair stays).  A split
 * moves the pair when that hash's next bit says so: that probe then names
 * its new bucket, and no earlier probe does (an earlier one named another
 * bucket than j, and names that bucket or its partner now), so a pair keeps
 * its probe index and R4 its meaning. */
HIVE_PROTO int D_OP(hive_split_hash)(hive_index ix, uint64_t seed, P_KEY key, uint64_t j, uint32_t *h)
{
    uint32_t p = D_OP(hive_probe_of)(ix, seed, key, j);
    if (p == D_PROBES)
        return 0;
    *h = D_PROBE_HASH(P_HASH1(seed, key), P_HASH2(seed, key), p);
    return 1;
}

/* After a resize: moves each pair of bucket b that is there by probe i > 0
 * to the first of its probe buckets 0 .. i-1 that has a free slot now, and
 * marks the probe buckets before the one it ends in (see
 * hive_compact_bucket: they keep VACANT free slots).  Splits leave earlier
 * probe buckets half empty; without this, pairs stay deep in their probe
 * sequences and lookups walk past buckets that could end them.  Runs beside
 * the reflows of other buckets, so a pair is claimed into a free slot by
 * CAS (R2's claim), and its old slot becomes a TOMB (a compaction follows).
 * Returns the pairs moved. */
HIVE_PROTO uint32_t D_OP(hive_reflow_bucket)(const hive_view *v, P_GEOM_PARAM, uint64_t b)
{
    P_SLOT *bucket = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, b, P_S);
    uint32_t moved = 0;
    for (uint32_t i = 0; i < P_S; i++) {
        P_SLOT w = P_LOAD(bucket + i);
        P_KEY k = P_KEY_OF(w);
        if (P_RESERVED(k))
            continue;
        uint32_t p = D_OP(hive_probe_of)(v->ix, P_VIEW_SEED(v), k, b);
        if (p == 0 || p == D_PROBES)
            continue;
        uint32_t h1 = P_VIEW_HASH1(v, k), h2 = P_VIEW_HASH2(v, k);
        D_TAG_DECL(tag, h1, h2);
        uint32_t stays = p; /* the probe the pair ends by */
        for (uint32_t q = 0; q < p; q++) {
            uint64_t bq = hive_bucket_of(v->ix, D_PROBE_HASH(h1, h2, q));
            P_SLOT *earlier = P_SUFFIX(hive_bucket)((P_SLOT *)v->slots, bq, P_S);
            P_SUFFIX(hive_scan) s;
            do {
                s = D_SCAN(v, bq, earlier, k, tag);
            } while (s.free >= 0 && !D_CLAIM(v, earlier + s.free, s.word, w, tag));
            if (s.free >= 0) {
                (void)D_RETIRE(v, bucket + i, w); /* no one else writes a slot that holds a pair here */
                moved++;
                stays = q;
                break;
            }
        }
        for (uint32_t q = 0; q < stays; q++)
            hive_mark_bucket(v, hive_bucket_of(v->ix, D_PROBE_HASH(h1, h2, q)));
    }
    return moved;
}

/* The reverse of a split (j < split under ix, the index before this merge):
 * the pairs of the partner j + base * 2^m join j, where the probe that had
 * them in the partner now leads, as many as fit.  Each that moves leaves in
 * the partner's slot a TOMB whose value is 1 + the slot of j it went to, for
 * hive_unmerge_bucket; those that do not fit stay in place, for
 * hive_rehome_bucket to place under the merged index.  Returns how many
 * stayed.  A bucket that had to leave pairs behind is full: the step's
 * REHOME puts nothing into it.  The merged bucket gets EMPTY free slots
 * only if both halves had them. */
HIVE_PROTO uint32_t D_OP(hive_merge_bucket)(P_SLOT *slots, P_GEOM_PARAM, hive_index ix, uint64_t j)
{
    P_SLOT *lo = P_SUFFIX(hive_bucket)(slots, j, P_S);
    P_SLOT *hi = P_SUFFIX(hive_bucket)(slots, j + hive_index_round(ix), P_S);
    int lo_ended, hi_ended = 0;
    uint32_t at = P_SUFFIX(hive_pack_bucket)(lo, P_GEOM_ARG, &lo_ended);
    uint32_t left = 0;
    for (uint32_t i = 0; i < P_S; i++) {
        P_SLOT w = hi[i];
        P_KEY key = P_KEY_OF(w);
        if (key == P_EMPTY)
            hi_ended = 1;
        if (P_RESERVED(key)) {
            hi[i] = P_MAKE(P_TOMB, 0);
        } else if (at < P_S) {
            lo[at] = w;
            hi[i] = P_MAKE(P_TOMB, (P_VAL)(1 + at));
            at++;
        } else {
            left++;
        }
    }
    P_SUFFIX(hive_fill_free)(lo, P_GEOM_ARG, at, lo_ended && hi_ended);
    return left;
}

/* Undoes hive_merge_bucket for a merge step that could not place every
 * pair (ix: the index before the merge), putting every pair back where R4
 * allows it: first the partner's pairs that the merge moved into j go back
 * to the partner (the TOMBs that record where they went say which); then
 * each pair left in j for which an earlier probe names the partner than
 * names j goes there while it has room.  Those are pairs that the step's
 * REHOME put into j under the merged index (only into a j that left nothing
 * behind: j and its partner then hold at most S pairs in all, so there is
 * room), and maybe pairs of j's own, which may live in either.  Every other
 * pair left in j was j's own, or put there by REHOME by a probe that names
 * j first.  Both buckets keep no EMPTY slot: j's partner was full or j had
 * been, and pairs of both may have been placed elsewhere meanwhile.
 *
 * Also right for a j whose merge never ran (a step that failed part way):
 * nothing is recorded, and j's pairs stay or go by the same rule.  Returns
 * the pairs that only the partner can hold and that found no room there
 * (never any, by the argument above; they stay in j, reported as a bug). */
HIVE_PROTO uint32_t D_OP(hive_unmerge_bucket)(P_SLOT *slots, P_GEOM_PARAM, hive_index ix, uint64_t seed,
                                               uint64_t j)
{
    uint64_t partner = j + hive_index_round(ix);
    P_SLOT *lo = P_SUFFIX(hive_bucket)(slots, j, P_S);
    P_SLOT *hi = P_SUFFIX(hive_bucket)(slots, partner, P_S);
    for (uint32_t i = 0; i < P_S; i++) {
        P_SLOT w = hi[i];
        if (P_KEY_OF(w) != P_TOMB || P_VAL_OF(w) < 1 || P_VAL_OF(w) > P_S)
            continue;
        uint32_t from = (uint32_t)(P_VAL_OF(w) - 1);
        hi[i] = P_RESERVED(P_KEY_OF(lo[from])) ? P_MAKE(P_TOMB, 0) : lo[from];
        lo[from] = P_MAKE(P_TOMB, 0);
    }
    int ended;
    uint32_t nhi = P_SUFFIX(hive_pack_bucket)(hi, P_GEOM_ARG, &ended);
    uint32_t lost = 0;
    for (uint32_t i = 0; i < P_S; i++) {
        P_KEY key = P_KEY_OF(lo[i]);
        if (P_RESERVED(key))
            continue;
        uint32_t in_lo = D_OP(hive_probe_of)(ix, seed, key, j);
        uint32_t in_hi = D_OP(hive_probe_of)(ix, seed, key, partner);
        if (in_hi >= in_lo)
            continue;
        if (nhi < P_S) {
            hi[nhi++] = lo[i];
            lo[i] = P_MAKE(P_TOMB, 0);
        } else if (in_lo == D_PROBES) {
            lost++;
        }
    }
    uint32_t nlo = P_SUFFIX(hive_pack_bucket)(lo, P_GEOM_ARG, &ended);
    P_SUFFIX(hive_fill_free)(lo, P_GEOM_ARG, nlo, 0);
    P_SUFFIX(hive_fill_free)(hi, P_GEOM_ARG, nhi, 0);
    return lost;
}

/* Where REHOME puts pair k under the merged index of `into` without moving
 * any other pair (core/resize_ops_body.h): the first free slot of its first
 * probe bucket with one, else the first TOMB in probe order (R2's and R3's
 * order, so R4 holds for it).  Returns the slot and the word it holds now,
 * or 0 (the stash is next). */
HIVE_PROTO P_SLOT *D_OP(hive_rehome_target)(const hive_view *into, P_GEOM_PARAM, P_KEY k, uint32_t h1,
                                            uint32_t h2, P_SLOT *seen)
{
    D_OP(hive_walk) wk = D_OP(hive_walk_probes)(into, P_GEOM_ARG, k, h1, h2);
    *seen = wk.free_slot ? wk.free_word : wk.tomb_word;
    return wk.free_slot ? wk.free_slot : wk.tomb;
}

#include "resize_ops_body.h"
