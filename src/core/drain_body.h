/* drain_body.h — moving a pair through a design's own insert: the stash's
 * pairs back into their buckets after a resize or compaction.  Written once,
 * included by each design's resize body (thread mode) with D_OP naming that
 * design's functions, so that a pair goes where that design's rules put it.
 * No include guard: once per design and width. */

/* Moves the pair in `slot`, if any, into the table `into` through the
 * protocol (as an insert of an absent key), then makes the slot a TOMB.
 * Returns 1 if a pair moved, 0 if there was none, -1 if it found no room
 * (it stays). */
HIVE_PROTO int D_OP(hive_move_pair)(const hive_view *into, P_GEOM_PARAM, P_SLOT *slot)
{
    P_SLOT w = *slot;
    P_KEY k = P_KEY_OF(w);
    if (P_RESERVED(k))
        return 0;
    int step;
    uint32_t moves;
    if (D_OP(hive_upsert_hashed)(into, P_GEOM_ARG, k, P_VIEW_HASH1(into, k), P_VIEW_HASH2(into, k),
                                 P_VAL_OF(w), HIVE_CMB_KEEP, &step, &moves) != HIVE_R_INSERTED)
        return -1;
    *slot = P_MAKE(P_TOMB, 0);
    return 1;
}

/* Moves the stash pair in `slot`, if any, into its buckets when they have
 * room now (after splits or a compaction).  Returns 1 if it moved. */
HIVE_PROTO int D_OP(hive_drain_stash_slot)(const hive_view *v, P_GEOM_PARAM, P_SLOT *slot)
{
    hive_view buckets_only = *v;
    buckets_only.stash_buckets = 0;
    if (D_OP(hive_move_pair)(&buckets_only, P_GEOM_ARG, slot) != 1)
        return 0;
    P_ADD_LIVE(v, (uint64_t)-1);
    return 1;
}
