/* exchange.c — one chunk of arrays between the ranks (shard_table.h). */
#include "error.h"
#include "shard_table.h"

static char *at(void *base, uint64_t entry, size_t width)
{
    return (char *)base + entry * width;
}

hive_status shard_exchange(hive_shard *s, const shard_plan *plan, const shard_array *arrays, int count,
                           int backward, uint32_t chunk, const char *call)
{
    cudaStream_t stream = s->exchange_stream;
    const uint64_t *recv_offset = plan->recv_offset + (uint64_t)chunk * plan->ranks;
    uint64_t self_length = shard_piece_length(plan->send_count[s->rank], chunk, plan->chunks);
    if (self_length > 0) {
        uint64_t send_at = plan->send_offset[s->rank] + shard_piece_start(plan->send_count[s->rank], chunk, plan->chunks);
        for (int a = 0; a < count; a++) {
            size_t w = arrays[a].width;
            char *send_side = at(arrays[a].send_side, send_at, w);
            char *recv_side = at(arrays[a].recv_side, recv_offset[s->rank], w);
            SHARD_TRY(shard_cuda(cudaMemcpyAsync(backward ? send_side : recv_side, backward ? recv_side : send_side,
                                                 self_length * w, cudaMemcpyDeviceToDevice, stream),
                                 call, "copy of this rank's own keys"));
        }
    }
    /* Counts match pairwise (what r sends here is what this rank receives
     * from r), so skipping empty pieces skips them on both sides. */
    hive_status status = shard_nccl(ncclGroupStart(), call, "ncclGroupStart");
    if (status != HIVE_SUCCESS)
        return status;
    for (uint32_t r = 0; r < plan->ranks; r++) {
        if (r == s->rank)
            continue;
        uint64_t send_length = shard_piece_length(plan->send_count[r], chunk, plan->chunks);
        uint64_t recv_length = shard_piece_length(plan->recv_count[r], chunk, plan->chunks);
        uint64_t send_at = plan->send_offset[r] + shard_piece_start(plan->send_count[r], chunk, plan->chunks);
        for (int a = 0; a < count && status == HIVE_SUCCESS; a++) {
            size_t w = arrays[a].width;
            char *send_side = at(arrays[a].send_side, send_at, w);
            char *recv_side = at(arrays[a].recv_side, recv_offset[r], w);
            /* Forward: my segment for r goes out, r's piece for me comes in;
             * backward, the same two places with the roles swapped. */
            char *out = backward ? recv_side : send_side, *in = backward ? send_side : recv_side;
            uint64_t out_length = backward ? recv_length : send_length;
            uint64_t in_length = backward ? send_length : recv_length;
            if (out_length > 0)
                status = shard_nccl(ncclSend(out, out_length * w, ncclUint8, (int)r, s->comm, stream), call, "ncclSend");
            if (status == HIVE_SUCCESS && in_length > 0)
                status = shard_nccl(ncclRecv(in, in_length * w, ncclUint8, (int)r, s->comm, stream), call, "ncclRecv");
        }
    }
    hive_status ended = shard_nccl(ncclGroupEnd(), call, "ncclGroupEnd");
    return status != HIVE_SUCCESS ? status : ended;
}
