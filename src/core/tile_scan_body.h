/* tile_scan_body.h — the tile version of hive_scan_bucket, included by
 * core/slot_body.h when P_TILE is set.  Lane r of the tile loads slots
 * r*S/T .. (r+1)*S/T - 1 (16-byte loads when it has two or more), finds its
 * own first match / free slot / TOMB, and ballots pick the tile's first of each
 * (the paper's WCME match-and-elect; the free-slot ballot is WABC's free mask,
 * read from the slots themselves).  No include guard: once per instantiation. */
HIVE_PROTO P_SUFFIX(hive_scan) P_SUFFIX(hive_scan_bucket)(const P_SLOT *bucket, P_GEOM_PARAM, P_KEY k)
{
    uint32_t per = g.S / g.T;
    uint32_t first = hive_tile_lane(g) * per;
    const P_SLOT *mine = bucket + first;
    int match = -1, first_free = -1, tomb = -1, moving = 0, ended = 0;
    P_SLOT match_word = 0, tomb_word = 0;
#define HIVE_TILE_CLASSIFY(w, idx)              \
    do {                                        \
        P_KEY key_ = P_KEY_OF(w);               \
        if (key_ == k) {                        \
            if (match < 0) {                    \
                match = (int)(idx);             \
                match_word = (w);               \
            }                                   \
        } else if (key_ >= P_VACANT) {          \
            if (first_free < 0)                 \
                first_free = (int)(idx);        \
            ended |= key_ == P_EMPTY;           \
        } else if (key_ == P_TOMB) {            \
            if (tomb < 0) {                     \
                tomb = (int)(idx);              \
                tomb_word = (w);                \
            }                                   \
        } else if (key_ == P_MOVING) {          \
            moving = 1;                         \
        }                                       \
    } while (0)
    if (per == 1) {
        P_SLOT w = P_LOAD(mine);
        HIVE_TILE_CLASSIFY(w, first);
    } else {
#pragma unroll 4
        for (uint32_t i = 0; i < per; i += 2) {
            P_SLOT a, b;
            hive_load64x2(mine + i, &a, &b);
            HIVE_TILE_CLASSIFY(a, first + i);
            HIVE_TILE_CLASSIFY(b, first + i + 1);
        }
    }
#undef HIVE_TILE_CLASSIFY
    P_SUFFIX(hive_scan) s;
    s.match = s.free = s.tomb = -1;
    s.word = s.tomb_word = 0;
    s.moving = hive_tile_ballot(g, moving) != 0;
    uint32_t m = hive_tile_ballot(g, match >= 0);
    if (m) {
        uint32_t src = (uint32_t)__ffs(m) - 1;
        s.match = hive_tile_from32(g, match, src);
        s.word = hive_tile_from64(g, match_word, src);
    }
    s.ended = hive_tile_ballot(g, ended) != 0;
    uint32_t e = hive_tile_ballot(g, first_free >= 0);
    if (e) {
        s.free = hive_tile_from32(g, first_free, (uint32_t)__ffs(e) - 1);
        if (!m) /* free slots hold all-ones values, all of one kind */
            s.word = P_MAKE(s.ended ? P_EMPTY : P_VACANT, (P_VAL)~(P_VAL)0);
    }
    uint32_t t = hive_tile_ballot(g, tomb >= 0);
    if (t) {
        uint32_t src = (uint32_t)__ffs(t) - 1;
        s.tomb = hive_tile_from32(g, tomb, src);
        s.tomb_word = hive_tile_from64(g, tomb_word, src);
    }
    return s;
}
