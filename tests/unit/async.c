/* async.c — hive_find_async and hive_contains_async (hive.h).
 *
 *   hive-async <cpu|cuda> <kv32|kv64>
 *
 * Against the keys inserted (a reference of present, absent and reserved
 * keys): the values and flags the calls write once their stream is waited
 * for, and the reserved keys their status counts; lookups left in flight on
 * one stream while another thread of work grows the table (the growth must
 * wait for them: every one still reads what it was enqueued on); on the GPU,
 * the calls captured in a CUDA Graph and launched three times over keys
 * rewritten between launches; and bad arguments.  On a CPU table the calls
 * run before returning, and the same checks hold. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HT_WITH_CUDA
#include <cuda_runtime.h>
#endif

#include "hivetest.h"

#define PRESENT 40000u
#define IN_FLIGHT 6

static ht_target target;

/* Key i of the run: present keys are 1..PRESENT (spread), absent ones above. */
static uint64_t key_of(uint64_t i) { return i * 2654435761u % 0x7FFFFFF0u + 1; }
static uint64_t value_of(uint64_t key) { return key ^ 0x5A5A5Au; }

static void wait_stream(hive_stream s)
{
#ifdef HT_WITH_CUDA
    if (target.backend == HIVE_BACKEND_CUDA)
        HT_CHECK_EQ((int)cudaStreamSynchronize((cudaStream_t)s), (int)cudaSuccess, "cudaStreamSynchronize");
#else
    (void)s;
#endif
}

/* Fills b with n keys: key_of(first + i), with `reserved` reserved keys at the end. */
static void fill_keys(ht_batch *b, uint64_t first, uint64_t n, uint64_t reserved)
{
    uint64_t top = target.width == HIVE_KV64 ? HIVE_KV64_RESERVED_MIN : HIVE_KV32_RESERVED_MIN;
    for (uint64_t i = 0; i < n; i++)
        ht_put(&target, b->keys, i, i + reserved >= n ? top + (i % 4) : key_of(first + i));
    b->n = n;
}

/* The lookups of b's keys (fill_keys(first, n, reserved)) came back right. */
static void check_found(const ht_batch *b, const void *values, const uint8_t *found, uint64_t first,
                        uint64_t reserved, const hive_async_status *status, const char *what)
{
    uint64_t wrong = 0;
    for (uint64_t i = 0; i < b->n; i++) {
        int reserved_key = i + reserved >= b->n;
        int present = !reserved_key && first + i < PRESENT;
        if (found[i] != present || (present && values != NULL &&
                                    ht_get(&target, values, i) != value_of(key_of(first + i))))
            wrong++;
    }
    HT_CHECK_EQ(wrong, 0u, "%s: keys found wrongly, missed or with a wrong value", what);
    HT_CHECK_EQ(status->words[HIVE_ASYNC_RESERVED], reserved, "%s: reserved keys counted", what);
}

static void lookups(hive_table *t, ht_batch *b, hive_async_status *status)
{
    ht_context("find and contains of present, absent and reserved keys");
    fill_keys(b, PRESENT / 2, PRESENT, 3);
    ht_batch_poison_flags(b);
    HT_CHECK_STATUS(hive_find_async(t, b->n, b->keys, b->values, b->found, status, b->stream), HIVE_SUCCESS,
                    "hive_find_async");
    wait_stream(b->stream);
    check_found(b, b->values, b->found, PRESENT / 2, 3, status, "hive_find_async");

    ht_batch_poison_flags(b);
    HT_CHECK_STATUS(hive_contains_async(t, b->n, b->keys, b->found, status, b->stream), HIVE_SUCCESS,
                    "hive_contains_async");
    wait_stream(b->stream);
    check_found(b, NULL, b->found, PRESENT / 2, 3, status, "hive_contains_async");

    HT_CHECK_STATUS(hive_find_async(t, 0, NULL, NULL, NULL, status, b->stream), HIVE_SUCCESS, "n = 0");
    wait_stream(b->stream);
    HT_CHECK_EQ(status->words[HIVE_ASYNC_RESERVED], 0u, "status of n = 0");
}

/* IN_FLIGHT finds of every present key, not waited for, then an insert that
 * grows the table several times: the growth waits for them. */
static void lookups_across_growth(hive_table *t, ht_batch *b)
{
    ht_context("finds in flight while the table grows");
    ht_batch outs[IN_FLIGHT];
    hive_async_status *status = ht_alloc(&target, IN_FLIGHT * sizeof *status);
    fill_keys(b, 0, PRESENT, 0);
    hive_stats before;
    HT_CHECK_STATUS(hive_stats_get(t, &before), HIVE_SUCCESS, "stats before");
    for (int k = 0; k < IN_FLIGHT; k++) {
        ht_batch_init(&outs[k], &target, PRESENT);
        ht_batch_poison_flags(&outs[k]);
        HT_CHECK_STATUS(hive_find_async(t, PRESENT, b->keys, outs[k].values, outs[k].found, &status[k],
                                        b->stream),
                        HIVE_SUCCESS, "hive_find_async %d in flight", k);
    }
    /* New keys on another stream, enough to grow the table at least twice. */
    ht_batch more;
    uint64_t n_more = 6 * PRESENT;
    ht_batch_init(&more, &target, n_more);
    for (uint64_t i = 0; i < n_more; i++) {
        ht_put(&target, more.keys, i, key_of(4 * PRESENT + i));
        ht_put(&target, more.values, i, 7);
    }
    HT_CHECK_STATUS(hive_insert(t, n_more, more.keys, more.values, HIVE_COMBINE_ASSIGN, NULL, more.stream),
                    HIVE_SUCCESS, "the insert that grows the table");
    hive_stats after;
    HT_CHECK_STATUS(hive_stats_get(t, &after), HIVE_SUCCESS, "stats after");
    HT_CHECK(after.grows > before.grows, "the table grew (%llu grows before, %llu after)",
             (unsigned long long)before.grows, (unsigned long long)after.grows);
    wait_stream(b->stream);
    for (int k = 0; k < IN_FLIGHT; k++) {
        check_found(b, outs[k].values, outs[k].found, 0, 0, &status[k], "a find in flight");
        ht_batch_free(&outs[k]);
    }
    /* The new keys are there too, and the old ones still: synchronous finds. */
    HT_CHECK_STATUS(hive_find(t, n_more, more.keys, more.values, more.found, more.stream), HIVE_SUCCESS,
                    "finds of the new keys");
    uint64_t missing = 0;
    for (uint64_t i = 0; i < n_more; i++)
        missing += !more.found[i] || ht_get(&target, more.values, i) != 7;
    HT_CHECK_EQ(missing, 0u, "new keys missing after the growth");
    ht_batch_free(&more);
    ht_free(&target, status);
}

#ifdef HT_WITH_CUDA
/* The calls captured in a graph, launched three times over other keys. */
static void captured(hive_table *t, ht_batch *b, hive_async_status *status)
{
    ht_context("hive_find_async and hive_contains_async captured in a CUDA Graph");
    cudaStream_t s = (cudaStream_t)b->stream;
    uint8_t *found2 = ht_alloc(&target, PRESENT);
    hive_async_status *status2 = ht_alloc(&target, sizeof *status2);
    fill_keys(b, 0, PRESENT, 0);
    cudaGraph_t graph = NULL;
    cudaGraphExec_t exec = NULL;
    HT_CHECK_EQ((int)cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), (int)cudaSuccess,
                "cudaStreamBeginCapture");
    HT_CHECK_STATUS(hive_find_async(t, PRESENT, b->keys, b->values, b->found, status, b->stream), HIVE_SUCCESS,
                    "hive_find_async while capturing");
    HT_CHECK_STATUS(hive_contains_async(t, PRESENT, b->keys, found2, status2, b->stream), HIVE_SUCCESS,
                    "hive_contains_async while capturing");
    HT_CHECK_EQ((int)cudaStreamEndCapture(s, &graph), (int)cudaSuccess, "cudaStreamEndCapture");
    HT_CHECK_EQ((int)cudaGraphInstantiate(&exec, graph, 0), (int)cudaSuccess, "cudaGraphInstantiate");
    for (int launch = 0; launch < 3; launch++) {
        uint64_t first = (uint64_t)launch * PRESENT / 2; /* all present, half, none */
        uint64_t reserved = (uint64_t)launch;
        fill_keys(b, first, PRESENT, reserved);
        ht_batch_poison_flags(b);
        memset(found2, 0xEE, PRESENT);
        HT_CHECK_EQ((int)cudaGraphLaunch(exec, s), (int)cudaSuccess, "cudaGraphLaunch %d", launch);
        wait_stream(b->stream);
        check_found(b, b->values, b->found, first, reserved, status, "the graph's find");
        check_found(b, NULL, found2, first, reserved, status2, "the graph's contains");
    }
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    ht_free(&target, found2);
    ht_free(&target, status2);
}
#endif

static void bad_arguments(hive_table *t, ht_batch *b, hive_async_status *status)
{
    ht_context("bad arguments");
    HT_CHECK_STATUS(hive_find_async(t, 1, b->keys, b->values, b->found, NULL, b->stream),
                    HIVE_ERROR_INVALID_ARGUMENT, "status NULL");
    HT_CHECK_STATUS(hive_find_async(t, 1, NULL, b->values, b->found, status, b->stream),
                    HIVE_ERROR_INVALID_ARGUMENT, "keys NULL");
    HT_CHECK_STATUS(hive_find_async(t, 1, b->keys, NULL, NULL, status, b->stream), HIVE_ERROR_INVALID_ARGUMENT,
                    "values and found NULL");
    HT_CHECK_STATUS(hive_contains_async(t, 1, b->keys, NULL, status, b->stream), HIVE_ERROR_INVALID_ARGUMENT,
                    "contains with found NULL");
    HT_CHECK_STATUS(hive_find_async(NULL, 1, b->keys, b->values, b->found, status, b->stream),
                    HIVE_ERROR_INVALID_ARGUMENT, "table NULL");
    if (target.backend == HIVE_BACKEND_CUDA) {
        hive_async_status pageable;
        HT_CHECK_STATUS(hive_find_async(t, 1, b->keys, b->values, b->found, &pageable, b->stream),
                        HIVE_ERROR_INVALID_ARGUMENT, "status in pageable host memory");
    }
}

int main(int argc, char **argv)
{
    static char name[64];
    const char *usage = "<cpu|cuda> <kv32|kv64>";
    if (argc < 3) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        return HT_EXIT_FAIL;
    }
    ht_target_from_args(&target, argc, argv, 1, usage);
    snprintf(name, sizeof name, "async %s %s", target.backend_name, target.width_name);
    ht_begin(name);

    hive_config c = ht_config(&target);
    c.initial_capacity = PRESENT + PRESENT / 4;
    hive_table *t = ht_open(&target, &c);
    ht_batch b;
    ht_batch_init(&b, &target, PRESENT);
    for (uint64_t i = 0; i < PRESENT; i++) {
        ht_put(&target, b.keys, i, key_of(i));
        ht_put(&target, b.values, i, value_of(key_of(i)));
    }
    HT_CHECK_STATUS(hive_insert(t, PRESENT, b.keys, b.values, HIVE_COMBINE_ASSIGN, NULL, b.stream), HIVE_SUCCESS,
                    "inserting the present keys");
    hive_async_status *status = ht_alloc(&target, sizeof *status);

    lookups(t, &b, status);
#ifdef HT_WITH_CUDA
    if (target.backend == HIVE_BACKEND_CUDA)
        captured(t, &b, status);
#endif
    lookups_across_growth(t, &b);
    bad_arguments(t, &b, status);

    ht_free(&target, status);
    ht_batch_free(&b);
    ht_close(t);
    return ht_finish();
}
