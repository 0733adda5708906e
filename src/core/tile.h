/* tile.h — a tile: T consecutive lanes of a warp (T a power of two, 1..32)
 * that carry out one key's operation together (CUDA only).  The first lane of
 * the tile does each atomic; the result is broadcast with a shuffle. */
#ifndef HIVE_CORE_TILE_H
#define HIVE_CORE_TILE_H

#include <stdint.h>

#include "atomics.h"
#include "index.h"

/* Bucket geometry: S slots per bucket, T lanes per key. */
typedef struct hive_geom {
    uint32_t S;
    uint32_t T;
} hive_geom;

#ifdef __CUDACC__
struct hive_view;

HIVE_PROTO uint32_t hive_tile_lane(hive_geom g) { return (threadIdx.x & 31) & (g.T - 1); }
HIVE_PROTO uint32_t hive_tile_base(hive_geom g) { return (threadIdx.x & 31) & ~(g.T - 1); }
HIVE_PROTO int hive_tile_first(hive_geom g) { return hive_tile_lane(g) == 0; }

HIVE_PROTO uint32_t hive_tile_mask(hive_geom g)
{
    return g.T == 32 ? 0xffffffffu : ((1u << g.T) - 1) << hive_tile_base(g);
}

/* The tile's lanes whose `pred` holds, as bits 0..T-1. */
HIVE_PROTO uint32_t hive_tile_ballot(hive_geom g, int pred)
{
    uint32_t all = __ballot_sync(hive_tile_mask(g), pred);
    return g.T == 32 ? all : (all >> hive_tile_base(g)) & ((1u << g.T) - 1);
}

HIVE_PROTO uint64_t hive_tile_bcast64(hive_geom g, uint64_t v)
{
    return __shfl_sync(hive_tile_mask(g), v, (int)hive_tile_base(g));
}

HIVE_PROTO uint64_t hive_tile_from64(hive_geom g, uint64_t v, uint32_t lane)
{
    return __shfl_sync(hive_tile_mask(g), v, (int)(hive_tile_base(g) + lane));
}

HIVE_PROTO int hive_tile_from32(hive_geom g, int v, uint32_t lane)
{
    return __shfl_sync(hive_tile_mask(g), v, (int)(hive_tile_base(g) + lane));
}

HIVE_PROTO void hive_tile_store64(hive_geom g, uint64_t *p, uint64_t v)
{
    if (hive_tile_first(g))
        hive_store64(p, v);
}

HIVE_PROTO uint64_t hive_tile_cas64(hive_geom g, uint64_t *p, uint64_t expected, uint64_t desired)
{
    uint64_t old = 0;
    if (hive_tile_first(g))
        old = hive_cas64(p, expected, desired);
    return hive_tile_bcast64(g, old);
}
#endif

#endif
