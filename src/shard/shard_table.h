/* shard_table.h — what a rank's shard holds: its table, its communicator,
 * the stream the exchanges run on, and the buffers a call reuses. */
#ifndef HIVE_SHARD_TABLE_H
#define HIVE_SHARD_TABLE_H

#include <cuda_runtime.h>
#include <pthread.h>

#include "hive/shard.h"
#include "plan.h"

/* Events a call records (api.c): start, routed, counts known, gathered,
 * end, a begin and an end of the forward exchange, of the owner's batch on
 * its own keys and on the others', and of the backward exchange, and the
 * end of each part of a find. */
#define SHARD_EVENTS 15

/* A device buffer that grows to the largest batch seen (buffers.c): from
 * cudaMalloc, or from ncclMemAlloc and registered with the communicator. */
typedef struct shard_buffer {
    void *data;
    size_t bytes;
    int registered_memory;
    void *registration; /* ncclCommRegister's handle, or NULL */
} shard_buffer;

struct hive_shard {
    ncclComm_t comm;
    int device;
    uint32_t ranks;
    uint32_t rank;
    size_t width; /* bytes of a key, and of a value: 4 (KV32) or 8 (KV64) */
    int registered; /* the exchanged buffers are registered with comm (every rank agreed) */
    hive_table *table;
    cudaStream_t exchange_stream;
    cudaEvent_t events[SHARD_EVENTS];
    pthread_mutex_t busy;
    unsigned long long *meta; /* device words (kernels.h: SHARD_META_*) */
    uint64_t *meta_host;      /* pinned mirror */
    size_t meta_words;
    uint64_t *send_offset;    /* plan arrays */
    uint64_t *recv_offset;    /* (ranks) */
    hive_async_status *async_status; /* device: the owner's asynchronous finds' status */
    /* Send side, one entry per key of this rank's batch. */
    uint64_t send_capacity;
    shard_buffer pos, send_keys, send_values, send_ops, back_values, back_flags;
    shard_buffer route_scratch; /* the partition's tile counts and their prefix sums */
    /* Receive side, one entry per key this rank owns in a call. */
    uint64_t recv_capacity;
    shard_buffer recv_keys, recv_values, recv_flags, recv_ops;
    hive_shard_stats stats;
};

/* Makes room for `keys` entries on the send side or the receive side (the
 * old contents are not kept). */
hive_status shard_grow_send(hive_shard *s, uint64_t keys, const char *call);
hive_status shard_grow_recv(hive_shard *s, uint64_t keys, const char *call);
void shard_free_buffers(hive_shard *s);
/* Whether this rank can register exchanged buffers with its communicator
 * (a probe; HIVE_SHARD_REGISTER=0 says no).  Every rank must agree before
 * s->registered is set. */
int shard_can_register(const hive_shard *s);

/* One array that travels in an exchange: its send-side and receive-side
 * buffers and the bytes of one entry. */
typedef struct shard_array {
    void *send_side;
    void *recv_side;
    size_t width;
} shard_array;

/* Moves part `part` of `parts` of every segment of each array from the
 * send side to the owners (forward) or from the receive side back to the
 * senders (backward), on the exchange stream: one NCCL group of sends and
 * receives with every other rank. */
hive_status shard_exchange(hive_shard *s, const shard_plan *plan, const shard_array *arrays, int count,
                           int backward, uint32_t part, uint32_t parts, const char *call);

#endif
