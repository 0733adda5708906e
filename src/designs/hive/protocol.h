/* protocol.h — the Hive design: its rules, and the constants of its
 * operations (protocol_body.h) and of their outcomes.
 *
 * Every operation on one key, as a function of one thread: the CPU backend
 * calls these from its worker threads, the CUDA backend from one GPU thread
 * per key.  Both widths come from one body (protocol_body.h) included once
 * per width by designs/designs.h, with the slot type and its accessors
 * #defined, over the slot protocol that every design shares (core/view.h,
 * core/slot_body.h).  docs/design.md explains the rules below and why they
 * keep the table free of duplicates and lost keys; docs/designs/hive.md
 * summarises them beside the other designs'.
 *
 *   table  = buckets of S slots (S = 4..32, a power of two), plus a stash of
 *            stash_buckets buckets of S slots, plus one lock bit per bucket.
 *
 *   bucket b:  [ k v | k v | TOMB | k v | EMPTY | EMPTY ]   (S slots)
 *                ^^^^^^^^^^^^^^^^^^^^^^^^  ^^^^^^^^^^^^^
 *                used (live, erased, frozen)  free: always a suffix, all EMPTY
 *                                             (never full) or all VACANT
 *
 * Rules (each one is a reason in design.md):
 *  R1  A key has two buckets, b1 = bucket_of(hash1) and b2 = bucket_of(hash2).
 *  R2  Lock-free, a new key may only take the first free slot (EMPTY or
 *      VACANT) of its b1 -- when that slot is VACANT, only after finding k in
 *      neither b2 nor the stash -- or, once b1 has no free slot, the first
 *      free slot of its b2 (one CAS free -> pair).  Free slots never come
 *      back while operations run.
 *  R3  Any other placement of a new key k (a TOMB, cuckoo, stash) happens
 *      only once neither bucket has a free slot, while holding the lock of
 *      b1(k), after re-checking that k is absent.  Together with R2 this makes
 *      duplicates impossible.
 *  R4  Hence: if b1(k) has an EMPTY slot (it has never been full), k is
 *      neither in b2(k) nor in the stash; if b2(k) has one, k is not in the
 *      stash.  Finds of absent keys mostly stop after one bucket.  A VACANT
 *      slot says nothing of the kind: its bucket was full once.
 *  R5  Cuckoo eviction moves a key only from its b1 to its b2, copy first:
 *      freeze the slot (key -> MOVING), CAS the pair into b2, then overwrite
 *      the frozen slot.  Readers scan b1 before b2, so they see the key in
 *      one place or the other; one that meets MOVING without finding its key
 *      retries.  A frozen pair cannot be updated or erased meanwhile.
 *  R6  Updates and erases are one CAS on the slot that holds the key.
 *  R8  Resizing runs while no operation does (resize_body.h): a split or
 *      merge moves keys only between a bucket and its linear-hashing partner,
 *      and a bucket that had no EMPTY slot gets VACANT, never EMPTY, slots,
 *      so R4 stays true for keys left in their second bucket or the stash.
 */
#ifndef HIVE_CORE_PROTOCOL_H
#define HIVE_CORE_PROTOCOL_H

#include <stdint.h>

#include "../../hash/bithash.h"
#include "../../core/atomics.h"
#include "../../base/platform.h"
#include "../../core/combine.h"
#include "../../core/index.h"
#include "../../core/outcome.h"
#include "../../core/resize_plan.h"
#include "../../core/slot.h"
#include "../../core/tile.h"
#include "../../core/view.h"
#include "probe.h"

/* Insert steps (hive_stats.insert_steps). */
#define HIVE_STEP_REPLACE 0
#define HIVE_STEP_CLAIM 1
#define HIVE_STEP_EVICT 2
#define HIVE_STEP_STASH 3

/* Longest cuckoo chain a thread records (config.max_evictions is clamped). */
#define HIVE_MAX_CHAIN 32
/* Candidates whose rooms the eviction search reads together (it divides S).
 * Two, not four: the deferred launches are bound by their random DRAM reads,
 * and a group stops at the first with room (H100: 1 -2%, 2 +1% against 4;
 * docs/perf.md, "Eviction search"). */
#define HIVE_NEAR_GROUP 2
/* Room for a pair that eviction moves into its second bucket: a frontier
 * (the bucket's last slot free, R2), or a TOMB in it.  Erases leave TOMBs,
 * so in a table kept near its load bound by erases and inserts most of the
 * room is TOMBs, and a search for frontiers alone reads dozens of buckets
 * to find none.  TOMBs are looked for where they cost what the last slot
 * does: on the host, in buckets of up to HIVE_ROOM_BYTES (the adjacent-line
 * prefetch brings the second of two lines); on the GPU, in a KV32 bucket of
 * one sector, and in the last sector of a KV64 bucket (its last two slots;
 * reading both sectors cost fills 8-15%, docs/perf.md).  Tiles read the
 * last slot alone (protocol_body.h, D_ROOM_TOMBS). */
#define HIVE_ROOM_BYTES 128u
/* Levels of the breadth-first eviction search (hive_evict_near) that an
 * insert's locked path runs: one move (a pair of b1 or b2 straight to its
 * second bucket), two moves (through a pair of that bucket; this level also
 * checks each candidate's own room, and goes on to the walk and the stash).
 * The GPU's short deferred launch runs the first only, the deep launch the
 * second only (the first found nothing moments before); the rest run both. */
#define HIVE_EVICT_ONE_MOVE 1
#define HIVE_EVICT_TWO_MOVES 2
#define HIVE_EVICT_ALL (HIVE_EVICT_ONE_MOVE | HIVE_EVICT_TWO_MOVES)
/* Times an insert looks for a new chain after others broke its chains. */
#define HIVE_EVICT_RETRIES 16
#endif
