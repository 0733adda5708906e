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

/* A find's schedule.  The lookups of the keys that arrived run in
 * SHARD_FIND_PARTS parts, each part's results going back while the next
 * part runs, and part of this rank's own keys waits for the arrived ones,
 * so that their lookups overlap the backward exchange as the rest overlap
 * the forward one.  Inserts, erases and applies run in one piece: their
 * forward exchange is the larger, and a batch's order of effects stays the
 * owner's. */
#define SHARD_FIND_PARTS 2

/* Part `part` of `parts` of a segment of `length` keys: its first key,
 * and how many.  Both sides of an exchange cut a segment alike: both know
 * its length. */
typedef struct shard_part {
    uint64_t begin;
    uint64_t length;
} shard_part;

static inline shard_part shard_part_of(uint64_t length, uint32_t part, uint32_t parts)
{
    uint64_t begin = length * part / parts;
    shard_part cut = {begin, length * (part + 1) / parts - begin};
    return cut;
}

/* How many of this rank's `kept` keys a find looks up before the arrived
 * ones: as many as the forward exchange hides.  A rank keeps 1/ranks of
 * its keys and sends (ranks-1)/ranks, and on H200s over NVLink the forward
 * exchange took about 0.35 of the own lookups' time per peer (KV32 and
 * KV64 alike: a KV64 key is twice the bytes and half the lookup rate), so
 * the first share is 0.35 * (ranks-1) of the own keys, in eighths: all of
 * them from 4 ranks up (and with one rank, which has no exchange). */
static inline uint64_t shard_plan_kept_early(const shard_plan *plan)
{
    uint64_t kept = shard_plan_kept(plan);
    uint32_t early_eighths = plan->ranks == 1 || plan->ranks >= 4 ? 8 : (8 * 35 * (plan->ranks - 1) + 50) / 100;
    return kept * early_eighths / 8;
}

#endif
