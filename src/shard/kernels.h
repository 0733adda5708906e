/* kernels.h — the sharded table's own GPU work: partitioning a batch by
 * owner and writing the owners' results back in input order.  Called from
 * the C host code (api.c); each launches on `stream` and returns the launch
 * error. */
#ifndef HIVE_SHARD_KERNELS_H
#define HIVE_SHARD_KERNELS_H

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Words of the call's device meta block (api.c): per-call counters the
 * kernels add to, beside the exchanged counts. */
enum {
    /* Max-reduced over the ranks in one NCCL call: words 0 .. SHARD_META_MAXED-1. */
    SHARD_META_STATUS = 0,   /* the call's status word */
    SHARD_META_CAP_GAP = 1,  /* 2^64-1 - receive capacity (its max: the least capacity) */
    SHARD_META_CALL = 2,     /* which call, and its combine mode */
    SHARD_META_CALL_GAP = 3, /* 2^64-1 - that (equal ranks: CALL + CALL_GAP == 2^64-1 after both maxima) */
    SHARD_META_MAXED = 4,
    SHARD_META_SUM_N = 4,        /* n, summed over the ranks */
    SHARD_META_RESERVED = 5,     /* this rank's reserved keys (find, contains) */
    SHARD_META_AGREE = 6,        /* status after growing receive buffers, max-reduced */
    SHARD_META_FINAL = 7,        /* status after the owners' batches, max-reduced */
    SHARD_META_NONE = 8,         /* results HIVE_RESULT_NONE written back */
    SHARD_META_REJ_RESERVED = 9, /* results REJECTED_RESERVED */
    SHARD_META_REJ_FULL = 10,    /* results REJECTED_FULL */
    SHARD_META_COUNTS = 11       /* then send counts, receive counts: ranks words each */
};

/* Status words order failures by status code, then rank: code << 32 | rank. */
#define SHARD_STATUS_WORD(status, rank) (((uint64_t)(status) << 32) | (uint64_t)(rank))

/* The most ranks the partition takes (its shared memory holds a count per
 * warp and rank). */
#define SHARD_MAX_RANKS 1024

/* Bytes of device scratch the partition of a batch of n keys needs. */
size_t shard_route_scratch_bytes(uint32_t n, uint32_t ranks);

/* Counts the keys for each owner into meta[SHARD_META_COUNTS + r] (and,
 * in `scratch`, where each tile's keys go in each owner's segment, for
 * shard_route_scatter with the same n and ranks); when count_reserved, the
 * reserved keys into meta[SHARD_META_RESERVED].  When ops is given and
 * values_absent, an inserting op sets the status word to INVALID_ARGUMENT
 * of `rank` (hive_apply's rule for a NULL values array).  n = 0 leaves the
 * counts as they are (the call zeroes them first). */
cudaError_t shard_route_count(const void *keys, int kv64, uint32_t n, uint32_t ranks, uint32_t rank,
                              int count_reserved, const uint8_t *ops, int values_absent, void *scratch,
                              unsigned long long *meta, cudaStream_t stream);

/* Writes each key (and its value and op, where given) to its owner's
 * segment of the send buffers, and its position there to pos[i].  The
 * segments follow each other in rank order. */
cudaError_t shard_route_scatter(const void *keys, const void *values, const uint8_t *ops, int kv64, uint32_t n,
                                uint32_t ranks, const void *scratch, uint32_t *pos, void *send_keys,
                                void *send_values, uint8_t *send_ops, cudaStream_t stream);

/* The results back in input order: flags_out[i] = back_flags[pos[i]] (when
 * flags_out is given) and values_out[i] = back_values[pos[i]] (width 4 or 8
 * bytes; when values_where_flag, only where that flag is nonzero).  When
 * count_results, the result codes NONE, REJECTED_RESERVED and
 * REJECTED_FULL are counted into meta. */
cudaError_t shard_gather(uint32_t n, const uint32_t *pos, const void *back_values, void *values_out, int kv64,
                         const uint8_t *back_flags, uint8_t *flags_out, int values_where_flag,
                         int count_results, unsigned long long *meta, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
