/* cpu_kernels_body.h — the CPU backend's loops for one key width.  Included
 * by cpu_kernels.c only, once per width, with K_* defined; it #undefs them at
 * the end.  No include guard on purpose.
 *
 *   K_SUFFIX(name)   name##_kv32 / name##_kv64 (also names the protocol's functions)
 *   K_KEY, K_VAL     the key and value types
 *   K_SLOT, K_WORDS  one slot (uint64_t / hive_u128) and its size in 64-bit words
 *   K_KEY_OF, K_VAL_OF, K_RESERVED   as in protocol.h */

static_assert(sizeof(K_SLOT) == K_WORDS * sizeof(uint64_t), "a slot is K_WORDS 64-bit words");

/* Prefetches the bucket that a key's operation reads first (R1; most stop
 * there, R4) and, if `second`, the one it reads next (the design's,
 * designs.h).  A tagged design's scan reads a bucket's tags before its
 * slots, and an absent key no slot at all: its tags are prefetched for both
 * buckets, its slots for the first only.  `design` and `tags` are the
 * view's, read once a loop.  Always inlined: GCC deems a function that
 * only prefetches pure, and drops calls to it. */
static inline __attribute__((always_inline)) void K_SUFFIX(prefetch_bucket)(const hive_view *v, uint32_t S,
                                                                            const uint16_t *tags, uint64_t b,
                                                                            int slots)
{
    size_t bucket_bytes = (size_t)S * sizeof(K_SLOT);
    const char *first = (const char *)v->slots + b * bucket_bytes;
    for (size_t line = 0; slots && line < bucket_bytes; line += HIVE_CACHE_LINE_BYTES)
        __builtin_prefetch(first + line);
    if (tags)
        __builtin_prefetch(tags + b * S);
}

/* The bucket a key's operation reads second (the design's, designs.h). */
static inline __attribute__((always_inline)) void K_SUFFIX(prefetch_second)(const hive_view *v, uint32_t S,
                                                                            uint32_t design,
                                                                            const uint16_t *tags, uint32_t h1,
                                                                            uint32_t h2)
{
    K_SUFFIX(prefetch_bucket)(v, S, tags,
                              hive_bucket_of(v->ix, design == HIVE_DESIGN_ID_HIVE
                                                        ? h2
                                                        : hive_cpu_second_hash(design, h1, h2)),
                              tags == NULL);
}

static inline __attribute__((always_inline)) void K_SUFFIX(prefetch)(const hive_view *v, uint32_t S,
                                                                     int second, uint32_t design,
                                                                     const uint16_t *tags, uint32_t h1,
                                                                     uint32_t h2)
{
    K_SUFFIX(prefetch_bucket)(v, S, tags, hive_bucket_of(v->ix, h1), 1);
    if (second)
        K_SUFFIX(prefetch_second)(v, S, design, tags, h1, h2);
}

/* One element of a batch (core/batch_body.h), on this thread. */
#define B_SUFFIX(name) K_SUFFIX(name)
#define B_KEY K_KEY
#define B_GEOM uint32_t
#define B_WRITER(geom) 1
#define B_RESERVED(k) K_RESERVED(k)
#define B_TALLY hive_cpu_tally
#define B_COUNT(t, c, n) hive_cpu_count((t), (c), (n))
#include "core/batch_body.h"

/* Element i of a batch, whose key's hashes h[] were taken when its buckets
 * were prefetched. */
static inline void K_SUFFIX(run_one)(const hive_view *v, uint32_t S, const hive_batch *b,
                                     uint64_t i, const uint32_t h[2], hive_cpu_tally *tally)
{
    if (K_SUFFIX(hive_batch_one)(v, S, b, i, hive_batch_op(b, i), h, tally, 0) == HIVE_R_REJECTED_FULL &&
        b->marks != NULL) /* for api.c's retry */
        hive_mark_set(hive_marks_unfinished(b), i);
}

/* Distance, in keys, between prefetching a key's buckets and using them:
 * far enough to cover a DRAM miss with the work of the keys in between
 * (measured: 8 to 16 are equally good, 4 and 32 are slower). */
#define K_PREFETCH_AHEAD 12
/* Hashes of the keys whose buckets are in flight, computed once when they
 * are prefetched: a power of two above K_PREFETCH_AHEAD. */
#define K_RING 16

static void K_SUFFIX(run_range_plain)(const hive_view *v, uint32_t S, int second, const hive_batch *b,
                                      uint64_t begin, uint64_t end, hive_cpu_tally *tally)
{
    const K_KEY *keys = b->keys;
    /* Read once: the operations' writes could alias the view for all the
     * compiler knows. */
    const uint32_t design = v->design;
    const uint16_t *tags = v->tags;
    uint32_t ring[K_RING][2];
    uint64_t warm = end - begin < K_PREFETCH_AHEAD ? end : begin + K_PREFETCH_AHEAD;
    for (uint64_t i = begin; i < warm; i++) {
        uint32_t *h = ring[i % K_RING];
        h[0] = K_SUFFIX(hive_hash1)(v, keys[i]);
        h[1] = K_SUFFIX(hive_hash2)(v, keys[i]);
        K_SUFFIX(prefetch)(v, S, second, design, tags, h[0], h[1]);
    }
    for (uint64_t i = begin; i < end; i++) {
        if (i + K_PREFETCH_AHEAD < end) {
            uint32_t *h = ring[(i + K_PREFETCH_AHEAD) % K_RING];
            h[0] = K_SUFFIX(hive_hash1)(v, keys[i + K_PREFETCH_AHEAD]);
            h[1] = K_SUFFIX(hive_hash2)(v, keys[i + K_PREFETCH_AHEAD]);
            K_SUFFIX(prefetch)(v, S, second, design, tags, h[0], h[1]);
        }
        K_SUFFIX(run_one)(v, S, b, i, ring[i % K_RING], tally);
    }
}

/* A batch of finds alone, in two stages: each key's first bucket alone is
 * prefetched, K_PREFETCH_AHEAD keys ahead, and scanned; a key that its
 * first bucket neither holds nor rules out (R4; a probe design's walk that
 * goes on past its first probe) has its second bucket fetched then, and
 * waits in a queue whose oldest entry reads it once K_SECOND_WAIT keys wait
 * behind it (measured: 4 to 12 equally good).  At load 0.9 about four
 * present keys in five sit in their first bucket of the Hive design (a
 * first-fit simulation: 81%), so a find of a present key fetches about 1.2
 * buckets instead of 2, each a line that a table beyond the last-level
 * cache reads from DRAM.  The Hive design's find is split in two
 * (designs/hive/protocol_body.h); a probe design's first part is its first
 * bucket's scan, and its second the walk on from its second probe
 * (core/probe_body.h). */
#define K_SECOND_WAIT 8
#define K_SECOND_RING 16 /* a power of two above K_SECOND_WAIT */

/* Element i's find answered r (value val where found): every output. */
static inline void K_SUFFIX(answer_find)(const hive_batch *b, uint64_t i, int r, K_VAL val)
{
    K_SUFFIX(hive_batch_find_outputs)(b, i, r, val);
    if (b->results != NULL)
        b->results[i] = (uint8_t)r;
}

/* The first part of key k's find, over its first bucket: HIVE_R_FOUND (value
 * in *val) or HIVE_R_NOT_FOUND where that bucket settles it, else -1 and, in
 * *first, the HIVE_FIRST_* flags the second part needs. */
static inline int K_SUFFIX(find_first_part)(const hive_view *v, uint32_t S, uint32_t design, K_KEY k,
                                            uint32_t h1, uint32_t h2, uint32_t *first, K_VAL *val)
{
    hive_design_outcome o;
    switch (design) {
    case HIVE_DESIGN_ID_HIVE: {
        K_SUFFIX(hive_scan) s1 = HIVE_PASTE(K_SUFFIX(hive_find_first), _hive)(v, S, k, h1);
        *val = K_VAL_OF(s1.word);
        *first = s1.moving ? HIVE_FIRST_MOVING : 0u;
        return s1.match >= 0 ? HIVE_R_FOUND : s1.ended ? HIVE_R_NOT_FOUND : -1;
    }
#define X(ID, design)                                                                   \
    case HIVE_DESIGN_ID_##ID:                                                           \
        o = HIVE_PASTE(K_SUFFIX(hive_find_first_call), _##design)(*v, S, k, h1, h2);    \
        break;
        HIVE_PROBE_DESIGNS(X)
#undef X
    default:
        *first = 0;
        return -1;
    }
    *val = (K_VAL)o.val;
    *first = o.moves;
    return o.r;
}

/* The second part of element i's find, and its outputs: for the Hive design
 * hive_find_second, and where a frozen slot hid the key the whole find
 * again; for a probe design the walk on from its second probe
 * (hive_find_after_first, which does the same). */
static inline void K_SUFFIX(finish_find)(const hive_view *v, uint32_t S, const hive_batch *b, uint64_t i,
                                         uint32_t h1, uint32_t h2, uint32_t first)
{
    K_KEY k = ((const K_KEY *)b->keys)[i];
    K_VAL val = 0;
    int r = -1;
    hive_design_outcome o;
    switch (v->design) {
    case HIVE_DESIGN_ID_HIVE: {
        int moving = (first & HIVE_FIRST_MOVING) != 0;
        r = HIVE_PASTE(K_SUFFIX(hive_find_second), _hive)(v, S, k, h1, h2, &moving, &val);
        if (r != HIVE_R_FOUND && moving)
            r = K_SUFFIX(hive_find_hashed)(v, S, k, h1, h2, &val);
        break;
    }
#define X(ID, design)                                                                          \
    case HIVE_DESIGN_ID_##ID:                                                                  \
        o = HIVE_PASTE(K_SUFFIX(hive_find_after_first_call), _##design)(*v, S, k, h1, h2, first); \
        r = o.r;                                                                               \
        val = (K_VAL)o.val;                                                                    \
        break;
        HIVE_PROBE_DESIGNS(X)
#undef X
    default:
        r = K_SUFFIX(hive_find_hashed)(v, S, k, h1, h2, &val);
    }
    K_SUFFIX(answer_find)(b, i, r, val);
}

static void K_SUFFIX(run_finds_split)(const hive_view *v, uint32_t S, const hive_batch *b, uint64_t begin,
                                      uint64_t end, hive_cpu_tally *tally)
{
    const K_KEY *keys = b->keys;
    /* Read once: the outputs' writes could alias the view for all the
     * compiler knows. */
    const uint32_t design = v->design;
    const uint16_t *tags = v->tags;
    uint32_t ring[K_RING]; /* hash 1 of the keys whose first buckets are in flight */
    struct {
        uint64_t i;
        uint32_t h1, h2;
        uint32_t first; /* what the first part saw (HIVE_FIRST_*) */
    } queue[K_SECOND_RING];
    uint64_t head = 0, tail = 0;
    uint64_t warm = end - begin < K_PREFETCH_AHEAD ? end : begin + K_PREFETCH_AHEAD;
    for (uint64_t i = begin; i < warm; i++) {
        ring[i % K_RING] = K_SUFFIX(hive_hash1)(v, keys[i]);
        K_SUFFIX(prefetch_bucket)(v, S, tags, hive_bucket_of(v->ix, ring[i % K_RING]), 1);
    }
    for (uint64_t i = begin; i < end; i++) {
        if (i + K_PREFETCH_AHEAD < end) {
            uint32_t *h1 = &ring[(i + K_PREFETCH_AHEAD) % K_RING];
            *h1 = K_SUFFIX(hive_hash1)(v, keys[i + K_PREFETCH_AHEAD]);
            K_SUFFIX(prefetch_bucket)(v, S, tags, hive_bucket_of(v->ix, *h1), 1);
        }
        K_KEY k = keys[i];
        /* Hash 2 where the first part needs it (a probe design's first probe
         * may), else once the key goes on to its second bucket. */
        uint32_t h[2] = {ring[i % K_RING], 0};
        if (design != HIVE_DESIGN_ID_HIVE || K_RESERVED(k))
            h[1] = K_SUFFIX(hive_hash2)(v, k);
        if (K_RESERVED(k)) {
            K_SUFFIX(run_one)(v, S, b, i, h, tally);
        } else {
            uint32_t first = 0;
            K_VAL val = 0;
            int r = K_SUFFIX(find_first_part)(v, S, design, k, h[0], h[1], &first, &val);
            if (r >= 0) {
                K_SUFFIX(answer_find)(b, i, r, val);
            } else {
                if (design == HIVE_DESIGN_ID_HIVE)
                    h[1] = K_SUFFIX(hive_hash2)(v, k);
                K_SUFFIX(prefetch_second)(v, S, design, tags, h[0], h[1]);
                /* A key that its first bucket does not rule out reads the
                 * design's third bucket too where it is absent: fetched now. */
                uint32_t third;
                if (hive_design_third_hash(design, h[0], h[1], &third))
                    K_SUFFIX(prefetch_bucket)(v, S, NULL, hive_bucket_of(v->ix, third), 1);
                uint64_t q = tail++ % K_SECOND_RING;
                queue[q].i = i;
                queue[q].h1 = h[0];
                queue[q].h2 = h[1];
                queue[q].first = first;
            }
        }
        if (tail - head > K_SECOND_WAIT) {
            uint64_t q = head++ % K_SECOND_RING;
            K_SUFFIX(finish_find)(v, S, b, queue[q].i, queue[q].h1, queue[q].h2, queue[q].first);
        }
    }
    for (; head < tail; head++) {
        uint64_t q = head % K_SECOND_RING;
        K_SUFFIX(finish_find)(v, S, b, queue[q].i, queue[q].h1, queue[q].h2, queue[q].first);
    }
}

/* The plain loop, or for a batch of finds alone the split one. */
static void K_SUFFIX(run_range_unfiltered)(const hive_view *v, uint32_t S, int second, const hive_batch *b,
                                           uint64_t begin, uint64_t end, hive_cpu_tally *tally)
{
    if (b->ops == NULL && b->op == HIVE_OP_FIND)
        K_SUFFIX(run_finds_split)(v, S, b, begin, end, tally);
    else
        K_SUFFIX(run_range_plain)(v, S, second, b, begin, end, tally);
}

/* The loop with an absent-key filter (cpu_filter.h) runs three stages
 * apart: an element's filter word is fetched (where it is a find, or may
 * insert) K_FILTER_LAG keys before that word is read and its buckets are
 * fetched, which is K_PREFETCH_AHEAD keys before it runs.  A word takes
 * longer to come than a bucket: it is read before the buckets are asked
 * for, and where it rules a find's key out they never are. */
#define K_FILTER_LAG 16
#define K_FILTER_RING 32 /* a power of two above K_FILTER_LAG + K_PREFETCH_AHEAD */
/* A word read pays where finds miss (it stands for two buckets' lines) and
 * costs a line where they hit.  So once K_FILTER_SAMPLE words in a row let
 * two thirds or more of their finds through, the next K_FILTER_QUIET
 * elements read none, then the loop samples again: a batch of finds alone
 * runs them in the plain loop (run_range); in any other, the filtered loop
 * goes on, their finds fetching their buckets at once, so that elements
 * that may insert still set their bits (F1). */
#define K_FILTER_SAMPLE 64
#define K_FILTER_QUIET 4096

/* A find whose filter word rules its key out gets an absent key's outputs
 * (as core/batch_body.h writes them) without reading a bucket; an element
 * that may insert sets its key's bits before it runs (F1).  Returns where
 * it stopped: `end`, or, in a batch of finds alone whose words let most
 * through, the element after the last it ran. */
static uint64_t K_SUFFIX(run_range_filtered)(const hive_view *v, uint32_t S, int second,
                                             const hive_cpu_filter *f, const hive_batch *b, uint64_t begin,
                                             uint64_t end, hive_cpu_tally *tally)
{
    const K_KEY *keys = b->keys;
    const uint32_t design = v->design;
    const uint16_t *tags = v->tags;
    const uint64_t seed = hive_view_seed(v);
    struct {
        uint32_t h[2]; /* the bucket hashes: a screened find's only once its word lets it through */
        hive_cpu_filter_spot spot;
        int screened; /* a find of an unreserved key: its filter word decides whether it runs */
        int adds;     /* an insert or upsert of an unreserved key: it sets its bits (F1) */
        int pass;     /* it runs */
    } ring[K_FILTER_RING];
    const uint64_t lag = K_FILTER_LAG, lead = K_FILTER_LAG + K_PREFETCH_AHEAD;
    const int finds_only = b->ops == NULL && b->op == HIVE_OP_FIND;
    uint64_t quiet_until = begin; /* elements entering before it are not screened */
    uint64_t stop = end;          /* elements from it on do not enter */
    uint32_t sampled = 0, passed = 0;
    /* Step j: element j enters, element j - lag reads its word and has its
     * buckets fetched, element j - lead runs. */
    for (uint64_t j = begin; j < stop + lead; j++) {
        if (j < stop) {
            uint64_t e = j % K_FILTER_RING;
            K_KEY k = keys[j];
            int op = hive_batch_op(b, j), reserved = K_RESERVED(k);
            ring[e].screened = op == HIVE_OP_FIND && !reserved && j >= quiet_until;
            ring[e].adds = (op == HIVE_OP_INSERT || op == HIVE_OP_UPSERT) && !reserved;
            ring[e].pass = 1;
            if (ring[e].screened || ring[e].adds) {
                ring[e].spot = hive_cpu_filter_spot_of(f, hive_cpu_filter_hash(k, seed));
                __builtin_prefetch(ring[e].spot.word);
            }
            if (!ring[e].screened) {
                ring[e].h[0] = K_SUFFIX(hive_hash1)(v, k);
                ring[e].h[1] = K_SUFFIX(hive_hash2)(v, k);
            }
        }
        if (j >= begin + lag && j - lag < stop) {
            uint64_t e = (j - lag) % K_FILTER_RING;
            if (ring[e].screened) {
                ring[e].pass = hive_cpu_filter_may_hold(ring[e].spot);
                if (ring[e].pass) { /* the bucket hashes of a find the word lets through */
                    ring[e].h[0] = K_SUFFIX(hive_hash1)(v, keys[j - lag]);
                    ring[e].h[1] = K_SUFFIX(hive_hash2)(v, keys[j - lag]);
                }
                passed += (uint32_t)ring[e].pass;
                if (++sampled == K_FILTER_SAMPLE) {
                    if (3 * passed >= 2 * sampled) {
                        if (finds_only && j + 1 < stop)
                            stop = j + 1; /* the elements in flight run; the rest are run_range's */
                        else
                            quiet_until = j + 1 + K_FILTER_QUIET;
                    }
                    sampled = passed = 0;
                }
            }
            if (ring[e].pass)
                K_SUFFIX(prefetch)(v, S, second, design, tags, ring[e].h[0], ring[e].h[1]);
        }
        if (j < begin + lead)
            continue;
        uint64_t i = j - lead, e = i % K_FILTER_RING;
        if (!ring[e].pass) {
            if (b->found != NULL)
                b->found[i] = 0;
            if (b->results != NULL)
                b->results[i] = (uint8_t)HIVE_R_NOT_FOUND;
            continue;
        }
        if (ring[e].adds)
            hive_cpu_filter_add(ring[e].spot);
        K_SUFFIX(run_one)(v, S, b, i, ring[e].h, tally);
    }
    return stop;
}

static void K_SUFFIX(run_range)(const hive_view *v, uint32_t S, int second, const hive_cpu_filter *filter,
                                const hive_batch *b, uint64_t begin, uint64_t end, hive_cpu_tally *tally)
{
    if (filter == NULL || filter->words == NULL) {
        K_SUFFIX(run_range_unfiltered)(v, S, second, b, begin, end, tally);
        return;
    }
    /* Where the filtered loop stops (finds alone, most let through), the
     * next K_FILTER_QUIET of them run in the plain loop. */
    for (uint64_t at = begin; at < end;) {
        at = K_SUFFIX(run_range_filtered)(v, S, second, filter, b, at, end, tally);
        uint64_t quiet = end - at < K_FILTER_QUIET ? end : at + K_FILTER_QUIET;
        if (at < quiet)
            K_SUFFIX(run_range_unfiltered)(v, S, second, b, at, quiet, tally);
        at = quiet;
    }
}

/* Whether element i of a batch counts for count_new_range: an insert-type
 * or erase element whose key is not reserved. */
static inline int K_SUFFIX(counts_new)(const hive_batch *b, uint64_t i)
{
    unsigned op = b->ops ? b->ops[i] : (unsigned)b->op;
    return (op == HIVE_OP_INSERT || op == HIVE_OP_UPSERT || op == HIVE_OP_ERASE) &&
           !K_RESERVED(((const K_KEY *)b->keys)[i]);
}

/* A lookup of each element that counts (counts_new), their buckets
 * prefetched K_PREFETCH_AHEAD of them ahead as run_range does; the finds of a
 * mixed batch are skipped, not prefetched. */
static int64_t K_SUFFIX(count_new_range)(const hive_view *v, uint32_t S, int second, const hive_batch *b,
                                         uint64_t begin, uint64_t end)
{
    const K_KEY *keys = b->keys;
    const uint32_t design = v->design;
    const uint16_t *tags = v->tags;
    uint64_t at[K_RING];
    uint32_t ring[K_RING][2];
    uint64_t next = begin, head = 0, tail = 0;
    int64_t net = 0;
    for (;;) {
        for (; next < end && tail - head < K_PREFETCH_AHEAD; next++) {
            if (!K_SUFFIX(counts_new)(b, next))
                continue;
            uint32_t *h = ring[tail % K_RING];
            h[0] = K_SUFFIX(hive_hash1)(v, keys[next]);
            h[1] = K_SUFFIX(hive_hash2)(v, keys[next]);
            K_SUFFIX(prefetch)(v, S, second, design, tags, h[0], h[1]);
            at[tail++ % K_RING] = next;
        }
        if (head == tail)
            return net;
        uint64_t i = at[head % K_RING];
        const uint32_t *h = ring[head++ % K_RING];
        K_VAL val;
        int found = K_SUFFIX(hive_find_hashed)(v, S, keys[i], h[0], h[1], &val) == HIVE_R_FOUND;
        unsigned op = b->ops ? b->ops[i] : (unsigned)b->op;
        if (op == HIVE_OP_ERASE)
            net -= found;
        else
            net += !found;
    }
}

/* One resize op (designs/hive/resize_body.h) over [begin, end); returns the sum of
 * what it counts. */
static uint64_t K_SUFFIX(resize_range)(hive_resize_op op, const hive_view *v, const hive_view *to,
                                       uint32_t S, hive_index ix, uint64_t begin, uint64_t end)
{
    uint64_t r = 0;
    for (uint64_t i = begin; i < end; i++)
        r += K_SUFFIX(hive_resize_one)(op, v, to, S, ix, i);
    return r;
}

static void K_SUFFIX(filter_range)(const hive_cpu_store *s, const hive_view *v, uint32_t S,
                                   const hive_cpu_filter *filter, uint64_t begin, uint64_t end)
{
    const uint64_t seed = hive_view_seed(v);
    for (uint64_t i = begin; i < end; i++) {
        const K_SLOT *bucket = (const K_SLOT *)hive_cpu_source_bucket(s, i, (uint64_t)S * K_WORDS);
        for (uint32_t j = 0; j < S; j++) {
            K_KEY k = K_KEY_OF(bucket[j]);
            if (!K_RESERVED(k))
                hive_cpu_filter_add(hive_cpu_filter_spot_of(filter, hive_cpu_filter_hash(k, seed)));
        }
    }
}

static uint64_t K_SUFFIX(export_pairs)(const hive_cpu_store *s, uint32_t S, void *keys_out,
                                       void *values_out, uint64_t capacity)
{
    K_KEY *keys = keys_out;
    K_VAL *values = values_out;
    uint64_t count = 0;
    for (uint64_t i = 0; i < s->buckets + s->stash_buckets; i++) {
        const K_SLOT *bucket = (const K_SLOT *)hive_cpu_source_bucket(s, i, (uint64_t)S * K_WORDS);
        for (uint32_t j = 0; j < S; j++) {
            K_KEY k = K_KEY_OF(bucket[j]);
            if (K_RESERVED(k))
                continue;
            if (count < capacity) {
                keys[count] = k;
                values[count] = K_VAL_OF(bucket[j]);
            }
            count++;
        }
    }
    return count;
}

const hive_cpu_kernels K_SUFFIX(hive_cpu_kernels) = {
    .run_range = K_SUFFIX(run_range),
    .count_new_range = K_SUFFIX(count_new_range),
    .resize_range = K_SUFFIX(resize_range),
    .filter_range = K_SUFFIX(filter_range),
    .export_pairs = K_SUFFIX(export_pairs),
};

#undef K_PREFETCH_AHEAD
#undef K_SECOND_WAIT
#undef K_SECOND_RING
#undef K_FILTER_LAG
#undef K_FILTER_RING
#undef K_RING
#undef K_SUFFIX
#undef K_KEY
#undef K_VAL
#undef K_SLOT
#undef K_WORDS
#undef K_KEY_OF
#undef K_VAL_OF
#undef K_RESERVED
