/* allocator.c — hive_config.allocator (hive.h), given an allocator of the
 * test's own that takes its memory from cudaMallocAsync on the stream it is
 * handed and counts calls, live blocks and live bytes, checking that each
 * free names a live block with the size it was allocated with:
 *
 *   hive-allocator <cpu|cuda> <kv32|kv64> [--design NAME] [--keys N]
 *
 *   grow     a table of 64 slots takes N keys (2^20) in calls of half as
 *            many keys as it holds (many growths; every other call without a
 *            results array, so that the batch's own marks come from the
 *            allocator too), then most are erased a quarter at a time
 *            (shrinks); after each call every key is found with its value
 *            and the erased ones are not, and the allocator's live bytes are
 *            the table's bytes_held (every device byte it holds is the
 *            allocator's); the bucket array's growth went through it (a block
 *            as large as the slots), and shrinking moved it to a smaller one;
 *            after destroy nothing is live;
 *   fail     the allocator fails from its k-th call on, for k = 0, 1, ...:
 *            at create (OUT_OF_MEMORY, nothing left allocated); at the insert
 *            that grows a table (OUT_OF_MEMORY with the table unchanged, or
 *            success where only memory the table can do without was refused;
 *            then, the allocator working again, the same insert succeeds) and
 *            at erases that shrink it (they succeed; shrinking is skipped);
 *            a pointer not aligned as cudaMalloc's is refused
 *            (INVALID_ARGUMENT);
 *   cpu      a CPU table ignores the allocator: the same runs call it never.
 *   cache    (KV64, the hive design's run) a cache table (hive_cache_config.
 *            allocator) takes its device arrays from the allocator (values
 *            in device memory and in host memory), runs size, clear and
 *            save and load through them, and gives all back at destroy; it
 *            fails at create as above, and refuses misaligned pointers; a
 *            CPU cache never calls it.
 *
 * The CUDA runs skip without a GPU (HIVE_REQUIRE_GPU=1: fail). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef HT_WITH_CUDA
#include <cuda_runtime.h>
#endif

#include "hivetest.h"

#define MAX_BLOCKS 64
#define NEVER UINT64_MAX

/* ---------------------------------------------------------------- the counting allocator */

typedef struct counting {
    pthread_mutex_t lock;
    uint64_t allocs;     /* alloc calls, refused ones included */
    uint64_t refused;    /* of them, answered NULL */
    uint64_t frees;      /* free calls */
    uint64_t bad_frees;  /* frees of no live block, or with another size */
    uint64_t live_bytes, largest; /* largest: the largest block ever */
    uint64_t fail_from;  /* the alloc call numbered this (from 0) and later ones return NULL */
    size_t misalign;     /* bytes added to every pointer returned */
    struct {
        char *p;
        size_t bytes;
    } blocks[MAX_BLOCKS];
    size_t live_blocks;
} counting;

static void *counting_alloc(void *user, size_t bytes, hive_stream stream)
{
    counting *a = (counting *)user;
    pthread_mutex_lock(&a->lock);
    char *p = NULL;
    if (a->allocs++ >= a->fail_from || a->live_blocks == MAX_BLOCKS) {
        a->refused++;
    } else {
#ifdef HT_WITH_CUDA
        void *q = NULL;
        if (cudaMallocAsync(&q, bytes + a->misalign, (cudaStream_t)stream) != cudaSuccess) {
            cudaGetLastError();
            q = NULL;
        }
#else
        (void)stream; /* CPU tables never call it */
        void *q = malloc(bytes + a->misalign);
#endif
        if (q == NULL) {
            a->refused++;
        } else {
            p = (char *)q + a->misalign;
            a->blocks[a->live_blocks].p = p;
            a->blocks[a->live_blocks].bytes = bytes;
            a->live_blocks++;
            a->live_bytes += bytes;
            if (bytes > a->largest)
                a->largest = bytes;
        }
    }
    pthread_mutex_unlock(&a->lock);
    return p;
}

static void counting_free(void *user, void *ptr, size_t bytes, hive_stream stream)
{
    counting *a = (counting *)user;
    pthread_mutex_lock(&a->lock);
    a->frees++;
    size_t i = 0;
    while (i < a->live_blocks && a->blocks[i].p != (char *)ptr)
        i++;
    if (i == a->live_blocks || a->blocks[i].bytes != bytes) {
        a->bad_frees++; /* kept live: the test fails on it, and nothing is freed twice */
    } else {
        a->live_bytes -= bytes;
        a->blocks[i] = a->blocks[--a->live_blocks];
#ifdef HT_WITH_CUDA
        if (cudaFreeAsync((char *)ptr - a->misalign, (cudaStream_t)stream) != cudaSuccess) {
            cudaGetLastError();
            a->bad_frees++;
        }
#else
        (void)stream;
        free((char *)ptr - a->misalign);
#endif
    }
    pthread_mutex_unlock(&a->lock);
}

static void counting_init(counting *a)
{
    memset(a, 0, sizeof *a);
    pthread_mutex_init(&a->lock, NULL);
    a->fail_from = NEVER;
}

static hive_allocator counting_hook(counting *a)
{
    hive_allocator h = {counting_alloc, counting_free, a};
    return h;
}

/* After a table is destroyed or failed to be created: nothing left. */
static void expect_all_freed(const counting *a, const char *where)
{
    HT_CHECK_EQ(a->live_bytes, 0, "live bytes %s", where);
    HT_CHECK_EQ(a->live_blocks, 0, "live blocks %s", where);
    HT_CHECK_EQ(a->bad_frees, 0, "frees of no live block or with the wrong size %s", where);
}

/* ---------------------------------------------------------------- shared */

static ht_target target;
static int on_gpu;

/* Between calls: a CUDA table's device memory is the allocator's, all of it
 * (bytes_held counts the device arrays); a CPU table never calls it. */
static void expect_accounting(hive_table *table, const counting *a, const char *where)
{
    HT_CHECK_EQ(a->bad_frees, 0, "frees of no live block or with the wrong size %s", where);
    if (!on_gpu) {
        HT_CHECK_EQ(a->allocs + a->frees, 0, "allocator calls by a CPU table %s", where);
        return;
    }
    hive_stats st;
    HT_MUST(hive_stats_get(table, &st));
    HT_CHECK_EQ(a->live_bytes, st.bytes_held, "allocator's live bytes against bytes_held %s", where);
}

/* Inserts keys[0, n) with values; results checked where `with_results`
 * (else the batch's marks are the table's own memory). */
static hive_status insert(hive_table *table, ht_batch *b, const uint64_t *keys, size_t n, ht_rng *rng,
                          int with_results)
{
    b->n = n;
    for (size_t i = 0; i < n; i++) {
        ht_put(&target, b->keys, i, keys[i]);
        ht_put(&target, b->values, i, ht_random_value(&target, rng));
    }
    memset(b->results, HT_FLAG_POISON, n);
    return hive_insert(table, n, b->keys, b->values, HIVE_COMBINE_ASSIGN, with_results ? b->results : NULL,
                       b->stream);
}

/* After a successful insert of b's (distinct) keys: each INSERTED, or
 * UPDATED where the reference has it already (where results were asked
 * for), and into the reference. */
static void inserted(const ht_batch *b, ht_ref *ref, int with_results)
{
    uint64_t odd = 0;
    for (size_t i = 0; i < b->n; i++) {
        uint64_t key = ht_get(&target, b->keys, i);
        unsigned want = ht_ref_get(ref, key, NULL) ? HIVE_RESULT_UPDATED : HIVE_RESULT_INSERTED;
        odd += with_results && b->results[i] != want;
        ht_ref_put(ref, key, ht_get(&target, b->values, i));
    }
    HT_CHECK_EQ(odd, 0, "results other than INSERTED for new keys and UPDATED for present ones");
}

/* ---------------------------------------------------------------- grow */

static void grow(size_t max_keys)
{
    counting a;
    counting_init(&a);
    hive_config c = ht_config(&target);
    c.initial_capacity = 64;
    c.allocator = counting_hook(&a);
    ht_context("grow: create");
    hive_table *table = ht_open(&target, &c);
    uint64_t created = a.allocs;
    HT_CHECK(on_gpu ? created > 0 : created == 0, "allocator calls at create: %llu", (unsigned long long)created);
    expect_accounting(table, &a, "after create");

    uint64_t *keys = malloc(max_keys * sizeof *keys);
    if (keys == NULL)
        ht_fatal("out of host memory");
    ht_rng rng;
    ht_rng_seed(&rng, 25);
    ht_unique_keys(&target, &rng, keys, max_keys, NULL);
    ht_ref ref;
    ht_ref_init(&ref);
    ht_batch b, scratch;
    ht_batch_init(&b, &target, max_keys / 2 > 256 ? max_keys / 2 : 256);
    ht_batch_init(&scratch, &target, 1u << 16);

    size_t have = 0;
    unsigned calls = 0;
    hive_stats st;
    uint64_t peak_live = 0;
    while (have < max_keys) {
        size_t n = have / 2 > 256 ? have / 2 : 256;
        if (n > max_keys - have)
            n = max_keys - have;
        int with_results = calls++ % 2 == 0;
        ht_context("grow: insert %zu keys into %zu (%s results)", n, have, with_results ? "with" : "without");
        if (!HT_CHECK_STATUS(insert(table, &b, keys + have, n, &rng, with_results), HIVE_SUCCESS, "insert"))
            break;
        inserted(&b, &ref, with_results);
        have += n;
        ht_expect_finds(&target, table, &ref, &scratch, "after an insert");
        expect_accounting(table, &a, "after an insert");
        if (a.live_bytes > peak_live)
            peak_live = a.live_bytes;
    }
    ht_context("grow: after %zu keys", have);
    ht_expect_contents(&target, table, &ref, "after the inserts");
    HT_MUST(hive_stats_get(table, &st));
    HT_CHECK(st.grows >= 8, "%llu grows from 64 slots to %zu keys", (unsigned long long)st.grows, have);
    if (on_gpu) {
        HT_CHECK(a.allocs > created, "no allocator call after create (%llu)", (unsigned long long)a.allocs);
        HT_CHECK(a.largest >= st.capacity * 2 * target.kv_bytes,
                 "the largest block (%llu bytes) is smaller than the slots (%llu of %zu bytes): the buckets "
                 "grew elsewhere",
                 (unsigned long long)a.largest, (unsigned long long)st.capacity, 2 * target.kv_bytes);
    }

    /* Erase a quarter of what is left at a time, down to 1/32. */
    size_t gone = 0;
    uint64_t shrinks_before = st.shrinks;
    while (have - gone > max_keys / 32) {
        size_t n = (have - gone) / 4;
        ht_context("grow: erase %zu of %zu keys", n, have - gone);
        b.n = n;
        for (size_t i = 0; i < n; i++)
            ht_put(&target, b.keys, i, keys[gone + i]);
        memset(b.results, HT_FLAG_POISON, n);
        if (!HT_CHECK_STATUS(hive_erase(table, n, b.keys, b.results, b.stream), HIVE_SUCCESS, "erase"))
            break;
        uint64_t odd = 0;
        for (size_t i = 0; i < n; i++) {
            odd += b.results[i] != HIVE_RESULT_ERASED;
            ht_ref_del(&ref, keys[gone + i]);
        }
        HT_CHECK_EQ(odd, 0, "results other than ERASED");
        ht_expect_finds(&target, table, &ref, &scratch, "after an erase");
        ht_expect_absent(&target, table, keys + gone, n < scratch.cap ? n : scratch.cap, &scratch,
                         "the keys just erased");
        expect_accounting(table, &a, "after an erase");
        gone += n;
    }
    ht_context("grow: after erasing %zu of %zu keys", gone, have);
    ht_expect_contents(&target, table, &ref, "after the erases");
    HT_MUST(hive_stats_get(table, &st));
    HT_CHECK(st.shrinks > shrinks_before, "no shrink after erasing %zu of %zu keys", gone, have);
    if (on_gpu)
        HT_CHECK(a.live_bytes < peak_live / 4,
                 "%llu bytes live after shrinking to 1/32 of the keys, %llu at the peak: the bucket array "
                 "stayed in its large block",
                 (unsigned long long)a.live_bytes, (unsigned long long)peak_live);

    ht_batch_free(&scratch);
    ht_batch_free(&b);
    ht_close(table);
    expect_all_freed(&a, "after destroy");
    printf("  grow: %llu allocator calls, %llu frees, largest block %llu bytes, peak %llu bytes live\n",
           (unsigned long long)a.allocs, (unsigned long long)a.frees, (unsigned long long)a.largest,
           (unsigned long long)peak_live);
    ht_ref_free(&ref);
    free(keys);
    pthread_mutex_destroy(&a.lock);
}

/* ---------------------------------------------------------------- fail */

/* The allocator refuses from its k-th call of create on. */
static void fail_at_create(void)
{
    unsigned k;
    for (k = 0; k < 64; k++) {
        counting a;
        counting_init(&a);
        a.fail_from = k;
        hive_config c = ht_config(&target);
        c.allocator = counting_hook(&a);
        hive_table *table = NULL;
        ht_context("fail: create, the allocator refusing from call %u", k);
        hive_status s = hive_create(&c, &table);
        int done = s == HIVE_SUCCESS && a.refused == 0;
        if (s == HIVE_SUCCESS) {
            HT_CHECK(on_gpu || a.allocs == 0, "a CPU table called the allocator");
            ht_close(table);
        } else {
            ht_skip_without_gpu(&target, s, "table");
            HT_CHECK_STATUS(s, HIVE_ERROR_OUT_OF_MEMORY, "create with the allocator refusing");
            HT_CHECK(table == NULL, "a failed create set the table");
            HT_CHECK(strstr(hive_last_error(), "allocator") != NULL, "the error names the allocator: %s",
                     hive_last_error());
        }
        expect_all_freed(&a, "after create");
        pthread_mutex_destroy(&a.lock);
        if (done)
            break;
    }
    HT_CHECK(k < 64, "create still refused after 64 calls");
    HT_CHECK(on_gpu ? k > 0 : k == 0, "create succeeded with the allocator refusing from call %u", k);
}

/* A pointer that is not aligned as cudaMalloc's: refused at create. */
static void misaligned(void)
{
    counting a;
    counting_init(&a);
    a.misalign = 16;
    hive_config c = ht_config(&target);
    c.allocator = counting_hook(&a);
    hive_table *table = NULL;
    ht_context("fail: an allocator returning misaligned pointers");
    hive_status s = hive_create(&c, &table);
    if (on_gpu) {
        HT_CHECK_STATUS(s, HIVE_ERROR_INVALID_ARGUMENT, "create with misaligned pointers");
        HT_CHECK(strstr(hive_last_error(), "aligned") != NULL, "the error says why: %s", hive_last_error());
    } else if (HT_CHECK_STATUS(s, HIVE_SUCCESS, "a CPU table ignores the allocator")) {
        ht_close(table);
    }
    expect_all_freed(&a, "after a create with misaligned pointers");
    pthread_mutex_destroy(&a.lock);
}

/* The allocator refuses from the k-th call of an insert that grows the
 * table on, for every k that reaches an allocation of it; then of erases
 * that shrink it. */
static void fail_at_growth(void)
{
    const size_t before = 512, batch = 4096;
    uint64_t keys[512 + 4096];
    ht_rng rng;
    ht_rng_seed(&rng, 5);
    ht_unique_keys(&target, &rng, keys, before + batch, NULL);
    ht_batch b, scratch;
    ht_batch_init(&b, &target, before + batch);
    ht_batch_init(&scratch, &target, batch);
    unsigned k, ooms = 0;
    for (k = 0; k < 64; k++) {
        counting a;
        counting_init(&a);
        hive_config c = ht_config(&target);
        c.initial_capacity = 1024;
        c.allocator = counting_hook(&a);
        ht_context("fail: growth, the allocator refusing from call %u of the insert", k);
        hive_table *table = ht_open(&target, &c);
        ht_ref ref;
        ht_ref_init(&ref);
        HT_CHECK_STATUS(insert(table, &b, keys, before, &rng, 1), HIVE_SUCCESS, "insert without growth");
        inserted(&b, &ref, 1);
        hive_stats st0, st1;
        HT_MUST(hive_stats_get(table, &st0));

        a.fail_from = a.allocs + k;
        hive_status s = insert(table, &b, keys + before, batch, &rng, 1);
        uint64_t refused = a.refused;
        HT_MUST(hive_stats_get(table, &st1));
        if (s == HIVE_ERROR_OUT_OF_MEMORY) {
            ooms++;
            HT_CHECK(refused > 0, "OUT_OF_MEMORY with no allocation refused");
            HT_CHECK_EQ(st1.capacity, st0.capacity, "capacity after the failed growth");
            HT_CHECK_EQ(st1.size, before, "size after the failed growth");
            ht_expect_contents(&target, table, &ref, "after the failed growth");
            ht_expect_finds(&target, table, &ref, &scratch, "after the failed growth");
            ht_expect_absent(&target, table, keys + before, batch, &scratch, "the failed insert's keys");
            expect_accounting(table, &a, "after the failed growth");
            a.fail_from = NEVER; /* usable again: the same insert succeeds */
            s = insert(table, &b, keys + before, batch, &rng, 1);
        }
        if (s == HIVE_ERROR_TABLE_FULL) {
            /* The growth succeeded and a later one, for keys that found no
             * room, was refused (api/policy.c: retry_full): those keys are
             * REJECTED_FULL, the others in.  Run again with memory. */
            size_t rejected = 0;
            for (size_t i = 0; i < batch; i++)
                if (b.results[i] == HIVE_RESULT_REJECTED_FULL)
                    rejected++;
                else if (HT_CHECK_EQ(b.results[i], HIVE_RESULT_INSERTED, "result of key %zu", i))
                    ht_ref_put(&ref, keys[before + i], ht_get(&target, b.values, i));
            HT_CHECK(rejected > 0, "TABLE_FULL with no key rejected");
            ht_expect_contents(&target, table, &ref, "after the growth for rejected keys failed");
            a.fail_from = NEVER;
            s = insert(table, &b, keys + before, batch, &rng, 1);
        }
        if (HT_CHECK_STATUS(s, HIVE_SUCCESS, "the insert that grows the table"))
            inserted(&b, &ref, 1);
        ht_expect_contents(&target, table, &ref, "after the insert that grows the table");
        ht_expect_finds(&target, table, &ref, &scratch, "after the insert that grows the table");
        expect_accounting(table, &a, "after the insert that grows the table");

        /* Erases that shrink it, with the allocator refusing from the same
         * call on: they succeed (the shrink is skipped, or keeps its old
         * block), and the table holds what they left. */
        a.fail_from = a.allocs + k;
        b.n = before + batch - 64;
        for (size_t i = 0; i < b.n; i++)
            ht_put(&target, b.keys, i, keys[i]);
        HT_CHECK_STATUS(hive_erase(table, b.n, b.keys, NULL, b.stream), HIVE_SUCCESS, "erase with the allocator refusing");
        for (size_t i = 0; i < b.n; i++)
            ht_ref_del(&ref, keys[i]);
        ht_expect_contents(&target, table, &ref, "after the erases");
        ht_expect_finds(&target, table, &ref, &scratch, "after the erases");
        expect_accounting(table, &a, "after the erases");

        ht_close(table);
        expect_all_freed(&a, "after destroy");
        ht_ref_free(&ref);
        pthread_mutex_destroy(&a.lock);
        if (refused == 0)
            break; /* k is past every allocation of the growth */
    }
    ht_batch_free(&scratch);
    ht_batch_free(&b);
    HT_CHECK(k < 64, "the insert still met a refusal after 64 calls");
    HT_CHECK(on_gpu ? ooms > 0 : ooms == 0, "%u growths ran out of memory", ooms);
    printf("  fail: the growing insert makes %u allocator calls; %u refusals gave OUT_OF_MEMORY\n", k, ooms);
}

/* ---------------------------------------------------------------- cache */

static hive_status open_cache(counting *a, uint64_t hbm_bytes, hive_cache **cache)
{
    hive_cache_config c = HIVE_CACHE_CONFIG_INIT;
    c.backend = target.backend;
    c.capacity = 4096;
    c.dim = 4;
    c.threads = 2;
    c.value_hbm_bytes = hbm_bytes;
    c.allocator = counting_hook(a);
    *cache = NULL;
    return hive_cache_create(&c, cache);
}

static void cache_allocator(void)
{
    for (int half = 0; half < 2; half++) {
        ht_context("cache: values %s device memory", half ? "half in" : "all in");
        counting a;
        counting_init(&a);
        hive_cache *cache = NULL;
        hive_status s = open_cache(&a, half ? 4096 * 16 / 2 : HIVE_CACHE_HBM_UNLIMITED, &cache);
        ht_skip_without_gpu(&target, s, "cache");
        HT_MUST(s);
        HT_CHECK(on_gpu ? a.live_blocks >= 6 : a.allocs == 0, "allocator blocks after create: %zu (calls %llu)",
                 a.live_blocks, (unsigned long long)a.allocs);
        uint64_t size = 1, capacity = 0;
        HT_MUST(hive_cache_size(cache, &size));
        HT_MUST(hive_cache_capacity(cache, &capacity));
        HT_CHECK(size == 0 && capacity == 4096, "size %llu capacity %llu", (unsigned long long)size,
                 (unsigned long long)capacity);
        HT_MUST(hive_cache_clear(cache, NULL));
        HT_MUST(hive_cache_destroy(cache));
        expect_all_freed(&a, "after a cache's destroy");
        pthread_mutex_destroy(&a.lock);
    }
    unsigned k;
    for (k = 0; k < 64; k++) {
        ht_context("cache: create, the allocator refusing from call %u", k);
        counting a;
        counting_init(&a);
        a.fail_from = k;
        hive_cache *cache = NULL;
        hive_status s = open_cache(&a, HIVE_CACHE_HBM_UNLIMITED, &cache);
        int done = s == HIVE_SUCCESS && a.refused == 0;
        if (s == HIVE_SUCCESS) {
            HT_MUST(hive_cache_destroy(cache));
        } else {
            HT_CHECK_STATUS(s, HIVE_ERROR_OUT_OF_MEMORY, "cache create with the allocator refusing");
            HT_CHECK(cache == NULL, "a failed create set the cache");
        }
        expect_all_freed(&a, "after a cache's create");
        pthread_mutex_destroy(&a.lock);
        if (done)
            break;
    }
    HT_CHECK(on_gpu ? k > 0 && k < 64 : k == 0, "cache create refused up to call %u", k);
    ht_context("cache: misaligned pointers");
    counting a;
    counting_init(&a);
    a.misalign = 16;
    hive_cache *cache = NULL;
    hive_status s = open_cache(&a, HIVE_CACHE_HBM_UNLIMITED, &cache);
    if (on_gpu)
        HT_CHECK_STATUS(s, HIVE_ERROR_INVALID_ARGUMENT, "cache create with misaligned pointers");
    else if (HT_CHECK_STATUS(s, HIVE_SUCCESS, "a CPU cache ignores the allocator"))
        HT_MUST(hive_cache_destroy(cache));
    expect_all_freed(&a, "after a cache create with misaligned pointers");
    pthread_mutex_destroy(&a.lock);
}

int main(int argc, char **argv)
{
    static char name[96];
    const char *usage = "<cpu|cuda> <kv32|kv64> [--design NAME] [--keys N]";
    hive_design design = ht_take_design(&argc, argv, usage);
    size_t max_keys = 1u << 20;
    if (argc == 5 && strcmp(argv[3], "--keys") == 0)
        max_keys = strtoull(argv[4], NULL, 0);
    else if (argc != 3)
        ht_fatal("usage: %s %s", argv[0], usage);
    ht_target_from_args(&target, argc, argv, 1, usage);
    ht_target_set_design(&target, design);
    on_gpu = target.backend == HIVE_BACKEND_CUDA;
    snprintf(name, sizeof name, "allocator %s %s %s", target.backend_name, target.width_name, target.design_name);
    ht_begin(name);
    ht_require_backend(&target);

    grow(max_keys);
    fail_at_create();
    misaligned();
    fail_at_growth();
    if (target.width == HIVE_KV64 && target.design == HIVE_DESIGN_HIVE)
        cache_allocator();
    return ht_finish();
}
