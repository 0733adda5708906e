/* slot.h — the slot words every design stores, and their reserved keys.
 *
 *   KV32: one 64-bit word per slot:  bits 0..31 key, bits 32..63 value
 *         (the Hive paper's packing: one 64-bit CAS publishes or retires a pair)
 *   KV64: two 64-bit words per slot: key, then value (16-byte CAS on sm_90)
 *
 * Reserved keys (the top four of each width; see hive.h):
 *   EMPTY    never used since the bucket was created or cleared.  Claims take
 *            the first EMPTY slot of a bucket only (the fill frontier), so the
 *            EMPTY slots of a bucket are always a suffix, and a bucket never
 *            regains an EMPTY slot while operations run.
 *   TOMB     erased.  Reused only by inserts that hold the lock of the new
 *            key's first bucket, or by keys being moved (see docs/design.md).
 *   MOVING   frozen by a cuckoo move: the key that was here is being copied to
 *            its second bucket.  A reader that meets MOVING and has not found
 *            its key retries.
 *   VACANT   free, in a bucket that has been full: written only while no
 *            operation runs (a split, merge or compaction), in place of the
 *            EMPTY slots such a bucket may not get back.  Claimed like EMPTY,
 *            but a lookup that meets it does not stop there (docs/design.md).
 *            A bucket's free slots are all EMPTY or all VACANT, and a suffix. */
#ifndef HIVE_CORE_SLOT_H
#define HIVE_CORE_SLOT_H

#include <assert.h>
#include <stdint.h>

#include "../base/platform.h"

/* Bytes of a slot of each width, and of the 32-byte sector that the GPU's
 * scans load at a time (4 KV32 or 2 KV64 slots a load: a bucket of S >= 4
 * slots is whole sectors) and the CPU's cache line. */
#define HIVE_SLOT32_BYTES 8
#define HIVE_SLOT64_BYTES 16
#define HIVE_SECTOR_BYTES 32
#define HIVE_CACHE_LINE_BYTES 64
static_assert(sizeof(uint64_t) == HIVE_SLOT32_BYTES, "a KV32 slot is one 64-bit word (one 8-byte CAS)");
static_assert(HIVE_SECTOR_BYTES == 4 * HIVE_SLOT32_BYTES && HIVE_SECTOR_BYTES == 2 * HIVE_SLOT64_BYTES,
              "a sector is 4 KV32 or 2 KV64 slots (designs/hive/protocol_body.h's scans)");

#define HIVE_K32_EMPTY 0xFFFFFFFFu
/* The two free kinds are the top two values, so "free" is one comparison
 * (key >= VACANT) in the scans. */
#define HIVE_K32_VACANT 0xFFFFFFFEu
#define HIVE_K32_MOVING 0xFFFFFFFDu
#define HIVE_K32_TOMB 0xFFFFFFFCu

#define HIVE_K64_EMPTY 0xFFFFFFFFFFFFFFFFull
#define HIVE_K64_VACANT 0xFFFFFFFFFFFFFFFEull
#define HIVE_K64_MOVING 0xFFFFFFFFFFFFFFFDull
#define HIVE_K64_TOMB 0xFFFFFFFFFFFFFFFCull

/* An all-ones word: a KV32 slot with key EMPTY (and value all ones).  Memory
 * filled with 0xFF bytes is an empty table of either width. */
#define HIVE_SLOT32_EMPTY 0xFFFFFFFFFFFFFFFFull

HIVE_HD int hive_k32_reserved(uint32_t key) { return key >= HIVE_K32_TOMB; }
HIVE_HD int hive_k64_reserved(uint64_t key) { return key >= HIVE_K64_TOMB; }

HIVE_HD uint64_t hive_pack32(uint32_t key, uint32_t value) { return ((uint64_t)value << 32) | key; }
HIVE_HD uint32_t hive_slot_key32(uint64_t slot) { return (uint32_t)slot; }
HIVE_HD uint32_t hive_slot_value32(uint64_t slot) { return (uint32_t)(slot >> 32); }

#endif
