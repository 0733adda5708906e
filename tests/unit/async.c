/* async.c — the asynchronous calls (hive.h: hive_find_async and the rest).
 *
 *   hive-async <cpu|cuda> <kv32|kv64>
 *
 * Against the keys inserted (a reference of present, absent and reserved
 * keys): the values and flags the calls write once their stream is waited
 * for, and the reserved keys their status counts; lookups left in flight on
 * one stream while another thread of work grows the table (the growth must
 * wait for them: every one still reads what it was enqueued on); on the GPU,
 * the calls captured in a CUDA Graph and launched three times over keys
 * rewritten between launches; inserts (with ADD over repeated keys and
 * reserved keys), erases and mixed batches checked key by key and by their
 * status words, and the size they leave; an insert far beyond the room,
 * which grows the table before it is enqueued; inserts and erases captured
 * in a graph and launched three times; and bad arguments.  On a CPU table
 * the calls run before returning, and the same checks hold. */
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

static uint64_t table_size(hive_table *t)
{
    uint64_t size = 0;
    HT_CHECK_STATUS(hive_size(t, &size), HIVE_SUCCESS, "hive_size");
    return size;
}

static uint64_t count_results(const ht_batch *b, unsigned r)
{
    uint64_t c = 0;
    for (uint64_t i = 0; i < b->n; i++)
        c += b->results[i] == r;
    return c;
}

/* Keys of the mutation tests, apart from the present and the absent ones. */
#define FRESH 5000u
static uint64_t fresh_key(uint64_t i) { return key_of(8 * PRESENT + i % FRESH); }

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

/* An insert and an erase of the same fresh keys captured in a graph: each
 * launch inserts and erases them all, and the size, counted once the launch
 * is waited for, stays. */
static void captured_mutations(hive_table *t, ht_batch *b, hive_async_status *status)
{
    ht_context("hive_insert_async and hive_erase_async captured in a CUDA Graph");
    cudaStream_t s = (cudaStream_t)b->stream;
    hive_async_status *status2 = ht_alloc(&target, sizeof *status2);
    uint8_t *results2 = ht_alloc(&target, FRESH);
    for (uint64_t i = 0; i < FRESH; i++) {
        ht_put(&target, b->keys, i, fresh_key(i));
        ht_put(&target, b->values, i, i);
    }
    b->n = FRESH;
    uint64_t size = table_size(t);
    cudaGraph_t graph = NULL;
    cudaGraphExec_t exec = NULL;
    HT_CHECK_EQ((int)cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), (int)cudaSuccess,
                "cudaStreamBeginCapture");
    HT_CHECK_STATUS(hive_insert_async(t, FRESH, b->keys, b->values, HIVE_COMBINE_ASSIGN, b->results, status,
                                      b->stream),
                    HIVE_SUCCESS, "hive_insert_async while capturing");
    HT_CHECK_STATUS(hive_erase_async(t, FRESH, b->keys, results2, status2, b->stream), HIVE_SUCCESS,
                    "hive_erase_async while capturing");
    HT_CHECK_EQ((int)cudaStreamEndCapture(s, &graph), (int)cudaSuccess, "cudaStreamEndCapture");
    HT_CHECK_EQ((int)cudaGraphInstantiate(&exec, graph, 0), (int)cudaSuccess, "cudaGraphInstantiate");
    for (int launch = 0; launch < 3; launch++) {
        HT_CHECK_EQ((int)cudaGraphLaunch(exec, s), (int)cudaSuccess, "cudaGraphLaunch %d", launch);
        wait_stream(b->stream);
        HT_CHECK_EQ(status->words[HIVE_ASYNC_INSERTED], FRESH, "launch %d: inserted", launch);
        HT_CHECK_EQ(status2->words[HIVE_ASYNC_ERASED], FRESH, "launch %d: erased", launch);
        HT_CHECK_EQ(count_results(b, HIVE_RESULT_INSERTED), FRESH, "launch %d: insert results", launch);
        HT_CHECK_EQ(table_size(t), size, "launch %d: the size stays", launch);
    }
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    ht_free(&target, status2);
    ht_free(&target, results2);
}
#endif

/* hive_insert_async (ADD over each fresh key twice, with reserved keys at
 * the end), hive_erase_async of them and of absent keys, and a mixed batch
 * of hive_apply_async with a bad op code: results, status and size. */
static void mutations(hive_table *t, ht_batch *b, hive_async_status *status)
{
    ht_context("asynchronous inserts, erases and mixed batches");
    uint64_t reserved = 3, n = 2 * FRESH + reserved;
    uint64_t top = target.width == HIVE_KV64 ? HIVE_KV64_RESERVED_MIN : HIVE_KV32_RESERVED_MIN;
    for (uint64_t i = 0; i < n; i++) {
        ht_put(&target, b->keys, i, i < 2 * FRESH ? fresh_key(i) : top + (i % 4));
        ht_put(&target, b->values, i, i % FRESH + 1);
    }
    b->n = n;
    HT_CHECK_STATUS(hive_insert_async(t, n, b->keys, b->values, HIVE_COMBINE_ADD, b->results, status, b->stream),
                    HIVE_SUCCESS, "hive_insert_async");
    wait_stream(b->stream);
    HT_CHECK_EQ(status->words[HIVE_ASYNC_INSERTED], FRESH, "insert: status INSERTED");
    HT_CHECK_EQ(status->words[HIVE_ASYNC_RESERVED], reserved, "insert: status RESERVED");
    HT_CHECK_EQ(status->words[HIVE_ASYNC_FULL], 0u, "insert: status FULL");
    HT_CHECK_EQ(count_results(b, HIVE_RESULT_INSERTED), FRESH, "insert: results INSERTED");
    HT_CHECK_EQ(count_results(b, HIVE_RESULT_UPDATED), FRESH, "insert: results UPDATED");
    HT_CHECK_EQ(count_results(b, HIVE_RESULT_REJECTED_RESERVED), reserved, "insert: results REJECTED_RESERVED");
    HT_CHECK_EQ(table_size(t), PRESENT + FRESH, "size after the insert");
    b->n = FRESH;
    HT_CHECK_STATUS(hive_find(t, FRESH, b->keys, b->values, b->found, b->stream), HIVE_SUCCESS, "finds");
    uint64_t wrong = 0;
    for (uint64_t i = 0; i < FRESH; i++)
        wrong += !b->found[i] || ht_get(&target, b->values, i) != 2 * (i + 1);
    HT_CHECK_EQ(wrong, 0u, "fresh keys missing or without the sum of their two values");

    /* Erase the fresh keys and as many absent ones. */
    for (uint64_t i = 0; i < 2 * FRESH; i++)
        ht_put(&target, b->keys, i, i < FRESH ? fresh_key(i) : key_of(16 * PRESENT + i));
    b->n = 2 * FRESH;
    HT_CHECK_STATUS(hive_erase_async(t, 2 * FRESH, b->keys, b->results, status, b->stream), HIVE_SUCCESS,
                    "hive_erase_async");
    wait_stream(b->stream);
    HT_CHECK_EQ(status->words[HIVE_ASYNC_ERASED], FRESH, "erase: status ERASED");
    HT_CHECK_EQ(count_results(b, HIVE_RESULT_ERASED), FRESH, "erase: results ERASED");
    HT_CHECK_EQ(count_results(b, HIVE_RESULT_NOT_FOUND), FRESH, "erase: results NOT_FOUND");
    HT_CHECK_EQ(table_size(t), PRESENT, "size after the erase");

    /* Mixed: find present key i, insert fresh key i, erase present key
     * PRESENT/2 + i, and one bad op code. */
    uint64_t m = 3 * FRESH + 1;
    uint8_t *ops = ht_alloc(&target, m);
    for (uint64_t i = 0; i < FRESH; i++) {
        ops[3 * i] = HIVE_OP_FIND;
        ht_put(&target, b->keys, 3 * i, key_of(i));
        ops[3 * i + 1] = HIVE_OP_INSERT;
        ht_put(&target, b->keys, 3 * i + 1, fresh_key(i));
        ht_put(&target, b->values, 3 * i + 1, 77);
        ops[3 * i + 2] = HIVE_OP_ERASE;
        ht_put(&target, b->keys, 3 * i + 2, key_of(PRESENT / 2 + i));
    }
    ops[m - 1] = 9;
    ht_put(&target, b->keys, m - 1, 1);
    b->n = m;
    HT_CHECK_STATUS(hive_apply_async(t, m, ops, b->keys, b->values, HIVE_COMBINE_ASSIGN, b->results, status,
                                     b->stream),
                    HIVE_SUCCESS, "hive_apply_async");
    wait_stream(b->stream);
    wrong = 0;
    for (uint64_t i = 0; i < FRESH; i++)
        wrong += b->results[3 * i] != HIVE_RESULT_FOUND || ht_get(&target, b->values, 3 * i) != value_of(key_of(i)) ||
                 b->results[3 * i + 1] != HIVE_RESULT_INSERTED || b->results[3 * i + 2] != HIVE_RESULT_ERASED;
    HT_CHECK_EQ(wrong, 0u, "mixed: elements with a wrong result or value");
    HT_CHECK_EQ(status->words[HIVE_ASYNC_INSERTED], FRESH, "mixed: status INSERTED");
    HT_CHECK_EQ(status->words[HIVE_ASYNC_ERASED], FRESH, "mixed: status ERASED");
    HT_CHECK_EQ(status->words[HIVE_ASYNC_BAD_OPS], 1u, "mixed: status BAD_OPS");
    HT_CHECK_EQ(table_size(t), PRESENT, "size after the mixed batch");

    /* Put things back: the present keys erased, the fresh ones out. */
    for (uint64_t i = 0; i < FRESH; i++) {
        ht_put(&target, b->keys, i, key_of(PRESENT / 2 + i));
        ht_put(&target, b->values, i, value_of(key_of(PRESENT / 2 + i)));
        ht_put(&target, b->keys, FRESH + i, fresh_key(i));
    }
    HT_CHECK_STATUS(hive_insert(t, FRESH, b->keys, b->values, HIVE_COMBINE_ASSIGN, NULL, b->stream), HIVE_SUCCESS,
                    "the erased present keys again");
    HT_CHECK_STATUS(hive_erase(t, FRESH, (const char *)b->keys + FRESH * target.kv_bytes, NULL, b->stream),
                    HIVE_SUCCESS, "the fresh keys out");
    HT_CHECK_EQ(table_size(t), PRESENT, "size restored");
    ht_free(&target, ops);
}

/* An asynchronous insert of sixteen times the table's room: the table grows
 * before the work is enqueued, and every key finds room. */
static void growth_before_enqueue(void)
{
    ht_context("an asynchronous insert beyond the room");
    hive_config c = ht_config(&target);
    c.initial_capacity = 4096;
    hive_table *t = ht_open(&target, &c);
    uint64_t n = 16 * 4096;
    ht_batch b;
    ht_batch_init(&b, &target, n);
    for (uint64_t i = 0; i < n; i++) {
        ht_put(&target, b.keys, i, key_of(i));
        ht_put(&target, b.values, i, i);
    }
    hive_async_status *status = ht_alloc(&target, sizeof *status);
    for (int half = 0; half < 2; half++) {
        const char *keys = (const char *)b.keys + (uint64_t)half * (n / 2) * target.kv_bytes;
        const char *values = (const char *)b.values + (uint64_t)half * (n / 2) * target.kv_bytes;
        HT_CHECK_STATUS(hive_insert_async(t, n / 2, keys, values, HIVE_COMBINE_KEEP, b.results + half * (n / 2),
                                          status, b.stream),
                        HIVE_SUCCESS, "hive_insert_async, half %d", half);
        wait_stream(b.stream);
        HT_CHECK_EQ(status->words[HIVE_ASYNC_FULL], 0u, "half %d: keys rejected for room", half);
        HT_CHECK_EQ(status->words[HIVE_ASYNC_INSERTED], n / 2, "half %d: keys inserted", half);
    }
    hive_stats st;
    HT_CHECK_STATUS(hive_stats_get(t, &st), HIVE_SUCCESS, "stats");
    HT_CHECK(st.grows > 0 && st.size == n, "grew (%llu times) and holds every key (%llu)",
             (unsigned long long)st.grows, (unsigned long long)st.size);
    HT_CHECK_STATUS(hive_find(t, n, b.keys, b.values, b.found, b.stream), HIVE_SUCCESS, "finds");
    uint64_t wrong = 0;
    for (uint64_t i = 0; i < n; i++)
        wrong += !b.found[i] || ht_get(&target, b.values, i) != i;
    HT_CHECK_EQ(wrong, 0u, "keys missing or wrong after the asynchronous inserts");
    ht_free(&target, status);
    ht_batch_free(&b);
    ht_close(t);
}

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
    HT_CHECK_STATUS(hive_insert_async(t, 1, b->keys, b->values, HIVE_COMBINE_ASSIGN, NULL, status, b->stream),
                    HIVE_ERROR_INVALID_ARGUMENT, "insert with results NULL");
    HT_CHECK_STATUS(hive_insert_async(t, 1, b->keys, b->values, (hive_combine)7, b->results, status, b->stream),
                    HIVE_ERROR_INVALID_ARGUMENT, "insert with a bad combine mode");
    HT_CHECK_STATUS(hive_insert_async(t, 1, b->keys, NULL, HIVE_COMBINE_ASSIGN, b->results, status, b->stream),
                    HIVE_ERROR_INVALID_ARGUMENT, "insert with values NULL");
    HT_CHECK_STATUS(hive_erase_async(t, 1, NULL, b->results, status, b->stream), HIVE_ERROR_INVALID_ARGUMENT,
                    "erase with keys NULL");
    HT_CHECK_STATUS(hive_erase_async(t, 1, b->keys, b->results, NULL, b->stream), HIVE_ERROR_INVALID_ARGUMENT,
                    "erase with status NULL");
    uint8_t op = HIVE_OP_FIND;
    HT_CHECK_STATUS(hive_apply_async(t, 1, &op, b->keys, NULL, HIVE_COMBINE_ASSIGN, b->results, status, b->stream),
                    HIVE_ERROR_INVALID_ARGUMENT, "apply with values NULL");
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
    mutations(t, &b, status);
#ifdef HT_WITH_CUDA
    if (target.backend == HIVE_BACKEND_CUDA) {
        captured(t, &b, status);
        captured_mutations(t, &b, status);
    }
#endif
    lookups_across_growth(t, &b);
    bad_arguments(t, &b, status);
    growth_before_enqueue();

    ht_free(&target, status);
    ht_batch_free(&b);
    ht_close(t);
    return ht_finish();
}
