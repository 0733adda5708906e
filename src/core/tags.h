/* tags.h — the per-slot fingerprints of the tagged designs (WarpSpeed's
 * metadata variants: double_m, p2_m, iceberg_m).  Beside the buckets, a
 * table of such a design keeps one 16-bit tag per slot (hive_view.tags, slot
 * i of bucket b at b * S + i), and a scan reads a bucket's tags before any of
 * its slots: a slot whose tag differs from the key's fingerprint is not
 * read, so a probe for an absent key costs the tags' sector alone.
 *
 * Tags mirror the slots' reserved keys (core/slot.h): EMPTY and VACANT (the
 * two free kinds, the top two values, so "free" is one comparison), TOMB;
 * every other value is a key's fingerprint.  Memory of 0xFF bytes is empty
 * tags, as it is empty slots.  The claim protocol that keeps tags and slots
 * in step is in core/tag_body.h; docs/designs/metadata.md gives its rules. */
#ifndef HIVE_CORE_TAGS_H
#define HIVE_CORE_TAGS_H

#include <stdint.h>

#include "../base/platform.h"
#include "atomics.h"
#include "tile.h"

#define HIVE_TAG_EMPTY 0xFFFFu
#define HIVE_TAG_VACANT 0xFFFEu
#define HIVE_TAG_TOMB 0xFFFCu

/* The fingerprint of a key with bucket hashes h1 and h2: 16 bits of a mix
 * of both, so that keys of one bucket (which share h1's high bits, the
 * bucket index's) still differ in their tags.  Never a reserved tag: those
 * fold into the lower half. */
HIVE_HD uint32_t hive_tag_of(uint32_t h1, uint32_t h2)
{
    uint32_t t = ((h1 ^ (h2 >> 13) ^ (h2 << 19)) * 0x2545F491u) >> 16;
    return t >= HIVE_TAG_TOMB ? t & 0x7FFFu : t;
}

#if defined(__CUDACC__)
/* Four adjacent tags (8-byte aligned) with one load, relaxed as the slots'. */
HIVE_PROTO uint64_t hive_load_tags4(const uint16_t *p) { return hive_load64((const uint64_t *)p); }

HIVE_PROTO uint32_t hive_load_tag(const uint16_t *p)
{
    unsigned short v;
    asm volatile("ld.relaxed.gpu.global.u16 %0, [%1];" : "=h"(v) : "l"(p) : "memory");
    return v;
}

HIVE_PROTO uint32_t hive_cas_tag(uint16_t *p, uint32_t expected, uint32_t desired)
{
    return atomicCAS((unsigned short *)p, (unsigned short)expected, (unsigned short)desired);
}

HIVE_PROTO void hive_store_tag(uint16_t *p, uint32_t v)
{
    asm volatile("st.relaxed.gpu.global.u16 [%0], %1;" ::"l"(p), "h"((unsigned short)v) : "memory");
}

HIVE_PROTO void hive_tile_store_tag(hive_geom g, uint16_t *p, uint32_t v)
{
    if (hive_tile_first(g))
        hive_store_tag(p, v);
}

/* The same for a tile of lanes: the first lane acts, the tile gets its result. */
HIVE_PROTO uint32_t hive_tile_cas_tag(hive_geom g, uint16_t *p, uint32_t expected, uint32_t desired)
{
    uint32_t old = 0;
    if (hive_tile_first(g))
        old = hive_cas_tag(p, expected, desired);
    return (uint32_t)hive_tile_bcast64(g, old);
}
#else
/* The host reads tags one at a time (core/tag_body.h): ThreadSanitizer
 * models atomics of one size per address, and the CPU's scan is not bound by
 * the loads. */
HIVE_PROTO uint32_t hive_load_tag(const uint16_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }

HIVE_PROTO void hive_store_tag(uint16_t *p, uint32_t v) { __atomic_store_n(p, (uint16_t)v, __ATOMIC_RELEASE); }

HIVE_PROTO uint32_t hive_cas_tag(uint16_t *p, uint32_t expected, uint32_t desired)
{
    uint16_t e = (uint16_t)expected;
    __atomic_compare_exchange_n(p, &e, (uint16_t)desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    return e;
}
#endif

#endif
