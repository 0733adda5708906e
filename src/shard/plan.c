/* plan.c — the send and receive layouts of a sharded call (plan.h). */
#include "plan.h"

void shard_plan_build(shard_plan *plan)
{
    uint64_t sent = 0, received = 0, at = 0;
    for (uint32_t r = 0; r < plan->ranks; r++) {
        plan->send_offset[r] = at;
        at += plan->send_count[r];
        plan->recv_offset[r] = received;
        if (r == plan->self)
            continue;
        sent += plan->send_count[r];
        received += plan->recv_count[r];
    }
    plan->sent_total = sent;
    plan->received_total = received;
}
