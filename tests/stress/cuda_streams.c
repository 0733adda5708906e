/* cuda_streams.c — a CUDA table's calls wait for their own work only:
 *
 *   hive-cuda-streams cuda <kv32|kv64>
 *
 * A host function queued on a blocking stream of this program holds that
 * stream, and with it the legacy default stream (which waits for every
 * blocking stream), until the program lets it go or HOLD_SECONDS pass.
 * Meanwhile the program uses a table on a non-blocking stream: an insert
 * that puts keys in the stash (max_evictions 0: a key whose two buckets are
 * full goes there, and the batch then reads the stash's counter), finds,
 * contains, a mixed batch, erases, an export, and hive_stats_get (which
 * takes no stream: the table's own).  Each call must return while the host
 * function still holds: one that copied or waited on the legacy default
 * stream (cudaMemcpy, cudaDeviceSynchronize) would wait it out.  Then, with
 * the hold released, the table's contents are checked.
 *
 * The table is created and sized before the hold, and nothing during it
 * needs a resize: allocating or freeing device memory (cudaMalloc,
 * cudaFree) may wait for the whole device, which this test does not
 * judge. */
#define _POSIX_C_SOURCE 200809L
#include <cuda_runtime.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "hivetest.h"

#define HOLD_SECONDS 20.0
#define KEYS 200000

typedef struct hold {
    atomic_int started, released, ended;
    double held_for; /* seconds, when it ended */
} hold;

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The host function: holds its stream until released, or HOLD_SECONDS.
 * (It makes no CUDA call, as a host function must not.) */
static void CUDART_CB hold_stream(void *arg)
{
    hold *h = arg;
    double start = seconds_now();
    atomic_store(&h->started, 1);
    while (!atomic_load(&h->released) && seconds_now() - start < HOLD_SECONDS) {
        struct timespec nap = {0, 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    h->held_for = seconds_now() - start;
    atomic_store(&h->ended, 1);
}

/* A call made during the hold returned without waiting for it. */
static void expect_held(const hold *h, hive_status s, const char *call)
{
    HT_CHECK_STATUS(s, HIVE_SUCCESS, "%s during the hold (%s)", call, hive_last_error());
    HT_CHECK(!atomic_load(&h->ended),
             "%s returned only after another stream's host function ended (held %.1f s): it "
             "waited for work that is not the table's", call, h->held_for);
}

int main(int argc, char **argv)
{
    static char name[96];
    const char *usage = "cuda <kv32|kv64>";
    ht_target t;
    ht_target_from_args(&t, argc, argv, 1, usage);
    if (t.backend != HIVE_BACKEND_CUDA)
        ht_fatal("this test is for CUDA tables: %s", usage);
    snprintf(name, sizeof name, "cuda-streams %s", t.width_name);
    ht_begin(name);
    ht_context("%s: setup", name);

    hive_config c = ht_config(&t);
    c.initial_capacity = 1024;
    c.min_load_factor = 0.0;  /* no shrinking during the hold */
    c.max_evictions = 0;      /* full buckets send keys to the stash */
    c.stash_fraction = 0.25;  /* room for them all, never crowded */
    hive_table *table = ht_open(&t, &c);
    /* Room for the keys at load 0.8, so that no call of the hold grows the
     * table (max_load_factor 0.9 of it: more than the keys and the mixed
     * batch's upserts, which growth counts as new). */
    HT_MUST(hive_reserve(table, (uint64_t)(KEYS / 0.8 * 0.9), NULL));

    ht_rng rng;
    ht_rng_seed(&rng, 2024);
    static uint64_t keys[KEYS];
    ht_unique_keys(&t, &rng, keys, KEYS, NULL);
    ht_batch b, scratch;
    ht_batch_init(&b, &t, KEYS);
    ht_batch_init(&scratch, &t, 4096);
    b.n = KEYS;
    for (size_t i = 0; i < KEYS; i++) {
        ht_put(&t, b.keys, i, keys[i]);
        ht_put(&t, b.values, i, ht_random_value(&t, &rng));
    }
    void *out = ht_alloc(&t, KEYS * t.kv_bytes);
    void *export_keys = ht_alloc(&t, (KEYS + 8) * t.kv_bytes);
    void *export_values = ht_alloc(&t, (KEYS + 8) * t.kv_bytes);

    cudaStream_t blocking;
    if (cudaStreamCreate(&blocking) != cudaSuccess)
        ht_fatal("cudaStreamCreate failed");
    static hold h;
    if (cudaLaunchHostFunc(blocking, hold_stream, &h) != cudaSuccess)
        ht_fatal("cudaLaunchHostFunc failed");
    double waited = seconds_now();
    while (!atomic_load(&h.started) && seconds_now() - waited < 10.0) {
        struct timespec nap = {0, 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    if (!atomic_load(&h.started))
        ht_fatal("the host function did not start within 10 s");

    ht_context("%s: during the hold", name);
    hive_stats st0, st1;
    expect_held(&h, hive_stats_get(table, &st0), "hive_stats_get");
    ht_batch_poison_flags(&b);
    expect_held(&h, hive_insert(table, b.n, b.keys, b.values, HIVE_COMBINE_ASSIGN, b.results, b.stream),
                "hive_insert (keys that go to the stash)");
    expect_held(&h, hive_stats_get(table, &st1), "hive_stats_get after the insert");
    expect_held(&h, hive_find(table, b.n, b.keys, out, b.found, b.stream), "hive_find");
    expect_held(&h, hive_contains(table, b.n, b.keys, b.found, b.stream), "hive_contains");
    uint64_t count = 0;
    expect_held(&h, hive_export(table, KEYS + 8, export_keys, export_values, &count, b.stream),
                "hive_export");
    /* A mixed batch of finds and updates, then the erase of a tenth. */
    size_t tenth = KEYS / 10;
    for (size_t i = 0; i < tenth; i++)
        b.ops[i] = i % 2 ? HIVE_OP_FIND : HIVE_OP_UPSERT;
    expect_held(&h, hive_apply(table, tenth, b.ops, b.keys, b.values, HIVE_COMBINE_KEEP, b.results,
                               b.stream),
                "hive_apply");
    expect_held(&h, hive_erase(table, tenth, b.keys, b.results, b.stream), "hive_erase");

    atomic_store(&h.released, 1);
    if (cudaStreamSynchronize(blocking) != cudaSuccess)
        ht_fatal("cudaStreamSynchronize(blocking stream) failed");
    cudaStreamDestroy(blocking);
    printf("  the host function held its stream for %.2f s\n", h.held_for);

    ht_context("%s: after the hold", name);
    HT_CHECK(st1.insert_steps[3] > st0.insert_steps[3],
             "the insert put no key in the stash (insert_steps[3] %llu -> %llu): the stash "
             "counter's read was not exercised",
             (unsigned long long)st0.insert_steps[3], (unsigned long long)st1.insert_steps[3]);
    HT_CHECK(st1.stash_size > 0, "stats.stash_size is 0 after keys went to the stash%s", "");
    printf("  %llu keys in the stash of %llu slots\n", (unsigned long long)st1.stash_size,
           (unsigned long long)st1.stash_capacity);
    HT_CHECK_EQ(count, KEYS, "pairs exported during the hold");
    ht_ref ref;
    ht_ref_init(&ref);
    for (size_t i = tenth; i < KEYS; i++)
        ht_ref_put(&ref, keys[i], ht_get(&t, b.values, i));
    ht_expect_contents(&t, table, &ref, "after the hold");
    ht_expect_finds(&t, table, &ref, &scratch, "after the hold");
    ht_expect_absent(&t, table, keys, tenth, &scratch, "erased during the hold");

    ht_ref_free(&ref);
    ht_free(&t, export_values);
    ht_free(&t, export_keys);
    ht_free(&t, out);
    ht_batch_free(&scratch);
    ht_batch_free(&b);
    ht_close(table);
    return ht_finish();
}
