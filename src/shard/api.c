/* api.c — the sharded table's calls (include/hive/shard.h, docs/shard.md).
 *
 * A call runs in four steps, the same on every rank:
 *  1. route: count the batch's keys per owner (kernels.cu); one NCCL group
 *     max-reduces each rank's status, receive capacity and call
 *     (so that every rank learns at once whether some rank cannot go on, or
 *     called something else) and swaps the per-owner counts, and the host
 *     reads them back (the one wait a call needs before moving keys), while
 *     the scatter partitions the keys;
 *  2. forward: keys (values, ops) to their owners, one NCCL group, while the
 *     owner's batch runs on this rank's own keys in place;
 *  3. the owner's batch on the keys that arrived, then the results back;
 *  4. gather: results in input order, beside one more max-reduction of
 *     the ranks' statuses so that a rank whose part failed fails every rank.
 * Every NCCL call goes on the shard's exchange stream, in one order on every
 * rank; the owner's batches and the kernels run on the caller's stream. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "kernels.h"
#include "route.h"
#include "shard_table.h"

typedef enum shard_kind { SHARD_FIND = 1, SHARD_CONTAINS, SHARD_INSERT, SHARD_ERASE, SHARD_APPLY } shard_kind;

typedef struct shard_call {
    shard_kind kind;
    const char *name;
    uint64_t n;
    const void *keys;
    const void *values_in; /* insert, apply */
    void *values_out;      /* find, apply */
    const uint8_t *ops;    /* apply */
    uint8_t *flags_out;    /* found (find, contains) or results */
    hive_combine combine;
} shard_call;

uint32_t hive_shard_owner(uint64_t key, uint32_t ranks)
{
    return ranks == 0 ? 0 : shard_route(key, ranks);
}

/* ---------------------------------------------------------------- checks */

static hive_status check_device_array(const hive_shard *s, const void *p, const char *call, const char *what)
{
    struct cudaPointerAttributes a;
    cudaError_t e = cudaPointerGetAttributes(&a, p);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return shard_fail(HIVE_ERROR_INVALID_ARGUMENT, call, "%s: not a CUDA pointer (%s)", what, cudaGetErrorString(e));
    }
    if (a.type == cudaMemoryTypeManaged || (a.type == cudaMemoryTypeDevice && a.device == s->device))
        return HIVE_SUCCESS;
    return shard_fail(HIVE_ERROR_INVALID_ARGUMENT, call, "%s is not device memory of GPU %d", what, s->device);
}

static hive_status check_call(const hive_shard *s, const shard_call *c)
{
    if (c->n >= (1ull << 32))
        return shard_fail(HIVE_ERROR_INVALID_ARGUMENT, c->name, "n = %llu: a rank's batch must be below 2^32",
                          (unsigned long long)c->n);
    if ((unsigned)c->combine > HIVE_COMBINE_MAX)
        return shard_fail(HIVE_ERROR_INVALID_ARGUMENT, c->name, "combine %d is not a hive_combine", (int)c->combine);
    if (c->n == 0)
        return HIVE_SUCCESS;
    SHARD_TRY(c->keys ? check_device_array(s, c->keys, c->name, "keys")
                      : shard_fail(HIVE_ERROR_INVALID_ARGUMENT, c->name, "keys is NULL"));
    if (c->kind == SHARD_INSERT && c->values_in == NULL)
        return shard_fail(HIVE_ERROR_INVALID_ARGUMENT, c->name, "values is NULL");
    if (c->kind == SHARD_APPLY && c->ops == NULL)
        return shard_fail(HIVE_ERROR_INVALID_ARGUMENT, c->name, "ops is NULL");
    if (c->kind == SHARD_CONTAINS && c->flags_out == NULL)
        return shard_fail(HIVE_ERROR_INVALID_ARGUMENT, c->name, "found is NULL");
    if (c->kind == SHARD_FIND && c->values_out == NULL && c->flags_out == NULL)
        return shard_fail(HIVE_ERROR_INVALID_ARGUMENT, c->name, "values and found are both NULL");
    const void *values = c->values_in ? c->values_in : c->values_out;
    if (values)
        SHARD_TRY(check_device_array(s, values, c->name, "values"));
    if (c->ops)
        SHARD_TRY(check_device_array(s, c->ops, c->name, "ops"));
    if (c->flags_out)
        SHARD_TRY(check_device_array(s, c->flags_out, c->name, c->kind <= SHARD_CONTAINS ? "found" : "results"));
    return HIVE_SUCCESS;
}

/* The status another rank's word names, with that rank in the message;
 * this rank's own failure keeps its own message. */
static hive_status status_of_word(const hive_shard *s, uint64_t word, hive_status own, const char *call)
{
    hive_status status = (hive_status)(word >> 32);
    uint32_t rank = (uint32_t)word;
    if (rank == s->rank && own != HIVE_SUCCESS)
        return own;
    if (rank == s->rank)
        return shard_fail(status, call, "values is NULL but some ops insert or upsert");
    return shard_fail(status, call, "rank %u could not take part: %s (its hive_shard_last_error says why)", rank,
                      hive_status_string(status));
}

/* A hive call's failure in the shard's words, naming the rank. */
static hive_status table_failed(const hive_shard *s, hive_status status, const char *call)
{
    return shard_fail(status, call, "rank %u: %s", s->rank, hive_last_error());
}

/* ---------------------------------------------------------------- timing */

enum {
    EV_START, EV_TOTALED, EV_ROUTED, EV_COUNTED, EV_GATHERED, EV_END,
    EV_FORWARD, EV_FORWARDED, EV_KEPT, EV_KEPT_DONE, EV_ARRIVED, EV_PART_DONE, EV_ARRIVED_DONE, EV_BACK, EV_BACK_DONE
};

static double elapsed(const hive_shard *s, int from, int to)
{
    float ms = 0;
    if (cudaEventElapsedTime(&ms, s->events[from], s->events[to]) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return ms;
}

static void account(hive_shard *s, const shard_plan *plan)
{
    s->stats.calls++;
    s->stats.keys_sent += plan->sent_total;
    s->stats.keys_received += plan->received_total;
    /* The counts' exchange and the scatter overlap: the route ends with the
     * later of the two. */
    double scattered = elapsed(s, EV_START, EV_ROUTED), counted = elapsed(s, EV_START, EV_COUNTED);
    s->stats.route_ms += scattered > counted ? scattered : counted;
    s->stats.exchange_ms += elapsed(s, EV_FORWARD, EV_FORWARDED) + elapsed(s, EV_BACK, EV_BACK_DONE);
    s->stats.local_ms += elapsed(s, EV_KEPT, EV_KEPT_DONE) + elapsed(s, EV_ARRIVED, EV_ARRIVED_DONE);
    s->stats.total_ms += elapsed(s, EV_START, EV_END);
}

/* ---------------------------------------------------------------- steps */

static hive_status record(hive_shard *s, int event, cudaStream_t stream, const char *call)
{
    return shard_cuda(cudaEventRecord(s->events[event], stream), call, "cudaEventRecord");
}

/* `stream` waits for `event` (recorded on the other stream). */
static hive_status follow(hive_shard *s, int event, cudaStream_t stream, const char *call)
{
    return shard_cuda(cudaStreamWaitEvent(stream, s->events[event], 0), call, "cudaStreamWaitEvent");
}

static hive_status read_meta(hive_shard *s, cudaStream_t stream, const char *call)
{
    SHARD_TRY(shard_cuda(cudaMemcpyAsync(s->meta_host, s->meta, s->meta_words * sizeof(uint64_t),
                                         cudaMemcpyDeviceToHost, stream),
                         call, "reading the call's counts"));
    return shard_cuda(cudaStreamSynchronize(stream), call, "cudaStreamSynchronize");
}

/* Max-reduces meta word `word` (this rank's status word, from the host)
 * over the ranks, on `stream`. */
static hive_status agree(hive_shard *s, int word, hive_status own, cudaStream_t stream, const char *call)
{
    s->meta_host[word] = own == HIVE_SUCCESS ? 0 : SHARD_STATUS_WORD(own, s->rank);
    SHARD_TRY(shard_cuda(cudaMemcpyAsync(s->meta + word, s->meta_host + word, sizeof(uint64_t),
                                         cudaMemcpyHostToDevice, stream),
                         call, "writing the status word"));
    return shard_nccl(ncclAllReduce(s->meta + word, s->meta + word, 1, ncclUint64, ncclMax, s->comm, stream), call,
                      "ncclAllReduce");
}

/* Step 1.  `own`: this rank's status so far (a failed rank routes nothing
 * but still takes part).  The counts travel as soon as the count kernels
 * have them, so that their exchange and the host's wait for them overlap
 * the scatter; the host waits for the scatter too before keys move
 * (move_and_run). */
static hive_status route(hive_shard *s, const shard_call *c, hive_status own, cudaStream_t stream)
{
    uint64_t *h = s->meta_host;
    uint64_t n = own == HIVE_SUCCESS ? c->n : 0;
    h[SHARD_META_STATUS] = own == HIVE_SUCCESS ? 0 : SHARD_STATUS_WORD(own, s->rank);
    h[SHARD_META_CAP_GAP] = UINT64_MAX - s->recv_capacity;
    h[SHARD_META_CALL] = (uint64_t)c->kind << 8 | (uint64_t)c->combine;
    h[SHARD_META_CALL_GAP] = UINT64_MAX - h[SHARD_META_CALL];
    h[SHARD_META_SUM_N] = n;
    SHARD_TRY(record(s, EV_START, stream, c->name));
    SHARD_TRY(shard_cuda(cudaMemsetAsync(s->meta, 0, s->meta_words * sizeof(uint64_t), stream), c->name,
                         "clearing the call's counts"));
    SHARD_TRY(shard_cuda(cudaMemcpyAsync(s->meta, h, (SHARD_META_SUM_N + 1) * sizeof(uint64_t),
                                         cudaMemcpyHostToDevice, stream),
                         c->name, "writing the call's words"));
    int kv64 = s->width == 8;
    SHARD_TRY(shard_cuda(shard_route_count(c->keys, kv64, (uint32_t)n, s->ranks, s->rank,
                                           c->kind == SHARD_FIND || c->kind == SHARD_CONTAINS, c->ops,
                                           c->kind == SHARD_APPLY && c->values_in == NULL, s->route_scratch.data,
                                           s->meta, stream),
                         c->name, "routing kernel"));
    SHARD_TRY(record(s, EV_TOTALED, stream, c->name));
    SHARD_TRY(shard_cuda(shard_route_scatter(c->keys, c->kind == SHARD_INSERT || c->kind == SHARD_APPLY ? c->values_in : NULL,
                                             c->ops, kv64, (uint32_t)n, s->ranks, s->route_scratch.data, s->pos.data,
                                             s->send_keys.data, s->send_values.data, s->send_ops.data, stream),
                         c->name, "partitioning kernel"));
    SHARD_TRY(record(s, EV_ROUTED, stream, c->name));

    cudaStream_t x = s->exchange_stream;
    SHARD_TRY(follow(s, EV_TOTALED, x, c->name));
    unsigned long long *sent = s->meta + SHARD_META_COUNTS, *received = sent + s->ranks;
    SHARD_TRY(shard_cuda(cudaMemcpyAsync(received + s->rank, sent + s->rank, sizeof(uint64_t), cudaMemcpyDeviceToDevice, x),
                         c->name, "copy of this rank's own count"));
    hive_status status = shard_nccl(ncclGroupStart(), c->name, "ncclGroupStart");
    if (status != HIVE_SUCCESS)
        return status;
    status = shard_nccl(ncclAllReduce(s->meta, s->meta, SHARD_META_MAXED, ncclUint64, ncclMax, s->comm, x), c->name,
                        "ncclAllReduce");
    if (status == HIVE_SUCCESS)
        status = shard_nccl(ncclAllReduce(s->meta + SHARD_META_SUM_N, s->meta + SHARD_META_SUM_N, 1, ncclUint64,
                                          ncclSum, s->comm, x),
                            c->name, "ncclAllReduce");
    for (uint32_t r = 0; r < s->ranks && status == HIVE_SUCCESS; r++) {
        if (r == s->rank)
            continue;
        status = shard_nccl(ncclSend(sent + r, 1, ncclUint64, (int)r, s->comm, x), c->name, "ncclSend");
        if (status == HIVE_SUCCESS)
            status = shard_nccl(ncclRecv(received + r, 1, ncclUint64, (int)r, s->comm, x), c->name, "ncclRecv");
    }
    hive_status ended = shard_nccl(ncclGroupEnd(), c->name, "ncclGroupEnd");
    SHARD_TRY(status != HIVE_SUCCESS ? status : ended);
    SHARD_TRY(record(s, EV_COUNTED, x, c->name));
    return read_meta(s, x, c->name);
}

/* Where an owner's batch reads and writes: its keys, values (input of an
 * insert, output of a find, both for an apply), ops, and results. */
typedef struct shard_region {
    uint64_t n;
    void *keys;
    void *values;
    uint8_t *ops;
    uint8_t *flags;
} shard_region;

/* The owner's batch of one region, on `stream`. */
static hive_status run_owner(hive_shard *s, const shard_call *c, const shard_region *g, cudaStream_t stream)
{
    hive_status status = HIVE_SUCCESS;
    switch (c->kind) {
    case SHARD_FIND:
        status = hive_find_async(s->table, g->n, g->keys, c->values_out ? g->values : NULL, g->flags, s->async_status,
                                 stream);
        break;
    case SHARD_CONTAINS:
        status = hive_contains_async(s->table, g->n, g->keys, g->flags, s->async_status, stream);
        break;
    case SHARD_INSERT:
        status = hive_insert(s->table, g->n, g->keys, g->values, c->combine, g->flags, stream);
        break;
    case SHARD_ERASE:
        status = hive_erase(s->table, g->n, g->keys, g->flags, stream);
        break;
    case SHARD_APPLY:
        status = hive_apply(s->table, g->n, g->ops, g->keys, c->values_in ? g->values : NULL, c->combine, g->flags,
                            stream);
        break;
    }
    /* Outcomes about keys come back with the results; only a failure of the
     * batch as a whole is the rank's. */
    return shard_status_is_hard(status) ? table_failed(s, status, c->name) : HIVE_SUCCESS;
}

static char *entry(void *base, uint64_t index, size_t width)
{
    return (char *)base + index * width;
}

/* Part `part` of `parts` of the keys that arrived: that part of every
 * source's segment (one region for the whole receive side when parts is
 * 1). */
static hive_status run_arrived(hive_shard *s, const shard_call *c, const shard_plan *plan, uint32_t part,
                               uint32_t parts, cudaStream_t stream)
{
    if (parts == 1) {
        shard_region all = {plan->received_total, s->recv_keys.data, s->recv_values.data, s->recv_ops.data,
                            s->recv_flags.data};
        return run_owner(s, c, &all, stream);
    }
    for (uint32_t r = 0; r < plan->ranks; r++) {
        if (r == plan->self)
            continue;
        shard_part cut = shard_part_of(plan->recv_count[r], part, parts);
        uint64_t first = plan->recv_offset[r] + cut.begin;
        shard_region g = {cut.length, entry(s->recv_keys.data, first, s->width), entry(s->recv_values.data, first, s->width),
                          (uint8_t *)s->recv_ops.data + first, (uint8_t *)s->recv_flags.data + first};
        if (g.n > 0)
            SHARD_TRY(run_owner(s, c, &g, stream));
    }
    return HIVE_SUCCESS;
}

/* Steps 2 and 3.  The forward exchange goes first on the exchange stream;
 * meanwhile the owner's batch runs on this rank's own keys where the
 * partition put them, writing its results where the returned results go
 * (so they need no copy either way); then the batch of the keys that
 * arrived, and their results back.  A find runs on plan.h's schedule: the
 * arrived keys in parts, each part's results going back while the next
 * runs, and the rest of its own keys last, beside the last part's
 * exchange.  Returns a failure to enqueue an exchange (after which nothing
 * more can be sent); *own gets a failure of this rank's table, which the
 * ranks learn of at the end while the exchanges go on as planned. */
static hive_status move_and_run(hive_shard *s, const shard_call *c, const shard_plan *plan, cudaStream_t stream,
                                hive_status *own)
{
    cudaStream_t x = s->exchange_stream;
    int apply = c->kind == SHARD_APPLY, insert = c->kind == SHARD_INSERT;
    int finds = c->kind == SHARD_FIND || c->kind == SHARD_CONTAINS;
    shard_array forward[3] = {{s->send_keys.data, s->recv_keys.data, s->width}};
    int forwarded = 1;
    if (c->values_in && (insert || apply))
        forward[forwarded++] = (shard_array){s->send_values.data, s->recv_values.data, s->width};
    if (apply)
        forward[forwarded++] = (shard_array){s->send_ops.data, s->recv_ops.data, 1};
    shard_array backward[2] = {{s->back_flags.data, s->recv_flags.data, 1}};
    int returned = 1;
    if ((c->kind == SHARD_FIND && c->values_out) || (apply && c->values_in))
        backward[returned++] = (shard_array){s->back_values.data, s->recv_values.data, s->width};

    /* The host waits for the scatter, so that the forward exchange's kernel
     * reaches an idle GPU ahead of the owner's batch: enqueued together
     * behind the scatter, the batch's blocks took the SMs first and the
     * exchange took up to twice as long. */
    SHARD_TRY(shard_cuda(cudaEventSynchronize(s->events[EV_ROUTED]), c->name, "cudaEventSynchronize"));
    SHARD_TRY(record(s, EV_FORWARD, x, c->name));
    SHARD_TRY(shard_exchange(s, plan, forward, forwarded, 0, 0, 1, c->name));
    SHARD_TRY(record(s, EV_FORWARDED, x, c->name));

    uint64_t first = plan->send_offset[plan->self];
    shard_region kept = {shard_plan_kept(plan), entry(s->send_keys.data, first, s->width),
                         entry(insert ? s->send_values.data : s->back_values.data, first, s->width),
                         (uint8_t *)s->send_ops.data + first, (uint8_t *)s->back_flags.data + first};
    /* An apply reads and writes one values array: its own keys' values go
     * where the gather reads results, and are updated there. */
    if (apply && c->values_in && kept.n > 0)
        SHARD_TRY(shard_cuda(cudaMemcpyAsync(kept.values, entry(s->send_values.data, first, s->width),
                                             kept.n * s->width, cudaMemcpyDeviceToDevice, stream),
                             c->name, "copy of this rank's own values"));
    uint64_t early = finds ? shard_plan_kept_early(plan) : kept.n;
    shard_region late = {kept.n - early, entry(kept.keys, early, s->width), entry(kept.values, early, s->width),
                         kept.ops + early, kept.flags + early};
    kept.n = early;
    SHARD_TRY(record(s, EV_KEPT, stream, c->name));
    *own = run_owner(s, c, &kept, stream);
    SHARD_TRY(record(s, EV_KEPT_DONE, stream, c->name));

    SHARD_TRY(follow(s, EV_FORWARDED, stream, c->name));
    SHARD_TRY(record(s, EV_ARRIVED, stream, c->name));
    uint32_t parts = finds ? SHARD_FIND_PARTS : 1;
    for (uint32_t part = 0; part < parts; part++) {
        /* A failed rank still exchanges (its peers are waiting), and says
         * so at the end. */
        if (*own == HIVE_SUCCESS)
            *own = run_arrived(s, c, plan, part, parts, stream);
        SHARD_TRY(record(s, EV_PART_DONE, stream, c->name));
        SHARD_TRY(follow(s, EV_PART_DONE, x, c->name));
        if (part == 0)
            SHARD_TRY(record(s, EV_BACK, x, c->name));
        SHARD_TRY(shard_exchange(s, plan, backward, returned, 1, part, parts, c->name));
    }
    if (*own == HIVE_SUCCESS && late.n > 0)
        *own = run_owner(s, c, &late, stream);
    SHARD_TRY(record(s, EV_ARRIVED_DONE, stream, c->name));
    SHARD_TRY(record(s, EV_BACK_DONE, x, c->name));
    return follow(s, EV_BACK_DONE, stream, c->name);
}

/* Step 4 and the call's status.  The ranks' statuses are known on the
 * host before the gather runs, so their max-reduction overlaps it; the
 * host then waits for both. */
static hive_status gather(hive_shard *s, const shard_call *c, hive_status own, cudaStream_t stream)
{
    int finds = c->kind == SHARD_FIND || c->kind == SHARD_CONTAINS;
    /* Every NCCL call of the shard goes on the exchange stream, in one order
     * on every rank. */
    cudaStream_t x = s->exchange_stream;
    SHARD_TRY(agree(s, SHARD_META_FINAL, own, x, c->name));
    if (own == HIVE_SUCCESS)
        SHARD_TRY(shard_cuda(shard_gather((uint32_t)c->n, s->pos.data, s->back_values.data, c->values_out,
                                          s->width == 8, s->back_flags.data, c->flags_out, finds, !finds, s->meta,
                                          stream),
                             c->name, "gathering kernel"));
    SHARD_TRY(record(s, EV_GATHERED, stream, c->name));
    SHARD_TRY(follow(s, EV_GATHERED, x, c->name));
    SHARD_TRY(record(s, EV_END, x, c->name));
    SHARD_TRY(read_meta(s, x, c->name));
    const uint64_t *h = s->meta_host;
    if (h[SHARD_META_FINAL] != 0)
        return status_of_word(s, h[SHARD_META_FINAL], own, c->name);
    if (finds)
        return h[SHARD_META_RESERVED] ? shard_fail(HIVE_ERROR_RESERVED_KEY, c->name, "%llu keys are reserved values",
                                                   (unsigned long long)h[SHARD_META_RESERVED])
                                      : HIVE_SUCCESS;
    if (h[SHARD_META_NONE])
        return shard_fail(HIVE_ERROR_INVALID_ARGUMENT, c->name, "%llu elements have no valid op code",
                          (unsigned long long)h[SHARD_META_NONE]);
    if (h[SHARD_META_REJ_FULL])
        return shard_fail(HIVE_ERROR_TABLE_FULL, c->name, "%llu keys found no room at their owner",
                          (unsigned long long)h[SHARD_META_REJ_FULL]);
    if (h[SHARD_META_REJ_RESERVED])
        return shard_fail(HIVE_ERROR_RESERVED_KEY, c->name, "%llu keys are reserved values",
                          (unsigned long long)h[SHARD_META_REJ_RESERVED]);
    return HIVE_SUCCESS;
}

static hive_status route_and_run(hive_shard *s, const shard_call *c, cudaStream_t stream)
{
    hive_status own = check_call(s, c);
    if (own == HIVE_SUCCESS)
        own = shard_grow_send(s, c->n, c->name);
    SHARD_TRY(route(s, c, own, stream));
    uint64_t *h = s->meta_host;
    if (h[SHARD_META_STATUS] != 0)
        return status_of_word(s, h[SHARD_META_STATUS], own, c->name);
    if (h[SHARD_META_CALL] + h[SHARD_META_CALL_GAP] != UINT64_MAX)
        return shard_fail(HIVE_ERROR_INVALID_ARGUMENT, c->name,
                          "the ranks made different calls (or passed different combine modes) together");

    shard_plan plan = {.ranks = s->ranks,
                       .self = s->rank,
                       .send_count = h + SHARD_META_COUNTS,
                       .recv_count = h + SHARD_META_COUNTS + s->ranks,
                       .send_offset = s->send_offset,
                       .recv_offset = s->recv_offset};
    shard_plan_build(&plan);
    /* Some rank may need a larger receive side: each grows, and all agree
     * on whether every one could before keys move. */
    if (h[SHARD_META_SUM_N] > UINT64_MAX - h[SHARD_META_CAP_GAP]) {
        own = shard_grow_recv(s, plan.received_total, c->name);
        SHARD_TRY(agree(s, SHARD_META_AGREE, own, s->exchange_stream, c->name));
        SHARD_TRY(read_meta(s, s->exchange_stream, c->name));
        if (h[SHARD_META_AGREE] != 0)
            return status_of_word(s, h[SHARD_META_AGREE], own, c->name);
        /* read_meta brought the device's counts back too: unchanged. */
    }
    SHARD_TRY(move_and_run(s, c, &plan, stream, &own));
    hive_status status = gather(s, c, own, stream);
    if (!shard_status_is_hard(status))
        account(s, &plan);
    return status;
}

static hive_status run_call(hive_shard *s, const shard_call *c, hive_stream stream)
{
    shard_clear_error();
    if (s == NULL)
        return shard_fail(HIVE_ERROR_INVALID_ARGUMENT, c->name, "shard is NULL");
    if (pthread_mutex_trylock(&s->busy) == EBUSY)
        return shard_fail(HIVE_ERROR_INVALID_ARGUMENT, c->name, "another call on this shard is running");
    int previous = -1;
    hive_status status = shard_cuda(cudaGetDevice(&previous), c->name, "cudaGetDevice");
    if (status == HIVE_SUCCESS && previous != s->device)
        status = shard_cuda(cudaSetDevice(s->device), c->name, "cudaSetDevice");
    if (status == HIVE_SUCCESS)
        status = route_and_run(s, c, (cudaStream_t)stream);
    /* A call that stopped early may have left its scatter running on the
     * caller's stream: the shard's buffers are free for the next call,
     * perhaps on another stream, once it is done. */
    if (status != HIVE_SUCCESS)
        cudaStreamSynchronize((cudaStream_t)stream);
    if (previous >= 0 && previous != s->device)
        cudaSetDevice(previous);
    pthread_mutex_unlock(&s->busy);
    return status;
}

/* ---------------------------------------------------------------- calls */

hive_status hive_shard_insert(hive_shard *shard, uint64_t n, const void *keys, const void *values,
                              hive_combine combine, uint8_t *results, hive_stream stream)
{
    shard_call c = {.kind = SHARD_INSERT, .name = "hive_shard_insert", .n = n, .keys = keys, .values_in = values,
                    .flags_out = results, .combine = combine};
    return run_call(shard, &c, stream);
}

hive_status hive_shard_find(hive_shard *shard, uint64_t n, const void *keys, void *values, uint8_t *found,
                            hive_stream stream)
{
    shard_call c = {.kind = SHARD_FIND, .name = "hive_shard_find", .n = n, .keys = keys, .values_out = values,
                    .flags_out = found};
    return run_call(shard, &c, stream);
}

hive_status hive_shard_contains(hive_shard *shard, uint64_t n, const void *keys, uint8_t *found, hive_stream stream)
{
    shard_call c = {.kind = SHARD_CONTAINS, .name = "hive_shard_contains", .n = n, .keys = keys, .flags_out = found};
    return run_call(shard, &c, stream);
}

hive_status hive_shard_erase(hive_shard *shard, uint64_t n, const void *keys, uint8_t *results, hive_stream stream)
{
    shard_call c = {.kind = SHARD_ERASE, .name = "hive_shard_erase", .n = n, .keys = keys, .flags_out = results};
    return run_call(shard, &c, stream);
}

hive_status hive_shard_apply(hive_shard *shard, uint64_t n, const uint8_t *ops, const void *keys, void *values,
                             hive_combine combine, uint8_t *results, hive_stream stream)
{
    shard_call c = {.kind = SHARD_APPLY, .name = "hive_shard_apply", .n = n, .keys = keys, .values_in = values,
                    .values_out = values, .ops = ops, .flags_out = results, .combine = combine};
    return run_call(shard, &c, stream);
}
