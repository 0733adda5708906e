/* hive/shard.h — one hive table over several GPUs, sharded by key, with
 * NCCL carrying keys and results between them (library libhive_shard,
 * docs/shard.md).
 *
 * Each rank of an NCCL communicator owns one hive table on its GPU.  A key
 * belongs to the rank hive_shard_owner names, by a hash of its own that is
 * independent of the tables' bucket hashes (so every shard fills all of its
 * buckets).  A bulk call takes arrays on the calling rank's GPU, routes
 * each key to its owner (NCCL point-to-point sends and receives in a group:
 * counts first, then keys and values), runs the owners' batches, sends the
 * results back and writes them in input order, as the one-table call of
 * hive.h would.  Each shard grows and shrinks as a hive table does.
 *
 * Every call below but hive_shard_owner, hive_shard_destroy,
 * hive_shard_local, the stats and hive_shard_last_error is collective:
 * every rank of the communicator makes the same calls in the same order,
 * each with its own batch (n may be 0 on some ranks), and a call returns
 * when its rank's results are written.  Ranks driven from one process need
 * one host thread each (a rank's call waits for its peers).  A rank that
 * does not make a call its peers make leaves them waiting, as an NCCL
 * collective would.  A bad argument on some rank does not: that rank takes
 * part, and every rank's call returns the error having done nothing.  A
 * NULL handle does.
 * One call at a time per handle: a call made while another thread's call on
 * the same handle runs returns HIVE_ERROR_INVALID_ARGUMENT.
 *
 * Arrays are device memory of the rank's GPU (the communicator's device);
 * `stream` (NULL: the default stream) orders the call after the caller's
 * earlier work on it, and the call leaves no work behind on it.
 *
 * Errors: if any rank's part fails hard (out of memory, CUDA or NCCL
 * errors, a broken table), every rank returns that status, and
 * hive_shard_last_error names the rank and its message.  Per-key outcomes
 * (TABLE_FULL, RESERVED_KEY) are each rank's own, about its own keys. */
#ifndef HIVE_SHARD_H
#define HIVE_SHARD_H

#include <nccl.h>
#include <stdint.h>

#include "../hive.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hive_shard hive_shard;

/* The rank of `ranks` that owns `key` (a KV32 key is given zero-extended).
 * The same on every rank and every host; pure (no GPU needed).  ranks >= 1. */
HIVE_API uint32_t hive_shard_owner(uint64_t key, uint32_t ranks);

/* Creates this rank's shard.  `config` is the shard's table (hive.h); its
 * backend must be CUDA or AUTO, and its device is replaced by the
 * communicator's.  The ranks must agree on the key width and design
 * (checked: else every rank returns HIVE_ERROR_INVALID_ARGUMENT).  The
 * communicator stays the caller's and must outlive the shard; it has at
 * most 1024 ranks (else HIVE_ERROR_UNSUPPORTED). */
HIVE_API hive_status hive_shard_create(const hive_config *config, ncclComm_t comm, hive_shard **shard);

/* Frees this rank's shard: its table and buffers (not collective; the
 * communicator stays the caller's). */
HIVE_API hive_status hive_shard_destroy(hive_shard *shard);

/* hive_insert, hive_find, hive_contains, hive_erase and hive_apply over the
 * whole sharded table: the same arguments, results and statuses.  Keys
 * repeated within a batch, or across the ranks' batches of one call, are
 * applied one after another at their owner in an unspecified order.
 * n < 2^32 per rank per call. */
HIVE_API hive_status hive_shard_insert(hive_shard *shard, uint64_t n, const void *keys, const void *values,
                                       hive_combine combine, uint8_t *results, hive_stream stream);
HIVE_API hive_status hive_shard_find(hive_shard *shard, uint64_t n, const void *keys, void *values,
                                     uint8_t *found, hive_stream stream);
HIVE_API hive_status hive_shard_contains(hive_shard *shard, uint64_t n, const void *keys, uint8_t *found,
                                         hive_stream stream);
HIVE_API hive_status hive_shard_erase(hive_shard *shard, uint64_t n, const void *keys, uint8_t *results,
                                      hive_stream stream);
HIVE_API hive_status hive_shard_apply(hive_shard *shard, uint64_t n, const uint8_t *ops, const void *keys,
                                      void *values, hive_combine combine, uint8_t *results, hive_stream stream);

/* Collective.  *local: the keys this rank's shard holds; *global: the sum
 * over the ranks.  Either may be NULL. */
HIVE_API hive_status hive_shard_size(hive_shard *shard, uint64_t *local, uint64_t *global);

/* Not collective.  This rank's own table, for hive_stats_get, hive_export
 * or hive_get_config; it stays the shard's (do not destroy it, and change
 * it only through collective calls). */
HIVE_API hive_table *hive_shard_local(hive_shard *shard);

/* Where the time of this rank's calls went, summed since creation (or
 * since hive_shard_stats_reset), in milliseconds of GPU time measured by
 * CUDA events.  route: the partition of keys by owner and the exchange of
 * counts; exchange: the NCCL groups that move keys, values and results
 * (hive_shard_find overlaps them with the lookups, and sends its results
 * back in parts: its backward time runs from the first part's start to the
 * last part's end); local: the owner's batches; total: the calls from
 * first kernel to last. */
typedef struct hive_shard_stats {
    uint64_t calls;
    uint64_t keys_sent;     /* keys this rank routed to other ranks */
    uint64_t keys_received; /* keys other ranks routed to this one */
    double route_ms;
    double exchange_ms;
    double local_ms;
    double total_ms;
} hive_shard_stats;

HIVE_API hive_status hive_shard_stats_get(hive_shard *shard, hive_shard_stats *stats);
HIVE_API hive_status hive_shard_stats_reset(hive_shard *shard);

/* This thread's description of its last failed hive_shard call (the
 * shard layer's own text, or the table's, prefixed with the rank). */
HIVE_API const char *hive_shard_last_error(void);

#ifdef __cplusplus
}
#endif

#endif
