/* plan.h — where each key of a sharded call travels: the layout of the send
 * and receive buffers, from the counts the ranks exchanged.
 *
 * Send side (this rank's keys, partitioned by owner): the keys for rank r
 * are one segment at send_offset[r], send_count[r] long.  Receive side (the
 * keys this rank owns, from every rank including itself): chunk-major, so
 * that a pipelined call can run the owner's batch of chunk c as one
 * contiguous call while chunk c+1 is still travelling: chunk c holds, for
 * each source rank in order, that source's piece c.  Piece c of a segment
 * of `count` keys is [count*c/chunks, count*(c+1)/chunks): sender and
 * receiver compute it from the same count, so both sides agree without
 * exchanging more.  Pure host code (tested without a GPU). */
#ifndef HIVE_SHARD_PLAN_H
#define HIVE_SHARD_PLAN_H

#include <stdint.h>

#define SHARD_MAX_CHUNKS 8u

typedef struct shard_plan {
    uint32_t ranks;
    uint32_t chunks;
    const uint64_t *send_count; /* (ranks) keys this rank sends to each */
    const uint64_t *recv_count; /* (ranks) keys this rank gets from each */
    uint64_t *send_offset;      /* (ranks) */
    uint64_t *recv_offset;      /* (chunks * ranks): piece c of source r at [c * ranks + r] */
    uint64_t chunk_offset[SHARD_MAX_CHUNKS + 1]; /* where chunk c of the receive side begins */
    uint64_t sent_total;
    uint64_t received_total;
} shard_plan;

/* First key of piece `chunk` of a segment of `count` keys. */
static inline uint64_t shard_piece_start(uint64_t count, uint32_t chunk, uint32_t chunks)
{
    return count * chunk / chunks;
}

static inline uint64_t shard_piece_length(uint64_t count, uint32_t chunk, uint32_t chunks)
{
    return shard_piece_start(count, chunk + 1, chunks) - shard_piece_start(count, chunk, chunks);
}

/* Fills the offsets of `plan` (whose counts, ranks and chunks are set;
 * chunks in 1..SHARD_MAX_CHUNKS, counts below 2^32 each). */
void shard_plan_build(shard_plan *plan);

#endif
