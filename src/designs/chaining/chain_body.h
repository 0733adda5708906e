/* chain_body.h — the chaining design's overflow store: chains of nodes from
 * the node pool (pool.h), with the functions and contracts of the shared
 * stash's (core/slot_body.h: hive_stash_in_use, hive_scan_stash,
 * hive_stash_erase, hive_stash_put), so that the probe-sequence operations
 * (core/probe_body.h) and resize steps (core/resize_ops_body.h) run over
 * them unchanged (D_OV in chaining_body.h).  One width and mode; included by
 * chaining_body.h.  No include guard.
 *
 * Who writes what, and with which order (docs/designs/chaining.md):
 *
 *  - A node is handed out once, by a fetch-and-add on the bump counter
 *    (a value past the pool's size hands out nothing), and is then private to its taker until
 *    it is linked: its slots are EMPTY (pool memory starts so, and a node is
 *    never handed out twice), its next link 0.
 *  - A writer that found no room in the chain first reserves its end: a
 *    CAS of the 0 link there (the chain's head if the chain is empty, else
 *    the next link of its last node) to HIVE_CHAIN_PENDING.  Only then does
 *    it take a node, CAS its pair into slot 0, fence (release), and write
 *    node + 1 over the reservation (or 0 back, if the pool had no node).
 *    Writers that find the end reserved wait for the link and scan the new
 *    node, so that racing writers share one new node instead of each
 *    linking a node of one pair (on a GPU, hundreds of them, which ran the
 *    pool out).  Between its reservation and the link the reserver scans
 *    the chain once more (room that appeared since its first scan comes
 *    first: it gives the reservation back) and runs the counter's CAS, and
 *    takes no lock, so the wait is short.  Links are never written again
 *    until the pool is replaced (between batches).
 *  - Readers load a link (relaxed on the GPU) and fence (acquire) before
 *    they read the node it names, so they see its pair.  A reserved link
 *    ends the chain for them: its node is not linked yet.
 *  - Slots of linked nodes follow the slot protocol: a free slot is claimed
 *    by CAS of the first free slot a scan saw (free slots stay a suffix of
 *    each node), a TOMB under the key's head lock, updates and erases in
 *    place.  Every placement of a key in a chain holds the lock of its head
 *    bucket (core/probe_body.h's R3), so no two run for one key. */

#ifdef P_TILE
/* A link word read or written once for the tile, by its first lane. */
#define C_ONE(x) ((uint32_t)hive_tile_bcast64(g, hive_tile_first(g) ? (uint64_t)(x) : 0))
#else
#define C_ONE(x) (x)
#endif

/* The first node of k's chain, as node + 1 (0: none). */
HIVE_PROTO uint32_t D_OP(hive_chain_first)(const hive_view *v, P_GEOM_PARAM, uint32_t h1, uint32_t h2)
{
    (void)P_GEOM_ARG;
    uint64_t chain = hive_chain_of(h1, h2, v->stash_buckets);
    uint32_t n = C_ONE(hive_read_u32(v->stash_used + hive_chain_head_word(chain)));
    return n == HIVE_CHAIN_PENDING ? 0 : n;
}

HIVE_PROTO uint32_t D_OP(hive_chain_next)(const hive_view *v, P_GEOM_PARAM, uint32_t node)
{
    (void)P_GEOM_ARG;
    uint32_t n = C_ONE(hive_read_u32(v->stash_used + hive_chain_next_word(v->stash_buckets, node - 1)));
    return n == HIVE_CHAIN_PENDING ? 0 : n;
}

/* Whether k may be in a chain at all: the table has a pool.  (The chain's
 * head is read by the scan itself, and an empty chain ends it there.) */
HIVE_PROTO int D_OP(hive_stash_in_use)(const hive_view *v, P_GEOM_PARAM, uint32_t h1, uint32_t h2)
{
    (void)P_GEOM_ARG;
    (void)h1;
    (void)h2;
    return v->stash_buckets != 0;
}

/* Walks k's whole chain: its slot if there, and the first TOMB or free slot
 * in chain order.  A node with a free slot does not end the walk: the walk
 * relies on no order of room between nodes, only on the chain's end. */
HIVE_PROTO P_SUFFIX(hive_stash_scan) D_OP(hive_scan_stash)(const hive_view *v, P_GEOM_PARAM, P_KEY k,
                                                           uint32_t h1, uint32_t h2)
{
    P_SUFFIX(hive_stash_scan) r;
    r.match = 0;
    r.match_word = 0;
    r.free_slot = 0;
    r.free_word = 0;
    r.free_bucket = 0;
    if (v->stash_buckets == 0)
        return r;
HIVE_NO_UNROLL
    for (uint32_t n = D_OP(hive_chain_first)(v, P_GEOM_ARG, h1, h2); n != 0;
         n = D_OP(hive_chain_next)(v, P_GEOM_ARG, n)) {
        hive_order_reads(); /* the link before the node it names (its writer fenced between) */
        P_SLOT *node = P_SUFFIX(hive_bucket)((P_SLOT *)v->stash, n - 1, P_S);
        P_SUFFIX(hive_scan) s = P_SUFFIX(hive_scan_bucket)(node, P_GEOM_ARG, k);
        if (s.match >= 0) {
            r.match = node + s.match;
            r.match_word = s.word;
            return r;
        }
        if (r.free_slot == 0 && s.tomb >= 0) {
            r.free_slot = node + s.tomb;
            r.free_word = s.tomb_word;
            r.free_bucket = n - 1;
        }
        if (r.free_slot == 0 && s.free >= 0) {
            r.free_slot = node + s.free;
            r.free_word = s.word;
            r.free_bucket = n - 1;
        }
    }
    return r;
}

/* Erases k from its chain if it is there (one CAS to TOMB).  Returns 1 if
 * erased, 0 if k is not there, -1 if its slot changed under the CAS. */
HIVE_PROTO int D_OP(hive_stash_erase)(const hive_view *v, P_GEOM_PARAM, P_KEY k, uint32_t h1, uint32_t h2)
{
    P_SUFFIX(hive_stash_scan) st = D_OP(hive_scan_stash)(v, P_GEOM_ARG, k, h1, h2);
    if (!st.match)
        return 0;
    if (P_CAS(st.match, st.match_word, P_MAKE(P_TOMB, 0)) != st.match_word)
        return -1;
    P_ADD_LIVE(v, (uint64_t)-1);
    return 1;
}

/* Takes a node from the pool: its index + 1, or 0 when every node is out
 * (the pool is full: the caller reports no room, and R7 relieves or grows
 * the table as for a full stash).  One fetch-and-add, not a CAS loop: a
 * GPU's thousands of takers of one batch would fail each other's CASes
 * (the counter passes the pool's size only by the takers that meet it
 * full, each of which adds 1 once). */
HIVE_PROTO uint32_t D_OP(hive_chain_take)(const hive_view *v, P_GEOM_PARAM)
{
    (void)P_GEOM_ARG;
    uint32_t *taken = v->stash_used + HIVE_CHAIN_TAKEN_WORD;
    if ((uint64_t)C_ONE(hive_read_u32(taken)) >= v->stash_buckets)
        return 0;
    uint32_t n = C_ONE(hive_add_u32(taken, 1u));
    return (uint64_t)n < v->stash_buckets ? n + 1 : 0;
}

/* Reserves the end of the chain whose head word is `link`, waiting out
 * another writer's reservation: returns the 0 link there, now
 * HIVE_CHAIN_PENDING. */
HIVE_PROTO uint32_t *D_OP(hive_chain_reserve)(const hive_view *v, P_GEOM_PARAM, uint32_t *link)
{
    (void)P_GEOM_ARG;
    for (unsigned round = 0;;) {
        uint32_t at = C_ONE(hive_read_u32(link));
        if (at == HIVE_CHAIN_PENDING) {
            hive_backoff(round++); /* its writer is linking a node there */
            continue;
        }
        if (at == 0) {
            if (C_ONE(hive_cas_u32(link, 0u, HIVE_CHAIN_PENDING)) == 0u)
                return link;
            continue;
        }
        link = v->stash_used + hive_chain_next_word(v->stash_buckets, at - 1);
    }
}

/* Puts k's pair in its chain (k absent; the caller holds k's head lock, or
 * no operation runs: a resize step).  The first TOMB or free slot of the
 * chain, else a new node linked at its end.  Returns 1 if placed, 0 if the
 * chain has no room and the pool no node, -1 if k is there or the slot was
 * taken meanwhile (look again). */
HIVE_PROTO int D_OP(hive_stash_put)(const hive_view *v, P_GEOM_PARAM, P_KEY k, P_SLOT pair, uint32_t h1,
                                    uint32_t h2)
{
    P_SUFFIX(hive_stash_scan) st = D_OP(hive_scan_stash)(v, P_GEOM_ARG, k, h1, h2);
    if (st.match)
        return -1;
    if (st.free_slot) {
        if (P_CAS(st.free_slot, st.free_word, pair) != st.free_word)
            return -1;
        P_ADD_LIVE(v, 1);
        return 1;
    }
    if (v->stash_buckets == 0)
        return 0;
    uint64_t chain = hive_chain_of(h1, h2, v->stash_buckets);
    uint32_t *end = D_OP(hive_chain_reserve)(v, P_GEOM_ARG, v->stash_used + hive_chain_head_word(chain));
    /* The chain cannot grow now but through us: if a writer linked a node
     * since the scan, or a slot was freed, that room comes first. */
    st = D_OP(hive_scan_stash)(v, P_GEOM_ARG, k, h1, h2);
    if (st.free_slot) {
        C_ONE(hive_cas_u32(end, HIVE_CHAIN_PENDING, 0u));
        return -1;
    }
    uint32_t n = D_OP(hive_chain_take)(v, P_GEOM_ARG);
    if (n == 0) {
        C_ONE(hive_cas_u32(end, HIVE_CHAIN_PENDING, 0u));
        return 0;
    }
    P_SLOT *node = P_SUFFIX(hive_bucket)((P_SLOT *)v->stash, n - 1, P_S);
    const P_SLOT empty = P_MAKE(P_EMPTY, (P_VAL) ~(P_VAL)0);
    P_CAS(node, empty, pair); /* the node is ours alone until it is linked */
    P_ADD_LIVE(v, 1);
    hive_fence(); /* the pair before the link that publishes it */
    C_ONE(hive_cas_u32(end, HIVE_CHAIN_PENDING, n));
    return 1;
}

#undef C_ONE
