/* marks.h — the bits a batch that may insert keeps per key when its caller
 * passed no result bytes (hive_batch.marks, core/launch.h: the backend's own
 * scratch, which api never sees; with result bytes, the codes
 * HIVE_R_DEFER, HIVE_R_DEFER_DEEP and HIVE_R_REJECTED_FULL there say the
 * same).  Two rows of HIVE_MARK_WORDS(n) words, bit i%32 of word i/32 for
 * key i:
 *
 *   deferred row    (CUDA only) the insert pass left key i to the locked path;
 *                   the pass writes whole words, one ballot per warp
 *   unfinished row  key i is not done: the short locked launch left it to the
 *                   deep one (CUDA), or it was rejected for room (every
 *                   backend).  After a batch, the keys the backend's
 *                   retry_full runs again once api has made room.
 *
 * Bits rather than result bytes of the call's own: its scratch is n/4 bytes
 * instead of n, which is what the first call into a fresh table maps, what
 * the insert pass writes and what the deferred launches scan (2^26 keys: 16 MB
 * against 67). */
#ifndef HIVE_CORE_MARKS_H
#define HIVE_CORE_MARKS_H

#include <stdint.h>

#include "atomics.h"
#include "launch.h"

#define HIVE_MARK_WORDS(n) (((n) + 31) / 32)

HIVE_PROTO uint32_t *hive_marks_deferred(const hive_batch *b) { return b->marks; }

HIVE_PROTO uint32_t *hive_marks_unfinished(const hive_batch *b) { return b->marks + HIVE_MARK_WORDS(b->n); }

HIVE_PROTO int hive_mark_get(const uint32_t *row, uint64_t i) { return (int)(row[i >> 5] >> (i & 31) & 1u); }

/* Atomic: the keys of one word may belong to several threads. */
HIVE_PROTO void hive_mark_set(uint32_t *row, uint64_t i) { hive_or_u32(row + (i >> 5), 1u << (i & 31)); }

HIVE_PROTO void hive_mark_clear(uint32_t *row, uint64_t i) { hive_clear_u32(row + (i >> 5), 1u << (i & 31)); }

/* After a batch: whether its key i was rejected for room (retry_full runs
 * those again). */
HIVE_PROTO int hive_batch_rejected_full(const hive_batch *b, uint64_t i)
{
    return b->marks != NULL ? hive_mark_get(hive_marks_unfinished(b), i)
                            : b->results[i] == HIVE_RESULT_REJECTED_FULL;
}

/* Key i, rejected for room, has run again: it stays rejected only if it was
 * rejected again (a result byte says so itself). */
HIVE_PROTO void hive_batch_rerun(const hive_batch *b, uint64_t i, int rejected)
{
    if (b->marks != NULL && !rejected)
        hive_mark_clear(hive_marks_unfinished(b), i);
}

#endif
