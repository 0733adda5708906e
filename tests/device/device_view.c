/* device_view.c — a table used from kernels through include/hive/device.cuh
 * (hive.h: hive_device_view_acquire and _release).
 *
 *   hive-device-view <kv32|kv64> [--design NAME]
 *
 * Against a reference of every key: upserts with ADD and with the caller's
 * own merge (an OR) over keys repeated in the kernel, inserts of present
 * keys, finds of present, absent and reserved keys, erases twice; the size
 * the table counts once the view is released; a table without room for the
 * kernel's keys (rejected for room, nothing lost, the layout pinned: no
 * growth from host calls, hive_reserve, hive_clear and hive_export refused
 * until the release); inserts on one stream while finds run on another; KV32
 * tiles of 8 and 32 lanes; and misuse (no view out, a CPU table).  CUDA
 * only: a run without a GPU skips, or fails under HIVE_REQUIRE_GPU=1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "device_kernels.h"
#include "hivetest.h"

#define KEYS 20000u   /* distinct keys of a round */
#define REPEATS 3u    /* times each appears in an upsert kernel */

static ht_target target;

static uint64_t key_of(uint64_t i) { return i * 2654435761u % 0x7FFFFFF0u + 1; }

static void wait_stream(hive_stream s)
{
    HT_CHECK_EQ((int)cudaStreamSynchronize((cudaStream_t)s), (int)cudaSuccess, "cudaStreamSynchronize");
}

/* Runs op over keys/values of b (n of them) and waits. */
static void run(hive_device_view view, ht_device_op op, int combine, uint32_t lanes, uint64_t n, ht_batch *b)
{
    int width = target.width == HIVE_KV64 ? 64 : 32;
    HT_CHECK_EQ(ht_device_run(view, width, op, combine, lanes, n, b->keys, b->values, b->results, b->stream), 0,
                "kernel launch (op %d)", (int)op);
    wait_stream(b->stream);
}

/* How many of results[0..n) are `r`. */
static uint64_t count_results(const ht_batch *b, uint64_t n, unsigned r)
{
    uint64_t c = 0;
    for (uint64_t i = 0; i < n; i++)
        c += b->results[i] == r;
    return c;
}

static uint64_t table_size(hive_table *t)
{
    uint64_t size = 0;
    HT_CHECK_STATUS(hive_size(t, &size), HIVE_SUCCESS, "hive_size");
    return size;
}

/* Upserts (ADD, then the OR of device_kernels.cu), inserts, finds and erases
 * from kernels, each checked key by key. */
static void operations(hive_table *t, uint32_t lanes)
{
    ht_context("device operations (%s, %u lane%s a key)", target.design_name, lanes, lanes == 1 ? "" : "s");
    ht_batch b;
    ht_batch_init(&b, &target, REPEATS * KEYS);
    uint64_t n = REPEATS * KEYS;
    HT_CHECK_STATUS(hive_reserve(t, 2 * KEYS, b.stream), HIVE_SUCCESS, "hive_reserve");
    hive_device_view view;
    HT_CHECK_STATUS(hive_device_view_acquire(t, &view), HIVE_SUCCESS, "hive_device_view_acquire");

    for (uint64_t i = 0; i < n; i++) {
        ht_put(&target, b.keys, i, key_of(i % KEYS));
        ht_put(&target, b.values, i, 1);
    }
    run(view, HT_DEVICE_UPSERT, HIVE_COMBINE_ADD, lanes, n, &b);
    HT_CHECK_EQ(count_results(&b, n, HIVE_RESULT_INSERTED), KEYS, "upsert ADD: keys inserted");
    HT_CHECK_EQ(count_results(&b, n, HIVE_RESULT_UPDATED), n - KEYS, "upsert ADD: repeats updated");

    /* The OR of bits 3, 4, 5 (one per repeat) over the sum 3. */
    for (uint64_t i = 0; i < n; i++)
        ht_put(&target, b.values, i, 8u << (i / KEYS));
    run(view, HT_DEVICE_UPSERT, HT_DEVICE_COMBINE_OR, lanes, n, &b);
    HT_CHECK_EQ(count_results(&b, n, HIVE_RESULT_UPDATED), n, "upsert with the caller's merge: all updated");

    /* Inserts of present keys keep their values. */
    for (uint64_t i = 0; i < KEYS; i++)
        ht_put(&target, b.values, i, 12345);
    run(view, HT_DEVICE_INSERT, 0, lanes, KEYS, &b);
    HT_CHECK_EQ(count_results(&b, KEYS, HIVE_RESULT_EXISTED), KEYS, "insert of present keys: existed");

    /* Finds: present keys, then as many absent, then reserved ones. */
    uint64_t reserved = 4;
    for (uint64_t i = 0; i < 2 * KEYS + reserved; i++) {
        ht_put(&target, b.keys, i, i < 2 * KEYS ? key_of(i) : target.reserved_min + (i - 2 * KEYS));
        ht_put(&target, b.values, i, 0);
    }
    run(view, HT_DEVICE_FIND, 0, lanes, 2 * KEYS + reserved, &b);
    uint64_t wrong = 0;
    for (uint64_t i = 0; i < 2 * KEYS + reserved; i++) {
        unsigned want = i < KEYS ? HIVE_RESULT_FOUND : i < 2 * KEYS ? HIVE_RESULT_NOT_FOUND
                                                                     : HIVE_RESULT_REJECTED_RESERVED;
        wrong += b.results[i] != want || (i < KEYS && ht_get(&target, b.values, i) != (3u | 8u | 16u | 32u));
    }
    HT_CHECK_EQ(wrong, 0u, "finds: results or values wrong");

    /* Erase the first half twice. */
    run(view, HT_DEVICE_ERASE, 0, lanes, KEYS / 2, &b);
    HT_CHECK_EQ(count_results(&b, KEYS / 2, HIVE_RESULT_ERASED), KEYS / 2, "erases");
    run(view, HT_DEVICE_ERASE, 0, lanes, KEYS / 2, &b);
    HT_CHECK_EQ(count_results(&b, KEYS / 2, HIVE_RESULT_NOT_FOUND), KEYS / 2, "erases of erased keys");
    HT_CHECK_STATUS(hive_device_view_release(t, b.stream), HIVE_SUCCESS, "hive_device_view_release");

    HT_CHECK_EQ(table_size(t), KEYS - KEYS / 2, "hive_size counts the kernels' inserts and erases");
    HT_CHECK_STATUS(hive_find(t, KEYS, b.keys, b.values, b.found, b.stream), HIVE_SUCCESS, "host finds");
    wrong = 0;
    for (uint64_t i = 0; i < KEYS; i++)
        wrong += b.found[i] != (i >= KEYS / 2) || (i >= KEYS / 2 && ht_get(&target, b.values, i) != 59u);
    HT_CHECK_EQ(wrong, 0u, "host finds after the kernels: keys missing, kept or wrong");
    HT_CHECK_STATUS(hive_clear(t, b.stream), HIVE_SUCCESS, "hive_clear after the release");
    HT_CHECK_EQ(table_size(t), 0u, "size after clear");
    ht_batch_free(&b);
}

/* A kernel with more keys than the table has room for: each is inserted or
 * rejected for room, and the pinned table does not grow until released. */
static void no_room(void)
{
    ht_context("a pinned table without room (%s)", target.design_name);
    hive_config c = ht_config(&target);
    c.initial_capacity = 1024;
    hive_table *t = ht_open(&target, &c);
    uint64_t n = 8192;
    ht_batch b, host;
    ht_batch_init(&b, &target, n);
    ht_batch_init(&host, &target, n);
    for (uint64_t i = 0; i < n; i++) {
        ht_put(&target, b.keys, i, key_of(i));
        ht_put(&target, b.values, i, i + 1);
        ht_put(&target, host.keys, i, key_of(n + i));
        ht_put(&target, host.values, i, 7);
    }
    hive_stats before;
    HT_CHECK_STATUS(hive_stats_get(t, &before), HIVE_SUCCESS, "stats");
    hive_device_view view;
    HT_CHECK_STATUS(hive_device_view_acquire(t, &view), HIVE_SUCCESS, "acquire");
    run(view, HT_DEVICE_INSERT, 0, 1, n, &b);
    uint64_t inserted = count_results(&b, n, HIVE_RESULT_INSERTED);
    uint64_t rejected = count_results(&b, n, HIVE_RESULT_REJECTED_FULL);
    HT_CHECK_EQ(inserted + rejected, n, "every key inserted or rejected for room");
    HT_CHECK(rejected > 0 && inserted <= before.capacity + before.stash_capacity,
             "%llu inserted, %llu rejected into %llu slots", (unsigned long long)inserted,
             (unsigned long long)rejected, (unsigned long long)before.capacity);

    /* Host calls while pinned: no growth, and the calls that would change
     * the layout or race the kernels refuse. */
    HT_CHECK_STATUS(hive_insert(t, n, host.keys, host.values, HIVE_COMBINE_ASSIGN, host.results, host.stream),
                    HIVE_ERROR_TABLE_FULL, "a host insert beyond the room while pinned");
    HT_CHECK(strstr(hive_last_error(), "device view") != NULL, "the error names the view: %s", hive_last_error());
    uint64_t host_inserted = count_results(&host, n, HIVE_RESULT_INSERTED);
    HT_CHECK_STATUS(hive_reserve(t, 100000, host.stream), HIVE_ERROR_INVALID_ARGUMENT, "hive_reserve while pinned");
    HT_CHECK_STATUS(hive_clear(t, host.stream), HIVE_ERROR_INVALID_ARGUMENT, "hive_clear while pinned");
    uint64_t count = 0;
    HT_CHECK_STATUS(hive_export(t, 0, NULL, NULL, &count, host.stream), HIVE_ERROR_INVALID_ARGUMENT,
                    "hive_export while pinned");
    hive_stats pinned;
    HT_CHECK_STATUS(hive_stats_get(t, &pinned), HIVE_SUCCESS, "stats while pinned");
    HT_CHECK_EQ(pinned.grows, before.grows, "no growth while pinned");
    HT_CHECK_STATUS(hive_device_view_release(t, b.stream), HIVE_SUCCESS, "release");

    HT_CHECK_EQ(table_size(t), inserted + host_inserted, "size: the kernel's and the host's inserts");
    HT_CHECK_STATUS(hive_find(t, n, b.keys, b.values, b.found, b.stream), HIVE_SUCCESS, "finds");
    uint64_t wrong = 0;
    for (uint64_t i = 0; i < n; i++) {
        int was_inserted = b.results[i] == HIVE_RESULT_INSERTED;
        wrong += b.found[i] != was_inserted || (was_inserted && ht_get(&target, b.values, i) != i + 1);
    }
    HT_CHECK_EQ(wrong, 0u, "keys found that were rejected, or missing, or with a wrong value");
    /* Released: the rejected keys now make the table grow. */
    HT_CHECK_STATUS(hive_insert(t, n, b.keys, b.values, HIVE_COMBINE_KEEP, NULL, b.stream), HIVE_SUCCESS,
                    "the kernel's keys again, from the host");
    hive_stats after;
    HT_CHECK_STATUS(hive_stats_get(t, &after), HIVE_SUCCESS, "stats");
    HT_CHECK(after.grows > before.grows, "the table grows once released");
    HT_CHECK_EQ(table_size(t), n + host_inserted, "size after the host's inserts");
    ht_batch_free(&b);
    ht_batch_free(&host);
    ht_close(t);
}

/* Inserts of new keys on one stream while finds of present ones run on
 * another, both through the same view. */
static void two_streams(hive_table *t)
{
    ht_context("inserts and finds on two streams at once (%s)", target.design_name);
    ht_batch present, fresh;
    ht_batch_init(&present, &target, KEYS);
    ht_batch_init(&fresh, &target, KEYS);
    for (uint64_t i = 0; i < KEYS; i++) {
        ht_put(&target, present.keys, i, key_of(i));
        ht_put(&target, present.values, i, i ^ 0x55);
        ht_put(&target, fresh.keys, i, key_of(KEYS + i));
        ht_put(&target, fresh.values, i, i);
    }
    HT_CHECK_STATUS(hive_insert(t, KEYS, present.keys, present.values, HIVE_COMBINE_ASSIGN, NULL, present.stream),
                    HIVE_SUCCESS, "the present keys");
    HT_CHECK_STATUS(hive_reserve(t, 3 * KEYS, present.stream), HIVE_SUCCESS, "reserve");
    hive_device_view view;
    HT_CHECK_STATUS(hive_device_view_acquire(t, &view), HIVE_SUCCESS, "acquire");
    int width = target.width == HIVE_KV64 ? 64 : 32;
    for (int round = 0; round < 4; round++) {
        memset(present.results, 0, KEYS);
        HT_CHECK_EQ(ht_device_run(view, width, HT_DEVICE_FIND, 0, 1, KEYS, present.keys, present.values,
                                  present.results, present.stream), 0, "finds");
        HT_CHECK_EQ(ht_device_run(view, width, round % 2 ? HT_DEVICE_ERASE : HT_DEVICE_INSERT, 0, 1, KEYS,
                                  fresh.keys, fresh.values, fresh.results, fresh.stream), 0, "inserts");
        wait_stream(present.stream);
        wait_stream(fresh.stream);
        uint64_t wrong = 0;
        for (uint64_t i = 0; i < KEYS; i++)
            wrong += present.results[i] != HIVE_RESULT_FOUND || ht_get(&target, present.values, i) != (i ^ 0x55);
        HT_CHECK_EQ(wrong, 0u, "round %d: present keys missed while others came and went", round);
        HT_CHECK_EQ(count_results(&fresh, KEYS, round % 2 ? HIVE_RESULT_ERASED : HIVE_RESULT_INSERTED), KEYS,
                    "round %d: the other stream's keys", round);
    }
    HT_CHECK_STATUS(hive_device_view_release(t, fresh.stream), HIVE_SUCCESS, "release");
    HT_CHECK_EQ(table_size(t), KEYS, "size: the fresh keys came and went");
    HT_CHECK_STATUS(hive_clear(t, present.stream), HIVE_SUCCESS, "clear");
    ht_batch_free(&present);
    ht_batch_free(&fresh);
}

static void misuse(hive_table *t)
{
    ht_context("misuse");
    hive_device_view view;
    HT_CHECK_STATUS(hive_device_view_release(t, NULL), HIVE_ERROR_INVALID_ARGUMENT, "release with no view out");
    HT_CHECK_STATUS(hive_device_view_acquire(t, NULL), HIVE_ERROR_INVALID_ARGUMENT, "acquire into NULL");
    HT_CHECK_STATUS(hive_device_view_acquire(NULL, &view), HIVE_ERROR_INVALID_ARGUMENT, "acquire of NULL");
    /* Two views out: the layout stays pinned until both are released. */
    HT_CHECK_STATUS(hive_device_view_acquire(t, &view), HIVE_SUCCESS, "first view");
    HT_CHECK_STATUS(hive_device_view_acquire(t, &view), HIVE_SUCCESS, "second view");
    HT_CHECK_STATUS(hive_device_view_release(t, NULL), HIVE_SUCCESS, "first release");
    HT_CHECK_STATUS(hive_reserve(t, 1u << 20, NULL), HIVE_ERROR_INVALID_ARGUMENT, "reserve with one view out");
    HT_CHECK_STATUS(hive_device_view_release(t, NULL), HIVE_SUCCESS, "second release");
    HT_CHECK_STATUS(hive_reserve(t, 1u << 16, NULL), HIVE_SUCCESS, "reserve once released");

    hive_config c = HIVE_CONFIG_INIT;
    c.backend = HIVE_BACKEND_CPU;
    c.key_width = target.width;
    hive_table *cpu = NULL;
    HT_CHECK_STATUS(hive_create(&c, &cpu), HIVE_SUCCESS, "a CPU table");
    HT_CHECK_STATUS(hive_device_view_acquire(cpu, &view), HIVE_ERROR_UNSUPPORTED, "a CPU table's view");
    HT_CHECK_STATUS(hive_device_view_release(cpu, NULL), HIVE_ERROR_UNSUPPORTED, "a CPU table's release");
    hive_destroy(cpu);
}

int main(int argc, char **argv)
{
    static char name[96];
    const char *usage = "<kv32|kv64> [--design NAME]";
    hive_design design = ht_take_design(&argc, argv, usage);
    if (argc < 2) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        return HT_EXIT_FAIL;
    }
    char *args[] = {argv[0], (char *)"cuda", argv[1]};
    ht_target_from_args(&target, 3, args, 1, usage);
    ht_target_set_design(&target, design);
    snprintf(name, sizeof name, "device view %s %s", target.width_name, target.design_name);
    ht_begin(name);

    hive_config c = ht_config(&target);
    hive_table *t = ht_open(&target, &c);
    operations(t, 1);
    two_streams(t);
    misuse(t);
    ht_close(t);
    no_room();
    if (target.width == HIVE_KV32) {
        /* Buckets of 32 slots, their scan shared by a tile of lanes. */
        hive_config wide = ht_config(&target);
        wide.bucket_slots = 32;
        hive_table *w = ht_open(&target, &wide);
        operations(w, 32);
        operations(w, 8);
        ht_close(w);
    }
    return ht_finish();
}
