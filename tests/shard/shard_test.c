/* shard_test.c — the sharded table (include/hive/shard.h) over every GPU of
 * this machine (or --gpus N of them; one GPU makes a one-rank world),
 * checked against an exact model after every call.
 *
 * One thread per rank drives its shard; after each call the threads meet,
 * and the first checks every rank's results against the model, then updates
 * it.  Rounds mix the calls (insert with ADD, find, contains, erase, apply,
 * size) and the key streams: uniform over a pool, keys repeated within and
 * across the ranks' batches, every key owned by one hot rank, keys aimed at
 * a few buckets of their table, reserved keys, empty batches on some ranks,
 * and one large round that grows every table.  Then the bad inputs: every
 * rank's call fails alike when one rank passes a bad argument or a
 * different call, and the table is unchanged.  At the end every shard's
 * export must hold exactly the model's keys that it owns.
 *
 * Usage: hive-shard-test [--gpus N] [--kv 32|64] [--design NAME] */
#define _POSIX_C_SOURCE 200809L

#include <cuda_runtime.h>
#include <nccl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hash/bithash.h"
#include "hive/shard.h"

#define MAX_RANKS 16
#define POOL 65536u
#define ROUNDS 24
#define LARGE_INSERT_ROUND 17 /* grows every table in one call */
#define LARGE_FIND_ROUND 19   /* a find of 2 M keys a rank, beside the small ones */
#define LARGE_BATCH ((1u << 21) + 5)

typedef enum { OP_INSERT, OP_FIND, OP_CONTAINS, OP_ERASE, OP_APPLY, OP_COUNT } op_kind;
typedef enum { KEYS_UNIFORM, KEYS_HOT_RANK, KEYS_CROWDED, KEYS_STREAMS } key_stream;

/* One rank's batch and what came back, on the host. */
typedef struct batch {
    uint64_t n;
    uint32_t *index; /* pool index of each key, or POOL + j for reserved key j */
    uint64_t *keys;  /* as the table's width stores them (KV32: low half) */
    uint64_t *values;
    uint8_t *ops;
    uint8_t *flags;
    uint64_t *values_out;
    hive_status status;
} batch;

typedef struct world {
    int ranks;
    int kv64;
    hive_design design;
    ncclComm_t comms[MAX_RANKS];
    hive_shard *shards[MAX_RANKS];
    pthread_barrier_t barrier;
    uint64_t pool[POOL];
    uint32_t owner[POOL];
    uint32_t crowded[POOL]; /* pool indices whose first bucket hash shares its low 6 bits */
    uint32_t crowded_count;
    uint32_t hot[POOL]; /* pool indices owned by rank 0 */
    uint32_t hot_count;
    uint8_t present[POOL];
    uint64_t value[POOL];
    uint64_t live;
    batch batches[MAX_RANKS];
    op_kind op;
    int round;
} world;

static world W;

static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t reserved_key(uint32_t j)
{
    return (W.kv64 ? HIVE_KV64_RESERVED_MIN : HIVE_KV32_RESERVED_MIN) + (j & 3u);
}

static uint64_t key_mask(void)
{
    return W.kv64 ? UINT64_MAX : UINT32_MAX;
}

static void make_pool(void)
{
    uint64_t state = 42;
    uint64_t limit = W.kv64 ? HIVE_KV64_RESERVED_MIN : HIVE_KV32_RESERVED_MIN;
    /* Distinct keys: an odd multiplier is a bijection of the key space. */
    uint64_t a = (splitmix(&state) | 1u) & key_mask(), b = splitmix(&state) & key_mask();
    for (uint32_t i = 0; i < POOL; i++) {
        uint64_t k = (a * i + b) & key_mask();
        W.pool[i] = k < limit ? k : i; /* i (small) cannot be any a*j+b here: checked below */
        W.owner[i] = hive_shard_owner(W.pool[i], (uint32_t)W.ranks);
        uint32_t h = W.kv64 ? hive_hash1_k64(W.pool[i], 0) : hive_hash1_k32((uint32_t)W.pool[i], 0);
        if ((h & 63u) == 0)
            W.crowded[W.crowded_count++] = i;
        if (W.owner[i] == 0)
            W.hot[W.hot_count++] = i;
    }
    for (uint32_t i = 0; i < POOL; i++)
        for (uint32_t j = 0; j < i && W.pool[i] < POOL; j++)
            if (W.pool[j] == W.pool[i])
                ht_fatal("pool keys %u and %u are equal", i, j);
}

static uint32_t pick(key_stream stream, uint64_t *state)
{
    uint64_t r = splitmix(state);
    switch (stream) {
    case KEYS_HOT_RANK:
        return W.hot[r % W.hot_count];
    case KEYS_CROWDED:
        return W.crowded[r % W.crowded_count];
    default:
        return (uint32_t)(r % POOL);
    }
}

/* ---------------------------------------------------------------- device copies */

static void *to_device(const void *host, size_t bytes)
{
    void *d = NULL;
    if (cudaMalloc(&d, bytes ? bytes : 1) != cudaSuccess)
        ht_fatal("cudaMalloc(%zu) failed", bytes);
    if (bytes && cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice) != cudaSuccess)
        ht_fatal("cudaMemcpy to the device failed");
    return d;
}

static void from_device(void *host, const void *d, size_t bytes)
{
    if (bytes && cudaMemcpy(host, d, bytes, cudaMemcpyDeviceToHost) != cudaSuccess)
        ht_fatal("cudaMemcpy from the device failed");
}

/* The host array of 64-bit words as the table's width lays it out. */
static void *packed(const uint64_t *words, uint64_t n)
{
    size_t w = W.kv64 ? 8 : 4;
    char *out = malloc(n * w + 1);
    for (uint64_t i = 0; i < n; i++) {
        if (W.kv64)
            memcpy(out + i * 8, &words[i], 8);
        else {
            uint32_t v = (uint32_t)words[i];
            memcpy(out + i * 4, &v, 4);
        }
    }
    return out;
}

static void unpack(uint64_t *words, const void *bytes, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        if (W.kv64)
            memcpy(&words[i], (const char *)bytes + i * 8, 8);
        else {
            uint32_t v;
            memcpy(&v, (const char *)bytes + i * 4, 4);
            words[i] = v;
        }
    }
}

/* Runs `op` on rank `rank`'s batch, results to the batch. */
static void run_on_rank(int rank, op_kind op)
{
    batch *b = &W.batches[rank];
    size_t w = W.kv64 ? 8 : 4;
    void *hk = packed(b->keys, b->n), *hv = packed(b->values, b->n);
    void *keys = to_device(hk, b->n * w), *values = to_device(hv, b->n * w);
    uint8_t *flags = to_device(b->flags, b->n), *ops = to_device(b->ops, b->n);
    hive_shard *s = W.shards[rank];
    switch (op) {
    case OP_INSERT:
        b->status = hive_shard_insert(s, b->n, keys, values, HIVE_COMBINE_ADD, flags, NULL);
        break;
    case OP_FIND:
        b->status = hive_shard_find(s, b->n, keys, values, flags, NULL);
        break;
    case OP_CONTAINS:
        b->status = hive_shard_contains(s, b->n, keys, flags, NULL);
        break;
    case OP_ERASE:
        b->status = hive_shard_erase(s, b->n, keys, flags, NULL);
        break;
    case OP_APPLY:
        b->status = hive_shard_apply(s, b->n, ops, keys, values, HIVE_COMBINE_ADD, flags, NULL);
        break;
    default:
        break;
    }
    from_device(b->flags, flags, b->n);
    from_device(hv, values, b->n * w);
    unpack(b->values_out, hv, b->n);
    cudaFree(keys);
    cudaFree(values);
    cudaFree(flags);
    cudaFree(ops);
    free(hk);
    free(hv);
}

/* ---------------------------------------------------------------- batches */

static void fill_batch(int rank, op_kind op, key_stream stream, uint64_t n, uint64_t *state)
{
    batch *b = &W.batches[rank];
    b->n = n;
    for (uint64_t i = 0; i < n; i++) {
        uint32_t index = pick(stream, state);
        if (op != OP_APPLY && splitmix(state) % 997 == 0)
            index = POOL + (uint32_t)(splitmix(state) & 3u);
        b->index[i] = index;
        b->keys[i] = index < POOL ? W.pool[index] : reserved_key(index - POOL);
        b->values[i] = splitmix(state) & key_mask() & 0xffffff; /* small: sums stay exact */
        b->ops[i] = (uint8_t)(splitmix(state) % 4);
        b->flags[i] = 0xee;
        b->values_out[i] = 0;
    }
}

/* Apply needs every key once in the whole call (its elements run
 * concurrently): the ranks take disjoint stretches of one permutation. */
static void fill_apply(uint64_t *state, uint64_t per_rank)
{
    static uint32_t order[POOL];
    for (uint32_t i = 0; i < POOL; i++)
        order[i] = i;
    for (uint32_t i = POOL - 1; i > 0; i--) {
        uint32_t j = (uint32_t)(splitmix(state) % (i + 1));
        uint32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int r = 0; r < W.ranks; r++) {
        fill_batch(r, OP_APPLY, KEYS_UNIFORM, per_rank, state);
        for (uint64_t i = 0; i < per_rank; i++) {
            uint32_t index = order[(uint64_t)r * per_rank + i];
            W.batches[r].index[i] = index;
            W.batches[r].keys[i] = W.pool[index];
        }
    }
}

/* ---------------------------------------------------------------- the model */

static hive_status expected_status(const batch *b, op_kind op)
{
    int reserved = 0;
    for (uint64_t i = 0; i < b->n; i++)
        reserved |= b->index[i] >= POOL;
    return reserved ? HIVE_ERROR_RESERVED_KEY : HIVE_SUCCESS;
    (void)op;
}

static void check_insert(void)
{
    static uint32_t inserted[POOL];
    static uint64_t added[POOL];
    static uint32_t seen[POOL];
    memset(inserted, 0, sizeof inserted);
    memset(added, 0, sizeof added);
    memset(seen, 0, sizeof seen);
    for (int r = 0; r < W.ranks; r++) {
        batch *b = &W.batches[r];
        HT_CHECK_STATUS(b->status, expected_status(b, OP_INSERT), "round %d rank %d insert", W.round, r);
        for (uint64_t i = 0; i < b->n; i++) {
            uint32_t k = b->index[i];
            if (k >= POOL) {
                HT_CHECK_EQ(b->flags[i], HIVE_RESULT_REJECTED_RESERVED, "round %d rank %d element %llu", W.round, r,
                            (unsigned long long)i);
                continue;
            }
            seen[k]++;
            added[k] += b->values[i];
            inserted[k] += b->flags[i] == HIVE_RESULT_INSERTED;
            if (b->flags[i] != HIVE_RESULT_INSERTED && b->flags[i] != HIVE_RESULT_UPDATED)
                HT_CHECK(0, "round %d rank %d element %llu: result %u", W.round, r, (unsigned long long)i, b->flags[i]);
        }
    }
    for (uint32_t k = 0; k < POOL; k++) {
        if (!seen[k])
            continue;
        HT_CHECK_EQ(inserted[k], W.present[k] ? 0u : 1u, "round %d key %u: INSERTED results", W.round, k);
        if (!W.present[k]) {
            W.present[k] = 1;
            W.value[k] = 0;
            W.live++;
        }
        W.value[k] = (W.value[k] + added[k]) & key_mask();
    }
}

static void check_find(op_kind op)
{
    for (int r = 0; r < W.ranks; r++) {
        batch *b = &W.batches[r];
        HT_CHECK_STATUS(b->status, expected_status(b, op), "round %d rank %d find", W.round, r);
        uint64_t bad = 0;
        for (uint64_t i = 0; i < b->n; i++) {
            uint32_t k = b->index[i];
            int want = k < POOL && W.present[k];
            int ok = b->flags[i] == want;
            if (op == OP_FIND)
                ok = ok && b->values_out[i] == (want ? W.value[k] : b->values[i]);
            if (!ok && bad++ < 5)
                HT_CHECK(0, "round %d rank %d element %llu (pool %u): found %u value %llu, want %d %llu", W.round, r,
                         (unsigned long long)i, k, b->flags[i], (unsigned long long)b->values_out[i], want,
                         (unsigned long long)(want ? W.value[k] : b->values[i]));
        }
        ht_pass_(b->n - bad);
    }
}

static void check_erase(void)
{
    static uint32_t erased[POOL];
    memset(erased, 0, sizeof erased);
    for (int r = 0; r < W.ranks; r++) {
        batch *b = &W.batches[r];
        HT_CHECK_STATUS(b->status, expected_status(b, OP_ERASE), "round %d rank %d erase", W.round, r);
        for (uint64_t i = 0; i < b->n; i++) {
            uint32_t k = b->index[i];
            if (k >= POOL) {
                HT_CHECK_EQ(b->flags[i], HIVE_RESULT_REJECTED_RESERVED, "round %d rank %d element %llu", W.round, r,
                            (unsigned long long)i);
                continue;
            }
            if (b->flags[i] == HIVE_RESULT_ERASED)
                erased[k]++;
            else
                HT_CHECK_EQ(b->flags[i], HIVE_RESULT_NOT_FOUND, "round %d rank %d element %llu", W.round, r,
                            (unsigned long long)i);
        }
    }
    for (uint32_t k = 0; k < POOL; k++) {
        HT_CHECK_EQ(erased[k], W.present[k] && erased[k] ? 1u : 0u, "round %d key %u: ERASED results", W.round, k);
        if (W.present[k] && erased[k]) {
            W.present[k] = 0;
            W.live--;
        }
    }
    /* A present key erased by nobody must not have been asked for. */
    for (int r = 0; r < W.ranks; r++)
        for (uint64_t i = 0; i < W.batches[r].n; i++) {
            uint32_t k = W.batches[r].index[i];
            if (k < POOL && W.present[k])
                HT_CHECK(0, "round %d: key %u asked to be erased is still present", W.round, k);
        }
}

static void check_apply(int invalid_rank)
{
    for (int r = 0; r < W.ranks; r++) {
        batch *b = &W.batches[r];
        HT_CHECK_STATUS(b->status, r == invalid_rank && b->n > 0 ? HIVE_ERROR_INVALID_ARGUMENT : HIVE_SUCCESS,
                        "round %d rank %d apply", W.round, r);
        for (uint64_t i = 0; i < b->n; i++) {
            uint32_t k = b->index[i];
            int was = W.present[k];
            uint8_t want = HIVE_RESULT_NONE;
            uint64_t value_want = b->values[i];
            switch (b->ops[i]) {
            case HIVE_OP_FIND:
                want = was ? HIVE_RESULT_FOUND : HIVE_RESULT_NOT_FOUND;
                value_want = was ? W.value[k] : b->values[i];
                break;
            case HIVE_OP_INSERT:
                want = was ? HIVE_RESULT_EXISTED : HIVE_RESULT_INSERTED;
                if (!was) {
                    W.present[k] = 1;
                    W.value[k] = b->values[i];
                    W.live++;
                }
                break;
            case HIVE_OP_UPSERT:
                want = was ? HIVE_RESULT_UPDATED : HIVE_RESULT_INSERTED;
                W.value[k] = was ? (W.value[k] + b->values[i]) & key_mask() : b->values[i];
                if (!was) {
                    W.present[k] = 1;
                    W.live++;
                }
                break;
            case HIVE_OP_ERASE:
                want = was ? HIVE_RESULT_ERASED : HIVE_RESULT_NOT_FOUND;
                if (was) {
                    W.present[k] = 0;
                    W.live--;
                }
                break;
            default:
                break;
            }
            HT_CHECK_EQ(b->flags[i], want, "round %d rank %d element %llu op %u", W.round, r, (unsigned long long)i,
                        b->ops[i]);
            HT_CHECK_EQ(b->values_out[i], value_want, "round %d rank %d element %llu op %u value", W.round, r,
                        (unsigned long long)i, b->ops[i]);
        }
    }
}

static void check_size(void)
{
    uint64_t local_sum = 0;
    for (int r = 0; r < W.ranks; r++) {
        uint64_t local = 0;
        hive_table *t = hive_shard_local(W.shards[r]);
        HT_CHECK_STATUS(hive_size(t, &local), HIVE_SUCCESS, "rank %d size", r);
        local_sum += local;
    }
    HT_CHECK_EQ(local_sum, W.live, "round %d: keys over the shards", W.round);
}

/* ---------------------------------------------------------------- rounds */

typedef struct rank_arg {
    int rank;
} rank_arg;

static void meet(void)
{
    pthread_barrier_wait(&W.barrier);
}

static op_kind round_op(int round)
{
    static const op_kind order[] = {OP_INSERT, OP_FIND,   OP_INSERT, OP_CONTAINS, OP_ERASE, OP_FIND,
                                    OP_APPLY,  OP_INSERT, OP_FIND,   OP_ERASE,    OP_APPLY, OP_CONTAINS};
    if (round == LARGE_INSERT_ROUND)
        return OP_INSERT;
    return round == LARGE_FIND_ROUND ? OP_FIND : order[round % 12];
}

static void *rank_main(void *p)
{
    int rank = ((rank_arg *)p)->rank;
    if (cudaSetDevice(rank) != cudaSuccess)
        ht_fatal("cudaSetDevice(%d)", rank);
    for (int round = 0; round < ROUNDS; round++) {
        meet(); /* rank 0 has filled the batches */
        run_on_rank(rank, round_op(round));
        meet(); /* rank 0 checks */
        meet();
        uint64_t global = 0;
        hive_status s = hive_shard_size(W.shards[rank], NULL, &global);
        if (s != HIVE_SUCCESS || global != W.live)
            HT_CHECK(0, "round %d rank %d: hive_shard_size %s, %llu keys, model %llu", round, rank,
                     hive_status_string(s), (unsigned long long)global, (unsigned long long)W.live);
    }
    return NULL;
}

static void lead_rounds(void)
{
    uint64_t state = 7;
    for (int round = 0; round < ROUNDS; round++) {
        W.round = round;
        W.op = round_op(round);
        key_stream stream = (key_stream)(round % KEYS_STREAMS);
        int invalid_rank = -1;
        if (W.op == OP_APPLY) {
            fill_apply(&state, POOL / (uint64_t)W.ranks / 4);
            if (round % 2 == 0) {
                invalid_rank = W.ranks - 1;
                if (W.batches[invalid_rank].n > 0)
                    W.batches[invalid_rank].ops[0] = 9;
            }
        } else {
            for (int r = 0; r < W.ranks; r++) {
                uint64_t n = round == LARGE_INSERT_ROUND ? LARGE_BATCH / 2
                             : round == LARGE_FIND_ROUND ? LARGE_BATCH
                                                         : splitmix(&state) % 6000;
                if ((round + r) % 5 == 4)
                    n = 0; /* an empty batch beside others' */
                fill_batch(r, W.op, stream, n, &state);
            }
        }
        ht_context("round %d op %d stream %d", round, (int)W.op, (int)stream);
        meet();
        meet();
        switch (W.op) {
        case OP_INSERT:
            check_insert();
            break;
        case OP_FIND:
        case OP_CONTAINS:
            check_find(W.op);
            break;
        case OP_ERASE:
            check_erase();
            break;
        case OP_APPLY:
            check_apply(invalid_rank);
            break;
        default:
            break;
        }
        check_size();
        meet();
    }
}

/* ---------------------------------------------------------------- bad input */

/* Rank `bad` passes NULL keys with n > 0 (or, when different_call, makes
 * another call than its peers): every rank's call must fail and the table
 * stay as it was. */
static void *bad_rank_main(void *p)
{
    int rank = ((rank_arg *)p)->rank;
    cudaSetDevice(rank);
    size_t w = W.kv64 ? 8 : 4;
    void *keys = NULL, *values = NULL;
    cudaMalloc(&keys, 64 * w);
    cudaMalloc(&values, 64 * w);
    cudaMemset(keys, 0x11, 64 * w);
    cudaMemset(values, 0, 64 * w);
    hive_shard *s = W.shards[rank];
    int bad = W.ranks - 1;
    /* 1: NULL keys on the last rank. */
    hive_status st = hive_shard_insert(s, 64, rank == bad ? NULL : keys, values, HIVE_COMBINE_ASSIGN, NULL, NULL);
    HT_CHECK_STATUS(st, HIVE_ERROR_INVALID_ARGUMENT, "rank %d: insert beside a rank with NULL keys", rank);
    meet();
    /* 2: host memory for keys on the last rank. */
    uint64_t host_keys[64] = {0};
    st = hive_shard_insert(s, 64, rank == bad ? (void *)host_keys : keys, values, HIVE_COMBINE_ASSIGN, NULL, NULL);
    HT_CHECK_STATUS(st, HIVE_ERROR_INVALID_ARGUMENT, "rank %d: insert beside a rank with host keys", rank);
    meet();
    /* 3: another call on the last rank (a find while the others insert). */
    if (W.ranks > 1) {
        uint8_t *found = NULL;
        cudaMalloc((void **)&found, 64);
        st = rank == bad ? hive_shard_find(s, 64, keys, values, found, NULL)
                         : hive_shard_insert(s, 64, keys, values, HIVE_COMBINE_ASSIGN, NULL, NULL);
        HT_CHECK_STATUS(st, HIVE_ERROR_INVALID_ARGUMENT, "rank %d: calls differ between the ranks", rank);
        cudaFree(found);
    }
    meet();
    /* 4: a combine mode out of range on the last rank. */
    st = hive_shard_insert(s, 64, keys, values, rank == bad ? (hive_combine)17 : HIVE_COMBINE_ASSIGN, NULL, NULL);
    HT_CHECK_STATUS(st, HIVE_ERROR_INVALID_ARGUMENT, "rank %d: combine out of range on a rank", rank);
    meet();
    /* 5: apply with NULL values but inserting ops, on the last rank. */
    uint8_t *ops = NULL;
    cudaMalloc((void **)&ops, 64);
    cudaMemset(ops, HIVE_OP_INSERT, 64);
    st = hive_shard_apply(s, 64, ops, keys, rank == bad ? NULL : values, HIVE_COMBINE_ASSIGN, NULL, NULL);
    HT_CHECK_STATUS(st, HIVE_ERROR_INVALID_ARGUMENT, "rank %d: apply with NULL values on a rank", rank);
    cudaFree(ops);
    meet();
    /* 6: n at 2^32 on the last rank. */
    st = hive_shard_erase(s, rank == bad ? (1ull << 32) : 64, keys, NULL, NULL);
    HT_CHECK_STATUS(st, HIVE_ERROR_INVALID_ARGUMENT, "rank %d: n = 2^32 on a rank", rank);
    uint64_t global = 0;
    HT_CHECK_STATUS(hive_shard_size(s, NULL, &global), HIVE_SUCCESS, "rank %d: size after refused calls", rank);
    HT_CHECK_EQ(global, W.live, "rank %d: refused calls changed nothing", rank);
    cudaFree(keys);
    cudaFree(values);
    return NULL;
}

static void check_bad_handles(void)
{
    hive_config config = HIVE_CONFIG_INIT;
    hive_shard *s = NULL;
    HT_CHECK_STATUS(hive_shard_create(NULL, W.comms[0], &s), HIVE_ERROR_INVALID_ARGUMENT, "NULL config");
    HT_CHECK_STATUS(hive_shard_create(&config, NULL, &s), HIVE_ERROR_INVALID_ARGUMENT, "NULL communicator");
    HT_CHECK_STATUS(hive_shard_create(&config, W.comms[0], NULL), HIVE_ERROR_INVALID_ARGUMENT, "NULL out");
    config.backend = HIVE_BACKEND_CPU;
    HT_CHECK_STATUS(hive_shard_create(&config, W.comms[0], &s), HIVE_ERROR_UNSUPPORTED, "CPU backend");
    HT_CHECK(s == NULL, "a failed create sets no handle");
    HT_CHECK_STATUS(hive_shard_find(NULL, 0, NULL, NULL, NULL, NULL), HIVE_ERROR_INVALID_ARGUMENT, "NULL shard");
    HT_CHECK_STATUS(hive_shard_destroy(NULL), HIVE_ERROR_INVALID_ARGUMENT, "NULL shard");
    HT_CHECK(hive_shard_local(NULL) == NULL, "NULL shard has no table");
    HT_CHECK(strlen(hive_shard_last_error()) > 0, "a failure leaves a message");
}

/* ---------------------------------------------------------------- export */

static void check_export(void)
{
    static uint8_t held[POOL];
    memset(held, 0, sizeof held);
    size_t w = W.kv64 ? 8 : 4;
    for (int r = 0; r < W.ranks; r++) {
        cudaSetDevice(r);
        hive_table *t = hive_shard_local(W.shards[r]);
        uint64_t size = 0, count = 0;
        hive_size(t, &size);
        void *keys = NULL, *values = NULL;
        cudaMalloc(&keys, size * w + 8);
        cudaMalloc(&values, size * w + 8);
        HT_CHECK_STATUS(hive_export(t, size, keys, values, &count, NULL), HIVE_SUCCESS, "rank %d export", r);
        void *hk = malloc(count * w + 8), *hv = malloc(count * w + 8);
        uint64_t *k = malloc(count * 8 + 8), *v = malloc(count * 8 + 8);
        from_device(hk, keys, count * w);
        from_device(hv, values, count * w);
        unpack(k, hk, count);
        unpack(v, hv, count);
        for (uint64_t i = 0; i < count; i++) {
            HT_CHECK_EQ(hive_shard_owner(k[i], (uint32_t)W.ranks), (uint64_t)r, "key %llx on rank %d",
                        (unsigned long long)k[i], r);
            uint32_t index = POOL;
            for (uint32_t j = 0; j < POOL && index == POOL; j++) /* small pool: a scan will do */
                if (W.pool[j] == k[i])
                    index = j;
            if (index == POOL || !W.present[index] || held[index]) {
                HT_CHECK(0, "rank %d exports key %llx the model does not hold once", r, (unsigned long long)k[i]);
                continue;
            }
            held[index] = 1;
            HT_CHECK_EQ(v[i], W.value[index], "value of key %llx", (unsigned long long)k[i]);
        }
        free(hk);
        free(hv);
        free(k);
        free(v);
        cudaFree(keys);
        cudaFree(values);
    }
    for (uint32_t i = 0; i < POOL; i++)
        if (W.present[i] && !held[i])
            HT_CHECK(0, "key %u (%llx) is in no shard", i, (unsigned long long)W.pool[i]);
}

/* ---------------------------------------------------------------- main */

static void run_threads(void *(*body)(void *))
{
    pthread_t threads[MAX_RANKS];
    rank_arg args[MAX_RANKS];
    for (int r = 0; r < W.ranks; r++) {
        args[r].rank = r;
        pthread_create(&threads[r], NULL, body, &args[r]);
    }
    if (body == rank_main)
        lead_rounds();
    for (int r = 0; r < W.ranks; r++)
        pthread_join(threads[r], NULL);
}

static void *create_main(void *p)
{
    int rank = ((rank_arg *)p)->rank;
    cudaSetDevice(rank);
    hive_config config = HIVE_CONFIG_INIT;
    config.key_width = W.kv64 ? HIVE_KV64 : HIVE_KV32;
    config.design = W.design;
    config.initial_capacity = 1024; /* every shard grows during the rounds */
    config.hash_seed = 0;           /* the crowded keys (make_pool) aim at seed 0's buckets */
    hive_status s = hive_shard_create(&config, W.comms[rank], &W.shards[rank]);
    if (s != HIVE_SUCCESS)
        ht_fatal("rank %d: hive_shard_create: %s (%s)", rank, hive_status_string(s), hive_shard_last_error());
    return NULL;
}

/* The ranks must agree on the key width: the last asks for the other one. */
static void *mismatch_main(void *p)
{
    int rank = ((rank_arg *)p)->rank;
    cudaSetDevice(rank);
    hive_config config = HIVE_CONFIG_INIT;
    config.key_width = (rank == W.ranks - 1) != W.kv64 ? HIVE_KV64 : HIVE_KV32;
    hive_shard *s = NULL;
    HT_CHECK_STATUS(hive_shard_create(&config, W.comms[rank], &s), HIVE_ERROR_INVALID_ARGUMENT,
                    "rank %d: key widths differ", rank);
    HT_CHECK(s == NULL, "rank %d: no handle", rank);
    return NULL;
}

int main(int argc, char **argv)
{
    int gpus = 0;
    W.design = HIVE_DESIGN_HIVE;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--gpus") == 0)
            gpus = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--kv") == 0)
            W.kv64 = strcmp(argv[i + 1], "64") == 0;
        else if (strcmp(argv[i], "--design") == 0)
            W.design = (hive_design)atoi(argv[i + 1]);
    }
    ht_begin(W.kv64 ? "shard.kv64" : "shard.kv32");
    int available = 0;
    if (cudaGetDeviceCount(&available) != cudaSuccess || available == 0) {
        cudaGetLastError();
        const char *require = getenv("HIVE_REQUIRE_GPU");
        if (require && strcmp(require, "1") == 0)
            ht_fatal("HIVE_REQUIRE_GPU=1 but no GPU was found");
        ht_skip("no GPU");
    }
    W.ranks = gpus > 0 && gpus < available ? gpus : available;
    if (W.ranks > MAX_RANKS)
        W.ranks = MAX_RANKS;
    int devices[MAX_RANKS];
    for (int r = 0; r < W.ranks; r++)
        devices[r] = r;
    ncclResult_t nr = ncclCommInitAll(W.comms, W.ranks, devices);
    if (nr != ncclSuccess)
        ht_fatal("ncclCommInitAll over %d GPUs: %s", W.ranks, ncclGetErrorString(nr));
    printf("shard test: %d rank(s), KV%d\n", W.ranks, W.kv64 ? 64 : 32);
    make_pool();
    for (int r = 0; r < W.ranks; r++) {
        batch *b = &W.batches[r];
        b->index = malloc(LARGE_BATCH * sizeof *b->index);
        b->keys = malloc(LARGE_BATCH * sizeof *b->keys);
        b->values = malloc(LARGE_BATCH * sizeof *b->values);
        b->values_out = malloc(LARGE_BATCH * sizeof *b->values_out);
        b->ops = malloc(LARGE_BATCH);
        b->flags = malloc(LARGE_BATCH);
    }
    pthread_barrier_init(&W.barrier, NULL, (unsigned)W.ranks + 1);
    check_bad_handles();
    if (W.ranks > 1) {
        pthread_barrier_destroy(&W.barrier);
        pthread_barrier_init(&W.barrier, NULL, (unsigned)W.ranks);
        run_threads(mismatch_main);
    }
    run_threads(create_main);
    pthread_barrier_destroy(&W.barrier);
    pthread_barrier_init(&W.barrier, NULL, (unsigned)W.ranks + 1);
    run_threads(rank_main);
    pthread_barrier_destroy(&W.barrier);
    pthread_barrier_init(&W.barrier, NULL, (unsigned)W.ranks);
    run_threads(bad_rank_main);
    check_export();
    for (int r = 0; r < W.ranks; r++) {
        HT_CHECK_STATUS(hive_shard_destroy(W.shards[r]), HIVE_SUCCESS, "rank %d destroy", r);
        ncclCommDestroy(W.comms[r]);
    }
    return ht_finish();
}
