/* lifecycle.c — creating and freeing a rank's shard, and its whole-table
 * queries (include/hive/shard.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "kernels.h"
#include "shard_table.h"

static const char create_call[] = "hive_shard_create";

static void free_shard(hive_shard *s)
{
    if (s->table)
        hive_destroy(s->table);
    shard_free_buffers(s);
    for (int e = 0; e < SHARD_EVENTS; e++)
        if (s->events[e])
            cudaEventDestroy(s->events[e]);
    if (s->exchange_stream)
        cudaStreamDestroy(s->exchange_stream);
    cudaFree(s->meta);
    cudaFree(s->async_status);
    cudaFreeHost(s->meta_host);
    free(s->send_offset);
    free(s->recv_offset);
    pthread_mutex_destroy(&s->busy);
    free(s);
}

/* What every rank must agree on: the slot width and the design (a key's
 * owner runs the batch on its own table, so a batch must mean the same to
 * every table). */
static uint64_t table_kind(const hive_config *config)
{
    return (uint64_t)config->key_width << 8 | (uint64_t)config->design;
}

/* Allocates what a shard holds besides its table. */
static hive_status allocate(hive_shard *s)
{
    /* The exchanges are on every call's critical path: the highest priority
     * lets their NCCL blocks onto the SMs ahead of the lookups they overlap. */
    int least = 0, greatest = 0;
    SHARD_TRY(shard_cuda(cudaDeviceGetStreamPriorityRange(&least, &greatest), create_call,
                         "cudaDeviceGetStreamPriorityRange"));
    SHARD_TRY(shard_cuda(cudaStreamCreateWithPriority(&s->exchange_stream, cudaStreamNonBlocking, greatest),
                         create_call, "cudaStreamCreate"));
    for (int e = 0; e < SHARD_EVENTS; e++)
        SHARD_TRY(shard_cuda(cudaEventCreate(&s->events[e]), create_call, "cudaEventCreate"));
    s->meta_words = SHARD_META_COUNTS + 2 * (size_t)s->ranks;
    SHARD_TRY(shard_cuda(cudaMalloc((void **)&s->meta, s->meta_words * sizeof(uint64_t)), create_call, "call words"));
    SHARD_TRY(shard_cuda(cudaMallocHost((void **)&s->meta_host, s->meta_words * sizeof(uint64_t)), create_call,
                         "pinned call words"));
    SHARD_TRY(shard_cuda(cudaMalloc((void **)&s->async_status, sizeof(hive_async_status)), create_call,
                         "lookup status"));
    s->send_offset = calloc(s->ranks, sizeof(uint64_t));
    s->recv_offset = calloc(s->ranks, sizeof(uint64_t));
    if (s->send_offset == NULL || s->recv_offset == NULL)
        return shard_fail(HIVE_ERROR_OUT_OF_MEMORY, create_call, "plan arrays for %u ranks", s->ranks);
    return HIVE_SUCCESS;
}

/* Every rank learns whether every rank's table exists and is of the same
 * kind, and whether every rank can register its exchange buffers (one
 * max-reduction of four words). */
static hive_status agree_on_tables(hive_shard *s, hive_status own, const hive_config *config)
{
    uint64_t *h = s->meta_host;
    h[0] = own == HIVE_SUCCESS ? 0 : SHARD_STATUS_WORD(own, s->rank);
    h[1] = table_kind(config);
    h[2] = UINT64_MAX - h[1];
    h[3] = !shard_can_register(s);
    cudaStream_t x = s->exchange_stream;
    SHARD_TRY(shard_cuda(cudaMemcpyAsync(s->meta, h, 4 * sizeof(uint64_t), cudaMemcpyHostToDevice, x), create_call,
                         "cudaMemcpyAsync"));
    SHARD_TRY(shard_nccl(ncclAllReduce(s->meta, s->meta, 4, ncclUint64, ncclMax, s->comm, x), create_call,
                         "ncclAllReduce"));
    SHARD_TRY(shard_cuda(cudaMemcpyAsync(h, s->meta, 4 * sizeof(uint64_t), cudaMemcpyDeviceToHost, x), create_call,
                         "cudaMemcpyAsync"));
    SHARD_TRY(shard_cuda(cudaStreamSynchronize(x), create_call, "cudaStreamSynchronize"));
    if (h[0] != 0) {
        if ((uint32_t)h[0] == s->rank)
            return own;
        return shard_fail((hive_status)(h[0] >> 32), create_call, "rank %u could not create its table: %s",
                          (uint32_t)h[0], hive_status_string((hive_status)(h[0] >> 32)));
    }
    if (h[1] + h[2] != UINT64_MAX)
        return shard_fail(HIVE_ERROR_INVALID_ARGUMENT, create_call,
                          "the ranks' configs differ in key width or design");
    s->registered = h[3] == 0;
    return HIVE_SUCCESS;
}

static hive_status create_on_device(hive_shard *s, const hive_config *config)
{
    SHARD_TRY(allocate(s));
    /* The caller's config as far as its header has it (an older header's is
     * shorter, and hive_create reads it by its struct_size). */
    hive_config mine;
    hive_config_init(&mine);
    memcpy(&mine, config, config->struct_size < sizeof mine ? config->struct_size : sizeof mine);
    mine.backend = HIVE_BACKEND_CUDA;
    mine.device = s->device;
    hive_status own = hive_create(&mine, &s->table);
    if (own != HIVE_SUCCESS) {
        s->table = NULL;
        own = shard_fail(own, create_call, "rank %u: %s", s->rank, hive_last_error());
    } else {
        s->width = mine.key_width == HIVE_KV64 ? 8 : 4;
    }
    return agree_on_tables(s, own, config);
}

hive_status hive_shard_create(const hive_config *config, ncclComm_t comm, hive_shard **shard)
{
    shard_clear_error();
    if (config == NULL || comm == NULL || shard == NULL)
        return shard_fail(HIVE_ERROR_INVALID_ARGUMENT, create_call, "%s is NULL",
                          config == NULL ? "config" : comm == NULL ? "comm" : "shard");
    if (config->backend == HIVE_BACKEND_CPU)
        return shard_fail(HIVE_ERROR_UNSUPPORTED, create_call, "a shard's table is on its rank's GPU: backend CPU");
    int ranks = 0, rank = 0, device = 0;
    SHARD_TRY(shard_nccl(ncclCommCount(comm, &ranks), create_call, "ncclCommCount"));
    SHARD_TRY(shard_nccl(ncclCommUserRank(comm, &rank), create_call, "ncclCommUserRank"));
    SHARD_TRY(shard_nccl(ncclCommCuDevice(comm, &device), create_call, "ncclCommCuDevice"));
    if (ranks > SHARD_MAX_RANKS)
        return shard_fail(HIVE_ERROR_UNSUPPORTED, create_call, "%d ranks: a shard spans at most %d", ranks,
                          SHARD_MAX_RANKS);
    hive_shard *s = calloc(1, sizeof *s);
    if (s == NULL)
        return shard_fail(HIVE_ERROR_OUT_OF_MEMORY, create_call, "the shard's handle");
    s->comm = comm;
    s->ranks = (uint32_t)ranks;
    s->rank = (uint32_t)rank;
    s->device = device;
    pthread_mutex_init(&s->busy, NULL);
    int previous = -1;
    hive_status status = shard_cuda(cudaGetDevice(&previous), create_call, "cudaGetDevice");
    if (status == HIVE_SUCCESS && previous != device)
        status = shard_cuda(cudaSetDevice(device), create_call, "cudaSetDevice");
    if (status == HIVE_SUCCESS)
        status = create_on_device(s, config);
    if (status != HIVE_SUCCESS)
        free_shard(s);
    else
        *shard = s;
    if (previous >= 0 && previous != device)
        cudaSetDevice(previous);
    return status;
}

hive_status hive_shard_destroy(hive_shard *shard)
{
    shard_clear_error();
    if (shard == NULL)
        return shard_fail(HIVE_ERROR_INVALID_ARGUMENT, "hive_shard_destroy", "shard is NULL");
    int previous = -1;
    if (cudaGetDevice(&previous) != cudaSuccess || (previous != shard->device && cudaSetDevice(shard->device) != cudaSuccess))
        cudaGetLastError();
    cudaStreamSynchronize(shard->exchange_stream);
    free_shard(shard);
    if (previous >= 0)
        cudaSetDevice(previous);
    return HIVE_SUCCESS;
}

/* Sums the ranks' sizes (one all-reduce on the exchange stream). */
static hive_status sum_sizes(hive_shard *shard, uint64_t mine, uint64_t *sum, const char *call)
{
    cudaStream_t x = shard->exchange_stream;
    uint64_t *h = shard->meta_host;
    h[0] = mine;
    SHARD_TRY(shard_cuda(cudaMemcpyAsync(shard->meta, h, sizeof(uint64_t), cudaMemcpyHostToDevice, x), call,
                         "cudaMemcpyAsync"));
    SHARD_TRY(shard_nccl(ncclAllReduce(shard->meta, shard->meta, 1, ncclUint64, ncclSum, shard->comm, x), call,
                         "ncclAllReduce"));
    SHARD_TRY(shard_cuda(cudaMemcpyAsync(h, shard->meta, sizeof(uint64_t), cudaMemcpyDeviceToHost, x), call,
                         "cudaMemcpyAsync"));
    SHARD_TRY(shard_cuda(cudaStreamSynchronize(x), call, "cudaStreamSynchronize"));
    *sum = h[0];
    return HIVE_SUCCESS;
}

hive_status hive_shard_size(hive_shard *shard, uint64_t *local, uint64_t *global)
{
    static const char call[] = "hive_shard_size";
    shard_clear_error();
    if (shard == NULL)
        return shard_fail(HIVE_ERROR_INVALID_ARGUMENT, call, "shard is NULL");
    if (pthread_mutex_trylock(&shard->busy) == EBUSY)
        return shard_fail(HIVE_ERROR_INVALID_ARGUMENT, call, "another call on this shard is running");
    /* A rank whose table cannot say still takes part (counting 0), so that
     * its peers are not left waiting. */
    uint64_t mine = 0, sum = 0;
    hive_status own = hive_size(shard->table, &mine);
    if (own != HIVE_SUCCESS) {
        own = shard_fail(own, call, "rank %u: %s", shard->rank, hive_last_error());
        mine = 0;
    }
    int previous = -1;
    hive_status status = shard_cuda(cudaGetDevice(&previous), call, "cudaGetDevice");
    if (status == HIVE_SUCCESS && previous != shard->device)
        status = shard_cuda(cudaSetDevice(shard->device), call, "cudaSetDevice");
    if (status == HIVE_SUCCESS)
        status = sum_sizes(shard, mine, &sum, call);
    if (previous >= 0 && previous != shard->device)
        cudaSetDevice(previous);
    pthread_mutex_unlock(&shard->busy);
    if (own != HIVE_SUCCESS)
        return own;
    if (status == HIVE_SUCCESS) {
        if (local)
            *local = mine;
        if (global)
            *global = sum;
    }
    return status;
}

hive_table *hive_shard_local(hive_shard *shard)
{
    return shard ? shard->table : NULL;
}

hive_status hive_shard_stats_get(hive_shard *shard, hive_shard_stats *stats)
{
    shard_clear_error();
    if (shard == NULL || stats == NULL)
        return shard_fail(HIVE_ERROR_INVALID_ARGUMENT, "hive_shard_stats_get", "%s is NULL",
                          shard == NULL ? "shard" : "stats");
    *stats = shard->stats;
    return HIVE_SUCCESS;
}

hive_status hive_shard_stats_reset(hive_shard *shard)
{
    shard_clear_error();
    if (shard == NULL)
        return shard_fail(HIVE_ERROR_INVALID_ARGUMENT, "hive_shard_stats_reset", "shard is NULL");
    memset(&shard->stats, 0, sizeof shard->stats);
    return HIVE_SUCCESS;
}
