/* plan.c — the send and receive layouts of a sharded call (plan.h). */
#include "plan.h"

void shard_plan_build(shard_plan *plan)
{
    uint64_t at = 0;
    for (uint32_t r = 0; r < plan->ranks; r++) {
        plan->send_offset[r] = at;
        at += plan->send_count[r];
    }
    plan->sent_total = at;
    at = 0;
    for (uint32_t c = 0; c < plan->chunks; c++) {
        plan->chunk_offset[c] = at;
        for (uint32_t r = 0; r < plan->ranks; r++) {
            plan->recv_offset[(uint64_t)c * plan->ranks + r] = at;
            at += shard_piece_length(plan->recv_count[r], c, plan->chunks);
        }
    }
    plan->chunk_offset[plan->chunks] = at;
    plan->received_total = at;
}
