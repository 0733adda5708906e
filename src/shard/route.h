/* route.h — which rank owns a key: the sharded table's routing hash.
 *
 * It must be independent of the bucket hashes (hash/bithash.h): were a key's
 * owner taken from the bits that also pick its bucket, each shard would hold
 * only keys of 1/ranks of its buckets' residues and fill the rest never.  So
 * the key is first multiplied by an odd constant and offset (a bijection the
 * bucket hashes never apply), then mixed by the 64-bit finaliser, and the
 * owner is the high half scaled to [0, ranks) by a multiply (no modulo bias,
 * no division on the GPU). */
#ifndef HIVE_SHARD_ROUTE_H
#define HIVE_SHARD_ROUTE_H

#include <stdint.h>

#include "../base/platform.h"
#include "../hash/bithash.h"

HIVE_HD uint32_t shard_route(uint64_t key, uint32_t ranks)
{
    uint64_t mixed = hive_fold64(key * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull);
    return (uint32_t)(((mixed >> 32) * (uint64_t)ranks) >> 32);
}

#endif
