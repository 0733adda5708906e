/* move_body.h — how a design moves pairs between their buckets while
 * operations run (docs/design.md R5): a displacement chain, frozen whole,
 * then copied from its end.  Shared by the Hive design's eviction
 * (designs/hive/protocol_body.h) and the cuckoo design's
 * (designs/cuckoo/evict_body.h).  Included by core/slot_body.h's users once
 * per width and mode (designs/instantiate.h).  No include guard. */

#ifndef __CUDACC__
#include "base/alloc.h" /* hive_test_move_pause */
#endif

/* One link of a displacement chain: the slot a victim is taken from. */
typedef struct P_SUFFIX(hive_link) {
    P_SLOT *slot;
    P_SLOT word; /* the victim pair as seen */
} P_SUFFIX(hive_link);

/* Carries out a displacement chain (the Hive design's hive_evict, the cuckoo
 * design's walk): moves the last victim into the free slot, each earlier
 * victim into the slot its successor left, and k into the first victim's
 * slot.  Each victim's new bucket is a later one in its probe order than the
 * one it leaves, and readers scan a key's buckets in that order, so they see
 * a moving pair in one place or the other.  Every link is frozen first (key -> MOVING), so a chain
 * is applied whole or not at all: if a link changed since it was seen, or the
 * free slot was taken, the frozen links are thawed and nothing moved.  Then
 * the copies run from the end, each visible before its source is reused (R5).
 * The caller holds the lock of bucket *held (R3); once the last victim's copy
 * is fenced, every link is frozen and visible, so the lock is released there
 * (*held becomes HIVE_LOCK_NONE) and shares that fence instead of paying one
 * of its own after the commits: an inserter of the newcomer's key that takes
 * the lock next meets the frozen first link in b1 or b2 and waits for its
 * commit (R3, R5).  Returns 1 if applied. */
HIVE_PROTO int P_SUFFIX(hive_apply_chain)(const hive_view *v, P_GEOM_PARAM, P_SUFFIX(hive_link) * chain,
                                          int depth, P_SLOT *free_slot, P_SLOT free_word, P_SLOT newcomer,
                                          uint64_t *held)
{
    (void)P_GEOM_ARG;
    int frozen = 0;
    while (frozen < depth) {
        P_SLOT ice = P_MAKE(P_MOVING, P_VAL_OF(chain[frozen].word));
        if (P_CAS(chain[frozen].slot, chain[frozen].word, ice) != chain[frozen].word)
            break;
        frozen++;
    }
    if (frozen == depth && P_CAS(free_slot, free_word, chain[depth - 1].word) == free_word) {
        hive_fence(); /* each copy is visible before its source is reused */
        P_UNLOCK_FENCED(v, *held);
        *held = HIVE_LOCK_NONE;
#ifndef __CUDACC__
        hive_test_move_pause(); /* a no-op but in the tests' build (base/alloc.h) */
#endif
        for (int i = depth - 1; i > 0; i--) {
            P_CAS(chain[i].slot, P_MAKE(P_MOVING, P_VAL_OF(chain[i].word)), chain[i - 1].word);
            hive_fence();
        }
        P_CAS(chain[0].slot, P_MAKE(P_MOVING, P_VAL_OF(chain[0].word)), newcomer);
        return 1;
    }
    while (frozen-- > 0) /* thaw */
        P_CAS(chain[frozen].slot, P_MAKE(P_MOVING, P_VAL_OF(chain[frozen].word)), chain[frozen].word);
    return 0;
}

