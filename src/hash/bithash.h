/* bithash.h — the two bucket hashes of the Hive paper (§III-C), and their
 * 64-bit-key counterparts.
 *
 * BitHash1 is a shift/add/xor avalanche in the style of Thomas Wang's 32-bit
 * integer hash; BitHash2 is a six-round add/xor/shift mix in the style of Bob
 * Jenkins' 32-bit integer hash.  Written from the paper's description and
 * constants.  Both return the full 32-bit hash: the bucket index is taken from
 * it by the linear-hashing rule of core/index.h, never by `%`, so that a split
 * can tell from one more bit where a key goes.
 *
 * 64-bit keys are first folded through a 64-bit finaliser (multiply-xorshift,
 * the constants of MurmurHash3's fmix64) so that every key bit reaches both
 * 32-bit halves, then each half goes through one of the BitHashes.
 *
 * A table's bucket hashes are seeded (hive_config.hash_seed): the seed is
 * xored into the key before the hashes above, so that keys chosen to collide
 * under one seed (they need the hash's exact inputs) spread under another,
 * at the cost of one xor per hash.  A KV32 key takes the seed's low half
 * into its first hash and its high half into its second; a KV64 key takes
 * the whole seed before the fold.  Seed 0 leaves every hash as unseeded. */
#ifndef HIVE_HASH_BITHASH_H
#define HIVE_HASH_BITHASH_H

#include <stdint.h>

#include "../base/platform.h"

HIVE_HD uint32_t hive_bithash1(uint32_t key)
{
    key = ~key + (key << 15);
    key ^= key >> 12;
    key += key << 2;
    key ^= key >> 4;
    key *= 2057u;
    key ^= key >> 16;
    return key;
}

HIVE_HD uint32_t hive_bithash2(uint32_t key)
{
    key = (key + 0x7ed55d16u) + (key << 12);
    key = (key ^ 0xc761c23cu) ^ (key >> 19);
    key = (key + 0x165667b1u) + (key << 5);
    key = (key + 0xd3a2646cu) ^ (key << 9);
    key = (key + 0xfd7046c5u) + (key << 3);
    key = (key ^ 0xb55a4f09u) ^ (key >> 16);
    return key;
}

HIVE_HD uint64_t hive_fold64(uint64_t key)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    key *= 0xc4ceb9fe1a85ec53ull;
    key ^= key >> 33;
    return key;
}

/* The two bucket hashes of a table with seed `seed`, for each key width. */
HIVE_HD uint32_t hive_hash1_k32(uint32_t key, uint64_t seed)
{
    return hive_bithash1(key ^ (uint32_t)seed);
}

HIVE_HD uint32_t hive_hash2_k32(uint32_t key, uint64_t seed)
{
    return hive_bithash2(key ^ (uint32_t)(seed >> 32));
}

HIVE_HD uint32_t hive_hash1_k64(uint64_t key, uint64_t seed)
{
    return hive_bithash1((uint32_t)hive_fold64(key ^ seed));
}

HIVE_HD uint32_t hive_hash2_k64(uint64_t key, uint64_t seed)
{
    return hive_bithash2((uint32_t)(hive_fold64(key ^ seed) >> 32));
}

#endif
