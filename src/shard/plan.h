/* plan.h — where each key of a sharded call travels: the layout of the send
 * and receive buffers, from the counts the ranks exchanged.
 *
 * Send side (this rank's keys, partitioned by owner): the keys for rank r
 * are one segment at send_offset[r], send_count[r] long; this rank's own
 * segment among them.  Its own keys never travel: the owner's batch runs on
 * that segment in place, while the others' keys are on their way.  Receive
 * side (the keys other ranks send here): one segment per source rank, in
 * rank order, at recv_offset[r], recv_count[r] long; this rank's own entry
 * is empty.  Pure host code (tested without a GPU). */
#ifndef HIVE_SHARD_PLAN_H
#define HIVE_SHARD_PLAN_H

#include <stdint.h>

typedef struct shard_plan {
    uint32_t ranks;
    uint32_t self;
    const uint64_t *send_count; /* (ranks) keys this rank sends to each (its own: kept) */
    const uint64_t *recv_count; /* (ranks) keys this rank gets from each (its own: ignored) */
    uint64_t *send_offset;      /* (ranks) */
    uint64_t *recv_offset;      /* (ranks) */
    uint64_t sent_total;        /* keys sent to other ranks */
    uint64_t received_total;    /* keys received from other ranks */
} shard_plan;

/* Fills the offsets and totals of `plan` (whose counts, ranks and self are
 * set). */
void shard_plan_build(shard_plan *plan);

/* This rank's own keys: kept in place on the send side. */
static inline uint64_t shard_plan_kept(const shard_plan *plan)
{
    return plan->send_count[plan->self];
}

#endif
