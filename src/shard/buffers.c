/* buffers.c — the send- and receive-side buffers of a shard, grown to the
 * largest batch seen with a quarter to spare, so that a steady stream of
 * similar batches allocates nothing. */
#include <stdint.h>

#include "error.h"
#include "shard_table.h"

static hive_status grow(shard_buffer *b, size_t bytes, const char *call, const char *what)
{
    if (b->bytes >= bytes)
        return HIVE_SUCCESS;
    cudaFree(b->data);
    b->data = NULL;
    b->bytes = 0;
    cudaError_t e = cudaMalloc(&b->data, bytes);
    if (e != cudaSuccess) {
        b->data = NULL;
        return shard_cuda(e, call, what);
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
    SHARD_TRY(grow(&s->pos, n * sizeof(uint32_t), call, "positions"));
    SHARD_TRY(grow(&s->send_keys, n * s->width, call, "send keys"));
    SHARD_TRY(grow(&s->send_values, n * s->width, call, "send values"));
    SHARD_TRY(grow(&s->send_ops, n, call, "send ops"));
    SHARD_TRY(grow(&s->back_values, n * s->width, call, "returned values"));
    SHARD_TRY(grow(&s->back_flags, n, call, "returned results"));
    s->send_capacity = n;
    return HIVE_SUCCESS;
}

hive_status shard_grow_recv(hive_shard *s, uint64_t keys, const char *call)
{
    if (keys <= s->recv_capacity)
        return HIVE_SUCCESS;
    uint64_t n = with_room(keys);
    s->recv_capacity = 0;
    SHARD_TRY(grow(&s->recv_keys, n * s->width, call, "received keys"));
    SHARD_TRY(grow(&s->recv_values, n * s->width, call, "received values"));
    SHARD_TRY(grow(&s->recv_flags, n, call, "received results"));
    SHARD_TRY(grow(&s->recv_ops, n, call, "received ops"));
    s->recv_capacity = n;
    return HIVE_SUCCESS;
}

void shard_free_buffers(hive_shard *s)
{
    shard_buffer *all[] = {&s->pos,         &s->send_keys,  &s->send_values, &s->send_ops,  &s->back_values,
                           &s->back_flags,  &s->recv_keys,  &s->recv_values, &s->recv_flags, &s->recv_ops};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        cudaFree(all[i]->data);
        all[i]->data = NULL;
        all[i]->bytes = 0;
    }
    s->send_capacity = s->recv_capacity = 0;
}
