/* buffers.c — the send- and receive-side buffers of a shard, grown to the
 * largest batch seen with a quarter to spare, so that a steady stream of
 * similar batches allocates nothing.
 *
 * The buffers NCCL moves are registered with the communicator when every
 * rank can (s->registered, agreed at create): NCCL then writes a send
 * straight into the peer's receive buffer over NVLink instead of staging
 * it through its own FIFO buffers, which halves the memory traffic of an
 * exchange and the SMs it holds.  Registration needs memory from
 * ncclMemAlloc (CUDA's virtual memory calls) on both sides of every send,
 * hence the agreement: a registered buffer facing an unregistered one is
 * undefined behaviour in NCCL. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "kernels.h"
#include "shard_table.h"

static void release(const hive_shard *s, shard_buffer *b)
{
    if (b->registration)
        ncclCommDeregister(s->comm, b->registration);
    if (b->data && b->registered_memory)
        ncclMemFree(b->data);
    else
        cudaFree(b->data);
    memset(b, 0, sizeof *b);
}

/* `exchanged`: a buffer NCCL sends from or receives into. */
static hive_status grow(const hive_shard *s, shard_buffer *b, size_t bytes, int exchanged, const char *call,
                        const char *what)
{
    if (b->bytes >= bytes)
        return HIVE_SUCCESS;
    release(s, b);
    if (exchanged && s->registered) {
        void *p = NULL;
        SHARD_TRY(shard_nccl(ncclMemAlloc(&p, bytes), call, what));
        b->data = p;
        b->registered_memory = 1;
        SHARD_TRY(shard_nccl(ncclCommRegister(s->comm, p, bytes, &b->registration), call, what));
    } else {
        cudaError_t e = cudaMalloc(&b->data, bytes);
        if (e != cudaSuccess) {
            b->data = NULL;
            return shard_cuda(e, call, what);
        }
    }
    b->bytes = bytes;
    return HIVE_SUCCESS;
}

static uint64_t with_room(uint64_t keys)
{
    return keys + keys / 4 + 1024;
}

hive_status shard_grow_send(hive_shard *s, uint64_t keys, const char *call)
{
    if (keys <= s->send_capacity)
        return HIVE_SUCCESS;
    uint64_t n = with_room(keys);
    s->send_capacity = 0;
    SHARD_TRY(grow(s, &s->pos, n * sizeof(uint32_t), 0, call, "positions"));
    SHARD_TRY(grow(s, &s->send_keys, n * s->width, 1, call, "send keys"));
    SHARD_TRY(grow(s, &s->send_values, n * s->width, 1, call, "send values"));
    SHARD_TRY(grow(s, &s->send_ops, n, 1, call, "send ops"));
    SHARD_TRY(grow(s, &s->back_values, n * s->width, 1, call, "returned values"));
    SHARD_TRY(grow(s, &s->back_flags, n, 1, call, "returned results"));
    /* The partition's scratch grows with the batch: room for the largest
     * batch the other buffers take. */
    SHARD_TRY(grow(s, &s->route_scratch, shard_route_scratch_bytes(n < UINT32_MAX ? (uint32_t)n : UINT32_MAX, s->ranks),
                   0, call, "partition scratch"));
    s->send_capacity = n;
    return HIVE_SUCCESS;
}

hive_status shard_grow_recv(hive_shard *s, uint64_t keys, const char *call)
{
    if (keys <= s->recv_capacity)
        return HIVE_SUCCESS;
    uint64_t n = with_room(keys);
    s->recv_capacity = 0;
    SHARD_TRY(grow(s, &s->recv_keys, n * s->width, 1, call, "received keys"));
    SHARD_TRY(grow(s, &s->recv_values, n * s->width, 1, call, "received values"));
    SHARD_TRY(grow(s, &s->recv_flags, n, 1, call, "received results"));
    SHARD_TRY(grow(s, &s->recv_ops, n, 1, call, "received ops"));
    s->recv_capacity = n;
    return HIVE_SUCCESS;
}

void shard_free_buffers(hive_shard *s)
{
    shard_buffer *all[] = {&s->pos,        &s->send_keys,  &s->send_values, &s->send_ops,   &s->back_values,
                           &s->back_flags, &s->route_scratch, &s->recv_keys, &s->recv_values, &s->recv_flags,
                           &s->recv_ops};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        release(s, all[i]);
    s->send_capacity = s->recv_capacity = 0;
}

int shard_can_register(const hive_shard *s)
{
    const char *env = getenv("HIVE_SHARD_REGISTER");
    if (env && strcmp(env, "0") == 0)
        return 0;
    void *probe = NULL, *registration = NULL;
    if (ncclMemAlloc(&probe, 1) != ncclSuccess)
        return 0;
    int ok = ncclCommRegister(s->comm, probe, 1, &registration) == ncclSuccess;
    if (ok)
        ncclCommDeregister(s->comm, registration);
    ncclMemFree(probe);
    return ok;
}
