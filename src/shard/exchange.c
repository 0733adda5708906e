/* exchange.c — arrays between the ranks (shard_table.h). */
#include "error.h"
#include "shard_table.h"

static char *at(void *base, uint64_t entry, size_t width)
{
    return (char *)base + entry * width;
}

hive_status shard_exchange(hive_shard *s, const shard_plan *plan, const shard_array *arrays, int count,
                           int backward, uint32_t part, uint32_t parts, const char *call)
{
    cudaStream_t stream = s->exchange_stream;
    /* Counts match pairwise (what r sends here is what this rank receives
     * from r), so skipping empty segments skips them on both sides. */
    hive_status status = shard_nccl(ncclGroupStart(), call, "ncclGroupStart");
    if (status != HIVE_SUCCESS)
        return status;
    for (uint32_t r = 0; r < plan->ranks && status == HIVE_SUCCESS; r++) {
        if (r == plan->self)
            continue;
        /* This part of my segment for r, and of r's segment for me. */
        shard_part mine = shard_part_of(plan->send_count[r], part, parts);
        shard_part theirs = shard_part_of(plan->recv_count[r], part, parts);
        /* Forward: my segment for r goes out, r's segment for me comes in;
         * backward, the same two places with the roles swapped. */
        uint64_t out_length = backward ? theirs.length : mine.length;
        uint64_t in_length = backward ? mine.length : theirs.length;
        for (int a = 0; a < count && status == HIVE_SUCCESS; a++) {
            size_t w = arrays[a].width;
            char *send_side = at(arrays[a].send_side, plan->send_offset[r] + mine.begin, w);
            char *recv_side = at(arrays[a].recv_side, plan->recv_offset[r] + theirs.begin, w);
            char *out = backward ? recv_side : send_side, *in = backward ? send_side : recv_side;
            if (out_length > 0)
                status = shard_nccl(ncclSend(out, out_length * w, ncclUint8, (int)r, s->comm, stream), call, "ncclSend");
            if (status == HIVE_SUCCESS && in_length > 0)
                status = shard_nccl(ncclRecv(in, in_length * w, ncclUint8, (int)r, s->comm, stream), call, "ncclRecv");
        }
    }
    hive_status ended = shard_nccl(ncclGroupEnd(), call, "ncclGroupEnd");
    return status != HIVE_SUCCESS ? status : ended;
}
