/* universe.c — the keys of a fuzz input (universe.h). */
#include "universe.h"

#include "core/index.h"
#include "aim.h"

/* Random keys tried for the crowded ones, at most: with the target buckets
 * at least a 32nd of the table, one key in 1024 fits, so this finds about
 * 128 keys and stays under a millisecond. */
#define FZ_CROWD_TRIES (1u << 17)

/* The hash of a key's second bucket: its design's probe 1 (the Hive
 * design's b2; the double design's first two probes crowd the run, its later
 * ones fall where they may). */
static uint32_t second_hash(const ht_target *t, uint64_t hash_seed, uint64_t key)
{
    return ht_probe_hash(t, ht_key_hash(t, hash_seed, key, 1), ht_key_hash(t, hash_seed, key, 2), 1);
}

static void add_key(fz_universe *u, uint64_t key)
{
    for (size_t i = 0; i < u->n; i++)
        if (u->keys[i] == key)
            return;
    u->keys[u->n++] = key;
}

/* Half small integers (neighbours as hash inputs), an eighth edges of the
 * width, the rest uniform. */
static uint64_t plain_key(const ht_target *t, ht_rng *rng, uint64_t i)
{
    const uint64_t r = t->reserved_min;
    /* KV64: 2^32 - 1 and 2^32 - 4 are keys that KV32 reserves, and 2^32 + 1
     * differs from 1 in the high half only. */
    const uint64_t edges32[4] = {r - 1, r - 2, 0, 0x80000000u};
    const uint64_t edges64[6] = {r - 1, r - 2, 0xFFFFFFFFull, 0xFFFFFFFCull, 1ull << 32,
                                 (1ull << 32) + 1};
    switch (ht_rng_below(rng, 8)) {
    case 0: case 1: case 2: case 3: return i;
    case 4:
        return t->width == HIVE_KV32 ? edges32[ht_rng_below(rng, 4)] : edges64[ht_rng_below(rng, 6)];
    default: return ht_random_key(t, rng);
    }
}

void fz_universe_build(fz_universe *u, const ht_target *t, uint64_t hash_seed, uint64_t buckets,
                       unsigned plain, unsigned crowded, unsigned crowd_buckets, uint64_t seed)
{
    ht_rng rng;
    ht_rng_seed(&rng, seed);
    u->n = 0;
    plain = plain < FZ_PLAIN_MAX ? plain : FZ_PLAIN_MAX;
    crowded = crowded < FZ_CROWDED_MAX ? crowded : FZ_CROWDED_MAX;
    for (unsigned i = 0; i < 4 * plain && u->n < plain; i++)
        add_key(u, plain_key(t, &rng, i));
    u->plain = u->n;

    /* The crowded keys' buckets: a run of buckets of the index at creation,
     * that is one range of hash values (hive_bucket_of's high bits). */
    uint64_t want = crowd_buckets > 0 ? crowd_buckets : 1, floor = (buckets + 31) / 32;
    want = want < floor ? floor : want;
    u->crowd_buckets = want < buckets ? want : buckets;
    hive_index ix = hive_index_for(buckets);
    uint64_t first = ht_rng_below(&rng, buckets);
    for (unsigned tries = 0; tries < FZ_CROWD_TRIES && u->n < u->plain + crowded; tries++) {
        uint64_t key = ht_random_key(t, &rng);
        uint64_t b1 = hive_bucket_of(ix, ht_key_hash(t, hash_seed, key, 1));
        uint64_t b2 = hive_bucket_of(ix, second_hash(t, hash_seed, key));
        if ((b1 + buckets - first) % buckets < u->crowd_buckets &&
            (b2 + buckets - first) % buckets < u->crowd_buckets)
            add_key(u, key);
    }
}
